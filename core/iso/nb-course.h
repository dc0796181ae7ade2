/* nb-course.h — the test courses of ISO 18646-2 clauses 7 (obstacle avoidance)
 * and 9 (narrow passage): where the robot starts and ends, where the
 * obstacle is at each instant, where the passage's walls are, and how far
 * the robot is from them.
 *
 * Frame: the test area, millimetres; the route runs along +x from P0 at the
 * origin, heading 0°.  The robot is taken as a disc of diameter w (robot.
 * width_mm, its widest extent across the direction of travel, 4.5) centred
 * on the point the instrument tracks (decided: the standard gives no robot
 * length; a disc is the footprint that does not depend on the heading).
 *
 * Decisions where the standard is silent (the seed's figures 8 and 10 and
 * table 2 are not in its text):
 *  - table 2 (nb_obstacle_find): wooden / glass (acrylic) wall 1000 mm wide,
 *    20 mm thick; wooden / metal table top 1200 × 600 mm, its long side to
 *    the robot; large cylinder Ø 200 mm × 600 mm, small cylinder Ø 70 mm ×
 *    400 mm (the torso and leg pieces ISO 18646-2 is quoted for); walls
    1000 mm high, table tops at 750 mm.  A large
 *    cylinder lying (behaviour 1) shows its 600 mm side; a cylinder
 *    standing or moving upright is a disc of its diameter.
 *  - clause 7 (fig. 8): PG = 9 LU from P0; P1, where robot and obstacle
 *    meet, half way (4.5 LU).  Behaviour 1: the obstacle stands at P1.
 *    Behaviour 2 crosses at P1 at 90° from the right (−y to +y) and ends at
 *    P2 = P1 + 2 LU across; behaviour 3 crosses at P1 at 45°, coming from
 *    the right and ahead, ends at P3 = P1 + 2 LU along its way; behaviour 4
 *    comes head-on along the route and stops at P1.  The obstacle moves at
 *    1.6 m/s from the trial's start and reaches P1 at meet_s (7.3 b: the
 *    runner takes it from the baseline trials, where the robot passes the
 *    half-way point at T0/2).
 *  - clause 9 (fig. 10): the robot's front (its disc's edge) starts 2 LU
 *    before the entrance and ends 2 LU after the exit: P0 at the origin,
 *    the entrance at 2 LU + w/2, the exit 4 LU further, PG at 8 LU.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NB_OBSTACLE_SPEED_MM_S 1600.0   /* 7.2: (1.6 ± 0.2) m/s */

typedef struct {
  const char *name;             /* table 2 */
  double across_mm;             /* extent across the route (facing the robot) */
  double along_mm;              /* depth along the route */
  gboolean round;               /* a disc of diameter across_mm */
  double height_mm;             /* vertical extent as it stands (a lying cylinder: its diameter) */
} NbObstacleShape;

/* The table 2 obstacle of that name as it stands in behaviour (1–4): NULL
 * when the name is not in table 2.  Names: "wooden wall", "glass wall",
 * "wooden table", "metal table" ("table" is the wooden table),
 * "large cylinder", "small cylinder". */
gboolean nb_obstacle_find (const char *name, guint behaviour, NbObstacleShape *shape);
/* The names, NULL-terminated, for messages. */
const char *const *nb_obstacle_names (void);

/* 7.2 (fig. 8): the obstacle's behaviours, numbered 1 to NB_BEHAVIOURS. */
#define NB_BEHAVIOURS 4
/* Behaviour 1–4 in words, a msgid ("static at P1", "crossing at 90°",
 * "crossing at 45°", "head-on"); NULL for another number. */
const char *nb_behaviour_name (guint behaviour);
/* Annex A.5.2: outdoors only the small cylinder, the large cylinder and the
 * wooden wall are used (not the tables, not the acrylic/polycarbonate wall). */
gboolean nb_obstacle_outdoor (const char *name);

typedef enum {
  NB_COURSE_DETECTION = 6,
  NB_COURSE_AVOIDANCE = 7,
  NB_COURSE_PASSAGE = 9,
} NbCourseKind;

typedef struct {
  NbCourseKind kind;
  double robot_width_mm, lu_mm;
  double p0[2], pg[2];
  /* 7 */
  gboolean has_obstacle;        /* FALSE: the baseline trials */
  NbObstacleShape obstacle;
  guint behaviour;              /* 1–4 */
  double p1[2];
  double obs_from[2], obs_to[2];/* the obstacle's centre: where it starts and ends */
  double obs_speed_mm_s;
  /* 9 */
  double passage_width_mm;
  double entrance_x_mm, exit_x_mm;
  /* 6: the obstacle (obstacle above) range_mm from the robot at P0 along
   * bearing_deg (counter-clockwise from its line of sight), its largest
   * side facing the robot (6.3 d). */
  double bearing_deg, range_mm;
} NbCourse;

/* Clause 7's course (obstacle NULL: the baseline, no obstacle).  meet_s:
 * when the robot is expected at P1 (used by behaviours 2–4). */
gboolean nb_course_avoidance (double robot_width_mm, const NbObstacleShape *obstacle,
                              guint behaviour, double meet_s, NbCourse *course, GError **error);
/* Clause 9's course. */
gboolean nb_course_passage   (double robot_width_mm, double passage_width_mm, NbCourse *course,
                              GError **error);

/* Clause 6's placement: range_mm (> 0) from the robot's centre to the
 * obstacle's face along bearing_deg.  Decided: the range is taken from the
 * robot's centre, the point the instrument tracks and the robot's range
 * sensor is taken to be at. */
gboolean nb_course_detection (double robot_width_mm, const NbObstacleShape *obstacle,
                              double bearing_deg, double range_mm, NbCourse *course,
                              GError **error);

/* 6.3: the placements of one obstacle, in the order they are made: 8
 * directions every 45° counter-clockwise from the line of sight, at the
 * maximum then the minimum range in each.  Placement k (0–15) is direction
 * k / 2, at the maximum range when k is even. */
#define NB_DETECTION_PLACEMENTS 16
void   nb_detection_placement (guint k, double *bearing_deg, gboolean *max_range);

/* The obstacle's centre t_s after the trial's start. */
void   nb_course_obstacle_at (const NbCourse *course, double t_s, double *x_mm, double *y_mm);
/* Whether the course holds anything the robot could touch: the obstacle
 * (6, 7 with it) or the passage's walls (9).  A baseline course of clause
 * 7 holds nothing (7.3: T0 is timed without the obstacle). */
gboolean nb_course_has_fixture (const NbCourse *course);
/* The gap between the robot (centred at x, y at t_s after the start) and
 * the obstacle or the passage's walls: ≤ 0 is contact; +inf where nothing
 * is near (no obstacle; outside the passage). */
double nb_course_clearance_mm (const NbCourse *course, double t_s, double x_mm, double y_mm);
/* The distance from (x, y) to the shape centred at (cx, cy), ≥ 0. */
double nb_obstacle_distance_mm (const NbObstacleShape *shape, double cx, double cy, double x_mm,
                                double y_mm);

G_END_DECLS
