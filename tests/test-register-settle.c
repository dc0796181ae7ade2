/* Frame registration (rigid 2-D/3-D fit by SVD, residuals, RMS, marker
 * offset) and settle detection on synthetic streams with known answers. */
#include "nb-test.h"

#include "nb-error.h"
#include "nb-register.h"
#include "nb-settle.h"

#include <gsl/gsl_errno.h>
#include <string.h>

/* Rotation about a unit axis by angle (Rodrigues), an independent route
 * to the matrices the fit must recover. */
static void
rotation (const double axis[3], double angle_deg, double r[3][3])
{
  double n = sqrt (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  double x = axis[0] / n, y = axis[1] / n, z = axis[2] / n;
  double c = cos (angle_deg * G_PI / 180), s = sin (angle_deg * G_PI / 180), C = 1 - c;

  r[0][0] = c + x * x * C;     r[0][1] = x * y * C - z * s; r[0][2] = x * z * C + y * s;
  r[1][0] = y * x * C + z * s; r[1][1] = c + y * y * C;     r[1][2] = y * z * C - x * s;
  r[2][0] = z * x * C - y * s; r[2][1] = z * y * C + x * s; r[2][2] = c + z * z * C;
}

static void
test_register_3d_exact (void)
{
  const double p[5][3] = { { 0, 0, 0 }, { 10, 0, 0 }, { 0, 8, 0 }, { 3, 4, 5 }, { -2, 7, 1 } };
  const double axis[3] = { 1, 2, 3 }, t[3] = { 100.5, -20.25, 3.0 };
  double q[5][3], r[3][3], res[5], rms;
  NbRigidTransform fit;
  g_autoptr (GError) error = NULL;

  rotation (axis, 37.0, r);
  for (guint i = 0; i < 5; i++)
    for (guint a = 0; a < 3; a++)
      q[i][a] = r[a][0] * p[i][0] + r[a][1] * p[i][1] + r[a][2] * p[i][2] + t[a];
  g_assert_true (nb_register_rigid (p, (const double (*)[3]) q, 5, 3, &fit, res, &rms, &error));
  g_assert_no_error (error);
  for (guint a = 0; a < 3; a++)
    {
      nb_assert_abs (fit.t[a], t[a], 1e-11, "t");
      for (guint b = 0; b < 3; b++)
        nb_assert_abs (fit.r[a][b], r[a][b], 1e-13, "R");
    }
  nb_assert_abs (rms, 0.0, 1e-11, "rms");
  for (guint i = 0; i < 5; i++)
    nb_assert_abs (res[i], 0.0, 1e-11, "residual");
}

/* Hand-worked 2-D: a square's corners in the instrument frame, rotated
 * 90° and shifted (10, 20) in the test area, with the 4th point surveyed
 * 4 mm off in x.  The least-squares fit spreads the error: the centroid
 * moves 1 mm, the rotation by atan of the moment (see below), and the RMS
 * is the residuals' root mean square. */
static void
test_register_2d_hand (void)
{
  const double p[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
  double q[4][3] = { { 10, 20, 0 }, { 10, 21, 0 }, { 9, 21, 0 }, { 9.004, 20, 0 } };
  double res[4], rms, sum2 = 0.0, out[3];
  NbRigidTransform fit;

  /* Exact first (without the 4 mm): 90°, (10, 20). */
  q[3][0] = 9.0;
  g_assert_true (nb_register_rigid (p, (const double (*)[3]) q, 4, 2, &fit, res, &rms, NULL));
  nb_assert_abs (nb_rigid_yaw_deg (&fit), 90.0, 1e-12, "yaw");
  nb_assert_abs (fit.t[0], 10.0, 1e-12, "tx");
  nb_assert_abs (fit.t[1], 20.0, 1e-12, "ty");
  nb_assert_abs (rms, 0.0, 1e-12, "rms exact");

  q[3][0] = 9.004;
  g_assert_true (nb_register_rigid (p, (const double (*)[3]) q, 4, 2, &fit, res, &rms, NULL));
  /* Centred instrument points p' = (∓½, ∓½); the 4th reference point moved
   * by e = (0.004, 0) about the centroid (9.501, 20.5).  For 2-D the
   * optimal angle is atan2(Σ p'×q', Σ p'·q'): with q' = R90 p' + e' where
   * e' = e − e/4 on point 4 and −e/4 on the others, Σ p'·q' = Σ p'·e' and
   * Σ p'×q' = Σ|p'|² + Σ p'×e'.  Point 4 is p' = (−½, ½):
   * Σ p'·e' = −½·0.004 = −0.002 (the −e/4 parts cancel over the square),
   * Σ p'×e' = p'×e = −½·0 − ½·0.004 = −0.002, Σ|p'|² = 2. */
  nb_assert_abs (nb_rigid_yaw_deg (&fit), atan2 (2.0 - 0.002, -0.002) * 180 / G_PI, 1e-10, "yaw");
  for (guint i = 0; i < 4; i++)
    {
      double in[3] = { p[i][0], p[i][1], 0 };

      nb_rigid_apply (&fit, in, out);
      nb_assert_abs (res[i], hypot (out[0] - q[i][0], out[1] - q[i][1]), 1e-15, "residual");
      sum2 += res[i] * res[i];
    }
  nb_assert_abs (rms, sqrt (sum2 / 4), 1e-15, "rms");
  /* The error is spread, not put all on point 4. */
  g_assert_cmpfloat (res[3], <, 0.004);
  g_assert_cmpfloat (res[3], >, 0.002);
  g_assert_cmpfloat (res[0], >, 0.0005);
}

/* Least squares: any small change of the fitted transform makes the sum of
 * squared residuals larger. */
static void
test_register_optimal (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (5);
  double p[8][3], q[8][3], r[3][3], rms;
  const double axis[3] = { -0.3, 0.2, 1.0 };
  NbRigidTransform fit;

  rotation (axis, -121.0, r);
  for (guint i = 0; i < 8; i++)
    {
      for (guint a = 0; a < 3; a++)
        p[i][a] = g_rand_double_range (rand, -5, 5);
      for (guint a = 0; a < 3; a++)
        q[i][a] = r[a][0] * p[i][0] + r[a][1] * p[i][1] + r[a][2] * p[i][2] + 1.0 +
                  g_rand_double_range (rand, -0.002, 0.002);
    }
  g_assert_true (nb_register_rigid ((const double (*)[3]) p, (const double (*)[3]) q, 8, 3, &fit,
                                    NULL, &rms, NULL));
  g_assert_cmpfloat (rms, >, 0.0005);
  g_assert_cmpfloat (rms, <, 0.002);
  for (int trial = 0; trial < 12; trial++)
    {
      NbRigidTransform moved = fit;
      double dr[3][3], axis2[3] = { trial % 3 == 0, trial % 3 == 1, trial % 3 == 2 }, sum2 = 0;

      rotation (axis2, (trial & 1 ? 1 : -1) * 1e-3, dr);
      for (guint a = 0; a < 3; a++)
        for (guint b = 0; b < 3; b++)
          moved.r[a][b] = dr[a][0] * fit.r[0][b] + dr[a][1] * fit.r[1][b] + dr[a][2] * fit.r[2][b];
      moved.t[trial % 3] += trial >= 6 ? 1e-4 : 0.0;
      for (guint i = 0; i < 8; i++)
        {
          double m[3];

          nb_rigid_apply (&moved, p[i], m);
          for (guint a = 0; a < 3; a++)
            sum2 += (m[a] - q[i][a]) * (m[a] - q[i][a]);
        }
      g_assert_cmpfloat (sqrt (sum2 / 8), >, rms);
    }
}

static void
test_register_errors (void)
{
  const double two[2][3] = { { 0, 0, 0 }, { 1, 0, 0 } };
  const double line[3][3] = { { 0, 0, 0 }, { 1, 1, 1 }, { 2, 2, 2 } };
  const double same[3][3] = { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } };
  const double bad[3][3] = { { 0, 0, 0 }, { NAN, 0, 0 }, { 0, 1, 0 } };
  /* A mirror image: the fit must stay a proper rotation (det +1). */
  const double p[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
  const double mirror[4][3] = { { 0, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
  NbRigidTransform fit;
  double rms, det;
  GError *error = NULL;

  g_assert_false (nb_register_rigid (two, two, 2, 2, &fit, NULL, NULL, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "at least 3"));
  g_clear_error (&error);
  g_assert_false (nb_register_rigid (line, line, 3, 3, &fit, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "collinear"));
  g_clear_error (&error);
  g_assert_false (nb_register_rigid (same, same, 3, 2, &fit, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "coincident"));
  g_clear_error (&error);
  g_assert_false (nb_register_rigid (bad, bad, 3, 3, &fit, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "point 2"));
  g_clear_error (&error);
  /* 2-D collinear points are enough for a rotation in the plane. */
  g_assert_true (nb_register_rigid (line, line, 3, 2, &fit, NULL, &rms, NULL));
  nb_assert_abs (rms, 0.0, 1e-12, "collinear 2-D");

  g_assert_true (nb_register_rigid (p, mirror, 4, 3, &fit, NULL, &rms, NULL));
  det = fit.r[0][0] * (fit.r[1][1] * fit.r[2][2] - fit.r[1][2] * fit.r[2][1])
        - fit.r[0][1] * (fit.r[1][0] * fit.r[2][2] - fit.r[1][2] * fit.r[2][0])
        + fit.r[0][2] * (fit.r[1][0] * fit.r[2][1] - fit.r[1][1] * fit.r[2][0]);
  nb_assert_abs (det, 1.0, 1e-12, "proper rotation");
  g_assert_cmpfloat (rms, >, 0.1);
}

static void
test_marker_offset (void)
{
  const double target[3] = { 1, 2, 3 }, offset[3] = { 0.1, 0, -0.2 };
  const double q90[4] = { cos (G_PI / 4), 0, 0, sin (G_PI / 4) };   /* 90° about z */
  double out[3];

  nb_marker_to_reference (target, q90, NAN, offset, out);
  nb_assert_abs (out[0], 1.0, 1e-15, "x");
  nb_assert_abs (out[1], 2.1, 1e-15, "y");
  nb_assert_abs (out[2], 2.8, 1e-15, "z");
  nb_marker_to_reference (target, NULL, 180.0, offset, out);
  nb_assert_abs (out[0], 0.9, 1e-15, "x by heading");
  nb_assert_abs (out[1], 2.0, 1e-15, "y by heading");
}

/* ----------------------------------------------------------- settle -- */

/* 100 Hz: drives toward (1, 0) at 0.2 m/s until t = 5, then jitters by
 * ±0.2 mm (a deterministic pattern), heading 0 ± 0.01°. */
static GArray *
stream (gboolean stops)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (NbSample));

  for (int k = 0; k <= 1500; k++)
    {
      double t = k * 0.01, jitter = 0.0002 * ((k % 4) - 1.5) / 1.5;
      NbSample s;

      nb_sample_init (&s, "test");
      s.t_s = t;
      s.x_m = (stops ? MIN (t, 5.0) : t) * 0.2 + jitter;
      s.y_m = -jitter;
      s.z_m = 0.0;
      s.heading_deg = 0.01 * ((k % 3) - 1);
      g_array_append_val (a, s);
    }
  return a;
}

static void
test_settle (void)
{
  g_autoptr (GArray) a = stream (TRUE);
  g_autoptr (GArray) moving = stream (FALSE);
  NbSettleParams p;
  NbSettleResult r;
  g_autoptr (GError) error = NULL;

  nb_settle_params_init (&p);   /* 1 mm, 0.1°, 1 s window, 10 s timeout */
  g_assert_true (nb_settle_find ((NbSample *) a->data, a->len, 4.5, &p, &r, &error));
  g_assert_true (r.settled);
  /* Before 5 s the robot moves 2 mm per sample: the first still window
   * starts at 5.0 s (the first sample at rest, within 1 mm of the rest). */
  g_assert_cmpfloat (r.t_start, >=, 4.995);
  g_assert_cmpfloat (r.t_start, <=, 5.0 + 1e-9);
  nb_assert_abs (r.t_end - r.t_start, 1.0, 1e-9, "window");
  g_assert_cmpuint (r.n, ==, 101);
  /* Mean of the jitter over 101 samples of the 4-cycle pattern (−1.5,
   * −0.5, 0.5, 1.5)·0.2/1.5 mm: 25 cycles cancel, the extra sample k=600
   * (k%4 = 0) is −0.2 mm, so the mean is −0.2/101 mm. */
  nb_assert_abs (r.x_m, 1.0 - 0.0002 / 101, 1e-12, "attained x");
  nb_assert_abs (r.y_m, 0.0002 / 101, 1e-12, "attained y");
  nb_assert_abs (r.heading_deg, 0.0, 0.001, "attained heading");
  /* The farthest samples are the +0.2 mm ones (k%4 = 3), 0.2 + 0.2/101 mm
   * from the mean in x and in y. */
  nb_assert_abs (r.spread_m, (0.0002 + 0.0002 / 101) * sqrt (2), 1e-12, "spread");
  nb_assert_abs (r.spread_deg, 0.01, 1e-6, "heading spread");

  /* Arrival reported late: the window starts at the arrival. */
  g_assert_true (nb_settle_find ((NbSample *) a->data, a->len, 7.0, &p, &r, NULL));
  g_assert_true (r.settled);
  nb_assert_abs (r.t_start, 7.0, 1e-9, "late arrival");

  /* A tighter tolerance than the jitter never settles: a clear failure. */
  p.tolerance_m = 0.0001;
  g_assert_true (nb_settle_find ((NbSample *) a->data, a->len, 4.5, &p, &r, NULL));
  g_assert_false (r.settled);
  g_assert_nonnull (strstr (r.reason, "did not settle within 10 s"));
  g_assert_nonnull (strstr (r.reason, "tolerance 0.1 mm"));

  nb_settle_params_init (&p);
  g_assert_true (nb_settle_find ((NbSample *) moving->data, moving->len, 4.5, &p, &r, NULL));
  g_assert_false (r.settled);

  /* Nothing after the arrival. */
  g_assert_true (nb_settle_find ((NbSample *) a->data, a->len, 100.0, &p, &r, NULL));
  g_assert_false (r.settled);
  g_assert_nonnull (strstr (r.reason, "no 1 s window"));

  p.window_s = 0;
  g_assert_false (nb_settle_find ((NbSample *) a->data, a->len, 4.5, &p, &r, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
}

static void
test_settle_dropout (void)
{
  g_autoptr (GArray) a = stream (TRUE);
  NbSettleParams p;
  NbSettleResult r;

  /* A 2 s gap right after the stop: no window may span the gap. */
  g_array_remove_range (a, 501, 200);
  nb_settle_params_init (&p);
  g_assert_true (nb_settle_find ((NbSample *) a->data, a->len, 4.5, &p, &r, NULL));
  g_assert_true (r.settled);
  g_assert_cmpfloat (r.t_start, >=, 7.0 - 1e-9);
  g_assert_cmpuint (r.n, ==, 101);
}

/* The campaign's text of a transform reads back to the same doubles; a
 * malformed one is refused saying what it should be. */
static void
test_register_json (void)
{
  const double yaw = 0.3;
  NbRigidTransform tf = { 3, { { cos (yaw), -sin (yaw), 0 }, { sin (yaw), cos (yaw), 0 },
                               { 0, 0, 1 } }, { 1234.5678 / 1000.0, -0.1, 1e-3 / 3.0 } };
  NbRigidTransform back;
  g_autoptr (GError) error = NULL;
  g_autofree char *json = nb_rigid_transform_to_json (&tf);

  g_assert_true (nb_rigid_transform_from_json (json, &back, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (back.dim, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      for (guint j = 0; j < 3; j++)
        g_assert_true (back.r[i][j] == tf.r[i][j]);
      /* t is kept in mm: one rounding of the division by 1000. */
      nb_assert_rel (back.t[i], tf.t[i], 2.3e-16, "t");
    }
  g_assert_false (nb_rigid_transform_from_json ("{\"dim\": 4, \"r\": [], \"t_mm\": []}", &back,
                                                &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "instrument.registration_transform: not"));
}

int
main (int argc, char **argv)
{
  gsl_set_error_handler_off ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/register/3d-exact", test_register_3d_exact);
  g_test_add_func ("/register/json", test_register_json);
  g_test_add_func ("/register/2d-hand", test_register_2d_hand);
  g_test_add_func ("/register/least-squares", test_register_optimal);
  g_test_add_func ("/register/errors", test_register_errors);
  g_test_add_func ("/register/marker-offset", test_marker_offset);
  g_test_add_func ("/settle/find", test_settle);
  g_test_add_func ("/settle/dropout", test_settle_dropout);
  return g_test_run ();
}
