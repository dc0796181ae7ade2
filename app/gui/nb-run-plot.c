#include "nb-run-plot.h"

#include "nb-plot.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* The points of a series stamped into a mask, for the plot area they were
 * stamped for. */
typedef struct {
  cairo_surface_t *mask;        /* A8, the plot area's size; NULL: none */
  NbPlot area;                  /* its geometry (x0, y0, w, h and the data range) */
  gsize stamped;                /* points [0, stamped) are in it */
  double first[2], last[2];     /* points 0 and stamped − 1, to know the same series */
} Stamps;

/* The series a plot stamps (NB_RUN_PLOT_SERIES_*). */
#define N_STAMPS 2

struct NbRunPlotCache {
  cairo_surface_t *axes;        /* white, the axes, grid and labels; NULL: none */
  double width, height, sx, sy; /* its size and device scale */
  double xmin, xmax, ymin, ymax;
  gboolean equal;
  char *x_label, *y_label;
  NbPlot plot;                  /* the geometry nb_plot_begin gave it */
  Stamps stamps[N_STAMPS];
};

static void
cache_forget (struct NbRunPlotCache *c)
{
  g_clear_pointer (&c->axes, cairo_surface_destroy);
  g_clear_pointer (&c->x_label, g_free);
  g_clear_pointer (&c->y_label, g_free);
  for (guint k = 0; k < N_STAMPS; k++)
    {
      g_clear_pointer (&c->stamps[k].mask, cairo_surface_destroy);
      c->stamps[k].stamped = 0;
    }
}

void
nb_run_plot_init (NbRunPlot *plot)
{
  *plot = (NbRunPlot) { 0 };
  plot->x = g_array_new (FALSE, FALSE, sizeof (double));
  plot->y = g_array_new (FALSE, FALSE, sizeof (double));
  plot->series = g_array_new (FALSE, FALSE, sizeof (guint));
  plot->cache = g_new0 (struct NbRunPlotCache, 1);
}

void
nb_run_plot_clear (NbRunPlot *plot)
{
  g_clear_pointer (&plot->x, g_array_unref);
  g_clear_pointer (&plot->y, g_array_unref);
  g_clear_pointer (&plot->series, g_array_unref);
  if (plot->cache != NULL)
    cache_forget (plot->cache);
  g_clear_pointer (&plot->cache, g_free);
}

void
nb_run_plot_reset (NbRunPlot *plot, guint clause)
{
  /* Another configuration: nothing of the last drawing is its. */
  if (plot->cache != NULL)
    cache_forget (plot->cache);
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

/* A disc of radius 2.5 px on the pixel grid. */
static const signed char disc[][2] = {
  { -1, -2 }, { 0, -2 }, { 1, -2 },
  { -2, -1 }, { -1, -1 }, { 0, -1 }, { 1, -1 }, { 2, -1 },
  { -2, 0 }, { -1, 0 }, { 0, 0 }, { 1, 0 }, { 2, 0 },
  { -2, 1 }, { -1, 1 }, { 0, 1 }, { 1, 1 }, { 2, 1 },
  { -1, 2 }, { 0, 2 }, { 1, 2 },
};

/* Points [from, n) into the mask of the plot area: each sets its disc's
 * pixels (to the arcs' alpha, 0.85), so a mask is the same whichever
 * points were stamped first. */
static void
stamp (const NbPlot *plot, cairo_surface_t *mask, const double *x, const double *y, gsize from,
       gsize n)
{
  int w = cairo_image_surface_get_width (mask), h = cairo_image_surface_get_height (mask);
  int stride = cairo_image_surface_get_stride (mask);
  unsigned char *data;

  cairo_surface_flush (mask);
  data = cairo_image_surface_get_data (mask);
  for (gsize i = from; i < n; i++)
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
            data[v * stride + u] = 0xd9;
        }
    }
  cairo_surface_mark_dirty (mask);
}

static gboolean
same_area (const NbPlot *a, const NbPlot *b)
{
  return a->x0 == b->x0 && a->y0 == b->y0 && a->w == b->w && a->h == b->h &&
         a->xmin == b->xmin && a->xmax == b->xmax && a->ymin == b->ymin && a->ymax == b->ymax;
}

/* Above this many points a plot's dots are stamped into a mask, one pass
 * over the points, instead of a path of arcs that cairo must tessellate
 * (100 000 arcs: about a second a frame; the mask: milliseconds).  The look
 * is the same: dots of 2.5 px radius, overlapping ones merged.  The mask is
 * kept (stamps: the series' in the plot's cache, NULL: none) and the points
 * added since the last frame are stamped onto it, while the plot area and
 * its range stay and the points before are the same (first and last
 * stamped): the live plot keeps 30 frames/s, tests/bench/bench-gui-plot.c. */
#define MASK_POINTS 2000

static void
plot_points (NbPlot *plot, Stamps *stamps, const double *x, const double *y, gsize n, double r,
             double g, double b)
{
  int w = (int) ceil (plot->w), h = (int) ceil (plot->h);
  Stamps scratch = { 0 };

  if (n <= MASK_POINTS || w <= 0 || h <= 0)
    {
      nb_plot_points (plot, x, y, n, 2.5, r, g, b);
      return;
    }
  if (stamps == NULL)
    stamps = &scratch;
  if (stamps->mask == NULL || !same_area (&stamps->area, plot) || n < stamps->stamped ||
      (stamps->stamped > 0 &&
       (memcmp (stamps->first, (double[2]) { x[0], y[0] }, sizeof stamps->first) != 0 ||
        memcmp (stamps->last, (double[2]) { x[stamps->stamped - 1], y[stamps->stamped - 1] },
                sizeof stamps->last) != 0)))
    {
      g_clear_pointer (&stamps->mask, cairo_surface_destroy);
      stamps->mask = cairo_image_surface_create (CAIRO_FORMAT_A8, w, h);
      stamps->area = *plot;
      stamps->stamped = 0;
    }
  stamp (plot, stamps->mask, x, y, stamps->stamped, n);
  stamps->stamped = n;
  stamps->first[0] = x[0], stamps->first[1] = y[0];
  stamps->last[0] = x[n - 1], stamps->last[1] = y[n - 1];
  cairo_save (plot->cr);
  cairo_set_source_rgb (plot->cr, r, g, b);
  cairo_mask_surface (plot->cr, stamps->mask, plot->x0, plot->y0);
  cairo_restore (plot->cr);
  g_clear_pointer (&scratch.mask, cairo_surface_destroy);
}

/* The series' stamps in the plot's cache (NULL without one). */
static Stamps *
stamps_of (const NbRunPlot *p, guint series)
{
  return p->cache != NULL && series < N_STAMPS ? &p->cache->stamps[series] : NULL;
}

/* nb_plot_begin on a white ground, the picture kept: drawn again only when
 * the size, the device scale, the range or the labels change. */
static void
begin (const NbRunPlot *p, NbPlot *plot, cairo_t *cr, double w, double h, double xmin,
       double xmax, double ymin, double ymax, gboolean equal, const char *x_label,
       const char *y_label)
{
  struct NbRunPlotCache *c = p->cache;
  double sx = 1, sy = 1;

  if (c == NULL)
    {
      nb_plot_begin (plot, cr, 0, 0, w, h, xmin, xmax, ymin, ymax, equal, x_label, y_label);
      return;
    }
  cairo_surface_get_device_scale (cairo_get_target (cr), &sx, &sy);
  if (c->axes == NULL || c->width != w || c->height != h || c->sx != sx || c->sy != sy ||
      c->xmin != xmin || c->xmax != xmax || c->ymin != ymin || c->ymax != ymax ||
      c->equal != equal || g_strcmp0 (c->x_label, x_label) != 0 ||
      g_strcmp0 (c->y_label, y_label) != 0)
    {
      cairo_t *acr;

      g_clear_pointer (&c->axes, cairo_surface_destroy);
      c->axes = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (w * sx),
                                            (int) ceil (h * sy));
      cairo_surface_set_device_scale (c->axes, sx, sy);
      acr = cairo_create (c->axes);
      /* The labels as they would be drawn on cr (hinting, antialiasing). */
      {
        cairo_font_options_t *options = cairo_font_options_create ();

        cairo_get_font_options (cr, options);
        cairo_set_font_options (acr, options);
        cairo_font_options_destroy (options);
      }
      cairo_set_source_rgb (acr, 1, 1, 1);
      cairo_paint (acr);
      nb_plot_begin (&c->plot, acr, 0, 0, w, h, xmin, xmax, ymin, ymax, equal, x_label, y_label);
      cairo_destroy (acr);
      cairo_surface_flush (c->axes);
      c->width = w, c->height = h, c->sx = sx, c->sy = sy;
      c->xmin = xmin, c->xmax = xmax, c->ymin = ymin, c->ymax = ymax, c->equal = equal;
      g_free (c->x_label);
      g_free (c->y_label);
      c->x_label = g_strdup (x_label);
      c->y_label = g_strdup (y_label);
    }
  cairo_save (cr);
  cairo_set_source_surface (cr, c->axes, 0, 0);
  cairo_paint (cr);
  cairo_restore (cr);
  *plot = c->plot;
  plot->cr = cr;
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
  begin (p, &plot, cr, w, h, -extent, extent, -extent, extent, TRUE, _("x − x_c, mm"),
         _("y − y_c, mm"));
  plot_points (&plot, stamps_of (p, NB_RUN_PLOT_SERIES_MAIN), x, y, p->x->len, 0.12, 0.32, 0.70);
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
  begin (p, &plot, cr, w, h, band_x[0], band_x[1], -dmax, dmax, FALSE, _("trial"), _("d_i, mm"));
  if (p->have_figures && isfinite (p->path.mean_mm))
    {
      band_y[0] = band_y[1] = p->path.mean_mm;
      nb_plot_line (&plot, band_x, band_y, 2, 1.0, 0.10, 0.45, 0.10);
      band_y[0] = band_y[1] = p->path.max_mm;
      nb_plot_line (&plot, band_x, band_y, 2, 0.6, 0.55, 0.55, 0.55);
      band_y[0] = band_y[1] = -p->path.max_mm;
      nb_plot_line (&plot, band_x, band_y, 2, 0.6, 0.55, 0.55, 0.55);
    }
  plot_points (&plot, stamps_of (p, NB_RUN_PLOT_SERIES_MAIN), x, y, p->x->len, 0.12, 0.32, 0.70);
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
  begin (p, &plot, cr, w, h, -extent, extent, -extent, extent, TRUE,
         _("along the line of sight, mm"), _("to the left, mm"));
  n = series_points (p, NB_RUN_PLOT_SERIES_MAIN, x, y);
  plot_points (&plot, stamps_of (p, NB_RUN_PLOT_SERIES_MAIN), x, y, n, 0.12, 0.32, 0.70);
  n = series_points (p, NB_RUN_PLOT_SERIES_OTHER, x, y);
  plot_points (&plot, stamps_of (p, NB_RUN_PLOT_SERIES_OTHER), x, y, n, 0.80, 0.15, 0.10);
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
  begin (p, &plot, cr, w, h, band_x[0], band_x[1], 0, tmax, FALSE, _("trial"),
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
  plot_points (&plot, stamps_of (p, NB_RUN_PLOT_SERIES_MAIN), x, y, n, 0.12, 0.32, 0.70);
  n = series_points (p, NB_RUN_PLOT_SERIES_OTHER, x, y);
  plot_points (&plot, stamps_of (p, NB_RUN_PLOT_SERIES_OTHER), x, y, n, 0.85, 0.45, 0.05);
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

/* ------------------------------------------------------- live track -- */

struct NbRunTrack {
  int width, height, scale;     /* of the picture, 0: none */
  cairo_surface_t *layer;       /* the line's stroked pieces, transparent elsewhere */
  cairo_t *lcr;
  NbPlot plot;                  /* the view as last drawn (its cr: the layer's) */
  gboolean have_view;
  double cx, cy, half;          /* the square the view was fitted to, mm */
  double bx0, bx1, by0, by1;    /* the extent of samples [0, seen) */
  guint seen;
  double first[2], last[2];     /* samples 0 and seen − 1 */
  GArray *kx, *ky;              /* the vertices kept (half a pixel apart) of samples [0, seen) */
  guint last_kept;              /* the sample the last vertex is */
  guint pieces;                 /* pieces of the line stroked onto the layer */
  guint redraws;
};

NbRunTrack *
nb_run_track_new (void)
{
  NbRunTrack *t = g_new0 (NbRunTrack, 1);

  t->kx = g_array_new (FALSE, FALSE, sizeof (double));
  t->ky = g_array_new (FALSE, FALSE, sizeof (double));
  return t;
}

void
nb_run_track_free (NbRunTrack *t)
{
  if (t == NULL)
    return;
  g_clear_pointer (&t->lcr, cairo_destroy);
  g_clear_pointer (&t->layer, cairo_surface_destroy);
  g_array_unref (t->kx);
  g_array_unref (t->ky);
  g_free (t);
}

void
nb_run_track_reset (NbRunTrack *t)
{
  t->seen = 0;
  t->have_view = FALSE;
  t->width = t->height = t->scale = 0;
}

gboolean
nb_run_track_to_pixel (const NbRunTrack *t, double x, double y, double *px, double *py)
{
  if (t->width == 0)
    return FALSE;
  *px = nb_plot_x (&t->plot, x);
  *py = nb_plot_y (&t->plot, y);
  return TRUE;
}

guint
nb_run_track_get_redraws (const NbRunTrack *t)
{
  return t->redraws;
}

/* Vertices [from, to] of the line, with round caps: two pieces meeting at
 * a vertex cover what one line's round join there would. */
static void
stroke_piece (NbPlot *plot, const double *x, const double *y, guint n)
{
  cairo_save (plot->cr);
  cairo_set_line_cap (plot->cr, CAIRO_LINE_CAP_ROUND);
  nb_plot_line (plot, x, y, n, 1.5, 0.12, 0.32, 0.70);
  cairo_restore (plot->cr);
}

void
nb_run_track_draw (NbRunTrack *t, const double *x, const double *y, guint n, cairo_t *cr,
                   double w, double h, int scale)
{
  gboolean whole = FALSE;
  double eps, *kx, *ky;
  guint tail;
  NbPlot plot;

  scale = MAX (scale, 1);
  /* Samples are appended; anything else is another track. */
  if (t->seen > 0 &&
      (n < t->seen || memcmp (t->first, (double[2]) { x[0], y[0] }, sizeof t->first) != 0 ||
       memcmp (t->last, (double[2]) { x[t->seen - 1], y[t->seen - 1] }, sizeof t->last) != 0))
    nb_run_track_reset (t);
  if (t->seen == 0)
    {
      /* No sample yet: a metre about the origin. */
      t->have_view = FALSE;
      t->cx = t->cy = 0, t->half = 500.0;
    }
  /* The view follows the samples one by one, not the frames: it is fitted
   * (to scale, a square about the track so far with a margin, at least
   * 1 m) at the first sample and again at each sample off its square, so
   * it is the same however the samples came. */
  for (guint i = t->seen; i < n; i++)
    {
      if (i == 0)
        {
          t->bx0 = t->bx1 = x[0];
          t->by0 = t->by1 = y[0];
        }
      t->bx0 = MIN (t->bx0, x[i]);
      t->bx1 = MAX (t->bx1, x[i]);
      t->by0 = MIN (t->by0, y[i]);
      t->by1 = MAX (t->by1, y[i]);
      if (!t->have_view || !(fabs (x[i] - t->cx) <= t->half && fabs (y[i] - t->cy) <= t->half))
        {
          t->cx = (t->bx0 + t->bx1) / 2;
          t->cy = (t->by0 + t->by1) / 2;
          t->half = MAX (500.0, 0.575 * MAX (t->bx1 - t->bx0, t->by1 - t->by0));
          t->have_view = TRUE;
          whole = TRUE;
        }
    }
  if (n > 0)
    {
      t->first[0] = x[0], t->first[1] = y[0];
      t->last[0] = x[n - 1], t->last[1] = y[n - 1];
    }
  t->seen = n;
  if (w != t->width || h != t->height || scale != t->scale)
    whole = TRUE;

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_restore (cr);
  nb_plot_begin (&plot, cr, 0, 0, w, h, t->cx - t->half, t->cx + t->half, t->cy - t->half,
                 t->cy + t->half, TRUE, _("x, mm"), _("y, mm"));
  if (whole)
    {
      g_clear_pointer (&t->lcr, cairo_destroy);
      g_clear_pointer (&t->layer, cairo_surface_destroy);
      t->layer = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (w * scale),
                                             (int) ceil (h * scale));
      cairo_surface_set_device_scale (t->layer, scale, scale);
      t->lcr = cairo_create (t->layer);
      t->width = (int) w, t->height = (int) h, t->scale = scale;
      g_array_set_size (t->kx, 0);
      g_array_set_size (t->ky, 0);
      t->pieces = 0;
      t->redraws++;
    }
  t->plot = plot;
  t->plot.cr = t->lcr;

  /* A sample less than half a pixel from the last vertex kept changes
   * nothing drawn: 100 000 samples of a route become a few thousand
   * vertices (cairo's stroker is linear in them). */
  eps = 0.5 * (plot.xmax - plot.xmin) / MAX (plot.w, 1.0);
  for (guint i = t->kx->len == 0 ? 0 : t->last_kept + 1; i < n; i++)
    if (t->kx->len == 0 ||
        fabs (x[i] - g_array_index (t->kx, double, t->kx->len - 1)) >= eps ||
        fabs (y[i] - g_array_index (t->ky, double, t->ky->len - 1)) >= eps)
      {
        g_array_append_val (t->kx, x[i]);
        g_array_append_val (t->ky, y[i]);
        t->last_kept = i;
      }
  /* The pieces complete since, onto the layer; each shares its first
   * vertex with the last of the one before. */
  kx = (double *) t->kx->data, ky = (double *) t->ky->data;
  for (; t->kx->len > (t->pieces + 1) * NB_RUN_TRACK_PIECE; t->pieces++)
    stroke_piece (&t->plot, kx + t->pieces * NB_RUN_TRACK_PIECE,
                  ky + t->pieces * NB_RUN_TRACK_PIECE, NB_RUN_TRACK_PIECE + 1);
  cairo_surface_flush (t->layer);
  cairo_save (cr);
  cairo_set_source_surface (cr, t->layer, 0, 0);
  cairo_paint (cr);
  cairo_restore (cr);

  /* The piece in progress, to the last sample (kept or not), on the frame. */
  tail = t->pieces * NB_RUN_TRACK_PIECE;
  if (n > 1)
    {
      guint m = t->kx->len - tail;
      g_autofree double *px = g_new (double, m + 1), *py = g_new (double, m + 1);

      memcpy (px, kx + tail, m * sizeof (double));
      memcpy (py, ky + tail, m * sizeof (double));
      if (t->last_kept != n - 1)
        px[m] = x[n - 1], py[m] = y[n - 1], m++;
      stroke_piece (&plot, px, py, m);
    }
  if (n > 0)
    {
      /* The current position, and the key to it in the top left corner (a
       * label beside it would leave the plot at the route's end). */
      nb_plot_marker (&plot, x[n - 1], y[n - 1], NULL, 0.75, 0.10, 0.10);
      nb_plot_marker (&plot, t->cx - 0.85 * t->half, t->cy + 0.85 * t->half, _("now"),
                      0.75, 0.10, 0.10);
    }
}
