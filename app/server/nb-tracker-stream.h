/* nb-tracker-stream.h — a simulated 1 kHz tracker beside the served arm
 * (`navbench-cli serve --tracker udp://HOST:PORT`)
 *
 * ISO 9283 7.4, 7.5, 8 and 9 want the measurement stream at the
 * instrument's full rate; the motion API has no streaming state (GET
 * /robot/state a request each, ≈ 360 a second).  This is the instrument a
 * lab would put beside the arm, simulated: a thread of its own samples the
 * served arm's joints on a fixed grid of the monotonic clock (rate_hz),
 * puts them through the true arm's geometry (a NbSimArm the caller gives:
 * nb_sim_arm_true_pose, e.g. the ISO 9283 demonstration error model) with
 * the load the served arm carries (nb_controller_payload_kg: the TCP gives
 * way under it as the offline simulator's does, ISO 9283 6.6), adds
 * the tracker's noise, and sends each sample as a NatNet frame of data
 * (Motive's streaming, natnet-protocol.h: rigid body 1 in base_link,
 * metres, its quaternion; frame number k, timestamp the grid instant in
 * seconds of the monotonic clock) in a UDP datagram — what the natnet
 * driver (drivers/instruments/natnet) reads from a real tracker, so
 * `--instrument natnet --url udp://…` measures through the same path.
 *
 * A frame is the pose at its own grid instant (nb_controller_joints_at):
 * when the thread wakes late it sends the frames it owes, each at its
 * instant, so the stream keeps its rate under load; frames more than
 * NB_TRACKER_STREAM_CATCH_UP_S late are not sent (counted as skipped, the
 * frame numbers jump as a real tracker's do when it drops frames).  The
 * bound is generous because the rig takes a goal's frames up to 0.5 s
 * after its end and times each by its own stamp (nb_iso9283_stream_times),
 * so frames owed after a stall within the goal are still its stream: at
 * 50 ms, load 18–21, one approach of test-iso9283-tracker lost 163 frames
 * in a row; at 0.5 s, load 13–18, 743 frames of a 205 s run were never
 * sent (a stall of the thread of 1.2 s or more).
 */
#pragma once

#include <glib.h>

#include "nb-controller.h"
#include "nb-sim-arm.h"

G_BEGIN_DECLS

#define NB_TRACKER_STREAM_CATCH_UP_S 2.0

typedef struct {
  const char *url;              /* udp://HOST:PORT: where the frames go */
  double rate_hz;               /* (0, 10⁴]: 1000 */
  double noise_mm, noise_deg;   /* σ on each axis and angle */
  guint32 seed;
  int natnet_major, natnet_minor;       /* the frames' NatNet version (4.1: the driver's default) */
} NbTrackerStreamConfig;

typedef struct NbTrackerStream NbTrackerStream;

/* Starts streaming at once; truth stays the caller's and unchanged while the
 * stream lives (only its geometry is read, from the stream's thread; its
 * payload_kg is the controller's, not truth's).  A
 * URL that is not udp://HOST:PORT, or a socket that cannot be made, is
 * NB_ERROR_INPUT. */
NbTrackerStream *nb_tracker_stream_new  (NbController *controller, const NbSimArm *truth,
                                         const NbTrackerStreamConfig *config, GError **error);
/* Stops the thread (within a period) and closes the socket. */
void             nb_tracker_stream_free (NbTrackerStream *stream);
/* Frames sent and frames skipped so far. */
void             nb_tracker_stream_counts (NbTrackerStream *stream, guint64 *sent,
                                           guint64 *skipped);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbTrackerStream, nb_tracker_stream_free)

G_END_DECLS
