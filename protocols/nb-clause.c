#include "nb-clause.h"

#include <glib/gi18n-lib.h>

static const NbClause clauses[] = {
  { 5, N_ ("Pose accuracy and pose repeatability"), 1, 30, "trials", "5.4" },
  /* 6.3: 8 directions × {max, min} range per obstacle. */
  { 6, N_ ("Obstacle detection"), 3, 16, "placements", "6.3" },
  /* 7.3: the first three trials decide pass or fail. */
  { 7, N_ ("Obstacle avoidance"), 4, 3, "trials", "7.3" },
  { 8, N_ ("Path deviation"), 5, 30, "trials", "8.3" },
  { 9, N_ ("Narrow passage"), 6, 5, "trials", "9.3" },
  { 10, N_ ("Mapping accuracy"), 7, 3, "trials", "10.3" },
};

const NbClause *
nb_clause_get (guint number)
{
  for (guint i = 0; i < G_N_ELEMENTS (clauses); i++)
    if (clauses[i].number == number)
      return &clauses[i];
  return NULL;
}

char *
nb_clause_check_trials (const NbClause *clause, guint n_trials)
{
  if (n_trials == clause->trials)
    return NULL;
  return g_strdup_printf ("%u %s where ISO 18646-2 %s asks for %u", n_trials,
                          clause->trial_word, clause->trials_clause, clause->trials);
}
