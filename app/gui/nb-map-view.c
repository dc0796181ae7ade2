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
  g_clear_pointer (&view->fit, nb_map_fit_free);
  g_clear_pointer (&view->map_file, g_free);
  g_clear_pointer (&view->map_error, g_free);
  g_clear_pointer (&view->reason, g_free);
}

static void
scene_of (const NbMapView *view, NbMapScene *scene)
{
  *scene = (NbMapScene) {
    .map = view->map, .fit = view->fit, .truth_mm = (const double (*)[2]) view->truth_mm,
    .corners_mm = (const double (*)[2]) view->corners_mm, .font_px = 11,
  };
}

void
nb_map_view_extent (const NbMapView *view, double *x0_mm, double *y0_mm, double *x1_mm,
                    double *y1_mm)
{
  NbMapScene scene;
  double box[4];

  scene_of (view, &scene);
  nb_map_scene_extent (&scene, MARGIN, box);
  *x0_mm = box[0];
  *y0_mm = box[1];
  *x1_mm = box[2];
  *y1_mm = box[3];
}

/* To scale, centred above the caption. */
void
nb_map_view_frame (const NbMapView *view, double width, double height, NbMapFrame *frame)
{
  double box[4];

  nb_map_view_extent (view, &box[0], &box[1], &box[2], &box[3]);
  nb_map_frame_fit (frame, box, PAD, PAD, MAX (width - 2 * PAD, 1),
                    MAX (height - 2 * PAD - CAPTION, 1));
}

void
nb_map_view_to_px (const NbMapView *view, double width, double height, double x_mm,
                   double y_mm, double *px, double *py)
{
  NbMapFrame frame;

  nb_map_view_frame (view, width, height, &frame);
  nb_map_frame_to_px (&frame, x_mm, y_mm, px, py);
}

void
nb_map_view_from_px (const NbMapView *view, double width, double height, double px, double py,
                     double *x_mm, double *y_mm)
{
  NbMapFrame frame;

  nb_map_view_frame (view, width, height, &frame);
  nb_map_frame_to_mm (&frame, px, py, x_mm, y_mm);
}

int
nb_map_view_corner_at (const NbMapView *view, double width, double height, double px, double py,
                       double radius_px)
{
  int best = -1;
  double best_d = radius_px;

  for (int i = 0; i < 4; i++)
    {
      double x, y, d;

      if (!isfinite (view->corners_mm[i][0]))
        continue;
      nb_map_view_to_px (view, width, height, view->corners_mm[i][0], view->corners_mm[i][1],
                         &x, &y);
      if ((d = hypot (x - px, y - py)) <= best_d)
        best = i, best_d = d;
    }
  return best;
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

void
nb_map_view_draw (const NbMapView *view, cairo_t *cr, double width, double height,
                  const char *caption)
{
  NbMapScene scene;
  NbMapFrame frame;

  scene_of (view, &scene);
  nb_map_view_frame (view, width, height, &frame);
  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  nb_map_scene_draw (cr, &scene, &frame);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 11);
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
