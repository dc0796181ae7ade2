/* nb-clause-9283-compliance.c — ISO 9283 clause 10: static compliance
 *
 * The arm at P1 (without its payload: the loading device applies the
 * force); a force at the TCP parallel to each axis of the base frame, + and
 * −, raised in steps of 10 % up to the rated load's weight (rated load × g),
 * the attained pose measured at each step; the compliance in each direction
 * is the displacement along the force per newton (the slope of a least
 * squares line through the steps, mm/N), with the displacement at the full
 * force.  Three cycles (6.9, as read in docs/iso9283.md).  The force is put
 * on the simulated true arm (NbSimArm.tcp_force_n): the in-process arm, or
 * the served arm's modelled geometry the simulated tracker watches over
 * HTTP (as the load is); the motion API drives no loading device, so a live
 * instrument on a real arm does not run it.
 */
#include "nb-clause-9283.h"

#include "nb-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define STEPS 10
#define SETTLE_S 0.25     /* the tracker's window (0.2 s) and a margin, at rest */

static const char *const directions[6] = { "+x", "−x", "+y", "−y", "+z", "−z" };

static const NbClause9283Column columns[] = {
  { "compliance_mm_n", NC_ ("iso9283", "compliance"), "mm/N", 6 },
  { "displacement_mm", NC_ ("iso9283", "displacement at F"), "mm", 4 },
  { "force_n", "F", "N", 1 },
};

static gboolean
prepare (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
         NbClause9283Goals *c, GError **error)
{
  const char *why = nb_iso9283_rig_lacks (rig, clause->needs);

  if (why != NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "10: %s", why);
      return FALSE;
    }
  nb_clause_9283_add_goal (c, rig->q[0], FALSE);
  nb_clause_9283_command (rig, 0, &c->command[0]);
  c->n_command = 1;
  return nb_clause_9283_check (rig, c, error);
}

static gboolean
run_cycle (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
           NbClause9283Goals *c, guint number, NbIso9283Trial *t, GError **error)
{
  NbSimArm *arm = rig->truth;
  double force = rig->rated_load_kg * 9.80665, payload = arm->payload_kg;
  gboolean ok = TRUE;

  /* The loading device holds the load: no payload on the flange. */
  arm->payload_kg = 0;
  ok = nb_iso9283_rig_goal (rig, rig->q[0], FALSE, NULL, error);
  for (guint d = 0; ok && d < 6; d++)
    for (guint s = 0; ok && s <= STEPS; s++)
      {
        NbPose6 p;

        memset (arm->tcp_force_n, 0, sizeof arm->tcp_force_n);
        arm->tcp_force_n[d / 2] = (d % 2 ? -1 : 1) * force * s / STEPS;
        /* The in-process arm settles on its clock; over HTTP the force acts
         * on the modelled geometry alone, at once (no wall time to wait). */
        if (rig->sim != NULL)
          rig->ops->wait (rig->robot, SETTLE_S);
        if ((ok = rig->measure (rig->measure_data, &p, error)))
          nb_clause_9283_pack_pose (t->data, &p);
      }
  memset (arm->tcp_force_n, 0, sizeof arm->tcp_force_n);
  arm->payload_kg = payload;
  nb_clause_9283_pack_pose (t->command, &c->command[0]);
  g_array_append_val (t->command, force);
  return ok;
}

static gboolean
compute (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *trials,
         const NbCatalogue *lang, NbClause9283Figures *f, GError **error)
{
  double slope[6] = { 0 }, at_full[6] = { 0 }, force = NAN;

  for (guint j = 0; j < trials->len; j++)
    {
      const NbIso9283Trial *t = trials->pdata[j];

      if (t->data->len != 6 * (STEPS + 1) * 6 || t->command->len != 7)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "cycle %u does not hold %u poses",
                       t->cycle, 6 * (STEPS + 1));
          return FALSE;
        }
      force = g_array_index (t->command, double, 6);
      for (guint d = 0; d < 6; d++)
        {
          double sign = d % 2 ? -1 : 1, sx = 0, sy = 0, sxx = 0, sxy = 0, n = STEPS + 1;
          NbPose6 p0;

          nb_clause_9283_unpack_pose (t->data, d * (STEPS + 1), &p0);
          for (guint s = 0; s <= STEPS; s++)
            {
              NbPose6 p;
              double x = force * s / STEPS, y;

              nb_clause_9283_unpack_pose (t->data, d * (STEPS + 1) + s, &p);
              /* The displacement along the force, from the unloaded pose. */
              y = sign * ((&p.x_mm)[d / 2] - (&p0.x_mm)[d / 2]);
              sx += x, sy += y, sxx += x * x, sxy += x * y;
              if (s == STEPS)
                at_full[d] += y / trials->len;
            }
          slope[d] += (n * sxy - sx * sy) / (n * sxx - sx * sx) / trials->len;
        }
    }
  nb_clause_9283_figures_alloc (f, clause, 6);
  for (guint d = 0; d < 6; d++)
    {
      f->labels[d] = g_strdup (directions[d]);
      f->values[d * clause->n_columns + 0] = slope[d];
      f->values[d * clause->n_columns + 1] = at_full[d];
      f->values[d * clause->n_columns + 2] = force;
    }
  f->note = g_strdup_printf (nb_ptr (lang, "iso9283", "P1, %u steps of 10 %% to %.1f N"), STEPS,
                             force);
  return TRUE;
}

const NbClause9283 nb_clause_9283_compliance = {
  .key = "compliance",
  .clause = "10",
  .title = NC_ ("iso9283", "Static compliance"),
  .cycles = 3,
  .speeds = NB_9283_RATED_ONLY,
  .needs = NB_ISO9283_NEEDS_FORCE,
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .prepare = prepare,
  .run_cycle = run_cycle,
  .compute = compute,
};
