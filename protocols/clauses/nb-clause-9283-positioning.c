/* nb-clause-9283-positioning.c — ISO 9283 clause 9: minimum positioning time
 *
 * As read in docs/iso9283.md: from P1 along the direction to P2, moves of
 * 10, 20, 50, 100 and 200 mm (those inside the cube's diagonal) at 100 % of
 * the rated velocity with the rated load; each watched by the tracker at
 * its full rate from the goal's start; the positioning time is the time
 * from leaving P1 to the stabilised state in the limit band at the end pose
 * (7.4's band and attained pose, nb_iso9283_settling); three cycles, the
 * mean and the largest per distance.  The stream is the rig's: the in-process tracker's, or the
 * served arm's sampled over HTTP (nb-iso9283-run.h).
 */
#include "nb-clause-9283.h"

#include "nb-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define TAIL_S 0.2

static const double distances_mm[] = { 10, 20, 50, 100, 200 };

static const NbClause9283Column columns[] = {
  { "positioning_s", NC_ ("iso9283", "t_pos (mean)"), "s", 3 },
  { "positioning_max_s", NC_ ("iso9283", "t_pos (max)"), "s", 3 },
};

static gboolean
prepare (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
         NbClause9283Goals *c, GError **error)
{
  double u[3], len = 0;

  for (int k = 0; k < 3; k++)
    {
      u[k] = rig->cube.p_mm[1][k] - rig->cube.p_mm[0][k];
      len += u[k] * u[k];
    }
  len = sqrt (len);
  for (int k = 0; k < 3; k++)
    u[k] /= len;
  for (guint i = 0; i < G_N_ELEMENTS (distances_mm) && distances_mm[i] <= len; i++)
    {
      double p[3], T[16], q[NB_ARM_JOINTS];

      for (int k = 0; k < 3; k++)
        p[k] = rig->cube.p_mm[0][k] + distances_mm[i] * u[k];
      nb_iso9283_cube_target (&rig->cube, p, T);
      if (!nb_arm_ik (&rig->model, T, rig->q[0], q, error))
        {
          g_prefix_error (error, "9: the move of %g mm: ", distances_mm[i]);
          return FALSE;
        }
      nb_clause_9283_add_goal (c, rig->q[0], FALSE);
      nb_clause_9283_add_goal (c, q, TRUE);
      c->command[i] = (NbPose6) { p[0], p[1], p[2], rig->cube.abc_deg[0], rig->cube.abc_deg[1],
                                  rig->cube.abc_deg[2] };
      c->n_command = i + 1;
    }
  if (c->n_command == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "9: the cube is too small for a 10 mm move");
      return FALSE;
    }
  return nb_clause_9283_check (rig, c, error);
}

static gboolean
run_cycle (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
           NbClause9283Goals *c, guint number, NbIso9283Trial *t, GError **error)
{
  const double extra[2] = { rig->band_mm, TAIL_S };

  if (rig->stream_t_s == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "9 needs the tracker's stream");
      return FALSE;
    }
  for (guint i = 0; i < c->n_command; i++)
    {
      double t0, n;

      nb_iso9283_rig_tracker (rig, FALSE);
      if (!nb_iso9283_rig_goal (rig, &g_array_index (c->goals, double, 2 * i * NB_ARM_JOINTS),
                                FALSE, NULL, error))
        return FALSE;
      nb_iso9283_rig_tracker (rig, TRUE);
      if (!nb_iso9283_rig_goal (rig, &g_array_index (c->goals, double,
                                                     (2 * i + 1) * NB_ARM_JOINTS),
                                FALSE, NULL, error) ||
          !nb_clause_9283_stream_check (rig, "9", error))
        return FALSE;
      /* From the goal's start: the instant it was sent (over HTTP after the
       * stream's first sample, which may take a poll's round trip). */
      t0 = rig->goal_sent_s;
      /* Each move's stream: its count, then (t from the start, x, y, z). */
      n = rig->stream_t_s->len;
      g_array_append_val (t->data, n);
      for (guint k = 0; k < rig->stream_t_s->len; k++)
        {
          const NbPose6 *p = &g_array_index (rig->stream_pose, NbPose6, k);
          const double s[4] = { g_array_index (rig->stream_t_s, double, k) - t0, p->x_mm, p->y_mm,
                                p->z_mm };

          g_array_append_vals (t->data, s, 4);
        }
      nb_clause_9283_pack_pose (t->command, &c->command[i]);
    }
  g_array_append_vals (t->command, extra, 2);
  return TRUE;
}

static gboolean
compute (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *trials,
         const NbCatalogue *lang, NbClause9283Figures *f, GError **error)
{
  const NbIso9283Trial *first = trials->pdata[0];
  guint moves = first->command->len >= 2 ? (first->command->len - 2) / 6 : 0;
  g_autofree double *sum = NULL, *worst = NULL;

  if (moves == 0 || first->command->len != moves * 6 + 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "cycle %u holds no moves", first->cycle);
      return FALSE;
    }
  sum = g_new0 (double, moves);
  worst = g_new0 (double, moves);
  for (guint j = 0; j < trials->len; j++)
    {
      const NbIso9283Trial *t = trials->pdata[j];
      const double *d = (const double *) t->data->data;
      double band = g_array_index (t->command, double, moves * 6);
      double tail = g_array_index (t->command, double, moves * 6 + 1);
      gsize at = 0;

      for (guint i = 0; i < moves; i++)
        {
          gsize n;
          NbIso9283Settling r;

          if (at >= t->data->len || (n = (gsize) d[at]) < 2 || at + 1 + 4 * n > t->data->len)
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "cycle %u: move %u holds no stream",
                           t->cycle, i + 1);
              return FALSE;
            }
          if (!nb_iso9283_settling ((const NbIso9283Sample *) (d + at + 1), n, band, tail, &r,
                                    error))
            {
              g_prefix_error (error, "cycle %u, move %u: ", t->cycle, i + 1);
              return FALSE;
            }
          /* From leaving P1 (the stream's t = 0) to the stabilised state. */
          sum[i] += r.t_stable_s;
          worst[i] = MAX (worst[i], r.t_stable_s);
          at += 1 + 4 * n;
        }
    }
  nb_clause_9283_figures_alloc (f, clause, moves);
  for (guint i = 0; i < moves; i++)
    {
      f->labels[i] = g_strdup_printf ("%g", distances_mm[i]);
      f->values[i * clause->n_columns + 0] = sum[i] / trials->len;
      f->values[i * clause->n_columns + 1] = worst[i];
    }
  f->note = g_strdup_printf (nb_ptr (lang, "iso9283",
                                     "moves from P1 towards P2 (mm: the columns), band %.3f mm"),
                             g_array_index (first->command, double, moves * 6));
  return TRUE;
}

const NbClause9283 nb_clause_9283_positioning = {
  .key = "positioning",
  .clause = "9",
  .title = NC_ ("iso9283", "Minimum positioning time"),
  .cycles = 3,
  .speeds = NB_9283_RATED_ONLY,
  .needs = NB_ISO9283_NEEDS_STREAM,
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .prepare = prepare,
  .run_cycle = run_cycle,
  .compute = compute,
};
