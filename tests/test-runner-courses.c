/* Clauses 6, 7 and 9 driven by the campaign runner on the simulated rig: the
 * courses' geometry worked by hand, T0 / T1 / passage time against the
 * sim base's model, the store holding what `campaign import` stores,
 * contacts arising from the model's wander (their rate against the model's
 * probability, each verdict against the ground truth), the clause 5
 * tolerance, clause 6's placements and the sensor model, and bad input. */
#include "nb-campaign-runner.h"
#include "nb-clause.h"
#include "nb-error.h"
#include "nb-runner-sim.h"
#include "nb-test.h"
#include "nb-test-campaign.h"
#include "nb-test-tmp.h"

#include <math.h>
#include <string.h>

static char *tmpdir;

/* The figure's expression names it in a failure. */
#define assert_abs(actual, expected, tol) nb_assert_abs (actual, expected, tol, #actual)
#define assert_rel(actual, expected, tol) nb_assert_rel (actual, expected, tol, #actual)

/* ------------------------------------------------------------- harness -- */

typedef struct {
  NbRunnerEventKind kind;
  NbTrialOutcome outcome;
  char *reason;
  char *trial_kind;
  guint number;
  double time_s, clearance_mm;
  gint64 trial_id;
} Seen;

typedef struct {
  GMainLoop *loop;
  GArray *events;
  gboolean ok;
  GError *error;
  NbRunnerSummary summary;
  NbCampaignRunner *runner;
} Watch;

static void
seen_clear (gpointer p)
{
  g_free (((Seen *) p)->reason);
  g_free (((Seen *) p)->trial_kind);
}

static void
on_progress (const NbRunnerEvent *ev, gpointer data)
{
  Watch *w = data;
  Seen s = { ev->kind, ev->outcome, g_strdup (ev->reason), g_strdup (ev->trial_kind),
             ev->number, ev->time_s, ev->clearance_mm, ev->trial_id };

  g_array_append_val (w->events, s);
}

static void
on_done (GObject *source, GAsyncResult *res, gpointer data)
{
  Watch *w = data;

  w->ok = nb_campaign_runner_run_finish (w->runner, res, &w->summary, &w->error);
  g_main_loop_quit (w->loop);
}

static void
watch_clear (Watch *w)
{
  g_main_loop_unref (w->loop);
  g_array_unref (w->events);
  g_clear_error (&w->error);
  nb_runner_summary_clear (&w->summary);
}

/* The rig without set_course: a real rig, whose obstacle the operator places. */
static const NbRunnerRigOps *
manual_rig_ops (void)
{
  static NbRunnerRigOps ops;

  ops = *nb_runner_sim_rig_ops ();
  ops.set_course = NULL;
  ops.detect = NULL;
  return &ops;
}

/* Runs o on sim under a main loop into w (initialised here). */
static gboolean
run_on (const char *db, const NbCampaignRunnerOptions *o, NbRunnerSim *sim,
        const NbRunnerRigOps *ops, Watch *w)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaignRunner) runner = NULL;
  NbRunnerRig rig;

  nb_runner_sim_rig (sim, &rig);
  if (ops != NULL)
    rig.rig_ops = ops;
  runner = nb_campaign_runner_new (db, o, &rig, &error);

  g_assert_no_error (error);
  memset (w, 0, sizeof *w);
  w->loop = g_main_loop_new (NULL, FALSE);
  w->events = g_array_new (FALSE, TRUE, sizeof (Seen));
  g_array_set_clear_func (w->events, seen_clear);
  w->runner = runner;
  nb_campaign_runner_run_async (runner, NULL, on_progress, w, on_done, w);
  g_main_loop_run (w->loop);
  return w->ok;
}

static NbRunnerSim *
new_sim (guint32 seed, double clearance_mm, double noise_m)
{
  NbRunnerSimOptions so;
  g_autoptr (GError) error = NULL;
  NbRunnerSim *sim;

  nb_runner_sim_options_init (&so);
  so.seed = seed;
  if (!isnan (clearance_mm))
    so.model.clearance_mm = clearance_mm;
  if (!isnan (noise_m))
    so.noise_m = noise_m;
  sim = nb_runner_sim_new (&so, &error);
  g_assert_no_error (error);
  return sim;
}

static char *
new_campaign (const char *name, const char *width)
{
  char *path = g_strdup_printf ("%s/%s.nbc", tmpdir, name);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_create (path, name, &error);

  g_assert_no_error (error);
  if (width != NULL)
    g_assert_true (nb_campaign_set_field (c, "robot.width_mm", width, &error));
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  return path;
}

static void
options (NbCampaignRunnerOptions *o, guint clause, const char *config)
{
  nb_campaign_runner_options_init (o);
  o->clause = clause;
  o->config = config;
  o->goal_tolerance_mm = 10.0;
  o->goal_tolerance_deg = 1.0;
}

typedef struct {
  const NbCourse *course;
  double t0;
  double min;
} MinGap;

static gboolean
min_gap (const NbTrackSample *s, gsize n, gpointer p, GError **error)
{
  MinGap *g = p;

  for (gsize i = 0; i < n; i++)
    g->min = MIN (g->min, nb_course_clearance_mm (g->course, s[i].t_s - g->t0, s[i].x_mm,
                                                  s[i].y_mm));
  return TRUE;
}

/* The trial's clearance from its stored samples, independently of the runner. */
static double
stored_clearance (NbCampaign *c, const NbCampaignTrial *t, const NbCourse *course)
{
  g_autoptr (GError) error = NULL;
  MinGap g = { course, t->start_time, INFINITY };

  g_assert_true (nb_campaign_foreach_samples (c, t->id, min_gap, &g, &error));
  return g.min;
}

/* The trial's clearance on the base's ground truth (what really happened),
 * every millisecond from start_s to end_s. */
static double
true_clearance (const NbSimBase *b, const NbCourse *course, double start_s, double end_s)
{
  double min = INFINITY;

  for (double t = start_s; t <= end_s; t += 0.001)
    {
      double x, y, th;

      nb_sim_base_pose_at (b, t, &x, &y, &th);
      min = MIN (min, nb_course_clearance_mm (course, t - start_s, x, y));
    }
  return min;
}

/* -------------------------------------------------------------- course -- */

static void
test_course_geometry (void)
{
  g_autoptr (GError) error = NULL;
  NbObstacleShape wall, lying, cyl;
  NbCourse c;
  double x, y;

  /* Table 2 as decided (nb-course.h). */
  g_assert_true (nb_obstacle_find ("wooden wall", 1, &wall));
  g_assert_cmpfloat (wall.across_mm, ==, 1000.0);
  g_assert_cmpfloat (wall.along_mm, ==, 20.0);
  g_assert_true (nb_obstacle_find ("large cylinder", 1, &lying));
  g_assert_false (lying.round);
  g_assert_cmpfloat (lying.across_mm, ==, 600.0);
  g_assert_true (nb_obstacle_find ("large cylinder", 2, &cyl));
  g_assert_true (cyl.round);
  g_assert_cmpfloat (cyl.across_mm, ==, 200.0);
  g_assert_true (nb_obstacle_find ("table", 1, &cyl));
  g_assert_cmpstr (cyl.name, ==, "wooden table");
  g_assert_false (nb_obstacle_find ("sofa", 1, &cyl));
  g_assert_false (nb_obstacle_find (NULL, 1, &cyl));

  /* w = 450 mm → LU 500: PG at 4500 mm, P1 at 2250 mm. */
  g_assert_true (nb_course_avoidance (450.0, &wall, 1, 0.0, &c, &error));
  g_assert_no_error (error);
  assert_abs (c.pg[0], 4500.0, 1e-9);
  assert_abs (c.p1[0], 2250.0, 1e-9);
  /* A robot (r 225) centred 825 mm left of the wall's centre: the wall's
   * half width is 500, so the gap is 825 − 500 − 225 = 100 mm. */
  assert_abs (nb_course_clearance_mm (&c, 3.0, 2250.0, 825.0), 100.0, 1e-9);
  /* 30 mm before its face (x 2240 − 10 − 225 − 30 = 1985), on the route: 30 mm. */
  assert_abs (nb_course_clearance_mm (&c, 0.0, 1985.0, 0.0), 30.0, 1e-9);
  /* Off its corner (2260, 500) by (30, 40): 50 − 225 < 0, contact. */
  assert_abs (nb_course_clearance_mm (&c, 0.0, 2290.0, 540.0), 50.0 - 225.0, 1e-9);

  /* Behaviour 2: the small cylinder crosses at 90° and meets the robot at
   * P1 at meet_s = 2 s, so it starts 3200 mm to the right of P1. */
  g_assert_true (nb_obstacle_find ("small cylinder", 2, &cyl));
  g_assert_true (nb_course_avoidance (450.0, &cyl, 2, 2.0, &c, &error));
  nb_course_obstacle_at (&c, 0.0, &x, &y);
  assert_abs (x, 2250.0, 1e-9);
  assert_abs (y, -3200.0, 1e-9);
  nb_course_obstacle_at (&c, 2.0, &x, &y);
  assert_abs (y, 0.0, 1e-9);
  nb_course_obstacle_at (&c, 100.0, &x, &y);         /* it stops at P2 = P1 + 2 LU */
  assert_abs (y, 1000.0, 1e-9);
  /* 1 s in it is 1600 mm short of P1: a robot at P1 is 1600 − 35 − 225 away. */
  assert_abs (nb_course_clearance_mm (&c, 1.0, 2250.0, 0.0), 1600.0 - 35.0 - 225.0, 1e-9);
  /* Behaviour 3 at 45°, coming from the right and ahead. */
  g_assert_true (nb_course_avoidance (450.0, &cyl, 3, 2.0, &c, &error));
  nb_course_obstacle_at (&c, 0.0, &x, &y);
  assert_abs (x, 2250.0 + 3200.0 * G_SQRT2 / 2.0, 1e-9);
  assert_abs (y, -3200.0 * G_SQRT2 / 2.0, 1e-9);
  /* Behaviour 4: head-on, stopping at P1. */
  g_assert_true (nb_course_avoidance (450.0, &cyl, 4, 2.0, &c, &error));
  nb_course_obstacle_at (&c, 1.0, &x, &y);
  assert_abs (x, 2250.0 + 1600.0, 1e-9);
  nb_course_obstacle_at (&c, 9.0, &x, &y);
  assert_abs (x, 2250.0, 1e-9);
  /* The baseline has nothing near. */
  g_assert_true (nb_course_avoidance (450.0, NULL, 0, 0.0, &c, &error));
  g_assert_true (isinf (nb_course_clearance_mm (&c, 0.0, 2250.0, 0.0)));

  /* The passage for w 450 (LU 500), 650 wide: the entrance at 2 LU + w/2
   * = 1225, the exit at 3225, PG at 8 LU = 4000. */
  g_assert_true (nb_course_passage (450.0, 650.0, &c, &error));
  assert_abs (c.entrance_x_mm, 1225.0, 1e-9);
  assert_abs (c.exit_x_mm, 3225.0, 1e-9);
  assert_abs (c.pg[0], 4000.0, 1e-9);
  assert_abs (nb_course_clearance_mm (&c, 0.0, 2000.0, 30.0), 325.0 - 30.0 - 225.0, 1e-9);
  assert_abs (nb_course_clearance_mm (&c, 0.0, 2000.0, -30.0), 70.0, 1e-9);
  /* Before the entrance: to the wall's end (1225, 325) from (1165, 245): 100 − 225. */
  assert_abs (nb_course_clearance_mm (&c, 0.0, 1165.0, 245.0), 100.0 - 225.0, 1e-9);
  g_assert_true (isinf (nb_course_clearance_mm (&c, 0.0, 500.0, 0.0)));

  /* Bad input. */
  g_assert_false (nb_course_passage (0.0, 650.0, &c, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_course_passage (450.0, -1.0, &c, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_course_avoidance (450.0, &cyl, 5, 2.0, &c, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_course_avoidance (450.0, &cyl, 2, NAN, &c, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
}

/* ------------------------------------------------------------ clause 7 -- */

/* The wooden wall, behaviour 1, by hand (model defaults: 1000 mm/s, 90°/s,
 * keeps 100 mm, detour at 0.6, replan 0.5 s, ramps at 30°, sees 2000 mm
 * ahead), w 450 (r 225, LU 500, PG 4500, P1 2250):
 *   offset y = 500 + 225 + 100 = 825; ramp 825 / tan 30° = 1428.94;
 *   alongside from 2250 − 10 − 325 = 1915 to 2585; seen at 2240 − 2000 = 240.
 *   At rated speed: 240 + (486.06 − 240) + (4500 − 4013.94) = 972.12 mm;
 *   at 0.6: 1650 (ramp) + 670 + 1650 = 3970 mm → 0.972 + 6.617 s;
 *   four 30° turns 1.333 s; the replan 0.5 s.  T1 ≈ 9.422 s, of which
 *   7.589 s scale with the drive's speed (1 % noise). */
#define T1_WALL_S (0.97212 + 3970.0 / 600.0 + 4.0 * 30.0 / 90.0 + 0.5)
#define T1_WALL_DRIVE_S (0.97212 + 3970.0 / 600.0)

static void
test_clause7_wall (void)
{
  g_autofree char *db = new_campaign ("wall", "450");
  g_autoptr (NbRunnerSim) sim = new_sim (7, NAN, NAN);
  g_autoptr (NbCampaign) c = NULL;
  g_autoptr (GArray) trials = NULL;
  NbCampaignRunnerOptions o;
  NbCampaignConfig config;
  NbConfigResult fig;
  NbCourse course;
  NbObstacleShape wall;
  g_autoptr (GError) error = NULL;
  double t0 = 0.0, t1 = 0.0;
  Watch w;

  options (&o, 7, "1 wooden wall");
  o.obstacle = "wooden wall";
  g_assert_true (run_on (db, &o, sim, NULL, &w));
  g_assert_cmpuint (w.summary.run, ==, 6);
  g_assert_cmpuint (w.summary.ok, ==, 6);
  g_assert_true (w.summary.figures.avoidance.passed);

  c = nb_test_campaign_open_ro (db);
  trials = nb_test_campaign_trials (c, 7, "1 wooden wall", &config);
  g_assert_cmpstr (config.obstacle, ==, "wooden wall");
  g_assert_cmpstr (config.behaviour, ==, "1");
  g_assert_cmpfloat (config.load_kg, ==, 0.0);
  g_assert_cmpuint (trials->len, ==, 6);
  g_assert_true (nb_obstacle_find ("wooden wall", 1, &wall));
  g_assert_true (nb_course_avoidance (450.0, &wall, 1, 0.0, &course, &error));
  for (guint i = 0; i < 6; i++)
    {
      NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      Seen *ended = &g_array_index (w.events, Seen, 2 * i + 1);

      /* What import stores: kind, number within it, time, outcome. */
      g_assert_cmpstr (t->kind, ==, i < 3 ? "baseline" : "obstacle");
      g_assert_cmpuint (t->number, ==, i % 3 + 1);
      g_assert_cmpint (t->outcome, ==, NB_TRIAL_OK);
      g_assert_true (t->reason == NULL);
      g_assert_cmpstr (ended->trial_kind, ==, t->kind);
      g_assert_cmpuint (ended->number, ==, t->number);
      assert_abs (ended->time_s, t->time_s, 1e-9);
      if (i < 3)
        {
          /* 4500 mm at 1000 mm/s, 1 % speed noise (4σ). */
          assert_rel (t->time_s, 4.5, 0.04);
          g_assert_true (isinf (ended->clearance_mm));
          t0 += t->time_s / 3.0;
        }
      else
        {
          /* The turns and the pause do not scale with the speed. */
          assert_abs (t->time_s, T1_WALL_S, 0.04 * T1_WALL_DRIVE_S);
          /* It keeps 100 mm; the wander (≤ 8 mm) and the tracker move it. */
          assert_abs (ended->clearance_mm, 100.0, 9.0);
          assert_abs (stored_clearance (c, t, &course), ended->clearance_mm, 1e-6);
          t1 = MAX (t1, t->time_s);
        }
    }
  assert_rel (w.summary.figures.avoidance.t0_s, t0, 1e-12);
  assert_rel (w.summary.figures.avoidance.t1_s, t1, 1e-12);
  assert_rel (w.summary.figures.avoidance.delay_ratio, t1 / t0, 1e-12);
  assert_abs (w.summary.figures.avoidance.delay_ratio, T1_WALL_S / 4.5, 0.1);
  /* campaign results computes the same from the store. */
  memset (&fig, 0, sizeof fig);
  g_assert_true (nb_config_result_compute (c, &config, &fig, &error));
  g_assert_null (fig.error);
  g_assert_true (fig.avoidance.passed);
  g_assert_cmpfloat (fig.avoidance.t1_s, ==, t1);
  nb_config_result_clear (&fig);
  nb_campaign_config_clear (&config);
  watch_clear (&w);

  /* A rerun asks for more explicitly; more trials append to the obstacle kind. */
  g_assert_false (run_on (db, &o, sim, NULL, &w));
  g_assert_error (w.error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (w.error->message, "already has 3 counted trials"));
  watch_clear (&w);
  o.trials = 2;
  g_assert_true (run_on (db, &o, sim, NULL, &w));
  g_assert_cmpuint (w.summary.run, ==, 2);
  g_assert_cmpuint (g_array_index (w.events, Seen, 3).number, ==, 5);
  g_assert_cmpstr (g_array_index (w.events, Seen, 3).trial_kind, ==, "obstacle");
  watch_clear (&w);
}

/* Behaviours 2 and 3: the robot stops short of the crossing cylinder's
 * sweep and goes on when it has passed.  By hand, behaviour 2 (small
 * cylinder Ø 70, r 225, keeps 100): it sweeps the route while within
 * 35 + 225 + 100 = 360 mm of it, from P1 at 2250; the robot stops at
 * 2250 − 360 = 1890, waits until the cylinder — started 1600·T0/2 to the
 * right — is 360 mm past the route, plus the 0.5 s replan, then drives the
 * last 2610 mm: T1 = (1600·T0/2 + 360) / 1600 + 0.5 + 2.61 s.
 * Behaviour 3 at 45°: it is within 360 mm of the route over ±360 mm of x
 * from P1, so the robot stops at 2250 − 360 − 360 = 1530 and it leaves at
 * (1600·T0/2 + 360·√2) / 1600 s: T1 = that + 0.5 + 2.97 s.  Behaviour 4
 * (head-on to P1) is a detour like behaviour 1 around the small cylinder. */
static void
test_clause7_moving (void)
{
  g_autofree char *db = new_campaign ("moving", "450");
  const guint behaviours[] = { 2, 3, 4 };

  for (guint k = 0; k < G_N_ELEMENTS (behaviours); k++)
    {
      g_autoptr (NbRunnerSim) sim = new_sim (20 + k, NAN, NAN);
      g_autofree char *name = g_strdup_printf ("%u small cylinder floor", behaviours[k]);
      NbCampaignRunnerOptions o;
      const NbAvoidanceResult *a;
      double t0, leave, rest;
      Watch w;

      options (&o, 7, name);
      o.obstacle = "small cylinder";
      o.behaviour = behaviours[k];
      g_assert_true (run_on (db, &o, sim, NULL, &w));
      a = &w.summary.figures.avoidance;
      g_assert_true (a->passed);
      t0 = a->t0_s;
      assert_rel (t0, 4.5, 0.04);
      if (behaviours[k] == 4)
        {
          /* Around Ø 70 at P1, as the wall: offset 35 + 325 = 360, ramp
           * 360 / tan 30° = 623.54 (720 long), alongside 1890 to 2610, seen
           * at 215; at speed 215 + (1266.46 − 215) + (4500 − 3233.54) =
           * 2532.9 mm, at 0.6: 720 + 720 + 720 mm; turns 1.333 s, replan
           * 0.5 s: T1 = 2.533 + 3.6 + 1.833 = 7.966 s. */
          assert_abs (a->t1_s, 2.5329 + 3.6 + 4.0 * 30.0 / 90.0 + 0.5, 0.04 * 6.133);
        }
      else
        {
          leave = behaviours[k] == 2 ? (1600.0 * t0 / 2.0 + 360.0) / 1600.0
                                     : (1600.0 * t0 / 2.0 + 360.0 * G_SQRT2) / 1600.0;
          rest = behaviours[k] == 2 ? 2.61 : 2.97;
          assert_abs (a->t1_s, leave + 0.5 + rest, 0.04 * rest + 0.01);
        }
      for (guint i = 0; i < w.events->len; i++)
        {
          Seen *s = &g_array_index (w.events, Seen, i);

          if (s->kind == NB_RUNNER_EVENT_TRIAL_ENDED && g_strcmp0 (s->trial_kind, "obstacle") == 0)
            g_assert_cmpfloat (s->clearance_mm, >, 90.0);
        }
      watch_clear (&w);
    }
}

/* Contacts from the model: a robot that keeps only 5 mm from the wall
 * while its wander is up to 8 mm touches it when the wander goes towards
 * the wall (½) and exceeds 5 mm (amplitude 8·U, U uniform in [½, 1]:
 * P = (1 − 5/8) / ½ = ¾): P(contact) = 3/8 per trial.  Each verdict agrees
 * with the ground truth; the configuration passes only if its first three
 * trials succeed. */
static void
test_clause7_contact (void)
{
  g_autofree char *db = new_campaign ("contact", "450");
  /* A tracker of 1 µm: the measured clearance is the true one. */
  g_autoptr (NbRunnerSim) sim = new_sim (11, 5.0, 1e-6);
  g_autoptr (NbCampaign) c = NULL;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (GError) error = NULL;
  NbCampaignRunnerOptions o;
  NbCampaignConfig config;
  NbObstacleShape wall;
  NbCourse course;
  guint touched = 0, n = 120;
  gboolean first_three_ok = TRUE;
  Watch w;

  options (&o, 7, "close");
  o.obstacle = "wooden wall";
  o.trials = n;
  g_assert_true (run_on (db, &o, sim, NULL, &w));
  g_assert_cmpuint (w.summary.run, ==, n + 3);
  c = nb_test_campaign_open_ro (db);
  trials = nb_test_campaign_trials (c, 7, "close", &config);
  g_assert_true (nb_obstacle_find ("wooden wall", 1, &wall));
  g_assert_true (nb_course_avoidance (450.0, &wall, 1, 0.0, &course, &error));
  for (guint i = 3; i < trials->len; i++)
    {
      NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      double truth = true_clearance (nb_runner_sim_base (sim), &course, t->start_time,
                                     t->start_time + t->time_s);

      g_assert_cmpstr (t->kind, ==, "obstacle");
      /* 7.1: the smallest clearance is kept with the trial (schema 6), the
       * true one to the tracker's 1 µm plus the base's own sampling. */
      nb_assert_abs (t->clearance_mm, truth, 5.0, "stored clearance");
      if (t->outcome == NB_TRIAL_FAILED)
        {
          touched++;
          g_assert_cmpfloat (t->clearance_mm, <=, 0.0);
          g_assert_true (g_str_has_prefix (t->reason, "touched the obstacle: clearance -"));
          g_assert_cmpfloat (truth, <=, 0.05);
          /* A failed trial still arrived: its time is kept, not counted. */
          g_assert_cmpfloat (t->time_s, >, 4.5);
        }
      else
        {
          g_assert_cmpint (t->outcome, ==, NB_TRIAL_OK);
          g_assert_cmpfloat (truth, >, -0.05);
        }
      if (t->number <= 3)
        first_three_ok = first_three_ok && t->outcome == NB_TRIAL_OK;
    }
  /* The baseline trials had no obstacle near: +inf kept. */
  g_assert_true (isinf (g_array_index (trials, NbCampaignTrial, 0).clearance_mm));
  /* 120 trials: 45 expected, σ 5.3; 4σ. */
  g_assert_cmpuint (touched, >=, 24);
  g_assert_cmpuint (touched, <=, 66);
  g_assert_cmpuint (w.summary.failed, ==, touched);
  g_assert_true (w.summary.figures.avoidance.passed == first_three_ok);
  nb_campaign_config_clear (&config);
  watch_clear (&w);
}

/* ------------------------------------------------------------ clause 9 -- */

/* w 450 (LU 500), the default passage 650 mm (100 mm a side): it slows to
 * 100/150 of its speed in it.  By hand: 1000 mm to the entrance (its front
 * at it) at 1000 mm/s, 2450 mm through (until its back leaves) at
 * 666.7 mm/s, 550 mm to PG: 1 + 3.675 + 0.55 = 5.225 s. */
static void
test_clause9_passage (void)
{
  g_autofree char *db = new_campaign ("passage", "450");
  g_autoptr (NbRunnerSim) sim = new_sim (9, NAN, NAN);
  g_autoptr (NbCampaign) c = NULL;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (GError) error = NULL;
  NbCampaignRunnerOptions o;
  NbCampaignConfig config;
  NbConfigResult fig;
  double sum = 0.0;
  Watch w;

  options (&o, 9, "no load");
  g_assert_true (run_on (db, &o, sim, NULL, &w));
  g_assert_cmpuint (w.summary.run, ==, 5);
  g_assert_cmpuint (w.summary.ok, ==, 5);
  g_assert_true (w.summary.figures.passage.passed);
  c = nb_test_campaign_open_ro (db);
  trials = nb_test_campaign_trials (c, 9, "no load", &config);
  g_assert_nonnull (strstr (config.parameters, "\"passage_width_mm\": 650"));
  g_assert_true (config.obstacle == NULL && config.behaviour == NULL);
  for (guint i = 0; i < 5; i++)
    {
      NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      Seen *ended = &g_array_index (w.events, Seen, 2 * i + 1);

      g_assert_true (t->kind == NULL);
      g_assert_cmpuint (t->number, ==, i + 1);
      assert_rel (t->time_s, 5.225, 0.04);
      assert_abs (ended->clearance_mm, 100.0, 9.0);
      sum += t->time_s;
    }
  assert_rel (w.summary.figures.passage.mean_time_s, sum / 5.0, 1e-12);
  assert_rel (w.summary.figures.passage.mean_time_s, 5.225, 0.02);
  memset (&fig, 0, sizeof fig);
  g_assert_true (nb_config_result_compute (c, &config, &fig, &error));
  g_assert_cmpfloat (fig.passage.mean_time_s, ==, w.summary.figures.passage.mean_time_s);
  nb_config_result_clear (&fig);
  nb_campaign_config_clear (&config);
  watch_clear (&w);
}

/* A passage narrower than the wander: 4 mm a side while the wander is at
 * least 4 mm (8·U, U ≥ ½) — every trial touches, the run goes on (a failed
 * trial is a result) and the configuration does not pass.  At 6 mm a side
 * P(contact) = P(8·U ≥ 6) = ½ — a rate the runner's verdicts must show. */
static void
test_clause9_narrow (void)
{
  g_autofree char *db = new_campaign ("narrow", "450");
  g_autoptr (NbRunnerSim) sim = new_sim (5, NAN, 1e-6);
  NbCampaignRunnerOptions o;
  guint touched = 0, n = 200;
  Watch w;

  options (&o, 9, "458");
  o.passage_width_mm = 458.0;
  g_assert_true (run_on (db, &o, sim, NULL, &w));
  g_assert_cmpuint (w.summary.run, ==, 5);
  g_assert_cmpuint (w.summary.failed, ==, 5);
  g_assert_false (w.summary.figures.passage.passed);
  g_assert_cmpuint (w.summary.figures.passage.failed_trials, ==, 5);
  g_assert_true (g_str_has_prefix (g_array_index (w.events, Seen, 1).reason,
                                   "touched a wall of the passage: clearance -"));
  /* Slowed to its slowest (0.3): 1 + 2450 / 300 + 0.55 s. */
  assert_rel (g_array_index (w.events, Seen, 1).time_s, 1.0 + 2450.0 / 300.0 + 0.55, 0.04);
  watch_clear (&w);

  options (&o, 9, "462");
  o.passage_width_mm = 462.0;
  o.trials = n;
  g_assert_true (run_on (db, &o, sim, NULL, &w));
  for (guint i = 0; i < w.events->len; i++)
    {
      Seen *s = &g_array_index (w.events, Seen, i);

      if (s->kind == NB_RUNNER_EVENT_TRIAL_ENDED)
        {
          touched += s->outcome == NB_TRIAL_FAILED;
          g_assert_true ((s->outcome == NB_TRIAL_FAILED) == (s->clearance_mm <= 0.0));
          assert_abs (s->clearance_mm, 0.0, 2.01);   /* 6 − 8·U ∈ [−2, 2] */
        }
    }
  /* 100 expected, σ 7.1; 4σ. */
  g_assert_cmpuint (touched, >=, 72);
  g_assert_cmpuint (touched, <=, 128);
  watch_clear (&w);
}

/* PG within the clause 5 repeatability: taken from the campaign's clause 5
 * straight configuration (Rp about PG moved by clause 5's barycentre offset,
 * Ro about its heading + Ao: nb_goal_reached), logged; a tolerance tighter than
 * the base's end-pose error fails every trial as "PG not reached". */
static void
test_goal_tolerance (void)
{
  g_autofree char *db = new_campaign ("tolerance", "450");
  g_autoptr (NbRunnerSim) sim = new_sim (3, NAN, NAN);
  NbCampaignRunnerOptions o;
  Watch w;

  /* No clause 5 yet and no tolerance given: refused. */
  nb_campaign_runner_options_init (&o);
  o.clause = 9;
  o.config = "p";
  g_assert_false (run_on (db, &o, sim, NULL, &w));
  g_assert_error (w.error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (w.error->message, "run clause 5 on the straight route first"));
  watch_clear (&w);

  nb_campaign_runner_options_init (&o);
  o.clause = 5;
  o.config = "pose";
  g_assert_true (run_on (db, &o, sim, NULL, &w));
  /* The base ends 3.6 mm off (bias 3, −2) ± 1.2: Ap + Rp ≈ 3.6 + 4. */
  g_assert_cmpfloat (w.summary.figures.pose.ap_mm + w.summary.figures.pose.rp_mm, >, 5.0);
  watch_clear (&w);

  nb_campaign_runner_options_init (&o);
  o.clause = 9;
  o.config = "p";
  g_assert_true (run_on (db, &o, sim, NULL, &w));
  g_assert_cmpuint (w.summary.run, ==, 5);
  g_assert_cmpuint (w.summary.ok, >=, 4);
  watch_clear (&w);
  /* The tolerance used is logged for the protocol: clause 5's 'pose'. */
  {
    g_autoptr (NbCampaign) c = nb_test_campaign_open_ro (db);
    g_autoptr (GArray) events = nb_campaign_list_events (c, NULL);
    NbGoalTolerance tol;
    gboolean found = FALSE;

    nb_goal_tolerance_init (&tol);
    for (guint i = 0; i < events->len; i++)
      {
        const NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);

        if (g_strcmp0 (e->what, NB_GOAL_TOLERANCE_EVENT) == 0 &&
            g_strcmp0 (e->subject, "clause 9, config 'p'") == 0)
          found = nb_goal_tolerance_from_json (e->new_value, &tol);
      }
    g_assert_true (found);
    g_assert_cmpstr (tol.config, ==, "pose");
    g_assert_false (tol.given_mm || tol.given_deg);
    /* The base's bias (3, −2) mm carried to PG; Rp of its ±1.2 mm scatter. */
    nb_assert_abs (tol.along_mm, 3.0, 1.0, "offset along");
    nb_assert_abs (tol.across_mm, -2.0, 1.0, "offset across");
    g_assert_cmpfloat (tol.rp_mm, >, 0.5);
    nb_goal_tolerance_clear (&tol);
  }

  /* 0.5 mm: tighter than the base's 3.6 mm bias. */
  options (&o, 9, "tight");
  o.goal_tolerance_mm = 0.5;
  g_assert_true (run_on (db, &o, sim, NULL, &w));
  g_assert_cmpuint (w.summary.failed, ==, 5);
  g_assert_true (g_str_has_prefix (g_array_index (w.events, Seen, 1).reason,
                                   "PG not reached: stopped "));
  watch_clear (&w);
}

/* ------------------------------------------------------------ clause 6 -- */

/* The six obstacles of table 2 at 4000 and 300 mm in 8 directions, seen by
 * the base's range sensor (reach 5000 mm, 270° field of view; nb-sim-base.h):
 * behind it (180°) nothing is seen; in view the wooden wall and the large
 * cylinder always are (p_far 1); the glass wall at 4000 mm with
 * probability 1 − 0.6 · 0.64 = 0.616 and at 300 mm 0.998 — 11.3 of its 14
 * expected.  Each range is the true one (× 1.01 for glass) plus noise of
 * σ = 5 mm + 0.5 % — so Σ z² / n ≈ 1 over the detections. */
static const double p_far[6] = { 1.0, 0.4, 0.95, 0.85, 1.0, 0.8 };

static void
test_clause6_detection (void)
{
  g_autofree char *db = new_campaign ("detection", "450");
  g_autoptr (NbRunnerSim) sim = new_sim (13, NAN, NAN);
  g_autoptr (NbCampaign) c = NULL;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (GError) error = NULL;
  const char *const *names = nb_obstacle_names ();
  NbCampaignRunnerOptions o;
  NbCampaignConfig config;
  NbConfigResult fig;
  double z2 = 0.0, sum_error = 0.0;
  guint detected = 0, glass = 0;
  Watch w;

  options (&o, 6, "six");
  o.min_range_mm = 300.0;
  o.max_range_mm = 4000.0;
  g_assert_true (run_on (db, &o, sim, NULL, &w));
  g_assert_cmpuint (w.summary.run, ==, 96);
  g_assert_cmpuint (w.events->len, ==, 192);
  c = nb_test_campaign_open_ro (db);
  trials = nb_test_campaign_trials (c, 6, "six", &config);
  g_assert_nonnull (strstr (config.parameters, "\"min_range_mm\": 300"));
  g_assert_cmpuint (trials->len, ==, 96);
  for (guint i = 0; i < 96; i++)
    {
      NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      guint k = i / 16, dir = (i % 16) / 2;
      gboolean max = i % 2 == 0;
      double truth = max ? 4000.0 : 300.0, bias = k == 1 ? 0.01 : 0.0;
      Seen *ended = &g_array_index (w.events, Seen, 2 * i + 1);

      /* 6.3: max then min, on the line of sight, then every 45° CCW. */
      g_assert_cmpuint (t->number, ==, i + 1);
      g_assert_cmpstr (t->label, ==, names[k]);
      g_assert_cmpstr (t->kind, ==, max ? "max" : "min");
      g_assert_cmpfloat (t->angle_deg, ==, 45.0 * dir);
      g_assert_cmpfloat (t->true_mm, ==, truth);
      g_assert_cmpint (t->outcome, ==, NB_TRIAL_OK);
      g_assert_cmpuint (ended->trial_id, ==, t->id);
      if (dir == 4)
        g_assert_false (t->detected);
      else if (p_far[k] == 1.0)
        g_assert_true (t->detected);
      if (!t->detected)
        {
          g_assert_true (isnan (t->measured_mm));
          continue;
        }
      {
        double sigma = 5.0 + 0.005 * truth, z = (t->measured_mm - truth * (1.0 + bias)) / sigma;

        g_assert_cmpfloat (fabs (z), <, 4.5);
        z2 += z * z;
        detected++;
        glass += k == 1;
        sum_error += 100.0 * fabs (t->measured_mm - truth) / truth;
      }
    }
  g_assert_cmpuint (glass, >=, 6);
  g_assert_cmpuint (glass, <=, 14);
  /* Σ z² / n: 1 ± 4·√(2/n). */
  assert_abs (z2 / detected, 1.0, 4.0 * sqrt (2.0 / detected));
  /* The figures: the same tally, computed apart. */
  g_assert_cmpuint (w.summary.figures.detection.all.placements, ==, 96);
  g_assert_cmpuint (w.summary.figures.detection.all.detected, ==, detected);
  assert_rel (nb_detection_tally_mean_accuracy_pct (&w.summary.figures.detection.all),
              100.0 - sum_error / detected, 1e-12);
  memset (&fig, 0, sizeof fig);
  g_assert_true (nb_config_result_compute (c, &config, &fig, &error));
  g_assert_cmpuint (fig.detection.all.detected, ==, detected);
  g_assert_cmpuint (fig.detection.obstacles->len, ==, 6);
  nb_config_result_clear (&fig);
  nb_campaign_config_clear (&config);
  watch_clear (&w);

  /* Each obstacle is placed once: a second run of the wall is refused. */
  o.obstacle = "wooden wall";
  g_assert_false (run_on (db, &o, sim, NULL, &w));
  g_assert_error (w.error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (w.error->message, "already holds the placements of the wooden wall"));
  watch_clear (&w);
  /* One obstacle into a new configuration: 16 placements. */
  options (&o, 6, "one");
  o.obstacle = "small cylinder";
  o.min_range_mm = 300.0;
  o.max_range_mm = 4000.0;
  g_assert_true (run_on (db, &o, sim, NULL, &w));
  g_assert_cmpuint (w.summary.run, ==, 16);
  watch_clear (&w);
}

/* ---------------------------------------------------------- bad input -- */

static void
expect_new_fails_on (const NbCampaignRunnerOptions *o, const NbRunnerRigOps *ops,
                     const char *what)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbRunnerSim) sim = new_sim (1, NAN, NAN);
  NbRunnerRig rig;
  NbCampaignRunner *r;

  nb_runner_sim_rig (sim, &rig);
  if (ops != NULL)
    rig.rig_ops = ops;
  r = nb_campaign_runner_new ("/nonexistent.nbc", o, &rig, &error);

  g_assert_null (r);
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  if (strstr (error->message, what) == NULL)
    g_error ("'%s' does not say '%s'", error->message, what);
}

static void
expect_new_fails (const NbCampaignRunnerOptions *o, const char *what)
{
  expect_new_fails_on (o, NULL, what);
}

static void
expect_run_fails (const char *db, const NbCampaignRunnerOptions *o,
                  const NbRunnerRigOps *ops, const char *what)
{
  g_autoptr (NbRunnerSim) sim = new_sim (1, NAN, NAN);
  Watch w;

  g_assert_false (run_on (db, o, sim, ops, &w));
  g_assert_error (w.error, NB_ERROR, NB_ERROR_INPUT);
  if (strstr (w.error->message, what) == NULL)
    g_error ("'%s' does not say '%s'", w.error->message, what);
  g_assert_cmpuint (w.summary.run, ==, 0);
  watch_clear (&w);
}

static void
test_bad_input (void)
{
  g_autofree char *db = new_campaign ("bad", "450");
  g_autofree char *nowidth = new_campaign ("nowidth", NULL);
  NbCampaignRunnerOptions o;

  options (&o, 7, "x");
  o.obstacle = "sofa";
  expect_new_fails (&o, "obstacle 'sofa' is not in table 2 (wooden wall, glass wall");
  o.obstacle = "wooden wall";
  o.behaviour = 2;
  expect_new_fails (&o, "behaviours 2 to 4 move a large or a small cylinder");
  o.behaviour = 5;
  expect_new_fails (&o, "behaviour 5: 1 (static at P1), 2 (crossing at 90°), 3 (crossing at 45°) "
                        "or 4 (head-on), 7.2");
  o.behaviour = 1;
  o.route = "rectangular";
  expect_new_fails (&o, "takes no route");
  options (&o, 9, "x");
  o.passage_width_mm = -3.0;
  expect_new_fails (&o, "passage width -3 mm");
  options (&o, 9, "x");
  o.goal_tolerance_mm = 0.0;
  expect_new_fails (&o, "goal tolerance");
  options (&o, 10, "x");
  o.route = "straight";
  expect_new_fails (&o, "clause 10 lays out its own course");
  options (&o, 6, "x");
  o.min_range_mm = 400.0;
  o.max_range_mm = 300.0;
  expect_new_fails (&o, "0 < minimum < maximum");
  o.max_range_mm = 4000.0;
  o.obstacle = "chair";
  expect_new_fails (&o, "obstacle 'chair' is not in table 2");
  o.obstacle = NULL;
  expect_new_fails_on (&o, manual_rig_ops (), "record them with campaign import");
  options (&o, 6, "x");
  expect_run_fails (db, &o, NULL, "give both");

  options (&o, 7, "x");
  expect_run_fails (db, &o, NULL, "clause 7 needs one of table 2");
  o.obstacle = "wooden wall";
  expect_run_fails (nowidth, &o, NULL, "robot.width_mm is not set");
  /* A rig that cannot place the obstacle runs the phases apart. */
  expect_new_fails_on (&o, manual_rig_ops (), "run phase baseline");
  o.obstacle = "small cylinder";
  o.behaviour = 2;
  o.phase = NB_AVOIDANCE_PHASE_OBSTACLE;
  expect_run_fails (db, &o, manual_rig_ops (), "needs three successful baseline trials first");
  /* Phase baseline on that rig, then the obstacle phase with another
   * obstacle than the configuration's is refused; with its own it runs. */
  o.phase = NB_AVOIDANCE_PHASE_BASELINE;
  {
    g_autoptr (NbRunnerSim) sim = new_sim (2, NAN, NAN);
    Watch w;

    g_assert_true (run_on (db, &o, sim, manual_rig_ops (), &w));
    g_assert_cmpuint (w.summary.run, ==, 3);
    g_assert_cmpstr (g_array_index (w.events, Seen, 1).trial_kind, ==, "baseline");
    watch_clear (&w);
  }
  o.phase = NB_AVOIDANCE_PHASE_OBSTACLE;
  o.obstacle = "large cylinder";
  expect_run_fails (db, &o, NULL, "is behaviour 2 with the small cylinder");
  options (&o, 9, "x");
  o.load_kg = 5.0;
  {
    g_autoptr (NbRunnerSim) sim = new_sim (2, NAN, NAN);
    Watch w;

    o.trials = 1;
    g_assert_true (run_on (db, &o, sim, NULL, &w));
    watch_clear (&w);
  }
  o.load_kg = NAN;
  o.passage_width_mm = 700.0;
  expect_run_fails (db, &o, NULL, "has a passage 650 mm wide, not 700 mm");
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = nb_test_make_dir ();
  g_test_add_func ("/courses/geometry", test_course_geometry);
  g_test_add_func ("/courses/clause7-wall", test_clause7_wall);
  g_test_add_func ("/courses/clause7-moving", test_clause7_moving);
  g_test_add_func ("/courses/clause7-contact", test_clause7_contact);
  g_test_add_func ("/courses/clause9-passage", test_clause9_passage);
  g_test_add_func ("/courses/clause9-narrow", test_clause9_narrow);
  g_test_add_func ("/courses/goal-tolerance", test_goal_tolerance);
  g_test_add_func ("/courses/clause6-detection", test_clause6_detection);
  g_test_add_func ("/courses/bad-input", test_bad_input);
  rc = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return rc;
}
