/* protocols/: the clauses as the protocol names them, and the clause-4 ranges. */
#include "nb-clause.h"
#include "nb-conditions.h"
#include "nb-test.h"

#include <string.h>

static void
test_clauses (void)
{
  const guint tables[] = { 1, 3, 4, 5, 6, 7 };
  const guint trials[] = { 30, 16, 3, 30, 5, 3 };
  g_autofree char *short_pose = NULL, *short_detection = NULL;

  for (guint i = 0; i < 6; i++)
    {
      const NbClause *c = nb_clause_get (5 + i);

      g_assert_nonnull (c);
      g_assert_cmpuint (c->table, ==, tables[i]);
      g_assert_cmpuint (c->trials, ==, trials[i]);
      g_assert_null (nb_clause_check_trials (c, trials[i]));
    }
  g_assert_null (nb_clause_get (4));
  g_assert_null (nb_clause_get (11));
  g_assert_cmpstr (nb_clause_get (10)->title, ==, "Mapping accuracy");

  short_pose = nb_clause_check_trials (nb_clause_get (5), 12);
  g_assert_cmpstr (short_pose, ==, "12 trials where ISO 18646-2 5.4 asks for 30");
  short_detection = nb_clause_check_trials (nb_clause_get (6), 15);
  g_assert_cmpstr (short_detection, ==, "15 placements where ISO 18646-2 6.3 asks for 16");
}

static void
test_conditions (void)
{
  struct { const char *key; double value; gboolean outdoor; const char *flag; } cases[] = {
    { "conditions.temperature_c", 21.0, FALSE, NULL },
    { "conditions.temperature_c", 10.0, FALSE, NULL },
    { "conditions.temperature_c", 30.0, FALSE, NULL },
    { "conditions.temperature_c", 34.0, FALSE,
      "ambient temperature 34 °C is outside 10–30 °C (ISO 18646-2 4.2)" },
    { "conditions.temperature_c", 34.0, TRUE, NULL },
    { "conditions.humidity_pct", 85.0, FALSE,
      "relative humidity 85 % is outside 0–80 % (ISO 18646-2 4.2)" },
    { "conditions.illuminance_lx", 50.0, FALSE,
      "illuminance 50 lx is outside 100–1000 lx (ISO 18646-2 4.2)" },
    { "conditions.friction_coefficient", 0.55, FALSE,
      "friction coefficient 0.55 is outside 0.6–1 (ISO 18646-2 4.3)" },
    { "conditions.friction_coefficient", 0.6, FALSE, NULL },
    { "conditions.friction_coefficient", NAN, FALSE, "friction coefficient is not a number" },
    { "robot.rated_speed_mps", 99.0, FALSE, NULL },
  };
  guint n;

  g_assert_nonnull (nb_condition_ranges (&n));
  g_assert_cmpuint (n, ==, 4);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *flag = nb_condition_check (cases[i].key, cases[i].value, cases[i].outdoor);

      g_assert_cmpstr (flag, ==, cases[i].flag);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/protocols/clauses", test_clauses);
  g_test_add_func ("/protocols/conditions", test_conditions);
  return g_test_run ();
}
