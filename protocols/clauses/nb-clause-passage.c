/* nb-clause-passage.c — ISO 18646-2 clause 9, narrow passage
 *
 * 9.3: two configurations (no load, rated load) in a passage 4 LU long of
 * the width the manufacturer declares (9.2); five trials; the figure is the
 * mean passage time of five consecutive successful trials (table 6) by
 * nb_metrics_passage.  A failed trial is a result: the figures count it.
 */
#include "nb-clause-private.h"

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

  nb_clause_timed_trials (trials, &baseline, &timed);
  nb_metrics_passage ((NbTimedTrial *) timed->data, timed->len, &r->passage, figures);
  return TRUE;
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

const NbClause nb_clause_passage = {
  .number = 9,
  .title = N_("Narrow passage"),
  .table = 6,
  .trials = 5,
  .trial_word = "trials",
  .trials_clause = "9.3",
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .options = NB_CLAUSE_OPT_LOAD | NB_CLAUSE_OPT_TRIALS | NB_CLAUSE_OPT_PASSAGE_WIDTH |
             NB_CLAUSE_OPT_GOAL_TOLERANCE,
  .run = NB_CLAUSE_RUN_COURSE,
  .layout = "9.2: the passage",
  .contact = "a wall of the passage",
  .goal_clause = "9.3 c",
  .configurations = configurations,
  .counts = nb_clause_counts_judged,
  .check_import = check_import,
  .import = import,
  .compute = compute,
  .json = json,
  .text = text,
  .event_json = nb_clause_course_event_json,
  .event_text = nb_clause_course_event_text,
};
