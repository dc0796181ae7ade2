/* nb-settle.h — the attained pose: where the robot came to rest
 *
 * ISO 18646-2 5.2: an attained pose is measured once the robot has reached
 * the command pose and stopped.  After the robot reports arrival, the first
 * window of window_s in which every sample stays within tolerance_m of the
 * window's mean position (and tolerance_deg of its mean heading, where the
 * instrument gives one) is the settled window; its mean is the attained
 * pose and its spread is reported.  No such window within timeout_s of the
 * arrival is a failed trial, said so in words.
 */
#pragma once

#include "nb-sample.h"

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  double tolerance_m;     /* largest distance of a sample from the window mean */
  double tolerance_deg;   /* the same for heading (ignored without headings) */
  double window_s;        /* how long the robot must stay still */
  double timeout_s;       /* after the arrival event */
  guint min_samples;      /* in the window (at least 2) */
} NbSettleParams;

typedef struct {
  gboolean settled;
  double t_start, t_end;          /* the settled window */
  guint n;                        /* samples in it */
  double x_m, y_m, z_m;           /* mean position: the attained pose */
  double heading_deg;             /* circular mean, NAN without headings */
  double spread_m;                /* largest distance from the mean */
  double sd_x_m, sd_y_m, sd_z_m;  /* sample standard deviations */
  double spread_deg;              /* largest heading deviation, NAN without */
  char reason[160];               /* why not, when !settled */
} NbSettleResult;

void     nb_settle_params_init (NbSettleParams *params);
/* samples sorted by t_s.  FALSE only for bad parameters or unsorted or
 * non-finite timestamps (NB_ERROR_INPUT); a robot that never settles is
 * TRUE with result->settled FALSE and result->reason. */
gboolean nb_settle_find (const NbSample *samples, guint n, double arrival_t_s,
                         const NbSettleParams *params, NbSettleResult *result, GError **error);

G_END_DECLS
