/* sim-robot.c — the square-route pose source (see sim-robot.h) */
#include "sim-robot.h"

#include <math.h>

void
nb_sim_square_init (NbSimSquare *robot)
{
  robot->side_m = 2.0;
  robot->speed_mps = 0.5;
  robot->dwell_s = 2.0;
}

void
nb_sim_square_pose (const NbSimSquare *r, double t_s, double *x_m, double *y_m, double *theta_deg)
{
  /* Corners P1..P4 counter-clockwise from the origin; each leg is a dwell
   * at its start corner, then a straight drive to the next. */
  static const double cx[4] = { 0, 1, 1, 0 }, cy[4] = { 0, 0, 1, 1 };
  double drive = r->side_m / r->speed_mps, leg = r->dwell_s + drive;
  double u = fmod (fmax (t_s, 0.0), 4.0 * leg);
  int k = (int) (u / leg) % 4, k1 = (k + 1) % 4;
  double in = u - k * leg, a = in <= r->dwell_s ? 0.0 : (in - r->dwell_s) / drive;

  *x_m = r->side_m * (cx[k] + a * (cx[k1] - cx[k]));
  *y_m = r->side_m * (cy[k] + a * (cy[k1] - cy[k]));
  *theta_deg = 90.0 * k;   /* heading along the leg about to be driven */
}

static void
source_pose_at (gconstpointer self, double t_s, double *x_m, double *y_m, double *theta_deg)
{
  nb_sim_square_pose (self, t_s, x_m, y_m, theta_deg);
}

NbPoseSource
nb_sim_square_source (const NbSimSquare *robot)
{
  return (NbPoseSource) { source_pose_at, robot };
}
