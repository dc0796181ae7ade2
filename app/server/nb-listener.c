#include "nb-listener.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>

/* An accept failure (EMFILE, ENFILE, ENOBUFS…) is retried after this: long
 * enough not to spin on a listening socket that stays readable, short
 * enough that the server answers again as soon as descriptors are free. */
#define ACCEPT_RETRY_MS 50

typedef enum { PHASE_HEADERS, PHASE_BODY, PHASE_HANDLER, PHASE_IDLE } Phase;

/* One accepted connection.  Reference-counted: the remote address libsoup
 * hands back with every message holds one (that is how a message finds its
 * connection), the stream lent to libsoup for a request another, the
 * socket's life a third.
 *
 * Keep-alive without libsoup's (nb-listener.h): each request is handed to
 * libsoup on a stream of its own over the socket (a temporary
 * GSocketConnection's streams in a GSimpleIOStream: libsoup closes that
 * stream, not the socket).  Once libsoup has let it go after an answer that
 * may be followed by another, the socket waits here, with no libsoup object
 * about it, for the next request's first byte (then it is handed over
 * again), the client's close, or the idle timeout (then it is closed). */
typedef struct {
  gint ref;
  NbListener *listener;         /* NULL once the listener is gone */
  GSocket *socket;              /* owned; NULL once closed */
  GSocketConnection *lent;      /* the request's temporary connection while libsoup has it */
  GSource *idle;                /* waiting for the next request (PHASE_IDLE) */
  guint timer;
  Phase phase;
  gboolean refused;             /* answered by nb_listener_refuse */
  gboolean again;               /* the request was answered; another may follow */
  gsize body_bytes;
  gsize max_body;               /* of the current request */
  guint requests;               /* answered on this connection */
} Conn;

struct NbListener {
  SoupServer *soup;
  GSocket *socket;
  NbListenerLimits limits;
  GSource *source;              /* accepting; NULL while waiting after an error */
  guint retry;
  guint live;
  guint64 accept_errors;
  guint64 accepted;
  guint64 requests;
  gulong request_started, request_finished;
  GMainContext *context;
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

/* The socket's life ends: closed (gracefully: an idle or finished
 * connection; conn_cut resets first when it must), no longer counted. */
static void
conn_close (Conn *c)
{
  if (c->socket == NULL)
    return;
  g_clear_handle_id (&c->timer, g_source_remove);
  if (c->idle != NULL)
    {
      g_source_destroy (c->idle);
      g_clear_pointer (&c->idle, g_source_unref);
    }
  g_socket_close (c->socket, NULL);
  g_clear_object (&c->socket);
  if (c->listener != NULL)
    {
      c->listener->live--;
      c->listener->conns = g_list_remove (c->listener->conns, c);
    }
  conn_unref (c);               /* the socket's life */
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
  if (c->phase == PHASE_IDLE)
    {
      conn_close (c);
      return;
    }
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
  if (c->phase == PHASE_IDLE)
    {
      /* An idle connection is closed without a word (RFC 9112 9.5). */
      conn_close (c);
      return G_SOURCE_REMOVE;
    }
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
  if (c->body_bytes > c->max_body)
    {
      g_autofree char *detail = g_strdup_printf ("the body exceeds %zu bytes", c->max_body);
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
  /* The last request a connection takes: the client is told so. */
  if (!c->refused && c->listener != NULL &&
      c->requests + 1 >= c->listener->limits.keepalive_requests)
    soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Connection",
                                  "close");
}

/* Another request may follow an answer: HTTP/1.1, neither side said close,
 * the answer written whole (request-finished, not -aborted). */
static void
on_request_finished (SoupServer *soup, SoupServerMessage *msg, gpointer data)
{
  NbListener *l = data;
  Conn *c = msg_conn (msg);

  if (c == NULL || c->listener == NULL || c->refused || c->phase != PHASE_HANDLER)
    return;
  c->requests++;
  l->requests++;
  c->again = c->requests < l->limits.keepalive_requests && l->limits.idle_timeout_s > 0 &&
             soup_server_message_get_http_version (msg) == SOUP_HTTP_1_1 &&
             !soup_message_headers_header_contains (soup_server_message_get_request_headers (msg),
                                                    "Connection", "close") &&
             !soup_message_headers_header_contains (soup_server_message_get_response_headers (msg),
                                                    "Connection", "close");
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

static void conn_serve (Conn *c);

/* While idle: the next request's first byte hands the socket to libsoup
 * again; the client's close (or an error) ends it. */
static gboolean
on_idle_readable (GSocket *socket, GIOCondition condition, gpointer data)
{
  Conn *c = data;
  char byte;
  gssize n = recv (g_socket_get_fd (socket), &byte, 1, MSG_PEEK | MSG_DONTWAIT);

  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
    return G_SOURCE_CONTINUE;
  g_clear_pointer (&c->idle, g_source_unref);
  g_clear_handle_id (&c->timer, g_source_remove);
  if (n > 0)
    conn_serve (c);
  else
    conn_close (c);
  return G_SOURCE_REMOVE;
}

/* libsoup has let go of the request's stream (it closed it: the socket stays
 * open). */
static void
on_stream_gone (gpointer data, GObject *where_the_object_was)
{
  Conn *c = data;

  g_clear_object (&c->lent);
  g_clear_handle_id (&c->timer, g_source_remove);
  if (c->socket != NULL && c->listener != NULL && c->again && !g_socket_is_closed (c->socket))
    {
      c->phase = PHASE_IDLE;
      c->idle = g_socket_create_source (c->socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
      g_source_set_callback (c->idle, (GSourceFunc) (void (*) (void)) on_idle_readable, c, NULL);
      g_source_set_name (c->idle, "nb-listener idle");
      g_source_attach (c->idle, c->listener->context);
      conn_arm (c, c->listener->limits.idle_timeout_s);
    }
  else
    conn_close (c);
  conn_unref (c);               /* the stream's */
}

/* One request, on a stream of its own over the connection's socket. */
static void
conn_serve (Conn *c)
{
  NbListener *l = c->listener;
  g_autoptr (GSocketAddress) local = g_socket_get_local_address (c->socket, NULL);
  g_autoptr (GSocketAddress) remote = g_socket_get_remote_address (c->socket, NULL);
  g_autoptr (GIOStream) stream = NULL;

  if (local == NULL || remote == NULL)
    {
      conn_close (c);
      return;
    }
  c->phase = PHASE_HEADERS;
  c->refused = FALSE;
  c->again = FALSE;
  c->body_bytes = 0;
  c->max_body = l->limits.max_body;
  c->lent = g_socket_connection_factory_create_connection (c->socket);
  stream = g_simple_io_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (c->lent)),
                                   g_io_stream_get_output_stream (G_IO_STREAM (c->lent)));
  g_object_weak_ref (G_OBJECT (stream), on_stream_gone, conn_ref (c));
  g_object_set_data_full (G_OBJECT (remote), "nb-listener-conn", conn_ref (c),
                          (GDestroyNotify) conn_unref);
  conn_arm (c, l->limits.header_timeout_s);
  soup_server_accept_iostream (l->soup, stream, local, remote, NULL);
}

static void
hand_over (NbListener *l, GSocket *socket)
{
  Conn *c;

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
  c = g_new0 (Conn, 1);
  c->ref = 1;                   /* the socket's life */
  c->listener = l;
  c->socket = g_object_ref (socket);
  l->live++;
  l->accepted++;
  l->conns = g_list_prepend (l->conns, c);
  conn_serve (c);
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
  l->limits.keepalive_requests = MAX (1, limits->keepalive_requests);
  l->context = g_main_context_ref_thread_default ();
  g_socket_set_blocking (socket, FALSE);
  l->request_started = g_signal_connect (soup, "request-started",
                                         G_CALLBACK (on_request_started), l);
  l->request_finished = g_signal_connect (soup, "request-finished",
                                          G_CALLBACK (on_request_finished), l);
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
  g_signal_handler_disconnect (l->soup, l->request_finished);
  for (GList *i = l->conns; i; i = i->next)
    {
      Conn *c = i->data;

      g_clear_handle_id (&c->timer, g_source_remove);
      c->listener = NULL;
      c->again = FALSE;
    }
  /* The idle ones are closed now; those libsoup holds once it lets go
   * (soup_server_disconnect). */
  for (GList *i = l->conns; i; i = i->next)
    {
      Conn *c = i->data;

      if (c->phase == PHASE_IDLE)
        conn_close (c);
    }
  g_list_free (l->conns);
  g_main_context_unref (l->context);
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

guint64
nb_listener_accepted (NbListener *l)
{
  return l->accepted;
}

guint64
nb_listener_requests (NbListener *l)
{
  return l->requests;
}

void
nb_listener_allow_body (NbListener *l, SoupServerMessage *msg, gsize max_body)
{
  Conn *c = msg_conn (msg);

  if (c != NULL)
    c->max_body = max_body;
}
