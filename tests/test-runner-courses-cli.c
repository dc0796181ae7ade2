/* navbench-cli campaign run --clause 6 | 7 | 9 end to end: the JSON lines of
 * the trials (kind, number, time, clearance), the final figures equal to
 * those of `campaign results --json` and `report --format json`, the
 * figures against the simulated base's model, a passage narrower than the
 * wander, and bad input refused with exit 2.  An operator-driven clause 7
 * run headless: the track replayed through the csv instrument, every
 * prompt (the robot at P0, the obstacle placed, each trial's contact)
 * answered from a file of answers and in the event log with the file's
 * line. */
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-tmp.h"

#include <json-glib/json-glib.h>
#include <math.h>
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

/* ------------------------------------------------- operator, from a file -- */

/* The operator's robot on clause 7's course (LU 500 mm: P0 at 0, P1 at
 * 2250 mm, PG at 4500 mm): per trial a rest at P0, the drive to a rest a
 * few mm off PG, the rest, the drive back.  The three baseline drives are
 * straight and take 1.5 s; the three with the obstacle bow 450 mm round the
 * small cylinder at P1 and take 2.0 s. */
#define OP_RATE_HZ 50.0
#define OP_REST_S 0.8
#define OP_BULGE_MM 450.0
static const double op_travel_s[6] = { 1.5, 1.5, 1.5, 2.0, 2.0, 2.0 };
static const double op_rest[6][3] = {
  { 4497.0, 2.0, 0.3 }, { 4502.0, -1.5, -0.2 }, { 4499.5, 0.8, 0.1 },
  { 4503.0, 1.2, -0.3 }, { 4498.0, -2.2, 0.2 }, { 4500.5, 0.4, 0.0 },
};

static void
op_pose (double t, double p[3])
{
  p[0] = p[1] = p[2] = 0.0;
  if ((t -= OP_REST_S) < 0.0)
    return;
  for (guint k = 0; k < 6; k++)
    {
      double T = op_travel_s[k], bulge = k >= 3 ? OP_BULGE_MM : 0.0, f;

      if (t >= 2.0 * (T + OP_REST_S))
        {
          t -= 2.0 * (T + OP_REST_S);
          continue;
        }
      if (t < T)
        f = t / T;
      else if (t < T + OP_REST_S)
        f = 1.0, bulge = 0.0;
      else if (t < 2.0 * T + OP_REST_S)
        f = 1.0 - (t - T - OP_REST_S) / T, bulge = -bulge;   /* back round the other side */
      else
        return;
      p[0] = f * op_rest[k][0];
      p[1] = f * op_rest[k][1] + bulge * sin (G_PI * f);
      p[2] = f * op_rest[k][2];
      return;
    }
}

static char *
op_track (void)
{
  char *path = g_build_filename (tmpdir, "operator-track.csv", NULL);
  g_autoptr (GString) csv = g_string_new ("t_s,x_mm,y_mm,theta_deg\n");
  double total = OP_REST_S + 0.5;
  g_autoptr (GError) error = NULL;

  for (guint k = 0; k < 6; k++)
    total += 2.0 * (op_travel_s[k] + OP_REST_S);
  for (guint i = 0; i <= (guint) (total * OP_RATE_HZ); i++)
    {
      double t = i / OP_RATE_HZ, p[3];

      op_pose (t, p);
      g_string_append_printf (csv, "%.3f,%.3f,%.3f,%.4f\n", t, p[0], p[1], p[2]);
    }
  g_assert_true (g_file_set_contents (path, csv->str, -1, &error));
  return path;
}

/* The answers in the order the runner asks: each trial's "at P0?", its
 * contact; the placement before the first trial with the obstacle.
 * touched_trial (1–6; 0: none): the operator saw that trial touch. */
static char *
op_answers (const char *name, guint touched_trial, GPtrArray *expect)
{
  char *path = g_strdup_printf ("%s/%s", tmpdir, name);
  g_autoptr (GString) text = g_string_new ("# the operator's answers, in the order asked\n");
  g_autoptr (GError) error = NULL;

  for (guint k = 1; k <= 6; k++)
    {
      const char *contact = k == touched_trial ? "yes" : "no";

      if (k == 4)
        {
          g_string_append (text, "yes\n");
          g_ptr_array_add (expect, g_strdup ("Place the small cylinder for behaviour 1 at P1 "
                                             "(2250 mm"));
          g_ptr_array_add (expect, g_strdup ("yes"));
        }
      g_string_append (text, "yes\n");
      g_ptr_array_add (expect, g_strdup_printf ("Trial %u/6 of clause 7 'b1': bring the robot "
                                                "to P0", k));
      g_ptr_array_add (expect, g_strdup ("yes"));
      /* A baseline trial has no obstacle to touch: no contact question. */
      if (k <= 3)
        continue;
      g_string_append_printf (text, "%s\n", contact);
      g_ptr_array_add (expect, g_strdup_printf ("Trial %u: did the robot touch the obstacle?",
                                                k));
      g_ptr_array_add (expect, g_strdup (contact));
    }
  g_assert_true (g_file_set_contents (path, text->str, -1, &error));
  return path;
}

static char *
op_run (const char *db, const char *track, const char *answers, int expect, char **err)
{
  return nb_test_cli_run (NULL, expect, err, "campaign", "run", "--db", db, "--clause", "7",
                          "--config", "b1", "--obstacle", "small cylinder", "--behaviour", "1",
                          "--robot", "operator", "--instrument", "csv", "--url", track,
                          "--set", "t=t_s", "--set", "x=x_mm", "--set", "y=y_mm",
                          "--set", "yaw=theta_deg", "--set", "unit=mm", "--set",
                          "angle-unit=deg", "--set", "pace=fast", "--prompts", answers,
                          "--goal-tolerance-mm", "50", "--goal-tolerance-deg", "5", "--json",
                          NULL);
}

static void
op_check (guint touched_trial)
{
  g_autofree char *name = g_strdup_printf ("operator-%u", touched_trial);
  g_autofree char *file = g_strdup_printf ("answers-%u.txt", touched_trial);
  g_autofree char *db = new_campaign (name);
  g_autofree char *track = op_track ();
  g_autoptr (GPtrArray) expect = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *answers = op_answers (file, touched_trial, expect);
  g_autofree char *out = op_run (db, track, answers, 0, NULL);
  g_autofree char *info = nb_test_cli_run (NULL, 0, NULL, "campaign", "info", "--db", db,
                                           "--json", NULL);
  g_autoptr (GPtrArray) parsers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) lines = run_lines (out, 12, parsers);
  g_autoptr (JsonParser) pi = json_parser_new ();
  JsonArray *events = json_object_get_array_member (nb_test_parse_object (pi, info), "events");
  JsonObject *fig = json_object_get_object_member (g_ptr_array_index (lines, 12), "figures");
  guint asked = 0, answer_line = 1;

  for (guint k = 0; k < 6; k++)
    {
      JsonObject *ev = g_ptr_array_index (lines, 2 * k + 1);
      JsonObject *at = json_object_get_object_member (ev, "attained");
      gboolean touched = k + 1 == touched_trial;

      g_assert_cmpstr (json_object_get_string_member (ev, "kind"), ==,
                       k < 3 ? "baseline" : "obstacle");
      g_assert_cmpstr (json_object_get_string_member (ev, "outcome"), ==,
                       touched ? "failed" : "ok");
      /* From leaving P0 (50 mm) to the first sample at rest: the played
       * drive, to a sample. */
      nb_assert_abs (json_object_get_double_member (ev, "time_s"), op_travel_s[k],
                     1.5 / OP_RATE_HZ, "trial time from the stream");
      nb_assert_abs (json_object_get_double_member (at, "x_mm"), op_rest[k][0], 1e-3, "x");
      nb_assert_abs (json_object_get_double_member (at, "y_mm"), op_rest[k][1], 1e-3, "y");
      nb_assert_abs (json_object_get_double_member (at, "theta_deg"), op_rest[k][2], 1e-3, "θ");
      if (k >= 3)
        {
          /* At P1 the bow's top: 450 mm + half the rest's offset, less the
           * robot's half width (225 mm) and the cylinder's radius (35 mm). */
          double clearance = OP_BULGE_MM + op_rest[k][1] / 2.0 - 225.0 - 35.0;

          nb_assert_abs (json_object_get_double_member (ev, "clearance_mm"), clearance, 0.5,
                         "clearance round the cylinder");
          if (touched)
            g_assert_nonnull (strstr (json_object_get_string_member (ev, "reason"),
                                      "touched the obstacle (the operator saw it"));
        }
      else
        g_assert_true (json_object_get_null_member (ev, "clearance_mm"));   /* nothing near */
    }
  nb_assert_abs (json_object_get_double_member (fig, "t0_s"), 1.5, 1.5 / OP_RATE_HZ, "T0");
  g_assert_cmpint (json_object_get_boolean_member (fig, "passed"), ==, touched_trial == 0);
  if (touched_trial == 0)
    {
      nb_assert_abs (json_object_get_double_member (fig, "t1_s"), 2.0, 1.5 / OP_RATE_HZ, "T1");
      nb_assert_abs (json_object_get_double_member (fig, "delay_ratio"), 2.0 / 1.5, 0.03,
                     "T1/T0");
    }

  /* Every prompt in the log, in order: the question, the answer of the
   * file's line, who (the file and line) and when. */
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      g_autofree char *who = NULL;

      if (g_strcmp0 (json_object_get_string_member (e, "what"), "operator prompt") != 0)
        continue;
      g_assert_cmpuint (asked, <, expect->len / 2);
      answer_line++;          /* the file's first line is a comment */
      who = g_strdup_printf ("operator (%s:%u)", answers, answer_line);
      g_assert_true (g_str_has_prefix (json_object_get_string_member (e, "subject"),
                                       g_ptr_array_index (expect, 2 * asked)));
      g_assert_cmpstr (json_object_get_string_member (e, "new"), ==,
                       g_ptr_array_index (expect, 2 * asked + 1));
      g_assert_cmpstr (json_object_get_string_member (e, "who"), ==, who);
      g_assert_cmpuint (strlen (json_object_get_string_member (e, "time")), >, 0);
      if (strstr (json_object_get_string_member (e, "subject"), "touch") != NULL)
        /* The measured clearance proposes "no" on every trial. */
        g_assert_cmpstr (json_object_get_string_member (e, "old"), ==, "no");
      asked++;
    }
  /* 6 at P0, 1 placed, 3 contacts (the obstacle trials only). */
  g_assert_cmpuint (asked, ==, 10);
  g_assert_cmpuint (asked, ==, expect->len / 2);
}


/* Clause 6 with an operator-driven robot: the operator brings it to P0
 * (asked once), places each obstacle and reads the robot's report (asked
 * per placement); the stored placements are the answers.  Without
 * --prompts and no terminal it is refused before anything is asked. */
static void
test_operator_detection (void)
{
  g_autofree char *db = new_campaign ("operator-6");
  g_autofree char *track = op_track ();
  g_autofree char *answers = g_build_filename (tmpdir, "answers-6.txt", NULL);
  g_autofree char *out = NULL, *err = NULL, *info = NULL;
  g_autoptr (GString) text = g_string_new ("yes\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) pi = json_parser_new ();
  g_autofree char *csv = NULL;
  g_auto (GStrv) rows = NULL;
  JsonArray *events;
  guint asked = 0;

  for (guint k = 0; k < 16; k++)
    g_string_append_printf (text, "yes\n%s\n", k == 5 ? "no" : k % 2 ? "301.5" : "1990");
  g_assert_true (g_file_set_contents (answers, text->str, -1, &error));
#define OP6_ARGS "campaign", "run", "--db", db, "--clause", "6", "--config", "wall", \
    "--obstacle", "wooden wall", "--min-range-mm", "300", "--max-range-mm", "2000", "--robot", \
    "operator", "--instrument", "csv", "--url", track, "--set", "t=t_s", "--set", "x=x_mm", \
    "--set", "y=y_mm", "--set", "unit=mm", "--set", "pace=fast"
  out = nb_test_cli_run (NULL, 2, &err, OP6_ARGS, NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "clause 6 asks the operator to bring the robot to P0"));
  g_clear_pointer (&out, g_free);
  out = nb_test_cli_run (NULL, 0, NULL, OP6_ARGS, "--prompts", answers, NULL);
#undef OP6_ARGS
  /* The placements as exported: config, obstacle, angle, range, true, measured, detected. */
  csv = nb_test_cli_run (NULL, 0, NULL, "export", "--db", db, "--trials", "6", "--config", "wall",
                         "--format", "csv", NULL);
  rows = g_strsplit (csv, "\n", -1);
  g_assert_cmpuint (g_strv_length (rows), ==, 1 + 16 + 1);
  for (guint k = 0; k < 16; k++)
    {
      g_autofree char *want = k == 5
        ? g_strdup_printf ("\"wall\",\"wooden wall\",%u,\"min\",300,,\"0\"", 45 * (k / 2))
        : g_strdup_printf ("\"wall\",\"wooden wall\",%u,\"%s\",%s,%s,\"1\"", 45 * (k / 2),
                           k % 2 ? "min" : "max", k % 2 ? "300" : "2000",
                           k % 2 ? "301.5" : "1990");

      g_assert_cmpstr (rows[1 + k], ==, want);
    }
  info = nb_test_cli_run (NULL, 0, NULL, "campaign", "info", "--db", db, "--json", NULL);
  events = json_object_get_array_member (nb_test_parse_object (pi, info), "events");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      g_autofree char *who = NULL;

      if (g_strcmp0 (json_object_get_string_member (e, "what"), "operator prompt") != 0)
        continue;
      who = g_strdup_printf ("operator (%s:%u)", answers, asked + 1);
      g_assert_cmpstr (json_object_get_string_member (e, "who"), ==, who);
      if (asked == 0)
        g_assert_true (g_str_has_prefix (json_object_get_string_member (e, "subject"),
                                         "Clause 6 'wall': bring the robot to P0"));
      asked++;
    }
  g_assert_cmpuint (asked, ==, 1 + 2 * 16);
}

static void
test_operator_prompts_file (void)
{
  g_autofree char *db = new_campaign ("operator-short");
  /* The short run recorded its baseline trials: the bad one starts afresh. */
  g_autofree char *db2 = new_campaign ("operator-bad");
  g_autofree char *track = op_track ();
  g_autofree char *short_answers = g_build_filename (tmpdir, "short.txt", NULL);
  g_autofree char *bad = g_build_filename (tmpdir, "bad.txt", NULL);
  g_autofree char *err = NULL, *err2 = NULL, *out = NULL, *out2 = NULL;
  g_autoptr (GError) error = NULL;

  op_check (0);         /* passed: T1/T0 from the played drives */
  op_check (5);         /* the operator saw trial 5 touch, the measurement did not */

  /* Nothing is assumed: a file that runs out stops the run naming the
   * prompt; a judgement that is not yes or no names the file's line. */
  g_assert_true (g_file_set_contents (short_answers, "yes\nyes\nyes\nyes\nyes\n", -1,
                                      &error));
  out = op_run (db, track, short_answers, 2, &err);
  g_assert_nonnull (strstr (err, "short.txt: no answer for prompt 6 ('Trial 4: did the robot "
                                 "touch the obstacle?"));
  g_assert_true (g_file_set_contents (bad, "yes\nyes\nyes\nyes\n\n# seen\nyes\nmaybe\n",
                                      -1, &error));
  out2 = op_run (db2, track, bad, 2, &err2);
  g_assert_nonnull (strstr (err2, "bad.txt:8: 'maybe' is not yes or no (prompt 'Trial 4: did "
                                  "the robot touch the obstacle?"));
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
  g_test_add_func ("/runner-courses-cli/operator-prompts-file", test_operator_prompts_file);
  g_test_add_func ("/runner-courses-cli/operator-detection", test_operator_detection);
  rc = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return rc;
}
