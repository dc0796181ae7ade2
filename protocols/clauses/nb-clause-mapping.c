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

#include "nb-error.h"
#include "nb-map-file.h"
#include "nb-measurements.h"

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
defect_range (NbCampaign *campaign, const NbClauseImport *in, double *range_mm, GError **error)
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
  if (isnan (in->defect_range_mm))
    return TRUE;
  if (stored != NULL && *range_mm != in->defect_range_mm)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "--defect-range-mm %g: the campaign's accepted defect range is %s mm, "
                   "the maps recorded were judged by it (10.2); change it with campaign set %s",
                   in->defect_range_mm, stored, key);
      return FALSE;
    }
  *range_mm = in->defect_range_mm;
  return stored != NULL ||
         nb_campaign_set_field (campaign, key,
                                g_ascii_dtostr (buf, sizeof buf, in->defect_range_mm), error);
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
  g_autoptr (GString) found = g_string_new (NULL);
  g_autoptr (GString) reason = g_string_new (NULL);
  g_autoptr (GError) local = NULL;
  g_autofree char *subject = NULL;
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
  if (!defect_range (campaign, in, &range, error))
    {
      nb_campaign_config_clear (&config);
      return FALSE;
    }
  /* 10.3: a defect within the accepted range does not fail the map; with
   * none stated, none is accepted (and the protocol says it was not stated). */
  nb_map_fit_options_init (&options);
  options.accept_gap_mm = options.accept_shadow_mm = isnan (range) ? 0.0 : range;
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
  for (guint i = 0; i < a->fit->defects->len; i++)
    {
      NbMapDefect *d = &g_array_index (a->fit->defects, NbMapDefect, i);

      if (d->accepted)
        continue;
      g_string_append_printf (reason, "%s%s on wall %u (%.0f mm)", reason->len ? "; " : "",
                              nb_map_defect_kind_to_string (d->kind), d->wall + 1, d->length_mm);
    }
  t.reason = reason->len ? g_strdup (reason->str) : NULL;
  ok = nb_campaign_record_trial (campaign, config.id, &t, error);
  if (ok)
    {
      g_string_append_printf (found, "map %s; Dm %.3f mm; corners (mm, ±1σ):", in->map, a->dm_mm);
      for (int k = 0; k < 4; k++)
        g_string_append_printf (found, " A'%d %.2f,%.2f ±%.2f", k + 1, a->fit->corner_mm[k][0],
                                a->fit->corner_mm[k][1], a->fit->corner_sigma_mm[k]);
      g_string_append_printf (found, "; walls RMS (mm): %.2f %.2f %.2f %.2f",
                              a->fit->walls[0].residual_mm, a->fit->walls[1].residual_mm,
                              a->fit->walls[2].residual_mm, a->fit->walls[3].residual_mm);
      g_string_append_printf (found, "; heading %.2f°",
                              nb_map_heading_deg ((const double (*)[2]) config.truth_mm,
                                                  (const double (*)[2]) a->fit->corner_mm));
      g_string_append_printf (found, "; accepted defect range %.0f mm%s",
                              isnan (range) ? 0.0 : range, isnan (range) ? " (not stated)" : "");
      if (reason->len)
        g_string_append_printf (found, "; defects: %s", reason->str);
      subject = g_strdup_printf ("config '%s', trial %u", in->config, t.number);
      ok = nb_campaign_log (campaign, "map corners found", subject, NULL, found->str, error);
    }
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
  ok = trials != NULL && defect_range (campaign, in, &range, error) && nb_clause_new_config (campaign, 10, in->config, in->given, &config,
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

const NbClause nb_clause_mapping = {
  .number = 10,
  .title = N_("Mapping accuracy"),
  .table = 7,
  .trials = 3,
  .trial_word = "trials",
  .trials_clause = "10.3",
  .options = NB_CLAUSE_OPT_MAP,
  .run = NB_CLAUSE_RUN_NONE,
  .configurations = configurations,
  .counts = nb_clause_counts_judged,
  .check_import = check_import,
  .import = import,
  .compute = compute,
  .json = json,
  .text = text,
  .export_columns = export_columns,
  .export_trial = export_trial,
};
