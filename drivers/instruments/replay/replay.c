/* replay.c — the csv and tum drivers: poses exported by other tools
 *
 * csv: a header line names the columns; settings map them ("x" = "X_mm",
 * …) and give the units, so a tracker's own export replays unchanged.
 * tum: the TUM RGB-D trajectory format evo uses, "t tx ty tz qx qy qz qw"
 * per line, metres and seconds, '#' comments.
 * Both cut lines with a fixed buffer; a bad line is a note naming it.
 */
#include "nb-driver.h"

#include "nb-error.h"
#include "nb-record-words.h"
#include "nb-number.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#define LINE_MAX_BYTES 4096
#define MAX_COLUMNS 64

enum { COL_T, COL_X, COL_Y, COL_Z, COL_YAW, COL_QX, COL_QY, COL_QZ, COL_QW, N_ROLES };

static const char *const role_keys[N_ROLES] = { "t", "x", "y", "z", "yaw", "qx", "qy", "qz",
                                                "qw" };

typedef struct {
  gboolean tum;
  char line[LINE_MAX_BYTES];
  gsize len;
  gboolean overflow;
  guint64 line_no;
  /* csv */
  char *names[N_ROLES];       /* the column each role reads */
  int index[N_ROLES];         /* its position, −1 absent; set from the header */
  gboolean have_header;
  char delimiter;
  double length_scale, angle_scale, time_scale;
  const NbSink *sink;
} ReplayCtx;

static gpointer
open_common (gboolean tum)
{
  ReplayCtx *c = g_new0 (ReplayCtx, 1);

  c->tum = tum;
  for (int i = 0; i < N_ROLES; i++)
    c->names[i] = g_strdup (role_keys[i]);
  c->delimiter = tum ? ' ' : ',';
  c->length_scale = c->angle_scale = c->time_scale = 1.0;
  if (!tum)
    c->angle_scale = G_PI / 180.0;   /* CSV yaw in degrees unless told */
  return c;
}

static gpointer
csv_open (GError **error)
{
  return open_common (FALSE);
}

static gpointer
tum_open (GError **error)
{
  return open_common (TRUE);
}

static gboolean
pick_scale (const char *key, const char *value, const char *const *names, const double *scales,
            double *out, GError **error)
{
  g_autofree char *list = NULL;

  for (guint i = 0; names[i] != NULL; i++)
    if (g_str_equal (value, names[i]))
      {
        *out = scales[i];
        return TRUE;
      }
  list = g_strjoinv (", ", (char **) names);
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s '%s' is not one of %s", key, value, list);
  return FALSE;
}

static gboolean
replay_configure (gpointer ctx, const char *key, const char *value, GError **error)
{
  ReplayCtx *c = ctx;
  static const char *const lengths[] = { "m", "cm", "mm", NULL };
  static const double length_scales[] = { 1.0, 0.01, 0.001 };
  static const char *const angles[] = { "rad", "deg", NULL };
  static const double angle_scales[] = { 1.0, G_PI / 180.0 };
  static const char *const times[] = { "s", "ms", "us", "ns", NULL };
  static const double time_scales[] = { 1.0, 1e-3, 1e-6, 1e-9 };

  if (c->tum)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "driver tum has no settings (the format fixes metres and seconds)");
      return FALSE;
    }
  for (int i = 0; i < N_ROLES; i++)
    if (g_str_equal (key, role_keys[i]))
      {
        g_free (c->names[i]);
        c->names[i] = g_strdup (value);
        return TRUE;
      }
  if (g_str_equal (key, "unit"))
    return pick_scale (key, value, lengths, length_scales, &c->length_scale, error);
  if (g_str_equal (key, "angle-unit"))
    return pick_scale (key, value, angles, angle_scales, &c->angle_scale, error);
  if (g_str_equal (key, "time-unit"))
    return pick_scale (key, value, times, time_scales, &c->time_scale, error);
  if (g_str_equal (key, "delimiter"))
    {
      if (g_str_equal (value, "tab"))
        c->delimiter = '\t';
      else if (strlen (value) == 1 && strchr (",; ", value[0]) != NULL)
        c->delimiter = value[0];
      else
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "delimiter '%s' is not ',', ';', ' ' or tab", value);
          return FALSE;
        }
      return TRUE;
    }
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
               NB_MSG_NO_SETTING_OF, "csv", key,
               "t x y z yaw qx qy qz qw unit angle-unit time-unit delimiter");
  return FALSE;
}

static gboolean
replay_start (gpointer ctx, GError **error)
{
  ReplayCtx *c = ctx;

  c->len = 0;
  c->overflow = FALSE;
  c->line_no = 0;
  c->have_header = FALSE;
  return TRUE;
}

static void
replay_stop (gpointer ctx)
{
}

static void
replay_close (gpointer ctx)
{
  ReplayCtx *c = ctx;

  for (int i = 0; i < N_ROLES; i++)
    g_free (c->names[i]);
  g_free (c);
}

static void
note (ReplayCtx *c, const char *format, const char *detail)
{
  g_autofree char *m = NULL;

  if (c->sink->note == NULL)
    return;
  m = g_strdup_printf ("line %" G_GUINT64_FORMAT ": %s%s", c->line_no, format,
                       detail ? detail : "");
  c->sink->note (m, c->sink->user_data);
}

/* Splits in place; TUM runs of blanks count as one separator. */
static guint
split (char *line, char delimiter, char **fields)
{
  guint n = 0;
  char *p = line;

  if (delimiter == ' ')
    {
      while (n < MAX_COLUMNS)
        {
          while (*p == ' ' || *p == '\t')
            p++;
          if (*p == '\0')
            break;
          fields[n++] = p;
          while (*p != '\0' && *p != ' ' && *p != '\t')
            p++;
          if (*p != '\0')
            *p++ = '\0';
        }
      return n;
    }
  fields[n++] = p;
  for (; *p != '\0' && n < MAX_COLUMNS; p++)
    if (*p == delimiter)
      {
        *p = '\0';
        fields[n++] = p + 1;
      }
  return n;
}

static void
header (ReplayCtx *c, char **fields, guint n)
{
  for (int r = 0; r < N_ROLES; r++)
    {
      c->index[r] = -1;
      for (guint i = 0; i < n; i++)
        if (g_str_equal (g_strstrip (fields[i]), c->names[r]))
          c->index[r] = (int) i;
    }
  c->have_header = TRUE;
  if (c->index[COL_X] < 0 || c->index[COL_Y] < 0)
    note (c, "the header has no column for x or y: ", c->names[c->index[COL_X] < 0 ? COL_X
                                                                                      : COL_Y]);
}

static gboolean
number (ReplayCtx *c, char **fields, guint n, int index, double *out)
{
  const char *f;

  if (index < 0 || (guint) index >= n)
    return FALSE;
  f = fields[index];
  while (*f == ' ')
    f++;
  if (!nb_parse_double (f, strlen (f), out))
    {
      note (c, "not a number: ", fields[index]);
      return FALSE;
    }
  return TRUE;
}

static void
line_done (ReplayCtx *c)
{
  char *fields[MAX_COLUMNS];
  guint n;
  NbSample s;
  double v[N_ROLES];
  gboolean have[N_ROLES];

  c->line_no++;
  c->line[c->len] = '\0';
  if (c->len > 0 && c->line[c->len - 1] == '\r')
    c->line[--c->len] = '\0';
  if (c->overflow)
    {
      note (c, "longer than 4096 bytes", NULL);
      return;
    }
  if (c->len == 0 || c->line[0] == '#')
    return;
  n = split (c->line, c->delimiter, fields);
  nb_sample_init (&s, c->tum ? "tum" : "csv");
  g_strlcpy (s.tag, c->tum ? "tum" : "csv", sizeof s.tag);
  if (c->tum)
    {
      if (n != 8)
        {
          note (c, "not 8 fields t tx ty tz qx qy qz qw", NULL);
          return;
        }
      for (int i = 0; i < 8; i++)
        if (!nb_parse_double (fields[i], strlen (fields[i]), &v[i]))
          {
            note (c, "not a number: ", fields[i]);
            return;
          }
      s.device_time_s = v[0];
      s.x_m = v[1];
      s.y_m = v[2];
      s.z_m = v[3];
      s.has_orientation = TRUE;
      s.qx = v[4];
      s.qy = v[5];
      s.qz = v[6];
      s.qw = v[7];
    }
  else
    {
      if (!c->have_header)
        {
          header (c, fields, n);
          return;
        }
      if (c->index[COL_X] < 0 || c->index[COL_Y] < 0)
        return;
      for (int r = 0; r < N_ROLES; r++)
        {
          have[r] = c->index[r] >= 0;
          if (have[r] && !number (c, fields, n, c->index[r], &v[r]))
            return;
        }
      if (have[COL_T])
        s.device_time_s = v[COL_T] * c->time_scale;
      s.x_m = v[COL_X] * c->length_scale;
      s.y_m = v[COL_Y] * c->length_scale;
      s.z_m = have[COL_Z] ? v[COL_Z] * c->length_scale : 0.0;
      if (have[COL_YAW])
        {
          double half = 0.5 * v[COL_YAW] * c->angle_scale;

          s.heading_deg = v[COL_YAW] * c->angle_scale * 180.0 / G_PI;
          s.has_orientation = TRUE;
          s.qw = cos (half);
          s.qz = sin (half);
        }
      if (have[COL_QX] && have[COL_QY] && have[COL_QZ] && have[COL_QW])
        {
          s.has_orientation = TRUE;
          s.qx = v[COL_QX];
          s.qy = v[COL_QY];
          s.qz = v[COL_QZ];
          s.qw = v[COL_QW];
        }
    }
  if (s.has_orientation)
    {
      double norm = sqrt (s.qw * s.qw + s.qx * s.qx + s.qy * s.qy + s.qz * s.qz);

      if (!(fabs (norm - 1.0) < 1e-3))
        {
          note (c, "the quaternion is not of unit length", NULL);
          return;
        }
    }
  s.fix = NB_FIX_TRACKED;
  s.tracking = NB_TRACKING_OK;
  c->sink->sample (&s, c->sink->user_data);
}

static void
replay_feed (gpointer ctx, const guint8 *data, gsize len, const NbSink *sink)
{
  ReplayCtx *c = ctx;

  c->sink = sink;
  for (gsize i = 0; i < len; i++)
    {
      if (data[i] == '\n')
        {
          line_done (c);
          c->len = 0;
          c->overflow = FALSE;
        }
      else if (c->len < sizeof c->line - 1)
        c->line[c->len++] = data[i] == '\0' ? ' ' : (char) data[i];
      else
        c->overflow = TRUE;
    }
  c->sink = NULL;
}

static void
replay_finish (gpointer ctx, const NbSink *sink)
{
  ReplayCtx *c = ctx;

  c->sink = sink;
  if (c->len > 0 || c->overflow)
    line_done (c);
  c->len = 0;
  c->overflow = FALSE;
  c->sink = NULL;
}

const NbDriver nb_driver_csv = {
  .name = "csv",
  .summary = N_("poses from a CSV export (column mapping, units)"),
  .needs_transport = TRUE,
  .open = csv_open,
  .configure = replay_configure,
  .start = replay_start,
  .stop = replay_stop,
  .close = replay_close,
  .feed = replay_feed,
  .finish = replay_finish,
};

const NbDriver nb_driver_tum = {
  .name = "tum",
  .summary = N_("a TUM trajectory (t tx ty tz qx qy qz qw), as evo reads"),
  .needs_transport = TRUE,
  .open = tum_open,
  .configure = replay_configure,
  .start = replay_start,
  .stop = replay_stop,
  .close = replay_close,
  .feed = replay_feed,
  .finish = replay_finish,
};
