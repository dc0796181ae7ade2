/* nb-course.c — the courses of clauses 7 and 9 (see nb-course.h) */
#include "nb-course.h"

#include "nb-error.h"
#include "nb-route.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Table 2 as the project settles it (nb-course.h). */
static const NbObstacleShape table2[] = {
  { "wooden wall", 1000.0, 20.0, FALSE, 1000.0 },
  { "glass wall", 1000.0, 20.0, FALSE, 1000.0 },
  { "wooden table", 1200.0, 600.0, FALSE, 750.0 },
  { "metal table", 1200.0, 600.0, FALSE, 750.0 },
  { "large cylinder", 200.0, 200.0, TRUE, 600.0 },
  { "small cylinder", 70.0, 70.0, TRUE, 400.0 },
};

/* The campaign's keys; the protocol shows them translated (po/). */
static const char *const names[] = {
  N_("wooden wall"), N_("glass wall"), N_("wooden table"), N_("metal table"),
  N_("large cylinder"), N_("small cylinder"), NULL
};

const char *const *
nb_obstacle_names (void)
{
  return names;
}

const char *
nb_behaviour_name (guint behaviour)
{
  static const char *const words[NB_BEHAVIOURS] = {
    N_("static at P1"), N_("crossing at 90°"), N_("crossing at 45°"), N_("head-on"),
  };

  return behaviour >= 1 && behaviour <= NB_BEHAVIOURS ? words[behaviour - 1] : NULL;
}

gboolean
nb_obstacle_find (const char *name, guint behaviour, NbObstacleShape *shape)
{
  const char *key = name != NULL && g_str_equal (name, "table") ? "wooden table" : name;

  if (key == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (table2); i++)
    if (g_str_equal (table2[i].name, key))
      {
        *shape = table2[i];
        /* 7.2 behaviour 1 c): the large cylinder lies on its side, which
         * faces the robot (600 mm across, its diameter deep). */
        if (behaviour == 1 && g_str_equal (key, "large cylinder"))
          *shape = (NbObstacleShape) { "large cylinder", 600.0, 200.0, FALSE, 200.0 };
        return TRUE;
      }
  return FALSE;
}

gboolean
nb_obstacle_outdoor (const char *name)
{
  return g_strcmp0 (name, "small cylinder") == 0 || g_strcmp0 (name, "large cylinder") == 0 ||
         g_strcmp0 (name, "wooden wall") == 0;
}

static gboolean
check_width (double w, double *lu, GError **error)
{
  if (!(w > 0.0 && isfinite (w)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "robot width %g mm: a width is > 0", w);
      return FALSE;
    }
  return nb_lu_mm (w, lu, error);
}

gboolean
nb_course_avoidance (double w, const NbObstacleShape *obstacle, guint behaviour, double meet_s,
                     NbCourse *c, GError **error)
{
  double lu, d, dir[2];

  memset (c, 0, sizeof *c);
  if (!check_width (w, &lu, error))
    return FALSE;
  if (obstacle != NULL && (behaviour < 1 || behaviour > 4))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "behaviour %u: 1 (static) to 4 (head-on), "
                   "7.2", behaviour);
      return FALSE;
    }
  if (obstacle != NULL && behaviour > 1 && !(meet_s > 0.0 && isfinite (meet_s)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "behaviour %u: the time the robot reaches "
                   "P1 must be > 0 s (from the baseline trials), got %g", behaviour, meet_s);
      return FALSE;
    }
  c->kind = NB_COURSE_AVOIDANCE;
  c->robot_width_mm = w;
  c->lu_mm = lu;
  c->pg[0] = 9.0 * lu;                  /* 7.2: 9 LU from P0 */
  c->p1[0] = 4.5 * lu;
  c->obs_speed_mm_s = NB_OBSTACLE_SPEED_MM_S;
  if (obstacle == NULL)
    return TRUE;
  c->has_obstacle = TRUE;
  c->obstacle = *obstacle;
  c->behaviour = behaviour;
  /* 7.3 b): started so that it reaches P1 with the robot. */
  d = behaviour == 1 ? 0.0 : NB_OBSTACLE_SPEED_MM_S * meet_s;
  switch (behaviour)
    {
    case 2: dir[0] = 0.0, dir[1] = 1.0; break;
    case 3: dir[0] = -G_SQRT2 / 2.0, dir[1] = G_SQRT2 / 2.0; break;
    case 4: dir[0] = -1.0, dir[1] = 0.0; break;
    default: dir[0] = 0.0, dir[1] = 0.0; break;
    }
  c->obs_from[0] = c->p1[0] - d * dir[0];
  c->obs_from[1] = c->p1[1] - d * dir[1];
  /* P2, P3: 2 LU past the route; behaviour 4 stops at P1. */
  c->obs_to[0] = c->p1[0] + (behaviour == 4 ? 0.0 : 2.0 * lu * dir[0]);
  c->obs_to[1] = c->p1[1] + (behaviour == 4 ? 0.0 : 2.0 * lu * dir[1]);
  return TRUE;
}

gboolean
nb_course_passage (double w, double width, NbCourse *c, GError **error)
{
  double lu;

  memset (c, 0, sizeof *c);
  if (!check_width (w, &lu, error))
    return FALSE;
  if (!(width > 0.0 && isfinite (width)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "passage width %g mm: a width is > 0", width);
      return FALSE;
    }
  c->kind = NB_COURSE_PASSAGE;
  c->robot_width_mm = w;
  c->lu_mm = lu;
  c->passage_width_mm = width;
  /* 9.2: the front 2 LU before the entrance, 2 LU after the exit. */
  c->entrance_x_mm = 2.0 * lu + w / 2.0;
  c->exit_x_mm = c->entrance_x_mm + 4.0 * lu;
  c->pg[0] = 8.0 * lu;
  return TRUE;
}

gboolean
nb_course_detection (double w, const NbObstacleShape *obstacle, double bearing, double range,
                     NbCourse *c, GError **error)
{
  double lu, depth, a = bearing * G_PI / 180.0;

  memset (c, 0, sizeof *c);
  if (!check_width (w, &lu, error))
    return FALSE;
  if (!(range > 0.0 && isfinite (range)) || !isfinite (bearing))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "placement %g mm at %g°: a range is > 0",
                   range, bearing);
      return FALSE;
    }
  c->kind = NB_COURSE_DETECTION;
  c->robot_width_mm = w;
  c->lu_mm = lu;
  c->has_obstacle = TRUE;
  c->obstacle = *obstacle;
  c->bearing_deg = bearing;
  c->range_mm = range;
  /* The obstacle's centre lies behind its face, half its depth further. */
  depth = obstacle->round ? obstacle->across_mm / 2.0 : obstacle->along_mm / 2.0;
  c->obs_from[0] = c->obs_to[0] = (range + depth) * cos (a);
  c->obs_from[1] = c->obs_to[1] = (range + depth) * sin (a);
  return TRUE;
}

void
nb_detection_placement (guint k, double *bearing_deg, gboolean *max_range)
{
  /* 6.3 d): on the line of sight, then every 45° counter-clockwise. */
  *bearing_deg = 45.0 * (double) ((k % NB_DETECTION_PLACEMENTS) / 2);
  *max_range = k % 2 == 0;
}

void
nb_course_obstacle_at (const NbCourse *c, double t, double *x, double *y)
{
  double dx = c->obs_to[0] - c->obs_from[0], dy = c->obs_to[1] - c->obs_from[1];
  double len = hypot (dx, dy), s;

  if (!(len > 0.0))
    {
      *x = c->obs_from[0], *y = c->obs_from[1];
      return;
    }
  s = CLAMP (c->obs_speed_mm_s * MAX (t, 0.0) / len, 0.0, 1.0);
  *x = c->obs_from[0] + s * dx;
  *y = c->obs_from[1] + s * dy;
}

double
nb_obstacle_distance_mm (const NbObstacleShape *o, double cx, double cy, double x, double y)
{
  double ex, ey;

  if (o->round)
    return MAX (hypot (x - cx, y - cy) - o->across_mm / 2.0, 0.0);
  /* A box: along the route (x) its depth, across it (y) its width. */
  ex = MAX (fabs (x - cx) - o->along_mm / 2.0, 0.0);
  ey = MAX (fabs (y - cy) - o->across_mm / 2.0, 0.0);
  return hypot (ex, ey);
}

gboolean
nb_course_has_fixture (const NbCourse *c)
{
  return c->kind != NB_COURSE_AVOIDANCE || c->has_obstacle;
}

double
nb_course_clearance_mm (const NbCourse *c, double t, double x, double y)
{
  double r = c->robot_width_mm / 2.0;

  if (c->kind == NB_COURSE_DETECTION)
    /* The robot stands still: its gap is the placement's range less r. */
    return c->range_mm - r;
  if (c->kind == NB_COURSE_AVOIDANCE)
    {
      double ox, oy;

      if (!c->has_obstacle)
        return INFINITY;
      nb_course_obstacle_at (c, t, &ox, &oy);
      return nb_obstacle_distance_mm (&c->obstacle, ox, oy, x, y) - r;
    }
  /* The walls run from the entrance to the exit at ±width/2: between
   * them the gap is across; before and after, to the walls' ends. */
  if (x < c->entrance_x_mm - r || x > c->exit_x_mm + r)
    return INFINITY;
  if (x >= c->entrance_x_mm && x <= c->exit_x_mm)
    return c->passage_width_mm / 2.0 - fabs (y) - r;
  {
    double xe = x < c->entrance_x_mm ? c->entrance_x_mm : c->exit_x_mm;
    double gap = c->passage_width_mm / 2.0 - fabs (y);

    return (gap <= 0.0 ? fabs (x - xe) : hypot (x - xe, gap)) - r;
  }
}
