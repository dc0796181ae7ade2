/* test-iso9283-plan-cli — the ISO 9283 plan from the command line: campaign plan --standard
 * iso9283, campaign run --standard iso9283 --all on the simulator and over the motion HTTP
 * API, resumed after SIGKILL at the next cycle, and the protocol's ISO 9283 section from the
 * file in both languages; ISO 9283 in campaign results, campaign plan and navbench-cli report
 */
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-tmp.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *tmp_dir;

static char *
new_campaign (const char *name)
{
  char *db = g_strdup_printf ("%s/%s.nbc", tmp_dir, name);

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name", name, NULL));
  return db;
}

static gint64
query_int (const char *db, const char *sql)
{
  sqlite3 *s = NULL;
  sqlite3_stmt *st = NULL;
  gint64 v = -1;

  g_assert_cmpint (sqlite3_open_v2 (db, &s, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (s, sql, -1, &st, NULL), ==, SQLITE_OK);
  if (sqlite3_step (st) == SQLITE_ROW)
    v = sqlite3_column_int64 (st, 0);
  sqlite3_finalize (st);
  sqlite3_close (s);
  return v;
}

static char *
query_text (const char *db, const char *sql)
{
  sqlite3 *s = NULL;
  sqlite3_stmt *st = NULL;
  char *v = NULL;

  g_assert_cmpint (sqlite3_open_v2 (db, &s, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (s, sql, -1, &st, NULL), ==, SQLITE_OK);
  if (sqlite3_step (st) == SQLITE_ROW)
    v = g_strdup ((const char *) sqlite3_column_text (st, 0));
  sqlite3_finalize (st);
  sqlite3_close (s);
  return v;
}

static JsonObject *
plan_config (JsonObject *plan, const char *config)
{
  JsonArray *a = json_object_get_array_member (plan, "configs");

  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = json_array_get_object_element (a, i);

      if (g_str_equal (json_object_get_string_member (o, "config"), config))
        return o;
    }
  g_assert_not_reached ();
  return NULL;
}

static void
test_plan (void)
{
  g_autofree char *db = new_campaign ("plan");
  g_autofree char *out = NULL, *err = NULL, *text = NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonObject *o;

  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--standard", "iso9283", "--db", db,
                         "--json", NULL);
  o = nb_test_parse_object (p, out);
  g_assert_true (json_object_get_boolean_member (o, "made"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "configs")), ==, 41);
  g_assert_cmpstr (json_object_get_string_member (o, "next"), ==, "pose-rated-100");
  g_assert_cmpstr (json_object_get_string_member (plan_config (o, "path-line-rated-10"), "clause"),
                   ==, "8.2, 8.3, 8.6");
  g_assert_cmpint (json_object_get_int_member (plan_config (o, "stabilisation-10pct-100"), "of"),
                   ==, 3);
  g_assert_true (json_object_get_boolean_member (plan_config (o, "corner-rated-50"), "stream"));
  /* Out of scope, with the reason; --exclude without one is refused. */
  text = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--standard=iso9283", "--db", db,
                          "--exclude", "pose-rated-100", "--reason", "not declared by the maker",
                          NULL);
  g_assert_nonnull (strstr (text, "out of scope: not declared by the maker"));
  g_assert_nonnull (strstr (text, "next: 'pose-rated-50'"));
  g_free (out);
  out = nb_test_cli_run (NULL, 2, &err, "campaign", "plan", "--standard", "iso9283", "--db", db,
                         "--exclude", "pose-rated-50", NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "--reason"));
  g_free (out);
  g_free (err);
  out = nb_test_cli_run (NULL, 2, &err, "campaign", "plan", "--standard", "iso9283", "--db", db,
                         "--exclude", "nope", "--reason", "x", NULL);
  g_assert_nonnull (strstr (err, "no 'nope'"));
  g_free (out);
  g_free (err);
  /* --all needs the file; --only goes with --all. */
  out = nb_test_cli_run (NULL, 2, &err, "campaign", "run", "--standard", "iso9283", "--all", NULL);
  g_assert_nonnull (strstr (err, "--all runs the plan of the campaign file"));
  g_free (out);
  g_free (err);
  out = nb_test_cli_run (NULL, 2, &err, "campaign", "run", "--standard", "iso9283", "--only",
                         "pose-rated-10", NULL);
  g_assert_nonnull (strstr (err, "--only goes with --all"));
}

/* A run killed at a random instant resumes at the next cycle: the cycles
 * recorded are always 1..k (a cycle is committed whole when it ends), and
 * the configuration ends with exactly its 30. */
static void
test_kill_resume (void)
{
  g_autofree char *db = new_campaign ("kill");
  const char *cli = g_getenv ("NAVBENCH_CLI");
  const char *sql_n = "SELECT count (*) FROM iso9283_trial WHERE config = 'pose-rated-10'";
  const char *sql_max = "SELECT coalesce (max (cycle), 0) FROM iso9283_trial "
                        "WHERE config = 'pose-rated-10'";
  GRand *rand = g_rand_new_with_seed (9283);
  guint kills = 0, resumed = 0;
  gboolean finished = FALSE;

  for (guint round = 0; round < 30 && !finished; round++)
    {
      const char *argv[] = { cli, "campaign", "run", "--standard", "iso9283", "--db", db, "--all",
                             "--only", "pose-rated-10", NULL };
      g_autoptr (GError) error = NULL;
      gint64 before = round == 0 ? 0 : query_int (db, sql_n);
      /* 0.3 s to 1.5 s and more, of a run of some seconds (a process start
       * on a loaded machine can take a good part of it). */
      gint64 kill_at = g_get_monotonic_time () +
                       g_rand_int_range (rand, 300, 1500 + 200 * (gint32) round) * 1000;
      int devnull = g_open ("/dev/null", O_WRONLY, 0);
      GPid pid;
      int status;
      gboolean killed = FALSE;

      g_assert_true (g_spawn_async_with_fds (NULL, (char **) argv, NULL,
                                             G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, -1,
                                             devnull, devnull, &error));
      close (devnull);
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
          g_usleep (5000);
        }
      g_spawn_close_pid (pid);
      /* Whole cycles only, from 1 without a gap. */
      g_assert_cmpint (query_int (db, sql_n), ==, query_int (db, sql_max));
      g_assert_cmpint (query_int (db, sql_n), >=, before);
      {
        g_autofree char *check = query_text (db, "PRAGMA integrity_check");

        g_assert_cmpstr (check, ==, "ok");
      }
      /* A run that found cycles recorded went on from the next. */
      if (before > 0 && query_int (db, sql_n) > before)
        resumed++;
      if (!killed)
        {
          g_assert_true (WIFEXITED (status));
          g_assert_cmpint (WEXITSTATUS (status), ==, 0);
          finished = TRUE;
        }
    }
  g_test_message ("%u runs killed, %u resumed and went on", kills, resumed);
  if (!finished)
    g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--db",
                             db, "--all", "--only", "pose-rated-10", NULL));
  g_assert_cmpint (query_int (db, sql_n), ==, 30);
  g_assert_cmpint (query_int (db, sql_max), ==, 30);
  g_assert_cmpuint (kills, >=, 1);
  /* Nothing left: the same command runs no cycle. */
  {
    g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard",
                                            "iso9283", "--db", db, "--all", "--only",
                                            "pose-rated-10", NULL);

    g_assert_nonnull (strstr (out, "0 cycles run"));
  }
  g_rand_free (rand);
}

/* Over the motion HTTP API against navbench-cli serve: the rest-pose
 * characteristics, at 100 % and below, the paths left with the reason. */
static void
test_http (void)
{
  g_autofree char *db = new_campaign ("http");
  g_autofree char *out = NULL, *plan = NULL;
  g_autoptr (JsonParser) p = json_parser_new (), pp = json_parser_new ();
  NbTestServer server = nb_test_serve ("--time-scale", "0", NULL);
  const char *const configs[] = { "vap-rated-100", "distance-rated-100", "pose-10pct-100" };
  JsonObject *o;

  for (guint i = 0; i < G_N_ELEMENTS (configs); i++)
    {
      g_free (out);
      g_clear_object (&p);
      p = json_parser_new ();
      out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--db",
                             db, "--all", "--only", configs[i], "--robot", server.url, "--json",
                             NULL);
      o = nb_test_parse_object (p, out);
      g_assert_cmpint (json_object_get_int_member (o, "cycles_run"), ==, 30);
    }
  /* The figures of the three, from the file: vAP of the served arm's
   * backlash and noise (2e-5 and 1e-5 rad), AD of the geometry. */
  {
    JsonArray *a = json_object_get_array_member (o, "configs");

    g_assert_cmpuint (json_array_get_length (a), ==, 3);
    for (guint i = 0; i < 3; i++)
      {
        JsonObject *c = json_array_get_object_element (a, i);
        JsonObject *row = json_array_get_object_element (json_object_get_array_member (c, "rows"),
                                                         0);

        g_assert_true (json_object_get_null_member (c, "error"));
        g_assert_cmpint (json_object_get_int_member (c, "cycles"), ==, 30);
        if (g_str_equal (json_object_get_string_member (c, "config"), "vap-rated-100"))
          {
            g_assert_cmpfloat (json_object_get_double_member (row, "vap_mm"), >, 0.001);
            g_assert_cmpfloat (json_object_get_double_member (row, "vap_mm"), <, 0.2);
          }
        if (g_str_equal (json_object_get_string_member (c, "config"), "distance-rated-100"))
          g_assert_cmpfloat (fabs (json_object_get_double_member (row, "ad_mm")), >, 0.05);
      }
  }
  /* The paths go over HTTP as timed trajectories, watched by the sampler: on
   * a served arm that moves in no time there is nothing to watch, an error
   * and no cycle (tests/test-iso9283-http.c checks the paths' figures on one
   * that moves, the slower speeds, the static compliance and the streams). */
  g_free (out);
  {
    g_autofree char *err = NULL;

    out = nb_test_cli_run (NULL, 1, &err, "campaign", "run", "--standard", "iso9283", "--db",
                           db, "--all", "--only", "path-line-rated-100", "--robot", server.url,
                           NULL);
    g_assert_cmpstr (out, ==, "");
    g_assert_nonnull (strstr (err, "the motion was not watched"));
  }
  g_free (out);
  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--db", db,
                         "--all", "--only", "distance-rated-50", "--robot", server.url, NULL);
  g_assert_nonnull (strstr (out, "30 cycles run"));
  nb_test_server_stop (&server);
  plan = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--standard", "iso9283", "--db", db,
                          "--json", NULL);
  o = nb_test_parse_object (pp, plan);
  g_assert_cmpstr (json_object_get_string_member (plan_config (o, "vap-rated-100"), "state"), ==,
                   "complete");
  g_assert_cmpstr (json_object_get_string_member (plan_config (o, "distance-rated-50"), "state"),
                   ==, "complete");
  g_assert_cmpstr (json_object_get_string_member (plan_config (o, "pose-rated-100"), "state"), ==,
                   "not started");
  /* Begun, no cycle recorded. */
  g_assert_cmpint (json_object_get_int_member (plan_config (o, "path-line-rated-100"), "cycles"),
                   ==, 0);
}

/* The protocol's ISO 9283 section from the file, in both languages, with
 * the figures the JSON gives. */
static void
test_report (void)
{
  g_autofree char *db = new_campaign ("report");
  g_autofree char *pdf_en = g_build_filename (tmp_dir, "plan-en.pdf", NULL);
  g_autofree char *pdf_ru = g_build_filename (tmp_dir, "plan-ru.pdf", NULL);
  g_autofree char *out = NULL, *text_en = NULL, *text_ru = NULL, *vap = NULL, *cr = NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  const char *argv_en[] = { "pdftotext", "-layout", pdf_en, "-", NULL };
  const char *argv_ru[] = { "pdftotext", "-layout", pdf_ru, "-", NULL };
  JsonArray *a;
  int status;

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--db", db,
                           "--all", "--only", "vap-rated-50", NULL));
  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--db", db,
                         "--all", "--only", "corner-10pct-100", "--json", "--report", pdf_en,
                         NULL);
  a = json_object_get_array_member (nb_test_parse_object (p, out), "configs");
  g_assert_cmpuint (json_array_get_length (a), ==, 2);
  vap = g_strdup_printf ("%.3f", json_object_get_double_member (json_array_get_object_element (
          json_object_get_array_member (json_array_get_object_element (a, 0), "rows"), 1),
          "vap_mm"));
  cr = g_strdup_printf ("%.3f", json_object_get_double_member (json_array_get_object_element (
         json_object_get_array_member (json_array_get_object_element (a, 1), "rows"), 0),
         "cr_mm"));
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--db", db,
                           "--all", "--only", "corner-10pct-100", "--report", pdf_ru, "--lang",
                           "ru", NULL));
  g_assert_true (g_spawn_sync (NULL, (char **) argv_en, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &text_en, NULL, &status, NULL));
  g_assert_true (g_spawn_sync (NULL, (char **) argv_ru, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &text_ru, NULL, &status, NULL));
  g_assert_nonnull (strstr (text_en, "The ISO 9283 test plan"));
  g_assert_nonnull (strstr (text_en, "Multi-directional pose accuracy variation"));
  g_assert_nonnull (strstr (text_en, "Corner deviations"));
  g_assert_nonnull (strstr (text_en, "10 % of the rated load"));
  g_assert_nonnull (strstr (text_ru, "План испытаний по ГОСТ Р ИСО 9283"));
  g_assert_nonnull (strstr (text_ru, "Изменение точности позиционирования при многонаправленном"));
  g_assert_nonnull (strstr (text_ru, "Отклонения на углах"));
  g_assert_nonnull (strstr (text_ru, "не начата"));
  g_assert_nonnull (strstr (text_ru, "CR (макс.)"));
  /* P2's vAP and the corner's CR as the tables print them. */
  g_assert_nonnull (strstr (text_en, vap));
  g_assert_nonnull (strstr (text_ru, vap));
  g_assert_nonnull (strstr (text_en, cr));
  g_assert_nonnull (strstr (text_ru, cr));
}

/* The same members with the same values (numbers to 1e-12, relative). */
static void
assert_same_object (JsonObject *a, JsonObject *b)
{
  g_autoptr (GList) members = json_object_get_members (a);

  g_assert_cmpuint (json_object_get_size (a), ==, json_object_get_size (b));
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *x = json_object_get_member (a, l->data), *y = json_object_get_member (b, l->data);

      g_assert_nonnull (y);
      if (JSON_NODE_HOLDS_VALUE (x) && json_node_get_value_type (x) == G_TYPE_DOUBLE)
        {
          double u = json_node_get_double (x), v = json_node_get_double (y);

          g_assert_cmpfloat (fabs (u - v), <=, 1e-12 * fmax (1.0, fabs (u)));
        }
      else if (JSON_NODE_HOLDS_VALUE (x) && json_node_get_value_type (x) == G_TYPE_STRING)
        g_assert_cmpstr (json_node_get_string (x), ==, json_node_get_string (y));
      else if (JSON_NODE_HOLDS_VALUE (x))
        g_assert_cmpint (json_node_get_int (x), ==, json_node_get_int (y));
    }
}

/* ISO 9283 in the campaign's main outputs: campaign results (text and
 * JSON), plain campaign plan (text and JSON) and navbench-cli report (md,
 * json, both languages), each against what `campaign run --standard
 * iso9283 --json` gave. */
static void
test_main_outputs (void)
{
  g_autofree char *db = new_campaign ("outputs");
  g_autofree char *run = NULL, *results = NULL, *results_text = NULL, *plan = NULL;
  g_autofree char *plan_text = NULL, *md_en = NULL, *md_ru = NULL, *doc_json = NULL;
  g_autofree char *cr = NULL, *line = NULL;
  g_autoptr (JsonParser) p1 = json_parser_new ();
  g_autoptr (JsonParser) p2 = json_parser_new ();
  g_autoptr (JsonParser) p3 = json_parser_new ();
  JsonObject *ran, *got, *o;
  JsonArray *a;

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "set", "--db", db, "robot.width_mm=600",
                           NULL));
  /* Before the ISO 9283 plan exists, the outputs are ISO 18646-2's alone. */
  plan = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", db, "--json", NULL);
  g_assert_false (json_object_has_member (nb_test_parse_object (p2, plan), "iso9283"));
  g_clear_pointer (&plan, g_free);
  results = nb_test_cli_run (NULL, 0, NULL, "campaign", "results", "--db", db, "--json", NULL);
  g_assert_false (json_object_has_member (nb_test_parse_object (p2, results), "iso9283"));
  g_clear_pointer (&results, g_free);

  run = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--db", db,
                         "--all", "--only", "corner-10pct-100", "--json", NULL);
  a = json_object_get_array_member (nb_test_parse_object (p1, run), "configs");
  g_assert_cmpuint (json_array_get_length (a), ==, 1);
  ran = json_array_get_object_element (a, 0);
  g_assert_cmpstr (json_object_get_string_member (ran, "config"), ==, "corner-10pct-100");
  g_assert_cmpint (json_object_get_int_member (ran, "cycles"), ==, 3);

  /* campaign results --json: "iso9283": {"configs": [...]}, the run's figures. */
  results = nb_test_cli_run (NULL, 0, NULL, "campaign", "results", "--db", db, "--json", NULL);
  o = nb_test_parse_object (p2, results);
  g_assert_true (json_object_has_member (o, "clauses"));
  a = json_object_get_array_member (json_object_get_object_member (o, "iso9283"), "configs");
  g_assert_cmpuint (json_array_get_length (a), ==, 1);
  got = json_array_get_object_element (a, 0);
  assert_same_object (ran, got);
  {
    JsonArray *r1 = json_object_get_array_member (ran, "rows");
    JsonArray *r2 = json_object_get_array_member (got, "rows");

    g_assert_cmpuint (json_array_get_length (r1), ==, 1);
    g_assert_cmpuint (json_array_get_length (r2), ==, 1);
    assert_same_object (json_array_get_object_element (r1, 0), json_array_get_object_element (r2, 0));
    cr = g_strdup_printf ("%.3f", json_object_get_double_member (
                            json_array_get_object_element (r1, 0), "cr_mm"));
  }
  g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (
                       json_object_get_array_member (ran, "rows"), 0), "cr_mm"), >, 0.0);
  results_text = nb_test_cli_run (NULL, 0, NULL, "campaign", "results", "--db", db, NULL);
  line = g_strdup_printf ("ISO 9283:\ncorner-10pct-100 (8.5): P3: CR (max) %s mm", cr);
  g_assert_nonnull (strstr (results_text, line));

  /* Plain campaign plan: the 41 ISO 9283 configurations after ISO 18646-2's. */
  plan = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", db, "--json", NULL);
  o = nb_test_parse_object (p3, plan);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "configs")), >, 0);
  a = json_object_get_array_member (o, "iso9283");
  g_assert_cmpuint (json_array_get_length (a), ==, 41);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *e = json_array_get_object_element (a, i);
      gboolean corner = g_str_equal (json_object_get_string_member (e, "config"),
                                     "corner-10pct-100");

      g_assert_cmpstr (json_object_get_string_member (e, "state"), ==,
                       corner ? "complete" : "not started");
      g_assert_cmpint (json_object_get_int_member (e, "cycles"), ==, corner ? 3 : 0);
    }
  g_assert_cmpstr (json_object_get_string_member (o, "iso9283_next"), ==, "pose-rated-100");
  plan_text = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", db, NULL);
  {
    const char *iso = strstr (plan_text, "\nISO 9283 (campaign plan --standard iso9283");

    g_assert_nonnull (iso);
    /* After ISO 18646-2's rows. */
    g_assert_true (strstr (plan_text, "straight-no-load") < iso);
    g_assert_true (g_regex_match_simple ("8\\.5 +corner-10pct-100 +100 % +10% +3/3 +complete", iso,
                                         0, 0));
    g_assert_nonnull (strstr (iso, "next: 'pose-rated-100'"));
  }

  /* navbench-cli report: the ISO 9283 section under its own heading. */
  md_en = nb_test_cli_run (NULL, 0, NULL, "report", "--db", db, "--format", "md", "--output", "-",
                           NULL);
  md_ru = nb_test_cli_run (NULL, 0, NULL, "report", "--db", db, "--format", "md", "--lang", "ru",
                           "--output", "-", NULL);
  doc_json = nb_test_cli_run (NULL, 0, NULL, "report", "--db", db, "--format", "json",
                              "--output", "-", NULL);
  g_assert_nonnull (strstr (md_en, "Test report: ISO 9283:1998 (manipulating industrial robots)"));
  g_assert_nonnull (strstr (md_en, "The ISO 9283 test plan"));
  g_assert_nonnull (strstr (md_en, "Corner deviations (8.5): corner-10pct-100"));
  g_assert_nonnull (strstr (md_en, cr));
  g_assert_true (strstr (md_en, "10 Mapping accuracy") < strstr (md_en, "The ISO 9283 test plan"));
  g_assert_nonnull (strstr (md_ru, "Протокол испытаний по ГОСТ Р ИСО 9283-2003"));
  g_assert_nonnull (strstr (md_ru, "План испытаний по ГОСТ Р ИСО 9283"));
  g_assert_nonnull (strstr (md_ru, "Отклонения на углах (8.5): corner-10pct-100"));
  g_assert_nonnull (strstr (md_ru, "выполнена"));
  g_assert_nonnull (strstr (md_ru, cr));
  g_assert_nonnull (strstr (doc_json, "Corner deviations (8.5): corner-10pct-100"));
  g_assert_nonnull (strstr (doc_json, cr));
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = nb_test_make_dir ();
  g_test_add_func ("/iso9283-plan-cli/plan", test_plan);
  g_test_add_func ("/iso9283-plan-cli/kill-resume", test_kill_resume);
  g_test_add_func ("/iso9283-plan-cli/http", test_http);
  g_test_add_func ("/iso9283-plan-cli/report", test_report);
  g_test_add_func ("/iso9283-plan-cli/main-outputs", test_main_outputs);
  rc = g_test_run ();
  nb_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
