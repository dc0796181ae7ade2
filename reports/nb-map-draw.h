/* nb-map-draw.h — a clause 10 map drawn with what was found in it: the one
 * drawing of the map figure (nb-map-plot.h's PNG) and of the window's maps
 * (app/gui/nb-map-view.h)
 *
 * To scale in the map's frame (P0's, as the arena's truth; y up): the
 * occupancy grid (free white, occupied dark, unknown grey; with a fit, the
 * free cells reached from inside outside the outline red), the arena's
 * A_1..A_4 (green crosses, the outline dashed), the fitted walls (blue),
 * the map's corners A'_1..A'_4 (blue circles, the stored ones — a corner
 * corrected by hand included — joined as the map's outline, with the 3σ
 * circle of each fitted corner when it is larger), each corner's offset
 * A_i → A'_i (red, what Dm is the largest of), and the defects as geometry
 * (10.3): an open contour red, a shadow orange, a thick segment over the
 * evidence, an accepted one dashed.  Words (captions, a defect's
 * description) are the caller's, in its language.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "nb-map.h"
#include "nb-map-fit.h"

G_BEGIN_DECLS

typedef struct {
  const NbMap *map;                     /* or NULL: no grid */
  const NbMapFit *fit;                  /* walls, σ, defects, leaks; or NULL */
  const double (*truth_mm)[2];          /* A_1..A_4, or NULL */
  const double (*corners_mm)[2];        /* A'_1..A'_4 as stored; NULL: the fit's */
  double font_px;                       /* the labels' size (0: 11) */
} NbMapScene;

/* Map frame → pixels: px = x_px + (x − x_mm)·scale, py = y_px + (y_mm − y)·scale. */
typedef struct {
  double scale;                         /* pixels per mm */
  double x_px, y_px, x_mm, y_mm;        /* the box's top left, in both */
} NbMapFrame;

/* The box (x0, y0, x1, y1 in mm) of what the scene shows: the arena, the
 * corners and the grid, with margin (a fraction of its larger side). */
void nb_map_scene_extent (const NbMapScene *scene, double margin, double box[4]);
/* The frame that draws box to scale, centred in (x, y)–(x + w, y + h). */
void nb_map_frame_fit    (NbMapFrame *frame, const double box[4], double x, double y, double w,
                          double h);
void nb_map_frame_to_px  (const NbMapFrame *frame, double x_mm, double y_mm, double *px,
                          double *py);
void nb_map_frame_to_mm  (const NbMapFrame *frame, double px, double py, double *x_mm,
                          double *y_mm);
void nb_map_scene_draw   (cairo_t *cr, const NbMapScene *scene, const NbMapFrame *frame);

/* The colours (tests find them on the picture). */
#define NB_MAP_TRUTH_RGB 0.0, 0.55, 0.1
#define NB_MAP_CORNER_RGB 0.1, 0.35, 0.9
#define NB_MAP_OPEN_RGB 0.85, 0.0, 0.0
#define NB_MAP_SHADOW_RGB 1.0, 0.55, 0.0
/* The radius of a corner's circle (px). */
#define NB_MAP_CORNER_RADIUS_PX 4.0

G_END_DECLS
