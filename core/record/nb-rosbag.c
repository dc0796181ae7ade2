/* nb-rosbag.c — rosbag2-style recording directories over nb-mcap and nb-cdr */
#define _XOPEN_SOURCE 700  /* realpath(), declared by glibc only for XSI */
#include "nb-rosbag-private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "nb-cdr-private.h"
#include "nb-error.h"
#include "nb-mcap-private.h"

/* ---- message definitions (ROS 2 Humble .msg files, verbatim) ------------- */

static const char JOINT_STATE_MSG[] =
  "# This is a message that holds data to describe the state of a set of torque controlled joints.\n"
  "#\n"
  "# The state of each joint (revolute or prismatic) is defined by:\n"
  "#  * the position of the joint (rad or m),\n"
  "#  * the velocity of the joint (rad/s or m/s) and\n"
  "#  * the effort that is applied in the joint (Nm or N).\n"
  "#\n"
  "# Each joint is uniquely identified by its name\n"
  "# The header specifies the time at which the joint states were recorded. All the joint states\n"
  "# in one message have to be recorded at the same time.\n"
  "#\n"
  "# This message consists of a multiple arrays, one for each part of the joint state.\n"
  "# The goal is to make each of the fields optional. When e.g. your joints have no\n"
  "# effort associated with them, you can leave the effort array empty.\n"
  "#\n"
  "# All arrays in this message should have the same size, or be empty.\n"
  "# This is the only way to uniquely associate the joint name with the correct\n"
  "# states.\n"
  "\n"
  "std_msgs/Header header\n"
  "\n"
  "string[] name\n"
  "float64[] position\n"
  "float64[] velocity\n"
  "float64[] effort\n";

static const char HEADER_MSG[] =
  "# Standard metadata for higher-level stamped data types.\n"
  "# This is generally used to communicate timestamped data\n"
  "# in a particular coordinate frame.\n"
  "\n"
  "# Two-integer timestamp that is expressed as seconds and nanoseconds.\n"
  "builtin_interfaces/Time stamp\n"
  "\n"
  "# Transform frame with which this data is associated.\n"
  "string frame_id\n";

static const char TIME_MSG[] =
  "# This message communicates ROS Time defined here:\n"
  "# https://design.ros2.org/articles/clock_and_time.html\n"
  "\n"
  "# The seconds component, valid over all int32 values.\n"
  "int32 sec\n"
  "\n"
  "# The nanoseconds component, valid in the range [0, 10e9).\n"
  "uint32 nanosec\n";

static const char POSE_STAMPED_MSG[] =
  "# A Pose with reference coordinate frame and timestamp\n"
  "\n"
  "std_msgs/Header header\n"
  "Pose pose\n";

static const char POSE_MSG[] =
  "# A representation of pose in free space, composed of position and orientation.\n"
  "\n"
  "Point position\n"
  "Quaternion orientation\n";

static const char POINT_MSG[] =
  "# This contains the position of a point in free space\n"
  "float64 x\n"
  "float64 y\n"
  "float64 z\n";

static const char QUATERNION_MSG[] =
  "# This represents an orientation in free space in quaternion form.\n"
  "\n"
  "float64 x 0\n"
  "float64 y 0\n"
  "float64 z 0\n"
  "float64 w 1\n";

#define MSG_SEPARATOR \
  "\n================================================================================\nMSG: "

const char *
nb_rosbag_type_name (NbRosType type)
{
  return type == NB_ROS_JOINT_STATE ? "sensor_msgs/msg/JointState"
                                    : "geometry_msgs/msg/PoseStamped";
}

char *
nb_rosbag_message_definition (NbRosType type)
{
  /* rosbag2_storage_mcap's MessageDefinitionCache: the root text, then each
   * dependency not seen before in std::set (sorted) order, depth first. */
  if (type == NB_ROS_JOINT_STATE)
    return g_strconcat (JOINT_STATE_MSG,
                        MSG_SEPARATOR, "std_msgs/Header\n", HEADER_MSG,
                        MSG_SEPARATOR, "builtin_interfaces/Time\n", TIME_MSG, NULL);
  return g_strconcat (POSE_STAMPED_MSG,
                      MSG_SEPARATOR, "geometry_msgs/Pose\n", POSE_MSG,
                      MSG_SEPARATOR, "geometry_msgs/Point\n", POINT_MSG,
                      MSG_SEPARATOR, "geometry_msgs/Quaternion\n", QUATERNION_MSG,
                      MSG_SEPARATOR, "std_msgs/Header\n", HEADER_MSG,
                      MSG_SEPARATOR, "builtin_interfaces/Time\n", TIME_MSG, NULL);
}

/* What `ros2 bag record` stores for a publisher whose QoS it cannot query
 * (history unknown, reliable, volatile, infinite durations; Humble's layout). */
static const char QOS_PROFILES[] =
  "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 2\n"
  "  deadline:\n    sec: 2147483647\n    nsec: 4294967295\n"
  "  lifespan:\n    sec: 2147483647\n    nsec: 4294967295\n"
  "  liveliness: 1\n"
  "  liveliness_lease_duration:\n    sec: 2147483647\n    nsec: 4294967295\n"
  "  avoid_ros_namespace_conventions: false";

/* ---- the bag ------------------------------------------------------------- */

typedef struct {
  char *name;
  NbRosType type;
  guint16 channel;
  guint64 count;
} Topic;

struct NbRosbag {
  int dir_fd;           /* the recording directory: every file is made through it */
  char *dir;
  char *mcap_name;
  char *mcap_path;
  NbMcapWriter *mcap;
  guint16 schema[2];    /* per NbRosType; 0: not yet written */
  GPtrArray *topics;    /* of Topic*, index channel − 1 */
  GByteArray *scratch;
};

static void
topic_free (gpointer p)
{
  Topic *t = p;

  g_free (t->name);
  g_free (t);
}

static void
bag_free (NbRosbag *bag)
{
  nb_mcap_writer_abort (bag->mcap);
  if (bag->dir_fd >= 0)
    close (bag->dir_fd);
  g_free (bag->dir);
  g_free (bag->mcap_name);
  g_free (bag->mcap_path);
  g_ptr_array_unref (bag->topics);
  g_byte_array_unref (bag->scratch);
  g_free (bag);
}

static gboolean
refuse (GError **error, const char *path, const char *why)
{
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: refused as a recording directory: %s",
               path, why);
  return FALSE;
}

/* realpath(3) as a GLib string, or NULL with errno. */
static char *
real_path (const char *path)
{
  char *r = realpath (path, NULL);
  char *copy;

  if (r == NULL)
    return NULL;
  copy = g_strdup (r);
  free (r);
  return copy;
}

/* The absolute target of path: `..` applied and the symlinks of every
 * existing ancestor resolved; the last component itself is not followed (a
 * symlink there is refused by the caller).  NULL with an error when an
 * ancestor cannot be resolved. */
static char *
resolve_target (const char *path, GError **error)
{
  g_autofree char *abs = NULL;
  g_auto (GStrv) parts = NULL;
  g_autofree char *cur = g_strdup ("/");
  guint last = 0;

  if (g_path_is_absolute (path))
    abs = g_strdup (path);
  else
    {
      g_autofree char *cwd = g_get_current_dir ();

      abs = g_build_filename (cwd, path, NULL);
    }
  parts = g_strsplit (abs, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0' && strcmp (parts[i], ".") != 0)
      last = i;
  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *c = parts[i];
      g_autofree char *next = NULL;
      struct stat st;

      if (c[0] == '\0' || strcmp (c, ".") == 0)
        continue;
      if (strcmp (c, "..") == 0)
        {
          /* cur holds no symlink, so its lexical parent is its real parent. */
          next = g_path_get_dirname (cur);
        }
      else
        {
          next = g_build_filename (cur, c, NULL);
          if (i != last && lstat (next, &st) == 0)
            {
              char *r = real_path (next);

              if (r == NULL)
                {
                  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: cannot resolve %s: %s",
                               path, next, g_strerror (errno));
                  return NULL;
                }
              g_free (next);
              next = r;
            }
        }
      g_free (cur);
      cur = g_steal_pointer (&next);
    }
  return g_steal_pointer (&cur);
}

/* TRUE when the first line that is neither blank nor a comment opens
 * rosbag2's bag information. */
static gboolean
is_bag_metadata (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];

      g_strchomp (lines[i]);
      if (l[0] == '\0' || l[0] == '#')
        continue;
      return strcmp (l, "rosbag2_bagfile_information:") == 0;
    }
  return FALSE;
}

/* A directory under at, never through a symlink (ELOOP/ENOTDIR otherwise). */
static int
open_dir_at (int at, const char *name)
{
  return openat (at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static void
close_fd (int *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

/* The whole of a small regular file under at, not through a symlink. */
static char *
read_small_at (int at, const char *name)
{
  int fd = openat (at, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  GString *text = g_string_new (NULL);
  char buf[4096];
  ssize_t n;

  if (fd < 0)
    return g_string_free (text, TRUE), NULL;
  while ((n = read (fd, buf, sizeof buf)) > 0 && text->len < 1024 * 1024)
    g_string_append_len (text, buf, n);
  close (fd);
  if (n < 0)
    return g_string_free (text, TRUE), NULL;
  return g_string_free (text, FALSE);
}

/* Checks that the directory dfd holds a previous recording (a regular
 * metadata.yaml that is rosbag2 bag information, nothing but regular
 * *.mcap files besides) and, when remove is set, empties it.  Everything
 * is done on dfd (fstatat, openat, unlinkat, no name is looked up again
 * from the root): swapping the directory's name for a symlink meanwhile
 * cannot make it read or remove anything else. */
static gboolean
check_previous_recording (const char *path, int dfd, gboolean remove, GError **error)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *meta = NULL;
  gboolean has_meta = FALSE;
  int list_fd = dup (dfd);
  DIR *d = list_fd >= 0 ? fdopendir (list_fd) : NULL;
  struct dirent *e;

  if (d == NULL)
    {
      int saved = errno;

      if (list_fd >= 0)
        close (list_fd);
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", path, g_strerror (saved));
      return FALSE;
    }
  while ((e = readdir (d)) != NULL)
    {
      g_autofree char *why = NULL;
      struct stat st;

      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
        continue;
      if (fstatat (dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG (st.st_mode))
        why = g_strdup_printf ("an existing directory holding '%s', which is not a regular file",
                               e->d_name);
      else if (strcmp (e->d_name, "metadata.yaml") == 0)
        has_meta = TRUE;
      else if (!g_str_has_suffix (e->d_name, ".mcap"))
        why = g_strdup_printf ("an existing directory holding '%s', which is not part of a "
                               "recording", e->d_name);
      if (why != NULL)
        {
          closedir (d);
          return refuse (error, path, why);
        }
      g_ptr_array_add (names, g_strdup (e->d_name));
    }
  closedir (d);
  if (!has_meta)
    return refuse (error, path, "an existing directory without metadata.yaml, not a previous "
                                "recording");
  if ((meta = read_small_at (dfd, "metadata.yaml")) == NULL || !is_bag_metadata (meta))
    return refuse (error, path, "an existing directory whose metadata.yaml is not rosbag2 "
                                "bag information");
  for (guint i = 0; remove && i < names->len; i++)
    if (unlinkat (dfd, g_ptr_array_index (names, i), 0) != 0)
      {
        int saved = errno;

        g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s/%s: %s while removing the previous "
                     "recording", path, (const char *) g_ptr_array_index (names, i),
                     g_strerror (saved));
        return FALSE;
      }
  return TRUE;
}

/* The replace rule's checks on names (nb-rosbag-private.h): the target,
 * absolute with `..` applied and existing ancestors resolved, strictly
 * inside the resolved root.  Returns the target; *rel its part under the
 * root. */
static char *
check_target (const char *path, const char *root, char **root_out, const char **rel,
              GError **error)
{
  g_autofree char *root_real = NULL;
  g_autofree char *target = NULL;
  g_autofree char *prefix = NULL;
  struct stat st;

  if (path == NULL || path[0] == '\0')
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "empty recording path");
      return NULL;
    }
  if (root == NULL || root[0] == '\0')
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no recordings root configured", path);
      return NULL;
    }
  root_real = real_path (root);
  if (root_real == NULL || stat (root_real, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the recordings root %s is not a "
                   "directory (%s)", path, root, root_real == NULL ? g_strerror (errno) : "");
      return NULL;
    }
  target = resolve_target (path, error);
  if (target == NULL)
    return NULL;
  if (strcmp (target, root_real) == 0)
    {
      refuse (error, path, "it is the recordings root itself");
      return NULL;
    }
  prefix = g_str_has_suffix (root_real, "/") ? g_strdup (root_real)
                                             : g_strconcat (root_real, "/", NULL);
  if (!g_str_has_prefix (target, prefix))
    {
      g_autofree char *why = g_strdup_printf ("%s lies outside the recordings root %s",
                                              target, root_real);
      refuse (error, path, why);
      return NULL;
    }
  if (strlen (target) >= PATH_MAX)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", path, g_strerror (ENAMETOOLONG));
      return NULL;
    }
  *rel = target + strlen (prefix);
  *root_out = g_steal_pointer (&root_real);
  return g_steal_pointer (&target);
}

static gboolean
walk_failed (GError **error, const char *path, const char *what, int saved)
{
  if (saved == ELOOP || saved == ENOTDIR)
    return refuse (error, path, "a directory on its way became a symbolic link or a file "
                                "while the recording was prepared");
  g_set_error (error, NB_ERROR,
               saved == ENAMETOOLONG || saved == EEXIST ? NB_ERROR_INPUT : NB_ERROR_FAILED,
               "%s: %s while %s", path, g_strerror (saved), what);
  return FALSE;
}

/* Makes the target directory ready: checks the replace rule, removes a
 * previous recording, creates it.  Every step after the checks on names
 * works on directory descriptors opened from the root without following a
 * symlink, so that nothing outside the root can be removed or written
 * however the tree changes meanwhile.  Returns the directory (absolute) and
 * its descriptor in *dir_fd; check_only: nothing is created or removed. */
static char *
prepare_dir (const char *path, const char *root, gboolean check_only, int *dir_fd,
             GError **error)
{
  g_autofree char *root_real = NULL;
  g_autofree char *target = NULL;
  g_auto (GStrv) parts = NULL;
  const char *rel = NULL;
  int at = -1, dfd = -1;
  guint n;
  struct stat st;

  if ((target = check_target (path, root, &root_real, &rel, error)) == NULL)
    return NULL;
  parts = g_strsplit (rel, "/", -1);
  n = g_strv_length (parts);
  if ((at = open (root_real, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    {
      walk_failed (error, path, "opening the recordings root", errno);
      return NULL;
    }
  /* The missing directories between the root and the target are made. */
  for (guint i = 0; i + 1 < n; i++)
    {
      int next;

      if (parts[i][0] == '\0')
        continue;
      next = open_dir_at (at, parts[i]);
      if (next < 0 && errno == ENOENT)
        {
          if (check_only)
            {
              close_fd (&at);     /* nothing below exists: nothing more to check */
              return g_steal_pointer (&target);
            }
          if (mkdirat (at, parts[i], 0755) != 0 && errno != EEXIST)
            {
              walk_failed (error, path, "creating the recording directory", errno);
              close_fd (&at);
              return NULL;
            }
          next = open_dir_at (at, parts[i]);
        }
      if (next < 0)
        {
          walk_failed (error, path, "creating the recording directory", errno);
          close_fd (&at);
          return NULL;
        }
      close_fd (&at);
      at = next;
    }
  if (at >= 0 && fstatat (at, parts[n - 1], &st, AT_SYMLINK_NOFOLLOW) == 0)
    {
      if (S_ISLNK (st.st_mode) || !S_ISDIR (st.st_mode))
        {
          refuse (error, path, S_ISLNK (st.st_mode) ? "it is a symbolic link"
                                                    : "it exists and is not a directory");
          close_fd (&at);
          return NULL;
        }
      if ((dfd = open_dir_at (at, parts[n - 1])) < 0)
        {
          walk_failed (error, path, "opening the previous recording", errno);
          close_fd (&at);
          return NULL;
        }
      if (!check_previous_recording (path, dfd, !check_only, error))
        {
          close_fd (&dfd);
          close_fd (&at);
          return NULL;
        }
      close_fd (&dfd);
      /* Only an empty directory goes: had the name become a symlink, this
       * fails (ENOTDIR) and removes nothing. */
      if (!check_only && unlinkat (at, parts[n - 1], AT_REMOVEDIR) != 0)
        {
          walk_failed (error, path, "removing the previous recording", errno);
          close_fd (&at);
          return NULL;
        }
    }
  if (check_only)
    {
      close_fd (&at);
      return g_steal_pointer (&target);
    }
  if (mkdirat (at, parts[n - 1], 0755) != 0 || (dfd = open_dir_at (at, parts[n - 1])) < 0)
    {
      walk_failed (error, path, "creating the recording directory", errno);
      close_fd (&at);
      return NULL;
    }
  close_fd (&at);
  *dir_fd = dfd;
  return g_steal_pointer (&target);
}

gboolean
nb_rosbag_check_path (const char *path, const char *root, GError **error)
{
  g_autofree char *target = prepare_dir (path, root, TRUE, NULL, error);

  return target != NULL;
}

NbRosbag *
nb_rosbag_create_full (const char *path, const char *root, gsize chunk_size, GError **error)
{
  int dir_fd = -1;
  g_autofree char *dir = prepare_dir (path, root, FALSE, &dir_fd, error);
  g_autofree char *base = NULL;
  NbRosbag *bag;

  if (dir == NULL)
    return NULL;
  base = g_path_get_basename (dir);
  bag = g_new0 (NbRosbag, 1);
  bag->dir_fd = dir_fd;
  bag->dir = g_steal_pointer (&dir);
  bag->mcap_name = g_strconcat (base, "_0.mcap", NULL);
  bag->mcap_path = g_build_filename (bag->dir, bag->mcap_name, NULL);
  bag->topics = g_ptr_array_new_with_free_func (topic_free);
  bag->scratch = g_byte_array_new ();
  bag->mcap = nb_mcap_writer_new_at (bag->dir_fd, bag->mcap_name, bag->mcap_path, "ros2",
                                     "navbench", chunk_size, error);
  if (bag->mcap == NULL)
    {
      bag_free (bag);
      return NULL;
    }
  return bag;
}

NbRosbag *
nb_rosbag_create (const char *path, const char *root, GError **error)
{
  return nb_rosbag_create_full (path, root, 0, error);
}

const char *
nb_rosbag_get_dir (const NbRosbag *bag)
{
  return bag->dir;
}

const char *
nb_rosbag_get_mcap (const NbRosbag *bag)
{
  return bag->mcap_path;
}

/* A fully qualified ROS 2 topic name: "/" then tokens of [A-Za-z0-9_], not
 * starting with a digit, separated by single "/" (ROS 2 design, "Topic and
 * Service name mapping"); this also keeps metadata.yaml free of quoting. */
static gboolean
topic_name_valid (const char *topic)
{
  gboolean token_start = TRUE;

  if (topic == NULL || topic[0] != '/' || topic[1] == '\0')
    return FALSE;
  for (const char *p = topic + 1; *p != '\0'; p++)
    {
      if (*p == '/')
        {
          if (token_start)
            return FALSE;
          token_start = TRUE;
          continue;
        }
      if (!(g_ascii_isalnum (*p) || *p == '_') || (token_start && g_ascii_isdigit (*p)))
        return FALSE;
      token_start = FALSE;
    }
  return !token_start;
}

gboolean
nb_rosbag_add_topic (NbRosbag *bag, const char *topic, NbRosType type, guint16 *channel_id,
                     GError **error)
{
  static const char *const metadata[] = { "offered_qos_profiles", QOS_PROFILES, NULL };
  Topic *t;
  guint16 id;

  if (type != NB_ROS_JOINT_STATE && type != NB_ROS_POSE_STAMPED)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: unknown message type %d", bag->dir,
                   (int) type);
      return FALSE;
    }
  if (!topic_name_valid (topic))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: topic '%s' is not a fully qualified "
                   "ROS 2 name (/a/b, letters, digits, _)", bag->dir, topic != NULL ? topic : "");
      return FALSE;
    }
  for (guint i = 0; i < bag->topics->len; i++)
    if (strcmp (((Topic *) g_ptr_array_index (bag->topics, i))->name, topic) == 0)
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: topic %s added twice", bag->dir, topic);
        return FALSE;
      }
  if (bag->schema[type] == 0)
    {
      g_autofree char *def = nb_rosbag_message_definition (type);

      if (!nb_mcap_writer_add_schema (bag->mcap, nb_rosbag_type_name (type), "ros2msg",
                                      (const guint8 *) def, strlen (def), &bag->schema[type],
                                      error))
        return FALSE;
    }
  if (!nb_mcap_writer_add_channel (bag->mcap, bag->schema[type], topic, "cdr", metadata, &id,
                                   error))
    return FALSE;
  t = g_new0 (Topic, 1);
  t->name = g_strdup (topic);
  t->type = type;
  t->channel = id;
  g_ptr_array_add (bag->topics, t);
  g_assert (id == bag->topics->len);  /* channels are only added here */
  *channel_id = id;
  return TRUE;
}

static Topic *
topic_for (NbRosbag *bag, guint16 channel, NbRosType type, GError **error)
{
  Topic *t;

  if (channel == 0 || channel > bag->topics->len)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no channel %u", bag->dir, channel);
      return NULL;
    }
  t = g_ptr_array_index (bag->topics, channel - 1);
  if (t->type != type)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: topic %s carries %s, not %s", bag->dir,
                   t->name, nb_rosbag_type_name (t->type), nb_rosbag_type_name (type));
      return NULL;
    }
  return t;
}

static gboolean
write_scratch (NbRosbag *bag, Topic *t, gint64 t_ns, GError **error)
{
  if (!nb_mcap_writer_write_message (bag->mcap, t->channel, (guint64) t_ns, bag->scratch->data,
                                     bag->scratch->len, error))
    return FALSE;
  t->count++;
  return TRUE;
}

static gboolean
check_time (NbRosbag *bag, Topic *t, gint64 t_ns, GError **error)
{
  /* MCAP log times are unsigned nanoseconds. */
  if (t_ns < 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s: negative time %" G_GINT64_FORMAT
                   " ns", bag->dir, t->name, t_ns);
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_rosbag_write_joint_state (NbRosbag *bag, guint16 channel, gint64 t_ns, const char *frame_id,
                             guint n, const char *const *names, const double *position,
                             const double *velocity, const double *effort, GError **error)
{
  Topic *t = topic_for (bag, channel, NB_ROS_JOINT_STATE, error);
  GError *local = NULL;

  if (t == NULL || !check_time (bag, t, t_ns, error))
    return FALSE;
  g_byte_array_set_size (bag->scratch, 0);
  if (!nb_cdr_joint_state (bag->scratch, t_ns, frame_id, n, names, position, velocity, effort,
                           &local))
    {
      g_set_error (error, NB_ERROR, local->code, "%s: %s: %s", bag->dir, t->name, local->message);
      g_error_free (local);
      return FALSE;
    }
  return write_scratch (bag, t, t_ns, error);
}

gboolean
nb_rosbag_write_pose_stamped (NbRosbag *bag, guint16 channel, gint64 t_ns, const char *frame_id,
                              const double position[3], const double orientation[4],
                              GError **error)
{
  Topic *t = topic_for (bag, channel, NB_ROS_POSE_STAMPED, error);
  GError *local = NULL;

  if (t == NULL || !check_time (bag, t, t_ns, error))
    return FALSE;
  g_byte_array_set_size (bag->scratch, 0);
  if (!nb_cdr_pose_stamped (bag->scratch, t_ns, frame_id, position, orientation, &local))
    {
      g_set_error (error, NB_ERROR, local->code, "%s: %s: %s", bag->dir, t->name, local->message);
      g_error_free (local);
      return FALSE;
    }
  return write_scratch (bag, t, t_ns, error);
}

/* A YAML double-quoted scalar (YAML 1.2, 7.3.1). */
static void
append_yaml_quoted (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const char *p = s; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (out, "\\%c", *p);
      else if (*p == '\n')
        g_string_append (out, "\\n");
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* metadata.yaml, rosbag2 bag information version 5, in the key order of
 * rosbag2_storage's YAML writer. */
static char *
metadata_yaml (const NbRosbag *bag, guint64 count, guint64 start, guint64 end)
{
  GString *y = g_string_new ("rosbag2_bagfile_information:\n");
  guint64 duration = end - start;

  g_string_append (y, "  version: 5\n  storage_identifier: mcap\n");
  g_string_append_printf (y, "  duration:\n    nanoseconds: %" G_GUINT64_FORMAT "\n", duration);
  g_string_append_printf (y, "  starting_time:\n    nanoseconds_since_epoch: %" G_GUINT64_FORMAT
                          "\n", start);
  g_string_append_printf (y, "  message_count: %" G_GUINT64_FORMAT "\n", count);
  if (bag->topics->len == 0)
    g_string_append (y, "  topics_with_message_count: []\n");
  else
    g_string_append (y, "  topics_with_message_count:\n");
  for (guint i = 0; i < bag->topics->len; i++)
    {
      const Topic *t = g_ptr_array_index (bag->topics, i);

      g_string_append_printf (y, "    - topic_metadata:\n        name: %s\n        type: %s\n"
                              "        serialization_format: cdr\n"
                              "        offered_qos_profiles: ", t->name,
                              nb_rosbag_type_name (t->type));
      append_yaml_quoted (y, QOS_PROFILES);
      g_string_append_printf (y, "\n      message_count: %" G_GUINT64_FORMAT "\n", t->count);
    }
  g_string_append (y, "  compression_format: \"\"\n  compression_mode: \"\"\n");
  g_string_append (y, "  relative_file_paths:\n    - ");
  g_string_append (y, bag->mcap_name);
  g_string_append (y, "\n  files:\n    - path: ");
  g_string_append (y, bag->mcap_name);
  g_string_append_printf (y, "\n      starting_time:\n        nanoseconds_since_epoch: %"
                          G_GUINT64_FORMAT "\n      duration:\n        nanoseconds: %"
                          G_GUINT64_FORMAT "\n      message_count: %" G_GUINT64_FORMAT "\n",
                          start, duration, count);
  return g_string_free (y, FALSE);
}

/* name in dfd, whole or not at all: a temporary file synced, then renamed
 * over it (what G_FILE_SET_CONTENTS_CONSISTENT does by name). */
static gboolean
write_file_at (int dfd, const char *name, const char *text, GError **error)
{
  g_autofree char *tmp = g_strconcat (".", name, ".tmp", NULL);
  gsize len = strlen (text), done = 0;
  int fd, saved = 0;

  unlinkat (dfd, tmp, 0);
  fd = openat (dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    saved = errno;
  while (fd >= 0 && saved == 0 && done < len)
    {
      ssize_t n = write (fd, text + done, len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        saved = n < 0 ? errno : EIO;
      else
        done += (gsize) n;
    }
  if (fd >= 0 && saved == 0 && fsync (fd) != 0)
    saved = errno;
  if (fd >= 0 && close (fd) != 0 && saved == 0)
    saved = errno;
  if (saved == 0 && renameat (dfd, tmp, dfd, name) != 0)
    saved = errno;
  if (saved != 0)
    {
      unlinkat (dfd, tmp, 0);
      g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                           g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_rosbag_close (NbRosbag *bag, GError **error)
{
  g_autofree char *yaml = NULL;
  g_autofree char *meta_path = g_build_filename (bag->dir, "metadata.yaml", NULL);
  guint64 count = nb_mcap_writer_message_count (bag->mcap), start, end;
  GError *local = NULL;
  NbMcapWriter *mcap = bag->mcap;

  nb_mcap_writer_time_range (mcap, &start, &end);
  yaml = metadata_yaml (bag, count, start, end);
  bag->mcap = NULL;
  /* The bag information is written only over a complete MCAP file. */
  if (!nb_mcap_writer_close (mcap, error))
    {
      bag_free (bag);
      return FALSE;
    }
  if (!write_file_at (bag->dir_fd, "metadata.yaml", yaml, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", meta_path, local->message);
      g_error_free (local);
      bag_free (bag);
      return FALSE;
    }
  bag_free (bag);
  return TRUE;
}

void
nb_rosbag_abort (NbRosbag *bag)
{
  if (bag != NULL)
    bag_free (bag);
}
