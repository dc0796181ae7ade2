#include "nb-server.h"

#include "nb-arm-file.h"
#include "nb-controller.h"
#include "nb-error.h"
#include "nb-json-load.h"
#include "nb-json-writer.h"
#include "nb-listener.h"
#include "nb-recorder.h"
#include "nb-sequence.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

typedef enum { RUN_IDLE, RUN_RUNNING, RUN_SUCCEEDED, RUN_FAILED, RUN_STOPPED } RunState;

static const char *const run_state_names[] = { "idle", "running", "succeeded", "failed", "stopped" };

typedef struct Run Run;

struct NbServer {
  NbServerConfig config;        /* its strings are owned copies */
  char *url;
  char *state_dir;              /* the sequences handed to runners */
  SoupServer *soup;
  NbListener *listener;
  NbController *controller;
  NbArmModel model;
  GPtrArray *positions;
  GList *pending;               /* of Pending*: requests waiting for a goal's result */
  /* The sequence runner: at most one (seeds/003). */
  Run *run;
  RunState state;
  gint pid;
  int exit_status;
  char *reason;
  char *sequence_name;
  gint64 started_us, ended_us;
  guint runs;
  /* Its log, newest last, bounded in lines and bytes. */
  GQueue log;
  gsize log_size;
  guint64 log_total;
};

struct Run {
  NbServer *server;             /* NULL once the server is gone */
  GSubprocess *process;
  GDataInputStream *out;
  GCancellable *cancellable;
  gboolean exited, eof, stop_requested;
  guint kill_source;            /* SIGKILL if SIGTERM did not end it */
  int exit_status;
  char *last_error;             /* the runner's "navbench-cli: …" line */
};

typedef struct {
  NbServer *server;
  SoupServerMessage *msg;
  gboolean gone;                /* the client went away */
  gulong handler;
} Pending;

/* ---------------------------------------------------------- config -- */

void
nb_server_config_init (NbServerConfig *c)
{
  memset (c, 0, sizeof *c);
  c->listen = "127.0.0.1:0";
  c->default_frame = "base_link";
  c->time_scale = 0.0;
  c->seed = 1;
  c->max_body = 64 * 1024;
  c->max_trajectory_body = 4 * 1024 * 1024;
  c->max_connections = 128;
  c->header_timeout_s = 10.0;
  c->body_timeout_s = 30.0;
  c->idle_timeout_s = 5.0;
  c->keepalive_requests = 10000;
  c->log_lines = 1000;
  c->log_bytes = 256 * 1024;
  c->runner_grace_s = 10.0;
}

/* ------------------------------------------------------------ replies -- */

static void
reply_json (SoupServerMessage *msg, guint status, char *json /* taken */)
{
  gsize len = strlen (json);

  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE, json, len);
}

/* The same answer before the body is read (nb-listener.h). */
static void
refuse (NbServer *s, SoupServerMessage *msg, guint status, const char *extra_header,
        const char *what, const char *detail)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  g_autofree char *json = NULL;

  nb_json_begin_object (w);
  nb_json_key (w, "error");
  nb_json_string (w, what);
  nb_json_key (w, "detail");
  nb_json_string (w, detail);
  nb_json_end_object (w);
  json = nb_json_writer_finish (g_steal_pointer (&w));
  nb_listener_refuse (s->listener, msg, status, extra_header, json);
}

static void
reply_error (SoupServerMessage *msg, guint status, const char *what, const char *detail)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

  nb_json_begin_object (w);
  nb_json_key (w, "error");
  nb_json_string (w, what);
  nb_json_key (w, "detail");
  if (detail != NULL)
    nb_json_string (w, detail);
  else
    nb_json_null (w);
  nb_json_end_object (w);
  reply_json (msg, status, nb_json_writer_finish (g_steal_pointer (&w)));
}

/* A GError of a request: bad input is the request's fault (422), the rest
 * the robot's (502: the controller behind the web server failed). */
static void
reply_gerror (SoupServerMessage *msg, const GError *error)
{
  if (g_error_matches (error, NB_ERROR, NB_ERROR_INPUT))
    reply_error (msg, 422, "invalid goal", error->message);
  else
    reply_error (msg, 502, "goal failed", error->message);
}

/* ----------------------------------------------------- request bodies -- */

/* The body as a JSON object; 400 naming line and column when it is not. */
static JsonObject *
body_object (SoupServerMessage *msg, JsonParser *parser)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  g_autoptr (GError) error = NULL;
  JsonNode *root;

  if (body->length == 0)
    {
      reply_error (msg, 400, "malformed JSON", "an empty body: expected a JSON object");
      return NULL;
    }
  /* Strict: no comments, quotes or trailing data json-glib would take, no
   * NUL that would cut name or bag_path short, bounded nesting. */
  if (!nb_json_load (parser, NULL, body->data, (gssize) body->length, &error))
    {
      reply_error (msg, 400, "malformed JSON", error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      reply_error (msg, 400, "malformed JSON", "expected a JSON object");
      return NULL;
    }
  return json_node_get_object (root);
}

/* Unknown keys are refused: a typo must not silently fall back to a default. */
static gboolean
known_keys (SoupServerMessage *msg, JsonObject *o, const char *const *keys)
{
  g_autoptr (GList) members = json_object_get_members (o);

  for (GList *l = members; l; l = l->next)
    if (!g_strv_contains (keys, l->data))
      {
        g_autofree char *detail = g_strdup_printf ("unknown key '%s'", (const char *) l->data);

        reply_error (msg, 400, "invalid request", detail);
        return FALSE;
      }
  return TRUE;
}

static gboolean
is_number (JsonNode *n)
{
  return n != NULL && JSON_NODE_HOLDS_VALUE (n) &&
         (json_node_get_value_type (n) == G_TYPE_DOUBLE ||
          json_node_get_value_type (n) == G_TYPE_INT64);
}

static gboolean
number_array (SoupServerMessage *msg, JsonObject *o, const char *key, double *v, guint n)
{
  JsonNode *node = json_object_get_member (o, key);
  JsonArray *a = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;

  if (a == NULL || json_array_get_length (a) != n)
    {
      g_autofree char *detail = g_strdup_printf ("%s: expected %u numbers", key, n);

      reply_error (msg, 400, "invalid request", detail);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      if (!is_number (json_array_get_element (a, i)))
        {
          g_autofree char *detail = g_strdup_printf ("%s[%u]: not a number", key, i);

          reply_error (msg, 400, "invalid request", detail);
          return FALSE;
        }
      v[i] = json_array_get_double_element (a, i);
    }
  return TRUE;
}

/* An optional string member; FALSE (replied) when it is there but not a string. */
static gboolean
string_member (SoupServerMessage *msg, JsonObject *o, const char *key, const char **out)
{
  JsonNode *n = json_object_get_member (o, key);

  *out = NULL;
  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    {
      g_autofree char *detail = g_strdup_printf ("%s: expected a string", key);

      reply_error (msg, 400, "invalid request", detail);
      return FALSE;
    }
  *out = json_node_get_string (n);
  return TRUE;
}

/* An optional number member; FALSE (replied) when it is there but not a number. */
static gboolean
number_member (SoupServerMessage *msg, JsonObject *o, const char *key, double *out)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL)
    return TRUE;
  if (!is_number (n))
    {
      g_autofree char *detail = g_strdup_printf ("%s: expected a number", key);

      reply_error (msg, 400, "invalid request", detail);
      return FALSE;
    }
  *out = json_node_get_double (n);
  return TRUE;
}

/* -------------------------------------------------------------- log -- */

static void
log_line (NbServer *s, const char *line)
{
  /* A runaway line is cut, so that one line cannot take the whole log. */
  gsize max_line = MIN (s->config.log_bytes, 2048);
  char *copy = g_utf8_make_valid (line, (gssize) MIN (strlen (line), max_line));

  s->log_size += strlen (copy);
  s->log_total++;
  g_queue_push_tail (&s->log, copy);
  while (s->log.length > s->config.log_lines || s->log_size > s->config.log_bytes)
    {
      char *old = g_queue_pop_head (&s->log);

      s->log_size -= strlen (old);
      g_free (old);
    }
}

static void log_printf (NbServer *s, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
log_printf (NbServer *s, const char *format, ...)
{
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;
  va_list ap;

  va_start (ap, format);
  text = g_strdup_vprintf (format, ap);
  va_end (ap);
  line = g_strconcat ("server: ", text, NULL);
  log_line (s, line);
}

/* ------------------------------------------------------------ runner -- */

static void
run_free (Run *run)
{
  g_clear_handle_id (&run->kill_source, g_source_remove);
  g_clear_object (&run->out);
  g_clear_object (&run->process);
  g_clear_object (&run->cancellable);
  g_free (run->last_error);
  g_free (run);
}

/* Both the process and its output have ended: the outcome is known. */
static void
run_maybe_done (Run *run)
{
  NbServer *s = run->server;

  if (!run->exited || !run->eof)
    return;
  if (s != NULL)
    {
      s->exit_status = run->exit_status;
      s->state = run->stop_requested ? RUN_STOPPED
                 : run->exit_status == 0 ? RUN_SUCCEEDED : RUN_FAILED;
      g_free (s->reason);
      s->reason = run->stop_requested ? g_strdup ("stopped by POST /stop")
                  : run->exit_status == 0 ? NULL
                  : run->last_error ? g_strdup (run->last_error)
                  : g_strdup_printf ("the runner exited with status %d", run->exit_status);
      s->ended_us = g_get_real_time ();
      log_printf (s, "runner %d ended: %s%s%s", s->pid, run_state_names[s->state],
                  s->reason ? ": " : "", s->reason ? s->reason : "");
      s->run = NULL;
    }
  run_free (run);
}

static void on_line (GObject *source, GAsyncResult *result, gpointer data);

static void
read_next_line (Run *run)
{
  g_data_input_stream_read_line_async (run->out, G_PRIORITY_DEFAULT, run->cancellable, on_line,
                                       run);
}

static void
on_line (GObject *source, GAsyncResult *result, gpointer data)
{
  Run *run = data;
  g_autoptr (GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source),
                                                               result, NULL, &error);

  if (line == NULL)
    {
      run->eof = TRUE;
      run_maybe_done (run);
      return;
    }
  if (run->server != NULL)
    log_line (run->server, line);
  if (g_str_has_prefix (line, "navbench-cli: "))
    {
      g_free (run->last_error);
      run->last_error = g_strdup (line + strlen ("navbench-cli: "));
    }
  read_next_line (run);
}

static void
on_exit (GObject *source, GAsyncResult *result, gpointer data)
{
  Run *run = data;
  GSubprocess *p = G_SUBPROCESS (source);

  g_subprocess_wait_finish (p, result, NULL);
  run->exited = TRUE;
  run->exit_status = g_subprocess_get_if_exited (p) ? g_subprocess_get_exit_status (p)
                     : 128 + g_subprocess_get_term_sig (p);
  run_maybe_done (run);
}

static gboolean
spawn_runner (NbServer *s, const char *sequence_text, const char *name, gint64 iterations,
              const char *bag_path, GError **error)
{
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *file = g_strdup_printf ("%s/run-%u.json", s->state_dir, ++s->runs);
  Run *run;

  if (!g_file_set_contents (file, sequence_text, -1, error))
    return FALSE;
  g_ptr_array_add (argv, g_strdup (s->config.cli_path));
  g_ptr_array_add (argv, g_strdup ("sequence"));
  g_ptr_array_add (argv, g_strdup ("run"));
  g_ptr_array_add (argv, g_strdup (file));
  /* The runner drives this server's robot through the API, as a client (the
   * same path that drives a real stack). */
  g_ptr_array_add (argv, g_strdup ("--robot"));
  g_ptr_array_add (argv, g_strdup (s->url));
  if (iterations > 0)
    g_ptr_array_add (argv, g_strdup_printf ("--iterations=%" G_GINT64_FORMAT, iterations));
  if (bag_path != NULL)
    g_ptr_array_add (argv, g_strdup_printf ("--bag=%s", bag_path));
  if (s->config.recordings_root != NULL)
    g_ptr_array_add (argv, g_strdup_printf ("--recordings-root=%s", s->config.recordings_root));
  g_ptr_array_add (argv, NULL);
  if (s->config.token != NULL)
    g_subprocess_launcher_setenv (launcher, "NAVBENCH_TOKEN", s->config.token, TRUE);

  run = g_new0 (Run, 1);
  run->server = s;
  run->cancellable = g_cancellable_new ();
  run->process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, error);
  if (run->process == NULL)
    {
      run_free (run);
      return FALSE;
    }
  run->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (run->process));
  s->run = run;
  s->state = RUN_RUNNING;
  /* No identifier when the runner has already ended (and been reaped). */
  {
    const char *id = g_subprocess_get_identifier (run->process);

    s->pid = id ? atoi (id) : 0;
  }
  g_clear_pointer (&s->reason, g_free);
  g_free (s->sequence_name);
  s->sequence_name = g_strdup (name);
  s->started_us = g_get_real_time ();
  s->ended_us = 0;
  log_printf (s, "runner %d started: %s", s->pid, name);
  read_next_line (run);
  g_subprocess_wait_async (run->process, run->cancellable, on_exit, run);
  return TRUE;
}

/* --------------------------------------------------------- handlers -- */

typedef void (*Handler) (NbServer *s, SoupServerMessage *msg, GHashTable *query);

static gboolean
valid_name (const char *name)
{
  if (name == NULL || *name == '\0' || strlen (name) > 128 || name[0] == '.')
    return FALSE;
  for (const char *p = name; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      return FALSE;
  return TRUE;
}

static void
handle_start (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  static const char *const keys[] = { "name", "sequence", "n_iterations", "bag_path", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (NbSequence) seq = NULL;
  g_autofree char *text = NULL;
  g_autofree char *label = NULL;
  JsonObject *o;
  JsonNode *inline_seq, *iter;
  const char *name, *bag_path;
  gint64 iterations = 0;

  /* seeds/003: a second start while one runs starts nothing.  The check
   * and the spawn happen in one main-loop dispatch, so concurrent starts
   * cannot both pass it. */
  if (s->state == RUN_RUNNING)
    {
      g_autofree char *detail = g_strdup_printf ("a sequence is running (pid %d)", s->pid);

      reply_error (msg, 409, "already running", detail);
      return;
    }
  if ((o = body_object (msg, parser)) == NULL || !known_keys (msg, o, keys) ||
      !string_member (msg, o, "name", &name) || !string_member (msg, o, "bag_path", &bag_path))
    return;
  inline_seq = json_object_get_member (o, "sequence");
  if ((name == NULL) == (inline_seq == NULL))
    {
      reply_error (msg, 400, "invalid request", "give either name or sequence");
      return;
    }
  if ((iter = json_object_get_member (o, "n_iterations")) != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (iter) || json_node_get_value_type (iter) != G_TYPE_INT64 ||
          (iterations = json_node_get_int (iter)) < 1 || iterations > 1000000)
        {
          reply_error (msg, 400, "invalid request", "n_iterations: expected an integer 1…1000000");
          return;
        }
    }
  if (name != NULL)
    {
      g_autofree char *file = NULL;
      g_autofree char *path = NULL;

      if (!valid_name (name))
        {
          reply_error (msg, 400, "invalid request",
                       "name: letters, digits, '-', '_' and '.' only (a file of the sequences "
                       "directory)");
          return;
        }
      file = g_strconcat (name, ".json", NULL);
      path = g_build_filename (s->config.sequences_dir, file, NULL);
      if (!g_file_get_contents (path, &text, NULL, NULL))
        {
          g_autofree char *detail = g_strdup_printf ("no sequence '%s'", name);

          reply_error (msg, 404, "not found", detail);
          return;
        }
      label = g_strdup (name);
    }
  else
    {
      text = json_to_string (inline_seq, FALSE);
      label = g_strdup ("inline");
    }
  /* Checked here, so that a bad sequence is a 422 now rather than a failed run. */
  if ((seq = nb_sequence_parse (label, text, -1, &error)) == NULL)
    {
      reply_error (msg, 422, "invalid sequence", error->message);
      return;
    }
  /* … and a bag_path the recorder would refuse (outside the recordings
   * root, a symlink, a directory that is not a previous recording). */
  {
    const char *bag = bag_path != NULL ? bag_path : seq->bag_path;

    if (bag != NULL && *bag && !nb_recorder_check_path (bag, s->config.recordings_root, &error))
      {
        reply_error (msg, 422, "invalid bag_path", error->message);
        return;
      }
  }
  if (!spawn_runner (s, text, label, iterations, bag_path, &error))
    {
      reply_error (msg, 500, "cannot start the runner", error->message);
      return;
    }
  {
    g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

    nb_json_begin_object (w);
    nb_json_key (w, "state"); nb_json_string (w, "running");
    nb_json_key (w, "pid"); nb_json_int (w, s->pid);
    nb_json_key (w, "sequence"); nb_json_string (w, label);
    nb_json_end_object (w);
    reply_json (msg, 202, nb_json_writer_finish (g_steal_pointer (&w)));
  }
}

static void
handle_status (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

  nb_json_begin_object (w);
  nb_json_key (w, "state"); nb_json_string (w, run_state_names[s->state]);
  if (s->state != RUN_IDLE)
    {
      nb_json_key (w, "pid"); nb_json_int (w, s->pid);
      nb_json_key (w, "sequence"); nb_json_string (w, s->sequence_name);
      nb_json_key (w, "started_us"); nb_json_int (w, s->started_us);
    }
  if (s->state > RUN_RUNNING)
    {
      nb_json_key (w, "ended_us"); nb_json_int (w, s->ended_us);
      nb_json_key (w, "exit_status"); nb_json_int (w, s->exit_status);
      nb_json_key (w, "reason");
      if (s->reason)
        nb_json_string (w, s->reason);
      else
        nb_json_null (w);
    }
  nb_json_end_object (w);
  reply_json (msg, 200, nb_json_writer_finish (g_steal_pointer (&w)));
}

static void
handle_logs (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  const char *lines = query ? g_hash_table_lookup (query, "lines") : NULL;
  guint64 want = s->config.log_lines;
  guint skip;

  if (lines != NULL &&
      (!g_ascii_string_to_unsigned (lines, 10, 1, s->config.log_lines, &want, NULL)))
    {
      g_autofree char *detail = g_strdup_printf ("lines: expected 1…%u", s->config.log_lines);

      reply_error (msg, 400, "invalid request", detail);
      return;
    }
  skip = s->log.length > want ? s->log.length - (guint) want : 0;
  nb_json_begin_object (w);
  nb_json_key (w, "lines");
  nb_json_begin_array (w);
  for (GList *l = g_list_nth (s->log.head, skip); l; l = l->next)
    nb_json_string (w, l->data);
  nb_json_end_array (w);
  nb_json_key (w, "total"); nb_json_int (w, (gint64) s->log_total);
  nb_json_key (w, "dropped"); nb_json_int (w, (gint64) (s->log_total - s->log.length));
  nb_json_end_object (w);
  reply_json (msg, 200, nb_json_writer_finish (g_steal_pointer (&w)));
}

static void
write_joints (NbJsonWriter *w, const char *key, const double *q)
{
  nb_json_key (w, key);
  nb_json_begin_array (w);
  for (int i = 0; i < NB_ARM_JOINTS; i++)
    nb_json_double (w, q[i]);
  nb_json_end_array (w);
}

static void
handle_cobot_stop (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  NbControllerState st;
  guint cancelled = nb_controller_stop (s->controller);

  log_printf (s, "motion stop: %u goal%s cancelled", cancelled, cancelled == 1 ? "" : "s");
  nb_controller_state (s->controller, &st);
  nb_json_begin_object (w);
  nb_json_key (w, "cancelled_goals"); nb_json_int (w, cancelled);
  write_joints (w, "held", st.position);
  nb_json_end_object (w);
  reply_json (msg, 200, nb_json_writer_finish (g_steal_pointer (&w)));
}

static gboolean
on_runner_grace (gpointer data)
{
  Run *run = data;

  run->kill_source = 0;
  if (!run->exited)
    {
      if (run->server != NULL)
        log_printf (run->server, "runner did not stop within %g s: SIGKILL",
                    run->server->config.runner_grace_s);
      g_subprocess_force_exit (run->process);
    }
  return G_SOURCE_REMOVE;
}

static void
handle_stop (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  gboolean runner = s->run != NULL && !s->run->exited;
  NbControllerState st;
  guint cancelled;

  /* seeds/001 "HTTP остановка": the runner first (so that it sends no
   * further point), then the hold of the direct trajectory and the stack's
   * stop, which answers the runner's goal in flight. */
  if (runner)
    {
      s->run->stop_requested = TRUE;
      g_subprocess_send_signal (s->run->process, SIGTERM);
      /* The runner stops before its next point; one that does not within
       * the grace period (stuck on a robot that never answers) is killed. */
      if (s->run->kill_source == 0)
        s->run->kill_source = g_timeout_add ((guint) (s->config.runner_grace_s * 1000),
                                             on_runner_grace, s->run);
      log_printf (s, "stop: SIGTERM to runner %d", s->pid);
    }
  cancelled = nb_controller_stop (s->controller);
  nb_controller_state (s->controller, &st);
  nb_json_begin_object (w);
  nb_json_key (w, "runner"); nb_json_string (w, runner ? "stopping" : "idle");
  nb_json_key (w, "cancelled_goals"); nb_json_int (w, cancelled);
  write_joints (w, "held", st.position);
  nb_json_end_object (w);
  reply_json (msg, 200, nb_json_writer_finish (g_steal_pointer (&w)));
}

char *
nb_positions_json (GPtrArray *positions)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

  nb_json_begin_object (w);
  nb_json_key (w, "positions");
  nb_json_begin_array (w);
  for (guint i = 0; i < positions->len; i++)
    {
      NbNamedPosition *p = g_ptr_array_index (positions, i);

      nb_json_begin_object (w);
      nb_json_key (w, "name"); nb_json_string (w, p->name);
      nb_json_key (w, "group"); nb_json_string (w, p->group);
      nb_json_key (w, "description"); nb_json_string (w, p->description);
      nb_json_key (w, "joints");
      nb_json_begin_object (w);
      for (guint j = 0; j < p->values->len; j++)
        {
          nb_json_key (w, g_ptr_array_index (p->joints, j));
          nb_json_double (w, g_array_index (p->values, double, j));
        }
      nb_json_end_object (w);
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
  nb_json_end_object (w);
  return nb_json_writer_finish (g_steal_pointer (&w));
}

static void
handle_positions (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  reply_json (msg, 200, nb_positions_json (s->positions));
}

static void
handle_state (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  NbControllerState st;
  double pos[3], quat[4];

  nb_controller_state (s->controller, &st);
  nb_arm_pose_from_matrix (st.tcp, pos, quat);
  nb_json_begin_object (w);
  nb_json_key (w, "stamp_us"); nb_json_int (w, g_get_real_time ());
  /* seeds/002 "Публикация состояния": the names and values of all seven joints. */
  nb_json_key (w, "name");
  nb_json_begin_array (w);
  for (int i = 0; i < NB_ARM_JOINTS; i++)
    nb_json_string (w, s->model.joint[i].name);
  nb_json_end_array (w);
  write_joints (w, "position", st.position);
  write_joints (w, "velocity", st.velocity);
  nb_json_key (w, "moving"); nb_json_bool (w, st.moving);
  nb_json_key (w, "tcp");
  nb_json_begin_object (w);
  nb_json_key (w, "frame_id"); nb_json_string (w, "base_link");
  nb_json_key (w, "position");
  nb_json_begin_array (w);
  for (int i = 0; i < 3; i++)
    nb_json_double (w, pos[i]);
  nb_json_end_array (w);
  nb_json_key (w, "orientation");
  nb_json_begin_array (w);
  for (int i = 0; i < 4; i++)
    nb_json_double (w, quat[i]);
  nb_json_end_array (w);
  nb_json_end_object (w);
  if (st.has_base)
    {
      /* The mobile base under the arm (serve --base): its pose on the floor. */
      double half = st.base_theta_deg * G_PI / 360.0;

      nb_json_key (w, "base");
      nb_json_begin_object (w);
      nb_json_key (w, "frame_id"); nb_json_string (w, NB_CONTROLLER_BASE_FRAME);
      nb_json_key (w, "position");
      nb_json_begin_array (w);
      nb_json_double (w, st.base_x_mm / 1000.0);
      nb_json_double (w, st.base_y_mm / 1000.0);
      nb_json_double (w, 0.0);
      nb_json_end_array (w);
      nb_json_key (w, "orientation");
      nb_json_begin_array (w);
      nb_json_double (w, 0.0);
      nb_json_double (w, 0.0);
      nb_json_double (w, sin (half));
      nb_json_double (w, cos (half));
      nb_json_end_array (w);
      nb_json_key (w, "moving"); nb_json_bool (w, st.base_moving);
      nb_json_end_object (w);
    }
  nb_json_key (w, "goals"); nb_json_int (w, st.goals);
  /* docs/http-api.md "Goal sequence in the state": the latest goal's start
   * on stamp_us's clock, null before the first. */
  nb_json_key (w, "goal_started_us");
  if (st.goal_started_us > 0)
    nb_json_int (w, st.goal_started_us);
  else
    nb_json_null (w);
  nb_json_key (w, "stops"); nb_json_int (w, st.stops);
  nb_json_end_object (w);
  reply_json (msg, 200, nb_json_writer_finish (g_steal_pointer (&w)));
}

/* ----------------------------------------------------- motion goals -- */

static void
pending_free (Pending *p)
{
  if (p->handler != 0)
    g_signal_handler_disconnect (p->msg, p->handler);
  g_object_unref (p->msg);
  g_free (p);
}

static void
on_disconnected (SoupServerMessage *msg, gpointer data)
{
  ((Pending *) data)->gone = TRUE;
}

static Pending *
pending_new (NbServer *s, SoupServerMessage *msg)
{
  Pending *p = g_new0 (Pending, 1);

  p->server = s;
  p->msg = g_object_ref (msg);
  p->handler = g_signal_connect (msg, "disconnected", G_CALLBACK (on_disconnected), p);
  s->pending = g_list_prepend (s->pending, p);
  return p;
}

/* A goal's terminal result: the answer its request has been waiting for. */
static void
on_goal_done (const GError *result, gpointer data)
{
  Pending *p = data;
  NbServer *s = p->server;

  s->pending = g_list_remove (s->pending, p);
  if (!p->gone)
    {
      if (result == NULL)
        {
          g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
          NbControllerState st;

          nb_controller_state (s->controller, &st);
          nb_json_begin_object (w);
          nb_json_key (w, "result"); nb_json_string (w, "succeeded");
          write_joints (w, "position", st.position);
          nb_json_end_object (w);
          reply_json (p->msg, 200, nb_json_writer_finish (g_steal_pointer (&w)));
        }
      else if (g_error_matches (result, NB_CONTROLLER_ERROR, NB_CONTROLLER_CANCELLED))
        reply_error (p->msg, 409, "cancelled", result->message);
      else if (g_error_matches (result, NB_CONTROLLER_ERROR, NB_CONTROLLER_PRIORITY))
        reply_error (p->msg, 409, "priority", result->message);
      else
        reply_gerror (p->msg, result);
      soup_server_message_unpause (p->msg);
    }
  pending_free (p);
}

/* Submits through the controller; the request waits for the result. */
static void
submit_goal (NbServer *s, SoupServerMessage *msg, NbPriority priority, const char *owner,
             guint64 epoch, const char *frame_id, const double *joints, double velocity_scaling,
             const double *position, const double *orientation)
{
  g_autoptr (GError) error = NULL;
  Pending *p = pending_new (s, msg);
  gboolean ok;

  soup_server_message_pause (msg);
  ok = joints != NULL
       ? nb_controller_move_joints (s->controller, priority, owner, epoch, joints,
                                    velocity_scaling, on_goal_done, p, &error)
       : nb_controller_move_pose (s->controller, priority, owner, epoch, frame_id, position,
                                  orientation, on_goal_done, p, &error);
  if (!ok)
    {
      s->pending = g_list_remove (s->pending, p);
      /* Refused before anything was sent: a bad goal is 422, an arbitration
       * refusal 409 with the published reason. */
      if (g_error_matches (error, NB_ERROR, NB_ERROR_INPUT))
        reply_error (msg, 422, "invalid goal", error->message);
      else
        reply_error (msg, 409, "rejected", error->message);
      soup_server_message_unpause (msg);
      pending_free (p);
    }
}

static void
handle_joints (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  static const char *const keys[] = { "joints", "max_velocity_scaling_factor", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  double q[NB_ARM_JOINTS], scaling = 1.0;
  JsonObject *o;

  /* max_velocity_scaling_factor (optional, (0, 1], MoveIt's name): the
   * goal at a fraction of the joints' velocity limits (ISO 9283 6.7's
   * 50 % and 10 %); out of range is 422 before any motion. */
  if ((o = body_object (msg, parser)) == NULL || !known_keys (msg, o, keys) ||
      !number_array (msg, o, "joints", q, NB_ARM_JOINTS) ||
      !number_member (msg, o, "max_velocity_scaling_factor", &scaling))
    return;
  submit_goal (s, msg, NB_PRIORITY_HIGH, NULL, 0, NULL, q, scaling, NULL, NULL);
}

/* The direct trajectory (seeds/001: FollowJointTrajectory, the trajectory
 * action whose goals take priority over the gizmo, and which POST /stop
 * holds): {"points": [{"positions": [7], "time_from_start": s}, …]}, the
 * shape of trajectory_msgs/JointTrajectory's points.  A timed path (ISO
 * 9283's clause 8, at the path velocity) goes through it in one goal, where
 * joint goals would each end at rest.  Answered with the result, as
 * /robot/joints; 422 before any motion for a point outside the soft range,
 * times not increasing, or a segment over the joints' velocity limits. */
#define TRAJECTORY_POINTS_MAX 10000

static void
handle_trajectory (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  static const char *const keys[] = { "points", NULL };
  static const char *const point_keys[] = { "positions", "time_from_start", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree double *t = NULL, *q = NULL;
  JsonObject *o;
  JsonNode *node;
  JsonArray *a;
  Pending *p;
  guint n;

  if ((o = body_object (msg, parser)) == NULL || !known_keys (msg, o, keys))
    return;
  node = json_object_get_member (o, "points");
  a = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  if (a == NULL || (n = json_array_get_length (a)) == 0 || n > TRAJECTORY_POINTS_MAX)
    {
      reply_error (msg, 400, "invalid request", "points: expected an array of 1 to "
                   G_STRINGIFY (TRAJECTORY_POINTS_MAX) " points");
      return;
    }
  t = g_new (double, n);
  q = g_new (double, (gsize) n * NB_ARM_JOINTS);
  for (guint k = 0; k < n; k++)
    {
      JsonNode *e = json_array_get_element (a, k);
      JsonObject *pt = JSON_NODE_HOLDS_OBJECT (e) ? json_node_get_object (e) : NULL;
      JsonNode *tn;

      if (pt == NULL)
        {
          g_autofree char *detail = g_strdup_printf ("points[%u]: expected an object", k);

          reply_error (msg, 400, "invalid request", detail);
          return;
        }
      if (!known_keys (msg, pt, point_keys) ||
          !number_array (msg, pt, "positions", &q[k * NB_ARM_JOINTS], NB_ARM_JOINTS))
        return;
      tn = json_object_get_member (pt, "time_from_start");
      if (!is_number (tn))
        {
          g_autofree char *detail = g_strdup_printf ("points[%u].time_from_start: expected "
                                                     "the seconds from the goal's start", k);

          reply_error (msg, 400, "invalid request", detail);
          return;
        }
      t[k] = json_node_get_double (tn);
    }
  p = pending_new (s, msg);
  soup_server_message_pause (msg);
  if (!nb_controller_follow_trajectory (s->controller, NB_PRIORITY_HIGH, NULL, 0, t, q, n,
                                        on_goal_done, p, &error))
    {
      s->pending = g_list_remove (s->pending, p);
      if (g_error_matches (error, NB_ERROR, NB_ERROR_INPUT))
        reply_error (msg, 422, "invalid goal", error->message);
      else
        reply_error (msg, 409, "rejected", error->message);
      soup_server_message_unpause (msg);
      pending_free (p);
    }
}

static gboolean
pose_body (SoupServerMessage *msg, JsonObject *o, const char **frame_id, double p[3],
           double q[4])
{
  return string_member (msg, o, "frame_id", frame_id) &&
         number_array (msg, o, "position", p, 3) && number_array (msg, o, "orientation", q, 4);
}

static void
handle_pose (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  static const char *const keys[] = { "frame_id", "position", "orientation", "planner", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *frame_id, *planner;
  double p[3], q[4];
  JsonObject *o;

  if ((o = body_object (msg, parser)) == NULL || !known_keys (msg, o, keys) ||
      !pose_body (msg, o, &frame_id, p, q) || !string_member (msg, o, "planner", &planner))
    return;
  submit_goal (s, msg, NB_PRIORITY_HIGH, NULL, 0, frame_id, NULL, 1.0, p, q);
}

static void
handle_gizmo_goal (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  static const char *const keys[] = { "owner", "epoch", "frame_id", "position", "orientation",
                                      NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *frame_id, *owner;
  double p[3], q[4];
  JsonObject *o;
  JsonNode *epoch;

  if ((o = body_object (msg, parser)) == NULL || !known_keys (msg, o, keys) ||
      !string_member (msg, o, "owner", &owner) || !pose_body (msg, o, &frame_id, p, q))
    return;
  epoch = json_object_get_member (o, "epoch");
  if (epoch == NULL || !JSON_NODE_HOLDS_VALUE (epoch) ||
      json_node_get_value_type (epoch) != G_TYPE_INT64 || json_node_get_int (epoch) < 0)
    {
      reply_error (msg, 400, "invalid request", "epoch: expected the integer epoch of the "
                   "published gizmo state");
      return;
    }
  submit_goal (s, msg, NB_PRIORITY_LOW, owner ? owner : "", (guint64) json_node_get_int (epoch),
               frame_id, NULL, 1.0, p, q);
}

static void
handle_priority (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  static const char *const keys[] = { "owner", "ttl_s", "release", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  g_autoptr (GError) error = NULL;
  NbArbiter *a = nb_controller_arbiter (s->controller);
  const char *owner;
  JsonObject *o;
  JsonNode *ttl, *release;
  gint64 expires = 0;

  if ((o = body_object (msg, parser)) == NULL || !known_keys (msg, o, keys) ||
      !string_member (msg, o, "owner", &owner))
    return;
  ttl = json_object_get_member (o, "ttl_s");
  release = json_object_get_member (o, "release");
  if (release != NULL && (!JSON_NODE_HOLDS_VALUE (release) ||
                          json_node_get_value_type (release) != G_TYPE_BOOLEAN))
    {
      reply_error (msg, 400, "invalid request", "release: expected true or false");
      return;
    }
  if (release != NULL && json_node_get_boolean (release))
    {
      if (!nb_arbiter_lease_release (a, owner ? owner : "", &error))
        {
          reply_error (msg, g_error_matches (error, NB_ERROR, NB_ERROR_INPUT) ? 422 : 409,
                       "lease", error->message);
          return;
        }
      nb_json_begin_object (w);
      nb_json_key (w, "released"); nb_json_bool (w, TRUE);
      nb_json_end_object (w);
      reply_json (msg, 200, nb_json_writer_finish (g_steal_pointer (&w)));
      return;
    }
  if (!is_number (ttl))
    {
      reply_error (msg, 422, "lease", "ttl_s: expected a number of seconds in (0, 60]");
      return;
    }
  if (!nb_arbiter_lease_acquire (a, owner ? owner : "", json_node_get_double (ttl), &expires,
                                 &error))
    {
      reply_error (msg, g_error_matches (error, NB_ERROR, NB_ERROR_INPUT) ? 422 : 409, "lease",
                   error->message);
      return;
    }
  nb_json_begin_object (w);
  nb_json_key (w, "owner"); nb_json_string (w, owner);
  nb_json_key (w, "expires_us"); nb_json_int (w, expires);
  nb_json_end_object (w);
  reply_json (msg, 200, nb_json_writer_finish (g_steal_pointer (&w)));
}

static void
handle_gizmo_state (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  NbArbiter *a = nb_controller_arbiter (s->controller);
  const char *holder = nb_arbiter_lease_holder (a), *why = nb_arbiter_last_rejection (a);

  nb_json_begin_object (w);
  nb_json_key (w, "epoch"); nb_json_int (w, (gint64) nb_arbiter_epoch (a));
  nb_json_key (w, "lease_owner");
  if (holder)
    nb_json_string (w, holder);
  else
    nb_json_null (w);
  nb_json_key (w, "active_goal"); nb_json_int (w, nb_arbiter_active (a));
  nb_json_key (w, "last_rejection");
  if (why)
    nb_json_string (w, why);
  else
    nb_json_null (w);
  nb_json_end_object (w);
  reply_json (msg, 200, nb_json_writer_finish (g_steal_pointer (&w)));
}

static void
handle_feedback (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  static const char *const keys[] = { "available", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o;
  JsonNode *n;

  if ((o = body_object (msg, parser)) == NULL || !known_keys (msg, o, keys))
    return;
  n = json_object_get_member (o, "available");
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    {
      reply_error (msg, 400, "invalid request", "available: expected true or false");
      return;
    }
  nb_arbiter_set_feedback (nb_controller_arbiter (s->controller), json_node_get_boolean (n));
  handle_gizmo_state (s, msg, query);
}

/* The simulator's load at the TCP (ISO 9283 6.6: the rated load and 10 %
 * of it are configurations of the test): the lab's mounting of the load,
 * simulated.  The tracker beside the server (--tracker) sees the TCP give
 * way under it as the offline simulator's true arm does. */
#define NB_SERVER_MAX_PAYLOAD_KG 1000.0

static void
handle_payload (NbServer *s, SoupServerMessage *msg, GHashTable *query)
{
  static const char *const keys[] = { "kg", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  JsonObject *o;
  JsonNode *n;
  double kg;

  if ((o = body_object (msg, parser)) == NULL || !known_keys (msg, o, keys))
    return;
  n = json_object_get_member (o, "kg");
  if (n == NULL || !is_number (n))
    {
      reply_error (msg, 400, "invalid request", "kg: expected a number (the load, kg)");
      return;
    }
  kg = json_node_get_double (n);
  if (!(kg >= 0 && kg <= NB_SERVER_MAX_PAYLOAD_KG))
    {
      reply_error (msg, 422, "payload", "kg: the load in [0, 1000] kg");
      return;
    }
  nb_controller_set_payload (s->controller, kg);
  nb_json_begin_object (w);
  nb_json_key (w, "kg"); nb_json_double (w, kg);
  nb_json_end_object (w);
  reply_json (msg, 200, nb_json_writer_finish (g_steal_pointer (&w)));
}

static const struct {
  const char *path;
  const char *method;
  Handler handler;
} routes[] = {
  { "/sequences/start", "POST", handle_start },
  { "/sequences/status", "GET", handle_status },
  { "/sequences/logs", "GET", handle_logs },
  { "/stop", "POST", handle_stop },
  { "/cobot/stop", "POST", handle_cobot_stop },
  { "/robot/positions", "GET", handle_positions },
  { "/robot/state", "GET", handle_state },
  { "/robot/joints", "POST", handle_joints },
  { "/robot/trajectory", "POST", handle_trajectory },
  { "/robot/pose", "POST", handle_pose },
  { "/cobot/tcp_gizmo/priority", "POST", handle_priority },
  { "/cobot/tcp_gizmo/state", "GET", handle_gizmo_state },
  { "/cobot/tcp_gizmo/goal", "POST", handle_gizmo_goal },
  { "/sim/feedback", "POST", handle_feedback },
  { "/sim/payload", "POST", handle_payload },
};

/* Constant-time, so that the token cannot be guessed byte by byte. */
static gboolean
token_ok (const char *expected, const char *header)
{
  g_autofree char *want = g_strconcat ("Bearer ", expected, NULL);
  gsize n = strlen (want), m = header ? strlen (header) : 0;
  unsigned diff = n != m;

  for (gsize i = 0; i < n; i++)
    diff |= (unsigned) (want[i] ^ (i < m ? header[i] : 0));
  return diff == 0;
}

static void
dispatch (SoupServer *soup, SoupServerMessage *msg, const char *path, GHashTable *query,
          gpointer data)
{
  NbServer *s = data;
  const char *method = soup_server_message_get_method (msg);

  /* The token and the body's size were checked from the headers
   * (on_got_headers); a refused request never gets here. */
  for (guint i = 0; i < G_N_ELEMENTS (routes); i++)
    if (g_str_equal (path, routes[i].path))
      {
        if (!g_str_equal (method, routes[i].method))
          {
            g_autofree char *detail = g_strdup_printf ("%s takes %s", path, routes[i].method);

            soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                          "Allow", routes[i].method);
            reply_error (msg, 405, "method not allowed", detail);
            return;
          }
        routes[i].handler (s, msg, query);
        return;
      }
  reply_error (msg, 404, "not found", path);
}

/* Refused from the headers, before a byte of the body is read: no or a
 * wrong token, a declared body above the cap (a chunked one is capped as it
 * streams, nb-listener.c). */
static void
on_got_headers (SoupServerMessage *msg, gpointer data)
{
  NbServer *s = data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  guint status = soup_server_message_get_status (msg);
  gsize limit = s->config.max_body;

  if (status != 0)
    {
      /* libsoup's own refusal (a path with %00, a bad Host…): in JSON too. */
      refuse (s, msg, status, NULL, soup_status_get_phrase (status),
              "the request line or headers are malformed");
      return;
    }
  if (soup_server_message_is_options_ping (msg))
    {
      /* `* HTTP/1.1`: no resource of this API (libsoup would answer an empty 404). */
      refuse (s, msg, 404, NULL, "not found", "*");
      return;
    }
  if (s->config.token != NULL &&
      !token_ok (s->config.token, soup_message_headers_get_one (headers, "Authorization")))
    {
      refuse (s, msg, 401, "WWW-Authenticate: Bearer", "unauthorized",
              "a bearer token is required");
      return;
    }
  /* The direct trajectory takes up to TRAJECTORY_POINTS_MAX points in one
   * goal (a weave's 2 000: docs/http-api.md, "Trajectory body"); every other
   * body max_body. */
  if (g_str_equal (soup_server_message_get_method (msg), "POST") &&
      g_str_equal (g_uri_get_path (soup_server_message_get_uri (msg)), "/robot/trajectory"))
    {
      limit = s->config.max_trajectory_body;
      nb_listener_allow_body (s->listener, msg, limit);
    }
  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      soup_message_headers_get_content_length (headers) > (goffset) limit)
    {
      g_autofree char *detail = g_strdup_printf ("a body of %" G_GINT64_FORMAT " bytes; at "
                                                 "most %zu%s", (gint64)
                                                 soup_message_headers_get_content_length (headers),
                                                 limit, limit == s->config.max_body
                                                 ? "" : " for /robot/trajectory");

      refuse (s, msg, 413, NULL, "request too large", detail);
    }
}

static void
on_request_started (SoupServer *soup, SoupServerMessage *msg, gpointer data)
{
  g_signal_connect (msg, "got-headers", G_CALLBACK (on_got_headers), data);
}

/* ------------------------------------------------------------ server -- */

static gboolean
is_loopback (const char *host)
{
  return g_str_equal (host, "127.0.0.1") || g_str_equal (host, "localhost") ||
         g_str_equal (host, "::1");
}

static gboolean
listen_on (NbServer *s, GError **error)
{
  const char *colon = strrchr (s->config.listen, ':');
  g_autofree char *host = colon ? g_strndup (s->config.listen, (gsize) (colon - s->config.listen))
                                : NULL;
  g_autoptr (GInetAddress) addr = NULL;
  g_autoptr (GSocketAddress) sa = NULL;
  g_autoptr (GSocket) sock = NULL;
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GError) local = NULL;
  guint64 port;

  if (host == NULL || !g_ascii_string_to_unsigned (colon + 1, 10, 0, 65535, &port, NULL))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--listen %s: expected ADDRESS:PORT",
                   s->config.listen);
      return FALSE;
    }
  if (host[0] == '[' && host[strlen (host) - 1] == ']')
    {
      memmove (host, host + 1, strlen (host));
      host[strlen (host) - 1] = '\0';
    }
  /* Another address than loopback reaches the lab's network: not without a token. */
  if (!is_loopback (host) && s->config.token == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--listen %s: listening beyond loopback "
                   "needs a bearer token (--token or NAVBENCH_TOKEN)", s->config.listen);
      return FALSE;
    }
  addr = g_inet_address_new_from_string (g_str_equal (host, "localhost") ? "127.0.0.1" : host);
  if (addr == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--listen %s: '%s' is not an IP address",
                   s->config.listen, host);
      return FALSE;
    }
  sa = g_inet_socket_address_new (addr, (guint16) port);
  /* Our own socket, for its backlog (GLib's default of 10 drops connections
   * when a web client's page fires dozens of requests at once), and our own
   * accept loop (nb-listener.h). */
  sock = g_socket_new (g_inet_address_get_family (addr), G_SOCKET_TYPE_STREAM,
                       G_SOCKET_PROTOCOL_TCP, &local);
  if (sock != NULL)
    {
      g_socket_set_listen_backlog (sock, 256);
      if (!g_socket_bind (sock, sa, TRUE, &local) || !g_socket_listen (sock, &local) ||
          (bound = g_socket_get_local_address (sock, &local)) == NULL)
        g_clear_object (&sock);
    }
  if (sock == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "--listen %s: %s", s->config.listen,
                   local->message);
      return FALSE;
    }
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  {
    NbListenerLimits limits = {
      .max_connections = s->config.max_connections,
      .header_timeout_s = s->config.header_timeout_s,
      .body_timeout_s = s->config.body_timeout_s,
      .max_body = s->config.max_body,
      /* Enough for a client to finish sending a modest body and read the
       * refusal; an attacker's gigabyte is cut there. */
      .drain_bytes = MAX (s->config.max_body, 1024 * 1024),
      .idle_timeout_s = s->config.idle_timeout_s,
      .keepalive_requests = s->config.keepalive_requests,
    };

    s->listener = nb_listener_new (s->soup, sock, &limits);
  }
  /* The runner reaches the server on loopback when it listens on every
   * address, in the family it listens in. */
  if (g_inet_address_get_is_any (addr))
    s->url = g_inet_address_get_family (addr) == G_SOCKET_FAMILY_IPV6
             ? g_strdup_printf ("http://[::1]:%u", (guint) port)
             : g_strdup_printf ("http://127.0.0.1:%u", (guint) port);
  else if (g_inet_address_get_family (addr) == G_SOCKET_FAMILY_IPV6)
    {
      g_autofree char *text = g_inet_address_to_string (addr);

      s->url = g_strdup_printf ("http://[%s]:%u", text, (guint) port);
    }
  else
    {
      g_autofree char *text = g_inet_address_to_string (addr);

      s->url = g_strdup_printf ("http://%s:%u", text, (guint) port);
    }
  return TRUE;
}

NbServer *
nb_server_new (const NbServerConfig *config, GError **error)
{
  g_autoptr (NbServer) s = g_new0 (NbServer, 1);

  s->config = *config;
  s->config.listen = g_strdup (config->listen);
  s->config.token = config->token && *config->token ? g_strdup (config->token) : NULL;
  s->config.robot_dir = g_strdup (config->robot_dir);
  s->config.sequences_dir = g_strdup (config->sequences_dir);
  s->config.recordings_root = g_strdup (config->recordings_root);
  s->config.cli_path = g_strdup (config->cli_path);
  s->config.default_frame = g_strdup (config->default_frame ? config->default_frame : "base_link");
  s->config.log_lines = MAX (1, config->log_lines);
  s->config.log_bytes = MAX (256, config->log_bytes);
  g_queue_init (&s->log);
  if (!nb_arm_model_load (config->robot_dir, &s->model, error) ||
      (s->positions = nb_arm_named_positions (config->robot_dir, error)) == NULL)
    return NULL;
  if ((s->state_dir = g_dir_make_tmp ("navbench-serve-XXXXXX", error)) == NULL)
    return NULL;
  s->controller = nb_controller_new (&s->model, s->config.default_frame, config->time_scale,
                                     config->seed, config->clock, config->clock_data);
  nb_controller_arm (s->controller)->fail_goal = config->fail_goal;
  /* The servo of the simulated joints (nb-sim-arm.h): 0 none, a ramp. */
  nb_controller_arm (s->controller)->settle_omega_rad_s = config->servo_omega_rad_s;
  nb_controller_arm (s->controller)->settle_zeta = config->servo_zeta;
  nb_controller_arm (s->controller)->settle_dwell_s = config->servo_dwell_s;
  if (config->base)
    nb_controller_add_base (s->controller, config->seed);
  s->soup = soup_server_new ("server-header", "navbench", NULL);
  soup_server_add_handler (s->soup, NULL, dispatch, s, NULL);
  g_signal_connect (s->soup, "request-started", G_CALLBACK (on_request_started), s);
  if (!listen_on (s, error))
    return NULL;
  return g_steal_pointer (&s);
}

NbController *
nb_server_controller (NbServer *s)
{
  return s->controller;
}

const char *
nb_server_url (NbServer *s)
{
  return s->url;
}

guint
nb_server_connections (NbServer *s)
{
  return nb_listener_connections (s->listener);
}

void
nb_server_free (NbServer *s)
{
  if (s == NULL)
    return;
  /* The listener first: the connections that soup_server_disconnect()
   * closes no longer report to it. */
  g_clear_pointer (&s->listener, nb_listener_free);
  if (s->soup != NULL)
    {
      soup_server_disconnect (s->soup);
      g_object_unref (s->soup);
    }
  if (s->run != NULL)
    {
      /* A runner outlives no server: it would drive a robot nobody serves. */
      if (!s->run->exited)
        g_subprocess_force_exit (s->run->process);
      g_cancellable_cancel (s->run->cancellable);
      s->run->server = NULL;
    }
  g_list_free_full (s->pending, (GDestroyNotify) pending_free);
  nb_controller_free (s->controller);
  g_clear_pointer (&s->positions, g_ptr_array_unref);
  if (s->state_dir != NULL)
    {
      g_autoptr (GDir) d = g_dir_open (s->state_dir, 0, NULL);
      const char *name;

      while (d && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (s->state_dir, name, NULL);

          g_unlink (path);
        }
      g_rmdir (s->state_dir);
      g_free (s->state_dir);
    }
  g_queue_clear_full (&s->log, g_free);
  g_free (s->reason);
  g_free (s->sequence_name);
  g_free (s->url);
  g_free ((char *) s->config.listen);
  g_free ((char *) s->config.token);
  g_free ((char *) s->config.robot_dir);
  g_free ((char *) s->config.sequences_dir);
  g_free ((char *) s->config.recordings_root);
  g_free ((char *) s->config.cli_path);
  g_free ((char *) s->config.default_frame);
  g_free (s);
}
