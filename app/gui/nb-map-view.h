/* nb-map-view.h — a clause 10 trial's map drawn against the arena, for the
 * Trials page
 *
 * What the store holds of the trial, drawn to scale in the map's frame
 * (P0's, as the arena's truth): the robot's occupancy grid read from the
 * map file the trial was recorded from (nb_map_read; free white, occupied
 * dark, unknown grey — left out when the file is gone), the arena's corners
 * A_1..A_4 and its outline (the configuration's truth_mm: the corners
 * nb_arena_corners laid out, or the survey's), the map's corners
 * A'_1..A'_4 as the store holds them (a corner corrected by hand included)
 * joined as the fitted outline, and each A'_i's offset from A_i, the
 * defects as geometry (the analysis the clause module judged the map by,
 * nb_clause_mapping_analyse: the opening of an open contour, a shadow's
 * second contour, the free space that leaked out).  The drawing is
 * reports/nb-map-draw.h's, the protocol's map figure's.  Nothing is computed
 * here: Dm is the figure the clause module gave (10.2), the verdict and the
 * defects' words the trial's outcome and reason.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "nb-map.h"
#include "nb-map-draw.h"
#include "nb-map-fit.h"

G_BEGIN_DECLS

typedef struct {
  guint number;                 /* the trial's number in its series */
  gint64 trial_id;              /* the store's id of the trial */
  NbMap *map;                   /* the grid, or NULL (the file is gone or unreadable) */
  NbMapFit *fit;                /* what the clause module found in it, or NULL */
  char *map_file;               /* as the event log names it, or NULL */
  char *map_error;              /* why the grid is not drawn, or NULL */
  double truth_mm[4][2];        /* A_1..A_4 */
  double corners_mm[4][2];      /* A'_1..A'_4, the store's */
  double dm_mm;                 /* NaN: not judged */
  gboolean ok;                  /* the map was accepted (10.3) */
  char *reason;                 /* the trial's reason (the defects), or NULL */
} NbMapView;

void nb_map_view_clear (NbMapView *view);

/* The box (mm) the drawing shows: the arena, the map's corners and the
 * grid, with a margin. */
void nb_map_view_extent (const NbMapView *view, double *x0_mm, double *y0_mm, double *x1_mm,
                         double *y1_mm);
/* Where (x_mm, y_mm) of the map frame lands in a drawing of width × height
 * (y up, to scale: one mm the same length in x and y). */
void nb_map_view_to_px  (const NbMapView *view, double width, double height, double x_mm,
                         double y_mm, double *px, double *py);
/* The drawing's frame (the map frame to its pixels) at this size. */
void nb_map_view_frame  (const NbMapView *view, double width, double height, NbMapFrame *frame);
/* The point of the map frame at (px, py) of the drawing. */
void nb_map_view_from_px (const NbMapView *view, double width, double height, double px,
                          double py, double *x_mm, double *y_mm);
/* The corner A'_i (0..3) drawn within radius_px of (px, py), the nearest;
 * -1 none. */
int  nb_map_view_corner_at (const NbMapView *view, double width, double height, double px,
                            double py, double radius_px);
/* Draws the view into (0, 0)–(width, height); caption: the words under it
 * (trial, Dm, verdict), in the window's language. */
void nb_map_view_draw   (const NbMapView *view, cairo_t *cr, double width, double height,
                         const char *caption);

/* The colours the corners are drawn in (tests find them on the picture). */
#define NB_MAP_VIEW_TRUTH_RGB NB_MAP_TRUTH_RGB
#define NB_MAP_VIEW_MAP_RGB NB_MAP_CORNER_RGB

G_END_DECLS
