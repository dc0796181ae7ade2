/* nb-clause-avoidance.c — ISO 18646-2 clause 7, obstacle avoidance
 *
 * 7.2: ten configurations: behaviour 1 (static at P1) with the wooden wall,
 * the table, the large and the small cylinder; behaviours 2, 3 and 4
 * (crossing at 90°, at 45°, head-on) with the large and the small cylinder.
 * Each has its baseline (the trials without obstacle that give T0).  7.3:
 * the configuration passes when its first three trials with the obstacle
 * succeed; T0, T1 and T1/T0 (table 4) by nb_metrics_avoidance.  A failed
 * trial is a result: the figures count it.
 */
#include "nb-clause-private.h"

#include "nb-course.h"
#include "nb-error.h"
#include "nb-measurements.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static const NbClauseColumn columns[] = {
  { "passed", N_("Avoided"), NULL, 0 },
  { "t0_s", N_("Travel time without obstacle T0"), N_("s"), 2 },
  { "t1_s", N_("Travel time with obstacle T1"), N_("s"), 2 },
  { "delay_ratio", N_("Delay ratio T1/T0"), NULL, 3 },
};

/* 7.2 a)–d) and the moving ones, a)–b). */
static const struct {
  guint behaviour;
  const char *obstacle;         /* table 2's name */
} prescribed[] = {
  { 1, "wooden wall" }, { 1, "wooden table" }, { 1, "large cylinder" }, { 1, "small cylinder" },
  { 2, "large cylinder" }, { 2, "small cylinder" },
  { 3, "large cylinder" }, { 3, "small cylinder" },
  { 4, "large cylinder" }, { 4, "small cylinder" },
};

static gboolean
configurations (const NbClauseEnv *env, GArray *out, GError **error)
{
  char lu[32], width[32];

  if (!nb_clause_need_lu (env, 7, error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (prescribed); i++)
    {
      g_autofree char *key = g_strdelimit (g_strdup (prescribed[i].obstacle), " ", '-');
      g_autofree char *name = g_strdup_printf ("b%u-%s", prescribed[i].behaviour, key);
      NbCampaignConfig *c;

      /* decided: outdoors (annex A.5.2) only the wooden wall and the two
       * cylinders are test obstacles, so the table drops out. */
      if (env->outdoor && g_str_equal (prescribed[i].obstacle, "wooden table"))
        continue;
      c = nb_clause_config_append (out, 7, name, 0.0);
      c->obstacle = g_strdup (prescribed[i].obstacle);
      c->behaviour = g_strdup_printf ("%u", prescribed[i].behaviour);
      c->parameters = g_strdup_printf ("{\"lu_mm\": %s, \"robot_width_mm\": %s}",
                                       nb_clause_json_number (lu, env->lu_mm),
                                       nb_clause_json_number (width, env->robot_width_mm));
    }
  return TRUE;
}

static gboolean
check_import (const NbClauseImport *in, GError **error)
{
  return TRUE;
}

static gboolean
import (NbCampaign *campaign, const NbClauseImport *in, guint *n_trials, GError **error)
{
  g_autoptr (GArray) rows = nb_measurements_read_avoidance (in->input, error);

  return rows != NULL &&
         nb_clause_import_timed (campaign, &nb_clause_avoidance, in, rows, n_trials, error);
}

static gboolean
compute (NbCampaign *campaign, const NbCampaignConfig *c, GPtrArray *trials, NbConfigResult *r,
         GError **figures, GError **error)
{
  g_autoptr (GArray) baseline = NULL;
  g_autoptr (GArray) timed = NULL;

  nb_clause_timed_trials (trials, &baseline, &timed);
  nb_metrics_avoidance ((NbTimedTrial *) baseline->data, baseline->len,
                        (NbTimedTrial *) timed->data, timed->len, &r->avoidance, figures);
  return TRUE;
}

static void
json (NbJsonWriter *w, const NbConfigResult *r)
{
  nb_clause_json_avoidance (w, &r->avoidance);
}

static void
text (GString *out, const NbConfigResult *r)
{
  char a[32], b[32], c[32];

  g_string_append_printf (out, "%s  T0 %s s  T1 %s s  T1/T0 %s",
                          r->avoidance.passed ? "passed" : "not passed",
                          nb_clause_format_figure (a, r->avoidance.t0_s, 2),
                          nb_clause_format_figure (b, r->avoidance.t1_s, 2),
                          nb_clause_format_figure (c, r->avoidance.delay_ratio, 3));
}

const NbClause nb_clause_avoidance = {
  .number = 7,
  .title = N_("Obstacle avoidance"),
  .table = 4,
  /* 7.3: the first three trials decide pass or fail. */
  .trials = 3,
  .trial_word = "trials",
  .trials_clause = "7.3",
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .options = NB_CLAUSE_OPT_TRIALS | NB_CLAUSE_OPT_OBSTACLE |
             NB_CLAUSE_OPT_BEHAVIOUR | NB_CLAUSE_OPT_PHASE | NB_CLAUSE_OPT_GOAL_TOLERANCE,
  .run = NB_CLAUSE_RUN_COURSE,
  .layout = "7.2: P0 to PG 9 LU",
  .contact = "the obstacle",
  .goal_clause = "7.3 c",
  .baseline = TRUE,
  .configurations = configurations,
  .counts = nb_clause_counts_judged,
  .check_import = check_import,
  .import = import,
  .compute = compute,
  .json = json,
  .text = text,
  .event_json = nb_clause_course_event_json,
  .event_text = nb_clause_course_event_text,
};
