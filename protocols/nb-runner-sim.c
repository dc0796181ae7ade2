/* nb-runner-sim.c — the simulated rig (see nb-runner-sim.h) */
#include "nb-runner-sim.h"

#include "nb-angle.h"
#include "nb-error.h"
#include "sim-robot.h"

#include <math.h>
#include <string.h>

struct _NbRunnerSim {
  NbSimBase base;
  NbRunnerSimOptions o;
  double frame_yaw_deg;
  NbDevice *device;
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
  return nb_device_configure (sim->device, key, text, error);
}

static double
base_clock (gpointer p)
{
  return ((NbRunnerSim *) p)->base.clock_s;
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
  if ((sim->device = nb_device_new ("sim", error)) == NULL)
    return NULL;
  /* The tracker's latency is 0: its samples are stamped with the instant
   * they measure, as NbDevice's latency correction would leave them. */
  if (!configure (sim, "rate", o->rate_hz, error) || !configure (sim, "noise", o->noise_m, error) ||
      !configure (sim, "noise-deg", o->noise_deg, error) || !configure (sim, "delay", 0.0, error) ||
      !nb_device_configure (sim->device, "seed", seed, error))
    return NULL;
  nb_sim_tracker_watch (nb_device_context (sim->device), (NbPoseSource) { watched_pose, sim });
  nb_device_set_clock (sim->device, base_clock, sim);
  if (!nb_device_start (sim->device, error))
    return NULL;
  return g_steal_pointer (&sim);
}

void
nb_runner_sim_free (NbRunnerSim *sim)
{
  if (sim == NULL)
    return;
  g_clear_pointer (&sim->device, nb_device_free);
  nb_sim_base_clear (&sim->base);
  g_free (sim);
}

NbSimBase *
nb_runner_sim_base (NbRunnerSim *sim)
{
  return &sim->base;
}

NbDevice *
nb_runner_sim_device (NbRunnerSim *sim)
{
  return sim->device;
}

double
nb_runner_sim_now (NbRunnerSim *sim)
{
  return sim->base.clock_s;
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

const NbRunnerRigOps *
nb_runner_sim_rig_ops (void)
{
  static const NbRunnerRigOps ops = { sim_set_load, sim_set_course, sim_detect };

  return &ops;
}

void
nb_runner_sim_rig (NbRunnerSim *sim, NbRunnerRig *rig)
{
  rig->robot_ops = nb_sim_base_ops ();
  rig->robot = &sim->base;
  rig->device = sim->device;
  rig->rig_ops = nb_runner_sim_rig_ops ();
  rig->rig = sim;
}
