/* nb-listener.h — the HTTP server's accept loop and connection limits, in
 * place of libsoup's own listener
 *
 * libsoup 3.2 (Debian 12) does not hold under hostile clients:
 *  - its listener keeps a reference to every GSocket it accepts (≈ 0.4 kB
 *    per connection, forever; fixed upstream by commit b545d5f0, 3.4);
 *  - it removes its accept source on the first failed accept, so that one
 *    EMFILE stops the server for good while the process lives on;
 *  - a kept-alive connection its client closes is never released, nor its
 *    descriptor (d20c6601, 3.3): any answer without "Connection: close" —
 *    libsoup's own 400 for a path with %00, its 404 for `GET *` — leaks one;
 *  - it reads a request's whole body before any handler can refuse it, and
 *    has no timeout for a client that sends slowly.
 *
 * NbListener accepts on the server's socket itself and hands each request
 * to soup_server_accept_iostream() on a stream of its own over the socket.
 * A SoupServer with no listener of its own closes that stream after its
 * answer (libsoup's keep-alive needs one of its listeners, and leaks
 * there), but not the socket: an answer that may be followed by another
 * (HTTP/1.1, no "Connection: close" either way) leaves the socket with
 * NbListener alone, no libsoup object about it, until the next request's
 * first byte (handed over again), the client's close or idle_timeout_s
 * (closed), so a client that polls reuses one connection
 * (keepalive_requests at most, the last answered with "Connection: close").
 * On top of that it bounds what a client can take:
 * connections at once, idle ones included (beyond: 503, closed at once),
 * the time to send the headers and then the body (408, closed), the body's
 * size as it streams (413, closed), and it retries accepting after any
 * error (EMFILE included) instead of giving up.
 *
 * A refusal (nb_listener_refuse) is written on the socket at once, before
 * the body is read; the body that follows is read and dropped (nothing is
 * kept) up to drain_bytes so that the client sees the answer rather than a
 * reset, then the connection is closed.
 */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct {
  guint max_connections;        /* open at once; beyond, 503 and closed */
  double header_timeout_s;      /* from accept to the end of the headers */
  double body_timeout_s;        /* from the end of the headers to the end of the body */
  gsize max_body;               /* a request body above is refused (413) */
  gsize drain_bytes;            /* a refused request's body is dropped up to this, then closed */
  double idle_timeout_s;        /* a kept connection waits this for its next request (0: none kept) */
  guint keepalive_requests;     /* answered on one connection at most */
} NbListenerLimits;

typedef struct NbListener NbListener;

/* Takes over socket (bound and listening); accepts on the thread-default
 * main context. */
NbListener *nb_listener_new  (SoupServer *soup, GSocket *socket, const NbListenerLimits *limits);
void        nb_listener_free (NbListener *listener);

/* Answers msg now with status and the JSON body (extra_header: one
 * "Name: value" line or NULL), before its body is read; the handler is not
 * called, the connection is closed.  From "got-headers" or later, before
 * any answer was written. */
void        nb_listener_refuse (NbListener *listener, SoupServerMessage *msg, guint status,
                                const char *extra_header, const char *json);

/* From "got-headers" on, before the body is read: msg's body may be up to
 * max_body (in place of the limits' max_body), e.g. for one route. */
void        nb_listener_allow_body (NbListener *listener, SoupServerMessage *msg,
                                    gsize max_body);

/* Connections open now (idle ones included); accept failures so far (the
 * loop went on after each); connections accepted and requests answered in
 * all. */
guint       nb_listener_connections   (NbListener *listener);
guint64     nb_listener_accept_errors (NbListener *listener);
guint64     nb_listener_accepted      (NbListener *listener);
guint64     nb_listener_requests      (NbListener *listener);

G_END_DECLS
