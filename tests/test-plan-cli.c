/* End-to-end tests of navbench-cli plan check / run / skills: the binary
 * named by $NAVBENCH_CLI, its JSON read back with json-glib. */
#include "nb-plan.h"
#include "plan-dataset.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

typedef struct {
  int status;
  char *out;
  char *err;
} Result;

static void
result_clear (Result *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Result, result_clear)

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "plans", name, NULL);
}

/* Runs navbench-cli with the NULL-terminated arguments. */
static void
cli (Result *r, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  int wait_status;
  va_list ap;
  const char *a;

  g_ptr_array_add (argv, (gpointer) g_getenv ("NAVBENCH_CLI"));
  va_start (ap, r);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_assert_nonnull (argv->pdata[0]);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &r->out,
                &r->err, &wait_status, &error);
  g_assert_no_error (error);
  r->status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
}

static JsonObject *
parse_out (JsonParser *parser, const Result *r)
{
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, r->out, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}

static gint64
member_int (JsonObject *o, const char *name)
{
  g_assert_true (json_object_has_member (o, name));
  return json_object_get_int_member (o, name);
}

/* ---------------------------------------------------------------- check -- */

static void
test_check_seed (void)
{
  g_autofree char *full = data_path ("seed-full.json");
  g_autofree char *step = data_path ("seed-step.json");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_auto (Result) r = { 0 };
  g_autofree char *verdict = NULL;
  JsonObject *o;

  cli (&r, "plan", "check", full, "--mode", "full", "--strict", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_out (parser, &r);
  g_assert_cmpint (member_int (o, "plans"), ==, 1);
  g_assert_cmpint (member_int (o, "valid"), ==, 1);
  g_assert_cmpint (member_int (o, "invalid"), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "violations")), ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  result_clear (&r);

  cli (&r, "plan", "check", step, "--mode", "step", NULL);
  g_assert_cmpint (r.status, ==, 0);
  verdict = g_strdup_printf ("%s: step plan valid\n", step);
  g_assert_cmpstr (r.out, ==, verdict);
  result_clear (&r);
  /* the step example is one action: as a full plan it is fine, as a branch not */
  cli (&r, "plan", "check", step, "--mode", "branch", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.out, ": plan[0].id: error [bad_id]: id is missing\n"));
}

static void
test_check_violations (void)
{
  g_autofree char *path = data_path ("cases/wrong-fixed-value.json");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_auto (Result) r = { 0 };
  g_autofree char *first = NULL;
  JsonObject *o, *v;
  JsonArray *a;

  cli (&r, "plan", "check", path, "--mode", "full", NULL);
  g_assert_cmpint (r.status, ==, 2);
  first = g_strdup_printf ("%s:2: plan[0].target: error [wrong_fixed_value]: move_to_operator "
                           "takes target 'оператор', got 'оператор №1'\n", path);
  g_assert_true (g_str_has_prefix (r.out, first));
  g_assert_true (g_str_has_suffix (r.out, ": full plan invalid\n"));
  result_clear (&r);

  cli (&r, "plan", "check", path, "--mode", "full", "--json", NULL);
  g_assert_cmpint (r.status, ==, 2);
  o = parse_out (parser, &r);
  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "document");
  g_assert_cmpint (member_int (o, "invalid"), ==, 1);
  g_assert_cmpint (member_int (json_object_get_object_member (o, "errors"), "wrong_fixed_value"),
                   ==, 7);
  a = json_object_get_array_member (o, "violations");
  g_assert_cmpuint (json_array_get_length (a), ==, 7);
  v = json_array_get_object_element (a, 4);
  g_assert_cmpint (member_int (v, "line"), ==, 6);
  g_assert_cmpstr (json_object_get_string_member (v, "location"), ==, "plan[4].object");
  g_assert_cmpstr (json_object_get_string_member (v, "severity"), ==, "error");
  /* UTF-8 byte for byte, in the JSON text itself (not \u escapes) */
  g_assert_cmpstr (json_object_get_string_member (v, "message"), ==,
                   "return_home takes object 'робот', got 'робот №1'");
  g_assert_nonnull (strstr (r.out, "\"message\": \"return_home takes object 'робот', got 'робот №1'\""));
}

static void
test_check_strict (void)
{
  g_autofree char *path = data_path ("cases/gripper-home-holding.json");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_auto (Result) r = { 0 };
  JsonObject *o;

  cli (&r, "plan", "check", path, "--mode", "full", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_out (parser, &r);
  g_assert_cmpint (member_int (o, "valid"), ==, 1);
  g_assert_cmpint (member_int (o, "with_warnings"), ==, 1);
  g_assert_cmpint (member_int (json_object_get_object_member (o, "warnings"), "gripper_busy"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (
                     json_array_get_object_element (json_object_get_array_member (o, "violations"), 0),
                     "message"), ==,
                   "return_home of 'робот' while holding 'деталь №1'");
  result_clear (&r);

  cli (&r, "plan", "check", path, "--mode", "full", "--strict", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.out, ":3: plan[1]: error [gripper_busy]: return_home of 'робот' "
                                   "while holding 'деталь №1'\n"));
  g_assert_true (g_str_has_suffix (r.out, ": full plan invalid\n"));
  result_clear (&r);
  cli (&r, "plan", "check", path, "--mode", "full", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_suffix (r.out, ": full plan valid, 1 warning\n"));
}

/* Physical lines: blank lines are skipped but counted, CRLF and a BOM are
 * accepted, and each plan is located on its line. */
static void
test_check_lines (void)
{
  g_autofree char *dir = g_dir_make_tmp ("navbench-plan-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "plans.txt", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_auto (Result) r = { 0 };
  const char *text =
    "\xEF\xBB\xBF{\"status\": \"ready\", \"plan\": []}\r\n"
    "\n"
    "{\"status\": \"ready\", \"plan\": [{\"skill\": \"detect\", \"object\": \"деталь №1\", \"target\": \"стол\"}]}\r\n"
    "   \n"
    "{\"status\": \"blocked\", \"plan\": [\n"
    "{\"status\": \"blocked\", \"plan\": [], \"status\": \"ready\"}\n";
  JsonObject *o;
  JsonArray *a;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  cli (&r, "plan", "check", path, "--mode", "full", "--json", NULL);
  g_assert_cmpint (r.status, ==, 2);
  o = parse_out (parser, &r);
  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "json-lines");
  g_assert_cmpint (member_int (o, "plans"), ==, 4);
  g_assert_cmpint (member_int (o, "valid"), ==, 1);
  g_assert_cmpint (member_int (o, "invalid"), ==, 3);
  a = json_object_get_array_member (o, "violations");
  g_assert_cmpuint (json_array_get_length (a), ==, 3);
  g_assert_cmpint (member_int (json_array_get_object_element (a, 0), "line"), ==, 3);
  g_assert_cmpint (member_int (json_array_get_object_element (a, 0), "plan"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (a, 0), "kind"),
                   ==, "target_forbidden");
  g_assert_cmpint (member_int (json_array_get_object_element (a, 1), "line"), ==, 5);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (a, 1), "kind"),
                   ==, "syntax");
  g_assert_cmpint (member_int (json_array_get_object_element (a, 2), "line"), ==, 6);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (a, 2), "kind"),
                   ==, "duplicate_field");
  g_unlink (path);
  g_rmdir (dir);
}

/* The 100 000-plan dataset with known injected faults: exact counts. */
static void
check_summary (JsonObject *o, const NbTestDatasetExpect *e, gboolean strict)
{
  JsonObject *errors = json_object_get_object_member (o, "errors");
  JsonObject *warnings = json_object_get_object_member (o, "warnings");
  guint64 n_violations = 0;

  g_assert_cmpint (member_int (o, "plans"), ==, (gint64) e->plans);
  g_assert_cmpint (member_int (o, "valid"), ==, (gint64) (strict ? e->valid_strict : e->valid));
  g_assert_cmpint (member_int (o, "invalid"), ==,
                   (gint64) (e->plans - (strict ? e->valid_strict : e->valid)));
  g_assert_cmpint (member_int (o, "with_warnings"), ==, strict ? 0 : (gint64) e->with_warnings);
  for (guint k = 0; k < NB_PLAN_N_KINDS; k++)
    {
      const char *name = nb_plan_violation_kind_name ((NbPlanViolationKind) k);
      gboolean lint = nb_plan_violation_kind_is_lint ((NbPlanViolationKind) k);
      guint64 want_e = e->errors[k] + (strict && lint ? e->warnings[k] : 0);
      guint64 want_w = strict ? 0 : e->warnings[k];
      gint64 got_e = json_object_has_member (errors, name) ? json_object_get_int_member (errors, name) : 0;
      gint64 got_w = json_object_has_member (warnings, name) ? json_object_get_int_member (warnings, name) : 0;

      if (got_e != (gint64) want_e || got_w != (gint64) want_w)
        g_error ("%s: %" G_GINT64_FORMAT " errors, %" G_GINT64_FORMAT " warnings; expected %"
                 G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT, name, got_e, got_w, want_e, want_w);
      n_violations += want_e + want_w;
    }
  /* one violation per injected fault, none elsewhere */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "violations")), ==,
                    n_violations);
}

static void
test_check_dataset (void)
{
  g_autofree char *dir = g_dir_make_tmp ("navbench-plan-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "dataset.jsonl", NULL);
  g_autoptr (GString) data = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) p1 = json_parser_new ();
  g_autoptr (JsonParser) p2 = json_parser_new ();
  g_auto (Result) r = { 0 };
  g_autofree char *summary = NULL;
  NbTestDatasetExpect e;

  nb_test_plan_dataset (data, 100000, 2026, 0.25, &e);
  g_file_set_contents (path, data->str, (gssize) data->len, &error);
  g_assert_no_error (error);

  cli (&r, "plan", "check", path, "--mode", "branch", "--json", NULL);
  g_assert_cmpint (r.status, ==, 2);
  check_summary (parse_out (p1, &r), &e, FALSE);
  result_clear (&r);
  cli (&r, "plan", "check", path, "--mode", "branch", "--json", "--strict", NULL);
  g_assert_cmpint (r.status, ==, 2);
  check_summary (parse_out (p2, &r), &e, TRUE);
  result_clear (&r);

  /* the text summary for a person */
  cli (&r, "plan", "check", path, "--mode", "branch", NULL);
  g_assert_cmpint (r.status, ==, 2);
  summary = g_strdup_printf ("%s: 100000 plans (branch): %" G_GUINT64_FORMAT " valid, %"
                             G_GUINT64_FORMAT " invalid, %" G_GUINT64_FORMAT " with warnings\n",
                             path, e.valid, e.plans - e.valid, e.with_warnings);
  g_assert_nonnull (strstr (r.out, summary));
  {
    g_autofree char *row = g_strdup_printf ("  error    cycle                %" G_GUINT64_FORMAT "\n",
                                            e.errors[NB_PLAN_V_CYCLE]);

    g_assert_nonnull (strstr (r.out, row));
  }
  g_unlink (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------ run -- */

static void
test_run_seed (void)
{
  g_autofree char *full = data_path ("seed-full.json");
  g_autofree char *branch = data_path ("seed-branch.json");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonParser) parser2 = json_parser_new ();
  g_auto (Result) r = { 0 };
  const char *x = "распределительная коробка №1";
  JsonObject *o, *e;
  JsonArray *trace;

  cli (&r, "plan", "run", full, "--mode", "full", "--robot", "sim", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_out (parser, &r);
  g_assert_cmpstr (json_object_get_string_member (o, "outcome"), ==, "ready");
  /* summed by hand from data/skills.json (see test-plan.c) */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "elapsed_s"), 45.6, 1e-9);
  g_assert_cmpstr (json_object_get_string_member (o, "place"), ==, "исходное положение");
  g_assert_true (json_object_get_null_member (o, "holding"));
  trace = json_object_get_array_member (o, "trace");
  g_assert_cmpuint (json_array_get_length (trace), ==, 9);
  e = json_array_get_object_element (trace, 6);
  g_assert_cmpstr (json_object_get_string_member (e, "skill"), ==, "move_to_storage");
  g_assert_cmpstr (json_object_get_string_member (e, "object"), ==, x);
  g_assert_cmpstr (json_object_get_string_member (e, "target"), ==, "зона хранения №1");
  g_assert_cmpstr (json_object_get_string_member (
                     json_array_get_object_element (json_object_get_array_member (e, "actions"), 0),
                     "to"), ==, "зона хранения №1");
  g_assert_nonnull (strstr (r.out, "\"object\": \"распределительная коробка №1\""));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (trace, 8), "next"),
                   ==, "ready");
  result_clear (&r);

  /* branch, with a failure injected into step_4: stop, replan */
  cli (&r, "plan", "run", branch, "--mode", "branch", "--robot", "sim", "--fail", "step_4",
       "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_out (parser2, &r);
  g_assert_cmpstr (json_object_get_string_member (o, "outcome"), ==, "replan_required");
  g_assert_cmpstr (json_object_get_string_member (o, "failed_id"), ==, "step_4");
  g_assert_cmpint (member_int (o, "failed_index"), ==, 3);
  g_assert_true (json_object_get_boolean_member (o, "fail_reached"));
  g_assert_cmpstr (json_object_get_string_member (o, "holding"), ==, x);
  /* detect 2.0 + approach 2.0 + pick 1.3 + the failed motion 2.5 */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "elapsed_s"), 7.8, 1e-9);
  trace = json_object_get_array_member (o, "trace");
  g_assert_cmpuint (json_array_get_length (trace), ==, 4);
  e = json_array_get_object_element (trace, 3);
  g_assert_cmpstr (json_object_get_string_member (e, "id"), ==, "step_4");
  g_assert_cmpstr (json_object_get_string_member (e, "result"), ==, "failure");
  g_assert_cmpstr (json_object_get_string_member (e, "next"), ==, "replan_required");
  g_assert_cmpstr (json_object_get_string_member (e, "reason"), ==,
                   "move_to_operator: injected fault in its motion step");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (trace, 0), "next"),
                   ==, "step_2");
  result_clear (&r);

  /* the text trace */
  cli (&r, "plan", "run", branch, "--mode", "branch", "--robot", "sim", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "step_1 detect 'распределительная коробка №1': "
                                          "success, next step_2\n"));
  g_assert_true (g_str_has_suffix (r.out, "outcome: ready (status ready, 9 actions, 45.600 s on "
                                          "the virtual clock)\n"));
}

static void
write_tmp (const char *dir, const char *name, const char *text, char **path)
{
  *path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (*path, text, -1, NULL));
}

static void
test_run_outcomes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("navbench-plan-XXXXXX", NULL);
  g_autofree char *empty = NULL, *jump = NULL, *lint = NULL;
  g_autoptr (JsonParser) p1 = json_parser_new ();
  g_autoptr (JsonParser) p2 = json_parser_new ();
  g_autoptr (JsonParser) p3 = json_parser_new ();
  g_auto (Result) r = { 0 };
  JsonObject *o;
  JsonArray *trace;

  write_tmp (dir, "empty.json", "{\"status\": \"blocked\", \"plan\": []}", &empty);
  write_tmp (dir, "jump.json",
    "{\"status\": \"blocked\", \"plan\": [\n"
    "{\"id\": \"step_1\", \"skill\": \"detect\", \"object\": \"винт №3\", \"on_success\": \"step_3\", \"on_failure\": \"replan_required\"},\n"
    "{\"id\": \"step_2\", \"skill\": \"pick\", \"object\": \"винт №3\", \"on_success\": \"step_4\", \"on_failure\": \"replan_required\"},\n"
    "{\"id\": \"step_3\", \"skill\": \"approach\", \"object\": \"винт №3\", \"on_success\": \"step_2\", \"on_failure\": \"replan_required\"},\n"
    "{\"id\": \"step_4\", \"skill\": \"insert_fastener\", \"object\": \"винт №3\", \"target\": \"отверстие №2\", \"on_success\": \"blocked\", \"on_failure\": \"replan_required\"}]}\n",
    &jump);
  /* a lint warning (release of what is not held): run anyway, and the
   * simulated gripper refuses to open */
  write_tmp (dir, "lint.json",
    "{\"status\": \"ready\", \"plan\": [{\"skill\": \"detect\", \"object\": \"деталь №1\"}, "
    "{\"skill\": \"release\", \"object\": \"деталь №1\"}]}", &lint);

  cli (&r, "plan", "run", empty, "--mode", "branch", "--robot", "sim", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_out (p1, &r);
  g_assert_cmpstr (json_object_get_string_member (o, "outcome"), ==, "blocked");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "trace")), ==, 0);
  g_assert_cmpfloat (json_object_get_double_member (o, "elapsed_s"), ==, 0.0);
  result_clear (&r);

  cli (&r, "plan", "run", jump, "--mode", "branch", "--robot", "sim", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_out (p2, &r);
  g_assert_cmpstr (json_object_get_string_member (o, "outcome"), ==, "blocked");
  trace = json_object_get_array_member (o, "trace");
  g_assert_cmpuint (json_array_get_length (trace), ==, 4);
  g_assert_cmpint (member_int (json_array_get_object_element (trace, 1), "index"), ==, 2);
  g_assert_cmpint (member_int (json_array_get_object_element (trace, 2), "index"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (trace, 3), "next"),
                   ==, "blocked");
  g_assert_cmpstr (json_object_get_string_member (o, "place"), ==, "отверстие №2");
  result_clear (&r);

  cli (&r, "plan", "run", lint, "--mode", "full", "--robot", "sim", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  o = parse_out (p3, &r);
  g_assert_cmpstr (json_object_get_string_member (o, "outcome"), ==, "replan_required");
  g_assert_cmpstr (json_object_get_string_member (o, "reason"), ==,
                   "release: gripper open: 'деталь №1' is not held, the gripper is empty");
  g_assert_cmpstr (json_object_get_string_member (
                     json_array_get_object_element (json_object_get_array_member (o, "warnings"), 0),
                     "kind"), ==, "gripper_not_holding");
  result_clear (&r);
  /* strict: the warning refuses the run */
  cli (&r, "plan", "run", lint, "--mode", "full", "--robot", "sim", "--strict", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");

  g_unlink (empty);
  g_unlink (jump);
  g_unlink (lint);
  g_rmdir (dir);
}

static void
test_run_refused (void)
{
  g_autofree char *bad = data_path ("cases/target-missing.json");
  g_autofree char *full = data_path ("seed-full.json");
  g_autofree char *branch = data_path ("seed-branch.json");
  g_autofree char *first = NULL;
  g_auto (Result) r = { 0 };

  cli (&r, "plan", "run", bad, "--mode", "full", "--robot", "sim", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  first = g_strdup_printf ("navbench-cli: %s:2: plan[0].target: [target_missing] position needs a "
                           "target (Место назначения)\n", bad);
  g_assert_true (g_str_has_prefix (r.err, first));
  g_assert_true (g_str_has_suffix (r.err, ": the plan has errors: not run\n"));
  result_clear (&r);

  cli (&r, "plan", "run", branch, "--mode", "branch", "--robot", "sim", "--fail", "step_10", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_cmpstr (r.err, ==, "navbench-cli: --fail step_10: the plan has no such action\n");
  result_clear (&r);

  cli (&r, "plan", "run", full, "--mode", "step", "--robot", "sim", NULL);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);
  cli (&r, "plan", "run", full, "--mode", "full", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, "navbench-cli: --robot sim is required\n");
  result_clear (&r);
  cli (&r, "plan", "run", full, "--mode", "full", "--robot", "iiwa", NULL);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);
  cli (&r, "plan", "check", full, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, "navbench-cli: --mode full|step|branch is required, got none\n");
  result_clear (&r);
  cli (&r, "plan", "check", "/nonexistent/plans.jsonl", "--mode", "full", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, "navbench-cli: /nonexistent/plans.jsonl: No such file or directory\n");
  result_clear (&r);
  cli (&r, "plan", "check", full, "--mode", "full", "--skills", full, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_true (g_str_has_prefix (r.err, "navbench-cli: "));
  g_assert_nonnull (strstr (r.err, "expected an object with a 'skills' array"));
}

static void
test_skills (void)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_auto (Result) r = { 0 };
  JsonArray *a;

  cli (&r, "plan", "skills", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  a = json_object_get_array_member (parse_out (parser, &r), "skills");
  g_assert_cmpuint (json_array_get_length (a), ==, 32);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (a, 31), "name"),
                   ==, "return_home");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (a, 31), "object_value"),
                   ==, "робот");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plan-cli/check-seed", test_check_seed);
  g_test_add_func ("/plan-cli/check-violations", test_check_violations);
  g_test_add_func ("/plan-cli/check-strict", test_check_strict);
  g_test_add_func ("/plan-cli/check-lines", test_check_lines);
  g_test_add_func ("/plan-cli/check-dataset-100000", test_check_dataset);
  g_test_add_func ("/plan-cli/run-seed", test_run_seed);
  g_test_add_func ("/plan-cli/run-outcomes", test_run_outcomes);
  g_test_add_func ("/plan-cli/run-refused", test_run_refused);
  g_test_add_func ("/plan-cli/skills", test_skills);
  return g_test_run ();
}
