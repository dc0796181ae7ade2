/* navbench-cli campaign run end to end: one JSON line per event, the final
 * figures equal to those `campaign results` and `report --format json` give
 * for the run campaign, and bad input refused with exit 2 and a clear
 * message. */
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-tmp.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static char *tmpdir;

static char *
new_campaign (const char *name, gboolean with_width)
{
  char *db = g_strdup_printf ("%s/%s.nbc", tmpdir, name);
  g_autofree char *a = nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name",
                                        name, NULL);

  if (with_width)
    {
      g_autofree char *b = nb_test_cli_run (NULL, 0, NULL, "campaign", "set", "--db", db,
                                            "robot.width_mm=600", NULL);
    }
  return db;
}

/* The run's lines; the last one's figures object (owned by parsers). */
static JsonObject *
run_lines (const char *out, guint expect_events, GPtrArray *parsers)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  guint n = g_strv_length (lines);
  JsonObject *last = NULL;

  /* n events, the figures line, and the empty string after the last \n. */
  g_assert_cmpuint (n, ==, expect_events + 2);
  g_assert_cmpstr (lines[n - 1], ==, "");
  for (guint i = 0; i + 1 < n; i++)
    {
      JsonParser *p = json_parser_new ();
      JsonObject *o;

      g_ptr_array_add (parsers, p);
      o = nb_test_parse_object (p, lines[i]);
      if (i + 2 < n)
        {
          g_assert_cmpstr (json_object_get_string_member (o, "event"), ==,
                           i % 2 ? "trial-ended" : "trial-started");
          g_assert_cmpint (json_object_get_int_member (o, "trial"), ==, i / 2 + 1);
        }
      last = o;
    }
  g_assert_cmpstr (json_object_get_string_member (last, "event"), ==, "figures");
  return json_object_get_object_member (last, "figures");
}

/* The first row of the protocol's tables that has key. */
static double
report_value (JsonObject *report, const char *key)
{
  JsonArray *blocks = json_object_get_array_member (report, "blocks");

  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonObject *b = json_array_get_object_element (blocks, i);
      JsonArray *rows;

      if (!json_object_has_member (b, "table"))
        continue;
      rows = json_object_get_array_member (json_object_get_object_member (b, "table"), "rows");
      if (json_array_get_length (rows) > 0 &&
          json_object_has_member (json_array_get_object_element (rows, 0), key))
        return json_object_get_double_member (json_array_get_object_element (rows, 0), key);
    }
  g_error ("the report has no row with '%s'", key);
  return 0;
}

static void
test_run_and_results_agree (void)
{
  g_autofree char *db = new_campaign ("agree", TRUE);
  g_autofree char *out5 = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db,
                                           "--clause", "5", "--config", "pose", "--seed", "3",
                                           "--json", NULL);
  g_autofree char *out8 = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db,
                                           "--clause", "8", "--config", "path", "--trials", "6",
                                           "--seed", "4", "--json", NULL);
  g_autofree char *results = nb_test_cli_run (NULL, 0, NULL, "campaign", "results", "--db", db,
                                              "--json", NULL);
  g_autofree char *report = nb_test_cli_run (NULL, 0, NULL, "report", "--db", db, "--format",
                                             "json", NULL);
  g_autoptr (GPtrArray) parsers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (JsonParser) pr = json_parser_new (), pc = json_parser_new ();
  JsonObject *f5 = run_lines (out5, 60, parsers), *f8 = run_lines (out8, 12, parsers);
  JsonObject *clauses = json_object_get_object_member (nb_test_parse_object (pc, results), "clauses");
  JsonObject *r5 = json_array_get_object_element (json_object_get_array_member (clauses, "5"), 0);
  JsonObject *r8 = json_array_get_object_element (json_object_get_array_member (clauses, "8"), 0);
  JsonObject *doc = nb_test_parse_object (pr, report);
  const char *keys5[] = { "ap_mm", "ao_deg", "rp_mm", "ro_deg", "barycentre_x_mm", "s_l_mm" };
  const char *keys8[] = { "max_mm", "mean_mm", "mean_abs_mm", "std_mm" };
  JsonArray *d_run = json_object_get_array_member (f8, "deviations_mm");
  JsonArray *d_res = json_object_get_array_member (r8, "deviations_mm");

  g_assert_cmpint (json_object_get_int_member (f5, "n"), ==, 30);
  g_assert_cmpint (json_object_get_int_member (r5, "n"), ==, 30);
  g_assert_cmpstr (json_object_get_string_member (r5, "config"), ==, "pose");
  /* The same doubles: shortest round-trip text of the same computation. */
  for (guint i = 0; i < G_N_ELEMENTS (keys5); i++)
    g_assert_true (json_object_get_double_member (f5, keys5[i]) ==
                   json_object_get_double_member (r5, keys5[i]));
  for (guint i = 0; i < 4; i++)
    nb_assert_rel (report_value (doc, keys5[i]), json_object_get_double_member (f5, keys5[i]),
                   1e-15, keys5[i]);
  /* The base's model: Ap ≈ √13 mm (tests/test-sim-base.c). */
  nb_assert_abs (json_object_get_double_member (f5, "ap_mm"), sqrt (13.0), 0.7, "Ap");

  g_assert_cmpint (json_object_get_int_member (f8, "n"), ==, 6);
  g_assert_cmpuint (json_array_get_length (d_run), ==, 6);
  for (guint i = 0; i < 6; i++)
    g_assert_true (json_array_get_double_element (d_run, i) ==
                   json_array_get_double_element (d_res, i));
  for (guint i = 0; i < G_N_ELEMENTS (keys8); i++)
    g_assert_true (json_object_get_double_member (f8, keys8[i]) ==
                   json_object_get_double_member (r8, keys8[i]));
  for (guint i = 0; i < 3; i++)
    nb_assert_rel (report_value (doc, keys8[i]), json_object_get_double_member (f8, keys8[i]),
                   1e-15, keys8[i]);
  /* Each trial-ended line's d_mm is the figures' deviation of that trial. */
  {
    g_auto (GStrv) lines = g_strsplit (out8, "\n", -1);

    for (guint k = 0; k < 6; k++)
      {
        g_autoptr (JsonParser) p = json_parser_new ();
        JsonObject *o = nb_test_parse_object (p, lines[2 * k + 1]);

        g_assert_true (json_object_get_double_member (o, "d_mm") ==
                       json_array_get_double_element (d_res, k));
        g_assert_cmpint (json_object_get_int_member (o, "samples"), >=, 249);
      }
  }
}

static void
test_text_output (void)
{
  g_autofree char *db = new_campaign ("text", TRUE);
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db,
                                          "--clause", "5", "--config", "rect", "--route",
                                          "rectangular", "--load-kg", "20", "--trials", "3",
                                          NULL);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

  /* 6 event lines, the heading and the figures. */
  g_assert_cmpuint (g_strv_length (lines), ==, 9);
  g_assert_true (g_str_has_prefix (lines[0], "trial 1/3 started (seq 1)"));
  g_assert_true (g_str_has_prefix (lines[1], "trial 1/3 ok: attained "));
  g_assert_nonnull (strstr (lines[1], "need at least 2 attained poses"));
  g_assert_nonnull (strstr (lines[5], "n 3  Ap "));
  g_assert_cmpstr (lines[6], ==, "Clause 5 — Pose accuracy and pose repeatability, config "
                                 "'rect': 3 run (3 ok, 0 failed, 0 aborted)");
}

static void
test_bad_input (void)
{
  g_autofree char *db = new_campaign ("bad", TRUE);
  g_autofree char *nolu = new_campaign ("nolu", FALSE);
  g_autofree char *first = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db,
                                            "--clause", "5", "--config", "c", "--trials", "2",
                                            NULL);
  struct { const char *args[12]; const char *says; } cases[] = {
    { { "--db", db, "--clause", "10", "--config", "c", "--route", "straight" },
      "clause 10 lays out its own course (10.2: the 7 LU arena), it takes no route" },
    { { "--db", db, "--clause", "11", "--config", "c" }, "clause 11 is not a test clause" },
    { { "--db", db, "--clause", "5" }, "--db F, and --all or --clause N --config NAME, are required" },
    { { "--db", nolu, "--clause", "5", "--config", "c" }, "robot.width_mm is not set" },
    { { "--db", db, "--clause", "5", "--config", "c", "--route", "zigzag" },
      "route 'zigzag': straight, rectangular or combined" },
    { { "--db", db, "--clause", "5", "--config", "c", "--route", "combined" },
      "configuration 'c' has route straight, not combined" },
    { { "--db", db, "--clause", "5", "--config", "c", "--robot", "iiwa" },
      "--robot 'iiwa': sim-base" },
    { { "--db", db, "--clause", "5", "--config", "c", "--load-kg", "heavy" }, "load-kg" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL, *out = NULL;
      const char **a = cases[i].args;

      out = nb_test_cli_run (NULL, 2, &err, "campaign", "run", a[0], a[1], a[2], a[3], a[4], a[5],
                             a[6], a[7], a[8], NULL);
      g_assert_cmpstr (out, ==, "");
      if (strstr (err, cases[i].says) == NULL || !g_str_has_prefix (err, "navbench-cli: "))
        g_error ("case %u: '%s' does not say '%s'", i, err, cases[i].says);
    }
}

/* A recorded session of an operator-driven robot, as an instrument
 * exported it: rests at P0, drives to a rest near P1 (5 LU = 2500 mm
 * ahead, LU 500 mm), back; 50 Hz. */
static const double session_rests[][3] = { { 2497.3, 2.1, 0.4 }, { 2501.2, -1.7, -0.3 },
                                           { 2499.0, 0.6, 0.1 } };

static void
session_add (GString *out, double *t, double dur, const double from[3], const double to[3],
             double bulge)
{
  guint n = (guint) lround (dur * 50.0);

  for (guint i = 0; i < n; i++)
    {
      double u = (double) i / n;
      char b[4][G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (out, "%s,%s,%s,%s\n", g_ascii_dtostr (b[0], sizeof b[0], *t),
                              g_ascii_dtostr (b[1], sizeof b[1], from[0] + u * (to[0] - from[0])),
                              g_ascii_dtostr (b[2], sizeof b[2], from[1] + u * (to[1] - from[1])
                                                                 + bulge * sin (G_PI * u)),
                              g_ascii_dtostr (b[3], sizeof b[3], from[2] + u * (to[2] - from[2])));
      *t += 1.0 / 50.0;
    }
}

/* campaign import --track: the trials found as a live operator run finds
 * them; the attained poses are the session's rests exactly (their settled
 * windows hold still), so the figures are nb_metrics_pose's of them. */
static void
test_import_track (void)
{
  g_autofree char *db = g_strdup_printf ("%s/track.nbc", tmpdir);
  g_autofree char *csv = g_strdup_printf ("%s/session.csv", tmpdir);
  g_autoptr (GString) text = g_string_new ("# Name: a recorded session\nt_s,x_mm,y_mm,theta_deg\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *err = NULL;
  const double p0[3] = { 0, 0, 0 };
  double t = 0.0;
  JsonObject *fig;

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name", "track",
                           "robot.width_mm=400", NULL));
  session_add (text, &t, 0.8, p0, p0, 0);
  for (guint k = 0; k < G_N_ELEMENTS (session_rests); k++)
    {
      session_add (text, &t, 0.8, p0, session_rests[k], 4.0);
      session_add (text, &t, 0.8, session_rests[k], session_rests[k], 0);
      session_add (text, &t, 0.8, session_rests[k], p0, 0);
      session_add (text, &t, 0.8, p0, p0, 0);
    }
  g_assert_true (g_file_set_contents (csv, text->str, -1, &error));
  {
    g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "import", "--db", db,
                                            "--clause", "5", "--config", "session", "--track",
                                            csv, NULL);

    g_assert_nonnull (strstr (out, "3 trials found"));
    g_assert_nonnull (strstr (out, "3 ok, 0 failed, 0 incomplete"));
  }
  {
    g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "results", "--db", db,
                                            "--json", NULL);
    JsonObject *root = nb_test_parse_object (parser, out);
    JsonArray *five = json_object_get_array_member (json_object_get_object_member (root,
                                                                                   "clauses"),
                                                    "5");

    fig = json_array_get_object_element (five, 0);
    g_assert_cmpint (json_object_get_int_member (fig, "n"), ==, 3);
    nb_assert_abs (json_object_get_double_member (fig, "barycentre_x_mm"),
                   (2497.3 + 2501.2 + 2499.0) / 3, 1e-9, "barycentre x = the rests'");
    nb_assert_abs (json_object_get_double_member (fig, "barycentre_y_mm"), (2.1 - 1.7 + 0.6) / 3,
                   1e-9, "barycentre y");
    nb_assert_abs (json_object_get_double_member (fig, "mean_theta_deg"), (0.4 - 0.3 + 0.1) / 3,
                   1e-9, "mean heading");
  }
  /* Clause 6 has no route to segment; a missing file is named. */
  g_free (nb_test_cli_run (NULL, 2, &err, "campaign", "import", "--db", db, "--clause", "6",
                           "--config", "x", "--track", csv, NULL));
  g_assert_nonnull (strstr (err, "clauses 5, 7, 8 and 9"));
  g_clear_pointer (&err, g_free);
  g_free (nb_test_cli_run (NULL, 2, &err, "campaign", "import", "--db", db, "--clause", "5",
                           "--config", "y", "--track", "/nonexistent.csv", NULL));
  g_assert_nonnull (strstr (err, "/nonexistent.csv: no such file"));
}

/* 4.5: the manufacturer declares legs (4 LU first) and clockwise routes:
 * the plan's 'combined-cw-no-load' runs clockwise with those legs — its
 * command P2 at (4, −5) LU heading −90° (LU 1000 mm), what the runner
 * stores; the default 5 LU counter-clockwise route would end at (5, 5). */
static void
test_declared_routes (void)
{
  g_autofree char *db = new_campaign ("routes", FALSE);
  g_autofree char *info = NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonObject *config;
  JsonArray *command;

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "set", "--db", db, "robot.width_mm=730",
                           "robot.route_clockwise=yes", "robot.route_leg1_lu=4", NULL));
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--clause", "5",
                           "--config", "combined-cw-no-load", "--trials", "2", NULL));
  info = nb_test_cli_run (NULL, 0, NULL, "campaign", "info", "--db", db, "--json", NULL);
  g_assert_true (json_parser_load_from_data (p, info, -1, NULL));
  config = json_array_get_object_element (json_object_get_array_member (
             json_node_get_object (json_parser_get_root (p)), "configs"), 0);
  g_assert_cmpstr (json_object_get_string_member (config, "route"), ==, "combined");
  command = json_object_get_array_member (config, "command");
  nb_assert_abs (json_array_get_double_element (command, 0), 4000.0, 1e-9, "P2 x");
  nb_assert_abs (json_array_get_double_element (command, 1), -5000.0, 1e-9, "P2 y");
  nb_assert_abs (json_array_get_double_element (command, 2), -90.0, 1e-9, "P2 heading");
  g_assert_nonnull (strstr (json_object_get_string_member (config, "parameters"),
                            "\"clockwise\": true"));
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = nb_test_make_dir ();
  g_test_add_func ("/runner-cli/run-results-report-agree", test_run_and_results_agree);
  g_test_add_func ("/runner-cli/text", test_text_output);
  g_test_add_func ("/runner-cli/bad-input", test_bad_input);
  g_test_add_func ("/runner-cli/import-track", test_import_track);
  g_test_add_func ("/runner-cli/declared-routes", test_declared_routes);
  rc = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return rc;
}
