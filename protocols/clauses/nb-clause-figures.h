/* nb-clause-figures.h — the JSON members of each clause's figures
 *
 * One place for the key names `compute <clause> --json` and `campaign
 * results --json` print (the CLI contract), so the two cannot drift apart.
 * Each writes members into the object the caller has begun.
 */
#pragma once

#include <glib.h>

#include "nb-clause-results.h"
#include "nb-json-writer.h"
#include "nb-metrics.h"
#include "nb-unc-iso.h"

G_BEGIN_DECLS

void nb_clause_json_pose      (NbJsonWriter *w, const NbPoseResult *res);
void nb_clause_json_detection (NbJsonWriter *w, const NbDetectionResult *res);
void nb_clause_json_avoidance (NbJsonWriter *w, const NbAvoidanceResult *res);
/* labels and d_mm: one per trial. */
void nb_clause_json_path      (NbJsonWriter *w, const NbPathResult *res, guint64 samples,
                            const char *const *labels, const double *d_mm, guint n);
void nb_clause_json_passage   (NbJsonWriter *w, const NbPassageResult *res);
void nb_clause_json_mapping   (NbJsonWriter *w, const guint *trials, const double *dm_mm,
                               const double *heading_deg /* NULL: not given */, guint n,
                               double accuracy_mm);

/* #17, clause 6: the budget of the detected placements among the n
 * placements (obstacle names as res tallied them); NULL without error when
 * none was detected.  Its "uncertainty" member: {"mean_accuracy_pct": …,
 * "obstacles": [one per obstacle of res, null where none was detected]}.
 * `compute detection` and the clause module both use these. */
NbUncBudget *nb_clause_unc_detection     (const NbUncSetup *setup, const NbDetectionResult *res,
                                          const char *const *obstacle, const double *true_mm,
                                          const double *measured_mm, const gboolean *detected,
                                          guint n, guint64 seed, GError **error);
void         nb_clause_json_detection_unc (NbJsonWriter *w, const NbUncBudget *budget,
                                           const NbDetectionResult *res);

G_END_DECLS
