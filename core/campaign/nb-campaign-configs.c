/* nb-campaign-configs.c — test configurations */
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

/* --------------------------------------------------- configurations -- */

void
nb_campaign_config_init (NbCampaignConfig *config)
{
  memset (config, 0, sizeof *config);
  config->load_kg = NAN;
  config->command = (NbPose) { NAN, NAN, NAN };
  config->from_mm[0] = config->from_mm[1] = config->to_mm[0] = config->to_mm[1] = NAN;
  nbc_corners_init (config->truth_mm);
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
  c->name = nbc_column_text (s, 2);
  c->route = nbc_column_text (s, 3);
  c->load_kg = nbc_column_double (s, 4);
  c->obstacle = nbc_column_text (s, 5);
  c->behaviour = nbc_column_text (s, 6);
  c->parameters = nbc_column_text (s, 7);
  c->command = (NbPose) { nbc_column_double (s, 8), nbc_column_double (s, 9),
                         nbc_column_double (s, 10) };
  c->from_mm[0] = nbc_column_double (s, 11);
  c->from_mm[1] = nbc_column_double (s, 12);
  c->to_mm[0] = nbc_column_double (s, 13);
  c->to_mm[1] = nbc_column_double (s, 14);
  nbc_column_corners (s, 15, c->truth_mm);
}

gboolean
nb_campaign_add_config (NbCampaign *c, NbCampaignConfig *config, GError **error)
{
  g_autofree char *now = nbc_now_iso8601 ();
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
  if (!nbc_require_writer (c, error) || !nbc_tx_ensure (c, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (c->db,
                           "INSERT INTO config (clause, name, route, load_kg, obstacle, behaviour, "
                           "parameters, command_x_mm, command_y_mm, command_theta_deg, from_x_mm, "
                           "from_y_mm, to_x_mm, to_y_mm, truth, created) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int (s, 1, (int) config->clause);
      nbc_bind_text (s, 2, config->name);
      nbc_bind_text (s, 3, config->route);
      nbc_bind_double (s, 4, config->load_kg);
      nbc_bind_text (s, 5, config->obstacle);
      nbc_bind_text (s, 6, config->behaviour);
      nbc_bind_text (s, 7, config->parameters);
      nbc_bind_double (s, 8, config->command.x_mm);
      nbc_bind_double (s, 9, config->command.y_mm);
      nbc_bind_double (s, 10, config->command.theta_deg);
      nbc_bind_double (s, 11, config->from_mm[0]);
      nbc_bind_double (s, 12, config->from_mm[1]);
      nbc_bind_double (s, 13, config->to_mm[0]);
      nbc_bind_double (s, 14, config->to_mm[1]);
      nbc_bind_corners (s, 15, config->truth_mm);
      nbc_bind_text (s, 16, now);
      rc = sqlite3_step (s);
    }
  sqlite3_finalize (s);
  if (rc == SQLITE_CONSTRAINT_UNIQUE)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: clause %u already has a configuration named '%s'", c->path,
                   config->clause, config->name);
      return nbc_tx_fail (c);
    }
  if (rc != SQLITE_DONE)
    {
      nbc_sql_error (c, rc, "adding a configuration", error);
      return nbc_tx_fail (c);
    }
  config->id = sqlite3_last_insert_rowid (c->db);
  subject = g_strdup_printf ("clause %u '%s'", config->clause, config->name);
  if (!nbc_log_event (c, NB_EVENT_CONFIG_ADDED, subject, NULL, NULL, NULL, error))
    return nbc_tx_fail (c);
  return nbc_tx_finish (c, error);
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
    nbc_sql_error (c, rc, "reading a configuration", error);
  else
    g_set_error (error, NB_ERROR, NB_ERROR_NOT_FOUND, "%s: clause %u has no configuration '%s'",
                 c->path, clause, name);
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
      nbc_sql_error (c, rc, "listing configurations", error);
      return NULL;
    }
  return g_steal_pointer (&out);
}
