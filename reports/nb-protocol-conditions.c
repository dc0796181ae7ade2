/* nb-protocol-conditions.c — each trial tied to the conditions in force when
 * it was recorded (nb-protocol-conditions.h says the rule) */
#include "nb-protocol-conditions.h"

#include "nb-conditions.h"
#include "nb-protocol-front.h"
#include "nb-table.h"

#include <string.h>

/* The conditions of 4.2–4.4 a trial is recorded under, in table order. */
static const char *const keys[] = {
  "conditions.environment", "conditions.temperature_c", "conditions.humidity_pct",
  "conditions.illuminance_lx", "conditions.friction_coefficient", "conditions.surface",
};
#define N_KEYS G_N_ELEMENTS (keys)

typedef struct {
  const char *value[N_KEYS];    /* the audit trail's (not owned); NULL: not stated yet */
} Conditions;

static gboolean
conditions_equal (const Conditions *a, const Conditions *b)
{
  for (guint k = 0; k < N_KEYS; k++)
    if (g_strcmp0 (a->value[k], b->value[k]) != 0)
      return FALSE;
  return TRUE;
}

/* The values last set before event index `before` (G_MAXUINT: all). */
static void
conditions_at (GArray *events, guint before, Conditions *out)
{
  memset (out, 0, sizeof *out);
  for (guint i = 0; i < events->len && i < before; i++)
    {
      const NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);

      if (g_strcmp0 (e->what, "field set") != 0 || e->subject == NULL)
        continue;
      for (guint k = 0; k < N_KEYS; k++)
        if (g_str_equal (e->subject, keys[k]))
          out->value[k] = e->new_value;   /* NULL when the field was cleared */
    }
}

static const char *
label_of (const char *key)
{
  guint n;
  const NbProtocolItem *items = nb_protocol_items (&n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (items[i].key, key))
      return items[i].label;
  return key;
}

/* One row: a configuration's trials first..last (in the order recorded)
 * under c. */
typedef struct {
  const char *config;
  guint first, last;
  Conditions c;
} Period;

static void
add_row (NbTable *t, const NbCatalogue *lang, const Period *p, gboolean outdoor)
{
  guint row = nb_table_add_row (t);
  g_autofree char *trials = p->first == p->last ? g_strdup_printf ("%u", p->first)
                                                : g_strdup_printf ("%u–%u", p->first, p->last);

  nb_table_set_text (t, row, 0, p->config);
  nb_table_set_text (t, row, 1, trials);
  for (guint k = 0; k < N_KEYS; k++)
    {
      g_autofree char *text = NULL, *range = NULL;

      if (p->c.value[k] == NULL)
        {
          /* 17025 7.8.3.1 a: a condition not stated when the trial was
           * recorded is flagged in place. */
          nb_table_set_text (t, row, 2 + k, nb_tr (lang, "not stated"));
          nb_table_flag_cell (t, row, 2 + k);
          continue;
        }
      text = nb_protocol_value_text (lang, keys[k], p->c.value[k]);
      nb_table_set_text (t, row, 2 + k, text);
      if (nb_condition_range (keys[k]) != NULL &&
          (range = nb_condition_check (lang, keys[k], g_ascii_strtod (p->c.value[k], NULL),
                                       outdoor)) != NULL)
        nb_table_flag_cell (t, row, 2 + k);
    }
}

void
nb_protocol_trial_conditions (NbCampaign *campaign, const NbCatalogue *lang, NbDocument *doc,
                              guint clause, GArray *configs, gboolean outdoor)
{
  g_autoptr (GArray) events = nb_campaign_list_events (campaign, NULL);
  g_autoptr (GHashTable) recorded = NULL;
  g_autoptr (GArray) periods = g_array_new (FALSE, FALSE, sizeof (Period));
  Conditions now;
  gboolean all_now = TRUE;

  if (events == NULL)
    return;
  /* Each trial's "trial recorded" event (the last of its subject: a
   * configuration deleted and made again reuses its trials' names). */
  recorded = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, NULL);
  for (guint i = 0; i < events->len; i++)
    {
      const NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);

      if (g_strcmp0 (e->what, "trial recorded") == 0 && e->subject != NULL)
        g_hash_table_insert (recorded, e->subject, GUINT_TO_POINTER (i + 1));
    }
  conditions_at (events, G_MAXUINT, &now);
  for (guint i = 0; i < configs->len; i++)
    {
      const NbCampaignConfig *config = &g_array_index (configs, NbCampaignConfig, i);
      g_autoptr (GArray) trials = nb_campaign_list_trials (campaign, config->id, NULL);
      Period cur = { config->name, 0, 0, { { NULL } } };

      for (guint k = 0; trials != NULL && k < trials->len; k++)
        {
          const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, k);
          g_autofree char *subject = nb_campaign_trial_subject (campaign, t->id, NULL);
          guint at = subject ? GPOINTER_TO_UINT (g_hash_table_lookup (recorded, subject)) : 0;
          Conditions c;

          if (t->outcome == NB_TRIAL_RUNNING)
            continue;
          /* at: the event's index + 1, so the values set before it. */
          conditions_at (events, at > 0 ? at - 1 : G_MAXUINT, &c);
          if (!conditions_equal (&c, &now))
            all_now = FALSE;
          if (cur.first > 0 && conditions_equal (&c, &cur.c))
            {
              cur.last = t->seq;
              continue;
            }
          if (cur.first > 0)
            g_array_append_val (periods, cur);
          cur.first = cur.last = t->seq;
          cur.c = c;
        }
      if (cur.first > 0)
        g_array_append_val (periods, cur);
    }
  if (periods->len == 0)
    return;
  if (all_now)
    {
      g_autofree char *line = g_strdup_printf (
        nb_tr (lang, "Conditions of the trials of clause %u: every trial was recorded under the "
               "conditions clause 4 states (each trial tied to the values in force when it was "
               "recorded, the audit trail; ISO/IEC 17025 7.8.3.1 a)."), clause);

      nb_document_add_paragraph (doc, line);
      return;
    }
  {
    g_autofree char *title = g_strdup_printf (nb_tr (lang, "Conditions of the trials of clause %u"),
                                              clause);
    NbTable *t = nb_table_new (title);

    nb_table_add_column (t, "config", nb_tr (lang, "Configuration"), NULL, 0);
    nb_table_add_column (t, "trials", nb_tr (lang, "Trials (in the order recorded)"), NULL, 0);
    for (guint k = 0; k < N_KEYS; k++)
      nb_table_add_column (t, keys[k] + strlen ("conditions."), nb_tr (lang, label_of (keys[k])),
                           NULL, 0);
    for (guint i = 0; i < periods->len; i++)
      add_row (t, lang, &g_array_index (periods, Period, i), outdoor);
    nb_table_add_note (t, nb_tr (lang, "Each trial is tied to the conditions in force when it was "
                                 "recorded: the value of each condition last set before the "
                                 "trial's record in the audit trail (ISO/IEC 17025 7.8.3.1 a; "
                                 "ISO 18646-2 4.2–4.4). An imported trial's are those of its "
                                 "import; a condition stated only later is flagged."));
    nb_document_add_table (doc, t);
  }
}
