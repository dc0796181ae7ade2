/* Benchmark (issue 20): `navbench-cli replay --driver nmea --json` against
 * gpsd's decoder on the same GGA + RMC log, in the same run, and replay's
 * peak memory on 50 MB and 2 GB of capture.  Not a test: it prints figures
 * for docs/performance.md.
 *
 * The log is synthetic (tests/nb-test-nmea-gen.h: a 10 Hz RTK rover, full
 * precision, the date in every RMC), written to a temporary file (removed
 * at the end).  navbench and gpsdecode run in turn, A B A B …, each a
 * process of its own reading the file and writing JSON to /dev/null; the
 * figures are the kernel's accounting of each child (wait4): wall, user +
 * system CPU, peak resident set.  Medians are quoted and the ratio is taken
 * pair by pair, so a drift of the shared machine's speed cancels.  The 2 GB
 * capture is generated into a pipe as replay reads it (no disk).
 * Usage: bench-replay NAVBENCH_CLI [MEGABYTES [PIPE_MEGABYTES [RUNS]]]
 */
#define _DEFAULT_SOURCE   /* wait4 */

#include "../nb-test-nmea-gen.h"
#include "nb-bench.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static guint64
count_lines (char **argv, int in_fd)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  int fd = g_file_open_tmp ("bench-replay-out-XXXXXX", &path, NULL);
  guint64 n = 0;
  gsize len;

  nb_bench_run ((const char *const *) argv, NULL, in_fd, fd);
  close (fd);
  if (g_file_get_contents (path, &text, &len, NULL))
    for (gsize i = 0; i < len; i++)
      n += text[i] == '\n';
  g_remove (path);
  return n;
}

typedef struct {
  int fd;
  guint64 bytes_wanted, bytes, epochs;
} Writer;

static gpointer
write_pipe (gpointer data)
{
  Writer *w = data;
  char buf[1 << 16];
  gsize len = 0;

  while (w->bytes < w->bytes_wanted)
    {
      len += nb_test_nmea_epoch (buf + len, w->epochs++);
      if (len > sizeof buf - 256)
        {
          for (gsize done = 0; done < len;)
            {
              gssize n = write (w->fd, buf + done, len - done);

              if (n < 0 && errno == EINTR)
                continue;
              if (n <= 0)
                goto out;
              done += (gsize) n;
            }
          w->bytes += len;
          len = 0;
        }
    }
out:
  close (w->fd);
  return NULL;
}

static double
lowest (const double *v, int n)
{
  double m = v[0];

  for (int i = 1; i < n; i++)
    m = MIN (m, v[i]);
  return m;
}

int
main (int argc, char **argv)
{
  const char *cli = argc > 1 ? argv[1] : NULL;
  guint64 megabytes = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10) : 50;
  guint64 pipe_megabytes = argc > 3 ? g_ascii_strtoull (argv[3], NULL, 10) : 2000;
  int runs = argc > 4 ? atoi (argv[4]) : 5;
  g_autofree char *path = NULL;
  guint64 bytes = 0, epochs = 0, nb_lines, gpsd_lines;
  char buf[256];
  FILE *f;
  int fd, null_fd = open ("/dev/null", O_WRONLY);
  double a_wall[32], a_cpu[32], b_wall[32], b_cpu[32], r_wall[32], r_cpu[32];
  long a_rss = 0, b_rss = 0;
  gboolean have_gpsd = g_find_program_in_path ("gpsdecode") != NULL;

  if (cli == NULL || runs < 1 || runs > 32)
    {
      g_printerr ("usage: bench-replay NAVBENCH_CLI [MEGABYTES [PIPE_MEGABYTES [RUNS]]]\n");
      return 2;
    }
  signal (SIGPIPE, SIG_IGN);
  setvbuf (stdout, NULL, _IOLBF, 0);
  nb_bench_print_load ("", "before");
  fd = g_file_open_tmp ("bench-replay-XXXXXX.log", &path, NULL);
  f = fdopen (fd, "w");
  while (bytes < megabytes * 1000000)
    {
      gsize n = nb_test_nmea_epoch (buf, epochs++);

      fwrite (buf, 1, n, f);
      bytes += n;
    }
  fclose (f);

  {
    char *nb_argv[] = { (char *) cli, "replay", "--driver", "nmea", "--capture", path, "--json",
                        NULL };
    char *gpsd_argv[] = { "gpsdecode", NULL };
    int in = open (path, O_RDONLY);

    nb_lines = count_lines (nb_argv, in);
    close (in);
    in = open (path, O_RDONLY);
    gpsd_lines = have_gpsd ? count_lines (gpsd_argv, in) : 0;
    close (in);
    for (int r = 0; r < runs; r++)
      {
        NbBenchRun a, b = { 0 };

        in = open (path, O_RDONLY);
        a = nb_bench_run ((const char *const *) nb_argv, NULL, in, null_fd);
        close (in);
        if (!a.ok)
          g_error ("%s replay failed", cli);
        if (have_gpsd)
          {
            in = open (path, O_RDONLY);
            b = nb_bench_run ((const char *const *) gpsd_argv, NULL, in, null_fd);
            close (in);
          }
        a_wall[r] = a.wall_s;
        a_cpu[r] = a.cpu_s;
        a_rss = MAX (a_rss, a.max_rss_kib);
        b_wall[r] = b.wall_s;
        b_cpu[r] = b.cpu_s;
        b_rss = MAX (b_rss, b.max_rss_kib);
        r_wall[r] = b.wall_s / a.wall_s;
        r_cpu[r] = b.cpu_s / a.cpu_s;
      }
    printf ("GGA+RMC log %.1f MB, %" G_GUINT64_FORMAT " epochs; medians of %d runs, in turn\n",
            bytes / 1e6, epochs, runs);
    printf ("  navbench replay --json  wall %6.3f s  cpu %6.3f s  %7.1f MB/s  peak %5.1f MiB  %"
            G_GUINT64_FORMAT " samples\n", nb_bench_median (a_wall, runs), nb_bench_median (a_cpu, runs),
            bytes / 1e6 / nb_bench_median (a_wall, runs), a_rss / 1024.0, nb_lines);
    if (have_gpsd)
      {
        printf ("  gpsdecode               wall %6.3f s  cpu %6.3f s  %7.1f MB/s  peak %5.1f MiB  %"
                G_GUINT64_FORMAT " reports\n", nb_bench_median (b_wall, runs), nb_bench_median (b_cpu, runs),
                bytes / 1e6 / nb_bench_median (b_wall, runs), b_rss / 1024.0, gpsd_lines);
        printf ("  gpsdecode / navbench, pair by pair (cpu):");
        for (int r = 0; r < runs; r++)
          printf (" %.2fx", r_cpu[r]);
        printf ("\n  gpsdecode / navbench: wall %.1fx, cpu %.1fx (medians of the pairs), "
                "cpu %.2fx the lowest pair\n", nb_bench_median (r_wall, runs),
                nb_bench_median (r_cpu, runs), lowest (r_cpu, runs));
      }
    else
      printf ("  gpsdecode: not installed (gpsd-clients; tools/install-deps.sh)\n");
  }
  g_remove (path);

  if (pipe_megabytes > 0)
    {
      char *nb_argv[] = { (char *) cli, "replay", "--driver", "nmea", "--capture",
                          "file:/dev/stdin", "--json", NULL };
      int p[2];
      Writer w = { 0 };
      GThread *writer;
      NbBenchRun a;

      /* close-on-exec, else the child holds the write end and never sees EOF */
      g_assert (g_unix_open_pipe (p, FD_CLOEXEC, NULL));
      w.fd = p[1];
      w.bytes_wanted = pipe_megabytes * 1000000;
      writer = g_thread_new ("capture", write_pipe, &w);
      a = nb_bench_run ((const char *const *) nb_argv, NULL, p[0], null_fd);
      close (p[0]);
      g_thread_join (writer);
      printf ("  %.2f GB through a pipe: wall %.2f s, cpu %.2f s, %.1f MB/s, peak %.1f MiB\n",
              w.bytes / 1e9, a.wall_s, a.cpu_s, w.bytes / 1e6 / a.wall_s, a.max_rss_kib / 1024.0);
    }
  nb_bench_print_load ("", "after");
  return 0;
}
