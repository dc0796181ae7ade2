/* nb-clause-passage.c — ISO 18646-2 clause 9, narrow passage
 *
 * 9.3: two configurations (no load, rated load) in a passage 4 LU long of
 * the width the manufacturer declares (9.2); five trials; the figure is the
 * mean passage time of five consecutive successful trials (table 6) by
 * nb_metrics_passage.  A failed trial is a result: the figures count it.
 */
#include "nb-clause-private.h"

#include "nb-course.h"
#include "nb-error.h"
#include "nb-measurements.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static const NbClauseColumn columns[] = {
  { "passed", N_("Passed"), NULL, 0 },
  { "mean_time_s", N_("Passage time"), N_("s"), 2 },
  { "failed_trials", N_("Failed trials"), NULL, 0 },
};

/* decided (as the runner): a passage not declared is the robot's width +
 * 200 mm, 100 mm each side. */
#define DEFAULT_CLEARANCE_MM 200.0

static gboolean
configurations (const NbClauseEnv *env, GArray *out, GError **error)
{
  double width = !isnan (env->passage_width_mm) ? env->passage_width_mm
                 : env->robot_width_mm + DEFAULT_CLEARANCE_MM;
  char lu[32], robot[32], passage[32], length[32];

  if (!nb_clause_need_lu (env, 9, error))
    return FALSE;
  for (guint rated = 0; rated < 2; rated++)
    {
      NbCampaignConfig *c = nb_clause_config_append (out, 9, rated ? "rated-load" : "no-load",
                                                     nb_clause_load (env, rated));

      /* 9.2: 4 LU long. */
      c->parameters = g_strdup_printf ("{\"lu_mm\": %s, \"robot_width_mm\": %s, "
                                       "\"passage_width_mm\": %s, \"passage_length_mm\": %s}",
                                       nb_clause_json_number (lu, env->lu_mm),
                                       nb_clause_json_number (robot, env->robot_width_mm),
                                       nb_clause_json_number (passage, width),
                                       nb_clause_json_number (length, 4.0 * env->lu_mm));
    }
  return TRUE;
}

static gboolean
check_import (const NbClauseImport *in, GError **error)
{
  return TRUE;
}

static gboolean
import (NbCampaign *campaign, const NbClauseImport *in, guint *n_trials, GError **error)
{
  g_autoptr (GArray) rows = nb_measurements_read_passage (in->input, error);

  return rows != NULL &&
         nb_clause_import_timed (campaign, &nb_clause_passage, in, rows, n_trials, error);
}

static gboolean
compute (NbCampaign *campaign, const NbCampaignConfig *c, GPtrArray *trials, NbConfigResult *r,
         GError **figures, GError **error)
{
  g_autoptr (GArray) baseline = NULL;
  g_autoptr (GArray) timed = NULL;

  /* 9.3 a: the robot starts at P0 (the course's origin, heading +x). */
  const NbPose p0 = { 0.0, 0.0, 0.0 };

  nb_clause_timed_trials (trials, &baseline, &timed);
  nb_metrics_passage ((NbTimedTrial *) timed->data, timed->len, &r->passage, figures);
  /* 9.3: the smallest clearance to the passage's walls (a contact fails a
   * trial), measured by a run or given by the import. */
  r->clearance_min_mm = r->declared_min_distance_mm = NAN;
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = g_ptr_array_index (trials, i);

      if (isnan (t->clearance_mm))
        continue;
      r->clearance_measured++;
      if (isnan (r->clearance_min_mm) || t->clearance_mm < r->clearance_min_mm)
        r->clearance_min_mm = t->clearance_mm;
    }
  return nb_clause_check_start (campaign, trials, &p0, r, error) &&
         nb_clause_course_judge_imported (campaign, c, trials, r, error);
}

/* #17: the passage time of a configuration that passed (9.3's five trials). */
static NbUncBudget *
uncertainty (const NbUncSetup *setup, const NbCampaignConfig *c, GPtrArray *trials,
             const NbConfigResult *r, guint64 seed, GError **error)
{
  g_autoptr (GArray) baseline = NULL;
  g_autoptr (GArray) timed = NULL;

  if (!r->passage.passed)
    return NULL;
  nb_clause_timed_trials (trials, &baseline, &timed);
  return nb_unc_passage_trials (setup, (NbTimedTrial *) timed->data, timed->len, seed, error);
}

static void
json (NbJsonWriter *w, const NbConfigResult *r)
{
  nb_clause_json_passage (w, &r->passage);
}

static void
text (GString *out, const NbConfigResult *r)
{
  char a[32];

  g_string_append_printf (out, "%s  passage time %s s  %u failed",
                          r->passage.passed ? "passed" : "not passed",
                          nb_clause_format_figure (a, r->passage.mean_time_s, 2),
                          r->passage.failed_trials);
}

/* ------------------------------------------------------ the runner -- */

/* 9.2: the passage the manufacturer declares; decided: robot width +
 * 200 mm when not declared. */
static gboolean
run_check (const NbCampaignRunnerOptions *o, const NbRunnerRigOps *rig_ops,
           gboolean operator_driven, gboolean operator_present, GError **error)
{
  if (!isnan (o->passage_width_mm) &&
      !(o->passage_width_mm > 0.0 && isfinite (o->passage_width_mm)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "passage width %g mm: a width is > 0",
                   o->passage_width_mm);
      return FALSE;
    }
  return TRUE;
}

/* 9.3 on the passage of core/nb-course.h (4 LU long, P0 → PG 8 LU): five
 * trials by default, stored as import stores clause 9 rows (number,
 * time_s, outcome).  The figure is the mean time of the first five
 * consecutive successes (nb_metrics_passage): a run with failures asks for
 * more trials explicitly (options.trials). */
static gboolean
run_prepare (NbRun *run, GError **error)
{
  const NbCampaignRunnerOptions *o = &run->r->o;
  NbCampaignConfig *c = &run->config;
  const char *path = run->r->path;
  gboolean found;
  double lu, width;

  if (!nb_clause_course_config (run, &found, &lu, error))
    return FALSE;
  width = found ? nb_run_param_number (c->parameters, "passage_width_mm") : NAN;
  if (found && isnan (width))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 9 configuration '%s' has no "
                   "passage_width_mm in its parameters (imported?): run under another "
                   "name", path, o->config);
      return FALSE;
    }
  if (found && !isnan (o->passage_width_mm) && !nb_run_same_mm (width, o->passage_width_mm))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 9 configuration '%s' has a "
                   "passage %g mm wide, not %g mm: run under another name", path,
                   o->config, width, o->passage_width_mm);
      return FALSE;
    }
  if (!found)
    width = isnan (o->passage_width_mm) ? run->width_mm + DEFAULT_CLEARANCE_MM
                                        : o->passage_width_mm;
  run->state = g_new0 (gboolean, 1);
  run->state_free = g_free;
  if (!nb_course_passage (run->width_mm, width, &run->course, error))
    return FALSE;
  nb_clause_course_route (run);
  if (!found)
    {
      c->parameters = g_strdup_printf ("{\"lu_mm\": %.17g, \"robot_width_mm\": %.17g, "
                                       "\"passage_width_mm\": %.17g, \"passage_length_mm\": "
                                       "%.17g, \"entrance_x_mm\": %.17g, \"pg_mm\": %.17g, "
                                       "\"runner\": true}", lu, run->width_mm, width,
                                       run->course.exit_x_mm - run->course.entrance_x_mm,
                                       run->course.entrance_x_mm, run->course.pg[0]);
      if (!nb_campaign_add_config (run->campaign, c, error))
        return FALSE;
    }
  return nb_run_count_trials (run, error) && nb_clause_course_tolerance (run, error);
}

/* 9.2: the passage stands before the first trial — asked of whoever sets
 * it up (the operator of a real test area; the simulation, whose rig lays
 * it out, answers), once per run. */
static gboolean
run_next_trial (NbRun *run, GError **error)
{
  gboolean *set_up = run->state;
  const NbCourse *c = &run->course;

  if (*set_up || run->r->o.import_track)
    return TRUE;
#define SET_UP N_("Set up the passage of clause 9 '%s': two walls %.0f mm apart (9.2), from " \
                  "%.0f to %.0f mm along the route from P0 to PG (%.0f mm), centred on it; " \
                  "answer yes when it stands")
  {
    const NbCatalogue *w = nb_run_words (run);
    const char *name = run->r->o.config;
    g_autofree char *q = g_strdup_printf (SET_UP, name, c->passage_width_mm, c->entrance_x_mm,
                                          c->exit_x_mm, c->pg[0]);
    g_autofree char *shown = g_strdup_printf (nb_tr (w, SET_UP), name, c->passage_width_mm,
                                              c->entrance_x_mm, c->exit_x_mm, c->pg[0]);
#undef SET_UP

    if (!nb_run_ask_shown (run, NB_PROMPT_CONFIRM, q, shown, NULL, NULL, error))
      return FALSE;
  }
  *set_up = TRUE;
  return TRUE;
}

/* 9.3: a failed trial is a result, not a fault. */
static gboolean
run_recorded (NbRun *run, NbTrialOutcome outcome)
{
  return TRUE;
}

static const NbClauseRunner runner = {
  .check = run_check,
  .prepare = run_prepare,
  .next_trial = run_next_trial,
  .judge = nb_clause_course_judge,
  .judge_segmented = nb_clause_course_judge_segmented,
  .ended = nb_clause_course_ended,
  .recorded = run_recorded,
};

/* ------------------------------------------------------------- export -- */

/* campaign export --trials 9: each trial's passage time and outcome (9.3). */
static const char *const export_columns[] = { "config", "trial", "time_s", "success", NULL };

static gboolean
export_trial (NbCampaign *campaign, const NbCampaignConfig *c, const NbCampaignTrial *t,
              NbClauseExportRow row, gpointer data, GError **error)
{
  const NbClauseCell cells[] = {
    { c->name, 0 }, { NULL, t->number }, { NULL, t->time_s },
    { t->outcome == NB_TRIAL_OK ? "1" : "0", 0 },
  };

  return row (cells, G_N_ELEMENTS (cells), data, error);
}

/* 9.3: the passage with and without the rated load. */
static char *
describe (const NbCatalogue *lang, const NbCampaignConfig *p)
{
  return g_strdup (nb_clause_load_words (lang, p));
}

/* 9.3: the configuration passes when its trials do (the figures' rule). */
static gboolean
passed (const NbConfigResult *r)
{
  return r->passage.passed;
}

/* 9.2: the passage of the configuration (its passage_width_mm, else the
 * runner's default: the robot's width + 200 mm). */
static gboolean
course (const NbCampaignConfig *c, double width_mm, NbCourse *out, GError **error)
{
  double passage = nb_run_param_number (c->parameters, "passage_width_mm");

  if (isnan (passage))
    passage = width_mm + DEFAULT_CLEARANCE_MM;
  return nb_course_passage (width_mm, passage, out, error);
}

/* compute passage: per configuration of the table, 9.3's figures; the
 * budget of a configuration that passed. */
static gboolean
compute_csv (const NbClauseCsv *in, NbClauseCsvFigures *f, GError **error)
{
  if ((f->rows = nb_measurements_read_passage (in->input, error)) == NULL)
    return FALSE;
  f->configs = nb_clause_csv_group_configs (f->rows);
  for (guint i = 0; i < f->configs->len; i++)
    {
      NbClauseCsvConfig *c = &g_array_index (f->configs, NbClauseCsvConfig, i);

      if (!nb_metrics_passage ((NbTimedTrial *) c->trials->data, c->trials->len, &c->passage,
                               error) ||
          (in->setup != NULL && c->passage.passed &&
           (c->budget = nb_unc_passage_trials (in->setup, (NbTimedTrial *) c->trials->data,
                                               c->trials->len, in->seed, error)) == NULL))
        {
          g_prefix_error (error, "%s: config '%s': ", in->input, c->config);
          return FALSE;
        }
    }
  return TRUE;
}

static void
csv_config_json (NbJsonWriter *w, const NbClauseCsvConfig *c)
{
  nb_clause_json_passage (w, &c->passage);
}

static void
csv_json (NbJsonWriter *w, const NbClauseCsvFigures *f)
{
  nb_clause_csv_json_configs (w, f, csv_config_json);
}

const NbClause nb_clause_passage = {
  .number = 9,
  .title = N_("Narrow passage"),
  .table = 6,
  .trials = 5,
  .trial_word = N_("trials"),
  .trials_clause = "9.3",
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .options = NB_CLAUSE_OPT_LOAD | NB_CLAUSE_OPT_TRIALS | NB_CLAUSE_OPT_PASSAGE_WIDTH |
             NB_CLAUSE_OPT_GOAL_TOLERANCE,
  .run = NB_CLAUSE_RUN_COURSE,
  .layout = "9.2: the passage",
  .contact = N_("a wall of the passage"),
  .goal_clause = "9.3 c",
  .driven_asks = N_("to set up the passage and whether the robot touched its walls (9.3)"),
  .runner = &runner,
  .configurations = configurations,
  .counts = nb_clause_counts_judged,
  .check_import = check_import,
  .import = import,
  .compute = compute,
  .json = json,
  .text = text,
  .uncertainty = uncertainty,
  .event_json = nb_clause_course_event_json,
  .event_text = nb_clause_course_event_text,
  .export_columns = export_columns,
  .export_trial = export_trial,
  .passed = passed,
  .covers = nb_clause_covers_load,
  .describe = describe,
  .course = course,
  .compute_csv = compute_csv,
  .csv_json = csv_json,
};
