#include "nb-sim-skill.h"

#include <string.h>

#define HOME "исходное положение"

struct _NbSimRobot {
  double clock_s;
  char *place;
  char *holding;
  GHashTable *object_places;            /* object → place; absent: lies at its own name */
  GArray *events;
};

static void
event_clear (gpointer p)
{
  g_free (((NbSimEvent *) p)->place);
}

NbSimRobot *
nb_sim_robot_new (void)
{
  NbSimRobot *r = g_new0 (NbSimRobot, 1);

  r->place = g_strdup (HOME);
  r->object_places = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r->events = g_array_new (FALSE, TRUE, sizeof (NbSimEvent));
  g_array_set_clear_func (r->events, event_clear);
  return r;
}

void
nb_sim_robot_free (NbSimRobot *r)
{
  if (r == NULL)
    return;
  g_free (r->place);
  g_free (r->holding);
  g_clear_pointer (&r->object_places, g_hash_table_unref);
  g_clear_pointer (&r->events, g_array_unref);
  g_free (r);
}

double nb_sim_robot_clock_s (const NbSimRobot *r) { return r->clock_s; }
const char *nb_sim_robot_place (const NbSimRobot *r) { return r->place; }
const char *nb_sim_robot_holding (const NbSimRobot *r) { return r->holding; }
const GArray *nb_sim_robot_events (const NbSimRobot *r) { return r->events; }

const char *
nb_sim_step_name (NbSkillStepKind kind)
{
  switch (kind)
    {
    case NB_SKILL_STEP_MOTION: return "motion";
    case NB_SKILL_STEP_GRIPPER: return "gripper";
    case NB_SKILL_STEP_WAIT: return "wait";
    default: return "?";
    }
}

const char *
nb_sim_gripper_name (int arg)
{
  switch (arg)
    {
    case NB_SKILL_GRIPPER_CLOSE: return "close";
    case NB_SKILL_GRIPPER_OPEN: return "open";
    case NB_SKILL_GRIPPER_KEEP: return "keep";
    default: return "?";
    }
}

static const char *
object_place (const NbSimRobot *r, const char *object)
{
  const char *p;

  if (r->holding != NULL && strcmp (r->holding, object) == 0)
    return r->place;
  p = g_hash_table_lookup (r->object_places, object);
  return p != NULL ? p : object;
}

/* FALSE with *reason when the gripper cannot do it. */
static gboolean
gripper_step (NbSimRobot *r, int op, const char *object, char **reason)
{
  switch (op)
    {
    case NB_SKILL_GRIPPER_CLOSE:
      if (r->holding != NULL)
        {
          *reason = g_strdup_printf ("gripper close on '%s': it already holds '%s'", object,
                                     r->holding);
          return FALSE;
        }
      r->holding = g_strdup (object);
      g_hash_table_remove (r->object_places, object);
      return TRUE;
    case NB_SKILL_GRIPPER_OPEN:
    case NB_SKILL_GRIPPER_KEEP:
      if (r->holding == NULL || strcmp (r->holding, object) != 0)
        {
          *reason = r->holding == NULL
            ? g_strdup_printf ("gripper %s: '%s' is not held, the gripper is empty",
                               nb_sim_gripper_name (op), object)
            : g_strdup_printf ("gripper %s: '%s' is not held, the gripper holds '%s'",
                               nb_sim_gripper_name (op), object, r->holding);
          return FALSE;
        }
      if (op == NB_SKILL_GRIPPER_OPEN)
        {
          /* The object stays where the robot put it down. */
          g_hash_table_replace (r->object_places, g_strdup (object), g_strdup (r->place));
          g_clear_pointer (&r->holding, g_free);
        }
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

gboolean
nb_sim_robot_execute (NbSimRobot *r, guint action, const NbSkill *skill, const char *object,
                      const char *target, gboolean inject_fault, char **reason)
{
  g_return_val_if_fail (skill != NULL && object != NULL, FALSE);

  if (inject_fault && skill->n_steps == 0)
    {
      *reason = g_strdup_printf ("%s: injected fault", skill->name);
      return FALSE;
    }
  for (guint k = 0; k < skill->n_steps; k++)
    {
      const NbSkillStep *s = &skill->steps[k];
      NbSimEvent e = { action, s->kind, s->arg, NULL, s->what, r->clock_s, s->duration_s, TRUE };
      g_autofree char *why = NULL;

      switch (s->kind)
        {
        case NB_SKILL_STEP_MOTION:
          {
            /* A skill whose target is forbidden moves to its object. */
            const char *to = s->arg == NB_SKILL_TO_TARGET && target != NULL
                               ? target : object_place (r, object);

            e.place = g_strdup (to);
            if (!inject_fault || k > 0)
              {
                g_free (r->place);
                r->place = g_strdup (to);
              }
          }
          break;
        case NB_SKILL_STEP_GRIPPER:
          e.place = g_strdup (object);
          if (!inject_fault || k > 0)
            e.ok = gripper_step (r, s->arg, object, &why);
          break;
        case NB_SKILL_STEP_WAIT:
          break;
        default:
          g_assert_not_reached ();
        }
      r->clock_s += s->duration_s;
      if (inject_fault && k == 0)
        {
          e.ok = FALSE;
          why = g_strdup_printf ("injected fault in its %s step", nb_sim_step_name (s->kind));
        }
      g_array_append_val (r->events, e);
      if (!e.ok)
        {
          *reason = g_strdup_printf ("%s: %s", skill->name, why);
          return FALSE;
        }
    }
  return TRUE;
}
