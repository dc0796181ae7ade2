/* nb-clause-path.c — ISO 18646-2 clause 8, path deviation
 *
 * 8.3: the straight route, two configurations (no load, rated load), 30
 * trials each, the position measured continuously.  d_i per trial from the
 * track against the commanded segment P0 → P1 (stored in the
 * configuration); d = max |d_i|, the mean and the standard deviation
 * (table 5) by nb_path_run / nb_metrics_path.
 */
#include "nb-clause-private.h"

#include "nb-campaign-runner.h"
#include "nb-angle.h"
#include "nb-error.h"
#include "nb-measurements.h"
#include "nb-unc-report.h"
#include "nb-metrics.h"
#include "nb-route.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static const NbClauseColumn columns[] = {
  { "max_mm", N_("Maximum deviation d"), N_("mm"), 2 },
  { "mean_mm", N_("Mean d_i"), N_("mm"), 2 },
  { "mean_abs_mm", N_("Mean |d_i|"), N_("mm"), 2 },
  { "std_mm", N_("Standard deviation"), N_("mm"), 2 },
};

static gboolean
configurations (const NbClauseEnv *env, GArray *out, GError **error)
{
  NbRoute r;

  if (!nb_clause_need_lu (env, 8, error) ||
      !nb_route_make (NB_ROUTE_STRAIGHT, env->leg1_lu * env->lu_mm,
                      env->leg2_lu * env->lu_mm, FALSE, &r, error))
    return FALSE;
  for (guint rated = 0; rated < 2; rated++)
    {
      NbCampaignConfig *c = nb_clause_config_append (out, 8, rated ? "straight-rated-load"
                                                                   : "straight-no-load",
                                                     nb_clause_load (env, rated));

      c->route = g_strdup (nb_route_kind_to_string (NB_ROUTE_STRAIGHT));
      c->from_mm[0] = r.poses[0].x_mm;
      c->from_mm[1] = r.poses[0].y_mm;
      c->to_mm[0] = r.poses[1].x_mm;
      c->to_mm[1] = r.poses[1].y_mm;
      c->parameters = g_strdup_printf ("{\"lu_mm\": %.17g, \"leg_lu\": %.17g, "
                                       "\"clockwise\": false}", env->lu_mm, env->leg1_lu);
    }
  return TRUE;
}

static gboolean
check_import (const NbClauseImport *in, GError **error)
{
  NbSegment segment;

  if (!nb_clause_require_config (in, error))
    return FALSE;
  if (!in->have_segment)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--%s is required",
                   isnan (in->given->from_mm[0]) ? "from X0,Y0 in mm" : "to X1,Y1 in mm");
      return FALSE;
    }
  return nb_segment_init (&segment, in->given->from_mm[0], in->given->from_mm[1],
                          in->given->to_mm[0], in->given->to_mm[1], error);
}

typedef struct {
  NbCampaign *campaign;
  gint64 config_id;
  GHashTable *index;                    /* label → trial id */
  GArray *ids;                          /* of gint64, in order of first appearance */
  GPtrArray *labels;                    /* the trials' labels, in the same order */
  gint64 current;
} PathImport;

/* A trial is begun at its label's first row; its samples stream into the
 * store (a trial may return after another). */
static gboolean
import_sample (const char *trial, gboolean new_run, guint64 line, double x_mm, double y_mm,
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
import (NbCampaign *campaign, const NbClauseImport *in, guint *n_trials, GError **error)
{
  g_autoptr (GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  PathImport imp = { campaign, 0, index, ids, labels, 0 };
  NbCampaignConfig config;
  gboolean ok;

  nb_campaign_config_init (&config);
  ok = nb_clause_new_config (campaign, 8, in->config, in->given, &config, error);
  imp.config_id = config.id;
  nb_campaign_config_clear (&config);
  if (!ok || !nb_measurements_read_path (in->input, import_sample, &imp, error))
    return FALSE;
  for (guint i = 0; i < ids->len; i++)
    {
      NbCampaignTrial t;

      nb_campaign_trial_init (&t);
      t.id = g_array_index (ids, gint64, i);
      t.number = i + 1;
      t.label = g_strdup (g_ptr_array_index (labels, i));
      t.outcome = NB_TRIAL_OK;
      ok = nb_campaign_end_trial (campaign, &t, error);
      nb_campaign_trial_clear (&t);
      if (!ok)
        return FALSE;
      (*n_trials)++;
    }
  return TRUE;
}

typedef struct {
  NbPathRun *run;
  const char *label;
  gboolean first;
  NbTrackSample last;           /* 8.3 b: where the trial ended */
} PathPush;

static gboolean
push_path_block (const NbTrackSample *s, gsize n, gpointer user_data, GError **error)
{
  PathPush *p = user_data;

  for (gsize i = 0; i < n; i++)
    {
      nb_path_run_push (p->run, p->label, p->first, 0, s[i].x_mm, s[i].y_mm);
      p->first = FALSE;
    }
  if (n > 0)
    p->last = s[n - 1];
  return TRUE;
}

static void
goal_miss_clear (gpointer p)
{
  g_free (((NbGoalMiss *) p)->label);
}

static gboolean
compute (NbCampaign *campaign, const NbCampaignConfig *c, GPtrArray *trials, NbConfigResult *r,
         GError **figures, GError **error)
{
  NbSegment segment;
  g_autoptr (GError) no_goal = NULL;
  NbPose goal;

  nb_goal_tolerance_init (&r->goal);
  if (!nb_segment_init (&segment, c->from_mm[0], c->from_mm[1], c->to_mm[0], c->to_mm[1],
                        figures))
    return TRUE;
  /* 8.3 b: "the target is reached when the attained pose is within the
   * position and orientation repeatability of clause 5": each trial's last
   * sample against P1, heading along P0 → P1 (nb_goal_reached). */
  goal = (NbPose) { c->to_mm[0], c->to_mm[1], atan2 (segment.ey, segment.ex) * 180.0 / G_PI };
  if (!nb_goal_tolerance_from_campaign (campaign, c->load_kg, &r->goal, &no_goal) &&
      !g_error_matches (no_goal, NB_ERROR, NB_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&no_goal));
      return FALSE;
    }
  r->path_run = nb_path_run_new (&segment);
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = g_ptr_array_index (trials, i);
      g_autofree char *label = t->label ? g_strdup (t->label) : g_strdup_printf ("%u", t->seq);
      PathPush push = { r->path_run, label, TRUE };

      if (!nb_campaign_foreach_samples (campaign, t->id, push_path_block, &push, error))
        return FALSE;
      if (push.first)
        {
          g_set_error (figures, NB_ERROR, NB_ERROR_INPUT, "trial '%s' has no samples", label);
          return TRUE;
        }
      if (no_goal == NULL)
        {
          NbPose end = { push.last.x_mm, push.last.y_mm, push.last.theta_deg };
          double miss, turn;

          r->goal_judged++;
          if (nb_goal_reached (&r->goal, &goal, &end, &miss, &turn))
            r->goal_reached++;
          else
            {
              NbGoalMiss m = { g_strdup (label), miss, turn };

              if (r->goal_missed == NULL)
                {
                  r->goal_missed = g_array_new (FALSE, FALSE, sizeof (NbGoalMiss));
                  g_array_set_clear_func (r->goal_missed, goal_miss_clear);
                }
              g_array_append_val (r->goal_missed, m);
            }
        }
    }
  r->d_mm = nb_path_run_finish (r->path_run, NULL, &r->path, figures);
  /* 8.3 a: the robot starts at P0, heading along P0 → P1. */
  {
    const NbPose p0 = { c->from_mm[0], c->from_mm[1], goal.theta_deg };

    return nb_clause_check_start (campaign, trials, &p0, r, error);
  }
}

/* #17: d, the mean and std of the d_i on the commanded segment. */
static NbUncBudget *
uncertainty (const NbUncSetup *setup, const NbCampaignConfig *c, GPtrArray *trials,
             const NbConfigResult *r, guint64 seed, GError **error)
{
  NbSegment segment;

  if (r->d_mm == NULL ||
      !nb_segment_init (&segment, c->from_mm[0], c->from_mm[1], c->to_mm[0], c->to_mm[1], error))
    return NULL;
  return nb_unc_path (setup, r->d_mm, nb_path_run_n_trials (r->path_run), &segment, seed, error);
}

static void
json (NbJsonWriter *w, const NbConfigResult *r)
{
  guint n = nb_path_run_n_trials (r->path_run);
  g_autofree const char **labels = g_new (const char *, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    labels[i] = nb_path_run_trial (r->path_run, i)->label;
  nb_clause_json_path (w, &r->path, nb_path_run_samples (r->path_run), labels, r->d_mm, n);
}

static void
text (GString *out, const NbConfigResult *r)
{
  char a[32], b[32], c[32];

  g_string_append_printf (out, "n %" G_GUINT64_FORMAT "  d = max |d_i| %s mm  mean %s mm"
                          "  std %s mm", r->path.n,
                          nb_clause_format_figure (a, r->path.max_mm, 2),
                          nb_clause_format_figure (b, r->path.mean_mm, 2),
                          nb_clause_format_figure (c, r->path.std_mm, 2));
}

static void
event_json (NbJsonWriter *w, const NbRunnerEvent *ev)
{
  nb_json_key (w, "d_mm"); nb_json_double (w, ev->d_mm);
}

static char *
event_text (const NbRunnerEvent *ev)
{
  if (isnan (ev->d_mm))
    return NULL;
  return g_strdup_printf ("d_i %.3f mm over %" G_GUINT64_FORMAT " samples", ev->d_mm,
                          ev->n_samples);
}

/* ------------------------------------------------------ the runner -- */

/* 8.3: the straight route only; the trial's samples from its start to the
 * robot's arrival at P1 are stored; d_i is computed from them by campaign
 * results (the segment P0 → P1 is stored in the configuration). */
static gboolean
run_prepare (NbRun *run, GError **error)
{
  const NbRoutePose *p0 = &run->route.poses[0], *p1 = &run->route.poses[1];
  gboolean found;
  double lu;

  if (!nb_run_route_config (run, &found, &lu, error))
    return FALSE;
  if (found)
    {
      if (!(nb_run_same_mm (run->config.from_mm[0], p0->x_mm) &&
            nb_run_same_mm (run->config.from_mm[1], p0->y_mm) &&
            nb_run_same_mm (run->config.to_mm[0], p1->x_mm) &&
            nb_run_same_mm (run->config.to_mm[1], p1->y_mm)))
        return nb_run_refuse_relaid (run, lu, error);
    }
  else
    {
      run->config.from_mm[0] = p0->x_mm;
      run->config.from_mm[1] = p0->y_mm;
      run->config.to_mm[0] = p1->x_mm;
      run->config.to_mm[1] = p1->y_mm;
      if (!nb_campaign_add_config (run->campaign, &run->config, error))
        return FALSE;
    }
  return nb_run_count_trials (run, error);
}

/* What import stores: the trial's label. */
static void
run_begun (NbRun *run, NbCampaignTrial *t)
{
  t->label = g_strdup_printf ("%u", t->seq);
}

/* The operator's trial: the track is all (no pose is judged). */
static gboolean
run_judge_segmented (NbRun *run, guint k, const NbPose *attained, NbCampaignTrial *t,
                     NbRunnerEvent *ev, GError **error)
{
  return TRUE;
}

/* This trial's d_i from its stored samples. */
static void
run_ended (NbRun *run, const NbCampaignTrial *t, NbRunnerEvent *ev)
{
  NbSegment seg;
  NbPathTrial pt;

  if (t->outcome != NB_TRIAL_OK ||
      !nb_segment_init (&seg, run->config.from_mm[0], run->config.from_mm[1],
                        run->config.to_mm[0], run->config.to_mm[1], NULL))
    return;
  nb_path_trial_init (&pt);
  for (guint i = 0; i < run->samples->len; i++)
    {
      const NbSample *s = &g_array_index (run->samples, NbSample, i);

      nb_path_trial_push (&pt, &seg, s->x_m * 1000.0, s->y_m * 1000.0);
    }
  ev->d_mm = pt.d_mm;
}

static const NbClauseRunner runner = {
  .prepare = run_prepare,
  .begun = run_begun,
  .judge_segmented = run_judge_segmented,
  .ended = run_ended,
};

/* ------------------------------------------------------------- export -- */

/* campaign export --trials 8: the commanded segment and every sample of each
 * trial's track (8.3: d_i is computed from them). */
static const char *const export_columns[] = {
  "config", "from_x_mm", "from_y_mm", "to_x_mm", "to_y_mm", "trial", "t_s", "x_mm", "y_mm", NULL
};

typedef struct {
  const NbCampaignConfig *config;
  const NbCampaignTrial *trial;
  NbClauseExportRow row;
  gpointer data;
} ExportTrack;

static gboolean
export_samples (const NbTrackSample *s, gsize n, gpointer user_data, GError **error)
{
  ExportTrack *x = user_data;
  const NbCampaignConfig *c = x->config;

  for (gsize i = 0; i < n; i++)
    {
      const NbClauseCell cells[] = {
        { c->name, 0 }, { NULL, c->from_mm[0] }, { NULL, c->from_mm[1] }, { NULL, c->to_mm[0] },
        { NULL, c->to_mm[1] }, { x->trial->label ? x->trial->label : "", 0 }, { NULL, s[i].t_s },
        { NULL, s[i].x_mm }, { NULL, s[i].y_mm },
      };

      if (!x->row (cells, G_N_ELEMENTS (cells), x->data, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
export_trial (NbCampaign *campaign, const NbCampaignConfig *c, const NbCampaignTrial *t,
              NbClauseExportRow row, gpointer data, GError **error)
{
  ExportTrack x = { c, t, row, data };

  return nb_campaign_foreach_samples (campaign, t->id, export_samples, &x, error);
}

static void
config_json (NbJsonWriter *w, const NbCampaignConfig *c)
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

/* 8.3: the straight route, with and without the rated load. */
static char *
describe (const NbCatalogue *lang, const NbCampaignConfig *p)
{
  return g_strdup_printf (nb_tr (lang, "straight route, %s"), nb_clause_load_words (lang, p));
}

/* nb_measurements_read_path → the shared grouping of trials. */
static gboolean
csv_sample (const char *trial, gboolean new_run, guint64 line, double x_mm, double y_mm,
            double t_s, gpointer user_data, GError **error)
{
  nb_path_run_push (user_data, trial, new_run, line, x_mm, y_mm);
  return TRUE;
}

/* compute path: the samples streamed by trial, d_i per trial (8.2) and
 * the figures. */
static gboolean
compute_csv (const NbClauseCsv *in, NbClauseCsvFigures *f, GError **error)
{
  f->run = nb_path_run_new (&in->segment);
  if (!nb_measurements_read_path (in->input, csv_sample, f->run, error) ||
      (f->d_mm = nb_path_run_finish (f->run, in->input, &f->path, error)) == NULL)
    return FALSE;
  f->n_trials = nb_path_run_n_trials (f->run);
  if (in->setup != NULL &&
      (f->budget = nb_unc_path (in->setup, f->d_mm, f->n_trials, &in->segment, in->seed,
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
  g_autofree const char **labels = g_new (const char *, MAX (f->n_trials, 1));

  for (guint i = 0; i < f->n_trials; i++)
    labels[i] = nb_path_run_trial (f->run, i)->label;
  nb_clause_json_path (w, &f->path, nb_path_run_samples (f->run), labels, f->d_mm, f->n_trials);
  if (f->budget != NULL)
    nb_unc_json_budget (w, f->budget);
}

const NbClause nb_clause_path = {
  .number = 8,
  .title = N_("Path deviation"),
  .table = 5,
  .trials = 30,
  .trial_word = N_("trials"),
  .trials_clause = "8.3",
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .statistics_of_n = TRUE,
  .options = NB_CLAUSE_OPT_ROUTE | NB_CLAUSE_OPT_STRAIGHT_ONLY | NB_CLAUSE_OPT_LOAD |
             NB_CLAUSE_OPT_TRIALS,
  .run = NB_CLAUSE_RUN_PATH,
  .runner = &runner,
  .configurations = configurations,
  .counts = nb_clause_counts_ok,
  .check_import = check_import,
  .import = import,
  .compute = compute,
  .json = json,
  .text = text,
  .uncertainty = uncertainty,
  .event_json = event_json,
  .event_text = event_text,
  .export_columns = export_columns,
  .export_trial = export_trial,
  .config_json = config_json,
  .covers = nb_clause_covers_load,
  .describe = describe,
  .compute_csv = compute_csv,
  .csv_json = csv_json,
};
