/* Reference tests of the trajectory error (core/nb-traj*, drivers/file/
 * nb-tum-reader): every figure is compared with a second, independent
 * computation — 4×4 matrices built by Rodrigues' formula instead of
 * quaternions, evo's quadratic association by brute force, Horn's and
 * closed-form planar Procrustes instead of the SVD, sorting instead of
 * selection — or with the closed form of a motion the test generated. */
#include "nb-error.h"
#include "nb-test.h"
#include "nb-traj-align.h"
#include "nb-traj-assoc.h"
#include "nb-traj-error.h"
#include "nb-traj-eval.h"
#include "nb-traj.h"
#include "nb-tum-reader.h"

#include <gsl/gsl_eigen.h>
#include <glib/gstdio.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ independent geometry -- */

typedef struct {
  double m[4][4];
} Mat4;

/* Rodrigues: R = I + sin a·K + (1 − cos a)·K², K the cross matrix of u. */
static Mat4
pose_matrix (const double u_in[3], double a, const double t[3])
{
  double n = sqrt (u_in[0] * u_in[0] + u_in[1] * u_in[1] + u_in[2] * u_in[2]);
  double u[3] = { u_in[0] / n, u_in[1] / n, u_in[2] / n };
  double k[3][3] = { { 0, -u[2], u[1] }, { u[2], 0, -u[0] }, { -u[1], u[0], 0 } };
  Mat4 r = { { { 0 } } };

  for (int i = 0; i < 3; i++)
    {
      for (int j = 0; j < 3; j++)
        {
          double k2 = 0.0;

          for (int l = 0; l < 3; l++)
            k2 += k[i][l] * k[l][j];
          r.m[i][j] = (i == j) + sin (a) * k[i][j] + (1 - cos (a)) * k2;
        }
      r.m[i][3] = t[i];
    }
  r.m[3][3] = 1.0;
  return r;
}

static void
axis_angle_quat (const double u_in[3], double a, double q[4])
{
  double n = sqrt (u_in[0] * u_in[0] + u_in[1] * u_in[1] + u_in[2] * u_in[2]);

  q[0] = cos (a / 2);
  for (int i = 0; i < 3; i++)
    q[i + 1] = sin (a / 2) * u_in[i] / n;
}

static Mat4
mat_mul (const Mat4 *a, const Mat4 *b)
{
  Mat4 r = { { { 0 } } };

  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      for (int l = 0; l < 4; l++)
        r.m[i][j] += a->m[i][l] * b->m[l][j];
  return r;
}

static Mat4
mat_inv (const Mat4 *a)
{
  Mat4 r = { { { 0 } } };

  for (int i = 0; i < 3; i++)
    {
      for (int j = 0; j < 3; j++)
        r.m[i][j] = a->m[j][i];
      for (int j = 0; j < 3; j++)
        r.m[i][3] -= a->m[j][i] * a->m[j][3];
    }
  r.m[3][3] = 1.0;
  return r;
}

/* Pose k of a trajectory as a matrix, from its quaternion by the textbook
 * expansion (not nb_quat_to_matrix). */
static Mat4
traj_matrix (const NbTraj *traj, guint k)
{
  const double *q = traj->q + 4 * k, *p = traj->p + 3 * k;
  double w = q[0], x = q[1], y = q[2], z = q[3];
  Mat4 r = { { { w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y), p[0] },
               { 2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x), p[1] },
               { 2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z, p[2] },
               { 0, 0, 0, 1 } } };
  return r;
}

static double
frob_minus_identity (const Mat4 *e, int n)
{
  double s = 0.0;

  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += (e->m[i][j] - (i == j)) * (e->m[i][j] - (i == j));
  return sqrt (s);
}

/* The rotation angle of a matrix from both its symmetric and skew parts. */
static double
matrix_angle (const Mat4 *e)
{
  double c = (e->m[0][0] + e->m[1][1] + e->m[2][2] - 1) / 2;
  double sx = e->m[2][1] - e->m[1][2], sy = e->m[0][2] - e->m[2][0], sz = e->m[1][0] - e->m[0][1];

  return atan2 (sqrt (sx * sx + sy * sy + sz * sz) / 2, c);
}

static double
matrix_value (NbRelation rel, const Mat4 *e)
{
  switch (rel)
    {
    case NB_REL_TRANS:
      return sqrt (e->m[0][3] * e->m[0][3] + e->m[1][3] * e->m[1][3] + e->m[2][3] * e->m[2][3]);
    case NB_REL_ROT_PART:
      return frob_minus_identity (e, 3);
    case NB_REL_FULL:
      return frob_minus_identity (e, 4);
    case NB_REL_ANGLE_RAD:
      return matrix_angle (e);
    case NB_REL_ANGLE_DEG:
      return matrix_angle (e) * 180 / G_PI;
    default:
      g_assert_not_reached ();
    }
}

static void
test_quat_mul_local (const double a[4], const double b[4], double out[4])
{
  /* Hamilton product written as scalar/vector parts. */
  double w = a[0] * b[0] - (a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  double cx = a[2] * b[3] - a[3] * b[2], cy = a[3] * b[1] - a[1] * b[3];
  double cz = a[1] * b[2] - a[2] * b[1];

  out[1] = a[0] * b[1] + b[0] * a[1] + cx;
  out[2] = a[0] * b[2] + b[0] * a[2] + cy;
  out[3] = a[0] * b[3] + b[0] * a[3] + cz;
  out[0] = w;
}

/* A smooth 3-D test trajectory: a figure of eight climbing slowly, the
 * orientation turning about a drifting axis. */
static void
ref_pose (double t, double p[3], double u[3], double *a)
{
  p[0] = 3 * cos (0.2 * t) + 10;
  p[1] = 1.5 * sin (0.4 * t) - 4;
  p[2] = 0.3 * sin (0.1 * t);
  u[0] = 0.2 * sin (0.05 * t), u[1] = 0.3, u[2] = 1.0;
  *a = 0.4 * t - 1.0;
}

/* Error poses D_k (axis, angle, translation) that vary with k. */
static void
error_pose (guint k, double u[3], double *a, double t[3])
{
  u[0] = sin (k * 0.7), u[1] = cos (k * 1.3), u[2] = 0.5 + 0.4 * sin (k * 0.11);
  *a = 0.01 + 0.2 * fabs (sin (k * 0.37));
  t[0] = 0.05 * sin (k * 0.5), t[1] = 0.03 * cos (k * 0.9), t[2] = 0.02 * sin (k * 0.23 + 1);
}

/* ref and est with est_k = ref_k·D_k⁻¹, so that E_k = est_k⁻¹·ref_k = D_k. */
static void
make_pair (guint n, NbTraj **ref_out, NbTraj **est_out, Mat4 **d_out)
{
  NbTraj *ref = nb_traj_new (n), *est = nb_traj_new (n);
  Mat4 *d = g_new (Mat4, n);

  for (guint k = 0; k < n; k++)
    {
      double t = 0.1 * k, p[3], u[3], a, qr[4], du[3], da, dt[3], qd[4], qdi[4], qe[4];
      Mat4 mr, me;

      ref_pose (t, p, u, &a);
      axis_angle_quat (u, a, qr);
      nb_traj_append (ref, t, p, qr);
      error_pose (k, du, &da, dt);
      d[k] = pose_matrix (du, da, dt);
      axis_angle_quat (du, da, qd);
      mr = pose_matrix (u, a, p);
      {
        Mat4 di = mat_inv (&d[k]);

        me = mat_mul (&mr, &di);
      }
      qdi[0] = qd[0], qdi[1] = -qd[1], qdi[2] = -qd[2], qdi[3] = -qd[3];
      test_quat_mul_local (qr, qdi, qe);
      nb_traj_append (est, t, (double[]) { me.m[0][3], me.m[1][3], me.m[2][3] }, qe);
    }
  *ref_out = ref, *est_out = est, *d_out = d;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Statistics the plain way: sort for the median, Σ for the rest. */
static void
check_stats (const double *e, guint n, const char *what)
{
  g_autofree double *s = g_memdup2 (e, n * sizeof (double));
  double sum = 0, sse = 0, var = 0, mean, median;
  NbErrorStats st;

  qsort (s, n, sizeof (double), cmp_double);
  for (guint k = 0; k < n; k++)
    sum += s[k], sse += s[k] * s[k];
  mean = sum / n;
  for (guint k = 0; k < n; k++)
    var += (s[k] - mean) * (s[k] - mean);
  median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  nb_error_stats (e, n, &st);
  g_assert_cmpuint (st.n, ==, n);
  nb_assert_rel (st.rmse, sqrt (sse / n), 1e-12, what);
  nb_assert_rel (st.mean, mean, 1e-12, what);
  nb_assert_rel (st.median, median, 0, what);
  nb_assert_abs (st.std, sqrt (var / n), 1e-12 * MAX (mean, 1e-300), what);
  nb_assert_rel (st.min, s[0], 0, what);
  nb_assert_rel (st.max, s[n - 1], 0, what);
  nb_assert_rel (st.sse, sse, 1e-12, what);
}

/* ---------------------------------------------------------------- tests -- */

static void
test_quat_small_angle (void)
{
  /* Near zero, acos((tr R − 1)/2) returns 0 or 1.5e-8 for any angle below
   * ~1e-8; the quaternion form keeps every digit. */
  for (double a = 1e-12; a < 1.0; a *= 7.3)
    {
      double q[4];

      axis_angle_quat ((double[]) { 1, 2, 3 }, a, q);
      nb_assert_rel (nb_quat_angle (q), a, 1e-14, "angle");
      /* −q is the same rotation */
      for (int i = 0; i < 4; i++)
        q[i] = -q[i];
      nb_assert_rel (nb_quat_angle (q), a, 1e-14, "angle of −q");
    }
}

static void
test_quat_slerp (void)
{
  /* A constant-rate turn about one axis: slerp between two of its samples
   * is the turn itself. */
  double u[3] = { 0.3, -1, 0.5 }, a0 = 0.2, a1 = 1.3, qa[4], qb[4], q[4], qx[4];

  axis_angle_quat (u, a0, qa);
  axis_angle_quat (u, a1, qb);
  for (double s = 0; s <= 1.0; s += 0.125)
    {
      nb_quat_slerp (qa, qb, s, q);
      axis_angle_quat (u, a0 + s * (a1 - a0), qx);
      for (int i = 0; i < 4; i++)
        nb_assert_abs (q[i], qx[i], 1e-15, "slerp");
    }
  /* the shorter arc when the signs differ */
  for (int i = 0; i < 4; i++)
    qb[i] = -qb[i];
  nb_quat_slerp (qa, qb, 0.5, q);
  axis_angle_quat (u, (a0 + a1) / 2, qx);
  nb_assert_rel (fabs (q[0] * qx[0] + q[1] * qx[1] + q[2] * qx[2] + q[3] * qx[3]), 1.0, 1e-15,
                 "slerp across the sign");
}

static void
test_ape_relations (void)
{
  const guint n = 501;
  NbTraj *ref, *est;
  g_autofree Mat4 *d = NULL;
  g_autofree double *err = g_new (double, n);
  NbRelation rels[] = { NB_REL_TRANS, NB_REL_ROT_PART, NB_REL_FULL, NB_REL_ANGLE_RAD,
                        NB_REL_ANGLE_DEG };

  make_pair (n, &ref, &est, &d);
  for (guint r = 0; r < G_N_ELEMENTS (rels); r++)
    {
      nb_traj_ape (ref, est, rels[r], err);
      for (guint k = 0; k < n; k++)
        {
          /* D_k is E_k by construction; also E_k recomputed from the stored
           * poses by matrices. */
          Mat4 me = traj_matrix (est, k), mr = traj_matrix (ref, k), inv = mat_inv (&me);
          Mat4 e = mat_mul (&inv, &mr);
          double du[3], da, dt[3];

          error_pose (k, du, &da, dt);
          nb_assert_rel (err[k], matrix_value (rels[r], &d[k]), 1e-9, nb_relation_name (rels[r]));
          nb_assert_rel (err[k], matrix_value (rels[r], &e), 1e-9, nb_relation_name (rels[r]));
          if (rels[r] == NB_REL_ANGLE_RAD)
            nb_assert_rel (err[k], da, 1e-9, "angle = the angle of D_k");
          if (rels[r] == NB_REL_TRANS)
            nb_assert_rel (err[k], sqrt (dt[0] * dt[0] + dt[1] * dt[1] + dt[2] * dt[2]), 1e-9,
                           "trans = ‖t(D_k)‖");
        }
      check_stats (err, n, nb_relation_name (rels[r]));
    }
  nb_traj_free (ref);
  nb_traj_free (est);
}

static void
test_planar_relations (void)
{
  /* Planar poses (x, y, heading): APE xy and yaw_deg, RPE xy and yaw_deg
   * against the 2-D closed forms. */
  const guint n = 300;
  g_autoptr (NbTraj) ref = nb_traj_new (n), est = nb_traj_new (n);
  g_autofree double *err = g_new (double, n);
  g_autoptr (GArray) pairs = NULL;
  double xr[300], yr[300], hr[300], xe[300], ye[300], he[300];

  for (guint k = 0; k < n; k++)
    {
      double t = 0.05 * k, q[4];

      xr[k] = 2 * sin (t), yr[k] = t, hr[k] = 3.0 * t - 2.5;   /* wraps several times */
      xe[k] = xr[k] + 0.1 * cos (k), ye[k] = yr[k] - 0.05 * sin (2.0 * k);
      he[k] = hr[k] + 0.3 * sin (0.7 * k);
      axis_angle_quat ((double[]) { 0, 0, 1 }, hr[k], q);
      nb_traj_append (ref, t, (double[]) { xr[k], yr[k], 0.2 * k }, q);
      axis_angle_quat ((double[]) { 0, 0, 1 }, he[k], q);
      nb_traj_append (est, t, (double[]) { xe[k], ye[k], -0.1 * k }, q);
    }
  nb_traj_ape (ref, est, NB_REL_XY, err);
  for (guint k = 0; k < n; k++)
    nb_assert_rel (err[k], sqrt (pow (xe[k] - xr[k], 2) + pow (ye[k] - yr[k], 2)), 1e-12, "APE xy");
  nb_traj_ape (ref, est, NB_REL_YAW_DEG, err);
  for (guint k = 0; k < n; k++)
    nb_assert_rel (err[k], fabs (0.3 * sin (0.7 * k)) * 180 / G_PI, 1e-9, "APE yaw_deg");

  pairs = nb_traj_rpe_pairs (est, 3, NB_DELTA_FRAMES, FALSE, NULL);
  g_assert_nonnull (pairs);
  for (int pass = 0; pass < 2; pass++)
    {
      NbRelation rel = pass ? NB_REL_YAW_DEG : NB_REL_XY;

      nb_traj_rpe (ref, est, (NbPosePair *) pairs->data, pairs->len, rel, err);
      for (guint k = 0; k < pairs->len; k++)
        {
          guint i = g_array_index (pairs, NbPosePair, k).i, j = i + 3;
          /* 2-D relative motions by 2×2 rotations */
          double qx = cos (hr[i]) * (xr[j] - xr[i]) + sin (hr[i]) * (yr[j] - yr[i]);
          double qy = -sin (hr[i]) * (xr[j] - xr[i]) + cos (hr[i]) * (yr[j] - yr[i]);
          double px = cos (he[i]) * (xe[j] - xe[i]) + sin (he[i]) * (ye[j] - ye[i]);
          double py = -sin (he[i]) * (xe[j] - xe[i]) + cos (he[i]) * (ye[j] - ye[i]);
          double dyaw = (he[j] - he[i]) - (hr[j] - hr[i]);

          if (rel == NB_REL_XY)
            nb_assert_rel (err[k], hypot (px - qx, py - qy), 1e-9, "RPE xy");
          else
            nb_assert_rel (err[k], fabs (atan2 (sin (dyaw), cos (dyaw))) * 180 / G_PI, 1e-9,
                           "RPE yaw_deg");
        }
    }
}

/* evo's consecutive pairs, written the way its documentation says. */
static GArray *
naive_pairs (const NbTraj *traj, double delta, NbDeltaUnit unit, gboolean all)
{
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (NbPosePair));
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint));

  if (unit == NB_DELTA_FRAMES && all)
    {
      for (guint i = 0; i < traj->n; i++)
        if (i + (guint) delta < traj->n)
          g_array_append_val (pairs, ((NbPosePair) { i, i + (guint) delta }));
      g_array_unref (ids);
      return pairs;
    }
  if (unit == NB_DELTA_FRAMES)
    for (guint i = 0; i < traj->n; i += (guint) delta)
      g_array_append_val (ids, i);
  else
    {
      double travelled = 0;

      for (guint i = 0; i < traj->n; i++)
        {
          guint prev = i == 0 ? 0 : i - 1;

          travelled += sqrt (pow (traj->p[3 * i] - traj->p[3 * prev], 2) +
                             pow (traj->p[3 * i + 1] - traj->p[3 * prev + 1], 2) +
                             pow (traj->p[3 * i + 2] - traj->p[3 * prev + 2], 2));
          if (travelled >= delta)
            {
              g_array_append_val (ids, i);
              travelled = 0;
            }
        }
    }
  for (guint k = 0; k + 1 < ids->len; k++)
    g_array_append_val (pairs, ((NbPosePair) { g_array_index (ids, guint, k),
                                               g_array_index (ids, guint, k + 1) }));
  g_array_unref (ids);
  return pairs;
}

static void
test_rpe_relations (void)
{
  const guint n = 400;
  NbTraj *ref, *est;
  g_autofree Mat4 *d = NULL;
  NbRelation rels[] = { NB_REL_TRANS, NB_REL_ROT_PART, NB_REL_FULL, NB_REL_ANGLE_RAD,
                        NB_REL_ANGLE_DEG };
  struct { double delta; NbDeltaUnit unit; gboolean all; } cases[] = {
    { 1, NB_DELTA_FRAMES, FALSE }, { 7, NB_DELTA_FRAMES, FALSE }, { 5, NB_DELTA_FRAMES, TRUE },
    { 0.5, NB_DELTA_METRES, FALSE }, { 2.0, NB_DELTA_METRES, FALSE },
  };

  make_pair (n, &ref, &est, &d);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GArray) pairs = nb_traj_rpe_pairs (est, cases[c].delta, cases[c].unit,
                                                    cases[c].all, &error);
      g_autoptr (GArray) expect = naive_pairs (est, cases[c].delta, cases[c].unit, cases[c].all);
      g_autofree double *err = NULL;

      g_assert_no_error (error);
      g_assert_cmpuint (pairs->len, ==, expect->len);
      g_assert_cmpuint (pairs->len, >, 10);
      g_assert_cmpmem (pairs->data, pairs->len * sizeof (NbPosePair), expect->data,
                       expect->len * sizeof (NbPosePair));
      err = g_new (double, pairs->len);
      for (guint r = 0; r < G_N_ELEMENTS (rels); r++)
        {
          nb_traj_rpe (ref, est, (NbPosePair *) pairs->data, pairs->len, rels[r], err);
          for (guint k = 0; k < pairs->len; k++)
            {
              NbPosePair pr = g_array_index (pairs, NbPosePair, k);
              Mat4 qi = traj_matrix (ref, pr.i), qj = traj_matrix (ref, pr.j);
              Mat4 pi = traj_matrix (est, pr.i), pj = traj_matrix (est, pr.j);
              Mat4 qii = mat_inv (&qi), pii = mat_inv (&pi);
              Mat4 qrel = mat_mul (&qii, &qj), prel = mat_mul (&pii, &pj);
              Mat4 qreli = mat_inv (&qrel), e = mat_mul (&qreli, &prel);

              nb_assert_rel (err[k], matrix_value (rels[r], &e), 1e-9, nb_relation_name (rels[r]));
            }
          check_stats (err, pairs->len, nb_relation_name (rels[r]));
        }
    }
  {
    g_autoptr (GError) error = NULL;

    g_assert_null (nb_traj_rpe_pairs (est, 1e6, NB_DELTA_METRES, FALSE, &error));
    g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
    g_clear_error (&error);
    g_assert_null (nb_traj_rpe_pairs (est, 1.5, NB_DELTA_FRAMES, FALSE, &error));
    g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  }
  nb_traj_free (ref);
  nb_traj_free (est);
}

static void
test_stats (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (guint n = 1; n < 60; n++)
    for (int round = 0; round < 20; round++)
      {
        g_autofree double *e = g_new (double, n);

        /* few distinct values: runs of equal errors */
        for (guint k = 0; k < n; k++)
          e[k] = round % 2 ? g_rand_double (rand) : (double) g_rand_int_range (rand, 0, 4);
        check_stats (e, n, "stats");
      }
  {
    /* a hand-worked case: e = 1, 2, 3, 4 */
    NbErrorStats st;

    nb_error_stats ((double[]) { 4, 1, 3, 2 }, 4, &st);
    nb_assert_rel (st.median, 2.5, 0, "median");
    nb_assert_rel (st.std, sqrt (1.25), 1e-15, "population std");
    nb_assert_rel (st.rmse, sqrt (7.5), 1e-15, "rmse");
    nb_assert_rel (st.sse, 30, 0, "sse");
  }
  g_rand_free (rand);
}

/* --------------------------------------------------------- association -- */

typedef struct {
  GArray *ref_idx, *est_idx;
  NbDropCount est_dropped, ref_unused;
} Naive;

static void
naive_count (NbDropCount *c, double s, double lo, double hi, double tmax)
{
  if (s < lo - tmax)
    c->before++;
  else if (s > hi + tmax)
    c->after++;
  else
    c->inside++;
}

/* evo's matching_time_indices, O(n·m): argmin over all for every stamp. */
static Naive
naive_associate (const NbTraj *ref, const NbTraj *est, double tmax, double off)
{
  gboolean est_longer = est->n > ref->n;
  const NbTraj *s = est_longer ? ref : est, *l = est_longer ? est : ref;
  double o = est_longer ? off : -off;
  Naive r = { g_array_new (FALSE, FALSE, sizeof (guint)), g_array_new (FALSE, FALSE, sizeof (guint)) };
  g_autofree gboolean *used = g_new0 (gboolean, l->n);
  NbDropCount sd = { 0 }, ld = { 0 };

  for (guint i = 0; i < s->n; i++)
    {
      guint best = 0;

      for (guint j = 1; j < l->n; j++)
        if (fabs ((l->t[j] + o) - s->t[i]) < fabs ((l->t[best] + o) - s->t[i]))
          best = j;
      if (fabs ((l->t[best] + o) - s->t[i]) <= tmax)
        {
          g_array_append_val (est_longer ? r.ref_idx : r.est_idx, i);
          g_array_append_val (est_longer ? r.est_idx : r.ref_idx, best);
          used[best] = TRUE;
        }
      else
        naive_count (&sd, s->t[i], l->t[0] + o, l->t[l->n - 1] + o, tmax);
    }
  for (guint j = 0; j < l->n; j++)
    if (!used[j])
      naive_count (&ld, l->t[j] + o, s->t[0], s->t[s->n - 1], tmax);
  r.est_dropped = est_longer ? ld : sd;
  r.ref_unused = est_longer ? sd : ld;
  return r;
}

/* A series at rate hz from t0 to t1 with stamp jitter and gaps. */
static NbTraj *
series (GRand *rand, double t0, double t1, double hz, double jitter, double gap_from,
        double gap_to)
{
  NbTraj *traj = nb_traj_new (64);
  double q[4] = { 1, 0, 0, 0 };

  for (guint k = 0;; k++)
    {
      double t = t0 + k / hz + g_rand_double_range (rand, -jitter, jitter);

      if (t > t1)
        break;
      if (t >= gap_from && t < gap_to)
        continue;
      if (traj->n > 0 && t <= traj->t[traj->n - 1])
        continue;
      nb_traj_append (traj, t, (double[]) { t, 2 * t, 0 }, q);
    }
  return traj;
}

static void
test_associate_vs_brute_force (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  struct { double r0, r1, rhz, e0, e1, ehz, jitter, gap0, gap1, off, tmax; } cases[] = {
    { 0, 10, 100, 0, 10, 100, 0, 0, 0, 0, 0.01 },          /* same stamps */
    { 0, 10, 120, 0.5, 12, 30, 0.002, 0, 0, 0, 0.01 },     /* different rates, overhang */
    { 0, 10, 30, 0, 10, 200, 0.001, 0, 0, 0, 0.01 },       /* estimate faster */
    { 0, 20, 100, 0, 20, 50, 0.004, 5, 7.5, 0, 0.005 },    /* jitter, a gap */
    { 100, 110, 100, 0, 12, 100, 0.003, 3, 4, 100.2, 0.01 }, /* clock offset */
    { 0, 10, 100, 0, 10, 100, 0.0, 0, 0, 0.005, 0.01 },    /* ties: offset of half a period */
    { 0, 10, 40, 2, 30, 40, 0.01, 0, 0, -1.5, 0.02 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (int swap = 0; swap < 2; swap++)
      {
        g_autoptr (NbTraj) ref = series (rand, cases[c].r0, cases[c].r1, cases[c].rhz,
                                         cases[c].jitter, cases[c].gap0, cases[c].gap1);
        g_autoptr (NbTraj) est = series (rand, cases[c].e0, cases[c].e1, cases[c].ehz,
                                         cases[c].jitter, 0, 0);
        g_autoptr (NbTraj) rm = NULL, em = NULL;
        g_autoptr (GError) error = NULL;
        NbAssocReport rep;
        Naive nv;

        if (swap)
          {
            NbTraj *tmp = ref;

            ref = est, est = tmp;
          }
        nv = naive_associate (ref, est, cases[c].tmax, swap ? -cases[c].off : cases[c].off);
        g_assert_true (nb_traj_associate (ref, est, cases[c].tmax,
                                          swap ? -cases[c].off : cases[c].off, &rm, &em, &rep,
                                          &error));
        g_assert_no_error (error);
        g_assert_cmpuint (rep.n_matched, ==, nv.ref_idx->len);
        g_assert_cmpuint (rep.n_matched, >, 0);
        for (guint k = 0; k < rep.n_matched; k++)
          {
            g_assert_cmpfloat (rm->t[k], ==, ref->t[g_array_index (nv.ref_idx, guint, k)]);
            g_assert_cmpfloat (em->t[k], ==, est->t[g_array_index (nv.est_idx, guint, k)]);
            g_assert_cmpfloat (em->p[3 * k + 1], ==, 2 * em->t[k]);
          }
        g_assert_cmpmem (&rep.est_dropped, sizeof (NbDropCount), &nv.est_dropped,
                         sizeof (NbDropCount));
        g_assert_cmpmem (&rep.ref_unused, sizeof (NbDropCount), &nv.ref_unused,
                         sizeof (NbDropCount));
        /* every estimate pose is matched or dropped, with a reason */
        if (est->n <= ref->n)
          g_assert_cmpuint (rep.n_matched + nb_drop_count_total (&rep.est_dropped), ==, est->n);
        g_array_unref (nv.ref_idx);
        g_array_unref (nv.est_idx);
      }
  g_rand_free (rand);
}

static void
test_associate_counts (void)
{
  /* A hand-counted case: reference 0..9 s at 1 Hz; estimate at 0.5 Hz from
   * −3 s to 13 s, and 4.5 s (no partner within 0.1 s). */
  g_autoptr (NbTraj) ref = nb_traj_new (10), est = nb_traj_new (10);
  g_autoptr (NbTraj) rm = NULL, em = NULL;
  g_autoptr (GError) error = NULL;
  double q[4] = { 1, 0, 0, 0 }, p[3] = { 0 };
  double et[] = { -3, -1, 1, 3, 4.5, 5, 7, 9, 11, 13 };
  NbAssocReport rep;

  for (int k = 0; k < 10; k++)
    nb_traj_append (ref, k, p, q);
  for (guint k = 0; k < G_N_ELEMENTS (et); k++)
    nb_traj_append (est, et[k], p, q);
  g_assert_true (nb_traj_associate (ref, est, 0.1, 0.0, &rm, &em, &rep, &error));
  g_assert_cmpuint (rep.n_matched, ==, 5);              /* 1, 3, 5, 7, 9 */
  g_assert_cmpuint (rep.est_dropped.before, ==, 2);     /* −3, −1 */
  g_assert_cmpuint (rep.est_dropped.after, ==, 2);      /* 11, 13 */
  g_assert_cmpuint (rep.est_dropped.inside, ==, 1);     /* 4.5 */
  g_assert_cmpuint (rep.ref_unused.before, ==, 0);      /* est spans −3..13 */
  g_assert_cmpuint (rep.ref_unused.inside, ==, 5);      /* 0, 2, 4, 6, 8 */

  /* no overlap at all */
  g_clear_pointer (&rm, nb_traj_free);
  g_clear_pointer (&em, nb_traj_free);
  g_assert_false (nb_traj_associate (ref, est, 0.1, 100.0, &rm, &em, &rep, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "no overlap in time"));
}

static void
test_interpolate (void)
{
  /* Reference at 20 Hz of a constant-velocity, constant-rate turn about one
   * axis, with a 1 s gap; the estimate at 33 Hz with an offset.  Linear
   * interpolation and slerp are then exact. */
  g_autoptr (NbTraj) ref = nb_traj_new (64), est = nb_traj_new (64);
  g_autoptr (NbTraj) rm = NULL, em = NULL;
  g_autoptr (GError) error = NULL;
  double u[3] = { 0.2, -0.4, 1 }, off = 0.0123, gap_lo = 0, gap_hi = 0;
  guint before = 0, after = 0, gap = 0, inside = 0;
  NbAssocReport rep;

  for (guint k = 0; k <= 200; k++)
    {
      double t = 1.0 + k * 0.05, q[4];

      if (t > 4.0 && t < 5.0)
        continue;
      axis_angle_quat (u, 0.7 * t, q);
      nb_traj_append (ref, t, (double[]) { 1 + 2 * t, -t, 0.5 * t }, q);
    }
  /* the one reference interval longer than 0.1 s (its ends as stored) */
  for (guint k = 0; k + 1 < ref->n; k++)
    if (ref->t[k + 1] - ref->t[k] > 0.1)
      gap_lo = ref->t[k], gap_hi = ref->t[k + 1];
  g_assert_cmpfloat (gap_hi - gap_lo, >, 0.9);
  for (guint k = 0; k < 400; k++)
    {
      double t = k / 33.0, tau = t + off, q[4] = { 1, 0, 0, 0 };

      nb_traj_append (est, t, (double[]) { 0, 0, 0 }, q);
      if (tau < 1.0)
        before++;
      else if (tau > 11.0)
        after++;
      else if (tau > gap_lo && tau < gap_hi)
        gap++;
      else
        inside++;
    }
  g_assert_true (nb_traj_interpolate (ref, est, 0.1, off, &rm, &em, &rep, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (rep.n_matched, ==, inside);
  g_assert_cmpuint (rep.est_dropped.before, ==, before);
  g_assert_cmpuint (rep.est_dropped.after, ==, after);
  g_assert_cmpuint (rep.est_dropped.inside, ==, gap);
  for (guint k = 0; k < rm->n; k++)
    {
      double t = rm->t[k], q[4];

      nb_assert_rel (t, em->t[k] + off, 1e-15, "stamp");
      nb_assert_rel (rm->p[3 * k], 1 + 2 * t, 1e-12, "x");
      nb_assert_rel (rm->p[3 * k + 1], -t, 1e-12, "y");
      nb_assert_rel (rm->p[3 * k + 2], 0.5 * t, 1e-12, "z");
      axis_angle_quat (u, 0.7 * t, q);
      for (int i = 0; i < 4; i++)
        nb_assert_abs (rm->q[4 * k + i], q[i], 1e-12, "slerp");
    }
}

/* ------------------------------------------------------------ alignment -- */

/* Horn's closed form (1987): R is the eigenvector of the largest eigenvalue
 * of a symmetric 4×4 matrix built from the cross-covariance — no SVD. */
static void
horn_rotation (const NbTraj *ref, const NbTraj *est, double r[9])
{
  double mx[3] = { 0 }, my[3] = { 0 }, s[3][3] = { { 0 } }, q[4];
  gsl_matrix *n4 = gsl_matrix_alloc (4, 4), *evec = gsl_matrix_alloc (4, 4);
  gsl_vector *eval = gsl_vector_alloc (4);
  gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc (4);

  for (guint k = 0; k < est->n; k++)
    for (int a = 0; a < 3; a++)
      mx[a] += est->p[3 * k + a] / est->n, my[a] += ref->p[3 * k + a] / est->n;
  for (guint k = 0; k < est->n; k++)
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        s[a][b] += (est->p[3 * k + a] - mx[a]) * (ref->p[3 * k + b] - my[b]);
  {
    double m[4][4] = {
      { s[0][0] + s[1][1] + s[2][2], s[1][2] - s[2][1], s[2][0] - s[0][2], s[0][1] - s[1][0] },
      { s[1][2] - s[2][1], s[0][0] - s[1][1] - s[2][2], s[0][1] + s[1][0], s[2][0] + s[0][2] },
      { s[2][0] - s[0][2], s[0][1] + s[1][0], -s[0][0] + s[1][1] - s[2][2], s[1][2] + s[2][1] },
      { s[0][1] - s[1][0], s[2][0] + s[0][2], s[1][2] + s[2][1], -s[0][0] - s[1][1] + s[2][2] },
    };
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++)
        gsl_matrix_set (n4, i, j, m[i][j]);
  }
  gsl_eigen_symmv (n4, eval, evec, w);
  gsl_eigen_symmv_sort (eval, evec, GSL_EIGEN_SORT_VAL_DESC);
  for (int i = 0; i < 4; i++)
    q[i] = gsl_matrix_get (evec, i, 0);
  {
    Mat4 m;
    double u[3] = { q[1], q[2], q[3] }, vn = sqrt (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);

    m = pose_matrix (u, 2 * atan2 (vn, q[0]), (double[]) { 0, 0, 0 });
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        r[3 * a + b] = m.m[a][b];
  }
  gsl_matrix_free (n4);
  gsl_matrix_free (evec);
  gsl_vector_free (eval);
  gsl_eigen_symmv_free (w);
}

static void
test_align_known_transform (void)
{
  /* est = T⁻¹(ref) for a known Sim(3) T: the fit recovers T and the APE
   * after alignment vanishes. */
  const guint n = 200;
  NbTraj *ref, *est;
  g_autofree Mat4 *d = NULL;
  double u[3] = { 0.3, 1, -0.2 }, a = 2.1, t[3] = { 4, -7, 1.5 }, s = 1.7;
  Mat4 tm = pose_matrix (u, a, t);
  NbSim3 x;
  g_autoptr (GError) error = NULL;
  g_autofree double *err = g_new (double, n);

  make_pair (n, &ref, &est, &d);
  /* replace est by T⁻¹(ref): p = R⁻¹(p_ref − t)/s, q = q_T⁻¹·q_ref */
  for (guint k = 0; k < n; k++)
    {
      double qt[4], qti[4];

      for (int b = 0; b < 3; b++)
        {
          double v = 0;

          for (int c = 0; c < 3; c++)
            v += tm.m[c][b] * (ref->p[3 * k + c] - t[c]);
          est->p[3 * k + b] = v / s;
        }
      axis_angle_quat (u, a, qt);
      qti[0] = qt[0], qti[1] = -qt[1], qti[2] = -qt[2], qti[3] = -qt[3];
      test_quat_mul_local (qti, ref->q + 4 * k, est->q + 4 * k);
    }
  g_assert_true (nb_traj_umeyama (ref, est, NB_ALIGN_SIM3, &x, &error));
  g_assert_no_error (error);
  nb_assert_rel (x.s, s, 1e-12, "scale");
  for (int i = 0; i < 3; i++)
    {
      nb_assert_abs (x.t[i], t[i], 1e-10, "translation");
      for (int j = 0; j < 3; j++)
        nb_assert_abs (x.r[3 * i + j], tm.m[i][j], 1e-12, "rotation");
    }
  nb_traj_transform (est, &x);
  nb_traj_ape (ref, est, NB_REL_FULL, err);
  for (guint k = 0; k < n; k++)
    nb_assert_abs (err[k], 0.0, 1e-10, "APE full after Sim(3) alignment");

  /* origin alignment maps the first pose exactly */
  nb_traj_origin (ref, est, &x);
  nb_traj_transform (est, &x);
  for (int i = 0; i < 3; i++)
    nb_assert_abs (est->p[i], ref->p[i], 1e-12, "origin");
  nb_traj_free (ref);
  nb_traj_free (est);
}

static void
test_align_vs_independent (void)
{
  /* Noisy pairs: the SVD fit against Horn's quaternion fit (SE3), the
   * closed-form scale given R (Sim3) and the 2-D Procrustes angle (SE2). */
  const guint n = 300;
  NbTraj *ref, *est;
  g_autofree Mat4 *d = NULL;
  NbSim3 x3, xs, x2;
  double rh[9], mx[3] = { 0 }, my[3] = { 0 }, num = 0, den = 0, sxy = 0, sxx = 0;

  make_pair (n, &ref, &est, &d);
  for (guint k = 0; k < n; k++)
    {
      est->p[3 * k] = 0.8 * est->p[3 * k] + 0.3 * est->p[3 * k + 1] + 2;
      est->p[3 * k + 2] += 0.1 * est->p[3 * k];
    }
  g_assert_true (nb_traj_umeyama (ref, est, NB_ALIGN_SE3, &x3, NULL));
  g_assert_true (nb_traj_umeyama (ref, est, NB_ALIGN_SIM3, &xs, NULL));
  g_assert_true (nb_traj_umeyama (ref, est, NB_ALIGN_SE2, &x2, NULL));
  horn_rotation (ref, est, rh);
  for (int i = 0; i < 9; i++)
    {
      nb_assert_abs (x3.r[i], rh[i], 1e-9, "SE3 rotation vs Horn");
      nb_assert_abs (xs.r[i], rh[i], 1e-9, "Sim3 rotation vs Horn");
    }
  for (guint k = 0; k < n; k++)
    for (int a = 0; a < 3; a++)
      mx[a] += est->p[3 * k + a] / n, my[a] += ref->p[3 * k + a] / n;
  for (guint k = 0; k < n; k++)
    {
      double xc[3], yc[3];

      for (int a = 0; a < 3; a++)
        xc[a] = est->p[3 * k + a] - mx[a], yc[a] = ref->p[3 * k + a] - my[a];
      for (int a = 0; a < 3; a++)
        {
          double rx = rh[3 * a] * xc[0] + rh[3 * a + 1] * xc[1] + rh[3 * a + 2] * xc[2];

          num += yc[a] * rx;
          den += xc[a] * xc[a];
        }
      sxy += xc[0] * yc[1] - xc[1] * yc[0];
      sxx += xc[0] * yc[0] + xc[1] * yc[1];
    }
  nb_assert_rel (xs.s, num / den, 1e-9, "Sim3 scale");
  nb_assert_rel (x3.s, 1.0, 0, "SE3 has no scale");
  for (int a = 0; a < 3; a++)
    {
      double rmx = 0;

      for (int b = 0; b < 3; b++)
        rmx += rh[3 * a + b] * mx[b];
      nb_assert_rel (x3.t[a], my[a] - rmx, 1e-9, "SE3 translation");
      nb_assert_rel (xs.t[a], my[a] - num / den * rmx, 1e-9, "Sim3 translation");
    }
  {
    double th = atan2 (sxy, sxx);

    nb_assert_rel (atan2 (x2.r[3], x2.r[0]), th, 1e-9, "SE2 angle");
    nb_assert_abs (x2.r[8], 1.0, 0, "SE2 keeps z");
    nb_assert_abs (x2.t[2], 0.0, 0, "SE2 keeps z");
    nb_assert_rel (x2.t[0], my[0] - (cos (th) * mx[0] - sin (th) * mx[1]), 1e-9, "SE2 tx");
    nb_assert_rel (x2.t[1], my[1] - (sin (th) * mx[0] + cos (th) * mx[1]), 1e-9, "SE2 ty");
  }
  nb_traj_free (ref);
  nb_traj_free (est);
}

static void
test_align_errors (void)
{
  g_autoptr (NbTraj) a = nb_traj_new (4), b = nb_traj_new (4);
  g_autoptr (GError) error = NULL;
  double q[4] = { 1, 0, 0, 0 };
  NbSim3 x;

  for (int k = 0; k < 2; k++)
    {
      nb_traj_append (a, k, (double[]) { k, 0, 0 }, q);
      nb_traj_append (b, k, (double[]) { 0, k, 0 }, q);
    }
  g_assert_false (nb_traj_umeyama (a, b, NB_ALIGN_SE3, &x, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "at least 3"));
  g_clear_error (&error);
  nb_traj_append (a, 2, (double[]) { 2, 0, 0 }, q);
  nb_traj_append (b, 2, (double[]) { 0, 2, 0 }, q);
  g_assert_false (nb_traj_umeyama (a, b, NB_ALIGN_SE3, &x, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "one line"));
  g_clear_error (&error);
  /* the same points in the plane: SE2 turns the x line onto the y line */
  g_assert_true (nb_traj_umeyama (a, b, NB_ALIGN_SE2, &x, &error));
  nb_assert_abs (x.r[0], 0.0, 1e-15, "cos 90°");
  nb_assert_abs (x.r[3], -1.0, 1e-15, "−90°: the estimate y line onto the reference x line");
}

static void
test_transform_parse (void)
{
  g_autoptr (GError) error = NULL;
  NbSim3 x;
  double c = cos (0.5), s = sin (0.5);
  g_autofree char *four = g_strdup_printf ("# survey 2026-11-29\n%.17g %.17g 0 1.5\n"
                                           "%.17g, %.17g, 0, -2\n0 0 1 0.25\n\n0 0 0 1\n",
                                           c, -s, s, c);
  g_autofree char *three = g_strdup_printf ("%.17g %.17g 3\n%.17g %.17g 4\n0 0 1\n", c, -s, s, c);

  g_assert_true (nb_sim3_parse ("T.txt", four, &x, &error));
  g_assert_no_error (error);
  nb_assert_rel (x.r[0], c, 1e-15, "r00");
  nb_assert_rel (x.r[3], s, 1e-15, "r10");
  nb_assert_rel (x.t[0], 1.5, 0, "tx");
  nb_assert_rel (x.t[1], -2, 0, "ty");
  nb_assert_rel (x.t[2], 0.25, 0, "tz");
  g_assert_true (nb_sim3_parse ("T.txt", three, &x, &error));
  nb_assert_rel (x.t[1], 4, 0, "planar ty");
  nb_assert_abs (x.t[2], 0, 0, "planar tz");
  nb_assert_abs (x.r[8], 1, 1e-15, "planar r22");

  /* Empty, blank, comments only: a stack-buffer-overflow write before (#21). */
  {
    static const char *const empty[] = { "", "\n\n", "  \t\n \r\n", "# a comment\n# another\n",
                                         ", ,\n" };

    for (guint i = 0; i < G_N_ELEMENTS (empty); i++)
      {
        g_assert_false (nb_sim3_parse ("T.txt", empty[i], &x, &error));
        g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
        g_assert_cmpstr (error->message, ==, "T.txt: no numbers; a transform is 3 rows of 3 "
                         "numbers or 4 rows of 4");
        g_clear_error (&error);
      }
  }
  g_assert_false (nb_sim3_parse ("T.txt", "1 0 0\n0 2 0\n0 0 1\n", &x, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "not a rotation"));
  g_clear_error (&error);
  g_assert_false (nb_sim3_parse ("T.txt", "1 0 0\n0 1 0 0\n0 0 1\n", &x, &error));
  g_assert_nonnull (strstr (error->message, "T.txt:2:"));
  g_clear_error (&error);
  g_assert_false (nb_sim3_parse ("T.txt", "1 0 0\n0 1 0\n1 0 1\n", &x, &error));
  g_assert_nonnull (strstr (error->message, "T.txt:3: the last row"));
}

/* -------------------------------------------------------------- readers -- */

static void
test_tum_reader (void)
{
  const char *text = "# t x y z qx qy qz qw\n"
                     "1.0 1 2 3 0 0 0 1\n"
                     "\n"
                     "1.5\t4\t5\t6\t0\t0\t0.70710678118654752\t0.70710678118654752\n"
                     "2.0,7,8,9,0,0,0,1.0000005\n"
                     "2.5 1e1 -2.5e-1 .5 0 0 0 1";
  g_autoptr (GError) error = NULL;
  NbTrajReadInfo info;
  g_autoptr (NbTraj) traj = nb_traj_read_data ("a.tum", text, strlen (text),
                                               NB_TRAJ_FORMAT_AUTO, &info, &error);

  g_assert_no_error (error);
  g_assert_cmpint (info.format, ==, NB_TRAJ_FORMAT_TUM);
  g_assert_cmpuint (traj->n, ==, 4);
  nb_assert_rel (traj->t[1], 1.5, 0, "t");
  nb_assert_rel (traj->p[3 * 3], 10, 0, "1e1");
  nb_assert_rel (traj->p[3 * 3 + 1], -0.25, 0, "-2.5e-1");
  nb_assert_rel (traj->q[4 * 1], sqrt (0.5), 1e-15, "w moved first");
  nb_assert_rel (traj->q[4 * 1 + 3], sqrt (0.5), 1e-15, "qz");
  g_assert_cmpuint (info.n_normalised, ==, 0);   /* 5e-7 is within 1e-6 */
  g_assert_true (traj->has_orientation);
}

static void
expect_read_error (const char *text, const char *message)
{
  g_autoptr (GError) error = NULL;
  NbTrajReadInfo info;
  NbTraj *traj = nb_traj_read_data ("b.txt", text, strlen (text), NB_TRAJ_FORMAT_AUTO, &info,
                                    &error);

  g_assert_null (traj);
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  if (strstr (error->message, message) == NULL)
    g_error ("'%s' does not contain '%s'", error->message, message);
}

static void
test_reader_errors (void)
{
  expect_read_error ("1 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 1\n1.5 0 0 0 0 0 0 1\n",
                     "b.txt:3: timestamp 1.5 is before 2 on line 2: the stamps must be sorted");
  expect_read_error ("# h\n1 0 0 0 0 0 0 1\n1 0 0 0 0 0 0 1\n",
                     "b.txt:3: duplicate timestamp 1 (also on line 2)");
  expect_read_error ("1 0 0 0 0 0 0 0.9\n", "b.txt:1: the quaternion has norm 0.9");
  expect_read_error ("1 0 0 0 0 0 1\n", "b.txt:1: too few fields");
  expect_read_error ("1 0 0 0 0 0 0 1 7\n", "b.txt:1: more than 8 fields");
  expect_read_error ("1 0 0 x 0 0 0 1\n", "b.txt:1: field 4 'x' is not a finite number");
  expect_read_error ("# only comments\n", "b.txt: no poses");
  expect_read_error ("t_s,x_mm\n1,2\n", "y_mm");
  expect_read_error ("t_s,x_mm,y_mm,qx,qy,qz\n1,2,3,0,0,0\n", "all four columns");
  expect_read_error ("t_s,x_mm,y_mm,theta_deg\n1,0,0,0\n0.5,0,0,0\n", "b.txt:3: timestamp 0.5");

  {
    /* normalised with a count beyond 1e-6, refused beyond 1e-2 */
    const char *text = "1 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 1.00001\n3 0 0 0 0 0 0 1.005\n";
    NbTrajReadInfo info;
    g_autoptr (NbTraj) traj = nb_traj_read_data ("c.tum", text, strlen (text),
                                                 NB_TRAJ_FORMAT_TUM, &info, NULL);

    g_assert_nonnull (traj);
    g_assert_cmpuint (info.n_normalised, ==, 2);
    g_assert_cmpuint (info.first_normalised_line, ==, 2);
    nb_assert_rel (info.worst_norm_dev, 0.005, 1e-12, "worst");
    nb_assert_rel (traj->q[8], 1.0, 0, "normalised");
  }
}

static void
test_csv_track (void)
{
  const char *text = "# Name: run 3\nt_s,x_mm,y_mm,theta_deg,z_mm\n"
                     "0.0,1000,-500,90,20\n0.1,1500,-400,-30,20\n";
  const char *quat = "t_s,x_mm,y_mm,qw,qx,qy,qz\n5,1,2,1,0,0,0\n";
  const char *bare = "\xef\xbb\xbft_s,x_mm,y_mm\n5,1,2\n6,1,3\n";   /* with a BOM */
  g_autoptr (GError) error = NULL;
  NbTrajReadInfo info;
  g_autoptr (NbTraj) a = nb_traj_read_data ("a.csv", text, strlen (text), NB_TRAJ_FORMAT_AUTO,
                                            &info, &error);
  g_autoptr (NbTraj) b = NULL, c = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (info.format, ==, NB_TRAJ_FORMAT_CSV);
  g_assert_cmpuint (a->n, ==, 2);
  nb_assert_rel (a->p[0], 1.0, 0, "mm → m");
  nb_assert_rel (a->p[1], -0.5, 0, "mm → m");
  nb_assert_rel (a->p[2], 0.02, 1e-15, "z mm → m");
  nb_assert_rel (nb_quat_yaw (a->q), G_PI / 2, 1e-15, "theta 90°");
  nb_assert_rel (nb_quat_yaw (a->q + 4), -G_PI / 6, 1e-15, "theta −30°");
  b = nb_traj_read_data ("b.csv", quat, strlen (quat), NB_TRAJ_FORMAT_AUTO, &info, &error);
  g_assert_no_error (error);
  nb_assert_rel (b->q[0], 1, 0, "qw");
  g_assert_true (b->has_orientation);
  c = nb_traj_read_data ("c.csv", bare, strlen (bare), NB_TRAJ_FORMAT_AUTO, &info, &error);
  g_assert_no_error (error);
  g_assert_false (c->has_orientation);
  nb_assert_abs (c->p[2], 0, 0, "z absent → 0");
}

/* A file read twice, with its orientations and for its positions alone
 * (NB_TRAJ_READ_POSITIONS): the same poses bit for bit, the same checks. */
static NbTraj *
read_file (const char *path, NbTrajReadFlags flags, NbTrajReadInfo *info, GError **error)
{
  return nb_traj_read_path_with (path, NB_TRAJ_FORMAT_AUTO, flags, info, error);
}

static void
assert_same_positions (const char *path, guint n_expected)
{
  g_autoptr (GError) error = NULL;
  NbTrajReadInfo ia, ib;
  g_autoptr (NbTraj) a = read_file (path, NB_TRAJ_READ_ALL, &ia, &error);
  g_autoptr (NbTraj) b = NULL;

  g_assert_no_error (error);
  b = read_file (path, NB_TRAJ_READ_POSITIONS, &ib, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (a->n, ==, n_expected);
  g_assert_cmpuint (b->n, ==, a->n);
  g_assert_nonnull (a->q);
  g_assert_null (b->q);
  g_assert_cmpint (b->has_orientation, ==, a->has_orientation);
  g_assert_cmpmem (a->t, a->n * sizeof (double), b->t, b->n * sizeof (double));
  g_assert_cmpmem (a->p, 3 * a->n * sizeof (double), b->p, 3 * b->n * sizeof (double));
  g_assert_cmpint (ia.format, ==, ib.format);
  g_assert_cmpuint (ia.n_normalised, ==, ib.n_normalised);
  g_assert_cmpuint (ia.first_normalised_line, ==, ib.first_normalised_line);
  g_assert_cmpfloat (ia.worst_norm_dev, ==, ib.worst_norm_dev);
}

static void
expect_positions_error (const char *path, const char *message)
{
  g_autoptr (GError) error = NULL;
  NbTrajReadInfo info;
  NbTraj *traj = read_file (path, NB_TRAJ_READ_POSITIONS, &info, &error);

  g_assert_null (traj);
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  if (strstr (error->message, message) == NULL)
    g_error ("'%s' does not contain '%s'", error->message, message);
}

static void
test_read_positions (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-traj-XXXXXX", NULL);
  g_autofree char *tum = g_build_filename (dir, "a.tum", NULL);
  g_autofree char *csv = g_build_filename (dir, "b.csv", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.tum", NULL);
  /* Norms about the two thresholds (1e-6 counted, 1e-2 refused), each side. */
  const double devs[] = { 0, 3e-7, 9e-7, 9.4e-7, 9.6e-7, 9.9e-7, 1e-6, 1.01e-6, 1.9e-6, -9e-7,
                          -9.9e-7, -1.01e-6, -2e-6, 5e-3, -5e-3, 9.9e-3, -9.9e-3 };
  GString *text = g_string_new ("# t x y z qx qy qz qw\n");
  GRand *rand = g_rand_new_with_seed (20);
  guint n = 0;
  struct { const char *text, *message; } errors[] = {
    { "0 1 2 3 0 0 0 1\n0.1 1 2 3 0 0 0 0.5\n", ":2: the quaternion has norm 0.5" },
    { "0 1 2 3 0 0 0 1\n0.1 1 2 3 0 0 0 1.011\n", ":2: the quaternion has norm 1.011" },
    { "0 1 2 3 0 0 0 1\n0.1 1 2 3 0 0 0 nan\n", ":2: field 8 'nan' is not a finite number" },
    { "0 1 2 3 0 0 0 1\n0.1 1 2 3 0 0", ":2: too few fields" },     /* cut short */
    { "0 1 2 3 0 0 0 1\n0.1 1 2 3 0 0 0 0.", ":2: the quaternion has norm 0" },
    { "0 1 2 3 0 0 0 1\n0 1 2 3 0 0 0 1\n", ":2: duplicate timestamp 0" },
    { "", ": no poses in the file" },
    { "# comments only\n\n", ": no poses in the file" },
  };

  /* Numbers of every shape the readers take apart, and quaternions of
   * every norm about the thresholds, over more than one 8 MiB window's
   * worth of lines would be slow here: 40 000 lines. */
  for (guint k = 0; k < 40000; k++)
    {
      double dev = devs[k % G_N_ELEMENTS (devs)], a = g_rand_double_range (rand, 0, 6.28);
      double b = g_rand_double_range (rand, 0, 3.14), nq = 1.0 + dev;
      double v[8] = { 1.7e9 + k * 0.01, g_rand_double_range (rand, -1e3, 1e3),
                      g_rand_double_range (rand, -1, 1), g_rand_double_range (rand, -50, 50),
                      nq * sin (b) * cos (a), nq * sin (b) * sin (a), nq * cos (b) * 0.6,
                      nq * cos (b) * 0.8 };

      if (k % 1000 == 999)
        g_string_append (text, "# a comment\n\n");
      if (k % 3 == 0)
        g_string_append_printf (text, "%.6f %.4f %.17g %.6e %.17g %.17g %.17g %.17g\n", v[0], v[1],
                                v[2], v[3], v[4], v[5], v[6], v[7]);
      else if (k % 3 == 1)
        g_string_append_printf (text, "%.6f\t%.4f\t%.9f\t%.3f\t%.9f\t%.9f\t%.9f\t%.9f\n", v[0],
                                v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
      else
        g_string_append_printf (text, "%.6f,%.1f,%.12f,%.0f,%.17g,%.17g,%.17g,%.17g\n", v[0], v[1],
                                v[2], v[3], v[4], v[5], v[6], v[7]);
      n++;
    }
  g_assert_true (g_file_set_contents (tum, text->str, text->len, NULL));
  assert_same_positions (tum, n);
  {
    /* the checks ran on the positions-only read too: norms counted */
    NbTrajReadInfo info;
    g_autoptr (NbTraj) t = read_file (tum, NB_TRAJ_READ_POSITIONS, &info, NULL);

    g_assert_cmpuint (info.n_normalised, >, 40000 / G_N_ELEMENTS (devs) * 8);
    g_assert_cmpfloat (info.worst_norm_dev, >, 9.8e-3);
  }
  g_assert_true (g_file_set_contents (csv, "t_s,x_mm,y_mm,z_mm,qx,qy,qz,qw\n0,1,2,3,0,0,0,1\n"
                                           "0.5,4,5,6,0,0,0.6,0.8000009\n1,7,8,9,0,0,0,1.00002\n",
                                      -1, NULL));
  assert_same_positions (csv, 3);
  g_assert_true (g_file_set_contents (csv, "t_s,x_mm,y_mm,theta_deg\n0,1,2,30\n1,4,5,-60\n", -1,
                                      NULL));
  assert_same_positions (csv, 2);
  g_assert_true (g_file_set_contents (tum, "5 1 2 3 0 0 0 1", -1, NULL));   /* one pose, no \n */
  assert_same_positions (tum, 1);

  for (guint k = 0; k < G_N_ELEMENTS (errors); k++)
    {
      g_autofree char *expect = g_strconcat (bad, errors[k].message, NULL);

      g_assert_true (g_file_set_contents (bad, errors[k].text, -1, NULL));
      expect_positions_error (bad, expect);
    }
  g_remove (bad);
  expect_positions_error (bad, "No such file");

  g_remove (tum), g_remove (csv), g_rmdir (dir);
  g_string_free (text, TRUE);
  g_rand_free (rand);
}

/* The square root the positions-only read skips: never where it would
 * have counted the quaternion, and taken for the usual ones. */
static void
test_quat_surely_unit (void)
{
  GRand *rand = g_rand_new_with_seed (21);
  guint taken = 0;

  for (guint k = 0; k < 200000; k++)
    {
      double dev = (g_rand_boolean (rand) ? 1 : -1) * pow (10, g_rand_double_range (rand, -17, -4));
      double a = g_rand_double_range (rand, 0, 6.28), b = g_rand_double_range (rand, 0, 3.14);
      double q[4] = { (1 + dev) * cos (b), (1 + dev) * sin (b) * cos (a),
                      (1 + dev) * sin (b) * sin (a) * 0.6, (1 + dev) * sin (b) * sin (a) * 0.8 };
      double norm, d;

      g_assert_true (nb_quat_check (q, &norm, &d) || fabs (dev) > NB_QUAT_NORM_REFUSE / 2);
      if (nb_quat_surely_unit (q))
        {
          g_assert_cmpfloat (d, <=, NB_QUAT_NORM_WARN);
          taken++;
        }
      else
        g_assert_cmpfloat (fabs (dev), >, 0.9 * NB_QUAT_NORM_WARN);
    }
  g_assert_cmpuint (taken, >, 200000 * 0.7);
  g_assert_false (nb_quat_surely_unit ((double[]) { NAN, 0, 0, 1 }));
  g_assert_false (nb_quat_surely_unit ((double[]) { 1.0 + 1e-6, 0, 0, 0 }));
  g_assert_true (nb_quat_surely_unit ((double[]) { 1.0 - 9e-7, 0, 0, 0 }));
  g_rand_free (rand);
}

/* What compute ape evaluates from positions alone (trans, xy; no, a
 * fitted or a given alignment) is bit for bit the figure from the full
 * tracks, and each evaluation says whether it reads the orientations. */
static void
test_eval_positions (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-traj-XXXXXX", NULL);
  g_autofree char *ref_path = g_build_filename (dir, "ref.tum", NULL);
  g_autofree char *est_path = g_build_filename (dir, "est.tum", NULL);
  GString *ref_text = g_string_new (NULL), *est_text = g_string_new (NULL);
  GRand *rand = g_rand_new_with_seed (22);
  struct { NbRelation rel; NbAlignKind align; } cases[] = {
    { NB_REL_TRANS, NB_ALIGN_NONE }, { NB_REL_TRANS, NB_ALIGN_SE3 },
    { NB_REL_TRANS, NB_ALIGN_SIM3 }, { NB_REL_XY, NB_ALIGN_SE2 },
    { NB_REL_TRANS, NB_ALIGN_GIVEN },
  };

  for (guint k = 0; k < 3000; k++)
    {
      double t = k * 0.02, yaw = 0.01 * k;

      g_string_append_printf (ref_text, "%.6f %.6f %.6f %.6f 0 0 %.9f %.9f\n", t, cos (t), sin (2 * t),
                              0.1 * t, sin (yaw / 2), cos (yaw / 2));
      if (k % 7 != 3)
        g_string_append_printf (est_text, "%.6f %.6f %.6f %.6f 0 0 %.9f %.9f\n",
                                t + g_rand_double_range (rand, -0.004, 0.004),
                                cos (t) + g_rand_double_range (rand, -0.01, 0.01),
                                sin (2 * t) + 0.3, 0.1 * t, sin (yaw / 2), cos (yaw / 2));
    }
  g_assert_true (g_file_set_contents (ref_path, ref_text->str, -1, NULL));
  g_assert_true (g_file_set_contents (est_path, est_text->str, -1, NULL));
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      NbTrajEvalOptions o;
      NbTrajReadInfo info;
      g_autoptr (NbTrajEvaluation) full = NULL, pos = NULL;
      g_autoptr (GError) error = NULL;

      nb_traj_eval_options_init (&o);
      o.relation = cases[c].rel;
      o.align = cases[c].align;
      if (o.align == NB_ALIGN_GIVEN)
        {
          nb_sim3_identity (&o.transform);
          o.transform.t[1] = -0.3;
        }
      g_assert_false (nb_traj_eval_needs_orientations (&o));
      full = nb_traj_evaluate (read_file (ref_path, NB_TRAJ_READ_ALL, &info, NULL),
                               read_file (est_path, NB_TRAJ_READ_ALL, &info, NULL), &o, &error);
      g_assert_no_error (error);
      pos = nb_traj_evaluate (read_file (ref_path, NB_TRAJ_READ_POSITIONS, &info, NULL),
                              read_file (est_path, NB_TRAJ_READ_POSITIONS, &info, NULL), &o,
                              &error);
      g_assert_no_error (error);
      g_assert_null (pos->est->q);
      g_assert_cmpuint (pos->n_err, ==, full->n_err);
      g_assert_cmpuint (full->n_err, >, 2500);
      g_assert_cmpmem (pos->err, pos->n_err * sizeof (double), full->err,
                       full->n_err * sizeof (double));
      g_assert_cmpmem (&pos->stats, sizeof pos->stats, &full->stats, sizeof full->stats);
      g_assert_cmpmem (&pos->assoc, sizeof pos->assoc, &full->assoc, sizeof full->assoc);
      g_assert_cmpmem (&pos->alignment, sizeof pos->alignment, &full->alignment,
                       sizeof full->alignment);
      g_assert_cmpmem (pos->est->p, 3 * pos->est->n * sizeof (double), full->est->p,
                       3 * full->est->n * sizeof (double));
    }
  {
    NbTrajEvalOptions o;

    nb_traj_eval_options_init (&o);
    o.rpe = TRUE;
    g_assert_true (nb_traj_eval_needs_orientations (&o));
    nb_traj_eval_options_init (&o);
    o.relation = NB_REL_YAW_DEG;
    g_assert_true (nb_traj_eval_needs_orientations (&o));
    nb_traj_eval_options_init (&o);
    o.interpolate = TRUE;
    g_assert_true (nb_traj_eval_needs_orientations (&o));
    nb_traj_eval_options_init (&o);
    o.align = NB_ALIGN_ORIGIN;
    g_assert_true (nb_traj_eval_needs_orientations (&o));
  }
  g_remove (ref_path), g_remove (est_path), g_rmdir (dir);
  g_string_free (ref_text, TRUE), g_string_free (est_text, TRUE);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  gsl_set_error_handler_off ();
  g_test_add_func ("/traj/quat/small-angle", test_quat_small_angle);
  g_test_add_func ("/traj/quat/slerp", test_quat_slerp);
  g_test_add_func ("/traj/ape/relations", test_ape_relations);
  g_test_add_func ("/traj/ape-rpe/planar", test_planar_relations);
  g_test_add_func ("/traj/rpe/relations-and-pairs", test_rpe_relations);
  g_test_add_func ("/traj/stats", test_stats);
  g_test_add_func ("/traj/assoc/brute-force", test_associate_vs_brute_force);
  g_test_add_func ("/traj/assoc/counts", test_associate_counts);
  g_test_add_func ("/traj/assoc/interpolate", test_interpolate);
  g_test_add_func ("/traj/align/known", test_align_known_transform);
  g_test_add_func ("/traj/align/independent", test_align_vs_independent);
  g_test_add_func ("/traj/align/errors", test_align_errors);
  g_test_add_func ("/traj/transform/parse", test_transform_parse);
  g_test_add_func ("/traj/read/tum", test_tum_reader);
  g_test_add_func ("/traj/read/errors", test_reader_errors);
  g_test_add_func ("/traj/read/csv", test_csv_track);
  g_test_add_func ("/traj/read/positions", test_read_positions);
  g_test_add_func ("/traj/quat/surely-unit", test_quat_surely_unit);
  g_test_add_func ("/traj/eval/positions", test_eval_positions);
  return g_test_run ();
}
