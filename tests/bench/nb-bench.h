/* nb-bench.h — what the benchmarks that time whole processes share
 *
 * A child run with its own figures from the kernel (wait4: wall, user +
 * system CPU, peak resident set of that child alone), the median of a few
 * runs, and the load average the figures were taken at (the machine is
 * shared: a figure without its load says little).  Header only: each
 * benchmark is one executable of one file.
 */
#pragma once

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1   /* wait4 */
#endif

#include <fcntl.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  double wall_s, cpu_s;   /* cpu: user + system */
  long max_rss_kib;
  gboolean ok;            /* exited with status 0 */
} NbBenchRun;

/* Runs argv (searched in PATH) in cwd (NULL: this one) with standard input
 * from in_fd and output to out_fd (−1: /dev/null for both). */
static inline NbBenchRun
nb_bench_run (const char *const *argv, const char *cwd, int in_fd, int out_fd)
{
  gint64 t0 = g_get_monotonic_time ();
  struct rusage ru;
  int status;
  pid_t pid = fork ();
  NbBenchRun f = { 0 };

  g_assert (pid >= 0);
  if (pid == 0)
    {
      int null = open ("/dev/null", O_RDWR);

      dup2 (in_fd >= 0 ? in_fd : null, STDIN_FILENO);
      dup2 (out_fd >= 0 ? out_fd : null, STDOUT_FILENO);
      if (cwd != NULL && chdir (cwd) != 0)
        _exit (126);
      execvp (argv[0], (char **) argv);
      _exit (127);
    }
  g_assert (wait4 (pid, &status, 0, &ru) == pid);
  f.wall_s = (double) (g_get_monotonic_time () - t0) * 1e-6;
  f.cpu_s = (double) ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
            ru.ru_stime.tv_usec * 1e-6;
  f.max_rss_kib = ru.ru_maxrss;
  f.ok = WIFEXITED (status) && WEXITSTATUS (status) == 0;
  return f;
}

/* nb_bench_run that must succeed (the benchmark stops otherwise). */
static inline NbBenchRun
nb_bench_run_ok (const char *const *argv, const char *cwd)
{
  NbBenchRun f = nb_bench_run (argv, cwd, -1, -1);

  if (!f.ok)
    g_error ("%s %s %s failed", argv[0], argv[1] ? argv[1] : "", argv[1] && argv[2] ? argv[2] : "");
  return f;
}

static inline int
nb_bench_compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorts v). */
static inline double
nb_bench_median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, nb_bench_compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* "PREFIXload average WHEN: 1.00 2.00 3.00 …" from /proc/loadavg. */
static inline void
nb_bench_print_load (const char *prefix, const char *when)
{
  g_autofree char *text = NULL;

  if (g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    printf ("%sload average %s: %s", prefix, when, text);
}
