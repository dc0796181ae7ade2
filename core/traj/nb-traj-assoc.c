#include "nb-traj-assoc.h"

#include "nb-error.h"

#include <math.h>
#include <string.h>

/* Where an unpaired stamp s lies against the other series' span [lo, hi]. */
static void
count_drop (NbDropCount *c, double s, double lo, double hi, double t_max_diff)
{
  if (s < lo - t_max_diff)
    c->before++;
  else if (s > hi + t_max_diff)
    c->after++;
  else
    c->inside++;
}

static void
append_pose (NbTraj *out, const NbTraj *in, guint i)
{
  nb_traj_append (out, in->t[i], in->p + 3 * (gsize) i,
                  in->q != NULL ? in->q + 4 * (gsize) i : NULL);
}

static gboolean
no_overlap (const NbTraj *ref, const NbTraj *est, double t_offset, const char *how,
            GError **error)
{
  if (ref->n == 0 || est->n == 0)
    g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the %s trajectory is empty",
                 ref->n == 0 ? "reference" : "estimated");
  else
    g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                 "no overlap in time: the reference spans %.9g–%.9g s, the estimate "
                 "(with offset %g s) %.9g–%.9g s; %s",
                 ref->t[0], ref->t[ref->n - 1], t_offset, est->t[0] + t_offset,
                 est->t[est->n - 1] + t_offset, how);
  return FALSE;
}

/* Keeps the poses idx[0..n) of traj, in that order: in place when every
 * idx[k] ≥ k (no source is overwritten before it is read: each double is
 * copied forward, lowest first), else by a copy.  The leading poses that
 * stay where they are (idx[k] == k: the usual pairing of two series of one
 * rate) are not touched. */
static void
gather (NbTraj *traj, const guint *idx, guint n)
{
  gboolean in_place = TRUE;
  NbTraj *dst;
  guint k0 = 0;

  for (guint k = 0; k < n && in_place; k++)
    in_place = idx[k] >= k;
  if (in_place)
    while (k0 < n && idx[k0] == k0)
      k0++;
  dst = in_place ? traj : nb_traj_new (n);
  if (traj->q == NULL)
    nb_traj_drop_orientations (dst);
  for (guint k = k0; k < n; k++)
    {
      gsize i = idx[k];

      dst->t[k] = traj->t[i];
      for (int a = 0; a < 3; a++)
        dst->p[3 * (gsize) k + a] = traj->p[3 * i + a];
      if (traj->q != NULL)
        for (int a = 0; a < 4; a++)
          dst->q[4 * (gsize) k + a] = traj->q[4 * i + a];
    }
  if (!in_place)
    {
      g_free (traj->t), g_free (traj->p), g_free (traj->q);
      traj->t = dst->t, traj->p = dst->p, traj->q = dst->q, traj->cap = dst->cap;
      g_free (dst);
    }
  traj->n = n;
}

gboolean
nb_traj_associate_in_place (NbTraj *ref, NbTraj *est, double t_max_diff, double t_offset,
                            NbAssocReport *report, GError **error)
{
  /* evo: the estimate is the longer series only when strictly longer. */
  gboolean est_longer = est->n > ref->n;
  const NbTraj *shrt = est_longer ? ref : est, *lng = est_longer ? est : ref;
  /* The offset moves the estimate: +o on its stamps, or −o on the
   * reference's when the reference is the one searched (as evo does). */
  double o = est_longer ? t_offset : -t_offset;
  g_autofree guint *si = NULL, *li = NULL;
  NbDropCount short_drop = { 0 }, long_drop = { 0 };
  guint j = 0, last = G_MAXUINT, n = 0;

  *report = (NbAssocReport) { FALSE, t_max_diff, NAN, t_offset, ref->n, est->n };
  if (ref->n == 0 || est->n == 0)
    return no_overlap (ref, est, t_offset, "", error);

  si = g_new (guint, shrt->n);
  li = g_new (guint, shrt->n);
  for (guint i = 0; i < shrt->n; i++)
    {
      double s = shrt->t[i], d;
      guint k;

      /* j: the first stamp of the longer series at or after s; it only
       * moves forward as s grows. */
      while (j < lng->n && (lng->t[j] + o) - s < 0.0)
        j++;
      if (j == 0)
        k = 0;
      else if (j == lng->n)
        k = j - 1;
      else
        k = fabs ((lng->t[j - 1] + o) - s) <= fabs ((lng->t[j] + o) - s) ? j - 1 : j;
      /* argmin takes the first of equal differences (a tie only when the
       * offset rounds distinct stamps together). */
      while (k > 0 && fabs ((lng->t[k - 1] + o) - s) == fabs ((lng->t[k] + o) - s))
        k--;
      d = fabs ((lng->t[k] + o) - s);
      if (!(d <= t_max_diff))
        {
          count_drop (&short_drop, s, lng->t[0] + o, lng->t[lng->n - 1] + o, t_max_diff);
          continue;
        }
      if (k == last)
        report->n_reused++;
      last = k;
      report->max_abs_dt_s = MAX (report->max_abs_dt_s, d);
      si[n] = i, li[n] = k, n++;
    }
  /* The poses of the longer series no pair uses: li[] never decreases, so
   * one walk beside it finds them. */
  for (guint k = 0, m = 0; k < lng->n; k++)
    {
      while (m < n && li[m] < k)
        m++;
      if (m == n || li[m] != k)
        count_drop (&long_drop, lng->t[k] + o, shrt->t[0], shrt->t[shrt->n - 1], t_max_diff);
    }

  report->n_matched = n;
  report->est_dropped = est_longer ? long_drop : short_drop;
  report->ref_unused = est_longer ? short_drop : long_drop;
  if (n == 0)
    {
      g_autofree char *how = g_strdup_printf ("no pair of stamps within --t-max-diff %g s",
                                              t_max_diff);

      return no_overlap (ref, est, t_offset, how, error);
    }
  gather (est_longer ? ref : est, si, n);
  gather (est_longer ? est : ref, li, n);
  return TRUE;
}

gboolean
nb_traj_associate (const NbTraj *ref, const NbTraj *est, double t_max_diff, double t_offset,
                   NbTraj **ref_out, NbTraj **est_out, NbAssocReport *report, GError **error)
{
  g_autoptr (NbTraj) r = nb_traj_new (ref->n), e = nb_traj_new (est->n);

  for (guint i = 0; i < ref->n; i++)
    append_pose (r, ref, i);
  for (guint i = 0; i < est->n; i++)
    append_pose (e, est, i);
  r->has_orientation = ref->has_orientation;
  e->has_orientation = est->has_orientation;
  if (!nb_traj_associate_in_place (r, e, t_max_diff, t_offset, report, error))
    return FALSE;
  *ref_out = g_steal_pointer (&r);
  *est_out = g_steal_pointer (&e);
  return TRUE;
}

gboolean
nb_traj_interpolate (const NbTraj *ref, const NbTraj *est, double max_gap, double t_offset,
                     NbTraj **ref_out, NbTraj **est_out, NbAssocReport *report, GError **error)
{
  g_autoptr (NbTraj) r = NULL, e = NULL;
  guint k = 0;

  *report = (NbAssocReport) { TRUE, NAN, max_gap, t_offset, ref->n, est->n };
  if (ref->n == 0 || est->n == 0)
    return no_overlap (ref, est, t_offset, "", error);

  r = nb_traj_new (est->n);
  e = nb_traj_new (est->n);
  r->has_orientation = ref->has_orientation;
  e->has_orientation = est->has_orientation;
  for (guint i = 0; i < est->n; i++)
    {
      double tau = est->t[i] + t_offset, p[3], q[4], s, t0, t1;

      if (tau < ref->t[0])
        {
          report->est_dropped.before++;
          continue;
        }
      if (tau > ref->t[ref->n - 1])
        {
          report->est_dropped.after++;
          continue;
        }
      /* k: the last reference stamp at or before tau. */
      while (k + 1 < ref->n && ref->t[k + 1] <= tau)
        k++;
      if (ref->t[k] == tau)
        {
          nb_traj_append (r, tau, ref->p + 3 * (gsize) k, ref->q + 4 * (gsize) k);
          append_pose (e, est, i);
          continue;
        }
      t0 = ref->t[k], t1 = ref->t[k + 1];
      /* 1 µs of slack: differences of stamps near 1.7e9 s (Unix time) are
       * only good to 2.4e-7 s, and a 10 Hz series must not turn into gaps
       * at max_gap = 0.1 s through rounding. */
      if (t1 - t0 > max_gap + 1e-6)
        {
          report->est_dropped.inside++;
          continue;
        }
      s = (tau - t0) / (t1 - t0);
      for (int c = 0; c < 3; c++)
        {
          double a = ref->p[3 * (gsize) k + c], b = ref->p[3 * (gsize) (k + 1) + c];

          p[c] = a + s * (b - a);
        }
      nb_quat_slerp (ref->q + 4 * (gsize) k, ref->q + 4 * (gsize) (k + 1), s, q);
      nb_traj_append (r, tau, p, q);
      append_pose (e, est, i);
    }
  report->n_matched = r->n;
  if (r->n == 0)
    {
      g_autofree char *how = g_strdup_printf ("every estimate stamp falls outside the reference's "
                                              "span or in a gap longer than --max-gap %g s",
                                              max_gap);

      return no_overlap (ref, est, t_offset, how, error);
    }
  *ref_out = g_steal_pointer (&r);
  *est_out = g_steal_pointer (&e);
  return TRUE;
}
