#include "plan-dataset.h"

#include <string.h>

typedef struct {
  char *id, *skill, *object, *target, *on_success, *on_failure;
  gboolean extra_field;
  gboolean object_twice;
} Gen;

static void
gen_clear (gpointer p)
{
  Gen *g = p;

  g_free (g->id);
  g_free (g->skill);
  g_free (g->object);
  g_free (g->target);
  g_free (g->on_success);
  g_free (g->on_failure);
}

static void
push (GArray *plan, const char *skill, const char *object, const char *target)
{
  Gen g = { NULL, g_strdup (skill), g_strdup (object), g_strdup (target), NULL, NULL, FALSE, FALSE };

  g_array_append_val (plan, g);
}

static void
home (GArray *plan)
{
  push (plan, "return_home", "робот", "исходное положение");
}

/* The seed's example, with other objects. */
static void
scenario_operator (GArray *p, GRand *r)
{
  g_autofree char *x = g_strdup_printf ("распределительная коробка №%d", g_rand_int_range (r, 1, 100));
  g_autofree char *z = g_strdup_printf ("зона хранения №%d", g_rand_int_range (r, 1, 10));

  push (p, "detect", x, NULL);
  push (p, "approach", x, NULL);
  push (p, "pick", x, NULL);
  push (p, "move_to_operator", x, "оператор");
  push (p, "hold", x, "оператор");
  push (p, "wait_assembly", x, NULL);
  push (p, "move_to_storage", x, z);
  push (p, "release", x, NULL);
  home (p);
}

static void
scenario_insert (GArray *p, GRand *r)
{
  g_autofree char *x = g_strdup_printf ("деталь №%d", g_rand_int_range (r, 1, 100));
  g_autofree char *t = g_strdup_printf ("сборочная позиция №%d", g_rand_int_range (r, 1, 10));

  push (p, "detect", x, NULL);
  push (p, "approach", x, NULL);
  push (p, "pick", x, NULL);
  push (p, "position", x, t);
  push (p, "align", x, t);
  push (p, "insert", x, t);
  push (p, "release", x, NULL);
  push (p, "inspect", x, NULL);
  home (p);
}

static void
scenario_fastener (GArray *p, GRand *r)
{
  g_autofree char *x = g_strdup_printf ("винт №%d", g_rand_int_range (r, 1, 100));
  g_autofree char *t = g_strdup_printf ("отверстие №%d", g_rand_int_range (r, 1, 20));

  push (p, "detect", x, NULL);
  push (p, "pick", x, NULL);
  push (p, "insert_fastener", x, t);
  push (p, "tighten", x, t);
  push (p, "release", x, NULL);
  push (p, "measure", x, NULL);
  home (p);
}

static void
scenario_glue (GArray *p, GRand *r)
{
  g_autofree char *x = g_strdup_printf ("пластина №%d", g_rand_int_range (r, 1, 100));
  g_autofree char *t = g_strdup_printf ("место соединения №%d", g_rand_int_range (r, 1, 10));

  push (p, "clean_surface", x, NULL);
  push (p, "apply_adhesive", x, NULL);
  push (p, "pick", x, NULL);
  push (p, "bond", x, t);
  push (p, "release", x, NULL);
  push (p, "wait_cure", x, NULL);
  home (p);
}

static void
scenario_wire (GArray *p, GRand *r)
{
  g_autofree char *x = g_strdup_printf ("провод №%d", g_rand_int_range (r, 1, 100));
  g_autofree char *t = g_strdup_printf ("клемма №%d", g_rand_int_range (r, 1, 30));

  push (p, "approach", x, NULL);
  push (p, "pick", x, NULL);
  push (p, "route_wire", x, t);
  push (p, "connect", x, t);
  push (p, "release", x, NULL);
  push (p, "test_continuity", x, NULL);
  home (p);
}

static void
scenario_handover (GArray *p, GRand *r)
{
  g_autofree char *x = g_strdup_printf ("корпус №%d", g_rand_int_range (r, 1, 100));

  push (p, "detect", x, NULL);
  push (p, "pick", x, NULL);
  push (p, "wait_operator", x, NULL);
  push (p, "handover", x, "оператор");
  push (p, "release", x, NULL);
  push (p, "confirm_assembly", x, NULL);
  home (p);
}

static void
scenario_fixture (GArray *p, GRand *r)
{
  int k = g_rand_int_range (r, 1, 100);
  g_autofree char *x = g_strdup_printf ("кронштейн №%d", k);
  g_autofree char *c = g_strdup_printf ("микросхема №%d", k);
  g_autofree char *b = g_strdup_printf ("плата №%d", g_rand_int_range (r, 1, 10));

  push (p, "pick", x, NULL);
  push (p, "place", x, "приспособление №1");
  push (p, "press_fit", x, "приспособление №1");
  push (p, "release", x, NULL);
  push (p, "clamp", x, "приспособление №1");
  push (p, "weld", x, "шов №1");
  push (p, "pick", c, NULL);
  push (p, "seat_component", c, b);
  push (p, "release", c, NULL);
  push (p, "test_connection", c, NULL);
  home (p);
}

typedef void (*Scenario) (GArray *p, GRand *r);

static const Scenario scenarios[] = {
  scenario_operator, scenario_insert, scenario_fastener, scenario_glue, scenario_wire,
  scenario_handover, scenario_fixture,
};

/* Branch links: each action succeeds into the next; the last into status. */
static void
link (GArray *p, const char *status)
{
  for (guint i = 0; i < p->len; i++)
    {
      Gen *g = &g_array_index (p, Gen, i);

      g->id = g_strdup_printf ("step_%u", i + 1);
      g->on_success = i + 1 < p->len ? g_strdup_printf ("step_%u", i + 2) : g_strdup (status);
      g->on_failure = g_strdup ("replan_required");
    }
}

static void
set (char **field, const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static void
append_string (GString *out, const char *key, const char *value)
{
  g_string_append_printf (out, "\"%s\": \"%s\"", key, value);
}

static void
serialize (GString *out, const char *status, GArray *p)
{
  g_string_append_printf (out, "{\"status\": \"%s\", \"plan\": [", status);
  for (guint i = 0; i < p->len; i++)
    {
      Gen *g = &g_array_index (p, Gen, i);
      gboolean first = TRUE;
      const char *keys[] = { "id", "skill", "object", "target", "on_success", "on_failure" };
      const char *values[] = { g->id, g->skill, g->object, g->target, g->on_success,
                               g->on_failure };

      g_string_append (out, i ? ", {" : "{");
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        if (values[k] != NULL)
          {
            if (!first)
              g_string_append (out, ", ");
            append_string (out, keys[k], values[k]);
            first = FALSE;
          }
      if (g->extra_field)
        g_string_append (out, ", \"speed\": 0.5");
      if (g->object_twice)
        g_string_append_printf (out, ", \"object\": \"%s\"", g->object);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "]}");
}

/* An action index whose skill has no target and no gripper rule (a forbidden
 * target, no fixed object): safe to rename or to give a target. */
static guint
plain_action (GArray *p, GRand *r)
{
  static const char *const plain[] = {
    "detect", "approach", "inspect", "measure", "clean_surface", "apply_adhesive", "wait_cure",
    "test_continuity", "test_connection", "wait_operator", "confirm_assembly",
  };

  for (;;)
    {
      guint i = (guint) g_rand_int_range (r, 0, (gint32) p->len);

      if (g_strv_contains (plain, g_array_index (p, Gen, i).skill))
        return i;
    }
}

static int
find_skill (GArray *p, const char *skill)
{
  for (guint i = 0; i < p->len; i++)
    if (strcmp (g_array_index (p, Gen, i).skill, skill) == 0)
      return (int) i;
  return -1;
}

static gboolean
has_plain (GArray *p)
{
  static const char *const plain[] = { "detect", "approach", "inspect", "measure",
                                       "clean_surface", "apply_adhesive", "wait_cure",
                                       "test_continuity", "test_connection", "wait_operator",
                                       "confirm_assembly", NULL };

  for (guint i = 0; i < p->len; i++)
    if (g_strv_contains (plain, g_array_index (p, Gen, i).skill))
      return TRUE;
  return FALSE;
}

static gboolean
has_target_action (GArray *p)
{
  static const char *const skills[] = { "position", "align", "insert", "insert_fastener",
                                        "tighten", "press_fit", "route_wire", "connect",
                                        "seat_component", "bond", "clamp", "weld",
                                        "move_to_storage", NULL };

  for (guint i = 0; i < p->len; i++)
    if (g_strv_contains (skills, g_array_index (p, Gen, i).skill))
      return TRUE;
  return FALSE;
}

/* Required-target skills without gripper rules. */
static guint
target_action (GArray *p, GRand *r)
{
  for (;;)
    {
      guint i = (guint) g_rand_int_range (r, 0, (gint32) p->len);
      Gen *g = &g_array_index (p, Gen, i);

      if (g->target != NULL && strcmp (g->skill, "return_home") != 0 &&
          strcmp (g->skill, "place") != 0 && strcmp (g->skill, "handover") != 0 &&
          strcmp (g->skill, "hold") != 0 && strcmp (g->skill, "move_to_operator") != 0)
        return i;
    }
}

typedef enum {
  F_UNKNOWN_SKILL, F_TERMINAL_AS_SKILL, F_MISSING_SKILL, F_MISSING_OBJECT, F_TARGET_FORBIDDEN,
  F_TARGET_MISSING, F_FIXED_TARGET, F_FIXED_OBJECT, F_BAD_STATUS, F_UNKNOWN_FIELD, F_BAD_ID,
  F_DUPLICATE_ID, F_BAD_ON_SUCCESS, F_UNKNOWN_ID, F_CYCLE, F_LAST_NOT_TERMINAL, F_BAD_ON_FAILURE,
  F_SYNTAX, F_DUPLICATE_FIELD, F_GRIPPER_BUSY, F_GRIPPER_NOT_HOLDING, F_UNREACHABLE, F_OUTCOME_MISMATCH, N_FAULTS
} Fault;

static const NbPlanViolationKind fault_kind[N_FAULTS] = {
  NB_PLAN_V_UNKNOWN_SKILL, NB_PLAN_V_TERMINAL_AS_SKILL, NB_PLAN_V_MISSING_SKILL,
  NB_PLAN_V_MISSING_OBJECT, NB_PLAN_V_TARGET_FORBIDDEN, NB_PLAN_V_TARGET_MISSING,
  NB_PLAN_V_WRONG_FIXED_VALUE, NB_PLAN_V_WRONG_FIXED_VALUE, NB_PLAN_V_BAD_STATUS,
  NB_PLAN_V_UNKNOWN_FIELD, NB_PLAN_V_BAD_ID, NB_PLAN_V_DUPLICATE_ID, NB_PLAN_V_BAD_ON_SUCCESS,
  NB_PLAN_V_UNKNOWN_ID, NB_PLAN_V_CYCLE, NB_PLAN_V_LAST_NOT_TERMINAL, NB_PLAN_V_BAD_ON_FAILURE,
  NB_PLAN_V_SYNTAX, NB_PLAN_V_DUPLICATE_FIELD, NB_PLAN_V_GRIPPER_BUSY, NB_PLAN_V_GRIPPER_NOT_HOLDING, NB_PLAN_V_UNREACHABLE,
  NB_PLAN_V_OUTCOME_MISMATCH,
};

static void
insert_at (GArray *p, guint i, const char *skill, const char *object, const char *target)
{
  Gen g = { NULL, g_strdup (skill), g_strdup (object), g_strdup (target), NULL, NULL, FALSE, FALSE };

  g_array_insert_val (p, i, g);
}

/* Applies a fault to a linked plan; returns the status to write.  Faults that
 * change the action list do it before link() via *relink. */
static void
inject (GArray *p, Fault f, GRand *r, char **status)
{
  guint n = p->len, i;

  switch (f)
    {
    case F_UNKNOWN_SKILL:
      set (&g_array_index (p, Gen, plain_action (p, r)).skill, "grab");
      break;
    case F_TERMINAL_AS_SKILL:
      set (&g_array_index (p, Gen, plain_action (p, r)).skill,
           g_rand_boolean (r) ? "ready" : "replan_required");
      break;
    case F_MISSING_SKILL:
      g_clear_pointer (&g_array_index (p, Gen, plain_action (p, r)).skill, g_free);
      break;
    case F_MISSING_OBJECT:
      set (&g_array_index (p, Gen, plain_action (p, r)).object, g_rand_boolean (r) ? "" : " ");
      break;
    case F_TARGET_FORBIDDEN:
      set (&g_array_index (p, Gen, plain_action (p, r)).target, "стол №1");
      break;
    case F_TARGET_MISSING:
      g_clear_pointer (&g_array_index (p, Gen, target_action (p, r)).target, g_free);
      break;
    case F_FIXED_TARGET:
      set (&g_array_index (p, Gen, find_skill (p, "return_home")).target, "домашняя позиция");
      break;
    case F_FIXED_OBJECT:
      set (&g_array_index (p, Gen, find_skill (p, "return_home")).object, "робот №1");
      break;
    case F_BAD_STATUS:
      set (status, g_rand_boolean (r) ? "done" : "Ready");
      break;
    case F_UNKNOWN_FIELD:
      g_array_index (p, Gen, g_rand_int_range (r, 0, (gint32) n)).extra_field = TRUE;
      break;
    case F_DUPLICATE_FIELD:
      g_array_index (p, Gen, g_rand_int_range (r, 0, (gint32) n)).object_twice = TRUE;
      break;
    case F_BAD_ID:
      /* No one leads to the first action: renaming it breaks nothing else. */
      set (&g_array_index (p, Gen, 0).id, g_rand_boolean (r) ? "step_0" : "шаг_1");
      break;
    case F_DUPLICATE_ID:
      {
        /* An extra last action reusing step_1; the former last leads to an outcome. */
        Gen g = { g_strdup ("step_1"), g_strdup ("inspect"), g_strdup ("деталь №0"), NULL,
                  g_strdup (*status), g_strdup ("replan_required"), FALSE, FALSE };

        g_array_append_val (p, g);
      }
      break;
    case F_BAD_ON_SUCCESS:
      i = (guint) g_rand_int_range (r, 0, (gint32) n - 1);
      set (&g_array_index (p, Gen, i).on_success, "replan_required");
      break;
    case F_UNKNOWN_ID:
      i = (guint) g_rand_int_range (r, 0, (gint32) n - 1);
      set (&g_array_index (p, Gen, i).on_success, "step_99");
      break;
    case F_CYCLE:
      i = (guint) g_rand_int_range (r, 0, (gint32) n - 1);
      set (&g_array_index (p, Gen, i).on_success, "step_1");
      break;
    case F_LAST_NOT_TERMINAL:
      {
        /* Swap the last two elements: the path is unchanged, but the array's
         * last action now leads to an id. */
        Gen a = g_array_index (p, Gen, n - 2);

        g_array_index (p, Gen, n - 2) = g_array_index (p, Gen, n - 1);
        g_array_index (p, Gen, n - 1) = a;
      }
      break;
    case F_BAD_ON_FAILURE:
      set (&g_array_index (p, Gen, g_rand_int_range (r, 0, (gint32) n)).on_failure,
           g_rand_boolean (r) ? "blocked" : "step_1");
      break;
    case F_OUTCOME_MISMATCH:
      set (&g_array_index (p, Gen, n - 1).on_success,
           strcmp (*status, "ready") == 0 ? "blocked" : "ready");
      break;
    case F_UNREACHABLE:
      {
        Gen g = { g_strdup_printf ("step_%u", n + 1), g_strdup ("measure"),
                  g_strdup ("деталь №0"), NULL, g_strdup (*status),
                  g_strdup ("replan_required"), FALSE, FALSE };

        g_array_append_val (p, g);
      }
      break;
    default:
      break;
    }
}

void
nb_test_plan_dataset (GString *out, guint n, guint32 seed, double fault_rate,
                      NbTestDatasetExpect *expect)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (seed);

  memset (expect, 0, sizeof *expect);
  for (guint k = 0; k < n; k++)
    {
      g_autoptr (GArray) p = g_array_new (FALSE, TRUE, sizeof (Gen));
      g_autofree char *status = g_strdup ("ready");
      double roll = g_rand_double (r);
      int fault = -1;
      gsize start = out->len;

      g_array_set_clear_func (p, gen_clear);
      expect->plans++;
      if (roll < 0.02)
        {
          /* blocked with nothing to do (seeds/000: "массив пуст") */
          set (&status, "blocked");
          serialize (out, status, p);
          g_string_append_c (out, '\n');
          expect->valid++;
          expect->valid_strict++;
          continue;
        }
      scenarios[g_rand_int_range (r, 0, G_N_ELEMENTS (scenarios))] (p, r);
      if (roll < 0.07)
        {
          /* blocked with a feasible part: the plan stops before the end */
          set (&status, "blocked");
          g_array_set_size (p, (guint) g_rand_int_range (r, 1, (gint32) p->len));
        }
      if (g_rand_double (r) < fault_rate)
        fault = g_rand_int_range (r, 0, N_FAULTS);

      /* Faults on the action list before the links are made. */
      if (fault == F_GRIPPER_BUSY || fault == F_GRIPPER_NOT_HOLDING)
        {
          if (fault == F_GRIPPER_BUSY)
            {
              /* return_home right after the first pick, while holding */
              guint i = 0;

              while (i < p->len && strcmp (g_array_index (p, Gen, i).skill, "pick") != 0)
                i++;
              if (i == p->len)
                {
                  insert_at (p, 0, "pick", "деталь №0", NULL);
                  i = 0;
                }
              insert_at (p, i + 1, "return_home", "робот", "исходное положение");
              if (i + 2 == p->len)
                {
                  /* keep the plan's end as it was: a release after it */
                  push (p, "release", g_array_index (p, Gen, i).object, NULL);
                }
            }
          else
            insert_at (p, 0, "release", "гайка №0", NULL);
        }
      /* What a fault needs in the plan (the plan has an error then: no lint). */
      if ((fault == F_FIXED_TARGET || fault == F_FIXED_OBJECT) && find_skill (p, "return_home") < 0)
        home (p);
      if ((fault == F_UNKNOWN_SKILL || fault == F_TERMINAL_AS_SKILL || fault == F_MISSING_SKILL ||
           fault == F_MISSING_OBJECT || fault == F_TARGET_FORBIDDEN) && !has_plain (p))
        push (p, "inspect", "деталь №0", NULL);
      if (fault == F_TARGET_MISSING && !has_target_action (p))
        push (p, "position", "деталь №0", "стол №2");
      if ((fault == F_LAST_NOT_TERMINAL || fault == F_BAD_ON_SUCCESS || fault == F_UNKNOWN_ID ||
           fault == F_CYCLE) && p->len < 2)
        push (p, "inspect", "деталь №0", NULL);
      link (p, status);
      if (fault >= 0 && fault != F_GRIPPER_BUSY && fault != F_GRIPPER_NOT_HOLDING)
        inject (p, (Fault) fault, r, &status);
      serialize (out, status, p);
      if (fault == F_SYNTAX)
        g_string_truncate (out, start + (out->len - start) / 2);
      g_string_append_c (out, '\n');

      if (fault < 0)
        {
          expect->valid++;
          expect->valid_strict++;
        }
      else if (nb_plan_violation_kind_is_lint (fault_kind[fault]))
        {
          expect->warnings[fault_kind[fault]]++;
          expect->with_warnings++;
          expect->valid++;
        }
      else
        expect->errors[fault_kind[fault]]++;
    }
}
