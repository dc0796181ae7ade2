/* nb-map-view.c — a clause 10 trial's map against the arena (see nb-map-view.h) */
#include "nb-map-view.h"

#include <math.h>
#include <string.h>

#define PAD 14.0
#define CAPTION 34.0            /* two lines under the drawing */
#define MARGIN 0.06             /* of the larger side, around what is drawn */

void
nb_map_view_clear (NbMapView *view)
{
  g_clear_pointer (&view->map, nb_map_free);
  g_clear_pointer (&view->map_file, g_free);
  g_clear_pointer (&view->map_error, g_free);
  g_clear_pointer (&view->reason, g_free);
}

static void
grow (double box[4], double x, double y)
{
  if (!isfinite (x) || !isfinite (y))
    return;
  box[0] = MIN (box[0], x);
  box[1] = MIN (box[1], y);
  box[2] = MAX (box[2], x);
  box[3] = MAX (box[3], y);
}

void
nb_map_view_extent (const NbMapView *view, double *x0_mm, double *y0_mm, double *x1_mm,
                    double *y1_mm)
{
  double box[4] = { INFINITY, INFINITY, -INFINITY, -INFINITY }, m;

  for (int i = 0; i < 4; i++)
    {
      grow (box, view->truth_mm[i][0], view->truth_mm[i][1]);
      grow (box, view->corners_mm[i][0], view->corners_mm[i][1]);
    }
  if (view->map != NULL)
    for (int i = 0; i < 4; i++)
      {
        double x, y;

        nb_map_image_to_world (view->map, (i & 1) ? view->map->width : 0,
                               (i & 2) ? view->map->height : 0, &x, &y);
        grow (box, x, y);
      }
  if (!isfinite (box[0]))
    box[0] = box[1] = 0, box[2] = box[3] = 1000;
  m = MARGIN * MAX (MAX (box[2] - box[0], box[3] - box[1]), 1.0);
  *x0_mm = box[0] - m;
  *y0_mm = box[1] - m;
  *x1_mm = box[2] + m;
  *y1_mm = box[3] + m;
}

/* Pixels per mm and the drawing's origin: to scale, centred in the box. */
static void
layout (const NbMapView *view, double width, double height, double *scale, double *ox,
        double *oy, double ext[4])
{
  double w = MAX (width - 2 * PAD, 1), h = MAX (height - 2 * PAD - CAPTION, 1);

  nb_map_view_extent (view, &ext[0], &ext[1], &ext[2], &ext[3]);
  *scale = MIN (w / (ext[2] - ext[0]), h / (ext[3] - ext[1]));
  *ox = PAD + (w - *scale * (ext[2] - ext[0])) / 2;
  *oy = PAD + (h - *scale * (ext[3] - ext[1])) / 2;
}

void
nb_map_view_to_px (const NbMapView *view, double width, double height, double x_mm,
                   double y_mm, double *px, double *py)
{
  double scale, ox, oy, ext[4];

  layout (view, width, height, &scale, &ox, &oy, ext);
  *px = ox + (x_mm - ext[0]) * scale;
  *py = oy + (ext[3] - y_mm) * scale;   /* y up */
}

/* The grid as grey levels, one pixel per cell. */
static cairo_surface_t *
grid_surface (const NbMap *map)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) map->width,
                                                   (int) map->height);
  guint8 *data;
  int stride;

  if (cairo_surface_status (s) != CAIRO_STATUS_SUCCESS)
    return s;
  cairo_surface_flush (s);
  data = cairo_image_surface_get_data (s);
  stride = cairo_image_surface_get_stride (s);
  for (guint r = 0; r < map->height; r++)
    for (guint c = 0; c < map->width; c++)
      {
        guint8 v = map->cells[(gsize) r * map->width + c];
        guint32 g = nb_map_value_occupied (map, v) ? 0x30
                    : nb_map_value_free (map, v) ? 0xff
                    : v == NB_MAP_UNKNOWN ? 0xcc : (guint32) (0xe0 - MIN (v, 0xc0));

        g = g << 16 | g << 8 | g;
        memcpy (data + (gsize) r * stride + 4 * c, &g, 4);
      }
  cairo_surface_mark_dirty (s);
  return s;
}

static void
draw_grid (const NbMapView *view, cairo_t *cr, double width, double height)
{
  cairo_surface_t *grid = grid_surface (view->map);
  double p[3][2];
  cairo_matrix_t m;

  /* The image's frame onto the drawing's: the map's origin, resolution and
   * yaw (nb_map_image_to_world) through three points. */
  for (int i = 0; i < 3; i++)
    {
      double x, y;

      nb_map_image_to_world (view->map, i == 1 ? 1 : 0, i == 2 ? 1 : 0, &x, &y);
      nb_map_view_to_px (view, width, height, x, y, &p[i][0], &p[i][1]);
    }
  cairo_matrix_init (&m, p[1][0] - p[0][0], p[1][1] - p[0][1], p[2][0] - p[0][0],
                     p[2][1] - p[0][1], p[0][0], p[0][1]);
  cairo_save (cr);
  cairo_transform (cr, &m);
  cairo_set_source_surface (cr, grid, 0, 0);
  /* Cells stay cells when magnified; smoothed when shrunk. */
  cairo_pattern_set_filter (cairo_get_source (cr),
                            fabs (p[1][0] - p[0][0]) + fabs (p[1][1] - p[0][1]) >= 1
                            ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_rectangle (cr, 0, 0, view->map->width, view->map->height);
  cairo_fill (cr);
  cairo_restore (cr);
  cairo_surface_destroy (grid);
}

static void
label (cairo_t *cr, double x, double y, const char *text, double r, double g, double b)
{
  cairo_text_extents_t e;

  cairo_text_extents (cr, text, &e);
  cairo_set_source_rgba (cr, 1, 1, 1, 0.8);
  cairo_rectangle (cr, x + e.x_bearing - 1, y + e.y_bearing - 1, e.width + 2, e.height + 2);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_move_to (cr, x, y);
  cairo_show_text (cr, text);
}

/* c: the four corners (a pointer, not c[4][2]: GCC 12 under ASan reads the
 * array bound as an access size and misjudges the struct member's). */
static void
outline (const NbMapView *view, cairo_t *cr, double width, double height,
         const double (*c)[2])
{
  for (int i = 0; i <= 4; i++)
    {
      double x, y;

      nb_map_view_to_px (view, width, height, c[i % 4][0], c[i % 4][1], &x, &y);
      if (i == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_stroke (cr);
}

void
nb_map_view_draw (const NbMapView *view, cairo_t *cr, double width, double height,
                  const char *caption)
{
  double cx = 0, cy = 0;
  gboolean have_corners = isfinite (view->corners_mm[0][0]);

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 11);
  if (view->map != NULL)
    draw_grid (view, cr, width, height);
  for (int i = 0; i < 4; i++)
    {
      double x, y;

      nb_map_view_to_px (view, width, height, view->truth_mm[i][0], view->truth_mm[i][1], &x, &y);
      cx += x / 4;
      cy += y / 4;
    }
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  /* The arena (10.2): A_1..A_4 and its walls. */
  cairo_set_source_rgb (cr, NB_MAP_VIEW_TRUTH_RGB);
  cairo_set_line_width (cr, 1.5);
  cairo_set_dash (cr, (double[]) { 5, 3 }, 2, 0);
  outline (view, cr, width, height, (const double (*)[2]) view->truth_mm);
  cairo_set_dash (cr, NULL, 0, 0);
  /* The map's outline A'_1..A'_4, as stored. */
  if (have_corners)
    {
      cairo_set_source_rgb (cr, NB_MAP_VIEW_MAP_RGB);
      cairo_set_line_width (cr, 2.0);
      outline (view, cr, width, height, (const double (*)[2]) view->corners_mm);
    }
  for (int i = 0; i < 4; i++)
    {
      double tx, ty, mx, my, ox, oy, len;
      char text[16];

      nb_map_view_to_px (view, width, height, view->truth_mm[i][0], view->truth_mm[i][1], &tx, &ty);
      /* A_i: a cross; its label inward, A'_i's outward. */
      cairo_set_source_rgb (cr, NB_MAP_VIEW_TRUTH_RGB);
      cairo_set_line_width (cr, 2.0);
      cairo_move_to (cr, tx - 5, ty - 5); cairo_line_to (cr, tx + 5, ty + 5);
      cairo_move_to (cr, tx - 5, ty + 5); cairo_line_to (cr, tx + 5, ty - 5);
      cairo_stroke (cr);
      ox = cx - tx; oy = cy - ty; len = MAX (hypot (ox, oy), 1);
      g_snprintf (text, sizeof text, "A%d", i + 1);
      label (cr, tx + ox / len * 18 - 7, ty + oy / len * 18 + 4, text, NB_MAP_VIEW_TRUTH_RGB);
      if (!have_corners)
        continue;
      nb_map_view_to_px (view, width, height, view->corners_mm[i][0], view->corners_mm[i][1],
                         &mx, &my);
      /* The corner's offset, A_i → A'_i (what Dm is the largest of). */
      cairo_set_source_rgb (cr, 0.8, 0.1, 0.1);
      cairo_set_line_width (cr, 1.0);
      cairo_move_to (cr, tx, ty);
      cairo_line_to (cr, mx, my);
      cairo_stroke (cr);
      cairo_set_source_rgb (cr, NB_MAP_VIEW_MAP_RGB);
      cairo_set_line_width (cr, 2.0);
      cairo_new_path (cr);
      cairo_arc (cr, mx, my, 4, 0, 2 * G_PI);
      cairo_stroke (cr);
      g_snprintf (text, sizeof text, "A′%d", i + 1);
      label (cr, mx - ox / len * 16 - 8, my - oy / len * 16 + 4, text, NB_MAP_VIEW_MAP_RGB);
    }
  if (view->map == NULL && view->map_error != NULL)
    label (cr, PAD, PAD + 10, view->map_error, 0.45, 0.45, 0.45);
  if (caption != NULL)
    {
      g_auto (GStrv) lines = g_strsplit (caption, "\n", 2);

      for (guint i = 0; lines[i] != NULL; i++)
        {
          cairo_text_extents_t e;
          double size = 12;

          /* A long line (a map's defects) is made smaller to fit, not cut. */
          cairo_set_font_size (cr, size);
          cairo_text_extents (cr, lines[i], &e);
          if (e.x_advance > width - 2 * PAD)
            cairo_set_font_size (cr, MAX (7.0, size * (width - 2 * PAD) / e.x_advance));
          label (cr, PAD, height - CAPTION + 14 + 15 * i, lines[i],
                 i == 1 && !view->ok ? 0.75 : 0.1, 0.1, 0.1);
        }
    }
  cairo_restore (cr);
}
