/* nb-unc-iso.c — the measurement models of ISO 18646-2's figures (see
 * nb-unc-iso.h and docs/uncertainty.md) */
#include "nb-unc-iso.h"

#include "nb-angle.h"
#include "nb-error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <gsl/gsl_randist.h>

#define DEG (G_PI / 180.0)

/* ---------------------------------------------------------- setup -- */

void
nb_unc_setup_init (NbUncSetup *s)
{
  memset (s, 0, sizeof *s);
  s->lin_k = 2.0;
  s->ang_k = 2.0;
}

/* A data sheet's figure at coverage factor k, or rectangular limits (k = 0). */
static double
stated_u (double a, double k)
{
  return k > 0.0 ? a / k : a / sqrt (3.0);
}

double
nb_unc_setup_u_lin (const NbUncSetup *s)
{
  /* b in ppm = µm/m: b·L(m) µm = b·L·10⁻³ mm */
  return stated_u (s->lin_const_mm + s->lin_ppm * s->range_m * 1e-3, s->lin_k);
}

double
nb_unc_setup_u_ang (const NbUncSetup *s)
{
  return stated_u (s->ang_deg, s->ang_k);
}

static NbUncDistribution
stated_dist (double k)
{
  return k > 0.0 ? NB_UNC_NORMAL : NB_UNC_RECTANGULAR;
}

/* "15 µm" | "1 mm" | "8mm" → mm; *rest after it. */
static gboolean
parse_length (const char *p, double *mm, const char **rest)
{
  char *end;
  double v = g_ascii_strtod (p, &end);

  if (end == p || !isfinite (v) || v < 0.0)
    return FALSE;
  while (*end == ' ')
    end++;
  if (g_str_has_prefix (end, "µm") || g_str_has_prefix (end, "um"))
    {
      *mm = v * 1e-3;
      end += g_str_has_prefix (end, "µm") ? strlen ("µm") : 2;
    }
  else if (g_str_has_prefix (end, "mm"))
    {
      *mm = v;
      end += 2;
    }
  else if (g_str_has_prefix (end, "m") && !g_str_has_prefix (end, "m/"))
    {
      *mm = v * 1e3;
      end += 1;
    }
  else
    return FALSE;
  *rest = end;
  return TRUE;
}

gboolean
nb_unc_parse_accuracy (const char *text, double *a_mm, double *b_ppm, double *k, GError **error)
{
  g_autofree char *t = g_strstrip (g_strdup (text ? text : ""));
  const char *p = t;
  char *end;

  *a_mm = 0.0;
  *b_ppm = 0.0;
  *k = 2.0;
  if (!parse_length (p, a_mm, &p))
    goto bad;
  while (*p == ' ')
    p++;
  if (*p == '+')
    {
      double v;

      p++;
      while (*p == ' ')
        p++;
      v = g_ascii_strtod (p, &end);
      if (end == p || !isfinite (v) || v < 0.0)
        goto bad;
      p = end;
      while (*p == ' ')
        p++;
      /* µm/m, mm/km and ppm are the same ratio; mm/m is 1000 of them. */
      if (g_str_has_prefix (p, "ppm"))
        p += 3;
      else if (g_str_has_prefix (p, "µm/m"))
        p += strlen ("µm/m");
      else if (g_str_has_prefix (p, "um/m") || g_str_has_prefix (p, "mm/km"))
        p += g_str_has_prefix (p, "um/m") ? 4 : 5;
      else if (g_str_has_prefix (p, "mm/m"))
        {
          v *= 1000.0;
          p += 4;
        }
      else
        goto bad;
      *b_ppm = v;
    }
  while (*p == ' ')
    p++;
  if (*p == '(')
    {
      const char *close = strchr (p, ')');
      g_autofree char *inner = NULL;

      if (close == NULL || close[1] != '\0')
        goto bad;
      inner = g_strstrip (g_strndup (p + 1, close - p - 1));
      if (g_ascii_strcasecmp (inner, "rectangular") == 0 || g_ascii_strcasecmp (inner, "mpe") == 0)
        *k = 0.0;
      else if (g_str_has_prefix (inner, "k=") || g_str_has_prefix (inner, "k ="))
        {
          const char *q = strchr (inner, '=') + 1;

          *k = g_ascii_strtod (q, &end);
          if (end == q || *g_strchug (end) != '\0' || !(*k > 0.0) || !isfinite (*k))
            goto bad;
        }
      else
        goto bad;
      p = close + 1;
    }
  if (*p != '\0')
    goto bad;
  return TRUE;

bad:
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
               "accuracy '%s': expected 'A UNIT [+ B ppm|µm/m] [(k=K)|(rectangular)]', "
               "e.g. '15 µm + 6 µm/m (k=2)', '1 mm + 1.5 ppm'", text ? text : "");
  return FALSE;
}

gboolean
nb_unc_registration (const double (*ref)[2], const double *residual_mm, guint n, double *u_t_mm,
                     double *u_rot_deg, double centroid_mm[2], GError **error)
{
  double cx = 0.0, cy = 0.0, ss = 0.0, spread = 0.0;

  if (n < 3)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "registration uncertainty: %u points (a 2-D rigid fit with residuals needs ≥ 3)",
                   n);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      cx += ref[i][0] / n;
      cy += ref[i][1] / n;
      ss += residual_mm[i] * residual_mm[i];
    }
  for (guint i = 0; i < n; i++)
    spread += (ref[i][0] - cx) * (ref[i][0] - cx) + (ref[i][1] - cy) * (ref[i][1] - cy);
  if (!(spread > 0.0))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "registration uncertainty: the surveyed points coincide");
      return FALSE;
    }
  {
    /* Residual distances r_i: Σ r_i² over 2n coordinates, 3 parameters. */
    double sigma = sqrt (ss / (2.0 * n - 3.0));

    *u_t_mm = sigma / sqrt ((double) n);
    *u_rot_deg = sigma / sqrt (spread) / DEG;
  }
  centroid_mm[0] = cx;
  centroid_mm[1] = cy;
  return TRUE;
}

/* --------------------------------------------------------- budget -- */

NbUncBudget *
nb_unc_budget_new (guint clause)
{
  NbUncBudget *b = g_new0 (NbUncBudget, 1);

  b->clause = clause;
  b->figures = g_array_new (FALSE, TRUE, sizeof (NbUncEntry));
  b->rows = g_array_new (FALSE, TRUE, sizeof (NbUncRow));
  return b;
}

void
nb_unc_budget_free (NbUncBudget *b)
{
  if (b == NULL)
    return;
  for (guint i = 0; i < b->figures->len; i++)
    g_free ((char *) g_array_index (b->figures, NbUncEntry, i).key);
  g_array_unref (b->figures);
  g_array_unref (b->rows);
  g_free (b);
}

const NbUncFigure *
nb_unc_budget_figure (const NbUncBudget *b, const char *key)
{
  for (guint i = 0; i < b->figures->len; i++)
    if (g_strcmp0 (g_array_index (b->figures, NbUncEntry, i).key, key) == 0)
      return &g_array_index (b->figures, NbUncEntry, i).fig;
  return NULL;
}

/* The inputs of one model, grouped for the budget table: the d_i of 30
 * trials are one line, not thirty. */
typedef struct {
  const char *quantity;
  const char *source;
  const char *unit;
  gboolean sampling;
  gsize first, count;
  guint n_trials;
} Group;

typedef struct {
  GArray *x;        /* NbUncInput */
  GArray *groups;   /* Group */
} Inputs;

static void
inputs_init (Inputs *in)
{
  in->x = g_array_new (FALSE, TRUE, sizeof (NbUncInput));
  in->groups = g_array_new (FALSE, TRUE, sizeof (Group));
}

static void
inputs_clear (Inputs *in)
{
  g_array_unref (in->x);
  g_array_unref (in->groups);
}

/* Starts a group of inputs (one line of the budget). */
static void
group (Inputs *in, const char *quantity, const char *source, const char *unit, gboolean sampling)
{
  Group g = { quantity, source, unit, sampling, in->x->len, 0, 0 };

  g_array_append_val (in->groups, g);
}

/* A group of the finite number of trials (Type A): its source is the
 * format N_("Type A, n = %u trials") with n kept beside it, so the
 * protocol words it in its own language. */
static void
group_type_a (Inputs *in, const char *quantity, gsize n, const char *unit)
{
  group (in, quantity, N_ ("Type A, n = %u trials"), unit, TRUE);
  g_array_index (in->groups, Group, in->groups->len - 1).n_trials = (guint) n;
}

static gsize
add (Inputs *in, double value, double u, NbUncDistribution dist, double dof)
{
  NbUncInput x = { g_array_index (in->groups, Group, in->groups->len - 1).quantity,
                   g_array_index (in->groups, Group, in->groups->len - 1).source,
                   value, u, dist, dof };

  g_array_append_val (in->x, x);
  g_array_index (in->groups, Group, in->groups->len - 1).count++;
  return in->x->len - 1;
}

/* GUM for the n_y outputs, Monte Carlo by draw, the decision per figure
 * and the budget's lines.  keys: n_y figure keys. */
static gboolean
finish (NbUncBudget *b, const char *const *keys, gsize n_y, NbUncModel f, gpointer fdata,
        const Inputs *in, const double *correlation, NbUncDraw draw, gpointer ddata,
        guint64 seed, GError **error)
{
  gsize n_x = in->x->len;
  const NbUncInput *x = (const NbUncInput *) in->x->data;
  g_autofree double *y = g_new (double, n_y);
  g_autofree double *jac = g_new0 (double, n_y * MAX (n_x, 1));
  g_autofree double *u_c = g_new (double, n_y);
  g_autofree NbUncMcResult *mc = g_new0 (NbUncMcResult, n_y);
  NbUncMcOptions options;

  if (!nb_unc_gum (f, fdata, x, n_x, correlation, n_y, y, jac, u_c, error))
    return FALSE;
  nb_unc_mc_options_default (&options, seed);
  if (!nb_unc_mc (draw, ddata, n_y, &options, mc, error))
    return FALSE;

  for (gsize k = 0; k < n_y; k++)
    {
      NbUncEntry e = { g_strdup (keys[k]) };
      double samp = 0.0, meas = 0.0;

      for (guint g = 0; g < in->groups->len; g++)
        {
          const Group *gr = &g_array_index (in->groups, Group, g);
          NbUncRow row = { 0 };
          double s2 = 0.0, c_rms = 0.0;

          for (gsize i = gr->first; i < gr->first + gr->count; i++)
            {
              double c = jac[k * n_x + i];

              s2 += c * c * x[i].u * x[i].u;
              c_rms += c * c;
            }
          /* An input outside this figure's model (another map's corners)
           * has no line; one in it with u = 0 (not stated) keeps its line. */
          if (gr->count == 0 || c_rms == 0.0)
            continue;
          row.figure = e.key;
          row.quantity = gr->quantity;
          row.source = gr->source;
          row.unit = gr->unit;
          row.sampling = gr->sampling;
          row.n_trials = gr->n_trials;
          row.dist = x[gr->first].dist;
          if (gr->count == 1)
            {
              row.value = x[gr->first].value;
              row.u = x[gr->first].u;
              row.c = jac[k * n_x + gr->first];
            }
          else
            {
              /* Several inputs on one line: the line's u is their RMS, its
               * sensitivity the one that gives the group's contribution. */
              double uu = 0.0;

              for (gsize i = gr->first; i < gr->first + gr->count; i++)
                uu += x[i].u * x[i].u / gr->count;
              row.value = NAN;
              row.u = sqrt (uu);
              row.c = row.u > 0.0 ? sqrt (s2) / row.u : sqrt (c_rms / gr->count);
            }
          row.contribution = sqrt (s2);
          if (gr->sampling)
            samp += s2;
          else
            meas += s2;
          g_array_append_val (b->rows, row);
        }
      /* The lines ignore correlation; u_c has it (JCGM 100 5.2.2), and so
       * do its two parts: the correlated inputs (x̄, ȳ, δ̄; l̄ and S_l) are
       * all Type A, so u_c² = u_measurement² + u_sampling² with each part
       * its own inputs' cᵀ·r·c (#17: the sampling part was stated above
       * u_c where l̄ and S_l are anti-correlated). */
      if (correlation != NULL)
        {
          g_autofree gboolean *is_samp = g_new0 (gboolean, MAX (n_x, 1));

          for (guint g = 0; g < in->groups->len; g++)
            {
              const Group *gr = &g_array_index (in->groups, Group, g);

              for (gsize i = gr->first; i < gr->first + gr->count; i++)
                is_samp[i] = gr->sampling;
            }
          samp = meas = 0.0;
          for (gsize i = 0; i < n_x; i++)
            for (gsize j = 0; j < n_x; j++)
              {
                double v = jac[k * n_x + i] * jac[k * n_x + j] * correlation[i * n_x + j] *
                           x[i].u * x[j].u;

                if (is_samp[i] && is_samp[j])
                  samp += v;
                else if (!is_samp[i] && !is_samp[j])
                  meas += v;
              }
          samp = MAX (samp, 0.0);
          meas = MAX (meas, 0.0);
        }
      nb_unc_figure_decide (&e.fig, y[k], u_c[k], sqrt (meas), sqrt (samp), &mc[k]);
      g_array_append_val (b->figures, e);
    }
  return TRUE;
}

/* σ of normal data from s with ν degrees of freedom: s·√(ν/χ²_ν). */
static double
draw_sigma (gsl_rng *rng, double s, double nu)
{
  return s * sqrt (nu / gsl_ran_chisq (rng, nu));
}

static double
draw_input (gsl_rng *rng, const NbUncInput *x)
{
  return x->u > 0.0 ? nb_unc_draw (rng, x) : x->value;
}

/* ------------------------------------------------------------ 5 -- */

enum {
  P_XB, P_YB, P_DB,           /* barycentre and mean heading deviation (Type A, joint t) */
  P_LB, P_SL, P_SO,           /* l̄, S_l, S_o (Type A) */
  P_BX, P_BY,                 /* instrument, per coordinate */
  P_TX, P_TY, P_PHI,          /* registration: translation at the centroid, rotation (deg) */
  P_OX, P_OY,                 /* target centring */
  P_BTH,                      /* instrument heading */
  P_SCALE,                    /* the distance-dependent part as a scale error */
  P_N
};

typedef struct {
  double cx, cy;              /* registration centroid, command-centred mm */
  double nu, n;
  double nu_so;               /* ν of S_o from the δ_j's kurtosis (nb_unc_sd_dof) */
  double chol[9];             /* of the (x, y, δ) covariance of the mean */
  double r_ls;                /* correlation of l̄ and S_l */
  double sxy_chol[4];         /* lower factor of (ν·S_xy)⁻¹, the Wishart's scale */
  double rp_offset;           /* 0: the population Rp of Σ* is what is propagated */
  const NbUncInput *x;
} PoseModel;

/* Rp of a population: the poses N(μ, Σ), l = |X − μ|: with Σ's
 * eigenvalues a², b² and X − μ = ρ(a cos t, b sin t), ρ Rayleigh,
 * E l = √(π/2)·⟨√(a² cos² t + b² sin² t)⟩_t, E l² = a² + b².  The mean
 * over t by the trapezoid rule on its period (exact to rounding for
 * smooth periodic integrands with b/a ≥ 0.1 at 32 points). */
static double
rp_of_covariance (double sxx, double syy, double sxy)
{
  double tr = sxx + syy, det = sxx * syy - sxy * sxy;
  double disc = sqrt (MAX (tr * tr / 4.0 - det, 0.0));
  double a2 = MAX (tr / 2.0 + disc, 0.0), b2 = MAX (tr / 2.0 - disc, 0.0);
  /* cos² at the 32 points, and by symmetry the quarter period suffices:
   * t and π ± t, 2π − t give the same term (points 0, 8 and 1..7 twice). */
  static const double c2[9] = {
    1.0, 0.96193976625564337, 0.85355339059327376, 0.69134171618254489, 0.5,
    0.30865828381745511, 0.14644660940672624, 0.038060233744356631, 0.0,
  };
  double mean = 0.0;

  for (int i = 0; i <= 8; i++)
    mean += (i == 0 || i == 8 ? 2.0 : 4.0) * sqrt (a2 * c2[i] + b2 * (1.0 - c2[i])) / 32.0;
  mean *= sqrt (G_PI / 2.0);
  return mean + 3.0 * sqrt (MAX (a2 + b2 - mean * mean, 0.0));
}

static gboolean
pose_f (const double *x, double *y, gpointer data)
{
  const PoseModel *m = data;
  double phi = x[P_PHI] * DEG;
  double dx = x[P_XB] - m->cx, dy = x[P_YB] - m->cy;
  /* The instrument's point error a + b·L (P_BX, P_BY) already holds its
   * distance-dependent part at the working range: the barycentre gets no
   * scale besides (#17: it was counted twice).  The scale b acts on the
   * distances within the cluster only, Rp's l_j, where the common point
   * error cancels. */
  double X = m->cx + (cos (phi) * dx - sin (phi) * dy) + x[P_TX] + x[P_BX] + x[P_OX];
  double Y = m->cy + (sin (phi) * dx + cos (phi) * dy) + x[P_TY] + x[P_BY] + x[P_OY];

  if (x[P_SL] < 0.0 || x[P_SO] < 0.0)
    return FALSE;
  y[0] = hypot (X, Y);                                   /* 5.2.1 Ap */
  y[1] = x[P_DB] + x[P_BTH] + x[P_PHI];                  /* 5.2.1 Ao */
  y[2] = (1.0 + x[P_SCALE]) * (x[P_LB] + 3.0 * x[P_SL]); /* 5.2.2 Rp = l̄ + 3 S_l */
  y[3] = 3.0 * x[P_SO];                                  /* 5.2.2 Ro = 3 S_o */
  return TRUE;
}

static gboolean
pose_draw (gsl_rng *rng, double *y, gpointer data)
{
  const PoseModel *m = data;
  double v[P_N], z[3], w, so;

  for (int i = P_BX; i < P_N; i++)
    v[i] = draw_input (rng, &m->x[i]);
  /* JCGM 101 6.4.9 / JCGM 102: the joint (x̄, ȳ, δ̄) is the multivariate t
   * with ν = n − 1, centred on the means, scale S/n. */
  w = sqrt (gsl_ran_chisq (rng, m->nu) / m->nu);
  for (int i = 0; i < 3; i++)
    z[i] = gsl_ran_gaussian_ziggurat (rng, 1.0);
  v[P_XB] = m->x[P_XB].value + m->chol[0] * z[0] / w;
  v[P_YB] = m->x[P_YB].value + (m->chol[3] * z[0] + m->chol[4] * z[1]) / w;
  v[P_DB] = m->x[P_DB].value + (m->chol[6] * z[0] + m->chol[7] * z[1] + m->chol[8] * z[2]) / w;
  so = draw_sigma (rng, m->x[P_SO].value, m->nu_so);
  v[P_SO] = so;
  /* y[2] is replaced below. */
  v[P_LB] = m->x[P_LB].value;
  v[P_SL] = m->x[P_SL].value;
  if (!pose_f (v, y, data))
    {
      return FALSE;
    }
  {
    /* Rp: the l_j are distances, not normal (skewed, correlated mean and
     * spread), so Rp is propagated from what they come from: the poses'
     * covariance Σ, whose PDF given the sample covariance S of n normal
     * poses is the inverse Wishart with ν = n − 1 and scale ν·S (JCGM 102's
     * treatment of a covariance from data).  Σ* = W⁻¹, W ~ Wishart(ν,
     * (νS)⁻¹) by Bartlett's decomposition W = L·A·Aᵀ·Lᵀ. */
    double a11 = sqrt (gsl_ran_chisq (rng, m->nu)), a22 = sqrt (gsl_ran_chisq (rng, m->nu - 1.0));
    double a21 = gsl_ran_gaussian_ziggurat (rng, 1.0);
    const double *L = m->sxy_chol;
    /* B = L·A (lower triangular), W = B·Bᵀ */
    double b11 = L[0] * a11, b21 = L[2] * a11 + L[3] * a21, b22 = L[3] * a22;
    double w11 = b11 * b11, w21 = b11 * b21, w22 = b21 * b21 + b22 * b22;
    double det = w11 * w22 - w21 * w21;

    if (!(det > 0.0))
      return FALSE;
    y[2] = (1.0 + v[P_SCALE]) * rp_of_covariance (w22 / det, w11 / det, -w21 / det) + m->rp_offset;
  }
  (void) w;
  return TRUE;
}

/* 3×3 lower Cholesky of a covariance; a degenerate one (all poses on a
 * line, one axis without scatter) keeps its zero pivots. */
static void
chol3 (const double a[9], double l[9])
{
  memset (l, 0, 9 * sizeof (double));
  for (int i = 0; i < 3; i++)
    for (int j = 0; j <= i; j++)
      {
        double s = a[i * 3 + j];

        for (int k = 0; k < j; k++)
          s -= l[i * 3 + k] * l[j * 3 + k];
        if (i == j)
          l[i * 3 + i] = s > 0.0 ? sqrt (s) : 0.0;
        else
          l[i * 3 + j] = l[j * 3 + j] > 0.0 ? s / l[j * 3 + j] : 0.0;
      }
}


static void
add_instrument (Inputs *in, const NbUncSetup *s, const char *what)
{
  double u = nb_unc_setup_u_lin (s);

  group (in, what, N_ ("instrument.accuracy_mm + accuracy_ppm × range_m, / accuracy_k"), "mm", FALSE);
  add (in, 0.0, u, stated_dist (s->lin_k), 0.0);
}

NbUncBudget *
nb_unc_pose (const NbUncSetup *s, const NbPose *command, const NbPose *att, gsize n, guint64 seed,
             GError **error)
{
  static const char *const keys[] = { "ap_mm", "ao_deg", "rp_mm", "ro_deg" };
  g_autoptr (NbUncBudget) b = nb_unc_budget_new (5);
  NbPoseResult r;
  PoseModel m = { 0 };
  Inputs in;
  double cov[9] = { 0 }, mean[3] = { 0 }, corr[P_N * P_N] = { 0 };
  double u_lin = nb_unc_setup_u_lin (s), u_s_l;
  gboolean ok;

  if (n < 3)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "clause 5 uncertainty: %zu poses (the Type A part needs n ≥ 3)", n);
      return NULL;
    }
  if (!nb_metrics_pose (command, att, n, &r, error))
    return NULL;

  /* Command-centred coordinates (as nb_metrics_pose computes). */
  for (gsize j = 0; j < n; j++)
    {
      double v[3] = { att[j].x_mm - command->x_mm, att[j].y_mm - command->y_mm,
                      nb_angle_recast_deg (att[j].theta_deg - command->theta_deg) };

      for (int a = 0; a < 3; a++)
        mean[a] += v[a] / n;
    }
  for (gsize j = 0; j < n; j++)
    {
      double v[3] = { att[j].x_mm - command->x_mm - mean[0], att[j].y_mm - command->y_mm - mean[1],
                      nb_angle_recast_deg (att[j].theta_deg - command->theta_deg) - mean[2] };

      for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
          cov[a * 3 + c] += v[a] * v[c] / ((n - 1.0) * n);   /* covariance of the mean */
    }
  chol3 (cov, m.chol);
  {
    /* (ν·S)⁻¹ of the x, y sample covariance S, and its lower factor. */
    double sxx = cov[0] * n, syy = cov[4] * n, sxy = cov[1] * n;   /* cov is S/n */
    double det = sxx * syy - sxy * sxy;
    double i11, i22, i21;

    if (!(det > 0.0))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "clause 5 uncertainty: the attained positions have no spread in one "
                     "direction (their covariance is singular)");
        return NULL;
      }
    double nu = n - 1.0;

    i11 = syy / (det * nu), i22 = sxx / (det * nu), i21 = -sxy / (det * nu);
    m.sxy_chol[0] = sqrt (i11);
    m.sxy_chol[1] = 0.0;
    m.sxy_chol[2] = i21 / m.sxy_chol[0];
    m.sxy_chol[3] = sqrt (MAX (i22 - m.sxy_chol[2] * m.sxy_chol[2], 0.0));
  }
  {
    /* The sampling covariance of (l̄, S_l) from the l_j's central moments
     * (delta method): var S ≈ (μ4 − μ2²)/(4 μ2 n), cov(l̄, S) ≈ μ3/(2√μ2 n). */
    double m3 = 0.0, m4 = 0.0, s2 = r.s_l_mm * r.s_l_mm;

    for (gsize j = 0; j < n; j++)
      {
        double l = hypot (att[j].x_mm - r.barycentre_x_mm, att[j].y_mm - r.barycentre_y_mm);
        double dl = l - r.l_mean_mm;

        m3 += dl * dl * dl / n;
        m4 += dl * dl * dl * dl / n;
      }
    u_s_l = s2 > 0.0 ? sqrt (MAX (m4 - s2 * s2, 0.0) / (4.0 * s2 * n)) : 0.0;
    m.r_ls = 0.0;
    if (u_s_l > 0.0)
      m.r_ls = CLAMP ((m3 / (2.0 * r.s_l_mm * n)) / (r.s_l_mm / sqrt ((double) n) * u_s_l),
                      -0.99, 0.99);
  }
  m.nu = n - 1.0;
  m.n = n;
  {
    g_autofree double *delta = g_new (double, n);

    for (gsize j = 0; j < n; j++)
      delta[j] = nb_angle_recast_deg (att[j].theta_deg - command->theta_deg);
    m.nu_so = nb_unc_sd_dof (delta, n);
  }
  m.cx = s->reg_centroid_mm[0] - command->x_mm;
  m.cy = s->reg_centroid_mm[1] - command->y_mm;

  inputs_init (&in);
  group_type_a (&in, N_ ("barycentre x̄ (scatter of the attained poses)"), n, "mm");
  add (&in, mean[0], sqrt (cov[0]), NB_UNC_STUDENT_T, m.nu);
  group_type_a (&in, N_ ("barycentre ȳ (scatter of the attained poses)"), n, "mm");
  add (&in, mean[1], sqrt (cov[4]), NB_UNC_STUDENT_T, m.nu);
  group_type_a (&in, N_ ("mean heading deviation δ̄"), n, "°");
  add (&in, mean[2], sqrt (cov[8]), NB_UNC_STUDENT_T, m.nu);
  group_type_a (&in, N_ ("mean distance l̄"), n, "mm");
  add (&in, r.l_mean_mm, r.s_l_mm / sqrt ((double) n), NB_UNC_STUDENT_T, m.nu);
  group_type_a (&in, N_ ("standard deviation S_l"), n, "mm");
  add (&in, r.s_l_mm, u_s_l, NB_UNC_NORMAL, 0.0);
  group_type_a (&in, N_ ("standard deviation S_o"), n, "°");
  /* Not normal theory's s/√(2(n − 1)): the headings' kurtosis sets ν. */
  add (&in, r.s_o_deg, r.s_o_deg / sqrt (2.0 * m.nu_so), NB_UNC_NORMAL, 0.0);
  add_instrument (&in, s, N_ ("measurement system, x"));
  add_instrument (&in, s, N_ ("measurement system, y"));
  group (&in, N_ ("registration translation, x"), N_ ("instrument.registration_points (rigid fit residuals)"), "mm",
         FALSE);
  add (&in, 0.0, s->reg_u_t_mm, NB_UNC_NORMAL, 0.0);
  group (&in, N_ ("registration translation, y"), N_ ("instrument.registration_points (rigid fit residuals)"), "mm",
         FALSE);
  add (&in, 0.0, s->reg_u_t_mm, NB_UNC_NORMAL, 0.0);
  group (&in, N_ ("registration rotation"), N_ ("instrument.registration_points (rigid fit residuals)"), "°", FALSE);
  add (&in, 0.0, s->reg_u_rot_deg, NB_UNC_NORMAL, 0.0);
  group (&in, N_ ("target centring, x"), N_ ("instrument.target_centring_mm"), "mm", FALSE);
  add (&in, 0.0, s->target_mm, NB_UNC_NORMAL, 0.0);
  group (&in, N_ ("target centring, y"), N_ ("instrument.target_centring_mm"), "mm", FALSE);
  add (&in, 0.0, s->target_mm, NB_UNC_NORMAL, 0.0);
  group (&in, N_ ("measurement system, heading"), N_ ("instrument.angular_accuracy_deg, / angular_accuracy_k"), "°", FALSE);
  add (&in, 0.0, nb_unc_setup_u_ang (s), stated_dist (s->ang_k), 0.0);
  group (&in, N_ ("distance-dependent part as scale on l_j (b·10⁻⁶)"), N_ ("instrument.accuracy_ppm"), "1",
         FALSE);
  add (&in, 0.0, stated_u (s->lin_ppm * 1e-6, s->lin_k), stated_dist (s->lin_k), 0.0);
  (void) u_lin;

  /* The Type A means are correlated as the poses' x, y, θ are (JCGM 102). */
  for (int i = 0; i < P_N; i++)
    corr[i * P_N + i] = 1.0;
  for (int a = 0; a < 3; a++)
    for (int c = 0; c < 3; c++)
      if (a != c && cov[a * 3 + a] > 0.0 && cov[c * 3 + c] > 0.0)
        corr[a * P_N + c] = cov[a * 3 + c] / sqrt (cov[a * 3 + a] * cov[c * 3 + c]);
  corr[P_LB * P_N + P_SL] = corr[P_SL * P_N + P_LB] = m.r_ls;

  m.x = (const NbUncInput *) in.x->data;
  ok = finish (b, keys, 4, pose_f, &m, &in, corr, pose_draw, &m, seed, error);
  inputs_clear (&in);
  return ok ? g_steal_pointer (&b) : NULL;
}

/* ------------------------------------------------------------ 8 -- */

/* Inputs: d_1..d_n (each trial's own error), then the common ones. */
typedef struct {
  gsize n;
  double length_mm;
  double arm_mm;              /* mid-segment minus the registration centroid, along it */
  const NbUncInput *x;
  double s_d;                 /* sample std of the d_i */
  double nu_sd;               /* its ν from the d_i's kurtosis (nb_unc_sd_dof) */
  double s_abs;               /* sample std of the |d_i| */
} PathModel;

/* The sampling inputs after the common ones: corrections of expectation 0
 * to the mean of the d_i, to their standard deviation, to the mean of the
 * |d_i|. */
enum { S_MEAN, S_STD, S_MEAN_ABS };

enum { Q_B, Q_T, Q_PHI, Q_O, Q_COMMON };

static void
path_eval (const PathModel *m, const double *d, const double *common, double s_sigma,
           gboolean fiducial, double *y)
{
  /* The lateral error common to every trial: the instrument's and the
   * registration's offset across the segment (at the surveyed points'
   * centroid), its rotation about that centroid seen at mid-segment (the
   * wander peaks there: a half sine), the target's centring. */
  double e = common[Q_B] + common[Q_T] + common[Q_PHI] * DEG * m->arm_mm + common[Q_O];
  double mx = 0.0, sum = 0.0, sum_abs = 0.0, ss = 0.0;

  for (gsize i = 0; i < m->n; i++)
    {
      double di = d[i] + e;

      mx = MAX (mx, fabs (di));
      sum += di;
      sum_abs += fabs (di);
    }
  for (gsize i = 0; i < m->n; i++)
    ss += (d[i] + e - sum / m->n) * (d[i] + e - sum / m->n);
  y[0] = mx;                                      /* 8.2: d = max |d_i| */
  y[1] = sum / m->n;                              /* mean of the signed d_i */
  y[2] = sum_abs / m->n;                          /* mean of the |d_i| */
  y[3] = fiducial ? s_sigma : sqrt (ss / (m->n - 1.0));
}

static gboolean
path_f (const double *x, double *y, gpointer data)
{
  const PathModel *m = data;
  const double *sx = x + m->n + Q_COMMON;

  /* GUM: the sampling inputs enter as corrections of expectation 0 to the
   * mean (t) and to the standard deviation (normal). */
  path_eval (m, x, x + m->n, 0.0, FALSE, y);
  y[1] += sx[S_MEAN];
  y[2] += sx[S_MEAN_ABS];
  y[3] += sx[S_STD];
  return y[3] >= 0.0;
}

static gboolean
path_draw (gsl_rng *rng, double *y, gpointer data)
{
  const PathModel *m = data;
  double d[m->n], common[Q_COMMON];
  /* The robot's σ of the d_i: s·√(ν/χ²_ν) with ν from their kurtosis, not
   * n − 1: the wander's d_i are two-humped (left or right of the segment),
   * and normal theory's PDF was three times as wide as the spread of s
   * over repeated campaigns (test-unc-coverage /unc-coverage/path-spread). */
  double sigma = draw_sigma (rng, m->s_d, m->nu_sd);

  for (gsize i = 0; i < m->n; i++)
    d[i] = draw_input (rng, &m->x[i]);
  for (int q = 0; q < Q_COMMON; q++)
    common[q] = draw_input (rng, &m->x[m->n + q]);
  path_eval (m, d, common, 0.0, FALSE, y);
  /* The robot's mean deviation: a mean of n, the scaled t with ν = n − 1
   * (JCGM 101 6.4.9: the central limit holds for a mean whatever the d_i's
   * shape, and a kurtosis from n values does not make the mean surer);
   * the mean of the |d_i| likewise, on the |d_i|'s own spread. */
  y[1] += m->s_d / sqrt ((double) m->n) * gsl_ran_tdist (rng, m->n - 1.0);
  y[2] += m->s_abs / sqrt ((double) m->n) * gsl_ran_tdist (rng, m->n - 1.0);
  y[3] = y[3] * sigma / m->s_d;
  return TRUE;
}

/* Mean and standard deviation of the largest of k standard normal values
 * (pdf k·φ(x)·Φ(x)^(k−1), Simpson's rule over [−8, 8]; k ≥ 1 real). */
static void
normal_max_moments (double k, double *mean, double *sd)
{
  const int steps = 1600;
  const double a = -8.0, h = 16.0 / steps;
  double m1 = 0.0, m2 = 0.0;

  for (int i = 0; i <= steps; i++)
    {
      double x = a + i * h;
      double f = k * exp (-0.5 * x * x) / sqrt (2.0 * G_PI) *
                 pow (0.5 * erfc (-x / sqrt (2.0)), k - 1.0);
      double w = (i == 0 || i == steps) ? 1.0 : (i % 2 ? 4.0 : 2.0);

      m1 += w * x * f;
      m2 += w * x * x * f;
    }
  m1 *= h / 3.0;
  m2 *= h / 3.0;
  *mean = m1;
  *sd = sqrt (MAX (m2 - m1 * m1, 0.0));
}

NbUncBudget *
nb_unc_path (const NbUncSetup *s, const double *d_mm, gsize n, const NbSegment *segment,
             guint64 seed, GError **error)
{
  double length_mm = segment->length_mm;
  static const char *const keys[] = { "max_mm", "mean_mm", "mean_abs_mm", "std_mm" };
  g_autoptr (NbUncBudget) b = nb_unc_budget_new (8);
  NbPathResult r;
  PathModel m = { n, segment->length_mm,
                  segment->length_mm / 2.0 -
                    ((s->reg_centroid_mm[0] - segment->x0_mm) * segment->ex +
                     (s->reg_centroid_mm[1] - segment->y0_mm) * segment->ey) };
  Inputs in;
  double u_i = 0.0;
  gboolean ok;

  if (n < 3 || !(length_mm > 0.0))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "clause 8 uncertainty: %zu trials on a segment of %g mm (n ≥ 3, length > 0)",
                   n, length_mm);
      return NULL;
    }
  if (!nb_metrics_path (d_mm, n, &r, error))
    return NULL;
  m.s_d = r.std_mm > 0.0 ? r.std_mm : 1e-12;
  m.nu_sd = nb_unc_sd_dof (d_mm, n);
  {
    double mean_abs = 0.0, ss = 0.0;

    for (gsize i = 0; i < n; i++)
      mean_abs += fabs (d_mm[i]) / n;
    for (gsize i = 0; i < n; i++)
      ss += (fabs (d_mm[i]) - mean_abs) * (fabs (d_mm[i]) - mean_abs);
    m.s_abs = sqrt (ss / (n - 1.0));
  }

  inputs_init (&in);
  group (&in, N_ ("d_i: the random error of the sample that is the largest (corrected for that "
         "choice), and timing"),
         N_ ("instrument.random_mm, sample_rate_hz, robot.rated_speed_mm_s; instrument.sync_s × speed × slope π·d/L"),
         "mm", FALSE);
  for (gsize i = 0; i < n; i++)
    {
      /* d_i is the largest |lateral| over the samples: with noise σ on each,
       * it is the largest of the k samples near the peak, biased outward by
       * σ·E[M_k] with spread σ·sd(M_k) (M_k the max of k standard normals).
       * Near the peak of a half sine of amplitude A = |d_i| over L the true
       * lateral is within σ of A over ±(L/π)·√(2σ/A): k = that span / the
       * sample spacing v·Δt (1 when the spacing or speed is not stated). */
      double a_i = fabs (d_mm[i]), ek = 0.0, sk = 1.0, k = 1.0;
      double spacing = s->speed_mm_s * s->sample_period_s;
      /* A time error δt moves the compared point by v·δt along the track;
       * across it that is v·δt·slope, the slope of a wander of amplitude d_i
       * over L at most π·d_i/L (a half sine).  The sample period adds the
       * peak missed between two samples, second order: ≤ d_i(1 − cos(π v Δt/2L)),
       * as a rectangular PDF of that full width. */
      double slope = G_PI * fabs (d_mm[i]) / length_mm;
      double u_sync = s->speed_mm_s * s->sync_s * slope;
      double miss = fabs (d_mm[i]) *
                    (1.0 - cos (G_PI * s->speed_mm_s * s->sample_period_s / (2.0 * length_mm)));

      if (s->random_mm > 0.0 && spacing > 0.0 && a_i > 0.0)
        {
          k = MAX (1.0, 2.0 * length_mm / G_PI * sqrt (2.0 * s->random_mm / a_i) / spacing);
          normal_max_moments (k, &ek, &sk);
        }
      u_i = sqrt (s->random_mm * s->random_mm * sk * sk + u_sync * u_sync + miss * miss / 12.0);
      /* The correction (GUM 3.2.3): the expected outward shift removed. */
      add (&in, d_mm[i] - (d_mm[i] >= 0.0 ? 1.0 : -1.0) * MIN (s->random_mm * ek, a_i), u_i,
           NB_UNC_NORMAL, 0.0);
    }
  add_instrument (&in, s, N_ ("measurement system, across the segment"));
  group (&in, N_ ("registration translation, across"), N_ ("instrument.registration_points (rigid fit residuals)"),
         "mm", FALSE);
  add (&in, 0.0, s->reg_u_t_mm, NB_UNC_NORMAL, 0.0);
  group (&in, N_ ("registration rotation (at L/2, about the centroid)"), N_ ("instrument.registration_points (rigid fit residuals)"),
         "°", FALSE);
  add (&in, 0.0, s->reg_u_rot_deg, NB_UNC_NORMAL, 0.0);
  group (&in, N_ ("target centring, across"), N_ ("instrument.target_centring_mm"), "mm", FALSE);
  add (&in, 0.0, s->target_mm, NB_UNC_NORMAL, 0.0);
  group_type_a (&in, N_ ("mean of the d_i: finite number of trials"), n, "mm");
  add (&in, 0.0, r.std_mm / sqrt ((double) n), NB_UNC_STUDENT_T, n - 1.0);
  group_type_a (&in, N_ ("standard deviation of the d_i: finite number of trials"), n, "mm");
  add (&in, 0.0, r.std_mm / sqrt (2.0 * m.nu_sd), NB_UNC_NORMAL, 0.0);
  group_type_a (&in, N_ ("mean of the |d_i|: finite number of trials"), n, "mm");
  add (&in, 0.0, m.s_abs / sqrt ((double) n), NB_UNC_STUDENT_T, n - 1.0);
  m.x = (const NbUncInput *) in.x->data;
  ok = finish (b, keys, 4, path_f, &m, &in, NULL, path_draw, &m, seed, error);
  inputs_clear (&in);
  return ok ? g_steal_pointer (&b) : NULL;
}

/* ----------------------------------------------------------- 10 -- */

typedef struct {
  gsize n_maps;
  gsize first, n_window;      /* the maps of the mapping accuracy (10.3); n_window 0: none */
  const NbUncInput *x;        /* 8 truth coordinates, then 8 per map */
} MapModel;

static gboolean
map_f (const double *x, double *y, gpointer data)
{
  const MapModel *m = data;
  double mx = 0.0;

  for (gsize t = 0; t < m->n_maps; t++)
    {
      const double *a = x + 8 + 8 * t;
      double dm = 0.0;

      for (int i = 0; i < 4; i++)   /* 10.2: Dm = ¼ Σ |A_i − A'_i| */
        dm += 0.25 * hypot (x[2 * i] - a[2 * i], x[2 * i + 1] - a[2 * i + 1]);
      y[t] = dm;
      if (t >= m->first && t < m->first + m->n_window)
        mx = MAX (mx, dm);
    }
  /* 10.3: the maximum Dm of the three consecutive successful trials (the
   * figure's own maps, not every map recorded). */
  if (m->n_window > 0)
    y[m->n_maps] = mx;
  return TRUE;
}

static gboolean
map_draw (gsl_rng *rng, double *y, gpointer data)
{
  const MapModel *m = data;
  gsize n_x = 8 + 8 * m->n_maps;
  double v[n_x];

  for (gsize i = 0; i < n_x; i++)
    v[i] = draw_input (rng, &m->x[i]);
  return map_f (v, y, data);
}

NbUncBudget *
nb_unc_mapping (const NbUncSetup *s, const double truth_mm[4][2], const double (*map_mm)[4][2],
                const double (*sigma_mm)[4], gsize n_maps, gsize first, gsize n_window,
                guint64 seed, GError **error)
{
  g_autoptr (NbUncBudget) b = nb_unc_budget_new (10);
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  double u_cell = s->map_resolution_mm / sqrt (12.0);
  double u_truth = hypot (nb_unc_setup_u_lin (s), s->target_mm);
  MapModel m = { n_maps, first, n_window };
  Inputs in;
  gboolean ok;

  if (n_maps < 1 || n_maps > 64)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause 10 uncertainty: %zu maps (1–64)",
                   n_maps);
      return NULL;
    }
  if (n_window > 0 && first + n_window > n_maps)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause 10 uncertainty: maps %zu–%zu of %zu",
                   first + 1, first + n_window, n_maps);
      return NULL;
    }
  inputs_init (&in);
  group (&in, N_ ("arena corners A_i (surveyed), per coordinate"),
         N_ ("instrument.accuracy_mm (…); instrument.target_centring_mm"), "mm", FALSE);
  for (int i = 0; i < 4; i++)
    for (int c = 0; c < 2; c++)
      add (&in, truth_mm[i][c], u_truth, NB_UNC_NORMAL, 0.0);
  for (gsize t = 0; t < n_maps; t++)
    {
      group (&in, N_ ("map corners A'_i (cell ½ width rectangular ⊕ wall fit), per coordinate"),
             N_ ("mapping.resolution_mm; corner fit σ"), "mm", FALSE);
      for (int i = 0; i < 4; i++)
        for (int c = 0; c < 2; c++)
          {
            double fit = sigma_mm ? sigma_mm[t][i] : 0.0;

            /* The cell's rectangular and the fit's normal part, one normal
             * PDF of their combined u: the fit's dominates a good map. */
            add (&in, map_mm[t][i][c], hypot (u_cell, fit),
                 fit > u_cell ? NB_UNC_NORMAL : NB_UNC_RECTANGULAR, 0.0);
          }
    }
  for (gsize t = 0; t < n_maps; t++)
    g_ptr_array_add (keys, g_strdup_printf ("dm_mm[%zu]", t));
  if (n_window > 0)
    g_ptr_array_add (keys, g_strdup ("accuracy_mm"));
  m.x = (const NbUncInput *) in.x->data;
  ok = finish (b, (const char *const *) keys->pdata, n_maps + (n_window > 0), map_f, &m, &in, NULL, map_draw,
               &m, seed, error);
  inputs_clear (&in);
  return ok ? g_steal_pointer (&b) : NULL;
}

/* ------------------------------------------------------------ 6 -- */

typedef struct {
  gsize n;
  guint n_obstacles;
  const double *measured;
  const guint *obstacle;
  const NbUncInput *x;        /* the n true distances */
} DetectModel;

static gboolean
detect_f (const double *x, double *y, gpointer data)
{
  const DetectModel *m = data;
  double sum[m->n_obstacles + 1];
  guint cnt[m->n_obstacles + 1];

  memset (sum, 0, sizeof sum);
  memset (cnt, 0, sizeof cnt);
  for (gsize j = 0; j < m->n; j++)
    {
      /* 6.4: accuracy = 100 − 100·|d_measured − d_true| / d_true */
      double a;

      if (!(x[j] > 0.0))
        return FALSE;
      a = 100.0 - 100.0 * fabs (m->measured[j] - x[j]) / x[j];
      sum[0] += a;
      cnt[0]++;
      sum[1 + m->obstacle[j]] += a;
      cnt[1 + m->obstacle[j]]++;
    }
  for (guint o = 0; o <= m->n_obstacles; o++)
    y[o] = cnt[o] ? sum[o] / cnt[o] : NAN;
  return TRUE;
}

static gboolean
detect_draw (gsl_rng *rng, double *y, gpointer data)
{
  const DetectModel *m = data;
  double v[m->n];

  for (gsize j = 0; j < m->n; j++)
    v[j] = draw_input (rng, &m->x[j]);
  return detect_f (v, y, data);
}

NbUncBudget *
nb_unc_detection (const NbUncSetup *s, const double *true_mm, const double *measured_mm,
                  const guint *obstacle, gsize n, guint n_obstacles, guint64 seed, GError **error)
{
  g_autoptr (NbUncBudget) b = nb_unc_budget_new (6);
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  DetectModel m = { n, n_obstacles, measured_mm, obstacle };
  double u = hypot (s->placement_mm, nb_unc_setup_u_lin (s));
  Inputs in;
  gboolean ok;

  if (n < 1 || n_obstacles < 1 || n_obstacles > 64)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "clause 6 uncertainty: %zu detected placements of %u obstacles", n,
                   n_obstacles);
      return NULL;
    }
  for (guint o = 0; o < n_obstacles; o++)
    {
      gboolean used = FALSE;

      for (gsize j = 0; j < n && !used; j++)
        used = obstacle[j] == o;
      if (!used)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "clause 6 uncertainty: obstacle %u has no detected placement", o);
          return NULL;
        }
    }
  for (gsize j = 0; j < n; j++)
    if (obstacle[j] >= n_obstacles || !(true_mm[j] > 0.0) || !isfinite (measured_mm[j]))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "clause 6 uncertainty: placement %zu (obstacle %u, %g mm, %g mm)", j + 1,
                     obstacle[j], true_mm[j], measured_mm[j]);
        return NULL;
      }
  inputs_init (&in);
  /* The robot's reported distance is its output, read exactly; the
   * obstacle's true distance is what the rig set and the instrument checked. */
  group (&in, N_ ("true distance of each placement"), N_ ("rig.placement_mm ⊕ instrument.accuracy_mm (…)"), "mm",
         FALSE);
  for (gsize j = 0; j < n; j++)
    add (&in, true_mm[j], u, NB_UNC_NORMAL, 0.0);
  g_ptr_array_add (keys, g_strdup ("mean_accuracy_pct"));
  for (guint o = 0; o < n_obstacles; o++)
    g_ptr_array_add (keys, g_strdup_printf ("mean_accuracy_pct[%u]", o));
  m.x = (const NbUncInput *) in.x->data;
  ok = finish (b, (const char *const *) keys->pdata, n_obstacles + 1, detect_f, &m, &in, NULL,
               detect_draw, &m, seed, error);
  inputs_clear (&in);
  return ok ? g_steal_pointer (&b) : NULL;
}

/* --------------------------------------------------------- 7, 9 -- */

/* Times: each trial's own quantisation (its start and its end each fall
 * within one sample period: two rectangular PDFs of width Δt, together
 * triangular with u = Δt/√6), the synchronisation common to all trials,
 * then the Type A correction of a mean. */
typedef struct {
  gsize n0, n1;               /* baseline, obstacle times (clause 9: n1 = 0) */
  double s0;                  /* sample std of the baseline (the mean's Type A) */
  const NbUncInput *x;        /* n0 + n1 times, sync, Type A of T0 */
} TimeModel;

static void
time_eval (const TimeModel *m, const double *x, double *y)
{
  double sync = x[m->n0 + m->n1];
  double t0 = 0.0, t1 = 0.0;

  /* A common offset moves every measured time equally; the ratio keeps
   * part of it (T1/T0 with both shifted). */
  for (gsize i = 0; i < m->n0; i++)
    t0 += (x[i] + sync) / m->n0;
  t0 += x[m->n0 + m->n1 + 1];
  for (gsize i = 0; i < m->n1; i++)
    t1 = i == 0 ? x[m->n0 + i] + sync : MAX (t1, x[m->n0 + i] + sync);
  y[0] = t0;
  if (m->n1 > 0)
    {
      y[1] = t1;
      y[2] = t1 / t0;
    }
}

static gboolean
time_f (const double *x, double *y, gpointer data)
{
  time_eval (data, x, y);
  return TRUE;
}

static gboolean
time_draw (gsl_rng *rng, double *y, gpointer data)
{
  const TimeModel *m = data;
  gsize n_x = m->n0 + m->n1 + 2;
  double v[n_x];

  for (gsize i = 0; i < n_x; i++)
    v[i] = draw_input (rng, &m->x[i]);
  time_eval (m, v, y);
  return isfinite (y[0]) && y[0] > 0.0;
}

static NbUncBudget *
times (guint clause, const NbUncSetup *s, const double *t0, gsize n0, const double *t1, gsize n1,
       guint64 seed, GError **error)
{
  static const char *const keys7[] = { "t0_s", "t1_s", "delay_ratio" };
  static const char *const keys9[] = { "mean_time_s" };
  g_autoptr (NbUncBudget) b = nb_unc_budget_new (clause);
  TimeModel m = { n0, n1 };
  double u_q = s->sample_period_s / sqrt (6.0);
  double mean = 0.0, ss = 0.0;
  Inputs in;
  gboolean ok;

  if (n0 < 2 || (clause == 7 && n1 < 1))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "clause %u uncertainty: %zu and %zu trial times (a mean needs ≥ 2)", clause,
                   n0, n1);
      return NULL;
    }
  for (gsize i = 0; i < n0; i++)
    mean += t0[i] / n0;
  for (gsize i = 0; i < n0; i++)
    ss += (t0[i] - mean) * (t0[i] - mean);
  m.s0 = sqrt (ss / (n0 - 1.0));
  inputs_init (&in);
  group (&in, clause == 7 ? N_ ("travel times without obstacle: sample period quantisation")
                          : N_ ("passage times: sample period quantisation"),
         N_ ("instrument.sample_rate_hz (Δt/√6, start and end)"), "s", FALSE);
  for (gsize i = 0; i < n0; i++)
    add (&in, t0[i], u_q, NB_UNC_TRIANGULAR, 0.0);
  if (n1 > 0)
    {
      group (&in, N_ ("travel times with obstacle: sample period quantisation"),
             N_ ("instrument.sample_rate_hz (Δt/√6, start and end)"), "s", FALSE);
      for (gsize i = 0; i < n1; i++)
        add (&in, t1[i], u_q, NB_UNC_TRIANGULAR, 0.0);
    }
  group (&in, N_ ("synchronisation of robot events and samples (common)"), N_ ("instrument.sync_s"), "s",
         FALSE);
  add (&in, 0.0, s->sync_s, NB_UNC_NORMAL, 0.0);
  group_type_a (&in, clause == 7 ? N_ ("T0: finite number of trials") : N_ ("mean passage time: finite number of trials"), n0, "s");
  add (&in, 0.0, m.s0 / sqrt ((double) n0), NB_UNC_STUDENT_T, n0 - 1.0);
  m.x = (const NbUncInput *) in.x->data;
  ok = finish (b, clause == 7 ? keys7 : keys9, clause == 7 ? 3 : 1, time_f, &m, &in, NULL,
               time_draw, &m, seed, error);
  inputs_clear (&in);
  return ok ? g_steal_pointer (&b) : NULL;
}

NbUncBudget *
nb_unc_avoidance (const NbUncSetup *s, const double *baseline_s, gsize n_baseline,
                  const double *obstacle_s, gsize n_obstacle, guint64 seed, GError **error)
{
  return times (7, s, baseline_s, n_baseline, obstacle_s, n_obstacle, seed, error);
}

NbUncBudget *
nb_unc_passage (const NbUncSetup *s, const double *time_s, gsize n, guint64 seed, GError **error)
{
  return times (9, s, time_s, n, NULL, 0, seed, error);
}

/* The trials' times the figures were computed on, in trial order: 7.3 the
 * first three successful ones, 9.3 the first five consecutive successes.
 * The model's figure is checked against nb-metrics' own, so the selection
 * here cannot drift from the one there unnoticed. */
static int
cmp_trial (const void *a, const void *b)
{
  const NbTimedTrial *x = a, *y = b;

  return (x->trial > y->trial) - (x->trial < y->trial);
}

static gsize
first_successes (const NbTimedTrial *t, gsize n, gsize want, gboolean consecutive, double *out)
{
  g_autofree NbTimedTrial *s = g_memdup2 (t, MAX (n, 1) * sizeof *t);
  gsize found = 0;

  qsort (s, n, sizeof *s, cmp_trial);
  for (gsize i = 0; i < n && found < want; i++)
    if (s[i].success)
      out[found++] = s[i].time_s;
    else if (consecutive)
      found = 0;
  return found;
}

static gboolean
same_figure (double model, double metrics, const char *what, GError **error)
{
  if (fabs (model - metrics) <= 1e-9 * MAX (fabs (metrics), 1.0))
    return TRUE;
  g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
               "uncertainty model of %s: %.17g, the figure is %.17g", what, model, metrics);
  return FALSE;
}

NbUncBudget *
nb_unc_avoidance_trials (const NbUncSetup *s, const NbTimedTrial *baseline, gsize n_baseline,
                         const NbTimedTrial *obstacle, gsize n_obstacle, guint64 seed,
                         GError **error)
{
  double t0[NB_AVOIDANCE_TRIALS], t1[NB_AVOIDANCE_TRIALS];
  NbAvoidanceResult r;
  g_autoptr (NbUncBudget) b = NULL;

  if (!nb_metrics_avoidance (baseline, n_baseline, obstacle, n_obstacle, &r, error))
    return NULL;
  if (first_successes (baseline, n_baseline, NB_AVOIDANCE_TRIALS, FALSE, t0) < NB_AVOIDANCE_TRIALS ||
      first_successes (obstacle, n_obstacle, NB_AVOIDANCE_TRIALS, FALSE, t1) < NB_AVOIDANCE_TRIALS)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "clause 7 uncertainty: T0 and T1 need three successful trials each");
      return NULL;
    }
  b = nb_unc_avoidance (s, t0, NB_AVOIDANCE_TRIALS, t1, NB_AVOIDANCE_TRIALS, seed, error);
  if (b == NULL || !same_figure (nb_unc_budget_figure (b, "t0_s")->value, r.t0_s, "T0", error) ||
      !same_figure (nb_unc_budget_figure (b, "t1_s")->value, r.t1_s, "T1", error))
    return NULL;
  return g_steal_pointer (&b);
}

NbUncBudget *
nb_unc_passage_trials (const NbUncSetup *s, const NbTimedTrial *trials, gsize n, guint64 seed,
                       GError **error)
{
  double t[NB_PASSAGE_TRIALS];
  NbPassageResult r;
  g_autoptr (NbUncBudget) b = NULL;

  if (!nb_metrics_passage (trials, n, &r, error))
    return NULL;
  if (!r.passed || first_successes (trials, n, NB_PASSAGE_TRIALS, TRUE, t) < NB_PASSAGE_TRIALS)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "clause 9 uncertainty: no five consecutive successful trials");
      return NULL;
    }
  b = nb_unc_passage (s, t, NB_PASSAGE_TRIALS, seed, error);
  if (b == NULL ||
      !same_figure (nb_unc_budget_figure (b, "mean_time_s")->value, r.mean_time_s,
                    "the mean passage time", error))
    return NULL;
  return g_steal_pointer (&b);
}
