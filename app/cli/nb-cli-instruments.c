/* navbench-cli replay / acquire — instruments, from recordings and live
 *
 * replay runs a capture through the real driver and device path (the test
 * harness for drivers, gpsd's regression style): one JSON object per
 * decoded sample with --json.  acquire opens a live instrument (serial,
 * TCP, UDP, or the simulator), prints samples as they come and a rate and
 * quality summary at the end, and can keep them in a CSV file.
 * Decode problems are warnings on stderr as "navbench-cli: FILE:LINE:
 * reason"; they do not stop a replay, and its end says how many records
 * were skipped.  A capture without a single sample is an error (exit 2).
 */
#include "nb-cli.h"

#include "nb-device.h"
#include "nb-error.h"
#include "nb-number.h"
#include "nb-swar.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Compact JSON, one object per line (nb-json-writer indents for people),
 * written straight into a buffer: at replay speed printf and a GString per
 * field would cost more than decoding the sentence. */
#define SAMPLE_JSON_MAX 1024

static char *
put (char *p, const char *text, gsize len)
{
  memcpy (p, text, len);
  return p + len;
}

#define PUT_LITERAL(p, lit) put ((p), (lit), sizeof (lit) - 1)

static char *
put_string (char *p, const char *text)
{
  return put (p, text, strlen (text));
}

/* A NUL-terminated name in a char array of 8 or 16 bytes (NbSample's
 * source and tag): the whole array is copied and the NUL found a word at
 * a time, no call. */
#define PUT_ARRAY(p, array) put_array ((p), (array), sizeof (array))

static char *
put_array (char *p, const char *array, gsize size)
{
  guint64 lo = nb_swar_load8 (array), zero = nb_swar_equal (lo, 0);

  memcpy (p, array, 8);
  if (zero != 0 || size < 16)
    return p + (zero != 0 ? nb_swar_first (zero) : (int) strnlen (array, size));
  {
    guint64 hi = nb_swar_load8 (array + 8);

    memcpy (p + 8, array + 8, 8);
    zero = nb_swar_equal (hi, 0);
    return p + (zero != 0 ? 8 + nb_swar_first (zero) : (int) strnlen (array, size));
  }
}

/* The numbers of consecutive samples repeat (a GGA and the RMC of the same
 * epoch carry one position and time; t is device_time in a replay): each
 * field keeps the last number it wrote, by its bits, and device_time
 * looks at t's too.  (One slot a field: a comparison, where a table
 * shared by all the fields was a hash and a probe per number.) */
enum {
  MEMO_T, MEMO_DEVICE_TIME, MEMO_X, MEMO_Y, MEMO_Z, MEMO_QW, MEMO_QX, MEMO_QY, MEMO_QZ,
  MEMO_HEADING, MEMO_LAT, MEMO_LON, MEMO_ALT, MEMO_RMS, MEMO_HDOP, MEMO_FIELDS
};

typedef struct {
  guint64 bits[MEMO_FIELDS];
  guint8 len[MEMO_FIELDS];          /* 0: empty */
  char text[MEMO_FIELDS][NB_DOUBLE_BUF_SIZE];
  /* The last line after its tag, and the sample it was written from: the
   * sentences of one epoch (GGA, RMC, …) are one fix, and the line of the
   * second differs from the first's by its tag alone. */
  const char *name[2];              /* the last fix and tracking names, */
  gsize name_len[2];                /* and their lengths */
  gboolean has_last;
  NbSample last;
  gsize tail_len;
  char tail[SAMPLE_JSON_MAX];
} NumberMemo;

G_STATIC_ASSERT (NB_DOUBLE_BUF_SIZE >= 32);

static inline char *
put_double (char *p, double v, NumberMemo *memo, int field)
{
  guint64 bits;

  if (!isfinite (v))
    return PUT_LITERAL (p, "null");
  if (memo == NULL)
    return p + nb_format_double (p, v);
  memcpy (&bits, &v, sizeof bits);
  if (G_UNLIKELY (memo->len[field] == 0 || memo->bits[field] != bits))
    {
      if (field == MEMO_DEVICE_TIME && memo->len[MEMO_T] != 0 && memo->bits[MEMO_T] == bits)
        {
          memcpy (memo->text[field], memo->text[MEMO_T], 32);
          memo->len[field] = memo->len[MEMO_T];
        }
      else
        {
          /* Formatted into the line, then kept: the line's next bytes do
           * not wait on a wide load of what was just written narrow. */
          memo->len[field] = (guint8) nb_format_double (p, v);
          memcpy (memo->text[field], p, 32);
        }
      memo->bits[field] = bits;
    }
  /* a fixed-size copy (the line has the room): no call */
  memcpy (p, memo->text[field], 32);
  return p + memo->len[field];
}

/* A name of the sample's (fix, tracking: static strings), its length
 * looked up again only when the name changes. */
static inline char *
put_name (char *p, const char *name, NumberMemo *m, int slot)
{
  if (m == NULL)
    return put_string (p, name);
  if (m->name[slot] != name)
    {
      m->name[slot] = name;
      m->name_len[slot] = strlen (name);
    }
  return put (p, name, m->name_len[slot]);
}

static char *
put_int (char *p, int v)
{
  char d[12];
  int n = 0;
  unsigned u = v < 0 ? 0u - (unsigned) v : (unsigned) v;

  if (v < 0)
    *p++ = '-';
  do
    d[n++] = (char) ('0' + u % 10);
  while ((u /= 10) != 0);
  while (n > 0)
    *p++ = d[--n];
  return p;
}

static inline guint64
bits_of (double v)
{
  guint64 b;

  memcpy (&b, &v, sizeof b);
  return b;
}

/* Whether a and b give the same JSON after the tag: every field written
 * there, doubles by their bits (a false "differ" only costs the
 * formatting). */
static inline gboolean
same_after_tag (const NbSample *a, const NbSample *b)
{
  guint64 d = (bits_of (a->t_s) ^ bits_of (b->t_s)) |
              (bits_of (a->device_time_s) ^ bits_of (b->device_time_s)) |
              (bits_of (a->x_m) ^ bits_of (b->x_m)) | (bits_of (a->y_m) ^ bits_of (b->y_m)) |
              (bits_of (a->z_m) ^ bits_of (b->z_m)) |
              (bits_of (a->heading_deg) ^ bits_of (b->heading_deg)) |
              (bits_of (a->rms_m) ^ bits_of (b->rms_m)) | (bits_of (a->hdop) ^ bits_of (b->hdop)) |
              (guint64) (guint) ((a->has_orientation ^ b->has_orientation) |
                                 (a->has_geodetic ^ b->has_geodetic) |
                                 ((int) a->fix ^ (int) b->fix) |
                                 ((int) a->tracking ^ (int) b->tracking) |
                                 (a->satellites ^ b->satellites) | (a->target_id ^ b->target_id));

  if (d != 0)
    return FALSE;
  if (a->has_geodetic &&
      ((bits_of (a->lat_deg) ^ bits_of (b->lat_deg)) | (bits_of (a->lon_deg) ^ bits_of (b->lon_deg)) |
       (bits_of (a->alt_m) ^ bits_of (b->alt_m))) != 0)
    return FALSE;
  return !a->has_orientation ||
         ((bits_of (a->qw) ^ bits_of (b->qw)) | (bits_of (a->qx) ^ bits_of (b->qx)) |
          (bits_of (a->qy) ^ bits_of (b->qy)) | (bits_of (a->qz) ^ bits_of (b->qz))) == 0;
}

static gsize format_sample_tail (char *p, const NbSample *s, NumberMemo *m);

/* One sample as one line of JSON (names are plain ASCII, no escaping) into
 * line (SAMPLE_JSON_MAX bytes); returns its length. */
static gsize
format_sample_json (char *line, const NbSample *s, NumberMemo *m)
{
  char *p = line;

  p = PUT_LITERAL (p, "{\"source\":\"");
  p = PUT_ARRAY (p, s->source);
  p = PUT_LITERAL (p, "\",\"tag\":\"");
  p = PUT_ARRAY (p, s->tag);
  p = PUT_LITERAL (p, "\"");
  if (m == NULL)
    p += format_sample_tail (p, s, NULL);
  else if (m->has_last && same_after_tag (&m->last, s))
    {
      memcpy (p, m->tail, m->tail_len);
      p += m->tail_len;
    }
  else
    {
      m->tail_len = format_sample_tail (p, s, m);
      memcpy (m->tail, p, m->tail_len);
      m->last = *s;
      m->has_last = TRUE;
      p += m->tail_len;
    }
  g_assert ((gsize) (p - line) < SAMPLE_JSON_MAX);
  return (gsize) (p - line);
}

/* The line after the tag: the id, the numbers, the quality; returns its
 * length. */
static gsize
format_sample_tail (char *tail, const NbSample *s, NumberMemo *m)
{
  char *p = tail;

  if (s->target_id >= 0)
    p = put_int (PUT_LITERAL (p, ",\"id\":"), s->target_id);
  p = put_double (PUT_LITERAL (p, ",\"t\":"), s->t_s, m, MEMO_T);
  p = put_double (PUT_LITERAL (p, ",\"device_time\":"), s->device_time_s, m, MEMO_DEVICE_TIME);
  p = put_double (PUT_LITERAL (p, ",\"x\":"), s->x_m, m, MEMO_X);
  p = put_double (PUT_LITERAL (p, ",\"y\":"), s->y_m, m, MEMO_Y);
  p = put_double (PUT_LITERAL (p, ",\"z\":"), s->z_m, m, MEMO_Z);
  if (s->has_orientation)
    {
      p = put_double (PUT_LITERAL (p, ",\"q\":["), s->qw, m, MEMO_QW);
      p = put_double (PUT_LITERAL (p, ","), s->qx, m, MEMO_QX);
      p = put_double (PUT_LITERAL (p, ","), s->qy, m, MEMO_QY);
      p = put_double (PUT_LITERAL (p, ","), s->qz, m, MEMO_QZ);
      p = PUT_LITERAL (p, "]");
    }
  if (isfinite (s->heading_deg))
    p = put_double (PUT_LITERAL (p, ",\"heading\":"), s->heading_deg, m, MEMO_HEADING);
  if (s->has_geodetic)
    {
      p = put_double (PUT_LITERAL (p, ",\"lat\":"), s->lat_deg, m, MEMO_LAT);
      p = put_double (PUT_LITERAL (p, ",\"lon\":"), s->lon_deg, m, MEMO_LON);
      p = put_double (PUT_LITERAL (p, ",\"alt\":"), s->alt_m, m, MEMO_ALT);
    }
  p = put_name (PUT_LITERAL (p, ",\"fix\":\""), nb_fix_type_name (s->fix), m, 0);
  p = put_name (PUT_LITERAL (p, "\",\"tracking\":\""), nb_tracking_name (s->tracking), m, 1);
  p = put_double (PUT_LITERAL (p, "\",\"rms\":"), s->rms_m, m, MEMO_RMS);
  if (isfinite (s->hdop))
    p = put_double (PUT_LITERAL (p, ",\"hdop\":"), s->hdop, m, MEMO_HDOP);
  if (s->satellites >= 0)
    p = put_int (PUT_LITERAL (p, ",\"satellites\":"), s->satellites);
  p = PUT_LITERAL (p, "}\n");
  return (gsize) (p - tail);
}

static void
key_number (GString *out, const char *key, double v)
{
  char b[NB_DOUBLE_BUF_SIZE];

  put_double (b, v, NULL, 0)[0] = '\0';
  g_string_append_printf (out, ",\"%s\":%s", key, b);
}

static void
append_sample_json (GString *out, const NbSample *s)
{
  char line[SAMPLE_JSON_MAX];

  g_string_append_len (out, line, (gssize) format_sample_json (line, s, NULL));
}

static void
append_sample_text (GString *out, const NbSample *s)
{
  char b[8][G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_printf (out, "%-6s %-6s t=%s x=%s y=%s z=%s heading=%s fix=%s tracking=%s rms=%s\n",
                          s->source, s->tag,
                          g_ascii_formatd (b[0], sizeof b[0], "%.3f", s->t_s),
                          g_ascii_formatd (b[1], sizeof b[1], "%.4f", s->x_m),
                          g_ascii_formatd (b[2], sizeof b[2], "%.4f", s->y_m),
                          g_ascii_formatd (b[3], sizeof b[3], "%.4f", s->z_m),
                          g_ascii_formatd (b[4], sizeof b[4], "%.2f", s->heading_deg),
                          nb_fix_type_name (s->fix), nb_tracking_name (s->tracking),
                          g_ascii_formatd (b[5], sizeof b[5], "%.4f", s->rms_m));
}

/* A driver's "line N: reason" becomes "FILE:N: reason". */
static void
print_note (const char *file, const char *message)
{
  guint64 line;
  char *end;

  if (file != NULL && g_str_has_prefix (message, "line ") &&
      (line = g_ascii_strtoull (message + 5, &end, 10)) > 0 && g_str_has_prefix (end, ": "))
    g_printerr ("navbench-cli: %s:%" G_GUINT64_FORMAT ": %s\n", file, line, end + 2);
  else
    g_printerr ("navbench-cli: %s%s%s\n", file ? file : "", file ? ": " : "", message);
}

/* ------------------------------------------------------------ replay -- */

/* The output of a replay streams: memory stays flat whatever the length of
 * the capture (a day of GNSS at 10 Hz, gigabytes).  Bad input (no such
 * capture, bad settings) is refused before anything is written; a read
 * failure midway is a runtime failure (exit 1) after what was decoded. */
#define OUT_BUFFER_BYTES (256 * 1024)

typedef struct {
  const char *capture;
  gboolean json, quiet;
  guint64 samples, notes;
  GError *error;              /* the first failure: a fatal event, a write */
  NumberMemo memo;
  char *buf;
  gsize len;
} Replay;

static gboolean
replay_flush (Replay *r)
{
  gboolean ok;

  if (r->len == 0 || r->error != NULL)
    return r->error == NULL;
  r->buf[r->len] = '\0';
  ok = nb_cli_write (r->buf, &r->error);
  r->len = 0;
  return ok;
}

static gboolean
on_replay_event (const NbEvent *e, gpointer user_data)
{
  Replay *r = user_data;

  switch (e->kind)
    {
    case NB_EVENT_SAMPLE:
      r->samples++;
      if (r->len + SAMPLE_JSON_MAX + 512 >= OUT_BUFFER_BYTES && !replay_flush (r))
        return FALSE;
      if (r->json)
        r->len += format_sample_json (r->buf + r->len, &e->sample, &r->memo);
      else
        {
          g_autoptr (GString) line = g_string_new (NULL);

          append_sample_text (line, &e->sample);
          memcpy (r->buf + r->len, line->str, MIN (line->len, (gsize) 511));
          r->len += MIN (line->len, (gsize) 511);
        }
      return TRUE;
    case NB_EVENT_NOTE:
      r->notes++;
      if (!r->quiet)
        print_note (r->capture, e->message);
      return TRUE;
    case NB_EVENT_ERROR:
      g_set_error (&r->error, NB_ERROR, e->error_code, "%s", e->message);
      return FALSE;
    case NB_EVENT_END:
    case NB_EVENT_CONNECTED:
    case NB_EVENT_LOST:
    default:
      return TRUE;
    }
}

int
nb_cli_replay (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbDevice) device = NULL;
  g_autofree char *driver = NULL, *capture = NULL, *pace = NULL, *buf = NULL;
  g_auto (GStrv) settings = NULL;
  gboolean json = FALSE, quiet = FALSE;
  Replay r = { 0 };
  GOptionEntry entries[] = {
    { "driver", 0, 0, G_OPTION_ARG_STRING, &driver, "the instrument driver (nmea, csv, tum, …)",
      "NAME" },
    { "capture", 0, 0, G_OPTION_ARG_FILENAME, &capture, "the recorded capture", "F" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object per decoded sample", NULL },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &settings,
      "a driver setting, such as origin=LAT,LON,H for nmea (repeatable)", "KEY=VALUE" },
    { "pace", 0, 0, G_OPTION_ARG_STRING, &pace,
      "fast (default) or recorded (the capture's own timing)", "PACE" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no decode warnings on stderr", NULL },
    { NULL }
  };

  g_option_context_set_summary (context,
    "Replays a recorded instrument capture through its driver: the harness for\n"
    "driver regression tests.  Decode problems are warnings on stderr.  The\n"
    "output streams (constant memory for any length of capture); a capture may\n"
    "be a pipe or FIFO (--capture file:/dev/stdin).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (driver == NULL || capture == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--driver NAME and --capture F are required");
      return nb_cli_report_error (error);
    }
  if ((device = nb_device_new (driver, &error)) == NULL ||
      !nb_device_configure (device, "url", capture, &error) ||
      (pace != NULL && !nb_device_configure (device, "pace", pace, &error)) ||
      !nb_device_apply_settings (device, settings, &error))
    return nb_cli_report_error (error);

  r.capture = capture;
  r.json = json;
  r.quiet = quiet;
  r.buf = buf = g_malloc (OUT_BUFFER_BYTES);
  if (!nb_device_run (device, on_replay_event, &r, &error))
    return nb_cli_report_error (error);
  /* A capture that yields nothing is the wrong file or driver, not an
   * empty success (nothing was written: no sample, no line); a partial one
   * says how much it skipped. */
  if (r.error == NULL && r.samples == 0)
    g_set_error (&r.error, NB_ERROR, NB_ERROR_INPUT, "%s: no sample decoded by driver %s (%"
                 G_GUINT64_FORMAT " decode warning%s)", capture, driver, r.notes,
                 r.notes == 1 ? "" : "s");
  else if (r.error == NULL && r.notes > 0)
    g_printerr ("navbench-cli: %s: %" G_GUINT64_FORMAT " sample%s decoded, %" G_GUINT64_FORMAT
                " record%s skipped\n", capture, r.samples, r.samples == 1 ? "" : "s", r.notes,
                r.notes == 1 ? "" : "s");
  if (r.error == NULL && !json)
    r.len += (gsize) g_snprintf (r.buf + r.len, 128, "%" G_GUINT64_FORMAT " samples, %"
                                 G_GUINT64_FORMAT " decode warnings\n", r.samples, r.notes);
  replay_flush (&r);
  if (r.error != NULL)
    {
      g_propagate_error (&error, r.error);
      return nb_cli_report_error (error);
    }
  return NB_EXIT_OK;
}

/* ----------------------------------------------------------- acquire -- */

static void
csv_row (FILE *f, const NbSample *s)
{
  char b[16][G_ASCII_DTOSTR_BUF_SIZE];
  double v[] = { s->t_s, s->device_time_s, s->x_m, s->y_m, s->z_m, s->qw, s->qx, s->qy, s->qz,
                 s->heading_deg, s->lat_deg, s->lon_deg, s->alt_m, s->rms_m, s->hdop };

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    {
      if (isfinite (v[i]))
        g_ascii_formatd (b[i], sizeof b[i], "%.17g", v[i]);
      else
        b[i][0] = '\0';
    }
  fprintf (f, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,%s,%d\n", b[0], b[1], b[2],
           b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
           nb_fix_type_name (s->fix), b[13], b[14], s->satellites,
           nb_tracking_name (s->tracking), s->target_id);
}

int
nb_cli_acquire (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbDevice) device = NULL;
  g_autofree char *driver = NULL, *port = NULL, *url = NULL, *framing = NULL, *flow = NULL;
  g_autofree char *out_path = NULL;
  g_auto (GStrv) settings = NULL;
  int baud = 0;
  double duration = 10.0, latency = 0.0;
  gboolean quiet = FALSE, json = FALSE;
  FILE *csv = NULL;
  guint64 samples = 0, notes = 0, losses = 0, fix_counts[NB_FIX_TRACKED + 1] = { 0 };
  double t_first = NAN, t_last = NAN, rms_sum = 0.0;
  guint64 rms_n = 0;
  double start, deadline;
  int status = NB_EXIT_OK;
  GOptionEntry entries[] = {
    { "driver", 0, 0, G_OPTION_ARG_STRING, &driver, "the instrument driver (default sim)",
      "NAME" },
    { "port", 0, 0, G_OPTION_ARG_FILENAME, &port, "a serial port", "P" },
    { "baud", 0, 0, G_OPTION_ARG_INT, &baud, "the serial baud rate (default 9600)", "B" },
    { "framing", 0, 0, G_OPTION_ARG_STRING, &framing, "serial framing (default 8N1)", "8N1" },
    { "flow", 0, 0, G_OPTION_ARG_STRING, &flow,
      "serial flow control: none, xonxoff, rtscts, dtrdsr", "FLOW" },
    { "url", 0, 0, G_OPTION_ARG_STRING, &url,
      "tcp://HOST:PORT, udp://GROUP:PORT, udp://ADDR:PORT or a file", "U" },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration, "seconds to acquire (default 10)", "S" },
    { "latency", 0, 0, G_OPTION_ARG_DOUBLE, &latency,
      "the instrument's latency, subtracted from every timestamp (s)", "S" },
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &out_path, "keep the samples in a CSV file", "F.csv" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &settings, "a driver setting (repeatable)",
      "KEY=VALUE" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "samples and the summary as JSON lines", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "print only the summary", NULL },
    { NULL }
  };

  g_option_context_set_summary (context,
    "Acquires samples from a live instrument (or the simulator), prints them as\n"
    "they arrive and a rate and quality summary at the end.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (!(duration > 0.0) || !isfinite (duration))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--duration must be positive");
      return nb_cli_report_error (error);
    }
  if (port != NULL && url != NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "give --port or --url, not both");
      return nb_cli_report_error (error);
    }
  if ((device = nb_device_new (driver ? driver : "sim", &error)) == NULL ||
      (port != NULL && !nb_device_configure (device, "port", port, &error)) ||
      (url != NULL && !nb_device_configure (device, "url", url, &error)))
    return nb_cli_report_error (error);
  if (baud != 0)
    {
      g_autofree char *text = g_strdup_printf ("%d", baud);

      if (!nb_device_configure (device, "baud", text, &error))
        return nb_cli_report_error (error);
    }
  if ((framing != NULL && !nb_device_configure (device, "framing", framing, &error)) ||
      (flow != NULL && !nb_device_configure (device, "flow", flow, &error)) ||
      !nb_device_apply_settings (device, settings, &error))
    return nb_cli_report_error (error);
  if (latency != 0.0)
    {
      char b[G_ASCII_DTOSTR_BUF_SIZE];

      if (!nb_device_configure (device, "latency", g_ascii_dtostr (b, sizeof b, latency), &error))
        return nb_cli_report_error (error);
    }
  if (out_path != NULL)
    {
      if ((csv = fopen (out_path, "w")) == NULL)
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", out_path, g_strerror (errno));
          return nb_cli_report_error (error);
        }
      fputs ("t_s,device_time_s,x_m,y_m,z_m,qw,qx,qy,qz,heading_deg,lat_deg,lon_deg,alt_m,fix,"
             "rms_m,hdop,satellites,tracking,target_id\n", csv);
    }
  /* The window is on the events' own clock (their arrival, nb_device_now's),
   * from before the device starts: no sample can predate it, one that
   * arrived after its end is not taken, and one that arrived in it is taken
   * however late this thread gets to it.  Timed by this thread alone, a
   * 100 Hz simulator gave up to 120 samples in "1 s" at load 20 (its worker
   * started, and stamped samples, before this thread read the clock). */
  start = nb_device_now ();
  deadline = start + duration;
  if (!nb_device_start (device, &error))
    {
      if (csv)
        fclose (csv);
      return nb_cli_report_error (error);
    }

  for (gboolean done = FALSE; !done;)
    {
      NbEvent e;
      double now = nb_device_now ();
      g_autoptr (GString) line = g_string_new (NULL);

      /* Past the end: only what has already arrived. */
      if (!nb_device_next (device, now < deadline ? (gint64) (MIN (0.1, deadline - now) * 1e6) : 0,
                           &e))
        {
          if (now >= deadline)
            break;
          continue;
        }
      if (e.t_s > deadline)
        {
          nb_event_clear (&e);
          break;
        }
      switch (e.kind)
        {
        case NB_EVENT_SAMPLE:
          samples++;
          if (isnan (t_first))
            t_first = e.sample.t_s;
          t_last = e.sample.t_s;
          fix_counts[MIN ((guint) e.sample.fix, (guint) NB_FIX_TRACKED)]++;
          if (isfinite (e.sample.rms_m))
            {
              rms_sum += e.sample.rms_m;
              rms_n++;
            }
          if (csv)
            csv_row (csv, &e.sample);
          if (!quiet)
            {
              if (json)
                append_sample_json (line, &e.sample);
              else
                append_sample_text (line, &e.sample);
              fputs (line->str, stdout);
              fflush (stdout);
            }
          break;
        case NB_EVENT_NOTE:
          notes++;
          if (!quiet)
            print_note (NULL, e.message);
          break;
        case NB_EVENT_LOST:
          losses++;
          g_printerr ("navbench-cli: link lost: %s\n", e.message);
          break;
        case NB_EVENT_CONNECTED:
          if (losses > 0)
            g_printerr ("navbench-cli: link back: %s\n", e.message ? e.message : "");
          break;
        case NB_EVENT_END:
          done = TRUE;
          break;
        case NB_EVENT_ERROR:
        default:
          g_set_error (&error, NB_ERROR, e.error_code, "%s", e.message);
          status = nb_cli_report_error (error);
          done = TRUE;
          break;
        }
      nb_event_clear (&e);
    }
  nb_device_stop (device);
  if (csv != NULL && fclose (csv) != 0 && status == NB_EXIT_OK)
    {
      g_printerr ("navbench-cli: %s: write failed\n", out_path);
      status = NB_EXIT_FAILURE;
    }
  if (status != NB_EXIT_OK)
    return status;

  {
    g_autoptr (GString) summary = g_string_new ("{\"summary\":true");
    double span = t_last - t_first, rate = samples > 1 && span > 0 ? (double) (samples - 1) / span
                                                                  : NAN;

    g_string_append_printf (summary, ",\"samples\":%" G_GUINT64_FORMAT, samples);
    key_number (summary, "duration_s", isfinite (span) ? span : 0.0);
    key_number (summary, "rate_hz", rate);
    key_number (summary, "mean_rms_m", rms_n > 0 ? rms_sum / (double) rms_n : NAN);
    g_string_append_printf (summary, ",\"decode_warnings\":%" G_GUINT64_FORMAT
                            ",\"link_losses\":%" G_GUINT64_FORMAT ",\"fix\":{", notes, losses);
    for (guint i = 0, first = 1; i <= NB_FIX_TRACKED; i++)
      if (fix_counts[i] > 0)
        {
          g_string_append_printf (summary, "%s\"%s\":%" G_GUINT64_FORMAT, first ? "" : ",",
                                  nb_fix_type_name ((NbFixType) i), fix_counts[i]);
          first = 0;
        }
    g_string_append (summary, "}}");
    if (json)
      printf ("%s\n", summary->str);
    else
      {
        char b[2][G_ASCII_DTOSTR_BUF_SIZE];

        printf ("%" G_GUINT64_FORMAT " samples in %s s (%s Hz), %" G_GUINT64_FORMAT
                " decode warnings, %" G_GUINT64_FORMAT " link losses; fix:",
                samples, g_ascii_formatd (b[0], sizeof b[0], "%.2f", isfinite (span) ? span : 0.0),
                g_ascii_formatd (b[1], sizeof b[1], "%.1f", isfinite (rate) ? rate : 0.0),
                notes, losses);
        for (guint i = 0; i <= NB_FIX_TRACKED; i++)
          if (fix_counts[i] > 0)
            printf (" %s %" G_GUINT64_FORMAT, nb_fix_type_name ((NbFixType) i), fix_counts[i]);
        printf ("\n");
      }
  }
  return fflush (stdout) == 0 ? NB_EXIT_OK : NB_EXIT_FAILURE;
}
