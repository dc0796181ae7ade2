/* gpsd's "# Delay-Cookie: C D" captures, replayed as gpsfake replays them
 * (gpsfake/gps/fake.py, TestLoad and FakeGPS.feed): the capture after its
 * header comments is cut at every C, each piece is one write, and D seconds
 * pass after each.
 *
 * The capture is made here from a recorded one (tests/captures/nmea/
 * nmea-rtk.log, gpsd's regression log): its sentences with a cookie after
 * every third one and others cutting sentences in two, so a driver that
 * does not join a sentence across writes loses fixes.
 *   /delay-cookie/pieces   the file transport hands out exactly the pieces,
 *                          in order, no read spanning two, the header not at
 *                          all; the pieces start at least D apart (a lower
 *                          bound only: nothing here is timed)
 *   /delay-cookie/replay   navbench-cli replay --json of it = the replay of
 *                          the same bytes without cookies
 *   /delay-cookie/plain    a file with a header and no cookie reads back
 *                          byte for byte, the header included
 *   /delay-cookie/bad      a bad cookie line: exit 2, FILE:LINE, no output
 *   /delay-cookie/percent-delay
 *                          gpsfake's "%Delay: N" at a piece's start (FakeGPS.feed
 *                          sleeps N s before that piece): the transport hands
 *                          out the same pieces without the directive's line, that
 *                          piece starts at least 1 s after the one before (a lower
 *                          bound only), the replay is the same; in a capture
 *                          without a cookie the line is noise the driver skips
 *   /delay-cookie/percent-delay-bad
 *                          "%Delay: x": exit 2, FILE:LINE of the directive
 *   /delay-cookie/gpsd-tcp-torture
 *                          gpsd's own regression log with a Delay-Cookie
 *                          (test/daemon/tcp-torture.log: cookies inside a GGA,
 *                          "$GPGGA,|19322|1.00,|2037.|72792,N,…"): the pieces
 *                          are gpsfake's text[commentlen:].split('|'); the
 *                          replay gives gpsd's two fixes (X.log.chk), the GGA
 *                          joined across four writes, values checked; without
 *                          the cookie line the '|' stay in the GGA, whose
 *                          checksum then fails: one fix
 */
#include "nb-test.h"

#include "nb-transport.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#define DELAY_S 0.01

typedef struct {
  char *dir;
  char *plain;      /* the sentences, no header */
  char *cookied;    /* the same with a header and cookies */
  GPtrArray *pieces;
} Fixture;

static char *
data_lines (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "captures", "nmea", "nmea-rtk.log",
                                                 NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GString *out = g_string_new (NULL);
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL && n < 60; i++)
    if (lines[i][0] == '$')
      {
        g_string_append_printf (out, "%s\n", lines[i]);
        n++;
      }
  g_assert_cmpuint (n, ==, 60);
  return g_string_free (out, FALSE);
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autofree char *lines = data_lines ();
  g_autofree char *plain_text = NULL;
  GString *cookied = g_string_new ("# Name: nmea-rtk.log, the first 60 sentences\n"
                                   "# Delay-Cookie: | 0.01\n"
                                   "# a comment after it\n");
  const char *p = lines;
  guint k = 0;

  f->dir = g_dir_make_tmp ("nb-delay-cookie-XXXXXX", NULL);
  f->pieces = g_ptr_array_new_with_free_func (g_free);
  /* a piece of three sentences, then one cut in the middle of the fourth */
  while (*p != '\0')
    {
      const char *end = p;
      gsize len;

      for (int s = 0; s < 3 && *end != '\0'; s++)
        end = strchr (end, '\n') + 1;
      if (k % 2 == 1 && *end != '\0')
        end += 7;                               /* "$GPGGA," and the rest later */
      len = (gsize) (end - p);
      g_ptr_array_add (f->pieces, g_strndup (p, len));
      g_string_append_len (cookied, p, (gssize) len);
      p = end;
      if (*p != '\0')
        g_string_append_c (cookied, '|');
      k++;
    }
  f->plain = g_build_filename (f->dir, "plain.log", NULL);
  f->cookied = g_build_filename (f->dir, "cookie.log", NULL);
  nb_test_write_file (f->plain, lines);
  nb_test_write_file (f->cookied, cookied->str);
  g_string_free (cookied, TRUE);
  g_assert_cmpuint (f->pieces->len, ==, 20);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  nb_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->plain);
  g_free (f->cookied);
  g_ptr_array_unref (f->pieces);
}

static NbTransport *
open_file (const char *path)
{
  NbTransportOptions o;
  g_autoptr (GError) error = NULL;
  g_autofree char *url = g_strconcat ("file:", path, NULL);
  NbTransport *t;

  nb_transport_options_init (&o);
  o.url = url;
  t = nb_transport_open (&o, &error);
  g_assert_no_error (error);
  return t;
}

static void
test_pieces (Fixture *f, gconstpointer data)
{
  NbTransport *t = open_file (f->cookied);
  guint piece = 0;
  gsize offset = 0;
  gint64 first = 0, last_start = 0, min_gap = G_MAXINT64;
  guint8 buf[100];   /* smaller than a piece: a piece takes several reads */

  while (!nb_transport_at_end (t))
    {
      g_autoptr (GError) error = NULL;
      gssize n = nb_transport_read (t, buf, sizeof buf, 50, &error);
      const char *want;

      g_assert_no_error (error);
      g_assert_cmpint (n, >=, 0);
      if (n == 0)
        continue;
      g_assert_cmpuint (piece, <, f->pieces->len);
      want = f->pieces->pdata[piece];
      if (offset == 0)
        {
          gint64 now = g_get_monotonic_time ();

          if (piece == 0)
            first = now;
          else
            min_gap = MIN (min_gap, now - last_start);
          last_start = now;
        }
      /* within one piece, in order */
      g_assert_cmpuint (offset + (gsize) n, <=, strlen (want));
      g_assert_true (memcmp (buf, want + offset, (gsize) n) == 0);
      offset += (gsize) n;
      if (offset == strlen (want))
        piece++, offset = 0;
    }
  g_assert_cmpuint (piece, ==, f->pieces->len);
  /* D after each piece: no two started closer (the scheduler may only
   * make it longer), and the whole no faster than the delays. */
  g_assert_cmpint (min_gap, >=, (gint64) (DELAY_S * 1e6));
  g_assert_cmpint (last_start - first, >=, (gint64) ((f->pieces->len - 1) * DELAY_S * 1e6));
  nb_transport_close (t);
}

static char *
replay (const char *capture, int *exit_code, char **err)
{
  const char *argv[] = { g_getenv ("NAVBENCH_CLI"), "replay", "--driver", "nmea", "--capture",
                         capture, "--json", "--quiet", NULL };
  g_autoptr (GError) error = NULL;
  char *out = NULL;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, err,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  *exit_code = WEXITSTATUS (status);
  return out;
}

static void
test_replay (Fixture *f, gconstpointer data)
{
  g_autofree char *want = NULL, *got = NULL, *err1 = NULL, *err2 = NULL;
  int code;

  want = replay (f->plain, &code, &err1);
  g_assert_cmpint (code, ==, 0);
  got = replay (f->cookied, &code, &err2);
  g_assert_cmpint (code, ==, 0);
  /* 60 sentences of an RTK rover: fixes in both, the same ones */
  g_assert_nonnull (strstr (want, "\"lat\":41.57"));
  g_assert_cmpstr (got, ==, want);
}

static void
test_plain (Fixture *f, gconstpointer data)
{
  g_autofree char *with_header = g_build_filename (f->dir, "header.log", NULL);
  g_autofree char *lines = data_lines ();
  g_autofree char *text = g_strconcat ("# Name: no cookie\n# Date: 2026-12-01\n", lines, NULL);
  GString *read_back = g_string_new (NULL);
  NbTransport *t;

  nb_test_write_file (with_header, text);
  t = open_file (with_header);
  while (!nb_transport_at_end (t))
    {
      guint8 buf[33];
      gssize n = nb_transport_read (t, buf, sizeof buf, 50, NULL);

      g_assert_cmpint (n, >=, 0);
      g_string_append_len (read_back, (const char *) buf, n);
    }
  nb_transport_close (t);
  g_assert_cmpstr (read_back->str, ==, text);
  g_string_free (read_back, TRUE);
}

static void
test_bad (Fixture *f, gconstpointer data)
{
  const char *bad[] = { "# Delay-Cookie: |\n", "# Delay-Cookie: | x\n",
                        "# Delay-Cookie: | 0.5 more\n", "# Delay-Cookie: | -1\n" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *path = g_build_filename (f->dir, "bad.log", NULL);
      g_autofree char *text = g_strconcat ("# Name: bad\n", bad[i], "$GPGGA,1\n", NULL);
      g_autofree char *out = NULL, *err = NULL, *where = g_strconcat (path, ":2: ", NULL);
      int code;

      nb_test_write_file (path, text);
      out = replay (path, &code, &err);
      g_assert_cmpint (code, ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, where));
      g_assert_nonnull (strstr (err, "Delay-Cookie"));
    }
}

/* The fixture's pieces joined by cookies, with text before piece k. */
static char *
cookied_with (Fixture *f, guint k, const char *text)
{
  GString *out = g_string_new ("# Name: nmea-rtk.log, the first 60 sentences\n"
                               "# Delay-Cookie: | 0.01\n");

  for (guint i = 0; i < f->pieces->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, '|');
      if (i == k)
        g_string_append (out, text);
      g_string_append (out, f->pieces->pdata[i]);
    }
  return g_string_free (out, FALSE);
}

static void
test_percent_delay (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "percent-delay.log", NULL);
  g_autofree char *text = cookied_with (f, 2, "%Delay: 1\n");
  g_autofree char *no_cookie = g_build_filename (f->dir, "no-cookie.log", NULL);
  g_autofree char *lines = data_lines ();
  g_autofree char *with_line = g_strconcat ("%Delay: 1\n", lines, NULL);
  g_autofree char *want = NULL, *got = NULL, *got_plain = NULL, *e1 = NULL, *e2 = NULL,
                  *e3 = NULL;
  NbTransport *t;
  guint piece = 0;
  gsize offset = 0;
  gint64 start[32] = { 0 };
  int code;

  nb_test_write_file (path, text);
  t = open_file (path);
  while (!nb_transport_at_end (t))
    {
      g_autoptr (GError) error = NULL;
      guint8 buf[100];
      gssize n = nb_transport_read (t, buf, sizeof buf, 50, &error);
      const char *piece_text;

      g_assert_no_error (error);
      g_assert_cmpint (n, >=, 0);
      if (n == 0)
        continue;
      g_assert_cmpuint (piece, <, f->pieces->len);
      piece_text = f->pieces->pdata[piece];
      if (offset == 0)
        start[piece] = g_get_monotonic_time ();
      g_assert_cmpuint (offset + (gsize) n, <=, strlen (piece_text));
      g_assert_true (memcmp (buf, piece_text + offset, (gsize) n) == 0);
      offset += (gsize) n;
      if (offset == strlen (piece_text))
        piece++, offset = 0;
    }
  nb_transport_close (t);
  g_assert_cmpuint (piece, ==, f->pieces->len);
  /* the directive's second, and the cookie's 0.01 s before it */
  g_assert_cmpint (start[2] - start[1], >=, G_USEC_PER_SEC);

  want = replay (f->plain, &code, &e1);
  g_assert_cmpint (code, ==, 0);
  got = replay (path, &code, &e2);
  g_assert_cmpint (code, ==, 0);
  g_assert_cmpstr (got, ==, want);
  /* no cookie: gpsfake's packet reader drops the line as noise, so does
   * the nmea driver's lexer */
  nb_test_write_file (no_cookie, with_line);
  got_plain = replay (no_cookie, &code, &e3);
  g_assert_cmpint (code, ==, 0);
  g_assert_cmpstr (got_plain, ==, want);
}

static void
test_percent_delay_bad (Fixture *f, gconstpointer data)
{
  const char *bad[] = { "%Delay: x\n", "%Delay:\n", "%Delay: 1.5\n", "%Delay: 99999\n",
                        "\n%Delay: 2 s\n" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *path = g_build_filename (f->dir, "percent-delay-bad.log", NULL);
      g_autofree char *text = cookied_with (f, 1, bad[i]);
      g_autofree char *out = NULL, *err = NULL, *where = NULL;
      const char *at = strstr (text, "%Delay");
      guint line = 1;
      int code;

      for (const char *p = text; p < at; p++)
        line += *p == '\n';
      where = g_strdup_printf ("%s:%u: bad %%Delay line", path, line);
      nb_test_write_file (path, text);
      out = replay (path, &code, &err);
      g_assert_cmpint (code, ==, 2);
      if (strstr (err, where) == NULL)
        g_error ("'%s' does not say '%s'", err, where);
    }
}

/* Line i (0-based) of replay --json output as an object; NULL past the end. */
static JsonObject *
output_line (char **lines, guint i, JsonParser **parser)
{
  g_autoptr (GError) error = NULL;

  if (i >= g_strv_length (lines) || lines[i][0] == '\0')
    return NULL;
  *parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (*parser, lines[i], -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (*parser));
}

static void
test_gpsd_tcp_torture (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "captures", "nmea",
                                                 "tcp-torture.log", NULL);
  g_autofree char *text = NULL, *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
  g_autofree char *no_cookie = g_build_filename (f->dir, "tcp-torture-no-cookie.log", NULL);
  g_auto (GStrv) pieces = NULL, lines = NULL, lines2 = NULL;
  g_autoptr (JsonParser) p0 = NULL, p1 = NULL, p2 = NULL, p3 = NULL;
  GString *without = g_string_new (NULL);
  gsize comment_len = 0;
  JsonObject *gga, *rmc;
  NbTransport *t;
  guint piece = 0;
  gsize offset = 0;
  int code;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  /* gpsfake (TestLoad): the header is the leading '#' lines; the rest is
   * split at the delimiter, each piece one write */
  while (text[comment_len] == '#')
    comment_len = (gsize) (strchr (text + comment_len, '\n') + 1 - text);
  pieces = g_strsplit (text + comment_len, "|", -1);
  g_assert_cmpuint (g_strv_length (pieces), ==, 5);
  g_assert_cmpstr (pieces[1], ==, "19322");
  t = open_file (path);
  while (!nb_transport_at_end (t))
    {
      g_autoptr (GError) error = NULL;
      guint8 buf[64];
      gssize n = nb_transport_read (t, buf, sizeof buf, 50, &error);

      g_assert_no_error (error);
      g_assert_cmpint (n, >=, 0);
      if (n == 0)
        continue;
      /* a read never spans two pieces, the pieces come in order */
      g_assert_cmpuint (piece, <, g_strv_length (pieces));
      g_assert_cmpuint (offset + (gsize) n, <=, strlen (pieces[piece]));
      g_assert_true (memcmp (buf, pieces[piece] + offset, (gsize) n) == 0);
      offset += (gsize) n;
      if (offset == strlen (pieces[piece]))
        piece++, offset = 0;
    }
  nb_transport_close (t);
  g_assert_cmpuint (piece, ==, 5);

  out = replay (path, &code, &err);
  g_assert_cmpint (code, ==, 0);
  lines = g_strsplit (out, "\n", -1);
  /* gpsd's X.log.chk: a TPV for the GGA, the GSA (the same fix) and the
   * RMC; navbench's samples are the fixes of the GGA and the RMC */
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  gga = output_line (lines, 0, &p0);
  rmc = output_line (lines, 1, &p1);
  g_assert_nonnull (gga);
  g_assert_nonnull (rmc);
  g_assert_cmpstr (json_object_get_string_member (gga, "tag"), ==, "GPGGA");
  /* 2037.72792,N 08704.08478,W: gpsd's 20.628798667, -87.068079667 (9
   * decimals printed) and the exact minutes over 60 */
  nb_assert_abs (json_object_get_double_member (gga, "lat"), 20.628798667, 1e-9, "GGA lat");
  nb_assert_abs (json_object_get_double_member (gga, "lon"), -87.068079667, 1e-9, "GGA lon");
  g_assert_cmpfloat (json_object_get_double_member (gga, "lat"), ==, 20.0 + 37.72792 / 60.0);
  g_assert_cmpfloat (json_object_get_double_member (gga, "lon"), ==, -(87.0 + 4.08478 / 60.0));
  /* altHAE −44.3 = MSL −30.40 + geoid −13.9 */
  nb_assert_abs (json_object_get_double_member (gga, "alt"), -44.3, 1e-9, "GGA alt");
  nb_assert_abs (json_object_get_double_member (gga, "hdop"), 1.7, 1e-12, "GGA hdop");
  g_assert_cmpint (json_object_get_int_member (gga, "satellites"), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (gga, "fix"), ==, "gnss");
  /* before any date: no device time (gpsd reports none either) */
  g_assert_true (json_node_is_null (json_object_get_member (gga, "device_time")));
  g_assert_cmpstr (json_object_get_string_member (rmc, "tag"), ==, "GPRMC");
  nb_assert_abs (json_object_get_double_member (rmc, "lat"), 20.628798333, 1e-9, "RMC lat");
  nb_assert_abs (json_object_get_double_member (rmc, "lon"), -87.068080000, 1e-9, "RMC lon");
  /* 193221.00 on 231207: 2007-12-23T19:32:21Z (gpsd's chk shows another
   * date: its GPS week rollover guess for a 2007 log replayed today) */
  g_assert_cmpfloat (json_object_get_double_member (rmc, "device_time"), ==, 1198438341.0);

  /* The same bytes without the cookie line: the '|' are then data, and the
   * GGA's checksum (which gpsd computed without them) fails. */
  for (const char *l = text; *l != '\0';)
    {
      const char *e = strchr (l, '\n');
      gsize n = e != NULL ? (gsize) (e + 1 - l) : strlen (l);

      if (!g_str_has_prefix (l, "# Delay-Cookie:"))
        g_string_append_len (without, l, (gssize) n);
      l += n;
    }
  nb_test_write_file (no_cookie, without->str);
  g_string_free (without, TRUE);
  out2 = replay (no_cookie, &code, &err2);
  g_assert_cmpint (code, ==, 0);
  lines2 = g_strsplit (out2, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines2), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (output_line (lines2, 0, &p2), "tag"), ==,
                   "GPRMC");
  g_assert_null (output_line (lines2, 1, &p3));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/delay-cookie/pieces", Fixture, NULL, fixture_set_up, test_pieces,
              fixture_tear_down);
  g_test_add ("/delay-cookie/replay", Fixture, NULL, fixture_set_up, test_replay,
              fixture_tear_down);
  g_test_add ("/delay-cookie/plain", Fixture, NULL, fixture_set_up, test_plain,
              fixture_tear_down);
  g_test_add ("/delay-cookie/bad", Fixture, NULL, fixture_set_up, test_bad, fixture_tear_down);
  g_test_add ("/delay-cookie/percent-delay", Fixture, NULL, fixture_set_up, test_percent_delay,
              fixture_tear_down);
  g_test_add ("/delay-cookie/percent-delay-bad", Fixture, NULL, fixture_set_up,
              test_percent_delay_bad, fixture_tear_down);
  g_test_add ("/delay-cookie/gpsd-tcp-torture", Fixture, NULL, fixture_set_up,
              test_gpsd_tcp_torture, fixture_tear_down);
  return g_test_run ();
}
