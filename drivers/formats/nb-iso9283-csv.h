/* nb-iso9283-csv.h — the measurement tables of ISO 9283, as CSV
 *
 * What `navbench-cli compute iso9283` reads.  As every navbench table: a
 * header row, columns in any order, other columns ignored, '#' lines
 * comments, the first bad row stops everything with "FILE:LINE: reason".
 *   poses:   x_mm, y_mm, z_mm, a_deg, b_deg, c_deg — one attained pose a row
 *   pairs:   x1_mm … c1_deg, x2_mm … c2_deg — one cycle a row (7.4)
 *   tracks:  cycle, t_s, x_mm, y_mm, z_mm[, a_deg, b_deg, c_deg] — the
 *            stream of each cycle, its rows together, time not going back
 */
#pragma once

#include <glib.h>

#include "nb-iso9283.h"

G_BEGIN_DECLS

/* Of NbPose6; at least min_rows rows. */
GArray *nb_iso9283_read_poses (const char *path, guint min_rows, GError **error);

/* The poses table of one test pose, written as the pose run's --output
 * DIR holds it (DIR/P1.csv … P5.csv): "# Name:" and "# Command: x,…,c"
 * comments, then a cycle column (1, 2, …) and one attained pose (of
 * attained, NbPose6) a row, at full precision; complete or not at all. */
gboolean nb_iso9283_write_poses (const char *path, guint pose, guint cycles,
                                 const NbPose6 *command, const GArray *attained, GError **error);

/* Two arrays of NbPose6, one element a cycle. */
gboolean nb_iso9283_read_pairs (const char *path, GArray **first, GArray **second,
                                GError **error);

typedef struct {
  char *cycle;
  guint64 line;                 /* where its first row is */
  GArray *t_s;                  /* of double */
  GArray *pose;                 /* of NbPose6 (a, b, c zero without those columns) */
} NbIso9283Cycle;

void nb_iso9283_cycle_free (NbIso9283Cycle *cycle);

/* Of NbIso9283Cycle*, in the file's order.  *has_orientation (may be NULL)
 * tells whether a_deg, b_deg, c_deg were there; need_orientation makes them
 * required. */
GPtrArray *nb_iso9283_read_tracks (const char *path, gboolean need_orientation,
                                   gboolean *has_orientation, GError **error);

G_END_DECLS
