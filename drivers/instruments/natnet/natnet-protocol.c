/* natnet-protocol.c — NatNet frame parsing and writing (see natnet-protocol.h)
 *
 * Written from the NatNet packet description (NatNet SDK PacketClient
 * sample and the NatNet 4.1 data-type notes): every read is bounds checked,
 * counts are checked against the bytes left, so a hostile packet cannot
 * make the parser read outside it or loop for long.
 */
#include "natnet-protocol.h"

#include "nb-error.h"

#include <math.h>
#include <string.h>

typedef struct {
  const guint8 *p, *end;
  const char *section;
  GError **error;
} Reader;

static gboolean
truncated (Reader *r)
{
  g_set_error (r->error, NB_ERROR, NB_ERROR_INPUT, "NatNet frame truncated in %s", r->section);
  return FALSE;
}

static gboolean
need (Reader *r, gsize n)
{
  return (gsize) (r->end - r->p) >= n || truncated (r);
}

static gboolean
skip (Reader *r, gsize n)
{
  if (!need (r, n))
    return FALSE;
  r->p += n;
  return TRUE;
}

static gboolean
u16 (Reader *r, guint16 *v)
{
  if (!need (r, 2))
    return FALSE;
  *v = (guint16) (r->p[0] | r->p[1] << 8);
  r->p += 2;
  return TRUE;
}

static gboolean
i32 (Reader *r, gint32 *v)
{
  guint32 u;

  if (!need (r, 4))
    return FALSE;
  u = (guint32) r->p[0] | (guint32) r->p[1] << 8 | (guint32) r->p[2] << 16 |
      (guint32) r->p[3] << 24;
  memcpy (v, &u, 4);
  r->p += 4;
  return TRUE;
}

static gboolean
f32 (Reader *r, double *v)
{
  guint32 u;
  float f;

  if (!need (r, 4))
    return FALSE;
  u = (guint32) r->p[0] | (guint32) r->p[1] << 8 | (guint32) r->p[2] << 16 |
      (guint32) r->p[3] << 24;
  memcpy (&f, &u, 4);
  *v = f;
  r->p += 4;
  return TRUE;
}

static gboolean
f64 (Reader *r, double *v)
{
  guint64 u = 0;

  if (!need (r, 8))
    return FALSE;
  for (int i = 7; i >= 0; i--)
    u = u << 8 | r->p[i];
  memcpy (v, &u, 8);
  r->p += 8;
  return TRUE;
}

/* A count that cannot exceed what is left at min_each bytes per item. */
static gboolean
count (Reader *r, gsize min_each, gint32 *n)
{
  if (!i32 (r, n))
    return FALSE;
  if (*n < 0 || (gsize) *n > (gsize) (r->end - r->p) / MAX (min_each, (gsize) 1))
    {
      g_set_error (r->error, NB_ERROR, NB_ERROR_INPUT, "NatNet %s count %d does not fit the packet",
                   r->section, *n);
      return FALSE;
    }
  return TRUE;
}

static gboolean
string (Reader *r)
{
  const guint8 *nul = memchr (r->p, 0, (gsize) (r->end - r->p));

  if (nul == NULL)
    return truncated (r);
  r->p = nul + 1;
  return TRUE;
}

static gboolean
has_sizes (int major, int minor)
{
  return major > 4 || (major == 4 && minor >= 1);
}

/* 4.1+: the section's byte size after its count. */
static gboolean
section_size (Reader *r, int major, int minor, gint32 *size)
{
  *size = -1;
  if (!has_sizes (major, minor))
    return TRUE;
  if (!i32 (r, size))
    return FALSE;
  if (*size < 0 || *size > r->end - r->p)
    {
      g_set_error (r->error, NB_ERROR, NB_ERROR_INPUT, "NatNet %s size %d does not fit the packet",
                   r->section, *size);
      return FALSE;
    }
  return TRUE;
}

/* Rigid body: id, position, orientation, error, params (NatNet ≥ 3 has no
 * per-body marker list). */
static gboolean
body (Reader *r, NbNatNetBody *b)
{
  gint32 id;
  guint16 params;

  if (!i32 (r, &id) || !f32 (r, &b->x) || !f32 (r, &b->y) || !f32 (r, &b->z) ||
      !f32 (r, &b->qx) || !f32 (r, &b->qy) || !f32 (r, &b->qz) || !f32 (r, &b->qw) ||
      !f32 (r, &b->mean_error_m) || !u16 (r, &params))
    return FALSE;
  b->id = id;
  b->tracking_valid = (params & 0x01) != 0;
  return TRUE;
}

#define BODY_BYTES (4 + 7 * 4 + 4 + 2)

/* Sections with channels of float frames: force plates and devices. */
static gboolean
channels (Reader *r, int major, int minor)
{
  gint32 n, size;

  if (!count (r, 8, &n) || !section_size (r, major, minor, &size))
    return FALSE;
  if (size >= 0)
    return skip (r, (gsize) size);
  for (gint32 i = 0; i < n; i++)
    {
      gint32 id, nch;

      if (!i32 (r, &id) || !count (r, 4, &nch))
        return FALSE;
      for (gint32 c = 0; c < nch; c++)
        {
          gint32 nf;

          if (!count (r, 4, &nf) || !skip (r, (gsize) nf * 4))
            return FALSE;
        }
    }
  return TRUE;
}

gboolean
nb_natnet_parse_version (const char *text, int *major, int *minor, GError **error)
{
  if (text != NULL && strlen (text) == 3 && (text[0] == '3' || text[0] == '4') && text[1] == '.' &&
      text[2] >= '0' && text[2] <= '9')
    {
      *major = text[0] - '0';
      *minor = text[2] - '0';
      return TRUE;
    }
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "NatNet version '%s' is not 3.x or 4.x",
               text ? text : "");
  return FALSE;
}

gboolean
nb_natnet_parse (const guint8 *data, gsize len, int major, int minor, NbNatNetFrame *out,
                 GError **error)
{
  Reader r = { data, data + len, "header", error };
  guint16 id, size;
  gint32 n, sec;

  memset (out, 0, sizeof *out);
  out->timestamp_s = NAN;
  if (!u16 (&r, &id) || !u16 (&r, &size))
    return FALSE;
  out->message_id = id;
  if ((gsize) size != len - 4)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "NatNet packet says %u payload bytes, has %" G_GSIZE_FORMAT, size, len - 4);
      return FALSE;
    }
  if (id != NB_NATNET_FRAME_OF_DATA)
    return TRUE;
  out->is_frame = TRUE;

  r.section = "frame number";
  if (!i32 (&r, &out->frame_number))
    return FALSE;

  r.section = "marker sets";
  if (!count (&r, 5, &n) || !section_size (&r, major, minor, &sec))
    return FALSE;
  if (sec >= 0)
    {
      if (!skip (&r, (gsize) sec))
        return FALSE;
    }
  else
    for (gint32 i = 0; i < n; i++)
      {
        gint32 m;

        if (!string (&r) || !count (&r, 12, &m) || !skip (&r, (gsize) m * 12))
          return FALSE;
      }

  r.section = "other markers";
  if (!count (&r, 12, &n) || !section_size (&r, major, minor, &sec) ||
      !skip (&r, sec >= 0 ? (gsize) sec : (gsize) n * 12))
    return FALSE;

  r.section = "rigid bodies";
  if (!count (&r, BODY_BYTES, &n) || !section_size (&r, major, minor, &sec))
    return FALSE;
  out->n_bodies_total = (guint) n;
  for (gint32 i = 0; i < n; i++)
    {
      NbNatNetBody b;

      if (!body (&r, &b))
        return FALSE;
      if (out->n_bodies < NB_NATNET_MAX_BODIES)
        out->bodies[out->n_bodies++] = b;
    }

  r.section = "skeletons";
  if (!count (&r, 8, &n) || !section_size (&r, major, minor, &sec))
    return FALSE;
  if (sec >= 0)
    {
      if (!skip (&r, (gsize) sec))
        return FALSE;
    }
  else
    for (gint32 i = 0; i < n; i++)
      {
        gint32 sid, nb;

        if (!i32 (&r, &sid) || !count (&r, BODY_BYTES, &nb) || !skip (&r, (gsize) nb * BODY_BYTES))
          return FALSE;
      }

  if (has_sizes (major, minor))
    {
      /* Assets (NatNet 4.1): skipped by their size. */
      r.section = "assets";
      if (!count (&r, 1, &n) || !section_size (&r, major, minor, &sec) || !skip (&r, (gsize) sec))
        return FALSE;
    }

  /* Labeled markers: id, x y z, size, params, residual = 26 bytes. */
  r.section = "labeled markers";
  if (!count (&r, 26, &n) || !section_size (&r, major, minor, &sec) ||
      !skip (&r, sec >= 0 ? (gsize) sec : (gsize) n * 26))
    return FALSE;

  r.section = "force plates";
  if (!channels (&r, major, minor))
    return FALSE;
  r.section = "devices";
  if (!channels (&r, major, minor))
    return FALSE;

  r.section = "frame suffix";
  /* timecode, subframe, timestamp, 3 high-resolution stamps, [4.1+: the
   * precision timestamp], params, end-of-data tag: all must be there. */
  if (!skip (&r, 8) || !f64 (&r, &out->timestamp_s) ||
      !skip (&r, 24 + (has_sizes (major, minor) ? 8 : 0) + 2 + 4))
    return FALSE;
  if (!isfinite (out->timestamp_s))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "NatNet timestamp is not finite");
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------ writing -- */

static void
put_u16 (GByteArray *o, guint16 v)
{
  const guint8 b[2] = { v & 0xff, v >> 8 };

  g_byte_array_append (o, b, 2);
}

static void
put_u32 (GByteArray *o, guint32 v)
{
  const guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

  g_byte_array_append (o, b, 4);
}

static void
put_f32 (GByteArray *o, double v)
{
  float f = (float) v;
  guint32 u;

  memcpy (&u, &f, 4);
  put_u32 (o, u);
}

static void
put_f64 (GByteArray *o, double v)
{
  guint64 u;

  memcpy (&u, &v, 8);
  put_u32 (o, (guint32) (u & 0xffffffffu));
  put_u32 (o, (guint32) (u >> 32));
}

/* An empty section: its count, and (4.1+) its size. */
static void
put_empty (GByteArray *o, int major, int minor)
{
  put_u32 (o, 0);
  if (has_sizes (major, minor))
    put_u32 (o, 0);
}

void
nb_natnet_write_frame (GByteArray *o, int major, int minor, gint32 frame_number,
                       const NbNatNetBody *bodies, guint n, double timestamp_s)
{
  guint start = o->len;
  guint16 size;

  put_u16 (o, NB_NATNET_FRAME_OF_DATA);
  put_u16 (o, 0);                       /* the payload's size, below */
  put_u32 (o, (guint32) frame_number);
  put_empty (o, major, minor);          /* marker sets */
  put_empty (o, major, minor);          /* other markers */
  put_u32 (o, n);
  if (has_sizes (major, minor))
    put_u32 (o, n * BODY_BYTES);
  for (guint i = 0; i < n; i++)
    {
      const NbNatNetBody *b = &bodies[i];

      put_u32 (o, (guint32) b->id);
      put_f32 (o, b->x);
      put_f32 (o, b->y);
      put_f32 (o, b->z);
      put_f32 (o, b->qx);
      put_f32 (o, b->qy);
      put_f32 (o, b->qz);
      put_f32 (o, b->qw);
      put_f32 (o, b->mean_error_m);
      put_u16 (o, b->tracking_valid ? 0x01 : 0x00);
    }
  put_empty (o, major, minor);          /* skeletons */
  if (has_sizes (major, minor))
    put_empty (o, major, minor);        /* assets */
  put_empty (o, major, minor);          /* labeled markers */
  put_empty (o, major, minor);          /* force plates */
  put_empty (o, major, minor);          /* devices */
  put_u32 (o, 0);                       /* timecode */
  put_u32 (o, 0);                       /* timecode subframe */
  put_f64 (o, timestamp_s);
  for (int i = 0; i < 6; i++)           /* the three high-resolution stamps */
    put_u32 (o, 0);
  if (has_sizes (major, minor))
    {
      put_u32 (o, 0);                   /* 4.1: the precision timestamp (s, fraction): none */
      put_u32 (o, 0);
    }
  put_u16 (o, 0);                       /* params */
  put_u32 (o, 0);                       /* end of data */
  size = (guint16) (o->len - start - 4);
  o->data[start + 2] = size & 0xff;
  o->data[start + 3] = size >> 8;
}
