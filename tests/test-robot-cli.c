/* seeds/002 without HTTP: the tool registry (robot setup rewrites
 * tool_active.xacro and iiwa7.srdf, keeping every group_state; tool none puts
 * the TCP on link_ee) and the named positions catalogue. */
#include "nb-test.h"
#include "nb-test-cli.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

static char *dir;

static char *
file (const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* The group_state elements of an SRDF, as text. */
static char *
group_states (const char *srdf)
{
  const char *a = strstr (srdf, "<group_state"), *b = g_strrstr (srdf, "</group_state>");

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  return g_strndup (a, (gsize) (b - a));
}

static void
copy_robot (void)
{
  const char *names[] = { "tools.yaml", "iiwa7.srdf", "tool_active.xacro", "joint_limits.yaml",
                          "kinematics.yaml" };

  dir = g_dir_make_tmp ("nb-robot-XXXXXX", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *src = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "robots",
                                               "iiwa7", names[i], NULL);
      g_autofree char *dst = g_build_filename (dir, names[i], NULL);
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
      g_assert_true (g_file_set_contents (dst, text, -1, NULL));
    }
}

static void
test_tool_change (void)
{
  g_autofree char *before = file ("iiwa7.srdf");
  g_autofree char *states = group_states (before);
  g_autofree char *err = NULL;

  g_free (nb_test_cli_run (NULL, 0, NULL, "robot", "setup", "--tool", "robotiq_2f85", "--dir", dir, NULL));
  {
    g_autofree char *srdf = file ("iiwa7.srdf"), *xacro = file ("tool_active.xacro");
    g_autofree char *after = group_states (srdf);

    /* Every named position kept, to the byte. */
    g_assert_cmpstr (after, ==, states);
    g_assert_nonnull (strstr (srdf, "tip_link=\"robotiq_tcp\""));
    g_assert_nonnull (strstr (srdf, "<disable_collisions link1=\"robotiq_base\" link2=\"robotiq_left_finger\" reason=\"Tool\"/>"));
    g_assert_nonnull (strstr (srdf, "link1=\"link_6\" link2=\"link_7\" reason=\"Adjacent\""));
    g_assert_nonnull (strstr (xacro, "<xacro:include filename=\"$(find iiwa7_tools)/urdf/robotiq_2f85.xacro\"/>"));
    g_assert_nonnull (strstr (xacro, "<origin xyz=\"0 0 0.16\" rpy=\"0 0 0\"/>"));
  }
  /* Another tool: the previous tool's pairs go, the robot's stay. */
  g_free (nb_test_cli_run (NULL, 0, NULL, "robot", "setup", "--tool", "marker_probe", "--dir", dir, NULL));
  {
    g_autofree char *srdf = file ("iiwa7.srdf");
    g_autofree char *after = group_states (srdf);

    g_assert_cmpstr (after, ==, states);
    g_assert_null (strstr (srdf, "robotiq"));
    g_assert_nonnull (strstr (srdf, "link2=\"probe_body\" reason=\"Tool\""));
    g_assert_nonnull (strstr (srdf, "tip_link=\"probe_tip\""));
  }
  /* none: the TCP is link_ee through a fixed joint; no tool pairs. */
  g_free (nb_test_cli_run (NULL, 0, NULL, "robot", "setup", "--tool", "none", "--dir", dir, NULL));
  {
    g_autofree char *srdf = file ("iiwa7.srdf"), *xacro = file ("tool_active.xacro");

    g_assert_null (strstr (srdf, "reason=\"Tool\"/>"));
    g_assert_nonnull (strstr (srdf, "tip_link=\"link_ee\""));
    g_assert_null (strstr (xacro, "xacro:include"));
    g_assert_nonnull (strstr (xacro, "<joint name=\"tcp_joint\" type=\"fixed\">"));
    g_assert_nonnull (strstr (xacro, "<parent link=\"link_ee\"/>"));
    g_assert_nonnull (strstr (xacro, "<origin xyz=\"0 0 0\" rpy=\"0 0 0\"/>"));
  }
  g_free (nb_test_cli_run (NULL, 2, &err, "robot", "setup", "--tool", "laser", "--dir", dir, NULL));
  g_assert_nonnull (strstr (err, "no tool 'laser' in tools.yaml (none, robotiq_2f85, marker_probe)"));
}

/* The sequence runner's TCP is the active tool's, read from tool_active.xacro. */
static void
final_tcp (double p[3])
{
  g_autofree char *seq = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "sequences",
                                           "pick-and-place.json", NULL);
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "sequence", "run", seq, "--robot-dir",
                                          dir, "--iterations", "1", NULL);
  const char *at = strstr (out, "TCP at ");

  g_assert_nonnull (at);
  g_assert_cmpint (sscanf (at, "TCP at %lf %lf %lf m", &p[0], &p[1], &p[2]), ==, 3);
}

static void
test_active_tool (void)
{
  double none[3], gripper[3], probe[3];

  g_free (nb_test_cli_run (NULL, 0, NULL, "robot", "setup", "--tool", "none", "--dir", dir, NULL));
  final_tcp (none);
  g_free (nb_test_cli_run (NULL, 0, NULL, "robot", "setup", "--tool", "robotiq_2f85", "--dir", dir, NULL));
  final_tcp (gripper);
  g_free (nb_test_cli_run (NULL, 0, NULL, "robot", "setup", "--tool", "marker_probe", "--dir", dir, NULL));
  final_tcp (probe);
  /* The run ends at home, the same joints for every tool (same seed, same
   * draws, up to backlash on differently reached Cartesian points, ~1e-5 rad): the TCP
   * sits the tool's length from link_ee along the flange axis. */
  nb_assert_abs (sqrt (pow (none[0] - gripper[0], 2) + pow (none[1] - gripper[1], 2) +
                       pow (none[2] - gripper[2], 2)), 0.160, 5e-5, "robotiq_2f85 TCP offset");
  nb_assert_abs (sqrt (pow (none[0] - probe[0], 2) + pow (none[1] - probe[1], 2) +
                       pow (none[2] - probe[2], 2)), 0.095, 5e-5, "marker_probe TCP offset");
  g_free (nb_test_cli_run (NULL, 0, NULL, "robot", "setup", "--tool", "none", "--dir", dir, NULL));
}

static void
test_positions (void)
{
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "robot", "positions", "--dir", dir, "--json", NULL);
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonArray *positions;
  JsonObject *ready, *joints;

  g_assert_true (json_parser_load_from_data (p, out, -1, NULL));
  positions = json_object_get_array_member (json_node_get_object (json_parser_get_root (p)),
                                            "positions");
  g_assert_cmpuint (json_array_get_length (positions), ==, 3);
  ready = json_array_get_object_element (positions, 1);
  g_assert_cmpstr (json_object_get_string_member (ready, "name"), ==, "ready");
  g_assert_cmpstr (json_object_get_string_member (ready, "group"), ==, "manipulator");
  g_assert_cmpstr (json_object_get_string_member (ready, "description"), ==,
                   "elbow up, the flange down, above the table");
  joints = json_object_get_object_member (ready, "joints");
  g_assert_cmpuint (json_object_get_size (joints), ==, 7);
  nb_assert_abs (json_object_get_double_member (joints, "joint4"), -1.2, 0, "ready joint4");
  nb_assert_abs (json_object_get_double_member (joints, "joint6"), 0.6, 0, "ready joint6");
}

static void
test_bad_srdf (void)
{
  g_autofree char *path = g_build_filename (dir, "iiwa7.srdf", NULL);
  g_autofree char *err = NULL;

  g_assert_true (g_file_set_contents (path, "<robot>\n  <group_state name=\"x\" group=\"g\">\n"
                                            "    <joint name=\"joint1\" value=\"abc\"/>\n"
                                            "  </group_state>\n</robot>\n", -1, NULL));
  g_free (nb_test_cli_run (NULL, 2, &err, "robot", "positions", "--dir", dir, NULL));
  g_assert_nonnull (strstr (err, "iiwa7.srdf:3: group_state 'x', joint 'joint1': 'abc' is not a number"));
  g_clear_pointer (&err, g_free);
  g_assert_true (g_file_set_contents (path, "<robot><group_state", -1, NULL));
  g_free (nb_test_cli_run (NULL, 2, &err, "robot", "positions", "--dir", dir, NULL));
  g_assert_nonnull (strstr (err, "iiwa7.srdf:1:"));
}

/* The simulated tracker watching the simulated mobile base (acquire --set
 * robot=base): the samples trace the rectangle of 4.5. */
static void
test_tracker_on_base (void)
{
  g_autofree char *csv = g_build_filename (dir, "acq.csv", NULL);
  g_autofree char *text = NULL, *err = NULL;
  g_auto (GStrv) lines = NULL;
  double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
  guint n = 0;

  /* acquire paces the simulator in real time: one short lap of 1 m sides. */
  g_free (nb_test_cli_run (NULL, 0, NULL, "acquire", "--duration", "10", "--set", "robot=base",
                           "--set", "side=1", "--set", "dwell=0.5", "--out", csv, NULL));
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) f = NULL;

      if (lines[i][0] == '#' || !g_ascii_isdigit (lines[i][0]))
        continue;
      f = g_strsplit (lines[i], ",", -1);
      xmin = MIN (xmin, g_ascii_strtod (f[2], NULL));
      xmax = MAX (xmax, g_ascii_strtod (f[2], NULL));
      ymin = MIN (ymin, g_ascii_strtod (f[3], NULL));
      ymax = MAX (ymax, g_ascii_strtod (f[3], NULL));
      n++;
    }
  /* 10 s at 50 Hz; a lap (4 × 1 s legs, 4 × 1 s turns, 4 × 0.5 s dwell) with the
   * base's errors (mm) and wander. */
  /* acquire stops on the wall clock: the last sample or two may miss it on a slow build. */
  g_assert_cmpuint (n, >=, 450);
  g_assert_cmpuint (n, <=, 501);
  nb_assert_abs (xmin, 0.0, 0.02, "x from P0");
  nb_assert_abs (xmax, 1.0, 0.02, "x to P1");
  nb_assert_abs (ymin, 0.0, 0.02, "y from P0");
  nb_assert_abs (ymax, 1.0, 0.02, "y to P2");
  g_free (nb_test_cli_run (NULL, 2, &err, "acquire", "--duration", "1", "--set", "robot=arm",
                           NULL));
  g_assert_nonnull (strstr (err, "robot 'arm': square or base"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  copy_robot ();
  g_test_add_func ("/robot/tool-change", test_tool_change);
  g_test_add_func ("/robot/active-tool", test_active_tool);
  g_test_add_func ("/robot/positions", test_positions);
  g_test_add_func ("/robot/bad-srdf", test_bad_srdf);
  g_test_add_func ("/robot/tracker-on-base", test_tracker_on_base);
  status = g_test_run ();
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while (d && (name = g_dir_read_name (d)))
      {
        g_autofree char *p = g_build_filename (dir, name, NULL);

        g_unlink (p);
      }
    g_rmdir (dir);
  }
  return status;
}
