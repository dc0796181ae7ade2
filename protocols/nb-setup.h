/* nb-setup.h — a configuration's set-up on the test area, as the runner lays it out
 *
 * What a person lays out on the floor before the trials of a configuration:
 * the route with P0–P3 (clauses 5 and 8, nb_route_make at 5 LU legs), the
 * obstacle's 16 placements round the robot (6.3, nb_detection_placement and
 * nb_course_detection of nb-course.h at the declared ranges), the avoidance course with P0,
 * P1, PG and the obstacle's way (7.2, nb_course_avoidance), the passage
 * (9.2, nb_course_passage) and the 7 LU arena with its column (10.2,
 * nb_arena_corners).  The same functions the campaign runner calls, from
 * the configuration's stored parameters when it has been run, else from
 * those the plan lays out (nb_clause_all_configurations): a drawing of it
 * (the GUI's overview) shows what the runner drives.
 *
 * Frame: the test area, mm, P0 at the origin heading +x (nb-route.h).
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-course.h"
#include "nb-route.h"

G_BEGIN_DECLS

typedef enum {
  NB_SETUP_ROUTE,               /* 5, 8: route */
  NB_SETUP_PLACEMENTS,          /* 6: placements */
  NB_SETUP_COURSE,              /* 7, 9: course */
  NB_SETUP_ARENA,               /* 10: arena (a clause that takes a map) */
} NbSetupKind;

typedef struct {
  double bearing_deg;           /* counter-clockwise from the line of sight */
  gboolean max_range;
  double range_mm;              /* robot centre to the obstacle's face */
  double centre_mm[2];          /* the obstacle's centre there */
} NbSetupPlacement;

typedef struct {
  NbSetupKind kind;
  guint clause;
  double lu_mm;
  double robot_width_mm;
  /* ROUTE: P0 … (the rectangle back at P0). */
  NbRoute route;
  /* PLACEMENTS: the obstacle and its placements (in the runner's order). */
  NbObstacleShape obstacle;
  gboolean have_obstacle;       /* FALSE: a configuration of all six (drawn as the first) */
  double min_range_mm, max_range_mm;
  gboolean ranges_declared;     /* FALSE: not declared yet, the simulator's drawn */
  guint n_placements;
  NbSetupPlacement placements[16];
  /* COURSE: clause 7 (with the obstacle's way: obs_from → obs_to) or 9. */
  NbCourse course;
  /* ARENA: A_1..A_4, the column's centre and diameter, where P0 stands. */
  double corners_mm[4][2];
  double column_centre_mm[2];
  double column_diameter_mm;
} NbSetup;

/* A number of a configuration's parameters (JSON text); NaN when absent,
 * null or not a number. */
double   nb_setup_parameter (const char *parameters, const char *key);

/* The set-up of config (clause, route, obstacle, behaviour and parameters
 * as nb_clause_all_configurations or the runner store them) for a robot
 * robot_width_mm wide.  NB_ERROR_INPUT when the width or the config's
 * parameters do not give a layout (an imported configuration without
 * them). */
gboolean nb_setup_layout (const NbCampaignConfig *config, double robot_width_mm,
                          NbSetup *setup, GError **error);

/* The configuration of the plan's (clause, name) as it is stored, else as
 * the plan lays it out from the campaign's robot and conditions, in
 * config (cleared with nb_campaign_config_clear), and its set-up. */
gboolean nb_setup_of_planned (NbCampaign *campaign, guint clause, const char *name,
                              NbCampaignConfig *config, NbSetup *setup, GError **error);

G_END_DECLS
