#include "nb-protocol-columns.h"

#include <glib/gi18n-lib.h>

static const NbProtocolColumn clause5[] = {
  { "ap_mm", N_("Position accuracy Ap"), N_("mm"), 2 },
  { "ao_deg", N_("Orientation accuracy Ao"), "°", 3 },
  { "rp_mm", N_("Position repeatability Rp"), N_("mm"), 2 },
  { "ro_deg", N_("Orientation repeatability Ro (±)"), "°", 3 },
};

static const NbProtocolColumn clause6[] = {
  { "placements", N_("Placements"), NULL, 0 },
  { "detected", N_("Detected"), NULL, 0 },
  { "mean_error_pct", N_("Mean error"), "%", 2 },
  { "mean_accuracy_pct", N_("Mean accuracy"), "%", 2 },
};

static const NbProtocolColumn clause7[] = {
  { "passed", N_("Avoided"), NULL, 0 },
  { "t0_s", N_("Travel time without obstacle T0"), N_("s"), 2 },
  { "t1_s", N_("Travel time with obstacle T1"), N_("s"), 2 },
  { "delay_ratio", N_("Delay ratio T1/T0"), NULL, 3 },
};

static const NbProtocolColumn clause8[] = {
  { "max_mm", N_("Maximum deviation d"), N_("mm"), 2 },
  { "mean_mm", N_("Mean d_i"), N_("mm"), 2 },
  { "mean_abs_mm", N_("Mean |d_i|"), N_("mm"), 2 },
  { "std_mm", N_("Standard deviation"), N_("mm"), 2 },
};

static const NbProtocolColumn clause9[] = {
  { "passed", N_("Passed"), NULL, 0 },
  { "mean_time_s", N_("Passage time"), N_("s"), 2 },
  { "failed_trials", N_("Failed trials"), NULL, 0 },
};

const NbProtocolColumn *
nb_protocol_figure_columns (guint clause, guint *n)
{
#define TABLE(t) (*n = G_N_ELEMENTS (t), t)
  switch (clause)
    {
    case 5: return TABLE (clause5);
    case 6: return TABLE (clause6);
    case 7: return TABLE (clause7);
    case 8: return TABLE (clause8);
    case 9: return TABLE (clause9);
    default:
      *n = 0;
      return NULL;
    }
#undef TABLE
}

const NbProtocolColumn *
nb_protocol_figure_column (guint clause, const char *key)
{
  guint n;
  const NbProtocolColumn *c = nb_protocol_figure_columns (clause, &n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (c[i].key, key))
      return &c[i];
  return NULL;
}
