/* The simulated mobile base: its error model gives the ISO 18646-2 figures
 * it was built for (clause 5 on attained poses, clause 8 on its ground-truth
 * track), the load effect, the timing at rated speed, and reproducibility. */
#include "nb-metrics.h"
#include "nb-sim-base.h"
#include "nb-test.h"

#include <string.h>

/* 30 straight trials P0 (0,0,0°) → P1 (5000,0,0°); the attained poses. */
static void
straight_trials (double load_kg, guint32 seed, NbPose attained[30], double d_mm[30],
                 double *first_duration)
{
  NbSimBaseModel m;
  NbSimBase b;
  NbSegment seg;

  nb_sim_base_model_default (&m);
  nb_sim_base_init (&b, &m, load_kg, seed);
  g_assert_true (nb_segment_init (&seg, 0, 0, 5000, 0, NULL));
  for (int j = 0; j < 30; j++)
    {
      double t0, x, y, th;
      NbPathTrial trial;

      nb_sim_base_place (&b, 0, 0, 0);
      t0 = b.clock_s;
      nb_sim_base_move_to (&b, 5000, 0, 0);
      if (j == 0 && first_duration)
        *first_duration = b.clock_s - t0;
      attained[j] = (NbPose) { b.x_mm, b.y_mm, b.theta_deg };
      /* The tracker's view: the ground truth at 100 Hz along the trial. */
      nb_path_trial_init (&trial);
      for (double t = t0; t <= b.clock_s; t += 0.01)
        {
          nb_sim_base_pose_at (&b, t, &x, &y, &th);
          nb_path_trial_push (&trial, &seg, x, y);
        }
      d_mm[j] = trial.d_mm;
    }
  nb_sim_base_clear (&b);
}

static void
test_clause5_figures (void)
{
  NbPose a[30], l[30], c = { 5000, 0, 0 };
  double d[30], dl[30], duration = 0;
  NbPoseResult r, rl;

  straight_trials (0.0, 7, a, d, &duration);
  straight_trials (20.0, 7, l, dl, NULL);
  g_assert_true (nb_metrics_pose (&c, a, 30, &r, NULL));
  g_assert_true (nb_metrics_pose (&c, l, 30, &rl, NULL));
  /* Bias (3, −2) mm → Ap ≈ 3.61 mm; σ 1.2 mm → the barycentre within ~0.7 mm (3σ/√30). */
  nb_assert_abs (r.ap_mm, sqrt (13.0), 0.7, "Ap ≈ |bias|");
  /* Ao ≈ 0.15°, within 3 · 0.25/√30. */
  nb_assert_abs (r.ao_deg, 0.15, 0.14, "Ao ≈ heading bias");
  /* Rp of a 2-D normal scatter: σ(√(π/2) + 3√(2 − π/2)) ≈ 4.33 mm. */
  nb_assert_abs (r.rp_mm, 1.2 * (sqrt (G_PI / 2) + 3 * sqrt (2 - G_PI / 2)), 1.5, "Rp");
  /* Rated load: every error × 1.5. */
  nb_assert_abs (rl.ap_mm / r.ap_mm, 1.5, 0.3, "load effect on Ap");
  g_assert_cmpfloat (rl.rp_mm, >, r.rp_mm);
  /* 5 m at 1 m/s, and a final turn of a fraction of a degree at 90°/s. */
  nb_assert_abs (duration, 5.0, 0.02, "travel time at rated speed");
}

static void
test_clause8_figures (void)
{
  NbPose a[30];
  double d[30];
  NbPathResult r;

  straight_trials (0.0, 11, a, d, NULL);
  /* The wander: a half sine of amplitude 8 mm × U(0.5, 1), either side, on a
   * leg that ends at the attained point (lateral error −2 ± 1.2 mm): at mid-leg
   * |d_i| ≈ |wander ± half the end error|, between ~1 and ~10 mm, 6 mm on average. */
  for (int i = 0; i < 30; i++)
    if (!(fabs (d[i]) >= 1.0 && fabs (d[i]) <= 12.0))
      g_error ("trial %d: d_i = %g mm outside the model's range", i + 1, d[i]);
  g_assert_true (nb_metrics_path (d, 30, &r, NULL));
  nb_assert_abs (r.mean_abs_mm, 6.0, 1.5, "mean |d_i| ≈ 0.75 × 8 mm");
}

static void
test_reproducible_and_source (void)
{
  NbPose a[30], b[30];
  double da[30], db[30];
  NbSimBaseModel m;
  NbSimBase base;
  NbPoseSource src;
  double x, y, th, xm, ym, thm;

  straight_trials (0.0, 3, a, da, NULL);
  straight_trials (0.0, 3, b, db, NULL);
  for (int i = 0; i < 30; i++)
    {
      g_assert_true (a[i].x_mm == b[i].x_mm && a[i].y_mm == b[i].y_mm);
      g_assert_true (da[i] == db[i]);
    }
  /* The tracker's source: metres, the same pose. */
  nb_sim_base_model_default (&m);
  nb_sim_base_init (&base, &m, 0, 1);
  nb_sim_base_place (&base, 0, 0, 0);
  nb_sim_base_move_to (&base, 2000, 2000, 90);
  src = nb_sim_base_source (&base);
  nb_sim_base_pose_at (&base, 1.7, &x, &y, &th);
  src.pose_at (src.self, 1.7, &xm, &ym, &thm);
  nb_assert_abs (xm * 1000.0, x, 1e-9, "x in m");
  nb_assert_abs (ym * 1000.0, y, 1e-9, "y in m");
  nb_assert_abs (thm, th, 0, "heading");
  /* First it turns to face the goal (45°), then drives. */
  nb_sim_base_pose_at (&base, 0.5, &x, &y, &th);
  nb_assert_abs (th, 45.0, 1e-9, "turned towards the goal");
  nb_assert_abs (hypot (x, y), 0.0, 1e-9, "still at P0 while turning");
  nb_sim_base_clear (&base);
}

/* The sequence runner drives the base: the rectangle of 4.5 three times. */
static void
test_sequence_on_base (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "sequences",
                                            "iso-rectangle.json", NULL);
  g_autoptr (NbSequence) s = nb_sequence_load (path, NULL);
  NbSimBaseModel m;
  NbSimBase b;
  GError *error = NULL;

  g_assert_nonnull (s);
  nb_sim_base_model_default (&m);
  nb_sim_base_init (&b, &m, 0, 5);
  g_assert_true (nb_sequence_run (s, 0, nb_sim_base_ops (), &b, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (b.goals, ==, 15);
  /* Back on P0 within the model's bias and scatter. */
  g_assert_cmpfloat (hypot (b.x_mm, b.y_mm), <, 12.0);
  nb_assert_abs (b.theta_deg, 0.0, 1.5, "heading back to +x");
  /* 3 × (4 legs of 5 m at 1 m/s + four 90° turns at 90°/s) + 2 pauses of 2 s ≈ 80 s. */
  nb_assert_abs (b.clock_s, 3 * (20.0 + 4.0) + 4.0, 0.5, "virtual time");
  nb_sim_base_clear (&b);

  nb_sim_base_init (&b, &m, 0, 5);
  b.fail_goal = 3;
  g_assert_false (nb_sequence_run (s, 0, nb_sim_base_ops (), &b, NULL, NULL, NULL, &error));
  g_assert_cmpuint (b.goals, ==, 3);
  g_assert_cmpuint (b.stops, ==, 1);
  g_clear_error (&error);
  nb_sim_base_clear (&b);

  {
    g_autoptr (NbSequence) joints = nb_sequence_parse ("t.json",
      "{\"home\": {\"joints\": [0, 0, 0, 0, 0, 0, 0]}}", -1, NULL);

    nb_sim_base_init (&b, &m, 0, 5);
    g_assert_false (nb_sequence_run (joints, 1, nb_sim_base_ops (), &b, NULL, NULL, NULL, &error));
    g_assert_nonnull (strstr (error->message, "not joint angles"));
    g_clear_error (&error);
    nb_sim_base_clear (&b);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim-base/clause5", test_clause5_figures);
  g_test_add_func ("/sim-base/clause8", test_clause8_figures);
  g_test_add_func ("/sim-base/reproducible-source", test_reproducible_and_source);
  g_test_add_func ("/sim-base/sequence", test_sequence_on_base);
  return g_test_run ();
}
