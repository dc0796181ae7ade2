/* `compute <clause>` at the library: nb_clause_compute_csv () of the clause
 * modules (protocols/clauses/), which the CLI only prints.  Hand-worked
 * tables (written here so each test can perturb one value and see the
 * figure move), the first bad row named FILE:LINE, and the budget only
 * when a setup is given. */
#include "nb-clause.h"
#include "nb-error.h"
#include "nb-measurements.h"
#include "nb-test.h"

#include <string.h>

typedef struct {
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->dir = g_dir_make_tmp ("nb-clause-compute-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  nb_test_remove_tree (f->dir);
  g_free (f->dir);
}

/* A table in the fixture's directory (new path). */
static char *
table (Fixture *f, const char *name, const char *text)
{
  char *path = g_build_filename (f->dir, name, NULL);

  nb_test_write_file (path, text);
  return path;
}

/* Clause 5's figures of three poses against the command pose (0, 0, 0°);
 * from 5.2 by hand: x̄ = 3, ȳ = 2, Ap = √13, ō = Ao = 2°, S_o = 1°,
 * Ro = 3 S_o; l_j = |(x_j, y_j) − (x̄, ȳ)|, Rp = l̄ + 3 S_l. */
static gboolean
pose (Fixture *f, const char *text, NbClauseCsvFigures *out, GError **error)
{
  g_autofree char *path = table (f, "pose.csv", text);
  NbClauseCsv in = { .input = path, .command = { 0, 0, 0 } };

  return nb_clause_compute_csv (nb_clause_get (5), &in, out, error);
}

static void
test_pose (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  NbClauseCsvFigures out;
  const double l[] = { sqrt (2.0), sqrt (2.0), 2.0 };
  double l_mean = (l[0] + l[1] + l[2]) / 3.0, s_l = 0.0;

  for (guint i = 0; i < 3; i++)
    s_l += (l[i] - l_mean) * (l[i] - l_mean) / 2.0;
  s_l = sqrt (s_l);

  g_assert_true (pose (f, "x_mm,y_mm,theta_deg\n2,1,1\n4,1,3\n3,4,2\n", &out, &error));
  g_assert_no_error (error);
  g_assert_true (out.clause == nb_clause_get (5));
  nb_assert_abs (out.pose.n, 3, 0, "n");
  nb_assert_rel (out.pose.barycentre_x_mm, 3.0, 1e-15, "x̄");
  nb_assert_rel (out.pose.barycentre_y_mm, 2.0, 1e-15, "ȳ");
  nb_assert_rel (out.pose.ap_mm, sqrt (13.0), 1e-14, "Ap");
  nb_assert_rel (out.pose.ao_deg, 2.0, 1e-14, "Ao");
  nb_assert_rel (out.pose.s_o_deg, 1.0, 1e-14, "S_o");
  nb_assert_rel (out.pose.ro_deg, 3.0, 1e-14, "Ro");
  nb_assert_rel (out.pose.l_mean_mm, l_mean, 1e-14, "l̄");
  nb_assert_rel (out.pose.s_l_mm, s_l, 1e-13, "S_l");
  nb_assert_rel (out.pose.rp_mm, l_mean + 3.0 * s_l, 1e-14, "Rp");
  g_assert_null (out.budget);
  nb_clause_csv_figures_clear (&out);

  /* The third pose 3 mm further in x: x̄ = 4, Ap = √20; headings as before. */
  g_assert_true (pose (f, "x_mm,y_mm,theta_deg\n2,1,1\n4,1,3\n6,4,2\n", &out, &error));
  nb_assert_rel (out.pose.barycentre_x_mm, 4.0, 1e-15, "x̄ moved");
  nb_assert_rel (out.pose.ap_mm, sqrt (20.0), 1e-14, "Ap moved");
  nb_assert_rel (out.pose.ao_deg, 2.0, 1e-14, "Ao unmoved");
  nb_clause_csv_figures_clear (&out);

  /* The first bad row stops it, named by file and line; nothing is left. */
  g_assert_false (pose (f, "x_mm,y_mm,theta_deg\n2,1,1\n4,five,3\n3,4,2\n", &out, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_true (g_str_has_suffix (error->message,
                                   "pose.csv:3: column 'y_mm': 'five' is not a finite number"));
  g_assert_null (out.budget);
  g_clear_error (&error);
  /* One pose has no repeatability (5.2 needs two). */
  g_assert_false (pose (f, "x_mm,y_mm,theta_deg\n2,1,1\n", &out, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_true (g_str_has_suffix (
    error->message, "pose.csv:2: 1 attained pose: pose repeatability needs at least 2 (5.2.2)"));
}

/* Clause 8 on P0 (0, 0) → P1 (1000, 0): the lateral is y; d_A = −7 (the
 * signed largest), d_B = 3, d_C = −1. */
static const char path_text[] =
  "trial,t_s,x_mm,y_mm\n"
  "A,0,100,5\nA,1,200,-7\nA,2,300,6\n"
  "B,0,500,3\nB,1,600,2\n"
  "C,0,900,-1\nC,1,1200,-40\n";    /* past P1: not on the segment, not counted */

static void
test_path (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = table (f, "path.csv", path_text);
  g_autofree char *moved = NULL;
  NbClauseCsv in = { .input = path };
  NbClauseCsvFigures out;
  const double d[] = { -7, 3, -1 };
  const char *labels[] = { "A", "B", "C" };
  double mean = -5.0 / 3.0;

  g_assert_true (nb_segment_init (&in.segment, 0, 0, 1000, 0, &error));
  g_assert_true (nb_clause_compute_csv (nb_clause_get (8), &in, &out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out.n_trials, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      nb_assert_abs (out.d_mm[i], d[i], 1e-12, "d_i");
      g_assert_cmpstr (nb_path_run_trial (out.run, i)->label, ==, labels[i]);
    }
  g_assert_cmpuint (nb_path_run_trial (out.run, 2)->acc.n_samples, ==, 2);
  g_assert_cmpuint (nb_path_run_trial (out.run, 2)->acc.n_on_segment, ==, 1);
  nb_assert_abs (out.path.n, 3, 0, "n");
  nb_assert_rel (out.path.max_mm, 7.0, 1e-12, "d = max |d_i|");
  nb_assert_rel (out.path.mean_mm, mean, 1e-12, "mean d_i");
  nb_assert_rel (out.path.mean_abs_mm, 11.0 / 3.0, 1e-12, "mean |d_i|");
  /* ((−16/3)² + (14/3)² + (2/3)²) / 2 = 228/9 */
  nb_assert_rel (out.path.std_mm, sqrt (228.0) / 3.0, 1e-12, "std d_i");
  nb_clause_csv_figures_clear (&out);

  /* B 9 mm further left: d_B = 12 is now the largest. */
  moved = g_strdup (path_text);
  memcpy (strstr (moved, "B,0,500,3"), "B,0,500,9", 9);
  g_clear_pointer (&path, g_free);
  path = table (f, "path.csv", moved);
  in.input = path;
  g_assert_true (nb_clause_compute_csv (nb_clause_get (8), &in, &out, &error));
  nb_assert_abs (out.d_mm[1], 9.0, 1e-12, "d_B moved");
  nb_assert_rel (out.path.max_mm, 9.0, 1e-12, "max moved");
  nb_clause_csv_figures_clear (&out);

  /* A trial that never reaches the segment is named with its first line. */
  g_clear_pointer (&path, g_free);
  path = table (f, "path.csv", "trial,x_mm,y_mm\nA,10,1\nB,-5,1\nB,-6,1\n");
  in.input = path;
  g_assert_false (nb_clause_compute_csv (nb_clause_get (8), &in, &out, &error));
  g_assert_true (g_str_has_suffix (
    error->message, "path.csv:3: trial 'B': none of its 2 samples projects onto the segment P0→P1"));
  g_assert_null (out.run);
}

/* Clause 6: per placement error = 100·|measured − true| / true (6.3),
 * the mean over the detected ones per obstacle and overall: wall 2 % and
 * 2 % (one missed), cylinder 1 % and 2 %; overall 1.75 %. */
static void
test_detection (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = table (f, "detection.csv",
    "obstacle,angle_deg,range,true_mm,measured_mm,detected\n"
    "Стена деревянная,0,max,1000,1020,1\nСтена деревянная,0,min,3000,2940,1\n"
    "Стена деревянная,45,max,1000,,0\nsmall cylinder,0,max,500,505,1\n"
    "small cylinder,90,min,2000,1960,1\n");
  NbClauseCsv in = { .input = path };
  NbClauseCsvFigures out;
  const NbObstacleTally *wall, *cyl;

  g_assert_true (nb_clause_compute_csv (nb_clause_get (6), &in, &out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out.placements->len, ==, 5);
  g_assert_cmpuint (out.detection.all.placements, ==, 5);
  g_assert_cmpuint (out.detection.all.detected, ==, 4);
  nb_assert_rel (nb_detection_tally_mean_error_pct (&out.detection.all), 1.75, 1e-13, "error");
  nb_assert_rel (nb_detection_tally_mean_accuracy_pct (&out.detection.all), 98.25, 1e-13,
                 "accuracy");
  g_assert_cmpuint (out.detection.obstacles->len, ==, 2);
  wall = &g_array_index (out.detection.obstacles, NbObstacleTally, 0);
  cyl = &g_array_index (out.detection.obstacles, NbObstacleTally, 1);
  g_assert_cmpstr (wall->obstacle, ==, "Стена деревянная");
  g_assert_cmpuint (wall->tally.placements, ==, 3);
  g_assert_cmpuint (wall->tally.detected, ==, 2);
  nb_assert_rel (nb_detection_tally_mean_error_pct (&wall->tally), 2.0, 1e-13, "wall");
  g_assert_cmpstr (cyl->obstacle, ==, "small cylinder");
  nb_assert_rel (nb_detection_tally_mean_error_pct (&cyl->tally), 1.5, 1e-13, "cylinder");
  nb_clause_csv_figures_clear (&out);
}

/* Clauses 7 and 9: rows grouped by configuration in order of first
 * appearance; 7.3 (T0 the mean of the first three successful baselines, T1
 * the largest of the first three successful obstacle trials, passed only if
 * the first three with the obstacle succeed) and 9.3 (the mean of the first
 * five consecutive successes). */
static void
test_avoidance_passage (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *avoidance = table (f, "avoidance.csv",
    "config,kind,trial,time_s,success\n"
    "B1 wall,baseline,1,10,1\nB1 wall,baseline,2,11,1\nB1 wall,baseline,3,12,1\n"
    "B1 wall,obstacle,2,14,1\nB1 wall,obstacle,1,15,1\nB1 wall,obstacle,3,16,1\n"
    "B2 cylinder,baseline,1,10,1\nB2 cylinder,baseline,2,10,1\nB2 cylinder,baseline,3,10,1\n"
    "B2 cylinder,obstacle,1,13,1\nB2 cylinder,obstacle,2,,0\nB2 cylinder,obstacle,3,14,1\n"
    "B2 cylinder,obstacle,4,15,1\n");
  g_autofree char *passage = table (f, "passage.csv",
    "config,trial,time_s,success\n"
    "no load,1,20,1\nrated load,1,,0\nno load,2,21,1\nno load,3,22,1\nno load,4,23,1\n"
    "no load,5,24,1\nrated load,2,25,1\nrated load,3,25,1\nrated load,4,25,1\n"
    "rated load,5,25,1\n");
  NbClauseCsv in = { .input = avoidance };
  NbClauseCsvFigures out;
  const NbClauseCsvConfig *c;

  g_assert_true (nb_clause_compute_csv (nb_clause_get (7), &in, &out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out.configs->len, ==, 2);
  c = &g_array_index (out.configs, NbClauseCsvConfig, 0);
  g_assert_cmpstr (c->config, ==, "B1 wall");
  g_assert_cmpuint (c->baseline->len, ==, 3);
  g_assert_cmpuint (c->trials->len, ==, 3);
  g_assert_true (c->avoidance.passed);
  nb_assert_rel (c->avoidance.t0_s, 11.0, 1e-15, "T0");
  nb_assert_rel (c->avoidance.t1_s, 16.0, 1e-15, "T1");
  nb_assert_rel (c->avoidance.delay_ratio, 16.0 / 11.0, 1e-15, "T1/T0");
  c = &g_array_index (out.configs, NbClauseCsvConfig, 1);
  g_assert_cmpstr (c->config, ==, "B2 cylinder");
  g_assert_cmpuint (c->trials->len, ==, 4);
  g_assert_false (c->avoidance.passed);
  nb_assert_rel (c->avoidance.t1_s, 15.0, 1e-15, "T1 after a failure");
  nb_assert_rel (c->avoidance.delay_ratio, 1.5, 1e-15, "T1/T0 2");
  g_assert_null (c->budget);
  nb_clause_csv_figures_clear (&out);

  in.input = passage;
  g_assert_true (nb_clause_compute_csv (nb_clause_get (9), &in, &out, &error));
  g_assert_cmpuint (out.configs->len, ==, 2);
  c = &g_array_index (out.configs, NbClauseCsvConfig, 0);
  g_assert_cmpstr (c->config, ==, "no load");
  g_assert_true (c->passage.passed);
  nb_assert_rel (c->passage.mean_time_s, 22.0, 1e-15, "passage time");
  g_assert_cmpuint (c->passage.failed_trials, ==, 0);
  c = &g_array_index (out.configs, NbClauseCsvConfig, 1);
  g_assert_cmpstr (c->config, ==, "rated load");
  g_assert_false (c->passage.passed);
  g_assert_true (isnan (c->passage.mean_time_s));
  g_assert_cmpuint (c->passage.failed_trials, ==, 1);
  nb_clause_csv_figures_clear (&out);

  /* A clause 9 table is not clause 7's: the kind column is missing. */
  g_assert_false (nb_clause_compute_csv (nb_clause_get (7), &in, &out, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_true (strstr (error->message, "passage.csv") != NULL);
  g_assert_null (out.configs);
}

/* Clause 10: Dm of each map against the arena (10.2), the accuracy the
 * largest Dm of three consecutive maps (10.3); the maps by trial number. */
static void
test_mapping (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *truth = table (f, "truth.csv",
                                  "corner,x_mm,y_mm\n1,0,0\n2,7000,0\n3,7000,7000\n4,0,7000\n");
  /* Trial 1 shifted (3, 4): Dm 5; trial 2 two corners 10 and 30 off:
   * Dm (0 + 10 + 0 + 30) / 4 = 10; trial 3 shifted (−9, 12): Dm 15. */
  g_autofree char *map = table (f, "map.csv",
    "trial,corner,x_mm,y_mm\n"
    "3,1,-9,12\n3,2,6991,12\n3,3,6991,7012\n3,4,-9,7012\n"
    "1,1,3,4\n1,2,7003,4\n1,3,7003,7004\n1,4,3,7004\n"
    "2,1,0,0\n2,2,7010,0\n2,3,7000,7000\n2,4,0,6970\n");
  NbClauseCsv in = { .truth = truth, .map = map };
  NbClauseCsvFigures out;
  const double dm[] = { 5, 10, 15 };

  g_assert_true (nb_clause_compute_csv (nb_clause_get (10), &in, &out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out.n_trials, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpuint (g_array_index (out.maps, NbMapCorners, i).trial, ==, i + 1);
      nb_assert_rel (out.dm_mm[i], dm[i], 1e-15, "Dm");
    }
  nb_assert_abs (out.heading_deg[0], 0.0, 1e-12, "a shifted map is not turned");
  nb_assert_rel (out.accuracy_mm, 15.0, 1e-15, "accuracy");
  nb_clause_csv_figures_clear (&out);

  /* Two maps: no three consecutive ones, no accuracy (10.3). */
  g_clear_pointer (&map, g_free);
  map = table (f, "map.csv", "trial,corner,x_mm,y_mm\n"
                             "1,1,3,4\n1,2,7003,4\n1,3,7003,7004\n1,4,3,7004\n"
                             "2,1,6,8\n2,2,7006,8\n2,3,7006,7008\n2,4,6,7008\n");
  in.map = map;
  g_assert_true (nb_clause_compute_csv (nb_clause_get (10), &in, &out, &error));
  nb_assert_rel (out.dm_mm[1], 10.0, 1e-15, "Dm 2");
  g_assert_true (isnan (out.accuracy_mm));
  nb_clause_csv_figures_clear (&out);
}

/* The budget is computed when, and only when, a setup is given; the same
 * seed gives the same JSON, and that JSON carries the figures' budget. */
static void
test_budget (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = table (f, "pose.csv", "x_mm,y_mm,theta_deg\n2,1,1\n4,1,3\n3,4,2\n");
  g_autofree char *a = NULL, *b = NULL, *plain = NULL;
  NbUncSetup setup;
  NbClauseCsv in = { .input = path, .setup = &setup, .seed = 7 };
  NbClauseCsvFigures out;

  nb_unc_setup_init (&setup);
  setup.lin_const_mm = 0.5;
  setup.ang_deg = 0.1;
  g_assert_true (nb_clause_compute_csv (nb_clause_get (5), &in, &out, &error));
  g_assert_no_error (error);
  g_assert_nonnull (out.budget);
  a = nb_clause_csv_json (&out);
  nb_clause_csv_figures_clear (&out);
  g_assert_true (nb_clause_compute_csv (nb_clause_get (5), &in, &out, &error));
  b = nb_clause_csv_json (&out);
  nb_clause_csv_figures_clear (&out);
  g_assert_cmpstr (a, ==, b);
  g_assert_nonnull (strstr (a, "\"uncertainty\""));
  g_assert_nonnull (strstr (a, "\"ap_mm\""));

  in.setup = NULL;
  g_assert_true (nb_clause_compute_csv (nb_clause_get (5), &in, &out, &error));
  g_assert_null (out.budget);
  plain = nb_clause_csv_json (&out);
  nb_clause_csv_figures_clear (&out);
  g_assert_null (strstr (plain, "\"uncertainty\""));
  g_assert_nonnull (strstr (plain, "\"ap_mm\": 3.605551275463989"));
}

/* Every clause of the registry has a measurement table. */
static void
test_registry (void)
{
  guint n;
  const NbClause *const *all = nb_clause_registry (&n);

  g_assert_cmpuint (n, ==, 6);
  for (guint i = 0; i < n; i++)
    {
      g_assert_nonnull (all[i]->compute_csv);
      g_assert_nonnull (all[i]->csv_json);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(name, fn) \
  g_test_add ("/clause-compute/" name, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("pose", test_pose);
  ADD ("detection", test_detection);
  ADD ("path", test_path);
  ADD ("avoidance-passage", test_avoidance_passage);
  ADD ("mapping", test_mapping);
  ADD ("budget", test_budget);
#undef ADD
  g_test_add_func ("/clause-compute/registry", test_registry);
  return g_test_run ();
}
