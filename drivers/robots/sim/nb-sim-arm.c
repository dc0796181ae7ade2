#include "nb-sim-arm.h"

#include "nb-error.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

void
nb_sim_arm_init (NbSimArm *arm, const NbArmModel *model, guint32 seed)
{
  memset (arm, 0, sizeof *arm);
  arm->model = *model;
  arm->default_frame = g_strdup ("base_link");
  arm->rand = g_rand_new_with_seed (seed);
  arm->noise_rad = 2e-5;
  arm->backlash_rad = 1e-5;
  arm->slow_factor = 1.0;
  arm->goal_timeout_s = 60.0;
  arm->truth = *model;
}

void
nb_sim_arm_set_errors (NbSimArm *arm)
{
  arm->truth = arm->model;
  for (int i = 0; i < NB_ARM_JOINTS; i++)
    arm->truth.joint[i].d += arm->link_error_m[i];
}

void
nb_sim_arm_true_pose (const NbSimArm *arm, const double q[NB_ARM_JOINTS], double pose[16])
{
  double qt[NB_ARM_JOINTS];

  for (int i = 0; i < NB_ARM_JOINTS; i++)
    {
      qt[i] = q[i] + arm->joint_offset_rad[i];
      if (arm->drift_tau_s > 0)
        qt[i] += arm->drift_rad[i] * -expm1 (-arm->clock_s / arm->drift_tau_s);
    }
  nb_arm_fk (&arm->truth, qt, pose);
  if (arm->payload_kg > 0 || arm->tcp_force_n[0] != 0 || arm->tcp_force_n[1] != 0 ||
      arm->tcp_force_n[2] != 0)
    {
      /* The load at the TCP: τ_j = F·∂p/∂q_j with F = (0, 0, −m·g) + the
       * external force, ∂p/∂q_j by a forward difference; the joints give
       * way by c_j·τ_j. */
      const double h = 1e-7;
      const double F[3] = { arm->tcp_force_n[0], arm->tcp_force_n[1],
                            arm->tcp_force_n[2] - arm->payload_kg * 9.80665 };
      double qd[NB_ARM_JOINTS], T[16];

      memcpy (qd, qt, sizeof qd);
      for (int i = 0; i < NB_ARM_JOINTS; i++)
        {
          double tau;

          if (arm->compliance_rad_per_nm[i] == 0)
            continue;
          qt[i] += h;
          nb_arm_fk (&arm->truth, qt, T);
          qt[i] -= h;
          tau = (F[0] * (T[3] - pose[3]) + F[1] * (T[7] - pose[7]) + F[2] * (T[11] - pose[11])) / h;
          qd[i] += arm->compliance_rad_per_nm[i] * tau;
        }
      nb_arm_fk (&arm->truth, qd, pose);
    }
}

void
nb_sim_arm_set_tcp (NbSimArm *arm, const double xyz[3], const double rpy[3])
{
  nb_arm_tcp_from_origin (xyz, rpy, arm->model.tcp);
  memcpy (arm->truth.tcp, arm->model.tcp, sizeof arm->truth.tcp);
}

void
nb_sim_arm_clear (NbSimArm *arm)
{
  g_clear_pointer (&arm->rand, g_rand_free);
  g_clear_pointer (&arm->default_frame, g_free);
  g_clear_pointer (&arm->last_frame, g_free);
}

static void
advance_from (NbSimArm *arm, const double q0[NB_ARM_JOINTS], double seconds)
{
  if (arm->on_advance != NULL && seconds > 0)
    arm->on_advance (arm->on_advance_data, arm->clock_s, q0, arm->clock_s + seconds, arm->q);
  arm->clock_s += seconds;
  if (arm->real_time && seconds > 0)
    g_usleep ((gulong) (seconds * 1e6));
}

/* The joints as a second-order servo following the ramp q0 → target over
 * ramp_s, then held at target for dwell_s: ẍ = ω²(r − x) − 2ζω·ẋ, integrated
 * semi-implicitly in 0.1 ms steps and reported every millisecond.  The arm
 * ends where the servo is (still ringing if the dwell is short). */
static void
servo_move (NbSimArm *arm, const double q0[NB_ARM_JOINTS], const double target[NB_ARM_JOINTS],
            double ramp_s, double dwell_s)
{
  const double h = 1e-4, w = arm->settle_omega_rad_s, z = arm->settle_zeta;
  const int per_report = 10;
  double x[NB_ARM_JOINTS], v[NB_ARM_JOINTS], last[NB_ARM_JOINTS], t = 0.0, total = ramp_s + dwell_s;
  int steps = (int) ceil (total / h);

  memcpy (x, q0, sizeof x);
  memset (v, 0, sizeof v);
  memcpy (last, x, sizeof last);
  for (int k = 1; k <= steps; k++)
    {
      t = k * h;
      for (int i = 0; i < NB_ARM_JOINTS; i++)
        {
          double r = ramp_s > 0 && t < ramp_s ? q0[i] + (target[i] - q0[i]) * t / ramp_s
                                              : target[i];

          v[i] += h * (w * w * (r - x[i]) - 2.0 * z * w * v[i]);
          x[i] += h * v[i];
        }
      if (k % per_report == 0 || k == steps)
        {
          double dt = k % per_report == 0 ? per_report * h : (k % per_report) * h;

          memcpy (arm->q, x, sizeof x);
          advance_from (arm, last, dt);
          memcpy (last, x, sizeof last);
        }
    }
}

/* Time passes with the arm standing still. */
static void
advance (NbSimArm *arm, double seconds)
{
  advance_from (arm, arm->q, seconds);
}

static gboolean
move_to_joints (gpointer robot, const double target[NB_ARM_JOINTS], GError **error)
{
  NbSimArm *arm = robot;
  double duration = 0.0, q0[NB_ARM_JOINTS];

  arm->goals++;
  if (arm->fail_goal != 0 && arm->goals == arm->fail_goal)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "goal %u aborted by the controller (injected)",
                   arm->goals);
      return FALSE;
    }
  /* seeds/002: a goal outside the soft range is refused before any motion. */
  if (!nb_arm_check_joints (&arm->model, target, error))
    return FALSE;
  if (arm->stall_goal != 0 && arm->goals == arm->stall_goal)
    {
      /* The controller never answers: the goal's wait runs out. */
      advance (arm, arm->goal_timeout_s);
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                   "goal %u: no result within %.0f s (the arm stalled, injected)", arm->goals,
                   arm->goal_timeout_s);
      return FALSE;
    }
  memcpy (q0, arm->q, sizeof q0);
  for (int i = 0; i < NB_ARM_JOINTS; i++)
    {
      const NbArmJoint *j = &arm->model.joint[i];
      double delta = target[i] - arm->q[i];
      /* A joint sent where it already is (to within the servo's residual
       * ring, ~1e-9 rad) does not move, so it does not reverse. */
      double dir = delta > 1e-9 ? 1.0 : delta < -1e-9 ? -1.0 : 0.0;

      if (j->has_velocity_limits && j->max_velocity > 0)
        duration = MAX (duration, fabs (delta) / j->max_velocity);
      /* A reversal loses the backlash; the servo settles with some noise. */
      arm->q[i] = target[i] + g_rand_double_range (arm->rand, -1, 1) * arm->noise_rad * sqrt (3.0)
                  - (dir != 0 && dir != arm->last_dir[i] ? dir * arm->backlash_rad : 0.0);
      if (dir != 0)
        arm->last_dir[i] = dir;
    }
  if (arm->settle_omega_rad_s > 0)
    {
      double target_q[NB_ARM_JOINTS];

      memcpy (target_q, arm->q, sizeof target_q);
      memcpy (arm->q, q0, sizeof q0);
      servo_move (arm, q0, target_q, duration * arm->slow_factor / (1 + arm->speed_error),
                  arm->settle_dwell_s);
      return TRUE;
    }
  advance_from (arm, q0, duration * arm->slow_factor / (1 + arm->speed_error));
  return TRUE;
}

static gboolean
move_to_pose (gpointer robot, const char *frame_id, const double position[3],
              const double o[4], const char *planner, GError **error)
{
  NbSimArm *arm = robot;
  double T[16], q[NB_ARM_JOINTS];
  const char *frame = frame_id && *frame_id ? frame_id : arm->default_frame;

  nb_arm_pose_to_matrix (position, o, T);
  g_free (arm->last_frame);
  arm->last_frame = g_strdup (frame);
  /* The simulated cell knows one frame; an unknown frame fails the goal. */
  if (!g_str_equal (frame, "base_link"))
    {
      arm->goals++;
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "frame '%s' is not known to the simulator",
                   frame);
      return FALSE;
    }
  if (!nb_arm_ik (&arm->model, T, arm->q, q, error))
    {
      arm->goals++;
      return FALSE;
    }
  return move_to_joints (robot, q, error);
}

static void
stop (gpointer robot)
{
  ((NbSimArm *) robot)->stops++;
}

static void
wait_s (gpointer robot, double seconds)
{
  advance (robot, seconds);
}

const NbRobotOps *
nb_sim_arm_ops (void)
{
  static const NbRobotOps ops = { move_to_joints, move_to_pose, stop, wait_s };

  return &ops;
}
