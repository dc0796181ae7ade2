/* navbench-cli report — the test protocol of a campaign (PDF, Markdown, JSON) */
#include "nb-cli.h"

#include "nb-campaign.h"
#include "nb-error.h"
#include "nb-json-writer.h"
#include "nb-pdf.h"
#include "nb-plot-traj.h"
#include "nb-protocol-report.h"
#include "nb-table-formats.h"

#include <pango/pangocairo.h>
#include <string.h>

/* The catalogues of the build tree when this binary runs from it. */
static const char *
locale_dir (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  if (exe != NULL && g_str_has_prefix (exe, NB_BUILD_ROOT "/"))
    return NB_LOCALEDIR_BUILD;
  return NB_LOCALEDIR_INSTALLED;
}

/* The protocol's language from --lang (English by default): its catalogue,
 * a parameter of the report's calls (the process's locale is left alone). */
const NbCatalogue *
nb_cli_catalogue (const char *lang, GError **error)
{
  if (lang != NULL && !nb_catalogue_language_known (lang))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--lang: '%s' is not ru or en", lang);
      return NULL;
    }
  return nb_catalogue_for_language (locale_dir (), lang ? lang : "en", error);
}

static gboolean
write_text (const char *path, const char *text, GError **error)
{
  if (path == NULL || g_str_equal (path, "-"))
    return nb_cli_write (text, error);
  if (!g_file_set_contents (path, text, -1, error))
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  return TRUE;
}

/* `report --check`: what the document lacks for a complete protocol (the
 * report's own list: required items left blank, prescribed configurations
 * not tested, declared values not recorded), so a laboratory can gate the
 * issue of a report on it.  Exit 1 when anything is missing. */
static int
check_complete (const NbDocument *doc, const char *db, gboolean json, const char *out)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  guint n = nb_document_n_missing (doc);

  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "complete"); nb_json_bool (w, n == 0);
      nb_json_key (w, "missing");
      nb_json_begin_array (w);
      for (guint i = 0; i < n; i++)
        nb_json_string (w, nb_document_missing (doc, i));
      nb_json_end_array (w);
      nb_json_end_object (w);
      text = nb_json_writer_finish (g_steal_pointer (&w));
    }
  else
    {
      GString *s = g_string_new (NULL);

      for (guint i = 0; i < n; i++)
        g_string_append_printf (s, "%s\n", nb_document_missing (doc, i));
      text = g_string_free (s, FALSE);
    }
  if (!write_text (out, text, &error))
    return nb_cli_report_error (error);
  if (n == 0)
    return NB_EXIT_OK;
  g_printerr ("navbench-cli: %s: %u item%s missing for a complete protocol\n", db, n,
              n == 1 ? "" : "s");
  return NB_EXIT_FAILURE;
}

int
nb_cli_report (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autoptr (NbDocument) doc = NULL;
  g_autofree char *db = NULL, *format = NULL, *lang = NULL, *out = NULL;
  const NbCatalogue *words;
  gboolean check = FALSE, tables = FALSE;
  const GOptionEntry entries[] = {
    { "check", 0, 0, G_OPTION_ARG_NONE, &check, "list what a complete protocol lacks (exit 1 "
      "when anything is missing, 0 when complete); --format json for a JSON object", NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, "pdf (default), md or json", "FORMAT" },
    { "lang", 0, 0, G_OPTION_ARG_STRING, &lang, "ru or en (default)", "LANG" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "where to write (- for stdout; "
      "required for pdf)", "OUT" },
    { "tables", 0, 0, G_OPTION_ARG_NONE, &tables, "also write each protocol table as CSV "
      "beside OUT (OUT-table-N.csv, as export --table N writes it) and each clause's "
      "uncertainty budgets (OUT-budgets-N.csv, as export --budgets N), from the same document",
      NULL },
    { NULL }
  };

  g_option_context_set_summary (context,
    "The test protocol of a campaign per ISO 18646-2 (GOST R 60.6.3.15-2026): the robot,\n"
    "the conditions of clause 4 with out-of-range values flagged, and per clause its\n"
    "table and plots; a clause without configurations is reported as not tested.\n"
    "--check lists what a complete protocol still lacks (ISO/IEC 17025 7.8 items,\n"
    "clause 4 items, configurations not tested) and exits 1 when anything is.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (format == NULL)
    format = g_strdup ("pdf");
  if (!g_str_equal (format, "pdf") && !g_str_equal (format, "md") && !g_str_equal (format, "json"))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--format: '%s' is not pdf, md or json",
                   format);
      return nb_cli_report_error (error);
    }
  if (db == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--db F is required");
      return nb_cli_report_error (error);
    }
  if (g_str_equal (format, "pdf") && !check && (out == NULL || g_str_equal (out, "-")))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "a PDF report needs -o OUT.pdf");
      return nb_cli_report_error (error);
    }
  if (tables && (check || out == NULL || g_str_equal (out, "-")))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--tables needs -o OUT (and not --check)");
      return nb_cli_report_error (error);
    }
  if ((words = nb_cli_catalogue (lang, &error)) == NULL)
    return nb_cli_report_error (error);

  /* The protocol uses the whole file: damage anywhere is refused, not a
   * report with what could be read. */
  campaign = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  if (campaign == NULL || !nb_campaign_verify (campaign, &error) ||
      (doc = nb_protocol_report_build (campaign, words, &error)) == NULL)
    return nb_cli_report_error (error);

  if (check)
    return check_complete (doc, db, g_str_equal (format, "json"), out);
  if (g_str_equal (format, "pdf"))
    {
      NbPdfWords pdf_words = nb_protocol_report_pdf_words (words);
      gboolean written = nb_pdf_write (doc, &pdf_words, out, &error);

      /* Pango's, cairo's and fontconfig's process-wide caches, released so
       * LeakSanitizer sees no leak at exit (as tests/test-pdf.c does). */
      pango_cairo_font_map_set_default (NULL);
      nb_plot_release_caches ();
      if (!written)
        return nb_cli_report_error (error);
    }
  else
    {
      g_autofree char *text = g_str_equal (format, "md") ? nb_protocol_report_markdown (doc, words)
                                                        : nb_protocol_report_json (doc);

      if (!write_text (out, text, &error))
        return nb_cli_report_error (error);
    }
  /* The tables from the document just written: one build of the report
   * (its budgets' Monte Carlo included) for the protocol and its CSVs. */
  if (tables)
    {
      g_autoptr (GPtrArray) files = nb_protocol_report_csv_files (doc, out);

      for (guint i = 0; i < files->len; i++)
        {
          const NbReportCsv *f = g_ptr_array_index (files, i);

          if (!write_text (f->path, f->text, &error))
            return nb_cli_report_error (error);
        }
    }
  return NB_EXIT_OK;
}

/* `export --table N` (budgets FALSE) or `export --budgets N`: a protocol
 * table, or clause N's uncertainty budgets, through the same model as the
 * report (nb_protocol_report_table_csv, _budgets_csv, their _json), so CSV,
 * JSON, Markdown and PDF cannot disagree. */
int
nb_cli_export_table (const char *db, guint table, gboolean budgets, const char *format,
                     const char *lang, const char *output)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autoptr (NbDocument) doc = NULL;
  g_autofree char *text = NULL;
  const NbCatalogue *words;

  if (budgets && (table < 5 || table > 10))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "--budgets %u: a clause with uncertainty budgets, 5 to 10", table);
      return nb_cli_report_error (error);
    }
  if (!budgets && table != 1 && (table < 3 || table > 7))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "--table %u: the protocol's tables are 1, 3, 4, 5, 6 and 7", table);
      return nb_cli_report_error (error);
    }
  if (format == NULL || (!g_str_equal (format, "csv") && !g_str_equal (format, "json")))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--format: csv or json for a table or budgets");
      return nb_cli_report_error (error);
    }
  if ((words = nb_cli_catalogue (lang, &error)) == NULL)
    return nb_cli_report_error (error);
  /* The protocol uses the whole file: damage anywhere is refused, not a
   * report with what could be read. */
  campaign = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  if (campaign == NULL || !nb_campaign_verify (campaign, &error) ||
      (doc = nb_protocol_report_build (campaign, words, &error)) == NULL)
    return nb_cli_report_error (error);

  if (budgets)
    text = g_str_equal (format, "csv") ? nb_protocol_report_budgets_csv (doc, table)
                                       : nb_protocol_report_budgets_json (doc, table);
  else
    text = g_str_equal (format, "csv") ? nb_protocol_report_table_csv (doc, table)
                                       : nb_protocol_report_table_json (doc, table);
  if (text == NULL && budgets)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: clause %u has no uncertainty budget: not tested, or no accuracy of the "
                   "measurement system stated (instrument.accuracy_mm, "
                   "instrument.angular_accuracy_deg)", db, table);
      return nb_cli_report_error (error);
    }
  if (text == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: table %u is empty: its clause was not tested", db, table);
      return nb_cli_report_error (error);
    }
  if (!write_text (output, text, &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}
