/* nb-clause-mapping.c — ISO 18646-2 clause 10, mapping accuracy
 *
 * 10.3: one configuration, the arena (7 LU × 7 LU, its corners A_1..A_4
 * surveyed: the configuration's truth); three trials, each a map the robot
 * built, its corners A'_1..A'_4; Dm per trial, the mapping accuracy from
 * the Dm of three consecutive successful trials (nb_mapping_accuracy_mm,
 * table 7).  A map with defects beyond the accepted range is a failed
 * trial: it stays in the table with its reason and breaks the run.
 */
#include "nb-clause-private.h"
#include "nb-record-words.h"

#include "nb-error.h"
#include "nb-map-file.h"
#include "nb-map-fit.h"
#include "nb-measurements.h"
#include "nb-unc-report.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* 10.2, decided: a map turned against the arena by more than this is
 * flagged in table 7 (the standard names no tolerance; 5° moves a corner of
 * a 7 LU arena of LU 500 mm by up to 216 mm about its centre). */
#define NB_MAP_HEADING_TOLERANCE_DEG 5.0

static gboolean
configurations (const NbClauseEnv *env, GArray *out, GError **error)
{
  char lu[32];
  /* The corners are surveyed in the arena, not laid out: truth stays NaN
   * until `campaign import --truth` records it. */
  NbCampaignConfig *c = nb_clause_config_append (out, 10, "arena", 0.0);

  /* 10.2: 7 LU × 7 LU, a round column 1 LU across in the centre. */
  c->parameters = g_strdup_printf ("{\"lu_mm\": %s, \"arena_lu\": 7, \"column_lu\": 1}",
                                   nb_clause_json_number (lu, env->lu_mm));
  return TRUE;
}

/* 10.2: the experts' accepted range of defects, one per campaign
 * (mapping.accepted_defect_range_mm): given on import it is recorded there,
 * and a different one refused (the maps already judged were judged by the
 * first); NaN when neither says it. */
static gboolean
defect_range (NbCampaign *campaign, double given, double *range_mm, GError **error)
{
  static const char key[] = "mapping.accepted_defect_range_mm";
  g_autoptr (GError) local = NULL;
  g_autofree char *stored = nb_campaign_get_field (campaign, key, &local);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  *range_mm = stored != NULL ? g_ascii_strtod (stored, NULL) : NAN;
  if (isnan (given))
    return TRUE;
  if (stored != NULL && *range_mm != given)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "--defect-range-mm %g: the campaign's accepted defect range is %s mm, "
                   "the maps recorded were judged by it (10.2); change it with campaign set %s",
                   given, stored, key);
      return FALSE;
    }
  *range_mm = given;
  return stored != NULL ||
         nb_campaign_set_field (campaign, key, g_ascii_dtostr (buf, sizeof buf, given), error);
}

/* 10.3: a defect within the accepted range does not fail the map; with none
 * stated, none is accepted (and the protocol says it was not stated).
 * 10.2: the reference feature off the arena's symmetry, when the
 * configuration's parameters survey one (reference_x_mm, reference_y_mm in
 * the truth's frame), identifies the map's corners
 * (nb_map_fit_match_reference). */
static void
fit_options (double range_mm, const char *parameters, NbMapFitOptions *options)
{
  nb_map_fit_options_init (options);
  options->accept_gap_mm = options->accept_shadow_mm = isnan (range_mm) ? 0.0 : range_mm;
  options->reference_mm[0] = nb_run_param_number (parameters, "reference_x_mm");
  options->reference_mm[1] = nb_run_param_number (parameters, "reference_y_mm");
}

NbMapAnalysis *
nb_clause_mapping_analyse (NbCampaign *campaign, const NbCampaignConfig *config,
                           const char *map_path, GError **error)
{
  NbMapFitOptions options;
  double range;

  if (!defect_range (campaign, NAN, &range, error))
    return NULL;
  fit_options (range, config->parameters, &options);
  return nb_map_analyse (map_path, (const double (*)[2]) config->truth_mm, &options, error);
}

/* The defects beyond the accepted range, for a person ("" when none). */
static void
defects_text (const NbMapFit *fit, GString *out)
{
  for (guint i = 0; i < fit->defects->len; i++)
    {
      const NbMapDefect *d = &g_array_index (fit->defects, NbMapDefect, i);

      if (!d->accepted)
        {
          if (out->len)
            g_string_append (out, "; ");
          g_string_append_printf (out, NB_REASON_MAP_DEFECT, nb_map_defect_kind_to_string (d->kind),
                                  d->wall + 1, d->length_mm);
        }
    }
}

/* What the analysis of a recorded map found, for the event "map corners
 * found" (a corner corrected later by hand keeps both). */
static gboolean
log_found (NbCampaign *campaign, const char *config, const NbCampaignTrial *t, const char *map,
           const NbMapAnalysis *a, const NbCampaignConfig *c, double range, const char *defects,
           GError **error)
{
  g_autoptr (GString) found = g_string_new (NULL);
  g_autofree char *subject = NULL;

  g_string_append_printf (found, "map %s; ", map);
  if (!isnan (t->time_s))
    g_string_append_printf (found, "built in %.1f s; ", t->time_s);
  g_string_append_printf (found, "Dm %.3f mm; corners (mm, ±1σ):", a->dm_mm);
  for (int k = 0; k < 4; k++)
    g_string_append_printf (found, " A'%d %.2f,%.2f ±%.2f", k + 1, a->fit->corner_mm[k][0],
                            a->fit->corner_mm[k][1], a->fit->corner_sigma_mm[k]);
  g_string_append_printf (found, "; walls RMS (mm): %.2f %.2f %.2f %.2f",
                          a->fit->walls[0].residual_mm, a->fit->walls[1].residual_mm,
                          a->fit->walls[2].residual_mm, a->fit->walls[3].residual_mm);
  g_string_append_printf (found, "; heading %.2f°",
                          nb_map_heading_deg ((const double (*)[2]) c->truth_mm,
                                              (const double (*)[2]) a->fit->corner_mm));
  g_string_append_printf (found, "; accepted defect range %.0f mm%s",
                          isnan (range) ? 0.0 : range, isnan (range) ? " (not stated)" : "");
  if (*defects)
    g_string_append_printf (found, "; defects: %s", defects);
  if (a->reference != NB_MAP_REFERENCE_NONE)
    g_string_append_printf (found, "; reference feature: %s",
                            nb_map_reference_to_string (a->reference));
  subject = g_strdup_printf ("config '%s', trial %u", config, t->number);
  return nb_campaign_log (campaign, NB_EVENT_MAP_CORNERS, subject, NULL, found->str, error);
}

static gboolean
check_import (const NbClauseImport *in, GError **error)
{
  if (!nb_clause_require_config (in, error))
    return FALSE;
  if (!in->have_truth && in->map == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--truth T.csv is required for clause 10");
      return FALSE;
    }
  return TRUE;
}

/* The robot's own map: the corners found in it become the next trial of the
 * configuration (created with the truth the first time); a map with defects
 * beyond the accepted range is a failed trial (10.3).  What the extraction
 * found goes into the event log, so a corner corrected later by hand
 * (`campaign edit … corner2_x_mm=…`) keeps both. */
static gboolean
import_map (NbCampaign *campaign, const NbClauseImport *in, guint *n_trials, GError **error)
{
  g_autoptr (NbMapAnalysis) a = NULL;
  g_autoptr (GArray) existing = NULL;
  g_autoptr (GString) reason = g_string_new (NULL);
  g_autoptr (GError) local = NULL;
  NbCampaignConfig config;
  NbCampaignTrial t;
  NbMapFitOptions options;
  double range;
  gboolean known, ok;

  nb_campaign_config_init (&config);
  known = nb_campaign_find_config (campaign, 10, in->config, &config, &local);
  if (!known && local != NULL && !g_error_matches (local, NB_ERROR, NB_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (known && in->have_truth)
    {
      nb_campaign_config_clear (&config);
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "config '%s' exists: its truth is already recorded (omit --truth)", in->config);
      return FALSE;
    }
  if (!known && !in->have_truth)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "--truth T.csv is required for the first map of config '%s'", in->config);
      return FALSE;
    }
  if (!known && !nb_clause_new_config (campaign, 10, in->config, in->given, &config, error))
    {
      nb_campaign_config_clear (&config);
      return FALSE;
    }
  if (!defect_range (campaign, in->defect_range_mm, &range, error))
    {
      nb_campaign_config_clear (&config);
      return FALSE;
    }
  fit_options (range, config.parameters, &options);
  a = nb_map_analyse (in->map, (const double (*)[2]) config.truth_mm, &options, error);
  existing = a != NULL ? nb_campaign_list_trials (campaign, config.id, error) : NULL;
  if (existing == NULL)
    {
      nb_campaign_config_clear (&config);
      return FALSE;
    }
  g_array_set_clear_func (existing, (GDestroyNotify) nb_campaign_trial_clear);

  nb_campaign_trial_init (&t);
  t.number = existing->len + 1;
  memcpy (t.corners_mm, a->fit->corner_mm, sizeof t.corners_mm);
  t.time_s = in->build_time_s;
  t.outcome = a->fit->passed ? NB_TRIAL_OK : NB_TRIAL_FAILED;
  defects_text (a->fit, reason);
  t.reason = reason->len ? g_strdup (reason->str) : NULL;
  ok = nb_campaign_record_trial (campaign, config.id, &t, error) &&
       log_found (campaign, in->config, &t, in->map, a, &config, range, reason->str, error);
  *n_trials += ok;
  nb_campaign_trial_clear (&t);
  nb_campaign_config_clear (&config);
  return ok;
}

static gboolean
import (NbCampaign *campaign, const NbClauseImport *in, guint *n_trials, GError **error)
{
  g_autoptr (GArray) trials = NULL;
  NbCampaignConfig config;
  gboolean ok;

  if (in->map != NULL)
    return import_map (campaign, in, n_trials, error);
  double range;

  trials = nb_measurements_read_map_corners (in->input, error);
  nb_campaign_config_init (&config);
  /* The corners of maps judged elsewhere: the range they were judged by is
   * recorded all the same (10.2). */
  ok = trials != NULL && defect_range (campaign, in->defect_range_mm, &range, error) && nb_clause_new_config (campaign, 10, in->config, in->given, &config,
                                               error);
  for (guint i = 0; ok && i < trials->len; i++)
    {
      NbMapCorners *m = &g_array_index (trials, NbMapCorners, i);
      NbCampaignTrial t;

      nb_campaign_trial_init (&t);
      t.number = m->trial;
      memcpy (t.corners_mm, m->corner_mm, sizeof t.corners_mm);
      t.outcome = NB_TRIAL_OK;
      ok = nb_campaign_record_trial (campaign, config.id, &t, error);
      nb_campaign_trial_clear (&t);
      *n_trials += ok;
    }
  nb_campaign_config_clear (&config);
  return ok;
}

static gboolean
compute (NbCampaign *campaign, const NbCampaignConfig *c, GPtrArray *trials, NbConfigResult *r,
         GError **figures, GError **error)
{
  r->values = g_array_new (FALSE, FALSE, sizeof (double));
  r->numbers = g_array_new (FALSE, FALSE, sizeof (guint));
  r->succeeded = g_array_new (FALSE, FALSE, sizeof (gboolean));
  r->headings = g_array_new (FALSE, FALSE, sizeof (double));
  r->heading_tolerance_deg = NB_MAP_HEADING_TOLERANCE_DEG;
  {
    g_autofree char *range = nb_campaign_get_field (campaign,
                                                    "mapping.accepted_defect_range_mm", error);

    if (error != NULL && *error != NULL)
      return FALSE;
    r->defect_range_mm = range != NULL ? g_ascii_strtod (range, NULL) : NAN;
  }
  /* Failed maps count too (nb_clause_counts_judged): they stay in table 7
   * with their reason and break a run of consecutive successes. */
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = g_ptr_array_index (trials, i);
      double dm = nb_metrics_dm ((const double (*)[2]) c->truth_mm,
                                 (const double (*)[2]) t->corners_mm);
      gboolean ok = t->outcome == NB_TRIAL_OK;

      /* 10.2: the map's heading against the arena's, its corners paired by
       * position (nb_map_fit_match_truth); a turned map is flagged. */
      double heading = nb_map_heading_deg ((const double (*)[2]) c->truth_mm,
                                           (const double (*)[2]) t->corners_mm);

      g_array_append_val (r->values, dm);
      g_array_append_val (r->headings, heading);
      g_array_append_val (r->numbers, t->number);
      g_array_append_val (r->succeeded, ok);
    }
  /* 10.3: the maximum Dm of three consecutive successful trials. */
  r->accuracy_mm = nb_mapping_accuracy_mm ((const double *) r->values->data,
                                           (const gboolean *) r->succeeded->data,
                                           r->values->len, &r->window);
  if (trials->len == 0)
    g_set_error (figures, NB_ERROR, NB_ERROR_INPUT, "no trials recorded");
  return TRUE;
}

/* #17: Dm of every map and the mapping accuracy of the three consecutive
 * successful maps the figure takes (r->window), not of all of them. */
static NbUncBudget *
uncertainty (const NbUncSetup *setup, const NbCampaignConfig *c, GPtrArray *trials,
             const NbConfigResult *r, guint64 seed, GError **error)
{
  g_autofree double (*corners)[4][2] = g_malloc (MAX (trials->len, 1) * sizeof *corners);
  gboolean run = r->window != G_MAXUINT;

  for (guint i = 0; i < trials->len; i++)
    memcpy (corners[i], ((const NbCampaignTrial *) g_ptr_array_index (trials, i))->corners_mm,
            sizeof corners[i]);
  return nb_unc_mapping (setup, (const double (*)[2]) c->truth_mm,
                         (const double (*)[4][2]) corners, NULL, trials->len,
                         run ? r->window : 0, run ? NB_MAPPING_CONSECUTIVE : 0, seed, error);
}

static void
json (NbJsonWriter *w, const NbConfigResult *r)
{
  nb_clause_json_mapping (w, (const guint *) r->numbers->data, (const double *) r->values->data,
                          (const double *) r->headings->data,
                          r->values->len, r->accuracy_mm);
}

static void
text (GString *out, const NbConfigResult *r)
{
  char a[32];

  g_string_append_printf (out, "%u trials  accuracy (max Dm) %s mm", r->values->len,
                          nb_clause_format_figure (a, r->accuracy_mm, 2));
}

/* ------------------------------------------------------------- export -- */

/* campaign export --trials 10: the map's corners A'1..A'4 of each trial (10.3). */
static const char *const export_columns[] = { "config", "trial", "corner", "x_mm", "y_mm", NULL };

static gboolean
export_trial (NbCampaign *campaign, const NbCampaignConfig *c, const NbCampaignTrial *t,
              NbClauseExportRow row, gpointer data, GError **error)
{
  for (guint k = 0; k < 4; k++)
    {
      const NbClauseCell cells[] = {
        { c->name, 0 }, { NULL, t->number }, { NULL, k + 1 }, { NULL, t->corners_mm[k][0] },
        { NULL, t->corners_mm[k][1] },
      };

      if (!row (cells, G_N_ELEMENTS (cells), data, error))
        return FALSE;
    }
  return TRUE;
}

/* campaign export --trials 10 --truth: the arena's corners A1..A4 (10.2),
 * the truth table of compute mapping with the configuration's name. */
static const char *const truth_columns[] = { "config", "corner", "x_mm", "y_mm", NULL };

static gboolean
export_truth (const NbCampaignConfig *c, NbClauseExportRow row, gpointer data, GError **error)
{
  for (guint k = 0; k < 4; k++)
    {
      const NbClauseCell cells[] = {
        { c->name, 0 }, { NULL, k + 1 }, { NULL, c->truth_mm[k][0] }, { NULL, c->truth_mm[k][1] },
      };

      if (!row (cells, G_N_ELEMENTS (cells), data, error))
        return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------ the runner -- */

/* 10.3 in the runner: each trial is a map of the arena the robot builds.
 * The simulator builds it (its mapping model, NbRunnerRigOps.build_map);
 * a real robot's map is asked for, as is every judgement: the map file
 * (its map_server YAML), its build time (10.3 c) and whether its defects
 * are within the experts' accepted range (10.2), the measurements
 * proposing each answer — all events of the log (nb_run_ask).  The corners
 * found, Dm and the defects are recorded as import records a map.
 * Decided: a run goes on until the last three maps are consecutive
 * successes (10.3: the accuracy is the maximum Dm of three consecutive
 * successful trials; options.trials: exactly that many more); three failed
 * maps in a row stop it (the robot does not map the arena). */
#define MAPPING_CONSECUTIVE 3
#define MAPPING_FAILED_IN_A_ROW 3

/* The arena's configuration: found (its surveyed corners), or created with
 * the rig's layout or the survey the operator gives. */
static gboolean
run_arena (NbRun *run, double lu, GError **error)
{
  NbCampaignRunner *r = run->r;
  NbCampaignConfig *c = &run->config;
  char lu_text[32];
  gboolean found;

  if (!nb_run_find_config (run, c, &found, error))
    return FALSE;
  if (found)
    {
      if (isnan (c->truth_mm[0][0]))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 10 configuration '%s' has "
                       "no surveyed corners: run under another name", r->path, r->o.config);
          return FALSE;
        }
      return TRUE;
    }
  if (r->rig_ops->arena != NULL)
    r->rig_ops->arena (r->rig, lu, c->truth_mm);
  else
    {
      g_autofree char *file = NULL;

      if (!nb_run_ask_tr (run, NB_PROMPT_TEXT, NULL, &file, error,
                          N_("Clause 10 '%s': the corners A_1..A_4 of the arena as surveyed in "
                             "the test area (P0's frame): the file, a CSV of corner, x_mm, y_mm "
                             "as campaign import --truth takes"), r->o.config) ||
          !nb_measurements_read_truth_corners (file, c->truth_mm, error))
        return FALSE;
    }
  c->clause = 10;
  c->name = g_strdup (r->o.config);
  c->load_kg = 0.0;
  /* 10.2: 7 LU × 7 LU, a round column 1 LU across in the centre. */
  c->parameters = g_strdup_printf ("{\"lu_mm\": %s, \"arena_lu\": 7, \"column_lu\": 1, "
                                   "\"runner\": true}", nb_clause_json_number (lu_text, lu));
  return nb_campaign_add_config (run->campaign, c, error);
}

/* 10.3: the successful maps since the last failed one (in store order);
 * aborted and incomplete trials neither count nor break the run.  The
 * runner makes trials until there are three; the plan calls the
 * configuration complete when there are. */
static guint
consecutive_successes (const GArray *trials)
{
  guint tail_ok = 0;

  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      if (t->outcome == NB_TRIAL_OK)
        tail_ok++;
      else if (nb_clause_counts_judged (t))
        tail_ok = 0;              /* a failed map breaks the run */
    }
  return tail_ok;
}

/* The trials to make: up to three consecutive successes at the end. */
static gboolean
run_count (NbRun *run, guint *next_number, GError **error)
{
  g_autoptr (GArray) trials = nb_campaign_list_trials (run->campaign, run->config.id, error);
  guint tail_ok;

  if (trials == NULL)
    return FALSE;
  g_array_set_clear_func (trials, (GDestroyNotify) nb_campaign_trial_clear);
  *next_number = 1;
  for (guint i = 0; i < trials->len; i++)
    *next_number = MAX (*next_number, g_array_index (trials, NbCampaignTrial, i).number + 1);
  tail_ok = consecutive_successes (trials);
  if (run->r->o.trials > 0)
    run->n_trials = run->r->o.trials;
  else if (tail_ok >= MAPPING_CONSECUTIVE)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 10 configuration '%s' already "
                   "ends with %u consecutive successful maps (ISO 18646-2 10.3 asks for %u); "
                   "ask for more trials explicitly", run->r->path, run->r->o.config, tail_ok,
                   MAPPING_CONSECUTIVE);
      return FALSE;
    }
  else
    run->n_trials = MAPPING_CONSECUTIVE - tail_ok;
  return TRUE;
}

/* One map: the file and build time asked for (the rig's proposed), the map
 * analysed, its defects judged, the trial recorded and its event posted. */
static gboolean
run_map (NbRun *run, guint k, guint number, double lu, double range, const char *dir,
         NbTrialOutcome *outcome, GError **error)
{
  NbCampaignRunner *r = run->r;
  g_autofree char *name = g_strdup_printf ("%s-%u", r->o.config, number);
  g_autofree char *built = NULL, *file = NULL, *time_text = NULL, *q = NULL, *within = NULL;
  g_autofree char *proposal = NULL;
  g_autoptr (NbMapAnalysis) a = NULL;
  g_autoptr (GString) defects = g_string_new (NULL);
  NbMapFitOptions fit;
  NbCampaignTrial t;
  NbRunnerEvent ev;
  NbConfigResult figures;
  double build_s = NAN;
  char *end = NULL;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  nb_run_event_init (run, &ev, NB_RUNNER_EVENT_TRIAL_STARTED, k);
  ev.number = number;
  ev.t_s = nb_device_time (r->device);
  nb_run_post (run, &ev, NULL);

  if (r->rig_ops->build_map != NULL &&
      !r->rig_ops->build_map (r->rig, lu, number, dir, name, &built, &build_s, error))
    {
      g_prefix_error (error, "trial %u, mapping the arena: ", number);
      return FALSE;
    }
  /* 10.3: a real robot maps the arena from P0 with its own program; one the
   * bench drives (the HTTP robot) is sent there first, unmeasured. */
  if (r->rig_ops->build_map == NULL && r->robot_ops != NULL)
    {
      const NbRoutePose p0 = { "P0", 0.0, 0.0, 0.0 };

      if (!nb_run_send_goal (run, &p0, error))
        {
          r->robot_ops->stop (r->robot);
          g_prefix_error (error, "trial %u, going to P0: ", number);
          return FALSE;
        }
    }
  if (!nb_run_ask_tr (run, NB_PROMPT_TEXT, built, &file, error,
                      N_("Trial %u/%u of clause 10 '%s': let the robot map the arena from P0 "
                         "(10.3) and save its map (map_server); the map's YAML file"), k,
                      run->n_trials, r->o.config))
    return FALSE;
  if (!nb_run_ask_tr (run, NB_PROMPT_TEXT, isnan (build_s) ? NULL
                      : g_ascii_formatd (buf, sizeof buf, "%.1f", build_s), &time_text, error,
                      N_("Trial %u: the time the robot took to build that map, s (10.3 c)"),
                      number))
    return FALSE;
  build_s = g_ascii_strtod (time_text, &end);
  if (end == time_text || *end != '\0' || !(build_s > 0.0 && isfinite (build_s)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "trial %u: build time '%s': a number of "
                   "seconds > 0", number, time_text);
      return FALSE;
    }

  fit_options (range, run->config.parameters, &fit);
  if ((a = nb_map_analyse (file, (const double (*)[2]) run->config.truth_mm, &fit, error)) == NULL)
    {
      g_prefix_error (error, "trial %u: ", number);
      return FALSE;
    }
  defects_text (a->fit, defects);
#define WITHIN N_("Trial %u: are the map's defects within the accepted range (%.0f mm%s)? " \
                  "(found beyond it: %s)")
  {
    const NbCatalogue *w = nb_run_words (run);
    g_autofree char *shown = NULL;

    q = g_strdup_printf (WITHIN, number, isnan (range) ? 0.0 : range,
                         isnan (range) ? ", not stated" : "", defects->len ? defects->str : "none");
    /* The defects are the map fit's words (English). */
    shown = g_strdup_printf (nb_tr (w, WITHIN), number, isnan (range) ? 0.0 : range,
                             isnan (range) ? nb_tr (w, N_(", not stated")) : "",
                             defects->len ? defects->str : nb_tr (w, N_("none")));
    if (!nb_run_ask_shown (run, NB_PROMPT_JUDGE, q, shown, a->fit->passed ? "yes" : "no",
                           &within, error))
      return FALSE;
  }
#undef WITHIN

  nb_campaign_trial_init (&t);
  t.number = number;
  t.start_time = ev.t_s;
  t.end_time = nb_device_time (r->device);
  memcpy (t.corners_mm, a->fit->corner_mm, sizeof t.corners_mm);
  t.time_s = build_s;
  t.outcome = g_str_equal (within, "yes") ? NB_TRIAL_OK : NB_TRIAL_FAILED;
  if (t.outcome == NB_TRIAL_FAILED)
    t.reason = g_strdup (defects->len ? defects->str
                         : NB_REASON_MAP_JUDGED);
  if (!nb_campaign_record_trial (run->campaign, run->config.id, &t, error))
    {
      nb_campaign_trial_clear (&t);
      return FALSE;
    }
  if (!log_found (run->campaign, r->o.config, &t, file, a, &run->config, range, defects->str,
                  error) ||
      !nb_run_figures (run, &figures, error))
    {
      nb_config_result_clear (&figures);
      nb_campaign_trial_clear (&t);
      return FALSE;
    }
  *outcome = t.outcome;
  ev.kind = NB_RUNNER_EVENT_TRIAL_ENDED;
  ev.trial_id = t.id;
  ev.seq = t.seq;
  ev.t_s = t.end_time;
  ev.outcome = t.outcome;
  ev.reason = t.reason;
  ev.time_s = build_s;
  ev.dm_mm = a->dm_mm;
  nb_run_post (run, &ev, &figures);
  nb_campaign_trial_clear (&t);
  return TRUE;
}

static gboolean
run_all (NbRun *run, gboolean *cancelled, GError **error)
{
  NbCampaignRunner *r = run->r;
  NbRunnerSummary *sum = &r->summary;
  g_autofree char *dir = NULL;
  guint number, failed_in_a_row = 0;
  double lu, range;

  if (!nb_campaign_get_lu_mm (run->campaign, &lu, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: robot.width_mm is not set, so there "
                     "is no LU (ISO 18646-2 4.5) to lay out the arena: campaign set --db %s "
                     "robot.width_mm=W", r->path, r->path);
      return FALSE;
    }
  if (!run_arena (run, lu, error) ||
      !defect_range (run->campaign, r->o.defect_range_mm, &range, error) ||
      !run_count (run, &number, error))
    return FALSE;
  dir = r->o.map_dir != NULL ? g_strdup (r->o.map_dir) : g_strdup_printf ("%s-maps", r->path);
  for (guint k = 1; k <= run->n_trials; k++)
    {
      NbTrialOutcome outcome = NB_TRIAL_RUNNING;

      if (g_cancellable_is_cancelled (run->cancellable))
        {
          *cancelled = TRUE;
          return TRUE;
        }
      if (!run_map (run, k, number++, lu, range, dir, &outcome, error))
        return FALSE;
      sum->run++;
      sum->ok += outcome == NB_TRIAL_OK;
      sum->failed += outcome == NB_TRIAL_FAILED;
      failed_in_a_row = outcome == NB_TRIAL_FAILED ? failed_in_a_row + 1 : 0;
      /* 10.3: a failed map breaks the run of consecutive successes. */
      if (outcome == NB_TRIAL_FAILED && r->o.trials == 0)
        run->n_trials = MAX (run->n_trials, k + MAPPING_CONSECUTIVE);
      if (failed_in_a_row >= MAPPING_FAILED_IN_A_ROW)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%u maps in a row failed: the robot "
                       "does not map the arena within the accepted range; the run stops (the "
                       "trials are kept)", failed_in_a_row);
          return FALSE;
        }
    }
  return TRUE;
}

static void
event_json (NbJsonWriter *w, const NbRunnerEvent *ev)
{
  nb_json_key (w, "dm_mm"); nb_json_double (w, ev->dm_mm);
  nb_json_key (w, "build_time_s"); nb_json_double (w, ev->time_s);
}

static char *
event_text (const NbRunnerEvent *ev)
{
  if (isnan (ev->dm_mm))
    return NULL;
  return g_strdup_printf ("Dm %.2f mm, map built in %.0f s", ev->dm_mm, ev->time_s);
}

static const NbClauseRunner runner = {
  .run_all = run_all,
};

/* 10.2: one arena; any configuration of the clause tests it. */
static gboolean
covers (const NbCampaignConfig *p, const NbCampaignConfig *c, GHashTable *labels)
{
  (void) p, (void) c, (void) labels;
  return TRUE;
}

static char *
describe (const NbCatalogue *lang, const NbCampaignConfig *p)
{
  (void) p;
  return g_strdup (nb_tr (lang, "the arena of 10.2"));
}

/* compute mapping: Dm of every map against the arena's corners (10.2),
 * the accuracy over the first three consecutive maps (10.3). */
static gboolean
compute_csv (const NbClauseCsv *in, NbClauseCsvFigures *f, GError **error)
{
  double truth[4][2];
  guint window;

  if (!nb_measurements_read_truth_corners (in->truth, truth, error) ||
      (f->maps = nb_measurements_read_map_corners (in->map, error)) == NULL)
    return FALSE;
  f->n_trials = f->maps->len;
  f->dm_mm = g_new (double, MAX (f->n_trials, 1));
  f->heading_deg = g_new (double, MAX (f->n_trials, 1));
  for (guint i = 0; i < f->n_trials; i++)
    {
      const NbMapCorners *m = &g_array_index (f->maps, NbMapCorners, i);

      f->dm_mm[i] = nb_metrics_dm ((const double (*)[2]) truth,
                                   (const double (*)[2]) m->corner_mm);
      /* 10.2: the map's heading against the arena (as campaign results gives it) */
      f->heading_deg[i] = nb_map_heading_deg ((const double (*)[2]) truth,
                                              (const double (*)[2]) m->corner_mm);
    }
  /* 10.3: the rows of compute are successful maps; the figure is the largest
   * Dm of the first three consecutive ones (NaN: fewer than three). */
  f->accuracy_mm = nb_mapping_accuracy_mm (f->dm_mm, NULL, f->n_trials, &window);
  if (in->setup != NULL)
    {
      /* The trials' corners side by side, as the model takes them. */
      g_autofree double (*corners)[4][2] = g_malloc (MAX (f->n_trials, 1) * sizeof *corners);

      for (guint i = 0; i < f->n_trials; i++)
        memcpy (corners[i], g_array_index (f->maps, NbMapCorners, i).corner_mm,
                sizeof corners[i]);
      /* The mapping accuracy's budget over the maps the figure takes. */
      f->budget = nb_unc_mapping (in->setup, (const double (*)[2]) truth,
                                  (const double (*)[4][2]) corners, NULL, f->n_trials,
                                  window != G_MAXUINT ? window : 0,
                                  window != G_MAXUINT ? NB_MAPPING_CONSECUTIVE : 0, in->seed,
                                  error);
      if (f->budget == NULL)
        return FALSE;
    }
  return TRUE;
}

static void
csv_json (NbJsonWriter *w, const NbClauseCsvFigures *f)
{
  g_autofree guint *numbers = g_new (guint, MAX (f->n_trials, 1));

  for (guint i = 0; i < f->n_trials; i++)
    numbers[i] = g_array_index (f->maps, NbMapCorners, i).trial;
  nb_clause_json_mapping (w, numbers, f->dm_mm, f->heading_deg, f->n_trials, f->accuracy_mm);
  if (f->budget != NULL)
    nb_unc_json_budget (w, f->budget);
}

const NbClause nb_clause_mapping = {
  .number = 10,
  .title = N_("Mapping accuracy"),
  .table = 7,
  .trials = 3,
  .trial_word = N_("trials"),
  .trials_clause = "10.3",
  .options = NB_CLAUSE_OPT_MAP | NB_CLAUSE_OPT_TRIALS | NB_CLAUSE_OPT_TRUTH,
  .run = NB_CLAUSE_RUN_MAPS,
  .layout = "10.2: the 7 LU arena",
  .driven_asks = N_("for the arena's survey, each map's file and build time, and whether its "
                    "defects are within the accepted range (10.3)"),
  .runner = &runner,
  .configurations = configurations,
  .counts = nb_clause_counts_judged,
  .plan_done = consecutive_successes,
  .check_import = check_import,
  .import = import,
  .compute = compute,
  .json = json,
  .text = text,
  .export_columns = export_columns,
  .export_trial = export_trial,
  .truth_columns = truth_columns,
  .export_truth = export_truth,
  .event_json = event_json,
  .event_text = event_text,
  .uncertainty = uncertainty,
  .covers = covers,
  .describe = describe,
  .compute_csv = compute_csv,
  .csv_json = csv_json,
};
