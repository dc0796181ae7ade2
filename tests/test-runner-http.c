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
#include "nb-test-nmea-fix.h"
#include "nb-test-tmp.h"

#include "nb-campaign-results.h"
#include "nb-http-robot.h"
#include "nb-metrics.h"
#include "nb-traj.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#define RATE_HZ 25.0
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
  GSocketListener *listener;
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
      g_autoptr (GSocketConnection) conn = g_socket_listener_accept (r->listener, NULL, NULL,
                                                                     NULL);
      GOutputStream *out;

      if (conn == NULL)
        return NULL;
      out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
      for (guint64 k = 0; !g_atomic_int_get (&r->stop); k++)
        {
          gint64 at = t0 + (gint64) (k * G_USEC_PER_SEC / RATE_HZ), now = g_get_monotonic_time ();
          g_autofree char *fix = NULL;
          Sent s;

          if (at > now)
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

  b->server = nb_test_serve ("--base", "--time-scale", time_scale, "--seed", "7", NULL);
  b->r.robot = nb_http_robot_new (b->server.url, NULL, 30, &error);
  g_assert_no_error (error);
  b->r.listener = g_socket_listener_new ();
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
  g_socket_listener_close (b->r.listener);
  g_thread_join (b->thread);
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

static char *
run (Bench *b, const char *db, const char *clause, const char *trials)
{
  return nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--clause", clause,
                          "--config", "http", "--trials", trials, "--robot", b->server.url,
                          "--instrument", "nmea", "--url", b->url, "--set",
                          "origin=" NB_TEST_ORIGIN_TEXT, "--prompts", "auto", "--json", NULL);
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
static void
test_clause5 (void)
{
  g_autofree char *db = new_campaign ("http-5");
  g_autofree char *out = NULL;
  g_autoptr (GArray) rests = NULL;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (NbCampaign) c = NULL;
  g_autoptr (GError) error = NULL;
  NbCampaignConfig config;
  NbConfigResult fig;
  NbPoseResult want;
  NbPose attained[3];
  const NbPose command = { P1_MM, 0.0, 0.0 };
  Bench b = { 0 };

  bench_start (&b, "0.1");
  out = run (&b, db, "5", "3");
  bench_stop (&b);

  rests = rests_near_p1 (b.r.sent);
  g_test_message ("%u fixes sent, %u rests near P1", b.r.sent->len, rests->len);
  c = nb_test_campaign_open_ro (db);
  trials = nb_test_campaign_trials (c, 5, "http", &config);
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
  memset (&fig, 0, sizeof fig);
  g_assert_true (nb_config_result_compute (c, &config, &fig, &error));
  g_assert_no_error (error);
  g_assert_null (fig.error);
  g_assert_true (nb_metrics_pose (&command, attained, 3, &want, &error));
  nb_assert_abs (fig.pose.ap_mm, want.ap_mm, 0.05, "Ap = from the sent rests");
  nb_assert_abs (fig.pose.rp_mm, want.rp_mm, 0.1, "Rp = from the sent rests");
  nb_assert_abs (fig.pose.ao_deg, want.ao_deg, 1e-3, "Ao = from the sent rests");
  nb_assert_abs (fig.pose.ro_deg, want.ro_deg, 1e-3, "Ro = from the sent rests");
  assert_rates (c, 3);
  nb_config_result_clear (&fig);
  nb_campaign_config_clear (&config);
  bench_clear (&b);
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
test_clause8 (void)
{
  g_autofree char *db = new_campaign ("http-8");
  g_autofree char *out = NULL;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (NbCampaign) c = NULL;
  g_autoptr (GError) error = NULL;
  NbCampaignConfig config;
  NbConfigResult fig;
  Bench b = { 0 };

  /* The drive of 2.5 m in 1.25 s: some 30 fixes of its track. */
  bench_start (&b, "0.5");
  out = run (&b, db, "8", "2");
  bench_stop (&b);

  c = nb_test_campaign_open_ro (db);
  trials = nb_test_campaign_trials (c, 8, "http", &config);
  g_assert_cmpuint (trials->len, ==, 2);
  memset (&fig, 0, sizeof fig);
  g_assert_true (nb_config_result_compute (c, &config, &fig, &error));
  g_assert_null (fig.error);
  for (guint i = 0; i < 2; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      g_autoptr (GArray) samples = g_array_new (FALSE, FALSE, sizeof (NbTrackSample));
      NbSegment seg;
      NbPathTrial pt, own;
      guint from = 0;

      g_assert_cmpint (t->outcome, ==, NB_TRIAL_OK);
      g_assert_true (nb_campaign_foreach_samples (c, t->id, collect, samples, &error));
      g_assert_cmpuint (samples->len, >, 10);
      g_assert_true (nb_segment_init (&seg, config.from_mm[0], config.from_mm[1],
                                      config.to_mm[0], config.to_mm[1], &error));
      nb_path_trial_init (&pt);
      nb_path_trial_init (&own);
      /* In order, each stored sample is a sent pose; d_i over those, and
       * over the base's own (the sent ones less the antenna). */
      for (guint k = 0; k < samples->len; k++)
        {
          const NbTrackSample *s = &g_array_index (samples, NbTrackSample, k);
          const NbPose *p = NULL;

          for (; from < b.r.sent->len && p == NULL; from++)
            {
              const NbPose *q = &g_array_index (b.r.sent, Sent, from).pose;

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
      nb_assert_abs (fig.d_mm[i], pt.d_mm, 0.05, "d_i = of the sent track");
      /* Not the base's own track's: the antenna's 13 mm to the left moves
       * every sample (with the base within 13 mm of the route, the
       * deviation of largest magnitude is then 13 mm + its largest to the
       * left, against its own largest either way). */
      g_test_message ("trial %u: d_i %.2f mm (the base's own track: %.2f mm), %u samples", i + 1,
                      fig.d_mm[i], own.d_mm, samples->len);
      g_assert_cmpfloat (fabs (fig.d_mm[i] - own.d_mm), >, ANTENNA_Y_MM - 1.0);
    }
  assert_rates (c, 2);
  nb_config_result_clear (&fig);
  nb_campaign_config_clear (&config);
  bench_clear (&b);
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
  g_test_add_func ("/runner-http/nmea-tcp-clause5", test_clause5);
  g_test_add_func ("/runner-http/nmea-tcp-clause8", test_clause8);
  rc = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return rc;
}
