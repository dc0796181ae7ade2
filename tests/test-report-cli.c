/* navbench-cli report end to end: a campaign with every clause filled (from
 * data/samples, through `campaign import`), its protocol as Markdown and JSON
 * against golden files in English and Russian, the PDF's text (pdftotext)
 * with every table heading and value, and the figures equal to `campaign
 * results`.  NB_REBUILD_GOLDEN=1 rewrites the golden files. */
#include "nb-test.h"
#include "nb-test-cli.h"

#include "nb-campaign.h"
#include "nb-catalogue.h"
#include "nb-pdf.h"
#include "nb-protocol-report.h"

#include <pango/pangocairo.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

static char *tmpdir;
static char *db;

/* The test dates come from the campaign's event log (the day the test ran):
 * masked before comparing with a golden file. */
static char *
mask_test_dates (const char *text)
{
  g_autoptr (GRegex) re = g_regex_new ("(Test dates|Даты испытаний)(\\W+)\\d{4}-\\d{2}-\\d{2}"
                                       "( – \\d{4}-\\d{2}-\\d{2})?", 0, 0, NULL);

  return g_regex_replace (re, text, -1, 0, "\\1\\2YYYY-MM-DD", 0, NULL);
}

static void
assert_golden (const char *name, const char *unmasked)
{
  g_autofree char *actual = mask_test_dates (unmasked);

  nb_test_assert_golden (name, actual);
}

static void
make_campaign (void)
{
  const char *s = "data/samples/";
  g_autofree char *p5 = g_strconcat (s, "pose-straight-noload.csv", NULL);
  g_autofree char *p6 = g_strconcat (s, "detection.csv", NULL);
  g_autofree char *p7 = g_strconcat (s, "avoidance.csv", NULL);
  g_autofree char *p8 = g_strconcat (s, "path-straight-noload.csv", NULL);
  g_autofree char *p9 = g_strconcat (s, "passage.csv", NULL);
  g_autofree char *p10 = g_strconcat (s, "mapping-map.csv", NULL);
  g_autofree char *t10 = g_strconcat (s, "mapping-truth.csv", NULL);

  tmpdir = g_dir_make_tmp ("nb-report-XXXXXX", NULL);
  db = g_build_filename (tmpdir, "c.nbc", NULL);
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "new", "--db", db, "--name", "Rover 2", "robot.maker=ACME",
               "robot.model=Rover 2", "robot.width_mm=730", "robot.rated_speed_mm_s=1000",
               "robot.rated_load_kg=20", "conditions.temperature_c=34",
               "conditions.friction_coefficient=0.72", "operator=I. Ivanov", NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "import", "--db", db, "--clause", "5", "--config", "straight",
               "--route", "straight", "--load-kg", "0", "--input", p5, "--command", "5000,0,0",
               NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "import", "--db", db, "--clause", "6", "--config", "obstacles",
               "--input", p6, NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "import", "--db", db, "--clause", "7", "--input", p7, NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "import", "--db", db, "--clause", "8", "--config", "straight",
               "--input", p8, "--from", "0,0", "--to", "5000,0", NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "import", "--db", db, "--clause", "10", "--config", "arena",
               "--input", p10, "--truth", t10, "--defect-range-mm", "50", NULL));
  /* Clause 9 is left out: the protocol must say it was not tested. */
}

static void
test_markdown_json_golden (void)
{
  g_autofree char *en = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", db, "--format", "md", "--lang", "en", NULL);
  g_autofree char *ru = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", db, "--format=md", "--lang=ru", NULL);
  g_autofree char *json = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", db, "--format", "json", NULL);

  assert_golden ("report-en.md", en);
  assert_golden ("report-ru.md", ru);
  assert_golden ("report-en.json", json);
  g_assert_nonnull (strstr (en, "This clause was not tested in this campaign."));
  g_assert_nonnull (strstr (ru, "Испытания по этому разделу в данной программе не проводились."));
  /* 34 °C is outside 4.2's 10–30 °C: flagged, in words and in the table. */
  g_assert_nonnull (strstr (en, "ambient temperature 34 °C is outside 10–30 °C"));
  g_assert_nonnull (strstr (ru, "температура окружающей среды 34 °C вне диапазона 10–30 °C"));
  g_assert_nonnull (strstr (ru, "Погрешность отработки позиции Ap, мм"));
  g_assert_nonnull (strstr (ru, "Повторяемость отработки позиции Rp, мм"));
}

/* Every figure of the protocol's JSON equals `campaign results`. */
static void
test_figures_agree (void)
{
  g_autofree char *report = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", db, "--format", "json", NULL);
  g_autofree char *results = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "results", "--db", db, "--json", NULL);
  g_autoptr (JsonParser) pr = json_parser_new (), pc = json_parser_new ();
  JsonArray *blocks;
  JsonObject *clauses;
  struct { guint clause; const char *key; } checks[] = {
    { 5, "ap_mm" }, { 5, "ao_deg" }, { 5, "rp_mm" }, { 5, "ro_deg" }, { 7, "t0_s" },
    { 7, "t1_s" }, { 7, "delay_ratio" }, { 8, "max_mm" }, { 8, "mean_mm" }, { 8, "std_mm" },
  };
  guint checked = 0;

  g_assert_true (json_parser_load_from_data (pr, report, -1, NULL));
  g_assert_true (json_parser_load_from_data (pc, results, -1, NULL));
  blocks = json_object_get_array_member (json_node_get_object (json_parser_get_root (pr)), "blocks");
  clauses = json_object_get_object_member (json_node_get_object (json_parser_get_root (pc)), "clauses");
  for (guint k = 0; k < G_N_ELEMENTS (checks); k++)
    {
      char clause[4];
      JsonObject *cr;

      g_snprintf (clause, sizeof clause, "%u", checks[k].clause);
      cr = json_array_get_object_element (json_object_get_array_member (clauses, clause), 0);
      /* Find the first table row with that key. */
      for (guint i = 0; i < json_array_get_length (blocks); i++)
        {
          JsonObject *b = json_array_get_object_element (blocks, i);
          JsonArray *rows;

          if (!json_object_has_member (b, "table"))
            continue;
          rows = json_object_get_array_member (json_object_get_object_member (b, "table"), "rows");
          if (json_array_get_length (rows) == 0 ||
              !json_object_has_member (json_array_get_object_element (rows, 0), checks[k].key))
            continue;
          nb_assert_rel (json_object_get_double_member (json_array_get_object_element (rows, 0),
                                                        checks[k].key),
                         json_object_get_double_member (cr, checks[k].key), 1e-15, checks[k].key);
          checked++;
          break;
        }
    }
  g_assert_cmpuint (checked, ==, G_N_ELEMENTS (checks));
}

static void
test_pdf_text (void)
{
  const char *langs[] = { "en", "ru" };
  const char *expect[2][8] = {
    { "Test protocol", "Contents", "Table 1", "Table 3", "Table 4", "Table 5", "Table 7",
      "This clause was not tested" },
    { "Протокол испытаний", "Содержание", "Таблица 1", "Таблица 3", "Таблица 4", "Таблица 5",
      "Таблица 7", "не проводились" },
  };

  for (guint l = 0; l < 2; l++)
    {
      g_autofree char *pdf = g_strdup_printf ("%s/report-%s.pdf", tmpdir, langs[l]);
      g_autofree char *text = NULL, *err = NULL;
      const char *argv[] = { "pdftotext", pdf, "-", NULL };
      g_autofree char *json = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", db, "--format", "json", "--lang",
                                   langs[l], NULL);
      int status;

      g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", db, "--lang", langs[l], "-o", pdf, NULL));
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                                   &text, &err, &status, NULL));
      g_assert_cmpint (status, ==, 0);
      for (guint k = 0; k < 8; k++)
        if (strstr (text, expect[l][k]) == NULL)
          g_error ("%s: the PDF's text lacks \"%s\"", langs[l], expect[l][k]);
      /* Every value a table shows (its decimals) is in the PDF. */
      {
        g_autofree char *md = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", db, "--format", "md", "--lang", langs[l],
                                   NULL);
        g_auto (GStrv) lines = g_strsplit (md, "\n", -1);
        guint values = 0;

        for (guint i = 0; lines[i]; i++)
          {
            g_auto (GStrv) cells = NULL;

            /* Table titles and column headings: every word is in the PDF
             * (headings may wrap, words do not break). */
            if (g_str_has_prefix (lines[i], "### ") ||
                (g_str_has_prefix (lines[i], "| ") && lines[i + 1] && strstr (lines[i + 1], "---")))
              {
                g_auto (GStrv) words = g_strsplit_set (lines[i] + 2, " |,/", -1);

                for (guint k = 0; words[k]; k++)
                  if (g_utf8_strlen (words[k], -1) >= 3 && strchr (words[k], '\\') == NULL &&
                      strstr (text, words[k]) == NULL)
                    g_error ("%s: the PDF lacks the heading word \"%s\" (%s)", langs[l], words[k],
                             lines[i]);
                continue;
              }
            if (!g_str_has_prefix (lines[i], "| ") || strstr (lines[i], "---"))
              continue;
            cells = g_strsplit (lines[i], "|", -1);
            for (guint c = 0; cells[c]; c++)
              {
                g_autofree char *v = g_strstrip (g_strdup (cells[c]));

                if (g_ascii_isdigit (v[0]) && strchr (v, '.') && strlen (v) < 12)
                  {
                    if (strstr (text, v) == NULL)
                      g_error ("%s: the PDF lacks the value %s", langs[l], v);
                    values++;
                  }
              }
          }
        g_assert_cmpuint (values, >, 30);
      }
    }
}

/* export --table: the protocol's tables as CSV and JSON, from the same model. */
static void
test_export_tables (void)
{
  g_autofree char *t1 = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "export", "--db", db, "--table", "1", "--format", "csv", NULL);
  g_autofree char *t5 = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "export", "--db", db, "--table", "5", "--format", "csv", NULL);
  g_autofree char *t7 = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "export", "--db", db, "--table=7", "--format=json", "--lang=ru", NULL);
  g_autofree char *results = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "results", "--db", db, "--json", NULL);
  g_autoptr (JsonParser) p7 = json_parser_new (), pr = json_parser_new ();
  JsonObject *table, *last, *r10;
  JsonArray *rows;

  assert_golden ("report-table1.csv", t1);
  assert_golden ("report-table5.csv", t5);
  g_assert_true (json_parser_load_from_data (p7, t7, -1, NULL));
  g_assert_true (json_parser_load_from_data (pr, results, -1, NULL));
  table = json_array_get_object_element (json_node_get_array (json_parser_get_root (p7)), 0);
  g_assert_cmpstr (json_object_get_string_member (table, "title"), ==,
                   "Таблица 7 — Точность картографирования: arena");
  rows = json_object_get_array_member (table, "rows");
  last = json_array_get_object_element (rows, json_array_get_length (rows) - 1);
  r10 = json_array_get_object_element (
    json_object_get_array_member (json_object_get_object_member (
      json_node_get_object (json_parser_get_root (pr)), "clauses"), "10"), 0);
  nb_assert_rel (json_object_get_double_member (last, "dm_mm"),
                 json_object_get_double_member (r10, "accuracy_mm"), 1e-15, "mapping accuracy");
  /* Clause 9 was not tested: its table is refused, not written empty. */
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 2, NULL, "export", "--db", db, "--table", "6", "--format", "csv", NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 2, NULL, "export", "--db", db, "--table", "2", "--format", "csv", NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 2, NULL, "export", "--db", db, "--table", "1", "--trials", "5", NULL));
}

/* The sample campaign of tools/make-sample-campaign.sh (every field filled). */
static char *
make_sample (const char *name)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  const char *argv[] = { "sh", "tools/make-sample-campaign.sh", g_getenv ("NAVBENCH_CLI"), path,
                         NULL };
  int status;

  g_assert_true (g_spawn_sync (g_getenv ("NAVBENCH_SOURCE_ROOT"), (char **) argv, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_steal_pointer (&path);
}

static char *
pdf_text (const char *pdf)
{
  const char *argv[] = { "pdftotext", "-layout", pdf, "-", NULL };
  char *text = NULL;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH |
                               G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &text, NULL, &status,
                               NULL));
  g_assert_cmpint (status, ==, 0);
  return text;
}

/* `report --check` lists each required item left blank (ISO/IEC 17025 7.8,
 * clause 4) and exits 1; the report says "not stated" there, flagged. */
static void
test_check_missing (void)
{
  g_autofree char *err = NULL;
  g_autofree char *out = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 1, &err, "report",
                                          "--db", db, "--check", NULL);
  g_autofree char *json = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 1, NULL, "report",
                                           "--db", db, "--check", "--format", "json", NULL);
  g_autofree char *ru = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 1, NULL, "report",
                                         "--db", db, "--check", "--lang", "ru", NULL);
  g_autofree char *md = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report",
                                         "--db", db, "--format", "md", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o = nb_test_parse_object (parser, json);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  static const char *const expected[] = {
    "Report identifier (ISO/IEC 17025 7.8.2.1 d): not stated",
    "Laboratory (ISO/IEC 17025 7.8.2.1 b): not stated",
    "Laboratory address (ISO/IEC 17025 7.8.2.1 b): not stated",
    "Place of testing (ISO/IEC 17025 7.8.2.1 c): not stated",
    "Customer (ISO/IEC 17025 7.8.2.1 e): not stated",
    "Condition of the item on receipt (ISO/IEC 17025 7.8.2.1 g): not stated",
    "Date of receipt of the item (ISO/IEC 17025 7.8.2.1 h): not stated",
    "Dates of testing (ISO/IEC 17025 7.8.2.1 i): not stated",
    "Date of issue (ISO/IEC 17025 7.8.2.1 j): not stated",
    "Deviations from the method (ISO/IEC 17025 7.8.2.1 n): not stated",
    "Serial number (ISO/IEC 17025 7.8.2.1 g): not stated",
    "Preparation per the manufacturer (4.1): not stated",
    "State of the batteries (4.1): not stated",
    "Operating conditions (4.4): not stated",
    "Angular accuracy of the measurement system, ° (5.3): not stated",
    "Calibration certificate of the measurement system (ISO/IEC 17025 6.5): not stated",
    "Calibration due (ISO/IEC 17025 6.4.7): not stated",
    "Authorised signatory (ISO/IEC 17025 7.8.2.1 o): not stated",
    "Function (ISO/IEC 17025 7.8.2.1 o): not stated",
    /* Coverage: 3 of 6 clause 5 configurations, 1 of 2 of clause 8, none of 9. */
    "Clause 5, straight route, rated load: not tested, and why is not stated "
    "(method.exclusions, ISO/IEC 17025 7.8.2.1 n)",
    "Clause 5, combined route, rated load: not tested, and why is not stated "
    "(method.exclusions, ISO/IEC 17025 7.8.2.1 n)",
    "Clause 8, straight route, rated load: not tested, and why is not stated "
    "(method.exclusions, ISO/IEC 17025 7.8.2.1 n)",
    "Clause 9, no load: not tested, and why is not stated (method.exclusions, ISO/IEC 17025 "
    "7.8.2.1 n)",
    "Clause 9, rated load: not tested, and why is not stated (method.exclusions, ISO/IEC 17025 "
    "7.8.2.1 n)",
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    if (!g_strv_contains ((const char *const *) lines, expected[i]))
      g_error ("report --check does not list \"%s\":\n%s", expected[i], out);
  g_assert_nonnull (strstr (err, "items missing for a complete protocol"));
  g_assert_false (json_object_get_boolean_member (o, "complete"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "missing")), ==,
                    g_strv_length (lines) - 1);
  g_assert_nonnull (strstr (ru, "Лаборатория (ISO/IEC 17025 7.8.2.1 b): не указано"));
  /* In place: flagged, never a bare dash. */
  g_assert_nonnull (strstr (md, "- **Laboratory:** ⚠ not stated"));
  g_assert_nonnull (strstr (md, "| State of the batteries | **⚠ not stated** | 4.1 |"));
  g_assert_nonnull (strstr (md, "| Calibration due | **⚠ not stated** | 17025 6.4.7 |"));
  /* Coverage: what was tested as what; clause 7's imported rows carry no
   * behaviour or obstacle, so none of 7.2's ten is matched. */
  g_assert_null (strstr (out, "Clause 5, straight route, no load"));
  g_assert_null (strstr (out, "Clause 6,"));
  g_assert_nonnull (strstr (md, "| 5 | straight route, no load | straight |"));
  g_assert_nonnull (strstr (md, "| 5 | combined route, no load | **⚠ not tested** |"));
  g_assert_nonnull (strstr (md, "| 6 | glass wall | obstacles |"));
  g_assert_nonnull (strstr (md, "| 10 | the arena of 10.2 | arena |"));
  g_assert_nonnull (strstr (md, "prescribed configurations were not tested, and the reason is "
                                "not stated (method.exclusions)."));
}

/* The sample campaign is a complete example: --check exits 0; every page of
 * its PDF carries the report's identifier and "page N of M" (ISO/IEC 17025
 * 7.8.2.1 d), the last one the marked end; values in the protocol's language. */
static void
test_sample_complete (void)
{
  g_autofree char *sample = make_sample ("sample.nbc");
  g_autofree char *check = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report",
                                            "--db", sample, "--check", NULL);
  const char *langs[] = { "en", "ru" };
  const char *page_word[][2] = { { "Page", "of" }, { "Страница", "из" } };
  const char *end[] = { "— End of test report NB-2026-017 —",
                        "— Конец протокола испытаний NB-2026-017 —" };

  g_assert_cmpstr (check, ==, "");
  for (guint l = 0; l < 2; l++)
    {
      g_autofree char *pdf = g_strdup_printf ("%s/sample-%s.pdf", tmpdir, langs[l]);
      g_autofree char *md = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report",
                                             "--db", sample, "--format", "md", "--lang",
                                             langs[l], NULL);
      g_autofree char *text = NULL;
      g_auto (GStrv) pages = NULL;
      guint n;

      g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db",
                               sample, "--lang", langs[l], "-o", pdf, NULL));
      text = pdf_text (pdf);
      pages = g_strsplit (text, "\f", -1);
      n = g_strv_length (pages) - 1;          /* the text ends with a form feed */
      g_assert_cmpuint (n, >=, 8);
      for (guint k = 0; k < n; k++)
        {
          g_autofree char *page = g_strdup_printf ("%s %u %s %u", page_word[l][0], k + 1,
                                                   page_word[l][1], n);

          if (strstr (pages[k], page) == NULL || strstr (pages[k], "NB-2026-017") == NULL)
            g_error ("%s: page %u lacks \"%s\" or the report identifier", langs[l], k + 1, page);
        }
      g_assert_nonnull (strstr (pages[n - 1], end[l]));
      g_assert_nonnull (strstr (md, end[l]));
      g_assert_null (strstr (md, "⚠ not stated"));
      g_assert_null (strstr (md, "⚠ не указано"));
      if (l == 1)
        {
          /* Enumerated values in Russian, not the stored keys. */
          g_assert_nonnull (strstr (md, "| Условия внешней среды | в помещении | 4.2, A.3 |"));
          g_assert_null (strstr (md, "| indoor"));
          g_assert_null (strstr (md, "| yes"));
          g_assert_nonnull (strstr (md, "ГОСТ Р 60.6.3.15-2026/ИСО 18646-2:2024 Роботы и "
                                        "робототехнические устройства. Рабочие характеристики и "
                                        "соответствующие методы испытаний сервисных роботов. "
                                        "Часть 2. Навигация"));
          g_assert_nonnull (strstr (md, "## 5 Определение характеристик отработки "
                                        "пространственного расположения"));
          g_assert_nonnull (strstr (md, "- **Даты проведения испытаний:** 2026-11-02 – 2026-11-04"));
        }
      else
        {
          g_assert_nonnull (strstr (md, "Position accuracy Ap, mm"));
          g_assert_nonnull (strstr (md, "Position repeatability Rp, mm"));
          g_assert_nonnull (strstr (md, "The results relate only to the item tested."));
          g_assert_nonnull (strstr (md, "| Authorised signatory | P. Petrov |"));
          g_assert_nonnull (strstr (md, "- **Revision:** 1 (original issue)"));
          /* Every prescribed configuration, the untested with the lab's reason. */
          g_assert_nonnull (strstr (md, "| 7 | behaviour 1, wooden table | 1 table |"));
          g_assert_nonnull (strstr (md, "| 5 | rectangular route, rated load | **⚠ not tested** |"));
          g_assert_nonnull (strstr (md, "4 prescribed configurations were not tested: not ordered "
                                        "by the customer"));
        }
    }
}

/* Tables 3, 4 and 6 state what 6.4, 7.2/7.4 and 9.2 ask: table 2's
 * dimensions with the material and colour used, the declared detection
 * range, every placement's accuracy, each avoidance configuration's
 * behaviour, obstacle height and speed, the declared passage width and the
 * load of every clause 9 configuration. */
static void
test_clause_items (void)
{
  g_autofree char *sample = make_sample ("items.nbc");
  g_autofree char *md = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report",
                                         "--db", sample, "--format", "md", NULL);
  g_autofree char *ru = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report",
                                         "--db", sample, "--format", "md", "--lang", "ru", NULL);
  static const char *const en[] = {
    /* #17: each figure with its U (k = 2) at its own two significant digits. */
    "| wooden wall | 1000 × 20 × 1000 | plywood | natural wood | 16 | 16 | 0.52 | 0.0030 | 99.48 | "
    "0.0030 |",
    "| small cylinder | Ø 70 × 400 | PVC pipe | white | 16 | **⚠ 14** | 1.87 | 0.0034 | 98.13 | "
    "0.0034 |",
    "Declared detection range (6.1, 6.3): minimum 300 mm, maximum 4000 mm.",
    "### Table 3 (placements) — Obstacle detection: table 2 obstacles",
    "| Obstacle | Range | Direction, ° | True distance, mm | Measured distance, mm | Detected | "
    "Accuracy, % |",
    "| 1 wooden wall | 1 | wooden wall | 1000 × 20 × 1000 | plywood | natural wood | 0 | 0.00 |",
    "| 2 large cylinder 0.5 m | 2 | large cylinder | Ø 200 × 600 | PVC pipe | white | 500 | 1.60 |",
    "| 4 small cylinder floor | 4 | small cylinder | Ø 70 × 400 | PVC pipe | white | 0 | 1.60 |",
    "| no load | 0.0 | 900 | yes |",
    "| rated load | 20.0 | 900 |",
  };
  g_auto (GStrv) lines = g_strsplit (md, "\n", -1);
  guint placements = 0, in_placements = 0;

  for (guint i = 0; i < G_N_ELEMENTS (en); i++)
    if (strstr (md, en[i]) == NULL)
      g_error ("the protocol lacks \"%s\"", en[i]);
  /* 96 placements, each with its accuracy: 100 − 100 |m − t| / t. */
  for (guint i = 0; lines[i]; i++)
    {
      if (g_str_has_prefix (lines[i], "### "))
        in_placements = strstr (lines[i], "(placements)") != NULL;
      else if (in_placements && g_str_has_prefix (lines[i], "| ") && !strstr (lines[i], "---") &&
               !strstr (lines[i], "Obstacle"))
        {
          g_auto (GStrv) cells = g_strsplit (lines[i], "|", -1);
          g_autofree char *detected = g_strstrip (g_strdup (cells[6]));
          double t = g_ascii_strtod (cells[4], NULL), m = g_ascii_strtod (cells[5], NULL);

          if (g_str_equal (detected, "yes"))
            nb_assert_abs (g_ascii_strtod (cells[7], NULL), 100.0 - 100.0 * fabs (m - t) / t,
                           0.03, "placement accuracy (the distances shown to 0.1 mm)");
          else
            g_assert_cmpstr (detected, ==, "**⚠ no**");
          placements++;
        }
    }
  g_assert_cmpuint (placements, ==, 96);
  g_assert_nonnull (strstr (ru, "Заявленная дальность обнаружения (6.1, 6.3): минимальная 300 мм, "
                                "максимальная 4000 мм."));
  g_assert_nonnull (strstr (ru, "| 2 large cylinder 0.5 m | 2 | большой цилиндр | Ø 200 × 600 |"));
  g_assert_nonnull (strstr (ru, "| максимальная | 0 | 4000.0 |"));
}

/* A load neither 0 nor the rated load is flagged (4.4); a blank load, the
 * declared passage width or a colour not stated are listed; outdoors (annex
 * A.5.2) the tables and the acrylic wall are flagged. */
static void
test_load_outdoor_flags (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "flags.nbc", NULL);
  g_autofree char *md = NULL, *check = NULL;
  const char *s = "data/samples/";
  g_autofree char *p5 = g_strconcat (s, "pose-straight-load.csv", NULL);
  g_autofree char *p6 = g_strconcat (s, "detection.csv", NULL);
  g_autofree char *p9 = g_strconcat (s, "passage.csv", NULL);

  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "new", "--db",
                           path, "--name", "flags", "robot.rated_load_kg=20", "robot.width_mm=730",
                           "conditions.environment=outdoor", NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "import",
                           "--db", path, "--clause", "5", "--config", "straight, rated load",
                           "--route", "straight", "--load-kg", "15", "--input", p5, "--command",
                           "5000,0,0", NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "import",
                           "--db", path, "--clause", "6", "--config", "obstacles", "--input", p6,
                           NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "import",
                           "--db", path, "--clause", "9", "--input", p9, NULL));
  md = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", path,
                        "--format", "md", NULL);
  check = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 1, NULL, "report", "--db", path,
                           "--check", NULL);
  g_assert_nonnull (strstr (md, "| straight, rated load | straight | **⚠ 15.0** |"));
  g_assert_nonnull (strstr (md, "straight, rated load: load 15 kg is neither no load nor the "
                                "robot's rated load 20 kg (4.4)."));
  g_assert_nonnull (strstr (md, "| **⚠ glass wall** |"));
  g_assert_nonnull (strstr (md, "| **⚠ metal table** |"));
  g_assert_nonnull (strstr (md, "| wooden wall |"));
  g_assert_nonnull (strstr (md, "glass wall: not a test obstacle outdoors (annex A.5.2: the small "
                                "cylinder, the large cylinder and the wooden wall)."));
  g_assert_null (strstr (md, "wooden wall: not a test obstacle outdoors"));
  g_assert_nonnull (strstr (md, "| no load | **⚠ not stated** | **⚠ not stated** |"));
  g_assert_nonnull (strstr (check, "no load: load (4.4): not stated\n"));
  g_assert_nonnull (strstr (check, "no load: declared passage width (9.2): not stated\n"));
  g_assert_nonnull (strstr (check, "Colour of the small cylinder (6.4, 7.4): not stated\n"));
  /* The ranges come from the placements when the import gave none. */
  g_assert_nonnull (strstr (md, "Declared detection range (6.1, 6.3): minimum 300 mm, maximum "
                                "4000 mm (the true distances of the placements"));
}

/* Annex A.4: satellite positioning as clause 5's measurement system is
 * checked against ±0.5 % and stated; A.5.3 (decided: one campaign and
 * protocol per declared condition) names the condition or is listed
 * missing; 4.2: a condition set twice is printed by period, each value
 * checked against its range. */
static void
test_annex_a (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "outdoor.nbc", NULL);
  const char *root = g_getenv ("NAVBENCH_SOURCE_ROOT");
  g_autofree char *md = NULL, *ru = NULL, *check = NULL;

  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "new", "--db", path, "--name", "outdoor",
                           "robot.width_mm=730", "conditions.environment=outdoor",
                           "instrument.kind=GNSS RTK receiver", "conditions.temperature_c=21",
                           NULL));
  check = nb_test_cli_run (root, 1, NULL, "report", "--db", path, "--check", NULL);
  g_assert_nonnull (strstr (check, "Linear measurement error of the satellite positioning system "
                                   "(A.4): not stated\n"));
  g_assert_nonnull (strstr (check, "Environmental condition and surface of this protocol (A.5.3): "
                                   "not stated\n"));
  g_free (check);
  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "set", "--db", path,
                           "instrument.linear_error_pct=0.8", "conditions.set=2 of 3: wet grass",
                           "conditions.temperature_c=35", NULL));
  md = nb_test_cli_run (root, 0, NULL, "report", "--db", path, "--format", "md", NULL);
  g_assert_nonnull (strstr (md, "⚠ Annex A.4: the measurement system is satellite positioning "
                                "(GNSS RTK receiver) with a linear measurement error of 0.8 %, "
                                "beyond the ±0.5 %"));
  g_assert_nonnull (strstr (md, "this protocol is for: 2 of 3: wet grass."));
  /* Outdoors the ranges of 4.2 do not apply: 35 °C is not flagged. */
  g_assert_nonnull (strstr (md, "Ambient temperature, °C by period (each value from the time it "
                                "was recorded, UTC; the audit trail): 21 from "));
  {
    const char *p35 = strstr (md, "; 35 from ");

    g_assert_nonnull (p35);
    g_assert_null (g_strstr_len (p35, strchr (p35, '.') - p35, "⚠"));
  }
  check = nb_test_cli_run (root, 1, NULL, "report", "--db", path, "--check", NULL);
  g_assert_null (strstr (check, "(A.4)"));
  g_assert_null (strstr (check, "(A.5.3)"));
  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "set", "--db", path,
                           "instrument.linear_error_pct=0.3", "conditions.environment=indoor",
                           "method.deviations=none", NULL));
  g_free (md);
  md = nb_test_cli_run (root, 0, NULL, "report", "--db", path, "--format", "md", NULL);
  ru = nb_test_cli_run (root, 0, NULL, "report", "--db", path, "--format", "md", "--lang", "ru",
                        NULL);
  g_assert_nonnull (strstr (md, "Annex A.4: the measurement system is satellite positioning (GNSS "
                                "RTK receiver) with a linear measurement error of 0.3 %, within "
                                "the ±0.5 %"));
  g_assert_nonnull (strstr (ru, "Приложение А.4: измерительная система — спутниковая навигация "
                                "(GNSS RTK receiver) с погрешностью линейного измерения 0.3 %"));
  /* Indoors 35 °C is out of 4.2's range: its period is marked. */
  g_assert_nonnull (strstr (md, "; 35 from "));
  g_assert_nonnull (strstr (strstr (md, "; 35 from "), " ⚠."));
  g_assert_nonnull (strstr (ru, "Температура окружающей среды, °C по периодам"));
  /* "none" is a value of the protocol's language. */
  g_assert_nonnull (strstr (ru, "- **Отступления от методики:** нет\n"));
  g_assert_nonnull (strstr (md, "- **Deviations from the method:** none\n"));
}

/* 7.8.8: an amendment is a new revision that says what it replaces. */
static void
test_revision (void)
{
  g_autofree char *sample = make_sample ("revised.nbc");
  g_autofree char *check = NULL, *md = NULL;

  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "set",
                           "--db", sample, "report.revision=2", NULL));
  check = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 1, NULL, "report", "--db", sample,
                           "--check", NULL);
  g_assert_cmpstr (check, ==, "What this revision replaces (ISO/IEC 17025 7.8.8): not stated\n");
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "set",
                           "--db", sample, "report.replaces=NB-2026-017 revision 1 of 2026-11-06 "
                           "(the serial number corrected)", NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", sample,
                           "--check", NULL));
  md = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", sample,
                        "--format", "md", "--lang", "ru", NULL);
  g_assert_nonnull (strstr (md, "- **Редакция:** 2, заменяет NB-2026-017 revision 1 of "
                                "2026-11-06 (the serial number corrected)"));
  g_assert_nonnull (strstr (md, "- **Идентификатор протокола:** NB-2026-017"));
}

/* Russian plural forms (ngettext): 21 попытка, 3 попытки, 5 попыток. */
static void
test_plural_forms (void)
{
  static const struct { guint n; const char *ru; } cases[] = {
    { 2, "2 попытки вместо 30" }, { 3, "3 попытки вместо 30" }, { 5, "5 попыток вместо 30" },
    { 21, "21 попытка вместо 30" }, { 22, "22 попытки вместо 30" }, { 12, "12 попыток вместо 30" },
  };
  g_autofree char *src = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "samples",
                                           "pose-straight-noload.csv", NULL);
  g_autofree char *all = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (src, &all, NULL, NULL));
  lines = g_strsplit (all, "\n", -1);
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autofree char *path = g_strdup_printf ("%s/plural-%u.nbc", tmpdir, cases[k].n);
      g_autofree char *csv = g_strdup_printf ("%s/plural-%u.csv", tmpdir, cases[k].n);
      g_autoptr (GString) rows = g_string_new (NULL);
      g_autofree char *md = NULL, *en = NULL, *want_en = NULL;
      guint data = 0;

      /* The header (comments and the column line), then n rows. */
      for (guint i = 0; lines[i] && data < cases[k].n; i++)
        {
          gboolean header = lines[i][0] == '#' || g_str_has_prefix (lines[i], "trial,");

          if (*lines[i] == '\0')
            continue;
          g_string_append_printf (rows, "%s\n", lines[i]);
          data += header ? 0 : 1;
        }
      g_assert_true (g_file_set_contents (csv, rows->str, -1, NULL));
      g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "new",
                               "--db", path, "--name", "plural", NULL));
      g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "campaign", "import",
                               "--db", path, "--clause", "5", "--config", "c", "--route",
                               "straight", "--load-kg", "0", "--input", csv, "--command",
                               "5000,0,0", NULL));
      md = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", path,
                            "--format", "md", "--lang", "ru", NULL);
      en = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL, "report", "--db", path,
                            "--format", "md", NULL);
      want_en = g_strdup_printf ("c: %u trial%s where the standard asks for 30 (5.4).",
                                 cases[k].n, cases[k].n == 1 ? "" : "s");
      if (strstr (md, cases[k].ru) == NULL)
        g_error ("n = %u: the Russian protocol lacks \"%s\"", cases[k].n, cases[k].ru);
      g_assert_nonnull (strstr (en, want_en));
    }
}

static void
test_bad_usage (void)
{
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 2, NULL, "report", "--db", db, "--format", "docx", NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 2, NULL, "report", "--db", db, "--lang", "de", "--format", "md", NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 2, NULL, "report", "--db", db, NULL));          /* a PDF needs -o */
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 2, NULL, "report", "--format", "md", NULL));
  g_free (nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 2, NULL, "report", "--db", "data/samples/passage.csv", "--format", "md", NULL));
}

/* The language is a parameter of the report's calls, not the process's
 * locale: a Russian and an English protocol built and rendered at the same
 * time on two threads give the bytes each gives alone (Markdown: the golden
 * files; PDF: the file rendered alone on this thread). */
typedef struct {
  const char *lang;
  guint rounds;
  char *md;                     /* the last round's; every round must agree */
  GBytes *pdf;
  char *failure;
} Render;

static gboolean
render_once (const char *lang, const char *pdf_path, char **md, GBytes **pdf, GError **error)
{
  g_autofree char *locale_dir = g_test_build_filename (G_TEST_BUILT, "..", "po", NULL);
  const NbCatalogue *words = nb_catalogue_for_language (locale_dir, lang, error);
  g_autoptr (NbCampaign) campaign = NULL;
  g_autoptr (NbDocument) doc = NULL;
  g_autofree char *contents = NULL;
  gsize len;
  NbPdfWords pdf_words;

  if (words == NULL ||
      (campaign = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, error)) == NULL ||
      (doc = nb_protocol_report_build (campaign, words, error)) == NULL)
    return FALSE;
  pdf_words = nb_protocol_report_pdf_words (words);
  if (!nb_pdf_write (doc, &pdf_words, pdf_path, error) ||
      !g_file_get_contents (pdf_path, &contents, &len, error))
    return FALSE;
  *md = nb_protocol_report_markdown (doc, words);
  /* The one field that is the clock's (cairo 1.16 writes the time of
   * rendering, to the second), masked at its fixed width. */
  {
    static const char key[] = "/CreationDate (D:";

    /* The PDF's streams hold NULs: a byte search, not strstr. */
    for (gsize at = 0; at + sizeof key < len; at++)
      if (memcmp (contents + at, key, sizeof key - 1) == 0)
        for (gsize d = at + sizeof key - 1; d < len && g_ascii_isdigit (contents[d]); d++)
          contents[d] = '0';
  }
  *pdf = g_bytes_new_take (g_steal_pointer (&contents), len);
  return TRUE;
}

static gpointer
render_thread (gpointer data)
{
  Render *r = data;

  for (guint k = 0; k < r->rounds && r->failure == NULL; k++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *path = g_strdup_printf ("%s/thread-%s-%u.pdf", tmpdir, r->lang, k);
      char *md = NULL;
      GBytes *pdf = NULL;

      if (!render_once (r->lang, path, &md, &pdf, &error))
        r->failure = g_strdup_printf ("%s, round %u: %s", r->lang, k, error->message);
      else if (r->md != NULL && (g_strcmp0 (md, r->md) != 0 || !g_bytes_equal (pdf, r->pdf)))
        r->failure = g_strdup_printf ("%s, round %u: the %s differs from round %u's", r->lang, k,
                                      g_strcmp0 (md, r->md) != 0 ? "Markdown" : "PDF", k - 1);

      g_clear_pointer (&r->md, g_free);
      g_clear_pointer (&r->pdf, g_bytes_unref);
      r->md = md;
      r->pdf = pdf;
      g_unlink (path);
    }
  /* Pango's font map is per thread: released with it. */
  pango_cairo_font_map_set_default (NULL);
  return NULL;
}

static void
test_two_languages_at_once (void)
{
  Render alone[2] = { { "ru", 1 }, { "en", 1 } }, together[2] = { { "ru", 2 }, { "en", 2 } };
  GThread *threads[2];

  for (guint l = 0; l < 2; l++)
    {
      render_thread (&alone[l]);
      g_assert_null (alone[l].failure);
    }
  for (guint l = 0; l < 2; l++)
    threads[l] = g_thread_new (together[l].lang, render_thread, &together[l]);
  for (guint l = 0; l < 2; l++)
    g_thread_join (threads[l]);
  for (guint l = 0; l < 2; l++)
    {
      g_autofree char *golden = g_strdup_printf ("report-%s.md", together[l].lang);

      if (together[l].failure != NULL)
        g_error ("%s", together[l].failure);
      assert_golden (golden, together[l].md);
      g_assert_cmpstr (together[l].md, ==, alone[l].md);
      if (!g_bytes_equal (together[l].pdf, alone[l].pdf))
        g_error ("%s: the PDF rendered beside the other language differs from the one rendered "
                 "alone (%" G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT " bytes)", together[l].lang,
                 g_bytes_get_size (together[l].pdf), g_bytes_get_size (alone[l].pdf));
      g_free (together[l].md);
      g_free (alone[l].md);
      g_bytes_unref (together[l].pdf);
      g_bytes_unref (alone[l].pdf);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_setenv ("SOURCE_DATE_EPOCH", "1796000000", TRUE);
  g_test_init (&argc, &argv, NULL);
  make_campaign ();
  g_test_add_func ("/report-cli/annex-a", test_annex_a);
  g_test_add_func ("/report/markdown-json-golden", test_markdown_json_golden);
  g_test_add_func ("/report/figures-agree", test_figures_agree);
  g_test_add_func ("/report/pdf-text", test_pdf_text);
  g_test_add_func ("/report/export-tables", test_export_tables);
  g_test_add_func ("/report/bad-usage", test_bad_usage);
  g_test_add_func ("/report/check-missing", test_check_missing);
  g_test_add_func ("/report/sample-complete", test_sample_complete);
  g_test_add_func ("/report/revision", test_revision);
  g_test_add_func ("/report/clause-items", test_clause_items);
  g_test_add_func ("/report/load-outdoor-flags", test_load_outdoor_flags);
  g_test_add_func ("/report/plural-forms", test_plural_forms);
  g_test_add_func ("/report/two-languages-at-once", test_two_languages_at_once);
  status = g_test_run ();
  {
    g_autoptr (GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir && (name = g_dir_read_name (dir)))
      {
        g_autofree char *p = g_build_filename (tmpdir, name, NULL);

        g_unlink (p);
      }
    g_rmdir (tmpdir);
  }
  return status;
}
