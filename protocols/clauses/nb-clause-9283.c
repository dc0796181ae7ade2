/* nb-clause-9283.c — the registry of ISO 9283's clause modules and what they share
 * (see nb-clause-9283.h) */
#include "nb-clause-9283.h"

#include "nb-error.h"

#include <math.h>
#include <string.h>

/* Adding a characteristic: its file in protocols/clauses/, its line here. */
static const NbClause9283 *const registry[] = {
  &nb_clause_9283_pose,
  &nb_clause_9283_vap,
  &nb_clause_9283_distance,
  &nb_clause_9283_stabilisation,
  &nb_clause_9283_drift,
  &nb_clause_9283_exchangeability,
  &nb_clause_9283_path_line,
  &nb_clause_9283_path_large_circle,
  &nb_clause_9283_path_small_circle,
  &nb_clause_9283_path_reorientation,
  &nb_clause_9283_corner,
  &nb_clause_9283_weaving,
  &nb_clause_9283_positioning,
  &nb_clause_9283_compliance,
};

const NbClause9283 *const *
nb_clause_9283_registry (guint *n)
{
  *n = G_N_ELEMENTS (registry);
  return registry;
}

const NbClause9283 *
nb_clause_9283_lookup (const char *key)
{
  for (guint i = 0; key != NULL && i < G_N_ELEMENTS (registry); i++)
    if (g_str_equal (registry[i]->key, key))
      return registry[i];
  return NULL;
}

static void
add_entry (GArray *out, const NbClause9283 *c, double speed, const char *load, double duration_s)
{
  NbIso9283PlanEntry e = {
    .characteristic = g_strdup (c->key),
    .config = g_strdup_printf ("%s-%s-%.0f", c->key, g_str_equal (load, "rated") ? "rated"
                                                                                 : "10pct", speed),
    .speed_pct = speed,
    .load = g_strdup (load),
    .cycles = c->cycles * MAX (1, c->units),
    .duration_s = duration_s,
    .in_scope = TRUE,
  };

  g_array_append_val (out, e);
}

GArray *
nb_clause_9283_plan (double drift_s)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (NbIso9283PlanEntry));

  g_array_set_clear_func (out, (GDestroyNotify) nb_iso9283_plan_entry_clear);
  for (guint i = 0; i < G_N_ELEMENTS (registry); i++)
    {
      const NbClause9283 *c = registry[i];

      if (c->speeds == NB_9283_RATED_ONLY)
        {
          add_entry (out, c, 100, "rated", g_str_equal (c->key, "drift") ? drift_s : NAN);
          continue;
        }
      /* 6.6, 6.7 (docs/iso9283.md): rated load at 100, 50 and 10 % of the
       * rated speed, and 10 % of the rated load at 100 %. */
      add_entry (out, c, 100, "rated", NAN);
      add_entry (out, c, 50, "rated", NAN);
      add_entry (out, c, 10, "rated", NAN);
      add_entry (out, c, 100, "10%", NAN);
    }
  return out;
}

/* ------------------------------------------------------------ figures -- */

void
nb_clause_9283_figures_clear (NbClause9283Figures *f)
{
  if (f->labels != NULL)
    for (guint i = 0; i < f->n_rows; i++)
      g_free (f->labels[i]);
  g_clear_pointer (&f->labels, g_free);
  g_clear_pointer (&f->values, g_free);
  g_clear_pointer (&f->note, g_free);
  g_clear_pointer (&f->error, g_free);
  f->n_rows = 0;
}

void
nb_clause_9283_figures_alloc (NbClause9283Figures *f, const NbClause9283 *clause, guint n_rows)
{
  f->n_rows = n_rows;
  f->labels = g_new0 (char *, n_rows);
  f->values = g_new (double, (gsize) n_rows * clause->n_columns);
  for (gsize i = 0; i < (gsize) n_rows * clause->n_columns; i++)
    f->values[i] = NAN;
}

void
nb_clause_9283_pack_pose (GArray *v, const NbPose6 *p)
{
  const double d[6] = { p->x_mm, p->y_mm, p->z_mm, p->a_deg, p->b_deg, p->c_deg };

  g_array_append_vals (v, d, 6);
}

gboolean
nb_clause_9283_unpack_pose (const GArray *v, guint k, NbPose6 *p)
{
  const double *d;

  if (v == NULL || (k + 1) * 6 > v->len)
    return FALSE;
  d = &g_array_index (v, double, k * 6);
  *p = (NbPose6) { d[0], d[1], d[2], d[3], d[4], d[5] };
  return TRUE;
}

void
nb_clause_9283_goals_clear (NbClause9283Goals *c)
{
  g_clear_pointer (&c->goals, g_array_unref);
  g_clear_pointer (&c->measured, g_array_unref);
  g_clear_pointer (&c->pre, g_array_unref);
  g_clear_pointer (&c->segment_s, g_array_unref);
}

gboolean
nb_clause_9283_compute (NbCampaign *campaign, const NbIso9283PlanEntry *entry,
                        NbClause9283Figures *figures, GError **error)
{
  return nb_clause_9283_compute_in (campaign, entry, NULL, figures, error);
}

gboolean
nb_clause_9283_compute_in (NbCampaign *campaign, const NbIso9283PlanEntry *entry,
                           const NbCatalogue *lang, NbClause9283Figures *figures, GError **error)
{
  const NbClause9283 *clause = nb_clause_9283_lookup (entry->characteristic);
  g_autoptr (GPtrArray) trials = NULL;
  g_autoptr (GError) local = NULL;

  memset (figures, 0, sizeof *figures);
  if (clause == NULL)
    {
      figures->error = g_strdup_printf ("the characteristic '%s' is not known to this navbench",
                                        entry->characteristic);
      return TRUE;
    }
  if ((trials = nb_campaign_iso9283_trials (campaign, entry->config, error)) == NULL)
    return FALSE;
  figures->cycles = trials->len;
  if (trials->len == 0)
    {
      figures->error = g_strdup ("no cycle recorded");
      return TRUE;
    }
  if (!clause->compute (clause, entry, trials, lang, figures, &local))
    {
      nb_clause_9283_figures_clear (figures);
      figures->cycles = trials->len;
      figures->error = g_strdup (local ? local->message : "?");
    }
  return TRUE;
}

void
nb_clause_9283_figures_json (NbJsonWriter *w, const NbClause9283 *clause,
                             const NbClause9283Figures *f)
{
  nb_json_key (w, "cycles"); nb_json_int (w, f->cycles);
  nb_json_key (w, "error");
  if (f->error)
    nb_json_string (w, f->error);
  else
    nb_json_null (w);
  nb_json_key (w, "note");
  if (f->note)
    nb_json_string (w, f->note);
  else
    nb_json_null (w);
  nb_json_key (w, "rows");
  nb_json_begin_array (w);
  for (guint r = 0; r < f->n_rows; r++)
    {
      nb_json_begin_object (w);
      nb_json_key (w, "label"); nb_json_string (w, f->labels[r]);
      for (guint k = 0; k < clause->n_columns; k++)
        {
          double v = f->values[r * clause->n_columns + k];

          nb_json_key (w, clause->columns[k].key);
          if (isfinite (v))
            nb_json_double (w, v);
          else
            nb_json_null (w);
        }
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
}

char *
nb_clause_9283_figures_text (const NbClause9283 *clause, const NbClause9283Figures *f)
{
  GString *s = g_string_new (NULL);

  if (f->error)
    {
      g_string_append_printf (s, "cannot be computed: %s", f->error);
      return g_string_free (s, FALSE);
    }
  for (guint r = 0; r < f->n_rows; r++)
    {
      g_string_append_printf (s, "%s%s:", r ? "; " : "", f->labels[r]);
      for (guint k = 0; k < clause->n_columns; k++)
        {
          const NbClause9283Column *c = &clause->columns[k];
          double v = f->values[r * clause->n_columns + k];

          if (isfinite (v))
            g_string_append_printf (s, " %s %.*f%s%s", c->title, (int) c->decimals, v,
                                    c->unit ? " " : "", c->unit ? c->unit : "");
          else
            g_string_append_printf (s, " %s —", c->title);
        }
    }
  return g_string_free (s, FALSE);
}

gboolean
nb_clause_9283_results_json (NbJsonWriter *w, NbCampaign *campaign, guint *n_configs,
                             GError **error)
{
  g_autoptr (GArray) plan = nb_campaign_iso9283_plan_list (campaign, error);

  *n_configs = 0;
  if (plan == NULL)
    return FALSE;
  nb_json_begin_array (w);
  for (guint i = 0; i < plan->len; i++)
    {
      const NbIso9283PlanEntry *e = &g_array_index (plan, NbIso9283PlanEntry, i);
      const NbClause9283 *clause = nb_clause_9283_lookup (e->characteristic);
      NbClause9283Figures f;
      guint n;

      if (!nb_campaign_iso9283_count_trials (campaign, e->config, &n, error))
        return FALSE;
      if (n == 0 || clause == NULL)
        continue;
      if (!nb_clause_9283_compute (campaign, e, &f, error))
        return FALSE;
      nb_json_begin_object (w);
      nb_json_key (w, "config"); nb_json_string (w, e->config);
      nb_json_key (w, "characteristic"); nb_json_string (w, e->characteristic);
      nb_json_key (w, "clause"); nb_json_string (w, clause->clause);
      nb_json_key (w, "of"); nb_json_int (w, e->cycles);
      nb_clause_9283_figures_json (w, clause, &f);
      nb_json_end_object (w);
      nb_clause_9283_figures_clear (&f);
      (*n_configs)++;
    }
  nb_json_end_array (w);
  return TRUE;
}

gboolean
nb_clause_9283_results_text (GString *out, NbCampaign *campaign, GHashTable *only,
                             guint *n_configs, GError **error)
{
  g_autoptr (GArray) plan = nb_campaign_iso9283_plan_list (campaign, error);

  *n_configs = 0;
  if (plan == NULL)
    return FALSE;
  for (guint i = 0; i < plan->len; i++)
    {
      const NbIso9283PlanEntry *e = &g_array_index (plan, NbIso9283PlanEntry, i);
      const NbClause9283 *clause = nb_clause_9283_lookup (e->characteristic);
      NbClause9283Figures f;
      g_autofree char *text = NULL;
      guint n;

      if (clause == NULL || (only != NULL && !g_hash_table_contains (only, e->config)))
        continue;
      if (!nb_campaign_iso9283_count_trials (campaign, e->config, &n, error))
        return FALSE;
      if (n == 0)
        continue;
      if (!nb_clause_9283_compute (campaign, e, &f, error))
        return FALSE;
      text = nb_clause_9283_figures_text (clause, &f);
      g_string_append_printf (out, "%s (%s): %s\n", e->config, clause->clause, text);
      nb_clause_9283_figures_clear (&f);
      (*n_configs)++;
    }
  return TRUE;
}

gboolean
nb_clause_9283_check (const NbIso9283Rig *rig, const NbClause9283Goals *c, GError **error)
{
  for (guint k = 0; c->pre != NULL && k < c->pre->len / NB_ARM_JOINTS; k++)
    if (!nb_arm_check_joints (&rig->model, &g_array_index (c->pre, double, k * NB_ARM_JOINTS),
                              error))
      {
        g_prefix_error (error, "the way to the cycle's start, goal %u: ", k + 1);
        return FALSE;
      }
  for (guint k = 0; c->goals != NULL && k < c->goals->len / NB_ARM_JOINTS; k++)
    if (!nb_arm_check_joints (&rig->model, &g_array_index (c->goals, double, k * NB_ARM_JOINTS),
                              error))
      {
        g_prefix_error (error, "goal %u of the cycle: ", k + 1);
        return FALSE;
      }
  return TRUE;
}

void
nb_clause_9283_add_goal (NbClause9283Goals *c, const double q[NB_ARM_JOINTS], gboolean measured)
{
  if (c->goals == NULL)
    {
      c->goals = g_array_new (FALSE, FALSE, sizeof (double));
      c->measured = g_array_new (FALSE, FALSE, sizeof (gboolean));
    }
  g_array_append_vals (c->goals, q, NB_ARM_JOINTS);
  g_array_append_val (c->measured, measured);
}

void
nb_clause_9283_command (const NbIso9283Rig *rig, guint i, NbPose6 *p)
{
  const NbIso9283Cube *c = &rig->cube;

  *p = (NbPose6) { c->p_mm[i][0], c->p_mm[i][1], c->p_mm[i][2], c->abc_deg[0], c->abc_deg[1],
                   c->abc_deg[2] };
}

gboolean
nb_clause_9283_stream_check (const NbIso9283Rig *rig, const char *clause, GError **error)
{
  guint n = rig->stream_t_s ? rig->stream_t_s->len : 0;

  if (n >= 10)
    return TRUE;
  g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: the stream of goal %u holds %u samples: "
               "the motion was not watched (a served arm that moves in no time, serve "
               "--time-scale 0?)", clause, rig->goals, n);
  return FALSE;
}
