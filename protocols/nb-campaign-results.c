#include "nb-campaign-results.h"

#include "nb-clause.h"
#include "nb-error.h"
#include "nb-unc-campaign.h"

gboolean
nb_campaign_trial_counts (guint clause, const NbCampaignTrial *t)
{
  const NbClause *c = nb_clause_lookup (clause);

  return c != NULL && c->counts (t);
}

void
nb_config_result_clear (gpointer p)
{
  NbConfigResult *r = p;

  g_free (r->config);
  g_free (r->error);
  if (r->detection.obstacles != NULL)
    nb_detection_result_clear (&r->detection);
  g_clear_pointer (&r->path_run, nb_path_run_free);
  g_clear_pointer (&r->d_mm, g_free);
  g_clear_pointer (&r->values, g_array_unref);
  g_clear_pointer (&r->numbers, g_array_unref);
  g_clear_pointer (&r->succeeded, g_array_unref);
  g_clear_pointer (&r->headings, g_array_unref);
  g_clear_pointer (&r->too_close, g_array_unref);
  g_clear_pointer (&r->start_off, g_array_unref);
  g_clear_pointer (&r->goal.config, g_free);
  g_clear_pointer (&r->goal_missed, g_array_unref);
  g_clear_pointer (&r->unc, nb_unc_budget_free);
  g_clear_pointer (&r->unc_error, g_free);
}

/* Computes r's figures from the counted trials; a failure of the figures
 * (too few trials, no sample on the segment) goes into r->error, a failure to
 * read the file into error. */
static gboolean
compute (NbCampaign *campaign, const NbCampaignConfig *c, NbConfigResult *r, gboolean budgets,
         GError **error)
{
  const NbClause *clause = nb_clause_lookup (c->clause);
  g_autoptr (GArray) all = NULL;
  g_autoptr (GPtrArray) trials = g_ptr_array_new ();
  g_autoptr (GError) figures = NULL;

  r->clause = c->clause;
  r->config = g_strdup (c->name);
  if (clause == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: configuration '%s' has clause %u, "
                   "not a test clause of ISO 18646-2", nb_campaign_get_path (campaign), c->name,
                   c->clause);
      return FALSE;
    }
  if ((all = nb_campaign_list_trials (campaign, c->id, error)) == NULL)
    return FALSE;
  g_array_set_clear_func (all, (GDestroyNotify) nb_campaign_trial_clear);
  for (guint i = 0; i < all->len; i++)
    {
      NbCampaignTrial *t = &g_array_index (all, NbCampaignTrial, i);

      if (clause->counts (t))
        g_ptr_array_add (trials, t);
    }
  if (!clause->compute (campaign, c, trials, r, &figures, error))
    return FALSE;
  if (figures != NULL)
    {
      r->error = g_strdup (figures->message);
      return TRUE;
    }
  /* #17: the uncertainty of the figures, from the same trials and the
   * campaign's stated inputs (a malformed field is the file's error). */
  if (budgets && clause->uncertainty != NULL)
    {
      g_autoptr (GError) local = NULL;
      NbUncSetup setup;
      gboolean enabled;

      if (!nb_unc_setup_from_campaign (campaign, &setup, &enabled, error))
        return FALSE;
      if (enabled)
        {
          r->unc = clause->uncertainty (&setup, c, trials, r, NB_UNC_CAMPAIGN_SEED, &local);
          if (local != NULL)
            r->unc_error = g_strdup (local->message);
        }
    }
  return TRUE;
}

gboolean
nb_config_result_compute (NbCampaign *campaign, const NbCampaignConfig *c, NbConfigResult *r,
                          GError **error)
{
  return compute (campaign, c, r, TRUE, error);
}

gboolean
nb_config_result_compute_figures (NbCampaign *campaign, const NbCampaignConfig *c,
                                  NbConfigResult *r, GError **error)
{
  return compute (campaign, c, r, FALSE, error);
}

/* ------------------------------------------------------ the campaign's -- */

void
nb_campaign_results_free (NbCampaignResults *results)
{
  if (results == NULL)
    return;
  for (guint i = 0; i < results->n_clauses; i++)
    g_clear_pointer (&results->clauses[i].results, g_array_unref);
  g_free (results->clauses);
  g_free (results);
}

NbCampaignResults *
nb_campaign_results_compute (NbCampaign *campaign, GError **error)
{
  g_autoptr (NbCampaignResults) all = g_new0 (NbCampaignResults, 1);
  const NbClause *const *registry = nb_clause_registry (&all->n_clauses);

  all->clauses = g_new0 (NbClauseResults, all->n_clauses);
  for (guint k = 0; k < all->n_clauses; k++)
    {
      NbClauseResults *cr = &all->clauses[k];
      g_autoptr (GArray) configs = nb_campaign_list_configs (campaign, registry[k]->number, error);

      cr->clause = registry[k]->number;
      cr->results = g_array_new (FALSE, TRUE, sizeof (NbConfigResult));
      g_array_set_clear_func (cr->results, nb_config_result_clear);
      if (configs == NULL)
        return NULL;
      g_array_set_clear_func (configs, (GDestroyNotify) nb_campaign_config_clear);
      g_array_set_size (cr->results, configs->len);
      for (guint i = 0; i < configs->len; i++)
        if (!nb_config_result_compute (campaign, &g_array_index (configs, NbCampaignConfig, i),
                                       &g_array_index (cr->results, NbConfigResult, i), error))
          return NULL;
    }
  return g_steal_pointer (&all);
}

static void
json_clause (NbJsonWriter *w, const NbClauseResults *cr)
{
  nb_json_begin_array (w);
  for (guint i = 0; i < cr->results->len; i++)
    {
      nb_json_begin_object (w);
      nb_config_result_json (w, &g_array_index (cr->results, NbConfigResult, i));
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
}

char *
nb_campaign_results_json (const NbCampaignResults *all)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

  nb_json_begin_object (w);
  nb_json_key (w, "clauses");
  nb_json_begin_object (w);
  for (guint k = 0; k < all->n_clauses; k++)
    {
      char key[16];

      g_snprintf (key, sizeof key, "%u", all->clauses[k].clause);
      nb_json_key (w, key);
      json_clause (w, &all->clauses[k]);
    }
  nb_json_end_object (w);
  nb_json_end_object (w);
  return nb_json_writer_finish (g_steal_pointer (&w));
}

char *
nb_campaign_results_text (const NbCampaignResults *all)
{
  GString *text = g_string_new (NULL);

  for (guint k = 0; k < all->n_clauses; k++)
    {
      const NbClauseResults *cr = &all->clauses[k];
      const NbClause *clause = nb_clause_lookup (cr->clause);

      if (cr->results->len == 0)
        continue;
      g_string_append_printf (text, "Clause %u — %s (protocol table %u)\n", clause->number,
                              clause->title, clause->table);
      for (guint i = 0; i < cr->results->len; i++)
        {
          const NbConfigResult *r = &g_array_index (cr->results, NbConfigResult, i);

          g_string_append_printf (text, "  %-24s ", r->config);
          nb_config_result_text (text, r);
          g_string_append_c (text, '\n');
        }
    }
  if (text->len == 0)
    g_string_append (text, "No configurations recorded yet.\n");
  return g_string_free (text, FALSE);
}

gboolean
nb_campaign_results_store (NbCampaign *campaign, const NbCampaignResults *all, GError **error)
{
  if (!nb_campaign_transaction_begin (campaign, error))
    return FALSE;
  for (guint k = 0; k < all->n_clauses; k++)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
      g_autofree char *json = NULL;

      json_clause (w, &all->clauses[k]);
      json = nb_json_writer_finish (g_steal_pointer (&w));
      if (!nb_campaign_store_result (campaign, all->clauses[k].clause, json, error))
        {
          nb_campaign_transaction_rollback (campaign);
          return FALSE;
        }
    }
  return nb_campaign_transaction_commit (campaign, error);
}
