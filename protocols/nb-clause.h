/* nb-clause.h — the test clauses of ISO 18646-2, as the protocol names them
 *
 * One place for what each clause is called, which protocol table carries its
 * results and how many trials a configuration takes, so the CLI, the report
 * and the campaign runner flag a short series the same way.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint number;            /* 5..10 */
  const char *title;       /* ISO 18646-2 wording; the catalogues give GOST's (gettext) */
  guint table;             /* the protocol table of the clause's results */
  guint trials;            /* trials per configuration the clause asks for */
  const char *trial_word;  /* what one is called: "trials", "placements" */
  const char *trials_clause;  /* where it says so */
} NbClause;

/* NULL for a number that is not a test clause. */
const NbClause *nb_clause_get (guint number);

/* A note for the protocol when a configuration has fewer (or more) trials than
 * the clause asks for; NULL when the count is as the standard says. */
char *nb_clause_check_trials (const NbClause *clause, guint n_trials);

G_END_DECLS
