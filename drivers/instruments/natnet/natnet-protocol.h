/* natnet-protocol.h — OptiTrack NatNet frame-of-data packets, pure parsing
 *
 * A NatNet packet is a little-endian message: uint16 message id, uint16
 * payload size, payload.  Frame of mocap data (id 7) carries, in order:
 * frame number; marker sets; legacy "other" markers; rigid bodies (id,
 * position, quaternion x y z w, mean marker error, params bit 0 = tracking
 * valid); skeletons; [4.1+: assets]; labeled markers; force plates;
 * devices; then timecode, timestamp (double, s) and the high-resolution
 * stamps.  From NatNet 4.1 every section count is followed by the
 * section's size in bytes.  Versions 3.0, 3.1, 4.0, 4.1 are understood
 * (the protocol does not say its version in the frame; the server's
 * answer to a connect does, so it is a setting).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NB_NATNET_FRAME_OF_DATA 7
#define NB_NATNET_MAX_BODIES 64
#define NB_NATNET_MAX_PACKET 65503   /* the largest UDP payload NatNet sends */

typedef struct {
  int id;
  double x, y, z;            /* metres */
  double qx, qy, qz, qw;
  double mean_error_m;
  gboolean tracking_valid;
} NbNatNetBody;

typedef struct {
  guint16 message_id;
  gboolean is_frame;
  gint32 frame_number;
  double timestamp_s;        /* NAN when the packet ends before it */
  guint n_bodies;            /* stored (≤ NB_NATNET_MAX_BODIES) */
  guint n_bodies_total;      /* in the packet */
  NbNatNetBody bodies[NB_NATNET_MAX_BODIES];
} NbNatNetFrame;

/* "3.1" → (3, 1); only 3.x and 4.x. */
gboolean nb_natnet_parse_version (const char *text, int *major, int *minor, GError **error);
/* One packet (header included) of exactly len bytes.  Messages other than
 * frames of data succeed with is_frame FALSE.  Truncated or inconsistent
 * packets are NB_ERROR_INPUT naming the section. */
gboolean nb_natnet_parse (const guint8 *data, gsize len, int major, int minor, NbNatNetFrame *out,
                          GError **error);

/* A frame of data as Motive sends it, for the simulated tracker beside
 * `navbench-cli serve --tracker` (the one layout, beside its parser): in
 * version major.minor (3.x, 4.0, 4.1: the section sizes and the assets of
 * 4.1), frame number, the n bodies (mean_error_m, tracking_valid as given;
 * positions and quaternions as float32, as NatNet carries them), no markers,
 * skeletons, force plates or devices, timestamp_s in the frame suffix.  The
 * packet, header included, is appended to out. */
void nb_natnet_write_frame (GByteArray *out, int major, int minor, gint32 frame_number,
                            const NbNatNetBody *bodies, guint n, double timestamp_s);

G_END_DECLS
