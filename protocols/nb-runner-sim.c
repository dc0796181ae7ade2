/* nb-runner-sim.c — the simulated rig (see nb-runner-sim.h) */
#include "nb-runner-sim.h"

#include "nb-angle.h"
#include "nb-driver.h"
#include "nb-error.h"
#include "sim-robot.h"

#include <math.h>
#include <string.h>

struct _NbRunnerSim {
  NbSimBase base;
  NbRunnerSimOptions o;
  double frame_yaw_deg;
  const NbDriver *driver;
  gpointer ctx;
  NbRunnerSampleFunc func;      /* during collect */
  gpointer func_data;
};

void
nb_runner_sim_options_init (NbRunnerSimOptions *o)
{
  memset (o, 0, sizeof *o);
  nb_sim_base_model_default (&o->model);
  o->seed = 1;
  o->rate_hz = 50.0;
  o->noise_m = 0.0002;
  o->noise_deg = 0.02;
}

/* What the tracker sees: the base's ground truth in the instrument frame. */
static void
watched_pose (gconstpointer self, double t, double *x_m, double *y_m, double *th)
{
  const NbRunnerSim *sim = self;
  double x, y, in[3], out[3];

  nb_sim_base_pose_at (&sim->base, t, &x, &y, th);
  *x_m = x / 1000.0, *y_m = y / 1000.0;
  if (!sim->o.has_frame)
    return;
  in[0] = *x_m, in[1] = *y_m, in[2] = 0.0;
  nb_rigid_apply (&sim->o.frame, in, out);
  *x_m = out[0], *y_m = out[1];
  *th = nb_angle_recast_deg (*th + sim->frame_yaw_deg);
}

static gboolean
configure (NbRunnerSim *sim, const char *key, double value, GError **error)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_dtostr (text, sizeof text, value);
  return sim->driver->configure (sim->ctx, key, text, error);
}

NbRunnerSim *
nb_runner_sim_new (const NbRunnerSimOptions *o, GError **error)
{
  g_autoptr (NbRunnerSim) sim = g_new0 (NbRunnerSim, 1);
  g_autofree char *seed = g_strdup_printf ("%u", o->seed + 1u);

  sim->o = *o;
  nb_sim_base_init (&sim->base, &o->model, 0.0, o->seed);
  if (o->has_frame)
    sim->frame_yaw_deg = nb_rigid_yaw_deg (&o->frame);
  if ((sim->driver = nb_driver_find ("sim")) == NULL ||
      (sim->ctx = sim->driver->open (error)) == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "the sim driver is not built in");
      return NULL;
    }
  /* The tracker's latency is 0: its samples are stamped with the instant
   * they measure, as NbDevice's latency correction would leave them. */
  if (!configure (sim, "rate", o->rate_hz, error) || !configure (sim, "noise", o->noise_m, error) ||
      !configure (sim, "noise-deg", o->noise_deg, error) || !configure (sim, "delay", 0.0, error) ||
      !sim->driver->configure (sim->ctx, "seed", seed, error))
    return NULL;
  nb_sim_tracker_watch (sim->ctx, (NbPoseSource) { watched_pose, sim });
  if (!sim->driver->start (sim->ctx, error))
    return NULL;
  return g_steal_pointer (&sim);
}

void
nb_runner_sim_free (NbRunnerSim *sim)
{
  if (sim == NULL)
    return;
  if (sim->ctx != NULL)
    {
      sim->driver->stop (sim->ctx);
      sim->driver->close (sim->ctx);
    }
  nb_sim_base_clear (&sim->base);
  g_free (sim);
}

NbSimBase *
nb_runner_sim_base (NbRunnerSim *sim)
{
  return &sim->base;
}

static double
sim_now (gpointer p)
{
  return ((NbRunnerSim *) p)->base.clock_s;
}

static void
on_sample (const NbSample *s, gpointer p)
{
  NbRunnerSim *sim = p;

  sim->func (s, sim->func_data);
}

static gboolean
sim_collect (gpointer p, double until_s, NbRunnerSampleFunc func, gpointer data,
             GCancellable *cancellable, GError **error)
{
  NbRunnerSim *sim = p;
  NbSink sink = { on_sample, NULL, sim };
  gboolean more;

  sim->func = func;
  sim->func_data = data;
  more = sim->driver->generate (sim->ctx, until_s, &sink, error);
  sim->func = NULL;
  if (!more && error != NULL && *error == NULL)
    g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "the simulated tracker stopped");
  return more;
}

static void
sim_set_load (gpointer p, double load_kg)
{
  ((NbRunnerSim *) p)->base.load_kg = load_kg;
}

/* The rig places the obstacle and releases it with the robot's goal. */
static void
sim_set_course (gpointer p, const NbCourse *course, double t0_s)
{
  nb_sim_base_set_course (&((NbRunnerSim *) p)->base, course, t0_s);
}

/* The robot's report: the base's range sensor. */
static gboolean
sim_detect (gpointer p, double bearing, gboolean *detected, double *measured_mm, GError **error)
{
  if (!nb_sim_base_detect (&((NbRunnerSim *) p)->base, bearing, detected, measured_mm))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "no obstacle is placed for the sensor");
      return FALSE;
    }
  return TRUE;
}

const NbRunnerInstrumentOps *
nb_runner_sim_instrument_ops (void)
{
  static const NbRunnerInstrumentOps ops = { sim_now, sim_collect, sim_set_load, sim_set_course,
                                             sim_detect };

  return &ops;
}
