/* nb-clause-results.h — measured rows → the figures of a clause
 *
 * One place for how the rows of clauses 6 and 8 are grouped into figures,
 * shared by `compute` (rows from a CSV file) and `campaign results` (rows
 * from the campaign store), so both give the same figures from the same
 * measurements; and the clause 10 accuracy from its Dm values.  Clauses 5,
 * 7 and 9 need no grouping beyond a call of the metric engine (nb-metrics.h).
 */
#pragma once

#include <glib.h>

#include "nb-metrics.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------ 6 -- */

typedef struct {
  char *obstacle;
  NbDetectionTally tally;
} NbObstacleTally;

/* Placements tallied per obstacle (in order of first appearance) and over all. */
typedef struct {
  NbDetectionTally all;
  GArray *obstacles;            /* of NbObstacleTally */
  GHashTable *index;            /* obstacle → index in obstacles */
} NbDetectionResult;

void nb_detection_result_init  (NbDetectionResult *result);
void nb_detection_result_clear (NbDetectionResult *result);
void nb_detection_result_add   (NbDetectionResult *result, const char *obstacle, double true_mm,
                                gboolean detected, double measured_mm);

/* ------------------------------------------------------------------ 8 -- */

typedef struct {
  char *label;
  guint64 first_line;           /* where the trial starts in its file; 0 when not from a file */
  NbPathTrial acc;
} NbPathRunTrial;

/* Samples grouped by trial label, trials in order of first appearance (a
 * trial may return after another); O(trials) memory. */
typedef struct _NbPathRun NbPathRun;

NbPathRun *nb_path_run_new     (const NbSegment *segment);
void       nb_path_run_free    (NbPathRun *run);
/* new_run: the label differs from the sample before. */
void       nb_path_run_push    (NbPathRun *run, const char *label, gboolean new_run, guint64 line,
                                double x_mm, double y_mm);
guint      nb_path_run_n_trials (const NbPathRun *run);
const NbPathRunTrial *nb_path_run_trial (const NbPathRun *run, guint i);
guint64    nb_path_run_samples (const NbPathRun *run);
/* d_i of each trial (a new array of nb_path_run_n_trials) and the figures.
 * A trial none of whose samples falls on the segment is an error, prefixed
 * with "WHERE:LINE: " when where is given. */
double    *nb_path_run_finish  (NbPathRun *run, const char *where, NbPathResult *result,
                                GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbPathRun, nb_path_run_free)

/* ----------------------------------------------------------------- 10 -- */

/* 10.3: "the mapping accuracy is the maximum Dm of three consecutive
 * successful trials".  Over the trials in order (ok[i]: trial i succeeded;
 * ok NULL: all did), the first run of three consecutive successes gives the
 * figure, the largest of its three Dm (decided: the first run, as 7.3 takes
 * the first three trials).  NaN when the series has no such run; *first
 * (may be NULL) the index of the run's first trial (G_MAXUINT without). */
#define NB_MAPPING_CONSECUTIVE 3
double nb_mapping_accuracy_mm (const double *dm_mm, const gboolean *ok, guint n, guint *first);

G_END_DECLS
