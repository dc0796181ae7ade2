/* nb-campaign-results.h — a configuration's figures from the trials stored in a campaign
 *
 * One place for which stored trials a clause counts and how they become the
 * figures of the metric engine, shared by `campaign results`, the protocol
 * report and (later) the desktop application.
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-clause-results.h"
#include "nb-json-writer.h"
#include "nb-metrics.h"
#include "nb-unc-iso.h"

G_BEGIN_DECLS

/* Trials the figures of a clause count (NbClause.counts): ok ones; for 7
 * and 9 (pass/fail clauses) also failed ones.  Aborted and incomplete trials
 * are kept in the file but measure nothing. */
gboolean nb_campaign_trial_counts (guint clause, const NbCampaignTrial *trial);

/* 7.3 c, 8.3 b, 9.3 c: "PG reached within the clause 5 repeatability"
 * (nb-clause-goal.c; the functions are in nb-clause.h). */
typedef struct {
  char *config;                 /* the clause 5 configuration it comes from; NULL: the
                                 * operator's tolerance about PG itself */
  double along_mm, across_mm;   /* clause 5's barycentre − command, in the command's heading */
  double rp_mm;                 /* Rp */
  double ao_deg;                /* Ao */
  double ro_deg;                /* Ro */
  double load_kg;               /* of that configuration */
  gboolean given_mm, given_deg; /* the operator gave the position's or the heading's part
                                 * (about PG itself: offset 0, Ao 0) */
} NbGoalTolerance;

/* 8.3 b: a trial that ended beyond the tolerance. */
typedef struct {
  char *label;
  double miss_mm;               /* from where clause 5 ends */
  double turn_deg;              /* NaN: no heading measured */
} NbGoalMiss;

/* 5.4 a (8.3 a, 7.3 a, 9.3 a): a trial that did not start at P0. */
typedef struct {
  guint number;                 /* the trial's number (its seq when it has none) */
  double off_mm;                /* its first sample's distance from P0 */
  double turn_deg;              /* its heading's from P0's; NaN: none measured */
} NbStartOff;

/* One configuration's figures. */
typedef struct {
  guint clause;
  char *config;
  char *error;                          /* the figures could not be computed: why */
  NbPoseResult pose;                    /* 5 */
  NbDetectionResult detection;          /* 6 */
  NbAvoidanceResult avoidance;          /* 7 */
  NbPathResult path;                    /* 8 */
  NbPathRun *path_run;                  /* 8 */
  double *d_mm;                         /* 8: d_i per trial of path_run */
  GArray *values;                       /* 10: Dm per trial (double) */
  GArray *numbers;                      /* 10: trial numbers (guint) */
  GArray *succeeded;                    /* 10: per trial (gboolean): the map was accepted */
  guint window;                         /* 10: index of the first of the three consecutive
                                         * successful trials of the figure; G_MAXUINT: none */
  double accuracy_mm;                   /* 10 */
  GArray *headings;                     /* 10: per trial (double), the map's heading against
                                         * the arena's, ° (nb_map_heading_deg) */
  double heading_tolerance_deg;         /* 10: a map turned by more is flagged */
  double defect_range_mm;               /* 10: the experts' accepted defect range (10.2);
                                         * NaN: not stated */
  NbPassageResult passage;              /* 9 */
  /* 7.1: each trial with the obstacle keeps at least the manufacturer's
   * minimum distance. */
  double declared_min_distance_mm;      /* robot.min_avoidance_distance_mm; NaN: not declared */
  double clearance_min_mm;              /* smallest over the trials with the obstacle whose
                                         * clearance was measured; NaN: none was */
  guint clearance_measured;             /* those trials */
  /* 5.4 a, 7.3 a, 8.3 a, 9.3 a: each trial starts at P0; its start pose is
   * the first sample of its track (nb_clause_check_start). */
  guint start_checked;                  /* trials with a track */
  guint start_unrecorded;               /* trials without (imported): not checked */
  double start_tolerance_mm, start_tolerance_deg;
  GArray *start_off;                    /* NbStartOff beyond the tolerance, or NULL */
  GArray *too_close;                    /* their numbers (guint) closer than declared */
  /* 8.3 b (and the rule 7.3 c, 9.3 c state): "the target reached within the
   * clause 5 repeatability".  goal.rp_mm NaN: no clause 5 figures to judge by. */
  NbGoalTolerance goal;
  guint goal_judged;                    /* 8: trials whose end was judged */
  guint goal_reached;                   /* 8: of them, within the tolerance */
  GArray *goal_missed;                  /* 8: the others (NbGoalMiss), or NULL */
  /* #17: the figures' uncertainty (NbClause.uncertainty) when the campaign
   * states the measurement system's accuracy; NULL otherwise.  unc_error:
   * the budget could not be made (the figures stand). */
  NbUncBudget *unc;
  char *unc_error;
} NbConfigResult;

/* Computes result's figures from the counted trials of config.  A failure of
 * the figures (too few trials, no sample on the segment) goes into
 * result->error and returns TRUE; a failure to read the file sets error. */
gboolean nb_config_result_compute (NbCampaign *campaign, const NbCampaignConfig *config,
                                   NbConfigResult *result, GError **error);
/* The same without the uncertainty budgets (result->unc stays NULL): for
 * the rules that read a figure (the plan's verdicts, the goal tolerance of
 * 7.3 c / 9.3 c, a trial's running figures), which would otherwise run the
 * budgets' Monte Carlo after every trial. */
gboolean nb_config_result_compute_figures (NbCampaign *campaign, const NbCampaignConfig *config,
                                           NbConfigResult *result, GError **error);
/* Frees what result holds (a GDestroyNotify for arrays of results). */
void     nb_config_result_clear   (gpointer result);

/* The figures of every configuration of every clause (`campaign results`,
 * the report, the app), clause by clause in registry order. */
typedef struct {
  guint clause;
  GArray *results;                      /* of NbConfigResult, in the store's order */
} NbClauseResults;

typedef struct {
  NbClauseResults *clauses;
  guint n_clauses;
} NbCampaignResults;

NbCampaignResults *nb_campaign_results_compute (NbCampaign *campaign, GError **error);
void               nb_campaign_results_free    (NbCampaignResults *results);
/* `campaign results --json`: {"clauses": {"5": [{config…}, …], …}}. */
char              *nb_campaign_results_json    (const NbCampaignResults *results);
/* For a person: a heading per clause with configurations, a line each. */
char              *nb_campaign_results_text    (const NbCampaignResults *results);
/* What the campaign keeps of them: each clause's array (as in the JSON
 * above) by nb_campaign_store_result, in one transaction. */
gboolean           nb_campaign_results_store   (NbCampaign *campaign,
                                                const NbCampaignResults *results, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbCampaignResults, nb_campaign_results_free)

G_END_DECLS
