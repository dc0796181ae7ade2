/* navbench-cli compute — the figures of ISO 18646-2 clauses 5–10 from CSV
 *
 * Each subcommand reads one table (see --help for its columns), computes with
 * the core metric engine and prints one JSON object (--json) or the
 * protocol's table for a person.  Input is checked row by row; the first bad
 * row stops everything with "FILE:LINE: reason" and exit status 2.
 */
#include "nb-cli.h"

#include "nb-clause.h"
#include "nb-csv-reader.h"
#include "nb-error.h"
#include "nb-json-writer.h"
#include "nb-metrics.h"
#include "nb-table.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- shared -- */

typedef struct {
  char *input;
  gboolean json;
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
}

static void
common_clear (Common *common)
{
  g_clear_pointer (&common->input, g_free);
}

static NbCsvReader *
open_table (const char *option, const char *path, NbCsvColumn *columns, guint n_columns,
            GError **error)
{
  g_autoptr (NbCsvReader) reader = NULL;

  if (path == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--%s F.csv is required", option);
      return NULL;
    }
  reader = nb_csv_reader_new_for_path (path, error);
  if (reader == NULL || !nb_csv_reader_read_header (reader, columns, n_columns, error))
    return NULL;
  return g_steal_pointer (&reader);
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
  g_autoptr (NbCsvReader) reader = NULL;
  g_autoptr (GArray) poses = g_array_new (FALSE, FALSE, sizeof (NbPose));
  g_autofree char *command_text = NULL;
  Common common = { 0 };
  NbCsvColumn cols[] = { { "x_mm", TRUE }, { "y_mm", TRUE }, { "theta_deg", TRUE } };
  GOptionEntry extra[] = {
    { "command", 0, 0, G_OPTION_ARG_STRING, &command_text,
      "the command pose: x, y in mm and heading in degrees", "X,Y,THETA" },
    { NULL }
  };
  double command[3];
  NbPose c;
  NbPoseResult res;
  int rc;

  g_option_context_set_summary (context,
    "Pose accuracy and repeatability, ISO 18646-2 clause 5: Ap, Ao, Rp, Ro of the\n"
    "attained poses against the command pose.\n\n"
    "Columns: x_mm, y_mm, theta_deg (any order; other columns ignored; '#' lines are\n"
    "comments). At least 2 poses; the standard asks for 30.");
  common_entries (context, &common, extra);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !nb_cli_parse_numbers ("command", command_text, command, 3, "X,Y,THETA (mm, mm, °)",
                             &error) ||
      (reader = open_table ("input", common.input, cols, G_N_ELEMENTS (cols), &error)) == NULL)
    goto fail;

  while ((rc = nb_csv_reader_next (reader, &error)) > 0)
    {
      NbPose p;

      if (!nb_csv_reader_get_double (reader, &cols[0], &p.x_mm, &error) ||
          !nb_csv_reader_get_double (reader, &cols[1], &p.y_mm, &error) ||
          !nb_csv_reader_get_double (reader, &cols[2], &p.theta_deg, &error))
        goto fail;
      g_array_append_val (poses, p);
    }
  if (rc < 0)
    goto fail;
  if (poses->len < 2)
    {
      nb_csv_reader_set_error (reader, &error,
                               "%u attained pose%s: pose repeatability needs at least 2",
                               poses->len, poses->len == 1 ? "" : "s");
      goto fail;
    }

  c = (NbPose) { command[0], command[1], command[2] };
  if (!nb_metrics_pose (&c, (NbPose *) poses->data, poses->len, &res, &error))
    {
      g_prefix_error (&error, "%s: ", nb_csv_reader_name (reader));
      goto fail;
    }
  common_clear (&common);

  if (common.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "n"); nb_json_int (w, (gint64) res.n);
      nb_json_key (w, "barycentre_x_mm"); nb_json_double (w, res.barycentre_x_mm);
      nb_json_key (w, "barycentre_y_mm"); nb_json_double (w, res.barycentre_y_mm);
      nb_json_key (w, "mean_theta_deg"); nb_json_double (w, res.mean_theta_deg);
      nb_json_key (w, "ap_mm"); nb_json_double (w, res.ap_mm);
      nb_json_key (w, "ao_deg"); nb_json_double (w, res.ao_deg);
      nb_json_key (w, "l_mean_mm"); nb_json_double (w, res.l_mean_mm);
      nb_json_key (w, "s_l_mm"); nb_json_double (w, res.s_l_mm);
      nb_json_key (w, "rp_mm"); nb_json_double (w, res.rp_mm);
      nb_json_key (w, "s_o_deg"); nb_json_double (w, res.s_o_deg);
      nb_json_key (w, "ro_deg"); nb_json_double (w, res.ro_deg);
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

typedef struct {
  char *label;
  guint64 first_line;
  double last_t;
  NbPathTrial acc;
} PathTrial;

static void
path_trial_clear (gpointer p)
{
  g_free (((PathTrial *) p)->label);
}

/* The trimmed raw field, without validation: the hot path compares it with
 * the current trial's label and validates only a new one. */
static const char *
raw_trimmed (NbCsvReader *reader, const NbCsvColumn *col, gsize *len)
{
  const char *s = nb_csv_reader_field (reader, col, len);

  while (*len > 0 && (s[0] == ' ' || s[0] == '\t'))
    s++, (*len)--;
  while (*len > 0 && (s[*len - 1] == ' ' || s[*len - 1] == '\t'))
    (*len)--;
  return s;
}

static int
compute_path (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCsvReader) reader = NULL;
  g_autoptr (GArray) trials = g_array_new (FALSE, FALSE, sizeof (PathTrial));
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *from_text = NULL, *to_text = NULL;
  g_autofree double *d = NULL;
  Common common = { 0 };
  NbCsvColumn cols[] = { { "trial", TRUE }, { "x_mm", TRUE }, { "y_mm", TRUE }, { "t_s", FALSE } };
  GOptionEntry extra[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_text, "P0 of the commanded segment, mm", "X0,Y0" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to_text, "P1 of the commanded segment, mm", "X1,Y1" },
    { NULL }
  };
  double p0[2], p1[2];
  NbSegment segment;
  NbPathResult res;
  PathTrial *current = NULL;
  guint64 samples = 0;
  int rc;

  g_array_set_clear_func (trials, path_trial_clear);
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
      !nb_cli_parse_numbers ("from", from_text, p0, 2, "X0,Y0 in mm", &error) ||
      !nb_cli_parse_numbers ("to", to_text, p1, 2, "X1,Y1 in mm", &error) ||
      !nb_segment_init (&segment, p0[0], p0[1], p1[0], p1[1], &error) ||
      (reader = open_table ("input", common.input, cols, G_N_ELEMENTS (cols), &error)) == NULL)
    goto fail;

  while ((rc = nb_csv_reader_next (reader, &error)) > 0)
    {
      gsize len;
      const char *label = raw_trimmed (reader, &cols[0], &len);
      double x, y;

      if (current == NULL || strlen (current->label) != len || memcmp (current->label, label, len) != 0)
        {
          const char *valid = nb_csv_reader_get_text (reader, &cols[0], &error);
          gpointer found;

          if (valid == NULL)
            goto fail;
          if (g_hash_table_lookup_extended (index, valid, NULL, &found))
            current = &g_array_index (trials, PathTrial, GPOINTER_TO_UINT (found));
          else
            {
              PathTrial t = { g_strdup (valid), nb_csv_reader_line (reader), -INFINITY };

              nb_path_trial_init (&t.acc);
              g_array_append_val (trials, t);
              /* The array may move, the labels do not: the table maps
               * each label to its index. */
              current = &g_array_index (trials, PathTrial, trials->len - 1);
              g_hash_table_insert (index, current->label, GUINT_TO_POINTER (trials->len - 1));
            }
        }
      if (!nb_csv_reader_get_double (reader, &cols[1], &x, &error) ||
          !nb_csv_reader_get_double (reader, &cols[2], &y, &error))
        goto fail;
      if (cols[3].index >= 0)
        {
          double t;
          gboolean present;

          if (!nb_csv_reader_get_double_or_empty (reader, &cols[3], &t, &present, &error))
            goto fail;
          if (present && t < current->last_t)
            {
              nb_csv_reader_set_error (reader, &error,
                                       "trial '%s': t_s goes back in time (%g s after %g s)",
                                       current->label, t, current->last_t);
              goto fail;
            }
          if (present)
            current->last_t = t;
        }
      nb_path_trial_push (&current->acc, &segment, x, y);
      samples++;
    }
  if (rc < 0)
    goto fail;
  if (trials->len == 0)
    {
      nb_csv_reader_set_error (reader, &error, "no samples: path deviation needs at least one trial");
      goto fail;
    }

  d = g_new (double, trials->len);
  for (guint i = 0; i < trials->len; i++)
    {
      PathTrial *t = &g_array_index (trials, PathTrial, i);

      if (t->acc.n_on_segment == 0)
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                       "%s:%" G_GUINT64_FORMAT ": trial '%s': none of its %" G_GUINT64_FORMAT
                       " samples projects onto the segment P0→P1", nb_csv_reader_name (reader),
                       t->first_line, t->label, t->acc.n_samples);
          goto fail;
        }
      d[i] = t->acc.d_mm;
    }
  if (!nb_metrics_path (d, trials->len, &res, &error))
    goto fail;
  common_clear (&common);

  if (common.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "n"); nb_json_int (w, (gint64) res.n);
      nb_json_key (w, "samples"); nb_json_int (w, (gint64) samples);
      nb_json_key (w, "trials");
      nb_json_begin_array (w);
      for (guint i = 0; i < trials->len; i++)
        nb_json_string (w, g_array_index (trials, PathTrial, i).label);
      nb_json_end_array (w);
      nb_json_key (w, "deviations_mm");
      nb_json_begin_array (w);
      for (guint i = 0; i < trials->len; i++)
        nb_json_double (w, d[i]);
      nb_json_end_array (w);
      nb_json_key (w, "max_mm"); nb_json_double (w, res.max_mm);
      nb_json_key (w, "mean_mm"); nb_json_double (w, res.mean_mm);
      nb_json_key (w, "mean_abs_mm"); nb_json_double (w, res.mean_abs_mm);
      nb_json_key (w, "std_mm"); nb_json_double (w, res.std_mm);
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
      for (guint i = 0; i < trials->len; i++)
        {
          PathTrial *pt = &g_array_index (trials, PathTrial, i);

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

typedef struct {
  guint trial;
  guint64 first_line;
  guint seen;                           /* bit i: corner i + 1 given */
  double corner[4][2];
} MapTrial;

static int
compare_map_trial (gconstpointer a, gconstpointer b)
{
  const MapTrial *ta = a, *tb = b;

  return (ta->trial > tb->trial) - (ta->trial < tb->trial);
}

static guint
count_corners (guint seen)
{
  return (seen & 1) + ((seen >> 1) & 1) + ((seen >> 2) & 1) + ((seen >> 3) & 1);
}

/* corner: 1..4, each once per group. */
static gboolean
read_corner (NbCsvReader *reader, NbCsvColumn *col, guint seen, guint *corner, GError **error)
{
  if (!nb_csv_reader_get_uint (reader, col, corner, error))
    return FALSE;
  if (*corner < 1 || *corner > 4)
    {
      nb_csv_reader_set_error (reader, error, "corner %u: corners are numbered 1 to 4", *corner);
      return FALSE;
    }
  if (seen & (1u << (*corner - 1)))
    {
      nb_csv_reader_set_error (reader, error, "corner %u is given twice", *corner);
      return FALSE;
    }
  return TRUE;
}

static int
compute_mapping (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCsvReader) truth_reader = NULL, map_reader = NULL;
  g_autoptr (GArray) trials = g_array_new (FALSE, FALSE, sizeof (MapTrial));
  g_autoptr (GHashTable) index = g_hash_table_new (NULL, NULL);
  g_autofree char *truth_path = NULL, *map_path = NULL;
  gboolean json = FALSE;
  NbCsvColumn tcols[] = { { "corner", TRUE }, { "x_mm", TRUE }, { "y_mm", TRUE } };
  NbCsvColumn mcols[] = { { "trial", TRUE }, { "corner", TRUE }, { "x_mm", TRUE }, { "y_mm", TRUE } };
  const GOptionEntry entries[] = {
    { "truth", 0, 0, G_OPTION_ARG_FILENAME, &truth_path, "the arena's corners A_1..A_4",
      "T.csv" },
    { "map", 0, 0, G_OPTION_ARG_FILENAME, &map_path, "the map's corners A'_1..A'_4 per trial",
      "M.csv" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };
  double truth[4][2], accuracy = 0.0;
  guint seen = 0;
  int rc;

  g_option_context_set_summary (context,
    "Mapping accuracy, ISO 18646-2 clause 10: per trial Dm, the mean distance between\n"
    "the arena's four corners and the map's; the accuracy is the largest Dm.\n\n"
    "Truth columns: corner (1–4), x_mm, y_mm.  Map columns: trial, corner, x_mm, y_mm.\n"
    "Every trial gives each of the four corners once; the standard asks for 3 trials.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      (truth_reader = open_table ("truth", truth_path, tcols, G_N_ELEMENTS (tcols), &error)) == NULL)
    goto fail;

  while ((rc = nb_csv_reader_next (truth_reader, &error)) > 0)
    {
      guint corner;

      if (!read_corner (truth_reader, &tcols[0], seen, &corner, &error) ||
          !nb_csv_reader_get_double (truth_reader, &tcols[1], &truth[corner - 1][0], &error) ||
          !nb_csv_reader_get_double (truth_reader, &tcols[2], &truth[corner - 1][1], &error))
        goto fail;
      seen |= 1u << (corner - 1);
    }
  if (rc < 0)
    goto fail;
  if (seen != 0xF)
    {
      nb_csv_reader_set_error (truth_reader, &error,
                               "the arena needs all four corners A_1..A_4; %u given",
                               count_corners (seen));
      goto fail;
    }

  if ((map_reader = open_table ("map", map_path, mcols, G_N_ELEMENTS (mcols), &error)) == NULL)
    goto fail;
  while ((rc = nb_csv_reader_next (map_reader, &error)) > 0)
    {
      guint trial, corner;
      gpointer found;
      MapTrial *t;

      if (!nb_csv_reader_get_uint (map_reader, &mcols[0], &trial, &error))
        goto fail;
      if (g_hash_table_lookup_extended (index, GUINT_TO_POINTER (trial), NULL, &found))
        t = &g_array_index (trials, MapTrial, GPOINTER_TO_UINT (found));
      else
        {
          MapTrial fresh = { trial, nb_csv_reader_line (map_reader), 0 };

          g_array_append_val (trials, fresh);
          g_hash_table_insert (index, GUINT_TO_POINTER (trial), GUINT_TO_POINTER (trials->len - 1));
          t = &g_array_index (trials, MapTrial, trials->len - 1);
        }
      if (!read_corner (map_reader, &mcols[1], t->seen, &corner, &error) ||
          !nb_csv_reader_get_double (map_reader, &mcols[2], &t->corner[corner - 1][0], &error) ||
          !nb_csv_reader_get_double (map_reader, &mcols[3], &t->corner[corner - 1][1], &error))
        {
          if (error && strstr (error->message, "given twice"))
            g_prefix_error (&error, "trial %u: ", trial);
          goto fail;
        }
      t->seen |= 1u << (corner - 1);
    }
  if (rc < 0)
    goto fail;
  if (trials->len == 0)
    {
      nb_csv_reader_set_error (map_reader, &error, "no map corners: mapping accuracy needs a trial");
      goto fail;
    }
  for (guint i = 0; i < trials->len; i++)
    {
      MapTrial *t = &g_array_index (trials, MapTrial, i);

      if (t->seen != 0xF)
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                       "%s:%" G_GUINT64_FORMAT ": trial %u gives %u of the four map corners",
                       nb_csv_reader_name (map_reader), t->first_line, t->trial,
                       count_corners (t->seen));
          goto fail;
        }
    }
  g_array_sort (trials, compare_map_trial);

  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "trials");
      nb_json_begin_array (w);
      for (guint i = 0; i < trials->len; i++)
        {
          MapTrial *t = &g_array_index (trials, MapTrial, i);
          double dm = nb_metrics_dm ((const double (*)[2]) truth, (const double (*)[2]) t->corner);

          accuracy = MAX (accuracy, dm);
          nb_json_begin_object (w);
          nb_json_key (w, "trial"); nb_json_int (w, t->trial);
          nb_json_key (w, "dm_mm"); nb_json_double (w, dm);
          nb_json_end_object (w);
        }
      nb_json_end_array (w);
      nb_json_key (w, "accuracy_mm"); nb_json_double (w, accuracy);
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
          MapTrial *mt = &g_array_index (trials, MapTrial, i);
          double dm = nb_metrics_dm ((const double (*)[2]) truth, (const double (*)[2]) mt->corner);

          accuracy = MAX (accuracy, dm);
          r = nb_table_add_row (t);
          nb_table_set_number (t, r, 0, mt->trial);
          nb_table_set_number (t, r, 1, dm);
        }
      r = nb_table_add_row (t);
      nb_table_set_text (t, r, 0, "accuracy (max Dm)");
      nb_table_set_number (t, r, 1, accuracy);
      note_trials (t, 10, NULL, trials->len);
      return emit (nb_table_to_text (t));
    }

fail:
  return nb_cli_report_error (error);
}

/* --------------------------------------------------------- 6: detection -- */

typedef struct {
  char *name;
  NbDetectionTally tally;
} Obstacle;

static void
obstacle_clear (gpointer p)
{
  g_free (((Obstacle *) p)->name);
}

static void
json_detection (NbJsonWriter *w, const NbDetectionTally *tally)
{
  nb_json_key (w, "placements"); nb_json_int (w, tally->placements);
  nb_json_key (w, "detected"); nb_json_int (w, tally->detected);
  nb_json_key (w, "mean_error_pct"); nb_json_double (w, nb_detection_tally_mean_error_pct (tally));
  nb_json_key (w, "mean_accuracy_pct");
  nb_json_double (w, nb_detection_tally_mean_accuracy_pct (tally));
}

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

static int
compute_detection (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCsvReader) reader = NULL;
  g_autoptr (GArray) obstacles = g_array_new (FALSE, FALSE, sizeof (Obstacle));
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) placed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Common common = { 0 };
  NbCsvColumn cols[] = { { "obstacle", TRUE }, { "angle_deg", TRUE }, { "range", TRUE },
                         { "true_mm", TRUE }, { "measured_mm", TRUE }, { "detected", TRUE } };
  NbDetectionTally all = NB_DETECTION_TALLY_INIT;
  int rc;

  g_array_set_clear_func (obstacles, obstacle_clear);
  g_option_context_set_summary (context,
    "Obstacle detection, ISO 18646-2 clause 6: per placement detected or not and\n"
    "error = 100·|measured − true| / true; the mean accuracy (100 − error) over the\n"
    "detected placements, per obstacle and overall.\n\n"
    "Columns: obstacle, angle_deg, range (min|max), true_mm, measured_mm (empty when\n"
    "not detected), detected (0|1).  The standard places each obstacle in 8\n"
    "directions at both ranges: 16 placements.");
  common_entries (context, &common, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      (reader = open_table ("input", common.input, cols, G_N_ELEMENTS (cols), &error)) == NULL)
    goto fail;

  while ((rc = nb_csv_reader_next (reader, &error)) > 0)
    {
      const char *name, *range;
      double angle, true_mm, measured = NAN;
      gboolean detected, present;
      char *key;
      gpointer found;
      Obstacle *o;

      if ((name = nb_csv_reader_get_text (reader, &cols[0], &error)) == NULL ||
          !nb_csv_reader_get_double (reader, &cols[1], &angle, &error) ||
          (range = nb_csv_reader_get_text (reader, &cols[2], &error)) == NULL ||
          !nb_csv_reader_get_double (reader, &cols[3], &true_mm, &error) ||
          !nb_csv_reader_get_double_or_empty (reader, &cols[4], &measured, &present, &error) ||
          !nb_csv_reader_get_flag (reader, &cols[5], &detected, &error))
        goto fail;
      if (!g_str_equal (range, "min") && !g_str_equal (range, "max"))
        {
          nb_csv_reader_set_error (reader, &error, "range '%s': expected min or max", range);
          goto fail;
        }
      if (!(true_mm > 0.0))
        {
          nb_csv_reader_set_error (reader, &error, "true_mm must be positive, got %g", true_mm);
          goto fail;
        }
      if (detected && !present)
        {
          nb_csv_reader_set_error (reader, &error, "detected, but measured_mm is empty");
          goto fail;
        }
      if (!detected && present)
        {
          nb_csv_reader_set_error (reader, &error,
                                   "not detected, yet measured_mm is %g: leave it empty or set "
                                   "detected to 1", measured);
          goto fail;
        }
      if (detected && measured < 0.0)
        {
          nb_csv_reader_set_error (reader, &error, "measured_mm must not be negative, got %g",
                                   measured);
          goto fail;
        }
      /* 6.3: each obstacle once per direction and range. */
      key = g_strdup_printf ("%s\x1f%.6f\x1f%s", name, fmod (fmod (angle, 360.0) + 360.0, 360.0), range);
      if (!g_hash_table_add (placed, key))
        {
          nb_csv_reader_set_error (reader, &error,
                                   "obstacle '%s' at %g° and %s range is placed twice", name,
                                   angle, range);
          goto fail;
        }

      if (g_hash_table_lookup_extended (index, name, NULL, &found))
        o = &g_array_index (obstacles, Obstacle, GPOINTER_TO_UINT (found));
      else
        {
          Obstacle fresh = { g_strdup (name), NB_DETECTION_TALLY_INIT };

          g_array_append_val (obstacles, fresh);
          o = &g_array_index (obstacles, Obstacle, obstacles->len - 1);
          g_hash_table_insert (index, o->name, GUINT_TO_POINTER (obstacles->len - 1));
        }
      nb_detection_tally_add (&o->tally, true_mm, detected, measured);
      nb_detection_tally_add (&all, true_mm, detected, measured);
    }
  if (rc < 0)
    goto fail;
  if (all.placements == 0)
    {
      nb_csv_reader_set_error (reader, &error, "no placements in the file");
      goto fail;
    }
  common_clear (&common);

  if (common.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      json_detection (w, &all);
      nb_json_key (w, "obstacles");
      nb_json_begin_array (w);
      for (guint i = 0; i < obstacles->len; i++)
        {
          Obstacle *o = &g_array_index (obstacles, Obstacle, i);

          nb_json_begin_object (w);
          nb_json_key (w, "obstacle"); nb_json_string (w, o->name);
          json_detection (w, &o->tally);
          nb_json_end_object (w);
        }
      nb_json_end_array (w);
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
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
      for (guint i = 0; i < obstacles->len; i++)
        {
          Obstacle *o = &g_array_index (obstacles, Obstacle, i);

          row_detection (t, o->name, &o->tally);
          note_trials (t, 6, o->name, o->tally.placements);
        }
      row_detection (t, "all obstacles", &all);
      return emit (nb_table_to_text (t));
    }

fail:
  common_clear (&common);
  return nb_cli_report_error (error);
}

/* -------------------------------------------------- 7, 9: timed trials -- */

typedef struct {
  char *config;
  GArray *baseline;                     /* of NbTimedTrial; clause 7 only */
  GArray *trials;                       /* with obstacle (7) or through the passage (9) */
} Config;

static void
config_clear (gpointer p)
{
  Config *c = p;

  g_free (c->config);
  g_array_unref (c->baseline);
  g_array_unref (c->trials);
}

/* Reads config[, kind], trial, time_s, success rows into configs, in order of
 * first appearance; kind_col NULL for clause 9. */
static gboolean
read_timed_trials (NbCsvReader *reader, NbCsvColumn *config_col, NbCsvColumn *kind_col,
                   NbCsvColumn *trial_col, NbCsvColumn *time_col, NbCsvColumn *success_col,
                   GArray *configs, GError **error)
{
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int rc;

  while ((rc = nb_csv_reader_next (reader, error)) > 0)
    {
      const char *name, *kind = "trial";
      NbTimedTrial t;
      gboolean present;
      gpointer found, first_line;
      char *key;
      Config *c;

      if ((name = nb_csv_reader_get_text (reader, config_col, error)) == NULL ||
          (kind_col != NULL && (kind = nb_csv_reader_get_text (reader, kind_col, error)) == NULL) ||
          !nb_csv_reader_get_uint (reader, trial_col, &t.trial, error) ||
          !nb_csv_reader_get_double_or_empty (reader, time_col, &t.time_s, &present, error) ||
          !nb_csv_reader_get_flag (reader, success_col, &t.success, error))
        return FALSE;
      if (kind_col != NULL && !g_str_equal (kind, "baseline") && !g_str_equal (kind, "obstacle"))
        {
          nb_csv_reader_set_error (reader, error, "kind '%s': expected baseline or obstacle", kind);
          return FALSE;
        }
      if (!present)
        t.time_s = NAN;
      if (t.success && !(present && t.time_s > 0.0))
        {
          nb_csv_reader_set_error (reader, error,
                                   "a successful trial needs a positive time_s%s",
                                   present ? "" : " (it is empty)");
          return FALSE;
        }
      if (present && !(t.time_s >= 0.0))
        {
          nb_csv_reader_set_error (reader, error, "time_s must not be negative, got %g",
                                   t.time_s);
          return FALSE;
        }
      key = g_strdup_printf ("%s\x1f%s\x1f%u", name, kind, t.trial);
      if (g_hash_table_lookup_extended (seen, key, NULL, &first_line))
        {
          nb_csv_reader_set_error (reader, error,
                                   "config '%s': %s trial %u is given twice (first on line %u)",
                                   name, kind_col ? kind : "", t.trial,
                                   GPOINTER_TO_UINT (first_line));
          g_free (key);
          return FALSE;
        }
      g_hash_table_insert (seen, key, GUINT_TO_POINTER ((guint) nb_csv_reader_line (reader)));

      if (g_hash_table_lookup_extended (index, name, NULL, &found))
        c = &g_array_index (configs, Config, GPOINTER_TO_UINT (found));
      else
        {
          Config fresh = { g_strdup (name), g_array_new (FALSE, FALSE, sizeof (NbTimedTrial)),
                           g_array_new (FALSE, FALSE, sizeof (NbTimedTrial)) };

          g_array_append_val (configs, fresh);
          c = &g_array_index (configs, Config, configs->len - 1);
          g_hash_table_insert (index, c->config, GUINT_TO_POINTER (configs->len - 1));
        }
      g_array_append_val (g_str_equal (kind, "baseline") ? c->baseline : c->trials, t);
    }
  if (rc < 0)
    return FALSE;
  if (configs->len == 0)
    {
      nb_csv_reader_set_error (reader, error, "no trials in the file");
      return FALSE;
    }
  return TRUE;
}

static int
compute_avoidance (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCsvReader) reader = NULL;
  g_autoptr (GArray) configs = g_array_new (FALSE, FALSE, sizeof (Config));
  g_autofree NbAvoidanceResult *res = NULL;
  Common common = { 0 };
  NbCsvColumn cols[] = { { "config", TRUE }, { "kind", TRUE }, { "trial", TRUE },
                         { "time_s", TRUE }, { "success", TRUE } };

  g_array_set_clear_func (configs, config_clear);
  g_option_context_set_summary (context,
    "Obstacle avoidance, ISO 18646-2 clause 7: a configuration passes only if its\n"
    "first three trials with the obstacle succeed; T0 is the mean travel time of the\n"
    "first three successful trials without obstacle, T1 the largest of the first three\n"
    "successful trials with it, and the delay ratio T1/T0.\n\n"
    "Columns: config, kind (baseline|obstacle), trial (its number), time_s (may be\n"
    "empty for a failed trial), success (0|1).");
  common_entries (context, &common, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      (reader = open_table ("input", common.input, cols, G_N_ELEMENTS (cols), &error)) == NULL ||
      !read_timed_trials (reader, &cols[0], &cols[1], &cols[2], &cols[3], &cols[4], configs, &error))
    goto fail;

  res = g_new0 (NbAvoidanceResult, configs->len);
  for (guint i = 0; i < configs->len; i++)
    {
      Config *c = &g_array_index (configs, Config, i);

      if (!nb_metrics_avoidance ((NbTimedTrial *) c->baseline->data, c->baseline->len,
                                 (NbTimedTrial *) c->trials->data, c->trials->len, &res[i],
                                 &error))
        {
          g_prefix_error (&error, "%s: config '%s': ", nb_csv_reader_name (reader), c->config);
          goto fail;
        }
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
          nb_json_key (w, "passed"); nb_json_bool (w, res[i].passed);
          nb_json_key (w, "t0_s"); nb_json_double (w, res[i].t0_s);
          nb_json_key (w, "t1_s"); nb_json_double (w, res[i].t1_s);
          nb_json_key (w, "delay_ratio"); nb_json_double (w, res[i].delay_ratio);
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
  g_autoptr (NbCsvReader) reader = NULL;
  g_autoptr (GArray) configs = g_array_new (FALSE, FALSE, sizeof (Config));
  g_autofree NbPassageResult *res = NULL;
  Common common = { 0 };
  NbCsvColumn cols[] = { { "config", TRUE }, { "trial", TRUE }, { "time_s", TRUE },
                         { "success", TRUE } };

  g_array_set_clear_func (configs, config_clear);
  g_option_context_set_summary (context,
    "Narrow passage, ISO 18646-2 clause 9: the mean passage time of the first five\n"
    "consecutive successful trials (in trial order); a configuration without five\n"
    "consecutive successes does not pass.\n\n"
    "Columns: config, trial (its number), time_s (may be empty for a failed trial),\n"
    "success (0|1).");
  common_entries (context, &common, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      (reader = open_table ("input", common.input, cols, G_N_ELEMENTS (cols), &error)) == NULL ||
      !read_timed_trials (reader, &cols[0], NULL, &cols[1], &cols[2], &cols[3], configs, &error))
    goto fail;

  res = g_new0 (NbPassageResult, configs->len);
  for (guint i = 0; i < configs->len; i++)
    {
      Config *c = &g_array_index (configs, Config, i);

      if (!nb_metrics_passage ((NbTimedTrial *) c->trials->data, c->trials->len, &res[i], &error))
        {
          g_prefix_error (&error, "%s: config '%s': ", nb_csv_reader_name (reader), c->config);
          goto fail;
        }
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
          nb_json_key (w, "passed"); nb_json_bool (w, res[i].passed);
          nb_json_key (w, "mean_time_s"); nb_json_double (w, res[i].mean_time_s);
          nb_json_key (w, "failed_trials"); nb_json_int (w, res[i].failed_trials);
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
};

int
nb_cli_compute (int argc, char **argv)
{
  return nb_cli_dispatch ("compute", compute_commands, G_N_ELEMENTS (compute_commands), argc,
                          argv);
}
