/* test-run-track — the Run page's live track (nb_run_track_draw): drawn
 * frame by frame, with only the new samples stroked onto the picture kept,
 * it is the same, pixel for pixel, as the same samples drawn at once; the
 * view is refitted when a sample leaves it; every sample is drawn where the
 * view puts it, the current position marked.  No display needed: cairo
 * image surfaces, as the GSK cairo renderer draws the page.
 */
#include "nb-run-plot.h"

#include <cairo.h>
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 640
#define H 400

/* An ellipse 3 × 2 m driven over and over (the track on itself), 2000
 * samples a lap, with the instrument's noise. */
static void
ellipse (GArray *x, GArray *y, guint n)
{
  GRand *rand = g_rand_new_with_seed (18);

  for (guint k = 0; k < n; k++)
    {
      double a = 2 * G_PI * k / 2000.0;
      double px = 1500.0 * cos (a) + g_rand_double_range (rand, -2, 2);
      double py = 1000.0 * sin (a) + g_rand_double_range (rand, -2, 2);

      g_array_append_val (x, px);
      g_array_append_val (y, py);
    }
  g_rand_free (rand);
}

static cairo_surface_t *
canvas (int scale)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W * scale, H * scale);

  cairo_surface_set_device_scale (s, scale, scale);
  return s;
}

static void
draw (NbRunTrack *track, GArray *x, GArray *y, guint n, cairo_surface_t *s, double w, double h,
      int scale)
{
  cairo_t *cr = cairo_create (s);

  nb_run_track_draw (track, (const double *) x->data, (const double *) y->data, n, cr, w, h,
                     scale);
  cairo_destroy (cr);
  cairo_surface_flush (s);
}

/* The same samples drawn at once, by a track of its own. */
static cairo_surface_t *
drawn_at_once (GArray *x, GArray *y, guint n, double w, double h, int scale)
{
  NbRunTrack *fresh = nb_run_track_new ();
  cairo_surface_t *s = canvas (scale);

  draw (fresh, x, y, n, s, w, h, scale);
  g_assert_cmpuint (nb_run_track_get_redraws (fresh), ==, 1);
  nb_run_track_free (fresh);
  return s;
}

/* Pixels that differ between a and b. */
static guint
differing (cairo_surface_t *a, cairo_surface_t *b)
{
  int stride = cairo_image_surface_get_stride (a), h = cairo_image_surface_get_height (a);
  int w = cairo_image_surface_get_width (a);
  const guint32 *pa = (const guint32 *) cairo_image_surface_get_data (a);
  const guint32 *pb = (const guint32 *) cairo_image_surface_get_data (b);
  guint n = 0;

  g_assert_cmpint (stride, ==, cairo_image_surface_get_stride (b));
  for (int v = 0; v < h; v++)
    for (int u = 0; u < w; u++)
      n += pa[v * stride / 4 + u] != pb[v * stride / 4 + u];
  return n;
}

static void
assert_same_as_at_once (GArray *x, GArray *y, guint n, cairo_surface_t *frame, double w,
                        double h, int scale)
{
  cairo_surface_t *once = drawn_at_once (x, y, n, w, h, scale);

  g_assert_cmpuint (differing (frame, once), ==, 0);
  cairo_surface_destroy (once);
}

/* The pixel (device units) at user point (px, py): r, g, b in 0–255. */
static void
pixel (cairo_surface_t *s, double px, double py, int scale, int rgb[3])
{
  int stride = cairo_image_surface_get_stride (s);
  int u = (int) floor (px * scale), v = (int) floor (py * scale);
  guint32 p = ((const guint32 *) cairo_image_surface_get_data (s))[v * stride / 4 + u];

  rgb[0] = (p >> 16) & 0xff, rgb[1] = (p >> 8) & 0xff, rgb[2] = p & 0xff;
}

/* Whether colour (r, g, b) is drawn within a pixel of (px, py), to 24 in
 * each component. */
static gboolean
near (cairo_surface_t *s, double px, double py, int scale, int r, int g, int b)
{
  for (int dv = -1; dv <= 1; dv++)
    for (int du = -1; du <= 1; du++)
      {
        int c[3];

        pixel (s, px + du, py + dv, scale, c);
        if (abs (c[0] - r) <= 24 && abs (c[1] - g) <= 24 && abs (c[2] - b) <= 24)
          return TRUE;
      }
  return FALSE;
}

/* The track's blue (0.12, 0.32, 0.70). */
static gboolean
blue_near (cairo_surface_t *s, double px, double py, int scale)
{
  return near (s, px, py, scale, 31, 82, 179);
}

/* Frames of irregular sizes (the main loop's), up to 3.5 laps. */
static void
test_frames (void)
{
  g_autoptr (GArray) x = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) y = g_array_new (FALSE, FALSE, sizeof (double));
  NbRunTrack *track = nb_run_track_new ();
  cairo_surface_t *frame = canvas (1);
  guint n = 0, step = 1, checks = 0;
  double now_px, now_py;

  ellipse (x, y, 7000);
  while (n < x->len)
    {
      n = MIN (n + step, x->len);
      step = step * 7 % 523 + 1;      /* 1 to 523 samples a frame */
      draw (track, x, y, n, frame, W, H, 1);
      if (n % 5 == 0 || n == x->len)
        {
          assert_same_as_at_once (x, y, n, frame, W, H, 1);
          checks++;
        }
    }
  g_assert_cmpuint (checks, >=, 3);
  /* The view was fitted in the first lap; after it nothing is drawn whole. */
  g_assert_cmpuint (nb_run_track_get_redraws (track), <, 40);
  {
    guint before = nb_run_track_get_redraws (track);

    draw (track, x, y, x->len, frame, W, H, 1);
    g_assert_cmpuint (nb_run_track_get_redraws (track), ==, before);
  }
  /* Every 97th sample is on the line, a point inside the ellipse is not; the
   * current position is marked in red. */
  g_assert_true (nb_run_track_to_pixel (track, g_array_index (x, double, x->len - 1),
                                        g_array_index (y, double, x->len - 1), &now_px, &now_py));
  for (guint i = 0; i < x->len; i += 97)
    {
      double px, py;

      g_assert_true (nb_run_track_to_pixel (track, g_array_index (x, double, i),
                                            g_array_index (y, double, i), &px, &py));
      /* (Under the red cross of the current position: not blue.) */
      if (hypot (px - now_px, py - now_py) > 6)
        g_assert_true (blue_near (frame, px, py, 1));
    }
  {
    double px, py;
    int c[3];

    /* (Between the grid lines.) */
    g_assert_true (nb_run_track_to_pixel (track, 250, -250, &px, &py));
    pixel (frame, px, py, 1, c);
    g_assert_cmpint (c[0], ==, 255);
    g_assert_cmpint (c[1], ==, 255);
    g_assert_cmpint (c[2], ==, 255);
    /* The cross's red (0.75, 0.10, 0.10) on its arm, 3 px right of the
     * last sample (the arm, 1.2 px wide, half covers two rows). */
    pixel (frame, now_px + 3, now_py, 1, c);
    g_assert_cmpint (c[0], >, c[1] + 80);
    g_assert_cmpint (c[0], >, c[2] + 80);
  }
  cairo_surface_destroy (frame);
  nb_run_track_free (track);
}

/* A track driving away: the view is refitted as it leaves, and stays the
 * one the same samples give at once. */
static void
test_refit (void)
{
  g_autoptr (GArray) x = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) y = g_array_new (FALSE, FALSE, sizeof (double));
  NbRunTrack *track = nb_run_track_new ();
  cairo_surface_t *frame = canvas (1);

  for (guint k = 0; k < 6000; k++)
    {
      double px = 1.0 * k, py = 300.0 * sin (k / 400.0);    /* 6 m along x */

      g_array_append_val (x, px);
      g_array_append_val (y, py);
    }
  for (guint n = 1; n <= x->len; n += 37)
    draw (track, x, y, n, frame, W, H, 1);
  /* From the 1 m square at the start to 6 m: refitted on the way. */
  g_assert_cmpuint (nb_run_track_get_redraws (track), >, 5);
  assert_same_as_at_once (x, y, 5995, frame, W, H, 1);
  for (guint i = 0; i < 5995; i += 250)
    {
      double px, py;

      g_assert_true (nb_run_track_to_pixel (track, g_array_index (x, double, i),
                                            g_array_index (y, double, i), &px, &py));
      g_assert_cmpfloat (px, >, 42);
      g_assert_cmpfloat (px, <, W - 14);
      g_assert_cmpfloat (py, >, 6);
      g_assert_cmpfloat (py, <, H - 28);
      g_assert_true (blue_near (frame, px, py, 1));
    }
  cairo_surface_destroy (frame);
  nb_run_track_free (track);
}

/* Another trial's track in the same arrays, a resized area and a HiDPI
 * screen: drawn anew, as at once. */
static void
test_anew (void)
{
  g_autoptr (GArray) x = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) y = g_array_new (FALSE, FALSE, sizeof (double));
  NbRunTrack *track = nb_run_track_new ();
  cairo_surface_t *frame = canvas (1), *frame2 = canvas (2);

  ellipse (x, y, 3000);
  draw (track, x, y, 2000, frame, W, H, 1);
  /* The next trial: its samples from the start (the first one moved). */
  for (guint i = 0; i < x->len; i++)
    g_array_index (x, double, i) += 250.0;
  draw (track, x, y, 2100, frame, W, H, 1);
  assert_same_as_at_once (x, y, 2100, frame, W, H, 1);
  /* Samples dropped at the end (the same first one). */
  draw (track, x, y, 1500, frame, W, H, 1);
  assert_same_as_at_once (x, y, 1500, frame, W, H, 1);
  /* Smaller, then twice the pixels. */
  draw (track, x, y, 1600, frame, W - 100, H - 50, 1);
  assert_same_as_at_once (x, y, 1600, frame, W - 100, H - 50, 1);
  draw (track, x, y, 1700, frame2, W, H, 2);
  draw (track, x, y, 2900, frame2, W, H, 2);
  assert_same_as_at_once (x, y, 2900, frame2, W, H, 2);
  /* Nothing yet: an empty plot, no line. */
  nb_run_track_reset (track);
  draw (track, x, y, 0, frame, W, H, 1);
  assert_same_as_at_once (x, y, 0, frame, W, H, 1);
  cairo_surface_destroy (frame);
  cairo_surface_destroy (frame2);
  nb_run_track_free (track);
}

/* ------------------------------------------- the configuration's plot -- */

static void
draw_plot (NbRunPlot *plot, cairo_surface_t *s, double w, double h)
{
  cairo_t *cr = cairo_create (s);

  cairo_set_source_rgb (cr, 0.5, 0.5, 0.5);
  cairo_paint (cr);
  nb_run_plot_draw (plot, cr, w, h);
  cairo_destroy (cr);
  cairo_surface_flush (s);
}

/* frame (drawn by plot, with what its earlier drawings kept) against a
 * plot of its own drawing the same points once. */
static void
assert_plot_as_anew (const NbRunPlot *plot, cairo_surface_t *frame, double w, double h,
                     int scale)
{
  NbRunPlot fresh;
  cairo_surface_t *once = canvas (scale);

  nb_run_plot_init (&fresh);
  nb_run_plot_reset (&fresh, plot->clause);
  for (guint i = 0; i < plot->x->len; i++)
    nb_run_plot_add_to (&fresh, g_array_index (plot->x, double, i),
                        g_array_index (plot->y, double, i),
                        g_array_index (plot->series, guint, i));
  draw_plot (&fresh, once, w, h);
  g_assert_cmpuint (differing (frame, once), ==, 0);
  nb_run_plot_clear (&fresh);
  cairo_surface_destroy (once);
}

static void
add_random (NbRunPlot *plot, GRand *rand, guint n, double half, guint series)
{
  for (guint i = 0; i < n; i++)
    nb_run_plot_add_to (plot, g_rand_double_range (rand, -half, half),
                        g_rand_double_range (rand, -half, half), series);
}

/* The configuration's plot drawn frame by frame — its axes kept as a
 * picture, only the points added since stamped onto the dots' masks — is
 * the same, pixel for pixel, as a plot of its own drawing the same points
 * once: clause 5's 50 000 attained positions and more between frames, one
 * beyond the range (axes and dots drawn anew), another size, scale 2, and
 * another clause (6: two series of 3000). */
static void
test_plot_cached (void)
{
  GRand *rand = g_rand_new_with_seed (5);
  cairo_surface_t *one = canvas (1), *two = canvas (2);
  NbRunPlot plot;

  nb_run_plot_init (&plot);
  nb_run_plot_reset (&plot, 5);
  add_random (&plot, rand, 50000, 5.0, NB_RUN_PLOT_SERIES_MAIN);
  draw_plot (&plot, one, W, H);
  assert_plot_as_anew (&plot, one, W, H, 1);
  for (guint frame = 0; frame < 5; frame++)
    {
      add_random (&plot, rand, 1 + 37 * frame, 5.0, NB_RUN_PLOT_SERIES_MAIN);
      draw_plot (&plot, one, W, H);
    }
  assert_plot_as_anew (&plot, one, W, H, 1);
  /* Beyond the range: the axes change. */
  nb_run_plot_add (&plot, 8.0, -7.5);
  draw_plot (&plot, one, W, H);
  assert_plot_as_anew (&plot, one, W, H, 1);
  add_random (&plot, rand, 10, 5.0, NB_RUN_PLOT_SERIES_MAIN);
  draw_plot (&plot, one, W - 120, H - 30);
  assert_plot_as_anew (&plot, one, W - 120, H - 30, 1);
  add_random (&plot, rand, 10, 5.0, NB_RUN_PLOT_SERIES_MAIN);
  draw_plot (&plot, two, W, H);
  assert_plot_as_anew (&plot, two, W, H, 2);
  draw_plot (&plot, one, W, H);
  assert_plot_as_anew (&plot, one, W, H, 1);

  /* Another configuration, clause 6: detected and missed. */
  nb_run_plot_reset (&plot, 6);
  add_random (&plot, rand, 3000, 2000.0, NB_RUN_PLOT_SERIES_MAIN);
  add_random (&plot, rand, 3000, 2000.0, NB_RUN_PLOT_SERIES_OTHER);
  draw_plot (&plot, one, W, H);
  assert_plot_as_anew (&plot, one, W, H, 1);
  add_random (&plot, rand, 50, 2000.0, NB_RUN_PLOT_SERIES_OTHER);
  add_random (&plot, rand, 50, 2000.0, NB_RUN_PLOT_SERIES_MAIN);
  draw_plot (&plot, one, W, H);
  assert_plot_as_anew (&plot, one, W, H, 1);

  nb_run_plot_clear (&plot);
  cairo_surface_destroy (one);
  cairo_surface_destroy (two);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/run-track/frames", test_frames);
  g_test_add_func ("/run-track/refit", test_refit);
  g_test_add_func ("/run-track/anew", test_anew);
  g_test_add_func ("/run-plot/cached", test_plot_cached);
  return g_test_run ();
}
