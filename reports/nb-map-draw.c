/* nb-map-draw.c — a clause 10 map with what was found in it (see nb-map-draw.h) */
#include "nb-map-draw.h"

#include <math.h>
#include <string.h>

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

static const double (*
corners_of (const NbMapScene *s))[2]
{
  if (s->corners_mm != NULL)
    return s->corners_mm;
  return s->fit != NULL ? (const double (*)[2]) s->fit->corner_mm : NULL;
}

void
nb_map_scene_extent (const NbMapScene *s, double margin, double box[4])
{
  const double (*c)[2] = corners_of (s);
  double m;

  box[0] = box[1] = INFINITY;
  box[2] = box[3] = -INFINITY;
  for (int i = 0; i < 4; i++)
    {
      if (s->truth_mm != NULL)
        grow (box, s->truth_mm[i][0], s->truth_mm[i][1]);
      if (c != NULL)
        grow (box, c[i][0], c[i][1]);
    }
  if (s->map != NULL)
    for (int i = 0; i < 4; i++)
      {
        double x, y;

        nb_map_image_to_world (s->map, (i & 1) ? s->map->width : 0, (i & 2) ? s->map->height : 0,
                               &x, &y);
        grow (box, x, y);
      }
  if (!isfinite (box[0]))
    box[0] = box[1] = 0, box[2] = box[3] = 1000;
  m = margin * MAX (MAX (box[2] - box[0], box[3] - box[1]), 1.0);
  box[0] -= m;
  box[1] -= m;
  box[2] += m;
  box[3] += m;
}

void
nb_map_frame_fit (NbMapFrame *f, const double box[4], double x, double y, double w, double h)
{
  double bw = MAX (box[2] - box[0], 1e-9), bh = MAX (box[3] - box[1], 1e-9);

  f->scale = MIN (MAX (w, 1) / bw, MAX (h, 1) / bh);
  f->x_px = x + (w - f->scale * bw) / 2;
  f->y_px = y + (h - f->scale * bh) / 2;
  f->x_mm = box[0];
  f->y_mm = box[3];
}

void
nb_map_frame_to_px (const NbMapFrame *f, double x_mm, double y_mm, double *px, double *py)
{
  *px = f->x_px + (x_mm - f->x_mm) * f->scale;
  *py = f->y_px + (f->y_mm - y_mm) * f->scale;     /* y up */
}

void
nb_map_frame_to_mm (const NbMapFrame *f, double px, double py, double *x_mm, double *y_mm)
{
  *x_mm = f->x_mm + (px - f->x_px) / f->scale;
  *y_mm = f->y_mm - (py - f->y_px) / f->scale;
}

/* The grid as grey levels, one pixel per cell; the free space that leaked
 * out of the outline red. */
static cairo_surface_t *
grid_surface (const NbMap *map, const NbMapFit *fit)
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
  for (guint i = 0; fit != NULL && fit->leak_cells != NULL && i < fit->leak_cells->len; i++)
    {
      guint32 cell = g_array_index (fit->leak_cells, guint32, i);
      guint32 red = 0xff7060;

      if (cell < map->width * map->height)
        memcpy (data + (gsize) (cell / map->width) * stride + 4 * (cell % map->width), &red, 4);
    }
  cairo_surface_mark_dirty (s);
  return s;
}

static void
draw_grid (cairo_t *cr, const NbMapScene *s, const NbMapFrame *f)
{
  cairo_surface_t *grid = grid_surface (s->map, s->fit);
  double p[3][2];
  cairo_matrix_t m;

  /* The image's frame onto the drawing's: the map's origin, resolution and
   * yaw (nb_map_image_to_world) through three points. */
  for (int i = 0; i < 3; i++)
    {
      double x, y;

      nb_map_image_to_world (s->map, i == 1 ? 1 : 0, i == 2 ? 1 : 0, &x, &y);
      nb_map_frame_to_px (f, x, y, &p[i][0], &p[i][1]);
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
  cairo_rectangle (cr, 0, 0, s->map->width, s->map->height);
  cairo_fill (cr);
  cairo_restore (cr);
  cairo_surface_destroy (grid);
}

static void
label (cairo_t *cr, double x, double y, const char *text, double r, double g, double b)
{
  cairo_text_extents_t e;

  cairo_text_extents (cr, text, &e);
  /* A white halo keeps the text legible on any background. */
  cairo_set_source_rgba (cr, 1, 1, 1, 0.8);
  cairo_rectangle (cr, x + e.x_bearing - 1, y + e.y_bearing - 1, e.width + 2, e.height + 2);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_move_to (cr, x, y);
  cairo_show_text (cr, text);
}

/* c: the four corners (a pointer, not c[4][2]: GCC 12 under ASan reads the
 * array bound as an access size and misjudges a struct member's). */
static void
outline (cairo_t *cr, const NbMapFrame *f, const double (*c)[2])
{
  for (int i = 0; i <= 4; i++)
    {
      double x, y;

      nb_map_frame_to_px (f, c[i % 4][0], c[i % 4][1], &x, &y);
      if (i == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_stroke (cr);
}

/* 10.3: each defect over its evidence (the opening along the wall, the
 * second contour), accepted ones dashed. */
static void
draw_defects (cairo_t *cr, const NbMapFit *fit, const NbMapFrame *f)
{
  for (guint i = 0; fit->defects != NULL && i < fit->defects->len; i++)
    {
      const NbMapDefect *d = &g_array_index (fit->defects, NbMapDefect, i);
      double x0, y0, x1, y1;

      nb_map_frame_to_px (f, d->x0_mm, d->y0_mm, &x0, &y0);
      nb_map_frame_to_px (f, d->x1_mm, d->y1_mm, &x1, &y1);
      if (d->kind == NB_MAP_DEFECT_SHADOW)
        cairo_set_source_rgba (cr, NB_MAP_SHADOW_RGB, 0.9);
      else
        cairo_set_source_rgba (cr, NB_MAP_OPEN_RGB, 0.9);
      cairo_set_line_width (cr, 5.0);
      if (d->accepted)
        cairo_set_dash (cr, (double[]) { 6, 4 }, 2, 0);
      cairo_move_to (cr, x0, y0);
      cairo_line_to (cr, x1, y1);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
}

void
nb_map_scene_draw (cairo_t *cr, const NbMapScene *s, const NbMapFrame *f)
{
  const double (*c)[2] = corners_of (s);
  gboolean have_corners = c != NULL && isfinite (c[0][0]);
  double cx = 0, cy = 0, n = 0;

  cairo_save (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, s->font_px > 0 ? s->font_px : 11);
  if (s->map != NULL)
    draw_grid (cr, s, f);
  /* The labels go inward (A_i) or outward (A'_i) of the arena's centre. */
  for (int i = 0; i < 4; i++)
    {
      const double *p = s->truth_mm != NULL && isfinite (s->truth_mm[0][0]) ? s->truth_mm[i]
                        : have_corners ? c[i] : NULL;
      double x, y;

      if (p == NULL)
        continue;
      nb_map_frame_to_px (f, p[0], p[1], &x, &y);
      cx += x, cy += y, n++;
    }
  if (n > 0)
    cx /= n, cy /= n;
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  if (s->fit != NULL)
    {
      /* The fitted walls, each a little beyond its corners. */
      cairo_set_source_rgba (cr, NB_MAP_CORNER_RGB, 0.5);
      cairo_set_line_width (cr, 1.0);
      for (int k = 0; k < 4; k++)
        {
          const double *a = s->fit->corner_mm[k], *b = s->fit->corner_mm[(k + 1) % 4];
          double x0, y0, x1, y1, dx = b[0] - a[0], dy = b[1] - a[1];

          nb_map_frame_to_px (f, a[0] - 0.04 * dx, a[1] - 0.04 * dy, &x0, &y0);
          nb_map_frame_to_px (f, b[0] + 0.04 * dx, b[1] + 0.04 * dy, &x1, &y1);
          cairo_move_to (cr, x0, y0);
          cairo_line_to (cr, x1, y1);
          cairo_stroke (cr);
        }
      draw_defects (cr, s->fit, f);
    }
  /* The arena (10.2): A_1..A_4 and its walls. */
  if (s->truth_mm != NULL && isfinite (s->truth_mm[0][0]))
    {
      cairo_set_source_rgb (cr, NB_MAP_TRUTH_RGB);
      cairo_set_line_width (cr, 1.5);
      cairo_set_dash (cr, (double[]) { 5, 3 }, 2, 0);
      outline (cr, f, s->truth_mm);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  /* The map's outline A'_1..A'_4, as stored. */
  if (have_corners)
    {
      cairo_set_source_rgb (cr, NB_MAP_CORNER_RGB);
      cairo_set_line_width (cr, 2.0);
      outline (cr, f, c);
    }
  for (int i = 0; i < 4; i++)
    {
      double tx = 0, ty = 0, mx, my, ox, oy, len;
      char text[16];
      gboolean truth = s->truth_mm != NULL && isfinite (s->truth_mm[i][0]);

      if (truth)
        {
          nb_map_frame_to_px (f, s->truth_mm[i][0], s->truth_mm[i][1], &tx, &ty);
          /* A_i: a cross, its label inward. */
          cairo_set_source_rgb (cr, NB_MAP_TRUTH_RGB);
          cairo_set_line_width (cr, 2.0);
          cairo_move_to (cr, tx - 5, ty - 5); cairo_line_to (cr, tx + 5, ty + 5);
          cairo_move_to (cr, tx - 5, ty + 5); cairo_line_to (cr, tx + 5, ty - 5);
          cairo_stroke (cr);
          ox = cx - tx; oy = cy - ty; len = MAX (hypot (ox, oy), 1);
          g_snprintf (text, sizeof text, "A%d", i + 1);
          label (cr, tx + ox / len * 18 - 7, ty + oy / len * 18 + 4, text, NB_MAP_TRUTH_RGB);
        }
      if (!have_corners)
        continue;
      nb_map_frame_to_px (f, c[i][0], c[i][1], &mx, &my);
      if (truth)
        {
          /* The corner's offset, A_i → A'_i (what Dm is the largest of). */
          cairo_set_source_rgb (cr, 0.8, 0.1, 0.1);
          cairo_set_line_width (cr, 1.0);
          cairo_move_to (cr, tx, ty);
          cairo_line_to (cr, mx, my);
          cairo_stroke (cr);
        }
      cairo_set_source_rgb (cr, NB_MAP_CORNER_RGB);
      cairo_set_line_width (cr, 2.0);
      cairo_new_path (cr);
      cairo_arc (cr, mx, my, NB_MAP_CORNER_RADIUS_PX, 0, 2 * G_PI);
      cairo_stroke (cr);
      /* The fitted corner's 3σ, when it shows. */
      if (s->fit != NULL && isfinite (s->fit->corner_sigma_mm[i]))
        {
          double fx, fy, r = 3 * s->fit->corner_sigma_mm[i] * f->scale;

          nb_map_frame_to_px (f, s->fit->corner_mm[i][0], s->fit->corner_mm[i][1], &fx, &fy);
          if (r > NB_MAP_CORNER_RADIUS_PX + 1)
            {
              cairo_set_line_width (cr, 1.0);
              cairo_new_path (cr);
              cairo_arc (cr, fx, fy, r, 0, 2 * G_PI);
              cairo_stroke (cr);
            }
          /* A corner corrected by hand: where the fit found it, hollow. */
          if (hypot (fx - mx, fy - my) > 2)
            {
              cairo_set_source_rgba (cr, NB_MAP_CORNER_RGB, 0.45);
              cairo_set_line_width (cr, 1.0);
              cairo_new_path (cr);
              cairo_arc (cr, fx, fy, NB_MAP_CORNER_RADIUS_PX - 1, 0, 2 * G_PI);
              cairo_stroke (cr);
            }
        }
      ox = cx - mx; oy = cy - my; len = MAX (hypot (ox, oy), 1);
      g_snprintf (text, sizeof text, "A′%d", i + 1);
      label (cr, mx - ox / len * 16 - 8, my - oy / len * 16 + 4, text, NB_MAP_CORNER_RGB);
    }
  cairo_restore (cr);
}
