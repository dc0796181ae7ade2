/* nb-traj-assoc.h — pairing an estimated trajectory with its reference in time
 *
 * Both in linear time over series the readers have checked to be strictly
 * increasing:
 *
 * - nearest: evo's association (evo/core/sync.py), reproduced pair for pair.
 *   The shorter series (the estimate when lengths are equal) is walked in
 *   order; each of its stamps takes the nearest stamp of the longer one
 *   (offset applied to the estimate's stamps; on a tie the earlier one) and
 *   the pair is kept when |Δt| ≤ t_max_diff.  As in evo, a pose of the longer
 *   series can partner two stamps of the shorter one; n_reused counts this.
 *   evo searches with argmin per stamp (quadratic); the nearest stamp only
 *   moves forward as the stamps grow, so one merge finds the same pairs.
 * - interpolate: the reference is interpolated at each estimate stamp
 *   (+ offset): position linearly, orientation by slerp.  A stamp outside the
 *   reference's time span, or inside a reference interval longer than
 *   max_gap (+ 1 µs for the rounding of stamps; a gap in the reference), is
 *   dropped.
 *
 * Every pose that is not evaluated is counted, with the reason.
 */
#pragma once

#include "nb-traj.h"

G_BEGIN_DECLS

typedef struct {
  guint before;   /* before the other series' span (less t_max_diff) */
  guint after;    /* after it */
  guint inside;   /* within it: no partner within t_max_diff (a gap, jitter, or a
                   * surplus of samples of the faster series); interpolate: a
                   * reference gap longer than max_gap */
} NbDropCount;

typedef struct {
  gboolean interpolated;
  double t_max_diff_s;   /* nearest */
  double max_gap_s;      /* interpolate */
  double t_offset_s;     /* added to the estimate's stamps */
  guint n_ref, n_est, n_matched;
  NbDropCount est_dropped;   /* estimate poses not evaluated */
  NbDropCount ref_unused;    /* nearest: reference poses no pair uses */
  guint n_reused;            /* nearest: pairs sharing a pose of the longer series */
  double max_abs_dt_s;       /* nearest: the largest |Δt| of a kept pair */
} NbAssocReport;

static inline guint
nb_drop_count_total (const NbDropCount *c)
{
  return c->before + c->after + c->inside;
}

/* On success *ref_out and *est_out hold the n_matched pairs, pair k being
 * (ref_out[k], est_out[k]); no overlap at all is an NB_ERROR_INPUT error. */
gboolean nb_traj_associate   (const NbTraj *ref, const NbTraj *est, double t_max_diff,
                              double t_offset, NbTraj **ref_out, NbTraj **est_out,
                              NbAssocReport *report, GError **error);
/* The same, keeping only the paired poses of ref and est in place (no copy
 * of a million poses): pair k is (ref[k], est[k]) afterwards. */
gboolean nb_traj_associate_in_place (NbTraj *ref, NbTraj *est, double t_max_diff,
                                     double t_offset, NbAssocReport *report, GError **error);
gboolean nb_traj_interpolate (const NbTraj *ref, const NbTraj *est, double max_gap,
                              double t_offset, NbTraj **ref_out, NbTraj **est_out,
                              NbAssocReport *report, GError **error);

G_END_DECLS
