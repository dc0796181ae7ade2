/* nb-server.h — the motion stack's HTTP API over the simulated robot
 * (seeds/001–003; `navbench-cli serve`)
 *
 *   POST /sequences/start      start `navbench-cli sequence run` as its own process
 *   GET  /sequences/status     running with its pid, or the last outcome
 *   GET  /sequences/logs       the newest log lines (bounded)
 *   POST /stop                 stop the runner, hold the motion, /cobot/stop
 *   POST /cobot/stop           cancel the current operation, invalidate pending ones
 *   GET  /robot/positions      the named positions (SRDF group_states)
 *   GET  /robot/state          the seven joints, the TCP pose
 *   POST /robot/joints         MoveToJoints (422 outside the soft range, before any motion);
 *                              optional max_velocity_scaling_factor in (0, 1]
 *   POST /robot/pose           MoveToPose (empty frame_id: planning.default_frame)
 *   POST /cobot/tcp_gizmo/priority   the priority lease: acquire, renew, release
 *   GET  /cobot/tcp_gizmo/state      the gizmo state: epoch, feedback, lease, last rejection
 *   POST /cobot/tcp_gizmo/goal       one TCP goal per gesture, with the epoch
 *   POST /sim/feedback         the simulator: joint feedback available or not
 *
 * Every answer is JSON; an error is {"error": "...", "detail": ...} with its
 * status.  The server runs on the thread-default GMainContext and never
 * blocks it: motions end on timers, the runner's output is read
 * asynchronously.
 */
#pragma once

#include <glib.h>
#include <gio/gio.h>

#include "nb-arbiter.h"

G_BEGIN_DECLS

typedef struct {
  const char *listen;           /* "127.0.0.1:0" (port 0: any free one) */
  const char *token;            /* bearer token; required unless listening on loopback */
  const char *robot_dir;        /* joint_limits.yaml, kinematics.yaml, tool_active.xacro, SRDF */
  const char *sequences_dir;    /* sequences by name: DIR/NAME.json */
  const char *recordings_root;  /* bag_path lives under it */
  const char *cli_path;         /* the navbench-cli that runs sequences */
  double runner_grace_s;        /* after POST /stop's SIGTERM, SIGKILL when still running */
  const char *default_frame;    /* planning.default_frame ("base_link") */
  double time_scale;            /* wall seconds per simulated second (0: instant) */
  guint32 seed;
  guint fail_goal;              /* the simulator fails its K-th goal (0: never) */
  /* The simulated joints' servo (nb-sim-arm.h settle_*): natural frequency
   * (0: none, the joints ramp), damping ratio, dwell after the ramp. */
  double servo_omega_rad_s, servo_zeta, servo_dwell_s;
  gboolean base;                /* the arm rides on the simulated mobile base: MoveToPose in
                                 * "map" drives it, GET /robot/state gives its pose
                                 * (nb-controller.h) */
  gsize max_body;               /* request bodies above are refused (413) */
  gsize max_trajectory_body;    /* … but POST /robot/trajectory's up to this (4 MiB: 10 000 points) */
  guint max_connections;        /* open at once; beyond, 503 */
  double header_timeout_s;      /* a request's headers must arrive within (408) */
  double body_timeout_s;        /* … then its body within (408) */
  /* Keep-alive (nb-listener.h): a connection waits idle_timeout_s for its
   * next request (0: one request per connection), and takes
   * keepalive_requests at most. */
  double idle_timeout_s;
  guint keepalive_requests;
  guint log_lines;              /* the runner's log keeps the newest lines */
  gsize log_bytes;              /* … and at most this many bytes */
  NbClockFunc clock;            /* the arbiter's wall clock (NULL: real) */
  gpointer clock_data;
} NbServerConfig;

void nb_server_config_init (NbServerConfig *config);

typedef struct NbServer NbServer;

NbServer   *nb_server_new  (const NbServerConfig *config, GError **error);
void        nb_server_free (NbServer *server);
/* "http://127.0.0.1:PORT", "http://[::1]:PORT": where the runner reaches it */
const char *nb_server_url  (NbServer *server);
/* The motion server behind the API (the simulated tracker beside it reads
 * its joints: nb_controller_joints_at). */
struct NbController;
struct NbController *nb_server_controller (NbServer *server);
/* Connections open now (for tests and the soak). */
guint       nb_server_connections (NbServer *server);

/* The named positions as the API gives them (and `robot positions --json`). */
char       *nb_positions_json (GPtrArray *positions);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbServer, nb_server_free)

G_END_DECLS
