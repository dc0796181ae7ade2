/* nb-cdr.c — ROS 2 CDR encoding of JointState and PoseStamped */
#include "nb-cdr-private.h"

#include <string.h>

#include "nb-error.h"

NbCdr
nb_cdr_begin (GByteArray *buf)
{
  /* CDR_LE representation identifier, options 0 (RTPS 2.5, 10.5). */
  static const guint8 encapsulation[4] = { 0x00, 0x01, 0x00, 0x00 };
  NbCdr cdr;

  g_byte_array_append (buf, encapsulation, sizeof encapsulation);
  cdr.buf = buf;
  cdr.origin = buf->len;
  return cdr;
}

void
nb_cdr_align (NbCdr *cdr, guint size)
{
  static const guint8 zeros[8] = { 0 };
  guint pos = cdr->buf->len - cdr->origin;
  guint pad = (size - pos % size) % size;

  if (pad > 0)
    g_byte_array_append (cdr->buf, zeros, pad);
}

/* Little-endian bytes of an n-byte unsigned value. */
static void
put_le (NbCdr *cdr, guint64 value, guint n)
{
  guint8 b[8];

  for (guint i = 0; i < n; i++)
    b[i] = (guint8) (value >> (8 * i));
  g_byte_array_append (cdr->buf, b, n);
}

void
nb_cdr_put_u32 (NbCdr *cdr, guint32 value)
{
  nb_cdr_align (cdr, 4);
  put_le (cdr, value, 4);
}

void
nb_cdr_put_i32 (NbCdr *cdr, gint32 value)
{
  nb_cdr_put_u32 (cdr, (guint32) value);
}

void
nb_cdr_put_f64 (NbCdr *cdr, double value)
{
  guint64 bits;

  G_STATIC_ASSERT (sizeof bits == sizeof value);
  memcpy (&bits, &value, sizeof bits);
  nb_cdr_align (cdr, 8);
  put_le (cdr, bits, 8);
}

void
nb_cdr_put_string (NbCdr *cdr, const char *s)
{
  gsize len = strlen (s);

  nb_cdr_put_u32 (cdr, (guint32) (len + 1));
  g_byte_array_append (cdr->buf, (const guint8 *) s, (guint) len);
  g_byte_array_append (cdr->buf, (const guint8 *) "", 1);
}

void
nb_cdr_put_f64_seq (NbCdr *cdr, guint n, const double *values)
{
  nb_cdr_put_u32 (cdr, n);
  for (guint i = 0; i < n; i++)
    nb_cdr_put_f64 (cdr, values[i]);
}

gboolean
nb_cdr_time_from_ns (gint64 t_ns, gint32 *sec, guint32 *nanosec)
{
  gint64 s = t_ns / 1000000000;
  gint64 ns = t_ns % 1000000000;

  /* C division truncates toward zero; ROS time keeps nanosec in [0, 1e9). */
  if (ns < 0)
    {
      ns += 1000000000;
      s -= 1;
    }
  if (s < G_MININT32 || s > G_MAXINT32)
    return FALSE;
  *sec = (gint32) s;
  *nanosec = (guint32) ns;
  return TRUE;
}

static gboolean
put_header (NbCdr *cdr, gint64 t_ns, const char *frame_id, GError **error)
{
  gint32 sec;
  guint32 nanosec;

  if (!nb_cdr_time_from_ns (t_ns, &sec, &nanosec))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "time %" G_GINT64_FORMAT " ns is outside ROS 2 time (int32 seconds)", t_ns);
      return FALSE;
    }
  /* std_msgs/Header { builtin_interfaces/Time stamp; string frame_id } */
  nb_cdr_put_i32 (cdr, sec);
  nb_cdr_put_u32 (cdr, nanosec);
  nb_cdr_put_string (cdr, frame_id != NULL ? frame_id : "");
  return TRUE;
}

gboolean
nb_cdr_joint_state (GByteArray *out, gint64 t_ns, const char *frame_id, guint n,
                    const char *const *names, const double *position,
                    const double *velocity, const double *effort, GError **error)
{
  guint start = out->len;
  NbCdr cdr;

  /* Far beyond any robot; keeps every length inside uint32. */
  if (n > 65536)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "JointState with %u joints (at most 65536)", n);
      return FALSE;
    }
  cdr = nb_cdr_begin (out);
  if (!put_header (&cdr, t_ns, frame_id, error))
    {
      g_byte_array_set_size (out, start);
      return FALSE;
    }
  nb_cdr_put_u32 (&cdr, n);
  for (guint i = 0; i < n; i++)
    nb_cdr_put_string (&cdr, names[i] != NULL ? names[i] : "");
  nb_cdr_put_f64_seq (&cdr, n, position);
  nb_cdr_put_f64_seq (&cdr, velocity != NULL ? n : 0, velocity);
  nb_cdr_put_f64_seq (&cdr, effort != NULL ? n : 0, effort);
  return TRUE;
}

gboolean
nb_cdr_pose_stamped (GByteArray *out, gint64 t_ns, const char *frame_id,
                     const double position[3], const double orientation[4], GError **error)
{
  guint start = out->len;
  NbCdr cdr = nb_cdr_begin (out);

  if (!put_header (&cdr, t_ns, frame_id, error))
    {
      g_byte_array_set_size (out, start);
      return FALSE;
    }
  /* geometry_msgs/Pose { Point position {x, y, z}; Quaternion orientation {x, y, z, w} } */
  for (int i = 0; i < 3; i++)
    nb_cdr_put_f64 (&cdr, position[i]);
  for (int i = 0; i < 4; i++)
    nb_cdr_put_f64 (&cdr, orientation[i]);
  return TRUE;
}
