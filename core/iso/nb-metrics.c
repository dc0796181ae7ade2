#include "nb-metrics.h"
#include "nb-angle.h"
#include "nb-error.h"
#include "nb-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ 5 -- */

/*
 * Everything is computed on coordinates centred on the command pose: an
 * instrument frame may put the robot kilometres from its origin, where a
 * double keeps ~1e-9 mm absolute resolution but x² would throw away all of
 * it.  u_j = x_j − x_c is exact (Sterbenz) while the robot is within a factor
 * two of the command's distance from the origin.
 */
gboolean
nb_metrics_pose (const NbPose *command, const NbPose *attained, gsize n,
                 NbPoseResult *result, GError **error)
{
  NbRunning u = NB_RUNNING_INIT, v = NB_RUNNING_INIT, delta = NB_RUNNING_INIT;
  NbRunning l = NB_RUNNING_INIT;
  double ub, vb;

  if (n < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "pose accuracy and repeatability need at least 2 attained poses, got %"
                   G_GSIZE_FORMAT, n);
      return FALSE;
    }
  if (!isfinite (command->x_mm) || !isfinite (command->y_mm) || !isfinite (command->theta_deg))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the command pose is not finite");
      return FALSE;
    }

  for (gsize j = 0; j < n; j++)
    {
      const NbPose *p = &attained[j];

      if (!isfinite (p->x_mm) || !isfinite (p->y_mm) || !isfinite (p->theta_deg))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "attained pose %" G_GSIZE_FORMAT " is not finite", j + 1);
          return FALSE;
        }
      nb_running_push (&u, p->x_mm - command->x_mm);
      nb_running_push (&v, p->y_mm - command->y_mm);
      /* 5.2.1: δ_j = recast(o_j − o_c), so headings either side of ±180° agree. */
      nb_running_push (&delta, nb_angle_recast_deg (p->theta_deg - command->theta_deg));
    }
  ub = nb_running_mean (&u);
  vb = nb_running_mean (&v);

  /* 5.2.2: l_j = distance from the barycentre; a second pass, as l̄ needs x̄. */
  for (gsize j = 0; j < n; j++)
    nb_running_push (&l, hypot (ub - (attained[j].x_mm - command->x_mm),
                                vb - (attained[j].y_mm - command->y_mm)));

  result->n = n;
  result->barycentre_x_mm = command->x_mm + ub;
  result->barycentre_y_mm = command->y_mm + vb;
  /* 5.2.1: Ap = sqrt((x̄ − x_c)² + (ȳ − y_c)²) */
  result->ap_mm = hypot (ub, vb);
  /* 5.2.1: Ao = Σδ_j / n, and ō = recast(o_c + Ao) */
  result->ao_deg = nb_running_mean (&delta);
  result->mean_theta_deg = nb_angle_recast_deg (command->theta_deg + result->ao_deg);
  /* 5.2.2: l̄, S_l = sqrt(Σ(l̄ − l_j)² / (n − 1)), Rp = l̄ + 3·S_l */
  result->l_mean_mm = nb_running_mean (&l);
  result->s_l_mm = nb_running_sample_std (&l);
  result->rp_mm = result->l_mean_mm + 3.0 * result->s_l_mm;
  /* 5.2.2: S_o = sqrt(Σ(δ_j − Ao)² / (n − 1)), Ro = ±3·S_o */
  result->s_o_deg = nb_running_sample_std (&delta);
  result->ro_deg = 3.0 * result->s_o_deg;
  return TRUE;
}

/* ------------------------------------------------------------------ 8 -- */

gboolean
nb_segment_init (NbSegment *segment, double x0_mm, double y0_mm, double x1_mm, double y1_mm,
                 GError **error)
{
  double dx = x1_mm - x0_mm, dy = y1_mm - y0_mm;
  double length = hypot (dx, dy);

  if (!isfinite (x0_mm) || !isfinite (y0_mm) || !isfinite (x1_mm) || !isfinite (y1_mm))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the path end points are not finite");
      return FALSE;
    }
  if (!(length > 0.0))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "the commanded path has zero length (P0 = P1 = %g,%g)", x0_mm, y0_mm);
      return FALSE;
    }
  segment->x0_mm = x0_mm;
  segment->y0_mm = y0_mm;
  segment->ex = dx / length;
  segment->ey = dy / length;
  segment->length_mm = length;
  return TRUE;
}

void
nb_path_trial_init (NbPathTrial *trial)
{
  trial->n_samples = 0;
  trial->n_on_segment = 0;
  trial->d_mm = NAN;
}

void
nb_path_trial_push (NbPathTrial *trial, const NbSegment *segment, double x_mm, double y_mm)
{
  double u = x_mm - segment->x0_mm, v = y_mm - segment->y0_mm;
  double along = u * segment->ex + v * segment->ey;
  /* ISO 18646-2 8.2: the deviation perpendicular to the commanded route;
   * the cross product e × (p − P0) is positive to the left of travel. */
  double lateral = segment->ex * v - segment->ey * u;

  trial->n_samples++;
  if (!(along >= 0.0 && along <= segment->length_mm))
    return;
  trial->n_on_segment++;
  /* Keep the first of equal magnitudes, so the sign is the file's order. */
  if (trial->n_on_segment == 1 || fabs (lateral) > fabs (trial->d_mm))
    trial->d_mm = lateral;
}

gboolean
nb_metrics_path (const double *d_mm, gsize n, NbPathResult *result, GError **error)
{
  NbRunning d = NB_RUNNING_INIT, abs_d = NB_RUNNING_INIT;
  double max = 0.0;

  if (n < 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "path deviation needs at least one trial");
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    {
      if (!isfinite (d_mm[i]))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "trial %" G_GSIZE_FORMAT " has no deviation", i + 1);
          return FALSE;
        }
      nb_running_push (&d, d_mm[i]);
      nb_running_push (&abs_d, fabs (d_mm[i]));
      /* 8.2: d = max |d_i| */
      max = MAX (max, fabs (d_mm[i]));
    }
  result->n = n;
  result->max_mm = max;
  result->mean_mm = nb_running_mean (&d);
  result->mean_abs_mm = nb_running_mean (&abs_d);
  result->std_mm = nb_running_sample_std (&d);
  return TRUE;
}

/* ------------------------------------------------------------------ 6 -- */

double
nb_detection_error_pct (double true_mm, double measured_mm)
{
  return 100.0 * fabs (measured_mm - true_mm) / true_mm;
}

void
nb_detection_tally_add (NbDetectionTally *tally, double true_mm, gboolean detected,
                        double measured_mm)
{
  tally->placements++;
  if (!detected)
    return;
  tally->detected++;
  tally->sum_error_pct += nb_detection_error_pct (true_mm, measured_mm);
}

double
nb_detection_tally_mean_error_pct (const NbDetectionTally *tally)
{
  return tally->detected > 0 ? tally->sum_error_pct / tally->detected : NAN;
}

/* 6.4: the mean of the per-placement accuracies, 100 − error each, which is
 * 100 − the mean error. */
double
nb_detection_tally_mean_accuracy_pct (const NbDetectionTally *tally)
{
  return 100.0 - nb_detection_tally_mean_error_pct (tally);
}

/* --------------------------------------------------------------- 7, 9 -- */

static int
compare_trial (const void *a, const void *b)
{
  const NbTimedTrial *ta = a, *tb = b;

  return (ta->trial > tb->trial) - (ta->trial < tb->trial);
}

/* A copy in trial order, with every trial number once and every success timed. */
static NbTimedTrial *
sorted_trials (const NbTimedTrial *trials, gsize n, const char *what, GError **error)
{
  g_autofree NbTimedTrial *sorted = g_memdup2 (trials, n * sizeof *trials);

  if (n > 0)
    qsort (sorted, n, sizeof *sorted, compare_trial);
  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && sorted[i].trial == sorted[i - 1].trial)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s trial %u is given twice", what,
                       sorted[i].trial);
          return NULL;
        }
      if (sorted[i].success && !(isfinite (sorted[i].time_s) && sorted[i].time_s > 0.0))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s trial %u succeeded but has no positive travel time", what,
                       sorted[i].trial);
          return NULL;
        }
    }
  return g_steal_pointer (&sorted);
}

gboolean
nb_metrics_avoidance (const NbTimedTrial *baseline, gsize n_baseline,
                      const NbTimedTrial *obstacle, gsize n_obstacle,
                      NbAvoidanceResult *result, GError **error)
{
  g_autofree NbTimedTrial *base = NULL, *obst = NULL;
  double sum = 0.0, max = 0.0;
  guint found;

  base = sorted_trials (baseline, n_baseline, "baseline", error);
  if (base == NULL && n_baseline > 0)
    return FALSE;
  obst = sorted_trials (obstacle, n_obstacle, "obstacle", error);
  if (obst == NULL && n_obstacle > 0)
    return FALSE;

  /* 7.3: the configuration passes only if its first three trials all succeed. */
  result->passed = n_obstacle >= NB_AVOIDANCE_TRIALS;
  for (gsize i = 0; i < MIN (n_obstacle, (gsize) NB_AVOIDANCE_TRIALS); i++)
    result->passed = result->passed && obst[i].success;

  /* 7.3: T0 = mean time of the first three successful trials without obstacle. */
  found = 0;
  for (gsize i = 0; i < n_baseline && found < NB_AVOIDANCE_TRIALS; i++)
    if (base[i].success)
      {
        sum += base[i].time_s;
        found++;
      }
  result->t0_s = found == NB_AVOIDANCE_TRIALS ? sum / NB_AVOIDANCE_TRIALS : NAN;

  /* 7.3: T1 = max time of the first three successful trials with obstacle. */
  found = 0;
  for (gsize i = 0; i < n_obstacle && found < NB_AVOIDANCE_TRIALS; i++)
    if (obst[i].success)
      {
        max = MAX (max, obst[i].time_s);
        found++;
      }
  result->t1_s = found == NB_AVOIDANCE_TRIALS ? max : NAN;

  result->delay_ratio = result->t1_s / result->t0_s;  /* NaN propagates */
  return TRUE;
}

gboolean
nb_metrics_passage (const NbTimedTrial *trials, gsize n, NbPassageResult *result,
                    GError **error)
{
  g_autofree NbTimedTrial *sorted = NULL;
  gsize run = 0;

  sorted = sorted_trials (trials, n, "passage", error);
  if (sorted == NULL && n > 0)
    return FALSE;

  result->passed = FALSE;
  result->mean_time_s = NAN;
  result->first_trial = 0;
  result->failed_trials = 0;
  for (gsize i = 0; i < n; i++)
    {
      if (!sorted[i].success)
        {
          result->failed_trials++;
          run = 0;
          continue;
        }
      run++;
      /* 9.3: the first five consecutive successes give the result. */
      if (run == NB_PASSAGE_TRIALS && !result->passed)
        {
          double sum = 0.0;

          for (gsize k = i + 1 - NB_PASSAGE_TRIALS; k <= i; k++)
            sum += sorted[k].time_s;
          result->passed = TRUE;
          result->mean_time_s = sum / NB_PASSAGE_TRIALS;
          result->first_trial = sorted[i + 1 - NB_PASSAGE_TRIALS].trial;
        }
    }
  return TRUE;
}

/* ----------------------------------------------------------------- 10 -- */

double
nb_metrics_dm (const double truth_mm[4][2], const double map_mm[4][2])
{
  double sum = 0.0;

  for (int i = 0; i < 4; i++)
    sum += hypot (truth_mm[i][0] - map_mm[i][0], truth_mm[i][1] - map_mm[i][1]);
  return sum / 4.0;
}
