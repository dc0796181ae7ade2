#include "nb-conditions.h"

#include <math.h>

static const NbConditionRange ranges[] = {
  /* 4.2: the normal operating environment of the tests. */
  { "conditions.temperature_c", N_ ("ambient temperature"), "°C", 10.0, 30.0, "4.2" },
  { "conditions.humidity_pct", N_ ("relative humidity"), "%", 0.0, 80.0, "4.2" },
  { "conditions.illuminance_lx", N_ ("illuminance"), "lx", 100.0, 1000.0, "4.2" },
  /* 4.3: a hard, level floor with friction 0.6–1.0 measured per ISO 7176-13. */
  { "conditions.friction_coefficient", N_ ("friction coefficient"), NULL, 0.6, 1.0, "4.3" },
};

const NbConditionRange *
nb_condition_ranges (guint *n)
{
  *n = G_N_ELEMENTS (ranges);
  return ranges;
}

const NbConditionRange *
nb_condition_range (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
    if (g_strcmp0 (ranges[i].key, key) == 0)
      return &ranges[i];
  return NULL;
}

char *
nb_condition_check (const NbCatalogue *lang, const char *key, double value, gboolean outdoor)
{
  const NbConditionRange *r = nb_condition_range (key);
  const char *sep = r && r->unit ? " " : "";
  const char *unit = r && r->unit ? r->unit : "";

  /* A.3.2, A.3.3: outdoors the conditions are those of normal use. */
  if (r == NULL || outdoor || (value >= r->min && value <= r->max))
    return NULL;
  if (!isfinite (value))
    return g_strdup_printf (nb_tr (lang, "%s is not a number"), nb_tr (lang, r->name));
  return g_strdup_printf (nb_tr (lang, "%s %g%s%s is outside %g–%g%s%s (ISO 18646-2 %s)"), nb_tr (lang, r->name), value,
                          sep, unit, r->min, r->max, sep, unit, r->clause);
}
