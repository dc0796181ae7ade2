/* nb-rosbag-private.h — rosbag2-style recordings: a directory with one MCAP file and
 * metadata.yaml (issue #7 "Recording"; seeds/003 "Повторы и запись")
 *
 * <path>/<basename(path)>_0.mcap holds ROS 2 CDR messages (profile "ros2",
 * schemas "ros2msg" with the full definition text rosbag2 embeds, message
 * encoding "cdr"), chunked with a summary and index (nb-mcap.h);
 * <path>/metadata.yaml is rosbag2's bag information, version 5 (the layout of
 * ROS 2 Humble), written only once the MCAP file is complete.
 *
 * Replace rule: path must lie strictly inside the recordings root once made
 * absolute, `..` applied and the symlinks of its existing ancestors resolved.
 * An existing directory at path is removed first only when it is a previous
 * recording: a regular metadata.yaml that starts with
 * rosbag2_bagfile_information, and nothing else but regular *.mcap files.
 * Anything else — outside the root, the root itself, a file, a symlink, any
 * other directory — is refused with NB_ERROR_INPUT naming the path and why,
 * and nothing is deleted.  Missing directories between the root and path are
 * created.  The checks and the removal happen on directory descriptors
 * opened from the root with O_NOFOLLOW, and the files are created through
 * the recording directory's descriptor: a directory swapped for a symlink
 * meanwhile makes the creation fail, never reach outside the root.
 *
 * File I/O only, blocking: a GUI runs it in a worker thread.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct NbRosbag NbRosbag;

typedef enum {
  NB_ROS_JOINT_STATE,   /* sensor_msgs/msg/JointState */
  NB_ROS_POSE_STAMPED,  /* geometry_msgs/msg/PoseStamped */
} NbRosType;

NbRosbag *nb_rosbag_create (const char *path, const char *root, GError **error);
/* The replace rule alone: would nb_rosbag_create accept path?  Nothing is
 * created or removed (a previous recording there is checked, not removed). */
gboolean  nb_rosbag_check_path (const char *path, const char *root, GError **error);
/* The same with an MCAP chunk size (0: the default 1 MiB), for tests. */
NbRosbag *nb_rosbag_create_full (const char *path, const char *root, gsize chunk_size,
                                 GError **error);

/* topic: a fully qualified ROS 2 name ("/joint_states"), once per bag. */
gboolean nb_rosbag_add_topic (NbRosbag *bag, const char *topic, NbRosType type,
                              guint16 *channel_id, GError **error);

/* t_ns: nanoseconds since the epoch of the recording's clock; both the
 * header stamp and the MCAP log time.  velocity and effort may be NULL (an
 * empty array). */
gboolean nb_rosbag_write_joint_state (NbRosbag *bag, guint16 channel, gint64 t_ns,
                                      const char *frame_id, guint n, const char *const *names,
                                      const double *position, const double *velocity,
                                      const double *effort, GError **error);
gboolean nb_rosbag_write_pose_stamped (NbRosbag *bag, guint16 channel, gint64 t_ns,
                                       const char *frame_id, const double position[3],
                                       const double orientation[4] /* x, y, z, w */,
                                       GError **error);

/* Writes the MCAP summary and footer, then metadata.yaml; frees bag. */
gboolean nb_rosbag_close (NbRosbag *bag, GError **error);
/* Frees bag; what is on disk stays (an MCAP file without footer, no metadata.yaml). */
void     nb_rosbag_abort (NbRosbag *bag);

/* The directory and the MCAP file being written (absolute, symlinks resolved). */
const char *nb_rosbag_get_dir  (const NbRosbag *bag);
const char *nb_rosbag_get_mcap (const NbRosbag *bag);

/* The type name ("sensor_msgs/msg/JointState") and the concatenated ros2msg
 * definition rosbag2 stores as the schema (the type's .msg text, then each
 * dependency as "\n" + 80 '=' + "\nMSG: pkg/Type\n" + its text, depth first
 * in sorted order, as rosbag2_storage_mcap does; ROS 2 Humble texts). */
const char *nb_rosbag_type_name (NbRosType type);
char       *nb_rosbag_message_definition (NbRosType type);

G_END_DECLS
