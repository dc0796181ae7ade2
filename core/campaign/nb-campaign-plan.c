/* nb-campaign-plan.c — the campaign's plan (see nb-campaign.h) */
#include "nb-campaign-private.h"
#include "nb-record-words.h"

#include "nb-error.h"

#include <math.h>
#include <string.h>

void
nb_plan_entry_init (NbPlanEntry *e)
{
  memset (e, 0, sizeof *e);
  e->load_kg = NAN;
  e->in_scope = TRUE;
}

void
nb_plan_entry_clear (NbPlanEntry *e)
{
  g_clear_pointer (&e->config, g_free);
  g_clear_pointer (&e->route, g_free);
  g_clear_pointer (&e->obstacle, g_free);
  g_clear_pointer (&e->behaviour, g_free);
  g_clear_pointer (&e->reason, g_free);
}

static void
entry_clear_func (gpointer p)
{
  nb_plan_entry_clear (p);
}

gboolean
nb_campaign_plan_add (NbCampaign *c, NbPlanEntry *e, GError **error)
{
  g_autofree char *now = nbc_now_iso8601 ();
  g_autofree char *subject = NULL;
  sqlite3_stmt *s = NULL;
  int rc;

  if (e->clause < 5 || e->clause > 10 || e->config == NULL || *e->config == '\0' ||
      e->trials == 0 || (!e->in_scope && (e->reason == NULL || *e->reason == '\0')))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "a plan entry needs a clause 5–10, a "
                   "configuration name, a trial count and, out of scope, a reason");
      return FALSE;
    }
  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (c->db, "INSERT INTO plan (clause, config, trials, route, load_kg, "
                           "obstacle, behaviour, in_scope, reason, created) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int (s, 1, (int) e->clause);
      nbc_bind_text (s, 2, e->config);
      sqlite3_bind_int (s, 3, (int) e->trials);
      nbc_bind_text (s, 4, e->route);
      nbc_bind_double (s, 5, e->load_kg);
      nbc_bind_text (s, 6, e->obstacle);
      nbc_bind_text (s, 7, e->behaviour);
      sqlite3_bind_int (s, 8, e->in_scope ? 1 : 0);
      nbc_bind_text (s, 9, e->reason);
      nbc_bind_text (s, 10, now);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc == SQLITE_CONSTRAINT_UNIQUE)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the plan already holds clause %u '%s'",
                   c->path, e->clause, e->config);
      return nbc_tx_fail (c);
    }
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "adding to the plan", error);
      return nbc_tx_fail (c);
    }
  e->id = sqlite3_last_insert_rowid (c->db);
  subject = g_strdup_printf ("clause %u '%s'", e->clause, e->config);
  if (!nbc_log_event (c, NB_EVENT_PLANNED, subject, NULL, e->in_scope ? "in scope" : e->reason, NULL,
                      error))
    return nbc_tx_fail (c);
  return nbc_tx_finish (c, error);
}

GArray *
nb_campaign_plan_list (NbCampaign *c, GError **error)
{
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (NbPlanEntry));
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "SELECT id, clause, config, trials, route, load_kg, "
                               "obstacle, behaviour, in_scope, reason FROM plan ORDER BY id",
                               -1, &s, NULL);

  g_array_set_clear_func (out, entry_clear_func);
  while (rc == SQLITE_OK && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      NbPlanEntry e;

      nb_plan_entry_init (&e);
      e.id = sqlite3_column_int64 (s, 0);
      e.clause = (guint) sqlite3_column_int (s, 1);
      e.config = nbc_column_text (s, 2);
      e.trials = (guint) sqlite3_column_int (s, 3);
      e.route = nbc_column_text (s, 4);
      e.load_kg = nbc_column_double (s, 5);
      e.obstacle = nbc_column_text (s, 6);
      e.behaviour = nbc_column_text (s, 7);
      e.in_scope = sqlite3_column_int (s, 8) != 0;
      e.reason = nbc_column_text (s, 9);
      g_array_append_val (out, e);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "reading the plan", error);
      return NULL;
    }
  return g_steal_pointer (&out);
}

gboolean
nb_campaign_plan_set_scope (NbCampaign *c, guint clause, const char *config, gboolean in_scope,
                            const char *reason, GError **error)
{
  g_autofree char *subject = g_strdup_printf ("clause %u '%s'", clause, config);
  sqlite3_stmt *s = NULL;
  int rc;

  if (!in_scope && (reason == NULL || *reason == '\0'))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s out of scope: give the reason (the "
                   "manufacturer's declaration); the protocol prints it", subject);
      return FALSE;
    }
  if (!in_scope && g_str_has_prefix (reason, NB_PLAN_REASON_PREFIX))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s out of scope: a reason starting with "
                   "'%s' reads as one of the plan's own (a key the protocol translates); give "
                   "it in words", subject, NB_PLAN_REASON_PREFIX);
      return FALSE;
    }
  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (c->db, "UPDATE plan SET in_scope = ?, reason = ? "
                           "WHERE clause = ? AND config = ?", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int (s, 1, in_scope ? 1 : 0);
      nbc_bind_text (s, 2, in_scope ? NULL : reason);
      sqlite3_bind_int (s, 3, (int) clause);
      nbc_bind_text (s, 4, config);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "changing the plan", error);
      return nbc_tx_fail (c);
    }
  if (sqlite3_changes (c->db) == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the plan has no %s", c->path, subject);
      return nbc_tx_fail (c);
    }
  if (!nbc_log_event (c, in_scope ? NB_EVENT_BACK_IN_SCOPE : NB_EVENT_OUT_OF_SCOPE, subject, NULL,
                      in_scope ? reason : reason, NULL, error))
    return nbc_tx_fail (c);
  return nbc_tx_finish (c, error);
}
