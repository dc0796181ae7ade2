/* nb-test-raw-http.h — HTTP on bare sockets, for the tests that must send
 * what no client library would (slow bytes, lies in the headers, NUL in a
 * path), and count what the server keeps (descriptors, resident memory). */
#pragma once

#include <glib.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct {
  int family;
  struct sockaddr_storage sa;
  socklen_t len;
} NbRawAddr;

/* "http://127.0.0.1:P" or "http://[::1]:P". */
static inline NbRawAddr
nb_raw_addr (const char *url)
{
  NbRawAddr a = { 0 };
  const char *host = url + strlen ("http://");
  const char *colon = strrchr (host, ':');
  g_autofree char *h = g_strndup (host, (gsize) (colon - host));
  int port = atoi (colon + 1);

  g_assert_true (g_str_has_prefix (url, "http://"));
  if (h[0] == '[')
    {
      struct sockaddr_in6 *s6 = (struct sockaddr_in6 *) &a.sa;

      h[strlen (h) - 1] = '\0';
      a.family = AF_INET6;
      s6->sin6_family = AF_INET6;
      s6->sin6_port = htons ((guint16) port);
      g_assert_cmpint (inet_pton (AF_INET6, h + 1, &s6->sin6_addr), ==, 1);
      a.len = sizeof *s6;
    }
  else
    {
      struct sockaddr_in *s4 = (struct sockaddr_in *) &a.sa;

      a.family = AF_INET;
      s4->sin_family = AF_INET;
      s4->sin_port = htons ((guint16) port);
      g_assert_cmpint (inet_pton (AF_INET, h, &s4->sin_addr), ==, 1);
      a.len = sizeof *s4;
    }
  return a;
}

/* A connected socket, or −1 (errno set) when the server does not take it. */
static inline int
nb_raw_dial (const NbRawAddr *a)
{
  int fd = socket (a->family, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  if (connect (fd, (const struct sockaddr *) &a->sa, a->len) != 0)
    {
      int saved = errno;

      close (fd);
      errno = saved;
      return -1;
    }
  return fd;
}

/* FALSE when the server has closed its side (EPIPE, ECONNRESET). */
static inline gboolean
nb_raw_send (int fd, const void *data, gsize len)
{
  const char *p = data;

  while (len > 0)
    {
      ssize_t n = send (fd, p, len, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* The answer in s is whole: its headers and the Content-Length bytes after
 * them (the server keeps the connection alive after it). */
static inline gboolean
nb_raw_answer_whole (const GString *s)
{
  const char *end = strstr (s->str, "\r\n\r\n");
  const char *cl = NULL;

  for (const char *l = s->str; end != NULL && l != NULL && l < end; l = strstr (l, "\r\n"))
    {
      if (l != s->str)
        l += 2;
      if (g_ascii_strncasecmp (l, "Content-Length:", 15) == 0)
        {
          cl = l + 15;
          break;
        }
    }
  return cl != NULL && s->len >= (gsize) (end + 4 - s->str) + g_ascii_strtoull (cl, NULL, 10);
}

/* Everything until the server closes or the answer is whole by its
 * Content-Length, or NULL after timeout_s. */
static inline char *
nb_raw_read_all (int fd, double timeout_s)
{
  GString *s = g_string_new (NULL);
  gint64 end = g_get_monotonic_time () + (gint64) (timeout_s * 1e6);

  for (;;)
    {
      struct pollfd p = { fd, POLLIN, 0 };
      gint64 left = (end - g_get_monotonic_time ()) / 1000;
      char buf[16384];
      ssize_t n;

      if (nb_raw_answer_whole (s))
        return g_string_free (s, FALSE);
      if (left <= 0 || poll (&p, 1, (int) left) == 0)
        {
          g_string_free (s, TRUE);
          return NULL;
        }
      n = recv (fd, buf, sizeof buf, 0);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)                 /* the end, or a reset after the answer */
        return g_string_free (s, FALSE);
      g_string_append_len (s, buf, n);
    }
}

/* The answer's status (0: no HTTP answer). */
static inline guint
nb_raw_status (const char *answer)
{
  unsigned status = 0;

  if (answer == NULL || sscanf (answer, "HTTP/1.%*d %u", &status) != 1)
    return 0;
  return status;
}

static inline const char *
nb_raw_body (const char *answer)
{
  const char *b = answer ? strstr (answer, "\r\n\r\n") : NULL;

  return b ? b + 4 : "";
}

/* One request on its own connection; the whole answer (NULL: none in time). */
static inline char *
nb_raw_exchange (const NbRawAddr *a, const void *request, gsize len, double timeout_s)
{
  int fd = nb_raw_dial (a);
  char *answer;

  if (fd < 0)
    return NULL;
  nb_raw_send (fd, request, len);
  answer = nb_raw_read_all (fd, timeout_s);
  close (fd);
  return answer;
}

/* What a process holds: open descriptors, resident memory in kB. */
static inline guint
nb_raw_fds (GPid pid)
{
  g_autofree char *dir = g_strdup_printf ("/proc/%d/fd", (int) pid);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static inline guint64
nb_raw_rss_kb (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree char *text = NULL;
  const char *line;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  line = strstr (text, "VmRSS:");
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + strlen ("VmRSS:"), NULL, 10);
}

/* The descriptors once the server has closed what it answered: at most
 * `limit`, waiting up to 3 s for the last closes. */
static inline guint
nb_raw_fds_settle (GPid pid, guint limit)
{
  guint n = nb_raw_fds (pid);

  for (int i = 0; i < 300 && n > limit; i++)
    {
      g_usleep (10000);
      n = nb_raw_fds (pid);
    }
  return n;
}
