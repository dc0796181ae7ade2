/* nb-clause-9283-path.c — ISO 9283 8.2 path accuracy AT, 8.3 path repeatability RT,
 * 8.6 path velocity AV, RV, FV; and 8.5 corner deviations CR, CO
 *
 * The command paths of 6.8 as read in docs/iso9283.md: the diagonal P2 → P4
 * of the measurement plane, a large circle about P1 in the plane (radius
 * 40 % of the cube's edge) and a small one (10 % of the large), each from
 * the point on the plane's first edge direction, counter-clockwise about
 * the plane's normal, the cube's orientation held; ten cycles (6.9).  The
 * corner: P2 → P3 → P4, the corner at P3 (a right angle in the plane),
 * three cycles.  8.4, path accuracy on reorientation: the diagonal with
 * the tool turned along it about its own z axis from −30° to +30° (ten
 * cycles), AT and RT against the turned command orientation.  The path is
 * sent as joint points every ≈ 2 mm (IK), each
 * timed for the path velocity v_c = speed × the rated path velocity (on the
 * simulated arm: the goal's duration stretched to its length / v_c, never
 * below the joints' limits); the tracker's stream of the cycle at its full
 * rate is stored (t, x, y, z, a, b, c) and the figures come from it.
 */
#include "nb-clause-9283.h"

#include "nb-error.h"
#include "nb-sim-tracker.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define STEP_MM 2.0
#define POINTS 10       /* m, the calculated points (8.2) */
#define REACH_MM 10.0
/* 8.6, read in docs/iso9283.md: the velocity samples over 10 ms (every 10th
 * sample of the 1 kHz stream): over 1 ms a 5 µm tracker's noise alone would
 * make |Δp|/Δt fluctuate by ~7 mm/s and bias it (+8 % at 25 mm/s), more
 * than the fluctuation FV is to measure. */
#define VELOCITY_EVERY 10
#define REORIENT_DEG 30.0  /* 8.4, read in docs/iso9283.md */

static const NbClause9283Column path_columns[] = {
  { "at_mm", "AT_P", "mm", 3 },
  { "rt_mm", "RT_P", "mm", 3 },
  { "at_a_deg", "AT_a", "°", 4 },
  { "at_b_deg", "AT_b", "°", 4 },
  { "at_c_deg", "AT_c", "°", 4 },
  { "rt_a_deg", "RT_a", "°", 4 },
  { "v_mean_mm_s", "v̄", "mm/s", 2 },
  { "av_pct", "AV", "%", 2 },
  { "rv_mm_s", "RV (±)", "mm/s", 3 },
  { "fv_mm_s", "FV", "mm/s", 3 },
};

/* The plane's two edge directions and its normal, from P2, P3, P5. */
void
nb_clause_9283_plane_axes (const NbIso9283Cube *cube, double e1[3], double e2[3], double n[3])
{
  double l1 = 0, l2 = 0, ln;

  for (int k = 0; k < 3; k++)
    {
      e1[k] = cube->p_mm[2][k] - cube->p_mm[1][k];
      e2[k] = cube->p_mm[4][k] - cube->p_mm[1][k];
      l1 += e1[k] * e1[k];
      l2 += e2[k] * e2[k];
    }
  for (int k = 0; k < 3; k++)
    e1[k] /= sqrt (l1), e2[k] /= sqrt (l2);
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  ln = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int k = 0; k < 3; k++)
    n[k] /= ln;
}

/* The joint points of the points pts[0..n) (IK, each from the one before)
 * and each one's duration at v_c; the tool at the cube's orientation, or
 * (turned: 8.4) at the path's command orientation, the points being evenly
 * spaced along it. */
gboolean
nb_clause_9283_path_points (NbIso9283Rig *rig, NbClause9283Goals *c, const double (*pts)[3],
                            guint n, const double seed[NB_ARM_JOINTS],
                            const NbIso9283Path *turned, GError **error)
{
  double q_prev[NB_ARM_JOINTS], length = 0;

  memcpy (q_prev, seed, sizeof q_prev);
  if (turned != NULL && !nb_iso9283_path_length (turned, &length, error))
    return FALSE;
  if (c->segment_s == NULL)
    c->segment_s = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < n; i++)
    {
      double T[16], q[NB_ARM_JOINTS], len = 0;

      nb_iso9283_cube_target (&rig->cube, pts[i], T);
      if (turned != NULL && n > 1)
        {
          double abc[3], R[9];

          nb_iso9283_path_orientation (turned, length * i / (n - 1), length, abc);
          nb_iso9283_abc_to_matrix (abc, R);
          for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++)
              T[r * 4 + k] = R[r * 3 + k];
        }
      if (!nb_arm_ik (&rig->model, T, q_prev, q, error))
        {
          g_prefix_error (error, "the path's point %u (%.1f, %.1f, %.1f mm): ", i + 1,
                          pts[i][0], pts[i][1], pts[i][2]);
          return FALSE;
        }
      if (i == 0)
        {
          c->pre = g_array_new (FALSE, FALSE, sizeof (double));
          g_array_append_vals (c->pre, q, NB_ARM_JOINTS);
        }
      else
        {
          for (int k = 0; k < 3; k++)
            len += (pts[i][k] - pts[i - 1][k]) * (pts[i][k] - pts[i - 1][k]);
          len = sqrt (len);
          nb_clause_9283_add_goal (c, q, FALSE);
          g_array_append_val (c->segment_s, len);
        }
      memcpy (q_prev, q, sizeof q_prev);
    }
  for (guint i = 0; i < c->segment_s->len; i++)
    g_array_index (c->segment_s, double, i) /= c->v_command_mm_s;
  return TRUE;
}

/* Points every ≤ STEP_MM along the command path. */
static double (*sample_path (const NbIso9283Path *path, guint *n, GError **error))[3]
{
  double length, (*pts)[3];
  guint steps;

  if (!nb_iso9283_path_length (path, &length, error))
    return NULL;
  steps = (guint) ceil (length / STEP_MM);
  pts = g_malloc (sizeof (double[3]) * (steps + 1));
  for (guint i = 0; i <= steps; i++)
    {
      double t[3];

      nb_iso9283_path_point (path, length * i / steps, pts[i], t);
    }
  *n = steps + 1;
  return pts;
}

static gboolean
path_prepare (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
              NbClause9283Goals *c, GError **error)
{
  const NbIso9283Cube *cube = &rig->cube;
  NbIso9283Path *p = &c->path;
  g_autofree double (*pts)[3] = NULL;
  double e1[3], e2[3], n[3];
  guint np;

  memset (p, 0, sizeof *p);
  memcpy (p->abc_deg, cube->abc_deg, sizeof p->abc_deg);
  c->v_command_mm_s = rig->rated_speed_mm_s * e->speed_pct / 100.0;
  if (g_str_equal (clause->key, "path-line") || g_str_equal (clause->key, "path-reorientation"))
    {
      p->kind = NB_ISO9283_LINE;
      memcpy (p->start_mm, cube->p_mm[1], sizeof p->start_mm);
      memcpy (p->end_mm, cube->p_mm[3], sizeof p->end_mm);
      /* 8.4 (read in docs/iso9283.md): along the diagonal the tool turns
       * about its own z axis from −30° to +30° of the cube's orientation. */
      if (g_str_equal (clause->key, "path-reorientation"))
        {
          p->turn_axis[2] = 1;
          p->turn_deg[0] = -REORIENT_DEG;
          p->turn_deg[1] = REORIENT_DEG;
        }
    }
  else
    {
      double r = 0.4 * cube->edge_mm * (g_str_equal (clause->key, "path-small-circle") ? 0.1 : 1);

      nb_clause_9283_plane_axes (cube, e1, e2, n);
      p->kind = NB_ISO9283_CIRCLE;
      memcpy (p->centre_mm, cube->p_mm[0], sizeof p->centre_mm);
      memcpy (p->normal, n, sizeof p->normal);
      for (int k = 0; k < 3; k++)
        p->start_mm[k] = cube->p_mm[0][k] + r * e1[k];
    }
  if ((pts = sample_path (p, &np, error)) == NULL ||
      !nb_clause_9283_path_points (rig, c, (const double (*)[3]) pts, np, rig->q[0], p, error))
    return FALSE;
  return nb_clause_9283_check (rig, c, error);
}

/* The cycle: to the start (unmeasured), then the path's goals timed at v_c
 * with the stream kept; the track (t from the start, pose) into data. */
gboolean
nb_clause_9283_track_cycle (NbIso9283Rig *rig, NbClause9283Goals *c, NbIso9283Trial *t,
                            GError **error)
{
  const NbSimTracker *tr = rig->tracker;
  double t0, slow = rig->sim ? rig->sim->slow_factor : 1;
  gboolean ok = TRUE;

  if (rig->stream_t_s == NULL || (rig->sim == NULL && rig->http == NULL) ||
      (rig->sim != NULL && tr == NULL))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "8.2 needs the tracker's stream");
      return FALSE;
    }
  nb_iso9283_rig_servo (rig, FALSE);
  nb_iso9283_rig_tracker (rig, FALSE);
  if (!nb_iso9283_rig_goal (rig, &g_array_index (c->pre, double, 0), FALSE, NULL, error))
    return FALSE;
  nb_iso9283_rig_tracker (rig, TRUE);
  g_array_set_size (rig->stream_t_s, 0);
  g_array_set_size (rig->stream_pose, 0);
  rig->keep_stream = TRUE;
  t0 = nb_iso9283_rig_clock (rig);
  if (rig->sim == NULL)
    {
      /* Over HTTP: the points as one timed trajectory, each at its time
       * from the start (the sum of the goals' durations, each no shorter
       * than the joints' limits allow, as on the simulated arm). */
      guint n = c->segment_s->len;
      g_autofree double *ts = g_new (double, n);
      double sum = 0;

      for (guint k = 0; k < n; k++)
        {
          const double *q = &g_array_index (c->goals, double, k * NB_ARM_JOINTS);
          const double *from = k == 0 ? &g_array_index (c->pre, double, 0)
                                      : &g_array_index (c->goals, double,
                                                        (k - 1) * NB_ARM_JOINTS);
          double dt = g_array_index (c->segment_s, double, k);

          for (int j = 0; j < NB_ARM_JOINTS; j++)
            if (rig->model.joint[j].has_velocity_limits && rig->model.joint[j].max_velocity > 0)
              dt = MAX (dt, fabs (q[j] - from[j]) / rig->model.joint[j].max_velocity * 1.001);
          ts[k] = sum += dt;
        }
      t0 = nb_iso9283_rig_clock (rig);
      ok = nb_iso9283_rig_trajectory (rig, ts, (const double *) c->goals->data, n, error);
    }
  for (guint k = 0; rig->sim != NULL && ok && k < c->segment_s->len; k++)
    {
      const double *q = &g_array_index (c->goals, double, k * NB_ARM_JOINTS);
      const double *from = k == 0 ? &g_array_index (c->pre, double, 0)
                                  : &g_array_index (c->goals, double, (k - 1) * NB_ARM_JOINTS);
      double nominal = 0;

      /* The joints' own time for the step; stretched to the step at v_c. */
      for (int j = 0; j < NB_ARM_JOINTS; j++)
        if (rig->model.joint[j].has_velocity_limits && rig->model.joint[j].max_velocity > 0)
          nominal = MAX (nominal, fabs (q[j] - from[j]) / rig->model.joint[j].max_velocity);
      rig->sim->slow_factor = nominal > 0 ? MAX (1.0, g_array_index (c->segment_s, double, k) /
                                                      nominal) : 1.0;
      ok = nb_iso9283_rig_goal (rig, q, FALSE, NULL, error);
    }
  rig->keep_stream = FALSE;
  if (rig->sim != NULL)
    rig->sim->slow_factor = slow;
  nb_iso9283_rig_servo (rig, TRUE);
  if (ok && rig->sim == NULL && !nb_clause_9283_stream_check (rig, "8", error))
    ok = FALSE;
  for (guint i = 0; ok && i < rig->stream_t_s->len; i++)
    {
      const NbPose6 *p = &g_array_index (rig->stream_pose, NbPose6, i);
      const double s[7] = { g_array_index (rig->stream_t_s, double, i) - t0, p->x_mm, p->y_mm,
                            p->z_mm, p->a_deg, p->b_deg, p->c_deg };

      g_array_append_vals (t->data, s, 7);
    }
  return ok;
}

static gboolean
path_cycle (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
            NbClause9283Goals *c, guint number, NbIso9283Trial *t, GError **error)
{
  const NbIso9283Path *p = &c->path;
  const double head[1] = { p->kind == NB_ISO9283_LINE ? 0 : 1 };

  if (!nb_clause_9283_track_cycle (rig, c, t, error))
    return FALSE;
  g_array_append_vals (t->command, head, 1);
  g_array_append_vals (t->command, p->start_mm, 3);
  g_array_append_vals (t->command, p->end_mm, 3);
  g_array_append_vals (t->command, p->centre_mm, 3);
  g_array_append_vals (t->command, p->normal, 3);
  g_array_append_vals (t->command, p->abc_deg, 3);
  g_array_append_vals (t->command, &c->v_command_mm_s, 1);
  /* 8.4: the turn (cycles of the other paths end at 17 values). */
  if (p->turn_axis[0] != 0 || p->turn_axis[1] != 0 || p->turn_axis[2] != 0)
    {
      g_array_append_vals (t->command, p->turn_axis, 3);
      g_array_append_vals (t->command, p->turn_deg, 2);
    }
  return TRUE;
}

gboolean
nb_clause_9283_cycle_tracks (GPtrArray *trials, const guint *command_lens, const char *what,
                             NbClause9283Cycles *out, GError **error)
{
  const NbIso9283Trial *first = trials->pdata[0];
  gboolean known = FALSE;

  memset (out, 0, sizeof *out);
  for (const guint *len = command_lens; *len != 0; len++)
    known = known || first->command->len == *len;
  if (!known)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "cycle %u holds no %s", first->cycle, what);
      return FALSE;
    }
  out->command = (const double *) first->command->data;
  out->n_command = first->command->len;
  out->n = trials->len;
  out->tracks = g_new0 (NbIso9283Track, out->n);
  out->t_s = g_new0 (double *, out->n);
  out->poses = g_new0 (NbPose6 *, out->n);
  for (guint j = 0; j < out->n; j++)
    {
      const NbIso9283Trial *t = trials->pdata[j];
      gsize n = t->data->len / 7;

      if (t->data->len % 7 != 0 || n < 2)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "cycle %u holds no track", t->cycle);
          return FALSE;
        }
      out->t_s[j] = g_new (double, n);
      out->poses[j] = g_new (NbPose6, n);
      for (gsize i = 0; i < n; i++)
        {
          const double *r = &g_array_index (t->data, double, i * 7);

          out->t_s[j][i] = r[0];
          out->poses[j][i] = (NbPose6) { r[1], r[2], r[3], r[4], r[5], r[6] };
        }
      out->tracks[j] = (NbIso9283Track) { out->t_s[j], out->poses[j], n };
    }
  return TRUE;
}

void
nb_clause_9283_cycles_clear (NbClause9283Cycles *c)
{
  for (guint j = 0; c->t_s != NULL && j < c->n; j++)
    {
      g_free (c->t_s[j]);
      g_free (c->poses[j]);
    }
  g_free (c->tracks);
  g_free (c->t_s);
  g_free (c->poses);
  memset (c, 0, sizeof *c);
}

static gboolean
path_compute (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *trials,
              const NbCatalogue *lang, NbClause9283Figures *f, GError **error)
{
  /* The line or circle (17 values), turned (8.4: 22). */
  static const guint lens[] = { 17, 22, 0 };
  guint n = trials->len;
  g_auto (NbClause9283Cycles) c = { 0 };
  g_autofree const double **v = g_new0 (const double *, n);
  g_autofree gsize *m = g_new0 (gsize, n);
  g_autoptr (GPtrArray) speeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  const double *h;
  NbIso9283Track *tracks;
  NbIso9283Path path;
  NbIso9283PathResult r;
  NbIso9283Velocity vr;
  double length, v_c;
  gboolean ok;

  if (!nb_clause_9283_cycle_tracks (trials, lens, "command path", &c, error))
    return FALSE;
  h = c.command;
  tracks = c.tracks;
  memset (&path, 0, sizeof path);
  path.kind = h[0] == 0 ? NB_ISO9283_LINE : NB_ISO9283_CIRCLE;
  memcpy (path.start_mm, h + 1, sizeof path.start_mm);
  memcpy (path.end_mm, h + 4, sizeof path.end_mm);
  memcpy (path.centre_mm, h + 7, sizeof path.centre_mm);
  memcpy (path.normal, h + 10, sizeof path.normal);
  memcpy (path.abc_deg, h + 13, sizeof path.abc_deg);
  v_c = h[16];
  if (c.n_command == 22)
    {
      memcpy (path.turn_axis, h + 17, sizeof path.turn_axis);
      memcpy (path.turn_deg, h + 20, sizeof path.turn_deg);
    }
  ok = nb_iso9283_path_length (&path, &length, error) &&
       nb_iso9283_path (&path, tracks, n, POINTS, REACH_MM, &r, error);
  for (guint j = 0; ok && j < n; j++)
    {
      g_autofree double *ts = g_new (double, tracks[j].n / VELOCITY_EVERY + 1);
      g_autofree NbPose6 *ps = g_new (NbPose6, tracks[j].n / VELOCITY_EVERY + 1);
      NbIso9283Track every = { ts, ps, 0 };
      GArray *a;

      for (gsize i = 0; i < tracks[j].n; i += VELOCITY_EVERY, every.n++)
        {
          ts[every.n] = tracks[j].t_s[i];
          ps[every.n] = tracks[j].pose[i];
        }
      a = nb_iso9283_track_speeds (&path, &every, length / (POINTS + 1.0),
                                   length * POINTS / (POINTS + 1.0), error);

      if ((ok = a != NULL))
        {
          g_ptr_array_add (speeds, a);
          v[j] = (const double *) a->data;
          m[j] = a->len;
        }
    }
  ok = ok && nb_iso9283_velocity (v_c, v, m, n, &vr, error);
  if (!ok)
    return FALSE;
  nb_clause_9283_figures_alloc (f, clause, 1);
  f->labels[0] = g_strdup (path.kind == NB_ISO9283_LINE ? "P2–P4" : "P1");
  f->values[0] = r.at_mm;
  f->values[1] = r.rt_mm;
  memcpy (&f->values[2], r.at_abc_deg, sizeof r.at_abc_deg);
  f->values[5] = r.rt_abc_deg[0];
  f->values[6] = vr.v_mean_mm_s;
  f->values[7] = vr.av_pct;
  f->values[8] = vr.rv_mm_s;
  f->values[9] = vr.fv_mm_s;
  if (c.n_command == 22)
    f->note = g_strdup_printf (nb_ptr (lang, "iso9283",
                                       "L = %.1f mm, v_c = %.1f mm/s, m = %u, the tool turned "
                                       "from %+.0f° to %+.0f° about its z"),
                               length, v_c, POINTS, path.turn_deg[0], path.turn_deg[1]);
  else
    f->note = g_strdup_printf (nb_ptr (lang, "iso9283", "L = %.1f mm, v_c = %.1f mm/s, m = %u"),
                               length, v_c, POINTS);
  return TRUE;
}

#define PATH_MODULE(sym, k, number, words)                                               \
  const NbClause9283 sym = {                                                             \
    .key = k,                                                                            \
    .clause = number,                                                                    \
    .title = words,                                                                      \
    .cycles = 10,                                                                        \
    .speeds = NB_9283_ALL_SPEEDS,                                                        \
    .needs = NB_ISO9283_NEEDS_STREAM | NB_ISO9283_NEEDS_TIMED_PATH,                     \
    .columns = path_columns,                                                             \
    .n_columns = G_N_ELEMENTS (path_columns),                                            \
    .prepare = path_prepare,                                                             \
    .run_cycle = path_cycle,                                                             \
    .compute = path_compute,                                                             \
  }

PATH_MODULE (nb_clause_9283_path_line, "path-line", "8.2, 8.3, 8.6",
             NC_ ("iso9283", "Path accuracy, repeatability and velocity: straight line"));
PATH_MODULE (nb_clause_9283_path_large_circle, "path-large-circle", "8.2, 8.3, 8.6",
             NC_ ("iso9283", "Path accuracy, repeatability and velocity: large circle"));
PATH_MODULE (nb_clause_9283_path_small_circle, "path-small-circle", "8.2, 8.3, 8.6",
             NC_ ("iso9283", "Path accuracy, repeatability and velocity: small circle"));
PATH_MODULE (nb_clause_9283_path_reorientation, "path-reorientation", "8.4",
             NC_ ("iso9283", "Path accuracy on reorientation: straight line"));

/* ------------------------------------------------------- 8.5 corners -- */

static const NbClause9283Column corner_columns[] = {
  { "cr_mm", NC_ ("iso9283", "CR (max)"), "mm", 3 },
  { "co_mm", NC_ ("iso9283", "CO (max)"), "mm", 3 },
  { "cr_mean_mm", NC_ ("iso9283", "CR (mean)"), "mm", 3 },
  { "co_mean_mm", NC_ ("iso9283", "CO (mean)"), "mm", 3 },
};

static gboolean
corner_prepare (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
                NbClause9283Goals *c, GError **error)
{
  const NbIso9283Cube *cube = &rig->cube;
  g_autofree double (*pts)[3] = NULL;
  guint n1, n2, np;

  memcpy (c->corner_mm[0], cube->p_mm[1], sizeof c->corner_mm[0]);
  memcpy (c->corner_mm[1], cube->p_mm[2], sizeof c->corner_mm[1]);
  memcpy (c->corner_mm[2], cube->p_mm[3], sizeof c->corner_mm[2]);
  c->v_command_mm_s = rig->rated_speed_mm_s * e->speed_pct / 100.0;
  {
    double l1 = 0, l2 = 0;

    for (int k = 0; k < 3; k++)
      {
        l1 += pow (c->corner_mm[1][k] - c->corner_mm[0][k], 2);
        l2 += pow (c->corner_mm[2][k] - c->corner_mm[1][k], 2);
      }
    n1 = (guint) ceil (sqrt (l1) / STEP_MM);
    n2 = (guint) ceil (sqrt (l2) / STEP_MM);
  }
  np = n1 + n2 + 1;
  pts = g_malloc (sizeof (double[3]) * (np));
  for (guint i = 0; i <= n1; i++)
    for (int k = 0; k < 3; k++)
      pts[i][k] = c->corner_mm[0][k] + (c->corner_mm[1][k] - c->corner_mm[0][k]) * i / n1;
  for (guint i = 1; i <= n2; i++)
    for (int k = 0; k < 3; k++)
      pts[n1 + i][k] = c->corner_mm[1][k] + (c->corner_mm[2][k] - c->corner_mm[1][k]) * i / n2;
  if (!nb_clause_9283_path_points (rig, c, (const double (*)[3]) pts, np, rig->q[1], NULL, error))
    return FALSE;
  return nb_clause_9283_check (rig, c, error);
}

static gboolean
corner_cycle (const NbClause9283 *clause, NbIso9283Rig *rig, const NbIso9283PlanEntry *e,
              NbClause9283Goals *c, guint number, NbIso9283Trial *t, GError **error)
{
  if (!nb_clause_9283_track_cycle (rig, c, t, error))
    return FALSE;
  g_array_append_vals (t->command, c->corner_mm, 9);
  g_array_append_vals (t->command, &c->v_command_mm_s, 1);
  return TRUE;
}

static gboolean
corner_compute (const NbClause9283 *clause, const NbIso9283PlanEntry *e, GPtrArray *trials,
                const NbCatalogue *lang, NbClause9283Figures *f, GError **error)
{
  /* P2, P3, P4 and v_c (corner_cycle). */
  static const guint lens[] = { 10, 0 };
  g_auto (NbClause9283Cycles) c = { 0 };
  const double *h;
  NbIso9283Corner r;

  if (!nb_clause_9283_cycle_tracks (trials, lens, "corner", &c, error))
    return FALSE;
  h = c.command;
  if (!nb_iso9283_corner (h, h + 3, h + 6, c.tracks, c.n, &r, error))
    return FALSE;
  nb_clause_9283_figures_alloc (f, clause, 1);
  f->labels[0] = g_strdup ("P3");
  f->values[0] = r.cr_mm;
  f->values[1] = r.co_mm;
  f->values[2] = r.cr_mean_mm;
  f->values[3] = r.co_mean_mm;
  f->note = g_strdup_printf (nb_ptr (lang, "iso9283", "P2 → P3 → P4, v_c = %.1f mm/s"), h[9]);
  return TRUE;
}

const NbClause9283 nb_clause_9283_corner = {
  .key = "corner",
  .clause = "8.5",
  .title = NC_ ("iso9283", "Corner deviations"),
  .cycles = 3,
  .speeds = NB_9283_ALL_SPEEDS,
  .needs = NB_ISO9283_NEEDS_STREAM | NB_ISO9283_NEEDS_TIMED_PATH,
  .columns = corner_columns,
  .n_columns = G_N_ELEMENTS (corner_columns),
  .prepare = corner_prepare,
  .run_cycle = corner_cycle,
  .compute = corner_compute,
};
