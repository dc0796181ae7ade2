#define _GNU_SOURCE  /* renameat2 */
/* Recordings (core/nb-cdr.c, core/nb-mcap.c, core/nb-rosbag.c): CDR bytes
 * against hand-worked arrays, CRC-32 against its check value, MCAP files read
 * back by the spec-written reader in mcap-parse.h, metadata.yaml, the replace
 * rule of issue #7, and write errors. */
#include "nb-cdr-private.h"
#include "nb-error.h"
#include "nb-mcap-private.h"
#include "nb-rosbag-private.h"
#include "mcap-parse.h"
#include "nb-test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

static char *tmpdir;

/* A fresh directory under the scratch directory. */
static char *
fresh (const char *name)
{
  char *path = g_build_filename (tmpdir, name, NULL);

  nb_test_remove_tree (path);
  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
  return path;
}

static GBytes *
slurp (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *data;
  gsize len;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static void
parse_file (const char *path, McapParsed *m)
{
  g_autoptr (GBytes) b = slurp (path);
  gsize n;
  const guint8 *p = g_bytes_get_data (b, &n);

  mp_parse (p, n, m);
}

/* ---- CRC-32 -------------------------------------------------------------- */

static void
test_crc32 (void)
{
  guint8 data[1000];
  guint32 chained;

  /* The CRC-32/ISO-HDLC check value (the catalogue's "123456789"). */
  g_assert_cmphex (nb_mcap_crc32_update (0, "123456789", 9), ==, 0xCBF43926);
  g_assert_cmphex (nb_mcap_crc32_update (0, "", 0), ==, 0);
  g_assert_cmphex (nb_mcap_crc32_update (0, "a", 1), ==, 0xE8B7BE43);
  g_assert_cmphex (nb_mcap_crc32_update (0, "The quick brown fox jumps over the lazy dog", 43),
                   ==, 0x414FA339);
  /* Against the bitwise definition, and chained in two parts. */
  for (guint i = 0; i < sizeof data; i++)
    data[i] = (guint8) (i * 131 + (i >> 3));
  g_assert_cmphex (nb_mcap_crc32_update (0, data, sizeof data), ==, mp_crc32 (data, sizeof data));
  chained = nb_mcap_crc32_update (nb_mcap_crc32_update (0, data, 377), data + 377,
                                  sizeof data - 377);
  g_assert_cmphex (chained, ==, mp_crc32 (data, sizeof data));
}

/* ---- CDR ----------------------------------------------------------------- */

static void
test_cdr_joint_state (void)
{
  /* Worked by hand; offsets count from the byte after the encapsulation. */
  static const guint8 expected[] = {
    0x00, 0x01, 0x00, 0x00,                          /* CDR_LE */
    0x01, 0x00, 0x00, 0x00,                          /* 0: stamp.sec 1 */
    0x07, 0x65, 0xCD, 0x1D,                          /* 4: nanosec 500000007 = 0x1DCD6507 */
    0x05, 0x00, 0x00, 0x00, 'b', 'a', 's', 'e', 0,   /* 8: frame_id "base" (5 with NUL) */
    0, 0, 0,                                         /* 17: pad to 20 */
    0x02, 0x00, 0x00, 0x00,                          /* 20: name[] count 2 */
    0x03, 0x00, 0x00, 0x00, 'a', '1', 0,             /* 24: "a1" */
    0,                                               /* 31: pad to 32 */
    0x03, 0x00, 0x00, 0x00, 'a', '2', 0,             /* 32: "a2" */
    0,                                               /* 39: pad to 40 */
    0x02, 0x00, 0x00, 0x00,                          /* 40: position[] count 2 */
    0, 0, 0, 0,                                      /* 44: pad to 48 (float64) */
    0, 0, 0, 0, 0, 0, 0xE0, 0x3F,                    /* 48: 0.5 */
    0, 0, 0, 0, 0, 0, 0xF4, 0xBF,                    /* 56: -1.25 */
    0x00, 0x00, 0x00, 0x00,                          /* 64: velocity[] empty, no pad */
    0x02, 0x00, 0x00, 0x00,                          /* 68: effort[] count 2 */
    0, 0, 0, 0, 0, 0, 0x00, 0x40,                    /* 72: 2.0 */
    0, 0, 0, 0, 0, 0, 0x00, 0x00,                    /* 80: 0.0 */
  };
  static const char *const names[] = { "a1", "a2" };
  static const double position[] = { 0.5, -1.25 }, effort[] = { 2.0, 0.0 };
  g_autoptr (GByteArray) out = g_byte_array_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_cdr_joint_state (out, 1500000007, "base", 2, names, position, NULL, effort,
                                     &error));
  g_assert_no_error (error);
  g_assert_cmpmem (out->data, out->len, expected, sizeof expected);
}

static void
test_cdr_pose_stamped (void)
{
  static const guint8 expected[] = {
    0x00, 0x01, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00,                          /* 0: sec 2 */
    0x00, 0x00, 0x00, 0x00,                          /* 4: nanosec 0 */
    0x06, 0x00, 0x00, 0x00, 'w', 'o', 'r', 'l', 'd', 0,  /* 8: "world" */
    0, 0, 0, 0, 0, 0,                                /* 18: pad to 24 */
    0, 0, 0, 0, 0, 0, 0xF0, 0x3F,                    /* 24: position.x 1.0 */
    0, 0, 0, 0, 0, 0, 0x00, 0x40,                    /* 32: y 2.0 */
    0, 0, 0, 0, 0, 0, 0x08, 0xC0,                    /* 40: z -3.0 */
    0, 0, 0, 0, 0, 0, 0x00, 0x00,                    /* 48: orientation.x 0 */
    0, 0, 0, 0, 0, 0, 0x00, 0x00,                    /* 56: y 0 */
    0, 0, 0, 0, 0, 0, 0xE0, 0xBF,                    /* 64: z -0.5 */
    0, 0, 0, 0, 0, 0, 0xE8, 0x3F,                    /* 72: w 0.75 */
  };
  static const double p[3] = { 1.0, 2.0, -3.0 }, q[4] = { 0.0, 0.0, -0.5, 0.75 };
  g_autoptr (GByteArray) out = g_byte_array_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_cdr_pose_stamped (out, 2000000000, "world", p, q, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (out->data, out->len, expected, sizeof expected);

  /* Appending to a buffer that already holds bytes: alignment still counts
   * from the new encapsulation header, and the 8-byte header pads alike. */
  g_byte_array_set_size (out, 0);
  g_byte_array_append (out, (const guint8 *) "xyz", 3);
  g_assert_true (nb_cdr_pose_stamped (out, 2000000000, "world", p, q, &error));
  g_assert_cmpmem (out->data + 3, out->len - 3, expected, sizeof expected);
}

static void
test_cdr_time (void)
{
  gint32 sec;
  guint32 ns;
  g_autoptr (GByteArray) out = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  static const double p[3] = { 0 }, q[4] = { 0, 0, 0, 1 };

  g_assert_true (nb_cdr_time_from_ns (-1, &sec, &ns));
  g_assert_cmpint (sec, ==, -1);
  g_assert_cmpuint (ns, ==, 999999999);
  g_assert_true (nb_cdr_time_from_ns (G_GINT64_CONSTANT (1700000000123456789), &sec, &ns));
  g_assert_cmpint (sec, ==, 1700000000);
  g_assert_cmpuint (ns, ==, 123456789);
  g_assert_true (nb_cdr_time_from_ns ((gint64) G_MAXINT32 * 1000000000 + 999999999, &sec, &ns));
  g_assert_cmpint (sec, ==, G_MAXINT32);
  g_assert_false (nb_cdr_time_from_ns ((gint64) G_MAXINT32 * 1000000000 + 1000000000, &sec, &ns));
  g_assert_false (nb_cdr_pose_stamped (out, G_MAXINT64, "", p, q, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_cmpuint (out->len, ==, 0);  /* nothing half-written */
}

/* ---- MCAP writer --------------------------------------------------------- */

static void
test_mcap_structure (void)
{
  g_autofree char *dir = fresh ("structure");
  g_autofree char *path = g_build_filename (dir, "s.mcap", NULL);
  g_autoptr (GError) error = NULL;
  static const char *const meta[] = { "offered_qos_profiles", "", "k", "v", NULL };
  McapParsed m;
  guint16 s1, s2, c1, c2, c3;
  NbMcapWriter *w = nb_mcap_writer_new (path, "x-test", "lib 1", 200, &error);

  g_assert_no_error (error);
  g_assert_true (nb_mcap_writer_add_schema (w, "a/msg/A", "ros2msg", (const guint8 *) "int32 a",
                                            7, &s1, &error));
  g_assert_true (nb_mcap_writer_add_schema (w, "b/msg/B", "ros2msg", (const guint8 *) "", 0, &s2,
                                            &error));
  g_assert_true (nb_mcap_writer_add_channel (w, s1, "/one", "cdr", meta, &c1, &error));
  g_assert_true (nb_mcap_writer_add_channel (w, s2, "/two", "cdr", NULL, &c2, &error));
  g_assert_true (nb_mcap_writer_add_channel (w, s1, "/silent", "cdr", NULL, &c3, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (s1, ==, 1);
  g_assert_cmpuint (s2, ==, 2);
  g_assert_cmpuint (c1, ==, 1);
  g_assert_cmpuint (c3, ==, 3);
  /* 40 messages of 30 bytes against 200-byte chunks: many chunks; out of
   * order log times on channel 2 to exercise the chunk time range. */
  for (guint i = 0; i < 40; i++)
    {
      guint8 payload[30];

      memset (payload, (int) i, sizeof payload);
      g_assert_true (nb_mcap_writer_write_message (w, i % 2 ? c2 : c1,
                                                   i % 2 ? 5000 - i : 1000 + i, payload,
                                                   sizeof payload, &error));
    }
  g_assert_false (nb_mcap_writer_write_message (w, 9, 1, (const guint8 *) "", 0, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_cmpuint (nb_mcap_writer_message_count (w), ==, 40);
  g_assert_true (nb_mcap_writer_close (w, &error));
  g_assert_no_error (error);

  parse_file (path, &m);
  g_assert_cmpstr (m.profile, ==, "x-test");
  g_assert_cmpstr (m.library, ==, "lib 1");
  g_assert_cmpuint (m.messages, ==, 40);
  g_assert_cmpuint (m.index_entries, ==, 40);
  g_assert_cmpuint (m.channel_messages[1], ==, 20);
  g_assert_cmpuint (m.channel_messages[2], ==, 20);
  g_assert_cmpuint (m.channel_messages[3], ==, 0);
  g_assert_cmpuint (m.chunks, >=, 8);
  g_assert_cmpuint (m.chunk_indexes, ==, m.chunks);
  g_assert_cmpuint (m.stat_chunks, ==, m.chunks);
  g_assert_cmpuint (m.chunk_schemas, ==, 2);
  g_assert_cmpuint (m.chunk_channels, ==, 3);
  g_assert_cmpuint (m.summary_schemas, ==, 2);
  g_assert_cmpuint (m.summary_channels, ==, 3);
  g_assert_cmpuint (m.summary_offsets, ==, 4);  /* Schema, Channel, Statistics, Chunk Index */
  g_assert_cmpuint (m.stat_messages, ==, 40);
  g_assert_cmpuint (m.stat_schemas, ==, 2);
  g_assert_cmpuint (m.stat_channels, ==, 3);
  g_assert_cmpuint (m.stat_start, ==, 1000);
  g_assert_cmpuint (m.stat_end, ==, 4999);
  g_assert_cmpuint (m.stat_channel_count[1], ==, 20);
  g_assert_cmpuint (m.stat_channel_count[2], ==, 20);
  g_assert_cmpuint (m.stat_channel_count[3], ==, 0);
  g_assert_cmpuint (m.first_time[1], ==, 1000);
  g_assert_cmpuint (m.last_time[1], ==, 1038);
  g_assert_cmpuint (m.first_time[2], ==, 4999);
  g_assert_cmpuint (m.last_time[2], ==, 4961);
  g_assert_cmpuint (m.last_sequence[2], ==, 20);
  g_assert_cmpstr (m.schema_name[1], ==, "a/msg/A");
  g_assert_cmpstr (m.topic[3], ==, "/silent");
  g_assert_cmpuint (m.channel_schema[3], ==, 1);
  g_assert_cmpstr (m.qos[1], ==, "");
  g_assert_null (m.qos[2]);
  g_assert_cmpmem (g_bytes_get_data (m.schema_data[1], NULL), g_bytes_get_size (m.schema_data[1]),
                   "int32 a", 7);
  mp_clear (&m);
}

static void
test_mcap_empty (void)
{
  g_autofree char *dir = fresh ("empty");
  g_autofree char *path = g_build_filename (dir, "e.mcap", NULL);
  g_autoptr (GError) error = NULL;
  McapParsed m;
  NbMcapWriter *w = nb_mcap_writer_new (path, "ros2", "navbench", 0, &error);

  g_assert_no_error (error);
  g_assert_true (nb_mcap_writer_close (w, &error));
  g_assert_no_error (error);
  parse_file (path, &m);
  g_assert_cmpuint (m.messages, ==, 0);
  g_assert_cmpuint (m.chunks, ==, 0);
  g_assert_cmpuint (m.stat_messages, ==, 0);
  g_assert_cmpuint (m.summary_offsets, ==, 1);  /* Statistics only */
  mp_clear (&m);
}

static void
test_mcap_dev_full (void)
{
  g_autoptr (GError) error = NULL;
  NbMcapWriter *w;

  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_fail_printf ("/dev/full is missing: this test needs it");
      return;
    }
  /* The magic and Header go out at once: the first write hits ENOSPC. */
  w = nb_mcap_writer_new ("/dev/full", "ros2", "navbench", 0, &error);
  g_assert_null (w);
  g_assert_error (error, NB_ERROR, NB_ERROR_FAILED);
  g_assert_true (g_str_has_prefix (error->message, "/dev/full: "));
  g_assert_nonnull (strstr (error->message, g_strerror (ENOSPC)));
}

/* ---- rosbag -------------------------------------------------------------- */

static const char QOS[] =
  "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 2\n  deadline:\n    sec: 2147483647\n"
  "    nsec: 4294967295\n  lifespan:\n    sec: 2147483647\n    nsec: 4294967295\n  liveliness: 1\n"
  "  liveliness_lease_duration:\n    sec: 2147483647\n    nsec: 4294967295\n"
  "  avoid_ros_namespace_conventions: false";

#define T0 G_GINT64_CONSTANT (1700000000000000000)

static const char *const JOINTS[7] = { "joint_a1", "joint_a2", "joint_a3", "joint_a4",
                                       "joint_a5", "joint_a6", "joint_a7" };

/* A recording of n joint states at 100 Hz and n/2 TCP poses at 50 Hz. */
static void
record (const char *path, const char *root, guint n, gsize chunk_size)
{
  g_autoptr (GError) error = NULL;
  NbRosbag *bag = nb_rosbag_create_full (path, root, chunk_size, &error);
  guint16 js, tcp;

  g_assert_no_error (error);
  g_assert_true (nb_rosbag_add_topic (bag, "/joint_states", NB_ROS_JOINT_STATE, &js, &error));
  g_assert_true (nb_rosbag_add_topic (bag, "/tcp_pose", NB_ROS_POSE_STAMPED, &tcp, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      double q[7], v[7];
      gint64 t = T0 + (gint64) i * 10000000;

      for (guint k = 0; k < 7; k++)
        {
          q[k] = 0.1 * k + 0.001 * i;
          v[k] = 0.1;
        }
      g_assert_true (nb_rosbag_write_joint_state (bag, js, t, "", 7, JOINTS, q, v, NULL, &error));
      if (i % 2 == 0)
        {
          double p[3] = { 0.5, -0.1 + 0.001 * i, 0.3 }, o[4] = { 0, 1, 0, 0 };

          g_assert_true (nb_rosbag_write_pose_stamped (bag, tcp, t, "iiwa_link_0", p, o, &error));
        }
      g_assert_no_error (error);
    }
  g_assert_true (nb_rosbag_close (bag, &error));
  g_assert_no_error (error);
}

static void
test_rosbag_write_read (void)
{
  g_autofree char *root = fresh ("wr");
  g_autofree char *path = g_build_filename (root, "run1", NULL);
  g_autofree char *mcap = g_build_filename (path, "run1_0.mcap", NULL);
  g_autofree char *js_def = nb_rosbag_message_definition (NB_ROS_JOINT_STATE);
  g_autoptr (GByteArray) first = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  static const double q0[7] = { 0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001 };
  static const double v0[7] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
  McapParsed m;

  record (path, root, 1000, 16 * 1024);
  parse_file (mcap, &m);
  g_assert_cmpstr (m.profile, ==, "ros2");
  g_assert_cmpstr (m.library, ==, "navbench");
  g_assert_cmpuint (m.messages, ==, 1500);
  g_assert_cmpuint (m.channel_messages[1], ==, 1000);
  g_assert_cmpuint (m.channel_messages[2], ==, 500);
  g_assert_cmpuint (m.stat_messages, ==, 1500);
  g_assert_cmpuint (m.stat_channel_count[1], ==, 1000);
  g_assert_cmpuint (m.stat_channel_count[2], ==, 500);
  g_assert_cmpuint (m.chunks, >, 5);
  g_assert_cmpuint (m.chunk_indexes, ==, m.chunks);
  g_assert_cmpuint (m.index_entries, ==, 1500);
  g_assert_cmpuint (m.stat_start, ==, (guint64) T0);
  g_assert_cmpuint (m.stat_end, ==, (guint64) T0 + 999 * 10000000ull);
  g_assert_cmpuint (m.last_time[2], ==, (guint64) T0 + 998 * 10000000ull);
  g_assert_cmpstr (m.schema_name[1], ==, "sensor_msgs/msg/JointState");
  g_assert_cmpstr (m.schema_name[2], ==, "geometry_msgs/msg/PoseStamped");
  g_assert_cmpstr (m.schema_encoding[1], ==, "ros2msg");
  g_assert_cmpstr (m.topic[1], ==, "/joint_states");
  g_assert_cmpstr (m.topic[2], ==, "/tcp_pose");
  g_assert_cmpstr (m.message_encoding[2], ==, "cdr");
  g_assert_cmpstr (m.qos[1], ==, QOS);
  g_assert_cmpmem (g_bytes_get_data (m.schema_data[1], NULL), g_bytes_get_size (m.schema_data[1]),
                   js_def, strlen (js_def));
  /* The first message is the CDR of the first sample. */
  g_assert_true (nb_cdr_joint_state (first, T0, "", 7, JOINTS, q0, v0, NULL, &error));
  g_assert_cmpmem (g_bytes_get_data (m.first_data[1], NULL), g_bytes_get_size (m.first_data[1]),
                   first->data, first->len);
  mp_clear (&m);
}

static void
test_rosbag_schema_text (void)
{
  g_autofree char *js = nb_rosbag_message_definition (NB_ROS_JOINT_STATE);
  g_autofree char *ps = nb_rosbag_message_definition (NB_ROS_POSE_STAMPED);
  g_autofree char *sep = g_strnfill (80, '=');
  g_autofree char *split_at = g_strconcat ("\n", sep, "\n", NULL);
  g_auto (GStrv) js_parts = g_strsplit (js, split_at, -1);
  g_auto (GStrv) ps_parts = g_strsplit (ps, split_at, -1);

  /* rosbag2_storage_mcap: root text, then "MSG: <dep>" sections, depth first
   * in sorted order, each .msg text ending in a newline. */
  g_assert_cmpuint (g_strv_length (js_parts), ==, 3);
  g_assert_true (g_str_has_suffix (js_parts[0], "\nstd_msgs/Header header\n\nstring[] name\n"
                                   "float64[] position\nfloat64[] velocity\nfloat64[] effort\n"));
  g_assert_true (g_str_has_prefix (js_parts[1], "MSG: std_msgs/Header\n"));
  g_assert_true (g_str_has_suffix (js_parts[1], "\nbuiltin_interfaces/Time stamp\n\n"
                                   "# Transform frame with which this data is associated.\n"
                                   "string frame_id\n"));
  g_assert_true (g_str_has_prefix (js_parts[2], "MSG: builtin_interfaces/Time\n"));
  g_assert_true (g_str_has_suffix (js_parts[2], "\nint32 sec\n\n# The nanoseconds component, "
                                   "valid in the range [0, 10e9).\nuint32 nanosec\n"));
  g_assert_cmpuint (g_strv_length (ps_parts), ==, 6);
  g_assert_cmpstr (ps_parts[0], ==, "# A Pose with reference coordinate frame and timestamp\n\n"
                   "std_msgs/Header header\nPose pose\n");
  g_assert_true (g_str_has_prefix (ps_parts[1], "MSG: geometry_msgs/Pose\n"));
  g_assert_true (g_str_has_prefix (ps_parts[2], "MSG: geometry_msgs/Point\n"));
  g_assert_true (g_str_has_suffix (ps_parts[3], "MSG: geometry_msgs/Quaternion\n# This represents "
                                   "an orientation in free space in quaternion form.\n\n"
                                   "float64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1\n"));
  g_assert_true (g_str_has_prefix (ps_parts[4], "MSG: std_msgs/Header\n"));
  g_assert_true (g_str_has_prefix (ps_parts[5], "MSG: builtin_interfaces/Time\n"));
  g_assert_cmpstr (ps_parts[5] + strlen ("MSG: builtin_interfaces/Time\n"), ==,
                   js_parts[2] + strlen ("MSG: builtin_interfaces/Time\n"));
}

/* Every scalar of a YAML file, in document order; fails on a syntax error. */
static GPtrArray *
yaml_scalars (const char *path)
{
  g_autoptr (GBytes) b = slurp (path);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  yaml_parser_t parser;
  yaml_event_t ev;
  gboolean done = FALSE;

  g_assert_true (yaml_parser_initialize (&parser));
  yaml_parser_set_input_string (&parser, g_bytes_get_data (b, NULL), g_bytes_get_size (b));
  while (!done)
    {
      if (!yaml_parser_parse (&parser, &ev))
        g_error ("%s: YAML error: %s", path, parser.problem);
      if (ev.type == YAML_SCALAR_EVENT)
        g_ptr_array_add (out, g_strndup ((const char *) ev.data.scalar.value,
                                         ev.data.scalar.length));
      done = ev.type == YAML_STREAM_END_EVENT;
      yaml_event_delete (&ev);
    }
  yaml_parser_delete (&parser);
  return out;
}

static void
test_rosbag_metadata (void)
{
  g_autofree char *root = fresh ("meta");
  g_autofree char *path = g_build_filename (root, "lab", "run7", NULL);
  g_autofree char *yaml = g_build_filename (path, "metadata.yaml", NULL);
  g_autoptr (GBytes) text = NULL;
  g_autoptr (GPtrArray) scalars = NULL;
  g_autofree char *qos_quoted = NULL;
  g_autofree char *expected = NULL;
  guint qos_seen = 0;

  record (path, root, 11, 0);
  /* The QoS profile as a YAML double-quoted scalar: newlines escaped. */
  {
    g_auto (GStrv) lines = g_strsplit (QOS, "\n", -1);
    g_autofree char *joined = g_strjoinv ("\\n", lines);

    qos_quoted = g_strconcat ("\"", joined, "\"", NULL);
  }
  /* 11 joint states (t0 … t0 + 100 ms) and 6 poses (t0 … t0 + 100 ms). */
  expected = g_strdup_printf (
    "rosbag2_bagfile_information:\n"
    "  version: 5\n"
    "  storage_identifier: mcap\n"
    "  duration:\n"
    "    nanoseconds: 100000000\n"
    "  starting_time:\n"
    "    nanoseconds_since_epoch: 1700000000000000000\n"
    "  message_count: 17\n"
    "  topics_with_message_count:\n"
    "    - topic_metadata:\n"
    "        name: /joint_states\n"
    "        type: sensor_msgs/msg/JointState\n"
    "        serialization_format: cdr\n"
    "        offered_qos_profiles: %s\n"
    "      message_count: 11\n"
    "    - topic_metadata:\n"
    "        name: /tcp_pose\n"
    "        type: geometry_msgs/msg/PoseStamped\n"
    "        serialization_format: cdr\n"
    "        offered_qos_profiles: %s\n"
    "      message_count: 6\n"
    "  compression_format: \"\"\n"
    "  compression_mode: \"\"\n"
    "  relative_file_paths:\n"
    "    - run7_0.mcap\n"
    "  files:\n"
    "    - path: run7_0.mcap\n"
    "      starting_time:\n"
    "        nanoseconds_since_epoch: 1700000000000000000\n"
    "      duration:\n"
    "        nanoseconds: 100000000\n"
    "      message_count: 17\n", qos_quoted, qos_quoted);
  text = slurp (yaml);
  g_assert_cmpmem (g_bytes_get_data (text, NULL), g_bytes_get_size (text), expected,
                   strlen (expected));

  /* libyaml reads it, and the QoS scalar comes back verbatim. */
  scalars = yaml_scalars (yaml);
  g_assert_cmpstr (g_ptr_array_index (scalars, 0), ==, "rosbag2_bagfile_information");
  for (guint i = 0; i + 1 < scalars->len; i++)
    if (strcmp (g_ptr_array_index (scalars, i), "offered_qos_profiles") == 0)
      {
        g_assert_cmpstr (g_ptr_array_index (scalars, i + 1), ==, QOS);
        qos_seen++;
      }
  g_assert_cmpuint (qos_seen, ==, 2);
}

/* ---- the replace rule ---------------------------------------------------- */

/* A directory that looks like a previous recording, outside nb-rosbag. */
static void
fake_recording (const char *dir)
{
  g_autofree char *meta = g_build_filename (dir, "metadata.yaml", NULL);
  g_autofree char *mcap = g_build_filename (dir, "old_0.mcap", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  nb_test_write_file (meta, "rosbag2_bagfile_information:\n  version: 5\n");
  nb_test_write_file (mcap, "old bytes");
}

static void
assert_refused (const char *path, const char *root, const char *why)
{
  g_autoptr (GError) error = NULL;
  NbRosbag *bag = nb_rosbag_create (path, root, &error);

  g_assert_null (bag);
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  if (!g_str_has_prefix (error->message, path) || strstr (error->message, why) == NULL)
    g_error ("refusal of %s: '%s' lacks the path or '%s'", path, error->message, why);
}

static void
assert_file (const char *dir, const char *name, const char *content)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GBytes) b = slurp (path);

  g_assert_cmpmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), content, strlen (content));
}

static void
test_replace_previous (void)
{
  g_autofree char *root = fresh ("replace");
  g_autofree char *path = g_build_filename (root, "run", NULL);
  g_autofree char *old = g_build_filename (path, "old_0.mcap", NULL);
  g_autofree char *mcap = g_build_filename (path, "run_0.mcap", NULL);
  McapParsed m;

  fake_recording (path);
  record (path, root, 4, 0);
  g_assert_false (g_file_test (old, G_FILE_TEST_EXISTS));
  parse_file (mcap, &m);
  g_assert_cmpuint (m.messages, ==, 6);
  mp_clear (&m);
  /* And a recording of ours is replaced by the next one. */
  record (path, root, 2, 0);
  parse_file (mcap, &m);
  g_assert_cmpuint (m.messages, ==, 3);
  mp_clear (&m);
}

/* The replace rule without side effects (POST /sequences/start checks a
 * bag_path with it): the same verdicts, nothing created or removed. */
static void
test_check_path (void)
{
  g_autofree char *root = fresh ("check");
  g_autofree char *prev = g_build_filename (root, "prev", NULL);
  g_autofree char *fresh_path = g_build_filename (root, "a", "b", "file", NULL);
  g_autofree char *notes = g_build_filename (root, "notes", NULL);
  g_autofree char *x = g_build_filename (notes, "notes.txt", NULL);
  g_autoptr (GError) error = NULL;

  /* A file of the same name higher up is no concern of root/a/b/file. */
  {
    g_autofree char *decoy = g_build_filename (root, "file", NULL);

    nb_test_write_file (decoy, "not a directory");
  }
  fake_recording (prev);
  g_assert_true (nb_rosbag_check_path (prev, root, &error));
  g_assert_no_error (error);
  assert_file (prev, "old_0.mcap", "old bytes");           /* checked, not removed */
  g_assert_true (nb_rosbag_check_path (fresh_path, root, &error));
  g_assert_false (g_file_test (fresh_path, G_FILE_TEST_EXISTS));
  {
    g_autofree char *a = g_build_filename (root, "a", NULL);

    g_assert_false (g_file_test (a, G_FILE_TEST_EXISTS)); /* nothing made on the way */
  }
  fake_recording (notes);
  nb_test_write_file (x, "keep me");
  g_assert_false (nb_rosbag_check_path (notes, root, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "not part of a recording"));
  g_clear_error (&error);
  g_assert_false (nb_rosbag_check_path ("/etc/navbench-x", root, &error));
  g_assert_nonnull (strstr (error->message, "outside the recordings root"));
  g_clear_error (&error);
  g_assert_false (nb_rosbag_check_path (root, root, &error));
  g_assert_nonnull (strstr (error->message, "the recordings root itself"));
}

typedef struct {
  const char *lab, *parked, *outside;
  gint stop;
  guint swaps;
} Swapper;

/* Swaps root/lab (a directory) with a symlink to a directory outside the
 * root and back, atomically (RENAME_EXCHANGE: the name is never missing),
 * as fast as it can. */
static gpointer
swap_thread (gpointer data)
{
  Swapper *sw = data;

  while (!g_atomic_int_get (&sw->stop))
    {
      g_assert_cmpint (renameat2 (AT_FDCWD, sw->lab, AT_FDCWD, sw->parked, RENAME_EXCHANGE), ==,
                       0);
      sw->swaps++;
    }
  /* lab is the directory again. */
  if ((sw->swaps & 1) != 0)
    g_assert_cmpint (renameat2 (AT_FDCWD, sw->lab, AT_FDCWD, sw->parked, RENAME_EXCHANGE), ==, 0);
  return NULL;
}

static guint
count_entries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

/* The check and the removal were separate steps: swapping a directory of
 * the root for a symlink while a recording started removed files outside
 * the root in 128 of 400 attempts, and wrote a recording there in 21. */
static void
test_replace_race (void)
{
  g_autofree char *root = fresh ("race");
  g_autofree char *outside = fresh ("race-outside");
  g_autofree char *lab = g_build_filename (root, "lab", NULL);
  g_autofree char *parked = g_build_filename (root, "lab.parked", NULL);
  g_autofree char *run = g_build_filename (lab, "run", NULL);
  g_autofree char *victim = g_build_filename (outside, "run", NULL);
  Swapper sw = { lab, parked, outside, 0, 0 };
  GThread *thread;
  guint made = 0, refused = 0;

  /* The same look outside as inside: a previous recording. */
  fake_recording (run);
  fake_recording (victim);
  g_assert_cmpint (symlink (outside, parked), ==, 0);
  thread = g_thread_new ("swapper", swap_thread, &sw);
  for (int attempt = 0; attempt < 2000; attempt++)
    {
      g_autoptr (GError) error = NULL;
      NbRosbag *bag = nb_rosbag_create (run, root, &error);

      if (bag != NULL)
        {
          made++;
          g_assert_true (nb_rosbag_close (bag, NULL));
        }
      else
        refused++;
      /* Outside, nothing removed and nothing written. */
      assert_file (victim, "old_0.mcap", "old bytes");
      assert_file (victim, "metadata.yaml", "rosbag2_bagfile_information:\n  version: 5\n");
      g_assert_cmpuint (count_entries (victim), ==, 2);
      g_assert_cmpuint (count_entries (outside), ==, 1);
    }
  g_atomic_int_set (&sw.stop, 1);
  g_thread_join (thread);
  /* The race was run: both outcomes happened, under many swaps. */
  g_test_message ("%u made, %u refused, %u swaps", made, refused, sw.swaps);
  g_assert_cmpuint (made, >, 0);
  g_assert_cmpuint (refused, >, 0);
  g_assert_cmpuint (sw.swaps, >, 100);
}

static void
test_refuse_not_recording (void)
{
  g_autofree char *root = fresh ("refuse");
  g_autofree char *notes = g_build_filename (root, "notes", NULL);
  g_autofree char *no_meta = g_build_filename (root, "no-meta", NULL);
  g_autofree char *bad_meta = g_build_filename (root, "bad-meta", NULL);
  g_autofree char *subdir = g_build_filename (root, "subdir", NULL);
  g_autofree char *sub = g_build_filename (subdir, "inner", NULL);
  g_autofree char *file = g_build_filename (root, "file", NULL);
  g_autofree char *x = NULL;

  fake_recording (notes);
  x = g_build_filename (notes, "notes.txt", NULL);
  nb_test_write_file (x, "keep me");
  assert_refused (notes, root, "'notes.txt', which is not part of a recording");
  assert_file (notes, "notes.txt", "keep me");
  assert_file (notes, "old_0.mcap", "old bytes");

  g_assert_cmpint (g_mkdir (no_meta, 0755), ==, 0);
  g_free (x);
  x = g_build_filename (no_meta, "a_0.mcap", NULL);
  nb_test_write_file (x, "mcap");
  assert_refused (no_meta, root, "without metadata.yaml");
  assert_file (no_meta, "a_0.mcap", "mcap");

  fake_recording (bad_meta);
  g_free (x);
  x = g_build_filename (bad_meta, "metadata.yaml", NULL);
  nb_test_write_file (x, "# a comment\nsomething_else: 1\n");
  assert_refused (bad_meta, root, "not rosbag2 bag information");
  assert_file (bad_meta, "metadata.yaml", "# a comment\nsomething_else: 1\n");

  fake_recording (subdir);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  assert_refused (subdir, root, "'inner', which is not a regular file");
  g_assert_true (g_file_test (sub, G_FILE_TEST_IS_DIR));

  nb_test_write_file (file, "a plain file");
  assert_refused (file, root, "not a directory");
  assert_file (root, "file", "a plain file");
}

static void
test_refuse_outside_and_root (void)
{
  g_autofree char *base = fresh ("outside");
  g_autofree char *root = g_build_filename (base, "root", NULL);
  g_autofree char *out = g_build_filename (base, "elsewhere", NULL);
  g_autofree char *dotdot = g_build_filename (root, "..", "elsewhere", NULL);
  g_autofree char *deep = g_build_filename (root, "a", "..", "..", "elsewhere", NULL);
  g_autofree char *root_dot = g_build_filename (root, ".", NULL);
  g_autofree char *root_up = g_build_filename (root, "x", "..", NULL);
  g_autofree char *root_slash = g_strconcat (root, "/", NULL);
  g_autofree char *prefix_twin = g_build_filename (base, "root2", NULL);

  g_assert_cmpint (g_mkdir (root, 0755), ==, 0);
  fake_recording (out);
  assert_refused (out, root, "outside the recordings root");
  assert_refused (dotdot, root, "outside the recordings root");
  assert_refused (deep, root, "outside the recordings root");
  assert_file (out, "old_0.mcap", "old bytes");
  assert_file (out, "metadata.yaml", "rosbag2_bagfile_information:\n  version: 5\n");
  /* A sibling whose name starts with the root's is still outside. */
  fake_recording (prefix_twin);
  assert_refused (prefix_twin, root, "outside the recordings root");
  assert_file (prefix_twin, "old_0.mcap", "old bytes");

  assert_refused (root, root, "the recordings root itself");
  assert_refused (root_dot, root, "the recordings root itself");
  assert_refused (root_up, root, "the recordings root itself");
  assert_refused (root_slash, root, "the recordings root itself");
  g_assert_true (g_file_test (root, G_FILE_TEST_IS_DIR));

  /* A root that does not exist refuses everything. */
  {
    g_autofree char *nowhere = g_build_filename (base, "nowhere", NULL);
    g_autofree char *p = g_build_filename (nowhere, "run", NULL);
    g_autoptr (GError) error = NULL;

    g_assert_null (nb_rosbag_create (p, nowhere, &error));
    g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
    g_assert_false (g_file_test (nowhere, G_FILE_TEST_EXISTS));
  }
}

static void
test_refuse_symlinks (void)
{
  g_autofree char *base = fresh ("symlinks");
  g_autofree char *root = g_build_filename (base, "root", NULL);
  g_autofree char *out = g_build_filename (base, "elsewhere", NULL);
  g_autofree char *rec = g_build_filename (out, "rec", NULL);
  g_autofree char *link = g_build_filename (root, "link", NULL);
  g_autofree char *via_link = g_build_filename (link, "rec", NULL);
  g_autofree char *reclink = g_build_filename (root, "reclink", NULL);
  g_autofree char *inside = g_build_filename (root, "real", NULL);
  g_autofree char *inlink = g_build_filename (root, "inlink", NULL);
  g_autofree char *via_inlink = g_build_filename (inlink, "run", NULL);
  g_autofree char *real_run = g_build_filename (inside, "run", "run_0.mcap", NULL);
  g_autofree char *root_link = g_build_filename (base, "root-link", NULL);
  g_autofree char *via_root_link = g_build_filename (root_link, "viaroot", NULL);

  g_assert_cmpint (g_mkdir (root, 0755), ==, 0);
  fake_recording (rec);
  g_assert_cmpint (symlink (out, link), ==, 0);
  assert_refused (via_link, root, "outside the recordings root");
  assert_file (rec, "old_0.mcap", "old bytes");

  /* The path itself a symlink, even to a recording: refused, both kept. */
  g_assert_cmpint (symlink (rec, reclink), ==, 0);
  assert_refused (reclink, root, "symbolic link");
  assert_file (rec, "old_0.mcap", "old bytes");
  g_assert_true (g_file_test (reclink, G_FILE_TEST_IS_SYMLINK));

  /* A symlink that stays inside the root is followed. */
  g_assert_cmpint (g_mkdir (inside, 0755), ==, 0);
  g_assert_cmpint (symlink (inside, inlink), ==, 0);
  record (via_inlink, root, 2, 0);
  g_assert_true (g_file_test (real_run, G_FILE_TEST_IS_REGULAR));

  /* The root given through a symlink is resolved too. */
  g_assert_cmpint (symlink (root, root_link), ==, 0);
  record (via_root_link, root_link, 2, 0);
  record (via_root_link, root, 2, 0);
}

static void
test_intermediate_and_long (void)
{
  g_autofree char *root = fresh ("inter");
  g_autofree char *path = g_build_filename (root, "2024", "05", "run", NULL);
  g_autofree char *yaml = g_build_filename (path, "metadata.yaml", NULL);
  g_autofree char *longname = g_strnfill (300, 'n');
  g_autofree char *too_long = g_build_filename (root, longname, NULL);
  g_autoptr (GError) error = NULL;

  record (path, root, 3, 0);
  g_assert_true (g_file_test (yaml, G_FILE_TEST_IS_REGULAR));

  /* A name longer than NAME_MAX: an input error naming the path. */
  g_assert_null (nb_rosbag_create (too_long, root, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_true (g_str_has_prefix (error->message, too_long));
  g_assert_nonnull (strstr (error->message, g_strerror (ENAMETOOLONG)));
}

static void
test_bad_input (void)
{
  g_autofree char *root = fresh ("badinput");
  g_autofree char *path = g_build_filename (root, "run", NULL);
  g_autoptr (GError) error = NULL;
  static const char *const bad_topics[] = { "", "joint_states", "/", "/a/", "//a", "/a//b",
                                            "/1a", "/a b", "/a:b", "/a\"b", "/ä" };
  static const double p[3] = { 0 }, q[4] = { 0, 0, 0, 1 };
  static const char *const names[] = { "j" };
  NbRosbag *bag = nb_rosbag_create (path, root, &error);
  guint16 js, tcp, id;

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (bad_topics); i++)
    {
      g_assert_false (nb_rosbag_add_topic (bag, bad_topics[i], NB_ROS_JOINT_STATE, &id, &error));
      g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
      g_clear_error (&error);
    }
  g_assert_true (nb_rosbag_add_topic (bag, "/robot/joint_states_1", NB_ROS_JOINT_STATE, &js,
                                      &error));
  g_assert_true (nb_rosbag_add_topic (bag, "/tcp", NB_ROS_POSE_STAMPED, &tcp, &error));
  g_assert_no_error (error);
  g_assert_false (nb_rosbag_add_topic (bag, "/tcp", NB_ROS_POSE_STAMPED, &id, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  /* Wrong type for the channel, unknown channel, negative time, past 2038. */
  g_assert_false (nb_rosbag_write_pose_stamped (bag, js, 1, "", p, q, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "carries sensor_msgs/msg/JointState"));
  g_clear_error (&error);
  g_assert_false (nb_rosbag_write_pose_stamped (bag, 7, 1, "", p, q, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_rosbag_write_joint_state (bag, js, -5, "", 1, names, p, NULL, NULL, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_rosbag_write_pose_stamped (bag, tcp, G_MAXINT64, "", p, q, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "/tcp"));
  g_clear_error (&error);
  /* Refused input wrote nothing: the bag closes with no messages. */
  g_assert_true (nb_rosbag_close (bag, &error));
  g_assert_no_error (error);
  {
    g_autofree char *mcap = g_build_filename (path, "run_0.mcap", NULL);
    McapParsed m;

    parse_file (mcap, &m);
    g_assert_cmpuint (m.messages, ==, 0);
    g_assert_cmpuint (m.summary_channels, ==, 2);
    mp_clear (&m);
  }
}

/* ---- write errors -------------------------------------------------------- */

static gboolean
ends_with_magic (const char *path)
{
  g_autoptr (GBytes) b = slurp (path);
  gsize n;
  const guint8 *p = g_bytes_get_data (b, &n);

  return n >= 8 && memcmp (p + n - 8, "\x89MCAP0\r\n", 8) == 0;
}

static void
test_write_error_fsize (void)
{
  g_autofree char *root = fresh ("fsize");
  g_autofree char *path = g_build_filename (root, "big", NULL);
  g_autofree char *mcap = g_build_filename (path, "big_0.mcap", NULL);
  g_autofree char *yaml = g_build_filename (path, "metadata.yaml", NULL);

  /* RLIMIT_FSIZE binds root too: the file stops growing at 64 KiB, write()
   * fails with EFBIG once SIGXFSZ is ignored.  In a child, to keep the limit
   * away from this process. */
  if (g_test_subprocess ())
    {
      struct rlimit lim = { 64 * 1024, 64 * 1024 };
      g_autoptr (GError) error = NULL;
      NbRosbag *bag;
      guint16 js;
      gboolean failed = FALSE;
      static const double q[7] = { 0 };

      signal (SIGXFSZ, SIG_IGN);
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &lim), ==, 0);
      bag = nb_rosbag_create_full (path, root, 8 * 1024, &error);
      g_assert_no_error (error);
      g_assert_true (nb_rosbag_add_topic (bag, "/joint_states", NB_ROS_JOINT_STATE, &js, &error));
      for (guint i = 0; i < 10000 && !failed; i++)
        failed = !nb_rosbag_write_joint_state (bag, js, T0 + i, "", 7, JOINTS, q, q, q, &error);
      g_assert_true (failed);
      g_assert_error (error, NB_ERROR, NB_ERROR_FAILED);
      g_assert_true (g_str_has_prefix (error->message, mcap));
      g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
      g_clear_error (&error);
      /* Every later call fails, close included, and no footer is written. */
      g_assert_false (nb_rosbag_write_joint_state (bag, js, T0, "", 7, JOINTS, q, q, q, &error));
      g_assert_nonnull (strstr (error->message, "an earlier write failed"));
      g_clear_error (&error);
      g_assert_false (nb_rosbag_close (bag, &error));
      g_assert_error (error, NB_ERROR, NB_ERROR_FAILED);
      g_assert_true (g_str_has_prefix (error->message, mcap));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_assert_true (g_file_test (mcap, G_FILE_TEST_IS_REGULAR));
  g_assert_false (ends_with_magic (mcap));
  g_assert_false (g_file_test (yaml, G_FILE_TEST_EXISTS));
}

static void
test_metadata_write_error (void)
{
  g_autofree char *root = fresh ("metafail");
  g_autofree char *path = g_build_filename (root, "run", NULL);
  g_autofree char *yaml = g_build_filename (path, "metadata.yaml", NULL);
  g_autofree char *blocker = g_build_filename (yaml, "x", NULL);
  g_autoptr (GError) error = NULL;
  NbRosbag *bag = nb_rosbag_create (path, root, &error);
  guint16 js;
  static const double q[1] = { 0 };
  static const char *const names[] = { "j" };

  g_assert_no_error (error);
  g_assert_true (nb_rosbag_add_topic (bag, "/js", NB_ROS_JOINT_STATE, &js, &error));
  g_assert_true (nb_rosbag_write_joint_state (bag, js, T0, "", 1, names, q, NULL, NULL, &error));
  /* A non-empty directory where metadata.yaml goes: the rename fails. */
  g_assert_cmpint (g_mkdir (yaml, 0755), ==, 0);
  nb_test_write_file (blocker, "");
  g_assert_false (nb_rosbag_close (bag, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_FAILED);
  g_assert_true (g_str_has_prefix (error->message, yaml));
  g_assert_true (g_file_test (yaml, G_FILE_TEST_IS_DIR));
}

static void
test_abort (void)
{
  g_autofree char *root = fresh ("abort");
  g_autofree char *path = g_build_filename (root, "run", NULL);
  g_autofree char *mcap = g_build_filename (path, "run_0.mcap", NULL);
  g_autofree char *yaml = g_build_filename (path, "metadata.yaml", NULL);
  g_autoptr (GError) error = NULL;
  NbRosbag *bag = nb_rosbag_create (path, root, &error);
  guint16 js;
  static const double q[1] = { 0 };
  static const char *const names[] = { "j" };

  g_assert_no_error (error);
  g_assert_true (nb_rosbag_add_topic (bag, "/js", NB_ROS_JOINT_STATE, &js, &error));
  g_assert_true (nb_rosbag_write_joint_state (bag, js, T0, "", 1, names, q, NULL, NULL, &error));
  nb_rosbag_abort (bag);
  g_assert_true (g_file_test (mcap, G_FILE_TEST_IS_REGULAR));
  g_assert_false (ends_with_magic (mcap));
  g_assert_false (g_file_test (yaml, G_FILE_TEST_EXISTS));
  /* Without metadata.yaml it is no previous recording: not replaced. */
  assert_refused (path, root, "without metadata.yaml");
  g_assert_true (g_file_test (mcap, G_FILE_TEST_IS_REGULAR));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  /* A subprocess test works in its parent's scratch directory. */
  if (g_test_subprocess ())
    tmpdir = g_strdup (g_getenv ("NB_TEST_MCAP_TMPDIR"));
  else
    {
      tmpdir = g_dir_make_tmp ("navbench-mcap-XXXXXX", NULL);
      g_setenv ("NB_TEST_MCAP_TMPDIR", tmpdir, TRUE);
    }
  g_assert_nonnull (tmpdir);

  g_test_add_func ("/mcap/crc32", test_crc32);
  g_test_add_func ("/cdr/joint-state", test_cdr_joint_state);
  g_test_add_func ("/cdr/pose-stamped", test_cdr_pose_stamped);
  g_test_add_func ("/cdr/time", test_cdr_time);
  g_test_add_func ("/mcap/structure", test_mcap_structure);
  g_test_add_func ("/mcap/empty", test_mcap_empty);
  g_test_add_func ("/mcap/dev-full", test_mcap_dev_full);
  g_test_add_func ("/rosbag/write-read", test_rosbag_write_read);
  g_test_add_func ("/rosbag/schema-text", test_rosbag_schema_text);
  g_test_add_func ("/rosbag/metadata-yaml", test_rosbag_metadata);
  g_test_add_func ("/rosbag/replace-previous", test_replace_previous);
  g_test_add_func ("/rosbag/refuse-not-recording", test_refuse_not_recording);
  g_test_add_func ("/rosbag/check-path", test_check_path);
  g_test_add_func ("/rosbag/replace-race", test_replace_race);
  g_test_add_func ("/rosbag/refuse-outside-and-root", test_refuse_outside_and_root);
  g_test_add_func ("/rosbag/refuse-symlinks", test_refuse_symlinks);
  g_test_add_func ("/rosbag/intermediate-and-long", test_intermediate_and_long);
  g_test_add_func ("/rosbag/bad-input", test_bad_input);
  g_test_add_func ("/rosbag/write-error-fsize", test_write_error_fsize);
  g_test_add_func ("/rosbag/metadata-write-error", test_metadata_write_error);
  g_test_add_func ("/rosbag/abort", test_abort);

  status = g_test_run ();
  if (!g_test_subprocess ())
    nb_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
