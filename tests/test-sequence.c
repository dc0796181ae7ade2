/* Motion sequences (seeds/003) on the simulated arm (seeds/002): the scenarios
 * that need no HTTP — two iterations without recording, abort on a failed
 * point with no further goal, soft limits refused before motion, the default
 * frame, stop before the remaining points (a flag, and SIGTERM to the CLI). */
#include "nb-arm-file.h"
#include "nb-error.h"
#include "nb-sequence.h"
#include "nb-sim-arm.h"
#include "nb-test.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static NbArmModel model;

static char *
source (const char *a, const char *b, const char *c)
{
  return g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), a, b, c, NULL);
}

static NbSequence *
example (void)
{
  g_autofree char *path = source ("data", "sequences", "pick-and-place.json");
  GError *error = NULL;
  NbSequence *s = nb_sequence_load (path, &error);

  g_assert_no_error (error);
  return s;
}

static void
test_parse (void)
{
  g_autoptr (NbSequence) s = example ();
  NbSequencePoint *pick;

  g_assert_cmpint (s->home.kind, ==, NB_POINT_JOINTS);
  nb_assert_abs (s->home.joints[3], -1.2, 0, "home joint4");
  g_assert_cmpuint (s->waypoints->len, ==, 4);
  pick = &g_array_index (s->waypoints, NbSequencePoint, 1);
  g_assert_cmpint (pick->kind, ==, NB_POINT_POSE);
  g_assert_cmpstr (pick->planner, ==, "pilz_lin");
  g_assert_cmpstr (pick->frame_id, ==, "base_link");
  nb_assert_abs (pick->position[0], 0.45, 0, "pick x");
  g_assert_cmpstr (g_array_index (s->waypoints, NbSequencePoint, 3).frame_id, ==, "");
  g_assert_cmpuint (s->n_iterations, ==, 2);
  nb_assert_abs (s->pause_s, 0.5, 0, "pause");
  g_assert_cmpuint (s->topics->len, ==, 2);
}

static void
test_parse_errors (void)
{
  const char *home = "\"home\": {\"joints\": [0, 0, 0, 0, 0, 0, 0]}";
  struct { const char *tail; const char *message; } cases[] = {
    { ", \"waypoints\": [{\"joints\": [0,0,0,0,0,0,0]}, {\"jionts\": [0,0,0,0,0,0,0]}]",
      "t.json: waypoints[1]: unknown key 'jionts'" },
    { ", \"waypoints\": [{\"joints\": [0,0,0,0,0,0]}]",
      "t.json: waypoints[0].joints: expected seven joint angles in rad (7 numbers)" },
    { ", \"waypoints\": [{\"joints\": [0,0,0,0,0,0,0], \"pose\": {}}]",
      "t.json: waypoints[0]: a point has either \"joints\" or \"pose\"" },
    { ", \"waypoints\": [{\"pose\": {\"position\": [1,0,0], \"orientation\": [0,0,0,1]}}]",
      "t.json: waypoints[0]: a Cartesian point needs its \"planner\"" },
    { ", \"waypoints\": [{\"pose\": {\"position\": [1,0,0], \"orientation\": [0,0,0,2]}, \"planner\": \"p\"}]",
      "t.json: waypoints[0].pose.orientation: not a unit quaternion (norm 2)" },
    { ", \"waypoints\": [{\"joints\": [0,0,\"x\",0,0,0,0]}]", "t.json: waypoints[0].joints[2]: not a number" },
    { ", \"n_iterations\": 0", "t.json: n_iterations: expected a whole number from 1" },
    { ", \"pause_s\": -1", "t.json: pause_s: expected seconds, not negative" },
    { ", \"speed\": 2", "t.json: the sequence: unknown key 'speed'" },
    { ", \"waypoints\": [{\"joints\": [0,0,0,0,0,0,0], \"planner\": \"p\"}]",
      "a joint point takes no planner" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = g_strdup_printf ("{%s%s}", home, cases[i].tail);
      GError *error = NULL;

      g_assert_null (nb_sequence_parse ("t.json", json, -1, &error));
      g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("case %u: \"%s\" lacks \"%s\"", i, error->message, cases[i].message);
      g_clear_error (&error);
    }
  {
    GError *error = NULL;

    g_assert_null (nb_sequence_parse ("t.json", "{\"home\": ", -1, &error));
    g_assert_cmpstr (error->message, ==, "t.json:1: column 10: unexpected end of the document");
    g_clear_error (&error);
    /* An empty document (found by fuzz-robot): json-glib parses it without a root. */
    g_assert_null (nb_sequence_parse ("t.json", " \n", -1, &error));
    g_assert_cmpstr (error->message, ==, "t.json:2: column 1: unexpected end of the document");
    g_clear_error (&error);
    g_assert_null (nb_sequence_parse ("t.json", "{}", -1, &error));
    g_assert_nonnull (strstr (error->message, "home: expected a point"));
    g_clear_error (&error);
  }
}

static void
test_two_iterations (void)
{
  g_autoptr (NbSequence) s = example ();
  NbSimArm arm;
  GError *error = NULL;

  nb_sim_arm_init (&arm, &model, 1);
  g_assert_true (nb_sequence_run (s, 0, nb_sim_arm_ops (), &arm, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  /* home → 4 waypoints → home, twice: 12 goals, no stop. */
  g_assert_cmpuint (arm.goals, ==, 12);
  g_assert_cmpuint (arm.stops, ==, 0);
  /* It ends at home, within the simulated servo noise. */
  for (int i = 0; i < NB_ARM_JOINTS; i++)
    nb_assert_abs (arm.q[i], s->home.joints[i], 1e-4, "back home");
  /* The default frame: the last Cartesian goal had frame_id "". */
  g_assert_cmpstr (arm.last_frame, ==, "base_link");
  nb_sim_arm_clear (&arm);
}

static void
test_abort_on_failure (void)
{
  g_autoptr (NbSequence) s = example ();
  NbSimArm arm;
  GError *error = NULL;

  nb_sim_arm_init (&arm, &model, 1);
  arm.fail_goal = 4;
  g_assert_false (nb_sequence_run (s, 0, nb_sim_arm_ops (), &arm, NULL, NULL, NULL, &error));
  /* No further point after the failed one, and motion stop requested. */
  g_assert_cmpuint (arm.goals, ==, 4);
  g_assert_cmpuint (arm.stops, ==, 1);
  g_assert_nonnull (strstr (error->message, "iteration 1 point 4 (above the table)"));
  g_clear_error (&error);
  nb_sim_arm_clear (&arm);
}

static void
test_soft_limit (void)
{
  const char *json = "{\"home\": {\"joints\": [0, 0, 0, 0, 0, 0, 0]},"
                     " \"waypoints\": [{\"name\": \"too far\", \"joints\": [0, 2.05, 0, 0, 0, 0, 0]}]}";
  g_autoptr (NbSequence) s = nb_sequence_parse ("t.json", json, -1, NULL);
  NbSimArm arm;
  GError *error = NULL;

  nb_sim_arm_init (&arm, &model, 1);
  g_assert_false (nb_sequence_run (s, 0, nb_sim_arm_ops (), &arm, NULL, NULL, NULL, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "joint2: 2.050000 rad is outside its soft range"));
  /* Refused before any motion: the arm is still home. */
  nb_assert_abs (arm.q[1], 0.0, 1e-4, "joint2 did not move");
  g_assert_cmpuint (arm.stops, ==, 1);
  g_clear_error (&error);
  nb_sim_arm_clear (&arm);
}

typedef struct {
  guint lines;
  volatile int *flag;
} StopAfter;

static void
stop_after_three (const char *line, gpointer data)
{
  StopAfter *sa = data;

  if (++sa->lines == 3)
    *sa->flag = 1;              /* as a signal handler would, mid-sequence */
}

static void
test_stop_flag (void)
{
  g_autoptr (NbSequence) s = example ();
  volatile int flag = 0;
  StopAfter sa = { 0, &flag };
  NbSimArm arm;
  GError *error = NULL;

  nb_sim_arm_init (&arm, &model, 1);
  g_assert_false (nb_sequence_run (s, 0, nb_sim_arm_ops (), &arm, &flag, stop_after_three, &sa,
                                   &error));
  /* The third point was under way when the stop came: nothing after it. */
  g_assert_cmpuint (arm.goals, ==, 3);
  g_assert_cmpuint (arm.stops, ==, 1);
  g_assert_nonnull (strstr (error->message, "stopped before iteration 1 point 4"));
  g_clear_error (&error);
  nb_sim_arm_clear (&arm);
}

static void
test_thousand_points (void)
{
  GString *json = g_string_new ("{\"home\": {\"joints\": [0, 0.3, 0, -1, 0, 0.5, 0]}, \"waypoints\": [");
  g_autoptr (NbSequence) s = NULL;
  NbSimArm arm;
  gint64 t0;

  for (int i = 0; i < 1000; i++)
    g_string_append_printf (json, "%s{\"joints\": [%g, 0.3, 0, -1, 0, 0.5, 0]}", i ? "," : "",
                            0.5 * sin (i * 0.1));
  g_string_append (json, "]}");
  s = nb_sequence_parse ("t.json", json->str, -1, NULL);
  g_string_free (json, TRUE);
  g_assert_nonnull (s);
  nb_sim_arm_init (&arm, &model, 2);
  t0 = g_get_monotonic_time ();
  g_assert_true (nb_sequence_run (s, 1, nb_sim_arm_ops (), &arm, NULL, NULL, NULL, NULL));
  g_test_message ("1000 points: %.3f s wall, %.1f s on the virtual clock",
                  (g_get_monotonic_time () - t0) / 1e6, arm.clock_s);
  g_assert_cmpuint (arm.goals, ==, 1002);
  g_assert_cmpfloat (arm.clock_s, >, 10.0);
  nb_sim_arm_clear (&arm);
}

/* SIGTERM to `navbench-cli sequence run` stops it before its remaining points. */
static void
test_cli_sigterm (void)
{
  g_autofree char *file = source ("data", "sequences", "pick-and-place.json");
  const char *argv[] = { g_getenv ("NAVBENCH_CLI"), "sequence", "run", file, "--real-time", NULL };
  g_autoptr (GError) error = NULL;
  GPid pid;
  int out_fd, status;
  GString *out = g_string_new (NULL);
  char buf[4096];
  gssize n;

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &pid, NULL, &out_fd, NULL, &error));
  /* Wait for the second point to be under way, then ask it to stop. */
  while (strstr (out->str, "point 2/6") == NULL && (n = read (out_fd, buf, sizeof buf)) > 0)
    g_string_append_len (out, buf, n);
  kill (pid, SIGTERM);
  while ((n = read (out_fd, buf, sizeof buf)) > 0)
    g_string_append_len (out, buf, n);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  close (out_fd);
  g_spawn_close_pid (pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_nonnull (strstr (out->str, "stopped before iteration 1/2 point 3/6; motion stop requested"));
  g_assert_nonnull (strstr (out->str, "goals sent: 2, motion stops: 1"));
  g_assert_null (strstr (out->str, "point 3/6 pick"));
  g_string_free (out, TRUE);
}

/* Fault injection beyond a failed goal: a stalled goal times out, a slow arm
 * takes longer; and the active tool's TCP is what a Cartesian goal places. */
static void
test_faults_and_tool (void)
{
  g_autoptr (NbSequence) s = example ();
  const char *one = "{\"home\": {\"joints\": [0, 0.35, 0, -1.2, 0, 0.6, 0]}, \"waypoints\": ["
                    "{\"pose\": {\"position\": [0.45, 0.25, 0.35], \"orientation\": [0, 1, 0, 0]},"
                    " \"planner\": \"pilz_ptp\"}]}";
  g_autoptr (NbSequence) p = nb_sequence_parse ("t.json", one, -1, NULL);
  const double xyz[3] = { 0, 0, 0.160 }, rpy[3] = { 0, 0, 0 };
  NbSimArm arm;
  GError *error = NULL;
  double t1, t2, T[16];

  nb_sim_arm_init (&arm, &model, 1);
  arm.stall_goal = 2;
  g_assert_false (nb_sequence_run (s, 0, nb_sim_arm_ops (), &arm, NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "no result within 60 s"));
  g_assert_cmpuint (arm.goals, ==, 2);
  g_assert_cmpuint (arm.stops, ==, 1);
  g_clear_error (&error);
  nb_sim_arm_clear (&arm);

  nb_sim_arm_init (&arm, &model, 1);
  g_assert_true (nb_sequence_run (s, 1, nb_sim_arm_ops (), &arm, NULL, NULL, NULL, NULL));
  t1 = arm.clock_s;
  nb_sim_arm_clear (&arm);
  nb_sim_arm_init (&arm, &model, 1);
  arm.slow_factor = 2.0;
  g_assert_true (nb_sequence_run (s, 1, nb_sim_arm_ops (), &arm, NULL, NULL, NULL, NULL));
  t2 = arm.clock_s;
  nb_sim_arm_clear (&arm);
  nb_assert_rel (t2, 2.0 * t1, 1e-6, "slow-down doubles the motion time");

  /* A gripper's TCP 160 mm beyond the flange: the TCP, not link_ee, reaches the pose. */
  nb_sim_arm_init (&arm, &model, 1);
  nb_sim_arm_set_tcp (&arm, xyz, rpy);
  arm.noise_rad = 0;
  arm.backlash_rad = 0;
  g_assert_true (nb_sequence_run (p, 1, nb_sim_arm_ops (), &arm, NULL, NULL, NULL, NULL));
  /* The last goal was home; replay the Cartesian one alone and look at the TCP. */
  {
    const double pos[3] = { 0.45, 0.25, 0.35 }, q[4] = { 0, 1, 0, 0 };

    g_assert_true (nb_sim_arm_ops ()->move_to_pose (&arm, "", pos, q, "pilz_ptp", NULL));
    nb_arm_fk (&arm.model, arm.q, T);
    nb_assert_abs (T[3], 0.45, 1e-6, "TCP x");
    nb_assert_abs (T[7], 0.25, 1e-6, "TCP y");
    nb_assert_abs (T[11], 0.35, 1e-6, "TCP z");
    nb_arm_fk (&model, arm.q, T);         /* the bare flange is 160 mm above */
    nb_assert_abs (T[11], 0.51, 1e-6, "flange z");
  }
  nb_sim_arm_clear (&arm);
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = source ("data", "robots", "iiwa7");

  g_test_init (&argc, &argv, NULL);
  g_assert_true (nb_arm_model_load (dir, &model, NULL));
  g_test_add_func ("/sequence/parse", test_parse);
  g_test_add_func ("/sequence/parse-errors", test_parse_errors);
  g_test_add_func ("/sequence/two-iterations", test_two_iterations);
  g_test_add_func ("/sequence/abort-on-failure", test_abort_on_failure);
  g_test_add_func ("/sequence/soft-limit", test_soft_limit);
  g_test_add_func ("/sequence/stop-flag", test_stop_flag);
  g_test_add_func ("/sequence/thousand-points", test_thousand_points);
  g_test_add_func ("/sequence/cli-sigterm", test_cli_sigterm);
  g_test_add_func ("/sequence/faults-and-tool", test_faults_and_tool);
  return g_test_run ();
}
