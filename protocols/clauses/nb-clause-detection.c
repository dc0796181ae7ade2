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
#include "nb-unc-report.h"

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

/* The obstacles of res numbered by their place among those with a
 * detection (the model's obstacle index), −1 for one never detected. */
static int *
detection_slots (const NbDetectionResult *res, guint *used)
{
  int *slot = g_new (int, MAX (res->obstacles->len, 1));

  *used = 0;
  for (guint i = 0; i < res->obstacles->len; i++)
    slot[i] = g_array_index (res->obstacles, NbObstacleTally, i).tally.detected > 0
                ? (int) (*used)++ : -1;
  return slot;
}

NbUncBudget *
nb_clause_unc_detection (const NbUncSetup *setup, const NbDetectionResult *res,
                         const char *const *obstacle, const double *true_mm,
                         const double *measured_mm, const gboolean *detected, guint n,
                         guint64 seed, GError **error)
{
  g_autofree double *t = g_new (double, MAX (n, 1));
  g_autofree double *m = g_new (double, MAX (n, 1));
  g_autofree guint *o = g_new (guint, MAX (n, 1));
  g_autofree int *slot = NULL;
  guint k = 0, used;

  if (res->all.detected == 0)
    return NULL;
  slot = detection_slots (res, &used);
  for (guint i = 0; i < n; i++)
    {
      if (!detected[i])
        continue;
      t[k] = true_mm[i];
      m[k] = measured_mm[i];
      o[k] = (guint) slot[GPOINTER_TO_UINT (g_hash_table_lookup (res->index, obstacle[i]))];
      k++;
    }
  return nb_unc_detection (setup, t, m, o, k, used, seed, error);
}

void
nb_clause_json_detection_unc (NbJsonWriter *w, const NbUncBudget *b, const NbDetectionResult *res)
{
  guint used;
  g_autofree int *slot = detection_slots (res, &used);

  nb_json_key (w, "uncertainty");
  nb_json_begin_object (w);
  nb_json_key (w, "mean_accuracy_pct");
  nb_unc_json_figure (w, nb_unc_budget_figure (b, "mean_accuracy_pct"));
  nb_json_key (w, "obstacles");
  nb_json_begin_array (w);
  for (guint i = 0; i < res->obstacles->len; i++)
    {
      g_autofree char *key = g_strdup_printf ("mean_accuracy_pct[%d]", slot[i]);

      if (slot[i] < 0)
        nb_json_null (w);
      else
        {
          nb_json_begin_object (w);
          nb_json_key (w, "mean_accuracy_pct");
          nb_unc_json_figure (w, nb_unc_budget_figure (b, key));
          nb_json_end_object (w);
        }
    }
  nb_json_end_array (w);
  nb_json_end_object (w);
}

/* #17: the mean accuracy over the detected placements and per obstacle. */
static NbUncBudget *
uncertainty (const NbUncSetup *setup, const NbCampaignConfig *c, GPtrArray *trials,
             const NbConfigResult *r, guint64 seed, GError **error)
{
  guint n = trials->len;
  g_autofree const char **o = g_new (const char *, MAX (n, 1));
  g_autofree double *t = g_new (double, MAX (n, 1));
  g_autofree double *m = g_new (double, MAX (n, 1));
  g_autofree gboolean *d = g_new (gboolean, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      const NbCampaignTrial *tr = g_ptr_array_index (trials, i);

      o[i] = tr->label ? tr->label : "";
      t[i] = tr->true_mm;
      m[i] = tr->measured_mm;
      d[i] = tr->detected;
    }
  return nb_clause_unc_detection (setup, &r->detection, o, t, m, d, n, seed, error);
}

static void
uncertainty_json (NbJsonWriter *w, const NbConfigResult *r)
{
  nb_clause_json_detection_unc (w, r->unc, &r->detection);
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

/* ------------------------------------------------------ the runner -- */

/* 6.3: the robot is sent to P0 (heading 0°, unmeasured) and stays there;
 * for each obstacle of table 2 (options.obstacle, else all six in table
 * order) it is placed at the declared maximum range, then the minimum, on
 * the line of sight, then on lines turned 45° counter-clockwise each time
 * round the full circle: 16 placements, each one trial recorded as import
 * records a detection row (number, label = obstacle, kind = max|min,
 * angle_deg, true_mm, detected, measured_mm).  The rig places the obstacle
 * (set_course with a detection course) and reads the robot's report of it
 * (NbRunnerRigOps.detect); on a real test area the operator is asked to do
 * both (the motion API moves the robot, it does not report what its range
 * sensor sees), and an operator-driven robot is brought to P0 by the
 * operator; with nobody to ask such a rig cannot run it.  Decided:
 * true_mm is the declared range, from the robot's centre to the obstacle's
 * face (nb-course.h); the declared ranges are stored in the
 * configuration's parameters; an obstacle whose placements the
 * configuration already holds is refused (6.3 places each once). */

/* The run's state: "obstacle|max|angle" of the placements recorded. */
static GHashTable *
placed (NbRun *run)
{
  return run->state;
}

static gboolean
run_check (const NbCampaignRunnerOptions *o, const NbRunnerRigOps *rig_ops,
           gboolean operator_driven, gboolean operator_present, GError **error)
{
  NbObstacleShape shape;
  gboolean min = !isnan (o->min_range_mm), max = !isnan (o->max_range_mm);

  if (o->obstacle != NULL && !nb_obstacle_find (o->obstacle, 0, &shape))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) nb_obstacle_names ());

      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "obstacle '%s' is not in table 2 (%s)",
                   o->obstacle, known);
      return FALSE;
    }
  if ((min && !(o->min_range_mm > 0.0 && isfinite (o->min_range_mm))) ||
      (max && !(o->max_range_mm > 0.0 && isfinite (o->max_range_mm))) ||
      (min && max && !(o->min_range_mm < o->max_range_mm)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "declared ranges %g to %g mm: 0 < minimum "
                   "< maximum (6.3)", o->min_range_mm, o->max_range_mm);
      return FALSE;
    }
  /* What the rig does not do the operator does, asked: place each
   * obstacle, read the robot's report of it (a real robot's range sensor
   * is read on its own display or log: the motion API has none). */
  if ((rig_ops->detect == NULL || rig_ops->set_course == NULL || operator_driven) &&
      !operator_present)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "this rig cannot place the obstacles and "
                   "read the robot's detections (clause 6), and no operator is asked: give "
                   "the operator's prompts, or record them with campaign import");
      return FALSE;
    }
  return TRUE;
}

/* Clause 6's configuration: found (its declared ranges) or created. */
static gboolean
resolve_detection_config (NbRun *run, double *min_mm, double *max_mm, GError **error)
{
  NbCampaignRunner *r = run->r;
  const NbCampaignRunnerOptions *o = &r->o;
  NbCampaignConfig *c = &run->config;
  gboolean found;

  if (!nb_run_get_width (run, error))
    return FALSE;
  if (!nb_run_find_config (run, c, &found, error))
    return FALSE;
  *min_mm = found ? nb_run_param_number (c->parameters, "min_range_mm") : o->min_range_mm;
  *max_mm = found ? nb_run_param_number (c->parameters, "max_range_mm") : o->max_range_mm;
  if (found && (isnan (*min_mm) || isnan (*max_mm)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 6 configuration '%s' has no "
                   "declared ranges in its parameters (imported?): run under another name",
                   r->path, o->config);
      return FALSE;
    }
  if (found && ((!isnan (o->min_range_mm) && !nb_run_same_mm (o->min_range_mm, *min_mm)) ||
                (!isnan (o->max_range_mm) && !nb_run_same_mm (o->max_range_mm, *max_mm))))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 6 configuration '%s' declares "
                   "%g to %g mm: run under another name", r->path, o->config, *min_mm, *max_mm);
      return FALSE;
    }
  if (!found && (isnan (*min_mm) || isnan (*max_mm)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause 6 places the obstacles at the "
                   "minimum and maximum ranges the manufacturer declares (6.3): give both");
      return FALSE;
    }
  memset (&run->route, 0, sizeof run->route);
  run->route.kind = NB_ROUTE_STRAIGHT;
  run->route.n_poses = 1;
  run->route.poses[0] = (NbRoutePose) { "P0", 0.0, 0.0, 0.0 };
  if (found)
    return TRUE;
  c->clause = 6;
  c->name = g_strdup (o->config);
  c->load_kg = isnan (o->load_kg) ? 0.0 : o->load_kg;
  c->parameters = g_strdup_printf ("{\"min_range_mm\": %.17g, \"max_range_mm\": %.17g, "
                                   "\"robot_width_mm\": %.17g, \"range_from\": \"robot centre "
                                   "to obstacle face\", \"runner\": true}", *min_mm, *max_mm,
                                   run->width_mm);
  return nb_campaign_add_config (run->campaign, c, error);
}

/* A placement's key in the configuration's set of those recorded:
 * "obstacle|max|45" (the trials' label, kind and angle). */
static char *
placement_key (const char *obstacle, guint k)
{
  double bearing;
  gboolean max;

  nb_detection_placement (k, &bearing, &max);
  return g_strdup_printf ("%s|%s|%.0f", obstacle, max ? "max" : "min", bearing);
}

/* The obstacles to place: options.obstacle or table 2's six, none whose
 * placements the configuration holds already. */
static GPtrArray *
detection_obstacles (NbRun *run, guint *next_number, GError **error)
{
  const NbCampaignRunnerOptions *o = &run->r->o;
  g_autoptr (GArray) trials = nb_campaign_list_trials (run->campaign, run->config.id, error);
  g_autoptr (GPtrArray) list = g_ptr_array_new ();
  const char *const *names = nb_obstacle_names ();
  NbObstacleShape shape;

  NbClauseEnv env;

  if (trials == NULL || !nb_clause_env_from_campaign (run->campaign, &env, error))
    return NULL;
  g_array_set_clear_func (trials, (GDestroyNotify) nb_campaign_trial_clear);
  if (o->obstacle != NULL)
    {
      nb_obstacle_find (o->obstacle, 0, &shape);
      /* Annex A.5.2: outdoors the tables and the acrylic wall are not used. */
      if (env.outdoor && !nb_obstacle_outdoor (shape.name))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the campaign is outdoors: the %s "
                       "is not used there (annex A.5.2: the small cylinder, the large cylinder "
                       "and the wooden wall)", run->r->path, shape.name);
          return NULL;
        }
      g_ptr_array_add (list, (gpointer) shape.name);    /* the table's own string */
    }
  else
    for (guint i = 0; names[i] != NULL; i++)
      if (!env.outdoor || nb_obstacle_outdoor (names[i]))
        g_ptr_array_add (list, (gpointer) names[i]);
  *next_number = 1;
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      *next_number = MAX (*next_number, t->number + 1);
      /* A run stopped part way (Ctrl-C, a crash) goes on with the
       * placements not yet recorded. */
      if (nb_campaign_trial_counts (6, t) && t->label != NULL && t->kind != NULL)
        g_hash_table_add (placed (run), g_strdup_printf ("%s|%s|%.0f", t->label, t->kind,
                                                        t->angle_deg));
    }
  for (guint k = 0; k < list->len; k++)
    {
      guint n = 0;

      for (guint p = 0; p < NB_DETECTION_PLACEMENTS; p++)
        {
          g_autofree char *key = placement_key (g_ptr_array_index (list, k), p);

          n += g_hash_table_contains (placed (run), key);
        }
      if (n == NB_DETECTION_PLACEMENTS)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 6 configuration '%s' "
                       "already holds the placements of the %s (6.3 places each obstacle "
                       "once per direction and range): run under another name",
                       run->r->path, o->config, (char *) g_ptr_array_index (list, k));
          return NULL;
        }
    }
  return g_steal_pointer (&list);
}

/* 6.3 on a real test area: the operator puts the obstacle there. */
static gboolean
ask_placed (NbRun *run, guint k, const NbObstacleShape *shape, double angle,
            gboolean max_range, double true_mm, GError **error)
{
#define PLACE N_("Placement %u/%u: put the %s %.0f mm from the robot's centre to its face " \
                 "(the %s range), %.0f° counter-clockwise from the robot's line of sight, its " \
                 "largest side facing the robot (6.3); answer yes when it is in place")
  const NbCatalogue *w = nb_run_words (run);
  const char *range = max_range ? N_("maximum") : N_("minimum");
  g_autofree char *q = g_strdup_printf (PLACE, k, run->n_trials, shape->name, true_mm, range,
                                        angle);
  g_autofree char *shown = g_strdup_printf (nb_tr (w, PLACE), k, run->n_trials,
                                            nb_tr (w, shape->name), true_mm, nb_tr (w, range),
                                            angle);
#undef PLACE

  return nb_run_ask_shown (run, NB_PROMPT_CONFIRM, q, shown, NULL, NULL, error);
}

/* 6.3 on a real test area: what the robot reports of the obstacle, read by
 * the operator — the range in mm, or "no" when it does not detect it.
 * Nothing measured proposes an answer (--prompts auto cannot give one). */
static gboolean
ask_report (NbRun *run, guint k, const NbObstacleShape *shape, gboolean *detected,
            double *measured_mm, GError **error)
{
#define REPORT N_("Placement %u: the range at which the robot reports the %s, mm, from its " \
                  "centre to the obstacle's face (no: it does not detect it)")
  const NbCatalogue *w = nb_run_words (run);
  g_autofree char *q = g_strdup_printf (REPORT, k, shape->name);
  g_autofree char *shown = g_strdup_printf (nb_tr (w, REPORT), k, nb_tr (w, shape->name));
  g_autofree char *answer = NULL;
  char *end = NULL;
#undef REPORT

  if (!nb_run_ask_shown (run, NB_PROMPT_TEXT, q, shown, NULL, &answer, error))
    return FALSE;
  g_strstrip (answer);
  if (g_ascii_strcasecmp (answer, "no") == 0 || g_ascii_strcasecmp (answer, "n") == 0 ||
      g_str_equal (answer, "нет"))
    {
      *detected = FALSE;
      *measured_mm = NAN;
      return TRUE;
    }
  *measured_mm = g_ascii_strtod (answer, &end);
  if (end == answer || *end != '\0' || !(*measured_mm > 0.0 && isfinite (*measured_mm)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "placement %u: the robot's report '%s': a "
                   "range in mm > 0, or no", k, answer);
      return FALSE;
    }
  *detected = TRUE;
  return TRUE;
}

/* One placement: the obstacle put there, the robot's report read, the
 * trial recorded as import records a detection row. */
static gboolean
run_placement (NbRun *run, guint k, const char *obstacle, double angle, gboolean max_range,
               double true_mm, guint number, NbTrialOutcome *outcome, GError **error)
{
  NbCampaignRunner *r = run->r;
  NbObstacleShape shape;
  NbCampaignTrial t;
  NbRunnerEvent ev;
  NbConfigResult figures;
  gboolean detected = FALSE;
  double measured = NAN;

  nb_obstacle_find (obstacle, 0, &shape);
  if (!nb_course_detection (run->width_mm, &shape, angle, true_mm, &run->course, error))
    return FALSE;
  nb_campaign_trial_init (&t);
  t.start_time = nb_device_time (r->device);
  nb_run_event_init (run, &ev, NB_RUNNER_EVENT_TRIAL_STARTED, k);
  ev.t_s = t.start_time;
  ev.number = number;
  ev.obstacle = shape.name;
  ev.angle_deg = angle;
  ev.max_range = max_range;
  ev.true_mm = true_mm;
  ev.measured_mm = NAN;
  nb_run_post (run, &ev, NULL);

  if (r->rig_ops->set_course != NULL)
    r->rig_ops->set_course (r->rig, &run->course, t.start_time);
  else if (!ask_placed (run, k, &shape, angle, max_range, true_mm, error))
    return FALSE;
  if (r->rig_ops->detect != NULL
      ? !r->rig_ops->detect (r->rig, angle, &detected, &measured, error)
      : !ask_report (run, k, &shape, &detected, &measured, error))
    {
      g_prefix_error (error, "the %s at %g°, %s range: ", obstacle, angle,
                      max_range ? "max" : "min");
      return FALSE;
    }
  if (!detected)
    measured = NAN;
  t.number = number;
  t.label = g_strdup (shape.name);
  t.kind = g_strdup (max_range ? "max" : "min");
  t.angle_deg = angle;
  t.true_mm = true_mm;
  t.detected = detected;
  t.measured_mm = measured;
  t.outcome = NB_TRIAL_OK;
  t.end_time = nb_device_time (r->device);
  if (!nb_campaign_record_trial (run->campaign, run->config.id, &t, error))
    {
      nb_campaign_trial_clear (&t);
      return FALSE;
    }
  *outcome = t.outcome;
  if (!nb_run_figures (run, &figures, error))
    {
      nb_config_result_clear (&figures);
      nb_campaign_trial_clear (&t);
      return FALSE;
    }
  ev.kind = NB_RUNNER_EVENT_TRIAL_ENDED;
  ev.trial_id = t.id;
  ev.seq = t.seq;
  ev.t_s = t.end_time;
  ev.outcome = t.outcome;
  ev.detected = detected;
  ev.measured_mm = measured;
  nb_run_post (run, &ev, &figures);
  nb_campaign_trial_clear (&t);
  return TRUE;
}

/* 6.3: every obstacle at the maximum then the minimum range, on the line
 * of sight and every 45° counter-clockwise round the circle. */
static gboolean
run_all (NbRun *run, gboolean *cancelled, GError **error)
{
  NbCampaignRunner *r = run->r;
  NbRunnerSummary *sum = &r->summary;
  g_autoptr (GPtrArray) obstacles = NULL;
  double min_mm, max_mm;
  guint number, k = 0;

  run->state = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run->state_free = (GDestroyNotify) g_hash_table_unref;
  if (!resolve_detection_config (run, &min_mm, &max_mm, error) ||
      (obstacles = detection_obstacles (run, &number, error)) == NULL)
    return FALSE;
  run->n_trials = 0;
  for (guint i = 0; i < obstacles->len; i++)
    for (guint p = 0; p < NB_DETECTION_PLACEMENTS; p++)
      {
        g_autofree char *key = placement_key (g_ptr_array_index (obstacles, i), p);

        run->n_trials += !g_hash_table_contains (placed (run), key);
      }
  /* The robot at its start pose, facing along the line of sight: sent
   * there, or brought by the operator. */
  if (r->robot_ops != NULL && !nb_run_send_goal (run, &run->route.poses[0], error))
    {
      r->robot_ops->stop (r->robot);
      g_prefix_error (error, "going to P0: ");
      return FALSE;
    }
  if (r->robot_ops == NULL &&
      !nb_run_ask_tr (run, NB_PROMPT_CONFIRM, NULL, NULL, error,
                      N_("Clause 6 '%s': bring the robot to P0 (0, 0 mm) facing along +x, its "
                         "line of sight, and leave it standing there for the placements (6.3); "
                         "answer yes when it is there"), r->o.config))
    return FALSE;
  for (guint i = 0; i < obstacles->len; i++)
    for (guint p = 0; p < NB_DETECTION_PLACEMENTS; p++)
      {
        NbTrialOutcome outcome = NB_TRIAL_RUNNING;
        g_autofree char *key = placement_key (g_ptr_array_index (obstacles, i), p);
        double bearing;
        gboolean max;

        if (g_hash_table_contains (placed (run), key))
          continue;
        if (g_cancellable_is_cancelled (run->cancellable))
          {
            *cancelled = TRUE;
            return TRUE;
          }
        nb_detection_placement (p, &bearing, &max);
        if (!run_placement (run, ++k, g_ptr_array_index (obstacles, i), bearing, max,
                            max ? max_mm : min_mm, number++, &outcome, error))
          return FALSE;
        sum->run++;
        sum->ok += outcome == NB_TRIAL_OK;
      }
  return TRUE;
}

static const NbClauseRunner runner = {
  .check = run_check,
  .run_all = run_all,
};

/* ------------------------------------------------------------- export -- */

/* campaign export --trials 6: every placement (6.3) and what was measured. */
static const char *const export_columns[] = {
  "config", "obstacle", "angle_deg", "range", "true_mm", "measured_mm", "detected", NULL
};

static gboolean
export_trial (NbCampaign *campaign, const NbCampaignConfig *c, const NbCampaignTrial *t,
              NbClauseExportRow row, gpointer data, GError **error)
{
  const NbClauseCell cells[] = {
    { c->name, 0 }, { t->label ? t->label : "", 0 }, { NULL, t->angle_deg },
    { t->kind ? t->kind : "", 0 }, { NULL, t->true_mm }, { NULL, t->measured_mm },
    { t->detected ? "1" : "0", 0 },
  };

  return row (cells, G_N_ELEMENTS (cells), data, error);
}

/* 6.3: a prescribed obstacle is tested when it was placed (a counted
 * trial of its name) in any clause 6 configuration. */
static gboolean
covers (const NbCampaignConfig *p, const NbCampaignConfig *c, GHashTable *labels)
{
  GHashTableIter it;
  gpointer label;

  (void) c;
  g_hash_table_iter_init (&it, labels);
  while (g_hash_table_iter_next (&it, &label, NULL))
    if (g_strcmp0 (nb_clause_canonical_obstacle (label), p->obstacle) == 0)
      return TRUE;
  return FALSE;
}

static char *
describe (const NbCatalogue *lang, const NbCampaignConfig *p)
{
  return g_strdup (nb_tr (lang, p->obstacle));
}

/* compute detection: the placements (6.3), tallied per obstacle and over
 * all; the budget when a placement was detected. */
static NbUncBudget *
csv_budget (const NbUncSetup *setup, GArray *placements, const NbDetectionResult *res,
            guint64 seed, GError **error)
{
  guint n = placements->len;
  g_autofree const char **o = g_new (const char *, MAX (n, 1));
  g_autofree double *t = g_new (double, MAX (n, 1));
  g_autofree double *m = g_new (double, MAX (n, 1));
  g_autofree gboolean *d = g_new (gboolean, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      NbPlacement *p = &g_array_index (placements, NbPlacement, i);

      o[i] = p->obstacle;
      t[i] = p->true_mm;
      m[i] = p->measured_mm;
      d[i] = p->detected;
    }
  return nb_clause_unc_detection (setup, res, o, t, m, d, n, seed, error);
}

static gboolean
compute_csv (const NbClauseCsv *in, NbClauseCsvFigures *f, GError **error)
{
  if ((f->placements = nb_measurements_read_detection (in->input, error)) == NULL)
    return FALSE;
  nb_detection_result_init (&f->detection);
  for (guint i = 0; i < f->placements->len; i++)
    {
      NbPlacement *p = &g_array_index (f->placements, NbPlacement, i);

      nb_detection_result_add (&f->detection, p->obstacle, p->true_mm, p->detected,
                               p->measured_mm);
    }
  if (in->setup != NULL && f->detection.all.detected > 0 &&
      (f->budget = csv_budget (in->setup, f->placements, &f->detection, in->seed,
                               error)) == NULL)
    {
      g_prefix_error (error, "%s: ", in->input);
      return FALSE;
    }
  return TRUE;
}

static void
csv_json (NbJsonWriter *w, const NbClauseCsvFigures *f)
{
  nb_clause_json_detection (w, &f->detection);
  if (f->budget != NULL)
    nb_clause_json_detection_unc (w, f->budget, &f->detection);
}

const NbClause nb_clause_detection = {
  .number = 6,
  .title = N_("Obstacle detection"),
  .table = 3,
  /* 6.3: 8 directions × {max, min} range per obstacle. */
  .trials = 16,
  .trial_word = N_("placements"),
  .trials_clause = "6.3",
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .options = NB_CLAUSE_OPT_OBSTACLE | NB_CLAUSE_OPT_ALL_OBSTACLES | NB_CLAUSE_OPT_RANGES,
  .run = NB_CLAUSE_RUN_PLACEMENTS,
  .layout = "6.3: placements round the robot",
  .driven_asks = N_("to place each obstacle and read the range the robot reports of it (6.3)"),
  .runner = &runner,
  .configurations = configurations,
  .counts = nb_clause_counts_ok,
  .check_import = check_import,
  .import = import,
  .compute = compute,
  .json = json,
  .text = text,
  .uncertainty = uncertainty,
  .uncertainty_json = uncertainty_json,
  .event_json = event_json,
  .event_text = event_text,
  .export_columns = export_columns,
  .export_trial = export_trial,
  .covers = covers,
  .describe = describe,
  .compute_csv = compute_csv,
  .csv_json = csv_json,
};
