#include "nb-plot-traj.h"

#include "nb-error.h"

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <math.h>

#define WIDTH 1000
#define HEIGHT 800
#define MARGIN_L 90.0
#define MARGIN_R 170.0
#define MARGIN_T 60.0
#define MARGIN_B 70.0
#define MAX_SEGMENTS 40000    /* more are invisible at this size, and slow */

/* viridis at five stops (matplotlib's default map, which evo uses). */
static void
colour_map (double s, double rgb[3])
{
  static const double stops[5][3] = {
    { 0.267, 0.005, 0.329 }, { 0.230, 0.322, 0.546 }, { 0.128, 0.567, 0.551 },
    { 0.369, 0.789, 0.383 }, { 0.993, 0.906, 0.144 },
  };
  double x = CLAMP (s, 0.0, 1.0) * 4.0;
  int i = MIN ((int) x, 3);
  double f = x - i;

  for (int c = 0; c < 3; c++)
    rgb[c] = stops[i][c] + f * (stops[i + 1][c] - stops[i][c]);
}

/* A step of 1, 2 or 5 × 10^k giving about n ticks over span. */
static double
nice_step (double span, int n)
{
  double raw = span / n, mag = pow (10.0, floor (log10 (raw))), f = raw / mag;

  return mag * (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0);
}

static void
text_at (cairo_t *cr, double x, double y, const char *text, double ax, double ay)
{
  cairo_text_extents_t e;

  cairo_text_extents (cr, text, &e);
  cairo_move_to (cr, x - ax * e.width - e.x_bearing, y - ay * e.height - e.y_bearing);
  cairo_show_text (cr, text);
}

static char *
format_tick (double v, double step)
{
  int decimals = step >= 1.0 ? 0 : (int) ceil (-log10 (step) - 1e-9);

  if (fabs (v) < step * 1e-9)
    v = 0.0;
  return g_strdup_printf ("%.*f", CLAMP (decimals, 0, 9), v);
}

gboolean
nb_plot_traj_png (const char *path, const NbTraj *ref, const NbTraj *est, const double *value,
                  const char *title, const char *value_label, GError **error)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  double vmin = INFINITY, vmax = -INFINITY, scale, cx, cy, step;
  double pw = WIDTH - MARGIN_L - MARGIN_R, ph = HEIGHT - MARGIN_T - MARGIN_B;
  const NbTraj *both[2] = { ref, est };
  guint stride;
  cairo_status_t status;

  for (int k = 0; k < 2; k++)
    for (guint i = 0; i < both[k]->n; i++)
      {
        x0 = MIN (x0, both[k]->p[3 * (gsize) i]), x1 = MAX (x1, both[k]->p[3 * (gsize) i]);
        y0 = MIN (y0, both[k]->p[3 * (gsize) i + 1]);
        y1 = MAX (y1, both[k]->p[3 * (gsize) i + 1]);
      }
  for (guint i = 0; i < est->n; i++)
    if (!isnan (value[i]))
      vmin = MIN (vmin, value[i]), vmax = MAX (vmax, value[i]);
  if (!isfinite (vmin))
    vmin = 0.0, vmax = 1.0;
  if (vmax <= vmin)
    vmax = vmin + (vmin != 0.0 ? fabs (vmin) * 1e-3 : 1e-9);
  if (x1 - x0 < 1e-9)
    x0 -= 0.5, x1 += 0.5;
  if (y1 - y0 < 1e-9)
    y0 -= 0.5, y1 += 0.5;
  /* Equal scales in x and y, 4 % of air around the data. */
  scale = MIN (pw / (x1 - x0), ph / (y1 - y0)) / 1.08;
  cx = 0.5 * (x0 + x1), cy = 0.5 * (y0 + y1);
#define PX(x) (MARGIN_L + pw / 2 + ((x) - cx) * scale)
#define PY(y) (MARGIN_T + ph / 2 - ((y) - cy) * scale)

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_select_font_face (cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

  /* Grid and ticks, in metres. */
  cairo_set_font_size (cr, 13);
  cairo_set_line_width (cr, 1.0);
  {
    double gx0 = cx - pw / 2 / scale, gx1 = cx + pw / 2 / scale;
    double gy0 = cy - ph / 2 / scale, gy1 = cy + ph / 2 / scale;

    step = nice_step (MAX (gx1 - gx0, gy1 - gy0), 8);
    for (double g = ceil (gx0 / step) * step; g <= gx1; g += step)
      {
        g_autofree char *label = format_tick (g, step);

        cairo_set_source_rgb (cr, 0.9, 0.9, 0.9);
        cairo_move_to (cr, round (PX (g)) + 0.5, MARGIN_T);
        cairo_line_to (cr, round (PX (g)) + 0.5, MARGIN_T + ph);
        cairo_stroke (cr);
        cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
        text_at (cr, PX (g), MARGIN_T + ph + 8, label, 0.5, 0.0);
      }
    for (double g = ceil (gy0 / step) * step; g <= gy1; g += step)
      {
        g_autofree char *label = format_tick (g, step);

        cairo_set_source_rgb (cr, 0.9, 0.9, 0.9);
        cairo_move_to (cr, MARGIN_L, round (PY (g)) + 0.5);
        cairo_line_to (cr, MARGIN_L + pw, round (PY (g)) + 0.5);
        cairo_stroke (cr);
        cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
        text_at (cr, MARGIN_L - 8, PY (g), label, 1.0, 0.5);
      }
  }
  cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
  cairo_rectangle (cr, MARGIN_L + 0.5, MARGIN_T + 0.5, pw, ph);
  cairo_stroke (cr);
  cairo_set_font_size (cr, 15);
  text_at (cr, MARGIN_L + pw / 2, HEIGHT - 18, "x (m)", 0.5, 1.0);
  cairo_save (cr);
  cairo_translate (cr, 22, MARGIN_T + ph / 2);
  cairo_rotate (cr, -G_PI / 2);
  text_at (cr, 0, 0, "y (m)", 0.5, 0.5);
  cairo_restore (cr);
  cairo_set_font_size (cr, 17);
  text_at (cr, MARGIN_L + pw / 2, 22, title, 0.5, 0.5);

  cairo_save (cr);
  cairo_rectangle (cr, MARGIN_L, MARGIN_T, pw, ph);
  cairo_clip (cr);
  /* The reference: a grey dashed line. */
  stride = MAX (1u, ref->n / MAX_SEGMENTS);
  cairo_set_source_rgb (cr, 0.45, 0.45, 0.45);
  cairo_set_line_width (cr, 1.5);
  cairo_set_dash (cr, (double[]) { 6.0, 4.0 }, 2, 0);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint i = 0; i < ref->n; i += stride)
    cairo_line_to (cr, PX (ref->p[3 * (gsize) i]), PY (ref->p[3 * (gsize) i + 1]));
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);

  /* The estimate: each segment in the colour of the error at its end;
   * poses without a value (RPE) as a thin grey line under the dots. */
  stride = MAX (1u, est->n / MAX_SEGMENTS);
  cairo_set_line_width (cr, 2.5);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  for (guint i = stride; i < est->n; i += stride)
    {
      guint a = i - stride;
      double rgb[3] = { 0.75, 0.75, 0.75 };
      double v = NAN;

      for (guint k = a + 1; k <= i; k++)
        if (!isnan (value[k]))
          v = isnan (v) ? value[k] : MAX (v, value[k]);
      if (!isnan (v))
        colour_map ((v - vmin) / (vmax - vmin), rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_move_to (cr, PX (est->p[3 * (gsize) a]), PY (est->p[3 * (gsize) a + 1]));
      cairo_line_to (cr, PX (est->p[3 * (gsize) i]), PY (est->p[3 * (gsize) i + 1]));
      cairo_stroke (cr);
    }
  cairo_restore (cr);

  /* Colour bar with the error's unit. */
  {
    double bx = WIDTH - MARGIN_R + 40, bw = 22, by = MARGIN_T + 30, bh = ph - 60;
    double vstep = nice_step (vmax - vmin, 6);

    for (int yy = 0; yy < (int) bh; yy++)
      {
        double rgb[3];

        colour_map (1.0 - yy / (bh - 1), rgb);
        cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
        cairo_rectangle (cr, bx, by + yy, bw, 1);
        cairo_fill (cr);
      }
    cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
    cairo_set_line_width (cr, 1.0);
    cairo_rectangle (cr, bx + 0.5, by + 0.5, bw, bh);
    cairo_stroke (cr);
    cairo_set_font_size (cr, 13);
    for (double v = ceil (vmin / vstep) * vstep; v <= vmax + vstep * 1e-9; v += vstep)
      {
        g_autofree char *label = format_tick (v, vstep);
        double y = by + bh - (v - vmin) / (vmax - vmin) * bh;

        cairo_move_to (cr, bx + bw, y);
        cairo_line_to (cr, bx + bw + 5, y);
        cairo_stroke (cr);
        text_at (cr, bx + bw + 8, y, label, 0.0, 0.5);
      }
    cairo_set_font_size (cr, 14);
    text_at (cr, bx + bw / 2, by - 12, value_label, 0.5, 1.0);
  }

  /* Legend, bottom right. */
  {
    double lx = WIDTH - MARGIN_R + 12, ly = HEIGHT - MARGIN_B + 18;

    cairo_set_font_size (cr, 12);
    cairo_set_source_rgb (cr, 0.45, 0.45, 0.45);
    cairo_set_line_width (cr, 1.5);
    cairo_set_dash (cr, (double[]) { 6.0, 4.0 }, 2, 0);
    cairo_move_to (cr, lx, ly);
    cairo_line_to (cr, lx + 24, ly);
    cairo_stroke (cr);
    cairo_set_dash (cr, NULL, 0, 0);
    cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
    text_at (cr, lx + 30, ly, "reference", 0.0, 0.5);
    {
      double rgb[3];

      colour_map (0.6, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
    }
    cairo_set_line_width (cr, 2.5);
    cairo_move_to (cr, lx, ly + 20);
    cairo_line_to (cr, lx + 24, ly + 20);
    cairo_stroke (cr);
    cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
    text_at (cr, lx + 30, ly + 20, "estimate", 0.0, 0.5);
  }
#undef PX
#undef PY

  cairo_destroy (cr);
  status = cairo_surface_write_to_png (surface, path);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: writing the plot: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

void
nb_plot_release_caches (void)
{
  cairo_debug_reset_static_data ();
  FcFini ();
}
