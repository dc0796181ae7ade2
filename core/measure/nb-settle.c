/* nb-settle.c — settle detection (see nb-settle.h) */
#include "nb-settle.h"
#include "nb-record-words.h"

#include "nb-angle.h"

#include "nb-error.h"

#include <math.h>
#include <string.h>

void
nb_settle_params_init (NbSettleParams *p)
{
  p->tolerance_m = 0.001;
  p->tolerance_deg = 0.1;
  p->window_s = 1.0;
  p->timeout_s = 10.0;
  p->min_samples = 5;
}

/* Mean and spread of samples [i, j]; TRUE when all are within tolerance. */
static gboolean
window_stats (const NbSample *s, guint i, guint j, const NbSettleParams *p, NbSettleResult *r)
{
  guint n = j - i + 1;
  double sx = 0, sy = 0, sz = 0, ss = 0, sc = 0, vx = 0, vy = 0, vz = 0, spread = 0, hspread = 0;
  gboolean headings = TRUE;

  for (guint k = i; k <= j; k++)
    {
      double h = nb_sample_heading_deg (&s[k]);

      sx += s[k].x_m;
      sy += s[k].y_m;
      sz += isfinite (s[k].z_m) ? s[k].z_m : 0.0;
      if (isfinite (h))
        {
          ss += sin (h * G_PI / 180.0);
          sc += cos (h * G_PI / 180.0);
        }
      else
        headings = FALSE;
    }
  r->x_m = sx / n;
  r->y_m = sy / n;
  r->z_m = sz / n;
  r->heading_deg = headings ? atan2 (ss, sc) * 180.0 / G_PI : NAN;
  for (guint k = i; k <= j; k++)
    {
      double dx = s[k].x_m - r->x_m, dy = s[k].y_m - r->y_m;
      double dz = (isfinite (s[k].z_m) ? s[k].z_m : 0.0) - r->z_m;

      vx += dx * dx;
      vy += dy * dy;
      vz += dz * dz;
      spread = MAX (spread, sqrt (dx * dx + dy * dy + dz * dz));
      if (headings)
        hspread = MAX (hspread, fabs (nb_angle_recast_deg (nb_sample_heading_deg (&s[k]) -
                                                           r->heading_deg)));
    }
  r->n = n;
  r->spread_m = spread;
  r->spread_deg = headings ? hspread : NAN;
  r->sd_x_m = sqrt (vx / (n - 1));
  r->sd_y_m = sqrt (vy / (n - 1));
  r->sd_z_m = sqrt (vz / (n - 1));
  r->t_start = s[i].t_s;
  r->t_end = s[j].t_s;
  return spread <= p->tolerance_m && (!headings || hspread <= p->tolerance_deg);
}

gboolean
nb_settle_find (const NbSample *s, guint n, double arrival, const NbSettleParams *p,
                NbSettleResult *r, GError **error)
{
  guint first = 0;
  double best_spread = INFINITY;

  memset (r, 0, sizeof *r);
  r->heading_deg = r->spread_deg = NAN;
  if (!(p->tolerance_m > 0) || !(p->window_s > 0) || !(p->timeout_s >= p->window_s) ||
      !(p->tolerance_deg > 0) || p->min_samples < 2 || !isfinite (arrival))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "settle: tolerances and window must be positive, the timeout at least the "
                   "window, at least 2 samples, and the arrival time finite");
      return FALSE;
    }
  for (guint k = 0; k < n; k++)
    if (!isfinite (s[k].t_s) || (k > 0 && s[k].t_s < s[k - 1].t_s))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "settle: sample %u: time not finite or earlier than the one before", k + 1);
        return FALSE;
      }
  while (first < n && s[first].t_s < arrival)
    first++;
  /* The first window (earliest start) that holds still wins: the robot's
   * settling time matters as much as where it stopped. */
  for (guint i = first, j = first; i < n && s[i].t_s + p->window_s <= arrival + p->timeout_s; i++)
    {
      NbSettleResult w;

      if (j < i)
        j = i;
      while (j + 1 < n && s[j + 1].t_s <= s[i].t_s + p->window_s)
        j++;
      /* The window must be covered by samples, not a gap (a dropout). */
      if (s[j].t_s - s[i].t_s < 0.9 * p->window_s || j - i + 1 < p->min_samples)
        continue;
      if (window_stats (s, i, j, p, &w))
        {
          *r = w;
          r->settled = TRUE;
          return TRUE;
        }
      best_spread = MIN (best_spread, w.spread_m);
    }
  r->settled = FALSE;
  if (isinf (best_spread))
    g_snprintf (r->reason, sizeof r->reason, NB_REASON_NO_WINDOW, p->window_s, p->timeout_s);
  else
    g_snprintf (r->reason, sizeof r->reason, NB_REASON_NOT_SETTLED, p->timeout_s, p->window_s,
                best_spread * 1e3, p->tolerance_m * 1e3);
  return TRUE;
}
