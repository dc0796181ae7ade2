/* bench-ape — how `navbench-cli compute ape` scales with the number of poses
 *
 * Writes a reference and an estimate TUM file of N poses each (100 Hz, the
 * estimate 1 ms late, a few cm of error, a 3-D orientation) in a temporary
 * directory, runs the CLI on them with --align se3 --json, and prints the
 * wall and CPU time (reading both files included) and the child's peak RSS
 * per size; "vs first size" is the CPU time per pose relative to the
 * smallest size (1.00x everywhere = linear).
 *
 *   bench-ape [N …]        default: 10000 100000 1000000
 *   bench-ape --files REF EST   the stages and the peer on two given files
 *
 * Then the peer in the same run (issue 20): `compute ape --json` (the
 * translation APE, nearest stamp, no alignment) against
 * tests/bench/ape-numpy.py (numpy's loadtxt + searchsorted, the same
 * figure) on the largest size's two files, in turn A B A B … (PEER_RUNS
 * pairs): medians of wall and CPU time, the ratio pair by pair (a drift of
 * the shared machine's speed cancels), the load average before and after,
 * and both RMSEs (they must agree to 1e-12 relative).  Skipped without
 * /usr/bin/python3 and numpy.
 *
 * Before the peer: where the time of that job goes, its stages run in this
 * process on the same two files as nb_traj_evaluate runs them (STAGE_RUNS
 * times, medians): reading one file on one thread; both on two threads as
 * the CLI reads them (positions only), with each thread's own CPU and wall
 * time and how much of the pair's wall time the two reads overlapped; the
 * association in place, the Umeyama fit (timed, not applied: the peer's job
 * has no alignment), the errors, their statistics, freeing the two tracks;
 * wall time and this process's CPU time (both threads) of each.  The CLI's
 * fixed cost (its start: the dynamic linker; the options, the JSON, the
 * exit) is the CLI run on two one-pose files.  From these the figure for
 * a quiet two-core machine: the slower read's CPU time plus the serial
 * stages' and the fixed cost's (a thread with a core of its own takes in
 * wall time what it takes in CPU time).
 *
 * Needs NAVBENCH_CLI (set by meson benchmark).  Every figure of a child is
 * the kernel's for that child alone (wait4, tests/bench/nb-bench.h).
 */
#include "nb-bench.h"

#include "nb-traj-align.h"
#include "nb-traj-assoc.h"
#include "nb-traj-error.h"
#include "nb-tum-reader.h"

#include <glib/gstdio.h>
#include <string.h>
#include <math.h>
#include <time.h>

#define PEER_RUNS 5
#define STAGE_RUNS 3

enum {
  READ_ONE, READ_A, READ_B, READ_BOTH, OVERLAP, ASSOCIATE, ALIGN, ERRORS, STATS, FREE, FIXED,
  N_STAGES
};

static const char *const stage_names[N_STAGES] = {
  "read one file alone, one thread",
  "read A (ref), main thread", "read B (est), second thread",
  "read both, two threads (as the CLI)", "overlap of A and B, % of both's wall",
  "associate (nearest stamp, in place)", "align (Umeyama se3: the fit alone)",
  "errors (translation APE)", "statistics (median: selection)", "free both tracks",
  "CLI fixed cost (start, output, exit)",
};

static guint n_read;   /* poses of the reference the stages read */

static double
process_cpu (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
thread_cpu (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One file read as the CLI's compute ape --json reads it (positions only:
 * the translation APE reads no orientation), with its thread's CPU time
 * and when it started and ended. */
typedef struct {
  const char *path;
  NbTraj *traj;
  gint64 t0, t1;
  double cpu;
} ReadJob;

static gpointer
read_job (gpointer data)
{
  ReadJob *j = data;
  NbTrajReadInfo info;
  g_autoptr (GError) error = NULL;
  double c0 = thread_cpu ();

  j->t0 = g_get_monotonic_time ();
  j->traj = nb_traj_read_path_with (j->path, NB_TRAJ_FORMAT_AUTO, NB_TRAJ_READ_POSITIONS, &info,
                                    &error);
  g_assert_no_error (error);
  j->t1 = g_get_monotonic_time ();
  j->cpu = thread_cpu () - c0;
  return NULL;
}

/* The stages of `compute ape --json` on ref and est, each timed; returns
 * the RMSE (checked against the CLI's). */
static double
stages (const char *ref, const char *est, double wall[N_STAGES][STAGE_RUNS],
        double cpu[N_STAGES][STAGE_RUNS], int run)
{
  ReadJob jobs[2] = { { ref, NULL }, { est, NULL } };
  NbAssocReport assoc;
  NbErrorStats st;
  NbSim3 fit;
  g_autoptr (GError) error = NULL;
  GThread *thread;
  double *err, c0;
  gint64 t0, lo, hi, both_lo, both_hi;

#define STAGE_START() (t0 = g_get_monotonic_time (), c0 = process_cpu ())
#define STAGE_END(k) (wall[k][run] = (g_get_monotonic_time () - t0) / 1e6, \
                      cpu[k][run] = process_cpu () - c0)
  STAGE_START ();
  read_job (&jobs[0]);
  STAGE_END (READ_ONE);
  nb_traj_free (jobs[0].traj);

  /* As the CLI: the estimate on a thread of its own, the reference on
   * this one; each thread's own CPU time, and how much of the pair's wall
   * time both were reading at once. */
  STAGE_START ();
  thread = g_thread_new ("read-est", read_job, &jobs[1]);
  read_job (&jobs[0]);
  g_thread_join (thread);
  STAGE_END (READ_BOTH);
  for (int k = 0; k < 2; k++)
    {
      wall[READ_A + k][run] = (jobs[k].t1 - jobs[k].t0) / 1e6;
      cpu[READ_A + k][run] = jobs[k].cpu;
    }
  lo = MAX (jobs[0].t0, jobs[1].t0), hi = MIN (jobs[0].t1, jobs[1].t1);
  both_lo = MIN (jobs[0].t0, jobs[1].t0), both_hi = MAX (jobs[0].t1, jobs[1].t1);
  wall[OVERLAP][run] = 100.0 * MAX (hi - lo, 0) / MAX (both_hi - both_lo, 1);
  cpu[OVERLAP][run] = NAN;

  n_read = jobs[0].traj->n;
  STAGE_START ();
  g_assert_true (nb_traj_associate_in_place (jobs[0].traj, jobs[1].traj, 0.01, 0.0, &assoc,
                                             &error));
  STAGE_END (ASSOCIATE);

  STAGE_START ();
  g_assert_true (nb_traj_umeyama (jobs[0].traj, jobs[1].traj, NB_ALIGN_SE3, &fit, &error));
  STAGE_END (ALIGN);

  STAGE_START ();
  err = g_new (double, MAX (jobs[1].traj->n, 1));
  nb_traj_ape (jobs[0].traj, jobs[1].traj, NB_REL_TRANS, err);
  STAGE_END (ERRORS);

  STAGE_START ();
  nb_error_stats (err, jobs[1].traj->n, &st);
  STAGE_END (STATS);

  STAGE_START ();
  nb_traj_free (jobs[0].traj);
  nb_traj_free (jobs[1].traj);
  g_free (err);
  STAGE_END (FREE);
#undef STAGE_START
#undef STAGE_END
  return st.rmse;
}

/* A pair of one-pose files: what the CLI takes beyond its stages (the
 * dynamic linker, GLib, the options, the JSON, the exit). */
static void
fixed_cost (const char *cli, const char *dir, double wall[N_STAGES][STAGE_RUNS],
            double cpu[N_STAGES][STAGE_RUNS])
{
  g_autofree char *one = g_build_filename (dir, "one.tum", NULL);
  const char *args[] = { cli, "compute", "ape", "--ref", one, "--est", one, "--json", NULL };

  g_assert_true (g_file_set_contents (one, "0 1 2 3 0 0 0 1\n", -1, NULL));
  for (int r = 0; r < STAGE_RUNS; r++)
    {
      NbBenchRun f = nb_bench_run_ok (args, NULL);

      wall[FIXED][r] = f.wall_s, cpu[FIXED][r] = f.cpu_s;
    }
  g_remove (one);
}

/* The stage table; then what it says of a quiet two-core machine: the
 * slower of the two reads, plus the stages after them, plus the CLI's
 * fixed cost, each at its CPU time (a thread that has a core to itself
 * runs in wall time what it uses in CPU time). */
static double
print_stages (const char *cli, const char *dir, const char *ref, const char *est)
{
  double wall[N_STAGES][STAGE_RUNS], cpu[N_STAGES][STAGE_RUNS], rmse = NAN;
  double w[N_STAGES], c[N_STAGES], quiet;

  for (int r = 0; r < STAGE_RUNS; r++)
    rmse = stages (ref, est, wall, cpu, r);
  fixed_cost (cli, dir, wall, cpu);
  printf ("# where the time of compute ape --json goes: its stages in this process, "
          "medians of %d\n", STAGE_RUNS);
  nb_bench_print_load ("# ", "after");
  printf ("%-42s %8s %8s\n", "stage", "wall s", "CPU s");
  for (int k = 0; k < N_STAGES; k++)
    {
      w[k] = nb_bench_median (wall[k], STAGE_RUNS);
      c[k] = k == OVERLAP ? NAN : nb_bench_median (cpu[k], STAGE_RUNS);
      if (k == OVERLAP)
        printf ("%-42s %7.0f%%\n", stage_names[k], w[k]);
      else
        printf ("%-42s %8.3f %8.3f\n", stage_names[k], w[k], c[k]);
    }
  quiet = MAX (c[READ_A], c[READ_B]) + c[ASSOCIATE] + c[ERRORS] + c[STATS] + c[FREE] + c[FIXED];
  printf ("%-42s %8.3f   (the slower read's CPU + the serial stages' + the fixed cost)\n",
          "compute ape --json, two idle cores", quiet);
  return rmse;
}

typedef struct {
  double wall_s, cpu_s, rmse;
  long max_rss_kib;
} Run;

/* One child: wall and CPU time and peak RSS (its own, wait4), the "rmse"
 * of its JSON. */
static gboolean
run_child (const char *const *args, Run *r)
{
  g_autofree char *path = NULL, *out = NULL;
  int fd = g_file_open_tmp ("bench-ape-out-XXXXXX", &path, NULL);
  NbBenchRun f;
  const char *at;

  g_assert (fd >= 0);
  f = nb_bench_run (args, NULL, -1, fd);
  close (fd);
  g_file_get_contents (path, &out, NULL, NULL);
  g_remove (path);
  if (!f.ok || out == NULL)
    {
      fprintf (stderr, "bench-ape: %s %s failed\n", args[0], args[1]);
      return FALSE;
    }
  r->wall_s = f.wall_s;
  r->cpu_s = f.cpu_s;
  r->max_rss_kib = f.max_rss_kib;
  at = strstr (out, "\"rmse\"");
  r->rmse = at != NULL ? g_ascii_strtod (strchr (at, ':') + 1, NULL) : NAN;
  return TRUE;
}

/* navbench against the numpy script on the same two files, in turn. */
static gboolean
peer (const char *cli, const char *ref, const char *est, guint n, double stage_rmse)
{
  g_autofree char *script = g_build_filename (NB_BENCH_DIR, "ape-numpy.py", NULL);
  const char *a_args[] = { cli, "compute", "ape", "--ref", ref, "--est", est, "--json", NULL };
  const char *b_args[] = { "/usr/bin/python3", script, ref, est, NULL };
  const char *check[] = { "/usr/bin/python3", "-c", "import numpy", NULL };
  double aw[PEER_RUNS], ac[PEER_RUNS], bw[PEER_RUNS], bc[PEER_RUNS], rw[PEER_RUNS], rc[PEER_RUNS];
  long a_rss = 0;
  Run a = { 0 }, b = { 0 };
  int status;

  if (!g_spawn_sync (NULL, (char **) check, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL,
                     NULL, &status, NULL) || !g_spawn_check_wait_status (status, NULL))
    {
      printf ("# the numpy peer: skipped (no /usr/bin/python3 with numpy)\n");
      return TRUE;
    }
  printf ("# the peer, %u poses each file, %d pairs in turn (translation APE, no alignment)\n", n,
          PEER_RUNS);
  nb_bench_print_load ("# ", "before");
  for (int i = 0; i < PEER_RUNS; i++)
    {
      if (!run_child (a_args, &a) || !run_child (b_args, &b))
        return FALSE;
      aw[i] = a.wall_s, ac[i] = a.cpu_s, bw[i] = b.wall_s, bc[i] = b.cpu_s;
      rw[i] = b.wall_s / a.wall_s, rc[i] = b.cpu_s / a.cpu_s;
      a_rss = MAX (a_rss, a.max_rss_kib);
    }
  nb_bench_print_load ("# ", "after");
  printf ("%-34s %8s %8s %10s\n", "", "wall s", "CPU s", "rmse m");
  printf ("%-34s %8.3f %8.3f %10.6f\n", "navbench-cli compute ape --json", nb_bench_median (aw, PEER_RUNS),
          nb_bench_median (ac, PEER_RUNS), a.rmse);
  printf ("%-34s %8.3f %8.3f %10.6f\n", "ape-numpy.py", nb_bench_median (bw, PEER_RUNS),
          nb_bench_median (bc, PEER_RUNS), b.rmse);
  printf ("%-34s %7.2fx %7.2fx\n", "numpy / navbench (pair by pair)", nb_bench_median (rw, PEER_RUNS),
          nb_bench_median (rc, PEER_RUNS));
  if (!(fabs (a.rmse - b.rmse) <= 1e-12 * fabs (b.rmse)) ||
      !(fabs (a.rmse - stage_rmse) <= 1e-12 * fabs (a.rmse)))
    {
      fprintf (stderr, "bench-ape: the RMSEs differ: %.17g (CLI), %.17g (numpy), %.17g (stages)\n",
               a.rmse, b.rmse, stage_rmse);
      return FALSE;
    }
  return TRUE;
}

static void
write_tum (const char *path, guint n, gboolean estimate)
{
  FILE *f = fopen (path, "w");

  g_assert_nonnull (f);
  fprintf (f, "# %s, %u poses\n", estimate ? "estimate" : "reference", n);
  for (guint k = 0; k < n; k++)
    {
      double t = k * 0.01, x = 20 * cos (1e-3 * t), y = 10 * sin (2e-3 * t), z = 0.2 * sin (t);
      double yaw = 0.05 * t, roll = 0.01 * sin (0.3 * t);

      if (estimate)
        {
          t += 0.001;
          x += 0.03 * sin (0.7 * k), y += 0.02 * cos (0.3 * k), yaw += 0.01 * sin (0.01 * k);
        }
      /* yaw about z, then a small roll about x */
      fprintf (f, "%.6f %.6f %.6f %.6f %.9f %.9f %.9f %.9f\n", t, x, y, z,
               cos (yaw / 2) * sin (roll / 2), sin (yaw / 2) * sin (roll / 2),
               sin (yaw / 2) * cos (roll / 2), cos (yaw / 2) * cos (roll / 2));
    }
  fclose (f);
}

int
main (int argc, char **argv)
{
  const char *cli = g_getenv ("NAVBENCH_CLI");
  guint sizes[16], n_sizes = 0;
  g_autofree char *dir = NULL;
  double first_per_pose = 0.0;

  if (cli == NULL)
    {
      fprintf (stderr, "bench-ape: set NAVBENCH_CLI to the navbench-cli binary\n");
      return 2;
    }
  if (argc == 4 && g_str_equal (argv[1], "--files"))
    {
      /* Two files already written: the stages and the peer alone. */
      g_autofree char *tmp = g_dir_make_tmp ("nb-bench-ape-XXXXXX", NULL);
      double rmse = print_stages (cli, tmp, argv[2], argv[3]);
      gboolean ok = peer (cli, argv[2], argv[3], n_read, rmse);

      g_rmdir (tmp);
      return ok ? 0 : 1;
    }
  for (int i = 1; i < argc && n_sizes < G_N_ELEMENTS (sizes); i++)
    sizes[n_sizes++] = (guint) strtoul (argv[i], NULL, 10);
  if (n_sizes == 0)
    {
      sizes[0] = 10000, sizes[1] = 100000, sizes[2] = 1000000;
      n_sizes = 3;
    }
  dir = g_dir_make_tmp ("nb-bench-ape-XXXXXX", NULL);
  printf ("# compute ape --align se3 --json, both files read; %s\n", dir);
  printf ("%10s %10s %10s %12s %14s %12s\n", "poses", "wall s", "CPU s", "CPU us/pose",
          "vs first size", "peak RSS MB");
  for (guint s = 0; s < n_sizes; s++)
    {
      g_autofree char *ref = g_strdup_printf ("%s/ref-%u.tum", dir, sizes[s]);
      g_autofree char *est = g_strdup_printf ("%s/est-%u.tum", dir, sizes[s]);
      const char *args[] = { cli, "compute", "ape", "--ref", ref, "--est", est, "--align", "se3",
                             "--json", NULL };
      Run r;
      double per_pose;

      write_tum (ref, sizes[s], FALSE);
      write_tum (est, sizes[s], TRUE);
      /* CPU time (user + system) of this run: wall time on a shared
       * machine measures the neighbours too. */
      if (!run_child (args, &r))
        return 1;
      per_pose = r.cpu_s / sizes[s];
      if (s == 0)
        first_per_pose = per_pose;
      printf ("%10u %10.3f %10.3f %12.3f %13.2fx %12.1f\n", sizes[s], r.wall_s, r.cpu_s,
              per_pose * 1e6, per_pose / first_per_pose, r.max_rss_kib / 1024.0);
      fflush (stdout);
      if (s == n_sizes - 1)
        {
          double rmse = print_stages (cli, dir, ref, est);

          if (!peer (cli, ref, est, sizes[s], rmse))
            return 1;
        }
      g_remove (ref);
      g_remove (est);
    }
  g_rmdir (dir);
  return 0;
}
