/* nb-clause-avoidance.c — ISO 18646-2 clause 7, obstacle avoidance
 *
 * 7.2: ten configurations: behaviour 1 (static at P1) with the wooden wall,
 * the table, the large and the small cylinder; behaviours 2, 3 and 4
 * (crossing at 90°, at 45°, head-on) with the large and the small cylinder.
 * Each has its baseline (the trials without obstacle that give T0).  7.3:
 * the configuration passes when its first three trials with the obstacle
 * succeed; T0, T1 and T1/T0 (table 4) by nb_metrics_avoidance.  A failed
 * trial is a result: the figures count it.
 */
#include "nb-clause-private.h"

#include "nb-course.h"
#include "nb-error.h"
#include "nb-measurements.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static const NbClauseColumn columns[] = {
  { "passed", N_("Avoided"), NULL, 0 },
  { "t0_s", N_("Travel time without obstacle T0"), N_("s"), 2 },
  { "t1_s", N_("Travel time with obstacle T1"), N_("s"), 2 },
  { "delay_ratio", N_("Delay ratio T1/T0"), NULL, 3 },
};

/* 7.2 a)–d) and the moving ones, a)–b). */
static const struct {
  guint behaviour;
  const char *obstacle;         /* table 2's name */
} prescribed[] = {
  { 1, "wooden wall" }, { 1, "wooden table" }, { 1, "large cylinder" }, { 1, "small cylinder" },
  { 2, "large cylinder" }, { 2, "small cylinder" },
  { 3, "large cylinder" }, { 3, "small cylinder" },
  { 4, "large cylinder" }, { 4, "small cylinder" },
};

static gboolean
configurations (const NbClauseEnv *env, GArray *out, GError **error)
{
  char lu[32], width[32];

  if (!nb_clause_need_lu (env, 7, error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (prescribed); i++)
    {
      g_autofree char *key = g_strdelimit (g_strdup (prescribed[i].obstacle), " ", '-');
      g_autofree char *name = g_strdup_printf ("b%u-%s", prescribed[i].behaviour, key);
      NbCampaignConfig *c;

      /* decided: outdoors (annex A.5.2) only the wooden wall and the two
       * cylinders are test obstacles, so the table drops out. */
      if (env->outdoor && g_str_equal (prescribed[i].obstacle, "wooden table"))
        continue;
      c = nb_clause_config_append (out, 7, name, 0.0);
      c->obstacle = g_strdup (prescribed[i].obstacle);
      c->behaviour = g_strdup_printf ("%u", prescribed[i].behaviour);
      c->parameters = g_strdup_printf ("{\"lu_mm\": %s, \"robot_width_mm\": %s}",
                                       nb_clause_json_number (lu, env->lu_mm),
                                       nb_clause_json_number (width, env->robot_width_mm));
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
  g_autoptr (GArray) rows = nb_measurements_read_avoidance (in->input, error);

  return rows != NULL &&
         nb_clause_import_timed (campaign, &nb_clause_avoidance, in, rows, n_trials, error);
}

static gboolean
compute (NbCampaign *campaign, const NbCampaignConfig *c, GPtrArray *trials, NbConfigResult *r,
         GError **figures, GError **error)
{
  g_autoptr (GArray) baseline = NULL;
  g_autoptr (GArray) timed = NULL;

  g_autofree char *declared = NULL;

  nb_clause_timed_trials (trials, &baseline, &timed);
  nb_metrics_avoidance ((NbTimedTrial *) baseline->data, baseline->len,
                        (NbTimedTrial *) timed->data, timed->len, &r->avoidance, figures);
  /* 7.1: "in an avoidance manoeuvre a distance greater than or equal to the
   * minimum distance declared by the manufacturer shall be kept between the
   * obstacle and any part of the robot": each trial with the obstacle, its
   * smallest clearance (measured by the runner, nb-clause-course.c) against
   * the declaration.  Decided: flagged in the protocol, not a failed trial
   * (7.3 fails a trial on contact or PG not reached only). */
  declared = nb_campaign_get_field (campaign, "robot.min_avoidance_distance_mm", error);
  if (error != NULL && *error != NULL)
    return FALSE;
  r->declared_min_distance_mm = declared != NULL ? g_ascii_strtod (declared, NULL) : NAN;
  r->clearance_min_mm = NAN;
  r->too_close = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = g_ptr_array_index (trials, i);

      if (g_strcmp0 (t->kind, "baseline") == 0 || isnan (t->clearance_mm))
        continue;
      r->clearance_measured++;
      if (isnan (r->clearance_min_mm) || t->clearance_mm < r->clearance_min_mm)
        r->clearance_min_mm = t->clearance_mm;
      if (t->clearance_mm < r->declared_min_distance_mm)
        g_array_append_val (r->too_close, t->number);
    }
  /* 7.3 a: the robot starts at P0 (the course's origin, heading +x). */
  {
    const NbPose p0 = { 0.0, 0.0, 0.0 };

    return nb_clause_check_start (campaign, trials, &p0, r, error) &&
           nb_clause_course_judge_imported (campaign, c, trials, r, error);
  }
}

/* #17: T0, T1, T1/T0 where both exist, from the trials 7.3 picks. */
static NbUncBudget *
uncertainty (const NbUncSetup *setup, const NbCampaignConfig *c, GPtrArray *trials,
             const NbConfigResult *r, guint64 seed, GError **error)
{
  g_autoptr (GArray) baseline = NULL;
  g_autoptr (GArray) timed = NULL;

  if (!isfinite (r->avoidance.t0_s) || !isfinite (r->avoidance.t1_s))
    return NULL;
  nb_clause_timed_trials (trials, &baseline, &timed);
  return nb_unc_avoidance_trials (setup, (NbTimedTrial *) baseline->data, baseline->len,
                                  (NbTimedTrial *) timed->data, timed->len, seed, error);
}

static void
json (NbJsonWriter *w, const NbConfigResult *r)
{
  nb_clause_json_avoidance (w, &r->avoidance);
}

static void
text (GString *out, const NbConfigResult *r)
{
  char a[32], b[32], c[32];

  g_string_append_printf (out, "%s  T0 %s s  T1 %s s  T1/T0 %s",
                          r->avoidance.passed ? "passed" : "not passed",
                          nb_clause_format_figure (a, r->avoidance.t0_s, 2),
                          nb_clause_format_figure (b, r->avoidance.t1_s, 2),
                          nb_clause_format_figure (c, r->avoidance.delay_ratio, 3));
}

/* ------------------------------------------------------ the runner -- */

/* 7.3 on the course of core/nb-course.h (P0 → PG 9 LU, the obstacle of
 * table 2 at/through P1 as behaviour 1–4 moves it).  First the baseline:
 * trials without obstacle until three have succeeded (kind "baseline"),
 * then the trials with it (kind "obstacle"): three by default, the ones
 * 7.3 judges.  Stored as `campaign import` stores clause 7 rows: kind,
 * number (1, 2, … within the kind), time_s, outcome ok/failed; the
 * configuration's obstacle and behaviour ("1" … "4") and, in parameters,
 * the layout.  The obstacle is placed by the rig (set_course: the
 * simulator), else by the operator when the baseline is done: the run asks
 * it to be placed (a driven real robot, the HTTP one, as an operator-driven
 * one).  A rig that cannot place it and has nobody to ask runs phase
 * BASELINE, then, after it was placed, phase OBSTACLE.  Decided: a failed trial is a
 * result, except baseline ones, which stop the run after three failures in
 * a row (no T0 can come of them). */
typedef struct {
  NbObstacleShape shape;
  guint behaviour;
  gboolean obstacle_phase;      /* the trial to come is with the obstacle */
  guint base_ok, base_number, obst_counted, obst_number;
  gboolean obstacle_placed;     /* operator-driven: the prompt was answered */
} Avoidance;

/* 7.2: behaviour 1 takes the table 2 obstacles; behaviours 2–4 a cylinder. */
static gboolean
run_check (const NbCampaignRunnerOptions *o, const NbRunnerRigOps *rig_ops,
           gboolean operator_driven, gboolean operator_present, GError **error)
{
  NbObstacleShape shape;

  if (o->behaviour > NB_BEHAVIOURS)
    {
      g_autoptr (GString) which = g_string_new (NULL);

      for (guint b = 1; b <= NB_BEHAVIOURS; b++)
        g_string_append_printf (which, "%s%u (%s)", b == 1 ? "" : b < NB_BEHAVIOURS ? ", " : " or ",
                                b, nb_behaviour_name (b));
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "behaviour %u: %s, 7.2", o->behaviour,
                   which->str);
      return FALSE;
    }
  if (o->phase > NB_AVOIDANCE_PHASE_OBSTACLE)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "phase %d: auto, baseline or obstacle",
                   (int) o->phase);
      return FALSE;
    }
  if (o->obstacle != NULL && !nb_obstacle_find (o->obstacle, o->behaviour, &shape))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) nb_obstacle_names ());

      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "obstacle '%s' is not in table 2 (%s)",
                   o->obstacle, known);
      return FALSE;
    }
  if (o->obstacle != NULL && o->behaviour > 1 && !g_str_has_suffix (shape.name, "cylinder"))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "obstacle '%s': behaviours 2 to 4 move a "
                   "large or a small cylinder (7.2)", o->obstacle);
      return FALSE;
    }
  /* Who places the obstacle between the baseline and the trials with it:
   * the rig (the simulator), else the operator, asked (7.3 a); with
   * nobody to ask the phases are run apart. */
  if (o->phase == NB_AVOIDANCE_PHASE_AUTO && rig_ops->set_course == NULL && !operator_driven &&
      !operator_present)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "this rig does not place the obstacle: "
                   "run phase baseline, place the obstacle at its start (7.3 a), then run "
                   "phase obstacle");
      return FALSE;
    }
  return TRUE;
}

/* The configuration's table 2 obstacle and behaviour: found and checked, or
 * from the options. */
static gboolean
resolve_obstacle (NbRun *run, Avoidance *a, gboolean found, GError **error)
{
  const NbCampaignRunnerOptions *o = &run->r->o;
  const NbCampaignConfig *c = &run->config;
  const char *path = run->r->path, *obstacle;
  guint behaviour = o->behaviour;

  if (found)
    {
      char *end = NULL;
      guint64 b = c->behaviour ? g_ascii_strtoull (c->behaviour, &end, 10) : 0;

      if (c->obstacle == NULL || c->behaviour == NULL || *end != '\0' || b < 1 || b > 4)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 7 configuration '%s' "
                       "has no table 2 obstacle and behaviour 1–4 (imported?): run under "
                       "another name", path, o->config);
          return FALSE;
        }
      if ((o->obstacle != NULL && !g_str_equal (o->obstacle, c->obstacle)) ||
          (o->behaviour != 0 && o->behaviour != b))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 7 configuration '%s' is "
                       "behaviour %s with the %s: run under another name", path, o->config,
                       c->behaviour, c->obstacle);
          return FALSE;
        }
      behaviour = (guint) b;
      obstacle = c->obstacle;
    }
  else
    {
      if (o->obstacle == NULL)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "obstacle: clause 7 needs one of "
                       "table 2 for a new configuration (7.2)");
          return FALSE;
        }
      obstacle = o->obstacle;
      behaviour = behaviour == 0 ? 1 : behaviour;
    }
  if (!nb_obstacle_find (obstacle, behaviour, &a->shape))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 7 configuration '%s': "
                   "obstacle '%s' is not in table 2", path, o->config, obstacle);
      return FALSE;
    }
  /* Annex A.5.2: outdoors only the small and large cylinder and the wooden
   * wall are used. */
  {
    NbClauseEnv env;

    if (!nb_clause_env_from_campaign (run->campaign, &env, error))
      return FALSE;
    if (env.outdoor && !nb_obstacle_outdoor (a->shape.name))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 7 configuration '%s': the "
                     "campaign is outdoors: the %s is not used there (annex A.5.2: the small "
                     "cylinder, the large cylinder and the wooden wall)", path, o->config,
                     a->shape.name);
        return FALSE;
      }
  }
  a->behaviour = behaviour;
  return TRUE;
}

/* How many trials: the baseline's until three succeeded, then the
 * obstacle's. */
static gboolean
count_trials (NbRun *run, Avoidance *a, GError **error)
{
  const NbCampaignRunnerOptions *o = &run->r->o;
  const NbClause *clause = run->r->clause;
  g_autoptr (GArray) trials = nb_campaign_list_trials (run->campaign, run->config.id, error);
  guint base_needed;

  if (trials == NULL)
    return FALSE;
  g_array_set_clear_func (trials, (GDestroyNotify) nb_campaign_trial_clear);
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      if (g_strcmp0 (t->kind, "baseline") == 0)
        {
          a->base_number = MAX (a->base_number, t->number);
          a->base_ok += t->outcome == NB_TRIAL_OK;
        }
      else
        {
          a->obst_number = MAX (a->obst_number, t->number);
          a->obst_counted += nb_campaign_trial_counts (clause->number, t);
        }
    }
  base_needed = a->base_ok >= NB_AVOIDANCE_TRIALS ? 0 : NB_AVOIDANCE_TRIALS - a->base_ok;
  if (o->phase == NB_AVOIDANCE_PHASE_BASELINE)
    {
      if (o->trials == 0 && base_needed == 0)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 7 configuration '%s' already "
                       "has %u successful baseline trials (7.3 takes three); ask for more "
                       "trials explicitly", run->r->path, o->config, a->base_ok);
          return FALSE;
        }
      run->n_trials = o->trials > 0 ? o->trials : base_needed;
      return TRUE;
    }
  if (o->trials == 0 && a->obst_counted >= clause->trials)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause %u configuration '%s' already "
                   "has %u counted trials (ISO 18646-2 %s asks for %u); ask for more trials "
                   "explicitly", run->r->path, clause->number, o->config, a->obst_counted,
                   clause->trials_clause, clause->trials);
      return FALSE;
    }
  run->n_trials = o->trials > 0 ? o->trials : clause->trials - a->obst_counted;
  if (o->phase == NB_AVOIDANCE_PHASE_AUTO)
    run->n_trials += base_needed;
  if (o->phase == NB_AVOIDANCE_PHASE_OBSTACLE && a->behaviour > 1 && base_needed > 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: clause 7 configuration '%s': behaviour "
                   "%u starts the obstacle so that it meets the robot at P1 (7.3 b), which "
                   "needs three successful baseline trials first (phase baseline)",
                   run->r->path, o->config, a->behaviour);
      return FALSE;
    }
  return TRUE;
}

static gboolean
run_prepare (NbRun *run, GError **error)
{
  Avoidance *a = g_new0 (Avoidance, 1);
  NbCampaignConfig *c = &run->config;
  gboolean found;
  double lu;

  run->state = a;
  run->state_free = g_free;
  if (!nb_clause_course_config (run, &found, &lu, error) ||
      !resolve_obstacle (run, a, found, error))
    return FALSE;
  /* The baseline's course until the obstacle phase lays out its own. */
  if (!nb_course_avoidance (run->width_mm, NULL, 0, 0.0, &run->course, error))
    return FALSE;
  nb_clause_course_route (run);
  if (!found)
    {
      c->obstacle = g_strdup (run->r->o.obstacle);
      c->behaviour = g_strdup_printf ("%u", a->behaviour);
      c->parameters = g_strdup_printf ("{\"lu_mm\": %.17g, \"robot_width_mm\": %.17g, "
                                       "\"pg_mm\": %.17g, \"p1_mm\": %.17g, "
                                       "\"obstacle_across_mm\": %.17g, "
                                       "\"obstacle_along_mm\": %.17g, \"obstacle_round\": %s, "
                                       "\"obstacle_speed_mm_s\": %.17g, \"runner\": true}",
                                       lu, run->width_mm, run->course.pg[0], run->course.p1[0],
                                       a->shape.across_mm, a->shape.along_mm,
                                       a->shape.round ? "true" : "false",
                                       NB_OBSTACLE_SPEED_MM_S);
      if (!nb_campaign_add_config (run->campaign, c, error))
        return FALSE;
    }
  return count_trials (run, a, error) && nb_clause_course_tolerance (run, error);
}

/* The course of the next trial (baseline or with the obstacle); with an
 * operator, the obstacle is placed by hand first (7.3 a). */
static gboolean
run_next_trial (NbRun *run, GError **error)
{
  Avoidance *a = run->state;
  const NbCampaignRunnerOptions *o = &run->r->o;
  NbConfigResult fig;
  double meet_s = NAN;

  a->obstacle_phase = o->phase == NB_AVOIDANCE_PHASE_OBSTACLE ||
                      (o->phase == NB_AVOIDANCE_PHASE_AUTO && a->base_ok >= NB_AVOIDANCE_TRIALS);
  run->trial_kind = a->obstacle_phase ? "obstacle" : "baseline";
  run->trial_note = a->obstacle_phase ? NULL : N_("with no obstacle on the course (baseline)");
  if (!a->obstacle_phase)
    return nb_course_avoidance (run->width_mm, NULL, 0, 0.0, &run->course, error);
  if (!run->course.has_obstacle)
    {
      /* 7.3 b): the robot passes P1 (half way) at T0/2. */
      if (!nb_run_figures (run, &fig, error))
        {
          nb_config_result_clear (&fig);
          return FALSE;
        }
      meet_s = fig.error == NULL ? fig.avoidance.t0_s * (run->course.p1[0] / run->course.pg[0])
                                 : NAN;
      nb_config_result_clear (&fig);
      if (a->behaviour == 1 && isnan (meet_s))
        meet_s = 0.0;
      if (!nb_course_avoidance (run->width_mm, &a->shape, a->behaviour, meet_s, &run->course,
                                error))
        return FALSE;
    }
  /* Asked of whoever places it: the operator, or the rig that does (the
   * simulation answers), once per run. */
  if (!a->obstacle_placed && !o->import_track)
    {
#define PLACE N_("Place the %s for behaviour %u at P1 (%.0f mm along the route; 7.3 a), " \
                 "moving ones released as the robot starts; answer yes when it is in place")
      const NbCatalogue *w = nb_run_words (run);
      g_autofree char *q = g_strdup_printf (PLACE, a->shape.name, a->behaviour,
                                            run->course.p1[0]);
      /* The operator reads it in the window's words, table 2's name too. */
      g_autofree char *shown = g_strdup_printf (nb_tr (w, PLACE), nb_tr (w, a->shape.name),
                                                a->behaviour, run->course.p1[0]);
#undef PLACE

      if (!nb_run_ask_shown (run, NB_PROMPT_CONFIRM, q, shown, NULL, NULL, error))
        return FALSE;
      a->obstacle_placed = TRUE;
    }
  return TRUE;
}

/* What import stores: numbered within the kind. */
static void
run_begun (NbRun *run, NbCampaignTrial *t)
{
  Avoidance *a = run->state;

  t->number = a->obstacle_phase ? a->obst_number + 1 : a->base_number + 1;
}

static gboolean
run_recorded (NbRun *run, NbTrialOutcome outcome)
{
  Avoidance *a = run->state;

  if (a->obstacle_phase)
    {
      a->obst_number++;
      return TRUE;
    }
  a->base_number++;
  a->base_ok += outcome == NB_TRIAL_OK;
  /* Auto: the baseline goes on until three have succeeded. */
  if (outcome != NB_TRIAL_OK && outcome != NB_TRIAL_INCOMPLETE &&
      run->r->o.phase == NB_AVOIDANCE_PHASE_AUTO)
    run->n_trials++;
  return FALSE;
}

static const NbClauseRunner runner = {
  .check = run_check,
  .prepare = run_prepare,
  .next_trial = run_next_trial,
  .begun = run_begun,
  .judge = nb_clause_course_judge,
  .judge_segmented = nb_clause_course_judge_segmented,
  .ended = nb_clause_course_ended,
  .recorded = run_recorded,
};

/* ------------------------------------------------------------- export -- */

/* campaign export --trials 7: the baseline and obstacle trials' times (7.3). */
static const char *const export_columns[] = {
  "config", "kind", "trial", "time_s", "success", NULL
};

static gboolean
export_trial (NbCampaign *campaign, const NbCampaignConfig *c, const NbCampaignTrial *t,
              NbClauseExportRow row, gpointer data, GError **error)
{
  const NbClauseCell cells[] = {
    { c->name, 0 }, { t->kind ? t->kind : "obstacle", 0 }, { NULL, t->number },
    { NULL, t->time_s }, { t->outcome == NB_TRIAL_OK ? "1" : "0", 0 },
  };

  return row (cells, G_N_ELEMENTS (cells), data, error);
}

/* 7.2: a configuration tests a prescribed one of its behaviour and obstacle. */
static gboolean
covers (const NbCampaignConfig *p, const NbCampaignConfig *c, GHashTable *labels)
{
  (void) labels;
  return g_strcmp0 (p->behaviour, c->behaviour) == 0 &&
         g_strcmp0 (nb_clause_canonical_obstacle (p->obstacle),
                    nb_clause_canonical_obstacle (c->obstacle)) == 0;
}

static char *
describe (const NbCatalogue *lang, const NbCampaignConfig *p)
{
  return g_strdup_printf (nb_tr (lang, "behaviour %s, %s"), p->behaviour, nb_tr (lang, p->obstacle));
}

/* 7.3: the configuration passes when its trials do (the figures' rule). */
static gboolean
passed (const NbConfigResult *r)
{
  return r->avoidance.passed;
}

/* 7.2: the course of every configuration for a robot width_mm wide, the
 * obstacle aside (where PG is: the imported trials are judged about it). */
static gboolean
course (const NbCampaignConfig *c, double width_mm, NbCourse *out, GError **error)
{
  return nb_course_avoidance (width_mm, NULL, 0, 0.0, out, error);
}

/* compute avoidance: per configuration of the table, 7.3's figures from
 * its baseline and obstacle trials; the budget where T0 and T1 exist. */
static gboolean
compute_csv (const NbClauseCsv *in, NbClauseCsvFigures *f, GError **error)
{
  if ((f->rows = nb_measurements_read_avoidance (in->input, error)) == NULL)
    return FALSE;
  f->configs = nb_clause_csv_group_configs (f->rows);
  for (guint i = 0; i < f->configs->len; i++)
    {
      NbClauseCsvConfig *c = &g_array_index (f->configs, NbClauseCsvConfig, i);

      if (!nb_metrics_avoidance ((NbTimedTrial *) c->baseline->data, c->baseline->len,
                                 (NbTimedTrial *) c->trials->data, c->trials->len, &c->avoidance,
                                 error) ||
          (in->setup != NULL && isfinite (c->avoidance.t0_s) && isfinite (c->avoidance.t1_s) &&
           (c->budget = nb_unc_avoidance_trials (in->setup, (NbTimedTrial *) c->baseline->data,
                                                 c->baseline->len,
                                                 (NbTimedTrial *) c->trials->data,
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
  nb_clause_json_avoidance (w, &c->avoidance);
}

static void
csv_json (NbJsonWriter *w, const NbClauseCsvFigures *f)
{
  nb_clause_csv_json_configs (w, f, csv_config_json);
}

const NbClause nb_clause_avoidance = {
  .number = 7,
  .title = N_("Obstacle avoidance"),
  .table = 4,
  /* 7.3: the first three trials decide pass or fail. */
  .trials = 3,
  .trial_word = N_("trials"),
  .trials_clause = "7.3",
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .options = NB_CLAUSE_OPT_TRIALS | NB_CLAUSE_OPT_OBSTACLE |
             NB_CLAUSE_OPT_BEHAVIOUR | NB_CLAUSE_OPT_PHASE | NB_CLAUSE_OPT_GOAL_TOLERANCE,
  .run = NB_CLAUSE_RUN_COURSE,
  .layout = "7.2: P0 to PG 9 LU",
  .contact = N_("the obstacle"),
  .goal_clause = "7.3 c",
  .baseline = TRUE,
  .driven_asks = N_("to place the obstacle and whether the robot touched it (7.3)"),
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
  .covers = covers,
  .describe = describe,
  .course = course,
  .compute_csv = compute_csv,
  .csv_json = csv_json,
};
