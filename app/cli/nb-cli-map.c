/* navbench-cli map — clause 10 from the robot's own map files
 *
 *   map corners MAP.yaml   the arena's corners A'_1..A'_4 in the map, per-wall
 *                          residuals, defects; Dm against a truth (10.2)
 *   map check MAP.yaml     the defects only; exit 2 when the map fails
 *   map generate --out DIR a synthetic arena map with chosen distortions
 *
 * Maps are ROS map_server YAML + PGM/PNG, in metres; everything printed is
 * in mm (drivers/file/nb-map-file.c converts).
 */
#include "nb-cli.h"

#include "nb-error.h"
#include "nb-json-writer.h"
#include "nb-map.h"
#include "nb-map-file.h"
#include "nb-map-fit.h"
#include "nb-map-gen.h"
#include "nb-map-plot.h"
#include "nb-measurements.h"
#include "nb-metrics.h"
#include "nb-number.h"

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

/* An optional number option: keeps *out when the option was not given. */
static gboolean
opt_number (const char *option, const char *text, double *out, GError **error)
{
  return text == NULL || nb_cli_parse_numbers (option, text, out, 1, "a number", error);
}

/* The one positional argument: MAP.yaml. */
static gboolean
parse_with_map (GOptionContext *context, int *argc, char ***argv, const char **map_path,
                GError **error)
{
  if (!g_option_context_parse (context, argc, argv, error))
    return FALSE;
  if (*argc != 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   *argc < 2 ? "MAP.yaml is required (see --help)"
                             : "unexpected argument '%s' (see --help)",
                   *argc < 2 ? "" : (*argv)[2]);
      return FALSE;
    }
  *map_path = (*argv)[1];
  return TRUE;
}

typedef struct {
  char *truth;
  char *lu_mm;
  char *p0_lu;
  char *reference_mm;
  char *accept_gap_mm;
  char *accept_shadow_mm;
  char *seed;
  gboolean json;
} Common;

static void
common_clear (Common *c)
{
  g_free (c->truth);
  g_free (c->lu_mm);
  g_free (c->p0_lu);
  g_free (c->reference_mm);
  g_free (c->accept_gap_mm);
  g_free (c->accept_shadow_mm);
  g_free (c->seed);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Common, common_clear)

static void
common_entries (GOptionContext *context, Common *c, gboolean truth)
{
  const GOptionEntry entries[] = {
    { "accept-gap-mm", 0, 0, G_OPTION_ARG_STRING, &c->accept_gap_mm,
      "accept an open contour up to this wide (default 0)", "MM" },
    { "accept-shadow-mm", 0, 0, G_OPTION_ARG_STRING, &c->accept_shadow_mm,
      "accept a shadow up to this far from its wall (default 0)", "MM" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &c->seed, "RANSAC's seed (default 1)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &c->json, "one JSON object on stdout", NULL },
    { NULL }
  };
  const GOptionEntry truth_entries[] = {
    { "truth", 0, 0, G_OPTION_ARG_FILENAME, &c->truth,
      "the arena's surveyed corners in the map frame (corner, x_mm, y_mm)", "T.csv" },
    { "lu-mm", 0, 0, G_OPTION_ARG_STRING, &c->lu_mm,
      "or the truth from the arena's geometry: the length unit", "L" },
    { "p0-lu", 0, 0, G_OPTION_ARG_STRING, &c->p0_lu,
      "… and where P0 (the map's origin) stands in the arena, A_1 at (0, 0), A_2 on +x; "
      "LU, LU, degrees", "X,Y,THETA" },
    { "reference-mm", 0, 0, G_OPTION_ARG_STRING, &c->reference_mm,
      "10.2: a reference feature off the arena's symmetry, surveyed in the truth's frame: "
      "the map's corners are the numbering that puts it on the map", "X,Y" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (truth)
    g_option_context_add_main_entries (context, truth_entries, NULL);
}

static gboolean
common_options (const Common *c, NbMapFitOptions *o, gboolean *has_truth, double truth[4][2],
                GError **error)
{
  double seed = 1;

  nb_map_fit_options_init (o);
  if (!opt_number ("accept-gap-mm", c->accept_gap_mm, &o->accept_gap_mm, error) ||
      !opt_number ("accept-shadow-mm", c->accept_shadow_mm, &o->accept_shadow_mm, error) ||
      !opt_number ("seed", c->seed, &seed, error))
    return FALSE;
  if (!(seed >= 0 && seed <= G_MAXUINT32 && seed == floor (seed)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--seed: expected an integer 0..%u",
                   G_MAXUINT32);
      return FALSE;
    }
  o->seed = (guint32) seed;
  *has_truth = FALSE;
  if (c->truth != NULL && (c->lu_mm != NULL || c->p0_lu != NULL))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "--truth and --lu-mm/--p0-lu are two ways to give the truth: pick one");
      return FALSE;
    }
  if (c->truth != NULL)
    {
      if (!nb_measurements_read_truth_corners (c->truth, truth, error))
        return FALSE;
      *has_truth = TRUE;
    }
  else if (c->lu_mm != NULL || c->p0_lu != NULL)
    {
      double lu, p0[3];

      if (!nb_cli_parse_numbers ("lu-mm", c->lu_mm, &lu, 1, "L", error) ||
          !nb_cli_parse_numbers ("p0-lu", c->p0_lu, p0, 3, "X,Y,THETA", error) ||
          !nb_arena_corners (lu, p0[0], p0[1], p0[2], truth, error))
        return FALSE;
      *has_truth = TRUE;
    }
  if (c->reference_mm != NULL &&
      !nb_cli_parse_numbers ("reference-mm", c->reference_mm, o->reference_mm, 2, "X,Y", error))
    return FALSE;
  if (c->reference_mm != NULL && !*has_truth)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "--reference-mm is surveyed in the truth's frame: give the truth too");
      return FALSE;
    }
  return TRUE;
}

static void
json_defects (NbJsonWriter *w, const NbMapFit *fit)
{
  nb_json_key (w, "defects");
  nb_json_begin_array (w);
  for (guint i = 0; i < fit->defects->len; i++)
    {
      const NbMapDefect *d = &g_array_index (fit->defects, NbMapDefect, i);

      nb_json_begin_object (w);
      nb_json_key (w, "kind"); nb_json_string (w, nb_map_defect_kind_to_string (d->kind));
      nb_json_key (w, "wall"); nb_json_int (w, d->wall + 1);
      nb_json_key (w, "accepted"); nb_json_bool (w, d->accepted);
      nb_json_key (w, "from_mm");
      nb_json_begin_array (w); nb_json_double (w, d->x0_mm); nb_json_double (w, d->y0_mm);
      nb_json_end_array (w);
      nb_json_key (w, "to_mm");
      nb_json_begin_array (w); nb_json_double (w, d->x1_mm); nb_json_double (w, d->y1_mm);
      nb_json_end_array (w);
      nb_json_key (w, "length_mm"); nb_json_double (w, d->length_mm);
      if (d->kind == NB_MAP_DEFECT_SHADOW)
        {
          nb_json_key (w, "offset_mm"); nb_json_double (w, d->offset_mm);
        }
      else
        {
          nb_json_key (w, "area_mm2"); nb_json_double (w, d->area_mm2);
        }
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
  nb_json_key (w, "passed"); nb_json_bool (w, fit->passed);
}

static void
text_defects (GString *s, const NbMapFit *fit)
{
  for (guint i = 0; i < fit->defects->len; i++)
    {
      const NbMapDefect *d = &g_array_index (fit->defects, NbMapDefect, i);
      const char *tag = d->accepted ? "accepted" : "DEFECT";

      if (d->kind == NB_MAP_DEFECT_SHADOW)
        g_string_append_printf (s, "%s: shadow of wall %u: a second contour %.0f mm %s it, "
                                "%.0f mm long, from (%.0f, %.0f) to (%.0f, %.0f) mm\n",
                                tag, d->wall + 1, fabs (d->offset_mm),
                                d->offset_mm > 0 ? "inside" : "outside", d->length_mm,
                                d->x0_mm, d->y0_mm, d->x1_mm, d->y1_mm);
      else if (isnan (d->length_mm))
        g_string_append_printf (s, "%s: open contour: free space from inside the arena reaches "
                                "the map's border (%.2f m² outside)\n", tag, d->area_mm2 / 1e6);
      else
        g_string_append_printf (s, "%s: open contour: wall %u is open over %.0f mm, from "
                                "(%.0f, %.0f) to (%.0f, %.0f) mm; %.2f m² of free space "
                                "outside the arena\n", tag, d->wall + 1, d->length_mm,
                                d->x0_mm, d->y0_mm, d->x1_mm, d->y1_mm, d->area_mm2 / 1e6);
    }
  g_string_append_printf (s, "%s\n", fit->passed
                            ? "The map passes: no defect beyond the accepted range."
                            : "The map FAILS clause 10: defects beyond the accepted range.");
}

/* ----------------------------------------------------------- corners -- */

static int
map_corners (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("MAP.yaml");
  g_autoptr (GError) error = NULL;
  g_autoptr (NbMapAnalysis) a = NULL;
  g_auto (Common) c = { 0 };
  g_autofree char *plot = NULL;
  const GOptionEntry entries[] = {
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot, "draw the map, walls, corners and defects",
      "OUT.png" },
    { NULL }
  };
  const char *path = NULL;
  NbMapFitOptions options;
  double truth[4][2];
  gboolean has_truth;

  g_option_context_set_summary (context,
    "The arena's corners A'_1..A'_4 in a robot's map (ROS map_server YAML + PGM/PNG),\n"
    "ISO 18646-2 clause 10: the four walls fitted (RANSAC, then least squares), their\n"
    "residuals, each corner's 1-σ uncertainty, the map's defects, and with a truth\n"
    "Dm = ¼ Σ |A_i − A'_i| (10.2).  Corners are numbered counter-clockwise from the one\n"
    "nearest the map's (−x, −y) direction, or to pair with the truth when given.");
  common_entries (context, &c, TRUE);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!parse_with_map (context, &argc, &argv, &path, &error) ||
      !common_options (&c, &options, &has_truth, truth, &error) ||
      (a = nb_map_analyse (path, has_truth ? (const double (*)[2]) truth : NULL, &options,
                           &error)) == NULL ||
      (plot != NULL && !nb_map_plot_png (a->map, a->fit, has_truth ? (const double (*)[2]) truth
                                                                   : NULL, a->dm_mm, plot, &error)))
    return nb_cli_report_error (error);

  if (c.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "map"); nb_json_string (w, path);
      nb_json_key (w, "width"); nb_json_int (w, a->map->width);
      nb_json_key (w, "height"); nb_json_int (w, a->map->height);
      nb_json_key (w, "resolution_mm"); nb_json_double (w, a->map->resolution_mm);
      if (a->reference != NB_MAP_REFERENCE_NONE)
        {
          nb_json_key (w, "reference");
          nb_json_string (w, nb_map_reference_to_string (a->reference));
        }
      nb_json_key (w, "corners");
      nb_json_begin_array (w);
      for (int k = 0; k < 4; k++)
        {
          nb_json_begin_object (w);
          nb_json_key (w, "corner"); nb_json_int (w, k + 1);
          nb_json_key (w, "x_mm"); nb_json_double (w, a->fit->corner_mm[k][0]);
          nb_json_key (w, "y_mm"); nb_json_double (w, a->fit->corner_mm[k][1]);
          nb_json_key (w, "sigma_mm"); nb_json_double (w, a->fit->corner_sigma_mm[k]);
          if (has_truth)
            {
              nb_json_key (w, "truth_x_mm"); nb_json_double (w, truth[k][0]);
              nb_json_key (w, "truth_y_mm"); nb_json_double (w, truth[k][1]);
              nb_json_key (w, "error_mm");
              nb_json_double (w, hypot (truth[k][0] - a->fit->corner_mm[k][0],
                                        truth[k][1] - a->fit->corner_mm[k][1]));
            }
          nb_json_end_object (w);
        }
      nb_json_end_array (w);
      nb_json_key (w, "walls");
      nb_json_begin_array (w);
      for (int k = 0; k < 4; k++)
        {
          const NbMapWall *wall = &a->fit->walls[k];

          nb_json_begin_object (w);
          nb_json_key (w, "wall"); nb_json_int (w, k + 1);
          nb_json_key (w, "normal");
          nb_json_begin_array (w); nb_json_double (w, wall->nx); nb_json_double (w, wall->ny);
          nb_json_end_array (w);
          nb_json_key (w, "offset_mm"); nb_json_double (w, wall->rho_mm);
          nb_json_key (w, "residual_mm"); nb_json_double (w, wall->residual_mm);
          nb_json_key (w, "points"); nb_json_int (w, wall->n_points);
          nb_json_key (w, "coverage"); nb_json_double (w, wall->coverage);
          nb_json_end_object (w);
        }
      nb_json_end_array (w);
      nb_json_key (w, "side_mm");
      nb_json_begin_array (w); nb_json_double (w, a->fit->side_mm[0]);
      nb_json_double (w, a->fit->side_mm[1]); nb_json_end_array (w);
      json_defects (w, a->fit);
      nb_json_key (w, "dm_mm"); nb_json_double (w, a->dm_mm);
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      GString *s = g_string_new (NULL);

      g_string_append_printf (s, "ISO 18646-2 clause 10 — the arena's corners in %s\n"
                              "(%u × %u cells of %.4g mm)\n\n", path, a->map->width,
                              a->map->height, a->map->resolution_mm);
      g_string_append_printf (s, "%-8s %10s %10s %8s", "corner", "x (mm)", "y (mm)", "σ (mm)");
      if (has_truth)
        g_string_append_printf (s, " %10s %10s %9s", "true x", "true y", "error");
      g_string_append (s, "\n");
      for (int k = 0; k < 4; k++)
        {
          g_string_append_printf (s, "A'_%d     %10.1f %10.1f %8.1f", k + 1,
                                  a->fit->corner_mm[k][0], a->fit->corner_mm[k][1],
                                  a->fit->corner_sigma_mm[k]);
          if (has_truth)
            g_string_append_printf (s, " %10.1f %10.1f %9.1f", truth[k][0], truth[k][1],
                                    hypot (truth[k][0] - a->fit->corner_mm[k][0],
                                           truth[k][1] - a->fit->corner_mm[k][1]));
          g_string_append (s, "\n");
        }
      g_string_append_printf (s, "\n%-8s %12s %8s %9s\n", "wall", "RMS (mm)", "points",
                              "coverage");
      for (int k = 0; k < 4; k++)
        g_string_append_printf (s, "%d → %d    %12.1f %8u %8.0f%%\n", k + 1, (k + 1) % 4 + 1,
                                a->fit->walls[k].residual_mm, a->fit->walls[k].n_points,
                                100 * a->fit->walls[k].coverage);
      g_string_append (s, "\n");
      if (has_truth)
        g_string_append_printf (s, "Dm = %.1f mm\n", a->dm_mm);
      text_defects (s, a->fit);
      return emit (g_string_free (s, FALSE));
    }
}

/* ------------------------------------------------------------- check -- */

static int
map_check (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("MAP.yaml");
  g_autoptr (GError) error = NULL;
  g_autoptr (NbMapAnalysis) a = NULL;
  g_auto (Common) c = { 0 };
  const char *path = NULL;
  NbMapFitOptions options;
  double truth[4][2];
  gboolean has_truth;
  int status;

  g_option_context_set_summary (context,
    "The defects of a robot's map, ISO 18646-2 clause 10: an open contour (free space\n"
    "reached from inside the arena outside its outline) and shadows (a second contour\n"
    "parallel to a wall).  Exit status 2 when a defect is beyond the accepted range.");
  common_entries (context, &c, FALSE);
  if (!parse_with_map (context, &argc, &argv, &path, &error) ||
      !common_options (&c, &options, &has_truth, truth, &error) ||
      (a = nb_map_analyse (path, NULL, &options, &error)) == NULL)
    return nb_cli_report_error (error);

  if (c.json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "map"); nb_json_string (w, path);
      json_defects (w, a->fit);
      nb_json_end_object (w);
      status = emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      GString *s = g_string_new (NULL);

      g_string_append_printf (s, "%s: %u defect%s found\n", path, a->fit->defects->len,
                              a->fit->defects->len == 1 ? "" : "s");
      text_defects (s, a->fit);
      status = emit (g_string_free (s, FALSE));
    }
  if (status == NB_EXIT_OK && !a->fit->passed)
    {
      g_printerr ("navbench-cli: %s: the map fails clause 10: defects beyond the accepted "
                  "range\n", path);
      return NB_EXIT_USAGE;
    }
  return status;
}

/* ---------------------------------------------------------- generate -- */

static gboolean
parse_wall (const char *option, double v, guint *wall, GError **error)
{
  if (!(v >= 1 && v <= 4 && v == floor (v)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--%s: the wall is 1..4, got %g", option, v);
      return FALSE;
    }
  *wall = (guint) v - 1;
  return TRUE;
}

static int
map_generate (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) local = NULL;
  g_autoptr (NbMap) map = NULL;
  g_autofree char *out = NULL, *name = NULL, *format = NULL, *mode = NULL, *lu = NULL,
                  *res = NULL, *p0 = NULL, *reference = NULL, *translate = NULL, *rotate = NULL, *scale = NULL,
                  *yaw = NULL, *noise = NULL, *speckle = NULL, *shadow = NULL, *seed = NULL,
                  *wall = NULL;
  g_auto (GStrv) gaps = NULL;
  gboolean patch = FALSE, bare = FALSE, json = FALSE;
  const GOptionEntry entries[] = {
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &out, "the directory to write into (required)", "DIR" },
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, "file names NAME.yaml, NAME.pgm|png, "
      "NAME-truth.csv (default map)", "NAME" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, "the image: pgm (default) or png", "F" },
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode, "trinary (default) or scale", "M" },
    { "lu-mm", 0, 0, G_OPTION_ARG_STRING, &lu, "the length unit (default 500)", "L" },
    { "resolution-mm", 0, 0, G_OPTION_ARG_STRING, &res, "cell size (default 50)", "R" },
    { "p0-lu", 0, 0, G_OPTION_ARG_STRING, &p0, "where P0, the map's origin, stands in the "
      "arena (default 1,1,0)", "X,Y,THETA" },
    { "translate-mm", 0, 0, G_OPTION_ARG_STRING, &translate, "the map's error: a shift",
      "X,Y" },
    { "rotate-deg", 0, 0, G_OPTION_ARG_STRING, &rotate, "… a rotation about P0", "DEG" },
    { "reference-mm", 0, 0, G_OPTION_ARG_STRING, &reference, "a reference post (200 mm square) "
      "off the arena's symmetry, centred here in P0's frame (10.2)", "X,Y" },
    { "scale", 0, 0, G_OPTION_ARG_STRING, &scale, "… a scale about P0 (default 1)", "S" },
    { "origin-yaw-deg", 0, 0, G_OPTION_ARG_STRING, &yaw, "the grid's yaw in the YAML origin",
      "DEG" },
    { "wall-mm", 0, 0, G_OPTION_ARG_STRING, &wall, "wall thickness (default 150)", "MM" },
    { "noise-cells", 0, 0, G_OPTION_ARG_STRING, &noise, "σ of the wall surfaces, in cells",
      "σ" },
    { "speckle", 0, 0, G_OPTION_ARG_STRING, &speckle, "probability of a stray occupied cell",
      "P" },
    { "gap", 0, 0, G_OPTION_ARG_STRING_ARRAY, &gaps, "a wall segment missing: wall 1..4, "
      "fractions along it, leak 1 = seen through (an open contour), 0 = unknown (repeatable, "
      "up to 4)", "W,FROM,TO,LEAK" },
    { "shadow", 0, 0, G_OPTION_ARG_STRING, &shadow, "a wall seen twice: wall 1..4, offset "
      "into the arena (mm, negative beyond the wall), fractions along it", "W,MM,FROM,TO" },
    { "unknown-patch", 0, 0, G_OPTION_ARG_NONE, &patch, "an unseen disc in the A_3 quadrant",
      NULL },
    { "no-furniture", 0, 0, G_OPTION_ARG_NONE, &bare, "without the column and the T "
      "partitions", NULL },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &seed, "the noise's seed (default 1)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };
  NbMapGenOptions o;
  NbMapImageFormat image = NB_MAP_IMAGE_PGM;
  double corners[4][2], truth[4][2], v[4], seed_value = 1;
  g_autofree char *truth_name = NULL, *truth_path = NULL, *yaml_name = NULL;
  GString *csv;

  g_option_context_set_summary (context,
    "A synthetic occupancy map of the clause 10 arena (7 LU × 7 LU, the column and four\n"
    "T partitions) in ROS map_server format, with chosen distortions, and the arena's\n"
    "true corners in the map frame (P0's) as NAME-truth.csv for `map corners --truth`.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  nb_map_gen_options_init (&o);
  if (out == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--out DIR is required");
      return nb_cli_report_error (error);
    }
  if (format != NULL && !g_str_equal (format, "pgm") && !g_str_equal (format, "png"))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--format: pgm or png, not '%s'", format);
      return nb_cli_report_error (error);
    }
  if (format != NULL && g_str_equal (format, "png"))
    image = NB_MAP_IMAGE_PNG;
  if (mode != NULL && !g_str_equal (mode, "trinary") && !g_str_equal (mode, "scale"))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--mode: trinary or scale, not '%s'", mode);
      return nb_cli_report_error (error);
    }
  if (mode != NULL && g_str_equal (mode, "scale"))
    o.mode = NB_MAP_MODE_SCALE;
  if (!opt_number ("lu-mm", lu, &o.lu_mm, &error) ||
      !opt_number ("resolution-mm", res, &o.resolution_mm, &error) ||
      !opt_number ("rotate-deg", rotate, &o.rotation_deg, &error) ||
      !opt_number ("scale", scale, &o.scale, &error) ||
      !opt_number ("origin-yaw-deg", yaw, &o.origin_yaw_deg, &error) ||
      !opt_number ("wall-mm", wall, &o.wall_mm, &error) ||
      !opt_number ("noise-cells", noise, &o.noise_cells, &error) ||
      !opt_number ("speckle", speckle, &o.speckle, &error) ||
      !opt_number ("seed", seed, &seed_value, &error))
    return nb_cli_report_error (error);
  if (p0 != NULL)
    {
      if (!nb_cli_parse_numbers ("p0-lu", p0, v, 3, "X,Y,THETA", &error))
        return nb_cli_report_error (error);
      o.p0_x_lu = v[0]; o.p0_y_lu = v[1]; o.p0_theta_deg = v[2];
    }
  if (translate != NULL)
    {
      if (!nb_cli_parse_numbers ("translate-mm", translate, v, 2, "X,Y", &error))
        return nb_cli_report_error (error);
      o.tx_mm = v[0]; o.ty_mm = v[1];
    }
  if (reference != NULL &&
      !nb_cli_parse_numbers ("reference-mm", reference, o.reference_mm, 2, "X,Y", &error))
    return nb_cli_report_error (error);
  for (guint i = 0; gaps != NULL && gaps[i] != NULL; i++)
    {
      if (i >= NB_MAP_GEN_MAX_GAPS)
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--gap: at most %d",
                       NB_MAP_GEN_MAX_GAPS);
          return nb_cli_report_error (error);
        }
      if (!nb_cli_parse_numbers ("gap", gaps[i], v, 4, "W,FROM,TO,LEAK", &error) ||
          !parse_wall ("gap", v[0], &o.gaps[i].wall, &error))
        return nb_cli_report_error (error);
      o.gaps[i].from = v[1];
      o.gaps[i].to = v[2];
      o.gaps[i].leak = v[3] != 0;
      o.n_gaps = i + 1;
    }
  if (shadow != NULL)
    {
      if (!nb_cli_parse_numbers ("shadow", shadow, v, 4, "W,MM,FROM,TO", &error) ||
          !parse_wall ("shadow", v[0], &o.shadow_wall, &error))
        return nb_cli_report_error (error);
      o.shadow = TRUE;
      o.shadow_offset_mm = v[1];
      o.shadow_from = v[2];
      o.shadow_to = v[3];
    }
  if (!(seed_value >= 0 && seed_value <= G_MAXUINT32 && seed_value == floor (seed_value)))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--seed: expected an integer 0..%u",
                   G_MAXUINT32);
      return nb_cli_report_error (error);
    }
  o.seed = (guint32) seed_value;
  o.unknown_patch = patch;
  o.furniture = !bare;
  if (name == NULL)
    name = g_strdup ("map");

  if ((map = nb_map_generate (&o, corners, &error)) == NULL ||
      !nb_arena_corners (o.lu_mm, o.p0_x_lu, o.p0_y_lu, o.p0_theta_deg, truth, &error) ||
      !nb_map_write (map, out, name, image, &error))
    return nb_cli_report_error (error);
  truth_name = g_strconcat (name, "-truth.csv", NULL);
  truth_path = g_build_filename (out, truth_name, NULL);
  csv = g_string_new ("# the arena's corners A_1..A_4 in the map frame (P0's), mm\n"
                      "corner,x_mm,y_mm\n");
  for (int k = 0; k < 4; k++)
    {
      char bx[G_ASCII_DTOSTR_BUF_SIZE], by[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (csv, "%d,%s,%s\n", k + 1,
                              g_ascii_dtostr (bx, sizeof bx, truth[k][0]),
                              g_ascii_dtostr (by, sizeof by, truth[k][1]));
    }
  if (!g_file_set_contents (truth_path, csv->str, (gssize) csv->len, &local))
    {
      g_autofree char *where = g_strdup_printf ("%s: ", truth_path);

      g_string_free (csv, TRUE);
      nb_error_propagate_as (&error, g_steal_pointer (&local), NB_ERROR_FAILED, where);
      return nb_cli_report_error (error);
    }
  g_string_free (csv, TRUE);
  yaml_name = g_strconcat (name, ".yaml", NULL);

  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
      g_autofree char *yaml_path = g_build_filename (out, yaml_name, NULL);

      nb_json_begin_object (w);
      nb_json_key (w, "map"); nb_json_string (w, yaml_path);
      nb_json_key (w, "truth"); nb_json_string (w, truth_path);
      nb_json_key (w, "width"); nb_json_int (w, map->width);
      nb_json_key (w, "height"); nb_json_int (w, map->height);
      nb_json_key (w, "map_corners");
      nb_json_begin_array (w);
      for (int k = 0; k < 4; k++)
        {
          nb_json_begin_array (w);
          nb_json_double (w, corners[k][0]);
          nb_json_double (w, corners[k][1]);
          nb_json_end_array (w);
        }
      nb_json_end_array (w);
      nb_json_key (w, "dm_mm");
      nb_json_double (w, nb_metrics_dm ((const double (*)[2]) truth, (const double (*)[2]) corners));
      nb_json_end_object (w);
      return emit (nb_json_writer_finish (g_steal_pointer (&w)));
    }
  else
    {
      GString *s = g_string_new (NULL);

      g_string_append_printf (s, "wrote %s/%s (%u × %u cells) and %s\n", out, yaml_name,
                              map->width, map->height, truth_path);
      for (int k = 0; k < 4; k++)
        g_string_append_printf (s, "A_%d at (%.1f, %.1f) mm; the map shows it at (%.1f, %.1f)\n",
                                k + 1, truth[k][0], truth[k][1], corners[k][0], corners[k][1]);
      g_string_append_printf (s, "Dm of the chosen distortion: %.1f mm\n",
                              nb_metrics_dm ((const double (*)[2]) truth,
                                             (const double (*)[2]) corners));
      return emit (g_string_free (s, FALSE));
    }
}

static const NbCliCommand map_commands[] = {
  { "corners", map_corners, "the arena's corners in a robot's map, and Dm (10.2)" },
  { "check", map_check, "a map's defects: open contour, shadows (10.3)" },
  { "generate", map_generate, "a synthetic arena map with chosen distortions" },
};

int
nb_cli_map (int argc, char **argv)
{
  return nb_cli_dispatch ("map", map_commands, G_N_ELEMENTS (map_commands), argc, argv);
}
