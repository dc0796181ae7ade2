/* nb-protocol-columns.h — the figure columns of the protocol's tables
 *
 * One place for how the protocol names each clause's figures (ISO 18646-2
 * tables 1, 3, 4, 5 and 6): the report's tables and the desktop app's figures
 * both take their titles and units from here.  title and unit are msgids of
 * the "navbench" domain (translate with nb_tr); a unit may be a symbol (°, %)
 * that translates to itself, or NULL.
 */
#pragma once

#include <glib.h>

#include "nb-clause.h"

G_BEGIN_DECLS

/* The clause module's columns (NbClause.columns: one place). */
typedef NbClauseColumn NbProtocolColumn;

/* The clause's figure columns in table order; NULL (n 0) for a clause without. */
const NbProtocolColumn *nb_protocol_figure_columns (guint clause, guint *n_columns);
/* One column by clause and key; NULL when there is none. */
const NbProtocolColumn *nb_protocol_figure_column  (guint clause, const char *key);

G_END_DECLS
