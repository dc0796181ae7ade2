#include "nb-traj-error.h"

#include "nb-error.h"

#include <math.h>
#include <string.h>

static const struct {
  const char *name, *alias, *unit, *title;
} relations[] = {
  [NB_REL_TRANS] = { "trans", "trans_part", "m", "translation part" },
  [NB_REL_ROT_PART] = { "rot_part", "rot", "", "rotation part" },
  [NB_REL_FULL] = { "full", "full_transformation", "", "full transformation" },
  [NB_REL_ANGLE_RAD] = { "angle_rad", NULL, "rad", "rotation angle" },
  [NB_REL_ANGLE_DEG] = { "angle_deg", NULL, "deg", "rotation angle" },
  [NB_REL_XY] = { "xy", NULL, "m", "translation part in the xy plane" },
  [NB_REL_YAW_DEG] = { "yaw_deg", NULL, "deg", "heading (yaw) angle" },
};

gboolean
nb_relation_from_string (const char *text, NbRelation *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (relations); i++)
    if (g_str_equal (text, relations[i].name) ||
        (relations[i].alias != NULL && g_str_equal (text, relations[i].alias)))
      {
        *out = (NbRelation) i;
        return TRUE;
      }
  return FALSE;
}

const char *
nb_relation_name (NbRelation rel)
{
  return relations[rel].name;
}

const char *
nb_relation_unit (NbRelation rel)
{
  return relations[rel].unit;
}

const char *
nb_relation_title (NbRelation rel)
{
  return relations[rel].title;
}

gboolean
nb_relation_uses_rotation (NbRelation rel)
{
  return rel != NB_REL_TRANS && rel != NB_REL_XY;
}

static double
wrap_pi (double a)
{
  return remainder (a, 2.0 * G_PI);
}

/* The figure of an error pose E given as its quaternion qe and translation
 * te; ‖R − I‖_F² = 8‖v‖² for a unit quaternion. */
static double
relation_value (NbRelation rel, const double qe[4], const double te[3])
{
  double v2 = qe[1] * qe[1] + qe[2] * qe[2] + qe[3] * qe[3];
  double t2 = te[0] * te[0] + te[1] * te[1] + te[2] * te[2];

  switch (rel)
    {
    case NB_REL_TRANS:
      return sqrt (t2);
    case NB_REL_ROT_PART:
      return sqrt (8.0 * v2);
    case NB_REL_FULL:
      return sqrt (8.0 * v2 + t2);
    case NB_REL_ANGLE_RAD:
      return nb_quat_angle (qe);
    case NB_REL_ANGLE_DEG:
      return nb_quat_angle (qe) * (180.0 / G_PI);
    case NB_REL_XY:
    case NB_REL_YAW_DEG:
    default:
      g_assert_not_reached ();
    }
}

void
nb_traj_ape (const NbTraj *ref, const NbTraj *est, NbRelation rel, double *err)
{
  g_return_if_fail (ref->n == est->n);

  for (guint k = 0; k < ref->n; k++)
    {
      const double *pr = ref->p + 3 * (gsize) k, *pe = est->p + 3 * (gsize) k, *qr, *qe;
      double d[3] = { pr[0] - pe[0], pr[1] - pe[1], pr[2] - pe[2] }, qinv[4], q[4];

      switch (rel)
        {
        case NB_REL_TRANS:
          /* ‖t(P_est⁻¹P_ref)‖ = ‖p_ref − p_est‖: no rotation needed. */
          err[k] = sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
          break;
        case NB_REL_XY:
          err[k] = hypot (d[0], d[1]);
          break;
        case NB_REL_YAW_DEG:
          qr = ref->q + 4 * (gsize) k, qe = est->q + 4 * (gsize) k;
          err[k] = fabs (wrap_pi (nb_quat_yaw (qr) - nb_quat_yaw (qe))) * (180.0 / G_PI);
          break;
        default:
          /* E = P_est⁻¹·P_ref; its translation R_estᵀ·d has the norm of d. */
          qr = ref->q + 4 * (gsize) k, qe = est->q + 4 * (gsize) k;
          nb_quat_conj (qe, qinv);
          nb_quat_mul (qinv, qr, q);
          err[k] = relation_value (rel, q, d);
          break;
        }
    }
}

GArray *
nb_traj_rpe_pairs (const NbTraj *traj, double delta, NbDeltaUnit unit, gboolean all_pairs,
                   GError **error)
{
  g_autoptr (GArray) pairs = g_array_new (FALSE, FALSE, sizeof (NbPosePair));

  if (!(delta > 0.0) || (unit == NB_DELTA_FRAMES && (delta != floor (delta) ||
                                                     delta > G_MAXUINT)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--delta must be %s, got %g",
                   unit == NB_DELTA_FRAMES ? "a whole number of frames ≥ 1" : "positive", delta);
      return NULL;
    }
  if (unit == NB_DELTA_FRAMES)
    {
      guint d = (guint) delta;

      if (all_pairs)
        {
          for (guint i = 0; traj->n > d && i < traj->n - d; i++)
            g_array_append_val (pairs, ((NbPosePair) { i, i + d }));
        }
      else
        for (guint i = 0; traj->n > d && i < traj->n - d; i += d)
          g_array_append_val (pairs, ((NbPosePair) { i, i + d }));
    }
  else
    {
      double path = 0.0;
      guint last = G_MAXUINT;

      if (all_pairs)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "--all-pairs works with --delta-unit frames only");
          return NULL;
        }
      for (guint i = 0; i < traj->n; i++)
        {
          if (i > 0)
            {
              const double *a = traj->p + 3 * (gsize) (i - 1), *b = traj->p + 3 * (gsize) i;
              double dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];

              path += sqrt (dx * dx + dy * dy + dz * dz);
            }
          if (path >= delta)
            {
              if (last != G_MAXUINT)
                g_array_append_val (pairs, ((NbPosePair) { last, i }));
              last = i;
              path = 0.0;
            }
        }
    }
  if (pairs->len == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "--delta %g %s gives no pose pair among the %u paired poses; try a smaller "
                   "delta", delta, unit == NB_DELTA_FRAMES ? "frames" : "m", traj->n);
      return NULL;
    }
  return g_steal_pointer (&pairs);
}

/* Q⁻¹_i·Q_j: its quaternion and translation. */
static void
relative (const NbTraj *traj, guint i, guint j, double q[4], double t[3])
{
  const double *pi = traj->p + 3 * (gsize) i, *pj = traj->p + 3 * (gsize) j;
  double qinv[4], d[3] = { pj[0] - pi[0], pj[1] - pi[1], pj[2] - pi[2] };

  nb_quat_conj (traj->q + 4 * (gsize) i, qinv);
  nb_quat_mul (qinv, traj->q + 4 * (gsize) j, q);
  nb_quat_rotate (qinv, d, t);
}

/* The planar relative motion from i to j: x, y in the frame of pose i
 * turned by its heading only, and the heading change. */
static void
relative_planar (const NbTraj *traj, guint i, guint j, double t[2], double *yaw)
{
  const double *pi = traj->p + 3 * (gsize) i, *pj = traj->p + 3 * (gsize) j;
  double yi = nb_quat_yaw (traj->q + 4 * (gsize) i), c = cos (yi), s = sin (yi);
  double dx = pj[0] - pi[0], dy = pj[1] - pi[1];

  t[0] = c * dx + s * dy;
  t[1] = -s * dx + c * dy;
  *yaw = nb_quat_yaw (traj->q + 4 * (gsize) j) - yi;
}

void
nb_traj_rpe (const NbTraj *ref, const NbTraj *est, const NbPosePair *pairs, guint n_pairs,
             NbRelation rel, double *err)
{
  for (guint k = 0; k < n_pairs; k++)
    {
      guint i = pairs[k].i, j = pairs[k].j;

      if (rel == NB_REL_XY || rel == NB_REL_YAW_DEG)
        {
          double tq[2], tp[2], yq, yp;

          relative_planar (ref, i, j, tq, &yq);
          relative_planar (est, i, j, tp, &yp);
          err[k] = rel == NB_REL_XY ? hypot (tp[0] - tq[0], tp[1] - tq[1])
                                    : fabs (wrap_pi (yp - yq)) * (180.0 / G_PI);
        }
      else
        {
          double qq[4], tq[3], qp[4], tp[3], qinv[4], qe[4], d[3];

          relative (ref, i, j, qq, tq);
          relative (est, i, j, qp, tp);
          /* E = Q_rel⁻¹·P_rel: translation R_qᵀ(t_p − t_q), of norm ‖t_p − t_q‖. */
          nb_quat_conj (qq, qinv);
          nb_quat_mul (qinv, qp, qe);
          for (int a = 0; a < 3; a++)
            d[a] = tp[a] - tq[a];
          err[k] = relation_value (rel, qe, d);
        }
    }
}

static inline void
swap (double *a, gssize i, gssize j)
{
  double x = a[i];

  a[i] = a[j];
  a[j] = x;
}

/* The k-th smallest of a[0..n), reordering a so that a[0..k) ≤ a[k]:
 * selection with a three-way partition (runs of equal errors are common:
 * zeros) around a median-of-three pivot; expected linear time. */
static double
select_kth (double *a, gssize n, gssize k)
{
  gssize lo = 0, hi = n - 1;

  while (lo < hi)
    {
      double x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi];
      double pivot = MAX (MIN (x, y), MIN (MAX (x, y), z));
      gssize lt = lo, i = lo, gt = hi;

      /* [lo, lt) < pivot, [lt, i) = pivot, (gt, hi] > pivot */
      while (i <= gt)
        {
          if (a[i] < pivot)
            swap (a, lt++, i++);
          else if (a[i] > pivot)
            swap (a, i, gt--);
          else
            i++;
        }
      if (k < lt)
        hi = lt - 1;
      else if (k > gt)
        lo = gt + 1;
      else
        return pivot;
    }
  return a[k];
}

void
nb_error_stats (const double *err, guint n, NbErrorStats *out)
{
  g_autofree double *copy = NULL;
  double sum = 0.0, sse = 0.0, mean, var = 0.0;
  double lo = INFINITY, hi = -INFINITY;

  g_return_if_fail (n > 0);
  for (guint k = 0; k < n; k++)
    {
      sum += err[k];
      sse += err[k] * err[k];
      lo = MIN (lo, err[k]);
      hi = MAX (hi, err[k]);
    }
  mean = sum / n;
  /* The population deviation in a second pass (numpy's np.std, ddof 0). */
  for (guint k = 0; k < n; k++)
    var += (err[k] - mean) * (err[k] - mean);

  copy = g_memdup2 (err, (gsize) n * sizeof (double));
  out->n = n;
  out->sse = sse;
  out->rmse = sqrt (sse / n);
  out->mean = mean;
  out->std = sqrt (var / n);
  out->min = lo;
  out->max = hi;
  if (n % 2 == 1)
    out->median = select_kth (copy, n, n / 2);
  else
    {
      /* After selecting the upper middle, the lower one is the largest of
       * the part before it. */
      double upper = select_kth (copy, n, n / 2), lower = -INFINITY;

      for (guint k = 0; k < n / 2; k++)
        lower = MAX (lower, copy[k]);
      out->median = 0.5 * (lower + upper);
    }
}
