/* navbench-cli replay and acquire end to end: JSON lines parsed with
 * json-glib, decode warnings as FILE:LINE on stderr, exit codes, the CSV
 * that acquire keeps, and the rate it reports. */
#include "nb-test.h"
#include "nb-test-cli.h"

#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>

typedef NbTestRun Run;

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, nb_test_run_clear)

static Run
cli (const char *first, ...)
{
  va_list ap;
  Run run;

  va_start (ap, first);
  run = nb_test_cli_spawnv (NULL, first, ap);
  va_end (ap);
  return run;
}

static JsonObject *
object (const char *line)
{
  g_autoptr (JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_data (parser, line, -1, NULL))
    g_error ("not JSON: %s", line);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
test_replay (void)
{
  g_autofree char *capture = g_test_build_filename (G_TEST_DIST, "captures", "nmea",
                                                    "garmin48.log", NULL);
  g_auto (Run) r = cli ("replay", "--driver", "nmea", "--capture", capture, "--json",
                        "--set", "origin=-45.4576,167.1527,15", NULL);
  g_auto (GStrv) lines = g_strsplit (r.out, "\n", -1);
  g_autoptr (JsonObject) first = NULL;
  g_autofree char *where = g_strdup_printf ("%s:84: no checksum", capture);

  g_assert_cmpint (r.status, ==, 0);
  /* 21 fixes (see the gpsd regression); the last line is empty. */
  g_assert_cmpuint (g_strv_length (lines), ==, 22);
  first = object (lines[0]);
  g_assert_cmpstr (json_object_get_string_member (first, "tag"), ==, "GPRMC");
  nb_assert_abs (json_object_get_double_member (first, "lat"), -(45 + 27.458 / 60), 1e-12, "lat");
  /* 0.0000333° north and 0.0005° east of the origin at 45.46° S. */
  nb_assert_abs (json_object_get_double_member (first, "y"), -0.0000333333 * 111141.0, 0.01,
                 "north of the origin");
  g_assert_nonnull (strstr (r.err, where));
}

static void
test_replay_errors (void)
{
  g_auto (Run) missing = cli ("replay", "--driver", "nmea", "--capture", "/nonexistent.log", NULL);
  g_auto (Run) driver = cli ("replay", "--driver", "nope", "--capture", "x", NULL);
  g_auto (Run) set = cli ("replay", "--driver", "nmea", "--capture", "x", "--set", "origin", NULL);
  g_auto (Run) none = cli ("replay", NULL);

  g_assert_cmpint (missing.status, ==, 2);
  g_assert_cmpstr (missing.out, ==, "");
  g_assert_nonnull (strstr (missing.err, "navbench-cli: /nonexistent.log: No such file"));
  g_assert_cmpint (driver.status, ==, 2);
  g_assert_nonnull (strstr (driver.err, "no driver named 'nope'"));
  g_assert_cmpint (set.status, ==, 2);
  g_assert_nonnull (strstr (set.err, "not KEY=VALUE"));
  g_assert_cmpint (none.status, ==, 2);
}

/* An empty or garbage capture exited 0 without a word (#21). */
static void
test_replay_no_sample (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-replay-XXXXXX", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.log", NULL);
  g_autofree char *garbage = g_build_filename (dir, "garbage.log", NULL);
  g_autofree char *partial = g_build_filename (dir, "partial.log", NULL);
  g_autofree char *capture = g_test_build_filename (G_TEST_DIST, "captures", "nmea",
                                                    "garmin48.log", NULL);
  g_autofree char *good = NULL, *mixed = NULL, *msg = NULL;

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_assert_true (g_file_set_contents (garbage, "\x01\x02 nothing\n$GPXXX,1*00\nzz\n", -1, NULL));
  g_assert_true (g_file_get_contents (capture, &good, NULL, NULL));
  mixed = g_strconcat ("$GPRMC,123519,A*00\n", good, "$GPGGA,1,2\n", NULL);
  g_assert_true (g_file_set_contents (partial, mixed, -1, NULL));
  {
    g_auto (Run) r = cli ("replay", "--driver", "nmea", "--capture", empty, "--json", NULL);

    g_assert_cmpint (r.status, ==, 2);
    g_assert_cmpstr (r.out, ==, "");
    msg = g_strdup_printf ("navbench-cli: %s: no sample decoded by driver nmea (0 decode "
                           "warnings)", empty);
    g_assert_nonnull (strstr (r.err, msg));
    g_clear_pointer (&msg, g_free);
  }
  {
    g_auto (Run) r = cli ("replay", "--driver", "nmea", "--capture", garbage, NULL);

    g_assert_cmpint (r.status, ==, 2);
    g_assert_cmpstr (r.out, ==, "");
    msg = g_strdup_printf ("navbench-cli: %s: no sample decoded", garbage);
    g_assert_nonnull (strstr (r.err, msg));
    g_clear_pointer (&msg, g_free);
  }
  {
    g_auto (Run) clean = cli ("replay", "--driver", "nmea", "--capture", capture, "--quiet",
                              "--set", "origin=-45.4576,167.1527,15", NULL);
    g_auto (Run) r = cli ("replay", "--driver", "nmea", "--capture", partial, "--quiet", "--json",
                          "--set", "origin=-45.4576,167.1527,15", NULL);
    g_autofree char *skipped = NULL;

    g_assert_cmpint (r.status, ==, 0);
    /* garmin48.log alone: 21 samples, 1 skipped (its line 84); with a bad
     * checksum before and a sentence without one after, 3. */
    g_assert_nonnull (strstr (clean.err, "21 samples decoded, 1 record skipped"));
    skipped = g_strdup_printf ("navbench-cli: %s: 21 samples decoded, 3 records skipped",
                               partial);
    g_assert_nonnull (strstr (r.err, skipped));
  }
  g_unlink (empty);
  g_unlink (garbage);
  g_unlink (partial);
  g_rmdir (dir);
}

static void
test_acquire_sim (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-acquire-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "samples.csv", NULL);
  g_auto (Run) r = cli ("acquire", "--duration", "1", "--json", "--out", csv, "--set", "rate=100",
                        "--set", "seed=4", NULL);
  g_auto (GStrv) lines = g_strsplit (r.out, "\n", -1);
  guint n = g_strv_length (lines);
  g_autoptr (JsonObject) summary = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) rows = NULL;
  gint64 samples;

  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (n, >=, 3);
  summary = object (lines[n - 2]);
  g_assert_true (json_object_get_boolean_member (summary, "summary"));
  samples = json_object_get_int_member (summary, "samples");
  g_assert_cmpint (samples, ==, (gint64) n - 2);
  /* 100 Hz for 1 s, real time: the samples that arrived within 1 s of the
   * device's start, at most 1 + 100 however the threads are scheduled (at
   * load 20 it was up to 120 when the window was timed by the main thread
   * alone); the lower bound leaves the simulator's thread 0.2 s of delays. */
  g_assert_cmpint (samples, >=, 80);
  g_assert_cmpint (samples, <=, 101);
  nb_assert_rel (json_object_get_double_member (summary, "rate_hz"), 100.0, 1e-6, "rate");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (summary, "fix"),
                                               "simulated"), ==, samples);
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  rows = g_strsplit (text, "\n", -1);
  g_assert_true (g_str_has_prefix (rows[0], "t_s,device_time_s,x_m,y_m"));
  g_assert_cmpuint (g_strv_length (rows), ==, (guint) samples + 2);
  g_remove (csv);
  g_rmdir (dir);
}

static void
test_acquire_errors (void)
{
  g_auto (Run) both = cli ("acquire", "--port", "/dev/ttyS0", "--url", "tcp://x:1", NULL);
  g_auto (Run) port = cli ("acquire", "--driver", "nmea", "--port", "/dev/ttyNOSUCH9", "--baud",
                           "115200", "--duration", "2", NULL);
  g_auto (Run) refused = cli ("acquire", "--driver", "nmea", "--url", "tcp://127.0.0.1:1",
                              "--duration", "2", NULL);
  g_auto (Run) duration = cli ("acquire", "--duration", "-1", NULL);

  g_assert_cmpint (both.status, ==, 2);
  g_assert_nonnull (strstr (both.err, "not both"));
  g_assert_cmpint (port.status, ==, 2);
  g_assert_nonnull (strstr (port.err, "/dev/ttyNOSUCH9"));
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_nonnull (strstr (refused.err, "navbench-cli: tcp://127.0.0.1:1"));
  g_assert_cmpint (duration.status, ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/replay", test_replay);
  g_test_add_func ("/cli/replay-no-sample", test_replay_no_sample);
  g_test_add_func ("/cli/replay-errors", test_replay_errors);
  g_test_add_func ("/cli/acquire-sim", test_acquire_sim);
  g_test_add_func ("/cli/acquire-errors", test_acquire_errors);
  return g_test_run ();
}
