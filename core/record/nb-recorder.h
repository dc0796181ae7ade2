/* nb-recorder.h — what a sequence run records (seeds/003 "Повторы и запись")
 *
 * The streams navbench can record, by their ROS 2 topic names:
 *   /joint_states   sensor_msgs/msg/JointState   the seven joints (rad, rad/s)
 *   /tcp_pose       geometry_msgs/msg/PoseStamped the TCP in base_link, from the joints
 *   /measured_pose  geometry_msgs/msg/PoseStamped the TCP as the measurement system saw it
 * into a rosbag2-style directory (nb-rosbag.h, with its replace rule).  A
 * relative bag_path lies under the recordings root; the sequence's `topics`
 * chooses the streams (none given: /joint_states and /tcp_pose), an unknown
 * topic is refused naming it.
 */
#pragma once

#include <glib.h>

#include "nb-arm.h"

G_BEGIN_DECLS

typedef enum {
  NB_STREAM_JOINT_STATES,
  NB_STREAM_TCP_POSE,
  NB_STREAM_MEASURED_POSE,
  NB_STREAM_COUNT
} NbStream;

typedef struct NbRecorder NbRecorder;

/* Would nb_recorder_new accept bag_path under root (the replace rule of
 * nb-rosbag)?  Nothing is created or removed: a server refuses a bad
 * bag_path when a sequence is started, not once its runner records. */
gboolean    nb_recorder_check_path (const char *bag_path, const char *root, GError **error);

/* topics: of char*, may be NULL or empty. */
NbRecorder *nb_recorder_new   (const char *bag_path, const char *root, const GPtrArray *topics,
                               GError **error);
gboolean    nb_recorder_wants (const NbRecorder *recorder, NbStream stream);
/* The joint state of joint1..joint7 (qd may be NULL). */
gboolean    nb_recorder_joints (NbRecorder *recorder, gint64 t_ns, const double q[NB_ARM_JOINTS],
                                const double qd[NB_ARM_JOINTS], GError **error);
/* A pose (position m, orientation x, y, z, w) on one of the pose streams;
 * nothing when that stream is not recorded. */
gboolean    nb_recorder_pose   (NbRecorder *recorder, NbStream stream, gint64 t_ns,
                                const char *frame_id, const double position[3],
                                const double orientation[4], GError **error);
guint64     nb_recorder_count  (const NbRecorder *recorder);
const char *nb_recorder_dir    (const NbRecorder *recorder);
/* Summary, index and metadata.yaml; frees.  abort leaves what is on disk. */
gboolean    nb_recorder_close  (NbRecorder *recorder, GError **error);
void        nb_recorder_abort  (NbRecorder *recorder);

G_END_DECLS
