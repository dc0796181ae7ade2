/* test-runner-http — `campaign run --robot http://…` against `navbench-cli
 * serve --base`, measured by a live instrument over loopback
 *
 * The served robot is the simulated mobile base under the arm (serve
 * --base: MoveToPose in frame map drives it, GET /robot/state gives its
 * pose).  The test is the lab's GNSS receiver: a thread reads the served
 * base's pose (GET /robot/state) at RATE_HZ, adds the receiver's own error
 * (ANTENNA_*: an offset the bench does not know of, so a figure computed
 * from anything but the stream would miss it) and sends it as NMEA GGA +
 * HDT over TCP in real time.  The runner drives the base through the HTTP
 * API (the return to P0, then the route, per trial) and measures it through
 * NbDevice (the nmea driver).  The base rests exactly after each goal, so
 * every attained pose the run stores must be one the receiver sent, to
 * NMEA's encoding (1e-8 minute ≈ 0.02 mm, HDT 1e-4°); the clause 5 figures
 * then equal nb_metrics_pose on the sent rests, and clause 8's d_i that of
 * the sent track.  Each trial's sample rate, recorded with it, is the
 * receiver's.
 */
#include "nb-test.h"
#include "nb-test-campaign.h"
#include "nb-test-cli.h"
#include "nb-test-player.h"
#include "nb-test-tmp.h"

#include "nb-campaign-results.h"
#include "nb-course.h"
#include "nb-http-robot.h"
#include "nb-map-file.h"
#include "nb-map-gen.h"
#include "nb-metrics.h"
#include "nb-sim-base.h"
#include "nb-traj.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#define RATE_HZ 25.0
/* The receiver may stall for a second on the loaded machine (its thread,
 * the server's): these tests are not about instrument loss (1 s by
 * default; test-runner-live is), so a trial is not ended for it. */
#define LOSS "loss-timeout=5"
/* The receiver's error: its antenna 21 mm ahead and 13 mm left of the
 * point the base reports, its heading 0.35° more. */
#define ANTENNA_X_MM 21.0
#define ANTENNA_Y_MM 13.0
#define ANTENNA_DEG 0.35
/* LU 500 mm (width 400 mm): the straight route's P1 is 2500 mm ahead. */
#define P1_MM 2500.0

static char *tmpdir;

typedef struct {
  double t_s;                   /* monotonic, s */
  NbPose pose;                  /* as sent (the test-area frame) */
} Sent;

typedef struct {
  NbHttpRobot *robot;
  double rate_hz;
  GSocketListener *listener;
  GCancellable *cancel;         /* wakes a receiver waiting in accept */
  volatile gint stop;
  GMutex lock;
  GArray *sent;                 /* of Sent */
  GError *error;                /* the robot's state could not be read */
} Receiver;

/* The base's pose as the receiver sees it. */
static gboolean
observe (Receiver *r, NbPose *out, GError **error)
{
  NbRobotState st;
  double th;

  if (!nb_http_robot_state (r->robot, &st, error))
    return FALSE;
  g_assert_true (st.has_base);
  g_assert_cmpstr (st.base_frame_id, ==, "map");
  th = 2.0 * atan2 (st.base_orientation[2], st.base_orientation[3]);
  *out = (NbPose) { st.base_position[0] * 1000.0 + ANTENNA_X_MM * cos (th) - ANTENNA_Y_MM * sin (th),
                    st.base_position[1] * 1000.0 + ANTENNA_X_MM * sin (th) + ANTENNA_Y_MM * cos (th),
                    th * 180.0 / G_PI + ANTENNA_DEG };
  return TRUE;
}

static gpointer
receiver (gpointer data)
{
  Receiver *r = data;
  gint64 t0 = g_get_monotonic_time ();

  while (!g_atomic_int_get (&r->stop))
    {
      g_autoptr (GSocketConnection) conn = g_socket_listener_accept (r->listener, NULL,
                                                                     r->cancel, NULL);
      GOutputStream *out;

      if (conn == NULL)
        return NULL;
      out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
      for (guint64 k = 0; !g_atomic_int_get (&r->stop); k++)
        {
          gint64 period = (gint64) (G_USEC_PER_SEC / r->rate_hz), now = g_get_monotonic_time ();
          gint64 at = t0 + (gint64) k * period;
          g_autofree char *fix = NULL;
          Sent s;

          /* A fix a period: a receiver that stalled (its thread, the
           * server's) drops the fixes it missed, as a real one does, and
           * sends the one of the period it is in.  Sending them all at once
           * after the stall gave a trial 31.5 fixes/s of 25 (runner-http
           * /nmea-tcp-clause5 under ASan at load 21). */
          if (now - at >= period)
            k = (guint64) ((now - t0) / period);
          else if (at > now)
            g_usleep ((gulong) (at - now));
          if (!observe (r, &s.pose, r->error == NULL ? &r->error : NULL))
            return NULL;
          s.t_s = g_get_monotonic_time () / 1e6;
          fix = nb_test_nmea_fix ((s.t_s - t0 / 1e6), s.pose.x_mm, s.pose.y_mm, s.pose.theta_deg);
          if (!g_output_stream_write_all (out, fix, strlen (fix), NULL, NULL, NULL))
            break;
          g_mutex_lock (&r->lock);
          g_array_append_val (r->sent, s);
          g_mutex_unlock (&r->lock);
        }
    }
  return NULL;
}

static char *
new_campaign (const char *name)
{
  char *db = g_strdup_printf ("%s/%s.nbc", tmpdir, name);

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name", name,
                           "robot.width_mm=400", NULL));
  return db;
}

/* The rests the receiver sent near P1 in order: runs of equal poses, each
 * once (the base stands still after a goal, so its pose repeats). */
static GArray *
rests_near_p1 (const GArray *sent)
{
  GArray *rests = g_array_new (FALSE, FALSE, sizeof (NbPose));

  for (guint i = 1; i < sent->len; i++)
    {
      const NbPose *a = &g_array_index (sent, Sent, i - 1).pose;
      const NbPose *b = &g_array_index (sent, Sent, i).pose;
      const NbPose *last = rests->len ? &g_array_index (rests, NbPose, rests->len - 1) : NULL;

      if (fabs (b->x_mm - P1_MM) > 200.0 || fabs (b->y_mm) > 200.0 ||
          hypot (a->x_mm - b->x_mm, a->y_mm - b->y_mm) > 1e-6 ||
          fabs (a->theta_deg - b->theta_deg) > 1e-9)
        continue;
      if (last == NULL || hypot (last->x_mm - b->x_mm, last->y_mm - b->y_mm) > 1e-6)
        g_array_append_val (rests, *b);
    }
  return rests;
}

typedef struct {
  NbTestServer server;
  Receiver r;
  GThread *thread;
  char *url;
} Bench;

/* time_scale: wall s per simulated s (0.1: a clause 5 trial, back to P0
 * and 2.5 m out, is ~1 s of wall). */
static void
bench_start (Bench *b, const char *time_scale)
{
  g_autoptr (GError) error = NULL;
  guint16 port;

  b->r.rate_hz = RATE_HZ;
  b->server = nb_test_serve ("--base", "--time-scale", time_scale, "--seed", "7", NULL);
  b->r.robot = nb_http_robot_new (b->server.url, NULL, 30, &error);
  g_assert_no_error (error);
  b->r.listener = g_socket_listener_new ();
  b->r.cancel = g_cancellable_new ();
  port = g_socket_listener_add_any_inet_port (b->r.listener, NULL, &error);
  g_assert_no_error (error);
  b->url = g_strdup_printf ("tcp://127.0.0.1:%u", port);
  b->r.sent = g_array_new (FALSE, FALSE, sizeof (Sent));
  g_mutex_init (&b->r.lock);
  b->thread = g_thread_new ("receiver", receiver, &b->r);
}

static void
bench_stop (Bench *b)
{
  g_atomic_int_set (&b->r.stop, 1);
  /* The run over, the receiver may already wait for the next connection:
   * closing the listener does not wake a thread in accept, cancelling does
   * (else the test hangs when the receiver saw the run's end first). */
  g_cancellable_cancel (b->r.cancel);
  g_thread_join (b->thread);
  g_socket_listener_close (b->r.listener);
  g_clear_object (&b->r.cancel);
  g_assert_no_error (b->r.error);
  g_clear_object (&b->r.listener);
  nb_http_robot_free (b->r.robot);
  nb_test_server_stop (&b->server);
  g_mutex_clear (&b->r.lock);
}

static void
bench_clear (Bench *b)
{
  g_array_unref (b->r.sent);
  g_free (b->url);
  g_free (b->server.url);
}

/* ------------------------------------------------------ the fixture -- */

/* What every loopback run sets up: a new campaign named after the test,
 * the bench (the served base and the receiver, at the time scale the test
 * is added with), and what the test reads back of the file. */
typedef struct {
  char *db;
  Bench b;
  gboolean stopped;
  NbCampaign *c;                /* read-only, after the run */
  NbCampaignConfig config;
  GArray *trials;
  NbConfigResult fig;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer time_scale)
{
  memset (f, 0, sizeof *f);
  f->db = new_campaign (strrchr (g_test_get_path (), '/') + 1);
  bench_start (&f->b, time_scale);
}

static void
fixture_teardown (Fixture *f, gconstpointer time_scale)
{
  nb_config_result_clear (&f->fig);
  g_clear_pointer (&f->trials, g_array_unref);
  nb_campaign_config_clear (&f->config);
  g_clear_pointer (&f->c, nb_campaign_free);
  if (!f->stopped)
    bench_stop (&f->b);
  bench_clear (&f->b);
  g_free (f->db);
}

/* `campaign run --db DB ARGS… --robot URL --instrument nmea --url URL` with
 * the test area's origin and the loss timeout, against the bench; it must
 * exit `expect`.  Returns stdout, stderr in *err when err is not NULL. */
static char *
fixture_run (Fixture *f, int expect, char **err, const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  const char *const common[] = { "--robot", f->b.server.url, "--instrument", "nmea", "--url",
                                 f->b.url, "--set", "origin=" NB_TEST_ORIGIN_TEXT, "--set",
                                 LOSS };
  va_list ap;

  g_ptr_array_add (argv, "campaign");
  g_ptr_array_add (argv, "run");
  g_ptr_array_add (argv, "--db");
  g_ptr_array_add (argv, f->db);
  va_start (ap, first);
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  for (guint i = 0; i < G_N_ELEMENTS (common); i++)
    g_ptr_array_add (argv, (gpointer) common[i]);
  g_ptr_array_add (argv, NULL);
  return nb_test_cli_runv (NULL, expect, err, (const char *const *) argv->pdata);
}

/* The run over: the receiver stopped (every fix it sent in b.r.sent). */
static void
fixture_stop (Fixture *f)
{
  bench_stop (&f->b);
  f->stopped = TRUE;
}

/* The configuration's trials as stored, in order (the file opened
 * read-only, the configuration in f->config). */
static GArray *
fixture_trials (Fixture *f, guint clause, const char *config)
{
  f->c = nb_test_campaign_open_ro (f->db);
  f->trials = nb_test_campaign_trials (f->c, clause, config, &f->config);
  return f->trials;
}

/* The configuration's figures computed from the file, in f->fig. */
static NbConfigResult *
fixture_figures (Fixture *f)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_config_result_compute (f->c, &f->config, &f->fig, &error));
  g_assert_no_error (error);
  return &f->fig;
}

/* Each trial's sample rate as the runner recorded it ("trial measured"),
 * against the receiver's. */
static void
assert_rates (NbCampaign *c, guint n_trials)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) log = nb_campaign_list_events (c, &error);
  guint seen = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < log->len; i++)
    {
      const NbCampaignEvent *e = &g_array_index (log, NbCampaignEvent, i);
      g_autoptr (JsonParser) p = NULL;
      JsonObject *o;

      if (!g_str_equal (e->what, "trial measured"))
        continue;
      p = json_parser_new ();
      o = nb_test_parse_object (p, e->new_value);
      /* Scheduling on a loaded machine stretches the receiver's period. */
      g_assert_cmpfloat (json_object_get_double_member (o, "rate_hz"), >, 0.4 * RATE_HZ);
      g_assert_cmpfloat (json_object_get_double_member (o, "rate_hz"), <, 1.2 * RATE_HZ);
      seen++;
    }
  g_assert_cmpuint (seen, ==, n_trials);
}

/* Clause 5: the attained poses are the receiver's rests, the figures
 * theirs. */
/* Clauses 5 and 8 ask the operator nothing when the bench drives the
 * robot: no --prompts, and the test's standard input is not a terminal
 * (g_spawn_sync gives /dev/null), so the run needs none. */
static void
test_clause5 (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL;
  g_autoptr (GArray) rests = NULL;
  g_autoptr (GError) error = NULL;
  GArray *trials;
  NbConfigResult *fig;
  NbPoseResult want;
  NbPose attained[3];
  const NbPose command = { P1_MM, 0.0, 0.0 };

  out = fixture_run (f, 0, NULL, "--clause", "5", "--config", "http", "--trials", "3", "--json",
                     NULL);
  fixture_stop (f);

  rests = rests_near_p1 (f->b.r.sent);
  g_test_message ("%u fixes sent, %u rests near P1", f->b.r.sent->len, rests->len);
  trials = fixture_trials (f, 5, "http");
  for (guint i = 0; i < trials->len; i++)
    g_test_message ("trial %u: %s %s", i + 1,
                    nb_trial_outcome_to_string (g_array_index (trials, NbCampaignTrial, i).outcome),
                    g_array_index (trials, NbCampaignTrial, i).reason
                    ? g_array_index (trials, NbCampaignTrial, i).reason : "");
  g_assert_cmpuint (trials->len, ==, 3);
  /* Each trial rested at P1 once (the run ends there). */
  g_assert_cmpuint (rests->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      const NbPose *sent = &g_array_index (rests, NbPose, i);

      g_assert_cmpint (t->outcome, ==, NB_TRIAL_OK);
      nb_assert_abs (t->attained.x_mm, sent->x_mm, 0.05, "attained x = sent");
      nb_assert_abs (t->attained.y_mm, sent->y_mm, 0.05, "attained y = sent");
      nb_assert_abs (t->attained.theta_deg, sent->theta_deg, 1e-3, "attained θ = sent");
      attained[i] = *sent;
    }
  fig = fixture_figures (f);
  g_assert_null (fig->error);
  g_assert_true (nb_metrics_pose (&command, attained, 3, &want, &error));
  nb_assert_abs (fig->pose.ap_mm, want.ap_mm, 0.05, "Ap = from the sent rests");
  nb_assert_abs (fig->pose.rp_mm, want.rp_mm, 0.1, "Rp = from the sent rests");
  nb_assert_abs (fig->pose.ao_deg, want.ao_deg, 1e-3, "Ao = from the sent rests");
  nb_assert_abs (fig->pose.ro_deg, want.ro_deg, 1e-3, "Ro = from the sent rests");
  assert_rates (f->c, 3);
}

static gboolean
collect (const NbTrackSample *samples, gsize n, gpointer data, GError **error)
{
  g_array_append_vals (data, samples, (guint) n);
  return TRUE;
}

/* Clause 8: every stored sample of the track is one the receiver sent;
 * d_i equals that of the sent poses. */
static void
test_clause8 (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  GArray *trials;
  NbConfigResult *fig;

  out = fixture_run (f, 0, NULL, "--clause", "8", "--config", "http", "--trials", "2", "--json",
                     NULL);
  fixture_stop (f);

  trials = fixture_trials (f, 8, "http");
  g_assert_cmpuint (trials->len, ==, 2);
  fig = fixture_figures (f);
  g_assert_null (fig->error);
  for (guint i = 0; i < 2; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      g_autoptr (GArray) samples = g_array_new (FALSE, FALSE, sizeof (NbTrackSample));
      NbSegment seg;
      NbPathTrial pt, own;
      guint from = 0;

      g_assert_cmpint (t->outcome, ==, NB_TRIAL_OK);
      g_assert_true (nb_campaign_foreach_samples (f->c, t->id, collect, samples, &error));
      g_assert_cmpuint (samples->len, >, 10);
      g_assert_true (nb_segment_init (&seg, f->config.from_mm[0], f->config.from_mm[1],
                                      f->config.to_mm[0], f->config.to_mm[1], &error));
      nb_path_trial_init (&pt);
      nb_path_trial_init (&own);
      /* In order, each stored sample is a sent pose; d_i over those, and
       * over the base's own (the sent ones less the antenna). */
      for (guint k = 0; k < samples->len; k++)
        {
          const NbTrackSample *s = &g_array_index (samples, NbTrackSample, k);
          const NbPose *p = NULL;

          for (; from < f->b.r.sent->len && p == NULL; from++)
            {
              const NbPose *q = &g_array_index (f->b.r.sent, Sent, from).pose;

              if (hypot (q->x_mm - s->x_mm, q->y_mm - s->y_mm) < 0.05 &&
                  fabs (q->theta_deg - s->theta_deg) < 1e-3)
                p = q;
            }
          g_assert_nonnull (p);
          nb_path_trial_push (&pt, &seg, p->x_mm, p->y_mm);
          {
            double th = (p->theta_deg - ANTENNA_DEG) * G_PI / 180.0;

            nb_path_trial_push (&own, &seg,
                                p->x_mm - ANTENNA_X_MM * cos (th) + ANTENNA_Y_MM * sin (th),
                                p->y_mm - ANTENNA_X_MM * sin (th) - ANTENNA_Y_MM * cos (th));
          }
        }
      nb_assert_abs (fig->d_mm[i], pt.d_mm, 0.05, "d_i = of the sent track");
      /* Not the base's own track's: the antenna's 13 mm to the left moves
       * every sample (with the base within 13 mm of the route, the
       * deviation of largest magnitude is then 13 mm + its largest to the
       * left, against its own largest either way). */
      g_test_message ("trial %u: d_i %.2f mm (the base's own track: %.2f mm), %u samples", i + 1,
                      fig->d_mm[i], own.d_mm, samples->len);
      g_assert_cmpfloat (fabs (fig->d_mm[i] - own.d_mm), >, ANTENNA_Y_MM - 1.0);
    }
  assert_rates (f->c, 2);
}


/* ------------------------------------------- clauses 6, 7, 9, 10 -- */

/* The served base's drive of a straight leg of length mm, on the served
 * clock (time scale applied), as the simulated base's model makes it:
 * at its rated speed (the turns on the spot before and after are under
 * 1°: the base rests within a few mm and tenths of a degree of P0). */
static double
drive_s (double mm, double time_scale)
{
  NbSimBaseModel m;

  nb_sim_base_model_default (&m);
  return time_scale * mm / m.speed_mm_s;
}

/* The prompts of the log ("operator prompt"), in order. */
static GPtrArray *
prompts_of (NbCampaign *c, GArray **events)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *out = g_ptr_array_new ();

  *events = nb_campaign_list_events (c, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < (*events)->len; i++)
    if (g_str_equal (g_array_index (*events, NbCampaignEvent, i).what, "operator prompt"))
      g_ptr_array_add (out, &g_array_index (*events, NbCampaignEvent, i));
  return out;
}

/* A file of answers, one a line. */
static char *
answers_file (const char *name, const char *const *lines, guint n)
{
  g_autoptr (GString) text = g_string_new ("# the operator's answers\n");
  g_autoptr (GError) error = NULL;
  char *path = g_strdup_printf ("%s/%s", tmpdir, name);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s\n", lines[i]);
  g_assert_true (g_file_set_contents (path, text->str, -1, &error));
  return path;
}

/* The smallest clearance over a trial's stored samples (the sent poses,
 * /runner-http/nmea-tcp-clause8) to what the course holds. */
static double
stored_clearance (NbCampaign *c, const NbCampaignTrial *t, const NbCourse *course)
{
  g_autoptr (GArray) samples = g_array_new (FALSE, FALSE, sizeof (NbTrackSample));
  g_autoptr (GError) error = NULL;
  double min = INFINITY;

  g_assert_true (nb_campaign_foreach_samples (c, t->id, collect, samples, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (samples->len, >, 10);
  for (guint k = 0; k < samples->len; k++)
    {
      const NbTrackSample *s = &g_array_index (samples, NbTrackSample, k);

      min = MIN (min, nb_course_clearance_mm (course, s->t_s - t->start_time,
                                              s->x_mm, s->y_mm));
    }
  return min;
}

/* Moves the served base away from P0 (1 m, 0.5 m, 90°), so that a run
 * that needs it at P0 must send it there. */
static void
base_away (Bench *b)
{
  const double position[3] = { 1.0, 0.5, 0.0 };
  const double orientation[4] = { 0.0, 0.0, sin (G_PI / 4.0), cos (G_PI / 4.0) };
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_http_robot_ops ()->move_to_pose (b->r.robot, "map", position, orientation,
                                                     NULL, &error));
  g_assert_no_error (error);
}

/* The served base stands at P0 (its model's errors: within 50 mm, 3°). */
static void
assert_base_at_p0 (Bench *b)
{
  g_autoptr (GError) error = NULL;
  NbRobotState st;

  g_assert_true (nb_http_robot_state (b->r.robot, &st, &error));
  g_assert_no_error (error);
  g_assert_false (st.base_moving);
  nb_assert_abs (st.base_position[0] * 1000.0, 0.0, 50.0, "base at P0: x");
  nb_assert_abs (st.base_position[1] * 1000.0, 0.0, 50.0, "base at P0: y");
  nb_assert_abs (2.0 * atan2 (st.base_orientation[2], st.base_orientation[3]) * 180.0 / G_PI,
                 0.0, 3.0, "base at P0: heading");
}

/* Clause 7 over HTTP: the baseline (no obstacle: not asked about a
 * contact), the operator asked to place the wooden table at P1, then the
 * trials with it.  The served base has no obstacle in its world and
 * drives straight through where the table stands: every trial with it
 * touches (clearance ≤ 0, the operator says so), the configuration is not
 * passed; T0 is the base's drive of 9 LU. */
static void
test_clause7 (Fixture *f, gconstpointer data)
{
  static const char *const answers[] = { "yes", "yes", "yes", "yes" };
  g_autofree char *file = answers_file ("answers-7.txt", answers, G_N_ELEMENTS (answers));
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GArray) events = NULL;
  g_autoptr (GPtrArray) log = NULL;
  g_autoptr (GError) error = NULL;
  GArray *trials;
  NbConfigResult *fig;
  NbObstacleShape table;
  NbCourse course;
  double t0 = 0.0;
  guint line = 1;

  /* 25 fixes/s at a tenth of real time: a fix every 400 mm of the drive
   * (800 mm when the loaded machine halves the rate), so some fix puts the
   * robot's disc (400 mm) over the table (600 mm deep): contact.  No
   * --prompts, no terminal: clause 7 asks the operator, so it is refused
   * before anything moves. */
  out = fixture_run (f, 2, &err, "--clause", "7", "--config", "b1", "--obstacle", "wooden table",
                     "--goal-tolerance-mm", "100", "--goal-tolerance-deg", "5", NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "clause 7 asks the operator to place the obstacle and whether "
                                 "the robot touched it (7.3), and standard input is not a "
                                 "terminal"));
  g_clear_pointer (&out, g_free);
  out = fixture_run (f, 0, NULL, "--clause", "7", "--config", "b1", "--obstacle", "wooden table",
                     "--goal-tolerance-mm", "100", "--goal-tolerance-deg", "5", "--prompts", file,
                     "--json", NULL);
  fixture_stop (f);

  trials = fixture_trials (f, 7, "b1");
  g_assert_cmpuint (trials->len, ==, 6);
  g_assert_true (nb_obstacle_find ("wooden table", 1, &table));
  g_assert_true (nb_course_avoidance (400.0, &table, 1, 0.0, &course, &error));
  for (guint i = 0; i < 6; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      g_test_message ("trial %u %s: %s, %.3f s, clearance %.1f mm", i + 1, t->kind,
                      nb_trial_outcome_to_string (t->outcome), t->time_s, t->clearance_mm);
      g_assert_cmpstr (t->kind, ==, i < 3 ? "baseline" : "obstacle");
      g_assert_cmpuint (t->number, ==, i % 3 + 1);
      /* The drive of 9 LU (4500 mm) on the served clock: never shorter,
       * at most 3 s of HTTP and scheduling longer on a loaded machine
       * (not 4.5 s: a time on the served clock unscaled would be). */
      g_assert_cmpfloat (t->time_s, >=, 0.99 * drive_s (9 * 500.0, 0.1));
      g_assert_cmpfloat (t->time_s, <, drive_s (9 * 500.0, 0.1) + 3.0);
      if (i < 3)
        {
          /* Nothing on the course: nothing near, PG reached. */
          g_assert_cmpint (t->outcome, ==, NB_TRIAL_OK);
          g_assert_true (isinf (t->clearance_mm));
          nb_assert_abs (t->attained.x_mm, 4500.0, 100.0, "attained at PG");
          t0 += t->time_s / 3.0;
          continue;
        }
      /* Through the table: the clearance is that of the stored track to
       * the table where the course puts it, ≤ 0 (the robot's disc over it). */
      nb_assert_abs (t->clearance_mm, stored_clearance (f->c, t, &course), 1e-9,
                     "clearance = of the stored track");
      g_assert_cmpfloat (t->clearance_mm, <=, 0.0);
      g_assert_cmpint (t->outcome, ==, NB_TRIAL_FAILED);
      g_assert_true (g_str_has_prefix (t->reason, "touched the obstacle: clearance -"));
    }
  fig = fixture_figures (f);
  nb_assert_abs (fig->avoidance.t0_s, t0, 1e-9, "T0 = the baseline's mean time");
  g_assert_false (fig->avoidance.passed);
  /* The prompts: the placing, then a contact per trial with the obstacle
   * (none for the baseline), each answered by the file's line. */
  log = prompts_of (f->c, &events);
  g_assert_cmpuint (log->len, ==, 4);
  for (guint i = 0; i < log->len; i++)
    {
      const NbCampaignEvent *e = g_ptr_array_index (log, i);
      g_autofree char *who = g_strdup_printf ("operator (%s:%u)", file, ++line);

      g_assert_cmpstr (e->who, ==, who);
      g_assert_cmpstr (e->new_value, ==, "yes");
      if (i == 0)
        g_assert_true (g_str_has_prefix (e->subject, "Place the wooden table for behaviour 1 at "
                                                     "P1 (2250 mm along the route; 7.3 a)"));
      else
        {
          g_autofree char *q = g_strdup_printf ("Trial %u: did the robot touch the obstacle? "
                                                "(measured clearance -", i + 3);

          g_assert_true (g_str_has_prefix (e->subject, q));
          g_assert_cmpstr (e->old_value, ==, "yes");   /* the measurement proposed it */
        }
    }
}

/* Clause 9 over HTTP: the operator asked to set up the passage (600 mm,
 * the default robot width + 200 mm), then the trials through it; the
 * served base drives the 8 LU straight, its clearance to the walls that of
 * the stored track (100 mm less the receiver's 13 mm offset and the base's
 * wander), the passage time its drive. */
static void
test_clause9 (Fixture *f, gconstpointer data)
{
  static const char *const answers[] = { "yes", "no", "no" };
  g_autofree char *file = answers_file ("answers-9.txt", answers, G_N_ELEMENTS (answers));
  g_autofree char *out = NULL;
  g_autoptr (GArray) events = NULL;
  g_autoptr (GPtrArray) log = NULL;
  g_autoptr (GError) error = NULL;
  GArray *trials;
  NbCourse course;

  out = fixture_run (f, 0, NULL, "--clause", "9", "--config", "p", "--trials", "2",
                     "--goal-tolerance-mm", "100", "--goal-tolerance-deg", "5", "--prompts", file,
                     "--json", NULL);
  fixture_stop (f);

  trials = fixture_trials (f, 9, "p");
  g_assert_cmpuint (trials->len, ==, 2);
  g_assert_true (nb_course_passage (400.0, 600.0, &course, &error));
  for (guint i = 0; i < 2; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      g_test_message ("trial %u: %s, %.3f s, clearance %.1f mm", i + 1,
                      nb_trial_outcome_to_string (t->outcome), t->time_s, t->clearance_mm);
      g_assert_cmpint (t->outcome, ==, NB_TRIAL_OK);
      g_assert_cmpfloat (t->time_s, >=, 0.99 * drive_s (8 * 500.0, 0.1));
      g_assert_cmpfloat (t->time_s, <, drive_s (8 * 500.0, 0.1) + 3.0);
      nb_assert_abs (t->clearance_mm, stored_clearance (f->c, t, &course), 1e-9,
                     "clearance = of the stored track");
      /* 100 mm each side, less the antenna's 13 mm and the base's wander
       * (8 mm) and end-pose errors (a few mm). */
      g_assert_cmpfloat (t->clearance_mm, >, 100.0 - 13.0 - 8.0 - 15.0);
      g_assert_cmpfloat (t->clearance_mm, <, 100.0);
      nb_assert_abs (t->attained.x_mm, 4000.0, 100.0, "attained at PG");
    }
  log = prompts_of (f->c, &events);
  g_assert_cmpuint (log->len, ==, 3);
  g_assert_true (g_str_has_prefix (((const NbCampaignEvent *) g_ptr_array_index (log, 0))->subject,
                                   "Set up the passage of clause 9 'p': two walls 600 mm apart "
                                   "(9.2), from 1200 to 3200 mm along the route from P0 to PG "
                                   "(4000 mm)"));
  for (guint i = 1; i < 3; i++)
    {
      const NbCampaignEvent *e = g_ptr_array_index (log, i);
      g_autofree char *q = g_strdup_printf ("Trial %u: did the robot touch a wall of the "
                                            "passage? (measured clearance ", i);

      g_assert_true (g_str_has_prefix (e->subject, q));
      g_assert_cmpstr (e->old_value, ==, "no");
      g_assert_cmpstr (e->new_value, ==, "no");
    }
}

/* Clause 6 over HTTP: the motion API moves the robot but does not say
 * what its range sensor sees.  The base (moved away first) is sent to P0;
 * for each of the 16 placements the operator is asked to put the large
 * cylinder there and what range the robot reports ("no": not detected);
 * the figures are those of the answers: mean error = the mean of
 * |reported − declared| / declared over the detected ones. */
static void
test_clause6 (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL, *err = NULL, *file = NULL;
  g_autoptr (GPtrArray) answers = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) events = NULL;
  g_autoptr (GPtrArray) log = NULL;
  GArray *trials;
  NbConfigResult *fig;
  double reported[NB_DETECTION_PLACEMENTS], sum_pct = 0.0;
  guint detected = 0;

  for (guint k = 0; k < NB_DETECTION_PLACEMENTS; k++)
    {
      gboolean max = k % 2 == 0;
      double declared = max ? 2000.0 : 400.0;

      /* Placement 4 (the minimum range at 45°) and 11 not seen; the others
       * 0.5 % × their number too far. */
      reported[k] = k == 3 || k == 10 ? NAN : declared * (1.0 + 0.005 * (k + 1));
      g_ptr_array_add (answers, g_strdup ("yes"));
      g_ptr_array_add (answers, isnan (reported[k]) ? g_strdup ("no")
                                                    : g_strdup_printf ("%.2f", reported[k]));
      if (!isnan (reported[k]))
        {
          detected++;
          sum_pct += 100.0 * 0.005 * (k + 1);
        }
    }
  file = answers_file ("answers-6.txt", (const char *const *) answers->pdata, answers->len);
  base_away (&f->b);
  /* A real robot's declared ranges are given: the simulated base's are
   * not taken for them. */
  out = fixture_run (f, 2, &err, "--clause", "6", "--config", "cyl", "--obstacle",
                     "large cylinder", "--prompts", file, NULL);
  g_assert_nonnull (strstr (err, "declares (6.3): give both"));
  g_clear_pointer (&out, g_free);
  out = fixture_run (f, 0, NULL, "--clause", "6", "--config", "cyl", "--obstacle",
                     "large cylinder", "--min-range-mm", "400", "--max-range-mm", "2000",
                     "--prompts", file, "--json", NULL);
  /* Sent to P0 over HTTP (it stood 1.1 m away, turned by 90°). */
  assert_base_at_p0 (&f->b);
  fixture_stop (f);

  trials = fixture_trials (f, 6, "cyl");
  g_assert_cmpuint (trials->len, ==, NB_DETECTION_PLACEMENTS);
  for (guint k = 0; k < NB_DETECTION_PLACEMENTS; k++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, k);

      g_assert_cmpstr (t->label, ==, "large cylinder");
      g_assert_cmpstr (t->kind, ==, k % 2 == 0 ? "max" : "min");
      g_assert_cmpfloat (t->angle_deg, ==, 45.0 * (k / 2));
      g_assert_cmpfloat (t->true_mm, ==, k % 2 == 0 ? 2000.0 : 400.0);
      g_assert_cmpint (t->detected, ==, !isnan (reported[k]));
      if (isnan (reported[k]))
        g_assert_true (isnan (t->measured_mm));
      else
        nb_assert_abs (t->measured_mm, reported[k], 0.005, "the robot's report as answered");
    }
  fig = fixture_figures (f);
  g_assert_cmpuint (fig->detection.all.placements, ==, 16);
  g_assert_cmpuint (fig->detection.all.detected, ==, 14);
  nb_assert_abs (nb_detection_tally_mean_error_pct (&fig->detection.all), sum_pct / detected,
                 1e-3, "mean error from the answers");
  /* Every answer in the log: placed, then the report, from the file's lines. */
  log = prompts_of (f->c, &events);
  g_assert_cmpuint (log->len, ==, 2 * NB_DETECTION_PLACEMENTS);
  for (guint i = 0; i < log->len; i++)
    {
      const NbCampaignEvent *e = g_ptr_array_index (log, i);
      g_autofree char *who = g_strdup_printf ("operator (%s:%u)", file, i + 2);
      g_autofree char *q = i % 2 == 0
        ? g_strdup_printf ("Placement %u/16: put the large cylinder %s mm from the robot's "
                           "centre to its face (the %s range), %.0f° counter-clockwise", i / 2 + 1,
                           i / 2 % 2 == 0 ? "2000" : "400", i / 2 % 2 == 0 ? "maximum"
                                                                          : "minimum",
                           45.0 * (i / 4))
        : g_strdup_printf ("Placement %u: the range at which the robot reports the large "
                           "cylinder, mm", i / 2 + 1);

      g_assert_cmpstr (e->who, ==, who);
      g_assert_true (g_str_has_prefix (e->subject, q));
      g_assert_cmpstr (e->new_value, ==, g_ptr_array_index (answers, i));
    }
}

/* Clause 10's answers, appended: the arena's survey (NAME-survey.csv),
 * then for each of three maps (NAME-map-i: the arena shifted by dx[i],
 * dy[i] mm, noise seed seed + i) its file, its build time (s) and "yes". */
static void
clause10_answers (GPtrArray *answers, const char *name, const double dx[3], const double dy[3],
                  guint32 seed, const char *const time_s[3])
{
  g_autofree char *survey_csv = g_strdup_printf ("%s/%s-survey.csv", tmpdir, name);
  g_autoptr (GString) text = g_string_new ("corner,x_mm,y_mm\n");
  g_autoptr (GError) error = NULL;
  double truth[4][2];

  g_assert_true (nb_arena_corners (500.0, 1.0, 1.0, 0.0, truth, &error));
  for (int k = 0; k < 4; k++)
    g_string_append_printf (text, "%d,%.1f,%.1f\n", k + 1, truth[k][0], truth[k][1]);
  g_assert_true (g_file_set_contents (survey_csv, text->str, -1, &error));
  g_ptr_array_add (answers, g_strdup (survey_csv));
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *map_name = g_strdup_printf ("%s-map-%u", name, i + 1);
      g_autoptr (NbMap) map = NULL;
      double corners[4][2];
      NbMapGenOptions g;

      nb_map_gen_options_init (&g);
      g.lu_mm = 500.0;
      g.tx_mm = dx[i];
      g.ty_mm = dy[i];
      g.seed = seed + i;
      map = nb_map_generate (&g, corners, &error);
      g_assert_no_error (error);
      g_assert_true (nb_map_write (map, tmpdir, map_name, NB_MAP_IMAGE_PGM, &error));
      g_ptr_array_add (answers, g_strdup_printf ("%s/%s.yaml", tmpdir, map_name));
      g_ptr_array_add (answers, g_strdup (time_s[i]));
      g_ptr_array_add (answers, g_strdup ("yes"));
    }
}

/* Clause 10 over HTTP: before each map the base (moved away first) is sent
 * to P0, where the robot maps from; the operator gives the survey, each
 * map's file and build time and the judgement.  The maps are the arena
 * shifted by 20, 30 and 40 mm along x: each Dm is its shift, the figure
 * the largest. */
static void
test_clause10 (Fixture *f, gconstpointer data)
{
  g_autofree char *file = NULL, *out = NULL;
  g_autoptr (GPtrArray) answers = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) events = NULL;
  g_autoptr (GPtrArray) log = NULL;
  static const double shift_mm[] = { 20.0, 30.0, 40.0 }, none[3] = { 0 };
  static const char *const times[] = { "700.0", "710.0", "720.0" };
  GArray *trials;
  NbConfigResult *fig;

  clause10_answers (answers, "http", shift_mm, none, 70, times);
  file = answers_file ("answers-10.txt", (const char *const *) answers->pdata, answers->len);
  base_away (&f->b);
  out = fixture_run (f, 0, NULL, "--clause", "10", "--config", "arena", "--defect-range-mm", "100",
                     "--prompts", file, "--json", NULL);
  assert_base_at_p0 (&f->b);
  fixture_stop (f);

  trials = fixture_trials (f, 10, "arena");
  g_assert_cmpuint (trials->len, ==, 3);
  fig = fixture_figures (f);
  g_assert_null (fig->error);
  g_assert_cmpuint (fig->values->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      g_assert_cmpint (t->outcome, ==, NB_TRIAL_OK);
      g_assert_cmpfloat (t->time_s, ==, 700.0 + 10.0 * i);
      g_test_message ("map %u: shifted %.0f mm, Dm %.2f mm", i + 1, shift_mm[i],
                      g_array_index (fig->values, double, i));
      /* A map without noise, shifted by whole 10 mm: the corner fit finds
       * the shift to well under its 50 mm cells. */
      nb_assert_abs (g_array_index (fig->values, double, i), shift_mm[i], 0.5, "Dm = the shift");
    }
  nb_assert_abs (fig->accuracy_mm, g_array_index (fig->values, double, 2), 1e-9,
                 "the figure: the largest Dm of the three");
  log = prompts_of (f->c, &events);
  g_assert_cmpuint (log->len, ==, answers->len);
  for (guint i = 0; i < log->len; i++)
    g_assert_cmpstr (((const NbCampaignEvent *) g_ptr_array_index (log, i))->new_value, ==,
                     g_ptr_array_index (answers, i));
}


/* campaign plan --json: each configuration's state, "clause:config" →
 * "state trials/of" for those in scope; *next the next one or "". */
static GHashTable *
plan_states (const char *db, char **next)
{
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", db, "--json",
                                          NULL);
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonObject *o = nb_test_parse_object (p, out);
  JsonArray *configs = json_object_get_array_member (o, "configs");
  GHashTable *in_scope = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  JsonNode *n = json_object_get_member (o, "next");

  for (guint i = 0; i < json_array_get_length (configs); i++)
    {
      JsonObject *c = json_array_get_object_element (configs, i);

      if (!json_object_get_boolean_member (c, "in_scope"))
        continue;
      g_hash_table_insert (in_scope,
                           g_strdup_printf ("%d:%s", (int) json_object_get_int_member (c, "clause"),
                                            json_object_get_string_member (c, "config")),
                           g_strdup_printf ("%s %d/%d", json_object_get_string_member (c, "state"),
                                            (int) json_object_get_int_member (c, "trials"),
                                            (int) json_object_get_int_member (c, "of")));
    }
  *next = JSON_NODE_HOLDS_NULL (n) ? g_strdup ("")
          : g_strdup_printf ("%d:%s",
                             (int) json_object_get_int_member (json_node_get_object (n), "clause"),
                             json_object_get_string_member (json_node_get_object (n), "config"));
  return in_scope;
}

/* The whole (reduced) plan over HTTP: a campaign whose plan keeps one
 * configuration of each clause that asks the operator (6 the large
 * cylinder, 7 behaviour 1 with the wooden table, 9 no load, 10 the arena;
 * the others out of scope with a reason), `campaign plan --json` before
 * and after, `campaign run --all` once with one file answering every
 * prompt in the plan's order.  Without --prompts and no terminal the run
 * is refused naming the first clause that asks. */
static void
test_all (Fixture *f, gconstpointer data)
{
  g_autofree char *next = NULL, *out = NULL, *err = NULL, *file = NULL;
  g_autoptr (GHashTable) states = NULL;
  g_autoptr (GPtrArray) answers = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) events = NULL;
  g_autoptr (GPtrArray) log = NULL;
  static const char *const kept[] = { "6:large-cylinder", "7:b1-wooden-table", "9:no-load",
                                      "10:arena" };
  gint64 t0;

  /* The plan reduced: every configuration in scope but the four kept out. */
  states = plan_states (f->db, &next);
  {
    g_autoptr (GList) keys = g_hash_table_get_keys (states);

    for (GList *l = keys; l != NULL; l = l->next)
      {
        gboolean keep = FALSE;

        for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
          keep |= g_str_equal (l->data, kept[i]);
        if (!keep)
          g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", f->db,
                                   "--exclude", l->data, "--reason",
                                   "reduced plan of the loopback test", NULL));
      }
  }
  g_clear_pointer (&states, g_hash_table_unref);
  g_clear_pointer (&next, g_free);
  states = plan_states (f->db, &next);
  g_assert_cmpuint (g_hash_table_size (states), ==, 4);
  g_assert_cmpstr (g_hash_table_lookup (states, "6:large-cylinder"), ==, "not started 0/16");
  g_assert_cmpstr (g_hash_table_lookup (states, "7:b1-wooden-table"), ==, "not started 0/3");
  g_assert_cmpstr (g_hash_table_lookup (states, "9:no-load"), ==, "not started 0/5");
  g_assert_cmpstr (g_hash_table_lookup (states, "10:arena"), ==, "not started 0/3");
  g_assert_cmpstr (next, ==, "6:large-cylinder");

  /* The answers in the plan's order: 6's placements and reports (every
   * one seen at its declared range), 7's placing and three contacts, 9's
   * passage and five contacts, 10's survey and three maps. */
  for (guint k = 0; k < NB_DETECTION_PLACEMENTS; k++)
    {
      g_ptr_array_add (answers, g_strdup ("yes"));
      g_ptr_array_add (answers, g_strdup (k % 2 == 0 ? "2000" : "400"));
    }
  for (guint k = 0; k < 4; k++)
    g_ptr_array_add (answers, g_strdup ("yes"));
  g_ptr_array_add (answers, g_strdup ("yes"));
  for (guint k = 0; k < 5; k++)
    g_ptr_array_add (answers, g_strdup ("no"));
  {
    static const double none[3] = { 0 }, shift_mm[] = { 10.0, 20.0, 30.0 };
    static const char *const times[] = { "650", "650", "650" };

    clause10_answers (answers, "all", none, shift_mm, 80, times);
  }
  file = answers_file ("answers-all.txt", (const char *const *) answers->pdata, answers->len);

  out = fixture_run (f, 2, &err, "--all", NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "clause 6 asks the operator to place each obstacle and read "
                                 "the range the robot reports of it (6.3)"));
  g_clear_pointer (&out, g_free);
  t0 = g_get_monotonic_time ();
  out = fixture_run (f, 0, NULL, "--all", "--min-range-mm", "400", "--max-range-mm", "2000",
                     "--goal-tolerance-mm", "100", "--goal-tolerance-deg", "5",
                     "--defect-range-mm", "100", "--prompts", file, "--json", NULL);
  g_test_message ("campaign run --all over HTTP: 4 configurations, 33 trials, %.1f s wall "
                  "(served at a tenth of real time)",
                  (g_get_monotonic_time () - t0) / 1e6);
  fixture_stop (f);

  g_clear_pointer (&states, g_hash_table_unref);
  g_clear_pointer (&next, g_free);
  states = plan_states (f->db, &next);
  g_assert_cmpuint (g_hash_table_size (states), ==, 4);
  g_assert_cmpstr (g_hash_table_lookup (states, "6:large-cylinder"), ==, "complete 16/16");
  /* The served base drives through the table: not avoided. */
  g_assert_cmpstr (g_hash_table_lookup (states, "7:b1-wooden-table"), ==, "failed 3/3");
  g_assert_cmpstr (g_hash_table_lookup (states, "9:no-load"), ==, "passed 5/5");
  g_assert_cmpstr (g_hash_table_lookup (states, "10:arena"), ==, "complete 3/3");
  g_assert_cmpstr (next, ==, "");
  /* Every answer asked, in order, from the file's line. */
  f->c = nb_test_campaign_open_ro (f->db);
  log = prompts_of (f->c, &events);
  g_assert_cmpuint (log->len, ==, answers->len);
  for (guint i = 0; i < log->len; i++)
    {
      const NbCampaignEvent *e = g_ptr_array_index (log, i);
      g_autofree char *who = g_strdup_printf ("operator (%s:%u)", file, i + 2);

      g_assert_cmpstr (e->who, ==, who);
      g_assert_cmpstr (e->new_value, ==, g_ptr_array_index (answers, i));
    }
}

/* serve --base: a goal in map drives the base (its pose in the state, its
 * errors those of the simulated base: within 50 mm, 3°); without --base
 * the frame is refused before any motion (422). */
static void
test_served_base (void)
{
  const double position[3] = { 1.0, 0.5, 0.0 };
  const double orientation[4] = { 0.0, 0.0, sin (G_PI / 4.0), cos (G_PI / 4.0) };
  NbTestServer arm = nb_test_serve ("--time-scale", "0", NULL);
  NbTestServer base = nb_test_serve ("--base", "--time-scale", "0", NULL);
  g_autoptr (GError) error = NULL;
  NbHttpRobot *r = nb_http_robot_new (arm.url, NULL, 30, &error);
  NbRobotState st;

  g_assert_no_error (error);
  g_assert_true (nb_http_robot_state (r, &st, &error));
  g_assert_false (st.has_base);
  g_assert_false (nb_http_robot_ops ()->move_to_pose (r, "map", position, orientation, NULL,
                                                      &error));
  g_assert_nonnull (strstr (error->message, "frame_id 'map' is not known"));
  g_clear_error (&error);
  nb_http_robot_free (r);

  r = nb_http_robot_new (base.url, NULL, 30, &error);
  g_assert_true (nb_http_robot_state (r, &st, &error));
  g_assert_true (st.has_base);
  g_assert_cmpfloat (hypot (st.base_position[0], st.base_position[1]), ==, 0.0);
  g_assert_true (nb_http_robot_ops ()->move_to_pose (r, "map", position, orientation, NULL,
                                                     &error));
  g_assert_no_error (error);
  g_assert_true (nb_http_robot_state (r, &st, &error));
  g_assert_false (st.base_moving);
  nb_assert_abs (st.base_position[0], 1.0, 0.05, "base x");
  nb_assert_abs (st.base_position[1], 0.5, 0.05, "base y");
  nb_assert_abs (2.0 * atan2 (st.base_orientation[2], st.base_orientation[3]) * 180.0 / G_PI,
                 90.0, 3.0, "base heading");
  /* The arm's goals are the arm's as before. */
  g_assert_cmpstr (st.frame_id, ==, "base_link");
  nb_http_robot_free (r);
  nb_test_server_stop (&arm);
  nb_test_server_stop (&base);
  g_free (arm.url);
  g_free (base.url);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = nb_test_make_dir ();
  g_test_add_func ("/runner-http/served-base", test_served_base);
  /* Served at a tenth of real time, clause 8 at half: its drive of 2.5 m
   * in 1.25 s, some 30 fixes of its track. */
#define ADD(path, scale, fn) \
  g_test_add (path, Fixture, scale, fixture_setup, fn, fixture_teardown)
  ADD ("/runner-http/nmea-tcp-clause5", "0.1", test_clause5);
  ADD ("/runner-http/nmea-tcp-clause8", "0.5", test_clause8);
  ADD ("/runner-http/clause6-operator-places", "0.1", test_clause6);
  ADD ("/runner-http/clause7-baseline-obstacle", "0.1", test_clause7);
  ADD ("/runner-http/clause9-passage", "0.1", test_clause9);
  ADD ("/runner-http/clause10-maps", "0.1", test_clause10);
  ADD ("/runner-http/plan-all", "0.1", test_all);
#undef ADD
  rc = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return rc;
}
