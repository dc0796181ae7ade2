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
  plot->series = g_array_new (FALSE, FALSE, sizeof (guint));
}

void
nb_run_plot_clear (NbRunPlot *plot)
{
  g_clear_pointer (&plot->x, g_array_unref);
  g_clear_pointer (&plot->y, g_array_unref);
  g_clear_pointer (&plot->series, g_array_unref);
}

void
nb_run_plot_reset (NbRunPlot *plot, guint clause)
{
  g_array_set_size (plot->x, 0);
  g_array_set_size (plot->y, 0);
  g_array_set_size (plot->series, 0);
  plot->clause = clause;
  plot->have_figures = FALSE;
}

void
nb_run_plot_add_to (NbRunPlot *plot, double x, double y, guint series)
{
  g_array_append_val (plot->x, x);
  g_array_append_val (plot->y, y);
  g_array_append_val (plot->series, series);
}

void
nb_run_plot_add (NbRunPlot *plot, double x, double y)
{
  nb_run_plot_add_to (plot, x, y, NB_RUN_PLOT_SERIES_MAIN);
}

void
nb_run_plot_add_trials (NbRunPlot *plot, const NbClause *clause, GArray *trials,
                        const NbConfigResult *r)
{
  guint k = 0;

  for (guint i = 0; clause != NULL && i < trials->len; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      gboolean ok = t->outcome == NB_TRIAL_OK;

      switch (clause->run)
        {
        case NB_CLAUSE_RUN_POSE:
          if (ok && isfinite (t->attained.x_mm))
            nb_run_plot_add (plot, t->attained.x_mm - t->command.x_mm,
                             t->attained.y_mm - t->command.y_mm);
          break;
        case NB_CLAUSE_RUN_PATH:
          /* d_i of the counted trials, in store order. */
          if (ok && r != NULL && r->error == NULL && r->d_mm != NULL && k < r->path.n)
            nb_run_plot_add (plot, (double) t->seq, r->d_mm[k++]);
          break;
        case NB_CLAUSE_RUN_PLACEMENTS:
          if (ok)
            {
              double a = t->angle_deg * G_PI / 180.0;
              double d = t->detected ? t->measured_mm : t->true_mm;

              nb_run_plot_add_to (plot, d * cos (a), d * sin (a),
                                  t->detected ? NB_RUN_PLOT_SERIES_MAIN : NB_RUN_PLOT_SERIES_OTHER);
            }
          break;
        case NB_CLAUSE_RUN_COURSE:
          if (isfinite (t->time_s) && t->number > 0 && t->outcome != NB_TRIAL_ABORTED &&
              t->outcome != NB_TRIAL_INCOMPLETE)
            nb_run_plot_add_to (plot, (double) t->number, t->time_s,
                                g_strcmp0 (t->kind, "obstacle") == 0 ? NB_RUN_PLOT_SERIES_OTHER
                                                                     : NB_RUN_PLOT_SERIES_MAIN);
          break;
        case NB_CLAUSE_RUN_NONE:
        default:
          break;
        }
    }
}

static NbClauseRun
plot_run (const NbRunPlot *p)
{
  const NbClause *c = nb_clause_lookup (p->clause);

  return c != NULL ? c->run : NB_CLAUSE_RUN_NONE;
}

/* The points of one series, for nb_plot_points. */
static guint
series_points (const NbRunPlot *p, guint series, double *x, double *y)
{
  guint n = 0;

  for (guint j = 0; j < p->x->len; j++)
    if (g_array_index (p->series, guint, j) == series)
      {
        x[n] = g_array_index (p->x, double, j);
        y[n] = g_array_index (p->y, double, j);
        n++;
      }
  return n;
}

/* Above this many points a plot's dots are stamped into a mask, one pass
 * over the points, instead of a path of arcs that cairo must tessellate
 * (100 000 arcs: about a second a frame; the mask: milliseconds — the live
 * plot keeps 30 frames/s, tests/bench/bench-gui-plot.c).  The look is the
 * same: dots of 2.5 px radius, overlapping ones merged. */
#define MASK_POINTS 2000

static void
plot_points (NbPlot *plot, const double *x, const double *y, gsize n, double r, double g,
             double b)
{
  int w = (int) ceil (plot->w), h = (int) ceil (plot->h), stride;
  cairo_surface_t *mask;
  unsigned char *data;
  /* A disc of radius 2.5 px on the pixel grid. */
  static const signed char disc[][2] = {
    { -1, -2 }, { 0, -2 }, { 1, -2 },
    { -2, -1 }, { -1, -1 }, { 0, -1 }, { 1, -1 }, { 2, -1 },
    { -2, 0 }, { -1, 0 }, { 0, 0 }, { 1, 0 }, { 2, 0 },
    { -2, 1 }, { -1, 1 }, { 0, 1 }, { 1, 1 }, { 2, 1 },
    { -1, 2 }, { 0, 2 }, { 1, 2 },
  };

  if (n <= MASK_POINTS || w <= 0 || h <= 0)
    {
      nb_plot_points (plot, x, y, n, 2.5, r, g, b);
      return;
    }
  mask = cairo_image_surface_create (CAIRO_FORMAT_A8, w, h);
  data = cairo_image_surface_get_data (mask);
  stride = cairo_image_surface_get_stride (mask);
  cairo_surface_flush (mask);
  for (gsize i = 0; i < n; i++)
    {
      double px = nb_plot_x (plot, x[i]) - plot->x0, py = nb_plot_y (plot, y[i]) - plot->y0;
      int cx, cy;

      if (!(px > -3 && px < w + 3 && py > -3 && py < h + 3))
        continue;
      cx = (int) lround (px);
      cy = (int) lround (py);
      for (guint k = 0; k < G_N_ELEMENTS (disc); k++)
        {
          int u = cx + disc[k][0], v = cy + disc[k][1];

          if (u >= 0 && u < w && v >= 0 && v < h)
            data[v * stride + u] = 0xd9;      /* the arcs' alpha, 0.85 */
        }
    }
  cairo_surface_mark_dirty (mask);
  cairo_save (plot->cr);
  cairo_set_source_rgb (plot->cr, r, g, b);
  cairo_mask_surface (plot->cr, mask, plot->x0, plot->y0);
  cairo_restore (plot->cr);
  cairo_surface_destroy (mask);
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
  plot_points (&plot, x, y, p->x->len, 0.12, 0.32, 0.70);
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
  plot_points (&plot, x, y, p->x->len, 0.12, 0.32, 0.70);
}

static void
draw_detection (const NbRunPlot *p, cairo_t *cr, double w, double h)
{
  g_autofree double *x = g_new (double, p->x->len + 1), *y = g_new (double, p->x->len + 1);
  double extent = 1000.0;
  guint n;
  NbPlot plot;

  for (guint j = 0; j < p->x->len; j++)
    extent = MAX (extent, MAX (fabs (g_array_index (p->x, double, j)),
                               fabs (g_array_index (p->y, double, j))));
  extent *= 1.15;
  nb_plot_begin (&plot, cr, 0, 0, w, h, -extent, extent, -extent, extent, TRUE,
                 _("along the line of sight, mm"), _("to the left, mm"));
  n = series_points (p, NB_RUN_PLOT_SERIES_MAIN, x, y);
  plot_points (&plot, x, y, n, 0.12, 0.32, 0.70);
  n = series_points (p, NB_RUN_PLOT_SERIES_OTHER, x, y);
  plot_points (&plot, x, y, n, 0.80, 0.15, 0.10);
  nb_plot_marker (&plot, 0, 0, _("robot"), 0.10, 0.45, 0.10);
}

static void
draw_times (const NbRunPlot *p, cairo_t *cr, double w, double h)
{
  g_autofree double *x = g_new (double, p->x->len + 1), *y = g_new (double, p->x->len + 1);
  double tmax = 1.0, band_x[2] = { 0.5, MAX (p->x->len, 1) + 0.5 }, band_y[2];
  const NbClause *clause = nb_clause_lookup (p->clause);
  gboolean baseline = clause != NULL && clause->baseline;
  guint n;
  NbPlot plot;

  for (guint j = 0; j < p->x->len; j++)
    {
      band_x[1] = MAX (band_x[1], g_array_index (p->x, double, j) + 0.5);
      tmax = MAX (tmax, g_array_index (p->y, double, j));
    }
  tmax *= 1.2;
  nb_plot_begin (&plot, cr, 0, 0, w, h, band_x[0], band_x[1], 0, tmax, FALSE, _("trial"),
                 baseline ? _("travel time, s") : _("passage time, s"));
  /* Clause 7: T0 of the baseline, T1 with the obstacle (7.3). */
  if (p->have_figures && baseline)
    {
      if (isfinite (p->avoidance.t0_s))
        {
          band_y[0] = band_y[1] = p->avoidance.t0_s;
          nb_plot_line (&plot, band_x, band_y, 2, 1.0, 0.12, 0.32, 0.70);
          nb_plot_marker (&plot, band_x[0], p->avoidance.t0_s, "T0", 0.12, 0.32, 0.70);
        }
      if (isfinite (p->avoidance.t1_s))
        {
          band_y[0] = band_y[1] = p->avoidance.t1_s;
          nb_plot_line (&plot, band_x, band_y, 2, 1.0, 0.85, 0.45, 0.05);
          nb_plot_marker (&plot, band_x[0], p->avoidance.t1_s, "T1", 0.85, 0.45, 0.05);
        }
    }
  else if (p->have_figures && isfinite (p->passage.mean_time_s))
    {
      band_y[0] = band_y[1] = p->passage.mean_time_s;
      nb_plot_line (&plot, band_x, band_y, 2, 1.0, 0.10, 0.45, 0.10);
    }
  n = series_points (p, NB_RUN_PLOT_SERIES_MAIN, x, y);
  plot_points (&plot, x, y, n, 0.12, 0.32, 0.70);
  n = series_points (p, NB_RUN_PLOT_SERIES_OTHER, x, y);
  plot_points (&plot, x, y, n, 0.85, 0.45, 0.05);
}

void
nb_run_plot_draw (const NbRunPlot *plot, cairo_t *cr, double width, double height)
{
  /* The protocol's plots are drawn on white; so is this one, in any theme. */
  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_restore (cr);
  /* The plot of how the clause runs (nb-clause.h). */
  switch (plot_run (plot))
    {
    case NB_CLAUSE_RUN_PATH:
      draw_path (plot, cr, width, height);
      break;
    case NB_CLAUSE_RUN_PLACEMENTS:
      draw_detection (plot, cr, width, height);
      break;
    case NB_CLAUSE_RUN_COURSE:
      draw_times (plot, cr, width, height);
      break;
    case NB_CLAUSE_RUN_POSE:
    case NB_CLAUSE_RUN_NONE:
    default:
      draw_pose (plot, cr, width, height);
      break;
    }
}

void
nb_run_track_draw (const double *x, const double *y, guint n, cairo_t *cr, double w, double h)
{
  double x0 = -500, x1 = 500, y0 = -500, y1 = 500, half;
  NbPlot plot;

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_restore (cr);
  if (n > 0)
    {
      x0 = x1 = x[0];
      y0 = y1 = y[0];
    }
  for (guint i = 1; i < n; i++)
    {
      x0 = MIN (x0, x[i]);
      x1 = MAX (x1, x[i]);
      y0 = MIN (y0, y[i]);
      y1 = MAX (y1, y[i]);
    }
  /* To scale, a square about the track with a margin (at least 1 m). */
  half = MAX (500.0, 0.575 * MAX (x1 - x0, y1 - y0));
  nb_plot_begin (&plot, cr, 0, 0, w, h, (x0 + x1) / 2 - half, (x0 + x1) / 2 + half,
                 (y0 + y1) / 2 - half, (y0 + y1) / 2 + half, TRUE, _("x, mm"), _("y, mm"));
  if (n > 1)
    {
      /* A sample less than half a pixel from the last one kept changes
       * nothing drawn: 100 000 samples of a route become a few thousand
       * vertices (cairo's stroker is linear in them). */
      double eps = 0.5 * (plot.xmax - plot.xmin) / MAX (plot.w, 1.0);
      g_autofree double *kx = g_new (double, n), *ky = g_new (double, n);
      guint m = 0;

      for (guint i = 0; i < n; i++)
        if (m == 0 || i == n - 1 || fabs (x[i] - kx[m - 1]) >= eps ||
            fabs (y[i] - ky[m - 1]) >= eps)
          kx[m] = x[i], ky[m] = y[i], m++;
      nb_plot_line (&plot, kx, ky, m, 1.5, 0.12, 0.32, 0.70);
    }
  if (n > 0)
    {
      /* The current position, and the key to it in the top left corner (a
       * label beside it would leave the plot at the route's end). */
      nb_plot_marker (&plot, x[n - 1], y[n - 1], NULL, 0.75, 0.10, 0.10);
      nb_plot_marker (&plot, (x0 + x1) / 2 - 0.85 * half, (y0 + y1) / 2 + 0.85 * half, _("now"),
                      0.75, 0.10, 0.10);
    }
}
