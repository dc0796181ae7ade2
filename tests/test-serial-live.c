/* NMEA live over a real serial path: socat makes a pseudo-terminal, the
 * driver opens it through libserialport at 115200 baud (8N1, no flow
 * control), the test writes sentences into socat as a receiver would.
 * Then the writer is killed mid-stream: the device must report the loss
 * within 1 s without hanging, and reconnect when the port comes back.
 *
 * Runs with tests/pty-shim.c preloaded (libserialport 0.1.1 refuses ptys
 * otherwise; see there).  Skips if socat is missing.
 */
#include "nb-test.h"

#include "nb-device.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  GPid pid;
  int in;          /* socat's stdin: what we write comes out of the pty */
} Writer;

static Writer
writer_start (const char *link)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *address = g_strdup_printf ("pty,link=%s,raw,echo=0,b115200", link);
  const char *argv[] = { "socat", "-u", "STDIN", address, NULL };
  g_auto (GStrv) env = g_environ_unsetenv (g_get_environ (), "LD_PRELOAD");
  Writer w = { 0 };

  if (!g_spawn_async_with_pipes (NULL, (char **) argv, env, G_SPAWN_SEARCH_PATH |
                                 G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &w.pid, &w.in, NULL,
                                 NULL, &error))
    g_error ("socat: %s", error->message);
  /* The link appears once socat has made the pty. */
  for (int i = 0; i < 200 && !g_file_test (link, G_FILE_TEST_EXISTS); i++)
    g_usleep (10000);
  g_assert_true (g_file_test (link, G_FILE_TEST_EXISTS));
  return w;
}

static void
writer_kill (Writer *w)
{
  int status;

  kill (w->pid, SIGKILL);
  waitpid (w->pid, &status, 0);
  g_spawn_close_pid (w->pid);
  close (w->in);
  w->pid = 0;
}

static void
write_gga (Writer *w, int k)
{
  g_autofree char *body = g_strdup_printf ("GNGGA,0900%05.2f,5545.%08d,N,03737.20000000,E,4,18,"
                                           "0.5,150.0,M,14.0,M,1.0,0001", k * 0.05, 1000 + k);
  guint8 sum = 0;
  g_autofree char *line = NULL;

  for (const char *p = body; *p; p++)
    sum ^= (guint8) *p;
  line = g_strdup_printf ("$%s*%02X\r\n", body, sum);
  g_assert_cmpint (write (w->in, line, strlen (line)), ==, (gssize) strlen (line));
}

typedef struct {
  guint samples, lost, connected, errors;
  double lost_at, connected_at;
  int last_k;
} Seen;

/* Events for up to seconds or until *flag becomes non-zero. */
static void
pump (NbDevice *d, Seen *seen, double seconds, const guint *flag, guint target)
{
  double deadline = nb_device_now () + seconds;

  while (nb_device_now () < deadline && (flag == NULL || *flag < target))
    {
      NbEvent e;

      if (!nb_device_next (d, 10000, &e))
        continue;
      switch (e.kind)
        {
        case NB_EVENT_SAMPLE:
          seen->samples++;
          g_assert_cmpint (e.sample.fix, ==, NB_FIX_RTK_FIXED);
          g_assert_cmpint (e.sample.satellites, ==, 18);
          /* the sentence index, from the time field */
          seen->last_k = (int) lround ((e.sample.device_time_s - 9 * 3600) / 0.05);
          break;
        case NB_EVENT_LOST: seen->lost++; seen->lost_at = e.t_s; break;
        case NB_EVENT_CONNECTED: seen->connected++; seen->connected_at = e.t_s; break;
        case NB_EVENT_ERROR:
          g_error ("device error: %s", e.message);
          break;
        default: break;
        }
      nb_event_clear (&e);
    }
}

static void
test_live (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-serial-XXXXXX", NULL);
  g_autofree char *link = g_build_filename (dir, "gnss", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbDevice) d = NULL;
  Writer w;
  Seen seen = { 0 };
  double killed_at, t0;
  guint before;
  g_autofree char *socat = g_find_program_in_path ("socat");

  if (socat == NULL)
    {
      g_test_skip ("socat is not installed (tools/install-deps.sh)");
      return;
    }
  w = writer_start (link);
  d = nb_device_new ("nmea", &error);
  g_assert_no_error (error);
  g_assert_true (nb_device_configure (d, "port", link, &error));
  g_assert_true (nb_device_configure (d, "baud", "115200", &error));
  g_assert_true (nb_device_configure (d, "framing", "8N1", &error));
  g_assert_true (nb_device_configure (d, "flow", "none", &error));
  g_assert_true (nb_device_configure (d, "loss-timeout", "0.5", &error));
  g_assert_true (nb_device_start (d, &error));
  pump (d, &seen, 5.0, &seen.connected, 1);
  g_assert_cmpuint (seen.connected, ==, 1);

  /* 40 sentences at 20 Hz, all decoded in order. */
  for (int k = 0; k < 40; k++)
    {
      write_gga (&w, k);
      pump (d, &seen, 0.05, NULL, 0);
    }
  pump (d, &seen, 1.0, &seen.samples, 40);
  g_assert_cmpuint (seen.samples, ==, 40);
  g_assert_cmpint (seen.last_k, ==, 39);

  /* Kill the writer mid-stream, half a sentence out. */
  g_assert_cmpint (write (w.in, "$GNGGA,0900", 11), ==, 11);
  g_usleep (20000);
  killed_at = nb_device_now ();
  writer_kill (&w);
  pump (d, &seen, 3.0, &seen.lost, 1);
  g_assert_cmpuint (seen.lost, ==, 1);
  g_test_message ("loss reported %.3f s after the kill", seen.lost_at - killed_at);
  g_assert_cmpfloat (seen.lost_at - killed_at, <, 1.0);

  /* The port returns (same link, a new pty behind it): reconnect. */
  g_usleep (300000);
  w = writer_start (link);
  t0 = nb_device_now ();
  pump (d, &seen, 5.0, &seen.connected, 2);
  g_assert_cmpuint (seen.connected, ==, 2);
  g_test_message ("reconnected %.3f s after the port returned", seen.connected_at - t0);
  before = seen.samples;
  for (int k = 100; k < 110; k++)
    {
      write_gga (&w, k);
      pump (d, &seen, 0.05, NULL, 0);
    }
  pump (d, &seen, 1.0, &seen.samples, before + 10);
  g_assert_cmpuint (seen.samples, ==, before + 10);
  g_assert_cmpint (seen.last_k, ==, 109);

  /* Stopping with the link up returns promptly. */
  t0 = nb_device_now ();
  nb_device_stop (d);
  g_assert_cmpfloat (nb_device_now () - t0, <, 1.0);
  writer_kill (&w);
  g_remove (link);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/serial/live/nmea-pty-loss-reconnect", test_live);
  return g_test_run ();
}
