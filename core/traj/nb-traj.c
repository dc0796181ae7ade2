#include "nb-traj.h"

#include <math.h>
#include <string.h>

NbTraj *
nb_traj_new (guint capacity)
{
  NbTraj *traj = g_new0 (NbTraj, 1);

  traj->cap = MAX (capacity, 16u);
  traj->t = g_new (double, traj->cap);
  traj->p = g_new (double, 3 * (gsize) traj->cap);
  traj->q = g_new (double, 4 * (gsize) traj->cap);
  traj->has_orientation = TRUE;
  return traj;
}

void
nb_traj_free (NbTraj *traj)
{
  if (traj == NULL)
    return;
  g_free (traj->t);
  g_free (traj->p);
  g_free (traj->q);
  g_free (traj);
}

void
nb_traj_append (NbTraj *traj, double t, const double p[3], const double q[4])
{
  if (traj->n == traj->cap)
    {
      g_assert (traj->cap < G_MAXUINT / 2);
      traj->cap *= 2;
      traj->t = g_renew (double, traj->t, traj->cap);
      traj->p = g_renew (double, traj->p, 3 * (gsize) traj->cap);
      if (traj->q != NULL)
        traj->q = g_renew (double, traj->q, 4 * (gsize) traj->cap);
    }
  traj->t[traj->n] = t;
  memcpy (traj->p + 3 * (gsize) traj->n, p, 3 * sizeof (double));
  if (traj->q != NULL)
    memcpy (traj->q + 4 * (gsize) traj->n, q, 4 * sizeof (double));
  traj->n++;
}

void
nb_traj_drop_orientations (NbTraj *traj)
{
  g_clear_pointer (&traj->q, g_free);
}

gboolean
nb_quat_check (const double q[4], double *norm, double *dev)
{
  *norm = sqrt (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  *dev = fabs (*norm - 1.0);
  return *dev <= NB_QUAT_NORM_REFUSE;
}

gboolean
nb_quat_normalise_checked (double q[4], double *dev)
{
  double norm;

  if (!nb_quat_check (q, &norm, dev))
    return FALSE;
  for (int i = 0; i < 4; i++)
    q[i] /= norm;
  return TRUE;
}

void
nb_quat_mul (const double a[4], const double b[4], double out[4])
{
  double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];

  out[0] = w, out[1] = x, out[2] = y, out[3] = z;
}

void
nb_quat_conj (const double q[4], double out[4])
{
  out[0] = q[0], out[1] = -q[1], out[2] = -q[2], out[3] = -q[3];
}

void
nb_quat_rotate (const double q[4], const double v[3], double out[3])
{
  /* v' = v + 2w(u×v) + 2u×(u×v), u the vector part: no matrix needed. */
  double ux = q[1], uy = q[2], uz = q[3], w = q[0];
  double cx = uy * v[2] - uz * v[1], cy = uz * v[0] - ux * v[2], cz = ux * v[1] - uy * v[0];
  double dx = uy * cz - uz * cy, dy = uz * cx - ux * cz, dz = ux * cy - uy * cx;

  out[0] = v[0] + 2.0 * (w * cx + dx);
  out[1] = v[1] + 2.0 * (w * cy + dy);
  out[2] = v[2] + 2.0 * (w * cz + dz);
}

double
nb_quat_angle (const double q[4])
{
  double v = sqrt (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);

  /* |w|: q and −q are the same rotation; the angle is the short way. */
  return 2.0 * atan2 (v, fabs (q[0]));
}

double
nb_quat_yaw (const double q[4])
{
  return atan2 (2.0 * (q[0] * q[3] + q[1] * q[2]), 1.0 - 2.0 * (q[2] * q[2] + q[3] * q[3]));
}

void
nb_quat_slerp (const double a[4], const double b[4], double s, double out[4])
{
  double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  double sign = d < 0.0 ? -1.0 : 1.0, diff = 0.0, sum = 0.0, theta, wa, wb, norm;

  /* The angle between the 4-vectors from the half-angle form
   * 2·atan2(‖b − a‖, ‖b + a‖): exact for small angles, where acos(a·b) loses
   * half the digits. */
  for (int i = 0; i < 4; i++)
    {
      double bi = sign * b[i];

      diff += (bi - a[i]) * (bi - a[i]);
      sum += (bi + a[i]) * (bi + a[i]);
    }
  theta = 2.0 * atan2 (sqrt (diff), sqrt (sum));
  if (theta < 1e-12)
    wa = 1.0 - s, wb = s;   /* the chord is the arc to working precision */
  else
    {
      double sin_theta = sin (theta);

      wa = sin ((1.0 - s) * theta) / sin_theta;
      wb = sin (s * theta) / sin_theta;
    }
  for (int i = 0; i < 4; i++)
    out[i] = wa * a[i] + sign * wb * b[i];
  norm = sqrt (out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
  for (int i = 0; i < 4; i++)
    out[i] /= norm;
}

void
nb_quat_to_matrix (const double q[4], double r[9])
{
  double w = q[0], x = q[1], y = q[2], z = q[3];

  r[0] = 1 - 2 * (y * y + z * z), r[1] = 2 * (x * y - w * z), r[2] = 2 * (x * z + w * y);
  r[3] = 2 * (x * y + w * z), r[4] = 1 - 2 * (x * x + z * z), r[5] = 2 * (y * z - w * x);
  r[6] = 2 * (x * z - w * y), r[7] = 2 * (y * z + w * x), r[8] = 1 - 2 * (x * x + y * y);
}

void
nb_quat_from_matrix (const double r[9], double q[4])
{
  /* Shepperd's method: divide by the largest of the four candidates, never
   * by a small one. */
  double tr = r[0] + r[4] + r[8], n;

  if (tr >= r[0] && tr >= r[4] && tr >= r[8])
    {
      double s = sqrt (1.0 + tr) * 2.0;

      q[0] = 0.25 * s;
      q[1] = (r[7] - r[5]) / s;
      q[2] = (r[2] - r[6]) / s;
      q[3] = (r[3] - r[1]) / s;
    }
  else if (r[0] >= r[4] && r[0] >= r[8])
    {
      double s = sqrt (1.0 + r[0] - r[4] - r[8]) * 2.0;

      q[0] = (r[7] - r[5]) / s;
      q[1] = 0.25 * s;
      q[2] = (r[1] + r[3]) / s;
      q[3] = (r[2] + r[6]) / s;
    }
  else if (r[4] >= r[8])
    {
      double s = sqrt (1.0 + r[4] - r[0] - r[8]) * 2.0;

      q[0] = (r[2] - r[6]) / s;
      q[1] = (r[1] + r[3]) / s;
      q[2] = 0.25 * s;
      q[3] = (r[5] + r[7]) / s;
    }
  else
    {
      double s = sqrt (1.0 + r[8] - r[0] - r[4]) * 2.0;

      q[0] = (r[3] - r[1]) / s;
      q[1] = (r[2] + r[6]) / s;
      q[2] = (r[5] + r[7]) / s;
      q[3] = 0.25 * s;
    }
  if (q[0] < 0.0)
    for (int i = 0; i < 4; i++)
      q[i] = -q[i];
  n = sqrt (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int i = 0; i < 4; i++)
    q[i] /= n;
}
