/* test-unc — GUM, JCGM 101 Monte Carlo, intervals, rounding, ILAC G8, and
 * the clause models against cases with analytic answers */
#include "nb-error.h"
#include "nb-test.h"
#include "nb-unc-iso.h"
#include "nb-unc.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

/* --------------------------------------------------------- rounding -- */

static void
test_round (void)
{
  int dec;

  /* GUM 7.2.6: two significant digits, rounded up. */
  nb_assert_abs (nb_unc_round_U (0.3612, &dec), 0.37, 1e-12, "0.3612 → 0.37");
  g_assert_cmpint (dec, ==, 2);
  nb_assert_abs (nb_unc_round_U (0.37, &dec), 0.37, 1e-12, "0.37 stays");
  nb_assert_abs (nb_unc_round_U (0.0995, &dec), 0.10, 1e-12, "0.0995 → 0.10");
  g_assert_cmpint (dec, ==, 2);
  nb_assert_abs (nb_unc_round_U (1432.0, &dec), 1500.0, 1e-9, "1432 → 1500");
  g_assert_cmpint (dec, ==, -2);
  nb_assert_abs (nb_unc_round_U (12.0, &dec), 12.0, 1e-12, "12 stays");
  g_assert_cmpint (dec, ==, 0);
  nb_assert_abs (nb_unc_round_value (3.14159, 2), 3.14, 1e-12, "value to U's place");
  nb_assert_abs (nb_unc_round_value (123456.0, -2), 123500.0, 1e-9, "value to hundreds");
  {
    double lo, hi;

    nb_unc_round_interval (1.234, 5.671, 2, &lo, &hi);
    nb_assert_abs (lo, 1.23, 1e-12, "interval outward, lo");
    nb_assert_abs (hi, 5.68, 1e-12, "interval outward, hi");
  }
}

static void
test_tolerance (void)
{
  /* JCGM 101 7.9.2: u = c·10^l, c of n_dig digits, δ = ½·10^l (its example:
   * u = 0.36 with n_dig = 2 → δ = 0.005). */
  nb_assert_abs (nb_unc_tolerance (0.36, 2), 0.005, 1e-15, "0.36, 2 digits");
  nb_assert_abs (nb_unc_tolerance (0.36, 1), 0.05, 1e-15, "0.36, 1 digit");
  nb_assert_abs (nb_unc_tolerance (1.0, 2), 0.05, 1e-15, "1.0 = 10·10⁻¹");
  nb_assert_abs (nb_unc_tolerance (0.1, 2), 0.005, 1e-15, "0.1 = 10·10⁻²");
  nb_assert_abs (nb_unc_tolerance (99.9, 2), 0.5, 1e-15, "99.9 = 99.9·10⁰ → 2 digits 10⁰");
  g_assert_cmpfloat (nb_unc_tolerance (0.0, 2), ==, 0.0);
}

static void
test_intervals (void)
{
  double v[100], lo, hi;
  double skew[1000];

  for (int i = 0; i < 100; i++)
    v[i] = i + 1;
  /* 7.7.1: M = 100, p = 0.9: q = 90, r = 5 → [y_(5), y_(95)]. */
  nb_unc_interval_symmetric (v, 100, 0.9, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 5.0);
  g_assert_cmpfloat (hi, ==, 95.0);
  /* An exponential sample: the shortest interval starts at the smallest value. */
  for (int i = 0; i < 1000; i++)
    skew[i] = -log (1.0 - (i + 0.5) / 1000.0);
  nb_unc_interval_shortest (skew, 1000, 0.9, &lo, &hi);
  g_assert_cmpfloat (lo, ==, skew[0]);
  g_assert_cmpfloat (hi, ==, skew[900]);
  nb_unc_interval_symmetric (skew, 1000, 0.9, &lo, &hi);
  g_assert_cmpfloat (lo, ==, skew[49]);
}

/* --------------------------------------------------- GUM and MC -- */

static gboolean
linear_f (const double *x, double *y, gpointer data)
{
  y[0] = x[0] + 2.0 * x[1] - 3.0 * x[2];
  return TRUE;
}

static void
test_linear_budget (void)
{
  /* y = x1 + 2 x2 − 3 x3, normal inputs and one small rectangular: GUM is
   * exact for u_c and the output nearly Gaussian, so JCGM 101 8 must
   * validate it (d_low, d_high ≤ δ). */
  NbUncInput x[] = {
    { "x1", "test", 10.0, 0.30, NB_UNC_NORMAL, 0 },
    { "x2", "test", 5.0, 0.20, NB_UNC_NORMAL, 0 },
    { "x3", "test", 1.0, 0.02, NB_UNC_RECTANGULAR, 0 },
  };
  double y, jac[3], u_c, expect = sqrt (0.09 + 0.16 + 0.0036);
  NbUncModelDraw d;
  NbUncMcOptions o;
  NbUncMcResult mc, mc2;
  NbUncFigure fig;
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_unc_gum (linear_f, NULL, x, 3, NULL, 1, &y, jac, &u_c, &error));
  nb_assert_abs (y, 17.0, 1e-12, "y");
  nb_assert_rel (jac[0], 1.0, 1e-12, "c1");
  nb_assert_rel (jac[1], 2.0, 1e-12, "c2");
  nb_assert_rel (jac[2], -3.0, 1e-12, "c3");
  nb_assert_rel (u_c, expect, 1e-12, "u_c");

  g_assert_true (nb_unc_model_draw_init (&d, linear_f, NULL, x, 3, NULL, &error));
  nb_unc_mc_options_default (&o, 1);
  g_assert_true (nb_unc_mc (nb_unc_model_draw, &d, 1, &o, &mc, &error));
  g_assert_true (mc.converged);
  g_assert_cmpuint (mc.trials % 10000, ==, 0);
  g_assert_cmpuint (mc.trials, >=, 20000);
  nb_assert_abs (mc.y, 17.0, 0.01, "MC mean");
  nb_assert_rel (mc.u, expect, 0.02, "MC u");
  nb_unc_figure_decide (&fig, y, u_c, u_c, 0.0, &mc);
  g_test_message ("linear: u_c %.5f, MC u %.5f, d_low %.5f d_high %.5f δ %.4f, M %" G_GUINT64_FORMAT,
                  u_c, mc.u, fig.d_low, fig.d_high, fig.delta, mc.trials);
  g_assert_true (fig.validated);
  g_assert_cmpint (fig.method, ==, NB_UNC_METHOD_GUM);
  nb_assert_abs (fig.U, 2.0 * expect, 1e-12, "U = 2 u_c");
  nb_assert_abs (fig.lo, 17.0 - 2.0 * expect, 1e-12, "GUM interval");

  /* Seeded: the same seed gives the same numbers, another seed others. */
  g_assert_true (nb_unc_mc (nb_unc_model_draw, &d, 1, &o, &mc2, &error));
  g_assert_cmpfloat (mc2.lo, ==, mc.lo);
  g_assert_cmpfloat (mc2.u, ==, mc.u);
  o.seed = 2;
  g_assert_true (nb_unc_mc (nb_unc_model_draw, &d, 1, &o, &mc2, &error));
  g_assert_cmpfloat (mc2.lo, !=, mc.lo);
  nb_unc_model_draw_clear (&d);
}

static void
test_correlated (void)
{
  /* Correlated normal inputs (JCGM 100 5.2.2, JCGM 101 6.4.8). */
  NbUncInput x[] = {
    { "x1", "test", 0.0, 1.0, NB_UNC_NORMAL, 0 },
    { "x2", "test", 0.0, 1.0, NB_UNC_NORMAL, 0 },
  };
  double y, u_c;
  NbUncModelDraw d;
  NbUncMcOptions o;
  NbUncMcResult mc;
  g_autoptr (GError) error = NULL;

  {
    NbUncInput x3[] = { x[0], x[1], { "x3", "test", 0.0, 0.0, NB_UNC_NORMAL, 0 } };
    double r3[9] = { 1, 0.8, 0, 0.8, 1, 0, 0, 0, 1 };
    double j3[3];

    /* x1 + 2 x2 − 3·0 with r = 0.8: 1 + 4 + 2·2·0.8 = 8.2 */
    g_assert_true (nb_unc_gum (linear_f, NULL, x3, 3, r3, 1, &y, j3, &u_c, &error));
    nb_assert_rel (u_c, sqrt (8.2), 1e-12, "correlated u_c");
    g_assert_true (nb_unc_model_draw_init (&d, linear_f, NULL, x3, 3, r3, &error));
    nb_unc_mc_options_default (&o, 7);
    g_assert_true (nb_unc_mc (nb_unc_model_draw, &d, 1, &o, &mc, &error));
    nb_assert_rel (mc.u, sqrt (8.2), 0.02, "correlated MC u");
    nb_unc_model_draw_clear (&d);
  }
  /* A correlation with a non-normal input is refused. */
  {
    NbUncInput xr[] = { x[0], { "x2", "test", 0.0, 1.0, NB_UNC_RECTANGULAR, 0 },
                        { "x3", "test", 0.0, 0.0, NB_UNC_NORMAL, 0 } };
    double r3[9] = { 1, 0.5, 0, 0.5, 1, 0, 0, 0, 1 };

    g_assert_false (nb_unc_model_draw_init (&d, linear_f, NULL, xr, 3, r3, &error));
    g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  }
}

static void
test_distributions (void)
{
  /* Each PDF's sample standard deviation is its u (t: u·√(ν/(ν − 2))). */
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  NbUncDistribution dists[] = { NB_UNC_NORMAL, NB_UNC_RECTANGULAR, NB_UNC_TRIANGULAR,
                                NB_UNC_ARCSINE, NB_UNC_STUDENT_T };

  gsl_rng_set (rng, 3);
  for (guint k = 0; k < G_N_ELEMENTS (dists); k++)
    {
      NbUncInput in = { "x", "test", 5.0, 2.0, dists[k], 10.0 };
      double s = 0.0, ss = 0.0, expect = dists[k] == NB_UNC_STUDENT_T ? 2.0 * sqrt (10.0 / 8.0)
                                                                        : 2.0;
      int n = 200000;

      for (int i = 0; i < n; i++)
        {
          double v = nb_unc_draw (rng, &in);

          s += v;
          ss += v * v;
        }
      nb_assert_abs (s / n, 5.0, 0.02, nb_unc_distribution_name (dists[k]));
      nb_assert_rel (sqrt (ss / n - (s / n) * (s / n)), expect, 0.01,
                     nb_unc_distribution_name (dists[k]));
    }
  gsl_rng_free (rng);
}

/* ------------------------------------------------------- clause 5 -- */

static NbPose *
gaussian_poses (gsize n, double bx, double by, double sigma, double sigma_deg, guint64 seed)
{
  NbPose *p = g_new (NbPose, n);
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);

  gsl_rng_set (rng, seed);
  for (gsize j = 0; j < n; j++)
    p[j] = (NbPose) { 1000.0 + bx + gsl_ran_gaussian (rng, sigma),
                      2000.0 + by + gsl_ran_gaussian (rng, sigma),
                      90.0 + gsl_ran_gaussian (rng, sigma_deg) };
  gsl_rng_free (rng);
  return p;
}

static void
test_pose_isotropic (void)
{
  /* Ap of isotropic Gaussian scatter σ about a bias along x: u(x̄) = σ/√n
   * per axis, and ∂Ap/∂x̄ = 1, ∂Ap/∂ȳ = 0 there, so u_c(Ap) = σ/√n (with
   * no instrument); the instrument's systematic u adds in quadrature. */
  const gsize n = 4000;
  const double sigma = 1.5;
  NbPose command = { 1000.0, 2000.0, 90.0 };
  g_autofree NbPose *p = gaussian_poses (n, 25.0, 0.0, sigma, 0.2, 11);
  g_autoptr (NbUncBudget) b = NULL, b2 = NULL;
  g_autoptr (GError) error = NULL;
  NbUncSetup s;
  const NbUncFigure *ap;

  nb_unc_setup_init (&s);
  b = nb_unc_pose (&s, &command, p, n, 5, &error);
  g_assert_no_error (error);
  ap = nb_unc_budget_figure (b, "ap_mm");
  g_assert_nonnull (ap);
  nb_assert_rel (ap->u_c, sigma / sqrt ((double) n), 0.04, "u(Ap) = σ/√n");
  /* The lines ignore the x̄–ȳ correlation that u_c has (tiny here). */
  nb_assert_rel (ap->u_sampling, ap->u_c, 1e-4, "all of it is sampling");
  g_assert_cmpfloat (ap->u_measurement, ==, 0.0);
  /* ν = 3999: the t is a normal, the model is linear at 25 mm ≫ σ/√n:
   * the Monte Carlo agrees and GUM is the method. */
  g_assert_true (ap->validated);
  g_assert_cmpint (ap->method, ==, NB_UNC_METHOD_GUM);

  s.lin_const_mm = 0.5;   /* 0.5 mm (k = 2) → 0.25 mm per coordinate */
  b2 = nb_unc_pose (&s, &command, p, n, 5, &error);
  g_assert_no_error (error);
  ap = nb_unc_budget_figure (b2, "ap_mm");
  nb_assert_rel (ap->u_measurement, 0.25, 1e-6, "systematic part");
  nb_assert_rel (ap->u_c, hypot (0.25, nb_unc_budget_figure (b, "ap_mm")->u_c), 1e-6,
                 "in quadrature");
  /* Ao: the heading's systematic and Type A parts. */
  nb_assert_rel (nb_unc_budget_figure (b, "ao_deg")->u_c, 0.2 / sqrt ((double) n), 0.04,
                 "u(Ao) = σ_θ/√n");
}

static void
test_pose_nonlinear (void)
{
  /* Rp = l̄ + 3 S_l from 30 poses: S_l's PDF s·√(ν/χ²) is skewed, so the
   * Monte Carlo interval is wider above than below and GUM's symmetric
   * y ± 2u_c fails JCGM 101 8: the protocol states the MC interval. */
  NbPose command = { 1000.0, 2000.0, 90.0 };
  g_autofree NbPose *p = gaussian_poses (30, 8.0, -3.0, 1.0, 0.1, 21);
  g_autoptr (NbUncBudget) b = NULL;
  g_autoptr (GError) error = NULL;
  NbUncSetup s;
  const NbUncFigure *rp, *ro;

  nb_unc_setup_init (&s);
  s.lin_const_mm = 0.1;
  b = nb_unc_pose (&s, &command, p, 30, 9, &error);
  g_assert_no_error (error);
  rp = nb_unc_budget_figure (b, "rp_mm");
  ro = nb_unc_budget_figure (b, "ro_deg");
  g_test_message ("Rp %.3f: u_c %.4f, MC u %.4f, GUM [%.3f, %.3f], MC [%.3f, %.3f], d %.4f %.4f δ %.4f",
                  rp->value, rp->u_c, rp->mc.u, rp->value - 2 * rp->u_c, rp->value + 2 * rp->u_c,
                  rp->mc.lo, rp->mc.hi, rp->d_low, rp->d_high, rp->delta);
  g_assert_false (rp->validated);
  g_assert_cmpint (rp->method, ==, NB_UNC_METHOD_MONTE_CARLO);
  g_assert_cmpfloat (rp->lo, ==, rp->mc.lo);
  g_assert_cmpfloat (rp->hi, ==, rp->mc.hi);
  g_assert_cmpfloat (rp->hi - rp->value, >, rp->value - rp->lo);
  g_assert_cmpint (ro->method, ==, NB_UNC_METHOD_MONTE_CARLO);
  /* The Type A of S_l: GUM's u(S) = S/√(2ν) on c = 3. */
  g_assert_true (rp->u_sampling > 0.0);
  /* Budget lines: every one belongs to a figure and adds up to u_c when
   * its inputs are uncorrelated (Ro's are: S_o and the heading's). */
  {
    double s2 = 0.0;

    for (guint i = 0; i < b->rows->len; i++)
      {
        const NbUncRow *row = &g_array_index (b->rows, NbUncRow, i);

        if (g_strcmp0 (row->figure, "ro_deg") == 0)
          s2 += row->contribution * row->contribution;
      }
    nb_assert_rel (sqrt (s2), ro->u_c, 1e-9, "Ro's lines add up to u_c");
    /* ν of S_o from the headings' kurtosis (nb_unc_sd_dof), not n − 1;
     * for 30 normal headings it is near 29. */
    {
      double delta[30], nu;

      for (int j = 0; j < 30; j++)
        delta[j] = p[j].theta_deg - 90.0;
      nu = nb_unc_sd_dof (delta, 30);
      g_test_message ("Ro: ν of S_o %.2f", nu);
      g_assert_cmpfloat (nu, >, 15.0);
      g_assert_cmpfloat (nu, <, 60.0);
      nb_assert_rel (ro->u_c, 3.0 * ro->value / 3.0 / sqrt (2.0 * nu), 1e-9, "u(Ro) = 3·S_o/√(2ν)");
    }
  }
}

/* The distance-dependent part of the instrument's accuracy enters once
 * (#17: as the point error at the working range, and Ap also got it again
 * as a scale about the registration's centroid). */
static void
test_pose_ppm_once (void)
{
  NbPose command = { 1000.0, 2000.0, 90.0 };
  g_autofree NbPose *p = gaussian_poses (30, 8.0, -3.0, 1.0, 0.1, 21);
  g_autoptr (NbUncBudget) b = NULL;
  g_autoptr (GError) error = NULL;
  NbUncSetup s;
  const NbUncFigure *ap, *rp;

  nb_unc_setup_init (&s);
  s.lin_ppm = 6.0;            /* "0 mm + 6 µm/m" (k = 2) at 8 m: 0.048 mm, u = 0.024 mm */
  s.range_m = 8.0;
  b = nb_unc_pose (&s, &command, p, 30, 9, &error);
  g_assert_no_error (error);
  ap = nb_unc_budget_figure (b, "ap_mm");
  rp = nb_unc_budget_figure (b, "rp_mm");
  /* Ap: the point error per coordinate, c = the direction of the error
   * vector: u = 0.024 mm exactly (was √(0.024² + (3·10⁻⁶·2236)²) = 0.0249). */
  nb_assert_rel (ap->u_measurement, 0.024, 1e-6, "Ap: b·L/k once");
  /* Rp: the point error is common to the poses; the scale acts on l_j. */
  nb_assert_rel (rp->u_measurement, 3e-6 * rp->value, 1e-3, "Rp: b/k on the distances");
  for (guint i = 0; i < b->rows->len; i++)
    {
      const NbUncRow *row = &g_array_index (b->rows, NbUncRow, i);

      if (g_str_equal (row->figure, "ap_mm"))
        g_assert_null (strstr (row->quantity, "scale"));
    }
}

/* ν of a sample standard deviation from the sample's kurtosis. */
static void
test_sd_dof (void)
{
  double x[30];

  /* Two values ±a: κ̂ = 1, ν = 2/(1/n − (n − 3)/(n(n − 1))) = n(n − 1). */
  for (int i = 0; i < 30; i++)
    x[i] = (i % 2 ? 3.0 : -3.0) + 7.0;
  nb_assert_rel (nb_unc_sd_dof (x, 30), 870.0, 1e-9, "two-valued: n(n − 1)");
  /* Five at −c, twenty at 0, five at +c: κ̂ = n/10 = 3 as a normal's: n − 1. */
  for (int i = 0; i < 30; i++)
    x[i] = i < 5 ? -2.0 : i < 25 ? 0.0 : 2.0;
  nb_assert_rel (nb_unc_sd_dof (x, 30), 29.0, 1e-9, "κ = 3: n − 1");
  /* One outlier among 29 equal values: κ̂ = (n² − 3n + 3)/(n − 1) = 813/29,
   * v = 813/870 − 27/870, ν = 1740/786 = 2.21: s says little. */
  for (int i = 0; i < 30; i++)
    x[i] = i == 0 ? 10.0 : 0.0;
  nb_assert_rel (nb_unc_sd_dof (x, 30), 1740.0 / 786.0, 1e-9, "an outlier: ν ≈ 2");
}

/* ------------------------------------------------------- clause 8 -- */

static void
test_path_max (void)
{
  /* d = max |d_i| with two trials tied at the top: GUM sees one of them
   * (c = 1) and says u = u_i; the maximum of two N(μ, σ) has mean
   * μ + σ/√π, so the Monte Carlo is shifted and GUM is not validated. */
  double d[30];
  NbSegment seg;
  g_autoptr (NbUncBudget) b = NULL;
  g_autoptr (GError) error = NULL;
  NbUncSetup s;
  const NbUncFigure *f;

  for (int i = 0; i < 30; i++)
    d[i] = 2.0 + 0.1 * i * ((i % 2) ? 1 : -1) / 30.0;
  d[4] = 10.0;
  d[17] = 10.0;
  nb_unc_setup_init (&s);
  s.random_mm = 0.5;
  g_assert_true (nb_segment_init (&seg, 0.0, 0.0, 5000.0, 0.0, NULL));
  b = nb_unc_path (&s, d, 30, &seg, 3, &error);
  g_assert_no_error (error);
  f = nb_unc_budget_figure (b, "max_mm");
  g_test_message ("d: %.3f, u_c %.4f; MC mean %.4f u %.4f [%.3f, %.3f]", f->value, f->u_c, f->mc.y,
                  f->mc.u, f->mc.lo, f->mc.hi);
  nb_assert_abs (f->value, 10.0, 1e-12, "d");
  nb_assert_rel (f->u_c, 0.5 / sqrt (2.0), 1e-6, "GUM: the secant over ±u splits c between the tied");
  nb_assert_abs (f->mc.y, 10.0 + 0.5 / sqrt (G_PI), 0.01, "E[max of two] = μ + σ/√π");
  g_assert_cmpint (f->method, ==, NB_UNC_METHOD_MONTE_CARLO);
  /* The MC's shortest interval reflected about d: the measured max is
   * itself biased up by b (E = μ + σ/√π), the propagated PDF again. */
  nb_assert_abs (f->bias, 0.5 / sqrt (G_PI), 0.01, "bias");
  nb_assert_abs (f->lo, 2.0 * f->value - f->mc.hi, 1e-12, "interval lo");
  nb_assert_abs (f->hi, 2.0 * f->value - f->mc.lo, 1e-12, "interval hi");
  g_assert_cmpfloat (f->lo + f->hi, <, 2.0 * f->value);
  /* The mean: Type A s/√n and the per-trial random u/√n. */
  f = nb_unc_budget_figure (b, "mean_mm");
  g_assert_true (f->u_sampling > 0.0);
  nb_assert_rel (f->u_measurement, 0.5 / sqrt (30.0), 1e-6, "mean: random part");
}

/* Clause 8's mean of the |d_i| (#17: it had no U) and the instrument's
 * distance-dependent part, once. */
static void
test_path_mean_abs (void)
{
  double d[30], mean = 0.0, ss = 0.0;
  NbSegment seg;
  g_autoptr (NbUncBudget) one = NULL, two = NULL;
  g_autoptr (GError) error = NULL;
  NbUncSetup s;
  const NbUncFigure *f;

  /* A wander to the left in every trial: |d_i| = d_i. */
  for (int i = 0; i < 30; i++)
    d[i] = 4.0 + 0.1 * i;
  for (int i = 0; i < 30; i++)
    mean += d[i] / 30.0;
  for (int i = 0; i < 30; i++)
    ss += (d[i] - mean) * (d[i] - mean);
  nb_unc_setup_init (&s);
  s.lin_ppm = 6.0;            /* u = 6·10⁻³·8/2 = 0.024 mm per coordinate */
  s.range_m = 8.0;
  g_assert_true (nb_segment_init (&seg, 0.0, 0.0, 5000.0, 0.0, NULL));
  one = nb_unc_path (&s, d, 30, &seg, 3, &error);
  g_assert_no_error (error);
  f = nb_unc_budget_figure (one, "mean_abs_mm");
  g_assert_nonnull (f);
  nb_assert_rel (f->value, mean, 1e-12, "mean |d_i|");
  /* Type A: the |d_i|'s s/√n = √(Σ(d − d̄)²/29/30) = 0.2525 mm; the
   * instrument's offset shifts every |d_i| by itself (c = 1). */
  nb_assert_rel (f->u_sampling, sqrt (ss / 29.0 / 30.0), 1e-9, "mean |d_i|: s/√n");
  nb_assert_rel (f->u_measurement, 0.024, 1e-6, "mean |d_i|: b·L/k");
  nb_assert_rel (f->u_c, hypot (0.024, sqrt (ss / 29.0 / 30.0)), 1e-6, "in quadrature");
  nb_assert_rel (f->U, 2.0 * f->u_c, 1e-12, "U = 2 u_c (GUM validated)");
  g_assert_cmpint (f->method, ==, NB_UNC_METHOD_GUM);
  /* d and the mean carry the distance-dependent part once: 0.024 mm. */
  nb_assert_rel (nb_unc_budget_figure (one, "max_mm")->u_measurement, 0.024, 1e-6, "d: b·L/k");
  nb_assert_rel (nb_unc_budget_figure (one, "mean_mm")->u_measurement, 0.024, 1e-6,
                 "mean: b·L/k");
  g_assert_cmpfloat (nb_unc_budget_figure (one, "std_mm")->u_measurement, <, 1e-9);

  /* Half the trials to the right: an offset across the segment makes half
   * the |d_i| longer and half shorter, so mean |d_i| does not see it. */
  for (int i = 0; i < 30; i++)
    d[i] = (i % 2 ? -1.0 : 1.0) * (4.0 + 0.1 * i);
  two = nb_unc_path (&s, d, 30, &seg, 3, &error);
  g_assert_no_error (error);
  f = nb_unc_budget_figure (two, "mean_abs_mm");
  nb_assert_rel (f->value, mean, 1e-12, "mean |d_i|, both sides");
  g_assert_cmpfloat (f->u_measurement, <, 1e-9);
  nb_assert_rel (f->u_sampling, sqrt (ss / 29.0 / 30.0), 1e-9, "both sides: s/√n");
  /* The std of these two-humped d_i: ν from their kurtosis, far above
   * normal theory's 29, so u(s) = s/√(2ν) is a fraction of s/√58. */
  f = nb_unc_budget_figure (two, "std_mm");
  nb_assert_rel (f->u_sampling, f->value / sqrt (2.0 * nb_unc_sd_dof (d, 30)), 1e-9, "u(s)");
  g_assert_cmpfloat (f->u_sampling, <, 0.5 * f->value / sqrt (58.0));
}

/* ------------------------------------------------------ clause 10 -- */

static void
test_mapping (void)
{
  /* One map shifted by (30, 40) mm at every corner: Dm = 50 and, the
   * distance's direction being the same at every corner,
   * u(Dm) = ¼·√(4·(u_A² + u_A'²)) = ½·√(u_A² + u_A'²). */
  const double truth[4][2] = { { 0, 0 }, { 3500, 0 }, { 3500, 3500 }, { 0, 3500 } };
  double map[2][4][2];
  g_autoptr (NbUncBudget) b = NULL;
  g_autoptr (GError) error = NULL;
  NbUncSetup s;
  const NbUncFigure *dm, *acc;
  double u_a, u_m;

  for (int t = 0; t < 2; t++)
    for (int i = 0; i < 4; i++)
      {
        map[t][i][0] = truth[i][0] + 30.0 - 10.0 * t;
        map[t][i][1] = truth[i][1] + 40.0;
      }
  nb_unc_setup_init (&s);
  s.lin_const_mm = 1.0;         /* 1 mm (k = 2) */
  s.lin_ppm = 1.5;
  s.range_m = 10.0;
  s.map_resolution_mm = 50.0;
  b = nb_unc_mapping (&s, truth, (const double (*)[4][2]) map, NULL, 2, 0, 2, 4, &error);
  g_assert_no_error (error);
  dm = nb_unc_budget_figure (b, "dm_mm[0]");
  acc = nb_unc_budget_figure (b, "accuracy_mm");
  u_a = (1.0 + 1.5 * 10.0 * 1e-3) / 2.0;
  u_m = 50.0 / sqrt (12.0);
  nb_assert_abs (dm->value, 50.0, 1e-9, "Dm");
  /* The sensitivities are secants over ±u (GUM 5.1.3 note 2): for the
   * corners' 1 mm the tangent (v/|v|), for the map's 14 mm cell the chord
   * of |v| over ±14 mm, a little flatter. */
  {
    double cx = (hypot (30.0 + u_m, 40.0) - hypot (30.0 - u_m, 40.0)) / (2.0 * u_m);
    double cy = (hypot (30.0, 40.0 + u_m) - hypot (30.0, 40.0 - u_m)) / (2.0 * u_m);

    nb_assert_rel (dm->u_c, 0.5 * sqrt (u_a * u_a + (cx * cx + cy * cy) * u_m * u_m), 1e-4,
                   "u(Dm)");
    g_assert_cmpfloat (dm->u_c, <, 0.5 * hypot (u_a, u_m));
  }
  nb_assert_abs (acc->value, 50.0, 1e-9, "mapping accuracy = max Dm");
  nb_assert_rel (nb_unc_setup_u_lin (&s), u_a, 1e-12, "1 mm + 1.5 ppm at 10 m, k = 2");
}

/* ---------------------------------------------------- clauses 7, 9 -- */

static void
test_times (void)
{
  /* Mean of 5 passage times: u_c² = Δt²/6/5 + u_sync² + s²/5. */
  double t[5] = { 20.1, 20.4, 19.9, 20.2, 20.3 };
  double t0[3] = { 10.0, 10.2, 10.1 }, t1[3] = { 13.0, 14.0, 13.5 };
  g_autoptr (NbUncBudget) b = NULL, b7 = NULL;
  g_autoptr (GError) error = NULL;
  NbUncSetup s;
  const NbUncFigure *f;
  double mean = 20.18, ss = 0.0;

  for (int i = 0; i < 5; i++)
    ss += (t[i] - mean) * (t[i] - mean);
  nb_unc_setup_init (&s);
  s.sample_period_s = 0.01;
  s.sync_s = 0.002;
  b = nb_unc_passage (&s, t, 5, 1, &error);
  g_assert_no_error (error);
  f = nb_unc_budget_figure (b, "mean_time_s");
  nb_assert_abs (f->value, mean, 1e-12, "mean passage time");
  nb_assert_rel (f->u_c, sqrt (1e-4 / 6.0 / 5.0 + 4e-6 + ss / 4.0 / 5.0), 1e-9, "u_c");
  nb_assert_rel (f->u_sampling, sqrt (ss / 4.0 / 5.0), 1e-9, "Type A");
  /* t with ν = 4: the MC interval is wider than ±2 u_c. */
  g_assert_cmpint (f->method, ==, NB_UNC_METHOD_MONTE_CARLO);
  g_assert_cmpfloat (f->hi - f->lo, >, 4.0 * f->u_c);

  b7 = nb_unc_avoidance (&s, t0, 3, t1, 3, 1, &error);
  g_assert_no_error (error);
  nb_assert_abs (nb_unc_budget_figure (b7, "t1_s")->value, 14.0, 1e-12, "T1 = max");
  nb_assert_abs (nb_unc_budget_figure (b7, "delay_ratio")->value, 14.0 / 10.1, 1e-12, "T1/T0");
  /* T1 is the max of the trials tested: no sampling part. */
  g_assert_cmpfloat (nb_unc_budget_figure (b7, "t1_s")->u_sampling, ==, 0.0);
}

static void
test_detection (void)
{
  /* accuracy = 100 − 100|m − t|/t; ∂/∂t = 100·m/t² (m > t). */
  double tr[2] = { 1000.0, 2000.0 }, me[2] = { 1010.0, 1990.0 };
  guint ob[2] = { 0, 1 };
  g_autoptr (NbUncBudget) b = NULL;
  g_autoptr (GError) error = NULL;
  NbUncSetup s;
  const NbUncFigure *f;

  nb_unc_setup_init (&s);
  s.placement_mm = 2.0;
  b = nb_unc_detection (&s, tr, me, ob, 2, 2, 1, &error);
  g_assert_no_error (error);
  f = nb_unc_budget_figure (b, "mean_accuracy_pct[0]");
  nb_assert_abs (f->value, 99.0, 1e-9, "accuracy");
  nb_assert_rel (f->u_c, 100.0 * 1010.0 / 1e6 * 2.0, 1e-4, "u(accuracy)");
  f = nb_unc_budget_figure (b, "mean_accuracy_pct");
  nb_assert_abs (f->value, 99.25, 1e-9, "mean accuracy");
}

/* ------------------------------------------------ inputs, decisions -- */

static void
test_parse_accuracy (void)
{
  double a, b, k;
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_unc_parse_accuracy ("15 µm + 6 µm/m", &a, &b, &k, &error));
  nb_assert_abs (a, 0.015, 1e-15, "tracker a");
  nb_assert_abs (b, 6.0, 1e-15, "tracker b");
  g_assert_cmpfloat (k, ==, 2.0);
  g_assert_true (nb_unc_parse_accuracy ("1 mm + 1.5 ppm (k=1)", &a, &b, &k, &error));
  nb_assert_abs (a, 1.0, 0, "total station a");
  nb_assert_abs (b, 1.5, 0, "total station b");
  g_assert_cmpfloat (k, ==, 1.0);
  g_assert_true (nb_unc_parse_accuracy ("8 mm + 1 ppm (rectangular)", &a, &b, &k, &error));
  g_assert_cmpfloat (k, ==, 0.0);
  g_assert_true (nb_unc_parse_accuracy ("0.5mm", &a, &b, &k, &error));
  nb_assert_abs (a, 0.5, 0, "plain");
  g_assert_false (nb_unc_parse_accuracy ("about a millimetre", &a, &b, &k, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
}

static void
test_registration (void)
{
  /* A square of side 2 m, every residual 1 mm: σ² = 4/(2·4 − 3) = 0.8,
   * u(t) = σ/√4, u(φ) = σ/√(4·2·10⁶) rad. */
  const double ref[4][2] = { { -1000, -1000 }, { 1000, -1000 }, { 1000, 1000 }, { -1000, 1000 } };
  const double res[4] = { 1, 1, 1, 1 };
  double ut, ur, c[2];
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_unc_registration (ref, res, 4, &ut, &ur, c, &error));
  nb_assert_rel (ut, sqrt (0.8) / 2.0, 1e-12, "u(t)");
  nb_assert_rel (ur, sqrt (0.8) / sqrt (8e6) * 180.0 / G_PI, 1e-12, "u(φ)");
  g_assert_false (nb_unc_registration (ref, res, 2, &ut, &ur, c, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
}

static void
test_conformity (void)
{
  NbDecisionRule rule;
  g_autoptr (GError) error = NULL;

  /* Ap = 4.0 ± 0.6 against Ap ≤ 4.5: simple conforms, guarded inconclusive. */
  g_assert_cmpint (nb_conformity_decide (4.0, 3.4, 4.6, 4.5, TRUE, NB_DECISION_SIMPLE), ==,
                   NB_CONFORMS);
  g_assert_cmpint (nb_conformity_decide (4.0, 3.4, 4.6, 4.5, TRUE, NB_DECISION_GUARDED), ==,
                   NB_INCONCLUSIVE);
  g_assert_cmpint (nb_conformity_decide (4.0, 3.4, 4.6, 5.0, TRUE, NB_DECISION_GUARDED), ==,
                   NB_CONFORMS);
  g_assert_cmpint (nb_conformity_decide (4.0, 3.4, 4.6, 3.0, TRUE, NB_DECISION_GUARDED), ==,
                   NB_DOES_NOT_CONFORM);
  g_assert_cmpint (nb_conformity_decide (4.0, 3.4, 4.6, 3.9, TRUE, NB_DECISION_SIMPLE), ==,
                   NB_DOES_NOT_CONFORM);
  /* A lower limit (detection accuracy ≥ 95 %). */
  g_assert_cmpint (nb_conformity_decide (96.0, 95.5, 96.5, 95.0, FALSE, NB_DECISION_GUARDED), ==,
                   NB_CONFORMS);
  g_assert_cmpint (nb_conformity_decide (96.0, 94.5, 97.5, 95.0, FALSE, NB_DECISION_GUARDED), ==,
                   NB_INCONCLUSIVE);
  /* A two-sided limit |Ao| ≤ 0.05°: a negative Ao within it conforms,
   * beyond −0.05 does not; an interval over either limit is inconclusive
   * under the guarded rule, the value alone decides under simple
   * acceptance; an interval wider than the tolerance cannot conform. */
  g_assert_cmpint (nb_conformity_decide_symmetric (-0.02, -0.03, -0.01, 0.05, NB_DECISION_GUARDED),
                   ==, NB_CONFORMS);
  g_assert_cmpint (nb_conformity_decide_symmetric (-0.04, -0.07, -0.01, 0.05, NB_DECISION_GUARDED),
                   ==, NB_INCONCLUSIVE);
  g_assert_cmpint (nb_conformity_decide_symmetric (-0.04, -0.07, -0.01, 0.05, NB_DECISION_SIMPLE),
                   ==, NB_CONFORMS);
  g_assert_cmpint (nb_conformity_decide_symmetric (-0.06, -0.07, -0.055, 0.05, NB_DECISION_SIMPLE),
                   ==, NB_DOES_NOT_CONFORM);
  g_assert_cmpint (nb_conformity_decide_symmetric (-0.06, -0.07, -0.055, 0.05, NB_DECISION_GUARDED),
                   ==, NB_DOES_NOT_CONFORM);
  g_assert_cmpint (nb_conformity_decide_symmetric (0.06, 0.055, 0.07, 0.05, NB_DECISION_GUARDED),
                   ==, NB_DOES_NOT_CONFORM);
  g_assert_cmpint (nb_conformity_decide_symmetric (0.04, 0.01, 0.07, 0.05, NB_DECISION_GUARDED),
                   ==, NB_INCONCLUSIVE);
  g_assert_cmpint (nb_conformity_decide_symmetric (0.0, -0.06, 0.06, 0.05, NB_DECISION_GUARDED),
                   ==, NB_INCONCLUSIVE);
  g_assert_cmpint (nb_conformity_decide_symmetric (0.05, 0.05, 0.05, 0.05, NB_DECISION_SIMPLE),
                   ==, NB_CONFORMS);
  g_assert_true (nb_decision_rule_parse ("guarded-w=U", &rule, &error));
  g_assert_cmpint (rule, ==, NB_DECISION_GUARDED);
  g_assert_cmpstr (nb_decision_rule_name (NB_DECISION_SIMPLE), ==, "simple-acceptance");
  g_assert_false (nb_decision_rule_parse ("lenient", &rule, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
}

/* The Monte Carlo's stated intervals are those of all its values sorted
 * (it sorts only the tails the intervals read, nb-unc.c sort_tails): the
 * values recorded as they are drawn, sorted here, give the same ends,
 * bit for bit, for a skewed output, one that straddles 0, and one with ties. */
typedef struct {
  GArray *seen[3];
} Recorder;

static gboolean
record_draw (gsl_rng *rng, double *y, gpointer data)
{
  Recorder *r = data;

  y[0] = gsl_ran_exponential (rng, 2.0);
  y[1] = gsl_ran_gaussian_ziggurat (rng, 1.0) - 0.3;
  y[2] = floor (gsl_rng_uniform (rng) * 40.0) - 20.0;
  for (int k = 0; k < 3; k++)
    g_array_append_val (r->seen[k], y[k]);
  return TRUE;
}

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
test_mc_tails (void)
{
  Recorder r;
  NbUncMcOptions o;
  NbUncMcResult out[3];
  g_autoptr (GError) error = NULL;

  for (int k = 0; k < 3; k++)
    r.seen[k] = g_array_new (FALSE, FALSE, sizeof (double));
  nb_unc_mc_options_default (&o, 7);
  /* n_dig 2: several batches, so the pooled values are h·M, not M. */
  o.n_dig = 2;
  o.max_trials = 60000;
  g_assert_true (nb_unc_mc (record_draw, &r, 3, &o, out, &error));
  for (int k = 0; k < 3; k++)
    {
      GArray *v = r.seen[k];
      double lo, hi, lo_s, hi_s, mean = 0.0, ss = 0.0;

      g_assert_cmpuint (out[k].trials, ==, v->len);
      g_assert_cmpuint (v->len, >=, 20000);
      g_array_sort (v, cmp_double);
      nb_unc_interval_shortest ((const double *) v->data, v->len, o.p, &lo, &hi);
      nb_unc_interval_symmetric ((const double *) v->data, v->len, o.p, &lo_s, &hi_s);
      g_assert_cmpfloat (out[k].lo, ==, lo);
      g_assert_cmpfloat (out[k].hi, ==, hi);
      g_assert_cmpfloat (out[k].lo_sym, ==, lo_s);
      g_assert_cmpfloat (out[k].hi_sym, ==, hi_s);
      for (guint i = 0; i < v->len; i++)
        mean += g_array_index (v, double, i) / v->len;
      for (guint i = 0; i < v->len; i++)
        ss += pow (g_array_index (v, double, i) - mean, 2);
      nb_assert_rel (out[k].y + 100.0, mean + 100.0, 1e-12, "mean");
      nb_assert_rel (out[k].u, sqrt (ss / (v->len - 1)), 1e-10, "standard deviation");
      g_array_unref (v);
    }
  /* The exponential's shortest interval starts at its smallest values. */
  g_assert_cmpfloat (out[0].lo, <, 0.01);
  g_assert_cmpfloat (out[0].lo, <, out[0].lo_sym);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/unc/round", test_round);
  g_test_add_func ("/unc/tolerance", test_tolerance);
  g_test_add_func ("/unc/intervals", test_intervals);
  g_test_add_func ("/unc/mc-tails", test_mc_tails);
  g_test_add_func ("/unc/linear-budget", test_linear_budget);
  g_test_add_func ("/unc/correlated", test_correlated);
  g_test_add_func ("/unc/distributions", test_distributions);
  g_test_add_func ("/unc/pose-isotropic", test_pose_isotropic);
  g_test_add_func ("/unc/pose-nonlinear", test_pose_nonlinear);
  g_test_add_func ("/unc/path-max", test_path_max);
  g_test_add_func ("/unc/path-mean-abs", test_path_mean_abs);
  g_test_add_func ("/unc/pose-ppm-once", test_pose_ppm_once);
  g_test_add_func ("/unc/sd-dof", test_sd_dof);
  g_test_add_func ("/unc/mapping", test_mapping);
  g_test_add_func ("/unc/times", test_times);
  g_test_add_func ("/unc/detection", test_detection);
  g_test_add_func ("/unc/parse-accuracy", test_parse_accuracy);
  g_test_add_func ("/unc/registration", test_registration);
  g_test_add_func ("/unc/conformity", test_conformity);
  return g_test_run ();
}
