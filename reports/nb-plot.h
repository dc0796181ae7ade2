/* nb-plot.h — plots for the protocol, drawn with cairo
 *
 * A plot maps data coordinates into a box with labelled axes and "nice" ticks;
 * series of any length are decimated to what the box can show (per pixel
 * column the extremes are kept), so a million points draw in milliseconds.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  cairo_t *cr;
  double x0, y0, w, h;          /* the plot area, in the cairo user space */
  double xmin, xmax, ymin, ymax;
} NbPlot;

/* Axes inside box (bx, by, bw, bh) for the data range; equal_aspect keeps
 * one unit the same length on both axes (positions to scale). */
void   nb_plot_begin   (NbPlot *p, cairo_t *cr, double bx, double by, double bw, double bh,
                        double xmin, double xmax, double ymin, double ymax,
                        gboolean equal_aspect, const char *x_label, const char *y_label);
double nb_plot_x       (const NbPlot *p, double x);
double nb_plot_y       (const NbPlot *p, double y);
void   nb_plot_points  (NbPlot *p, const double *x, const double *y, gsize n, double radius,
                        double r, double g, double b);
/* A polyline; more points than pixel columns are decimated (min/max kept). */
void   nb_plot_line    (NbPlot *p, const double *x, const double *y, gsize n, double width,
                        double r, double g, double b);
void   nb_plot_circle  (NbPlot *p, double cx, double cy, double radius, double r, double g,
                        double b, gboolean dashed);
void   nb_plot_marker  (NbPlot *p, double x, double y, const char *label, double r, double g,
                        double b);

/* Tick spacing giving about n ticks over span: 1, 2 or 5 × 10^k. */
double nb_plot_nice_step (double span, int n);

G_END_DECLS
