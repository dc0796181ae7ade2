/* The grouping of rows into the figures of clauses 6 and 8
 * (protocols/nb-clause-results.c), shared by compute and campaign results;
 * hand-worked values. */
#include "nb-clause-results.h"
#include "nb-error.h"
#include "nb-test.h"

#include <string.h>

static void
test_path_run (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbPathRun) run = NULL;
  g_autofree double *d = NULL;
  NbSegment segment;
  NbPathResult res;

  g_assert_true (nb_segment_init (&segment, 0, 0, 1000, 0, &error));
  run = nb_path_run_new (&segment);
  /* Trial a, then b, then a again: a's samples join the one trial. */
  nb_path_run_push (run, "a", TRUE, 2, 100, 5);
  nb_path_run_push (run, "a", FALSE, 3, 200, -7);
  nb_path_run_push (run, "b", TRUE, 4, 500, 3);
  nb_path_run_push (run, "a", TRUE, 5, 300, 6);
  g_assert_cmpuint (nb_path_run_n_trials (run), ==, 2);
  g_assert_cmpuint (nb_path_run_samples (run), ==, 4);
  g_assert_cmpstr (nb_path_run_trial (run, 0)->label, ==, "a");
  g_assert_cmpuint (nb_path_run_trial (run, 0)->first_line, ==, 2);
  g_assert_cmpuint (nb_path_run_trial (run, 0)->acc.n_samples, ==, 3);
  d = nb_path_run_finish (run, "F.csv", &res, &error);
  g_assert_no_error (error);
  /* d_a = −7 (largest magnitude, signed), d_b = 3. */
  nb_assert_abs (d[0], -7.0, 1e-12, "d_a");
  nb_assert_abs (d[1], 3.0, 1e-12, "d_b");
  nb_assert_abs (res.max_mm, 7.0, 1e-12, "max |d_i|");
  nb_assert_abs (res.mean_mm, -2.0, 1e-12, "mean d_i");
  nb_assert_abs (res.mean_abs_mm, 5.0, 1e-12, "mean |d_i|");
  /* ((−7 + 2)² + (3 + 2)²) / 1 = 50 */
  nb_assert_rel (res.std_mm, sqrt (50.0), 1e-12, "std d_i");

  /* A trial that never reaches the segment is named, with its line. */
  nb_path_run_push (run, "c", TRUE, 9, 1500, 2);
  g_clear_pointer (&d, g_free);
  d = nb_path_run_finish (run, "F.csv", &res, &error);
  g_assert_null (d);
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_cmpstr (error->message, ==,
                   "F.csv:9: trial 'c': none of its 1 samples projects onto the segment P0→P1");
  g_clear_error (&error);
  d = nb_path_run_finish (run, NULL, &res, &error);
  g_assert_cmpstr (error->message, ==,
                   "trial 'c': none of its 1 samples projects onto the segment P0→P1");
}

static void
test_detection_result (void)
{
  NbDetectionResult r;
  const NbObstacleTally *box, *cyl;

  nb_detection_result_init (&r);
  nb_detection_result_add (&r, "box", 300.0, TRUE, 306.0);      /* 2 % */
  nb_detection_result_add (&r, "cylinder", 300.0, FALSE, NAN);
  nb_detection_result_add (&r, "box", 2000.0, TRUE, 1940.0);    /* 3 % */
  g_assert_cmpuint (r.obstacles->len, ==, 2);
  box = &g_array_index (r.obstacles, NbObstacleTally, 0);
  cyl = &g_array_index (r.obstacles, NbObstacleTally, 1);
  g_assert_cmpstr (box->obstacle, ==, "box");
  g_assert_cmpstr (cyl->obstacle, ==, "cylinder");
  g_assert_cmpuint (box->tally.placements, ==, 2);
  g_assert_cmpuint (box->tally.detected, ==, 2);
  nb_assert_rel (nb_detection_tally_mean_error_pct (&box->tally), 2.5, 1e-12, "box error");
  g_assert_cmpuint (cyl->tally.detected, ==, 0);
  g_assert_true (isnan (nb_detection_tally_mean_accuracy_pct (&cyl->tally)));
  g_assert_cmpuint (r.all.placements, ==, 3);
  nb_assert_rel (nb_detection_tally_mean_accuracy_pct (&r.all), 97.5, 1e-12, "all accuracy");
  nb_detection_result_clear (&r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/clause-results/path-run", test_path_run);
  g_test_add_func ("/clause-results/detection", test_detection_result);
  return g_test_run ();
}
