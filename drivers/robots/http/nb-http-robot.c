#include "nb-http-robot.h"

#include "nb-error.h"
#include "nb-json-load.h"

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <math.h>
#include <string.h>

struct NbHttpRobot {
  char *base;                   /* without the trailing '/' */
  char *token;
  double goal_timeout_s;
  /* libsoup sessions belong to one thread: one for the goals (the runner's),
   * one for the state (a recorder's), each made in the thread that uses it. */
  SoupSession *goal_session;
  SoupSession *state_session;
  /* The connection each last used (soup_message_get_connection_id; 0:
   * none yet), and how many connections they have used in all (atomic). */
  guint64 goal_conn, state_conn;
  gint connections;
  guint goals;
  gint stops;                   /* atomic: stop and interrupt may race */
  double velocity_scaling;      /* of the joint goals; 1: not sent */
};

NbHttpRobot *
nb_http_robot_new (const char *base_url, const char *token, double goal_timeout_s,
                   GError **error)
{
  g_autoptr (GUri) uri = g_uri_parse (base_url, G_URI_FLAGS_NONE, NULL);
  NbHttpRobot *r;

  if (uri == NULL || g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 ||
      g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0')
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "--robot %s: expected sim, sim-base or http://HOST:PORT", base_url);
      return NULL;
    }
  r = g_new0 (NbHttpRobot, 1);
  r->base = g_strdup (base_url);
  while (*r->base && r->base[strlen (r->base) - 1] == '/')
    r->base[strlen (r->base) - 1] = '\0';
  r->token = g_strdup (token);
  r->goal_timeout_s = goal_timeout_s;
  r->velocity_scaling = 1.0;
  return r;
}

void
nb_http_robot_set_velocity_scaling (NbHttpRobot *r, double f)
{
  r->velocity_scaling = f;
}

void
nb_http_robot_free (NbHttpRobot *r)
{
  if (r == NULL)
    return;
  g_clear_object (&r->goal_session);
  g_clear_object (&r->state_session);
  g_free (r->base);
  g_free (r->token);
  g_free (r);
}

guint
nb_http_robot_goals (NbHttpRobot *r)
{
  return r->goals;
}

guint
nb_http_robot_stops (NbHttpRobot *r)
{
  return (guint) g_atomic_int_get (&r->stops);
}

guint
nb_http_robot_connections (NbHttpRobot *r)
{
  return (guint) g_atomic_int_get (&r->connections);
}

/* How long a session keeps an idle connection for its next request: below
 * the server's own idle timeout (`serve`: 5 s, nb-listener.h), so that the
 * client closes it first rather than send into one the server is closing;
 * and an idle connection the server closed (libsoup 3.2 keeps it until
 * then) is let go within as long. */
#define IDLE_TIMEOUT_S 2

static SoupSession *
session (SoupSession **slot, double timeout_s)
{
  /* No proxy: the motion stack is on the lab's network, and the system's
   * proxy resolver (libproxy) costs seconds at its first request.  The
   * requests of one session go one after the other on one kept-alive
   * connection (a state poll costs no connect). */
  if (*slot == NULL)
    *slot = soup_session_new_with_options ("timeout", (guint) ceil (timeout_s),
                                           "idle-timeout", IDLE_TIMEOUT_S,
                                           "max-conns-per-host", 1,
                                           "user-agent", "navbench", "proxy-resolver", NULL,
                                           NULL);
  return *slot;
}

char *
nb_http_error_text (JsonObject *o)
{
  JsonNode *what = json_object_get_member (o, "error");
  JsonNode *detail = json_object_get_member (o, "detail");
  g_autofree char *detail_text = NULL;
  const char *w = what != NULL && JSON_NODE_HOLDS_VALUE (what) &&
                  json_node_get_value_type (what) == G_TYPE_STRING
                  ? json_node_get_string (what) : "?";

  if (detail != NULL && JSON_NODE_HOLDS_VALUE (detail) &&
      json_node_get_value_type (detail) == G_TYPE_STRING)
    detail_text = g_strdup (json_node_get_string (detail));
  else if (detail != NULL && !JSON_NODE_HOLDS_NULL (detail))
    detail_text = json_to_string (detail, FALSE);
  return g_strconcat (w, detail_text ? ": " : "", detail_text ? detail_text : "", NULL);
}

/* One request; the parsed JSON answer of a 2xx, else an error carrying the
 * server's {"error", "detail"}: 400/404/422 are the request's fault
 * (NB_ERROR_INPUT), the rest a failure of the robot (NB_ERROR_FAILED). */
static JsonNode *
call_status (NbHttpRobot *r, SoupSession *s, const char *method, const char *path,
             const char *body, guint *status_out, GError **error)
{
  g_autofree char *url = g_strconcat (r->base, path, NULL);
  g_autoptr (SoupMessage) msg = soup_message_new (method, url);
  g_autoptr (GBytes) answer = NULL;
  g_autoptr (GError) local = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *data;
  gsize len;
  guint status;

  if (msg == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: not a valid URL", url);
      return NULL;
    }
  if (body != NULL)
    {
      g_autoptr (GBytes) b = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", b);
    }
  if (r->token != NULL)
    {
      g_autofree char *auth = g_strconcat ("Bearer ", r->token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
    }
  answer = soup_session_send_and_read (s, msg, NULL, &local);
  {
    guint64 *last = s == r->goal_session ? &r->goal_conn
                    : s == r->state_session ? &r->state_conn : NULL;
    guint64 id = soup_message_get_connection_id (msg);

    if (last != NULL && id != 0 && id != *last)
      {
        *last = id;
        g_atomic_int_inc (&r->connections);
      }
  }
  if (answer == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s %s: %s", method, url, local->message);
      return NULL;
    }
  status = soup_message_get_status (msg);
  if (status_out != NULL)
    *status_out = status;
  data = g_bytes_get_data (answer, &len);
  if (!nb_json_load (parser, NULL, data ? data : "", (gssize) len, NULL) ||
      json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s %s: HTTP %u without a JSON object",
                   method, url, status);
      return NULL;
    }
  if (status < 200 || status > 299)
    {
      g_autofree char *text = nb_http_error_text (json_node_get_object (json_parser_get_root (parser)));

      g_set_error (error, NB_ERROR,
                   status == 400 || status == 404 || status == 422
                   ? NB_ERROR_INPUT : NB_ERROR_FAILED,
                   "%s %s: HTTP %u: %s", method, path, status, text);
      return NULL;
    }
  return json_node_copy (json_parser_get_root (parser));
}

static JsonNode *
call (NbHttpRobot *r, SoupSession *s, const char *method, const char *path, const char *body,
      GError **error)
{
  return call_status (r, s, method, path, body, NULL, error);
}

static void
append_numbers (GString *s, const double *v, guint n)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_c (s, '[');
  for (guint i = 0; i < n; i++)
    {
      if (i)
        g_string_append_c (s, ',');
      g_string_append (s, g_ascii_dtostr (buf, sizeof buf, v[i]));
    }
  g_string_append_c (s, ']');
}

static gboolean
move_to_joints (gpointer robot, const double q[NB_ARM_JOINTS], GError **error)
{
  NbHttpRobot *r = robot;
  g_autoptr (GString) body = g_string_new ("{\"joints\":");
  g_autoptr (JsonNode) answer = NULL;

  append_numbers (body, q, NB_ARM_JOINTS);
  /* Only below the limits' velocity: a goal at 100 % is the stack's plain
   * MoveToJoints body. */
  if (r->velocity_scaling != 1.0)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (body, ",\"max_velocity_scaling_factor\":%s",
                              g_ascii_dtostr (buf, sizeof buf, r->velocity_scaling));
    }
  g_string_append_c (body, '}');
  r->goals++;
  answer = call (r, session (&r->goal_session, r->goal_timeout_s), "POST", "/robot/joints",
                 body->str, error);
  return answer != NULL;
}

gboolean
nb_http_robot_set_payload (NbHttpRobot *r, double kg, gboolean *simulated, GError **error)
{
  g_autofree char *body = NULL;
  g_autoptr (JsonNode) answer = NULL;
  g_autoptr (GError) local = NULL;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  guint status = 0;

  body = g_strdup_printf ("{\"kg\":%s}", g_ascii_dtostr (buf, sizeof buf, kg));
  answer = call_status (r, session (&r->goal_session, r->goal_timeout_s), "POST", "/sim/payload",
                        body, &status, &local);
  *simulated = answer != NULL;
  /* A stack without the simulator's route: the operator loads the arm. */
  if (answer == NULL && (status == 404 || status == 405))
    return TRUE;
  if (answer == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_http_robot_follow_trajectory (NbHttpRobot *r, const double *t_s, const double *q, guint n,
                                 GError **error)
{
  double t_prev = 0;

  for (guint from = 0; from < n; from += NB_HTTP_TRAJECTORY_PIECE)
    {
      guint to = MIN (n, from + NB_HTTP_TRAJECTORY_PIECE);
      g_autoptr (GString) body = g_string_new ("{\"points\":[");
      g_autoptr (JsonNode) answer = NULL;
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      for (guint k = from; k < to; k++)
        {
          /* 10 significant digits: 1e-9 rad, a nanometre at the arm's reach. */
          g_string_append (body, k > from ? ",{\"positions\":[" : "{\"positions\":[");
          for (int i = 0; i < NB_ARM_JOINTS; i++)
            g_string_append_printf (body, i ? ",%.10g" : "%.10g", q[k * NB_ARM_JOINTS + i]);
          g_string_append_printf (body, "],\"time_from_start\":%s}",
                                  g_ascii_formatd (buf, sizeof buf, "%.9f", t_s[k] - t_prev));
        }
      g_string_append (body, "]}");
      r->goals++;
      answer = call (r, session (&r->goal_session, r->goal_timeout_s),
                     "POST", "/robot/trajectory", body->str, error);
      if (answer == NULL)
        {
          if (from > 0)
            g_prefix_error (error, "the trajectory's points %u–%u: ", from + 1, to);
          return FALSE;
        }
      t_prev = t_s[to - 1];
    }
  return TRUE;
}

static gboolean
move_to_pose (gpointer robot, const char *frame_id, const double position[3],
              const double orientation[4], const char *planner, GError **error)
{
  NbHttpRobot *r = robot;
  g_autoptr (GString) body = g_string_new (NULL);
  g_autoptr (JsonNode) answer = NULL;
  g_autofree char *frame = g_strescape (frame_id ? frame_id : "", NULL);
  g_autofree char *plan = g_strescape (planner ? planner : "", NULL);

  g_string_append_printf (body, "{\"frame_id\":\"%s\",\"planner\":\"%s\",\"position\":", frame,
                          plan);
  append_numbers (body, position, 3);
  g_string_append (body, ",\"orientation\":");
  append_numbers (body, orientation, 4);
  g_string_append_c (body, '}');
  r->goals++;
  answer = call (r, session (&r->goal_session, r->goal_timeout_s), "POST", "/robot/pose",
                 body->str, error);
  return answer != NULL;
}

static void
stop (gpointer robot)
{
  NbHttpRobot *r = robot;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) answer = NULL;

  g_atomic_int_inc (&r->stops);
  /* Best effort: the runner is already failing or stopping. */
  answer = call (r, session (&r->goal_session, r->goal_timeout_s), "POST", "/cobot/stop", "{}",
                 &error);
  if (answer == NULL)
    g_warning ("motion stop: %s", error->message);
}

static void
interrupt (gpointer robot)
{
  NbHttpRobot *r = robot;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) answer = NULL;

  SoupSession *control = NULL;

  g_atomic_int_inc (&r->stops);
  /* /cobot/stop cancels the goal in flight: its request returns 409 cancelled.
   * From another thread than the goal's, so on a session of its own. */
  answer = call (r, session (&control, 10.0), "POST", "/cobot/stop", "{}", &error);
  g_object_unref (control);
  if (answer == NULL)
    g_warning ("motion stop: %s", error->message);
}

static void
wait_s (gpointer robot, double seconds)
{
  /* The real stack's pause is wall time. */
  if (seconds > 0)
    g_usleep ((gulong) (seconds * 1e6));
}

const NbRobotOps *
nb_http_robot_ops (void)
{
  static const NbRobotOps ops = { move_to_joints, move_to_pose, stop, wait_s, interrupt };

  return &ops;
}

static gboolean
numbers (JsonObject *o, const char *key, double *v, guint n, GError **error)
{
  JsonNode *node = json_object_get_member (o, key);
  JsonArray *a;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) ||
      json_array_get_length (a = json_node_get_array (node)) != n)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "GET /robot/state: %s: expected %u numbers",
                   key, n);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      JsonNode *e = json_array_get_element (a, i);

      if (!JSON_NODE_HOLDS_VALUE (e) || (json_node_get_value_type (e) != G_TYPE_DOUBLE &&
                                         json_node_get_value_type (e) != G_TYPE_INT64))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "GET /robot/state: %s[%u]: not a number",
                       key, i);
          return FALSE;
        }
      v[i] = json_node_get_double (e);
      if (!isfinite (v[i]))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "GET /robot/state: %s[%u]: not finite",
                       key, i);
          return FALSE;
        }
    }
  return TRUE;
}

/* A member that must be a string when it is there. */
static gboolean
optional_string (JsonObject *o, const char *key, const char **out, GError **error)
{
  JsonNode *n = json_object_get_member (o, key);

  *out = NULL;
  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "GET /robot/state: %s: expected a string",
                   key);
      return FALSE;
    }
  *out = json_node_get_string (n);
  return TRUE;
}

gboolean
nb_robot_state_from_json (JsonObject *o, NbRobotState *st, GError **error)
{
  JsonObject *tcp;
  JsonNode *names, *n;
  const char *frame;

  memset (st, 0, sizeof *st);
  /* seeds/002: all seven joints, by name, in order. */
  names = json_object_get_member (o, "name");
  if (names == NULL || !JSON_NODE_HOLDS_ARRAY (names) ||
      json_array_get_length (json_node_get_array (names)) != NB_ARM_JOINTS)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "GET /robot/state: name: expected the seven "
                   "joints joint1..joint7");
      return FALSE;
    }
  for (guint i = 0; i < NB_ARM_JOINTS; i++)
    {
      JsonNode *e = json_array_get_element (json_node_get_array (names), i);
      char expected[16];

      g_snprintf (expected, sizeof expected, "joint%u", i + 1);
      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_STRING ||
          g_strcmp0 (json_node_get_string (e), expected) != 0)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "GET /robot/state: name[%u]: expected %s",
                       i, expected);
          return FALSE;
        }
    }
  if (!numbers (o, "position", st->position, NB_ARM_JOINTS, error) ||
      !numbers (o, "velocity", st->velocity, NB_ARM_JOINTS, error))
    return FALSE;
  n = json_object_get_member (o, "tcp");
  if (n == NULL || !JSON_NODE_HOLDS_OBJECT (n))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "GET /robot/state: no tcp pose");
      return FALSE;
    }
  tcp = json_node_get_object (n);
  if (!numbers (tcp, "position", st->tcp_position, 3, error) ||
      !numbers (tcp, "orientation", st->tcp_orientation, 4, error) ||
      !optional_string (tcp, "frame_id", &frame, error))
    return FALSE;
  g_strlcpy (st->frame_id, frame ? frame : "", sizeof st->frame_id);
  /* The server's stamp when it gives one (an integer), else now. */
  n = json_object_get_member (o, "stamp_us");
  st->stamp_us = n != NULL && JSON_NODE_HOLDS_VALUE (n) &&
                 json_node_get_value_type (n) == G_TYPE_INT64 ? json_node_get_int (n)
                 : g_get_real_time ();
  n = json_object_get_member (o, "moving");
  st->moving = n != NULL && JSON_NODE_HOLDS_VALUE (n) &&
               json_node_get_value_type (n) == G_TYPE_BOOLEAN && json_node_get_boolean (n);
  /* The goal sequence, when the server gives it: both or neither. */
  n = json_object_get_member (o, "goals");
  if (n != NULL)
    {
      JsonNode *m = json_object_get_member (o, "goal_started_us");

      if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64 ||
          json_node_get_int (n) < 0 || json_node_get_int (n) > G_MAXUINT)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "GET /robot/state: goals: expected a "
                       "count");
          return FALSE;
        }
      if (m == NULL || !(JSON_NODE_HOLDS_NULL (m) ||
                         (JSON_NODE_HOLDS_VALUE (m) && json_node_get_value_type (m) == G_TYPE_INT64
                          && json_node_get_int (m) > 0)))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "GET /robot/state: goal_started_us: "
                       "expected the latest goal's start (µs) or null");
          return FALSE;
        }
      st->has_goals = TRUE;
      st->goals = (guint) json_node_get_int (n);
      st->goal_started_us = JSON_NODE_HOLDS_NULL (m) ? 0 : json_node_get_int (m);
    }
  /* A mobile base, when there is one: checked as the tcp is. */
  if ((n = json_object_get_member (o, "base")) != NULL)
    {
      JsonObject *base;
      JsonNode *m;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "GET /robot/state: base: expected the "
                       "base's pose (an object)");
          return FALSE;
        }
      base = json_node_get_object (n);
      if (!numbers (base, "position", st->base_position, 3, error) ||
          !numbers (base, "orientation", st->base_orientation, 4, error) ||
          !optional_string (base, "frame_id", &frame, error))
        return FALSE;
      g_strlcpy (st->base_frame_id, frame ? frame : "", sizeof st->base_frame_id);
      m = json_object_get_member (base, "moving");
      st->base_moving = m != NULL && JSON_NODE_HOLDS_VALUE (m) &&
                        json_node_get_value_type (m) == G_TYPE_BOOLEAN &&
                        json_node_get_boolean (m);
      st->has_base = TRUE;
    }
  return TRUE;
}

gboolean
nb_http_robot_state (NbHttpRobot *r, NbRobotState *st, GError **error)
{
  g_autoptr (JsonNode) answer = call (r, session (&r->state_session, 10.0), "GET", "/robot/state",
                                      NULL, error);

  return answer != NULL && nb_robot_state_from_json (json_node_get_object (answer), st, error);
}
