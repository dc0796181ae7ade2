/* nb-unc.h — measurement uncertainty: GUM propagation, JCGM 101 Monte Carlo,
 * coverage intervals, rounding and conformity decisions
 *
 * Pure functions: no I/O, no globals; every random draw comes from a GSL
 * generator seeded by the caller, so a result is reproducible bit for bit.
 *
 * The references, cited by clause in the code:
 *   JCGM 100:2008 (GUM)  — law of propagation of uncertainty (5.1.2, 5.2.2),
 *                          sensitivity coefficients (5.1.3), expanded
 *                          uncertainty U = k·u_c (6.2), reporting (7.2.6);
 *   JCGM 101:2008        — propagation of distributions by Monte Carlo (7),
 *                          the PDFs assigned to inputs (6.4), coverage
 *                          intervals (7.7), the adaptive procedure (7.9) and
 *                          the validation of the GUM framework (8);
 *   JCGM 102:2011        — several inputs and outputs at once (joint x, y, θ);
 *   ILAC G8:2019         — decision rules for statements of conformity.
 *
 * Coverage probability: the protocol states U with k = 2.  For a Gaussian
 * output k = 2 covers p = 0.9545 (2Φ(2) − 1), so the Monte Carlo intervals
 * are computed for that p: the two methods then state the same thing and the
 * JCGM 101 8 comparison compares like with like (a 95 % MC interval against
 * y ± 2u would differ by 0.04u at each end for a perfectly linear model).
 */
#pragma once

#include <glib.h>
#include <gsl/gsl_rng.h>

G_BEGIN_DECLS

/* The coverage factor of every U in the protocol and its probability. */
#define NB_UNC_K 2.0
#define NB_UNC_P 0.9544997361036416   /* 2Φ(2) − 1 */
/* JCGM 101 7.9.2 a) / 8.1: the significant digits of u(y) the Monte Carlo is
 * made stable to, and that set the validation's tolerance δ. */
#define NB_UNC_N_DIG 1

/* JCGM 101 6.4: the PDF assigned to an input quantity.  u is always the
 * standard uncertainty (the PDF's standard deviation); a data sheet's
 * "± a (rectangular)" is u = a/√3, "± a (k = 2)" is u = a/2. */
typedef enum {
  NB_UNC_NORMAL,          /* 6.4.7 */
  NB_UNC_RECTANGULAR,     /* 6.4.2: half-width √3·u */
  NB_UNC_TRIANGULAR,      /* 6.4.4: symmetric, half-width √6·u */
  NB_UNC_ARCSINE,         /* 6.4.6: U-shaped, half-width √2·u */
  NB_UNC_STUDENT_T,       /* 6.4.9: a mean of n observations, ν = n − 1, scale s/√n;
                             u is the scale s/√n (the GUM's Type A u), the PDF's
                             standard deviation is u·√(ν/(ν − 2)) */
} NbUncDistribution;

const char *nb_unc_distribution_name (NbUncDistribution dist);

/* A data sheet's coverage factor as the campaign field
 * instrument.accuracy_k states it: a number k > 0, or "rectangular" (the
 * figure is a maximum permissible error: *k = 0).  The one reading of it,
 * for `campaign set` and for the budgets. */
gboolean nb_unc_parse_coverage (const char *text, double *k, GError **error);

typedef struct {
  const char *name;       /* the input quantity, in the standard's words */
  const char *source;     /* where its value and u come from (campaign field, Type A) */
  double value;
  double u;               /* standard uncertainty (scale for NB_UNC_STUDENT_T) */
  NbUncDistribution dist;
  double dof;             /* ν for NB_UNC_STUDENT_T; ignored otherwise */
} NbUncInput;

/* The degrees of freedom of a sample standard deviation s of n ≥ 4 values
 * from a population of any shape: the exact variance of the unbiased s²,
 * var(s²) = σ⁴·(κ/n − (n − 3)/(n(n − 1))) with κ = μ₄/σ⁴ the kurtosis
 * (estimated by m₄/m₂²), matched to the scaled χ² of normal theory
 * (var(s²) = 2σ⁴/ν): ν = 2/(κ/n − (n − 3)/(n(n − 1))).  Normal data
 * (κ = 3) give ν = n − 1; two-valued data ±a (κ = 1) n(n − 1), s nearly
 * exact; heavy tails fewer.  The PDF of σ is then s·√(ν/χ²_ν), u(s) =
 * s/√(2ν) (docs/uncertainty.md: the coverage this gives). */
double nb_unc_sd_dof (const double *x, gsize n);

/* One draw of an input from its PDF (JCGM 101 6.4, C.4). */
double nb_unc_draw (gsl_rng *rng, const NbUncInput *input);

/* A measurement model y = f(x): n_y outputs from the inputs' values.
 * FALSE when x is outside the model's domain. */
typedef gboolean (*NbUncModel) (const double *x, double *y, gpointer user_data);

/* ------------------------------------------------------------- GUM -- */

/* JCGM 100 5.1.2 / 5.2.2: u_c²(y_k) = Σ_i Σ_j c_ki c_kj r_ij u_i u_j with
 * c_ki = ∂f_k/∂x_i (jac[k·n_x + i]) and the correlation matrix r (n_x × n_x,
 * row-major; NULL: uncorrelated).  y gets f(x).
 *
 * The sensitivities are central differences over ±u_i, as GUM 5.1.3 note 2
 * suggests: the step is the input's own spread, the scale over which the
 * linearisation has to hold, not a machine-epsilon step that measures the
 * tangent at one point (for a kink such as |x| or max the tangent is
 * meaningless, the secant over ±u is what the PDF sees).  An input with u = 0
 * contributes nothing; its coefficient is still given, with the step
 * ε^(1/3)·max(|x|, 1) that balances truncation and rounding error.  Where
 * x ± u leaves the domain the step is halved (up to 30 times). */
gboolean nb_unc_gum (NbUncModel f, gpointer user_data, const NbUncInput *x, gsize n_x,
                     const double *correlation, gsize n_y, double *y, double *jac, double *u_c,
                     GError **error);

/* ----------------------------------------------------- Monte Carlo -- */

/* One realisation of the n_y outputs (JCGM 101 7.2: draw every input from
 * its PDF, evaluate the model).  FALSE: the draw fell outside the model's
 * domain; it is drawn again (at most 100 times in a row). */
typedef gboolean (*NbUncDraw) (gsl_rng *rng, double *y, gpointer user_data);

typedef struct {
  double p;               /* coverage probability: NB_UNC_P */
  guint n_dig;            /* JCGM 101 7.9.2 a): significant digits of u(y) that must be stable */
  guint64 batch;          /* M of one batch: 0 → max(⌈100/(1 − p)⌉, 10⁴) (7.9.2 b) */
  guint64 max_trials;     /* stop there even if not stable (flagged); default 2·10⁵ */
  guint64 seed;
} NbUncMcOptions;

void nb_unc_mc_options_default (NbUncMcOptions *options, guint64 seed);

typedef struct {
  double y;               /* mean of the output's values (7.6) */
  double u;               /* their standard deviation */
  double lo_sym, hi_sym;  /* probabilistically symmetric interval (7.7.1) */
  double lo, hi;          /* shortest interval (7.7.2): the one stated */
  guint64 trials;         /* h·M */
  gboolean converged;     /* 7.9.4: every 2s below δ before max_trials */
} NbUncMcResult;

/* JCGM 101 7.9: batches of M trials until, for every output, twice the
 * standard deviation of the batch means of y, u(y), y_low and y_high is
 * below the numerical tolerance δ of u(y) (7.9.4); then the results from
 * all h·M values.  out: n_y results. */
gboolean nb_unc_mc (NbUncDraw draw, gpointer user_data, gsize n_y, const NbUncMcOptions *options,
                    NbUncMcResult *out, GError **error);

/* The generic draw: every input from its PDF (normal inputs correlated by
 * the Cholesky factor of r when given), then f. */
typedef struct {
  NbUncModel f;
  gpointer user_data;
  const NbUncInput *x;
  gsize n_x;
  double *chol;           /* n_x × n_x lower factor of r, or NULL */
  double *work;           /* n_x draws (owned by nb_unc_model_draw_init) */
  double *z;
} NbUncModelDraw;

gboolean nb_unc_model_draw_init  (NbUncModelDraw *d, NbUncModel f, gpointer user_data,
                                  const NbUncInput *x, gsize n_x, const double *correlation,
                                  GError **error);
void     nb_unc_model_draw_clear (NbUncModelDraw *d);
gboolean nb_unc_model_draw       (gsl_rng *rng, double *y, gpointer model_draw);

/* ---------------------------------------------- coverage intervals -- */

/* JCGM 101 7.7 over M values sorted ascending: q = pM if that is an
 * integer, else ⌊pM + ½⌋ (7.7.1); the symmetric interval [y_(r), y_(r+q)]
 * with r = ⌈(M − q)/2⌉ (1-based), the shortest the r* that minimises
 * y_(r+q) − y_(r) over r = 1 … M − q (7.7.2).  M ≥ 2. */
void nb_unc_interval_symmetric (const double *sorted, gsize m, double p, double *lo, double *hi);
void nb_unc_interval_shortest  (const double *sorted, gsize m, double p, double *lo, double *hi);

/* JCGM 101 7.9.2 / 8.1: u written as c·10^l with c an n_dig-digit integer;
 * δ = ½·10^l.  0 for u ≤ 0. */
double nb_unc_tolerance (double u, guint n_dig);

/* ------------------------------------------------------- a figure -- */

typedef enum {
  NB_UNC_METHOD_GUM,
  NB_UNC_METHOD_MONTE_CARLO,
} NbUncMethod;

const char *nb_unc_method_name (NbUncMethod method);

/* A figure with its uncertainty, as the protocol states it. */
typedef struct {
  double value;           /* the figure, as computed from the measured data */
  double u_c;             /* GUM combined standard uncertainty */
  double u_measurement;   /* its part from the measurement (instrument, frame, time, target) */
  double u_sampling;      /* its part from the finite number of trials (Type A); 0 if none */
  double k;               /* NB_UNC_K */
  NbUncMethod method;     /* GUM if JCGM 101 8 validated it, else Monte Carlo */
  double u;               /* the stated standard uncertainty: u_c (GUM), U/k (Monte Carlo) */
  double U;               /* k·u_c (GUM); the interval's half-width (Monte Carlo) */
  double lo, hi;          /* the stated interval: y ± U (GUM) or the MC shortest one
                             (for a figure without sampling part, reflected about y) */
  double bias;            /* Monte Carlo mean − y where it was reflected, else 0 */
  /* The validation (JCGM 101 8.2). */
  NbUncMcResult mc;
  double delta;           /* numerical tolerance of u_c (NB_UNC_N_DIG) */
  double d_low, d_high;   /* |y − U − y_low|, |y + U − y_high| */
  gboolean validated;
} NbUncFigure;

/* Fills the figure from the GUM result and the Monte Carlo one and chooses
 * (JCGM 101 8.2 c): GUM when d_low ≤ δ and d_high ≤ δ, else Monte Carlo. */
void nb_unc_figure_decide (NbUncFigure *fig, double value, double u_c, double u_measurement,
                           double u_sampling, const NbUncMcResult *mc);

/* ---------------------------------------------------- reporting -- */

/* GUM 7.2.6: at most two significant digits.  U is rounded UP (a rounded
 * uncertainty must not claim more than was found; 7.2.6 allows it), the
 * estimate to the same decimal place (nearest).  *decimals: the place both
 * are rounded to, 10^−decimals (negative for U ≥ 100: 1500 → −2); print
 * with MAX (decimals, 0) decimals.  Returns the rounded U; 0 → 0 and
 * *decimals = 0. */
double nb_unc_round_U     (double U, int *decimals);
double nb_unc_round_value (double value, int decimals);
/* An interval rounded outward to the decimals (never narrower). */
void   nb_unc_round_interval (double lo, double hi, int decimals, double *rlo, double *rhi);

/* --------------------------------------------------- conformity -- */

/* ILAC G8:2019 4.2: the decision rule chosen per campaign. */
typedef enum {
  NB_DECISION_SIMPLE,     /* 4.2.1 simple acceptance, w = 0: the figure against the limit */
  NB_DECISION_GUARDED,    /* 4.2.2/4.2.3 guard band w = U: the whole interval against it */
} NbDecisionRule;

typedef enum {
  NB_CONFORMS,
  NB_DOES_NOT_CONFORM,
  NB_INCONCLUSIVE,        /* only under the guarded rule: the interval contains the limit */
} NbConformity;

const char *nb_decision_rule_name (NbDecisionRule rule);   /* "simple-acceptance" | "guarded-w=U" */
gboolean    nb_decision_rule_parse (const char *text, NbDecisionRule *rule, GError **error);
const char *nb_conformity_name    (NbConformity c);         /* "conforms" | "does-not-conform" | "inconclusive" */

/* A declared upper limit (Ap ≤ …) when upper, else a lower one (accuracy ≥ …).
 * [lo, hi] is the stated interval (y ± U for GUM, the MC one otherwise). */
NbConformity nb_conformity_decide (double value, double lo, double hi, double limit,
                                   gboolean upper, NbDecisionRule rule);
/* A declared two-sided limit |y| ≤ limit of a signed figure (Ao, the mean
 * heading deviation: "±0.05°"), the tolerance interval [−limit, limit]
 * (ILAC G8:2019 4.2, each limit with its guard band w = U under the guarded
 * rule). */
NbConformity nb_conformity_decide_symmetric (double value, double lo, double hi, double limit,
                                             NbDecisionRule rule);

G_END_DECLS
