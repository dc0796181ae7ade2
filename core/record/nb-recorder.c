#include "nb-recorder.h"

#include "nb-error.h"
#include "nb-rosbag-private.h"

#include <math.h>
#include <string.h>

static const struct {
  const char *topic;
  NbRosType type;
} streams[NB_STREAM_COUNT] = {
  [NB_STREAM_JOINT_STATES] = { "/joint_states", NB_ROS_JOINT_STATE },
  [NB_STREAM_TCP_POSE] = { "/tcp_pose", NB_ROS_POSE_STAMPED },
  [NB_STREAM_MEASURED_POSE] = { "/measured_pose", NB_ROS_POSE_STAMPED },
};

struct NbRecorder {
  NbRosbag *bag;
  gboolean wanted[NB_STREAM_COUNT];
  guint16 channel[NB_STREAM_COUNT];
  guint64 count;
};

/* A relative bag_path lies under the root. */
static char *
bag_dir (const char *bag_path, const char *root)
{
  return g_path_is_absolute (bag_path) || root == NULL ? g_strdup (bag_path)
         : g_build_filename (root, bag_path, NULL);
}

gboolean
nb_recorder_check_path (const char *bag_path, const char *root, GError **error)
{
  g_autofree char *path = bag_dir (bag_path, root);

  return nb_rosbag_check_path (path, root, error);
}

NbRecorder *
nb_recorder_new (const char *bag_path, const char *root, const GPtrArray *topics, GError **error)
{
  g_autofree char *path = bag_dir (bag_path, root);
  NbRecorder *r = g_new0 (NbRecorder, 1);

  if (topics == NULL || topics->len == 0)
    r->wanted[NB_STREAM_JOINT_STATES] = r->wanted[NB_STREAM_TCP_POSE] = TRUE;
  for (guint i = 0; topics && i < topics->len; i++)
    {
      const char *t = g_ptr_array_index (topics, i);
      gboolean known = FALSE;

      for (int s = 0; s < NB_STREAM_COUNT; s++)
        if (g_str_equal (t, streams[s].topic))
          known = r->wanted[s] = TRUE;
      if (!known)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "topics[%u]: '%s' is not a stream "
                       "navbench records (/joint_states, /tcp_pose, /measured_pose)", i, t);
          g_free (r);
          return NULL;
        }
    }
  if ((r->bag = nb_rosbag_create (path, root, error)) == NULL)
    {
      g_free (r);
      return NULL;
    }
  for (int s = 0; s < NB_STREAM_COUNT; s++)
    if (r->wanted[s] &&
        !nb_rosbag_add_topic (r->bag, streams[s].topic, streams[s].type, &r->channel[s], error))
      {
        nb_recorder_abort (r);
        return NULL;
      }
  return r;
}

gboolean
nb_recorder_wants (const NbRecorder *r, NbStream s)
{
  return r->wanted[s];
}

guint64
nb_recorder_count (const NbRecorder *r)
{
  return r->count;
}

const char *
nb_recorder_dir (const NbRecorder *r)
{
  return nb_rosbag_get_dir (r->bag);
}

gboolean
nb_recorder_joints (NbRecorder *r, gint64 t_ns, const double q[NB_ARM_JOINTS],
                    const double qd[NB_ARM_JOINTS], GError **error)
{
  /* seeds/002: joint1..joint7 in that order. */
  static const char *const names[NB_ARM_JOINTS] = { "joint1", "joint2", "joint3", "joint4",
                                                    "joint5", "joint6", "joint7" };

  if (!r->wanted[NB_STREAM_JOINT_STATES])
    return TRUE;
  if (!nb_rosbag_write_joint_state (r->bag, r->channel[NB_STREAM_JOINT_STATES], t_ns, "",
                                    NB_ARM_JOINTS, names, q, qd, NULL, error))
    return FALSE;
  r->count++;
  return TRUE;
}

gboolean
nb_recorder_pose (NbRecorder *r, NbStream s, gint64 t_ns, const char *frame_id,
                  const double position[3], const double orientation[4], GError **error)
{
  g_return_val_if_fail (s != NB_STREAM_JOINT_STATES, FALSE);
  if (!r->wanted[s])
    return TRUE;
  if (!nb_rosbag_write_pose_stamped (r->bag, r->channel[s], t_ns, frame_id, position,
                                     orientation, error))
    return FALSE;
  r->count++;
  return TRUE;
}

gboolean
nb_recorder_close (NbRecorder *r, GError **error)
{
  gboolean ok = nb_rosbag_close (r->bag, error);

  g_free (r);
  return ok;
}

void
nb_recorder_abort (NbRecorder *r)
{
  if (r == NULL)
    return;
  nb_rosbag_abort (r->bag);
  g_free (r);
}
