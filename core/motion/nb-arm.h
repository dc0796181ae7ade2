/* nb-arm.h — the 7-axis arm of the motion stack (seeds/002): limits and kinematics
 *
 * Joints joint1..joint7 in that order, radians and rad/s.  The limits come
 * from one file (data/robots/iiwa7/joint_limits.yaml, read by
 * drivers/file/nb-arm-file.h) and every check in navbench uses them; the
 * kinematics are the standard Denavit–Hartenberg chain of kinematics.yaml.
 * Poses are 4×4 homogeneous matrices, row-major, metres.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NB_ARM_JOINTS 7

typedef struct {
  char name[16];
  gboolean has_position_limits;
  double min_position, max_position;
  gboolean has_velocity_limits;
  double max_velocity;
  gboolean has_soft_limits;
  double soft_lower, soft_upper;
  /* Standard DH: Rz(θ + offset) · Tz(d) · Tx(a) · Rx(α). */
  double a, alpha, d, theta_offset;
} NbArmJoint;

typedef struct {
  NbArmJoint joint[NB_ARM_JOINTS];
  double tcp[16];               /* flange → TCP (identity for tool "none") */
} NbArmModel;

/* The range a joint command must stay in: the soft range where the file gives
 * one, else the hard limits. */
void     nb_arm_joint_range   (const NbArmJoint *joint, double *lower, double *upper);
/* NB_ERROR_INPUT naming the first joint outside its range, its value and the
 * limit (seeds/002: rejected before any motion). */
gboolean nb_arm_check_joints  (const NbArmModel *model, const double q[NB_ARM_JOINTS],
                               GError **error);

/* The flange → TCP transform of a URDF origin: xyz (m), rpy (rad), with
 * R = Rz(yaw) · Ry(pitch) · Rx(roll) as URDF defines it. */
void     nb_arm_tcp_from_origin (const double xyz[3], const double rpy[3], double tcp[16]);

/* A TCP pose as ROS gives it — position (m) and unit quaternion in (x, y, z, w)
 * order — as a 4×4, and back (the quaternion arithmetic is nb-traj.h's). */
void     nb_arm_pose_to_matrix   (const double position[3], const double orientation[4],
                                  double pose[16]);
void     nb_arm_pose_from_matrix (const double pose[16], double position[3],
                                  double orientation[4]);

/* Forward kinematics: base_link → TCP. */
void     nb_arm_fk            (const NbArmModel *model, const double q[NB_ARM_JOINTS],
                               double pose[16]);
/* Inverse kinematics by damped least squares (GSL), from seed, the joints
 * kept inside their ranges; NB_ERROR_INPUT "unreachable" when it does not
 * converge to within 1e-7 m and 1e-6 rad in max_iterations. */
gboolean nb_arm_ik            (const NbArmModel *model, const double target[16],
                               const double seed[NB_ARM_JOINTS], double q[NB_ARM_JOINTS],
                               GError **error);

G_END_DECLS
