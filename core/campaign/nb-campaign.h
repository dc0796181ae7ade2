/* nb-campaign.h — the campaign store: one SQLite file holds a whole test campaign
 *
 * The file is the single source of truth of an ISO 18646-2 test campaign: the
 * robot under test, the test conditions (clause 4), the instrument, the
 * configurations of each clause, their trials in order, the raw samples of
 * every trial (chunked and packed), computed results and an append-only event
 * log.  It is a SQLite database in WAL mode, its schema versioned with
 * PRAGMA user_version and migrated forward on open.
 *
 * Safety:
 *  - a file that is not a navbench campaign, is truncated or is corrupt is
 *    refused with a clear error before anything writes to it;
 *  - a file written by a newer navbench is refused, never downgraded;
 *  - one writer at a time: a second writer gets "campaign is open in another
 *    navbench" (an flock(2) on the database file, released by the kernel
 *    when the holder dies, so a crash leaves no stale lock);
 *  - every finished trial is one transaction; samples are committed in
 *    batches of at most ~100 ms (wall clock), so a crash loses at most the
 *    batch in flight; the next writer's open marks the trial that was in
 *    flight `incomplete` and says so in the event log.
 *
 * Every statement is prepared and bound: no SQL is built from user text.
 * All calls are synchronous; a GUI runs them in a worker (GTask).
 */
#pragma once

#include <glib.h>

#include "nb-metrics.h"

G_BEGIN_DECLS

/* The schema this navbench writes; files up to it are read (older ones are
 * migrated forward when opened for writing). */
#define NB_CAMPAIGN_SCHEMA_VERSION 7
/* PRAGMA application_id of a navbench campaign: "NBCP". */
#define NB_CAMPAIGN_APPLICATION_ID 0x4E424350

typedef struct _NbCampaign NbCampaign;

typedef enum {
  NB_CAMPAIGN_OPEN_READ_ONLY = 1 << 0,  /* no lock is held; nothing is written unless no
                                         * writer is live and the file needs a migration
                                         * or a recovery, and then only when it can be
                                         * written (else the file is read as it is) */
} NbCampaignOpenFlags;

/* Creates a new campaign; fails if path exists. */
NbCampaign *nb_campaign_create (const char *path, const char *name, GError **error);
NbCampaign *nb_campaign_open   (const char *path, NbCampaignOpenFlags flags, GError **error);
/* Flushes buffered samples (a trial still in flight stays `running` and is
 * marked incomplete on the next open), checkpoints and releases the lock. */
gboolean    nb_campaign_close  (NbCampaign *campaign, GError **error);
/* Every page of the file checked (SQLite's quick_check), for a reader that
 * goes on to use all of it (report): open looks only at each table's root.
 * FALSE with NB_ERROR_INPUT "…: the campaign file is damaged (…)". */
gboolean    nb_campaign_verify (NbCampaign *campaign, GError **error);
/* Closes without flushing (and on a half-built object). */
void        nb_campaign_free   (NbCampaign *campaign);

const char *nb_campaign_get_path (const NbCampaign *campaign);
/* Trials that were in flight when the previous writer died, marked
 * incomplete by this open. */
guint       nb_campaign_get_recovered_trials (const NbCampaign *campaign);
/* The user_version the file had before this open (before any migration). */
guint       nb_campaign_get_opened_version (const NbCampaign *campaign);

/* Who the event log names for this session's changes; defaults to the
 * login name. */
void        nb_campaign_set_who (NbCampaign *campaign, const char *who);
const char *nb_campaign_get_who (const NbCampaign *campaign);

/* ---------------------------------------------------------- fields -- */

typedef enum {
  NB_FIELD_TEXT,
  NB_FIELD_NUMBER,        /* finite */
  NB_FIELD_POSITIVE,      /* finite, > 0 */
  NB_FIELD_PERCENT,       /* 0..100 */
  NB_FIELD_BOOL,          /* yes|no */
  NB_FIELD_ENVIRONMENT,   /* indoor|outdoor */
  NB_FIELD_DATE,          /* YYYY-MM-DD */
  NB_FIELD_DATES,         /* YYYY-MM-DD or an interval YYYY-MM-DD/YYYY-MM-DD */
  NB_FIELD_COVERAGE,      /* a coverage factor k > 0 or "rectangular" (nb_unc_parse_coverage) */
  NB_FIELD_DECISION_RULE, /* simple-acceptance | guarded-w=U (nb_decision_rule_parse) */
} NbFieldType;

typedef struct {
  const char *key;        /* "robot.width_mm" */
  NbFieldType type;
  const char *description;
} NbCampaignField;

/* The robot, conditions (clause 4), instrument, operator and notes fields a
 * campaign holds, in display order.  Adding a field is one line there. */
const NbCampaignField *nb_campaign_fields (guint *n_fields);
const NbCampaignField *nb_campaign_field_find (const char *key);

/* Checks value against the field's type, stores it and logs the change with
 * the old value.  robot.lu_mm is derived (from robot.width_mm) and cannot be set. */
gboolean nb_campaign_set_field (NbCampaign *campaign, const char *key, const char *value,
                                GError **error);
/* NULL when unset. */
char    *nb_campaign_get_field (NbCampaign *campaign, const char *key, GError **error);
/* ISO 18646-2 4.5: LU from robot.width_mm; FALSE (no error) when the width is unset. */
gboolean nb_campaign_get_lu_mm (NbCampaign *campaign, double *lu_mm, GError **error);
char    *nb_campaign_get_name  (NbCampaign *campaign, GError **error);

/* --------------------------------------------------- configurations -- */

typedef struct {
  gint64 id;
  guint clause;           /* 5..10 */
  char *name;
  char *route;            /* "straight", "rectangular", "combined", or NULL */
  double load_kg;         /* NaN when not given */
  char *obstacle;
  char *behaviour;
  char *parameters;       /* free text (JSON by convention) */
  NbPose command;         /* clause 5: the command pose; NaN otherwise */
  double from_mm[2];      /* clause 8: P0 of the commanded segment; NaN otherwise */
  double to_mm[2];        /* clause 8: P1 */
  double truth_mm[4][2];  /* clause 10: the arena's corners A_1..A_4; NaN otherwise */
} NbCampaignConfig;

void     nb_campaign_config_init  (NbCampaignConfig *config);  /* numbers NaN, strings NULL */
void     nb_campaign_config_clear (NbCampaignConfig *config);

/* Sets config->id.  A (clause, name) pair is unique. */
gboolean nb_campaign_add_config   (NbCampaign *campaign, NbCampaignConfig *config, GError **error);
/* FALSE with NB_ERROR_NOT_FOUND when there is no such configuration (any
 * other error: the file could not be read). */
gboolean nb_campaign_find_config  (NbCampaign *campaign, guint clause, const char *name,
                                   NbCampaignConfig *config, GError **error);
/* Of NbCampaignConfig (cleared with the array), in order of creation;
 * clause 0 lists all. */
GArray  *nb_campaign_list_configs (NbCampaign *campaign, guint clause, GError **error);

/* ----------------------------------------------------------- trials -- */

typedef enum {
  NB_TRIAL_RUNNING,       /* in flight (only while a writer records it) */
  NB_TRIAL_OK,
  NB_TRIAL_FAILED,
  NB_TRIAL_ABORTED,
  NB_TRIAL_INCOMPLETE,    /* the recording stopped before the trial ended */
} NbTrialOutcome;

const char *nb_trial_outcome_to_string   (NbTrialOutcome outcome);
gboolean    nb_trial_outcome_from_string (const char *s, NbTrialOutcome *outcome);

typedef struct {
  gint64 id;
  gint64 config_id;
  guint seq;              /* order within the configuration, from 1 */
  guint number;           /* the trial's number in the protocol (clauses 7, 9, 10); 0 if none */
  char *label;            /* clause 8: the trial's label; clause 6: the obstacle */
  char *kind;             /* clause 7: baseline|obstacle; clause 6: min|max range */
  double start_time;      /* s, the campaign's time base; NaN when unknown */
  double end_time;
  NbTrialOutcome outcome;
  char *reason;           /* why a trial failed or was aborted */
  double time_s;          /* clauses 7, 9: travel or passage time */
  NbPose command;         /* clause 5 */
  NbPose attained;        /* clause 5 */
  double angle_deg;       /* clause 6: the placement's direction */
  double true_mm;         /* clause 6 */
  double measured_mm;     /* clause 6: NaN when not detected */
  gboolean detected;      /* clause 6 */
  double corners_mm[4][2];/* clause 10: the map's corners A'_1..A'_4 */
  double clearance_mm;    /* clauses 7, 9: the smallest gap to the obstacle or the walls
                           * over the trial (7.1); NaN: not measured, +inf: none near */
  NbPose start;           /* 5.4 a, 7.3 a, 8.3 a, 9.3 a: the pose the trial started from, as
                           * an import gave it (NaN: not given; a run's is the first
                           * sample of its track) */
  guint64 n_samples;      /* committed samples (read back) */
} NbCampaignTrial;

void     nb_campaign_trial_init  (NbCampaignTrial *trial);  /* numbers NaN, outcome running */
void     nb_campaign_trial_clear (NbCampaignTrial *trial);

/* Starts a trial in flight (outcome running), committed at once; sets
 * trial->id and trial->seq.  One trial in flight at a time. */
gboolean nb_campaign_begin_trial (NbCampaign *campaign, gint64 config_id, NbCampaignTrial *trial,
                                  GError **error);
/* Ends the trial in flight: its remaining samples and its final record
 * (outcome, end time, values) in one transaction. */
gboolean nb_campaign_end_trial   (NbCampaign *campaign, const NbCampaignTrial *trial,
                                  GError **error);
/* begin + end in one transaction: a trial measured elsewhere. */
gboolean nb_campaign_record_trial (NbCampaign *campaign, gint64 config_id, NbCampaignTrial *trial,
                                   GError **error);
/* Of NbCampaignTrial (cleared with the array), in seq order. */
GArray  *nb_campaign_list_trials (NbCampaign *campaign, gint64 config_id, GError **error);

/* Edits a recorded value of a trial (key: outcome, reason, time_s, attained_x_mm,
 * attained_y_mm, attained_theta_deg, measured_mm, true_mm, detected, and for
 * clause 10 a map corner corrected by hand, corner1_x_mm … corner4_y_mm); the
 * event log keeps the old value, the new one and why. */
gboolean nb_campaign_edit_trial (NbCampaign *campaign, gint64 trial_id, const char *key,
                                 const char *value, const char *why, GError **error);

/* How the event log names a trial ("clause 8 'straight A' trial 3"): the
 * subject of its edits' events (its audit trail). */
char    *nb_campaign_trial_subject (NbCampaign *campaign, gint64 trial_id, GError **error);

/* ---------------------------------------------------------- samples -- */

/* A stored sample: the part of an instrument sample (nb-sample.h) that a
 * trial's track keeps, in protocol units. */
typedef struct {
  double t_s;             /* the one monotonic time base; NaN when unknown */
  double x_mm, y_mm;
  double theta_deg;       /* NaN when the instrument gives no heading */
  float quality;          /* instrument-specific, NaN when none */
} NbTrackSample;

/* The packed form of a sample in a chunk: t, x, y, theta as little-endian
 * doubles and quality as a little-endian float, column by column after an
 * 8-byte chunk header ("NBS1", count). */
#define NB_SAMPLE_PACKED_BYTES 36
#define NB_CHUNK_HEADER_BYTES 8
/* A chunk holds at most this many samples... */
#define NB_CHUNK_MAX_SAMPLES 4096
/* ...and a batch waits at most this long before it is committed. */
#define NB_BATCH_MAX_US (100 * G_TIME_SPAN_MILLISECOND)

/* Appends samples to a trial (the one in flight, or one being recorded in
 * a transaction).  Buffered: a chunk is written when it holds
 * NB_CHUNK_MAX_SAMPLES samples and the batch is committed when its first
 * sample has waited NB_BATCH_MAX_US, when the trial ends, or on flush.  The
 * wait is checked on each call: a recorder whose instrument may fall silent
 * also calls nb_campaign_flush from a NB_BATCH_MAX_US timer. */
gboolean nb_campaign_add_samples (NbCampaign *campaign, gint64 trial_id, const NbTrackSample *samples,
                                  gsize n, GError **error);
gboolean nb_campaign_flush       (NbCampaign *campaign, GError **error);

/* Calls func for each block of a trial's committed samples, in order.
 * Returning FALSE (with error set) stops. */
typedef gboolean (*NbTrackBlockFunc) (const NbTrackSample *samples, gsize n, gpointer user_data,
                                       GError **error);
gboolean nb_campaign_foreach_samples (NbCampaign *campaign, gint64 trial_id,
                                      NbTrackBlockFunc func, gpointer user_data, GError **error);

/* Packs/unpacks one chunk (exposed for tests and tools). */
gsize    nb_sample_chunk_size   (gsize n);
void     nb_sample_chunk_pack   (const NbTrackSample *samples, gsize n, guint8 *out);
/* n is the chunk's count, checked against its header and size. */
gboolean nb_sample_chunk_unpack (const guint8 *data, gsize size, NbTrackSample *out, gsize max,
                                 gsize *n, GError **error);

/* ------------------------------------------------------------- plan -- */

/* One configuration of the campaign's plan (what the standard prescribes;
 * protocols/nb-plan.h makes it from the clause table). */
typedef struct {
  gint64 id;
  guint clause;
  char *config;           /* the configuration's name (the clause table's key) */
  guint trials;           /* the standard's count (counted trials) */
  char *route;            /* as the runner takes them; NULL / NaN when the clause has none */
  double load_kg;
  char *obstacle;
  char *behaviour;
  gboolean in_scope;
  char *reason;           /* out of scope: why (the manufacturer's declaration, as typed;
                           * the plan's own reasons by key: NB_PLAN_REASON_PREFIX) */
} NbPlanEntry;

/* A reason that starts so is one of the plan's own, stored by key so that
 * it is printed in the reader's language (protocols/nb-campaign-plan.h:
 * nb_plan_reason_text); an engineer's reason may not start so. */
#define NB_PLAN_REASON_PREFIX "@plan:"

void     nb_plan_entry_init  (NbPlanEntry *entry);
void     nb_plan_entry_clear (NbPlanEntry *entry);
/* Appends an entry (a (clause, config) pair is unique); logged. */
gboolean nb_campaign_plan_add (NbCampaign *campaign, NbPlanEntry *entry, GError **error);
/* Of NbPlanEntry (cleared with the array), in plan order. */
GArray  *nb_campaign_plan_list (NbCampaign *campaign, GError **error);
/* Takes a configuration out of scope (reason required, not a key: see
 * NB_PLAN_REASON_PREFIX) or back in; the log keeps the old state and the
 * reason.  NB_ERROR_INPUT when the plan has no such configuration. */
gboolean nb_campaign_plan_set_scope (NbCampaign *campaign, guint clause, const char *config,
                                     gboolean in_scope, const char *reason, GError **error);

/* ------------------------------------------- transactions, log, results -- */

/* Groups everything until commit into one transaction (an import: all or
 * nothing).  Nested calls are counted. */
gboolean nb_campaign_transaction_begin    (NbCampaign *campaign, GError **error);
gboolean nb_campaign_transaction_commit   (NbCampaign *campaign, GError **error);
void     nb_campaign_transaction_rollback (NbCampaign *campaign);

/* Appends to the event log. */
gboolean nb_campaign_log (NbCampaign *campaign, const char *what, const char *subject,
                          const char *old_value, const char *new_value, GError **error);

typedef struct {
  gint64 id;
  char *time;             /* ISO 8601 UTC */
  char *who;
  char *what;
  char *subject;
  char *old_value;
  char *new_value;
  char *note;             /* why: an edited value's reason; NULL when none */
} NbCampaignEvent;

GArray  *nb_campaign_list_events (NbCampaign *campaign, GError **error);  /* of NbCampaignEvent */

/* Stores the computed figures of a clause (JSON text), replacing the previous. */
gboolean nb_campaign_store_result (NbCampaign *campaign, guint clause, const char *json,
                                   GError **error);
/* NULL when none is stored. */
char    *nb_campaign_get_result   (NbCampaign *campaign, guint clause, GError **error);

typedef struct {
  guint configs;
  guint64 trials;
  guint64 samples;
  guint64 chunks;
  guint64 events;
} NbCampaignCounts;

gboolean nb_campaign_get_counts (NbCampaign *campaign, NbCampaignCounts *counts, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbCampaign, nb_campaign_free)

G_END_DECLS
