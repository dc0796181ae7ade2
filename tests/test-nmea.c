/* The NMEA parser and lexer, and the WGS-84 → local plane conversion.
 *
 * Parser values are worked by hand from the sentences; the geodesy is
 * checked against an independent 40-digit computation (mpmath, rotation
 * built as Rz·Ry, see the numbers' comments) and against Vincenty's
 * inverse geodesic written here from Vincenty (1975), Survey Review 23.
 */
#include "nb-test.h"

#include "nb-driver.h"
#include "nb-error.h"
#include "nb-geodesy.h"
#include "nb-sample.h"
#include "nmea-protocol.h"

#include <string.h>

/* "$BODY*hh" with the right checksum. */
static char *
sentence (const char *body)
{
  guint8 sum = 0;

  for (const char *p = body; *p; p++)
    sum ^= (guint8) *p;
  return g_strdup_printf ("$%s*%02X", body, sum);
}

static NbNmeaFix
parse_ok (const char *body)
{
  g_autofree char *s = sentence (body);
  g_autoptr (GError) error = NULL;
  NbNmeaFix f;

  if (!nb_nmea_parse (s, strlen (s), &f, &error))
    g_error ("%s: %s", s, error->message);
  return f;
}

static void
parse_fails (const char *text, const char *fragment)
{
  g_autoptr (GError) error = NULL;
  NbNmeaFix f;

  g_assert_false (nb_nmea_parse (text, strlen (text), &f, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  if (strstr (error->message, fragment) == NULL)
    g_error ("%s: error '%s' lacks '%s'", text, error->message, fragment);
  g_assert_cmpuint (f.has, ==, 0);
}

static void
test_checksum (void)
{
  /* A real Trimble sentence with its own checksum (nmea-rtk.log). */
  const char *gga = "$GNGGA,132819.60,4134.49795459,N,09345.03431408,W,2,10,0.9,278.161,M,"
                    "-31.442,M,6.6,0133*6A\r\n";
  g_autofree char *bad = g_strdup (gga);
  NbNmeaFix f;

  g_assert_true (nb_nmea_parse (gga, strlen (gga), &f, NULL));
  bad[strlen (bad) - 3] = 'B';   /* *6B */
  parse_fails (bad, "does not match computed 6A");
  parse_fails ("$GPGGA,1,2,3", "no checksum");
  parse_fails ("GPGGA,1,2,3*00", "no leading '$'");
  parse_fails ("$GPHDT,1.0,T*ZZ", "not hexadecimal");
  parse_fails ("$GPHDT,1.0\x01,T*00", "invalid character 0x01");
  parse_fails ("$G*00", "not an NMEA sentence");
}

static void
test_gga (void)
{
  NbNmeaFix f = parse_ok ("GNGGA,132819.60,4134.49795459,N,09345.03431408,W,4,19,0.7,280.827,M,"
                          "-31.442,M,6.0,0002");

  g_assert_cmpint (f.sentence, ==, NB_NMEA_GGA);
  g_assert_cmpstr (f.talker, ==, "GN");
  /* 41° 34.49795459' = 41 + 34.49795459/60 */
  nb_assert_abs (f.lat_deg, 41.0 + 34.49795459 / 60.0, 1e-13, "lat");
  nb_assert_abs (f.lon_deg, -(93.0 + 45.03431408 / 60.0), 1e-13, "lon");
  nb_assert_abs (f.time_s, 13 * 3600 + 28 * 60 + 19.6, 1e-9, "time");
  g_assert_cmpint (f.quality, ==, 4);
  g_assert_cmpint (nb_nmea_quality_to_fix (f.quality), ==, NB_FIX_RTK_FIXED);
  g_assert_cmpint (f.satellites, ==, 19);
  nb_assert_abs (f.hdop, 0.7, 1e-15, "hdop");
  nb_assert_abs (f.alt_msl_m, 280.827, 1e-12, "alt");
  nb_assert_abs (f.geoid_sep_m, -31.442, 1e-12, "sep");
  g_assert_true (f.has & NB_NMEA_HAS_POSITION);

  f = parse_ok ("GPGGA,000001,4500.0000,S,00030.0000,E,5,07,1.1,10,M,,M,,");
  g_assert_cmpint (nb_nmea_quality_to_fix (f.quality), ==, NB_FIX_RTK_FLOAT);
  nb_assert_abs (f.lat_deg, -45.0, 0, "south");
  nb_assert_abs (f.lon_deg, 0.5, 0, "east");
  g_assert_false (f.has & NB_NMEA_HAS_GEOID);

  /* Quality 0: the sentence parses, but there is no position. */
  f = parse_ok ("GPGGA,053229.438,,,,,0,00,,,M,0.0,M,,0000");
  g_assert_false (f.has & NB_NMEA_HAS_POSITION);
  f = parse_ok ("GPGGA,053229.438,4500.00,N,00100.00,E,0,00,,,M,0.0,M,,0000");
  g_assert_false (f.has & NB_NMEA_HAS_POSITION);

  /* Talkers: GP GN GL GA GB BD all decode the same. */
  for (guint i = 0; i < 6; i++)
    {
      static const char *const talkers[] = { "GP", "GN", "GL", "GA", "GB", "BD" };
      g_autofree char *body = g_strdup_printf ("%sGGA,120000,0100.000,N,00200.000,W,1,5,1,1,M,1,M,,",
                                               talkers[i]);

      f = parse_ok (body);
      g_assert_cmpstr (f.talker, ==, talkers[i]);
      nb_assert_abs (f.lat_deg, 1.0, 1e-15, "lat");
      nb_assert_abs (f.lon_deg, -2.0, 1e-15, "lon");
    }

  {
    g_autofree char *s1 = sentence ("GPGGA,120000,9100.000,N,00200.000,W,1,5,1,1,M,1,M,,");
    g_autofree char *s2 = sentence ("GPGGA,120000,4560.000,N,00200.000,W,1,5,1,1,M,1,M,,");
    g_autofree char *s3 = sentence ("GPGGA,120000,4500.000,X,00200.000,W,1,5,1,1,M,1,M,,");
    g_autofree char *s4 = sentence ("GPGGA,250000,4500.000,N,00200.000,W,1,5,1,1,M,1,M,,");
    g_autofree char *s5 = sentence ("GPGGA,120000,4500.000,N,00200.000,W,9,5,1,1,M,1,M,,");
    g_autofree char *s6 = sentence ("GPGGA,120000,4500.000,N,,W,1,5,1,1,M,1,M,,");
    g_autofree char *s7 = sentence ("GPGGA,120000,4500.000,N,00200.000,W,1,5,1e3,1,M,1,M,,");

    parse_fails (s1, "GGA field 2: not a latitude");
    parse_fails (s2, "not a latitude");
    parse_fails (s3, "not a latitude");
    parse_fails (s4, "GGA field 1: not a time");
    parse_fails (s5, "quality beyond 8");
    parse_fails (s6, "incomplete position");
    parse_fails (s7, "GGA field 8: not a number");
  }
}

static void
test_rmc_gll_gns (void)
{
  NbNmeaFix f = parse_ok ("GNRMC,003956.00,A,4552.65403,S,17030.00668,E,0.025,12.5,120419,,,A,V");

  g_assert_cmpint (f.sentence, ==, NB_NMEA_RMC);
  nb_assert_abs (f.lat_deg, -(45.0 + 52.65403 / 60.0), 1e-13, "lat");
  nb_assert_abs (f.lon_deg, 170.0 + 30.00668 / 60.0, 1e-13, "lon");
  g_assert_cmpint (f.year, ==, 2019);
  g_assert_cmpint (f.month, ==, 4);
  g_assert_cmpint (f.day, ==, 12);
  nb_assert_abs (f.speed_mps, 0.025 * 1852.0 / 3600.0, 1e-15, "knots");
  nb_assert_abs (f.course_deg, 12.5, 0, "course");
  g_assert_cmpint (f.quality, ==, 1);
  g_assert_true (f.has & NB_NMEA_HAS_POSITION);

  /* RTK modes in RMC: R fixed, F float. */
  f = parse_ok ("GNRMC,003956.00,A,4552.65403,S,17030.00668,E,0.025,,120419,,,R");
  g_assert_cmpint (nb_nmea_quality_to_fix (f.quality), ==, NB_FIX_RTK_FIXED);
  f = parse_ok ("GNRMC,003956.00,A,4552.65403,S,17030.00668,E,0.025,,120419,,,F");
  g_assert_cmpint (nb_nmea_quality_to_fix (f.quality), ==, NB_FIX_RTK_FLOAT);
  /* Status V: no position. */
  f = parse_ok ("GPRMC,225308,V,4527.458,S,16709.165,E,000.0,094.5,060601,024.1,E");
  g_assert_false (f.has & NB_NMEA_HAS_POSITION);

  f = parse_ok ("GNGLL,4552.65403,S,17030.00668,E,003956.00,A,D");
  g_assert_cmpint (f.sentence, ==, NB_NMEA_GLL);
  g_assert_cmpint (nb_nmea_quality_to_fix (f.quality), ==, NB_FIX_DGNSS);
  nb_assert_abs (f.time_s, 39 * 60 + 56.0, 1e-12, "gll time");
  g_assert_true (f.has & NB_NMEA_HAS_POSITION);
  f = parse_ok ("GNGLL,4552.65403,S,17030.00668,E,003956.00,A,N");
  g_assert_false (f.has & NB_NMEA_HAS_POSITION);

  /* GNS: one mode letter per constellation (GPS RTK fixed, GLONASS float). */
  f = parse_ok ("GNGNS,112257.00,3844.24011,N,00908.43828,W,RF,15,0.9,130.2,50.5,,");
  g_assert_cmpint (f.sentence, ==, NB_NMEA_GNS);
  g_assert_cmpint (nb_nmea_quality_to_fix (f.quality), ==, NB_FIX_RTK_FIXED);
  g_assert_cmpint (f.satellites, ==, 15);
  nb_assert_abs (f.alt_msl_m, 130.2, 1e-13, "gns alt");
  nb_assert_abs (f.geoid_sep_m, 50.5, 1e-13, "gns sep");
  f = parse_ok ("GNGNS,053229.438,,,,,NNNN,00,,,0.0,,0000");
  g_assert_false (f.has & NB_NMEA_HAS_POSITION);
}

static void
test_quality_sentences (void)
{
  NbNmeaFix f = parse_ok ("GNGST,132819.60,0.75,0.012,0.008,38.5,0.011,0.009,0.021");

  g_assert_cmpint (f.sentence, ==, NB_NMEA_GST);
  g_assert_true (f.has & NB_NMEA_HAS_GST);
  nb_assert_abs (f.gst_rms_m, 0.75, 0, "rms");
  nb_assert_abs (f.gst_major_m, 0.012, 0, "major");
  nb_assert_abs (f.gst_minor_m, 0.008, 0, "minor");
  nb_assert_abs (f.gst_orient_deg, 38.5, 0, "orient");
  nb_assert_abs (f.gst_lat_m, 0.011, 0, "lat sigma");
  nb_assert_abs (f.gst_lon_m, 0.009, 0, "lon sigma");
  nb_assert_abs (f.gst_alt_m, 0.021, 0, "alt sigma");
  f = parse_ok ("GPGST,132819.60,,,,,,,");
  g_assert_false (f.has & NB_NMEA_HAS_GST);

  f = parse_ok ("GNGSA,A,3,01,,,,13,20,22,,,,28,,3.2,2.2,2.1,1");
  g_assert_cmpint (f.sentence, ==, NB_NMEA_GSA);
  g_assert_cmpint (f.fix_mode, ==, 3);
  nb_assert_abs (f.pdop, 3.2, 0, "pdop");
  nb_assert_abs (f.hdop, 2.2, 0, "hdop");
  nb_assert_abs (f.vdop, 2.1, 0, "vdop");
  {
    g_autofree char *s = sentence ("GPGSA,A,4,,,,,,,,,,,,,1,1,1");

    parse_fails (s, "fix mode not 1, 2 or 3");
  }

  f = parse_ok ("GPHDT,274.07,T");
  g_assert_cmpint (f.sentence, ==, NB_NMEA_HDT);
  nb_assert_abs (f.heading_deg, 274.07, 0, "hdt");
  g_assert_true (f.has & NB_NMEA_HAS_HEADING);
  f = parse_ok ("GNTHS,77.52,A");
  g_assert_cmpint (f.sentence, ==, NB_NMEA_THS);
  nb_assert_abs (f.heading_deg, 77.52, 0, "ths");
  g_assert_true (f.has & NB_NMEA_HAS_HEADING);
  f = parse_ok ("GNTHS,77.52,V");
  g_assert_false (f.has & NB_NMEA_HAS_HEADING);
  {
    g_autofree char *s = sentence ("GPHDT,361.5,T");

    parse_fails (s, "heading outside");
  }

  f = parse_ok ("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A");
  g_assert_cmpint (f.sentence, ==, NB_NMEA_VTG);
  nb_assert_abs (f.course_deg, 54.7, 0, "vtg course");
  nb_assert_abs (f.speed_mps, 10.2 / 3.6, 1e-15, "vtg speed");

  f = parse_ok ("GPZDA,201530.00,04,07,2002,00,00");
  g_assert_cmpint (f.sentence, ==, NB_NMEA_ZDA);
  g_assert_cmpint (f.year, ==, 2002);
  g_assert_cmpint (f.month, ==, 7);
  g_assert_cmpint (f.day, ==, 4);
  nb_assert_abs (f.time_s, 20 * 3600 + 15 * 60 + 30.0, 1e-12, "zda time");

  /* Proprietary and unknown sentences are valid and carry nothing. */
  f = parse_ok ("PGRME,15.0,M,45.0,M,25.0,M");
  g_assert_cmpint (f.sentence, ==, NB_NMEA_OTHER);
  g_assert_cmpuint (f.has, ==, 0);
  f = parse_ok ("GPGSV,3,1,11,01,78,221,47");
  g_assert_cmpint (f.sentence, ==, NB_NMEA_OTHER);
}

static void
on_line (const char *line, gsize len, gpointer user_data)
{
  g_ptr_array_add (user_data, g_strndup (line, len));
}

static void
test_lexer (void)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  NbNmeaLexer lexer;
  const char stream[] =
    "# Name: header, with a $GPGGA inside the comment\n"
    "\x00\xff\xb5\x62\x01\x07 binary UBX frame $GPHDT,1.0,T*00\r\n"
    "$GPHDT,2.0,T*00$GPHDT,3.0,T*00\r\n"      /* a cut sentence: the second wins */
    "$GPHDT,4.0\x80,T*00\n"                    /* binary inside: dropped */
    "$GPHDT,5.0,T*00\n";
  char big[600];

  nb_nmea_lexer_init (&lexer);
  nb_nmea_lexer_feed (&lexer, (const guint8 *) stream, sizeof stream - 1, on_line, lines);
  g_assert_cmpuint (lines->len, ==, 3);
  g_assert_cmpstr (lines->pdata[0], ==, "$GPHDT,1.0,T*00");
  g_assert_cmpstr (lines->pdata[1], ==, "$GPHDT,3.0,T*00");
  g_assert_cmpstr (lines->pdata[2], ==, "$GPHDT,5.0,T*00");
  g_assert_cmpuint (lexer.sentence_line, ==, 5);
  g_assert_cmpuint (lexer.skipped, >, 20);

  /* An endless sentence overflows the fixed buffer and is dropped. */
  memset (big, 'A', sizeof big);
  big[0] = '$';
  g_ptr_array_set_size (lines, 0);
  nb_nmea_lexer_init (&lexer);
  nb_nmea_lexer_feed (&lexer, (const guint8 *) big, sizeof big, on_line, lines);
  nb_nmea_lexer_feed (&lexer, (const guint8 *) "\n$GPHDT,6.0,T*00\n", 17, on_line, lines);
  g_assert_cmpuint (lexer.overflows, ==, 1);
  g_assert_cmpuint (lines->len, ==, 1);
  g_assert_cmpstr (lines->pdata[0], ==, "$GPHDT,6.0,T*00");
}

/* ------------------------------------------------------ one pass -- */

/* What a reading of a stream gave, sentence by sentence: the fix's members
 * (doubles by their bits) or the error, and the line it began on. */
static void
describe_fix (GString *out, const NbNmeaFix *f)
{
  const double d[] = { f->time_s, f->lat_deg, f->lon_deg, f->alt_msl_m, f->geoid_sep_m, f->hdop,
                       f->pdop, f->vdop, f->gst_rms_m, f->gst_major_m, f->gst_minor_m,
                       f->gst_orient_deg, f->gst_lat_m, f->gst_lon_m, f->gst_alt_m,
                       f->heading_deg, f->speed_mps, f->course_deg };

  g_string_append_printf (out, "fix %d %.3s %.6s has %x %d-%d-%d q %d v %d sats %d mode %d %d:",
                          (int) f->sentence, f->talker, f->type, f->has, f->year, f->month,
                          f->day, f->quality, f->valid, f->satellites, f->fix_mode, f->mode);
  for (guint i = 0; i < G_N_ELEMENTS (d); i++)
    {
      guint64 bits;

      memcpy (&bits, &d[i], sizeof bits);
      g_string_append_printf (out, " %016" G_GINT64_MODIFIER "x", bits);
    }
}

typedef struct {
  GString *out;
  NbNmeaLexer *lexer;
} Reading;

/* The two-pass reading: the lexer cuts lines, nb_nmea_parse reads them. */
static void
on_line_parsed (const char *line, gsize len, gpointer user_data)
{
  Reading *r = user_data;
  g_autoptr (GError) error = NULL;
  NbNmeaFix f;

  g_string_append_printf (r->out, "line %" G_GUINT64_FORMAT ": ", r->lexer->sentence_line);
  if (nb_nmea_parse (line, len, &f, &error))
    describe_fix (r->out, &f);
  else
    g_string_append_printf (r->out, "error %s", error->message);
  g_string_append_c (r->out, '\n');
}

/* The one-pass reading. */
static void
on_fix_read (const NbNmeaFix *fix, const GError *error, gpointer user_data)
{
  Reading *r = user_data;

  g_string_append_printf (r->out, "line %" G_GUINT64_FORMAT ": ", r->lexer->sentence_line);
  if (fix != NULL)
    {
      g_assert_null (error);
      describe_fix (r->out, fix);
    }
  else
    g_string_append_printf (r->out, "error %s", error->message);
  g_string_append_c (r->out, '\n');
}

/* The stream read both ways, fed in chunks of `chunk` bytes (each chunk
 * copied to a buffer of its own size, so that reading past it is seen by
 * the sanitizers). */
static void
assert_one_pass_same (const char *text, gsize len, gsize chunk, const char *what)
{
  NbNmeaLexer two, one;
  Reading a = { g_string_new (NULL), &two }, b = { g_string_new (NULL), &one };

  nb_nmea_lexer_init (&two);
  nb_nmea_lexer_init (&one);
  for (gsize at = 0; at < len; at += chunk)
    {
      gsize n = MIN (chunk, len - at);
      g_autofree guint8 *piece = g_memdup2 (text + at, n);

      nb_nmea_lexer_feed (&two, piece, n, on_line_parsed, &a);
      nb_nmea_lexer_feed_fixes (&one, piece, n, on_fix_read, &b);
    }
  nb_nmea_lexer_finish (&two, on_line_parsed, &a);
  nb_nmea_lexer_finish_fixes (&one, on_fix_read, &b);
  if (!g_str_equal (a.out->str, b.out->str))
    g_error ("%s, chunks of %" G_GSIZE_FORMAT ": two passes\n%s\none pass\n%s", what, chunk,
             a.out->str, b.out->str);
  g_assert_cmpuint (two.newlines, ==, one.newlines);
  g_assert_cmpuint (two.skipped, ==, one.skipped);
  g_assert_cmpuint (two.overflows, ==, one.overflows);
  g_string_free (a.out, TRUE);
  g_string_free (b.out, TRUE);
}

/* The lexer's one-pass reading (nb_nmea_lexer_feed_fixes: each sentence
 * checked, checksummed, cut and parsed where it lies) gives, sentence by
 * sentence, the fix bit for bit or the error that the lexer's lines read
 * by nb_nmea_parse give: on every capture, fed whole and in chunks, and on
 * sentences at the edges of what the pass takes (those it declines go the
 * two-pass way, which names the error). */
static void
test_one_pass (void)
{
  const char *bodies[] = {
    "GNGGA,132819.60,4134.49795459,N,09345.03431408,W,2,10,0.9,278.161,M,-31.442,M,6.6,0133",
    "GNRMC,132819.60,A,4134.49795459,N,09345.03431408,W,0.148,124.888,180320,11.5985,E,D",
    "GPGGA,235959.00,4134.2,N,09345.0,W,4,12,0.6,+250.0,M,-32.1,M,1.0,0000",
    "GPGGA,000000,4134,N,09345,W,1,4,1,250,M,,M,,",          /* short numbers, empty fields */
    "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
    "GPGGA,1235,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",   /* a field's error */
    "GPGGA,123519,4807.038,N,01131.000,E,9,08,0.9,545.4,M,46.9,M,,", /* quality beyond 8 */
    "GPRMC,123519.000000000000000001,A,4807.0380000000000000001,N,01131.000,E,022.4,084.4,230394,003.1,W",
    "GPGLL,4916.45,N,12311.12,W,225444,A,A",
    "GNGNS,112257.00,3844.24011,N,00908.43828,W,AN,03,10.5,,,,",
    "GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031",
    "GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1",
    "GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00",
    "GPHDT,274.07,T", "GPTHS,77.52,E", "GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A",
    "GPZDA,201530.00,04,07,2002,00,00",
    "PGRME,15.0,M,45.0,M,25.0,M",                            /* proprietary */
    "GPXYZ,a b,c+d,\"e\",#f,%g&h'i(j)",                       /* unknown, plain specials */
    "GPHDT,1.0,T", "GPHDT,,", "GP HDT,1", "GPhdt,1.0,T", "GPGGAX,1", "G,1", "GP",
    "GPZDA,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38",
    "GPZDA,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39",
  };
  const char *raw[] = {
    "$GPHDT,1.0,T*0C\r\n",            /* a wrong checksum: declined, named by nb_nmea_parse */
    "$GPHDT,1.0,T*zz\r\n", "$GPHDT,1.0,T*1\r\n", "$GPHDT,1.0,T*1B2\r\n", "$GPHDT,1.0,T\r\n",
    "$GPHDT,1.0,T*1b\r\n",            /* lowercase hex */
    "$GPHD*T,1.0,T*1B\r\n",           /* a '*' inside */
    "$GPHDT,1.$0,T*1B\r\n", "$GPHDT,1.!0,T*1B\r\n", "$GPHDT,1.\x01" "0,T*1B\r\n",
    "$GPHDT,1.\xc3\xa9,T*1B\r\n", "$*00\r\n", "$A*41\r\n", "$AB*03\r\n", "!AIVDM,1*2C\n",
    "$GPHDT,1.0,T*1B\r", "$GPHDT,1.0,T*1B\n\n\n", "$GPHDT,1.0,T*1B", "# comment $GPHDT,1.0,T*1B\n",
    "$GPHDT,1.0,T*1B$GPHDT,2.0,T*18\r\n", "junk$GPHDT,1.0,T*1B\r\n",
  };
  g_autoptr (GString) stream = g_string_new (NULL);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *own = g_test_build_filename (G_TEST_DIST, "captures", "nmea", NULL);
  g_autoptr (GDir) dir = g_dir_open (own, 0, NULL);
  const char *name;
  const gsize chunks[] = { 1, 2, 3, 7, 8, 9, 13, 64, 255, 4096, G_MAXSIZE };
  char long_body[300];

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    {
      g_autofree char *line = sentence (bodies[i]);

      g_string_append_printf (stream, "%s\r\n", line);
    }
  for (guint i = 0; i < G_N_ELEMENTS (raw); i++)
    g_string_append (stream, raw[i]);
  /* 255, 256 and 257 bytes of sentence (the lexer's buffer holds 256) */
  for (gsize n = 250; n <= 253; n++)
    {
      g_autofree char *line = NULL;

      memset (long_body, 'A', sizeof long_body);
      memcpy (long_body, "GPXYZ,", 6);
      long_body[n - 4] = '\0';   /* "$" + body + "*hh" = n bytes */
      line = sentence (long_body);
      g_assert_cmpuint (strlen (line), ==, n - 0);
      g_string_append_printf (stream, "%s\r\n", line);
    }
  for (gsize n = 254; n <= 258; n++)
    {
      g_autofree char *line = NULL;

      memset (long_body, 'B', sizeof long_body);
      memcpy (long_body, "GPXYZ,", 6);
      long_body[n - 4] = '\0';
      line = sentence (long_body);
      g_string_append_printf (stream, "%s\n", line);
    }
  for (guint c = 0; c < G_N_ELEMENTS (chunks); c++)
    assert_one_pass_same (stream->str, stream->len, chunks[c], "edge sentences");

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".log"))
      g_ptr_array_add (paths, g_build_filename (own, name, NULL));
  g_assert_cmpuint (paths->len, >=, 5);
  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *text = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (paths->pdata[i], &text, &len, NULL));
      for (guint c = 0; c < G_N_ELEMENTS (chunks); c++)
        assert_one_pass_same (text, len, chunks[c], paths->pdata[i]);
    }
}

/* The one-pass reading keeps the last time, latitude and longitude text
 * with its value (the sentences of one epoch repeat them): sentences that
 * repeat them, or nearly (another hemisphere, one digit, one more zero, a
 * byte in the second word, fields longer than the memo's 16 and 22 bytes,
 * an error with the text kept before, a bad hemisphere), read the same fix
 * bit for bit, or the same error, as nb_nmea_parse without the memo; in
 * chunks of every size, so that fields near a chunk's end (fewer than 16
 * bytes readable) are compared too. */
static void
test_one_pass_memo (void)
{
  const char *bodies[] = {
    "GNGGA,120000.00,4130.12345678,N,09342.12345678,W,4,12,0.6,250.000,M,-32.100,M,1.0,0000",
    "GNRMC,120000.00,A,4130.12345678,N,09342.12345678,W,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.00,A,4130.12345678,S,09342.12345678,E,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.00,A,4130.12345678,X,09342.12345678,E,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.00,A,4130.12345678,NN,09342.12345678,E,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.00,A,4130.12345679,S,09342.12345678,E,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.00,A,4130.123456780,S,09342.1234567,E,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.0,A,4130.123456780,S,09342.1234567,E,0.031,45.0,300625,,,R,V",
    "GNRMC,120000.01,A,4130.123456780,S,09342.1234567,E,0.031,45.0,300625,,,R,V",
    "GNGGA,120000.01,4130.1234567800000000,S,09342.123456700000000000,E,4,12,0.6,250,M,,M,,",
    "GNGGA,120000.01,4130.1234567800000001,S,09342.123456700000000000,E,4,12,0.6,250,M,,M,,",
    "GNGGA,120000.01,4130.1234567800000001,S,09342.123456700000000001,E,4,12,0.6,250,M,,M,,",
    "GNGGA,120000.01,09342.12345670,S,4130.12345678,E,4,12,0.6,250,M,,M,,",   /* swapped */
    "GNGGA,120000.01,4130.12345678,N,09342.12345678,W,4,12,0.6,250,M,,M,,",
    "GNGGA,1200,4130.12345678,N,09342.12345678,W,4,12,0.6,250,M,,M,,",         /* bad time */
    "GNGGA,120000.01,9130.12345678,N,09342.12345678,W,4,12,0.6,250,M,,M,,",    /* beyond 90° */
    "GNGGA,120000.01,4130.12345678,N,09342.12345678,W,4,12,0.6,250,M,,M,,",
    "GNGLL,4130.12345678,N,09342.12345678,W,120000.01,A,A",
    "GNGNS,120000.01,4130.12345678,N,09342.12345678,W,RR,12,0.6,250,-32.1,,",
    "GNGGA,235959.99,4130.12345678,N,09342.12345678,W,4,12,0.6,250,M,,M,,",
    "GNRMC,235959.99,A,4130.12345678,N,09342.12345678,W,0.031,45.0,300625,,,R,V",
    "GNRMC,235959.99,A,4130.12345678,N,09342.12345678,W,0.031,45.0,300625,,,R,V",
  };
  g_autoptr (GString) stream = g_string_new (NULL);
  const gsize chunks[] = { 1, 5, 8, 13, 16, 17, 31, 77, 80, 81, 160, 4096, G_MAXSIZE };

  for (int pass = 0; pass < 3; pass++)
    for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
      {
        g_autofree char *line = sentence (bodies[i]);

        g_string_append_printf (stream, "%s\r\n", line);
      }
  for (guint c = 0; c < G_N_ELEMENTS (chunks); c++)
    assert_one_pass_same (stream->str, stream->len, chunks[c], "memo sentences");
  {
    /* and the memo was used: a lexer reading the stream whole keeps the
     * last time and position */
    NbNmeaLexer lexer;
    Reading r = { g_string_new (NULL), &lexer };

    nb_nmea_lexer_init (&lexer);
    nb_nmea_lexer_feed_fixes (&lexer, (const guint8 *) stream->str, stream->len, on_fix_read, &r);
    g_assert_cmpuint (lexer.memo[NB_NMEA_MEMO_TIME].n, ==, strlen ("235959.99"));
    g_assert_cmpfloat (lexer.memo[NB_NMEA_MEMO_TIME].value, ==, 86399.99);
    g_assert_cmpuint (lexer.memo[NB_NMEA_MEMO_LAT].n, ==, strlen ("4130.12345678"));
    g_assert_cmpint (lexer.memo[NB_NMEA_MEMO_LON].hemi, ==, 'W');
    g_string_free (r.out, TRUE);
  }
}

/* ---------------------------------------------------------- geodesy -- */

/* Vincenty's inverse problem on WGS-84: the geodesic distance (m). */
static double
vincenty_distance (double lat1, double lon1, double lat2, double lon2)
{
  const double a = NB_WGS84_A, f = NB_WGS84_F, b = a * (1 - f);
  double L = (lon2 - lon1) * G_PI / 180.0;
  double U1 = atan ((1 - f) * tan (lat1 * G_PI / 180.0));
  double U2 = atan ((1 - f) * tan (lat2 * G_PI / 180.0));
  double sinU1 = sin (U1), cosU1 = cos (U1), sinU2 = sin (U2), cosU2 = cos (U2);
  double lambda = L, prev, sinSigma, cosSigma, sigma, cos2Alpha, cos2SigmaM, C;
  double u2, A, B, deltaSigma;
  int iter = 0;

  do
    {
      double sinLambda = sin (lambda), cosLambda = cos (lambda), sinAlpha;

      sinSigma = sqrt ((cosU2 * sinLambda) * (cosU2 * sinLambda) +
                       (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) *
                       (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda));
      cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
      sigma = atan2 (sinSigma, cosSigma);
      sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma;
      cos2Alpha = 1 - sinAlpha * sinAlpha;
      /* Along the equator cos²α = 0 and the term vanishes. */
      cos2SigmaM = cos2Alpha != 0.0 ? cosSigma - 2 * sinU1 * sinU2 / cos2Alpha : 0.0;
      C = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha));
      prev = lambda;
      lambda = L + (1 - C) * f * sinAlpha *
               (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma *
                                        (-1 + 2 * cos2SigmaM * cos2SigmaM)));
    }
  while (fabs (lambda - prev) > 1e-14 && ++iter < 200);
  u2 = cos2Alpha * (a * a - b * b) / (b * b);
  A = 1 + u2 / 16384 * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
  B = u2 / 1024 * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
  deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 *
               (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) -
                B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) *
                (-3 + 4 * cos2SigmaM * cos2SigmaM)));
  return b * A * (sigma - deltaSigma);
}

static void
test_geodesy_reference (void)
{
  NbEnuFrame frame;
  double ecef[3], enu[3], lat, lon, h;

  /* 40-digit references (mpmath, rotation as Ry(lat)·Rz(lon)). */
  nb_geodesy_to_ecef (41.5, -93.7, 250.0, ecef);
  nb_assert_abs (ecef[0], -308733.23044775292189, 1e-7, "ecef x");
  nb_assert_abs (ecef[1], -4774193.2821582363215, 1e-7, "ecef y");
  nb_assert_abs (ecef[2], 4204337.9133665091313, 1e-7, "ecef z");

  nb_enu_frame_init (&frame, 41.5, -93.7, 250.0);
  nb_enu_from_geodetic (&frame, 41.5081, -93.6892, 251.5, enu);
  nb_assert_abs (enu[0], 901.68174544671491041, 1e-6, "east 1");
  nb_assert_abs (enu[1], 899.7075337204882194, 1e-6, "north 1");
  nb_assert_abs (enu[2], 1.3727600046674609857, 1e-6, "up 1");
  nb_enu_from_geodetic (&frame, 41.4912, -93.7117, 249.0, enu);
  nb_assert_abs (enu[0], -977.07548796823970221, 1e-6, "east 2");
  nb_assert_abs (enu[1], -977.3309307192723836, 1e-6, "north 2");
  nb_assert_abs (enu[2], -1.1497753528117743336, 1e-6, "up 2");
  /* The far side of the Earth still converts exactly (no flat earth). */
  nb_enu_from_geodetic (&frame, 45.4576333333, 167.15275, 15.8, enu);
  nb_assert_abs (enu[0], -4424504.5297378017389, 1e-5, "east far");
  nb_assert_abs (enu[1], 3880954.4302579540873, 1e-5, "north far");
  nb_assert_abs (enu[2], -3905438.8324315119358, 1e-5, "up far");

  /* The origin is the origin. */
  nb_enu_from_geodetic (&frame, 41.5, -93.7, 250.0, enu);
  nb_assert_abs (hypot (hypot (enu[0], enu[1]), enu[2]), 0.0, 1e-9, "origin");

  /* Round trip through Heikkinen's closed-form inverse. */
  nb_geodesy_from_ecef (ecef, &lat, &lon, &h);
  nb_assert_abs (lat, 41.5, 1e-12, "lat back");
  nb_assert_abs (lon, -93.7, 1e-12, "lon back");
  nb_assert_abs (h, 250.0, 1e-6, "h back");
}

/* ≤ 1 mm over 1 km: the plane distance to points 1 km away in every
 * direction, at several latitudes, equals the geodesic (Vincenty) to well
 * under a millimetre.  (Chord vs arc over 1 km differs by ~4 µm.) */
static void
test_geodesy_1km (void)
{
  const double origins[][2] = { { 0.0, 0.0 }, { 41.5, -93.7 }, { 55.75, 37.62 },
                                { -45.88, 170.5 }, { 78.2, 15.6 } };
  double worst = 0.0;

  for (guint o = 0; o < G_N_ELEMENTS (origins); o++)
    {
      NbEnuFrame frame;

      nb_enu_frame_init (&frame, origins[o][0], origins[o][1], 0.0);
      for (int k = 0; k < 16; k++)
        {
          /* Pick a point about 1 km away, then compare distances. */
          double az = k * G_PI / 8.0;
          double lat2 = origins[o][0] + 1000.0 * cos (az) / 111000.0;
          double lon2 = origins[o][1] + 1000.0 * sin (az) /
                        (111000.0 * cos (origins[o][0] * G_PI / 180.0));
          double enu[3], plane, geodesic;

          nb_enu_from_geodetic (&frame, lat2, lon2, 0.0, enu);
          plane = hypot (enu[0], enu[1]);
          geodesic = vincenty_distance (origins[o][0], origins[o][1], lat2, lon2);
          g_assert_cmpfloat (geodesic, >, 900.0);
          g_assert_cmpfloat (geodesic, <, 1100.0);
          worst = MAX (worst, fabs (plane - geodesic));
          nb_assert_abs (plane, geodesic, 1e-4, "plane vs geodesic");
          /* Direction: east is +x, north is +y. */
          if (k == 0)
            g_assert_cmpfloat (enu[1], >, 990.0);
          if (k == 4)
            g_assert_cmpfloat (enu[0], >, 990.0);
        }
    }
  g_test_message ("worst plane vs geodesic over 1 km: %.3g m", worst);
}

static void
keep_sample (const NbSample *s, gpointer data)
{
  g_array_append_val ((GArray *) data, *s);
}

/* A GNSS heading is clockwise from north; the driver's samples carry the
 * test area's convention, counter-clockwise from east (+x of ENU). */
static void
test_heading_convention (void)
{
  static const struct { double hdt, yaw; } cases[] = {
    { 0.0, 90.0 }, { 90.0, 0.0 }, { 180.0, -90.0 }, { 270.0, 180.0 }, { 274.07, 175.93 },
    { 359.5, 90.5 }, { 45.0, 45.0 }, { 135.0, -45.0 },
  };
  const NbDriver *d = nb_driver_find ("nmea");
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) got = g_array_new (FALSE, FALSE, sizeof (NbSample));
  NbSink sink = { keep_sample, NULL, got };
  gpointer ctx;

  g_assert_nonnull (d);
  ctx = d->open (&error);
  g_assert_no_error (error);
  g_assert_true (d->start (ctx, &error));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *hdt_body = g_strdup_printf ("GPHDT,%.2f,T", cases[i].hdt);
      g_autofree char *hdt = sentence (hdt_body);
      g_autofree char *gga = sentence ("GPGGA,120000.00,5545.0000000,N,03737.0000000,E,4,12,"
                                       "0.7,150.0,M,14.0,M,1.0,0000");
      g_autofree char *both = g_strdup_printf ("%s\r\n%s\r\n", hdt, gga);

      d->feed (ctx, (const guint8 *) both, strlen (both), &sink);
      g_assert_cmpuint (got->len, ==, i + 1);
      nb_assert_abs (g_array_index (got, NbSample, i).heading_deg, cases[i].yaw, 1e-9,
                     "heading counter-clockwise from east");
    }
  g_assert_true (isnan (nb_nmea_heading_to_enu_deg (NAN)));
  d->stop (ctx);
  d->close (ctx);
}

/* Feeds lines (CR LF added) to a fresh nmea driver, all at once or in
 * chunks of 7 bytes; returns the samples. */
static GArray *
run_lines (const char *const *bodies, guint n, gboolean finish)
{
  const NbDriver *d = nb_driver_find ("nmea");
  GArray *got = g_array_new (FALSE, FALSE, sizeof (NbSample));
  NbSink sink = { keep_sample, NULL, got };
  g_autoptr (GString) text = g_string_new (NULL);
  gpointer ctx = d->open (NULL);

  g_assert_true (d->start (ctx, NULL));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *line = sentence (bodies[i]);

      g_string_append_printf (text, "%s\r\n", line);
    }
  for (gsize at = 0; at < text->len; at += 7)
    d->feed (ctx, (const guint8 *) text->str + at, MIN ((gsize) 7, text->len - at), &sink);
  if (finish)
    d->finish (ctx, &sink);
  d->stop (ctx);
  d->close (ctx);
  return got;
}

/* Device times never fall (NAN, unknown, aside). */
static void
assert_monotonic (GArray *got, const char *what)
{
  double last = -INFINITY;

  for (guint i = 0; i < got->len; i++)
    {
      double t = g_array_index (got, NbSample, i).device_time_s;

      if (isnan (t))
        continue;
      if (t < last)
        g_error ("%s: sample %u at %.3f s after %.3f s", what, i, t, last);
      last = t;
    }
}

/* Device time stays monotonic: a GGA (no date) before the epoch's first
 * RMC has no device time, as gpsd reports it (not the time of day, 1.8·10⁹
 * s before the RMC); the GGA of 00:00:00 that comes before the RMC with the
 * new date is of the new day; a receiver that never sends a date counts
 * the time of day on past midnight from its second epoch. */
static void
test_time_monotonic (void)
{
  const char *dated[] = {
    "GPGGA,235959.00,4134.2000000,N,09345.0000000,W,4,12,0.6,250.0,M,-32.1,M,1.0,0000",
    "GPRMC,235959.00,A,4134.2000000,N,09345.0000000,W,0.0,0.0,300625,,,R",
    "GPGGA,235959.50,4134.2000100,N,09345.0000000,W,4,12,0.6,250.0,M,-32.1,M,1.0,0000",
    "GPRMC,235959.50,A,4134.2000100,N,09345.0000000,W,0.0,0.0,300625,,,R",
    "GPGGA,000000.00,4134.2000200,N,09345.0000000,W,4,12,0.6,250.0,M,-32.1,M,1.0,0000",
    "GPRMC,000000.00,A,4134.2000200,N,09345.0000000,W,0.0,0.0,010725,,,R",
    "GPGGA,000000.50,4134.2000300,N,09345.0000000,W,4,12,0.6,250.0,M,-32.1,M,1.0,0000",
  };
  const char *undated[] = {
    "GPGGA,235959.00,4134.2000000,N,09345.0000000,W,4,12,0.6,250.0,M,-32.1,M,1.0,0000",
    "GPGGA,235959.50,4134.2000100,N,09345.0000000,W,4,12,0.6,250.0,M,-32.1,M,1.0,0000",
    "GPGGA,000000.00,4134.2000200,N,09345.0000000,W,4,12,0.6,250.0,M,-32.1,M,1.0,0000",
    "GPGGA,000000.50,4134.2000300,N,09345.0000000,W,4,12,0.6,250.0,M,-32.1,M,1.0,0000",
  };
  /* 2025-06-30 00:00 UTC is 1751241600 s after 1970 (20269 days). */
  const double day0 = 20269.0 * 86400.0;
  g_autoptr (GArray) a = run_lines (dated, G_N_ELEMENTS (dated), TRUE);
  g_autoptr (GArray) b = run_lines (undated, G_N_ELEMENTS (undated), TRUE);

  g_assert_cmpuint (a->len, ==, 7);
  g_assert_true (isnan (g_array_index (a, NbSample, 0).device_time_s));
  nb_assert_abs (g_array_index (a, NbSample, 1).device_time_s, day0 + 86399.0, 1e-6,
                 "the first RMC");
  nb_assert_abs (g_array_index (a, NbSample, 4).device_time_s, day0 + 86400.0, 1e-6,
                 "the GGA at midnight, before the new date");
  nb_assert_abs (g_array_index (a, NbSample, 5).device_time_s, day0 + 86400.0, 1e-6,
                 "the RMC with the new date");
  nb_assert_abs (g_array_index (a, NbSample, 6).device_time_s, day0 + 86400.5, 1e-6,
                 "after midnight");
  assert_monotonic (a, "dated");
  /* no date ever: unknown in the first epoch, then the time of day */
  g_assert_cmpuint (b->len, ==, 4);
  g_assert_true (isnan (g_array_index (b, NbSample, 0).device_time_s));
  nb_assert_abs (g_array_index (b, NbSample, 1).device_time_s, 86399.5, 1e-6, "undated");
  nb_assert_abs (g_array_index (b, NbSample, 3).device_time_s, 86400.5, 1e-6,
                 "undated, counted past midnight");
  assert_monotonic (b, "undated");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nmea/checksum", test_checksum);
  g_test_add_func ("/nmea/gga", test_gga);
  g_test_add_func ("/nmea/rmc-gll-gns", test_rmc_gll_gns);
  g_test_add_func ("/nmea/quality-sentences", test_quality_sentences);
  g_test_add_func ("/nmea/lexer", test_lexer);
  g_test_add_func ("/nmea/one-pass", test_one_pass);
  g_test_add_func ("/nmea/one-pass-memo", test_one_pass_memo);
  g_test_add_func ("/nmea/heading-convention", test_heading_convention);
  g_test_add_func ("/nmea/time-monotonic", test_time_monotonic);
  g_test_add_func ("/geodesy/reference", test_geodesy_reference);
  g_test_add_func ("/geodesy/1km", test_geodesy_1km);
  return g_test_run ();
}
