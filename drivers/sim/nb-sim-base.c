#include "nb-sim-base.h"

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

void
nb_sim_base_move_to (NbSimBase *b, double gx, double gy, double gth)
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
  /* The yaw of the quaternion (x, y, z, w). */
  double yaw = atan2 (2.0 * (o[3] * o[2] + o[0] * o[1]), 1.0 - 2.0 * (o[1] * o[1] + o[2] * o[2]));

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
