/* nb-unc-iso.h — the measurement models of ISO 18646-2's figures
 *
 * One model per clause: the input quantities (measured data and the
 * campaign's stated accuracies), the GUM budget with its sensitivity
 * coefficients, and the Monte Carlo propagation of the same inputs
 * (JCGM 101) that validates it; nb_unc_figure_decide() picks the method.
 *
 * The finite number of trials (Type A) is an input where a figure
 * estimates a property of the robot (a mean, a repeatability): the mean of
 * n trials gets the scaled t PDF (JCGM 101 6.4.9; jointly for x, y, θ as
 * JCGM 102), a standard deviation σ the PDF s·√(ν/χ²_ν) with ν from the
 * sample's kurtosis (nb_unc_sd_dof; n − 1 for normal data).
 * A figure the standard defines on the trials tested (d = max |d_i|, T1 =
 * the max of three trials, the mapping accuracy = the max Dm) has no
 * sampling part: its uncertainty is the measurement's alone.
 * docs/uncertainty.md gives each model and the reasons.
 */
#pragma once

#include <glib.h>

#include "nb-metrics.h"
#include "nb-unc.h"

G_BEGIN_DECLS

/* The inputs the campaign states (campaign fields; 0 = not stated = no
 * contribution, and the budget row says so). */
typedef struct {
  /* The measurement system's linear accuracy a + b·L (a laser tracker
   * "15 µm + 6 µm/m": a = 0.015 mm, b = 6 ppm), at the coverage factor its
   * data sheet gives (k > 0), or as the limits of a rectangular PDF (k = 0:
   * a maximum permissible error).  L: the distance from the instrument to
   * the work area. */
  double lin_const_mm;
  double lin_ppm;
  double lin_k;
  double range_m;
  /* Its angular accuracy (heading), same convention. */
  double ang_deg;
  double ang_k;
  /* Its random error of one point (1σ), the part that does not repeat. */
  double random_mm;
  /* The registration of its frame (nb_unc_registration()): standard
   * uncertainties of the rigid fit's translation at the centroid of the
   * surveyed points and of its rotation. */
  double reg_u_t_mm;
  double reg_u_rot_deg;
  double reg_centroid_mm[2];
  /* Time: the sample period (1 / rate) and the standard uncertainty of the
   * synchronisation of robot events and samples (clock offset, latency). */
  double sample_period_s;
  double sync_s;
  double speed_mm_s;            /* rated speed: a time error × speed is a position error */
  /* The target's (prism's, marker's) centring on the reference point, 1σ per axis. */
  double target_mm;
  /* Clause 6: the placement of an obstacle by the rig, 1σ of its distance. */
  double placement_mm;
  /* Clause 10: the map's cell size (a corner is known to ±½ cell). */
  double map_resolution_mm;
} NbUncSetup;

void   nb_unc_setup_init (NbUncSetup *setup);
/* The standard uncertainty of one coordinate: (a + b·L)/k, or /√3 when k = 0. */
double nb_unc_setup_u_lin (const NbUncSetup *setup);
double nb_unc_setup_u_ang (const NbUncSetup *setup);
/* "15 µm + 6 µm/m", "1 mm + 1.5 ppm", "8 mm + 1 ppm", "0.5 mm", optionally
 * followed by " (k=2)" or " (rectangular)": a and b as above, *k (0 for
 * rectangular; 2 when not said, the usual data-sheet convention). */
gboolean nb_unc_parse_accuracy (const char *text, double *a_mm, double *b_ppm, double *k,
                                GError **error);

/* The rigid fit's parameter uncertainties from its points and residuals
 * (2-D): σ² = Σ r_i² / (2n − 3) (2n coordinates, 3 parameters),
 * u(t) = σ/√n at the centroid, u(φ) = σ/√Σ|p_i − p̄|² (the linearised
 * covariance of the least-squares fit, which is diagonal at the centroid).
 * n ≥ 3. */
gboolean nb_unc_registration (const double (*reference_mm)[2], const double *residual_mm, guint n,
                              double *u_t_mm, double *u_rot_deg, double centroid_mm[2],
                              GError **error);

/* One line of a clause's budget table.  quantity and source are English
 * msgids (marked N_() in nb-unc-iso.c, translated by the protocol's
 * catalogue); a Type A line's source is the format "Type A, n = %u
 * trials" of n_trials. */
typedef struct {
  const char *figure;           /* the figure's key: "ap_mm" */
  const char *quantity;         /* the input quantity */
  const char *source;           /* the campaign field, or the Type A format */
  guint n_trials;               /* Type A: the n of its source; else 0 */
  double value;                 /* its estimate (0 for a correction of expectation 0) */
  const char *unit;
  double u;                     /* standard uncertainty */
  NbUncDistribution dist;
  double c;                     /* sensitivity coefficient ∂f/∂x */
  double contribution;          /* |c|·u, in the figure's unit */
  gboolean sampling;            /* Type A from the finite number of trials */
} NbUncRow;

typedef struct {
  const char *key;              /* "ap_mm": the JSON member and the figure's column */
  NbUncFigure fig;
} NbUncEntry;

typedef struct {
  guint clause;
  GArray *figures;              /* of NbUncEntry */
  GArray *rows;                 /* of NbUncRow */
} NbUncBudget;

NbUncBudget       *nb_unc_budget_new    (guint clause);
void               nb_unc_budget_free   (NbUncBudget *budget);
const NbUncFigure *nb_unc_budget_figure (const NbUncBudget *budget, const char *key);

/* Clause 5: ap_mm, ao_deg, rp_mm, ro_deg of n ≥ 3 poses. */
NbUncBudget *nb_unc_pose (const NbUncSetup *setup, const NbPose *command, const NbPose *attained,
                          gsize n, guint64 seed, GError **error);
/* Clause 8: max_mm (d = max |d_i|), mean_mm (of the signed d_i),
 * mean_abs_mm (of the |d_i|), std_mm of the trials' d_i (n ≥ 3) on the
 * commanded segment.  (Keys: the figures' JSON members.)  The std's
 * sampling part has ν from the d_i's kurtosis (nb_unc_sd_dof). */
NbUncBudget *nb_unc_path (const NbUncSetup *setup, const double *d_mm, gsize n,
                          const NbSegment *segment, guint64 seed, GError **error);
/* Clause 10: dm_mm (one per trial, "dm_mm[i]") and accuracy_mm (the
 * mapping accuracy: the max Dm of maps first … first + n_window − 1, the
 * three consecutive successful ones of 10.3; n_window 0: no such run, no
 * accuracy_mm) from the arena's surveyed corners and each map's corners
 * with their fit σ (corner_sigma_mm may be NULL: the cell alone). */
NbUncBudget *nb_unc_mapping (const NbUncSetup *setup, const double truth_mm[4][2],
                             const double (*map_mm)[4][2], const double (*corner_sigma_mm)[4],
                             gsize n_maps, gsize first, gsize n_window, guint64 seed,
                             GError **error);
/* Clause 6: mean_accuracy_pct over the detected placements, and one per
 * obstacle ("mean_accuracy_pct[i]"): obstacle[j] the index of detected
 * placement j's obstacle; every obstacle index needs a placement. */
NbUncBudget *nb_unc_detection (const NbUncSetup *setup, const double *true_mm,
                               const double *measured_mm, const guint *obstacle, gsize n,
                               guint n_obstacles, guint64 seed, GError **error);
/* Clause 7: t0_s (mean of the baseline times), t1_s (max of the obstacle
 * times), delay_ratio, from the trials the figures were computed on. */
NbUncBudget *nb_unc_avoidance (const NbUncSetup *setup, const double *baseline_s, gsize n_baseline,
                               const double *obstacle_s, gsize n_obstacle, guint64 seed,
                               GError **error);
/* Clause 9: mean_time_s of the n passage times of the successful run. */
NbUncBudget *nb_unc_passage (const NbUncSetup *setup, const double *time_s, gsize n, guint64 seed,
                             GError **error);

/* The same from the trials as nb_metrics_avoidance / nb_metrics_passage
 * take them (the trials the figures use are picked as 7.3 and 9.3 say). */
NbUncBudget *nb_unc_avoidance_trials (const NbUncSetup *setup, const NbTimedTrial *baseline,
                                      gsize n_baseline, const NbTimedTrial *obstacle,
                                      gsize n_obstacle, guint64 seed, GError **error);
NbUncBudget *nb_unc_passage_trials   (const NbUncSetup *setup, const NbTimedTrial *trials, gsize n,
                                      guint64 seed, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbUncBudget, nb_unc_budget_free)

G_END_DECLS
