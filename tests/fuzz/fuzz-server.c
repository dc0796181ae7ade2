/* libFuzzer: the motion HTTP API's request handling.  An in-process server on
 * loopback gets the input as the body of every POST route (and as the logs'
 * query); every answer must be a JSON object with a status, never a crash or
 * a hang.  Runners are /bin/false, so a valid start ends at once.
 *
 * The same bytes also go on a bare socket as a whole request (request line,
 * headers, body: what no client library sends): the server must answer or
 * close, and once the client is gone it must hold no connection — every
 * request that leaked one (a %00 path, `GET *`, #21) fails the run. */
#include "nb-server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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

/* The input as raw bytes on a socket, the server served from this thread
 * meanwhile; then no connection may be left. */
static void
raw_request (const uint8_t *data, size_t size)
{
  const char *url = nb_server_url (server);
  struct sockaddr_in sa = { .sin_family = AF_INET };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  size_t sent = 0;
  gint64 end = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  gboolean closed = FALSE;

  g_assert (fd >= 0);
  sa.sin_port = htons ((guint16) atoi (strrchr (url, ':') + 1));
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert (connect (fd, (struct sockaddr *) &sa, sizeof sa) == 0 || errno == EINPROGRESS);
  while (!closed && g_get_monotonic_time () < end)
    {
      struct pollfd p = { fd, POLLIN | (sent < size ? POLLOUT : 0), 0 };
      char buf[4096];

      g_main_context_iteration (NULL, FALSE);
      if (poll (&p, 1, 1) <= 0)
        continue;
      if ((p.revents & POLLOUT) && sent < size)
        {
          ssize_t n = send (fd, data + sent, size - sent, MSG_NOSIGNAL);

          if (n > 0)
            sent += (size_t) n;
          else if (n < 0 && errno != EAGAIN)
            sent = size;        /* the server has closed: read what it said */
        }
      if (p.revents & (POLLIN | POLLHUP | POLLERR))
        {
          ssize_t n = recv (fd, buf, sizeof buf, 0);

          closed = n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
        }
    }
  /* An incomplete request is timed out (0.2 s here) and answered. */
  g_assert (closed);
  close (fd);
  for (int i = 0; i < 1000 && nb_server_connections (server) > 0; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert (nb_server_connections (server) == 0);
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
      c.header_timeout_s = 0.2;
      c.body_timeout_s = 0.2;
      /* One request per connection: "no connection left" after each input
       * holds only if the session's kept-alive ones are not kept. */
      c.idle_timeout_s = 0;
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
  raw_request (data, size);
  /* Whatever the input moved or queued is stopped, so that inputs stay independent. */
  request ("POST", "/stop", (const uint8_t *) "{}", 2);
  return 0;
}
