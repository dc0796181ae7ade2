#include "nb-protocol-columns.h"

#include "nb-clause.h"

/* The columns are the clause module's (protocols/clauses/, NbClause.columns). */
const NbProtocolColumn *
nb_protocol_figure_columns (guint clause, guint *n)
{
  const NbClause *c = nb_clause_lookup (clause);

  *n = c != NULL ? c->n_columns : 0;
  return *n > 0 ? c->columns : NULL;
}

const NbProtocolColumn *
nb_protocol_figure_column (guint clause, const char *key)
{
  const NbClause *c = nb_clause_lookup (clause);

  return c != NULL ? nb_clause_column (c, key) : NULL;
}
