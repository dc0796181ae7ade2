/* nb-runner-sim.c — the simulated rig (see nb-runner-sim.h) */
#include "nb-runner-sim.h"

#include "nb-angle.h"
#include "nb-error.h"
#include "nb-map-file.h"
#include "nb-map-gen.h"
#include "sim-robot.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

/* The mapping model (nb-runner-sim.h). */
#define MAP_SHIFT_SIGMA_MM 10.0
#define MAP_TURN_SIGMA_DEG 0.2
#define MAP_SCALE_SIGMA 0.001
#define MAP_NOISE_CELLS 0.3
#define MAP_COVERAGE_M2_S 0.25
#define MAP_TIME_SIGMA 0.05
#define MAP_SHADOW_OFFSET_MM 180.0

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

/* 10.2: the arena as the simulated test area lays it out. */
static void
sim_arena (gpointer p, double lu_mm, double truth_mm[4][2])
{
  /* P0 (1 LU, 1 LU) facing along the first wall: the layout always exists. */
  nb_arena_corners (lu_mm, 1.0, 1.0, 0.0, truth_mm, NULL);
}

static double
gauss (GRand *rand)
{
  /* Box–Muller on the seeded generator: reproducible across platforms. */
  double u1 = g_rand_double (rand), u2 = g_rand_double (rand);

  return sqrt (-2.0 * log (1.0 - u1)) * cos (2.0 * G_PI * u2);
}

/* The robot's map of trial `trial`: the model's errors drawn from (seed,
 * trial), the map written where the operator would find it. */
static gboolean
sim_build_map (gpointer p, double lu_mm, guint trial, const char *dir, const char *name,
               char **yaml_path, double *build_time_s, GError **error)
{
  NbRunnerSim *sim = p;
  g_autoptr (GRand) rand = g_rand_new_with_seed (sim->o.seed * 1000003u + trial);
  g_autoptr (NbMap) map = NULL;
  double corners[4][2], lu_m = lu_mm / 1000.0;
  NbMapGenOptions g;

  nb_map_gen_options_init (&g);
  g.lu_mm = lu_mm;
  g.tx_mm = MAP_SHIFT_SIGMA_MM * gauss (rand);
  g.ty_mm = MAP_SHIFT_SIGMA_MM * gauss (rand);
  g.rotation_deg = MAP_TURN_SIGMA_DEG * gauss (rand);
  g.scale = 1.0 + MAP_SCALE_SIGMA * gauss (rand);
  g.noise_cells = MAP_NOISE_CELLS;
  g.seed = g_rand_int (rand);
  if (trial >= 1 && trial <= 32 && (sim->o.map_shadow_trials & (1u << (trial - 1))) != 0)
    {
      g.shadow = TRUE;
      g.shadow_wall = 0;
      g.shadow_offset_mm = MAP_SHADOW_OFFSET_MM;
      g.shadow_from = 0.2;
      g.shadow_to = 0.7;
    }
  *build_time_s = 49.0 * lu_m * lu_m / MAP_COVERAGE_M2_S * (1.0 + MAP_TIME_SIGMA * gauss (rand));
  if ((map = nb_map_generate (&g, corners, error)) == NULL)
    return FALSE;
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", dir, g_strerror (errno));
      return FALSE;
    }
  if (!nb_map_write (map, dir, name, NB_MAP_IMAGE_PGM, error))
    return FALSE;
  *yaml_path = g_strdup_printf ("%s/%s.yaml", dir, name);
  return TRUE;
}

const NbRunnerRigOps *
nb_runner_sim_rig_ops (void)
{
  static const NbRunnerRigOps ops = { sim_set_load, sim_set_course, sim_detect, sim_arena,
                                      sim_build_map };

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
  rig->prompts = NULL;          /* the simulation answers */
}
