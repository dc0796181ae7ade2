#include "nb-stats.h"

#include <math.h>

void
nb_running_push (NbRunning *r, double x)
{
  double delta;

  if (r->n == 0)
    r->shift = x;
  x -= r->shift;
  delta = x - r->mean;
  r->n++;
  r->mean += delta / (double) r->n;
  r->m2 += delta * (x - r->mean);
}

double
nb_running_mean (const NbRunning *r)
{
  return r->n > 0 ? r->shift + r->mean : NAN;
}

double
nb_running_sample_std (const NbRunning *r)
{
  if (r->n < 2)
    return NAN;
  return sqrt (r->m2 / (double) (r->n - 1));
}
