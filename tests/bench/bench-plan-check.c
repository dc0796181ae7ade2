/* bench-plan-check — how many plans per second the checker takes
 *
 * A million generated branch plans (JSON Lines, 30 % with one injected
 * fault) are checked line by line with one reused checker, as
 * `navbench-cli plan check` does.  For comparison, json-glib's parse alone
 * (no checks) over a tenth of them, with a reused parser and with a parser
 * per line: the reason the checker reads JSON with core/nb-json-tree.
 *
 *   bench-plan-check [N] [OUT.jsonl]
 *
 * OUT.jsonl, when given, receives the plans, to time the command line on
 * them: navbench-cli plan check OUT.jsonl --mode branch.
 */
#include "nb-plan.h"
#include "nb-skill.h"
#include "plan-dataset.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? (guint) strtoul (argv[1], NULL, 10) : 1000000;
  g_autofree char *path = g_build_filename (NB_SOURCE_ROOT, "data", "skills.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbSkillTable) t = nb_skill_table_load_file (path, &error);
  g_autoptr (GString) data = g_string_new (NULL);
  g_autoptr (GArray) v = nb_plan_violations_new ();
  g_autoptr (NbPlanChecker) c = NULL;
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  NbTestDatasetExpect e;
  guint64 invalid = 0, plans = 0;
  gint64 t0, t1;
  double c0, c1;
  const char *p, *end;

  if (t == NULL)
    {
      fprintf (stderr, "bench-plan-check: %s\n", error->message);
      return 1;
    }
  nb_test_plan_dataset (data, n, 1, 0.3, &e);
  if (argc > 2 && !g_file_set_contents (argv[2], data->str, (gssize) data->len, &error))
    {
      fprintf (stderr, "bench-plan-check: %s\n", error->message);
      return 1;
    }

  c = nb_plan_checker_new (t, NB_PLAN_MODE_BRANCH, FALSE);
  t0 = g_get_monotonic_time ();
  c0 = cpu_s ();
  for (p = data->str, end = p + data->len; p < end; )
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      const NbPlan *plan;
      gboolean bad = FALSE;

      g_array_set_size (v, 0);
      plan = nb_plan_checker_check (c, p, (gsize) (nl - p), ++plans, v);
      for (guint i = 0; i < v->len; i++)
        bad |= g_array_index (v, NbPlanViolation, i).severity == NB_PLAN_ERROR;
      invalid += bad || plan == NULL;
      p = nl + 1;
    }
  t1 = g_get_monotonic_time ();
  c1 = cpu_s ();
  printf ("plans: %" G_GUINT64_FORMAT " (%.1f MB), invalid: %" G_GUINT64_FORMAT
          " (expected %" G_GUINT64_FORMAT ")\n", plans, data->len / 1e6, invalid,
          e.plans - e.valid);
  /* CPU time too: the machine is shared, the wall clock counts the others. */
  printf ("check (reused checker):      %.2f s wall, %.2f s CPU: %.0f plans/s (%.0f MB/s) CPU\n",
          (t1 - t0) / 1e6, c1 - c0, plans / (c1 - c0), data->len / 1e6 / (c1 - c0));

  /* json-glib on a tenth of the lines: its rate is what matters. */
  t0 = g_get_monotonic_time ();
  plans = 0;
  for (p = data->str, end = p + data->len / 10; p < end; plans++)
    {
      const char *nl = memchr (p, '\n', (gsize) (data->str + data->len - p));

      json_parser_load_from_data (parser, p, nl - p, NULL);
      p = nl + 1;
    }
  t1 = g_get_monotonic_time ();
  printf ("json-glib parse, reused:     %.2f s, %.0f plans/s (%" G_GUINT64_FORMAT " plans)\n",
          (t1 - t0) / 1e6, plans / ((t1 - t0) / 1e6), plans);

  /* A parser per line: a tenth of the lines is enough to see the cost. */
  t0 = g_get_monotonic_time ();
  plans = 0;
  for (p = data->str, end = p + data->len / 10; p < end; plans++)
    {
      const char *nl = memchr (p, '\n', (gsize) (data->str + data->len - p));
      g_autoptr (JsonParser) each = json_parser_new_immutable ();

      json_parser_load_from_data (each, p, nl - p, NULL);
      p = nl + 1;
    }
  t1 = g_get_monotonic_time ();
  printf ("json-glib parse, per line:   %.2f s, %.0f plans/s (%" G_GUINT64_FORMAT " plans)\n",
          (t1 - t0) / 1e6, plans / ((t1 - t0) / 1e6), plans);
  return invalid == e.plans - e.valid ? 0 : 1;
}
