/* bench-readers — MB/s of each file reader in drivers/formats, one thread
 *
 * Issue 20 asks every reader for ≥ 500 MB/s per core.  Writes one file per
 * reader in a temporary directory (the formats as navbench and the tools
 * around it write them, full-precision numbers) and times the reader alone
 * in this process, on one thread, the file in the page cache (a first run
 * not counted): MB/s is the file's size over the median of the runs' wall
 * time, CPU MB/s the same over this thread's CPU time (what the neighbours
 * on a shared machine do not take away).
 *
 *   bench-readers [MB [RUNS [K]]]   default: 100 MB per file, 5 runs, every
 *                                   reader; K (0…5) only the K-th (for
 *                                   callgrind --toggle-collect=read_once)
 *
 * Readers: the TUM trajectory (what compute ape reads), navbench's CSV track
 * (t_s, x_mm, y_mm, z_mm, qx…qw), the clause 8 path table (what compute path
 * reads: trial, t_s, x_mm, y_mm), the clause 5 pose table (x_mm, y_mm,
 * theta_deg), and the CSV reader underneath with and without the numbers.
 */
#define _GNU_SOURCE 1

#include "nb-csv-reader.h"
#include "nb-measurements.h"
#include "nb-tum-reader.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef enum { TUM, TRACK, PATH, POSES, CSV_FIELDS, CSV_NUMBERS } Reader;

static const char *const reader_names[] = {
  "TUM trajectory (compute ape)", "CSV track (t_s … qw)", "path table (compute path)",
  "pose table (clause 5)", "CSV reader, fields only", "CSV reader + 3 numbers",
};

static guint64
write_file (const char *path, Reader kind, guint64 bytes)
{
  FILE *f = fopen (path, "w");
  g_autoptr (GRand) rand = g_rand_new_with_seed (20);
  guint64 k = 0;
  long size;

  g_assert (f != NULL);
  if (kind == TRACK)
    fputs ("t_s,x_mm,y_mm,z_mm,qx,qy,qz,qw\n", f);
  else if (kind == PATH || kind == CSV_FIELDS || kind == CSV_NUMBERS)
    fputs ("trial,t_s,x_mm,y_mm\n", f);
  else if (kind == POSES)
    fputs ("x_mm,y_mm,theta_deg\n", f);
  else
    fputs ("# t x y z qx qy qz qw\n", f);
  while ((guint64) ftell (f) < bytes)
    for (int i = 0; i < 1000; i++, k++)
      {
        double t = k * 0.01, yaw = 0.05 * t, x = 20 * cos (1e-3 * t), y = 10 * sin (2e-3 * t);

        switch (kind)
          {
          case TUM:
            fprintf (f, "%.6f %.9f %.9f %.9f %.12f %.12f %.12f %.12f\n", t, x, y,
                     0.2 * sin (t), 0.0, 0.0, sin (yaw / 2), cos (yaw / 2));
            break;
          case TRACK:
            fprintf (f, "%.6f,%.6f,%.6f,%.6f,%.9f,%.9f,%.9f,%.9f\n", t, 1000 * x, 1000 * y,
                     200 * sin (t), 0.0, 0.0, sin (yaw / 2), cos (yaw / 2));
            break;
          case PATH:
          case CSV_FIELDS:
          case CSV_NUMBERS:
            fprintf (f, "%u,%.4f,%.4f,%.4f\n", (guint) (k / 60000) + 1, (k % 60000) * 0.01,
                     -100.0 + 5200.0 * (k % 60000) / 60000,
                     10.0 * sin (k * 1e-4) + g_rand_double_range (rand, -0.5, 0.5));
            break;
          case POSES:
            fprintf (f, "%.3f,%.3f,%.4f\n", 5000.0 + g_rand_double_range (rand, -5, 5),
                     g_rand_double_range (rand, -5, 5), g_rand_double_range (rand, -1, 1));
            break;
          }
      }
  size = ftell (f);
  g_assert (fclose (f) == 0);
  return (guint64) size;
}

typedef struct {
  guint64 records;
  double sum;
} PathCount;

static gboolean
count_sample (const char *trial, gboolean new_run, guint64 line, double x_mm, double y_mm,
              double t_s, gpointer user_data, GError **error)
{
  PathCount *c = user_data;

  c->records++;
  c->sum += x_mm + y_mm;
  return TRUE;
}

/* One pass of the reader over path; returns the records it read (the
 * "records" column: the same for every run).  What the numbers add up to
 * goes to *sink, so that nothing is optimised away; it is checked finite,
 * not printed (it is no count). */
static guint64
read_once (Reader kind, const char *path, double *sink)
{
  g_autoptr (GError) error = NULL;
  guint64 n = 0;

  switch (kind)
    {
    case TUM:
    case TRACK:
      {
        NbTrajReadInfo info;
        NbTraj *traj = nb_traj_read_path (path, kind == TUM ? NB_TRAJ_FORMAT_TUM
                                                            : NB_TRAJ_FORMAT_CSV, &info, &error);

        g_assert_no_error (error);
        n = traj->n;
        nb_traj_free (traj);
        break;
      }
    case PATH:
      {
        PathCount c = { 0 };

        g_assert_true (nb_measurements_read_path (path, count_sample, &c, &error));
        n = c.records;
        *sink += c.sum;
        break;
      }
    case POSES:
      {
        GArray *poses = nb_measurements_read_poses (path, &error);

        g_assert_no_error (error);
        n = poses->len;
        g_array_unref (poses);
        break;
      }
    case CSV_FIELDS:
    case CSV_NUMBERS:
      {
        g_autoptr (NbCsvReader) r = nb_csv_reader_new_for_path (path, &error);
        NbCsvColumn cols[] = { { "t_s", TRUE }, { "x_mm", TRUE }, { "y_mm", TRUE } };
        double sum = 0.0, v[3];
        gsize len;

        g_assert_true (nb_csv_reader_read_header (r, cols, 3, &error));
        while (nb_csv_reader_next (r, &error) > 0)
          {
            n++;
            if (kind == CSV_NUMBERS)
              {
                for (int c = 0; c < 3; c++)
                  g_assert_true (nb_csv_reader_get_double (r, &cols[c], &v[c], NULL));
                sum += v[0] + v[1] + v[2];
              }
            else
              {
                nb_csv_reader_field (r, &cols[1], &len);
                sum += (double) len;
              }
          }
        g_assert_no_error (error);
        *sink += sum;
        break;
      }
    }
  return n;
}

static double
thread_cpu (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

int
main (int argc, char **argv)
{
  double mb = argc > 1 ? atof (argv[1]) : 100.0;
  int runs = argc > 2 ? atoi (argv[2]) : 5;
  int only = argc > 3 ? atoi (argv[3]) : -1;
  g_autofree char *dir = g_dir_make_tmp ("nb-bench-readers-XXXXXX", NULL);
  double load[3] = { 0 };
  FILE *la;

  g_assert (dir != NULL && mb > 0 && runs > 0 && runs <= 100);
  if ((la = fopen ("/proc/loadavg", "r")) != NULL)
    {
      if (fscanf (la, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
        load[0] = NAN;
      fclose (la);
    }
  printf ("# one thread, file in the page cache, median of %d runs; load average %.2f\n", runs,
          load[0]);
  printf ("%-30s %8s %10s %8s %9s %9s\n", "reader", "MB", "records", "wall s", "MB/s",
          "CPU MB/s");
  for (Reader kind = TUM; kind <= CSV_NUMBERS; kind++)
    if (only < 0 || (int) kind == only)
      {
        g_autofree char *path = g_strdup_printf ("%s/%d.txt", dir, kind);
        guint64 bytes = write_file (path, kind, (guint64) (mb * 1e6)), n = 0;
        double wall[100], cpu[100], sink = 0.0;

        read_once (kind, path, &sink);   /* into the page cache */
        for (int r = 0; r < runs; r++)
          {
            gint64 t0 = g_get_monotonic_time ();
            double c0 = thread_cpu ();

            n = read_once (kind, path, &sink);
            wall[r] = (g_get_monotonic_time () - t0) / 1e6;
            cpu[r] = thread_cpu () - c0;
          }
        g_assert_true (isfinite (sink));
        qsort (wall, (size_t) runs, sizeof *wall, cmp_double);
        qsort (cpu, (size_t) runs, sizeof *cpu, cmp_double);
        /* (padded by characters, not bytes: the names are UTF-8) */
        printf ("%s%*s %8.1f %10" G_GUINT64_FORMAT " %8.3f %9.1f %9.1f\n", reader_names[kind],
                (int) (30 - g_utf8_strlen (reader_names[kind], -1)), "", bytes / 1e6, n, wall[runs / 2], bytes / 1e6 / wall[runs / 2],
                bytes / 1e6 / cpu[runs / 2]);
        fflush (stdout);
        g_unlink (path);
      }
  g_rmdir (dir);
  return 0;
}
