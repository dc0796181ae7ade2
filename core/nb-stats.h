/* nb-stats.h — running mean and sample standard deviation
 *
 * Welford's update: one pass, no allocation, no cancellation when the values
 * are large and their spread small (the reason a plain Σx² fails).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 n;
  double mean;
  double m2;    /* Σ (x − mean)² so far */
} NbRunning;

#define NB_RUNNING_INIT { 0, 0.0, 0.0 }

void   nb_running_push       (NbRunning *r, double x);
double nb_running_mean       (const NbRunning *r);  /* NaN when n = 0 */
double nb_running_sample_std (const NbRunning *r);  /* (n − 1) form; NaN when n < 2 */

G_END_DECLS
