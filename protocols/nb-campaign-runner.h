/* nb-campaign-runner.h — the standard's trials driven automatically and recorded
 *
 * ARCHITECTURE: "the campaign runner that drives robot + instrument and
 * records trials".  For one campaign file, one clause and one configuration
 * the runner sends the robot (any NbRobotOps: the simulated base, the motion
 * stack's HTTP client) through the trials of the clause, measures it with an
 * instrument (an NbDevice, as `acquire` opens it), maps every sample into the test-area
 * frame with the campaign's stored registration (instrument.registration_
 * transform; identity when none is stored) and records each trial and its
 * samples in the store as it ends — one transaction per trial, so a crash
 * loses at most the trial in flight.  What a trial stores is what `campaign
 * import` stores (clause 5: command and attained pose, outcome ok; clause 8:
 * the track as samples, label = number), so `campaign results` and `report`
 * work unchanged on a run campaign; the runner's own figures are computed by
 * the same nb_config_result_compute.
 *
 * Threading: the trials run in a worker (GTask in a thread); the campaign
 * file is opened, written and closed in that worker only.  Progress events
 * are delivered on the GMainContext that was thread-default when
 * nb_campaign_runner_run_async was called, in order, before the completion
 * callback.  Cancelling the GCancellable ends the trial in flight as
 * `aborted` ("cancelled"), requests a motion stop and keeps everything
 * recorded before; run_finish then fails with G_IO_ERROR_CANCELLED.  A robot
 * whose goals block (the HTTP robot) is interrupted at once, from the
 * cancelling thread (NbRobotOps.interrupt), rather than when its goal ends.
 *
 * The clauses (ISO 18646-2; decisions where it is silent marked "decided"):
 *  - routes from the campaign's LU (4.5; robot.width_mm must be set), legs of
 *    NB_ROUTE_DEFAULT_LEG_LU, counter-clockwise.
 *  - decided: before every trial the robot is returned to P0 (heading 0°)
 *    by a goal that is not part of the trial and not measured; a failure of
 *    that goal stops the run (no trial is in flight).
 *  - decided: a goal of a trial that fails (the navigation stack aborts it)
 *    ends the trial `failed` with the goal and the stack's message as its
 *    reason, a motion stop is requested and the run goes on with the next
 *    trial; three failed trials in a row stop the run (NB_ERROR_FAILED), the
 *    trials kept.
 *  - decided: the configuration is created on first run (load unset → 0 kg,
 *    "no load"); a later run of the same name must agree with its clause,
 *    route, load and LU-derived poses, and appends trials.  By default a run
 *    takes the configuration to the clause's trial count (30 counted
 *    trials); options.trials > 0 runs exactly that many more.
 *  - what a trial of each clause is — its configuration and trial count,
 *    what comes before each trial, how it is judged and what it stores —
 *    is the clause's module's (protocols/clauses/nb-clause-*.c, its
 *    NbClause.runner: nb-runner-private.h); this runner calls those
 *    methods and never asks which clause it runs.  Clauses 5 and 8 run
 *    the route of 4.5 (pose at the target; the track for d_i), 7 and 9 the
 *    courses of core/nb-course.h (nb-clause-course.c), 6 its placements
 *    round a robot at rest.
 *  - clause 10 (10.3): each trial a map of the 7 LU arena — the simulator
 *    builds it (nb-runner-sim.h), a real robot's is asked for by a prompt
 *    (its map_server YAML and build time); see nb-clause-mapping.c.
 */
#pragma once

#include <gio/gio.h>

#include "nb-campaign.h"
#include "nb-campaign-results.h"
#include "nb-course.h"
#include "nb-device.h"
#include "nb-prompts.h"
#include "nb-segmentation.h"
#include "nb-register.h"
#include "nb-sample.h"
#include "nb-sequence.h"
#include "nb-settle.h"

G_BEGIN_DECLS

typedef void (*NbRunnerSampleFunc) (const NbSample *sample, gpointer user_data);

/* The simulated test area's fixtures (ARCHITECTURE: "a built-in simulator
 * stands in for robot and instrument"): what the operator of a real test
 * area does by hand.  Every member is optional; a rig without them is a
 * real one. */
typedef struct {
  /* The load the simulated robot carries in the configuration being run
   * (a real robot is loaded by the operator). */
  void     (*set_load) (gpointer rig, double load_kg);
  /* The course of the trial about to start (clauses 7, 9; NULL: none), its
   * obstacle starting at t0_s on the instrument's clock.  A real rig's
   * obstacle is placed and released by the operator. */
  void     (*set_course) (gpointer rig, const NbCourse *course, double t0_s);
  /* Clause 6: the robot's report of the obstacle it detects looking along
   * bearing_deg (counter-clockwise from its line of sight), as the rig
   * reads it from the robot (the simulator: the base's range sensor);
   * measured_mm NaN when not detected.  FALSE with error when the report
   * cannot be had. */
  gboolean (*detect)   (gpointer rig, double bearing_deg, gboolean *detected,
                        double *measured_mm, GError **error);
  /* Clause 10: the corners A_1..A_4 of the 7 LU arena in the test-area
   * frame (P0's, where the robot starts mapping), as the rig laid it out
   * (a real one's are surveyed: the operator gives them). */
  void     (*arena)    (gpointer rig, double lu_mm, double truth_mm[4][2]);
  /* Clause 10: the robot maps the arena for its trial `trial` (from 1): the
   * map written as map_server YAML + image into dir (made if missing) as
   * NAME.yaml, its path and how long the mapping took (s).  A real robot
   * saves its own map: the operator gives its file. */
  gboolean (*build_map) (gpointer rig, double lu_mm, guint trial, const char *dir,
                         const char *name, char **yaml_path, double *build_time_s,
                         GError **error);
} NbRunnerRigOps;

/* What a run drives and measures with.  The instrument is an NbDevice —
 * the one the `acquire` command uses, any driver (nmea, geocom, natnet,
 * csv/tum replay, sim), started by the caller; its samples are in the
 * instrument's frame, latency-corrected, t_s on its clock (nb_device_time:
 * the simulator's virtual clock, or the monotonic one), and the robot's
 * goals and waits run on that same clock (ARCHITECTURE: one clock). */
typedef struct {
  const NbRobotOps *robot_ops;  /* goals, stop, wait; NULL: the operator drives the robot
                                 * (its own task program) and the trials are segmented
                                 * from the instrument's stream (nb-segmentation.h) */
  gpointer robot;
  NbDevice *device;             /* the instrument */
  const NbRunnerRigOps *rig_ops;/* NULL: a real test area */
  gpointer rig;
  NbPrompts *prompts;           /* the operator's answers; NULL: the simulation answers
                                 * (auto, who "simulation") */
} NbRunnerRig;

/* Clause 7: which trials a run makes. */
typedef enum {
  NB_AVOIDANCE_PHASE_AUTO,      /* the baseline, then the obstacle trials (the rig places it) */
  NB_AVOIDANCE_PHASE_BASELINE,  /* the trials without obstacle only */
  NB_AVOIDANCE_PHASE_OBSTACLE,  /* the trials with the obstacle only */
} NbAvoidancePhase;

typedef struct {
  guint clause;               /* 5 to 9 */
  const char *config;         /* the configuration's name */
  const char *route;          /* "straight" (default), "rectangular", "combined"; NULL: the
                               * stored configuration's, else straight */
  double load_kg;             /* NaN: the stored configuration's, else 0 */
  guint trials;               /* 0: up to the clause's count */
  NbSettleParams settle;      /* clause 5 (nb_settle_params_init by _init) */
  double settle_step_s;       /* how long the robot waits between settle checks */
  const char *who;            /* for the event log; NULL: the login name */
  const char *robot_name;     /* for the event log ("sim-base", a URL) */
  /* Clause 6: */
  double min_range_mm;        /* declared by the manufacturer; NaN: the stored ones */
  double max_range_mm;
  /* Clauses 6, 7: */
  const char *obstacle;       /* table 2's name (nb_obstacle_find); 7: NULL: the stored one;
                               * 6: NULL: all six */
  guint behaviour;            /* 1–4; 0: the stored one, else 1 */
  NbAvoidancePhase phase;
  /* Clause 9: */
  double passage_width_mm;    /* NaN: the stored one, else robot width + 200 mm */
  /* Clauses 7, 9: how close to PG is "reached"; NaN: from clause 5 */
  double goal_tolerance_mm;
  double goal_tolerance_deg;
  /* Clause 10: the experts' accepted range of map defects (10.2), recorded
   * as the campaign's mapping.accepted_defect_range_mm (a different one
   * than recorded is refused); NaN: the recorded one, else none accepted
   * (0 mm, the protocol says it was not stated). */
  double defect_range_mm;
  /* Clause 10: where a rig that builds maps (the simulator) writes them;
   * NULL: beside the campaign file, F-maps/. */
  const char *map_dir;
  /* The instrument: a trial with no usable sample for loss_timeout_s (the
   * link fell silent, the tracker lost the prism) ends incomplete; the run
   * waits up to reconnect_s for the instrument to come back, then goes on
   * with the next trial or stops. */
  double loss_timeout_s;      /* 1 s by _init */
  double reconnect_s;         /* 10 s by _init */
  /* Called in the worker with every sample the instrument hands over, in
   * its own frame (a live plot, a test's tee); may be NULL. */
  NbRunnerSampleFunc on_sample;
  gpointer on_sample_data;
  /* The operator-driven robot: how trials are found in the stream (P0 and
   * the target are the route's, set by the runner) and how long one may
   * take from the prompt to its arrival. */
  NbSegmentationParams segment;    /* nb_segmentation_params_init by _init */
  double trial_timeout_s;     /* 600 s by _init */
  /* Operator-driven, from a recording (`campaign import --track`): no
   * prompts, as many trials as the recording holds, its end ends the run. */
  gboolean import_track;
  /* A window's run: a trial the runner drives (not an operator's) begins
   * only once its TRIAL_STARTED event has been delivered (the progress
   * callback has returned): the window that says "trial k running" is not
   * trials behind the robot however late its main loop turns, and a stop
   * given when it hears of trial k aborts trial k.  The wait ends when the
   * run is cancelled (heard within 10 ms). */
  gboolean hold_until_heard;
} NbCampaignRunnerOptions;

void nb_campaign_runner_options_init (NbCampaignRunnerOptions *options);

typedef enum {
  NB_RUNNER_EVENT_TRIAL_STARTED,
  NB_RUNNER_EVENT_TRIAL_ENDED,
} NbRunnerEventKind;

typedef struct _NbRunnerEvent {
  NbRunnerEventKind kind;
  guint clause;
  const char *config;
  guint trial;                /* k of n_trials in this run, from 1 */
  guint n_trials;
  gint64 trial_id;            /* in the store (clause 6 TRIAL_STARTED: 0, a placement is
                               * stored when it ends) */
  guint seq;                  /* the trial's number in the configuration (likewise) */
  double t_s;                 /* on the rig's clock */
  /* TRIAL_ENDED: */
  NbTrialOutcome outcome;
  const char *reason;         /* NULL when ok */
  NbPose command;             /* clause 5 */
  NbPose attained;            /* clause 5: test-area frame; NaN when not measured */
  double d_mm;                /* clause 8: this trial's d_i; NaN otherwise */
  guint64 n_samples;          /* stored for this trial */
  const NbConfigResult *figures; /* the configuration's figures from the store, so far */
  /* Clauses 7, 9 (TRIAL_ENDED; attained above is filled too): */
  const char *trial_kind;     /* clause 7: "baseline" or "obstacle"; NULL otherwise */
  guint number;               /* the trial's number (within its kind) */
  double time_s;              /* travel / passage time; NaN when PG was not reached */
  double clearance_mm;        /* smallest gap to obstacle or walls; +inf: none near; NaN */
  /* Clause 6 (the placement; detected and measured_mm in TRIAL_ENDED): */
  const char *obstacle;
  double angle_deg;
  gboolean max_range;
  double true_mm;
  gboolean detected;
  double measured_mm;         /* NaN when not detected */
  /* Clause 10 (TRIAL_ENDED; time_s above is the map's build time): */
  double dm_mm;               /* the map's Dm (10.2); NaN when not analysed */
} NbRunnerEvent;

typedef void (*NbRunnerProgressFunc) (const NbRunnerEvent *event, gpointer user_data);

typedef struct {
  guint run;                  /* trials run by this call */
  guint ok, failed, aborted, incomplete;
  NbConfigResult figures;     /* from the store after the run */
} NbRunnerSummary;

void nb_runner_summary_clear (NbRunnerSummary *summary);

typedef struct _NbCampaignRunner NbCampaignRunner;

/* Checks the options that need no file (clause, name, route, load, settle);
 * NB_ERROR_INPUT naming the option.  The rig's robot, device and fixtures
 * are borrowed and used from the worker thread only while a run is in
 * progress; the caller keeps them (and the runner) alive until the
 * completion callback. */
NbCampaignRunner *nb_campaign_runner_new  (const char *campaign_path,
                                           const NbCampaignRunnerOptions *options,
                                           const NbRunnerRig *rig, GError **error);
void              nb_campaign_runner_free (NbCampaignRunner *runner);

/* Starts the run in a worker thread; progress (may be NULL) and callback are
 * called on the caller's thread-default GMainContext. */
void     nb_campaign_runner_run_async  (NbCampaignRunner *runner, GCancellable *cancellable,
                                        NbRunnerProgressFunc progress, gpointer progress_data,
                                        GAsyncReadyCallback callback, gpointer user_data);
/* summary is filled on success; on failure (error) it holds what was run
 * (counts, and the figures when they could be read) — cleared by the
 * caller in both cases. */
gboolean nb_campaign_runner_run_finish (NbCampaignRunner *runner, GAsyncResult *result,
                                        NbRunnerSummary *summary, GError **error);

/* run_async and run_finish under a main loop of its own (a CLI, a test, an
 * import): blocks until the run has ended. */
gboolean nb_campaign_runner_run_sync (NbCampaignRunner *runner, GCancellable *cancellable,
                                      NbRunnerProgressFunc progress, gpointer progress_data,
                                      NbRunnerSummary *summary, GError **error);

/* `campaign import --clause 5|7|8|9 --track F.csv`: a recorded session of an
 * operator-driven robot (columns t_s, x_mm, y_mm[, theta_deg], the
 * instrument's frame: the stored registration applies) replayed through
 * the csv driver into the runner, which finds its trials with the same
 * segmentation as a live run (options.segment) and records them in
 * options.config (created as a run creates it).  summary->run counts them. */
gboolean nb_campaign_import_track (const char *campaign_path, const NbCampaignRunnerOptions *options,
                                   const char *track_path, NbRunnerSummary *summary,
                                   GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbCampaignRunner, nb_campaign_runner_free)

G_END_DECLS
