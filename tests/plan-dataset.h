/* plan-dataset.h — a seeded generator of branch plans with known faults
 *
 * Valid plans are built from assembly scenarios over the skills of seeds/000
 * (Cyrillic object names with №); a share of them gets exactly one injected
 * fault, each chosen so that it causes exactly one violation of a known kind
 * and nothing else.  The expected summary is therefore exact.
 */
#pragma once

#include "nb-plan.h"

#include <glib.h>

typedef struct {
  guint64 plans;
  guint64 valid;                         /* without strict */
  guint64 valid_strict;
  guint64 with_warnings;                 /* without strict */
  guint64 errors[NB_PLAN_N_KINDS];       /* without strict */
  guint64 warnings[NB_PLAN_N_KINDS];
} NbTestDatasetExpect;

/* Appends n plans (JSON Lines, branch mode) to out; fault_rate in [0, 1]. */
void nb_test_plan_dataset (GString *out, guint n, guint32 seed, double fault_rate,
                           NbTestDatasetExpect *expect);
