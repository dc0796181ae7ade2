/* nb-traj-align.h — bringing an estimated trajectory into the reference frame
 *
 * The transform maps estimate coordinates to reference coordinates:
 * p' = s·R·p + t, and orientations q' = q(R)·q.  It is either fitted to the
 * associated positions (Umeyama, "Least-squares estimation of transformation
 * parameters between two point patterns", PAMI 1991 — evo's alignment), taken
 * from the first poses (evo's --align_origin), or given (a surveyed frame
 * registration): a frame that is known must not be best-fitted.
 */
#pragma once

#include "nb-traj.h"

G_BEGIN_DECLS

typedef enum {
  NB_ALIGN_NONE,
  NB_ALIGN_SE3,      /* rotation + translation */
  NB_ALIGN_SE2,      /* rotation about z + translation in x, y (z untouched) */
  NB_ALIGN_SIM3,     /* SE3 and a scale (monocular odometry) */
  NB_ALIGN_ORIGIN,   /* the first estimate pose onto the first reference pose */
  NB_ALIGN_GIVEN,    /* a transform read from a file */
} NbAlignKind;

typedef struct {
  double r[9];       /* row-major rotation */
  double t[3];       /* m */
  double s;          /* scale; 1 unless fitted with NB_ALIGN_SIM3 */
} NbSim3;

#define NB_ALIGN_MIN_POINTS 3

void        nb_sim3_identity      (NbSim3 *x);
gboolean    nb_align_kind_from_string (const char *text, NbAlignKind *out);
const char *nb_align_kind_name    (NbAlignKind kind);

/* The least-squares fit of est onto ref over their paired positions (pair k
 * is (ref[k], est[k])); kind SE3, SE2 or SIM3.  Fewer than 3 pairs, or a
 * point set that leaves the rotation undetermined (all points on one line in
 * 3-D, all on one point), is an NB_ERROR_INPUT error. */
gboolean    nb_traj_umeyama       (const NbTraj *ref, const NbTraj *est, NbAlignKind kind,
                                   NbSim3 *out, GError **error);
/* T = ref[0]·est[0]⁻¹. */
void        nb_traj_origin        (const NbTraj *ref, const NbTraj *est, NbSim3 *out);
/* Applies x to every pose of traj. */
void        nb_traj_transform     (NbTraj *traj, const NbSim3 *x);

/* A rigid transform from text: 3 rows of 3 numbers (planar homogeneous:
 * [R2 t2; 0 0 1], metres) or 4 rows of 4 numbers ([R t; 0 0 0 1], metres),
 * separated by spaces or commas; '#' starts a comment; blank lines are
 * skipped.  R must be a rotation to 1e-6.  Errors name NAME:LINE. */
gboolean    nb_sim3_parse         (const char *name, const char *text, NbSim3 *out,
                                   GError **error);

G_END_DECLS
