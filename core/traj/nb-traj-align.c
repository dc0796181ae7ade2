#include "nb-traj-align.h"

#include "nb-error.h"
#include "nb-number.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <string.h>

void
nb_sim3_identity (NbSim3 *x)
{
  *x = (NbSim3) { { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, { 0, 0, 0 }, 1.0 };
}

static const char *const align_names[] = {
  [NB_ALIGN_NONE] = "none", [NB_ALIGN_SE3] = "se3", [NB_ALIGN_SE2] = "se2",
  [NB_ALIGN_SIM3] = "sim3", [NB_ALIGN_ORIGIN] = "origin", [NB_ALIGN_GIVEN] = "given",
};

gboolean
nb_align_kind_from_string (const char *text, NbAlignKind *out)
{
  /* "given" comes with a file, not by name. */
  for (guint i = 0; i < NB_ALIGN_GIVEN; i++)
    if (g_ascii_strcasecmp (text, align_names[i]) == 0)
      {
        *out = (NbAlignKind) i;
        return TRUE;
      }
  return FALSE;
}

const char *
nb_align_kind_name (NbAlignKind kind)
{
  return align_names[kind];
}

static double
det (const gsl_matrix *a)
{
  if (a->size1 == 2)
    return gsl_matrix_get (a, 0, 0) * gsl_matrix_get (a, 1, 1) -
           gsl_matrix_get (a, 0, 1) * gsl_matrix_get (a, 1, 0);
  return gsl_matrix_get (a, 0, 0) * (gsl_matrix_get (a, 1, 1) * gsl_matrix_get (a, 2, 2) -
                                     gsl_matrix_get (a, 1, 2) * gsl_matrix_get (a, 2, 1)) -
         gsl_matrix_get (a, 0, 1) * (gsl_matrix_get (a, 1, 0) * gsl_matrix_get (a, 2, 2) -
                                     gsl_matrix_get (a, 1, 2) * gsl_matrix_get (a, 2, 0)) +
         gsl_matrix_get (a, 0, 2) * (gsl_matrix_get (a, 1, 0) * gsl_matrix_get (a, 2, 1) -
                                     gsl_matrix_get (a, 1, 1) * gsl_matrix_get (a, 2, 0));
}

/* Umeyama in m = 2 or 3 dimensions (the first m coordinates): R (m×m in the
 * top left of a 3×3), t, c minimise Σ‖y − (c·R·x + t)‖², x the estimate. */
/* Σ x·x, Σ y·y and Σ y·xᵀ of the centred positions (x the estimate's, y
 * the reference's), pose by pose in order. */
G_ALWAYS_INLINE static inline void
centred_sums (const NbTraj *ref, const NbTraj *est, guint m, const double mx[3],
              const double my[3], double c[3][3], double *sigma_x, double *sigma_y)
{
  double sx = *sigma_x, sy = *sigma_y;

  for (guint k = 0; k < est->n; k++)
    {
      double x[3], y[3];

      for (guint a = 0; a < m; a++)
        {
          x[a] = est->p[3 * (gsize) k + a] - mx[a];
          y[a] = ref->p[3 * (gsize) k + a] - my[a];
          sx += x[a] * x[a];
          sy += y[a] * y[a];
        }
      for (guint a = 0; a < m; a++)
        for (guint b = 0; b < m; b++)
          c[a][b] += y[a] * x[b];
    }
  *sigma_x = sx, *sigma_y = sy;
}

static gboolean
umeyama (const NbTraj *ref, const NbTraj *est, guint m, gboolean with_scale, NbSim3 *out,
         GError **error)
{
  gsl_matrix *cov = gsl_matrix_calloc (m, m), *v = gsl_matrix_alloc (m, m);
  gsl_vector *sv = gsl_vector_alloc (m), *work = gsl_vector_alloc (m);
  double mx[3] = { 0 }, my[3] = { 0 }, sigma_x = 0.0, sigma_y = 0.0, d[3] = { 1, 1, 1 };
  double n = (double) est->n, trace_ds = 0.0;
  gboolean ok = FALSE;
  int status;

  /* Two passes: the means first, then centred sums (no cancellation when
   * the trajectory is far from the origin). */
  for (guint k = 0; k < est->n; k++)
    for (guint a = 0; a < m; a++)
      {
        mx[a] += est->p[3 * (gsize) k + a];
        my[a] += ref->p[3 * (gsize) k + a];
      }
  for (guint a = 0; a < m; a++)
    mx[a] /= n, my[a] /= n;
  /* The sums in registers, m a constant in each copy (through the matrix,
   * each was a call, a load and a store per pose); the same additions in
   * the same order, so the same bits. */
  {
    double c[3][3] = { { 0 } };

    if (m == 3)
      centred_sums (ref, est, 3, mx, my, c, &sigma_x, &sigma_y);
    else
      centred_sums (ref, est, m, mx, my, c, &sigma_x, &sigma_y);
    for (guint a = 0; a < m; a++)
      for (guint b = 0; b < m; b++)
        gsl_matrix_set (cov, a, b, c[a][b]);
  }
  sigma_x /= n;
  gsl_matrix_scale (cov, 1.0 / n);
  if (!(sigma_x > 0.0) || !(sigma_y > 0.0))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "cannot align: all %u %s positions coincide%s", est->n,
                   sigma_x > 0.0 ? "reference" : "estimated", m == 2 ? " in x, y" : "");
      goto out;
    }

  status = gsl_linalg_SV_decomp (cov, v, sv, work);   /* cov := U */
  if (status != GSL_SUCCESS)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "alignment SVD: %s",
                   gsl_strerror (status));
      goto out;
    }
  /* Rank m − 1 still fixes the rotation (the determinant picks the last
   * axis); rank m − 2 in 3-D (all points on one line) leaves the rotation
   * about that line free. */
  if (m == 3 && !(gsl_vector_get (sv, 1) > 1e-12 * gsl_vector_get (sv, 0)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "cannot align: the %u paired positions lie on one line, which leaves the "
                   "rotation about it undetermined (try --align se2 for a planar run)", est->n);
      goto out;
    }
  if (det (cov) * det (v) < 0.0)
    d[m - 1] = -1.0;   /* a reflection is no rotation */

  nb_sim3_identity (out);
  for (guint a = 0; a < m; a++)
    for (guint b = 0; b < m; b++)
      {
        double r = 0.0;

        for (guint c = 0; c < m; c++)
          r += gsl_matrix_get (cov, a, c) * d[c] * gsl_matrix_get (v, b, c);
        out->r[3 * a + b] = r;
      }
  for (guint a = 0; a < m; a++)
    trace_ds += gsl_vector_get (sv, a) * d[a];
  out->s = with_scale ? trace_ds / sigma_x : 1.0;
  for (guint a = 0; a < m; a++)
    {
      double rx = 0.0;

      for (guint b = 0; b < m; b++)
        rx += out->r[3 * a + b] * mx[b];
      out->t[a] = my[a] - out->s * rx;
    }
  ok = TRUE;

out:
  gsl_matrix_free (cov);
  gsl_matrix_free (v);
  gsl_vector_free (sv);
  gsl_vector_free (work);
  return ok;
}

gboolean
nb_traj_umeyama (const NbTraj *ref, const NbTraj *est, NbAlignKind kind, NbSim3 *out,
                 GError **error)
{
  g_return_val_if_fail (ref->n == est->n, FALSE);
  g_return_val_if_fail (kind == NB_ALIGN_SE3 || kind == NB_ALIGN_SE2 || kind == NB_ALIGN_SIM3,
                        FALSE);

  if (est->n < NB_ALIGN_MIN_POINTS)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "cannot align: %u paired pose%s, --align %s needs at least %d", est->n,
                   est->n == 1 ? "" : "s", nb_align_kind_name (kind), NB_ALIGN_MIN_POINTS);
      return FALSE;
    }
  return umeyama (ref, est, kind == NB_ALIGN_SE2 ? 2 : 3, kind == NB_ALIGN_SIM3, out, error);
}

void
nb_traj_origin (const NbTraj *ref, const NbTraj *est, NbSim3 *out)
{
  double q_inv[4], q[4];

  g_return_if_fail (ref->n > 0 && est->n > 0);
  /* R = R_ref0·R_est0ᵀ, t = p_ref0 − R·p_est0. */
  nb_quat_conj (est->q, q_inv);
  nb_quat_mul (ref->q, q_inv, q);
  nb_quat_to_matrix (q, out->r);
  nb_quat_rotate (q, est->p, out->t);
  for (int a = 0; a < 3; a++)
    out->t[a] = ref->p[a] - out->t[a];
  out->s = 1.0;
}

void
nb_traj_transform (NbTraj *traj, const NbSim3 *x)
{
  double qr[4];

  nb_quat_from_matrix (x->r, qr);
  for (guint k = 0; k < traj->n; k++)
    {
      double *p = traj->p + 3 * (gsize) k, np[3], nq[4];

      for (int a = 0; a < 3; a++)
        np[a] = x->s * (x->r[3 * a] * p[0] + x->r[3 * a + 1] * p[1] + x->r[3 * a + 2] * p[2]) +
                x->t[a];
      memcpy (p, np, sizeof np);
      if (traj->has_orientation && traj->q != NULL)
        {
          double *q = traj->q + 4 * (gsize) k;

          nb_quat_mul (qr, q, nq);
          memcpy (q, nq, sizeof nq);
        }
    }
}

/* ------------------------------------------------------- transform files -- */

gboolean
nb_sim3_parse (const char *name, const char *text, NbSim3 *out, GError **error)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  double m[4][4];
  guint rows = 0, width = 0, last_line = 0;
  double rrt_err = 0.0, r[9], q[4];

  for (guint l = 0; lines[l] != NULL; l++)
    {
      char *line = lines[l], *hash = strchr (line, '#');
      g_auto (GStrv) fields = NULL;
      guint nf = 0;

      if (hash != NULL)
        *hash = '\0';
      g_strdelimit (line, ",\t\r", ' ');
      fields = g_strsplit (line, " ", -1);
      for (guint f = 0; fields[f] != NULL; f++)
        {
          double value;

          if (fields[f][0] == '\0')
            continue;
          if (!nb_parse_double (fields[f], strlen (fields[f]), &value))
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%u: '%s' is not a finite number",
                           name, l + 1, fields[f]);
              return FALSE;
            }
          if (rows >= 4 || nf >= 4)
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                           "%s:%u: a transform is 3 rows of 3 numbers or 4 rows of 4", name,
                           l + 1);
              return FALSE;
            }
          m[rows][nf++] = value;
        }
      if (nf == 0)
        continue;
      if (rows == 0)
        width = nf;
      if (nf != width || width < 3)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s:%u: %u numbers on this row; a transform is 3 rows of 3 numbers or "
                       "4 rows of 4", name, l + 1, nf);
          return FALSE;
        }
      rows++;
      last_line = l + 1;
    }
  if (rows == 0)
    {
      /* Empty, blank or comments only: width 0 would index m[-1] below. */
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no numbers; a transform is 3 rows of 3 "
                   "numbers or 4 rows of 4", name);
      return FALSE;
    }
  if (rows != width)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: %u row%s of %u numbers; a transform is 3 rows of 3 numbers or 4 rows "
                   "of 4", name, rows, rows == 1 ? "" : "s", width);
      return FALSE;
    }
  for (guint c = 0; c < width; c++)
    if (m[width - 1][c] != (c == width - 1 ? 1.0 : 0.0))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%u: the last row must be %s", name,
                     last_line, width == 3 ? "0 0 1" : "0 0 0 1");
        return FALSE;
      }
  nb_sim3_identity (out);
  for (guint a = 0; a < width - 1; a++)
    {
      for (guint b = 0; b < width - 1; b++)
        out->r[3 * a + b] = m[a][b];
      out->t[a] = m[a][width - 1];
    }
  /* Rigid only: a registration from surveyed points is a rotation to the
   * survey's precision; anything else is a typo or a wrong file. */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        double dot = 0.0;

        for (int k = 0; k < 3; k++)
          dot += out->r[3 * i + k] * out->r[3 * j + k];
        rrt_err = MAX (rrt_err, fabs (dot - (i == j ? 1.0 : 0.0)));
      }
  memcpy (r, out->r, sizeof r);
  {
    double dt = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) +
                r[2] * (r[3] * r[7] - r[4] * r[6]);

    if (rrt_err > 1e-6 || dt < 0.0)
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "%s: the rotation part is not a rotation (RRᵀ differs from I by %.3g, "
                     "det %.6g)", name, rrt_err, dt);
        return FALSE;
      }
  }
  /* Exactly orthonormal from here on. */
  nb_quat_from_matrix (r, q);
  nb_quat_to_matrix (q, out->r);
  return TRUE;
}
