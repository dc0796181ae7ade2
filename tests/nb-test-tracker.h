/* nb-test-tracker.h — a tracker on a served arm: `navbench-cli serve` on
 * loopback is the arm, and a player thread is its NatNet instrument
 * (test-iso9283-live, test-gui-iso9283).
 *
 * The player reads the served joints (GET /robot/state) at
 * NB_TEST_TRACKER_HZ, puts them through the true arm's geometry under a
 * load (nb_iso9283_sim_arm_init: the errors the simulated tracker of
 * `--robot http://…` has) and sends the TCP as NatNet 4.0 frames of one
 * rigid body over UDP loopback, each stamped with the served state's
 * stamp_us.  It is a tracker of bounded latency: a frame whose state is
 * older than max_latency_s when it would be sent is dropped, as a lost
 * frame (on a loaded machine the GET's answer can come 150 ms after the
 * server took the state, and a rest taken just before a goal's end would
 * reach the run after its guard and be measured as the next goal's). */
#pragma once

#include "nb-test-player.h"

#include "nb-arm-file.h"
#include "nb-http-robot.h"
#include "nb-sim-arm.h"

G_BEGIN_DECLS

#define NB_TEST_TRACKER_HZ 200.0

typedef struct {
  NbHttpRobot *robot;
  NbSimArm truth;
  NbTestUdp udp;                /* udp.url: where the device under test listens */
  double max_latency_s;
  volatile gint stop;
  GMutex lock;
  GArray *played;               /* NbPose6 as the driver decodes them, distinct in a row */
  guint frames;                 /* frames sent */
  guint late;                   /* frames dropped: their state older than max_latency_s */
  GThread *thread;
} NbTestTracker;

/* Starts the player on the arm served at url: model under load_kg. */
void     nb_test_tracker_start  (NbTestTracker *t, const NbArmModel *model, const char *url,
                                 double load_kg, double max_latency_s);
/* Stops the player (joins its thread); what it played stays. */
void     nb_test_tracker_stop   (NbTestTracker *t);
void     nb_test_tracker_clear  (NbTestTracker *t);
/* Whether x (x, y, z mm, a, b, c °) is a pose it played, to 1e-9. */
gboolean nb_test_tracker_played (NbTestTracker *t, const double x[6]);

G_END_DECLS
