/* nb-controller.h — the motion server behind the HTTP API: the simulated
 * iiwa 7 executing one goal at a time under the arbiter (seeds/001)
 *
 * Runs on a GLib main context: a goal is validated at once (joint goal
 * outside the soft range, unreachable pose, unknown frame: NB_ERROR_INPUT
 * before any motion — the API's 422), then given to the arbiter, which sends
 * it now or lets it wait; its `done` is called exactly once from the main
 * loop with its terminal result (NULL: succeeded).  Motion takes the
 * simulator's time × time_scale of wall time (0: completes at the next
 * main-loop iteration), so that a stop can land in the middle of a motion;
 * the state during it follows the joints as the simulated arm moved them
 * (its servo's overshoot and ring included, when it has one).
 *
 * With a base (nb_controller_add_base): the arm rides on the simulated
 * mobile base of drivers/robots/sim/nb-sim-base.h (a mobile manipulator,
 * as KUKA's KMR iiwa), and a MoveToPose in the frame "map" is a navigation
 * goal for the base — x, y of the position, the yaw of the orientation —
 * which it drives to on the same clock and arbiter as the arm's goals, with
 * its error model (what an ISO 18646-2 campaign measures: `campaign run
 * --robot http://…`).  The base's pose is published with the state.
 */
#pragma once

#include <glib.h>

#include "nb-arbiter.h"
#include "nb-arm.h"
#include "nb-sim-arm.h"
#include "nb-sim-base.h"

G_BEGIN_DECLS

typedef struct NbController NbController;

/* How a goal ended short of success, besides the controller's own failure
 * (NB_ERROR_FAILED): cancelled by a motion stop, or aborted because the
 * priority lease was lost (seeds/001 "Потеря аренды"). */
#define NB_CONTROLLER_ERROR (nb_controller_error_quark ())
typedef enum {
  NB_CONTROLLER_CANCELLED,
  NB_CONTROLLER_PRIORITY,
} NbControllerError;

GQuark nb_controller_error_quark (void);

typedef void (*NbGoalDone) (const GError *result, gpointer data);

/* clock: the arbiter's wall clock (NULL: the real one). */
NbController *nb_controller_new  (const NbArmModel *model, const char *default_frame,
                                  double time_scale, guint32 seed, NbClockFunc clock,
                                  gpointer clock_data);
void          nb_controller_free (NbController *c);

/* The simulated base under the arm, its errors drawn from seed; MoveToPose
 * in "map" drives it from then on. */
void          nb_controller_add_base (NbController *c, guint32 seed);
/* The frame of the base's goals and pose. */
#define NB_CONTROLLER_BASE_FRAME "map"

NbSimArm     *nb_controller_arm     (NbController *c);   /* for fault injection */
NbArbiter    *nb_controller_arbiter (NbController *c);
const char   *nb_controller_default_frame (NbController *c);

/* MoveToJoints.  priority LOW is a gizmo goal with its owner and epoch;
 * velocity_scaling in (0, 1] scales the joints' velocity limits (MoveIt's
 * max_velocity_scaling_factor; 1: the limits), else NB_ERROR_INPUT. */
gboolean nb_controller_move_joints (NbController *c, NbPriority priority, const char *owner,
                                    guint64 epoch, const double q[NB_ARM_JOINTS],
                                    double velocity_scaling, NbGoalDone done, gpointer data,
                                    GError **error);
/* MoveToPose: the TCP pose relative to frame_id ("" or NULL: planning.default_frame). */
gboolean nb_controller_move_pose   (NbController *c, NbPriority priority, const char *owner,
                                    guint64 epoch, const char *frame_id,
                                    const double position[3], const double orientation[4],
                                    NbGoalDone done, gpointer data, GError **error);

/* FollowJointTrajectory (seeds/001's trajectory action; the API's direct
 * trajectory): n ≥ 1 points, each its time from the goal's start t_s[k]
 * (strictly increasing, > 0) and joints q[k·7 …]; every point inside the
 * soft range and every segment within the joints' velocity limits, else
 * NB_ERROR_INPUT before any motion.  The arm goes through the points
 * joint-linearly on their times (from where it is to the first), without
 * the servo of point-to-point goals. */
gboolean nb_controller_follow_trajectory (NbController *c, NbPriority priority,
                                          const char *owner, guint64 epoch, const double *t_s,
                                          const double *q, guint n, NbGoalDone done,
                                          gpointer data, GError **error);

/* /cobot/stop: the current motion is held where it is, waiting goals are
 * invalidated; each gets its done with "cancelled".  Returns how many. */
guint    nb_controller_stop  (NbController *c);

typedef struct {
  double position[NB_ARM_JOINTS];
  double velocity[NB_ARM_JOINTS];
  double tcp[16];
  gboolean moving;
  /* The base (has_base): its pose in NB_CONTROLLER_BASE_FRAME, on its way
   * while a base goal runs. */
  gboolean has_base, base_moving;
  double base_x_mm, base_y_mm, base_theta_deg;
  guint goals;                  /* goals sent to the controller so far */
  /* When the latest of them (number `goals`) began to move, µs of the wall
   * clock (g_get_real_time); 0 before the first. */
  gint64 goal_started_us;
  guint stops;                  /* motion stops so far */
} NbControllerState;

void     nb_controller_state (NbController *c, NbControllerState *state);
/* The arm's joints at the monotonic instant t_us (g_get_monotonic_time)
 * as the motion published when it started stands then, from any thread
 * (the simulated tracker's, nb-tracker-stream.h): during a motion where it
 * has brought them (the servo's ring included), at rest where they are. */
void     nb_controller_joints_at (NbController *c, gint64 t_us, double q[NB_ARM_JOINTS]);
/* The load the simulated arm carries at its TCP (kg, ≥ 0; 0 at first), set
 * by POST /sim/payload, read from any thread: the simulated tracker sees the
 * TCP give way under it (nb_sim_arm_true_pose's payload_kg, ISO 9283 6.6);
 * the joints the arm reports are the encoders', unchanged by it. */
void     nb_controller_set_payload (NbController *c, double kg);
double   nb_controller_payload_kg  (NbController *c);

G_END_DECLS
