/* nb-registration.h — the frame registration as the campaign keeps it
 *
 * ARCHITECTURE "one frame": `campaign register` fits the instrument frame to
 * the test area from surveyed points (nb_register_rigid) and the campaign
 * keeps the fit (instrument.registration, _rms_mm, _max_mm, _transform and
 * an event with every point's residual); the runner maps every sample with
 * it.  One writer (nb_registration_store) and one reader
 * (nb_registration_load) of those fields, for the CLI, the GUI and the
 * runner.
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-register.h"

G_BEGIN_DECLS

typedef struct {
  NbRigidTransform transform;   /* instrument (m) → test area (m) */
  guint n_points;
  const char *const *names;     /* the points' names (n_points) */
  const double *residuals_m;    /* each point's distance after the fit (n_points) */
  double rms_m;
  const char *source;           /* where the points came from (a file name) */
  const double (*reference_m)[3]; /* the points in the test area (n_points), for the fit's
                                   * covariance (#17); NULL: not kept */
} NbRegistration;

/* The maximum residual of registration, m. */
double   nb_registration_max_m (const NbRegistration *registration);
/* "rigid 2-D fit to 4 points; residuals (mm): A 0.012 …" (the event's text). */
char    *nb_registration_summary (const NbRegistration *registration);
/* instrument.registration_points: [[x_mm, y_mm, residual_mm], …] (the
 * surveyed points in the test area and each one's residual), what the
 * uncertainty budgets take the rigid fit's covariance from (#17). */
char    *nb_registration_points_json (const NbRegistration *registration);
/* Writes the fields and logs "frame registration" (one transaction). */
gboolean nb_registration_store (NbCampaign *campaign, const NbRegistration *registration,
                                GError **error);
/* instrument.registration_transform as a transform; *found FALSE (and the
 * identity) when the campaign holds none; an error names the file when the
 * stored text is malformed. */
gboolean nb_registration_load  (NbCampaign *campaign, NbRigidTransform *transform,
                                gboolean *found, GError **error);

/* One surveyed reference point: its coordinates as the instrument measures
 * them and in the test area (m; z 0 in a 2-D survey). */
typedef struct {
  char *name;
  double instrument_m[3];
  double reference_m[3];
} NbReferencePoint;

void     nb_reference_point_clear (NbReferencePoint *point);
/* The points of a survey CSV: columns point, instrument_x_mm,
 * instrument_y_mm[, instrument_z_mm], reference_x_mm, reference_y_mm[,
 * reference_z_mm] (dim 3 needs the z columns).  Of NbReferencePoint (cleared
 * with the array); an error names FILE:LINE.  The one reader (`campaign
 * register`, the GUI's import). */
GArray  *nb_reference_points_read (const char *path, guint dim, GError **error);

/* A fit and what it owns: registration points into names and residuals. */
typedef struct {
  NbRegistration registration;
  GPtrArray *names;             /* of char * */
  double *residuals_m;
  char *source;
  double (*reference_m)[3];     /* the points in the test area (registration.reference_m) */
} NbRegistrationFit;

/* The rigid fit (nb_register_rigid) of n ≥ 3 points; source: where they
 * came from (the stored method names it).  The error names no file: the
 * caller prefixes it. */
gboolean nb_registration_fit (const NbReferencePoint *points, guint n, guint dim,
                              const char *source, NbRegistrationFit *fit, GError **error);
void     nb_registration_fit_clear (NbRegistrationFit *fit);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (NbRegistrationFit, nb_registration_fit_clear)

G_END_DECLS
