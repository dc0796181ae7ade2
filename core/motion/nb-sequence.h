/* nb-sequence.h — motion sequences of the motion stack (seeds/003) and their runner
 *
 * A sequence is home → waypoints → home, n_iterations times with a pause
 * between iterations; a point is joint angles (MoveToJoints) or a TCP pose
 * relative to a frame (MoveToPose with a planner).  The runner sends one goal
 * and waits for its result before the next; a failed goal stops the sequence:
 * no further goal, motion stop requested, an error naming the point.  A stop
 * request (POST /stop, SIGTERM) is honoured before the next point.  The robot
 * is behind NbRobotOps: the simulator, or the motion stack's HTTP client.
 */
#pragma once

#include <glib.h>

#include "nb-arm.h"

G_BEGIN_DECLS

typedef enum {
  NB_POINT_JOINTS,
  NB_POINT_POSE,
} NbPointKind;

typedef struct {
  NbPointKind kind;
  char *name;                   /* optional label */
  double joints[NB_ARM_JOINTS]; /* rad */
  char *frame_id;               /* "" → the robot's planning.default_frame */
  double position[3];           /* m */
  double orientation[4];        /* unit quaternion x, y, z, w */
  char *planner;
} NbSequencePoint;

typedef struct {
  NbSequencePoint home;
  GArray *waypoints;            /* of NbSequencePoint */
  guint n_iterations;
  double pause_s;
  char *bag_path;               /* "" or NULL: no recording */
  GPtrArray *topics;            /* of char* */
} NbSequence;

/* name is used in messages ("F.json: waypoints[2]: …"). */
NbSequence *nb_sequence_parse (const char *name, const char *json, gssize len, GError **error);
NbSequence *nb_sequence_load  (const char *path, GError **error);
void        nb_sequence_free  (NbSequence *sequence);

typedef struct {
  gboolean (*move_to_joints) (gpointer robot, const double q[NB_ARM_JOINTS], GError **error);
  gboolean (*move_to_pose)   (gpointer robot, const char *frame_id, const double position[3],
                              const double orientation[4], const char *planner, GError **error);
  /* Motion stop (/cobot/stop): cancel the current operation and pending ones. */
  void     (*stop)           (gpointer robot);
  /* Wait, on the robot's clock (virtual for the simulator). */
  void     (*wait)           (gpointer robot, double seconds);
  /* Optional: interrupt the goal in flight at once, from any thread (an
   * operator's Stop while a goal blocks its caller); the goal then returns
   * with a failure.  NULL where goals never block (the simulators' virtual
   * clock). */
  void     (*interrupt)      (gpointer robot);
} NbRobotOps;

typedef void (*NbRunnerLogFunc) (const char *line, gpointer user_data);

/* iterations 0: the sequence's own n_iterations.  stop_requested is read
 * before every point (a signal handler or another thread sets it). */
gboolean nb_sequence_run (const NbSequence *sequence, guint iterations, const NbRobotOps *ops,
                          gpointer robot, const volatile int *stop_requested,
                          NbRunnerLogFunc log, gpointer log_data, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbSequence, nb_sequence_free)

G_END_DECLS
