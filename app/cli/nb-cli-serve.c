/* navbench-cli serve — the motion stack's HTTP API over the simulated iiwa 7
 * (seeds/001–003), so that a lab can work without the real stack.  See
 * app/server/nb-server.h for the endpoints. */
#include "nb-cli.h"

#include "nb-arm-file.h"
#include "nb-error.h"
#include "nb-iso9283-run.h"
#include "nb-server.h"
#include "nb-tracker-stream.h"

#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static gboolean
on_signal (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_CONTINUE;
}

/* The token's file: its first line, without the line end; an empty one is
 * refused (it would disable the check beyond loopback). */
static char *
read_token (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) local = NULL;
  gsize len;
  char *end;

  if (!g_file_get_contents (path, &text, &len, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", path, local->message);
      return NULL;
    }
  if (memchr (text, '\0', len) != NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:1: a NUL byte in the token", path);
      return NULL;
    }
  if ((end = strpbrk (text, "\r\n")) != NULL)
    *end = '\0';
  g_strstrip (text);
  if (*text == '\0')
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:1: an empty token", path);
      return NULL;
    }
  return g_steal_pointer (&text);
}

int
nb_cli_serve (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbServer) server = NULL;
  g_autoptr (GMainLoop) loop = NULL;
  g_autofree char *listen = NULL, *token = NULL, *robot_dir = NULL, *sequences_dir = NULL;
  g_autofree char *recordings = NULL, *frame = NULL, *exe = NULL, *runner = NULL;
  g_autofree char *token_file = NULL, *servo = NULL, *tracker = NULL, *tracker_noise = NULL;
  g_autoptr (NbTrackerStream) stream = NULL;
  NbServerConfig config;
  NbArmModel model;
  NbSimArm truth;
  gboolean has_truth = FALSE;
  double time_scale = 0.0, grace_s = 10.0, tracker_rate = 1000;
  double noise[2] = { 0.005, 0.002 };
  double header_timeout_s, body_timeout_s, idle_timeout_s;
  gint seed = 1, fail_goal = 0, log_lines = 1000, max_connections, keepalive_requests;
  gint64 max_trajectory_body;
  gboolean base = FALSE;
  const GOptionEntry entries[] = {
    { "listen", 0, 0, G_OPTION_ARG_STRING, &listen,
      "ADDRESS:PORT (default 127.0.0.1:0, any free port); beyond loopback a token is required",
      "ADDR:PORT" },
    { "token-file", 0, 0, G_OPTION_ARG_FILENAME, &token_file,
      "read the bearer token every request must carry from FILE (its first line); or set "
      "$NAVBENCH_TOKEN", "FILE" },
    { "token", 0, 0, G_OPTION_ARG_STRING, &token,
      "the bearer token itself (visible to every user in /proc/PID/cmdline: prefer "
      "--token-file or $NAVBENCH_TOKEN)", "TOKEN" },
    { "max-connections", 0, 0, G_OPTION_ARG_INT, &max_connections,
      "connections open at once; beyond, 503 (default 128)", "N" },
    { "header-timeout-s", 0, 0, G_OPTION_ARG_DOUBLE, &header_timeout_s,
      "a request's headers must arrive within S seconds, else 408 (default 10)", "S" },
    { "body-timeout-s", 0, 0, G_OPTION_ARG_DOUBLE, &body_timeout_s,
      "… and its body within S more (default 30)", "S" },
    { "idle-timeout-s", 0, 0, G_OPTION_ARG_DOUBLE, &idle_timeout_s,
      "a kept-alive connection waits S seconds for its next request, then it is closed "
      "(default 5; 0: one request per connection)", "S" },
    { "keepalive-requests", 0, 0, G_OPTION_ARG_INT, &keepalive_requests,
      "requests one connection takes at most (default 10000)", "N" },
    { "max-trajectory-body", 0, 0, G_OPTION_ARG_INT64, &max_trajectory_body,
      "POST /robot/trajectory's body up to BYTES, else 413 (default 4194304: 10 000 points; "
      "other bodies 64 KiB)", "BYTES" },
    { "robot-dir", 0, 0, G_OPTION_ARG_FILENAME, &robot_dir,
      "the arm's description (default the installed iiwa7)", "DIR" },
    { "sequences-dir", 0, 0, G_OPTION_ARG_FILENAME, &sequences_dir,
      "sequences started by name (default data/sequences)", "DIR" },
    { "recordings-root", 0, 0, G_OPTION_ARG_FILENAME, &recordings,
      "where bag_path recordings live (default $XDG_DATA_HOME/navbench/recordings)", "DIR" },
    { "default-frame", 0, 0, G_OPTION_ARG_STRING, &frame,
      "planning.default_frame (default base_link)", "FRAME" },
    { "time-scale", 0, 0, G_OPTION_ARG_DOUBLE, &time_scale,
      "wall seconds per simulated second of motion (default 0: instant; 1: real time)", "F" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, "the simulator's noise seed", "S" },
    { "servo", 0, 0, G_OPTION_ARG_STRING, &servo,
      "the simulated joints follow their ramp as a second-order servo: natural frequency "
      "(rad/s), damping ratio, dwell after the ramp (s), e.g. 40,0.3,1.2 (default: none, the "
      "joints ramp)", "W,Z,DWELL" },
    { "base", 0, 0, G_OPTION_ARG_NONE, &base,
      "the arm rides on the simulated mobile base: MoveToPose in frame map drives the base "
      "(x, y and yaw), GET /robot/state gives its pose (campaign run --robot http://…)", NULL },
    { "tracker", 0, 0, G_OPTION_ARG_STRING, &tracker,
      "a simulated tracker watches the served arm and streams its TCP to URL as NatNet 4.1 "
      "frames (rigid body 1, base_link, through the ISO 9283 demonstration error model and the "
      "load of POST /sim/payload, σ 5 µm, 0.002°): what campaign run --standard iso9283 "
      "--instrument natnet --url URL reads",
      "udp://ADDR:PORT" },
    { "tracker-rate", 0, 0, G_OPTION_ARG_DOUBLE, &tracker_rate,
      "the tracker's frames a second (default 1000)", "HZ" },
    { "tracker-noise", 0, 0, G_OPTION_ARG_STRING, &tracker_noise,
      "the tracker's noise: σ on each axis (mm) and each angle (°) (default 0.005,0.002; 0,0: "
      "the true arm's TCP exactly, for tests that compare with it)", "MM,DEG" },
    { "fail-goal", 0, 0, G_OPTION_ARG_INT, &fail_goal, "the simulator fails its K-th goal", "K" },
    { "log-lines", 0, 0, G_OPTION_ARG_INT, &log_lines, "the runner's log keeps N lines", "N" },
    { "runner", 0, 0, G_OPTION_ARG_FILENAME, &runner,
      "the program that runs sequences (default this navbench-cli)", "PATH" },
    { "runner-grace-s", 0, 0, G_OPTION_ARG_DOUBLE, &grace_s,
      "after POST /stop, a runner still running this long is killed (default 10)", "S" },
    { NULL }
  };

  g_option_context_set_summary (context,
    "Serves the motion stack's HTTP API (seeds/001–003) over the simulated iiwa 7: sequences\n"
    "(start, status, logs), stop, robot positions and state, joint and Cartesian motion, the\n"
    "gizmo's priority lease and epoch.  Prints \"listening on URL\" and runs until SIGTERM.\n"
    "Beyond loopback every request needs the bearer token: give it in a file (--token-file,\n"
    "readable by you alone) or in $NAVBENCH_TOKEN; --token on the command line is visible\n"
    "to every user of the machine.");
  nb_server_config_init (&config);
  max_connections = (gint) config.max_connections;
  header_timeout_s = config.header_timeout_s;
  body_timeout_s = config.body_timeout_s;
  idle_timeout_s = config.idle_timeout_s;
  keepalive_requests = (gint) config.keepalive_requests;
  max_trajectory_body = (gint64) config.max_trajectory_body;
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (!(time_scale >= 0) || seed < 0 || fail_goal < 0 || log_lines < 1 ||
      !(grace_s > 0 && grace_s <= 3600) || max_connections < 1 ||
      !(header_timeout_s > 0 && header_timeout_s <= 3600) ||
      !(body_timeout_s > 0 && body_timeout_s <= 3600) ||
      !(idle_timeout_s >= 0 && idle_timeout_s <= 3600) || keepalive_requests < 1 ||
      max_trajectory_body < (gint64) config.max_body || max_trajectory_body > 256 * 1024 * 1024)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--time-scale ≥ 0, --seed and --fail-goal "
                   "≥ 0, --log-lines ≥ 1, --max-connections and --keepalive-requests ≥ 1, "
                   "--runner-grace-s, --header-timeout-s and --body-timeout-s in (0, 3600], "
                   "--idle-timeout-s in [0, 3600], --max-trajectory-body in [65536, 268435456]");
      return nb_cli_report_error (error);
    }
  if (servo != NULL)
    {
      double v[3];

      if (!nb_cli_parse_numbers ("servo", servo, v, 3, "W,Z,DWELL", &error))
        return nb_cli_report_error (error);
      if (!(v[0] > 0 && v[0] <= 1e4 && v[1] > 0 && v[1] <= 10 && v[2] >= 0 && v[2] <= 60))
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--servo: the natural frequency in "
                       "(0, 10⁴] rad/s, the damping ratio in (0, 10], the dwell in [0, 60] s");
          return nb_cli_report_error (error);
        }
      config.servo_omega_rad_s = v[0];
      config.servo_zeta = v[1];
      config.servo_dwell_s = v[2];
    }
  if (tracker_noise != NULL)
    {
      if (!nb_cli_parse_numbers ("tracker-noise", tracker_noise, noise, 2, "MM,DEG", &error))
        return nb_cli_report_error (error);
      if (!(noise[0] >= 0 && noise[0] <= 100 && noise[1] >= 0 && noise[1] <= 10))
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--tracker-noise: σ in [0, 100] mm "
                       "and [0, 10]°");
          return nb_cli_report_error (error);
        }
    }
  if (token_file != NULL && token != NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "give --token-file or --token, not both");
      return nb_cli_report_error (error);
    }
  if (token_file != NULL && (token = read_token (token_file, &error)) == NULL)
    return nb_cli_report_error (error);
  if (token == NULL && g_getenv ("NAVBENCH_TOKEN") != NULL)
    token = g_strdup (g_getenv ("NAVBENCH_TOKEN"));
  if (robot_dir == NULL)
    robot_dir = nb_cli_data_path ("robots/iiwa7");
  if (sequences_dir == NULL)
    sequences_dir = nb_cli_data_path ("sequences");
  if (recordings == NULL)
    recordings = nb_cli_recordings_root ();
  exe = g_file_read_link ("/proc/self/exe", NULL);

  if (listen != NULL)
    config.listen = listen;
  config.token = token;
  config.robot_dir = robot_dir;
  config.sequences_dir = sequences_dir;
  config.recordings_root = recordings;
  config.cli_path = runner ? runner : exe ? exe : argv[0];
  config.runner_grace_s = grace_s;
  if (frame != NULL)
    config.default_frame = frame;
  config.time_scale = time_scale;
  config.seed = (guint32) seed;
  config.fail_goal = (guint) fail_goal;
  config.base = base;
  config.log_lines = (guint) log_lines;
  config.max_connections = (guint) max_connections;
  config.header_timeout_s = header_timeout_s;
  config.body_timeout_s = body_timeout_s;
  config.idle_timeout_s = idle_timeout_s;
  config.keepalive_requests = (guint) keepalive_requests;
  config.max_trajectory_body = (gsize) max_trajectory_body;
  if ((server = nb_server_new (&config, &error)) == NULL)
    return nb_cli_report_error (error);

  if (tracker != NULL)
    {
      /* The tracker sees the served joints through the geometry the rig's
       * simulated tracker gives the served arm over HTTP (the ISO 9283
       * demonstration error model), with the load POST /sim/payload mounts
       * (campaign run --standard iso9283 sends each configuration's). */
      NbTrackerStreamConfig tc = { tracker, tracker_rate, noise[0], noise[1], (guint32) seed + 2,
                                   4, 1 };

      if (!nb_arm_model_load (robot_dir, &model, &error))
        return nb_cli_report_error (error);
      nb_iso9283_sim_arm_init (&truth, &model, (guint32) seed, NULL);
      has_truth = TRUE;
      if ((stream = nb_tracker_stream_new (nb_server_controller (server), &truth, &tc,
                                           &error)) == NULL)
        {
          nb_sim_arm_clear (&truth);
          return nb_cli_report_error (error);
        }
    }
  loop = g_main_loop_new (NULL, FALSE);
  g_unix_signal_add (SIGTERM, on_signal, loop);
  g_unix_signal_add (SIGINT, on_signal, loop);
  printf ("listening on %s\n", nb_server_url (server));
  fflush (stdout);
  g_main_loop_run (loop);
  /* The stream's thread reads the controller and the truth: it goes first. */
  if (stream != NULL)
    {
      guint64 sent, skipped;

      nb_tracker_stream_counts (stream, &sent, &skipped);
      /* Frames never sent are worth knowing in a test's log. */
      if (skipped > 0)
        fprintf (stderr, "serve --tracker: %" G_GUINT64_FORMAT " frames sent, %" G_GUINT64_FORMAT
                 " not sent (more than %g s late)\n", sent, skipped, NB_TRACKER_STREAM_CATCH_UP_S);
    }
  g_clear_pointer (&stream, nb_tracker_stream_free);
  g_clear_pointer (&server, nb_server_free);
  if (has_truth)
    nb_sim_arm_clear (&truth);
  return NB_EXIT_OK;
}
