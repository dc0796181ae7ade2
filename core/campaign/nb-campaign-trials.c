/* nb-campaign-trials.c — trials, their outcomes and the audit trail of edits */
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
  t->command = t->attained = t->start = (NbPose) { NAN, NAN, NAN };
  t->angle_deg = t->true_mm = t->measured_mm = t->clearance_mm = NAN;
  t->outcome = NB_TRIAL_RUNNING;
  nbc_corners_init (t->corners_mm);
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

gboolean
nb_campaign_begin_trial (NbCampaign *c, gint64 config_id, NbCampaignTrial *t, GError **error)
{
  sqlite3_stmt *s;
  int rc;

  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  if ((s = nbc_get_stmt (c, ST_NEXT_TRIAL_SEQ, error)) == NULL)
    return nbc_tx_fail (c);
  sqlite3_bind_int64 (s, 1, config_id);
  rc = sqlite3_step (s);
  t->seq = rc == SQLITE_ROW ? (guint) sqlite3_column_int (s, 0) : 0;
  nbc_done_stmt (s);
  if (rc != SQLITE_ROW)
    {
      nbc_sql_error (c, rc, "numbering a trial", error);
      return nbc_tx_fail (c);
    }
  if ((s = nbc_get_stmt (c, ST_INSERT_TRIAL, error)) == NULL)
    return nbc_tx_fail (c);
  sqlite3_bind_int64 (s, 1, config_id);
  sqlite3_bind_int (s, 2, (int) t->seq);
  sqlite3_bind_int64 (s, 3, t->number);
  nbc_bind_text (s, 4, t->label);
  nbc_bind_text (s, 5, t->kind);
  nbc_bind_double (s, 6, t->start_time);
  rc = sqlite3_step (s);
  nbc_done_stmt (s);
  if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no configuration %" G_GINT64_FORMAT,
                   c->path, config_id);
      return nbc_tx_fail (c);
    }
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "starting a trial", error);
      return nbc_tx_fail (c);
    }
  t->id = sqlite3_last_insert_rowid (c->db);
  t->config_id = config_id;
  t->outcome = NB_TRIAL_RUNNING;
  return nbc_tx_finish (c, error);
}

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
  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  /* The trial's last samples and its record commit together. */
  if ((c->buf_n > 0 && c->buf_trial == t->id && !nbc_write_chunk (c, error)) ||
      (s = nbc_get_stmt (c, ST_END_TRIAL, error)) == NULL)
    return nbc_tx_fail (c);
  sqlite3_bind_int64 (s, 1, t->number);
  nbc_bind_text (s, 2, t->label);
  nbc_bind_text (s, 3, t->kind);
  nbc_bind_double (s, 4, t->start_time);
  nbc_bind_double (s, 5, t->end_time);
  nbc_bind_text (s, 6, nb_trial_outcome_to_string (t->outcome));
  nbc_bind_text (s, 7, t->reason);
  nbc_bind_double (s, 8, t->time_s);
  nbc_bind_double (s, 9, t->command.x_mm);
  nbc_bind_double (s, 10, t->command.y_mm);
  nbc_bind_double (s, 11, t->command.theta_deg);
  nbc_bind_double (s, 12, t->attained.x_mm);
  nbc_bind_double (s, 13, t->attained.y_mm);
  nbc_bind_double (s, 14, t->attained.theta_deg);
  nbc_bind_double (s, 15, t->angle_deg);
  nbc_bind_double (s, 16, t->true_mm);
  nbc_bind_double (s, 17, t->measured_mm);
  sqlite3_bind_int (s, 18, t->detected ? 1 : 0);
  nbc_bind_corners (s, 19, t->corners_mm);
  /* SQLite keeps +inf (nothing near); NaN becomes NULL. */
  nbc_bind_double (s, 20, t->clearance_mm);
  nbc_bind_double (s, 21, t->start.x_mm);
  nbc_bind_double (s, 22, t->start.y_mm);
  nbc_bind_double (s, 23, t->start.theta_deg);
  sqlite3_bind_int64 (s, 24, t->id);
  if (!nbc_step_done (c, s, "ending a trial", error))
    return nbc_tx_fail (c);
  if (sqlite3_changes (c->db) != 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: trial %" G_GINT64_FORMAT
                   " is not in flight", c->path, t->id);
      return nbc_tx_fail (c);
    }
  if ((subject = nbc_trial_subject (c, t->id, error)) == NULL ||
      !nbc_log_event (c, NB_EVENT_TRIAL_RECORDED, subject, NULL, nb_trial_outcome_to_string (t->outcome),
                  t->reason, error))
    return nbc_tx_fail (c);
  return nbc_tx_finish (c, error);
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
                               "corners, n_samples, clearance_mm, start_x_mm, start_y_mm, "
                               "start_theta_deg FROM trial WHERE config_id = ? ORDER BY seq",
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
          t.label = nbc_column_text (s, 4);
          t.kind = nbc_column_text (s, 5);
          t.start_time = nbc_column_double (s, 6);
          t.end_time = nbc_column_double (s, 7);
          nb_trial_outcome_from_string ((const char *) sqlite3_column_text (s, 8), &t.outcome);
          t.reason = nbc_column_text (s, 9);
          t.time_s = nbc_column_double (s, 10);
          t.command = (NbPose) { nbc_column_double (s, 11), nbc_column_double (s, 12),
                                 nbc_column_double (s, 13) };
          t.attained = (NbPose) { nbc_column_double (s, 14), nbc_column_double (s, 15),
                                  nbc_column_double (s, 16) };
          t.angle_deg = nbc_column_double (s, 17);
          t.true_mm = nbc_column_double (s, 18);
          t.measured_mm = nbc_column_double (s, 19);
          t.detected = sqlite3_column_int (s, 20) != 0;
          nbc_column_corners (s, 21, t.corners_mm);
          t.n_samples = (guint64) sqlite3_column_int64 (s, 22);
          t.clearance_mm = nbc_column_double (s, 23);
          t.start = (NbPose) { nbc_column_double (s, 24), nbc_column_double (s, 25),
                               nbc_column_double (s, 26) };
          g_array_append_val (out, t);
        }
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "listing trials", error);
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
  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  if ((subject = nbc_trial_subject (c, trial_id, error)) == NULL)
    return nbc_tx_fail (c);
  rc = sqlite3_prepare_v2 (c->db, "SELECT corners FROM trial WHERE id = ?1", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, trial_id);
      if ((rc = sqlite3_step (s)) == SQLITE_ROW)
        nbc_column_corners (s, 0, corners);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_ROW)
    {
      nbc_sql_error (c, rc, "reading a trial", error);
      return nbc_tx_fail (c);
    }
  if (!nbc_corners_set ((const double (*)[2]) corners))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s has no map corners to correct", subject);
      return nbc_tx_fail (c);
    }
  old = g_strdup_printf ("%.17g", corners[corner][axis]);
  corners[corner][axis] = number;
  nbc_pack_doubles (&corners[0][0], 8, packed);
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
        nbc_sql_error (c, rc, "editing a trial", error);
      else
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s is in flight; edit it once it ended",
                     c->path, subject);
      return nbc_tx_fail (c);
    }
  what = g_strdup_printf (NB_EVENT_TRIAL_EDITED, key);
  if (!nbc_log_event (c, what, subject, old, value, why, error))
    return nbc_tx_fail (c);
  return nbc_tx_finish (c, error);
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
  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  if ((subject = nbc_trial_subject (c, trial_id, error)) == NULL)
    return nbc_tx_fail (c);
  rc = sqlite3_prepare_v2 (c->db, trial_edits[i].select_sql, -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, trial_id);
      if ((rc = sqlite3_step (s)) == SQLITE_ROW)
        old = nbc_column_text (s, 0);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_ROW)
    {
      nbc_sql_error (c, rc, "reading a trial", error);
      return nbc_tx_fail (c);
    }
  rc = sqlite3_prepare_v2 (c->db, trial_edits[i].update_sql, -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, trial_id);
      if (trial_edits[i].type == EDIT_NUMBER)
        nbc_bind_double (s, 2, number);
      else if (trial_edits[i].type == EDIT_FLAG)
        sqlite3_bind_int (s, 2, g_str_equal (value, "1"));
      else
        nbc_bind_text (s, 2, *value ? value : NULL);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "editing a trial", error);
      return nbc_tx_fail (c);
    }
  if (sqlite3_changes (c->db) != 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s is in flight; edit it once it ended",
                   c->path, subject);
      return nbc_tx_fail (c);
    }
  what = g_strdup_printf (NB_EVENT_TRIAL_EDITED, key);
  if (!nbc_log_event (c, what, subject, old, *value ? value : NULL, why, error))
    return nbc_tx_fail (c);
  return nbc_tx_finish (c, error);
}
