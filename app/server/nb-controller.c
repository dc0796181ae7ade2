#include "nb-controller.h"

#include "nb-error.h"

#include <math.h>
#include <string.h>

typedef struct {
  guint id;
  NbPriority priority;
  gboolean base;                /* a navigation goal for the base: base_goal */
  double base_goal[3];          /* x, y mm, heading ° in the map frame */
  double target[NB_ARM_JOINTS];
  double velocity_scaling;      /* of the joints' velocity limits, (0, 1] */
  /* A timed trajectory (FollowJointTrajectory): n points, each t (s from
   * the goal's start) and the joints; target is its last point. */
  guint traj_n;
  double *traj_t, *traj_q;
  NbGoalDone done;
  gpointer data;
} Goal;

struct NbController {
  NbSimArm arm;
  NbArbiter *arbiter;
  char *default_frame;
  double time_scale;
  GHashTable *waiting;          /* id → Goal*, goals the arbiter holds back */
  /* The goal being executed and its motion on the wall clock: the joints
   * the simulated arm went through (t in simulated s from the start, q),
   * as its on_advance reported them — a ramp, or the servo's response with
   * its overshoot and ring — so GET /robot/state shows what the joints do. */
  Goal *active;
  double q0[NB_ARM_JOINTS], q1[NB_ARM_JOINTS];
  GArray *traj_t;               /* of double */
  GArray *traj_q;               /* of double[NB_ARM_JOINTS] */
  double traj_s;                /* the motion's simulated length */
  gint64 t0_us, duration_us;
  /* The latest goal the arm counted (arm.goals) began to move at this
   * instant of the wall clock (GET /robot/state's stamp_us clock); 0: none
   * yet.  A client polling the state knows each goal and its start from it,
   * however seldom it polls. */
  gint64 goal_started_us;
  GError *result;               /* the active goal's result, set when it ends */
  /* The base under the arm (NULL: none) and, while a base goal runs, its
   * motion's span on the base's virtual clock. */
  NbSimBase *base;
  double base_t0, base_t1;
  guint finish_source;
  guint lease_source;
  /* The arm's motion as other threads may read it (nb_controller_joints_at:
   * the simulated tracker beside the server), published under pub_lock
   * whenever a motion starts or ends: the main thread's fields above change
   * step by step while a goal is planned. */
  GMutex pub_lock;
  gboolean pub_moving;
  gint64 pub_t0_us, pub_duration_us;
  double pub_traj_s;
  GArray *pub_t, *pub_q;
  double pub_q0[NB_ARM_JOINTS], pub_q1[NB_ARM_JOINTS], pub_rest[NB_ARM_JOINTS];
  double pub_payload_kg;        /* the load at the TCP (POST /sim/payload) */
};

static void start (NbController *c, Goal *g);

static void
goal_free (Goal *g)
{
  if (g == NULL)
    return;
  g_free (g->traj_t);
  g_free (g->traj_q);
  g_free (g);
}

G_DEFINE_QUARK (nb-controller-error-quark, nb_controller_error)

NbController *
nb_controller_new (const NbArmModel *model, const char *default_frame, double time_scale,
                   guint32 seed, NbClockFunc clock, gpointer clock_data)
{
  NbController *c = g_new0 (NbController, 1);

  nb_sim_arm_init (&c->arm, model, seed);
  g_free (c->arm.default_frame);
  c->arm.default_frame = g_strdup (default_frame);
  c->default_frame = g_strdup (default_frame);
  c->time_scale = time_scale;
  c->arbiter = nb_arbiter_new (clock, clock_data);
  /* The simulator always has joint feedback; /sim/feedback can take it away. */
  nb_arbiter_set_feedback (c->arbiter, TRUE);
  c->waiting = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                      (GDestroyNotify) goal_free);
  c->traj_t = g_array_new (FALSE, FALSE, sizeof (double));
  c->traj_q = g_array_new (FALSE, FALSE, sizeof (double));
  g_mutex_init (&c->pub_lock);
  c->pub_t = g_array_new (FALSE, FALSE, sizeof (double));
  c->pub_q = g_array_new (FALSE, FALSE, sizeof (double));
  memcpy (c->pub_rest, c->arm.q, sizeof c->pub_rest);
  return c;
}

static void
clear_motion (NbController *c)
{
  g_clear_handle_id (&c->finish_source, g_source_remove);
  g_clear_handle_id (&c->lease_source, g_source_remove);
}

void
nb_controller_free (NbController *c)
{
  if (c == NULL)
    return;
  /* Nobody is left to answer: goals still out are dropped without a call. */
  clear_motion (c);
  goal_free (c->active);
  g_clear_error (&c->result);
  g_hash_table_destroy (c->waiting);
  nb_arbiter_free (c->arbiter);
  nb_sim_arm_clear (&c->arm);
  g_array_unref (c->traj_t);
  g_array_unref (c->traj_q);
  g_array_unref (c->pub_t);
  g_array_unref (c->pub_q);
  g_mutex_clear (&c->pub_lock);
  if (c->base != NULL)
    nb_sim_base_clear (c->base);
  g_free (c->base);
  g_free (c->default_frame);
  g_free (c);
}

void
nb_controller_add_base (NbController *c, guint32 seed)
{
  NbSimBaseModel model;

  if (c->base != NULL)
    return;
  nb_sim_base_model_default (&model);
  c->base = g_new0 (NbSimBase, 1);
  nb_sim_base_init (c->base, &model, 0.0, seed);
}

NbSimArm *
nb_controller_arm (NbController *c)
{
  return &c->arm;
}

NbArbiter *
nb_controller_arbiter (NbController *c)
{
  return c->arbiter;
}

const char *
nb_controller_default_frame (NbController *c)
{
  return c->default_frame;
}

/* Where the arm is now: on its way from q0 to q1 while a motion runs. */
static double
progress (NbController *c)
{
  gint64 now = g_get_monotonic_time ();

  if (c->active == NULL || c->finish_source == 0 || c->duration_us <= 0)
    return 1.0;
  return CLAMP ((double) (now - c->t0_us) / (double) c->duration_us, 0.0, 1.0);
}

/* The joints at fraction f of a motion — its n reported instants t (in
 * simulated s, over traj_s) and joints Q, else the ramp q0 → q1 — and
 * (v not NULL) their velocity, rad/s of wall time over duration_us:
 * linear between the reported instants. */
static void
motion_joints (const double *t, const double *Q, guint n, double traj_s, const double *q0,
               const double *q1, gint64 duration_us, double time_scale, double f,
               double q[NB_ARM_JOINTS], double v[NB_ARM_JOINTS])
{
  guint lo = 0, hi;
  double tau = f * traj_s, u, dt;

  if (n < 2 || traj_s <= 0)
    {
      for (int i = 0; i < NB_ARM_JOINTS; i++)
        {
          q[i] = q0[i] + f * (q1[i] - q0[i]);
          if (v)
            v[i] = duration_us > 0 ? (q1[i] - q0[i]) / (duration_us * 1e-6) : 0;
        }
      return;
    }
  /* The last instant at or before tau (bisection: 1 kHz over seconds). */
  hi = n - 1;
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (t[mid] <= tau)
        lo = mid;
      else
        hi = mid;
    }
  dt = t[hi] - t[lo];
  u = dt > 0 ? CLAMP ((tau - t[lo]) / dt, 0.0, 1.0) : 1.0;
  for (int i = 0; i < NB_ARM_JOINTS; i++)
    {
      double a = Q[lo * NB_ARM_JOINTS + i], b = Q[hi * NB_ARM_JOINTS + i];

      q[i] = a + u * (b - a);
      if (v)
        v[i] = dt > 0 && time_scale > 0 ? (b - a) / (dt * time_scale) : 0;
    }
}

/* The joints at fraction f of the current motion (and their velocity). */
static void
joints_at (NbController *c, double f, double q[NB_ARM_JOINTS], double v[NB_ARM_JOINTS])
{
  motion_joints ((const double *) c->traj_t->data, (const double *) c->traj_q->data,
                 c->traj_t->len, c->traj_s, c->q0, c->q1, c->duration_us, c->time_scale, f, q,
                 v);
}

/* The motion as it now stands, for the other threads (the arm's joints
 * move only when a motion starts or is held). */
static void
publish (NbController *c)
{
  g_mutex_lock (&c->pub_lock);
  c->pub_moving = c->active != NULL && !c->active->base && c->finish_source != 0 &&
                  c->duration_us > 0;
  c->pub_t0_us = c->t0_us;
  c->pub_duration_us = c->duration_us;
  c->pub_traj_s = c->traj_s;
  g_array_set_size (c->pub_t, 0);
  g_array_set_size (c->pub_q, 0);
  if (c->pub_moving)
    {
      g_array_append_vals (c->pub_t, c->traj_t->data, c->traj_t->len);
      g_array_append_vals (c->pub_q, c->traj_q->data, c->traj_q->len);
    }
  memcpy (c->pub_q0, c->q0, sizeof c->pub_q0);
  memcpy (c->pub_q1, c->q1, sizeof c->pub_q1);
  memcpy (c->pub_rest, c->arm.q, sizeof c->pub_rest);
  g_mutex_unlock (&c->pub_lock);
}

void
nb_controller_joints_at (NbController *c, gint64 t_us, double q[NB_ARM_JOINTS])
{
  g_mutex_lock (&c->pub_lock);
  if (c->pub_moving)
    {
      double f = CLAMP ((double) (t_us - c->pub_t0_us) / (double) c->pub_duration_us, 0.0, 1.0);

      motion_joints ((const double *) c->pub_t->data, (const double *) c->pub_q->data,
                     c->pub_t->len, c->pub_traj_s, c->pub_q0, c->pub_q1, c->pub_duration_us,
                     c->time_scale, f, q, NULL);
    }
  else
    memcpy (q, c->pub_rest, sizeof (double) * NB_ARM_JOINTS);
  g_mutex_unlock (&c->pub_lock);
}

void
nb_controller_set_payload (NbController *c, double kg)
{
  g_mutex_lock (&c->pub_lock);
  c->pub_payload_kg = kg;
  g_mutex_unlock (&c->pub_lock);
}

double
nb_controller_payload_kg (NbController *c)
{
  double kg;

  g_mutex_lock (&c->pub_lock);
  kg = c->pub_payload_kg;
  g_mutex_unlock (&c->pub_lock);
  return kg;
}

/* The base's pose now: along its motion's legs while a base goal runs. */
static void
base_pose (NbController *c, gboolean moving, double *x, double *y, double *th)
{
  if (moving && c->active->base)
    nb_sim_base_pose_at (c->base, c->base_t0 + progress (c) * (c->base_t1 - c->base_t0), x, y,
                         th);
  else
    *x = c->base->x_mm, *y = c->base->y_mm, *th = c->base->theta_deg;
}

void
nb_controller_state (NbController *c, NbControllerState *st)
{
  gboolean moving = c->active != NULL && c->finish_source != 0 && c->duration_us > 0;
  gboolean arm_moving = moving && !c->active->base;

  memset (st, 0, sizeof *st);
  if (c->base != NULL)
    {
      st->has_base = TRUE;
      st->base_moving = moving && c->active->base;
      base_pose (c, moving, &st->base_x_mm, &st->base_y_mm, &st->base_theta_deg);
    }
  if (arm_moving)
    joints_at (c, progress (c), st->position, st->velocity);
  else
    memcpy (st->position, c->arm.q, sizeof st->position);
  st->moving = moving;
  nb_arm_fk (&c->arm.model, st->position, st->tcp);
  st->goals = c->arm.goals;
  st->goal_started_us = c->goal_started_us;
  st->stops = c->arm.stops;
}

/* The active goal has its terminal result: answer it, then send whatever the
 * arbiter lets go next. */
static void
finish (NbController *c)
{
  Goal *g = c->active;
  g_autoptr (GError) result = g_steal_pointer (&c->result);
  guint next;

  clear_motion (c);
  c->active = NULL;
  publish (c);
  next = nb_arbiter_terminal (c->arbiter, g->id);
  g->done (result, g->data);
  goal_free (g);
  if (next != 0)
    {
      Goal *n = g_hash_table_lookup (c->waiting, GUINT_TO_POINTER (next));

      if (n != NULL)
        {
          g_hash_table_steal (c->waiting, GUINT_TO_POINTER (next));
          start (c, n);
        }
    }
}

static gboolean
on_finished (gpointer data)
{
  NbController *c = data;

  c->finish_source = 0;
  finish (c);
  return G_SOURCE_REMOVE;
}

/* Hold: the arm (or the base) stays where the interrupted motion had
 * brought it. */
static void
hold (NbController *c)
{
  if (c->active != NULL && c->active->base)
    {
      double x, y, th;

      /* The rest of the drive is not made: the next one starts here. */
      base_pose (c, TRUE, &x, &y, &th);
      nb_sim_base_place (c->base, x, y, th);
      return;
    }
  joints_at (c, progress (c), c->arm.q, NULL);
}

static gboolean
on_lease_check (gpointer data)
{
  NbController *c = data;

  /* seeds/001 "Потеря аренды": the motion server's renewal is not confirmed
   * → the current motion is aborted with a priority error. */
  if (c->active != NULL && nb_arbiter_check_lease (c->arbiter) == c->active->id)
    {
      const char *why = nb_arbiter_last_rejection (c->arbiter);

      c->lease_source = 0;
      hold (c);
      g_clear_error (&c->result);
      g_set_error (&c->result, NB_CONTROLLER_ERROR, NB_CONTROLLER_PRIORITY, "priority: %s",
                   why ? why : "the priority lease was lost");
      finish (c);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* The simulated arm's motion as it reports it (nb-sim-arm.h on_advance). */
static void
on_traj (gpointer data, double t0_s, const double *q0, double t1_s, const double *q1)
{
  NbController *c = data;
  double t = c->traj_s + (t1_s - t0_s);

  (void) q0;
  /* The steps are contiguous: each begins where the last ended. */
  c->traj_s = t;
  g_array_append_val (c->traj_t, t);
  g_array_append_vals (c->traj_q, q1, NB_ARM_JOINTS);
}

static void
start (NbController *c, Goal *g)
{
  double before = c->arm.clock_s, slow = c->arm.slow_factor, zero = 0;
  guint counted = c->arm.goals;

  c->active = g;
  memcpy (c->q0, c->arm.q, sizeof c->q0);
  g_array_set_size (c->traj_t, 0);
  g_array_set_size (c->traj_q, 0);
  c->traj_s = 0;
  g_array_append_val (c->traj_t, zero);
  g_array_append_vals (c->traj_q, c->q0, NB_ARM_JOINTS);
  c->arm.on_advance = on_traj;
  c->arm.on_advance_data = c;
  /* max_velocity_scaling_factor: the joints' velocity limits scaled. */
  c->arm.slow_factor = slow / g->velocity_scaling;
  /* The simulator moves on its virtual clock; the wall clock follows it here. */
  if (g->base)
    {
      c->base_t0 = c->base->clock_s;
      nb_sim_base_move_to (c->base, g->base_goal[0], g->base_goal[1], g->base_goal[2]);
      c->base_t1 = c->base->clock_s;
      c->duration_us = (gint64) ((c->base_t1 - c->base_t0) * c->time_scale * 1e6);
      c->arm.goals++;
    }
  else if (g->traj_n > 0)
    {
      /* The controller interpolates the points joint-linearly on their times
       * (the served arm follows them exactly: no servo, no dwell); the
       * segment from where the arm is to the first point must be within
       * the joints' velocity limits as the others were checked to be. */
      double dt = g->traj_t[0];

      for (int i = 0; i < NB_ARM_JOINTS; i++)
        {
          const NbArmJoint *j = &c->arm.model.joint[i];

          if (j->has_velocity_limits && j->max_velocity > 0 &&
              fabs (g->traj_q[i] - c->q0[i]) > j->max_velocity * dt * (1 + 1e-6) + 1e-9)
            {
              g_set_error (&c->result, NB_ERROR, NB_ERROR_FAILED,
                           "trajectory point 1: %s would move at %.3f rad/s from where the arm "
                           "is, over its limit %.3f rad/s", j->name,
                           fabs (g->traj_q[i] - c->q0[i]) / dt, j->max_velocity);
              break;
            }
        }
      if (c->result != NULL)
        c->duration_us = 0;
      else
        {
          for (guint k = 0; k < g->traj_n; k++)
            {
              g_array_append_val (c->traj_t, g->traj_t[k]);
              g_array_append_vals (c->traj_q, &g->traj_q[k * NB_ARM_JOINTS], NB_ARM_JOINTS);
            }
          c->traj_s = g->traj_t[g->traj_n - 1];
          memcpy (c->arm.q, &g->traj_q[(g->traj_n - 1) * NB_ARM_JOINTS], sizeof c->arm.q);
          c->arm.clock_s += c->traj_s;
          c->arm.goals++;
          c->duration_us = (gint64) (c->traj_s * c->time_scale * 1e6);
        }
    }
  else if (!nb_sim_arm_ops ()->move_to_joints (&c->arm, g->target, &c->result))
    {
      memcpy (c->arm.q, c->q0, sizeof c->q0);
      c->duration_us = 0;
    }
  else
    c->duration_us = (gint64) ((c->arm.clock_s - before) * c->time_scale * 1e6);
  c->arm.slow_factor = slow;
  c->arm.on_advance = NULL;
  c->arm.on_advance_data = NULL;
  memcpy (c->q1, c->arm.q, sizeof c->q1);
  c->t0_us = g_get_monotonic_time ();
  /* The motion's start (its progress runs from t0_us), for the goal this
   * start counted (a trajectory refused at its first point counts none). */
  if (c->arm.goals != counted)
    c->goal_started_us = g_get_real_time ();
  c->finish_source = c->duration_us > 0
                     ? g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) MAX (1, c->duration_us / 1000),
                                           on_finished, c, NULL)
                     : g_idle_add (on_finished, c);
  if (g->priority == NB_PRIORITY_LOW)
    c->lease_source = g_timeout_add (20, on_lease_check, c);
  publish (c);
}

/* q: a joint goal; else base_goal: the base's. */
static gboolean
submit_goal (NbController *c, Goal *g, NbPriority priority, const char *owner, guint64 epoch,
             GError **error)
{
  NbGoalDecision decision;
  guint id;

  if ((id = nb_arbiter_submit (c->arbiter, priority, owner, epoch, &decision, error)) == 0)
    {
      goal_free (g);
      return FALSE;
    }
  g->id = id;
  g->priority = priority;
  if (decision == NB_GOAL_SEND && c->active == NULL)
    start (c, g);
  else
    g_hash_table_insert (c->waiting, GUINT_TO_POINTER (id), g);
  return TRUE;
}

static gboolean
submit (NbController *c, NbPriority priority, const char *owner, guint64 epoch,
        const double q[NB_ARM_JOINTS], double velocity_scaling, const double *base_goal,
        NbGoalDone done, gpointer data,
        GError **error)
{
  Goal *g;

  /* seeds/002: outside the soft range → refused before anything is sent. */
  if (q != NULL && !nb_arm_check_joints (&c->arm.model, q, error))
    return FALSE;
  if (!(velocity_scaling > 0 && velocity_scaling <= 1))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "max_velocity_scaling_factor: %g is not in "
                   "(0, 1]", velocity_scaling);
      return FALSE;
    }
  g = g_new0 (Goal, 1);
  if (q != NULL)
    memcpy (g->target, q, sizeof g->target);
  else
    {
      g->base = TRUE;
      memcpy (g->base_goal, base_goal, sizeof g->base_goal);
    }
  g->velocity_scaling = velocity_scaling;
  g->done = done;
  g->data = data;
  return submit_goal (c, g, priority, owner, epoch, error);
}

gboolean
nb_controller_follow_trajectory (NbController *c, NbPriority priority, const char *owner,
                                 guint64 epoch, const double *t_s, const double *q, guint n,
                                 NbGoalDone done, gpointer data, GError **error)
{
  Goal *g;

  if (n < 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "points: a trajectory needs a point");
      return FALSE;
    }
  for (guint k = 0; k < n; k++)
    {
      const double *qk = &q[k * NB_ARM_JOINTS];
      double dt = t_s[k] - (k > 0 ? t_s[k - 1] : 0);

      /* seeds/002: every point inside the soft range, before any motion. */
      if (!nb_arm_check_joints (&c->arm.model, qk, error))
        {
          g_prefix_error (error, "points[%u]: ", k);
          return FALSE;
        }
      if (!isfinite (t_s[k]) || !(dt > 0))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "points[%u].time_from_start: %g s is "
                       "not after the point before (%g s)", k, t_s[k], k > 0 ? t_s[k - 1] : 0);
          return FALSE;
        }
      for (int i = 0; k > 0 && i < NB_ARM_JOINTS; i++)
        {
          const NbArmJoint *j = &c->arm.model.joint[i];
          double v = fabs (qk[i] - q[(k - 1) * NB_ARM_JOINTS + i]) / dt;

          if (j->has_velocity_limits && j->max_velocity > 0 &&
              v > j->max_velocity * (1 + 1e-6) + 1e-9 / dt)
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "points[%u]: %s would move at "
                           "%.3f rad/s, over its limit %.3f rad/s", k, j->name, v,
                           j->max_velocity);
              return FALSE;
            }
        }
    }
  g = g_new0 (Goal, 1);
  g->traj_n = n;
  g->traj_t = g_memdup2 (t_s, sizeof (double) * n);
  g->traj_q = g_memdup2 (q, sizeof (double) * n * NB_ARM_JOINTS);
  memcpy (g->target, &q[(n - 1) * NB_ARM_JOINTS], sizeof g->target);
  g->velocity_scaling = 1.0;
  g->done = done;
  g->data = data;
  return submit_goal (c, g, priority, owner, epoch, error);
}

gboolean
nb_controller_move_joints (NbController *c, NbPriority priority, const char *owner,
                           guint64 epoch, const double q[NB_ARM_JOINTS], double velocity_scaling,
                           NbGoalDone done, gpointer data, GError **error)
{
  return submit (c, priority, owner, epoch, q, velocity_scaling, NULL, done, data, error);
}

gboolean
nb_controller_move_pose (NbController *c, NbPriority priority, const char *owner, guint64 epoch,
                         const char *frame_id, const double p[3], const double o[4],
                         NbGoalDone done, gpointer data, GError **error)
{
  /* seeds/002: an empty frame_id is planning.default_frame. */
  const char *frame = frame_id && *frame_id ? frame_id : c->default_frame;
  double n = sqrt (o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
  double T[16], q[NB_ARM_JOINTS];
  NbControllerState st;

  gboolean base = c->base != NULL && g_str_equal (frame, NB_CONTROLLER_BASE_FRAME);

  if (!base && !g_str_equal (frame, "base_link"))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "frame_id '%s' is not known to the "
                   "simulated cell (base_link%s)", frame,
                   c->base != NULL ? ", or map for the base" : "");
      return FALSE;
    }
  if (!isfinite (n) || fabs (n - 1.0) > 1e-3)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "orientation: not a unit quaternion "
                   "(norm %g)", n);
      return FALSE;
    }
  for (int i = 0; i < 3; i++)
    if (!isfinite (p[i]))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "position[%d]: not a finite number", i);
        return FALSE;
      }
  if (base)
    {
      /* A 2-D navigation goal: x, y on the floor (position[2] is the
       * floor's, ignored) and the heading, the yaw of the orientation. */
      const double goal[3] = {
        p[0] * 1000.0, p[1] * 1000.0,
        atan2 (2.0 * (o[3] * o[2] + o[0] * o[1]), 1.0 - 2.0 * (o[1] * o[1] + o[2] * o[2]))
        * 180.0 / G_PI,
      };

      return submit (c, priority, owner, epoch, NULL, 1.0, goal, done, data, error);
    }
  {
    const double unit[4] = { o[0] / n, o[1] / n, o[2] / n, o[3] / n };

    nb_arm_pose_to_matrix (p, unit, T);
  }
  /* Planned from where the arm is now: an unreachable pose fails before any motion. */
  nb_controller_state (c, &st);
  if (!nb_arm_ik (&c->arm.model, T, st.position, q, error))
    return FALSE;
  return submit (c, priority, owner, epoch, q, 1.0, NULL, done, data, error);
}

guint
nb_controller_stop (NbController *c)
{
  g_autoptr (GArray) cancelled = g_array_new (FALSE, FALSE, sizeof (guint));
  guint active = nb_arbiter_stop (c->arbiter, cancelled), n = 0;

  c->arm.stops++;
  for (guint i = 0; i < cancelled->len; i++)
    {
      guint id = g_array_index (cancelled, guint, i);
      Goal *g = g_hash_table_lookup (c->waiting, GUINT_TO_POINTER (id));
      g_autoptr (GError) why = NULL;

      if (g == NULL)
        continue;
      g_hash_table_steal (c->waiting, GUINT_TO_POINTER (id));
      why = g_error_new (NB_CONTROLLER_ERROR, NB_CONTROLLER_CANCELLED,
                         "cancelled by motion stop before it was sent");
      g->done (why, g->data);
      goal_free (g);
      n++;
    }
  /* The arbiter keeps the active goal until its terminal result (seeds/001:
   * a stopping arm is still moving); here the simulated arm holds at once. */
  if (c->active != NULL && (active == 0 || active == c->active->id))
    {
      hold (c);
      g_clear_error (&c->result);
      g_set_error (&c->result, NB_CONTROLLER_ERROR, NB_CONTROLLER_CANCELLED,
                   "cancelled by motion stop");
      finish (c);
      n++;
    }
  return n;
}
