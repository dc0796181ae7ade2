/* Instruments end to end: the device worker over every transport (file
 * replay fast and at recorded speed, TCP with a lost and returning server,
 * UDP unicast and multicast), the sim driver's statistics and seed, the
 * csv and tum replay drivers, and the errors a user meets. */
#include "nb-test.h"

#include "nb-device.h"
#include "nb-error.h"

#include "sim-robot.h"
/* #14: the two simulated robots' headers compile together (both types
 * were called NbSimRobot). */
#include "nb-sim-skill.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <string.h>

typedef struct {
  GArray *samples;
  guint notes, lost, connected, ended, errors;
  char *last_error;
  double first_sample_at, last_sample_at;   /* monotonic arrival of samples */
  double lost_at, connected_at;
} Log;

static void
log_clear (Log *log)
{
  g_clear_pointer (&log->samples, g_array_unref);
  g_clear_pointer (&log->last_error, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Log, log_clear)

/* Pumps events for up to seconds, or until stop(log) says enough. */
static void
pump (NbDevice *device, Log *log, double seconds, gboolean (*stop) (const Log *log))
{
  double deadline = nb_device_now () + seconds;

  if (log->samples == NULL)
    log->samples = g_array_new (FALSE, FALSE, sizeof (NbSample));
  while (nb_device_now () < deadline && (stop == NULL || !stop (log)))
    {
      NbEvent e;

      if (!nb_device_next (device, 20000, &e))
        continue;
      switch (e.kind)
        {
        case NB_EVENT_SAMPLE:
          if (log->samples->len == 0)
            log->first_sample_at = e.t_s;
          log->last_sample_at = e.t_s;
          g_array_append_val (log->samples, e.sample);
          break;
        case NB_EVENT_NOTE: log->notes++; break;
        case NB_EVENT_LOST: log->lost++; log->lost_at = e.t_s; break;
        case NB_EVENT_CONNECTED: log->connected++; log->connected_at = e.t_s; break;
        case NB_EVENT_END: log->ended++; break;
        case NB_EVENT_ERROR:
        default:
          log->errors++;
          g_free (log->last_error);
          log->last_error = g_strdup (e.message);
          break;
        }
      nb_event_clear (&e);
    }
}

static gboolean
until_end (const Log *log)
{
  return log->ended > 0 || log->errors > 0;
}

static gboolean
until_connected (const Log *log)
{
  return log->connected > 0 || log->errors > 0;
}

static NbDevice *
device (const char *driver, ...)
{
  g_autoptr (GError) error = NULL;
  NbDevice *d = nb_device_new (driver, &error);
  va_list args;

  g_assert_no_error (error);
  va_start (args, driver);
  for (const char *k = va_arg (args, const char *); k != NULL; k = va_arg (args, const char *))
    {
      const char *v = va_arg (args, const char *);

      if (!nb_device_configure (d, k, v, &error))
        g_error ("%s=%s: %s", k, v, error->message);
    }
  va_end (args);
  return d;
}

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "instruments", name, NULL);
}

static char *
write_temp (const char *contents)
{
  g_autoptr (GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("nb-instr-XXXXXX.log", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

static char *
nmea_line (const char *body)
{
  guint8 sum = 0;

  for (const char *p = body; *p; p++)
    sum ^= (guint8) *p;
  return g_strdup_printf ("$%s*%02X\r\n", body, sum);
}

/* A GGA at second s of 12:00 UTC, 1 mm further north each time. */
static char *
gga (double s, int k)
{
  g_autofree char *body = g_strdup_printf ("GPGGA,1200%05.2f,4130.%08d,N,09342.00000000,W,4,12,"
                                           "0.6,250.0,M,-31.4,M,1.0,0001", s, 5 + k * 54);
  return nmea_line (body);
}

/* ----------------------------------------------------------- replay -- */

static void
test_file_pace (void)
{
  g_autofree char *l1 = gga (0.0, 0), *l2 = gga (0.3, 1), *l3 = gga (0.6, 2);
  /* The date first (a GGA has none; a fix before any date has no device
   * time, issue 20): 2025-06-01 is day 20240 of 1970. */
  g_autofree char *l0 = nmea_line ("GPZDA,120000.00,01,06,2025,00,00");
  g_autofree char *text = g_strconcat ("# Name: three RTK fixes 0.3 s apart\n", l0, l1, l2, l3,
                                       NULL);
  const double day_s = 20240.0 * 86400.0;
  g_autofree char *path = write_temp (text);

  for (int recorded = 0; recorded < 2; recorded++)
    {
      g_autoptr (NbDevice) d = device ("nmea", "url", path, "latency", "0.25", "pace",
                                       recorded ? "recorded" : "fast", NULL);
      g_auto (Log) log = { 0 };
      double span;

      g_assert_true (nb_device_start (d, NULL));
      pump (d, &log, 5.0, until_end);
      g_assert_cmpuint (log.errors, ==, 0);
      g_assert_cmpuint (log.samples->len, ==, 3);
      span = log.last_sample_at - log.first_sample_at;
      if (recorded)
        {
          g_assert_cmpfloat (span, >=, 0.55);
          g_assert_cmpfloat (span, <, 1.2);
        }
      else
        g_assert_cmpfloat (span, <, 0.3);
      for (guint i = 0; i < 3; i++)
        {
          const NbSample *s = &g_array_index (log.samples, NbSample, i);

          /* t = device time − latency on a replay's own clock */
          nb_assert_abs (s->t_s, day_s + 12 * 3600 + 0.3 * i - 0.25, 1e-6,
                         "latency-corrected t");
          g_assert_cmpint (s->fix, ==, NB_FIX_RTK_FIXED);
          /* 0.00000054′ of latitude × the meridian radius (6 363 475 m at
           * 41.5°) ≈ 1.0 mm north per step */
          nb_assert_abs (s->y_m - g_array_index (log.samples, NbSample, 0).y_m,
                         i * 0.00000054 / 60.0 * G_PI / 180.0 * 6363474.66, 1e-6, "north steps");
        }
      g_remove (path);
      (void) g_file_set_contents (path, text, -1, NULL);
    }
  g_remove (path);
}

/* A recording whose last sentence has no line end still yields it. */
static void
test_file_last_line (void)
{
  g_autofree char *l1 = gga (0.0, 0), *l2 = gga (0.3, 1);
  g_autofree char *text = g_strconcat (l1, l2, NULL);
  g_autofree char *path = NULL;
  g_autoptr (NbDevice) d = NULL;
  g_auto (Log) log = { 0 };

  text[strlen (text) - 2] = '\0';   /* drop the final CR LF */
  path = write_temp (text);
  d = device ("nmea", "url", path, NULL);
  g_assert_true (nb_device_start (d, NULL));
  pump (d, &log, 5.0, until_end);
  g_assert_cmpuint (log.samples->len, ==, 2);
  g_remove (path);
}

static void
test_csv_tum (void)
{
  g_autofree char *csv = data_path ("poses-mm.csv");
  g_autofree char *tum = data_path ("trajectory.tum");
  g_autoptr (NbDevice) c = device ("csv", "url", csv, "t", "time_ms", "x", "X_mm", "y", "Y_mm",
                                   "z", "Z_mm", "yaw", "yaw_deg", "unit", "mm", "time-unit", "ms",
                                   NULL);
  g_autoptr (NbDevice) t = device ("tum", "url", tum, NULL);
  g_auto (Log) lc = { 0 };
  g_auto (Log) lt = { 0 };
  const NbSample *s;

  g_assert_true (nb_device_start (c, NULL));
  pump (c, &lc, 5.0, until_end);
  g_assert_cmpstr (lc.last_error, ==, NULL);
  g_assert_cmpuint (lc.samples->len, ==, 3);   /* the not-a-number row is a note */
  g_assert_cmpuint (lc.notes, ==, 1);
  s = &g_array_index (lc.samples, NbSample, 1);
  nb_assert_abs (s->x_m, 1.0015, 1e-12, "csv x in m");
  nb_assert_abs (s->y_m, 2.0005, 1e-12, "csv y in m");
  nb_assert_abs (s->z_m, 0.05, 1e-12, "csv z in m");
  nb_assert_abs (s->device_time_s, 0.1, 1e-12, "csv t in s");
  nb_assert_abs (s->heading_deg, 90.5, 1e-12, "csv yaw");
  nb_assert_abs (s->qz, sin (90.5 * G_PI / 360.0), 1e-12, "csv qz");
  s = &g_array_index (lc.samples, NbSample, 2);
  nb_assert_abs (s->qw, 0.0, 1e-12, "csv 180° qw");

  g_assert_true (nb_device_start (t, NULL));
  pump (t, &lt, 5.0, until_end);
  g_assert_cmpuint (lt.samples->len, ==, 4);
  g_assert_cmpuint (lt.notes, ==, 0);
  s = &g_array_index (lt.samples, NbSample, 1);
  nb_assert_abs (s->device_time_s, 1700000000.05, 1e-6, "tum t");
  nb_assert_abs (s->x_m, 0.2, 0, "tum x");
  nb_assert_abs (s->qz, 0.7071067811865476, 0, "tum qz");
  nb_assert_abs (s->qw, 0.7071067811865476, 0, "tum qw");
  g_assert_true (s->has_orientation);
}

/* The marker offset: TUM poses with known quaternions, the robot's
 * reference point 0.1 m ahead of the marker along its x axis. */
static void
test_marker_offset (void)
{
  g_autofree char *tum = data_path ("trajectory.tum");
  g_autoptr (NbDevice) t = device ("tum", "url", tum, "marker-offset", "0.1,0,0", NULL);
  g_auto (Log) log = { 0 };
  GError *error = NULL;

  g_assert_true (nb_device_start (t, NULL));
  pump (t, &log, 5.0, until_end);
  g_assert_cmpuint (log.samples->len, ==, 4);
  /* identity: +x */
  nb_assert_abs (g_array_index (log.samples, NbSample, 0).x_m, 0.2, 1e-12, "identity x");
  /* 90° about z: +y */
  nb_assert_abs (g_array_index (log.samples, NbSample, 1).x_m, 0.2, 1e-12, "90° x");
  nb_assert_abs (g_array_index (log.samples, NbSample, 1).y_m, 0.3, 1e-12, "90° y");
  /* 180° about z: −x */
  nb_assert_abs (g_array_index (log.samples, NbSample, 2).x_m, 0.2, 1e-12, "180° x");
  /* (0.5, 0.5, 0.5, 0.5): 120° about (1,1,1), x → y */
  nb_assert_abs (g_array_index (log.samples, NbSample, 3).x_m, 0.4, 1e-12, "120° x");
  nb_assert_abs (g_array_index (log.samples, NbSample, 3).y_m, 0.3, 1e-12, "120° y");
  nb_assert_abs (g_array_index (log.samples, NbSample, 3).z_m, 0.3, 1e-12, "120° z");
  g_assert_false (nb_device_configure (t, "marker-offset", "1,2", &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
}

static void
test_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbDevice) d = device ("nmea", NULL);
  g_autoptr (NbDevice) missing = device ("nmea", "url", "/nonexistent/capture.log", NULL);
  g_autoptr (NbDevice) serial = device ("nmea", "port", "/dev/ttyNOSUCHPORT7", "baud", "115200",
                                        NULL);
  g_auto (Log) log = { 0 };
  g_auto (Log) slog = { 0 };

  g_assert_null (nb_device_new ("no-such-driver", &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_device_configure (d, "baud", "fast", &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_device_configure (d, "framing", "9X1", &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_device_configure (d, "origin", "91,0", &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_device_configure (d, "colour", "blue", &error));
  g_assert_nonnull (strstr (error->message, "colour"));
  g_clear_error (&error);
  g_assert_false (nb_device_start (d, &error));   /* no URL */
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  {
    g_autoptr (NbDevice) sim = device ("sim", "url", "tcp://127.0.0.1:9", NULL);

    g_assert_false (nb_device_start (sim, &error));   /* a generator reads nothing */
    g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  }

  g_assert_true (nb_device_start (missing, NULL));
  pump (missing, &log, 5.0, until_end);
  g_assert_cmpuint (log.errors, ==, 1);
  g_assert_nonnull (strstr (log.last_error, "/nonexistent/capture.log"));

  g_assert_true (nb_device_start (serial, NULL));
  pump (serial, &slog, 5.0, until_end);
  g_assert_cmpuint (slog.errors, ==, 1);
  g_assert_nonnull (strstr (slog.last_error, "/dev/ttyNOSUCHPORT7"));
}

/* -------------------------------------------------------------- sim -- */

typedef struct {
  GArray *samples;
} Collect;

static void
collect (const NbSample *s, gpointer user_data)
{
  g_array_append_val (((Collect *) user_data)->samples, *s);
}

static GArray *
simulate (const char *seed, const char *dropout, double seconds)
{
  const NbDriver *sim = nb_driver_find ("sim");
  gpointer ctx = sim->open (NULL);
  Collect c = { g_array_new (FALSE, FALSE, sizeof (NbSample)) };
  NbSink sink = { collect, NULL, &c };

  g_assert_true (sim->configure (ctx, "seed", seed, NULL));
  g_assert_true (sim->configure (ctx, "dropout", dropout, NULL));
  g_assert_true (sim->configure (ctx, "rate", "100", NULL));
  g_assert_true (sim->configure (ctx, "noise", "0.002", NULL));
  g_assert_true (sim->configure (ctx, "delay", "0.03", NULL));
  g_assert_true (sim->start (ctx, NULL));
  g_assert_true (sim->generate (ctx, seconds, &sink, NULL));
  sim->close (ctx);
  return c.samples;
}

static void
test_sim (void)
{
  g_autoptr (GArray) a = simulate ("7", "0", 100.0);
  g_autoptr (GArray) b = simulate ("7", "0", 100.0);
  g_autoptr (GArray) other = simulate ("8", "0", 100.0);
  g_autoptr (GArray) dropped = simulate ("7", "0.2", 100.0);
  NbSimSquare robot;
  double sum = 0.0, sum2 = 0.0;

  nb_sim_square_init (&robot);
  /* 100 Hz for 100 s; the last sample must have arrived (t + 0.03 ≤ 100). */
  g_assert_cmpuint (a->len, ==, 9998);
  g_assert_cmpuint (b->len, ==, a->len);
  g_assert_true (memcmp (a->data, b->data, a->len * sizeof (NbSample)) == 0);
  g_assert_cmpfloat (g_array_index (a, NbSample, 10).x_m, !=,
                     g_array_index (other, NbSample, 10).x_m);
  for (guint i = 0; i < a->len; i++)
    {
      const NbSample *s = &g_array_index (a, NbSample, i);
      double x, y, th;

      nb_assert_abs (s->t_s - s->device_time_s, 0.03, 1e-12, "sim latency");
      nb_sim_square_pose (&robot, s->device_time_s, &x, &y, &th);
      sum += s->x_m - x;
      sum2 += (s->x_m - x) * (s->x_m - x);
    }
  /* Noise: zero mean (3σ/√n), σ = 2 mm within 5 % (n ≈ 10⁴). */
  nb_assert_abs (sum / a->len, 0.0, 3 * 0.002 / sqrt (a->len), "noise mean");
  nb_assert_rel (sqrt (sum2 / a->len), 0.002, 0.05, "noise sigma");
  /* Dropouts: 20 % ± 4σ of a binomial. */
  nb_assert_abs ((double) dropped->len / a->len, 0.8, 4 * sqrt (0.2 * 0.8 / a->len),
                 "dropout rate");
}

static void
test_sim_robot (void)
{
  NbSimSquare r;
  double x, y, th;

  nb_sim_square_init (&r);   /* side 2 m, 0.5 m/s, dwell 2 s: legs of 6 s */
  nb_sim_square_pose (&r, 1.0, &x, &y, &th);
  nb_assert_abs (x, 0.0, 0, "dwell x");
  nb_sim_square_pose (&r, 4.0, &x, &y, &th);
  nb_assert_abs (x, 1.0, 1e-12, "half way");
  nb_assert_abs (y, 0.0, 1e-12, "half way y");
  nb_sim_square_pose (&r, 10.0, &x, &y, &th);   /* leg 2: dwell 6–8 s, half way at 10 s */
  nb_assert_abs (x, 2.0, 1e-12, "second leg x");
  nb_assert_abs (y, 1.0, 1e-12, "second leg y");
  nb_assert_abs (th, 90.0, 0, "second leg heading");
  nb_sim_square_pose (&r, 24.0 + 4.0, &x, &y, &th);
  nb_assert_abs (x, 1.0, 1e-12, "periodic");
}

static void
test_sim_device (void)
{
  g_autoptr (NbDevice) d = device ("sim", "rate", "200", "latency", "0.01", NULL);
  g_auto (Log) log = { 0 };
  double start = nb_device_now ();

  g_assert_true (nb_device_start (d, NULL));
  pump (d, &log, 0.5, NULL);
  nb_device_stop (d);
  g_assert_cmpuint (log.connected, ==, 1);
  /* Real time at 200 Hz: about 100 samples in 0.5 s. */
  g_assert_cmpuint (log.samples->len, >=, 70);
  g_assert_cmpuint (log.samples->len, <=, 102);
  for (guint i = 0; i < log.samples->len; i++)
    {
      const NbSample *s = &g_array_index (log.samples, NbSample, i);

      /* On the monotonic clock, corrected for the configured latency. */
      g_assert_cmpfloat (s->t_s, >=, start - 0.02);
      g_assert_cmpfloat (s->t_s, <=, nb_device_now ());
    }
}

/* -------------------------------------------------------------- TCP -- */

typedef struct {
  GSocketListener *listener;
  int connections;          /* how many clients to serve */
  int sentences;            /* per connection */
} Server;

static gpointer
serve (gpointer data)
{
  Server *srv = data;

  for (int c = 0; c < srv->connections; c++)
    {
      g_autoptr (GSocketConnection) conn = g_socket_listener_accept (srv->listener, NULL, NULL,
                                                                     NULL);
      GOutputStream *out;

      if (conn == NULL)
        return NULL;
      out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
      for (int k = 0; k < srv->sentences; k++)
        {
          g_autofree char *line = gga (10.0 + c * 5 + k * 0.1, k);

          if (!g_output_stream_write_all (out, line, strlen (line), NULL, NULL, NULL))
            break;
          g_usleep (20000);
        }
      /* Close mid-stream: the peer goes away. */
      g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
    }
  /* No more server: reconnection attempts are refused from now on. */
  g_socket_listener_close (srv->listener);
  return NULL;
}

static void
test_tcp (void)
{
  Server srv = { g_socket_listener_new (), 2, 20 };
  g_autoptr (GError) error = NULL;
  guint16 port = g_socket_listener_add_any_inet_port (srv.listener, NULL, &error);
  g_autofree char *url = g_strdup_printf ("tcp://127.0.0.1:%u", port);
  g_autoptr (NbDevice) d = NULL;
  g_auto (Log) log = { 0 };
  GThread *thread;
  double closed_at;

  g_assert_no_error (error);
  thread = g_thread_new ("server", serve, &srv);
  d = device ("nmea", "url", url, NULL);
  g_assert_true (nb_device_start (d, NULL));
  pump (d, &log, 10.0, until_connected);
  pump (d, &log, 3.0, NULL);
  nb_device_stop (d);
  g_thread_join (thread);
  g_object_unref (srv.listener);

  g_assert_cmpuint (log.errors, ==, 0);
  /* First connection, its loss, the second connection, its loss. */
  g_assert_cmpuint (log.connected, ==, 2);
  g_assert_cmpuint (log.lost, ==, 2);
  g_assert_cmpuint (log.samples->len, ==, 40);
  /* The loss is reported as soon as the peer closes (well within 1 s). */
  closed_at = log.last_sample_at;
  g_assert_cmpfloat (log.lost_at - closed_at, <, 1.0);
}

/* -------------------------------------------------------------- UDP -- */

static guint16
free_udp_port (void)
{
  g_autoptr (GSocket) s = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
                                        G_SOCKET_PROTOCOL_UDP, NULL);
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) a = g_inet_socket_address_new (lo, 0);
  g_autoptr (GSocketAddress) bound = NULL;

  g_assert_true (g_socket_bind (s, a, FALSE, NULL));
  bound = g_socket_get_local_address (s, NULL);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static gboolean
udp_roundtrip (const char *group, gboolean allow_skip)
{
  guint16 port = free_udp_port ();
  g_autofree char *url = g_strdup_printf ("udp://%s:%u", group, port);
  g_autoptr (NbDevice) d = device ("nmea", "url", url, NULL);
  g_autoptr (GSocket) tx = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
                                         G_SOCKET_PROTOCOL_UDP, NULL);
  g_autoptr (GInetAddress) to = g_inet_address_new_from_string (group);
  g_autoptr (GSocketAddress) dest = g_inet_socket_address_new (to, port);
  g_auto (Log) log = { 0 };

  g_assert_true (nb_device_start (d, NULL));
  pump (d, &log, 5.0, until_connected);
  g_assert_cmpuint (log.errors, ==, 0);
  g_socket_set_multicast_loopback (tx, TRUE);
  for (int k = 0; k < 10; k++)
    {
      g_autofree char *line = gga (20.0 + k * 0.1, k);
      g_autoptr (GError) error = NULL;

      if (g_socket_send_to (tx, dest, line, strlen (line), NULL, &error) < 0)
        {
          if (allow_skip)
            {
              g_test_skip_printf ("cannot send to %s here: %s", group, error->message);
              return FALSE;
            }
          g_error ("send: %s", error->message);
        }
      g_usleep (5000);
    }
  pump (d, &log, 2.0, NULL);
  g_assert_cmpuint (log.samples->len, ==, 10);
  nb_assert_abs (g_array_index (log.samples, NbSample, 9).device_time_s, 12 * 3600 + 20.9, 1e-9,
                 "udp last");
  return TRUE;
}

static void
test_udp_unicast (void)
{
  udp_roundtrip ("127.0.0.1", FALSE);
}

static void
test_udp_multicast (void)
{
  udp_roundtrip ("239.255.42.99", TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/instruments/replay/pace-latency", test_file_pace);
  g_test_add_func ("/instruments/replay/last-line", test_file_last_line);
  g_test_add_func ("/instruments/replay/csv-tum", test_csv_tum);
  g_test_add_func ("/instruments/errors", test_errors);
  g_test_add_func ("/instruments/marker-offset", test_marker_offset);
  g_test_add_func ("/instruments/sim/statistics", test_sim);
  g_test_add_func ("/instruments/sim/robot", test_sim_robot);
  g_test_add_func ("/instruments/sim/device", test_sim_device);
  g_test_add_func ("/instruments/tcp/lost-and-back", test_tcp);
  g_test_add_func ("/instruments/udp/unicast", test_udp_unicast);
  g_test_add_func ("/instruments/udp/multicast", test_udp_multicast);
  return g_test_run ();
}
