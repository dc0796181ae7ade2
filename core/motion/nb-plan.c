#include "nb-plan.h"

#include "nb-error.h"
#include "nb-json-tree.h"

#include <string.h>

/* ------------------------------------------------------------- names -- */

static const char *const mode_names[] = { "full", "step", "branch" };

gboolean
nb_plan_mode_parse (const char *text, NbPlanMode *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (mode_names); i++)
    if (text != NULL && strcmp (text, mode_names[i]) == 0)
      {
        *out = (NbPlanMode) i;
        return TRUE;
      }
  return FALSE;
}

const char *
nb_plan_mode_name (NbPlanMode mode)
{
  return (guint) mode < G_N_ELEMENTS (mode_names) ? mode_names[mode] : "?";
}

static const char *const kind_names[NB_PLAN_N_KINDS] = {
  [NB_PLAN_V_SYNTAX] = "syntax",
  [NB_PLAN_V_STRUCTURE] = "structure",
  [NB_PLAN_V_UNKNOWN_FIELD] = "unknown_field",
  [NB_PLAN_V_DUPLICATE_FIELD] = "duplicate_field",
  [NB_PLAN_V_BAD_STATUS] = "bad_status",
  [NB_PLAN_V_MISSING_SKILL] = "missing_skill",
  [NB_PLAN_V_UNKNOWN_SKILL] = "unknown_skill",
  [NB_PLAN_V_TERMINAL_AS_SKILL] = "terminal_as_skill",
  [NB_PLAN_V_MISSING_OBJECT] = "missing_object",
  [NB_PLAN_V_TARGET_FORBIDDEN] = "target_forbidden",
  [NB_PLAN_V_TARGET_MISSING] = "target_missing",
  [NB_PLAN_V_WRONG_FIXED_VALUE] = "wrong_fixed_value",
  [NB_PLAN_V_STEP_TOO_MANY] = "step_too_many",
  [NB_PLAN_V_BLOCKED_WITH_ACTION] = "blocked_with_action",
  [NB_PLAN_V_BAD_ID] = "bad_id",
  [NB_PLAN_V_DUPLICATE_ID] = "duplicate_id",
  [NB_PLAN_V_BAD_ON_SUCCESS] = "bad_on_success",
  [NB_PLAN_V_UNKNOWN_ID] = "unknown_id",
  [NB_PLAN_V_CYCLE] = "cycle",
  [NB_PLAN_V_LAST_NOT_TERMINAL] = "last_not_terminal",
  [NB_PLAN_V_BAD_ON_FAILURE] = "bad_on_failure",
  [NB_PLAN_V_GRIPPER_BUSY] = "gripper_busy",
  [NB_PLAN_V_GRIPPER_NOT_HOLDING] = "gripper_not_holding",
  [NB_PLAN_V_UNREACHABLE] = "unreachable",
  [NB_PLAN_V_OUTCOME_MISMATCH] = "outcome_mismatch",
};

const char *
nb_plan_violation_kind_name (NbPlanViolationKind kind)
{
  return (guint) kind < NB_PLAN_N_KINDS ? kind_names[kind] : "?";
}

gboolean
nb_plan_violation_kind_parse (const char *name, NbPlanViolationKind *out)
{
  for (guint i = 0; i < NB_PLAN_N_KINDS; i++)
    if (strcmp (name, kind_names[i]) == 0)
      {
        *out = (NbPlanViolationKind) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
nb_plan_violation_kind_is_lint (NbPlanViolationKind kind)
{
  return kind >= NB_PLAN_V_GRIPPER_BUSY && kind < NB_PLAN_N_KINDS;
}

void
nb_plan_violation_clear (gpointer violation)
{
  NbPlanViolation *v = violation;

  g_clear_pointer (&v->location, g_free);
  g_clear_pointer (&v->message, g_free);
}

GArray *
nb_plan_violations_new (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (NbPlanViolation));

  g_array_set_clear_func (a, nb_plan_violation_clear);
  return a;
}

static const char *const outcome_names[] = { "ready", "blocked", "replan_required" };

const char *
nb_plan_outcome_name (NbPlanOutcome outcome)
{
  return (guint) outcome < G_N_ELEMENTS (outcome_names) ? outcome_names[outcome] : "?";
}

/* ----------------------------------------------------------- checker -- */

/* What a string member of the input holds. */
typedef enum { FIELD_ABSENT, FIELD_STRING, FIELD_BAD_TYPE } FieldState;

typedef struct {
  const char *object;
  guint index;
} Released;

struct _NbPlanChecker {
  const NbSkillTable *skills;
  NbPlanMode mode;
  gboolean strict;
  NbJsonTree *tree;                     /* reused: one reader for a million lines */
  GArray *actions;                      /* of NbPlanAction */
  GArray *id_map;                       /* of guint32: N of step_N → index + 1, N small */
  GArray *id_touched;                   /* of guint32: the N set in id_map */
  GHashTable *ids;                      /* the same for a large N */
  GArray *scratch;                      /* of guint8: per-action marks */
  GArray *order;                        /* of guint: the lint's execution order */
  GArray *released;                     /* of Released: the lint's released objects */
  NbPlan plan;
  /* the document being checked */
  GArray *violations;
  guint64 line;
};

NbPlanChecker *
nb_plan_checker_new (const NbSkillTable *skills, NbPlanMode mode, gboolean strict)
{
  NbPlanChecker *c = g_new0 (NbPlanChecker, 1);

  c->skills = skills;
  c->mode = mode;
  c->strict = strict;
  c->tree = nb_json_tree_new ();
  c->actions = g_array_new (FALSE, TRUE, sizeof (NbPlanAction));
  c->ids = g_hash_table_new (g_str_hash, g_str_equal);
  c->id_map = g_array_new (FALSE, TRUE, sizeof (guint32));
  c->id_touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  c->scratch = g_array_new (FALSE, TRUE, sizeof (guint8));
  c->order = g_array_new (FALSE, FALSE, sizeof (guint));
  c->released = g_array_new (FALSE, FALSE, sizeof (Released));
  return c;
}

void
nb_plan_checker_free (NbPlanChecker *c)
{
  if (c == NULL)
    return;
  nb_json_tree_free (c->tree);
  g_array_unref (c->actions);
  g_hash_table_unref (c->ids);
  g_array_unref (c->id_map);
  g_array_unref (c->id_touched);
  g_array_unref (c->scratch);
  g_array_unref (c->order);
  g_array_unref (c->released);
  g_free (c);
}

G_GNUC_PRINTF (5, 6) static void
add (NbPlanChecker *c, NbPlanViolationKind kind, guint64 line, char *location,
     const char *format, ...)
{
  NbPlanViolation v;
  va_list args;

  v.kind = kind;
  v.severity = nb_plan_violation_kind_is_lint (kind) && !c->strict ? NB_PLAN_WARNING
                                                                    : NB_PLAN_ERROR;
  v.line = line;
  v.location = location;                /* taken */
  va_start (args, format);
  v.message = g_strdup_vprintf (format, args);
  va_end (args);
  g_array_append_val (c->violations, v);
  if (v.severity == NB_PLAN_ERROR)
    c->plan.n_errors++;
  else
    c->plan.n_warnings++;
}

static char *
at (guint i, const char *field)
{
  return field ? g_strdup_printf ("plan[%u].%s", i, field) : g_strdup_printf ("plan[%u]", i);
}

static gboolean
is_blank (const char *s)
{
  for (; *s; s++)
    if (!g_ascii_isspace (*s))
      return FALSE;
  return TRUE;
}

/* seeds/000: ids are step_1, step_2 and so on. */
static gboolean
is_step_id (const char *s)
{
  if (strncmp (s, "step_", 5) != 0 || s[5] < '1' || s[5] > '9')
    return FALSE;
  for (s += 6; *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

/* Ids resolve through an array indexed by N, not a hash of the string: a
 * dataset has millions of them.  Only valid step_N ids are registered. */
#define ID_DIRECT_MAX 65536u

static guint32
step_number (const char *s)
{
  guint32 n = 0;

  if (!is_step_id (s))
    return G_MAXUINT32;
  for (s += 5; *s; s++)
    {
      n = n * 10 + (guint32) (*s - '0');
      if (n >= ID_DIRECT_MAX)
        return G_MAXUINT32;
    }
  return n;
}

/* index + 1 of the action with this id, or 0 */
static guint
id_lookup (NbPlanChecker *c, const char *id)
{
  guint32 n = step_number (id);

  if (n == G_MAXUINT32)
    return GPOINTER_TO_UINT (g_hash_table_lookup (c->ids, id));
  return n < c->id_map->len ? g_array_index (c->id_map, guint32, n) : 0;
}

static void
id_insert (NbPlanChecker *c, const char *id, guint i)
{
  guint32 n = step_number (id);

  if (n == G_MAXUINT32)
    {
      g_hash_table_insert (c->ids, (gpointer) id, GUINT_TO_POINTER (i + 1));
      return;
    }
  if (n >= c->id_map->len)
    g_array_set_size (c->id_map, n + 1);
  g_array_index (c->id_map, guint32, n) = i + 1;
  g_array_append_val (c->id_touched, n);
}

static void
id_reset (NbPlanChecker *c)
{
  for (guint k = 0; k < c->id_touched->len; k++)
    g_array_index (c->id_map, guint32, g_array_index (c->id_touched, guint32, k)) = 0;
  g_array_set_size (c->id_touched, 0);
  if (g_hash_table_size (c->ids) > 0)
    g_hash_table_remove_all (c->ids);
}

static gboolean
is_success_outcome (const char *s)
{
  return strcmp (s, "ready") == 0 || strcmp (s, "blocked") == 0;
}

/* One pass over an object's members: the known ones by slot; any other
 * (unknown, or a known name given twice) is reported by report_extra(). */
typedef struct {
  const NbJsonValue *slot[8];
  gboolean extra;
} Members;

static void
collect (const NbJsonTree *tree, const NbJsonValue *o, const char *const *names, Members *m)
{
  memset (m, 0, sizeof *m);
  for (const NbJsonValue *v = nb_json_tree_child (tree, o); v != NULL;
       v = nb_json_tree_next (tree, v))
    {
      guint k;

      for (k = 0; names[k] != NULL && strcmp (names[k], v->key) != 0; k++)
        ;
      if (names[k] != NULL && m->slot[k] == NULL)
        m->slot[k] = v;
      else
        m->extra = TRUE;
    }
}

/* The rare path: a second walk reports unknown members (each name once) and
 * known names given twice (json-glib would silently keep the last). */
static void
report_extra (NbPlanChecker *c, const NbJsonValue *o, const char *const *names, const Members *m,
              int i)
{
  for (const NbJsonValue *v = nb_json_tree_child (c->tree, o); v != NULL;
       v = nb_json_tree_next (c->tree, v))
    {
      char *where;
      guint k;

      for (k = 0; names[k] != NULL && strcmp (names[k], v->key) != 0; k++)
        ;
      if (names[k] != NULL && m->slot[k] == v)
        continue;
      if (names[k] == NULL)
        {
          gboolean again = FALSE;

          for (const NbJsonValue *y = nb_json_tree_child (c->tree, o); y != v && !again;
               y = nb_json_tree_next (c->tree, y))
            again = strcmp (y->key, v->key) == 0;
          if (again)
            continue;
        }
      where = i >= 0 ? at ((guint) i, v->key) : g_strdup (v->key);
      if (names[k] != NULL)
        add (c, NB_PLAN_V_DUPLICATE_FIELD, v->line, where,
             "%s is given twice: which one is meant is ambiguous", v->key);
      else
        add (c, NB_PLAN_V_UNKNOWN_FIELD, v->line, where, "unknown field '%s'", v->key);
    }
}

/* A string member: ABSENT, STRING (*out set) or BAD_TYPE (reported). */
static FieldState
field (NbPlanChecker *c, const NbJsonValue *v, guint i, const char *name, const char **out)
{
  *out = NULL;
  if (v == NULL)
    return FIELD_ABSENT;
  if (v->type == NB_JSON_STRING)
    {
      *out = v->string;
      return FIELD_STRING;
    }
  add (c, NB_PLAN_V_STRUCTURE, v->line, at (i, name), "%s must be a string, got %s", name,
       nb_json_type_name (v->type));
  return FIELD_BAD_TYPE;
}

static const char *const action_fields[] = {
  "skill", "object", "target", "id", "on_success", "on_failure", NULL
};

static void
check_action (NbPlanChecker *c, const NbJsonValue *node, guint i, NbPlanAction *a)
{
  FieldState skill, object, target, id, on_success, on_failure;
  const NbSkill *def = NULL;
  guint64 line = a->line;
  Members m;

  if (node->type != NB_JSON_OBJECT)
    {
      add (c, NB_PLAN_V_STRUCTURE, line, at (i, NULL), "an action must be an object, got %s",
           nb_json_type_name (node->type));
      return;
    }
  collect (c->tree, node, action_fields, &m);
  skill = field (c, m.slot[0], i, "skill", &a->skill);
  object = field (c, m.slot[1], i, "object", &a->object);
  target = field (c, m.slot[2], i, "target", &a->target);
  if (c->mode == NB_PLAN_MODE_BRANCH)
    {
      id = field (c, m.slot[3], i, "id", &a->id);
      on_success = field (c, m.slot[4], i, "on_success", &a->on_success);
      on_failure = field (c, m.slot[5], i, "on_failure", &a->on_failure);
    }
  else
    id = on_success = on_failure = FIELD_ABSENT;

  /* skill */
  if (skill == FIELD_BAD_TYPE)
    ;
  else if (skill == FIELD_ABSENT || is_blank (a->skill))
    add (c, NB_PLAN_V_MISSING_SKILL, line, at (i, "skill"), "skill is %s",
         skill == FIELD_ABSENT ? "missing" : "empty");
  else if (nb_skill_is_terminal (a->skill))
    add (c, NB_PLAN_V_TERMINAL_AS_SKILL, line, at (i, "skill"),
         "'%s' is a terminal outcome, not a skill", a->skill);
  else if ((def = nb_skill_table_lookup (c->skills, a->skill)) == NULL)
    add (c, NB_PLAN_V_UNKNOWN_SKILL, line, at (i, "skill"), "unknown skill '%s'", a->skill);
  a->skill_def = def;

  /* object */
  if (object == FIELD_BAD_TYPE)
    ;
  else if (object == FIELD_ABSENT || is_blank (a->object))
    add (c, NB_PLAN_V_MISSING_OBJECT, line, at (i, "object"), "object is %s",
         object == FIELD_ABSENT ? "missing" : "empty");
  else if (def != NULL && def->object_value != NULL && strcmp (a->object, def->object_value) != 0)
    add (c, NB_PLAN_V_WRONG_FIXED_VALUE, line, at (i, "object"),
         "%s takes object '%s', got '%s'", def->name, def->object_value, a->object);

  /* target: the seed's table, column 3 */
  if (target == FIELD_BAD_TYPE)
    ;
  else if (def != NULL)
    switch (def->target)
      {
      case NB_SKILL_TARGET_FORBIDDEN:
        if (target == FIELD_STRING)
          add (c, NB_PLAN_V_TARGET_FORBIDDEN, line, at (i, "target"),
               "%s takes no target, got '%s'", def->name, a->target);
        break;
      case NB_SKILL_TARGET_REQUIRED:
        if (target == FIELD_ABSENT || is_blank (a->target))
          add (c, NB_PLAN_V_TARGET_MISSING, line, at (i, "target"), "%s needs a target%s%s%s",
               def->name, def->target_ru ? " (" : "", def->target_ru ? def->target_ru : "",
               def->target_ru ? ")" : "");
        break;
      case NB_SKILL_TARGET_FIXED:
        if (target == FIELD_ABSENT)
          add (c, NB_PLAN_V_TARGET_MISSING, line, at (i, "target"), "%s needs target '%s'",
               def->name, def->target_value);
        else if (strcmp (a->target, def->target_value) != 0)
          add (c, NB_PLAN_V_WRONG_FIXED_VALUE, line, at (i, "target"),
               "%s takes target '%s', got '%s'", def->name, def->target_value, a->target);
        break;
      default:
        break;
      }

  if (c->mode != NB_PLAN_MODE_BRANCH)
    {
      for (guint k = 3; k < 6; k++)
        if (m.slot[k] != NULL)
          add (c, NB_PLAN_V_UNKNOWN_FIELD, m.slot[k]->line, at (i, action_fields[k]),
               "%s belongs to branch plans, not to %s plans", action_fields[k],
               nb_plan_mode_name (c->mode));
      a->id = a->on_success = a->on_failure = NULL;
    }
  else
    {
      guint first;

      if (id == FIELD_BAD_TYPE)
        ;
      else if (id == FIELD_ABSENT)
        add (c, NB_PLAN_V_BAD_ID, line, at (i, "id"), "id is missing");
      else if (!is_step_id (a->id))
        add (c, NB_PLAN_V_BAD_ID, line, at (i, "id"), "id '%s': expected step_N (N = 1, 2, …)",
             a->id);
      else if ((first = id_lookup (c, a->id)) != 0)
        add (c, NB_PLAN_V_DUPLICATE_ID, line, at (i, "id"), "id '%s' is already used by plan[%u]",
             a->id, first - 1);
      else
        id_insert (c, a->id, i);

      if (on_success == FIELD_BAD_TYPE)
        ;
      else if (on_success == FIELD_ABSENT || is_blank (a->on_success))
        add (c, NB_PLAN_V_BAD_ON_SUCCESS, line, at (i, "on_success"), "on_success is %s",
             on_success == FIELD_ABSENT ? "missing" : "empty");
      else if (strcmp (a->on_success, "replan_required") == 0)
        add (c, NB_PLAN_V_BAD_ON_SUCCESS, line, at (i, "on_success"),
             "on_success leads to an id, ready or blocked; replan_required is the failure outcome");

      if (on_failure == FIELD_BAD_TYPE)
        ;
      else if (on_failure == FIELD_ABSENT)
        add (c, NB_PLAN_V_BAD_ON_FAILURE, line, at (i, "on_failure"), "on_failure is missing");
      else if (strcmp (a->on_failure, "replan_required") != 0)
        add (c, NB_PLAN_V_BAD_ON_FAILURE, line, at (i, "on_failure"),
             "on_failure '%s': expected replan_required", a->on_failure);
    }
  /* Strings of the wrong type are not kept: the run never sees them. */
  if (on_success != FIELD_STRING)
    a->on_success = NULL;
  if (on_failure != FIELD_STRING)
    a->on_failure = NULL;
  if (id != FIELD_STRING)
    a->id = NULL;

  if (m.extra)
    report_extra (c, node, action_fields, &m, (int) i);
}

static const char *
action_name (const NbPlanAction *a, guint i, char *buf, gsize size)
{
  if (a->id != NULL)
    return a->id;
  g_snprintf (buf, size, "plan[%u]", i);
  return buf;
}

/* Branch plans: ids resolved, unknown ids, the last action, cycles. */
static void
check_graph (NbPlanChecker *c)
{
  NbPlanAction *acts = (NbPlanAction *) (void *) c->actions->data;
  guint n = c->actions->len;
  guint8 *mark;

  for (guint i = 0; i < n; i++)
    {
      NbPlanAction *a = &acts[i];
      guint target;

      a->next = -1;
      if (a->on_success == NULL || is_blank (a->on_success) || is_success_outcome (a->on_success) ||
          strcmp (a->on_success, "replan_required") == 0)
        continue;
      if ((target = id_lookup (c, a->on_success)) != 0)
        a->next = (int) target - 1;
      else
        add (c, NB_PLAN_V_UNKNOWN_ID, a->line, at (i, "on_success"),
             "on_success '%s' names no action of the plan", a->on_success);
    }
  if (n > 0 && acts[n - 1].on_success != NULL && !is_blank (acts[n - 1].on_success) &&
      !is_success_outcome (acts[n - 1].on_success) &&
      strcmp (acts[n - 1].on_success, "replan_required") != 0)
    add (c, NB_PLAN_V_LAST_NOT_TERMINAL, acts[n - 1].line, at (n - 1, "on_success"),
         "the last action's on_success must be ready or blocked, got '%s'",
         acts[n - 1].on_success);

  /* Each action has one success edge: walk from every unvisited action,
   * 1 = on the current walk, 2 = done; meeting a 1 closes a cycle. */
  g_array_set_size (c->scratch, 0);
  g_array_set_size (c->scratch, n);
  mark = (guint8 *) c->scratch->data;
  for (guint s = 0; s < n; s++)
    {
      int i = (int) s;

      while (i >= 0 && mark[i] == 0)
        {
          mark[i] = 1;
          i = acts[i].next;
        }
      if (i >= 0 && mark[i] == 1)
        {
          g_autoptr (GString) path = g_string_new (NULL);
          char buf[32];
          int first = i, j = i;

          do
            {
              first = MIN (first, j);
              g_string_append_printf (path, "%s → ", action_name (&acts[j], (guint) j, buf,
                                                                  sizeof buf));
              j = acts[j].next;
            }
          while (j != i);
          g_string_append (path, action_name (&acts[i], (guint) i, buf, sizeof buf));
          add (c, NB_PLAN_V_CYCLE, acts[first].line, at ((guint) first, "on_success"),
               "on_success makes a cycle: %s", path->str);
        }
      for (i = (int) s; i >= 0 && mark[i] == 1; i = acts[i].next)
        mark[i] = 2;
    }
}

/* The order a run executes actions in: the array (full), or the success
 * path from the first action (branch); stops at a repeated action.  Returns
 * the count written into order[]. */
static guint
execution_order (const NbPlan *plan, guint8 *seen, guint *order)
{
  guint n = 0;

  if (plan->mode != NB_PLAN_MODE_BRANCH)
    {
      for (guint i = 0; i < plan->n_actions; i++)
        order[n++] = i;
      return n;
    }
  if (plan->n_actions > 0)
    memset (seen, 0, plan->n_actions);
  for (int i = plan->n_actions > 0 ? 0 : -1; i >= 0 && !seen[i]; i = plan->actions[i].next)
    {
      seen[i] = 1;
      order[n++] = (guint) i;
    }
  return n;
}

/* Objects released so far: a handful per plan, a linear search. */
static const Released *
find_released (GArray *released, const char *object)
{
  for (guint k = 0; k < released->len; k++)
    if (strcmp (g_array_index (released, Released, k).object, object) == 0)
      return &g_array_index (released, Released, k);
  return NULL;
}

/* The gripper lint: the rules are the skill table's (gripper.requires,
 * gripper.effect), followed along the execution order. */
static void
lint (NbPlanChecker *c)
{
  const NbPlan *plan = &c->plan;
  const NbPlanAction *acts = plan->actions;
  guint n = plan->n_actions, n_order;
  guint *order;
  GArray *released = c->released;
  const char *held = NULL;
  guint8 *seen;

  if (plan->mode == NB_PLAN_MODE_STEP)
    return;                             /* one action: no state to follow */
  g_array_set_size (c->scratch, n);
  g_array_set_size (c->order, n);
  g_array_set_size (released, 0);
  seen = (guint8 *) c->scratch->data;
  order = (guint *) (void *) c->order->data;
  n_order = execution_order (plan, seen, order);

  for (guint k = 0; k < n_order; k++)
    {
      guint i = order[k];
      const NbPlanAction *a = &acts[i];
      const NbSkill *def = a->skill_def;

      if (def->grip_requires == NB_SKILL_GRIP_EMPTY && held != NULL)
        add (c, NB_PLAN_V_GRIPPER_BUSY, a->line, at (i, NULL), "%s of '%s' while holding '%s'",
             def->name, a->object, held);
      else if (def->grip_requires == NB_SKILL_GRIP_HELD &&
               (held == NULL || strcmp (held, a->object) != 0))
        {
          const Released *where = NULL;

          if (held != NULL)
            add (c, NB_PLAN_V_GRIPPER_NOT_HOLDING, a->line, at (i, NULL),
                 "%s of '%s' while holding '%s'", def->name, a->object, held);
          else if ((where = find_released (released, a->object)) != NULL)
            add (c, NB_PLAN_V_GRIPPER_NOT_HOLDING, a->line, at (i, NULL),
                 "%s of '%s', released at plan[%u]", def->name, a->object, where->index);
          else
            add (c, NB_PLAN_V_GRIPPER_NOT_HOLDING, a->line, at (i, NULL),
                 "%s of '%s', which was never picked", def->name, a->object);
        }
      if (def->grip_effect == NB_SKILL_GRIP_GRASP)
        held = a->object;
      else if (def->grip_effect == NB_SKILL_GRIP_RELEASE)
        {
          if (held != NULL && strcmp (held, a->object) == 0)
            held = NULL;
          Released r = { a->object, i };
          Released *old = (Released *) find_released (released, a->object);

          if (old != NULL)
            old->index = i;
          else
            g_array_append_val (released, r);
        }
    }

  if (plan->mode == NB_PLAN_MODE_BRANCH && n > 0)
    {
      const NbPlanAction *last = &acts[order[n_order - 1]];

      for (guint i = 0; i < n; i++)
        if (!seen[i])
          add (c, NB_PLAN_V_UNREACHABLE, acts[i].line, at (i, NULL),
               "%s is never reached: the success path from %s does not lead to it",
               acts[i].id, acts[0].id);
      /* A plan without errors has no cycle: the path ends in an outcome. */
      if (is_success_outcome (last->on_success) && strcmp (last->on_success, plan->status) != 0)
        add (c, NB_PLAN_V_OUTCOME_MISMATCH, last->line, at (order[n_order - 1], "on_success"),
             "the plan's status is %s but its success path ends in %s", plan->status,
             last->on_success);
    }
}

static const char *const plan_fields[] = { "status", "plan", NULL };

static void
check_document (NbPlanChecker *c, const NbJsonValue *root)
{
  const NbJsonValue *status, *plan, *e;
  Members m;
  guint n, i;

  if (root->type != NB_JSON_OBJECT)
    {
      add (c, NB_PLAN_V_STRUCTURE, root->line, g_strdup (""),
           "a plan is an object with status and plan, got %s", nb_json_type_name (root->type));
      return;
    }
  collect (c->tree, root, plan_fields, &m);
  status = m.slot[0];
  plan = m.slot[1];
  if (status == NULL)
    add (c, NB_PLAN_V_BAD_STATUS, root->line, g_strdup ("status"), "status is missing");
  else if (status->type != NB_JSON_STRING)
    add (c, NB_PLAN_V_STRUCTURE, status->line, g_strdup ("status"),
         "status must be a string, got %s", nb_json_type_name (status->type));
  else if (!is_success_outcome (status->string))
    add (c, NB_PLAN_V_BAD_STATUS, status->line, g_strdup ("status"),
         "status '%s': expected ready or blocked", status->string);
  else
    c->plan.status = status->string;
  if (m.extra)
    report_extra (c, root, plan_fields, &m, -1);
  if (plan == NULL)
    {
      add (c, NB_PLAN_V_STRUCTURE, root->line, g_strdup ("plan"), "plan is missing");
      return;
    }
  if (plan->type != NB_JSON_ARRAY)
    {
      add (c, NB_PLAN_V_STRUCTURE, plan->line, g_strdup ("plan"),
           "plan must be an array, got %s", nb_json_type_name (plan->type));
      return;
    }

  n = plan->n_children;
  g_array_set_size (c->actions, n);
  if (n > 0)                    /* memset (NULL, 0, 0) is undefined */
    memset (c->actions->data, 0, n * sizeof (NbPlanAction));
  for (e = nb_json_tree_child (c->tree, plan), i = 0; e != NULL;
       e = nb_json_tree_next (c->tree, e), i++)
    {
      NbPlanAction *act = &g_array_index (c->actions, NbPlanAction, i);

      act->next = -1;
      act->line = e->line;
      check_action (c, e, i, act);
    }
  c->plan.actions = (const NbPlanAction *) (void *) c->actions->data;
  c->plan.n_actions = n;

  if (c->mode == NB_PLAN_MODE_STEP)
    {
      /* seeds/000: the next action only; blocked comes with an empty array. */
      if (n > 1)
        add (c, NB_PLAN_V_STEP_TOO_MANY, plan->line, g_strdup ("plan"),
             "a step answer holds the next action only, got %u actions", n);
      if (c->plan.status != NULL && strcmp (c->plan.status, "blocked") == 0 && n > 0)
        add (c, NB_PLAN_V_BLOCKED_WITH_ACTION, plan->line, g_strdup ("plan"),
             "a blocked step answer has an empty plan, got %u action%s", n, n == 1 ? "" : "s");
    }
  if (c->mode == NB_PLAN_MODE_BRANCH)
    check_graph (c);
}

const NbPlan *
nb_plan_checker_check (NbPlanChecker *c, const char *text, gsize len, guint64 line,
                       GArray *violations)
{
  g_autoptr (GError) error = NULL;
  const NbJsonValue *root;
  guint64 error_line = line;
  const char *end;

  c->violations = violations;
  c->line = line;
  c->plan = (NbPlan) { c->mode, NULL, NULL, 0, 0, 0 };
  g_array_set_size (c->actions, 0);
  id_reset (c);

  if (!g_utf8_validate_len (text, len, &end))
    {
      /* Count the lines before the first bad byte. */
      guint64 bad_line = line;

      for (const char *p = text; p < end; p++)
        bad_line += *p == '\n';
      add (c, NB_PLAN_V_SYNTAX, bad_line, g_strdup (""), "not valid UTF-8 (byte %" G_GSIZE_FORMAT ")",
           (gsize) (end - text) + 1);
      return NULL;
    }
  if (!nb_json_tree_parse (c->tree, text, len, line, &error_line, &error))
    {
      add (c, NB_PLAN_V_SYNTAX, error_line, g_strdup (""), "%s", error->message);
      return NULL;
    }
  root = nb_json_tree_root (c->tree);
  check_document (c, root);
  if (root->type != NB_JSON_OBJECT)
    return NULL;
  if (c->plan.n_errors == 0)
    lint (c);
  return &c->plan;
}

/* --------------------------------------------------------------- run -- */

void
nb_plan_trace_entry_clear (gpointer entry)
{
  g_clear_pointer (&((NbPlanTraceEntry *) entry)->reason, g_free);
  g_clear_pointer (&((NbPlanTraceEntry *) entry)->next, g_free);
}

GArray *
nb_plan_trace_new (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (NbPlanTraceEntry));

  g_array_set_clear_func (a, nb_plan_trace_entry_clear);
  return a;
}

static NbPlanOutcome
outcome_of (const char *name)
{
  return strcmp (name, "ready") == 0 ? NB_PLAN_OUTCOME_READY : NB_PLAN_OUTCOME_BLOCKED;
}

gboolean
nb_plan_run (const NbPlan *plan, NbPlanExecuteFunc execute, gpointer user_data,
             NbPlanOutcome *outcome, GArray *trace, GError **error)
{
  guint steps = 0;
  int i;

  if (plan->mode == NB_PLAN_MODE_STEP)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "a step answer is not a plan to run (use --mode full or branch)");
      return FALSE;
    }
  if (plan->n_errors > 0 || plan->status == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the plan has %u error%s: not run",
                   plan->n_errors, plan->n_errors == 1 ? "" : "s");
      return FALSE;
    }

  /* seeds/000: "Выполнение начинается с первого элемента plan"; an empty
   * plan's outcome is its status. */
  *outcome = outcome_of (plan->status);
  for (i = plan->n_actions > 0 ? 0 : -1; i >= 0; )
    {
      const NbPlanAction *a = &plan->actions[i];
      NbPlanTraceEntry e = { (guint) i, FALSE, NULL, NULL };

      if (++steps > plan->n_actions)
        {
          /* The checker rules cycles out; this guards a caller that did not check. */
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "plan[%d]: the run loops", i);
          return FALSE;
        }
      e.ok = execute (a, (guint) i, user_data, &e.reason);
      if (!e.ok)
        {
          e.next = g_strdup ("replan_required");
          g_array_append_val (trace, e);
          *outcome = NB_PLAN_OUTCOME_REPLAN_REQUIRED;
          return TRUE;
        }
      if (plan->mode == NB_PLAN_MODE_BRANCH)
        {
          e.next = g_strdup (a->on_success);
          g_array_append_val (trace, e);
          if (a->next < 0)
            {
              *outcome = outcome_of (a->on_success);
              return TRUE;
            }
          i = a->next;
        }
      else
        {
          i = (guint) i + 1 < plan->n_actions ? i + 1 : -1;
          e.next = i >= 0 ? NULL : g_strdup (plan->status);
          g_array_append_val (trace, e);
        }
    }
  return TRUE;
}
