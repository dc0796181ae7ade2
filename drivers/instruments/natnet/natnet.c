/* natnet.c — the OptiTrack NatNet driver (Motive streaming over UDP)
 *
 * One sample per rigid body per frame of data: position (m), quaternion,
 * tracking valid → NB_TRACKING_OK / LOST, mean marker error as RMS, the
 * body id as target, Motive's timestamp as device time.  Datagrams arrive
 * one packet each; recordings are packets back to back after optional '#'
 * header lines ("# NatNet: 3.1" there sets the version), so one
 * accumulator serves both.  Settings: version (3.0 … 4.1, default 4.1),
 * body (only this rigid body id).
 */
#include "nb-driver.h"
#include "natnet-protocol.h"

#include "nb-error.h"
#include "nb-record-words.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

typedef struct {
  int major, minor;
  int only_body;              /* −1: all */
  gboolean header;            /* still in the leading '#' lines */
  gboolean line_start;
  char line[128];
  gsize line_len;
  guint8 buf[2 * NB_NATNET_MAX_PACKET + 8];
  gsize len;
  guint64 packets, errors;
  NbNatNetFrame frame;        /* scratch: no allocation per packet */
} NatNetCtx;

static gpointer
natnet_open (GError **error)
{
  NatNetCtx *c = g_new0 (NatNetCtx, 1);

  c->major = 4;
  c->minor = 1;
  c->only_body = -1;
  return c;
}

static gboolean
natnet_configure (gpointer ctx, const char *key, const char *value, GError **error)
{
  NatNetCtx *c = ctx;

  if (g_str_equal (key, "version"))
    return nb_natnet_parse_version (value, &c->major, &c->minor, error);
  if (g_str_equal (key, "body"))
    {
      guint64 id;

      if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXINT32, &id, NULL))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "body '%s' is not a rigid body id", value);
          return FALSE;
        }
      c->only_body = (int) id;
      return TRUE;
    }
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, NB_MSG_NO_SETTING_OF, "natnet", key,
               "version body");
  return FALSE;
}

static gboolean
natnet_start (gpointer ctx, GError **error)
{
  NatNetCtx *c = ctx;

  c->header = TRUE;
  c->line_start = TRUE;
  c->line_len = 0;
  c->len = 0;
  c->packets = c->errors = 0;
  return TRUE;
}

static void
natnet_stop (gpointer ctx)
{
}

static void
natnet_close (gpointer ctx)
{
  g_free (ctx);
}

static void
note (NatNetCtx *c, const NbSink *sink, const char *message)
{
  g_autofree char *m = g_strdup_printf ("packet %" G_GUINT64_FORMAT ": %s", c->packets, message);

  c->errors++;
  if (sink->note != NULL)
    sink->note (m, sink->user_data);
}

static void
header_line (NatNetCtx *c)
{
  int major, minor;

  c->line[c->line_len] = '\0';
  if (g_str_has_prefix (c->line, "# NatNet: ") &&
      nb_natnet_parse_version (g_strstrip (c->line + 10), &major, &minor, NULL))
    {
      c->major = major;
      c->minor = minor;
    }
}

static void
packet (NatNetCtx *c, const guint8 *data, gsize len, const NbSink *sink)
{
  g_autoptr (GError) error = NULL;
  NbNatNetFrame *f = &c->frame;

  c->packets++;
  if (!nb_natnet_parse (data, len, c->major, c->minor, f, &error))
    {
      note (c, sink, error->message);
      return;
    }
  if (!f->is_frame)
    return;
  if (f->n_bodies < f->n_bodies_total)
    note (c, sink, "more rigid bodies than navbench keeps; the rest are dropped");
  for (guint i = 0; i < f->n_bodies; i++)
    {
      const NbNatNetBody *b = &f->bodies[i];
      NbSample s;

      if (c->only_body >= 0 && b->id != c->only_body)
        continue;
      if (!isfinite (b->x) || !isfinite (b->y) || !isfinite (b->z) || !isfinite (b->qw) ||
          !isfinite (b->qx) || !isfinite (b->qy) || !isfinite (b->qz))
        {
          note (c, sink, "a rigid body pose is not finite");
          continue;
        }
      nb_sample_init (&s, "natnet");
      g_strlcpy (s.tag, "natnet", sizeof s.tag);
      s.device_time_s = f->timestamp_s;
      s.target_id = b->id;
      s.x_m = b->x;
      s.y_m = b->y;
      s.z_m = b->z;
      s.has_orientation = TRUE;
      s.qw = b->qw;
      s.qx = b->qx;
      s.qy = b->qy;
      s.qz = b->qz;
      s.rms_m = isfinite (b->mean_error_m) ? b->mean_error_m : NAN;
      s.fix = NB_FIX_TRACKED;
      s.tracking = b->tracking_valid ? NB_TRACKING_OK : NB_TRACKING_LOST;
      sink->sample (&s, sink->user_data);
    }
}

static void
natnet_feed (gpointer ctx, const guint8 *data, gsize len, const NbSink *sink)
{
  NatNetCtx *c = ctx;
  gsize i = 0, off = 0;

  /* Leading '#' lines of a recording. */
  while (c->header && i < len)
    {
      if (c->line_start && data[i] != '#')
        {
          c->header = FALSE;
          break;
        }
      c->line_start = data[i] == '\n';
      if (c->line_start)
        {
          header_line (c);
          c->line_len = 0;
        }
      else if (c->line_len < sizeof c->line - 1)
        c->line[c->line_len++] = (char) data[i];
      i++;
    }
  data += i;
  len -= i;

  while (len > 0)
    {
      gsize take = MIN (len, sizeof c->buf - c->len);

      memcpy (c->buf + c->len, data, take);
      c->len += take;
      data += take;
      len -= take;
      off = 0;
      while (c->len - off >= 4)
        {
          gsize need = 4 + (gsize) (c->buf[off + 2] | c->buf[off + 3] << 8);

          if (c->len - off < need)
            break;
          packet (c, c->buf + off, need, sink);
          off += need;
        }
      memmove (c->buf, c->buf + off, c->len - off);
      c->len -= off;
    }
}

const NbDriver nb_driver_natnet = {
  .name = "natnet",
  .summary = N_("OptiTrack NatNet 3.x/4.x rigid bodies over UDP (unicast or multicast)"),
  .datagrams = TRUE,
  .needs_transport = TRUE,
  .open = natnet_open,
  .configure = natnet_configure,
  .start = natnet_start,
  .stop = natnet_stop,
  .close = natnet_close,
  .feed = natnet_feed,
};
