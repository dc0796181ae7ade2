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
#include "nb-clause-9283.h"
#include "nb-clause-results.h"
#include "nb-conditions.h"
#include "nb-error.h"
#include "nb-json-writer.h"
#include "nb-map-file.h"
#include "nb-measurements.h"
#include "nb-metrics.h"
#include "nb-number.h"
#include "nb-table.h"

#include <csv.h>
#include <json-glib/json-glib.h>
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
        flag = nb_condition_check (NULL, ranges[i].key, value, g_strcmp0 (env, "outdoor") == 0);
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
      /* The clause's own members (5: command; 8: from_mm, to_mm). */
      {
        const NbClause *clause = nb_clause_lookup (c->clause);

        if (clause != NULL && clause->config_json != NULL)
          clause->config_json (w, c);
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

static int
campaign_import (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autofree char *db = NULL, *config_name = NULL, *input = NULL, *truth = NULL;
  g_autofree char *command_text = NULL, *from_text = NULL, *to_text = NULL, *who = NULL;
  g_autofree char *load_text = NULL, *map = NULL, *build_time_text = NULL, *track = NULL;
  g_autofree char *defect_range_text = NULL;
  g_autofree char *route = NULL, *obstacle = NULL, *behaviour = NULL, *parameters = NULL;
  gint clause_number = 0;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "clause", 0, 0, G_OPTION_ARG_INT, &clause_number, "the test clause, 5 to 10", "N" },
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
    { "defect-range-mm", 0, 0, G_OPTION_ARG_STRING, &defect_range_text,
      "clause 10: the experts' accepted range of map defects (10.2): an open contour no wider, "
      "a shadow no farther from its wall", "X" },
    { "track", 0, 0, G_OPTION_ARG_FILENAME, &track,
      "clauses 5, 7, 8, 9: a recorded session (t_s, x_mm, y_mm[, theta_deg]) whose trials are "
      "found as a live operator run finds them, instead of --input", "F.csv" },
    { "route", 0, 0, G_OPTION_ARG_STRING, &route, "the configuration's route", "R" },
    { "load-kg", 0, 0, G_OPTION_ARG_STRING, &load_text, "the configuration's load", "KG" },
    { "obstacle", 0, 0, G_OPTION_ARG_STRING, &obstacle, "the configuration's obstacle", "O" },
    { "behaviour", 0, 0, G_OPTION_ARG_STRING, &behaviour, "the configuration's behaviour", "B" },
    { "parameters", 0, 0, G_OPTION_ARG_STRING, &parameters, "free parameters", "TEXT" },
    { "who", 0, 0, G_OPTION_ARG_STRING, &who, "who the event log names", "W" },
    { NULL }
  };
  const NbClause *clause;
  NbCampaignConfig given;
  NbClauseImport in = { 0 };
  guint n_trials = 0;
  gboolean ok = FALSE;
  double c[3];

  g_option_context_set_summary (context,
    "Records trials measured elsewhere: the CSV formats of 'compute <clause>'\n"
    "(5 pose, 6 detection, 7 avoidance, 8 path, 9 passage, 10 mapping with --truth).\n"
    "The whole file is one transaction: it is recorded entirely or not at all.");
  g_option_context_add_main_entries (context, entries, NULL);
  nb_campaign_config_init (&given);
  in.given = &given;
  in.build_time_s = NAN;
  in.defect_range_mm = NAN;
  if (!nb_cli_parse (context, &argc, &argv, &error) || !require_db (db, &error))
    goto out;
  if ((clause = nb_clause_lookup ((guint) clause_number)) == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--clause N: 5 to 10");
      goto out;
    }
  if (build_time_text != NULL && map == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--build-time-s goes with --map");
      goto out;
    }
  if (map != NULL && input != NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--map is for clause 10, instead of --input");
      goto out;
    }
  if (build_time_text != NULL &&
      (!nb_cli_parse_numbers ("build-time-s", build_time_text, &in.build_time_s, 1, "S", &error) ||
       !(in.build_time_s >= 0.0)))
    {
      if (error == NULL)
        g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--build-time-s must not be negative");
      goto out;
    }
  if (defect_range_text != NULL &&
      !nb_clause_refuse_option (clause, NB_CLAUSE_OPT_MAP, "--defect-range-mm", &error))
    goto out;
  if (defect_range_text != NULL &&
      (!nb_cli_parse_numbers ("defect-range-mm", defect_range_text, &in.defect_range_mm, 1, "X",
                              &error) || !(in.defect_range_mm >= 0.0)))
    {
      if (error == NULL)
        g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--defect-range-mm must not be negative");
      goto out;
    }
  /* Only parsing here: which of them the clause needs is its module's to say. */
  if (load_text && !nb_cli_parse_numbers ("load-kg", load_text, &given.load_kg, 1, "KG", &error))
    goto out;
  if (command_text != NULL)
    {
      if (!nb_cli_parse_numbers ("command", command_text, c, 3, "X,Y,THETA (mm, mm, °)", &error))
        goto out;
      given.command = (NbPose) { c[0], c[1], c[2] };
      in.have_command = TRUE;
    }
  if ((from_text != NULL &&
       !nb_cli_parse_numbers ("from", from_text, given.from_mm, 2, "X0,Y0 in mm", &error)) ||
      (to_text != NULL && !nb_cli_parse_numbers ("to", to_text, given.to_mm, 2, "X1,Y1 in mm",
                                                 &error)))
    goto out;
  in.have_segment = from_text != NULL && to_text != NULL;
  if (truth != NULL && !nb_measurements_read_truth_corners (truth, given.truth_mm, &error))
    goto out;
  in.have_truth = truth != NULL;
  given.route = g_steal_pointer (&route);
  given.obstacle = g_steal_pointer (&obstacle);
  given.behaviour = g_steal_pointer (&behaviour);
  given.parameters = g_steal_pointer (&parameters);
  in.input = input;
  in.config = config_name;
  in.map = map;
  /* Options first, then the file; the campaign is opened last. */
  if (track != NULL)
    {
      if (input != NULL || map != NULL)
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--track is instead of --input or --map");
          goto out;
        }
      ok = nb_cli_import_track (db, (guint) clause_number, config_name, given.route,
                                given.load_kg, track, who, &error);
      goto out;
    }
  if (input == NULL && map == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--input F.csv is required");
      goto out;
    }
  if (!clause->check_import (&in, &error))
    goto out;
  if ((campaign = nb_campaign_open (db, 0, &error)) == NULL)
    goto out;
  if (who)
    nb_campaign_set_who (campaign, who);
  ok = nb_clause_import (clause, campaign, &in, &n_trials, &error) &&
       nb_campaign_close (g_steal_pointer (&campaign), &error);

out:
  nb_campaign_config_clear (&given);
  if (!ok)
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}

/* -------------------------------------------------------------- results -- */

/* The results object with "iso9283": {"configs": [...]} added (both texts
 * this program's own JSON). */
static char *
with_9283 (char *results, const char *configs)
{
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autoptr (JsonParser) q = json_parser_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *owned = results;    /* parsed below, freed on return */
  JsonObject *iso = json_object_new ();
  g_autofree char *text = NULL;

  if (!json_parser_load_from_data (p, results, -1, NULL) ||
      !json_parser_load_from_data (q, configs, -1, NULL))
    g_error ("campaign results: our own JSON does not parse");
  json_object_set_member (iso, "configs", json_node_copy (json_parser_get_root (q)));
  json_object_set_object_member (json_node_get_object (json_parser_get_root (p)), "iso9283", iso);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  json_generator_set_root (gen, json_parser_get_root (p));
  text = json_generator_to_data (gen, NULL);
  return g_strconcat (text, "\n", NULL);
}

static int
campaign_results (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autoptr (NbCampaignResults) results = NULL;
  g_autofree char *db = NULL, *iso9283 = NULL;
  gboolean json = FALSE, stored = FALSE;
  guint n_9283 = 0;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };

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
  if ((results = nb_campaign_results_compute (campaign, &error)) == NULL ||
      (stored && !nb_campaign_results_store (campaign, results, &error)))
    return nb_cli_report_error (error);
  /* ISO 9283's configurations with cycles, as `campaign run --standard
   * iso9283 --json` gives them (docs/iso9283.md). */
  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      if (!nb_clause_9283_results_json (w, campaign, &n_9283, &error))
        return nb_cli_report_error (error);
      iso9283 = nb_json_writer_finish (g_steal_pointer (&w));
    }
  else
    {
      GString *t = g_string_new (NULL);

      if (!nb_clause_9283_results_text (t, campaign, NULL, &n_9283, &error))
        {
          g_string_free (t, TRUE);
          return nb_cli_report_error (error);
        }
      iso9283 = g_string_free (t, FALSE);
    }
  if (!nb_campaign_close (g_steal_pointer (&campaign), &error))
    return nb_cli_report_error (error);
  if (n_9283 == 0)
    return emit (json ? nb_campaign_results_json (results) : nb_campaign_results_text (results));
  if (!json)
    {
      g_autofree char *text = nb_campaign_results_text (results);

      return emit (g_strdup_printf ("%sISO 9283:\n%s", text, iso9283));
    }
  return emit (with_9283 (nb_campaign_results_json (results), iso9283));
}

/* --------------------------------------------------------------- export -- */

typedef struct {
  FILE *out;
  gboolean failed;
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

/* A row of the clause's measurement table (NbClause.export_trial). */
static gboolean
export_row (const NbClauseCell *cells, guint n, gpointer data, GError **error)
{
  CsvOut *o = data;

  for (guint i = 0; i < n; i++)
    {
      if (cells[i].text != NULL)
        csv_text (o, cells[i].text, i + 1 == n);
      else
        csv_number (o, cells[i].number, i + 1 == n);
    }
  return TRUE;
}

static gboolean
export_config (NbCampaign *campaign, const NbCampaignConfig *c, gboolean truth, CsvOut *o,
               GError **error)
{
  g_autoptr (GArray) trials = nb_campaign_list_trials (campaign, c->id, error);
  const NbClause *clause = nb_clause_lookup (c->clause);

  if (trials == NULL)
    return FALSE;
  /* --truth: what the trials are measured against (the clause's rows). */
  if (truth)
    return clause->export_truth (c, export_row, o, error);
  for (guint i = 0; i < trials->len; i++)
    {
      NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      if (nb_campaign_trial_counts (c->clause, t) &&
          !clause->export_trial (campaign, c, t, export_row, o, error))
        return FALSE;
    }
  return TRUE;
}

int
nb_cli_export (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autoptr (GArray) configs = NULL;
  g_autofree char *db = NULL, *config_name = NULL, *format = NULL, *output = NULL;
  g_autofree char *tmp = NULL;
  gint clause = 0, table = 0, budgets = 0;
  gboolean truth = FALSE;
  g_autofree char *lang = NULL;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "trials", 0, 0, G_OPTION_ARG_INT, &clause, "the clause whose trials to write, 5 to 10",
      "N" },
    { "table", 0, 0, G_OPTION_ARG_INT, &table,
      "or a table of the protocol, 1 or 3 to 7 (--format csv|json)", "N" },
    { "budgets", 0, 0, G_OPTION_ARG_INT, &budgets,
      "or clause N's uncertainty budgets as the protocol gives them, 5 to 10 (--format "
      "csv|json)", "N" },
    { "lang", 0, 0, G_OPTION_ARG_STRING, &lang, "--table, --budgets: ru or en (default)",
      "LANG" },
    { "config", 0, 0, G_OPTION_ARG_STRING, &config_name, "only this configuration", "NAME" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, "csv (the formats 'compute' reads)", "csv" },
    { "truth", 0, 0, G_OPTION_ARG_NONE, &truth, "clause 10: the arena's corners, not the map's",
      NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "write to F (complete or not at all) instead of stdout", "F" },
    { NULL }
  };
  CsvOut o = { NULL, FALSE };
  gboolean held = FALSE;

  g_option_context_set_summary (context,
    "Writes a clause's stored trials in the CSV format 'compute <clause>' reads, with\n"
    "a config column (and the command pose or the commanded segment), so every\n"
    "figure of 'campaign results' can be recomputed outside navbench.  Clause 10\n"
    "writes the map's corners, or with --truth the arena's.  Written: the trials\n"
    "'campaign results' counts.\n\n"
    "With --table N, writes a table of the test protocol instead (as 'report' shows\n"
    "it) as CSV or JSON; with --budgets N, clause N's uncertainty budgets (its input\n"
    "quantities, then one budget per configuration, each under its title).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) || !require_db (db, &error))
    return nb_cli_report_error (error);
  if ((table != 0) + (clause != 0) + (budgets != 0) > 1)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--trials, --table or --budgets: one");
      return nb_cli_report_error (error);
    }
  if (table != 0)
    return nb_cli_export_table (db, (guint) table, FALSE, format, lang, output);
  if (budgets != 0)
    return nb_cli_export_table (db, (guint) MAX (budgets, 0), TRUE, format, lang, output);
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
  if (truth && !nb_clause_refuse_option (nb_clause_get ((guint) clause), NB_CLAUSE_OPT_TRUTH,
                                          "--truth", &error))
    return nb_cli_report_error (error);
  if ((campaign = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error)) == NULL ||
      (configs = nb_campaign_list_configs (campaign, (guint) clause, &error)) == NULL)
    return nb_cli_report_error (error);

  /* A configuration the clause does not hold is refused before anything
   * is written (the header went to standard output first). */
  held = config_name == NULL;
  for (guint i = 0; !held && i < configs->len; i++)
    held = g_str_equal (config_name, g_array_index (configs, NbCampaignConfig, i).name);
  if (!held)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "%s: clause %d has no configuration '%s'",
                   db, clause, config_name);
      return nb_cli_report_error (error);
    }
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
  csv_header (&o, truth ? nb_clause_get ((guint) clause)->truth_columns
                        : nb_clause_get ((guint) clause)->export_columns);
  for (guint i = 0; i < configs->len; i++)
    {
      NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);

      if (config_name != NULL && !g_str_equal (config_name, c->name))
        continue;
      if (!export_config (campaign, c, truth, &o, &error))
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
  { "plan", nb_cli_campaign_plan,
    "the configurations the standard asks for, their state and what runs next" },
  { "register", nb_cli_campaign_register,
    "fit the instrument frame to surveyed reference points and store it" },
};

int
nb_cli_campaign (int argc, char **argv)
{
  return nb_cli_dispatch ("campaign", campaign_commands, G_N_ELEMENTS (campaign_commands), argc,
                          argv);
}
