/* Maps: the map_server reader (PGM P5/P2 and PNG, trinary, scale, raw,
 * negate, origin yaw, bad files), corner extraction on synthetic arena maps
 * with known distortion (within one cell of where the map shows the
 * corners), defect flags (and none on clean maps), Dm against the truth. */
#include "nb-test.h"

#include "nb-error.h"
#include "nb-map.h"
#include "nb-map-file.h"
#include "nb-map-fit.h"
#include "nb-map-gen.h"
#include "nb-metrics.h"

#include <glib/gstdio.h>
#include <string.h>

/* The largest distance between a fitted corner and the map's true corner. */
static double
corner_error (const NbMapFit *fit, const double expected[4][2])
{
  double worst = 0;

  for (int i = 0; i < 4; i++)
    worst = MAX (worst, hypot (fit->corner_mm[i][0] - expected[i][0],
                               fit->corner_mm[i][1] - expected[i][1]));
  return worst;
}

static guint
count_defects (const NbMapFit *fit, NbMapDefectKind kind)
{
  guint n = 0;

  for (guint i = 0; i < fit->defects->len; i++)
    n += g_array_index (fit->defects, NbMapDefect, i).kind == kind;
  return n;
}

static NbMapFit *
fit_generated (const NbMapGenOptions *o, double corners[4][2], NbMap **out_map)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbMap) map = nb_map_generate (o, corners, &error);
  NbMapFit *fit;

  g_assert_no_error (error);
  fit = nb_map_fit (map, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fit);
  if (out_map != NULL)
    *out_map = g_steal_pointer (&map);
  return fit;
}

static void
test_clean (void)
{
  NbMapGenOptions o;
  double corners[4][2];
  g_autoptr (NbMapFit) fit = NULL;

  nb_map_gen_options_init (&o);
  fit = fit_generated (&o, corners, NULL);
  /* P0 at (1, 1) LU heading +x: A_1 at (−500, −500) mm */
  nb_assert_abs (corners[0][0], -500, 1e-9, "A_1 x");
  nb_assert_abs (corners[2][1], 3000, 1e-9, "A_3 y");
  nb_assert_abs (corner_error (fit, (const double (*)[2]) corners), 0, 50.0, "corners within a cell");
  for (int k = 0; k < 4; k++)
    {
      g_assert_cmpfloat (fit->walls[k].residual_mm, <, 30.0);
      g_assert_cmpfloat (fit->walls[k].coverage, >, 0.9);
      g_assert_cmpfloat (fit->corner_sigma_mm[k], >, 0);
      g_assert_cmpfloat (fit->corner_sigma_mm[k], <, 25.0);
    }
  g_assert_cmpuint (fit->defects->len, ==, 0);
  g_assert_true (fit->passed);
}

/* Rotation, translation, scale, rough walls, stray cells, an unseen patch,
 * a rotated grid, a wall segment never seen: corners within one cell, no defect. */
static void
test_distorted (void)
{
  NbMapGenOptions o;
  double corners[4][2], truth[4][2];
  g_autoptr (NbMapFit) fit = NULL;
  g_autoptr (GError) error = NULL;
  double dm_expected;

  nb_map_gen_options_init (&o);
  o.resolution_mm = 25;
  o.p0_x_lu = 2; o.p0_y_lu = 1.5; o.p0_theta_deg = 10;
  o.tx_mm = 120; o.ty_mm = -80; o.rotation_deg = 3.5; o.scale = 1.02;
  o.origin_yaw_deg = 20;
  o.noise_cells = 0.7;
  o.speckle = 0.002;
  o.unknown_patch = TRUE;
  o.gaps[0] = (NbMapGenGap) { .wall = 2, .from = 0.3, .to = 0.45, .leak = FALSE };
  o.n_gaps = 1;
  o.seed = 7;
  fit = fit_generated (&o, corners, NULL);
  g_assert_true (nb_arena_corners (o.lu_mm, o.p0_x_lu, o.p0_y_lu, o.p0_theta_deg, truth, &error));
  nb_map_fit_match_truth (fit, (const double (*)[2]) truth);
  nb_assert_abs (corner_error (fit, (const double (*)[2]) corners), 0, 25.0, "corners within a cell");
  /* Dm from the distortion alone: ¼ Σ |corner the map shows − truth| */
  dm_expected = nb_metrics_dm ((const double (*)[2]) truth, (const double (*)[2]) corners);
  g_assert_cmpfloat (dm_expected, >, 100);
  nb_assert_abs (nb_metrics_dm ((const double (*)[2]) truth, (const double (*)[2]) fit->corner_mm),
                 dm_expected, 25.0, "Dm");
  g_assert_cmpfloat (fit->walls[2].coverage, <, 0.9);
  g_assert_cmpfloat (fit->walls[0].coverage, >, 0.9);
  if (fit->defects->len != 0)
    {
      const NbMapDefect *d = &g_array_index (fit->defects, NbMapDefect, 0);
      g_error ("unexpected %s on wall %u: offset %g length %g", nb_map_defect_kind_to_string (d->kind),
               d->wall + 1, d->offset_mm, d->length_mm);
    }
  g_assert_true (fit->passed);
}

/* 10.2: corners paired by position in the registered frame (the map frame is
 * P0's), not by the cyclic shift with the smallest Dm.  A map turned about P0
 * keeps each corner's identity: Dm is that of the turn (the generator's
 * own corners, ¼ Σ |A'_i − A_i|) and the heading shows the turn; the old
 * rule's smallest-Dm renumbering gave 2500 mm for the 90° turn. */
static void
test_rotated (void)
{
  static const double turns[] = { 90, -90, 180, 60, 2 };

  for (guint k = 0; k < G_N_ELEMENTS (turns); k++)
    {
      NbMapGenOptions o;
      double corners[4][2], truth[4][2], smallest = G_MAXDOUBLE, dm, expected;
      g_autoptr (NbMapFit) fit = NULL;

      nb_map_gen_options_init (&o);
      o.rotation_deg = turns[k];
      o.seed = k + 1;
      fit = fit_generated (&o, corners, NULL);
      g_assert_true (nb_arena_corners (o.lu_mm, o.p0_x_lu, o.p0_y_lu, o.p0_theta_deg, truth, NULL));
      nb_map_fit_match_truth (fit, (const double (*)[2]) truth);
      dm = nb_metrics_dm ((const double (*)[2]) truth, (const double (*)[2]) fit->corner_mm);
      expected = nb_metrics_dm ((const double (*)[2]) truth, (const double (*)[2]) corners);
      nb_assert_abs (corner_error (fit, (const double (*)[2]) corners), 0, 50.0, "corner identity");
      nb_assert_abs (dm, expected, 50.0, "Dm of the turned map");
      nb_assert_abs (nb_map_heading_deg ((const double (*)[2]) truth,
                                         (const double (*)[2]) fit->corner_mm),
                     turns[k], 1.0, "heading");
      /* What the smallest-Dm renumbering would have said. */
      for (guint shift = 0; shift < 4; shift++)
        {
          double m[4][2];

          for (guint i = 0; i < 4; i++)
            memcpy (m[i], fit->corner_mm[(i + shift) % 4], sizeof m[i]);
          smallest = MIN (smallest, nb_metrics_dm ((const double (*)[2]) truth,
                                                   (const double (*)[2]) m));
        }
      if (turns[k] == 90)
        {
          /* P0 at (1, 1) LU, LU 500: A_1 (−500, −500) turns to (500, −500), … */
          nb_assert_abs (expected, (1000 + 2 * hypot (2500, 3500) + 6000) / 4, 1e-6, "Dm 90°");
          nb_assert_abs (smallest, 2500, 50.0, "smallest-Dm renumbering");
        }
    }
}

/* A wall seen twice: a shadow inside the arena and one beyond a wall. */
static void
test_shadow (void)
{
  for (int outside = 0; outside < 2; outside++)
    {
      NbMapGenOptions o;
      double corners[4][2];
      g_autoptr (NbMapFit) fit = NULL;
      const NbMapDefect *d;

      nb_map_gen_options_init (&o);
      o.rotation_deg = 12;
      o.noise_cells = 0.4;
      o.shadow = TRUE;
      o.shadow_wall = 1;
      o.shadow_offset_mm = outside ? -300 : 180;
      o.shadow_from = 0.2;
      o.shadow_to = 0.7;
      fit = fit_generated (&o, corners, NULL);
      nb_assert_abs (corner_error (fit, (const double (*)[2]) corners), 0, 50.0, "corners");
      g_assert_cmpuint (count_defects (fit, NB_MAP_DEFECT_SHADOW), ==, 1);
      g_assert_cmpuint (count_defects (fit, NB_MAP_DEFECT_OPEN_CONTOUR), ==, 0);
      d = &g_array_index (fit->defects, NbMapDefect, 0);
      g_assert_cmpuint (d->wall, ==, 1);
      /* the shadow's face that looks the way the wall's does (into the arena):
       * inside, the far side of its 2-cell strip, 180 + 50; outside, the near
       * side, −300 + 50 */
      nb_assert_abs (d->offset_mm, outside ? -250 : 230, 30.0, "shadow offset");
      /* counted from its points: rough surfaces lose a few */
      nb_assert_abs (d->length_mm, 0.5 * 3500, 0.15 * 1750, "shadow length");
      g_assert_false (d->accepted);
      g_assert_false (fit->passed);
    }
}

/* A wall segment seen through: the free space leaks out of the outline. */
static void
test_open_contour (void)
{
  NbMapGenOptions o;
  double corners[4][2];
  g_autoptr (NbMapFit) fit = NULL;
  g_autoptr (NbMap) map = NULL;
  const NbMapDefect *d;

  nb_map_gen_options_init (&o);
  o.rotation_deg = -7;
  o.gaps[0] = (NbMapGenGap) { .wall = 3, .from = 0.6, .to = 0.8, .leak = TRUE };
  o.n_gaps = 1;
  fit = fit_generated (&o, corners, &map);
  nb_assert_abs (corner_error (fit, (const double (*)[2]) corners), 0, 50.0, "corners");
  g_assert_cmpuint (count_defects (fit, NB_MAP_DEFECT_OPEN_CONTOUR), ==, 1);
  g_assert_cmpuint (count_defects (fit, NB_MAP_DEFECT_SHADOW), ==, 0);
  d = &g_array_index (fit->defects, NbMapDefect, 0);
  g_assert_cmpuint (d->wall, ==, 3);
  /* the opening: 20 % of 3500 mm, give or take the cells at its edges */
  nb_assert_abs (d->length_mm, 700, 150.0, "opening width");
  g_assert_cmpfloat (d->area_mm2, >, 0.5 * 700 * 500);
  g_assert_cmpuint (fit->leak_cells->len, >, 0);
  g_assert_false (fit->passed);

  /* accepted when the operator's range allows a 1 m opening */
  {
    NbMapFitOptions opt;
    g_autoptr (NbMapFit) fit2 = NULL;
    g_autoptr (GError) error = NULL;

    nb_map_fit_options_init (&opt);
    opt.accept_gap_mm = 1000;
    fit2 = nb_map_fit (map, &opt, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (fit2->defects->len, ==, 1);
    g_assert_true (g_array_index (fit2->defects, NbMapDefect, 0).accepted);
    g_assert_true (fit2->passed);
  }
}

/* Harder maps: one-cell walls on a grid rotated against them with stray
 * cells, rough thick walls, a shadow three cells from a wall that also has
 * an opening: corners within one cell, exactly the defects made. */
static void
test_hard_cases (void)
{
  static const struct {
    double rotation_deg, p0_theta_deg, origin_yaw_deg, res, wall_cells, noise, speckle;
    int shadow_wall, gap_wall;          /* 1..4, 0 for none */
    double shadow_mm;
  } cases[] = {
    { 0, 30, 10, 50, 1, 0, 0.003, 0, 0, 0 },
    { 0, -60, -20, 50, 1, 0.4, 0.003, 0, 0, 0 },
    { 4, 45, 15, 20, 3, 1.0, 0.003, 0, 0, 0 },
    { 5, 90, 0, 50, 3, 0.5, 0.001, 1, 1, 150 },
    { 5, 33, 0, 20, 3, 0.5, 0.001, 4, 3, -300 },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      NbMapGenOptions o;
      double corners[4][2];
      g_autoptr (NbMapFit) fit = NULL;
      guint want = 0;

      nb_map_gen_options_init (&o);
      o.rotation_deg = cases[k].rotation_deg;
      o.p0_x_lu = 2; o.p0_y_lu = 3;
      o.p0_theta_deg = cases[k].p0_theta_deg;
      o.origin_yaw_deg = cases[k].origin_yaw_deg;
      o.resolution_mm = cases[k].res;
      o.wall_mm = cases[k].wall_cells * cases[k].res;
      o.noise_cells = cases[k].noise;
      o.speckle = cases[k].speckle;
      o.unknown_patch = TRUE;
      o.seed = k + 1;
      if (cases[k].shadow_wall)
        {
          o.shadow = TRUE;
          o.shadow_wall = (guint) cases[k].shadow_wall - 1;
          o.shadow_offset_mm = cases[k].shadow_mm;
          o.shadow_from = 0.25;
          o.shadow_to = 0.75;
          want++;
        }
      if (cases[k].gap_wall)
        {
          o.gaps[0] = (NbMapGenGap) { (guint) cases[k].gap_wall - 1, 0.3, 0.45, TRUE };
          o.n_gaps = 1;
          want++;
        }
      fit = fit_generated (&o, corners, NULL);
      {
        double truth[4][2];

        /* P0's heading turns the truth's numbering: pair the corners with it */
        g_assert_true (nb_arena_corners (o.lu_mm, o.p0_x_lu, o.p0_y_lu, o.p0_theta_deg, truth, NULL));
        nb_map_fit_match_truth (fit, (const double (*)[2]) truth);
      }
      if (corner_error (fit, (const double (*)[2]) corners) > cases[k].res)
        g_error ("case %u: a corner is %g mm off", k,
                 corner_error (fit, (const double (*)[2]) corners));
      g_assert_cmpuint (fit->defects->len, ==, want);
      g_assert_cmpuint (count_defects (fit, NB_MAP_DEFECT_SHADOW), ==, cases[k].shadow_wall ? 1 : 0);
      g_assert_cmpuint (count_defects (fit, NB_MAP_DEFECT_OPEN_CONTOUR), ==, cases[k].gap_wall ? 1 : 0);
      for (guint i = 0; i < fit->defects->len; i++)
        {
          const NbMapDefect *d = &g_array_index (fit->defects, NbMapDefect, i);

          g_assert_cmpuint (d->wall + 1, ==, d->kind == NB_MAP_DEFECT_SHADOW ? cases[k].shadow_wall
                                                                             : cases[k].gap_wall);
        }
    }
}

/* ------------------------------------------------------------ files -- */

static char *
write_text (const char *dir, const char *name, const char *text, gssize len)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, len, NULL));
  return path;
}

static char *
tmp_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("nb-map-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

/* map_server's pixel rules on a hand-made P2 image, both ways of negate and
 * both modes; the frame of cell (0, 0) with an origin yaw, worked by hand. */
static void
test_read_rules (void)
{
  g_autofree char *dir = tmp_dir ();
  g_autofree char *img = write_text (dir, "m.pgm", "P2\n# a comment\n3 2\n255\n0 254 205\n100 128 255\n", -1);
  static const struct { const char *extra; guint8 v[6]; } cases[] = {
    { "negate: 0\nmode: trinary\n", { 100, 0, 255, 255, 255, 0 } },
    { "negate: 0\nmode: scale\n",   { 100, 0, 1, 90, 66, 0 } },
    { "negate: 1\n",                 { 0, 100, 100, 255, 255, 100 } },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autofree char *text = g_strdup_printf ("image: m.pgm\nresolution: 0.1\n"
                                               "origin: [1.0, 2.0, 0.5]\n"
                                               "occupied_thresh: 0.65\nfree_thresh: 0.196\n%s",
                                               cases[k].extra);
      g_autofree char *yaml = write_text (dir, "m.yaml", text, -1);
      g_autoptr (GError) error = NULL;
      g_autoptr (NbMap) map = nb_map_read (yaml, &error);
      double x, y;

      g_assert_no_error (error);
      g_assert_cmpuint (map->width, ==, 3);
      g_assert_cmpuint (map->height, ==, 2);
      nb_assert_abs (map->resolution_mm, 100, 1e-9, "resolution");
      for (int i = 0; i < 6; i++)
        if (map->cells[i] != cases[k].v[i])
          g_error ("case %u pixel %d: %u, expected %u", k, i, map->cells[i], cases[k].v[i]);
      /* cell (0, 0), the top left: u = 50, v = 150 mm, rotated by 0.5 rad */
      nb_map_image_to_world (map, 0.5, 0.5, &x, &y);
      nb_assert_abs (x, 971.965297, 1e-5, "x of cell (0, 0)");
      nb_assert_abs (y, 2155.608661, 1e-5, "y of cell (0, 0)");
      nb_map_world_to_image (map, x, y, &x, &y);
      nb_assert_abs (x, 0.5, 1e-12, "col back");
      nb_assert_abs (y, 0.5, 1e-12, "row back");
    }
  nb_test_remove_tree (dir);
}

/* Raw mode keeps the OccupancyGrid bytes; its thresholds are in percent. */
static void
test_read_raw (void)
{
  g_autofree char *dir = tmp_dir ();
  g_autofree char *img = write_text (dir, "r.pgm", "P5 4 1 255\n\x00\x64\xff\x32", 15);
  g_autofree char *yaml = write_text (dir, "r.yaml", "image: r.pgm\nresolution: 0.05\n"
                                      "origin: [0, 0, 0]\nmode: raw\n", -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbMap) map = nb_map_read (yaml, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (map->cells[0], ==, 0);
  g_assert_cmpuint (map->cells[1], ==, 100);
  g_assert_cmpuint (map->cells[2], ==, 255);
  g_assert_cmpuint (map->cells[3], ==, 50);
  g_assert_true (nb_map_value_free (map, map->cells[0]));
  g_assert_true (nb_map_value_occupied (map, map->cells[1]));
  g_assert_false (nb_map_value_occupied (map, map->cells[2]));
  g_assert_false (nb_map_value_occupied (map, map->cells[3]) || nb_map_value_free (map, map->cells[3]));
  nb_test_remove_tree (dir);
}

/* A generated map written as PGM and PNG, trinary and scale, reads back
 * cell for cell (same class), frame included, and gives the same corners. */
static void
test_round_trip (void)
{
  for (int k = 0; k < 4; k++)
    {
      g_autofree char *dir = tmp_dir ();
      g_autofree char *yaml = g_build_filename (dir, "rt.yaml", NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (NbMap) map = NULL, back = NULL;
      g_autoptr (NbMapFit) fit = NULL;
      NbMapGenOptions o;
      double corners[4][2];

      nb_map_gen_options_init (&o);
      o.mode = k & 1 ? NB_MAP_MODE_SCALE : NB_MAP_MODE_TRINARY;
      o.origin_yaw_deg = -15;
      o.rotation_deg = 4;
      o.tx_mm = -60;
      o.unknown_patch = TRUE;
      o.gaps[0] = (NbMapGenGap) { .wall = 1, .from = 0.1, .to = 0.3, .leak = FALSE };
      o.n_gaps = 1;
      map = nb_map_generate (&o, corners, &error);
      g_assert_no_error (error);
      g_assert_true (nb_map_write (map, dir, "rt", k & 2 ? NB_MAP_IMAGE_PNG : NB_MAP_IMAGE_PGM,
                                   &error));
      g_assert_no_error (error);
      back = nb_map_read (yaml, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (back->width, ==, map->width);
      g_assert_cmpuint (back->height, ==, map->height);
      g_assert_cmpint (back->mode, ==, map->mode);
      nb_assert_rel (back->resolution_mm, map->resolution_mm, 1e-12, "resolution");
      nb_assert_abs (back->origin_x_mm, map->origin_x_mm, 1e-9, "origin x");
      nb_assert_abs (back->origin_y_mm, map->origin_y_mm, 1e-9, "origin y");
      nb_assert_abs (back->origin_yaw_rad, map->origin_yaw_rad, 1e-15, "origin yaw");
      for (gsize i = 0; i < (gsize) map->width * map->height; i++)
        {
          guint8 a = map->cells[i], b = back->cells[i];

          if (nb_map_value_occupied (map, a) != nb_map_value_occupied (back, b) ||
              nb_map_value_free (map, a) != nb_map_value_free (back, b))
            g_error ("case %d cell %" G_GSIZE_FORMAT ": %u became %u", k, i, a, b);
          /* a scale map keeps its intermediate probability (50 → 1 + 98·ratio, ±1) */
          if (k & 1 && a == 50)
            g_assert_cmpint (ABS ((int) b - 50), <=, 1);
        }
      fit = nb_map_fit (back, NULL, &error);
      g_assert_no_error (error);
      nb_assert_abs (corner_error (fit, (const double (*)[2]) corners), 0, 50.0, "corners");
      g_assert_cmpuint (fit->defects->len, ==, 0);
      nb_test_remove_tree (dir);
    }
}

static void
expect_bad (const char *dir, const char *yaml_text, const char *image_name, const char *image,
            gssize image_len, const char *message)
{
  g_autofree char *yaml = write_text (dir, "bad.yaml", yaml_text, -1);
  g_autofree char *img = image ? write_text (dir, image_name, image, image_len) : NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (NbMap) map = nb_map_read (yaml, &error);

  g_assert_null (map);
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  if (strstr (error->message, message) == NULL)
    g_error ("'%s' does not say '%s'", error->message, message);
  if (img != NULL)
    g_assert_cmpint (g_unlink (img), ==, 0);
}

/* Nesting took time n² (a 400 KB map description: 97 s): refused at
 * NB_YAML_MAX_DEPTH, in linear time. */
static void
test_deep_yaml (void)
{
  g_autofree char *dir = tmp_dir ();
  GString *flow = g_string_new ("image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nx: ");
  GString *block = g_string_new ("image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n");
  g_autofree char *flow_text = NULL, *block_text = NULL;
  gint64 t0 = g_get_monotonic_time ();

  for (int i = 0; i < 400000; i++)
    g_string_append_c (flow, '[');
  flow_text = g_string_free (flow, FALSE);
  expect_bad (dir, flow_text, NULL, NULL, 0, "bad.yaml:4: nested deeper than 64 levels");
  for (int i = 0; i < 65; i++)
    g_string_append_printf (block, "%*sk%d:\n", i, "", i);
  g_string_append_printf (block, "%*sleaf: 1\n", 65, "");
  block_text = g_string_free (block, FALSE);
  expect_bad (dir, block_text, NULL, NULL, 0, "nested deeper than 64 levels");
  /* Both in well under a second (was 97 s for the first). */
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 2000000);
}

static void
test_bad_files (void)
{
  g_autofree char *dir = tmp_dir ();
  const char *ok_pgm = "P5 2 2 255\n\x00\x00\xfe\xfe";

  expect_bad (dir, "image: none.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n", NULL, NULL, 0,
              "none.pgm: cannot read the map image");
  expect_bad (dir, "image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n", "m.pgm",
              "P5\n2\n", -1, "m.pgm: bad PGM header");
  expect_bad (dir, "image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n", "m.pgm",
              "P5 3 2 255\n\x01\x02\x03\x04", 15, "m.pgm: the image data ends after 4 of 3 × 2");
  expect_bad (dir, "image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n", "m.pgm",
              "P2 2 2 255\n1 2 3\n", -1, "m.pgm: pixel 3 of 2 × 2: the image data ends");
  expect_bad (dir, "image: m.png\nresolution: 0.05\norigin: [0, 0, 0]\n", "m.png",
              "\x89PNG\r\n\x1a\nnot really", 18, "m.png: not a readable PNG");
  /* A PNG that declares 46 341 × 46 341 pixels: refused from its header,
   * naming the file, before the decoder allocates (it asked for 2 GB). */
  expect_bad (dir, "image: m.png\nresolution: 0.05\norigin: [0, 0, 0]\n", "m.png",
              "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\xb5\x05\x00\x00\xb5\x05"
              "\x08\x00\x00\x00\x00\x00\x00\x00\x00", 33,
              "m.png: the PNG declares 46341 × 46341 pixels; a map image has at most 67108864");
  expect_bad (dir, "image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n", "m.pgm",
              "P5 8193 8193 255\n", -1, "m.pgm: bad PGM header: 8193 × 8193 pixels");
  expect_bad (dir, "image: m.gif\nresolution: 0.05\norigin: [0, 0, 0]\n", "m.gif",
              "GIF89a", -1, "not a PGM (P5, P2) or PNG image");
  expect_bad (dir, "image: m.pgm\n\nresolution: 0\norigin: [0, 0, 0]\n", "m.pgm", ok_pgm, 15,
              "bad.yaml:3: resolution: 0 m per cell is absurd");
  expect_bad (dir, "image: m.pgm\nresolution: -0.05\norigin: [0, 0, 0]\n", "m.pgm", ok_pgm, 15,
              "resolution: -0.05 m per cell is absurd");
  expect_bad (dir, "image: m.pgm\nresolution: 50\norigin: [0, 0, 0]\n", "m.pgm", ok_pgm, 15,
              "resolution: 50 m per cell is absurd");
  expect_bad (dir, "image: m.pgm\nresolution: .nan\norigin: [0, 0, 0]\n", "m.pgm", ok_pgm, 15,
              "bad.yaml:2: resolution: '.nan' is not a finite number");
  expect_bad (dir, "image: m.pgm\norigin: [0, 0, 0]\n", "m.pgm", ok_pgm, 15,
              "bad.yaml: the key 'resolution' is missing");
  expect_bad (dir, "resolution: 0.05\norigin: [0, 0, 0]\n", NULL, NULL, 0,
              "bad.yaml: the key 'image' is missing");
  expect_bad (dir, "image: m.pgm\nresolution: 0.05\norigin: [0, 0]\n", "m.pgm", ok_pgm, 15,
              "bad.yaml:3: origin: expected [x, y, yaw]");
  expect_bad (dir, "image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nmode: fancy\n", "m.pgm",
              ok_pgm, 15, "bad.yaml:4: mode: 'fancy' is not trinary, scale or raw");
  expect_bad (dir, "image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nfree_thresh: 0.9\n",
              "m.pgm", ok_pgm, 15, "need 0 ≤ free_thresh < occupied_thresh ≤ 1");
  expect_bad (dir, "image: [m.pgm\n", NULL, NULL, 0, "bad.yaml:2: not YAML");
  expect_bad (dir, "- just\n- a list\n", NULL, NULL, 0, "not a map description");
  nb_test_remove_tree (dir);
}

/* No arena in the map: an error, not a guess. */
static void
test_no_arena (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbMap) map = nb_map_new (100, 100, 50, &error);
  g_autoptr (NbMapFit) fit = NULL;

  memset (map->cells, 0, 100 * 100);
  /* one straight wall only */
  for (int c = 10; c < 90; c++)
    map->cells[50 * 100 + c] = 100;
  fit = nb_map_fit (map, NULL, &error);
  g_assert_null (fit);
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "no arena outline"));
}

/* The analysis campaign import uses: read, fit, number to the truth, Dm. */
static void
test_analyse (void)
{
  g_autofree char *dir = tmp_dir ();
  g_autofree char *yaml = g_build_filename (dir, "an.yaml", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbMap) map = NULL;
  g_autoptr (NbMapAnalysis) a = NULL;
  NbMapGenOptions o;
  double corners[4][2], truth[4][2], shuffled[4][2];

  nb_map_gen_options_init (&o);
  o.p0_x_lu = 3; o.p0_y_lu = 1; o.p0_theta_deg = 90;
  o.scale = 0.98;
  o.rotation_deg = -2;
  map = nb_map_generate (&o, corners, &error);
  g_assert_no_error (error);
  g_assert_true (nb_map_write (map, dir, "an", NB_MAP_IMAGE_PNG, &error));
  g_assert_true (nb_arena_corners (o.lu_mm, o.p0_x_lu, o.p0_y_lu, o.p0_theta_deg, truth, &error));
  /* P0 at (3, 1) heading +y: A_1 = (0, 0) is 1 LU behind-right… in P0's frame (−500, 1500) */
  nb_assert_abs (truth[0][0], -500, 1e-9, "A_1 x in P0's frame");
  nb_assert_abs (truth[0][1], 1500, 1e-9, "A_1 y in P0's frame");
  /* a surveyed truth numbered clockwise from another corner */
  for (int k = 0; k < 4; k++)
    {
      shuffled[k][0] = truth[(6 - k) % 4][0];
      shuffled[k][1] = truth[(6 - k) % 4][1];
    }
  a = nb_map_analyse (yaml, (const double (*)[2]) shuffled, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (a->has_truth);
  for (int k = 0; k < 4; k++)
    {
      nb_assert_abs (a->fit->corner_mm[k][0], corners[(6 - k) % 4][0], 50.0, "x, renumbered");
      nb_assert_abs (a->fit->corner_mm[k][1], corners[(6 - k) % 4][1], 50.0, "y, renumbered");
    }
  nb_assert_abs (a->dm_mm, nb_metrics_dm ((const double (*)[2]) truth, (const double (*)[2]) corners),
                 25.0, "Dm");
  g_assert_true (a->fit->passed);
  nb_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/map/clean", test_clean);
  g_test_add_func ("/map/distorted", test_distorted);
  g_test_add_func ("/map/rotated", test_rotated);
  g_test_add_func ("/map/shadow", test_shadow);
  g_test_add_func ("/map/open-contour", test_open_contour);
  g_test_add_func ("/map/hard-cases", test_hard_cases);
  g_test_add_func ("/map/read-rules", test_read_rules);
  g_test_add_func ("/map/read-raw", test_read_raw);
  g_test_add_func ("/map/round-trip", test_round_trip);
  g_test_add_func ("/map/bad-files", test_bad_files);
  g_test_add_func ("/map/deep-yaml", test_deep_yaml);
  g_test_add_func ("/map/no-arena", test_no_arena);
  g_test_add_func ("/map/analyse", test_analyse);
  return g_test_run ();
}
