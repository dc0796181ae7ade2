#include "nb-sim-base.h"
#include "nb-traj.h"

#include "nb-angle.h"
#include "nb-error.h"

#include <math.h>
#include <string.h>

void
nb_sim_base_model_default (NbSimBaseModel *m)
{
  memset (m, 0, sizeof *m);
  m->speed_mm_s = 1000.0;
  m->turn_deg_s = 90.0;
  m->bias_mm[0] = 3.0;
  m->bias_mm[1] = -2.0;
  m->bias_deg = 0.15;
  m->scatter_mm = 1.2;
  m->scatter_deg = 0.25;
  m->wander_mm = 8.0;
  m->load_factor = 0.5;
  m->rated_load_kg = 20.0;
  m->speed_noise = 0.01;
  m->detect_mm = 2000.0;
  m->clearance_mm = 100.0;
  m->detour_speed = 0.6;
  m->replan_s = 0.5;
  m->ramp_deg = 30.0;
  m->narrow_mm = 150.0;
  m->narrow_min_speed = 0.3;
  m->sensor_range_mm = 5000.0;
  m->sensor_fov_deg = 270.0;
  m->range_sigma_mm = 5.0;
  m->range_sigma_frac = 0.005;
}

void
nb_sim_base_init (NbSimBase *b, const NbSimBaseModel *model, double load_kg, guint32 seed)
{
  memset (b, 0, sizeof *b);
  b->model = *model;
  b->load_kg = load_kg;
  b->legs = g_array_new (FALSE, FALSE, sizeof (NbSimBaseLeg));
  b->rand = g_rand_new_with_seed (seed);
}

void
nb_sim_base_clear (NbSimBase *b)
{
  g_clear_pointer (&b->legs, g_array_unref);
  g_clear_pointer (&b->rand, g_rand_free);
}

void
nb_sim_base_place (NbSimBase *b, double x, double y, double theta)
{
  b->x_mm = x, b->y_mm = y, b->theta_deg = theta;
}

static double
gauss (GRand *r)
{
  /* Box–Muller on the seeded generator: reproducible across platforms. */
  double u = g_rand_double_range (r, 1e-300, 1.0), v = g_rand_double (r);

  return sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

static void
add_leg (NbSimBase *b, double seconds, double x1, double y1, double th1, gboolean straight,
         double wander)
{
  NbSimBaseLeg leg = { b->clock_s, b->clock_s + seconds, b->x_mm, b->y_mm, x1, y1, b->theta_deg,
                       th1, wander, straight };

  g_array_append_val (b->legs, leg);
  b->clock_s += seconds;
  b->x_mm = x1, b->y_mm = y1, b->theta_deg = th1;
}

static void
move_direct (NbSimBase *b, double gx, double gy, double gth)
{
  const NbSimBaseModel *m = &b->model;
  double k = 1.0 + m->load_factor * (m->rated_load_kg > 0 ? b->load_kg / m->rated_load_kg : 0.0);
  double dx = gx - b->x_mm, dy = gy - b->y_mm, dist = hypot (dx, dy);
  double c = cos (gth * G_PI / 180.0), s = sin (gth * G_PI / 180.0);
  /* The attained pose: the goal plus bias (in the goal's frame) plus scatter. */
  double ea = k * (m->bias_mm[0] + m->scatter_mm * gauss (b->rand));
  double el = k * (m->bias_mm[1] + m->scatter_mm * gauss (b->rand));
  double ax = gx + c * ea - s * el, ay = gy + s * ea + c * el;
  double ath = nb_angle_recast_deg (gth + k * (m->bias_deg + m->scatter_deg * gauss (b->rand)));

  if (dist > 50.0)
    {
      double heading = atan2 (dy, dx) * 180.0 / G_PI;
      double turn = fabs (nb_angle_recast_deg (heading - b->theta_deg));
      double wander = k * m->wander_mm * (g_rand_boolean (b->rand) ? 1 : -1) *
                      g_rand_double_range (b->rand, 0.5, 1.0);

      add_leg (b, turn / m->turn_deg_s, b->x_mm, b->y_mm, heading, FALSE, 0);
      add_leg (b, dist / m->speed_mm_s, ax, ay, heading, TRUE, wander);
    }
  else if (dist > 1e-9)
    /* A goal within the goal tolerance: a small correction, no turn to face it. */
    add_leg (b, dist / m->speed_mm_s, ax, ay, b->theta_deg, FALSE, 0);
  add_leg (b, fabs (nb_angle_recast_deg (ath - b->theta_deg)) / m->turn_deg_s, ax, ay, ath, FALSE, 0);
}

static void drive_course (NbSimBase *b, double gth);

void
nb_sim_base_move_to (NbSimBase *b, double gx, double gy, double gth)
{
  /* The goal at the course's PG, from its P0, is the trial on the course. */
  if (b->has_course && hypot (gx - b->course.pg[0], gy - b->course.pg[1]) < 1e-6 &&
      hypot (b->x_mm - b->course.p0[0], b->y_mm - b->course.p0[1]) < 50.0)
    drive_course (b, gth);
  else
    move_direct (b, gx, gy, gth);
}

/* ------------------------------------------------------------ courses -- */

static double
load_k (const NbSimBase *b)
{
  const NbSimBaseModel *m = &b->model;

  return 1.0 + m->load_factor * (m->rated_load_kg > 0 ? b->load_kg / m->rated_load_kg : 0.0);
}

void
nb_sim_base_drive_path (NbSimBase *b, const NbSimWaypoint *w, guint n, double gth,
                        double scale)
{
  const NbSimBaseModel *m = &b->model;
  double k = load_k (b);
  double c = cos (gth * G_PI / 180.0), s = sin (gth * G_PI / 180.0);
  double ea, el, ax, ay, ath;

  if (n == 0)
    return;
  /* The last waypoint is the goal: attained as move_to attains one. */
  ea = k * (m->bias_mm[0] + m->scatter_mm * gauss (b->rand));
  el = k * (m->bias_mm[1] + m->scatter_mm * gauss (b->rand));
  ax = w[n - 1].x_mm + c * ea - s * el;
  ay = w[n - 1].y_mm + s * ea + c * el;
  ath = nb_angle_recast_deg (gth + k * (m->bias_deg + m->scatter_deg * gauss (b->rand)));
  for (guint i = 0; i < n; i++)
    {
      double x1 = i + 1 == n ? ax : w[i].x_mm, y1 = i + 1 == n ? ay : w[i].y_mm;
      double dx = x1 - b->x_mm, dy = y1 - b->y_mm, dist = hypot (dx, dy);
      double speed = m->speed_mm_s * w[i].speed * scale;

      if (dist > 1e-9 && speed > 0.0)
        {
          double heading = atan2 (dy, dx) * 180.0 / G_PI;
          double turn = fabs (nb_angle_recast_deg (heading - b->theta_deg));
          /* Each straight leg wanders on its own (a half sine, random side). */
          double wander = k * m->wander_mm * (g_rand_boolean (b->rand) ? 1 : -1) *
                          g_rand_double_range (b->rand, 0.5, 1.0);

          add_leg (b, turn / m->turn_deg_s, b->x_mm, b->y_mm, heading, FALSE, 0);
          add_leg (b, dist / speed, x1, y1, heading, dist > 50.0, wander);
        }
      if (w[i].pause_s > 0.0)
        add_leg (b, w[i].pause_s, b->x_mm, b->y_mm, b->theta_deg, FALSE, 0);
    }
  add_leg (b, fabs (nb_angle_recast_deg (ath - b->theta_deg)) / m->turn_deg_s, ax, ay, ath, FALSE, 0);
}

void
nb_sim_base_set_course (NbSimBase *b, const NbCourse *course, double t0)
{
  b->has_course = course != NULL;
  if (course != NULL)
    b->course = *course;
  b->course_t0 = t0;
}

/* Behaviours 2, 3: the stretch of the route the crossing obstacle sweeps
 * (its centre's smallest x while within `band` of the route) and the time
 * it leaves it (course time); FALSE when it never comes near the route. */
static gboolean
crossing_window (const NbCourse *c, double band, double *x_min, double *t_leave)
{
  double len = hypot (c->obs_to[0] - c->obs_from[0], c->obs_to[1] - c->obs_from[1]);
  double t_end = len / c->obs_speed_mm_s, step = 0.001;
  gboolean seen = FALSE;

  *x_min = INFINITY;
  *t_leave = 0.0;
  for (double t = 0.0; t <= t_end + step; t += step)
    {
      double ox, oy;

      nb_course_obstacle_at (c, t, &ox, &oy);
      if (fabs (oy) < band)
        {
          seen = TRUE;
          *x_min = MIN (*x_min, ox);
          *t_leave = t;
        }
    }
  return seen;
}

static void
drive_course (NbSimBase *b, double gth)
{
  const NbSimBaseModel *m = &b->model;
  const NbCourse *c = &b->course;
  double scale = 1.0 + m->speed_noise * gauss (b->rand);
  double r = c->robot_width_mm / 2.0, keep = m->clearance_mm;
  NbSimWaypoint w[8];
  guint n = 0;

  scale = MAX (scale, 0.5);
  if (c->kind == NB_COURSE_PASSAGE)
    {
      /* 9.2: slower as the gap on each side narrows. */
      double gap = (c->passage_width_mm - c->robot_width_mm) / 2.0;
      double f = CLAMP (gap / m->narrow_mm, m->narrow_min_speed, 1.0);

      w[n++] = (NbSimWaypoint) { c->entrance_x_mm - r, 0.0, 1.0, 0.0 };
      w[n++] = (NbSimWaypoint) { c->exit_x_mm + r, 0.0, f, 0.0 };
    }
  else if (c->has_obstacle && (c->behaviour == 1 || c->behaviour == 4))
    {
      /* Around the obstacle where it ends (P1), on the left. */
      const NbObstacleShape *o = &c->obstacle;
      double hx = (o->round ? o->across_mm : o->along_mm) / 2.0, hy = o->across_mm / 2.0;
      double y_off = hy + r + keep, ramp = y_off / tan (m->ramp_deg * G_PI / 180.0);
      double x_in = c->obs_to[0] - hx - r - keep, x_out = c->obs_to[0] + hx + r + keep;
      double x_seen = MAX (c->obs_to[0] - hx - m->detect_mm, b->x_mm);
      double x_ramp = MIN (MAX (x_in - ramp, x_seen), x_in - 0.25 * ramp);

      if (x_seen < x_ramp)
        w[n++] = (NbSimWaypoint) { x_seen, 0.0, 1.0, m->replan_s };
      w[n++] = (NbSimWaypoint) { x_ramp, 0.0, 1.0, x_seen < x_ramp ? 0.0 : m->replan_s };
      w[n++] = (NbSimWaypoint) { x_in, y_off, m->detour_speed, 0.0 };
      w[n++] = (NbSimWaypoint) { x_out, y_off, m->detour_speed, 0.0 };
      w[n++] = (NbSimWaypoint) { x_out + (x_in - x_ramp), 0.0, m->detour_speed, 0.0 };
    }
  else if (c->has_obstacle)
    {
      /* Stop short of where the crossing obstacle sweeps the route until it
       * has left it, then go on (7.1: avoiding by stopping). */
      const NbObstacleShape *o = &c->obstacle;
      double ro = o->across_mm / 2.0, x_min, t_leave;

      if (crossing_window (c, ro + r + keep, &x_min, &t_leave))
        {
          double x_stop = x_min - ro - r - keep;
          double t_now = b->clock_s - b->course_t0;
          double t_there = t_now + (x_stop - b->x_mm) / (m->speed_mm_s * scale);

          if (x_stop > b->x_mm && t_there < t_leave)
            w[n++] = (NbSimWaypoint) { x_stop, 0.0, 1.0, t_leave - t_there + m->replan_s };
        }
    }
  w[n++] = (NbSimWaypoint) { c->pg[0], c->pg[1], 1.0, 0.0 };
  nb_sim_base_drive_path (b, w, n, gth, scale);
}

/* The sensor's physics per table 2 obstacle (nb_sim_base_detect). */
static const struct {
  const char *name;
  double p_far, bias;
} seen_as[] = {
  { "wooden wall", 1.0, 0.0 },
  { "glass wall", 0.4, 0.01 },
  { "wooden table", 0.95, 0.0 },
  { "metal table", 0.85, 0.0 },
  { "large cylinder", 1.0, 0.0 },
  { "small cylinder", 0.8, 0.0 },
};

gboolean
nb_sim_base_detect (NbSimBase *b, double bearing, gboolean *detected, double *range_mm)
{
  const NbSimBaseModel *m = &b->model;
  const NbCourse *c = &b->course;
  double p_far = 1.0, bias = 0.0, u, p, d;

  *detected = FALSE;
  *range_mm = NAN;
  if (!b->has_course || c->kind != NB_COURSE_DETECTION)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (seen_as); i++)
    if (g_strcmp0 (c->obstacle.name, seen_as[i].name) == 0)
      p_far = seen_as[i].p_far, bias = seen_as[i].bias;
  /* One draw per look, whether it sees or not: the sequence of draws does
   * not depend on the outcome. */
  u = g_rand_double (b->rand);
  d = c->range_mm;
  if (fabs (nb_angle_recast_deg (bearing - c->bearing_deg)) > 1e-9 ||
      fabs (nb_angle_recast_deg (c->bearing_deg)) > m->sensor_fov_deg / 2.0 ||
      d > m->sensor_range_mm)
    {
      gauss (b->rand);
      return TRUE;
    }
  p = 1.0 - (1.0 - p_far) * (d / m->sensor_range_mm) * (d / m->sensor_range_mm);
  *detected = u < p;
  *range_mm = d * (1.0 + bias) + (m->range_sigma_mm + m->range_sigma_frac * d) * gauss (b->rand);
  if (!*detected)
    *range_mm = NAN;
  return TRUE;
}

void
nb_sim_base_pose_at (const NbSimBase *b, double t, double *x, double *y, double *th)
{
  guint lo = 0, hi = b->legs->len;

  /* The legs are in time order: the first whose end is not before t. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (b->legs, NbSimBaseLeg, mid).t1_s < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = MIN (lo, b->legs->len ? b->legs->len - 1 : 0); i < b->legs->len; i++)
    {
      const NbSimBaseLeg *l = &g_array_index (b->legs, NbSimBaseLeg, i);
      double u, ex, ey, len, lat;

      if (t > l->t1_s && i + 1 < b->legs->len)
        continue;
      if (t < l->t0_s)
        t = l->t0_s;
      u = l->t1_s > l->t0_s ? CLAMP ((t - l->t0_s) / (l->t1_s - l->t0_s), 0.0, 1.0) : 1.0;
      *x = l->x0 + u * (l->x1 - l->x0);
      *y = l->y0 + u * (l->y1 - l->y0);
      *th = nb_angle_recast_deg (l->th0 + u * nb_angle_recast_deg (l->th1 - l->th0));
      if (l->straight && (len = hypot (l->x1 - l->x0, l->y1 - l->y0)) > 0)
        {
          /* The wander: a half sine across the leg, zero at both ends. */
          ex = (l->x1 - l->x0) / len, ey = (l->y1 - l->y0) / len;
          lat = l->wander_mm * sin (G_PI * u);
          *x += -ey * lat;
          *y += ex * lat;
        }
      return;
    }
  *x = b->x_mm, *y = b->y_mm, *th = b->theta_deg;
}

static void
source_pose (gconstpointer self, double t, double *x_m, double *y_m, double *th)
{
  double x, y;

  nb_sim_base_pose_at (self, t, &x, &y, th);
  *x_m = x / 1000.0, *y_m = y / 1000.0;
}

NbPoseSource
nb_sim_base_source (const NbSimBase *b)
{
  NbPoseSource s = { source_pose, b };

  return s;
}

static gboolean
base_move_to_joints (gpointer robot, const double q[7], GError **error)
{
  NbSimBase *b = robot;

  b->goals++;
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
               "a mobile base takes 2-D pose goals (MoveToPose), not joint angles");
  return FALSE;
}

static gboolean
base_move_to_pose (gpointer robot, const char *frame_id, const double p[3], const double o[4],
                   const char *planner, GError **error)
{
  NbSimBase *b = robot;
  /* The yaw of the quaternion (x, y, z, w: ROS's order; nb_quat_yaw's is w first). */
  const double q[4] = { o[3], o[0], o[1], o[2] };
  double yaw = nb_quat_yaw (q);

  b->goals++;
  if (b->fail_goal != 0 && b->goals == b->fail_goal)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                   "goal %u aborted by the navigation stack (injected)", b->goals);
      return FALSE;
    }
  if (frame_id && *frame_id && !g_str_equal (frame_id, "map"))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "frame '%s' is not known to the simulator "
                   "(the test area is 'map')", frame_id);
      return FALSE;
    }
  nb_sim_base_move_to (b, p[0] * 1000.0, p[1] * 1000.0, yaw * 180.0 / G_PI);
  return TRUE;
}

static void
base_stop (gpointer robot)
{
  ((NbSimBase *) robot)->stops++;
}

static void
base_wait (gpointer robot, double seconds)
{
  NbSimBase *b = robot;

  /* Standing still: a leg with no motion keeps pose_at continuous. */
  add_leg (b, seconds, b->x_mm, b->y_mm, b->theta_deg, FALSE, 0);
}

const NbRobotOps *
nb_sim_base_ops (void)
{
  static const NbRobotOps ops = { base_move_to_joints, base_move_to_pose, base_stop, base_wait };

  return &ops;
}
