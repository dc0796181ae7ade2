/* Recordings read by an independent reader: a bag written by core/nb-rosbag.c
 * is read by tests/mcap/read-mcap.mjs (@mcap/core's indexed and stream
 * readers, @foxglove/rosmsg2-serialization for the CDR), whose JSON is checked
 * here: counts, schemas, encodings, times, CRCs and decoded field values.
 * node and tests/mcap/node_modules come from tools/install-deps.sh; without
 * them this test is skipped with that hint (failed under
 * NAVBENCH_REQUIRE_MCAP_READER=1, as tools/run-tests.sh runs it). */
#include "nb-error.h"
#include "nb-rosbag-private.h"
#include "nb-test.h"

#include <json-glib/json-glib.h>
#include <string.h>

#define T0 G_GINT64_CONSTANT (1700000000000000000)

static const char *const JOINTS[7] = { "joint_a1", "joint_a2", "joint_a3", "joint_a4",
                                       "joint_a5", "joint_a6", "joint_a7" };

static char *tmpdir;

/* Joint i at sample s: values that are exact in binary and distinct. */
static double
joint_q (guint s, guint i)
{
  return -1.5 + 0.25 * i + 0.0078125 * s;
}

/* 600 joint states at 100 Hz with velocity and no effort, 120 TCP poses at
 * 20 Hz, 8 KiB chunks so the file has many. */
static char *
write_bag (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "node-run", NULL);
  g_autoptr (GError) error = NULL;
  NbRosbag *bag = nb_rosbag_create_full (path, tmpdir, 8 * 1024, &error);
  char *mcap;
  guint16 js, tcp;

  g_assert_no_error (error);
  mcap = g_strdup (nb_rosbag_get_mcap (bag));
  g_assert_true (nb_rosbag_add_topic (bag, "/joint_states", NB_ROS_JOINT_STATE, &js, &error));
  g_assert_true (nb_rosbag_add_topic (bag, "/tcp_pose", NB_ROS_POSE_STAMPED, &tcp, &error));
  g_assert_no_error (error);
  for (guint s = 0; s < 600; s++)
    {
      gint64 t = T0 + (gint64) s * 10000000 + 7;
      double q[7], v[7];

      for (guint i = 0; i < 7; i++)
        {
          q[i] = joint_q (s, i);
          v[i] = 0.5 * i;
        }
      g_assert_true (nb_rosbag_write_joint_state (bag, js, t, "base", 7, JOINTS, q, v, NULL,
                                                  &error));
      if (s % 5 == 0)
        {
          double p[3] = { 0.5, -0.25 + 0.001 * s, 1.125 };
          double o[4] = { 0.0, 0.7071067811865476, 0.0, 0.7071067811865476 };

          g_assert_true (nb_rosbag_write_pose_stamped (bag, tcp, t, "iiwa_link_0", p, o, &error));
        }
      g_assert_no_error (error);
    }
  g_assert_true (nb_rosbag_close (bag, &error));
  g_assert_no_error (error);
  return mcap;
}

static JsonObject *
channel_by_topic (JsonObject *root, const char *topic)
{
  JsonArray *channels = json_object_get_array_member (root, "channels");

  for (guint i = 0; i < json_array_get_length (channels); i++)
    {
      JsonObject *c = json_array_get_object_element (channels, i);

      if (strcmp (json_object_get_string_member (c, "topic"), topic) == 0)
        return c;
    }
  g_error ("no channel %s in the reader's output", topic);
  return NULL;
}

static double
num_at (JsonArray *a, guint i)
{
  return json_array_get_double_element (a, i);
}

static void
test_node_reader (void)
{
  const char *src = g_getenv ("NAVBENCH_SOURCE_ROOT");
  g_autofree char *node = nb_test_mcap_reader ();
  g_autofree char *script = NULL;
  g_autofree char *mcap = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root, *stats, *js, *tcp, *m, *header, *pose;
  JsonArray *a;
  int status = -1;

  g_assert_nonnull (src);
  script = g_build_filename (src, "tests", "mcap", "read-mcap.mjs", NULL);
  if (node == NULL)
    return;

  mcap = write_bag ();
  {
    const char *argv[] = { node, script, mcap, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                  &error);
    g_assert_no_error (error);
  }
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_test_fail_printf ("read-mcap.mjs failed on %s: %s", mcap, err);
      return;
    }
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));

  g_assert_cmpstr (json_object_get_string_member (root, "profile"), ==, "ros2");
  g_assert_cmpstr (json_object_get_string_member (root, "library"), ==, "navbench");
  g_assert_cmpint (json_object_get_int_member (root, "message_count"), ==, 720);
  g_assert_cmpint (json_object_get_int_member (root, "stream_messages"), ==, 720);
  g_assert_true (json_object_get_boolean_member (root, "stream_done"));
  g_assert_cmpint (json_object_get_int_member (root, "data_section_crc"), !=, 0);
  g_assert_cmpint (json_object_get_int_member (root, "data_section_crc"), ==,
                   json_object_get_int_member (root, "data_section_crc_computed"));
  stats = json_object_get_object_member (root, "statistics");
  g_assert_cmpstr (json_object_get_string_member (stats, "messageCount"), ==, "720");
  g_assert_cmpint (json_object_get_int_member (stats, "channelCount"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (stats, "schemaCount"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (stats, "chunkCount"), >, 5);
  g_assert_cmpint (json_object_get_int_member (stats, "chunkCount"), ==,
                   json_object_get_int_member (root, "chunk_indexes"));
  g_assert_cmpstr (json_object_get_string_member (stats, "messageStartTime"), ==,
                   "1700000000000000007");
  g_assert_cmpstr (json_object_get_string_member (stats, "messageEndTime"), ==,
                   "1700000005990000007");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root,
                     "stream_records"), "Chunk"), ==,
                   json_object_get_int_member (stats, "chunkCount"));

  js = channel_by_topic (root, "/joint_states");
  g_assert_cmpstr (json_object_get_string_member (js, "schema_name"), ==,
                   "sensor_msgs/msg/JointState");
  g_assert_cmpstr (json_object_get_string_member (js, "schema_encoding"), ==, "ros2msg");
  g_assert_cmpstr (json_object_get_string_member (js, "message_encoding"), ==, "cdr");
  g_assert_true (json_object_has_member (json_object_get_object_member (js, "metadata"),
                                         "offered_qos_profiles"));
  g_assert_cmpint (json_object_get_int_member (js, "message_count"), ==, 600);
  g_assert_cmpint (json_object_get_int_member (js, "reencoded_differs"), ==, 0);
  g_assert_true (json_object_get_boolean_member (js, "sequences_in_order"));
  g_assert_cmpstr (json_object_get_string_member (js, "first_log_time"), ==,
                   "1700000000000000007");
  g_assert_cmpstr (json_object_get_string_member (js, "last_log_time"), ==,
                   "1700000005990000007");

  /* The decoded last joint state (sample 599), field by field. */
  m = json_object_get_object_member (js, "last_message");
  header = json_object_get_object_member (m, "header");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (header, "stamp"),
                                               "sec"), ==, 1700000005);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (header, "stamp"),
                                               "nanosec"), ==, 990000007);
  g_assert_cmpstr (json_object_get_string_member (header, "frame_id"), ==, "base");
  a = json_object_get_array_member (m, "name");
  g_assert_cmpuint (json_array_get_length (a), ==, 7);
  g_assert_cmpstr (json_array_get_string_element (a, 6), ==, "joint_a7");
  a = json_object_get_array_member (m, "position");
  g_assert_cmpuint (json_array_get_length (a), ==, 7);
  for (guint i = 0; i < 7; i++)
    nb_assert_abs (num_at (a, i), joint_q (599, i), 0.0, "position (exact in binary)");
  a = json_object_get_array_member (m, "velocity");
  g_assert_cmpuint (json_array_get_length (a), ==, 7);
  nb_assert_abs (num_at (a, 3), 1.5, 0.0, "velocity[3]");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (m, "effort")), ==, 0);
  m = json_object_get_object_member (js, "first_message");
  a = json_object_get_array_member (m, "position");
  nb_assert_abs (num_at (a, 0), -1.5, 0.0, "first position[0]");

  tcp = channel_by_topic (root, "/tcp_pose");
  g_assert_cmpstr (json_object_get_string_member (tcp, "schema_name"), ==,
                   "geometry_msgs/msg/PoseStamped");
  g_assert_cmpint (json_object_get_int_member (tcp, "message_count"), ==, 120);
  g_assert_cmpint (json_object_get_int_member (tcp, "reencoded_differs"), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (tcp, "last_log_time"), ==,
                   "1700000005950000007");
  m = json_object_get_object_member (tcp, "first_message");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (m, "header"),
                                                  "frame_id"), ==, "iiwa_link_0");
  pose = json_object_get_object_member (m, "pose");
  nb_assert_abs (json_object_get_double_member (json_object_get_object_member (pose, "position"),
                                                "z"), 1.125, 0.0, "position.z");
  nb_assert_abs (json_object_get_double_member (json_object_get_object_member (pose,
                                                "orientation"), "w"),
                 0.7071067811865476, 0.0, "orientation.w");
  m = json_object_get_object_member (tcp, "last_message");
  pose = json_object_get_object_member (m, "pose");
  nb_assert_abs (json_object_get_double_member (json_object_get_object_member (pose, "position"),
                                                "y"), -0.25 + 0.001 * 595, 0.0, "last position.y");
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("navbench-mcap-node-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/mcap/node-reader", test_node_reader);
  status = g_test_run ();
  nb_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
