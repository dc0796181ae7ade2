/* navbench-cli sequence run — a motion sequence (seeds/003) as its own process
 *
 * The HTTP API will spawn exactly this.  One log line per event with the
 * progress (iteration i/N, point k/M); exit 0 when every point succeeded,
 * 1 when a goal failed or a stop was requested (SIGTERM/SIGINT: before the
 * next point, with motion stop), 2 for a bad sequence or usage.
 */
#include "nb-cli.h"

#include "nb-arm-file.h"
#include "nb-error.h"
#include "nb-http-robot.h"
#include "nb-sequence.h"
#include "nb-sim-arm.h"
#include "nb-sim-base.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t stop_requested;

static void
on_signal (int signum)
{
  stop_requested = 1;
}

static void
print_line (const char *line, gpointer user_data)
{
  double *clock = user_data;

  printf ("[%9.3f s] %s\n", *clock, line);
  fflush (stdout);
}

static void
print_wall_line (const char *line, gpointer user_data)
{
  double *t0 = user_data;

  printf ("[%9.3f s] %s\n", g_get_monotonic_time () * 1e-6 - *t0, line);
  fflush (stdout);
}

static char *
robot_dir (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  if (exe != NULL && g_str_has_prefix (exe, NB_BUILD_ROOT "/"))
    return g_build_filename (NB_DATA_SOURCE, "robots", "iiwa7", NULL);
  return g_build_filename (NB_DATA_INSTALLED, "robots", "iiwa7", NULL);
}

static int
sequence_run (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("FILE.json");
  g_autoptr (GError) error = NULL;
  g_autoptr (NbSequence) seq = NULL;
  g_autofree char *robot = NULL, *bag = NULL, *model_dir = NULL;
  gint iterations = 0, fail_goal = 0, stall_goal = 0, seed = 1;
  double slow = 1.0, load_kg = 0.0;
  gboolean real_time = FALSE;
  const GOptionEntry entries[] = {
    { "robot", 0, 0, G_OPTION_ARG_STRING, &robot,
      "sim (the iiwa 7, default), sim-base (the mobile base) or the motion stack's HTTP API "
      "(http://HOST:PORT, a bearer token from $NAVBENCH_TOKEN)", "sim|sim-base|URL" },
    { "load-kg", 0, 0, G_OPTION_ARG_DOUBLE, &load_kg, "sim-base: the load carried", "KG" },
    { "iterations", 0, 0, G_OPTION_ARG_INT, &iterations, "override n_iterations", "N" },
    { "bag", 0, 0, G_OPTION_ARG_FILENAME, &bag, "record into DIR (overrides bag_path)", "DIR" },
    { "real-time", 0, 0, G_OPTION_ARG_NONE, &real_time, "sim: move in real time", NULL },
    { "fail-goal", 0, 0, G_OPTION_ARG_INT, &fail_goal, "sim: the K-th goal fails", "K" },
    { "stall-goal", 0, 0, G_OPTION_ARG_INT, &stall_goal,
      "sim: the K-th goal never finishes (its result times out)", "K" },
    { "slow", 0, 0, G_OPTION_ARG_DOUBLE, &slow, "sim: motion takes F times longer", "F" },
    { "robot-dir", 0, 0, G_OPTION_ARG_FILENAME, &model_dir,
      "sim: the arm's description (joint_limits.yaml, kinematics.yaml, tool_active.xacro; "
      "default the installed iiwa7)", "DIR" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, "sim: the noise's seed", "S" },
    { NULL }
  };
  struct sigaction sa;
  NbArmModel model;
  NbSimArm arm;
  gboolean ok;

  g_option_context_set_summary (context,
    "Runs home → waypoints → home n_iterations times (seeds/003): MoveToJoints for a\n"
    "joint point, MoveToPose with its planner for a Cartesian one, each goal's result\n"
    "awaited; a failed goal stops the sequence with motion stop.  See\n"
    "data/sequences/pick-and-place.json.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (argc != 2)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "give one sequence file");
      return nb_cli_report_error (error);
    }
  if (robot != NULL && !g_str_equal (robot, "sim") && !g_str_equal (robot, "sim-base") &&
      !g_str_has_prefix (robot, "http://"))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "--robot %s: expected sim, sim-base or http://HOST:PORT", robot);
      return nb_cli_report_error (error);
    }
  if (iterations < 0 || fail_goal < 0 || stall_goal < 0 || !(slow > 0))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "--iterations, --fail-goal and --stall-goal are ≥ 0, --slow > 0");
      return nb_cli_report_error (error);
    }
  if ((seq = nb_sequence_load (argv[1], &error)) == NULL)
    return nb_cli_report_error (error);
  if ((bag != NULL && *bag) || (bag == NULL && seq->bag_path && *seq->bag_path))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "recording (bag_path %s) is not built yet: MCAP comes with the HTTP API; "
                   "run with an empty bag_path", bag ? bag : seq->bag_path);
      return nb_cli_report_error (error);
    }
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGTERM, &sa, NULL);
  sigaction (SIGINT, &sa, NULL);

  if (robot != NULL && g_str_has_prefix (robot, "http://"))
    {
      /* Client mode: the same runner, each goal a request whose answer is its result. */
      g_autoptr (NbHttpRobot) http = nb_http_robot_new (robot, g_getenv ("NAVBENCH_TOKEN"), 600.0,
                                                        &error);
      double t0 = g_get_monotonic_time () * 1e-6, now = 0;

      if (http == NULL)
        return nb_cli_report_error (error);
      ok = nb_sequence_run (seq, (guint) iterations, nb_http_robot_ops (), http,
                            (const volatile int *) &stop_requested, print_wall_line, &t0,
                            &error);
      now = g_get_monotonic_time () * 1e-6 - t0;
      printf ("goals sent: %u, motion stops: %u, wall time %.3f s\n",
              nb_http_robot_goals (http), nb_http_robot_stops (http), now);
      return ok ? NB_EXIT_OK : nb_cli_report_error (error);
    }
  if (robot != NULL && g_str_equal (robot, "sim-base"))
    {
      NbSimBaseModel bm;
      NbSimBase base;

      nb_sim_base_model_default (&bm);
      nb_sim_base_init (&base, &bm, load_kg, (guint32) seed);
      base.fail_goal = (guint) fail_goal;
      ok = nb_sequence_run (seq, (guint) iterations, nb_sim_base_ops (), &base,
                            (const volatile int *) &stop_requested, print_line, &base.clock_s,
                            &error);
      printf ("goals sent: %u, motion stops: %u, virtual time %.3f s, pose %.2f mm, %.2f mm, "
              "%.3f°\n", base.goals, base.stops, base.clock_s, base.x_mm, base.y_mm,
              base.theta_deg);
      nb_sim_base_clear (&base);
      return ok ? NB_EXIT_OK : nb_cli_report_error (error);
    }
  if (model_dir == NULL)
    model_dir = robot_dir ();
  /* The TCP is the active tool's (tool_active.xacro, as robot setup wrote it). */
  if (!nb_arm_model_load (model_dir, &model, &error))
    return nb_cli_report_error (error);

  nb_sim_arm_init (&arm, &model, (guint32) seed);
  arm.real_time = real_time;
  arm.fail_goal = (guint) fail_goal;
  arm.stall_goal = (guint) stall_goal;
  arm.slow_factor = slow;
  ok = nb_sequence_run (seq, (guint) iterations, nb_sim_arm_ops (), &arm,
                        (const volatile int *) &stop_requested, print_line, &arm.clock_s, &error);
  {
    double T[16];

    nb_arm_fk (&arm.model, arm.q, T);
    printf ("goals sent: %u, motion stops: %u, virtual time %.3f s, TCP at %.6f %.6f %.6f m\n",
            arm.goals, arm.stops, arm.clock_s, T[3], T[7], T[11]);
  }
  nb_sim_arm_clear (&arm);
  if (!ok)
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}

static const NbCliCommand sequence_commands[] = {
  { "run", sequence_run, "run a motion sequence (seeds/003) on the simulated arm" },
};

int
nb_cli_sequence (int argc, char **argv)
{
  return nb_cli_dispatch ("sequence", sequence_commands, G_N_ELEMENTS (sequence_commands), argc,
                          argv);
}
