/* nb-unc.c — GUM propagation, JCGM 101 Monte Carlo, intervals, rounding,
 * ILAC G8 decisions (see nb-unc.h for the references) */
#include "nb-unc.h"

#include "nb-error.h"
#include "nb-number.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>

const char *
nb_unc_distribution_name (NbUncDistribution dist)
{
  switch (dist)
    {
    case NB_UNC_NORMAL:      return "normal";
    case NB_UNC_RECTANGULAR: return "rectangular";
    case NB_UNC_TRIANGULAR:  return "triangular";
    case NB_UNC_ARCSINE:     return "arcsine";
    case NB_UNC_STUDENT_T:   return "student-t";
    }
  return "unknown";
}

double
nb_unc_draw (gsl_rng *rng, const NbUncInput *in)
{
  switch (in->dist)
    {
    case NB_UNC_NORMAL:
      return in->value + gsl_ran_gaussian_ziggurat (rng, in->u);
    case NB_UNC_RECTANGULAR:
      return in->value + in->u * sqrt (3.0) * (2.0 * gsl_rng_uniform (rng) - 1.0);
    case NB_UNC_TRIANGULAR:
      /* The sum of two rectangular PDFs of half-width a/2 (JCGM 101 6.4.4). */
      return in->value + in->u * sqrt (6.0) * (gsl_rng_uniform (rng) + gsl_rng_uniform (rng) - 1.0);
    case NB_UNC_ARCSINE:
      return in->value + in->u * sqrt (2.0) * cos (G_PI * gsl_rng_uniform (rng));
    case NB_UNC_STUDENT_T:
      return in->value + in->u * gsl_ran_tdist (rng, in->dof);
    }
  return NAN;
}

/* ------------------------------------------------------------- GUM -- */

static gboolean
check_inputs (const NbUncInput *x, gsize n_x, GError **error)
{
  for (gsize i = 0; i < n_x; i++)
    {
      if (!isfinite (x[i].value) || !isfinite (x[i].u) || x[i].u < 0.0)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "uncertainty input '%s': value %g, u %g (a finite value and u ≥ 0 needed)",
                       x[i].name ? x[i].name : "?", x[i].value, x[i].u);
          return FALSE;
        }
      if (x[i].dist == NB_UNC_STUDENT_T && !(x[i].dof > 0.0))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "uncertainty input '%s': a t distribution needs ν > 0", x[i].name);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
nb_unc_gum (NbUncModel f, gpointer user_data, const NbUncInput *x, gsize n_x,
            const double *correlation, gsize n_y, double *y, double *jac, double *u_c,
            GError **error)
{
  g_autofree double *xv = g_new (double, MAX (n_x, 1));
  g_autofree double *yp = g_new (double, n_y);
  g_autofree double *ym = g_new (double, n_y);

  if (!check_inputs (x, n_x, error))
    return FALSE;
  for (gsize i = 0; i < n_x; i++)
    xv[i] = x[i].value;
  if (!f (xv, y, user_data))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "the measurement model is not defined at the input estimates");
      return FALSE;
    }

  for (gsize i = 0; i < n_x; i++)
    {
      /* GUM 5.1.3 note 2: the change of f over ±u(x_i). */
      double h = x[i].u > 0.0 ? x[i].u : cbrt (DBL_EPSILON) * MAX (fabs (x[i].value), 1.0);
      gboolean ok = FALSE;

      for (int tries = 0; tries < 30 && !ok; tries++, h *= 0.5)
        {
          xv[i] = x[i].value + h;
          ok = f (xv, yp, user_data);
          xv[i] = x[i].value - h;
          ok = ok && f (xv, ym, user_data);
          xv[i] = x[i].value;
          if (ok)
            for (gsize k = 0; k < n_y; k++)
              jac[k * n_x + i] = (yp[k] - ym[k]) / (2.0 * h);
        }
      if (!ok)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "the measurement model is not defined near '%s' = %g", x[i].name,
                       x[i].value);
          return FALSE;
        }
    }

  for (gsize k = 0; k < n_y; k++)
    {
      const double *c = jac + k * n_x;
      double s = 0.0;

      for (gsize i = 0; i < n_x; i++)
        {
          s += c[i] * c[i] * x[i].u * x[i].u;
          if (correlation != NULL)
            for (gsize j = i + 1; j < n_x; j++)
              s += 2.0 * c[i] * c[j] * correlation[i * n_x + j] * x[i].u * x[j].u;
        }
      u_c[k] = sqrt (MAX (s, 0.0));
    }
  return TRUE;
}

/* ---------------------------------------------- coverage intervals -- */

static gsize
interval_q (gsize m, double p)
{
  double pm = p * (double) m;
  double q = floor (pm) == pm ? pm : floor (pm + 0.5);

  return MIN ((gsize) q, m - 1);
}

void
nb_unc_interval_symmetric (const double *sorted, gsize m, double p, double *lo, double *hi)
{
  gsize q = interval_q (m, p);
  gsize r = MAX ((m - q + 1) / 2, 1);   /* ⌈(M − q)/2⌉, 1-based */

  *lo = sorted[r - 1];
  *hi = sorted[r - 1 + q];
}

void
nb_unc_interval_shortest (const double *sorted, gsize m, double p, double *lo, double *hi)
{
  gsize q = interval_q (m, p);
  gsize best = 0;
  double width = INFINITY;

  for (gsize i = 0; i + q < m; i++)
    if (sorted[i + q] - sorted[i] < width)
      {
        width = sorted[i + q] - sorted[i];
        best = i;
      }
  *lo = sorted[best];
  *hi = sorted[best + q];
}

/* u = c·10^l with c of n digits: the exponent l, made exact against
 * log10's rounding at powers of ten. */
static int
digit_exponent (double u, guint n)
{
  int l = (int) floor (log10 (u)) - (int) n + 1;

  if (u / pow (10.0, l) >= pow (10.0, n) * (1.0 - 1e-12))
    l++;
  else if (u / pow (10.0, l) < pow (10.0, (double) n - 1.0) * (1.0 - 1e-12))
    l--;
  return l;
}

double
nb_unc_tolerance (double u, guint n_dig)
{
  if (!(u > 0.0) || !isfinite (u))
    return 0.0;
  return 0.5 * pow (10.0, digit_exponent (u, MAX (n_dig, 1)));
}

/* ----------------------------------------------------- Monte Carlo -- */

void
nb_unc_mc_options_default (NbUncMcOptions *o, guint64 seed)
{
  o->p = NB_UNC_P;
  /* 7.9.2 a): one significant digit of u(y) stable — n_dig = 2 needs about
   * 10⁶ trials per figure (the endpoints at p = 0.9545 are the slow ones),
   * a whole campaign's protocol then takes seconds; 8.1 uses the same n_dig. */
  o->n_dig = NB_UNC_N_DIG;
  o->batch = 0;
  /* JCGM 101 7.9 until stable, bounded so that a whole campaign's protocol
   * stays well under a second; `converged` says when the bound stopped it. */
  o->max_trials = 200000;
  o->seed = seed;
}

/* Ascending sort of n finite doubles: LSD radix on the order-preserving
 * integer image of each double (sign flipped, or all bits for negatives),
 * 11 bits a pass (six passes; 2048 counters: the tails sorted below hold a
 * few thousand values, for which 16-bit passes spent their time clearing
 * and summing 65536 counters); tmp holds n values.  O(n): a comparison
 * sort was 40 % of a campaign's Monte Carlo. */
#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)

static void
sort_doubles (double *v, gsize n, double *tmp)
{
  guint64 *a = (guint64 *) v, *b = (guint64 *) tmp;
  gsize count[RADIX_SIZE];

  for (gsize i = 0; i < n; i++)
    {
      guint64 u;

      memcpy (&u, &v[i], sizeof u);
      a[i] = (u >> 63) ? ~u : u ^ G_GUINT64_CONSTANT (0x8000000000000000);
    }
  for (int shift = 0; shift < 64; shift += RADIX_BITS)
    {
      gsize sum = 0;
      guint64 *t;

      memset (count, 0, sizeof count);
      for (gsize i = 0; i < n; i++)
        count[(a[i] >> shift) & (RADIX_SIZE - 1)]++;
      for (gsize d = 0; d < RADIX_SIZE; d++)
        {
          gsize c = count[d];

          count[d] = sum;
          sum += c;
        }
      for (gsize i = 0; i < n; i++)
        b[count[(a[i] >> shift) & (RADIX_SIZE - 1)]++] = a[i];
      t = a, a = b, b = t;
    }
  /* Six passes (an even number): the result is back in v. */
  for (gsize i = 0; i < n; i++)
    {
      guint64 u = (a[i] >> 63) ? a[i] ^ G_GUINT64_CONSTANT (0x8000000000000000) : ~a[i];

      memcpy (&v[i], &u, sizeof u);
    }
}

static double select_kth (double *a, gsize n, gsize k);

/* v ordered as far as the coverage intervals of p read it: both of them
 * take their ends among the L = M − q smallest and the L largest values
 * (the shortest interval's ends are v[i] and v[i + q] for i < L, the
 * symmetric one's v[r − 1] and v[r − 1 + q] with r ≤ L), so those two
 * tails are selected (O(M)) and sorted, about 2·(1 − p) of the values; the
 * middle is left as it is.  The same ends as a full sort, at a tenth of
 * its cost for p = 0.9545. */
static void
sort_tails (double *v, gsize m, double p, double *tmp)
{
  gsize q = interval_q (m, p), l = m - q;

  if (2 * l >= m)
    {
      sort_doubles (v, m, tmp);
      return;
    }
  select_kth (v, m, l - 1);                    /* v[0..l) the l smallest */
  select_kth (v + l, m - l, m - 2 * l);        /* v[q..m) the l largest */
  sort_doubles (v, l, tmp);
  sort_doubles (v + q, l, tmp);
}

static void
summarise (const double *v, gsize m, double *mean, double *sd)
{
  double s = 0.0, ss = 0.0;

  for (gsize i = 0; i < m; i++)
    s += v[i];
  *mean = s / (double) m;
  for (gsize i = 0; i < m; i++)
    ss += (v[i] - *mean) * (v[i] - *mean);
  *sd = sqrt (ss / (double) (m - 1));
}

/* The k-th smallest (0-based) of a[0..n), a reordered (Hoare's selection). */
static double
select_kth (double *a, gsize n, gsize k)
{
  gsize lo = 0, hi = n - 1;

  while (lo < hi)
    {
      double pivot = a[lo + (hi - lo) / 2];
      gsize i = lo, j = hi;

      while (i <= j)
        {
          while (a[i] < pivot)
            i++;
          while (a[j] > pivot)
            j--;
          if (i <= j)
            {
              double t = a[i];

              a[i] = a[j];
              a[j] = t;
              i++;
              if (j == 0)
                break;
              j--;
            }
        }
      if (k <= j)
        hi = j;
      else if (k >= i)
        lo = i;
      else
        break;
    }
  return a[k];
}

/* One batch's results for 7.9.4: its mean, the half-width of its
 * probabilistically symmetric interval over the Gaussian coverage factor of
 * p (the standard uncertainty the interval states), and the interval's two
 * ends.  O(M) by selection: a batch need not be sorted. */
static void
batch_results (double *v, gsize m, double p, double st[4])
{
  gsize q = interval_q (m, p);
  gsize r = MAX ((m - q + 1) / 2, 1);
  double s = 0.0;

  for (gsize i = 0; i < m; i++)
    s += v[i];
  st[0] = s / (double) m;
  st[2] = select_kth (v, m, r - 1);
  /* v[r..m) holds the values ≥ st[2]: the upper end among them. */
  st[3] = select_kth (v + r, m - r, q - 1);
  st[1] = (st[3] - st[2]) / (2.0 * gsl_cdf_ugaussian_Pinv (0.5 + 0.5 * p));
}

/* Sample standard deviation of the mean of h batch values (7.9.4 f). */
static double
sd_of_mean (const double *b, guint h)
{
  double m = 0.0, ss = 0.0;

  for (guint r = 0; r < h; r++)
    m += b[r];
  m /= h;
  for (guint r = 0; r < h; r++)
    ss += (b[r] - m) * (b[r] - m);
  return sqrt (ss / ((double) h * (h - 1)));
}

gboolean
nb_unc_mc (NbUncDraw draw, gpointer user_data, gsize n_y, const NbUncMcOptions *options,
           NbUncMcResult *out, GError **error)
{
  double p = options->p;
  guint64 m = options->batch;
  guint64 max_trials = options->max_trials ? options->max_trials : 1000000;
  guint max_h, h = 0;
  gsl_rng *rng;
  g_autofree double *values = NULL;   /* n_y rows of max_h·M values */
  g_autofree double *batch_stats = NULL;  /* n_y × max_h × 4: y, u, lo, hi */
  g_autofree double *scratch = NULL;
  g_autofree double *sort_tmp = NULL;
  g_autofree double *yv = g_new (double, n_y);
  g_autofree double *b = NULL;          /* 4 × max_h: one output's batch results */
  gboolean converged = FALSE;

  if (!(p > 0.0 && p < 1.0) || n_y == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "Monte Carlo: p = %g, %zu outputs", p, n_y);
      return FALSE;
    }
  if (m == 0)   /* 7.9.2 b): M = max(J, 10⁴), J the least integer ≥ 100/(1 − p) */
    m = MAX ((guint64) ceil (100.0 / (1.0 - p) - 1e-9), 10000);
  max_h = (guint) MAX (max_trials / m, 2);
  values = g_new (double, n_y * max_h * m);
  batch_stats = g_new (double, n_y * max_h * 4);
  scratch = g_new (double, m);
  b = g_new (double, 4 * max_h);
  rng = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_rng_set (rng, (unsigned long) options->seed);

  while (h < max_h && !converged)
    {
      for (guint64 t = 0; t < m; t++)
        {
          gboolean ok = FALSE;

          for (int tries = 0; tries < 100 && !ok; tries++)
            {
              ok = draw (rng, yv, user_data);
              /* A non-finite value is outside the model's domain too. */
              for (gsize k = 0; k < n_y && ok; k++)
                ok = isfinite (yv[k]);
            }
          if (!ok)
            {
              gsl_rng_free (rng);
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                           "Monte Carlo: the model is undefined at 100 draws in a row");
              return FALSE;
            }
          for (gsize k = 0; k < n_y; k++)
            values[k * max_h * m + h * m + t] = yv[k];
        }
      for (gsize k = 0; k < n_y; k++)
        {
          double *st = batch_stats + (k * max_h + h) * 4;

          memcpy (scratch, values + k * max_h * m + h * m, m * sizeof (double));
          batch_results (scratch, m, p, st);
        }
      h++;
      if (h < 2)
        continue;

      /* 7.9.4 g)–h): every output's results stable to the δ of its u.
       * What the protocol states of a Monte Carlo figure is its interval
       * (U its half-width, u = U/k), so u here is the batch interval's
       * half-width over k_p, and the mean is not among the results checked:
       * for a mean of 3 trials (t, ν = 2) neither the PDF's variance nor
       * the batch means' spread is finite, and 7.9's literal criterion on
       * them would never be met — the interval's ends are. */
      converged = TRUE;
      for (gsize k = 0; k < n_y && converged; k++)
        {
          double u_all = 0.0, delta;

          for (guint r = 0; r < h; r++)
            for (int q = 0; q < 4; q++)
              b[q * max_h + r] = batch_stats[(k * max_h + r) * 4 + q];
          for (guint r = 0; r < h; r++)
            u_all += b[max_h + r] / h;
          delta = nb_unc_tolerance (u_all, options->n_dig);
          for (int q = 1; q < 4; q++)
            if (!(2.0 * sd_of_mean (b + q * max_h, h) <= delta))
              converged = FALSE;
        }
    }
  gsl_rng_free (rng);

  /* 7.9.4 i): the results from all h·M values. */
  sort_tmp = g_new (double, MAX ((gsize) h * m, 1));
  for (gsize k = 0; k < n_y; k++)
    {
      double *v = values + k * max_h * m;
      gsize total = (gsize) h * m;

      summarise (v, total, &out[k].y, &out[k].u);
      sort_tails (v, total, p, sort_tmp);
      nb_unc_interval_symmetric (v, total, p, &out[k].lo_sym, &out[k].hi_sym);
      nb_unc_interval_shortest (v, total, p, &out[k].lo, &out[k].hi);
      out[k].trials = total;
      out[k].converged = converged;
    }
  return TRUE;
}

gboolean
nb_unc_model_draw_init (NbUncModelDraw *d, NbUncModel f, gpointer user_data,
                        const NbUncInput *x, gsize n_x, const double *correlation,
                        GError **error)
{
  memset (d, 0, sizeof *d);
  if (!check_inputs (x, n_x, error))
    return FALSE;
  d->f = f;
  d->user_data = user_data;
  d->x = x;
  d->n_x = n_x;
  d->work = g_new (double, MAX (n_x, 1));
  d->z = g_new (double, MAX (n_x, 1));
  if (correlation != NULL)
    {
      gsl_matrix_view r;
      gsl_error_handler_t *old;
      int status;

      for (gsize i = 0; i < n_x; i++)
        for (gsize j = 0; j < n_x; j++)
          if (i != j && correlation[i * n_x + j] != 0.0 &&
              (x[i].dist != NB_UNC_NORMAL || x[j].dist != NB_UNC_NORMAL))
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                           "correlated inputs '%s' and '%s' must both be normal (JCGM 101 6.4.8)",
                           x[i].name, x[j].name);
              nb_unc_model_draw_clear (d);
              return FALSE;
            }
      d->chol = g_memdup2 (correlation, n_x * n_x * sizeof (double));
      r = gsl_matrix_view_array (d->chol, n_x, n_x);
      old = gsl_set_error_handler_off ();
      status = gsl_linalg_cholesky_decomp1 (&r.matrix);
      gsl_set_error_handler (old);
      if (status != GSL_SUCCESS)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "the correlation matrix of the inputs is not positive definite");
          nb_unc_model_draw_clear (d);
          return FALSE;
        }
    }
  return TRUE;
}

void
nb_unc_model_draw_clear (NbUncModelDraw *d)
{
  g_clear_pointer (&d->chol, g_free);
  g_clear_pointer (&d->work, g_free);
  g_clear_pointer (&d->z, g_free);
}

gboolean
nb_unc_model_draw (gsl_rng *rng, double *y, gpointer model_draw)
{
  NbUncModelDraw *d = model_draw;

  if (d->chol == NULL)
    for (gsize i = 0; i < d->n_x; i++)
      d->work[i] = nb_unc_draw (rng, &d->x[i]);
  else
    {
      /* JCGM 101 6.4.8: x = μ + L·z for the normal inputs (L lower). */
      for (gsize i = 0; i < d->n_x; i++)
        d->z[i] = gsl_ran_gaussian_ziggurat (rng, 1.0);
      for (gsize i = 0; i < d->n_x; i++)
        if (d->x[i].dist == NB_UNC_NORMAL)
          {
            double s = 0.0;

            for (gsize j = 0; j <= i; j++)
              s += d->chol[i * d->n_x + j] * d->z[j];
            d->work[i] = d->x[i].value + d->x[i].u * s;
          }
        else
          d->work[i] = nb_unc_draw (rng, &d->x[i]);
    }
  return d->f (d->work, y, d->user_data);
}

/* ------------------------------------------------------- a figure -- */

const char *
nb_unc_method_name (NbUncMethod method)
{
  return method == NB_UNC_METHOD_GUM ? "gum" : "monte-carlo";
}

void
nb_unc_figure_decide (NbUncFigure *fig, double value, double u_c, double u_measurement,
                      double u_sampling, const NbUncMcResult *mc)
{
  double U = NB_UNC_K * u_c;

  memset (fig, 0, sizeof *fig);
  fig->value = value;
  fig->u_c = u_c;
  fig->u_measurement = u_measurement;
  fig->u_sampling = u_sampling;
  fig->k = NB_UNC_K;
  fig->mc = *mc;
  /* JCGM 101 8.2: the GUM interval y ± U against the Monte Carlo one, the
   * probabilistically symmetric (the GUM's is symmetric by construction);
   * δ (8.1) from u_c with the n_dig the Monte Carlo was made stable to. */
  fig->delta = nb_unc_tolerance (u_c, NB_UNC_N_DIG);
  fig->d_low = fabs (value - U - mc->lo_sym);
  fig->d_high = fabs (value + U - mc->hi_sym);
  fig->validated = u_c > 0.0 && fig->d_low <= fig->delta && fig->d_high <= fig->delta;
  if (fig->validated || u_c == 0.0)
    {
      fig->method = NB_UNC_METHOD_GUM;
      fig->u = u_c;
      fig->U = U;
      fig->lo = value - U;
      fig->hi = value + U;
    }
  else
    {
      fig->method = NB_UNC_METHOD_MONTE_CARLO;
      /* The interval is what the Monte Carlo states (JCGM 101 7.7); U is
       * its half-width, the symmetric ± that spans it, so that a U column
       * reads the same for both methods, and u = U/k.  (The PDF's standard
       * deviation, mc.u, would mislead where the PDF is skewed or, for a
       * mean of 3 trials (t with ν = 2), has no finite variance.) */
      fig->U = 0.5 * (mc->hi - mc->lo);
      fig->u = fig->U / NB_UNC_K;
      fig->lo = mc->lo;
      fig->hi = mc->hi;
      if (u_sampling == 0.0)
        {
          /* A figure of the measurement alone (a max, a distance): its
           * inputs' PDFs are symmetric errors about the estimates, so the
           * propagated PDF is that of f(x̂ + e), centred near y + b with
           * the model's bias b (the max of two tied trials: +σ/√π), while
           * the estimate itself sits at f(x) + b.  The measurand's interval
           * is then the propagated one reflected about y, [2y − y_high,
           * 2y − y_low]: the bias corrected (GUM 3.2.3–3.2.4) and the long
           * tail on the side where the measurand can be.  The coverage
           * study (docs/uncertainty.md) shows why: Dm 92 % as JCGM 101
           * states it, ≈ 95 % so. */
          fig->bias = mc->y - value;
          fig->lo = 2.0 * value - mc->hi;
          fig->hi = 2.0 * value - mc->lo;
        }
    }
}

/* ---------------------------------------------------- reporting -- */

double
nb_unc_round_U (double U, int *decimals)
{
  int l;
  double c;

  if (!(U > 0.0) || !isfinite (U))
    {
      *decimals = 0;
      return U > 0.0 ? U : 0.0;
    }
  l = digit_exponent (U, 2);
  /* Up to two digits; a U already on the grid (to 1e-9 of a digit) is kept. */
  c = ceil (U / pow (10.0, l) - 1e-9);
  if (c >= 100.0)
    {
      l++;
      c = ceil (U / pow (10.0, l) - 1e-9);
    }
  *decimals = -l;
  /* Divided by an exact power of ten, so 23·10⁻¹ is the double nearest 2.3. */
  return l < 0 ? c / pow (10.0, -l) : c * pow (10.0, l);
}

double
nb_unc_round_value (double value, int decimals)
{
  if (decimals >= 0)
    {
      double s = pow (10.0, decimals);

      return round (value * s) / s;
    }
  return round (value / pow (10.0, -decimals)) * pow (10.0, -decimals);
}

void
nb_unc_round_interval (double lo, double hi, int decimals, double *rlo, double *rhi)
{
  if (decimals >= 0)
    {
      double s = pow (10.0, decimals);

      *rlo = floor (lo * s + 1e-9) / s;
      *rhi = ceil (hi * s - 1e-9) / s;
    }
  else
    {
      double s = pow (10.0, -decimals);

      *rlo = floor (lo / s + 1e-9) * s;
      *rhi = ceil (hi / s - 1e-9) * s;
    }
}

/* -------------------------------------------------------- Type A -- */

double
nb_unc_sd_dof (const double *x, gsize n)
{
  double mean = 0.0, m2 = 0.0, m4 = 0.0, v;

  if (n < 4)
    return n > 1 ? n - 1.0 : 1.0;
  for (gsize i = 0; i < n; i++)
    mean += x[i] / n;
  for (gsize i = 0; i < n; i++)
    {
      double d2 = (x[i] - mean) * (x[i] - mean);

      m2 += d2 / n;
      m4 += d2 * d2 / n;
    }
  if (!(m2 > 0.0))
    return n - 1.0;
  /* κ̂ ≥ 1 for any sample, so v ≥ 2/(n(n − 1)) > 0 and ν ≤ n(n − 1). */
  v = m4 / (m2 * m2) / n - (n - 3.0) / ((double) n * (n - 1.0));
  return MAX (2.0 / v, 1.0);
}

/* --------------------------------------------------- conformity -- */

gboolean
nb_unc_parse_coverage (const char *text, double *k, GError **error)
{
  g_autofree char *t = g_strstrip (g_strdup (text ? text : ""));
  double v;

  if (g_ascii_strcasecmp (t, "rectangular") == 0)
    {
      *k = 0.0;
      return TRUE;
    }
  if (nb_parse_double (t, strlen (t), &v) && v > 0.0)
    {
      *k = v;
      return TRUE;
    }
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
               "'%s' is neither a coverage factor > 0 nor 'rectangular'", t);
  return FALSE;
}

const char *
nb_decision_rule_name (NbDecisionRule rule)
{
  return rule == NB_DECISION_SIMPLE ? "simple-acceptance" : "guarded-w=U";
}

gboolean
nb_decision_rule_parse (const char *text, NbDecisionRule *rule, GError **error)
{
  if (g_strcmp0 (text, "simple-acceptance") == 0 || g_strcmp0 (text, "simple") == 0)
    *rule = NB_DECISION_SIMPLE;
  else if (g_strcmp0 (text, "guarded-w=U") == 0 || g_strcmp0 (text, "guarded") == 0)
    *rule = NB_DECISION_GUARDED;
  else
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "decision rule '%s': simple-acceptance or guarded-w=U (ILAC G8:2019 4.2)",
                   text ? text : "");
      return FALSE;
    }
  return TRUE;
}

const char *
nb_conformity_name (NbConformity c)
{
  switch (c)
    {
    case NB_CONFORMS:         return "conforms";
    case NB_DOES_NOT_CONFORM: return "does-not-conform";
    case NB_INCONCLUSIVE:     return "inconclusive";
    }
  return "unknown";
}

NbConformity
nb_conformity_decide (double value, double lo, double hi, double limit, gboolean upper,
                      NbDecisionRule rule)
{
  if (rule == NB_DECISION_SIMPLE)
    /* ILAC G8 4.2.1: w = 0, the figure itself decides (the risk of a false
     * accept up to 50 % at the limit is the customer's, stated in the rule). */
    return (upper ? value <= limit : value >= limit) ? NB_CONFORMS : NB_DOES_NOT_CONFORM;
  /* 4.2.2–4.2.3, w = U: acceptance zone TL − w, rejection zone TL + w; between
   * them no statement of conformity can be made with 95 % confidence.  The
   * stated interval stands for y ± U (the MC one where that is asymmetric). */
  if (upper)
    return hi <= limit ? NB_CONFORMS : lo > limit ? NB_DOES_NOT_CONFORM : NB_INCONCLUSIVE;
  return lo >= limit ? NB_CONFORMS : hi < limit ? NB_DOES_NOT_CONFORM : NB_INCONCLUSIVE;
}

NbConformity
nb_conformity_decide_symmetric (double value, double lo, double hi, double limit,
                                NbDecisionRule rule)
{
  if (rule == NB_DECISION_SIMPLE)
    return fabs (value) <= limit ? NB_CONFORMS : NB_DOES_NOT_CONFORM;
  /* Conforms when the whole interval is inside [−limit, limit], does not
   * when it is wholly beyond either limit, inconclusive when it contains
   * one (an interval wider than the tolerance contains both). */
  if (lo >= -limit && hi <= limit)
    return NB_CONFORMS;
  return hi < -limit || lo > limit ? NB_DOES_NOT_CONFORM : NB_INCONCLUSIVE;
}
