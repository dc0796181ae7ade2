/* nb-traj.h — a timed trajectory of poses, and the quaternion arithmetic on it
 *
 * Struct of arrays, so a million poses are three flat blocks: stamps in
 * seconds, positions in metres (x, y, z), orientations as unit quaternions
 * (w, x, y, z — the Hamilton convention; TUM files store qx qy qz qw and are
 * reordered by their reader).  Units are SI here; a reader of mm converts at
 * its boundary.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint n, cap;
  double *t;                 /* s, strictly increasing (the readers check) */
  double *p;                 /* 3n: m */
  double *q;                 /* 4n: w, x, y, z, unit norm; NULL when the reader was
                              * asked for positions only (NB_TRAJ_READ_POSITIONS: the
                              * orientations were read and checked, not kept) */
  gboolean has_orientation;  /* FALSE: q is identity, read from a position-only track */
} NbTraj;

NbTraj *nb_traj_new    (guint capacity);
void    nb_traj_free   (NbTraj *traj);
/* q is ignored when traj->q is NULL (a track kept without orientations). */
void    nb_traj_append (NbTraj *traj, double t, const double p[3], const double q[4]);
/* Drops the orientation arrays (traj->q becomes NULL): what is evaluated
 * from positions alone needs half the memory (issue 20). */
void    nb_traj_drop_orientations (NbTraj *traj);

/* Quaternion norm checks for inputs: the worst deviation |‖q‖ − 1| that is
 * silently normalised, and the one beyond which an input is refused. */
#define NB_QUAT_NORM_WARN   1e-6
#define NB_QUAT_NORM_REFUSE 1e-2

/* Sets *norm = ‖q‖ and *dev = |‖q‖ − 1|; FALSE when dev exceeds
 * NB_QUAT_NORM_REFUSE or q is not finite (the input is refused). */
gboolean nb_quat_check (const double q[4], double *norm, double *dev);
/* nb_quat_check, then q /= ‖q‖ in place; FALSE (q untouched) when refused. */
gboolean nb_quat_normalise_checked (double q[4], double *dev);
/* TRUE when |‖q‖ − 1| is surely within NB_QUAT_NORM_WARN, without the
 * square root: |‖q‖² − 1| < 1.9·w puts ‖q‖ within 0.95·w + (1.9·w)²/8 of 1
 * (w = 1e-6; the roundings are 1e-16).  A shortcut for a quaternion read and
 * not kept: what it does not settle (FALSE, NaN included), nb_quat_check
 * decides. */
static inline gboolean
nb_quat_surely_unit (const double q[4])
{
  double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];

  return n2 > 1.0 - 1.9 * NB_QUAT_NORM_WARN && n2 < 1.0 + 1.9 * NB_QUAT_NORM_WARN;
}

/* The rotation the unit quaternions stand for, in the forms the metrics need.
 * All take and give (w, x, y, z). */
void   nb_quat_mul        (const double a[4], const double b[4], double out[4]);
void   nb_quat_conj       (const double q[4], double out[4]);
/* out = R(q)·v; out may be v. */
void   nb_quat_rotate     (const double q[4], const double v[3], double out[3]);
/* The angle of the rotation in [0, π]: 2·atan2(‖v‖, |w|), exact near zero
 * where acos((tr R − 1)/2) loses half the digits. */
double nb_quat_angle      (const double q[4]);
/* The heading about z (Z-Y-X Euler yaw) in (−π, π]. */
double nb_quat_yaw        (const double q[4]);
/* Spherical interpolation from a (s = 0) to b (s = 1) along the shorter arc. */
void   nb_quat_slerp      (const double a[4], const double b[4], double s, double out[4]);
/* Row-major 3×3 rotation matrix ↔ unit quaternion (w ≥ 0 from the matrix). */
void   nb_quat_to_matrix  (const double q[4], double r[9]);
void   nb_quat_from_matrix (const double r[9], double q[4]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbTraj, nb_traj_free)

G_END_DECLS
