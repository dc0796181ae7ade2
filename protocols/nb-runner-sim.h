/* nb-runner-sim.h — the simulated rig for the campaign runner: the simulated
 * mobile base watched by the simulated tracker
 *
 * The robot is an NbSimBase (drivers/sim/nb-sim-base.h, driven through
 * nb_sim_base_ops); the instrument is an NbDevice of the `sim` driver
 * (drivers/sim/sim.c) — the same device object `acquire` and a live
 * instrument use — watching the base's ground truth.  Both run on the
 * base's virtual clock (nb_device_set_clock): a goal advances it by the
 * travel time, a wait by the wait, and the device generates its samples up
 * to it — 30 trials take milliseconds.  The rig's fixtures (the load, the
 * obstacle's course, the base's range sensor) are NbRunnerRigOps.  The tracker sees the base through an optional instrument
 * frame (instrument = frame · test area), so a stored registration that is
 * that frame's inverse maps its samples back to the test area.
 *
 * Clause 10: the arena is laid out with P0 at (1 LU, 1 LU) from A_1, facing
 * along the first wall (nb_arena_corners); the robot's map of trial k is
 * nb_map_generate's arena with the errors of the mapping model drawn from
 * (seed, k) — a shift of σ 10 mm each way, a turn of σ 0.2°, a scale error
 * of σ 0.1 %, rough walls (σ 0.3 cell), 50 mm cells — and its build time
 * (decided) the arena's 49 LU² covered at 0.25 m²/s, ±5 % (σ).
 */
#pragma once

#include <glib.h>

#include "nb-campaign-runner.h"
#include "nb-register.h"
#include "nb-sim-base.h"

G_BEGIN_DECLS

/* What the simulated base's manufacturer declares for clause 6 (6.3): the
 * ranges its sensor (nb_sim_base_model_default: 5 m reach) is tested at. */
#define NB_RUNNER_SIM_MIN_RANGE_MM 300.0
#define NB_RUNNER_SIM_MAX_RANGE_MM 4000.0

typedef struct {
  NbSimBaseModel model;         /* nb_sim_base_model_default by _init */
  guint32 seed;                 /* the base's; the tracker's is seed + 1 */
  double rate_hz;               /* tracker rate: 50 */
  double noise_m;               /* tracker noise (1σ): 0.2 mm, a total station's */
  double noise_deg;             /* 0.02° */
  gboolean has_frame;
  NbRigidTransform frame;       /* test area (m) → instrument (m), 2-D */
  /* Clause 10, the mapping model: the maps of trials whose bit (1 << (trial
   * − 1)) is set show a wall seen twice, 180 mm inside wall 1 — a shadow
   * beyond any accepted range a lab would state (a fault to test with). */
  guint32 map_shadow_trials;
} NbRunnerSimOptions;

void nb_runner_sim_options_init (NbRunnerSimOptions *options);

typedef struct _NbRunnerSim NbRunnerSim;

NbRunnerSim *nb_runner_sim_new  (const NbRunnerSimOptions *options, GError **error);
void         nb_runner_sim_free (NbRunnerSim *sim);
/* The robot: pass with nb_sim_base_ops ().  Its fail_goal injects a fault. */
NbSimBase   *nb_runner_sim_base (NbRunnerSim *sim);
/* The instrument, started, on the base's clock. */
NbDevice    *nb_runner_sim_device (NbRunnerSim *sim);
/* The fixtures: pass with sim itself. */
const NbRunnerRigOps *nb_runner_sim_rig_ops (void);
/* The whole rig for nb_campaign_runner_new: the base (nb_sim_base_ops),
 * the device, the fixtures. */
void         nb_runner_sim_rig (NbRunnerSim *sim, NbRunnerRig *rig);
/* The virtual clock now (s). */
double       nb_runner_sim_now (NbRunnerSim *sim);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbRunnerSim, nb_runner_sim_free)

G_END_DECLS
