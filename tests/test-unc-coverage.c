/* test-unc-coverage — do the stated 95 % intervals hold the true value?
 *
 * Simulated campaigns with known injected errors (#17): the simulator's
 * robot model (drivers/robots/sim/nb-sim-base: end-pose bias and scatter,
 * the wander along a leg) is the truth; the measurement adds what the
 * budget states, each drawn per campaign from its stated PDF — the
 * instrument's systematic offset (a + b·L, k = 2), the registration's
 * translation and rotation, the target's centring — and per sample the
 * tracker's Gaussian noise (as drivers/instruments/sim/sim.c draws it).
 * Over NB_CAMPAIGNS campaigns the fraction whose stated interval holds the
 * true value must be 93–97 % for Ap, Rp, d and Dm (k = 2 claims 95.45 %).
 * Seeded: the same numbers on every run; the observed coverage is printed
 * (docs/uncertainty.md quotes it).
 */
#include "nb-metrics.h"
#include "nb-sim-base.h"
#include "nb-test.h"
#include "nb-unc-iso.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#define NB_CAMPAIGNS 400
#define N_TRIALS 30

/* The stated measurement system: a laser tracker "15 µm + 6 µm/m" (k = 2)
 * at 8 m, 0.05 mm random per point, registered with 0.05 mm / 0.002°, a
 * prism centred to 0.02 mm; 100 Hz. */
static void
stated_setup (NbUncSetup *s)
{
  nb_unc_setup_init (s);
  s->lin_const_mm = 0.015;
  s->lin_ppm = 6.0;
  s->lin_k = 2.0;
  s->range_m = 8.0;
  s->random_mm = 0.05;
  s->reg_u_t_mm = 0.05;
  s->reg_u_rot_deg = 0.002;
  s->reg_centroid_mm[0] = 2500.0;
  s->reg_centroid_mm[1] = 0.0;
  s->target_mm = 0.02;
  s->sample_period_s = 0.01;
  s->sync_s = 0.001;
  s->speed_mm_s = 1000.0;
}

/* One campaign's systematic measurement error, drawn from the stated PDFs. */
typedef struct {
  double bx, by, tx, ty, phi_rad, ox, oy;
} Injected;

static void
inject (gsl_rng *rng, const NbUncSetup *s, Injected *e)
{
  double u_lin = nb_unc_setup_u_lin (s);

  e->bx = gsl_ran_gaussian (rng, u_lin);
  e->by = gsl_ran_gaussian (rng, u_lin);
  e->tx = gsl_ran_gaussian (rng, s->reg_u_t_mm);
  e->ty = gsl_ran_gaussian (rng, s->reg_u_t_mm);
  e->phi_rad = gsl_ran_gaussian (rng, s->reg_u_rot_deg) * G_PI / 180.0;
  e->ox = gsl_ran_gaussian (rng, s->target_mm);
  e->oy = gsl_ran_gaussian (rng, s->target_mm);
}

/* True → measured: the registration's rotation about the surveyed points'
 * centroid, the offsets, the tracker's noise. */
static void
measure (const Injected *e, const NbUncSetup *s, gsl_rng *rng, double x, double y, double noise,
         double *mx, double *my)
{
  double dx = x - s->reg_centroid_mm[0], dy = y - s->reg_centroid_mm[1];

  *mx = s->reg_centroid_mm[0] + cos (e->phi_rad) * dx - sin (e->phi_rad) * dy + e->tx + e->bx +
        e->ox + gsl_ran_gaussian (rng, noise);
  *my = s->reg_centroid_mm[1] + sin (e->phi_rad) * dx + cos (e->phi_rad) * dy + e->ty + e->by +
        e->oy + gsl_ran_gaussian (rng, noise);
}

static gboolean
covers (const NbUncFigure *f, double truth)
{
  return f->lo <= truth && truth <= f->hi;
}

static void
check_coverage (const char *what, guint hit, guint n)
{
  double c = 100.0 * hit / n;

  g_test_message ("coverage of %s: %u of %u = %.1f %% (stated 95.45 %%, k = 2)", what, hit, n, c);
  if (!(c >= 93.0 && c <= 97.0))
    g_error ("%s: the stated intervals hold the true value in %.1f %% of %u campaigns "
             "(93–97 %% required)", what, c, n);
}

/* ---------------------------------------------------------- clause 5 -- */

static void
test_pose_coverage (void)
{
  NbSimBaseModel model;
  NbUncSetup s;
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  guint hit_ap = 0, hit_rp = 0, gum_ap = 0;
  double st[6] = { 0 };
  NbPose command = { 5000.0, 0.0, 0.0 };
  /* The model's truth: Ap = |bias|; isotropic Gaussian scatter σ gives
   * distances from the centre with mean σ√(π/2) and σ √(2 − π/2) (Rayleigh),
   * so Rp = σ(√(π/2) + 3√(2 − π/2)). */
  double ap_true, rp_true;

  nb_sim_base_model_default (&model);
  ap_true = hypot (model.bias_mm[0], model.bias_mm[1]);
  rp_true = model.scatter_mm * (sqrt (G_PI / 2.0) + 3.0 * sqrt (2.0 - G_PI / 2.0));
  stated_setup (&s);
  gsl_rng_set (rng, 18646);
  for (guint c = 0; c < NB_CAMPAIGNS; c++)
    {
      NbSimBase base;
      NbPose att[N_TRIALS];
      Injected e;
      g_autoptr (NbUncBudget) b = NULL;
      g_autoptr (GError) error = NULL;

      inject (rng, &s, &e);
      nb_sim_base_init (&base, &model, 0.0, 1000 + c);
      for (guint j = 0; j < N_TRIALS; j++)
        {
          nb_sim_base_place (&base, 0.0, 0.0, 0.0);
          nb_sim_base_move_to (&base, command.x_mm, command.y_mm, command.theta_deg);
          /* The attained pose: the mean of the settled samples (10 here). */
          measure (&e, &s, rng, base.x_mm, base.y_mm, s.random_mm / sqrt (10.0), &att[j].x_mm,
                   &att[j].y_mm);
          att[j].theta_deg = base.theta_deg;
        }
      nb_sim_base_clear (&base);
      b = nb_unc_pose (&s, &command, att, N_TRIALS, 7 + c, &error);
      g_assert_no_error (error);
      hit_ap += covers (nb_unc_budget_figure (b, "ap_mm"), ap_true);
      hit_rp += covers (nb_unc_budget_figure (b, "rp_mm"), rp_true);
      {
        const NbUncFigure *f = nb_unc_budget_figure (b, "rp_mm");

        st[0] += f->value; st[1] += f->value * f->value; st[2] += f->u_c; st[3] += f->hi - f->value;
        st[4] += f->value - f->lo; st[5] += f->method == NB_UNC_METHOD_GUM;
      }
      gum_ap += nb_unc_budget_figure (b, "ap_mm")->method == NB_UNC_METHOD_GUM;
    }
  gsl_rng_free (rng);
  g_test_message ("Rp: true %.4f, mean %.4f sd %.4f, mean u_c %.4f, hi−y %.4f, y−lo %.4f, GUM %g",
                  rp_true, st[0] / NB_CAMPAIGNS,
                  sqrt (st[1] / NB_CAMPAIGNS - (st[0] / NB_CAMPAIGNS) * (st[0] / NB_CAMPAIGNS)),
                  st[2] / NB_CAMPAIGNS, st[3] / NB_CAMPAIGNS, st[4] / NB_CAMPAIGNS, st[5]);
  g_test_message ("Ap: GUM validated in %u of %u campaigns", gum_ap, NB_CAMPAIGNS);
  check_coverage ("Ap", hit_ap, NB_CAMPAIGNS);
  check_coverage ("Rp", hit_rp, NB_CAMPAIGNS);
}

/* ---------------------------------------------------------- clause 8 -- */

static void
test_path_coverage (void)
{
  NbSimBaseModel model;
  NbUncSetup s;
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  guint hit = 0, mc = 0;
  const double length = 5000.0;
  NbSegment seg;

  nb_sim_base_model_default (&model);
  stated_setup (&s);
  g_assert_true (nb_segment_init (&seg, 0.0, 0.0, length, 0.0, NULL));
  gsl_rng_set (rng, 8);
  for (guint c = 0; c < NB_CAMPAIGNS; c++)
    {
      NbSimBase base;
      double d_meas[N_TRIALS], d_true = 0.0;
      Injected e;
      g_autoptr (NbUncBudget) b = NULL;
      g_autoptr (GError) error = NULL;

      inject (rng, &s, &e);
      nb_sim_base_init (&base, &model, 0.0, 5000 + c);
      for (guint j = 0; j < N_TRIALS; j++)
        {
          NbPathTrial truth, meas;
          double t0, t1;

          nb_sim_base_place (&base, 0.0, 0.0, 0.0);
          t0 = base.clock_s;
          nb_sim_base_move_to (&base, length, 0.0, 0.0);
          t1 = base.clock_s;
          nb_path_trial_init (&truth);
          nb_path_trial_init (&meas);
          /* The true track densely (500 Hz: the peak missed by < 10⁻⁴ mm),
           * the measured one as the tracker samples it (100 Hz). */
          for (double t = t0; t <= t1; t += 0.002)
            {
              double x, y, th;

              nb_sim_base_pose_at (&base, t, &x, &y, &th);
              nb_path_trial_push (&truth, &seg, x, y);
              if (fmod (t - t0 + 1e-9, s.sample_period_s) < 0.002 - 1e-9)
                {
                  double mx, my;

                  measure (&e, &s, rng, x, y, s.random_mm, &mx, &my);
                  nb_path_trial_push (&meas, &seg, mx, my);
                }
            }
          d_meas[j] = meas.d_mm;
          d_true = MAX (d_true, fabs (truth.d_mm));
        }
      nb_sim_base_clear (&base);
      b = nb_unc_path (&s, d_meas, N_TRIALS, &seg, 11 + c, &error);
      g_assert_no_error (error);
      hit += covers (nb_unc_budget_figure (b, "max_mm"), d_true);
      mc += nb_unc_budget_figure (b, "max_mm")->method == NB_UNC_METHOD_MONTE_CARLO;
    }
  gsl_rng_free (rng);
  g_test_message ("d: Monte Carlo chosen in %u of %u campaigns", mc, NB_CAMPAIGNS);
  check_coverage ("d", hit, NB_CAMPAIGNS);
}

/* The spread of the d_i (#17): the wander's d_i are two-humped, left or
 * right of the segment by W·U(0.5, 1) (nb-sim-base, W = 8 mm): the
 * robot's σ of the d_i is √E[d²] = √(112/3) = 6.110 mm, its mean |d_i|
 * 6 mm, its mean 0.  The d_i drawn so, measured through the stated
 * instrument's offset across the segment.  Normal theory (ν = n − 1)
 * stated u(s) three times the spread of s over the campaigns, and covered
 * σ in 100 % of them; ν from the sample's kurtosis (nb_unc_sd_dof) states
 * what s does. */
static void
test_path_spread_coverage (void)
{
  const guint n_campaigns = NB_CAMPAIGNS;
  const double sigma = sqrt (112.0 / 3.0), mean_abs = 6.0;
  NbUncSetup s;
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  guint hit_std = 0, hit_abs = 0, hit_mean = 0;
  double sum_u = 0.0, sum_s = 0.0, sum_s2 = 0.0, spread, mean_u;
  NbSegment seg;

  stated_setup (&s);
  s.random_mm = 0.0;          /* d_i given, not picked from noisy samples */
  g_assert_true (nb_segment_init (&seg, 0.0, 0.0, 5000.0, 0.0, NULL));
  gsl_rng_set (rng, 17);
  for (guint c = 0; c < n_campaigns; c++)
    {
      double d[N_TRIALS], e = gsl_ran_gaussian (rng, nb_unc_setup_u_lin (&s));
      g_autoptr (NbUncBudget) b = NULL;
      g_autoptr (GError) error = NULL;
      const NbUncFigure *f;

      for (guint j = 0; j < N_TRIALS; j++)
        d[j] = (gsl_rng_uniform (rng) < 0.5 ? -8.0 : 8.0) * gsl_ran_flat (rng, 0.5, 1.0) + e;
      b = nb_unc_path (&s, d, N_TRIALS, &seg, 300 + c, &error);
      g_assert_no_error (error);
      f = nb_unc_budget_figure (b, "std_mm");
      hit_std += covers (f, sigma);
      sum_u += f->u;
      sum_s += f->value;
      sum_s2 += f->value * f->value;
      hit_abs += covers (nb_unc_budget_figure (b, "mean_abs_mm"), mean_abs);
      hit_mean += covers (nb_unc_budget_figure (b, "mean_mm"), 0.0);
    }
  gsl_rng_free (rng);
  spread = sqrt ((sum_s2 - sum_s * sum_s / n_campaigns) / (n_campaigns - 1.0));
  mean_u = sum_u / n_campaigns;
  g_test_message ("std of the d_i: stated u %.3f mm on average, s spread %.3f mm over %u campaigns; "
                  "coverage of σ %u of %u = %.1f %%", mean_u, spread, n_campaigns, hit_std,
                  n_campaigns, 100.0 * hit_std / n_campaigns);
  /* The stated u(s) is the spread of s (normal theory: 0.80 against 0.25). */
  g_assert_cmpfloat (mean_u / spread, >, 0.75);
  g_assert_cmpfloat (mean_u / spread, <, 1.33);
  /* A kurtosis from 30 values is itself uncertain: the intervals of s hold
   * σ at or somewhat above the stated 95.45 %, never the 100 % of U three
   * times too large. */
  g_assert_cmpfloat (100.0 * hit_std / n_campaigns, >=, 93.0);
  g_assert_cmpfloat (100.0 * hit_std / n_campaigns, <=, 99.5);
  check_coverage ("mean |d_i|", hit_abs, n_campaigns);
  /* The mean's U is k = 2 on a t with ν = 29 (GUM validated: 2.09 would
   * cover 95.45 %), as Ap's: 93–94 % expected, 91 % the floor asked. */
  g_test_message ("coverage of mean d_i: %u of %u = %.1f %%", hit_mean, n_campaigns,
                  100.0 * hit_mean / n_campaigns);
  g_assert_cmpfloat (100.0 * hit_mean / n_campaigns, >=, 91.0);
  g_assert_cmpfloat (100.0 * hit_mean / n_campaigns, <=, 97.0);
}

/* --------------------------------------------------------- clause 10 -- */

static void
test_mapping_coverage (void)
{
  /* The arena 7 LU = 3500 mm; each map's corners off by the robot's mapping
   * error (N(0, 40 mm) per coordinate: the truth), then seen through the
   * map's 25 mm grid at a random offset (rectangular ±½ cell) and the
   * arena's corners surveyed with the instrument. */
  const double arena[4][2] = { { 0, 0 }, { 3500, 0 }, { 3500, 3500 }, { 0, 3500 } };
  const double cell = 25.0;
  NbUncSetup s;
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  guint hit = 0, hit_acc = 0, n = 0, diag[4] = { 0 };

  stated_setup (&s);
  s.map_resolution_mm = cell;
  gsl_rng_set (rng, 10);
  for (guint c = 0; c < NB_CAMPAIGNS; c++)
    {
      double map[3][4][2], surveyed[4][2], dm_true[3], acc_true = 0.0;
      double u_lin = nb_unc_setup_u_lin (&s);
      g_autoptr (NbUncBudget) b = NULL;
      g_autoptr (GError) error = NULL;

      for (int i = 0; i < 4; i++)
        for (int k = 0; k < 2; k++)
          surveyed[i][k] = arena[i][k] + gsl_ran_gaussian (rng, hypot (u_lin, s.target_mm));
      for (int t = 0; t < 3; t++)
        {
          double off[2] = { gsl_rng_uniform (rng) * cell, gsl_rng_uniform (rng) * cell };

          dm_true[t] = 0.0;
          for (int i = 0; i < 4; i++)
            {
              double truth[2];

              for (int k = 0; k < 2; k++)
                {
                  truth[k] = arena[i][k] + gsl_ran_gaussian (rng, 40.0);
                  /* The corner at the centre of its cell. */
                  map[t][i][k] = off[k] + (floor ((truth[k] - off[k]) / cell) + 0.5) * cell;
                }
              dm_true[t] += 0.25 * hypot (truth[0] - arena[i][0], truth[1] - arena[i][1]);
            }
          acc_true = MAX (acc_true, dm_true[t]);
        }
      b = nb_unc_mapping (&s, (const double (*)[2]) surveyed, (const double (*)[4][2]) map, NULL,
                          3, 0, 3, 13 + c, &error);
      g_assert_no_error (error);
      for (int t = 0; t < 3; t++)
        {
          g_autofree char *key = g_strdup_printf ("dm_mm[%d]", t);

          const NbUncFigure *f = nb_unc_budget_figure (b, key);

          hit += covers (f, dm_true[t]);
          diag[0] += f->value - 2 * f->u_c <= dm_true[t] && dm_true[t] <= f->value + 2 * f->u_c;
          diag[1] += f->mc.lo_sym <= dm_true[t] && dm_true[t] <= f->mc.hi_sym;
          diag[2] += f->mc.lo <= dm_true[t] && dm_true[t] <= f->mc.hi;
          diag[3] += f->method == NB_UNC_METHOD_GUM;
          n++;
        }
      hit_acc += covers (nb_unc_budget_figure (b, "accuracy_mm"), acc_true);
    }
  gsl_rng_free (rng);
  g_test_message ("Dm: GUM %u, MC symmetric %u, MC shortest %u, GUM chosen %u of %u", diag[0],
                  diag[1], diag[2], diag[3], n);
  check_coverage ("Dm", hit, n);
  /* Printed, not required by #17 (Ap, Rp, d, Dm): the max of three Dm
   * under-covers (≈ 91 %), docs/uncertainty.md says so. */
  g_test_message ("coverage of the mapping accuracy (max Dm), not asserted: %u of %u = %.1f %%",
                  hit_acc, NB_CAMPAIGNS, 100.0 * hit_acc / NB_CAMPAIGNS);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/unc-coverage/pose", test_pose_coverage);
  g_test_add_func ("/unc-coverage/path", test_path_coverage);
  g_test_add_func ("/unc-coverage/path-spread", test_path_spread_coverage);
  g_test_add_func ("/unc-coverage/mapping", test_mapping_coverage);
  return g_test_run ();
}
