/* geocom.c — the Leica GeoCOM driver: a robotic total station tracking a prism
 *
 * The station answers requests, so the driver polls: the lock state
 * (MOT_ReadLockStatus) and then the measurement — coordinates
 * (TMC_GetSimpleCoord, mode "coord", the default) or angles and slope
 * distance (TMC_GetSimpleMea, mode "polar", converted here) — each with a
 * timeout; a silent station is a note per request, never a hang.  Every
 * return code other than OK becomes a note with the manual's words.
 * Recordings hold both directions as the line carries them (%R1Q requests,
 * %R1P replies), so a replay pairs each reply with the request before it.
 * Settings: mode (coord, polar), wait (ms the station may take to measure,
 * default 300), timeout (ms for the reply, default 2000).
 */
#include "nb-driver.h"
#include "geocom-protocol.h"

#include "nb-error.h"
#include "nb-record-words.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

typedef struct {
  gboolean polar;
  guint wait_ms, timeout_ms;
  char line[NB_GEOCOM_MAX_LINE];
  gsize len;
  gboolean overflow;
  guint64 line_no;
  gboolean comment;
  int pending;            /* the RPC whose reply is expected, 0 none */
  int cycle;              /* which request comes next */
  NbTracking lock;
  const NbSink *sink;
} GeocomCtx;

static gpointer
geocom_open (GError **error)
{
  GeocomCtx *c = g_new0 (GeocomCtx, 1);

  c->wait_ms = 300;
  c->timeout_ms = 2000;
  return c;
}

static gboolean
parse_ms (const char *key, const char *value, guint *out, GError **error)
{
  guint64 v;

  if (!g_ascii_string_to_unsigned (value, 10, 1, 60000, &v, NULL))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s '%s' is not 1–60000 ms", key, value);
      return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

static gboolean
geocom_configure (gpointer ctx, const char *key, const char *value, GError **error)
{
  GeocomCtx *c = ctx;

  if (g_str_equal (key, "mode"))
    {
      if (!g_str_equal (value, "coord") && !g_str_equal (value, "polar"))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "mode '%s' is not coord or polar", value);
          return FALSE;
        }
      c->polar = g_str_equal (value, "polar");
      return TRUE;
    }
  if (g_str_equal (key, "wait"))
    return parse_ms (key, value, &c->wait_ms, error);
  if (g_str_equal (key, "timeout"))
    return parse_ms (key, value, &c->timeout_ms, error);
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
               NB_MSG_NO_SETTING_OF, "geocom", key, "mode wait timeout");
  return FALSE;
}

static gboolean
geocom_start (gpointer ctx, GError **error)
{
  GeocomCtx *c = ctx;

  c->len = 0;
  c->overflow = FALSE;
  c->line_no = 0;
  c->comment = FALSE;
  c->pending = 0;
  c->cycle = 0;
  c->lock = NB_TRACKING_UNKNOWN;
  return TRUE;
}

static void
geocom_stop (gpointer ctx)
{
}

static void
geocom_close (gpointer ctx)
{
  g_free (ctx);
}

static void
note (GeocomCtx *c, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
note (GeocomCtx *c, const char *format, ...)
{
  g_autofree char *text = NULL, *m = NULL;
  va_list args;

  if (c->sink == NULL || c->sink->note == NULL)
    return;
  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  m = g_strdup_printf ("line %" G_GUINT64_FORMAT ": %s", c->line_no, text);
  c->sink->note (m, c->sink->user_data);
}

static void
emit (GeocomCtx *c, double e, double n, double h)
{
  NbSample s;

  nb_sample_init (&s, "geocom");
  g_strlcpy (s.tag, "geocom", sizeof s.tag);
  s.x_m = e;
  s.y_m = n;
  s.z_m = h;
  s.fix = NB_FIX_TRACKED;
  s.tracking = c->lock;
  s.target_id = 0;
  c->sink->sample (&s, c->sink->user_data);
}

static void
reply (GeocomCtx *c, const NbGeocomMessage *m)
{
  int rpc = c->pending;

  c->pending = 0;
  if (rpc == 0)
    {
      note (c, "a reply without a request");
      return;
    }
  if (m->rc_com != 0)
    {
      note (c, "RPC %d: communication failed: %d %s", rpc, m->rc_com,
            nb_geocom_rc_message (m->rc_com));
      return;
    }
  if (!nb_geocom_rc_usable (m->rc))
    {
      note (c, "RPC %d: %d %s", rpc, m->rc, nb_geocom_rc_message (m->rc));
      if (rpc == NB_GEOCOM_MOT_READ_LOCK_STATUS)
        c->lock = NB_TRACKING_UNKNOWN;
      return;
    }
  if (m->rc != 0)
    note (c, "RPC %d: %d %s", rpc, m->rc, nb_geocom_rc_message (m->rc));
  switch (rpc)
    {
    case NB_GEOCOM_MOT_READ_LOCK_STATUS:
      if (m->n_params < 1 || !isfinite (m->params[0]))
        note (c, "MOT_ReadLockStatus: no lock state in the reply");
      else
        c->lock = m->params[0] == 1.0 ? NB_TRACKING_OK : NB_TRACKING_LOST;
      break;
    case NB_GEOCOM_TMC_GET_SIMPLE_COORD:
      if (m->n_params < 3)
        note (c, "TMC_GetSimpleCoord: %u values, expected E, N, H", m->n_params);
      else
        emit (c, m->params[0], m->params[1], m->params[2]);
      break;
    case NB_GEOCOM_TMC_GET_SIMPLE_MEA:
      if (m->n_params < 3)
        note (c, "TMC_GetSimpleMea: %u values, expected Hz, V, distance", m->n_params);
      else
        {
          /* Hz clockwise from the station's north, V from the zenith (rad). */
          double hz = m->params[0], v = m->params[1], d = m->params[2];

          emit (c, d * sin (v) * sin (hz), d * sin (v) * cos (hz), d * cos (v));
        }
      break;
    default:
      break;
    }
}

static void
line_done (GeocomCtx *c)
{
  g_autoptr (GError) error = NULL;
  NbGeocomMessage m;

  c->line_no++;
  if (c->overflow)
    {
      note (c, "longer than %d bytes", NB_GEOCOM_MAX_LINE);
      return;
    }
  if (c->len == 0)
    return;
  if (!nb_geocom_parse (c->line, c->len, &m, &error))
    {
      note (c, "%s", error->message);
      return;
    }
  if (m.is_request)
    c->pending = m.rpc;   /* a recording: the request that was sent */
  else
    reply (c, &m);
}

static void
geocom_feed (gpointer ctx, const guint8 *data, gsize len, const NbSink *sink)
{
  GeocomCtx *c = ctx;

  c->sink = sink;
  for (gsize i = 0; i < len; i++)
    {
      guint8 b = data[i];

      if (b == '\n')
        {
          if (!c->comment)
            line_done (c);
          else
            c->line_no++;
          c->len = 0;
          c->overflow = FALSE;
          c->comment = FALSE;
        }
      else if (b == '\r' || c->comment)
        continue;
      else if (c->len == 0 && b == '#')
        c->comment = TRUE;
      else if (c->len < sizeof c->line)
        c->line[c->len++] = (char) b;
      else
        c->overflow = TRUE;
    }
  c->sink = NULL;
}

static void
geocom_finish (gpointer ctx, const NbSink *sink)
{
  GeocomCtx *c = ctx;

  c->sink = sink;
  if ((c->len > 0 || c->overflow) && !c->comment)
    line_done (c);
  c->len = 0;
  c->sink = NULL;
}

static GBytes *
geocom_poll (gpointer ctx, double now_s, guint *timeout_ms)
{
  GeocomCtx *c = ctx;
  g_autofree char *params = g_strdup_printf ("%u,1", c->wait_ms);
  char *request;

  if (c->pending != 0)
    return NULL;   /* still waiting for the last answer */
  /* Lock state first, then the measurement, in turn. */
  if (c->cycle++ % 2 == 0)
    {
      c->pending = NB_GEOCOM_MOT_READ_LOCK_STATUS;
      request = nb_geocom_request (c->pending, NULL);
    }
  else
    {
      c->pending = c->polar ? NB_GEOCOM_TMC_GET_SIMPLE_MEA : NB_GEOCOM_TMC_GET_SIMPLE_COORD;
      request = nb_geocom_request (c->pending, params);
    }
  *timeout_ms = c->timeout_ms + c->wait_ms;
  return g_bytes_new_take (request, strlen (request));
}

static void
geocom_timeout (gpointer ctx, const NbSink *sink)
{
  GeocomCtx *c = ctx;

  c->sink = sink;
  note (c, "RPC %d: no reply within %u ms (%s)", c->pending, c->timeout_ms + c->wait_ms,
        nb_geocom_rc_message (3077));
  c->pending = 0;
  c->len = 0;
  c->sink = NULL;
}

const NbDriver nb_driver_geocom = {
  .name = "geocom",
  .summary = N_("Leica GeoCOM total station tracking a prism (lock state, coordinates or polar)"),
  .needs_transport = TRUE,
  .open = geocom_open,
  .configure = geocom_configure,
  .start = geocom_start,
  .stop = geocom_stop,
  .close = geocom_close,
  .feed = geocom_feed,
  .finish = geocom_finish,
  .poll = geocom_poll,
  .timeout = geocom_timeout,
};
