/* nb-arm-file.h — the arm model from its files (data/robots/<robot>/)
 *
 * joint_limits.yaml (the ROS joint_limits layout: has_position_limits,
 * min/max_position, has_velocity_limits, max_velocity, has_soft_limits,
 * soft_lower/upper_limit) and kinematics.yaml (dh: jointN: {a, alpha, d,
 * theta}).  Every joint joint1..joint7 must be there with finite numbers and
 * a soft range inside the hard one; errors name the file, line and key.
 */
#pragma once

#include <glib.h>

#include "nb-arm.h"

G_BEGIN_DECLS

gboolean nb_arm_model_load (const char *robot_dir, NbArmModel *model, GError **error);

G_END_DECLS
