/* nb-clause-9283-distance.c — ISO 9283 7.3: distance accuracy AD and repeatability RD
 *
 * Between the command poses P2 and P4 (docs/iso9283.md), the cycle
 * P4 → P2 → P4 measured at both, 30 cycles (6.9).
 */
#include "nb-clause-9283.h"

#include "nb-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static const NbClause9283Column columns[] = {
  { "ad_mm", "AD_P", "mm", 3 },
  { "rd_mm", "RD_P (±)", "mm", 3 },
  { "ad_x_mm", "AD_x", "mm", 3 },
  { "ad_y_mm", "AD_y", "mm", 3 },
  { "ad_z_mm", "AD_z", "mm", 3 },
  { "ad_a_deg", "AD_a", "°", 4 },
  { "ad_b_deg", "AD_b", "°", 4 },
  { "ad_c_deg", "AD_c", "°", 4 },
  { "rd_a_deg", "RD_a (±)", "°", 4 },
};

static gboolean
prepare (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
         NbClause9283Goals *c, GError **error)
{
  nb_clause_9283_add_goal (c, rig->q[1], TRUE);
  nb_clause_9283_add_goal (c, rig->q[3], TRUE);
  c->pre = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_vals (c->pre, rig->q[3], NB_ARM_JOINTS);
  nb_clause_9283_command (rig, 1, &c->command[0]);
  nb_clause_9283_command (rig, 3, &c->command[1]);
  c->n_command = 2;
  return nb_clause_9283_check (rig, c, error);
}

static gboolean
run_cycle (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
           NbClause9283Goals *c, guint number, NbIso9283Trial *t, GError **error)
{
  for (guint k = 0; k < 2; k++)
    {
      NbPose6 p;

      if (!nb_iso9283_rig_goal (rig, &g_array_index (c->goals, double, k * NB_ARM_JOINTS), TRUE,
                                &p, error))
        return FALSE;
      nb_clause_9283_pack_pose (t->data, &p);
      nb_clause_9283_pack_pose (t->command, &c->command[k]);
    }
  return TRUE;
}

static gboolean
compute (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *trials,
         const NbCatalogue *lang, NbClause9283Figures *f, GError **error)
{
  g_autofree NbPose6 *a = g_new (NbPose6, trials->len), *b = g_new (NbPose6, trials->len);
  const NbIso9283Trial *first = trials->pdata[0];
  NbPose6 c1, c2;
  NbIso9283Distance r;
  double *v;

  for (guint j = 0; j < trials->len; j++)
    {
      const NbIso9283Trial *t = trials->pdata[j];

      if (t->data->len != 12 || !nb_clause_9283_unpack_pose (t->data, 0, &a[j]) ||
          !nb_clause_9283_unpack_pose (t->data, 1, &b[j]))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "cycle %u does not hold two poses",
                       t->cycle);
          return FALSE;
        }
    }
  if (!nb_clause_9283_unpack_pose (first->command, 0, &c1) ||
      !nb_clause_9283_unpack_pose (first->command, 1, &c2))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "no command poses");
      return FALSE;
    }
  if (!nb_iso9283_distance (&c1, &c2, a, b, trials->len, &r, error))
    return FALSE;
  nb_clause_9283_figures_alloc (f, clause, 1);
  f->labels[0] = g_strdup ("P2–P4");
  v = f->values;
  v[0] = r.ad_mm;
  v[1] = r.rd_mm;
  memcpy (&v[2], r.ad_xyz_mm, sizeof r.ad_xyz_mm);
  memcpy (&v[5], r.ad_abc_deg, sizeof r.ad_abc_deg);
  v[8] = r.rd_abc_deg[0];
  f->note = g_strdup_printf (nb_ptr (lang, "iso9283", "D_c = %.3f mm"), r.d_command_mm);
  return TRUE;
}

const NbClause9283 nb_clause_9283_distance = {
  .key = "distance",
  .clause = "7.3",
  .title = NC_ ("iso9283", "Distance accuracy and distance repeatability"),
  .cycles = 30,
  .speeds = NB_9283_ALL_SPEEDS,
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .prepare = prepare,
  .run_cycle = run_cycle,
  .compute = compute,
};
