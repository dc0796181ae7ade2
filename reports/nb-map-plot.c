#include "nb-map-plot.h"
#include "nb-error.h"

#include <cairo.h>
#include <math.h>
#include <string.h>

#define TARGET_PX 1000.0        /* the longer side of the map in the picture */
#define PAD 20.0
#define HEADER 56.0
#define FOOTER 56.0

typedef struct {
  const NbMap *map;
  double scale;                 /* pixels per cell */
} View;

static void
to_px (const View *v, double x_mm, double y_mm, double *px, double *py)
{
  double col, row;

  nb_map_world_to_image (v->map, x_mm, y_mm, &col, &row);
  *px = PAD + col * v->scale;
  *py = HEADER + row * v->scale;
}

/* The map as an image, with the free space that leaked out in red. */
static cairo_surface_t *
grid_surface (const NbMap *map, const NbMapFit *fit)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) map->width,
                                                   (int) map->height);
  guint8 *data;
  int stride;

  if (cairo_surface_status (s) != CAIRO_STATUS_SUCCESS)
    return s;
  data = cairo_image_surface_get_data (s);
  stride = cairo_image_surface_get_stride (s);
  for (guint r = 0; r < map->height; r++)
    for (guint c = 0; c < map->width; c++)
      {
        guint8 v = map->cells[(gsize) r * map->width + c];
        guint32 g;

        if (nb_map_value_occupied (map, v))
          g = 0x20;
        else if (nb_map_value_free (map, v))
          g = 0xff;
        else if (v == NB_MAP_UNKNOWN)
          g = 0xc8;
        else
          g = (guint32) (0xe0 - v);       /* a scale map's intermediate values */
        g = g << 16 | g << 8 | g;
        memcpy (data + (gsize) r * stride + 4 * c, &g, 4);
      }
  for (guint i = 0; fit != NULL && i < fit->leak_cells->len; i++)
    {
      guint32 cell = g_array_index (fit->leak_cells, guint32, i);
      guint32 red = 0xff7060;

      memcpy (data + (gsize) (cell / map->width) * stride + 4 * (cell % map->width), &red, 4);
    }
  cairo_surface_mark_dirty (s);
  return s;
}

static void
label (cairo_t *cr, double x, double y, const char *text, double r, double g, double b)
{
  cairo_text_extents_t e;

  cairo_text_extents (cr, text, &e);
  /* a white halo keeps the text legible on any background */
  cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
  cairo_rectangle (cr, x + e.x_bearing - 2, y + e.y_bearing - 2, e.width + 4, e.height + 4);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_move_to (cr, x, y);
  cairo_show_text (cr, text);
}

/* A length of 1, 2 or 5 × 10^k mm near a fifth of the picture. */
static double
nice_length (double mm)
{
  double p = pow (10, floor (log10 (mm))), m = mm / p;

  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

gboolean
nb_map_plot_png (const NbMap *map, const NbMapFit *fit, const double (*truth_mm)[2],
                 double dm_mm, const char *path, GError **error)
{
  View v = { .map = map };
  double w, h, cx = 0, cy = 0;
  cairo_surface_t *grid, *out;
  cairo_t *cr;
  cairo_status_t status;
  char text[256];

  v.scale = TARGET_PX / MAX (map->width, map->height);
  w = map->width * v.scale + 2 * PAD;
  h = map->height * v.scale + HEADER + FOOTER;
  out = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) ceil (MAX (w, 520)), (int) ceil (h));
  cr = cairo_create (out);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

  /* the grid */
  grid = grid_surface (map, fit);
  cairo_save (cr);
  cairo_translate (cr, PAD, HEADER);
  cairo_scale (cr, v.scale, v.scale);
  cairo_set_source_surface (cr, grid, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr),
                            v.scale >= 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_surface_destroy (grid);

  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  if (fit != NULL)
    {
      /* walls: each a little beyond its corners */
      cairo_set_source_rgba (cr, 0.1, 0.35, 0.9, 0.85);
      cairo_set_line_width (cr, 2.0);
      for (int k = 0; k < 4; k++)
        {
          const double *a = fit->corner_mm[k], *b = fit->corner_mm[(k + 1) % 4];
          double x0, y0, x1, y1, dx = b[0] - a[0], dy = b[1] - a[1];

          to_px (&v, a[0] - 0.04 * dx, a[1] - 0.04 * dy, &x0, &y0);
          to_px (&v, b[0] + 0.04 * dx, b[1] + 0.04 * dy, &x1, &y1);
          cairo_move_to (cr, x0, y0);
          cairo_line_to (cr, x1, y1);
          cairo_stroke (cr);
        }
      for (int k = 0; k < 4; k++)
        {
          double x, y;

          to_px (&v, fit->corner_mm[k][0], fit->corner_mm[k][1], &x, &y);
          cx += x / 4;
          cy += y / 4;
        }
      /* defects */
      cairo_set_font_size (cr, 13);
      for (guint i = 0; i < fit->defects->len; i++)
        {
          const NbMapDefect *d = &g_array_index (fit->defects, NbMapDefect, i);
          gboolean shadow = d->kind == NB_MAP_DEFECT_SHADOW;
          double x0, y0, x1, y1, lx, ly, len;

          to_px (&v, d->x0_mm, d->y0_mm, &x0, &y0);
          to_px (&v, d->x1_mm, d->y1_mm, &x1, &y1);
          if (shadow)
            cairo_set_source_rgba (cr, 1.0, 0.55, 0.0, 0.9);
          else
            cairo_set_source_rgba (cr, 0.85, 0.0, 0.0, 0.9);
          cairo_set_line_width (cr, 6.0);
          cairo_move_to (cr, x0, y0);
          cairo_line_to (cr, x1, y1);
          cairo_stroke (cr);
          if (shadow)
            g_snprintf (text, sizeof text, "shadow of wall %u: %.0f mm %s, %.0f mm long%s",
                        d->wall + 1, fabs (d->offset_mm), d->offset_mm > 0 ? "inside" : "outside",
                        d->length_mm, d->accepted ? " (accepted)" : "");
          else
            g_snprintf (text, sizeof text, "open contour, wall %u: %.0f mm%s", d->wall + 1,
                        d->length_mm, d->accepted ? " (accepted)" : "");
          /* the label towards the arena's centre from the evidence */
          lx = (x0 + x1) / 2;
          ly = (y0 + y1) / 2;
          len = hypot (cx - lx, cy - ly);
          if (len > 0)
            {
              lx += (cx - lx) / len * 40 - 60;
              ly += (cy - ly) / len * 40;
            }
          label (cr, lx, ly, text, shadow ? 0.7 : 0.75, shadow ? 0.35 : 0.0, 0.0);
        }
      /* corners */
      cairo_set_font_size (cr, 15);
      for (int k = 0; k < 4; k++)
        {
          double x, y, r = MAX (5.0, 3 * fit->corner_sigma_mm[k] / map->resolution_mm * v.scale);
          double ox, oy, len;

          to_px (&v, fit->corner_mm[k][0], fit->corner_mm[k][1], &x, &y);
          cairo_set_source_rgb (cr, 0.1, 0.35, 0.9);
          cairo_set_line_width (cr, 2.0);
          cairo_new_path (cr);          /* no line from the last label to the circle */
          cairo_arc (cr, x, y, r, 0, 2 * G_PI);
          cairo_stroke (cr);
          g_snprintf (text, sizeof text, "A'%d", k + 1);
          /* outward from the centre, so the label sits outside the arena */
          ox = x - cx; oy = y - cy; len = MAX (hypot (ox, oy), 1);
          label (cr, x + ox / len * 18 - 12, y + oy / len * 18 + 5, text, 0.1, 0.3, 0.8);
        }
    }
  if (truth_mm != NULL)
    {
      cairo_set_font_size (cr, 13);
      for (int k = 0; k < 4; k++)
        {
          double x, y;

          to_px (&v, truth_mm[k][0], truth_mm[k][1], &x, &y);
          cairo_set_source_rgb (cr, 0.0, 0.6, 0.1);
          cairo_set_line_width (cr, 2.0);
          cairo_move_to (cr, x - 6, y - 6); cairo_line_to (cr, x + 6, y + 6);
          cairo_move_to (cr, x - 6, y + 6); cairo_line_to (cr, x + 6, y - 6);
          cairo_stroke (cr);
          g_snprintf (text, sizeof text, "A%d", k + 1);
          if (fit != NULL)
            {
              /* towards the arena's centre: the map's A'_k sits outside */
              double ox = cx - x, oy = cy - y, len = MAX (hypot (ox, oy), 1);

              label (cr, x + ox / len * 24 - 8, y + oy / len * 24 + 5, text, 0.0, 0.5, 0.1);
            }
          else
            label (cr, x + 8, y - 8, text, 0.0, 0.5, 0.1);
        }
    }

  /* caption */
  cairo_set_font_size (cr, 15);
  g_snprintf (text, sizeof text, "Map %u × %u cells, %.4g mm/cell%s", map->width, map->height,
              map->resolution_mm,
              fit == NULL ? "" : fit->passed ? " — no defect beyond the accepted range"
                                             : " — FAILS: defects beyond the accepted range");
  label (cr, PAD, 22, text, fit != NULL && !fit->passed ? 0.75 : 0.1, 0.1, 0.1);
  if (fit != NULL)
    {
      double rms = 0;

      for (int k = 0; k < 4; k++)
        rms = MAX (rms, fit->walls[k].residual_mm);
      if (isfinite (dm_mm))
        g_snprintf (text, sizeof text, "Dm = %.1f mm   side %.0f × %.0f mm   wall RMS ≤ %.1f mm",
                    dm_mm, fit->side_mm[0], fit->side_mm[1], rms);
      else
        g_snprintf (text, sizeof text, "side %.0f × %.0f mm   wall RMS ≤ %.1f mm",
                    fit->side_mm[0], fit->side_mm[1], rms);
      cairo_set_font_size (cr, 13);
      label (cr, PAD, 44, text, 0.1, 0.1, 0.1);
    }

  /* scale bar in mm */
  {
    double bar = nice_length (0.2 * map->width * map->resolution_mm);
    double px = bar / map->resolution_mm * v.scale, y = h - 30;

    cairo_set_source_rgb (cr, 0, 0, 0);
    cairo_set_line_width (cr, 3.0);
    cairo_move_to (cr, PAD, y);
    cairo_line_to (cr, PAD + px, y);
    cairo_move_to (cr, PAD, y - 6); cairo_line_to (cr, PAD, y + 6);
    cairo_move_to (cr, PAD + px, y - 6); cairo_line_to (cr, PAD + px, y + 6);
    cairo_stroke (cr);
    cairo_set_font_size (cr, 13);
    g_snprintf (text, sizeof text, "%.0f mm", bar);
    label (cr, PAD + px + 10, y + 5, text, 0, 0, 0);
    cairo_set_font_size (cr, 12);
    label (cr, PAD + px + 90, y + 5, "blue: fitted walls, corners A' (circle: 3σ)", 0.1, 0.3, 0.8);
    if (truth_mm != NULL)
      label (cr, PAD + px + 365, y + 5, "green ×: truth A", 0.0, 0.5, 0.1);
    label (cr, PAD + px + 90, y + 21, "red: open contour, free space outside", 0.75, 0.0, 0.0);
    label (cr, PAD + px + 365, y + 21, "orange: shadow", 0.7, 0.35, 0.0);
  }

  cairo_destroy (cr);
  status = cairo_surface_status (out);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_write_to_png (out, path);
  cairo_surface_destroy (out);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: cannot write the PNG: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
