/* nb-cdr-private.h — ROS 2 CDR (XCDR1, little endian) for the two recorded messages
 *
 * A serialized ROS 2 message is the 4-byte encapsulation header 00 01 00 00
 * (CDR_LE, options 0) followed by the fields in declaration order, each
 * primitive aligned to its own size counted from the first byte after the
 * header (OMG DDS-XTypes 1.3, 7.4.1: XCDR version 1 "PLAIN_CDR").  Sequences
 * are a uint32 element count followed by the elements; a string is a uint32
 * length that includes the terminating NUL, the bytes, then the NUL.  An
 * empty sequence of float64 gets no alignment padding (there is no element
 * to align), as Fast-CDR writes and @foxglove/cdr reads it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An encoder appending to buf; alignment is relative to `origin`, the length
 * of buf just after the encapsulation header. */
typedef struct {
  GByteArray *buf;
  guint origin;
} NbCdr;

/* Appends the encapsulation header to buf and returns the encoder. */
NbCdr nb_cdr_begin (GByteArray *buf);

void nb_cdr_align      (NbCdr *cdr, guint size);
void nb_cdr_put_u32    (NbCdr *cdr, guint32 value);
void nb_cdr_put_i32    (NbCdr *cdr, gint32 value);
void nb_cdr_put_f64    (NbCdr *cdr, double value);
/* s is shorter than 2^32 − 1 bytes (the caller bounds it). */
void nb_cdr_put_string (NbCdr *cdr, const char *s);
/* A float64[] sequence; values may be NULL when n is 0. */
void nb_cdr_put_f64_seq (NbCdr *cdr, guint n, const double *values);

/* builtin_interfaces/Time from nanoseconds: sec = ⌊t/1e9⌋, nanosec the
 * non-negative rest.  FALSE when sec does not fit an int32 (the year 2038
 * limit of ROS 2 time). */
gboolean nb_cdr_time_from_ns (gint64 t_ns, gint32 *sec, guint32 *nanosec);

/* sensor_msgs/msg/JointState.  velocity and effort may be NULL: an empty
 * array.  Errors (NB_ERROR_INPUT): a time outside ROS 2 time, n too large. */
gboolean nb_cdr_joint_state (GByteArray *out, gint64 t_ns, const char *frame_id, guint n,
                             const char *const *names, const double *position,
                             const double *velocity, const double *effort, GError **error);

/* geometry_msgs/msg/PoseStamped; orientation is x, y, z, w. */
gboolean nb_cdr_pose_stamped (GByteArray *out, gint64 t_ns, const char *frame_id,
                              const double position[3], const double orientation[4],
                              GError **error);

G_END_DECLS
