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

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  double wall_s, cpu_s;
  long max_rss_kib;
} Figures;

static void
print_load (const char *when)
{
  g_autofree char *text = NULL;

  if (g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    printf ("load average %s: %s", when, text);
}

/* Runs argv with stdin from in_fd, stdout to out_fd; the child's figures. */
static Figures
run (char **argv, int in_fd, int out_fd)
{
  gint64 t0 = g_get_monotonic_time ();
  struct rusage ru;
  int status;
  pid_t pid = fork ();
  Figures f;

  g_assert (pid >= 0);
  if (pid == 0)
    {
      dup2 (in_fd, STDIN_FILENO);
      dup2 (out_fd, STDOUT_FILENO);
      execvp (argv[0], argv);
      _exit (127);
    }
  g_assert (wait4 (pid, &status, 0, &ru) == pid);
  f.wall_s = (double) (g_get_monotonic_time () - t0) * 1e-6;
  f.cpu_s = (double) ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
            ru.ru_stime.tv_usec * 1e-6;
  f.max_rss_kib = ru.ru_maxrss;
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    f.wall_s = -1.0;
  return f;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static guint64
count_lines (char **argv, int in_fd)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  int fd = g_file_open_tmp ("bench-replay-out-XXXXXX", &path, NULL);
  guint64 n = 0;
  gsize len;

  run (argv, in_fd, fd);
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
  print_load ("before");
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
        Figures a, b = { 0 };

        in = open (path, O_RDONLY);
        a = run (nb_argv, in, null_fd);
        close (in);
        if (have_gpsd)
          {
            in = open (path, O_RDONLY);
            b = run (gpsd_argv, in, null_fd);
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
            G_GUINT64_FORMAT " samples\n", median (a_wall, runs), median (a_cpu, runs),
            bytes / 1e6 / median (a_wall, runs), a_rss / 1024.0, nb_lines);
    if (have_gpsd)
      {
        printf ("  gpsdecode               wall %6.3f s  cpu %6.3f s  %7.1f MB/s  peak %5.1f MiB  %"
                G_GUINT64_FORMAT " reports\n", median (b_wall, runs), median (b_cpu, runs),
                bytes / 1e6 / median (b_wall, runs), b_rss / 1024.0, gpsd_lines);
        printf ("  gpsdecode / navbench: wall %.1fx, cpu %.1fx (medians of the pairs)\n",
                median (r_wall, runs), median (r_cpu, runs));
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
      Figures a;

      /* close-on-exec, else the child holds the write end and never sees EOF */
      g_assert (g_unix_open_pipe (p, FD_CLOEXEC, NULL));
      w.fd = p[1];
      w.bytes_wanted = pipe_megabytes * 1000000;
      writer = g_thread_new ("capture", write_pipe, &w);
      a = run (nb_argv, p[0], null_fd);
      close (p[0]);
      g_thread_join (writer);
      printf ("  %.2f GB through a pipe: wall %.2f s, cpu %.2f s, %.1f MB/s, peak %.1f MiB\n",
              w.bytes / 1e9, a.wall_s, a.cpu_s, w.bytes / 1e6 / a.wall_s, a.max_rss_kib / 1024.0);
    }
  print_load ("after");
  return 0;
}
