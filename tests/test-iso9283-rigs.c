/* The two rigs of `campaign run --standard iso9283` (protocols/nb-iso9283-run):
 * --robot sim (nb_iso9283_sim_rig_init) and --robot http://… (
 * nb_iso9283_served_rig_init), which the pose run and the plan (--all) and
 * the window share: what each fills in the rig, the arm's error model and
 * the unit's, the measurement's seed, a refused URL.  No server: the rig
 * only talks to it when a goal is sent. */
#include "nb-arm-file.h"
#include "nb-error.h"
#include "nb-iso9283-csv.h"
#include "nb-iso9283-run.h"
#include "nb-test.h"

#include <string.h>

static void
load_model (NbArmModel *model)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "robots",
                                           "iiwa7", NULL);

  g_assert_true (nb_arm_model_load (dir, model, &error));
  g_assert_no_error (error);
}

/* Joint offsets of the arm: the demonstration model's, plus the unit's. */
static void
test_sim_arm (void)
{
  NbArmModel model;
  NbSimArm demo, plain, unit, again;

  load_model (&model);
  nb_sim_arm_init (&demo, &model, 3);
  nb_iso9283_sim_errors (&demo);
  nb_iso9283_sim_arm_init (&plain, &model, 3, NULL);
  nb_iso9283_sim_arm_init (&unit, &model, 3, "SN-42");
  nb_iso9283_sim_arm_init (&again, &model, 3, "SN-42");
  for (guint i = 0; i < NB_ARM_JOINTS; i++)
    {
      nb_assert_abs (plain.joint_offset_rad[i], demo.joint_offset_rad[i], 0.0, "demonstration");
      nb_assert_abs (again.joint_offset_rad[i], unit.joint_offset_rad[i], 0.0, "same unit");
    }
  /* 2e-4 rad on joint 2 (nb_iso9283_sim_errors); a unit has its own. */
  nb_assert_abs (plain.joint_offset_rad[1], 2e-4, 1e-15, "joint 2 offset");
  g_assert_cmpfloat (fabs (unit.joint_offset_rad[1] - plain.joint_offset_rad[1]), >, 1e-7);
  nb_sim_arm_clear (&demo);
  nb_sim_arm_clear (&plain);
  nb_sim_arm_clear (&unit);
  nb_sim_arm_clear (&again);
}

static void
test_sim_rig (void)
{
  NbArmModel model;
  NbIso9283SimRig sim;
  NbIso9283Rig rig = { 0 };

  load_model (&model);
  nb_iso9283_sim_rig_init (&sim, &rig, &model, 5, NULL);
  g_assert_true (rig.ops == nb_sim_arm_ops ());
  g_assert_true (rig.robot == &sim.arm && rig.sim == &sim.arm && rig.truth == &sim.arm);
  g_assert_true (rig.tracker == &sim.tracker);
  g_assert_true (rig.measure == nb_iso9283_measure_sim && rig.measure_data == &sim.measure);
  g_assert_cmpstr (rig.robot_name, ==, "sim");
  nb_assert_abs (sim.measure.window_s, 0.2, 0.0, "the rest's window");
  g_assert_null (rig.http);
  nb_iso9283_sim_rig_clear (&sim);
}

static void
test_served_rig (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GRand) expected = g_rand_new_with_seed (7 + 1);
  g_autoptr (NbDevice) device = NULL;
  NbArmModel model;
  NbIso9283ServedRig served;
  NbIso9283Rig rig = { 0 };
  NbSimArm unit;

  load_model (&model);
  /* Not a motion API URL: refused, nothing to clear. */
  g_assert_false (nb_iso9283_served_rig_init (&served, &rig, "ftp://arm", &model, 7, NULL, NULL,
                                              0.05, 0.1, NULL, TRUE, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_cmpstr (error->message, ==, "--robot ftp://arm: expected sim, sim-base or http://HOST:PORT");
  g_assert_null (served.http);
  g_assert_null (rig.robot);
  g_clear_error (&error);

  /* The simulated tracker on the true arm (the unit's), seed + 1; the
   * sampler of the stream when asked. */
  g_assert_true (nb_iso9283_served_rig_init (&served, &rig, "http://127.0.0.1:9", &model, 7,
                                             "SN-42", NULL, 0.05, 0.1, NULL, TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (rig.ops == nb_http_robot_ops ());
  g_assert_true (rig.robot == served.http && rig.http == served.http);
  g_assert_cmpstr (rig.robot_name, ==, "http://127.0.0.1:9");
  g_assert_true (rig.truth == &served.truth);
  g_assert_true (rig.measure == nb_iso9283_measure_state && rig.measure_data == &served.state);
  g_assert_true (served.state.robot == served.http && served.state.truth == &served.truth);
  nb_assert_abs (served.state.noise_mm, 0.005, 0.0, "σ 5 µm");
  nb_assert_abs (served.state.noise_deg, 0.002, 0.0, "σ 0.002°");
  g_assert_cmpuint (g_rand_int (served.state.rand), ==, g_rand_int (expected));
  g_assert_cmpstr (rig.measurement, ==, nb_iso9283_sim_measurement (TRUE));
  g_assert_nonnull (rig.sampler);
  g_assert_null (rig.sim);
  g_assert_null (rig.tracker);
  nb_iso9283_sim_arm_init (&unit, &model, 7, "SN-42");
  for (guint i = 0; i < NB_ARM_JOINTS; i++)
    nb_assert_abs (served.truth.joint_offset_rad[i], unit.joint_offset_rad[i], 0.0, "the unit");
  nb_sim_arm_clear (&unit);
  nb_iso9283_served_rig_clear (&served, &rig);
  g_assert_null (rig.sampler);
  g_assert_null (served.http);

  /* A live instrument measures the served arm itself: no true arm, its
   * window after each goal. */
  memset (&rig, 0, sizeof rig);
  device = nb_device_new ("sim", &error);
  g_assert_no_error (error);
  g_assert_true (nb_iso9283_served_rig_init (&served, &rig, "http://127.0.0.1:9", &model, 7, NULL,
                                             device, 0.05, 0.1, "natnet udp://239.255.42.99:1511",
                                             TRUE, &error));
  g_assert_true (rig.measure == nb_iso9283_measure_device && rig.measure_data == &served.device);
  g_assert_true (served.device.device == device);
  nb_assert_abs (served.device.guard_s, 0.05, 0.0, "guard");
  nb_assert_abs (served.device.window_s, 0.1, 0.0, "window");
  nb_assert_abs (served.device.timeout_s, 2.0, 0.0, "timeout");
  nb_assert_abs (served.device.band_mm, 0.5, 0.0, "band");
  g_assert_null (rig.truth);
  g_assert_null (rig.sampler);
  g_assert_cmpstr (rig.measurement, ==, "natnet udp://239.255.42.99:1511");
  /* Its stream during the goals too (7.4, 7.5, 8, 9), into arrays of the
   * rig's own once a configuration is set. */
  g_assert_true (rig.stream_device == device);
  g_assert_null (nb_iso9283_rig_lacks (&rig, NB_ISO9283_NEEDS_STREAM));
  g_assert_nonnull (nb_iso9283_rig_lacks (&rig, NB_ISO9283_NEEDS_FORCE));
  rig.rated_load_kg = 7;
  g_assert_true (nb_iso9283_rig_configure (&rig, 100, "rated", &error));
  g_assert_true (rig.stream_t_s != NULL && rig.stream_t_s == rig.device_t_s);
  g_assert_true (rig.stream_pose != NULL && rig.stream_pose == rig.device_pose);
  nb_iso9283_served_rig_clear (&served, &rig);
  g_assert_null (rig.device_t_s);
  g_assert_null (rig.stream_t_s);
}

/* A live instrument's samples of a goal on the rig's clock: stamped ones by
 * their stamps, moved by the least arrival − stamp; else as they came. */
static void
test_stream_times (void)
{
  /* Frames taken 1 ms apart (the instrument's clock from 17.2 s), arriving
   * in bursts 3–40 ms late on the rig's clock (from 41 000 s). */
  const double stamp[6] = { 17.2, 17.201, 17.202, 17.203, 17.204, 17.205 };
  const double arrival[6] = { 41000.043, 41000.043, 41000.0051, 41000.0061, 41000.046, 41000.046 };
  double t[6];

  memcpy (t, arrival, sizeof t);
  nb_iso9283_stream_times (t, stamp, 6);
  /* The least delay is the third frame's: 41000.0051 − 17.202. */
  for (guint i = 0; i < 6; i++)
    nb_assert_abs (t[i], 41000.0051 + (stamp[i] - 17.202), 1e-9, "stamp + least delay");
  for (guint i = 1; i < 6; i++)
    nb_assert_abs (t[i] - t[i - 1], 0.001, 1e-9, "1 ms apart as taken");
  /* A stamp missing, one twice or one going back: the arrival times. */
  {
    const double gone[3] = { 17.2, NAN, 17.202 }, twice[3] = { 17.2, 17.2, 17.202 },
                 back[3] = { 17.201, 17.2, 17.202 };
    const double *bad[3] = { gone, twice, back };

    for (guint k = 0; k < 3; k++)
      {
        memcpy (t, arrival, sizeof t);
        nb_iso9283_stream_times (t, bad[k], 3);
        g_assert_cmpmem (t, sizeof t, arrival, sizeof arrival);
      }
  }
  /* None: nothing. */
  nb_iso9283_stream_times (t, stamp, 0);
  g_assert_cmpmem (t, sizeof t, arrival, sizeof arrival);
}

/* --output DIR's table: read back by compute's reader bit for bit, with the
 * command pose and the cycle numbers as written. */
static void
test_pose_table (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("nb-iso9283-rigs-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "P3.csv", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GArray) attained = g_array_new (FALSE, FALSE, sizeof (NbPose6));
  g_autoptr (GArray) back = NULL;
  const NbPose6 command = { 510.7265625, -89.2734375, 360.7265625, 180, 0, 180 };

  for (guint j = 0; j < 3; j++)
    {
      NbPose6 p = { 510.39 + j / 3.0, -89.2 - j * 1e-9, 360.29, 179.98, -0.12 * j, 1.0 / 7.0 };

      g_array_append_val (attained, p);
    }
  g_assert_true (nb_iso9283_write_poses (path, 3, 30, &command, attained, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "# Name: ISO 9283 pose test, P3, 30 cycles\n"
                                         "# Command: 510.7265625,-89.2734375,360.7265625,180,0,180\n"
                                         "cycle,x_mm,y_mm,z_mm,a_deg,b_deg,c_deg\n1,"));
  g_assert_nonnull (strstr (text, "\n3,"));
  back = nb_iso9283_read_poses (path, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->len, ==, 3);
  g_assert_cmpmem (back->data, 3 * sizeof (NbPose6), attained->data, 3 * sizeof (NbPose6));
  nb_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/iso9283-rigs/sim-arm", test_sim_arm);
  g_test_add_func ("/iso9283-rigs/sim", test_sim_rig);
  g_test_add_func ("/iso9283-rigs/served", test_served_rig);
  g_test_add_func ("/iso9283-rigs/pose-table", test_pose_table);
  g_test_add_func ("/iso9283-rigs/stream-times", test_stream_times);
  return g_test_run ();
}
