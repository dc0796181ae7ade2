/* nb-clause-detection.c — ISO 18646-2 clause 6, obstacle detection
 *
 * 6.3: six configurations, one per table 2 obstacle (outdoors, annex A.5.2:
 * the small and large cylinders and the wooden wall); each obstacle at the
 * declared maximum, then minimum range, on the line of sight and every 45°
 * counter-clockwise round the circle: 16 placements.  Figures (table 3):
 * placements, detected, mean error and accuracy (nb_detection_result).
 */
#include "nb-clause-private.h"

#include "nb-campaign-runner.h"
#include "nb-course.h"
#include "nb-error.h"
#include "nb-measurements.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static const NbClauseColumn columns[] = {
  { "placements", N_("Placements"), NULL, 0 },
  { "detected", N_("Detected"), NULL, 0 },
  { "mean_error_pct", N_("Mean error"), "%", 2 },
  { "mean_accuracy_pct", N_("Mean accuracy"), "%", 2 },
};

/* Annex A.5.2: the obstacles of an outdoor test. */
static gboolean
outdoor_obstacle (const char *name)
{
  return g_str_equal (name, "small cylinder") || g_str_equal (name, "large cylinder") ||
         g_str_equal (name, "wooden wall");
}

/* A configuration name from a table 2 name: "wooden wall" → "wooden-wall". */
static char *
key_of (const char *obstacle)
{
  return g_strdelimit (g_strdup (obstacle), " ", '-');
}

static gboolean
configurations (const NbClauseEnv *env, GArray *out, GError **error)
{
  const char *const *names = nb_obstacle_names ();

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *name = key_of (names[i]);
      char min[32], max[32];
      NbCampaignConfig *c;

      if (env->outdoor && !outdoor_obstacle (names[i]))
        continue;
      c = nb_clause_config_append (out, 6, name, 0.0);
      c->obstacle = g_strdup (names[i]);
      /* The declared ranges as the runner stores them (null: not declared
       * yet; the runner asks for them). */
      c->parameters = g_strdup_printf ("{\"min_range_mm\": %s, \"max_range_mm\": %s, "
                                       "\"range_from\": \"robot centre to obstacle face\"}",
                                       nb_clause_json_number (min, env->min_range_mm),
                                       nb_clause_json_number (max, env->max_range_mm));
    }
  return TRUE;
}

static gboolean
check_import (const NbClauseImport *in, GError **error)
{
  return nb_clause_require_config (in, error);
}

/* One trial per placement row (number, label = obstacle, kind = max|min). */
static gboolean
import (NbCampaign *campaign, const NbClauseImport *in, guint *n_trials, GError **error)
{
  g_autoptr (GArray) rows = nb_measurements_read_detection (in->input, error);
  NbCampaignConfig config;
  gboolean ok;

  nb_campaign_config_init (&config);
  ok = rows != NULL && nb_clause_new_config (campaign, 6, in->config, in->given, &config, error);
  for (guint i = 0; ok && i < rows->len; i++)
    {
      NbPlacement *p = &g_array_index (rows, NbPlacement, i);
      NbCampaignTrial t;

      nb_campaign_trial_init (&t);
      t.number = i + 1;
      t.label = g_strdup (p->obstacle);
      t.kind = g_strdup (p->max_range ? "max" : "min");
      t.angle_deg = p->angle_deg;
      t.true_mm = p->true_mm;
      t.measured_mm = p->measured_mm;
      t.detected = p->detected;
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
  nb_detection_result_init (&r->detection);
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = g_ptr_array_index (trials, i);

      nb_detection_result_add (&r->detection, t->label ? t->label : "", t->true_mm, t->detected,
                               t->measured_mm);
    }
  if (trials->len == 0)
    g_set_error (figures, NB_ERROR, NB_ERROR_INPUT, "no placements recorded");
  return TRUE;
}

static void
json (NbJsonWriter *w, const NbConfigResult *r)
{
  nb_clause_json_detection (w, &r->detection);
}

static void
text (GString *out, const NbConfigResult *r)
{
  char a[32];

  g_string_append_printf (out, "%u placements, %u detected, mean accuracy %s %%",
                          r->detection.all.placements, r->detection.all.detected,
                          nb_clause_format_figure (a, nb_detection_tally_mean_accuracy_pct (
                                                     &r->detection.all), 2));
}

static void
event_json (NbJsonWriter *w, const NbRunnerEvent *ev)
{
  nb_json_key (w, "obstacle"); nb_json_string (w, ev->obstacle);
  nb_json_key (w, "angle_deg"); nb_json_double (w, ev->angle_deg);
  nb_json_key (w, "range"); nb_json_string (w, ev->max_range ? "max" : "min");
  nb_json_key (w, "true_mm"); nb_json_double (w, ev->true_mm);
  nb_json_key (w, "detected"); nb_json_bool (w, ev->detected);
  nb_json_key (w, "measured_mm"); nb_json_double (w, ev->measured_mm);
}

static char *
event_text (const NbRunnerEvent *ev)
{
  if (ev->detected)
    return g_strdup_printf ("%s at %g°, %s range %.0f mm: detected at %.1f mm", ev->obstacle,
                            ev->angle_deg, ev->max_range ? "max" : "min", ev->true_mm,
                            ev->measured_mm);
  return g_strdup_printf ("%s at %g°, %s range %.0f mm: not detected", ev->obstacle,
                          ev->angle_deg, ev->max_range ? "max" : "min", ev->true_mm);
}

const NbClause nb_clause_detection = {
  .number = 6,
  .title = N_("Obstacle detection"),
  .table = 3,
  /* 6.3: 8 directions × {max, min} range per obstacle. */
  .trials = 16,
  .trial_word = "placements",
  .trials_clause = "6.3",
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .options = NB_CLAUSE_OPT_OBSTACLE | NB_CLAUSE_OPT_ALL_OBSTACLES | NB_CLAUSE_OPT_RANGES,
  .run = NB_CLAUSE_RUN_PLACEMENTS,
  .layout = "6.3: placements round the robot",
  .configurations = configurations,
  .counts = nb_clause_counts_ok,
  .check_import = check_import,
  .import = import,
  .compute = compute,
  .json = json,
  .text = text,
  .event_json = event_json,
  .event_text = event_text,
};
