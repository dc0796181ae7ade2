/* libFuzzer target: the plan checker (core/nb-plan, core/nb-json-tree) on
 * arbitrary bytes in every mode, strict or not: a plan or a syntax/structure
 * error, its error count equal to the error violations reported, every
 * message valid UTF-8; a plan without errors runs to an outcome in at most
 * one step per action.  Never a crash. */
#include "nb-plan.h"
#include "nb-skill.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static NbSkillTable *skills;

static gboolean
succeed (const NbPlanAction *a, guint index, gpointer user_data, char **reason)
{
  /* fail the third action, to walk the failure path too */
  return index != 2;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (skills == NULL)
    {
      g_autofree char *path = g_build_filename (NB_SOURCE_ROOT, "data", "skills.json", NULL);

      skills = nb_skill_table_load_file (path, NULL);
      g_assert (skills != NULL);
    }
  for (int mode = NB_PLAN_MODE_FULL; mode <= NB_PLAN_MODE_BRANCH; mode++)
    for (int strict = 0; strict <= 1; strict++)
      {
        g_autoptr (NbPlanChecker) c = nb_plan_checker_new (skills, (NbPlanMode) mode, strict);
        g_autoptr (GArray) v = nb_plan_violations_new ();
        g_autoptr (GArray) trace = nb_plan_trace_new ();
        const NbPlan *plan = nb_plan_checker_check (c, (const char *) data, size, 1, v);
        guint errors = 0, warnings = 0;

        for (guint i = 0; i < v->len; i++)
          {
            const NbPlanViolation *x = &g_array_index (v, NbPlanViolation, i);

            g_assert (x->message[0] != '\0');
            g_assert (g_utf8_validate (x->message, -1, NULL));
            g_assert (g_utf8_validate (x->location, -1, NULL));
            g_assert (x->line >= 1);
            if (x->severity == NB_PLAN_ERROR)
              errors++;
            else
              warnings++;
            g_assert (!strict || x->severity == NB_PLAN_ERROR);
          }
        if (plan == NULL)
          {
            g_assert (errors >= 1);
            continue;
          }
        g_assert (plan->n_errors == errors && plan->n_warnings == warnings);
        if (errors == 0 && mode != NB_PLAN_MODE_STEP)
          {
            NbPlanOutcome outcome;

            g_assert (nb_plan_run (plan, succeed, NULL, &outcome, trace, NULL));
            g_assert (trace->len <= plan->n_actions);
            g_assert (trace->len > 0 || plan->n_actions == 0);
          }
      }
  return 0;
}
