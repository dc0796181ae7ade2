/* nb-metrics.h — the figures of ISO 18646-2 clauses 5–10
 *
 * Pure functions over measured values: no I/O, no globals.  Lengths in mm,
 * angles in degrees, times in seconds, as the protocol tables give them.
 * Undefined figures (a mean of nothing, a standard deviation of one value)
 * are NaN; front ends print them as null.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  double x_mm;
  double y_mm;
  double theta_deg;
} NbPose;

/* ------------------------------------------------------------------ 5 -- */

typedef struct {
  guint64 n;
  double barycentre_x_mm;   /* x̄ */
  double barycentre_y_mm;   /* ȳ */
  double mean_theta_deg;    /* ō = recast(o_c + Ao) */
  double ap_mm;             /* 5.2.1 Ap */
  double ao_deg;            /* 5.2.1 Ao */
  double l_mean_mm;         /* 5.2.2 l̄ */
  double s_l_mm;            /* 5.2.2 S_l */
  double rp_mm;             /* 5.2.2 Rp = l̄ + 3·S_l */
  double s_o_deg;           /* 5.2.2 S_o */
  double ro_deg;            /* 5.2.2 Ro = 3·S_o, reported as ± */
} NbPoseResult;

gboolean nb_metrics_pose (const NbPose *command, const NbPose *attained, gsize n,
                          NbPoseResult *result, GError **error);

/* ------------------------------------------------------------------ 8 -- */

/* The commanded segment P0 → P1 in a frame centred on P0. */
typedef struct {
  double x0_mm, y0_mm;
  double ex, ey;            /* unit direction of travel */
  double length_mm;
} NbSegment;

gboolean nb_segment_init (NbSegment *segment, double x0_mm, double y0_mm,
                          double x1_mm, double y1_mm, GError **error);

/* One trial's running d_i: the signed perpendicular deviation of largest
 * magnitude over the samples whose projection falls on the segment
 * (positive = left of the direction of travel).  Streams: O(1) memory. */
typedef struct {
  guint64 n_samples;        /* all samples pushed */
  guint64 n_on_segment;     /* those whose projection falls on P0 → P1 */
  double d_mm;              /* NaN until a sample falls on the segment */
} NbPathTrial;

void nb_path_trial_init (NbPathTrial *trial);
void nb_path_trial_push (NbPathTrial *trial, const NbSegment *segment, double x_mm, double y_mm);

typedef struct {
  guint64 n;
  double max_mm;            /* d = max |d_i| */
  double mean_mm;           /* mean of the signed d_i */
  double mean_abs_mm;       /* mean of |d_i| */
  double std_mm;            /* sample standard deviation (n − 1) of the signed d_i; NaN if n = 1 */
} NbPathResult;

gboolean nb_metrics_path (const double *d_mm, gsize n, NbPathResult *result, GError **error);

/* ------------------------------------------------------------------ 6 -- */

/* 6.4: error_pct = 100·|d_measured − d_true| / d_true, accuracy = 100 − error. */
double nb_detection_error_pct (double true_mm, double measured_mm);

typedef struct {
  guint placements;
  guint detected;
  double sum_error_pct;
} NbDetectionTally;

#define NB_DETECTION_TALLY_INIT { 0, 0, 0.0 }

/* A placement whose obstacle was not detected has no measured distance. */
void   nb_detection_tally_add (NbDetectionTally *tally, double true_mm, gboolean detected,
                               double measured_mm);
/* Mean over the detected placements; NaN when none was detected. */
double nb_detection_tally_mean_error_pct    (const NbDetectionTally *tally);
double nb_detection_tally_mean_accuracy_pct (const NbDetectionTally *tally);

/* --------------------------------------------------------------- 7, 9 -- */

typedef struct {
  guint trial;              /* the trial's number: its order in the test */
  double time_s;            /* travel time; may be NaN for a failed trial */
  gboolean success;
} NbTimedTrial;

/* 7.3: the configuration passes only if its first three trials succeed. */
#define NB_AVOIDANCE_TRIALS 3

typedef struct {
  gboolean passed;
  double t0_s;              /* mean time of the first three successful trials without obstacle */
  double t1_s;              /* max time of the first three successful trials with obstacle */
  double delay_ratio;       /* T1/T0 */
} NbAvoidanceResult;

gboolean nb_metrics_avoidance (const NbTimedTrial *baseline, gsize n_baseline,
                               const NbTimedTrial *obstacle, gsize n_obstacle,
                               NbAvoidanceResult *result, GError **error);

/* 9.3: the mean passage time of five consecutive successful trials. */
#define NB_PASSAGE_TRIALS 5

typedef struct {
  gboolean passed;
  double mean_time_s;       /* over the first run of five consecutive successes */
  guint first_trial;        /* the trial number that run starts with (0 if none) */
  guint failed_trials;
} NbPassageResult;

gboolean nb_metrics_passage (const NbTimedTrial *trials, gsize n, NbPassageResult *result,
                             GError **error);

/* ----------------------------------------------------------------- 10 -- */

/* 10.2: Dm = ¼ Σ sqrt((x_i − x'_i)² + (y_i − y'_i)²) over the corners A_1..A_4. */
double nb_metrics_dm (const double truth_mm[4][2], const double map_mm[4][2]);

G_END_DECLS
