/* nb-sim-tracker.h — a simulated laser tracker watching the simulated arm's TCP
 *
 * It samples the true TCP (nb_sim_arm_true_pose: the arm's error model
 * included) at rate_hz on the arm's virtual clock, from the motion the arm
 * reports through on_advance (chained: a recorder already attached keeps
 * getting its calls).  Two probes: a 6-DoF probe (position noise σ mm per
 * axis, orientation noise σ° per angle), or three reflectors on the tool at
 * known offsets in the TCP frame, each measured with position noise and
 * combined into a frame (origin at the first, x towards the second, z
 * normal to the three) — the way ISO 9283 measures orientation with a
 * position-only tracker.  Samples are (t, NbPose6) in mm and degrees, a, b,
 * c about x, y, z as nb-iso9283.h composes them.
 */
#pragma once

#include <glib.h>

#include "nb-iso9283.h"
#include "nb-sim-arm.h"

G_BEGIN_DECLS

typedef struct {
  NbSimArm *arm;
  double rate_hz;               /* 1000 */
  double noise_mm;              /* σ per axis of a position */
  double noise_deg;             /* σ per angle (6-DoF probe) */
  gboolean three_targets;
  double target_m[3][3];        /* the reflectors in the TCP frame (three-target probe) */
  GRand *rand;
  GArray *t_s;                  /* of double */
  GArray *pose;                 /* of NbPose6 */
  double next_t_s;
  /* The callback that was on the arm before. */
  void (*chained) (gpointer data, double t0_s, const double *q0, double t1_s, const double *q1);
  gpointer chained_data;
} NbSimTracker;

/* Attaches to the arm from its current clock on. */
void     nb_sim_tracker_init  (NbSimTracker *tracker, NbSimArm *arm, double rate_hz,
                               double noise_mm, double noise_deg, guint32 seed);
void     nb_sim_tracker_clear (NbSimTracker *tracker);
/* Uses three reflectors (default offsets 0, (60, 0, 0) and (0, 60, 0) mm). */
void     nb_sim_tracker_use_targets (NbSimTracker *tracker);

/* The frame of three measured points: origin p0, x along p1 − p0, z normal
 * to the plane, as a pose (mm, °). */
void     nb_sim_tracker_frame (const double p0[3], const double p1[3], const double p2[3],
                               NbPose6 *pose);

/* The mean of the samples in [t0, t1] (orientation on recast differences to
 * the first sample); FALSE when none falls there. */
gboolean nb_sim_tracker_mean (const NbSimTracker *tracker, double t0_s, double t1_s,
                              NbPose6 *mean);

G_END_DECLS
