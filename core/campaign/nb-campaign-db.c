/* nb-campaign-db.c — the schema and its migrations, prepared statements, SQL
 * helpers and transactions (see nb-campaign.h, nb-campaign-private.h) */
#include "nb-campaign-private.h"

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

/* ------------------------------------------------------------ schema -- */

/* nbc_migrations[v] takes a file from user_version v to v + 1.  A new file runs
 * them all, so a fresh campaign and a migrated one have the same schema.
 * Never edit a migration that has shipped: add one. */
const char *const nbc_migrations[] = {
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

  /* 2 → 3: ISO 9283 runs (nb-campaign-iso9283.h), beside ISO 18646-2's
   * config/trial tables, whose clause CHECK stays 5–10.  Cycle 0 of a pose
   * holds its command pose. */
  "CREATE TABLE iso9283_run (\n"
  "  config TEXT PRIMARY KEY,\n"
  "  characteristic TEXT NOT NULL CHECK (characteristic IN ('pose')),\n"
  "  robot TEXT NOT NULL, measurement TEXT NOT NULL,\n"
  "  speed_pct REAL NOT NULL CHECK (speed_pct > 0 AND speed_pct <= 100),\n"
  "  load TEXT NOT NULL CHECK (load IN ('rated', '10%')),\n"
  "  plane INTEGER NOT NULL CHECK (plane BETWEEN 1 AND 4),\n"
  "  edge_mm REAL NOT NULL, centre_x_mm REAL NOT NULL, centre_y_mm REAL NOT NULL,\n"
  "  centre_z_mm REAL NOT NULL, cycles INTEGER NOT NULL, created TEXT NOT NULL);\n"
  "CREATE TABLE iso9283_pose (\n"
  "  config TEXT NOT NULL REFERENCES iso9283_run (config),\n"
  "  pose INTEGER NOT NULL CHECK (pose BETWEEN 1 AND 5),\n"
  "  cycle INTEGER NOT NULL CHECK (cycle >= 0),\n"
  "  x_mm REAL NOT NULL, y_mm REAL NOT NULL, z_mm REAL NOT NULL,\n"
  "  a_deg REAL NOT NULL, b_deg REAL NOT NULL, c_deg REAL NOT NULL,\n"
  "  PRIMARY KEY (config, pose, cycle));\n",

  /* 3 → 4: the campaign's plan — the configurations the standard prescribes
   * for this robot and conditions, each with its trial count and scope (an
   * out-of-scope one keeps the manufacturer's reason for the protocol). */
  "CREATE TABLE plan (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  clause INTEGER NOT NULL CHECK (clause BETWEEN 5 AND 10),\n"
  "  config TEXT NOT NULL,\n"
  "  trials INTEGER NOT NULL CHECK (trials > 0),\n"
  "  route TEXT, load_kg REAL, obstacle TEXT, behaviour TEXT,\n"
  "  in_scope INTEGER NOT NULL DEFAULT 1 CHECK (in_scope IN (0, 1)),\n"
  "  reason TEXT,\n"
  "  created TEXT NOT NULL,\n"
  "  UNIQUE (clause, config));\n",

  /* 4 → 5: ISO 9283 as a plan with trials (nb-campaign-iso9283.h): the
   * configurations of its characteristics (speed × load, cycles) with their
   * scope, and one row per measured cycle (its command and attained poses or
   * its stream, packed doubles), each committed when the cycle ends, so a
   * run killed resumes at the next cycle. */
  "CREATE TABLE iso9283_plan (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  characteristic TEXT NOT NULL,\n"
  "  config TEXT NOT NULL UNIQUE,\n"
  "  speed_pct REAL NOT NULL CHECK (speed_pct > 0 AND speed_pct <= 100),\n"
  "  load TEXT NOT NULL CHECK (load IN ('rated', '10%')),\n"
  "  cycles INTEGER NOT NULL CHECK (cycles > 0),\n"
  "  duration_s REAL,\n"
  "  in_scope INTEGER NOT NULL DEFAULT 1 CHECK (in_scope IN (0, 1)),\n"
  "  reason TEXT,\n"
  "  created TEXT NOT NULL);\n"
  "CREATE TABLE iso9283_trial (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  config TEXT NOT NULL REFERENCES iso9283_plan (config),\n"
  "  cycle INTEGER NOT NULL CHECK (cycle >= 1),\n"
  "  robot TEXT NOT NULL, measurement TEXT NOT NULL,\n"
  "  setup TEXT NOT NULL,\n"
  "  t_s REAL,\n"
  "  command BLOB NOT NULL, data BLOB NOT NULL,\n"
  "  created TEXT NOT NULL,\n"
  "  UNIQUE (config, cycle));\n",

  /* 5 → 6: a course trial's smallest clearance to the obstacle or the
   * passage's walls (7.1: judged against the manufacturer's minimum
   * distance; NULL: not measured, as for imported trials). */
  "ALTER TABLE trial ADD COLUMN clearance_mm REAL;\n",

  /* 6 → 7: the start pose of a trial measured elsewhere (5.4 a, 7.3 a, 9.3 a:
   * "the robot is placed at P0"), which an import states without a track;
   * NULL: not given (a run's start is the first sample of its track). */
  "ALTER TABLE trial ADD COLUMN start_x_mm REAL;\n"
  "ALTER TABLE trial ADD COLUMN start_y_mm REAL;\n"
  "ALTER TABLE trial ADD COLUMN start_theta_deg REAL;\n",
};

G_STATIC_ASSERT (G_N_ELEMENTS (nbc_migrations) == NB_CAMPAIGN_SCHEMA_VERSION);


const char *const nbc_statement_sql[N_STATEMENTS] = {
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
    "angle_deg = ?, true_mm = ?, measured_mm = ?, detected = ?, corners = ?, clearance_mm = ?, "
    "start_x_mm = ?, start_y_mm = ?, start_theta_deg = ? WHERE id = ? AND outcome = 'running'",
  [ST_NEXT_TRIAL_SEQ] = "SELECT coalesce (max (seq), 0) + 1 FROM trial WHERE config_id = ?",
  [ST_TRIAL_SUBJECT] =
    "SELECT c.clause, c.name, t.seq FROM trial t JOIN config c ON c.id = t.config_id "
    "WHERE t.id = ?",
};

/* ---------------------------------------------------------- helpers -- */

gboolean
nbc_sql_error (NbCampaign *c, int rc, const char *doing, GError **error)
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

sqlite3_stmt *
nbc_get_stmt (NbCampaign *c, StatementId id, GError **error)
{
  sqlite3_stmt *s = c->stmt[id];

  if (s == NULL)
    {
      int rc = sqlite3_prepare_v3 (c->db, nbc_statement_sql[id], -1, SQLITE_PREPARE_PERSISTENT,
                                   &c->stmt[id], NULL);

      if (rc != SQLITE_OK)
        {
          nbc_sql_error (c, rc, "preparing a statement", error);
          return NULL;
        }
      s = c->stmt[id];
    }
  return s;
}

void
nbc_done_stmt (sqlite3_stmt *s)
{
  sqlite3_reset (s);
  sqlite3_clear_bindings (s);
}

/* SQLite stores a NaN as NULL; NULL reads back as NaN. */
void
nbc_bind_double (sqlite3_stmt *s, int i, double v)
{
  if (isnan (v))
    sqlite3_bind_null (s, i);
  else
    sqlite3_bind_double (s, i, v);
}

double
nbc_column_double (sqlite3_stmt *s, int i)
{
  return sqlite3_column_type (s, i) == SQLITE_NULL ? NAN : sqlite3_column_double (s, i);
}

void
nbc_bind_text (sqlite3_stmt *s, int i, const char *v)
{
  if (v == NULL)
    sqlite3_bind_null (s, i);
  else
    sqlite3_bind_text (s, i, v, -1, SQLITE_TRANSIENT);
}

char *
nbc_column_text (sqlite3_stmt *s, int i)
{
  const unsigned char *t = sqlite3_column_text (s, i);

  return t ? g_strdup ((const char *) t) : NULL;
}

void
nbc_pack_doubles (const double *v, guint n, guint8 *out)
{
  for (guint i = 0; i < n; i++)
    {
      guint64 u;

      memcpy (&u, &v[i], 8);
      u = GUINT64_TO_LE (u);
      memcpy (out + 8 * i, &u, 8);
    }
}

void
nbc_unpack_doubles (const guint8 *in, guint n, double *v)
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
gboolean
nbc_exec (NbCampaign *c, const char *sql, const char *doing, GError **error)
{
  int rc = sqlite3_exec (c->db, sql, NULL, NULL, NULL);

  return rc == SQLITE_OK || nbc_sql_error (c, rc, doing, error);
}

/* One integer from a statement without parameters. */
gboolean
nbc_query_int (NbCampaign *c, const char *sql, gint64 *out, GError **error)
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
  return nbc_sql_error (c, rc, "reading the campaign", error);
}

char *
nbc_now_iso8601 (void)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();

  return g_date_time_format_iso8601 (now);
}

/* ----------------------------------------------------- transactions -- */

gboolean
nbc_tx_ensure (NbCampaign *c, GError **error)
{
  if (!sqlite3_get_autocommit (c->db))
    return TRUE;
  /* IMMEDIATE: the write lock now, not a BUSY in the middle. */
  return nbc_exec (c, "BEGIN IMMEDIATE", "starting a transaction", error);
}

void
nbc_tx_rollback (NbCampaign *c)
{
  if (!sqlite3_get_autocommit (c->db))
    sqlite3_exec (c->db, "ROLLBACK", NULL, NULL, NULL);
  c->batch_open = FALSE;
  c->batch_start_us = 0;
  c->seq_trial = 0;             /* chunk numbers may have been rolled back */
  c->user_depth = 0;
}

/* Commits unless the caller groups writes (nb_campaign_transaction_begin). */
gboolean
nbc_tx_finish (NbCampaign *c, GError **error)
{
  if (c->user_depth > 0 || sqlite3_get_autocommit (c->db))
    return TRUE;
  if (!nbc_exec (c, "COMMIT", "committing", error))
    {
      nbc_tx_rollback (c);
      return FALSE;
    }
  c->batch_open = FALSE;
  if (c->buf_n == 0)
    c->batch_start_us = 0;
  return TRUE;
}

/* An atomic write failed: undo it (and the batch it joined) unless the caller
 * groups writes, in which case the caller rolls back. */
gboolean
nbc_tx_fail (NbCampaign *c)
{
  if (c->user_depth == 0)
    nbc_tx_rollback (c);
  return FALSE;
}

gboolean
nb_campaign_transaction_begin (NbCampaign *c, GError **error)
{
  if (c->user_depth == 0 && !nbc_tx_ensure (c, error))
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
  return nbc_tx_finish (c, error);
}

void
nb_campaign_transaction_rollback (NbCampaign *c)
{
  nbc_tx_rollback (c);
  c->buf_n = 0;
}

/* ------------------------------------------- shared by the sections -- */

/* The four map corners of a clause 10 trial (config truth, trial corners),
 * packed as eight doubles; all NaN when none. */

void
nbc_corners_init (double corners[4][2])
{
  for (guint i = 0; i < 4; i++)
    corners[i][0] = corners[i][1] = NAN;
}

gboolean
nbc_corners_set (const double corners[4][2])
{
  for (guint i = 0; i < 4; i++)
    if (!isnan (corners[i][0]) || !isnan (corners[i][1]))
      return TRUE;
  return FALSE;
}

void
nbc_bind_corners (sqlite3_stmt *s, int i, const double corners[4][2])
{
  guint8 packed[64];

  if (!nbc_corners_set (corners))
    {
      sqlite3_bind_null (s, i);
      return;
    }
  nbc_pack_doubles (&corners[0][0], 8, packed);
  sqlite3_bind_blob (s, i, packed, sizeof packed, SQLITE_TRANSIENT);
}

void
nbc_column_corners (sqlite3_stmt *s, int i, double corners[4][2])
{
  if (sqlite3_column_bytes (s, i) == 64)
    nbc_unpack_doubles (sqlite3_column_blob (s, i), 8, &corners[0][0]);
  else
    nbc_corners_init (corners);
}

gboolean
nbc_require_writer (NbCampaign *c, GError **error)
{
  if (c->writer)
    return TRUE;
  g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: opened read-only", c->path);
  return FALSE;
}

gboolean
nbc_step_done (NbCampaign *c, sqlite3_stmt *s, const char *doing, GError **error)
{
  int rc = sqlite3_step (s);

  nbc_done_stmt (s);
  return rc == SQLITE_DONE || nbc_sql_error (c, rc, doing, error);
}
