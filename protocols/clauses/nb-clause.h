/* nb-clause.h — a test clause of ISO 18646-2 as one module: its method table
 *
 * ARCHITECTURE: "Each clause of a standard is one module in protocols/ with a
 * method table — its configurations, options, trial counts, pass rules, how
 * a trial runs, how an imported row becomes a trial, its results and its
 * protocol table — and a registry lists them, like drivers."
 *
 * One file per clause in protocols/clauses/ (nb-clause-pose.c for 5,
 * -detection 6, -avoidance 7, -path 8, -passage 9, -mapping 10) exports one
 * `const NbClause`; nb-clause.c lists them in nb_clause_registry().  Adding
 * a clause (ISO 9283's characteristics later) is one new file and one line
 * there.  The front ends (CLI, GUI, server), the runner, `campaign import`,
 * `campaign results` and the report iterate the registry and call the
 * table; none of them asks "which clause is this" itself.
 *
 * The contract, member by member:
 *
 *  - number, title, table, trials, trial_word, trials_clause: what the
 *    standard says.  title is the ISO wording and a msgid of the "navbench"
 *    domain (the catalogues hold GOST R 60.6.3.15's wording): the report
 *    translates it with nb_tr (lang, title) (nb-catalogue.h), the app
 *    with its own catalogue lookup (_ in app/).
 *  - columns / n_columns: the figure columns of its protocol table, in table
 *    order (key = the JSON member of its figures, title/unit msgids as
 *    title).  The report's tables and the app's figures take them from here.
 *  - options: which of NbClauseOption the clause takes (`campaign run`, the
 *    GUI's controls, `campaign plan`); nb_clause_options() gives each
 *    option's name, help and default as a person reads it.  An option a
 *    clause does not take is refused by the front end naming the clause.
 *  - configurations (): the configurations the standard prescribes (5: three
 *    routes × {no load, rated load}; 6: the six table 2 obstacles, three
 *    outdoors (annex A.5.2); 7: the ten behaviour/obstacle configurations of
 *    7.2, each with its baseline; 8, 9: {no load, rated load}; 10: the one
 *    arena), laid out from an NbClauseEnv (LU, rated load, environment, the
 *    declared ranges).  Each is an NbCampaignConfig as nb_campaign_add_config
 *    stores it (name, route, load, obstacle, behaviour, the LU-derived poses
 *    and the parameters JSON the runner checks a rerun against), appended to
 *    out; the caller owns them (nb_campaign_config_clear).  Names are stable
 *    keys ("straight-no-load", "wooden-wall", "b2-small-cylinder", …) so a
 *    plan can find a configuration again.  FALSE with NB_ERROR_INPUT when
 *    env lacks what the layout needs (no LU: robot.width_mm unset).
 *  - counts (): which stored trials the figures count (the pass rule's
 *    input): ok ones; for the pass/fail clauses 7 and 9 failed ones too.
 *    Aborted and incomplete trials are kept in the file but measure nothing.
 *  - plan_done (): how many of the clause's `trials` a configuration's
 *    stored trials (all of them, in store order) give the plan, which
 *    calls it complete at `trials` (10: the successful maps since the last
 *    failed one, 10.3's three consecutive successes); NULL: the trials
 *    counts () takes (7: those with the obstacle; the baseline gives T0).
 *  - run, layout, contact, goal_clause, baseline: what the campaign runner
 *    says of a run of the clause (NB_CLAUSE_RUN_NONE: not driven, record its
 *    trials with `campaign import`); driven_asks: what it asks the operator
 *    on a real test area when the bench drives the robot (NULL: nothing).
 *  - runner: the clause's trial logic for the campaign runner — its
 *    configuration, trial count, what comes before each trial, how one is
 *    judged and what it stores (NbClauseRunner, nb-runner-private.h, the
 *    module's own code); nb-campaign-runner.c calls it and never asks the
 *    clause's number.  NULL: not driven.
 *  - check_import (), import (): the options `campaign import` takes for the
 *    clause (checked before the campaign file is opened) and how the rows of
 *    its CSV (the format of `compute <clause>`, drivers/formats/
 *    nb-measurements.h) become a configuration and its trials.  import runs
 *    inside the transaction nb_clause_import() opened; it counts the trials
 *    it recorded in *n_trials.  Use nb_clause_import(), not the member.
 *  - compute (): the figures of a configuration from its counted trials
 *    (already filtered by counts, in store order).  A failure of the figures
 *    themselves (too few trials, no sample on the segment) goes to
 *    *figures_error (it becomes NbConfigResult.error); a failure to read the
 *    file to error.  Use nb_config_result_compute(), not the member.
 *  - json (), text (): the figures as `compute <clause> --json` and
 *    `campaign results --json` name them (the CLI contract: one place for the
 *    keys), and as a person reads them, on one line (no newline), figures with their
 *    decimals and "—" when undefined (nb_clause_format_figure).  Every front
 *    end prints a result through these (nb_config_result_json / _text).
 *  - uncertainty (): the uncertainty budget of the figures result holds
 *    (computed without error) from the same counted trials, with the
 *    inputs the campaign states (nb_unc_setup_from_campaign): the models of
 *    core/unc/nb-unc-iso.h on the clause's data (#17).  NULL without error:
 *    no figure to state one of (7 without T0; 9 not passed); NULL with
 *    error: the model failed (NbConfigResult.unc_error).  Called by
 *    nb_config_result_compute, which keeps it in NbConfigResult.unc.
 *    uncertainty_json (): its "uncertainty" member (NULL: nb_unc_json_budget,
 *    one member per figure; 6 nests its obstacles as `compute` does).
 *  - event_json (), event_text (): a runner's trial-ended event, the
 *    clause's part of `campaign run --json` lines and of its text lines
 *    (nb_runner_event_json / _text in nb-runner-events.h).
 *  - export_columns, export_trial (): the clause's measurement table as
 *    `campaign export --trials N` writes it (the columns, NULL-terminated,
 *    and the rows of one counted trial, cell by cell through row), from
 *    which every figure of `campaign results` can be recomputed outside
 *    navbench.  The front end only formats the cells.
 *  - truth_columns, export_truth (): `campaign export --truth`: what a
 *    configuration holds that its trials are measured against (10: the
 *    arena's corners A_1..A_4, 10.2), in the CSV `compute <clause>` reads
 *    it from, cell by cell through row as export_trial does.  Set with
 *    NB_CLAUSE_OPT_TRUTH in options; NULL: the clause has none.
 *  - course (): COURSE: the course a configuration's trials run over for a
 *    robot of width_mm (7.2, 9.2: P0, PG, the obstacle at rest or the
 *    passage's walls), as the runner lays it out; NULL: not a course clause.
 *  - config_json (): what a configuration of the clause holds beside the
 *    members every configuration has (5: the command pose; 8: the commanded
 *    segment), for `campaign info --json`; NULL: nothing more.
 *  - compute_csv (), csv_json (): `compute <clause>`: the figures of the
 *    clause's measurement table(s) (drivers/formats/nb-measurements.h; the
 *    first bad row is an error naming FILE:LINE), with the uncertainty
 *    budget when in->setup is given, into an NbClauseCsvFigures; and that
 *    as the JSON object `compute <clause> --json` prints (the members of
 *    the object begun).  Use nb_clause_compute_csv () and
 *    nb_clause_csv_json (), not the members.  The front end only prints.
 *  - passed (): the verdict of a pass/fail clause (7.3, 9.3) from a
 *    configuration's figures, the plan's "passed"/"failed"
 *    (nb-campaign-plan.c); NULL: the clause states figures, no verdict.
 *  - covers (), describe (): the protocol's coverage table (reports/
 *    nb-protocol-coverage.c).  covers: whether the campaign's configuration
 *    config tests the prescribed one (one of configurations ()), decided on
 *    its kind, not its name (the names are the laboratory's); labels holds
 *    the labels of the counted trials of every configuration of the clause
 *    in the campaign (6: the obstacles placed).  describe: the prescribed
 *    configuration as a person reads it, in lang (new string).
 */
#pragma once

#include <glib.h>
#include "nb-record-words.h"

#include "nb-campaign.h"
#include "nb-campaign-results.h"
#include "nb-catalogue.h"
#include "nb-clause-results.h"
#include "nb-course.h"
#include "nb-json-writer.h"
#include "nb-map-file.h"
#include "nb-unc-iso.h"

G_BEGIN_DECLS

/* A figure column of a protocol table. */
typedef struct {
  const char *key;              /* the figures' JSON member and the table model's column key */
  const char *title;            /* msgid ("navbench") */
  const char *unit;             /* msgid, a symbol (°, %) or NULL */
  guint decimals;
} NbClauseColumn;

/* The options a clause may take; NbClause.options is a set of them. */
typedef enum {
  NB_CLAUSE_OPT_ROUTE          = 1 << 0,  /* straight | rectangular | combined */
  NB_CLAUSE_OPT_LOAD           = 1 << 1,  /* load_kg (no load: 0) */
  NB_CLAUSE_OPT_TRIALS         = 1 << 2,  /* how many trials a run makes */
  NB_CLAUSE_OPT_OBSTACLE       = 1 << 3,  /* a table 2 obstacle */
  NB_CLAUSE_OPT_ALL_OBSTACLES  = 1 << 4,  /* no obstacle given: all six (6.3) */
  NB_CLAUSE_OPT_BEHAVIOUR      = 1 << 5,  /* fig. 8 behaviour 1–4 */
  NB_CLAUSE_OPT_PHASE          = 1 << 6,  /* auto | baseline | obstacle */
  NB_CLAUSE_OPT_RANGES         = 1 << 7,  /* the declared minimum and maximum range */
  NB_CLAUSE_OPT_PASSAGE_WIDTH  = 1 << 8,  /* the declared passage width */
  NB_CLAUSE_OPT_GOAL_TOLERANCE = 1 << 9,  /* "PG reached" (7.3 c, 9.3 c) */
  NB_CLAUSE_OPT_STRAIGHT_ONLY  = 1 << 10, /* with ROUTE: only the straight route (8.3) */
  NB_CLAUSE_OPT_MAP            = 1 << 11, /* import: the robot's map instead of a CSV (10) */
  NB_CLAUSE_OPT_TRUTH          = 1 << 12, /* export: the reference the trials are measured
                                           * against instead of them (10: the arena's corners) */
} NbClauseOption;

typedef struct {
  NbClauseOption option;
  const char *name;             /* the CLI's long option: "route" */
  const char *help;             /* for a person */
  const char *default_text;     /* the default as a person reads it */
} NbClauseOptionInfo;

/* How the campaign runner drives the clause's trials (nb-campaign-runner.h
 * says what each does). */
typedef enum {
  NB_CLAUSE_RUN_NONE,           /* not driven: campaign import records its trials */
  NB_CLAUSE_RUN_POSE,           /* 5: the route from P0, the attained pose at its target */
  NB_CLAUSE_RUN_PATH,           /* 8: the straight route, the track stored, d_i from it */
  NB_CLAUSE_RUN_PLACEMENTS,     /* 6: the robot stays at P0, the rig places the obstacles */
  NB_CLAUSE_RUN_COURSE,         /* 7, 9: P0 → PG over a course, timed, contact measured */
  NB_CLAUSE_RUN_MAPS,           /* 10: maps of the arena, the robot's own */
} NbClauseRun;

/* What the configurations are laid out from (nb_clause_env_from_campaign
 * reads it from a campaign's fields). */
typedef struct {
  double lu_mm;                 /* 4.5; NaN: robot.width_mm is not set */
  double robot_width_mm;        /* NaN when not set */
  double rated_load_kg;         /* robot.rated_load_kg; NaN: not declared (the rated-load
                                 * configurations then carry load_kg NaN) */
  gboolean outdoor;             /* conditions.environment = outdoor (annex A) */
  double min_range_mm;          /* 6: declared by the manufacturer; NaN: not yet */
  double max_range_mm;
  double passage_width_mm;      /* 9: declared; NaN: robot width + 200 mm (decided) */
  /* 4.5: the routes' legs the manufacturer declares (LU; default
   * NB_ROUTE_DEFAULT_LEG_LU) and whether it declares clockwise routes too. */
  double leg1_lu, leg2_lu;
  gboolean clockwise;
} NbClauseEnv;

void     nb_clause_env_init          (NbClauseEnv *env);
gboolean nb_clause_env_from_campaign (NbCampaign *campaign, NbClauseEnv *env, GError **error);

/* What `campaign import` was given. */
typedef struct {
  const char *input;            /* the CSV (the format of compute <clause>); NULL with map */
  const char *config;           /* the configuration to create; 7, 9: NULL: every config of
                                 * the file, else only its rows */
  const NbCampaignConfig *given;/* the configuration's route, load, obstacle, behaviour,
                                 * parameters, and command (5), from/to (8), truth (10) as
                                 * parsed from the options (NaN / NULL when not given) */
  gboolean have_command;        /* 5: --command given */
  gboolean have_segment;        /* 8: --from and --to given */
  gboolean have_truth;          /* 10: --truth given (given->truth_mm) */
  const char *map;              /* 10: the robot's map (map_server YAML) instead of input */
  double build_time_s;          /* 10, with map: NaN when not given */
  double defect_range_mm;       /* 10: the experts' accepted range of map defects (10.2),
                                 * NaN when not given */
} NbClauseImport;

/* A cell of an exported measurement table: text when text is set, else a
 * number (NaN: empty). */
typedef struct {
  const char *text;
  double number;
} NbClauseCell;

/* One row of an export; FALSE (with error) stops it. */
typedef gboolean (*NbClauseExportRow) (const NbClauseCell *cells, guint n_cells, gpointer data,
                                       GError **error);

typedef struct _NbClause NbClause;

/* What `compute <clause>` is given. */
typedef struct {
  const char *input;            /* 5–9: the CSV (- for stdin) */
  const char *truth, *map;      /* 10: the arena's corners, the map's corners per trial */
  NbPose command;               /* 5: the command pose */
  NbSegment segment;            /* 8: P0 → P1 */
  const NbUncSetup *setup;      /* the budget's inputs; NULL: no budget */
  guint64 seed;                 /* of the Monte Carlo */
} NbClauseCsv;

/* 7, 9: one configuration of the table, in order of first appearance. */
typedef struct {
  const char *config;           /* owned by the figures' rows */
  GArray *baseline;             /* of NbTimedTrial; 7 only */
  GArray *trials;               /* with the obstacle (7) or through the passage (9) */
  NbAvoidanceResult avoidance;  /* 7 */
  NbPassageResult passage;      /* 9 */
  NbUncBudget *budget;          /* NULL: none */
} NbClauseCsvConfig;

/* The figures of a measurement table, by clause. */
typedef struct {
  const NbClause *clause;
  NbPoseResult pose;            /* 5 */
  GArray *placements;           /* 6: of NbPlacement */
  NbDetectionResult detection;  /* 6 */
  GArray *rows;                 /* 7, 9: of NbTimedRow */
  GArray *configs;              /* 7, 9: of NbClauseCsvConfig */
  NbPathRun *run;               /* 8: the trials, grouped */
  double *d_mm;                 /* 8: d_i per trial */
  guint n_trials;               /* 8, 10 */
  NbPathResult path;            /* 8 */
  GArray *maps;                 /* 10: of NbMapCorners */
  double *dm_mm, *heading_deg;  /* 10: per trial */
  double accuracy_mm;           /* 10: the largest Dm of three consecutive maps (10.3) */
  NbUncBudget *budget;          /* 5, 6, 8, 10; NULL: none */
} NbClauseCsvFigures;

/* nb-campaign-runner.h */
typedef struct _NbRunnerEvent NbRunnerEvent;
/* nb-runner-private.h: how the campaign runner drives the clause's trials */
typedef struct _NbClauseRunner NbClauseRunner;

struct _NbClause {
  /* What the standard says. */
  guint number;                 /* 5..10 */
  const char *title;            /* ISO 18646-2 wording (msgid) */
  guint table;                  /* the protocol table of the clause's results */
  guint trials;                 /* trials per configuration the clause asks for */
  const char *trial_word;       /* what one is called: "trials", "placements" */
  const char *trials_clause;    /* where it says so */
  const NbClauseColumn *columns;
  guint n_columns;
  gboolean statistics_of_n;     /* the figures are statistics of n trials (5, 8): show n */
  guint options;                /* NbClauseOption set */
  NbClauseRun run;
  /* What the runner says of a run of it: */
  const char *layout;           /* the course it lays out itself ("7.2: P0 to PG 9 LU"), for
                                 * a clause that takes no route; NULL otherwise */
  const char *contact;          /* COURSE: what a trial may touch ("the obstacle") */
  const char *goal_clause;      /* COURSE: where "PG reached" is asked ("7.3 c") */
  gboolean baseline;            /* COURSE: trials without obstacle first (T0, 7.3) */
  /* What a run asks the operator when the bench drives a real robot (the
   * motion stack's HTTP robot, a test area without the simulator's
   * fixtures), as a message says it ("to place the obstacle and whether
   * the robot touched it (7.3)"); NULL: nothing (5, 8: the bench sends the
   * robot to P0 and the instrument measures the trial).  A front end
   * needs an answerer (--prompts) only when the clause it runs asks; an
   * operator-driven robot is always asked (the robot at P0). */
  const char *driven_asks;
  /* How the campaign runner drives its trials (the clause's module's code;
   * nb-runner-private.h); NULL: not driven, campaign import records them. */
  const NbClauseRunner *runner;

  gboolean (*configurations) (const NbClauseEnv *env, GArray *out /* of NbCampaignConfig */,
                              GError **error);
  gboolean (*counts)         (const NbCampaignTrial *trial);
  guint    (*plan_done)      (const GArray *trials /* of NbCampaignTrial, store order */);
  gboolean (*check_import)   (const NbClauseImport *in, GError **error);
  gboolean (*import)         (NbCampaign *campaign, const NbClauseImport *in, guint *n_trials,
                              GError **error);
  gboolean (*compute)        (NbCampaign *campaign, const NbCampaignConfig *config,
                              GPtrArray *trials /* of NbCampaignTrial *, counted */,
                              NbConfigResult *result, GError **figures_error, GError **error);
  void     (*json)           (NbJsonWriter *w, const NbConfigResult *result);
  void     (*text)           (GString *out, const NbConfigResult *result);
  NbUncBudget *(*uncertainty) (const NbUncSetup *setup, const NbCampaignConfig *config,
                               GPtrArray *trials /* of NbCampaignTrial *, counted */,
                               const NbConfigResult *result, guint64 seed, GError **error);
  void     (*uncertainty_json) (NbJsonWriter *w, const NbConfigResult *result);
  /* A trial-ended event of the runner: its clause's members (JSON) and
   * what a person reads of the trial (NULL: nothing to say). */
  void     (*event_json)     (NbJsonWriter *w, const NbRunnerEvent *event);
  char    *(*event_text)     (const NbRunnerEvent *event);
  /* campaign export --trials N, campaign info (the contract above). */
  const char *const *export_columns;
  gboolean (*export_trial)   (NbCampaign *campaign, const NbCampaignConfig *config,
                              const NbCampaignTrial *trial, NbClauseExportRow row, gpointer data,
                              GError **error);
  const char *const *truth_columns;
  gboolean (*export_truth)   (const NbCampaignConfig *config, NbClauseExportRow row,
                              gpointer data, GError **error);
  void     (*config_json)    (NbJsonWriter *w, const NbCampaignConfig *config);
  /* COURSE: the configuration's course (the contract above). */
  gboolean (*course)         (const NbCampaignConfig *config, double width_mm, NbCourse *course,
                              GError **error);
  /* compute <clause> (the contract above). */
  gboolean (*compute_csv)    (const NbClauseCsv *in, NbClauseCsvFigures *out, GError **error);
  void     (*csv_json)       (NbJsonWriter *w, const NbClauseCsvFigures *figures);
  /* The plan's verdict; the protocol's coverage (the contract above). */
  gboolean (*passed)         (const NbConfigResult *result);
  gboolean (*covers)         (const NbCampaignConfig *prescribed, const NbCampaignConfig *config,
                              GHashTable *labels /* set of the trials' labels */);
  char    *(*describe)       (const NbCatalogue *lang, const NbCampaignConfig *prescribed);
};

/* The clauses in number order; *n_clauses set. */
const NbClause *const *nb_clause_registry (guint *n_clauses);
/* NULL for a number that is not a test clause. */
const NbClause *nb_clause_lookup (guint number);
/* The older name of nb_clause_lookup. */
static inline const NbClause *
nb_clause_get (guint number)
{
  return nb_clause_lookup (number);
}

/* TRUE when the campaign runner drives the clause's trials (it has a
 * runner: `campaign run`, the window's Run); FALSE: `campaign import`
 * records them. */
gboolean nb_clause_driven (const NbClause *clause);

/* The options of NbClauseOption, each once. */
const NbClauseOptionInfo *nb_clause_options (guint *n_options);
/* TRUE when the clause takes option. */
gboolean nb_clause_takes (const NbClause *clause, NbClauseOption option);
/* NB_ERROR_INPUT "WHAT is for clauses 6 and 7" (the clauses of the registry
 * that take it) when clause does not take option; what: the front end's
 * name of it ("--obstacle"). */
gboolean nb_clause_refuse_option (const NbClause *clause, NbClauseOption option, const char *what,
                                  GError **error);

/* One figure column by key; NULL when the clause has none of that key. */
const NbClauseColumn *nb_clause_column (const NbClause *clause, const char *key);

/* A note for the protocol when a configuration has fewer (or more) trials than
 * the clause asks for; NULL when the count is as the standard says. */
char *nb_clause_check_trials (const NbClause *clause, guint n_trials);

/* The configurations every clause prescribes, in clause order (of
 * NbCampaignConfig, cleared with the array). */
GArray *nb_clause_all_configurations (const NbClauseEnv *env, GError **error);

/* campaign import: checks in, opens one transaction on campaign, records,
 * logs "N trials imported" and commits; on any failure rolls back and
 * returns FALSE with error (nothing recorded). */
gboolean nb_clause_import (const NbClause *clause, NbCampaign *campaign,
                           const NbClauseImport *in, guint *n_trials, GError **error);

/* compute <clause>: out zeroed and filled (cleared again on failure). */
gboolean nb_clause_compute_csv       (const NbClause *clause, const NbClauseCsv *in,
                                      NbClauseCsvFigures *out, GError **error);
void     nb_clause_csv_figures_clear (NbClauseCsvFigures *figures);
/* The JSON object `compute <clause> --json` prints (new string). */
char    *nb_clause_csv_json          (const NbClauseCsvFigures *figures);

/* A configuration's figures into the object the caller has begun: "config",
 * then "error" or the clause's members (json above). */
void nb_config_result_json (NbJsonWriter *w, const NbConfigResult *result);
/* The figures for a person, on one line without its end (text above), or
 * "cannot be computed: why". */
void nb_config_result_text (GString *out, const NbConfigResult *result);

/* A trial-ended event's clause members (into the object begun) and its
 * text for a person (NULL: nothing to say), by the event's clause. */
void  nb_runner_event_json (NbJsonWriter *w, const NbRunnerEvent *event);
char *nb_runner_event_text (const NbRunnerEvent *event);

/* 7.3 c, 8.3 b, 9.3 c: "PG reached within the clause 5 repeatability"
 * (nb-clause-goal.c says how it is read).  The robot has reached PG when its
 * attained position is within rp_mm of PG moved by (along_mm, across_mm)
 * along and across PG's heading, and its heading within ro_deg of PG's +
 * ao_deg. */
/* (NbGoalTolerance is in nb-campaign-results.h.) */

void     nb_goal_tolerance_init  (NbGoalTolerance *tol);
void     nb_goal_tolerance_clear (NbGoalTolerance *tol);
/* The operator's tolerance about PG: mm or deg (NaN: keep what tol has). */
void     nb_goal_tolerance_given (NbGoalTolerance *tol, double mm, double deg);
/* From the campaign's clause 5 figures on the straight route, the same load
 * first; NB_ERROR_NOT_FOUND when there are none. */
gboolean nb_goal_tolerance_from_campaign (NbCampaign *campaign, double load_kg,
                                          NbGoalTolerance *tol, GError **error);
/* Whether attained is within tol of goal; the distance from the expected
 * position and the heading's deviation from the expected heading (NaN when
 * attained has no heading: then only the position is judged). */
gboolean nb_goal_reached (const NbGoalTolerance *tol, const NbPose *goal, const NbPose *attained,
                          double *miss_mm, double *turn_deg);
/* What the runner logs of the tolerance it used (the event's new value is
 * nb_goal_tolerance_to_json; subject "clause N, config 'NAME'"). */
#define NB_GOAL_TOLERANCE_EVENT NB_EVENT_GOAL_TOLERANCE
char    *nb_goal_tolerance_to_json   (const NbGoalTolerance *tol);
/* FALSE (no error) when text is not such a JSON. */
gboolean nb_goal_tolerance_from_json (const char *text, NbGoalTolerance *tol);
/* (The protocol states the rule: reports/nb-protocol-report.c, goal_describe.) */

/* 5.4 a (and 7.3 a, 8.3 a, 9.3 a): "the robot is placed at P0".  Decided:
 * a trial whose first sample lies farther than this from P0, or turned
 * more, did not start at P0 and is flagged. */
#define NB_START_TOLERANCE_MM  50.0
#define NB_START_TOLERANCE_DEG 5.0
/* Each counted trial's start pose (the first sample of its track) against
 * p0, into result's start_* members. */
gboolean nb_clause_check_start (NbCampaign *campaign, GPtrArray *trials /* of NbCampaignTrial */,
                                const NbPose *p0, NbConfigResult *result, GError **error);

/* Annex A.4: "suitable GPS equipment with a measurement accuracy sufficient
 * for a linear measurement error of ±0.5 % is also considered suitable for
 * the tests of clause 5". */
#define NB_GNSS_LINEAR_ERROR_PCT 0.5
/* Whether a measurement system (instrument.kind) is satellite positioning:
 * GNSS, GPS, RTK, NMEA, GLONASS in its words, any case. */
gboolean nb_clause_pose_is_gnss      (const char *instrument_kind);
/* A.4 met: |linear error| ≤ 0.5 %; FALSE for NaN. */
gboolean nb_clause_pose_gnss_accepted (double linear_error_pct);

/* A figure for a person: decimals, "—" when undefined; buf ≥ 32 bytes.
 * The one figure printer of every front end. */
const char *nb_clause_format_figure (char buf[32], double value, int decimals);

/* Clause 10: a trial's map analysed as the clause module judged it (10.2,
 * 10.3: the campaign's accepted defect range, the configuration's truth and
 * reference feature): its fitted corners and the defects found, to be drawn
 * (the window's maps).  An error names the file. */
NbMapAnalysis *nb_clause_mapping_analyse (NbCampaign *campaign, const NbCampaignConfig *config,
                                          const char *map_path, GError **error);

G_END_DECLS
