/* nb-traj-error.h — absolute and relative pose error (APE, RPE)
 *
 * Defined as evo defines them (evo/core/metrics.py), so figures compare one
 * to one:
 * - APE of a pair: E = P_est⁻¹·P_ref.
 * - RPE of a pair of indices (i, j): E = (Q_i⁻¹Q_j)⁻¹·(P_i⁻¹P_j), Q the
 *   reference, P the estimate.
 * - relations: trans ‖t(E)‖ (m); rot_part ‖R(E) − I‖_F; full ‖E − I₄‖_F;
 *   angle_rad, angle_deg the rotation angle of E; xy and yaw_deg the planar
 *   ones (evo's --project_to_plane xy): the poses reduced to x, y and the
 *   heading about z, then the translation norm or |heading error|.
 * - statistics: rmse, mean, median (mean of the middle two for even n),
 *   std (population, numpy's np.std), min, max, sse = Σe².
 * Angles come from the relative quaternion (2·atan2(‖v‖, |w|)) and
 * ‖R − I‖_F = 2√2‖v‖, not from acos of a trace, which is imprecise near 0.
 */
#pragma once

#include "nb-traj.h"

G_BEGIN_DECLS

typedef enum {
  NB_REL_TRANS,
  NB_REL_ROT_PART,
  NB_REL_FULL,
  NB_REL_ANGLE_RAD,
  NB_REL_ANGLE_DEG,
  NB_REL_XY,
  NB_REL_YAW_DEG,
} NbRelation;

gboolean    nb_relation_from_string    (const char *text, NbRelation *out);
const char *nb_relation_name           (NbRelation rel);
/* "m", "rad", "deg" or "" (dimensionless). */
const char *nb_relation_unit           (NbRelation rel);
/* A title as evo prints it: "translation part", "rotation angle", … */
const char *nb_relation_title          (NbRelation rel);
gboolean    nb_relation_uses_rotation  (NbRelation rel);

typedef enum { NB_DELTA_FRAMES, NB_DELTA_METRES } NbDeltaUnit;

typedef struct {
  guint i, j;
} NbPosePair;

/* err[k] for the n pairs (ref[k], est[k]). */
void    nb_traj_ape       (const NbTraj *ref, const NbTraj *est, NbRelation rel, double *err);

/* evo's consecutive pairs (all_pairs FALSE): frames: indices 0, δ, 2δ, …
 * paired in turn; metres: the indices where the path travelled since the
 * last one reaches δ (the first such index starts), paired in turn.
 * all_pairs (frames only): (i, i + δ) for every i.  The path is that of
 * traj (evo: the estimate, or the reference with --pairs_from_reference).
 * No pair at all is an NB_ERROR_INPUT error. */
GArray *nb_traj_rpe_pairs (const NbTraj *traj, double delta, NbDeltaUnit unit,
                           gboolean all_pairs, GError **error);
void    nb_traj_rpe       (const NbTraj *ref, const NbTraj *est, const NbPosePair *pairs,
                           guint n_pairs, NbRelation rel, double *err);

typedef struct {
  guint n;
  double rmse, mean, median, std, min, max, sse;
} NbErrorStats;

/* n ≥ 1; linear time (the median by selection, not by sorting). */
void    nb_error_stats    (const double *err, guint n, NbErrorStats *out);

G_END_DECLS
