/* nb-campaign-private.h — what the sections of the campaign store share
 *
 * The store is one public API (nb-campaign.h) written in one file per section
 * of the database: nb-campaign-db.c (schema, statements, SQL helpers,
 * transactions), -open.c, -fields.c, -configs.c, -trials.c, -samples.c and
 * -log.c.  Nothing outside core/campaign/ includes this header. */
#pragma once

#include "nb-campaign.h"

#include <sqlite3.h>

G_BEGIN_DECLS

/* The statements of the hot paths, prepared once per connection. */
typedef enum {
  ST_INSERT_CHUNK,
  ST_ADD_SAMPLES,
  ST_NEXT_CHUNK_SEQ,
  ST_SELECT_CHUNKS,
  ST_INSERT_EVENT,
  ST_INSERT_TRIAL,
  ST_END_TRIAL,
  ST_NEXT_TRIAL_SEQ,
  ST_TRIAL_SUBJECT,
  N_STATEMENTS
} StatementId;

struct _NbCampaign {
  char *path;
  sqlite3 *db;
  int lock_fd;                  /* flock(2) on the database file; −1 when none */
  gboolean writer;              /* holds the lock for its lifetime */
  char *who;
  guint recovered;
  guint opened_version;
  sqlite3_stmt *stmt[N_STATEMENTS];

  guint user_depth;             /* nb_campaign_transaction_begin nesting */
  gboolean batch_open;          /* a sample batch is written but not committed */
  gint64 batch_start_us;        /* when its first sample arrived; 0 when none */

  gint64 buf_trial;             /* the trial the buffered samples belong to */
  gint64 seq_trial;             /* the trial next_chunk_seq is for; 0 when unknown */
  gint64 next_chunk_seq;
  NbTrackSample *buf;                /* NB_CHUNK_MAX_SAMPLES */
  gsize buf_n;
  guint8 *packed;               /* one packed chunk */
};

extern const char *const nbc_migrations[];
extern const char *const nbc_statement_sql[N_STATEMENTS];

void nbc_corners_init (double corners[4][2]);
gboolean nbc_corners_set (const double corners[4][2]);
void nbc_bind_corners (sqlite3_stmt *s, int i, const double corners[4][2]);
void nbc_column_corners (sqlite3_stmt *s, int i, double corners[4][2]);
gboolean nbc_sql_error (NbCampaign *c, int rc, const char *doing, GError **error);
sqlite3_stmt *nbc_get_stmt (NbCampaign *c, StatementId id, GError **error);
void nbc_done_stmt (sqlite3_stmt *s);
void nbc_bind_double (sqlite3_stmt *s, int i, double v);
double nbc_column_double (sqlite3_stmt *s, int i);
void nbc_bind_text (sqlite3_stmt *s, int i, const char *v);
char *nbc_column_text (sqlite3_stmt *s, int i);
void nbc_pack_doubles (const double *v, guint n, guint8 *out);
void nbc_unpack_doubles (const guint8 *in, guint n, double *v);
gboolean nbc_exec (NbCampaign *c, const char *sql, const char *doing, GError **error);
gboolean nbc_query_int (NbCampaign *c, const char *sql, gint64 *out, GError **error);
char *nbc_now_iso8601 (void);
gboolean nbc_tx_ensure (NbCampaign *c, GError **error);
void nbc_tx_rollback (NbCampaign *c);
gboolean nbc_tx_finish (NbCampaign *c, GError **error);
gboolean nbc_tx_fail (NbCampaign *c);
gboolean nbc_log_event (NbCampaign *c, const char *what, const char *subject, const char *old_value,
                    const char *new_value, const char *note, GError **error);
char *nbc_trial_subject (NbCampaign *c, gint64 trial_id, GError **error);
gboolean nbc_require_writer (NbCampaign *c, GError **error);
gboolean nbc_write_chunk (NbCampaign *c, GError **error);
gboolean nbc_step_done (NbCampaign *c, sqlite3_stmt *s, const char *doing, GError **error);

G_END_DECLS
