/* nb-campaign-log.c — the append-only event log, the stored results, counts */
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

/* ------------------------------------------------------- event log -- */

gboolean
nbc_log_event (NbCampaign *c, const char *what, const char *subject, const char *old_value,
           const char *new_value, const char *note, GError **error)
{
  sqlite3_stmt *s = nbc_get_stmt (c, ST_INSERT_EVENT, error);
  g_autofree char *now = nbc_now_iso8601 ();
  int rc;

  if (s == NULL)
    return FALSE;
  nbc_bind_text (s, 1, now);
  nbc_bind_text (s, 2, c->who);
  nbc_bind_text (s, 3, what);
  nbc_bind_text (s, 4, subject);
  nbc_bind_text (s, 5, old_value);
  nbc_bind_text (s, 6, new_value);
  nbc_bind_text (s, 7, note);
  rc = sqlite3_step (s);
  nbc_done_stmt (s);
  return rc == SQLITE_DONE || nbc_sql_error (c, rc, "writing the event log", error);
}

gboolean
nb_campaign_log (NbCampaign *c, const char *what, const char *subject, const char *old_value,
                 const char *new_value, GError **error)
{
  if (!nbc_tx_ensure (c, error))
    return FALSE;
  if (!nbc_log_event (c, what, subject, old_value, new_value, NULL, error))
    return nbc_tx_fail (c);
  return nbc_tx_finish (c, error);
}

char *
nb_campaign_trial_subject (NbCampaign *c, gint64 trial_id, GError **error)
{
  return nbc_trial_subject (c, trial_id, error);
}

/* "clause 8 'straight A' trial 3" */
char *
nbc_trial_subject (NbCampaign *c, gint64 trial_id, GError **error)
{
  sqlite3_stmt *s = nbc_get_stmt (c, ST_TRIAL_SUBJECT, error);
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
    nbc_sql_error (c, rc, "reading a trial", error);
  nbc_done_stmt (s);
  return subject;
}


/* ---------------------------------------------------------- results -- */

gboolean
nb_campaign_store_result (NbCampaign *c, guint clause, const char *json, GError **error)
{
  g_autofree char *now = nbc_now_iso8601 ();
  sqlite3_stmt *s = NULL;
  int rc;

  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
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
      nbc_sql_error (c, rc, "storing results", error);
      return nbc_tx_fail (c);
    }
  return nbc_tx_finish (c, error);
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
        json = nbc_column_text (s, 0);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    nbc_sql_error (c, rc, "reading results", error);
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
  g_free (e->note);
}

GArray *
nb_campaign_list_events (NbCampaign *c, GError **error)
{
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (NbCampaignEvent));
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "SELECT id, time, who, what, subject, old_value, "
                               "new_value, note FROM event ORDER BY id", -1, &s, NULL);

  g_array_set_clear_func (out, event_clear_func);
  while (rc == SQLITE_OK && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      NbCampaignEvent e = {
        sqlite3_column_int64 (s, 0), nbc_column_text (s, 1), nbc_column_text (s, 2),
        nbc_column_text (s, 3), nbc_column_text (s, 4), nbc_column_text (s, 5),
        nbc_column_text (s, 6), nbc_column_text (s, 7),
      };

      g_array_append_val (out, e);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "reading the event log", error);
      return NULL;
    }
  return g_steal_pointer (&out);
}

gboolean
nb_campaign_get_counts (NbCampaign *c, NbCampaignCounts *counts, GError **error)
{
  gint64 configs, trials, samples, chunks, events;

  /* From the trial rows and the chunk index: never the samples themselves. */
  if (!nbc_query_int (c, "SELECT count(*) FROM config", &configs, error) ||
      !nbc_query_int (c, "SELECT count(*) FROM trial", &trials, error) ||
      !nbc_query_int (c, "SELECT coalesce (sum (n_samples), 0) FROM trial", &samples, error) ||
      !nbc_query_int (c, "SELECT count(*) FROM sample_chunk", &chunks, error) ||
      !nbc_query_int (c, "SELECT count(*) FROM event", &events, error))
    return FALSE;
  counts->configs = (guint) configs;
  counts->trials = (guint64) trials;
  counts->samples = (guint64) samples;
  counts->chunks = (guint64) chunks;
  counts->events = (guint64) events;
  return TRUE;
}
