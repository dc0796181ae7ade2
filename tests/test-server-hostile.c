/* `navbench-cli serve` against a hostile client on loopback (issue #21):
 * requests that leaked a descriptor each (a path with %00, `GET *`), the
 * descriptor limit, bodies refused from the headers, slow clients, the
 * connection cap, IPv6, strict JSON, the token kept off the command line,
 * a bad bag_path.  Bare sockets, so that the test sends exactly the bytes
 * an attacker would. */
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-raw-http.h"
#include "nb-test-tmp.h"

#include <json-glib/json-glib.h>
#include <signal.h>
#include <sys/wait.h>

#define GET_STATE "GET /robot/state HTTP/1.1\r\nHost: x\r\n\r\n"

static NbTestServer
serve (guint nofile, char **envp, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, envp);
  for (const char *a = va_arg (ap, const char *); a; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return nb_test_servev (envp, nofile, (const char *const *) args->pdata);
}

/* The answer must be HTTP `status` with a JSON object {"error", "detail"}
 * whose detail holds `part` (NULL: any). */
static void
assert_answer (const char *answer, guint status, const char *part)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o;

  if (nb_raw_status (answer) != status)
    g_error ("expected HTTP %u, got: %s", status, answer ? answer : "(no answer in time)");
  o = nb_test_parse_object (parser, nb_raw_body (answer));
  if (status >= 400)
    {
      g_assert_true (json_object_has_member (o, "error"));
      if (part != NULL && strstr (json_object_get_string_member (o, "detail"), part) == NULL)
        g_error ("HTTP %u: detail lacks \"%s\": %s", status, part, nb_raw_body (answer));
    }
}

static char *
exchange (const char *url, const char *request)
{
  NbRawAddr a = nb_raw_addr (url);

  return nb_raw_exchange (&a, request, strlen (request), 10.0);
}

/* Each of these leaked one descriptor (libsoup kept the connection alive and
 * never released it once the client closed): 1 100 of them took a server
 * down. */
static void
test_no_leak_per_request (void)
{
  NbTestServer s = nb_test_serve (NULL);
  static const struct {
    const char *request;
    guint status;
  } cases[] = {
    { "GET /robot/%00state HTTP/1.1\r\nHost: x\r\n\r\n", 400 },
    { "GET * HTTP/1.1\r\nHost: x\r\n\r\n", 404 },
    { "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", 404 },
    { "GET /robot/state HTTP/1.1\r\nHost: a/b\r\n\r\n", 0 },
    { "GET /robot/%2e%2e/%2e%2e/x HTTP/1.1\r\nHost: x\r\n\r\n", 0 },
    { "\x01\x02 garbage\r\n\r\n", 0 },
    { GET_STATE, 200 },
  };
  guint before, after;

  g_usleep (100000);
  before = nb_raw_fds (s.pid);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (int i = 0; i < 100; i++)
      {
        g_autofree char *answer = exchange (s.url, cases[c].request);

        /* 0: libsoup's own refusal, an HTTP 4xx without our body. */
        if (cases[c].status != 0)
          assert_answer (answer, cases[c].status, NULL);
        else
          g_assert_cmpuint (nb_raw_status (answer) / 100, ==, 4);
      }
  /* The client goes first, without reading the answer. */
  for (int i = 0; i < 100; i++)
    {
      NbRawAddr a = nb_raw_addr (s.url);
      int fd = nb_raw_dial (&a);

      nb_raw_send (fd, "GET * HTTP/1.1\r\nHost: x\r\n\r\n", 27);
      close (fd);
    }
  after = nb_raw_fds_settle (s.pid, before);
  g_assert_cmpuint (after, <=, before);
  nb_test_server_stop (&s);
}

/* At the descriptor limit the server stopped accepting for good (libsoup
 * removes its accept source on the first error); it must take requests
 * again as soon as descriptors are free. */
static void
test_emfile_recovers (void)
{
  NbTestServer s = serve (48, NULL, NULL);
  NbRawAddr a = nb_raw_addr (s.url);
  int idle[80];
  g_autofree char *answer = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (idle); i++)
    idle[i] = nb_raw_dial (&a);   /* queued by the kernel even when not accepted */
  g_usleep (300000);
  g_assert_cmpuint (nb_raw_fds (s.pid), >=, 40);  /* it took what it could */
  for (guint i = 0; i < G_N_ELEMENTS (idle); i++)
    if (idle[i] >= 0)
      close (idle[i]);
  answer = exchange (s.url, GET_STATE);
  assert_answer (answer, 200, NULL);
  g_clear_pointer (&answer, g_free);
  /* And again, twice over the limit. */
  for (int round = 0; round < 2; round++)
    {
      for (guint i = 0; i < G_N_ELEMENTS (idle); i++)
        idle[i] = nb_raw_dial (&a);
      g_usleep (100000);
      for (guint i = 0; i < G_N_ELEMENTS (idle); i++)
        if (idle[i] >= 0)
          close (idle[i]);
      answer = exchange (s.url, GET_STATE);
      assert_answer (answer, 200, NULL);
      g_clear_pointer (&answer, g_free);
    }
  nb_test_server_stop (&s);
}

static char *
token_file (const char *dir, const char *text)
{
  char *path = g_build_filename (dir, "token", NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  return path;
}

/* A declared body is refused from the headers: the answer comes before a
 * byte of it is sent, and the server's memory does not grow by it. */
static void
test_refused_from_headers (void)
{
  g_autofree char *dir = nb_test_make_dir ();
  g_autofree char *file = token_file (dir, "s3cret\n");
  NbTestServer s = serve (0, NULL, "--token-file", file, NULL);
  NbRawAddr a = nb_raw_addr (s.url);
  g_autofree char *chunk = g_strnfill (65536, 'x');
  guint64 rss0 = nb_raw_rss_kb (s.pid);
  char *answer;
  int fd;

  /* No token, a 512 MiB body declared: 401 at once. */
  answer = exchange (s.url, "POST /robot/joints HTTP/1.1\r\nHost: x\r\n"
                            "Content-Length: 536870912\r\n\r\n");
  assert_answer (answer, 401, "bearer token");
  g_assert_nonnull (strstr (answer, "WWW-Authenticate: Bearer"));
  g_free (answer);
  answer = exchange (s.url, "POST /robot/joints HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer no\r\n"
                            "Content-Length: 536870912\r\n\r\n");
  assert_answer (answer, 401, NULL);
  g_free (answer);
  /* The token, but over the 64 KiB cap. */
  answer = exchange (s.url, "POST /robot/joints HTTP/1.1\r\nHost: x\r\n"
                            "Authorization: Bearer s3cret\r\nContent-Length: 536870912\r\n\r\n");
  assert_answer (answer, 413, "536870912");
  g_free (answer);
  /* Chunked: capped as it streams; the server closes after at most 1 MiB
   * more of it, so that 32 MiB cannot all be sent. */
  fd = nb_raw_dial (&a);
  g_assert_true (nb_raw_send (fd, "POST /robot/joints HTTP/1.1\r\nHost: x\r\n"
                              "Authorization: Bearer s3cret\r\nTransfer-Encoding: chunked\r\n\r\n",
                              strlen ("POST /robot/joints HTTP/1.1\r\nHost: x\r\n"
                                      "Authorization: Bearer s3cret\r\nTransfer-Encoding: "
                                      "chunked\r\n\r\n")));
  {
    gboolean open = TRUE;
    int sent = 0;

    for (; sent < 512 && open; sent++)
      open = nb_raw_send (fd, "10000\r\n", 7) && nb_raw_send (fd, chunk, 65536) &&
             nb_raw_send (fd, "\r\n", 2);
    g_assert_false (open);
    g_assert_cmpint (sent, <, 256);   /* 1 MiB drained, the rest the kernel buffered */
  }
  answer = nb_raw_read_all (fd, 5.0);
  close (fd);
  assert_answer (answer, 413, "65536");
  g_free (answer);
  /* None of that was kept. */
  g_assert_cmpuint (nb_raw_rss_kb (s.pid), <, rss0 + 4096);
  /* A request with the token still works; the token came from the file
   * (its line end stripped), never from the command line. */
  answer = exchange (s.url, "GET /robot/state HTTP/1.1\r\nHost: x\r\n"
                            "Authorization: Bearer s3cret\r\n\r\n");
  assert_answer (answer, 200, NULL);
  g_free (answer);
  {
    g_autofree char *cmdline_path = g_strdup_printf ("/proc/%d/cmdline", (int) s.pid);
    g_autofree char *cmdline = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (cmdline_path, &cmdline, &len, NULL));
    g_assert_null (g_strstr_len (cmdline, (gssize) len, "s3cret"));
  }
  nb_test_server_stop (&s);
  nb_test_remove_dir (dir);
}

static void
test_token_sources (void)
{
  g_autofree char *dir = nb_test_make_dir ();
  g_autofree char *empty = token_file (dir, "\n");
  g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "NAVBENCH_TOKEN", "from-env", TRUE);
  g_autofree char *err = NULL, *help = NULL;
  NbTestServer s = serve (0, env, "--listen", "0.0.0.0:0", NULL);
  char *answer;

  answer = exchange (s.url, GET_STATE);
  assert_answer (answer, 401, NULL);
  g_free (answer);
  answer = exchange (s.url, "GET /robot/state HTTP/1.1\r\nHost: x\r\n"
                            "Authorization: Bearer from-env\r\n\r\n");
  assert_answer (answer, 200, NULL);
  g_free (answer);
  nb_test_server_stop (&s);
  /* Refused: an empty token file, a missing one, both sources at once. */
  g_free (nb_test_cli_run (NULL, 2, &err, "serve", "--token-file", empty, NULL));
  g_assert_nonnull (strstr (err, "an empty token"));
  g_clear_pointer (&err, g_free);
  g_free (nb_test_cli_run (NULL, 2, &err, "serve", "--token-file", "/nonexistent/t", NULL));
  g_assert_nonnull (strstr (err, "/nonexistent/t"));
  g_clear_pointer (&err, g_free);
  g_free (nb_test_cli_run (NULL, 2, &err, "serve", "--token-file", empty, "--token", "x", NULL));
  g_assert_nonnull (strstr (err, "not both"));
  /* The help says where a token should come from. */
  help = nb_test_cli_run (NULL, 0, NULL, "serve", "--help", NULL);
  g_assert_nonnull (strstr (help, "--token-file"));
  g_assert_nonnull (strstr (help, "$NAVBENCH_TOKEN"));
  g_assert_nonnull (strstr (help, "/proc/PID/cmdline"));
  nb_test_remove_dir (dir);
}

/* 200 connections sending a header byte a second kept their slots forever. */
static void
test_slow_clients (void)
{
  NbTestServer s = serve (0, NULL, "--header-timeout-s", "0.5", "--body-timeout-s", "0.5",
                          "--max-connections", "16", NULL);
  NbRawAddr a = nb_raw_addr (s.url);
  const char *slow = "GET /robot/state HTTP/1.1\r\nHost: x\r\n";
  guint before = nb_raw_fds (s.pid);
  int fds[24];
  guint busy = 0, timed_out = 0;
  gint64 t0 = g_get_monotonic_time ();
  char *answer;
  int fd;

  /* A header byte every 100 ms: 408 at 0.5 s, closed. */
  fd = nb_raw_dial (&a);
  for (guint i = 0; slow[i] && nb_raw_send (fd, slow + i, 1); i++)
    g_usleep (100000);
  answer = nb_raw_read_all (fd, 5.0);
  close (fd);
  assert_answer (answer, 408, "headers");
  g_free (answer);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 3000000);
  /* The headers in time, the body never: 408 too. */
  answer = exchange (s.url, "POST /robot/joints HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
                            "\r\n{\"joints\"");
  assert_answer (answer, 408, "body");
  g_free (answer);
  /* Beyond 16 open connections: 503 at once; then all are timed out. */
  for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
    {
      fds[i] = nb_raw_dial (&a);
      g_usleep (5000);
    }
  for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
    {
      g_autofree char *got = nb_raw_read_all (fds[i], 5.0);

      if (nb_raw_status (got) == 503)
        {
          assert_answer (got, 503, "16 connections");
          busy++;
        }
      else
        {
          assert_answer (got, 408, NULL);
          timed_out++;
        }
      close (fds[i]);
    }
  g_assert_cmpuint (busy, ==, G_N_ELEMENTS (fds) - 16);
  g_assert_cmpuint (timed_out, ==, 16);
  answer = exchange (s.url, GET_STATE);
  assert_answer (answer, 200, NULL);
  g_free (answer);
  g_assert_cmpuint (nb_raw_fds_settle (s.pid, before), <=, before);
  nb_test_server_stop (&s);
}

static char *
status_state (const char *url)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *answer = exchange (url, "GET /sequences/status HTTP/1.1\r\nHost: x\r\n\r\n");

  g_assert_cmpuint (nb_raw_status (answer), ==, 200);
  return g_strdup (json_object_get_string_member (nb_test_parse_object (parser,
                                                                        nb_raw_body (answer)),
                                                  "state"));
}

static char *
post (const char *url, const char *path, const char *body, gsize len)
{
  NbRawAddr a = nb_raw_addr (url);
  g_autofree char *head = g_strdup_printf ("POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: "
                                           "%zu\r\n\r\n", path, len);
  g_autoptr (GByteArray) req = g_byte_array_new ();

  g_byte_array_append (req, (const guint8 *) head, (guint) strlen (head));
  g_byte_array_append (req, (const guint8 *) body, (guint) len);
  return nb_raw_exchange (&a, req->data, req->len, 10.0);
}

/* `serve --listen [::1]:P` announced http://127.0.0.1:P, and every sequence
 * it started failed to connect. */
static void
test_ipv6 (void)
{
  NbTestServer s = serve (0, NULL, "--listen", "[::1]:0", NULL);
  g_autofree char *state = NULL;
  const char *start = "{\"name\": \"pick-and-place\", \"n_iterations\": 1}";
  char *answer;

  g_assert_true (g_str_has_prefix (s.url, "http://[::1]:"));
  answer = exchange (s.url, GET_STATE);
  assert_answer (answer, 200, NULL);
  g_free (answer);
  answer = post (s.url, "/sequences/start", start, strlen (start));
  assert_answer (answer, 202, NULL);
  g_free (answer);
  for (int i = 0; i < 6000; i++)
    {
      g_free (state);
      state = status_state (s.url);
      if (!g_str_equal (state, "running"))
        break;
      g_usleep (10000);
    }
  g_assert_cmpstr (state, ==, "succeeded");
  nb_test_server_stop (&s);
}

/* json-glib took comments, single quotes and trailing data; "\u0000" cut
 * name and bag_path short; deep nesting overflowed the stack. */
static void
test_strict_json (void)
{
  NbTestServer s = nb_test_serve (NULL);
  static const struct {
    const char *body;
    gsize len;                  /* 0: strlen */
    const char *detail;
  } cases[] = {
    { "// x\n{\"joints\": [0, 0, 0, 0, 0, 0, 0]}", 0, "line 1, column 1" },
    { "{\"joints\": [0, 0, 0, 0, 0, 0, 0] /* c */}", 0, "column 34" },
    { "{'joints': [0, 0, 0, 0, 0, 0, 0]}", 0, "column 2" },
    { "{\"joints\": [0, 0, 0, 0, 0, 0, 0]} {}", 0, "more than one JSON value" },
    { "{\"joints\": [0, 0, 0, 0, 0, 0, 0]}x", 0, "more than one JSON value" },
    { "{\"joints\": [0, 0, 0, 0, 0, 0, 0]}\0", 34, "a NUL byte" },
    { "{\"joints\": [0, 0, 0, 0, 0, 0, 0],\n \"x\\u0000\": 1}", 0, "line 2" },
    { "{\"joints\": [0, 0, 0, 0, 0, 0, 0], \"a\": \"\xff\"}", 0, "not UTF-8" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *answer = post (s.url, "/robot/joints", cases[i].body,
                                      cases[i].len ? cases[i].len : strlen (cases[i].body));

      assert_answer (answer, 400, cases[i].detail);
    }
  {
    g_autofree char *answer = NULL;
    const char *start = "{\"name\": \"pick-and-place\\u0000../../x\"}";

    answer = post (s.url, "/sequences/start", start, strlen (start));
    assert_answer (answer, 400, "\\u0000 inside a string");
  }
  {
    /* 60 000 levels (within the 64 KiB cap). */
    g_autofree char *deep = g_strnfill (60000, '[');
    g_autofree char *answer = post (s.url, "/robot/joints", deep, 60000);

    assert_answer (answer, 400, "nested deeper than 512 levels");
  }
  {
    g_autofree char *state = status_state (s.url);

    g_assert_cmpstr (state, ==, "idle");
  }
  nb_test_server_stop (&s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  signal (SIGPIPE, SIG_IGN);
  g_test_add_func ("/server-hostile/no-leak-per-request", test_no_leak_per_request);
  g_test_add_func ("/server-hostile/emfile-recovers", test_emfile_recovers);
  g_test_add_func ("/server-hostile/refused-from-headers", test_refused_from_headers);
  g_test_add_func ("/server-hostile/token-sources", test_token_sources);
  g_test_add_func ("/server-hostile/slow-clients", test_slow_clients);
  g_test_add_func ("/server-hostile/ipv6", test_ipv6);
  g_test_add_func ("/server-hostile/strict-json", test_strict_json);
  return g_test_run ();
}
