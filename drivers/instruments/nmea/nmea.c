/* nmea.c — the NMEA 0183 driver: GNSS receivers, RTK rovers
 *
 * Sentences are read by the lexer, which parses each where it lies in one
 * pass (nb_nmea_lexer_feed_fixes, nmea-protocol.c); this file keeps the
 * state that spans sentences (date, satellites, HDOP, GST sigmas, heading,
 * altitude) and emits one sample per sentence that carries a valid
 * position, converted to east-north-up about the configured origin
 * (ISO 18646-2 annex A: the test area's P0).
 */
#include "nb-driver.h"
#include "nmea-protocol.h"

#include "nb-error.h"
#include "nb-record-words.h"
#include "nb-geodesy.h"
#include "nb-number.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

typedef struct {
  NbNmeaLexer lexer;
  gboolean has_origin, origin_configured;
  NbEnuFrame origin;
  double origin_cfg[3];

  /* State that spans sentences. */
  gboolean has_date;
  gint64 date_days;            /* the current UTC date, days since 1970 */
  double last_tod_s;           /* the last time of day seen (NAN: none) */
  /* Fixes before any date (a receiver sends GGA, which has none, before
   * the epoch's RMC or ZDA) have no device time, as gpsd reports them, so
   * that time stamps never fall from 1.8·10⁹ s to the time of day.  A
   * receiver whose first epoch ends without a date sends none: its fixes
   * carry the time of day, counted on past midnight (undated). */
  double first_undated_tod_s;  /* NAN: none seen */
  gboolean undated;
  gint64 undated_days;
  int satellites;
  double hdop, rms_m, heading_deg, alt_hae_m;
  guint64 sentences, errors;
  /* The last conversion to east-north-up: the sentences of one epoch (GGA,
   * RMC, GNS, GLL) repeat one position. */
  double last_geo[3], last_enu[3];
  gboolean has_last;
  const NbSink *sink;
  NbSample blank;              /* nb_sample_init's sample, copied for each fix */
} NmeaCtx;

static void
state_reset (NmeaCtx *c)
{
  nb_nmea_lexer_init (&c->lexer);
  c->has_origin = FALSE;
  if (c->origin_configured)
    {
      nb_enu_frame_init (&c->origin, c->origin_cfg[0], c->origin_cfg[1], c->origin_cfg[2]);
      c->has_origin = TRUE;
    }
  c->has_date = FALSE;
  c->date_days = 0;
  c->last_tod_s = NAN;
  c->first_undated_tod_s = NAN;
  c->undated = FALSE;
  c->undated_days = 0;
  c->has_last = FALSE;
  c->satellites = -1;
  c->hdop = c->rms_m = c->heading_deg = c->alt_hae_m = NAN;
  c->sentences = c->errors = 0;
}

static gpointer
nmea_open (GError **error)
{
  NmeaCtx *c = g_new0 (NmeaCtx, 1);

  nb_sample_init (&c->blank, "nmea");
  state_reset (c);
  return c;
}

static gboolean
nmea_configure (gpointer ctx, const char *key, const char *value, GError **error)
{
  NmeaCtx *c = ctx;

  if (g_str_equal (key, "origin"))
    {
      g_auto (GStrv) parts = g_strsplit (value, ",", -1);
      guint n = g_strv_length (parts);
      double v[3] = { 0.0, 0.0, 0.0 };

      if (n < 2 || n > 3)
        goto bad;
      for (guint i = 0; i < n; i++)
        if (!nb_parse_double (parts[i], strlen (parts[i]), &v[i]))
          goto bad;
      if (fabs (v[0]) > 90.0 || fabs (v[1]) > 180.0)
        goto bad;
      memcpy (c->origin_cfg, v, sizeof v);
      c->origin_configured = TRUE;
      state_reset (c);
      return TRUE;
    bad:
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "origin '%s' is not LAT,LON[,H] in degrees and metres", value);
      return FALSE;
    }
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, NB_MSG_NO_SETTING_OF, "nmea", key, "origin");
  return FALSE;
}

static gboolean
nmea_start (gpointer ctx, GError **error)
{
  state_reset (ctx);
  return TRUE;
}

static void
nmea_stop (gpointer ctx)
{
}

static void
nmea_close (gpointer ctx)
{
  g_free (ctx);
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's
 * days_from_civil), so device time needs no timegm and no time zone. */
static gint64
days_from_civil (int y, int m, int d)
{
  gint64 era, yoe, doy, doe;

  y -= m <= 2;
  era = (y >= 0 ? y : y - 399) / 400;
  yoe = y - era * 400;
  doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

/* Seconds since 1970 of a time of day on the current date; a time of day
 * more than half a day before the last one is the next day (a GGA at
 * 00:00:00 comes before the RMC with the new date).  Undated: the time of
 * day, counted on across midnight the same way; NAN while the first epoch
 * may still bring its date. */
static double
device_time (NmeaCtx *c, double tod_s)
{
  gint64 *days = c->has_date ? &c->date_days : &c->undated_days;

  if (!isnan (c->last_tod_s) && tod_s < c->last_tod_s - 43200.0)
    (*days)++;
  c->last_tod_s = tod_s;
  if (!c->has_date && !c->undated)
    {
      if (isnan (c->first_undated_tod_s))
        c->first_undated_tod_s = tod_s;
      if (tod_s == c->first_undated_tod_s)
        return NAN;
      c->undated = TRUE;   /* a second epoch and still no date */
    }
  return (double) *days * 86400.0 + tod_s;
}

static void
on_fix (const NbNmeaFix *fix, const GError *error, gpointer user_data)
{
  NmeaCtx *c = user_data;
  NbSample s;
  double enu[3], h;

  c->sentences++;
  if (fix == NULL)
    {
      c->errors++;
      if (c->sink->note != NULL)
        {
          g_autofree char *m = g_strdup_printf ("line %" G_GUINT64_FORMAT ": %s",
                                                c->lexer.sentence_line, error->message);

          c->sink->note (m, c->sink->user_data);
        }
      return;
    }
  if (fix->has & NB_NMEA_HAS_DATE)
    {
      c->has_date = TRUE;
      c->date_days = days_from_civil (fix->year, fix->month, fix->day);
      if (fix->has & NB_NMEA_HAS_TIME)
        c->last_tod_s = fix->time_s;
    }
  if (fix->has & NB_NMEA_HAS_SATELLITES)
    c->satellites = fix->satellites;
  if (fix->has & NB_NMEA_HAS_HDOP)
    c->hdop = fix->hdop;
  if (fix->has & NB_NMEA_HAS_GST)
    c->rms_m = hypot (fix->gst_lat_m, fix->gst_lon_m);   /* horizontal 1-σ radius */
  if (fix->has & NB_NMEA_HAS_HEADING)
    c->heading_deg = fix->heading_deg;
  if (fix->has & NB_NMEA_HAS_ALTITUDE)
    c->alt_hae_m = fix->alt_msl_m + ((fix->has & NB_NMEA_HAS_GEOID) ? fix->geoid_sep_m : 0.0);
  if (!(fix->has & NB_NMEA_HAS_POSITION))
    return;

  s = c->blank;
  /* talker + type ("GN" "GGA"), without a printf per sample: a sentence
   * with a position has a five-letter address (nb_nmea_parse refuses
   * others; a proprietary one carries no position) */
  G_STATIC_ASSERT (sizeof s.tag >= 6);
  memcpy (s.tag, fix->talker, 2);
  memcpy (s.tag + 2, fix->type, 3);
  s.tag[5] = '\0';
  if (fix->has & NB_NMEA_HAS_TIME)
    s.device_time_s = device_time (c, fix->time_s);
  h = isnan (c->alt_hae_m) ? (c->has_origin ? c->origin.h_m : 0.0) : c->alt_hae_m;
  if (!c->has_origin)
    {
      /* No surveyed P0 given: the first fix is the origin. */
      nb_enu_frame_init (&c->origin, fix->lat_deg, fix->lon_deg, h);
      c->has_origin = TRUE;
    }
  if (c->has_last && c->last_geo[0] == fix->lat_deg && c->last_geo[1] == fix->lon_deg &&
      c->last_geo[2] == h)
    memcpy (enu, c->last_enu, sizeof enu);
  else
    {
      nb_enu_from_geodetic (&c->origin, fix->lat_deg, fix->lon_deg, h, enu);
      c->last_geo[0] = fix->lat_deg;
      c->last_geo[1] = fix->lon_deg;
      c->last_geo[2] = h;
      memcpy (c->last_enu, enu, sizeof enu);
      c->has_last = TRUE;
    }
  s.x_m = enu[0];
  s.y_m = enu[1];
  s.z_m = enu[2];
  s.has_geodetic = TRUE;
  s.lat_deg = fix->lat_deg;
  s.lon_deg = fix->lon_deg;
  s.alt_m = c->alt_hae_m;
  /* The receiver's true heading (HDT, THS) is clockwise from north; the
   * sample's heading is counter-clockwise from the frame's +x (east), the
   * test area's convention that registration then turns (ISO 18646-2
   * clause 5 measures o_j so; ISO18646-2.md "Frames"). */
  s.heading_deg = nb_nmea_heading_to_enu_deg (c->heading_deg);
  s.fix = (NbFixType) nb_nmea_quality_to_fix (fix->quality);
  s.tracking = NB_TRACKING_OK;
  s.rms_m = c->rms_m;
  s.hdop = c->hdop;
  s.satellites = c->satellites;
  c->sink->sample (&s, c->sink->user_data);
}

static void
nmea_feed (gpointer ctx, const guint8 *data, gsize len, const NbSink *sink)
{
  NmeaCtx *c = ctx;

  c->sink = sink;
  nb_nmea_lexer_feed_fixes (&c->lexer, data, len, on_fix, c);
  c->sink = NULL;
}

static void
nmea_finish (gpointer ctx, const NbSink *sink)
{
  NmeaCtx *c = ctx;

  c->sink = sink;
  nb_nmea_lexer_finish_fixes (&c->lexer, on_fix, c);
  c->sink = NULL;
}

const NbDriver nb_driver_nmea = {
  .name = "nmea",
  .summary = N_("NMEA 0183 GNSS receiver (GGA GLL GNS RMC GST GSA HDT THS VTG ZDA)"),
  .needs_transport = TRUE,
  .open = nmea_open,
  .configure = nmea_configure,
  .start = nmea_start,
  .stop = nmea_stop,
  .close = nmea_close,
  .feed = nmea_feed,
  .finish = nmea_finish,
};
