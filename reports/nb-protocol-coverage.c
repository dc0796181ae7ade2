/* nb-protocol-coverage.c — every configuration the standard prescribes, and
 * which of them the campaign tested
 *
 * The prescribed configurations are the clause modules' (NbClause.
 * configurations over the campaign's NbClauseEnv: 5.4's six, 6.3's six
 * obstacles — three outdoors, A.5.2 —, 7.2's ten, 8.3's and 9.3's two,
 * 10.3's one).  A campaign configuration tests a prescribed one when it is
 * of the same kind (decided, the names are the laboratory's): 5 the route
 * and the load (0 kg: no load; more: the rated load), 6 an obstacle with
 * placements in any clause 6 configuration, 7 the behaviour and the
 * obstacle, 8 and 9 the load, 10 any.  The ones not tested are listed with
 * the reason the laboratory gave (method.exclusions, ISO/IEC 17025 7.8.2.1
 * n); without one, report --check lists them.  With a campaign plan
 * (campaign plan, #15): a configuration the plan holds out of scope says
 * so with its recorded reason (the manufacturer's declaration), and every
 * configuration run under a name the plan does not hold is listed as an
 * extra configuration.
 */
#include "nb-protocol-coverage.h"

#include "nb-clause.h"
#include "nb-course.h"
#include "nb-protocol-front.h"

#include <math.h>
#include <string.h>

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

/* TRUE: rated load, FALSE: no load; -1 when the configuration does not say. */
static int
load_kind (const NbCampaignConfig *c)
{
  if (!isnan (c->load_kg))
    return c->load_kg > 0.0;
  if (c->name != NULL && strstr (c->name, "rated") != NULL)
    return 1;
  if (c->name != NULL && (strstr (c->name, "no load") != NULL || strstr (c->name, "no-load")))
    return 0;
  return -1;
}

static int
prescribed_load_kind (const NbCampaignConfig *p)
{
  return p->name != NULL && strstr (p->name, "rated-load") != NULL;
}

/* 4.5: a route run clockwise (the manufacturer declared it): the runner's
 * and the plan's parameters say so, an imported configuration's name may
 * ("-cw-"). */
static gboolean
clockwise (const NbCampaignConfig *c)
{
  return (c->parameters != NULL && strstr (c->parameters, "\"clockwise\": true") != NULL) ||
         (c->name != NULL && strstr (c->name, "-cw-") != NULL);
}

static const char *
canonical_obstacle (const char *name)
{
  return g_strcmp0 (name, "table") == 0 ? "wooden table" : name;
}

/* Whether the campaign's configuration c (with the obstacles its trials
 * placed, for clause 6) tests the prescribed configuration p. */
static gboolean
tests (const NbCampaignConfig *p, const NbCampaignConfig *c, GHashTable *placed)
{
  switch (p->clause)
    {
    case 5:
      return g_strcmp0 (p->route, c->route) == 0 && load_kind (c) == prescribed_load_kind (p) &&
             clockwise (p) == clockwise (c);
    case 6:
      return placed != NULL && g_hash_table_contains (placed, p->obstacle);
    case 7:
      return g_strcmp0 (p->behaviour, c->behaviour) == 0 &&
             g_strcmp0 (canonical_obstacle (p->obstacle), canonical_obstacle (c->obstacle)) == 0;
    case 8:
    case 9:
      return load_kind (c) == prescribed_load_kind (p);
    default:
      return TRUE;
    }
}

/* The prescribed configuration as a person reads it. */
static char *
describe (const NbCatalogue *lang, const NbCampaignConfig *p)
{
  const char *load = prescribed_load_kind (p) ? nb_tr (lang, "rated load") : nb_tr (lang, "no load");

  switch (p->clause)
    {
    case 5:
      if (clockwise (p))
        return g_strdup_printf (nb_tr (lang, "%s route clockwise, %s"), nb_tr (lang, p->route),
                                load);
      return g_strdup_printf (nb_tr (lang, "%s route, %s"), nb_tr (lang, p->route), load);
    case 6:
      return g_strdup (nb_tr (lang, p->obstacle));
    case 7:
      return g_strdup_printf (nb_tr (lang, "behaviour %s, %s"), p->behaviour, nb_tr (lang, p->obstacle));
    case 8:
      return g_strdup_printf (nb_tr (lang, "straight route, %s"), load);
    case 9:
      return g_strdup (load);
    default:
      return g_strdup (nb_tr (lang, "the arena of 10.2"));
    }
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
      g_autoptr (GHashTable) placed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
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
      /* 6.3: the obstacles placed, over every clause 6 configuration. */
      for (guint i = 0; clause->number == 6 && configs && i < configs->len; i++)
        {
          g_autoptr (GArray) trials =
            nb_campaign_list_trials (campaign, g_array_index (configs, NbCampaignConfig, i).id,
                                     NULL);

          for (guint j = 0; trials && j < trials->len; j++)
            {
              NbCampaignTrial *tr = &g_array_index (trials, NbCampaignTrial, j);

              if (tr->label != NULL && clause->counts (tr))
                g_hash_table_add (placed, g_strdup (canonical_obstacle (tr->label)));
            }
        }
      for (guint i = 0; i < prescribed->len; i++)
        {
          const NbCampaignConfig *p = &g_array_index (prescribed, NbCampaignConfig, i);
          g_autofree char *what = describe (lang, p);
          GString *as = g_string_new (NULL);
          guint row = nb_table_add_row (t);

          for (guint j = 0; configs && j < configs->len; j++)
            {
              const NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, j);

              if (tests (p, c, placed))
                g_string_append_printf (as, "%s%s", as->len ? "; " : "", c->name);
            }
          const NbPlanEntry *e = plan_entry (plan, clause->number, p->name);

          nb_table_set_text (t, row, 0, number);
          nb_table_set_text (t, row, 1, what);
          if (as->len > 0)
            nb_table_set_text (t, row, 2, as->str);
          else if (e != NULL && !e->in_scope)
            {
              /* Out of scope with its recorded reason: stated, not missing. */
              g_autofree char *why = g_strdup_printf (nb_tr (lang, "out of scope: %s"),
                                                      e->reason ? e->reason : "");

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
