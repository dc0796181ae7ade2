/* test-iso9283-campaign — the ISO 9283 plan run by the campaign path recovers the simulated
 * arm's injected errors
 *
 * Each characteristic's clause module (protocols/clauses/nb-clause-9283-*.c)
 * runs its configuration on the simulated arm (the demonstration error
 * model: encoder offsets, link length errors, joint compliance under the
 * load, thermal drift, a 0.4 % slow speed, the underdamped servo) watched
 * by the simulated tracker at 1 kHz, through nb_iso9283_run_plan into a
 * campaign file; the figures are computed from what the file holds
 * (nb_clause_9283_compute) and compared with what the error model predicts,
 * computed here another way: the true kinematics (with the load's
 * deflection and the drift at the measurement's time) at the commanded
 * joints, the backlash replayed goal by goal (vAP), the servo's closed-form
 * ramp response (7.4, 7.5), a noise-free true track through the same joint
 * points (AT, CR, CO), and the estimators' own distributions over the
 * tracker's and the joints' noise by Monte Carlo (RP, RD, FV).
 */
#include "nb-clause-9283.h"
#include "nb-iso9283-run.h"

#include "nb-arm-file.h"
#include "nb-campaign-iso9283.h"
#include "nb-error.h"
#include "nb-test.h"
#include "nb-test-iso9283.h"
#include "nb-test-tmp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *tmp_dir;
static NbArmModel model;
static NbIso9283Cube cube;
static double cube_q[5][NB_ARM_JOINTS];

#define TRACKER_MM 0.005
#define RATED_KG 7.0

/* ------------------------------------------------------------ the rig -- */

typedef struct {
  NbSimArm arm;
  NbSimTracker tracker;
  NbIso9283SimMeasure measure;
  NbIso9283Rig rig;
  NbCampaign *campaign;
} Bench;

/* The demonstration error model, then the test's changes (noise, backlash,
 * drift) before the tracker is put on. */
static void
bench_init (Bench *b, const char *name, guint32 seed, double noise_rad, double backlash_rad,
            gboolean drift)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr (GError) error = NULL;
  gboolean made;

  memset (b, 0, sizeof *b);
  nb_sim_arm_init (&b->arm, &model, seed);
  nb_iso9283_sim_errors (&b->arm);
  b->arm.noise_rad = noise_rad;
  b->arm.backlash_rad = backlash_rad;
  if (!drift)
    b->arm.drift_tau_s = 0;
  nb_sim_tracker_init (&b->tracker, &b->arm, 1000, TRACKER_MM, 0.002, seed + 1);
  b->measure = (NbIso9283SimMeasure) { &b->tracker, 0.2 };
  b->rig.model = model;
  b->rig.cube = cube;
  memcpy (b->rig.q, cube_q, sizeof cube_q);
  b->rig.ops = nb_sim_arm_ops ();
  b->rig.robot = &b->arm;
  b->rig.sim = &b->arm;
  b->rig.truth = &b->arm;
  b->rig.tracker = &b->tracker;
  b->rig.measure = nb_iso9283_measure_sim;
  b->rig.measure_data = &b->measure;
  b->rig.robot_name = "sim";
  b->rig.measurement = "simulated tracker";
  b->rig.rated_load_kg = RATED_KG;
  b->rig.rated_speed_mm_s = 250;
  b->rig.band_mm = 0.1;
  b->campaign = nb_campaign_create (path, name, &error);
  g_assert_no_error (error);
  g_assert_true (nb_iso9283_plan_ensure (b->campaign, 2 * 3600.0, &made, &error));
  g_assert_no_error (error);
  g_assert_true (made);
}

static void
bench_clear (Bench *b)
{
  g_assert_true (nb_campaign_close (b->campaign, NULL));
  nb_sim_tracker_clear (&b->tracker);
  nb_sim_arm_clear (&b->arm);
}

static void
bench_run (Bench *b, const char *config)
{
  g_autoptr (GError) error = NULL;
  guint ran;

  g_assert_true (nb_iso9283_run_plan (b->campaign, &b->rig, config, NULL, NULL, &ran, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ran, >, 0);
}

static void
entry_of (NbCampaign *c, const char *config, NbIso9283PlanEntry *out, GArray **keep)
{
  g_autoptr (GError) error = NULL;

  *keep = nb_campaign_iso9283_plan_list (c, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < (*keep)->len; i++)
    if (g_str_equal (g_array_index (*keep, NbIso9283PlanEntry, i).config, config))
      {
        *out = g_array_index (*keep, NbIso9283PlanEntry, i);
        return;
      }
  g_assert_not_reached ();
}

/* The figures of a configuration from the file. */
static void
figures (Bench *b, const char *config, const NbClause9283 **clause, NbClause9283Figures *f)
{
  g_autoptr (GArray) keep = NULL;
  g_autoptr (GError) error = NULL;
  NbIso9283PlanEntry e;

  entry_of (b->campaign, config, &e, &keep);
  *clause = nb_clause_9283_lookup (e.characteristic);
  g_assert_true (nb_clause_9283_compute (b->campaign, &e, f, &error));
  g_assert_no_error (error);
  if (f->error)
    g_error ("%s: %s", config, f->error);
  g_assert_cmpuint (f->cycles, ==, e.cycles);
}

static double
fig (const NbClause9283 *clause, const NbClause9283Figures *f, guint row, const char *key)
{
  for (guint k = 0; k < clause->n_columns; k++)
    if (g_str_equal (clause->columns[k].key, key))
      return f->values[row * clause->n_columns + k];
  g_assert_not_reached ();
  return NAN;
}

/* ------------------------------------------------------ the predictions -- */

static void
true_mm (const NbSimArm *truth, const double q[NB_ARM_JOINTS], double p[3])
{
  double T[16];

  nb_sim_arm_true_pose (truth, q, T);
  p[0] = T[3] * 1000, p[1] = T[7] * 1000, p[2] = T[11] * 1000;
}

static double
dist3 (const double a[3], const double b[3])
{
  return sqrt ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
               (a[2] - b[2]) * (a[2] - b[2]));
}

/* The true arm of the error model with a load and no drift (a copy). */
static void
truth_init (NbSimArm *t, double payload_kg)
{
  nb_sim_arm_init (t, &model, 1);
  nb_iso9283_sim_errors (t);
  t->payload_kg = payload_kg;
  t->drift_tau_s = 0;
}

/* ---------------------------------------------------------------- plan -- */

static void
test_plan (void)
{
  Bench b;
  g_autoptr (GArray) plan = NULL;
  g_autoptr (GError) error = NULL;
  const char *const keys[] = { "pose", "vap", "distance", "stabilisation", "drift",
                               "exchangeability", "path-line", "path-large-circle",
                               "path-small-circle", "path-reorientation", "corner", "weaving",
                               "positioning", "compliance" };
  const guint cycles[] = { 30, 30, 30, 3, 9, 60, 10, 10, 10, 10, 3, 3, 3, 3 };
  gboolean made;
  guint k = 0;

  bench_init (&b, "plan.nbc", 1, 0, 0, FALSE);
  plan = nb_campaign_iso9283_plan_list (b.campaign, &error);
  g_assert_no_error (error);
  /* Nine characteristics × (rated at 100, 50, 10 %; 10 % load at 100 %); drift,
   * exchangeability (30 cycles on each of two robots), the weaving deviations, the
   * minimum positioning time and the static compliance once. */
  g_assert_cmpuint (plan->len, ==, 9 * 4 + 5);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      guint n = g_str_equal (keys[i], "drift") || g_str_equal (keys[i], "compliance") ||
                g_str_equal (keys[i], "positioning") || g_str_equal (keys[i], "exchangeability") ||
                g_str_equal (keys[i], "weaving") ? 1 : 4;

      for (guint j = 0; j < n; j++, k++)
        {
          const NbIso9283PlanEntry *e = &g_array_index (plan, NbIso9283PlanEntry, k);
          const double speeds[] = { 100, 50, 10, 100 };

          g_assert_cmpstr (e->characteristic, ==, keys[i]);
          g_assert_cmpuint (e->cycles, ==, cycles[i]);
          g_assert_cmpfloat (e->speed_pct, ==, speeds[j]);
          g_assert_cmpstr (e->load, ==, j == 3 ? "10%" : "rated");
          g_assert_true (e->in_scope);
          g_assert_nonnull (nb_clause_9283_lookup (e->characteristic));
        }
    }
  g_assert_cmpfloat (g_array_index (plan, NbIso9283PlanEntry, 16).duration_s, ==, 7200);
  /* Made once. */
  g_assert_true (nb_iso9283_plan_ensure (b.campaign, 3600, &made, &error));
  g_assert_false (made);
  /* Out of scope with its reason; the runner leaves it. */
  g_assert_true (nb_campaign_iso9283_plan_set_scope (b.campaign, "pose-rated-10", FALSE,
                                                     "not declared", &error));
  g_assert_false (nb_campaign_iso9283_plan_set_scope (b.campaign, "nope", FALSE, "x", &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  bench_clear (&b);
}

/* ------------------------------------------------- 7.2 AP, RP and load -- */

static void
test_pose_and_load (void)
{
  Bench b;
  const NbClause9283 *clause;
  NbClause9283Figures rated, light;
  NbSimArm t_rated, t_light;

  /* No joint noise, no backlash: AP is the true arm's error at the commanded joints. */
  bench_init (&b, "pose.nbc", 3, 0, 0, FALSE);
  bench_run (&b, "pose-rated-100");
  bench_run (&b, "pose-10pct-100");
  figures (&b, "pose-rated-100", &clause, &rated);
  figures (&b, "pose-10pct-100", &clause, &light);
  truth_init (&t_rated, RATED_KG);
  truth_init (&t_light, 0.1 * RATED_KG);
  for (guint i = 0; i < 5; i++)
    {
      double pr[3], pl[3];

      true_mm (&t_rated, cube_q[i], pr);
      true_mm (&t_light, cube_q[i], pl);
      g_test_message ("P%u: AP %.4f mm rated (model %.4f), %.4f mm at 10 %% load (model %.4f)",
                      i + 1, fig (clause, &rated, i, "ap_mm"), dist3 (pr, cube.p_mm[i]),
                      fig (clause, &light, i, "ap_mm"), dist3 (pl, cube.p_mm[i]));
      nb_assert_abs (fig (clause, &rated, i, "ap_mm"), dist3 (pr, cube.p_mm[i]), 0.002,
                     "AP rated load");
      nb_assert_abs (fig (clause, &light, i, "ap_mm"), dist3 (pl, cube.p_mm[i]), 0.002,
                     "AP 10 % load");
      nb_assert_abs (fig (clause, &rated, i, "ap_z_mm"), pr[2] - cube.p_mm[i][2], 0.002, "AP_z");
      /* 6.6: the load's deflection, measurably (the TCP sags: z lower). */
      g_assert_cmpfloat (dist3 (pr, pl), >, 0.1);
      g_assert_cmpfloat (fig (clause, &rated, i, "ap_z_mm"), <,
                         fig (clause, &light, i, "ap_z_mm") - 0.05);
    }
  nb_clause_9283_figures_clear (&rated);
  nb_clause_9283_figures_clear (&light);
  nb_sim_arm_clear (&t_rated);
  nb_sim_arm_clear (&t_light);
  bench_clear (&b);

  /* RP with the joints' noise: within the central 99.8 % of the
   * estimator's distribution over 1000 simulated 30-cycle campaigns (each
   * goal's uniform joint noise through the true arm, the tracker's mean of
   * 200 samples). */
  bench_init (&b, "pose-rp.nbc", 5, 1e-5, 0, FALSE);
  bench_run (&b, "pose-rated-50");
  figures (&b, "pose-rated-50", &clause, &rated);
  truth_init (&t_rated, RATED_KG);
  {
    g_autoptr (GRand) r = g_rand_new_with_seed (77);
    const guint reps = 1000;
    g_autofree double *rp = g_new (double, reps);

    for (guint i = 0; i < 5; i++)
      {
        double lo, hi;

        for (guint m = 0; m < reps; m++)
          {
            NbPose6 a[30];
            NbPose6 c = { cube.p_mm[i][0], cube.p_mm[i][1], cube.p_mm[i][2], 180, 0, 180 };
            NbIso9283Pose res;

            for (guint j = 0; j < 30; j++)
              {
                double q[NB_ARM_JOINTS], p[3];

                for (int k = 0; k < NB_ARM_JOINTS; k++)
                  q[k] = cube_q[i][k] + g_rand_double_range (r, -1, 1) * sqrt (3.0) * 1e-5;
                true_mm (&t_rated, q, p);
                a[j] = (NbPose6) { p[0] + nb_test_gauss (r, TRACKER_MM / sqrt (200)),
                                   p[1] + nb_test_gauss (r, TRACKER_MM / sqrt (200)),
                                   p[2] + nb_test_gauss (r, TRACKER_MM / sqrt (200)), 180, 0, 180 };
              }
            g_assert_true (nb_iso9283_pose (&c, a, 30, &res, NULL));
            rp[m] = res.rp_mm;
          }
        lo = nb_test_quantile (rp, reps, 0.001);
        hi = nb_test_quantile (rp, reps, 0.999);
        g_test_message ("P%u: RP %.4f mm (99.8 %%: %.4f … %.4f)", i + 1,
                        fig (clause, &rated, i, "rp_mm"), lo, hi);
        g_assert_cmpfloat (fig (clause, &rated, i, "rp_mm"), >=, lo);
        g_assert_cmpfloat (fig (clause, &rated, i, "rp_mm"), <=, hi);
      }
  }
  nb_clause_9283_figures_clear (&rated);
  nb_sim_arm_clear (&t_rated);
  bench_clear (&b);
}

/* ----------------------------------------------------------- 7.2 vAP -- */

/* The backlash of the simulated arm, replayed: a joint that reverses
 * falls short by it (nb-sim-arm.c's model). */
static void
replay_goal (const double target[NB_ARM_JOINTS], double q[NB_ARM_JOINTS],
             double last_dir[NB_ARM_JOINTS], double backlash)
{
  for (int j = 0; j < NB_ARM_JOINTS; j++)
    {
      double d = target[j] - q[j], dir = d > 1e-9 ? 1 : d < -1e-9 ? -1 : 0;

      q[j] = target[j] - (dir != 0 && dir != last_dir[j] ? dir * backlash : 0);
      if (dir != 0)
        last_dir[j] = dir;
    }
}

static void
test_vap (void)
{
  const double backlash = 3e-5;
  Bench b;
  const NbClause9283 *clause = &nb_clause_9283_vap, *c2;
  NbClause9283Goals goals;
  NbClause9283Figures f;
  g_autoptr (GArray) keep = NULL;
  g_autoptr (GError) error = NULL;
  NbIso9283PlanEntry e;
  double q[NB_ARM_JOINTS] = { 0 }, last[NB_ARM_JOINTS] = { 0 }, bary[3][3][3] = { { { 0 } } };
  NbSimArm truth;

  bench_init (&b, "vap.nbc", 7, 0, backlash, FALSE);
  bench_run (&b, "vap-rated-100");
  figures (&b, "vap-rated-100", &c2, &f);
  g_assert_true (c2 == clause);
  /* The same goals as the module sends them, replayed from the arm's start. */
  entry_of (b.campaign, "vap-rated-100", &e, &keep);
  memset (&goals, 0, sizeof goals);
  g_assert_true (clause->prepare (clause, &b.rig, &e, &goals, &error));
  g_assert_no_error (error);
  g_assert_null (goals.pre);
  g_assert_cmpuint (goals.measured->len, ==, 18);
  truth_init (&truth, RATED_KG);
  for (guint cyc = 0; cyc < 30; cyc++)
    for (guint k = 0; k < 18; k++)
      {
        double p[3];

        replay_goal (&g_array_index (goals.goals, double, k * NB_ARM_JOINTS), q, last, backlash);
        if (!g_array_index (goals.measured, gboolean, k))
          continue;
        true_mm (&truth, q, p);
        for (int a = 0; a < 3; a++)
          bary[k / 6][(k % 6) / 2][a] += p[a] / 30;
      }
  for (guint i = 0; i < 3; i++)
    {
      double vap = 0;

      for (guint h = 0; h < 3; h++)
        for (guint k = h + 1; k < 3; k++)
          vap = MAX (vap, dist3 (bary[i][h], bary[i][k]));
      g_test_message ("%s: vAP %.4f mm (model %.4f)", f.labels[i], fig (clause, &f, i, "vap_mm"),
                      vap);
      g_assert_cmpfloat (vap, >, 0.005);
      nb_assert_abs (fig (clause, &f, i, "vap_mm"), vap, 0.003, "vAP against the backlash");
    }
  nb_clause_9283_goals_clear (&goals);
  nb_clause_9283_figures_clear (&f);
  nb_sim_arm_clear (&truth);
  bench_clear (&b);
}

/* ------------------------------------------------------- 7.3 AD and RD -- */

static void
test_distance (void)
{
  Bench b;
  const NbClause9283 *clause;
  NbClause9283Figures f;
  NbSimArm truth;
  double p2[3], p4[3], ad;
  g_autoptr (GRand) r = g_rand_new_with_seed (91);
  const guint reps = 2000;
  g_autofree double *rd = g_new (double, reps);
  double lo, hi;

  bench_init (&b, "distance.nbc", 9, 0, 0, FALSE);
  bench_run (&b, "distance-rated-10");
  figures (&b, "distance-rated-10", &clause, &f);
  truth_init (&truth, RATED_KG);
  true_mm (&truth, cube_q[1], p2);
  true_mm (&truth, cube_q[3], p4);
  ad = dist3 (p2, p4) - dist3 (cube.p_mm[1], cube.p_mm[3]);
  g_test_message ("AD %.4f mm (model %.4f), RD %.5f mm", fig (clause, &f, 0, "ad_mm"), ad,
                  fig (clause, &f, 0, "rd_mm"));
  g_assert_cmpfloat (fabs (ad), >, 0.05);
  nb_assert_abs (fig (clause, &f, 0, "ad_mm"), ad, 0.002, "AD against the true arm");
  /* RD of the tracker's noise alone (the joints here have none): the
   * estimator over 2000 campaigns of 30 cycles, each pose the mean of 200
   * samples. */
  for (guint m = 0; m < reps; m++)
    {
      double d[30], mean = 0, ss = 0;

      for (guint j = 0; j < 30; j++)
        {
          double a[3], c[3];

          for (int k = 0; k < 3; k++)
            {
              a[k] = p2[k] + nb_test_gauss (r, TRACKER_MM / sqrt (200));
              c[k] = p4[k] + nb_test_gauss (r, TRACKER_MM / sqrt (200));
            }
          d[j] = dist3 (a, c);
          mean += d[j] / 30;
        }
      for (guint j = 0; j < 30; j++)
        ss += (d[j] - mean) * (d[j] - mean);
      rd[m] = 3 * sqrt (ss / 29);
    }
  lo = nb_test_quantile (rd, reps, 0.001);
  hi = nb_test_quantile (rd, reps, 0.999);
  g_test_message ("RD %.5f mm (99.8 %%: %.5f … %.5f)", fig (clause, &f, 0, "rd_mm"), lo, hi);
  g_assert_cmpfloat (fig (clause, &f, 0, "rd_mm"), >=, lo);
  g_assert_cmpfloat (fig (clause, &f, 0, "rd_mm"), <=, hi);
  nb_clause_9283_figures_clear (&f);
  nb_sim_arm_clear (&truth);
  bench_clear (&b);
}

/* ------------------------------------------ 7.4 stabilisation, 7.5 OV -- */

static void
test_stabilisation (void)
{
  Bench b;
  const NbClause9283 *clause;
  NbClause9283Figures f;
  NbSimArm truth;
  NbIso9283Settling rm;
  double ramp = 0;
  guint n;
  g_autofree NbIso9283Sample *stream = NULL;
  g_autoptr (GError) error = NULL;

  bench_init (&b, "stabilisation.nbc", 11, 0, 0, FALSE);
  bench_run (&b, "stabilisation-rated-50");
  figures (&b, "stabilisation-rated-50", &clause, &f);
  /* The ramp P2 → P1 at 50 %: the slowest joint's time, twice, 0.4 % slower. */
  for (int j = 0; j < NB_ARM_JOINTS; j++)
    ramp = MAX (ramp, fabs (cube_q[0][j] - cube_q[1][j]) / model.joint[j].max_velocity);
  ramp *= 2.0 / (1 - 0.004);
  truth_init (&truth, RATED_KG);
  n = (guint) ((ramp + 1.2) * 1000);
  stream = g_new (NbIso9283Sample, n);
  for (guint i = 0; i < n; i++)
    {
      double q[NB_ARM_JOINTS], t = i / 1000.0;

      for (int j = 0; j < NB_ARM_JOINTS; j++)
        q[j] = nb_test_servo_closed_form (cube_q[1][j], cube_q[0][j], ramp, b.arm.settle_omega_rad_s,
                                  b.arm.settle_zeta, t);
      stream[i].t_s = t;
      true_mm (&truth, q, stream[i].p_mm);
    }
  g_assert_true (nb_iso9283_settling (stream, n, 0.1, 0.2, &rm, &error));
  g_assert_no_error (error);
  g_test_message ("t %.4f s (closed form %.4f s), OV %.4f mm (%.4f)",
                  fig (clause, &f, 0, "stabilisation_s"), rm.stabilisation_s,
                  fig (clause, &f, 0, "overshoot_mm"), rm.overshoot_mm);
  g_assert_cmpfloat (rm.stabilisation_s, >, 0.1);
  g_assert_cmpfloat (rm.overshoot_mm, >, 0.5);
  nb_assert_abs (fig (clause, &f, 0, "stabilisation_s"), rm.stabilisation_s, 0.005,
                 "stabilisation time");
  nb_assert_abs (fig (clause, &f, 0, "overshoot_mm"), rm.overshoot_mm,
                 0.01 * rm.overshoot_mm + 0.005, "overshoot");
  /* The three cycles are the same approach: the mean is the maximum's. */
  nb_assert_abs (fig (clause, &f, 0, "stabilisation_mean_s"), rm.stabilisation_s, 0.005, "mean");
  nb_clause_9283_figures_clear (&f);
  nb_sim_arm_clear (&truth);
  bench_clear (&b);
}

/* ----------------------------------------------------------- 7.6 drift -- */

static void
test_drift (void)
{
  Bench b;
  const NbClause9283 *clause;
  NbClause9283Figures f;
  NbSimArm truth;
  g_autoptr (GPtrArray) trials = NULL;
  g_autoptr (GError) error = NULL;
  double ap[2];

  bench_init (&b, "drift.nbc", 13, 0, 0, TRUE);
  bench_run (&b, "drift-rated-100");
  figures (&b, "drift-rated-100", &clause, &f);
  trials = nb_campaign_iso9283_trials (b.campaign, "drift-rated-100", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (trials->len, ==, 9);
  truth_init (&truth, RATED_KG);
  truth.drift_tau_s = b.arm.drift_tau_s;
  /* Each group's AP: the mean error of the true arm over its ten P1
   * arrivals, evenly spread from the group's start to its end. */
  for (guint g = 0; g < 2; g++)
    {
      const NbIso9283Trial *t = trials->pdata[g == 0 ? 0 : trials->len - 1];
      double t0 = g_array_index (t->command, double, 6), t1 = t->t_s, e[3] = { 0 };

      for (guint k = 1; k <= 10; k++)
        {
          double p[3];

          truth.clock_s = t0 + (t1 - t0) * k / 10.0;
          true_mm (&truth, cube_q[0], p);
          for (int a = 0; a < 3; a++)
            e[a] += (p[a] - cube.p_mm[0][a]) / 10;
        }
      ap[g] = sqrt (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    }
  g_test_message ("dAP %.4f mm (model %.4f: AP %.4f → %.4f mm over %s)",
                  fig (clause, &f, 0, "dap_mm"), fabs (ap[1] - ap[0]), ap[0], ap[1], f.note);
  g_assert_cmpfloat (fabs (ap[1] - ap[0]), >, 0.01);
  nb_assert_abs (fig (clause, &f, 0, "dap_mm"), fabs (ap[1] - ap[0]), 0.002, "dAP");
  /* No joint noise: dRP is the tracker's noise alone. */
  g_assert_cmpfloat (fig (clause, &f, 0, "drp_mm"), <, 0.003);

  /* Resumed after a kill: a new arm (its clock at 0) and a file holding the
   * first four groups; the run goes on from the fourth's end, the groups
   * are due when they were, and dAP is the same. */
  {
    Bench r;
    NbClause9283Figures fr;

    bench_init (&r, "drift-resumed.nbc", 21, 0, 0, TRUE);
    for (guint g = 0; g < 4; g++)
      g_assert_true (nb_campaign_iso9283_add_trial (r.campaign, trials->pdata[g], &error));
    g_assert_no_error (error);
    bench_run (&r, "drift-rated-100");
    figures (&r, "drift-rated-100", &clause, &fr);
    {
      g_autoptr (GPtrArray) again = nb_campaign_iso9283_trials (r.campaign, "drift-rated-100",
                                                               &error);

      g_assert_no_error (error);
      g_assert_cmpuint (again->len, ==, 9);
      for (guint g = 4; g < 9; g++)
        {
          const NbIso9283Trial *a = trials->pdata[g], *c = again->pdata[g];

          /* Due an interval after the one before began, to within a cycle. */
          nb_assert_abs (g_array_index (c->command, double, 6),
                         g_array_index (a->command, double, 6), 15.0, "group's start");
        }
    }
    g_test_message ("resumed: dAP %.4f mm (uninterrupted %.4f mm)",
                    fig (clause, &fr, 0, "dap_mm"), fig (clause, &f, 0, "dap_mm"));
    nb_assert_abs (fig (clause, &fr, 0, "dap_mm"), fig (clause, &f, 0, "dap_mm"), 0.002,
                   "dAP resumed");
    nb_clause_9283_figures_clear (&fr);
    bench_clear (&r);
  }
  nb_clause_9283_figures_clear (&f);
  nb_sim_arm_clear (&truth);
  bench_clear (&b);
}

/* ------------------------------------------ 8.2, 8.3, 8.5, 8.6 paths -- */

/* The true track through the cycle's joint points, noise-free, joint-linear
 * between them (the simulated arm's motion without its servo), densely. */
static NbPose6 *
truth_track (const NbClause9283Goals *g, const NbSimArm *truth, gsize *n)
{
  guint goals = g->goals->len / NB_ARM_JOINTS, sub = 20;
  NbPose6 *out = g_new (NbPose6, (gsize) goals * sub + 1);
  const double *from = &g_array_index (g->pre, double, 0);

  *n = 0;
  for (guint k = 0; k < goals; k++)
    {
      const double *to = &g_array_index (g->goals, double, k * NB_ARM_JOINTS);

      for (guint s = k == 0 ? 0 : 1; s <= sub; s++)
        {
          double q[NB_ARM_JOINTS], T[16], R[9], abc[3];

          for (int j = 0; j < NB_ARM_JOINTS; j++)
            q[j] = from[j] + (to[j] - from[j]) * s / sub;
          nb_sim_arm_true_pose (truth, q, T);
          for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
              R[r * 3 + c] = T[r * 4 + c];
          nb_iso9283_matrix_to_abc (R, abc);
          out[(*n)++] = (NbPose6) { T[3] * 1000, T[7] * 1000, T[11] * 1000, abc[0], abc[1],
                                    abc[2] };
        }
      from = to;
    }
  return out;
}

static void
prepared (Bench *b, const char *config, NbClause9283Goals *g)
{
  g_autoptr (GArray) keep = NULL;
  g_autoptr (GError) error = NULL;
  NbIso9283PlanEntry e;

  entry_of (b->campaign, config, &e, &keep);
  memset (g, 0, sizeof *g);
  g_assert_true (nb_clause_9283_lookup (e.characteristic)->prepare (
    nb_clause_9283_lookup (e.characteristic), &b->rig, &e, g, &error));
  g_assert_no_error (error);
}

static void
test_path (void)
{
  const char *const configs[] = { "path-line-rated-100", "path-large-circle-rated-100",
                                  "path-reorientation-rated-100" };
  Bench b;
  NbSimArm truth;

  bench_init (&b, "path.nbc", 15, 0, 0, FALSE);
  truth_init (&truth, RATED_KG);
  for (guint c = 0; c < G_N_ELEMENTS (configs); c++)
    {
      const NbClause9283 *clause;
      NbClause9283Figures f;
      NbClause9283Goals g;
      NbIso9283PathResult r;
      g_autofree NbPose6 *tt = NULL;
      g_autoptr (GError) error = NULL;
      gsize n;

      bench_run (&b, configs[c]);
      figures (&b, configs[c], &clause, &f);
      prepared (&b, configs[c], &g);
      /* 6.8: the command path each configuration names (the line and the
       * reorientation the diagonal P2 → P4, the large circle of radius 40 %
       * of the edge about P1), not one path for all. */
      {
        const NbIso9283Cube *cb = &b.rig.cube;
        double length, want = c == 1 ? 2 * G_PI * 0.4 * cb->edge_mm
                                     : dist3 (cb->p_mm[1], cb->p_mm[3]);

        g_assert_true (nb_iso9283_path_length (&g.path, &length, NULL));
        g_assert_cmpint (g.path.kind, ==, c == 1 ? NB_ISO9283_CIRCLE : NB_ISO9283_LINE);
        nb_assert_abs (length, want, 1e-9 * want, "the command path's length");
      }
      tt = truth_track (&g, &truth, &n);
      {
        NbIso9283Track two[2] = { { NULL, tt, n }, { NULL, tt, n } };

        g_assert_true (nb_iso9283_path (&g.path, two, 2, 10, 10, &r, &error));
        g_assert_no_error (error);
      }
      g_test_message ("%s: AT %.4f mm (model %.4f), RT %.4f mm, AV %.3f %%, FV %.3f mm/s",
                      configs[c], fig (clause, &f, 0, "at_mm"), r.at_mm,
                      fig (clause, &f, 0, "rt_mm"), fig (clause, &f, 0, "av_pct"),
                      fig (clause, &f, 0, "fv_mm_s"));
      g_assert_cmpfloat (r.at_mm, >, 0.1);
      nb_assert_abs (fig (clause, &f, 0, "at_mm"), r.at_mm, 0.01, "AT against the true arm");
      if (g.path.turn_axis[2] != 0)
        {
          /* 8.4: the tool turned by 60° about its z along the line; the
           * orientation error is the true arm's against the turned command
           * (the tracker's 0.002° noise averaged over the ten cycles). */
          g_test_message ("%s: AT_a %.4f° AT_b %.4f° AT_c %.4f° (model %.4f, %.4f, %.4f)",
                          configs[c], fig (clause, &f, 0, "at_a_deg"),
                          fig (clause, &f, 0, "at_b_deg"), fig (clause, &f, 0, "at_c_deg"),
                          r.at_abc_deg[0], r.at_abc_deg[1], r.at_abc_deg[2]);
          g_assert_cmpfloat (g.path.turn_deg[1] - g.path.turn_deg[0], ==, 60);
          /* Followed the turn: a tool held still would be 24.5° off at the
           * outer calculated points (9/11 of 30°). */
          g_assert_cmpfloat (fig (clause, &f, 0, "at_c_deg"), <, 1);
          nb_assert_abs (fig (clause, &f, 0, "at_a_deg"), r.at_abc_deg[0], 0.003, "AT_a");
          nb_assert_abs (fig (clause, &f, 0, "at_b_deg"), r.at_abc_deg[1], 0.003, "AT_b");
          nb_assert_abs (fig (clause, &f, 0, "at_c_deg"), r.at_abc_deg[2], 0.003, "AT_c");
        }
      /* No joint noise: RT is the tracker's (σ 5 µm, interpolated). */
      g_assert_cmpfloat (fig (clause, &f, 0, "rt_mm"), <, 0.03);
      /* 8.6: the arm runs 0.4 % slow over each goal's commanded time, and
       * the true path is longer or shorter than the command (its geometry
       * and the load's deflection: the line's AD). */
      {
        double l_true = 0, l_cmd, av;

        for (gsize i = 1; i < n; i++)
          {
            const double a[3] = { tt[i].x_mm, tt[i].y_mm, tt[i].z_mm };
            const double z[3] = { tt[i - 1].x_mm, tt[i - 1].y_mm, tt[i - 1].z_mm };

            l_true += dist3 (a, z);
          }
        g_assert_true (nb_iso9283_path_length (&g.path, &l_cmd, NULL));
        av = ((1 - 0.004) * l_true / l_cmd - 1) * 100;
        g_test_message ("AV %.3f %% (model %.3f %%: L %.3f mm, true %.3f mm)",
                        fig (clause, &f, 0, "av_pct"), av, l_cmd, l_true);
        nb_assert_abs (fig (clause, &f, 0, "av_pct"), av, 0.02, "AV against the speed error");
      }
      if (c == 0)
        {
          /* FV of the tracker's noise on the 10 ms velocity samples of a
           * straight line at 249 mm/s (the samples in the measured 9/11 of
           * it): the estimator over 1000 simulated ten-cycle runs. */
          g_autoptr (GRand) rr = g_rand_new_with_seed (5);
          double step = 250 * (1 - 0.004) * 0.01, length;
          guint k, reps = 1000;
          g_autofree double *fv = g_new (double, reps);
          double lo, hi;

          g_assert_true (nb_iso9283_path_length (&g.path, &length, NULL));
          k = (guint) floor (length * 9 / 11 / step) - 1;
          for (guint m = 0; m < reps; m++)
            {
              double worst = 0;

              for (guint cyc = 0; cyc < 10; cyc++)
                {
                  double prev[3] = { 0 }, vmin = INFINITY, vmax = 0;

                  for (guint i = 0; i <= k; i++)
                    {
                      double p[3] = { i * step + nb_test_gauss (rr, TRACKER_MM), nb_test_gauss (rr, TRACKER_MM),
                                      nb_test_gauss (rr, TRACKER_MM) };

                      if (i > 0)
                        {
                          double v = dist3 (p, prev) / 0.01;

                          vmin = MIN (vmin, v);
                          vmax = MAX (vmax, v);
                        }
                      memcpy (prev, p, sizeof prev);
                    }
                  worst = MAX (worst, vmax - vmin);
                }
              fv[m] = worst;
            }
          lo = nb_test_quantile (fv, reps, 0.001);
          hi = nb_test_quantile (fv, reps, 0.999);
          g_test_message ("FV %.3f mm/s (99.8 %%: %.3f … %.3f)", fig (clause, &f, 0, "fv_mm_s"),
                          lo, hi);
          g_assert_cmpfloat (fig (clause, &f, 0, "fv_mm_s"), >=, lo);
          g_assert_cmpfloat (fig (clause, &f, 0, "fv_mm_s"), <=, hi);
          g_assert_cmpfloat (fig (clause, &f, 0, "rv_mm_s"), <, 0.2);
        }
      nb_clause_9283_goals_clear (&g);
      nb_clause_9283_figures_clear (&f);
    }
  /* 8.5: the corner P3 of P2 → P3 → P4. */
  {
    const NbClause9283 *clause;
    NbClause9283Figures f;
    NbClause9283Goals g;
    NbIso9283Corner r;
    g_autofree NbPose6 *tt = NULL;
    g_autoptr (GError) error = NULL;
    gsize n;

    bench_run (&b, "corner-rated-10");
    figures (&b, "corner-rated-10", &clause, &f);
    prepared (&b, "corner-rated-10", &g);
    tt = truth_track (&g, &truth, &n);
    {
      NbIso9283Track one[1] = { { NULL, tt, n } };

      g_assert_true (nb_iso9283_corner (g.corner_mm[0], g.corner_mm[1], g.corner_mm[2], one, 1,
                                        &r, &error));
      g_assert_no_error (error);
    }
    g_test_message ("CR %.4f mm (model %.4f), CO %.4f mm (model %.4f)",
                    fig (clause, &f, 0, "cr_mm"), r.cr_mm, fig (clause, &f, 0, "co_mm"), r.co_mm);
    g_assert_cmpfloat (r.cr_mm, >, 0.1);
    nb_assert_abs (fig (clause, &f, 0, "cr_mean_mm"), r.cr_mm, 0.015, "CR against the true arm");
    /* CO is a largest deviation: over noisy samples it exceeds the noise-free
     * one by 2–3 σ of the tracker. */
    nb_assert_abs (fig (clause, &f, 0, "co_mean_mm"), r.co_mm + 2 * TRACKER_MM, 0.012,
                   "CO against the true arm");
    nb_clause_9283_goals_clear (&g);
    nb_clause_9283_figures_clear (&f);
  }
  nb_sim_arm_clear (&truth);
  bench_clear (&b);
}

/* ------------------------------------------------ 8.7 weaving -- */

static void
test_weaving (void)
{
  Bench b;
  const NbClause9283 *clause;
  NbClause9283Figures f;
  g_autoptr (GPtrArray) trials = NULL;
  g_autoptr (GError) error = NULL;
  double length = dist3 (cube.p_mm[1], cube.p_mm[3]), worst = 0;

  bench_init (&b, "weaving.nbc", 21, 0, 0, FALSE);
  bench_run (&b, "weaving-rated-100");
  figures (&b, "weaving-rated-100", &clause, &f);
  g_test_message ("weaving: S_a %.4f mm (WS %.3f %%), F_a %.5f Hz (WF %.3f %%); P2–P4 %.1f mm",
                  fig (clause, &f, 0, "stroke_mm"), fig (clause, &f, 0, "ws_pct"),
                  fig (clause, &f, 0, "frequency_hz"), fig (clause, &f, 0, "wf_pct"), length);
  /* The command as docs/iso9283.md reads 8.7: 10 mm at 2 Hz. */
  g_assert_cmpfloat (fig (clause, &f, 0, "stroke_command_mm"), ==, 10);
  g_assert_cmpfloat (fig (clause, &f, 0, "frequency_command_hz"), ==, 2);
  /* WF: the arm runs 0.4 % slow over every goal's commanded time (the error
   * model's speed error), so the weave's period is 1/0.996 of the command's. */
  nb_assert_abs (fig (clause, &f, 0, "wf_pct"), -0.4, 0.005, "WF against the speed error");
  nb_assert_abs (fig (clause, &f, 0, "frequency_hz"), 2 * 0.996, 1e-4, "F_a");
  /* WS: without backlash or joint noise, the stroke the true arm (its link
   * lengths, encoder offsets, the rated load's deflection) makes of the
   * command's crests and troughs — 10 mm across P2 → P4 in the measurement
   * plane every 12.5 mm of the line, computed here from the cube (IK of each
   * point on the arm's model, the true TCP there): each crest against the
   * middle of the troughs either side, over the measured part. */
  {
    NbSimArm truth;
    double e1[3], e2[3], n[3], u[3], d[3], q[NB_ARM_JOINTS], sum = 0, want;
    guint count = 0;

    truth_init (&truth, RATED_KG);
    nb_clause_9283_plane_axes (&cube, e1, e2, n);
    for (int k = 0; k < 3; k++)
      u[k] = (cube.p_mm[3][k] - cube.p_mm[1][k]) / length;
    d[0] = n[1] * u[2] - n[2] * u[1];
    d[1] = n[2] * u[0] - n[0] * u[2];
    d[2] = n[0] * u[1] - n[1] * u[0];
    memcpy (q, cube_q[1], sizeof q);
    for (guint k = 0; 12.5 * (k + 1.25) < length * 10 / 11; k++)
      {
        double w[3];

        if (12.5 * (k + 0.25) < length / 11)
          continue;
        /* The trough before the crest, the crest, the trough after. */
        for (int i = 0; i < 3; i++)
          {
            double s = 12.5 * (k - 0.25 + 0.5 * i), x[3], T[16], p[3], v[3];

            for (int j = 0; j < 3; j++)
              x[j] = cube.p_mm[1][j] + s * u[j] + (i == 1 ? 5 : -5) * d[j];
            nb_iso9283_cube_target (&cube, x, T);
            g_assert_true (nb_arm_ik (&model, T, q, q, NULL));
            true_mm (&truth, q, p);
            for (int j = 0; j < 3; j++)
              v[j] = p[j] - cube.p_mm[1][j];
            w[i] = v[0] * d[0] + v[1] * d[1] + v[2] * d[2];
          }
        sum += w[1] - (w[0] + w[2]) / 2;
        count++;
      }
    want = sum / count;
    g_test_message ("the true arm's stroke %.4f mm over %u crests", want, count);
    g_assert_cmpuint (count, >, 15);
    /* The simulated arm moves joint-linearly between the points (80 a
     * period): its track's chords sag below the sinusoid by up to
     * A·(2π/80)²/8 = 3.9 µm, which the crests' parabolas take in (up to
     * 7.7 µm of the stroke, short); the tracker's noise (5 µm) on parabolas
     * through 12 samples, over 3 × 45 extremes, and IK to 0.1 µm add 2 µm. */
    nb_assert_abs (fig (clause, &f, 0, "stroke_mm"), want - 0.004, 0.006,
                   "S_a against the true arm");
    nb_assert_abs (fig (clause, &f, 0, "ws_pct"), (want - 0.004 - 10) * 10, 0.06, "WS");
    nb_sim_arm_clear (&truth);
  }
  /* The stored track weaves 10 mm across P2 → P4, 4.9 mm either side (not a
   * straight line that some other figure could pass for). */
  trials = nb_campaign_iso9283_trials (b.campaign, "weaving-rated-100", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (trials->len, ==, 3);
  {
    const NbIso9283Trial *t = trials->pdata[0];
    double u[3], lo = INFINITY, hi = -INFINITY, e1[3], e2[3], n[3], d[3];

    nb_clause_9283_plane_axes (&cube, e1, e2, n);
    for (int k = 0; k < 3; k++)
      u[k] = (cube.p_mm[3][k] - cube.p_mm[1][k]) / length;
    d[0] = n[1] * u[2] - n[2] * u[1];
    d[1] = n[2] * u[0] - n[0] * u[2];
    d[2] = n[0] * u[1] - n[1] * u[0];
    for (guint i = 0; i < t->data->len / 7; i++)
      {
        const double *r = &g_array_index (t->data, double, i * 7);
        double v[3] = { r[1] - cube.p_mm[1][0], r[2] - cube.p_mm[1][1], r[3] - cube.p_mm[1][2] };
        double w = v[0] * d[0] + v[1] * d[1] + v[2] * d[2];
        double s = v[0] * u[0] + v[1] * u[1] + v[2] * u[2];

        if (s > length / 11 && s < length * 10 / 11)
          lo = MIN (lo, w), hi = MAX (hi, w);
        worst = MAX (worst, fabs (s - 25 * 0.996 * r[0]));
      }
    g_test_message ("track: w %.3f … %.3f mm, along the line within %.3f mm of 24.9 mm/s", lo,
                    hi, worst);
    g_assert_cmpfloat (hi, >, 4.0);
    g_assert_cmpfloat (lo, <, -4.0);
    g_assert_cmpfloat (hi - lo, <, 12);
  }
  nb_clause_9283_figures_clear (&f);
  bench_clear (&b);
}

/* ---------------------------------------- 9 minimum positioning time -- */

static void
test_positioning (void)
{
  Bench b;
  const NbClause9283 *clause;
  NbClause9283Figures f;
  NbClause9283Goals g;
  NbSimArm truth;

  bench_init (&b, "positioning.nbc", 19, 0, 0, FALSE);
  bench_run (&b, "positioning-rated-100");
  figures (&b, "positioning-rated-100", &clause, &f);
  prepared (&b, "positioning-rated-100", &g);
  truth_init (&truth, RATED_KG);
  g_assert_cmpuint (f.n_rows, ==, g.n_command);
  g_assert_cmpuint (f.n_rows, >=, 4);
  for (guint i = 0; i < f.n_rows; i++)
    {
      const double *to = &g_array_index (g.goals, double, (2 * i + 1) * NB_ARM_JOINTS);
      double ramp = 0;
      guint n;
      g_autofree NbIso9283Sample *stream = NULL;
      g_autoptr (GError) error = NULL;
      NbIso9283Settling rm, wide, narrow;

      for (int j = 0; j < NB_ARM_JOINTS; j++)
        ramp = MAX (ramp, fabs (to[j] - cube_q[0][j]) / model.joint[j].max_velocity);
      ramp /= 1 - 0.004;
      n = (guint) ((ramp + 1.2) * 1000);
      stream = g_new (NbIso9283Sample, n);
      for (guint k = 0; k < n; k++)
        {
          double q[NB_ARM_JOINTS], t = k / 1000.0;

          for (int j = 0; j < NB_ARM_JOINTS; j++)
            q[j] = nb_test_servo_closed_form (cube_q[0][j], to[j], ramp, b.arm.settle_omega_rad_s,
                                      b.arm.settle_zeta, t);
          stream[k].t_s = t;
          true_mm (&truth, q, stream[k].p_mm);
        }
      /* The tracker's noise (σ 5 µm per axis) moves the band's edge as the
       * stream sees it by up to ~3σ: where a ring's peak grazes the band the
       * last exit jumps by half a period.  The time must lie between the
       * closed form's with the band 15 µm wider and 15 µm narrower. */
      g_assert_true (nb_iso9283_settling (stream, n, 0.1, 0.2, &rm, &error));
      g_assert_true (nb_iso9283_settling (stream, n, 0.1 + 3 * TRACKER_MM, 0.2, &wide, &error));
      g_assert_true (nb_iso9283_settling (stream, n, 0.1 - 3 * TRACKER_MM, 0.2, &narrow, &error));
      g_assert_no_error (error);
      g_test_message ("%s: t_pos %.4f s (closed form %.4f s, %.4f … %.4f s)", f.labels[i],
                      fig (clause, &f, i, "positioning_s"), rm.t_stable_s, wide.t_stable_s,
                      narrow.t_stable_s);
      g_assert_cmpfloat (fig (clause, &f, i, "positioning_s"), >=, wide.t_stable_s - 0.005);
      g_assert_cmpfloat (fig (clause, &f, i, "positioning_s"), <=, narrow.t_stable_s + 0.005);
      if (i > 0)
        g_assert_cmpfloat (fig (clause, &f, i, "positioning_s"), >,
                           fig (clause, &f, i - 1, "positioning_s") - 0.1);
    }
  nb_clause_9283_goals_clear (&g);
  nb_clause_9283_figures_clear (&f);
  nb_sim_arm_clear (&truth);
  bench_clear (&b);
}

/* ------------------------------------------------- 7.7 exchangeability -- */

/* Three units of the type (their own encoder offsets and link length
 * errors, nb_iso9283_sim_unit), no joint noise or backlash: each robot's
 * barycentre is its true arm at the commanded joints with the load's
 * deflection, so E at each pose is the largest distance between two units'
 * true TCPs there. */
static void
test_exchangeability (void)
{
  const char *const units[] = { "KUKA-0001", "KUKA-0002", "KUKA-0003" };
  Bench b;
  const NbClause9283 *clause;
  NbClause9283Figures f;
  NbSimArm truth[3];
  g_autoptr (GArray) keep = NULL;
  g_autoptr (GError) error = NULL;
  NbIso9283PlanEntry e;

  bench_init (&b, "exchangeability.nbc", 23, 0, 0, FALSE);
  entry_of (b.campaign, "exchangeability-rated-100", &e, &keep);
  /* 30 cycles on each of two robots at least (6.9, 7.7). */
  g_assert_cmpuint (e.cycles, ==, 60);
  for (guint u = 0; u < 3; u++)
    {
      guint n;

      nb_iso9283_sim_errors (&b.arm);
      b.arm.noise_rad = 0;
      b.arm.backlash_rad = 0;
      b.arm.drift_tau_s = 0;
      nb_iso9283_sim_unit (&b.arm, units[u]);
      b.rig.unit = units[u];
      bench_run (&b, "exchangeability-rated-100");
      g_assert_true (nb_campaign_iso9283_count_trials (b.campaign, "exchangeability-rated-100",
                                                       &n, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (n, ==, 30 * (u + 1));
      /* The same unit again runs nothing: its 30 are stored. */
      {
        guint ran = 1;

        g_assert_true (nb_iso9283_run_plan (b.campaign, &b.rig, "exchangeability-rated-100", NULL,
                                            NULL, &ran, &error));
        g_assert_cmpuint (ran, ==, 0);
      }
      if (u == 0)
        {
          /* One robot is no comparison: the figure says so. */
          g_assert_true (nb_clause_9283_compute (b.campaign, &e, &f, &error));
          g_assert_nonnull (f.error);
          g_assert_nonnull (strstr (f.error, "only 'KUKA-0001' is measured"));
          nb_clause_9283_figures_clear (&f);
        }
      truth_init (&truth[u], RATED_KG);
      nb_iso9283_sim_unit (&truth[u], units[u]);
    }
  g_assert_true (nb_clause_9283_compute (b.campaign, &e, &f, &error));
  g_assert_no_error (error);
  g_assert_null (f.error);
  clause = nb_clause_9283_lookup ("exchangeability");
  g_assert_cmpuint (f.cycles, ==, 90);
  for (guint i = 0; i < 5; i++)
    {
      double p[3][3], e_model = 0;

      for (guint u = 0; u < 3; u++)
        true_mm (&truth[u], cube_q[i], p[u]);
      for (guint h = 0; h < 3; h++)
        for (guint k = h + 1; k < 3; k++)
          e_model = MAX (e_model, dist3 (p[h], p[k]));
      g_test_message ("P%u: E %.4f mm (model %.4f mm)", i + 1, fig (clause, &f, i, "e_mm"),
                      e_model);
      /* The units differ measurably (σ 0.1 mrad, 0.2 mm of manufacturing). */
      g_assert_cmpfloat (e_model, >, 0.05);
      nb_assert_abs (fig (clause, &f, i, "e_mm"), e_model, 0.002, "E");
      g_assert_cmpfloat (fig (clause, &f, i, "robots"), ==, 3);
    }
  g_assert_nonnull (strstr (f.note, "robots: KUKA-0001, KUKA-0002, KUKA-0003"));
  nb_clause_9283_figures_clear (&f);
  for (guint u = 0; u < 3; u++)
    nb_sim_arm_clear (&truth[u]);
  bench_clear (&b);
}

/* ------------------------------------------------ 10 static compliance -- */

static void
test_compliance (void)
{
  Bench b;
  const NbClause9283 *clause;
  NbClause9283Figures f;
  NbSimArm truth;
  double qt[NB_ARM_JOINTS], J[3][NB_ARM_JOINTS], p0[3];

  bench_init (&b, "compliance.nbc", 17, 0, 0, FALSE);
  bench_run (&b, "compliance-rated-100");
  figures (&b, "compliance-rated-100", &clause, &f);
  /* The model's compliance along each axis: u·J·C·Jᵀ·u, J the true arm's
   * position Jacobian at P1 (m/rad), C its joints' compliance. */
  truth_init (&truth, 0);
  for (int j = 0; j < NB_ARM_JOINTS; j++)
    qt[j] = cube_q[0][j] + truth.joint_offset_rad[j];
  {
    double T[16];

    nb_arm_fk (&truth.truth, qt, T);
    p0[0] = T[3], p0[1] = T[7], p0[2] = T[11];
    for (int j = 0; j < NB_ARM_JOINTS; j++)
      {
        double q[NB_ARM_JOINTS];

        memcpy (q, qt, sizeof q);
        q[j] += 1e-6;
        nb_arm_fk (&truth.truth, q, T);
        J[0][j] = (T[3] - p0[0]) / 1e-6;
        J[1][j] = (T[7] - p0[1]) / 1e-6;
        J[2][j] = (T[11] - p0[2]) / 1e-6;
      }
  }
  for (guint d = 0; d < 6; d++)
    {
      guint a = d / 2;
      double c = 0;

      for (int j = 0; j < NB_ARM_JOINTS; j++)
        c += J[a][j] * truth.compliance_rad_per_nm[j] * J[a][j];
      c *= 1000;        /* mm/N */
      g_test_message ("%s: %.6f mm/N (model %.6f), %.4f mm at %.1f N", f.labels[d],
                      fig (clause, &f, d, "compliance_mm_n"), c,
                      fig (clause, &f, d, "displacement_mm"), fig (clause, &f, d, "force_n"));
      g_assert_cmpfloat (c, >, 1e-4);
      nb_assert_rel (fig (clause, &f, d, "compliance_mm_n"), c, 0.02, "compliance");
      nb_assert_rel (fig (clause, &f, d, "displacement_mm"), c * RATED_KG * 9.80665, 0.03,
                     "displacement at the rated force");
    }
  nb_clause_9283_figures_clear (&f);
  nb_sim_arm_clear (&truth);
  bench_clear (&b);
}

/* campaign run --standard iso9283 --db F --config NAME, as a library call
 * the CLI and the window make (nb_iso9283_record_pose_run): a pose test of
 * 3 cycles on the simulated arm recorded, read back pose for pose with the
 * defaults it states (robot "sim", the simulated tracker's words, the
 * rated load), AP from the file equal to the run's; a served arm's run
 * keeps its URL and instrument; a name is recorded once. */
static void
test_record_pose_run (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "record-pose-run.nbc", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) runs = NULL;
  NbIso9283PoseRun run = { 0 };
  NbSimArm arm;
  NbSimTracker tracker;
  NbIso9283SimMeasure m = { &tracker, 0.2 };
  NbCampaign *c = nb_campaign_create (path, "record", &error);

  g_assert_no_error (error);
  g_assert_true (nb_campaign_close (c, &error));
  nb_sim_arm_init (&arm, &model, 11);
  nb_iso9283_sim_errors (&arm);
  nb_sim_tracker_init (&tracker, &arm, 1000, TRACKER_MM, 0.002, 12);
  g_assert_true (nb_iso9283_pose_run (&model, &cube, (const double (*)[NB_ARM_JOINTS]) cube_q, 3,
                                      nb_sim_arm_ops (), &arm, nb_iso9283_measure_sim, &m, &run,
                                      &error));
  g_assert_no_error (error);
  g_assert_true (nb_iso9283_record_pose_run (path, "sim 3 cycles", &run, &cube, NULL, NULL, 100.0,
                                             NULL, &error));
  g_assert_no_error (error);
  g_assert_true (nb_iso9283_record_pose_run (path, "served", &run, &cube, "http://127.0.0.1:1",
                                             "natnet udp://127.0.0.1:1511", 50.0, "10%", &error));
  g_assert_no_error (error);
  g_assert_false (nb_iso9283_record_pose_run (path, "served", &run, &cube, NULL, NULL, 100.0, NULL,
                                              &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);

  c = nb_campaign_open (path, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  runs = nb_campaign_iso9283_runs (c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 2);
  {
    const NbIso9283StoredRun *r = g_ptr_array_index (runs, 0), *h = g_ptr_array_index (runs, 1);

    g_assert_cmpstr (r->config, ==, "sim 3 cycles");
    g_assert_cmpstr (r->robot, ==, "sim");
    g_assert_cmpstr (r->measurement, ==, nb_iso9283_sim_measurement (FALSE));
    g_assert_cmpstr (r->measurement, ==, "simulated laser tracker, 1 kHz, 6-DoF probe");
    g_assert_cmpstr (r->load, ==, "rated");
    g_assert_cmpuint (r->cycles, ==, 3);
    g_assert_cmpuint (r->plane, ==, cube.plane);
    nb_assert_abs (r->edge_mm, cube.edge_mm, 0.0, "edge");
    for (guint i = 0; i < NB_ISO9283_POSES; i++)
      {
        NbIso9283Pose again;

        g_assert_cmpuint (r->attained[i]->len, ==, 3);
        g_assert_true (nb_iso9283_pose (&r->command[i], (const NbPose6 *) r->attained[i]->data,
                                        r->attained[i]->len, &again, &error));
        g_assert_no_error (error);
        nb_assert_abs (again.ap_mm, run.result[i].ap_mm, 0.0, "AP from the file");
        nb_assert_abs (again.rp_mm, run.result[i].rp_mm, 0.0, "RP from the file");
      }
    g_assert_cmpstr (h->robot, ==, "http://127.0.0.1:1");
    g_assert_cmpstr (h->measurement, ==, "natnet udp://127.0.0.1:1511");
    g_assert_cmpstr (h->load, ==, "10%");
    nb_assert_abs (h->speed_pct, 50.0, 0.0, "speed");
  }
  g_assert_true (nb_campaign_close (c, &error));
  nb_iso9283_pose_run_clear (&run);
  nb_sim_tracker_clear (&tracker);
  nb_sim_arm_clear (&arm);
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "robots",
                                           "iiwa7", NULL);
  const double centre[3] = { 600, 0, 450 }, abc[3] = { 180, 0, 180 };
  const double seed[NB_ARM_JOINTS] = { 0, 0.6, 0, -1.2, 0, 1.0, 0 };
  g_autoptr (GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = nb_test_make_dir ();
  g_assert_true (nb_arm_model_load (dir, &model, &error));
  g_assert_no_error (error);
  g_assert_true (nb_iso9283_cube_fit (&model, centre, 1, abc, 600, seed, &cube, cube_q, &error));
  g_assert_no_error (error);
  g_test_add_func ("/iso9283-campaign/plan", test_plan);
  g_test_add_func ("/iso9283-campaign/pose-and-load", test_pose_and_load);
  g_test_add_func ("/iso9283-campaign/vap", test_vap);
  g_test_add_func ("/iso9283-campaign/distance", test_distance);
  g_test_add_func ("/iso9283-campaign/stabilisation", test_stabilisation);
  g_test_add_func ("/iso9283-campaign/drift", test_drift);
  g_test_add_func ("/iso9283-campaign/exchangeability", test_exchangeability);
  g_test_add_func ("/iso9283-campaign/path", test_path);
  g_test_add_func ("/iso9283-campaign/weaving", test_weaving);
  g_test_add_func ("/iso9283-campaign/positioning", test_positioning);
  g_test_add_func ("/iso9283-campaign/compliance", test_compliance);
  g_test_add_func ("/iso9283-campaign/record-pose-run", test_record_pose_run);
  rc = g_test_run ();
  nb_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
