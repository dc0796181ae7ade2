/* libFuzzer: the motion HTTP API's request handling.  An in-process server on
 * loopback gets the input as the body of every POST route (and as the logs'
 * query); every answer must be a JSON object with a status, never a crash or
 * a hang.  Runners are /bin/false, so a valid start ends at once. */
#include "nb-server.h"

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <stdint.h>
#include <string.h>

static NbServer *server;
static SoupSession *session;

typedef struct {
  gboolean done;
  GBytes *body;
} Wait;

static void
on_sent (GObject *source, GAsyncResult *result, gpointer data)
{
  Wait *w = data;

  w->body = soup_session_send_and_read_finish (SOUP_SESSION (source), result, NULL);
  w->done = TRUE;
}

static void
request (const char *method, const char *path, const uint8_t *data, size_t size)
{
  g_autofree char *url = g_strconcat (nb_server_url (server), path, NULL);
  g_autoptr (SoupMessage) msg = soup_message_new (method, url);
  g_autoptr (JsonParser) parser = json_parser_new ();
  Wait w = { FALSE, NULL };
  gsize len;
  const char *text;

  if (msg == NULL)
    return;                     /* the query made no URL */
  if (data != NULL)
    {
      g_autoptr (GBytes) b = g_bytes_new (data, size);

      soup_message_set_request_body_from_bytes (msg, "application/json", b);
    }
  soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, on_sent, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert (w.body != NULL);
  text = g_bytes_get_data (w.body, &len);
  /* Every answer, success or error, is one JSON object. */
  g_assert (json_parser_load_from_data (parser, text ? text : "", (gssize) len, NULL));
  g_assert (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  g_assert (soup_message_get_status (msg) >= 200 && soup_message_get_status (msg) < 600);
  g_bytes_unref (w.body);
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *const posts[] = { "/robot/joints", "/robot/pose", "/cobot/tcp_gizmo/priority",
                                       "/cobot/tcp_gizmo/goal", "/sequences/start", "/sim/feedback",
                                       "/cobot/stop" };

  if (server == NULL)
    {
      NbServerConfig c;
      GError *error = NULL;

      nb_server_config_init (&c);
      c.robot_dir = NB_SOURCE_ROOT "/data/robots/iiwa7";
      c.sequences_dir = NB_SOURCE_ROOT "/data/sequences";
      c.recordings_root = g_get_tmp_dir ();
      c.cli_path = "/bin/false";
      server = nb_server_new (&c, &error);
      g_assert_no_error (error);
      /* Loopback: no proxy resolver (libproxy is slow and grows under ASan). */
      session = soup_session_new_with_options ("proxy-resolver", NULL, NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (posts); i++)
    request ("POST", posts[i], data, size);
  {
    g_autofree char *q = g_uri_escape_bytes (data, MIN (size, 64), NULL);
    g_autofree char *path = g_strconcat ("/sequences/logs?lines=", q, NULL);

    request ("GET", path, NULL, 0);
  }
  /* Whatever the input moved or queued is stopped, so that inputs stay independent. */
  request ("POST", "/stop", (const uint8_t *) "{}", 2);
  return 0;
}
