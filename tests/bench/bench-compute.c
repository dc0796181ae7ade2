/* Benchmark of `navbench-cli compute path` and `compute pose` (issue: the
 * foundation).  Not a test: it prints figures for docs/performance.md.
 *
 *   path: 30 trials × 60 000 samples (1.8 M samples, ~60 MB of CSV), and the
 *         same at 1/10 and 3× the length, to show that memory stays flat;
 *   pose: 1 M poses;
 *   where the time goes: the same path file through libcsv alone, through
 *         navbench's CSV reader alone (fields only), and with the numbers
 *         parsed — the rest of `compute path` is the arithmetic.
 *
 * Each figure is the best of three runs (the machine is shared).
 */
/* wait4() for the child's own peak RSS is BSD/GNU, not POSIX. */
#define _DEFAULT_SOURCE 1

#include "nb-bench.h"
#include "nb-csv-reader.h"

#include <csv.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#define RUNS 3

static char *
write_path_csv (const char *dir, guint trials, guint per_trial, guint64 *bytes)
{
  char *path = g_strdup_printf ("%s/path-%ux%u.csv", dir, trials, per_trial);
  FILE *f = fopen (path, "w");
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);

  g_assert (f != NULL);
  fputs ("trial,t_s,x_mm,y_mm\n", f);
  for (guint t = 1; t <= trials; t++)
    for (guint k = 0; k < per_trial; k++)
      {
        double s = -100.0 + 5200.0 * k / per_trial;
        double y = 10.0 * sin (G_PI * s / 5000.0 + t) + g_rand_double_range (rand, -0.5, 0.5);

        fprintf (f, "%u,%.4f,%.4f,%.4f\n", t, k * 0.01, s, y);
      }
  g_assert (fclose (f) == 0);
  {
    GStatBuf st;

    g_assert (g_stat (path, &st) == 0);
    *bytes = (guint64) st.st_size;
  }
  return path;
}

static char *
write_pose_csv (const char *dir, guint n, guint64 *bytes)
{
  char *path = g_strdup_printf ("%s/pose-%u.csv", dir, n);
  FILE *f = fopen (path, "w");
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  GStatBuf st;

  g_assert (f != NULL);
  fputs ("x_mm,y_mm,theta_deg\n", f);
  for (guint j = 0; j < n; j++)
    fprintf (f, "%.3f,%.3f,%.4f\n", 5000.0 + g_rand_double_range (rand, -5, 5),
             g_rand_double_range (rand, -5, 5), g_rand_double_range (rand, -1, 1));
  g_assert (fclose (f) == 0);
  g_assert (g_stat (path, &st) == 0);
  *bytes = (guint64) st.st_size;
  return path;
}

/* Runs the CLI; returns wall seconds, sets the child's peak RSS in MiB. */
static double
run_cli (const char *const *args, double *rss_mib)
{
  NbBenchRun f = nb_bench_run_ok (args, NULL);

  *rss_mib = f.max_rss_kib / 1024.0;
  return f.wall_s;
}

static double
best_cli (const char *const *args, double *rss_mib)
{
  double best = INFINITY;

  for (int i = 0; i < RUNS; i++)
    best = MIN (best, run_cli (args, rss_mib));
  return best;
}

static void field_cb (void *s, size_t len, void *data) { (void) s; (*(guint64 *) data) += len; }
static void row_cb (int c, void *data) { (void) c; (void) data; }

/* libcsv over the file read in 1 MiB blocks, callbacks doing nothing. */
static double
time_libcsv (const char *path)
{
  double best = INFINITY;
  g_autofree char *buf = g_malloc (1 << 20);

  for (int i = 0; i < RUNS; i++)
    {
      struct csv_parser p;
      guint64 sink = 0;
      FILE *f = fopen (path, "rb");
      gint64 t0 = g_get_monotonic_time ();
      size_t n;

      g_assert (f != NULL && csv_init (&p, 0) == 0);
      while ((n = fread (buf, 1, 1 << 20, f)) > 0)
        g_assert (csv_parse (&p, buf, n, field_cb, row_cb, &sink) == n);
      csv_fini (&p, field_cb, row_cb, &sink);
      best = MIN (best, (g_get_monotonic_time () - t0) / 1e6);
      csv_free (&p);
      fclose (f);
    }
  return best;
}

/* navbench's reader: fields only, or with x_mm and y_mm parsed. */
static double
time_reader (const char *path, gboolean numbers)
{
  double best = INFINITY;

  for (int i = 0; i < RUNS; i++)
    {
      g_autoptr (NbCsvReader) r = nb_csv_reader_new_for_path (path, NULL);
      NbCsvColumn cols[] = { { "trial", TRUE }, { "x_mm", TRUE }, { "y_mm", TRUE } };
      gint64 t0 = g_get_monotonic_time ();
      double sum = 0.0, x, y;
      gsize len, total = 0;

      g_assert (nb_csv_reader_read_header (r, cols, 3, NULL));
      while (nb_csv_reader_next (r, NULL) > 0)
        if (numbers)
          {
            g_assert (nb_csv_reader_get_double (r, &cols[1], &x, NULL));
            g_assert (nb_csv_reader_get_double (r, &cols[2], &y, NULL));
            sum += x + y;
          }
        else
          {
            nb_csv_reader_field (r, &cols[1], &len);
            total += len;
          }
      best = MIN (best, (g_get_monotonic_time () - t0) / 1e6);
      g_assert (isfinite (sum) && total < G_MAXSIZE);
    }
  return best;
}

int
main (int argc, char **argv)
{
  const char *cli = argc > 1 ? argv[1] : g_getenv ("NAVBENCH_CLI");
  g_autofree char *dir = g_dir_make_tmp ("nb-bench-XXXXXX", NULL);
  const guint sizes[] = { 6000, 60000, 180000 };
  g_autofree char *main_path = NULL;
  guint64 main_bytes = 0;

  g_assert (cli != NULL && dir != NULL);
  printf ("# navbench-cli benchmark (best of %d runs; %s)\n", RUNS, cli);
  printf ("%-34s %10s %10s %12s %10s %10s\n", "case", "samples", "MB", "samples/s", "MB/s",
          "peak MiB");

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      guint64 bytes;
      g_autofree char *path = write_path_csv (dir, 30, sizes[i], &bytes);
      const char *args[] = { cli, "compute", "path", "--input", path, "--from", "0,0", "--to",
                             "5000,0", "--json", NULL };
      double rss, s = best_cli (args, &rss);
      guint64 n = 30ull * sizes[i];
      g_autofree char *name = g_strdup_printf ("compute path 30 × %u", sizes[i]);

      printf ("%-34s %10" G_GUINT64_FORMAT " %10.1f %12.3g %10.1f %10.1f\n", name, n, bytes / 1e6,
              n / s, bytes / 1e6 / s, rss);
      if (sizes[i] == 60000)
        {
          main_path = g_strdup (path);
          main_bytes = bytes;
        }
      else
        g_unlink (path);
    }

  {
    guint64 bytes, n = 1000000;
    g_autofree char *path = write_pose_csv (dir, (guint) n, &bytes);
    const char *args[] = { cli, "compute", "pose", "--input", path, "--command", "5000,0,0",
                           "--json", NULL };
    double rss, s = best_cli (args, &rss);

    printf ("%-34s %10" G_GUINT64_FORMAT " %10.1f %12.3g %10.1f %10.1f\n", "compute pose 1 M", n,
            bytes / 1e6, n / s, bytes / 1e6 / s, rss);
    g_unlink (path);
  }

  {
    guint64 n = 30ull * 60000;
    double t_libcsv = time_libcsv (main_path);
    double t_fields = time_reader (main_path, FALSE);
    double t_numbers = time_reader (main_path, TRUE);

    printf ("# where the time goes on the 1.8 M-sample file (%.1f MB):\n", main_bytes / 1e6);
    printf ("%-34s %10" G_GUINT64_FORMAT " %10.1f %12.3g %10.1f\n", "libcsv, callbacks only", n,
            main_bytes / 1e6, n / t_libcsv, main_bytes / 1e6 / t_libcsv);
    printf ("%-34s %10" G_GUINT64_FORMAT " %10.1f %12.3g %10.1f\n", "nb_csv_reader, fields only",
            n, main_bytes / 1e6, n / t_fields, main_bytes / 1e6 / t_fields);
    printf ("%-34s %10" G_GUINT64_FORMAT " %10.1f %12.3g %10.1f\n", "nb_csv_reader + numbers", n,
            main_bytes / 1e6, n / t_numbers, main_bytes / 1e6 / t_numbers);
  }
  g_unlink (main_path);
  g_rmdir (dir);
  return 0;
}
