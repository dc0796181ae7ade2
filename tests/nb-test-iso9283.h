/* nb-test-iso9283.h — the references the ISO 9283 tests compute their
 * expected figures with (test-sim-arm-iso9283, test-iso9283-campaign,
 * test-iso9283-http):
 * independent of the simulator's own code. */
#pragma once

#include <glib.h>
#include <math.h>
#include <stdlib.h>

/* A normal deviate of σ sigma (Box–Muller). */
static inline double
nb_test_gauss (GRand *r, double sigma)
{
  double u = g_rand_double_range (r, 1e-300, 1.0), v = g_rand_double (r);

  return sigma * sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

static inline int
nb_test_cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The p-quantile of v[0..n): the order statistic nearest p·(n − 1) (v is
 * sorted in place). */
static inline double
nb_test_quantile (double *v, guint n, double p)
{
  qsort (v, n, sizeof *v, nb_test_cmp_double);
  return v[(guint) CLAMP (p * (n - 1) + 0.5, 0, n - 1)];
}

/* The servo's closed form (independent of the simulator's integrator):
 * ẍ = ω²(r − x) − 2ζω·ẋ on a ramp r = q0 + v·t over T, x(0) = q0, ẋ(0) = 0.
 * During the ramp the error e = r − x obeys ë + 2ζω·ė + ω²e = 2ζω·v: the
 * lag e_ss = 2ζv/ω plus a decaying ring with e(0) = 0, ė(0) = v; after T the
 * ramp stops (ė jumps by −v) and e rings down freely. */
static inline double
nb_test_servo_closed_form (double q0, double q1, double T, double w, double z, double t)
{
  double s = z * w, wd = w * sqrt (1 - z * z), v = (q1 - q0) / T, ess = 2 * z * v / w;
  double B = (v - s * ess) / wd, e, de, tau, f, df;

  if (t < 0)
    return q0;
  if (t < T)
    return q0 + v * t - (ess + exp (-s * t) * (-ess * cos (wd * t) + B * sin (wd * t)));
  f = -ess * cos (wd * T) + B * sin (wd * T);
  df = ess * wd * sin (wd * T) + B * wd * cos (wd * T);
  e = ess + exp (-s * T) * f;
  de = exp (-s * T) * (df - s * f) - v;
  tau = t - T;
  return q1 - exp (-s * tau) * (e * cos (wd * tau) + (de + s * e) / wd * sin (wd * tau));
}
