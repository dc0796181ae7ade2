/* The motion HTTP API (seeds/001–003) on loopback: `navbench-cli serve` as
 * its own process, spoken to over real sockets.  Every HTTP scenario of the
 * three seeds, plus malformed JSON, oversized bodies, wrong methods and the
 * bearer token; the runner it spawns drives it back as a client. */
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-raw-http.h"
#include "nb-http-robot.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  guint status;
  JsonNode *root;
  char *allow;
  char *body;
} Reply;

static void
reply_clear (Reply *r)
{
  g_clear_pointer (&r->root, json_node_unref);
  g_clear_pointer (&r->allow, g_free);
  g_clear_pointer (&r->body, g_free);
}

/* One request on a session of its own (callable from any thread); every
 * answer must be a JSON object. */
static Reply
http_full (const char *url, const char *method, const char *path, const char *body,
           const char *token)
{
  g_autoptr (SoupSession) session = soup_session_new_with_options ("timeout", 60,
                                                                          "proxy-resolver", NULL, NULL);
  g_autofree char *full = g_strconcat (url, path, NULL);
  g_autoptr (SoupMessage) msg = soup_message_new (method, full);
  g_autoptr (GBytes) answer = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  Reply r = { 0 };
  gsize len;
  const char *data;

  if (body != NULL)
    {
      g_autoptr (GBytes) b = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", b);
    }
  if (token != NULL)
    {
      g_autofree char *auth = g_strconcat ("Bearer ", token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
    }
  answer = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  r.status = soup_message_get_status (msg);
  r.allow = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (msg),
                                                    "Allow"));
  data = g_bytes_get_data (answer, &len);
  r.body = g_strndup (data ? data : "", len);
  if (!json_parser_load_from_data (parser, r.body, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    g_error ("%s %s: HTTP %u without a JSON object: %s", method, path, r.status, r.body);
  r.root = json_node_copy (json_parser_get_root (parser));
  return r;
}

static Reply
http (const char *url, const char *method, const char *path, const char *body)
{
  return http_full (url, method, path, body, NULL);
}

static JsonObject *
obj (Reply *r)
{
  return json_node_get_object (r->root);
}

/* An error answer: the status and {"error", "detail"} with detail containing `part`. */
static void
assert_error (Reply *r, guint status, const char *part)
{
  JsonObject *o = obj (r);
  JsonNode *detail = json_object_get_member (o, "detail");
  g_autofree char *text = NULL;

  if (r->status != status)
    g_error ("expected HTTP %u, got %u: %s", status, r->status, r->body);
  g_assert_true (json_object_has_member (o, "error"));
  g_assert_nonnull (detail);
  text = JSON_NODE_HOLDS_VALUE (detail) ? g_strdup (json_node_get_string (detail))
         : g_strdup ("");
  if (part != NULL && (text == NULL || strstr (text, part) == NULL))
    g_error ("HTTP %u: detail \"%s\" lacks \"%s\"", r->status, text ? text : "", part);
}

static guint
count_entries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

/* Polls the state until the arm moves (at most 2.5 s). */
static void
wait_moving (const char *url)
{
  for (int i = 0; i < 500; i++)
    {
      Reply r = http (url, "GET", "/robot/state", NULL);
      gboolean moving = json_object_get_boolean_member (obj (&r), "moving");

      reply_clear (&r);
      if (moving)
        return;
      g_usleep (5000);
    }
  g_error ("the arm did not start moving within 2.5 s");
}

static gint64
goals_sent (const char *url)
{
  Reply r = http (url, "GET", "/robot/state", NULL);
  gint64 n = json_object_get_int_member (obj (&r), "goals");

  reply_clear (&r);
  return n;
}

static void
robot_joints (const char *url, double q[7])
{
  Reply r = http (url, "GET", "/robot/state", NULL);
  JsonArray *a = json_object_get_array_member (obj (&r), "position");

  for (guint i = 0; i < 7; i++)
    q[i] = json_array_get_double_element (a, i);
  reply_clear (&r);
}

/* Polls the sequence status until it leaves `running` (at most 60 s). */
static char *
wait_sequence (const char *url)
{
  for (int i = 0; i < 6000; i++)
    {
      Reply r = http (url, "GET", "/sequences/status", NULL);
      char *state = g_strdup (json_object_get_string_member (obj (&r), "state"));

      reply_clear (&r);
      if (!g_str_equal (state, "running"))
        return state;
      g_free (state);
      g_usleep (10000);
    }
  g_error ("the sequence did not end within 60 s");
}

static char *
logs_text (const char *url)
{
  Reply r = http (url, "GET", "/sequences/logs", NULL);
  JsonArray *a = json_object_get_array_member (obj (&r), "lines");
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (a); i++)
    g_string_append_printf (s, "%s\n", json_array_get_string_element (a, i));
  reply_clear (&r);
  return g_string_free (s, FALSE);
}

static char *
source_path (const char *a, const char *b, const char *c)
{
  return g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), a, b, c, NULL);
}

/* ------------------------------------------------------------ seeds/002 -- */

static void
test_positions_and_state (void)
{
  NbTestServer s = nb_test_serve (NULL);
  Reply r = http (s.url, "GET", "/robot/positions", NULL);
  g_autofree char *cli = nb_test_cli_run (NULL, 0, NULL, "robot", "positions", "--json", NULL);
  JsonArray *names;
  JsonObject *ready;

  /* seeds/002 "Запрос каталога": group_states with name, group, description, angles
   * — the same document the CLI gives. */
  g_assert_cmpuint (r.status, ==, 200);
  g_assert_cmpstr (g_strchomp (r.body), ==, g_strchomp (cli));
  ready = json_array_get_object_element (json_object_get_array_member (obj (&r), "positions"), 1);
  g_assert_cmpstr (json_object_get_string_member (ready, "name"), ==, "ready");
  g_assert_cmpstr (json_object_get_string_member (ready, "group"), ==, "manipulator");
  nb_assert_abs (json_object_get_double_member (json_object_get_object_member (ready, "joints"),
                                                "joint4"), -1.2, 0, "ready joint4");
  reply_clear (&r);

  /* seeds/002 "Публикация состояния": names and values of all seven joints. */
  r = http (s.url, "GET", "/robot/state", NULL);
  g_assert_cmpuint (r.status, ==, 200);
  names = json_object_get_array_member (obj (&r), "name");
  g_assert_cmpuint (json_array_get_length (names), ==, 7);
  for (guint i = 0; i < 7; i++)
    {
      g_autofree char *want = g_strdup_printf ("joint%u", i + 1);

      g_assert_cmpstr (json_array_get_string_element (names, i), ==, want);
    }
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (obj (&r), "position")),
                    ==, 7);
  /* All joints at 0: the arm stands straight up, the flange at 0.34+0.4+0.4+0.126 m. */
  nb_assert_abs (json_array_get_double_element (
                   json_object_get_array_member (json_object_get_object_member (obj (&r), "tcp"),
                                                 "position"), 2), 1.266, 1e-12, "TCP z at zero");
  reply_clear (&r);
  nb_test_server_stop (&s);
}

static void
test_joint_motion (void)
{
  NbTestServer s = nb_test_serve (NULL);
  const char *good = "{\"joints\": [0.1, 0.4, -0.2, -1.1, 0.3, 0.7, 0.2]}";
  const double want[7] = { 0.1, 0.4, -0.2, -1.1, 0.3, 0.7, 0.2 };
  Reply r;
  double q[7];

  /* seeds/002 "Суставная цель вне мягкой границы": 422 before any motion. */
  r = http (s.url, "POST", "/robot/joints", "{\"joints\": [0, 0, 0, 2.2, 0, 0, 0]}");
  assert_error (&r, 422, "joint4");
  reply_clear (&r);
  g_assert_cmpint (goals_sent (s.url), ==, 0);
  robot_joints (s.url, q);
  nb_assert_abs (q[3], 0.0, 0, "joint4 did not move");

  r = http (s.url, "POST", "/robot/joints", good);
  g_assert_cmpuint (r.status, ==, 200);
  g_assert_cmpstr (json_object_get_string_member (obj (&r), "result"), ==, "succeeded");
  reply_clear (&r);
  g_assert_cmpint (goals_sent (s.url), ==, 1);
  robot_joints (s.url, q);
  for (int i = 0; i < 7; i++)
    nb_assert_abs (q[i], want[i], 1e-4, "attained joint (noise and backlash ≤ 5e-5 rad)");
  nb_test_server_stop (&s);
}

static void
tcp_position (const char *url, double p[3])
{
  Reply r = http (url, "GET", "/robot/state", NULL);
  JsonArray *a = json_object_get_array_member (json_object_get_object_member (obj (&r), "tcp"),
                                               "position");

  for (guint i = 0; i < 3; i++)
    p[i] = json_array_get_double_element (a, i);
  reply_clear (&r);
}

static void
test_cartesian_default_frame (void)
{
  NbTestServer s = nb_test_serve (NULL);
  NbTestServer w = nb_test_serve ("--default-frame", "world", NULL);
  const char *empty = "{\"frame_id\": \"\", \"position\": [0.45, 0.25, 0.35], "
                      "\"orientation\": [0, 1, 0, 0], \"planner\": \"pilz_ptp\"}";
  Reply r;
  double p[3];

  /* seeds/002 "Рамка не указана": an empty frame_id is planning.default_frame. */
  r = http (s.url, "POST", "/robot/pose", empty);
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  tcp_position (s.url, p);
  nb_assert_abs (p[0], 0.45, 1e-4, "TCP x");
  nb_assert_abs (p[1], 0.25, 1e-4, "TCP y");
  nb_assert_abs (p[2], 0.35, 1e-4, "TCP z");
  /* With another configured default the same request means that frame. */
  r = http (w.url, "POST", "/robot/pose", empty);
  assert_error (&r, 422, "frame_id 'world'");
  reply_clear (&r);
  r = http (s.url, "POST", "/robot/pose", "{\"frame_id\": \"camera\", \"position\": [0.45, 0.25, "
                                          "0.35], \"orientation\": [0, 1, 0, 0]}");
  assert_error (&r, 422, "frame_id 'camera'");
  reply_clear (&r);
  /* Out of reach: a clear 422, not a hang. */
  r = http (s.url, "POST", "/robot/pose", "{\"position\": [2.0, 0, 0.5], \"orientation\": "
                                          "[0, 0, 0, 1]}");
  assert_error (&r, 422, "unreachable");
  reply_clear (&r);
  g_assert_cmpint (goals_sent (w.url), ==, 0);
  nb_test_server_stop (&w);
  nb_test_server_stop (&s);
}

/* ------------------------------------------------- malformed requests -- */

static void
test_bad_requests (void)
{
  NbTestServer s = nb_test_serve (NULL);
  g_autofree char *huge = NULL;
  Reply r;

  r = http (s.url, "POST", "/robot/joints", "{\"joints\": [0, 0,");
  assert_error (&r, 400, NULL);
  g_assert_cmpstr (json_object_get_string_member (obj (&r), "error"), ==, "malformed JSON");
  reply_clear (&r);
  r = http (s.url, "POST", "/robot/joints", "[1, 2]");
  assert_error (&r, 400, "expected a JSON object");
  reply_clear (&r);
  r = http (s.url, "POST", "/robot/joints", "");
  assert_error (&r, 400, "empty body");
  reply_clear (&r);
  r = http (s.url, "POST", "/robot/joints", "{\"joints\": [0, 0, 0, 0, 0, 0]}");
  assert_error (&r, 400, "joints: expected 7 numbers");
  reply_clear (&r);
  r = http (s.url, "POST", "/robot/joints", "{\"joints\": [0, 0, 0, \"x\", 0, 0, 0]}");
  assert_error (&r, 400, "joints[3]: not a number");
  reply_clear (&r);
  r = http (s.url, "POST", "/robot/joints", "{\"joints\": [0, 0, 0, 0, 0, 0, 0], \"speed\": 2}");
  assert_error (&r, 400, "unknown key 'speed'");
  reply_clear (&r);
  /* A body over the cap (64 KiB) is refused unread. */
  huge = g_strnfill (70000, ' ');
  huge[0] = '{';
  huge[69998] = '}';
  r = http (s.url, "POST", "/robot/joints", huge);
  assert_error (&r, 413, NULL);
  reply_clear (&r);
  /* Wrong methods: 405 naming the right one. */
  r = http (s.url, "GET", "/robot/joints", NULL);
  assert_error (&r, 405, "POST");
  g_assert_cmpstr (r.allow, ==, "POST");
  reply_clear (&r);
  r = http (s.url, "DELETE", "/sequences/status", NULL);
  assert_error (&r, 405, "GET");
  g_assert_cmpstr (r.allow, ==, "GET");
  reply_clear (&r);
  r = http (s.url, "GET", "/robot/teleport", NULL);
  assert_error (&r, 404, "/robot/teleport");
  reply_clear (&r);
  r = http (s.url, "POST", "/sequences/start", "{\"name\": \"../../etc/passwd\"}");
  assert_error (&r, 400, "name:");
  reply_clear (&r);
  r = http (s.url, "POST", "/sequences/start", "{\"name\": \"no-such-sequence\"}");
  assert_error (&r, 404, "no sequence 'no-such-sequence'");
  reply_clear (&r);
  r = http (s.url, "POST", "/sequences/start", "{\"sequence\": {\"home\": {\"joints\": [0]}, "
                                               "\"waypoints\": []}}");
  assert_error (&r, 422, "home");
  reply_clear (&r);
  r = http (s.url, "POST", "/sequences/start", "{\"name\": \"pick-and-place\", \"n_iterations\": 0}");
  assert_error (&r, 400, "n_iterations");
  reply_clear (&r);
  r = http (s.url, "GET", "/sequences/logs?lines=0", NULL);
  assert_error (&r, 400, "lines");
  reply_clear (&r);
  /* Nothing of that moved the robot or started a runner. */
  g_assert_cmpint (goals_sent (s.url), ==, 0);
  r = http (s.url, "GET", "/sequences/status", NULL);
  g_assert_cmpstr (json_object_get_string_member (obj (&r), "state"), ==, "idle");
  reply_clear (&r);
  nb_test_server_stop (&s);
}

static void
test_token (void)
{
  g_autofree char *err = NULL;
  Reply r;

  /* Beyond loopback only with a token. */
  g_free (nb_test_cli_run (NULL, 2, &err, "serve", "--listen", "0.0.0.0:0", NULL));
  g_assert_nonnull (strstr (err, "needs a bearer token"));
  {
    NbTestServer s = nb_test_serve ("--listen", "0.0.0.0:0", "--token", "s3cret", NULL);

    r = http (s.url, "GET", "/robot/state", NULL);
    assert_error (&r, 401, "bearer token");
    reply_clear (&r);
    r = http_full (s.url, "GET", "/robot/state", NULL, "wrong");
    assert_error (&r, 401, NULL);
    reply_clear (&r);
    r = http_full (s.url, "GET", "/robot/state", NULL, "s3cret");
    g_assert_cmpuint (r.status, ==, 200);
    reply_clear (&r);
    /* The runner it starts carries the token back to it. */
    r = http_full (s.url, "POST", "/sequences/start", "{\"name\": \"pick-and-place\", "
                   "\"n_iterations\": 1}", "s3cret");
    g_assert_cmpuint (r.status, ==, 202);
    reply_clear (&r);
    for (int i = 0; i < 6000; i++)
      {
        r = http_full (s.url, "GET", "/sequences/status", NULL, "s3cret");
        if (!g_str_equal (json_object_get_string_member (obj (&r), "state"), "running"))
          break;
        reply_clear (&r);
        g_usleep (10000);
      }
    g_assert_cmpstr (json_object_get_string_member (obj (&r), "state"), ==, "succeeded");
    reply_clear (&r);
    nb_test_server_stop (&s);
  }
}

/* ------------------------------------------------------------ seeds/003 -- */

static void
test_sequence_two_iterations (void)
{
  g_autofree char *root = g_dir_make_tmp ("nb-rec-XXXXXX", NULL);
  NbTestServer s = nb_test_serve ("--time-scale", "0.05", "--recordings-root", root, NULL);
  g_autofree char *logs = NULL, *state = NULL;
  g_autoptr (GDir) d = NULL;
  Reply r;
  gint64 pid;

  /* seeds/003 "Две итерации без записи". */
  r = http (s.url, "POST", "/sequences/start", "{\"name\": \"pick-and-place\", \"n_iterations\": 2, "
                                               "\"bag_path\": \"\"}");
  g_assert_cmpuint (r.status, ==, 202);
  pid = json_object_get_int_member (obj (&r), "pid");
  g_assert_cmpint (pid, >, 0);
  reply_clear (&r);
  /* seeds/003 "Запущенный процесс": running with the process id. */
  r = http (s.url, "GET", "/sequences/status", NULL);
  g_assert_cmpstr (json_object_get_string_member (obj (&r), "state"), ==, "running");
  g_assert_cmpint (json_object_get_int_member (obj (&r), "pid"), ==, pid);
  g_assert_cmpint (kill ((pid_t) pid, 0), ==, 0);
  reply_clear (&r);
  state = wait_sequence (s.url);
  g_assert_cmpstr (state, ==, "succeeded");
  logs = logs_text (s.url);
  /* home → 4 waypoints → home, twice: 12 goals, each through the API. */
  g_assert_nonnull (strstr (logs, "iteration 2/2 point 6/6 home: MoveToJoints"));
  g_assert_nonnull (strstr (logs, "done: 2 iterations of 6 points"));
  g_assert_cmpint (goals_sent (s.url), ==, 12);
  /* No recording. */
  d = g_dir_open (root, 0, NULL);
  g_assert_null (g_dir_read_name (d));
  g_rmdir (root);
  nb_test_server_stop (&s);
}

typedef struct {
  const char *url;
  GMutex *lock;
  GCond *cond;
  gboolean *go;
  guint status;
} Starter;

static gpointer
start_thread (gpointer data)
{
  Starter *st = data;
  Reply r;

  g_mutex_lock (st->lock);
  while (!*st->go)
    g_cond_wait (st->cond, st->lock);
  g_mutex_unlock (st->lock);
  r = http (st->url, "POST", "/sequences/start", "{\"name\": \"pick-and-place\", "
                                                 "\"n_iterations\": 3}");
  st->status = r.status;
  reply_clear (&r);
  return NULL;
}

static void
test_concurrent_starts (void)
{
  NbTestServer s = nb_test_serve ("--time-scale", "0.05", NULL);
  Starter st[50];
  GThread *threads[50];
  GMutex lock;
  GCond cond;
  gboolean go = FALSE;
  guint accepted = 0, conflicts = 0;
  g_autofree char *logs = NULL, *state = NULL;

  /* seeds/003 "Второй запуск при активном runner", 50 at once. */
  g_mutex_init (&lock);
  g_cond_init (&cond);
  for (int i = 0; i < 50; i++)
    {
      st[i] = (Starter) { s.url, &lock, &cond, &go, 0 };
      threads[i] = g_thread_new ("start", start_thread, &st[i]);
    }
  g_usleep (100000);
  g_mutex_lock (&lock);
  go = TRUE;
  g_cond_broadcast (&cond);
  g_mutex_unlock (&lock);
  for (int i = 0; i < 50; i++)
    {
      g_thread_join (threads[i]);
      accepted += st[i].status == 202;
      conflicts += st[i].status == 409;
    }
  g_assert_cmpuint (accepted, ==, 1);
  g_assert_cmpuint (conflicts, ==, 49);
  state = wait_sequence (s.url);
  g_assert_cmpstr (state, ==, "succeeded");
  logs = logs_text (s.url);
  /* One process: started once, its 18 goals and no more. */
  g_assert_nonnull (strstr (logs, "server: runner"));
  g_assert_null (strstr (strstr (logs, "started:") + 1, "started:"));
  g_assert_cmpint (goals_sent (s.url), ==, 18);
  g_mutex_clear (&lock);
  g_cond_clear (&cond);
  nb_test_server_stop (&s);
}

static void
test_stop (void)
{
  /* Each point takes ~0.1–0.3 s of wall time. */
  NbTestServer s = nb_test_serve ("--time-scale", "0.3", NULL);
  g_autofree char *logs = NULL, *state = NULL;
  const char *after;
  gint64 goals;
  Reply r;

  r = http (s.url, "POST", "/sequences/start", "{\"name\": \"pick-and-place\", \"n_iterations\": 5}");
  g_assert_cmpuint (r.status, ==, 202);
  reply_clear (&r);
  /* Wait until the third point is under way. */
  for (int i = 0; i < 3000 && goals_sent (s.url) < 3; i++)
    g_usleep (10000);
  g_assert_cmpint (goals_sent (s.url), >=, 3);
  /* seeds/003 "Остановка во время последовательности", seeds/001 "HTTP остановка". */
  r = http (s.url, "POST", "/stop", "{}");
  g_assert_cmpuint (r.status, ==, 200);
  g_assert_cmpstr (json_object_get_string_member (obj (&r), "runner"), ==, "stopping");
  reply_clear (&r);
  goals = goals_sent (s.url);
  state = wait_sequence (s.url);
  g_assert_cmpstr (state, ==, "stopped");
  r = http (s.url, "GET", "/sequences/status", NULL);
  g_assert_cmpstr (json_object_get_string_member (obj (&r), "reason"), ==, "stopped by POST /stop");
  reply_clear (&r);
  /* No point after the stop: the goal count stands, the robot rests. */
  g_usleep (300000);
  g_assert_cmpint (goals_sent (s.url), ==, goals);
  g_assert_cmpint (goals, <, 30);
  logs = logs_text (s.url);
  after = strstr (logs, "server: stop: SIGTERM");
  g_assert_nonnull (after);
  g_assert_null (strstr (after, ": MoveTo"));
  r = http (s.url, "GET", "/robot/state", NULL);
  g_assert_false (json_object_get_boolean_member (obj (&r), "moving"));
  reply_clear (&r);
  nb_test_server_stop (&s);
}

static void
test_logs_bounded (void)
{
  NbTestServer s = nb_test_serve ("--log-lines", "20", NULL);
  g_autofree char *state = NULL;
  JsonArray *lines;
  Reply r;

  r = http (s.url, "POST", "/sequences/start", "{\"name\": \"pick-and-place\", \"n_iterations\": 4}");
  g_assert_cmpuint (r.status, ==, 202);
  reply_clear (&r);
  state = wait_sequence (s.url);
  g_assert_cmpstr (state, ==, "succeeded");
  r = http (s.url, "GET", "/sequences/logs", NULL);
  lines = json_object_get_array_member (obj (&r), "lines");
  /* 4 × 6 points, 3 pauses and the summaries: over 20 lines, the newest 20 kept. */
  g_assert_cmpuint (json_array_get_length (lines), ==, 20);
  g_assert_cmpint (json_object_get_int_member (obj (&r), "dropped"), >, 0);
  g_assert_true (g_str_has_prefix (json_array_get_string_element (lines, 19), "server: runner"));
  g_assert_nonnull (strstr (json_array_get_string_element (lines, 19), "succeeded"));
  reply_clear (&r);
  r = http (s.url, "GET", "/sequences/logs?lines=3", NULL);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (obj (&r), "lines")), ==, 3);
  reply_clear (&r);
  nb_test_server_stop (&s);
}

static void
test_runner_failure (void)
{
  NbTestServer s = nb_test_serve ("--fail-goal", "3", NULL);
  g_autofree char *state = NULL, *logs = NULL;
  Reply r;

  /* seeds/003 "Отказ action": the remaining points are not sent, the run fails. */
  r = http (s.url, "POST", "/sequences/start", "{\"name\": \"pick-and-place\"}");
  g_assert_cmpuint (r.status, ==, 202);
  reply_clear (&r);
  state = wait_sequence (s.url);
  g_assert_cmpstr (state, ==, "failed");
  r = http (s.url, "GET", "/sequences/status", NULL);
  g_assert_cmpint (json_object_get_int_member (obj (&r), "exit_status"), ==, 1);
  g_assert_nonnull (strstr (json_object_get_string_member (obj (&r), "reason"),
                            "iteration 1 point 3 (pick)"));
  reply_clear (&r);
  g_assert_cmpint (goals_sent (s.url), ==, 3);
  logs = logs_text (s.url);
  g_assert_null (strstr (logs, "point 4/6"));
  /* The runner asked for motion stop. */
  r = http (s.url, "GET", "/robot/state", NULL);
  g_assert_cmpint (json_object_get_int_member (obj (&r), "stops"), ==, 1);
  reply_clear (&r);
  nb_test_server_stop (&s);
}

/* The client mode: the runner of one process drives a navbench server. */
static void
test_client_mode (void)
{
  NbTestServer s = nb_test_serve (NULL);
  g_autofree char *seq = source_path ("data", "sequences", "pick-and-place.json");
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "sequence", "run", seq, "--robot", s.url,
                                          "--iterations", "1", NULL);
  g_autofree char *err = NULL;
  double q[7];
  const double home[7] = { 0.0, 0.35, 0.0, -1.2, 0.0, 0.6, 0.0 };

  g_assert_nonnull (strstr (out, "goals sent: 6, motion stops: 0"));
  g_assert_cmpint (goals_sent (s.url), ==, 6);
  robot_joints (s.url, q);
  for (int i = 0; i < 7; i++)
    nb_assert_abs (q[i], home[i], 1e-4, "back home");
  nb_test_server_stop (&s);
  /* Nobody listening: a clear failure. */
  g_free (nb_test_cli_run (NULL, 1, &err, "sequence", "run", seq, "--robot",
                           "http://127.0.0.1:1", NULL));
  g_assert_nonnull (strstr (err, "POST http://127.0.0.1:1/robot/joints"));
  g_clear_pointer (&err, g_free);
  g_free (nb_test_cli_run (NULL, 2, &err, "sequence", "run", seq, "--robot", "ftp://x", NULL));
  g_assert_nonnull (strstr (err, "expected sim, sim-base or http://HOST:PORT"));
}

/* bag_path through the API: under the server's recordings root, a previous
 * recording replaced, anything else refused at the start with the reason. */
static void
test_recording (void)
{
  g_autofree char *root = g_dir_make_tmp ("nb-srv-rec-XXXXXX", NULL);
  g_autofree char *meta = g_build_filename (root, "lab", "run1", "metadata.yaml", NULL);
  g_autofree char *mcap = g_build_filename (root, "lab", "run1", "run1_0.mcap", NULL);
  g_autofree char *outside = g_dir_make_tmp ("nb-srv-out-XXXXXX", NULL);
  g_autofree char *start = g_strdup_printf ("{\"name\": \"pick-and-place\", \"n_iterations\": 1, "
                                            "\"bag_path\": \"%s\"}", outside);
  NbTestServer s = nb_test_serve ("--recordings-root", root, NULL);
  Reply r;

  for (int run = 0; run < 2; run++)
    {
      g_autofree char *state = NULL;

      r = http (s.url, "POST", "/sequences/start", "{\"name\": \"pick-and-place\", "
                "\"n_iterations\": 1, \"bag_path\": \"lab/run1\"}");
      g_assert_cmpuint (r.status, ==, 202);
      reply_clear (&r);
      state = wait_sequence (s.url);
      g_assert_cmpstr (state, ==, "succeeded");
      g_assert_true (g_file_test (meta, G_FILE_TEST_IS_REGULAR));
      g_assert_true (g_file_test (mcap, G_FILE_TEST_IS_REGULAR));
    }
  /* Refused at the start (issue #21: it was 202, then the runner failed). */
  r = http (s.url, "POST", "/sequences/start", start);
  assert_error (&r, 422, "outside");
  reply_clear (&r);
  r = http (s.url, "GET", "/sequences/status", NULL);
  g_assert_cmpstr (json_object_get_string_member (obj (&r), "state"), ==, "succeeded");
  reply_clear (&r);
  g_assert_true (g_file_test (outside, G_FILE_TEST_IS_DIR));
  g_assert_cmpint (goals_sent (s.url), ==, 12);
  nb_test_server_stop (&s);
  g_unlink (meta);
  g_unlink (mcap);
  {
    g_autofree char *run1 = g_path_get_dirname (meta);
    g_autofree char *lab = g_path_get_dirname (run1);

    g_rmdir (run1);
    g_rmdir (lab);
  }
  g_rmdir (root);
  g_rmdir (outside);
}

typedef struct {
  NbHttpRobot *robot;
  GError *error;
  gboolean ok;
  gint64 done_us;
} GoalRun;

static gpointer
goal_thread (gpointer data)
{
  GoalRun *g = data;
  const double q[7] = { 2.5, 0, 0, 0, 0, 0, 0 };

  g->ok = nb_http_robot_ops ()->move_to_joints (g->robot, q, &g->error);
  g->done_us = g_get_monotonic_time ();
  return NULL;
}

/* The client's interrupt (an operator's Stop from another thread) ends the
 * goal that blocks its caller at once, the arm held where it was. */
static void
test_client_interrupt (void)
{
  NbTestServer s = nb_test_serve ("--time-scale", "1", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbHttpRobot) robot = nb_http_robot_new (s.url, NULL, 60.0, &error);
  GoalRun g = { robot, NULL, TRUE, 0 };
  GThread *t;
  gint64 t0;
  double q[7];

  g_assert_no_error (error);
  t = g_thread_new ("goal", goal_thread, &g);
  /* joint1 to 2.5 rad at 1.71 rad/s: about 1.5 s of motion. */
  wait_moving (s.url);
  g_usleep (300000);
  t0 = g_get_monotonic_time ();
  nb_http_robot_ops ()->interrupt (robot);
  g_thread_join (t);
  g_assert_false (g.ok);
  g_assert_nonnull (strstr (g.error->message, "cancelled by motion stop"));
  nb_assert_abs ((g.done_us - t0) * 1e-6, 0.0, 0.3, "the goal returns at the interrupt");
  g_assert_cmpuint (nb_http_robot_stops (robot), ==, 1);
  robot_joints (s.url, q);
  g_assert_cmpfloat (q[0], >, 0.2);
  g_assert_cmpfloat (q[0], <, 2.3);
  g_clear_error (&g.error);
  nb_test_server_stop (&s);
}

/* A runner that ignores SIGTERM is killed after the grace period. */
static void
test_stubborn_runner (void)
{
  g_autofree char *script = source_path ("tests", "data", "server/stubborn-runner.sh");
  NbTestServer s = nb_test_serve ("--runner", script, "--runner-grace-s", "0.5", NULL);
  g_autofree char *state = NULL, *logs = NULL;
  gint64 t0;
  Reply r;

  r = http (s.url, "POST", "/sequences/start", "{\"name\": \"pick-and-place\"}");
  g_assert_cmpuint (r.status, ==, 202);
  reply_clear (&r);
  g_usleep (200000);
  r = http (s.url, "POST", "/stop", "{}");
  g_assert_cmpstr (json_object_get_string_member (obj (&r), "runner"), ==, "stopping");
  reply_clear (&r);
  t0 = g_get_monotonic_time ();
  g_usleep (200000);
  r = http (s.url, "GET", "/sequences/status", NULL);
  g_assert_cmpstr (json_object_get_string_member (obj (&r), "state"), ==, "running");
  reply_clear (&r);
  state = wait_sequence (s.url);
  g_assert_cmpstr (state, ==, "stopped");
  nb_assert_abs ((g_get_monotonic_time () - t0) * 1e-6, 0.5, 0.4, "killed after the grace");
  logs = logs_text (s.url);
  g_assert_nonnull (strstr (logs, "stubborn runner: sequence run"));
  g_assert_nonnull (strstr (logs, "runner did not stop within 0.5 s: SIGKILL"));
  nb_test_server_stop (&s);
}

/* What the client takes from a robot's server: every member checked. */
static void
test_client_state_parse (void)
{
  const char *names = "\"name\": [\"joint1\", \"joint2\", \"joint3\", \"joint4\", \"joint5\", "
                      "\"joint6\", \"joint7\"]";
  const char *q = "[0.5, 0, 0, -1, 0, 0.5, 0]";
  struct { const char *json, *message; } bad[] = {
    { "{\"name\": [\"joint1\"]}", "name: expected the seven joints" },
    { "{\"name\": [\"joint1\", \"joint2\", \"joint3\", {}, \"joint5\", \"joint6\", \"joint7\"]}",
      "name[3]: expected joint4" },
    { "{NAMES, \"position\": [0, 0, 0, \"x\", 0, 0, 0]}", "position[3]: not a number" },
    { "{NAMES, \"position\": [0, 0, 0, 1e400, 0, 0, 0]}", "position[3]: not finite" },
    { "{NAMES, \"position\": Q, \"velocity\": Q}", "no tcp pose" },
    { "{NAMES, \"position\": Q, \"velocity\": Q, \"tcp\": {\"position\": [0, 0, 1], "
      "\"orientation\": [0, 0, 0, 1], \"frame_id\": 7}}", "frame_id: expected a string" },
    /* The goal sequence: both members or neither, a count and a start. */
    { "{NAMES, \"position\": Q, \"velocity\": Q, \"tcp\": {\"position\": [0, 0, 1], "
      "\"orientation\": [0, 0, 0, 1]}, \"goals\": 2}", "goal_started_us: expected" },
    { "{NAMES, \"position\": Q, \"velocity\": Q, \"tcp\": {\"position\": [0, 0, 1], "
      "\"orientation\": [0, 0, 0, 1]}, \"goals\": -1, \"goal_started_us\": null}",
      "goals: expected a count" },
    { "{NAMES, \"position\": Q, \"velocity\": Q, \"tcp\": {\"position\": [0, 0, 1], "
      "\"orientation\": [0, 0, 0, 1]}, \"goals\": 2, \"goal_started_us\": 1.5}",
      "goal_started_us: expected" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GString) json = g_string_new (bad[i].json);
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      NbRobotState st;

      g_string_replace (json, "NAMES", names, 0);
      g_string_replace (json, "Q", q, 0);
      g_assert_true (json_parser_load_from_data (parser, json->str, -1, NULL));
      g_assert_false (nb_robot_state_from_json (json_node_get_object (json_parser_get_root (parser)),
                                                &st, &error));
      if (strstr (error->message, bad[i].message) == NULL)
        g_error ("case %u: \"%s\" lacks \"%s\"", i, error->message, bad[i].message);
    }
  {
    g_autofree char *json = g_strdup_printf ("{%s, \"position\": %s, \"velocity\": %s, \"moving\": "
                                             "true, \"stamp_us\": 42, \"tcp\": {\"position\": [0.1, 0.2, "
                                             "0.3], \"orientation\": [0, 1, 0, 0], \"frame_id\": "
                                             "\"base_link\"}}", names, q, q);
    g_autoptr (JsonParser) parser = json_parser_new ();
    g_autoptr (GError) error = NULL;
    NbRobotState st;

    g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
    g_assert_true (nb_robot_state_from_json (json_node_get_object (json_parser_get_root (parser)),
                                             &st, &error));
    g_assert_no_error (error);
    nb_assert_abs (st.position[3], -1, 0, "joint4");
    nb_assert_abs (st.tcp_position[2], 0.3, 0, "tcp z");
    g_assert_cmpint (st.stamp_us, ==, 42);
    g_assert_true (st.moving);
    g_assert_cmpstr (st.frame_id, ==, "base_link");
    /* A stack that does not give the goal sequence: none. */
    g_assert_false (st.has_goals);
  }
  {
    g_autofree char *json = g_strdup_printf ("{%s, \"position\": %s, \"velocity\": %s, \"tcp\": "
                                             "{\"position\": [0.1, 0.2, 0.3], \"orientation\": "
                                             "[0, 1, 0, 0]}, \"goals\": 3, \"goal_started_us\": "
                                             "1764621000123456}", names, q, q);
    g_autoptr (JsonParser) parser = json_parser_new ();
    g_autoptr (GError) error = NULL;
    NbRobotState st;

    g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
    g_assert_true (nb_robot_state_from_json (json_node_get_object (json_parser_get_root (parser)),
                                             &st, &error));
    g_assert_no_error (error);
    g_assert_true (st.has_goals);
    g_assert_cmpuint (st.goals, ==, 3);
    g_assert_cmpint (st.goal_started_us, ==, G_GINT64_CONSTANT (1764621000123456));
  }
}

/* A joint goal of about a second (joint1 by 1.4 rad at 1.71 rad/s), answered. */
static gpointer
post_joints_thread (gpointer url)
{
  Reply r = http (url, "POST", "/robot/joints", "{\"joints\": [1.7, 0.5, -0.1, -1.2, 0.2, 0.6, 0.1]}");

  if (r.status != 200)
    g_error ("the long goal: HTTP %u", r.status);
  reply_clear (&r);
  return NULL;
}

/* docs/http-api.md "Goal sequence in the state": GET /robot/state counts
 * the goals started and stamps the latest one's start on stamp_us's clock,
 * so that a client which polls seldom still knows each goal and when it
 * began (the ISO 9283 live test's tracker starts its curve there). */
static void
test_goal_sequence (void)
{
  NbTestServer s = nb_test_serve ("--time-scale", "1", NULL);
  const char *goal[2] = { "{\"joints\": [0.1, 0.4, -0.2, -1.1, 0.3, 0.7, 0.2]}",
                          "{\"joints\": [0.3, 0.5, -0.1, -1.2, 0.2, 0.6, 0.1]}" };
  gint64 before[3], after[3];
  Reply r;

  /* Scenario "No goal yet": 0 goals, no start. */
  r = http (s.url, "GET", "/robot/state", NULL);
  g_assert_cmpint (json_object_get_int_member (obj (&r), "goals"), ==, 0);
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (obj (&r), "goal_started_us")));
  reply_clear (&r);
  /* A refused goal (422 before any motion) starts none. */
  r = http (s.url, "POST", "/robot/joints", "{\"joints\": [0, 0, 0, 2.2, 0, 0, 0]}");
  assert_error (&r, 422, "joint4");
  reply_clear (&r);
  /* Scenario "Goals between two polls": three goals, each answered with
   * its result before the next, no poll between them. */
  for (guint k = 0; k < 3; k++)
    {
      before[k] = g_get_real_time ();
      r = http (s.url, "POST", "/robot/joints", goal[k % 2]);
      after[k] = g_get_real_time ();
      g_assert_cmpuint (r.status, ==, 200);
      reply_clear (&r);
    }
  r = http (s.url, "GET", "/robot/state", NULL);
  g_assert_cmpint (json_object_get_int_member (obj (&r), "goals"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (obj (&r), "goal_started_us"), >=, before[2]);
  g_assert_cmpint (json_object_get_int_member (obj (&r), "goal_started_us"), <=, after[2]);
  /* The third goal moves the arm for a while (time scale 1): it began
   * after the second's answer. */
  g_assert_cmpint (json_object_get_int_member (obj (&r), "goal_started_us"), >=, after[1]);
  g_assert_cmpint (json_object_get_int_member (obj (&r), "goal_started_us"), <=,
                   json_object_get_int_member (obj (&r), "stamp_us"));
  reply_clear (&r);
  /* Scenario "Polled during a motion": moving, the start before the stamp
   * and the same start until the next goal. */
  {
    g_autoptr (GThread) mover = NULL;
    gint64 started;

    mover = g_thread_new ("mover", post_joints_thread, (gpointer) s.url);
    wait_moving (s.url);
    r = http (s.url, "GET", "/robot/state", NULL);
    g_assert_true (json_object_get_boolean_member (obj (&r), "moving"));
    g_assert_cmpint (json_object_get_int_member (obj (&r), "goals"), ==, 4);
    started = json_object_get_int_member (obj (&r), "goal_started_us");
    g_assert_cmpint (started, >, after[2]);
    g_assert_cmpint (started, <=, json_object_get_int_member (obj (&r), "stamp_us"));
    reply_clear (&r);
    g_thread_join (g_steal_pointer (&mover));
    r = http (s.url, "GET", "/robot/state", NULL);
    g_assert_false (json_object_get_boolean_member (obj (&r), "moving"));
    g_assert_cmpint (json_object_get_int_member (obj (&r), "goal_started_us"), ==, started);
    reply_clear (&r);
  }
  nb_test_server_stop (&s);
}

/* ------------------------------------------------------------ seeds/001 -- */

static Reply
lease (const char *url, const char *body)
{
  return http (url, "POST", "/cobot/tcp_gizmo/priority", body);
}

static void
test_lease_bounds (void)
{
  NbTestServer s = nb_test_serve (NULL);
  const char *bad[] = { "{\"owner\": \"web\", \"ttl_s\": 0}", "{\"owner\": \"web\", \"ttl_s\": -1}",
                        "{\"owner\": \"web\", \"ttl_s\": 60.001}",
                        "{\"owner\": \"web\", \"ttl_s\": 1e308}", "{\"owner\": \"\", \"ttl_s\": 5}",
                        "{\"ttl_s\": 5}", "{\"owner\": \"web\", \"ttl_s\": \"5\"}" };
  Reply r;

  /* seeds/001 "Некорректный TTL": outside (0, 60] or an empty owner is refused. */
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      r = lease (s.url, bad[i]);
      assert_error (&r, 422, NULL);
      reply_clear (&r);
    }
  r = http (s.url, "GET", "/cobot/tcp_gizmo/state", NULL);
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (obj (&r), "lease_owner")));
  reply_clear (&r);
  r = lease (s.url, "{\"owner\": \"web\", \"ttl_s\": 60}");
  g_assert_cmpuint (r.status, ==, 200);
  nb_assert_abs ((double) (json_object_get_int_member (obj (&r), "expires_us") - g_get_real_time ()),
                 60e6, 2e6, "expires in 60 s");
  reply_clear (&r);
  /* Another owner while it is held; renewal by the holder; release. */
  r = lease (s.url, "{\"owner\": \"teach-pendant\", \"ttl_s\": 5}");
  assert_error (&r, 409, "web");
  reply_clear (&r);
  r = lease (s.url, "{\"owner\": \"teach-pendant\", \"release\": true}");
  assert_error (&r, 409, "web");
  reply_clear (&r);
  r = lease (s.url, "{\"owner\": \"web\", \"ttl_s\": 0.5}");
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  r = http (s.url, "GET", "/cobot/tcp_gizmo/state", NULL);
  g_assert_cmpstr (json_object_get_string_member (obj (&r), "lease_owner"), ==, "web");
  reply_clear (&r);
  r = lease (s.url, "{\"owner\": \"web\", \"release\": true}");
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  r = lease (s.url, "{\"owner\": \"teach-pendant\", \"ttl_s\": 5}");
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  nb_test_server_stop (&s);
}

static gint64
epoch (const char *url)
{
  Reply r = http (url, "GET", "/cobot/tcp_gizmo/state", NULL);
  gint64 e = json_object_get_int_member (obj (&r), "epoch");

  reply_clear (&r);
  return e;
}

static char *
gizmo_body (gint64 e, double x)
{
  return g_strdup_printf ("{\"owner\": \"web\", \"epoch\": %" G_GINT64_FORMAT ", \"frame_id\": \"\", "
                          "\"position\": [%g, 0.1, 0.4], \"orientation\": [0, 1, 0, 0]}", e, x);
}

static void
test_stale_epoch_and_feedback (void)
{
  NbTestServer s = nb_test_serve (NULL);
  g_autofree char *stale = NULL, *fresh = NULL, *again = NULL;
  gint64 e;
  Reply r;

  r = lease (s.url, "{\"owner\": \"web\", \"ttl_s\": 30}");
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  e = epoch (s.url);
  /* seeds/001 "Устаревшая эпоха": not sent, the reason published. */
  stale = gizmo_body (e - 1, 0.4);
  r = http (s.url, "POST", "/cobot/tcp_gizmo/goal", stale);
  assert_error (&r, 409, "epoch");
  reply_clear (&r);
  r = http (s.url, "GET", "/cobot/tcp_gizmo/state", NULL);
  g_assert_nonnull (strstr (json_object_get_string_member (obj (&r), "last_rejection"), "epoch"));
  reply_clear (&r);
  g_assert_cmpint (goals_sent (s.url), ==, 0);
  /* The current epoch: sent, done; the epoch moves on. */
  fresh = gizmo_body (e, 0.4);
  r = http (s.url, "POST", "/cobot/tcp_gizmo/goal", fresh);
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  g_assert_cmpint (goals_sent (s.url), ==, 1);
  g_assert_cmpint (epoch (s.url), >, e);
  /* The same gesture again carries a stale epoch now: one command per gesture. */
  r = http (s.url, "POST", "/cobot/tcp_gizmo/goal", fresh);
  assert_error (&r, 409, "epoch");
  reply_clear (&r);
  /* Without joint feedback no gizmo goal is sent. */
  r = http (s.url, "POST", "/sim/feedback", "{\"available\": false}");
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  again = gizmo_body (epoch (s.url), 0.45);
  r = http (s.url, "POST", "/cobot/tcp_gizmo/goal", again);
  assert_error (&r, 409, "feedback");
  reply_clear (&r);
  g_assert_cmpint (goals_sent (s.url), ==, 1);
  nb_test_server_stop (&s);
}

typedef struct {
  const char *url;
  const char *path;
  char *body;
  guint status;
  char *detail;
  gint64 done_us;
} Request;

static gpointer
request_thread (gpointer data)
{
  Request *q = data;
  Reply r = http (q->url, "POST", q->path, q->body);
  JsonNode *d = json_object_get_member (obj (&r), "detail");

  q->status = r.status;
  q->detail = d && JSON_NODE_HOLDS_VALUE (d) ? g_strdup (json_node_get_string (d)) : NULL;
  q->done_us = g_get_monotonic_time ();
  reply_clear (&r);
  return NULL;
}

static void
test_lease_loss (void)
{
  /* Real time: the gizmo's motion from zero takes ~1.4 s. */
  NbTestServer s = nb_test_serve ("--time-scale", "1", NULL);
  Request low = { 0 };
  GThread *t;
  gint64 t0;
  Reply r;

  r = lease (s.url, "{\"owner\": \"web\", \"ttl_s\": 0.3}");
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  low = (Request) { s.url, "/cobot/tcp_gizmo/goal", gizmo_body (epoch (s.url), 0.4) };
  t0 = g_get_monotonic_time ();
  t = g_thread_new ("low", request_thread, &low);
  g_thread_join (t);
  /* seeds/001 "Потеря аренды": not renewed → the motion aborts with a priority error. */
  g_assert_cmpuint (low.status, ==, 409);
  g_assert_nonnull (strstr (low.detail, "priority"));
  nb_assert_abs ((low.done_us - t0) * 1e-6, 0.3, 0.25, "aborted at the lease's end");
  r = http (s.url, "GET", "/robot/state", NULL);
  g_assert_false (json_object_get_boolean_member (obj (&r), "moving"));
  reply_clear (&r);
  g_free (low.body);
  g_free (low.detail);
  nb_test_server_stop (&s);
}

static void
test_high_waits_for_low (void)
{
  NbTestServer s = nb_test_serve ("--time-scale", "1", NULL);
  Request low, high;
  GThread *tl, *th;
  g_autofree char *blocked = NULL;
  Reply r;

  r = lease (s.url, "{\"owner\": \"web\", \"ttl_s\": 30}");
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  low = (Request) { s.url, "/cobot/tcp_gizmo/goal", gizmo_body (epoch (s.url), 0.4) };
  tl = g_thread_new ("low", request_thread, &low);
  /* Wait until the gizmo trajectory is on its way. */
  wait_moving (s.url);
  /* seeds/001 "Низкая цель ещё исполняется": the high goal waits for the low one's end. */
  high = (Request) { s.url, "/robot/joints",
                     g_strdup ("{\"joints\": [0, 0.35, 0, -1.2, 0, 0.6, 0]}") };
  th = g_thread_new ("high", request_thread, &high);
  g_usleep (100000);
  /* seeds/001 "Цель MoveIt при активности гизмы": new gizmo goals are blocked. */
  blocked = gizmo_body (epoch (s.url), 0.45);
  r = http (s.url, "POST", "/cobot/tcp_gizmo/goal", blocked);
  assert_error (&r, 409, "blocked");
  reply_clear (&r);
  g_thread_join (tl);
  g_thread_join (th);
  g_assert_cmpuint (low.status, ==, 200);
  g_assert_cmpuint (high.status, ==, 200);
  g_assert_cmpint (high.done_us, >, low.done_us);
  g_assert_cmpint (goals_sent (s.url), ==, 2);
  g_free (low.body);
  g_free (high.body);
  nb_test_server_stop (&s);
}

/* The server releases every connection: 300 requests on connections of their
 * own leave its descriptors where they were (libsoup 3.2.2 leaked one per
 * connection its client closed). */
static void
test_no_descriptor_leak (void)
{
  NbTestServer s = nb_test_serve (NULL);
  g_autofree char *fd_dir = g_strdup_printf ("/proc/%d/fd", (int) s.pid);
  guint before, after;

  g_usleep (100000);
  before = count_entries (fd_dir);
  for (int i = 0; i < 300; i++)
    {
      Reply r = http (s.url, i % 2 ? "GET" : "POST", i % 2 ? "/robot/state" : "/robot/joints",
                      i % 2 ? NULL : "{\"joints\": [0, 0, 0, 9, 0, 0, 0]}");

      g_assert_cmpuint (r.status, ==, i % 2 ? 200 : 422);
      reply_clear (&r);
    }
  g_usleep (200000);
  after = count_entries (fd_dir);
  g_assert_cmpuint (after, <=, before + 2);
  nb_test_server_stop (&s);
}

/* The seconds until the server closes fd (a read of 0 or a reset), at most
 * timeout_s (then −1). */
static double
until_closed (int fd, double timeout_s)
{
  gint64 t0 = g_get_monotonic_time ();

  for (;;)
    {
      struct pollfd p = { fd, POLLIN, 0 };
      gint64 left = t0 + (gint64) (timeout_s * 1e6) - g_get_monotonic_time ();
      char buf[256];
      ssize_t n;

      if (left <= 0 || poll (&p, 1, (int) (left / 1000) + 1) == 0)
        return -1;
      n = recv (fd, buf, sizeof buf, 0);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return (g_get_monotonic_time () - t0) / 1e6;
    }
}

#define GET_STATE "GET /robot/state HTTP/1.1\r\nHost: x\r\n\r\n"

/* Keep-alive (nb-listener.h): one connection takes request after request up
 * to --keepalive-requests, the last answered with "Connection: close" and
 * then closed; an idle one is closed after --idle-timeout-s; one its client
 * closes while idle is released (libsoup 3.2 keeps those for good, d20c6601
 * upstream: it would hold 40 descriptors more here); HTTP/1.0 and
 * "Connection: close" get one answer and the close; a client (NbHttpRobot)
 * that polls the state 200 times uses one connection. */
static void
test_keep_alive (void)
{
  NbTestServer s = nb_test_serve ("--idle-timeout-s", "0.5", "--keepalive-requests", "50", NULL);
  NbRawAddr a = nb_raw_addr (s.url);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbHttpRobot) robot = NULL;
  int fds[40];
  guint before, after;
  double closed_s;
  int fd;

  g_usleep (100000);
  before = nb_raw_fds (s.pid);
  fd = nb_raw_dial (&a);
  g_assert_cmpint (fd, >=, 0);
  for (int i = 0; i < 50; i++)
    {
      g_autofree char *answer = NULL;

      g_assert_true (nb_raw_send (fd, GET_STATE, strlen (GET_STATE)));
      answer = nb_raw_read_all (fd, 30);
      g_assert_nonnull (answer);
      g_assert_cmpuint (nb_raw_status (answer), ==, 200);
      /* The 50th is the last this connection takes, and says so. */
      g_assert_cmpint (strstr (answer, "Connection: close") != NULL, ==, i == 49);
    }
  g_assert_cmpfloat (until_closed (fd, 10), >=, 0);
  close (fd);

  /* Idle after one answer: closed once --idle-timeout-s has gone by. */
  fd = nb_raw_dial (&a);
  g_assert_true (nb_raw_send (fd, GET_STATE, strlen (GET_STATE)));
  g_free (nb_raw_read_all (fd, 30));
  closed_s = until_closed (fd, 30);
  g_test_message ("an idle connection closed %.3f s after its answer (--idle-timeout-s 0.5)",
                  closed_s);
  g_assert_cmpfloat (closed_s, >=, 0.4);
  close (fd);

  /* The client closes 40 idle connections: the server lets each go. */
  for (int i = 0; i < 40; i++)
    {
      g_autofree char *answer = NULL;

      fds[i] = nb_raw_dial (&a);
      g_assert_cmpint (fds[i], >=, 0);
      g_assert_true (nb_raw_send (fds[i], GET_STATE, strlen (GET_STATE)));
      answer = nb_raw_read_all (fds[i], 30);
      g_assert_cmpuint (nb_raw_status (answer), ==, 200);
    }
  g_assert_cmpuint (nb_raw_fds (s.pid), >=, before + 40);
  for (int i = 0; i < 40; i++)
    close (fds[i]);
  after = nb_raw_fds_settle (s.pid, before + 2);
  g_assert_cmpuint (after, <=, before + 2);

  /* One answer when the client asks for no more, or speaks HTTP/1.0. */
  {
    static const char *const one[] = {
      "GET /robot/state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      "GET /robot/state HTTP/1.0\r\n\r\n",
    };

    for (guint i = 0; i < G_N_ELEMENTS (one); i++)
      {
        g_autofree char *answer = NULL;

        fd = nb_raw_dial (&a);
        g_assert_true (nb_raw_send (fd, one[i], strlen (one[i])));
        answer = nb_raw_read_all (fd, 30);
        g_assert_cmpuint (nb_raw_status (answer), ==, 200);
        /* Closed at once, not after the idle timeout. */
        closed_s = until_closed (fd, 30);
        g_assert_cmpfloat (closed_s, >=, 0);
        g_assert_cmpfloat (closed_s, <, 0.4);
        close (fd);
      }
  }

  /* The motion API's client keeps its connection. */
  robot = nb_http_robot_new (s.url, NULL, 10, &error);
  g_assert_no_error (error);
  for (int i = 0; i < 49; i++)
    {
      NbRobotState st;

      g_assert_true (nb_http_robot_state (robot, &st, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (nb_http_robot_connections (robot), ==, 1);
  g_clear_pointer (&robot, nb_http_robot_free);
  after = nb_raw_fds_settle (s.pid, before + 2);
  g_assert_cmpuint (after, <=, before + 2);
  nb_test_server_stop (&s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/server/positions-and-state", test_positions_and_state);
  g_test_add_func ("/server/joint-motion-422", test_joint_motion);
  g_test_add_func ("/server/cartesian-default-frame", test_cartesian_default_frame);
  g_test_add_func ("/server/bad-requests", test_bad_requests);
  g_test_add_func ("/server/no-descriptor-leak", test_no_descriptor_leak);
  g_test_add_func ("/server/keep-alive", test_keep_alive);
  g_test_add_func ("/server/token", test_token);
  g_test_add_func ("/server/sequence-two-iterations", test_sequence_two_iterations);
  g_test_add_func ("/server/concurrent-starts-409", test_concurrent_starts);
  g_test_add_func ("/server/stop", test_stop);
  g_test_add_func ("/server/logs-bounded", test_logs_bounded);
  g_test_add_func ("/server/runner-failure", test_runner_failure);
  g_test_add_func ("/server/client-mode", test_client_mode);
  g_test_add_func ("/server/recording", test_recording);
  g_test_add_func ("/server/client-interrupt", test_client_interrupt);
  g_test_add_func ("/server/stubborn-runner", test_stubborn_runner);
  g_test_add_func ("/server/client-state-parse", test_client_state_parse);
  g_test_add_func ("/server/goal-sequence", test_goal_sequence);
  g_test_add_func ("/server/lease-bounds", test_lease_bounds);
  g_test_add_func ("/server/stale-epoch-and-feedback", test_stale_epoch_and_feedback);
  g_test_add_func ("/server/lease-loss", test_lease_loss);
  g_test_add_func ("/server/high-waits-for-low", test_high_waits_for_low);
  return g_test_run ();
}
