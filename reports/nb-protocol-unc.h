/* nb-protocol-unc.h — the protocol's measurement uncertainty and conformity (#17)
 *
 * What the report adds to the clauses' tables when the campaign states the
 * measurement system's accuracy: a U column (k = 2, two significant
 * digits, GUM 7.2.6) next to every figure of tables 1 and 3–7, a budget
 * table per clause (input quantity, source, value, standard uncertainty,
 * distribution, sensitivity, contribution; then u_c, U, the method and the
 * coverage interval of each figure), and, when the campaign declares values
 * (declared.*), the statements of conformity with the decision rule named
 * (ILAC G8:2019).  The figures themselves come from NbConfigResult.unc (the
 * clause modules' budgets), so the protocol, `campaign results --json` and
 * `compute --json` state the same numbers.
 *
 * The report hands each configuration's result over once (result), marks
 * the cells that show a figure (mark), and closes each clause (clause):
 * the U columns go in next to the marked columns then, the budget table
 * after the clause's blocks.
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-catalogue.h"
#include "nb-campaign-results.h"
#include "nb-document.h"

G_BEGIN_DECLS

typedef struct _NbProtocolUnc NbProtocolUnc;

/* The campaign's stated inputs, declared values and rule (an unreadable
 * field is an error naming it). */
NbProtocolUnc *nb_protocol_unc_new    (NbCampaign *campaign, const NbCatalogue *lang,
                                       GError **error);
void           nb_protocol_unc_free   (NbProtocolUnc *unc);
/* A configuration's result before the report clears it: its JSON for the
 * document's results, its conformity statements; its budget is taken over
 * (result->unc NULL after) for the cells marked until the next result. */
void           nb_protocol_unc_result (NbProtocolUnc *unc, NbConfigResult *result);
/* The cell of t in row and the column of key column_key ("ap_mm") shows
 * the figure key of the last result's budget ("ap_mm",
 * "mean_accuracy_pct[1]", "dm_mm[0]"); nothing when that budget has no such
 * figure or t no such column.  By key, not index: the clauses' tables grow
 * columns. */
void           nb_protocol_unc_mark   (NbProtocolUnc *unc, NbTable *t, guint row,
                                       const char *column_key, const char *key);
/* The figure key of the last result's budget is, in its budget table,
 * "<its column title>, name": clause 6's "mean_accuracy_pct[1]" the
 * obstacle's name as the clause's table shows it (table 2's, in the
 * protocol's language), not its index. */
void           nb_protocol_unc_name   (NbProtocolUnc *unc, const char *key, const char *name);
/* After clause's blocks: U columns into its marked tables, its budget table. */
void           nb_protocol_unc_clause (NbProtocolUnc *unc, NbDocument *doc, guint clause);
/* After the last clause: the conformity section; the results into doc. */
void           nb_protocol_unc_finish (NbProtocolUnc *unc, NbDocument *doc);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbProtocolUnc, nb_protocol_unc_free)

G_END_DECLS
