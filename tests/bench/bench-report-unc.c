/* Benchmark of what the uncertainty (#17) adds to `navbench-cli report`: the
 * whole sample campaign (tools/make-sample-campaign.sh: every clause, 3 × 30
 * poses, 96 placements, 10 avoidance and 2 passage configurations, 30 path
 * tracks, 3 maps) reported with the measurement system's accuracy stated
 * (every figure's GUM budget and JCGM 101 Monte Carlo, U columns, budget
 * tables) and on a copy that states none.  Prints the best of five wall
 * and CPU times of each and the load (2 shared cores: the CPU time is the
 * figure that does not depend on the neighbours). */
#define _DEFAULT_SOURCE 1       /* wait4() */

#include "nb-bench.h"

#include <glib/gstdio.h>
#include <math.h>

/* Runs args; *cpu_s gets the child's user + system time. */
static double
run (const char *const *args, const char *cwd, double *cpu_s)
{
  NbBenchRun f = nb_bench_run_ok (args, cwd);

  *cpu_s = f.cpu_s;
  return f.wall_s;
}

static void
best_of (const char *const *args, double *wall, double *cpu)
{
  *wall = *cpu = INFINITY;
  for (int i = 0; i < 5; i++)
    {
      double c, w = run (args, NULL, &c);

      *wall = MIN (*wall, w);
      *cpu = MIN (*cpu, c);
    }
}

int
main (int argc, char **argv)
{
  const char *cli = argc > 1 ? argv[1] : g_getenv ("NAVBENCH_CLI");
  const char *root = g_getenv ("NAVBENCH_SOURCE_ROOT");
  g_autofree char *dir = g_dir_make_tmp ("nb-bench-report-unc-XXXXXX", NULL);
  g_autofree char *with = g_build_filename (dir, "with.nbc", NULL);
  g_autofree char *without = g_build_filename (dir, "without.nbc", NULL);
  g_autofree char *pdf = g_build_filename (dir, "r.pdf", NULL);
  g_autofree char *load = NULL;
  double cpu, w_md, c_md, w0_md, c0_md, w_pdf, c_pdf, w0_pdf, c0_pdf;

  g_assert (cli != NULL && root != NULL && dir != NULL);
  {
    const char *mk[] = { "sh", "tools/make-sample-campaign.sh", cli, with, NULL };
    const char *mk0[] = { "sh", "tools/make-sample-campaign.sh", cli, without, NULL };
    /* The copy without: no accuracy, so no uncertainty is claimed. */
    const char *unset[] = { cli, "campaign", "set", "--db", without, "instrument.accuracy_mm=",
                            "instrument.angular_accuracy_deg=", NULL };

    run (mk, root, &cpu);
    run (mk0, root, &cpu);
    run (unset, NULL, &cpu);
  }
  {
    const char *md[] = { cli, "report", "--db", with, "--format", "md", NULL };
    const char *md0[] = { cli, "report", "--db", without, "--format", "md", NULL };
    const char *pd[] = { cli, "report", "--db", with, "-o", pdf, NULL };
    const char *pd0[] = { cli, "report", "--db", without, "-o", pdf, NULL };

    best_of (md, &w_md, &c_md);
    best_of (md0, &w0_md, &c0_md);
    best_of (pd, &w_pdf, &c_pdf);
    best_of (pd0, &w0_pdf, &c0_pdf);
  }
  g_file_get_contents ("/proc/loadavg", &load, NULL, NULL);
  printf ("# navbench-cli report of the whole sample campaign, best of 5 (load %s",
          load ? g_strstrip (load) : "?");
  printf (")\n%-34s %10s %10s\n", "", "wall, s", "CPU, s");
  printf ("%-34s %10.3f %10.3f\n", "report --format md, with U", w_md, c_md);
  printf ("%-34s %10.3f %10.3f\n", "report --format md, without", w0_md, c0_md);
  printf ("%-34s %10.3f %10.3f\n", "  added by the uncertainty", w_md - w0_md, c_md - c0_md);
  printf ("%-34s %10.3f %10.3f\n", "report -o r.pdf, with U", w_pdf, c_pdf);
  printf ("%-34s %10.3f %10.3f\n", "report -o r.pdf, without", w0_pdf, c0_pdf);
  printf ("%-34s %10.3f %10.3f\n", "  added by the uncertainty", w_pdf - w0_pdf, c_pdf - c0_pdf);
  g_unlink (pdf);
  {
    const char *rm[] = { "rm", "-rf", dir, NULL };

    run (rm, NULL, &cpu);
  }
  return 0;
}
