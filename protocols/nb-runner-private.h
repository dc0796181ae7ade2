/* nb-runner-private.h — what the campaign runner shares with the clause
 * modules' run methods (protocols/ and protocols/clauses/ only)
 *
 * The runner (nb-campaign-runner.c) owns the run: the campaign file, the
 * instrument's stream, the registration, the trial in the store, the
 * events, cancellation, loss and reconnection.  What a trial of a clause
 * is — its configuration, how many trials, what happens before each, how
 * it is judged, what it stores beyond its samples — is the clause's, in
 * its module under protocols/clauses/, as the members of NbClauseRunner
 * its NbClause.runner points to.  The runner calls them and never asks
 * which clause it runs.
 */
#pragma once

#include "nb-campaign-runner.h"
#include "nb-clause.h"
#include "nb-route.h"

G_BEGIN_DECLS

struct _NbCampaignRunner {
  char *path;
  const NbClause *clause;
  NbCampaignRunnerOptions o;
  char *config, *route, *who, *robot_name, *obstacle, *map_dir;
  const NbRobotOps *robot_ops;    /* NULL: the operator drives the robot */
  gpointer robot;
  NbDevice *device;
  const NbRunnerRigOps *rig_ops;  /* never NULL (an empty table for a real rig) */
  gpointer rig;
  NbPrompts *prompts;             /* never NULL */
  NbPrompts *own_prompts;         /* the simulation's, when the rig gave none */
  gboolean operator_driven;

  /* The run in progress (set by run_async, read by the worker). */
  GMainContext *context;
  NbRunnerProgressFunc progress;
  gpointer progress_data;
  gboolean busy;
  NbRunnerSummary summary;      /* written by the worker, read after completion */
  /* options.hold_until_heard: TRIAL_STARTED events posted, not yet delivered. */
  GMutex unheard_lock;
  GCond unheard_cond;
  guint unheard;
};

typedef struct _NbRun NbRun;

struct _NbRun {
  NbCampaignRunner *r;
  NbCampaign *campaign;
  GCancellable *cancellable;
  NbCampaignConfig config;      /* the configuration run (found or created by prepare) */
  NbRoute route;                /* P0 first, the target last */
  guint n_trials;               /* trials this run makes (may grow: incomplete, baseline) */
  gboolean have_tf;
  NbRigidTransform tf;
  double tf_yaw_deg;

  /* The trial in flight. */
  gint64 trial_id;
  double t_start;
  GArray *samples;              /* of NbSample, test-area frame, t ≥ t_start */
  guint stored;                 /* of samples, handed to the store */
  gboolean keep;                /* samples are part of a trial (else discarded) */
  gboolean buffering;           /* operator-driven: kept until the trial is found in them */
  GArray *carry;                /* operator-driven: samples after a trial's end */
  /* Set by the clause's next_trial for the trial to come: */
  const char *trial_kind;       /* stored as the trial's kind and in its events; NULL: none */
  const char *trial_note;       /* said to the operator with the trial's prompt; NULL: none */

  /* The instrument (nb-device events). */
  char *lost;                   /* why it is lost now; NULL while it measures */
  gboolean ended;               /* a recording is over */
  double last_good_t;           /* device clock: the last usable sample's arrival */
  double drained_t;             /* device clock: when the stream was last found drained */
  /* The trial's measurement quality (recorded with it). */
  guint64 q_n, q_untracked, q_fix[NB_FIX_TRACKED + 1];
  double q_t_first, q_t_last, q_rms_sum;
  guint64 q_rms_n;

  /* The course clauses (7, 9; nb-clause-course.c). */
  double width_mm;              /* robot.width_mm */
  gboolean has_course;          /* the rig lays out course at each trial's start */
  NbCourse course;              /* of the trial to come */
  NbGoalTolerance tol;          /* PG reached (7.3 c, 9.3 c; nb_goal_reached) */
  double leg1_lu, leg2_lu;      /* 4.5: the route's legs (nb_run_route_config) */
  gboolean clockwise;
  double clearance_mm;          /* of the trial just judged */

  /* The clause's own (its module's); freed with state_free. */
  gpointer state;
  GDestroyNotify state_free;
};

/* How the runner drives a clause's trials; NbClause.runner (NULL: the
 * clause is not driven, its trials are imported).  A clause whose trials
 * run along a route from P0 (5, 7, 8, 9) leaves run_all NULL: the runner
 * sends the robot (or prompts the operator and finds the trial in the
 * stream) and calls prepare, next_trial, begun, judge or judge_segmented,
 * ended and recorded.  One whose trials are something else (6: placements
 * around a robot at rest; 10: maps) runs them all in run_all with the
 * helpers below. */
struct _NbClauseRunner {
  /* nb_campaign_runner_new: the options that need no file; NULL: none
   * beyond the runner's own.  rig_ops never NULL; operator_present: a
   * person answers the prompts (the rig's prompts were given), who can do
   * by hand what the rig's fixtures do not (place an obstacle, read the
   * robot's report); else the simulation answers. */
  gboolean (*check)      (const NbCampaignRunnerOptions *o, const NbRunnerRigOps *rig_ops,
                          gboolean operator_driven, gboolean operator_present,
                          GError **error);
  /* Every trial of the run, recorded; *cancelled when stopped between
   * trials or with the trial in flight recorded aborted. */
  gboolean (*run_all)    (NbRun *run, gboolean *cancelled, GError **error);
  /* Route trials: the configuration found and checked, or created;
   * run->route and run->n_trials. */
  gboolean (*prepare)    (NbRun *run, GError **error);
  /* Before each trial (NULL: nothing): its course, kind and note. */
  gboolean (*next_trial) (NbRun *run, GError **error);
  /* The trial begun in the store (t->seq set, t->number = seq): what else
   * it stores (label, number within its kind).  NULL: nothing. */
  void     (*begun)      (NbRun *run, NbCampaignTrial *t);
  /* A driven trial whose goals all returned at arrival: the verdict in t
   * (outcome, reason, attained) and ev (attained); *cancelled when the
   * operator stopped it meanwhile.  NULL: ok. */
  gboolean (*judge)      (NbRun *run, double arrival, NbCampaignTrial *t, NbRunnerEvent *ev,
                          gboolean *cancelled, GError **error);
  /* An operator's trial found settled at attained (t->outcome ok, time_s
   * set): the verdict.  NULL: the clause's trials cannot be found in an
   * instrument's stream (no operator robot, no --track import). */
  gboolean (*judge_segmented) (NbRun *run, guint k, const NbPose *attained, NbCampaignTrial *t,
                               NbRunnerEvent *ev, GError **error);
  /* The trial-ended event's clause members from the trial as stored.  NULL:
   * none. */
  void     (*ended)      (NbRun *run, const NbCampaignTrial *t, NbRunnerEvent *ev);
  /* A trial ended with outcome (not running): the clause's counters.
   * TRUE when a failed trial is a result (7, 9) rather than the robot not
   * reaching its goals (three in a row stop the run).  NULL: FALSE. */
  gboolean (*recorded)   (NbRun *run, NbTrialOutcome outcome);
};

/* The helpers of nb-campaign-runner.c. */

/* The samples up to the instrument's clock now, the trial's to the store. */
gboolean nb_run_collect_now   (NbRun *run, GError **error);
/* Sends the robot to p (test-area frame = the motion stack's map frame). */
gboolean nb_run_send_goal     (NbRun *run, const NbRoutePose *p, GError **error);
/* Waits on the robot's clock for the settled window after arrival (5.2). */
gboolean nb_run_settle        (NbRun *run, double arrival, NbSettleResult *res,
                               gboolean *cancelled, GError **error);
/* Hands ev (and figures, taken; may be NULL) to the caller's main context. */
void     nb_run_post          (NbRun *run, const NbRunnerEvent *ev, NbConfigResult *figures);
/* An event of the run's clause and trial k (numbers NaN, outcome running). */
void     nb_run_event_init    (NbRun *run, NbRunnerEvent *ev, NbRunnerEventKind kind, guint k);
/* Asks the operator (or the simulation) through the rig's prompts, the
 * question and answer in the event log. */
gboolean nb_run_ask           (NbRun *run, NbPromptKind kind, const char *question,
                               const char *proposal, char **answer, GError **error);
/* nb_run_ask of the question printf (format, …) makes: the log records it
 * in English (format is an msgid: mark it N_()), the operator reads it in
 * the prompts' words (nb_prompts_get_words: the window's language). */
gboolean nb_run_ask_tr        (NbRun *run, NbPromptKind kind, const char *proposal,
                               char **answer, GError **error, const char *format, ...)
  G_GNUC_PRINTF (6, 7);
/* The question made twice: question for the log (English), shown for the
 * operator (in nb_run_words; its word arguments through nb_tr too). */
gboolean nb_run_ask_shown     (NbRun *run, NbPromptKind kind, const char *question,
                               const char *shown, const char *proposal, char **answer,
                               GError **error);
/* The words the operator reads (the prompts'); NULL: English. */
const NbCatalogue *nb_run_words (NbRun *run);
/* The configuration of the options' name: *found or not (not found is an
 * answer here, not a failure). */
gboolean nb_run_find_config   (NbRun *run, NbCampaignConfig *config, gboolean *found,
                               GError **error);
/* run->width_mm from robot.width_mm; NB_ERROR_INPUT when not set. */
gboolean nb_run_get_width     (NbRun *run, GError **error);
/* The run's trial count: options.trials, else up to the clause's count
 * of counted trials (refused when there already). */
gboolean nb_run_count_trials  (NbRun *run, GError **error);
/* The configuration's figures from the store (into figures, cleared by the caller). */
gboolean nb_run_figures       (NbRun *run, NbConfigResult *figures, GError **error);
/* The poses a rerun computes from LU must be the stored ones to this much. */
gboolean nb_run_same_mm       (double a, double b);
/* A number of a configuration's parameters (JSON); NaN when absent. */
double   nb_run_param_number  (const char *parameters, const char *key);

/* The route clauses (5, 8; nb-clause-pose.c, nb-clause-path.c): the
 * configuration found (*found, its route checked) or laid out (not yet
 * stored); run->route from the campaign's LU. */
gboolean nb_run_route_config  (NbRun *run, gboolean *found, double *lu_mm, GError **error);
/* NB_ERROR_INPUT: the stored configuration was laid out for another LU. */
gboolean nb_run_refuse_relaid (NbRun *run, double lu_mm, GError **error);

G_END_DECLS
