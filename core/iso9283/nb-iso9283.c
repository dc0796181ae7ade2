#include "nb-iso9283.h"

#include "nb-angle.h"
#include "nb-error.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ helpers -- */

static void
pose_xyz (const NbPose6 *p, double v[3])
{
  v[0] = p->x_mm;
  v[1] = p->y_mm;
  v[2] = p->z_mm;
}

static void
pose_abc (const NbPose6 *p, double v[3])
{
  v[0] = p->a_deg;
  v[1] = p->b_deg;
  v[2] = p->c_deg;
}

static double
norm3 (const double v[3])
{
  return sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static double
dot3 (const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void
cross3 (const double a[3], const double b[3], double out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

static gboolean
pose_finite (const NbPose6 *p)
{
  return isfinite (p->x_mm) && isfinite (p->y_mm) && isfinite (p->z_mm) &&
         isfinite (p->a_deg) && isfinite (p->b_deg) && isfinite (p->c_deg);
}

static gboolean
check_poses (const NbPose6 *p, gsize n, const char *what, GError **error)
{
  for (gsize j = 0; j < n; j++)
    if (!pose_finite (&p[j]))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s %" G_GSIZE_FORMAT " is not finite",
                     what, j + 1);
        return FALSE;
      }
  return TRUE;
}

/* The centred statistics of one set of poses about a reference (the command):
 * the mean offset of the position and the mean recast angle difference. */
typedef struct {
  double d_mm[3];               /* barycentre − reference */
  double d_deg[3];              /* mean of recast(angle − reference angle) */
} Centred;

static void
centred_means (const NbPose6 *ref, const NbPose6 *p, gsize n, Centred *c)
{
  double r[3], ra[3];

  pose_xyz (ref, r);
  pose_abc (ref, ra);
  memset (c, 0, sizeof *c);
  for (gsize j = 0; j < n; j++)
    {
      double v[3], a[3];

      pose_xyz (&p[j], v);
      pose_abc (&p[j], a);
      for (int k = 0; k < 3; k++)
        {
          c->d_mm[k] += v[k] - r[k];
          c->d_deg[k] += nb_angle_recast_deg (a[k] - ra[k]);
        }
    }
  for (int k = 0; k < 3; k++)
    {
      c->d_mm[k] /= (double) n;
      c->d_deg[k] /= (double) n;
    }
}

/* ------------------------------------------------------------ 7.2 -- */

gboolean
nb_iso9283_pose (const NbPose6 *command, const NbPose6 *attained, gsize n,
                 NbIso9283Pose *r, GError **error)
{
  Centred c;
  double rc[3], ra[3], sum_l = 0.0, ss_l = 0.0, ss_a[3] = { 0 };

  memset (r, 0, sizeof *r);
  if (n < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "ISO 9283 7.2 needs at least 2 attained poses (the standard asks for 30), got %"
                   G_GSIZE_FORMAT, n);
      return FALSE;
    }
  if (!pose_finite (command))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the command pose is not finite");
      return FALSE;
    }
  if (!check_poses (attained, n, "attained pose", error))
    return FALSE;

  pose_xyz (command, rc);
  pose_abc (command, ra);
  centred_means (command, attained, n, &c);
  r->n = n;
  for (int k = 0; k < 3; k++)
    {
      /* 7.2.1: AP_x = x̄ − x_c; AP_a = ā − a_c on the recast differences. */
      r->ap_xyz_mm[k] = c.d_mm[k];
      r->barycentre_mm[k] = rc[k] + c.d_mm[k];
      r->ap_abc_deg[k] = c.d_deg[k];
      r->mean_deg[k] = nb_angle_recast_deg (ra[k] + c.d_deg[k]);
    }
  r->ap_mm = norm3 (c.d_mm);

  /* 7.2.2: l_j = |P_j − barycentre|, in the centred frame. */
  for (gsize j = 0; j < n; j++)
    {
      double v[3], l;

      pose_xyz (&attained[j], v);
      for (int k = 0; k < 3; k++)
        v[k] = (v[k] - rc[k]) - c.d_mm[k];
      l = norm3 (v);
      sum_l += l;
    }
  r->l_mean_mm = sum_l / (double) n;
  for (gsize j = 0; j < n; j++)
    {
      double v[3], a[3];

      pose_xyz (&attained[j], v);
      pose_abc (&attained[j], a);
      for (int k = 0; k < 3; k++)
        v[k] = (v[k] - rc[k]) - c.d_mm[k];
      ss_l += (norm3 (v) - r->l_mean_mm) * (norm3 (v) - r->l_mean_mm);
      for (int k = 0; k < 3; k++)
        {
          double d = nb_angle_recast_deg (a[k] - ra[k]) - c.d_deg[k];

          ss_a[k] += d * d;
        }
    }
  r->s_l_mm = sqrt (ss_l / (double) (n - 1));
  r->rp_mm = r->l_mean_mm + 3.0 * r->s_l_mm;
  for (int k = 0; k < 3; k++)
    {
      r->s_abc_deg[k] = sqrt (ss_a[k] / (double) (n - 1));
      r->rp_abc_deg[k] = 3.0 * r->s_abc_deg[k];
    }
  return TRUE;
}

/* ------------------------------------------------------------ 7.2 -- */

/* The largest distance between the barycentres of any two groups h, k (and
 * its pair), the largest |ā_h − ā_k| (both means are recast differences to
 * a_c): vAP's over approach paths (7.2), E's over robots (7.7).  what names
 * a group in the errors. */
static gboolean
barycentre_spread (const NbPose6 *command, const NbPose6 *const *attained, const gsize *n,
                   guint groups, const char *what, double *d_mm, double d_abc_deg[3],
                   guint pair[2], GError **error)
{
  g_autofree Centred *c = NULL;

  *d_mm = 0;
  memset (d_abc_deg, 0, 3 * sizeof (double));
  pair[0] = 0, pair[1] = 1;
  if (!pose_finite (command))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the command pose is not finite");
      return FALSE;
    }
  c = g_new0 (Centred, groups);
  for (guint h = 0; h < groups; h++)
    {
      if (n[h] < 1)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s %u has no attained pose", what, h + 1);
          return FALSE;
        }
      if (!check_poses (attained[h], n[h], "attained pose", error))
        {
          g_prefix_error (error, "%s %u: ", what, h + 1);
          return FALSE;
        }
      centred_means (command, attained[h], n[h], &c[h]);
    }
  for (guint h = 0; h < groups; h++)
    for (guint k = h + 1; k < groups; k++)
      {
        double d[3];

        for (int i = 0; i < 3; i++)
          d[i] = c[h].d_mm[i] - c[k].d_mm[i];
        if (norm3 (d) > *d_mm)
          {
            *d_mm = norm3 (d);
            pair[0] = h, pair[1] = k;
          }
        for (int i = 0; i < 3; i++)
          d_abc_deg[i] = MAX (d_abc_deg[i],
                              fabs (nb_angle_recast_deg (c[h].d_deg[i] - c[k].d_deg[i])));
      }
  return TRUE;
}

gboolean
nb_iso9283_vap (const NbPose6 *command, const NbPose6 *const *attained, const gsize *n,
                guint n_paths, NbIso9283Vap *r, GError **error)
{
  guint pair[2];

  memset (r, 0, sizeof *r);
  if (n_paths < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "ISO 9283 7.2 compares at least 2 approach paths (the standard uses 3), got %u",
                   n_paths);
      return FALSE;
    }
  return barycentre_spread (command, attained, n, n_paths, "approach path", &r->vap_mm,
                            r->vap_abc_deg, pair, error);
}

gboolean
nb_iso9283_exchangeability (const NbPose6 *command, const NbPose6 *const *attained,
                            const gsize *n, guint n_robots, NbIso9283Exchangeability *r,
                            GError **error)
{
  guint pair[2];

  memset (r, 0, sizeof *r);
  if (n_robots < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "ISO 9283 7.7 compares at least 2 robots of one type, got %u", n_robots);
      return FALSE;
    }
  if (!barycentre_spread (command, attained, n, n_robots, "robot", &r->e_mm, r->e_abc_deg, pair,
                          error))
    return FALSE;
  r->robot_a = pair[0];
  r->robot_b = pair[1];
  return TRUE;
}

/* ------------------------------------------------------------ 7.3 -- */

gboolean
nb_iso9283_distance (const NbPose6 *c1, const NbPose6 *c2, const NbPose6 *first,
                     const NbPose6 *second, gsize n, NbIso9283Distance *r, GError **error)
{
  double p1[3], p2[3], a1[3], a2[3], dc[3], dca[3], dcv[3];
  double sum_d = 0.0, sum_x[3] = { 0 }, sum_a[3] = { 0 }, ss = 0.0, ss_x[3] = { 0 },
         ss_a[3] = { 0 };

  memset (r, 0, sizeof *r);
  if (n < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "ISO 9283 7.3 needs at least 2 cycles (the standard asks for 30), got %"
                   G_GSIZE_FORMAT, n);
      return FALSE;
    }
  if (!pose_finite (c1) || !pose_finite (c2))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "a command pose is not finite");
      return FALSE;
    }
  if (!check_poses (first, n, "first pose of cycle", error) ||
      !check_poses (second, n, "second pose of cycle", error))
    return FALSE;

  pose_xyz (c1, p1);
  pose_xyz (c2, p2);
  pose_abc (c1, a1);
  pose_abc (c2, a2);
  for (int k = 0; k < 3; k++)
    {
      dcv[k] = p1[k] - p2[k];
      dc[k] = fabs (dcv[k]);                                /* D_cx = |x_c1 − x_c2| */
      dca[k] = fabs (nb_angle_recast_deg (a1[k] - a2[k]));  /* D_ca = |a_c1 − a_c2| */
    }
  r->n = n;
  r->d_command_mm = norm3 (dcv);

  /* Each cycle's D_j, D_xj, D_aj, on positions centred on the commands (the
   * difference of two centred vectors plus the command's own difference). */
#define CYCLE_VALUES(j, D, Dx, Da)                                              \
  do                                                                            \
    {                                                                           \
      double q1[3], q2[3], b1[3], b2[3], v[3];                                  \
      pose_xyz (&first[j], q1);                                                 \
      pose_xyz (&second[j], q2);                                                \
      pose_abc (&first[j], b1);                                                 \
      pose_abc (&second[j], b2);                                                \
      for (int k = 0; k < 3; k++)                                               \
        {                                                                       \
          v[k] = ((q1[k] - p1[k]) - (q2[k] - p2[k])) + dcv[k];                  \
          Dx[k] = fabs (v[k]);                                                  \
          Da[k] = fabs (nb_angle_recast_deg ((a1[k] - a2[k])                    \
                        + nb_angle_recast_deg (b1[k] - a1[k])                   \
                        - nb_angle_recast_deg (b2[k] - a2[k])));                \
        }                                                                       \
      D = norm3 (v);                                                            \
    }                                                                           \
  while (0)

  for (gsize j = 0; j < n; j++)
    {
      double D, Dx[3], Da[3];

      CYCLE_VALUES (j, D, Dx, Da);
      sum_d += D;
      for (int k = 0; k < 3; k++)
        {
          sum_x[k] += Dx[k];
          sum_a[k] += Da[k];
        }
    }
  r->d_mean_mm = sum_d / (double) n;
  /* 7.3.2: AD_P = D̄ − D_c; AD_x = D̄_x − D_cx; AD_a = D̄_a − D_ca. */
  r->ad_mm = r->d_mean_mm - r->d_command_mm;
  for (int k = 0; k < 3; k++)
    {
      r->ad_xyz_mm[k] = sum_x[k] / (double) n - dc[k];
      r->ad_abc_deg[k] = sum_a[k] / (double) n - dca[k];
    }
  for (gsize j = 0; j < n; j++)
    {
      double D, Dx[3], Da[3];

      CYCLE_VALUES (j, D, Dx, Da);
      ss += (D - r->d_mean_mm) * (D - r->d_mean_mm);
      for (int k = 0; k < 3; k++)
        {
          double ex = Dx[k] - sum_x[k] / (double) n, ea = Da[k] - sum_a[k] / (double) n;

          ss_x[k] += ex * ex;
          ss_a[k] += ea * ea;
        }
    }
#undef CYCLE_VALUES
  /* 7.3.3: RD = ±3·S_D, S_D with n − 1. */
  r->rd_mm = 3.0 * sqrt (ss / (double) (n - 1));
  for (int k = 0; k < 3; k++)
    {
      r->rd_xyz_mm[k] = 3.0 * sqrt (ss_x[k] / (double) (n - 1));
      r->rd_abc_deg[k] = 3.0 * sqrt (ss_a[k] / (double) (n - 1));
    }
  return TRUE;
}

/* ------------------------------------------------------- 7.4, 7.5 -- */

gboolean
nb_iso9283_settling (const NbIso9283Sample *s, gsize n, double band_mm, double tail_s,
                     NbIso9283Settling *r, GError **error)
{
  double att[3] = { 0 }, u[3], un;
  gsize n_tail = 0, entry = G_MAXSIZE, stable = 0, tail_start;
  double t_entry = NAN;
  const double *p0;

  memset (r, 0, sizeof *r);
  if (!(band_mm > 0) || !isfinite (band_mm) || !(tail_s >= 0) || !isfinite (tail_s))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "the limit band (%g mm) must be positive and the tail (%g s) not negative",
                   band_mm, tail_s);
      return FALSE;
    }
  if (n < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "ISO 9283 7.4 needs the stream of the approach, got %" G_GSIZE_FORMAT
                   " sample(s)", n);
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    {
      if (!isfinite (s[i].t_s) || !isfinite (s[i].p_mm[0]) || !isfinite (s[i].p_mm[1]) ||
          !isfinite (s[i].p_mm[2]))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "sample %" G_GSIZE_FORMAT
                       " is not finite", i + 1);
          return FALSE;
        }
      if (i > 0 && s[i].t_s < s[i - 1].t_s)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "sample %" G_GSIZE_FORMAT
                       " goes back in time (%.9g s after %.9g s)", i + 1, s[i].t_s,
                       s[i - 1].t_s);
          return FALSE;
        }
    }
  /* The attained pose: the mean of the stream's last tail_s, centred on
   * the last sample. */
  p0 = s[n - 1].p_mm;
  for (gsize i = n; i-- > 0 && s[n - 1].t_s - s[i].t_s <= tail_s;)
    {
      for (int k = 0; k < 3; k++)
        att[k] += s[i].p_mm[k] - p0[k];
      n_tail++;
    }
  for (int k = 0; k < 3; k++)
    att[k] = att[k] / (double) n_tail;
  tail_start = n - n_tail;

  /* The approach direction: from the first sample to the attained pose. */
  for (int k = 0; k < 3; k++)
    u[k] = att[k] - (s[0].p_mm[k] - p0[k]);
  un = norm3 (u);
  for (int k = 0; k < 3; k++)
    u[k] = un > 0 ? u[k] / un : 0.0;

  for (gsize i = 0; i < n; i++)
    {
      double d[3];

      for (int k = 0; k < 3; k++)
        d[k] = (s[i].p_mm[k] - p0[k]) - att[k];
      if (entry == G_MAXSIZE)
        {
          /* The first crossing into the band, between samples too: a fast
           * pass through the band (the start of an overshoot) is a crossing
           * even when no sample falls inside it. */
          if (norm3 (d) <= band_mm)
            {
              entry = i;
              t_entry = s[i].t_s;
            }
          else if (i > 0)
            {
              double a[3], v[3], A, B, C, disc;

              for (int k = 0; k < 3; k++)
                {
                  a[k] = (s[i - 1].p_mm[k] - p0[k]) - att[k];
                  v[k] = d[k] - a[k];
                }
              A = dot3 (v, v);
              B = 2.0 * dot3 (a, v);
              C = dot3 (a, a) - band_mm * band_mm;
              disc = B * B - 4.0 * A * C;
              if (A > 0 && disc >= 0)
                {
                  double w = (-B - sqrt (disc)) / (2.0 * A);

                  if (w >= 0 && w <= 1)
                    {
                      entry = i;
                      t_entry = s[i - 1].t_s + w * (s[i].t_s - s[i - 1].t_s);
                    }
                }
            }
        }
      if (norm3 (d) > band_mm)
        stable = i + 1;
      if (entry != G_MAXSIZE)
        r->overshoot_mm = MAX (r->overshoot_mm, dot3 (d, u));   /* 7.5: beyond the pose */
    }
  for (int k = 0; k < 3; k++)
    r->attained_mm[k] = p0[k] + att[k];
  if (entry == G_MAXSIZE)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "the stream never comes within the limit band (%g mm) of the attained pose",
                   band_mm);
      return FALSE;
    }
  if (stable > tail_start)
    {
      /* The attained pose is the mean of a tail that must lie in the band. */
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "the stream's last %g s leave the limit band (%g mm): the pose has not "
                   "stabilised", tail_s, band_mm);
      return FALSE;
    }
  /* 7.4: from the first entry into the band to the instant from which the
   * position stays in it (the sample after the last one outside). */
  r->t_entry_s = t_entry;
  r->t_stable_s = MAX (s[MAX (stable, entry)].t_s, t_entry);
  r->stabilisation_s = r->t_stable_s - r->t_entry_s;
  return TRUE;
}

/* ------------------------------------------------------------ 7.6 -- */

void
nb_iso9283_drift (const NbIso9283Pose *first, const NbIso9283Pose *last, NbIso9283Drift *r)
{
  r->dap_mm = fabs (first->ap_mm - last->ap_mm);
  r->drp_mm = fabs (first->rp_mm - last->rp_mm);
  for (int k = 0; k < 3; k++)
    {
      r->dap_abc_deg[k] = fabs (first->ap_abc_deg[k] - last->ap_abc_deg[k]);
      r->drp_abc_deg[k] = fabs (first->rp_abc_deg[k] - last->rp_abc_deg[k]);
    }
}

/* ------------------------------------------------------ path geometry -- */

static gboolean
circle_frame (const NbIso9283Path *path, double *radius, double e1[3], double e2[3],
              double nn[3], GError **error)
{
  double v[3], nlen = norm3 (path->normal);

  for (int k = 0; k < 3; k++)
    v[k] = path->start_mm[k] - path->centre_mm[k];
  *radius = norm3 (v);
  if (!(nlen > 0) || !isfinite (nlen) || !(*radius > 0) || !isfinite (*radius))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "the circle needs a normal and a start point apart from its centre");
      return FALSE;
    }
  for (int k = 0; k < 3; k++)
    {
      nn[k] = path->normal[k] / nlen;
      e1[k] = v[k] / *radius;
    }
  if (fabs (dot3 (e1, nn)) > 1e-9)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "the circle's start point is not in the plane normal to its normal");
      return FALSE;
    }
  cross3 (nn, e1, e2);
  return TRUE;
}

gboolean
nb_iso9283_path_length (const NbIso9283Path *path, double *length_mm, GError **error)
{
  if (path->kind == NB_ISO9283_LINE)
    {
      double v[3];

      for (int k = 0; k < 3; k++)
        v[k] = path->end_mm[k] - path->start_mm[k];
      *length_mm = norm3 (v);
      if (!(*length_mm > 0) || !isfinite (*length_mm))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the line's start and end coincide");
          return FALSE;
        }
      return TRUE;
    }
  else
    {
      double radius, e1[3], e2[3], nn[3];

      if (!circle_frame (path, &radius, e1, e2, nn, error))
        return FALSE;
      *length_mm = 2.0 * G_PI * radius;
      return TRUE;
    }
}

void
nb_iso9283_path_point (const NbIso9283Path *path, double s_mm, double point[3], double tangent[3])
{
  if (path->kind == NB_ISO9283_LINE)
    {
      double v[3], len;

      for (int k = 0; k < 3; k++)
        v[k] = path->end_mm[k] - path->start_mm[k];
      len = norm3 (v);
      for (int k = 0; k < 3; k++)
        {
          tangent[k] = v[k] / len;
          point[k] = path->start_mm[k] + s_mm * tangent[k];
        }
    }
  else
    {
      double radius, e1[3], e2[3], nn[3], phi;

      if (!circle_frame (path, &radius, e1, e2, nn, NULL))
        {
          for (int k = 0; k < 3; k++)
            point[k] = tangent[k] = NAN;
          return;
        }
      phi = s_mm / radius;
      for (int k = 0; k < 3; k++)
        {
          point[k] = path->centre_mm[k] + radius * (cos (phi) * e1[k] + sin (phi) * e2[k]);
          tangent[k] = -sin (phi) * e1[k] + cos (phi) * e2[k];
        }
    }
}

void
nb_iso9283_path_orientation (const NbIso9283Path *path, double s_mm, double length_mm,
                             double abc_deg[3])
{
  const double *u = path->turn_axis;
  double n = norm3 (u), th, R0[9], Rt[9], R[9], x, y, z, c, s, C;

  if (!(n > 0) || !(length_mm > 0))
    {
      memcpy (abc_deg, path->abc_deg, 3 * sizeof (double));
      return;
    }
  th = (path->turn_deg[0] + (path->turn_deg[1] - path->turn_deg[0]) * s_mm / length_mm) *
       G_PI / 180.0;
  x = u[0] / n, y = u[1] / n, z = u[2] / n;
  c = cos (th), s = sin (th), C = 1 - c;
  /* Rodrigues: the turn about the tool-frame axis, applied after R(abc). */
  Rt[0] = c + x * x * C, Rt[1] = x * y * C - z * s, Rt[2] = x * z * C + y * s;
  Rt[3] = y * x * C + z * s, Rt[4] = c + y * y * C, Rt[5] = y * z * C - x * s;
  Rt[6] = z * x * C - y * s, Rt[7] = z * y * C + x * s, Rt[8] = c + z * z * C;
  nb_iso9283_abc_to_matrix (path->abc_deg, R0);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++)
      R[r * 3 + k] = R0[r * 3] * Rt[k] + R0[r * 3 + 1] * Rt[3 + k] + R0[r * 3 + 2] * Rt[6 + k];
  nb_iso9283_matrix_to_abc (R, abc_deg);
}

/* The track's forward crossing of the plane through c with normal t nearest
 * c: the attained pose there (linear interpolation, angles on recast
 * differences), centred on c for the position and on the command angles. */
static gboolean
track_crossing (const NbIso9283Track *tr, const double c[3], const double t[3],
                const double cabc[3], double reach_mm, double dpos[3], double dang[3])
{
  double best = INFINITY;

  for (gsize k = 0; k + 1 < tr->n; k++)
    {
      double p[3], q[3], f0, f1, w, x[3], dist;

      pose_xyz (&tr->pose[k], p);
      pose_xyz (&tr->pose[k + 1], q);
      for (int i = 0; i < 3; i++)
        {
          p[i] -= c[i];
          q[i] -= c[i];
        }
      f0 = dot3 (p, t);
      f1 = dot3 (q, t);
      if (!(f0 <= 0 && f1 > 0))
        continue;
      w = -f0 / (f1 - f0);
      for (int i = 0; i < 3; i++)
        x[i] = p[i] + w * (q[i] - p[i]);
      dist = norm3 (x);
      if (dist < best && dist <= reach_mm)
        {
          double a0[3], a1[3];

          best = dist;
          memcpy (dpos, x, sizeof x);
          pose_abc (&tr->pose[k], a0);
          pose_abc (&tr->pose[k + 1], a1);
          for (int i = 0; i < 3; i++)
            {
              double d0 = nb_angle_recast_deg (a0[i] - cabc[i]);
              double d1 = d0 + nb_angle_recast_deg (a1[i] - a0[i]);

              dang[i] = d0 + w * (d1 - d0);
            }
        }
    }
  return isfinite (best);
}

gboolean
nb_iso9283_path (const NbIso9283Path *path, const NbIso9283Track *tracks, guint n, guint m,
                 double reach_mm, NbIso9283PathResult *r, GError **error)
{
  double length;
  g_autofree double *dp = NULL, *da = NULL;

  memset (r, 0, sizeof *r);
  if (n < 2 || m < 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "ISO 9283 8.2 needs at least 2 cycles and 1 calculated point, got %u and %u",
                   n, m);
      return FALSE;
    }
  if (!(reach_mm > 0))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the reach (%g mm) must be positive",
                   reach_mm);
      return FALSE;
    }
  if (!nb_iso9283_path_length (path, &length, error))
    return FALSE;
  for (guint j = 0; j < n; j++)
    if (!check_poses (tracks[j].pose, tracks[j].n, "sample", error))
      {
        g_prefix_error (error, "cycle %u: ", j + 1);
        return FALSE;
      }

  dp = g_new (double, (gsize) n * 3);
  da = g_new (double, (gsize) n * 3);
  r->n_cycles = n;
  r->m_points = m;
  for (guint i = 1; i <= m; i++)
    {
      double c[3], t[3], cabc[3], bar[3] = { 0 }, ang[3] = { 0 }, sum_l = 0.0, ss_l = 0.0,
             ss_a[3] = { 0 }, at, rt;

      nb_iso9283_path_point (path, length * i / (m + 1.0), c, t);
      nb_iso9283_path_orientation (path, length * i / (m + 1.0), length, cabc);
      for (guint j = 0; j < n; j++)
        {
          if (!track_crossing (&tracks[j], c, t, cabc, reach_mm, &dp[j * 3], &da[j * 3]))
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                           "cycle %u does not cross the normal plane of calculated point %u "
                           "(%.3f, %.3f, %.3f mm) within %g mm of it", j + 1, i, c[0], c[1], c[2],
                           reach_mm);
              return FALSE;
            }
          for (int k = 0; k < 3; k++)
            {
              bar[k] += dp[j * 3 + k];
              ang[k] += da[j * 3 + k];
            }
        }
      for (int k = 0; k < 3; k++)
        {
          bar[k] /= n;
          ang[k] /= n;
        }
      for (guint j = 0; j < n; j++)
        {
          double v[3];

          for (int k = 0; k < 3; k++)
            v[k] = dp[j * 3 + k] - bar[k];
          sum_l += norm3 (v);
        }
      for (guint j = 0; j < n; j++)
        {
          double v[3], e;

          for (int k = 0; k < 3; k++)
            {
              v[k] = dp[j * 3 + k] - bar[k];
              ss_a[k] += (da[j * 3 + k] - ang[k]) * (da[j * 3 + k] - ang[k]);
            }
          e = norm3 (v) - sum_l / n;
          ss_l += e * e;
        }
      /* 8.2: AT_P = max_i |barycentre_i − c_i|; 8.3: RT_P = max_i (l̄_i + 3·S_li). */
      at = norm3 (bar);
      rt = sum_l / n + 3.0 * sqrt (ss_l / (n - 1));
      if (at > r->at_mm || i == 1)
        {
          r->at_mm = at;
          r->at_point = i;
        }
      if (rt > r->rt_mm || i == 1)
        {
          r->rt_mm = rt;
          r->rt_point = i;
        }
      for (int k = 0; k < 3; k++)
        {
          r->at_abc_deg[k] = MAX (r->at_abc_deg[k], fabs (ang[k]));
          r->rt_abc_deg[k] = MAX (r->rt_abc_deg[k], 3.0 * sqrt (ss_a[k] / (n - 1)));
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------ 8.5 -- */

gboolean
nb_iso9283_corner (const double a[3], const double K[3], const double b[3],
                   const NbIso9283Track *tracks, guint n, NbIso9283Corner *r, GError **error)
{
  double e1[3], e2[3], l1, l2, out[3], on, c12;

  memset (r, 0, sizeof *r);
  for (int k = 0; k < 3; k++)
    {
      e1[k] = K[k] - a[k];
      e2[k] = b[k] - K[k];
    }
  l1 = norm3 (e1);
  l2 = norm3 (e2);
  if (!(l1 > 0) || !(l2 > 0) || !isfinite (l1) || !isfinite (l2))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the corner's legs must have a length");
      return FALSE;
    }
  for (int k = 0; k < 3; k++)
    {
      e1[k] /= l1;
      e2[k] /= l2;
    }
  /* Outside the corner: where the first leg's direction carries the track
   * beyond the second leg's line. */
  c12 = dot3 (e1, e2);
  for (int k = 0; k < 3; k++)
    out[k] = e1[k] - c12 * e2[k];
  on = norm3 (out);
  if (!(on > 1e-9))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the corner's legs are collinear: no corner");
      return FALSE;
    }
  for (int k = 0; k < 3; k++)
    out[k] /= on;
  if (n < 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "ISO 9283 8.5 needs at least 1 cycle");
      return FALSE;
    }
  for (guint j = 0; j < n; j++)
    {
      double cr = INFINITY, co = 0.0;
      gsize closest = 0;

      if (tracks[j].n < 1 || !check_poses (tracks[j].pose, tracks[j].n, "sample", error))
        {
          if (tracks[j].n < 1)
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "no sample");
          g_prefix_error (error, "cycle %u: ", j + 1);
          return FALSE;
        }
      for (gsize i = 0; i < tracks[j].n; i++)
        {
          double p[3], d;

          pose_xyz (&tracks[j].pose[i], p);
          for (int k = 0; k < 3; k++)
            p[k] -= K[k];
          d = norm3 (p);
          if (d < cr)
            {
              cr = d;
              closest = i;
            }
        }
      for (gsize i = closest; i < tracks[j].n; i++)
        {
          double p[3], s;

          pose_xyz (&tracks[j].pose[i], p);
          for (int k = 0; k < 3; k++)
            p[k] -= K[k];
          s = dot3 (p, e2);
          if (s >= 0 && s <= l2)
            co = MAX (co, dot3 (p, out));
        }
      r->cr_mm = MAX (r->cr_mm, cr);
      r->co_mm = MAX (r->co_mm, co);
      r->cr_mean_mm += cr / n;
      r->co_mean_mm += co / n;
    }
  return TRUE;
}

/* ------------------------------------------------------------ 8.6 -- */

gboolean
nb_iso9283_velocity (double vc, const double *const *v, const gsize *m, guint n,
                     NbIso9283Velocity *r, GError **error)
{
  g_autofree double *vj = NULL;
  double sum = 0.0, ss = 0.0;

  memset (r, 0, sizeof *r);
  if (!(vc > 0) || !isfinite (vc))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the command velocity (%g mm/s) must be "
                   "positive", vc);
      return FALSE;
    }
  if (n < 2)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "ISO 9283 8.6 needs at least 2 cycles (the standard asks for 10), got %u", n);
      return FALSE;
    }
  vj = g_new (double, n);
  for (guint j = 0; j < n; j++)
    {
      double s = 0.0, lo = INFINITY, hi = -INFINITY;

      if (m[j] < 1)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "cycle %u has no velocity sample", j + 1);
          return FALSE;
        }
      for (gsize i = 0; i < m[j]; i++)
        {
          if (!isfinite (v[j][i]))
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "cycle %u: velocity %" G_GSIZE_FORMAT
                           " is not finite", j + 1, i + 1);
              return FALSE;
            }
          s += v[j][i];
          lo = MIN (lo, v[j][i]);
          hi = MAX (hi, v[j][i]);
        }
      vj[j] = s / m[j];
      sum += vj[j];
      /* 8.6.4: FV, the largest spread of one cycle's velocity. */
      r->fv_mm_s = MAX (r->fv_mm_s, hi - lo);
    }
  r->n_cycles = n;
  r->v_mean_mm_s = sum / n;
  for (guint j = 0; j < n; j++)
    ss += (vj[j] - r->v_mean_mm_s) * (vj[j] - r->v_mean_mm_s);
  /* 8.6.2 AV = (v̄ − v_c)/v_c·100 %; 8.6.3 RV = ±3·S_v (also /v_c·100 %). */
  r->av_pct = (r->v_mean_mm_s - vc) / vc * 100.0;
  r->rv_mm_s = 3.0 * sqrt (ss / (n - 1));
  r->rv_pct = r->rv_mm_s / vc * 100.0;
  return TRUE;
}

/* The arc length of the projection of p onto the path (the circle: its
 * angle from the start, in [0, 2π) times the radius). */
static double
path_project (const NbIso9283Path *path, const double p[3])
{
  if (path->kind == NB_ISO9283_LINE)
    {
      double v[3], t[3], len;

      for (int k = 0; k < 3; k++)
        {
          v[k] = path->end_mm[k] - path->start_mm[k];
        }
      len = norm3 (v);
      for (int k = 0; k < 3; k++)
        {
          t[k] = v[k] / len;
          v[k] = p[k] - path->start_mm[k];
        }
      return dot3 (v, t);
    }
  else
    {
      double radius, e1[3], e2[3], nn[3], v[3], phi;

      if (!circle_frame (path, &radius, e1, e2, nn, NULL))
        return NAN;
      for (int k = 0; k < 3; k++)
        v[k] = p[k] - path->centre_mm[k];
      phi = atan2 (dot3 (v, e2), dot3 (v, e1));
      if (phi < 0)
        phi += 2.0 * G_PI;
      return phi * radius;
    }
}

GArray *
nb_iso9283_track_speeds (const NbIso9283Path *path, const NbIso9283Track *tr, double s0, double s1,
                         GError **error)
{
  g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
  double length;

  if (!nb_iso9283_path_length (path, &length, error))
    return NULL;
  if (tr->t_s == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the track has no times: no velocity");
      return NULL;
    }
  for (gsize k = 0; k + 1 < tr->n; k++)
    {
      double p[3], q[3], sp, sq, d[3], dt = tr->t_s[k + 1] - tr->t_s[k], speed;

      pose_xyz (&tr->pose[k], p);
      pose_xyz (&tr->pose[k + 1], q);
      sp = path_project (path, p);
      sq = path_project (path, q);
      if (!(sp >= s0 && sp <= s1 && sq >= s0 && sq <= s1))
        continue;
      if (!(dt > 0))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "samples %" G_GSIZE_FORMAT " and %"
                       G_GSIZE_FORMAT " have no time between them", k + 1, k + 2);
          return NULL;
        }
      for (int i = 0; i < 3; i++)
        d[i] = q[i] - p[i];
      speed = norm3 (d) / dt;
      g_array_append_val (v, speed);
    }
  return g_steal_pointer (&v);
}

/* ------------------------------------------------------------ 8.7 -- */

typedef struct {
  double value, t, sign;        /* sign: +1 a crest, −1 a trough */
} WeaveExtreme;

/* The extreme of w about sample k (a crest when sign > 0): the vertex of the
 * least-squares parabola through the samples within half_s of it, value and
 * time, or the sample itself when the fit has no vertex there (too few
 * samples, the wrong curvature). */
static void
weave_extreme (const double *t, const double *w, gsize n, gsize k, double half_s, double sign,
               double *value, double *when)
{
  double S[5] = { 0 }, T[3] = { 0 }, det, a, b, c;
  gsize lo = k, hi = k;

  *value = w[k];
  *when = t[k];
  while (lo > 0 && t[k] - t[lo - 1] <= half_s)
    lo--;
  while (hi + 1 < n && t[hi + 1] - t[k] <= half_s)
    hi++;
  if (hi - lo + 1 < 5)
    return;
  for (gsize i = lo; i <= hi; i++)
    {
      double x = (t[i] - t[k]) / half_s, xp = 1;

      for (int e = 0; e < 5; e++, xp *= x)
        {
          S[e] += xp;
          if (e < 3)
            T[e] += w[i] * xp;
        }
    }
  /* The normal equations [S0 S1 S2; S1 S2 S3; S2 S3 S4]·(a b c) = T, by Cramer. */
  det = S[0] * (S[2] * S[4] - S[3] * S[3]) - S[1] * (S[1] * S[4] - S[3] * S[2]) +
        S[2] * (S[1] * S[3] - S[2] * S[2]);
  if (!(fabs (det) > 0))
    return;
  a = (T[0] * (S[2] * S[4] - S[3] * S[3]) - S[1] * (T[1] * S[4] - S[3] * T[2]) +
       S[2] * (T[1] * S[3] - S[2] * T[2])) / det;
  b = (S[0] * (T[1] * S[4] - S[3] * T[2]) - T[0] * (S[1] * S[4] - S[3] * S[2]) +
       S[2] * (S[1] * T[2] - T[1] * S[2])) / det;
  c = (S[0] * (S[2] * T[2] - T[1] * S[3]) - S[1] * (S[1] * T[2] - T[1] * S[2]) +
       T[0] * (S[1] * S[3] - S[2] * S[2])) / det;
  if (!(sign * c < 0) || fabs (b / (2 * c)) > 1)
    return;
  *value = a - b * b / (4 * c);
  *when = t[k] - b / (2 * c) * half_s;
}

gboolean
nb_iso9283_weave_cycle (const NbIso9283Weave *wv, const NbIso9283Track *tr,
                        NbIso9283WeaveCycle *r, GError **error)
{
  g_autofree double *t = NULL, *w = NULL, *e = NULL, *sum = NULL;
  g_autoptr (GArray) cross = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GArray) ext = g_array_new (FALSE, FALSE, sizeof (WeaveExtreme));
  double u[3], d[3], len, dd, lo = INFINITY, hi = -INFINITY, h, half, strokes = 0;
  double period = 1.0 / wv->frequency_hz, span = 0;
  gsize n = 0, m = 0, a = 0, b = 0;
  guint periods = 0;
  int state = 0;

  memset (r, 0, sizeof *r);
  if (!(wv->stroke_mm > 0) || !isfinite (wv->stroke_mm) || !(wv->frequency_hz > 0) ||
      !isfinite (wv->frequency_hz))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the command weaving stroke (%g mm) and "
                   "frequency (%g Hz) must be positive", wv->stroke_mm, wv->frequency_hz);
      return FALSE;
    }
  if (tr->t_s == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the track has no times: no weaving "
                   "frequency");
      return FALSE;
    }
  for (int k = 0; k < 3; k++)
    u[k] = wv->end_mm[k] - wv->start_mm[k];
  len = norm3 (u);
  if (!(len > 0))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the weaving path's line has no length");
      return FALSE;
    }
  for (int k = 0; k < 3; k++)
    u[k] /= len;
  dd = dot3 (wv->direction, u);
  for (int k = 0; k < 3; k++)
    d[k] = wv->direction[k] - dd * u[k];
  dd = norm3 (d);
  if (!(dd > 1e-6))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the weaving direction is along the line");
      return FALSE;
    }
  for (int k = 0; k < 3; k++)
    d[k] /= dd;
  /* w: the lateral deviation of the samples whose projection falls in the
   * measured part of the line. */
  t = g_new (double, tr->n);
  w = g_new (double, tr->n);
  for (gsize i = 0; i < tr->n; i++)
    {
      double p[3], v[3], s;

      pose_xyz (&tr->pose[i], p);
      for (int k = 0; k < 3; k++)
        v[k] = p[k] - wv->start_mm[k];
      s = dot3 (v, u);
      if (!(s >= wv->s0_mm && s <= wv->s1_mm))
        continue;
      if (!isfinite (tr->t_s[i]) || (n > 0 && !(tr->t_s[i] > t[n - 1])))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "sample %" G_GSIZE_FORMAT
                       ": its time is not after the one before", i + 1);
          return FALSE;
        }
      t[n] = tr->t_s[i];
      w[n] = dot3 (v, d);
      n++;
    }
  if (n < 8)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the track has %" G_GSIZE_FORMAT
                   " samples on the measured part of the weaving path (%.1f … %.1f mm)", n,
                   wv->s0_mm, wv->s1_mm);
      return FALSE;
    }
  /* The half-waves, to tell crest from trough: e = w less its mean over one
   * command period about the sample (the attained line may drift from the
   * command's: a constant level would be crossed off the weave's middle),
   * crossed with a hysteresis of a quarter of e's half-range; only the
   * samples with the whole period about them. */
  e = g_new (double, n);
  sum = g_new (double, n + 1);
  sum[0] = 0;
  for (gsize i = 0; i < n; i++)
    sum[i + 1] = sum[i] + w[i];
  half = period / 2;
  for (gsize i = 0; i < n; i++)
    {
      if (t[i] - half < t[0] || t[i] + half > t[n - 1])
        {
          e[i] = NAN;
          continue;
        }
      while (t[a] < t[i] - half)
        a++;
      while (b < n && t[b] <= t[i] + half)
        b++;
      e[i] = w[i] - (sum[b] - sum[a]) / (b - a);
      lo = MIN (lo, e[i]);
      hi = MAX (hi, e[i]);
      m++;
    }
  h = m > 0 ? (hi - lo) / 8 : 0;
  for (gsize i = 0; i < n; i++)
    {
      if (isnan (e[i]))
        continue;
      if ((state != 1 && e[i] > h) || (state != -1 && e[i] < -h))
        {
          if (state != 0)
            g_array_append_val (cross, i);
          state = e[i] > h ? 1 : -1;
        }
    }
  /* The extremes of the whole half-waves (between two crossings): of w
   * itself, the vertex of the parabola about the extreme sample. */
  for (guint k = 0; k + 1 < cross->len; k++)
    {
      gsize from = g_array_index (cross, gsize, k), to = g_array_index (cross, gsize, k + 1);
      gsize best = from;
      WeaveExtreme x = { .sign = e[from] > 0 ? 1 : -1 };

      for (gsize i = from; i < to; i++)
        if (x.sign * w[i] > x.sign * w[best])
          best = i;
      weave_extreme (t, w, n, best, period / 40, x.sign, &x.value, &x.t);
      g_array_append_val (ext, x);
    }
  if (ext->len < 5)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the track weaves %.1f whole periods over "
                   "the measured part (%.1f … %.1f mm); ISO 9283 8.7 needs 2 at least",
                   ext->len / 2.0, wv->s0_mm, wv->s1_mm);
      return FALSE;
    }
  /* The stroke of each inner extreme: its distance from the middle of its
   * two neighbours (a drift of the line, linear over a period, cancels). */
  for (guint k = 1; k + 1 < ext->len; k++)
    {
      const WeaveExtreme *x = &g_array_index (ext, WeaveExtreme, k);
      const WeaveExtreme *p = &g_array_index (ext, WeaveExtreme, k - 1);
      const WeaveExtreme *q = &g_array_index (ext, WeaveExtreme, k + 1);

      strokes += x->sign * (x->value - (p->value + q->value) / 2);
    }
  /* F_a: whole periods from crest to crest and trough to trough, over their
   * time (a drift moves crests and troughs by as much, the other way). */
  for (int first = 0; first < 2; first++)
    {
      guint last = first + 2 * ((ext->len - 1 - first) / 2);

      periods += (last - first) / 2;
      span += g_array_index (ext, WeaveExtreme, last).t - g_array_index (ext, WeaveExtreme, first).t;
    }
  r->n_periods = periods / 2;
  r->stroke_mm = strokes / (ext->len - 2);
  r->frequency_hz = periods / span;
  /* 8.7: WS = (S_a − S_c)/S_c·100 %, WF = (F_a − F_c)/F_c·100 %. */
  r->ws_pct = (r->stroke_mm - wv->stroke_mm) / wv->stroke_mm * 100.0;
  r->wf_pct = (r->frequency_hz - wv->frequency_hz) / wv->frequency_hz * 100.0;
  return TRUE;
}

gboolean
nb_iso9283_weaving (const NbIso9283Weave *wv, const NbIso9283Track *tracks, guint n,
                    NbIso9283Weaving *r, GError **error)
{
  memset (r, 0, sizeof *r);
  if (n < 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "ISO 9283 8.7 needs a cycle (the standard "
                   "asks for 3)");
      return FALSE;
    }
  for (guint j = 0; j < n; j++)
    {
      NbIso9283WeaveCycle c;

      if (!nb_iso9283_weave_cycle (wv, &tracks[j], &c, error))
        {
          g_prefix_error (error, "cycle %u: ", j + 1);
          return FALSE;
        }
      r->stroke_mm += c.stroke_mm / n;
      r->frequency_hz += c.frequency_hz / n;
      if (fabs (c.ws_pct) > fabs (r->ws_max_pct))
        r->ws_max_pct = c.ws_pct;
      if (fabs (c.wf_pct) > fabs (r->wf_max_pct))
        r->wf_max_pct = c.wf_pct;
    }
  r->n_cycles = n;
  r->ws_pct = (r->stroke_mm - wv->stroke_mm) / wv->stroke_mm * 100.0;
  r->wf_pct = (r->frequency_hz - wv->frequency_hz) / wv->frequency_hz * 100.0;
  return TRUE;
}

/* ------------------------------------------------- rotation matrices -- */

void
nb_iso9283_abc_to_matrix (const double abc_deg[3], double R[9])
{
  double a = abc_deg[0] * G_PI / 180.0, b = abc_deg[1] * G_PI / 180.0,
         c = abc_deg[2] * G_PI / 180.0;
  double ca = cos (a), sa = sin (a), cb = cos (b), sb = sin (b), cc = cos (c), sc = sin (c);

  R[0] = cc * cb;  R[1] = cc * sb * sa - sc * ca;  R[2] = cc * sb * ca + sc * sa;
  R[3] = sc * cb;  R[4] = sc * sb * sa + cc * ca;  R[5] = sc * sb * ca - cc * sa;
  R[6] = -sb;      R[7] = cb * sa;                 R[8] = cb * ca;
}

void
nb_iso9283_matrix_to_abc (const double R[9], double abc_deg[3])
{
  abc_deg[0] = atan2 (R[7], R[8]) * 180.0 / G_PI;
  abc_deg[1] = asin (CLAMP (-R[6], -1.0, 1.0)) * 180.0 / G_PI;
  abc_deg[2] = atan2 (R[3], R[0]) * 180.0 / G_PI;
}
