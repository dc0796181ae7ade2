#include "nb-iso9283-run.h"
#include "nb-clause-9283.h"
#include "nb-campaign-iso9283.h"

#include "nb-angle.h"
#include "nb-error.h"
#include "nb-record-words.h"
#include "nb-traj.h"

#include <math.h>
#include <string.h>

/* The robot behind a wrapper that measures after each goal. */
typedef struct {
  const NbRobotOps *ops;
  gpointer robot;
  NbIso9283MeasureFunc measure;
  gpointer measure_data;
  NbIso9283PoseRun *run;
  guint goal;
} Wrap;

static gboolean
wrap_joints (gpointer p, const double q[NB_ARM_JOINTS], GError **error)
{
  Wrap *w = p;
  guint k = w->goal % (NB_ISO9283_POSES + 1);
  NbPose6 attained;

  if (!w->ops->move_to_joints (w->robot, q, error))
    return FALSE;
  w->goal++;
  w->run->goals++;
  /* Goals of an iteration: home P1, P5, P4, P3, P2, home P1. */
  if (k == 0)
    return TRUE;
  if (!w->measure (w->measure_data, &attained, error))
    {
      g_prefix_error (error, "measuring goal %u: ", w->goal);
      return FALSE;
    }
  g_array_append_val (w->run->attained[k == NB_ISO9283_POSES ? 0 : nb_iso9283_cycle_pose (k)],
                      attained);
  return TRUE;
}

static gboolean
wrap_pose (gpointer p, const char *frame, const double pos[3], const double o[4],
           const char *planner, GError **error)
{
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the ISO 9283 pose test sends joint goals only");
  return FALSE;
}

static void
wrap_stop (gpointer p)
{
  Wrap *w = p;

  w->ops->stop (w->robot);
}

static void
wrap_wait (gpointer p, double s)
{
  Wrap *w = p;

  w->ops->wait (w->robot, s);
}

gboolean
nb_iso9283_pose_run (const NbArmModel *model, const NbIso9283Cube *cube,
                     const double q[NB_ISO9283_POSES][NB_ARM_JOINTS], guint cycles,
                     const NbRobotOps *ops, gpointer robot, NbIso9283MeasureFunc measure,
                     gpointer measure_data, NbIso9283PoseRun *run, GError **error)
{
  static const NbRobotOps wrap_ops = { wrap_joints, wrap_pose, wrap_stop, wrap_wait, NULL };
  g_autoptr (NbSequence) seq = NULL;
  Wrap w = { ops, robot, measure, measure_data, run, 0 };

  memset (run, 0, sizeof *run);
  run->cycles = cycles;
  for (guint i = 0; i < NB_ISO9283_POSES; i++)
    {
      run->attained[i] = g_array_new (FALSE, FALSE, sizeof (NbPose6));
      run->command[i] = (NbPose6) { cube->p_mm[i][0], cube->p_mm[i][1], cube->p_mm[i][2],
                                    cube->abc_deg[0], cube->abc_deg[1], cube->abc_deg[2] };
    }
  /* Every point checked against the soft ranges before anything moves. */
  if ((seq = nb_iso9283_pose_sequence (model, q, cycles, error)) == NULL ||
      !nb_sequence_run (seq, 0, &wrap_ops, &w, NULL, NULL, NULL, error))
    return FALSE;
  for (guint i = 0; i < NB_ISO9283_POSES; i++)
    if (!nb_iso9283_pose (&run->command[i], (NbPose6 *) run->attained[i]->data,
                          run->attained[i]->len, &run->result[i], error))
      {
        g_prefix_error (error, "P%u: ", i + 1);
        return FALSE;
      }
  return TRUE;
}

void
nb_iso9283_pose_run_clear (NbIso9283PoseRun *run)
{
  for (guint i = 0; i < NB_ISO9283_POSES; i++)
    g_clear_pointer (&run->attained[i], g_array_unref);
}

/* The simulated tracker's words as a run stores them (English msgids). */
static const char *const sim_measurement[2] = {
  "simulated laser tracker, 1 kHz, 6-DoF probe",
  "simulated laser tracker on the joints the robot reports",
};

const char *
nb_iso9283_sim_measurement (gboolean served)
{
  return sim_measurement[served ? 1 : 0];
}

void
nb_iso9283_stored_pose_run (NbIso9283StoredRun *out, const char *config,
                            const NbIso9283PoseRun *run, const NbIso9283Cube *cube,
                            const char *robot_url, const char *measurement, double speed_pct,
                            const char *load)
{
  *out = (NbIso9283StoredRun) {
    .config = (char *) config,
    .robot = (char *) (robot_url ? robot_url : "sim"),
    .measurement = (char *) (measurement ? measurement
                                         : nb_iso9283_sim_measurement (robot_url != NULL)),
    .speed_pct = speed_pct,
    .load = (char *) (load ? load : "rated"),
    .plane = cube->plane,
    .edge_mm = cube->edge_mm,
    .cycles = run->cycles,
  };
  memcpy (out->centre_mm, cube->centre_mm, sizeof out->centre_mm);
  memcpy (out->command, run->command, sizeof out->command);
  memcpy (out->attained, run->attained, sizeof out->attained);
}

gboolean
nb_iso9283_record_pose_run (const char *path, const char *config, const NbIso9283PoseRun *run,
                            const NbIso9283Cube *cube, const char *robot_url,
                            const char *measurement, double speed_pct, const char *load,
                            GError **error)
{
  g_autoptr (NbCampaign) c = nb_campaign_open (path, 0, error);
  NbIso9283StoredRun r;

  if (c == NULL)
    return FALSE;
  nb_iso9283_stored_pose_run (&r, config, run, cube, robot_url, measurement, speed_pct, load);
  return nb_campaign_iso9283_add_run (c, &r, error) && nb_campaign_close (g_steal_pointer (&c), error);
}

void
nb_iso9283_sim_errors (NbSimArm *arm)
{
  const double offset[NB_ARM_JOINTS] = { 0, 2e-4, 0, -1.5e-4, 0, 1e-4, 0 };
  const double link[NB_ARM_JOINTS] = { 0, 0, 0.0004, 0, -0.0003, 0, 0 };

  memcpy (arm->joint_offset_rad, offset, sizeof offset);
  memcpy (arm->link_error_m, link, sizeof link);
  nb_sim_arm_set_errors (arm);
  arm->noise_rad = 1e-5;
  arm->backlash_rad = 3e-5;
  arm->settle_omega_rad_s = 40;
  arm->settle_zeta = 0.3;
  arm->settle_dwell_s = 1.2;
  /* 6.6: the joints give way under the load, 3·10⁻⁵ rad per N·m (≈ 0.5 mm
   * at the TCP for 7 kg at these poses). */
  for (int i = 0; i < NB_ARM_JOINTS; i++)
    arm->compliance_rad_per_nm[i] = 3e-5;
  /* 7.6: joints 2 and 4 warm up by 4·10⁻⁵ rad with a 1 h time constant. */
  arm->drift_rad[1] = 4e-5;
  arm->drift_rad[3] = -4e-5;
  arm->drift_tau_s = 3600;
  /* 8.6: the ramps run 0.4 % slower than commanded. */
  arm->speed_error = -0.004;
}

static double gauss (GRand *r, double sigma);

void
nb_iso9283_sim_unit (NbSimArm *arm, const char *unit)
{
  g_autoptr (GRand) r = NULL;
  guint32 seed = 5381;

  if (unit == NULL)
    return;
  /* djb2: the same unit has the same errors in every run and build. */
  for (const char *p = unit; *p; p++)
    seed = seed * 33 + (guchar) *p;
  r = g_rand_new_with_seed (seed);
  for (int i = 0; i < NB_ARM_JOINTS; i++)
    {
      arm->joint_offset_rad[i] += gauss (r, 1e-4);
      arm->link_error_m[i] += gauss (r, 2e-4);
    }
  nb_sim_arm_set_errors (arm);
}

gboolean
nb_iso9283_measure_sim (gpointer data, NbPose6 *attained, GError **error)
{
  NbIso9283SimMeasure *m = data;
  double now = m->tracker->arm->clock_s;

  if (!nb_sim_tracker_mean (m->tracker, now - m->window_s, now, attained))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "the tracker has no sample in the last %g s",
                   m->window_s);
      return FALSE;
    }
  return TRUE;
}

static void true_tcp (NbSimArm *truth, GRand *rand, double noise_mm, double noise_deg,
                      const double q[NB_ARM_JOINTS], NbPose6 *p);

gboolean
nb_iso9283_measure_state (gpointer data, NbPose6 *attained, GError **error)
{
  NbIso9283StateMeasure *m = data;
  NbRobotState st;

  if (!nb_http_robot_state (m->robot, &st, error))
    return FALSE;
  if (st.moving)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "the arm still moves after its goal");
      return FALSE;
    }
  true_tcp (m->truth, m->rand, m->noise_mm, m->noise_deg, st.position, attained);
  return TRUE;
}

void
nb_iso9283_sample_pose (const NbSample *s, NbPose6 *pose)
{
  const double q[4] = { s->qw, s->qx, s->qy, s->qz };
  double R[9], abc[3];

  nb_quat_to_matrix (q, R);
  nb_iso9283_matrix_to_abc (R, abc);
  *pose = (NbPose6) { s->x_m * 1000, s->y_m * 1000, s->z_m * 1000, abc[0], abc[1], abc[2] };
}

gboolean
nb_iso9283_measure_device (gpointer data, NbPose6 *attained, GError **error)
{
  NbIso9283DeviceMeasure *m = data;
  double from = nb_device_now () + m->guard_s, until = from + m->window_s, sum[6] = { 0 };
  double give_up = from + fmax (m->window_s, m->timeout_s);
  NbPose6 first = { 0 }, last = { 0 };
  guint n = 0;

  for (;;)
    {
      double now = nb_device_now ();
      NbEvent ev;
      NbPose6 p;

      /* The window, or past it until a first pose comes (a stream that
       * stalls a moment under load), up to the timeout. */
      if ((now >= until && n > 0) || now >= give_up)
        break;
      if (!nb_device_next (m->device,
                           (gint64) (((n > 0 ? until : give_up) - now) * G_USEC_PER_SEC) + 1, &ev))
        continue;
      if (ev.kind == NB_EVENT_ERROR || ev.kind == NB_EVENT_LOST || ev.kind == NB_EVENT_END)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "the instrument (%s): %s",
                       nb_device_url (m->device) ? nb_device_url (m->device) : "?",
                       ev.message ? ev.message : ev.kind == NB_EVENT_END ? "recording over"
                                                                          : "link lost");
          nb_event_clear (&ev);
          return FALSE;
        }
      if (ev.kind == NB_EVENT_SAMPLE && ev.sample.t_s >= from && (ev.sample.t_s <= until || n == 0))
        {
          if (!ev.sample.has_orientation)
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                           "the instrument (%s) gives no orientation: ISO 9283 7.2 needs a "
                           "6-DoF pose", nb_device_driver (m->device)->name);
              nb_event_clear (&ev);
              return FALSE;
            }
          nb_iso9283_sample_pose (&ev.sample, &p);
          /* The stream must be still over the window: a pose that jumps
           * from the last by more than the band (a frame taken before the
           * goal's end, delivered late) starts the window again from it. */
          if (n > 0 && hypot (hypot (p.x_mm - last.x_mm, p.y_mm - last.y_mm),
                              p.z_mm - last.z_mm) > m->band_mm)
            {
              n = 0;
              memset (sum, 0, sizeof sum);
              until = MIN (ev.sample.t_s + m->window_s, give_up);
            }
          last = p;
          if (n == 0)
            first = p;
          /* Orientation on recast differences from the first (±180°). */
          sum[0] += p.x_mm - first.x_mm;
          sum[1] += p.y_mm - first.y_mm;
          sum[2] += p.z_mm - first.z_mm;
          sum[3] += nb_angle_recast_deg (p.a_deg - first.a_deg);
          sum[4] += nb_angle_recast_deg (p.b_deg - first.b_deg);
          sum[5] += nb_angle_recast_deg (p.c_deg - first.c_deg);
          n++;
        }
      nb_event_clear (&ev);
    }
  m->samples = n;
  if (n == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                   "the instrument (%s) sent no pose in %g s after the goal",
                   nb_device_url (m->device) ? nb_device_url (m->device) : "?",
                   fmax (m->window_s, m->timeout_s));
      return FALSE;
    }
  *attained = (NbPose6) { first.x_mm + sum[0] / n, first.y_mm + sum[1] / n,
                          first.z_mm + sum[2] / n, nb_angle_recast_deg (first.a_deg + sum[3] / n),
                          nb_angle_recast_deg (first.b_deg + sum[4] / n),
                          nb_angle_recast_deg (first.c_deg + sum[5] / n) };
  return TRUE;
}

/* ------------------------------------------------ the rig and the plan -- */

gboolean
nb_iso9283_rig_mount_load (NbIso9283Rig *rig, GError **error)
{
  gboolean simulated;

  if (rig->http == NULL)
    return TRUE;
  if (!nb_http_robot_set_payload (rig->http, rig->load_kg, &simulated, error))
    {
      g_prefix_error (error, "the load (%g kg): ", rig->load_kg);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------- the sampler -- */

/* One thread for the sampler's life (a libsoup session belongs to the
 * thread that made it): it waits while the stream is paused and polls while
 * it runs; a poll begun in one goal's window and answered after it is
 * dropped (the generation). */
struct _NbIso9283Sampler {
  NbHttpRobot *robot;           /* its own connection */
  NbSimArm *truth;
  GRand *rand;
  double noise_mm, noise_deg;
  GThread *thread;
  GMutex lock;
  GCond wake;
  GCond got;                    /* a sample appended, or a poll failed */
  gboolean running, quit;
  guint generation;
  GArray *t_s, *pose;           /* the current window's samples (under lock while running) */
  GError *error;                /* the window's first failed poll */
  NbIso9283ClockMap clock;      /* the server's stamps onto the rig's clock (the thread's) */
  guint polls;                  /* sent in all (under lock) */
  /* The window's exchanges (under lock), t_s[window_from + i] from raw[i],
   * and the clock map as the last of them left it: at the window's close
   * every sample of it is put on the rig's clock by that one offset, so
   * that a better offset found midway (a faster poll) does not step the
   * window's times (a weave's 11 s stretched by 7 ms: WF −0.065 %). */
  GArray *raw;                  /* of SamplerExchange */
  guint window_from;
  NbIso9283ClockMap window_clock;
};

typedef struct {
  double sent_s, answered_s;
  gint64 stamp_us;
} SamplerExchange;

/* How much less an offset is trusted as it ages: the two clocks' drift
 * (quartz: tens of ppm at most). */
#define CLOCK_DRIFT 2e-5

double
nb_iso9283_clock_instant (const NbIso9283ClockMap *m, double sent_s, double answered_s,
                          gint64 stamp_us)
{
  if (stamp_us == 0 || !m->known)
    return 0.5 * (sent_s + answered_s);
  return CLAMP (stamp_us / 1e6 - m->offset_s, sent_s, answered_s);
}

double
nb_iso9283_state_instant (NbIso9283ClockMap *m, double sent_s, double answered_s,
                          gint64 stamp_us)
{
  double rt = answered_s - sent_s, mid = 0.5 * (sent_s + answered_s), stamp = stamp_us / 1e6;

  if (stamp_us == 0)
    return mid;
  /* Cristian: the state was read within the request, so its stamp less the
   * offset is the midpoint to ±rt/2; the fastest exchange bounds it best. */
  if (!m->known || rt < m->rt_s + CLOCK_DRIFT * (sent_s - m->at_s))
    {
      m->known = TRUE;
      m->offset_s = stamp - mid;
      m->rt_s = rt;
      m->at_s = sent_s;
    }
  return nb_iso9283_clock_instant (m, sent_s, answered_s, stamp_us);
}

static double
gauss (GRand *r, double sigma)
{
  double u = g_rand_double_range (r, 1e-300, 1.0), v = g_rand_double (r);

  return sigma * sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

/* The tracker's view of the true arm at the joints q (mm, °, with noise). */
static void
true_tcp (NbSimArm *truth, GRand *rand, double noise_mm, double noise_deg,
          const double q[NB_ARM_JOINTS], NbPose6 *p)
{
  double T[16], R[9], abc[3];

  nb_sim_arm_true_pose (truth, q, T);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      R[r * 3 + c] = T[r * 4 + c];
  nb_iso9283_matrix_to_abc (R, abc);
  *p = (NbPose6) {
    T[3] * 1000 + gauss (rand, noise_mm), T[7] * 1000 + gauss (rand, noise_mm),
    T[11] * 1000 + gauss (rand, noise_mm), nb_angle_recast_deg (abc[0] + gauss (rand, noise_deg)),
    abc[1] + gauss (rand, noise_deg), nb_angle_recast_deg (abc[2] + gauss (rand, noise_deg)),
  };
}

static gpointer
sampler_thread (gpointer data)
{
  NbIso9283Sampler *s = data;

  for (;;)
    {
      g_autoptr (GError) local = NULL;
      double t0, t1, t;
      guint generation;
      NbRobotState st;
      gboolean ok;

      g_mutex_lock (&s->lock);
      while (!s->running && !s->quit)
        g_cond_wait (&s->wake, &s->lock);
      if (s->quit)
        {
          g_mutex_unlock (&s->lock);
          return NULL;
        }
      generation = s->generation;
      g_mutex_unlock (&s->lock);

      t0 = g_get_monotonic_time () / 1e6;
      ok = nb_http_robot_state (s->robot, &st, &local);
      /* The joints were read between the request and its answer, when the
       * server stamped them. */
      t1 = g_get_monotonic_time () / 1e6;
      t = ok ? nb_iso9283_state_instant (&s->clock, t0, t1, st.stamp_us) : t0;

      g_mutex_lock (&s->lock);
      s->polls++;
      if (s->running && s->generation == generation)
        {
          if (ok)
            {
              NbPose6 p;

              SamplerExchange x = { t0, t1, st.stamp_us };

              true_tcp (s->truth, s->rand, s->noise_mm, s->noise_deg, st.position, &p);
              g_array_append_val (s->t_s, t);
              g_array_append_val (s->pose, p);
              g_array_append_val (s->raw, x);
              s->window_clock = s->clock;
            }
          else if (s->error == NULL)
            s->error = g_steal_pointer (&local);
          g_cond_broadcast (&s->got);
        }
      g_mutex_unlock (&s->lock);
      /* At most the tracker's 1 kHz (and a failed poll waits as long). */
      {
        gint64 rest = (gint64) (t0 * 1e6) + 1000 - g_get_monotonic_time ();

        if (rest > 0)
          g_usleep ((gulong) rest);
      }
    }
}

NbIso9283Sampler *
nb_iso9283_sampler_new (const char *url, NbSimArm *truth, double noise_mm, double noise_deg,
                        guint32 seed, GError **error)
{
  NbHttpRobot *robot = nb_http_robot_new (url, NULL, 10, error);
  NbIso9283Sampler *s;

  if (robot == NULL)
    return NULL;
  s = g_new0 (NbIso9283Sampler, 1);
  s->robot = robot;
  s->truth = truth;
  s->rand = g_rand_new_with_seed (seed);
  s->noise_mm = noise_mm;
  s->noise_deg = noise_deg;
  s->t_s = g_array_new (FALSE, FALSE, sizeof (double));
  s->pose = g_array_new (FALSE, FALSE, sizeof (NbPose6));
  s->raw = g_array_new (FALSE, FALSE, sizeof (SamplerExchange));
  g_mutex_init (&s->lock);
  g_cond_init (&s->wake);
  g_cond_init (&s->got);
  s->thread = g_thread_new ("nb-iso9283-sampler", sampler_thread, s);
  return s;
}

void
nb_iso9283_sampler_counts (NbIso9283Sampler *s, guint *polls, guint *connections)
{
  g_mutex_lock (&s->lock);
  *polls = s->polls;
  g_mutex_unlock (&s->lock);
  *connections = nb_http_robot_connections (s->robot);
}

void
nb_iso9283_sampler_free (NbIso9283Sampler *s)
{
  if (s == NULL)
    return;
  g_mutex_lock (&s->lock);
  s->quit = TRUE;
  g_cond_signal (&s->wake);
  g_mutex_unlock (&s->lock);
  g_thread_join (s->thread);
  nb_http_robot_free (s->robot);
  g_rand_free (s->rand);
  g_array_unref (s->t_s);
  g_array_unref (s->pose);
  g_array_unref (s->raw);
  g_clear_error (&s->error);
  g_mutex_clear (&s->lock);
  g_cond_clear (&s->wake);
  g_cond_clear (&s->got);
  g_free (s);
}

/* How long the window waits at either end for the sample that brackets
 * the motion (a poll's round trip: ≈ 0.5 s seen at load 20). */
#define BRACKET_S 2.0

/* The window opens: samples are appended from now on, and it returns once
 * the first of them has been read (the arm still where the goal starts) —
 * or a poll failed, or BRACKET_S went by — so that the stream begins
 * before the motion however long a poll takes. */
static void
sampler_start (NbIso9283Sampler *s)
{
  gint64 until = g_get_monotonic_time () + (gint64) (BRACKET_S * G_USEC_PER_SEC);

  g_mutex_lock (&s->lock);
  g_clear_error (&s->error);
  s->running = TRUE;
  s->generation++;
  s->window_from = s->t_s->len;
  g_array_set_size (s->raw, 0);
  g_cond_signal (&s->wake);
  while (s->t_s->len == 0 && s->error == NULL && g_cond_wait_until (&s->got, &s->lock, until))
    ;
  g_mutex_unlock (&s->lock);
}

/* The window closes: the arrays are the caller's until the next start.
 * After a goal that ended (ended), once a sample read after its end has
 * come (the arm at rest where it stopped; or a poll failed, or BRACKET_S
 * went by): a poll under way as the goal ends may take long, and without
 * it the stream would stop short of the rest (the iso9283-http flake:
 * streams ending 0.38 s into an approach that rang for 0.3 s more, "the
 * pose has not stabilised"). */
static void
sampler_pause (NbIso9283Sampler *s, gboolean ended)
{
  double end = g_get_monotonic_time () / 1e6;
  gint64 until = g_get_monotonic_time () + (gint64) (BRACKET_S * G_USEC_PER_SEC);

  g_mutex_lock (&s->lock);
  while (ended && s->error == NULL &&
         (s->t_s->len == 0 || g_array_index (s->t_s, double, s->t_s->len - 1) < end) &&
         g_cond_wait_until (&s->got, &s->lock, until))
    ;
  s->running = FALSE;
  s->generation++;
  /* The window's samples on one offset (above). */
  for (guint i = 0; i < s->raw->len && s->window_from + i < s->t_s->len; i++)
    {
      const SamplerExchange *x = &g_array_index (s->raw, SamplerExchange, i);

      g_array_index (s->t_s, double, s->window_from + i) =
        nb_iso9283_clock_instant (&s->window_clock, x->sent_s, x->answered_s, x->stamp_us);
    }
  g_mutex_unlock (&s->lock);
}

/* ------------------------------------------------ the rig and the plan -- */

gboolean
nb_iso9283_rig_configure (NbIso9283Rig *rig, double speed_pct, const char *load, GError **error)
{
  if (!(speed_pct > 0 && speed_pct <= 100))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%g %% of rated speed: expected (0, 100]",
                   speed_pct);
      return FALSE;
    }
  rig->speed_pct = speed_pct;
  /* 6.6: the rated load, or 10 % of it. */
  rig->load_kg = g_strcmp0 (load, "10%") == 0 ? 0.1 * rig->rated_load_kg : rig->rated_load_kg;
  if (rig->truth != NULL)
    rig->truth->payload_kg = rig->load_kg;
  /* 6.7: the motion at speed % (the joints' velocity limits scaled alike). */
  if (rig->sim != NULL)
    rig->sim->slow_factor = 100.0 / speed_pct;
  if (rig->http != NULL)
    nb_http_robot_set_velocity_scaling (rig->http, speed_pct / 100.0);
  if (rig->tracker != NULL)
    {
      rig->stream_t_s = rig->tracker->t_s;
      rig->stream_pose = rig->tracker->pose;
    }
  else if (rig->sampler != NULL)
    {
      rig->stream_t_s = rig->sampler->t_s;
      rig->stream_pose = rig->sampler->pose;
    }
  else if (rig->stream_device != NULL)
    {
      if (rig->device_t_s == NULL)
        {
          rig->device_t_s = g_array_new (FALSE, FALSE, sizeof (double));
          rig->device_pose = g_array_new (FALSE, FALSE, sizeof (NbPose6));
        }
      rig->stream_t_s = rig->device_t_s;
      rig->stream_pose = rig->device_pose;
    }
  return TRUE;
}

void
nb_iso9283_rig_clear_device (NbIso9283Rig *rig)
{
  g_clear_pointer (&rig->device_t_s, g_array_unref);
  g_clear_pointer (&rig->device_pose, g_array_unref);
  if (rig->stream_device != NULL)
    rig->stream_t_s = rig->stream_pose = NULL;
}

/* A live instrument's stream around a goal: before it, what is queued (older
 * than the goal) is let go; after it, the samples from the goal's start to
 * its end are kept, waiting for the last of them (the link's latency: until
 * one from after the end comes, at most LATE_S).  A lost link is an error
 * naming the goal.
 *
 * Their times: when every sample of the goal carries the instrument's own
 * stamp (device_time_s, finite and increasing), that stamp moved onto the
 * rig's clock by the goal's smallest arrival − stamp (the frame that came
 * soonest after it was taken: the link's least delay); else the arrival
 * time (the driver's, less its latency).  Under load a frame's arrival
 * jitters by tens of milliseconds and frames come in bursts, which would
 * move the instants 7.4 and 9 are read at; the instrument's stamps of a
 * 1 kHz stream stay 1 ms apart.  (ISO 9283 7.4 times the stream as the
 * instrument took it.) */
#define DEVICE_LATE_S 0.5

static void
device_stream_begin (NbIso9283Rig *rig)
{
  NbEvent ev;

  while (nb_device_next (rig->stream_device, 0, &ev))
    nb_event_clear (&ev);
}

void
nb_iso9283_stream_times (double *t_s, const double *stamp, guint n)
{
  double offset = INFINITY;

  for (guint i = 0; i < n; i++)
    {
      if (!isfinite (stamp[i]) || (i > 0 && !(stamp[i] > stamp[i - 1])))
        return;
      offset = fmin (offset, t_s[i] - stamp[i]);
    }
  for (guint i = 0; i < n; i++)
    t_s[i] = stamp[i] + offset;
}

static gboolean
device_stream_end (NbIso9283Rig *rig, double t_start, double t_end, GError **error)
{
  double give_up = t_end + DEVICE_LATE_S, offset = INFINITY;
  g_autoptr (GArray) stamp = g_array_new (FALSE, FALSE, sizeof (double));
  guint n0 = rig->device_t_s->len, kept = n0;
  gboolean past = FALSE, stamped = TRUE;

  while (!past)
    {
      double now = nb_device_now ();
      NbEvent ev;

      if (!nb_device_next (rig->stream_device,
                           now >= give_up ? 0 : (gint64) ((give_up - now) * 1e6) + 1, &ev))
        {
          if (nb_device_now () >= give_up)
            break;
          continue;
        }
      if (ev.kind == NB_EVENT_ERROR || ev.kind == NB_EVENT_LOST || ev.kind == NB_EVENT_END)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "the instrument's stream of goal %u "
                       "(%s): %s", rig->goals + 1,
                       nb_device_url (rig->stream_device) ? nb_device_url (rig->stream_device)
                                                          : "?",
                       ev.message ? ev.message : "link lost");
          nb_event_clear (&ev);
          g_array_set_size (rig->device_t_s, n0);
          g_array_set_size (rig->device_pose, n0);
          return FALSE;
        }
      if (ev.kind == NB_EVENT_SAMPLE)
        {
          NbPose6 p;
          double t = ev.sample.t_s;

          /* Past the end on the time it will be given (the least delay so
           * far: never earlier than the final one). */
          stamped = stamped && isfinite (ev.sample.device_time_s);
          if (stamped)
            {
              offset = fmin (offset, ev.sample.t_s - ev.sample.device_time_s);
              t = ev.sample.device_time_s + offset;
            }
          past = t > t_end;
          nb_iso9283_sample_pose (&ev.sample, &p);
          g_array_append_val (rig->device_t_s, ev.sample.t_s);
          g_array_append_val (stamp, ev.sample.device_time_s);
          g_array_append_val (rig->device_pose, p);
        }
      nb_event_clear (&ev);
    }
  nb_iso9283_stream_times (&g_array_index (rig->device_t_s, double, n0),
                           (const double *) stamp->data, stamp->len);
  /* The goal's span, in the order they came. */
  for (guint i = n0; i < rig->device_t_s->len; i++)
    {
      double t = g_array_index (rig->device_t_s, double, i);

      if (t < t_start || t > t_end)
        continue;
      g_array_index (rig->device_t_s, double, kept) = t;
      g_array_index (rig->device_pose, NbPose6, kept) = g_array_index (rig->device_pose, NbPose6, i);
      kept++;
    }
  g_array_set_size (rig->device_t_s, kept);
  g_array_set_size (rig->device_pose, kept);
  return TRUE;
}

const char *
nb_iso9283_rig_lacks (const NbIso9283Rig *rig, guint needs)
{
  if ((needs & NB_ISO9283_NEEDS_STREAM) && rig->tracker == NULL && rig->sampler == NULL &&
      rig->stream_device == NULL)
    return NB_MSG_ISO9283_NEEDS_STREAM;
  if ((needs & NB_ISO9283_NEEDS_FORCE) && rig->truth == NULL)
    return NB_MSG_ISO9283_NEEDS_FORCE;
  /* Over HTTP the path goes as a timed trajectory (POST /robot/trajectory). */
  if ((needs & NB_ISO9283_NEEDS_TIMED_PATH) && rig->sim == NULL && rig->http == NULL)
    return NB_MSG_ISO9283_NEEDS_TIMED_PATH;
  return NULL;
}

double
nb_iso9283_rig_clock (const NbIso9283Rig *rig)
{
  return rig->sim ? rig->sim->clock_s : g_get_monotonic_time () / 1e6;
}

void
nb_iso9283_rig_servo (NbIso9283Rig *rig, gboolean on)
{
  if (rig->sim == NULL)
    return;
  rig->sim->settle_omega_rad_s = on ? rig->settle_omega_rad_s : 0;
  rig->sim->settle_zeta = rig->settle_zeta;
  rig->sim->settle_dwell_s = on ? rig->settle_dwell_s : 0;
}

void
nb_iso9283_rig_tracker (NbIso9283Rig *rig, gboolean on)
{
  NbSimArm *arm = rig->sim;

  rig->stream_off = !on;
  if (arm == NULL || rig->tracker == NULL)
    return;
  if (!on && arm->on_advance != NULL)
    {
      rig->off_advance = arm->on_advance;
      rig->off_advance_data = arm->on_advance_data;
      arm->on_advance = NULL;
      arm->on_advance_data = NULL;
    }
  else if (on && arm->on_advance == NULL && rig->off_advance != NULL)
    {
      arm->on_advance = rig->off_advance;
      arm->on_advance_data = rig->off_advance_data;
      /* It samples again from now on, on its grid. */
      rig->tracker->next_t_s = ceil (arm->clock_s * rig->tracker->rate_hz - 1e-9) /
                               rig->tracker->rate_hz;
    }
}

/* The stream around one motion (a goal or a timed trajectory): the kept
 * stream cleared unless a path keeps it, a live instrument's queue let go,
 * the sampler's window opened (it returns once the stream has begun), and
 * the instant the motion goes recorded.  Returns the instrument's clock at
 * the start (0 without one), for stream_end. */
static double
stream_begin (NbIso9283Rig *rig)
{
  gboolean device = rig->stream_device != NULL && rig->device_t_s != NULL && !rig->stream_off;
  double t_start = 0;

  if (rig->stream_t_s != NULL && !rig->keep_stream)
    {
      g_array_set_size (rig->stream_t_s, 0);
      g_array_set_size (rig->stream_pose, 0);
    }
  if (device)
    {
      device_stream_begin (rig);
      t_start = nb_device_now ();
    }
  if (!rig->stream_off && rig->sampler != NULL)
    sampler_start (rig->sampler);
  rig->goal_sent_s = nb_iso9283_rig_clock (rig);
  return t_start;
}

/* After the motion (ok: it ended; else error is already set): the
 * instrument's samples of it kept, the sampler's window closed.  A stream
 * that failed before giving anything is the error of goal N (the one the
 * motion was, rig->goals + 1). */
static gboolean
stream_end (NbIso9283Rig *rig, double t_start, gboolean ok, GError **error)
{
  NbIso9283Sampler *sampler = rig->stream_off ? NULL : rig->sampler;
  gboolean device = rig->stream_device != NULL && rig->device_t_s != NULL && !rig->stream_off;

  if (ok && device && !device_stream_end (rig, t_start, nb_device_now (), error))
    ok = FALSE;
  if (sampler != NULL)
    {
      sampler_pause (sampler, ok);
      if (ok && sampler->error != NULL && sampler->t_s->len == 0)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&sampler->error),
                                      "the stream of goal %u: ", rig->goals + 1);
          ok = FALSE;
        }
    }
  return ok;
}

gboolean
nb_iso9283_rig_goal (NbIso9283Rig *rig, const double q[NB_ARM_JOINTS], gboolean measured,
                     NbPose6 *attained, GError **error)
{
  double t_start = stream_begin (rig);
  gboolean ok = rig->ops->move_to_joints (rig->robot, q, error);

  if (!stream_end (rig, t_start, ok, error))
    return FALSE;
  rig->goals++;
  if (measured && !rig->measure (rig->measure_data, attained, error))
    {
      g_prefix_error (error, "measuring goal %u: ", rig->goals);
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_iso9283_rig_trajectory (NbIso9283Rig *rig, const double *t_s, const double *q, guint n,
                           GError **error)
{
  double t_start;
  gboolean ok;

  if (rig->http == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "a timed trajectory needs the motion "
                   "API's robot");
      return FALSE;
    }
  t_start = stream_begin (rig);
  ok = nb_http_robot_follow_trajectory (rig->http, t_s, q, n, error);
  if (!stream_end (rig, t_start, ok, error))
    return FALSE;
  rig->goals += (n + NB_HTTP_TRAJECTORY_PIECE - 1) / NB_HTTP_TRAJECTORY_PIECE;
  return TRUE;
}

gboolean
nb_iso9283_plan_ensure (NbCampaign *campaign, double drift_s, gboolean *made, GError **error)
{
  g_autoptr (GArray) plan = nb_campaign_iso9283_plan_list (campaign, error);
  g_autoptr (GArray) entries = NULL;

  *made = FALSE;
  if (plan == NULL)
    return FALSE;
  if (plan->len > 0)
    return TRUE;
  entries = nb_clause_9283_plan (drift_s);
  if (!nb_campaign_iso9283_plan_add (campaign, (NbIso9283PlanEntry *) entries->data, entries->len,
                                     error))
    return FALSE;
  *made = TRUE;
  return TRUE;
}

const double nb_iso9283_default_centre_mm[3] = { 600, 0, 450 };
const double nb_iso9283_default_abc_deg[3] = { 180, 0, 180 };
const double nb_iso9283_seed_q[NB_ARM_JOINTS] = { 0, 0.6, 0, -1.2, 0, 1.0, 0 };

double
nb_iso9283_rated_load_kg (NbCampaign *campaign, double option)
{
  g_autofree char *text = NULL;

  if (!isnan (option))
    return option;
  text = nb_campaign_get_field (campaign, "robot.rated_load_kg", NULL);
  if (text != NULL && g_ascii_strtod (text, NULL) > 0)
    return g_ascii_strtod (text, NULL);
  return 7.0;
}

void
nb_iso9283_sim_arm_init (NbSimArm *arm, const NbArmModel *model, guint32 seed, const char *unit)
{
  nb_sim_arm_init (arm, model, seed);
  nb_iso9283_sim_errors (arm);
  nb_iso9283_sim_unit (arm, unit);
}

void
nb_iso9283_sim_rig_init (NbIso9283SimRig *sim, NbIso9283Rig *rig, const NbArmModel *model,
                         guint32 seed, const char *unit)
{
  nb_iso9283_sim_arm_init (&sim->arm, model, seed, unit);
  nb_sim_tracker_init (&sim->tracker, &sim->arm, 1000, 0.005, 0.002, seed + 1);
  sim->measure = (NbIso9283SimMeasure) { &sim->tracker, 0.2 };
  rig->ops = nb_sim_arm_ops ();
  rig->robot = &sim->arm;
  rig->sim = &sim->arm;
  rig->truth = &sim->arm;
  rig->tracker = &sim->tracker;
  rig->measure = nb_iso9283_measure_sim;
  rig->measure_data = &sim->measure;
  rig->robot_name = "sim";
  rig->measurement = nb_iso9283_sim_measurement (FALSE);
}

void
nb_iso9283_sim_rig_clear (NbIso9283SimRig *sim)
{
  nb_sim_tracker_clear (&sim->tracker);
  nb_sim_arm_clear (&sim->arm);
}

gboolean
nb_iso9283_served_rig_init (NbIso9283ServedRig *s, NbIso9283Rig *rig, const char *url,
                            const NbArmModel *model, guint32 seed, const char *unit,
                            NbDevice *device, double guard_s, double window_s,
                            const char *device_words, gboolean sampler, GError **error)
{
  memset (s, 0, sizeof *s);
  if ((s->http = nb_http_robot_new (url, NULL, 120, error)) == NULL)
    return FALSE;
  nb_iso9283_sim_arm_init (&s->truth, model, seed, unit);
  rig->ops = nb_http_robot_ops ();
  rig->robot = s->http;
  rig->http = s->http;
  rig->robot_name = url;
  if (device != NULL)
    {
      s->device = (NbIso9283DeviceMeasure) { device, guard_s, window_s, 2.0, 0.5, 0 };
      rig->measure = nb_iso9283_measure_device;
      rig->measure_data = &s->device;
      rig->measurement = device_words;
      /* Its stream during the goals, for 7.4, 7.5, 8 and 9. */
      rig->stream_device = device;
      /* The instrument sees the served arm itself: no model load on it. */
      rig->truth = NULL;
      return TRUE;
    }
  s->state = (NbIso9283StateMeasure) { s->http, &s->truth, g_rand_new_with_seed (seed + 1), 0.005,
                                       0.002 };
  rig->truth = &s->truth;
  rig->measure = nb_iso9283_measure_state;
  rig->measure_data = &s->state;
  rig->measurement = nb_iso9283_sim_measurement (TRUE);
  if (sampler &&
      (rig->sampler = nb_iso9283_sampler_new (url, &s->truth, 0.005, 0.002, seed + 2,
                                              error)) == NULL)
    {
      nb_iso9283_served_rig_clear (s, rig);
      return FALSE;
    }
  return TRUE;
}

void
nb_iso9283_served_rig_clear (NbIso9283ServedRig *s, NbIso9283Rig *rig)
{
  g_clear_pointer (&rig->sampler, nb_iso9283_sampler_free);
  nb_iso9283_rig_clear_device (rig);
  g_clear_pointer (&s->state.rand, g_rand_free);
  if (s->http != NULL)
    nb_sim_arm_clear (&s->truth);
  g_clear_pointer (&s->http, nb_http_robot_free);
}

const char *
nb_iso9283_plan_state_name (NbIso9283PlanState state)
{
  switch (state)
    {
    case NB_ISO9283_PLAN_OUT_OF_SCOPE: return N_("out of scope");
    case NB_ISO9283_PLAN_NOT_STARTED: return N_("not started");
    case NB_ISO9283_PLAN_IN_PROGRESS: return N_("in progress");
    case NB_ISO9283_PLAN_COMPLETE: return N_("complete");
    default: return "?";
    }
}

GArray *
nb_iso9283_plan_rows (NbCampaign *campaign, const GArray *plan, const NbIso9283PlanEntry **next,
                      GError **error)
{
  g_autoptr (GArray) rows = g_array_sized_new (FALSE, TRUE, sizeof (NbIso9283PlanRow), plan->len);

  *next = NULL;
  for (guint i = 0; i < plan->len; i++)
    {
      const NbIso9283PlanEntry *e = &g_array_index (plan, NbIso9283PlanEntry, i);
      NbIso9283PlanRow row = { e, nb_clause_9283_lookup (e->characteristic), 0, 0 };

      if (!nb_campaign_iso9283_count_trials (campaign, e->config, &row.cycles, error))
        return NULL;
      row.state = !e->in_scope ? NB_ISO9283_PLAN_OUT_OF_SCOPE
                  : row.cycles == 0 ? NB_ISO9283_PLAN_NOT_STARTED
                  : row.cycles < e->cycles ? NB_ISO9283_PLAN_IN_PROGRESS
                  : NB_ISO9283_PLAN_COMPLETE;
      if (*next == NULL && e->in_scope && row.cycles < e->cycles)
        *next = e;
      g_array_append_val (rows, row);
    }
  return g_steal_pointer (&rows);
}

static char *
setup_json (const NbIso9283Rig *rig)
{
  const NbIso9283Cube *c = &rig->cube;
  g_autofree char *unit = rig->unit ? g_strescape (rig->unit, NULL) : NULL;

  const double v[] = { c->edge_mm, c->centre_mm[0], c->centre_mm[1], c->centre_mm[2],
                       c->abc_deg[0], c->abc_deg[1], c->abc_deg[2], rig->speed_pct, rig->load_kg };
  char n[G_N_ELEMENTS (v)][G_ASCII_DTOSTR_BUF_SIZE];

  /* JSON's numbers whatever LC_NUMERIC says (the window runs in ru_RU:
   * printf's %g would write a decimal comma). */
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    g_ascii_formatd (n[i], sizeof n[i], "%.17g", v[i]);
  return g_strdup_printf ("{\"plane\":%u,\"edge_mm\":%s,\"centre_mm\":[%s,%s,%s],"
                          "\"abc_deg\":[%s,%s,%s],\"speed_pct\":%s,"
                          "\"load_kg\":%s%s%s%s}", c->plane, n[0], n[1], n[2], n[3], n[4], n[5],
                          n[6], n[7], n[8],
                          unit ? ",\"unit\":\"" : "", unit ? unit : "", unit ? "\"" : "");
}

static gboolean
run_entry (NbCampaign *campaign, NbIso9283Rig *rig, const NbClause9283 *clause,
           const NbIso9283PlanEntry *e, GPtrArray *stored, guint want, NbIso9283RunSay say,
           gpointer say_data, guint *ran, GError **error)
{
  const NbIso9283Trial *last = stored->len ? stored->pdata[stored->len - 1] : NULL;
  guint done = stored->len, of = MAX (e->cycles, done + want);
  NbClause9283Goals cyc;
  g_autofree char *setup = NULL;
  gboolean ok = TRUE;

  memset (&cyc, 0, sizeof cyc);
  if (!nb_iso9283_rig_configure (rig, e->speed_pct, e->load, error) ||
      !nb_iso9283_rig_mount_load (rig, error) || !clause->prepare (clause, rig, e, &cyc, error))
    {
      nb_clause_9283_goals_clear (&cyc);
      g_prefix_error (error, "%s: ", e->config);
      return FALSE;
    }
  setup = setup_json (rig);
  /* Resumed: the simulated arm's clock goes on from the last cycle's end
   * (its drift with it), and the module takes what it needs of the cycles. */
  if (last != NULL && rig->sim != NULL && isfinite (last->t_s) && rig->sim->clock_s < last->t_s)
    rig->sim->clock_s = last->t_s;
  if (last != NULL && clause->resume != NULL)
    clause->resume (clause, &cyc, last);
  /* To the cycle's start, unmeasured. */
  nb_iso9283_rig_tracker (rig, FALSE);
  for (guint k = 0; ok && cyc.pre && k < cyc.pre->len / NB_ARM_JOINTS; k++)
    ok = nb_iso9283_rig_goal (rig, &g_array_index (cyc.pre, double, k * NB_ARM_JOINTS), FALSE,
                              NULL, error);
  nb_iso9283_rig_tracker (rig, TRUE);
  for (guint n = done + 1; ok && n <= done + want; n++)
    {
      NbIso9283Trial t = {
        .config = e->config, .cycle = n, .robot = (char *) rig->robot_name,
        .measurement = (char *) rig->measurement, .setup = setup, .t_s = NAN,
      };

      if (g_cancellable_set_error_if_cancelled (rig->cancellable, error))
        {
          ok = FALSE;
          break;
        }
      t.command = g_array_new (FALSE, FALSE, sizeof (double));
      t.data = g_array_new (FALSE, FALSE, sizeof (double));
      ok = clause->run_cycle (clause, rig, e, &cyc, n, &t, error);
      t.t_s = nb_iso9283_rig_clock (rig);
      /* Committed when the cycle ends: a run killed resumes at the next. */
      ok = ok && nb_campaign_iso9283_add_trial (campaign, &t, error);
      g_array_unref (t.command);
      g_array_unref (t.data);
      if (ok)
        {
          (*ran)++;
          if (say)
            say (say_data, e->config, n, of, NULL);
        }
      else
        g_prefix_error (error, "%s cycle %u: ", e->config, n);
    }
  nb_iso9283_rig_tracker (rig, TRUE);
  nb_iso9283_rig_servo (rig, TRUE);
  nb_clause_9283_goals_clear (&cyc);
  return ok;
}

gboolean
nb_iso9283_run_plan (NbCampaign *campaign, NbIso9283Rig *rig, const char *only,
                     NbIso9283RunSay say, gpointer say_data, guint *ran, GError **error)
{
  g_autoptr (GArray) plan = nb_campaign_iso9283_plan_list (campaign, error);
  gboolean found = only == NULL;

  *ran = 0;
  if (plan == NULL)
    return FALSE;
  if (rig->sim != NULL)
    {
      rig->settle_omega_rad_s = rig->sim->settle_omega_rad_s;
      rig->settle_zeta = rig->sim->settle_zeta;
      rig->settle_dwell_s = rig->sim->settle_dwell_s;
    }
  for (guint i = 0; i < plan->len; i++)
    {
      const NbIso9283PlanEntry *e = &g_array_index (plan, NbIso9283PlanEntry, i);
      const NbClause9283 *clause = nb_clause_9283_lookup (e->characteristic);
      g_autoptr (GPtrArray) trials = NULL;
      const char *why;
      guint want;

      if (only != NULL && !g_str_equal (only, e->config))
        continue;
      found = TRUE;
      if (!e->in_scope)
        continue;
      if (clause == NULL)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: '%s' has the characteristic '%s', "
                       "which this navbench does not know", nb_campaign_get_path (campaign),
                       e->config, e->characteristic);
          return FALSE;
        }
      if ((trials = nb_campaign_iso9283_trials (campaign, e->config, error)) == NULL)
        return FALSE;
      want = clause->to_run ? clause->to_run (clause, e, trials, rig)
                            : trials->len >= e->cycles ? 0 : e->cycles - trials->len;
      if (want == 0)
        continue;
      if ((why = nb_iso9283_rig_lacks (rig, clause->needs)) != NULL)
        {
          g_autofree char *text = g_strdup_printf (NB_MSG_ISO9283_LEFT, why);

          if (say)
            say (say_data, e->config, trials->len, e->cycles, text);
          continue;
        }
      if (!run_entry (campaign, rig, clause, e, trials, want, say, say_data, ran, error))
        return FALSE;
    }
  if (!found)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the ISO 9283 plan has no '%s'",
                   nb_campaign_get_path (campaign), only);
      return FALSE;
    }
  return TRUE;
}
