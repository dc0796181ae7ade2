#include "nb-campaign-iso9283.h"

#include "nb-campaign-private.h"
#include "nb-error.h"

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

    if (!nbc_log_event (c, "ISO 9283 run recorded", subject, NULL, NULL, note, error))
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
