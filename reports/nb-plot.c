#include "nb-plot.h"

#include <math.h>
#include <pango/pangocairo.h>
#include <stdio.h>

#define FONT "DejaVu Sans 7.5"

double
nb_plot_nice_step (double span, int n)
{
  double raw = span / MAX (n, 1), mag, f;

  if (!(raw > 0.0) || !isfinite (raw))
    return 1.0;
  mag = pow (10.0, floor (log10 (raw)));
  f = raw / mag;
  return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * mag;
}

static void
label (cairo_t *cr, const char *text, double x, double y, double ax, double ay, gboolean vertical)
{
  PangoLayout *l = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (FONT);
  int w, h;

  /* One unit of the cairo space is a point (PDF) or a pixel (PNG): 72 dpi. */
  pango_cairo_context_set_resolution (pango_layout_get_context (l), 72.0);
  pango_layout_context_changed (l);

  pango_layout_set_font_description (l, font);
  pango_font_description_free (font);
  pango_layout_set_text (l, text, -1);
  pango_layout_get_size (l, &w, &h);
  cairo_save (cr);
  cairo_translate (cr, x, y);
  if (vertical)
    cairo_rotate (cr, -G_PI / 2);
  cairo_move_to (cr, -ax * w / PANGO_SCALE, -ay * h / PANGO_SCALE);
  cairo_set_source_rgb (cr, 0.15, 0.15, 0.15);
  pango_cairo_show_layout (cr, l);
  cairo_restore (cr);
  g_object_unref (l);
}

static void
format_tick (char *buf, gsize size, double v, double step)
{
  int decimals = step >= 1.0 ? 0 : (int) ceil (-log10 (step) - 1e-9);

  if (fabs (v) < step * 1e-6)
    v = 0.0;
  g_snprintf (buf, size, "%.*f", CLAMP (decimals, 0, 6), v);
}

void
nb_plot_begin (NbPlot *p, cairo_t *cr, double bx, double by, double bw, double bh, double xmin,
               double xmax, double ymin, double ymax, gboolean equal_aspect, const char *x_label,
               const char *y_label)
{
  const double left = 42.0, bottom = 28.0, top = 6.0, right = 14.0;
  double xs, ys;
  char buf[32];

  if (!(xmax > xmin))
    xmin -= 0.5, xmax += 0.5;
  if (!(ymax > ymin))
    ymin -= 0.5, ymax += 0.5;
  p->cr = cr;
  p->x0 = bx + left;
  p->y0 = by + top;
  p->w = bw - left - right;
  p->h = bh - top - bottom;
  if (equal_aspect)
    {
      /* Widen the tighter axis so that a unit is as long on both. */
      double sx = p->w / (xmax - xmin), sy = p->h / (ymax - ymin);

      if (sx > sy)
        {
          double extra = (p->w / sy - (xmax - xmin)) / 2;

          xmin -= extra, xmax += extra;
        }
      else
        {
          double extra = (p->h / sx - (ymax - ymin)) / 2;

          ymin -= extra, ymax += extra;
        }
    }
  p->xmin = xmin, p->xmax = xmax, p->ymin = ymin, p->ymax = ymax;

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, p->x0, p->y0, p->w, p->h);
  cairo_fill (cr);
  cairo_set_line_width (cr, 0.3);
  xs = nb_plot_nice_step (xmax - xmin, 6);
  ys = nb_plot_nice_step (ymax - ymin, 5);
  for (double v = ceil (xmin / xs) * xs; v <= xmax + xs * 1e-9; v += xs)
    {
      cairo_set_source_rgb (cr, 0.88, 0.88, 0.88);
      cairo_move_to (cr, nb_plot_x (p, v), p->y0);
      cairo_line_to (cr, nb_plot_x (p, v), p->y0 + p->h);
      cairo_stroke (cr);
      format_tick (buf, sizeof buf, v, xs);
      label (cr, buf, nb_plot_x (p, v), p->y0 + p->h + 2.0, 0.5, 0.0, FALSE);
    }
  for (double v = ceil (ymin / ys) * ys; v <= ymax + ys * 1e-9; v += ys)
    {
      cairo_set_source_rgb (cr, 0.88, 0.88, 0.88);
      cairo_move_to (cr, p->x0, nb_plot_y (p, v));
      cairo_line_to (cr, p->x0 + p->w, nb_plot_y (p, v));
      cairo_stroke (cr);
      format_tick (buf, sizeof buf, v, ys);
      label (cr, buf, p->x0 - 3.0, nb_plot_y (p, v), 1.0, 0.5, FALSE);
    }
  cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
  cairo_set_line_width (cr, 0.7);
  cairo_rectangle (cr, p->x0, p->y0, p->w, p->h);
  cairo_stroke (cr);
  if (x_label)
    label (cr, x_label, p->x0 + p->w / 2, p->y0 + p->h + 14.0, 0.5, 0.0, FALSE);
  if (y_label)
    label (cr, y_label, bx + 2.0, p->y0 + p->h / 2, 0.5, 0.0, TRUE);
  cairo_restore (cr);
}

double
nb_plot_x (const NbPlot *p, double x)
{
  return p->x0 + (x - p->xmin) / (p->xmax - p->xmin) * p->w;
}

double
nb_plot_y (const NbPlot *p, double y)
{
  return p->y0 + p->h - (y - p->ymin) / (p->ymax - p->ymin) * p->h;
}

static void
clip_area (NbPlot *p)
{
  cairo_save (p->cr);
  cairo_rectangle (p->cr, p->x0, p->y0, p->w, p->h);
  cairo_clip (p->cr);
}

void
nb_plot_points (NbPlot *p, const double *x, const double *y, gsize n, double radius, double r,
                double g, double b)
{
  clip_area (p);
  cairo_set_source_rgba (p->cr, r, g, b, 0.85);
  for (gsize i = 0; i < n; i++)
    {
      cairo_new_sub_path (p->cr);
      cairo_arc (p->cr, nb_plot_x (p, x[i]), nb_plot_y (p, y[i]), radius, 0, 2 * G_PI);
    }
  cairo_fill (p->cr);
  cairo_restore (p->cr);
}

void
nb_plot_line (NbPlot *p, const double *x, const double *y, gsize n, double width, double r,
              double g, double b)
{
  /* A column as wide as a thin line (0.4 pt, 180 dpi) keeps its first,
   * lowest, highest and last point: the drawn line is the same, the path is
   * short (a million points become a few thousand). */
  double column = 0.4;
  gsize i = 0;

  clip_area (p);
  cairo_set_source_rgb (p->cr, r, g, b);
  cairo_set_line_width (p->cr, width);
  cairo_set_line_join (p->cr, CAIRO_LINE_JOIN_ROUND);
  while (i < n)
    {
      double cx = floor (nb_plot_x (p, x[i]) / column);
      double lo = y[i], hi = y[i];
      gsize j = i + 1, ilo = i, ihi = i;

      while (j < n && floor (nb_plot_x (p, x[j]) / column) == cx)
        {
          if (y[j] < lo)
            lo = y[j], ilo = j;
          if (y[j] > hi)
            hi = y[j], ihi = j;
          j++;
        }
      if (i == 0)
        cairo_move_to (p->cr, nb_plot_x (p, x[i]), nb_plot_y (p, y[i]));
      else
        cairo_line_to (p->cr, nb_plot_x (p, x[i]), nb_plot_y (p, y[i]));
      /* The extremes in the order they occur. */
      if (ilo < ihi)
        {
          cairo_line_to (p->cr, nb_plot_x (p, x[ilo]), nb_plot_y (p, lo));
          cairo_line_to (p->cr, nb_plot_x (p, x[ihi]), nb_plot_y (p, hi));
        }
      else if (ihi < ilo)
        {
          cairo_line_to (p->cr, nb_plot_x (p, x[ihi]), nb_plot_y (p, hi));
          cairo_line_to (p->cr, nb_plot_x (p, x[ilo]), nb_plot_y (p, lo));
        }
      cairo_line_to (p->cr, nb_plot_x (p, x[j - 1]), nb_plot_y (p, y[j - 1]));
      i = j;
    }
  cairo_stroke (p->cr);
  cairo_restore (p->cr);
}

void
nb_plot_circle (NbPlot *p, double cx, double cy, double radius, double r, double g, double b,
                gboolean dashed)
{
  const double dash[] = { 3.0, 2.0 };
  double rx = radius / (p->xmax - p->xmin) * p->w;

  clip_area (p);
  cairo_set_source_rgb (p->cr, r, g, b);
  cairo_set_line_width (p->cr, 0.9);
  if (dashed)
    cairo_set_dash (p->cr, dash, 2, 0);
  cairo_new_sub_path (p->cr);
  cairo_arc (p->cr, nb_plot_x (p, cx), nb_plot_y (p, cy), rx, 0, 2 * G_PI);
  cairo_stroke (p->cr);
  cairo_restore (p->cr);
}

void
nb_plot_marker (NbPlot *p, double x, double y, const char *text, double r, double g, double b)
{
  double px = nb_plot_x (p, x), py = nb_plot_y (p, y);

  clip_area (p);
  cairo_set_source_rgb (p->cr, r, g, b);
  cairo_set_line_width (p->cr, 1.2);
  cairo_move_to (p->cr, px - 4, py);
  cairo_line_to (p->cr, px + 4, py);
  cairo_move_to (p->cr, px, py - 4);
  cairo_line_to (p->cr, px, py + 4);
  cairo_stroke (p->cr);
  if (text)
    label (p->cr, text, px + 5, py - 2, 0.0, 1.0, FALSE);
  cairo_restore (p->cr);
}
