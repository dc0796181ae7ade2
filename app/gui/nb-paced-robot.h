/* nb-paced-robot.h — the simulated rig in (scaled) real time for the window
 *
 * The simulated base runs on a virtual clock as fast as the CPU allows: 30
 * trials take milliseconds, and an operator would see neither the trials
 * come in nor a chance to stop them.  The window drives the runner through
 * these robot operations, which forward to the base and then sleep the
 * virtual time the goal or wait took, divided by pace (virtual seconds per
 * real second), waking early when the run is cancelled.  The sleep is in
 * the runner's worker thread, never on the GTK thread.
 */
#pragma once

#include <gio/gio.h>

#include "nb-runner-sim.h"

G_BEGIN_DECLS

typedef struct {
  const NbRobotOps *inner;      /* nb_sim_base_ops () */
  gpointer robot;               /* the rig's base */
  NbRunnerSim *sim;             /* for its virtual clock */
  double pace;                  /* virtual s per real s; <= 0 or inf: no pacing */
  GCancellable *cancellable;    /* the run's: cuts a sleep short */
} NbPacedRobot;

const NbRobotOps *nb_paced_robot_ops (void);

G_END_DECLS
