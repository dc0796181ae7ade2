/* navbench-cli compute — the figures of ISO 18646-2 clauses 5–10 from CSV
 *
 * Each subcommand reads one table (see --help for its columns), computes with
 * the core metric engine and prints one JSON object (--json) or the
 * protocol's table for a person.  Input is checked row by row; the first bad
 * row stops everything with "FILE:LINE: reason" and exit status 2.
 */
#include "nb-cli.h"

#include "nb-clause.h"
#include "nb-clause-results.h"
#include "nb-clause-figures.h"
#include "nb-csv-reader.h"
#include "nb-measurements.h"
#include "nb-error.h"
#include "nb-json-writer.h"
#include "nb-map-fit.h"
#include "nb-metrics.h"
#include "nb-table.h"
#include "nb-unc-iso.h"
#include "nb-unc-report.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- shared -- */

/* The measurement system's stated accuracy and the other inputs of the
 * uncertainty budgets (core/unc); given any accuracy, --json carries an
 * "uncertainty" object with one member per figure. */
typedef struct {
  double accuracy_mm;           /* a constant, at k = 2 */
  char *accuracy;               /* the data sheet's form: "15 µm + 6 µm/m (k=2)" */
  double accuracy_deg;
  double range_m;
  double random_mm;
  double sample_rate_hz;
  double sync_s;
  double speed_mm_s;
  double target_mm;
  double placement_mm;
  double resolution_mm;
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
      "its angular (heading) accuracy, ° (k = 2)", "B" },
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
  s->range_m = u->range_m;
  s->random_mm = u->random_mm;
  s->sample_period_s = u->sample_rate_hz > 0.0 ? 1.0 / u->sample_rate_hz : 0.0;
  s->sync_s = u->sync_s;
  s->speed_mm_s = u->speed_mm_s;
  s->target_mm = u->target_mm;
  s->placement_mm = u->placement_mm;
  s->map_resolution_mm = u->resolution_mm;
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
clause_title (guint number, const char *what)
{
  const NbClause *clause = nb_clause_get (number);

  return g_strdup_printf ("ISO 18646-2 clause %u — %s%s%s (protocol table %u)", number,
                          clause->title, what ? ": " : "", what ? what : "", clause->table);
}

static void
note_trials (NbTable *table, guint clause_number, const char *config, guint n)
{
  g_autofree char *note = nb_clause_check_trials (nb_clause_get (clause_number), n);

  if (note != NULL)
    {
      g_autofree char *line = config ? g_strdup_printf ("Note: %s: %s.", config, note)
                                     : g_strdup_printf ("Note: %s.", note);

      nb_table_add_note (table, line);
    }
}

/* -------------------------------------------------------------- 5: pose -- */

static int
compute_pose (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) poses = NULL;
  g_autoptr (NbUncBudget) budget = NULL;
  g_autofree char *command_text = NULL;
  Common common = { 0 };
  GOptionEntry extra[] = {
    { "command", 0, 0, G_OPTION_ARG_STRING, &command_text,
      "the command pose: x, y in mm and heading in degrees", "X,Y,THETA" },
    { NULL }
  };
  double command[3];
  NbPose c;
  NbPoseResult res;

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
      !require_input ("input", common.input, &error) ||
      (poses = nb_measurements_read_poses (common.input, &error)) == NULL)
    goto fail;

  c = (NbPose) { command[0], command[1], command[2] };
  if (!nb_metrics_pose (&c, (NbPose *) poses->data, poses->len, &res, &error))
    {
      g_prefix_error (&error, "%s: ", common.input);
      goto fail;
    }
  if (common.json && common.uncertainty &&
      (budget = nb_unc_pose (&common.setup, &c, (NbPose *) poses->data, poses->len,
                             (guint64) common.unc.seed, &error)) == NULL)
    {
      g_prefix_error (&error, "%s: ", common.input);
      goto fail;
    }
  common_clear (&common);

  if (common.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_clause_json_pose (w, &res);
      if (budget != NULL)
        nb_unc_json_budget (w, budget);
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autofree char *title = clause_title (5, NULL);
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
      nb_table_set_number (t, r, 0, (double) res.n);
      nb_table_set_number (t, r, 1, res.ap_mm);
      nb_table_set_number (t, r, 2, res.ao_deg);
      nb_table_set_number (t, r, 3, res.rp_mm);
      nb_table_set_number (t, r, 4, res.ro_deg);
      note_trials (t, 5, NULL, (guint) res.n);

      nb_table_add_column (d, "x_bar", "x̄", "mm", 3);
      nb_table_add_column (d, "y_bar", "ȳ", "mm", 3);
      nb_table_add_column (d, "o_bar", "ō", "°", 3);
      nb_table_add_column (d, "l_mean", "l̄", "mm", 3);
      nb_table_add_column (d, "s_l", "S_l", "mm", 3);
      nb_table_add_column (d, "s_o", "S_o", "°", 4);
      r = nb_table_add_row (d);
      nb_table_set_number (d, r, 0, res.barycentre_x_mm);
      nb_table_set_number (d, r, 1, res.barycentre_y_mm);
      nb_table_set_number (d, r, 2, res.mean_theta_deg);
      nb_table_set_number (d, r, 3, res.l_mean_mm);
      nb_table_set_number (d, r, 4, res.s_l_mm);
      nb_table_set_number (d, r, 5, res.s_o_deg);
      a = nb_table_to_text (t);
      b = nb_table_to_text (d);
      return emit (g_strdup_printf ("%s\n%s", a, b));
    }

fail:
  common_clear (&common);
  return nb_cli_report_error (error);
}

/* -------------------------------------------------------------- 8: path -- */

/* nb_measurements_read_path → the shared grouping of trials. */
static gboolean
path_sample (const char *trial, gboolean new_run, guint64 line, double x_mm, double y_mm,
             double t_s, gpointer user_data, GError **error)
{
  nb_path_run_push (user_data, trial, new_run, line, x_mm, y_mm);
  return TRUE;
}

static int
compute_path (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbPathRun) run = NULL;
  g_autoptr (NbUncBudget) budget = NULL;
  g_autofree char *from_text = NULL, *to_text = NULL;
  g_autofree double *d = NULL;
  Common common = { 0 };
  GOptionEntry extra[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_text, "P0 of the commanded segment, mm", "X0,Y0" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to_text, "P1 of the commanded segment, mm", "X1,Y1" },
    { NULL }
  };
  double p0[2], p1[2];
  NbSegment segment;
  NbPathResult res;
  guint n;

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
      !nb_segment_init (&segment, p0[0], p0[1], p1[0], p1[1], &error) ||
      !require_input ("input", common.input, &error))
    goto fail;
  run = nb_path_run_new (&segment);
  if (!nb_measurements_read_path (common.input, path_sample, run, &error) ||
      (d = nb_path_run_finish (run, common.input, &res, &error)) == NULL)
    goto fail;
  n = nb_path_run_n_trials (run);
  if (common.json && common.uncertainty &&
      (budget = nb_unc_path (&common.setup, d, n, &segment, (guint64) common.unc.seed,
                             &error)) == NULL)
    {
      g_prefix_error (&error, "%s: ", common.input);
      goto fail;
    }
  common_clear (&common);

  if (common.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      g_autofree const char **labels = g_new (const char *, MAX (n, 1));

      for (guint i = 0; i < n; i++)
        labels[i] = nb_path_run_trial (run, i)->label;
      nb_json_begin_object (w);
      nb_clause_json_path (w, &res, nb_path_run_samples (run), labels, d, n);
      if (budget != NULL)
        nb_unc_json_budget (w, budget);
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autofree char *title = clause_title (8, NULL);
      g_autoptr (NbTable) t = nb_table_new (title);
      g_autoptr (NbTable) per = nb_table_new ("Deviation per trial (8.2; positive = left of travel)");
      g_autofree char *a = NULL, *b = NULL;
      guint r;

      nb_table_add_column (per, "trial", "trial", NULL, 0);
      nb_table_add_column (per, "samples", "samples", NULL, 0);
      nb_table_add_column (per, "on_segment", "on P0→P1", NULL, 0);
      nb_table_add_column (per, "d_mm", "d_i", "mm", 2);
      for (guint i = 0; i < n; i++)
        {
          const NbPathRunTrial *pt = nb_path_run_trial (run, i);

          r = nb_table_add_row (per);
          nb_table_set_text (per, r, 0, pt->label);
          nb_table_set_number (per, r, 1, (double) pt->acc.n_samples);
          nb_table_set_number (per, r, 2, (double) pt->acc.n_on_segment);
          nb_table_set_number (per, r, 3, d[i]);
        }
      nb_table_add_column (t, "n", "n", NULL, 0);
      nb_table_add_column (t, "max_mm", "d = max |d_i|", "mm", 2);
      nb_table_add_column (t, "mean_mm", "mean d_i", "mm", 2);
      nb_table_add_column (t, "mean_abs_mm", "mean |d_i|", "mm", 2);
      nb_table_add_column (t, "std_mm", "std d_i", "mm", 2);
      r = nb_table_add_row (t);
      nb_table_set_number (t, r, 0, (double) res.n);
      nb_table_set_number (t, r, 1, res.max_mm);
      nb_table_set_number (t, r, 2, res.mean_mm);
      nb_table_set_number (t, r, 3, res.mean_abs_mm);
      nb_table_set_number (t, r, 4, res.std_mm);
      note_trials (t, 8, NULL, (guint) res.n);
      a = nb_table_to_text (per);
      b = nb_table_to_text (t);
      return emit (g_strdup_printf ("%s\n%s", a, b));
    }

fail:
  common_clear (&common);
  return nb_cli_report_error (error);
}

/* ----------------------------------------------------------- 10: mapping -- */

static int
compute_mapping (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) trials = NULL;
  g_autofree char *truth_path = NULL, *map_path = NULL;
  g_autofree double *dm = NULL, *heading = NULL;
  g_autoptr (NbUncBudget) budget = NULL;
  UncOptions unc = { 0 };
  NbUncSetup setup;
  gboolean json = FALSE, uncertainty = FALSE;
  const GOptionEntry entries[] = {
    { "truth", 0, 0, G_OPTION_ARG_FILENAME, &truth_path, "the arena's corners A_1..A_4",
      "T.csv" },
    { "map", 0, 0, G_OPTION_ARG_FILENAME, &map_path, "the map's corners A'_1..A'_4 per trial",
      "M.csv" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };
  double truth[4][2], accuracy;
  guint window;

  g_option_context_set_summary (context,
    "Mapping accuracy, ISO 18646-2 clause 10: per trial Dm, the mean distance between\n"
    "the arena's four corners and the map's; the accuracy is the largest Dm.\n\n"
    "Truth columns: corner (1–4), x_mm, y_mm.  Map columns: trial, corner, x_mm, y_mm.\n"
    "Every trial gives each of the four corners once; the standard asks for 3 trials.");
  g_option_context_add_main_entries (context, entries, NULL);
  unc_entries (context, &unc);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !unc_setup (&unc, &setup, &uncertainty, &error) ||
      !require_input ("truth", truth_path, &error) ||
      !require_input ("map", map_path, &error) ||
      !nb_measurements_read_truth_corners (truth_path, truth, &error) ||
      (trials = nb_measurements_read_map_corners (map_path, &error)) == NULL)
    return nb_cli_report_error (error);

  dm = g_new (double, MAX (trials->len, 1));
  heading = g_new (double, MAX (trials->len, 1));
  for (guint i = 0; i < trials->len; i++)
    {
      dm[i] = nb_metrics_dm ((const double (*)[2]) truth,
                             (const double (*)[2]) g_array_index (trials, NbMapCorners, i).corner_mm);
      /* 10.2: the map's heading against the arena (as campaign results gives it) */
      heading[i] = nb_map_heading_deg ((const double (*)[2]) truth, (const double (*)[2])
                                       g_array_index (trials, NbMapCorners, i).corner_mm);
    }
  /* 10.3: the rows of compute are successful maps; the figure is the largest
   * Dm of the first three consecutive ones (NaN: fewer than three). */
  accuracy = nb_mapping_accuracy_mm (dm, NULL, trials->len, &window);
  if (json && uncertainty)
    {
      /* The trials' corners side by side, as the model takes them. */
      g_autofree double (*corners)[4][2] = g_malloc (MAX (trials->len, 1) * sizeof *corners);

      for (guint i = 0; i < trials->len; i++)
        memcpy (corners[i], g_array_index (trials, NbMapCorners, i).corner_mm, sizeof corners[i]);
      /* The mapping accuracy's budget over the maps the figure takes. */
      budget = nb_unc_mapping (&setup, (const double (*)[2]) truth,
                               (const double (*)[4][2]) corners, NULL, trials->len,
                               window != G_MAXUINT ? window : 0,
                               window != G_MAXUINT ? NB_MAPPING_CONSECUTIVE : 0,
                               (guint64) unc.seed, &error);
    }
  g_free (unc.accuracy);
  if (json && uncertainty && budget == NULL)
    return nb_cli_report_error (error);

  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      g_autofree guint *numbers = g_new (guint, MAX (trials->len, 1));

      for (guint i = 0; i < trials->len; i++)
        numbers[i] = g_array_index (trials, NbMapCorners, i).trial;
      nb_json_begin_object (w);
      nb_clause_json_mapping (w, numbers, dm, heading, trials->len, accuracy);
      if (budget != NULL)
        nb_unc_json_budget (w, budget);
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autofree char *title = clause_title (10, NULL);
      g_autoptr (NbTable) t = nb_table_new (title);
      guint r;

      nb_table_add_column (t, "trial", "trial", NULL, 0);
      nb_table_add_column (t, "dm_mm", "Dm", "mm", 2);
      for (guint i = 0; i < trials->len; i++)
        {
          g_autofree char *name = g_strdup_printf ("%u", g_array_index (trials, NbMapCorners, i).trial);

          r = nb_table_add_row (t);
          nb_table_set_text (t, r, 0, name);
          nb_table_set_number (t, r, 1, dm[i]);
        }
      r = nb_table_add_row (t);
      nb_table_set_text (t, r, 0, "accuracy (max Dm)");
      nb_table_set_number (t, r, 1, accuracy);
      note_trials (t, 10, NULL, trials->len);
      return emit (nb_table_to_text (t));
    }
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

/* The placements into the clause 6 model (nb_clause_unc_detection: one
 * place for it, the clause module's). */
static NbUncBudget *
detection_budget (const NbUncSetup *setup, GArray *placements, const NbDetectionResult *res,
                  guint64 seed, GError **error)
{
  guint n = placements->len;
  g_autofree const char **o = g_new (const char *, MAX (n, 1));
  g_autofree double *t = g_new (double, MAX (n, 1));
  g_autofree double *m = g_new (double, MAX (n, 1));
  g_autofree gboolean *d = g_new (gboolean, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      NbPlacement *p = &g_array_index (placements, NbPlacement, i);

      o[i] = p->obstacle;
      t[i] = p->true_mm;
      m[i] = p->measured_mm;
      d[i] = p->detected;
    }
  return nb_clause_unc_detection (setup, res, o, t, m, d, n, seed, error);
}

static int
compute_detection (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) placements = NULL;
  g_autoptr (NbUncBudget) budget = NULL;
  Common common = { 0 };
  NbDetectionResult res;
  int status;

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
      !require_input ("input", common.input, &error) ||
      (placements = nb_measurements_read_detection (common.input, &error)) == NULL)
    goto fail;

  nb_detection_result_init (&res);
  for (guint i = 0; i < placements->len; i++)
    {
      NbPlacement *p = &g_array_index (placements, NbPlacement, i);

      nb_detection_result_add (&res, p->obstacle, p->true_mm, p->detected, p->measured_mm);
    }
  if (common.json && common.uncertainty && res.all.detected > 0 &&
      (budget = detection_budget (&common.setup, placements, &res, (guint64) common.unc.seed,
                                  &error)) == NULL)
    {
      nb_detection_result_clear (&res);
      g_prefix_error (&error, "%s: ", common.input);
      goto fail;
    }
  common_clear (&common);

  if (common.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_clause_json_detection (w, &res);
      if (budget != NULL)
        nb_clause_json_detection_unc (w, budget, &res);
      nb_json_end_object (w);
      status = emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autofree char *title = clause_title (6, NULL);
      g_autoptr (NbTable) t = nb_table_new (title);

      nb_table_add_column (t, "obstacle", "obstacle", NULL, 0);
      nb_table_add_column (t, "placements", "placements", NULL, 0);
      nb_table_add_column (t, "detected", "detected", NULL, 0);
      nb_table_add_column (t, "mean_error_pct", "mean error", "%", 2);
      nb_table_add_column (t, "mean_accuracy_pct", "mean accuracy", "%", 2);
      for (guint i = 0; i < res.obstacles->len; i++)
        {
          NbObstacleTally *o = &g_array_index (res.obstacles, NbObstacleTally, i);

          row_detection (t, o->obstacle, &o->tally);
          note_trials (t, 6, o->obstacle, o->tally.placements);
        }
      row_detection (t, "all obstacles", &res.all);
      status = emit (nb_table_to_text (t));
    }
  nb_detection_result_clear (&res);
  return status;

fail:
  common_clear (&common);
  return nb_cli_report_error (error);
}

/* -------------------------------------------------- 7, 9: timed trials -- */

typedef struct {
  const char *config;                   /* owned by the rows array */
  GArray *baseline;                     /* of NbTimedTrial; clause 7 only */
  GArray *trials;                       /* with obstacle (7) or through the passage (9) */
} Config;

static void
config_clear (gpointer p)
{
  Config *c = p;

  g_array_unref (c->baseline);
  g_array_unref (c->trials);
}

/* Groups rows by configuration, in order of first appearance. */
static GArray *
group_configs (GArray *rows)
{
  GArray *configs = g_array_new (FALSE, FALSE, sizeof (Config));
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);

  g_array_set_clear_func (configs, config_clear);
  for (guint i = 0; i < rows->len; i++)
    {
      NbTimedRow *row = &g_array_index (rows, NbTimedRow, i);
      gpointer found;
      Config *c;

      if (g_hash_table_lookup_extended (index, row->config, NULL, &found))
        c = &g_array_index (configs, Config, GPOINTER_TO_UINT (found));
      else
        {
          Config fresh = { row->config, g_array_new (FALSE, FALSE, sizeof (NbTimedTrial)),
                           g_array_new (FALSE, FALSE, sizeof (NbTimedTrial)) };

          g_array_append_val (configs, fresh);
          g_hash_table_insert (index, row->config, GUINT_TO_POINTER (configs->len - 1));
          c = &g_array_index (configs, Config, configs->len - 1);
        }
      g_array_append_val (row->baseline ? c->baseline : c->trials, row->trial);
    }
  return configs;
}

static int
compute_avoidance (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) rows = NULL, configs = NULL;
  g_autofree NbAvoidanceResult *res = NULL;
  g_autoptr (GPtrArray) budgets = g_ptr_array_new_with_free_func ((GDestroyNotify) nb_unc_budget_free);
  Common common = { 0 };

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
      !require_input ("input", common.input, &error) ||
      (rows = nb_measurements_read_avoidance (common.input, &error)) == NULL)
    goto fail;

  configs = group_configs (rows);
  res = g_new0 (NbAvoidanceResult, configs->len);
  for (guint i = 0; i < configs->len; i++)
    {
      Config *c = &g_array_index (configs, Config, i);

      if (!nb_metrics_avoidance ((NbTimedTrial *) c->baseline->data, c->baseline->len,
                                 (NbTimedTrial *) c->trials->data, c->trials->len, &res[i],
                                 &error))
        {
          g_prefix_error (&error, "%s: config '%s': ", common.input, c->config);
          goto fail;
        }
      /* Uncertainty where the figures exist (T0 and T1 from three trials each). */
      if (common.json && common.uncertainty && isfinite (res[i].t0_s) && isfinite (res[i].t1_s))
        {
          NbUncBudget *b = nb_unc_avoidance_trials (&common.setup,
                                                    (NbTimedTrial *) c->baseline->data,
                                                    c->baseline->len,
                                                    (NbTimedTrial *) c->trials->data,
                                                    c->trials->len, (guint64) common.unc.seed,
                                                    &error);

          if (b == NULL)
            {
              g_prefix_error (&error, "%s: config '%s': ", common.input, c->config);
              goto fail;
            }
          g_ptr_array_add (budgets, b);
        }
      else
        g_ptr_array_add (budgets, NULL);
    }
  common_clear (&common);

  if (common.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "configs");
      nb_json_begin_array (w);
      for (guint i = 0; i < configs->len; i++)
        {
          nb_json_begin_object (w);
          nb_json_key (w, "config"); nb_json_string (w, g_array_index (configs, Config, i).config);
          nb_clause_json_avoidance (w, &res[i]);
          if (g_ptr_array_index (budgets, i) != NULL)
            nb_unc_json_budget (w, g_ptr_array_index (budgets, i));
          nb_json_end_object (w);
        }
      nb_json_end_array (w);
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autofree char *title = clause_title (7, NULL);
      g_autoptr (NbTable) t = nb_table_new (title);

      nb_table_add_column (t, "config", "configuration", NULL, 0);
      nb_table_add_column (t, "passed", "passed", NULL, 0);
      nb_table_add_column (t, "t0_s", "T0", "s", 2);
      nb_table_add_column (t, "t1_s", "T1", "s", 2);
      nb_table_add_column (t, "delay_ratio", "T1/T0", NULL, 3);
      for (guint i = 0; i < configs->len; i++)
        {
          Config *c = &g_array_index (configs, Config, i);
          guint r = nb_table_add_row (t);

          nb_table_set_text (t, r, 0, c->config);
          nb_table_set_bool (t, r, 1, res[i].passed);
          nb_table_set_number (t, r, 2, res[i].t0_s);
          nb_table_set_number (t, r, 3, res[i].t1_s);
          nb_table_set_number (t, r, 4, res[i].delay_ratio);
          if (c->trials->len < NB_AVOIDANCE_TRIALS)
            {
              g_autofree char *note = g_strdup_printf (
                "Note: %s: %u trial%s with the obstacle; 7.3 decides on the first three.",
                c->config, c->trials->len, c->trials->len == 1 ? "" : "s");

              nb_table_add_note (t, note);
            }
          if (!isfinite (res[i].t0_s))
            {
              g_autofree char *note = g_strdup_printf (
                "Note: %s: fewer than three successful trials without the obstacle: no T0.",
                c->config);

              nb_table_add_note (t, note);
            }
        }
      return emit (nb_table_to_text (t));
    }

fail:
  common_clear (&common);
  return nb_cli_report_error (error);
}

/* ----------------------------------------------------------- 9: passage -- */

static int
compute_passage (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) rows = NULL, configs = NULL;
  g_autofree NbPassageResult *res = NULL;
  g_autoptr (GPtrArray) budgets = g_ptr_array_new_with_free_func ((GDestroyNotify) nb_unc_budget_free);
  Common common = { 0 };

  g_option_context_set_summary (context,
    "Narrow passage, ISO 18646-2 clause 9: the mean passage time of the first five\n"
    "consecutive successful trials (in trial order); a configuration without five\n"
    "consecutive successes does not pass.\n\n"
    "Columns: config, trial (its number), time_s (may be empty for a failed trial),\n"
    "success (0|1).");
  common_entries (context, &common, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !common_setup (&common, &error) ||
      !require_input ("input", common.input, &error) ||
      (rows = nb_measurements_read_passage (common.input, &error)) == NULL)
    goto fail;

  configs = group_configs (rows);
  res = g_new0 (NbPassageResult, configs->len);
  for (guint i = 0; i < configs->len; i++)
    {
      Config *c = &g_array_index (configs, Config, i);

      if (!nb_metrics_passage ((NbTimedTrial *) c->trials->data, c->trials->len, &res[i], &error))
        {
          g_prefix_error (&error, "%s: config '%s': ", common.input, c->config);
          goto fail;
        }
      if (common.json && common.uncertainty && res[i].passed)
        {
          NbUncBudget *b = nb_unc_passage_trials (&common.setup, (NbTimedTrial *) c->trials->data,
                                                  c->trials->len, (guint64) common.unc.seed,
                                                  &error);

          if (b == NULL)
            {
              g_prefix_error (&error, "%s: config '%s': ", common.input, c->config);
              goto fail;
            }
          g_ptr_array_add (budgets, b);
        }
      else
        g_ptr_array_add (budgets, NULL);
    }
  common_clear (&common);

  if (common.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "configs");
      nb_json_begin_array (w);
      for (guint i = 0; i < configs->len; i++)
        {
          nb_json_begin_object (w);
          nb_json_key (w, "config"); nb_json_string (w, g_array_index (configs, Config, i).config);
          nb_clause_json_passage (w, &res[i]);
          if (g_ptr_array_index (budgets, i) != NULL)
            nb_unc_json_budget (w, g_ptr_array_index (budgets, i));
          nb_json_end_object (w);
        }
      nb_json_end_array (w);
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autofree char *title = clause_title (9, NULL);
      g_autoptr (NbTable) t = nb_table_new (title);

      nb_table_add_column (t, "config", "configuration", NULL, 0);
      nb_table_add_column (t, "passed", "passed", NULL, 0);
      nb_table_add_column (t, "mean_time_s", "passage time", "s", 2);
      nb_table_add_column (t, "trials", "trials", NULL, 0);
      nb_table_add_column (t, "failed_trials", "failed", NULL, 0);
      for (guint i = 0; i < configs->len; i++)
        {
          Config *c = &g_array_index (configs, Config, i);
          guint r = nb_table_add_row (t);

          nb_table_set_text (t, r, 0, c->config);
          nb_table_set_bool (t, r, 1, res[i].passed);
          nb_table_set_number (t, r, 2, res[i].mean_time_s);
          nb_table_set_number (t, r, 3, c->trials->len);
          nb_table_set_number (t, r, 4, res[i].failed_trials);
        }
      return emit (nb_table_to_text (t));
    }

fail:
  common_clear (&common);
  return nb_cli_report_error (error);
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
  { "iso9283", nb_cli_compute_iso9283, "ISO 9283 (manipulators): pose, distance, stabilisation, path, corner" },
};

int
nb_cli_compute (int argc, char **argv)
{
  return nb_cli_dispatch ("compute", compute_commands, G_N_ELEMENTS (compute_commands), argc,
                          argv);
}
