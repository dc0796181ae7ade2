/* Benchmark of the nmea driver against gpsd's decoder (issue 5: "decode a
 * 50 MB NMEA file, compare with gpsdecode on the same file in the same
 * run").  Not a test: it prints figures for docs/performance.md.
 *
 * The file is the NMEA captures of tests/captures/nmea (real receivers:
 * Trimble RTK, u-blox ZED-F9P, SiRF, Garmin), '#' headers dropped,
 * repeated to 50 MB.  Measured, best of three (the machine is shared):
 *   navbench driver   — lexer, checksum, parse, cross-sentence state, WGS-84
 *                       → ENU, a sample per fix, in process (what acquisition
 *                       and replay do, minus the queue);
 *   navbench device   — the same through NbDevice: file transport, worker
 *                       thread, event queue (replay without printing);
 *   gpsdecode         — gpsd-clients' decoder, stdin → JSON on /dev/null,
 *                       a process of its own (what it always does).
 * Usage: bench-nmea CAPTURE_DIR [MEGABYTES]
 */
#include "nb-device.h"

#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUNS 3

static void
count_sample (const NbSample *s, gpointer user_data)
{
  (*(guint64 *) user_data)++;
}

static char *
make_file (const char *capture_dir, guint64 megabytes, guint64 *bytes)
{
  g_autoptr (GDir) dir = g_dir_open (capture_dir, 0, NULL);
  g_autoptr (GString) one = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  char *path = NULL;
  const char *name;
  int fd;
  FILE *f;

  g_assert (dir != NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".log"))
      {
        g_autofree char *p = g_build_filename (capture_dir, name, NULL);
        g_autofree char *text = NULL;
        g_auto (GStrv) lines = NULL;

        g_assert (g_file_get_contents (p, &text, NULL, NULL));
        /* (a gpsfake capture's cookies cut its sentences: not a plain log) */
        if (strstr (text, "# Delay-Cookie:") != NULL)
          continue;
        lines = g_strsplit (text, "\n", -1);
        for (guint i = 0; lines[i] != NULL; i++)
          if (lines[i][0] == '$')
            {
              g_string_append (one, g_strchomp (lines[i]));
              g_string_append (one, "\r\n");
            }
      }
  fd = g_file_open_tmp ("bench-nmea-XXXXXX.log", &path, &error);
  g_assert_no_error (error);
  f = fdopen (fd, "w");
  for (*bytes = 0; *bytes < megabytes * 1000000; *bytes += one->len)
    fwrite (one->str, 1, one->len, f);
  fclose (f);
  return path;
}

static double
run_driver (const char *path, guint64 *samples)
{
  const NbDriver *driver = nb_driver_find ("nmea");
  static guint8 buf[1 << 16];
  NbSink sink = { count_sample, NULL, samples };
  gpointer ctx = driver->open (NULL);
  gint64 t0 = g_get_monotonic_time ();
  FILE *f = fopen (path, "rb");
  size_t n;

  g_assert (driver->configure (ctx, "origin", "41.57,-93.75,250", NULL));
  driver->start (ctx, NULL);
  *samples = 0;
  while ((n = fread (buf, 1, sizeof buf, f)) > 0)
    driver->feed (ctx, buf, n, &sink);
  fclose (f);
  driver->close (ctx);
  return (g_get_monotonic_time () - t0) * 1e-6;
}

static double
run_device (const char *path, guint64 *samples)
{
  g_autoptr (NbDevice) d = nb_device_new ("nmea", NULL);
  gint64 t0 = g_get_monotonic_time ();

  g_assert (nb_device_configure (d, "url", path, NULL));
  g_assert (nb_device_start (d, NULL));
  *samples = 0;
  for (;;)
    {
      NbEvent e;

      if (!nb_device_next (d, G_USEC_PER_SEC, &e))
        continue;
      if (e.kind == NB_EVENT_SAMPLE)
        (*samples)++;
      nb_event_clear (&e);
      if (e.kind == NB_EVENT_END || e.kind == NB_EVENT_ERROR)
        break;
    }
  return (g_get_monotonic_time () - t0) * 1e-6;
}

static double
run_gpsdecode (const char *path, guint64 *lines)
{
  const char *argv[] = { "gpsdecode", NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *out_path = NULL;
  int in = open (path, O_RDONLY), out = g_file_open_tmp ("bench-gpsdecode-XXXXXX.json", &out_path,
                                                         NULL);
  gint64 t0 = g_get_monotonic_time ();
  GPid pid;
  int status;
  double s;
  g_autofree char *text = NULL;

  if (!g_spawn_async_with_fds (NULL, (char **) argv, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                               in, out, -1, &error))
    {
      close (in);
      close (out);
      g_remove (out_path);
      return -1.0;
    }
  waitpid (pid, &status, 0);
  s = (g_get_monotonic_time () - t0) * 1e-6;
  close (in);
  close (out);
  *lines = 0;
  if (g_file_get_contents (out_path, &text, NULL, NULL))
    for (const char *p = text; (p = strchr (p, '\n')) != NULL; p++)
      (*lines)++;
  g_remove (out_path);
  return s;
}

int
main (int argc, char **argv)
{
  guint64 megabytes = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10) : 50, bytes;
  g_autofree char *path = NULL;
  double best_driver = G_MAXDOUBLE, best_device = G_MAXDOUBLE, best_gpsd = G_MAXDOUBLE;
  guint64 samples = 0, device_samples = 0, gpsd_lines = 0;

  if (argc < 2)
    {
      g_printerr ("usage: bench-nmea CAPTURE_DIR [MEGABYTES]\n");
      return 2;
    }
  path = make_file (argv[1], megabytes, &bytes);
  for (int r = 0; r < RUNS; r++)
    {
      double g;

      best_driver = MIN (best_driver, run_driver (path, &samples));
      best_device = MIN (best_device, run_device (path, &device_samples));
      g = run_gpsdecode (path, &gpsd_lines);
      if (g >= 0)
        best_gpsd = MIN (best_gpsd, g);
    }
  g_remove (path);

  printf ("NMEA file: %.1f MB (%s), best of %d runs\n", bytes / 1e6, argv[1], RUNS);
  printf ("  navbench nmea driver  %7.3f s  %8.1f MB/s  %" G_GUINT64_FORMAT " samples\n",
          best_driver, bytes / 1e6 / best_driver, samples);
  printf ("  navbench NbDevice     %7.3f s  %8.1f MB/s  %" G_GUINT64_FORMAT " samples\n",
          best_device, bytes / 1e6 / best_device, device_samples);
  if (best_gpsd < G_MAXDOUBLE)
    {
      printf ("  gpsdecode             %7.3f s  %8.1f MB/s  %" G_GUINT64_FORMAT " JSON reports\n",
              best_gpsd, bytes / 1e6 / best_gpsd, gpsd_lines);
      printf ("  driver / gpsdecode: %.1fx   device / gpsdecode: %.1fx\n",
              best_gpsd / best_driver, best_gpsd / best_device);
    }
  else
    printf ("  gpsdecode: not installed (gpsd-clients; tools/install-deps.sh)\n");
  return 0;
}
