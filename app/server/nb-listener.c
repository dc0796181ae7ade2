#include "nb-listener.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>

/* An accept failure (EMFILE, ENFILE, ENOBUFS…) is retried after this: long
 * enough not to spin on a listening socket that stays readable, short
 * enough that the server answers again as soon as descriptors are free. */
#define ACCEPT_RETRY_MS 50

typedef enum { PHASE_HEADERS, PHASE_BODY, PHASE_HANDLER } Phase;

/* One accepted connection.  Reference-counted: the remote address libsoup
 * hands back with every message holds one (that is how a message finds its
 * connection), the GSocketConnection's life another. */
typedef struct {
  gint ref;
  NbListener *listener;         /* NULL once the listener is gone */
  GSocket *socket;              /* borrowed; NULL once the connection is finalized */
  guint timer;
  Phase phase;
  gboolean refused;             /* answered by nb_listener_refuse */
  gsize body_bytes;
} Conn;

struct NbListener {
  SoupServer *soup;
  GSocket *socket;
  NbListenerLimits limits;
  GSource *source;              /* accepting; NULL while waiting after an error */
  guint retry;
  guint live;
  guint64 accept_errors;
  gulong request_started;
  GList *conns;                 /* of Conn*, open */
};

static Conn *
conn_ref (Conn *c)
{
  c->ref++;
  return c;
}

static void
conn_unref (Conn *c)
{
  if (--c->ref == 0)
    {
      g_clear_handle_id (&c->timer, g_source_remove);
      g_free (c);
    }
}

/* Best effort on a fresh connection: a short answer fits the empty send
 * buffer, and a client that cannot take it loses nothing it asked for. */
static void
raw_answer (GSocket *socket, guint status, const char *extra_header, const char *json)
{
  g_autofree char *text = g_strdup_printf ("HTTP/1.1 %u %s\r\nServer: navbench\r\n"
                                           "Content-Type: application/json\r\n"
                                           "Content-Length: %zu\r\nConnection: close\r\n%s%s"
                                           "\r\n%s",
                                           status, soup_status_get_phrase (status),
                                           strlen (json), extra_header ? extra_header : "",
                                           extra_header ? "\r\n" : "", json);

  g_socket_send (socket, text, strlen (text), NULL, NULL);
}

static char *
error_json (const char *what, const char *detail)
{
  g_autofree char *w = g_strescape (what, NULL);
  g_autofree char *d = g_strescape (detail, NULL);

  return g_strdup_printf ("{\"error\":\"%s\",\"detail\":\"%s\"}", w, d);
}

/* Ends the connection: libsoup's pending read sees the end of the stream,
 * fails the message and closes the descriptor.  The close resets it
 * (SO_LINGER 0): a client still sending into a half-closed connection
 * would otherwise be left blocked, its data ignored, for minutes. */
static void
conn_cut (Conn *c)
{
  g_clear_handle_id (&c->timer, g_source_remove);
  if (c->socket != NULL)
    {
      struct linger reset = { 1, 0 };

      setsockopt (g_socket_get_fd (c->socket), SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
      g_socket_shutdown (c->socket, TRUE, TRUE, NULL);
    }
}

static gboolean
on_timeout (gpointer data)
{
  Conn *c = data;

  c->timer = 0;
  if (c->socket != NULL && !c->refused)
    {
      g_autofree char *json = error_json ("request timeout", c->phase == PHASE_HEADERS
                                          ? "the request's headers did not arrive in time"
                                          : "the request's body did not arrive in time");

      raw_answer (c->socket, SOUP_STATUS_REQUEST_TIMEOUT, NULL, json);
    }
  conn_cut (c);
  return G_SOURCE_REMOVE;
}

static void
conn_arm (Conn *c, double seconds)
{
  g_clear_handle_id (&c->timer, g_source_remove);
  if (seconds > 0)
    c->timer = g_timeout_add ((guint) MAX (1.0, seconds * 1000.0), on_timeout, c);
}

/* The GSocketConnection is finalized: the descriptor is closed. */
static void
on_conn_gone (gpointer data, GObject *where_the_object_was)
{
  Conn *c = data;

  c->socket = NULL;
  g_clear_handle_id (&c->timer, g_source_remove);
  if (c->listener != NULL)
    {
      c->listener->live--;
      c->listener->conns = g_list_remove (c->listener->conns, c);
    }
  conn_unref (c);
}

static Conn *
msg_conn (SoupServerMessage *msg)
{
  GSocketAddress *remote = soup_server_message_get_remote_address (msg);

  return remote ? g_object_get_data (G_OBJECT (remote), "nb-listener-conn") : NULL;
}

void
nb_listener_refuse (NbListener *l, SoupServerMessage *msg, guint status,
                    const char *extra_header, const char *json)
{
  Conn *c = msg_conn (msg);

  /* The handler is not called for a message with a status. */
  soup_server_message_set_status (msg, status, NULL);
  soup_message_body_set_accumulate (soup_server_message_get_request_body (msg), FALSE);
  soup_message_body_truncate (soup_server_message_get_request_body (msg));
  if (c == NULL || c->socket == NULL || c->refused)
    return;
  c->refused = TRUE;
  raw_answer (c->socket, status, extra_header, json);
  /* The answer is complete; what libsoup writes after it fails (EPIPE). */
  g_socket_shutdown (c->socket, FALSE, TRUE, NULL);
  if (c->phase == PHASE_HANDLER)
    conn_cut (c);
}

static void
on_got_headers (SoupServerMessage *msg, gpointer data)
{
  Conn *c = data;

  c->phase = PHASE_BODY;
  if (c->listener != NULL && !c->refused)
    conn_arm (c, c->listener->limits.body_timeout_s);
}

static void
on_got_chunk (SoupServerMessage *msg, GBytes *chunk, gpointer data)
{
  Conn *c = data;

  c->body_bytes += g_bytes_get_size (chunk);
  if (c->listener == NULL)
    return;
  if (c->refused)
    {
      if (c->body_bytes > c->listener->limits.drain_bytes)
        conn_cut (c);
      return;
    }
  /* A chunked body declares no length: it is capped as it streams. */
  if (c->body_bytes > c->listener->limits.max_body)
    {
      g_autofree char *detail = g_strdup_printf ("the body exceeds %zu bytes",
                                                 c->listener->limits.max_body);
      g_autofree char *json = error_json ("request too large", detail);

      nb_listener_refuse (c->listener, msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, NULL, json);
    }
}

static void
on_got_body (SoupServerMessage *msg, gpointer data)
{
  Conn *c = data;

  c->phase = PHASE_HANDLER;
  /* A refused request is over once its body has been dropped. */
  if (c->refused)
    conn_cut (c);
  else
    g_clear_handle_id (&c->timer, g_source_remove);
}

static void
on_request_started (SoupServer *soup, SoupServerMessage *msg, gpointer data)
{
  Conn *c = msg_conn (msg);

  if (c == NULL)
    return;
  /* The message may outlive the connection's record: it holds its own. */
  g_signal_connect_data (msg, "got-headers", G_CALLBACK (on_got_headers), conn_ref (c),
                         (GClosureNotify) (void (*) (void)) conn_unref, 0);
  g_signal_connect_data (msg, "got-chunk", G_CALLBACK (on_got_chunk), conn_ref (c),
                         (GClosureNotify) (void (*) (void)) conn_unref, 0);
  g_signal_connect_data (msg, "got-body", G_CALLBACK (on_got_body), conn_ref (c),
                         (GClosureNotify) (void (*) (void)) conn_unref, 0);
}

static void
hand_over (NbListener *l, GSocket *socket)
{
  g_autoptr (GSocketConnection) stream = NULL;
  g_autoptr (GSocketAddress) local = g_socket_get_local_address (socket, NULL);
  g_autoptr (GSocketAddress) remote = g_socket_get_remote_address (socket, NULL);
  Conn *c;

  if (local == NULL || remote == NULL)
    {
      g_socket_close (socket, NULL);
      return;
    }
  if (l->live >= l->limits.max_connections)
    {
      g_autofree char *detail = g_strdup_printf ("%u connections are open, the most this "
                                                 "server takes", l->live);
      g_autofree char *json = error_json ("too many connections", detail);

      raw_answer (socket, SOUP_STATUS_SERVICE_UNAVAILABLE, "Retry-After: 1", json);
      g_socket_close (socket, NULL);
      return;
    }
  g_socket_set_option (socket, IPPROTO_TCP, TCP_NODELAY, TRUE, NULL);
  stream = g_socket_connection_factory_create_connection (socket);
  c = g_new0 (Conn, 1);
  c->ref = 1;                   /* the connection's life */
  c->listener = l;
  c->socket = socket;
  l->live++;
  l->conns = g_list_prepend (l->conns, c);
  g_object_weak_ref (G_OBJECT (stream), on_conn_gone, c);
  g_object_set_data_full (G_OBJECT (remote), "nb-listener-conn", conn_ref (c),
                          (GDestroyNotify) conn_unref);
  conn_arm (c, l->limits.header_timeout_s);
  soup_server_accept_iostream (l->soup, G_IO_STREAM (stream), local, remote, NULL);
}

static void listen_again (NbListener *l);

static gboolean
on_retry (gpointer data)
{
  NbListener *l = data;

  l->retry = 0;
  listen_again (l);
  return G_SOURCE_REMOVE;
}

static gboolean
on_acceptable (GSocket *listening, GIOCondition condition, gpointer data)
{
  NbListener *l = data;

  /* A burst is taken in one wake-up, within reason. */
  for (int i = 0; i < 64; i++)
    {
      g_autoptr (GError) error = NULL;
      GSocket *socket = g_socket_accept (listening, NULL, &error);

      if (socket != NULL)
        {
          hand_over (l, socket);
          g_object_unref (socket);
          continue;
        }
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        return G_SOURCE_CONTINUE;
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED))
        continue;             /* ECONNABORTED: the client left first */
      /* Out of descriptors or memory: the pending connection stays queued;
       * accept again shortly, once answered connections have closed. */
      l->accept_errors++;
      g_source_destroy (l->source);
      g_clear_pointer (&l->source, g_source_unref);
      l->retry = g_timeout_add (ACCEPT_RETRY_MS, on_retry, l);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
listen_again (NbListener *l)
{
  l->source = g_socket_create_source (l->socket, G_IO_IN, NULL);
  g_source_set_callback (l->source, (GSourceFunc) (void (*) (void)) on_acceptable, l, NULL);
  g_source_set_name (l->source, "nb-listener accept");
  g_source_attach (l->source, g_main_context_get_thread_default ());
}

NbListener *
nb_listener_new (SoupServer *soup, GSocket *socket, const NbListenerLimits *limits)
{
  NbListener *l = g_new0 (NbListener, 1);

  l->soup = g_object_ref (soup);
  l->socket = g_object_ref (socket);
  l->limits = *limits;
  l->limits.max_connections = MAX (1, limits->max_connections);
  g_socket_set_blocking (socket, FALSE);
  l->request_started = g_signal_connect (soup, "request-started",
                                         G_CALLBACK (on_request_started), l);
  listen_again (l);
  return l;
}

void
nb_listener_free (NbListener *l)
{
  if (l == NULL)
    return;
  if (l->source != NULL)
    {
      g_source_destroy (l->source);
      g_source_unref (l->source);
    }
  g_clear_handle_id (&l->retry, g_source_remove);
  g_signal_handler_disconnect (l->soup, l->request_started);
  for (GList *i = l->conns; i; i = i->next)
    {
      Conn *c = i->data;

      g_clear_handle_id (&c->timer, g_source_remove);
      c->listener = NULL;
    }
  g_list_free (l->conns);
  g_socket_close (l->socket, NULL);
  g_object_unref (l->socket);
  g_object_unref (l->soup);
  g_free (l);
}

guint
nb_listener_connections (NbListener *l)
{
  return l->live;
}

guint64
nb_listener_accept_errors (NbListener *l)
{
  return l->accept_errors;
}
