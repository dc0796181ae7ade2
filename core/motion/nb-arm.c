#include "nb-arm.h"

#include "nb-error.h"
#include "nb-traj.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <string.h>

void
nb_arm_joint_range (const NbArmJoint *j, double *lower, double *upper)
{
  if (j->has_soft_limits)
    *lower = j->soft_lower, *upper = j->soft_upper;
  else if (j->has_position_limits)
    *lower = j->min_position, *upper = j->max_position;
  else
    *lower = -INFINITY, *upper = INFINITY;
}

void
nb_arm_tcp_from_origin (const double xyz[3], const double rpy[3], double tcp[16])
{
  double cr = cos (rpy[0]), sr = sin (rpy[0]), cp = cos (rpy[1]), sp = sin (rpy[1]);
  double cy = cos (rpy[2]), sy = sin (rpy[2]);
  const double t[16] = { cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr, xyz[0],
                         sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr, xyz[1],
                         -sp, cp * sr, cp * cr, xyz[2],
                         0, 0, 0, 1 };

  memcpy (tcp, t, sizeof t);
}

void
nb_arm_pose_to_matrix (const double p[3], const double o[4], double T[16])
{
  const double q[4] = { o[3], o[0], o[1], o[2] };     /* nb-traj's (w, x, y, z) */
  double r[9];

  nb_quat_to_matrix (q, r);
  for (int i = 0; i < 3; i++)
    {
      T[4 * i] = r[3 * i], T[4 * i + 1] = r[3 * i + 1], T[4 * i + 2] = r[3 * i + 2];
      T[4 * i + 3] = p[i];
      T[12 + i] = 0.0;
    }
  T[15] = 1.0;
}

void
nb_arm_pose_from_matrix (const double T[16], double p[3], double o[4])
{
  const double r[9] = { T[0], T[1], T[2], T[4], T[5], T[6], T[8], T[9], T[10] };
  double q[4];

  nb_quat_from_matrix (r, q);
  o[0] = q[1], o[1] = q[2], o[2] = q[3], o[3] = q[0];
  p[0] = T[3], p[1] = T[7], p[2] = T[11];
}

gboolean
nb_arm_check_joints (const NbArmModel *m, const double q[NB_ARM_JOINTS], GError **error)
{
  for (int i = 0; i < NB_ARM_JOINTS; i++)
    {
      double lo, hi;

      nb_arm_joint_range (&m->joint[i], &lo, &hi);
      if (!isfinite (q[i]))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %g is not a finite angle",
                       m->joint[i].name, q[i]);
          return FALSE;
        }
      if (q[i] < lo || q[i] > hi)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s: %.6f rad is outside its %s range [%.6f, %.6f] rad",
                       m->joint[i].name, q[i], m->joint[i].has_soft_limits ? "soft" : "",
                       lo, hi);
          return FALSE;
        }
    }
  return TRUE;
}

static void
matmul (const double a[16], const double b[16], double out[16])
{
  double r[16];

  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      {
        double s = 0.0;

        for (int k = 0; k < 4; k++)
          s += a[4 * i + k] * b[4 * k + j];
        r[4 * i + j] = s;
      }
  memcpy (out, r, sizeof r);
}

static void
dh (const NbArmJoint *j, double q, double t[16])
{
  double th = q + j->theta_offset, ct = cos (th), st = sin (th), ca = cos (j->alpha),
         sa = sin (j->alpha);
  const double m[16] = { ct, -st * ca, st * sa, j->a * ct,
                         st, ct * ca, -ct * sa, j->a * st,
                         0, sa, ca, j->d,
                         0, 0, 0, 1 };

  memcpy (t, m, sizeof m);
}

/* base_link → each joint's frame: frames[i] is the frame of joint i's axis
 * (before its rotation), frames[7] the flange. */
static void
chain (const NbArmModel *m, const double q[NB_ARM_JOINTS], double frames[NB_ARM_JOINTS + 1][16])
{
  static const double identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

  memcpy (frames[0], identity, sizeof identity);
  for (int i = 0; i < NB_ARM_JOINTS; i++)
    {
      double t[16];

      dh (&m->joint[i], q[i], t);
      matmul (frames[i], t, frames[i + 1]);
    }
}

void
nb_arm_fk (const NbArmModel *m, const double q[NB_ARM_JOINTS], double pose[16])
{
  double frames[NB_ARM_JOINTS + 1][16];

  chain (m, q, frames);
  matmul (frames[NB_ARM_JOINTS], m->tcp, pose);
}

/* The pose error as a twist: position difference and the rotation vector of
 * R_target · R_currentᵀ (exact, from the axis-angle of the relative rotation). */
static void
pose_error (const double cur[16], const double tgt[16], double e[6])
{
  double r[9], angle, cosang, s;

  e[0] = tgt[3] - cur[3];
  e[1] = tgt[7] - cur[7];
  e[2] = tgt[11] - cur[11];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        double v = 0.0;

        for (int k = 0; k < 3; k++)
          v += tgt[4 * i + k] * cur[4 * j + k];
        r[3 * i + j] = v;
      }
  /* atan2 form: exact near zero, where acos of the trace is not. */
  s = 0.5 * sqrt ((r[7] - r[5]) * (r[7] - r[5]) + (r[2] - r[6]) * (r[2] - r[6]) +
                  (r[3] - r[1]) * (r[3] - r[1]));
  cosang = 0.5 * (r[0] + r[4] + r[8] - 1.0);
  angle = atan2 (s, cosang);
  if (s < 1e-12)
    {
      /* Tiny angle: the vector part itself; near π does not occur in the damped steps used. */
      e[3] = 0.5 * (r[7] - r[5]);
      e[4] = 0.5 * (r[2] - r[6]);
      e[5] = 0.5 * (r[3] - r[1]);
      return;
    }
  e[3] = angle / (2.0 * s) * (r[7] - r[5]);
  e[4] = angle / (2.0 * s) * (r[2] - r[6]);
  e[5] = angle / (2.0 * s) * (r[3] - r[1]);
}

/* The geometric Jacobian at q for the TCP (6 × 7). */
static void
jacobian (const NbArmModel *m, const double q[NB_ARM_JOINTS], gsl_matrix *J, double tcp[16])
{
  double frames[NB_ARM_JOINTS + 1][16];

  chain (m, q, frames);
  matmul (frames[NB_ARM_JOINTS], m->tcp, tcp);
  for (int i = 0; i < NB_ARM_JOINTS; i++)
    {
      /* Joint i rotates about the z axis of frames[i]. */
      double z[3] = { frames[i][2], frames[i][6], frames[i][10] };
      double p[3] = { tcp[3] - frames[i][3], tcp[7] - frames[i][7], tcp[11] - frames[i][11] };

      gsl_matrix_set (J, 0, i, z[1] * p[2] - z[2] * p[1]);
      gsl_matrix_set (J, 1, i, z[2] * p[0] - z[0] * p[2]);
      gsl_matrix_set (J, 2, i, z[0] * p[1] - z[1] * p[0]);
      gsl_matrix_set (J, 3, i, z[0]);
      gsl_matrix_set (J, 4, i, z[1]);
      gsl_matrix_set (J, 5, i, z[2]);
    }
}

gboolean
nb_arm_ik (const NbArmModel *m, const double target[16], const double seed[NB_ARM_JOINTS],
           double q[NB_ARM_JOINTS], GError **error)
{
  const int max_iterations = 500;
  const double max_step = 0.3;  /* rad per joint per iteration */
  gsl_matrix *J = gsl_matrix_alloc (6, NB_ARM_JOINTS);
  gsl_matrix *A = gsl_matrix_alloc (6, 6);
  gsl_permutation *perm = gsl_permutation_alloc (6);
  gsl_vector *e = gsl_vector_alloc (6), *y = gsl_vector_alloc (6);
  gboolean ok = FALSE;
  double tcp[16], err[6];

  memcpy (q, seed, NB_ARM_JOINTS * sizeof (double));
  for (int it = 0; it < max_iterations && !ok; it++)
    {
      int sign;

      jacobian (m, q, J, tcp);
      pose_error (tcp, target, err);
      if (sqrt (err[0] * err[0] + err[1] * err[1] + err[2] * err[2]) < 1e-7 &&
          sqrt (err[3] * err[3] + err[4] * err[4] + err[5] * err[5]) < 1e-6)
        {
          ok = TRUE;
          break;
        }
      /* Δq = Jᵀ (J Jᵀ + λ² I)⁻¹ e: damped least squares.  The damping fades
       * with the error (steady far away and near singularities, Gauss–Newton
       * speed at the end), and a step is at most max_step on any joint. */
      {
        double norm = 0.0, lambda;

        for (int i = 0; i < 6; i++)
          norm += err[i] * err[i];
        lambda = 0.05 * MIN (1.0, sqrt (norm));
        gsl_matrix_set_identity (A);
        gsl_matrix_scale (A, lambda * lambda);
      }
      gsl_blas_dgemm (CblasNoTrans, CblasTrans, 1.0, J, J, 1.0, A);
      for (int i = 0; i < 6; i++)
        gsl_vector_set (e, i, err[i]);
      if (gsl_linalg_LU_decomp (A, perm, &sign) != GSL_SUCCESS ||
          gsl_linalg_LU_solve (A, perm, e, y) != GSL_SUCCESS)
        break;
      {
        double dq[NB_ARM_JOINTS], biggest = 0.0, scale;

        for (int j = 0; j < NB_ARM_JOINTS; j++)
          {
            dq[j] = 0.0;
            for (int i = 0; i < 6; i++)
              dq[j] += gsl_matrix_get (J, i, j) * gsl_vector_get (y, i);
            biggest = MAX (biggest, fabs (dq[j]));
          }
        scale = biggest > max_step ? max_step / biggest : 1.0;
        for (int j = 0; j < NB_ARM_JOINTS; j++)
          {
            double lo, hi;

            nb_arm_joint_range (&m->joint[j], &lo, &hi);
            q[j] = CLAMP (q[j] + scale * dq[j], lo, hi);
          }
      }
    }
  if (!ok)
    g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                 "the pose is unreachable within the joints' ranges (position error %.3g m, "
                 "orientation error %.3g rad after %d iterations)",
                 sqrt (err[0] * err[0] + err[1] * err[1] + err[2] * err[2]),
                 sqrt (err[3] * err[3] + err[4] * err[4] + err[5] * err[5]), max_iterations);
  gsl_matrix_free (J);
  gsl_matrix_free (A);
  gsl_permutation_free (perm);
  gsl_vector_free (e);
  gsl_vector_free (y);
  return ok;
}
