/* nb-transport.h — the byte links under every instrument driver
 *
 * A driver never knows where its bytes come from: serial (libserialport),
 * TCP (also serial-over-TCP as ser2net serves it), UDP (unicast and
 * multicast) and file replay all sit behind this one interface.  Calls
 * block for at most their timeout, so they belong in a worker thread
 * (NbDevice runs them there), never in a GUI's main loop.
 *
 * URLs: "serial:/dev/ttyUSB0" (or a bare /dev path), "tcp://host:port",
 * "udp://GROUP:port" (multicast, joined), "udp://ADDR:port" (unicast,
 * bound to the local address; "udp://:port" any), "file:PATH" (or a bare
 * path).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  NB_TRANSPORT_FILE,
  NB_TRANSPORT_SERIAL,
  NB_TRANSPORT_TCP,
  NB_TRANSPORT_UDP,
} NbTransportKind;

typedef struct {
  const char *url;
  /* Serial framing: baud, data bits 5–8, parity 'N' 'E' 'O' 'M' 'S',
   * stop bits 1–2, flow control "none", "xonxoff", "rtscts", "dtrdsr". */
  int baud;
  int data_bits;
  char parity;
  int stop_bits;
  const char *flow;
  /* Connect timeout for TCP, ms (0: 5 s). */
  guint connect_timeout_ms;
} NbTransportOptions;

typedef struct _NbTransport NbTransport;

/* A serial port as libserialport lists it. */
typedef struct {
  char *name;                   /* the path to open: "/dev/ttyUSB0" */
  char *description;            /* the OS's words ("USB-Serial Controller"), or NULL */
} NbSerialPortInfo;

void             nb_serial_port_info_clear (NbSerialPortInfo *info);
/* The serial ports of this machine now (sp_list_ports), of
 * NbSerialPortInfo cleared with the array, sorted by name; an empty array
 * when there are none.  NULL with an error carrying libserialport's message
 * when they cannot be listed. */
GArray          *nb_transport_list_serial_ports (GError **error);

/* Defaults: 9600 8N1, no flow control. */
void             nb_transport_options_init (NbTransportOptions *options);
/* "8N1" → data bits, parity, stop bits. */
gboolean         nb_transport_parse_framing (const char *text, NbTransportOptions *options,
                                             GError **error);
NbTransportKind  nb_transport_kind_of (const char *url);

NbTransport     *nb_transport_open  (const NbTransportOptions *options, GError **error);
/* Registers the GIO types the network links use, on the calling thread.
 * Call it before a worker thread opens a link: GLib 2.74 can deadlock when
 * one thread registers GSocketAddress's types (g_socket_new) while another
 * does through a class it is initialising (libsoup's session on the main
 * thread); seen as a hung `campaign run --standard iso9283 --instrument`. */
void             nb_transport_init_types (void);
/* Up to len bytes (a datagram on UDP), waiting at most timeout_ms.  Returns
 * the count, 0 on timeout or end of stream (see nb_transport_at_end), −1
 * with error when the link failed. */
gssize           nb_transport_read  (NbTransport *transport, guint8 *buf, gsize len,
                                     guint timeout_ms, GError **error);
gboolean         nb_transport_at_end (NbTransport *transport);
gboolean         nb_transport_write (NbTransport *transport, const guint8 *data, gsize len,
                                     guint timeout_ms, GError **error);
/* Drops unread input (a request/response protocol after a timeout). */
void             nb_transport_flush_input (NbTransport *transport);
NbTransportKind  nb_transport_kind  (NbTransport *transport);
void             nb_transport_close (NbTransport *transport);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbTransport, nb_transport_close)

G_END_DECLS
