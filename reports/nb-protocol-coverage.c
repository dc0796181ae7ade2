/* nb-protocol-coverage.c — every configuration the standard prescribes, and
 * which of them the campaign tested
 *
 * The prescribed configurations are the clause modules' (NbClause.
 * configurations over the campaign's NbClauseEnv: 5.4's six, 6.3's six
 * obstacles — three outdoors, A.5.2 —, 7.2's ten, 8.3's and 9.3's two,
 * 10.3's one).  A campaign configuration tests a prescribed one when it is
 * of the same kind, as the clause's module decides (NbClause.covers: 5 the
 * route and the load, 6 an obstacle with placements in any clause 6
 * configuration, 7 the behaviour and the obstacle, 8 and 9 the load, 10
 * any), and the clause's module says what a prescribed one is
 * (NbClause.describe).  The ones not tested are listed with
 * the reason the laboratory gave (method.exclusions, ISO/IEC 17025 7.8.2.1
 * n); without one, report --check lists them.  With a campaign plan
 * (campaign plan, #15): a configuration the plan holds out of scope says
 * so with its recorded reason (the manufacturer's declaration), and every
 * configuration run under a name the plan does not hold is listed as an
 * extra configuration.
 */
#include "nb-protocol-coverage.h"

#include "nb-campaign-plan.h"
#include "nb-clause.h"
#include "nb-protocol-front.h"

/* The plan's entry of (clause, name); NULL when the plan has none. */
static const NbPlanEntry *
plan_entry (const GArray *plan, guint clause, const char *name)
{
  for (guint i = 0; plan != NULL && i < plan->len; i++)
    {
      const NbPlanEntry *e = &g_array_index (plan, NbPlanEntry, i);

      if (e->clause == clause && g_strcmp0 (e->config, name) == 0)
        return e;
    }
  return NULL;
}

void
nb_protocol_coverage (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *exclusions = nb_campaign_get_field (campaign, "method.exclusions", NULL);
  /* Empty (or NULL) until a plan was made. */
  g_autoptr (GArray) plan = nb_campaign_plan_list (campaign, NULL);
  NbClauseEnv env;
  guint n_clauses, untested = 0;
  const NbClause *const *clauses = nb_clause_registry (&n_clauses);
  NbTable *t;

  if (exclusions != NULL && *exclusions == '\0')
    g_clear_pointer (&exclusions, g_free);
  if (!nb_clause_env_from_campaign (campaign, &env, &error))
    {
      nb_document_add_warning (doc, error->message);
      return;
    }
  t = nb_table_new (nb_tr (lang, "Configurations the standard prescribes and those tested"));
  nb_table_add_column (t, "clause", nb_tr (lang, "Clause"), NULL, 0);
  nb_table_add_column (t, "prescribed", nb_tr (lang, "Prescribed configuration"), NULL, 0);
  nb_table_add_column (t, "tested_as", nb_tr (lang, "Tested as"), NULL, 0);
  for (guint k = 0; k < n_clauses; k++)
    {
      const NbClause *clause = clauses[k];
      g_autoptr (GArray) prescribed = g_array_new (FALSE, FALSE, sizeof (NbCampaignConfig));
      g_autoptr (GArray) configs = nb_campaign_list_configs (campaign, clause->number, NULL);
      g_autoptr (GHashTable) labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autoptr (GError) local = NULL;
      char number[8];

      g_array_set_clear_func (prescribed, (GDestroyNotify) nb_campaign_config_clear);
      g_snprintf (number, sizeof number, "%u", clause->number);
      if (!clause->configurations (&env, prescribed, &local))
        {
          guint row = nb_table_add_row (t);

          nb_table_set_text (t, row, 0, number);
          nb_table_set_text (t, row, 1, local->message);
          nb_table_flag_cell (t, row, 1);
          nb_protocol_missing (doc, lang, local->message, NULL);
          continue;
        }
      /* The labels of the counted trials, over every configuration of the
       * clause (6.3: the obstacles placed). */
      for (guint i = 0; configs && i < configs->len; i++)
        {
          g_autoptr (GArray) trials =
            nb_campaign_list_trials (campaign, g_array_index (configs, NbCampaignConfig, i).id,
                                     NULL);

          for (guint j = 0; trials && j < trials->len; j++)
            {
              NbCampaignTrial *tr = &g_array_index (trials, NbCampaignTrial, j);

              if (tr->label != NULL && clause->counts (tr))
                g_hash_table_add (labels, g_strdup (tr->label));
            }
        }
      for (guint i = 0; i < prescribed->len; i++)
        {
          const NbCampaignConfig *p = &g_array_index (prescribed, NbCampaignConfig, i);
          g_autofree char *what = clause->describe (lang, p);
          GString *as = g_string_new (NULL);
          guint row = nb_table_add_row (t);

          for (guint j = 0; configs && j < configs->len; j++)
            {
              const NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, j);

              if (clause->covers (p, c, labels))
                g_string_append_printf (as, "%s%s", as->len ? "; " : "", c->name);
            }
          const NbPlanEntry *e = plan_entry (plan, clause->number, p->name);

          nb_table_set_text (t, row, 0, number);
          nb_table_set_text (t, row, 1, what);
          if (as->len > 0)
            nb_table_set_text (t, row, 2, as->str);
          else if (e != NULL && !e->in_scope)
            {
              /* Out of scope with its recorded reason: stated, not missing.
               * A reason of the plan's own in words, the campaign field it
               * is about by its label (as the window names it), not by
               * its key. */
              g_autofree char *reason = nb_plan_reason_words (lang, e->reason);
              g_autofree char *why = g_strdup_printf (nb_tr (lang, "out of scope: %s"),
                                                      reason ? reason : "");

              nb_table_set_text (t, row, 2, why);
            }
          else
            {
              g_autofree char *line = g_strdup_printf (nb_tr (lang, "Clause %s, %s: not tested, and why is "
                                                         "not stated (method.exclusions, ISO/IEC "
                                                         "17025 7.8.2.1 n)"), number, what);

              nb_table_set_text (t, row, 2, nb_tr (lang, "not tested"));
              nb_table_flag_cell (t, row, 2);
              untested++;
              if (exclusions == NULL)
                nb_document_add_missing (doc, line);
            }
          g_string_free (as, TRUE);
        }
      /* Run under names the plan does not hold: extra configurations. */
      for (guint j = 0; plan != NULL && plan->len > 0 && configs && j < configs->len; j++)
        {
          const NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, j);
          guint row;

          if (plan_entry (plan, clause->number, c->name) != NULL)
            continue;
          row = nb_table_add_row (t);
          nb_table_set_text (t, row, 0, number);
          nb_table_set_text (t, row, 1, nb_tr (lang, "extra configuration (not in the plan)"));
          nb_table_set_text (t, row, 2, c->name);
        }
    }
  nb_document_add_table (doc, t);
  if (untested > 0)
    {
      g_autofree char *line = exclusions
        ? g_strdup_printf (nb_ntr (lang, "%u prescribed configuration was not tested: %s",
                                        "%u prescribed configurations were not tested: %s",
                                        untested), untested, exclusions)
        : g_strdup_printf (nb_ntr (lang, "%u prescribed configuration was not tested, and the "
                                        "reason is not stated (method.exclusions).",
                                        "%u prescribed configurations were not tested, and the "
                                        "reason is not stated (method.exclusions).",
                                        untested), untested);

      nb_document_add_warning (doc, line);
    }
  else
    nb_document_add_paragraph (doc, nb_tr (lang, "Every configuration the standard prescribes was tested."));
}
