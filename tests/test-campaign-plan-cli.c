/* navbench-cli campaign plan and campaign run --all end to end: the plan
 * made from the robot and conditions (the clause table's configurations,
 * rated-load ones out of scope without a rated load, the engineer's
 * exclusions with their reason), its states, `run --all` on the simulator
 * giving exactly the standard's counts, and SIGKILL at random points of
 * `run --all` followed by the same command: the file passes
 * integrity_check after every kill, no trial the run reported recorded is
 * lost, none is duplicated, and the finished campaign has the standard's
 * counts.
 */
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-tmp.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *tmpdir;

static char *
new_campaign (const char *name, const char *rated)
{
  char *db = g_strdup_printf ("%s/%s.nbc", tmpdir, name);

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name", name,
                           "robot.width_mm=730", rated, NULL));
  return db;
}

static gint64
query_int (sqlite3 *s, const char *sql)
{
  sqlite3_stmt *st = NULL;
  gint64 v = -1;

  g_assert_cmpint (sqlite3_prepare_v2 (s, sql, -1, &st, NULL), ==, SQLITE_OK);
  if (sqlite3_step (st) == SQLITE_ROW)
    v = sqlite3_column_int64 (st, 0);
  sqlite3_finalize (st);
  return v;
}

static char *
query_text (sqlite3 *s, const char *sql)
{
  sqlite3_stmt *st = NULL;
  char *v = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (s, sql, -1, &st, NULL), ==, SQLITE_OK);
  if (sqlite3_step (st) == SQLITE_ROW)
    v = g_strdup ((const char *) sqlite3_column_text (st, 0));
  sqlite3_finalize (st);
  return v;
}

/* The standard's counts, configuration by configuration, straight from the
 * file: 5 and 8: 30 ok trials; 6: 16 placements, each direction and range
 * once; 7: 3 ok baseline, 3 with the obstacle; 9: 5; none left running or
 * counted twice. */
static void
assert_standard_counts (const char *db, guint expect_configs)
{
  sqlite3 *s = NULL;
  g_autofree char *check = NULL;

  g_assert_cmpint (sqlite3_open_v2 (db, &s, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  check = query_text (s, "PRAGMA integrity_check");
  g_assert_cmpstr (check, ==, "ok");
  g_assert_cmpint (query_int (s, "SELECT count (*) FROM config"), ==, expect_configs);
  g_assert_cmpint (query_int (s, "SELECT count (*) FROM trial WHERE outcome = 'running'"), ==, 0);
  g_assert_cmpint (query_int (s, "SELECT count (*) FROM (SELECT c.id FROM config c JOIN trial t "
                                 "ON t.config_id = c.id AND t.outcome = 'ok' WHERE c.clause IN "
                                 "(5, 8) GROUP BY c.id HAVING count (*) != 30)"), ==, 0);
  g_assert_cmpint (query_int (s, "SELECT count (*) FROM (SELECT c.id FROM config c JOIN trial t "
                                 "ON t.config_id = c.id AND t.outcome = 'ok' WHERE c.clause = 6 "
                                 "GROUP BY c.id HAVING count (*) != 16 OR count (DISTINCT "
                                 "t.label || t.kind || t.angle_deg) != 16)"), ==, 0);
  g_assert_cmpint (query_int (s, "SELECT count (*) FROM (SELECT c.id FROM config c JOIN trial t "
                                 "ON t.config_id = c.id AND t.outcome IN ('ok', 'failed') WHERE "
                                 "c.clause = 7 AND t.kind = 'obstacle' GROUP BY c.id HAVING "
                                 "count (*) != 3)"), ==, 0);
  g_assert_cmpint (query_int (s, "SELECT count (*) FROM (SELECT c.id FROM config c JOIN trial t "
                                 "ON t.config_id = c.id AND t.outcome = 'ok' WHERE c.clause = 7 "
                                 "AND t.kind = 'baseline' GROUP BY c.id HAVING count (*) != 3)"),
                   ==, 0);
  g_assert_cmpint (query_int (s, "SELECT count (*) FROM (SELECT c.id FROM config c JOIN trial t "
                                 "ON t.config_id = c.id AND t.outcome IN ('ok', 'failed') WHERE "
                                 "c.clause = 9 GROUP BY c.id HAVING count (*) != 5)"), ==, 0);
  /* 10.3: three maps, each with its build time (the simulator's make no
   * defects, so the first three are the consecutive successes). */
  g_assert_cmpint (query_int (s, "SELECT count (*) FROM config c JOIN trial t ON t.config_id = "
                                 "c.id AND t.outcome = 'ok' AND t.time_s > 0 WHERE c.clause = 10"),
                   ==, 3);
  g_assert_cmpint (query_int (s, "SELECT count (*) FROM config c JOIN trial t ON t.config_id = "
                                 "c.id WHERE c.clause = 10"), ==, 3);
  sqlite3_close (s);
}

static void
test_plan_states (void)
{
  g_autofree char *db = new_campaign ("plan", "conditions.environment=indoor");
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autofree char *err = NULL;
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", db,
                                          "--json", NULL);
  JsonObject *root = nb_test_parse_object (p, out);
  JsonArray *configs = json_object_get_array_member (root, "configs");
  guint out_of_scope = 0;

  /* 6 + 6 + 10 + 2 + 2 + 1 configurations, made on the first use. */
  g_assert_true (json_object_get_boolean_member (root, "made"));
  g_assert_cmpuint (json_array_get_length (configs), ==, 27);
  for (guint i = 0; i < json_array_get_length (configs); i++)
    {
      JsonObject *c = json_array_get_object_element (configs, i);
      const char *name = json_object_get_string_member (c, "config");

      if (strstr (name, "rated-load") != NULL)
        {
          /* No rated load declared: out of scope, saying why. */
          g_assert_cmpstr (json_object_get_string_member (c, "state"), ==, "out of scope");
          g_assert_nonnull (strstr (json_object_get_string_member (c, "reason"),
                                    "robot.rated_load_kg"));
          out_of_scope++;
        }
      else
        g_assert_cmpstr (json_object_get_string_member (c, "state"), ==, "not started");
    }
  g_assert_cmpuint (out_of_scope, ==, 5);     /* 5: three routes; 8, 9: one each */
  g_assert_cmpstr (json_object_get_string_member (
                     json_object_get_object_member (root, "next"), "config"), ==,
                   "straight-no-load");
  /* Out of scope only with a reason; an unknown one is named. */
  g_free (nb_test_cli_run (NULL, 2, &err, "campaign", "plan", "--db", db, "--exclude",
                           "7:b4-small-cylinder", NULL));
  g_assert_nonnull (strstr (err, "--reason"));
  g_clear_pointer (&err, g_free);
  g_free (nb_test_cli_run (NULL, 2, &err, "campaign", "plan", "--db", db, "--exclude",
                           "7:no-such", "--reason", "x", NULL));
  g_assert_nonnull (strstr (err, "the plan has no clause 7 'no-such'"));
  g_free (out);
  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", db, "--exclude",
                         "7:b4-small-cylinder", "--reason", "the manufacturer declares no "
                         "moving obstacles", NULL);
  g_assert_nonnull (strstr (out, "b4-small-cylinder        0/3            out of scope: the "
                                 "manufacturer declares no moving obstacles"));
  /* One planned configuration in part: k/N; an extra one is listed as extra. */
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--clause", "5",
                           "--config", "straight-no-load", "--trials", "4", NULL));
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--clause", "9",
                           "--config", "my-own", "--trials", "5", NULL));
  g_free (out);
  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", db, NULL);
  g_assert_nonnull (strstr (out, "straight-no-load         4/30           in progress"));
  g_assert_nonnull (strstr (out, "my-own                                  extra configuration"));
  g_assert_nonnull (strstr (out, "next: clause 5 'straight-no-load'"));
  /* --all: everything left, to the standard's counts; 7 and 9 judged. */
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--all", NULL));
  g_free (out);
  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", db, NULL);
  g_assert_nonnull (strstr (out, "straight-no-load         30/30          complete"));
  /* Judged by 7.3 (the simulated base touches the wall now and then). */
  g_assert_true (strstr (out, "b1-wooden-wall           3/3            passed") != NULL ||
                 strstr (out, "b1-wooden-wall           3/3            failed") != NULL);
  g_assert_nonnull (strstr (out, "no-load                  5/5            passed"));
  g_assert_nonnull (strstr (out, "arena                    3/3            complete"));
  g_assert_nonnull (strstr (out, "next: nothing the runner drives is left"));
  /* 21 planned, in scope and driven (27 less 5 rated-load and the excluded
   * one; the arena's maps the simulator's), and the extra one. */
  assert_standard_counts (db, 22);
  /* The protocol's coverage table: the plan's out-of-scope configurations
   * with their recorded reason, the extra one by its name, in both
   * languages. */
  {
    g_autofree char *en = nb_test_cli_run (NULL, 0, NULL, "report", "--db", db, "--format", "md",
                                           "--lang", "en", "-o", "-", NULL);
    g_autofree char *ru = nb_test_cli_run (NULL, 0, NULL, "report", "--db", db, "--format", "md",
                                           "--lang", "ru", "-o", "-", NULL);

    g_assert_nonnull (strstr (en, "| 7 | behaviour 4, small cylinder | out of scope: the "
                                  "manufacturer declares no moving obstacles |"));
    g_assert_nonnull (strstr (en, "| 5 | straight route, rated load | out of scope: the "
                                  "manufacturer declares no rated load"));
    g_assert_nonnull (strstr (en, "| 9 | extra configuration (not in the plan) | my-own |"));
    g_assert_nonnull (strstr (ru, "| 7 | алгоритм поведения 4, малый цилиндр | вне области "
                                  "испытаний: the manufacturer declares no moving obstacles |"));
    g_assert_nonnull (strstr (ru, "| 9 | дополнительная конфигурация (вне плана) | my-own |"));
  }
  g_clear_pointer (&err, g_free);
  g_free (nb_test_cli_run (NULL, 2, &err, "campaign", "run", "--db", db, "--all", "--trials",
                           "3", NULL));
  g_assert_nonnull (strstr (err, "standard's trial counts"));
}

/* The plan's own out-of-scope reasons are stored by key and printed in the
 * reader's language; the engineer's as typed.  A file planned before the
 * keys (the English sentence stored) is read the same. */
static void
test_reasons_translated (void)
{
  g_autofree char *db = new_campaign ("reasons", "conditions.environment=indoor");
  g_autofree char *zero = new_campaign ("reasons-zero", "robot.rated_load_kg=0");
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", db,
                                          "--json", NULL);
  g_autofree char *out0 = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", zero,
                                           "--json", NULL);
  g_autofree char *err = NULL, *stored = NULL, *stored0 = NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autoptr (JsonParser) p0 = json_parser_new ();
  JsonArray *configs = json_object_get_array_member (nb_test_parse_object (p, out), "configs");
  JsonArray *configs0 = json_object_get_array_member (nb_test_parse_object (p0, out0), "configs");
  sqlite3 *s;

  for (guint i = 0; i < json_array_get_length (configs); i++)
    {
      JsonObject *c = json_array_get_object_element (configs, i);
      JsonObject *c0 = json_array_get_object_element (configs0, i);

      if (strstr (json_object_get_string_member (c, "config"), "rated-load") == NULL)
        {
          g_assert_true (json_object_get_null_member (c, "reason_key"));
          continue;
        }
      g_assert_cmpstr (json_object_get_string_member (c, "reason"), ==,
                       "the manufacturer declares no rated load (robot.rated_load_kg)");
      g_assert_cmpstr (json_object_get_string_member (c, "reason_key"), ==, "no-rated-load");
      g_assert_cmpstr (json_object_get_string_member (c0, "reason"), ==,
                       "the rated load is 0 kg: the same as the no-load configuration");
      g_assert_cmpstr (json_object_get_string_member (c0, "reason_key"), ==, "rated-load-zero");
    }
  g_assert_cmpint (sqlite3_open_v2 (db, &s, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  stored = query_text (s, "SELECT reason FROM plan WHERE clause = 5 AND config = "
                          "'straight-rated-load'");
  sqlite3_close (s);
  g_assert_cmpint (sqlite3_open_v2 (zero, &s, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  stored0 = query_text (s, "SELECT reason FROM plan WHERE clause = 9 AND config = 'rated-load'");
  sqlite3_close (s);
  g_assert_cmpstr (stored, ==, "@plan:no-rated-load");
  g_assert_cmpstr (stored0, ==, "@plan:rated-load-zero");

  /* An engineer's reason may not read as a key. */
  g_free (nb_test_cli_run (NULL, 2, &err, "campaign", "plan", "--db", db, "--exclude",
                           "7:b1-wooden-wall", "--reason", "@plan:no-rated-load", NULL));
  g_assert_nonnull (strstr (err, "a reason starting with '@plan:' reads as one of the plan's "
                                 "own"));
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", db, "--exclude",
                           "7:b1-wooden-wall", "--reason", "declared: no walls on site", NULL));
  /* An older file: the English sentence stored, translated alike. */
  g_assert_cmpint (sqlite3_open_v2 (db, &s, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (s, "UPDATE plan SET reason = 'the manufacturer declares no "
                                    "rated load (robot.rated_load_kg)' WHERE clause = 8",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (s);
  {
    g_autofree char *en = nb_test_cli_run (NULL, 0, NULL, "report", "--db", db, "--format", "md",
                                           "--lang", "en", "-o", "-", NULL);
    g_autofree char *ru = nb_test_cli_run (NULL, 0, NULL, "report", "--db", db, "--format", "md",
                                           "--lang", "ru", "-o", "-", NULL);
    g_autofree char *ru0 = nb_test_cli_run (NULL, 0, NULL, "report", "--db", zero, "--format",
                                            "md", "--lang", "ru", "-o", "-", NULL);
    /* The field by its label, as the window names it (not its key). */
    const char *ru_why = "вне области испытаний: изготовитель не заявил номинальную нагрузку "
                         "(поле «Номинальная нагрузка, кг») |";
    const char *p_ru = strstr (ru, ru_why);

    g_assert_nonnull (strstr (en, "out of scope: the manufacturer declares no rated load "
                                  "(the field “Rated load, kg”) |"));
    g_assert_null (strstr (en, "rated\\_load\\_kg"));
    g_assert_null (strstr (ru, "rated\\_load\\_kg"));
    g_assert_null (strstr (en, "@plan:"));
    g_assert_null (strstr (ru, "@plan:"));
    g_assert_null (strstr (ru, "manufacturer declares no rated load"));
    /* Four by key (5: three routes, 9), one from the English of an older file (8). */
    for (guint n = 0; n < 5; n++, p_ru = strstr (p_ru + 1, ru_why))
      g_assert_nonnull (p_ru);
    g_assert_null (p_ru);
    g_assert_nonnull (strstr (ru0, "вне области испытаний: номинальная нагрузка 0 кг: то же, "
                                   "что конфигурация без нагрузки |"));
    /* The engineer's words as typed, in either language. */
    g_assert_nonnull (strstr (ru, "вне области испытаний: declared: no walls on site |"));
  }
}

/* ids of the trials a --json run reported ended (recorded). */
static GArray *
reported_ids (const char *out)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) p = json_parser_new ();
      JsonObject *o;

      /* The line being written when the kill came may be cut short. */
      if (!g_str_has_suffix (lines[i], "}") || !json_parser_load_from_data (p, lines[i], -1, NULL))
        continue;
      o = json_node_get_object (json_parser_get_root (p));
      if (g_strcmp0 (json_object_get_string_member_with_default (o, "event", ""),
                     "trial-ended") == 0)
        {
          gint64 id = json_object_get_int_member (o, "id");

          if (id > 0)
            g_array_append_val (ids, id);
        }
    }
  return ids;
}

static void
test_sigkill (void)
{
  g_autofree char *db = new_campaign ("kill", "robot.rated_load_kg=20");
  const char *cli = g_getenv ("NAVBENCH_CLI");
  g_autofree char *out_path = g_strdup_printf ("%s/kill.out", tmpdir);
  guint kills = 0;
  gboolean finished = FALSE;
  GRand *rand = g_rand_new_with_seed (18646);

  for (guint round = 0; round < 40; round++)
    {
      const char *argv[] = { cli, "campaign", "run", "--db", db, "--all", "--json", NULL };
      int fd = g_open (out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      g_autoptr (GError) error = NULL;
      g_autofree char *out = NULL;
      g_autoptr (GArray) ids = NULL;
      GPid pid;
      int status;
      gboolean killed = FALSE;
      /* A random point in the next 0.02–0.6 s of a run that takes about
       * 3 s whole: each run gets somewhat further, until one finishes.  The
       * window widens round by round, so that a loaded machine (a process
       * start alone can take longer) still gets through. */
      gint64 kill_at = g_get_monotonic_time () +
                       g_rand_int_range (rand, 20, 600 + 100 * (gint32) round) * 1000;

      g_assert_cmpint (fd, >=, 0);
      g_assert_true (g_spawn_async_with_fds (NULL, (char **) argv, NULL,
                                             G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, -1, fd,
                                             -1, &error));
      close (fd);
      for (;;)
        {
          if (waitpid (pid, &status, WNOHANG) == pid)
            break;
          if (g_get_monotonic_time () >= kill_at)
            {
              kill (pid, SIGKILL);
              waitpid (pid, &status, 0);
              killed = TRUE;
              kills++;
              break;
            }
          g_usleep (2000);
        }
      g_spawn_close_pid (pid);
      g_assert_true (g_file_get_contents (out_path, &out, NULL, NULL));
      ids = reported_ids (out);
      {
        sqlite3 *s = NULL;
        g_autofree char *check = NULL;

        /* The file is whole after every kill (a reader sees the WAL too). */
        g_assert_cmpint (sqlite3_open_v2 (db, &s, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
        check = query_text (s, "PRAGMA integrity_check");
        g_assert_cmpstr (check, ==, "ok");
        /* No trial the run reported recorded is lost. */
        for (guint i = 0; i < ids->len; i++)
          {
            g_autofree char *sql = g_strdup_printf ("SELECT count (*) FROM trial WHERE id = %"
                                                    G_GINT64_FORMAT " AND outcome != 'running'",
                                                    g_array_index (ids, gint64, i));

            g_assert_cmpint (query_int (s, sql), ==, 1);
          }
        sqlite3_close (s);
      }
      if (!killed)
        {
          g_assert_true (WIFEXITED (status));
          g_assert_cmpint (WEXITSTATUS (status), ==, 0);
          finished = TRUE;
          break;
        }
    }
  g_test_message ("%u runs killed before one finished", kills);
  g_assert_cmpuint (kills, >=, 4);
  g_rand_free (rand);
  /* Forty kills and none finished (a slow machine): the same command, left
   * alone, completes what they left. */
  if (!finished)
    g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--all", NULL));
  /* The same command, once more, has nothing left: exact counts. */
  {
    g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--all",
                                            NULL);

    g_assert_nonnull (strstr (out, "The plan: 0 configuration(s) run"));
  }
  assert_standard_counts (db, 27);
}

/* Ctrl-C (SIGINT) during --all, several times at points the run reports:
 * the trial in flight is recorded aborted (the run's last trial-ended line
 * says so), nothing is left running, the command exits 1; the same command
 * then completes the campaign with exactly the standard's counts, the
 * aborted trials kept beside them. */
static void
test_sigint (void)
{
  g_autofree char *db = new_campaign ("int", "robot.rated_load_kg=20");
  const char *cli = g_getenv ("NAVBENCH_CLI");
  g_autofree char *out_path = g_strdup_printf ("%s/int.out", tmpdir);
  guint interrupted = 0, aborted_seen = 0;

  for (guint round = 0; round < 3; round++)
    {
      const char *argv[] = { cli, "campaign", "run", "--db", db, "--all", "--json", NULL };
      int fd = g_open (out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      g_autoptr (GError) error = NULL;
      g_autofree char *out = NULL;
      g_auto (GStrv) lines = NULL;
      const char *last_ended = NULL;
      guint ended = 0;
      gint64 aborted;
      gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
      gboolean exited = FALSE;
      sqlite3 *s = NULL;
      GPid pid;
      int status;

      g_assert_cmpint (fd, >=, 0);
      g_assert_true (g_spawn_async_with_fds (NULL, (char **) argv, NULL,
                                             G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, -1, fd,
                                             fd, &error));
      close (fd);
      /* Interrupted once it has reported a few more trials (20 per round). */
      for (;;)
        {
          g_autofree char *sofar = NULL;
          guint n = 0;

          if (waitpid (pid, &status, WNOHANG) == pid)
            {
              exited = TRUE;
              break;
            }
          if (g_file_get_contents (out_path, &sofar, NULL, NULL))
            for (const char *p = sofar; (p = strstr (p, "\"trial-ended\"")) != NULL; p++)
              n++;
          if (n >= 20 || g_get_monotonic_time () > deadline)
            break;
          g_usleep (1000);
        }
      if (exited)
        break;                    /* the run finished first: nothing left to interrupt */
      kill (pid, SIGINT);
      waitpid (pid, &status, 0);
      g_spawn_close_pid (pid);
      interrupted++;
      /* Stopped, not killed: its exit status says the run did not finish. */
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 1);
      g_assert_true (g_file_get_contents (out_path, &out, NULL, NULL));
      lines = g_strsplit (out, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        if (strstr (lines[i], "\"trial-ended\"") != NULL)
          {
            last_ended = lines[i];
            ended++;
          }
      g_assert_cmpuint (ended, >=, 20);
      /* Said on stderr: the trial in flight aborted, or none was. */
      g_assert_true (strstr (out, "the trial in flight is recorded as aborted") != NULL ||
                     strstr (out, "no trial was in flight") != NULL);
      g_assert_cmpint (sqlite3_open_v2 (db, &s, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
      g_assert_cmpint (query_int (s, "SELECT count (*) FROM trial WHERE outcome = 'running'"),
                       ==, 0);
      aborted = query_int (s, "SELECT count (*) FROM trial WHERE outcome = 'aborted'");
      sqlite3_close (s);
      /* At most the one in flight, and then it is the last the run reported. */
      g_assert_cmpint (aborted, <=, aborted_seen + 1);
      if (aborted == aborted_seen + 1)
        g_assert_nonnull (strstr (last_ended, "\"outcome\": \"aborted\""));
      aborted_seen = (guint) aborted;
    }
  g_test_message ("%u interrupts, %u trials aborted in flight", interrupted, aborted_seen);
  g_assert_cmpuint (interrupted, >=, 1);
  /* The same command completes it; once more finds nothing left. */
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--all", NULL));
  {
    g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--db", db, "--all",
                                            NULL);
    sqlite3 *s = NULL;

    g_assert_nonnull (strstr (out, "The plan: 0 configuration(s) run"));
    g_assert_cmpint (sqlite3_open_v2 (db, &s, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
    g_assert_cmpint (query_int (s, "SELECT count (*) FROM trial WHERE outcome = 'aborted'"), ==,
                     aborted_seen);
    sqlite3_close (s);
  }
  assert_standard_counts (db, 27);
}

/* navbench-cli demo: the whole plan on the simulator, every clause 5–10 to
 * the standard's counts, the protocol in two languages and its tables. */
static void
test_demo (void)
{
  g_autofree char *dir = g_strdup_printf ("%s/demo", tmpdir);
  g_autofree char *db = g_strdup_printf ("%s/campaign.nbc", dir);
  g_autofree char *err = NULL;
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "demo", "--out", dir, NULL);
  static const char *const files[] = {
    "protocol-ru.pdf", "protocol-en.pdf", "protocol-ru-table-1.csv", "protocol-en-table-1.csv",
    "protocol-en-table-3.csv", "protocol-en-table-4.csv", "protocol-en-table-5.csv",
    "protocol-en-table-6.csv", "protocol-en-table-7.csv", "demo.log"
  };

  g_assert_nonnull (strstr (out, "next: nothing the runner drives is left"));
  g_assert_nonnull (strstr (out, "arena                    3/3            complete"));
  g_assert_nonnull (strstr (out, "Clause 10 — Mapping accuracy"));
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s", dir, files[i]);
      g_autofree char *text = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &text, &len, NULL));
      g_assert_cmpuint (len, >, 0);
      if (g_str_has_suffix (files[i], ".pdf"))
        g_assert_true (g_str_has_prefix (text, "%PDF-"));
      if (g_str_equal (files[i], "protocol-en-table-1.csv"))
        {
          g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
          guint rows = 0;
          /* report --tables writes what export --table writes. */
          g_autofree char *exported = nb_test_cli_run (NULL, 0, NULL, "export", "--db", db,
                                                       "--table", "1", "--lang", "en",
                                                       "--format", "csv", NULL);

          g_assert_cmpstr (text, ==, exported);

          /* The header and the six configurations of 5.4, 30 trials each
           * (the table's notes are '#' lines). */
          for (guint k = 0; lines[k] != NULL; k++)
            rows += lines[k][0] != '\0' && lines[k][0] != '#';
          g_assert_cmpuint (rows, ==, 7);
          g_assert_nonnull (strstr (lines[1], ",30,"));
        }
    }
  /* Every planned configuration to the standard's counts (all 27: rated
   * load declared), clause 10's three maps included. */
  assert_standard_counts (db, 27);
  /* A second demo into the same directory is refused, nothing touched. */
  g_free (nb_test_cli_run (NULL, 2, &err, "demo", "--out", dir, NULL));
  g_assert_nonnull (strstr (err, "campaign.nbc exists"));
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = nb_test_make_dir ();
  g_test_add_func ("/campaign-plan/plan-states-all", test_plan_states);
  g_test_add_func ("/campaign-plan/reasons-translated", test_reasons_translated);
  g_test_add_func ("/campaign-plan/sigkill-resume", test_sigkill);
  g_test_add_func ("/campaign-plan/sigint-resume", test_sigint);
  g_test_add_func ("/campaign-plan/demo", test_demo);
  rc = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return rc;
}
