/* nb-geodesy.h — WGS-84 geodetic ↔ ECEF ↔ local east-north-up
 *
 * GNSS positions become coordinates in the test area's plane about its
 * origin P0 (ISO 18646-2 annex A).  The conversion is exact on the
 * ellipsoid (geodetic → ECEF → rotation into ENU at the origin), not a
 * flat-earth scale, so it holds to far below 1 mm over 1 km.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* WGS-84 (NIMA TR8350.2 table 3.1). */
#define NB_WGS84_A 6378137.0
#define NB_WGS84_F (1.0 / 298.257223563)

typedef struct {
  double lat_deg, lon_deg, h_m;   /* the origin */
  double x0, y0, z0;              /* its ECEF position */
  double r[3][3];                 /* ECEF → ENU rotation rows: east, north, up */
} NbEnuFrame;

void nb_geodesy_to_ecef (double lat_deg, double lon_deg, double h_m, double ecef[3]);
/* Exact inverse (Heikkinen / Zhu closed form), for checks and round trips. */
void nb_geodesy_from_ecef (const double ecef[3], double *lat_deg, double *lon_deg, double *h_m);
void nb_enu_frame_init (NbEnuFrame *frame, double lat_deg, double lon_deg, double h_m);
void nb_enu_from_geodetic (const NbEnuFrame *frame, double lat_deg, double lon_deg, double h_m,
                           double enu[3]);

G_END_DECLS
