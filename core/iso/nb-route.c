#include "nb-route.h"
#include "nb-error.h"

#include <math.h>
#include <string.h>

/* Widths beyond this are not a mobile robot but a typo (mm for m, say). */
#define NB_MAX_WIDTH_MM 1.0e6

gboolean
nb_lu_mm (double width_mm, double *lu_mm, GError **error)
{
  if (!isfinite (width_mm) || width_mm <= 0.0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "robot width must be a positive number of millimetres, got %g", width_mm);
      return FALSE;
    }
  if (width_mm > NB_MAX_WIDTH_MM)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "robot width %g mm is over %g mm: is the unit right?", width_mm,
                   NB_MAX_WIDTH_MM);
      return FALSE;
    }
  *lu_mm = ceil (width_mm / 500.0) * 500.0;
  return TRUE;
}

static const char *const route_names[] = {
  [NB_ROUTE_STRAIGHT] = "straight",
  [NB_ROUTE_RECTANGULAR] = "rectangular",
  [NB_ROUTE_COMBINED] = "combined",
};

const char *
nb_route_kind_to_string (NbRouteKind kind)
{
  g_return_val_if_fail (kind <= NB_ROUTE_COMBINED, NULL);
  return route_names[kind];
}

gboolean
nb_route_kind_from_string (const char *s, NbRouteKind *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (route_names); i++)
    if (g_strcmp0 (s, route_names[i]) == 0)
      {
        *kind = (NbRouteKind) i;
        return TRUE;
      }
  return FALSE;
}

static void
put_pose (NbRoute *route, const char *name, double x, double y, double theta)
{
  NbRoutePose *p = &route->poses[route->n_poses++];

  g_strlcpy (p->name, name, sizeof p->name);
  /* 0.0 + keeps "-0" out of the protocol when a coordinate is negated zero. */
  p->x_mm = 0.0 + x;
  p->y_mm = 0.0 + y;
  p->theta_deg = 0.0 + theta;
}

/*
 * Headings: the route's corners are turning points, so an intermediate pose
 * heads along the leg that leaves it; the last pose of the straight and
 * combined routes keeps the heading of its arrival leg, and the rectangle
 * ends on P0, the very pose it started from (4.5: "and finally to the target
 * pose P0").  Counter-clockwise turns left (+y), clockwise right.
 */
gboolean
nb_route_make (NbRouteKind kind, double leg1_mm, double leg2_mm, gboolean clockwise,
               NbRoute *route, GError **error)
{
  double side = clockwise ? -1.0 : 1.0;
  double turn = 90.0 * side;

  if (!isfinite (leg1_mm) || leg1_mm <= 0.0 ||
      (kind != NB_ROUTE_STRAIGHT && (!isfinite (leg2_mm) || leg2_mm <= 0.0)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "route legs must be positive lengths (got %g mm and %g mm)", leg1_mm, leg2_mm);
      return FALSE;
    }
  if (kind > NB_ROUTE_COMBINED)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "unknown route kind %d", (int) kind);
      return FALSE;
    }

  memset (route, 0, sizeof *route);
  route->kind = kind;
  route->clockwise = clockwise;
  put_pose (route, "P0", 0.0, 0.0, 0.0);

  switch (kind)
    {
    case NB_ROUTE_STRAIGHT:
      put_pose (route, "P1", leg1_mm, 0.0, 0.0);
      break;
    case NB_ROUTE_RECTANGULAR:
      put_pose (route, "P1", leg1_mm, 0.0, turn);
      put_pose (route, "P2", leg1_mm, side * leg2_mm, 180.0);
      put_pose (route, "P3", 0.0, side * leg2_mm, -turn);
      put_pose (route, "P0", 0.0, 0.0, 0.0);
      break;
    case NB_ROUTE_COMBINED:
      put_pose (route, "P1", leg1_mm, 0.0, turn);
      put_pose (route, "P2", leg1_mm, side * leg2_mm, turn);
      break;
    }
  return TRUE;
}

const NbRoutePose *
nb_route_target (const NbRoute *route)
{
  g_return_val_if_fail (route->n_poses >= 2, NULL);
  return &route->poses[route->n_poses - 1];
}
