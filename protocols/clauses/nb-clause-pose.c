/* nb-clause-pose.c — ISO 18646-2 clause 5, pose accuracy and pose repeatability
 *
 * 5.4: six configurations, {straight, rectangular, combined} × {no load,
 * rated load}, 30 trials each; a trial is the attained pose at the route's
 * target, measured by the external system.  Figures (table 1): Ap, Ao, Rp,
 * Ro of nb_metrics_pose against the command pose.
 */
#include "nb-clause-private.h"
#include "nb-record-words.h"

#include "nb-angle.h"
#include "nb-campaign-runner.h"
#include "nb-error.h"
#include "nb-measurements.h"
#include "nb-unc-report.h"
#include "nb-route.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static const NbClauseColumn columns[] = {
  { "ap_mm", N_("Position accuracy Ap"), N_("mm"), 2 },
  { "ao_deg", N_("Orientation accuracy Ao"), "°", 3 },
  { "rp_mm", N_("Position repeatability Rp"), N_("mm"), 2 },
  { "ro_deg", N_("Orientation repeatability Ro (±)"), "°", 3 },
};

/* 5.4: the three routes of 4.5, each without and with the rated load, with
 * the legs the manufacturer declares (5 LU each unless it sets others);
 * when it declares clockwise routes too, the rectangular and combined ones
 * also clockwise ("-cw-" in the name). */
static gboolean
configurations (const NbClauseEnv *env, GArray *out, GError **error)
{
  static const NbRouteKind routes[] = { NB_ROUTE_STRAIGHT, NB_ROUTE_RECTANGULAR,
                                        NB_ROUTE_COMBINED };

  if (!nb_clause_need_lu (env, 5, error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (routes); i++)
    for (guint cw = 0; cw < (env->clockwise && routes[i] != NB_ROUTE_STRAIGHT ? 2u : 1u); cw++)
      for (guint rated = 0; rated < 2; rated++)
        {
          const char *route = nb_route_kind_to_string (routes[i]);
          g_autofree char *name = g_strdup_printf ("%s-%s%s", route, cw ? "cw-" : "",
                                                   rated ? "rated-load" : "no-load");
          const NbRoutePose *target;
          NbCampaignConfig *c;
          NbRoute r;

          if (!nb_route_make (routes[i], env->leg1_lu * env->lu_mm, env->leg2_lu * env->lu_mm,
                              cw != 0, &r, error))
            return FALSE;
          target = nb_route_target (&r);
          c = nb_clause_config_append (out, 5, name, nb_clause_load (env, rated));
          c->route = g_strdup (route);
          c->command = (NbPose) { target->x_mm, target->y_mm, target->theta_deg };
          c->parameters = g_strdup_printf ("{\"lu_mm\": %.17g, \"leg_lu\": %.17g, "
                                           "\"leg2_lu\": %.17g, \"clockwise\": %s}", env->lu_mm,
                                           env->leg1_lu, env->leg2_lu, cw ? "true" : "false");
        }
  return TRUE;
}

static gboolean
check_import (const NbClauseImport *in, GError **error)
{
  if (!nb_clause_require_config (in, error))
    return FALSE;
  if (!in->have_command)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--command X,Y,THETA (mm, mm, °) is required");
      return FALSE;
    }
  return TRUE;
}

/* One trial per row: the attained pose against the configuration's command. */
static gboolean
import (NbCampaign *campaign, const NbClauseImport *in, guint *n_trials, GError **error)
{
  g_autoptr (GArray) poses = nb_measurements_read_poses (in->input, error);
  NbCampaignConfig config;
  gboolean ok;

  nb_campaign_config_init (&config);
  ok = poses != NULL && nb_clause_new_config (campaign, 5, in->config, in->given, &config, error);
  for (guint i = 0; ok && i < poses->len; i++)
    {
      NbCampaignTrial t;

      nb_campaign_trial_init (&t);
      t.number = i + 1;
      t.command = config.command;
      t.attained = g_array_index (poses, NbPose, i);
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
  g_autofree NbPose *attained = g_new (NbPose, MAX (trials->len, 1));
  /* 5.4 a: "the robot is placed at the route's start pose P0" (the origin,
   * heading +x: nb-route.h). */
  const NbPose p0 = { 0.0, 0.0, 0.0 };

  for (guint i = 0; i < trials->len; i++)
    attained[i] = ((NbCampaignTrial *) g_ptr_array_index (trials, i))->attained;
  nb_metrics_pose (&c->command, attained, trials->len, &r->pose, figures);
  return nb_clause_check_start (campaign, trials, &p0, r, error);
}

/* #17: the model of Ap, Ao, Rp, Ro on the same attained poses. */
static NbUncBudget *
uncertainty (const NbUncSetup *setup, const NbCampaignConfig *c, GPtrArray *trials,
             const NbConfigResult *r, guint64 seed, GError **error)
{
  g_autofree NbPose *attained = g_new (NbPose, MAX (trials->len, 1));

  for (guint i = 0; i < trials->len; i++)
    attained[i] = ((NbCampaignTrial *) g_ptr_array_index (trials, i))->attained;
  return nb_unc_pose (setup, &c->command, attained, trials->len, seed, error);
}

static void
json (NbJsonWriter *w, const NbConfigResult *r)
{
  nb_clause_json_pose (w, &r->pose);
}

static void
text (GString *out, const NbConfigResult *r)
{
  char a[32], b[32], c[32], d[32];

  g_string_append_printf (out, "n %" G_GUINT64_FORMAT "  Ap %s mm  Ao %s°  Rp %s mm  Ro ±%s°",
                          r->pose.n, nb_clause_format_figure (a, r->pose.ap_mm, 2),
                          nb_clause_format_figure (b, r->pose.ao_deg, 3),
                          nb_clause_format_figure (c, r->pose.rp_mm, 2),
                          nb_clause_format_figure (d, r->pose.ro_deg, 3));
}

static void
event_json (NbJsonWriter *w, const NbRunnerEvent *ev)
{
  nb_clause_json_pose_member (w, "command", &ev->command);
  nb_clause_json_pose_member (w, "attained", &ev->attained);
}

static char *
event_text (const NbRunnerEvent *ev)
{
  if (isnan (ev->attained.x_mm))
    return NULL;
  return g_strdup_printf ("attained %.3f, %.3f mm, %.3f°", ev->attained.x_mm, ev->attained.y_mm,
                          ev->attained.theta_deg);
}

/* ------------------------------------------------------ the runner -- */

/* 5.4: each trial starts at P0; the robot is sent to each pose of the
 * route after P0 in turn; after the last goal has returned the runner
 * waits on the robot's clock until settle detection (nb-settle.h) finds
 * the attained pose (decided: no settled window within its timeout is a
 * failed trial, with settle's reason).  The command pose is the route's
 * target (nb_route_target). */
static gboolean
run_prepare (NbRun *run, GError **error)
{
  const NbRoutePose *target;
  gboolean found;
  double lu;

  if (!nb_run_route_config (run, &found, &lu, error))
    return FALSE;
  target = nb_route_target (&run->route);
  if (found)
    {
      if (!(nb_run_same_mm (run->config.command.x_mm, target->x_mm) &&
            nb_run_same_mm (run->config.command.y_mm, target->y_mm) &&
            nb_run_same_mm (run->config.command.theta_deg, target->theta_deg)))
        return nb_run_refuse_relaid (run, lu, error);
    }
  else
    {
      run->config.command = (NbPose) { target->x_mm, target->y_mm, target->theta_deg };
      if (!nb_campaign_add_config (run->campaign, &run->config, error))
        return FALSE;
    }
  return nb_run_count_trials (run, error);
}

static gboolean
run_judge (NbRun *run, double arrival, NbCampaignTrial *t, NbRunnerEvent *ev,
           gboolean *cancelled, GError **error)
{
  const char *target = nb_route_target (&run->route)->name;
  NbSettleResult res;

  if (!nb_run_settle (run, arrival, &res, cancelled, error))
    return FALSE;
  if (*cancelled)
    {
      t->outcome = NB_TRIAL_ABORTED;
      t->reason = g_strdup (NB_REASON_CANCELLED_SETTLING);
    }
  else if (run->lost != NULL && !res.settled)
    {
      t->outcome = NB_TRIAL_INCOMPLETE;
      t->reason = g_strdup_printf (NB_REASON_SETTLING_AT, target, run->lost);
    }
  else if (!res.settled)
    {
      t->outcome = NB_TRIAL_FAILED;
      t->reason = g_strdup_printf (NB_REASON_AT, target, res.reason);
    }
  else
    {
      t->outcome = NB_TRIAL_OK;
      t->attained = ev->attained = (NbPose) { res.x_m * 1000.0, res.y_m * 1000.0,
                                              nb_angle_recast_deg (res.heading_deg) };
    }
  return TRUE;
}

/* The operator's trial: the attained pose is the settled one found. */
static gboolean
run_judge_segmented (NbRun *run, guint k, const NbPose *attained, NbCampaignTrial *t,
                     NbRunnerEvent *ev, GError **error)
{
  t->attained = ev->attained = *attained;
  return TRUE;
}

static const NbClauseRunner runner = {
  .prepare = run_prepare,
  .judge = run_judge,
  .judge_segmented = run_judge_segmented,
};

/* ------------------------------------------------------------- export -- */

/* campaign export --trials 5: the command and each attained pose (5.5). */
static const char *const export_columns[] = {
  "config", "command_x_mm", "command_y_mm", "command_theta_deg", "trial", "x_mm", "y_mm",
  "theta_deg", NULL
};

static gboolean
export_trial (NbCampaign *campaign, const NbCampaignConfig *c, const NbCampaignTrial *t,
              NbClauseExportRow row, gpointer data, GError **error)
{
  const NbClauseCell cells[] = {
    { c->name, 0 }, { NULL, c->command.x_mm }, { NULL, c->command.y_mm },
    { NULL, c->command.theta_deg }, { NULL, t->number }, { NULL, t->attained.x_mm },
    { NULL, t->attained.y_mm }, { NULL, t->attained.theta_deg },
  };

  return row (cells, G_N_ELEMENTS (cells), data, error);
}

static void
config_json (NbJsonWriter *w, const NbCampaignConfig *c)
{
  nb_json_key (w, "command");
  nb_json_begin_array (w);
  nb_json_double (w, c->command.x_mm);
  nb_json_double (w, c->command.y_mm);
  nb_json_double (w, c->command.theta_deg);
  nb_json_end_array (w);
}

/* ---------------------------------------------------------- annex A.4 -- */

gboolean
nb_clause_pose_is_gnss (const char *kind)
{
  static const char *const words[] = { "gnss", "gps", "rtk", "nmea", "glonass", "глонасс" };
  g_autofree char *low = kind ? g_utf8_strdown (kind, -1) : NULL;

  for (guint i = 0; low != NULL && i < G_N_ELEMENTS (words); i++)
    if (strstr (low, words[i]) != NULL)
      return TRUE;
  return FALSE;
}

gboolean
nb_clause_pose_gnss_accepted (double linear_error_pct)
{
  return fabs (linear_error_pct) <= NB_GNSS_LINEAR_ERROR_PCT;
}

/* 4.5: a route run clockwise (the manufacturer declared it): the runner's
 * and the plan's parameters say so, an imported configuration's name may
 * ("-cw-"). */
static gboolean
clockwise (const NbCampaignConfig *c)
{
  return (c->parameters != NULL && strstr (c->parameters, "\"clockwise\": true") != NULL) ||
         (c->name != NULL && strstr (c->name, "-cw-") != NULL);
}

/* 5.4: a configuration tests a prescribed one of its route, direction and
 * load (0 kg: no load; more: the rated load). */
static gboolean
covers (const NbCampaignConfig *p, const NbCampaignConfig *c, GHashTable *labels)
{
  (void) labels;
  return g_strcmp0 (p->route, c->route) == 0 &&
         nb_clause_load_kind (c) == nb_clause_prescribed_rated (p) && clockwise (p) == clockwise (c);
}

static char *
describe (const NbCatalogue *lang, const NbCampaignConfig *p)
{
  const char *load = nb_clause_load_words (lang, p);

  if (clockwise (p))
    return g_strdup_printf (nb_tr (lang, "%s route clockwise, %s"), nb_tr (lang, p->route), load);
  return g_strdup_printf (nb_tr (lang, "%s route, %s"), nb_tr (lang, p->route), load);
}

/* compute pose: the attained poses (x_mm, y_mm, theta_deg) against the
 * command pose (5.2). */
static gboolean
compute_csv (const NbClauseCsv *in, NbClauseCsvFigures *f, GError **error)
{
  g_autoptr (GArray) poses = nb_measurements_read_poses (in->input, error);

  if (poses == NULL)
    return FALSE;
  if (!nb_metrics_pose (&in->command, (NbPose *) poses->data, poses->len, &f->pose, error) ||
      (in->setup != NULL &&
       (f->budget = nb_unc_pose (in->setup, &in->command, (NbPose *) poses->data, poses->len,
                                 in->seed, error)) == NULL))
    {
      g_prefix_error (error, "%s: ", in->input);
      return FALSE;
    }
  return TRUE;
}

static void
csv_json (NbJsonWriter *w, const NbClauseCsvFigures *f)
{
  nb_clause_json_pose (w, &f->pose);
  if (f->budget != NULL)
    nb_unc_json_budget (w, f->budget);
}

const NbClause nb_clause_pose = {
  .number = 5,
  .title = N_("Pose accuracy and pose repeatability"),
  .table = 1,
  .trials = 30,
  .trial_word = N_("trials"),
  .trials_clause = "5.4",
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .statistics_of_n = TRUE,
  .options = NB_CLAUSE_OPT_ROUTE | NB_CLAUSE_OPT_LOAD | NB_CLAUSE_OPT_TRIALS,
  .run = NB_CLAUSE_RUN_POSE,
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
  .covers = covers,
  .describe = describe,
  .compute_csv = compute_csv,
  .csv_json = csv_json,
};
