/* navbench-cli end to end: every subcommand on the files in tests/data/cli,
 * its JSON checked against reference values; bad inputs exit 2 with
 * "navbench-cli: FILE:LINE: reason" and print nothing on stdout; the human
 * table of `compute pose` matches a golden file (NB_REBUILD_GOLDEN=1
 * rewrites it when a change is intended). */
#include "nb-test.h"
#include "nb-test-cli.h"

#include <json-glib/json-glib.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <string.h>

typedef NbTestRun Run;

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, nb_test_run_clear)

static Run
cli (const char *first, ...)
{
  /* In tests/data/cli, where the files are. */
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "data", "cli", NULL);
  va_list ap;
  Run run;

  va_start (ap, first);
  run = nb_test_cli_spawnv (dir, first, ap);
  va_end (ap);
  return run;
}

static JsonObject *
parse_json (const Run *run)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  if (run->status != 0)
    g_error ("exit %d: %s", run->status, run->err);
  g_assert_true (json_parser_load_from_data (parser, run->out, -1, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static double
num (JsonObject *o, const char *key)
{
  g_assert_true (json_object_has_member (o, key));
  return json_object_get_double_member (o, key);
}

static void
test_lu_route (void)
{
  g_auto (Run) r1 = cli ("lu", "--width-mm", "730", "--json", NULL);
  g_autoptr (JsonObject) o1 = parse_json (&r1);
  g_auto (Run) r2 = cli ("route", "rectangular", "--lu-mm=1000", "--cw", "--json", NULL);
  g_autoptr (JsonObject) o2 = parse_json (&r2);
  JsonArray *poses;
  const double expected[5][3] = { { 0, 0, 0 }, { 5000, 0, -90 }, { 5000, -5000, 180 },
                                  { 0, -5000, 90 }, { 0, 0, 0 } };
  const char *names[5] = { "P0", "P1", "P2", "P3", "P0" };

  nb_assert_abs (num (o1, "width_mm"), 730, 0, "width_mm");
  nb_assert_abs (num (o1, "lu_mm"), 1000, 0, "lu_mm");

  g_assert_cmpstr (json_object_get_string_member (o2, "route"), ==, "rectangular");
  poses = json_object_get_array_member (o2, "poses");
  g_assert_cmpuint (json_array_get_length (poses), ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      JsonObject *p = json_array_get_object_element (poses, i);

      g_assert_cmpstr (json_object_get_string_member (p, "name"), ==, names[i]);
      nb_assert_abs (num (p, "x_mm"), expected[i][0], 0, "x_mm");
      nb_assert_abs (num (p, "y_mm"), expected[i][1], 0, "y_mm");
      nb_assert_abs (num (p, "theta_deg"), expected[i][2], 0, "theta_deg");
    }
  {
    g_auto (Run) r3 = cli ("route", "combined", "--lu-mm", "500", "--legs-lu", "4,2", "--json", NULL);
    g_autoptr (JsonObject) o3 = parse_json (&r3);
    JsonObject *p2 = json_array_get_object_element (json_object_get_array_member (o3, "poses"), 2);

    nb_assert_abs (num (p2, "x_mm"), 2000, 0, "combined P2 x");
    nb_assert_abs (num (p2, "y_mm"), 1000, 0, "combined P2 y");
  }
}

static void
test_pose (void)
{
  g_auto (Run) r = cli ("compute", "pose", "--input", "pose-worked.csv", "--command", "0,0,0",
                        "--json", NULL);
  g_autoptr (JsonObject) o = parse_json (&r);
  g_auto (Run) f = cli ("compute", "pose", "--input=pose-far.csv",
                        "--command=10005000,-9998000,180", "--json", NULL);
  g_autoptr (JsonObject) of = parse_json (&f);

  nb_assert_abs (num (o, "n"), 3, 0, "n");
  nb_assert_rel (num (o, "barycentre_x_mm"), 3.0, 1e-15, "x̄");
  nb_assert_rel (num (o, "barycentre_y_mm"), 2.0, 1e-15, "ȳ");
  nb_assert_rel (num (o, "ap_mm"), sqrt (13.0), 1e-14, "Ap");
  nb_assert_rel (num (o, "ao_deg"), 2.0, 1e-14, "Ao");
  nb_assert_rel (num (o, "mean_theta_deg"), 2.0, 1e-14, "ō");
  nb_assert_rel (num (o, "l_mean_mm"), 1.6094757082487299, 1e-14, "l̄");
  nb_assert_rel (num (o, "s_l_mm"), 0.3382039574515254, 1e-13, "S_l");
  nb_assert_rel (num (o, "rp_mm"), 2.624087580603306, 1e-14, "Rp");
  nb_assert_rel (num (o, "s_o_deg"), 1.0, 1e-14, "S_o");
  nb_assert_rel (num (o, "ro_deg"), 3.0, 1e-14, "Ro");

  /* 10 km from the origin, headings across ±180° (references: Python
   * math.fsum on centred values, tests/data/cli/pose-far.csv). */
  nb_assert_abs (num (of, "n"), 5, 0, "n far");
  nb_assert_rel (num (of, "ap_mm"), 0.004560701631129886, 1e-6, "Ap far");
  nb_assert_rel (num (of, "ao_deg"), 0.039999999999997725, 1e-9, "Ao far");
  nb_assert_rel (num (of, "mean_theta_deg"), -179.96, 1e-12, "ō far");
  nb_assert_rel (num (of, "rp_mm"), 0.05168920181485202, 1e-6, "Rp far");
  nb_assert_rel (num (of, "ro_deg"), 0.8642916174532786, 1e-9, "Ro far");
}

static void
test_pose_golden (void)
{
  g_auto (Run) r = cli ("compute", "pose", "--input", "pose-worked.csv", "--command", "0,0,0",
                        NULL);

  g_assert_cmpint (r.status, ==, 0);
  nb_test_assert_golden ("cli-pose.txt", r.out);
}

static void
test_path (void)
{
  g_auto (Run) r = cli ("compute", "path", "--input", "path.csv", "--from", "0,0", "--to",
                        "3000,4000", "--json", NULL);
  g_autoptr (JsonObject) o = parse_json (&r);
  JsonArray *d = json_object_get_array_member (o, "deviations_mm");
  JsonArray *names = json_object_get_array_member (o, "trials");
  const double expected[] = { -7, 9, -3 };

  nb_assert_abs (num (o, "n"), 3, 0, "n");
  nb_assert_abs (num (o, "samples"), 10, 0, "samples");
  g_assert_cmpuint (json_array_get_length (d), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      char name[2] = { (char) ('A' + i), 0 };

      /* x, y of the order of 4000 mm: the lateral carries ~5e-13 mm of rounding. */
      nb_assert_abs (json_array_get_double_element (d, i), expected[i], 1e-9, "d_i");
      g_assert_cmpstr (json_array_get_string_element (names, i), ==, name);
    }
  nb_assert_abs (num (o, "max_mm"), 9, 1e-9, "max");
  nb_assert_abs (num (o, "mean_mm"), -1.0 / 3.0, 1e-9, "mean");
  nb_assert_abs (num (o, "mean_abs_mm"), 19.0 / 3.0, 1e-9, "mean |d|");
  nb_assert_abs (num (o, "std_mm"), 8.326663997864532, 1e-9, "std");

  {
    g_auto (Run) one = cli ("compute", "path", "--input", "bad-path-off-segment.csv", "--from",
                            "0,0", "--to", "100,0", "--json", NULL);

    /* Trial 2 lies behind P0: an error naming its first line. */
    g_assert_cmpint (one.status, ==, 2);
    g_assert_nonnull (strstr (one.err, "bad-path-off-segment.csv:4: trial '2'"));
  }
}

/* The instrument's accuracy given: "uncertainty" with one member per
 * figure (#17).  d = 9 mm, far from the next |d_i| = 7: linear, so GUM is
 * validated and u = √(0.2² + (0.5/2)²) mm (the trial's random error and the
 * instrument's common offset across the segment); U = 2u rounded up to two
 * digits.  The mean of 3 trials carries the t with ν = 2: Monte Carlo. */
static void
test_path_uncertainty (void)
{
  g_auto (Run) r = cli ("compute", "path", "--input", "path.csv", "--from", "0,0", "--to",
                        "3000,4000", "--json", "--accuracy-mm", "0.5", "--random-mm", "0.2", NULL);
  g_autoptr (JsonObject) o = parse_json (&r);
  JsonObject *unc = json_object_get_object_member (o, "uncertainty");
  JsonObject *d = json_object_get_object_member (unc, "max_mm");
  JsonObject *mean = json_object_get_object_member (unc, "mean_mm");
  JsonArray *iv = json_object_get_array_member (d, "interval");

  g_assert_cmpstr (json_object_get_string_member (d, "method"), ==, "gum");
  nb_assert_abs (num (d, "k"), 2, 0, "k");
  nb_assert_abs (num (d, "u_measurement"), hypot (0.2, 0.25), 1e-12, "u(d)");
  nb_assert_abs (num (d, "u"), 0.32, 1e-12, "u to two digits");
  nb_assert_abs (num (d, "U"), 0.65, 1e-12, "U = 2u rounded up");
  nb_assert_abs (json_array_get_double_element (iv, 0), 8.35, 1e-12, "interval lo");
  nb_assert_abs (json_array_get_double_element (iv, 1), 9.65, 1e-12, "interval hi");
  g_assert_cmpstr (json_object_get_string_member (mean, "method"), ==, "monte-carlo");
  nb_assert_abs (num (mean, "u_sampling"), 8.326663997864532 / sqrt (3.0), 1e-9, "s/√n");
  g_assert_true (json_object_has_member (unc, "std_mm"));
  {
    g_auto (Run) plain = cli ("compute", "path", "--input", "path.csv", "--from", "0,0", "--to",
                              "3000,4000", "--json", NULL);
    g_autoptr (JsonObject) p = parse_json (&plain);

    /* No accuracy given: no uncertainty claimed. */
    g_assert_false (json_object_has_member (p, "uncertainty"));
  }
  {
    g_auto (Run) bad = cli ("compute", "path", "--input", "path.csv", "--from", "0,0", "--to",
                            "3000,4000", "--json", "--accuracy", "a lot", NULL);

    g_assert_cmpint (bad.status, ==, 2);
    g_assert_cmpstr (bad.out, ==, "");
    g_assert_nonnull (strstr (bad.err, "--accuracy: accuracy 'a lot'"));
  }
  {
    g_auto (Run) bad = cli ("compute", "pose", "--input", "pose-worked.csv", "--command", "0,0,0",
                            "--json", "--accuracy-mm", "-1", NULL);

    g_assert_cmpint (bad.status, ==, 2);
    g_assert_cmpstr (bad.out, ==, "");
  }
}

/* Every clause's figures get their member. */
static void
test_uncertainty_members (void)
{
  g_auto (Run) pose = cli ("compute", "pose", "--input", "pose-worked.csv", "--command", "0,0,0",
                           "--json", "--accuracy", "15 µm + 6 µm/m", "--range-m", "10",
                           "--accuracy-deg", "0.01", NULL);
  g_autoptr (JsonObject) o = parse_json (&pose);
  JsonObject *unc = json_object_get_object_member (o, "uncertainty");
  const char *keys[] = { "ap_mm", "ao_deg", "rp_mm", "ro_deg" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      JsonObject *f = json_object_get_object_member (unc, keys[i]);
      JsonArray *iv = json_object_get_array_member (f, "interval");
      double value = num (o, keys[i]);

      g_assert_nonnull (f);
      /* The stated interval holds the figure; n = 3 (ν = 2): Monte Carlo. */
      g_assert_cmpfloat (json_array_get_double_element (iv, 0), <=, value);
      g_assert_cmpfloat (json_array_get_double_element (iv, 1), >=, value);
      g_assert_cmpstr (json_object_get_string_member (f, "method"), ==, "monte-carlo");
    }
  /* The tracker's 15 µm + 6 µm/m at 10 m, k = 2: 37.5 µm per coordinate
   * along x̄ and ȳ (Ap's direction (3, 2)/√13: c = 3/√13, 2/√13). */
  nb_assert_rel (num (json_object_get_object_member (unc, "ap_mm"), "u_measurement"), 0.0375,
                 1e-3, "u_measurement(Ap)");
  {
    g_auto (Run) map = cli ("compute", "mapping", "--truth", "truth.csv", "--map", "map.csv",
                            "--json", "--accuracy-mm", "1", "--resolution-mm", "50", NULL);
    g_autoptr (JsonObject) m = parse_json (&map);
    JsonObject *mu = json_object_get_object_member (m, "uncertainty");

    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (mu, "dm_mm")), ==,
                      json_array_get_length (json_object_get_array_member (m, "trials")));
    g_assert_true (json_object_has_member (mu, "accuracy_mm"));
  }
  {
    g_auto (Run) det = cli ("compute", "detection", "--input", "detection.csv", "--json",
                            "--accuracy-mm", "1", NULL);
    g_autoptr (JsonObject) d = parse_json (&det);
    JsonObject *du = json_object_get_object_member (d, "uncertainty");

    g_assert_true (json_object_has_member (du, "mean_accuracy_pct"));
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (du, "obstacles")), ==,
                      json_array_get_length (json_object_get_array_member (d, "obstacles")));
  }
  {
    g_auto (Run) av = cli ("compute", "avoidance", "--input", "avoidance.csv", "--json",
                           "--accuracy-mm", "1", "--sample-rate-hz", "100", NULL);
    g_autoptr (JsonObject) a = parse_json (&av);
    JsonObject *c0 = json_array_get_object_element (json_object_get_array_member (a, "configs"), 0);
    JsonObject *cu = json_object_get_object_member (c0, "uncertainty");

    g_assert_true (json_object_has_member (cu, "t0_s"));
    g_assert_true (json_object_has_member (cu, "t1_s"));
    g_assert_true (json_object_has_member (cu, "delay_ratio"));
  }
}

static void
test_detection (void)
{
  g_auto (Run) r = cli ("compute", "detection", "--input", "detection.csv", "--json", NULL);
  g_autoptr (JsonObject) o = parse_json (&r);
  JsonArray *obs = json_object_get_array_member (o, "obstacles");
  JsonObject *wall, *cyl;

  nb_assert_abs (num (o, "placements"), 5, 0, "placements");
  nb_assert_abs (num (o, "detected"), 4, 0, "detected");
  nb_assert_rel (num (o, "mean_error_pct"), 1.75, 1e-13, "mean error");
  nb_assert_rel (num (o, "mean_accuracy_pct"), 98.25, 1e-13, "mean accuracy");
  g_assert_cmpuint (json_array_get_length (obs), ==, 2);
  wall = json_array_get_object_element (obs, 0);
  cyl = json_array_get_object_element (obs, 1);
  /* UTF-8 names survive byte for byte. */
  g_assert_cmpstr (json_object_get_string_member (wall, "obstacle"), ==, "Стена деревянная");
  nb_assert_abs (num (wall, "placements"), 3, 0, "wall placements");
  nb_assert_abs (num (wall, "detected"), 2, 0, "wall detected");
  nb_assert_rel (num (wall, "mean_accuracy_pct"), 98.0, 1e-13, "wall accuracy");
  g_assert_cmpstr (json_object_get_string_member (cyl, "obstacle"), ==, "small cylinder");
  nb_assert_rel (num (cyl, "mean_error_pct"), 1.5, 1e-13, "cylinder error");
}

static void
test_avoidance_passage (void)
{
  g_auto (Run) a = cli ("compute", "avoidance", "--input", "avoidance.csv", "--json", NULL);
  g_autoptr (JsonObject) oa = parse_json (&a);
  g_auto (Run) p = cli ("compute", "passage", "--input", "passage.csv", "--json", NULL);
  g_autoptr (JsonObject) op = parse_json (&p);
  JsonArray *ca = json_object_get_array_member (oa, "configs");
  JsonArray *cp = json_object_get_array_member (op, "configs");
  JsonObject *c;

  g_assert_cmpuint (json_array_get_length (ca), ==, 2);
  c = json_array_get_object_element (ca, 0);
  g_assert_cmpstr (json_object_get_string_member (c, "config"), ==, "B1 wall");
  g_assert_true (json_object_get_boolean_member (c, "passed"));
  nb_assert_rel (num (c, "t0_s"), 11, 1e-15, "T0");
  nb_assert_rel (num (c, "t1_s"), 16, 1e-15, "T1");
  nb_assert_rel (num (c, "delay_ratio"), 16.0 / 11.0, 1e-15, "delay ratio");
  c = json_array_get_object_element (ca, 1);
  g_assert_false (json_object_get_boolean_member (c, "passed"));
  nb_assert_rel (num (c, "t1_s"), 15, 1e-15, "T1 after a failure");
  nb_assert_rel (num (c, "delay_ratio"), 1.5, 1e-15, "delay ratio 2");

  c = json_array_get_object_element (cp, 0);
  g_assert_cmpstr (json_object_get_string_member (c, "config"), ==, "no load");
  g_assert_true (json_object_get_boolean_member (c, "passed"));
  nb_assert_rel (num (c, "mean_time_s"), 22, 1e-15, "passage time");
  nb_assert_abs (num (c, "failed_trials"), 0, 0, "failed 0");
  c = json_array_get_object_element (cp, 1);
  g_assert_false (json_object_get_boolean_member (c, "passed"));
  g_assert_true (json_object_get_null_member (c, "mean_time_s"));
  nb_assert_abs (num (c, "failed_trials"), 1, 0, "failed 1");
}

static void
test_mapping (void)
{
  g_auto (Run) r = cli ("compute", "mapping", "--truth", "truth.csv", "--map", "map.csv", "--json",
                        NULL);
  g_autoptr (JsonObject) o = parse_json (&r);
  JsonArray *t = json_object_get_array_member (o, "trials");
  const double dm[] = { 5, 10, 15 };

  g_assert_cmpuint (json_array_get_length (t), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      JsonObject *e = json_array_get_object_element (t, i);

      nb_assert_abs (num (e, "trial"), i + 1, 0, "trial order");
      nb_assert_rel (num (e, "dm_mm"), dm[i], 1e-15, "Dm");
    }
  nb_assert_rel (num (o, "accuracy_mm"), 15, 1e-15, "accuracy");
}

/* Bad input: exit 2, the location, nothing on stdout. */
static void
test_bad_input (void)
{
  struct { const char *args[10]; const char *message; } cases[] = {
    { { "compute", "pose", "--input", "bad-missing-column.csv", "--command", "0,0,0" },
      "navbench-cli: bad-missing-column.csv:1: missing column 'y_mm'" },
    { { "compute", "pose", "--input", "bad-not-number.csv", "--command", "0,0,0", "--json" },
      "navbench-cli: bad-not-number.csv:3: column 'y_mm': 'five' is not a finite number" },
    { { "compute", "pose", "--input", "bad-nan.csv", "--command", "0,0,0", "--json" },
      "navbench-cli: bad-nan.csv:4: column 'x_mm': 'NaN' is not a finite number" },
    { { "compute", "pose", "--input", "bad-inf.csv", "--command", "0,0,0", "--json" },
      "navbench-cli: bad-inf.csv:3: column 'theta_deg': '-inf' is not a finite number" },
    { { "compute", "pose", "--input", "bad-empty.csv", "--command", "0,0,0", "--json" },
      "navbench-cli: bad-empty.csv:1: the file is empty" },
    { { "compute", "pose", "--input", "bad-one-pose.csv", "--command", "0,0,0", "--json" },
      "navbench-cli: bad-one-pose.csv:2: 1 attained pose: pose repeatability needs at least 2" },
    { { "compute", "pose", "--input", "bad-fields.csv", "--command", "0,0,0", "--json" },
      "navbench-cli: bad-fields.csv:3: 2 fields where the header has 3" },
    { { "compute", "pose", "--input", "no-such-file.csv", "--command", "0,0,0", "--json" },
      "navbench-cli: no-such-file.csv: No such file or directory" },
    { { "compute", "pose", "--input", "pose-worked.csv", "--command", "0,0", "--json" },
      "navbench-cli: --command: expected X,Y,THETA" },
    { { "compute", "pose", "--command", "0,0,0", "--json" },
      "navbench-cli: --input F.csv is required" },
    { { "compute", "path", "--input", "path.csv", "--from", "5,5", "--to", "5,5", "--json" },
      "navbench-cli: the commanded path has zero length" },
    { { "compute", "path", "--input", "bad-path-time.csv", "--from", "0,0", "--to", "100,0" },
      "navbench-cli: bad-path-time.csv:4: trial '1': t_s goes back in time" },
    { { "compute", "detection", "--input", "bad-detection.csv", "--json" },
      "navbench-cli: bad-detection.csv:2: not detected, yet measured_mm is 990" },
    { { "compute", "avoidance", "--input", "bad-avoidance.csv", "--json" },
      "navbench-cli: bad-avoidance.csv:3: kind 'obstacel': expected baseline or obstacle" },
    { { "compute", "avoidance", "--input", "bad-avoidance-dup.csv", "--json" },
      "navbench-cli: bad-avoidance-dup.csv:3: config 'B1': baseline trial 1 is given twice (first on line 2)" },
    { { "compute", "passage", "--input", "bad-passage-time.csv", "--json" },
      "navbench-cli: bad-passage-time.csv:2: a successful trial needs a positive time_s (it is empty)" },
    { { "compute", "mapping", "--truth", "truth.csv", "--map", "bad-map-corner.csv", "--json" },
      "navbench-cli: bad-map-corner.csv:2: trial 1 gives 3 of the four map corners" },
    { { "compute", "mapping", "--truth", "passage.csv", "--map", "map.csv" },
      "navbench-cli: passage.csv:1: missing column 'corner'" },
    { { "compute", "mapping", "--truth", "map.csv", "--map", "map.csv" },
      "navbench-cli: map.csv:6: corner 1 is given twice" },
    { { "lu", "--width-mm", "-3", "--json" },
      "navbench-cli: robot width must be a positive number of millimetres, got -3" },
    { { "lu", "--width-mm", "abc" }, "navbench-cli: --width-mm: 'abc' is not a finite number" },
    { { "route", "circle", "--lu-mm", "500" }, "navbench-cli: give one route" },
    { { "compute", "pose", "--input", "pose-worked.csv", "--command", "0,0,0", "extra" },
      "navbench-cli: unexpected argument 'extra'" },
    { { "compute", "spiral" }, "navbench-cli: unknown compute command 'spiral'" },
    { { "frobnicate" }, "navbench-cli: unknown  command 'frobnicate'" },
    { { "compute", "pose", "--bogus" }, "navbench-cli: Unknown option --bogus" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char **a = cases[i].args;
      g_auto (Run) r = cli (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], NULL);

      if (r.status != 2 || strstr (r.err, cases[i].message) == NULL || r.out[0] != '\0')
        g_error ("case %u (%s %s): exit %d, stderr \"%s\", stdout \"%s\"; expected exit 2 and "
                 "\"%s\"", i, a[0], a[1] ? a[1] : "", r.status, r.err, r.out, cases[i].message);
    }
}

static void
test_human_tables (void)
{
  g_auto (Run) p = cli ("compute", "path", "--input", "path.csv", "--from", "0,0", "--to",
                        "3000,4000", NULL);
  g_auto (Run) m = cli ("compute", "mapping", "--truth", "truth.csv", "--map", "map.csv", NULL);
  g_auto (Run) v = cli ("--version", NULL);

  g_assert_cmpint (p.status, ==, 0);
  g_assert_nonnull (strstr (p.out, "ISO 18646-2 clause 8 — Path deviation (protocol table 5)"));
  g_assert_nonnull (strstr (p.out, "9.00"));
  g_assert_nonnull (strstr (p.out, "Note: 3 trials where ISO 18646-2 8.3 asks for 30."));
  g_assert_nonnull (strstr (m.out, "accuracy (max Dm)   15.00"));
  g_assert_true (g_str_has_prefix (v.out, "navbench-cli "));
}

/* Under LANG=C (ASCII on Debian) the messages and --help go out in the
 * UTF-8 they are written in, as standard output's data does: "°" stays
 * "°" (GLib's g_printerr made it "?"). */
static void
test_c_locale (void)
{
  g_autofree char *lc_all = g_strdup (g_getenv ("LC_ALL"));

  g_setenv ("LC_ALL", "C", TRUE);
  {
    g_auto (Run) bad = cli ("compute", "pose", "--input", "pose-worked.csv", "--command", "0,0",
                            NULL);
    g_auto (Run) help = cli ("compute", "pose", "--help", NULL);

    g_assert_cmpint (bad.status, ==, 2);
    g_assert_cmpstr (bad.out, ==, "");
    g_assert_cmpstr (bad.err, ==, "navbench-cli: --command: expected X,Y,THETA (mm, mm, °), "
                                  "got '0,0'\n");
    g_assert_cmpint (help.status, ==, 0);
    g_assert_true (g_str_has_prefix (help.out, "Usage:\n  navbench-cli compute pose [OPTION…]"));
    g_assert_true (g_utf8_validate (help.out, -1, NULL));
    g_assert_null (strchr (help.out, '?'));
  }
  if (lc_all != NULL)
    g_setenv ("LC_ALL", lc_all, TRUE);
  else
    g_unsetenv ("LC_ALL");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/lu-route", test_lu_route);
  g_test_add_func ("/cli/pose", test_pose);
  g_test_add_func ("/cli/pose-golden", test_pose_golden);
  g_test_add_func ("/cli/path", test_path);
  g_test_add_func ("/cli/detection", test_detection);
  g_test_add_func ("/cli/path-uncertainty", test_path_uncertainty);
  g_test_add_func ("/cli/uncertainty-members", test_uncertainty_members);
  g_test_add_func ("/cli/avoidance-passage", test_avoidance_passage);
  g_test_add_func ("/cli/mapping", test_mapping);
  g_test_add_func ("/cli/bad-input", test_bad_input);
  g_test_add_func ("/cli/human-tables", test_human_tables);
  g_test_add_func ("/cli/c-locale", test_c_locale);
  return g_test_run ();
}
