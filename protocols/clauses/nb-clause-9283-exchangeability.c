/* nb-clause-9283-exchangeability.c — ISO 9283 7.7: exchangeability
 *
 * As read in docs/iso9283.md: several robots of one type, exchanged under
 * the same conditions (the same mounting, cube, task program, rated load
 * and 100 % of the rated velocity), each running the pose test's cycle
 * P1 → P5 → P4 → P3 → P2 → P1 with unidirectional approach for 30 cycles
 * (6.9); at each test pose E is the largest distance between two robots'
 * barycentres (nb_iso9283_exchangeability), with the pair.  A robot is the
 * run's unit (`campaign run --unit ID`: its serial number), else its robot
 * (the URL, "sim"); the plan's count is 30 cycles on each of two robots,
 * and more robots may be added (each runs its own 30).
 */
#include "nb-clause-9283.h"

#include "nb-error.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static const NbClause9283Column columns[] = {
  { "e_mm", "E", "mm", 3 },
  { "e_a_deg", "E_a", "°", 4 },
  { "e_b_deg", "E_b", "°", 4 },
  { "e_c_deg", "E_c", "°", 4 },
  { "robots", NC_ ("iso9283", "robots"), NULL, 0 },
};

/* The robot a trial was measured on: its unit, else its robot. */
static char *
trial_unit (const NbIso9283Trial *t)
{
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonNode *root, *unit;

  if (t->setup != NULL && json_parser_load_from_data (p, t->setup, -1, NULL) &&
      (root = json_parser_get_root (p)) != NULL && JSON_NODE_HOLDS_OBJECT (root) &&
      (unit = json_object_get_member (json_node_get_object (root), "unit")) != NULL &&
      JSON_NODE_HOLDS_VALUE (unit) && json_node_get_value_type (unit) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (unit));
  return g_strdup (t->robot ? t->robot : "?");
}

static guint
to_run (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *stored,
        const NbIso9283Rig *rig)
{
  const char *me = rig->unit ? rig->unit : rig->robot_name;
  guint mine = 0;

  for (guint j = 0; j < stored->len; j++)
    {
      g_autofree char *u = trial_unit (stored->pdata[j]);

      mine += g_strcmp0 (u, me) == 0;
    }
  return mine >= clause->cycles ? 0 : clause->cycles - mine;
}

static gboolean
compute (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *trials,
         const NbCatalogue *lang, NbClause9283Figures *f, GError **error)
{
  g_autoptr (GPtrArray) units = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) of = g_array_new (FALSE, FALSE, sizeof (guint));
  const NbIso9283Trial *first = trials->pdata[0];
  g_autoptr (GString) note = g_string_new (NULL);
  guint worst_pose = 0;
  double worst = -1;
  NbIso9283Exchangeability worst_r = { 0 };

  /* The robots in the order they were first measured. */
  for (guint j = 0; j < trials->len; j++)
    {
      char *u = trial_unit (trials->pdata[j]);
      guint h;

      for (h = 0; h < units->len && !g_str_equal (units->pdata[h], u); h++)
        ;
      if (h == units->len)
        g_ptr_array_add (units, u);
      else
        g_free (u);
      g_array_append_val (of, h);
    }
  if (units->len < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "7.7 compares robots of one type: only '%s' "
                   "is measured (campaign run --unit ID on another)",
                   (const char *) units->pdata[0]);
      return FALSE;
    }
  nb_clause_9283_figures_alloc (f, clause, NB_ISO9283_POSES);
  for (guint i = 0; i < NB_ISO9283_POSES; i++)
    {
      g_autofree GArray **per = g_new0 (GArray *, units->len);
      g_autofree const NbPose6 **ptr = g_new0 (const NbPose6 *, units->len);
      g_autofree gsize *n = g_new0 (gsize, units->len);
      double *v = &f->values[i * clause->n_columns];
      NbIso9283Exchangeability r;
      NbPose6 command;
      gboolean ok = TRUE;

      f->labels[i] = g_strdup_printf ("P%u", i + 1);
      for (guint h = 0; h < units->len; h++)
        per[h] = g_array_new (FALSE, FALSE, sizeof (NbPose6));
      for (guint j = 0; ok && j < trials->len; j++)
        {
          const NbIso9283Trial *t = trials->pdata[j];
          NbPose6 p;

          if (t->data->len != NB_ISO9283_POSES * 6 || !nb_clause_9283_unpack_pose (t->data, i, &p))
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "cycle %u holds %u values, not %u",
                           t->cycle, t->data->len, NB_ISO9283_POSES * 6);
              ok = FALSE;
              break;
            }
          g_array_append_val (per[g_array_index (of, guint, j)], p);
        }
      for (guint h = 0; h < units->len; h++)
        {
          ptr[h] = (const NbPose6 *) per[h]->data;
          n[h] = per[h]->len;
        }
      if (ok && !nb_clause_9283_unpack_pose (first->command, i, &command))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "no command pose");
          ok = FALSE;
        }
      ok = ok && nb_iso9283_exchangeability (&command, ptr, n, units->len, &r, error);
      for (guint h = 0; h < units->len; h++)
        g_array_unref (per[h]);
      if (!ok)
        {
          g_prefix_error (error, "P%u: ", i + 1);
          return FALSE;
        }
      v[0] = r.e_mm;
      memcpy (&v[1], r.e_abc_deg, sizeof r.e_abc_deg);
      v[4] = units->len;
      if (r.e_mm > worst)
        {
          worst = r.e_mm;
          worst_pose = i;
          worst_r = r;
        }
    }
  g_string_append (note, nb_ptr (lang, "iso9283", "robots: "));
  for (guint h = 0; h < units->len; h++)
    g_string_append_printf (note, "%s%s", h ? ", " : "", (const char *) units->pdata[h]);
  g_string_append_printf (note, nb_ptr (lang, "iso9283", "; the largest E at P%u, between %s and %s"),
                          worst_pose + 1, (const char *) units->pdata[worst_r.robot_a],
                          (const char *) units->pdata[worst_r.robot_b]);
  f->note = g_string_free (g_steal_pointer (&note), FALSE);
  return TRUE;
}

const NbClause9283 nb_clause_9283_exchangeability = {
  .key = "exchangeability",
  .clause = "7.7",
  .title = NC_ ("iso9283", "Exchangeability"),
  .cycles = 30,
  .units = 2,
  .speeds = NB_9283_RATED_ONLY,
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  /* The pose test's cycle, on each robot. */
  .prepare = nb_clause_9283_pose_prepare,
  .run_cycle = nb_clause_9283_pose_cycle,
  .to_run = to_run,
  .compute = compute,
};
