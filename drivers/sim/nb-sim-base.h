/* nb-sim-base.h — the simulated mobile base of ISO 18646-2 tests
 *
 * A differential-drive platform that follows 2-D pose goals at its rated
 * speed (turn on the spot, drive straight, turn to the goal's heading) on a
 * virtual clock, with an error model so that the standard's figures come out
 * realistic: a systematic end-pose bias (→ Ap, Ao), a random end-pose scatter
 * (→ Rp, Ro), a lateral wander along each straight leg (→ path deviation d_i)
 * and a load effect that scales the errors.  Its ground truth at any time is
 * an NbPoseSource, which the simulated tracker observes.
 */
#pragma once

#include <glib.h>

#include "nb-sequence.h"
#include "sim-robot.h"

G_BEGIN_DECLS

typedef struct {
  double speed_mm_s;            /* rated speed */
  double turn_deg_s;
  double bias_mm[2];            /* systematic end-position error, in the goal's frame (along, left) */
  double bias_deg;              /* systematic heading error */
  double scatter_mm;            /* σ of the end position, each axis */
  double scatter_deg;           /* σ of the end heading */
  double wander_mm;             /* amplitude of the lateral wander along a leg (random sign, phase) */
  double load_factor;           /* errors × (1 + load_factor · load / rated load) */
  double rated_load_kg;
} NbSimBaseModel;

typedef struct {
  double t0_s, t1_s;            /* the leg's time span */
  double x0, y0, x1, y1;        /* mm */
  double th0, th1;              /* deg: heading at the start and the end of the span */
  double wander_mm;             /* lateral wander of a straight leg (half a sine) */
  gboolean straight;
} NbSimBaseLeg;

typedef struct {
  NbSimBaseModel model;
  double load_kg;
  double clock_s;
  double x_mm, y_mm, theta_deg; /* the true pose now */
  GArray *legs;                 /* of NbSimBaseLeg: the whole history, for pose_at */
  GRand *rand;
  guint goals, stops;           /* what the runner sent */
  guint fail_goal;              /* 1-based goal to fail (injected); 0: none */
} NbSimBase;

void         nb_sim_base_model_default (NbSimBaseModel *model);
void         nb_sim_base_init    (NbSimBase *base, const NbSimBaseModel *model, double load_kg,
                                  guint32 seed);
void         nb_sim_base_clear   (NbSimBase *base);
/* Puts the robot at a pose (a new trial starts at P0), with no motion. */
void         nb_sim_base_place   (NbSimBase *base, double x_mm, double y_mm, double theta_deg);
/* Drives to the goal; the attained pose carries the model's errors. */
void         nb_sim_base_move_to (NbSimBase *base, double x_mm, double y_mm, double theta_deg);
void         nb_sim_base_pose_at (const NbSimBase *base, double t_s, double *x_mm, double *y_mm,
                                  double *theta_deg);
/* Ground truth for the simulated tracker (metres, degrees). */
NbPoseSource nb_sim_base_source  (const NbSimBase *base);
/* The sequence runner's view: MoveToPose goals are 2-D poses (x, y in the
 * map frame, the yaw of the quaternion); a joint goal is refused. */
const NbRobotOps *nb_sim_base_ops (void);

G_END_DECLS
