/* nb-campaign-runner.c — the standard's trials driven and recorded (see nb-campaign-runner.h) */
#include "nb-campaign-runner.h"
#include "nb-record-words.h"
#include "nb-runner-private.h"

#include "nb-angle.h"
#include "nb-clause.h"
#include "nb-error.h"
#include "nb-json-load.h"
#include "nb-registration.h"
#include "nb-route.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#define MM_PER_M 1000.0
#define DRIVES(run, member) ((run)->r->clause->runner->member != NULL)
/* decided: three failed trials in a row mean the robot does not reach its goals. */
#define MAX_FAILED_IN_A_ROW 3
/* The poses a rerun computes from LU must be the stored ones to this much. */
#define POSE_MATCH_MM 1e-6

void
nb_campaign_runner_options_init (NbCampaignRunnerOptions *o)
{
  memset (o, 0, sizeof *o);
  o->load_kg = NAN;
  nb_settle_params_init (&o->settle);
  o->settle_step_s = 0.25;
  o->passage_width_mm = NAN;
  o->goal_tolerance_mm = NAN;
  o->goal_tolerance_deg = NAN;
  o->defect_range_mm = NAN;
  o->min_range_mm = NAN;
  o->max_range_mm = NAN;
  o->loss_timeout_s = 1.0;
  o->reconnect_s = 10.0;
  nb_segmentation_params_init (&o->segment);
  o->trial_timeout_s = 600.0;
}

void
nb_runner_summary_clear (NbRunnerSummary *s)
{
  nb_config_result_clear (&s->figures);
  memset (s, 0, sizeof *s);
}


/* The clause's trials can be found in an instrument's stream. */
static gboolean
segmentable (const NbClause *clause)
{
  return clause != NULL && clause->runner != NULL && clause->runner->run_all == NULL &&
         clause->runner->judge_segmented != NULL;
}

/* "5, 7, 8 and 9": the clauses of the registry that are segmentable. */
static char *
segmentable_list (void)
{
  guint n;
  const NbClause *const *all = nb_clause_registry (&n);
  g_autoptr (GPtrArray) numbers = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    if (segmentable (all[i]))
      g_ptr_array_add (numbers, g_strdup_printf ("%u", all[i]->number));
  for (guint i = 0; i < numbers->len; i++)
    g_string_append_printf (out, "%s%s", i == 0 ? "" : i + 1 == numbers->len ? " and " : ", ",
                            (char *) g_ptr_array_index (numbers, i));
  return g_string_free (out, FALSE);
}

NbCampaignRunner *
nb_campaign_runner_new (const char *path, const NbCampaignRunnerOptions *o,
                        const NbRunnerRig *rig, GError **error)
{
  static const NbRunnerRigOps no_fixtures = { NULL };
  const NbRobotOps *robot_ops = rig->robot_ops;
  const NbRunnerRigOps *rig_ops = rig->rig_ops ? rig->rig_ops : &no_fixtures;
  NbCampaignRunner *r;
  const NbClause *clause = nb_clause_get (o->clause);
  NbRouteKind kind;

  if (clause == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause %u is not a test clause of "
                   "ISO 18646-2 (5 to 10)", o->clause);
      return NULL;
    }
  if (clause->runner == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause %u (%s) is not run automatically yet: "
                   "record its trials with campaign import", o->clause, clause->title);
      return NULL;
    }
  if (o->config == NULL || *o->config == '\0')
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "config: a configuration name is required");
      return NULL;
    }
  if (o->route != NULL && !nb_route_kind_from_string (o->route, &kind))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "route '%s': straight, rectangular or combined", o->route);
      return NULL;
    }
  if (nb_clause_takes (clause, NB_CLAUSE_OPT_STRAIGHT_ONLY) && o->route != NULL &&
      kind != NB_ROUTE_STRAIGHT)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "route '%s': clause 8 (8.3) uses the straight route", o->route);
      return NULL;
    }
  if (clause->runner->check != NULL &&
      !clause->runner->check (o, rig_ops, robot_ops == NULL, rig->prompts != NULL, error))
    return NULL;
  if (robot_ops == NULL && clause->runner->run_all == NULL && !segmentable (clause))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause %u with an operator-driven robot: "
                   "its trials cannot be found in the instrument's stream", o->clause);
      return NULL;
    }
  if (!nb_clause_takes (clause, NB_CLAUSE_OPT_ROUTE) && o->route != NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "route '%s': clause %u lays out its own "
                   "course (%s), it takes no route", o->route, o->clause, clause->layout);
      return NULL;
    }
  if ((!isnan (o->goal_tolerance_mm) &&
       !(o->goal_tolerance_mm > 0.0 && isfinite (o->goal_tolerance_mm))) ||
      (!isnan (o->goal_tolerance_deg) &&
       !(o->goal_tolerance_deg > 0.0 && isfinite (o->goal_tolerance_deg))))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "goal tolerance %g mm, %g°: both > 0",
                   o->goal_tolerance_mm, o->goal_tolerance_deg);
      return NULL;
    }
  if (!isnan (o->load_kg) && !(o->load_kg >= 0.0 && isfinite (o->load_kg)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "load %g kg: a load is ≥ 0", o->load_kg);
      return NULL;
    }
  if (!(o->settle_step_s > 0.0 && o->settle_step_s <= o->settle.timeout_s) ||
      !(o->settle.window_s > 0.0) || !(o->settle.timeout_s > 0.0) || o->settle.min_samples < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "settle: window, timeout and step must be "
                   "> 0 (step ≤ timeout), at least 2 samples");
      return NULL;
    }
  if ((robot_ops != NULL && (robot_ops->move_to_pose == NULL || robot_ops->wait == NULL ||
                             robot_ops->stop == NULL)) || rig->device == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "a robot (move to pose, stop, wait) and an instrument are needed");
      return NULL;
    }
  if (!(o->loss_timeout_s > 0.0) || !(o->reconnect_s >= 0.0) || !isfinite (o->loss_timeout_s) ||
      !isfinite (o->reconnect_s))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "instrument loss timeout %g s and "
                   "reconnection wait %g s: > 0 and ≥ 0", o->loss_timeout_s, o->reconnect_s);
      return NULL;
    }
  r = g_new0 (NbCampaignRunner, 1);
  r->path = g_strdup (path);
  r->clause = clause;
  r->o = *o;
  r->o.config = r->config = g_strdup (o->config);
  r->o.route = r->route = g_strdup (o->route);
  r->o.who = r->who = g_strdup (o->who);
  r->o.robot_name = r->robot_name = g_strdup (o->robot_name);
  r->o.obstacle = r->obstacle = g_strdup (o->obstacle);
  r->o.map_dir = r->map_dir = g_strdup (o->map_dir);
  r->robot_ops = robot_ops;
  r->operator_driven = robot_ops == NULL;
  r->prompts = rig->prompts;
  if (r->prompts == NULL)
    r->prompts = r->own_prompts = nb_prompts_new_auto ("simulation");
  r->robot = rig->robot;
  r->device = rig->device;
  r->rig_ops = rig_ops;
  r->rig = rig->rig;
  g_mutex_init (&r->unheard_lock);
  g_cond_init (&r->unheard_cond);
  return r;
}

void
nb_campaign_runner_free (NbCampaignRunner *r)
{
  if (r == NULL)
    return;
  g_free (r->path);
  g_free (r->config);
  g_free (r->route);
  g_free (r->who);
  g_free (r->robot_name);
  g_free (r->obstacle);
  g_free (r->map_dir);
  nb_prompts_free (r->own_prompts);
  nb_runner_summary_clear (&r->summary);
  g_clear_pointer (&r->context, g_main_context_unref);
  g_mutex_clear (&r->unheard_lock);
  g_cond_clear (&r->unheard_cond);
  g_free (r);
}

/* ------------------------------------------------------------- the run -- */

static void
on_sample (const NbSample *in, gpointer user_data)
{
  NbRun *run = user_data;
  NbSample s = *in;

  if (run->r->o.on_sample != NULL)
    run->r->o.on_sample (in, run->r->o.on_sample_data);
  if (s.tracking != NB_TRACKING_LOST && s.fix != NB_FIX_NONE)
    run->last_good_t = nb_device_time (run->r->device);
  if (!(run->keep || run->buffering) || !(s.t_s >= run->t_start))
    return;
  if (s.tracking == NB_TRACKING_LOST || s.fix == NB_FIX_NONE)
    {
      run->q_untracked++;
      return;
    }
  if (run->q_n++ == 0)
    run->q_t_first = s.t_s;
  run->q_t_last = s.t_s;
  run->q_fix[MIN ((guint) s.fix, (guint) NB_FIX_TRACKED)]++;
  if (isfinite (s.rms_m))
    {
      run->q_rms_sum += s.rms_m;
      run->q_rms_n++;
    }
  if (run->have_tf)
    {
      double p[3] = { s.x_m, s.y_m, s.z_m }, q[3];
      double heading = nb_sample_heading_deg (&s);

      nb_rigid_apply (&run->tf, p, q);
      s.x_m = q[0], s.y_m = q[1], s.z_m = q[2];
      /* The heading turns with the frame (the registration's yaw). */
      s.heading_deg = isfinite (heading) ? nb_angle_recast_deg (heading + run->tf_yaw_deg) : NAN;
      s.has_orientation = FALSE;
    }
  g_array_append_val (run->samples, s);
}

static NbTrackSample
track_sample (const NbSample *s)
{
  NbTrackSample t = { s->t_s, s->x_m * MM_PER_M, s->y_m * MM_PER_M, nb_sample_heading_deg (s),
                      isfinite (s->rms_m) ? (float) (s->rms_m * MM_PER_M) : NAN };

  return t;
}

/* One event of the instrument. */
static gboolean
take_event (NbRun *run, NbEvent *e, GError **error)
{
  switch (e->kind)
    {
    case NB_EVENT_SAMPLE:
      on_sample (&e->sample, run);
      break;
    case NB_EVENT_LOST:
      if (run->lost == NULL)
        run->lost = g_strdup_printf (NB_REASON_LOST, e->message ? e->message : NB_REASON_LOST_NO_DATA);
      break;
    case NB_EVENT_CONNECTED:
      g_clear_pointer (&run->lost, g_free);
      break;
    case NB_EVENT_END:
      run->ended = TRUE;
      if (run->lost == NULL)
        run->lost = g_strdup (NB_REASON_RECORDING_ENDED);
      break;
    case NB_EVENT_ERROR:
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "the instrument failed: %s",
                   e->message ? e->message : "(no reason)");
      nb_event_clear (e);
      return FALSE;
    case NB_EVENT_NOTE:
    default:
      break;
    }
  nb_event_clear (e);
  return TRUE;
}

static gboolean collect_stored (NbRun *run, GError **error);

/* Samples up to the instrument's clock now (a live one: what has arrived,
 * and those still in flight by its latency); those of the trial in flight
 * go to the store at once (committed in its ~100 ms batches). */
gboolean
nb_run_collect_now (NbRun *run, GError **error)
{
  NbCampaignRunner *r = run->r;
  NbDevice *dev = r->device;
  double now = nb_device_time (dev), newest = -INFINITY;
  double wait_until = nb_device_now () + MAX (0.2, 2.0 * nb_device_latency (dev));
  NbEvent e;

  for (;;)
    {
      double before = nb_device_time (dev);

      /* Drain what is there; a live device is then waited for briefly
       * until its samples have passed now (virtual ones never wait). */
      if (nb_device_next (dev, 0, &e))
        {
          if (e.kind == NB_EVENT_SAMPLE)
            newest = MAX (newest, e.sample.t_s);
          if (!take_event (run, &e, error))
            return FALSE;
          continue;
        }
      /* Nothing that arrived before `before` is left untaken. */
      run->drained_t = before;
      if (newest >= now || run->lost != NULL || run->ended ||
          g_cancellable_is_cancelled (run->cancellable) || nb_device_now () >= wait_until ||
          nb_device_is_virtual (dev))
        break;
      if (nb_device_next (dev, 20 * G_TIME_SPAN_MILLISECOND, &e))
        {
          if (e.kind == NB_EVENT_SAMPLE)
            newest = MAX (newest, e.sample.t_s);
          if (!take_event (run, &e, error))
            return FALSE;
        }
    }
  /* No usable sample for longer than the loss timeout is a lost
   * instrument, even while its link carries bytes (the prism lost).
   * Judged at the last drain, not now: what arrived since is not taken yet. */
  if (run->keep && run->lost == NULL &&
      run->drained_t - MAX (run->last_good_t, run->t_start) > r->o.loss_timeout_s)
    run->lost = g_strdup_printf (NB_REASON_LOST_NO_SAMPLE,
                                 run->drained_t - MAX (run->last_good_t, run->t_start));
  return collect_stored (run, error);
}

/* The trial's samples not yet handed to the store. */
static gboolean
collect_stored (NbRun *run, GError **error)
{
  if (!run->keep)
    return TRUE;
  while (run->stored < run->samples->len)
    {
      guint n = MIN (run->samples->len - run->stored, 1024);
      g_autofree NbTrackSample *t = g_new (NbTrackSample, n);

      for (guint i = 0; i < n; i++)
        t[i] = track_sample (&g_array_index (run->samples, NbSample, run->stored + i));
      if (!nb_campaign_add_samples (run->campaign, run->trial_id, t, n, error))
        return FALSE;
      run->stored += n;
    }
  return TRUE;
}

/* After a loss: waits (on the monotonic clock) up to reconnect_s for the
 * instrument to measure again; FALSE with a clear error when it does not. */
static gboolean
await_instrument (NbRun *run, GError **error)
{
  NbCampaignRunner *r = run->r;
  gint64 deadline = g_get_monotonic_time () + (gint64) (r->o.reconnect_s * G_USEC_PER_SEC);
  g_autofree char *why = g_strdup (run->lost);
  gboolean fresh = FALSE;

  while (!run->ended && !g_cancellable_is_cancelled (run->cancellable))
    {
      NbEvent e;
      gint64 left = deadline - g_get_monotonic_time ();

      if (run->lost == NULL && fresh)
        return TRUE;
      if (left <= 0 || nb_device_is_virtual (r->device))
        break;
      if (!nb_device_next (r->device, MIN (left, 100 * G_TIME_SPAN_MILLISECOND), &e))
        continue;
      if (e.kind == NB_EVENT_SAMPLE && e.sample.tracking != NB_TRACKING_LOST &&
          e.sample.fix != NB_FIX_NONE)
        {
          fresh = TRUE;
          g_clear_pointer (&run->lost, g_free);   /* measuring again */
        }
      if (!take_event (run, &e, error))
        return FALSE;
    }
  if (run->lost == NULL && fresh)
    return TRUE;
  if (g_cancellable_is_cancelled (run->cancellable))
    return TRUE;
  {
    g_autofree char *wait = run->ended ? g_strdup ("")
                                       : g_strdup_printf ("; not back within %g s", r->o.reconnect_s);

    g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s%s: the run stops (the trials recorded "
                 "are kept; the same command goes on from here)", why ? why : "instrument lost",
                 wait);
  }
  return FALSE;
}

/* The trial's sample rate and quality, as JSON for the event log. */
static char *
quality_json (const NbRun *run)
{
  NbDevice *dev = run->r->device;
  GString *j = g_string_new ("{");
  char b[3][G_ASCII_DTOSTR_BUF_SIZE];
  double span = run->q_t_last - run->q_t_first;
  gboolean first = TRUE;

  g_string_append_printf (j, "\"driver\": \"%s\", \"samples\": %" G_GUINT64_FORMAT
                          ", \"untracked\": %" G_GUINT64_FORMAT ", \"rate_hz\": %s, "
                          "\"mean_rms_mm\": %s, \"latency_s\": %s, \"fix\": {",
                          nb_device_driver (dev)->name, run->q_n, run->q_untracked,
                          run->q_n > 1 && span > 0
                          ? g_ascii_formatd (b[0], sizeof b[0], "%.3f",
                                             (double) (run->q_n - 1) / span) : "null",
                          run->q_rms_n > 0
                          ? g_ascii_formatd (b[1], sizeof b[1], "%.4f",
                                             run->q_rms_sum / (double) run->q_rms_n * MM_PER_M)
                          : "null",
                          g_ascii_formatd (b[2], sizeof b[2], "%.6g", nb_device_latency (dev)));
  for (guint i = 0; i <= NB_FIX_TRACKED; i++)
    if (run->q_fix[i] > 0)
      {
        g_string_append_printf (j, "%s\"%s\": %" G_GUINT64_FORMAT, first ? "" : ", ",
                                nb_fix_type_name ((NbFixType) i), run->q_fix[i]);
        first = FALSE;
      }
  g_string_append (j, "}}");
  return g_string_free (j, FALSE);
}

static void
quality_reset (NbRun *run)
{
  run->q_n = run->q_untracked = run->q_rms_n = 0;
  memset (run->q_fix, 0, sizeof run->q_fix);
  run->q_t_first = run->q_t_last = NAN;
  run->q_rms_sum = 0.0;
}

gboolean
nb_run_send_goal (NbRun *run, const NbRoutePose *p, GError **error)
{
  NbCampaignRunner *r = run->r;
  double half = p->theta_deg * G_PI / 360.0;
  /* The test-area frame is the motion stack's map frame. */
  const double position[3] = { p->x_mm / MM_PER_M, p->y_mm / MM_PER_M, 0.0 };
  const double orientation[4] = { 0.0, 0.0, sin (half), cos (half) };

  if (!r->robot_ops->move_to_pose (r->robot, "map", position, orientation, NULL, error))
    {
      g_prefix_error (error, "goal %s (%.1f, %.1f mm, %.2f°): ", p->name, p->x_mm, p->y_mm,
                      p->theta_deg);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------- events -- */

typedef struct {
  NbCampaignRunner *r;
  NbRunnerEvent ev;
  char *reason;
  NbConfigResult figures;
  gboolean has_figures;
  gboolean held;                /* the worker waits for it (hold_until_heard) */
} EventBox;

/* After the progress callback has returned, or when the context drops the
 * event undelivered. */
static void
event_box_free (gpointer p)
{
  EventBox *b = p;

  if (b->held)
    {
      g_mutex_lock (&b->r->unheard_lock);
      b->r->unheard--;
      g_cond_broadcast (&b->r->unheard_cond);
      g_mutex_unlock (&b->r->unheard_lock);
    }
  g_free (b->reason);
  nb_config_result_clear (&b->figures);
  g_free (b);
}

static gboolean
deliver (gpointer p)
{
  EventBox *b = p;

  b->ev.config = b->r->config;
  b->ev.reason = b->reason;
  b->ev.figures = b->has_figures ? &b->figures : NULL;
  b->r->progress (&b->ev, b->r->progress_data);
  return G_SOURCE_REMOVE;
}

/* Hands ev (and figures, taken) to the caller's main context. */
void
nb_run_post (NbRun *run, const NbRunnerEvent *ev, NbConfigResult *figures)
{
  EventBox *b;
  gboolean held;

  if (run->r->progress == NULL)
    {
      if (figures != NULL)
        nb_config_result_clear (figures);
      return;
    }
  b = g_new0 (EventBox, 1);
  b->r = run->r;
  b->ev = *ev;
  b->held = run->r->o.hold_until_heard && !run->r->operator_driven &&
            ev->kind == NB_RUNNER_EVENT_TRIAL_STARTED;
  held = b->held;
  if (held)
    {
      g_mutex_lock (&run->r->unheard_lock);
      run->r->unheard++;
      g_mutex_unlock (&run->r->unheard_lock);
    }
  b->reason = g_strdup (ev->reason);
  if (figures != NULL)
    {
      b->figures = *figures;
      b->has_figures = TRUE;
      memset (figures, 0, sizeof *figures);
    }
  /* An idle source, not g_main_context_invoke: that runs deliver in this
   * worker thread whenever no thread owns the caller's context (its thread
   * busy outside the main loop), and the progress callback of a GUI touches
   * widgets. */
  {
    GSource *source = g_idle_source_new ();

    g_source_set_priority (source, G_PRIORITY_DEFAULT);
    g_source_set_callback (source, deliver, b, event_box_free);
    g_source_set_static_name (source, "nb-campaign-runner progress");
    g_source_attach (source, run->r->context);
    g_source_unref (source);
  }
  /* b is the context's now (delivered and freed on its thread, maybe
   * already): only the count is read, never b. */
  if (held)
    {
      NbCampaignRunner *r = run->r;

      g_mutex_lock (&r->unheard_lock);
      while (r->unheard > 0 && !g_cancellable_is_cancelled (run->cancellable))
        g_cond_wait_until (&r->unheard_cond, &r->unheard_lock,
                           g_get_monotonic_time () + 10 * G_TIME_SPAN_MILLISECOND);
      g_mutex_unlock (&r->unheard_lock);
    }
}

/* ------------------------------------------------------- configuration -- */

gboolean
nb_run_same_mm (double a, double b)
{
  return fabs (a - b) <= POSE_MATCH_MM;
}

gboolean
nb_run_find_config (NbRun *run, NbCampaignConfig *config, gboolean *found, GError **error)
{
  g_autoptr (GError) local = NULL;

  *found = nb_campaign_find_config (run->campaign, run->r->clause->number, run->r->o.config,
                                    config, &local);
  if (*found || g_error_matches (local, NB_ERROR, NB_ERROR_NOT_FOUND))
    return TRUE;
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

gboolean
nb_run_refuse_relaid (NbRun *run, double lu, GError **error)
{
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause %u configuration '%s' was "
               "laid out for another LU than %.0f mm (robot.width_mm changed?): run "
               "under another name", run->r->path, run->r->clause->number, run->r->o.config, lu);
  return FALSE;
}

gboolean
nb_run_route_config (NbRun *run, gboolean *found, double *lu_mm, GError **error)
{
  NbCampaignRunner *r = run->r;
  const NbCampaignRunnerOptions *o = &r->o;
  const char *path = r->path;
  NbRouteKind kind = NB_ROUTE_STRAIGHT;
  double lu;

  if (!nb_campaign_get_lu_mm (run->campaign, &lu, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: robot.width_mm is not set, so there "
                     "is no LU (ISO 18646-2 4.5) to lay out the route: campaign set --db %s "
                     "robot.width_mm=W", path, path);
      else
        g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  *lu_mm = lu;
  if (!nb_run_find_config (run, &run->config, found, error))
    return FALSE;
  if (o->route != NULL)
    nb_route_kind_from_string (o->route, &kind);
  else if (*found && run->config.route != NULL &&
           !nb_route_kind_from_string (run->config.route, &kind))
    kind = (NbRouteKind) -1;
  if (*found)
    {
      if (run->config.route == NULL || (int) kind < 0 ||
          (o->route != NULL && !g_str_equal (o->route, run->config.route)))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause %u configuration '%s' has "
                       "route %s, not %s: run under another name", path, o->clause, o->config,
                       run->config.route ? run->config.route : "(none: imported)",
                       o->route ? o->route : "a route the runner knows");
          return FALSE;
        }
      if (!isnan (o->load_kg) && !(run->config.load_kg == o->load_kg))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause %u configuration '%s' has "
                       "load %g kg, not %g kg: run under another name", path, o->clause,
                       o->config, run->config.load_kg, o->load_kg);
          return FALSE;
        }
    }
  /* 4.5: the legs and the sense the configuration was laid out with — the
   * stored one's, else the prescribed one's of that name (the
   * manufacturer's declaration, nb_clause_env_from_campaign), else 5 LU
   * counter-clockwise. */
  {
    g_autofree char *prescribed = NULL;
    const char *params = *found ? run->config.parameters : NULL;
    double v;

    if (!*found)
      {
        NbClauseEnv env;
        g_autoptr (GArray) all = NULL;

        if (!nb_clause_env_from_campaign (run->campaign, &env, error))
          return FALSE;
        all = g_array_new (FALSE, FALSE, sizeof (NbCampaignConfig));
        g_array_set_clear_func (all, (GDestroyNotify) nb_campaign_config_clear);
        if (r->clause->configurations != NULL && r->clause->configurations (&env, all, NULL))
          for (guint i = 0; i < all->len; i++)
            {
              const NbCampaignConfig *p = &g_array_index (all, NbCampaignConfig, i);

              /* The prescribed configuration of that name: its route too
               * when none is given. */
              if (g_strcmp0 (p->name, o->config) != 0 ||
                  (o->route != NULL && g_strcmp0 (p->route, o->route) != 0))
                continue;
              if (o->route == NULL && p->route != NULL)
                nb_route_kind_from_string (p->route, &kind);
              prescribed = g_strdup (p->parameters);
            }
        params = prescribed;
      }
    run->leg1_lu = run->leg2_lu = NB_ROUTE_DEFAULT_LEG_LU;
    run->clockwise = FALSE;
    if ((v = nb_run_param_number (params, "leg_lu")) > 0.0)
      run->leg1_lu = run->leg2_lu = v;
    if ((v = nb_run_param_number (params, "leg2_lu")) > 0.0)
      run->leg2_lu = v;
    run->clockwise = params != NULL && strstr (params, "\"clockwise\": true") != NULL;
  }
  if (!nb_route_make (kind, run->leg1_lu * lu, run->leg2_lu * lu, run->clockwise, &run->route,
                      error))
    return FALSE;
  if (*found)
    return TRUE;
  run->config.clause = o->clause;
  run->config.name = g_strdup (o->config);
  run->config.route = g_strdup (nb_route_kind_to_string (kind));
  run->config.load_kg = isnan (o->load_kg) ? 0.0 : o->load_kg;
  run->config.parameters = g_strdup_printf ("{\"lu_mm\": %.17g, \"leg_lu\": %.17g, "
                                            "\"leg2_lu\": %.17g, \"clockwise\": %s, "
                                            "\"runner\": true}", lu, run->leg1_lu, run->leg2_lu,
                                            run->clockwise ? "true" : "false");
  return TRUE;
}

gboolean
nb_run_count_trials (NbRun *run, GError **error)
{
  const NbClause *clause = run->r->clause;
  g_autoptr (GArray) trials = nb_campaign_list_trials (run->campaign, run->config.id, error);
  guint counted = 0;

  if (trials == NULL)
    return FALSE;
  g_array_set_clear_func (trials, (GDestroyNotify) nb_campaign_trial_clear);
  for (guint i = 0; i < trials->len; i++)
    counted += nb_campaign_trial_counts (clause->number,
                                         &g_array_index (trials, NbCampaignTrial, i));
  if (run->r->o.trials > 0)
    run->n_trials = run->r->o.trials;
  else if (counted >= clause->trials)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause %u configuration '%s' already "
                   "has %u counted trials (ISO 18646-2 %s asks for %u); ask for more trials "
                   "explicitly", run->r->path, clause->number, run->r->o.config, counted,
                   clause->trials_clause, clause->trials);
      return FALSE;
    }
  else
    run->n_trials = clause->trials - counted;
  return TRUE;
}

gboolean
nb_run_figures (NbRun *run, NbConfigResult *figures, GError **error)
{
  memset (figures, 0, sizeof *figures);
  return nb_config_result_compute_figures (run->campaign, &run->config, figures, error);
}

static gboolean
json_number (JsonNode *node, double *out)
{
  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return FALSE;
  if (json_node_get_value_type (node) != G_TYPE_DOUBLE &&
      json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *out = json_node_get_double (node);
  return isfinite (*out);
}

double
nb_run_param_number (const char *parameters, const char *key)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root;
  double v;

  if (parameters == NULL || !nb_json_load (parser, NULL, parameters, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      !json_number (json_object_get_member (json_node_get_object (root), key), &v))
    return NAN;
  return v;
}

gboolean
nb_run_get_width (NbRun *run, GError **error)
{
  const char *path = run->r->path;
  g_autoptr (GError) local = NULL;
  g_autofree char *text = nb_campaign_get_field (run->campaign, "robot.width_mm", &local);

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  run->width_mm = text != NULL ? g_ascii_strtod (text, NULL) : NAN;
  if (!(run->width_mm > 0.0 && isfinite (run->width_mm)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: robot.width_mm is not set, so there "
                   "is no LU (ISO 18646-2 4.5) nor robot footprint to lay out the course: "
                   "campaign set --db %s robot.width_mm=W", path, path);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------- trials -- */

typedef enum { TRIAL_DONE, TRIAL_CANCELLED, TRIAL_STREAM_ENDED } TrialEnd;

/* Waits on the robot's clock for the settled window after arrival (5.2):
 * TRUE with *settled set, or with reason when it never came. */
gboolean
nb_run_settle (NbRun *run, double arrival, NbSettleResult *res, gboolean *cancelled, GError **error)
{
  NbCampaignRunner *r = run->r;
  const NbSettleParams *p = &r->o.settle;

  for (;;)
    {
      double now = nb_device_time (r->device);

      if (g_cancellable_is_cancelled (run->cancellable))
        {
          *cancelled = TRUE;
          return TRUE;
        }
      if (!nb_settle_find ((const NbSample *) run->samples->data, run->samples->len, arrival, p,
                           res, error))
        return FALSE;
      if (run->lost != NULL && !res->settled)
        return TRUE;              /* the trial ends incomplete */
      /* A window may start up to timeout_s after arrival and lasts window_s:
       * only then is "not settled" the verdict. */
      if (res->settled || now >= arrival + p->timeout_s + p->window_s)
        return TRUE;
      r->robot_ops->wait (r->robot, r->o.settle_step_s);
      if (!nb_run_collect_now (run, error))
        return FALSE;
    }
}

void
nb_run_event_init (NbRun *run, NbRunnerEvent *ev, NbRunnerEventKind kind, guint k)
{
  memset (ev, 0, sizeof *ev);
  ev->kind = kind;
  ev->clause = run->r->clause->number;
  ev->trial = k;
  ev->n_trials = run->n_trials;
  ev->outcome = NB_TRIAL_RUNNING;
  ev->command = ev->attained = (NbPose) { NAN, NAN, NAN };
  ev->d_mm = ev->time_s = ev->clearance_mm = ev->angle_deg = ev->true_mm = NAN;
  ev->measured_mm = ev->dm_mm = NAN;
}

/* The trial begun in the store: what it stores besides (the clause's). */
static void
trial_begun (NbRun *run, NbCampaignTrial *t)
{
  t->number = t->seq;
  /* What import stores: the kind, numbered within it (the clause's). */
  if (run->trial_kind != NULL)
    t->kind = g_strdup (run->trial_kind);
  if (DRIVES (run, begun))
    run->r->clause->runner->begun (run, t);
}

/* The trial as stored: the quality in the log, the figures and the event. */
static gboolean
trial_recorded (NbRun *run, NbCampaignTrial *t, NbRunnerEvent *ev, GError **error)
{
  NbCampaignRunner *r = run->r;
  NbConfigResult figures;

  /* 5.3, 8.2: the measurement system's rate and quality, with the trial. */
  {
    g_autofree char *subject = g_strdup_printf ("clause %u, config '%s', trial %u",
                                                r->clause->number, r->o.config, t->seq);
    g_autofree char *quality = quality_json (run);

    if (!nb_campaign_log (run->campaign, NB_EVENT_TRIAL_MEASURED, subject, NULL, quality, error))
      return FALSE;
  }
  if (!nb_run_figures (run, &figures, error))
    {
      nb_config_result_clear (&figures);
      return FALSE;
    }
  ev->kind = NB_RUNNER_EVENT_TRIAL_ENDED;
  ev->t_s = t->end_time;
  ev->outcome = t->outcome;
  ev->reason = t->reason;
  ev->number = t->number;
  ev->n_samples = run->stored;
  if (DRIVES (run, ended))
    r->clause->runner->ended (run, t, ev);
  nb_run_post (run, ev, &figures);
  return TRUE;
}

/* One trial, begun, driven, measured and ended in the store; FALSE only
 * when the run cannot go on (the store or the instrument failed, or the
 * return to P0 failed). */
static gboolean
run_trial (NbRun *run, guint k, NbTrialOutcome *outcome, TrialEnd *end, GError **error)
{
  NbCampaignRunner *r = run->r;
  g_autoptr (GError) goal_error = NULL;
  NbCampaignTrial t;
  NbRunnerEvent ev;
  double arrival = NAN;
  gboolean cancelled = FALSE, ok;

  *end = TRIAL_DONE;
  /* decided: every trial starts at P0; the way there is not measured. */
  run->keep = FALSE;
  if (g_cancellable_is_cancelled (run->cancellable))
    {
      *end = TRIAL_CANCELLED;
      return TRUE;
    }
  if (!nb_run_send_goal (run, &run->route.poses[0], error))
    {
      r->robot_ops->stop (r->robot);
      g_prefix_error (error, "returning to P0 before trial %u: ", k);
      return FALSE;
    }
  if (!nb_run_collect_now (run, error))
    return FALSE;
  if (run->lost != NULL && !await_instrument (run, error))
    return FALSE;
  if (g_cancellable_is_cancelled (run->cancellable))
    {
      *end = TRIAL_CANCELLED;
      return TRUE;
    }

  quality_reset (run);
  g_array_set_size (run->samples, 0);
  run->stored = 0;
  run->t_start = nb_device_time (r->device);
  run->clearance_mm = NAN;
  /* 7.3 b): the obstacle is released as the robot gets its goal. */
  if (run->has_course && r->rig_ops->set_course != NULL)
    r->rig_ops->set_course (r->rig, &run->course, run->t_start);
  nb_campaign_trial_init (&t);
  t.start_time = run->t_start;
  t.command = run->config.command;      /* clause 5's; NaN for the others */
  if (!nb_campaign_begin_trial (run->campaign, run->config.id, &t, error))
    {
      nb_campaign_trial_clear (&t);
      return FALSE;
    }
  run->trial_id = t.id;
  run->keep = TRUE;
  trial_begun (run, &t);
  nb_run_event_init (run, &ev, NB_RUNNER_EVENT_TRIAL_STARTED, k);
  ev.trial_id = t.id;
  ev.seq = t.seq;
  ev.t_s = run->t_start;
  ev.command = t.command;
  ev.trial_kind = run->trial_kind;
  ev.number = t.number;
  nb_run_post (run, &ev, NULL);

  ok = TRUE;
  for (guint i = 1; i < run->route.n_poses && ok; i++)
    {
      if (g_cancellable_is_cancelled (run->cancellable))
        {
          cancelled = TRUE;
          break;
        }
      if (!nb_run_send_goal (run, &run->route.poses[i], &goal_error))
        ok = FALSE;
      if (!nb_run_collect_now (run, error))
        goto store_failed;
    }
  /* A goal that ended (or failed: an interrupted goal does) after the
   * cancellation is the operator's abort, not the robot's failure. */
  if (!cancelled && g_cancellable_is_cancelled (run->cancellable))
    cancelled = TRUE;
  if (ok && !cancelled)
    arrival = nb_device_time (r->device);

  if (cancelled)
    {
      t.outcome = NB_TRIAL_ABORTED;
      t.reason = g_strdup (NB_REASON_CANCELLED);
      r->robot_ops->stop (r->robot);
    }
  else if (run->lost != NULL)
    {
      /* Never a measured result: the trial is incomplete, with the reason. */
      t.outcome = NB_TRIAL_INCOMPLETE;
      t.reason = g_strdup (run->lost);
      r->robot_ops->stop (r->robot);
    }
  else if (!ok)
    {
      t.outcome = NB_TRIAL_FAILED;
      t.reason = g_strdup (goal_error->message);
      r->robot_ops->stop (r->robot);
    }
  else if (DRIVES (run, judge))
    {
      if (!r->clause->runner->judge (run, arrival, &t, &ev, &cancelled, error))
        goto store_failed;
      if (cancelled)
        r->robot_ops->stop (r->robot);
    }
  else
    t.outcome = NB_TRIAL_OK;

  t.end_time = nb_device_time (r->device);
  t.time_s = isnan (arrival) ? NAN : arrival - run->t_start;
  if (!nb_campaign_end_trial (run->campaign, &t, error))
    goto store_failed;
  run->keep = FALSE;
  *outcome = t.outcome;
  *end = cancelled ? TRIAL_CANCELLED : TRIAL_DONE;
  if (!trial_recorded (run, &t, &ev, error))
    {
      nb_campaign_trial_clear (&t);
      return FALSE;
    }
  nb_campaign_trial_clear (&t);
  return TRUE;

store_failed:
  /* The trial stays `running` in the file: the next open marks it incomplete. */
  run->keep = FALSE;
  r->robot_ops->stop (r->robot);
  nb_campaign_trial_clear (&t);
  return FALSE;
}

/* ------------------------------------------------ the operator's robot -- */

/* Asks through the rig's prompts, logged in the campaign. */
gboolean
nb_run_ask (NbRun *run, NbPromptKind kind, const char *question, const char *proposal, char **answer,
     GError **error)
{
  return nb_prompts_ask_logged (run->r->prompts, run->campaign, kind, question, proposal,
                                answer, error);
}

const NbCatalogue *
nb_run_words (NbRun *run)
{
  return nb_prompts_get_words (run->r->prompts);
}

gboolean
nb_run_ask_shown (NbRun *run, NbPromptKind kind, const char *question, const char *shown,
                  const char *proposal, char **answer, GError **error)
{
  return nb_prompts_ask_logged_shown (run->r->prompts, run->campaign, kind, question, shown,
                                      proposal, answer, error);
}

gboolean
nb_run_ask_tr (NbRun *run, NbPromptKind kind, const char *proposal, char **answer,
               GError **error, const char *format, ...)
{
  const NbCatalogue *words = nb_prompts_get_words (run->r->prompts);
  g_autofree char *question = NULL, *shown = NULL;
  va_list ap;

  va_start (ap, format);
  question = g_strdup_vprintf (format, ap);
  va_end (ap);
  va_start (ap, format);
  shown = g_strdup_vprintf (nb_tr (words, format), ap);
  va_end (ap);
  return nb_prompts_ask_logged_shown (run->r->prompts, run->campaign, kind, question, shown,
                                      proposal, answer, error);
}

/* Waits for the instrument's next events (up to 100 ms) and takes them. */
static gboolean
collect_wait (NbRun *run, GError **error)
{
  NbEvent e;

  if (nb_device_next (run->r->device, 100 * G_TIME_SPAN_MILLISECOND, &e) &&
      !take_event (run, &e, error))
    return FALSE;
  return nb_run_collect_now (run, error);
}

/* The operator's prompt before each trial (a msgid: the window shows it in
 * its language). */
#define P0_PROMPT N_("Trial %u/%u of clause %u '%s': bring the robot to %s (%.0f, %.0f mm, " \
                     "%.1f°) and let it stand still, then start its route to %s (%.0f, " \
                     "%.0f mm, %.1f°)%s%s; answer yes when it is at %s")

/* The operator's trial: the prompt, then the trial found in the stream —
 * it starts when the robot leaves P0 after resting there, ends when it has
 * settled at the target (nb-segmentation.h).  The samples from its start to the
 * end of the settled window are the trial's. */
static gboolean
run_operator_trial (NbRun *run, guint k, NbTrialOutcome *outcome, TrialEnd *end, GError **error)
{
  NbCampaignRunner *r = run->r;
  const NbRoutePose *p0 = &run->route.poses[0], *target = nb_route_target (&run->route);
  NbSegmentationParams sp = r->o.segment;
  g_autofree char *question = NULL, *shown_question = NULL;
  NbCampaignTrial t;
  NbRunnerEvent ev;
  NbSegmentation seg;
  double asked;
  gboolean begun = FALSE, cancelled = FALSE;

  *end = TRIAL_DONE;
  memset (&seg, 0, sizeof seg);
  /* The log's question in English, the operator's in the prompts' words
   * (the note too: the clause module marks it for translation). */
  for (guint shown = 0; shown < 2 && !r->o.import_track; shown++)
    {
      const NbCatalogue *words = shown ? nb_prompts_get_words (r->prompts) : NULL;
      char *q = g_strdup_printf (nb_tr (words, P0_PROMPT), k, run->n_trials, r->clause->number,
                                 r->o.config, p0->name, p0->x_mm, p0->y_mm, p0->theta_deg,
                                 target->name, target->x_mm, target->y_mm, target->theta_deg,
                                 run->trial_note ? " " : "",
                                 run->trial_note ? nb_tr (words, run->trial_note) : "", p0->name);

      if (shown)
        shown_question = q;
      else
        question = q;
    }
  if (!r->o.import_track &&
      !nb_prompts_ask_logged_shown (r->prompts, run->campaign, NB_PROMPT_CONFIRM, question,
                                    shown_question, NULL, NULL, error))
    return FALSE;

  sp.p0_m[0] = p0->x_mm / MM_PER_M;
  sp.p0_m[1] = p0->y_mm / MM_PER_M;
  sp.target_m[0] = target->x_mm / MM_PER_M;
  sp.target_m[1] = target->y_mm / MM_PER_M;
  /* The buffer goes on from the last trial's end (the rectangle ends on
   * P0: its rest there may be the next trial's start). */
  run->buffering = TRUE;
  run->t_start = -INFINITY;
  quality_reset (run);
  asked = nb_device_time (r->device);
  nb_campaign_trial_init (&t);
  for (;;)
    {
      if (!collect_wait (run, error))
        goto failed;
      if (g_cancellable_is_cancelled (run->cancellable))
        {
          cancelled = TRUE;
          break;
        }
      if (!nb_segmentation_find ((const NbSample *) run->samples->data, run->samples->len, 0, &sp,
                            &seg, error))
        goto failed;
      if (!begun && seg.state >= NB_SEGMENTATION_MOVING)
        {
          t.start_time = seg.t_start;
          t.command = run->config.command;    /* clause 5's; NaN for the others */
          if (!nb_campaign_begin_trial (run->campaign, run->config.id, &t, error))
            goto failed;
          begun = TRUE;
          run->trial_id = t.id;
          nb_run_event_init (run, &ev, NB_RUNNER_EVENT_TRIAL_STARTED, k);
          ev.trial_id = t.id;
          ev.seq = t.seq;
          ev.t_s = t.start_time;
          ev.command = t.command;
          ev.trial_kind = run->trial_kind;
          nb_run_post (run, &ev, NULL);
        }
      if (seg.state == NB_SEGMENTATION_ARRIVED)
        break;
      /* At the last drain (collect_wait's): the store's writes and the
       * segmentation since then may take longer than the timeout on a
       * loaded machine while the samples wait in the queue. */
      if (run->lost == NULL && run->drained_t - MAX (run->last_good_t, asked)
                               > r->o.loss_timeout_s)
        run->lost = g_strdup_printf (NB_REASON_LOST_NO_SAMPLE,
                                     run->drained_t - MAX (run->last_good_t, asked));
      if (run->lost != NULL)
        {
          if (begun || run->ended)
            break;
          if (!await_instrument (run, error))
            goto failed;
          g_array_set_size (run->samples, 0);
          continue;
        }
      if (nb_device_time (r->device) - asked > r->o.trial_timeout_s)
        break;
    }
  run->buffering = FALSE;
  if (!begun && run->ended && r->o.import_track)
    {
      *end = TRIAL_STREAM_ENDED;  /* the recording holds no more trials */
      nb_campaign_trial_clear (&t);
      return TRUE;
    }
  if (!begun && cancelled)
    {
      *end = TRIAL_CANCELLED;
      nb_campaign_trial_clear (&t);
      return TRUE;
    }
  if (!begun)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "trial %u: the robot did not %s within "
                   "%g s of the prompt: the run stops", k,
                   seg.state == NB_SEGMENTATION_WAITING ? "rest at P0" : "leave P0",
                   r->o.trial_timeout_s);
      nb_campaign_trial_clear (&t);
      return FALSE;
    }
  trial_begun (run, &t);
  run->clearance_mm = NAN;
  if (seg.state == NB_SEGMENTATION_ARRIVED)
    {
      /* The trial's samples only; what came after is the next one's. */
      guint from = seg.i_start, to = seg.i_end;
      g_autoptr (GArray) tail = g_array_new (FALSE, FALSE, sizeof (NbSample));

      g_array_append_vals (tail, &g_array_index (run->samples, NbSample, to),
                           run->samples->len - to);
      g_array_remove_range (run->samples, to, run->samples->len - to);
      g_array_remove_range (run->samples, 0, from);
      run->carry = g_steal_pointer (&tail);
      run->t_start = seg.t_start;
      t.time_s = seg.t_arrival - seg.t_start;
      t.end_time = seg.attained.t_end;
      t.outcome = NB_TRIAL_OK;
      {
        NbPose attained = { seg.attained.x_m * MM_PER_M, seg.attained.y_m * MM_PER_M,
                            nb_angle_recast_deg (seg.attained.heading_deg) };

        if (!r->clause->runner->judge_segmented (run, k, &attained, &t, &ev, error))
          goto failed;
      }
    }
  else
    {
      /* Started, never arrived: cancelled, instrument lost, or too long. */
      t.outcome = cancelled ? NB_TRIAL_ABORTED : run->lost ? NB_TRIAL_INCOMPLETE : NB_TRIAL_FAILED;
      t.reason = g_strdup (cancelled ? NB_REASON_CANCELLED
                         : run->lost ? run->lost
                         : NB_REASON_TIMEOUT);
      t.end_time = nb_device_time (r->device);
      g_array_remove_range (run->samples, 0, MIN (seg.i_start, run->samples->len));
    }
  /* The trial's rate and quality over its own samples. */
  quality_reset (run);
  for (guint i = 0; i < run->samples->len; i++)
    {
      const NbSample *s = &g_array_index (run->samples, NbSample, i);

      if (run->q_n++ == 0)
        run->q_t_first = s->t_s;
      run->q_t_last = s->t_s;
      run->q_fix[MIN ((guint) s->fix, (guint) NB_FIX_TRACKED)]++;
      if (isfinite (s->rms_m))
        run->q_rms_sum += s->rms_m, run->q_rms_n++;
    }
  run->keep = TRUE;
  run->stored = 0;
  if (!collect_stored (run, error))
    goto failed;
  run->keep = FALSE;
  if (!nb_campaign_end_trial (run->campaign, &t, error))
    goto failed;
  *outcome = t.outcome;
  *end = cancelled ? TRIAL_CANCELLED : TRIAL_DONE;
  if (!trial_recorded (run, &t, &ev, error))
    goto failed;
  nb_campaign_trial_clear (&t);
  g_array_set_size (run->samples, 0);
  if (run->carry != NULL)
    {
      g_array_append_vals (run->samples, run->carry->data, run->carry->len);
      g_clear_pointer (&run->carry, g_array_unref);
    }
  return TRUE;

failed:
  run->buffering = run->keep = FALSE;
  nb_campaign_trial_clear (&t);
  return FALSE;
}

static void
run_free (NbRun *run)
{
  nb_goal_tolerance_clear (&run->tol);
  nb_campaign_config_clear (&run->config);
  g_clear_pointer (&run->samples, g_array_unref);
  g_clear_pointer (&run->lost, g_free);
  g_clear_pointer (&run->carry, g_array_unref);
  if (run->state_free != NULL)
    g_clear_pointer (&run->state, run->state_free);
  nb_campaign_free (run->campaign);
}

static gboolean
run_all (NbRun *run, GError **error)
{
  NbCampaignRunner *r = run->r;
  NbRunnerSummary *sum = &r->summary;
  g_autofree char *subject = NULL, *start = NULL;
  g_autofree char *end = NULL;
  g_autoptr (GError) local = NULL;
  guint failed_in_a_row = 0;
  gboolean cancelled = FALSE, ok = TRUE;

  if ((run->campaign = nb_campaign_open (r->path, 0, error)) == NULL)
    return FALSE;
  if (r->who != NULL)
    nb_campaign_set_who (run->campaign, r->who);
  if (!nb_registration_load (run->campaign, &run->tf, &run->have_tf, error))
    return FALSE;
  if (run->have_tf)
    run->tf_yaw_deg = nb_rigid_yaw_deg (&run->tf);
  subject = g_strdup_printf ("clause %u, config '%s'", r->clause->number, r->o.config);
  if (DRIVES (run, run_all))
    {
      if (!nb_campaign_log (run->campaign, NB_EVENT_RUN_STARTED, subject, NULL,
                            r->robot_name ? r->robot_name : "(unnamed)", error))
        return FALSE;
      ok = r->clause->runner->run_all (run, &cancelled, &local);
      goto finish;
    }
  if (!r->clause->runner->prepare (run, error))
    return FALSE;
  if (r->rig_ops->set_load != NULL)
    r->rig_ops->set_load (r->rig, run->config.load_kg);

  start = g_strdup_printf ("%u trials; robot %s; route %s; load %g kg; instrument %s%s%s, "
                           "latency %g s; frame %s", run->n_trials,
                           r->robot_name ? r->robot_name : "(unnamed)",
                           run->config.route ? run->config.route : "course P0 → PG",
                           run->config.load_kg, nb_device_driver (r->device)->name,
                           nb_device_url (r->device) ? " at " : "",
                           nb_device_url (r->device) ? nb_device_url (r->device) : "",
                           nb_device_latency (r->device),
                           run->have_tf ? "instrument.registration_transform" : "instrument's own");
  if (!nb_campaign_log (run->campaign, NB_EVENT_RUN_STARTED, subject, NULL, start, error))
    return FALSE;

  for (guint k = 1; k <= run->n_trials && ok && !cancelled; k++)
    {
      NbTrialOutcome outcome = NB_TRIAL_RUNNING;
      TrialEnd how;
      gboolean judged = FALSE;

      if (DRIVES (run, next_trial) && !r->clause->runner->next_trial (run, &local))
        {
          ok = FALSE;
          break;
        }
      if (!(r->operator_driven ? run_operator_trial : run_trial) (run, k, &outcome, &how, &local))
        {
          ok = FALSE;
          break;
        }
      /* 7, 9: a failed trial is a result (the clause says). */
      if (DRIVES (run, recorded) && outcome != NB_TRIAL_RUNNING)
        judged = r->clause->runner->recorded (run, outcome);
      if (how == TRIAL_STREAM_ENDED)
        break;
      if (how == TRIAL_CANCELLED && outcome == NB_TRIAL_RUNNING)
        {
          cancelled = TRUE;         /* between trials: nothing in flight */
          break;
        }
      sum->run++;
      sum->ok += outcome == NB_TRIAL_OK;
      sum->failed += outcome == NB_TRIAL_FAILED;
      sum->aborted += outcome == NB_TRIAL_ABORTED;
      sum->incomplete += outcome == NB_TRIAL_INCOMPLETE;
      cancelled = how == TRIAL_CANCELLED;
      /* An incomplete trial is not a result: it is run again once the
       * instrument measures (or the run stops, said so). */
      if (outcome == NB_TRIAL_INCOMPLETE)
        {
          run->n_trials++;
          if (r->o.import_track && run->ended)
            break;
          if (!cancelled && !await_instrument (run, &local))
            {
              ok = FALSE;
              break;
            }
          continue;
        }
      failed_in_a_row = outcome == NB_TRIAL_FAILED && !judged ? failed_in_a_row + 1 : 0;
      if (failed_in_a_row >= MAX_FAILED_IN_A_ROW)
        {
          g_set_error (&local, NB_ERROR, NB_ERROR_FAILED, "%u trials in a row failed: the robot "
                       "does not reach its goals; the run stops (the trials are kept)",
                       failed_in_a_row);
          ok = FALSE;
        }
    }
finish:
  if (cancelled && local == NULL)
    g_set_error (&local, G_IO_ERROR, G_IO_ERROR_CANCELLED, "the run was cancelled after %u "
                 "trial(s); the trial in flight is recorded as aborted", sum->run);
  /* The figures and the log even after a failure: what was run is kept. */
  {
    g_autoptr (GError) late = NULL;

    end = g_strdup_printf ("%u run: %u ok, %u failed, %u aborted, %u incomplete%s%s", sum->run,
                           sum->ok, sum->failed, sum->aborted, sum->incomplete, local ? "; " : "",
                           local ? local->message : "");
    if (!nb_config_result_compute (run->campaign, &run->config, &sum->figures, &late) ||
        !nb_campaign_log (run->campaign, NB_EVENT_RUN_ENDED, subject, NULL, end, &late) ||
        !nb_campaign_close (g_steal_pointer (&run->campaign), &late))
      {
        if (local == NULL)
          local = g_steal_pointer (&late);
      }
  }
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

/* The operator's Stop reaches a goal that blocks the worker at once. */
static void
on_cancelled (GCancellable *cancellable, gpointer data)
{
  NbCampaignRunner *r = data;

  r->robot_ops->interrupt (r->robot);
}

static void
worker (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  NbCampaignRunner *r = task_data;
  GError *error = NULL;
  gulong handler = 0;
  NbRun run;

  if (cancellable != NULL && r->robot_ops != NULL && r->robot_ops->interrupt != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), r, NULL);

  memset (&run, 0, sizeof run);
  run.r = r;
  run.cancellable = cancellable;
  run.samples = g_array_new (FALSE, FALSE, sizeof (NbSample));
  nb_campaign_config_init (&run.config);
  nb_goal_tolerance_init (&run.tol);
  if (run_all (&run, &error))
    {
      g_cancellable_disconnect (cancellable, handler);
      run_free (&run);
      g_task_return_boolean (task, TRUE);
    }
  else
    {
      g_cancellable_disconnect (cancellable, handler);
      run_free (&run);
      g_task_return_error (task, error);
    }
}

void
nb_campaign_runner_run_async (NbCampaignRunner *r, GCancellable *cancellable,
                              NbRunnerProgressFunc progress, gpointer progress_data,
                              GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, nb_campaign_runner_run_async);
  if (r->busy)
    {
      g_task_return_new_error (task, NB_ERROR, NB_ERROR_INPUT, "the runner is already running");
      return;
    }
  r->busy = TRUE;
  nb_runner_summary_clear (&r->summary);
  g_clear_pointer (&r->context, g_main_context_unref);
  r->context = g_main_context_ref_thread_default ();
  r->progress = progress;
  r->progress_data = progress_data;
  /* The cancellation is the runner's to record (the trial in flight is
   * aborted, not dropped): the task must not short-cut it. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, r, NULL);
  g_task_run_in_thread (task, worker);
}

gboolean
nb_campaign_runner_run_finish (NbCampaignRunner *r, GAsyncResult *result,
                               NbRunnerSummary *summary, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  /* Only the task that ran frees the runner for another run (not the one
   * refused because it was busy). */
  if (g_task_get_task_data (G_TASK (result)) == r)
    r->busy = FALSE;
  if (summary != NULL)
    {
      *summary = r->summary;
      memset (&r->summary, 0, sizeof r->summary);
    }
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------ sync run -- */

typedef struct {
  GMainLoop *loop;
  NbCampaignRunner *runner;
  NbRunnerSummary *summary;
  gboolean ok;
  GError *error;
} SyncRun;

static void
sync_done (GObject *source, GAsyncResult *result, gpointer data)
{
  SyncRun *s = data;
  NbRunnerSummary sum;

  s->ok = nb_campaign_runner_run_finish (s->runner, result, &sum, &s->error);
  if (s->summary != NULL)
    *s->summary = sum;
  else
    nb_runner_summary_clear (&sum);
  g_main_loop_quit (s->loop);
}

gboolean
nb_campaign_runner_run_sync (NbCampaignRunner *r, GCancellable *cancellable,
                             NbRunnerProgressFunc progress, gpointer progress_data,
                             NbRunnerSummary *summary, GError **error)
{
  g_autoptr (GMainContext) context = g_main_context_new ();
  SyncRun s = { NULL, r, summary, FALSE, NULL };

  g_main_context_push_thread_default (context);
  s.loop = g_main_loop_new (context, FALSE);
  nb_campaign_runner_run_async (r, cancellable, progress, progress_data, sync_done, &s);
  g_main_loop_run (s.loop);
  g_main_loop_unref (s.loop);
  g_main_context_pop_thread_default (context);
  if (!s.ok)
    {
      g_propagate_error (error, s.error);
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_campaign_import_track (const char *path, const NbCampaignRunnerOptions *options,
                          const char *track_path, NbRunnerSummary *summary, GError **error)
{
  static const char *const settings[] = { "t=t_s", "x=x_mm", "y=y_mm", "yaw=theta_deg",
                                          "unit=mm", "angle-unit=deg", "pace=fast", NULL };
  g_autoptr (NbDevice) dev = NULL;
  g_autoptr (NbCampaignRunner) runner = NULL;
  NbCampaignRunnerOptions o = *options;
  NbRunnerRig rig = { 0 };
  const NbClause *clause = nb_clause_lookup (o.clause);
  gboolean ok;

  memset (summary, 0, sizeof *summary);
  if (!segmentable (clause))
    {
      g_autofree char *which = segmentable_list ();

      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--track: clauses %s have trials "
                   "along a route to find in a recorded session (not clause %u)", which,
                   o.clause);
      return FALSE;
    }
  if (!g_file_test (track_path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no such file", track_path);
      return FALSE;
    }
  if ((dev = nb_device_new ("csv", error)) == NULL ||
      !nb_device_configure (dev, "url", track_path, error) ||
      !nb_device_apply_settings (dev, (char **) settings, error) || !nb_device_start (dev, error))
    return FALSE;
  o.import_track = TRUE;
  o.trials = G_MAXINT;
  /* A recording is not a link that falls silent. */
  o.loss_timeout_s = G_MAXDOUBLE / 4;
  o.phase = NB_AVOIDANCE_PHASE_AUTO;
  rig.device = dev;
  if ((runner = nb_campaign_runner_new (path, &o, &rig, error)) == NULL)
    return FALSE;
  ok = nb_campaign_runner_run_sync (runner, NULL, NULL, NULL, summary, error);
  nb_device_stop (dev);
  return ok;
}
