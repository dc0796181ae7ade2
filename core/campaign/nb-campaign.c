/* nb-campaign.c — the campaign store on SQLite (see nb-campaign.h) */
#include "nb-campaign.h"

#include "nb-error.h"
#include "nb-number.h"
#include "nb-route.h"

#include <glib/gi18n-lib.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

/* ------------------------------------------------------------ schema -- */

/* migrations[v] takes a file from user_version v to v + 1.  A new file runs
 * them all, so a fresh campaign and a migrated one have the same schema.
 * Never edit a migration that has shipped: add one. */
static const char *const migrations[] = {
  /* 0 → 1: the first campaign schema. */
  "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
  /* Robot, conditions, instrument, operator, notes: keys checked in C
   * (campaign_fields[]), so a new field needs no migration. */
  "CREATE TABLE field (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
  "CREATE TABLE config (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  clause INTEGER NOT NULL CHECK (clause BETWEEN 5 AND 10),\n"
  "  name TEXT NOT NULL,\n"
  "  route TEXT, load_kg REAL, obstacle TEXT, behaviour TEXT, parameters TEXT,\n"
  "  command_x_mm REAL, command_y_mm REAL, command_theta_deg REAL,\n"
  "  from_x_mm REAL, from_y_mm REAL, to_x_mm REAL, to_y_mm REAL,\n"
  "  truth BLOB,\n"
  "  created TEXT NOT NULL,\n"
  "  UNIQUE (clause, name));\n"
  "CREATE TABLE trial (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  config_id INTEGER NOT NULL REFERENCES config (id),\n"
  "  seq INTEGER NOT NULL,\n"
  "  number INTEGER NOT NULL DEFAULT 0,\n"
  "  label TEXT, kind TEXT,\n"
  "  start_time REAL, end_time REAL,\n"
  "  outcome TEXT NOT NULL\n"
  "    CHECK (outcome IN ('running', 'ok', 'failed', 'aborted', 'incomplete')),\n"
  "  time_s REAL,\n"
  "  command_x_mm REAL, command_y_mm REAL, command_theta_deg REAL,\n"
  "  attained_x_mm REAL, attained_y_mm REAL, attained_theta_deg REAL,\n"
  "  angle_deg REAL, true_mm REAL, measured_mm REAL, detected INTEGER,\n"
  "  corners BLOB,\n"
  "  n_samples INTEGER NOT NULL DEFAULT 0,\n"
  "  UNIQUE (config_id, seq));\n"
  /* Samples packed by the chunk (nb_sample_chunk_pack), never a row each. */
  "CREATE TABLE sample_chunk (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  trial_id INTEGER NOT NULL REFERENCES trial (id),\n"
  "  seq INTEGER NOT NULL,\n"
  "  n INTEGER NOT NULL,\n"
  "  t_first REAL, t_last REAL,\n"
  "  data BLOB NOT NULL,\n"
  "  UNIQUE (trial_id, seq));\n"
  "CREATE TABLE event (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  time TEXT NOT NULL, who TEXT NOT NULL, what TEXT NOT NULL,\n"
  "  subject TEXT, old_value TEXT, new_value TEXT, note TEXT);\n"
  /* A test protocol is an auditable document: the log only grows. */
  "CREATE TRIGGER event_no_update BEFORE UPDATE ON event\n"
  "  BEGIN SELECT RAISE (ABORT, 'the event log is append-only'); END;\n"
  "CREATE TRIGGER event_no_delete BEFORE DELETE ON event\n"
  "  BEGIN SELECT RAISE (ABORT, 'the event log is append-only'); END;\n",

  /* 1 → 2: why a trial failed; stored results; finding trials in flight
   * without reading them all. */
  "ALTER TABLE trial ADD COLUMN reason TEXT;\n"
  "CREATE INDEX trial_outcome ON trial (outcome);\n"
  "CREATE TABLE result (\n"
  "  clause INTEGER PRIMARY KEY CHECK (clause BETWEEN 5 AND 10),\n"
  "  json TEXT NOT NULL,\n"
  "  computed TEXT NOT NULL);\n",
};

G_STATIC_ASSERT (G_N_ELEMENTS (migrations) == NB_CAMPAIGN_SCHEMA_VERSION);

/* ------------------------------------------------------------ fields -- */

/* Descriptions marked for the catalogues: the desktop form shows them
 * translated (core itself never translates). */
static const NbCampaignField campaign_fields[] = {
  { "robot.maker", NB_FIELD_TEXT, N_("manufacturer of the robot under test") },
  { "robot.model", NB_FIELD_TEXT, N_("model") },
  { "robot.serial", NB_FIELD_TEXT, N_("serial number") },
  { "robot.length_mm", NB_FIELD_POSITIVE, N_("length l, mm") },
  { "robot.width_mm", NB_FIELD_POSITIVE, N_("width w, mm (gives LU, 4.5)") },
  { "robot.height_mm", NB_FIELD_POSITIVE, N_("height h, mm") },
  { "robot.rated_speed_mm_s", NB_FIELD_POSITIVE, N_("rated speed, mm/s") },
  { "robot.rated_load_kg", NB_FIELD_NUMBER, N_("rated load, kg") },
  { "robot.preparation_done", NB_FIELD_BOOL, N_("preparation per the manufacturer done (yes|no)") },
  { "conditions.temperature_c", NB_FIELD_NUMBER, N_("ambient temperature, °C (4.2)") },
  { "conditions.humidity_pct", NB_FIELD_PERCENT, N_("relative humidity, %") },
  { "conditions.illuminance_lx", NB_FIELD_NUMBER, N_("illuminance, lx") },
  { "conditions.friction_coefficient", NB_FIELD_POSITIVE, N_("floor friction coefficient") },
  { "conditions.surface", NB_FIELD_TEXT, N_("floor surface") },
  { "conditions.landmarks", NB_FIELD_TEXT, N_("landmarks and external equipment") },
  { "conditions.environment", NB_FIELD_ENVIRONMENT, N_("environment (indoor|outdoor)") },
  { "instrument.kind", NB_FIELD_TEXT, N_("measurement system kind") },
  { "instrument.model", NB_FIELD_TEXT, N_("measurement system model") },
  { "instrument.accuracy_mm", NB_FIELD_POSITIVE, N_("stated accuracy, mm") },
  { "instrument.sample_rate_hz", NB_FIELD_POSITIVE, N_("sample rate, Hz") },
  { "instrument.registration", NB_FIELD_TEXT, N_("frame registration (method, reference points)") },
  { "instrument.registration_rms_mm", NB_FIELD_NUMBER, N_("registration residual RMS, mm") },
  { "instrument.registration_max_mm", NB_FIELD_NUMBER, N_("registration residual max, mm") },
  { "instrument.registration_transform", NB_FIELD_TEXT,
    N_("instrument → test area: rotation rows and translation (mm), JSON") },
  { "operator", NB_FIELD_TEXT, N_("test operator") },
  { "notes", NB_FIELD_TEXT, N_("free notes") },
};

const NbCampaignField *
nb_campaign_fields (guint *n_fields)
{
  *n_fields = G_N_ELEMENTS (campaign_fields);
  return campaign_fields;
}

const NbCampaignField *
nb_campaign_field_find (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (campaign_fields); i++)
    if (g_str_equal (campaign_fields[i].key, key))
      return &campaign_fields[i];
  return NULL;
}

/* -------------------------------------------------------- statements -- */

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

static const char *const statement_sql[N_STATEMENTS] = {
  [ST_INSERT_CHUNK] =
    "INSERT INTO sample_chunk (trial_id, seq, n, t_first, t_last, data) VALUES (?, ?, ?, ?, ?, ?)",
  /* Samples go only to a trial in flight: raw data is not edited afterwards. */
  [ST_ADD_SAMPLES] =
    "UPDATE trial SET n_samples = n_samples + ? WHERE id = ? AND outcome = 'running'",
  [ST_NEXT_CHUNK_SEQ] = "SELECT coalesce (max (seq), 0) + 1 FROM sample_chunk WHERE trial_id = ?",
  [ST_SELECT_CHUNKS] = "SELECT n, data FROM sample_chunk WHERE trial_id = ? ORDER BY seq",
  [ST_INSERT_EVENT] =
    "INSERT INTO event (time, who, what, subject, old_value, new_value, note) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)",
  [ST_INSERT_TRIAL] =
    "INSERT INTO trial (config_id, seq, number, label, kind, start_time, outcome) "
    "VALUES (?, ?, ?, ?, ?, ?, 'running')",
  [ST_END_TRIAL] =
    "UPDATE trial SET number = ?, label = ?, kind = ?, start_time = ?, end_time = ?, "
    "outcome = ?, reason = ?, time_s = ?, command_x_mm = ?, command_y_mm = ?, "
    "command_theta_deg = ?, attained_x_mm = ?, attained_y_mm = ?, attained_theta_deg = ?, "
    "angle_deg = ?, true_mm = ?, measured_mm = ?, detected = ?, corners = ? "
    "WHERE id = ? AND outcome = 'running'",
  [ST_NEXT_TRIAL_SEQ] = "SELECT coalesce (max (seq), 0) + 1 FROM trial WHERE config_id = ?",
  [ST_TRIAL_SUBJECT] =
    "SELECT c.clause, c.name, t.seq FROM trial t JOIN config c ON c.id = t.config_id "
    "WHERE t.id = ?",
};

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

/* ---------------------------------------------------------- helpers -- */

static gboolean
sql_error (NbCampaign *c, int rc, const char *doing, GError **error)
{
  const char *msg = c->db ? sqlite3_errmsg (c->db) : sqlite3_errstr (rc);
  int primary = rc & 0xff;

  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB)
    g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                 "%s: the campaign file is damaged (%s) while %s", c->path, msg, doing);
  else if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
    g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                 "%s: campaign is busy in another navbench (%s) while %s", c->path, msg, doing);
  else
    g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s while %s", c->path, msg, doing);
  return FALSE;
}

static sqlite3_stmt *
get_stmt (NbCampaign *c, StatementId id, GError **error)
{
  sqlite3_stmt *s = c->stmt[id];

  if (s == NULL)
    {
      int rc = sqlite3_prepare_v3 (c->db, statement_sql[id], -1, SQLITE_PREPARE_PERSISTENT,
                                   &c->stmt[id], NULL);

      if (rc != SQLITE_OK)
        {
          sql_error (c, rc, "preparing a statement", error);
          return NULL;
        }
      s = c->stmt[id];
    }
  return s;
}

static void
done_stmt (sqlite3_stmt *s)
{
  sqlite3_reset (s);
  sqlite3_clear_bindings (s);
}

/* SQLite stores a NaN as NULL; NULL reads back as NaN. */
static void
bind_double (sqlite3_stmt *s, int i, double v)
{
  if (isnan (v))
    sqlite3_bind_null (s, i);
  else
    sqlite3_bind_double (s, i, v);
}

static double
column_double (sqlite3_stmt *s, int i)
{
  return sqlite3_column_type (s, i) == SQLITE_NULL ? NAN : sqlite3_column_double (s, i);
}

static void
bind_text (sqlite3_stmt *s, int i, const char *v)
{
  if (v == NULL)
    sqlite3_bind_null (s, i);
  else
    sqlite3_bind_text (s, i, v, -1, SQLITE_TRANSIENT);
}

static char *
column_text (sqlite3_stmt *s, int i)
{
  const unsigned char *t = sqlite3_column_text (s, i);

  return t ? g_strdup ((const char *) t) : NULL;
}

static void
pack_doubles (const double *v, guint n, guint8 *out)
{
  for (guint i = 0; i < n; i++)
    {
      guint64 u;

      memcpy (&u, &v[i], 8);
      u = GUINT64_TO_LE (u);
      memcpy (out + 8 * i, &u, 8);
    }
}

static void
unpack_doubles (const guint8 *in, guint n, double *v)
{
  for (guint i = 0; i < n; i++)
    {
      guint64 u;

      memcpy (&u, in + 8 * i, 8);
      u = GUINT64_FROM_LE (u);
      memcpy (&v[i], &u, 8);
    }
}

/* Runs SQL without parameters (schema, pragmas, transaction control). */
static gboolean
exec (NbCampaign *c, const char *sql, const char *doing, GError **error)
{
  int rc = sqlite3_exec (c->db, sql, NULL, NULL, NULL);

  return rc == SQLITE_OK || sql_error (c, rc, doing, error);
}

/* One integer from a statement without parameters. */
static gboolean
query_int (NbCampaign *c, const char *sql, gint64 *out, GError **error)
{
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2 (c->db, sql, -1, &s, NULL);

  if (rc == SQLITE_OK && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      *out = sqlite3_column_int64 (s, 0);
      sqlite3_finalize (s);
      return TRUE;
    }
  sqlite3_finalize (s);
  return sql_error (c, rc, "reading the campaign", error);
}

static char *
now_iso8601 (void)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();

  return g_date_time_format_iso8601 (now);
}

/* ----------------------------------------------------- transactions -- */

static gboolean
tx_ensure (NbCampaign *c, GError **error)
{
  if (!sqlite3_get_autocommit (c->db))
    return TRUE;
  /* IMMEDIATE: the write lock now, not a BUSY in the middle. */
  return exec (c, "BEGIN IMMEDIATE", "starting a transaction", error);
}

static void
tx_rollback (NbCampaign *c)
{
  if (!sqlite3_get_autocommit (c->db))
    sqlite3_exec (c->db, "ROLLBACK", NULL, NULL, NULL);
  c->batch_open = FALSE;
  c->batch_start_us = 0;
  c->seq_trial = 0;             /* chunk numbers may have been rolled back */
  c->user_depth = 0;
}

/* Commits unless the caller groups writes (nb_campaign_transaction_begin). */
static gboolean
tx_finish (NbCampaign *c, GError **error)
{
  if (c->user_depth > 0 || sqlite3_get_autocommit (c->db))
    return TRUE;
  if (!exec (c, "COMMIT", "committing", error))
    {
      tx_rollback (c);
      return FALSE;
    }
  c->batch_open = FALSE;
  if (c->buf_n == 0)
    c->batch_start_us = 0;
  return TRUE;
}

/* An atomic write failed: undo it (and the batch it joined) unless the caller
 * groups writes, in which case the caller rolls back. */
static gboolean
tx_fail (NbCampaign *c)
{
  if (c->user_depth == 0)
    tx_rollback (c);
  return FALSE;
}

gboolean
nb_campaign_transaction_begin (NbCampaign *c, GError **error)
{
  if (c->user_depth == 0 && !tx_ensure (c, error))
    return FALSE;
  c->user_depth++;
  return TRUE;
}

gboolean
nb_campaign_transaction_commit (NbCampaign *c, GError **error)
{
  g_return_val_if_fail (c->user_depth > 0, FALSE);
  if (--c->user_depth > 0)
    return TRUE;
  return tx_finish (c, error);
}

void
nb_campaign_transaction_rollback (NbCampaign *c)
{
  tx_rollback (c);
  c->buf_n = 0;
}

/* ------------------------------------------------------- event log -- */

static gboolean
log_event (NbCampaign *c, const char *what, const char *subject, const char *old_value,
           const char *new_value, const char *note, GError **error)
{
  sqlite3_stmt *s = get_stmt (c, ST_INSERT_EVENT, error);
  g_autofree char *now = now_iso8601 ();
  int rc;

  if (s == NULL)
    return FALSE;
  bind_text (s, 1, now);
  bind_text (s, 2, c->who);
  bind_text (s, 3, what);
  bind_text (s, 4, subject);
  bind_text (s, 5, old_value);
  bind_text (s, 6, new_value);
  bind_text (s, 7, note);
  rc = sqlite3_step (s);
  done_stmt (s);
  return rc == SQLITE_DONE || sql_error (c, rc, "writing the event log", error);
}

gboolean
nb_campaign_log (NbCampaign *c, const char *what, const char *subject, const char *old_value,
                 const char *new_value, GError **error)
{
  if (!tx_ensure (c, error))
    return FALSE;
  if (!log_event (c, what, subject, old_value, new_value, NULL, error))
    return tx_fail (c);
  return tx_finish (c, error);
}

/* "clause 8 'straight A' trial 3" */
static char *
trial_subject (NbCampaign *c, gint64 trial_id, GError **error)
{
  sqlite3_stmt *s = get_stmt (c, ST_TRIAL_SUBJECT, error);
  char *subject = NULL;
  int rc;

  if (s == NULL)
    return NULL;
  sqlite3_bind_int64 (s, 1, trial_id);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    subject = g_strdup_printf ("clause %d '%s' trial %d", sqlite3_column_int (s, 0),
                               (const char *) sqlite3_column_text (s, 1),
                               sqlite3_column_int (s, 2));
  else if (rc == SQLITE_DONE)
    g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no trial %" G_GINT64_FORMAT, c->path,
                 trial_id);
  else
    sql_error (c, rc, "reading a trial", error);
  done_stmt (s);
  return subject;
}

/* ------------------------------------------------------ open, close -- */

static guint32
read_be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

static gboolean
wal_has_frames (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  struct stat st;

  /* A WAL header alone (32 bytes) holds no pages. */
  return stat (wal, &st) == 0 && st.st_size > 32;
}

/* Everything that can be told from the file's first 100 bytes and its size,
 * before SQLite touches it: a foreign, empty or truncated file is refused
 * without a single byte written. */
static gboolean
check_header (int fd, const char *path, GError **error)
{
  guint8 h[100];
  struct stat st;
  guint32 page_size, pages, app_id;
  ssize_t got;

  if (fstat (fd, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", path, g_strerror (saved));
      return FALSE;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: not a regular file, not a navbench "
                   "campaign", path);
      return FALSE;
    }
  if (st.st_size == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: an empty file, not a navbench campaign",
                   path);
      return FALSE;
    }
  got = pread (fd, h, sizeof h, 0);
  if (got < 16 || memcmp (h, "SQLite format 3", 16) != 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: not a navbench campaign (not a SQLite database)", path);
      return FALSE;
    }
  if (got < (ssize_t) sizeof h)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: truncated: %lld bytes, shorter than a SQLite header", path,
                   (long long) st.st_size);
      return FALSE;
    }
  app_id = read_be32 (h + 68);
  if (app_id != NB_CAMPAIGN_APPLICATION_ID)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: a SQLite database, but not a navbench campaign (application_id 0x%08x)",
                   path, app_id);
      return FALSE;
    }
  page_size = ((guint32) h[16] << 8) | h[17];
  if (page_size == 1)
    page_size = 65536;
  if (page_size < 512 || (page_size & (page_size - 1)) != 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: the campaign file is damaged (page size %u in its header)", path,
                   page_size);
      return FALSE;
    }
  /* The in-header size is valid when the change counter matches
   * version-valid-for; pages still in the WAL may legitimately be missing
   * from the main file (a checkpoint interrupted by a crash). */
  pages = read_be32 (h + 28);
  if (!wal_has_frames (path) &&
      ((guint64) st.st_size % page_size != 0 ||
       (pages > 0 && read_be32 (h + 24) == read_be32 (h + 92) &&
        (guint64) st.st_size < (guint64) pages * page_size)))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: truncated: %lld bytes where its header promises %u pages of %u bytes",
                   path, (long long) st.st_size, pages, page_size);
      return FALSE;
    }
  return TRUE;
}

static gboolean
take_lock (NbCampaign *c, gboolean *taken, GError **error)
{
  while (flock (c->lock_fd, LOCK_EX | LOCK_NB) != 0)
    {
      int saved = errno;

      if (saved == EINTR)
        continue;
      if (saved == EWOULDBLOCK)
        {
          *taken = FALSE;
          return TRUE;
        }
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: locking: %s", c->path,
                   g_strerror (saved));
      return FALSE;
    }
  *taken = TRUE;
  return TRUE;
}

static gboolean
configure (NbCampaign *c, GError **error)
{
  sqlite3_extended_result_codes (c->db, 1);
  /* A reader may meet a writer's checkpoint. */
  sqlite3_busy_timeout (c->db, 5000);
  /* FULL: a committed trial survives a power cut too, not only a crash. */
  return exec (c, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;", "configuring", error);
}

static gboolean
migrate (NbCampaign *c, guint from, GError **error)
{
  g_autofree char *old = g_strdup_printf ("%u", from);
  g_autofree char *new = g_strdup_printf ("%u", NB_CAMPAIGN_SCHEMA_VERSION);
  g_autofree char *pragma = g_strdup_printf ("PRAGMA user_version = %d",
                                             NB_CAMPAIGN_SCHEMA_VERSION);

  /* One transaction: a migration interrupted leaves the old schema whole. */
  if (!tx_ensure (c, error))
    return FALSE;
  for (guint v = from; v < NB_CAMPAIGN_SCHEMA_VERSION; v++)
    if (!exec (c, migrations[v], "migrating the schema", error))
      return tx_fail (c);
  if (!exec (c, pragma, "migrating the schema", error) ||
      (from > 0 && !log_event (c, "schema migrated", NULL, old, new, NULL, error)))
    return tx_fail (c);
  return tx_finish (c, error);
}

/* The trials a dead writer left in flight (ISO protocols keep them, marked). */
static gboolean
recover (NbCampaign *c, GError **error)
{
  static const char reason[] =
    "the recording stopped before the trial ended (navbench was interrupted)";
  sqlite3_stmt *s = NULL;
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  int rc;

  rc = sqlite3_prepare_v2 (c->db, "SELECT id FROM trial WHERE outcome = 'running' ORDER BY id",
                           -1, &s, NULL);
  while (rc == SQLITE_OK && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 0);

      g_array_append_val (ids, id);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE && rc != SQLITE_OK)
    return sql_error (c, rc, "looking for trials in flight", error);
  if (ids->len == 0)
    return TRUE;

  if (!tx_ensure (c, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (c->db,
                           "UPDATE trial SET outcome = 'incomplete', reason = ? WHERE id = ?",
                           -1, &s, NULL);
  for (guint i = 0; rc == SQLITE_OK && i < ids->len; i++)
    {
      gint64 id = g_array_index (ids, gint64, i);
      g_autofree char *subject = NULL;

      sqlite3_bind_text (s, 1, reason, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (s, 2, id);
      rc = sqlite3_step (s);
      sqlite3_reset (s);
      if (rc != SQLITE_DONE)
        break;
      rc = SQLITE_OK;
      if ((subject = trial_subject (c, id, error)) == NULL ||
          !log_event (c, "trial marked incomplete", subject, "running", "incomplete", reason,
                      error))
        {
          sqlite3_finalize (s);
          return tx_fail (c);
        }
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_OK)
    {
      sql_error (c, rc, "marking trials incomplete", error);
      return tx_fail (c);
    }
  c->recovered = ids->len;
  return tx_finish (c, error);
}

/* A cheap look at every table (its root and rightmost pages, never the
 * samples): damage there is reported at open, not in the middle of a test. */
static gboolean
check_tables (NbCampaign *c, GError **error)
{
  static const char *const probes[] = {
    "SELECT count(*) FROM field",
    "SELECT coalesce (max (id), 0) FROM config",
    "SELECT coalesce (max (id), 0) FROM trial",
    "SELECT coalesce (max (id), 0) FROM sample_chunk",
    "SELECT coalesce (max (id), 0) FROM event",
  };
  gint64 marked;

  if (!query_int (c, "SELECT count(*) FROM meta WHERE key = 'format' "
                  "AND value = 'navbench campaign'", &marked, error))
    return FALSE;
  if (marked != 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: not a navbench campaign (no format mark)", c->path);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (probes); i++)
    {
      gint64 ignored;

      if (!query_int (c, probes[i], &ignored, error))
        return FALSE;
    }
  return TRUE;
}

static NbCampaign *
campaign_new (const char *path)
{
  NbCampaign *c = g_new0 (NbCampaign, 1);

  c->path = g_strdup (path);
  c->lock_fd = -1;
  c->who = g_strdup (g_get_user_name ());
  c->buf = g_new (NbTrackSample, NB_CHUNK_MAX_SAMPLES);
  c->packed = g_malloc (nb_sample_chunk_size (NB_CHUNK_MAX_SAMPLES));
  return c;
}

static gboolean
open_db (NbCampaign *c, int flags, GError **error)
{
  int rc = sqlite3_open_v2 (c->path, &c->db, flags | SQLITE_OPEN_NOMUTEX, NULL);

  if (rc != SQLITE_OK)
    return sql_error (c, rc, "opening", error);
  return configure (c, error);
}

NbCampaign *
nb_campaign_create (const char *path, const char *name, GError **error)
{
  g_autoptr (NbCampaign) c = campaign_new (path);
  g_autofree char *now = now_iso8601 ();
  g_autofree char *pragmas = g_strdup_printf ("PRAGMA application_id = %d; "
                                              "PRAGMA user_version = %d;",
                                              NB_CAMPAIGN_APPLICATION_ID,
                                              NB_CAMPAIGN_SCHEMA_VERSION);
  sqlite3_stmt *s = NULL;
  gboolean taken;
  int rc;

  if (name == NULL || *name == '\0' || !g_utf8_validate (name, -1, NULL))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "a campaign needs a name (UTF-8)");
      return NULL;
    }
  /* O_EXCL: never overwrite; the empty file is locked before SQLite sees it. */
  c->lock_fd = open (path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (c->lock_fd < 0)
    {
      int saved = errno;

      g_set_error (error, NB_ERROR, saved == EEXIST ? NB_ERROR_INPUT : NB_ERROR_FAILED,
                   "%s: %s", path,
                   saved == EEXIST ? "already exists; a new campaign needs a new file"
                                   : g_strerror (saved));
      return NULL;
    }
  if (!take_lock (c, &taken, error) || !taken)
    {
      if (error && *error == NULL)
        g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: campaign is open in another navbench",
                     path);
      unlink (path);
      return NULL;
    }
  c->writer = TRUE;
  /* Built in rollback mode so the header (application_id) is in the main
   * file from the first commit; then WAL for the campaign's life. */
  /* 16 KiB pages: a chunk of 4096 samples (147 KiB) spans 9 overflow pages
   * instead of 36, and the default WAL checkpoint (1000 pages) moves 16 MiB
   * at a time — ingest measured 2× faster than with 4 KiB pages, for 1.6 %
   * of file over the packed samples (tests/bench/bench-ingest). */
  if (!open_db (c, SQLITE_OPEN_READWRITE, error) ||
      !exec (c, "PRAGMA page_size = 16384", "creating", error) ||
      !exec (c, "BEGIN IMMEDIATE", "creating", error))
    goto fail;
  for (guint v = 0; v < NB_CAMPAIGN_SCHEMA_VERSION; v++)
    if (!exec (c, migrations[v], "creating the schema", error))
      goto fail;
  if (!exec (c, pragmas, "creating", error))
    goto fail;
  rc = sqlite3_prepare_v2 (c->db, "INSERT INTO meta (key, value) VALUES ('format', "
                           "'navbench campaign'), ('name', ?1), ('created', ?2)", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_text (s, 1, name, -1, SQLITE_STATIC);
      sqlite3_bind_text (s, 2, now, -1, SQLITE_STATIC);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      sql_error (c, rc, "creating", error);
      goto fail;
    }
  if (!log_event (c, "campaign created", name, NULL, NULL, NULL, error) ||
      !exec (c, "COMMIT", "creating", error) ||
      !exec (c, "PRAGMA journal_mode = WAL", "creating", error))
    goto fail;
  c->opened_version = NB_CAMPAIGN_SCHEMA_VERSION;
  return g_steal_pointer (&c);

fail:
  sqlite3_close_v2 (c->db);
  c->db = NULL;
  unlink (path);
  {
    g_autofree char *journal = g_strconcat (path, "-journal", NULL);

    unlink (journal);
  }
  return NULL;
}

NbCampaign *
nb_campaign_open (const char *path, NbCampaignOpenFlags flags, GError **error)
{
  g_autoptr (NbCampaign) c = campaign_new (path);
  gboolean read_only = (flags & NB_CAMPAIGN_OPEN_READ_ONLY) != 0;
  gboolean taken = FALSE;
  gint64 app_id, version;

  c->lock_fd = open (path, (read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC);
  if (c->lock_fd < 0)
    {
      int saved = errno;

      g_set_error (error, NB_ERROR, saved == ENOENT ? NB_ERROR_INPUT : NB_ERROR_FAILED,
                   "%s: %s", path,
                   saved == ENOENT ? "no such campaign (create one with 'campaign new')"
                                   : g_strerror (saved));
      return NULL;
    }
  if (!check_header (c->lock_fd, path, error) || !take_lock (c, &taken, error))
    return NULL;
  if (!taken && !read_only)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                   "%s: campaign is open in another navbench (close it there first)", path);
      return NULL;
    }
  /* A reader that finds no live writer may finish what a dead one left
   * (migration, trials in flight); with a live writer it only reads. */
  c->writer = taken;
  if (!open_db (c, taken ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, error) ||
      !query_int (c, "PRAGMA application_id", &app_id, error) ||
      !query_int (c, "PRAGMA user_version", &version, error))
    return NULL;
  if (app_id != NB_CAMPAIGN_APPLICATION_ID || version == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: not a navbench campaign", path);
      return NULL;
    }
  if (version > NB_CAMPAIGN_SCHEMA_VERSION)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: written by a newer navbench (campaign schema %" G_GINT64_FORMAT
                   "; this navbench reads up to %d): not opened, so that it stays intact", path,
                   version, NB_CAMPAIGN_SCHEMA_VERSION);
      return NULL;
    }
  c->opened_version = (guint) version;
  if (!check_tables (c, error))
    return NULL;
  if (version < NB_CAMPAIGN_SCHEMA_VERSION)
    {
      if (!taken)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                       "%s: campaign schema %" G_GINT64_FORMAT " needs upgrading to %d, but it "
                       "is open in another navbench", path, version, NB_CAMPAIGN_SCHEMA_VERSION);
          return NULL;
        }
      if (!migrate (c, (guint) version, error))
        return NULL;
    }
  if (taken)
    {
      if (!exec (c, "PRAGMA journal_mode = WAL", "opening", error) || !recover (c, error))
        return NULL;
      if (read_only)
        {
          /* Unlocking, not closing: closing another descriptor of the file
           * would drop SQLite's own POSIX locks on it. */
          flock (c->lock_fd, LOCK_UN);
          c->writer = FALSE;
        }
    }
  return g_steal_pointer (&c);
}

void
nb_campaign_free (NbCampaign *c)
{
  if (c == NULL)
    return;
  for (guint i = 0; i < N_STATEMENTS; i++)
    sqlite3_finalize (c->stmt[i]);
  if (c->db != NULL)
    {
      if (!sqlite3_get_autocommit (c->db))
        sqlite3_exec (c->db, "ROLLBACK", NULL, NULL, NULL);
      sqlite3_close_v2 (c->db);
    }
  /* After SQLite is closed (see nb_campaign_open). */
  if (c->lock_fd >= 0)
    close (c->lock_fd);
  g_free (c->who);
  g_free (c->buf);
  g_free (c->packed);
  g_free (c->path);
  g_free (c);
}

gboolean
nb_campaign_close (NbCampaign *c, GError **error)
{
  gboolean ok = TRUE;

  if (c->user_depth > 0)
    {
      /* An unfinished group of writes is not committed half. */
      tx_rollback (c);
      c->buf_n = 0;
    }
  else if (c->writer)
    ok = nb_campaign_flush (c, error);
  nb_campaign_free (c);
  return ok;
}

const char *
nb_campaign_get_path (const NbCampaign *c)
{
  return c->path;
}

guint
nb_campaign_get_recovered_trials (const NbCampaign *c)
{
  return c->recovered;
}

guint
nb_campaign_get_opened_version (const NbCampaign *c)
{
  return c->opened_version;
}

void
nb_campaign_set_who (NbCampaign *c, const char *who)
{
  g_free (c->who);
  c->who = g_strdup (who);
}

static gboolean
require_writer (NbCampaign *c, GError **error)
{
  if (c->writer)
    return TRUE;
  g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: opened read-only", c->path);
  return FALSE;
}

/* ------------------------------------------------------------ fields -- */

static gboolean
check_field_value (const NbCampaignField *f, const char *value, char **canonical, GError **error)
{
  double v;

  if (!g_utf8_validate (value, -1, NULL))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the value is not valid UTF-8", f->key);
      return FALSE;
    }
  switch (f->type)
    {
    case NB_FIELD_TEXT:
      *canonical = g_strdup (value);
      return TRUE;
    case NB_FIELD_NUMBER:
    case NB_FIELD_POSITIVE:
    case NB_FIELD_PERCENT:
      if (!nb_parse_double (value, strlen (value), &v))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: '%s' is not a finite number",
                       f->key, value);
          return FALSE;
        }
      if (f->type == NB_FIELD_POSITIVE && !(v > 0.0))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: must be positive, got %s", f->key,
                       value);
          return FALSE;
        }
      if (f->type == NB_FIELD_PERCENT && !(v >= 0.0 && v <= 100.0))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: a percentage is 0 to 100, got %s",
                       f->key, value);
          return FALSE;
        }
      *canonical = g_strstrip (g_strdup (value));
      return TRUE;
    case NB_FIELD_BOOL:
      if (g_str_equal (value, "yes") || g_str_equal (value, "no"))
        {
          *canonical = g_strdup (value);
          return TRUE;
        }
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: expected yes or no, got '%s'", f->key,
                   value);
      return FALSE;
    case NB_FIELD_ENVIRONMENT:
      if (g_str_equal (value, "indoor") || g_str_equal (value, "outdoor"))
        {
          *canonical = g_strdup (value);
          return TRUE;
        }
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: expected indoor or outdoor, got '%s'",
                   f->key, value);
      return FALSE;
    }
  g_assert_not_reached ();
}

char *
nb_campaign_get_field (NbCampaign *c, const char *key, GError **error)
{
  sqlite3_stmt *s = NULL;
  char *value = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "SELECT value FROM field WHERE key = ?", -1, &s, NULL);

  if (rc == SQLITE_OK)
    {
      sqlite3_bind_text (s, 1, key, -1, SQLITE_STATIC);
      rc = sqlite3_step (s);
      if (rc == SQLITE_ROW)
        value = column_text (s, 0);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    sql_error (c, rc, "reading a field", error);
  return value;
}

gboolean
nb_campaign_set_field (NbCampaign *c, const char *key, const char *value, GError **error)
{
  const NbCampaignField *f = nb_campaign_field_find (key);
  g_autofree char *canonical = NULL, *old = NULL;
  g_autoptr (GError) local = NULL;
  sqlite3_stmt *s = NULL;
  int rc;

  if (f == NULL)
    {
      if (g_str_equal (key, "robot.lu_mm"))
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "robot.lu_mm is derived from robot.width_mm (ISO 18646-2 4.5); set that");
      else
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "unknown field '%s' (see 'campaign set --help')", key);
      return FALSE;
    }
  if (*value != '\0' && !check_field_value (f, value, &canonical, error))
    return FALSE;
  if (!require_writer (c, error) || !tx_ensure (c, error))
    return FALSE;
  old = nb_campaign_get_field (c, key, &local);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return tx_fail (c);
    }
  if (g_strcmp0 (old, canonical) == 0)
    return tx_finish (c, error);
  /* An empty value unsets the field. */
  rc = sqlite3_prepare_v2 (c->db, canonical
                           ? "INSERT INTO field (key, value) VALUES (?1, ?2) "
                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                           : "DELETE FROM field WHERE key = ?1", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_text (s, 1, key, -1, SQLITE_STATIC);
      if (canonical)
        sqlite3_bind_text (s, 2, canonical, -1, SQLITE_STATIC);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      sql_error (c, rc, "setting a field", error);
      return tx_fail (c);
    }
  if (!log_event (c, "field set", key, old, canonical, NULL, error))
    return tx_fail (c);
  return tx_finish (c, error);
}

gboolean
nb_campaign_get_lu_mm (NbCampaign *c, double *lu_mm, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *w = nb_campaign_get_field (c, "robot.width_mm", &local);
  double width;

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (w == NULL || !nb_parse_double (w, strlen (w), &width))
    return FALSE;
  return nb_lu_mm (width, lu_mm, error);
}

char *
nb_campaign_get_name (NbCampaign *c, GError **error)
{
  sqlite3_stmt *s = NULL;
  char *value = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "SELECT value FROM meta WHERE key = 'name'", -1, &s, NULL);

  if (rc == SQLITE_OK && (rc = sqlite3_step (s)) == SQLITE_ROW)
    value = column_text (s, 0);
  sqlite3_finalize (s);
  if (value == NULL)
    sql_error (c, rc, "reading the campaign's name", error);
  return value;
}

/* --------------------------------------------------- configurations -- */

static void
corners_init (double corners[4][2])
{
  for (guint i = 0; i < 4; i++)
    corners[i][0] = corners[i][1] = NAN;
}

static gboolean
corners_set (const double corners[4][2])
{
  for (guint i = 0; i < 4; i++)
    if (!isnan (corners[i][0]) || !isnan (corners[i][1]))
      return TRUE;
  return FALSE;
}

static void
bind_corners (sqlite3_stmt *s, int i, const double corners[4][2])
{
  guint8 packed[64];

  if (!corners_set (corners))
    {
      sqlite3_bind_null (s, i);
      return;
    }
  pack_doubles (&corners[0][0], 8, packed);
  sqlite3_bind_blob (s, i, packed, sizeof packed, SQLITE_TRANSIENT);
}

static void
column_corners (sqlite3_stmt *s, int i, double corners[4][2])
{
  if (sqlite3_column_bytes (s, i) == 64)
    unpack_doubles (sqlite3_column_blob (s, i), 8, &corners[0][0]);
  else
    corners_init (corners);
}

void
nb_campaign_config_init (NbCampaignConfig *config)
{
  memset (config, 0, sizeof *config);
  config->load_kg = NAN;
  config->command = (NbPose) { NAN, NAN, NAN };
  config->from_mm[0] = config->from_mm[1] = config->to_mm[0] = config->to_mm[1] = NAN;
  corners_init (config->truth_mm);
}

void
nb_campaign_config_clear (NbCampaignConfig *config)
{
  g_clear_pointer (&config->name, g_free);
  g_clear_pointer (&config->route, g_free);
  g_clear_pointer (&config->obstacle, g_free);
  g_clear_pointer (&config->behaviour, g_free);
  g_clear_pointer (&config->parameters, g_free);
}

static void
config_clear_func (gpointer p)
{
  nb_campaign_config_clear (p);
}

#define CONFIG_COLUMNS                                                                      \
  "id, clause, name, route, load_kg, obstacle, behaviour, parameters, command_x_mm, "       \
  "command_y_mm, command_theta_deg, from_x_mm, from_y_mm, to_x_mm, to_y_mm, truth"

static void
config_from_row (sqlite3_stmt *s, NbCampaignConfig *c)
{
  nb_campaign_config_init (c);
  c->id = sqlite3_column_int64 (s, 0);
  c->clause = (guint) sqlite3_column_int (s, 1);
  c->name = column_text (s, 2);
  c->route = column_text (s, 3);
  c->load_kg = column_double (s, 4);
  c->obstacle = column_text (s, 5);
  c->behaviour = column_text (s, 6);
  c->parameters = column_text (s, 7);
  c->command = (NbPose) { column_double (s, 8), column_double (s, 9), column_double (s, 10) };
  c->from_mm[0] = column_double (s, 11);
  c->from_mm[1] = column_double (s, 12);
  c->to_mm[0] = column_double (s, 13);
  c->to_mm[1] = column_double (s, 14);
  column_corners (s, 15, c->truth_mm);
}

gboolean
nb_campaign_add_config (NbCampaign *c, NbCampaignConfig *config, GError **error)
{
  g_autofree char *now = now_iso8601 ();
  g_autofree char *subject = NULL;
  sqlite3_stmt *s = NULL;
  int rc;

  if (config->clause < 5 || config->clause > 10)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause %u: the test clauses are 5 to 10",
                   config->clause);
      return FALSE;
    }
  if (config->name == NULL || *config->name == '\0' || !g_utf8_validate (config->name, -1, NULL))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "a configuration needs a name (UTF-8)");
      return FALSE;
    }
  if (!require_writer (c, error) || !tx_ensure (c, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (c->db,
                           "INSERT INTO config (clause, name, route, load_kg, obstacle, behaviour, "
                           "parameters, command_x_mm, command_y_mm, command_theta_deg, from_x_mm, "
                           "from_y_mm, to_x_mm, to_y_mm, truth, created) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int (s, 1, (int) config->clause);
      bind_text (s, 2, config->name);
      bind_text (s, 3, config->route);
      bind_double (s, 4, config->load_kg);
      bind_text (s, 5, config->obstacle);
      bind_text (s, 6, config->behaviour);
      bind_text (s, 7, config->parameters);
      bind_double (s, 8, config->command.x_mm);
      bind_double (s, 9, config->command.y_mm);
      bind_double (s, 10, config->command.theta_deg);
      bind_double (s, 11, config->from_mm[0]);
      bind_double (s, 12, config->from_mm[1]);
      bind_double (s, 13, config->to_mm[0]);
      bind_double (s, 14, config->to_mm[1]);
      bind_corners (s, 15, config->truth_mm);
      bind_text (s, 16, now);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc == SQLITE_CONSTRAINT_UNIQUE)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: clause %u already has a configuration named '%s'", c->path,
                   config->clause, config->name);
      return tx_fail (c);
    }
  if (rc != SQLITE_DONE)
    {
      sql_error (c, rc, "adding a configuration", error);
      return tx_fail (c);
    }
  config->id = sqlite3_last_insert_rowid (c->db);
  subject = g_strdup_printf ("clause %u '%s'", config->clause, config->name);
  if (!log_event (c, "configuration added", subject, NULL, NULL, NULL, error))
    return tx_fail (c);
  return tx_finish (c, error);
}

gboolean
nb_campaign_find_config (NbCampaign *c, guint clause, const char *name, NbCampaignConfig *config,
                         GError **error)
{
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "SELECT " CONFIG_COLUMNS " FROM config "
                               "WHERE clause = ? AND name = ?", -1, &s, NULL);

  nb_campaign_config_init (config);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int (s, 1, (int) clause);
      sqlite3_bind_text (s, 2, name, -1, SQLITE_STATIC);
      rc = sqlite3_step (s);
      if (rc == SQLITE_ROW)
        config_from_row (s, config);
    }
  sqlite3_finalize (s);
  if (rc == SQLITE_ROW)
    return TRUE;
  if (rc != SQLITE_DONE)
    sql_error (c, rc, "reading a configuration", error);
  return FALSE;
}

GArray *
nb_campaign_list_configs (NbCampaign *c, guint clause, GError **error)
{
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (NbCampaignConfig));
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "SELECT " CONFIG_COLUMNS " FROM config "
                               "WHERE ?1 = 0 OR clause = ?1 ORDER BY clause, id", -1, &s, NULL);

  g_array_set_clear_func (out, config_clear_func);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int (s, 1, (int) clause);
      while ((rc = sqlite3_step (s)) == SQLITE_ROW)
        {
          NbCampaignConfig config;

          config_from_row (s, &config);
          g_array_append_val (out, config);
        }
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      sql_error (c, rc, "listing configurations", error);
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* ----------------------------------------------------------- trials -- */

static const char *const outcome_names[] = {
  [NB_TRIAL_RUNNING] = "running",
  [NB_TRIAL_OK] = "ok",
  [NB_TRIAL_FAILED] = "failed",
  [NB_TRIAL_ABORTED] = "aborted",
  [NB_TRIAL_INCOMPLETE] = "incomplete",
};

const char *
nb_trial_outcome_to_string (NbTrialOutcome outcome)
{
  return outcome <= NB_TRIAL_INCOMPLETE ? outcome_names[outcome] : "?";
}

gboolean
nb_trial_outcome_from_string (const char *s, NbTrialOutcome *outcome)
{
  for (guint i = 0; i < G_N_ELEMENTS (outcome_names); i++)
    if (g_strcmp0 (s, outcome_names[i]) == 0)
      {
        *outcome = (NbTrialOutcome) i;
        return TRUE;
      }
  return FALSE;
}

void
nb_campaign_trial_init (NbCampaignTrial *t)
{
  memset (t, 0, sizeof *t);
  t->start_time = t->end_time = t->time_s = NAN;
  t->command = t->attained = (NbPose) { NAN, NAN, NAN };
  t->angle_deg = t->true_mm = t->measured_mm = NAN;
  t->outcome = NB_TRIAL_RUNNING;
  corners_init (t->corners_mm);
}

void
nb_campaign_trial_clear (NbCampaignTrial *t)
{
  g_clear_pointer (&t->label, g_free);
  g_clear_pointer (&t->kind, g_free);
  g_clear_pointer (&t->reason, g_free);
}

static void
trial_clear_func (gpointer p)
{
  nb_campaign_trial_clear (p);
}

static gboolean
step_done (NbCampaign *c, sqlite3_stmt *s, const char *doing, GError **error)
{
  int rc = sqlite3_step (s);

  done_stmt (s);
  return rc == SQLITE_DONE || sql_error (c, rc, doing, error);
}

gboolean
nb_campaign_begin_trial (NbCampaign *c, gint64 config_id, NbCampaignTrial *t, GError **error)
{
  sqlite3_stmt *s;
  int rc;

  if (!require_writer (c, error) || !tx_ensure (c, error))
    return FALSE;
  if ((s = get_stmt (c, ST_NEXT_TRIAL_SEQ, error)) == NULL)
    return tx_fail (c);
  sqlite3_bind_int64 (s, 1, config_id);
  rc = sqlite3_step (s);
  t->seq = rc == SQLITE_ROW ? (guint) sqlite3_column_int (s, 0) : 0;
  done_stmt (s);
  if (rc != SQLITE_ROW)
    {
      sql_error (c, rc, "numbering a trial", error);
      return tx_fail (c);
    }
  if ((s = get_stmt (c, ST_INSERT_TRIAL, error)) == NULL)
    return tx_fail (c);
  sqlite3_bind_int64 (s, 1, config_id);
  sqlite3_bind_int (s, 2, (int) t->seq);
  sqlite3_bind_int64 (s, 3, t->number);
  bind_text (s, 4, t->label);
  bind_text (s, 5, t->kind);
  bind_double (s, 6, t->start_time);
  rc = sqlite3_step (s);
  done_stmt (s);
  if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no configuration %" G_GINT64_FORMAT,
                   c->path, config_id);
      return tx_fail (c);
    }
  if (rc != SQLITE_DONE)
    {
      sql_error (c, rc, "starting a trial", error);
      return tx_fail (c);
    }
  t->id = sqlite3_last_insert_rowid (c->db);
  t->config_id = config_id;
  t->outcome = NB_TRIAL_RUNNING;
  return tx_finish (c, error);
}

static gboolean write_chunk (NbCampaign *c, GError **error);

gboolean
nb_campaign_end_trial (NbCampaign *c, const NbCampaignTrial *t, GError **error)
{
  g_autofree char *subject = NULL;
  sqlite3_stmt *s;

  if (t->outcome == NB_TRIAL_RUNNING || t->outcome > NB_TRIAL_INCOMPLETE)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "a trial ends ok, failed, aborted or incomplete");
      return FALSE;
    }
  if (!require_writer (c, error) || !tx_ensure (c, error))
    return FALSE;
  /* The trial's last samples and its record commit together. */
  if ((c->buf_n > 0 && c->buf_trial == t->id && !write_chunk (c, error)) ||
      (s = get_stmt (c, ST_END_TRIAL, error)) == NULL)
    return tx_fail (c);
  sqlite3_bind_int64 (s, 1, t->number);
  bind_text (s, 2, t->label);
  bind_text (s, 3, t->kind);
  bind_double (s, 4, t->start_time);
  bind_double (s, 5, t->end_time);
  bind_text (s, 6, nb_trial_outcome_to_string (t->outcome));
  bind_text (s, 7, t->reason);
  bind_double (s, 8, t->time_s);
  bind_double (s, 9, t->command.x_mm);
  bind_double (s, 10, t->command.y_mm);
  bind_double (s, 11, t->command.theta_deg);
  bind_double (s, 12, t->attained.x_mm);
  bind_double (s, 13, t->attained.y_mm);
  bind_double (s, 14, t->attained.theta_deg);
  bind_double (s, 15, t->angle_deg);
  bind_double (s, 16, t->true_mm);
  bind_double (s, 17, t->measured_mm);
  sqlite3_bind_int (s, 18, t->detected ? 1 : 0);
  bind_corners (s, 19, t->corners_mm);
  sqlite3_bind_int64 (s, 20, t->id);
  if (!step_done (c, s, "ending a trial", error))
    return tx_fail (c);
  if (sqlite3_changes (c->db) != 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: trial %" G_GINT64_FORMAT
                   " is not in flight", c->path, t->id);
      return tx_fail (c);
    }
  if ((subject = trial_subject (c, t->id, error)) == NULL ||
      !log_event (c, "trial recorded", subject, NULL, nb_trial_outcome_to_string (t->outcome),
                  t->reason, error))
    return tx_fail (c);
  return tx_finish (c, error);
}

gboolean
nb_campaign_record_trial (NbCampaign *c, gint64 config_id, NbCampaignTrial *t, GError **error)
{
  NbTrialOutcome outcome = t->outcome;

  if (!nb_campaign_transaction_begin (c, error))
    return FALSE;
  if (!nb_campaign_begin_trial (c, config_id, t, error))
    goto fail;
  t->outcome = outcome;
  if (!nb_campaign_end_trial (c, t, error))
    goto fail;
  return nb_campaign_transaction_commit (c, error);

fail:
  nb_campaign_transaction_rollback (c);
  return FALSE;
}

GArray *
nb_campaign_list_trials (NbCampaign *c, gint64 config_id, GError **error)
{
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (NbCampaignTrial));
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2 (c->db,
                               "SELECT id, config_id, seq, number, label, kind, start_time, "
                               "end_time, outcome, reason, time_s, command_x_mm, command_y_mm, "
                               "command_theta_deg, attained_x_mm, attained_y_mm, "
                               "attained_theta_deg, angle_deg, true_mm, measured_mm, detected, "
                               "corners, n_samples FROM trial WHERE config_id = ? ORDER BY seq",
                               -1, &s, NULL);

  g_array_set_clear_func (out, trial_clear_func);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, config_id);
      while ((rc = sqlite3_step (s)) == SQLITE_ROW)
        {
          NbCampaignTrial t;

          nb_campaign_trial_init (&t);
          t.id = sqlite3_column_int64 (s, 0);
          t.config_id = sqlite3_column_int64 (s, 1);
          t.seq = (guint) sqlite3_column_int (s, 2);
          t.number = (guint) sqlite3_column_int64 (s, 3);
          t.label = column_text (s, 4);
          t.kind = column_text (s, 5);
          t.start_time = column_double (s, 6);
          t.end_time = column_double (s, 7);
          nb_trial_outcome_from_string ((const char *) sqlite3_column_text (s, 8), &t.outcome);
          t.reason = column_text (s, 9);
          t.time_s = column_double (s, 10);
          t.command = (NbPose) { column_double (s, 11), column_double (s, 12),
                                 column_double (s, 13) };
          t.attained = (NbPose) { column_double (s, 14), column_double (s, 15),
                                  column_double (s, 16) };
          t.angle_deg = column_double (s, 17);
          t.true_mm = column_double (s, 18);
          t.measured_mm = column_double (s, 19);
          t.detected = sqlite3_column_int (s, 20) != 0;
          column_corners (s, 21, t.corners_mm);
          t.n_samples = (guint64) sqlite3_column_int64 (s, 22);
          g_array_append_val (out, t);
        }
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      sql_error (c, rc, "listing trials", error);
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* The values of a recorded trial that may be corrected, each with its own
 * fixed statements: the key picks the SQL, the value is bound. */
typedef enum { EDIT_NUMBER, EDIT_TEXT, EDIT_FLAG, EDIT_OUTCOME } EditType;

static const struct {
  const char *key;
  EditType type;
  const char *select_sql;
  const char *update_sql;
} trial_edits[] = {
#define EDIT(col, type)                                                                     \
  { #col, type, "SELECT " #col " FROM trial WHERE id = ?1",                                 \
    "UPDATE trial SET " #col " = ?2 WHERE id = ?1 AND outcome != 'running'" }
  EDIT (outcome, EDIT_OUTCOME),
  EDIT (reason, EDIT_TEXT),
  EDIT (time_s, EDIT_NUMBER),
  EDIT (attained_x_mm, EDIT_NUMBER),
  EDIT (attained_y_mm, EDIT_NUMBER),
  EDIT (attained_theta_deg, EDIT_NUMBER),
  EDIT (true_mm, EDIT_NUMBER),
  EDIT (measured_mm, EDIT_NUMBER),
  EDIT (detected, EDIT_FLAG),
#undef EDIT
};

/* Clause 10: a map corner corrected by hand ("corner3_x_mm"), the
 * operator's override of what the corner extraction found: one number of
 * the corners blob, the old value kept in the event log. */
static gboolean
edit_corner (NbCampaign *c, gint64 trial_id, const char *key, guint corner, guint axis,
             const char *value, const char *why, GError **error)
{
  g_autofree char *subject = NULL, *old = NULL, *what = NULL;
  double corners[4][2], number;
  guint8 packed[64];
  sqlite3_stmt *s = NULL;
  int rc;

  if (!nb_parse_double (value, strlen (value), &number))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: '%s' is not a finite number", key, value);
      return FALSE;
    }
  if (!require_writer (c, error) || !tx_ensure (c, error))
    return FALSE;
  if ((subject = trial_subject (c, trial_id, error)) == NULL)
    return tx_fail (c);
  rc = sqlite3_prepare_v2 (c->db, "SELECT corners FROM trial WHERE id = ?1", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, trial_id);
      if ((rc = sqlite3_step (s)) == SQLITE_ROW)
        column_corners (s, 0, corners);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_ROW)
    {
      sql_error (c, rc, "reading a trial", error);
      return tx_fail (c);
    }
  if (!corners_set ((const double (*)[2]) corners))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s has no map corners to correct", subject);
      return tx_fail (c);
    }
  old = g_strdup_printf ("%.17g", corners[corner][axis]);
  corners[corner][axis] = number;
  pack_doubles (&corners[0][0], 8, packed);
  rc = sqlite3_prepare_v2 (c->db,
                           "UPDATE trial SET corners = ?2 WHERE id = ?1 AND outcome != 'running'",
                           -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, trial_id);
      sqlite3_bind_blob (s, 2, packed, sizeof packed, SQLITE_TRANSIENT);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE || sqlite3_changes (c->db) != 1)
    {
      if (rc != SQLITE_DONE)
        sql_error (c, rc, "editing a trial", error);
      else
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s is in flight; edit it once it ended",
                     c->path, subject);
      return tx_fail (c);
    }
  what = g_strdup_printf ("trial value edited: %s", key);
  if (!log_event (c, what, subject, old, value, why, error))
    return tx_fail (c);
  return tx_finish (c, error);
}

gboolean
nb_campaign_edit_trial (NbCampaign *c, gint64 trial_id, const char *key, const char *value,
                        const char *why, GError **error)
{
  g_autofree char *subject = NULL, *old = NULL, *what = NULL;
  sqlite3_stmt *s = NULL;
  NbTrialOutcome outcome;
  double number = NAN;
  guint i;
  int rc;

  {
    guint corner;
    char axis;
    int end = 0;

    if (sscanf (key, "corner%1u_%c_mm%n", &corner, &axis, &end) == 2 && key[end] == '\0' &&
        corner >= 1 && corner <= 4 && (axis == 'x' || axis == 'y'))
      {
        if (why == NULL || *why == '\0')
          {
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                         "editing a recorded value needs a reason (it goes into the event log)");
            return FALSE;
          }
        return edit_corner (c, trial_id, key, corner - 1, axis == 'y', value, why, error);
      }
  }
  for (i = 0; i < G_N_ELEMENTS (trial_edits); i++)
    if (g_str_equal (trial_edits[i].key, key))
      break;
  if (i == G_N_ELEMENTS (trial_edits))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "a trial's '%s' cannot be edited", key);
      return FALSE;
    }
  if (why == NULL || *why == '\0')
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "editing a recorded value needs a reason (it goes into the event log)");
      return FALSE;
    }
  switch (trial_edits[i].type)
    {
    case EDIT_NUMBER:
      if (*value != '\0' && !nb_parse_double (value, strlen (value), &number))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: '%s' is not a finite number", key,
                       value);
          return FALSE;
        }
      break;
    case EDIT_FLAG:
      if (!g_str_equal (value, "0") && !g_str_equal (value, "1"))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: expected 0 or 1", key);
          return FALSE;
        }
      break;
    case EDIT_OUTCOME:
      if (!nb_trial_outcome_from_string (value, &outcome) || outcome == NB_TRIAL_RUNNING)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "outcome: expected ok, failed, aborted or incomplete");
          return FALSE;
        }
      break;
    case EDIT_TEXT:
      break;
    }
  if (!require_writer (c, error) || !tx_ensure (c, error))
    return FALSE;
  if ((subject = trial_subject (c, trial_id, error)) == NULL)
    return tx_fail (c);
  rc = sqlite3_prepare_v2 (c->db, trial_edits[i].select_sql, -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, trial_id);
      if ((rc = sqlite3_step (s)) == SQLITE_ROW)
        old = column_text (s, 0);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_ROW)
    {
      sql_error (c, rc, "reading a trial", error);
      return tx_fail (c);
    }
  rc = sqlite3_prepare_v2 (c->db, trial_edits[i].update_sql, -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, trial_id);
      if (trial_edits[i].type == EDIT_NUMBER)
        bind_double (s, 2, number);
      else if (trial_edits[i].type == EDIT_FLAG)
        sqlite3_bind_int (s, 2, g_str_equal (value, "1"));
      else
        bind_text (s, 2, *value ? value : NULL);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      sql_error (c, rc, "editing a trial", error);
      return tx_fail (c);
    }
  if (sqlite3_changes (c->db) != 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s is in flight; edit it once it ended",
                   c->path, subject);
      return tx_fail (c);
    }
  what = g_strdup_printf ("trial value edited: %s", key);
  if (!log_event (c, what, subject, old, *value ? value : NULL, why, error))
    return tx_fail (c);
  return tx_finish (c, error);
}

/* ---------------------------------------------------------- samples -- */

gsize
nb_sample_chunk_size (gsize n)
{
  return NB_CHUNK_HEADER_BYTES + n * NB_SAMPLE_PACKED_BYTES;
}

void
nb_sample_chunk_pack (const NbTrackSample *samples, gsize n, guint8 *out)
{
  guint32 count = GUINT32_TO_LE ((guint32) n);
  guint8 *t = out + NB_CHUNK_HEADER_BYTES;
  guint8 *x = t + 8 * n, *y = x + 8 * n, *th = y + 8 * n, *q = th + 8 * n;

  /* Column by column: a reader of one coordinate touches one run of bytes. */
  memcpy (out, "NBS1", 4);
  memcpy (out + 4, &count, 4);
  for (gsize i = 0; i < n; i++)
    {
      guint64 u;
      guint32 f;

      memcpy (&u, &samples[i].t_s, 8), u = GUINT64_TO_LE (u), memcpy (t + 8 * i, &u, 8);
      memcpy (&u, &samples[i].x_mm, 8), u = GUINT64_TO_LE (u), memcpy (x + 8 * i, &u, 8);
      memcpy (&u, &samples[i].y_mm, 8), u = GUINT64_TO_LE (u), memcpy (y + 8 * i, &u, 8);
      memcpy (&u, &samples[i].theta_deg, 8), u = GUINT64_TO_LE (u), memcpy (th + 8 * i, &u, 8);
      memcpy (&f, &samples[i].quality, 4), f = GUINT32_TO_LE (f), memcpy (q + 4 * i, &f, 4);
    }
}

gboolean
nb_sample_chunk_unpack (const guint8 *data, gsize size, NbTrackSample *out, gsize max, gsize *n,
                        GError **error)
{
  guint32 count;
  const guint8 *t, *x, *y, *th, *q;

  if (size < NB_CHUNK_HEADER_BYTES || memcmp (data, "NBS1", 4) != 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "a sample chunk without its header");
      return FALSE;
    }
  memcpy (&count, data + 4, 4);
  count = GUINT32_FROM_LE (count);
  if (count > max || size != nb_sample_chunk_size (count))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "a sample chunk of %" G_GSIZE_FORMAT " bytes claims %u samples", size, count);
      return FALSE;
    }
  t = data + NB_CHUNK_HEADER_BYTES;
  x = t + 8 * (gsize) count, y = x + 8 * (gsize) count, th = y + 8 * (gsize) count;
  q = th + 8 * (gsize) count;
  for (gsize i = 0; i < count; i++)
    {
      guint64 u;
      guint32 f;

      memcpy (&u, t + 8 * i, 8), u = GUINT64_FROM_LE (u), memcpy (&out[i].t_s, &u, 8);
      memcpy (&u, x + 8 * i, 8), u = GUINT64_FROM_LE (u), memcpy (&out[i].x_mm, &u, 8);
      memcpy (&u, y + 8 * i, 8), u = GUINT64_FROM_LE (u), memcpy (&out[i].y_mm, &u, 8);
      memcpy (&u, th + 8 * i, 8), u = GUINT64_FROM_LE (u), memcpy (&out[i].theta_deg, &u, 8);
      memcpy (&f, q + 4 * i, 4), f = GUINT32_FROM_LE (f), memcpy (&out[i].quality, &f, 4);
    }
  *n = count;
  return TRUE;
}

/* Writes the buffered samples as one chunk into the open batch. */
static gboolean
write_chunk (NbCampaign *c, GError **error)
{
  sqlite3_stmt *s;
  gsize size = nb_sample_chunk_size (c->buf_n);
  int rc;

  if (c->buf_n == 0)
    return TRUE;
  if (!tx_ensure (c, error))
    return FALSE;
  c->batch_open = TRUE;
  if (c->seq_trial != c->buf_trial)
    {
      if ((s = get_stmt (c, ST_NEXT_CHUNK_SEQ, error)) == NULL)
        return FALSE;
      sqlite3_bind_int64 (s, 1, c->buf_trial);
      rc = sqlite3_step (s);
      c->next_chunk_seq = sqlite3_column_int64 (s, 0);
      done_stmt (s);
      if (rc != SQLITE_ROW)
        return sql_error (c, rc, "numbering a sample chunk", error);
      c->seq_trial = c->buf_trial;
    }
  /* The trial first: samples only join a trial in flight. */
  if ((s = get_stmt (c, ST_ADD_SAMPLES, error)) == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, (gint64) c->buf_n);
  sqlite3_bind_int64 (s, 2, c->buf_trial);
  if (!step_done (c, s, "recording samples", error))
    return FALSE;
  if (sqlite3_changes (c->db) != 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: trial %" G_GINT64_FORMAT " is not in flight: samples are recorded "
                   "only while a trial runs", c->path, c->buf_trial);
      c->buf_n = 0;
      return FALSE;
    }
  if ((s = get_stmt (c, ST_INSERT_CHUNK, error)) == NULL)
    return FALSE;
  nb_sample_chunk_pack (c->buf, c->buf_n, c->packed);
  sqlite3_bind_int64 (s, 1, c->buf_trial);
  sqlite3_bind_int64 (s, 2, c->next_chunk_seq);
  sqlite3_bind_int64 (s, 3, (gint64) c->buf_n);
  bind_double (s, 4, c->buf[0].t_s);
  bind_double (s, 5, c->buf[c->buf_n - 1].t_s);
  sqlite3_bind_blob (s, 6, c->packed, (int) size, SQLITE_STATIC);
  if (!step_done (c, s, "recording samples", error))
    return FALSE;
  c->next_chunk_seq++;
  c->buf_n = 0;
  return TRUE;
}

gboolean
nb_campaign_add_samples (NbCampaign *c, gint64 trial_id, const NbTrackSample *samples, gsize n,
                         GError **error)
{
  if (!require_writer (c, error))
    return FALSE;
  if (c->buf_n > 0 && c->buf_trial != trial_id && !write_chunk (c, error))
    return tx_fail (c);
  c->buf_trial = trial_id;
  if (n > 0 && c->batch_start_us == 0)
    c->batch_start_us = g_get_monotonic_time ();
  while (n > 0)
    {
      gsize take = MIN (n, NB_CHUNK_MAX_SAMPLES - c->buf_n);

      memcpy (c->buf + c->buf_n, samples, take * sizeof *samples);
      c->buf_n += take;
      samples += take;
      n -= take;
      if (c->buf_n == NB_CHUNK_MAX_SAMPLES && !write_chunk (c, error))
        return tx_fail (c);
    }
  /* Bounded loss: nothing waits uncommitted longer than NB_BATCH_MAX_US. */
  if (c->user_depth == 0 && c->batch_start_us != 0 &&
      g_get_monotonic_time () - c->batch_start_us >= NB_BATCH_MAX_US)
    return nb_campaign_flush (c, error);
  return TRUE;
}

gboolean
nb_campaign_flush (NbCampaign *c, GError **error)
{
  if (!c->writer)
    return TRUE;
  if (!write_chunk (c, error))
    return tx_fail (c);
  if (!tx_finish (c, error))
    return FALSE;
  if (c->user_depth == 0)
    c->batch_start_us = 0;
  return TRUE;
}

gboolean
nb_campaign_foreach_samples (NbCampaign *c, gint64 trial_id, NbTrackBlockFunc func,
                             gpointer user_data, GError **error)
{
  g_autofree NbTrackSample *block = g_new (NbTrackSample, NB_CHUNK_MAX_SAMPLES);
  sqlite3_stmt *s = NULL;
  gboolean ok = TRUE;
  int rc;

  /* Its own statement: a callback may read another trial. */
  rc = sqlite3_prepare_v2 (c->db, statement_sql[ST_SELECT_CHUNKS], -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, trial_id);
      while (ok && (rc = sqlite3_step (s)) == SQLITE_ROW)
        {
          gsize n;

          if (!nb_sample_chunk_unpack (sqlite3_column_blob (s, 1),
                                       (gsize) sqlite3_column_bytes (s, 1), block,
                                       NB_CHUNK_MAX_SAMPLES, &n, error))
            {
              g_prefix_error (error, "%s: trial %" G_GINT64_FORMAT ": ", c->path, trial_id);
              ok = FALSE;
            }
          else if (n != (gsize) sqlite3_column_int64 (s, 0))
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                           "%s: trial %" G_GINT64_FORMAT ": a chunk's count disagrees with its "
                           "data", c->path, trial_id);
              ok = FALSE;
            }
          else
            ok = func (block, n, user_data, error);
        }
    }
  sqlite3_finalize (s);
  if (ok && rc != SQLITE_DONE)
    return sql_error (c, rc, "reading samples", error);
  return ok;
}

/* ---------------------------------------------------------- results -- */

gboolean
nb_campaign_store_result (NbCampaign *c, guint clause, const char *json, GError **error)
{
  g_autofree char *now = now_iso8601 ();
  sqlite3_stmt *s = NULL;
  int rc;

  if (!require_writer (c, error) || !tx_ensure (c, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (c->db, "INSERT INTO result (clause, json, computed) VALUES (?, ?, ?) "
                           "ON CONFLICT (clause) DO UPDATE SET json = excluded.json, "
                           "computed = excluded.computed", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int (s, 1, (int) clause);
      sqlite3_bind_text (s, 2, json, -1, SQLITE_STATIC);
      sqlite3_bind_text (s, 3, now, -1, SQLITE_STATIC);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      sql_error (c, rc, "storing results", error);
      return tx_fail (c);
    }
  return tx_finish (c, error);
}

char *
nb_campaign_get_result (NbCampaign *c, guint clause, GError **error)
{
  sqlite3_stmt *s = NULL;
  char *json = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "SELECT json FROM result WHERE clause = ?", -1, &s, NULL);

  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int (s, 1, (int) clause);
      if ((rc = sqlite3_step (s)) == SQLITE_ROW)
        json = column_text (s, 0);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    sql_error (c, rc, "reading results", error);
  return json;
}

/* ------------------------------------------------------ event log, counts -- */

static void
event_clear_func (gpointer p)
{
  NbCampaignEvent *e = p;

  g_free (e->time);
  g_free (e->who);
  g_free (e->what);
  g_free (e->subject);
  g_free (e->old_value);
  g_free (e->new_value);
}

GArray *
nb_campaign_list_events (NbCampaign *c, GError **error)
{
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (NbCampaignEvent));
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "SELECT id, time, who, what, subject, old_value, "
                               "new_value FROM event ORDER BY id", -1, &s, NULL);

  g_array_set_clear_func (out, event_clear_func);
  while (rc == SQLITE_OK && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      NbCampaignEvent e = {
        sqlite3_column_int64 (s, 0), column_text (s, 1), column_text (s, 2), column_text (s, 3),
        column_text (s, 4), column_text (s, 5), column_text (s, 6),
      };

      g_array_append_val (out, e);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      sql_error (c, rc, "reading the event log", error);
      return NULL;
    }
  return g_steal_pointer (&out);
}

gboolean
nb_campaign_get_counts (NbCampaign *c, NbCampaignCounts *counts, GError **error)
{
  gint64 configs, trials, samples, chunks, events;

  /* From the trial rows and the chunk index: never the samples themselves. */
  if (!query_int (c, "SELECT count(*) FROM config", &configs, error) ||
      !query_int (c, "SELECT count(*) FROM trial", &trials, error) ||
      !query_int (c, "SELECT coalesce (sum (n_samples), 0) FROM trial", &samples, error) ||
      !query_int (c, "SELECT count(*) FROM sample_chunk", &chunks, error) ||
      !query_int (c, "SELECT count(*) FROM event", &events, error))
    return FALSE;
  counts->configs = (guint) configs;
  counts->trials = (guint64) trials;
  counts->samples = (guint64) samples;
  counts->chunks = (guint64) chunks;
  counts->events = (guint64) events;
  return TRUE;
}
