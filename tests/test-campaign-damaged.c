/* Damaged and unusual campaign files (issue #21): what is not a regular
 * file, a schema version this build does not know, a read-only file and
 * directory and a full disk (with a trial left in flight), a damaged file
 * given to report,
 * and a resumed simulated run. */
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-tmp.h"

#include "nb-campaign.h"
#include "nb-error.h"

#include <json-glib/json-glib.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *tmpdir;
static char *nobody_cli;        /* navbench-cli copied where nobody may run it */

/* A campaign with two clause 5 trials of the simulator. */
static char *
sim_campaign (const char *dir, const char *name)
{
  char *db = g_strdup_printf ("%s/%s.nbc", dir, name);

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name", name, NULL));
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "set", "--db", db, "robot.width_mm=600",
                           NULL));
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--clause", "5",
                           "--config", "pose", "--trials", "2", NULL));
  return db;
}

static GBytes *
slurp (const char *path)
{
  char *data;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

typedef struct {
  gboolean as_nobody;
  gboolean disk_full;           /* no file may grow: every write to the file system fails */
} Setup;

static void
child_setup (gpointer data)
{
  Setup *s = data;

  /* root may write anything: a reader that cannot is played by nobody. */
  if (s->as_nobody && geteuid () == 0)
    {
      if (setgid (65534) != 0 || setuid (65534) != 0)
        _exit (126);
    }
  /* A full disk, played without one: with RLIMIT_FSIZE 0 every write to a
   * regular file fails (EFBIG, SIGXFSZ ignored) as it would with ENOSPC. */
  if (s->disk_full)
    {
      struct rlimit none = { 0, 0 };

      signal (SIGXFSZ, SIG_IGN);
      if (setrlimit (RLIMIT_FSIZE, &none) != 0)
        _exit (126);
    }
}

static gboolean disk_full;      /* run_cli's children get a full disk */

/* navbench-cli ARGS… (NULL-terminated); its exit status, stdout, stderr. */
static int
run_cli (gboolean as_nobody, char **out, char **err, const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  Setup setup = { as_nobody, disk_full };
  va_list ap;
  int status;

  /* nobody runs a copy in the scratch directory: the build tree may lie
   * under a directory only root can enter (a clone in /root, mktemp -d). */
  g_ptr_array_add (argv, as_nobody ? (gpointer) nobody_cli : (gpointer) g_getenv ("NAVBENCH_CLI"));
  va_start (ap, first);
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, child_setup,
                               &setup, out, err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* A FIFO as --db hung info, results and report. */
static void
test_fifo (void)
{
  g_autofree char *fifo = g_build_filename (tmpdir, "fifo.nbc", NULL);
  static const char *const commands[][2] = { { "campaign", "info" }, { "campaign", "results" },
                                             { "report", NULL } };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      int status = commands[i][1]
                   ? run_cli (FALSE, &out, &err, commands[i][0], commands[i][1], "--db", fifo, NULL)
                   : run_cli (FALSE, &out, &err, commands[i][0], "--db", fifo, "--format", "json",
                              NULL);

      g_assert_cmpint (status, ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, "not a regular file"));
    }
  g_unlink (fifo);
}

static void
set_user_version (const char *db, int version)
{
  sqlite3 *s;
  g_autofree char *sql = g_strdup_printf ("PRAGMA user_version = %d", version);

  g_assert_cmpint (sqlite3_open (db, &s), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (s, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_close (s), ==, SQLITE_OK);
}

/* user_version −1 was "migrated" to the current schema, even by readers. */
static void
test_unknown_version (void)
{
  g_autofree char *db = sim_campaign (tmpdir, "version");
  static const int versions[] = { -1, 99 };

  for (guint v = 0; v < G_N_ELEMENTS (versions); v++)
    {
      g_autoptr (GBytes) before = NULL, after = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *out = NULL, *err = NULL;
      NbCampaign *c;

      set_user_version (db, versions[v]);
      before = slurp (db);
      g_assert_cmpint (run_cli (FALSE, &out, &err, "campaign", "info", "--db", db, NULL), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, versions[v] < 0 ? "unknown campaign schema -1"
                                                     : "written by a newer navbench"));
      g_assert_nonnull (strstr (err, "stays intact"));
      c = nb_campaign_open (db, 0, &error);
      g_assert_null (c);
      g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
      after = slurp (db);
      /* Never written to. */
      g_assert_true (g_bytes_equal (before, after));
    }
  g_unlink (db);
}

static int
cli_in_flight_reads (gboolean as_nobody, const char *db)
{
  g_autofree char *out = NULL, *err = NULL;
  int worst = 0, status;

  status = run_cli (as_nobody, &out, &err, "campaign", "info", "--db", db, NULL);
  worst = MAX (worst, status);
  if (worst != 0)
    g_error ("info: %s", err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  status = run_cli (as_nobody, &out, &err, "campaign", "results", "--db", db, "--json",
                    NULL);
  worst = MAX (worst, status);
  if (worst != 0)
    g_error ("results: %s", err);
  g_assert_nonnull (strstr (out, "\"ap_mm\""));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  status = run_cli (as_nobody, &out, &err, "report", "--db", db, "--format", "json",
                    NULL);
  worst = MAX (worst, status);
  if (worst != 0)
    g_error ("report: %s", err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  status = run_cli (as_nobody, &out, &err, "export", "--db", db, "--table", "1",
                    "--format", "csv", NULL);
  worst = MAX (worst, status);
  if (worst != 0)
    g_error ("export: %s", err);
  return worst;
}

/* A read-only campaign file could not be read at all; a trial left in
 * flight made readers write (its recovery) before they could read. */
static void
test_read_only (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "ro", NULL);
  g_autofree char *db = NULL;
  g_autoptr (GBytes) before = NULL, after = NULL;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  db = sim_campaign (dir, "ro");
  /* A trial in flight, as a writer killed in the middle leaves it. */
  {
    g_autoptr (GError) error = NULL;
    NbCampaign *c = nb_campaign_open (db, 0, &error);
    NbCampaignConfig config;
    NbCampaignTrial trial;

    g_assert_no_error (error);
    g_assert_true (nb_campaign_find_config (c, 5, "pose", &config, &error));
    nb_campaign_trial_init (&trial);
    g_assert_true (nb_campaign_begin_trial (c, config.id, &trial, &error));
    nb_campaign_free (c);      /* no end: the trial stays 'running' */
    nb_campaign_trial_clear (&trial);
    nb_campaign_config_clear (&config);
  }
  /* The file read-only, then its directory too: nothing can be written. */
  g_assert_cmpint (g_chmod (db, 0444), ==, 0);
  before = slurp (db);
  g_assert_cmpint (cli_in_flight_reads (TRUE, db), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);
  g_assert_cmpint (cli_in_flight_reads (TRUE, db), ==, 0);
  after = slurp (db);
  g_assert_true (g_bytes_equal (before, after));
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  g_assert_cmpint (g_chmod (db, 0644), ==, 0);
  /* A writer recovers the trial in flight, as before. */
  {
    g_autoptr (GError) error = NULL;
    NbCampaign *c = nb_campaign_open (db, 0, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (nb_campaign_get_recovered_trials (c), ==, 1);
    nb_campaign_free (c);
  }
}

/* On a full disk a campaign with a trial left in flight could not be read
 * until space was freed: its readers first tried to recover the trial. */
static void
test_disk_full (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "full", NULL);
  g_autofree char *db = NULL;
  g_autoptr (GBytes) before = NULL, after = NULL;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  db = sim_campaign (dir, "full");
  /* A writer that dies with a trial in flight: its commits are still in the
   * write-ahead log (no checkpoint), which a reader must index to read. */
  {
    pid_t pid = fork ();
    int status;

    g_assert_cmpint (pid, >=, 0);
    if (pid == 0)
      {
        NbCampaign *c = nb_campaign_open (db, 0, NULL);
        NbCampaignConfig config;
        NbCampaignTrial trial;

        nb_campaign_trial_init (&trial);
        if (c == NULL || !nb_campaign_find_config (c, 5, "pose", &config, NULL) ||
            !nb_campaign_begin_trial (c, config.id, &trial, NULL))
          _exit (1);
        _exit (0);
      }
    g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
    g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  }
  {
    g_autofree char *wal = g_strconcat (db, "-wal", NULL);
    GStatBuf st;

    g_assert_cmpint (g_stat (wal, &st), ==, 0);
    g_assert_cmpint (st.st_size, >, 0);
  }
  before = slurp (db);
  /* A writer cannot recover now: it says so, it does not crash or lie. */
  disk_full = TRUE;
  {
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_cli (FALSE, &out, &err, "campaign", "set", "--db", db,
                              "notes=full disk", NULL), !=, 0);
    g_assert_cmpstr (out, ==, "");
    g_assert_cmpstr (err, !=, "");
  }
  /* Every reader reads, as root (who may write the file, but nothing can). */
  g_assert_cmpint (cli_in_flight_reads (FALSE, db), ==, 0);
  disk_full = FALSE;
  after = slurp (db);
  g_assert_true (g_bytes_equal (before, after));
  /* Space again: a writer recovers the trial in flight. */
  {
    g_autoptr (GError) error = NULL;
    NbCampaign *c = nb_campaign_open (db, 0, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (nb_campaign_get_recovered_trials (c), ==, 1);
    nb_campaign_free (c);
  }
}

/* report exited 0 on a damaged campaign. */
static void
test_damaged_report (void)
{
  g_autofree char *db = sim_campaign (tmpdir, "damaged");
  g_autoptr (GBytes) good = slurp (db);
  gsize len;
  const guint8 *data = g_bytes_get_data (good, &len);
  g_autofree guint8 *copy = g_memdup2 (data, len);
  gsize page = ((gsize) data[16] << 8) | data[17];
  g_autofree char *out = NULL, *err = NULL;

  gint64 root = 0;

  if (page == 1)
    page = 65536;
  /* Garbage over the root page of the field table: the check at open counts
   * its rows through its index, and the report went on without its fields. */
  {
    sqlite3 *s;
    sqlite3_stmt *st;

    g_assert_cmpint (sqlite3_open_v2 (db, &s, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_prepare_v2 (s, "SELECT rootpage FROM sqlite_master WHERE type = "
                                         "'table' AND name = 'field'", -1, &st, NULL), ==,
                     SQLITE_OK);
    g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
    root = sqlite3_column_int64 (st, 0);
    sqlite3_finalize (st);
    sqlite3_close (s);
  }
  g_assert_cmpint (root, >, 1);
  g_assert_cmpuint ((gsize) root * page, <=, len);
  memset (copy + (gsize) (root - 1) * page, 0xA5, page);
  g_assert_true (g_file_set_contents (db, (const char *) copy, (gssize) len, NULL));
  g_assert_cmpint (run_cli (FALSE, &out, &err, "report", "--db", db, "--format", "json", NULL),
                   !=, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "damaged"));
  g_unlink (db);
}

static JsonArray *
trial_values (JsonParser *parser, const char *db)
{
  g_autofree char *results = nb_test_cli_run (NULL, 0, NULL, "campaign", "results", "--db", db,
                                              "--json", NULL);
  JsonObject *clauses = json_object_get_object_member (nb_test_parse_object (parser, results),
                                                       "clauses");
  JsonObject *r8 = json_array_get_object_element (json_object_get_array_member (clauses, "8"), 0);

  return json_object_get_array_member (r8, "deviations_mm");
}

/* A resumed simulated run with the default seed repeated the previous
 * trials' measurements bit for bit. */
static void
test_resume_seed (void)
{
  g_autofree char *db = g_strdup_printf ("%s/resume.nbc", tmpdir);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *d;

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name", "r", NULL));
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "set", "--db", db, "robot.width_mm=600",
                           NULL));
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--clause", "8",
                           "--config", "path", "--trials", "3", NULL));
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--clause", "8",
                           "--config", "path", "--trials", "3", NULL));
  d = trial_values (parser, db);
  g_assert_cmpuint (json_array_get_length (d), ==, 6);
  for (guint i = 0; i < 3; i++)
    g_assert_true (json_array_get_double_element (d, i) !=
                   json_array_get_double_element (d, i + 3));
  g_unlink (db);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = nb_test_make_dir ();
  /* nobody reads the read-only campaign: the way to it must be open. */
  g_assert_cmpint (g_chmod (tmpdir, 0755), ==, 0);
  {
    g_autofree char *bin = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (g_getenv ("NAVBENCH_CLI"), &bin, &len, NULL));
    nobody_cli = g_build_filename (tmpdir, "navbench-cli", NULL);
    g_assert_true (g_file_set_contents (nobody_cli, bin, (gssize) len, NULL));
    g_assert_cmpint (g_chmod (nobody_cli, 0755), ==, 0);
  }
  g_test_add_func ("/campaign-damaged/fifo", test_fifo);
  g_test_add_func ("/campaign-damaged/unknown-version", test_unknown_version);
  g_test_add_func ("/campaign-damaged/read-only", test_read_only);
  g_test_add_func ("/campaign-damaged/disk-full", test_disk_full);
  g_test_add_func ("/campaign-damaged/damaged-report", test_damaged_report);
  g_test_add_func ("/campaign-damaged/resume-seed", test_resume_seed);
  status = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  g_free (nobody_cli);
  return status;
}
