/* nb-segmentation.c — trials found in an instrument's stream (see nb-segmentation.h) */
#include "nb-segmentation.h"

#include "nb-error.h"

#include <math.h>
#include <string.h>

/* A settle window may start any time after the one asked for. */
#define UNLIMITED_S 1e12

void
nb_segmentation_params_init (NbSegmentationParams *p)
{
  memset (p, 0, sizeof *p);
  p->start_radius_m = 0.5;
  p->target_radius_m = 0.5;
  p->motion_m = 0.05;
  nb_settle_params_init (&p->settle);
  p->settle.window_s = 0.5;
  p->settle.tolerance_m = 0.005;
  p->settle.tolerance_deg = 1.0;
}

/* The first index whose sample is at or after t. */
static guint
index_at (const NbSample *s, guint n, guint from, double t)
{
  while (from < n && s[from].t_s < t)
    from++;
  return from;
}

static double
distance_m (double x, double y, const double p[2])
{
  return hypot (x - p[0], y - p[1]);
}

/* The first settled window starting at or after samples[from]; FALSE (no
 * error) when there is none yet. */
static gboolean
next_rest (const NbSample *s, guint n, guint from, const NbSettleParams *settle,
           NbSettleResult *rest, gboolean *found, GError **error)
{
  NbSettleParams p = *settle;

  *found = FALSE;
  if (from >= n)
    return TRUE;
  p.timeout_s = UNLIMITED_S;
  if (!nb_settle_find (s + from, n - from, s[from].t_s, &p, rest, error))
    return FALSE;
  *found = rest->settled;
  return TRUE;
}

gboolean
nb_segmentation_find (const NbSample *s, guint n, guint from, const NbSegmentationParams *p,
                 NbSegmentation *seg, GError **error)
{
  NbSettleResult rest;
  gboolean found;
  guint i, k;

  memset (seg, 0, sizeof *seg);
  seg->state = NB_SEGMENTATION_WAITING;
  seg->t_ready = seg->t_start = seg->t_arrival = NAN;
  if (!(p->start_radius_m > 0) || !(p->target_radius_m > 0) || !(p->motion_m > 0) ||
      !(p->motion_m > p->settle.tolerance_m))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "segmentation: radii and motion threshold "
                   "must be > 0, the motion threshold above the settle tolerance");
      return FALSE;
    }
  /* Ready: a rest within the start radius of P0. */
  for (i = from;;)
    {
      if (!next_rest (s, n, i, &p->settle, &rest, &found, error))
        return FALSE;
      if (!found)
        return TRUE;
      if (distance_m (rest.x_m, rest.y_m, p->p0_m) <= p->start_radius_m)
        break;
      /* Resting elsewhere: look on after that window. */
      i = index_at (s, n, i, rest.t_end) + 1;
    }
  seg->state = NB_SEGMENTATION_READY;
  seg->t_ready = rest.t_end;
  /* Left P0: the first sample after the rest farther than motion_m from
   * it; the start is the last sample before it still within the settle
   * tolerance of the rest pose (when it began to move, not when it was
   * already 5 cm away). */
  for (k = index_at (s, n, i, rest.t_end); k < n; k++)
    if (distance_m (s[k].x_m, s[k].y_m, (double[2]) { rest.x_m, rest.y_m }) > p->motion_m)
      break;
  if (k >= n)
    return TRUE;
  {
    guint b = k;

    while (b > i && distance_m (s[b - 1].x_m, s[b - 1].y_m, (double[2]) { rest.x_m, rest.y_m })
                      > p->settle.tolerance_m)
      b--;
    seg->i_start = b > i ? b - 1 : i;
  }
  seg->t_start = s[seg->i_start].t_s;
  seg->state = NB_SEGMENTATION_MOVING;
  /* Arrived: the first rest after leaving within the target radius. */
  for (i = k;;)
    {
      if (!next_rest (s, n, i, &p->settle, &rest, &found, error))
        return FALSE;
      if (!found)
        return TRUE;
      if (distance_m (rest.x_m, rest.y_m, p->target_m) <= p->target_radius_m)
        break;
      i = index_at (s, n, i, rest.t_end) + 1;
    }
  seg->state = NB_SEGMENTATION_ARRIVED;
  seg->attained = rest;
  seg->t_arrival = rest.t_start;
  seg->i_arrival = index_at (s, n, i, rest.t_start);
  seg->i_end = index_at (s, n, seg->i_arrival, rest.t_end) + 1;
  return TRUE;
}
