#include "nb-map-plot.h"
#include "nb-error.h"
#include "nb-map-draw.h"

#include <cairo.h>
#include <math.h>
#include <string.h>

#define TARGET_PX 1000.0        /* the longer side of the map in the picture */
#define PAD 20.0
#define HEADER 56.0
#define FOOTER 56.0

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
  NbMapScene scene = { .map = map, .fit = fit, .truth_mm = truth_mm, .font_px = 15 };
  NbMapFrame frame;
  double w, h, cx = 0, cy = 0, scale, box[4];
  cairo_surface_t *out;
  cairo_t *cr;
  cairo_status_t status;
  char text[256];

  /* The map's image whole, its longer side TARGET_PX (the frame's box is
   * the image's corners in the map frame). */
  scale = TARGET_PX / MAX (map->width, map->height);
  w = map->width * scale + 2 * PAD;
  h = map->height * scale + HEADER + FOOTER;
  box[0] = box[1] = INFINITY;
  box[2] = box[3] = -INFINITY;
  for (int i = 0; i < 4; i++)
    {
      double x, y;

      nb_map_image_to_world (map, (i & 1) ? map->width : 0, (i & 2) ? map->height : 0, &x, &y);
      box[0] = MIN (box[0], x), box[1] = MIN (box[1], y);
      box[2] = MAX (box[2], x), box[3] = MAX (box[3], y);
    }
  nb_map_frame_fit (&frame, box, PAD, HEADER, map->width * scale, map->height * scale);
  out = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) ceil (MAX (w, 520)), (int) ceil (h));
  cr = cairo_create (out);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  /* The map, its corners, the arena and the defects: the window's drawing. */
  nb_map_scene_draw (cr, &scene, &frame);
  cairo_select_font_face (cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

  if (fit != NULL)
    {
      for (int k = 0; k < 4; k++)
        {
          double x, y;

          nb_map_frame_to_px (&frame, fit->corner_mm[k][0], fit->corner_mm[k][1], &x, &y);
          cx += x / 4;
          cy += y / 4;
        }
      /* What each defect is, beside it (the CLI's figure, in English). */
      cairo_set_font_size (cr, 13);
      for (guint i = 0; i < fit->defects->len; i++)
        {
          const NbMapDefect *d = &g_array_index (fit->defects, NbMapDefect, i);
          gboolean shadow = d->kind == NB_MAP_DEFECT_SHADOW;
          double x0, y0, x1, y1, lx, ly, len;

          nb_map_frame_to_px (&frame, d->x0_mm, d->y0_mm, &x0, &y0);
          nb_map_frame_to_px (&frame, d->x1_mm, d->y1_mm, &x1, &y1);
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
    double px = bar / map->resolution_mm * scale, y = h - 30;

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
