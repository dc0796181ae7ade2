/* test-iso9283-tracker — ISO 9283 campaigns over the motion HTTP API measured
 * by `navbench-cli serve --tracker`: the simulated 1 kHz tracker beside the
 * served arm, read through the natnet driver as a real tracker is
 *
 * `navbench-cli serve --time-scale 1 --servo 40,0.3,0.8 --tracker
 * udp://127.0.0.1:PORT` is the arm and its tracker; `campaign run --standard
 * iso9283 --db F --all --only CONFIG --robot URL --instrument natnet --url
 * udp://127.0.0.1:PORT` drives and measures it into a campaign file.  Nothing
 * here plays a frame: what is measured is what the server's tracker saw of
 * the served arm, through the ISO 9283 demonstration error model
 * (nb_iso9283_sim_errors: encoder offsets, link length errors), its σ 5 µm
 * and 0.002°.  The figures are compared with that model:
 *
 *  - AP and RP (7.2) with a Monte Carlo of the served arm (the goals the
 *    configuration sends, each attained with the simulator's joint noise —
 *    uniform, σ 2·10⁻⁵ rad — and its backlash of 10⁻⁵ rad lost on a
 *    reversal, from the served arm's start at q = 0) through the true arm,
 *    the tracker's window mean on top: each figure within 5 standard
 *    deviations of the simulated campaigns' mean (the rule written here from
 *    drivers/robots/sim's documented model, not its code);
 *  - the stabilisation time and the overshoot (7.4, 7.5) with the servo's
 *    closed form seen through the true arm (nb-test-iso9283.h);
 *  - the streams stored in the campaign file: every frame of the goal, in
 *    order, once (the tracker's stamps 1 ms apart), ≥ 900 samples a second.
 */
#include "nb-clause-9283.h"
#include "nb-iso9283-run.h"

#include "nb-arm-file.h"
#include "nb-campaign-iso9283.h"
#include "nb-http-robot.h"
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-iso9283.h"
#include "nb-test-player.h"
#include "nb-test-tmp.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#define OMEGA 40.0
#define ZETA 0.3
#define DWELL 0.8
#define TRACKER_MM 0.005
#define TRACKER_HZ 1000.0
/* The served arm (drivers/robots/sim: nb_sim_arm_init's defaults). */
#define SERVED_NOISE_RAD 2e-5
#define SERVED_BACKLASH_RAD 1e-5
#define CYCLES 30
#define CAMPAIGNS 1000

static char *tmp_dir;
static NbArmModel model;
static NbIso9283Cube cube;
static double cube_q[5][NB_ARM_JOINTS];

static double
load_1min (void)
{
  g_autofree char *text = NULL;

  return g_file_get_contents ("/proc/loadavg", &text, NULL, NULL) ? g_ascii_strtod (text, NULL)
                                                                 : NAN;
}

/* The tracker's true arm: the demonstration error model of serve's seed 1
 * (nb_iso9283_sim_arm_init), carrying payload_kg at the TCP. */
static void
truth_init (NbSimArm *t, double payload_kg)
{
  nb_sim_arm_init (t, &model, 1);
  nb_iso9283_sim_errors (t);
  t->payload_kg = payload_kg;
  t->drift_tau_s = 0;
}

static void
true_pose6 (const NbSimArm *truth, const double q[NB_ARM_JOINTS], NbPose6 *p)
{
  double T[16], R[9], abc[3];

  nb_sim_arm_true_pose (truth, q, T);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      R[r * 3 + c] = T[r * 4 + c];
  nb_iso9283_matrix_to_abc (R, abc);
  *p = (NbPose6) { T[3] * 1000, T[7] * 1000, T[11] * 1000, abc[0], abc[1], abc[2] };
}

static char *
new_campaign (const char *name)
{
  char *db = g_strdup_printf ("%s/%s.nbc", tmp_dir, name);

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name", name, NULL));
  return db;
}

/* campaign run --standard iso9283 --all --only CONFIG over the served arm,
 * measured by natnet at udp; its JSON. */
static JsonObject *
run_tracked (JsonParser *p, const char *db, const char *config, const char *url,
             const char *udp, guint cycles)
{
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard",
                                          "iso9283", "--db", db, "--all", "--only", config,
                                          "--robot", url, "--instrument", "natnet", "--url", udp,
                                          "--set", "loss-timeout=5", "--json", NULL);
  JsonObject *o = nb_test_parse_object (p, out);

  g_assert_cmpint (json_object_get_int_member (o, "cycles_run"), ==, cycles);
  return o;
}

/* A configuration's row of `campaign run --json`: configs[] by name, rows[]
 * by label. */
static JsonObject *
config_row (JsonObject *doc, const char *config, const char *label)
{
  JsonArray *configs = json_object_get_array_member (doc, "configs");

  for (guint i = 0; i < json_array_get_length (configs); i++)
    {
      JsonObject *c = json_array_get_object_element (configs, i);
      JsonArray *rows = json_object_get_array_member (c, "rows");

      if (!g_str_equal (json_object_get_string_member (c, "config"), config))
        continue;
      if (json_object_has_member (c, "error") && !json_object_get_null_member (c, "error"))
        g_error ("%s: %s", config, json_object_get_string_member (c, "error"));
      for (guint k = 0; k < json_array_get_length (rows); k++)
        {
          JsonObject *r = json_array_get_object_element (rows, k);

          if (g_str_equal (json_object_get_string_member (r, "label"), label))
            return r;
        }
    }
  g_error ("no row %s of %s", label, config);
}

/* ------------------------------------------------- the served arm's model -- */

/* One goal of the served arm as drivers/robots/sim documents it: the
 * attained joint is the target plus a uniform noise of σ noise (±√3·σ),
 * less the backlash b·dir when the joint reverses (dir the sign of its
 * move, a move of under 1e-9 rad none; the first move reverses from rest). */
static void
served_goal (GRand *r, const double target[NB_ARM_JOINTS], double q[NB_ARM_JOINTS],
             double last_dir[NB_ARM_JOINTS])
{
  for (int j = 0; j < NB_ARM_JOINTS; j++)
    {
      double delta = target[j] - q[j];
      double dir = delta > 1e-9 ? 1.0 : delta < -1e-9 ? -1.0 : 0.0;

      q[j] = target[j] + g_rand_double_range (r, -1, 1) * SERVED_NOISE_RAD * sqrt (3.0) -
             (dir != 0 && dir != last_dir[j] ? dir * SERVED_BACKLASH_RAD : 0.0);
      if (dir != 0)
        last_dir[j] = dir;
    }
}

typedef struct {
  double mean, sd;
} Moments;

static Moments
moments (const double *v, guint n)
{
  double m = 0, s = 0;

  for (guint i = 0; i < n; i++)
    m += v[i];
  m /= n;
  for (guint i = 0; i < n; i++)
    s += (v[i] - m) * (v[i] - m);
  return (Moments) { m, sqrt (s / (n - 1)) };
}

/* Figures of pose-rated-100 the Monte Carlo gives, per pose. */
enum { F_AP, F_RP, F_AP_A, F_AP_B, F_AP_C, N_F };
static const char *const f_keys[N_F] = { "ap_mm", "rp_mm", "ap_a_deg", "ap_b_deg", "ap_c_deg" };

/* CAMPAIGNS simulated runs of the pose test (its goals: P1, then CYCLES ×
 * P5, P4, P3, P2, P1) on a served arm starting at q = 0, each attained pose
 * the true arm's (payload_kg at the TCP) with the tracker's noise averaged
 * over a 0.1 s window at 1 kHz; the moments of each figure of each pose. */
static void
pose_monte_carlo (double payload_kg, const NbPose6 command[5], Moments m[5][N_F])
{
  g_autoptr (GRand) r = g_rand_new_with_seed (9283);
  g_autofree double *v = g_new (double, (gsize) 5 * N_F * CAMPAIGNS);
  NbSimArm truth;
  const double sigma_window = TRACKER_MM / sqrt (0.1 * TRACKER_HZ);

  truth_init (&truth, payload_kg);
  for (guint c = 0; c < CAMPAIGNS; c++)
    {
      double q[NB_ARM_JOINTS] = { 0 }, dir[NB_ARM_JOINTS] = { 0 };
      NbPose6 att[5][CYCLES];

      served_goal (r, cube_q[0], q, dir);
      for (guint j = 0; j < CYCLES; j++)
        for (guint k = 1; k <= 5; k++)
          {
            guint i = k == 5 ? 0 : 5 - k;
            NbPose6 *p = &att[i][j];

            served_goal (r, cube_q[i], q, dir);
            true_pose6 (&truth, q, p);
            p->x_mm += nb_test_gauss (r, sigma_window);
            p->y_mm += nb_test_gauss (r, sigma_window);
            p->z_mm += nb_test_gauss (r, sigma_window);
          }
      for (guint i = 0; i < 5; i++)
        {
          NbIso9283Pose f;
          double *out = &v[((gsize) i * N_F) * CAMPAIGNS];

          g_assert_true (nb_iso9283_pose (&command[i], att[i], CYCLES, &f, NULL));
          out[F_AP * CAMPAIGNS + c] = f.ap_mm;
          out[F_RP * CAMPAIGNS + c] = f.rp_mm;
          out[F_AP_A * CAMPAIGNS + c] = f.ap_abc_deg[0];
          out[F_AP_B * CAMPAIGNS + c] = f.ap_abc_deg[1];
          out[F_AP_C * CAMPAIGNS + c] = f.ap_abc_deg[2];
        }
    }
  for (guint i = 0; i < 5; i++)
    for (guint f = 0; f < N_F; f++)
      m[i][f] = moments (&v[((gsize) i * N_F + f) * CAMPAIGNS], CAMPAIGNS);
  nb_sim_arm_clear (&truth);
}

/* The settling of the move q0 → q1 as the served arm makes it (the joints'
 * ramp at their velocity limits, the servo's closed form), seen through the
 * true arm with payload_kg, with the band band_mm. */
static void
closed_settling (const double q0[NB_ARM_JOINTS], const double q1[NB_ARM_JOINTS],
                 double payload_kg, double band_mm, NbIso9283Settling *r)
{
  NbSimArm truth;
  double ramp = 0;
  guint n;
  g_autofree NbIso9283Sample *stream = NULL;
  g_autoptr (GError) error = NULL;

  truth_init (&truth, payload_kg);
  for (int j = 0; j < NB_ARM_JOINTS; j++)
    ramp = MAX (ramp, fabs (q1[j] - q0[j]) / model.joint[j].max_velocity);
  n = (guint) ((ramp + DWELL) * 1000);
  stream = g_new (NbIso9283Sample, n);
  for (guint i = 0; i < n; i++)
    {
      double q[NB_ARM_JOINTS], T[16], t = i / 1000.0;

      for (int j = 0; j < NB_ARM_JOINTS; j++)
        q[j] = nb_test_servo_closed_form (q0[j], q1[j], ramp, OMEGA, ZETA, t);
      nb_sim_arm_true_pose (&truth, q, T);
      stream[i].t_s = t;
      stream[i].p_mm[0] = T[3] * 1000, stream[i].p_mm[1] = T[7] * 1000;
      stream[i].p_mm[2] = T[11] * 1000;
    }
  g_assert_true (nb_iso9283_settling (stream, n, band_mm, 0.2, r, &error));
  g_assert_no_error (error);
  nb_sim_arm_clear (&truth);
}

/* The streams stored by a configuration (rows t, x, y, z; several a cycle,
 * each led by its count, when counted): each one the tracker's frames, 1 ms
 * apart by their stamps to 1 µs (a frame lost is a step of 2 ms, one
 * reordered a step back, one twice a step of 0); the samples and their span
 * added up, the shortest stream's span. */
static void
count_streams (GPtrArray *trials, gboolean counted, guint *samples, double *span,
               double *shortest, guint *streams)
{
  for (guint j = 0; j < trials->len; j++)
    {
      const GArray *data = ((NbIso9283Trial *) trials->pdata[j])->data;
      const double *d = (const double *) data->data;
      gsize at = 0, len = data->len;

      while (at < len)
        {
          gsize n = counted ? (gsize) d[at++] : len / 4;
          const double *s = d + at;

          g_assert_cmpuint (at + 4 * n, <=, len);
          g_assert_cmpuint (n, >, 100);
          for (gsize k = 1; k < n; k++)
            if (!(fabs (s[4 * k] - s[4 * (k - 1)] - 1 / TRACKER_HZ) <= 1e-6))
              g_error ("cycle %u: sample %zu is %.6f s after sample %zu (a frame every %.6f s: "
                       "lost, reordered or twice)", j + 1, k + 1, s[4 * k] - s[4 * (k - 1)], k,
                       1 / TRACKER_HZ);
          *samples += (guint) n;
          *span += s[4 * (n - 1)] - s[0];
          *shortest = MIN (*shortest, s[4 * (n - 1)] - s[0]);
          (*streams)++;
          at += 4 * n;
        }
    }
}

/* ------------------------------------------ 7.2, 7.4, 7.5 over serve --tracker -- */

/* The plan's pose test (pose-rated-100: 5 poses × 30 cycles, P1 → P5 → P4 →
 * P3 → P2 → P1, 151 goals) and its stabilisation test
 * (stabilisation-rated-100: the approach P2 → P1, 3 cycles, the stream at
 * the instrument's full rate) on a fresh served arm, measured by its
 * tracker into one campaign file. */
static void
test_pose_campaign (void)
{
  g_autofree char *servo = g_strdup_printf ("%g,%g,%g", OMEGA, ZETA, DWELL);
  g_autofree char *db = new_campaign ("pose");
  g_autoptr (JsonParser) pp = json_parser_new ();
  g_autoptr (JsonParser) ps = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) stab = NULL;
  NbTestUdp udp;
  NbTestServer srv;
  NbPose6 command[5];
  Moments mc[5][N_F];
  JsonObject *o_pose, *o_stab, *row;
  NbIso9283Settling rm, wide, narrow;
  double span = 0, shortest = INFINITY, ramp = 0, load0 = load_1min (), t, ov, ap_max = 0;
  guint samples = 0, streams = 0;
  gint64 t0;
  /* The tracker beside serve carries no load (the server is not told the
   * configuration's). */
  const double payload_kg = 0;

  nb_test_udp_open (&udp);
  srv = nb_test_serve ("--time-scale", "1", "--servo", servo, "--tracker", udp.url, NULL);
  t0 = g_get_monotonic_time ();
  o_pose = run_tracked (pp, db, "pose-rated-100", srv.url, udp.url, CYCLES);
  g_test_message ("pose-rated-100 over serve --tracker: %.1f s (load %.1f → %.1f)",
                  (g_get_monotonic_time () - t0) / 1e6, load0, load_1min ());
  t0 = g_get_monotonic_time ();
  o_stab = run_tracked (ps, db, "stabilisation-rated-100", srv.url, udp.url, 3);
  g_test_message ("stabilisation-rated-100: %.1f s (load %.1f)",
                  (g_get_monotonic_time () - t0) / 1e6, load_1min ());
  nb_test_server_stop (&srv);
  g_assert_cmpint (json_object_get_int_member (o_pose, "goals"), ==, 1 + 5 * CYCLES);

  /* 7.2 against the model's campaigns. */
  {
    g_autoptr (NbCampaign) c = nb_campaign_open (db, 0, &error);
    g_autoptr (GPtrArray) poses = NULL;

    g_assert_no_error (error);
    poses = nb_campaign_iso9283_trials (c, "pose-rated-100", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (poses->len, ==, CYCLES);
    for (guint i = 0; i < 5; i++)
      g_assert_true (nb_clause_9283_unpack_pose (((NbIso9283Trial *) poses->pdata[0])->command,
                                                 i, &command[i]));
    stab = nb_campaign_iso9283_trials (c, "stabilisation-rated-100", &error);
    g_assert_no_error (error);
  }
  pose_monte_carlo (payload_kg, command, mc);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *label = g_strdup_printf ("P%u", i + 1);

      row = config_row (o_pose, "pose-rated-100", label);
      g_test_message ("%s: AP %.4f mm (model %.4f ± %.4f), RP %.4f mm (model %.4f ± %.4f), "
                      "AP_a %.5f° (%.5f ± %.5f)", label, json_object_get_double_member (row, "ap_mm"),
                      mc[i][F_AP].mean, mc[i][F_AP].sd, json_object_get_double_member (row, "rp_mm"),
                      mc[i][F_RP].mean, mc[i][F_RP].sd,
                      json_object_get_double_member (row, "ap_a_deg"), mc[i][F_AP_A].mean,
                      mc[i][F_AP_A].sd);
      /* The error model shows: AP far beyond its spread (0.03 … 0.38 mm
       * against a few µm), RP the served arm's joint noise. */
      g_assert_cmpfloat (mc[i][F_AP].mean, >, 10 * mc[i][F_AP].sd);
      g_assert_cmpfloat (mc[i][F_RP].mean, >, 0.02);
      ap_max = MAX (ap_max, mc[i][F_AP].mean);
      for (guint f = 0; f < N_F; f++)
        nb_assert_abs (json_object_get_double_member (row, f_keys[f]), mc[i][f].mean,
                       5 * mc[i][f].sd, f_keys[f]);
    }
  g_assert_cmpfloat (ap_max, >, 0.3);

  /* 7.4, 7.5: every frame of each approach stored, at the full rate. */
  count_streams (stab, FALSE, &samples, &span, &shortest, &streams);
  for (int j = 0; j < NB_ARM_JOINTS; j++)
    ramp = MAX (ramp, fabs (cube_q[0][j] - cube_q[1][j]) / model.joint[j].max_velocity);
  g_test_message ("stabilisation: %u streams, %u samples over %.3f s stored (%.1f a second), "
                  "the shortest %.3f s (the goal's ramp and dwell %.3f s)", streams, samples, span,
                  (samples - streams) / span, shortest, ramp + DWELL);
  g_assert_cmpuint (streams, ==, 3);
  g_assert_cmpfloat ((samples - streams) / span, >=, 900);
  /* Each stream covers the goal's motion. */
  g_assert_cmpfloat (shortest, >=, ramp + DWELL - 0.01);
  row = config_row (o_stab, "stabilisation-rated-100", "P1");
  t = json_object_get_double_member (row, "stabilisation_s");
  ov = json_object_get_double_member (row, "overshoot_mm");
  /* The band's edge moves with the tracker's noise by up to 3σ: between the
   * closed form's with the band 15 µm wider and narrower, ± two samples. */
  closed_settling (cube_q[1], cube_q[0], payload_kg, 0.1, &rm);
  closed_settling (cube_q[1], cube_q[0], payload_kg, 0.1 + 3 * TRACKER_MM, &wide);
  closed_settling (cube_q[1], cube_q[0], payload_kg, 0.1 - 3 * TRACKER_MM, &narrow);
  g_test_message ("t %.4f s, mean %.4f s (closed form %.4f, %.4f … %.4f s); OV %.4f mm, mean "
                  "%.4f mm (%.4f mm)", t, json_object_get_double_member (row, "stabilisation_mean_s"),
                  rm.stabilisation_s, MIN (wide.stabilisation_s, narrow.stabilisation_s),
                  MAX (wide.stabilisation_s, narrow.stabilisation_s), ov,
                  json_object_get_double_member (row, "overshoot_mean_mm"), rm.overshoot_mm);
  g_assert_cmpfloat (rm.overshoot_mm, >, 1);
  for (guint k = 0; k < 2; k++)
    {
      double tk = json_object_get_double_member (row, k ? "stabilisation_mean_s"
                                                         : "stabilisation_s");
      double ovk = json_object_get_double_member (row, k ? "overshoot_mean_mm" : "overshoot_mm");

      g_assert_cmpfloat (tk, >=, MIN (wide.stabilisation_s, narrow.stabilisation_s) - 0.002);
      g_assert_cmpfloat (tk, <=, MAX (wide.stabilisation_s, narrow.stabilisation_s) + 0.002);
      /* 1 % and the peak between two samples ((ω/1 kHz)²/8 of it). */
      nb_assert_abs (ovk, rm.overshoot_mm,
                     0.01 * rm.overshoot_mm + rm.overshoot_mm * pow (OMEGA / TRACKER_HZ, 2) / 8 +
                     3 * TRACKER_MM, "OV against the closed form");
    }
  nb_test_udp_clear (&udp);
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
  /* The cube `campaign run --standard iso9283` fits by default. */
  g_assert_true (nb_iso9283_cube_fit (&model, centre, 1, abc, 600, seed, &cube, cube_q, &error));
  g_assert_no_error (error);
  g_test_add_func ("/iso9283-tracker/pose-campaign", test_pose_campaign);
  rc = g_test_run ();
  nb_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
