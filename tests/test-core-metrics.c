/* Reference tests of the ISO 18646-2 metric engine: hand-worked cases, the
 * wrap-around and far-from-origin cases, and invariance properties. */
#include "nb-angle.h"
#include "nb-error.h"
#include "nb-metrics.h"
#include "nb-route.h"
#include "nb-stats.h"
#include "nb-test.h"

#include <string.h>

/* ------------------------------------------------------------ angles -- */

static void
test_recast (void)
{
  nb_assert_abs (nb_angle_recast_deg (0.0), 0.0, 0.0, "0");
  nb_assert_abs (nb_angle_recast_deg (180.0), 180.0, 0.0, "180 stays");
  nb_assert_abs (nb_angle_recast_deg (-180.0), 180.0, 0.0, "-180 → +180");
  nb_assert_abs (nb_angle_recast_deg (540.0), 180.0, 0.0, "540");
  nb_assert_abs (nb_angle_recast_deg (-540.0), 180.0, 0.0, "-540");
  nb_assert_abs (nb_angle_recast_deg (359.5), -0.5, 1e-12, "359.5");
  nb_assert_abs (nb_angle_recast_deg (-190.0), 170.0, 1e-12, "-190");
  nb_assert_abs (nb_angle_recast_deg (720.25), 0.25, 1e-12, "720.25");
  nb_assert_abs (nb_angle_recast_deg (-0.0), 0.0, 0.0, "-0");
}

/* ------------------------------------------------------------- stats -- */

static void
test_running (void)
{
  NbRunning r = NB_RUNNING_INIT;
  const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

  g_assert_true (isnan (nb_running_mean (&r)));
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    nb_running_push (&r, v[i]);
  nb_assert_rel (nb_running_mean (&r), 5.0, 1e-15, "mean");
  /* Σ(x − 5)² = 32, n − 1 = 7 */
  nb_assert_rel (nb_running_sample_std (&r), sqrt (32.0 / 7.0), 1e-15, "sample std");

  /* Large offset, tiny spread (exact binary fractions, so the input itself
   * is exact): a Σx² formula loses every digit here. */
  r = (NbRunning) NB_RUNNING_INIT;
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    nb_running_push (&r, 1e9 + v[i] / 1024.0);
  nb_assert_rel (nb_running_sample_std (&r), sqrt (32.0 / 7.0) / 1024.0, 1e-9, "offset std");

  r = (NbRunning) NB_RUNNING_INIT;
  nb_running_push (&r, 3.0);
  g_assert_true (isnan (nb_running_sample_std (&r)));
}

/* ------------------------------------------------------- LU, routes -- */

static void
test_lu (void)
{
  struct { double w, lu; } cases[] = {
    { 730, 1000 }, { 500, 500 }, { 500.001, 1000 }, { 1, 500 }, { 1000, 1000 }, { 1499.9, 1500 },
  };
  double lu;
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_true (nb_lu_mm (cases[i].w, &lu, NULL));
      nb_assert_abs (lu, cases[i].lu, 0.0, "LU");
    }
  g_assert_false (nb_lu_mm (0.0, &lu, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_lu_mm (-3.0, &lu, NULL));
  g_assert_false (nb_lu_mm (NAN, &lu, NULL));
  g_assert_false (nb_lu_mm (INFINITY, &lu, NULL));
}

static void
assert_pose (const NbRoutePose *p, const char *name, double x, double y, double theta)
{
  g_assert_cmpstr (p->name, ==, name);
  nb_assert_abs (p->x_mm, x, 0.0, name);
  nb_assert_abs (p->y_mm, y, 0.0, name);
  nb_assert_abs (p->theta_deg, theta, 0.0, name);
}

static void
test_routes (void)
{
  NbRoute r;

  g_assert_true (nb_route_make (NB_ROUTE_STRAIGHT, 5000, 5000, FALSE, &r, NULL));
  g_assert_cmpuint (r.n_poses, ==, 2);
  assert_pose (&r.poses[0], "P0", 0, 0, 0);
  assert_pose (&r.poses[1], "P1", 5000, 0, 0);
  g_assert_true (nb_route_target (&r) == &r.poses[1]);

  g_assert_true (nb_route_make (NB_ROUTE_RECTANGULAR, 5000, 3000, FALSE, &r, NULL));
  g_assert_cmpuint (r.n_poses, ==, 5);
  assert_pose (&r.poses[1], "P1", 5000, 0, 90);
  assert_pose (&r.poses[2], "P2", 5000, 3000, 180);
  assert_pose (&r.poses[3], "P3", 0, 3000, -90);
  assert_pose (&r.poses[4], "P0", 0, 0, 0);

  g_assert_true (nb_route_make (NB_ROUTE_RECTANGULAR, 5000, 5000, TRUE, &r, NULL));
  assert_pose (&r.poses[1], "P1", 5000, 0, -90);
  assert_pose (&r.poses[2], "P2", 5000, -5000, 180);
  assert_pose (&r.poses[3], "P3", 0, -5000, 90);

  g_assert_true (nb_route_make (NB_ROUTE_COMBINED, 2500, 2500, FALSE, &r, NULL));
  g_assert_cmpuint (r.n_poses, ==, 3);
  assert_pose (&r.poses[2], "P2", 2500, 2500, 90);
  g_assert_true (nb_route_make (NB_ROUTE_COMBINED, 2500, 2500, TRUE, &r, NULL));
  assert_pose (&r.poses[2], "P2", 2500, -2500, -90);

  g_assert_false (nb_route_make (NB_ROUTE_STRAIGHT, 0, 5000, FALSE, &r, NULL));
  g_assert_false (nb_route_make (NB_ROUTE_COMBINED, 5000, -1, FALSE, &r, NULL));
}

/* -------------------------------------------------------- clause 5 -- */

/* Worked by hand: x̄ = 3, ȳ = 2; l = √2, √2, 2; δ = 1, 3, 2 (°). */
static const NbPose worked[] = { { 2, 1, 1 }, { 4, 1, 3 }, { 3, 4, 2 } };

static void
test_pose_worked (void)
{
  NbPose c = { 0, 0, 0 };
  NbPoseResult r;
  double l_mean = (2.0 * sqrt (2.0) + 2.0) / 3.0;
  double s_l = sqrt ((2.0 * pow (sqrt (2.0) - l_mean, 2) + pow (2.0 - l_mean, 2)) / 2.0);

  g_assert_true (nb_metrics_pose (&c, worked, 3, &r, NULL));
  g_assert_cmpuint (r.n, ==, 3);
  nb_assert_rel (r.barycentre_x_mm, 3.0, 1e-15, "x̄");
  nb_assert_rel (r.barycentre_y_mm, 2.0, 1e-15, "ȳ");
  nb_assert_rel (r.ap_mm, sqrt (13.0), 1e-15, "Ap = √13");
  nb_assert_rel (r.ap_mm, 3.605551275463989, 1e-15, "Ap (Python)");
  nb_assert_rel (r.l_mean_mm, l_mean, 1e-15, "l̄");
  nb_assert_rel (r.l_mean_mm, 1.6094757082487299, 1e-15, "l̄ (Python)");
  nb_assert_rel (r.s_l_mm, s_l, 1e-13, "S_l");
  nb_assert_rel (r.s_l_mm, 0.3382039574515254, 1e-13, "S_l (Python)");
  nb_assert_rel (r.rp_mm, 2.624087580603306, 1e-14, "Rp (Python)");
  nb_assert_rel (r.ao_deg, 2.0, 1e-15, "Ao");
  nb_assert_rel (r.mean_theta_deg, 2.0, 1e-15, "ō");
  nb_assert_rel (r.s_o_deg, 1.0, 1e-15, "S_o");
  nb_assert_rel (r.ro_deg, 3.0, 1e-15, "Ro");
}

static void
test_pose_wraparound (void)
{
  /* Command 180°; attained either side of ±180°: δ = −1, 1, −2, 2. */
  NbPose c = { 1000, 0, 180 };
  NbPose a[] = { { 1000, 0, 179 }, { 1000, 0, -179 }, { 1000, 0, 178 }, { 1000, 0, -178 } };
  NbPose c2 = { 0, 0, -179 };
  NbPose a2[] = { { 0, 0, 179 }, { 0, 0, 178 } };        /* δ = −2, −3 */
  NbPoseResult r;

  g_assert_true (nb_metrics_pose (&c, a, 4, &r, NULL));
  nb_assert_abs (r.ao_deg, 0.0, 1e-13, "Ao across ±180");
  nb_assert_abs (r.mean_theta_deg, 180.0, 1e-13, "ō = 180");
  nb_assert_rel (r.s_o_deg, sqrt (10.0 / 3.0), 1e-13, "S_o across ±180");
  nb_assert_rel (r.ro_deg, 3.0 * sqrt (10.0 / 3.0), 1e-13, "Ro across ±180");

  g_assert_true (nb_metrics_pose (&c2, a2, 2, &r, NULL));
  nb_assert_rel (r.ao_deg, -2.5, 1e-13, "Ao near −180");
  nb_assert_rel (r.mean_theta_deg, 178.5, 1e-13, "ō wraps to +178.5");
  nb_assert_rel (r.s_o_deg, sqrt (0.5), 1e-13, "S_o, n = 2");
}

static void
test_pose_n2_and_errors (void)
{
  NbPose c = { 0, 0, 0 };
  NbPose a[] = { { 1, 0, 0 }, { -1, 0, 0 } };
  NbPose bad[] = { { 1, 0, 0 }, { NAN, 0, 0 } };
  NbPoseResult r;
  GError *error = NULL;

  /* n = 2: barycentre at the origin, l = 1, 1: S_l = 0, Rp = 1. */
  g_assert_true (nb_metrics_pose (&c, a, 2, &r, NULL));
  nb_assert_abs (r.ap_mm, 0.0, 0.0, "Ap n=2");
  nb_assert_abs (r.rp_mm, 1.0, 0.0, "Rp n=2");
  nb_assert_abs (r.s_l_mm, 0.0, 0.0, "S_l n=2");

  g_assert_false (nb_metrics_pose (&c, a, 1, &r, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "at least 2"));
  g_clear_error (&error);
  g_assert_false (nb_metrics_pose (&c, bad, 2, &r, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
}

/* A tracker frame 10 km from its origin: the same scatter, the same figures. */
static void
test_pose_far_from_origin (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (18646);
  NbPose near[30], far[30];
  NbPose c_near = { 5000, 0, 0 }, c_far = { 5000 + 1e7, -1e7, 0 };
  NbPoseResult rn, rf;

  for (int j = 0; j < 30; j++)
    {
      near[j].x_mm = 5000 + 2.0 + g_rand_double_range (rand, -0.5, 0.5);
      near[j].y_mm = -1.0 + g_rand_double_range (rand, -0.5, 0.5);
      near[j].theta_deg = g_rand_double_range (rand, -0.2, 0.2);
      far[j] = near[j];
      far[j].x_mm += 1e7;
      far[j].y_mm -= 1e7;
    }
  g_assert_true (nb_metrics_pose (&c_near, near, 30, &rn, NULL));
  g_assert_true (nb_metrics_pose (&c_far, far, 30, &rf, NULL));
  /* At 1e7 mm a double resolves 1.9e-9 mm: the input itself moved by that. */
  nb_assert_abs (rf.ap_mm, rn.ap_mm, 1e-8, "Ap far");
  nb_assert_abs (rf.rp_mm, rn.rp_mm, 1e-8, "Rp far");
  nb_assert_abs (rf.s_l_mm, rn.s_l_mm, 1e-8, "S_l far");
  nb_assert_abs (rf.barycentre_x_mm - 1e7, rn.barycentre_x_mm, 1e-8, "x̄ far");
  nb_assert_abs (rf.ro_deg, rn.ro_deg, 0.0, "Ro far");
}

static void
transform (double tx, double ty, double rot_deg, double *x, double *y)
{
  double c = cos (rot_deg * G_PI / 180.0), s = sin (rot_deg * G_PI / 180.0);
  double u = *x, v = *y;

  *x = c * u - s * v + tx;
  *y = s * u + c * v + ty;
}

/* Translating and rotating the whole data set leaves Ap, Ao, Rp, Ro unchanged. */
static void
test_pose_invariance (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (5);

  for (int k = 0; k < 50; k++)
    {
      NbPose c = { g_rand_double_range (rand, -5000, 5000), g_rand_double_range (rand, -5000, 5000),
                   g_rand_double_range (rand, -180, 180) };
      NbPose a[30], b[30], cb = c;
      double tx = g_rand_double_range (rand, -1e5, 1e5), ty = g_rand_double_range (rand, -1e5, 1e5);
      double rot = g_rand_double_range (rand, -180, 180);
      NbPoseResult ra, rb;

      for (int j = 0; j < 30; j++)
        {
          a[j].x_mm = c.x_mm + g_rand_double_range (rand, -20, 20);
          a[j].y_mm = c.y_mm + g_rand_double_range (rand, -20, 20);
          a[j].theta_deg = c.theta_deg + g_rand_double_range (rand, -3, 3);
          b[j] = a[j];
          transform (tx, ty, rot, &b[j].x_mm, &b[j].y_mm);
          b[j].theta_deg = nb_angle_recast_deg (b[j].theta_deg + rot);
        }
      transform (tx, ty, rot, &cb.x_mm, &cb.y_mm);
      cb.theta_deg = nb_angle_recast_deg (c.theta_deg + rot);
      g_assert_true (nb_metrics_pose (&c, a, 30, &ra, NULL));
      g_assert_true (nb_metrics_pose (&cb, b, 30, &rb, NULL));
      nb_assert_abs (rb.ap_mm, ra.ap_mm, 1e-9, "Ap invariant");
      nb_assert_abs (rb.rp_mm, ra.rp_mm, 1e-9, "Rp invariant");
      nb_assert_abs (rb.ao_deg, ra.ao_deg, 1e-9, "Ao invariant");
      nb_assert_abs (rb.ro_deg, ra.ro_deg, 1e-9, "Ro invariant");
    }
}

/* -------------------------------------------------------- clause 8 -- */

static double
deviation (const NbSegment *s, const double (*pts)[2], guint n, guint64 *on)
{
  NbPathTrial t;

  nb_path_trial_init (&t);
  for (guint i = 0; i < n; i++)
    nb_path_trial_push (&t, s, pts[i][0], pts[i][1]);
  if (on)
    *on = t.n_on_segment;
  return t.d_mm;
}

static void
test_path_worked (void)
{
  NbSegment s;
  const double along_x[][2] = { { -1, 100 }, { 1, 2 }, { 5, -3 }, { 9, 1 }, { 11, 50 } };
  const double along_y[][2] = { { -3, 5 }, { 1, 2 }, { 2, 11 } };
  guint64 on;
  GError *error = NULL;

  g_assert_true (nb_segment_init (&s, 0, 0, 10, 0, NULL));
  /* (−1,100) and (11,50) project outside P0→P1; right of travel is negative. */
  nb_assert_abs (deviation (&s, along_x, 5, &on), -3.0, 0.0, "d along +x");
  g_assert_cmpuint (on, ==, 3);

  /* Travel along +y: left is −x, so (−3, 5) is +3. */
  g_assert_true (nb_segment_init (&s, 0, 0, 0, 10, NULL));
  nb_assert_abs (deviation (&s, along_y, 3, &on), 3.0, 1e-15, "d along +y");
  g_assert_cmpuint (on, ==, 2);

  /* The end points themselves are on the segment. */
  g_assert_true (nb_segment_init (&s, 0, 0, 10, 0, NULL));
  {
    const double ends[][2] = { { 0, 0.5 }, { 10, -0.25 } };

    nb_assert_abs (deviation (&s, ends, 2, &on), 0.5, 0.0, "end points");
    g_assert_cmpuint (on, ==, 2);
  }
  {
    const double none[][2] = { { -5, 1 }, { 20, 1 } };

    g_assert_true (isnan (deviation (&s, none, 2, &on)));
    g_assert_cmpuint (on, ==, 0);
  }

  g_assert_false (nb_segment_init (&s, 3, 4, 3, 4, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "zero length"));
  g_clear_error (&error);
}

static void
test_path_stats (void)
{
  const double d[] = { 1, -3, 2 };
  const double one[] = { -4 };
  NbPathResult r;

  g_assert_true (nb_metrics_path (d, 3, &r, NULL));
  nb_assert_abs (r.max_mm, 3.0, 0.0, "d = max |d_i|");
  nb_assert_abs (r.mean_mm, 0.0, 1e-15, "mean");
  nb_assert_rel (r.mean_abs_mm, 2.0, 1e-15, "mean |d_i|");
  nb_assert_rel (r.std_mm, sqrt (7.0), 1e-15, "std (n − 1)");

  g_assert_true (nb_metrics_path (one, 1, &r, NULL));
  nb_assert_abs (r.max_mm, 4.0, 0.0, "n = 1 max");
  g_assert_true (isnan (r.std_mm));
  g_assert_false (nb_metrics_path (d, 0, &r, NULL));
}

/* Translating and rotating the segment and the track leaves d_i unchanged,
 * also 10 km from the origin. */
static void
test_path_invariance (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (8);

  for (int k = 0; k < 50; k++)
    {
      double pts[200][2], moved[200][2];
      double x1 = 5000, y1 = 0, mx0 = 0, my0 = 0, mx1 = x1, my1 = y1;
      double tx = g_rand_double_range (rand, -1e7, 1e7), ty = g_rand_double_range (rand, -1e7, 1e7);
      double rot = g_rand_double_range (rand, -180, 180);
      NbSegment s, ms;

      for (int i = 0; i < 200; i++)
        {
          pts[i][0] = -100 + 26.0 * i;
          pts[i][1] = g_rand_double_range (rand, -30, 30);
          moved[i][0] = pts[i][0];
          moved[i][1] = pts[i][1];
          transform (tx, ty, rot, &moved[i][0], &moved[i][1]);
        }
      transform (tx, ty, rot, &mx0, &my0);
      transform (tx, ty, rot, &mx1, &my1);
      g_assert_true (nb_segment_init (&s, 0, 0, x1, y1, NULL));
      g_assert_true (nb_segment_init (&ms, mx0, my0, mx1, my1, NULL));
      /* 1e7 mm away the coordinates carry ~2e-9 mm of rounding each. */
      nb_assert_abs (deviation (&ms, (const double (*)[2]) moved, 200, NULL),
                     deviation (&s, (const double (*)[2]) pts, 200, NULL), 1e-7, "d_i invariant");
    }
}

/* -------------------------------------------------------- clause 6 -- */

static void
test_detection (void)
{
  NbDetectionTally t = NB_DETECTION_TALLY_INIT;

  nb_assert_rel (nb_detection_error_pct (1000, 1020), 2.0, 1e-13, "error 2 %");
  nb_assert_rel (nb_detection_error_pct (1000, 970), 3.0, 1e-13, "error 3 %");
  g_assert_true (isnan (nb_detection_tally_mean_error_pct (&t)));
  nb_detection_tally_add (&t, 1000, TRUE, 1020);
  nb_detection_tally_add (&t, 2000, FALSE, NAN);
  nb_detection_tally_add (&t, 500, TRUE, 485);
  g_assert_cmpuint (t.placements, ==, 3);
  g_assert_cmpuint (t.detected, ==, 2);
  nb_assert_rel (nb_detection_tally_mean_error_pct (&t), 2.5, 1e-13, "mean error");
  nb_assert_rel (nb_detection_tally_mean_accuracy_pct (&t), 97.5, 1e-13, "mean accuracy");
}

/* -------------------------------------------------------- clause 7 -- */

static void
test_avoidance (void)
{
  /* Given out of order on purpose: trial numbers decide. */
  NbTimedTrial base[] = { { 4, 12, TRUE }, { 1, 10, TRUE }, { 3, NAN, FALSE }, { 2, 11, TRUE },
                          { 5, 13, TRUE } };
  NbTimedTrial obst[] = { { 2, 14, TRUE }, { 1, 15, TRUE }, { 3, 16, TRUE }, { 4, 30, TRUE } };
  NbTimedTrial obst_fail[] = { { 1, 15, TRUE }, { 2, NAN, FALSE }, { 3, 16, TRUE }, { 4, 17, TRUE } };
  NbTimedTrial two[] = { { 1, 15, TRUE }, { 2, 16, TRUE } };
  NbTimedTrial dup[] = { { 1, 15, TRUE }, { 1, 16, TRUE } };
  NbAvoidanceResult r;
  GError *error = NULL;

  g_assert_true (nb_metrics_avoidance (base, 5, obst, 4, &r, NULL));
  g_assert_true (r.passed);
  nb_assert_rel (r.t0_s, 11.0, 1e-15, "T0 = mean(10, 11, 12)");
  nb_assert_rel (r.t1_s, 16.0, 1e-15, "T1 = max(15, 14, 16)");
  nb_assert_rel (r.delay_ratio, 16.0 / 11.0, 1e-15, "T1/T0");

  /* Trial 2 failed: the configuration fails; T1 from trials 1, 3, 4. */
  g_assert_true (nb_metrics_avoidance (base, 5, obst_fail, 4, &r, NULL));
  g_assert_false (r.passed);
  nb_assert_rel (r.t1_s, 17.0, 1e-15, "T1 after a failure");

  /* Two trials only: undecided means not passed, T1 undefined. */
  g_assert_true (nb_metrics_avoidance (base, 5, two, 2, &r, NULL));
  g_assert_false (r.passed);
  g_assert_true (isnan (r.t1_s));
  g_assert_true (isnan (r.delay_ratio));

  g_assert_false (nb_metrics_avoidance (base, 5, dup, 2, &r, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "twice"));
  g_clear_error (&error);
}

/* -------------------------------------------------------- clause 9 -- */

static void
test_passage (void)
{
  NbTimedTrial t[] = { { 1, 20, TRUE }, { 2, NAN, FALSE }, { 3, 21, TRUE }, { 4, 22, TRUE },
                       { 5, 23, TRUE }, { 6, 24, TRUE }, { 7, 25, TRUE }, { 8, 99, TRUE } };
  NbTimedTrial short_run[] = { { 1, 20, TRUE }, { 2, 20, TRUE }, { 3, 20, TRUE }, { 4, 20, TRUE },
                               { 5, NAN, FALSE }, { 6, 20, TRUE } };
  NbPassageResult r;

  g_assert_true (nb_metrics_passage (t, G_N_ELEMENTS (t), &r, NULL));
  g_assert_true (r.passed);
  g_assert_cmpuint (r.first_trial, ==, 3);
  nb_assert_rel (r.mean_time_s, 23.0, 1e-15, "mean of trials 3–7");
  g_assert_cmpuint (r.failed_trials, ==, 1);

  g_assert_true (nb_metrics_passage (short_run, G_N_ELEMENTS (short_run), &r, NULL));
  g_assert_false (r.passed);
  g_assert_true (isnan (r.mean_time_s));
  g_assert_cmpuint (r.failed_trials, ==, 1);
}

/* ------------------------------------------------------- clause 10 -- */

static void
test_dm (void)
{
  const double truth[4][2] = { { 0, 0 }, { 7000, 0 }, { 7000, 7000 }, { 0, 7000 } };
  double map[4][2];

  for (int i = 0; i < 4; i++)
    {
      map[i][0] = truth[i][0] + 3;
      map[i][1] = truth[i][1] + 4;
    }
  nb_assert_rel (nb_metrics_dm (truth, (const double (*)[2]) map), 5.0, 1e-15, "Dm = 5");
  /* Corners off by 0, 10, 0, 30: Dm = 10. */
  memcpy (map, truth, sizeof map);
  map[1][0] += 10;
  map[3][1] -= 30;
  nb_assert_rel (nb_metrics_dm (truth, (const double (*)[2]) map), 10.0, 1e-15, "Dm = 10");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/angle/recast", test_recast);
  g_test_add_func ("/stats/running", test_running);
  g_test_add_func ("/route/lu", test_lu);
  g_test_add_func ("/route/poses", test_routes);
  g_test_add_func ("/pose/worked", test_pose_worked);
  g_test_add_func ("/pose/wraparound", test_pose_wraparound);
  g_test_add_func ("/pose/n2-and-errors", test_pose_n2_and_errors);
  g_test_add_func ("/pose/far-from-origin", test_pose_far_from_origin);
  g_test_add_func ("/pose/invariance", test_pose_invariance);
  g_test_add_func ("/path/worked", test_path_worked);
  g_test_add_func ("/path/stats", test_path_stats);
  g_test_add_func ("/path/invariance", test_path_invariance);
  g_test_add_func ("/detection/error", test_detection);
  g_test_add_func ("/avoidance/rules", test_avoidance);
  g_test_add_func ("/passage/rules", test_passage);
  g_test_add_func ("/mapping/dm", test_dm);
  return g_test_run ();
}
