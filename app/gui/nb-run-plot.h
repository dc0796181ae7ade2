/* nb-run-plot.h — the Trials page's live plot, drawn with reports/nb-plot
 *
 * Clause 5: the attained positions about the command position, to scale,
 * with the barycentre and the circle of radius Rp (as the protocol's
 * figure).  Clause 8: d_i per trial with the mean and ±d.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "nb-campaign-results.h"

G_BEGIN_DECLS

typedef struct {
  guint clause;                 /* 5 or 8; 0: nothing yet */
  GArray *x, *y;                /* clause 5: attained − command (mm); clause 8: trial, d_i */
  gboolean have_figures;
  NbPoseResult pose;            /* clause 5, of the configuration so far */
  NbPathResult path;            /* clause 8 */
  double command_x_mm, command_y_mm;
} NbRunPlot;

void nb_run_plot_init  (NbRunPlot *plot);
void nb_run_plot_clear (NbRunPlot *plot);
void nb_run_plot_reset (NbRunPlot *plot, guint clause);
void nb_run_plot_add   (NbRunPlot *plot, double x, double y);
void nb_run_plot_draw  (const NbRunPlot *plot, cairo_t *cr, double width, double height);

G_END_DECLS
