/* nb-measurements.h — the measurement tables of ISO 18646-2 clauses 5–10, as CSV
 *
 * One place for each file format that `navbench-cli compute` reads, that
 * `campaign import` records and that `export` writes back.  Every reader
 * checks every row and stops at the first bad one with "FILE:LINE: reason";
 * '#' lines are comments, columns come in any order, other columns are
 * ignored.  Path tracks stream through a callback: memory does not grow with
 * the number of samples.
 */
#pragma once

#include <glib.h>

#include "nb-metrics.h"

G_BEGIN_DECLS

/* Clause 5: x_mm, y_mm, theta_deg — one attained pose per row. */
GArray  *nb_measurements_read_poses (const char *path, GError **error);  /* of NbPose */

/* Clause 8: trial, x_mm, y_mm[, t_s] — samples grouped by trial.  t_s is NaN
 * when absent; when present it must not go back in time within a trial.
 * trial is valid UTF-8; new_run is TRUE when it differs from the row before
 * (the start of a trial, or its return after another). */
typedef gboolean (*NbPathSampleFunc) (const char *trial, gboolean new_run, guint64 line,
                                      double x_mm, double y_mm, double t_s, gpointer user_data,
                                      GError **error);
gboolean nb_measurements_read_path  (const char *path, NbPathSampleFunc func, gpointer user_data,
                                     GError **error);

/* Clause 6: obstacle, angle_deg, range (min|max), true_mm, measured_mm, detected. */
typedef struct {
  char *obstacle;
  double angle_deg;
  gboolean max_range;           /* FALSE: the declared minimum range */
  double true_mm;
  gboolean detected;
  double measured_mm;           /* NaN when not detected */
  guint64 line;
} NbPlacement;

GArray  *nb_measurements_read_detection (const char *path, GError **error);  /* of NbPlacement */

/* Clauses 7 and 9: config[, kind], trial, time_s, success, and optionally
 * what a run measures of a trial (docs/campaign.md): clearance_mm (7.1: the
 * smallest gap to the obstacle or the walls), start_x_mm, start_y_mm,
 * start_theta_deg (7.3 a, 9.3 a: where the trial started), attained_x_mm,
 * attained_y_mm, attained_theta_deg (7.3 c, 9.3 c: where it stopped at PG).
 * An empty cell or an absent column is "not measured" (NaN); a pose needs
 * its x and y together, its heading may be left empty. */
typedef struct {
  char *config;
  gboolean baseline;            /* clause 7 kind "baseline": the run without obstacle */
  NbTimedTrial trial;
  double clearance_mm;          /* NaN: not measured */
  NbPose start, attained;       /* NaN: not measured */
  guint64 line;
} NbTimedRow;

GArray  *nb_measurements_read_avoidance (const char *path, GError **error);  /* of NbTimedRow */
GArray  *nb_measurements_read_passage   (const char *path, GError **error);  /* of NbTimedRow */

/* Clause 10: truth corner, x_mm, y_mm (corners 1–4 once each) and map
 * trial, corner, x_mm, y_mm (each trial all four corners once). */
typedef struct {
  guint trial;
  double corner_mm[4][2];
  guint64 line;                 /* where the trial starts */
} NbMapCorners;

gboolean nb_measurements_read_truth_corners (const char *path, double corner_mm[4][2],
                                             GError **error);
GArray  *nb_measurements_read_map_corners   (const char *path, GError **error);  /* of NbMapCorners, in trial order */

G_END_DECLS
