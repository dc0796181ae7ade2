/* nb-traj-eval.h — a trajectory's error against its reference, the whole pipeline
 *
 * What `compute ape|rpe` does, as one call the CLI, the desktop app and the
 * tests share: associate the two series in time (nearest stamp within
 * t_max_diff, or the reference interpolated at the estimate's stamps),
 * align the estimate (a fit: se3, se2, sim3, origin; or a given transform),
 * compute the absolute or relative pose error per pose or pair (evo's
 * definitions, nb-traj-error.h) and its statistics.
 */
#pragma once

#include <glib.h>

#include "nb-traj.h"
#include "nb-traj-align.h"
#include "nb-traj-assoc.h"
#include "nb-traj-error.h"

G_BEGIN_DECLS

typedef struct {
  gboolean rpe;                 /* FALSE: APE */
  NbRelation relation;          /* NB_REL_TRANS */
  NbAlignKind align;            /* NB_ALIGN_NONE; NB_ALIGN_GIVEN: transform below */
  NbSim3 transform;             /* the given alignment (align NB_ALIGN_GIVEN) */
  gboolean interpolate;         /* FALSE: the nearest stamp */
  double t_max_diff_s;          /* 0.01 */
  double t_offset_s;            /* 0: added to the estimate's stamps */
  double max_gap_s;             /* 0.25: with interpolate */
  /* RPE: */
  double delta;                 /* 1 */
  NbDeltaUnit delta_unit;       /* frames */
  gboolean all_pairs;
  gboolean pairs_from_reference;
  /* For messages: what the reference and the estimate are called (file names). */
  const char *ref_name, *est_name;
} NbTrajEvalOptions;

void nb_traj_eval_options_init (NbTrajEvalOptions *options);
/* Whether the evaluation reads the orientations: RPE, a relation of the
 * rotation (yaw included), --interpolate (slerp), --align origin.  When not, the
 * tracks may come without them (traj->q NULL, NB_TRAJ_READ_POSITIONS). */
gboolean nb_traj_eval_needs_orientations (const NbTrajEvalOptions *options);

typedef struct {
  NbTraj *ref, *est;            /* as evaluated: associated, the estimate aligned */
  guint n_ref, n_est;           /* poses read */
  NbAssocReport assoc;
  NbSim3 alignment;             /* applied to the estimate (identity with NB_ALIGN_NONE) */
  GArray *pairs;                /* RPE: of NbPosePair; NULL for APE */
  double *err;                  /* per pose (APE) or pair (RPE) */
  guint n_err;
  NbErrorStats stats;
} NbTrajEvaluation;

/* Takes ref and est (freed, also on failure).  NB_ERROR_INPUT naming the
 * track when the relation or alignment needs orientations it lacks, or
 * when association, alignment or the pairs fail. */
NbTrajEvaluation *nb_traj_evaluate           (NbTraj *ref, NbTraj *est,
                                              const NbTrajEvalOptions *options, GError **error);
void              nb_traj_evaluation_free    (NbTrajEvaluation *evaluation);
/* An error per pose of the evaluated estimate (a plot's colours): APE its
 * own; RPE each pair's over the stretch of path it spans; NaN elsewhere. */
double           *nb_traj_evaluation_per_pose (const NbTrajEvaluation *evaluation);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbTrajEvaluation, nb_traj_evaluation_free)

G_END_DECLS
