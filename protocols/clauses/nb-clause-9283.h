/* nb-clause-9283.h — ISO 9283's characteristics as clause modules: their method table
 *
 * ARCHITECTURE: "Each clause of a standard (ISO 18646-2 clauses 5–10, ISO
 * 9283's characteristics) is one module in protocols/ with a method table
 * … and a registry lists them, like drivers."  ISO 18646-2's table
 * (nb-clause.h) is shaped by its 2-D trials (NbCampaignTrial, NbConfigResult);
 * ISO 9283 measures 6-DoF poses and 1 kHz streams of a manipulator, so its
 * modules have this table of the same design, beside it: one file per
 * characteristic group in protocols/clauses/nb-clause-9283-*.c exporting a
 * `const NbClause9283`, listed in nb_clause_9283_registry().  The runner
 * (nb-iso9283-run.h), the plan, `campaign plan|run --standard iso9283` and
 * the protocol's ISO 9283 section iterate the registry and ask the table.
 *
 *  - key: the characteristic as the plan stores it ("pose", "vap", …);
 *    clause: where ISO 9283:1998 defines it; title: its name in ISO 9283, a
 *    msgid of context "iso9283" (the catalogue holds ГОСТ Р ИСО 9283's
 *    words: nb_ptr (lang, "iso9283", title), nb-catalogue.h).
 *  - cycles: how many the standard asks for (6.9); for drift the groups of
 *    measurements over the run (duration_s).
 *  - speeds: which configurations the plan holds (6.6, 6.7, read in
 *    docs/iso9283.md): NB_9283_ALL_SPEEDS — 100 %, 50 %, 10 % of rated
 *    speed at rated load and 100 % at 10 % of it; NB_9283_RATED_ONLY —
 *    100 % speed, rated load.
 *  - needs: what a cycle needs of the rig besides joint goals and rest
 *    poses (NbIso9283Needs: the tracker's stream during the motion — 7.4,
 *    7.5, 8, 9 —, a force at the TCP — 10 —, a path timed for its
 *    velocity — 8); the runner leaves a configuration whose needs the rig
 *    lacks, saying why (nb_iso9283_rig_lacks).
 *  - prepare (): the joint points of the configuration's cycle (IK of its
 *    command poses or of its path), checked against the soft ranges before
 *    anything moves; run_cycle (): one cycle on the rig, its command and
 *    measurements into a trial (recorded by the runner when it ends).
 *  - columns / compute (): the figures of a configuration from its stored
 *    trials, as a table of rows (a test pose, the path) × columns (key =
 *    the JSON member, the title — a symbol, or words as a msgid of context
 *    "iso9283" —, unit, decimals), the note in the language lang (NULL:
 *    English).
 */
#pragma once

#include <glib.h>

#include "nb-campaign-iso9283.h"
#include "nb-catalogue.h"
#include "nb-iso9283-run.h"
#include "nb-json-writer.h"

G_BEGIN_DECLS

typedef enum {
  NB_9283_ALL_SPEEDS,
  NB_9283_RATED_ONLY,
} NbClause9283Speeds;

typedef struct {
  const char *key;              /* the figures' JSON member */
  const char *title;            /* ISO 9283's symbol or words (msgid, context "iso9283") */
  const char *unit;             /* "mm", "°", "s", "%", "mm/s" or NULL */
  guint decimals;
} NbClause9283Column;

/* A configuration's figures: n_rows × clause->n_columns values (NaN:
 * undefined), the row labels ("P1", "line"), and the cycles counted. */
typedef struct {
  guint n_rows;
  char **labels;                /* n_rows */
  double *values;               /* row-major */
  guint cycles;
  char *note;                   /* what the reader should know (band, v_c), in the language
                                 * computed in; NULL */
  char *error;                  /* cannot be computed: why (then no rows) */
} NbClause9283Figures;

void nb_clause_9283_figures_clear (NbClause9283Figures *figures);

typedef struct _NbClause9283 NbClause9283;
typedef struct _NbClause9283Goals NbClause9283Goals;

struct _NbClause9283 {
  const char *key;
  const char *clause;
  const char *title;            /* msgid, context "iso9283" */
  guint cycles;
  /* Robots of one type the configuration compares (7.7: 2 at least, each
   * with `cycles`; 0: the one on the rig). */
  guint units;
  NbClause9283Speeds speeds;
  guint needs;                  /* NbIso9283Needs */
  const NbClause9283Column *columns;
  guint n_columns;

  /* The cycle's goals for this rig (joint points, checked); owned by the
   * cycle state, freed by the runner. */
  gboolean (*prepare)   (const NbClause9283 *clause, NbIso9283Rig *rig,
                         const NbIso9283PlanEntry *entry, NbClause9283Goals *cycle,
                         GError **error);
  /* One cycle: trial->command and trial->data filled, trial->setup the
   * JSON of what the figures need besides (band, v_c, the path). */
  gboolean (*run_cycle) (const NbClause9283 *clause, NbIso9283Rig *rig,
                         const NbIso9283PlanEntry *entry, NbClause9283Goals *cycle,
                         guint number, NbIso9283Trial *trial, GError **error);
  /* Resuming after the cycles stored (last: the last of them): what the
   * next cycle must know of them (drift: when the next group is due).
   * NULL: nothing. */
  void     (*resume)    (const NbClause9283 *clause, NbClause9283Goals *cycle,
                         const NbIso9283Trial *last);
  /* How many cycles this rig has still to run of the configuration, given
   * the stored ones (NULL: the entry's cycles less those stored; 7.7: this
   * robot's 30 less its own). */
  guint    (*to_run)    (const NbClause9283 *clause, const NbIso9283PlanEntry *entry,
                         GPtrArray *stored, const NbIso9283Rig *rig);
  /* The figures from the configuration's stored trials (in cycle order),
   * the note in lang (NULL: English). */
  gboolean (*compute)   (const NbClause9283 *clause, const NbIso9283PlanEntry *entry,
                         GPtrArray *trials, const NbCatalogue *lang,
                         NbClause9283Figures *figures, GError **error);
};

/* What a configuration's cycles share: the goals prepare() made. */
struct _NbClause9283Goals {
  GArray *goals;                /* of double[NB_ARM_JOINTS]: the cycle's joint points */
  GArray *measured;             /* of gboolean: measured after goal k */
  GArray *pre;                  /* of double[NB_ARM_JOINTS]: to the cycle's start, unmeasured */
  NbPose6 command[16];
  guint n_command;
  NbIso9283Path path;           /* path, corner: the command path */
  double corner_mm[3][3];       /* corner: start, K, end */
  double v_command_mm_s;        /* path: v_c */
  GArray *segment_s;            /* path: each goal's commanded duration (double) */
  double interval_s;            /* drift: between the groups */
  double t_next_s;              /* drift: when the next group is measured */
};

/* The clause modules in ISO 9283's clause order; *n set. */
const NbClause9283 *const *nb_clause_9283_registry (guint *n);
/* NULL for a key no module has. */
const NbClause9283 *nb_clause_9283_lookup (const char *key);

/* The configurations the standard prescribes, every module's, in clause
 * order (of NbIso9283PlanEntry, cleared with the array); drift_s the drift
 * run's length (6.9: 8 h). */
GArray *nb_clause_9283_plan (double drift_s);

/* The figures of one configuration from the file (its trials read), the
 * note in English (_in: in lang, the protocol's). */
gboolean nb_clause_9283_compute    (NbCampaign *campaign, const NbIso9283PlanEntry *entry,
                                    NbClause9283Figures *figures, GError **error);
gboolean nb_clause_9283_compute_in (NbCampaign *campaign, const NbIso9283PlanEntry *entry,
                                    const NbCatalogue *lang, NbClause9283Figures *figures,
                                    GError **error);
/* The figures as JSON (the members of the object begun: cycles, rows[] of
 * {label, key: value…}, note, error) and as a person reads them. */
void  nb_clause_9283_figures_json (NbJsonWriter *w, const NbClause9283 *clause,
                                   const NbClause9283Figures *figures);
char *nb_clause_9283_figures_text (const NbClause9283 *clause,
                                   const NbClause9283Figures *figures);

/* The figures of every configuration of the file's plan with cycles,
 * recomputed from the stored cycles, as the JSON array begun by the caller's
 * key (items {config, characteristic, clause, of, cycles, error, note,
 * rows[]}: `campaign run --standard iso9283 --json`'s and `campaign results
 * --json`'s "configs"); *n_configs the number written. */
gboolean nb_clause_9283_results_json (NbJsonWriter *w, NbCampaign *campaign, guint *n_configs,
                                      GError **error);
/* The same as lines "CONFIG (CLAUSE): figures"; only the configurations in
 * `only` (a set of names) when it is not NULL. */
gboolean nb_clause_9283_results_text (GString *out, NbCampaign *campaign, GHashTable *only,
                                      guint *n_configs, GError **error);

/* Shared by the modules (nb-clause-9283.c). */
void nb_clause_9283_figures_alloc (NbClause9283Figures *f, const NbClause9283 *clause,
                                   guint n_rows);
void nb_clause_9283_pack_pose (GArray *v, const NbPose6 *p);
/* The k-th pose of a packed array (6 doubles each); FALSE past the end. */
gboolean nb_clause_9283_unpack_pose (const GArray *v, guint k, NbPose6 *p);
void nb_clause_9283_goals_clear (NbClause9283Goals *cycle);
/* Every goal of the cycle (and the way to its start) inside the soft
 * ranges, before anything moves; the error names the goal. */
gboolean nb_clause_9283_check (const NbIso9283Rig *rig, const NbClause9283Goals *cycle,
                               GError **error);
/* The stream of the goal just run holds enough to compute from (10
 * samples), else an error naming the clause (a served arm that moves in no
 * time gives none). */
gboolean nb_clause_9283_stream_check (const NbIso9283Rig *rig, const char *clause,
                                      GError **error);
/* The pose test's cycle (7.2), shared with 7.7. */
gboolean nb_clause_9283_pose_prepare (const NbClause9283 *clause, NbIso9283Rig *rig,
                                      const NbIso9283PlanEntry *e, NbClause9283Goals *c,
                                      GError **error);
gboolean nb_clause_9283_pose_cycle   (const NbClause9283 *clause, NbIso9283Rig *rig,
                                      const NbIso9283PlanEntry *e, NbClause9283Goals *c,
                                      guint number, NbIso9283Trial *t, GError **error);
/* Appends the joints of a goal (measured or not) to the cycle. */
void nb_clause_9283_add_goal (NbClause9283Goals *cycle, const double q[NB_ARM_JOINTS],
                              gboolean measured);
/* The paths' shared steps (nb-clause-9283-path.c): the measurement plane's
 * edge directions P2 → P3, P2 → P5 and its normal; the joint points of the
 * points pts[0..n) (IK each from the one before; turned, 8.4: the tool at
 * the path's orientation there, else at the cube's), pts[0] the unmeasured
 * start (cycle->pre), each next one a goal of duration |Δp| / v_c in
 * cycle->segment_s; the cycle run — to the start, then the goals timed with
 * the stream kept, the track (t from the start, x, y, z, a, b, c) into
 * trial->data. */
void     nb_clause_9283_plane_axes  (const NbIso9283Cube *cube, double e1[3], double e2[3],
                                     double n[3]);
gboolean nb_clause_9283_path_points (NbIso9283Rig *rig, NbClause9283Goals *cycle,
                                     const double (*pts)[3], guint n,
                                     const double seed[NB_ARM_JOINTS],
                                     const NbIso9283Path *turned, GError **error);
gboolean nb_clause_9283_track_cycle (NbIso9283Rig *rig, NbClause9283Goals *cycle,
                                     NbIso9283Trial *trial, GError **error);

/* What a path characteristic's figures come from (8.2-8.7): the first
 * cycle's command (the values run_cycle stored in trial->command) and every
 * cycle's stored track as the core reads it (t from the start, the pose). */
typedef struct {
  const double *command;        /* the first cycle's, borrowed from the trials */
  guint n_command;
  guint n;                      /* the cycles */
  NbIso9283Track *tracks;       /* n of them; their samples owned here */
  double **t_s;
  NbPose6 **poses;
} NbClause9283Cycles;

/* The cycles' command and tracks of the counted trials (of NbIso9283Trial);
 * command_lens: the lengths a command of the characteristic may have,
 * 0-terminated.  NB_ERROR_INPUT "cycle N holds no WHAT" when the first
 * cycle's command has another length, "cycle N holds no track" when a
 * cycle's track is not one.  out is cleared either way with
 * nb_clause_9283_cycles_clear. */
gboolean nb_clause_9283_cycle_tracks (GPtrArray *trials, const guint *command_lens,
                                      const char *what, NbClause9283Cycles *out, GError **error);
void     nb_clause_9283_cycles_clear (NbClause9283Cycles *cycles);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (NbClause9283Cycles, nb_clause_9283_cycles_clear)
/* 8.7: a weaving cycle's command as the weaving module stores it and reads
 * it back (the weave, the travel velocity v_mm_s along the line — NaN
 * unknown —, the measured part), appended to command; compute iso9283
 * weaving gives its CSV's cycles to the module this way. */
void nb_clause_9283_weaving_command (const NbIso9283Weave *weave, double v_mm_s,
                                     GArray *command);
/* The command pose of P<i+1> (the cube's position, its orientation). */
void nb_clause_9283_command (const NbIso9283Rig *rig, guint i, NbPose6 *p);

extern const NbClause9283 nb_clause_9283_pose;
extern const NbClause9283 nb_clause_9283_vap;
extern const NbClause9283 nb_clause_9283_distance;
extern const NbClause9283 nb_clause_9283_stabilisation;
extern const NbClause9283 nb_clause_9283_drift;
extern const NbClause9283 nb_clause_9283_exchangeability;
extern const NbClause9283 nb_clause_9283_path_line;
extern const NbClause9283 nb_clause_9283_path_large_circle;
extern const NbClause9283 nb_clause_9283_path_small_circle;
extern const NbClause9283 nb_clause_9283_path_reorientation;
extern const NbClause9283 nb_clause_9283_corner;
extern const NbClause9283 nb_clause_9283_weaving;
extern const NbClause9283 nb_clause_9283_positioning;
extern const NbClause9283 nb_clause_9283_compliance;

G_END_DECLS
