/* nb-unc-report.h — the uncertainty of the figures in the protocol's
 * outputs: JSON members, rounded as the protocol states them
 *
 * One place for how a figure's uncertainty is written (`compute --json`,
 * `campaign results --json`, `report --format json` all call it), so the
 * numbers cannot differ between them.  Rounding: GUM 7.2.6, U to two
 * significant digits rounded up, the interval outward to U's decimals
 * (nb_unc_round_U); u to two significant digits.
 */
#pragma once

#include <glib.h>

#include "nb-json-writer.h"
#include "nb-unc-iso.h"

G_BEGIN_DECLS

/* {"u": …, "U": …, "k": 2, "method": "gum"|"monte-carlo", "interval": [lo, hi],
 *  "mc_u": the Monte Carlo's u(y), "u_measurement": …, "u_sampling": … (GUM),
 *  "validated": JCGM 101 8, "mc_trials": h·M} */
void nb_unc_json_figure (NbJsonWriter *w, const NbUncFigure *fig);

/* "uncertainty": {key: figure, …} of a budget: keys "name[i]" become one
 * array "name" in index order. */
void nb_unc_json_budget (NbJsonWriter *w, const NbUncBudget *budget);

/* The rounded statement of a figure: value, U and interval at U's decimals
 * (decimals ≥ 0 for printing). */
typedef struct {
  double value, u, U, lo, hi;
  int decimals;
} NbUncRounded;

void nb_unc_round_figure (const NbUncFigure *fig, NbUncRounded *out);

G_END_DECLS
