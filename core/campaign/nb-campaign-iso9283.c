#include "nb-campaign-iso9283.h"
#include "nb-record-words.h"

#include "nb-campaign-private.h"
#include "nb-error.h"

#include <math.h>
#include <string.h>

void
nb_iso9283_stored_run_free (NbIso9283StoredRun *r)
{
  if (r == NULL)
    return;
  g_free (r->config);
  g_free (r->robot);
  g_free (r->measurement);
  g_free (r->load);
  for (int i = 0; i < 5; i++)
    g_clear_pointer (&r->attained[i], g_array_unref);
  g_free (r);
}

gboolean
nb_campaign_iso9283_add_run (NbCampaign *c, const NbIso9283StoredRun *r, GError **error)
{
  sqlite3_stmt *s = NULL;
  int rc;

  if (r->config == NULL || *r->config == '\0' || !g_utf8_validate (r->config, -1, NULL))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "an ISO 9283 run needs a name (UTF-8)");
      return FALSE;
    }
  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (c->db,
                           "INSERT INTO iso9283_run (config, characteristic, robot, measurement, "
                           "speed_pct, load, plane, edge_mm, centre_x_mm, centre_y_mm, "
                           "centre_z_mm, cycles, created) "
                           "VALUES (?, 'pose', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      g_autofree char *now = nbc_now_iso8601 ();

      nbc_bind_text (s, 1, r->config);
      nbc_bind_text (s, 2, r->robot ? r->robot : "");
      nbc_bind_text (s, 3, r->measurement ? r->measurement : "");
      nbc_bind_double (s, 4, r->speed_pct);
      nbc_bind_text (s, 5, r->load ? r->load : "rated");
      sqlite3_bind_int (s, 6, (int) r->plane);
      nbc_bind_double (s, 7, r->edge_mm);
      for (int k = 0; k < 3; k++)
        nbc_bind_double (s, 8 + k, r->centre_mm[k]);
      sqlite3_bind_int (s, 11, (int) r->cycles);
      nbc_bind_text (s, 12, now);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  s = NULL;
  if (rc == SQLITE_CONSTRAINT_PRIMARYKEY || rc == SQLITE_CONSTRAINT_UNIQUE ||
      rc == SQLITE_CONSTRAINT)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: an ISO 9283 run named '%s' exists",
                   c->path, r->config);
      return nbc_tx_fail (c);
    }
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "adding an ISO 9283 run", error);
      return nbc_tx_fail (c);
    }
  rc = sqlite3_prepare_v2 (c->db,
                           "INSERT INTO iso9283_pose (config, pose, cycle, x_mm, y_mm, z_mm, a_deg, "
                           "b_deg, c_deg) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &s, NULL);
  for (int i = 0; i < 5 && rc == SQLITE_OK; i++)
    /* cycle 0 holds the command pose. */
    for (guint j = 0; j <= (r->attained[i] ? r->attained[i]->len : 0) && rc == SQLITE_OK; j++)
      {
        const NbPose6 *p = j == 0 ? &r->command[i]
                                  : &g_array_index (r->attained[i], NbPose6, j - 1);

        sqlite3_reset (s);
        nbc_bind_text (s, 1, r->config);
        sqlite3_bind_int (s, 2, i + 1);
        sqlite3_bind_int (s, 3, (int) j);
        nbc_bind_double (s, 4, p->x_mm);
        nbc_bind_double (s, 5, p->y_mm);
        nbc_bind_double (s, 6, p->z_mm);
        nbc_bind_double (s, 7, p->a_deg);
        nbc_bind_double (s, 8, p->b_deg);
        nbc_bind_double (s, 9, p->c_deg);
        rc = sqlite3_step (s);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
      }
  sqlite3_finalize (s);
  if (rc != SQLITE_OK)
    {
      nbc_sql_error (c, rc, "adding an ISO 9283 run's poses", error);
      return nbc_tx_fail (c);
    }
  {
    g_autofree char *subject = g_strdup_printf ("ISO 9283 pose run '%s'", r->config);
    g_autofree char *note = g_strdup_printf ("%u cycles, %.0f %% speed, load %s, robot %s",
                                             r->cycles, r->speed_pct, r->load ? r->load : "rated",
                                             r->robot ? r->robot : "");

    if (!nbc_log_event (c, NB_EVENT_ISO9283_RUN, subject, NULL, NULL, note, error))
      return nbc_tx_fail (c);
  }
  return nbc_tx_finish (c, error);
}

GPtrArray *
nb_campaign_iso9283_runs (NbCampaign *c, GError **error)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) nb_iso9283_stored_run_free);
  sqlite3_stmt *s = NULL, *p = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (c->db,
                           "SELECT config, robot, measurement, speed_pct, load, plane, edge_mm, "
                           "centre_x_mm, centre_y_mm, centre_z_mm, cycles FROM iso9283_run "
                           "ORDER BY rowid", -1, &s, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_prepare_v2 (c->db,
                             "SELECT pose, cycle, x_mm, y_mm, z_mm, a_deg, b_deg, c_deg "
                             "FROM iso9283_pose WHERE config = ? ORDER BY pose, cycle", -1, &p,
                             NULL);
  while (rc == SQLITE_OK && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      NbIso9283StoredRun *r = g_new0 (NbIso9283StoredRun, 1);

      g_ptr_array_add (runs, r);
      r->config = g_strdup ((const char *) sqlite3_column_text (s, 0));
      r->robot = g_strdup ((const char *) sqlite3_column_text (s, 1));
      r->measurement = g_strdup ((const char *) sqlite3_column_text (s, 2));
      r->speed_pct = sqlite3_column_double (s, 3);
      r->load = g_strdup ((const char *) sqlite3_column_text (s, 4));
      r->plane = (guint) sqlite3_column_int (s, 5);
      r->edge_mm = sqlite3_column_double (s, 6);
      for (int k = 0; k < 3; k++)
        r->centre_mm[k] = sqlite3_column_double (s, 7 + k);
      r->cycles = (guint) sqlite3_column_int (s, 10);
      for (int i = 0; i < 5; i++)
        r->attained[i] = g_array_new (FALSE, FALSE, sizeof (NbPose6));
      sqlite3_reset (p);
      nbc_bind_text (p, 1, r->config);
      while ((rc = sqlite3_step (p)) == SQLITE_ROW)
        {
          int pose = sqlite3_column_int (p, 0), cycle = sqlite3_column_int (p, 1);
          NbPose6 v = { sqlite3_column_double (p, 2), sqlite3_column_double (p, 3),
                        sqlite3_column_double (p, 4), sqlite3_column_double (p, 5),
                        sqlite3_column_double (p, 6), sqlite3_column_double (p, 7) };

          if (pose < 1 || pose > 5)
            continue;
          if (cycle == 0)
            r->command[pose - 1] = v;
          else
            g_array_append_val (r->attained[pose - 1], v);
        }
      rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
  sqlite3_finalize (s);
  sqlite3_finalize (p);
  if (rc != SQLITE_DONE && rc != SQLITE_OK)
    {
      nbc_sql_error (c, rc, "reading the ISO 9283 runs", error);
      return NULL;
    }
  return g_steal_pointer (&runs);
}

/* ---------------------------------------------------------------- plan -- */

void
nb_iso9283_plan_entry_clear (NbIso9283PlanEntry *e)
{
  g_clear_pointer (&e->characteristic, g_free);
  g_clear_pointer (&e->config, g_free);
  g_clear_pointer (&e->load, g_free);
  g_clear_pointer (&e->reason, g_free);
}

gboolean
nb_campaign_iso9283_plan_add (NbCampaign *c, const NbIso9283PlanEntry *e, guint n, GError **error)
{
  g_autofree char *now = nbc_now_iso8601 ();
  sqlite3_stmt *s = NULL;
  int rc;

  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (c->db,
                           "INSERT INTO iso9283_plan (characteristic, config, speed_pct, load, "
                           "cycles, duration_s, in_scope, reason, created) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &s, NULL);
  for (guint i = 0; i < n && rc == SQLITE_OK; i++)
    {
      sqlite3_reset (s);
      nbc_bind_text (s, 1, e[i].characteristic);
      nbc_bind_text (s, 2, e[i].config);
      nbc_bind_double (s, 3, e[i].speed_pct);
      nbc_bind_text (s, 4, e[i].load);
      sqlite3_bind_int (s, 5, (int) e[i].cycles);
      nbc_bind_double (s, 6, e[i].duration_s);
      sqlite3_bind_int (s, 7, e[i].in_scope ? 1 : 0);
      nbc_bind_text (s, 8, e[i].reason);
      nbc_bind_text (s, 9, now);
      rc = sqlite3_step (s);
      if (rc == SQLITE_CONSTRAINT || (rc & 0xff) == SQLITE_CONSTRAINT)
        {
          sqlite3_finalize (s);
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the ISO 9283 plan has '%s' already",
                       c->path, e[i].config);
          return nbc_tx_fail (c);
        }
      rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_OK)
    {
      nbc_sql_error (c, rc, "adding to the ISO 9283 plan", error);
      return nbc_tx_fail (c);
    }
  {
    g_autofree char *note = g_strdup_printf ("%u configurations", n);

    if (!nbc_log_event (c, NB_EVENT_ISO9283_PLAN, "ISO 9283 plan", NULL, NULL, note, error))
      return nbc_tx_fail (c);
  }
  return nbc_tx_finish (c, error);
}

GArray *
nb_campaign_iso9283_plan_list (NbCampaign *c, GError **error)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (NbIso9283PlanEntry));
  sqlite3_stmt *s = NULL;
  int rc;

  g_array_set_clear_func (out, (GDestroyNotify) nb_iso9283_plan_entry_clear);
  rc = sqlite3_prepare_v2 (c->db,
                           "SELECT characteristic, config, speed_pct, load, cycles, duration_s, "
                           "in_scope, reason FROM iso9283_plan ORDER BY id", -1, &s, NULL);
  while (rc == SQLITE_OK && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      NbIso9283PlanEntry e = {
        .characteristic = nbc_column_text (s, 0),
        .config = nbc_column_text (s, 1),
        .speed_pct = nbc_column_double (s, 2),
        .load = nbc_column_text (s, 3),
        .cycles = (guint) sqlite3_column_int (s, 4),
        .duration_s = nbc_column_double (s, 5),
        .in_scope = sqlite3_column_int (s, 6) != 0,
        .reason = nbc_column_text (s, 7),
      };

      g_array_append_val (out, e);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "reading the ISO 9283 plan", error);
      g_array_unref (out);
      return NULL;
    }
  return out;
}

gboolean
nb_campaign_iso9283_plan_set_scope (NbCampaign *c, const char *config, gboolean in_scope,
                                    const char *reason, GError **error)
{
  sqlite3_stmt *s = NULL;
  int rc;

  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (c->db, "UPDATE iso9283_plan SET in_scope = ?, reason = ? "
                           "WHERE config = ?", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int (s, 1, in_scope ? 1 : 0);
      nbc_bind_text (s, 2, in_scope ? NULL : reason);
      nbc_bind_text (s, 3, config);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "changing the ISO 9283 plan", error);
      return nbc_tx_fail (c);
    }
  if (sqlite3_changes (c->db) == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the ISO 9283 plan has no '%s'", c->path,
                   config);
      return nbc_tx_fail (c);
    }
  {
    g_autofree char *subject = g_strdup_printf ("ISO 9283 configuration '%s'", config);

    if (!nbc_log_event (c, in_scope ? NB_EVENT_BACK_IN_SCOPE : NB_EVENT_OUT_OF_SCOPE, subject, NULL, NULL,
                        reason, error))
      return nbc_tx_fail (c);
  }
  return nbc_tx_finish (c, error);
}

/* -------------------------------------------------------------- trials -- */

void
nb_iso9283_trial_free (NbIso9283Trial *t)
{
  if (t == NULL)
    return;
  g_free (t->config);
  g_free (t->robot);
  g_free (t->measurement);
  g_free (t->setup);
  g_clear_pointer (&t->command, g_array_unref);
  g_clear_pointer (&t->data, g_array_unref);
  g_free (t);
}

static void
bind_doubles (sqlite3_stmt *s, int i, const GArray *v)
{
  guint n = v ? v->len : 0;
  guint8 *packed = g_malloc (8 * (gsize) n + 1);

  nbc_pack_doubles (n ? (const double *) v->data : NULL, n, packed);
  sqlite3_bind_blob (s, i, packed, (int) (8 * n), g_free);
}

static GArray *
column_doubles (sqlite3_stmt *s, int i)
{
  guint n = (guint) sqlite3_column_bytes (s, i) / 8;
  GArray *v = g_array_sized_new (FALSE, FALSE, sizeof (double), n);

  g_array_set_size (v, n);
  if (n > 0)
    nbc_unpack_doubles (sqlite3_column_blob (s, i), n, (double *) v->data);
  return v;
}

gboolean
nb_campaign_iso9283_add_trial (NbCampaign *c, const NbIso9283Trial *t, GError **error)
{
  g_autofree char *now = nbc_now_iso8601 ();
  sqlite3_stmt *s = NULL;
  gint64 planned = 0;
  int rc;

  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (c->db, "SELECT count(*) FROM iso9283_plan WHERE config = ?", -1, &s,
                           NULL);
  if (rc == SQLITE_OK)
    {
      nbc_bind_text (s, 1, t->config);
      if ((rc = sqlite3_step (s)) == SQLITE_ROW)
        planned = sqlite3_column_int64 (s, 0), rc = SQLITE_OK;
    }
  sqlite3_finalize (s);
  s = NULL;
  if (rc == SQLITE_OK && planned == 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: the ISO 9283 plan has no '%s'", c->path,
                   t->config);
      return nbc_tx_fail (c);
    }
  if (rc == SQLITE_OK)
    rc = sqlite3_prepare_v2 (c->db,
                             "INSERT INTO iso9283_trial (config, cycle, robot, measurement, setup, "
                             "t_s, command, data, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      nbc_bind_text (s, 1, t->config);
      sqlite3_bind_int (s, 2, (int) t->cycle);
      nbc_bind_text (s, 3, t->robot ? t->robot : "");
      nbc_bind_text (s, 4, t->measurement ? t->measurement : "");
      nbc_bind_text (s, 5, t->setup ? t->setup : "{}");
      nbc_bind_double (s, 6, t->t_s);
      bind_doubles (s, 7, t->command);
      bind_doubles (s, 8, t->data);
      nbc_bind_text (s, 9, now);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if ((rc & 0xff) == SQLITE_CONSTRAINT)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: '%s' has its cycle %u already", c->path,
                   t->config, t->cycle);
      return nbc_tx_fail (c);
    }
  if (rc != SQLITE_DONE && rc != SQLITE_OK)
    {
      nbc_sql_error (c, rc, "recording an ISO 9283 cycle", error);
      return nbc_tx_fail (c);
    }
  return nbc_tx_finish (c, error);
}

GPtrArray *
nb_campaign_iso9283_trials (NbCampaign *c, const char *config, GError **error)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) nb_iso9283_trial_free);
  sqlite3_stmt *s = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (c->db,
                           "SELECT t.config, t.cycle, t.robot, t.measurement, t.setup, t.t_s, "
                           "t.command, t.data FROM iso9283_trial t JOIN iso9283_plan p "
                           "ON p.config = t.config WHERE ?1 IS NULL OR t.config = ?1 "
                           "ORDER BY p.id, t.cycle", -1, &s, NULL);
  if (rc == SQLITE_OK)
    nbc_bind_text (s, 1, config);
  while (rc == SQLITE_OK && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      NbIso9283Trial *t = g_new0 (NbIso9283Trial, 1);

      t->config = nbc_column_text (s, 0);
      t->cycle = (guint) sqlite3_column_int (s, 1);
      t->robot = nbc_column_text (s, 2);
      t->measurement = nbc_column_text (s, 3);
      t->setup = nbc_column_text (s, 4);
      t->t_s = nbc_column_double (s, 5);
      t->command = column_doubles (s, 6);
      t->data = column_doubles (s, 7);
      g_ptr_array_add (out, t);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "reading the ISO 9283 cycles", error);
      return NULL;
    }
  return g_steal_pointer (&out);
}

gboolean
nb_campaign_iso9283_count_trials (NbCampaign *c, const char *config, guint *n, GError **error)
{
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2 (c->db, "SELECT count(*) FROM iso9283_trial WHERE config = ?", -1,
                               &s, NULL);

  *n = 0;
  if (rc == SQLITE_OK)
    {
      nbc_bind_text (s, 1, config);
      if ((rc = sqlite3_step (s)) == SQLITE_ROW)
        *n = (guint) sqlite3_column_int64 (s, 0), rc = SQLITE_DONE;
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    return nbc_sql_error (c, rc, "counting the ISO 9283 cycles", error);
  return TRUE;
}
