/* The arm model of seeds/002: limits from joint_limits.yaml (every check uses
 * them), the DH kinematics of the iiwa 7, FK/IK round trips to 1e-6 m. */
#include "nb-arm-file.h"
#include "nb-error.h"
#include "nb-test.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static NbArmModel model;

static void
load (void)
{
  g_autofree char *dir = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "robots",
                                           "iiwa7", NULL);
  GError *error = NULL;

  g_assert_true (nb_arm_model_load (dir, &model, &error));
  g_assert_no_error (error);
}

static void
test_limits (void)
{
  double q[NB_ARM_JOINTS] = { 0 };
  GError *error = NULL;

  g_assert_cmpstr (model.joint[0].name, ==, "joint1");
  g_assert_cmpstr (model.joint[6].name, ==, "joint7");
  /* A2 ±120° hard, ±115° soft; A7 ±175° / ±170°; A6 180 °/s. */
  nb_assert_rel (model.joint[1].max_position, 120.0 * G_PI / 180.0, 1e-12, "A2 hard");
  nb_assert_rel (model.joint[1].soft_upper, 115.0 * G_PI / 180.0, 1e-12, "A2 soft");
  nb_assert_rel (model.joint[6].max_position, 175.0 * G_PI / 180.0, 1e-12, "A7 hard");
  nb_assert_rel (model.joint[5].max_velocity, G_PI, 1e-12, "A6 velocity");

  g_assert_true (nb_arm_check_joints (&model, q, NULL));
  q[1] = 2.01;                  /* inside the hard ±2.094, outside the soft ±2.007 */
  g_assert_false (nb_arm_check_joints (&model, q, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "joint2: 2.010000 rad is outside its soft range "
                                            "[-2.007129, 2.007129] rad"));
  g_clear_error (&error);
  q[1] = 0.0;
  q[6] = NAN;
  g_assert_false (nb_arm_check_joints (&model, q, &error));
  g_assert_nonnull (strstr (error->message, "joint7"));
  g_clear_error (&error);
}

static void
test_fk (void)
{
  double q[NB_ARM_JOINTS] = { 0 }, T[16];

  /* Stretched upright: 0.340 + 0.400 + 0.400 + 0.126 m above the base, the
   * flange's frame the base's. */
  nb_arm_fk (&model, q, T);
  nb_assert_abs (T[3], 0.0, 1e-15, "x");
  nb_assert_abs (T[7], 0.0, 1e-15, "y");
  nb_assert_abs (T[11], 1.266, 1e-15, "z");
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      nb_assert_abs (T[4 * i + j], i == j, 1e-15, "R = I");

  /* A2 at 90°: the arm lies horizontal at the shoulder's height, 0.926 m out. */
  q[1] = G_PI / 2;
  nb_arm_fk (&model, q, T);
  nb_assert_abs (hypot (T[3], T[7]), 0.926, 1e-12, "reach");
  nb_assert_abs (T[11], 0.340, 1e-12, "shoulder height");
  /* A1 turns it about z: the reach stays, the direction follows. */
  {
    double T2[16];

    q[0] = 0.7;
    nb_arm_fk (&model, q, T2);
    nb_assert_abs (hypot (T2[3], T2[7]), 0.926, 1e-12, "reach after A1");
    nb_assert_abs (atan2 (T2[7], T2[3]) - atan2 (T[7], T[3]), 0.7, 1e-12, "A1 turns the arm");
  }
}

static void
test_ik_round_trips (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  guint converged = 0;

  for (int k = 0; k < 200; k++)
    {
      double q[NB_ARM_JOINTS], seed[NB_ARM_JOINTS], sol[NB_ARM_JOINTS], T[16], S[16];
      GError *error = NULL;

      for (int i = 0; i < NB_ARM_JOINTS; i++)
        {
          double lo, hi;

          nb_arm_joint_range (&model.joint[i], &lo, &hi);
          q[i] = g_rand_double_range (rand, 0.8 * lo, 0.8 * hi);
          seed[i] = q[i] + g_rand_double_range (rand, -0.15, 0.15);
        }
      nb_arm_fk (&model, q, T);
      if (!nb_arm_ik (&model, T, seed, sol, &error))
        g_error ("config %d: %s", k, error->message);
      g_assert_true (nb_arm_check_joints (&model, sol, NULL));
      nb_arm_fk (&model, sol, S);
      nb_assert_abs (S[3], T[3], 1e-6, "x round trip");
      nb_assert_abs (S[7], T[7], 1e-6, "y round trip");
      nb_assert_abs (S[11], T[11], 1e-6, "z round trip");
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          nb_assert_abs (S[4 * i + j], T[4 * i + j], 1e-6, "R round trip");
      converged++;
    }
  g_assert_cmpuint (converged, ==, 200);
}

static void
test_ik_unreachable (void)
{
  double T[16] = { 1, 0, 0, 2.0, 0, 1, 0, 0, 0, 0, 1, 0.5, 0, 0, 0, 1 };
  double seed[NB_ARM_JOINTS] = { 0, 0.5, 0, -0.5, 0, 0.5, 0 }, q[NB_ARM_JOINTS];
  GError *error = NULL;

  /* 2 m out: beyond the arm's 1.27 m reach; a clear failure, not a hang. */
  g_assert_false (nb_arm_ik (&model, T, seed, q, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "unreachable"));
  g_clear_error (&error);
}

static void
test_bad_files (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-arm-XXXXXX", NULL);
  g_autofree char *limits = g_build_filename (dir, "joint_limits.yaml", NULL);
  g_autofree char *kin = g_build_filename (dir, "kinematics.yaml", NULL);
  g_autofree char *src_dir = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "robots",
                                               "iiwa7", NULL);
  g_autofree char *src_limits = g_build_filename (src_dir, "joint_limits.yaml", NULL);
  g_autofree char *src_kin = g_build_filename (src_dir, "kinematics.yaml", NULL);
  g_autofree char *good = NULL, *good_kin = NULL;
  struct { const char *from, *to, *message; } cases[] = {
    { "max_velocity: 1.71042266695444", "max_velocity: fast",
      "joint_limits.yaml:12: joint_limits/joint1/max_velocity: 'fast' is not a finite number" },
    { "soft_upper_limit: 2.87979326579064\n  joint2", "soft_upper_limit: 3.1\n  joint2",
      "joint1: the soft range" },
    { "  joint7:", "  jointX:", "'joint_limits/joint7/has_position_limits'" },
    { "has_soft_limits: true", "has_soft_limits: yes please", "is not true or false" },
    { "joint_limits:", "joint_limits: [", "joint_limits.yaml:" },
    /* A container as a key (found by fuzz-robot: it unbalanced the key path). */
    { "joint_limits:", "? {a: b}\n: 1\njoint_limits:", "joint_limits.yaml:6: a key must be a plain scalar" },
  };
  NbArmModel m;

  g_assert_true (g_file_get_contents (src_limits, &good, NULL, NULL));
  g_assert_true (g_file_get_contents (src_kin, &good_kin, NULL, NULL));
  g_assert_true (g_file_set_contents (kin, good_kin, -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GString) s = g_string_new (good);
      GError *error = NULL;

      g_assert_cmpuint (g_string_replace (s, cases[i].from, cases[i].to, 1), ==, 1);
      g_assert_true (g_file_set_contents (limits, s->str, -1, NULL));
      if (nb_arm_model_load (dir, &m, &error))
        g_error ("case %u: the bad file loads", i);
      g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("case %u: \"%s\" lacks \"%s\"", i, error->message, cases[i].message);
      g_clear_error (&error);
    }
  /* 200 KB of nesting took 24 s (time n²): refused at 64 levels, at once. */
  {
    g_autoptr (GString) deep = g_string_new ("joint_limits:\n  x: ");
    gint64 t0 = g_get_monotonic_time ();
    GError *error = NULL;

    for (int i = 0; i < 200000; i++)
      g_string_append_c (deep, '[');
    g_string_append (deep, "\n");
    g_assert_true (g_file_set_contents (limits, deep->str, -1, NULL));
    g_assert_false (nb_arm_model_load (dir, &m, &error));
    g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
    g_assert_nonnull (strstr (error->message, "joint_limits.yaml:2: nested deeper than 64 levels"));
    g_clear_error (&error);
    g_assert_cmpint (g_get_monotonic_time () - t0, <, 2000000);
  }
  g_unlink (limits);
  {
    GError *error = NULL;

    g_assert_false (nb_arm_model_load (dir, &m, &error));
    g_assert_nonnull (strstr (error->message, "No such file"));
    g_clear_error (&error);
  }
  g_unlink (kin);
  g_rmdir (dir);
}

/* The active tool of tool_active.xacro: its TCP joint read back; a file that
 * does not say where the TCP is fails the load, naming file and line. */
static void
test_active_tool (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-arm-XXXXXX", NULL);
  g_autofree char *src_dir = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "robots",
                                               "iiwa7", NULL);
  g_autofree char *xacro = g_build_filename (dir, "tool_active.xacro", NULL);
  const char *names[] = { "joint_limits.yaml", "kinematics.yaml" };
  const char *head = "<?xml version=\"1.0\"?>\n<!-- Written by navbench-cli robot setup: tool "
                     "\"probe\". -->\n<robot xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n";
  struct { const char *body, *message; } bad[] = {
    { "<link name=\"tcp\"/>\n", "no <joint name=\"tcp_joint\">" },
    { "<joint name=\"tcp_joint\" type=\"fixed\">\n<parent link=\"link_7\"/>\n</joint>\n",
      "tool_active.xacro:4: tcp_joint: the parent link must be link_ee" },
    { "<joint name=\"tcp_joint\" type=\"fixed\"><parent link=\"link_ee\"/>\n"
      "<origin xyz=\"0 0\" rpy=\"0 0 0\"/></joint>\n", "tool_active.xacro:5: tcp_joint origin xyz=\"0 0\"" },
    { "<joint name=\"tcp_joint\" type=\"fixed\"><parent link=\"link_ee\"/>\n"
      "<origin xyz=\"0 0 0\" rpy=\"0 nan 0\"/></joint>\n", "expected three finite numbers" },
    { "<joint name=\"tcp_joint\"", "tool_active.xacro:" },
  };
  g_autofree char *name = NULL;
  double xyz[3], rpy[3], T0[16], T1[16];
  const double q[NB_ARM_JOINTS] = { 0.1, 0.4, -0.2, -1.1, 0.3, 0.7, 0.2 };
  NbArmModel m;
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *src = g_build_filename (src_dir, names[i], NULL);
      g_autofree char *dst = g_build_filename (dir, names[i], NULL);
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
      g_assert_true (g_file_set_contents (dst, text, -1, NULL));
    }
  /* No tool_active.xacro: tool none, the TCP on link_ee. */
  g_assert_true (nb_arm_model_load (dir, &m, &error));
  nb_arm_fk (&m, q, T0);

  /* A 0.1 m probe turned 90° about x: the TCP is 0.1 m along the flange's z. */
  {
    g_autofree char *text = g_strconcat (head, "<link name=\"tcp\"/>\n<joint name=\"tcp_joint\" "
                                         "type=\"fixed\">\n <parent link=\"link_ee\"/>\n <child "
                                         "link=\"tcp\"/>\n <origin xyz=\" 0  0 0.1\" rpy=\"1.5707963267948966 "
                                         "0 0\"/>\n</joint>\n</robot>\n", NULL);

    g_assert_true (g_file_set_contents (xacro, text, -1, NULL));
  }
  g_assert_true (nb_arm_active_tool (dir, &name, xyz, rpy, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (name, ==, "probe");
  nb_assert_abs (xyz[2], 0.1, 0, "xyz z");
  nb_assert_abs (rpy[0], G_PI / 2, 1e-15, "roll");
  g_assert_true (nb_arm_model_load (dir, &m, &error));
  nb_arm_fk (&m, q, T1);
  for (int r = 0; r < 3; r++)
    {
      /* TCP = flange + 0.1 · flange z axis; its y axis is the flange's z. */
      nb_assert_abs (T1[4 * r + 3], T0[4 * r + 3] + 0.1 * T0[4 * r + 2], 1e-12, "TCP position");
      nb_assert_abs (T1[4 * r + 1], T0[4 * r + 2], 1e-12, "TCP y = flange z");
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *text = g_strconcat (head, bad[i].body, "</robot>\n", NULL);

      g_assert_true (g_file_set_contents (xacro, text, -1, NULL));
      if (nb_arm_model_load (dir, &m, &error))
        g_error ("case %u: the bad xacro loads", i);
      g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
      if (strstr (error->message, bad[i].message) == NULL)
        g_error ("case %u: \"%s\" lacks \"%s\"", i, error->message, bad[i].message);
      g_clear_error (&error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *dst = g_build_filename (dir, names[i], NULL);

      g_unlink (dst);
    }
  g_unlink (xacro);
  g_rmdir (dir);
}

/* ROS poses (x, y, z, w) to 4×4 and back: a hand-worked turn, random round trips. */
static void
test_pose_matrix (void)
{
  const double p[3] = { 0.45, -0.25, 0.35 }, half_turn_y[4] = { 0, 1, 0, 0 };
  const double want[16] = { -1, 0, 0, 0.45, 0, 1, 0, -0.25, 0, 0, -1, 0.35, 0, 0, 0, 1 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  double T[16], p2[3], q2[4];

  nb_arm_pose_to_matrix (p, half_turn_y, T);
  for (int i = 0; i < 16; i++)
    nb_assert_abs (T[i], want[i], 1e-15, "half turn about y");
  for (int k = 0; k < 1000; k++)
    {
      double q[4], n = 0, dot = 0;

      for (int i = 0; i < 4; i++)
        {
          q[i] = g_rand_double_range (rand, -1, 1);
          n += q[i] * q[i];
        }
      for (int i = 0; i < 4; i++)
        q[i] /= sqrt (n);
      nb_arm_pose_to_matrix (p, q, T);
      nb_arm_pose_from_matrix (T, p2, q2);
      for (int i = 0; i < 4; i++)
        dot += q[i] * q2[i];
      /* q and −q are one rotation. */
      nb_assert_abs (fabs (dot), 1.0, 1e-12, "quaternion round trip");
      for (int i = 0; i < 3; i++)
        nb_assert_abs (p2[i], p[i], 0, "position round trip");
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  load ();
  g_test_add_func ("/arm/limits", test_limits);
  g_test_add_func ("/arm/fk", test_fk);
  g_test_add_func ("/arm/ik-round-trips", test_ik_round_trips);
  g_test_add_func ("/arm/ik-unreachable", test_ik_unreachable);
  g_test_add_func ("/arm/bad-files", test_bad_files);
  g_test_add_func ("/arm/active-tool", test_active_tool);
  g_test_add_func ("/arm/pose-matrix", test_pose_matrix);
  return g_test_run ();
}
