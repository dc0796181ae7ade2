/* nb-tum-reader.h — trajectories from files: TUM and navbench's CSV tracks
 *
 * TUM (the TUM RGB-D benchmark's format, evo's "tum"): one pose per line,
 * "t x y z qx qy qz qw" — seconds, metres, a unit quaternion with w last —
 * separated by spaces, tabs or commas; '#' lines are comments, blank lines
 * are skipped.
 *
 * CSV track (navbench): a header row naming t_s, x_mm, y_mm and optionally
 * z_mm (0 when absent), then either qx, qy, qz, qw or theta_deg (the heading
 * about z) or neither (a position-only track: only the trans and xy relations
 * apply).  Millimetres and degrees become metres and a quaternion here, at
 * the reader: everything above works in SI units.
 *
 * Both readers stream the file and check as they go: stamps strictly
 * increasing (an unsorted or duplicate stamp names both lines), quaternions
 * of unit norm (normalised, and counted in the info, beyond 1e-6; refused
 * beyond 1e-2).  Errors read "FILE:LINE: reason".
 */
#pragma once

#include "nb-traj.h"

G_BEGIN_DECLS

typedef enum { NB_TRAJ_FORMAT_AUTO, NB_TRAJ_FORMAT_TUM, NB_TRAJ_FORMAT_CSV } NbTrajFormat;

typedef struct {
  NbTrajFormat format;          /* the format read */
  guint n_normalised;           /* quaternions normalised (|‖q‖ − 1| > 1e-6) */
  guint64 first_normalised_line;
  double worst_norm_dev;
} NbTrajReadInfo;

typedef enum {
  NB_TRAJ_READ_ALL = 0,
  /* Orientations read and checked (refused, normalised and counted in the
   * info as always) but not kept: traj->q is NULL.  For what is evaluated
   * from positions alone (compute ape's trans and xy relations): half the
   * memory of a million poses, and no division per pose (issue 20). */
  NB_TRAJ_READ_POSITIONS = 1 << 0,
} NbTrajReadFlags;

/* FORMAT_AUTO: a file whose first line that is neither blank nor a comment
 * starts with a letter is a CSV track, otherwise TUM.  path "-" is standard
 * input (TUM, or CSV when asked for). */
NbTraj *nb_traj_read_path (const char *path, NbTrajFormat format, NbTrajReadInfo *info,
                           GError **error);
NbTraj *nb_traj_read_path_with (const char *path, NbTrajFormat format, NbTrajReadFlags flags,
                                NbTrajReadInfo *info, GError **error);
/* The same from memory; name is used in messages. */
NbTraj *nb_traj_read_data (const char *name, const char *data, gsize len, NbTrajFormat format,
                           NbTrajReadInfo *info, GError **error);

G_END_DECLS
