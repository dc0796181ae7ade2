/* nb-segmentation.h — trials found in an instrument's stream (a robot the bench
 * does not command)
 *
 * Most labs let the robot run its own task program while the bench
 * measures.  Then nobody tells the bench when a trial starts or ends: it
 * finds them in the track.  A trial starts when the robot leaves P0 — it
 * was settled (nb-settle.h) within start_radius_m of P0 and then a sample
 * lies farther than motion_m from that rest pose — and ends at its arrival:
 * the first settled window, after it left, whose mean lies within
 * target_radius_m of the target (ISO 18646-2 5.2: the attained pose is the
 * settled window's mean; 7, 8, 9: the track is from leaving P0 to that
 * arrival).  A rest away from the target (a pause mid-route, a corner of the
 * rectangle) is not an arrival: the search goes on after it.
 *
 * Pure over a sorted sample array: a live run calls nb_segmentation_find on what
 * it has so far and waits for more while the state is short of ARRIVED; an
 * import calls it trial after trial, each from where the last ended.
 * Samples in metres in the test-area frame.
 */
#pragma once

#include "nb-sample.h"
#include "nb-settle.h"

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  double p0_m[2];             /* where trials start */
  double target_m[2];         /* where they end */
  double start_radius_m;      /* settled within this of P0: ready */
  double target_radius_m;     /* settled within this of the target: arrived */
  double motion_m;            /* farther than this from the rest pose: left P0 */
  NbSettleParams settle;      /* what "settled" is (window, tolerance, samples) */
} NbSegmentationParams;

/* Radii of 0.5 m, motion 0.05 m (decided: far above any instrument's noise,
 * far below a 5 LU leg), settle as nb_settle_params_init with a 0.5 s
 * window and 5 mm, 1° tolerance (a GNSS rover's RTK noise). */
void nb_segmentation_params_init (NbSegmentationParams *params);

typedef enum {
  NB_SEGMENTATION_WAITING,         /* not yet settled at P0 */
  NB_SEGMENTATION_READY,           /* settled at P0, not moving */
  NB_SEGMENTATION_MOVING,          /* left P0, not yet arrived */
  NB_SEGMENTATION_ARRIVED,         /* settled at the target: the trial is whole */
} NbSegmentationState;

typedef struct {
  NbSegmentationState state;
  double t_ready;             /* READY and later: the rest window at P0 ended */
  double t_start;             /* MOVING and later: the last sample at rest before leaving */
  guint i_start;              /* its index */
  double t_arrival;           /* ARRIVED: the settled window at the target began */
  guint i_arrival;            /* index of the first sample of that window */
  guint i_end;                /* index after the settled window: where the next search starts */
  NbSettleResult attained;    /* ARRIVED: the settled window (the attained pose) */
} NbSegmentation;

/* Searches samples[from..n) (sorted by t_s) for one trial.  FALSE only on
 * bad parameters or unsorted samples (NB_ERROR_INPUT). */
gboolean nb_segmentation_find (const NbSample *samples, guint n, guint from,
                          const NbSegmentationParams *params, NbSegmentation *segment, GError **error);

G_END_DECLS
