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
#include "nb-recorder.h"
#include "nb-sequence.h"
#include "nb-sim-arm.h"
#include "nb-sim-base.h"

#include <math.h>
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

/* ------------------------------------------------------ recording -- */

/* The simulated arm is sampled at the recording rate along each motion on
 * its virtual clock; the stamps start at the wall clock of the run's start,
 * so the bag reads like a real recording. */
typedef struct {
  NbRecorder *recorder;
  const NbArmModel *model;
  gint64 epoch_ns;
  double period_s;
  double next_s;
  double sigma_m;               /* the simulated tracker's noise, per axis */
  GRand *rand;
  GError *error;                /* the first write error; the run is stopped */
} SimRecording;

static double
gauss (GRand *rand)
{
  double u = g_rand_double_range (rand, 1e-300, 1.0), v = g_rand_double (rand);

  return sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

static gboolean
record_sample (SimRecording *r, double t_s, const double q[NB_ARM_JOINTS],
               const double qd[NB_ARM_JOINTS])
{
  gint64 t_ns = r->epoch_ns + (gint64) llround (t_s * 1e9);
  double T[16], p[3], o[4];

  if (!nb_recorder_joints (r->recorder, t_ns, q, qd, &r->error))
    return FALSE;
  nb_arm_fk (r->model, q, T);
  nb_arm_pose_from_matrix (T, p, o);
  if (!nb_recorder_pose (r->recorder, NB_STREAM_TCP_POSE, t_ns, "base_link", p, o, &r->error))
    return FALSE;
  if (nb_recorder_wants (r->recorder, NB_STREAM_MEASURED_POSE))
    {
      for (int i = 0; i < 3; i++)
        p[i] += r->sigma_m * gauss (r->rand);
      if (!nb_recorder_pose (r->recorder, NB_STREAM_MEASURED_POSE, t_ns, "base_link", p, o,
                             &r->error))
        return FALSE;
    }
  return TRUE;
}

static void
on_sim_advance (gpointer data, double t0, const double q0[NB_ARM_JOINTS], double t1,
                const double q1[NB_ARM_JOINTS])
{
  SimRecording *r = data;
  double q[NB_ARM_JOINTS], qd[NB_ARM_JOINTS];

  for (int i = 0; i < NB_ARM_JOINTS; i++)
    qd[i] = (q1[i] - q0[i]) / (t1 - t0);
  /* Joints move synchronously: linear from q0 to q1 over [t0, t1). */
  while (r->error == NULL && r->next_s < t1)
    {
      double f = (r->next_s - t0) / (t1 - t0);

      for (int i = 0; i < NB_ARM_JOINTS; i++)
        q[i] = q0[i] + f * (q1[i] - q0[i]);
      if (!record_sample (r, r->next_s, q, qd))
        {
          stop_requested = 1;
          return;
        }
      r->next_s += r->period_s;
    }
}

/* The HTTP robot is sampled by polling its state on a thread of its own. */
typedef struct {
  NbRecorder *recorder;
  NbHttpRobot *robot;
  double period_s;
  volatile gint done;
  guint64 polls;
  GError *error;
} HttpRecording;

static gpointer
http_record_thread (gpointer data)
{
  HttpRecording *r = data;
  gint64 next = g_get_monotonic_time ();

  while (!g_atomic_int_get (&r->done) && r->error == NULL)
    {
      NbRobotState st;
      gint64 t_ns;

      if (!nb_http_robot_state (r->robot, &st, &r->error))
        break;
      t_ns = st.stamp_us * 1000;
      if (!nb_recorder_joints (r->recorder, t_ns, st.position, st.velocity, &r->error) ||
          !nb_recorder_pose (r->recorder, NB_STREAM_TCP_POSE, t_ns,
                             *st.frame_id ? st.frame_id : "base_link", st.tcp_position,
                             st.tcp_orientation, &r->error))
        break;
      r->polls++;
      next += (gint64) (r->period_s * 1e6);
      if (next > g_get_monotonic_time ())
        g_usleep ((gulong) (next - g_get_monotonic_time ()));
    }
  if (r->error != NULL)
    stop_requested = 1;
  return NULL;
}

/* ---------------------------------------------------------- robots -- */

static gboolean
run_http (const NbSequence *seq, guint iterations, const char *url, NbRecorder *recorder,
          double record_hz, GError **error)
{
  /* Client mode: the same runner, each goal a request whose answer is its result. */
  g_autoptr (NbHttpRobot) http = nb_http_robot_new (url, g_getenv ("NAVBENCH_TOKEN"), 600.0,
                                                    error);
  HttpRecording rec = { recorder, http, 1.0 / record_hz, 0, 0, NULL };
  GThread *thread = NULL;
  double t0 = g_get_monotonic_time () * 1e-6;
  gboolean ok;

  if (http == NULL)
    return FALSE;
  if (recorder != NULL)
    {
      if (nb_recorder_wants (recorder, NB_STREAM_MEASURED_POSE))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "/measured_pose needs a measurement "
                       "system; over HTTP navbench records /joint_states and /tcp_pose");
          return FALSE;
        }
      thread = g_thread_new ("record", http_record_thread, &rec);
    }
  ok = nb_sequence_run (seq, iterations, nb_http_robot_ops (), http,
                        (const volatile int *) &stop_requested, print_wall_line, &t0, error);
  if (thread != NULL)
    {
      g_atomic_int_set (&rec.done, 1);
      g_thread_join (thread);
      if (rec.error != NULL)
        {
          g_clear_error (error);
          g_propagate_prefixed_error (error, rec.error, "recording: ");
          ok = FALSE;
        }
    }
  printf ("goals sent: %u, motion stops: %u, wall time %.3f s\n", nb_http_robot_goals (http),
          nb_http_robot_stops (http), g_get_monotonic_time () * 1e-6 - t0);
  return ok;
}

static gboolean
run_base (const NbSequence *seq, guint iterations, double load_kg, guint fail_goal, guint32 seed,
          GError **error)
{
  NbSimBaseModel bm;
  NbSimBase base;
  gboolean ok;

  nb_sim_base_model_default (&bm);
  nb_sim_base_init (&base, &bm, load_kg, seed);
  base.fail_goal = fail_goal;
  ok = nb_sequence_run (seq, iterations, nb_sim_base_ops (), &base,
                        (const volatile int *) &stop_requested, print_line, &base.clock_s, error);
  printf ("goals sent: %u, motion stops: %u, virtual time %.3f s, pose %.2f mm, %.2f mm, "
          "%.3f°\n", base.goals, base.stops, base.clock_s, base.x_mm, base.y_mm, base.theta_deg);
  nb_sim_base_clear (&base);
  return ok;
}

typedef struct {
  gboolean real_time;
  guint fail_goal, stall_goal;
  double slow;
  guint32 seed;
} ArmFaults;

static gboolean
run_arm (const NbSequence *seq, guint iterations, const char *model_dir, const ArmFaults *f,
         NbRecorder *recorder, double record_hz, GError **error)
{
  NbArmModel model;
  NbSimArm arm;
  SimRecording rec = { 0 };
  gboolean ok;
  double T[16];

  /* The TCP is the active tool's (tool_active.xacro, as robot setup wrote it). */
  if (!nb_arm_model_load (model_dir, &model, error))
    return FALSE;
  nb_sim_arm_init (&arm, &model, f->seed);
  arm.real_time = f->real_time;
  arm.fail_goal = f->fail_goal;
  arm.stall_goal = f->stall_goal;
  arm.slow_factor = f->slow;
  if (recorder != NULL)
    {
      rec = (SimRecording) { recorder, &arm.model, g_get_real_time () * 1000, 1.0 / record_hz,
                             0.0, 20e-6, g_rand_new_with_seed (f->seed ^ 0x5eedu), NULL };
      arm.on_advance = on_sim_advance;
      arm.on_advance_data = &rec;
    }
  ok = nb_sequence_run (seq, iterations, nb_sim_arm_ops (), &arm,
                        (const volatile int *) &stop_requested, print_line, &arm.clock_s, error);
  if (recorder != NULL)
    {
      const double still[NB_ARM_JOINTS] = { 0 };

      /* Where the run ended, so the bag covers its whole time. */
      if (rec.error == NULL)
        record_sample (&rec, arm.clock_s, arm.q, still);
      if (rec.error != NULL)
        {
          g_clear_error (error);
          g_propagate_prefixed_error (error, rec.error, "recording: ");
          ok = FALSE;
        }
      g_rand_free (rec.rand);
    }
  nb_arm_fk (&arm.model, arm.q, T);
  printf ("goals sent: %u, motion stops: %u, virtual time %.3f s, TCP at %.6f %.6f %.6f m\n",
          arm.goals, arm.stops, arm.clock_s, T[3], T[7], T[11]);
  nb_sim_arm_clear (&arm);
  return ok;
}

static int
sequence_run (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("FILE.json");
  g_autoptr (GError) error = NULL;
  g_autoptr (NbSequence) seq = NULL;
  g_autofree char *robot = NULL, *bag = NULL, *model_dir = NULL, *root = NULL;
  gint iterations = 0, fail_goal = 0, stall_goal = 0, seed = 1;
  double slow = 1.0, load_kg = 0.0, record_hz = 50.0;
  gboolean real_time = FALSE;
  const GOptionEntry entries[] = {
    { "robot", 0, 0, G_OPTION_ARG_STRING, &robot,
      "sim (the iiwa 7, default), sim-base (the mobile base) or the motion stack's HTTP API "
      "(http://HOST:PORT, a bearer token from $NAVBENCH_TOKEN)", "sim|sim-base|URL" },
    { "load-kg", 0, 0, G_OPTION_ARG_DOUBLE, &load_kg, "sim-base: the load carried", "KG" },
    { "iterations", 0, 0, G_OPTION_ARG_INT, &iterations, "override n_iterations", "N" },
    { "bag", 0, 0, G_OPTION_ARG_FILENAME, &bag,
      "record into DIR (overrides bag_path; \"\" records nothing)", "DIR" },
    { "recordings-root", 0, 0, G_OPTION_ARG_FILENAME, &root,
      "where recordings live; a relative bag_path is under it (default "
      "$XDG_DATA_HOME/navbench/recordings)", "DIR" },
    { "record-hz", 0, 0, G_OPTION_ARG_DOUBLE, &record_hz, "samples per second (default 50)", "HZ" },
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
  NbRecorder *recorder = NULL;
  const char *bag_path;
  gboolean ok;

  g_option_context_set_summary (context,
    "Runs home → waypoints → home n_iterations times (seeds/003): MoveToJoints for a\n"
    "joint point, MoveToPose with its planner for a Cartesian one, each goal's result\n"
    "awaited; a failed goal stops the sequence with motion stop.  With bag_path, records\n"
    "the sequence's topics (/joint_states, /tcp_pose, /measured_pose) as a rosbag2\n"
    "directory with MCAP.  See data/sequences/pick-and-place.json.");
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
  if (iterations < 0 || fail_goal < 0 || stall_goal < 0 || !(slow > 0) ||
      !(record_hz > 0 && record_hz <= 1000))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--iterations, --fail-goal and --stall-goal "
                   "are ≥ 0, --slow > 0, --record-hz in (0, 1000]");
      return nb_cli_report_error (error);
    }
  if ((seq = nb_sequence_load (argv[1], &error)) == NULL)
    return nb_cli_report_error (error);

  /* seeds/003: with a bag_path the chosen topics are recorded; an empty one records nothing. */
  bag_path = bag != NULL ? bag : seq->bag_path;
  if (bag_path != NULL && *bag_path)
    {
      if (robot != NULL && g_str_equal (robot, "sim-base"))
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "bag_path %s: the mobile base has no "
                       "joint states to record; record its track with acquire", bag_path);
          return nb_cli_report_error (error);
        }
      if (root == NULL)
        root = nb_cli_recordings_root ();
      if ((recorder = nb_recorder_new (bag_path, root, seq->topics, &error)) == NULL)
        return nb_cli_report_error (error);
    }
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGTERM, &sa, NULL);
  sigaction (SIGINT, &sa, NULL);

  if (robot != NULL && g_str_has_prefix (robot, "http://"))
    ok = run_http (seq, (guint) iterations, robot, recorder, record_hz, &error);
  else if (robot != NULL && g_str_equal (robot, "sim-base"))
    ok = run_base (seq, (guint) iterations, load_kg, (guint) fail_goal, (guint32) seed, &error);
  else
    {
      const ArmFaults faults = { real_time, (guint) fail_goal, (guint) stall_goal, slow,
                                 (guint32) seed };

      if (model_dir == NULL)
        model_dir = nb_cli_data_path ("robots/iiwa7");
      ok = run_arm (seq, (guint) iterations, model_dir, &faults, recorder, record_hz, &error);
    }
  if (recorder != NULL)
    {
      g_autofree char *dir = g_strdup (nb_recorder_dir (recorder));
      guint64 n = nb_recorder_count (recorder);
      g_autoptr (GError) close_error = NULL;

      /* A failed or stopped run keeps what it recorded up to there, closed properly. */
      if (!nb_recorder_close (recorder, &close_error))
        {
          if (ok)
            return nb_cli_report_error (close_error);
        }
      else
        printf ("recorded %" G_GUINT64_FORMAT " messages into %s\n", n, dir);
    }
  return ok ? NB_EXIT_OK : nb_cli_report_error (error);
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
