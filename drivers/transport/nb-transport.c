/* nb-transport.c — serial, TCP, UDP and file links (see nb-transport.h)
 *
 * Serial is libserialport; every sp_* failure becomes a GError carrying
 * sp_last_error_message().  TCP and UDP are GIO sockets, waited on with
 * g_socket_condition_timed_wait so no call blocks beyond its timeout.
 */
/* _GNU_SOURCE: memmem. */
#define _GNU_SOURCE 1

#include "nb-transport.h"

#include "nb-error.h"
#include "nb-number.h"
#include "nb-record-words.h"

#include <errno.h>
#include <gio/gio.h>
#include <libserialport.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

struct _NbTransport {
  NbTransportKind kind;
  char *name;               /* for messages */
  gboolean at_end;
  FILE *file;
  struct sp_port *port;
  GSocket *socket;          /* UDP, or the TCP connection's socket */
  GSocketConnection *connection;

  /* A file's header lines, read to look for a Delay-Cookie and handed out
   * before the rest of the file. */
  guint8 *pending;
  gsize pending_len, pending_pos;
  /* gpsfake's Delay-Cookie: the capture after its header comments is cut at
   * each occurrence of cookie; each piece is one write (never merged with
   * the next), and the next starts delay_us after it ended. */
  char *cookie;
  gsize cookie_len;
  gint64 delay_us, next_piece_us;
  gboolean in_piece, source_eof;
  guint8 *cbuf;
  gsize cstart, cend;
  /* gpsfake's "%Delay: N" at the start of a piece (FakeGPS.feed): N more
   * seconds before the piece; looked for once per piece.  line_no: the
   * file's line at cbuf + cstart, for messages. */
  gboolean piece_looked_at;
  guint line_no;
};

#define HEADER_MAX_BYTES (64 * 1024)
#define COOKIE_BUFFER_BYTES (64 * 1024)

void
nb_transport_options_init (NbTransportOptions *options)
{
  memset (options, 0, sizeof *options);
  options->baud = 9600;
  options->data_bits = 8;
  options->parity = 'N';
  options->stop_bits = 1;
  options->flow = "none";
}

gboolean
nb_transport_parse_framing (const char *text, NbTransportOptions *options, GError **error)
{
  if (text == NULL || strlen (text) != 3 || text[0] < '5' || text[0] > '8' ||
      strchr ("NEOMS", g_ascii_toupper (text[1])) == NULL || (text[2] != '1' && text[2] != '2'))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "framing '%s' is not DATA PARITY STOP such as 8N1 or 7E1", text ? text : "");
      return FALSE;
    }
  options->data_bits = text[0] - '0';
  options->parity = g_ascii_toupper (text[1]);
  options->stop_bits = text[2] - '0';
  return TRUE;
}

NbTransportKind
nb_transport_kind_of (const char *url)
{
  if (g_str_has_prefix (url, "tcp://"))
    return NB_TRANSPORT_TCP;
  if (g_str_has_prefix (url, "udp://"))
    return NB_TRANSPORT_UDP;
  if (g_str_has_prefix (url, "serial:") || g_str_has_prefix (url, "/dev/"))
    return NB_TRANSPORT_SERIAL;
  return NB_TRANSPORT_FILE;
}

/* ------------------------------------------------------------ serial -- */

static gboolean
sp_check (enum sp_return r, NbTransport *t, const char *what, GError **error)
{
  char *os;
  const char *kind;

  if (r >= SP_OK)
    return TRUE;
  /* libserialport's own words for every failure; for SP_ERR_FAIL that is
   * the OS error, for the others the errno left behind explains the cause
   * (ENOENT for a missing port), so it follows the kind of failure. */
  os = sp_last_error_message ();
  kind = r == SP_ERR_FAIL ? NULL
         : r == SP_ERR_ARG ? "invalid argument (no such port, or not a serial port)"
         : r == SP_ERR_MEM ? "out of memory"
         : r == SP_ERR_SUPP ? "not supported" : "failed";
  if (kind == NULL)
    g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s: %s", t->name, what, os ? os : "failed");
  else
    g_set_error (error, NB_ERROR, r == SP_ERR_ARG ? NB_ERROR_INPUT : NB_ERROR_FAILED,
                 "%s: %s: %s (%s)", t->name, what, kind, os ? os : "no OS error");
  if (os != NULL)
    sp_free_error_message (os);
  return FALSE;
}

void
nb_serial_port_info_clear (NbSerialPortInfo *info)
{
  g_clear_pointer (&info->name, g_free);
  g_clear_pointer (&info->description, g_free);
}

static int
compare_ports (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (((const NbSerialPortInfo *) a)->name, ((const NbSerialPortInfo *) b)->name);
}

GArray *
nb_transport_list_serial_ports (GError **error)
{
  NbTransport t = { .name = (char *) "serial ports" };
  struct sp_port **ports = NULL;
  GArray *out;

  if (!sp_check (sp_list_ports (&ports), &t, "list", error))
    return NULL;
  out = g_array_new (FALSE, TRUE, sizeof (NbSerialPortInfo));
  g_array_set_clear_func (out, (GDestroyNotify) nb_serial_port_info_clear);
  for (guint i = 0; ports[i] != NULL; i++)
    {
      const char *description = sp_get_port_description (ports[i]);
      NbSerialPortInfo info = { g_strdup (sp_get_port_name (ports[i])),
                                description && description[0] ? g_strdup (description) : NULL };

      g_array_append_val (out, info);
    }
  sp_free_port_list (ports);
  g_array_sort (out, compare_ports);
  return out;
}

/* Follows symbolic links (at most 16) to the device node. */
static char *
resolve_links (const char *path)
{
  char *current = g_strdup (path);

  for (int hop = 0; hop < 16; hop++)
    {
      g_autofree char *target = g_file_read_link (current, NULL);
      g_autofree char *dir = NULL;

      if (target == NULL)
        break;
      dir = g_path_get_dirname (current);
      g_free (current);
      current = g_canonicalize_filename (target, dir);
    }
  return current;
}

static gboolean
serial_open (NbTransport *t, const NbTransportOptions *o, const char *path, GError **error)
{
  g_autofree char *real = NULL;
  enum sp_flowcontrol flow;
  enum sp_parity parity;

  if (o->flow == NULL || g_str_equal (o->flow, "none"))
    flow = SP_FLOWCONTROL_NONE;
  else if (g_str_equal (o->flow, "xonxoff"))
    flow = SP_FLOWCONTROL_XONXOFF;
  else if (g_str_equal (o->flow, "rtscts"))
    flow = SP_FLOWCONTROL_RTSCTS;
  else if (g_str_equal (o->flow, "dtrdsr"))
    flow = SP_FLOWCONTROL_DTRDSR;
  else
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "flow control '%s' is not none, xonxoff, rtscts or dtrdsr", o->flow);
      return FALSE;
    }
  switch (o->parity)
    {
    case 'E': parity = SP_PARITY_EVEN; break;
    case 'O': parity = SP_PARITY_ODD; break;
    case 'M': parity = SP_PARITY_MARK; break;
    case 'S': parity = SP_PARITY_SPACE; break;
    default: parity = SP_PARITY_NONE; break;
    }
  /* libserialport finds a port by its /dev/ttyX name in sysfs: resolve
   * links such as /dev/serial/by-id/… (or a socat pty link) first, again on
   * every reconnect, since the link may point elsewhere by then. */
  real = resolve_links (path);
  path = real;
  if (o->baud <= 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "baud rate %d is not positive", o->baud);
      return FALSE;
    }
  return sp_check (sp_get_port_by_name (path, &t->port), t, "find port", error) &&
         sp_check (sp_open (t->port, SP_MODE_READ_WRITE), t, "open", error) &&
         sp_check (sp_set_baudrate (t->port, o->baud), t, "set baud rate", error) &&
         sp_check (sp_set_bits (t->port, o->data_bits), t, "set data bits", error) &&
         sp_check (sp_set_parity (t->port, parity), t, "set parity", error) &&
         sp_check (sp_set_stopbits (t->port, o->stop_bits), t, "set stop bits", error) &&
         sp_check (sp_set_flowcontrol (t->port, flow), t, "set flow control", error);
}

/* --------------------------------------------------------------- net -- */

static gboolean
split_host_port (const char *rest, char **host, guint16 *port, GError **error)
{
  const char *colon = strrchr (rest, ':');
  guint64 p;

  if (colon == NULL || !g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &p, NULL))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "'%s' is not HOST:PORT", rest);
      return FALSE;
    }
  *host = g_strndup (rest, (gsize) (colon - rest));
  *port = (guint16) p;
  return TRUE;
}

static gboolean
tcp_open (NbTransport *t, const NbTransportOptions *o, const char *rest, GError **error)
{
  g_autoptr (GSocketClient) client = g_socket_client_new ();
  g_autofree char *host = NULL;
  guint16 port;

  if (!split_host_port (rest, &host, &port, error))
    return FALSE;
  /* Instruments sit on the lab network: never through a desktop proxy. */
  g_socket_client_set_enable_proxy (client, FALSE);
  g_socket_client_set_timeout (client, MAX (1u, (o->connect_timeout_ms ? o->connect_timeout_ms
                                                                       : 5000) / 1000));
  t->connection = g_socket_client_connect_to_host (client, rest, port, NULL, error);
  if (t->connection == NULL)
    {
      g_prefix_error (error, "%s: ", t->name);
      return FALSE;
    }
  t->socket = g_object_ref (g_socket_connection_get_socket (t->connection));
  return TRUE;
}

static gboolean
udp_open (NbTransport *t, const char *rest, GError **error)
{
  g_autofree char *host = NULL;
  g_autoptr (GInetAddress) address = NULL;
  g_autoptr (GInetAddress) any = NULL;
  g_autoptr (GSocketAddress) bind_address = NULL;
  guint16 port;
  gboolean multicast;

  if (!split_host_port (rest, &host, &port, error))
    return FALSE;
  if (host[0] == '\0')
    address = g_inet_address_new_any (G_SOCKET_FAMILY_IPV4);
  else if ((address = g_inet_address_new_from_string (host)) == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: '%s' is not an IP address", t->name,
                   host);
      return FALSE;
    }
  multicast = g_inet_address_get_is_multicast (address);
  t->socket = g_socket_new (g_inet_address_get_family (address), G_SOCKET_TYPE_DATAGRAM,
                            G_SOCKET_PROTOCOL_UDP, error);
  if (t->socket == NULL)
    return FALSE;
  /* A 1 kHz tracker's datagrams wait here while the reading thread is
   * descheduled: the default 208 KiB holds ~200 of them, which a loaded
   * machine outlasts (test-iso9283-live lost 46 frames of a burst at load
   * 21).  Up to 4 MiB, as far as net.core.rmem_max lets; not fatal. */
  g_socket_set_option (t->socket, SOL_SOCKET, SO_RCVBUF, 4 << 20, NULL);
  /* A multicast group is joined on a socket bound to the port on any
   * address; several listeners may share it (allow_reuse). */
  any = g_inet_address_new_any (g_inet_address_get_family (address));
  bind_address = g_inet_socket_address_new (multicast ? any : address, port);
  if (!g_socket_bind (t->socket, bind_address, TRUE, error) ||
      (multicast && !g_socket_join_multicast_group (t->socket, address, FALSE, NULL, error)))
    {
      g_prefix_error (error, "%s: ", t->name);
      return FALSE;
    }
  return TRUE;
}

/* --------------------------------------------------- file, gpsfake -- */

/* "# Delay-Cookie: C D" (gpsd's gpsfake/gps/fake.py, TestLoad): after the
 * "Delay-Cookie:" word, the delimiter C and the delay D in seconds, nothing
 * else.  Returns FALSE with an error naming the line otherwise. */
static gboolean
parse_delay_cookie (NbTransport *t, const char *line, gsize len, guint line_no,
                    GError **error)
{
  g_autofree char *text = g_strndup (line, len);
  g_auto (GStrv) words = NULL;
  const char *w[3] = { NULL };
  guint n = 0;
  double delay;

  g_strstrip (text);
  words = g_strsplit_set (text + (text[0] == '#'), " \t", -1);
  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0')
      {
        if (n < G_N_ELEMENTS (w))
          w[n] = words[i];
        n++;
      }
  if (n != 3 || !g_str_equal (w[0], "Delay-Cookie:") ||
      !nb_parse_double (w[2], strlen (w[2]), &delay) || delay < 0 || delay > 3600)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s:%u: bad Delay-Cookie line '%s': it reads '# Delay-Cookie: C D', C the "
                   "delimiter, D the seconds after each piece (0 to 3600)", t->name, line_no,
                   text);
      return FALSE;
    }
  t->cookie = g_strdup (w[1]);
  t->cookie_len = strlen (w[1]);
  t->delay_us = (gint64) (delay * 1e6 + 0.5);
  return TRUE;
}

/* Reads the lines of the file's header (those starting with '#') and the
 * line after them into t->pending; a Delay-Cookie among them turns cookie
 * mode on, and only what follows the header is then handed out, as gpsfake
 * sends text[commentlen:].  Works on pipes too: nothing is read twice. */
static gboolean
file_read_header (NbTransport *t, GError **error)
{
  gsize header_end = 0, cap = 4096;
  guint line_no = 0;

  t->pending = g_malloc (cap);
  for (;;)
    {
      gsize start = t->pending_len;
      int c;

      while ((c = getc (t->file)) != EOF)
        {
          if (t->pending_len == cap)
            t->pending = g_realloc (t->pending, cap *= 2);
          t->pending[t->pending_len++] = (guint8) c;
          if (c == '\n' || t->pending_len - start > HEADER_MAX_BYTES)
            break;
        }
      if (t->pending_len == start)
        break;                                  /* end of the file */
      line_no++;
      if (t->pending[start] != '#' || t->pending_len > HEADER_MAX_BYTES)
        break;                                  /* the first line of data */
      header_end = t->pending_len;
      if (g_strstr_len ((const char *) t->pending + start, (gssize) (t->pending_len - start),
                        "Delay-Cookie:") != NULL &&
          !parse_delay_cookie (t, (const char *) t->pending + start, t->pending_len - start,
                               line_no, error))
        return FALSE;
    }
  if (ferror (t->file))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, NB_MSG_READ_ERROR, t->name);
      return FALSE;
    }
  if (t->cookie != NULL)
    {
      /* The cookie splitter reads from its own buffer, the line after the
       * header first. */
      t->cbuf = g_malloc (COOKIE_BUFFER_BYTES);
      t->line_no = line_no - (t->pending_len > header_end ? 1 : 0) + 1;
      t->cend = t->pending_len - header_end;
      memcpy (t->cbuf, t->pending + header_end, t->cend);
      g_clear_pointer (&t->pending, g_free);
      t->pending_len = 0;
    }
  return TRUE;
}

static guint
count_newlines (const guint8 *p, gsize n)
{
  guint lines = 0;

  for (const guint8 *end = p + n; (p = memchr (p, '\n', (gsize) (end - p))) != NULL; p++)
    lines++;
  return lines;
}

/* Keeps at least half the cookie buffer ahead of cstart, unless the file
 * has ended. */
static gboolean
cookie_fill (NbTransport *t, GError **error)
{
  size_t got;

  if (t->source_eof || t->cend - t->cstart >= COOKIE_BUFFER_BYTES / 2)
    return TRUE;
  memmove (t->cbuf, t->cbuf + t->cstart, t->cend - t->cstart);
  t->cend -= t->cstart;
  t->cstart = 0;
  got = fread (t->cbuf + t->cend, 1, COOKIE_BUFFER_BYTES - t->cend, t->file);
  if (got == 0 && ferror (t->file))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, NB_MSG_READ_ERROR, t->name);
      return FALSE;
    }
  t->cend += got;
  t->source_eof = got == 0 || feof (t->file);
  return TRUE;
}

/* A piece whose first word is "%Delay:" (after blanks and line ends) waits
 * N more seconds, N a whole number as gpsfake's int() reads it; the
 * directive's line is gpsfake's, not the instrument's: it is not handed
 * out (gpsd's packet lexer drops it as noise; a binary driver would not).
 * gpsfake looks for it in pieces only, so only a Delay-Cookie capture has
 * it; elsewhere such a line is the driver's to skip. */
static gboolean
cookie_piece_delay (NbTransport *t, GError **error)
{
  static const char word[] = "%Delay:";
  const guint8 *p = t->cbuf + t->cstart, *end = t->cbuf + t->cend, *cookie, *line_end, *q;
  gsize blanks = 0, cut;
  guint64 seconds = 0;
  guint digits = 0, line_no;

  while (p + blanks < end &&
         (p[blanks] == ' ' || p[blanks] == '\t' || p[blanks] == '\r' || p[blanks] == '\n'))
    blanks++;
  if ((gsize) (end - p) - blanks < sizeof word - 1 ||
      memcmp (p + blanks, word, sizeof word - 1) != 0)
    return TRUE;
  line_no = t->line_no + count_newlines (p, blanks);
  cookie = memmem (p, (gsize) (end - p), t->cookie, t->cookie_len);
  if (cookie == NULL)
    cookie = end;
  line_end = memchr (p + blanks, '\n', (gsize) (cookie - (p + blanks)));
  line_end = line_end != NULL ? line_end + 1 : cookie;
  for (q = p + blanks + sizeof word - 1; q < line_end && (*q == ' ' || *q == '\t'); q++)
    ;
  for (; q < line_end && *q >= '0' && *q <= '9'; q++, digits++)
    seconds = seconds * 10 + (guint64) (*q - '0');
  while (q < line_end && g_ascii_isspace (*q))
    q++;
  if (digits == 0 || digits > 4 || seconds > 3600 || q != line_end)
    {
      g_autofree char *text = g_strndup ((const char *) p + blanks,
                                         (gsize) (line_end - (p + blanks)));

      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s:%u: bad %%Delay line '%s': it reads '%%Delay: N', N whole seconds "
                   "(0 to 3600)", t->name, line_no, g_strchomp (text));
      return FALSE;
    }
  /* The blanks before it stay, the directive's line goes. */
  cut = (gsize) (line_end - (p + blanks));
  memmove (t->cbuf + t->cstart + cut, t->cbuf + t->cstart, blanks);
  t->cstart += cut;
  t->line_no += count_newlines (p + blanks, cut);
  t->next_piece_us = MAX (t->next_piece_us, g_get_monotonic_time ()) +
                     (gint64) seconds * G_USEC_PER_SEC;
  return TRUE;
}

/* The next bytes of the current piece (never past its end), after waiting
 * for the piece's time when a new one starts. */
static gssize
cookie_read (NbTransport *t, guint8 *buf, gsize len, guint timeout_ms, GError **error)
{
  const guint8 *at;
  gsize avail, n;

  if (!t->in_piece)
    {
      gint64 now;

      if (!t->piece_looked_at)
        {
          /* a directive line is short: half the buffer holds it */
          if (!cookie_fill (t, error) || !cookie_piece_delay (t, error))
            return -1;
          t->piece_looked_at = TRUE;
        }
      now = g_get_monotonic_time ();
      if (now < t->next_piece_us)
        {
          g_usleep ((gulong) MIN (t->next_piece_us - now, (gint64) timeout_ms * 1000));
          if (g_get_monotonic_time () < t->next_piece_us)
            return 0;
        }
      t->in_piece = TRUE;
      t->piece_looked_at = FALSE;
    }
  if (!cookie_fill (t, error))
    return -1;
  avail = t->cend - t->cstart;
  at = memmem (t->cbuf + t->cstart, avail, t->cookie, t->cookie_len);
  if (at != NULL)
    n = (gsize) (at - (t->cbuf + t->cstart));
  else if (t->source_eof)
    n = avail;
  else
    n = avail - MIN (avail, t->cookie_len - 1);   /* may be a cookie's start */
  n = MIN (n, len);
  memcpy (buf, t->cbuf + t->cstart, n);
  t->line_no += count_newlines (buf, n);
  t->cstart += n;
  if (at != NULL && t->cbuf + t->cstart == at)
    {
      /* The piece is written: the cookie goes, the delay runs. */
      t->line_no += count_newlines (at, t->cookie_len);
      t->cstart += t->cookie_len;
      t->in_piece = FALSE;
      t->next_piece_us = g_get_monotonic_time () + t->delay_us;
    }
  else if (n == 0 && t->source_eof && t->cstart == t->cend)
    t->at_end = TRUE;
  return (gssize) n;
}

/* ------------------------------------------------------------ public -- */

void
nb_transport_init_types (void)
{
  g_type_ensure (G_TYPE_INET_ADDRESS);
  g_type_ensure (G_TYPE_SOCKET_ADDRESS);
  g_type_ensure (G_TYPE_INET_SOCKET_ADDRESS);
  g_type_ensure (G_TYPE_NETWORK_ADDRESS);
  g_type_ensure (G_TYPE_SOCKET);
  g_type_ensure (G_TYPE_SOCKET_CLIENT);
  g_type_ensure (G_TYPE_SOCKET_CONNECTION);
  g_type_ensure (G_TYPE_TCP_CONNECTION);
}

NbTransport *
nb_transport_open (const NbTransportOptions *o, GError **error)
{
  g_autoptr (NbTransport) t = g_new0 (NbTransport, 1);
  const char *url = o->url;
  gboolean ok = FALSE;

  if (url == NULL || url[0] == '\0')
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "no port, URL or file given");
      return NULL;
    }
  t->kind = nb_transport_kind_of (url);
  t->name = g_strdup (url);
  switch (t->kind)
    {
    case NB_TRANSPORT_TCP:
      ok = tcp_open (t, o, url + strlen ("tcp://"), error);
      break;
    case NB_TRANSPORT_UDP:
      ok = udp_open (t, url + strlen ("udp://"), error);
      break;
    case NB_TRANSPORT_SERIAL:
      ok = serial_open (t, o, g_str_has_prefix (url, "serial:") ? url + strlen ("serial:") : url,
                        error);
      break;
    case NB_TRANSPORT_FILE:
    default:
      {
        const char *path = g_str_has_prefix (url, "file:") ? url + strlen ("file:") : url;

        t->file = fopen (path, "rb");
        if (t->file == NULL)
          {
            int saved = errno;

            g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", path, g_strerror (saved));
          }
        ok = t->file != NULL && file_read_header (t, error);
      }
      break;
    }
  return ok ? g_steal_pointer (&t) : NULL;
}

gssize
nb_transport_read (NbTransport *t, guint8 *buf, gsize len, guint timeout_ms, GError **error)
{
  switch (t->kind)
    {
    case NB_TRANSPORT_FILE:
      {
        size_t n;

        if (t->cookie != NULL)
          return cookie_read (t, buf, len, timeout_ms, error);
        if (t->pending_pos < t->pending_len)
          {
            n = MIN (len, t->pending_len - t->pending_pos);
            memcpy (buf, t->pending + t->pending_pos, n);
            t->pending_pos += n;
            return (gssize) n;
          }
        n = fread (buf, 1, len, t->file);

        if (n == 0)
          {
            if (ferror (t->file))
              {
                g_set_error (error, NB_ERROR, NB_ERROR_FAILED, NB_MSG_READ_ERROR, t->name);
                return -1;
              }
            t->at_end = TRUE;
          }
        return (gssize) n;
      }

    case NB_TRANSPORT_SERIAL:
      {
        enum sp_return r = sp_blocking_read_next (t->port, buf, len, timeout_ms);
        enum sp_signal signals;

        if (!sp_check (r, t, "read", error))
          return -1;
        /* A hung-up pty or an unplugged USB adapter can read as "nothing"
         * forever; the modem lines tell the difference (ENXIO/EIO). */
        if (r == 0 && !sp_check (sp_get_signals (t->port, &signals), t, "line status", error))
          return -1;
        return r;
      }

    case NB_TRANSPORT_TCP:
    case NB_TRANSPORT_UDP:
    default:
      {
        g_autoptr (GError) local = NULL;
        gssize n;

        if (!g_socket_condition_timed_wait (t->socket, G_IO_IN | G_IO_HUP | G_IO_ERR,
                                            (gint64) timeout_ms * 1000, NULL, &local))
          {
            if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
              return 0;
            g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", t->name, local->message);
            return -1;
          }
        n = g_socket_receive (t->socket, (char *) buf, len, NULL, &local);
        if (n < 0)
          {
            if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
              return 0;
            g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", t->name, local->message);
            return -1;
          }
        if (n == 0 && t->kind == NB_TRANSPORT_TCP)
          {
            /* The peer closed the connection. */
            g_set_error (error, NB_ERROR, NB_ERROR_FAILED, NB_MSG_CLOSED_BY_PEER,
                         t->name);
            return -1;
          }
        return n;
      }
    }
}

gboolean
nb_transport_at_end (NbTransport *t)
{
  return t->at_end;
}

gboolean
nb_transport_write (NbTransport *t, const guint8 *data, gsize len, guint timeout_ms,
                    GError **error)
{
  switch (t->kind)
    {
    case NB_TRANSPORT_SERIAL:
      {
        enum sp_return r = sp_blocking_write (t->port, data, len, timeout_ms);

        if (!sp_check (r, t, "write", error))
          return FALSE;
        if ((gsize) r != len)
          {
            g_set_error (error, NB_ERROR, NB_ERROR_FAILED, NB_MSG_WRITE_TIMED_OUT, t->name);
            return FALSE;
          }
        return TRUE;
      }
    case NB_TRANSPORT_TCP:
    case NB_TRANSPORT_UDP:
      {
        g_autoptr (GError) local = NULL;
        gsize done = 0;

        while (done < len)
          {
            gssize n;

            if (!g_socket_condition_timed_wait (t->socket, G_IO_OUT, (gint64) timeout_ms * 1000,
                                                NULL, &local) ||
                (n = g_socket_send (t->socket, (const char *) data + done, len - done, NULL,
                                    &local)) < 0)
              {
                g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", t->name,
                             local->message);
                return FALSE;
              }
            done += (gsize) n;
          }
        return TRUE;
      }
    case NB_TRANSPORT_FILE:
    default:
      /* A replayed recording answers nothing: requests are dropped. */
      return TRUE;
    }
}

void
nb_transport_flush_input (NbTransport *t)
{
  if (t->kind == NB_TRANSPORT_SERIAL)
    sp_flush (t->port, SP_BUF_INPUT);
}

NbTransportKind
nb_transport_kind (NbTransport *t)
{
  return t->kind;
}

void
nb_transport_close (NbTransport *t)
{
  if (t == NULL)
    return;
  if (t->file != NULL)
    fclose (t->file);
  g_free (t->pending);
  g_free (t->cookie);
  g_free (t->cbuf);
  if (t->port != NULL)
    {
      sp_close (t->port);
      sp_free_port (t->port);
    }
  if (t->connection != NULL)
    g_io_stream_close (G_IO_STREAM (t->connection), NULL, NULL);
  g_clear_object (&t->socket);
  g_clear_object (&t->connection);
  g_free (t->name);
  g_free (t);
}
