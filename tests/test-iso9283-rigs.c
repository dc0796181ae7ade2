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

#include <gio/gio.h>
#include <math.h>
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

/* Cristian's algorithm on the served arm's stamps (nb_iso9283_state_instant). */
static void
test_state_instant (void)
{
  const double ahead[2] = { 0, 1000.25 };      /* the server's clock, the rig's + this */

  for (guint c = 0; c < 2; c++)
    {
      NbIso9283ClockMap m = { 0 };
      gint64 us = (gint64) (ahead[c] * 1e6);

      /* A fast poll gives the offset: read 0.2 ms after the send of a 1 ms
       * exchange, the estimate is the midpoint (0.3 ms off at most). */
      nb_assert_abs (nb_iso9283_state_instant (&m, 10.0, 10.001, us + 10000200), 10.0005, 1e-9,
                     "the first poll: its midpoint");
      /* A slow one: joints read 480 ms into a 500 ms exchange are at its
       * stamp less the offset (0.3 ms off), not at the midpoint 230 ms
       * earlier; read at once, 250 ms later than the midpoint says. */
      nb_assert_abs (nb_iso9283_state_instant (&m, 20.0, 20.5, us + 20480000), 20.4803, 1e-6,
                     "read late in a long exchange");
      nb_assert_abs (nb_iso9283_state_instant (&m, 30.0, 30.5, us + 30000400), 30.0007, 1e-6,
                     "read early in a long exchange");
      g_assert_cmpfloat (m.rt_s, <, 0.0011);
      /* A stamp outside its exchange (the server's clock stepped): kept in it. */
      nb_assert_abs (nb_iso9283_state_instant (&m, 40.0, 40.01, us + 45000000), 40.01, 1e-9,
                     "clamped to the answer");
      nb_assert_abs (nb_iso9283_state_instant (&m, 41.0, 41.01, us + 35000000), 41.0, 1e-9,
                     "clamped to the send");
      /* 2000 s on, the clocks may have drifted apart by 40 ms: a poll of
       * 21 ms then bounds the offset better than the first's 1 ms did. */
      nb_iso9283_state_instant (&m, 2010.0, 2010.021, us + 2010015500);
      nb_assert_abs (m.offset_s, ahead[c] + 0.005, 1e-6, "the newer offset");
      nb_assert_abs (m.rt_s, 0.021, 1e-9, "its round trip");
    }
  /* No stamp: the midpoint. */
  {
    NbIso9283ClockMap m = { 0 };

    nb_assert_abs (nb_iso9283_state_instant (&m, 5.0, 5.5, 0), 5.25, 1e-12, "no stamp");
    g_assert_false (m.known);
  }
}

/* A served arm whose answers take long: GET /robot/state answered by a
 * server here that reads its joints at a known instant, some polls 100 ms
 * before it answers, some 100 ms after the request came (every fourth one
 * at once, the clock's reference); its joints say which poll it was (joint
 * 1 at 10⁻³ rad a poll).  The sampler's stream during a goal must have
 * each sample at the instant its joints were read, where the midpoint of
 * a 100 ms exchange is 50 ms off. */
typedef struct {
  GSocket *listener;
  guint16 port;
  GMutex lock;
  GArray *read_at;              /* of double: the monotonic instant of poll k's joints */
  double first_s;               /* when the first poll came */
  gint quit;
} SlowServer;

static gpointer
slow_server (gpointer data)
{
  SlowServer *s = data;

  while (!g_atomic_int_get (&s->quit))
    {
      g_autoptr (GSocket) c = NULL;
      g_autoptr (GString) json = g_string_new ("{\"stamp_us\":");
      g_autofree char *answer = NULL;
      char buf[4096];
      gsize got = 0;
      double at;
      guint k;

      if (!g_socket_condition_timed_wait (s->listener, G_IO_IN, 100000, NULL, NULL) ||
          (c = g_socket_accept (s->listener, NULL, NULL)) == NULL)
        continue;
      g_socket_set_blocking (c, TRUE);
      while (got < sizeof buf - 1)
        {
          gssize n = g_socket_receive (c, buf + got, sizeof buf - 1 - got, NULL, NULL);

          if (n <= 0)
            break;
          got += (gsize) n;
          buf[got] = '\0';
          if (strstr (buf, "\r\n\r\n") != NULL)
            break;
        }
      g_mutex_lock (&s->lock);
      k = s->read_at->len;
      g_mutex_unlock (&s->lock);
      if (k == 0)
        s->first_s = g_get_monotonic_time () / 1e6;
      /* From 0.9 s on (the goal ends at 1.2 s), 400 ms before the joints
       * are read: the poll under way as the goal ends is answered well
       * after it. */
      if (g_get_monotonic_time () / 1e6 - s->first_s > 0.9)
        g_usleep (400000);
      else if (k % 4 == 1)
        g_usleep (100000);
      at = g_get_monotonic_time () / 1e6;
      g_string_append_printf (json, "%" G_GINT64_FORMAT ",\"name\":[\"joint1\",\"joint2\","
                              "\"joint3\",\"joint4\",\"joint5\",\"joint6\",\"joint7\"],"
                              "\"position\":[%.6f,0.6,0,-1.2,0,1.0,0],\"velocity\":[0,0,0,0,0,0,0],"
                              "\"tcp\":{\"frame_id\":\"base_link\",\"position\":[0.6,0,0.45],"
                              "\"orientation\":[0,0,0,1]}}", g_get_real_time (), k * 1e-3);
      g_mutex_lock (&s->lock);
      g_array_append_val (s->read_at, at);
      g_mutex_unlock (&s->lock);
      if (k % 4 == 2)
        g_usleep (100000);
      answer = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                                json->len, json->str);
      g_socket_send (c, answer, strlen (answer), NULL, NULL);
      g_socket_close (c, NULL);
    }
  return NULL;
}

static gboolean
slow_goal (gpointer robot, const double q[NB_ARM_JOINTS], GError **error)
{
  g_usleep (1200000);
  return TRUE;
}

static void
test_sampler_stamps (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any = g_inet_socket_address_new (lo, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autofree char *url = NULL;
  SlowServer srv = { 0 };
  NbRobotOps ops = { 0 };
  NbIso9283Rig rig = { 0 };
  NbArmModel model;
  NbSimArm truth;
  GThread *thread;
  const double q[NB_ARM_JOINTS] = { 0 };
  double worst = 0, goal_end;
  guint matched = 0;

  load_model (&model);
  nb_sim_arm_init (&truth, &model, 1);
  srv.read_at = g_array_new (FALSE, FALSE, sizeof (double));
  g_mutex_init (&srv.lock);
  srv.listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                               G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (srv.listener, any, TRUE, &error));
  g_assert_true (g_socket_listen (srv.listener, &error));
  bound = g_socket_get_local_address (srv.listener, &error);
  g_assert_no_error (error);
  url = g_strdup_printf ("http://127.0.0.1:%u",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  thread = g_thread_new ("slow-server", slow_server, &srv);

  /* The rig of a served arm, its goal 1.2 s, the stream the sampler's (no
   * noise: each sample's pose says its poll). */
  ops.move_to_joints = slow_goal;
  rig.ops = &ops;
  rig.rated_load_kg = 7;
  rig.sampler = nb_iso9283_sampler_new (url, &truth, 0, 0, 1, &error);
  g_assert_no_error (error);
  g_assert_true (nb_iso9283_rig_configure (&rig, 100, "rated", &error));
  g_assert_true (nb_iso9283_rig_goal (&rig, q, FALSE, NULL, &error));
  g_assert_no_error (error);
  /* The stub's goal takes 1.2 s from its sending. */
  goal_end = rig.goal_sent_s + 1.2;
  g_atomic_int_set (&srv.quit, 1);
  g_thread_join (thread);

  g_mutex_lock (&srv.lock);
  for (guint i = 0; i < rig.stream_t_s->len; i++)
    {
      const NbPose6 *p = &g_array_index (rig.stream_pose, NbPose6, i);
      double best = INFINITY, t = g_array_index (rig.stream_t_s, double, i);
      guint k = 0;

      /* Which poll: the pose of joint 1 at k·10⁻³ rad nearest the sample's. */
      for (guint j = 0; j < srv.read_at->len; j++)
        {
          const double qj[NB_ARM_JOINTS] = { j * 1e-3, 0.6, 0, -1.2, 0, 1.0, 0 };
          double T[16], d;

          nb_sim_arm_true_pose (&truth, qj, T);
          d = hypot (hypot (T[3] * 1000 - p->x_mm, T[7] * 1000 - p->y_mm), T[11] * 1000 - p->z_mm);
          if (d < best)
            best = d, k = j;
        }
      g_assert_cmpfloat (best, <, 1e-6);
      worst = MAX (worst, fabs (t - g_array_index (srv.read_at, double, k)));
      if (k % 4 == 1 || k % 4 == 2)
        matched++;
    }
  g_test_message ("%u samples, %u of them 100 ms exchanges: the largest error %.2f ms (the "
                  "midpoint's would be ≈ 50 ms)", rig.stream_t_s->len, matched, worst * 1e3);
  g_mutex_unlock (&srv.lock);
  /* A dozen polls or more of which half took 100 ms; each sample within
   * 20 ms of the instant its joints were read (half the fastest poll's
   * round trip: a few ms, 15 at load 20). */
  g_assert_cmpuint (matched, >=, 4);
  g_assert_cmpfloat (worst, <, 0.02);
  /* The stream brackets the goal: a sample read before it was sent, one
   * read after it ended (the slow poll under way then is waited for). */
  g_test_message ("the stream from %.3f s to %.3f s; the goal sent at %.3f s, ended at %.3f s",
                  g_array_index (rig.stream_t_s, double, 0),
                  g_array_index (rig.stream_t_s, double, rig.stream_t_s->len - 1),
                  rig.goal_sent_s, goal_end);
  g_assert_cmpfloat (g_array_index (rig.stream_t_s, double, 0), <=, rig.goal_sent_s);
  g_assert_cmpfloat (g_array_index (rig.stream_t_s, double, rig.stream_t_s->len - 1), >=,
                     goal_end);
  nb_iso9283_sampler_free (rig.sampler);
  g_array_unref (srv.read_at);
  g_mutex_clear (&srv.lock);
  g_object_unref (srv.listener);
  nb_sim_arm_clear (&truth);
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
  g_test_add_func ("/iso9283-rigs/state-instant", test_state_instant);
  g_test_add_func ("/iso9283-rigs/sampler-stamps", test_sampler_stamps);
  return g_test_run ();
}
