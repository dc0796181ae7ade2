/* navbench-cli campaign run --clause 6 | 7 | 9 end to end: the JSON lines of
 * the trials (kind, number, time, clearance), the final figures equal to
 * those of `campaign results --json` and `report --format json`, the
 * figures against the simulated base's model, a passage narrower than the
 * wander, and bad input refused with exit 2. */
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-tmp.h"

#include <json-glib/json-glib.h>
#include <string.h>

static char *tmpdir;

static char *
new_campaign (const char *name)
{
  char *db = g_strdup_printf ("%s/%s.nbc", tmpdir, name);
  g_autofree char *a = nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name",
                                        name, "robot.width_mm=450", NULL);

  return db;
}

/* The run's JSON lines (parsed; owned by parsers): n events and the figures. */
static GPtrArray *
run_lines (const char *out, guint expect_events, GPtrArray *parsers)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  guint n = g_strv_length (lines);
  GPtrArray *objects = g_ptr_array_new ();

  g_assert_cmpuint (n, ==, expect_events + 2);
  for (guint i = 0; i + 1 < n; i++)
    {
      JsonParser *p = json_parser_new ();

      g_ptr_array_add (parsers, p);
      g_ptr_array_add (objects, nb_test_parse_object (p, lines[i]));
    }
  return objects;
}

/* The row of the protocol table whose config is name. */
static JsonObject *
report_row (JsonObject *report, const char *title_prefix, const char *name)
{
  JsonArray *blocks = json_object_get_array_member (report, "blocks");

  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonObject *b = json_array_get_object_element (blocks, i), *table;
      JsonArray *rows;

      if (!json_object_has_member (b, "table"))
        continue;
      table = json_object_get_object_member (b, "table");
      if (!g_str_has_prefix (json_object_get_string_member (table, "title"), title_prefix))
        continue;
      rows = json_object_get_array_member (table, "rows");
      for (guint j = 0; j < json_array_get_length (rows); j++)
        {
          JsonObject *row = json_array_get_object_element (rows, j);

          if (g_strcmp0 (json_object_get_string_member (row, "config"), name) == 0)
            return row;
        }
    }
  g_error ("the report has no row '%s' in '%s'", name, title_prefix);
  return NULL;
}

static JsonObject *
results_of (JsonObject *results, const char *clause)
{
  JsonObject *clauses = json_object_get_object_member (results, "clauses");

  return json_array_get_object_element (json_object_get_array_member (clauses, clause), 0);
}

static void
test_run_results_report_agree (void)
{
  g_autofree char *db = new_campaign ("agree");
  g_autofree char *out7 = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db,
                                           "--clause", "7", "--config", "1 wooden wall",
                                           "--obstacle", "wooden wall", "--seed", "5",
                                           "--goal-tolerance-mm", "10", "--goal-tolerance-deg",
                                           "1", "--json", NULL);
  g_autofree char *out9 = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db,
                                           "--clause", "9", "--config", "no load", "--seed",
                                           "6", "--passage-width-mm", "650",
                                           "--goal-tolerance-mm", "10", "--goal-tolerance-deg",
                                           "1", "--json", NULL);
  g_autofree char *results = nb_test_cli_run (NULL, 0, NULL, "campaign", "results", "--db", db,
                                              "--json", NULL);
  g_autofree char *report = nb_test_cli_run (NULL, 0, NULL, "report", "--db", db, "--format",
                                             "json", NULL);
  g_autoptr (GPtrArray) parsers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) l7 = run_lines (out7, 12, parsers);
  g_autoptr (GPtrArray) l9 = run_lines (out9, 10, parsers);
  g_autoptr (JsonParser) pr = json_parser_new (), pc = json_parser_new ();
  JsonObject *res = nb_test_parse_object (pc, results), *doc = nb_test_parse_object (pr, report);
  JsonObject *f7 = json_object_get_object_member (g_ptr_array_index (l7, 12), "figures");
  JsonObject *f9 = json_object_get_object_member (g_ptr_array_index (l9, 10), "figures");
  JsonObject *r7 = results_of (res, "7"), *r9 = results_of (res, "9");
  JsonObject *t4 = report_row (doc, "Table 4", "1 wooden wall");
  JsonObject *t6 = report_row (doc, "Table 6", "no load");
  const char *keys7[] = { "t0_s", "t1_s", "delay_ratio" };
  double t0 = 0.0, t1 = 0.0, sum9 = 0.0;

  /* Each trial's line: baseline 1–3, then obstacle 1–3, with its time. */
  for (guint k = 0; k < 6; k++)
    {
      JsonObject *o = g_ptr_array_index (l7, 2 * k + 1);
      double time = json_object_get_double_member (o, "time_s");

      g_assert_cmpstr (json_object_get_string_member (o, "event"), ==, "trial-ended");
      g_assert_cmpstr (json_object_get_string_member (o, "outcome"), ==, "ok");
      g_assert_cmpstr (json_object_get_string_member (o, "kind"), ==,
                       k < 3 ? "baseline" : "obstacle");
      g_assert_cmpint (json_object_get_int_member (o, "number"), ==, k % 3 + 1);
      if (k < 3)
        {
          g_assert_true (json_node_is_null (json_object_get_member (o, "clearance_mm")));
          t0 += time / 3.0;
        }
      else
        {
          /* The base keeps 100 mm; the wander is ≤ 8 mm. */
          nb_assert_abs (json_object_get_double_member (o, "clearance_mm"), 100.0, 9.0,
                         "clearance");
          t1 = MAX (t1, time);
        }
    }
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (l7, 12), "event"), ==,
                   "figures");
  g_assert_true (json_object_get_boolean_member (f7, "passed"));
  nb_assert_rel (json_object_get_double_member (f7, "t0_s"), t0, 1e-12, "T0");
  g_assert_true (json_object_get_double_member (f7, "t1_s") == t1);
  /* The model (test-runner-courses.c, by hand): T0 4.5 s, T1 9.422 s. */
  nb_assert_rel (t0, 4.5, 0.03, "T0 against the model");
  nb_assert_abs (t1, 9.422, 0.31, "T1 against the model");
  for (guint i = 0; i < G_N_ELEMENTS (keys7); i++)
    {
      /* The same doubles as campaign results; the report's rows the same. */
      g_assert_true (json_object_get_double_member (f7, keys7[i]) ==
                     json_object_get_double_member (r7, keys7[i]));
      nb_assert_rel (json_object_get_double_member (t4, keys7[i]),
                     json_object_get_double_member (f7, keys7[i]), 1e-15, keys7[i]);
    }
  g_assert_true (json_object_get_boolean_member (r7, "passed"));
  g_assert_cmpstr (json_object_get_string_member (t4, "passed"), ==, "yes");
  g_assert_cmpstr (json_object_get_string_member (t4, "obstacle"), ==, "wooden wall");

  for (guint k = 0; k < 5; k++)
    {
      JsonObject *o = g_ptr_array_index (l9, 2 * k + 1);

      g_assert_false (json_object_has_member (o, "kind"));
      g_assert_cmpint (json_object_get_int_member (o, "number"), ==, k + 1);
      sum9 += json_object_get_double_member (o, "time_s");
    }
  g_assert_true (json_object_get_boolean_member (f9, "passed"));
  nb_assert_rel (json_object_get_double_member (f9, "mean_time_s"), sum9 / 5.0, 1e-12, "mean");
  /* By hand: 1 + 2450 / 666.7 + 0.55 = 5.225 s. */
  nb_assert_rel (sum9 / 5.0, 5.225, 0.02, "passage time against the model");
  g_assert_true (json_object_get_double_member (f9, "mean_time_s") ==
                 json_object_get_double_member (r9, "mean_time_s"));
  g_assert_cmpint (json_object_get_int_member (r9, "failed_trials"), ==, 0);
  nb_assert_rel (json_object_get_double_member (t6, "mean_time_s"),
                 json_object_get_double_member (f9, "mean_time_s"), 1e-15, "report");
}

/* A passage 4 mm wider each side than the robot, the wander at least 4 mm:
 * every trial touches; the run itself succeeds (exit 0) with the figures
 * "not passed". */
static void
test_narrow_text (void)
{
  g_autofree char *db = new_campaign ("narrow");
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db,
                                          "--clause", "9", "--config", "tight",
                                          "--passage-width-mm", "458", "--goal-tolerance-mm",
                                          "10", "--goal-tolerance-deg", "1", NULL);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

  /* 10 event lines, the heading, the figures, and the empty end; an undefined
   * figure is "—" as campaign results prints it (#14: one figure printer). */
  g_assert_cmpuint (g_strv_length (lines), ==, 13);
  for (guint k = 0; k < 5; k++)
    {
      g_autofree char *head = g_strdup_printf ("trial %u/5 failed: %u in ", k + 1, k + 1);

      g_assert_true (g_str_has_prefix (lines[2 * k + 1], head));
      g_assert_nonnull (strstr (lines[2 * k + 1], ": touched a wall of the passage: clearance -"));
    }
  g_assert_cmpstr (lines[10], ==, "Clause 9 — Narrow passage, config 'tight': 5 run (0 ok, "
                                  "5 failed, 0 aborted)");
  g_assert_true (g_str_has_prefix (lines[11], "not passed  passage time — s  5 failed"));
}

/* Clause 6: the large cylinder's 16 placements; the lines, campaign
 * results and the report's table 3 row agree. */
static void
test_detection (void)
{
  g_autofree char *db = new_campaign ("detection");
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db,
                                          "--clause", "6", "--config", "cyl", "--obstacle",
                                          "large cylinder", "--json", NULL);
  g_autofree char *results = nb_test_cli_run (NULL, 0, NULL, "campaign", "results", "--db", db,
                                              "--json", NULL);
  g_autofree char *report = nb_test_cli_run (NULL, 0, NULL, "report", "--db", db, "--format",
                                             "json", NULL);
  g_autoptr (GPtrArray) parsers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) lines = run_lines (out, 32, parsers);
  g_autoptr (JsonParser) pr = json_parser_new (), pc = json_parser_new ();
  JsonObject *f = json_object_get_object_member (g_ptr_array_index (lines, 32), "figures");
  JsonObject *r = results_of (nb_test_parse_object (pc, results), "6");
  JsonObject *doc = nb_test_parse_object (pr, report);
  JsonObject *row = NULL;
  JsonArray *blocks = json_object_get_array_member (doc, "blocks");
  double sum = 0.0;
  guint detected = 0;

  for (guint k = 0; k < 16; k++)
    {
      JsonObject *o = g_ptr_array_index (lines, 2 * k + 1);
      double truth = k % 2 ? 300.0 : 4000.0;

      g_assert_cmpstr (json_object_get_string_member (o, "obstacle"), ==, "large cylinder");
      g_assert_cmpfloat (json_object_get_double_member (o, "angle_deg"), ==, 45.0 * (k / 2));
      g_assert_cmpstr (json_object_get_string_member (o, "range"), ==, k % 2 ? "min" : "max");
      g_assert_cmpfloat (json_object_get_double_member (o, "true_mm"), ==, truth);
      /* Always seen in the base's 270° view (p_far 1), never behind it. */
      g_assert_true (json_object_get_boolean_member (o, "detected") == (k / 2 != 4));
      if (k / 2 == 4)
        {
          g_assert_true (json_node_is_null (json_object_get_member (o, "measured_mm")));
          continue;
        }
      /* σ = 5 mm + 0.5 %: 4.5σ. */
      nb_assert_abs (json_object_get_double_member (o, "measured_mm"), truth,
                     4.5 * (5.0 + 0.005 * truth), "measured");
      sum += 100.0 - 100.0 * fabs (json_object_get_double_member (o, "measured_mm") - truth) / truth;
      detected++;
    }
  g_assert_cmpint (json_object_get_int_member (f, "placements"), ==, 16);
  g_assert_cmpint (json_object_get_int_member (f, "detected"), ==, 14);
  nb_assert_rel (json_object_get_double_member (f, "mean_accuracy_pct"), sum / detected, 1e-12,
                 "mean accuracy");
  g_assert_true (json_object_get_double_member (f, "mean_accuracy_pct") ==
                 json_object_get_double_member (r, "mean_accuracy_pct"));
  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonObject *b = json_array_get_object_element (blocks, i);

      if (json_object_has_member (b, "table") &&
          g_str_has_prefix (json_object_get_string_member (json_object_get_object_member (b, "table"),
                                                           "title"), "Table 3 —"))
        row = json_array_get_object_element (json_object_get_array_member (
                json_object_get_object_member (b, "table"), "rows"), 0);
    }
  g_assert_nonnull (row);
  g_assert_cmpstr (json_object_get_string_member (row, "obstacle"), ==, "large cylinder");
  g_assert_cmpint (json_object_get_int_member (row, "detected"), ==, 14);
  nb_assert_rel (json_object_get_double_member (row, "mean_accuracy_pct"),
                 json_object_get_double_member (f, "mean_accuracy_pct"), 1e-15, "report");
}

static void
test_bad_input (void)
{
  g_autofree char *db = new_campaign ("bad");
  struct { const char *args[12]; const char *says; } cases[] = {
    { { "--db", db, "--clause", "7", "--config", "c", "--obstacle", "sofa" },
      "obstacle 'sofa' is not in table 2" },
    { { "--db", db, "--clause", "7", "--config", "c", "--obstacle", "wooden wall",
        "--behaviour", "9" }, "--behaviour 9: 1 to 4" },
    { { "--db", db, "--clause", "7", "--config", "c", "--obstacle", "wooden wall",
        "--behaviour", "3" }, "behaviours 2 to 4 move a large or a small cylinder" },
    { { "--db", db, "--clause", "7", "--config", "c", "--phase", "later" },
      "--phase 'later': auto, baseline or obstacle" },
    { { "--db", db, "--clause", "9", "--config", "c", "--obstacle", "wooden wall" },
      "--obstacle is for clauses 6 and 7" },
    { { "--db", db, "--clause", "9", "--config", "c", "--behaviour", "2" },
      "--behaviour and --phase are for clause 7" },
    { { "--db", db, "--clause", "7", "--config", "c", "--min-range-mm", "300" },
      "--min-range-mm and --max-range-mm are for clause 6" },
    { { "--db", db, "--clause", "6", "--config", "c", "--min-range-mm", "500", "--max-range-mm",
        "400" }, "0 < minimum < maximum" },
    { { "--db", db, "--clause", "6", "--config", "c", "--min-range-mm", "500" },
      "give both" },
    { { "--db", db, "--clause", "7", "--config", "c", "--passage-width-mm", "600" },
      "--passage-width-mm is for clause 9" },
    { { "--db", db, "--clause", "9", "--config", "c", "--passage-width-mm", "wide" },
      "passage-width-mm" },
    { { "--db", db, "--clause", "9", "--config", "c", "--passage-width-mm", "0" },
      "passage width 0 mm: a width is > 0" },
    { { "--db", db, "--clause", "9", "--config", "c", "--goal-tolerance-mm", "-1" },
      "goal tolerance" },
    { { "--db", db, "--clause", "5", "--config", "c", "--goal-tolerance-mm", "5" },
      "--goal-tolerance-mm/-deg are for clauses 7 and 9" },
    { { "--db", db, "--clause", "9", "--config", "c" },
      "run clause 5 on the straight route first" },
    { { "--db", db, "--clause", "7", "--config", "c", "--goal-tolerance-mm", "5",
        "--goal-tolerance-deg", "1" }, "clause 7 needs one of table 2" },
    /* #14: 6.3 fixes the placements; a count is refused, not silently ignored. */
    { { "--db", db, "--clause", "6", "--config", "c", "--trials", "3" },
      "--trials is for clauses 5, 7, 8, 9 and 10 (clause 6 fixes its placements, 6.3)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL, *out = NULL;
      const char **a = cases[i].args;

      out = nb_test_cli_run (NULL, 2, &err, "campaign", "run", a[0], a[1], a[2], a[3], a[4], a[5],
                             a[6], a[7], a[8], a[9], a[10], a[11], NULL);
      g_assert_cmpstr (out, ==, "");
      if (strstr (err, cases[i].says) == NULL || !g_str_has_prefix (err, "navbench-cli: "))
        g_error ("case %u: '%s' does not say '%s'", i, err, cases[i].says);
    }
}

/* Annex A.5.2: outdoors only the small cylinder, the large cylinder and the
 * wooden wall are test obstacles: clause 6 without --obstacle places those
 * three (48 placements, not 96), a table is refused for 6 and for 7. */
static void
test_outdoor_obstacles (void)
{
  g_autofree char *db = new_campaign ("outdoor");
  g_autofree char *err = NULL, *err7 = NULL, *out = NULL, *results = NULL;
  g_autoptr (GPtrArray) parsers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) lines = NULL;
  g_autoptr (JsonParser) pc = json_parser_new ();
  JsonObject *r;

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "set", "--db", db,
                           "conditions.environment=outdoor", NULL));
  g_free (nb_test_cli_run (NULL, 2, &err, "campaign", "run", "--db", db, "--clause", "6",
                           "--config", "t", "--obstacle", "metal table", NULL));
  g_assert_nonnull (strstr (err, "the campaign is outdoors: the metal table is not used there "
                                 "(annex A.5.2"));
  g_free (nb_test_cli_run (NULL, 2, &err7, "campaign", "run", "--db", db, "--clause", "7",
                           "--config", "t7", "--obstacle", "wooden table", "--behaviour", "1",
                           NULL));
  g_assert_nonnull (strstr (err7, "the wooden table is not used there (annex A.5.2"));
  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--clause", "6",
                         "--config", "three", "--json", NULL);
  lines = run_lines (out, 96, parsers);
  results = nb_test_cli_run (NULL, 0, NULL, "campaign", "results", "--db", db, "--json", NULL);
  {
    JsonArray *c6 = json_object_get_array_member (json_object_get_object_member (
                      nb_test_parse_object (pc, results), "clauses"), "6");

    r = NULL;
    for (guint i = 0; i < json_array_get_length (c6); i++)
      if (g_strcmp0 (json_object_get_string_member (json_array_get_object_element (c6, i),
                                                    "config"), "three") == 0)
        r = json_array_get_object_element (c6, i);
    g_assert_nonnull (r);
  }
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (r, "obstacles")), ==, 3);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = nb_test_make_dir ();
  g_test_add_func ("/runner-courses-cli/run-results-report-agree", test_run_results_report_agree);
  g_test_add_func ("/runner-courses-cli/narrow-text", test_narrow_text);
  g_test_add_func ("/runner-courses-cli/detection", test_detection);
  g_test_add_func ("/runner-courses-cli/outdoor-obstacles", test_outdoor_obstacles);
  g_test_add_func ("/runner-courses-cli/bad-input", test_bad_input);
  rc = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return rc;
}
