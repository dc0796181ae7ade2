/* nb-clause-9283-drift.c — ISO 9283 7.6: drift of pose characteristics (dAP, dRP)
 *
 * A long run (6.9: 8 h, the plan's duration) cycling P1 → P5 → P4 → P3 →
 * P2 → P1 without stop; groups of ten cycles measured at P1 at the start,
 * then at equal intervals to the end (the plan's cycles: nine groups, one an
 * hour).  dAP = |AP_t=1 − AP_t=T|, dRP = |RP_t=1 − RP_t=T| from the first
 * and the last group (docs/iso9283.md).  Between the groups the arm keeps
 * cycling unmeasured (the simulated one without its tracker and servo
 * model, which only the measured cycles need).  A run resumed after a kill
 * measures its next group an interval after the last stored one began (on
 * the simulated arm, whose clock goes on from the last cycle's end).
 */
#include "nb-clause-9283.h"

#include "nb-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define GROUP_CYCLES 10

static const NbClause9283Column columns[] = {
  { "dap_mm", "dAP", "mm", 4 },
  { "drp_mm", "dRP", "mm", 4 },
  { "dap_a_deg", "dAP_a", "°", 4 },
  { "dap_b_deg", "dAP_b", "°", 4 },
  { "dap_c_deg", "dAP_c", "°", 4 },
  { "ap_first_mm", "AP_P (t = 1)", "mm", 4 },
  { "ap_last_mm", "AP_P (t = T)", "mm", 4 },
};

static gboolean
prepare (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
         NbClause9283Goals *c, GError **error)
{
  for (guint k = 1; k <= NB_ISO9283_POSES; k++)
    nb_clause_9283_add_goal (c, rig->q[k == NB_ISO9283_POSES ? 0 : nb_iso9283_cycle_pose (k)],
                             k == NB_ISO9283_POSES);
  c->pre = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_vals (c->pre, rig->q[0], NB_ARM_JOINTS);
  nb_clause_9283_command (rig, 0, &c->command[0]);
  c->n_command = 1;
  if (!(e->duration_s > 0) || e->cycles < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "drift: the plan gives no duration or fewer "
                   "than two groups");
      return FALSE;
    }
  c->interval_s = e->duration_s / (e->cycles - 1);
  c->t_next_s = NAN;
  return nb_clause_9283_check (rig, c, error);
}

static gboolean
one_cycle (NbIso9283Rig *rig, NbClause9283Goals *c, gboolean measured, NbPose6 *p, GError **error)
{
  for (guint k = 0; k < c->measured->len; k++)
    if (!nb_iso9283_rig_goal (rig, &g_array_index (c->goals, double, k * NB_ARM_JOINTS),
                              measured && g_array_index (c->measured, gboolean, k), p, error))
      return FALSE;
  return TRUE;
}

static gboolean
run_cycle (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
           NbClause9283Goals *c, guint number, NbIso9283Trial *t, GError **error)
{
  double when[1];

  /* Cycling on, unmeasured, until the group is due. */
  if (!isnan (c->t_next_s))
    {
      nb_iso9283_rig_tracker (rig, FALSE);
      nb_iso9283_rig_servo (rig, FALSE);
      while (nb_iso9283_rig_clock (rig) < c->t_next_s)
        if (!one_cycle (rig, c, FALSE, NULL, error))
          return FALSE;
      nb_iso9283_rig_servo (rig, TRUE);
      nb_iso9283_rig_tracker (rig, TRUE);
    }
  when[0] = nb_iso9283_rig_clock (rig);
  for (guint j = 0; j < GROUP_CYCLES; j++)
    {
      NbPose6 p;

      if (!one_cycle (rig, c, TRUE, &p, error))
        return FALSE;
      nb_clause_9283_pack_pose (t->data, &p);
    }
  c->t_next_s = when[0] + c->interval_s;
  nb_clause_9283_pack_pose (t->command, &c->command[0]);
  g_array_append_vals (t->command, when, 1);
  return TRUE;
}

/* The next group is due an interval after the last one stored began. */
static void
resume (const NbClause9283 *clause, NbClause9283Goals *c, const NbIso9283Trial *last)
{
  if (last->command->len == 7)
    c->t_next_s = g_array_index (last->command, double, 6) + c->interval_s;
}

static gboolean
group_pose (const NbIso9283Trial *t, NbIso9283Pose *r, GError **error)
{
  NbPose6 command;

  if (t->data->len != GROUP_CYCLES * 6 || !nb_clause_9283_unpack_pose (t->command, 0, &command))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "group %u does not hold %u poses", t->cycle,
                   GROUP_CYCLES);
      return FALSE;
    }
  return nb_iso9283_pose (&command, (const NbPose6 *) t->data->data, GROUP_CYCLES, r, error);
}

static gboolean
compute (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *trials,
         const NbCatalogue *lang, NbClause9283Figures *f, GError **error)
{
  const NbIso9283Trial *first = trials->pdata[0], *last = trials->pdata[trials->len - 1];
  NbIso9283Pose a, b;
  NbIso9283Drift d;

  if (trials->len < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "one group only: drift needs the first and "
                   "the last");
      return FALSE;
    }
  if (!group_pose (first, &a, error) || !group_pose (last, &b, error))
    return FALSE;
  nb_iso9283_drift (&a, &b, &d);
  nb_clause_9283_figures_alloc (f, clause, 1);
  f->labels[0] = g_strdup ("P1");
  f->values[0] = d.dap_mm;
  f->values[1] = d.drp_mm;
  memcpy (&f->values[2], d.dap_abc_deg, sizeof d.dap_abc_deg);
  f->values[5] = a.ap_mm;
  f->values[6] = b.ap_mm;
  if (first->command->len == 7 && last->command->len == 7)
    {
      double h = (g_array_index (last->command, double, 6) -
                  g_array_index (first->command, double, 6)) / 3600.0;

      f->note = g_strdup_printf (nb_ptr (lang, "iso9283", "%u groups of %u cycles over %.2f h"),
                                 trials->len, GROUP_CYCLES, h);
    }
  return TRUE;
}

const NbClause9283 nb_clause_9283_drift = {
  .key = "drift",
  .clause = "7.6",
  .title = NC_ ("iso9283", "Drift of pose characteristics"),
  .cycles = 9,
  .speeds = NB_9283_RATED_ONLY,
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .prepare = prepare,
  .run_cycle = run_cycle,
  .resume = resume,
  .compute = compute,
};
