/* nb-clause-course.c — what the course clauses (7, 9) share in the runner
 *
 * 7.3 and 9.3 time a trial from P0 to PG over a course (core/nb-course.h)
 * and judge it: PG reached within the clause 5 repeatability (7.3 c, 9.3 c)
 * and no contact with the obstacle or the passage's walls.
 *
 * Decided: the travel/passage time is from the trial's start (the goal sent
 * at P0) to the robot's arrival (its goal returned).  After arrival the
 * attained pose is found by settle detection as in clause 5; "PG reached
 * within the clause 5 repeatability" is nb_goal_reached (nb-clause-goal.c:
 * Rp about PG moved by clause 5's offset of the barycentre, Ro about PG's
 * heading + Ao), from the campaign's clause 5 configuration on the straight
 * route with the same load (else any straight one), unless
 * goal_tolerance_mm/deg are given; with neither the run is refused.
 * Decided: contact is measured, not reported by the robot: the robot is a
 * disc of diameter robot.width_mm on the tracked point and a trial touched
 * when its smallest clearance to the obstacle (where the course puts it at
 * each sample's time) or to the passage's walls over the trial's samples is
 * ≤ 0 mm.  With an operator the operator is asked, the measured clearance
 * proposed; not on a course with nothing to touch (clause 7's baseline).
 */
#include "nb-clause-private.h"
#include "nb-record-words.h"

#include "nb-angle.h"
#include "nb-error.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#define MM_PER_M 1000.0

gboolean
nb_clause_course_config (NbRun *run, gboolean *found, double *lu_mm, GError **error)
{
  NbCampaignRunner *r = run->r;
  const NbCampaignRunnerOptions *o = &r->o;
  NbCampaignConfig *c = &run->config;
  double stored_lu;

  if (!nb_run_get_width (run, error) || !nb_lu_mm (run->width_mm, lu_mm, error))
    return FALSE;
  if (!nb_run_find_config (run, c, found, error))
    return FALSE;
  run->has_course = TRUE;
  if (!*found)
    {
      c->clause = r->clause->number;
      c->name = g_strdup (o->config);
      c->load_kg = isnan (o->load_kg) ? 0.0 : o->load_kg;
      return TRUE;
    }
  stored_lu = nb_run_param_number (c->parameters, "lu_mm");
  if (!isnan (o->load_kg) && !(c->load_kg == o->load_kg))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause %u configuration '%s' has "
                   "load %g kg, not %g kg: run under another name", r->path, o->clause,
                   o->config, c->load_kg, o->load_kg);
      return FALSE;
    }
  if (!isnan (stored_lu) && !nb_run_same_mm (stored_lu, *lu_mm))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause %u configuration '%s' was "
                   "laid out for LU %.0f mm, not %.0f mm (robot.width_mm changed?): run "
                   "under another name", r->path, o->clause, o->config, stored_lu, *lu_mm);
      return FALSE;
    }
  return TRUE;
}

void
nb_clause_course_route (NbRun *run)
{
  /* The route the runner drives: P0 → PG, heading 0°. */
  memset (&run->route, 0, sizeof run->route);
  run->route.kind = NB_ROUTE_STRAIGHT;
  run->route.n_poses = 2;
  run->route.poses[0] = (NbRoutePose) { "P0", 0.0, 0.0, 0.0 };
  run->route.poses[1] = (NbRoutePose) { "PG", run->course.pg[0], run->course.pg[1], 0.0 };
}

/* 7.3 c), 9.3 c): PG is reached within the clause 5 repeatability
 * (nb-clause-goal.c says how it is read), or within the operator's
 * tolerance; the one used is logged (JSON: the protocol states it). */
gboolean
nb_clause_course_tolerance (NbRun *run, GError **error)
{
  const NbCampaignRunnerOptions *o = &run->r->o;
  g_autoptr (GError) local = NULL;
  g_autofree char *subject = NULL, *json = NULL;

  nb_goal_tolerance_clear (&run->tol);
  if ((isnan (o->goal_tolerance_mm) || isnan (o->goal_tolerance_deg)) &&
      !nb_goal_tolerance_from_campaign (run->campaign, run->config.load_kg, &run->tol, &local))
    {
      if (!g_error_matches (local, NB_ERROR, NB_ERROR_NOT_FOUND))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: PG is reached within the clause 5 "
                   "repeatability (%s): run clause 5 on the straight route first (%s), or "
                   "give the goal tolerance", run->r->path, run->r->clause->goal_clause,
                   local->message);
      return FALSE;
    }
  nb_goal_tolerance_given (&run->tol, o->goal_tolerance_mm, o->goal_tolerance_deg);
  subject = g_strdup_printf ("clause %u, config '%s'", o->clause, o->config);
  json = nb_goal_tolerance_to_json (&run->tol);
  return nb_campaign_log (run->campaign, NB_GOAL_TOLERANCE_EVENT, subject, NULL, json, error);
}

/* The trial's smallest clearance to the course's obstacle or walls. */
static double
min_clearance (const NbRun *run)
{
  double min = INFINITY;

  for (guint i = 0; i < run->samples->len; i++)
    {
      const NbSample *s = &g_array_index (run->samples, NbSample, i);

      min = MIN (min, nb_course_clearance_mm (&run->course, s->t_s - run->t_start,
                                              s->x_m * MM_PER_M, s->y_m * MM_PER_M));
    }
  return min;
}

/* PG missed beyond the tolerance (nb_goal_reached): the reason (else NULL). */
static char *
pg_missed (const NbRun *run, const NbPose *attained)
{
  const NbRoutePose *pg = nb_route_target (&run->route);
  NbPose goal = { pg->x_mm, pg->y_mm, pg->theta_deg };
  double miss, turn;

  if (!nb_goal_reached (&run->tol, &goal, attained, &miss, &turn))
    return g_strdup_printf (NB_REASON_PG_MISSED, miss, turn,
                            run->tol.rp_mm, run->tol.ro_deg);
  return NULL;
}

/* 7.3, 9.3: a contact with the obstacle or a wall fails the trial — what
 * the operator saw, the measured clearance proposing the answer (the
 * simulation answers with it); *touched. */
static gboolean
ask_contact (NbRun *run, guint k, gboolean *touched, GError **error)
{
#define TOUCH N_("Trial %u: did the robot touch %s? (measured clearance %.1f mm)")
#define TOUCH_NONE N_("Trial %u: did the robot touch %s? (measured: nothing near)")
  g_autofree char *q = NULL, *shown = NULL, *seen = NULL;
  const char *measured = run->clearance_mm <= 0.0 ? "yes" : "no";
  const NbCatalogue *w = nb_run_words (run);

  if (isfinite (run->clearance_mm))
    {
      q = g_strdup_printf (TOUCH, k, run->r->clause->contact, run->clearance_mm);
      shown = g_strdup_printf (nb_tr (w, TOUCH), k, nb_tr (w, run->r->clause->contact),
                               run->clearance_mm);
    }
  else
    {
      q = g_strdup_printf (TOUCH_NONE, k, run->r->clause->contact);
      shown = g_strdup_printf (nb_tr (w, TOUCH_NONE), k, nb_tr (w, run->r->clause->contact));
    }
#undef TOUCH
#undef TOUCH_NONE
  if (run->r->o.import_track)
    seen = g_strdup (measured);   /* a recording: nobody saw it, the measurement says */
  else if (!nb_run_ask_shown (run, NB_PROMPT_JUDGE, q, shown, measured, &seen, error))
    return FALSE;
  *touched = g_str_equal (seen, "yes");
  return TRUE;
}

gboolean
nb_clause_course_judge (NbRun *run, double arrival, NbCampaignTrial *t, NbRunnerEvent *ev,
                        gboolean *cancelled, GError **error)
{
  NbSettleResult res;
  gboolean touched = FALSE;

  if (!nb_run_settle (run, arrival, &res, cancelled, error))
    return FALSE;
  run->clearance_mm = min_clearance (run);
  t->clearance_mm = run->clearance_mm;   /* 7.1: kept with the trial */
  /* A baseline trial has nothing on its course to touch: nobody is asked. */
  if (!*cancelled && !(run->lost != NULL && !res.settled) &&
      nb_course_has_fixture (&run->course) && !ask_contact (run, t->seq, &touched, error))
    return FALSE;
  if (*cancelled)
    {
      t->outcome = NB_TRIAL_ABORTED;
      t->reason = g_strdup (NB_REASON_CANCELLED_SETTLING);
    }
  else if (run->lost != NULL && !res.settled)
    {
      t->outcome = NB_TRIAL_INCOMPLETE;
      t->reason = g_strdup_printf (NB_REASON_SETTLING_AT, "PG", run->lost);
    }
  else if (touched)
    {
      t->outcome = NB_TRIAL_FAILED;
      t->reason = g_strdup_printf (NB_REASON_TOUCHED, run->r->clause->contact,
                                   run->clearance_mm);
    }
  else if (!res.settled)
    {
      t->outcome = NB_TRIAL_FAILED;
      t->reason = g_strdup_printf (NB_REASON_AT, "PG", res.reason);
    }
  else
    {
      ev->attained = (NbPose) { res.x_m * MM_PER_M, res.y_m * MM_PER_M,
                                nb_angle_recast_deg (res.heading_deg) };
      t->attained = ev->attained;   /* 7.3 c, 9.3 c: kept with the trial */
      t->reason = pg_missed (run, &ev->attained);
      t->outcome = t->reason != NULL ? NB_TRIAL_FAILED : NB_TRIAL_OK;
    }
  return TRUE;
}

gboolean
nb_clause_course_judge_segmented (NbRun *run, guint k, const NbPose *attained,
                                  NbCampaignTrial *t, NbRunnerEvent *ev, GError **error)
{
  const char *contact = run->r->clause->contact;
  gboolean touched = FALSE;

  ev->attained = *attained;
  t->attained = *attained;          /* 7.3 c, 9.3 c: kept with the trial */
  run->clearance_mm = min_clearance (run);
  t->clearance_mm = run->clearance_mm;   /* 7.1: kept with the trial */
  if (nb_course_has_fixture (&run->course) && !ask_contact (run, k, &touched, error))
    return FALSE;
  if (touched)
    {
      t->outcome = NB_TRIAL_FAILED;
      t->reason = g_strdup_printf (NB_REASON_TOUCHED_SEEN, contact, run->clearance_mm);
    }
  else if (isfinite (attained->theta_deg) && (t->reason = pg_missed (run, attained)) != NULL)
    t->outcome = NB_TRIAL_FAILED;
  return TRUE;
}

void
nb_clause_course_ended (NbRun *run, const NbCampaignTrial *t, NbRunnerEvent *ev)
{
  ev->time_s = t->time_s;
  ev->clearance_mm = run->clearance_mm;
}

static void
goal_miss_clear (gpointer p)
{
  g_free (((NbGoalMiss *) p)->label);
}

/* 7.3 c, 9.3 c for trials measured elsewhere: an imported trial whose
 * attained pose the laboratory gave is judged against the campaign's
 * clause 5 figures as a run judges it (nb_goal_reached about PG of the
 * configuration's course); the outcome stays the laboratory's, a trial it
 * recorded as a success that stopped beyond the tolerance is listed
 * (r->goal_missed) for the protocol to flag.  A run's trials were judged
 * when they ran (the tolerance it logged). */
gboolean
nb_clause_course_judge_imported (NbCampaign *campaign, const NbCampaignConfig *c,
                                 GPtrArray *trials, NbConfigResult *r, GError **error)
{
  g_autoptr (GError) no_goal = NULL;
  g_autofree char *width_text = NULL;
  const NbClause *clause = nb_clause_lookup (c->clause);
  double width;
  NbCourse course;
  NbPose goal;
  gboolean any = FALSE;

  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = g_ptr_array_index (trials, i);

      any |= t->n_samples == 0 && isfinite (t->attained.x_mm);
    }
  if (!any)
    return TRUE;
  width_text = nb_campaign_get_field (campaign, "robot.width_mm", error);
  if (error != NULL && *error != NULL)
    return FALSE;
  width = width_text != NULL ? g_ascii_strtod (width_text, NULL) : NAN;
  if (!(width > 0.0) || !clause->course (c, width, &course, NULL))
    return TRUE;                /* no course to judge on: the LU is not known */
  nb_goal_tolerance_clear (&r->goal);
  if (!nb_goal_tolerance_from_campaign (campaign, c->load_kg, &r->goal, &no_goal))
    {
      if (g_error_matches (no_goal, NB_ERROR, NB_ERROR_NOT_FOUND))
        return TRUE;            /* goal_notes states it: no clause 5 figures */
      g_propagate_error (error, g_steal_pointer (&no_goal));
      return FALSE;
    }
  goal = (NbPose) { course.pg[0], course.pg[1], 0.0 };
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = g_ptr_array_index (trials, i);
      double miss, turn;

      if (t->n_samples != 0 || !isfinite (t->attained.x_mm))
        continue;
      r->goal_judged++;
      if (nb_goal_reached (&r->goal, &goal, &t->attained, &miss, &turn))
        r->goal_reached++;
      else if (t->outcome == NB_TRIAL_OK)
        {
          NbGoalMiss m = { g_strdup_printf ("%s%u", g_strcmp0 (t->kind, "baseline") == 0
                                                    ? "T0 " : "", t->number ? t->number : t->seq),
                           miss, turn };

          if (r->goal_missed == NULL)
            {
              r->goal_missed = g_array_new (FALSE, FALSE, sizeof (NbGoalMiss));
              g_array_set_clear_func (r->goal_missed, goal_miss_clear);
            }
          g_array_append_val (r->goal_missed, m);
        }
    }
  return TRUE;
}
