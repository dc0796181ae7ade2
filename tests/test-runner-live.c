/* The campaign runner measuring an operator-driven robot through live
 * instruments over loopback: NMEA over TCP and through a pty at 115200
 * baud (socat, libserialport with tests/pty-shim.c), NatNet over UDP and
 * GeoCOM request/response over TCP.  The test plays a robot's track in
 * real time through the instrument's own protocol — resting at P0, driving
 * to the target, resting there, driving back — and the runner, prompted
 * from a file of answers, finds the trials in the stream
 * (nb-segmentation.h) and records them.  The rests are exact poses, so the
 * attained poses (clause 5) and d_i (clause 8) the runner stores must be
 * those of the played track to the protocol's encoding (NMEA: 1e-8 minute
 * ≈ 0.02 mm; NatNet: float32; GeoCOM: 0.1 mm), whatever the arrival
 * jitter; the figures then equal nb_metrics_* on the played poses.  The
 * player drops the link mid-trial once: that trial is incomplete, the run
 * goes on when the link is back.  Every prompt and its answer is in the
 * event log.
 */
#include "nb-test.h"

#include "nb-campaign-runner.h"
#include "nb-error.h"
#include "nb-metrics.h"
#include "nb-test-campaign.h"
#include "nb-test-player.h"
#include "nb-test-tmp.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RATE_HZ 20.0
/* A rest outlasts the segmentation's 0.5 s settle window by more than a
 * loaded machine stalls the player or the device (at 0.8 s the GeoCOM run
 * missed a rest 2 times in 6 at load 20). */
#define REST_S 1.5
#define TRAVEL_S 0.8
/* LU 500 mm (width 400 mm): the straight route's P1 is 2500 mm ahead. */
#define P1_MM 2500.0

static char *tmpdir;

/* ------------------------------------------------------------ the track -- */

/* Where trial k's robot comes to rest (a few mm off P1, as a robot does). */
static const NbPose rests[] = {
  { 2497.3, 2.1, 0.4 }, { 2501.2, -1.7, -0.3 }, { 2499.0, 0.6, 0.1 }, { 2502.4, 1.3, -0.2 },
};

typedef struct {
  guint cycles;                 /* P0 → rest → P0 */
  double drop_at_s;             /* the link drops at this time of the track (NaN: never) */
  double drop_for_s;
} Track;

/* The true pose at t (s from the first sample): a rest at P0, then per
 * cycle the drive out (a slight arc: path deviation), the rest, the drive
 * back, the rest at P0. */
static void
track_pose (const Track *tr, double t, double *x_mm, double *y_mm, double *th_deg)
{
  double cycle = 2.0 * (REST_S + TRAVEL_S);
  guint k;
  double u;

  *x_mm = *y_mm = *th_deg = 0.0;
  if (t < REST_S)
    return;
  t -= REST_S;
  k = (guint) (t / cycle);
  if (k >= tr->cycles)
    return;
  u = t - k * cycle;
  if (u < TRAVEL_S)
    {
      double f = u / TRAVEL_S;

      *x_mm = f * rests[k].x_mm;
      *y_mm = f * rests[k].y_mm + (k + 1) * 4.0 * sin (G_PI * f);   /* bulge of (k+1)·4 mm */
      *th_deg = f * rests[k].theta_deg;
    }
  else if (u < TRAVEL_S + REST_S)
    {
      *x_mm = rests[k].x_mm;
      *y_mm = rests[k].y_mm;
      *th_deg = rests[k].theta_deg;
    }
  else if (u < 2 * TRAVEL_S + REST_S)
    {
      double f = 1.0 - (u - TRAVEL_S - REST_S) / TRAVEL_S;

      *x_mm = f * rests[k].x_mm;
      *y_mm = f * rests[k].y_mm;
      *th_deg = f * rests[k].theta_deg;
    }
}

/* -------------------------------------------------------- the encoders -- */

/* The pose as NatNet sends it: metres, the heading as a turn about z. */
static GByteArray *
natnet_frame (int frame, double t, double x_mm, double y_mm, double th_deg)
{
  double half = th_deg * G_PI / 360.0;
  const float f[8] = { (float) (x_mm / 1000.0), (float) (y_mm / 1000.0), 0.0f, 0.0f, 0.0f,
                       (float) sin (half), (float) cos (half), 0.0002f };

  return nb_test_natnet_frame (frame, t, f);
}

/* ------------------------------------------------------------- players -- */

typedef enum { PLAY_NMEA_TCP, PLAY_NMEA_PTY, PLAY_NATNET_UDP, PLAY_GEOCOM_TCP } PlayKind;

typedef struct {
  PlayKind kind;
  Track track;
  GSocketListener *listener;    /* TCP */
  guint16 port;
  NbTestUdp udp;                /* NatNet */
  int pty_in;                   /* socat's stdin */
  GPid socat;
  volatile gint stop;
  volatile gint dropped;        /* the link was dropped once */
} Player;

static gboolean
in_drop (const Player *p, double t)
{
  return isfinite (p->track.drop_at_s) && t >= p->track.drop_at_s &&
         t < p->track.drop_at_s + p->track.drop_for_s;
}

/* A GeoCOM station: answers the lock state and the coordinates of now. */
static void
geocom_serve (Player *p, GSocketConnection *conn, gint64 t0)
{
  g_autoptr (GDataInputStream) in =
    g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (conn)));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (conn));

  g_data_input_stream_set_newline_type (in, G_DATA_STREAM_NEWLINE_TYPE_ANY);
  while (!g_atomic_int_get (&p->stop))
    {
      g_autofree char *line = g_data_input_stream_read_line (in, NULL, NULL, NULL);
      g_autofree char *answer = NULL;
      double t = (g_get_monotonic_time () - t0) / 1e6, x, y, th;

      if (line == NULL)
        return;
      if (in_drop (p, t) && !g_atomic_int_get (&p->dropped))
        {
          g_atomic_int_set (&p->dropped, 1);
          return;               /* the cable pulled: the connection closes */
        }
      track_pose (&p->track, t, &x, &y, &th);
      if (g_str_has_prefix (line, "%R1Q,6021:"))
        answer = g_strdup ("%R1P,0,0:0,1\r\n");
      else if (g_str_has_prefix (line, "%R1Q,2116:"))
        {
          g_usleep (40000);     /* a station measures at ~25 Hz */
          t = (g_get_monotonic_time () - t0) / 1e6;
          track_pose (&p->track, t, &x, &y, &th);
          answer = g_strdup_printf ("%%R1P,0,0:0,%.4f,%.4f,1.5000\r\n", x / 1000.0, y / 1000.0);
        }
      else
        answer = g_strdup ("%R1P,0,0:3081\r\n");
      if (!g_output_stream_write_all (out, answer, strlen (answer), NULL, NULL, NULL))
        return;
    }
}

static gpointer
player (gpointer data)
{
  Player *p = data;
  gint64 t0 = 0;
  int frame = 0;

  while (!g_atomic_int_get (&p->stop))
    {
      g_autoptr (GSocketConnection) conn = NULL;
      GOutputStream *out = NULL;

      if (p->kind == PLAY_NMEA_TCP || p->kind == PLAY_GEOCOM_TCP)
        {
          if ((conn = g_socket_listener_accept (p->listener, NULL, NULL, NULL)) == NULL)
            return NULL;
          out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
        }
      /* The track's clock starts with the first connection. */
      if (t0 == 0)
        t0 = g_get_monotonic_time ();
      if (p->kind == PLAY_GEOCOM_TCP)
        {
          geocom_serve (p, conn, t0);
          continue;
        }
      for (;; frame++)
        {
          double t = frame / RATE_HZ, x, y, th;
          gboolean ok = TRUE;

          /* After the track the robot rests at P0 until the run is over:
           * a run that is late on the track still has its instrument (a
           * player that went silent 0.5 s after the track made a late
           * GeoCOM run lose it). */
          if (g_atomic_int_get (&p->stop))
            return NULL;
          nb_test_sleep_until (t0, t);
          if (in_drop (p, t))
            {
              if (p->kind == PLAY_NMEA_TCP && !g_atomic_int_get (&p->dropped))
                {
                  g_atomic_int_set (&p->dropped, 1);
                  break;        /* close; the device reconnects */
                }
              g_atomic_int_set (&p->dropped, 1);
              continue;         /* silence */
            }
          track_pose (&p->track, t, &x, &y, &th);
          if (p->kind == PLAY_NATNET_UDP)
            {
              g_autoptr (GByteArray) b = natnet_frame (frame, t, x, y, th);

              nb_test_udp_send (&p->udp, b);
            }
          else
            {
              g_autofree char *s = nb_test_nmea_fix (t, x, y, th);

              if (p->kind == PLAY_NMEA_PTY)
                ok = write (p->pty_in, s, strlen (s)) == (gssize) strlen (s);
              else
                ok = g_output_stream_write_all (out, s, strlen (s), NULL, NULL, NULL);
            }
          if (!ok)
            break;
        }
    }
  return NULL;
}

/* ------------------------------------------------------------- the run -- */

typedef struct {
  GMainLoop *loop;
  NbCampaignRunner *runner;
  gboolean ok;
  GError *error;
  NbRunnerSummary summary;
} Watch;

static void
on_done (GObject *source, GAsyncResult *res, gpointer data)
{
  Watch *w = data;

  w->ok = nb_campaign_runner_run_finish (w->runner, res, &w->summary, &w->error);
  g_main_loop_quit (w->loop);
}

static char *
new_campaign (const char *name)
{
  char *path = g_strdup_printf ("%s/%s.nbc", tmpdir, name);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_create (path, name, &error);

  g_assert_no_error (error);
  g_assert_true (nb_campaign_set_field (c, "robot.width_mm", "400", &error));
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  return path;
}

/* The player's track as the runner should have cut it: trial k from leaving
 * P0 to its rest; its samples at the player's rate (for d_i). */
static double
played_d_mm (const Track *tr, guint k)
{
  NbSegment seg;
  NbPathTrial pt;
  double t0 = REST_S + k * 2.0 * (REST_S + TRAVEL_S);

  g_assert_true (nb_segment_init (&seg, 0, 0, P1_MM, 0, NULL));
  nb_path_trial_init (&pt);
  for (double t = t0; t <= t0 + TRAVEL_S + 1e-9; t += 0.001)
    {
      double x, y, th;

      track_pose (tr, t, &x, &y, &th);
      nb_path_trial_push (&pt, &seg, x, y);
    }
  return pt.d_mm;
}

static void
live_run (PlayKind kind, guint clause, guint trials, double drop_at_s)
{
  g_autofree char *db = new_campaign (isfinite (drop_at_s) ? "loss" : kind == PLAY_NMEA_TCP
                                      ? "nmea-tcp" : kind == PLAY_NMEA_PTY ? "nmea-pty"
                                      : kind == PLAY_NATNET_UDP ? "natnet" : "geocom");
  g_autofree char *answers = g_build_filename (tmpdir, "answers.txt", NULL);
  g_autofree char *link = g_build_filename (tmpdir, "gnss", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbDevice) dev = NULL;
  g_autoptr (NbPrompts) prompts = NULL;
  g_autoptr (NbCampaignRunner) runner = NULL;
  g_autoptr (GString) yes = g_string_new ("# the operator's answers\n");
  Player p = { kind, { trials + (isfinite (drop_at_s) ? 1 : 0), drop_at_s, 2.0 } };
  NbCampaignRunnerOptions o;
  NbRunnerRig rig = { 0 };
  Watch w = { 0 };
  GThread *thread;
  g_autofree char *url = NULL;

  for (guint i = 0; i < p.track.cycles + 1; i++)
    g_string_append (yes, "yes\n");
  g_assert_true (g_file_set_contents (answers, yes->str, -1, &error));
  switch (kind)
    {
    case PLAY_NMEA_TCP:
    case PLAY_GEOCOM_TCP:
      p.listener = g_socket_listener_new ();
      p.port = g_socket_listener_add_any_inet_port (p.listener, NULL, &error);
      g_assert_no_error (error);
      url = g_strdup_printf ("tcp://127.0.0.1:%u", p.port);
      break;
    case PLAY_NATNET_UDP:
      nb_test_udp_open (&p.udp);
      url = g_strdup (p.udp.url);
      break;
    case PLAY_NMEA_PTY:
    default:
      {
        g_autofree char *address = g_strdup_printf ("pty,link=%s,raw,echo=0,b115200", link);
        const char *argv[] = { "socat", "-u", "STDIN", address, NULL };
        g_auto (GStrv) env = g_environ_unsetenv (g_get_environ (), "LD_PRELOAD");

        g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, env,
                                                 G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                                 NULL, NULL, &p.socat, &p.pty_in, NULL, NULL,
                                                 &error));
        for (int i = 0; i < 200 && !g_file_test (link, G_FILE_TEST_EXISTS); i++)
          g_usleep (10000);
        g_assert_true (g_file_test (link, G_FILE_TEST_EXISTS));
      }
      break;
    }

  dev = nb_device_new (kind == PLAY_NATNET_UDP ? "natnet" : kind == PLAY_GEOCOM_TCP ? "geocom"
                       : "nmea", &error);
  g_assert_no_error (error);
  if (kind == PLAY_NMEA_PTY)
    {
      g_assert_true (nb_device_configure (dev, "port", link, &error));
      g_assert_true (nb_device_configure (dev, "baud", "115200", &error));
    }
  else
    g_assert_true (nb_device_configure (dev, "url", url, &error));
  if (kind == PLAY_NMEA_TCP || kind == PLAY_NMEA_PTY)
    g_assert_true (nb_device_configure (dev, "origin", NB_TEST_ORIGIN_TEXT, &error));
  if (kind == PLAY_NATNET_UDP)
    g_assert_true (nb_device_configure (dev, "version", "4.0", &error));
  /* Lost after 1 s without data: twice as long as the player stalls at
   * load 20, half the link's drop (2 s). */
  g_assert_true (nb_device_configure (dev, "loss-timeout", "1", &error));
  g_assert_no_error (error);
  g_assert_true (nb_device_start (dev, &error));
  thread = g_thread_new ("player", player, &p);

  prompts = nb_prompts_new_file (answers, "operator", &error);
  g_assert_no_error (error);
  nb_campaign_runner_options_init (&o);
  o.clause = clause;
  o.config = "live";
  o.trials = trials;
  o.loss_timeout_s = 1.0;
  o.reconnect_s = 5.0;
  o.trial_timeout_s = 15.0;
  o.who = "test";
  o.robot_name = "operator";
  rig.device = dev;
  rig.prompts = prompts;
  runner = nb_campaign_runner_new (db, &o, &rig, &error);
  g_assert_no_error (error);
  w.loop = g_main_loop_new (NULL, FALSE);
  w.runner = runner;
  nb_campaign_runner_run_async (runner, NULL, NULL, NULL, on_done, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  g_atomic_int_set (&p.stop, 1);
  if (p.listener != NULL)
    g_socket_listener_close (p.listener);
  g_thread_join (thread);
  nb_device_stop (dev);
  if (w.error != NULL)
    g_error ("run: %s", w.error->message);
  g_assert_true (w.ok);
  g_assert_cmpuint (w.summary.ok, ==, trials);
  g_assert_cmpuint (w.summary.incomplete, ==, isfinite (drop_at_s) ? 1 : 0);

  {
    g_autoptr (NbCampaign) c = nb_test_campaign_open_ro (db);
    NbCampaignConfig config;
    g_autoptr (GArray) t = nb_test_campaign_trials (c, clause, "live", &config);
    g_autoptr (GArray) log = nb_campaign_list_events (c, &error);
    NbPose attained[G_N_ELEMENTS (rests)];
    NbConfigResult fig;
    guint k = 0, prompts_seen = 0;

    g_assert_cmpuint (t->len, ==, trials + (isfinite (drop_at_s) ? 1 : 0));
    memset (&fig, 0, sizeof fig);
    g_assert_true (nb_config_result_compute (c, &config, &fig, &error));
    g_assert_null (fig.error);
    for (guint i = 0; i < t->len; i++)
      {
        const NbCampaignTrial *tr = &g_array_index (t, NbCampaignTrial, i);
        /* The cycle of the track this trial is: the incomplete one is a cycle too. */
        guint cycle = i;

        if (tr->outcome == NB_TRIAL_INCOMPLETE)
          {
            g_assert_nonnull (strstr (tr->reason, "instrument lost"));
            continue;
          }
        g_assert_cmpint (tr->outcome, ==, NB_TRIAL_OK);
        /* Leaving P0 to the rest: the travel time, to a few samples.  The
         * samples are stamped as they arrive (GeoCOM answers, NMEA without a
         * date), and a loaded machine delays the player thread by up to a few
         * hundred ms (seen: 0.30 s at load 10 on 2 cores), so the bound is
         * that of a segmentation error, not of the player's timing. */
        nb_assert_abs (tr->time_s, TRAVEL_S, MAX (2.5 / RATE_HZ, 0.5 * TRAVEL_S),
                       "trial time from the stream");
        if (clause == 5)
          {
            nb_assert_abs (tr->attained.x_mm, rests[cycle].x_mm, 0.05, "attained x = played");
            nb_assert_abs (tr->attained.y_mm, rests[cycle].y_mm, 0.05, "attained y = played");
            if (kind != PLAY_GEOCOM_TCP)
              nb_assert_abs (tr->attained.theta_deg, rests[cycle].theta_deg, 1e-3,
                             "attained θ = played");
            attained[k] = rests[cycle];
          }
        else
          {
            /* d_i of the stored track against the played one's (dense): the
             * bulge of (cycle+1)·4 mm, to the sampling of the arc's top. */
            nb_assert_abs (fig.d_mm[k], played_d_mm (&p.track, cycle),
                           0.2, "d_i = played");
          }
        k++;
      }
    g_assert_cmpuint (k, ==, trials);
    if (clause == 5)
      {
        NbPoseResult want;
        NbPose command = { P1_MM, 0.0, 0.0 };

        g_assert_true (nb_metrics_pose (&command, attained, k, &want, &error));
        nb_assert_abs (fig.pose.ap_mm, want.ap_mm, 0.05, "Ap = from the played track");
        nb_assert_abs (fig.pose.rp_mm, want.rp_mm, 0.1, "Rp = from the played track");
        nb_assert_abs (fig.pose.ao_deg, want.ao_deg, 1e-3, "Ao = from the played track");
      }
    /* Every prompt, answered from the file, is in the log with its answer. */
    for (guint i = 0; i < log->len; i++)
      {
        const NbCampaignEvent *e = &g_array_index (log, NbCampaignEvent, i);

        if (!g_str_equal (e->what, "operator prompt"))
          continue;
        prompts_seen++;
        g_assert_cmpstr (e->new_value, ==, "yes");
        g_assert_nonnull (strstr (e->who, "answers.txt:"));
        g_assert_nonnull (strstr (e->subject, "bring the robot to P0"));
      }
    g_assert_cmpuint (prompts_seen, ==, t->len);
    nb_config_result_clear (&fig);
    nb_campaign_config_clear (&config);
  }
  if (p.socat != 0)
    {
      int status;

      kill (p.socat, SIGKILL);
      waitpid (p.socat, &status, 0);
      close (p.pty_in);
    }
  g_clear_object (&p.listener);
  nb_test_udp_clear (&p.udp);
  nb_runner_summary_clear (&w.summary);
  g_unlink (answers);
}

static void
test_nmea_tcp (void)
{
  live_run (PLAY_NMEA_TCP, 5, 3, NAN);
}

static void
test_nmea_pty (void)
{
  g_autofree char *socat = g_find_program_in_path ("socat");

  if (socat == NULL)
    {
      g_test_skip ("socat is not installed (tools/install-deps.sh)");
      return;
    }
  live_run (PLAY_NMEA_PTY, 8, 2, NAN);
}

static void
test_natnet_udp (void)
{
  live_run (PLAY_NATNET_UDP, 5, 2, NAN);
}

static void
test_geocom_tcp (void)
{
  live_run (PLAY_GEOCOM_TCP, 8, 2, NAN);
}

/* The link drops in the middle of trial 2's drive: incomplete, then on. */
static void
test_loss_mid_trial (void)
{
  live_run (PLAY_NMEA_TCP, 5, 2, REST_S + 2.0 * (REST_S + TRAVEL_S) + 0.5 * TRAVEL_S);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = nb_test_make_dir ();
  g_test_add_func ("/runner-live/nmea-tcp-clause5", test_nmea_tcp);
  g_test_add_func ("/runner-live/nmea-pty-115200-clause8", test_nmea_pty);
  g_test_add_func ("/runner-live/natnet-udp-clause5", test_natnet_udp);
  g_test_add_func ("/runner-live/geocom-tcp-clause8", test_geocom_tcp);
  g_test_add_func ("/runner-live/loss-mid-trial", test_loss_mid_trial);
  rc = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return rc;
}
