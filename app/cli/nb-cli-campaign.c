/* navbench-cli campaign, export — the campaign file from the command line
 *
 * campaign new|info|set|edit|import|results work on one campaign file (see
 * core/nb-campaign.h); export --trials writes a clause's stored trials back
 * in the CSV formats `compute` reads (drivers/file/nb-measurements.h), so
 * every figure of `campaign results` can be recomputed outside navbench.
 */
#include "nb-cli.h"

#include "nb-campaign.h"
#include "nb-campaign-results.h"
#include "nb-clause.h"
#include "nb-clause-results.h"
#include "nb-conditions.h"
#include "nb-cli-figures.h"
#include "nb-error.h"
#include "nb-json-writer.h"
#include "nb-map-file.h"
#include "nb-measurements.h"
#include "nb-metrics.h"
#include "nb-number.h"
#include "nb-table.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static gboolean
require_db (const char *db, GError **error)
{
  if (db != NULL)
    return TRUE;
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--db F is required");
  return FALSE;
}

static int
emit (char *text)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *owned = text;

  if (!nb_cli_write (owned, &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}

/* KEY=VALUE arguments after the options (argv[1..]). */
static gboolean
set_fields (NbCampaign *campaign, int argc, char **argv, GError **error)
{
  if (!nb_campaign_transaction_begin (campaign, error))
    return FALSE;
  for (int i = 1; i < argc; i++)
    {
      const char *eq = strchr (argv[i], '=');
      g_autofree char *key = NULL;

      if (eq == NULL || eq == argv[i])
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "'%s': expected KEY=VALUE", argv[i]);
          goto fail;
        }
      key = g_strndup (argv[i], (gsize) (eq - argv[i]));
      if (!nb_campaign_set_field (campaign, key, eq + 1, error))
        goto fail;
    }
  return nb_campaign_transaction_commit (campaign, error);

fail:
  nb_campaign_transaction_rollback (campaign);
  return FALSE;
}

/* The --help text listing the fields (owned by the caller). */
static char *
field_help (void)
{
  guint n;
  const NbCampaignField *fields = nb_campaign_fields (&n);
  GString *s = g_string_new ("Fields (KEY=VALUE; an empty VALUE unsets):\n");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "  %-34s %s\n", fields[i].key, fields[i].description);
  g_string_append (s, "robot.lu_mm is derived from robot.width_mm (ISO 18646-2 4.5).");
  return g_string_free (s, FALSE);
}

/* Parses options but keeps the KEY=VALUE arguments. */
static gboolean
parse_keeping_args (GOptionContext *context, int *argc, char ***argv, GError **error)
{
  return g_option_context_parse (context, argc, argv, error);
}

/* ------------------------------------------------------------------ new -- */

static int
campaign_new (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("[KEY=VALUE…]");
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autofree char *db = NULL, *name = NULL, *width = NULL, *help = field_help ();
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file to create", "F" },
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, "the campaign's name", "N" },
    { "robot-width-mm", 0, 0, G_OPTION_ARG_STRING, &width, "the robot's width w (gives LU)",
      "W" },
    { NULL }
  };

  g_option_context_set_summary (context, "Creates a campaign file (SQLite, WAL mode).");
  g_option_context_set_description (context, help);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!parse_keeping_args (context, &argc, &argv, &error) || !require_db (db, &error))
    return nb_cli_report_error (error);
  if (name == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--name N is required");
      return nb_cli_report_error (error);
    }
  /* Fields are checked before the file exists: a bad value creates nothing. */
  for (int i = 1; i < argc; i++)
    if (strchr (argv[i], '=') == NULL)
      {
        g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "'%s': expected KEY=VALUE", argv[i]);
        return nb_cli_report_error (error);
      }
  if ((campaign = nb_campaign_create (db, name, &error)) == NULL)
    return nb_cli_report_error (error);
  if ((width != NULL && !nb_campaign_set_field (campaign, "robot.width_mm", width, &error)) ||
      !set_fields (campaign, argc, argv, &error))
    {
      g_clear_pointer (&campaign, nb_campaign_free);
      unlink (db);
      return nb_cli_report_error (error);
    }
  if (!nb_campaign_close (g_steal_pointer (&campaign), &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}

/* ------------------------------------------------------------------ set -- */

static int
campaign_set (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("KEY=VALUE…");
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autofree char *db = NULL, *who = NULL, *help = field_help ();
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "who", 0, 0, G_OPTION_ARG_STRING, &who, "who the event log names (default: login)", "W" },
    { NULL }
  };

  g_option_context_set_summary (context,
    "Sets robot, test-condition (clause 4) and instrument fields; every change goes\n"
    "into the event log with the old value.");
  g_option_context_set_description (context, help);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!parse_keeping_args (context, &argc, &argv, &error) || !require_db (db, &error))
    return nb_cli_report_error (error);
  if (argc < 2)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "nothing to set: give KEY=VALUE");
      return nb_cli_report_error (error);
    }
  if ((campaign = nb_campaign_open (db, 0, &error)) == NULL)
    return nb_cli_report_error (error);
  if (who)
    nb_campaign_set_who (campaign, who);
  if (!set_fields (campaign, argc, argv, &error) ||
      !nb_campaign_close (g_steal_pointer (&campaign), &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}

/* ----------------------------------------------------------------- edit -- */

static int
campaign_edit (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("KEY=VALUE");
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autofree char *db = NULL, *reason = NULL, *key = NULL;
  gint64 trial = 0;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "trial", 0, 0, G_OPTION_ARG_INT64, &trial, "the trial's id (campaign info --trials)", "ID" },
    { "reason", 0, 0, G_OPTION_ARG_STRING, &reason, "why the value is corrected", "TEXT" },
    { NULL }
  };
  const char *eq;

  g_option_context_set_summary (context,
    "Corrects one recorded value of a trial (outcome, reason, time_s, attained_x_mm,\n"
    "attained_y_mm, attained_theta_deg, true_mm, measured_mm, detected).  The event\n"
    "log keeps the old value, the new one and the reason.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!parse_keeping_args (context, &argc, &argv, &error) || !require_db (db, &error))
    return nb_cli_report_error (error);
  if (argc != 2 || (eq = strchr (argv[1], '=')) == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "expected one KEY=VALUE");
      return nb_cli_report_error (error);
    }
  key = g_strndup (argv[1], (gsize) (eq - argv[1]));
  if ((campaign = nb_campaign_open (db, 0, &error)) == NULL ||
      !nb_campaign_edit_trial (campaign, trial, key, eq + 1, reason, &error) ||
      !nb_campaign_close (g_steal_pointer (&campaign), &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}

/* ----------------------------------------------------------------- info -- */

static void
json_double_or_null (NbJsonWriter *w, const char *key, double v)
{
  nb_json_key (w, key);
  nb_json_double (w, v);
}

static void
json_string_or_null (NbJsonWriter *w, const char *key, const char *v)
{
  nb_json_key (w, key);
  if (v)
    nb_json_string (w, v);
  else
    nb_json_null (w);
}

static int
campaign_info (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autoptr (GArray) configs = NULL, events = NULL;
  g_autofree char *db = NULL, *name = NULL;
  gboolean json = FALSE, with_trials = FALSE;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { "trials", 0, 0, G_OPTION_ARG_NONE, &with_trials, "list every trial too", NULL },
    { NULL }
  };
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  g_autoptr (GString) text = g_string_new (NULL);
  NbCampaignCounts counts;
  guint n_fields;
  const NbCampaignField *fields = nb_campaign_fields (&n_fields);
  double lu;
  gboolean has_lu;

  g_option_context_set_summary (context,
    "The campaign: robot, conditions, instrument, configurations with their trials,\n"
    "counts and the event log.  Reads without taking the writer's lock.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) || !require_db (db, &error) ||
      (campaign = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error)) == NULL ||
      (name = nb_campaign_get_name (campaign, &error)) == NULL ||
      !nb_campaign_get_counts (campaign, &counts, &error) ||
      (configs = nb_campaign_list_configs (campaign, 0, &error)) == NULL ||
      (events = nb_campaign_list_events (campaign, &error)) == NULL)
    return nb_cli_report_error (error);
  has_lu = nb_campaign_get_lu_mm (campaign, &lu, NULL);

  nb_json_begin_object (w);
  nb_json_key (w, "name"); nb_json_string (w, name);
  nb_json_key (w, "schema"); nb_json_int (w, NB_CAMPAIGN_SCHEMA_VERSION);
  nb_json_key (w, "recovered_trials");
  nb_json_int (w, nb_campaign_get_recovered_trials (campaign));
  g_string_append_printf (text, "Campaign '%s' (%s, schema %d)\n", name, db,
                          NB_CAMPAIGN_SCHEMA_VERSION);
  nb_json_key (w, "fields");
  nb_json_begin_object (w);
  for (guint i = 0; i < n_fields; i++)
    {
      g_autofree char *v = nb_campaign_get_field (campaign, fields[i].key, &error);

      if (error != NULL)
        return nb_cli_report_error (error);
      json_string_or_null (w, fields[i].key, v);
      g_string_append_printf (text, "  %-34s %s\n", fields[i].key, v ? v : "—");
    }
  nb_json_end_object (w);
  json_double_or_null (w, "robot_lu_mm", has_lu ? lu : NAN);
  if (has_lu)
    g_string_append_printf (text, "  %-34s %g\n", "robot.lu_mm (derived)", lu);
  /* Clause 4 conditions outside their ranges: accepted, flagged in the protocol. */
  nb_json_key (w, "flags");
  nb_json_begin_array (w);
  {
    g_autofree char *env = nb_campaign_get_field (campaign, "conditions.environment", NULL);
    guint n_ranges;
    const NbConditionRange *ranges = nb_condition_ranges (&n_ranges);

    for (guint i = 0; i < n_ranges; i++)
      {
        g_autofree char *v = nb_campaign_get_field (campaign, ranges[i].key, NULL);
        g_autofree char *flag = NULL;
        double value;

        if (v == NULL || !nb_parse_double (v, strlen (v), &value))
          continue;
        flag = nb_condition_check (ranges[i].key, value, g_strcmp0 (env, "outdoor") == 0);
        if (flag == NULL)
          continue;
        nb_json_string (w, flag);
        g_string_append_printf (text, "Note: %s.\n", flag);
      }
  }
  nb_json_end_array (w);
  nb_json_key (w, "counts");
  nb_json_begin_object (w);
  nb_json_key (w, "configs"); nb_json_int (w, counts.configs);
  nb_json_key (w, "trials"); nb_json_int (w, (gint64) counts.trials);
  nb_json_key (w, "samples"); nb_json_int (w, (gint64) counts.samples);
  nb_json_key (w, "chunks"); nb_json_int (w, (gint64) counts.chunks);
  nb_json_key (w, "events"); nb_json_int (w, (gint64) counts.events);
  nb_json_end_object (w);
  g_string_append_printf (text, "%u configurations, %" G_GUINT64_FORMAT " trials, %"
                          G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " events\n",
                          counts.configs, counts.trials, counts.samples, counts.events);

  nb_json_key (w, "configs");
  nb_json_begin_array (w);
  for (guint i = 0; i < configs->len; i++)
    {
      NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);
      g_autoptr (GArray) trials = nb_campaign_list_trials (campaign, c->id, &error);
      guint by_outcome[NB_TRIAL_INCOMPLETE + 1] = { 0 };

      if (trials == NULL)
        return nb_cli_report_error (error);
      for (guint j = 0; j < trials->len; j++)
        by_outcome[g_array_index (trials, NbCampaignTrial, j).outcome]++;
      nb_json_begin_object (w);
      nb_json_key (w, "clause"); nb_json_int (w, c->clause);
      nb_json_key (w, "name"); nb_json_string (w, c->name);
      json_string_or_null (w, "route", c->route);
      json_double_or_null (w, "load_kg", c->load_kg);
      json_string_or_null (w, "obstacle", c->obstacle);
      json_string_or_null (w, "behaviour", c->behaviour);
      json_string_or_null (w, "parameters", c->parameters);
      if (c->clause == 5)
        {
          nb_json_key (w, "command");
          nb_json_begin_array (w);
          nb_json_double (w, c->command.x_mm);
          nb_json_double (w, c->command.y_mm);
          nb_json_double (w, c->command.theta_deg);
          nb_json_end_array (w);
        }
      if (c->clause == 8)
        {
          nb_json_key (w, "from_mm");
          nb_json_begin_array (w);
          nb_json_double (w, c->from_mm[0]);
          nb_json_double (w, c->from_mm[1]);
          nb_json_end_array (w);
          nb_json_key (w, "to_mm");
          nb_json_begin_array (w);
          nb_json_double (w, c->to_mm[0]);
          nb_json_double (w, c->to_mm[1]);
          nb_json_end_array (w);
        }
      nb_json_key (w, "trials"); nb_json_int (w, trials->len);
      nb_json_key (w, "outcomes");
      nb_json_begin_object (w);
      for (guint k = NB_TRIAL_RUNNING; k <= NB_TRIAL_INCOMPLETE; k++)
        {
          nb_json_key (w, nb_trial_outcome_to_string (k));
          nb_json_int (w, by_outcome[k]);
        }
      nb_json_end_object (w);
      g_string_append_printf (text, "clause %u '%s': %u trials (%u ok, %u failed, %u aborted, "
                              "%u incomplete)\n", c->clause, c->name, trials->len,
                              by_outcome[NB_TRIAL_OK], by_outcome[NB_TRIAL_FAILED],
                              by_outcome[NB_TRIAL_ABORTED], by_outcome[NB_TRIAL_INCOMPLETE]);
      if (with_trials)
        {
          nb_json_key (w, "trial_list");
          nb_json_begin_array (w);
          for (guint j = 0; j < trials->len; j++)
            {
              NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, j);

              nb_json_begin_object (w);
              nb_json_key (w, "id"); nb_json_int (w, t->id);
              nb_json_key (w, "seq"); nb_json_int (w, t->seq);
              nb_json_key (w, "outcome"); nb_json_string (w, nb_trial_outcome_to_string (t->outcome));
              json_string_or_null (w, "reason", t->reason);
              nb_json_key (w, "samples"); nb_json_int (w, (gint64) t->n_samples);
              nb_json_end_object (w);
              g_string_append_printf (text, "  trial %u (id %" G_GINT64_FORMAT "): %s%s%s\n",
                                      t->seq, t->id, nb_trial_outcome_to_string (t->outcome),
                                      t->reason ? ": " : "", t->reason ? t->reason : "");
            }
          nb_json_end_array (w);
        }
      nb_json_end_object (w);
    }
  nb_json_end_array (w);

  nb_json_key (w, "events");
  nb_json_begin_array (w);
  for (guint i = 0; i < events->len; i++)
    {
      NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);

      nb_json_begin_object (w);
      nb_json_key (w, "time"); nb_json_string (w, e->time);
      nb_json_key (w, "who"); nb_json_string (w, e->who);
      nb_json_key (w, "what"); nb_json_string (w, e->what);
      json_string_or_null (w, "subject", e->subject);
      json_string_or_null (w, "old", e->old_value);
      json_string_or_null (w, "new", e->new_value);
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
  nb_json_end_object (w);
  if (nb_campaign_get_recovered_trials (campaign) > 0)
    g_printerr ("navbench-cli: %s: %u trial(s) left in flight by an interrupted navbench were "
                "marked incomplete\n", db, nb_campaign_get_recovered_trials (campaign));
  if (json)
    return emit (nb_json_writer_finish (g_steal_pointer (&w)));
  return emit (g_string_free (g_steal_pointer (&text), FALSE));
}

/* --------------------------------------------------------------- import -- */

typedef struct {
  char *route, *obstacle, *behaviour, *parameters;
  double load_kg;
} ConfigOptions;

static gboolean
new_config (NbCampaign *campaign, guint clause, const char *name, const ConfigOptions *o,
            NbCampaignConfig *config, GError **error)
{
  NbCampaignConfig existing;

  if (nb_campaign_find_config (campaign, clause, name, &existing, error))
    {
      nb_campaign_config_clear (&existing);
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: clause %u already has a configuration '%s'; import under another name",
                   nb_campaign_get_path (campaign), clause, name);
      return FALSE;
    }
  if (error && *error)
    return FALSE;
  config->clause = clause;
  config->name = g_strdup (name);
  config->route = g_strdup (o->route);
  config->obstacle = g_strdup (o->obstacle);
  config->behaviour = g_strdup (o->behaviour);
  config->parameters = g_strdup (o->parameters);
  config->load_kg = o->load_kg;
  return nb_campaign_add_config (campaign, config, error);
}

typedef struct {
  NbCampaign *campaign;
  gint64 config_id;
  GHashTable *index;                    /* label → trial id */
  GArray *ids;                          /* of gint64, in order of first appearance */
  GPtrArray *labels;                    /* the trials' labels, in the same order */
  gint64 current;
} PathImport;

static gboolean
import_path_sample (const char *trial, gboolean new_run, guint64 line, double x_mm, double y_mm,
                    double t_s, gpointer user_data, GError **error)
{
  PathImport *imp = user_data;
  NbTrackSample s = { t_s, x_mm, y_mm, NAN, NAN };

  if (new_run)
    {
      gpointer found;

      if (g_hash_table_lookup_extended (imp->index, trial, NULL, &found))
        imp->current = *(gint64 *) found;
      else
        {
          NbCampaignTrial t;

          nb_campaign_trial_init (&t);
          t.label = g_strdup (trial);
          t.number = imp->ids->len + 1;
          if (!nb_campaign_begin_trial (imp->campaign, imp->config_id, &t, error))
            {
              nb_campaign_trial_clear (&t);
              return FALSE;
            }
          g_array_append_val (imp->ids, t.id);
          g_ptr_array_add (imp->labels, g_strdup (trial));
          g_hash_table_insert (imp->index, g_strdup (trial), g_memdup2 (&t.id, sizeof t.id));
          imp->current = t.id;
          nb_campaign_trial_clear (&t);
        }
    }
  return nb_campaign_add_samples (imp->campaign, imp->current, &s, 1, error);
}

static gboolean
import_timed (NbCampaign *campaign, guint clause, const char *only, const ConfigOptions *o,
              GArray *rows, const char *input, guint *n_trials, GError **error)
{
  g_autoptr (GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  for (guint i = 0; i < rows->len; i++)
    {
      NbTimedRow *row = &g_array_index (rows, NbTimedRow, i);
      gint64 *id;
      NbCampaignTrial t;
      gboolean ok;

      if (only != NULL && !g_str_equal (only, row->config))
        continue;
      if ((id = g_hash_table_lookup (ids, row->config)) == NULL)
        {
          NbCampaignConfig config;

          nb_campaign_config_init (&config);
          ok = new_config (campaign, clause, row->config, o, &config, error);
          if (ok)
            g_hash_table_insert (ids, row->config, id = g_memdup2 (&config.id, sizeof config.id));
          nb_campaign_config_clear (&config);
          if (!ok)
            return FALSE;
        }
      nb_campaign_trial_init (&t);
      t.number = row->trial.trial;
      t.kind = clause == 7 ? g_strdup (row->baseline ? "baseline" : "obstacle") : NULL;
      t.time_s = row->trial.time_s;
      t.outcome = row->trial.success ? NB_TRIAL_OK : NB_TRIAL_FAILED;
      ok = nb_campaign_record_trial (campaign, *id, &t, error);
      nb_campaign_trial_clear (&t);
      if (!ok)
        return FALSE;
      (*n_trials)++;
    }
  if (*n_trials == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no rows of config '%s'", input, only);
      return FALSE;
    }
  return TRUE;
}

/* Clause 10 from the robot's own map: the corners found in MAP.yaml become
 * the next trial of the configuration (created with --truth the first time);
 * a map with defects beyond the accepted range is a failed trial (10.3).
 * What the extraction found goes into the event log, so a corner corrected
 * later by hand (`campaign edit … corner2_x_mm=…`) keeps both. */
static gboolean
import_map (NbCampaign *campaign, const char *config_name, const ConfigOptions *o,
            NbCampaignConfig *config, gboolean have_truth, const char *map_path,
            double build_time_s, guint *n_trials, GError **error)
{
  g_autoptr (NbMapAnalysis) a = NULL;
  g_autoptr (GArray) existing = NULL;
  g_autoptr (GString) found = g_string_new (NULL);
  g_autoptr (GString) reason = g_string_new (NULL);
  g_autofree char *subject = NULL;
  NbCampaignConfig stored;
  NbCampaignTrial t;
  gboolean known;

  nb_campaign_config_init (&stored);
  known = nb_campaign_find_config (campaign, 10, config_name, &stored, error);
  if (!known && error != NULL && *error != NULL)
    return FALSE;
  if (known)
    {
      if (have_truth)
        {
          nb_campaign_config_clear (&stored);
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "config '%s' exists: its truth is already recorded (omit --truth)",
                       config_name);
          return FALSE;
        }
      nb_campaign_config_clear (config);
      *config = stored;
    }
  else
    {
      if (!have_truth)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "--truth T.csv is required for the first map of config '%s'",
                       config_name);
          return FALSE;
        }
      if (!new_config (campaign, 10, config_name, o, config, error))
        return FALSE;
    }

  if ((a = nb_map_analyse (map_path, (const double (*)[2]) config->truth_mm, NULL, error)) == NULL)
    return FALSE;
  if ((existing = nb_campaign_list_trials (campaign, config->id, error)) == NULL)
    return FALSE;

  nb_campaign_trial_init (&t);
  t.number = existing->len + 1;
  memcpy (t.corners_mm, a->fit->corner_mm, sizeof t.corners_mm);
  t.time_s = build_time_s;
  t.outcome = a->fit->passed ? NB_TRIAL_OK : NB_TRIAL_FAILED;
  for (guint i = 0; i < a->fit->defects->len; i++)
    {
      NbMapDefect *d = &g_array_index (a->fit->defects, NbMapDefect, i);

      if (d->accepted)
        continue;
      g_string_append_printf (reason, "%s%s on wall %u (%.0f mm)", reason->len ? "; " : "",
                              nb_map_defect_kind_to_string (d->kind), d->wall + 1, d->length_mm);
    }
  t.reason = reason->len ? reason->str : NULL;       /* borrowed */
  if (!nb_campaign_record_trial (campaign, config->id, &t, error))
    return FALSE;

  g_string_append_printf (found, "map %s; Dm %.3f mm; corners (mm, ±1σ):", map_path, a->dm_mm);
  for (int k = 0; k < 4; k++)
    g_string_append_printf (found, " A'%d %.2f,%.2f ±%.2f", k + 1, a->fit->corner_mm[k][0],
                            a->fit->corner_mm[k][1], a->fit->corner_sigma_mm[k]);
  g_string_append_printf (found, "; walls RMS (mm): %.2f %.2f %.2f %.2f",
                          a->fit->walls[0].residual_mm, a->fit->walls[1].residual_mm,
                          a->fit->walls[2].residual_mm, a->fit->walls[3].residual_mm);
  if (reason->len)
    g_string_append_printf (found, "; defects: %s", reason->str);
  subject = g_strdup_printf ("config '%s', trial %u", config_name, t.number);
  if (!nb_campaign_log (campaign, "map corners found", subject, NULL, found->str, error))
    return FALSE;
  (*n_trials)++;
  return TRUE;
}

static int
campaign_import (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autofree char *db = NULL, *config_name = NULL, *input = NULL, *truth = NULL;
  g_autofree char *command_text = NULL, *from_text = NULL, *to_text = NULL, *who = NULL;
  g_autofree char *load_text = NULL, *map = NULL, *build_time_text = NULL;
  ConfigOptions o = { NULL, NULL, NULL, NULL, NAN };
  double build_time_s = NAN;
  gint clause = 0;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "clause", 0, 0, G_OPTION_ARG_INT, &clause, "the test clause, 5 to 10", "N" },
    { "config", 0, 0, G_OPTION_ARG_STRING, &config_name,
      "the configuration to create (clauses 7, 9: only the file's rows of that config)", "NAME" },
    { "input", 0, 0, G_OPTION_ARG_FILENAME, &input, "the measured data, as for compute",
      "F.csv" },
    { "command", 0, 0, G_OPTION_ARG_STRING, &command_text, "clause 5: the command pose",
      "X,Y,THETA" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_text, "clause 8: P0 of the segment", "X0,Y0" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to_text, "clause 8: P1 of the segment", "X1,Y1" },
    { "truth", 0, 0, G_OPTION_ARG_FILENAME, &truth, "clause 10: the arena's corners", "T.csv" },
    { "map", 0, 0, G_OPTION_ARG_FILENAME, &map,
      "clause 10: the robot's map (map_server YAML) instead of --input: one more trial", "MAP.yaml" },
    { "build-time-s", 0, 0, G_OPTION_ARG_STRING, &build_time_text,
      "clause 10, with --map: the time taken to build the map", "S" },
    { "route", 0, 0, G_OPTION_ARG_STRING, &o.route, "the configuration's route", "R" },
    { "load-kg", 0, 0, G_OPTION_ARG_STRING, &load_text, "the configuration's load", "KG" },
    { "obstacle", 0, 0, G_OPTION_ARG_STRING, &o.obstacle, "the configuration's obstacle", "O" },
    { "behaviour", 0, 0, G_OPTION_ARG_STRING, &o.behaviour, "the configuration's behaviour", "B" },
    { "parameters", 0, 0, G_OPTION_ARG_STRING, &o.parameters, "free parameters", "TEXT" },
    { "who", 0, 0, G_OPTION_ARG_STRING, &who, "who the event log names", "W" },
    { NULL }
  };
  NbCampaignConfig config;
  guint n_trials = 0;
  gboolean ok = FALSE;
  double load[1];

  g_option_context_set_summary (context,
    "Records trials measured elsewhere: the CSV formats of 'compute <clause>'\n"
    "(5 pose, 6 detection, 7 avoidance, 8 path, 9 passage, 10 mapping with --truth).\n"
    "The whole file is one transaction: it is recorded entirely or not at all.");
  g_option_context_add_main_entries (context, entries, NULL);
  nb_campaign_config_init (&config);
  if (!nb_cli_parse (context, &argc, &argv, &error) || !require_db (db, &error))
    goto out;
  if (nb_clause_get ((guint) clause) == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--clause N: 5 to 10");
      goto out;
    }
  if (config_name == NULL && clause != 7 && clause != 9)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--config NAME is required");
      goto out;
    }
  if (map != NULL && (clause != 10 || input != NULL))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--map is for clause 10, instead of --input");
      goto out;
    }
  if (build_time_text != NULL && map == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--build-time-s goes with --map");
      goto out;
    }
  if (build_time_text != NULL &&
      (!nb_cli_parse_numbers ("build-time-s", build_time_text, &build_time_s, 1, "S", &error) ||
       !(build_time_s >= 0.0)))
    {
      if (error == NULL)
        g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--build-time-s must not be negative");
      goto out;
    }
  if (input == NULL && map == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--input F.csv is required");
      goto out;
    }
  if (load_text && !nb_cli_parse_numbers ("load-kg", load_text, load, 1, "KG", &error))
    goto out;
  if (load_text)
    o.load_kg = load[0];
  /* Options first, then the file; the campaign is opened last. */
  if (clause == 5)
    {
      double c[3];

      if (!nb_cli_parse_numbers ("command", command_text, c, 3, "X,Y,THETA (mm, mm, °)", &error))
        goto out;
      config.command = (NbPose) { c[0], c[1], c[2] };
    }
  if (clause == 8)
    {
      NbSegment segment;

      if (!nb_cli_parse_numbers ("from", from_text, config.from_mm, 2, "X0,Y0 in mm", &error) ||
          !nb_cli_parse_numbers ("to", to_text, config.to_mm, 2, "X1,Y1 in mm", &error) ||
          !nb_segment_init (&segment, config.from_mm[0], config.from_mm[1], config.to_mm[0],
                            config.to_mm[1], &error))
        goto out;
    }
  if (clause == 10)
    {
      if (truth == NULL && map == NULL)
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--truth T.csv is required for clause 10");
          goto out;
        }
      if (truth != NULL && !nb_measurements_read_truth_corners (truth, config.truth_mm, &error))
        goto out;
    }
  if ((campaign = nb_campaign_open (db, 0, &error)) == NULL)
    goto out;
  if (who)
    nb_campaign_set_who (campaign, who);
  if (!nb_campaign_transaction_begin (campaign, &error))
    goto out;

  switch (clause)
    {
    case 5:
      {
        g_autoptr (GArray) poses = nb_measurements_read_poses (input, &error);

        if (poses == NULL || !new_config (campaign, 5, config_name, &o, &config, &error))
          goto rollback;
        for (guint i = 0; i < poses->len; i++)
          {
            NbCampaignTrial t;

            nb_campaign_trial_init (&t);
            t.number = i + 1;
            t.command = config.command;
            t.attained = g_array_index (poses, NbPose, i);
            t.outcome = NB_TRIAL_OK;
            if (!nb_campaign_record_trial (campaign, config.id, &t, &error))
              goto rollback;
            n_trials++;
          }
        break;
      }
    case 6:
      {
        g_autoptr (GArray) rows = nb_measurements_read_detection (input, &error);

        if (rows == NULL || !new_config (campaign, 6, config_name, &o, &config, &error))
          goto rollback;
        for (guint i = 0; i < rows->len; i++)
          {
            NbPlacement *p = &g_array_index (rows, NbPlacement, i);
            NbCampaignTrial t;

            nb_campaign_trial_init (&t);
            t.number = i + 1;
            t.label = p->obstacle;          /* borrowed */
            t.kind = (char *) (p->max_range ? "max" : "min");
            t.angle_deg = p->angle_deg;
            t.true_mm = p->true_mm;
            t.measured_mm = p->measured_mm;
            t.detected = p->detected;
            t.outcome = NB_TRIAL_OK;
            ok = nb_campaign_record_trial (campaign, config.id, &t, &error);
            if (!ok)
              goto rollback;
            n_trials++;
          }
        break;
      }
    case 7:
    case 9:
      {
        g_autoptr (GArray) rows = clause == 7 ? nb_measurements_read_avoidance (input, &error)
                                              : nb_measurements_read_passage (input, &error);

        if (rows == NULL ||
            !import_timed (campaign, (guint) clause, config_name, &o, rows, input, &n_trials,
                           &error))
          goto rollback;
        break;
      }
    case 8:
      {
        g_autoptr (GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                              g_free);
        g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
        g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
        PathImport imp = { campaign, 0, index, ids, labels, 0 };

        if (!new_config (campaign, 8, config_name, &o, &config, &error))
          goto rollback;
        imp.config_id = config.id;
        if (!nb_measurements_read_path (input, import_path_sample, &imp, &error))
          goto rollback;
        for (guint i = 0; i < ids->len; i++)
          {
            NbCampaignTrial t;

            nb_campaign_trial_init (&t);
            t.id = g_array_index (ids, gint64, i);
            t.number = i + 1;
            t.label = g_ptr_array_index (labels, i);    /* borrowed */
            t.outcome = NB_TRIAL_OK;
            if (!nb_campaign_end_trial (campaign, &t, &error))
              goto rollback;
            n_trials++;
          }
        break;
      }
    case 10:
      if (map != NULL)
        {
          if (!import_map (campaign, config_name, &o, &config, truth != NULL, map, build_time_s,
                           &n_trials, &error))
            goto rollback;
          break;
        }
      {
        g_autoptr (GArray) trials = nb_measurements_read_map_corners (input, &error);

        if (trials == NULL || !new_config (campaign, 10, config_name, &o, &config, &error))
          goto rollback;
        for (guint i = 0; i < trials->len; i++)
          {
            NbMapCorners *m = &g_array_index (trials, NbMapCorners, i);
            NbCampaignTrial t;

            nb_campaign_trial_init (&t);
            t.number = m->trial;
            memcpy (t.corners_mm, m->corner_mm, sizeof t.corners_mm);
            t.outcome = NB_TRIAL_OK;
            if (!nb_campaign_record_trial (campaign, config.id, &t, &error))
              goto rollback;
            n_trials++;
          }
        break;
      }
    }
  {
    g_autofree char *subject = g_strdup_printf ("clause %d", clause);
    g_autofree char *what = g_strdup_printf ("%u trials imported", n_trials);

    if (!nb_campaign_log (campaign, what, subject, NULL, input ? input : map, &error) ||
        !nb_campaign_transaction_commit (campaign, &error))
      goto rollback;
  }
  ok = nb_campaign_close (g_steal_pointer (&campaign), &error);
  goto out;

rollback:
  nb_campaign_transaction_rollback (campaign);
out:
  nb_campaign_config_clear (&config);
  g_free (o.route);
  g_free (o.obstacle);
  g_free (o.behaviour);
  g_free (o.parameters);
  if (!ok)
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}

/* -------------------------------------------------------------- results -- */

/* The keys of `compute <clause> --json`, with "config" first. */
static void
json_config_result (NbJsonWriter *w, const NbConfigResult *r)
{
  nb_json_begin_object (w);
  nb_json_key (w, "config"); nb_json_string (w, r->config);
  if (r->error != NULL)
    {
      nb_json_key (w, "error"); nb_json_string (w, r->error);
      nb_json_end_object (w);
      return;
    }
  switch (r->clause)
    {
    case 5:
      nb_cli_json_pose (w, &r->pose);
      break;
    case 6:
      nb_cli_json_detection (w, &r->detection);
      break;
    case 7:
      nb_cli_json_avoidance (w, &r->avoidance);
      break;
    case 8:
      {
        guint n = nb_path_run_n_trials (r->path_run);
        g_autofree const char **labels = g_new (const char *, MAX (n, 1));

        for (guint i = 0; i < n; i++)
          labels[i] = nb_path_run_trial (r->path_run, i)->label;
        nb_cli_json_path (w, &r->path, nb_path_run_samples (r->path_run), labels, r->d_mm, n);
        break;
      }
    case 9:
      nb_cli_json_passage (w, &r->passage);
      break;
    case 10:
      nb_cli_json_mapping (w, (const guint *) r->numbers->data, (const double *) r->values->data,
                           r->values->len, r->accuracy_mm);
      break;
    }
  nb_json_end_object (w);
}

/* A figure for a person: its decimals, "—" when undefined (as nb-table). */
static const char *
num (char buf[32], double v, int decimals)
{
  if (!isfinite (v))
    return "—";
  g_snprintf (buf, 32, "%.*f", decimals, v);
  return buf;
}

/* The figure a person reads first, per clause. */
static void
text_config_result (GString *out, const NbConfigResult *r)
{
  char a[32], b[32], c[32], d[32];

  g_string_append_printf (out, "  %-24s ", r->config);
  if (r->error != NULL)
    {
      g_string_append_printf (out, "cannot be computed: %s\n", r->error);
      return;
    }
  switch (r->clause)
    {
    case 5:
      g_string_append_printf (out, "n %" G_GUINT64_FORMAT "  Ap %s mm  Ao %s°  Rp %s mm  Ro ±%s°\n",
                              r->pose.n, num (a, r->pose.ap_mm, 2), num (b, r->pose.ao_deg, 3),
                              num (c, r->pose.rp_mm, 2), num (d, r->pose.ro_deg, 3));
      break;
    case 6:
      g_string_append_printf (out, "%u placements, %u detected, mean accuracy %s %%\n",
                              r->detection.all.placements, r->detection.all.detected,
                              num (a, nb_detection_tally_mean_accuracy_pct (&r->detection.all), 2));
      break;
    case 7:
      g_string_append_printf (out, "%s  T0 %s s  T1 %s s  T1/T0 %s\n",
                              r->avoidance.passed ? "passed" : "not passed",
                              num (a, r->avoidance.t0_s, 2), num (b, r->avoidance.t1_s, 2),
                              num (c, r->avoidance.delay_ratio, 3));
      break;
    case 8:
      g_string_append_printf (out, "n %" G_GUINT64_FORMAT "  d = max |d_i| %s mm  mean %s mm"
                              "  std %s mm\n", r->path.n, num (a, r->path.max_mm, 2),
                              num (b, r->path.mean_mm, 2), num (c, r->path.std_mm, 2));
      break;
    case 9:
      g_string_append_printf (out, "%s  passage time %s s  %u failed\n",
                              r->passage.passed ? "passed" : "not passed",
                              num (a, r->passage.mean_time_s, 2), r->passage.failed_trials);
      break;
    case 10:
      g_string_append_printf (out, "%u trials  accuracy (max Dm) %s mm\n", r->values->len,
                              num (a, r->accuracy_mm, 2));
      break;
    }
}

static int
campaign_results (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autofree char *db = NULL;
  gboolean json = FALSE, stored = FALSE;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GPtrArray) per_clause = g_ptr_array_new_with_free_func (g_free);

  g_option_context_set_summary (context,
    "The figures of every clause from the stored trials, with the metric engine of\n"
    "'compute' (the same JSON keys, plus \"config\").  Counted: ok trials, and for\n"
    "clauses 7 and 9 failed ones too; aborted and incomplete trials are not.\n"
    "The figures are stored in the campaign unless another navbench has it open.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) || !require_db (db, &error))
    return nb_cli_report_error (error);
  campaign = nb_campaign_open (db, 0, &error);
  if (campaign == NULL)
    {
      g_clear_error (&error);
      if ((campaign = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error)) == NULL)
        return nb_cli_report_error (error);
    }
  else
    stored = TRUE;

  nb_json_begin_object (w);
  nb_json_key (w, "clauses");
  nb_json_begin_object (w);
  for (guint clause = 5; clause <= 10; clause++)
    {
      g_autoptr (GArray) configs = nb_campaign_list_configs (campaign, clause, &error);
      g_autoptr (GArray) results = g_array_new (FALSE, TRUE, sizeof (NbConfigResult));
      g_autoptr (NbJsonWriter) one = nb_json_writer_new ();
      g_autofree char *key = g_strdup_printf ("%u", clause);

      g_array_set_clear_func (results, nb_config_result_clear);
      if (configs == NULL)
        return nb_cli_report_error (error);
      g_array_set_size (results, configs->len);
      for (guint i = 0; i < configs->len; i++)
        if (!nb_config_result_compute (campaign, &g_array_index (configs, NbCampaignConfig, i),
                             &g_array_index (results, NbConfigResult, i), &error))
          return nb_cli_report_error (error);

      nb_json_key (w, key);
      nb_json_begin_array (w);
      nb_json_begin_array (one);
      if (configs->len > 0)
        g_string_append_printf (text, "Clause %u — %s (protocol table %u)\n", clause,
                                nb_clause_get (clause)->title, nb_clause_get (clause)->table);
      for (guint i = 0; i < results->len; i++)
        {
          json_config_result (w, &g_array_index (results, NbConfigResult, i));
          json_config_result (one, &g_array_index (results, NbConfigResult, i));
          text_config_result (text, &g_array_index (results, NbConfigResult, i));
        }
      nb_json_end_array (w);
      nb_json_end_array (one);
      g_ptr_array_add (per_clause, nb_json_writer_finish (g_steal_pointer (&one)));
    }
  nb_json_end_object (w);
  nb_json_end_object (w);

  if (stored)
    {
      if (!nb_campaign_transaction_begin (campaign, &error))
        return nb_cli_report_error (error);
      for (guint clause = 5; clause <= 10; clause++)
        if (!nb_campaign_store_result (campaign, clause, g_ptr_array_index (per_clause, clause - 5),
                                       &error))
          {
            nb_campaign_transaction_rollback (campaign);
            return nb_cli_report_error (error);
          }
      if (!nb_campaign_transaction_commit (campaign, &error))
        return nb_cli_report_error (error);
    }
  if (!nb_campaign_close (g_steal_pointer (&campaign), &error))
    return nb_cli_report_error (error);
  if (json)
    return emit (nb_json_writer_finish (g_steal_pointer (&w)));
  if (text->len == 0)
    g_string_append (text, "No configurations recorded yet.\n");
  return emit (g_string_free (g_steal_pointer (&text), FALSE));
}

/* --------------------------------------------------------------- export -- */

typedef struct {
  FILE *out;
  gboolean failed;
  const char *prefix;                   /* clause 8: the config and path columns */
  const char *label;
} CsvOut;

static void
csv_text (CsvOut *o, const char *s, gboolean last)
{
  /* RFC 4180 quoting by libcsv for text; numbers are written bare. */
  if (csv_fwrite (o->out, s, strlen (s)) != 0)
    o->failed = TRUE;
  fputc (last ? '\n' : ',', o->out);
}

static void
csv_number (CsvOut *o, double v, gboolean last)
{
  char buf[40];

  /* The shortest decimal that reads back as the same double: figures
   * recomputed from the export are the stored ones, to the bit. */
  if (!isnan (v))
    fputs (nb_json_format_double (buf, sizeof buf, v == 0.0 ? 0.0 : v), o->out);
  fputc (last ? '\n' : ',', o->out);
}

static void
csv_header (CsvOut *o, const char *const *names)
{
  for (guint i = 0; names[i] != NULL; i++)
    csv_text (o, names[i], names[i + 1] == NULL);
}

static gboolean
export_path_block (const NbTrackSample *s, gsize n, gpointer user_data, GError **error)
{
  CsvOut *o = user_data;

  for (gsize i = 0; i < n; i++)
    {
      fputs (o->prefix, o->out);
      csv_text (o, o->label, FALSE);
      csv_number (o, s[i].t_s, FALSE);
      csv_number (o, s[i].x_mm, FALSE);
      csv_number (o, s[i].y_mm, TRUE);
    }
  return TRUE;
}

static gboolean
export_config (NbCampaign *campaign, const NbCampaignConfig *c, gboolean truth, CsvOut *o,
               GError **error)
{
  g_autoptr (GArray) trials = nb_campaign_list_trials (campaign, c->id, error);

  if (trials == NULL)
    return FALSE;
  if (c->clause == 10 && truth)
    {
      for (guint k = 0; k < 4; k++)
        {
          csv_text (o, c->name, FALSE);
          csv_number (o, k + 1, FALSE);
          csv_number (o, c->truth_mm[k][0], FALSE);
          csv_number (o, c->truth_mm[k][1], TRUE);
        }
      return TRUE;
    }
  for (guint i = 0; i < trials->len; i++)
    {
      NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      if (!nb_campaign_trial_counts (c->clause, t))
        continue;
      switch (c->clause)
        {
        case 5:
          csv_text (o, c->name, FALSE);
          csv_number (o, c->command.x_mm, FALSE);
          csv_number (o, c->command.y_mm, FALSE);
          csv_number (o, c->command.theta_deg, FALSE);
          csv_number (o, t->number, FALSE);
          csv_number (o, t->attained.x_mm, FALSE);
          csv_number (o, t->attained.y_mm, FALSE);
          csv_number (o, t->attained.theta_deg, TRUE);
          break;
        case 6:
          csv_text (o, c->name, FALSE);
          csv_text (o, t->label ? t->label : "", FALSE);
          csv_number (o, t->angle_deg, FALSE);
          csv_text (o, t->kind ? t->kind : "", FALSE);
          csv_number (o, t->true_mm, FALSE);
          csv_number (o, t->measured_mm, FALSE);
          fputs (t->detected ? "1\n" : "0\n", o->out);
          break;
        case 7:
        case 9:
          csv_text (o, c->name, FALSE);
          if (c->clause == 7)
            csv_text (o, t->kind ? t->kind : "obstacle", FALSE);
          csv_number (o, t->number, FALSE);
          csv_number (o, t->time_s, FALSE);
          fputs (t->outcome == NB_TRIAL_OK ? "1\n" : "0\n", o->out);
          break;
        case 8:
          {
            g_autoptr (GString) prefix = g_string_new (NULL);
            char buf[40];

            {
              /* config and the commanded segment, the same on every row */
              g_autofree char *name = NULL;
              size_t need = csv_write (NULL, 0, c->name, strlen (c->name));

              name = g_malloc (need + 1);
              csv_write (name, need, c->name, strlen (c->name));
              name[need] = '\0';
              g_string_append_printf (prefix, "%s,", name);
            }
            for (guint k = 0; k < 4; k++)
              g_string_append_printf (prefix, "%s,",
                                      nb_json_format_double (buf, sizeof buf,
                                                             k < 2 ? c->from_mm[k]
                                                                   : c->to_mm[k - 2]));
            o->prefix = prefix->str;
            o->label = t->label ? t->label : "";
            if (!nb_campaign_foreach_samples (campaign, t->id, export_path_block, o, error))
              return FALSE;
            o->prefix = NULL;
            break;
          }
        case 10:
          for (guint k = 0; k < 4; k++)
            {
              csv_text (o, c->name, FALSE);
              csv_number (o, t->number, FALSE);
              csv_number (o, k + 1, FALSE);
              csv_number (o, t->corners_mm[k][0], FALSE);
              csv_number (o, t->corners_mm[k][1], TRUE);
            }
          break;
        }
    }
  return TRUE;
}

static const char *const export_columns[][10] = {
  [5] = { "config", "command_x_mm", "command_y_mm", "command_theta_deg", "trial", "x_mm", "y_mm",
          "theta_deg", NULL },
  [6] = { "config", "obstacle", "angle_deg", "range", "true_mm", "measured_mm", "detected", NULL },
  [7] = { "config", "kind", "trial", "time_s", "success", NULL },
  [8] = { "config", "from_x_mm", "from_y_mm", "to_x_mm", "to_y_mm", "trial", "t_s", "x_mm",
          "y_mm" },
  [9] = { "config", "trial", "time_s", "success", NULL },
  [10] = { "config", "trial", "corner", "x_mm", "y_mm", NULL },
};

static const char *const truth_columns[] = { "config", "corner", "x_mm", "y_mm", NULL };

int
nb_cli_export (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autoptr (GArray) configs = NULL;
  g_autofree char *db = NULL, *config_name = NULL, *format = NULL, *output = NULL;
  g_autofree char *tmp = NULL;
  gint clause = 0, table = 0;
  gboolean truth = FALSE;
  g_autofree char *lang = NULL;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "trials", 0, 0, G_OPTION_ARG_INT, &clause, "the clause whose trials to write, 5 to 10",
      "N" },
    { "table", 0, 0, G_OPTION_ARG_INT, &table,
      "or a table of the protocol, 1 or 3 to 7 (--format csv|json)", "N" },
    { "lang", 0, 0, G_OPTION_ARG_STRING, &lang, "--table: ru or en (default)", "LANG" },
    { "config", 0, 0, G_OPTION_ARG_STRING, &config_name, "only this configuration", "NAME" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, "csv (the formats 'compute' reads)", "csv" },
    { "truth", 0, 0, G_OPTION_ARG_NONE, &truth, "clause 10: the arena's corners, not the map's",
      NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "write to F (complete or not at all) instead of stdout", "F" },
    { NULL }
  };
  CsvOut o = { NULL, FALSE, NULL, NULL };
  guint written = 0;

  g_option_context_set_summary (context,
    "Writes a clause's stored trials in the CSV format 'compute <clause>' reads, with\n"
    "a config column (and the command pose or the commanded segment), so every\n"
    "figure of 'campaign results' can be recomputed outside navbench.  Clause 10\n"
    "writes the map's corners, or with --truth the arena's.  Written: the trials\n"
    "'campaign results' counts.\n\n"
    "With --table N, writes a table of the test protocol instead (as 'report' shows\n"
    "it) as CSV or JSON.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) || !require_db (db, &error))
    return nb_cli_report_error (error);
  if (table != 0 && clause != 0)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--trials or --table, not both");
      return nb_cli_report_error (error);
    }
  if (table != 0)
    return nb_cli_export_table (db, (guint) table, format, lang, output);
  if (nb_clause_get ((guint) clause) == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--trials N: a clause, 5 to 10");
      return nb_cli_report_error (error);
    }
  if (format != NULL && !g_str_equal (format, "csv"))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--format %s: only csv is written", format);
      return nb_cli_report_error (error);
    }
  if (truth && clause != 10)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--truth is for clause 10");
      return nb_cli_report_error (error);
    }
  if ((campaign = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error)) == NULL ||
      (configs = nb_campaign_list_configs (campaign, (guint) clause, &error)) == NULL)
    return nb_cli_report_error (error);

  if (output != NULL)
    {
      tmp = g_strconcat (output, ".part", NULL);
      o.out = fopen (tmp, "w");
      if (o.out == NULL)
        {
          int saved = errno;

          g_set_error (&error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", tmp, g_strerror (saved));
          return nb_cli_report_error (error);
        }
    }
  else
    o.out = stdout;
  csv_header (&o, truth ? truth_columns : export_columns[clause]);
  for (guint i = 0; i < configs->len; i++)
    {
      NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);

      if (config_name != NULL && !g_str_equal (config_name, c->name))
        continue;
      if (!export_config (campaign, c, truth, &o, &error))
        goto fail;
      written++;
    }
  if (written == 0 && config_name != NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "%s: clause %d has no configuration '%s'",
                   db, clause, config_name);
      goto fail;
    }
  if (fflush (o.out) != 0 || ferror (o.out) || o.failed)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_FAILED, "writing the export: %s",
                   g_strerror (errno));
      goto fail;
    }
  if (output != NULL)
    {
      if (fclose (o.out) != 0 || rename (tmp, output) != 0)
        {
          int saved = errno;

          o.out = NULL;
          g_set_error (&error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", output, g_strerror (saved));
          goto fail;
        }
    }
  return NB_EXIT_OK;

fail:
  if (output != NULL)
    {
      if (o.out)
        fclose (o.out);
      unlink (tmp);
    }
  return nb_cli_report_error (error);
}

/* ------------------------------------------------------------- dispatch -- */

static const NbCliCommand campaign_commands[] = {
  { "new", campaign_new, "create a campaign file" },
  { "info", campaign_info, "what a campaign holds (--json)" },
  { "set", campaign_set, "set robot, condition and instrument fields (KEY=VALUE…)" },
  { "edit", campaign_edit, "correct a recorded value of a trial (logged with the old value)" },
  { "import", campaign_import, "record trials measured elsewhere (the CSV of compute)" },
  { "results", campaign_results, "every clause's figures from the stored trials" },
  { "run", nb_cli_campaign_run, "drive the robot through a clause's trials and record them" },
  { "register", nb_cli_campaign_register,
    "fit the instrument frame to surveyed reference points and store it" },
};

int
nb_cli_campaign (int argc, char **argv)
{
  return nb_cli_dispatch ("campaign", campaign_commands, G_N_ELEMENTS (campaign_commands), argc,
                          argv);
}
