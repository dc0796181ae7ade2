/* bench-gui-plot — frames per second of the Run page's two plots with
 * 100 000 points on each and a 100 Hz instrument adding one every 10 ms,
 * drawn as the window draws them (cairo, 1000×600 px, GSK's cairo renderer
 * under Xvfb): the configuration's plot (nb_run_plot_draw: its axes and the
 * dots kept from frame to frame, only the new points stamped; and for
 * comparison drawn anew every frame, as before) and the live
 * track of the trial in flight (nb_run_track_draw: every sample, to scale,
 * the current position marked; the line drawn so far kept as a picture and
 * only the new samples stroked, and for comparison the same drawn whole every
 * frame).  A benchmark, not a test: it prints the figures.
 *   bench-gui-plot [SECONDS]
 */
#include "nb-run-plot.h"

#include <cairo.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The machine's load average over the last minute (the figures follow it:
 * 2 cores shared with other builds). */
static double
load_1min (void)
{
  g_autofree char *text = NULL;

  return g_file_get_contents ("/proc/loadavg", &text, NULL, NULL) ? g_ascii_strtod (text, NULL)
                                                                   : NAN;
}

int
main (int argc, char **argv)
{
  double seconds = argc > 1 ? atof (argv[1]) : 3.0;
  NbRunPlot plot;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 600);
  cairo_t *cr = cairo_create (surface);
  GRand *rand = g_rand_new_with_seed (18);
  gint64 start, now, next_sample;
  guint frames = 0, samples = 0;

  printf ("load average %.1f\n", load_1min ());
  nb_run_plot_init (&plot);
  for (guint anew = 0; anew < 2; anew++)
    {
      NbRunPlot shown;

      nb_run_plot_reset (&plot, 5);
      /* Without its cache the plot is drawn whole every frame (as before). */
      shown = plot;
      if (anew)
        shown.cache = NULL;
      /* Attained positions about the command, mm. */
      for (guint i = 0; i < 100000; i++)
        nb_run_plot_add (&plot, g_rand_double_range (rand, -5, 5),
                         g_rand_double_range (rand, -5, 5));
      frames = samples = 0;
      start = next_sample = g_get_monotonic_time ();
      do
        {
          now = g_get_monotonic_time ();
          for (; next_sample <= now; next_sample += 10000, samples++)
            nb_run_plot_add (&plot, g_rand_double_range (rand, -5, 5),
                             g_rand_double_range (rand, -5, 5));
          shown.x = plot.x, shown.y = plot.y, shown.series = plot.series;
          nb_run_plot_draw (&shown, cr, 1000, 600);
          cairo_surface_flush (surface);
          frames++;
        }
      while (now - start < (gint64) (seconds * G_USEC_PER_SEC));
      printf ("live plot%s: %.1f frames/s with %u points (%u added at 100 Hz) over %.1f s, "
              "load average %.1f\n", anew ? " (drawn anew every frame)" : "",
              frames / ((now - start) / 1e6), plot.x->len, samples, (now - start) / 1e6,
              load_1min ());
    }

  /* The live track, 100 000 samples: once round a 5 × 3 m rectangle (a
   * route's legs, as clauses 5 and 8 drive them), then a 5 × 3 m ellipse
   * driven 16 times over (the worst case: every sample in a new pixel
   * column, the track on itself). */
  for (guint shape = 0; shape < 2; shape++)
    {
      GArray *x = g_array_new (FALSE, FALSE, sizeof (double));
      GArray *y = g_array_new (FALSE, FALSE, sizeof (double));
      guint k = 0;

      for (; k < 100000 + (guint) (seconds * 100) + 100; k++)
        {
          double px, py;

          if (shape == 0)
            {
              double u = fmod (k / 100000.0, 1.0) * 16.0;   /* metres along the perimeter */

              px = u < 5 ? u : u < 8 ? 5 : u < 13 ? 13 - u : 0;
              py = u < 5 ? 0 : u < 8 ? u - 5 : u < 13 ? 3 : 16 - u;
              px = 1000 * px + g_rand_double_range (rand, -0.5, 0.5);
              py = 1000 * py + g_rand_double_range (rand, -0.5, 0.5);
            }
          else
            {
              double a = 2 * G_PI * k / 6000.0;

              px = 2500.0 * cos (a) + g_rand_double_range (rand, -2, 2);
              py = 1500.0 * sin (a) + g_rand_double_range (rand, -2, 2);
            }
          g_array_append_val (x, px);
          g_array_append_val (y, py);
        }
      for (guint whole = 0; whole < 2; whole++)
        {
          NbRunTrack *track = nb_run_track_new ();
          gint64 t0;
          double first_ms;

          frames = samples = 0;
          start = next_sample = t0 = g_get_monotonic_time ();
          /* The first frame draws all 100 000 (as a refit of the view does). */
          nb_run_track_draw (track, (const double *) x->data, (const double *) y->data, 100000,
                             cr, 1000, 600, 1);
          cairo_surface_flush (surface);
          first_ms = (g_get_monotonic_time () - t0) / 1e3;
          do
            {
              now = g_get_monotonic_time ();
              /* 100 000 on screen, one more every 10 ms. */
              for (; next_sample <= now; next_sample += 10000)
                samples++;
              if (whole)
                nb_run_track_reset (track);
              nb_run_track_draw (track, (const double *) x->data, (const double *) y->data,
                                 MIN (100000 + samples, x->len), cr, 1000, 600, 1);
              cairo_surface_flush (surface);
              frames++;
            }
          while (now - start < (gint64) (seconds * G_USEC_PER_SEC));
          printf ("live track (%s%s): %.1f frames/s with %u samples (%u added at 100 Hz) over "
                  "%.1f s; first frame %.1f ms, %u drawn whole\n",
                  shape == 0 ? "a rectangular route" : "an ellipse 16 times over",
                  whole ? ", drawn whole every frame" : "",
                  frames / ((now - start) / 1e6), MIN (100000 + samples, x->len), samples,
                  (now - start) / 1e6, first_ms, nb_run_track_get_redraws (track));
          nb_run_track_free (track);
        }
      g_array_unref (x);
      g_array_unref (y);
    }
  nb_run_plot_clear (&plot);
  g_rand_free (rand);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}
