/* navbench-cli serve — the motion stack's HTTP API over the simulated iiwa 7
 * (seeds/001–003), so that a lab can work without the real stack.  See
 * app/server/nb-server.h for the endpoints. */
#include "nb-cli.h"

#include "nb-error.h"
#include "nb-server.h"

#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>

static gboolean
on_signal (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_CONTINUE;
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
  double time_scale = 0.0, grace_s = 10.0;
  gint seed = 1, fail_goal = 0, log_lines = 1000;
  NbServerConfig config;
  const GOptionEntry entries[] = {
    { "listen", 0, 0, G_OPTION_ARG_STRING, &listen,
      "ADDRESS:PORT (default 127.0.0.1:0, any free port); beyond loopback a token is required",
      "ADDR:PORT" },
    { "token", 0, 0, G_OPTION_ARG_STRING, &token,
      "the bearer token every request must carry (default $NAVBENCH_TOKEN)", "TOKEN" },
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
    "gizmo's priority lease and epoch.  Prints \"listening on URL\" and runs until SIGTERM.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (!(time_scale >= 0) || seed < 0 || fail_goal < 0 || log_lines < 1 ||
      !(grace_s > 0 && grace_s <= 3600))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--time-scale ≥ 0, --seed and --fail-goal "
                   "≥ 0, --log-lines ≥ 1, --runner-grace-s in (0, 3600]");
      return nb_cli_report_error (error);
    }
  if (token == NULL && g_getenv ("NAVBENCH_TOKEN") != NULL)
    token = g_strdup (g_getenv ("NAVBENCH_TOKEN"));
  if (robot_dir == NULL)
    robot_dir = nb_cli_data_path ("robots/iiwa7");
  if (sequences_dir == NULL)
    sequences_dir = nb_cli_data_path ("sequences");
  if (recordings == NULL)
    recordings = nb_cli_recordings_root ();
  exe = g_file_read_link ("/proc/self/exe", NULL);

  nb_server_config_init (&config);
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
  config.log_lines = (guint) log_lines;
  if ((server = nb_server_new (&config, &error)) == NULL)
    return nb_cli_report_error (error);

  loop = g_main_loop_new (NULL, FALSE);
  g_unix_signal_add (SIGTERM, on_signal, loop);
  g_unix_signal_add (SIGINT, on_signal, loop);
  printf ("listening on %s\n", nb_server_url (server));
  fflush (stdout);
  g_main_loop_run (loop);
  return NB_EXIT_OK;
}
