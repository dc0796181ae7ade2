/* Recording a sequence run (seeds/003 "Повторы и запись", issue #7): the
 * rosbag2 directory written by `navbench-cli sequence run`, read back by an
 * independent reader (@mcap/core + @foxglove/rosmsg2-serialization under
 * node), on the simulated arm and over HTTP; the replace rule from the CLI. */
#include "nb-test.h"
#include "nb-test-cli.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static char *root;              /* the recordings root of this test */

static char *
source_path (const char *a, const char *b, const char *c)
{
  return g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), a, b, c, NULL);
}

/* The pick-and-place sequence with its bag_path and topics replaced. */
static char *
sequence_file (const char *bag_path, const char *topics)
{
  g_autofree char *src = source_path ("data", "sequences", "pick-and-place.json");
  g_autofree char *text = NULL;
  g_autoptr (GString) s = NULL;
  g_autofree char *bag = g_strdup_printf ("\"bag_path\": \"%s\"", bag_path);
  g_autofree char *top = g_strdup_printf ("\"topics\": %s", topics);
  g_autofree char *label = g_strcanon (g_strdup (bag_path), "abcdefghijklmnopqrstuvwxyz-", '_');
  char *path = g_strdup_printf ("%s.seq-%s.json", root, label);

  g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
  s = g_string_new (text);
  g_assert_cmpuint (g_string_replace (s, "\"bag_path\": \"\"", bag, 1), ==, 1);
  g_assert_cmpuint (g_string_replace (s, "\"topics\": [\"/joint_states\", \"/tcp_pose\"]", top, 1),
                    ==, 1);
  g_assert_true (g_file_set_contents (path, s->str, -1, NULL));
  return path;
}

/* The independent reader's view of a bag's MCAP file; NULL when the reader
 * is not installed (the test is then skipped, or failed under
 * NAVBENCH_REQUIRE_MCAP_READER=1: nb_test_mcap_reader). */
static JsonObject *
read_back (JsonParser *parser, const char *bag_dir)
{
  g_autofree char *node = nb_test_mcap_reader ();
  g_autofree char *script = source_path ("tests", "mcap", "read-mcap.mjs");
  g_autofree char *base = g_path_get_basename (bag_dir);
  g_autofree char *name = g_strconcat (base, "_0.mcap", NULL);
  g_autofree char *mcap = g_build_filename (bag_dir, name, NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *argv[] = { node, script, mcap, NULL };
  int status;

  if (node == NULL)
    return NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, NULL));
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("read-mcap.mjs %s: %s", mcap, err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  return json_node_get_object (json_parser_get_root (parser));
}

static JsonObject *
channel (JsonObject *o, const char *topic)
{
  JsonArray *a = json_object_get_array_member (o, "channels");

  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *c = json_array_get_object_element (a, i);

      if (g_str_equal (json_object_get_string_member (c, "topic"), topic))
        return c;
    }
  g_error ("no channel %s", topic);
}

static gint64
int_string (JsonObject *o, const char *key)
{
  return g_ascii_strtoll (json_object_get_string_member (o, key), NULL, 10);
}

static void
test_sim_arm (void)
{
  g_autofree char *seq = sequence_file ("sim-run",
                                        "[\"/joint_states\", \"/tcp_pose\", \"/measured_pose\"]");
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "sequence", "run", seq,
                                          "--recordings-root", root, NULL);
  g_autofree char *bag = g_build_filename (root, "sim-run", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o, *js, *tcp, *meas, *first, *last;
  JsonArray *names, *pos;
  double virtual_s;
  guint64 recorded;
  gint64 samples;
  const double home[7] = { 0.0, 0.35, 0.0, -1.2, 0.0, 0.6, 0.0 };

  g_assert_nonnull (strstr (out, "virtual time "));
  g_assert_cmpint (sscanf (strstr (out, "virtual time "), "virtual time %lf s", &virtual_s), ==, 1);
  g_assert_cmpint (sscanf (strstr (out, "recorded "), "recorded %" G_GUINT64_FORMAT, &recorded),
                   ==, 1);
  /* 50 Hz along the virtual clock from 0, and the final pose: ⌈T / 20 ms⌉ + 1 samples. */
  samples = (gint64) ceil (virtual_s / 0.02 - 1e-9) + 1;
  g_assert_cmpuint (recorded, ==, 3 * samples);
  if ((o = read_back (parser, bag)) == NULL)
    return;
  g_assert_cmpstr (json_object_get_string_member (o, "profile"), ==, "ros2");
  g_assert_cmpint (json_object_get_int_member (o, "message_count"), ==, 3 * samples);
  g_assert_true (json_object_get_boolean_member (o, "stream_done"));
  js = channel (o, "/joint_states");
  tcp = channel (o, "/tcp_pose");
  meas = channel (o, "/measured_pose");
  g_assert_cmpstr (json_object_get_string_member (js, "schema_name"), ==, "sensor_msgs/msg/JointState");
  g_assert_cmpstr (json_object_get_string_member (tcp, "schema_name"), ==, "geometry_msgs/msg/PoseStamped");
  g_assert_cmpstr (json_object_get_string_member (meas, "schema_name"), ==, "geometry_msgs/msg/PoseStamped");
  g_assert_cmpstr (json_object_get_string_member (js, "schema_encoding"), ==, "ros2msg");
  g_assert_cmpstr (json_object_get_string_member (js, "message_encoding"), ==, "cdr");
  g_assert_cmpint (json_object_get_int_member (js, "message_count"), ==, samples);
  g_assert_cmpint (json_object_get_int_member (tcp, "message_count"), ==, samples);
  g_assert_cmpint (json_object_get_int_member (meas, "message_count"), ==, samples);
  /* Every message decodes and encodes back to the same bytes with the independent codec. */
  g_assert_cmpint (json_object_get_int_member (js, "reencoded_differs"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (tcp, "reencoded_differs"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (meas, "reencoded_differs"), ==, 0);
  /* The bag spans the run's virtual time. */
  nb_assert_abs ((double) (int_string (js, "last_log_time") - int_string (js, "first_log_time")) * 1e-9,
                 virtual_s, 5e-4, "recorded duration (printed to the ms)");
  /* Starts at zero, ends at home (noise and backlash ≤ 5e-5 rad). */
  first = json_object_get_object_member (js, "first_message");
  last = json_object_get_object_member (js, "last_message");
  names = json_object_get_array_member (first, "name");
  g_assert_cmpuint (json_array_get_length (names), ==, 7);
  g_assert_cmpstr (json_array_get_string_element (names, 0), ==, "joint1");
  g_assert_cmpstr (json_array_get_string_element (names, 6), ==, "joint7");
  pos = json_object_get_array_member (first, "position");
  for (guint i = 0; i < 7; i++)
    nb_assert_abs (json_array_get_double_element (pos, i), 0.0, 0, "first position");
  pos = json_object_get_array_member (last, "position");
  for (guint i = 0; i < 7; i++)
    nb_assert_abs (json_array_get_double_element (pos, i), home[i], 1e-4, "last position");
  /* All joints zero: the TCP straight up at 1.266 m; the tracker within 5 σ (0.1 mm). */
  {
    JsonObject *p = json_object_get_object_member (
      json_object_get_object_member (json_object_get_object_member (tcp, "first_message"), "pose"),
      "position");
    JsonObject *m = json_object_get_object_member (
      json_object_get_object_member (json_object_get_object_member (meas, "first_message"), "pose"),
      "position");

    nb_assert_abs (json_object_get_double_member (p, "z"), 1.266, 1e-12, "TCP z");
    g_assert_cmpfloat (fabs (json_object_get_double_member (m, "z") - 1.266), >, 0);
    nb_assert_abs (json_object_get_double_member (m, "z"), 1.266, 1e-4, "measured z");
  }
}

static void
test_replace_rule (void)
{
  g_autofree char *seq = sequence_file ("again", "[]");
  g_autofree char *bag = g_build_filename (root, "again", NULL);
  g_autofree char *notes = g_build_filename (root, "notes", NULL);
  g_autofree char *keep = g_build_filename (notes, "keep.txt", NULL);
  g_autofree char *outside = g_dir_make_tmp ("nb-outside-XXXXXX", NULL);
  g_autofree char *err = NULL, *text = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o;

  /* seeds/003 "Путь записи уже существует": a previous recording is replaced. */
  g_free (nb_test_cli_run (NULL, 0, NULL, "sequence", "run", seq, "--recordings-root", root, NULL));
  g_free (nb_test_cli_run (NULL, 0, NULL, "sequence", "run", seq, "--recordings-root", root,
                           "--iterations", "1", NULL));
  /* No topics given: /joint_states and /tcp_pose; one iteration's worth, not two. The
   * refusals below need no reader and run either way. */
  if ((o = read_back (parser, bag)) != NULL)
    {
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "channels")), ==,
                        2);
      g_assert_cmpint (json_object_get_int_member (channel (o, "/joint_states"), "message_count"),
                       <, 130);
    }
  /* Anything else is refused and left as it was. */
  g_assert_cmpint (g_mkdir (notes, 0755), ==, 0);
  g_assert_true (g_file_set_contents (keep, "mine", -1, NULL));
  g_free (nb_test_cli_run (NULL, 2, &err, "sequence", "run", seq, "--bag", notes,
                           "--recordings-root", root, NULL));
  g_assert_nonnull (strstr (err, notes));
  g_assert_true (g_file_get_contents (keep, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "mine");
  g_clear_pointer (&err, g_free);
  g_free (nb_test_cli_run (NULL, 2, &err, "sequence", "run", seq, "--bag", outside,
                           "--recordings-root", root, NULL));
  g_assert_nonnull (strstr (err, "outside"));
  g_assert_true (g_file_test (outside, G_FILE_TEST_IS_DIR));
  g_clear_pointer (&err, g_free);
  g_free (nb_test_cli_run (NULL, 2, &err, "sequence", "run", seq, "--bag", "../escape",
                           "--recordings-root", root, NULL));
  g_clear_pointer (&err, g_free);
  /* An unknown topic is named. */
  {
    g_autofree char *bad = sequence_file ("bad-topic", "[\"/joint_states\", \"/camera\"]");

    g_free (nb_test_cli_run (NULL, 2, &err, "sequence", "run", bad, "--recordings-root", root,
                             NULL));
    g_assert_nonnull (strstr (err, "topics[1]: '/camera'"));
  }
  g_unlink (keep);
  g_rmdir (notes);
  g_rmdir (outside);
}

/* seeds/003 "Две итерации без записи": an empty bag_path writes nothing. */
static void
test_no_recording (void)
{
  g_autofree char *seq = source_path ("data", "sequences", "pick-and-place.json");
  g_autofree char *empty = g_dir_make_tmp ("nb-empty-root-XXXXXX", NULL);
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "sequence", "run", seq,
                                          "--recordings-root", empty, NULL);
  g_autoptr (GDir) d = g_dir_open (empty, 0, NULL);

  g_assert_nonnull (strstr (out, "done: 2 iterations of 6 points"));
  g_assert_null (strstr (out, "recorded"));
  g_assert_null (g_dir_read_name (d));
  g_rmdir (empty);
}

/* Over HTTP: the runner polls GET /robot/state of a navbench server. */
static void
test_http (void)
{
  g_autofree char *seq = sequence_file ("over-http", "[\"/joint_states\", \"/tcp_pose\"]");
  g_autofree char *bag = g_build_filename (root, "over-http", NULL);
  NbTestServer server = nb_test_serve ("--time-scale", "0.2", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL, *err = NULL;
  JsonObject *o, *js, *first;

  out = nb_test_cli_run (NULL, 0, NULL, "sequence", "run", seq, "--robot",
                         server.url, "--iterations", "1",
                         "--recordings-root", root, "--record-hz", "100", NULL);
  g_assert_nonnull (strstr (out, "goals sent: 6, motion stops: 0"));
  /* The /measured_pose stream needs an instrument: refused over HTTP. */
  {
    g_autofree char *m = sequence_file ("over-http-m", "[\"/measured_pose\"]");

    g_free (nb_test_cli_run (NULL, 2, &err, "sequence", "run", m, "--robot",
                             server.url, "--recordings-root", root,
                             NULL));
    g_assert_nonnull (strstr (err, "/measured_pose needs a measurement system"));
  }
  nb_test_server_stop (&server);
  if ((o = read_back (parser, bag)) == NULL)
    return;
  js = channel (o, "/joint_states");
  /* About 1 s of motion at 0.2 × the simulated time, polled at 100 Hz. */
  g_assert_cmpint (json_object_get_int_member (js, "message_count"), >, 20);
  g_assert_cmpint (json_object_get_int_member (js, "message_count"), ==,
                   json_object_get_int_member (channel (o, "/tcp_pose"), "message_count"));
  first = json_object_get_object_member (js, "first_message");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (first, "position")), ==, 7);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (first, "name"), 3),
                   ==, "joint4");
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  root = g_dir_make_tmp ("nb-recordings-XXXXXX", NULL);
  g_test_add_func ("/recording/sim-arm", test_sim_arm);
  g_test_add_func ("/recording/replace-rule", test_replace_rule);
  g_test_add_func ("/recording/none-without-bag-path", test_no_recording);
  g_test_add_func ("/recording/over-http", test_http);
  rc = g_test_run ();
  nb_test_remove_tree (root);
  {
    g_autofree char *pattern = g_strconcat (root, ".seq-", NULL);
    g_autofree char *dir = g_path_get_dirname (root);
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    g_autofree char *prefix = g_path_get_basename (pattern);
    const char *name;

    while (d && (name = g_dir_read_name (d)) != NULL)
      if (g_str_has_prefix (name, prefix))
        {
          g_autofree char *p = g_build_filename (dir, name, NULL);

          g_unlink (p);
        }
  }
  g_free (root);
  return rc;
}
