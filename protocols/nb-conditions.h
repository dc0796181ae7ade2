/* nb-conditions.h — the test conditions of ISO 18646-2 clause 4 and their ranges
 *
 * 4.2 environment, 4.3 surface: a value outside its range is accepted but
 * flagged in the protocol; outdoors (annex A.3) the environment and surface
 * are those of normal use, so the ranges do not apply.  One table, read by
 * the campaign store's fields, the report and the desktop application.
 */
#pragma once

#include <glib.h>

#include "nb-catalogue.h"

G_BEGIN_DECLS

typedef struct {
  const char *key;          /* the campaign field: "conditions.temperature_c" */
  const char *name;         /* "ambient temperature" */
  const char *unit;         /* "°C" */
  double min, max;          /* inclusive */
  const char *clause;       /* "4.2" */
} NbConditionRange;

const NbConditionRange *nb_condition_ranges (guint *n);
const NbConditionRange *nb_condition_range  (const char *key);

/* NULL when value is within its range (or the key has none, or outdoors);
 * else the protocol's flag in lang (NULL: English), e.g. "ambient
 * temperature 34 °C is outside 10–30 °C (ISO 18646-2 4.2)". */
char *nb_condition_check (const NbCatalogue *lang, const char *key, double value,
                          gboolean outdoor);

G_END_DECLS
