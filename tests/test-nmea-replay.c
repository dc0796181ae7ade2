/* Replay regression for the nmea driver, gpsd style.
 *
 * 1. Every capture decodes through the real driver, and every fix gpsd
 *    reported (the JSON TPV after a sentence in X.log.chk, written by gpsd
 *    itself) agrees with navbench's current position to 1e-9 degree.
 * 2. navbench-cli replay --json of every capture (nmea, and the natnet and
 *    geocom captures written from their protocol documents) equals the
 *    expected file beside it (X.nb.jsonl); NB_REBUILD_GOLDEN=1 rewrites them when a
 *    change is intended.
 * 3. The fuzz-case log and a mangled copy of every capture never crash.
 * The captures in tests/captures/nmea are the gpsd logs whose header grants
 * their BSD licence (tcp-torture.log: gpsd's COPYING, BSD-2-Clause; its
 * Delay-Cookie pieces are joined by the file transport, so only the replay
 * through the CLI, 2., reads it as gpsd does — its .chk holds the joined
 * sentences); ../shared/captures/nmea adds the others when present.
 */
#include "nb-test.h"

#include "nb-driver.h"
#include "nmea-protocol.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

typedef struct {
  gboolean have;
  double lat, lon;
  guint samples, notes;
} Current;

static void
on_sample (const NbSample *s, gpointer user_data)
{
  Current *c = user_data;

  c->have = TRUE;
  c->lat = s->lat_deg;
  c->lon = s->lon_deg;
  c->samples++;
  g_assert_true (s->has_geodetic);
  g_assert_true (isfinite (s->x_m) && isfinite (s->y_m) && isfinite (s->z_m));
}

static void
on_note (const char *message, gpointer user_data)
{
  ((Current *) user_data)->notes++;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The capture directories: the repository's own, then ../shared's. */
static GPtrArray *
capture_paths (void)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *own = g_test_build_filename (G_TEST_DIST, "captures", "nmea", NULL);
  g_autofree char *shared = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "..", "shared",
                                              "captures", "nmea", NULL);
  const char *dirs[] = { own, shared };
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr (GDir) dir = g_dir_open (dirs[d], 0, NULL);
      g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      if (dir == NULL)
        continue;
      while ((name = g_dir_read_name (dir)) != NULL)
        if (g_str_has_suffix (name, ".log") && !g_hash_table_contains (seen, name))
          {
            g_hash_table_add (seen, g_strdup (name));
            g_ptr_array_add (names, g_strdup (name));
          }
      g_ptr_array_sort (names, compare_names);
      for (guint i = 0; i < names->len; i++)
        g_ptr_array_add (paths, g_build_filename (dirs[d], names->pdata[i], NULL));
    }
  return paths;
}

static void
test_chk (void)
{
  g_autoptr (GPtrArray) paths = capture_paths ();
  const NbDriver *driver = nb_driver_find ("nmea");
  guint total_checked = 0, files = 0;

  g_assert_nonnull (driver);
  g_assert_cmpuint (paths->len, >=, 5);
  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *chk_path = g_strconcat (paths->pdata[i], ".chk", NULL);
      g_autofree char *text = NULL;
      g_auto (GStrv) lines = NULL;
      Current cur = { 0 };
      NbSink sink = { on_sample, on_note, &cur };
      gpointer ctx;
      guint checked = 0;

      g_assert_true (g_file_get_contents (chk_path, &text, NULL, NULL));
      lines = g_strsplit (text, "\n", -1);
      ctx = driver->open (NULL);
      g_assert_true (driver->start (ctx, NULL));
      for (guint k = 0; lines[k] != NULL; k++)
        {
          const char *line = lines[k];

          if (line[0] == '{')
            {
              g_autoptr (JsonParser) parser = json_parser_new ();
              g_autoptr (GError) error = NULL;
              JsonObject *o;

              g_assert_true (json_parser_load_from_data (parser, line, -1, &error));
              g_assert_no_error (error);
              o = json_node_get_object (json_parser_get_root (parser));
              if (!g_str_equal (json_object_get_string_member (o, "class"), "TPV") ||
                  !json_object_has_member (o, "lat"))
                continue;
              if (!cur.have)
                g_error ("%s:%u: gpsd reports a fix, navbench has none", chk_path, k + 1);
              /* gpsd prints 9 decimals: 1e-9 ° covers its rounding (5e-10). */
              if (fabs (cur.lat - json_object_get_double_member (o, "lat")) > 1e-9 ||
                  fabs (cur.lon - json_object_get_double_member (o, "lon")) > 1e-9)
                g_error ("%s:%u: navbench %.10f %.10f, gpsd %s", chk_path, k + 1, cur.lat,
                         cur.lon, line);
              checked++;
            }
          else if (line[0] != '\0')
            {
              g_autofree char *with_eol = g_strconcat (line, "\r\n", NULL);

              driver->feed (ctx, (const guint8 *) with_eol, strlen (with_eol), &sink);
            }
        }
      driver->close (ctx);
      g_test_message ("%s: %u gpsd fixes agree, %u samples, %u decode notes", chk_path, checked,
                      cur.samples, cur.notes);
      total_checked += checked;
      files++;
    }
  /* The five captures in the repository alone hold 250 gpsd fixes. */
  g_assert_cmpuint (total_checked, >=, 250);
}

typedef struct {
  GArray *samples;
  guint notes;
} Decoded;

static void
collect_sample (const NbSample *s, gpointer user_data)
{
  g_array_append_val (((Decoded *) user_data)->samples, *s);
}

static void
collect_note (const char *message, gpointer user_data)
{
  ((Decoded *) user_data)->notes++;
}

/* Decodes a whole byte string through the driver, chunk bytes at a time. */
static Decoded
decode (const guint8 *data, gsize len, gsize chunk)
{
  const NbDriver *driver = nb_driver_find ("nmea");
  Decoded d = { g_array_new (FALSE, FALSE, sizeof (NbSample)), 0 };
  NbSink sink = { collect_sample, collect_note, &d };
  gpointer ctx = driver->open (NULL);

  g_assert_true (driver->configure (ctx, "origin", "41.5,-93.7,250", NULL));
  g_assert_true (driver->start (ctx, NULL));
  for (gsize off = 0; off < len; off += chunk)
    driver->feed (ctx, data + off, MIN (chunk, len - off), &sink);
  driver->close (ctx);
  return d;
}

static void
assert_same_samples (const Decoded *a, const Decoded *b, const char *what)
{
  if (a->samples->len != b->samples->len)
    g_error ("%s: %u samples, expected %u", what, b->samples->len, a->samples->len);
  for (guint i = 0; i < a->samples->len; i++)
    {
      const NbSample *x = &g_array_index (a->samples, NbSample, i);
      const NbSample *y = &g_array_index (b->samples, NbSample, i);

      g_assert_cmpfloat (x->lat_deg, ==, y->lat_deg);
      g_assert_cmpfloat (x->lon_deg, ==, y->lon_deg);
      g_assert_cmpfloat (x->x_m, ==, y->x_m);
      g_assert_cmpstr (x->tag, ==, y->tag);
    }
}

/* Byte-by-byte feeding and binary garbage between sentences change nothing:
 * the lexer resynchronises on the next '$'. */
static void
test_resync (void)
{
  g_autoptr (GPtrArray) paths = capture_paths ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (18646);

  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *text = NULL;
      gsize len;
      g_autoptr (GByteArray) noisy = g_byte_array_new ();
      Decoded clean, bytewise, garbled;

      g_assert_true (g_file_get_contents (paths->pdata[i], &text, &len, NULL));
      clean = decode ((const guint8 *) text, len, len);
      bytewise = decode ((const guint8 *) text, len, 1);
      assert_same_samples (&clean, &bytewise, "byte by byte");
      g_assert_cmpuint (clean.notes, ==, bytewise.notes);

      /* After every line feed, up to 40 random bytes that are not line ends
       * (binary, NULs, stray '$' starts).  A '#' first on a line makes the
       * line a comment by design (capture headers), so none comes first. */
      for (gsize k = 0; k < len; k++)
        {
          g_byte_array_append (noisy, (const guint8 *) text + k, 1);
          if (text[k] == '\n')
            for (int n = g_rand_int_range (rand, 0, 40), first = 1; n > 0; n--, first = 0)
              {
                guint8 b = (guint8) g_rand_int_range (rand, 0, 256);

                if (b != '\n' && b != '\r' && !(first && b == '#'))
                  g_byte_array_append (noisy, &b, 1);
              }
        }
      garbled = decode (noisy->data, noisy->len, 7);
      assert_same_samples (&clean, &garbled, paths->pdata[i]);
      g_test_message ("%s: %u samples survive garbage", (char *) paths->pdata[i],
                      clean.samples->len);
      g_array_unref (clean.samples);
      g_array_unref (bytewise.samples);
      g_array_unref (garbled.samples);
    }
}

/* Random corruption (flipped bytes, cut sentences) never crashes, and a
 * corrupted sentence never yields a sample unless its checksum still holds. */
static void
test_corruption (void)
{
  g_autoptr (GPtrArray) paths = capture_paths ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (60636);

  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *text = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (paths->pdata[i], &text, &len, NULL));
      for (int round = 0; round < 20; round++)
        {
          g_autofree guint8 *copy = g_memdup2 (text, len);
          Decoded d;

          for (int n = 0; n < 50 && len > 0; n++)
            copy[g_rand_int_range (rand, 0, (gint32) len)] = (guint8) g_rand_int_range (rand, 0, 256);
          d = decode (copy, len, (gsize) g_rand_int_range (rand, 1, 4096));
          for (guint k = 0; k < d.samples->len; k++)
            {
              const NbSample *s = &g_array_index (d.samples, NbSample, k);

              g_assert_true (fabs (s->lat_deg) <= 90.0 && fabs (s->lon_deg) <= 180.0);
            }
          g_array_unref (d.samples);
        }
    }
}

/* ------------------------------------------------ expected outputs -- */

static JsonNode *
parse_line (const char *line)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  if (!json_parser_load_from_data (parser, line, -1, &error))
    g_error ("not JSON: %s: %s", line, error->message);
  return json_node_copy (json_parser_get_root (parser));
}

/* Same members, same strings, numbers within 1e-9 (nanometres, nanodegrees:
 * libm may differ in the last bit between machines). */
static void
assert_json_close (JsonNode *expected, JsonNode *actual, const char *where)
{
  JsonObject *e = json_node_get_object (expected), *a = json_node_get_object (actual);
  g_autoptr (GList) members = json_object_get_members (e);

  g_assert_cmpuint (json_object_get_size (e), ==, json_object_get_size (a));
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *en = json_object_get_member (e, l->data), *an = json_object_get_member (a, l->data);

      if (an == NULL)
        g_error ("%s: member %s missing", where, (char *) l->data);
      if (JSON_NODE_HOLDS_ARRAY (en))
        {
          JsonArray *ea = json_node_get_array (en), *aa = json_node_get_array (an);

          g_assert_cmpuint (json_array_get_length (ea), ==, json_array_get_length (aa));
          for (guint k = 0; k < json_array_get_length (ea); k++)
            nb_assert_abs (json_array_get_double_element (aa, k),
                           json_array_get_double_element (ea, k), 1e-9, where);
        }
      else if (JSON_NODE_HOLDS_NULL (en))
        g_assert_true (JSON_NODE_HOLDS_NULL (an));
      else if (json_node_get_value_type (en) == G_TYPE_STRING)
        g_assert_cmpstr (json_node_get_string (an), ==, json_node_get_string (en));
      else
        nb_assert_abs (json_node_get_double (an), json_node_get_double (en), 1e-9, where);
    }
}

static void
check_expected (const char *driver, const char *capture, const char *const *extra)
{
  g_autofree char *expected_path = g_strconcat (capture, ".nb.jsonl", NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) got = NULL, want = NULL;
  int status;

  g_ptr_array_add (argv, (gpointer) g_getenv ("NAVBENCH_CLI"));
  g_ptr_array_add (argv, "replay");
  g_ptr_array_add (argv, "--driver");
  g_ptr_array_add (argv, (gpointer) driver);
  g_ptr_array_add (argv, "--capture");
  g_ptr_array_add (argv, (gpointer) capture);
  g_ptr_array_add (argv, "--json");
  g_ptr_array_add (argv, "--quiet");
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) extra[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  if (WEXITSTATUS (status) != 0)
    g_error ("replay %s: exit %d: %s", capture, WEXITSTATUS (status), err);
  expected = nb_test_expected_text (expected_path, out);
  got = g_strsplit (out, "\n", -1);
  want = g_strsplit (expected, "\n", -1);
  g_assert_cmpuint (g_strv_length (got), ==, g_strv_length (want));
  for (guint i = 0; want[i] != NULL; i++)
    {
      g_autofree char *where = g_strdup_printf ("%s:%u", expected_path, i + 1);
      g_autoptr (JsonNode) e = NULL, a = NULL;

      if (want[i][0] == '\0')
        {
          g_assert_cmpstr (got[i], ==, "");
          continue;
        }
      e = parse_line (want[i]);
      a = parse_line (got[i]);
      assert_json_close (e, a, where);
    }
}

/* "$BODY*hh\r\n" */
static void
append_sentence (GString *out, const char *body)
{
  guint8 sum = 0;

  for (const char *p = body; *p; p++)
    sum ^= (guint8) *p;
  g_string_append_printf (out, "$%s*%02X\r\n", body, sum);
}

/* The bits of a JSON number as the CLI wrote it (null: NaN). */
static double
json_number (JsonObject *o, const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  g_assert_nonnull (n);
  return JSON_NODE_HOLDS_NULL (n) ? NAN : json_node_get_double (n);
}

static void
assert_same_double (double expected, double got, const char *what, guint line)
{
  if (!(isnan (expected) && isnan (got)) && memcmp (&expected, &got, sizeof got) != 0)
    g_error ("line %u: %s %.17g, the driver's %.17g", line, what, got, expected);
}

/* replay --json writes a line whose sample equals the last one's after the
 * tag as the last line's tail (the sentences of one epoch): sentences that
 * differ from the one before in one field of the output each (hdop,
 * satellites, the fix, altitude, position, time, a heading, the talker),
 * and repeats, each line checked against the driver's own sample read in
 * this process: every number bit for bit (the CLI's shortest round trip
 * reads back to the same double), the names, the counts. */
static void
test_json_repeats (void)
{
  const char *bodies[] = {
    "GNGGA,120000.00,4130.00000000,N,09342.00000000,W,4,12,0.6,250.000,M,-32.100,M,1.0,0000",
    "GNRMC,120000.00,A,4130.00000000,N,09342.00000000,W,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.00,A,4130.00000000,N,09342.00000000,W,0.031,45.0,300625,,,R,V",
    "GNGGA,120000.00,4130.00000000,N,09342.00000000,W,4,12,0.7,250.000,M,-32.100,M,1.0,0000",
    "GNGGA,120000.00,4130.00000000,N,09342.00000000,W,4,13,0.7,250.000,M,-32.100,M,1.0,0000",
    "GNGGA,120000.00,4130.00000000,N,09342.00000000,W,5,13,0.7,250.000,M,-32.100,M,1.0,0000",
    "GNGGA,120000.00,4130.00000000,N,09342.00000000,W,5,13,0.7,250.001,M,-32.100,M,1.0,0000",
    "GPGGA,120000.00,4130.00000000,N,09342.00000000,W,5,13,0.7,250.001,M,-32.100,M,1.0,0000",
    "GNGGA,120000.00,4130.00000001,N,09342.00000000,W,5,13,0.7,250.001,M,-32.100,M,1.0,0000",
    "GNGGA,120000.00,4130.00000001,S,09342.00000000,W,5,13,0.7,250.001,M,-32.100,M,1.0,0000",
    "GNGGA,120000.00,4130.00000001,S,09342.00000000,E,5,13,0.7,250.001,M,-32.100,M,1.0,0000",
    "GNGGA,120000.10,4130.00000001,S,09342.00000000,E,5,13,0.7,250.001,M,-32.100,M,1.0,0000",
    "GNRMC,120000.10,A,4130.00000001,S,09342.00000000,E,0.031,45.0,300625,,,R,V",
    "GPHDT,274.07,T",
    "GNRMC,120000.10,A,4130.00000001,S,09342.00000000,E,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.1,A,4130.00000001,S,09342.00000000,E,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.10,A,4130.000000010,S,09342.0000000,E,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.10,A,4130.0000000100000000,S,09342.00000000000000000,E,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.10,A,4130.0000000100000001,S,09342.00000000000000000,E,0.031,45.0,300625,,,R,V",
    "GNGGA,120000.10,4130.00000001,S,09342.00000000,E,0,13,0.7,250.001,M,-32.100,M,1.0,0000",
    "GNGGA,120000.20,4130.00000001,S,09342.00000000,E,1,13,0.7,250.001,M,-32.100,M,1.0,0000",
    "GNGGA,120000.20,4130.00000001,S,09342.00000000,E,1,13,0.7,250.001,M,-32.100,M,1.0,0000",
  };
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *dir = g_dir_make_tmp ("nb-replay-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "repeats.log", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  const char *argv[] = { g_getenv ("NAVBENCH_CLI"), "replay", "--driver", "nmea", "--capture",
                         path, "--json", "--set", "origin=41.5,-93.7,250", NULL };
  Decoded d;
  guint n_lines;
  int status;

  for (int pass = 0; pass < 40; pass++)   /* more than one output buffer's flush */
    for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
      append_sentence (text, bodies[i]);
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
  d = decode ((const guint8 *) text->str, text->len, text->len);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  lines = g_strsplit (out, "\n", -1);
  n_lines = g_strv_length (lines) - 1;
  g_assert_cmpstr (lines[n_lines], ==, "");
  /* every fix emitted: the quality-0 GGA and the HDT are none */
  g_assert_cmpuint (d.samples->len, ==, 40 * (G_N_ELEMENTS (bodies) - 2));
  g_assert_cmpuint (n_lines, ==, d.samples->len);
  for (guint i = 0; i < n_lines; i++)
    {
      const NbSample *s = &g_array_index (d.samples, NbSample, i);
      g_autoptr (JsonNode) node = parse_line (lines[i]);
      JsonObject *o = json_node_get_object (node);

      g_assert_cmpstr (json_object_get_string_member (o, "tag"), ==, s->tag);
      assert_same_double (s->device_time_s, json_number (o, "t"), "t", i + 1);
      assert_same_double (s->device_time_s, json_number (o, "device_time"), "device_time", i + 1);
      assert_same_double (s->x_m, json_number (o, "x"), "x", i + 1);
      assert_same_double (s->y_m, json_number (o, "y"), "y", i + 1);
      assert_same_double (s->z_m, json_number (o, "z"), "z", i + 1);
      assert_same_double (s->lat_deg, json_number (o, "lat"), "lat", i + 1);
      assert_same_double (s->lon_deg, json_number (o, "lon"), "lon", i + 1);
      assert_same_double (s->alt_m, json_number (o, "alt"), "alt", i + 1);
      assert_same_double (s->hdop, json_number (o, "hdop"), "hdop", i + 1);
      g_assert_cmpint (json_object_has_member (o, "heading"), ==, isfinite (s->heading_deg));
      if (isfinite (s->heading_deg))
        assert_same_double (s->heading_deg, json_number (o, "heading"), "heading", i + 1);
      g_assert_cmpint (json_object_get_int_member (o, "satellites"), ==, s->satellites);
      g_assert_cmpstr (json_object_get_string_member (o, "fix"), ==, nb_fix_type_name (s->fix));
      g_assert_cmpstr (json_object_get_string_member (o, "tracking"), ==,
                       nb_tracking_name (s->tracking));
    }
  g_array_unref (d.samples);
  g_remove (path);
  g_rmdir (dir);
}

/* Every capture of every driver against its expected output. */
static void
test_expected (void)
{
  static const struct { const char *driver, *suffix; guint min; } kinds[] = {
    { "nmea", ".log", 5 }, { "natnet", ".cap", 2 }, { "geocom", ".log", 1 },
  };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "captures", kinds[k].driver, NULL);
      g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
      const char *name;
      guint n = 0;

      g_assert_nonnull (d);
      while ((name = g_dir_read_name (d)) != NULL)
        if (g_str_has_suffix (name, kinds[k].suffix))
          {
            g_autofree char *path = g_build_filename (dir, name, NULL);

            check_expected (kinds[k].driver, path, NULL);
            n++;
          }
      g_assert_cmpuint (n, >=, kinds[k].min);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nmea/replay/gpsd-chk", test_chk);
  g_test_add_func ("/nmea/replay/resync", test_resync);
  g_test_add_func ("/nmea/replay/corruption", test_corruption);
  g_test_add_func ("/replay/expected-all-drivers", test_expected);
  g_test_add_func ("/replay/json-repeats", test_json_repeats);
  return g_test_run ();
}
