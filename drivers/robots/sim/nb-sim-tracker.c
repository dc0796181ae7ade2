#include "nb-sim-tracker.h"

#include "nb-angle.h"

#include <math.h>
#include <string.h>

static double
gauss (GRand *r, double sigma)
{
  double u = g_rand_double_range (r, 1e-300, 1.0), v = g_rand_double (r);

  return sigma == 0 ? 0.0 : sigma * sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

static void
pose_of_matrix (const double T[16], NbPose6 *p)
{
  double R[9], abc[3];

  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      R[r * 3 + c] = T[r * 4 + c];
  nb_iso9283_matrix_to_abc (R, abc);
  *p = (NbPose6) { T[3] * 1000, T[7] * 1000, T[11] * 1000, abc[0], abc[1], abc[2] };
}

void
nb_sim_tracker_frame (const double p0[3], const double p1[3], const double p2[3], NbPose6 *pose)
{
  double x[3], w[3], y[3], z[3], R[9], abc[3], n;

  for (int k = 0; k < 3; k++)
    {
      x[k] = p1[k] - p0[k];
      w[k] = p2[k] - p0[k];
    }
  n = sqrt (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  for (int k = 0; k < 3; k++)
    x[k] /= n;
  z[0] = x[1] * w[2] - x[2] * w[1];
  z[1] = x[2] * w[0] - x[0] * w[2];
  z[2] = x[0] * w[1] - x[1] * w[0];
  n = sqrt (z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
  for (int k = 0; k < 3; k++)
    z[k] /= n;
  y[0] = z[1] * x[2] - z[2] * x[1];
  y[1] = z[2] * x[0] - z[0] * x[2];
  y[2] = z[0] * x[1] - z[1] * x[0];
  for (int r = 0; r < 3; r++)
    {
      R[r * 3 + 0] = x[r];
      R[r * 3 + 1] = y[r];
      R[r * 3 + 2] = z[r];
    }
  nb_iso9283_matrix_to_abc (R, abc);
  *pose = (NbPose6) { p0[0], p0[1], p0[2], abc[0], abc[1], abc[2] };
}

static void
measure (NbSimTracker *tr, const double q[NB_ARM_JOINTS], NbPose6 *out)
{
  double T[16];

  nb_sim_arm_true_pose (tr->arm, q, T);
  if (tr->three_targets)
    {
      double p[3][3];

      for (int i = 0; i < 3; i++)
        for (int r = 0; r < 3; r++)
          p[i][r] = (T[r * 4 + 3] + T[r * 4 + 0] * tr->target_m[i][0] +
                     T[r * 4 + 1] * tr->target_m[i][1] + T[r * 4 + 2] * tr->target_m[i][2]) * 1000
                    + gauss (tr->rand, tr->noise_mm);
      nb_sim_tracker_frame (p[0], p[1], p[2], out);
      return;
    }
  pose_of_matrix (T, out);
  out->x_mm += gauss (tr->rand, tr->noise_mm);
  out->y_mm += gauss (tr->rand, tr->noise_mm);
  out->z_mm += gauss (tr->rand, tr->noise_mm);
  out->a_deg = nb_angle_recast_deg (out->a_deg + gauss (tr->rand, tr->noise_deg));
  out->b_deg += gauss (tr->rand, tr->noise_deg);
  out->c_deg = nb_angle_recast_deg (out->c_deg + gauss (tr->rand, tr->noise_deg));
}

/* The arm moved linearly from q0 at t0 to q1 at t1: the samples in between. */
static void
on_advance (gpointer data, double t0, const double *q0, double t1, const double *q1)
{
  NbSimTracker *tr = data;
  const double period = 1.0 / tr->rate_hz;

  if (tr->chained != NULL)
    tr->chained (tr->chained_data, t0, q0, t1, q1);
  while (tr->next_t_s <= t1 + 1e-12)
    {
      double q[NB_ARM_JOINTS], w = t1 > t0 ? (tr->next_t_s - t0) / (t1 - t0) : 1.0;
      NbPose6 p;

      w = CLAMP (w, 0.0, 1.0);
      for (int i = 0; i < NB_ARM_JOINTS; i++)
        q[i] = q0[i] + w * (q1[i] - q0[i]);
      measure (tr, q, &p);
      g_array_append_val (tr->t_s, tr->next_t_s);
      g_array_append_val (tr->pose, p);
      /* The sample instants on the clock's grid, without drift. */
      tr->next_t_s = (double) (guint64) llround (tr->next_t_s / period + 1.0) * period;
    }
}

void
nb_sim_tracker_init (NbSimTracker *tr, NbSimArm *arm, double rate_hz, double noise_mm,
                     double noise_deg, guint32 seed)
{
  memset (tr, 0, sizeof *tr);
  tr->arm = arm;
  tr->rate_hz = rate_hz;
  tr->noise_mm = noise_mm;
  tr->noise_deg = noise_deg;
  tr->rand = g_rand_new_with_seed (seed);
  tr->t_s = g_array_new (FALSE, FALSE, sizeof (double));
  tr->pose = g_array_new (FALSE, FALSE, sizeof (NbPose6));
  tr->next_t_s = ceil (arm->clock_s * rate_hz - 1e-9) / rate_hz;
  tr->chained = arm->on_advance;
  tr->chained_data = arm->on_advance_data;
  arm->on_advance = on_advance;
  arm->on_advance_data = tr;
}

void
nb_sim_tracker_use_targets (NbSimTracker *tr)
{
  tr->three_targets = TRUE;
  memset (tr->target_m, 0, sizeof tr->target_m);
  tr->target_m[1][0] = 0.060;
  tr->target_m[2][1] = 0.060;
}

void
nb_sim_tracker_clear (NbSimTracker *tr)
{
  if (tr->arm != NULL && tr->arm->on_advance_data == tr)
    {
      tr->arm->on_advance = tr->chained;
      tr->arm->on_advance_data = tr->chained_data;
    }
  g_clear_pointer (&tr->rand, g_rand_free);
  g_clear_pointer (&tr->t_s, g_array_unref);
  g_clear_pointer (&tr->pose, g_array_unref);
}

gboolean
nb_sim_tracker_mean (const NbSimTracker *tr, double t0, double t1, NbPose6 *mean)
{
  const NbPose6 *first = NULL;
  double sum[6] = { 0 };
  guint n = 0;

  for (guint i = 0; i < tr->t_s->len; i++)
    {
      double t = g_array_index (tr->t_s, double, i);
      const NbPose6 *p = &g_array_index (tr->pose, NbPose6, i);

      if (t < t0 || t > t1)
        continue;
      if (first == NULL)
        first = p;
      sum[0] += p->x_mm - first->x_mm;
      sum[1] += p->y_mm - first->y_mm;
      sum[2] += p->z_mm - first->z_mm;
      sum[3] += nb_angle_recast_deg (p->a_deg - first->a_deg);
      sum[4] += nb_angle_recast_deg (p->b_deg - first->b_deg);
      sum[5] += nb_angle_recast_deg (p->c_deg - first->c_deg);
      n++;
    }
  if (n == 0)
    return FALSE;
  *mean = (NbPose6) { first->x_mm + sum[0] / n, first->y_mm + sum[1] / n, first->z_mm + sum[2] / n,
                      nb_angle_recast_deg (first->a_deg + sum[3] / n),
                      nb_angle_recast_deg (first->b_deg + sum[4] / n),
                      nb_angle_recast_deg (first->c_deg + sum[5] / n) };
  return TRUE;
}
