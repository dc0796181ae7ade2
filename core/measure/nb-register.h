/* nb-register.h — registering the instrument frame to the test-area frame
 *
 * ARCHITECTURE "one frame": the instrument's coordinates are mapped into the
 * test area's from ≥ 3 surveyed reference points by a rigid fit (rotation
 * and translation, no scale), never by fitting the robot's own track.
 * The fit is Kabsch's (1976) least squares, solved with GSL's SVD, with
 * the reflection case corrected so the result is always a proper rotation.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* reference = r · instrument + t (2-D fits leave row/column 3 as identity
 * and t[2] = 0). */
typedef struct {
  guint dim;
  double r[3][3];
  double t[3];
} NbRigidTransform;

/* Fits instrument → reference over n ≥ 3 point pairs (x, y, z; z ignored
 * when dim = 2).  residuals_m (n values, may be NULL) gets each point's
 * distance after the fit; *rms_m the root mean square of those.  Errors
 * (NB_ERROR_INPUT): fewer than 3 points, non-finite coordinates, points
 * that do not span the space (coincident; collinear in 3-D). */
gboolean nb_register_rigid (const double (*instrument)[3], const double (*reference)[3], guint n,
                            guint dim, NbRigidTransform *out, double *residuals_m, double *rms_m,
                            GError **error);
void     nb_rigid_apply    (const NbRigidTransform *transform, const double in[3], double out[3]);
/* The rotation's angle about z (2-D) in degrees. */
double   nb_rigid_yaw_deg  (const NbRigidTransform *transform);

/* The transform as the campaign keeps it (instrument.registration_
 * transform): {"dim": 2|3, "r": rows of R, "t_mm": t in millimetres}, every
 * number printed to round-trip.  The one writer and the one reader. */
char    *nb_rigid_transform_to_json   (const NbRigidTransform *transform);
/* FALSE with NB_ERROR_INPUT saying what the text should be when it is not
 * that (any dim but 2 or 3, a missing or non-finite number). */
gboolean nb_rigid_transform_from_json (const char *json, NbRigidTransform *transform,
                                       GError **error);

/* The robot's reference point from the tracked target: the target's
 * position plus its offset (in the target's own frame) rotated by the
 * target's orientation — quaternion (w, x, y, z) when q is not NULL, else
 * the heading about z in degrees. */
void nb_marker_to_reference (const double target[3], const double *q, double heading_deg,
                             const double offset[3], double out[3]);

G_END_DECLS
