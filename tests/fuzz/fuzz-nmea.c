/* libFuzzer target: the NMEA parser on one sentence, the lexer and the whole
 * nmea driver on a byte stream (cut into random chunks), and the lexer's
 * one-pass reading (nb_nmea_lexer_feed_fixes) against its lines read by
 * nb_nmea_parse: the same fixes, bit for bit, the same errors, the same
 * lines.
 * Build: CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined
 *        -Db_lundef=false; run: build-fuzz/tests/fuzz-nmea tests/fuzz/corpus/nmea */
#include "nb-driver.h"
#include "nmea-protocol.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
on_sample (const NbSample *s, gpointer user_data)
{
  /* A decoded position is always a real one. */
  g_assert (fabs (s->lat_deg) <= 90.0 && fabs (s->lon_deg) <= 180.0);
  g_assert (isfinite (s->x_m) && isfinite (s->y_m) && isfinite (s->z_m));
}

static void
on_note (const char *message, gpointer user_data)
{
  g_assert (message != NULL && message[0] != '\0');
}

/* One reading's record of a sentence: its line, then the fix's bytes
 * member by member, or the error. */
static void
record_fix (GString *out, guint64 line, const NbNmeaFix *f, const char *error)
{
  g_string_append_printf (out, "%" G_GUINT64_FORMAT ":", line);
  if (f == NULL)
    {
      g_string_append_printf (out, "E %s\n", error);
      return;
    }
#define M(x) g_string_append_len (out, (const char *) &f->x, sizeof f->x)
  M (sentence); M (talker); M (type); M (has); M (time_s); M (year); M (month); M (day);
  M (lat_deg); M (lon_deg); M (alt_msl_m); M (geoid_sep_m); M (quality); M (valid);
  M (satellites); M (hdop); M (pdop); M (vdop); M (fix_mode); M (gst_rms_m); M (gst_major_m);
  M (gst_minor_m); M (gst_orient_deg); M (gst_lat_m); M (gst_lon_m); M (gst_alt_m);
  M (heading_deg); M (speed_mps); M (course_deg); M (mode);
#undef M
  g_string_append_c (out, '\n');
}

typedef struct {
  GString *out;
  NbNmeaLexer *lexer;
} Reading;

static void
on_line (const char *line, gsize len, gpointer user_data)
{
  Reading *r = user_data;
  GError *error = NULL;
  NbNmeaFix fix;

  if (nb_nmea_parse (line, len, &fix, &error))
    record_fix (r->out, r->lexer->sentence_line, &fix, NULL);
  else
    {
      record_fix (r->out, r->lexer->sentence_line, NULL, error->message);
      g_error_free (error);
    }
}

static void
on_fix (const NbNmeaFix *fix, const GError *error, gpointer user_data)
{
  Reading *r = user_data;

  g_assert ((fix == NULL) != (error == NULL));
  record_fix (r->out, r->lexer->sentence_line, fix, error != NULL ? error->message : NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const NbDriver *driver = nb_driver_find ("nmea");
  NbSink sink = { on_sample, on_note, NULL };
  GError *error = NULL;
  NbNmeaFix fix;
  gpointer ctx;
  size_t chunk = size > 0 ? (size_t) data[0] % 64 + 1 : 1;

  if (nb_nmea_parse ((const char *) data, size, &fix, &error))
    g_assert (error == NULL);
  else
    {
      g_assert (error != NULL);
      g_clear_error (&error);
    }

  {
    NbNmeaLexer two, one;
    Reading a = { g_string_new (NULL), &two }, b = { g_string_new (NULL), &one };

    nb_nmea_lexer_init (&two);
    nb_nmea_lexer_init (&one);
    for (size_t off = 0; off < size; off += chunk)
      {
        /* each chunk in a buffer of its own size: a read past it is seen */
        size_t n = MIN (chunk, size - off);
        guint8 *piece = g_memdup2 (data + off, n);

        nb_nmea_lexer_feed (&two, piece, n, on_line, &a);
        nb_nmea_lexer_feed_fixes (&one, piece, n, on_fix, &b);
        g_free (piece);
      }
    nb_nmea_lexer_finish (&two, on_line, &a);
    nb_nmea_lexer_finish_fixes (&one, on_fix, &b);
    g_assert (a.out->len == b.out->len && memcmp (a.out->str, b.out->str, a.out->len) == 0);
    g_assert (two.newlines == one.newlines && two.skipped == one.skipped &&
              two.overflows == one.overflows);
    g_string_free (a.out, TRUE);
    g_string_free (b.out, TRUE);
  }

  ctx = driver->open (NULL);
  driver->start (ctx, NULL);
  for (size_t off = 0; off < size; off += chunk)
    driver->feed (ctx, data + off, MIN (chunk, size - off), &sink);
  driver->finish (ctx, &sink);
  driver->close (ctx);
  return 0;
}
