/* navbench-cli compute — the figures of ISO 18646-2 clauses 5–10 from CSV
 *
 * Each subcommand parses its options, has the clause module read its table
 * (see --help for its columns) and compute its figures and budget
 * (nb_clause_compute_csv, protocols/clauses/), and prints one JSON object
 * (--json, nb_clause_csv_json) or the protocol's table for a person.  Input
 * is checked row by row; the first bad row stops everything with
 * "FILE:LINE: reason" and exit status 2.
 */
#include "nb-cli.h"

#include "nb-clause.h"
#include "nb-clause-results.h"
#include "nb-measurements.h"
#include "nb-error.h"
#include "nb-metrics.h"
#include "nb-table.h"
#include "nb-unc-campaign.h"
#include "nb-unc-iso.h"

#include <math.h>

/* ---------------------------------------------------------------- shared -- */

/* The measurement system's stated accuracy and the other inputs of the
 * uncertainty budgets (core/unc); given any accuracy, --json carries an
 * "uncertainty" object with one member per figure. */
typedef struct {
  double accuracy_mm;           /* a constant, at k = 2 */
  char *accuracy;               /* the data sheet's form: "15 µm + 6 µm/m (k=2)" */
  double accuracy_deg;
  char *angular_k;              /* its data sheet's coverage factor, or "rectangular" */
  double range_m;
  double random_mm;
  double sample_rate_hz;
  double sync_s;
  double speed_mm_s;
  double target_mm;
  double placement_mm;
  double resolution_mm;
  char *registration_points;    /* the survey CSV of `campaign register --points` */
  gint64 seed;
} UncOptions;

static void
unc_entries (GOptionContext *context, UncOptions *u)
{
  const GOptionEntry entries[] = {
    { "accuracy-mm", 0, 0, G_OPTION_ARG_DOUBLE, &u->accuracy_mm,
      "the measurement system's linear accuracy, mm (k = 2): adds \"uncertainty\" to --json", "A" },
    { "accuracy", 0, 0, G_OPTION_ARG_STRING, &u->accuracy,
      "the same as the data sheet gives it: '15 µm + 6 µm/m', '1 mm + 1.5 ppm (k=1)', "
      "'8 mm + 1 ppm (rectangular)'", "SPEC" },
    { "accuracy-deg", 0, 0, G_OPTION_ARG_DOUBLE, &u->accuracy_deg,
      "its angular (heading) accuracy, ° (k = 2 unless --angular-accuracy-k)", "B" },
    { "angular-accuracy-k", 0, 0, G_OPTION_ARG_STRING, &u->angular_k,
      "the coverage factor the data sheet states the angular accuracy at, or 'rectangular' "
      "(an MPE); 2 when not given", "K" },
    { "range-m", 0, 0, G_OPTION_ARG_DOUBLE, &u->range_m,
      "distance from the instrument to the work area, m (for the ppm part)", "L" },
    { "random-mm", 0, 0, G_OPTION_ARG_DOUBLE, &u->random_mm,
      "its random error of one point, mm (1σ; clause 8)", "R" },
    { "sample-rate-hz", 0, 0, G_OPTION_ARG_DOUBLE, &u->sample_rate_hz,
      "its sample rate, Hz (time quantisation of clauses 7, 8, 9)", "HZ" },
    { "sync-s", 0, 0, G_OPTION_ARG_DOUBLE, &u->sync_s,
      "standard uncertainty of the robot-event / sample synchronisation, s", "S" },
    { "speed-mm-s", 0, 0, G_OPTION_ARG_DOUBLE, &u->speed_mm_s, "the robot's rated speed, mm/s",
      "V" },
    { "target-mm", 0, 0, G_OPTION_ARG_DOUBLE, &u->target_mm,
      "the target's centring on the reference point, mm (1σ)", "T" },
    { "placement-mm", 0, 0, G_OPTION_ARG_DOUBLE, &u->placement_mm,
      "an obstacle's placement, mm (1σ; clause 6)", "P" },
    { "resolution-mm", 0, 0, G_OPTION_ARG_DOUBLE, &u->resolution_mm,
      "the map's cell size, mm (clause 10)", "C" },
    { "registration-points", 0, 0, G_OPTION_ARG_FILENAME, &u->registration_points,
      "the frame registration's surveyed points, the CSV campaign register --points reads: "
      "the rigid fit's covariance from them and their residuals", "P.csv" },
    { "uncertainty-seed", 0, 0, G_OPTION_ARG_INT64, &u->seed,
      "seed of the Monte Carlo (results are reproducible; default 1)", "N" },
    { NULL }
  };
  GOptionGroup *group = g_option_group_new ("uncertainty", "Measurement uncertainty (GUM, JCGM 101):",
                                            "the uncertainty budget's inputs", NULL, NULL);

  u->seed = 1;
  g_option_group_add_entries (group, entries);
  g_option_context_add_group (context, group);
}

/* *enabled: some accuracy was given. */
static gboolean
unc_setup (const UncOptions *u, NbUncSetup *s, gboolean *enabled, GError **error)
{
  const struct { const char *name; double v; } checks[] = {
    { "accuracy-mm", u->accuracy_mm }, { "accuracy-deg", u->accuracy_deg },
    { "range-m", u->range_m }, { "random-mm", u->random_mm },
    { "sample-rate-hz", u->sample_rate_hz }, { "sync-s", u->sync_s },
    { "speed-mm-s", u->speed_mm_s }, { "target-mm", u->target_mm },
    { "placement-mm", u->placement_mm }, { "resolution-mm", u->resolution_mm },
  };

  nb_unc_setup_init (s);
  for (guint i = 0; i < G_N_ELEMENTS (checks); i++)
    if (!(checks[i].v >= 0.0) || !isfinite (checks[i].v))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--%s %g: a finite value ≥ 0 is needed",
                     checks[i].name, checks[i].v);
        return FALSE;
      }
  if (u->accuracy != NULL && u->accuracy_mm > 0.0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--accuracy and --accuracy-mm: give one");
      return FALSE;
    }
  if (u->accuracy != NULL)
    {
      if (!nb_unc_parse_accuracy (u->accuracy, &s->lin_const_mm, &s->lin_ppm, &s->lin_k, error))
        {
          g_prefix_error (error, "--accuracy: ");
          return FALSE;
        }
    }
  else
    s->lin_const_mm = u->accuracy_mm;
  s->ang_deg = u->accuracy_deg;
  if (u->angular_k != NULL && !nb_unc_parse_coverage (u->angular_k, &s->ang_k, error))
    {
      g_prefix_error (error, "--angular-accuracy-k: ");
      return FALSE;
    }
  s->range_m = u->range_m;
  s->random_mm = u->random_mm;
  s->sample_period_s = u->sample_rate_hz > 0.0 ? 1.0 / u->sample_rate_hz : 0.0;
  s->sync_s = u->sync_s;
  s->speed_mm_s = u->speed_mm_s;
  s->target_mm = u->target_mm;
  s->placement_mm = u->placement_mm;
  s->map_resolution_mm = u->resolution_mm;
  if (u->registration_points != NULL &&
      !nb_unc_setup_registration_survey (s, u->registration_points, error))
    return FALSE;
  *enabled = u->accuracy != NULL || u->accuracy_mm > 0.0 || u->accuracy_deg > 0.0;
  return TRUE;
}

typedef struct {
  char *input;
  gboolean json;
  UncOptions unc;
  NbUncSetup setup;
  gboolean uncertainty;         /* an accuracy was given */
} Common;

static void
common_entries (GOptionContext *context, Common *common, GOptionEntry *extra)
{
  const GOptionEntry entries[] = {
    { "input", 0, 0, G_OPTION_ARG_FILENAME, &common->input, "the measured data (- for stdin)",
      "F.csv" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &common->json, "one JSON object on stdout", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (extra != NULL)
    g_option_context_add_main_entries (context, extra, NULL);
  unc_entries (context, &common->unc);
}

static gboolean
common_setup (Common *common, GError **error)
{
  return unc_setup (&common->unc, &common->setup, &common->uncertainty, error);
}

static void
common_clear (Common *common)
{
  g_clear_pointer (&common->input, g_free);
  g_clear_pointer (&common->unc.accuracy, g_free);
  g_clear_pointer (&common->unc.registration_points, g_free);
  g_clear_pointer (&common->unc.angular_k, g_free);
}

static gboolean
require_input (const char *option, const char *path, GError **error)
{
  if (path != NULL)
    return TRUE;
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--%s F.csv is required", option);
  return FALSE;
}

static int
emit (char *text)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *owned = text;

  if (!nb_cli_write (owned, &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}

static char *
clause_title (const NbClause *clause)
{
  return g_strdup_printf ("ISO 18646-2 clause %u — %s (protocol table %u)", clause->number,
                          clause->title, clause->table);
}

static void
note_trials (NbTable *table, const NbClause *clause, const char *config, guint n)
{
  g_autofree char *note = nb_clause_check_trials (clause, n);

  if (note != NULL)
    {
      g_autofree char *line = config ? g_strdup_printf ("Note: %s: %s.", config, note)
                                     : g_strdup_printf ("Note: %s.", note);

      nb_table_add_note (table, line);
    }
}

/* The figures of the clause's table(s) (nb_clause_compute_csv: the reading,
 * the figures and the budget are the clause module's), printed as --json's
 * object or by text () as the protocol's table.  The budget only for --json
 * with an accuracy given. */
static int
compute_print (guint number, Common *common, NbClauseCsv *in,
               char *(*print_text) (const NbClauseCsvFigures *figures))
{
  g_autoptr (GError) error = NULL;
  NbClauseCsvFigures f;
  char *out;

  in->setup = common->json && common->uncertainty ? &common->setup : NULL;
  in->seed = (guint64) common->unc.seed;
  if (!nb_clause_compute_csv (nb_clause_get (number), in, &f, &error))
    {
      common_clear (common);
      return nb_cli_report_error (error);
    }
  out = common->json ? nb_clause_csv_json (&f) : print_text (&f);
  nb_clause_csv_figures_clear (&f);
  common_clear (common);
  return emit (out);
}

static int
fail (Common *common, GError *error)
{
  int status = nb_cli_report_error (error);

  common_clear (common);
  g_error_free (error);
  return status;
}

/* -------------------------------------------------------------- 5: pose -- */

static char *
text_pose (const NbClauseCsvFigures *f)
{
  const NbPoseResult *res = &f->pose;
  g_autofree char *title = clause_title (f->clause);
  g_autoptr (NbTable) t = nb_table_new (title);
  g_autoptr (NbTable) d = nb_table_new ("Intermediate values (5.2)");
  g_autofree char *a = NULL, *b = NULL;
  guint r;

  nb_table_add_column (t, "n", "n", NULL, 0);
  nb_table_add_column (t, "ap_mm", "Ap", "mm", 2);
  nb_table_add_column (t, "ao_deg", "Ao", "°", 3);
  nb_table_add_column (t, "rp_mm", "Rp", "mm", 2);
  nb_table_add_column (t, "ro_deg", "Ro (±)", "°", 3);
  r = nb_table_add_row (t);
  nb_table_set_number (t, r, 0, (double) res->n);
  nb_table_set_number (t, r, 1, res->ap_mm);
  nb_table_set_number (t, r, 2, res->ao_deg);
  nb_table_set_number (t, r, 3, res->rp_mm);
  nb_table_set_number (t, r, 4, res->ro_deg);
  note_trials (t, f->clause, NULL, (guint) res->n);

  nb_table_add_column (d, "x_bar", "x̄", "mm", 3);
  nb_table_add_column (d, "y_bar", "ȳ", "mm", 3);
  nb_table_add_column (d, "o_bar", "ō", "°", 3);
  nb_table_add_column (d, "l_mean", "l̄", "mm", 3);
  nb_table_add_column (d, "s_l", "S_l", "mm", 3);
  nb_table_add_column (d, "s_o", "S_o", "°", 4);
  r = nb_table_add_row (d);
  nb_table_set_number (d, r, 0, res->barycentre_x_mm);
  nb_table_set_number (d, r, 1, res->barycentre_y_mm);
  nb_table_set_number (d, r, 2, res->mean_theta_deg);
  nb_table_set_number (d, r, 3, res->l_mean_mm);
  nb_table_set_number (d, r, 4, res->s_l_mm);
  nb_table_set_number (d, r, 5, res->s_o_deg);
  a = nb_table_to_text (t);
  b = nb_table_to_text (d);
  return g_strdup_printf ("%s\n%s", a, b);
}

static int
compute_pose (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  GError *error = NULL;
  g_autofree char *command_text = NULL;
  Common common = { 0 };
  GOptionEntry extra[] = {
    { "command", 0, 0, G_OPTION_ARG_STRING, &command_text,
      "the command pose: x, y in mm and heading in degrees", "X,Y,THETA" },
    { NULL }
  };
  double command[3];
  NbClauseCsv in = { 0 };

  g_option_context_set_summary (context,
    "Pose accuracy and repeatability, ISO 18646-2 clause 5: Ap, Ao, Rp, Ro of the\n"
    "attained poses against the command pose.\n\n"
    "Columns: x_mm, y_mm, theta_deg (any order; other columns ignored; '#' lines are\n"
    "comments). At least 2 poses; the standard asks for 30.");
  common_entries (context, &common, extra);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !common_setup (&common, &error) ||
      !nb_cli_parse_numbers ("command", command_text, command, 3, "X,Y,THETA (mm, mm, °)",
                             &error) ||
      !require_input ("input", common.input, &error))
    return fail (&common, error);
  in.input = common.input;
  in.command = (NbPose) { command[0], command[1], command[2] };
  return compute_print (5, &common, &in, text_pose);
}

/* -------------------------------------------------------------- 8: path -- */

static char *
text_path (const NbClauseCsvFigures *f)
{
  const NbPathResult *res = &f->path;
  g_autofree char *title = clause_title (f->clause);
  g_autoptr (NbTable) t = nb_table_new (title);
  g_autoptr (NbTable) per = nb_table_new ("Deviation per trial (8.2; positive = left of travel)");
  g_autofree char *a = NULL, *b = NULL;
  guint r;

  nb_table_add_column (per, "trial", "trial", NULL, 0);
  nb_table_add_column (per, "samples", "samples", NULL, 0);
  nb_table_add_column (per, "on_segment", "on P0→P1", NULL, 0);
  nb_table_add_column (per, "d_mm", "d_i", "mm", 2);
  for (guint i = 0; i < f->n_trials; i++)
    {
      const NbPathRunTrial *pt = nb_path_run_trial (f->run, i);

      r = nb_table_add_row (per);
      nb_table_set_text (per, r, 0, pt->label);
      nb_table_set_number (per, r, 1, (double) pt->acc.n_samples);
      nb_table_set_number (per, r, 2, (double) pt->acc.n_on_segment);
      nb_table_set_number (per, r, 3, f->d_mm[i]);
    }
  nb_table_add_column (t, "n", "n", NULL, 0);
  nb_table_add_column (t, "max_mm", "d = max |d_i|", "mm", 2);
  nb_table_add_column (t, "mean_mm", "mean d_i", "mm", 2);
  nb_table_add_column (t, "mean_abs_mm", "mean |d_i|", "mm", 2);
  nb_table_add_column (t, "std_mm", "std d_i", "mm", 2);
  r = nb_table_add_row (t);
  nb_table_set_number (t, r, 0, (double) res->n);
  nb_table_set_number (t, r, 1, res->max_mm);
  nb_table_set_number (t, r, 2, res->mean_mm);
  nb_table_set_number (t, r, 3, res->mean_abs_mm);
  nb_table_set_number (t, r, 4, res->std_mm);
  note_trials (t, f->clause, NULL, (guint) res->n);
  a = nb_table_to_text (per);
  b = nb_table_to_text (t);
  return g_strdup_printf ("%s\n%s", a, b);
}

static int
compute_path (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  GError *error = NULL;
  g_autofree char *from_text = NULL, *to_text = NULL;
  Common common = { 0 };
  GOptionEntry extra[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_text, "P0 of the commanded segment, mm", "X0,Y0" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to_text, "P1 of the commanded segment, mm", "X1,Y1" },
    { NULL }
  };
  double p0[2], p1[2];
  NbClauseCsv in = { 0 };

  g_option_context_set_summary (context,
    "Path deviation, ISO 18646-2 clause 8: per trial the signed perpendicular\n"
    "deviation d_i of largest magnitude from the segment P0→P1 (positive = left of\n"
    "travel), over the samples whose projection falls on the segment; then\n"
    "d = max |d_i|, the mean, the mean of |d_i| and the sample standard deviation.\n\n"
    "Columns: trial, x_mm, y_mm, optional t_s (non-decreasing within a trial).\n"
    "Samples are grouped by trial; trials are reported in order of first appearance.\n"
    "The file is streamed: memory does not grow with the number of samples.");
  common_entries (context, &common, extra);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !common_setup (&common, &error) ||
      !nb_cli_parse_numbers ("from", from_text, p0, 2, "X0,Y0 in mm", &error) ||
      !nb_cli_parse_numbers ("to", to_text, p1, 2, "X1,Y1 in mm", &error) ||
      !nb_segment_init (&in.segment, p0[0], p0[1], p1[0], p1[1], &error) ||
      !require_input ("input", common.input, &error))
    return fail (&common, error);
  in.input = common.input;
  return compute_print (8, &common, &in, text_path);
}

/* ----------------------------------------------------------- 10: mapping -- */

static char *
text_mapping (const NbClauseCsvFigures *f)
{
  g_autofree char *title = clause_title (f->clause);
  g_autoptr (NbTable) t = nb_table_new (title);
  guint r;

  nb_table_add_column (t, "trial", "trial", NULL, 0);
  nb_table_add_column (t, "dm_mm", "Dm", "mm", 2);
  for (guint i = 0; i < f->n_trials; i++)
    {
      g_autofree char *name = g_strdup_printf ("%u", g_array_index (f->maps, NbMapCorners, i).trial);

      r = nb_table_add_row (t);
      nb_table_set_text (t, r, 0, name);
      nb_table_set_number (t, r, 1, f->dm_mm[i]);
    }
  r = nb_table_add_row (t);
  nb_table_set_text (t, r, 0, "accuracy (max Dm)");
  nb_table_set_number (t, r, 1, f->accuracy_mm);
  note_trials (t, f->clause, NULL, f->n_trials);
  return nb_table_to_text (t);
}

static int
compute_mapping (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  GError *error = NULL;
  g_autofree char *truth_path = NULL, *map_path = NULL;
  Common common = { 0 };
  const GOptionEntry entries[] = {
    { "truth", 0, 0, G_OPTION_ARG_FILENAME, &truth_path, "the arena's corners A_1..A_4",
      "T.csv" },
    { "map", 0, 0, G_OPTION_ARG_FILENAME, &map_path, "the map's corners A'_1..A'_4 per trial",
      "M.csv" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &common.json, "one JSON object on stdout", NULL },
    { NULL }
  };
  NbClauseCsv in = { 0 };

  g_option_context_set_summary (context,
    "Mapping accuracy, ISO 18646-2 clause 10: per trial Dm, the mean distance between\n"
    "the arena's four corners and the map's; the accuracy is the largest Dm.\n\n"
    "Truth columns: corner (1–4), x_mm, y_mm.  Map columns: trial, corner, x_mm, y_mm.\n"
    "Every trial gives each of the four corners once; the standard asks for 3 trials.");
  g_option_context_add_main_entries (context, entries, NULL);
  unc_entries (context, &common.unc);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !common_setup (&common, &error) ||
      !require_input ("truth", truth_path, &error) ||
      !require_input ("map", map_path, &error))
    return fail (&common, error);
  in.truth = truth_path;
  in.map = map_path;
  return compute_print (10, &common, &in, text_mapping);
}

/* --------------------------------------------------------- 6: detection -- */

static void
row_detection (NbTable *t, const char *name, const NbDetectionTally *tally)
{
  guint r = nb_table_add_row (t);

  nb_table_set_text (t, r, 0, name);
  nb_table_set_number (t, r, 1, tally->placements);
  nb_table_set_number (t, r, 2, tally->detected);
  nb_table_set_number (t, r, 3, nb_detection_tally_mean_error_pct (tally));
  nb_table_set_number (t, r, 4, nb_detection_tally_mean_accuracy_pct (tally));
}

static char *
text_detection (const NbClauseCsvFigures *f)
{
  const NbDetectionResult *res = &f->detection;
  g_autofree char *title = clause_title (f->clause);
  g_autoptr (NbTable) t = nb_table_new (title);

  nb_table_add_column (t, "obstacle", "obstacle", NULL, 0);
  nb_table_add_column (t, "placements", "placements", NULL, 0);
  nb_table_add_column (t, "detected", "detected", NULL, 0);
  nb_table_add_column (t, "mean_error_pct", "mean error", "%", 2);
  nb_table_add_column (t, "mean_accuracy_pct", "mean accuracy", "%", 2);
  for (guint i = 0; i < res->obstacles->len; i++)
    {
      NbObstacleTally *o = &g_array_index (res->obstacles, NbObstacleTally, i);

      row_detection (t, o->obstacle, &o->tally);
      note_trials (t, f->clause, o->obstacle, o->tally.placements);
    }
  row_detection (t, "all obstacles", &res->all);
  return nb_table_to_text (t);
}

static int
compute_detection (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  GError *error = NULL;
  Common common = { 0 };
  NbClauseCsv in = { 0 };

  g_option_context_set_summary (context,
    "Obstacle detection, ISO 18646-2 clause 6: per placement detected or not and\n"
    "error = 100·|measured − true| / true; the mean accuracy (100 − error) over the\n"
    "detected placements, per obstacle and overall.\n\n"
    "Columns: obstacle, angle_deg, range (min|max), true_mm, measured_mm (empty when\n"
    "not detected), detected (0|1).  The standard places each obstacle in 8\n"
    "directions at both ranges: 16 placements.");
  common_entries (context, &common, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !common_setup (&common, &error) ||
      !require_input ("input", common.input, &error))
    return fail (&common, error);
  in.input = common.input;
  return compute_print (6, &common, &in, text_detection);
}

/* -------------------------------------------------- 7, 9: timed trials -- */

static char *
text_avoidance (const NbClauseCsvFigures *f)
{
  g_autofree char *title = clause_title (f->clause);
  g_autoptr (NbTable) t = nb_table_new (title);

  nb_table_add_column (t, "config", "configuration", NULL, 0);
  nb_table_add_column (t, "passed", "passed", NULL, 0);
  nb_table_add_column (t, "t0_s", "T0", "s", 2);
  nb_table_add_column (t, "t1_s", "T1", "s", 2);
  nb_table_add_column (t, "delay_ratio", "T1/T0", NULL, 3);
  for (guint i = 0; i < f->configs->len; i++)
    {
      const NbClauseCsvConfig *c = &g_array_index (f->configs, NbClauseCsvConfig, i);
      const NbAvoidanceResult *res = &c->avoidance;
      guint r = nb_table_add_row (t);

      nb_table_set_text (t, r, 0, c->config);
      nb_table_set_bool (t, r, 1, res->passed);
      nb_table_set_number (t, r, 2, res->t0_s);
      nb_table_set_number (t, r, 3, res->t1_s);
      nb_table_set_number (t, r, 4, res->delay_ratio);
      if (c->trials->len < NB_AVOIDANCE_TRIALS)
        {
          g_autofree char *note = g_strdup_printf (
            "Note: %s: %u trial%s with the obstacle; 7.3 decides on the first three.",
            c->config, c->trials->len, c->trials->len == 1 ? "" : "s");

          nb_table_add_note (t, note);
        }
      if (!isfinite (res->t0_s))
        {
          g_autofree char *note = g_strdup_printf (
            "Note: %s: fewer than three successful trials without the obstacle: no T0.",
            c->config);

          nb_table_add_note (t, note);
        }
    }
  return nb_table_to_text (t);
}

static int
compute_avoidance (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  GError *error = NULL;
  Common common = { 0 };
  NbClauseCsv in = { 0 };

  g_option_context_set_summary (context,
    "Obstacle avoidance, ISO 18646-2 clause 7: a configuration passes only if its\n"
    "first three trials with the obstacle succeed; T0 is the mean travel time of the\n"
    "first three successful trials without obstacle, T1 the largest of the first three\n"
    "successful trials with it, and the delay ratio T1/T0.\n\n"
    "Columns: config, kind (baseline|obstacle), trial (its number), time_s (may be\n"
    "empty for a failed trial), success (0|1).");
  common_entries (context, &common, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !common_setup (&common, &error) ||
      !require_input ("input", common.input, &error))
    return fail (&common, error);
  in.input = common.input;
  return compute_print (7, &common, &in, text_avoidance);
}

/* ----------------------------------------------------------- 9: passage -- */

static char *
text_passage (const NbClauseCsvFigures *f)
{
  g_autofree char *title = clause_title (f->clause);
  g_autoptr (NbTable) t = nb_table_new (title);

  nb_table_add_column (t, "config", "configuration", NULL, 0);
  nb_table_add_column (t, "passed", "passed", NULL, 0);
  nb_table_add_column (t, "mean_time_s", "passage time", "s", 2);
  nb_table_add_column (t, "trials", "trials", NULL, 0);
  nb_table_add_column (t, "failed_trials", "failed", NULL, 0);
  for (guint i = 0; i < f->configs->len; i++)
    {
      const NbClauseCsvConfig *c = &g_array_index (f->configs, NbClauseCsvConfig, i);
      guint r = nb_table_add_row (t);

      nb_table_set_text (t, r, 0, c->config);
      nb_table_set_bool (t, r, 1, c->passage.passed);
      nb_table_set_number (t, r, 2, c->passage.mean_time_s);
      nb_table_set_number (t, r, 3, c->trials->len);
      nb_table_set_number (t, r, 4, c->passage.failed_trials);
    }
  return nb_table_to_text (t);
}

static int
compute_passage (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  GError *error = NULL;
  Common common = { 0 };
  NbClauseCsv in = { 0 };

  g_option_context_set_summary (context,
    "Narrow passage, ISO 18646-2 clause 9: the mean passage time of the first five\n"
    "consecutive successful trials (in trial order); a configuration without five\n"
    "consecutive successes does not pass.\n\n"
    "Columns: config, trial (its number), time_s (may be empty for a failed trial),\n"
    "success (0|1).");
  common_entries (context, &common, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !common_setup (&common, &error) ||
      !require_input ("input", common.input, &error))
    return fail (&common, error);
  in.input = common.input;
  return compute_print (9, &common, &in, text_passage);
}

/* ------------------------------------------------------------- dispatch -- */

static const NbCliCommand compute_commands[] = {
  { "pose", compute_pose, "clause 5: pose accuracy and repeatability (Ap, Ao, Rp, Ro)" },
  { "detection", compute_detection, "clause 6: obstacle detection accuracy" },
  { "avoidance", compute_avoidance, "clause 7: obstacle avoidance (pass, T0, T1, delay ratio)" },
  { "path", compute_path, "clause 8: path deviation (d_i, d = max |d_i|)" },
  { "passage", compute_passage, "clause 9: narrow passage time" },
  { "mapping", compute_mapping, "clause 10: mapping accuracy (Dm)" },
  { "ape", nb_cli_compute_ape, "trajectory: absolute pose error against ground truth (evo_ape)" },
  { "rpe", nb_cli_compute_rpe, "trajectory: relative pose error against ground truth (evo_rpe)" },
  { "iso9283", nb_cli_compute_iso9283, "ISO 9283 (manipulators): pose, distance, stabilisation, path, corner, weaving" },
};

int
nb_cli_compute (int argc, char **argv)
{
  return nb_cli_dispatch ("compute", compute_commands, G_N_ELEMENTS (compute_commands), argc,
                          argv);
}
