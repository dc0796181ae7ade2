/* navbench-cli compute iso9283 — the characteristics of ISO 9283:1998 from CSV
 *
 * pose (7.2 AP, RP), distance (7.3 AD, RD), stabilisation (7.4, 7.5), path
 * (8.2 AT, 8.3 RT, 8.6 AV, RV, FV), corner (8.5 CR, CO) and weaving (8.7
 * WS, WF: through the clause module's compute, as the plan computes it), with the
 * conventions of the ISO 18646-2 commands: --input F.csv (- for stdin),
 * --json for one JSON object, the first bad row "FILE:LINE: reason" and
 * exit 2, nothing on stdout until everything is computed.  The formulas:
 * docs/iso9283.md; the tables: nb-iso9283-csv.h.
 */
#include "nb-cli.h"

#include "nb-clause-9283.h"
#include "nb-error.h"
#include "nb-iso9283.h"
#include "nb-iso9283-csv.h"
#include "nb-json-writer.h"
#include "nb-table.h"

#include <math.h>
#include <string.h>

static int
emit (char *text)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *owned = text;

  if (!nb_cli_write (owned, &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}

static gboolean
require_input (const char *path, GError **error)
{
  if (path != NULL)
    return TRUE;
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--input F.csv is required");
  return FALSE;
}

static gboolean
parse_pose6 (const char *option, const char *text, NbPose6 *p, GError **error)
{
  double v[6];

  if (!nb_cli_parse_numbers (option, text, v, 6, "X,Y,Z,A,B,C (mm, mm, mm, °, °, °)", error))
    return FALSE;
  *p = (NbPose6) { v[0], v[1], v[2], v[3], v[4], v[5] };
  return TRUE;
}

static void
json_number (NbJsonWriter *w, const char *key, double value)
{
  nb_json_key (w, key);
  nb_json_double (w, value);
}

static void
json_xyz (NbJsonWriter *w, const char *prefix, const char *suffix, const double v[3],
          const char *axes)
{
  for (int k = 0; k < 3; k++)
    {
      g_autofree char *key = g_strdup_printf ("%s_%c_%s", prefix, axes[k], suffix);

      json_number (w, key, v[k]);
    }
}

/* -------------------------------------------------------------- pose -- */

static int
iso_pose (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) poses = NULL;
  g_autofree char *input = NULL, *command_text = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "input", 0, 0, G_OPTION_ARG_FILENAME, &input, "the attained poses (- for stdin)", "F.csv" },
    { "command", 0, 0, G_OPTION_ARG_STRING, &command_text,
      "the command pose: x, y, z in mm, a, b, c in degrees", "X,Y,Z,A,B,C" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };
  NbPose6 c;
  NbIso9283Pose r;

  g_option_context_set_summary (context,
    "Pose accuracy and repeatability, ISO 9283 7.2: AP_P, AP_x/y/z, AP_a/b/c and\n"
    "RP_l = l̄ + 3·S_l, RP_a/b/c = ±3·S_a/b/c of the attained poses of one command pose.\n"
    "Orientation means on the recast differences to the command (poses near ±180°).\n\n"
    "Columns: x_mm, y_mm, z_mm, a_deg, b_deg, c_deg (a, b, c about x, y, z; any order;\n"
    "other columns ignored; '#' lines are comments). At least 2 poses; the standard\n"
    "asks for 30 cycles.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !parse_pose6 ("command", command_text, &c, &error) || !require_input (input, &error) ||
      (poses = nb_iso9283_read_poses (input, 2, &error)) == NULL)
    return nb_cli_report_error (error);
  if (!nb_iso9283_pose (&c, (NbPose6 *) poses->data, poses->len, &r, &error))
    {
      g_prefix_error (&error, "%s: ", input);
      return nb_cli_report_error (error);
    }
  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "n"); nb_json_int (w, (gint64) r.n);
      json_number (w, "ap_mm", r.ap_mm);
      json_number (w, "ap_x_mm", r.ap_xyz_mm[0]);
      json_number (w, "ap_y_mm", r.ap_xyz_mm[1]);
      json_number (w, "ap_z_mm", r.ap_xyz_mm[2]);
      json_number (w, "ap_a_deg", r.ap_abc_deg[0]);
      json_number (w, "ap_b_deg", r.ap_abc_deg[1]);
      json_number (w, "ap_c_deg", r.ap_abc_deg[2]);
      json_number (w, "rp_mm", r.rp_mm);
      json_number (w, "rp_a_deg", r.rp_abc_deg[0]);
      json_number (w, "rp_b_deg", r.rp_abc_deg[1]);
      json_number (w, "rp_c_deg", r.rp_abc_deg[2]);
      /* The intermediate values of 7.2. */
      json_number (w, "barycentre_x_mm", r.barycentre_mm[0]);
      json_number (w, "barycentre_y_mm", r.barycentre_mm[1]);
      json_number (w, "barycentre_z_mm", r.barycentre_mm[2]);
      json_number (w, "mean_a_deg", r.mean_deg[0]);
      json_number (w, "mean_b_deg", r.mean_deg[1]);
      json_number (w, "mean_c_deg", r.mean_deg[2]);
      json_number (w, "l_mean_mm", r.l_mean_mm);
      json_number (w, "s_l_mm", r.s_l_mm);
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autoptr (NbTable) t = nb_table_new ("ISO 9283 7.2 — pose accuracy and repeatability");
      guint row;

      nb_table_add_column (t, "n", "n", NULL, 0);
      nb_table_add_column (t, "ap_mm", "AP_P", "mm", 3);
      nb_table_add_column (t, "ap_a_deg", "AP_a", "°", 4);
      nb_table_add_column (t, "ap_b_deg", "AP_b", "°", 4);
      nb_table_add_column (t, "ap_c_deg", "AP_c", "°", 4);
      nb_table_add_column (t, "rp_mm", "RP_l", "mm", 3);
      nb_table_add_column (t, "rp_a_deg", "RP_a (±)", "°", 4);
      nb_table_add_column (t, "rp_b_deg", "RP_b (±)", "°", 4);
      nb_table_add_column (t, "rp_c_deg", "RP_c (±)", "°", 4);
      row = nb_table_add_row (t);
      nb_table_set_number (t, row, 0, (double) r.n);
      nb_table_set_number (t, row, 1, r.ap_mm);
      for (int k = 0; k < 3; k++)
        nb_table_set_number (t, row, 2 + k, r.ap_abc_deg[k]);
      nb_table_set_number (t, row, 5, r.rp_mm);
      for (int k = 0; k < 3; k++)
        nb_table_set_number (t, row, 6 + k, r.rp_abc_deg[k]);
      if (r.n < 30)
        nb_table_add_note (t, "Note: ISO 9283 7.2 asks for 30 cycles.");
      return emit (nb_table_to_text (t));
    }
}

/* ---------------------------------------------------------- distance -- */

static int
iso_distance (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) first = NULL, second = NULL;
  g_autofree char *input = NULL, *c1_text = NULL, *c2_text = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "input", 0, 0, G_OPTION_ARG_FILENAME, &input, "the attained pairs (- for stdin)", "F.csv" },
    { "command1", 0, 0, G_OPTION_ARG_STRING, &c1_text, "the first command pose", "X,Y,Z,A,B,C" },
    { "command2", 0, 0, G_OPTION_ARG_STRING, &c2_text, "the second command pose", "X,Y,Z,A,B,C" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };
  NbPose6 c1, c2;
  NbIso9283Distance r;

  g_option_context_set_summary (context,
    "Distance accuracy and repeatability, ISO 9283 7.3: AD_P = D̄ − D_c, AD_x/y/z,\n"
    "AD_a/b/c and RD = ±3·S_D, RD_x/y/z, RD_a/b/c between two command poses.\n\n"
    "Columns: one cycle a row, x1_mm, y1_mm, z1_mm, a1_deg, b1_deg, c1_deg (the pose\n"
    "attained for --command1) and x2_mm … c2_deg (for --command2). At least 2 cycles;\n"
    "the standard asks for 30.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !parse_pose6 ("command1", c1_text, &c1, &error) ||
      !parse_pose6 ("command2", c2_text, &c2, &error) || !require_input (input, &error) ||
      !nb_iso9283_read_pairs (input, &first, &second, &error))
    return nb_cli_report_error (error);
  if (!nb_iso9283_distance (&c1, &c2, (NbPose6 *) first->data, (NbPose6 *) second->data,
                            first->len, &r, &error))
    {
      g_prefix_error (&error, "%s: ", input);
      return nb_cli_report_error (error);
    }
  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "n"); nb_json_int (w, (gint64) r.n);
      json_number (w, "d_command_mm", r.d_command_mm);
      json_number (w, "d_mean_mm", r.d_mean_mm);
      json_number (w, "ad_mm", r.ad_mm);
      json_xyz (w, "ad", "mm", r.ad_xyz_mm, "xyz");
      json_xyz (w, "ad", "deg", r.ad_abc_deg, "abc");
      json_number (w, "rd_mm", r.rd_mm);
      json_xyz (w, "rd", "mm", r.rd_xyz_mm, "xyz");
      json_xyz (w, "rd", "deg", r.rd_abc_deg, "abc");
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autoptr (NbTable) t = nb_table_new ("ISO 9283 7.3 — distance accuracy and repeatability");
      guint row;

      nb_table_add_column (t, "n", "n", NULL, 0);
      nb_table_add_column (t, "d_command_mm", "D_c", "mm", 3);
      nb_table_add_column (t, "ad_mm", "AD_P", "mm", 3);
      nb_table_add_column (t, "rd_mm", "RD (±)", "mm", 3);
      nb_table_add_column (t, "ad_a_deg", "AD_a", "°", 4);
      nb_table_add_column (t, "ad_b_deg", "AD_b", "°", 4);
      nb_table_add_column (t, "ad_c_deg", "AD_c", "°", 4);
      row = nb_table_add_row (t);
      nb_table_set_number (t, row, 0, (double) r.n);
      nb_table_set_number (t, row, 1, r.d_command_mm);
      nb_table_set_number (t, row, 2, r.ad_mm);
      nb_table_set_number (t, row, 3, r.rd_mm);
      for (int k = 0; k < 3; k++)
        nb_table_set_number (t, row, 4 + k, r.ad_abc_deg[k]);
      return emit (nb_table_to_text (t));
    }
}

/* ----------------------------------------------------- stabilisation -- */

static int
iso_stabilisation (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) cycles = NULL;
  g_autofree char *input = NULL;
  g_autofree NbIso9283Settling *res = NULL;
  double band = NAN, tail = 0.2, t_max = 0, t_mean = 0, ov_max = 0, ov_mean = 0;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "input", 0, 0, G_OPTION_ARG_FILENAME, &input, "the streams (- for stdin)", "F.csv" },
    { "band", 0, 0, G_OPTION_ARG_DOUBLE, &band,
      "the limit band's radius about the attained pose (the manufacturer's, else RP)", "MM" },
    { "tail", 0, 0, G_OPTION_ARG_DOUBLE, &tail,
      "the attained pose is the mean of the stream's last S seconds (0.2)", "S" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };

  g_option_context_set_summary (context,
    "Pose stabilisation time and pose overshoot, ISO 9283 7.4 and 7.5, from the\n"
    "measurement stream at its full rate: per cycle the time from the first crossing\n"
    "into the limit band to the instant from which the position stays in it, and the\n"
    "largest excursion beyond the attained pose along the approach direction; the\n"
    "figures are the maximum and the mean over the cycles (the standard: 3 cycles).\n\n"
    "Columns: cycle (a label; a cycle's rows together), t_s (not going back),\n"
    "x_mm, y_mm, z_mm. Each stream runs from the approach to past the stop.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (!(band > 0) || !isfinite (band) || !(tail >= 0) || !isfinite (tail))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   isnan (band) ? "--band MM is required"
                                : "--band must be positive and --tail not negative");
      return nb_cli_report_error (error);
    }
  if (!require_input (input, &error) ||
      (cycles = nb_iso9283_read_tracks (input, FALSE, NULL, &error)) == NULL)
    return nb_cli_report_error (error);
  res = g_new0 (NbIso9283Settling, cycles->len);
  for (guint j = 0; j < cycles->len; j++)
    {
      NbIso9283Cycle *c = cycles->pdata[j];
      g_autofree NbIso9283Sample *s = g_new (NbIso9283Sample, c->pose->len);

      for (guint i = 0; i < c->pose->len; i++)
        {
          const NbPose6 *p = &g_array_index (c->pose, NbPose6, i);

          s[i] = (NbIso9283Sample) { g_array_index (c->t_s, double, i),
                                     { p->x_mm, p->y_mm, p->z_mm } };
        }
      if (!nb_iso9283_settling (s, c->pose->len, band, tail, &res[j], &error))
        {
          g_prefix_error (&error, "%s:%" G_GUINT64_FORMAT ": cycle '%s': ", input, c->line,
                          c->cycle);
          return nb_cli_report_error (error);
        }
      t_max = MAX (t_max, res[j].stabilisation_s);
      ov_max = MAX (ov_max, res[j].overshoot_mm);
      t_mean += res[j].stabilisation_s / cycles->len;
      ov_mean += res[j].overshoot_mm / cycles->len;
    }
  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "n"); nb_json_int (w, cycles->len);
      json_number (w, "band_mm", band);
      json_number (w, "stabilisation_s", t_max);
      json_number (w, "stabilisation_mean_s", t_mean);
      json_number (w, "overshoot_mm", ov_max);
      json_number (w, "overshoot_mean_mm", ov_mean);
      nb_json_key (w, "cycles");
      nb_json_begin_array (w);
      for (guint j = 0; j < cycles->len; j++)
        {
          nb_json_begin_object (w);
          nb_json_key (w, "cycle"); nb_json_string (w, ((NbIso9283Cycle *) cycles->pdata[j])->cycle);
          json_number (w, "stabilisation_s", res[j].stabilisation_s);
          json_number (w, "overshoot_mm", res[j].overshoot_mm);
          json_number (w, "t_entry_s", res[j].t_entry_s);
          json_number (w, "attained_x_mm", res[j].attained_mm[0]);
          json_number (w, "attained_y_mm", res[j].attained_mm[1]);
          json_number (w, "attained_z_mm", res[j].attained_mm[2]);
          nb_json_end_object (w);
        }
      nb_json_end_array (w);
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autoptr (NbTable) t = nb_table_new ("ISO 9283 7.4, 7.5 — pose stabilisation time and "
                                            "overshoot");
      for (guint j = 0; j <= cycles->len; j++)
        {
          guint row;

          if (j == 0)
            {
              nb_table_add_column (t, "cycle", "cycle", NULL, 0);
              nb_table_add_column (t, "stabilisation_s", "t", "s", 3);
              nb_table_add_column (t, "overshoot_mm", "OV", "mm", 3);
            }
          row = nb_table_add_row (t);
          if (j < cycles->len)
            {
              nb_table_set_text (t, row, 0, ((NbIso9283Cycle *) cycles->pdata[j])->cycle);
              nb_table_set_number (t, row, 1, res[j].stabilisation_s);
              nb_table_set_number (t, row, 2, res[j].overshoot_mm);
            }
          else
            {
              nb_table_set_text (t, row, 0, "max");
              nb_table_set_number (t, row, 1, t_max);
              nb_table_set_number (t, row, 2, ov_max);
            }
        }
      return emit (nb_table_to_text (t));
    }
}

/* -------------------------------------------------------------- path -- */

/* The cycles as tracks (their arrays stay the cycles'). */
static NbIso9283Track *
cycles_tracks (GPtrArray *cycles)
{
  NbIso9283Track *t = g_new0 (NbIso9283Track, cycles->len);

  for (guint j = 0; j < cycles->len; j++)
    {
      NbIso9283Cycle *c = cycles->pdata[j];

      t[j] = (NbIso9283Track) { (double *) c->t_s->data, (NbPose6 *) c->pose->data, c->pose->len };
    }
  return t;
}

static int
iso_path (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) cycles = NULL;
  g_autofree char *input = NULL, *line_text = NULL, *circle_text = NULL, *abc_text = NULL;
  g_autofree NbIso9283Track *tracks = NULL;
  double reach = 10.0, v_command = NAN, length;
  gint points = 10;
  gboolean json = FALSE, has_orientation = FALSE;
  const GOptionEntry entries[] = {
    { "input", 0, 0, G_OPTION_ARG_FILENAME, &input, "the tracks (- for stdin)", "F.csv" },
    { "line", 0, 0, G_OPTION_ARG_STRING, &line_text, "the command path: a straight line, mm",
      "X1,Y1,Z1,X2,Y2,Z2" },
    { "circle", 0, 0, G_OPTION_ARG_STRING, &circle_text,
      "the command path: a circle (centre, start point, plane normal; a full turn "
      "counter-clockwise about the normal), mm", "CX,CY,CZ,SX,SY,SZ,NX,NY,NZ" },
    { "orientation", 0, 0, G_OPTION_ARG_STRING, &abc_text,
      "the command orientation held along the path (with a_deg, b_deg, c_deg columns)", "A,B,C" },
    { "points", 0, 0, G_OPTION_ARG_INT, &points, "calculated points m along the path (10)", "M" },
    { "reach", 0, 0, G_OPTION_ARG_DOUBLE, &reach,
      "the farthest a track's crossing may lie from its calculated point (10)", "MM" },
    { "velocity", 0, 0, G_OPTION_ARG_DOUBLE, &v_command,
      "the command path velocity: also AV, RV, FV (8.6)", "MM_S" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };
  NbIso9283Path path = { 0 };
  NbIso9283PathResult r;
  NbIso9283Velocity vr = { 0 };

  g_option_context_set_summary (context,
    "Path accuracy and repeatability, ISO 9283 8.2 and 8.3: AT_P, AT_a/b/c and\n"
    "RT_l = max (l̄_i + 3·S_li), RT_a/b/c at m calculated points, where each cycle's\n"
    "track crosses the planes normal to the command path; with --velocity also the path\n"
    "velocity accuracy, repeatability and fluctuation AV, RV, FV (8.6) over the part\n"
    "between the first and the last calculated point.\n\n"
    "Columns: cycle (a label; a cycle's rows together), t_s (not going back), x_mm,\n"
    "y_mm, z_mm, and optionally a_deg, b_deg, c_deg (then --orientation is required).\n"
    "At least 2 cycles; the standard asks for 10.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if ((line_text == NULL) == (circle_text == NULL))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "give one of --line and --circle");
      return nb_cli_report_error (error);
    }
  if (line_text != NULL)
    {
      double v[6];

      if (!nb_cli_parse_numbers ("line", line_text, v, 6, "X1,Y1,Z1,X2,Y2,Z2 (mm)", &error))
        return nb_cli_report_error (error);
      path.kind = NB_ISO9283_LINE;
      memcpy (path.start_mm, v, sizeof path.start_mm);
      memcpy (path.end_mm, v + 3, sizeof path.end_mm);
    }
  else
    {
      double v[9];

      if (!nb_cli_parse_numbers ("circle", circle_text, v, 9, "CX,CY,CZ,SX,SY,SZ,NX,NY,NZ",
                                 &error))
        return nb_cli_report_error (error);
      path.kind = NB_ISO9283_CIRCLE;
      memcpy (path.centre_mm, v, sizeof path.centre_mm);
      memcpy (path.start_mm, v + 3, sizeof path.start_mm);
      memcpy (path.normal, v + 6, sizeof path.normal);
    }
  if (!nb_iso9283_path_length (&path, &length, &error))
    return nb_cli_report_error (error);
  if (points < 1 || !(reach > 0) || !isfinite (reach) ||
      (!isnan (v_command) && !(v_command > 0 && isfinite (v_command))))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "--points must be at least 1, --reach and --velocity positive");
      return nb_cli_report_error (error);
    }
  if (!require_input (input, &error) ||
      (cycles = nb_iso9283_read_tracks (input, FALSE, &has_orientation, &error)) == NULL)
    return nb_cli_report_error (error);
  if (has_orientation &&
      !nb_cli_parse_numbers ("orientation", abc_text, path.abc_deg, 3, "A,B,C (°)", &error))
    {
      g_prefix_error (&error, "%s has a_deg, b_deg, c_deg: ", input);
      return nb_cli_report_error (error);
    }
  tracks = cycles_tracks (cycles);
  if (!nb_iso9283_path (&path, tracks, cycles->len, (guint) points, reach, &r, &error))
    {
      g_prefix_error (&error, "%s: ", input);
      return nb_cli_report_error (error);
    }
  if (!isnan (v_command))
    {
      g_autoptr (GPtrArray) speeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      g_autofree const double **v = g_new (const double *, cycles->len);
      g_autofree gsize *m = g_new (gsize, cycles->len);
      double s0 = length / (points + 1.0), s1 = length * points / (points + 1.0);

      for (guint j = 0; j < cycles->len; j++)
        {
          GArray *a = nb_iso9283_track_speeds (&path, &tracks[j], s0, s1, &error);

          if (a == NULL)
            {
              g_prefix_error (&error, "%s: cycle '%s': ", input,
                              ((NbIso9283Cycle *) cycles->pdata[j])->cycle);
              return nb_cli_report_error (error);
            }
          g_ptr_array_add (speeds, a);
          v[j] = (const double *) a->data;
          m[j] = a->len;
        }
      if (!nb_iso9283_velocity (v_command, v, m, cycles->len, &vr, &error))
        {
          g_prefix_error (&error, "%s: ", input);
          return nb_cli_report_error (error);
        }
    }
  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "n"); nb_json_int (w, r.n_cycles);
      nb_json_key (w, "m"); nb_json_int (w, r.m_points);
      json_number (w, "length_mm", length);
      json_number (w, "at_mm", r.at_mm);
      nb_json_key (w, "at_point"); nb_json_int (w, r.at_point);
      json_number (w, "rt_mm", r.rt_mm);
      nb_json_key (w, "rt_point"); nb_json_int (w, r.rt_point);
      for (int k = 0; k < 3; k++)
        {
          g_autofree char *at = g_strdup_printf ("at_%c_deg", "abc"[k]);
          g_autofree char *rt = g_strdup_printf ("rt_%c_deg", "abc"[k]);

          json_number (w, at, has_orientation ? r.at_abc_deg[k] : NAN);
          json_number (w, rt, has_orientation ? r.rt_abc_deg[k] : NAN);
        }
      if (!isnan (v_command))
        {
          json_number (w, "v_command_mm_s", v_command);
          json_number (w, "v_mean_mm_s", vr.v_mean_mm_s);
          json_number (w, "av_pct", vr.av_pct);
          json_number (w, "rv_mm_s", vr.rv_mm_s);
          json_number (w, "rv_pct", vr.rv_pct);
          json_number (w, "fv_mm_s", vr.fv_mm_s);
        }
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autoptr (NbTable) t = nb_table_new ("ISO 9283 8.2, 8.3 — path accuracy and repeatability");
      guint row;

      nb_table_add_column (t, "n", "n", NULL, 0);
      nb_table_add_column (t, "m", "m", NULL, 0);
      nb_table_add_column (t, "at_mm", "AT_P", "mm", 3);
      nb_table_add_column (t, "rt_mm", "RT_l", "mm", 3);
      row = nb_table_add_row (t);
      nb_table_set_number (t, row, 0, r.n_cycles);
      nb_table_set_number (t, row, 1, r.m_points);
      nb_table_set_number (t, row, 2, r.at_mm);
      nb_table_set_number (t, row, 3, r.rt_mm);
      if (!isnan (v_command))
        {
          g_autofree char *note = g_strdup_printf ("8.6: AV %.2f %%, RV ±%.2f %% (±%.2f mm/s), "
                                                   "FV %.2f mm/s.", vr.av_pct, vr.rv_pct,
                                                   vr.rv_mm_s, vr.fv_mm_s);

          nb_table_add_note (t, note);
        }
      return emit (nb_table_to_text (t));
    }
}

/* ------------------------------------------------------------ corner -- */

static int
iso_corner (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) cycles = NULL;
  g_autofree char *input = NULL, *corner_text = NULL;
  g_autofree NbIso9283Track *tracks = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "input", 0, 0, G_OPTION_ARG_FILENAME, &input, "the tracks (- for stdin)", "F.csv" },
    { "corner", 0, 0, G_OPTION_ARG_STRING, &corner_text,
      "the command path start → corner → end, mm", "X1,Y1,Z1,XK,YK,ZK,X2,Y2,Z2" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };
  double v[9];
  NbIso9283Corner r;

  g_option_context_set_summary (context,
    "Corner deviations, ISO 9283 8.5: the corner round-off error CR (the smallest\n"
    "distance between the corner and the track) and the corner overshoot CO (the\n"
    "largest deviation beyond the second leg, outside the corner), the largest and the\n"
    "mean over the cycles.\n\n"
    "Columns: cycle, t_s, x_mm, y_mm, z_mm (as for path).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !nb_cli_parse_numbers ("corner", corner_text, v, 9, "X1,Y1,Z1,XK,YK,ZK,X2,Y2,Z2 (mm)",
                             &error) ||
      !require_input (input, &error) ||
      (cycles = nb_iso9283_read_tracks (input, FALSE, NULL, &error)) == NULL)
    return nb_cli_report_error (error);
  tracks = cycles_tracks (cycles);
  if (!nb_iso9283_corner (v, v + 3, v + 6, tracks, cycles->len, &r, &error))
    {
      g_prefix_error (&error, "%s: ", input);
      return nb_cli_report_error (error);
    }
  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "n"); nb_json_int (w, cycles->len);
      json_number (w, "cr_mm", r.cr_mm);
      json_number (w, "co_mm", r.co_mm);
      json_number (w, "cr_mean_mm", r.cr_mean_mm);
      json_number (w, "co_mean_mm", r.co_mean_mm);
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autoptr (NbTable) t = nb_table_new ("ISO 9283 8.5 — corner deviations");
      guint row;

      nb_table_add_column (t, "n", "n", NULL, 0);
      nb_table_add_column (t, "cr_mm", "CR", "mm", 3);
      nb_table_add_column (t, "co_mm", "CO", "mm", 3);
      row = nb_table_add_row (t);
      nb_table_set_number (t, row, 0, cycles->len);
      nb_table_set_number (t, row, 1, r.cr_mm);
      nb_table_set_number (t, row, 2, r.co_mm);
      return emit (nb_table_to_text (t));
    }
}

/* ----------------------------------------------------------- weaving -- */

/* The CSV's cycles as the weaving module's stored trials: the command
 * packed as it packs it, each track (t, x, y, z, a, b, c) a row. */
static GPtrArray *
weaving_trials (GPtrArray *cycles, const NbIso9283Weave *wv, double v_mm_s)
{
  GPtrArray *trials = g_ptr_array_new_with_free_func ((GDestroyNotify) nb_iso9283_trial_free);

  for (guint j = 0; j < cycles->len; j++)
    {
      NbIso9283Cycle *c = cycles->pdata[j];
      NbIso9283Trial *t = g_new0 (NbIso9283Trial, 1);

      t->config = g_strdup ("weaving");
      t->cycle = j + 1;
      t->t_s = NAN;
      t->command = g_array_new (FALSE, FALSE, sizeof (double));
      t->data = g_array_sized_new (FALSE, FALSE, sizeof (double), 7 * c->pose->len);
      nb_clause_9283_weaving_command (wv, v_mm_s, t->command);
      for (guint i = 0; i < c->pose->len; i++)
        {
          g_array_append_val (t->data, g_array_index (c->t_s, double, i));
          nb_clause_9283_pack_pose (t->data, &g_array_index (c->pose, NbPose6, i));
        }
      g_ptr_array_add (trials, t);
    }
  return trials;
}

static int
iso_weaving (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) cycles = NULL, trials = NULL;
  g_autofree char *input = NULL, *line_text = NULL, *direction_text = NULL;
  double stroke = NAN, frequency = NAN, v_travel = NAN, length = 0;
  gint points = 10;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "input", 0, 0, G_OPTION_ARG_FILENAME, &input, "the tracks (- for stdin)", "F.csv" },
    { "line", 0, 0, G_OPTION_ARG_STRING, &line_text,
      "the command path's base line, mm", "X1,Y1,Z1,X2,Y2,Z2" },
    { "direction", 0, 0, G_OPTION_ARG_STRING, &direction_text,
      "the weave's direction across the line (its part at right angles to the line)",
      "DX,DY,DZ" },
    { "stroke", 0, 0, G_OPTION_ARG_DOUBLE, &stroke,
      "the command weaving stroke S_c, the full width peak to peak", "MM" },
    { "frequency", 0, 0, G_OPTION_ARG_DOUBLE, &frequency,
      "the command weaving frequency F_c", "HZ" },
    { "points", 0, 0, G_OPTION_ARG_INT, &points,
      "measured between the first and the last of M calculated points, as path's velocity (10)",
      "M" },
    { "velocity", 0, 0, G_OPTION_ARG_DOUBLE, &v_travel,
      "the travel along the line, for the note (optional)", "MM_S" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };
  const NbClause9283 *clause = nb_clause_9283_lookup ("weaving");
  NbIso9283PlanEntry entry = { .characteristic = (char *) "weaving",
                               .config = (char *) "weaving", .speed_pct = 100,
                               .duration_s = NAN, .in_scope = TRUE };
  NbIso9283Weave wv = { 0 };
  NbClause9283Figures f = { 0 };
  double v[6];

  g_option_context_set_summary (context,
    "Weaving deviations, ISO 9283 8.7: the weaving stroke error WS = (S̄_a − S_c)/S_c·100 %\n"
    "and the weaving frequency error WF = (F̄_a − F_c)/F_c·100 % of a weave across a straight\n"
    "line, over the part between the first and the last calculated point (L/(M+1) …\n"
    "L·M/(M+1)); per cycle each crest and trough the vertex of a parabola, the stroke of\n"
    "an extreme against the middle of its neighbours (the attained line may drift), the\n"
    "frequency crest to crest and trough to trough; also the largest cycle's WS, WF.\n\n"
    "Columns: cycle (a label; a cycle's rows together), t_s (increasing), x_mm, y_mm,\n"
    "z_mm (as for path). Two whole weaving periods a cycle at least; the standard: 3 cycles.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !nb_cli_parse_numbers ("line", line_text, v, 6, "X1,Y1,Z1,X2,Y2,Z2 (mm)", &error) ||
      !nb_cli_parse_numbers ("direction", direction_text, wv.direction, 3, "DX,DY,DZ", &error))
    return nb_cli_report_error (error);
  memcpy (wv.start_mm, v, sizeof wv.start_mm);
  memcpy (wv.end_mm, v + 3, sizeof wv.end_mm);
  for (int k = 0; k < 3; k++)
    length += (v[k + 3] - v[k]) * (v[k + 3] - v[k]);
  length = sqrt (length);
  if (!(stroke > 0) || !isfinite (stroke) || !(frequency > 0) || !isfinite (frequency) ||
      points < 1 || !(length > 0) || (!isnan (v_travel) && !(v_travel > 0 && isfinite (v_travel))))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   isnan (stroke) || isnan (frequency)
                     ? "--stroke MM and --frequency HZ are required"
                     : "--stroke, --frequency and --velocity must be positive, --points at "
                       "least 1, the --line of some length");
      return nb_cli_report_error (error);
    }
  wv.stroke_mm = stroke;
  wv.frequency_hz = frequency;
  wv.s0_mm = length / (points + 1.0);
  wv.s1_mm = length * points / (points + 1.0);
  if (!require_input (input, &error) ||
      (cycles = nb_iso9283_read_tracks (input, FALSE, NULL, &error)) == NULL)
    return nb_cli_report_error (error);
  trials = weaving_trials (cycles, &wv, v_travel);
  /* Each cycle alone first, so that a cycle the module cannot read is named
   * where it is in the file. */
  for (guint j = 0; j < cycles->len; j++)
    {
      NbIso9283Cycle *c = cycles->pdata[j];
      g_autoptr (GPtrArray) one = g_ptr_array_new ();

      g_ptr_array_add (one, trials->pdata[j]);
      if (!clause->compute (clause, &entry, one, NULL, &f, &error))
        {
          /* Given one cycle, the module calls it cycle 1: the file's label instead. */
          g_autofree char *why = g_strdup (g_str_has_prefix (error->message, "cycle 1: ")
                                           ? error->message + strlen ("cycle 1: ")
                                           : error->message);

          g_clear_error (&error);
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "%s:%" G_GUINT64_FORMAT ": cycle '%s': %s",
                       input, c->line, c->cycle, why);
          return nb_cli_report_error (error);
        }
      nb_clause_9283_figures_clear (&f);
    }
  if (!clause->compute (clause, &entry, trials, NULL, &f, &error))
    {
      g_prefix_error (&error, "%s: ", input);
      return nb_cli_report_error (error);
    }
  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "n"); nb_json_int (w, cycles->len);
      json_number (w, "length_mm", length);
      json_number (w, "s0_mm", wv.s0_mm);
      json_number (w, "s1_mm", wv.s1_mm);
      for (guint k = 0; k < clause->n_columns; k++)
        json_number (w, clause->columns[k].key, f.values[k]);
      nb_json_end_object (w);
      nb_clause_9283_figures_clear (&f);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      g_autoptr (NbTable) t = nb_table_new ("ISO 9283 8.7 — weaving deviations");
      guint row;

      nb_table_add_column (t, "n", "n", NULL, 0);
      for (guint k = 0; k < clause->n_columns; k++)
        nb_table_add_column (t, clause->columns[k].key, clause->columns[k].title,
                             clause->columns[k].unit, clause->columns[k].decimals);
      row = nb_table_add_row (t);
      nb_table_set_number (t, row, 0, cycles->len);
      for (guint k = 0; k < clause->n_columns; k++)
        nb_table_set_number (t, row, 1 + k, f.values[k]);
      if (f.note != NULL)
        nb_table_add_note (t, f.note);
      if (cycles->len < clause->cycles)
        {
          g_autofree char *note = g_strdup_printf ("Note: ISO 9283 8.7 asks for %u cycles.",
                                                   clause->cycles);

          nb_table_add_note (t, note);
        }
      nb_clause_9283_figures_clear (&f);
      return emit (nb_table_to_text (t));
    }
}

/* ---------------------------------------------------------- dispatch -- */

static const NbCliCommand iso9283_commands[] = {
  { "pose", iso_pose, "7.2: pose accuracy and repeatability (AP, RP)" },
  { "distance", iso_distance, "7.3: distance accuracy and repeatability (AD, RD)" },
  { "stabilisation", iso_stabilisation, "7.4, 7.5: pose stabilisation time and overshoot" },
  { "path", iso_path, "8.2, 8.3, 8.6: path accuracy and repeatability (AT, RT; AV, RV, FV)" },
  { "corner", iso_corner, "8.5: corner deviations (CR, CO)" },
  { "weaving", iso_weaving, "8.7: weaving deviations (WS, WF)" },
};

int
nb_cli_compute_iso9283 (int argc, char **argv)
{
  return nb_cli_dispatch ("compute iso9283", iso9283_commands, G_N_ELEMENTS (iso9283_commands),
                          argc, argv);
}
