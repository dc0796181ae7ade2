/* nb-iso9283.h — the performance characteristics of ISO 9283:1998 (ГОСТ Р ИСО 9283-2003)
 *
 * Pure functions over measured poses, no I/O.  Positions in mm, angles in
 * degrees, times in s, velocities in mm/s, as the protocol gives them.  The
 * orientation angles a, b, c are rotations about x, y, z (7.1); every
 * orientation figure is computed on recast differences to the command
 * (nb_angle_recast_deg), so a pose near ±180° has a sound mean, as
 * ISO 18646-2 5.2.1 does for headings.  Positions are centred on the command
 * before any sum, so a tracker frame kilometres away loses no precision.
 * The formulas with their clause numbers: docs/iso9283.md.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One pose: position x, y, z (mm) and orientation a, b, c (°) about x, y, z. */
typedef struct {
  double x_mm, y_mm, z_mm;
  double a_deg, b_deg, c_deg;
} NbPose6;

/* ---------------------------------------------------- 7.2 AP and RP -- */

typedef struct {
  guint64 n;
  double barycentre_mm[3];      /* x̄, ȳ, z̄ */
  double mean_deg[3];           /* ā, b̄, c̄, recast to (−180°, 180°] */
  double ap_mm;                 /* 7.2.1 AP_P */
  double ap_xyz_mm[3];          /* 7.2.1 AP_x, AP_y, AP_z */
  double ap_abc_deg[3];         /* 7.2.1 AP_a, AP_b, AP_c */
  double l_mean_mm;             /* 7.2.2 l̄ */
  double s_l_mm;                /* 7.2.2 S_l */
  double rp_mm;                 /* 7.2.2 RP_l = l̄ + 3·S_l */
  double s_abc_deg[3];          /* 7.2.2 S_a, S_b, S_c */
  double rp_abc_deg[3];         /* 7.2.2 RP_a = ±3·S_a, … (the magnitude) */
} NbIso9283Pose;

/* n ≥ 2 attained poses of one command pose. */
gboolean nb_iso9283_pose (const NbPose6 *command, const NbPose6 *attained, gsize n,
                          NbIso9283Pose *result, GError **error);

/* ------------------------------------------------------------ 7.2 vAP -- */

typedef struct {
  double vap_mm;                /* 7.2 vAP_P: largest distance between the barycentres */
  double vap_abc_deg[3];        /* 7.2 vAP_a, vAP_b, vAP_c: largest |ā_h − ā_k| */
} NbIso9283Vap;

/* The attained poses of one command pose approached along n_paths (3 in the
 * standard) directions: attained[h] holds n[h] ≥ 1 poses. */
gboolean nb_iso9283_vap (const NbPose6 *command, const NbPose6 *const *attained, const gsize *n,
                         guint n_paths, NbIso9283Vap *result, GError **error);

/* -------------------------------------------------- 7.7 exchangeability -- */

typedef struct {
  double e_mm;                  /* 7.7 E: largest distance between two robots' barycentres */
  double e_abc_deg[3];          /* the same of ā, b̄, c̄ (navbench also reports it) */
  guint robot_a, robot_b;       /* the pair (0-based) of e_mm */
} NbIso9283Exchangeability;

/* The attained poses of one command pose on n_robots ≥ 2 robots of one type
 * under the same conditions: attained[h] holds n[h] ≥ 1 poses of robot h.
 * The barycentres' spread as vAP's over approach paths (7.2). */
gboolean nb_iso9283_exchangeability (const NbPose6 *command, const NbPose6 *const *attained,
                                     const gsize *n, guint n_robots,
                                     NbIso9283Exchangeability *result, GError **error);

/* -------------------------------------------------------- 7.3 AD, RD -- */

typedef struct {
  guint64 n;
  double d_command_mm;          /* D_c = |P_c1 − P_c2| */
  double d_mean_mm;             /* D̄ */
  double ad_mm;                 /* 7.3.2 AD_P = D̄ − D_c */
  double ad_xyz_mm[3];          /* 7.3.2 AD_x = D̄_x − D_cx, … */
  double ad_abc_deg[3];         /* 7.3.2 AD_a = D̄_a − D_ca, … */
  double rd_mm;                 /* 7.3.3 RD = ±3·S_D (the magnitude) */
  double rd_xyz_mm[3];          /* 7.3.3 RD_x, RD_y, RD_z */
  double rd_abc_deg[3];         /* 7.3.3 RD_a, RD_b, RD_c */
} NbIso9283Distance;

/* n ≥ 2 pairs: cycle j attained first[j] for command c1 and second[j] for c2. */
gboolean nb_iso9283_distance (const NbPose6 *c1, const NbPose6 *c2, const NbPose6 *first,
                              const NbPose6 *second, gsize n, NbIso9283Distance *result,
                              GError **error);

/* ---------------------------------- 7.4 stabilisation, 7.5 overshoot -- */

/* One sample of the measured stream: time and position. */
typedef struct {
  double t_s;
  double p_mm[3];
} NbIso9283Sample;

typedef struct {
  double attained_mm[3];        /* the attained (stabilised) position */
  double t_entry_s;             /* the first crossing into the limit band */
  double t_stable_s;            /* from when the position stays in the band */
  double stabilisation_s;       /* 7.4 t = t_stable − t_entry */
  double overshoot_mm;          /* 7.5 OV_j: largest D after entry (≥ 0) */
} NbIso9283Settling;

/* samples in time order over one approach and stop; the attained position
 * is the mean of the samples of the last tail_s seconds; band_mm the limit
 * band's radius (the manufacturer's, else RP).  D, the overshoot's distance,
 * is measured along the approach direction (from the first sample to the
 * attained position): positive beyond the attained pose.  Errors: the
 * stream never enters the band, or a sample of its last tail_s is outside
 * it (the pose has not stabilised). */
gboolean nb_iso9283_settling (const NbIso9283Sample *samples, gsize n, double band_mm,
                              double tail_s, NbIso9283Settling *result, GError **error);

/* -------------------------------------------------------- 7.6 drift -- */

typedef struct {
  double dap_mm;                /* 7.6 dAP = |AP_t=1 − AP_t=T| */
  double drp_mm;                /* 7.6 dRP = |RP_t=1 − RP_t=T| */
  double dap_abc_deg[3];
  double drp_abc_deg[3];
} NbIso9283Drift;

void nb_iso9283_drift (const NbIso9283Pose *first, const NbIso9283Pose *last,
                       NbIso9283Drift *result);

/* ------------------------------------------------ 8.2, 8.3 AT and RT -- */

typedef enum {
  NB_ISO9283_LINE,
  NB_ISO9283_CIRCLE,
} NbIso9283PathKind;

/* The command path: a straight line start → end, or a circle (centre,
 * radius, the unit normal of its plane, the start point on it; travelled
 * counter-clockwise about the normal, a full turn), with one command
 * orientation held along it (8.2, 8.3) — or, for 8.4 (path accuracy on
 * reorientation), turned along it: R(s) = R(abc) · Rot(turn_axis, θ(s)),
 * the axis in the tool frame, θ from turn_deg[0] at the start to
 * turn_deg[1] at the end in proportion to the arc length (a zero axis: no
 * turn). */
typedef struct {
  NbIso9283PathKind kind;
  double start_mm[3];
  double end_mm[3];             /* line */
  double centre_mm[3];          /* circle */
  double normal[3];             /* circle */
  double abc_deg[3];
  double turn_axis[3];          /* 8.4: unit, in the tool frame; zero: none */
  double turn_deg[2];
} NbIso9283Path;

/* The command path point at arc length s (mm) and its unit tangent. */
gboolean nb_iso9283_path_length (const NbIso9283Path *path, double *length_mm, GError **error);
void     nb_iso9283_path_point  (const NbIso9283Path *path, double s_mm, double point_mm[3],
                                 double tangent[3]);
/* The command orientation a, b, c at arc length s (of a path of length L). */
void     nb_iso9283_path_orientation (const NbIso9283Path *path, double s_mm, double length_mm,
                                      double abc_deg[3]);

/* A track: a cycle's samples in time order (t, pose). */
typedef struct {
  const double *t_s;            /* may be NULL: no velocities */
  const NbPose6 *pose;
  gsize n;
} NbIso9283Track;

typedef struct {
  guint n_cycles;
  guint m_points;
  double at_mm;                 /* 8.2 AT_P = max_i |barycentre_i − command point_i| */
  double at_abc_deg[3];         /* 8.2 AT_a = max_i |ā_i − a_c|, … */
  double rt_mm;                 /* 8.3 RT_P = max_i (l̄_i + 3·S_li) */
  double rt_abc_deg[3];         /* 8.3 RT_a = max_i 3·S_ai, … */
  guint at_point;               /* the i (1-based) of AT_P and RT_P */
  guint rt_point;
} NbIso9283PathResult;

/* m ≥ 1 calculated points at s_i = L·i/(m + 1): the planes normal to the
 * command path there; each cycle's attained point in plane i is where its
 * track crosses the plane forwards (linear interpolation, the crossing
 * nearest the command point), its orientation against the command
 * orientation at s_i (8.4: the turned one).  n ≥ 2 cycles; every cycle must cross every
 * plane within reach_mm of the command point, else an error naming both. */
gboolean nb_iso9283_path (const NbIso9283Path *path, const NbIso9283Track *tracks, guint n,
                          guint m, double reach_mm, NbIso9283PathResult *result, GError **error);

/* ---------------------------------------------- 8.5 CR, CO (corner) -- */

typedef struct {
  double cr_mm;                 /* 8.5.2 CR: the largest over the cycles */
  double co_mm;                 /* 8.5.3 CO: the largest over the cycles */
  double cr_mean_mm, co_mean_mm;
} NbIso9283Corner;

/* The corner K of the command path start → K → end.  Per cycle, CR_j is the
 * smallest distance between K and the attained track; CO_j the largest
 * deviation beyond the second leg's line on the outside of the corner
 * (after the track's closest approach to K, projected onto the second
 * leg), 0 when none. */
gboolean nb_iso9283_corner (const double start_mm[3], const double corner_mm[3],
                            const double end_mm[3], const NbIso9283Track *tracks, guint n,
                            NbIso9283Corner *result, GError **error);

/* ------------------------------------------ 8.6 AV, RV, FV (velocity) -- */

typedef struct {
  guint n_cycles;
  double v_mean_mm_s;           /* v̄ = mean of the cycles' mean velocities */
  double av_pct;                /* 8.6.2 AV = (v̄ − v_c)/v_c · 100 % */
  double rv_mm_s;               /* 8.6.3 RV = ±3·S_v */
  double rv_pct;                /* RV/v_c · 100 % */
  double fv_mm_s;               /* 8.6.4 FV = max_j (max_i v_ij − min_i v_ij) */
} NbIso9283Velocity;

/* v[j] holds m[j] ≥ 1 velocity samples of cycle j (mm/s); n ≥ 2 cycles. */
gboolean nb_iso9283_velocity (double v_command_mm_s, const double *const *v, const gsize *m,
                              guint n, NbIso9283Velocity *result, GError **error);

/* The path velocity samples of a track over the part of the command path
 * between s0 and s1 (mm of arc length): |Δp|/Δt between successive samples
 * whose projections both fall in it.  Returns a new array of double. */
GArray  *nb_iso9283_track_speeds (const NbIso9283Path *path, const NbIso9283Track *track,
                                  double s0_mm, double s1_mm, GError **error);

/* ----------------------------------------------- 8.7 WS, WF (weaving) -- */

/* A weaving path: the base line start → end, with the weave across it
 * along direction (unit, at right angles to the line: in the measurement
 * plane), command stroke S_c (the full width, peak to peak, mm) and
 * frequency F_c (Hz); measured over the part of the line between s0 and s1
 * (mm from the start). */
typedef struct {
  double start_mm[3], end_mm[3];
  double direction[3];
  double stroke_mm;             /* S_c */
  double frequency_hz;          /* F_c */
  double s0_mm, s1_mm;
} NbIso9283Weave;

typedef struct {
  guint n_periods;              /* weaving periods measured */
  double stroke_mm;             /* S_a: mean of the periods' strokes */
  double frequency_hz;          /* F_a = periods / their time */
  double ws_pct;                /* 8.7 WS = (S_a − S_c)/S_c · 100 % */
  double wf_pct;                /* 8.7 WF = (F_a − F_c)/F_c · 100 % */
} NbIso9283WeaveCycle;

typedef struct {
  guint n_cycles;
  double stroke_mm, frequency_hz;       /* S̄_a, F̄_a: means over the cycles */
  double ws_pct, wf_pct;                /* of S̄_a, F̄_a */
  double ws_max_pct, wf_max_pct;        /* the cycle's WS, WF of the largest magnitude */
} NbIso9283Weaving;

/* One cycle's track (with times): each sample's lateral deviation w (along
 * the weave direction, from the base line) where its projection on the line
 * falls in [s0, s1]; the half-waves between the crossings of w's mean over
 * one command period about each sample (the attained line may drift from
 * the command's), with a hysteresis of a quarter of the half-range so noise
 * makes no crossing; each whole half-wave's extreme, the vertex (value and
 * time) of a least-squares parabola through the samples within a fortieth
 * of the command period about the extreme sample (a tracker's noise would
 * bias a single sample outwards; on a sinusoidal weave the parabola is
 * 2·10⁻⁶ of the stroke short); the stroke of an inner extreme its distance
 * from the middle of its two neighbours (a linear drift cancels), S_a their
 * mean; F_a the whole periods crest to crest and trough to trough over
 * their time.  At least two whole periods. */
gboolean nb_iso9283_weave_cycle (const NbIso9283Weave *weave, const NbIso9283Track *track,
                                 NbIso9283WeaveCycle *result, GError **error);
/* n ≥ 1 cycles (the standard: 3). */
gboolean nb_iso9283_weaving (const NbIso9283Weave *weave, const NbIso9283Track *tracks, guint n,
                             NbIso9283Weaving *result, GError **error);

/* ------------------------------------------------ rotation matrices -- */

/* R = Rz(c)·Ry(b)·Rx(a), row-major 3×3 (the rpy convention of URDF). */
void nb_iso9283_abc_to_matrix (const double abc_deg[3], double R[9]);
void nb_iso9283_matrix_to_abc (const double R[9], double abc_deg[3]);

G_END_DECLS
