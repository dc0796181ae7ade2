#include "nb-iso9283-cube.h"

#include "nb-error.h"
#include "nb-iso9283.h"
#include "nb-traj.h"

#include <math.h>
#include <string.h>

/* 6.3: the corners (1-based) of each measurement plane, in order round it. */
static const guint plane_corners[4][4] = {
  { 1, 2, 7, 8 }, { 2, 3, 8, 5 }, { 3, 4, 5, 6 }, { 4, 1, 6, 7 },
};

gboolean
nb_iso9283_cube_init (const double centre[3], double edge, guint plane, const double abc[3],
                      NbIso9283Cube *cube, GError **error)
{
  /* C1..C4 below, counter-clockwise seen from above from (−,−); C5..C8 above them. */
  static const double sign[8][3] = {
    { -1, -1, -1 }, { 1, -1, -1 }, { 1, 1, -1 }, { -1, 1, -1 },
    { -1, -1, 1 },  { 1, -1, 1 },  { 1, 1, 1 },  { -1, 1, 1 },
  };

  memset (cube, 0, sizeof *cube);
  if (!(edge > 0) || !isfinite (edge))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the cube's edge (%g mm) must be positive",
                   edge);
      return FALSE;
    }
  if (plane < 1 || plane > 4)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "the measurement plane is 1 (C1-C2-C7-C8) to 4 (C4-C1-C6-C7), not %u", plane);
      return FALSE;
    }
  for (int k = 0; k < 3; k++)
    if (!isfinite (centre[k]) || !isfinite (abc[k]))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the cube's centre and orientation must be "
                     "finite");
        return FALSE;
      }
  memcpy (cube->centre_mm, centre, sizeof cube->centre_mm);
  memcpy (cube->abc_deg, abc, sizeof cube->abc_deg);
  cube->edge_mm = edge;
  cube->plane = plane;
  for (int c = 0; c < 8; c++)
    for (int k = 0; k < 3; k++)
      cube->corner_mm[c][k] = centre[k] + sign[c][k] * edge / 2.0;
  memcpy (cube->p_mm[0], centre, sizeof cube->p_mm[0]);
  for (int i = 0; i < 4; i++)
    {
      /* P(i+2) lies on the diagonal from its corner to the opposite one. */
      const double *from = cube->corner_mm[plane_corners[plane - 1][i] - 1];
      const double *to = cube->corner_mm[plane_corners[plane - 1][(i + 2) % 4] - 1];

      for (int k = 0; k < 3; k++)
        cube->p_mm[i + 1][k] = from[k] + NB_ISO9283_DIAGONAL_FRACTION * (to[k] - from[k]);
    }
  return TRUE;
}

void
nb_iso9283_cube_target (const NbIso9283Cube *cube, const double p[3], double T[16])
{
  double R[9];

  nb_iso9283_abc_to_matrix (cube->abc_deg, R);
  memset (T, 0, 16 * sizeof (double));
  for (int r = 0; r < 3; r++)
    {
      for (int c = 0; c < 3; c++)
        T[r * 4 + c] = R[r * 3 + c];
      T[r * 4 + 3] = p[r] / 1000.0;
    }
  T[15] = 1.0;
}

/* nb_arm_ik is local (damped least squares from a seed): it is walked to
 * the target from the seed's own pose in small steps (the position along
 * the line, the orientation by slerp), each step seeded with the last, so
 * a pose far from the seed is reached when the arm can reach it at all. */
static gboolean
solve (const NbArmModel *model, const NbIso9283Cube *cube, const double p[3],
       const double seed[NB_ARM_JOINTS], double q[NB_ARM_JOINTS], GError **error)
{
  double T[16], T0[16], pos0[3], pos1[3], o0[4], o1[4], cur[NB_ARM_JOINTS], d[3];
  int steps;

  nb_iso9283_cube_target (cube, p, T);
  nb_arm_fk (model, seed, T0);
  nb_arm_pose_from_matrix (T0, pos0, o0);
  nb_arm_pose_from_matrix (T, pos1, o1);
  /* Steps of at most 10 mm and 0.05 rad. */
  for (int i = 0; i < 3; i++)
    d[i] = pos1[i] - pos0[i];
  steps = (int) ceil (MAX (sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / 0.010,
                           2.0 * acos (MIN (1.0, fabs (o0[0] * o1[0] + o0[1] * o1[1] +
                                                       o0[2] * o1[2] + o0[3] * o1[3]))) / 0.05));
  steps = CLAMP (steps, 1, 400);
  memcpy (cur, seed, sizeof cur);
  for (int k = 1; k <= steps; k++)
    {
      double s = (double) k / steps, pos[3], o[4], Tk[16];

      for (int i = 0; i < 3; i++)
        pos[i] = pos0[i] + s * (pos1[i] - pos0[i]);
      nb_quat_slerp (o0, o1, s, o);
      nb_arm_pose_to_matrix (pos, o, Tk);
      if (k == steps)
        memcpy (Tk, T, sizeof Tk);
      if (!nb_arm_ik (model, Tk, cur, q, k == steps ? error : NULL))
        {
          if (k < steps)
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                         "the pose is unreachable within the joints' ranges (lost on the way "
                         "from the seed, step %d of %d)", k, steps);
          else
            g_prefix_error (error, "from the seed in %d steps: ", steps);
          return FALSE;
        }
      memcpy (cur, q, sizeof cur);
    }
  return nb_arm_check_joints (model, q, error);
}

/* The smallest distance of a joint to its range's ends (rad). */
static double
joint_margin (const NbArmModel *model, const double q[NB_ARM_JOINTS])
{
  double margin = INFINITY;

  for (int j = 0; j < NB_ARM_JOINTS; j++)
    {
      double lo, hi;

      nb_arm_joint_range (&model->joint[j], &lo, &hi);
      margin = MIN (margin, MIN (q[j] - lo, hi - q[j]));
    }
  return margin;
}

/* P1 from the seed and from the seed with the flange joint turned by ±90°
 * and 180° (the tool's orientation about its axis is the flange joint's
 * business): the solution farthest from every joint limit, so the other
 * poses, walked to from it, have room. */
static gboolean
solve_centre (const NbArmModel *model, const NbIso9283Cube *cube,
              const double seed[NB_ARM_JOINTS], double q[NB_ARM_JOINTS], GError **error)
{
  static const double turns[] = { 0.0, G_PI / 2, -G_PI / 2, G_PI, -G_PI };
  double best = -INFINITY;
  GError *first = NULL;

  for (guint t = 0; t < G_N_ELEMENTS (turns); t++)
    {
      double s[NB_ARM_JOINTS], qt[NB_ARM_JOINTS], lo, hi;

      memcpy (s, seed, sizeof s);
      nb_arm_joint_range (&model->joint[NB_ARM_JOINTS - 1], &lo, &hi);
      s[NB_ARM_JOINTS - 1] = CLAMP (seed[NB_ARM_JOINTS - 1] + turns[t], lo, hi);
      if (solve (model, cube, cube->p_mm[0], s, qt, first == NULL ? &first : NULL) &&
          joint_margin (model, qt) > best)
        {
          best = joint_margin (model, qt);
          memcpy (q, qt, sizeof qt);
        }
    }
  if (isfinite (best))
    {
      g_clear_error (&first);
      return TRUE;
    }
  g_propagate_error (error, first);
  return FALSE;
}

gboolean
nb_iso9283_cube_joints (const NbArmModel *model, const NbIso9283Cube *cube,
                        const double seed[NB_ARM_JOINTS], double q[NB_ISO9283_POSES][NB_ARM_JOINTS],
                        GError **error)
{
  for (guint i = 0; i < NB_ISO9283_POSES; i++)
    if (!(i == 0 ? solve_centre (model, cube, seed, q[0], error)
                 : solve (model, cube, cube->p_mm[i], q[0], q[i], error)))
      {
        g_prefix_error (error, "P%u (%.1f, %.1f, %.1f mm): ", i + 1, cube->p_mm[i][0],
                        cube->p_mm[i][1], cube->p_mm[i][2]);
        return FALSE;
      }
  return TRUE;
}

/* Every corner and pose of the cube reachable, with P1..P5's joints. */
static gboolean
cube_reachable (const NbArmModel *model, const NbIso9283Cube *cube,
                const double seed[NB_ARM_JOINTS], double q[NB_ISO9283_POSES][NB_ARM_JOINTS],
                GError **error)
{
  if (!nb_iso9283_cube_joints (model, cube, seed, q, error))
    return FALSE;
  for (int c = 0; c < 8; c++)
    {
      double qc[NB_ARM_JOINTS];

      if (!solve (model, cube, cube->corner_mm[c], q[0], qc, error))
        {
          g_prefix_error (error, "C%d: ", c + 1);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
nb_iso9283_cube_fit (const NbArmModel *model, const double centre[3], guint plane,
                     const double abc[3], double max_edge, const double seed[NB_ARM_JOINTS],
                     NbIso9283Cube *cube, double q[NB_ISO9283_POSES][NB_ARM_JOINTS],
                     GError **error)
{
  const double min_edge = 10.0;
  g_autoptr (GError) local = NULL;
  double lo = min_edge, hi = max_edge;
  double qlo[NB_ISO9283_POSES][NB_ARM_JOINTS];
  NbIso9283Cube c;

  if (!(max_edge >= min_edge) || !isfinite (max_edge))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "the largest edge to try (%g mm) must be at least %g mm", max_edge, min_edge);
      return FALSE;
    }
  if (!nb_iso9283_cube_init (centre, min_edge, plane, abc, &c, error))
    return FALSE;
  if (!cube_reachable (model, &c, seed, qlo, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "no test cube fits at (%.1f, %.1f, %.1f mm) with the orientation (%.1f, %.1f, "
                   "%.1f°): %s", centre[0], centre[1], centre[2], abc[0], abc[1], abc[2],
                   local->message);
      return FALSE;
    }
  *cube = c;
  /* The largest edge by bisection: reachability shrinks as the cube grows
   * (its corners move outwards towards the reach and the joint limits). */
  if (nb_iso9283_cube_init (centre, max_edge, plane, abc, &c, NULL) &&
      cube_reachable (model, &c, seed, q, NULL))
    {
      *cube = c;
      return TRUE;
    }
  while (hi - lo > 1.0)
    {
      double mid = 0.5 * (lo + hi), qm[NB_ISO9283_POSES][NB_ARM_JOINTS];

      nb_iso9283_cube_init (centre, mid, plane, abc, &c, NULL);
      if (cube_reachable (model, &c, seed, qm, NULL))
        {
          lo = mid;
          *cube = c;
          memcpy (qlo, qm, sizeof qlo);
        }
      else
        hi = mid;
    }
  memcpy (q, qlo, sizeof qlo);
  return TRUE;
}

guint
nb_iso9283_cycle_pose (guint k)
{
  static const guint cycle[NB_ISO9283_POSES] = { 0, 4, 3, 2, 1 };

  return cycle[k % NB_ISO9283_POSES];
}

static void
point_clear (gpointer p)
{
  NbSequencePoint *pt = p;

  g_free (pt->name);
  g_free (pt->frame_id);
  g_free (pt->planner);
}

static void
joint_point (NbSequencePoint *pt, guint pose, const double q[NB_ARM_JOINTS])
{
  memset (pt, 0, sizeof *pt);
  pt->kind = NB_POINT_JOINTS;
  pt->name = g_strdup_printf ("P%u", pose + 1);
  pt->frame_id = g_strdup ("");
  pt->planner = g_strdup ("");
  memcpy (pt->joints, q, sizeof pt->joints);
}

NbSequence *
nb_iso9283_pose_sequence (const NbArmModel *model, const double q[NB_ISO9283_POSES][NB_ARM_JOINTS],
                          guint cycles, GError **error)
{
  g_autoptr (NbSequence) s = NULL;

  if (cycles < 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the pose test needs at least 1 cycle");
      return NULL;
    }
  /* Checked before anything moves (seeds/002: a point outside the soft range is refused). */
  for (guint i = 0; i < NB_ISO9283_POSES; i++)
    if (!nb_arm_check_joints (model, q[i], error))
      {
        g_prefix_error (error, "P%u: ", i + 1);
        return NULL;
      }
  s = g_new0 (NbSequence, 1);
  s->waypoints = g_array_new (FALSE, TRUE, sizeof (NbSequencePoint));
  g_array_set_clear_func (s->waypoints, point_clear);
  s->topics = g_ptr_array_new_with_free_func (g_free);
  s->n_iterations = cycles;
  s->bag_path = g_strdup ("");
  joint_point (&s->home, 0, q[0]);
  for (guint k = 1; k < NB_ISO9283_POSES; k++)
    {
      NbSequencePoint pt;
      guint pose = nb_iso9283_cycle_pose (k);

      joint_point (&pt, pose, q[pose]);
      g_array_append_val (s->waypoints, pt);
    }
  return g_steal_pointer (&s);
}
