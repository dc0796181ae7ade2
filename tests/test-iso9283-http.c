/* test-iso9283-http — ISO 9283's stream characteristics, the slower speeds and clauses 9–10
 * driven over the motion HTTP API
 *
 * `navbench-cli campaign run --standard iso9283 --robot http://…` against
 * `navbench-cli serve --servo 40,0.3,0.8 --time-scale 1`: the served joints
 * follow their ramp as an underdamped servo, GET /robot/state reports them
 * as they move, and the simulated tracker samples them (the rig's sampler,
 * ≤ 1 kHz, through the true arm's geometry of the demonstration error
 * model).  The figures computed from the campaign file are compared with
 * the servo's closed-form ramp response at the served arm's speed (the
 * joints' velocity limits × max_velocity_scaling_factor, no speed error on
 * the served arm), within the stream's own time resolution (its largest gap
 * between samples, measured here from the stored stream); the static
 * compliance with u·J·C·Jᵀ·u of the true arm at P1.  The straight-line path
 * goes as a timed trajectory (POST /robot/trajectory): AT against the true
 * arm at the IK of the calculated points, computed here from the cube, and
 * AV against the true line's length run in the command's time.
 */
#include "nb-clause-9283.h"
#include "nb-iso9283-run.h"

#include "nb-arm-file.h"
#include "nb-campaign-iso9283.h"
#include "nb-device.h"
#include "nb-error.h"
#include "nb-http-robot.h"
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-iso9283.h"
#include "nb-test-player.h"
#include "nb-test-raw-http.h"
#include "nb-test-tmp.h"

#include <math.h>
#include <string.h>

static char *tmp_dir;
static NbArmModel model;
static NbIso9283Cube cube;
static double cube_q[5][NB_ARM_JOINTS];
static NbTestServer live;       /* --time-scale 1 --servo */
static NbTestServer instant;    /* --time-scale 0, no servo */

#define OMEGA 40.0
#define ZETA 0.3
#define DWELL "0.8"
#define TRACKER_MM 0.005
#define RATED_KG 7.0

static char *
new_campaign (const char *name)
{
  char *db = g_strdup_printf ("%s/%s.nbc", tmp_dir, name);

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name", name, NULL));
  return db;
}

static JsonObject *
run_http (JsonParser *p, const char *db, const char *config, const char *url, guint cycles)
{
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard",
                                          "iso9283", "--db", db, "--all", "--only", config,
                                          "--robot", url, "--json", NULL);
  JsonObject *o = nb_test_parse_object (p, out);

  g_assert_cmpint (json_object_get_int_member (o, "cycles_run"), ==, cycles);
  return o;
}

/* The configuration's figures and stored cycles, from the file. */
static void
from_file (const char *db, const char *config, const NbClause9283 **clause,
           NbClause9283Figures *f, GPtrArray **trials)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_open (db, 0, &error);
  g_autoptr (GArray) plan = NULL;

  g_assert_no_error (error);
  plan = nb_campaign_iso9283_plan_list (c, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < plan->len; i++)
    {
      const NbIso9283PlanEntry *e = &g_array_index (plan, NbIso9283PlanEntry, i);

      if (!g_str_equal (e->config, config))
        continue;
      *clause = nb_clause_9283_lookup (e->characteristic);
      g_assert_true (nb_clause_9283_compute (c, e, f, &error));
      g_assert_no_error (error);
      if (f->error)
        g_error ("%s: %s", config, f->error);
      g_assert_cmpuint (f->cycles, ==, e->cycles);
      *trials = nb_campaign_iso9283_trials (c, config, &error);
      g_assert_no_error (error);
      return;
    }
  g_assert_not_reached ();
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

/* The largest gap between successive samples of the streams stored in
 * data (rows of (t, x, y, z), several streams each led by its count when
 * counted), and the fewest samples of one stream. */
static void
stream_gaps (const GArray *data, gboolean counted, double *gap, guint *fewest)
{
  const double *d = (const double *) data->data;
  gsize at = 0, len = data->len;

  while (at < len)
    {
      gsize n = counted ? (gsize) d[at++] : len / 4;

      g_assert_cmpuint (at + 4 * n, <=, len);
      *fewest = MIN (*fewest, (guint) n);
      for (gsize k = 1; k < n; k++)
        *gap = MAX (*gap, d[at + 4 * k] - d[at + 4 * (k - 1)]);
      at += 4 * n;
    }
}

static void
truth_init (NbSimArm *t, double payload_kg)
{
  nb_sim_arm_init (t, &model, 1);
  nb_iso9283_sim_errors (t);
  t->payload_kg = payload_kg;
  t->drift_tau_s = 0;
}

/* The settling of the move q0 → q1 at speed % as the served arm makes it,
 * seen through the true arm, with the band `band_mm`. */
static void
closed_settling (const double q0[NB_ARM_JOINTS], const double q1[NB_ARM_JOINTS], double speed,
                 double band_mm, NbIso9283Settling *r)
{
  NbSimArm truth;
  double ramp = 0;
  guint n;
  g_autofree NbIso9283Sample *stream = NULL;
  g_autoptr (GError) error = NULL;

  truth_init (&truth, RATED_KG);
  for (int j = 0; j < NB_ARM_JOINTS; j++)
    ramp = MAX (ramp, fabs (q1[j] - q0[j]) / model.joint[j].max_velocity);
  ramp *= 100.0 / speed;
  n = (guint) ((ramp + 0.8) * 1000);
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

/* ------------------------------------------------ 7.4, 7.5 over HTTP -- */

static void
test_stabilisation (void)
{
  g_autofree char *db = new_campaign ("stabilisation");
  const double speeds[] = { 100, 50 };

  for (guint s = 0; s < G_N_ELEMENTS (speeds); s++)
    {
      g_autofree char *config = g_strdup_printf ("stabilisation-rated-%.0f", speeds[s]);
      g_autoptr (JsonParser) p = json_parser_new ();
      g_autoptr (GPtrArray) trials = NULL;
      const NbClause9283 *clause;
      NbClause9283Figures f;
      NbIso9283Settling rm, wide, narrow;
      double gap = 0, t, ov, tol;
      guint fewest = G_MAXUINT;

      run_http (p, db, config, live.url, 3);
      from_file (db, config, &clause, &f, &trials);
      for (guint j = 0; j < trials->len; j++)
        stream_gaps (((NbIso9283Trial *) trials->pdata[j])->data, FALSE, &gap, &fewest);
      /* P2 → P1 as the served arm makes it; the band's edge moves with the
       * tracker's noise by up to 3σ (where a ring's peak grazes it, the
       * last exit jumps by half a period): between the closed form's with
       * the band 15 µm wider and narrower, and the stream's resolution. */
      closed_settling (cube_q[1], cube_q[0], speeds[s], 0.1, &rm);
      closed_settling (cube_q[1], cube_q[0], speeds[s], 0.1 + 3 * TRACKER_MM, &wide);
      closed_settling (cube_q[1], cube_q[0], speeds[s], 0.1 - 3 * TRACKER_MM, &narrow);
      t = fig (clause, &f, 0, "stabilisation_s");
      ov = fig (clause, &f, 0, "overshoot_mm");
      tol = 2 * gap + 0.005;
      g_test_message ("%s over HTTP: t %.4f s (closed form %.4f, %.4f … %.4f s), OV %.4f mm "
                      "(%.4f), %u samples or more a stream, largest gap %.1f ms", config, t,
                      rm.stabilisation_s, MIN (wide.stabilisation_s, narrow.stabilisation_s),
                      MAX (wide.stabilisation_s, narrow.stabilisation_s), ov, rm.overshoot_mm,
                      fewest, gap * 1e3);
      /* The stream is the served arm's motion watched (≈ 1.5 s; ~100 samples at load 16,
       * 22 at load 22: a request each, a connection each). */
      g_assert_cmpuint (fewest, >=, 10);
      g_assert_cmpfloat (gap, <, 0.25);
      g_assert_cmpfloat (rm.overshoot_mm, >, 0.5);
      g_assert_cmpfloat (t, >=, MIN (wide.stabilisation_s, narrow.stabilisation_s) - tol);
      g_assert_cmpfloat (t, <=, MAX (wide.stabilisation_s, narrow.stabilisation_s) + tol);
      /* A peak missed between samples: (ω·gap)²/8 of it at most. */
      nb_assert_abs (ov, rm.overshoot_mm,
                     0.01 * rm.overshoot_mm + rm.overshoot_mm * pow (OMEGA * gap, 2) / 8 + 0.01,
                     "overshoot");
      nb_clause_9283_figures_clear (&f);
    }
}

/* ------------------------------------------------------ 9 over HTTP -- */

static void
test_positioning (void)
{
  g_autofree char *db = new_campaign ("positioning");
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autoptr (GPtrArray) trials = NULL;
  g_autoptr (GError) error = NULL;
  const NbClause9283 *clause;
  NbClause9283Figures f;
  NbClause9283Goals g;
  NbIso9283Rig rig;
  NbIso9283PlanEntry e = { .characteristic = "positioning", .config = "positioning-rated-100",
                           .speed_pct = 100, .load = "rated", .cycles = 3 };
  double gap = 0;
  guint fewest = G_MAXUINT;

  run_http (p, db, "positioning-rated-100", live.url, 3);
  from_file (db, "positioning-rated-100", &clause, &f, &trials);
  for (guint j = 0; j < trials->len; j++)
    stream_gaps (((NbIso9283Trial *) trials->pdata[j])->data, TRUE, &gap, &fewest);
  g_assert_cmpuint (fewest, >=, 10);
  /* The moves the module sends (its prepare on this cube). */
  memset (&rig, 0, sizeof rig);
  memset (&g, 0, sizeof g);
  rig.model = model;
  rig.cube = cube;
  memcpy (rig.q, cube_q, sizeof cube_q);
  g_assert_true (clause->prepare (clause, &rig, &e, &g, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f.n_rows, ==, g.n_command);
  g_assert_cmpuint (f.n_rows, >=, 4);
  for (guint i = 0; i < f.n_rows; i++)
    {
      const double *to = &g_array_index (g.goals, double, (2 * i + 1) * NB_ARM_JOINTS);
      double t = fig (clause, &f, i, "positioning_s"), tol = 2 * gap + 0.005;
      NbIso9283Settling rm, wide, narrow;

      closed_settling (cube_q[0], to, 100, 0.1, &rm);
      closed_settling (cube_q[0], to, 100, 0.1 + 3 * TRACKER_MM, &wide);
      closed_settling (cube_q[0], to, 100, 0.1 - 3 * TRACKER_MM, &narrow);
      g_test_message ("%s mm over HTTP: t_pos %.4f s (closed form %.4f s, %.4f … %.4f s), "
                      "largest gap %.1f ms", f.labels[i], t, rm.t_stable_s, wide.t_stable_s,
                      narrow.t_stable_s, gap * 1e3);
      /* From the goal's start on the client's clock: the request's way to
       * the server (a few ms) is inside the tolerance. */
      g_assert_cmpfloat (t, >=, wide.t_stable_s - tol);
      g_assert_cmpfloat (t, <=, narrow.t_stable_s + tol + 0.01);
    }
  nb_clause_9283_goals_clear (&g);
  nb_clause_9283_figures_clear (&f);
}

/* ----------------------------------------------------- 10 over HTTP -- */

static void
test_compliance (void)
{
  g_autofree char *db = new_campaign ("compliance");
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autoptr (GPtrArray) trials = NULL;
  const NbClause9283 *clause;
  NbClause9283Figures f;
  NbSimArm truth;
  double qt[NB_ARM_JOINTS], J[3][NB_ARM_JOINTS], T[16];

  run_http (p, db, "compliance-rated-100", instant.url, 3);
  from_file (db, "compliance-rated-100", &clause, &f, &trials);
  /* u·J·C·Jᵀ·u, J the true arm's position Jacobian at P1 (m/rad). */
  truth_init (&truth, 0);
  for (int j = 0; j < NB_ARM_JOINTS; j++)
    qt[j] = cube_q[0][j] + truth.joint_offset_rad[j];
  nb_arm_fk (&truth.truth, qt, T);
  for (int j = 0; j < NB_ARM_JOINTS; j++)
    {
      double q[NB_ARM_JOINTS], T1[16];

      memcpy (q, qt, sizeof q);
      q[j] += 1e-6;
      nb_arm_fk (&truth.truth, q, T1);
      for (int a = 0; a < 3; a++)
        J[a][j] = (T1[a * 4 + 3] - T[a * 4 + 3]) / 1e-6;
    }
  for (guint d = 0; d < 6; d++)
    {
      double c = 0;

      for (int j = 0; j < NB_ARM_JOINTS; j++)
        c += J[d / 2][j] * truth.compliance_rad_per_nm[j] * J[d / 2][j];
      c *= 1000;
      g_test_message ("%s over HTTP: %.6f mm/N (model %.6f)", f.labels[d],
                      fig (clause, &f, d, "compliance_mm_n"), c);
      g_assert_cmpfloat (c, >, 1e-4);
      nb_assert_rel (fig (clause, &f, d, "compliance_mm_n"), c, 0.02, "compliance");
      nb_assert_rel (fig (clause, &f, d, "displacement_mm"), c * RATED_KG * 9.80665, 0.03,
                     "displacement at the rated force");
    }
  nb_clause_9283_figures_clear (&f);
  nb_sim_arm_clear (&truth);
}

/* ------------------------------------ speeds below 100 %, what is left -- */

static guint
post_to (const char *url, const char *path, const char *body)
{
  NbRawAddr a = nb_raw_addr (url);
  g_autofree char *req = g_strdup_printf ("POST %s HTTP/1.1\r\nHost: x\r\n"
                                          "Content-Type: application/json\r\n"
                                          "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                                          path, strlen (body), body);
  g_autofree char *answer = nb_raw_exchange (&a, req, strlen (req), 10);

  g_assert_nonnull (answer);
  return nb_raw_status (answer);
}

static guint
post_joints (const char *url, const char *body)
{
  return post_to (url, "/robot/joints", body);
}

static void
test_speeds (void)
{
  g_autofree char *db = new_campaign ("speeds");
  g_autofree char *home = NULL, *body = NULL;
  g_autoptr (GString) q = g_string_new (NULL);
  g_autoptr (JsonParser) p10 = json_parser_new (), p100 = json_parser_new ();
  JsonObject *o10, *o100, *r10, *r100;

  /* The served arm takes max_velocity_scaling_factor in (0, 1], else 422
   * before any motion; an unknown member stays a 400. */
  for (int j = 0; j < NB_ARM_JOINTS; j++)
    g_string_append_printf (q, "%s%.17g", j ? "," : "", cube_q[0][j]);
  home = g_strdup_printf ("{\"joints\":[%s]}", q->str);
  g_assert_cmpuint (post_joints (instant.url, home), ==, 200);
  for (guint k = 0; k < 3; k++)
    {
      const char *const f[] = { "0", "1.5", "\"half\"" };
      const guint want[] = { 422, 422, 400 };

      g_free (body);
      body = g_strdup_printf ("{\"joints\":[%s],\"max_velocity_scaling_factor\":%s}", q->str,
                              f[k]);
      g_assert_cmpuint (post_joints (instant.url, body), ==, want[k]);
    }
  g_free (body);
  body = g_strdup_printf ("{\"joints\":[%s],\"max_velocity_scaling_factor\":0.1}", q->str);
  g_assert_cmpuint (post_joints (instant.url, body), ==, 200);
  /* A rest-pose characteristic at 10 % runs over HTTP (it was left): the
   * served arm's geometry gives the same AD at either speed. */
  o10 = run_http (p10, db, "distance-rated-10", instant.url, 30);
  o100 = run_http (p100, db, "distance-rated-100", instant.url, 30);
  r10 = json_array_get_object_element (json_object_get_array_member (
          json_array_get_object_element (json_object_get_array_member (o10, "configs"), 0),
          "rows"), 0);
  r100 = json_array_get_object_element (json_object_get_array_member (
           json_array_get_object_element (json_object_get_array_member (o100, "configs"), 1),
           "rows"), 0);
  g_assert_cmpfloat (fabs (json_object_get_double_member (r10, "ad_mm")), >, 0.05);
  nb_assert_abs (json_object_get_double_member (r10, "ad_mm"),
                 json_object_get_double_member (r100, "ad_mm"), 0.01, "AD at 10 % and 100 %");
}

/* ------------------------------------------- 8.2, 8.3, 8.6 over HTTP -- */

/* The true TCP (mm) of the command point x, IK on the arm's model from q
 * (walked on), through the true arm. */
static void
true_of (const NbSimArm *truth, const double x[3], double q[NB_ARM_JOINTS], double p[3])
{
  double T[16];

  nb_iso9283_cube_target (&cube, x, T);
  g_assert_true (nb_arm_ik (&model, T, q, q, NULL));
  nb_sim_arm_true_pose (truth, q, T);
  p[0] = T[3] * 1000, p[1] = T[7] * 1000, p[2] = T[11] * 1000;
}

static void
test_paths (void)
{
  g_autofree char *db = new_campaign ("paths");
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autoptr (GPtrArray) trials = NULL;
  const NbClause9283 *clause;
  NbClause9283Figures f;
  NbSimArm truth;
  double u[3], length = 0, at = 0, q[NB_ARM_JOINTS], a[3], b[3], l_true = 0, av, gap = 0;
  guint fewest = G_MAXUINT, samples = 0;
  double span = 0;

  /* The straight line P2 → P4 at 250 mm/s, ten cycles, each one timed
   * trajectory (POST /robot/trajectory) of the served arm, watched by the
   * sampler. */
  run_http (p, db, "path-line-rated-100", live.url, 10);
  from_file (db, "path-line-rated-100", &clause, &f, &trials);
  for (guint j = 0; j < trials->len; j++)
    {
      const GArray *d = ((NbIso9283Trial *) trials->pdata[j])->data;
      guint n = d->len / 7;

      samples += n;
      span += g_array_index (d, double, (n - 1) * 7) - g_array_index (d, double, 0);
      for (guint i = 1; i < n; i++)
        gap = MAX (gap, g_array_index (d, double, i * 7) - g_array_index (d, double, (i - 1) * 7));
      fewest = MIN (fewest, n);
    }
  g_test_message ("paths: %u samples over %.2f s (%.0f Hz), the largest gap %.1f ms, the fewest "
                  "in a cycle %u", samples, span, samples / span, gap * 1000, fewest);
  /* The model, computed here from the cube: at the calculated points
   * s_i = L·i/11 of the line, the true arm's TCP at the IK of the command
   * point; its error's part normal to the line is where the track crosses
   * the plane there (the true line is straight to 1 µm). */
  truth_init (&truth, RATED_KG);
  for (int k = 0; k < 3; k++)
    {
      u[k] = cube.p_mm[3][k] - cube.p_mm[1][k];
      length += u[k] * u[k];
    }
  length = sqrt (length);
  for (int k = 0; k < 3; k++)
    u[k] /= length;
  memcpy (q, cube_q[1], sizeof q);
  true_of (&truth, cube.p_mm[1], q, a);
  for (guint i = 1; i <= 10; i++)
    {
      double x[3], t[3], e[3], along = 0, n2 = 0;

      for (int k = 0; k < 3; k++)
        x[k] = cube.p_mm[1][k] + length * i / 11 * u[k];
      true_of (&truth, x, q, t);
      for (int k = 0; k < 3; k++)
        along += (e[k] = t[k] - x[k]) * u[k];
      for (int k = 0; k < 3; k++)
        n2 += (e[k] - along * u[k]) * (e[k] - along * u[k]);
      at = MAX (at, sqrt (n2));
    }
  true_of (&truth, cube.p_mm[3], q, b);
  for (int k = 0; k < 3; k++)
    l_true += (b[k] - a[k]) * (b[k] - a[k]);
  l_true = sqrt (l_true);
  /* The served arm keeps the trajectory's times: the TCP runs the true
   * line's length in the command's time. */
  av = (l_true / length - 1) * 100;
  g_test_message ("AT %.4f mm (model %.4f), RT %.4f mm, AV %.3f %% (model %.3f %%), FV %.2f mm/s",
                  fig (clause, &f, 0, "at_mm"), at, fig (clause, &f, 0, "rt_mm"),
                  fig (clause, &f, 0, "av_pct"), av, fig (clause, &f, 0, "fv_mm_s"));
  g_assert_cmpfloat (at, >, 0.3);
  /* The tracker's 5 µm over ten cycles, the crossing interpolated. */
  nb_assert_abs (fig (clause, &f, 0, "at_mm"), at, 0.01, "AT against the true arm");
  g_assert_cmpfloat (fig (clause, &f, 0, "rt_mm"), <, 0.05);
  /* Each sample is stamped at its request's midpoint on the rig's clock: a
   * few ms off the instant the server read its joints, over velocity
   * samples 10 samples (40–150 ms) apart, ~100 of them — 1 %. */
  nb_assert_abs (fig (clause, &f, 0, "av_pct"), av, 1.0, "AV against the served arm's times");
  g_assert_cmpfloat (fig (clause, &f, 0, "v_mean_mm_s"), >, 240);
  nb_clause_9283_figures_clear (&f);
  nb_sim_arm_clear (&truth);
}

static void
test_trajectory_api (void)
{
  g_autoptr (GString) q = g_string_new (NULL), far = g_string_new (NULL);
  g_autofree char *body = NULL;

  for (int j = 0; j < NB_ARM_JOINTS; j++)
    {
      g_string_append_printf (q, "%s%.17g", j ? "," : "", cube_q[0][j]);
      g_string_append_printf (far, "%s%.17g", j ? "," : "", cube_q[0][j] + (j == 0 ? 0.5 : 0));
    }
  /* Home, then a trajectory there and 0.5 rad of joint 1 away in 1 s. */
  body = g_strdup_printf ("{\"joints\":[%s]}", q->str);
  g_assert_cmpuint (post_joints (instant.url, body), ==, 200);
  g_free (body);
  body = g_strdup_printf ("{\"points\":[{\"positions\":[%s],\"time_from_start\":0.1},"
                          "{\"positions\":[%s],\"time_from_start\":1.1}]}", q->str, far->str);
  g_assert_cmpuint (post_to (instant.url, "/robot/trajectory", body), ==, 200);
  /* The same 0.5 rad in 0.1 s is over joint 1's velocity limit: 422. */
  g_free (body);
  body = g_strdup_printf ("{\"points\":[{\"positions\":[%s],\"time_from_start\":0.5},"
                          "{\"positions\":[%s],\"time_from_start\":0.6}]}", far->str, q->str);
  g_assert_cmpuint (post_to (instant.url, "/robot/trajectory", body), ==, 422);
  /* Times not increasing: 422; a point outside the soft range: 422. */
  g_free (body);
  body = g_strdup_printf ("{\"points\":[{\"positions\":[%s],\"time_from_start\":1},"
                          "{\"positions\":[%s],\"time_from_start\":1}]}", far->str, far->str);
  g_assert_cmpuint (post_to (instant.url, "/robot/trajectory", body), ==, 422);
  g_free (body);
  body = g_strdup ("{\"points\":[{\"positions\":[0,0,0,0,0,0,9],\"time_from_start\":5}]}");
  g_assert_cmpuint (post_to (instant.url, "/robot/trajectory", body), ==, 422);
  /* The shape: no points, a point without its time, an unknown member: 400. */
  g_assert_cmpuint (post_to (instant.url, "/robot/trajectory", "{\"points\":[]}"), ==, 400);
  g_free (body);
  body = g_strdup_printf ("{\"points\":[{\"positions\":[%s]}]}", q->str);
  g_assert_cmpuint (post_to (instant.url, "/robot/trajectory", body), ==, 400);
  g_free (body);
  body = g_strdup_printf ("{\"points\":[{\"positions\":[%s],\"time_from_start\":1,"
                          "\"velocities\":[0,0,0,0,0,0,0]}]}", q->str);
  g_assert_cmpuint (post_to (instant.url, "/robot/trajectory", body), ==, 400);

  /* The trajectory body (docs/http-api.md): 2 000 points, 17 digits each
   * joint (> 64 KiB), in one goal. */
  {
    g_autoptr (GString) big = g_string_new ("{\"points\":[");
    g_autoptr (NbHttpRobot) robot = nb_http_robot_new (instant.url, NULL, 10, NULL);
    g_autoptr (GError) error = NULL;
    g_autofree char *head = NULL, *answer = NULL, *joints = NULL;
    NbRawAddr a = nb_raw_addr (instant.url);
    NbRobotState st;
    guint goals;

    /* From P1 (the last trajectory left joint 1 0.5 rad away). */
    joints = g_strdup_printf ("{\"joints\":[%s]}", q->str);
    g_assert_cmpuint (post_joints (instant.url, joints), ==, 200);
    g_clear_pointer (&joints, g_free);
    g_assert_true (nb_http_robot_state (robot, &st, &error));
    goals = st.goals;
    for (guint k = 0; k < 2000; k++)
      {
        g_string_append (big, k ? ",{\"positions\":[" : "{\"positions\":[");
        for (int j = 0; j < NB_ARM_JOINTS; j++)
          g_string_append_printf (big, "%s%.17g", j ? "," : "",
                                  cube_q[0][j] + (j == 0 ? 1e-4 * k : 0));
        g_string_append_printf (big, "],\"time_from_start\":%.3f}", 0.005 * (k + 1));
      }
    g_string_append (big, "]}");
    g_test_message ("a trajectory of 2 000 points in %zu bytes", big->len);
    g_assert_cmpuint (big->len, >, 64 * 1024);
    g_assert_cmpuint (post_to (instant.url, "/robot/trajectory", big->str), ==, 200);
    g_assert_true (nb_http_robot_state (robot, &st, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (st.goals, ==, goals + 1);
    g_assert_cmpfloat (fabs (st.position[0] - (cube_q[0][0] + 1e-4 * 1999)), <, 1e-9);
    /* Declared over 4 MiB: 413 from the headers, naming the cap and the
     * route, no goal. */
    head = g_strdup_printf ("POST /robot/trajectory HTTP/1.1\r\nHost: x\r\n"
                            "Content-Type: application/json\r\nContent-Length: %u\r\n\r\n",
                            4 * 1024 * 1024 + 1);
    answer = nb_raw_exchange (&a, head, strlen (head), 10);
    g_assert_cmpuint (nb_raw_status (answer), ==, 413);
    g_assert_nonnull (strstr (nb_raw_body (answer), "at most 4194304 for /robot/trajectory"));
    g_assert_true (nb_http_robot_state (robot, &st, &error));
    g_assert_cmpuint (st.goals, ==, goals + 1);
    /* Chunked: cut at the same 4 MiB as it streams (then 1 MiB drained and
     * the connection reset, so that 32 MiB cannot all be sent). */
    {
      static const char chunked[] = "POST /robot/trajectory HTTP/1.1\r\nHost: x\r\n"
                                    "Transfer-Encoding: chunked\r\n\r\n";
      g_autofree char *chunk = g_malloc0 (65536);
      g_autofree char *got = NULL;
      int fd = nb_raw_dial (&a);
      gboolean open = TRUE;

      g_assert_true (nb_raw_send (fd, chunked, strlen (chunked)));
      for (int sent = 0; sent < 512 && open; sent++)
        open = nb_raw_send (fd, "10000\r\n", 7) && nb_raw_send (fd, chunk, 65536) &&
               nb_raw_send (fd, "\r\n", 2);
      g_assert_false (open);
      got = nb_raw_read_all (fd, 5.0);
      close (fd);
      g_assert_cmpuint (nb_raw_status (got), ==, 413);
      g_assert_nonnull (strstr (nb_raw_body (got), "exceeds 4194304 bytes"));
    }
    /* Another route keeps 64 KiB. */
    joints = g_strdup_printf ("{\"joints\":[%s]%*s}", q->str, 65 * 1024, "");
    g_assert_cmpuint (post_joints (instant.url, joints), ==, 413);
  }
}

/* ------------------------------------- serve --tracker: a 1 kHz tracker -- */

static char *
joints_body (const double q[NB_ARM_JOINTS])
{
  GString *b = g_string_new ("{\"joints\":[");

  for (int j = 0; j < NB_ARM_JOINTS; j++)
    g_string_append_printf (b, "%s%.17g", j ? "," : "", q[j]);
  g_string_append (b, "]}");
  return g_string_free (b, FALSE);
}

static double
load_average (void)
{
  g_autofree char *text = NULL;

  return g_file_get_contents ("/proc/loadavg", &text, NULL, NULL) ? g_ascii_strtod (text, NULL)
                                                                   : NAN;
}

/* The tracker's samples as the natnet driver gives them: its frames'
 * instants (device time), their arrival (t_s) and the positions (mm). */
typedef struct {
  GArray *instant, *arrival;    /* of double */
  GArray *p;                    /* of double[3] */
} Received;

static void
drain (NbDevice *d, Received *r, gint64 timeout_us)
{
  NbEvent ev;

  while (nb_device_next (d, timeout_us, &ev))
    {
      if (ev.kind == NB_EVENT_SAMPLE)
        {
          const double p[3] = { ev.sample.x_m * 1000, ev.sample.y_m * 1000, ev.sample.z_m * 1000 };

          g_array_append_val (r->instant, ev.sample.device_time_s);
          g_array_append_val (r->arrival, ev.sample.t_s);
          g_array_append_vals (r->p, p, 3);
        }
      g_assert_cmpint (ev.kind, !=, NB_EVENT_ERROR);
      nb_event_clear (&ev);
      timeout_us = 0;
    }
}

static gint
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The mean position of the samples whose instants are in [t0, t1]. */
static void
mean_between (const Received *r, double t0, double t1, double m[3], guint *n)
{
  *n = 0;
  m[0] = m[1] = m[2] = 0;
  for (guint i = 0; i < r->instant->len; i++)
    {
      double t = g_array_index (r->instant, double, i);

      if (t < t0 || t > t1)
        continue;
      for (int k = 0; k < 3; k++)
        m[k] += g_array_index (r->p, double, 3 * i + k);
      (*n)++;
    }
  for (int k = 0; k < 3; k++)
    m[k] /= MAX (*n, 1);
}

/* `serve --tracker udp://…` streams the served arm's TCP at 1 kHz as
 * NatNet frames, read here through the natnet driver (NbDevice) as a
 * tracker would be: every frame of the goal P2 → P1 arrives, in order, one
 * a millisecond of the frames' own instants (none lost, none reordered:
 * their steps are exactly 1 ms), ≥ 900 a second by their arrival; each
 * frame arrives after its instant and within a few ms; the rest poses are
 * the true arm's TCP at the served joints (the ISO 9283 demonstration
 * error model, σ 5 µm), and the approach settles as the servo's closed
 * form does, timed by the frames' instants. */
static void
test_tracker (void)
{
  g_autofree char *servo = g_strdup_printf ("%g,%g,%s", OMEGA, ZETA, DWELL);
  g_autofree char *to_p2 = joints_body (cube_q[1]), *to_p1 = joints_body (cube_q[0]);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbDevice) d = NULL;
  g_autoptr (GArray) lat = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree NbIso9283Sample *stream = NULL;
  Received r = { g_array_new (FALSE, FALSE, sizeof (double)),
                 g_array_new (FALSE, FALSE, sizeof (double)),
                 g_array_new (FALSE, FALSE, sizeof (double)) };
  NbTestUdp udp;
  NbTestServer srv;
  NbSimArm truth;
  NbIso9283Settling got, wide, narrow;
  NbHttpRobot *robot;
  NbRobotState at_p2, at_p1;
  double t_start, t_end, m[3], T[16], rate, load0, worst = 0;
  guint n, steps_off = 0, in_goal = 0, first = G_MAXUINT, last = 0;

  nb_test_udp_open (&udp);
  srv = nb_test_serve ("--time-scale", "1", "--servo", servo, "--tracker", udp.url, NULL);
  d = nb_device_new ("natnet", &error);
  g_assert_no_error (error);
  g_assert_true (nb_device_configure (d, "url", udp.url, &error));
  g_assert_true (nb_device_start (d, &error));
  g_assert_no_error (error);
  load0 = load_average ();
  robot = nb_http_robot_new (srv.url, NULL, 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (post_joints (srv.url, to_p2), ==, 200);
  g_assert_true (nb_http_robot_state (robot, &at_p2, &error));
  /* At rest at P2, then the goal P2 → P1 (≈ 1.5 s with the 0.8 s dwell). */
  g_usleep (300000);
  drain (d, &r, 0);
  g_array_set_size (r.instant, 0);
  g_array_set_size (r.arrival, 0);
  g_array_set_size (r.p, 0);
  g_usleep (300000);
  t_start = nb_device_now ();
  g_assert_cmpuint (post_joints (srv.url, to_p1), ==, 200);
  t_end = nb_device_now ();
  g_assert_true (nb_http_robot_state (robot, &at_p1, &error));
  g_usleep (100000);
  drain (d, &r, 500000);
  nb_device_stop (d);
  nb_http_robot_free (robot);
  nb_test_server_stop (&srv);

  /* In order and complete: each frame's instant exactly 1 ms after the one
   * before (1/rate; a frame lost or late in the queue breaks the chain). */
  g_assert_cmpuint (r.instant->len, >, 1000);
  for (guint i = 0; i < r.instant->len; i++)
    {
      double t = g_array_index (r.instant, double, i), a = g_array_index (r.arrival, double, i);
      double late = a - t;

      if (i > 0 && fabs (t - g_array_index (r.instant, double, i - 1) - 1e-3) > 1e-9)
        steps_off++;
      g_array_append_val (lat, late);
      worst = MAX (worst, late);
      if (t >= t_start && t <= t_end)
        {
          in_goal++;
          first = MIN (first, i);
          last = MAX (last, i);
        }
    }
  g_array_sort (lat, compare_double);
  rate = (last - first) / (g_array_index (r.arrival, double, last) -
                           g_array_index (r.arrival, double, first));
  g_test_message ("serve --tracker: %u frames over %.3f s, %u during the goal (%.3f s): %.0f a "
                  "second by arrival; latency median %.2f ms, largest %.2f ms; steps not 1 ms: %u "
                  "(load %.1f)", r.instant->len,
                  g_array_index (r.instant, double, r.instant->len - 1) -
                  g_array_index (r.instant, double, 0), in_goal, t_end - t_start, rate,
                  g_array_index (lat, double, lat->len / 2) * 1e3, worst * 1e3, steps_off, load0);
  g_assert_cmpfloat (rate, >=, 900);
  g_assert_cmpuint (steps_off, ==, 0);
  /* The goal's whole time in frames (its instants are the grid's). */
  g_assert_cmpuint (in_goal, >=, (guint) ((t_end - t_start) * 1000) - 2);
  g_assert_cmpfloat (g_array_index (lat, double, 0), >=, 0);
  g_assert_cmpfloat (g_array_index (lat, double, lat->len / 2), <, 0.005);

  /* At rest before and after: the true arm's TCP at the joints the served
   * arm reports there (its goals end with joint noise and backlash). */
  truth_init (&truth, 0);
  mean_between (&r, g_array_index (r.instant, double, 0), t_start, m, &n);
  nb_sim_arm_true_pose (&truth, at_p2.position, T);
  g_assert_cmpuint (n, >=, 200);
  nb_assert_abs (m[0], T[3] * 1000, 0.003, "x at P2");
  nb_assert_abs (m[1], T[7] * 1000, 0.003, "y at P2");
  nb_assert_abs (m[2], T[11] * 1000, 0.003, "z at P2");
  mean_between (&r, t_end - 0.2, t_end + 1, m, &n);
  nb_sim_arm_true_pose (&truth, at_p1.position, T);
  g_assert_cmpuint (n, >=, 200);
  nb_assert_abs (m[0], T[3] * 1000, 0.003, "x at P1");
  nb_assert_abs (m[1], T[7] * 1000, 0.003, "y at P1");
  nb_assert_abs (m[2], T[11] * 1000, 0.003, "z at P1");
  nb_sim_arm_clear (&truth);

  /* The approach as the frames' instants time it: the servo's closed form
   * (its band edge moved by the noise, as in /stabilisation) within 2 ms. */
  stream = g_new (NbIso9283Sample, last - first + 1);
  for (guint i = first; i <= last; i++)
    {
      stream[i - first].t_s = g_array_index (r.instant, double, i);
      memcpy (stream[i - first].p_mm, &g_array_index (r.p, double, 3 * i), 3 * sizeof (double));
    }
  g_assert_true (nb_iso9283_settling (stream, last - first + 1, 0.1, 0.2, &got, &error));
  g_assert_no_error (error);
  closed_settling (cube_q[1], cube_q[0], 100, 0.1 + 3 * TRACKER_MM, &wide);
  closed_settling (cube_q[1], cube_q[0], 100, 0.1 - 3 * TRACKER_MM, &narrow);
  g_test_message ("the approach: t %.4f s (closed form %.4f … %.4f s), OV %.4f mm (%.4f)",
                  got.stabilisation_s, MIN (wide.stabilisation_s, narrow.stabilisation_s),
                  MAX (wide.stabilisation_s, narrow.stabilisation_s), got.overshoot_mm,
                  wide.overshoot_mm);
  g_assert_cmpfloat (got.stabilisation_s, >=,
                     MIN (wide.stabilisation_s, narrow.stabilisation_s) - 0.002);
  g_assert_cmpfloat (got.stabilisation_s, <=,
                     MAX (wide.stabilisation_s, narrow.stabilisation_s) + 0.002);
  nb_assert_abs (got.overshoot_mm, wide.overshoot_mm, 0.01 * wide.overshoot_mm + 0.02, "OV");
  g_array_unref (r.instant);
  g_array_unref (r.arrival);
  g_array_unref (r.p);
  nb_test_udp_clear (&udp);
}

static void
test_left (void)
{
  g_autofree char *db = new_campaign ("left");
  g_autofree char *out = NULL, *err = NULL;

  /* A served arm that moves in no time gives no stream: an error, not a figure. */
  out = nb_test_cli_run (NULL, 1, &err, "campaign", "run", "--standard", "iso9283", "--db", db,
                         "--all", "--only", "stabilisation-rated-100", "--robot", instant.url,
                         NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "the motion was not watched"));
  g_free (out);
  /* A path on a served arm that moves in no time: the same error. */
  g_free (err);
  out = nb_test_cli_run (NULL, 1, &err, "campaign", "run", "--standard", "iso9283", "--db", db,
                         "--all", "--only", "path-line-rated-100", "--robot", instant.url, NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "the motion was not watched"));
}

/* ---------------------------------------------- 8.7 weaving over HTTP -- */

/* ISO 9283 8.7 over the motion API: each cycle's weave (≈ 2 000 points, 80
 * a period of 0.5 s, across P2 → P4 at 25 mm/s) goes as ONE trajectory
 * (POST /robot/trajectory: docs/http-api.md "Trajectory body"), so the
 * served arm runs it without a stop; the sampler watches it.  The served
 * arm keeps the trajectory's times (no speed error: WF ≈ 0, against the
 * −2.2 to −3.7 % the rests between 400-point parts gave), and the stroke is
 * the one the true arm (the sampler's: the demonstration error model at the
 * rated load) makes of the command's crests and troughs, computed here from
 * the cube as test-iso9283-campaign's /weaving does — less the chords' sag
 * between points (joint-linear, ≤ 3.9 µm each side). */
static void
test_weaving (void)
{
  g_autofree char *db = new_campaign ("weaving");
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autoptr (GPtrArray) trials = NULL;
  const NbClause9283 *clause;
  NbClause9283Figures f;
  NbSimArm truth;
  double length = 0, e1[3], e2[3], n[3], u[3], d[3], q[NB_ARM_JOINTS], sum = 0, want, gap = 0;
  double span = 0;
  guint count = 0, samples = 0;

  run_http (p, db, "weaving-rated-100", live.url, 3);
  from_file (db, "weaving-rated-100", &clause, &f, &trials);
  for (guint j = 0; j < trials->len; j++)
    {
      const GArray *dt = ((NbIso9283Trial *) trials->pdata[j])->data;
      guint m = dt->len / 7;

      samples += m;
      span += g_array_index (dt, double, (m - 1) * 7) - g_array_index (dt, double, 0);
      for (guint i = 1; i < m; i++)
        gap = MAX (gap, g_array_index (dt, double, i * 7) - g_array_index (dt, double, (i - 1) * 7));
    }
  truth_init (&truth, RATED_KG);
  for (int k = 0; k < 3; k++)
    length += (cube.p_mm[3][k] - cube.p_mm[1][k]) * (cube.p_mm[3][k] - cube.p_mm[1][k]);
  length = sqrt (length);
  nb_clause_9283_plane_axes (&cube, e1, e2, n);
  for (int k = 0; k < 3; k++)
    u[k] = (cube.p_mm[3][k] - cube.p_mm[1][k]) / length;
  d[0] = n[1] * u[2] - n[2] * u[1];
  d[1] = n[2] * u[0] - n[0] * u[2];
  d[2] = n[0] * u[1] - n[1] * u[0];
  memcpy (q, cube_q[1], sizeof q);
  /* Each crest against the middle of the troughs either side (every 12.5 mm
   * of the line), over the measured part (its middle 9/11). */
  for (guint k = 0; 12.5 * (k + 1.25) < length * 10 / 11; k++)
    {
      double w[3];

      if (12.5 * (k + 0.25) < length / 11)
        continue;
      for (int i = 0; i < 3; i++)
        {
          double at = 12.5 * (k - 0.25 + 0.5 * i), x[3], t[3];

          for (int j = 0; j < 3; j++)
            x[j] = cube.p_mm[1][j] + at * u[j] + (i == 1 ? 5 : -5) * d[j];
          true_of (&truth, x, q, t);
          w[i] = 0;
          for (int j = 0; j < 3; j++)
            w[i] += (t[j] - cube.p_mm[1][j]) * d[j];
        }
      sum += w[1] - (w[0] + w[2]) / 2;
      count++;
    }
  want = sum / count;
  g_test_message ("weaving over HTTP: %u samples over %.2f s (%.0f a second), the largest gap "
                  "%.1f ms; S_a %.4f mm (the true arm's %.4f over %u crests), WS %.3f %%, "
                  "F_a %.5f Hz, WF %.4f %% (largest cycle %.4f %%)", samples, span, samples / span,
                  gap * 1e3, fig (clause, &f, 0, "stroke_mm"), want, count,
                  fig (clause, &f, 0, "ws_pct"), fig (clause, &f, 0, "frequency_hz"),
                  fig (clause, &f, 0, "wf_pct"), fig (clause, &f, 0, "wf_max_pct"));
  g_assert_cmpuint (count, >, 15);
  g_assert_cmpfloat (fig (clause, &f, 0, "stroke_command_mm"), ==, 10);
  g_assert_cmpfloat (fig (clause, &f, 0, "frequency_command_hz"), ==, 2);
  /* The served arm keeps the command's times; the samples are stamped to
   * a ms, but a crest falls in a gap of the stream (up to 310 ms at load
   * 20) is timed by the samples either side: the first and last crests of
   * a cycle's 22 periods (11 s) that far off move F_a by up to 0.2 % in a
   * cycle, less in the mean of three (seen: −0.065 % to +0.026 %, the
   * largest cycle 0.19 %). The 400-point parts gave −2.2 to −3.7 %. */
  nb_assert_abs (fig (clause, &f, 0, "wf_pct"), 0, 0.15, "WF: the served arm's times");
  nb_assert_abs (fig (clause, &f, 0, "frequency_hz"), 2, 0.003, "F_a");
  /* The sampler's samples (5 µm of noise) on the crests' parabolas, the
   * chords' sag (up to 7.7 µm of the stroke, short): 20 µm above; a crest
   * in a gap of the stream is read lower (the nearest samples off its
   * top), never higher: seen 1 µm to 0.137 mm short at load 14–21. */
  g_assert_cmpfloat (fig (clause, &f, 0, "stroke_mm"), <, want - 0.004 + 0.02);
  g_assert_cmpfloat (fig (clause, &f, 0, "stroke_mm"), >, want - 0.004 - 0.2);
  nb_assert_abs (fig (clause, &f, 0, "ws_pct"), (fig (clause, &f, 0, "stroke_mm") - 10) * 10,
                 1e-9, "WS from S_a");
  nb_clause_9283_figures_clear (&f);
  nb_sim_arm_clear (&truth);
}

/* ---------------------------------------- the sampler's kept connection -- */

static gboolean
two_second_goal (gpointer robot, const double q[NB_ARM_JOINTS], GError **error)
{
  g_usleep (2 * G_USEC_PER_SEC);
  return TRUE;
}

/* The rig's sampler polls GET /robot/state of the served arm through a
 * 2 s goal on one kept-alive connection (nb-listener.h, nb-http-robot.h):
 * counted, not timed — a connection per poll (the server closing each, as
 * before) makes connections equal polls.  The rate is reported with the
 * machine's load. */
static void
test_sampler_keepalive (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *loadavg = NULL;
  NbRobotOps ops = { 0 };
  NbIso9283Rig rig = { 0 };
  NbSimArm truth;
  const double q[NB_ARM_JOINTS] = { 0 };
  guint polls, connections, n;
  double span;

  nb_sim_arm_init (&truth, &model, 1);
  ops.move_to_joints = two_second_goal;
  rig.ops = &ops;
  rig.rated_load_kg = RATED_KG;
  rig.sampler = nb_iso9283_sampler_new (live.url, &truth, 0, 0, 1, &error);
  g_assert_no_error (error);
  g_assert_true (nb_iso9283_rig_configure (&rig, 100, "rated", &error));
  g_assert_true (nb_iso9283_rig_goal (&rig, q, FALSE, NULL, &error));
  g_assert_no_error (error);
  nb_iso9283_sampler_counts (rig.sampler, &polls, &connections);
  n = rig.stream_t_s->len;
  g_assert_cmpuint (n, >=, 2);
  span = g_array_index (rig.stream_t_s, double, n - 1) - g_array_index (rig.stream_t_s, double, 0);
  g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL);
  g_test_message ("the sampler: %u samples over %.2f s (%.0f a second), %u polls on %u "
                  "connection(s); load %.14s", n, span, (n - 1) / span, polls, connections,
                  loadavg ? loadavg : "?");
  /* 16 a second was the slowest seen at load 25 with a connection each. */
  g_assert_cmpuint (polls, >=, 30);
  g_assert_cmpuint (connections, >=, 1);
  g_assert_cmpuint (connections, <=, 2);
  nb_iso9283_sampler_free (rig.sampler);
  nb_sim_arm_clear (&truth);
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "robots",
                                           "iiwa7", NULL);
  const double centre[3] = { 600, 0, 450 }, abc[3] = { 180, 0, 180 };
  const double seed[NB_ARM_JOINTS] = { 0, 0.6, 0, -1.2, 0, 1.0, 0 };
  g_autofree char *servo = g_strdup_printf ("%g,%g,%s", OMEGA, ZETA, DWELL);
  g_autoptr (GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = nb_test_make_dir ();
  g_assert_true (nb_arm_model_load (dir, &model, &error));
  g_assert_no_error (error);
  /* The cube `campaign run --standard iso9283` fits by default. */
  g_assert_true (nb_iso9283_cube_fit (&model, centre, 1, abc, 600, seed, &cube, cube_q, &error));
  g_assert_no_error (error);
  live = nb_test_serve ("--time-scale", "1", "--servo", servo, NULL);
  instant = nb_test_serve ("--time-scale", "0", NULL);
  g_test_add_func ("/iso9283-http/stabilisation", test_stabilisation);
  g_test_add_func ("/iso9283-http/positioning", test_positioning);
  g_test_add_func ("/iso9283-http/compliance", test_compliance);
  g_test_add_func ("/iso9283-http/speeds", test_speeds);
  g_test_add_func ("/iso9283-http/paths", test_paths);
  g_test_add_func ("/iso9283-http/weaving", test_weaving);
  g_test_add_func ("/iso9283-http/trajectory-api", test_trajectory_api);
  g_test_add_func ("/iso9283-http/left", test_left);
  g_test_add_func ("/iso9283-http/tracker", test_tracker);
  g_test_add_func ("/iso9283-http/sampler-keepalive", test_sampler_keepalive);
  rc = g_test_run ();
  nb_test_server_stop (&live);
  nb_test_server_stop (&instant);
  nb_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
