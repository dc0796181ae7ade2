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

G_END_DECLS
