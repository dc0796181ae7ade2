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

#include "nb-course.h"
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
  /* On a course (clauses 7, 9: nb_sim_base_set_course). */
  double speed_noise;           /* σ of the speed of a whole drive, as a fraction of it */
  double detect_mm;             /* it sees an obstacle this far ahead of the obstacle's face */
  double clearance_mm;          /* the distance it plans to keep from an obstacle (7.1) */
  double detour_speed;          /* speed around an obstacle, as a fraction of the rated one */
  double replan_s;              /* the pause to replan when it sees an obstacle in its way */
  double ramp_deg;              /* the angle at which it leaves and rejoins the route */
  double narrow_mm;             /* a passage's gap each side below which it slows down */
  double narrow_min_speed;      /* the slowest it goes in a passage (fraction) */
  /* Its range sensor (clause 6: nb_sim_base_detect). */
  double sensor_range_mm;       /* reach: nothing beyond it is seen */
  double sensor_fov_deg;        /* field of view, centred on the line of sight */
  double range_sigma_mm;        /* σ of a measured range: sigma_mm + sigma_frac · range */
  double range_sigma_frac;
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
  gboolean has_course;          /* a goal at the course's PG drives the course */
  NbCourse course;
  double course_t0;             /* on clock_s: when the course's obstacle starts */
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
/* The test course of clause 7 or 9 (NULL: none) whose obstacle starts
 * moving at t0_s on the base's clock.  A goal at the course's PG then
 * drives it as a navigation stack would: around the obstacle (behaviours
 * 1, 4: a detour keeping model.clearance_mm, after a replan pause where it
 * sees it), or stopping short of a crossing obstacle (behaviours 2, 3)
 * until it has passed; through a passage slowed as its gap narrows (speed
 * × clamp(gap / narrow_mm, narrow_min_speed, 1)).  Every straight leg
 * wanders as model.wander_mm says, so a clearance smaller than the wander
 * ends in contact — found by whoever measures the track, not told. */
void         nb_sim_base_set_course (NbSimBase *base, const NbCourse *course, double t0_s);
/* Clause 6: what the base's range sensor reports of the course's obstacle
 * (a course of kind NB_COURSE_DETECTION) when looking along bearing_deg.
 * Seen only within the field of view and the reach, with the probability
 * 1 − (1 − p_far) · (range / reach)² — p_far the obstacle's detectability
 * at the sensor's reach (a glass wall 0.4, a metal table 0.85, a small
 * cylinder 0.8, a wooden table 0.95, a wooden wall and a large cylinder 1);
 * the range reported is the true one × (1 + bias: a glass wall +1 %, where
 * the beam partly passes) plus Gaussian noise.  FALSE when there is no
 * detection course. */
gboolean     nb_sim_base_detect (NbSimBase *base, double bearing_deg, gboolean *detected,
                                 double *range_mm);
/* One drive along waypoints (x, y mm; speed: the fraction of the rated
 * speed on the way to it; pause_s: the stop there), turning on the spot at
 * each, the last one attained with the model's errors and turned to
 * theta_deg; speed_scale scales the whole drive (the drive's speed noise). */
typedef struct {
  double x_mm, y_mm;
  double speed;
  double pause_s;
} NbSimWaypoint;
void         nb_sim_base_drive_path (NbSimBase *base, const NbSimWaypoint *waypoints, guint n,
                                     double theta_deg, double speed_scale);
/* Ground truth for the simulated tracker (metres, degrees). */
NbPoseSource nb_sim_base_source  (const NbSimBase *base);
/* The sequence runner's view: MoveToPose goals are 2-D poses (x, y in the
 * map frame, the yaw of the quaternion); a joint goal is refused. */
const NbRobotOps *nb_sim_base_ops (void);

G_END_DECLS
