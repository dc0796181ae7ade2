/* nb-campaign-open.c — creating, opening (lock, migration, recovery of the
 * trials left in flight) and closing a campaign file */
#include "nb-campaign-private.h"
#include "nb-record-words.h"

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
  return nbc_exec (c, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;", "configuring", error);
}

static gboolean
migrate (NbCampaign *c, guint from, GError **error)
{
  g_autofree char *old = g_strdup_printf ("%u", from);
  g_autofree char *new = g_strdup_printf ("%u", NB_CAMPAIGN_SCHEMA_VERSION);
  g_autofree char *pragma = g_strdup_printf ("PRAGMA user_version = %d",
                                             NB_CAMPAIGN_SCHEMA_VERSION);

  /* One transaction: a migration interrupted leaves the old schema whole. */
  if (!nbc_tx_ensure (c, error))
    return FALSE;
  for (guint v = from; v < NB_CAMPAIGN_SCHEMA_VERSION; v++)
    if (!nbc_exec (c, nbc_migrations[v], "migrating the schema", error))
      return nbc_tx_fail (c);
  if (!nbc_exec (c, pragma, "migrating the schema", error) ||
      (from > 0 && !nbc_log_event (c, NB_EVENT_SCHEMA_MIGRATED, NULL, old, new, NULL, error)))
    return nbc_tx_fail (c);
  return nbc_tx_finish (c, error);
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
    return nbc_sql_error (c, rc, "looking for trials in flight", error);
  if (ids->len == 0)
    return TRUE;

  if (!nbc_tx_ensure (c, error))
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
      if ((subject = nbc_trial_subject (c, id, error)) == NULL ||
          !nbc_log_event (c, NB_EVENT_TRIAL_INCOMPLETE, subject, "running", "incomplete", reason,
                      error))
        {
          sqlite3_finalize (s);
          return nbc_tx_fail (c);
        }
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_OK)
    {
      nbc_sql_error (c, rc, "marking trials incomplete", error);
      return nbc_tx_fail (c);
    }
  c->recovered = ids->len;
  return nbc_tx_finish (c, error);
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

  if (!nbc_query_int (c, "SELECT count(*) FROM meta WHERE key = 'format' "
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

      if (!nbc_query_int (c, probes[i], &ignored, error))
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
    return nbc_sql_error (c, rc, "opening", error);
  return configure (c, error);
}

NbCampaign *
nb_campaign_create (const char *path, const char *name, GError **error)
{
  g_autoptr (NbCampaign) c = campaign_new (path);
  g_autofree char *now = nbc_now_iso8601 ();
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
      !nbc_exec (c, "PRAGMA page_size = 16384", "creating", error) ||
      !nbc_exec (c, "BEGIN IMMEDIATE", "creating", error))
    goto fail;
  for (guint v = 0; v < NB_CAMPAIGN_SCHEMA_VERSION; v++)
    if (!nbc_exec (c, nbc_migrations[v], "creating the schema", error))
      goto fail;
  if (!nbc_exec (c, pragmas, "creating", error))
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
      nbc_sql_error (c, rc, "creating", error);
      goto fail;
    }
  if (!nbc_log_event (c, NB_EVENT_CAMPAIGN_CREATED, name, NULL, NULL, NULL, error) ||
      !nbc_exec (c, "COMMIT", "creating", error) ||
      !nbc_exec (c, "PRAGMA journal_mode = WAL", "creating", error))
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

static void
close_db (NbCampaign *c)
{
  for (guint i = 0; i < N_STATEMENTS; i++)
    g_clear_pointer (&c->stmt[i], sqlite3_finalize);
  if (c->db != NULL)
    {
      if (!sqlite3_get_autocommit (c->db))
        sqlite3_exec (c->db, "ROLLBACK", NULL, NULL, NULL);
      sqlite3_close_v2 (c->db);
      c->db = NULL;
    }
}

/* The database opened and checked.  write: the schema migrated and the
 * trials left in flight marked; otherwise nothing is written (immutable:
 * not even SQLite's shared-memory file, for a file in a directory that
 * cannot be written). */
typedef enum {
  OPEN_SHARED,                  /* as SQLite opens a WAL database: the -shm wal-index */
  OPEN_ALONE,                   /* this process holds the file's lock and keeps it: SQLite's
                                 * exclusive locking mode keeps the wal-index in memory, so a
                                 * reader writes nothing, not even -shm (a full disk; at most
                                 * an empty -wal is created) */
  OPEN_IMMUTABLE,               /* the main file alone, no -wal, no -shm (a directory that
                                 * cannot be written) */
} OpenMode;

static gboolean
open_checked (NbCampaign *c, gboolean write, OpenMode mode, gboolean writer_live,
              GError **error)
{
  gint64 app_id, version;

  if (mode == OPEN_ALONE)
    {
      /* SQLite's exclusive mode takes a write lock, so the descriptor is
       * read-write; query_only and no checkpoint at close keep it a reader. */
      int rc = sqlite3_open_v2 (c->path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                                NULL);

      if (rc != SQLITE_OK)
        return nbc_sql_error (c, rc, "opening", error);
      sqlite3_db_config (c->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
      /* Before the first access to the database, or SQLite maps -shm. */
      if (!nbc_exec (c, "PRAGMA locking_mode = EXCLUSIVE; PRAGMA query_only = ON", "opening",
                     error) ||
          !configure (c, error))
        return FALSE;
    }
  else if (mode == OPEN_IMMUTABLE)
    {
      g_autofree char *abs = g_canonicalize_filename (c->path, NULL);
      g_autofree char *uri = g_filename_to_uri (abs, NULL, NULL);
      g_autofree char *ro = g_strconcat (uri, "?immutable=1", NULL);
      int rc = sqlite3_open_v2 (ro, &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
                                SQLITE_OPEN_NOMUTEX, NULL);

      if (rc != SQLITE_OK)
        return nbc_sql_error (c, rc, "opening", error);
      if (!configure (c, error))
        return FALSE;
    }
  else if (!open_db (c, write ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, error))
    return FALSE;
  if (!nbc_query_int (c, "PRAGMA application_id", &app_id, error) ||
      !nbc_query_int (c, "PRAGMA user_version", &version, error))
    return FALSE;
  if (app_id != NB_CAMPAIGN_APPLICATION_ID || version == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: not a navbench campaign", c->path);
      return FALSE;
    }
  /* A version this build does not know (a negative one too, which would
   * otherwise be "migrated" to the current one) is never written to. */
  if (version < 0 || version > NB_CAMPAIGN_SCHEMA_VERSION)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   version < 0 ? "%s: unknown campaign schema %" G_GINT64_FORMAT " (this "
                                 "navbench reads 1 to %d): not opened, so that it stays intact"
                               : "%s: written by a newer navbench (campaign schema %"
                                 G_GINT64_FORMAT "; this navbench reads up to %d): not opened, "
                                 "so that it stays intact",
                   c->path, version, NB_CAMPAIGN_SCHEMA_VERSION);
      return FALSE;
    }
  c->opened_version = (guint) version;
  if (!check_tables (c, error))
    return FALSE;
  if (version < NB_CAMPAIGN_SCHEMA_VERSION)
    {
      if (!write)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                       "%s: campaign schema %" G_GINT64_FORMAT " needs upgrading to %d, but it "
                       "%s", c->path, version, NB_CAMPAIGN_SCHEMA_VERSION,
                       writer_live ? "is open in another navbench"
                                   : "cannot be written here (open it once where it can)");
          return FALSE;
        }
      if (!migrate (c, (guint) version, error))
        return FALSE;
    }
  if (write && (!nbc_exec (c, "PRAGMA journal_mode = WAL", "opening", error) || !recover (c, error)))
    return FALSE;
  return TRUE;
}

/* Can this process write the file and create files beside it (SQLite's
 * -wal and -shm)? */
static gboolean
writable_here (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  return access (path, W_OK) == 0 && access (dir, W_OK) == 0;
}

NbCampaign *
nb_campaign_open (const char *path, NbCampaignOpenFlags flags, GError **error)
{
  g_autoptr (NbCampaign) c = campaign_new (path);
  gboolean read_only = (flags & NB_CAMPAIGN_OPEN_READ_ONLY) != 0;
  gboolean taken = FALSE;
  g_autoptr (GError) local = NULL;

  /* O_NONBLOCK: opening a FIFO must not wait for a writer (check_header
   * then refuses what is not a regular file). */
  c->lock_fd = open (path, (read_only ? O_RDONLY : O_RDWR) | O_NONBLOCK | O_CLOEXEC);
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
  if (!read_only)
    {
      if (!taken)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                       "%s: campaign is open in another navbench (close it there first)", path);
          return NULL;
        }
      c->writer = TRUE;
      if (!open_checked (c, TRUE, OPEN_SHARED, FALSE, error))
        return NULL;
      return g_steal_pointer (&c);
    }
  /* A reader that finds no live writer finishes what a dead one left
   * (migration, trials in flight) when it can write; when it cannot (a
   * read-only file or directory, a full disk) it reads the file as it is:
   * reading never needs to write. */
  if (taken && writable_here (path))
    {
      c->writer = TRUE;
      if (open_checked (c, TRUE, OPEN_SHARED, FALSE, &local))
        {
          /* Unlocking, not closing: closing another descriptor of the file
           * would drop SQLite's own POSIX locks on it. */
          flock (c->lock_fd, LOCK_UN);
          c->writer = FALSE;
          return g_steal_pointer (&c);
        }
      close_db (c);
      c->writer = FALSE;
      c->recovered = 0;
    }
  g_clear_error (&local);
  if (!open_checked (c, FALSE, OPEN_SHARED, !taken, &local))
    {
      close_db (c);
      /* No writer is alive (the lock is ours): read alone, writing nothing,
       * and keep the lock while reading so that none starts under us. */
      if (taken && open_checked (c, FALSE, OPEN_ALONE, FALSE, NULL))
        return g_steal_pointer (&c);
      close_db (c);
      /* A WAL database in a directory that cannot be written: SQLite cannot
       * make its shared-memory file; with no write-ahead frames to read, the
       * file alone is the campaign. */
      if (writable_here (path) || wal_has_frames (path) ||
          !open_checked (c, FALSE, OPEN_IMMUTABLE, !taken, NULL))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
    }
  if (taken)
    flock (c->lock_fd, LOCK_UN);
  return g_steal_pointer (&c);
}

gboolean
nb_campaign_verify (NbCampaign *c, GError **error)
{
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "PRAGMA quick_check (1)", -1, &s, NULL);
  g_autofree char *first = NULL;

  if (rc == SQLITE_OK && (rc = sqlite3_step (s)) == SQLITE_ROW)
    first = g_strdup ((const char *) sqlite3_column_text (s, 0));
  sqlite3_finalize (s);
  if (rc != SQLITE_ROW)
    return nbc_sql_error (c, rc, "checking the whole file", error);
  if (first == NULL || strcmp (first, "ok") != 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the campaign file is damaged (%s)",
                   c->path, first ? first : "no answer from the check");
      return FALSE;
    }
  return TRUE;
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
      nbc_tx_rollback (c);
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

const char *
nb_campaign_get_who (const NbCampaign *c)
{
  return c->who;
}

