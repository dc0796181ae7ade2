/* nb-run-plot.h — the Trials page's live plot, drawn with reports/nb-plot
 *
 * Clause 5: the attained positions about the command position, to scale,
 * with the barycentre and the circle of radius Rp (as the protocol's
 * figure).  Clause 8: d_i per trial with the mean and ±d.  Clause 6: each
 * placement about the robot, to scale (its line of sight along +x): where
 * the robot measured the obstacle when it detected it, the declared range
 * when it missed it.  Clauses 7 and 9: the travel / passage time of each
 * trial that reached PG, by trial, with T0 and T1 (7) or the mean passage
 * time (9) once the store gives them.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "nb-campaign-results.h"
#include "nb-clause.h"

G_BEGIN_DECLS

typedef struct {
  guint clause;                 /* 5 to 9; 0: nothing yet */
  GArray *x, *y;                /* clause 5: attained − command (mm); clause 8: trial, d_i;
                                 * 6: placement (mm); 7, 9: trial, time (s) */
  GArray *series;               /* of guint, per point: NB_RUN_PLOT_SERIES_* */
  gboolean have_figures;
  NbPoseResult pose;            /* clause 5, of the configuration so far */
  NbPathResult path;            /* clause 8 */
  NbAvoidanceResult avoidance;  /* clause 7 */
  NbPassageResult passage;      /* clause 9 */
  double command_x_mm, command_y_mm;
  /* What the last drawing can give the next (its axes, the points'
   * stamps): the drawing's own, not a figure. */
  struct NbRunPlotCache *cache;
} NbRunPlot;

void nb_run_plot_init  (NbRunPlot *plot);
void nb_run_plot_clear (NbRunPlot *plot);
void nb_run_plot_reset (NbRunPlot *plot, guint clause);
void nb_run_plot_add   (NbRunPlot *plot, double x, double y);
/* The point's series: 6: detected / missed; 7: baseline / with obstacle. */
enum { NB_RUN_PLOT_SERIES_MAIN, NB_RUN_PLOT_SERIES_OTHER };
void nb_run_plot_add_to (NbRunPlot *plot, double x, double y, guint series);
/* A configuration's stored trials (of NbCampaignTrial, store order) as the
 * plot shows the ones a run adds, by how the clause runs (nb-clause.h);
 * r: the configuration's figures (clause 8's d_i), or NULL. */
void nb_run_plot_add_trials (NbRunPlot *plot, const NbClause *clause, GArray *trials,
                             const NbConfigResult *r);
/* The plot, width × height in cr's units.  What does not change from one
 * frame to the next is kept (in plot->cache): the axes and grid as a
 * picture, while the size and the data range stay, and each series' dots
 * as a mask, onto which only the points added since are stamped (the
 * 100 000 of the bench, one more every 10 ms: a frame costs the new ones).
 * The picture is the same as drawn anew (tests/test-run-track.c,
 * /run-plot/cached). */
void nb_run_plot_draw  (const NbRunPlot *plot, cairo_t *cr, double width, double height);
/* The live track of the trial in flight: the instrument's samples (mm, its
 * frame) as a line to scale, the current position (the last) marked.
 *
 * Drawn incrementally: the line drawn so far is kept as a picture (a layer
 * of device pixels) and each frame strokes only the samples that came since
 * onto it, so a frame costs the new samples, not the 100 000 on screen
 * (tests/bench/bench-gui-plot.c).  The picture is a function of the samples
 * and the size alone, not of when the frames came: the line is stroked in
 * pieces of NB_RUN_TRACK_PIECE vertices, the same pieces whether drawn at
 * once or over many frames (tests/test-run-track.c compares the two pixel
 * for pixel).  The view (a square about the track, to scale) is refitted,
 * and the picture redrawn whole, when a sample leaves it or the size
 * changes.  Samples are only appended: a track whose first or last drawn
 * sample changed, or that got shorter, is drawn anew. */
#define NB_RUN_TRACK_PIECE 256
typedef struct NbRunTrack NbRunTrack;

NbRunTrack *nb_run_track_new   (void);
void        nb_run_track_free  (NbRunTrack *track);
/* Forget the picture: the next drawing is done whole. */
void        nb_run_track_reset (NbRunTrack *track);
/* scale: the device pixels per unit of cr (gtk_widget_get_scale_factor). */
void        nb_run_track_draw  (NbRunTrack *track, const double *x_mm, const double *y_mm,
                                guint n, cairo_t *cr, double width, double height, int scale);
/* Where the last drawing put the point (x_mm, y_mm), in cr's units; FALSE
 * before any drawing. */
gboolean    nb_run_track_to_pixel (const NbRunTrack *track, double x_mm, double y_mm,
                                   double *px, double *py);
/* Whole redraws so far (refits of the view, size changes, resets). */
guint       nb_run_track_get_redraws (const NbRunTrack *track);

G_END_DECLS
