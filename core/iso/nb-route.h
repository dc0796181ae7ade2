/* nb-route.h — the length unit and the test routes of ISO 18646-2 clause 4.5
 *
 * All lengths in millimetres, headings in degrees, in the test-area frame:
 * P0 at the origin heading +x.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  NB_ROUTE_STRAIGHT,     /* fig. 2: P0 → P1 */
  NB_ROUTE_RECTANGULAR,  /* fig. 3: P0 → P1 → P2 → P3 → P0 */
  NB_ROUTE_COMBINED,     /* fig. 4: P0 → P1 → P2 */
} NbRouteKind;

#define NB_ROUTE_MAX_POSES 5
/* ISO 18646-2 4.5: the travel distance is 5 LU unless the manufacturer sets another. */
#define NB_ROUTE_DEFAULT_LEG_LU 5.0

typedef struct {
  char name[4];        /* "P0".."P3" */
  double x_mm;
  double y_mm;
  double theta_deg;
} NbRoutePose;

typedef struct {
  NbRouteKind kind;
  gboolean clockwise;
  guint n_poses;       /* including P0 at the start (and at the end of the rectangle) */
  NbRoutePose poses[NB_ROUTE_MAX_POSES];
} NbRoute;

/* ISO 18646-2 4.5: LU = ceil(w / 500 mm) · 500 mm, w > 0. */
gboolean     nb_lu_mm               (double width_mm, double *lu_mm, GError **error);

gboolean     nb_route_make          (NbRouteKind kind, double leg1_mm, double leg2_mm,
                                     gboolean clockwise, NbRoute *route, GError **error);
const char  *nb_route_kind_to_string   (NbRouteKind kind);
gboolean     nb_route_kind_from_string (const char *s, NbRouteKind *kind);
/* The pose the robot is commanded to end at: the clause 5 command pose. */
const NbRoutePose *nb_route_target  (const NbRoute *route);

G_END_DECLS
