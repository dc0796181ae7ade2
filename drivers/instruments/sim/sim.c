/* sim.c — the simulated tracker (libsigrok's "demo"): the default driver
 *
 * It observes an NbPoseSource (the square-route robot unless told
 * otherwise) at a fixed rate on a virtual clock, with Gaussian noise,
 * latency (a sample arrives latency_s after the instant it measures) and
 * random dropouts, all from one seed, so a run is repeatable.
 * Settings: rate (Hz), noise (m, 1σ), noise-deg (°, 1σ), delay (s, its latency),
 * dropout (probability 0–1), seed, duration (s; 0 runs until stopped),
 * side, speed, dwell (the robot's square), robot (square, or base: the
 * simulated mobile base driving laps of the ISO 18646-2 rectangle of side
 * `side` with its error model, nb-sim-base.h).
 */
#include "nb-driver.h"
#include "sim-robot.h"
#include "nb-sim-base.h"

#include "nb-error.h"
#include "nb-record-words.h"
#include "nb-number.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

typedef struct {
  double rate_hz, noise_m, noise_deg, latency_s, dropout, duration_s;
  guint32 seed;
  NbSimSquare robot;
  gboolean use_base;   /* robot=base */
  NbSimBase base;
  gboolean base_ready;
  NbPoseSource source;
  GRand *rand;
  guint64 next;        /* index of the next measurement instant */
} SimCtx;

static gpointer
sim_open (GError **error)
{
  SimCtx *c = g_new0 (SimCtx, 1);

  c->rate_hz = 50.0;
  c->noise_m = 0.0005;
  c->noise_deg = 0.05;
  c->latency_s = 0.005;
  c->dropout = 0.0;
  c->seed = 1;
  nb_sim_square_init (&c->robot);
  c->source = nb_sim_square_source (&c->robot);
  return c;
}

static gboolean
sim_configure (gpointer ctx, const char *key, const char *value, GError **error)
{
  SimCtx *c = ctx;
  struct { const char *key; double *target; double min, max; } keys[] = {
    { "rate", &c->rate_hz, 0.01, 10000.0 },
    { "noise", &c->noise_m, 0.0, 100.0 },
    { "noise-deg", &c->noise_deg, 0.0, 180.0 },
    { "delay", &c->latency_s, 0.0, 10.0 },
    { "dropout", &c->dropout, 0.0, 1.0 },
    { "duration", &c->duration_s, 0.0, 1e9 },
    { "side", &c->robot.side_m, 0.01, 1000.0 },
    { "speed", &c->robot.speed_mps, 0.001, 100.0 },
    { "dwell", &c->robot.dwell_s, 0.0, 1000.0 },
  };
  double v;

  if (g_str_equal (key, "robot"))
    {
      if (!g_str_equal (value, "square") && !g_str_equal (value, "base"))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "robot '%s': square or base", value);
          return FALSE;
        }
      c->use_base = g_str_equal (value, "base");
      return TRUE;
    }
  if (g_str_equal (key, "seed"))
    {
      guint64 s;

      if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT32, &s, NULL))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "seed '%s' is not 0–4294967295", value);
          return FALSE;
        }
      c->seed = (guint32) s;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (g_str_equal (key, keys[i].key))
      {
        if (!nb_parse_double (value, strlen (value), &v) || v < keys[i].min || v > keys[i].max)
          {
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT, NB_MSG_NOT_NUMBER_IN,
                         key, value, keys[i].min, keys[i].max);
            return FALSE;
          }
        *keys[i].target = v;
        return TRUE;
      }
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, NB_MSG_NO_SETTING_OF, "sim", key,
               "rate noise noise-deg delay dropout seed duration side speed dwell robot");
  return FALSE;
}

void
nb_sim_tracker_watch (gpointer ctx, NbPoseSource source)
{
  SimCtx *c = ctx;

  c->use_base = FALSE;
  c->source = source;
}

static gboolean
sim_start (gpointer ctx, GError **error)
{
  SimCtx *c = ctx;

  g_clear_pointer (&c->rand, g_rand_free);
  c->rand = g_rand_new_with_seed (c->seed);
  c->next = 0;
  if (c->use_base)
    {
      /* The base's whole run, planned up front on its virtual clock: laps of
       * the rectangle P0 → P1 → P2 → P3 → P0, counter-clockwise, with the
       * dwell at each corner; the tracker then samples its ground truth. */
      NbSimBaseModel m;
      double side_mm = c->robot.side_m * 1000.0, horizon = c->duration_s > 0 ? c->duration_s : 3600;
      const double corner[4][3] = { { side_mm, 0, 90 }, { side_mm, side_mm, 180 },
                                    { 0, side_mm, -90 }, { 0, 0, 0 } };

      if (c->base_ready)
        nb_sim_base_clear (&c->base);
      nb_sim_base_model_default (&m);
      m.speed_mm_s = c->robot.speed_mps * 1000.0;
      nb_sim_base_init (&c->base, &m, 0.0, c->seed);
      c->base_ready = TRUE;
      while (c->base.clock_s < horizon)
        for (int k = 0; k < 4; k++)
          {
            nb_sim_base_move_to (&c->base, corner[k][0], corner[k][1], corner[k][2]);
            nb_sim_base_ops ()->wait (&c->base, c->robot.dwell_s);
          }
      c->source = nb_sim_base_source (&c->base);
    }
  return TRUE;
}

static void
sim_stop (gpointer ctx)
{
}

static void
sim_close (gpointer ctx)
{
  SimCtx *c = ctx;

  g_clear_pointer (&c->rand, g_rand_free);
  if (c->base_ready)
    nb_sim_base_clear (&c->base);
  g_free (c);
}

/* Box–Muller from the driver's own generator (no global state). */
static double
gauss (GRand *rand)
{
  double u1 = g_rand_double (rand), u2 = g_rand_double (rand);

  return sqrt (-2.0 * log (1.0 - u1)) * cos (2.0 * G_PI * u2);
}

static gboolean
sim_generate (gpointer ctx, double until_s, const NbSink *sink, GError **error)
{
  SimCtx *c = ctx;

  if (c->rand == NULL)
    sim_start (c, NULL);
  for (;;)
    {
      double t = (double) c->next / c->rate_hz, x, y, th, half;
      NbSample s;

      if (c->duration_s > 0.0 && t > c->duration_s)
        return FALSE;              /* the end, no error */
      if (t + c->latency_s > until_s)
        return TRUE;
      c->next++;
      if (c->dropout > 0.0 && g_rand_double (c->rand) < c->dropout)
        continue;
      c->source.pose_at (c->source.self, t, &x, &y, &th);
      nb_sample_init (&s, "sim");
      s.device_time_s = t;
      s.t_s = t + c->latency_s;    /* arrival, on the virtual clock */
      s.x_m = x + c->noise_m * gauss (c->rand);
      s.y_m = y + c->noise_m * gauss (c->rand);
      s.z_m = c->noise_m * gauss (c->rand);
      th += c->noise_deg * gauss (c->rand);
      half = th * G_PI / 360.0;
      s.has_orientation = TRUE;
      s.qw = cos (half);
      s.qz = sin (half);
      s.heading_deg = th;
      s.fix = NB_FIX_SIMULATED;
      s.tracking = NB_TRACKING_OK;
      s.rms_m = c->noise_m;
      s.target_id = 1;
      g_strlcpy (s.tag, "sim", sizeof s.tag);
      sink->sample (&s, sink->user_data);
    }
}

const NbDriver nb_driver_sim = {
  .name = "sim",
  .summary = N_("simulated tracker observing the simulated robot (noise, rate, latency, dropouts)"),
  .needs_transport = FALSE,
  .open = sim_open,
  .configure = sim_configure,
  .start = sim_start,
  .stop = sim_stop,
  .close = sim_close,
  .generate = sim_generate,
};
