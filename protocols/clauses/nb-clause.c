/* nb-clause.c — the registry of clause modules and what they share (see nb-clause.h) */
#include "nb-clause.h"
#include "nb-record-words.h"
#include "nb-clause-private.h"
#include "nb-unc-report.h"

#include "nb-angle.h"

#include "nb-campaign-runner.h"
#include "nb-error.h"
#include "nb-measurements.h"
#include "nb-number.h"
#include "nb-route.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Adding a clause: its file in protocols/clauses/, its line here. */
static const NbClause *const registry[] = {
  &nb_clause_pose,
  &nb_clause_detection,
  &nb_clause_avoidance,
  &nb_clause_path,
  &nb_clause_passage,
  &nb_clause_mapping,
};

const NbClause *const *
nb_clause_registry (guint *n)
{
  *n = G_N_ELEMENTS (registry);
  return registry;
}

const NbClause *
nb_clause_lookup (guint number)
{
  for (guint i = 0; i < G_N_ELEMENTS (registry); i++)
    if (registry[i]->number == number)
      return registry[i];
  return NULL;
}

gboolean
nb_clause_driven (const NbClause *clause)
{
  return clause->runner != NULL;
}

static const NbClauseOptionInfo options[] = {
  { NB_CLAUSE_OPT_ROUTE, "route", "straight, rectangular or combined (4.5)",
    "the stored configuration's, else straight" },
  { NB_CLAUSE_OPT_LOAD, "load-kg", "the load the robot carries, kg",
    "the stored configuration's, else 0 (no load)" },
  { NB_CLAUSE_OPT_TRIALS, "trials", "how many trials to run",
    "up to the clause's count" },
  { NB_CLAUSE_OPT_OBSTACLE, "obstacle", "a table 2 obstacle", "the stored configuration's" },
  { NB_CLAUSE_OPT_ALL_OBSTACLES, "obstacle", "a table 2 obstacle", "all six (6.3)" },
  { NB_CLAUSE_OPT_BEHAVIOUR, "behaviour", "1 static at P1, 2 crossing at 90°, 3 crossing "
    "at 45°, 4 head-on (7.2)", "the stored configuration's, else 1" },
  { NB_CLAUSE_OPT_PHASE, "phase", "auto, baseline or obstacle (7.3)", "auto" },
  { NB_CLAUSE_OPT_RANGES, "min-range-mm", "the declared minimum and maximum range, mm (6.3)",
    "the stored configuration's" },
  { NB_CLAUSE_OPT_PASSAGE_WIDTH, "passage-width-mm", "the declared passage width, mm (9.2)",
    "the stored configuration's, else robot width + 200 mm" },
  { NB_CLAUSE_OPT_GOAL_TOLERANCE, "goal-tolerance-mm", "how close to PG is reached "
    "(7.3 c, 9.3 c)", "clause 5's Rp about PG moved by its barycentre's offset, Ro about PG's heading + Ao" },
  { NB_CLAUSE_OPT_STRAIGHT_ONLY, "route", "only the straight route (8.3)", "straight" },
  { NB_CLAUSE_OPT_MAP, "map", "import: the robot's map (map_server YAML), one more trial",
    "--input F.csv" },
  { NB_CLAUSE_OPT_TRUTH, "truth", "export: the arena's corners A_1..A_4 (10.2), not the trials",
    "the trials" },
};

const NbClauseOptionInfo *
nb_clause_options (guint *n)
{
  *n = G_N_ELEMENTS (options);
  return options;
}

gboolean
nb_clause_takes (const NbClause *clause, NbClauseOption option)
{
  return (clause->options & option) != 0;
}

gboolean
nb_clause_refuse_option (const NbClause *clause, NbClauseOption option, const char *what,
                         GError **error)
{
  g_autoptr (GPtrArray) takers = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) list = g_string_new (NULL);
  g_autofree char *why = NULL;

  if (nb_clause_takes (clause, option))
    return TRUE;
  /* 6.3 fixes the placements: a count asked for is refused, not ignored. */
  if (option == NB_CLAUSE_OPT_TRIALS)
    why = g_strdup_printf (" (clause %u fixes its %s, %s)", clause->number, clause->trial_word,
                           clause->trials_clause);
  for (guint i = 0; i < G_N_ELEMENTS (registry); i++)
    if (nb_clause_takes (registry[i], option))
      g_ptr_array_add (takers, g_strdup_printf ("%u", registry[i]->number));
  for (guint i = 0; i < takers->len; i++)
    g_string_append_printf (list, "%s%s", i == 0 ? "" : i + 1 == takers->len ? " and " : ", ",
                            (char *) g_ptr_array_index (takers, i));
  if (takers->len == 0)
    g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no clause takes it", what);
  else
    g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s %s for clause%s %s%s", what,
                 /* "--a and --b", "--x-mm/-deg": more than one option */
                 strstr (what, " and ") || strchr (what, '/') ? "are" : "is",
                 takers->len > 1 ? "s" : "", list->str, why ? why : "");
  return FALSE;
}

const NbClauseColumn *
nb_clause_column (const NbClause *clause, const char *key)
{
  for (guint i = 0; i < clause->n_columns; i++)
    if (g_str_equal (clause->columns[i].key, key))
      return &clause->columns[i];
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

/* ------------------------------------------------------ configurations -- */

void
nb_clause_env_init (NbClauseEnv *env)
{
  env->lu_mm = NAN;
  env->robot_width_mm = NAN;
  env->rated_load_kg = NAN;
  env->outdoor = FALSE;
  env->min_range_mm = NAN;
  env->max_range_mm = NAN;
  env->passage_width_mm = NAN;
  env->leg1_lu = env->leg2_lu = NB_ROUTE_DEFAULT_LEG_LU;
  env->clockwise = FALSE;
}

static gboolean
field_number (NbCampaign *campaign, const char *key, double *out, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = nb_campaign_get_field (campaign, key, &local);

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (text != NULL && !nb_parse_double (text, strlen (text), out))
    *out = NAN;
  return TRUE;
}

gboolean
nb_clause_env_from_campaign (NbCampaign *campaign, NbClauseEnv *env, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *environment = NULL;

  nb_clause_env_init (env);
  if (!field_number (campaign, "robot.width_mm", &env->robot_width_mm, error) ||
      !field_number (campaign, "robot.rated_load_kg", &env->rated_load_kg, error))
    return FALSE;
  if (env->robot_width_mm > 0.0 && !nb_lu_mm (env->robot_width_mm, &env->lu_mm, error))
    return FALSE;
  environment = nb_campaign_get_field (campaign, "conditions.environment", &local);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  env->outdoor = g_strcmp0 (environment, "outdoor") == 0;
  /* 4.5: the legs and the sense the manufacturer declares. */
  {
    g_autofree char *cw = NULL;

    if (!field_number (campaign, "robot.route_leg1_lu", &env->leg1_lu, error) ||
        !field_number (campaign, "robot.route_leg2_lu", &env->leg2_lu, error))
      return FALSE;
    if (!(env->leg1_lu > 0.0))
      env->leg1_lu = NB_ROUTE_DEFAULT_LEG_LU;
    if (!(env->leg2_lu > 0.0))
      env->leg2_lu = NB_ROUTE_DEFAULT_LEG_LU;
    cw = nb_campaign_get_field (campaign, "robot.route_clockwise", &local);
    if (local != NULL)
      {
        g_propagate_error (error, g_steal_pointer (&local));
        return FALSE;
      }
    env->clockwise = g_strcmp0 (cw, "yes") == 0;
  }
  return TRUE;
}

GArray *
nb_clause_all_configurations (const NbClauseEnv *env, GError **error)
{
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (NbCampaignConfig));

  g_array_set_clear_func (out, (GDestroyNotify) nb_campaign_config_clear);
  for (guint i = 0; i < G_N_ELEMENTS (registry); i++)
    if (!registry[i]->configurations (env, out, error))
      return NULL;
  return g_steal_pointer (&out);
}

NbCampaignConfig *
nb_clause_config_append (GArray *out, guint clause, const char *name, double load_kg)
{
  NbCampaignConfig c;

  nb_campaign_config_init (&c);
  c.clause = clause;
  c.name = g_strdup (name);
  c.load_kg = load_kg;
  g_array_append_val (out, c);
  return &g_array_index (out, NbCampaignConfig, out->len - 1);
}

gboolean
nb_clause_need_lu (const NbClauseEnv *env, guint clause, GError **error)
{
  if (env->lu_mm > 0.0)
    return TRUE;
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause %u: robot.width_mm is not set, so "
               "there is no LU (ISO 18646-2 4.5) to lay out its configurations", clause);
  return FALSE;
}

double
nb_clause_load (const NbClauseEnv *env, gboolean rated)
{
  return rated ? env->rated_load_kg : 0.0;
}

const char *
nb_clause_json_number (char buf[32], double v)
{
  if (!isfinite (v))
    return "null";
  g_snprintf (buf, 32, "%.17g", v);
  return buf;
}

/* -------------------------------------------------------------- import -- */

gboolean
nb_clause_new_config (NbCampaign *campaign, guint clause, const char *name,
                      const NbCampaignConfig *given, NbCampaignConfig *config, GError **error)
{
  NbCampaignConfig existing;
  g_autoptr (GError) local = NULL;

  if (nb_campaign_find_config (campaign, clause, name, &existing, &local))
    {
      nb_campaign_config_clear (&existing);
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: clause %u already has a configuration '%s'; import under another name",
                   nb_campaign_get_path (campaign), clause, name);
      return FALSE;
    }
  if (local != NULL && !g_error_matches (local, NB_ERROR, NB_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  nb_campaign_config_clear (config);
  config->clause = clause;
  config->name = g_strdup (name);
  config->route = g_strdup (given->route);
  config->obstacle = g_strdup (given->obstacle);
  config->behaviour = g_strdup (given->behaviour);
  config->parameters = g_strdup (given->parameters);
  config->load_kg = given->load_kg;
  config->command = given->command;
  memcpy (config->from_mm, given->from_mm, sizeof config->from_mm);
  memcpy (config->to_mm, given->to_mm, sizeof config->to_mm);
  memcpy (config->truth_mm, given->truth_mm, sizeof config->truth_mm);
  return nb_campaign_add_config (campaign, config, error);
}

gboolean
nb_clause_import (const NbClause *clause, NbCampaign *campaign, const NbClauseImport *in,
                  guint *n_trials, GError **error)
{
  g_autofree char *subject = NULL, *what = NULL;

  *n_trials = 0;
  if (in->input == NULL && in->map == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--input F.csv is required");
      return FALSE;
    }
  if (in->map != NULL && !nb_clause_takes (clause, NB_CLAUSE_OPT_MAP))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--map is for clause 10, instead of --input");
      return FALSE;
    }
  if (!clause->check_import (in, error) || !nb_campaign_transaction_begin (campaign, error))
    return FALSE;
  subject = g_strdup_printf ("clause %u", clause->number);
  /* One outcome for the whole: any failure after the transaction began,
   * down to the commit, rolls everything back and is the result. */
  if (!clause->import (campaign, in, n_trials, error))
    goto rollback;
  what = g_strdup_printf (NB_EVENT_IMPORTED, *n_trials);
  if (!nb_campaign_log (campaign, what, subject, NULL, in->input ? in->input : in->map, error) ||
      !nb_campaign_transaction_commit (campaign, error))
    goto rollback;
  return TRUE;

rollback:
  nb_campaign_transaction_rollback (campaign);
  *n_trials = 0;
  return FALSE;
}

gboolean
nb_clause_require_config (const NbClauseImport *in, GError **error)
{
  if (in->config != NULL)
    return TRUE;
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--config NAME is required");
  return FALSE;
}

/* ------------------------------------------------------- the start pose -- */

#define FIRST_ONLY (g_quark_from_static_string ("nb-clause-first-sample"))

static gboolean
take_first (const NbTrackSample *s, gsize n, gpointer user_data, GError **error)
{
  NbTrackSample *first = user_data;

  if (n == 0)
    return TRUE;
  *first = s[0];
  /* Stop reading: the rest of the track is not needed. */
  g_set_error_literal (error, FIRST_ONLY, 0, "first sample taken");
  return FALSE;
}

gboolean
nb_clause_check_start (NbCampaign *campaign, GPtrArray *trials, const NbPose *p0,
                       NbConfigResult *r, GError **error)
{
  r->start_tolerance_mm = NB_START_TOLERANCE_MM;
  r->start_tolerance_deg = NB_START_TOLERANCE_DEG;
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = g_ptr_array_index (trials, i);
      NbTrackSample first = { NAN, NAN, NAN, NAN, NAN };
      g_autoptr (GError) local = NULL;
      double off, turn;

      /* An imported trial's start pose as the laboratory measured it. */
      if (isfinite (t->start.x_mm))
        {
          first.x_mm = t->start.x_mm;
          first.y_mm = t->start.y_mm;
          first.theta_deg = t->start.theta_deg;
        }
      else if (t->n_samples == 0)
        {
          r->start_unrecorded++;
          continue;
        }
      if (isnan (first.x_mm) &&
          !nb_campaign_foreach_samples (campaign, t->id, take_first, &first, &local) &&
          !g_error_matches (local, FIRST_ONLY, 0))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (isnan (first.x_mm))
        {
          r->start_unrecorded++;
          continue;
        }
      r->start_checked++;
      off = hypot (first.x_mm - p0->x_mm, first.y_mm - p0->y_mm);
      turn = isfinite (first.theta_deg) ? fabs (nb_angle_recast_deg (first.theta_deg - p0->theta_deg))
                                        : NAN;
      if (off > NB_START_TOLERANCE_MM || turn > NB_START_TOLERANCE_DEG)
        {
          NbStartOff o = { t->number ? t->number : t->seq, off, turn };

          if (r->start_off == NULL)
            r->start_off = g_array_new (FALSE, FALSE, sizeof (NbStartOff));
          g_array_append_val (r->start_off, o);
        }
    }
  return TRUE;
}

/* The coverage table's kinds (decided, the names are the laboratory's):
 * a configuration's load by its load_kg, else by its name. */
int
nb_clause_load_kind (const NbCampaignConfig *c)
{
  if (!isnan (c->load_kg))
    return c->load_kg > 0.0;
  if (c->name != NULL && strstr (c->name, "rated") != NULL)
    return 1;
  if (c->name != NULL && (strstr (c->name, "no load") != NULL || strstr (c->name, "no-load")))
    return 0;
  return -1;
}

/* The prescribed names are configurations ()'s: "…-rated-load". */
gboolean
nb_clause_prescribed_rated (const NbCampaignConfig *p)
{
  return p->name != NULL && strstr (p->name, "rated-load") != NULL;
}

const char *
nb_clause_canonical_obstacle (const char *name)
{
  return g_strcmp0 (name, "table") == 0 ? "wooden table" : name;
}

const char *
nb_clause_load_words (const NbCatalogue *lang, const NbCampaignConfig *p)
{
  return nb_clause_prescribed_rated (p) ? nb_tr (lang, "rated load") : nb_tr (lang, "no load");
}

gboolean
nb_clause_covers_load (const NbCampaignConfig *p, const NbCampaignConfig *c, GHashTable *labels)
{
  (void) labels;
  return nb_clause_load_kind (c) == nb_clause_prescribed_rated (p);
}

/* ------------------------------------------------ compute <clause> -- */

gboolean
nb_clause_compute_csv (const NbClause *clause, const NbClauseCsv *in, NbClauseCsvFigures *out,
                       GError **error)
{
  memset (out, 0, sizeof *out);
  out->clause = clause;
  out->accuracy_mm = NAN;
  if (clause->compute_csv == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause %u has no measurement table",
                   clause->number);
      return FALSE;
    }
  if (!clause->compute_csv (in, out, error))
    {
      nb_clause_csv_figures_clear (out);
      return FALSE;
    }
  return TRUE;
}

void
nb_clause_csv_figures_clear (NbClauseCsvFigures *f)
{
  if (f->placements != NULL)
    nb_detection_result_clear (&f->detection);
  g_clear_pointer (&f->placements, g_array_unref);
  g_clear_pointer (&f->configs, g_array_unref);
  g_clear_pointer (&f->rows, g_array_unref);
  g_clear_pointer (&f->run, nb_path_run_free);
  g_clear_pointer (&f->d_mm, g_free);
  g_clear_pointer (&f->maps, g_array_unref);
  g_clear_pointer (&f->dm_mm, g_free);
  g_clear_pointer (&f->heading_deg, g_free);
  g_clear_pointer (&f->budget, nb_unc_budget_free);
}

char *
nb_clause_csv_json (const NbClauseCsvFigures *f)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

  nb_json_begin_object (w);
  f->clause->csv_json (w, f);
  nb_json_end_object (w);
  return nb_json_writer_finish (g_steal_pointer (&w));
}

static void
csv_config_clear (gpointer p)
{
  NbClauseCsvConfig *c = p;

  g_array_unref (c->baseline);
  g_array_unref (c->trials);
  g_clear_pointer (&c->budget, nb_unc_budget_free);
}

GArray *
nb_clause_csv_group_configs (GArray *rows)
{
  GArray *configs = g_array_new (FALSE, TRUE, sizeof (NbClauseCsvConfig));
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);

  g_array_set_clear_func (configs, csv_config_clear);
  for (guint i = 0; i < rows->len; i++)
    {
      NbTimedRow *row = &g_array_index (rows, NbTimedRow, i);
      gpointer found;
      NbClauseCsvConfig *c;

      if (g_hash_table_lookup_extended (index, row->config, NULL, &found))
        c = &g_array_index (configs, NbClauseCsvConfig, GPOINTER_TO_UINT (found));
      else
        {
          NbClauseCsvConfig fresh = { .config = row->config,
                                      .baseline = g_array_new (FALSE, FALSE, sizeof (NbTimedTrial)),
                                      .trials = g_array_new (FALSE, FALSE, sizeof (NbTimedTrial)) };

          g_array_append_val (configs, fresh);
          g_hash_table_insert (index, row->config, GUINT_TO_POINTER (configs->len - 1));
          c = &g_array_index (configs, NbClauseCsvConfig, configs->len - 1);
        }
      g_array_append_val (row->baseline ? c->baseline : c->trials, row->trial);
    }
  return configs;
}

void
nb_clause_csv_json_configs (NbJsonWriter *w, const NbClauseCsvFigures *f,
                            void (*figures) (NbJsonWriter *w, const NbClauseCsvConfig *c))
{
  nb_json_key (w, "configs");
  nb_json_begin_array (w);
  for (guint i = 0; i < f->configs->len; i++)
    {
      const NbClauseCsvConfig *c = &g_array_index (f->configs, NbClauseCsvConfig, i);

      nb_json_begin_object (w);
      nb_json_key (w, "config"); nb_json_string (w, c->config);
      figures (w, c);
      if (c->budget != NULL)
        nb_unc_json_budget (w, c->budget);
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
}

gboolean
nb_clause_counts_ok (const NbCampaignTrial *t)
{
  return t->outcome == NB_TRIAL_OK;
}

gboolean
nb_clause_counts_judged (const NbCampaignTrial *t)
{
  return t->outcome == NB_TRIAL_OK || t->outcome == NB_TRIAL_FAILED;
}

gboolean
nb_clause_import_timed (NbCampaign *campaign, const NbClause *clause, const NbClauseImport *in,
                        GArray *rows, guint *n_trials, GError **error)
{
  g_autoptr (GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  for (guint i = 0; i < rows->len; i++)
    {
      NbTimedRow *row = &g_array_index (rows, NbTimedRow, i);
      gint64 *id;
      NbCampaignTrial t;
      gboolean ok;

      if (in->config != NULL && !g_str_equal (in->config, row->config))
        continue;
      if ((id = g_hash_table_lookup (ids, row->config)) == NULL)
        {
          NbCampaignConfig config;

          nb_campaign_config_init (&config);
          ok = nb_clause_new_config (campaign, clause->number, row->config, in->given, &config,
                                     error);
          if (ok)
            g_hash_table_insert (ids, row->config, id = g_memdup2 (&config.id, sizeof config.id));
          nb_campaign_config_clear (&config);
          if (!ok)
            return FALSE;
        }
      nb_campaign_trial_init (&t);
      t.number = row->trial.trial;
      /* 7.3: the trials without obstacle give T0. */
      t.kind = clause->baseline ? g_strdup (row->baseline ? "baseline" : "obstacle") : NULL;
      t.time_s = row->trial.time_s;
      t.outcome = row->trial.success ? NB_TRIAL_OK : NB_TRIAL_FAILED;
      /* What a run measures of the trial, when the laboratory measured it
       * too: kept in the trial as a run keeps it (7.1, 7.3 a/c, 9.3 a/c). */
      t.clearance_mm = row->clearance_mm;
      t.start = row->start;
      t.attained = row->attained;
      ok = nb_campaign_record_trial (campaign, *id, &t, error);
      nb_campaign_trial_clear (&t);
      if (!ok)
        return FALSE;
      (*n_trials)++;
    }
  if (*n_trials == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no rows of config '%s'", in->input,
                   in->config);
      return FALSE;
    }
  return TRUE;
}

void
nb_clause_timed_trials (GPtrArray *trials, GArray **baseline, GArray **timed)
{
  *baseline = g_array_new (FALSE, FALSE, sizeof (NbTimedTrial));
  *timed = g_array_new (FALSE, FALSE, sizeof (NbTimedTrial));
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = g_ptr_array_index (trials, i);
      NbTimedTrial tt = { t->number, t->time_s, t->outcome == NB_TRIAL_OK };

      g_array_append_val (g_strcmp0 (t->kind, "baseline") == 0 ? *baseline : *timed, tt);
    }
}

/* ------------------------------------------------------------- results -- */

const char *
nb_clause_format_figure (char buf[32], double v, int decimals)
{
  if (!isfinite (v))
    return "—";
  g_snprintf (buf, 32, "%.*f", decimals, v);
  return buf;
}

void
nb_config_result_json (NbJsonWriter *w, const NbConfigResult *r)
{
  const NbClause *clause = nb_clause_lookup (r->clause);

  nb_json_key (w, "config"); nb_json_string (w, r->config);
  if (r->error != NULL)
    {
      nb_json_key (w, "error"); nb_json_string (w, r->error);
      return;
    }
  clause->json (w, r);
  /* #17: the same object as `compute --json` (nb-unc-report.c). */
  if (r->unc != NULL)
    {
      if (clause->uncertainty_json != NULL)
        clause->uncertainty_json (w, r);
      else
        nb_unc_json_budget (w, r->unc);
    }
  if (r->unc_error != NULL)
    {
      nb_json_key (w, "uncertainty_error"); nb_json_string (w, r->unc_error);
    }
}

void
nb_config_result_text (GString *out, const NbConfigResult *r)
{
  const NbClause *clause = nb_clause_lookup (r->clause);

  if (r->error != NULL)
    g_string_append_printf (out, "cannot be computed: %s", r->error);
  else
    clause->text (out, r);
}

/* -------------------------------------------------------- runner events -- */

void
nb_clause_json_pose_member (NbJsonWriter *w, const char *key, const NbPose *p)
{
  nb_json_key (w, key);
  if (isnan (p->x_mm))
    {
      nb_json_null (w);
      return;
    }
  nb_json_begin_object (w);
  nb_json_key (w, "x_mm"); nb_json_double (w, p->x_mm);
  nb_json_key (w, "y_mm"); nb_json_double (w, p->y_mm);
  nb_json_key (w, "theta_deg"); nb_json_double (w, p->theta_deg);
  nb_json_end_object (w);
}

void
nb_clause_course_event_json (NbJsonWriter *w, const NbRunnerEvent *ev)
{
  if (ev->trial_kind != NULL)
    {
      nb_json_key (w, "kind"); nb_json_string (w, ev->trial_kind);
    }
  nb_json_key (w, "number"); nb_json_int (w, ev->number);
  nb_json_key (w, "time_s"); nb_json_double (w, ev->time_s);
  /* +inf (nothing near) is not JSON: null. */
  nb_json_key (w, "clearance_mm");
  if (isfinite (ev->clearance_mm))
    nb_json_double (w, ev->clearance_mm);
  else
    nb_json_null (w);
  nb_clause_json_pose_member (w, "attained", &ev->attained);
}

char *
nb_clause_course_event_text (const NbRunnerEvent *ev)
{
  if (!isfinite (ev->time_s))
    return NULL;
  return g_strdup_printf ("%s%s%u in %.3f s, clearance %.1f mm",
                          ev->trial_kind ? ev->trial_kind : "", ev->trial_kind ? " " : "",
                          ev->number, ev->time_s, ev->clearance_mm);
}

void
nb_runner_event_json (NbJsonWriter *w, const NbRunnerEvent *ev)
{
  const NbClause *clause = nb_clause_lookup (ev->clause);

  if (clause != NULL && clause->event_json != NULL)
    clause->event_json (w, ev);
}

char *
nb_runner_event_text (const NbRunnerEvent *ev)
{
  const NbClause *clause = nb_clause_lookup (ev->clause);

  return clause != NULL && clause->event_text != NULL ? clause->event_text (ev) : NULL;
}
