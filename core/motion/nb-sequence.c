#include "nb-sequence.h"

#include "nb-error.h"
#include "nb-json-load.h"
#include "nb-record-words.h"

#include <json-glib/json-glib.h>
#include <stdarg.h>
#include <math.h>
#include <string.h>

static void
point_clear (gpointer p)
{
  NbSequencePoint *pt = p;

  g_free (pt->name);
  g_free (pt->frame_id);
  g_free (pt->planner);
}

void
nb_sequence_free (NbSequence *s)
{
  if (s == NULL)
    return;
  point_clear (&s->home);
  g_clear_pointer (&s->waypoints, g_array_unref);
  g_clear_pointer (&s->topics, g_ptr_array_unref);
  g_free (s->bag_path);
  g_free (s);
}

/* Keys starting with '_' are comments (JSON has none of its own). */
static gboolean
check_keys (JsonObject *o, const char *const *allowed, const char *name, const char *where,
            GError **error)
{
  g_autoptr (GList) members = json_object_get_members (o);

  for (GList *l = members; l; l = l->next)
    {
      const char *key = l->data;

      if (key[0] == '_' || g_strv_contains (allowed, key))
        continue;
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s: unknown key '%s'", name, where, key);
      return FALSE;
    }
  return TRUE;
}

static gboolean
numbers (JsonNode *node, double *out, guint n, const char *name, const char *where,
         const char *what, GError **error)
{
  JsonArray *a;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) ||
      json_array_get_length (a = json_node_get_array (node)) != n)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s: expected %s (%u numbers)", name,
                   where, what, n);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      JsonNode *e = json_array_get_element (a, i);

      if (json_node_get_value_type (e) != G_TYPE_DOUBLE && json_node_get_value_type (e) != G_TYPE_INT64)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s[%u]: not a number", name, where, i);
          return FALSE;
        }
      out[i] = json_node_get_double (e);
      if (!isfinite (out[i]))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s[%u]: not finite", name, where, i);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
string_member (JsonObject *o, const char *key, char **out, const char *name, const char *where,
               GError **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s.%s: expected a string", name, where,
                   key);
      return FALSE;
    }
  *out = g_strdup (json_node_get_string (n));
  return TRUE;
}

static gboolean
parse_point (JsonNode *node, NbSequencePoint *pt, const char *name, const char *where,
             GError **error)
{
  static const char *const point_keys[] = { "name", "joints", "pose", "planner", NULL };
  static const char *const pose_keys[] = { "frame_id", "position", "orientation", NULL };
  JsonObject *o;
  gboolean has_joints, has_pose;

  memset (pt, 0, sizeof *pt);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s: expected a point (an object)", name,
                   where);
      return FALSE;
    }
  o = json_node_get_object (node);
  if (!check_keys (o, point_keys, name, where, error) ||
      !string_member (o, "name", &pt->name, name, where, error))
    return FALSE;
  has_joints = json_object_has_member (o, "joints");
  has_pose = json_object_has_member (o, "pose");
  if (has_joints == has_pose)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: %s: a point has either \"joints\" or \"pose\"", name, where);
      return FALSE;
    }
  if (has_joints)
    {
      g_autofree char *w = g_strdup_printf ("%s.joints", where);

      pt->kind = NB_POINT_JOINTS;
      if (json_object_has_member (o, "planner"))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s: %s: a joint point takes no planner (MoveToJoints)", name, where);
          return FALSE;
        }
      return numbers (json_object_get_member (o, "joints"), pt->joints, NB_ARM_JOINTS, name, w,
                      "seven joint angles in rad", error);
    }
  {
    JsonNode *pose = json_object_get_member (o, "pose");
    g_autofree char *w = g_strdup_printf ("%s.pose", where);
    g_autofree char *wp = g_strdup_printf ("%s.pose.position", where);
    g_autofree char *wo = g_strdup_printf ("%s.pose.orientation", where);
    JsonObject *po;
    double norm;

    pt->kind = NB_POINT_POSE;
    if (!JSON_NODE_HOLDS_OBJECT (pose))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s: expected an object", name, w);
        return FALSE;
      }
    po = json_node_get_object (pose);
    if (!check_keys (po, pose_keys, name, w, error) ||
        !string_member (po, "frame_id", &pt->frame_id, name, w, error) ||
        !numbers (json_object_get_member (po, "position"), pt->position, 3, name, wp,
                  "x, y, z in m", error) ||
        !numbers (json_object_get_member (po, "orientation"), pt->orientation, 4, name, wo,
                  "a quaternion x, y, z, w", error) ||
        !string_member (o, "planner", &pt->planner, name, where, error))
      return FALSE;
    norm = sqrt (pt->orientation[0] * pt->orientation[0] + pt->orientation[1] * pt->orientation[1] +
                 pt->orientation[2] * pt->orientation[2] + pt->orientation[3] * pt->orientation[3]);
    if (fabs (norm - 1.0) > 1e-6)
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s: not a unit quaternion (norm %g)",
                     name, wo, norm);
        return FALSE;
      }
    if (pt->planner == NULL || *pt->planner == '\0')
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "%s: %s: a Cartesian point needs its \"planner\" (MoveToPose)", name, where);
        return FALSE;
      }
    if (pt->frame_id == NULL)
      pt->frame_id = g_strdup ("");
    return TRUE;
  }
}

NbSequence *
nb_sequence_parse (const char *name, const char *json, gssize len, GError **error)
{
  static const char *const keys[] = { "home", "waypoints", "n_iterations", "pause_s", "bag_path",
                                      "topics", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (NbSequence) s = g_new0 (NbSequence, 1);
  g_autoptr (GError) local = NULL;
  JsonObject *o;
  JsonNode *n;

  s->waypoints = g_array_new (FALSE, TRUE, sizeof (NbSequencePoint));
  g_array_set_clear_func (s->waypoints, point_clear);
  s->topics = g_ptr_array_new_with_free_func (g_free);
  s->n_iterations = 1;
  if (!nb_json_load (parser, name, json, len, error))
    return NULL;
  /* An empty document parses, without a root. */
  if (json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: a sequence is a JSON object", name);
      return NULL;
    }
  o = json_node_get_object (json_parser_get_root (parser));
  if (!check_keys (o, keys, name, "the sequence", error) ||
      !parse_point (json_object_get_member (o, "home"), &s->home, name, "home", error))
    return NULL;
  n = json_object_get_member (o, "waypoints");
  if (n != NULL && !JSON_NODE_HOLDS_ARRAY (n))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: waypoints: expected a list", name);
      return NULL;
    }
  for (guint i = 0; n && i < json_array_get_length (json_node_get_array (n)); i++)
    {
      g_autofree char *where = g_strdup_printf ("waypoints[%u]", i);
      NbSequencePoint pt;

      if (!parse_point (json_array_get_element (json_node_get_array (n), i), &pt, name, where,
                        error))
        {
          point_clear (&pt);
          return NULL;
        }
      g_array_append_val (s->waypoints, pt);
    }
  if ((n = json_object_get_member (o, "n_iterations")) != NULL)
    {
      if (json_node_get_value_type (n) != G_TYPE_INT64 || json_node_get_int (n) < 1 ||
          json_node_get_int (n) > 1000000)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s: n_iterations: expected a whole number from 1", name);
          return NULL;
        }
      s->n_iterations = (guint) json_node_get_int (n);
    }
  if ((n = json_object_get_member (o, "pause_s")) != NULL)
    {
      if ((json_node_get_value_type (n) != G_TYPE_DOUBLE &&
           json_node_get_value_type (n) != G_TYPE_INT64) || !(json_node_get_double (n) >= 0.0))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s: pause_s: expected seconds, not negative", name);
          return NULL;
        }
      s->pause_s = json_node_get_double (n);
    }
  if (!string_member (o, "bag_path", &s->bag_path, name, "the sequence", error))
    return NULL;
  if ((n = json_object_get_member (o, "topics")) != NULL)
    {
      if (!JSON_NODE_HOLDS_ARRAY (n))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: topics: expected a list", name);
          return NULL;
        }
      for (guint i = 0; i < json_array_get_length (json_node_get_array (n)); i++)
        {
          JsonNode *t = json_array_get_element (json_node_get_array (n), i);

          if (json_node_get_value_type (t) != G_TYPE_STRING)
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: topics[%u]: expected a string",
                           name, i);
              return NULL;
            }
          g_ptr_array_add (s->topics, g_strdup (json_node_get_string (t)));
        }
    }
  return g_steal_pointer (&s);
}

NbSequence *
nb_sequence_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len;
  g_autoptr (GError) local = NULL;

  if (!g_file_get_contents (path, &text, &len, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s", local->message);
      return NULL;
    }
  return nb_sequence_parse (path, text, (gssize) len, error);
}

/* ------------------------------------------------------------- runner -- */

static void
logf_ (NbRunnerLogFunc log, gpointer data, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
logf_ (NbRunnerLogFunc log, gpointer data, const char *format, ...)
{
  g_autofree char *line = NULL;
  va_list ap;

  if (log == NULL)
    return;
  va_start (ap, format);
  line = g_strdup_vprintf (format, ap);
  va_end (ap);
  log (line, data);
}

static const char *
point_name (const NbSequencePoint *pt)
{
  return pt->name ? pt->name : "";
}

gboolean
nb_sequence_run (const NbSequence *s, guint iterations, const NbRobotOps *ops, gpointer robot,
                 const volatile int *stop_requested, NbRunnerLogFunc log, gpointer data,
                 GError **error)
{
  guint n = iterations ? iterations : s->n_iterations;
  guint m = s->waypoints->len + 2;      /* home → waypoints → home */

  for (guint it = 0; it < n; it++)
    {
      if (it > 0 && s->pause_s > 0)
        {
          double left = s->pause_s;

          logf_ (log, data, NB_MSG_SEQ_PAUSE, s->pause_s);
          /* In slices, so that a stop during a long pause is not kept waiting. */
          while (left > 0 && !(stop_requested && *stop_requested))
            {
              double slice = MIN (left, 0.1);

              ops->wait (robot, slice);
              left -= slice;
            }
        }
      for (guint k = 0; k < m; k++)
        {
          const NbSequencePoint *pt = k == 0 || k == m - 1 ? &s->home
                                      : &g_array_index (s->waypoints, NbSequencePoint, k - 1);
          g_autoptr (GError) local = NULL;
          gboolean ok;

          /* A stop request is honoured before the next point (POST /stop, SIGTERM). */
          if (stop_requested && *stop_requested)
            {
              ops->stop (robot);
              logf_ (log, data, NB_MSG_SEQ_STOP_LOG, it + 1, n, k + 1, m);
              g_set_error (error, NB_ERROR, NB_ERROR_FAILED, NB_MSG_SEQ_STOPPED, it + 1,
                           k + 1);
              return FALSE;
            }
          if (pt->kind == NB_POINT_JOINTS)
            {
              logf_ (log, data, NB_MSG_SEQ_JOINTS, it + 1, n, k + 1, m, point_name (pt));
              ok = ops->move_to_joints (robot, pt->joints, &local);
            }
          else
            {
              logf_ (log, data, NB_MSG_SEQ_POSE, it + 1, n, k + 1, m, point_name (pt), pt->planner,
                     *pt->frame_id ? pt->frame_id : "planning.default_frame");
              ok = ops->move_to_pose (robot, pt->frame_id, pt->position, pt->orientation,
                                      pt->planner, &local);
            }
          if (!ok)
            {
              /* seeds/003: a failed goal stops the sequence; nothing further is sent. */
              ops->stop (robot);
              logf_ (log, data, NB_MSG_SEQ_FAILED_LOG, local->message);
              g_set_error (error, local->domain, local->code, NB_MSG_SEQ_FAILED, it + 1, k + 1,
                           point_name (pt), local->message);
              return FALSE;
            }
        }
    }
  logf_ (log, data, n == 1 ? NB_MSG_SEQ_DONE_ONE : NB_MSG_SEQ_DONE, n, m);
  return TRUE;
}
