#include "nb-run-plot.h"

#include "nb-plot.h"

#include <glib/gi18n.h>
#include <math.h>

void
nb_run_plot_init (NbRunPlot *plot)
{
  *plot = (NbRunPlot) { 0 };
  plot->x = g_array_new (FALSE, FALSE, sizeof (double));
  plot->y = g_array_new (FALSE, FALSE, sizeof (double));
}

void
nb_run_plot_clear (NbRunPlot *plot)
{
  g_clear_pointer (&plot->x, g_array_unref);
  g_clear_pointer (&plot->y, g_array_unref);
}

void
nb_run_plot_reset (NbRunPlot *plot, guint clause)
{
  g_array_set_size (plot->x, 0);
  g_array_set_size (plot->y, 0);
  plot->clause = clause;
  plot->have_figures = FALSE;
}

void
nb_run_plot_add (NbRunPlot *plot, double x, double y)
{
  g_array_append_val (plot->x, x);
  g_array_append_val (plot->y, y);
}

static void
draw_pose (const NbRunPlot *p, cairo_t *cr, double w, double h)
{
  const double *x = (const double *) p->x->data, *y = (const double *) p->y->data;
  double extent = 1.0, bx = 0, by = 0;
  NbPlot plot;

  if (p->have_figures)
    {
      bx = p->pose.barycentre_x_mm - p->command_x_mm;
      by = p->pose.barycentre_y_mm - p->command_y_mm;
      extent = MAX (extent, p->pose.rp_mm + hypot (bx, by));
    }
  for (guint j = 0; j < p->x->len; j++)
    extent = MAX (extent, MAX (fabs (x[j]), fabs (y[j])));
  extent *= 1.15;
  nb_plot_begin (&plot, cr, 0, 0, w, h, -extent, extent, -extent, extent, TRUE,
                 _("x − x_c, mm"), _("y − y_c, mm"));
  nb_plot_points (&plot, x, y, p->x->len, 2.5, 0.12, 0.32, 0.70);
  if (p->have_figures && isfinite (p->pose.rp_mm))
    {
      nb_plot_circle (&plot, bx, by, p->pose.rp_mm, 0.10, 0.55, 0.15, TRUE);
      nb_plot_marker (&plot, bx, by, _("barycentre"), 0.10, 0.45, 0.10);
    }
  nb_plot_marker (&plot, 0, 0, _("command"), 0.75, 0.10, 0.10);
}

static void
draw_path (const NbRunPlot *p, cairo_t *cr, double w, double h)
{
  const double *x = (const double *) p->x->data, *y = (const double *) p->y->data;
  double dmax = 1e-3, band_x[2] = { 0.5, MAX (p->x->len, 1) + 0.5 }, band_y[2];
  NbPlot plot;

  for (guint j = 0; j < p->y->len; j++)
    dmax = MAX (dmax, fabs (y[j]));
  dmax *= 1.2;
  nb_plot_begin (&plot, cr, 0, 0, w, h, band_x[0], band_x[1], -dmax, dmax, FALSE, _("trial"),
                 _("d_i, mm"));
  if (p->have_figures && isfinite (p->path.mean_mm))
    {
      band_y[0] = band_y[1] = p->path.mean_mm;
      nb_plot_line (&plot, band_x, band_y, 2, 1.0, 0.10, 0.45, 0.10);
      band_y[0] = band_y[1] = p->path.max_mm;
      nb_plot_line (&plot, band_x, band_y, 2, 0.6, 0.55, 0.55, 0.55);
      band_y[0] = band_y[1] = -p->path.max_mm;
      nb_plot_line (&plot, band_x, band_y, 2, 0.6, 0.55, 0.55, 0.55);
    }
  nb_plot_points (&plot, x, y, p->x->len, 2.5, 0.12, 0.32, 0.70);
}

void
nb_run_plot_draw (const NbRunPlot *plot, cairo_t *cr, double width, double height)
{
  /* The protocol's plots are drawn on white; so is this one, in any theme. */
  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_restore (cr);
  if (plot->clause == 8)
    draw_path (plot, cr, width, height);
  else
    draw_pose (plot, cr, width, height);
}
