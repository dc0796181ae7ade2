/* sim-robot.h — a minimal simulated robot pose source for the sim tracker
 *
 * The motion issue brings the real simulated robot; until then the sim
 * tracker observes anything behind NbPoseSource.  NbSimSquare drives a square
 * of side side_m at speed_mps, stopping dwell_s at each corner (the stops
 * are what settle detection looks for), turning on the spot.  (Named for
 * its course: NbSimRobot is the skill-plan robot of nb-sim-skill.h, and
 * both headers go in one file.)
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The true pose at time t (s): position in metres, heading in degrees. */
typedef struct {
  void (*pose_at) (gconstpointer self, double t_s, double *x_m, double *y_m, double *theta_deg);
  gconstpointer self;
} NbPoseSource;

typedef struct {
  double side_m;
  double speed_mps;
  double dwell_s;
} NbSimSquare;

void nb_sim_square_init (NbSimSquare *robot);
void nb_sim_square_pose (const NbSimSquare *robot, double t_s, double *x_m, double *y_m,
                        double *theta_deg);
NbPoseSource nb_sim_square_source (const NbSimSquare *robot);

/* The sim driver's context (nb_driver_sim's open()) watches source instead of
 * its own robot: the campaign runner's simulated base, whose legs are added
 * as the runner sends goals.  source.self must outlive the context. */
void nb_sim_tracker_watch (gpointer sim_ctx, NbPoseSource source);

G_END_DECLS
