/* nb-iso9283-run.h — the ISO 9283 pose test driven on a robot and measured
 *
 * 7.2 / 10.1: the cycle P1 → P5 → P4 → P3 → P2 → P1 of the clause 6 cube,
 * `cycles` times, with unidirectional approach, as the motion sequence of
 * nb-iso9283-cube.h, sent to any NbRobotOps robot (the simulated arm, the
 * motion stack over HTTP).  After every goal that arrives at a test pose
 * the measure function gives the attained pose (the opening home goal of
 * each iteration, a goal without motion, is not measured: P1 is measured
 * when the cycle comes back to it from P2).  Then AP and RP per pose.
 *
 * Measurement sources here: the simulated tracker on an in-process
 * simulated arm (its mean over the end of the goal's dwell), and a
 * simulated tracker watching a served arm through its reported joint state
 * (GET /robot/state): the TCP of the true arm (the error model's geometry)
 * at the joints the controller reports, with the tracker's noise.
 */
#pragma once

#include <glib.h>

#include "nb-device.h"
#include "nb-http-robot.h"
#include "nb-iso9283.h"
#include "nb-iso9283-cube.h"
#include "nb-sim-tracker.h"

G_BEGIN_DECLS

typedef gboolean (*NbIso9283MeasureFunc) (gpointer data, NbPose6 *attained, GError **error);

typedef struct {
  guint cycles;
  NbPose6 command[NB_ISO9283_POSES];
  GArray *attained[NB_ISO9283_POSES];   /* of NbPose6, in cycle order */
  NbIso9283Pose result[NB_ISO9283_POSES];
  guint goals;
} NbIso9283PoseRun;

gboolean nb_iso9283_pose_run   (const NbArmModel *model, const NbIso9283Cube *cube,
                                const double q[NB_ISO9283_POSES][NB_ARM_JOINTS], guint cycles,
                                const NbRobotOps *ops, gpointer robot,
                                NbIso9283MeasureFunc measure, gpointer measure_data,
                                NbIso9283PoseRun *run, GError **error);
void     nb_iso9283_pose_run_clear (NbIso9283PoseRun *run);

/* The demonstration error model of the simulated arm (encoder offsets, link
 * length errors, backlash, noise, an underdamped servo with its dwell):
 * what docs/iso9283.md's examples and the CLI's --robot sim use. */
void     nb_iso9283_sim_errors (NbSimArm *arm);

/* The in-process source: the tracker's mean over the last window_s. */
typedef struct {
  NbSimTracker *tracker;
  double window_s;
} NbIso9283SimMeasure;

gboolean nb_iso9283_measure_sim (gpointer data, NbPose6 *attained, GError **error);

/* The served-arm source: truth holds the true arm (nb_sim_arm_true_pose),
 * noise the tracker's σ (mm, °). */
typedef struct {
  NbHttpRobot *robot;
  NbSimArm *truth;
  GRand *rand;
  double noise_mm, noise_deg;
} NbIso9283StateMeasure;

gboolean nb_iso9283_measure_state (gpointer data, NbPose6 *attained, GError **error);

/* A live 6-DoF instrument (NbDevice: natnet, …): after the goal, the
 * samples that arrive in the first guard_s are let go (they may show the
 * arm before the goal's end: the instrument's latency, the link's jitter),
 * the attained pose is the mean of those of the next window_s (position in
 * mm, orientation as a, b, c of the sample's quaternion; 7.2.1 "measured
 * after the pose is reached").  A sample without orientation, a lost link
 * or no pose at all within timeout_s (a window that stays empty is waited
 * past until the first pose) is an error naming the goal. */
typedef struct {
  NbDevice *device;
  double guard_s, window_s, timeout_s;
  double band_mm;               /* a jump larger than this between poses restarts the window */
  guint samples;                /* the last measurement's count */
} NbIso9283DeviceMeasure;

gboolean nb_iso9283_measure_device (gpointer data, NbPose6 *attained, GError **error);
/* A sample's pose in the ISO 9283 form (mm; a, b, c of its quaternion). */
void     nb_iso9283_sample_pose (const NbSample *sample, NbPose6 *pose);

G_END_DECLS
