/* nb-clause-9283-stabilisation.c — ISO 9283 7.4 pose stabilisation time and 7.5 pose
 * overshoot
 *
 * The approach P2 → P1 (docs/iso9283.md), three cycles (6.9), watched by the
 * tracker at its full rate from the goal's start to the end of its dwell;
 * the stream is stored (t from the goal's start, x, y, z) and t and OV come
 * from it (nb_iso9283_settling: the band is the rig's, the attained pose
 * the mean of the last 0.2 s).  The stream is the rig's: the in-process tracker's, or the
 * served arm's sampled over HTTP (nb-iso9283-run.h).
 */
#include "nb-clause-9283.h"

#include "nb-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define TAIL_S 0.2

static const NbClause9283Column columns[] = {
  { "stabilisation_s", NC_ ("iso9283", "t (max)"), "s", 3 },
  { "stabilisation_mean_s", NC_ ("iso9283", "t (mean)"), "s", 3 },
  { "overshoot_mm", NC_ ("iso9283", "OV (max)"), "mm", 3 },
  { "overshoot_mean_mm", NC_ ("iso9283", "OV (mean)"), "mm", 3 },
};

static gboolean
prepare (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
         NbClause9283Goals *c, GError **error)
{
  nb_clause_9283_add_goal (c, rig->q[1], FALSE);
  nb_clause_9283_add_goal (c, rig->q[0], TRUE);
  nb_clause_9283_command (rig, 0, &c->command[0]);
  c->n_command = 1;
  return nb_clause_9283_check (rig, c, error);
}

static gboolean
run_cycle (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
           NbClause9283Goals *c, guint number, NbIso9283Trial *t, GError **error)
{
  double t0, extra[2] = { rig->band_mm, TAIL_S };

  if (rig->stream_t_s == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "7.4 needs the tracker's stream");
      return FALSE;
    }
  nb_iso9283_rig_tracker (rig, FALSE);
  if (!nb_iso9283_rig_goal (rig, rig->q[1], FALSE, NULL, error))
    return FALSE;
  nb_iso9283_rig_tracker (rig, TRUE);
  t0 = nb_iso9283_rig_clock (rig);
  if (!nb_iso9283_rig_goal (rig, rig->q[0], FALSE, NULL, error) ||
      !nb_clause_9283_stream_check (rig, "7.4", error))
    return FALSE;
  for (guint i = 0; i < rig->stream_t_s->len; i++)
    {
      const NbPose6 *p = &g_array_index (rig->stream_pose, NbPose6, i);
      const double s[4] = { g_array_index (rig->stream_t_s, double, i) - t0, p->x_mm, p->y_mm,
                            p->z_mm };

      g_array_append_vals (t->data, s, 4);
    }
  nb_clause_9283_pack_pose (t->command, &c->command[0]);
  g_array_append_vals (t->command, extra, 2);
  return TRUE;
}

static gboolean
compute (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *trials,
         const NbCatalogue *lang, NbClause9283Figures *f, GError **error)
{
  double t_max = 0, t_sum = 0, ov_max = 0, ov_sum = 0, band = NAN;

  for (guint j = 0; j < trials->len; j++)
    {
      const NbIso9283Trial *t = trials->pdata[j];
      gsize n = t->data->len / 4;
      NbIso9283Settling r;

      if (t->command->len != 8 || t->data->len % 4 != 0 || n < 2)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "cycle %u holds no stream", t->cycle);
          return FALSE;
        }
      band = g_array_index (t->command, double, 6);
      /* NbIso9283Sample is (t, p[3]): the stored rows as they are. */
      G_STATIC_ASSERT (sizeof (NbIso9283Sample) == 4 * sizeof (double));
      if (!nb_iso9283_settling ((const NbIso9283Sample *) t->data->data, n, band,
                                g_array_index (t->command, double, 7), &r, error))
        {
          g_prefix_error (error, "cycle %u: ", t->cycle);
          return FALSE;
        }
      t_max = MAX (t_max, r.stabilisation_s);
      ov_max = MAX (ov_max, r.overshoot_mm);
      t_sum += r.stabilisation_s;
      ov_sum += r.overshoot_mm;
    }
  nb_clause_9283_figures_alloc (f, clause, 1);
  f->labels[0] = g_strdup ("P1");
  f->values[0] = t_max;
  f->values[1] = t_sum / trials->len;
  f->values[2] = ov_max;
  f->values[3] = ov_sum / trials->len;
  f->note = g_strdup_printf (nb_ptr (lang, "iso9283", "band %.3f mm"), band);
  return TRUE;
}

const NbClause9283 nb_clause_9283_stabilisation = {
  .key = "stabilisation",
  .clause = "7.4, 7.5",
  .title = NC_ ("iso9283", "Pose stabilisation time and pose overshoot"),
  .cycles = 3,
  .speeds = NB_9283_ALL_SPEEDS,
  .needs = NB_ISO9283_NEEDS_STREAM,
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .prepare = prepare,
  .run_cycle = run_cycle,
  .compute = compute,
};
