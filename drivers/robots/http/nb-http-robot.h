/* nb-http-robot.h — the motion stack's HTTP interface as a robot (client mode)
 *
 * The sequence runner drives a robot through NbRobotOps; this one speaks the
 * motion HTTP API (seeds/001–003, as `navbench-cli serve` serves it and the
 * real stack's web server does): MoveToJoints is POST /robot/joints,
 * MoveToPose POST /robot/pose, motion stop POST /cobot/stop, the state GET
 * /robot/state.  Each goal's request returns with its terminal result, so
 * the runner waits for one result before sending the next goal.  The calls
 * block: use it from the runner's own process or a worker thread, never from
 * a window's main loop.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "nb-arm.h"
#include "nb-sequence.h"

G_BEGIN_DECLS

typedef struct NbHttpRobot NbHttpRobot;

/* base_url: http://HOST:PORT[/prefix]; token: the bearer token or NULL;
 * goal_timeout_s: how long a goal's result may take. */
NbHttpRobot      *nb_http_robot_new   (const char *base_url, const char *token,
                                       double goal_timeout_s, GError **error);
void              nb_http_robot_free  (NbHttpRobot *robot);
const NbRobotOps *nb_http_robot_ops   (void);
/* The joint goals from now on at f ∈ (0, 1] of the joints' velocity limits:
 * POST /robot/joints carries "max_velocity_scaling_factor": f (MoveIt's
 * name; `navbench-cli serve` takes it) when f < 1, nothing at 1 (default). */
void              nb_http_robot_set_velocity_scaling (NbHttpRobot *robot, double f);
/* A timed trajectory, POST /robot/trajectory (the direct trajectory of
 * seeds/001, FollowJointTrajectory's points; docs/http-api.md): n points,
 * t_s[k] from now (increasing) and the joints q[k·7 …], followed
 * joint-linearly on their times, in one goal up to NB_HTTP_TRAJECTORY_PIECE
 * points (`serve` takes 10 000 points in a body of up to 4 MiB: ≈ 180 bytes
 * a point here; docs/http-api.md "Trajectory body"), so that a path (a
 * weave's 2 000 points) runs without a stop.  A longer one goes as
 * consecutive goals, each from the last one's end, the arm at rest between
 * them for a request's way there and back. */
#define NB_HTTP_TRAJECTORY_PIECE 10000
gboolean          nb_http_robot_follow_trajectory (NbHttpRobot *robot, const double *t_s,
                                                   const double *q, guint n, GError **error);
/* The load at the TCP of a simulated arm, POST /sim/payload {"kg": kg}
 * (`navbench-cli serve`: its tracker sees the TCP give way under it; ISO
 * 9283 6.6).  *simulated is whether the robot took it: a stack that has no
 * such route (404, 405) is loaded by the operator, and that is no error;
 * any other refusal or failure is. */
gboolean          nb_http_robot_set_payload (NbHttpRobot *robot, double kg, gboolean *simulated,
                                             GError **error);
/* The goals and motion stops sent so far; the connections the goals' and
 * the state's requests have used (each kept alive while the server keeps
 * it: a connection per request when it closes each). */
guint             nb_http_robot_goals (NbHttpRobot *robot);
guint             nb_http_robot_stops (NbHttpRobot *robot);
guint             nb_http_robot_connections (NbHttpRobot *robot);

typedef struct {
  gint64 stamp_us;                 /* the server's wall clock */
  double position[NB_ARM_JOINTS];  /* rad, joint1..joint7 */
  double velocity[NB_ARM_JOINTS];  /* rad/s */
  char frame_id[64];               /* of the TCP pose */
  double tcp_position[3];          /* m */
  double tcp_orientation[4];       /* x, y, z, w */
  gboolean moving;
  /* The goal sequence (docs/http-api.md "Goal sequence in the state"):
   * has_goals when the server gives it; goals the motion goals it has
   * started, goal_started_us when the latest began to move, on stamp_us's
   * clock (0: none yet). */
  gboolean has_goals;
  guint goals;
  gint64 goal_started_us;
  /* The mobile base, when the robot has one ("base": `serve --base`). */
  gboolean has_base;
  char base_frame_id[64];
  double base_position[3];         /* m */
  double base_orientation[4];      /* x, y, z, w */
  gboolean base_moving;
} NbRobotState;

/* GET /robot/state.  Thread-safe against a goal in flight on another thread
 * (each thread has its own connection). */
gboolean nb_http_robot_state (NbHttpRobot *robot, NbRobotState *state, GError **error);
/* The state from its JSON object (what the robot's server sent): every
 * member checked, NB_ERROR_FAILED naming the first that is wrong. */
gboolean nb_robot_state_from_json (JsonObject *object, NbRobotState *state, GError **error);
/* An error answer's {"error": "...", "detail": ...} as one line (whatever
 * the members hold). */
char    *nb_http_error_text       (JsonObject *object);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbHttpRobot, nb_http_robot_free)

G_END_DECLS
