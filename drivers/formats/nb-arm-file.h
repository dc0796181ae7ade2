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

/* Also the TCP of the active tool (tool_active.xacro, see nb_arm_active_tool);
 * without that file the TCP is link_ee (tool "none"). */
gboolean nb_arm_model_load (const char *robot_dir, NbArmModel *model, GError **error);

/* The active tool as robot setup wrote it: the fixed tcp_joint on link_ee with
 * its origin (xyz m, rpy rad); tool_name (optional) the label of the tool,
 * NULL when the file does not say. */
gboolean nb_arm_active_tool (const char *robot_dir, char **tool_name, double xyz[3],
                             double rpy[3], GError **error);

G_END_DECLS

G_BEGIN_DECLS

/* ------------------------------------------------ tools and positions -- */

/* A tool of tools.yaml: its Xacro, the chain's end link, the TCP from
 * link_ee (xyz m, rpy rad) and the self-collision pairs to disable. */
typedef struct {
  char *name;
  char *description;
  char *xacro;                  /* "" for none */
  char *end_link;
  double xyz[3], rpy[3];
  GPtrArray *pairs;             /* of char*: link1, link2, link1, link2, … */
} NbArmTool;

void       nb_arm_tool_free  (NbArmTool *tool);
/* Of NbArmTool*, in the file's order. */
GPtrArray *nb_arm_tools_load (const char *robot_dir, GError **error);

/* seeds/002 "Выбор инструмента из реестра": rewrites tool_active.xacro
 * (the tool's include and the fixed TCP joint on link_ee) and iiwa7.srdf (the
 * chain's tip, the pairs marked reason="Tool"), keeping every group_state.
 * Both files are replaced atomically. */
gboolean   nb_arm_setup_tool (const char *robot_dir, const NbArmTool *tool, GError **error);

/* A named position: an SRDF group_state. */
typedef struct {
  char *name;
  char *group;
  char *description;            /* "" when the SRDF gives none */
  GPtrArray *joints;            /* of char* */
  GArray *values;               /* of double, rad */
} NbNamedPosition;

void       nb_named_position_free (NbNamedPosition *position);
/* Of NbNamedPosition*, in the SRDF's order. */
GPtrArray *nb_arm_named_positions (const char *robot_dir, GError **error);

G_END_DECLS
