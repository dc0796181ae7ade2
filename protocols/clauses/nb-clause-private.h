/* nb-clause-private.h — what the clause modules share, for protocols/clauses/ only */
#pragma once

#include "nb-clause.h"
#include "nb-clause-figures.h"

G_BEGIN_DECLS

/* The modules (nb-clause-*.c); the registry lists them in nb-clause.c. */
extern const NbClause nb_clause_pose;       /* 5 */
extern const NbClause nb_clause_detection;  /* 6 */
extern const NbClause nb_clause_avoidance;  /* 7 */
extern const NbClause nb_clause_path;       /* 8 */
extern const NbClause nb_clause_passage;    /* 9 */
extern const NbClause nb_clause_mapping;    /* 10 */

/* configurations (): a fresh configuration appended to out (numbers NaN,
 * strings NULL but name); the pointer is valid until out grows. */
NbCampaignConfig *nb_clause_config_append (GArray *out, guint clause, const char *name,
                                           double load_kg);
/* The rated load, or 0 for "no load". */
double            nb_clause_load          (const NbClauseEnv *env, gboolean rated);
/* NB_ERROR_INPUT naming the clause when env has no LU. */
gboolean          nb_clause_need_lu       (const NbClauseEnv *env, guint clause, GError **error);

/* A number for a JSON text: "%.17g", or "null" when not finite; buf ≥ 32. */
const char       *nb_clause_json_number   (char buf[32], double value);

/* import (): a new configuration name of clause, from what the options gave
 * (refused when the name exists); config is cleared first. */
gboolean nb_clause_new_config     (NbCampaign *campaign, guint clause, const char *name,
                                   const NbCampaignConfig *given, NbCampaignConfig *config,
                                   GError **error);
/* check_import (): --config is required. */
gboolean nb_clause_require_config (const NbClauseImport *in, GError **error);

/* covers (), describe (): a configuration's load — 1 rated, 0 none, -1
 * when it does not say (its load_kg, else its name: "rated", "no load");
 * whether a prescribed one is of the rated load (its name); the table 2
 * obstacle a name means ("table" is the wooden table); "rated load" or
 * "no load" in lang. */
int               nb_clause_load_kind          (const NbCampaignConfig *config);
gboolean          nb_clause_prescribed_rated   (const NbCampaignConfig *prescribed);
const char       *nb_clause_canonical_obstacle (const char *name);
const char       *nb_clause_load_words         (const NbCatalogue *lang,
                                                const NbCampaignConfig *prescribed);
/* covers () of a clause whose configurations differ only by load (8, 9). */
gboolean          nb_clause_covers_load        (const NbCampaignConfig *prescribed,
                                                const NbCampaignConfig *config,
                                                GHashTable *labels);

/* compute_csv () of 7, 9: the rows (NbTimedRow) by configuration, in
 * order of first appearance (of NbClauseCsvConfig, cleared with the
 * array; config borrowed from rows); csv_json () of 7, 9: "configs", each
 * {config, the figures' members, uncertainty}. */
GArray  *nb_clause_csv_group_configs (GArray *rows);
void     nb_clause_csv_json_configs  (NbJsonWriter *w, const NbClauseCsvFigures *figures,
                                      void (*members) (NbJsonWriter *w,
                                                       const NbClauseCsvConfig *config));

/* Pass rule of the clauses whose figures count only the ok trials. */
gboolean nb_clause_counts_ok      (const NbCampaignTrial *trial);
/* Pass rule of the pass/fail clauses (7, 9): a failed trial is a result. */
gboolean nb_clause_counts_judged  (const NbCampaignTrial *trial);

G_END_DECLS

G_BEGIN_DECLS

/* 7, 9: the rows of a timed CSV (config[, kind], trial, time_s, success)
 * as trials of their configurations (created from in->given; only
 * in->config's rows when given). */
gboolean nb_clause_import_timed  (NbCampaign *campaign, const NbClause *clause,
                                  const NbClauseImport *in,
                                  GArray *rows /* of NbTimedRow */, guint *n_trials,
                                  GError **error);
/* 7, 9: the counted trials as NbTimedTrial, the baseline ones (kind
 * "baseline") apart; both arrays new. */
void     nb_clause_timed_trials  (GPtrArray *trials, GArray **baseline, GArray **timed);

G_END_DECLS

G_BEGIN_DECLS

/* A pose as a JSON member: {x_mm, y_mm, theta_deg}, null when not measured. */
void  nb_clause_json_pose_member    (NbJsonWriter *w, const char *key, const NbPose *pose);
/* 7, 9: a course trial's event (kind, number, time, clearance, attained). */
void  nb_clause_course_event_json   (NbJsonWriter *w, const NbRunnerEvent *event);
char *nb_clause_course_event_text   (const NbRunnerEvent *event);

G_END_DECLS

/* The runner's methods the clause modules share (nb-runner-private.h). */
#include "nb-runner-private.h"

G_BEGIN_DECLS

/* 7, 9 (nb-clause-course.c): the configuration of the course found (its
 * load and LU checked) or begun (name, clause, load: the caller lays out
 * its course and parameters and stores it); run->width_mm read. */
gboolean nb_clause_course_config  (NbRun *run, gboolean *found, double *lu_mm, GError **error);
/* run->route: P0 → PG of run->course, heading 0°. */
void     nb_clause_course_route   (NbRun *run);
/* 7.3 c), 9.3 c): run->tol_mm, tol_deg, given or from clause 5. */
gboolean nb_clause_course_tolerance (NbRun *run, GError **error);
/* NbClauseRunner members of a course clause. */
gboolean nb_clause_course_judge   (NbRun *run, double arrival, NbCampaignTrial *t,
                                   NbRunnerEvent *ev, gboolean *cancelled, GError **error);
gboolean nb_clause_course_judge_segmented (NbRun *run, guint k, const NbPose *attained,
                                           NbCampaignTrial *t, NbRunnerEvent *ev,
                                           GError **error);
void     nb_clause_course_ended   (NbRun *run, const NbCampaignTrial *t, NbRunnerEvent *ev);
/* compute (): 7.3 c, 9.3 c — imported trials with an attained pose judged
 * against the clause 5 figures about PG (r->goal, goal_judged, goal_reached,
 * goal_missed: the successes beyond it). */
gboolean nb_clause_course_judge_imported (NbCampaign *campaign, const NbCampaignConfig *c,
                                          GPtrArray *trials, NbConfigResult *r, GError **error);

G_END_DECLS
