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
 * simulated arm (its mean over the end of the goal's dwell), a simulated
 * tracker watching a served arm through its reported joint state (GET
 * /robot/state): the TCP of the true arm (the error model's geometry) at
 * the joints the controller reports, with the tracker's noise — at rest, or
 * as a stream during the goal (NbIso9283Sampler) — and a live instrument.
 */
#pragma once

#include <gio/gio.h>

#include "nb-campaign.h"
#include "nb-campaign-iso9283.h"
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

/* What a pose test run is measured with as a run stores it: the simulated
 * tracker on the in-process arm, or on the joints a served arm reports
 * (English; the protocol translates them, nb_protocol_iso9283_measurement). */
const char *nb_iso9283_sim_measurement (gboolean served);

/* A pose test run as the campaign stores it (nb-campaign-iso9283.h): robot
 * the motion stack's URL (NULL: "sim"), measurement the instrument's words
 * (NULL: the simulated tracker's), load "rated" or "10%" (NULL: rated).
 * The strings and attained arrays are borrowed from the arguments: out
 * lives as long as they do and is not freed. */
void     nb_iso9283_stored_pose_run (NbIso9283StoredRun *out, const char *config,
                                     const NbIso9283PoseRun *run, const NbIso9283Cube *cube,
                                     const char *robot_url, const char *measurement,
                                     double speed_pct, const char *load);
/* `campaign run --standard iso9283 --db F --config NAME`: the run recorded
 * in the campaign file at path as the configuration config (one
 * transaction, logged; NB_ERROR_INPUT when the name is taken). */
gboolean nb_iso9283_record_pose_run (const char *path, const char *config,
                                     const NbIso9283PoseRun *run, const NbIso9283Cube *cube,
                                     const char *robot_url, const char *measurement,
                                     double speed_pct, const char *load, GError **error);

/* The demonstration error model of the simulated arm (encoder offsets, link
 * length errors, backlash, noise, an underdamped servo with its dwell, the
 * joints' compliance under load, a thermal drift, a 0.4 % slow speed):
 * what docs/iso9283.md's examples and the CLI's --robot sim use. */
void     nb_iso9283_sim_errors (NbSimArm *arm);
/* Another unit of the type (7.7): the demonstration model's encoder offsets
 * and link length errors each moved by a normal draw (σ 1·10⁻⁴ rad, 0.2 mm)
 * seeded by the unit's identity (a stable hash of it); NULL: the
 * demonstration model itself.  Call after nb_iso9283_sim_errors. */
void     nb_iso9283_sim_unit   (NbSimArm *arm, const char *unit);

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

/* ------------------------------------------------ the rig and the plan -- */

/* What a characteristic needs of the rig besides joint goals and rest poses
 * (nb_iso9283_rig_lacks says why a rig cannot give it). */
typedef enum {
  NB_ISO9283_NEEDS_STREAM = 1 << 0,     /* the tracker's stream during a goal (7.4, 7.5, 9, 8) */
  NB_ISO9283_NEEDS_FORCE = 1 << 1,      /* a force at the TCP (10) */
  NB_ISO9283_NEEDS_TIMED_PATH = 1 << 2, /* joint points timed for the path velocity (8) */
} NbIso9283Needs;

/* The served arm's stream (over HTTP, measured by the simulated tracker):
 * while it is on, a thread polls GET /robot/state on a connection of its
 * own (kept alive: nb-http-robot.h) as fast as the server answers, at most
 * 1 kHz (the tracker's full rate), and each answer is a sample — the TCP
 * of the true arm at the joints reported (the served arm's servo, overshoot
 * and ring included), with the tracker's noise, at the instant the server
 * read them on the monotonic clock (the rig's clock over HTTP;
 * nb_iso9283_state_instant). */
typedef struct _NbIso9283Sampler NbIso9283Sampler;

/* When a polled state was true, on the rig's clock (Cristian's algorithm):
 * the server stamps its state with its own clock as it reads the joints
 * (GET /robot/state's stamp_us, its wall clock); the poll with the
 * shortest round trip so far gives that clock's offset to the rig's, to
 * half that round trip (an older poll's trusted the less by the two
 * clocks' drift, 2·10⁻⁵ of the time since: a faster one later replaces
 * it); a state is at its stamp less the offset, kept within its request
 * [sent_s, answered_s].  Without a stamp (0) it is the request's midpoint
 * — which a long round trip puts as much as half of it away from the
 * instant the joints were read (263 ms of a 527 ms poll at load 20: the
 * "pose has not stabilised" of iso9283-http, a sample read while the arm
 * still rang stamped into the stream's last 0.2 s). */
typedef struct {
  gboolean known;
  double offset_s;              /* the server's clock less the rig's */
  double rt_s, at_s;            /* the round trip and the instant of the poll it came from */
} NbIso9283ClockMap;

double nb_iso9283_state_instant (NbIso9283ClockMap *map, double sent_s, double answered_s,
                                 gint64 stamp_us);
/* The same instant by map as it stands (not updated): the stamp less its
 * offset kept within the request, else (no stamp, no offset yet) the
 * request's midpoint. */
double nb_iso9283_clock_instant (const NbIso9283ClockMap *map, double sent_s,
                                 double answered_s, gint64 stamp_us);

NbIso9283Sampler *nb_iso9283_sampler_new  (const char *url, NbSimArm *truth, double noise_mm,
                                           double noise_deg, guint32 seed, GError **error);
void              nb_iso9283_sampler_free (NbIso9283Sampler *sampler);
/* The polls of GET /robot/state sent so far, and the connections they
 * used (one while the server keeps it alive, nb-http-robot.h). */
void              nb_iso9283_sampler_counts (NbIso9283Sampler *sampler, guint *polls,
                                             guint *connections);

/* What a campaign run of the ISO 9283 plan drives and measures with: the
 * arm's model and cube, the robot (ops + handle), the in-process simulated
 * arm and its 1 kHz tracker when there is one (sim, tracker; NULL over
 * HTTP), the arm whose geometry the measurement sees (truth: the simulated
 * arm itself, or the served arm's error model), and the measure function
 * of the rest poses. */
typedef struct {
  NbArmModel model;
  NbIso9283Cube cube;
  double q[NB_ISO9283_POSES][NB_ARM_JOINTS];
  const NbRobotOps *ops;
  gpointer robot;
  NbSimArm *sim;
  NbSimTracker *tracker;
  NbSimArm *truth;
  NbIso9283MeasureFunc measure;
  gpointer measure_data;
  const char *robot_name;       /* "sim" or the URL */
  const char *unit;             /* the robot unit (serial number, 7.7); NULL: robot_name */
  const char *measurement;
  double rated_load_kg;         /* 6.6: the manufacturer's rated load */
  double rated_speed_mm_s;      /* 6.7: the rated path velocity (100 %) */
  double band_mm;               /* 7.4: the limit band's radius */
  /* The servo of the simulated arm as the rig found it (a path switches it
   * off: the controller interpolates the path, no point-to-point dwell). */
  double settle_omega_rad_s, settle_zeta, settle_dwell_s;
  double speed_pct;             /* of the configuration being run */
  double load_kg;
  guint goals;
  gboolean keep_stream;         /* the tracker's samples kept across goals (a path) */
  /* The rig's clock when the last goal was sent (nb_iso9283_rig_goal, _trajectory):
   * over HTTP the stream's first sample is awaited before it goes. */
  double goal_sent_s;
  /* The served arm (NULL: in-process): its goals at the configuration's
   * speed through max_velocity_scaling_factor. */
  NbHttpRobot *http;
  /* Over HTTP, the stream of the goals (NULL: none, e.g. a live instrument). */
  NbIso9283Sampler *sampler;
  /* A live instrument's stream during the goals (NULL: none): its samples
   * from each goal's start to its end (nb_device_now, the rig's clock over
   * HTTP; each timed by the instrument's own stamp, nb_iso9283_stream_times),
   * the poses as nb_iso9283_sample_pose gives them, into device_t_s /
   * device_pose (made by nb_iso9283_rig_configure, freed by
   * nb_iso9283_rig_clear_device).  The rest poses are still the measure
   * function's, after the goal. */
  NbDevice *stream_device;
  GArray *device_t_s, *device_pose;
  /* The stream of the current goal(s) while the tracker is on: t on the
   * rig's clock (double), NbPose6 — the in-process tracker's arrays or the
   * sampler's (set by nb_iso9283_rig_configure). */
  GArray *stream_t_s, *stream_pose;
  gboolean stream_off;
  /* The tracker's callback while it is off the arm. */
  void (*off_advance) (gpointer, double, const double *, double, const double *);
  gpointer off_advance_data;
  /* Stop (NULL: none): looked at before every cycle; the cycles stored
   * before are kept, the run ends with G_IO_ERROR_CANCELLED. */
  GCancellable *cancellable;
} NbIso9283Rig;

/* `campaign run --standard iso9283 --all`'s defaults: the cube about
 * (600, 0, 450) mm in base_link, tool at (180, 0, 180)°, plane 1, edge up to
 * 600 mm; the rated path velocity (6.7) 250 mm/s, the band of 7.4 0.1 mm,
 * the drift run (6.9) 8 h. */
#define NB_ISO9283_RATED_SPEED_MM_S 250.0
#define NB_ISO9283_BAND_MM 0.1
#define NB_ISO9283_DRIFT_H 8.0
extern const double nb_iso9283_default_centre_mm[3], nb_iso9283_default_abc_deg[3];
extern const double nb_iso9283_seed_q[NB_ARM_JOINTS];
#define NB_ISO9283_DEFAULT_PLANE 1
#define NB_ISO9283_DEFAULT_MAX_EDGE_MM 600.0
/* A live instrument's defaults (--guard, --window): the poses of the first
 * 0.05 s after a goal let go, the mean of the next 0.1 s. */
#define NB_ISO9283_DEVICE_GUARD_S 0.05
#define NB_ISO9283_DEVICE_WINDOW_S 0.1

/* The rated load (6.6) the campaign declares (robot.rated_load_kg), else
 * option's (not NaN), else the iiwa 7's 7 kg (KUKA's rated payload of the
 * LBR iiwa 7 R800). */
double   nb_iso9283_rated_load_kg (NbCampaign *campaign, double option);

/* The in-process rig of `--robot sim`: the simulated arm with the
 * demonstration error model and the unit's (nb_iso9283_sim_errors,
 * nb_iso9283_sim_unit; unit NULL: the demonstration model), watched by the
 * 1 kHz simulated tracker (σ 5 µm, 0.002°; seed + 1), a rest pose measured
 * as its mean over 0.2 s.  Fills rig's robot, tracker and measurement
 * members; the rest (model, cube, q, loads, speeds) is the caller's.  sim
 * must stay where it is while rig is used. */
typedef struct {
  NbSimArm arm;
  NbSimTracker tracker;
  NbIso9283SimMeasure measure;
} NbIso9283SimRig;

void     nb_iso9283_sim_rig_init  (NbIso9283SimRig *sim, NbIso9283Rig *rig,
                                   const NbArmModel *model, guint32 seed, const char *unit);
void     nb_iso9283_sim_rig_clear (NbIso9283SimRig *sim);
/* The simulated arm of both rigs: model at seed with the demonstration
 * error model and the unit's (unit NULL: the demonstration model); clear
 * with nb_sim_arm_clear. */
void     nb_iso9283_sim_arm_init  (NbSimArm *arm, const NbArmModel *model, guint32 seed,
                                   const char *unit);

/* The rig of `--robot http://…`: the served arm over the motion HTTP API
 * (nb_http_robot_new, 120 s per goal), measured by device when one is
 * given (a started 6-DoF instrument, nb_iso9283_measure_device: guard_s,
 * window_s, 2 s timeout, 0.5 mm band; rig->measurement its words) — else
 * by the simulated tracker watching the served joints through the true
 * arm (nb_iso9283_sim_arm_init at seed with unit; σ 5 µm, 0.002°, seed +
 * 1) and, with sampler, the stream of the served joints for 7.4, 7.5 and
 * 9 (seed + 2).  Fills rig's robot and measurement members as
 * nb_iso9283_sim_rig_init does; served must stay where it is while rig is
 * used.  FALSE with error (nothing to clear) when the robot's URL is
 * refused. */
typedef struct {
  NbHttpRobot *http;
  NbSimArm truth;
  NbIso9283StateMeasure state;
  NbIso9283DeviceMeasure device;
} NbIso9283ServedRig;

gboolean nb_iso9283_served_rig_init  (NbIso9283ServedRig *served, NbIso9283Rig *rig,
                                      const char *url, const NbArmModel *model, guint32 seed,
                                      const char *unit, NbDevice *device, double guard_s,
                                      double window_s, const char *device_words,
                                      gboolean sampler, GError **error);
/* Frees the rig's sampler too. */
void     nb_iso9283_served_rig_clear (NbIso9283ServedRig *served, NbIso9283Rig *rig);

/* Sets the rig for a configuration: the arm's speed (the simulated arm
 * 100/speed slower; the served arm's joint goals at speed % of the joints'
 * velocity limits), the load (rated or 10 % of rated_load_kg on the true
 * arm). */
gboolean nb_iso9283_rig_configure (NbIso9283Rig *rig, double speed_pct, const char *load,
                                   GError **error);
/* 6.6 on a served arm: the configuration's load (rig->load_kg, set by
 * nb_iso9283_rig_configure) mounted on the simulator (POST /sim/payload:
 * the tracker of `serve --tracker` sees the TCP give way under it, as the
 * offline true arm does); a stack without the route is loaded by the
 * operator.  Nothing to do in-process (the true arm carries it). */
gboolean nb_iso9283_rig_mount_load (NbIso9283Rig *rig, GError **error);
/* The arrays of the instrument's stream freed. */
void     nb_iso9283_rig_clear_device (NbIso9283Rig *rig);
/* A live instrument's samples of one goal on the rig's clock: t_s[] holds
 * their arrival times and becomes their times — each one's stamp[] (the
 * instrument's clock) plus the smallest t_s[i] − stamp[i] of the n, when
 * every stamp is finite and each is after the one before; else t_s[] is
 * left as it is. */
void     nb_iso9283_stream_times (double *t_s, const double *stamp, guint n);
/* One joint goal; measured: the attained pose after it.  The tracker's
 * samples of the goal stay in rig->tracker (cleared before each goal). */
gboolean nb_iso9283_rig_goal (NbIso9283Rig *rig, const double q[NB_ARM_JOINTS], gboolean measured,
                              NbPose6 *attained, GError **error);
/* Over HTTP: the joint points q[k·7 …] at t_s[k] from now as one timed
 * trajectory (nb_http_robot_follow_trajectory), the stream sampled through
 * it as through a goal. */
gboolean nb_iso9283_rig_trajectory (NbIso9283Rig *rig, const double *t_s, const double *q,
                                    guint n, GError **error);
/* The robot's clock: the simulated arm's, else the monotonic clock (s). */
double   nb_iso9283_rig_clock (const NbIso9283Rig *rig);
/* The servo on (as found) or off (paths). */
void     nb_iso9283_rig_servo (NbIso9283Rig *rig, gboolean on);
/* The tracker on the arm or off it (unmeasured motion of a long run). */
void     nb_iso9283_rig_tracker (NbIso9283Rig *rig, gboolean on);
/* Why the rig cannot give what `needs` asks (NbIso9283Needs), NULL when it
 * can: the stream needs the in-process tracker, the sampler or a live
 * instrument's stream, a force the
 * simulated true arm (in-process, or the served arm's modelled geometry), a
 * timed path the in-process arm. */
const char *nb_iso9283_rig_lacks (const NbIso9283Rig *rig, guint needs);

/* What the runner says as it goes (NULL: nothing). */
typedef void (*NbIso9283RunSay) (gpointer data, const char *config, guint cycle, guint of,
                                 const char *what);

/* Runs every in-scope configuration of the file's ISO 9283 plan that is not
 * complete (only: that one), cycle after cycle from the next one not
 * stored, each cycle committed when it ends: a run killed resumes at the
 * next cycle.  A characteristic that needs what the rig lacks
 * (nb_iso9283_rig_lacks) is left, said, not failed.  *ran counts the cycles
 * run. */
gboolean nb_iso9283_run_plan (NbCampaign *campaign, NbIso9283Rig *rig, const char *only,
                              NbIso9283RunSay say, gpointer say_data, guint *ran,
                              GError **error);
/* The plan made when the file has none (*made). */
gboolean nb_iso9283_plan_ensure (NbCampaign *campaign, double drift_s, gboolean *made,
                                 GError **error);

/* A configuration's state in the plan, as `campaign plan --standard
 * iso9283` and the window's Overview show it (nb_iso9283_plan_state_name:
 * the words, msgids for the window). */
typedef enum {
  NB_ISO9283_PLAN_OUT_OF_SCOPE,
  NB_ISO9283_PLAN_NOT_STARTED,
  NB_ISO9283_PLAN_IN_PROGRESS,
  NB_ISO9283_PLAN_COMPLETE,
} NbIso9283PlanState;

typedef struct _NbClause9283 NbClause9283;

typedef struct {
  const NbIso9283PlanEntry *entry;      /* borrowed from the plan given */
  const NbClause9283 *clause;           /* its module; NULL: a characteristic not known here */
  guint cycles;                         /* stored in the file */
  NbIso9283PlanState state;
} NbIso9283PlanRow;

/* Each configuration of plan (nb_campaign_iso9283_plan_list) with its
 * cycles stored and its state, in plan order (of NbIso9283PlanRow, each
 * borrowing plan's entry); *next the first in scope and not complete, what
 * `campaign run --standard iso9283 --all` runs next (NULL: none). */
GArray  *nb_iso9283_plan_rows (NbCampaign *campaign, const GArray *plan,
                               const NbIso9283PlanEntry **next, GError **error);
/* "out of scope", "not started", "in progress", "complete". */
const char *nb_iso9283_plan_state_name (NbIso9283PlanState state);

G_END_DECLS
