/* nb-clause-9283-pose.c — ISO 9283 7.2: pose accuracy and repeatability (AP, RP) and
 * multi-directional pose accuracy variation (vAP)
 *
 * 7.2 / 6.8: the cycle P1 → P5 → P4 → P3 → P2 → P1 with unidirectional
 * approach, the attained pose measured after every goal, 30 cycles (6.9).
 * vAP: P1, P2 and P4 (the poses ISO 9283 tests it at, as read in
 * docs/iso9283.md), each approached along the three axes of the base frame
 * from a point 10 % of the cube's edge away on the cube's inner side, 30
 * cycles.
 */
#include "nb-clause-9283.h"

#include "nb-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* ---------------------------------------------------------- AP and RP -- */

static const NbClause9283Column pose_columns[] = {
  { "ap_mm", "AP_P", "mm", 3 },
  { "ap_x_mm", "AP_x", "mm", 3 },
  { "ap_y_mm", "AP_y", "mm", 3 },
  { "ap_z_mm", "AP_z", "mm", 3 },
  { "rp_mm", "RP_l", "mm", 3 },
  { "ap_a_deg", "AP_a", "°", 4 },
  { "ap_b_deg", "AP_b", "°", 4 },
  { "ap_c_deg", "AP_c", "°", 4 },
  { "rp_a_deg", "RP_a (±)", "°", 4 },
  { "rp_b_deg", "RP_b (±)", "°", 4 },
  { "rp_c_deg", "RP_c (±)", "°", 4 },
};

gboolean
nb_clause_9283_pose_prepare (const NbClause9283 *clause, NbIso9283Rig *rig,
                             const NbIso9283PlanEntry *e, NbClause9283Goals *c, GError **error)
{
  /* The cycle's order: P5, P4, P3, P2, P1 (nb_iso9283_cycle_pose). */
  for (guint k = 1; k <= NB_ISO9283_POSES; k++)
    nb_clause_9283_add_goal (c, rig->q[k == NB_ISO9283_POSES ? 0 : nb_iso9283_cycle_pose (k)],
                             TRUE);
  c->pre = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_vals (c->pre, rig->q[0], NB_ARM_JOINTS);
  for (guint i = 0; i < NB_ISO9283_POSES; i++)
    nb_clause_9283_command (rig, i, &c->command[i]);
  c->n_command = NB_ISO9283_POSES;
  return nb_clause_9283_check (rig, c, error);
}

gboolean
nb_clause_9283_pose_cycle (const NbClause9283 *clause, NbIso9283Rig *rig,
                           const NbIso9283PlanEntry *e, NbClause9283Goals *c, guint number,
                           NbIso9283Trial *t, GError **error)
{
  NbPose6 attained[NB_ISO9283_POSES];

  for (guint k = 1; k <= NB_ISO9283_POSES; k++)
    {
      guint pose = k == NB_ISO9283_POSES ? 0 : nb_iso9283_cycle_pose (k);

      if (!nb_iso9283_rig_goal (rig, rig->q[pose], TRUE, &attained[pose], error))
        return FALSE;
    }
  for (guint i = 0; i < NB_ISO9283_POSES; i++)
    {
      nb_clause_9283_pack_pose (t->command, &c->command[i]);
      nb_clause_9283_pack_pose (t->data, &attained[i]);
    }
  return TRUE;
}

/* The attained poses of pose k over the trials (each holding `per` poses). */
static GArray *
gather (GPtrArray *trials, guint k, guint per, GError **error)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (NbPose6));

  for (guint j = 0; j < trials->len; j++)
    {
      const NbIso9283Trial *t = trials->pdata[j];
      NbPose6 p;

      if (t->data->len != per * 6 || !nb_clause_9283_unpack_pose (t->data, k, &p))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "cycle %u holds %u values, not %u",
                       t->cycle, t->data->len, per * 6);
          g_array_unref (out);
          return NULL;
        }
      g_array_append_val (out, p);
    }
  return out;
}

static gboolean
pose_compute (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *trials,
              const NbCatalogue *lang, NbClause9283Figures *f, GError **error)
{
  const NbIso9283Trial *first = trials->pdata[0];

  nb_clause_9283_figures_alloc (f, clause, NB_ISO9283_POSES);
  for (guint i = 0; i < NB_ISO9283_POSES; i++)
    {
      g_autoptr (GArray) a = gather (trials, i, NB_ISO9283_POSES, error);
      double *v = &f->values[i * clause->n_columns];
      NbPose6 command;
      NbIso9283Pose r;

      f->labels[i] = g_strdup_printf ("P%u", i + 1);
      if (a == NULL || !nb_clause_9283_unpack_pose (first->command, i, &command) ||
          !nb_iso9283_pose (&command, (NbPose6 *) a->data, a->len, &r, error))
        {
          if (error && *error == NULL)
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "P%u: no command pose", i + 1);
          g_prefix_error (error, "P%u: ", i + 1);
          return FALSE;
        }
      v[0] = r.ap_mm;
      memcpy (&v[1], r.ap_xyz_mm, sizeof r.ap_xyz_mm);
      v[4] = r.rp_mm;
      memcpy (&v[5], r.ap_abc_deg, sizeof r.ap_abc_deg);
      memcpy (&v[8], r.rp_abc_deg, sizeof r.rp_abc_deg);
    }
  return TRUE;
}

const NbClause9283 nb_clause_9283_pose = {
  .key = "pose",
  .clause = "7.2",
  .title = NC_ ("iso9283", "Pose accuracy and pose repeatability"),
  .cycles = 30,
  .speeds = NB_9283_ALL_SPEEDS,
  .columns = pose_columns,
  .n_columns = G_N_ELEMENTS (pose_columns),
  .prepare = nb_clause_9283_pose_prepare,
  .run_cycle = nb_clause_9283_pose_cycle,
  .compute = pose_compute,
};

/* ---------------------------------------------------------------- vAP -- */

static const guint vap_poses[3] = { 0, 1, 3 };  /* P1, P2, P4 */

static const NbClause9283Column vap_columns[] = {
  { "vap_mm", "vAP_P", "mm", 3 },
  { "vap_a_deg", "vAP_a", "°", 4 },
  { "vap_b_deg", "vAP_b", "°", 4 },
  { "vap_c_deg", "vAP_c", "°", 4 },
};

static gboolean
vap_prepare (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
             NbClause9283Goals *c, GError **error)
{
  const double d = 0.1 * rig->cube.edge_mm;

  for (guint i = 0; i < 3; i++)
    {
      guint pose = vap_poses[i];

      nb_clause_9283_command (rig, pose, &c->command[i]);
      for (guint h = 0; h < 3; h++)
        {
          double p[3], T[16], q[NB_ARM_JOINTS];
          double side = rig->cube.p_mm[0][h] - rig->cube.p_mm[pose][h];

          /* The approach along axis h, from inside the cube. */
          memcpy (p, rig->cube.p_mm[pose], sizeof p);
          p[h] += (side < 0 ? -1 : 1) * d;
          nb_iso9283_cube_target (&rig->cube, p, T);
          if (!nb_arm_ik (&rig->model, T, rig->q[pose], q, error))
            {
              g_prefix_error (error, "vAP: the approach to P%u along %c: ", pose + 1, "xyz"[h]);
              return FALSE;
            }
          nb_clause_9283_add_goal (c, q, FALSE);
          nb_clause_9283_add_goal (c, rig->q[pose], TRUE);
        }
    }
  c->n_command = 3;
  return nb_clause_9283_check (rig, c, error);
}

static gboolean
vap_cycle (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
           NbClause9283Goals *c, guint number, NbIso9283Trial *t, GError **error)
{
  for (guint k = 0; k < c->measured->len; k++)
    {
      gboolean m = g_array_index (c->measured, gboolean, k);
      NbPose6 p;

      if (!nb_iso9283_rig_goal (rig, &g_array_index (c->goals, double, k * NB_ARM_JOINTS), m, &p,
                                error))
        return FALSE;
      if (m)
        nb_clause_9283_pack_pose (t->data, &p);
    }
  for (guint i = 0; i < 3; i++)
    nb_clause_9283_pack_pose (t->command, &c->command[i]);
  return TRUE;
}

static gboolean
vap_compute (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *trials,
             const NbCatalogue *lang, NbClause9283Figures *f, GError **error)
{
  const NbIso9283Trial *first = trials->pdata[0];

  nb_clause_9283_figures_alloc (f, clause, 3);
  for (guint i = 0; i < 3; i++)
    {
      GArray *a[3] = { NULL };
      const NbPose6 *pa[3];
      gsize n[3];
      NbPose6 command;
      NbIso9283Vap r;
      gboolean ok = nb_clause_9283_unpack_pose (first->command, i, &command);
      double *v = &f->values[i * clause->n_columns];

      f->labels[i] = g_strdup_printf ("P%u", vap_poses[i] + 1);
      for (guint h = 0; h < 3 && ok; h++)
        {
          ok = (a[h] = gather (trials, i * 3 + h, 9, error)) != NULL;
          if (ok)
            pa[h] = (const NbPose6 *) a[h]->data, n[h] = a[h]->len;
        }
      ok = ok && nb_iso9283_vap (&command, pa, n, 3, &r, error);
      for (guint h = 0; h < 3; h++)
        if (a[h])
          g_array_unref (a[h]);
      if (!ok)
        {
          g_prefix_error (error, "P%u: ", vap_poses[i] + 1);
          return FALSE;
        }
      v[0] = r.vap_mm;
      memcpy (&v[1], r.vap_abc_deg, sizeof r.vap_abc_deg);
    }
  return TRUE;
}

const NbClause9283 nb_clause_9283_vap = {
  .key = "vap",
  .clause = "7.2",
  .title = NC_ ("iso9283", "Multi-directional pose accuracy variation"),
  .cycles = 30,
  .speeds = NB_9283_ALL_SPEEDS,
  .columns = vap_columns,
  .n_columns = G_N_ELEMENTS (vap_columns),
  .prepare = vap_prepare,
  .run_cycle = vap_cycle,
  .compute = vap_compute,
};
