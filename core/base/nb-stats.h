/* nb-stats.h — running mean and sample standard deviation
 *
 * Welford's update on values shifted by the first one: one pass, no
 * allocation, and no cancellation when the values are large and their spread
 * small (a plain Σx² loses every digit there; an unshifted Welford mean still
 * rounds at the values' magnitude).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 n;
  double shift; /* the first value: x − shift is exact for nearby x (Sterbenz) */
  double mean;  /* of x − shift */
  double m2;    /* Σ (x − mean)² so far */
} NbRunning;

#define NB_RUNNING_INIT { 0, 0.0, 0.0, 0.0 }

void   nb_running_push       (NbRunning *r, double x);
double nb_running_mean       (const NbRunning *r);  /* NaN when n = 0 */
double nb_running_sample_std (const NbRunning *r);  /* (n − 1) form; NaN when n < 2 */

G_END_DECLS
