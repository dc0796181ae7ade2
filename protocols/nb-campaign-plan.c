/* nb-campaign-plan.c — the campaign's plan (see nb-campaign-plan.h) */
#include "nb-campaign-plan.h"

#include "nb-campaign-results.h"
#include "nb-clause.h"
#include "nb-error.h"

#include <math.h>
#include <string.h>

const char *
nb_plan_state_name (NbPlanState state)
{
  static const char *const names[] = { "out of scope", "not started", "in progress", "complete",
                                       "passed", "failed" };

  return state <= NB_PLAN_FAILED ? names[state] : "?";
}

gboolean
nb_plan_status_done (const NbPlanStatus *s)
{
  return s->state == NB_PLAN_OUT_OF_SCOPE || s->state >= NB_PLAN_COMPLETE;
}

gboolean
nb_plan_runs_next (const NbPlanEntry *e, const NbPlanStatus *s)
{
  const NbClause *clause = nb_clause_lookup (e->clause);

  return !nb_plan_status_done (s) && clause != NULL && clause->runner != NULL;
}

/* The plan's own reasons: stored by key, printed in the reader's language.
 * The msgids are the English sentences files planned before the keys
 * stored (so those are recognised and translated too).  words: the same
 * in words for a person (nb_plan_reason_words), the campaign field it is
 * about named by its label (%s) instead of its key. */
static const struct {
  const char *key;
  const char *msgid;
  const char *words;
  const char *field;
} plan_reasons[] = {
  { NB_PLAN_REASON_PREFIX "no-rated-load",
    N_("the manufacturer declares no rated load (robot.rated_load_kg)"),
    N_("the manufacturer declares no rated load (the field “%s”)"), "robot.rated_load_kg" },
  { NB_PLAN_REASON_PREFIX "rated-load-zero",
    N_("the rated load is 0 kg: the same as the no-load configuration"), NULL, NULL },
};

static int
plan_reason (const char *stored)
{
  for (guint i = 0; stored != NULL && i < G_N_ELEMENTS (plan_reasons); i++)
    if (g_str_equal (stored, plan_reasons[i].key) || g_str_equal (stored, plan_reasons[i].msgid))
      return (int) i;
  return -1;
}

const char *
nb_plan_reason_msgid (const char *stored)
{
  int i = plan_reason (stored);

  return i >= 0 ? plan_reasons[i].msgid : NULL;
}

const char *
nb_plan_reason_key (const char *stored)
{
  int i = plan_reason (stored);

  return i >= 0 ? plan_reasons[i].key + strlen (NB_PLAN_REASON_PREFIX) : NULL;
}

const char *
nb_plan_reason_text (const NbCatalogue *lang, const char *stored)
{
  const char *msgid = nb_plan_reason_msgid (stored);

  return msgid != NULL ? nb_tr (lang, msgid) : stored;
}

char *
nb_plan_reason_words (const NbCatalogue *lang, const char *stored)
{
  int i = plan_reason (stored);
  const NbCampaignField *field;
  const char *label;
  char head[8] = { 0 };
  g_autofree char *capital = NULL;

  if (stored == NULL)
    return NULL;
  if (i < 0 || plan_reasons[i].words == NULL ||
      (field = nb_campaign_field_find (plan_reasons[i].field)) == NULL)
    return g_strdup (nb_plan_reason_text (lang, stored));
  /* The label as the Campaign form shows it: capitalised. */
  label = nb_tr (lang, field->description);
  g_unichar_to_utf8 (g_unichar_totitle (g_utf8_get_char (label)), head);
  capital = g_strconcat (head, g_utf8_next_char (label), NULL);
  /* Each words msgid takes one %s, the label (msgfmt -c checks the
   * translations keep it). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  return g_strdup_printf (nb_tr (lang, plan_reasons[i].words), capital);
#pragma GCC diagnostic pop
}

static gboolean
make_plan (NbCampaign *campaign, GError **error)
{
  NbClauseEnv env;
  g_autoptr (GArray) configs = NULL;

  if (!nb_clause_env_from_campaign (campaign, &env, error))
    return FALSE;
  if (isnan (env.lu_mm))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: robot.width_mm is not set, so there is "
                   "no LU (ISO 18646-2 4.5) to plan the configurations: campaign set --db %s "
                   "robot.width_mm=W", nb_campaign_get_path (campaign),
                   nb_campaign_get_path (campaign));
      return FALSE;
    }
  if ((configs = nb_clause_all_configurations (&env, error)) == NULL)
    return FALSE;
  if (!nb_campaign_transaction_begin (campaign, error))
    return FALSE;
  for (guint i = 0; i < configs->len; i++)
    {
      const NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);
      const NbClause *clause = nb_clause_lookup (c->clause);
      NbPlanEntry e;
      gboolean ok;

      nb_plan_entry_init (&e);
      e.clause = c->clause;
      e.config = g_strdup (c->name);
      e.trials = clause->trials;
      e.route = g_strdup (c->route);
      e.load_kg = c->load_kg;
      e.obstacle = g_strdup (c->obstacle);
      e.behaviour = g_strdup (c->behaviour);
      if (strstr (c->name, "rated-load") != NULL && !(c->load_kg > 0.0))
        {
          e.in_scope = FALSE;
          /* Language-neutral: the protocol prints it in its language. */
          e.reason = g_strdup (plan_reasons[isnan (c->load_kg) ? 0 : 1].key);
        }
      ok = nb_campaign_plan_add (campaign, &e, error);
      nb_plan_entry_clear (&e);
      if (!ok)
        {
          nb_campaign_transaction_rollback (campaign);
          return FALSE;
        }
    }
  return nb_campaign_transaction_commit (campaign, error);
}

gboolean
nb_plan_ensure (NbCampaign *campaign, gboolean *made, GError **error)
{
  g_autoptr (GArray) plan = nb_campaign_plan_list (campaign, error);

  *made = FALSE;
  if (plan == NULL)
    return FALSE;
  if (plan->len > 0)
    return TRUE;
  if (!make_plan (campaign, error))
    return FALSE;
  *made = TRUE;
  return TRUE;
}

gboolean
nb_plan_status (NbCampaign *campaign, const NbPlanEntry *e, NbPlanStatus *st, GError **error)
{
  const NbClause *clause = nb_clause_lookup (e->clause);
  g_autoptr (GArray) trials = NULL;
  NbCampaignConfig config;
  gboolean found;

  memset (st, 0, sizeof *st);
  st->needed = e->trials;
  if (!e->in_scope)
    {
      st->state = NB_PLAN_OUT_OF_SCOPE;
      return TRUE;
    }
  {
    g_autoptr (GError) local = NULL;

    found = nb_campaign_find_config (campaign, e->clause, e->config, &config, &local);
    if (!found && !g_error_matches (local, NB_ERROR, NB_ERROR_NOT_FOUND) && local != NULL)
      {
        g_propagate_error (error, g_steal_pointer (&local));
        return FALSE;
      }
  }
  if (!found)
    {
      st->state = NB_PLAN_NOT_STARTED;
      return TRUE;
    }
  if ((trials = nb_campaign_list_trials (campaign, config.id, error)) == NULL)
    {
      nb_campaign_config_clear (&config);
      return FALSE;
    }
  g_array_set_clear_func (trials, (GDestroyNotify) nb_campaign_trial_clear);
  if (clause->plan_done != NULL)
    st->done = MIN (clause->plan_done (trials), st->needed);
  for (guint i = 0; clause->plan_done == NULL && i < trials->len; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      /* 7.3: the trials with the obstacle are the configuration's count;
       * the baseline only gives T0. */
      if (g_strcmp0 (t->kind, "baseline") == 0)
        continue;
      st->done += clause->counts (t);
    }
  if (st->done == 0)
    st->state = trials->len > 0 ? NB_PLAN_IN_PROGRESS : NB_PLAN_NOT_STARTED;
  else if (st->done < st->needed)
    st->state = NB_PLAN_IN_PROGRESS;
  else if (clause->passed != NULL)
    {
      /* A pass/fail clause (7.3, 9.3): its verdict, from its figures. */
      NbConfigResult fig;

      memset (&fig, 0, sizeof fig);
      if (!nb_config_result_compute_figures (campaign, &config, &fig, error))
        {
          nb_config_result_clear (&fig);
          nb_campaign_config_clear (&config);
          return FALSE;
        }
      st->state = clause->passed (&fig) ? NB_PLAN_PASSED : NB_PLAN_FAILED;
      nb_config_result_clear (&fig);
    }
  else
    st->state = NB_PLAN_COMPLETE;
  nb_campaign_config_clear (&config);
  return TRUE;
}

GArray *
nb_plan_pending (NbCampaign *campaign, guint only_clause, const char *only_config,
                 GError **error)
{
  g_autoptr (GArray) plan = NULL;
  GArray *out;
  gboolean made;

  if (!nb_plan_ensure (campaign, &made, error) ||
      (plan = nb_campaign_plan_list (campaign, error)) == NULL)
    return NULL;
  out = g_array_new (FALSE, TRUE, sizeof (NbPlanEntry));
  g_array_set_clear_func (out, (GDestroyNotify) nb_plan_entry_clear);
  for (guint i = 0; i < plan->len; i++)
    {
      NbPlanEntry *e = &g_array_index (plan, NbPlanEntry, i);
      NbPlanStatus st;

      if ((only_clause != 0 && e->clause != only_clause) ||
          (only_config != NULL && !g_str_equal (e->config, only_config)))
        continue;
      if (!nb_plan_status (campaign, e, &st, error))
        {
          g_array_unref (out);
          return NULL;
        }
      if (nb_plan_status_done (&st))
        continue;
      /* Moved: the plan's copy is cleared empty. */
      g_array_append_val (out, *e);
      memset (e, 0, sizeof *e);
    }
  return out;
}

void
nb_plan_runner_options (const NbPlanEntry *e, const NbCampaignRunnerOptions *base,
                        NbCampaignRunnerOptions *o)
{
  const NbClause *clause = nb_clause_lookup (e->clause);

  *o = *base;
  o->clause = e->clause;
  o->config = e->config;
  o->route = clause != NULL && nb_clause_takes (clause, NB_CLAUSE_OPT_ROUTE) ? e->route : NULL;
  o->load_kg = e->load_kg;
  o->obstacle = e->obstacle;
  o->behaviour = e->behaviour ? (guint) g_ascii_strtoull (e->behaviour, NULL, 10) : 0;
  o->trials = 0;
}
