/* nmea-protocol.c — NMEA 0183 sentences (see nmea-protocol.h)
 *
 * Field layouts follow NMEA 0183 v4.11 (and the receivers' manuals for the
 * talkers GP, GN, GL, GA, GB, BD).  Numbers are parsed by hand, exactly:
 * a decimal field is an integer mantissa and a power of ten, so the degrees
 * of "4134.49795459" are 41 + (34 + 49795459e-8)/60 with one rounding each,
 * never a strtod of the whole field (locale-free too).
 */
#include "nmea-protocol.h"

#include "nb-angle.h"
#include "nb-swar.h"

#include "nb-error.h"
#include "nb-sample.h"

#include <math.h>
#include <string.h>

#define MAX_FIELDS 40

typedef struct {
  const char *p;
  gsize n;
} Field;

/* The bytes of a sentence between '$' and '*': printable ASCII but '*' and
 * '$'; commas cut fields.  Digits, letters and '.' (all above ',') first. */
enum { BODY_INVALID, BODY_PLAIN, BODY_COMMA };

static inline int
body_class (guint8 ch)
{
  if (G_LIKELY ((guint8) (ch - 0x2d) <= 0x7e - 0x2d))
    return BODY_PLAIN;
  if (ch == ',')
    return BODY_COMMA;
  return ch < 0x20 || ch == '*' || ch == '$' || ch > 0x7e ? BODY_INVALID : BODY_PLAIN;
}

/* The bytes the lexer keeps in a sentence: printable ASCII but the starts
 * '$' and '!'. */
static inline gboolean
lexer_body (guint8 b)
{
  if (G_LIKELY ((guint8) (b - 0x25) <= 0x7e - 0x25))
    return TRUE;
  return b == 0x20 || b == 0x22 || b == 0x23;
}

static const double pow10_table[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
  1e16, 1e17, 1e18,
};

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

/* Unsigned digits → value; FALSE on anything else or more than 18 digits. */
NB_SWAR_INLINE gboolean
parse_digits (const char *p, gsize n, guint64 *out)
{
  guint64 v = 0;

  if (n == 0 || n > 18)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      if (p[i] < '0' || p[i] > '9')
        return FALSE;
      v = v * 10 + (guint64) (p[i] - '0');
    }
  *out = v;
  return TRUE;
}

static const guint64 pow10_u64[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000 };

/* "ddd[.ddd]" (no sign) in one pass: the integer part (at most 18 digits),
 * the first 18 digits of the fraction and how many there were.  FALSE on
 * anything but digits and one point, or no digit at all.  The field is
 * p..end; bytes up to limit (the sentence's end) may be read. */
/* (inlined: its four results then stay in registers) */
NB_SWAR_INLINE gboolean
scan_decimal (const char *p, const char *end, const char *limit, guint64 *ip, gsize *in,
              guint64 *fp, gsize *fn)
{
  guint64 i = 0, f = 0;
  gsize ni = 0, nf = 0;

  /* The usual field, "I[.F]" with I below eight digits and F up to 16, is
   * a word or two or three (nb-swar.h), not a loop per digit; it gives the
   * same integers as the loop below, which takes everything else. */
  if (limit - p >= 8)
    {
      guint64 w = nb_swar_load8 (p), mask = nb_swar_non_digits (w);

      if (mask != 0)
        {
          int n1 = nb_swar_first (mask), n2;
          const char *q = p + n1, *frac = q + 1;

          if (q == end && n1 > 0)
            {
              *ip = nb_swar_digits_value (w, n1);
              *in = (gsize) n1;
              *fp = 0;
              *fn = 0;
              return TRUE;
            }
          if (*q == '.' && limit - frac >= 8)
            {
              guint64 c = nb_swar_load8 (frac), fv;

              if ((mask = nb_swar_non_digits (c)) != 0)
                {
                  n2 = nb_swar_first (mask);
                  fv = nb_swar_digits_value (c, n2);
                }
              else if (limit - frac >= 16 &&
                       (mask = nb_swar_non_digits (nb_swar_load8 (frac + 8))) != 0)
                {
                  int n3 = nb_swar_first (mask);

                  n2 = 8 + n3;
                  fv = nb_swar_eight_digits (c) * pow10_u64[n3] +
                       nb_swar_digits_value (nb_swar_load8 (frac + 8), n3);
                }
              else
                n2 = -1;
              if (n2 >= 0 && frac + n2 == end && n1 + n2 > 0)
                {
                  *ip = nb_swar_digits_value (w, n1);
                  *in = (gsize) n1;
                  *fp = fv;
                  *fn = (gsize) n2;
                  return TRUE;
                }
            }
        }
    }
  for (; p < end; p++)
    {
      unsigned d = (unsigned) (*p - '0');

      if (d > 9)
        break;
      if (++ni > 18)
        return FALSE;
      i = i * 10 + d;
    }
  if (p < end)
    {
      if (*p != '.')
        return FALSE;
      for (p++; p < end; p++)
        {
          unsigned d = (unsigned) (*p - '0');

          if (d > 9)
            return FALSE;
          /* Digits beyond 18 cannot matter at double precision: checked, dropped. */
          if (nf++ < 18)
            f = f * 10 + d;
        }
    }
  if (ni == 0 && nf == 0)
    return FALSE;
  *ip = i;
  *in = ni;
  *fp = f;
  *fn = MIN (nf, (gsize) 18);
  return TRUE;
}

/* "[-+]ddd[.ddd]" → double.  Splits at the point so long fractions keep
 * full precision. */
NB_SWAR_INLINE gboolean
parse_decimal (const Field *f, const char *limit, double *out)
{
  const char *p = f->p, *end = f->p + f->n;
  gboolean negative = FALSE;
  guint64 ip, fp;
  gsize in, fn;

  if (p < end && (*p == '-' || *p == '+'))
    {
      negative = *p == '-';
      p++;
    }
  if (!scan_decimal (p, end, limit, &ip, &in, &fp, &fn))
    return FALSE;
  /* (the integers are below 10^18 < 2^63: a signed conversion, one
   * instruction, gives the same double as the unsigned one) */
  *out = fn > 0 ? (double) (gint64) ip + (double) (gint64) fp / pow10_table[fn]
                : (double) (gint64) ip;
  if (negative)
    *out = -*out;
  return TRUE;
}

NB_SWAR_INLINE gboolean
parse_int (const Field *f, int *out)
{
  guint64 v;

  if (!parse_digits (f->p, f->n, &v) || v > G_MAXINT)
    return FALSE;
  *out = (int) v;
  return TRUE;
}

/* (d)ddmm.mmmm + hemisphere → signed degrees. */
NB_SWAR_INLINE gboolean
parse_angle (const Field *f, const Field *hemi, int degree_digits_max, const char *limit,
             double *out)
{
  guint64 ip, fp;
  gsize in, fn;
  double minutes;
  guint64 degrees;

  if (!scan_decimal (f->p, f->p + f->n, limit, &ip, &in, &fp, &fn) || in < 3 ||
      in > (gsize) degree_digits_max + 2)
    return FALSE;
  minutes = (double) (gint64) (ip % 100);
  if (fn > 0)
    minutes += (double) (gint64) fp / pow10_table[fn];
  degrees = ip / 100;
  if (minutes >= 60.0)
    return FALSE;
  *out = (double) (gint64) degrees + minutes / 60.0;
  if (hemi->n != 1)
    return FALSE;
  switch (hemi->p[0])
    {
    case 'N': case 'E': break;
    case 'S': case 'W': *out = -*out; break;
    default: return FALSE;
    }
  return *out >= -(degree_digits_max == 2 ? 90.0 : 180.0) &&
         *out <= (degree_digits_max == 2 ? 90.0 : 180.0);
}

/* hhmmss[.sss] → seconds of the day. */
NB_SWAR_INLINE gboolean
parse_time (const Field *f, const char *limit, double *out)
{
  guint64 hh, mm;
  double ss;
  Field sec;

  if (f->n < 6 || !parse_digits (f->p, 2, &hh) || !parse_digits (f->p + 2, 2, &mm))
    return FALSE;
  sec = (Field) { f->p + 4, f->n - 4 };
  if (sec.p[0] == '-' || sec.p[0] == '+' || !parse_decimal (&sec, limit, &ss))
    return FALSE;
  /* 60 allows a leap second. */
  if (hh > 23 || mm > 59 || ss >= 61.0)
    return FALSE;
  *out = (double) (gint64) (hh * 3600 + mm * 60) + ss;
  return TRUE;
}

static gboolean
set_date (NbNmeaFix *out, int year, int month, int day)
{
  if (month < 1 || month > 12 || day < 1 || day > 31)
    return FALSE;
  out->year = year;
  out->month = month;
  out->day = day;
  out->has |= NB_NMEA_HAS_DATE;
  return TRUE;
}

/* ddmmyy, two-digit years pivoting at 1980 (GPS epoch) as gpsd does. */
NB_SWAR_INLINE gboolean
parse_date (const Field *f, NbNmeaFix *out)
{
  guint64 d, m, y;

  if (f->n != 6 || !parse_digits (f->p, 2, &d) || !parse_digits (f->p + 2, 2, &m) ||
      !parse_digits (f->p + 4, 2, &y))
    return FALSE;
  return set_date (out, (int) (y < 80 ? 2000 + y : 1900 + y), (int) m, (int) d);
}

int
nb_nmea_quality_to_fix (int quality)
{
  switch (quality)
    {
    case 1: return NB_FIX_GNSS;
    case 2: return NB_FIX_DGNSS;
    case 3: return NB_FIX_PPS;
    case 4: return NB_FIX_RTK_FIXED;
    case 5: return NB_FIX_RTK_FLOAT;
    case 6: return NB_FIX_ESTIMATED;
    case 7: return NB_FIX_MANUAL;
    case 8: return NB_FIX_SIMULATED;
    default: return NB_FIX_NONE;
    }
}

/* FAA mode indicator → GGA-style quality; 0 means no fix. */
static int
mode_quality (char mode)
{
  switch (mode)
    {
    case 'A': return 1;
    case 'D': return 2;
    case 'P': return 3;
    case 'R': return 4;
    case 'F': return 5;
    case 'E': return 6;
    case 'M': return 7;
    case 'S': return 8;
    default: return 0;   /* N, V, unknown */
    }
}

/* (The field readers below are inlined into each sentence's reader: a
 * call per field was a fifth of the parse.) */
typedef struct {
  const Field *f;
  guint n;
  const char *limit;   /* the sentence's end: numbers may read up to it */
  const char *type;
  NbNmeaFieldMemo *memo;   /* NB_NMEA_MEMOS of them, or NULL */
  GError **error;
} Ctx;

G_GNUC_NO_INLINE static gboolean
bad (Ctx *c, guint i, const char *what)
{
  g_set_error (c->error, NB_ERROR, NB_ERROR_INPUT, "%s field %u: %s", c->type, i, what);
  return FALSE;
}

NB_SWAR_INLINE gboolean
empty (const Ctx *c, guint i)
{
  return i >= c->n || c->f[i].n == 0;
}

/* Optional decimal: absent is fine (FALSE in *present), malformed is an error. */
NB_SWAR_INLINE gboolean
opt_decimal (Ctx *c, guint i, double *out, gboolean *present)
{
  *present = FALSE;
  if (empty (c, i))
    return TRUE;
  if (!parse_decimal (&c->f[i], c->limit, out) || !isfinite (*out))
    return bad (c, i, "not a number");
  *present = TRUE;
  return TRUE;
}

/* The low n bytes of a word (n 0…8). */
NB_SWAR_INLINE guint64
memo_mask (gsize n)
{
  return n >= 8 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (8 * n)) - 1;
}

/* Whether f (and its hemisphere letter, or 0) is the memo's text: its
 * value is then the memo's, converted from the same bytes.  A field of up
 * to 16 bytes with 16 readable behind its start is compared as two words
 * (the memo keeps 16 bytes of its text; those past its length do not
 * count). */
NB_SWAR_INLINE gboolean
memo_hit (const NbNmeaFieldMemo *m, const Field *f, char hemi, const char *limit)
{
  if (m == NULL || f->n != m->n || hemi != m->hemi)
    return FALSE;
  if (f->n <= 16 && limit - f->p >= 16)
    return (((nb_swar_load8 (f->p) ^ nb_swar_load8 (m->text)) & memo_mask (f->n)) |
            ((nb_swar_load8 (f->p + 8) ^ nb_swar_load8 (m->text + 8)) &
             (f->n > 8 ? memo_mask (f->n - 8) : 0))) == 0;
  return memcmp (f->p, m->text, f->n) == 0;
}

NB_SWAR_INLINE void
memo_keep (NbNmeaFieldMemo *m, const Field *f, char hemi, const char *limit, double value)
{
  if (m == NULL || f->n >= sizeof m->text)
    return;
  m->n = (guint8) f->n;
  m->hemi = hemi;
  if (f->n <= 16 && limit - f->p >= 16)
    memcpy (m->text, f->p, 16);
  else
    memcpy (m->text, f->p, f->n);
  m->value = value;
}

NB_SWAR_INLINE gboolean
opt_time (Ctx *c, guint i, NbNmeaFix *out)
{
  NbNmeaFieldMemo *m = c->memo != NULL ? &c->memo[NB_NMEA_MEMO_TIME] : NULL;

  if (empty (c, i))
    return TRUE;
  if (memo_hit (m, &c->f[i], 0, c->limit))
    out->time_s = m->value;
  else if (!parse_time (&c->f[i], c->limit, &out->time_s))
    return bad (c, i, "not a time hhmmss.ss");
  else
    memo_keep (m, &c->f[i], 0, c->limit, out->time_s);
  out->has |= NB_NMEA_HAS_TIME;
  return TRUE;
}

/* parse_angle through the memo of the latitude or the longitude. */
NB_SWAR_INLINE gboolean
memo_angle (Ctx *c, int slot, guint i, int degree_digits_max, double *out)
{
  NbNmeaFieldMemo *m = c->memo != NULL ? &c->memo[slot] : NULL;
  const Field *f = &c->f[i], *hemi = &c->f[i + 1];
  char h = hemi->n == 1 ? hemi->p[0] : 0;

  if (h != 0 && memo_hit (m, f, h, c->limit))
    {
      *out = m->value;
      return TRUE;
    }
  if (!parse_angle (f, hemi, degree_digits_max, c->limit, out))
    return FALSE;
  memo_keep (m, f, h, c->limit, *out);
  return TRUE;
}

/* lat, N/S, lon, E/W at i..i+3; sets *present when all four are there. */
NB_SWAR_INLINE gboolean
opt_position (Ctx *c, guint i, NbNmeaFix *out, gboolean *present)
{
  *present = FALSE;
  if (empty (c, i) && empty (c, i + 2))
    return TRUE;
  if (empty (c, i) || empty (c, i + 1) || empty (c, i + 2) || empty (c, i + 3))
    return bad (c, i, "incomplete position");
  if (!memo_angle (c, NB_NMEA_MEMO_LAT, i, 2, &out->lat_deg))
    return bad (c, i, "not a latitude ddmm.mm,N|S");
  if (!memo_angle (c, NB_NMEA_MEMO_LON, i + 2, 3, &out->lon_deg))
    return bad (c, i + 2, "not a longitude dddmm.mm,E|W");
  *present = TRUE;
  return TRUE;
}

NB_SWAR_INLINE gboolean
opt_int (Ctx *c, guint i, int *out, gboolean *present)
{
  *present = FALSE;
  if (empty (c, i))
    return TRUE;
  if (!parse_int (&c->f[i], out))
    return bad (c, i, "not an integer");
  *present = TRUE;
  return TRUE;
}

NB_SWAR_INLINE gboolean
opt_char (Ctx *c, guint i, char *out)
{
  *out = 0;
  if (empty (c, i))
    return TRUE;
  if (c->f[i].n != 1)
    return bad (c, i, "not a single letter");
  *out = c->f[i].p[0];
  return TRUE;
}

static gboolean
parse_gga (Ctx *c, NbNmeaFix *out)
{
  gboolean pos, q, s, h, a, g, age;
  double dgps_age;

  if (!opt_time (c, 1, out) || !opt_position (c, 2, out, &pos) ||
      !opt_int (c, 6, &out->quality, &q) || !opt_int (c, 7, &out->satellites, &s) ||
      !opt_decimal (c, 8, &out->hdop, &h) || !opt_decimal (c, 9, &out->alt_msl_m, &a) ||
      !opt_decimal (c, 11, &out->geoid_sep_m, &g) || !opt_decimal (c, 13, &dgps_age, &age))
    return FALSE;
  if (q && out->quality > 8)
    return bad (c, 6, "quality beyond 8");
  out->valid = q && out->quality > 0;
  if (q)
    out->has |= NB_NMEA_HAS_QUALITY;
  if (s)
    out->has |= NB_NMEA_HAS_SATELLITES;
  if (h)
    out->has |= NB_NMEA_HAS_HDOP;
  if (a && out->valid)
    out->has |= NB_NMEA_HAS_ALTITUDE;
  if (g)
    out->has |= NB_NMEA_HAS_GEOID;
  if (pos && out->valid)
    out->has |= NB_NMEA_HAS_POSITION;
  return TRUE;
}

static gboolean
parse_gll (Ctx *c, NbNmeaFix *out)
{
  gboolean pos;
  char status;

  if (!opt_position (c, 1, out, &pos) || !opt_time (c, 5, out) || !opt_char (c, 6, &status) ||
      !opt_char (c, 7, &out->mode))
    return FALSE;
  out->valid = status == 'A' && out->mode != 'N';
  out->quality = out->valid ? (out->mode ? mode_quality (out->mode) : 1) : 0;
  out->has |= NB_NMEA_HAS_QUALITY;
  if (pos && out->valid)
    out->has |= NB_NMEA_HAS_POSITION;
  return TRUE;
}

static gboolean
parse_gns (Ctx *c, NbNmeaFix *out)
{
  gboolean pos, s, h, a, g;
  int best = 0;

  if (!opt_time (c, 1, out) || !opt_position (c, 2, out, &pos) ||
      !opt_int (c, 7, &out->satellites, &s) || !opt_decimal (c, 8, &out->hdop, &h) ||
      !opt_decimal (c, 9, &out->alt_msl_m, &a) || !opt_decimal (c, 10, &out->geoid_sep_m, &g))
    return FALSE;
  /* Field 6 carries one mode letter per constellation; the best one wins. */
  if (!empty (c, 6))
    for (gsize k = 0; k < c->f[6].n; k++)
      {
        int qk = mode_quality (c->f[6].p[k]);

        if (!g_ascii_isupper (c->f[6].p[k]))
          return bad (c, 6, "not a mode letter");
        /* rank: RTK fixed (4) > float (5) > DGNSS (2) > GNSS (1) > others */
        if (qk != 0 && (best == 0 || (qk == 4) || (qk == 5 && best != 4) ||
                        (qk == 2 && best != 4 && best != 5) || (qk == 1 && best > 5)))
          {
            best = qk;
            out->mode = c->f[6].p[k];
          }
      }
  out->quality = best;
  out->valid = best > 0;
  out->has |= NB_NMEA_HAS_QUALITY;
  if (s)
    out->has |= NB_NMEA_HAS_SATELLITES;
  if (h)
    out->has |= NB_NMEA_HAS_HDOP;
  if (a && out->valid)
    out->has |= NB_NMEA_HAS_ALTITUDE;
  if (g)
    out->has |= NB_NMEA_HAS_GEOID;
  if (pos && out->valid)
    out->has |= NB_NMEA_HAS_POSITION;
  return TRUE;
}

static gboolean
parse_rmc (Ctx *c, NbNmeaFix *out)
{
  gboolean pos, sp, co;
  char status;
  double knots;

  if (!opt_time (c, 1, out) || !opt_char (c, 2, &status) || !opt_position (c, 3, out, &pos) ||
      !opt_decimal (c, 7, &knots, &sp) || !opt_decimal (c, 8, &out->course_deg, &co) ||
      !opt_char (c, 12, &out->mode))
    return FALSE;
  if (!empty (c, 9) && !parse_date (&c->f[9], out))
    return bad (c, 9, "not a date ddmmyy");
  out->valid = status == 'A' && out->mode != 'N';
  out->quality = out->valid ? (out->mode ? mode_quality (out->mode) : 1) : 0;
  out->has |= NB_NMEA_HAS_QUALITY;
  if (sp)
    {
      out->speed_mps = knots * (1852.0 / 3600.0);
      out->has |= NB_NMEA_HAS_SPEED;
    }
  if (co)
    out->has |= NB_NMEA_HAS_COURSE;
  if (pos && out->valid)
    out->has |= NB_NMEA_HAS_POSITION;
  return TRUE;
}

static gboolean
parse_gst (Ctx *c, NbNmeaFix *out)
{
  gboolean p[7];

  if (!opt_time (c, 1, out) || !opt_decimal (c, 2, &out->gst_rms_m, &p[0]) ||
      !opt_decimal (c, 3, &out->gst_major_m, &p[1]) ||
      !opt_decimal (c, 4, &out->gst_minor_m, &p[2]) ||
      !opt_decimal (c, 5, &out->gst_orient_deg, &p[3]) ||
      !opt_decimal (c, 6, &out->gst_lat_m, &p[4]) || !opt_decimal (c, 7, &out->gst_lon_m, &p[5]) ||
      !opt_decimal (c, 8, &out->gst_alt_m, &p[6]))
    return FALSE;
  /* A GST without the latitude and longitude sigmas says nothing usable. */
  if (p[4] && p[5])
    {
      if (!p[0])
        out->gst_rms_m = NAN;
      if (!p[6])
        out->gst_alt_m = NAN;
      out->has |= NB_NMEA_HAS_GST;
    }
  return TRUE;
}

static gboolean
parse_gsa (Ctx *c, NbNmeaFix *out)
{
  gboolean m, p, h, v;

  if (!opt_int (c, 2, &out->fix_mode, &m) || !opt_decimal (c, 15, &out->pdop, &p) ||
      !opt_decimal (c, 16, &out->hdop, &h) || !opt_decimal (c, 17, &out->vdop, &v))
    return FALSE;
  if (m && (out->fix_mode < 1 || out->fix_mode > 3))
    return bad (c, 2, "fix mode not 1, 2 or 3");
  if (m)
    out->has |= NB_NMEA_HAS_DOP;
  if (h)
    out->has |= NB_NMEA_HAS_HDOP;
  if (!p)
    out->pdop = NAN;
  if (!v)
    out->vdop = NAN;
  return TRUE;
}

static gboolean
parse_heading (Ctx *c, NbNmeaFix *out, gboolean ths)
{
  gboolean h;
  char flag;

  if (!opt_decimal (c, 1, &out->heading_deg, &h) || !opt_char (c, 2, &flag))
    return FALSE;
  if (h && (out->heading_deg < 0.0 || out->heading_deg > 360.0))
    return bad (c, 1, "heading outside 0–360");
  /* THS: A autonomous, E estimated, M manual, S simulator are headings;
   * V is "not valid".  HDT's second field is the constant T. */
  if (h && (!ths || (flag != 'V' && flag != 0)))
    out->has |= NB_NMEA_HAS_HEADING;
  out->valid = (out->has & NB_NMEA_HAS_HEADING) != 0;
  return TRUE;
}

static gboolean
parse_vtg (Ctx *c, NbNmeaFix *out)
{
  gboolean co, kn, kmh;
  double knots, kph;

  if (!opt_decimal (c, 1, &out->course_deg, &co) || !opt_decimal (c, 5, &knots, &kn) ||
      !opt_decimal (c, 7, &kph, &kmh) || !opt_char (c, 9, &out->mode))
    return FALSE;
  if (co)
    out->has |= NB_NMEA_HAS_COURSE;
  if (kmh || kn)
    {
      out->speed_mps = kmh ? kph / 3.6 : knots * (1852.0 / 3600.0);
      out->has |= NB_NMEA_HAS_SPEED;
    }
  return TRUE;
}

static gboolean
parse_zda (Ctx *c, NbNmeaFix *out)
{
  gboolean d, m, y;
  int day = 0, month = 0, year = 0;   /* (set when d, m, y) */

  if (!opt_time (c, 1, out) || !opt_int (c, 2, &day, &d) || !opt_int (c, 3, &month, &m) ||
      !opt_int (c, 4, &year, &y))
    return FALSE;
  if (d && m && y)
    {
      if (year < 1980 || year > 2200)
        return bad (c, 4, "year outside 1980–2200");
      if (!set_date (out, year, month, day))
        return bad (c, 2, "not a date");
    }
  return TRUE;
}

/* A fix with nothing in it: copied, not cleared and set field by field
 * (a memset of the struct is a slow string instruction at this size). */
static const NbNmeaFix fix_empty = {
  .lat_deg = NAN, .lon_deg = NAN, .alt_msl_m = NAN, .geoid_sep_m = NAN,
  .satellites = -1, .hdop = NAN, .pdop = NAN, .vdop = NAN,
  .gst_rms_m = NAN, .gst_major_m = NAN, .gst_minor_m = NAN, .gst_orient_deg = NAN,
  .gst_lat_m = NAN, .gst_lon_m = NAN, .gst_alt_m = NAN,
  .heading_deg = NAN, .speed_mps = NAN, .course_deg = NAN,
};

/* The fields of a sentence whose characters, checksum and field count
 * have been checked (f[0] its address, limit its end before "*hh"): the
 * address and the sentence's own fields.  One code for both readings of a
 * sentence (nb_nmea_parse, the lexer's single pass), so that both give the
 * same fix and the same error. */
static gboolean
parse_fields (const Field *f, guint n, const char *limit, NbNmeaFieldMemo *memo, NbNmeaFix *out,
              GError **error)
{
  Ctx c;
  const char *addr;
  gsize addr_n;
  gboolean ok;

  addr = f[0].p;
  addr_n = f[0].n;
  if (addr_n >= 1 && addr[0] == 'P')
    {
      /* Proprietary: valid and ignored. */
      gsize t = MIN (addr_n - 1, sizeof out->type - 1);

      /* (the line need not end in a NUL: a bounded copy) */
      out->talker[0] = 'P';
      memcpy (out->type, addr + 1, t);
      out->type[t] = '\0';
      return TRUE;
    }
  if (addr_n != 5)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "address '%.*s' is not talker + type",
                   (int) MIN (addr_n, 16), addr);
      return FALSE;
    }
  for (gsize i = 0; i < 5; i++)
    if (!g_ascii_isupper (addr[i]) && !g_ascii_isdigit (addr[i]))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "address '%.5s' is not talker + type",
                     addr);
        return FALSE;
      }
  memcpy (out->talker, addr, 2);
  memcpy (out->type, addr + 2, 3);

  c = (Ctx) { f, n, limit, out->type, memo, error };
#define IS(t) (memcmp (addr + 2, t, 3) == 0)
  if (IS ("GGA"))
    out->sentence = NB_NMEA_GGA, ok = parse_gga (&c, out);
  else if (IS ("GLL"))
    out->sentence = NB_NMEA_GLL, ok = parse_gll (&c, out);
  else if (IS ("GNS"))
    out->sentence = NB_NMEA_GNS, ok = parse_gns (&c, out);
  else if (IS ("RMC"))
    out->sentence = NB_NMEA_RMC, ok = parse_rmc (&c, out);
  else if (IS ("GST"))
    out->sentence = NB_NMEA_GST, ok = parse_gst (&c, out);
  else if (IS ("GSA"))
    out->sentence = NB_NMEA_GSA, ok = parse_gsa (&c, out);
  else if (IS ("HDT"))
    out->sentence = NB_NMEA_HDT, ok = parse_heading (&c, out, FALSE);
  else if (IS ("THS"))
    out->sentence = NB_NMEA_THS, ok = parse_heading (&c, out, TRUE);
  else if (IS ("VTG"))
    out->sentence = NB_NMEA_VTG, ok = parse_vtg (&c, out);
  else if (IS ("ZDA"))
    out->sentence = NB_NMEA_ZDA, ok = parse_zda (&c, out);
  else
    ok = TRUE;
#undef IS
  if (!ok)
    out->has = 0;
  return ok;
}

gboolean
nb_nmea_parse (const char *line, gsize len, NbNmeaFix *out, GError **error)
{
  Field f[MAX_FIELDS];
  guint n = 0;
  gsize end = len, star;
  guint8 sum = 0;
  int hi, lo;

  *out = fix_empty;
  while (end > 0 && (line[end - 1] == '\r' || line[end - 1] == '\n'))
    end--;
  if (end < 6 || (line[0] != '$' && line[0] != '!'))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "not an NMEA sentence (no leading '$')");
      return FALSE;
    }
  if (end < 4 || line[end - 3] != '*')
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "no checksum '*hh' at the end");
      return FALSE;
    }
  star = end - 3;
  /* One pass: validate, sum and cut at commas (the rest of the work is per
   * field).  Too many fields is reported after the checksum, as before. */
  {
    gsize start = 1;
    gboolean too_many = FALSE;

    guint64 acc = 0;

    /* Eight bytes a word (nb-swar.h): the word XORed into the sum, and
     * only the bytes that are not plain — the commas, and the rare byte
     * below '-' or above '~' — looked at one by one, in order. */
    for (gsize i = 1; i < star; i += 8)
      {
        guint64 w, special;

        if (G_LIKELY (star - i >= 8))
          {
            w = nb_swar_load8 (line + i);
            special = nb_swar_outside (w, 0x2d, 0x7e);
          }
        else
          {
            /* The last bytes: a word of them behind zeros, which add
             * nothing to the sum and are not looked at. */
            char tail[8] = { 0 };

            memcpy (tail, line + i, star - i);
            w = nb_swar_load8 (tail);
            special = nb_swar_outside (w, 0x2d, 0x7e) &
                      (G_MAXUINT64 >> (64 - 8 * (star - i)));
          }
        acc ^= w;
        if (G_UNLIKELY ((special & ~nb_swar_equal (w, ',')) != 0))
          {
            /* A byte other than a comma below '-' or above '~' in this
             * word: a space or '+' is plain, the rest is refused. */
            for (guint64 m = special & ~nb_swar_equal (w, ','); m != 0; m &= m - 1)
              {
                gsize k = i + (gsize) nb_swar_first (m);
                guint8 ch = (guint8) line[k];

                if (body_class (ch) == BODY_INVALID)
                  {
                    /* (a comma before it in this word is cut first, as
                     * the sentence is read in order: nothing to cut on
                     * an error) */
                    g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                                 "invalid character 0x%02x at column %" G_GSIZE_FORMAT, ch,
                                 k + 1);
                    return FALSE;
                  }
              }
            special &= nb_swar_equal (w, ',');
          }
        /* Only commas are left: the fields are cut without reading a byte. */
        for (; special != 0; special &= special - 1)
          {
            gsize k = i + (gsize) nb_swar_first (special);

            if (G_UNLIKELY (n == MAX_FIELDS - 1))
              too_many = TRUE;
            else
              f[n++] = (Field) { line + start, k - start };
            start = k + 1;
          }
      }
    sum = nb_swar_xor_bytes (acc);
    f[n++] = (Field) { line + start, star - start };
    hi = hex_value (line[star + 1]);
    lo = hex_value (line[star + 2]);
    if (hi < 0 || lo < 0)
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "checksum '%.2s' is not hexadecimal",
                     line + star + 1);
        return FALSE;
      }
    if ((guint8) (hi << 4 | lo) != sum)
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "checksum %02X does not match computed %02X", (unsigned) (hi << 4 | lo),
                     sum);
        return FALSE;
      }
    if (too_many)
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "more than %d fields", MAX_FIELDS);
        return FALSE;
      }
  }

  return parse_fields (f, n, line + end, NULL, out, error);
}

/* The sentence at p (p[0] '$' or '!') read once, where it lies in the
 * lexer's input: each word of eight bytes is checked, XORed into the
 * checksum and cut at its commas as it is read, up to the '*', the two
 * hexadecimal digits and the CR or LF that end the sentence, and the
 * fields are parsed there (parse_fields: numbers are read where they lie,
 * up to limit, the input's end).  Returns the bytes read, the line end
 * included, with the fix or the field's error in *out, *ok and error; or 0,
 * reading nothing, when the sentence is not one a lexer would hand whole
 * to nb_nmea_parse with a right checksum: a byte the sentence may not hold
 * before its '*', a start inside it, more than NB_NMEA_MAX_SENTENCE bytes
 * or MAX_FIELDS fields, a checksum that is not hexadecimal, wrong or not
 * followed by the line end, or the input's end within a word of the
 * sentence.  The lexer then cuts it and nb_nmea_parse reads it (the error
 * it names is reported as before). */
/* The low k bytes of a word (k 0…7). */
NB_SWAR_INLINE guint64
low_bytes (int k)
{
  return (G_GUINT64_CONSTANT (1) << (8 * k)) - 1;
}

/* The field at q cut where it is read: its length up to the first byte
 * that is not plain text from '-' to '~' (the ',' or '*' that ends a plain
 * field), at most 23, its bytes XORed into *acc; −1 for a longer one.
 * Reads q[0…23]. */
NB_SWAR_INLINE int
cut_field (const char *q, guint64 *acc)
{
  guint64 w0 = nb_swar_load8 (q), m0 = nb_swar_outside (w0, 0x2d, 0x7e), w1, m1, w2, m2;

  if (G_LIKELY (m0 != 0))
    {
      int k = nb_swar_first (m0);

      *acc ^= w0 & low_bytes (k);
      return k;
    }
  w1 = nb_swar_load8 (q + 8);
  m1 = nb_swar_outside (w1, 0x2d, 0x7e);
  if (G_LIKELY (m1 != 0))
    {
      int k = nb_swar_first (m1);

      *acc ^= w0 ^ (w1 & low_bytes (k));
      return 8 + k;
    }
  w2 = nb_swar_load8 (q + 16);
  m2 = nb_swar_outside (w2, 0x2d, 0x7e);
  if (m2 != 0)
    {
      int k = nb_swar_first (m2);

      *acc ^= w0 ^ w1 ^ (w2 & low_bytes (k));
      return 16 + k;
    }
  return -1;
}

static gsize
parse_in_place (const char *p, const char *limit, NbNmeaFieldMemo *memo, NbNmeaFix *out,
                gboolean *ok, GError **error)
{
  Field f[MAX_FIELDS];
  const char *q = p + 1, *start = q, *star = NULL;
  guint64 acc = 0;
  guint n = 0;
  int hi, lo;

  /* NMEA's fields are short: with room for the longest sentence behind p,
   * each field is cut by a look at its own one to three words (cut_field),
   * the comma checked and summed, the next field read after it.  A field
   * of other bytes (a space, '+', …) or of 24 bytes or more, and a
   * sentence near the input's end, are cut by the word scan below, which
   * reads the whole sentence a word at a time; both cut the same fields. */
  if (limit - p >= NB_NMEA_MAX_SENTENCE + 24)
    {
      guint64 commas = 0;

      for (;;)
        {
          int k = cut_field (q, &acc);

          if (G_UNLIKELY (k < 0))
            break;
          if (q[k] == ',')
            {
              if (G_UNLIKELY (n == MAX_FIELDS - 1))
                return 0;
              f[n++] = (Field) { q, (gsize) k };
              commas ^= ',';
              q += k + 1;
              if (G_UNLIKELY (q - p > NB_NMEA_MAX_SENTENCE))
                return 0;
              continue;
            }
          if (q[k] == '*')
            {
              star = q + k;
              start = q;
              acc ^= commas;
            }
          break;
        }
      if (star == NULL)
        {
          /* (a field the cut does not take: the word scan from the start) */
          q = start = p + 1;
          acc = 0;
          n = 0;
        }
    }
  while (star == NULL)
    {
      guint64 w, special, commas;

      if (G_UNLIKELY (limit - q < 8 || q - p > NB_NMEA_MAX_SENTENCE))
        return 0;
      w = nb_swar_load8 (q);
      special = nb_swar_outside (w, 0x2d, 0x7e);
      commas = nb_swar_equal (w, ',');
      if (G_UNLIKELY ((special & ~commas) != 0))
        {
          /* A byte below '-' or above '~' that is not a comma: in order,
           * the '*' ends the sentence, a space, '+', '"', '#', '%' … are
           * plain, anything else is for the lexer. */
          for (guint64 m = special & ~commas; m != 0; m &= m - 1)
            {
              int k = nb_swar_first (m);
              guint8 ch = (guint8) q[k];

              if (ch == '*')
                {
                  /* the bytes before it (k < 8) */
                  guint64 before = k == 0 ? 0 : G_MAXUINT64 >> (64 - 8 * k);

                  star = q + k;
                  acc ^= w & before;
                  commas &= before;
                  break;
                }
              if (ch < 0x20 || ch > 0x7e || ch == '$' || ch == '!')
                return 0;
            }
        }
      /* Only commas are left (before the '*'): the fields are cut without
       * reading a byte. */
      for (; commas != 0; commas &= commas - 1)
        {
          const char *c = q + nb_swar_first (commas);

          if (G_UNLIKELY (n == MAX_FIELDS - 1))
            return 0;
          f[n++] = (Field) { start, (gsize) (c - start) };
          start = c + 1;
        }
      if (star != NULL)
        break;
      acc ^= w;
      q += 8;
    }
  /* "$" + at least two bytes, "*hh", the line end; at most the lexer's
   * sentence */
  if (limit - star < 4 || star - p < 3 || star + 3 - p > NB_NMEA_MAX_SENTENCE ||
      (star[3] != '\r' && star[3] != '\n'))
    return 0;
  hi = hex_value (star[1]);
  lo = hex_value (star[2]);
  if (hi < 0 || lo < 0 || (guint8) (hi << 4 | lo) != nb_swar_xor_bytes (acc))
    return 0;
  f[n++] = (Field) { start, (gsize) (star - start) };
  *out = fix_empty;
  *ok = parse_fields (f, n, limit, memo, out, error);
  return (gsize) (star + 4 - p);
}

/* ------------------------------------------------------------- lexer -- */

enum {
  LEX_LINE_START,   /* at the start of a line: '#' begins a comment */
  LEX_SEEK,         /* looking for '$' */
  LEX_BODY,         /* inside a sentence */
  LEX_COMMENT,      /* skipping to the end of a '#' line */
};

void
nb_nmea_lexer_init (NbNmeaLexer *lexer)
{
  memset (lexer, 0, sizeof *lexer);
  lexer->state = LEX_LINE_START;
}

/* A line cut by the lexer: to func as it is, or read by nb_nmea_parse and
 * its fix or error to fix_func. */
NB_SWAR_INLINE void
deliver_line (const char *line, gsize len, NbNmeaLineFunc func, NbNmeaFixFunc fix_func,
              gpointer user_data)
{
  if (fix_func != NULL)
    {
      GError *error = NULL;
      NbNmeaFix fix;

      if (nb_nmea_parse (line, len, &fix, &error))
        fix_func (&fix, NULL, user_data);
      else
        {
          fix_func (NULL, error, user_data);
          g_error_free (error);
        }
    }
  else
    func (line, len, user_data);
}

/* A sentence inside one chunk is handed to func where it lies in data;
 * only one cut by a chunk boundary is copied into the lexer's buffer.
 * With fix_func (func NULL), a sentence that begins in the chunk is first
 * read in one pass where it lies (parse_in_place); only one that pass
 * declines is cut and parsed as a line.  (Inlined into its two callers,
 * each with one of the functions a constant NULL.) */
NB_SWAR_INLINE void
lexer_feed (NbNmeaLexer *lexer, const guint8 *data, gsize len, NbNmeaLineFunc func,
            NbNmeaFixFunc fix_func, gpointer user_data)
{
  gsize i = 0;
  gssize start = -1;   /* where the sentence being cut began in data; −1: in buf */

  while (i < len)
    {
      guint8 b = data[i];

      switch (lexer->state)
        {
        case LEX_LINE_START:
        case LEX_SEEK:
          if (b == '$' || b == '!')
            {
              if (fix_func != NULL)
                {
                  GError *error = NULL;
                  NbNmeaFix fix;
                  gboolean ok;
                  gsize n = parse_in_place ((const char *) data + i, (const char *) data + len,
                                            lexer->memo, &fix, &ok, &error);

                  if (n > 0)
                    {
                      lexer->sentence_line = lexer->newlines + 1;
                      lexer->newlines += data[i + n - 1] == '\n';
                      lexer->state = LEX_LINE_START;
                      i += n;
                      if (ok)
                        fix_func (&fix, NULL, user_data);
                      else
                        {
                          fix_func (NULL, error, user_data);
                          g_error_free (error);
                        }
                      break;
                    }
                }
              start = (gssize) i;
              lexer->len = 1;
              lexer->sentence_line = lexer->newlines + 1;
              lexer->state = LEX_BODY;
            }
          else if (b == '#' && lexer->state == LEX_LINE_START)
            lexer->state = LEX_COMMENT;
          else if (b == '\n' || b == '\r')
            {
              lexer->newlines += b == '\n';
              lexer->state = LEX_LINE_START;
            }
          else
            {
              lexer->skipped++;
              lexer->state = LEX_SEEK;
            }
          i++;
          break;

        case LEX_BODY:
          {
            gsize have = start >= 0 ? i - (gsize) start : lexer->len;
            gsize limit = MIN (len, i + (sizeof lexer->buf - have)), j = i, run;

            /* Eight bytes a word up to the first that is not printable
             * ASCII from '%' to '~'; of those, ' ', '"' and '#' belong to
             * the sentence and the scan goes on past them. */
            while (limit - j >= 8)
              {
                guint64 stop = nb_swar_outside (nb_swar_load8 ((const char *) data + j), 0x25,
                                                0x7e);

                if (stop == 0)
                  {
                    j += 8;
                    continue;
                  }
                j += (gsize) nb_swar_first (stop);
                if (!lexer_body (data[j]))
                  break;
                j++;
              }
            while (j < limit && lexer_body (data[j]))
              j++;
            run = j - i;
            if (j == len)
              {
                /* The chunk ends inside the sentence: keep it. */
                if (start >= 0)
                  memcpy (lexer->buf, data + start, have + run);
                else
                  memcpy (lexer->buf + have, data + i, run);
                lexer->len = have + run;
                start = -1;
                i = j;
                break;
              }
            b = data[j];
            if (b == '\r' || b == '\n')
              {
                if (start >= 0)
                  deliver_line ((const char *) data + start, have + run, func, fix_func,
                                user_data);
                else
                  {
                    memcpy (lexer->buf + have, data + i, run);
                    deliver_line (lexer->buf, have + run, func, fix_func, user_data);
                  }
                lexer->len = 0;
                lexer->newlines += b == '\n';
                lexer->state = LEX_LINE_START;
              }
            else if (b == '$' || b == '!')
              {
                /* A new start inside a sentence: the old one was cut off. */
                lexer->skipped += have + run;
                start = (gssize) j;
                lexer->len = 1;
                lexer->sentence_line = lexer->newlines + 1;
              }
            else if (b < 0x20 || b > 0x7e)
              {
                /* Binary: not NMEA; resynchronise on the next '$'. */
                lexer->skipped += have + run + 1;
                lexer->len = 0;
                lexer->state = LEX_SEEK;
              }
            else
              {
                /* A printable byte beyond a full buffer. */
                lexer->overflows++;
                lexer->skipped += have + run + 1;
                lexer->len = 0;
                lexer->state = LEX_SEEK;
              }
            if (lexer->state != LEX_BODY)
              start = -1;
            i = j + 1;
          }
          break;

        case LEX_COMMENT:
        default:
          if (b == '\n' || b == '\r')
            {
              lexer->newlines += b == '\n';
              lexer->state = LEX_LINE_START;
            }
          i++;
          break;
        }
    }
  /* A sentence begun in the last byte or bytes looked at: keep it. */
  if (lexer->state == LEX_BODY && start >= 0)
    {
      memcpy (lexer->buf, data + start, len - (gsize) start);
      lexer->len = len - (gsize) start;
    }
}

void
nb_nmea_lexer_feed (NbNmeaLexer *lexer, const guint8 *data, gsize len, NbNmeaLineFunc func,
                    gpointer user_data)
{
  lexer_feed (lexer, data, len, func, NULL, user_data);
}

void
nb_nmea_lexer_feed_fixes (NbNmeaLexer *lexer, const guint8 *data, gsize len,
                          NbNmeaFixFunc func, gpointer user_data)
{
  lexer_feed (lexer, data, len, NULL, func, user_data);
}

void
nb_nmea_lexer_finish (NbNmeaLexer *lexer, NbNmeaLineFunc func, gpointer user_data)
{
  if (lexer->state == LEX_BODY && lexer->len > 0)
    func (lexer->buf, lexer->len, user_data);
  lexer->len = 0;
  lexer->state = LEX_LINE_START;
}

void
nb_nmea_lexer_finish_fixes (NbNmeaLexer *lexer, NbNmeaFixFunc func, gpointer user_data)
{
  if (lexer->state == LEX_BODY && lexer->len > 0)
    deliver_line (lexer->buf, lexer->len, NULL, func, user_data);
  lexer->len = 0;
  lexer->state = LEX_LINE_START;
}

double
nb_nmea_heading_to_enu_deg (double true_heading_deg)
{
  return isnan (true_heading_deg) ? NAN : nb_angle_recast_deg (90.0 - true_heading_deg);
}
