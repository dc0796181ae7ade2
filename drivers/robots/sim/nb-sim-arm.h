/* nb-sim-arm.h — the simulated iiwa 7: joint motion at the limits' velocities
 * on a virtual clock, seeded noise and backlash on the attained joints, and
 * fault injection; it speaks NbRobotOps so the sequence runner drives it as
 * it drives the real stack. */
#pragma once

#include <glib.h>

#include "nb-arm.h"
#include "nb-sequence.h"

G_BEGIN_DECLS

typedef struct {
  NbArmModel model;
  char *default_frame;          /* planning.default_frame: "base_link" */
  double q[NB_ARM_JOINTS];      /* attained joints */
  double clock_s;               /* the virtual clock */
  gboolean real_time;           /* also sleep what the clock advances */
  double noise_rad;             /* σ of the attained joints */
  double backlash_rad;          /* lost motion on a reversal */
  GRand *rand;
  guint goals;                  /* goals received (MoveToJoints + MoveToPose) */
  guint stops;                  /* motion stops requested */
  guint fail_goal;              /* 1-based goal to fail; 0: none */
  guint stall_goal;             /* 1-based goal that never finishes: the result times out */
  double slow_factor;           /* motion takes this many times longer (1: rated) */
  double goal_timeout_s;        /* how long the runner's goal waits for a result */
  char *last_frame;             /* the frame of the last Cartesian goal, as used */
  double last_dir[NB_ARM_JOINTS];
  /* Called whenever the virtual clock advances, with the joints at both ends
   * (linear in between: the simulator moves its joints synchronously), so a
   * recorder can sample the motion at its own rate. */
  void (*on_advance) (gpointer data, double t0_s, const double q0[NB_ARM_JOINTS], double t1_s,
                      const double q1[NB_ARM_JOINTS]);
  gpointer on_advance_data;
  /* The error model an ISO 9283 test recovers (all zero by default: the
   * arm is its nominal model).  The true arm differs from the model the
   * commands are computed on: its joints sit joint_offset_rad from what the
   * encoders read, its DH link lengths d are d + link_error_m; the TCP a
   * tracker sees is nb_sim_arm_true_pose.  With settle_omega_rad_s > 0 the
   * joints follow the commanded ramp as a second-order servo (natural
   * frequency ω, damping ratio ζ: an underdamped one overshoots and rings),
   * the goal ends settle_dwell_s after the ramp, and on_advance is called
   * every millisecond of the motion. */
  double joint_offset_rad[NB_ARM_JOINTS];
  double link_error_m[NB_ARM_JOINTS];
  double settle_omega_rad_s;
  double settle_zeta;
  double settle_dwell_s;
  NbArmModel truth;             /* the model with the link errors (nb_sim_arm_set_errors) */
  /* Load (ISO 9283 6.6): payload_kg at the TCP deflects the joints, each by
   * compliance_rad_per_nm · its torque τ_j = F·∂p_TCP/∂q_j, F = (0, 0, −m·g)
   * + tcp_force_n, so the TCP gives way in proportion to the load (and by
   * how the pose levers it).
   * Drift (7.6): the encoder offsets grow as the arm warms up,
   * drift_rad · (1 − e^(−t/drift_tau_s)) on the virtual clock.  speed_error:
   * the ramps run (1 + speed_error) times as fast as commanded (8.6). */
  double payload_kg;
  double tcp_force_n[3];        /* an external force at the TCP, base frame (ISO 9283 10) */
  double compliance_rad_per_nm[NB_ARM_JOINTS];
  double drift_rad[NB_ARM_JOINTS];
  double drift_tau_s;
  double speed_error;
} NbSimArm;

void  nb_sim_arm_init  (NbSimArm *arm, const NbArmModel *model, guint32 seed);
void  nb_sim_arm_clear (NbSimArm *arm);
const NbRobotOps *nb_sim_arm_ops (void);
/* The active tool's TCP (from tools.yaml): flange → TCP. */
void  nb_sim_arm_set_tcp (NbSimArm *arm, const double xyz[3], const double rpy[3]);
/* Applies joint_offset_rad and link_error_m as set (call after changing them). */
void  nb_sim_arm_set_errors (NbSimArm *arm);
/* Where the TCP really is with the encoders at q: FK of the true arm. */
void  nb_sim_arm_true_pose (const NbSimArm *arm, const double q[NB_ARM_JOINTS], double pose[16]);

G_END_DECLS
