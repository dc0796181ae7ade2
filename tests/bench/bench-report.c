/* Benchmark of `navbench-cli report` on a campaign with 1.8 M path samples
 * (30 trials × 60 000, clause 8) besides 30 poses (clause 5): the time to read
 * every sample back, compute, plot a million-point figure and write the PDF.
 * Prints wall seconds and the peak RSS of each step (best of three). */
#define _DEFAULT_SOURCE 1       /* wait4() */

#include "nb-bench.h"

#include <glib/gstdio.h>
#include <math.h>

static double
run (const char *const *args, double *rss_mib)
{
  NbBenchRun f = nb_bench_run_ok (args, NULL);

  *rss_mib = f.max_rss_kib / 1024.0;
  return f.wall_s;
}

int
main (int argc, char **argv)
{
  const char *cli = argc > 1 ? argv[1] : g_getenv ("NAVBENCH_CLI");
  g_autofree char *dir = g_dir_make_tmp ("nb-bench-report-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "path.csv", NULL);
  g_autofree char *pose = g_build_filename (dir, "pose.csv", NULL);
  g_autofree char *db = g_build_filename (dir, "c.nbc", NULL);
  g_autofree char *pdf = g_build_filename (dir, "r.pdf", NULL);
  g_autoptr (GRand) rand = g_rand_new_with_seed (1);
  FILE *f;
  double rss, best, s;

  g_assert (cli != NULL && dir != NULL);
  f = fopen (path, "w");
  fputs ("trial,t_s,x_mm,y_mm\n", f);
  for (guint t = 1; t <= 30; t++)
    for (guint k = 0; k < 60000; k++)
      fprintf (f, "%u,%.4f,%.4f,%.4f\n", t, k * 0.01, -100.0 + 5200.0 * k / 60000,
               10 * sin (k / 9000.0 + t) + g_rand_double_range (rand, -0.5, 0.5));
  fclose (f);
  f = fopen (pose, "w");
  fputs ("x_mm,y_mm,theta_deg\n", f);
  for (guint j = 0; j < 30; j++)
    fprintf (f, "%.3f,%.3f,%.3f\n", 5000 + g_rand_double_range (rand, -3, 3),
             g_rand_double_range (rand, -3, 3), g_rand_double_range (rand, -0.5, 0.5));
  fclose (f);

  {
    const char *mk[] = { cli, "campaign", "new", "--db", db, "--name", "bench", "robot.width_mm=730", NULL };
    const char *i5[] = { cli, "campaign", "import", "--db", db, "--clause", "5", "--config", "p",
                         "--input", pose, "--command", "5000,0,0", NULL };
    const char *i8[] = { cli, "campaign", "import", "--db", db, "--clause", "8", "--config", "s",
                         "--input", path, "--from", "0,0", "--to", "5000,0", NULL };

    run (mk, &rss);
    run (i5, &rss);
    s = run (i8, &rss);
    printf ("# navbench-cli report on 1.8 M path samples (best of 3)\n");
    printf ("%-40s %8.2f s %8.1f MiB\n", "campaign import --clause 8 (1.8 M)", s, rss);
  }
  {
    const char *rp[] = { cli, "report", "--db", db, "-o", pdf, NULL };
    const char *rm[] = { cli, "report", "--db", db, "--format", "md", NULL };
    GStatBuf st;

    best = INFINITY;
    for (int i = 0; i < 3; i++)
      best = MIN (best, run (rp, &rss));
    g_assert (g_stat (pdf, &st) == 0);
    printf ("%-40s %8.2f s %8.1f MiB  (%.0f kB PDF)\n", "report -o r.pdf", best, rss,
            st.st_size / 1e3);
    best = INFINITY;
    for (int i = 0; i < 3; i++)
      best = MIN (best, run (rm, &rss));
    printf ("%-40s %8.2f s %8.1f MiB\n", "report --format md", best, rss);
  }
  g_unlink (path);
  g_unlink (pose);
  g_unlink (pdf);
  {
    g_autofree char *wal = g_strconcat (db, "-wal", NULL), *shm = g_strconcat (db, "-shm", NULL);

    g_unlink (wal);
    g_unlink (shm);
  }
  g_unlink (db);
  g_rmdir (dir);
  return 0;
}
