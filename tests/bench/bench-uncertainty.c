/* Benchmark of the uncertainty budgets of a whole campaign's protocol: what
 * the GUM + JCGM 101 Monte Carlo of every figure adds to `report` (#17,
 * target < 1 s).  The campaign is the standard's full set: clause 5 six
 * configurations of 30 poses, clause 6 six obstacles × 16 placements,
 * clause 7 ten configurations (3 + 3 trials), clause 8 two configurations
 * of 30 trials, clause 9 two configurations of 5 trials, clause 10 three
 * maps.  Prints the wall time (best of three), the Monte Carlo trials and
 * the machine's load (/proc/loadavg), which the figure depends on. */
#include "nb-metrics.h"
#include "nb-unc-iso.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>

typedef struct {
  NbPose poses[6][30];
  double truth_mm[96], measured_mm[96];
  guint obstacle[96];
  NbTimedTrial base[10][3], obst[10][3], passage[2][5];
  double d[2][30];
  double arena[4][2], maps[3][4][2];
} Campaign;

static void
make (Campaign *c)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (17);

  for (int k = 0; k < 6; k++)
    for (int j = 0; j < 30; j++)
      c->poses[k][j] = (NbPose) { 5003.0 + g_rand_double_range (r, -2, 2),
                                  -2.0 + g_rand_double_range (r, -2, 2),
                                  0.15 + g_rand_double_range (r, -0.4, 0.4) };
  for (int j = 0; j < 96; j++)
    {
      c->truth_mm[j] = j % 2 ? 5000.0 : 300.0;
      c->measured_mm[j] = c->truth_mm[j] * (1.0 + g_rand_double_range (r, -0.01, 0.01));
      c->obstacle[j] = j / 16;
    }
  for (int k = 0; k < 10; k++)
    for (int j = 0; j < 3; j++)
      {
        c->base[k][j] = (NbTimedTrial) { j + 1, 9.0 + g_rand_double_range (r, 0, 0.3), TRUE };
        c->obst[k][j] = (NbTimedTrial) { j + 1, 12.0 + g_rand_double_range (r, 0, 2), TRUE };
      }
  for (int k = 0; k < 2; k++)
    {
      for (int j = 0; j < 5; j++)
        c->passage[k][j] = (NbTimedTrial) { j + 1, 8.0 + g_rand_double_range (r, 0, 0.5), TRUE };
      for (int j = 0; j < 30; j++)
        c->d[k][j] = g_rand_double_range (r, -8, 8);
    }
  for (int i = 0; i < 4; i++)
    {
      c->arena[i][0] = (i == 1 || i == 2) ? 3500.0 : 0.0;
      c->arena[i][1] = i >= 2 ? 3500.0 : 0.0;
      for (int t = 0; t < 3; t++)
        for (int a = 0; a < 2; a++)
          c->maps[t][i][a] = c->arena[i][a] + g_rand_double_range (r, -60, 60);
    }
}

/* Every budget of the campaign; returns the Monte Carlo trials run. */
static guint64
budgets (const Campaign *c, const NbUncSetup *s)
{
  NbPose command = { 5000.0, 0.0, 0.0 };
  NbSegment seg;
  guint64 trials = 0;
  NbUncBudget *b;

  nb_segment_init (&seg, 0, 0, 5000, 0, NULL);
#define TAKE(expr)                                                             \
  G_STMT_START {                                                               \
    g_autoptr (GError) e_ = NULL;                                              \
    gint64 t_ = g_get_monotonic_time ();                                       \
    b = (expr);                                                                \
    if (g_getenv ("NB_BENCH_VERBOSE"))                                         \
      fprintf (stderr, "%-60s %.3f s\n", #expr,                               \
               (g_get_monotonic_time () - t_) / 1e6);                          \
    if (b == NULL)                                                             \
      g_error ("%s", e_->message);                                             \
    for (guint i_ = 0; i_ < b->figures->len; i_++)                             \
      trials += g_array_index (b->figures, NbUncEntry, i_).fig.mc.trials;      \
    nb_unc_budget_free (b);                                                    \
  } G_STMT_END
  for (int k = 0; k < 6; k++)
    TAKE (nb_unc_pose (s, &command, c->poses[k], 30, 1, &e_));
  TAKE (nb_unc_detection (s, c->truth_mm, c->measured_mm, c->obstacle, 96, 6, 1, &e_));
  for (int k = 0; k < 10; k++)
    TAKE (nb_unc_avoidance_trials (s, c->base[k], 3, c->obst[k], 3, 1, &e_));
  for (int k = 0; k < 2; k++)
    {
      TAKE (nb_unc_path (s, c->d[k], 30, &seg, 1, &e_));
      TAKE (nb_unc_passage_trials (s, c->passage[k], 5, 1, &e_));
    }
  TAKE (nb_unc_mapping (s, (const double (*)[2]) c->arena, (const double (*)[4][2]) c->maps,
                        NULL, 3, 0, 3, 1, &e_));
#undef TAKE
  return trials;
}

int
main (void)
{
  static Campaign c;
  NbUncSetup s;
  double best = INFINITY;
  guint64 trials = 0;
  g_autofree char *load = NULL;

  make (&c);
  nb_unc_setup_init (&s);
  s.lin_const_mm = 0.015;
  s.lin_ppm = 6.0;
  s.range_m = 8.0;
  s.ang_deg = 0.01;
  s.random_mm = 0.05;
  s.reg_u_t_mm = 0.05;
  s.reg_u_rot_deg = 0.002;
  s.sample_period_s = 0.01;
  s.sync_s = 0.001;
  s.speed_mm_s = 1000.0;
  s.target_mm = 0.02;
  s.placement_mm = 2.0;
  s.map_resolution_mm = 50.0;
  for (int rep = 0; rep < 3; rep++)
    {
      gint64 t0 = g_get_monotonic_time ();

      trials = budgets (&c, &s);
      best = MIN (best, (g_get_monotonic_time () - t0) / 1e6);
    }
  g_file_get_contents ("/proc/loadavg", &load, NULL, NULL);
  printf ("uncertainty of a whole campaign's protocol (6 + 1 + 10 + 2 + 2 + 1 budgets, "
          "%" G_GUINT64_FORMAT " Monte Carlo trials over all figures): %.3f s (best of 3)\n",
          trials, best);
  printf ("load: %s", load ? load : "?\n");
  return best < 1.0 ? 0 : 1;
}
