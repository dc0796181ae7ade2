#include "nb-paced-robot.h"

#include <math.h>

static double
virtual_now (NbPacedRobot *r)
{
  return nb_runner_sim_now (r->sim);
}

/* Sleeps the real time of a virtual span, in slices so that a cancel is
 * heard within 10 ms. */
static void
pace (NbPacedRobot *r, double virtual_s)
{
  gint64 end;

  if (!(r->pace > 0) || !isfinite (r->pace) || !(virtual_s > 0))
    return;
  end = g_get_monotonic_time () + (gint64) (virtual_s / r->pace * G_USEC_PER_SEC);
  while (!g_cancellable_is_cancelled (r->cancellable))
    {
      gint64 left = end - g_get_monotonic_time ();

      if (left <= 0)
        break;
      g_usleep ((gulong) MIN (left, 10 * G_TIME_SPAN_MILLISECOND));
    }
}

static gboolean
paced_move_to_joints (gpointer robot, const double q[NB_ARM_JOINTS], GError **error)
{
  NbPacedRobot *r = robot;
  double t0 = virtual_now (r);
  gboolean ok = r->inner->move_to_joints (r->robot, q, error);

  pace (r, virtual_now (r) - t0);
  return ok;
}

static gboolean
paced_move_to_pose (gpointer robot, const char *frame_id, const double position[3],
                    const double orientation[4], const char *planner, GError **error)
{
  NbPacedRobot *r = robot;
  double t0 = virtual_now (r);
  gboolean ok = r->inner->move_to_pose (r->robot, frame_id, position, orientation, planner, error);

  pace (r, virtual_now (r) - t0);
  return ok;
}

static void
paced_stop (gpointer robot)
{
  NbPacedRobot *r = robot;

  r->inner->stop (r->robot);
}

static void
paced_wait (gpointer robot, double seconds)
{
  NbPacedRobot *r = robot;
  double t0 = virtual_now (r);

  r->inner->wait (r->robot, seconds);
  pace (r, virtual_now (r) - t0);
}

const NbRobotOps *
nb_paced_robot_ops (void)
{
  static const NbRobotOps ops = {
    paced_move_to_joints, paced_move_to_pose, paced_stop, paced_wait,
    /* No interrupt: a paced goal's sleep hears the run's cancellable within
     * 10 ms, and the simulated goal itself never blocks. */
    NULL,
  };

  return &ops;
}
