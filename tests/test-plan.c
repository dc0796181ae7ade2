/* Tests of the skill table (core/nb-skill), the plan checker and lint
 * (core/nb-plan), the plan runner and the simulated robot
 * (drivers/sim/nb-sim-skill), against seeds/000. */
#include "nb-error.h"
#include "nb-plan.h"
#include "nb-sim-skill.h"
#include "nb-skill.h"
#include "nb-test.h"
#include "plan-dataset.h"

#include <string.h>

static NbSkillTable *
load_table (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data",
                                            "skills.json", NULL);
  g_autoptr (GError) error = NULL;
  NbSkillTable *t = nb_skill_table_load_file (path, &error);

  g_assert_no_error (error);
  return t;
}

static char *
read_data (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "plans", name, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* ------------------------------------------------------------- skills -- */

/* The table of data/skills.json against the seed's own table, copied verbatim
 * into tests/data/plans/seed-skills-table.md: names, Russian descriptions
 * and the target column. */
static void
test_skills_match_seed (void)
{
  g_autoptr (NbSkillTable) t = load_table ();
  g_autofree char *md = read_data ("seed-skills-table.md");
  g_autoptr (GRegex) row = g_regex_new ("\\| `([a-z_]+)` \\| ([^|]+?) \\| ([^|]+?) \\|", 0, 0,
                                        NULL);
  g_autoptr (GMatchInfo) m = NULL;
  guint n = 0;

  g_assert_cmpuint (nb_skill_table_size (t), ==, 32);
  g_regex_match (row, md, 0, &m);
  while (g_match_info_matches (m))
    {
      g_autofree char *name = g_match_info_fetch (m, 1);
      g_autofree char *ru = g_match_info_fetch (m, 2);
      g_autofree char *target = g_match_info_fetch (m, 3);
      const NbSkill *s = nb_skill_table_lookup (t, name);

      g_assert_nonnull (s);
      g_assert_cmpstr (s->name, ==, name);
      /* the seed's table order is the table's order */
      g_assert_true (s == nb_skill_table_get (t, n));
      g_assert_cmpstr (s->description_ru, ==, ru);
      g_assert_nonnull (s->description_en);
      if (g_str_equal (target, "—"))
        {
          g_assert_cmpint (s->target, ==, NB_SKILL_TARGET_FORBIDDEN);
          g_assert_null (s->target_value);
        }
      else if (target[0] == '`')
        {
          g_autofree char *value = g_strndup (target + 1, strlen (target) - 2);

          g_assert_cmpint (s->target, ==, NB_SKILL_TARGET_FIXED);
          g_assert_cmpstr (s->target_value, ==, value);
        }
      else
        {
          g_assert_cmpint (s->target, ==, NB_SKILL_TARGET_REQUIRED);
          g_assert_cmpstr (s->target_ru, ==, target);
        }
      /* seeds/000: "Для return_home — робот" */
      g_assert_cmpstr (s->object_value, ==, g_str_equal (name, "return_home") ? "робот" : NULL);
      n++;
      g_match_info_next (m, NULL);
    }
  g_assert_cmpuint (n, ==, 32);
  g_assert_cmpstr (nb_skill_table_lookup (t, "handover")->target_value, ==, "оператор");
  g_assert_cmpstr (nb_skill_table_lookup (t, "move_to_operator")->target_value, ==, "оператор");
  g_assert_cmpstr (nb_skill_table_lookup (t, "hold")->target_value, ==, "оператор");
  g_assert_cmpstr (nb_skill_table_lookup (t, "return_home")->target_value, ==,
                   "исходное положение");
  g_assert_null (nb_skill_table_lookup (t, "ready"));
  g_assert_null (nb_skill_table_lookup (t, "Pick"));
}

static void
test_skills_gripper_rules (void)
{
  g_autoptr (NbSkillTable) t = load_table ();
  struct { const char *name; NbSkillGripRequire req; NbSkillGripEffect eff; } rules[] = {
    { "pick", NB_SKILL_GRIP_EMPTY, NB_SKILL_GRIP_GRASP },
    { "release", NB_SKILL_GRIP_HELD, NB_SKILL_GRIP_RELEASE },
    { "place", NB_SKILL_GRIP_HELD, NB_SKILL_GRIP_KEEP },
    { "handover", NB_SKILL_GRIP_HELD, NB_SKILL_GRIP_KEEP },
    { "hold", NB_SKILL_GRIP_HELD, NB_SKILL_GRIP_KEEP },
    { "wait_assembly", NB_SKILL_GRIP_HELD, NB_SKILL_GRIP_KEEP },
    { "return_home", NB_SKILL_GRIP_EMPTY, NB_SKILL_GRIP_KEEP },
    { "detect", NB_SKILL_GRIP_ANY, NB_SKILL_GRIP_KEEP },
    { "position", NB_SKILL_GRIP_ANY, NB_SKILL_GRIP_KEEP },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    {
      const NbSkill *s = nb_skill_table_lookup (t, rules[i].name);

      g_assert_cmpint (s->grip_requires, ==, rules[i].req);
      g_assert_cmpint (s->grip_effect, ==, rules[i].eff);
    }
  /* every skill does something on the simulated robot */
  for (guint i = 0; i < nb_skill_table_size (t); i++)
    g_assert_cmpuint (nb_skill_table_get (t, i)->n_steps, >, 0);
}

static void
expect_table_error (const char *json, const char *fragment)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbSkillTable) t = nb_skill_table_load_data ("t.json", json, -1, &error);

  g_assert_null (t);
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  if (strstr (error->message, fragment) == NULL)
    g_error ("'%s' lacks '%s'", error->message, fragment);
}

#define SKILL(extra) "{\"name\": \"x\", \"ru\": \"х\", \"en\": \"x\", " extra "}"

static void
test_skills_bad_tables (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbSkillTable) ok = nb_skill_table_load_data (
    "t.json", "{\"skills\": [" SKILL ("\"target\": \"forbidden\", \"sim\": []") "]}", -1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (nb_skill_table_size (ok), ==, 1);
  /* adding a skill is a data change: the new skill is known to the checker */
  g_assert_nonnull (nb_skill_table_lookup (ok, "x"));

  expect_table_error ("{\"skills\": []}", "t.json: the table has no skills");
  expect_table_error ("{\"skills\": 3}", "t.json: expected an object with a 'skills' array");
  expect_table_error ("{\"skills\": [", "t.json: ");
  expect_table_error ("{\"skills\": [" SKILL ("\"target\": \"forbidden\", \"sim\": []") ", "
                      SKILL ("\"target\": \"forbidden\", \"sim\": []") "]}",
                      "t.json: skills[1]: skill 'x' is defined twice");
  expect_table_error ("{\"skills\": [{\"name\": \"ready\", \"ru\": \"г\", \"en\": \"r\", "
                      "\"target\": \"forbidden\", \"sim\": []}]}",
                      "skills[0] (ready): 'ready' is a terminal outcome, not a skill");
  expect_table_error ("{\"skills\": [" SKILL ("\"target\": \"fixed\", \"sim\": []") "]}",
                      "skills[0] (x): 'target_value' is given exactly when target is fixed");
  expect_table_error ("{\"skills\": [" SKILL ("\"target\": \"maybe\", \"sim\": []") "]}",
                      "skills[0] (x): target 'maybe': expected forbidden, required or fixed");
  expect_table_error ("{\"skills\": [" SKILL ("\"target\": \"required\", \"colour\": 1, \"sim\": []") "]}",
                      "skills[0]: unknown member 'colour'");
  expect_table_error ("{\"skills\": [" SKILL ("\"target\": \"required\", \"sim\": [{\"wait\": \"w\", \"duration_s\": -1}]") "]}",
                      "skills[0] (x): sim[0]: 'duration_s' must be finite and ≥ 0");
  expect_table_error ("{\"skills\": [" SKILL ("\"target\": \"required\", \"sim\": [{\"motion\": \"object\", \"wait\": \"w\", \"duration_s\": 1}]") "]}",
                      "sim[0]: a sim step is exactly one of motion, gripper, wait");
  expect_table_error ("{\"skills\": [" SKILL ("\"target\": \"required\", \"gripper\": {\"requires\": \"full\"}, \"sim\": []") "]}",
                      "gripper.requires 'full': expected empty or held");
  expect_table_error ("{\"skills\": [" SKILL ("\"target\": \"required\"") "]}",
                      "'sim' must be an array of steps");
}

/* ---------------------------------------------------- checker: cases -- */

static void
run_case (const NbSkillTable *t, const char *json_name, gboolean strict)
{
  g_autofree char *base = g_strndup (json_name, strlen (json_name) - 5);
  g_autofree char *exp_name = g_strconcat ("cases/", base, ".expected", NULL);
  g_autofree char *plan_name = g_strconcat ("cases/", json_name, NULL);
  g_autofree char *text = read_data (plan_name);
  g_autofree char *exp_text = read_data (exp_name);
  g_auto (GStrv) lines = g_strsplit (exp_text, "\n", -1);
  g_autoptr (GArray) v = nb_plan_violations_new ();
  g_autoptr (NbPlanChecker) c = NULL;
  NbPlanMode mode;
  guint n = 0, errors = 0, warnings = 0;
  const NbPlan *plan;

  g_assert_true (g_str_has_prefix (lines[0], "mode "));
  g_assert_true (nb_plan_mode_parse (lines[0] + 5, &mode));
  c = nb_plan_checker_new (t, mode, strict);
  plan = nb_plan_checker_check (c, text, strlen (text), 1, v);

  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = NULL;
      NbPlanViolationKind kind;
      const NbPlanViolation *got;
      gboolean lint;

      if (*lines[i] == '\0')
        continue;
      f = g_strsplit (lines[i], " ", 3);
      g_assert_true (nb_plan_violation_kind_parse (f[0], &kind));
      if (n >= v->len)
        g_error ("%s: violation %u (%s) not reported", json_name, n + 1, lines[i]);
      got = &g_array_index (v, NbPlanViolation, n);
      if (got->kind != kind || got->line != g_ascii_strtoull (f[1], NULL, 10) ||
          g_strcmp0 (got->location, f[2] ? f[2] : "") != 0)
        g_error ("%s: violation %u: expected '%s', got '%s %" G_GUINT64_FORMAT " %s' (%s)",
                 json_name, n + 1, lines[i], nb_plan_violation_kind_name (got->kind),
                 got->line, got->location, got->message);
      lint = nb_plan_violation_kind_is_lint (kind);
      g_assert_cmpint (got->severity, ==, lint && !strict ? NB_PLAN_WARNING : NB_PLAN_ERROR);
      g_assert_cmpuint (strlen (got->message), >, 0);
      if (got->severity == NB_PLAN_ERROR)
        errors++;
      else
        warnings++;
      n++;
    }
  if (n != v->len)
    g_error ("%s: %u violations expected, %u reported; the first extra: %s %s", json_name, n,
             v->len, g_array_index (v, NbPlanViolation, n).location,
             g_array_index (v, NbPlanViolation, n).message);
  if (plan != NULL)
    {
      g_assert_cmpuint (plan->n_errors, ==, errors);
      g_assert_cmpuint (plan->n_warnings, ==, warnings);
    }
  else
    g_assert_cmpuint (errors, ==, 1);
}

static void
test_cases (void)
{
  g_autoptr (NbSkillTable) t = load_table ();
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "data", "plans", "cases", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) d = g_dir_open (dir, 0, &error);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_strdup (name));
  g_assert_cmpuint (names->len, >=, 36);
  for (guint i = 0; i < names->len; i++)
    {
      run_case (t, names->pdata[i], FALSE);
      run_case (t, names->pdata[i], TRUE);
    }
}

/* Some messages, word for word: they name the skill, the values and where. */
static void
test_messages (void)
{
  g_autoptr (NbSkillTable) t = load_table ();
  g_autoptr (NbPlanChecker) c = nb_plan_checker_new (t, NB_PLAN_MODE_FULL, FALSE);
  g_autoptr (GArray) v = nb_plan_violations_new ();
  const char *text =
    "{\"status\": \"ready\", \"plan\": ["
    "{\"skill\": \"detect\", \"object\": \"деталь №1\", \"target\": \"стол №1\"},"
    "{\"skill\": \"return_home\", \"object\": \"робот №1\", \"target\": \"исходное положение\"},"
    "{\"skill\": \"position\", \"object\": \"деталь №1\"}]}";

  nb_plan_checker_check (c, text, strlen (text), 7, v);
  g_assert_cmpuint (v->len, ==, 3);
  g_assert_cmpstr (g_array_index (v, NbPlanViolation, 0).message, ==,
                   "detect takes no target, got 'стол №1'");
  g_assert_cmpstr (g_array_index (v, NbPlanViolation, 1).message, ==,
                   "return_home takes object 'робот', got 'робот №1'");
  g_assert_cmpstr (g_array_index (v, NbPlanViolation, 2).message, ==,
                   "position needs a target (Место назначения)");
  /* a one-line document: every violation is on its line */
  for (guint i = 0; i < v->len; i++)
    g_assert_cmpuint (g_array_index (v, NbPlanViolation, i).line, ==, 7);
}

static void
test_bad_bytes (void)
{
  g_autoptr (NbSkillTable) t = load_table ();
  g_autoptr (NbPlanChecker) c = nb_plan_checker_new (t, NB_PLAN_MODE_FULL, FALSE);
  g_autoptr (GArray) v = nb_plan_violations_new ();
  const char bad[] = "{\"status\": \"ready\",\n \"plan\": [{\"skill\": \"pick\", \"object\": \"\xd0\"}]}";

  g_assert_null (nb_plan_checker_check (c, bad, sizeof bad - 1, 10, v));
  g_assert_cmpuint (v->len, ==, 1);
  g_assert_cmpint (g_array_index (v, NbPlanViolation, 0).kind, ==, NB_PLAN_V_SYNTAX);
  g_assert_cmpuint (g_array_index (v, NbPlanViolation, 0).line, ==, 11);
  g_array_set_size (v, 0);
  g_assert_null (nb_plan_checker_check (c, "", 0, 1, v));
  g_assert_cmpuint (v->len, ==, 1);
  g_assert_cmpint (g_array_index (v, NbPlanViolation, 0).kind, ==, NB_PLAN_V_SYNTAX);
}

/* ------------------------------------------------------ seed examples -- */

static const NbPlan *
check_text (NbPlanChecker *c, const char *text, GArray *v)
{
  g_array_set_size (v, 0);
  return nb_plan_checker_check (c, text, strlen (text), 1, v);
}

static void
test_seed_examples (void)
{
  g_autoptr (NbSkillTable) t = load_table ();
  g_autoptr (NbPlanChecker) full = nb_plan_checker_new (t, NB_PLAN_MODE_FULL, TRUE);
  g_autoptr (NbPlanChecker) step = nb_plan_checker_new (t, NB_PLAN_MODE_STEP, TRUE);
  g_autoptr (NbPlanChecker) branch = nb_plan_checker_new (t, NB_PLAN_MODE_BRANCH, TRUE);
  g_autoptr (GArray) v = nb_plan_violations_new ();
  g_autofree char *full_text = read_data ("seed-full.json");
  g_autofree char *step_text = read_data ("seed-step.json");
  g_autofree char *action = read_data ("seed-action.json");
  g_autofree char *node = read_data ("seed-branch-node.json");
  g_autofree char *action_plan = g_strdup_printf ("{\"status\": \"ready\", \"plan\": [%s]}", action);
  g_autofree char *node_plan = g_strdup_printf ("{\"status\": \"ready\", \"plan\": [%s]}", node);
  g_autofree char *node_plan2 = g_strdup_printf (
    "{\"status\": \"ready\", \"plan\": [%s, {\"id\": \"step_2\", \"skill\": \"release\", "
    "\"object\": \"деталь №1\", \"on_success\": \"ready\", \"on_failure\": \"replan_required\"}]}",
    node);
  const NbPlan *p;

  /* the full example: valid even when strict, nine actions, UTF-8 intact */
  p = check_text (full, full_text, v);
  g_assert_cmpuint (v->len, ==, 0);
  g_assert_cmpuint (p->n_actions, ==, 9);
  g_assert_cmpstr (p->status, ==, "ready");
  g_assert_cmpstr (p->actions[6].target, ==, "зона хранения №1");
  g_assert_cmpstr (p->actions[8].object, ==, "робот");
  /* as a step answer it holds too many actions */
  p = check_text (step, full_text, v);
  g_assert_cmpuint (v->len, ==, 1);
  g_assert_cmpint (g_array_index (v, NbPlanViolation, 0).kind, ==, NB_PLAN_V_STEP_TOO_MANY);

  p = check_text (step, step_text, v);
  g_assert_cmpuint (v->len, ==, 0);
  g_assert_cmpstr (p->actions[0].object, ==, "деталь №1");

  p = check_text (step, action_plan, v);
  g_assert_cmpuint (v->len, ==, 0);
  g_assert_cmpstr (p->actions[0].target, ==, "сборочная позиция №1");

  /* the seed's lone branch node leads to step_2, which a one-node plan lacks */
  p = check_text (branch, node_plan, v);
  g_assert_cmpuint (v->len, ==, 2);
  g_assert_cmpint (g_array_index (v, NbPlanViolation, 0).kind, ==, NB_PLAN_V_UNKNOWN_ID);
  g_assert_cmpint (g_array_index (v, NbPlanViolation, 1).kind, ==, NB_PLAN_V_LAST_NOT_TERMINAL);
  g_assert_cmpstr (g_array_index (v, NbPlanViolation, 1).location, ==, "plan[0].on_success");
  p = check_text (branch, node_plan2, v);
  g_assert_cmpuint (v->len, ==, 0);
  g_assert_cmpint (p->actions[0].next, ==, 1);
  g_assert_cmpint (p->actions[1].next, ==, -1);
}

/* ----------------------------------------------------------------- run -- */

typedef struct {
  GString *log;
  int fail;
} Fake;

static gboolean
fake_execute (const NbPlanAction *a, guint index, gpointer user_data, char **reason)
{
  Fake *f = user_data;

  g_string_append_printf (f->log, "%u ", index);
  if ((int) index == f->fail)
    {
      *reason = g_strdup ("fake failure");
      return FALSE;
    }
  return TRUE;
}

static NbPlanOutcome
run_text (const NbSkillTable *t, NbPlanMode mode, const char *text, int fail, char **log,
          GArray *trace)
{
  g_autoptr (NbPlanChecker) c = nb_plan_checker_new (t, mode, FALSE);
  g_autoptr (GArray) v = nb_plan_violations_new ();
  g_autoptr (GError) error = NULL;
  const NbPlan *p = check_text (c, text, v);
  Fake f = { g_string_new (NULL), fail };
  NbPlanOutcome outcome = NB_PLAN_OUTCOME_REPLAN_REQUIRED;

  g_assert_nonnull (p);
  g_assert_cmpuint (p->n_errors, ==, 0);
  g_assert_true (nb_plan_run (p, fake_execute, &f, &outcome, trace, &error));
  g_assert_no_error (error);
  *log = g_string_free (f.log, FALSE);
  return outcome;
}

#define NODE(id, skill, object, next) \
  "{\"id\": \"" id "\", \"skill\": \"" skill "\", \"object\": \"" object "\", " \
  "\"on_success\": \"" next "\", \"on_failure\": \"replan_required\"}"

static void
test_run (void)
{
  g_autoptr (NbSkillTable) t = load_table ();
  g_autoptr (GArray) trace = nb_plan_trace_new ();
  g_autofree char *full = read_data ("seed-full.json");
  const char *jump = "{\"status\": \"blocked\", \"plan\": ["
    NODE ("step_1", "detect", "деталь №1", "step_3") ", "
    NODE ("step_2", "pick", "деталь №1", "step_4") ", "
    NODE ("step_3", "approach", "деталь №1", "step_2") ", "
    NODE ("step_4", "release", "деталь №1", "blocked") "]}";
  char *log;

  /* full: in array order to the status */
  g_assert_cmpint (run_text (t, NB_PLAN_MODE_FULL, full, -1, &log, trace), ==,
                   NB_PLAN_OUTCOME_READY);
  g_assert_cmpstr (log, ==, "0 1 2 3 4 5 6 7 8 ");
  g_assert_cmpuint (trace->len, ==, 9);
  g_assert_cmpstr (g_array_index (trace, NbPlanTraceEntry, 8).next, ==, "ready");
  g_free (log);
  g_array_set_size (trace, 0);
  /* a failure stops the run in replan_required */
  g_assert_cmpint (run_text (t, NB_PLAN_MODE_FULL, full, 3, &log, trace), ==,
                   NB_PLAN_OUTCOME_REPLAN_REQUIRED);
  g_assert_cmpstr (log, ==, "0 1 2 3 ");
  g_assert_cmpuint (trace->len, ==, 4);
  g_assert_false (g_array_index (trace, NbPlanTraceEntry, 3).ok);
  g_assert_cmpstr (g_array_index (trace, NbPlanTraceEntry, 3).reason, ==, "fake failure");
  g_assert_cmpstr (g_array_index (trace, NbPlanTraceEntry, 3).next, ==, "replan_required");
  g_free (log);
  g_array_set_size (trace, 0);

  /* branch: follows on_success, not the array */
  g_assert_cmpint (run_text (t, NB_PLAN_MODE_BRANCH, jump, -1, &log, trace), ==,
                   NB_PLAN_OUTCOME_BLOCKED);
  g_assert_cmpstr (log, ==, "0 2 1 3 ");
  g_assert_cmpstr (g_array_index (trace, NbPlanTraceEntry, 0).next, ==, "step_3");
  g_free (log);
  g_array_set_size (trace, 0);
  g_assert_cmpint (run_text (t, NB_PLAN_MODE_BRANCH, jump, 2, &log, trace), ==,
                   NB_PLAN_OUTCOME_REPLAN_REQUIRED);
  g_assert_cmpstr (log, ==, "0 2 ");
  g_free (log);
  g_array_set_size (trace, 0);

  /* an empty plan's outcome is its status */
  g_assert_cmpint (run_text (t, NB_PLAN_MODE_BRANCH, "{\"status\": \"blocked\", \"plan\": []}",
                             -1, &log, trace), ==, NB_PLAN_OUTCOME_BLOCKED);
  g_assert_cmpstr (log, ==, "");
  g_free (log);
  g_assert_cmpint (run_text (t, NB_PLAN_MODE_FULL, "{\"status\": \"ready\", \"plan\": []}",
                             -1, &log, trace), ==, NB_PLAN_OUTCOME_READY);
  g_free (log);
  g_assert_cmpuint (trace->len, ==, 0);
}

static void
test_run_refused (void)
{
  g_autoptr (NbSkillTable) t = load_table ();
  g_autoptr (GArray) v = nb_plan_violations_new ();
  g_autoptr (GArray) trace = nb_plan_trace_new ();
  g_autoptr (NbPlanChecker) step = nb_plan_checker_new (t, NB_PLAN_MODE_STEP, FALSE);
  g_autoptr (NbPlanChecker) strict = nb_plan_checker_new (t, NB_PLAN_MODE_FULL, TRUE);
  g_autoptr (GError) error = NULL;
  Fake f = { NULL, -1 };
  NbPlanOutcome outcome;
  const NbPlan *p;

  p = check_text (step, "{\"status\": \"ready\", \"plan\": [{\"skill\": \"pick\", \"object\": \"a\"}]}", v);
  g_assert_false (nb_plan_run (p, fake_execute, &f, &outcome, trace, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  /* a lint finding is an error when strict: the plan is not run */
  p = check_text (strict, "{\"status\": \"ready\", \"plan\": [{\"skill\": \"release\", \"object\": \"a\"}]}", v);
  g_assert_cmpuint (p->n_errors, ==, 1);
  g_assert_false (nb_plan_run (p, fake_execute, &f, &outcome, trace, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_cmpuint (trace->len, ==, 0);
}

/* ----------------------------------------------------------------- sim -- */

static void
test_sim_robot (void)
{
  g_autoptr (NbSkillTable) t = load_table ();
  g_autoptr (NbSimRobot) r = nb_sim_robot_new ();
  g_autofree char *reason = NULL;
  const char *x = "распределительная коробка №1";
  const GArray *ev;

  g_assert_cmpstr (nb_sim_robot_place (r), ==, "исходное положение");
  g_assert_null (nb_sim_robot_holding (r));
  /* pick: motion to the object (0.5 s), gripper close (0.8 s) */
  g_assert_true (nb_sim_robot_execute (r, 0, nb_skill_table_lookup (t, "pick"), x, NULL, FALSE, &reason));
  nb_assert_abs (nb_sim_robot_clock_s (r), 1.3, 1e-12, "pick");
  g_assert_cmpstr (nb_sim_robot_holding (r), ==, x);
  g_assert_cmpstr (nb_sim_robot_place (r), ==, x);
  /* a second close fails: the gripper is busy */
  g_assert_false (nb_sim_robot_execute (r, 1, nb_skill_table_lookup (t, "pick"), "деталь №2", NULL, FALSE, &reason));
  g_assert_cmpstr (reason, ==, "pick: gripper close on 'деталь №2': it already holds 'распределительная коробка №1'");
  g_clear_pointer (&reason, g_free);
  /* moving with the object, then releasing it there */
  g_assert_true (nb_sim_robot_execute (r, 2, nb_skill_table_lookup (t, "move_to_storage"), x, "зона хранения №1", FALSE, &reason));
  g_assert_cmpstr (nb_sim_robot_place (r), ==, "зона хранения №1");
  g_assert_true (nb_sim_robot_execute (r, 3, nb_skill_table_lookup (t, "release"), x, NULL, FALSE, &reason));
  g_assert_null (nb_sim_robot_holding (r));
  /* the object stays where it was put: approaching it goes there */
  g_assert_true (nb_sim_robot_execute (r, 4, nb_skill_table_lookup (t, "return_home"), "робот", "исходное положение", FALSE, &reason));
  g_assert_true (nb_sim_robot_execute (r, 5, nb_skill_table_lookup (t, "approach"), x, NULL, FALSE, &reason));
  g_assert_cmpstr (nb_sim_robot_place (r), ==, "зона хранения №1");
  /* releasing what is not held fails */
  g_assert_false (nb_sim_robot_execute (r, 6, nb_skill_table_lookup (t, "release"), x, NULL, FALSE, &reason));
  g_assert_cmpstr (reason, ==, "release: gripper open: 'распределительная коробка №1' is not held, the gripper is empty");
  g_clear_pointer (&reason, g_free);
  /* an injected fault fails the first step; the robot does not move */
  g_assert_false (nb_sim_robot_execute (r, 7, nb_skill_table_lookup (t, "position"), x, "стол №1", TRUE, &reason));
  g_assert_cmpstr (reason, ==, "position: injected fault in its motion step");
  g_assert_cmpstr (nb_sim_robot_place (r), ==, "зона хранения №1");

  /* 1.3 + (failed pick: 0.5 + 0.8) + 3.0 + 0.6 + 3.0 + 2.0 + 0.6 + 2.5 */
  nb_assert_abs (nb_sim_robot_clock_s (r), 14.3, 1e-9, "clock");
  ev = nb_sim_robot_events (r);
  g_assert_cmpuint (ev->len, ==, 10);
  g_assert_false (g_array_index (ev, NbSimEvent, 3).ok);
  g_assert_cmpuint (g_array_index (ev, NbSimEvent, 9).action, ==, 7);
  g_assert_false (g_array_index (ev, NbSimEvent, 9).ok);
}

/* The seed's full plan on the simulated robot, summed by hand from the
 * table: detect 2.0, approach 2.0, pick 1.3, move_to_operator 2.5, hold 1.2,
 * wait_assembly 30.0, move_to_storage 3.0, release 0.6, return_home 3.0. */
static gboolean
sim_execute (const NbPlanAction *a, guint index, gpointer user_data, char **reason)
{
  return nb_sim_robot_execute (user_data, index, a->skill_def, a->object, a->target, FALSE, reason);
}

static void
test_sim_seed_plan (void)
{
  g_autoptr (NbSkillTable) t = load_table ();
  g_autoptr (NbSimRobot) r = nb_sim_robot_new ();
  g_autoptr (NbPlanChecker) c = nb_plan_checker_new (t, NB_PLAN_MODE_FULL, TRUE);
  g_autoptr (GArray) v = nb_plan_violations_new ();
  g_autoptr (GArray) trace = nb_plan_trace_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *full = read_data ("seed-full.json");
  const NbPlan *p = check_text (c, full, v);
  NbPlanOutcome outcome;

  g_assert_true (nb_plan_run (p, sim_execute, r, &outcome, trace, &error));
  g_assert_cmpint (outcome, ==, NB_PLAN_OUTCOME_READY);
  nb_assert_abs (nb_sim_robot_clock_s (r), 45.6, 1e-9, "seed plan time");
  g_assert_cmpstr (nb_sim_robot_place (r), ==, "исходное положение");
  g_assert_null (nb_sim_robot_holding (r));
}

/* ------------------------------------------------------------- dataset -- */

static void
check_dataset (const NbSkillTable *t, const GString *data, gboolean strict,
               const NbTestDatasetExpect *e)
{
  g_autoptr (NbPlanChecker) c = nb_plan_checker_new (t, NB_PLAN_MODE_BRANCH, strict);
  g_autoptr (GArray) v = nb_plan_violations_new ();
  guint64 errors[NB_PLAN_N_KINDS] = { 0 }, warnings[NB_PLAN_N_KINDS] = { 0 };
  guint64 plans = 0, valid = 0, line = 0;
  const char *p = data->str, *end = data->str + data->len;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      const NbPlan *plan;
      gboolean bad = FALSE;

      g_array_set_size (v, 0);
      plan = nb_plan_checker_check (c, p, (gsize) (nl - p), ++line, v);
      for (guint i = 0; i < v->len; i++)
        {
          const NbPlanViolation *x = &g_array_index (v, NbPlanViolation, i);

          g_assert_cmpuint (x->line, ==, line);
          if (x->severity == NB_PLAN_ERROR)
            errors[x->kind]++, bad = TRUE;
          else
            warnings[x->kind]++;
        }
      /* one injected fault, one violation */
      g_assert_cmpuint (v->len, <=, 1);
      g_assert_true (plan != NULL || bad);
      plans++;
      valid += !bad;
      p = nl + 1;
    }
  g_assert_cmpuint (plans, ==, e->plans);
  g_assert_cmpuint (valid, ==, strict ? e->valid_strict : e->valid);
  for (guint k = 0; k < NB_PLAN_N_KINDS; k++)
    {
      gboolean lint = nb_plan_violation_kind_is_lint ((NbPlanViolationKind) k);
      guint64 want_e = e->errors[k] + (strict && lint ? e->warnings[k] : 0);
      guint64 want_w = strict ? 0 : e->warnings[k];

      if (errors[k] != want_e || warnings[k] != want_w)
        g_error ("%s: %" G_GUINT64_FORMAT " errors, %" G_GUINT64_FORMAT " warnings; expected %"
                 G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT,
                 nb_plan_violation_kind_name ((NbPlanViolationKind) k), errors[k], warnings[k],
                 want_e, want_w);
    }
}

static void
test_dataset (void)
{
  g_autoptr (NbSkillTable) t = load_table ();
  g_autoptr (GString) data = g_string_new (NULL);
  NbTestDatasetExpect e;

  nb_test_plan_dataset (data, 100000, 18646, 0.3, &e);
  g_assert_cmpuint (e.plans, ==, 100000);
  /* every fault kind is injected many times */
  for (guint k = 0; k < NB_PLAN_N_KINDS; k++)
    if (k != NB_PLAN_V_STRUCTURE && k != NB_PLAN_V_STEP_TOO_MANY &&
        k != NB_PLAN_V_BLOCKED_WITH_ACTION)
      g_assert_cmpuint (e.errors[k] + e.warnings[k], >, 500);
  check_dataset (t, data, FALSE, &e);
  check_dataset (t, data, TRUE, &e);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/skills/match-seed", test_skills_match_seed);
  g_test_add_func ("/skills/gripper-rules", test_skills_gripper_rules);
  g_test_add_func ("/skills/bad-tables", test_skills_bad_tables);
  g_test_add_func ("/plan/cases", test_cases);
  g_test_add_func ("/plan/messages", test_messages);
  g_test_add_func ("/plan/bad-bytes", test_bad_bytes);
  g_test_add_func ("/plan/seed-examples", test_seed_examples);
  g_test_add_func ("/plan/run", test_run);
  g_test_add_func ("/plan/run-refused", test_run_refused);
  g_test_add_func ("/sim/robot", test_sim_robot);
  g_test_add_func ("/sim/seed-plan", test_sim_seed_plan);
  g_test_add_func ("/plan/dataset-100000", test_dataset);
  return g_test_run ();
}
