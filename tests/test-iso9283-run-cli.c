/* test-iso9283-run-cli — campaign run --standard iso9283: the pose test on the simulated arm and
 * over the motion HTTP API against `navbench-cli serve`
 *
 * 5 poses × 30 cycles each way: 180 goals, every pose measured 30 times,
 * the attained poses written where `compute iso9283 pose` reads them back to
 * the same figures; the served arm and the in-process one share the error
 * model's geometry, so their AP agree within the noise.
 */
#include "nb-test-cli.h"
#include "nb-test-tmp.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static char *tmp_dir;

/* Each pose's figures read back through compute iso9283 pose. */
static void
check_against_compute (JsonObject *run, const char *dir)
{
  JsonArray *poses = json_object_get_array_member (run, "poses");

  g_assert_cmpuint (json_array_get_length (poses), ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      JsonObject *p = json_array_get_object_element (poses, i);
      g_autofree char *name = g_strdup_printf ("P%u.csv", i + 1);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *text = NULL, *command = NULL, *out = NULL;
      g_autoptr (JsonParser) parser = json_parser_new ();
      const char *cmd_line;
      JsonObject *c;

      g_assert_cmpint (json_object_get_int_member (p, "n"), ==, 30);
      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      cmd_line = strstr (text, "# Command: ");
      g_assert_nonnull (cmd_line);
      command = g_strndup (cmd_line + 11, strcspn (cmd_line + 11, "\n"));
      out = nb_test_cli_run (NULL, 0, NULL, "compute", "iso9283", "pose", "--input", path,
                             "--command", command, "--json", NULL);
      c = nb_test_parse_object (parser, out);
      g_assert_cmpint (json_object_get_int_member (c, "n"), ==, 30);
      nb_assert_abs (json_object_get_double_member (c, "ap_mm"),
                     json_object_get_double_member (p, "ap_mm"), 1e-12, "AP read back");
      nb_assert_abs (json_object_get_double_member (c, "rp_mm"),
                     json_object_get_double_member (p, "rp_mm"), 1e-12, "RP read back");
      nb_assert_abs (json_object_get_double_member (c, "ap_a_deg"),
                     json_object_get_double_member (p, "ap_a_deg"), 1e-12, "AP_a read back");
    }
}

static void
test_sim_and_http (void)
{
  g_autofree char *dir_sim = g_build_filename (tmp_dir, "sim", NULL);
  g_autofree char *dir_http = g_build_filename (tmp_dir, "http", NULL);
  g_autofree char *out_sim = NULL, *out_http = NULL;
  g_autoptr (JsonParser) ps = json_parser_new (), ph = json_parser_new ();
  NbTestServer server;
  JsonObject *rs, *rh;

  out_sim = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283",
                             "--robot", "sim", "--cycles", "30", "--output", dir_sim, "--json",
                             NULL);
  rs = nb_test_parse_object (ps, out_sim);
  g_assert_cmpint (json_object_get_int_member (rs, "goals"), ==, 180);
  g_assert_cmpint (json_object_get_int_member (rs, "cycles"), ==, 30);
  g_assert_cmpfloat (json_object_get_double_member (rs, "edge_mm"), >, 150);
  check_against_compute (rs, dir_sim);

  server = nb_test_serve ("--time-scale", "0", NULL);
  out_http = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard=iso9283",
                              "--robot", server.url, "--output", dir_http, "--json", NULL);
  rh = nb_test_parse_object (ph, out_http);
  g_assert_cmpint (json_object_get_int_member (rh, "goals"), ==, 180);
  g_assert_cmpstr (json_object_get_string_member (rh, "robot"), ==, server.url);
  check_against_compute (rh, dir_http);
  /* One geometry, two arms: AP within the noise (the served arm's joint
   * noise is 2e-5 rad, the in-process one's 1e-5 rad plus the servo). */
  for (guint i = 0; i < 5; i++)
    {
      JsonObject *a = json_array_get_object_element (json_object_get_array_member (rs, "poses"), i);
      JsonObject *b = json_array_get_object_element (json_object_get_array_member (rh, "poses"), i);

      g_test_message ("P%u: AP %.4f mm (sim) %.4f mm (HTTP), RP %.4f / %.4f mm", i + 1,
                      json_object_get_double_member (a, "ap_mm"),
                      json_object_get_double_member (b, "ap_mm"),
                      json_object_get_double_member (a, "rp_mm"),
                      json_object_get_double_member (b, "rp_mm"));
      nb_assert_abs (json_object_get_double_member (a, "ap_mm"),
                     json_object_get_double_member (b, "ap_mm"), 0.04, "AP sim vs HTTP");
      g_assert_cmpfloat (json_object_get_double_member (b, "rp_mm"), >, 0.005);
      g_assert_cmpfloat (json_object_get_double_member (b, "rp_mm"), <, 0.15);
    }

  /* Over HTTP at 50 %: the goals carry max_velocity_scaling_factor 0.5
   * (the served arm takes it); the rest poses are the same geometry's. */
  {
    g_autoptr (JsonParser) p50 = json_parser_new ();
    g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard",
                                            "iso9283", "--robot", server.url, "--speed", "50",
                                            "--cycles", "5", "--json", NULL);
    JsonObject *r50 = nb_test_parse_object (p50, out);

    g_assert_cmpfloat (json_object_get_double_member (r50, "speed_pct"), ==, 50);
    g_assert_cmpint (json_object_get_int_member (r50, "goals"), ==, 30);
    for (guint i = 0; i < 5; i++)
      nb_assert_abs (json_object_get_double_member (json_array_get_object_element (
                       json_object_get_array_member (r50, "poses"), i), "ap_mm"),
                     json_object_get_double_member (json_array_get_object_element (
                       json_object_get_array_member (rh, "poses"), i), "ap_mm"), 0.04,
                     "AP over HTTP at 50 % and 100 %");
  }
  nb_test_server_stop (&server);
}

static void
test_bad_input (void)
{
  g_autofree char *err = NULL, *out = NULL;

  out = nb_test_cli_run (NULL, 2, &err, "campaign", "run", "--standard", "iso9283", "--centre",
                         "2500,0,400", NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "no test cube fits"));
  g_free (out);
  g_free (err);
  out = nb_test_cli_run (NULL, 2, &err, "campaign", "run", "--standard", "iso9283", "--speed",
                         "70", NULL);
  g_assert_nonnull (strstr (err, "--speed 100, 50 or 10"));
  g_free (out);
  g_free (err);
  out = nb_test_cli_run (NULL, 2, &err, "campaign", "run", "--standard", "iso9283", "--robot",
                         "ftp://x", NULL);
  g_assert_nonnull (strstr (err, "--robot is sim or http"));
}

/* 50 % and 10 % speed on the simulator: slower, the same geometry; 10 % of
 * the rated load: the arm deflects less (6.6, the simulator's load model). */
static void
test_speeds (void)
{
  g_autofree char *o100 = NULL, *o10 = NULL, *o10l = NULL;
  g_autoptr (JsonParser) p1 = json_parser_new (), p2 = json_parser_new (), p3 = json_parser_new ();
  JsonObject *a, *b, *c;

  o100 = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--cycles",
                          "5", "--json", NULL);
  o10 = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--cycles",
                         "5", "--speed", "10", "--json", NULL);
  o10l = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--cycles",
                          "5", "--speed", "10", "--load", "10%", "--json", NULL);
  a = nb_test_parse_object (p1, o100);
  b = nb_test_parse_object (p2, o10);
  c = nb_test_parse_object (p3, o10l);
  g_assert_cmpfloat (json_object_get_double_member (b, "speed_pct"), ==, 10);
  g_assert_cmpstr (json_object_get_string_member (c, "load"), ==, "10%");
  for (guint i = 0; i < 5; i++)
    {
      double ap100 = json_object_get_double_member (json_array_get_object_element (
                       json_object_get_array_member (a, "poses"), i), "ap_mm");
      double ap10 = json_object_get_double_member (json_array_get_object_element (
                      json_object_get_array_member (b, "poses"), i), "ap_mm");
      double z_rated = json_object_get_double_member (json_array_get_object_element (
                         json_object_get_array_member (b, "poses"), i), "ap_z_mm");
      double z_light = json_object_get_double_member (json_array_get_object_element (
                         json_object_get_array_member (c, "poses"), i), "ap_z_mm");

      nb_assert_abs (ap100, ap10, 0.02, "AP at 100 % and 10 %");
      /* The rated load sags the TCP by more than 0.1 mm against 10 % of it. */
      g_assert_cmpfloat (z_rated, <, z_light - 0.1);
    }
}

/* The protocol's ISO 9283 section in both languages, its words and figures. */
static void
test_report (void)
{
  g_autofree char *pdf_en = g_build_filename (tmp_dir, "iso9283-en.pdf", NULL);
  g_autofree char *pdf_ru = g_build_filename (tmp_dir, "iso9283-ru.pdf", NULL);
  g_autofree char *out = NULL, *err = NULL, *text_en = NULL, *text_ru = NULL, *ap = NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  const char *argv_en[] = { "pdftotext", "-layout", pdf_en, "-", NULL };
  const char *argv_ru[] = { "pdftotext", "-layout", pdf_ru, "-", NULL };
  JsonObject *o;
  int status;

  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--json",
                         "--report", pdf_en, NULL);
  o = nb_test_parse_object (p, out);
  g_free (out);
  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--lang",
                         "ru", "--report", pdf_ru, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv_en, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &text_en, NULL, &status, NULL));
  g_assert_true (g_spawn_sync (NULL, (char **) argv_ru, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &text_ru, NULL, &status, NULL));
  g_assert_nonnull (strstr (text_en, "Pose accuracy and pose repeatability"));
  g_assert_nonnull (strstr (text_en, "ISO 9283:1998"));
  g_assert_nonnull (strstr (text_en, "C1-C2-C7-C8"));
  g_assert_nonnull (strstr (text_ru, "ГОСТ Р ИСО 9283-2003"));
  g_assert_nonnull (strstr (text_ru, "Точность позиционирования"));
  g_assert_nonnull (strstr (text_ru, "повторяемость позиционирования"));
  g_assert_nonnull (strstr (text_ru, "Страница 3 из 3"));
  g_assert_nonnull (strstr (text_ru, "RP_l, мм"));
  /* P2's AP as the table prints it (3 decimals), the same run (same seed) in both. */
  ap = g_strdup_printf ("%.3f", json_object_get_double_member (json_array_get_object_element (
                                  json_object_get_array_member (o, "poses"), 1), "ap_mm"));
  g_assert_nonnull (strstr (text_en, ap));
  g_assert_nonnull (strstr (text_ru, ap));
  g_free (out);
  out = nb_test_cli_run (NULL, 2, &err, "campaign", "run", "--standard", "iso9283", "--lang",
                         "de", "--report", pdf_en, NULL);
  g_assert_nonnull (strstr (err, "--lang is en or ru"));
}

/* Done when (#19): a full pose campaign (5 poses × 30 cycles) over the HTTP API against
 * navbench-cli serve and on the simulator, recorded in one campaign file and reported from it. */
static void
test_recorded_and_reported (void)
{
  g_autofree char *db = g_build_filename (tmp_dir, "iso9283.nbc", NULL);
  g_autofree char *pdf = g_build_filename (tmp_dir, "iso9283-campaign-ru.pdf", NULL);
  g_autofree char *out = NULL, *err = NULL, *text = NULL, *info = NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  const char *argv_txt[] = { "pdftotext", "-layout", pdf, "-", NULL };
  NbTestServer server;
  JsonObject *o;
  int status;

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name", "iiwa 7 ISO 9283",
                           NULL));
  server = nb_test_serve ("--time-scale", "0", NULL);
  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--robot",
                         server.url, "--db", db, "--config", "HTTP 100 % rated", "--json", NULL);
  o = nb_test_parse_object (p, out);
  g_assert_cmpint (json_object_get_int_member (o, "goals"), ==, 180);
  nb_test_server_stop (&server);
  g_free (out);
  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--db", db,
                         "--config", "sim 10 % 10 % load", "--speed", "10", "--load", "10%", NULL);
  g_free (out);
  /* A name is recorded once. */
  out = nb_test_cli_run (NULL, 2, &err, "campaign", "run", "--standard", "iso9283", "--db", db,
                         "--config", "sim 10 % 10 % load", "--cycles", "2", NULL);
  g_assert_nonnull (strstr (err, "exists"));
  g_free (out);
  g_free (err);
  out = nb_test_cli_run (NULL, 2, &err, "campaign", "run", "--standard", "iso9283", "--db", db,
                         NULL);
  g_assert_nonnull (strstr (err, "--db F and --config NAME go together"));
  g_free (out);
  /* The report from the file: both runs, the HTTP one's AP as it was printed. */
  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--db", db,
                         "--config", "sim 2 cycles", "--cycles", "2", "--report", pdf, "--lang",
                         "ru", NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv_txt, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &text, NULL, &status, NULL));
  g_assert_nonnull (strstr (text, "Конфигурация: HTTP 100 % rated."));
  g_assert_nonnull (strstr (text, "sim 10 % 10 % load"));
  g_assert_nonnull (strstr (text, "10 % номинальной нагрузки"));
  g_assert_nonnull (strstr (text, "Скорость: 10 % номинальной скорости."));
  g_assert_nonnull (strstr (text, "Циклов меньше 30"));
  {
    g_autofree char *ap = g_strdup_printf ("%.3f", json_object_get_double_member (
                                             json_array_get_object_element (
                                               json_object_get_array_member (o, "poses"), 1),
                                             "ap_mm"));

    g_assert_nonnull (strstr (text, ap));
  }
  /* The event log names the runs. */
  info = nb_test_cli_run (NULL, 0, NULL, "campaign", "info", "--db", db, "--json", NULL);
  g_assert_nonnull (info);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = nb_test_make_dir ();
  g_test_add_func ("/iso9283-run-cli/sim-and-http", test_sim_and_http);
  g_test_add_func ("/iso9283-run-cli/bad-input", test_bad_input);
  g_test_add_func ("/iso9283-run-cli/speeds", test_speeds);
  g_test_add_func ("/iso9283-run-cli/report", test_report);
  g_test_add_func ("/iso9283-run-cli/recorded-and-reported", test_recorded_and_reported);
  rc = g_test_run ();
  nb_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
