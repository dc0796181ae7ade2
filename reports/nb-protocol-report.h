/* nb-protocol-report.h — the test protocol of a campaign, as a document
 *
 * Everything ISO 18646-2 clauses 4–10 ask the protocol to state, built once
 * as an NbDocument (headings with clause numbers, the protocol tables as
 * NbTable, plots drawn to scale) and rendered to PDF, Markdown or JSON.  The
 * language is a parameter of every call: a catalogue (nb-catalogue.h, the
 * "navbench" domain's .mo; NULL for English), so two protocols in two
 * languages can be built at once on two threads, and nothing here touches
 * the process's locale.
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-catalogue.h"
#include "nb-document.h"
#include "nb-pdf.h"

G_BEGIN_DECLS

/* The protocol in the language of `lang`; its figures draw their axis words
 * in that language when the PDF is rendered (lang must outlive the
 * document: catalogues from nb_catalogue_for_language() live as long as the
 * process). */
NbDocument *nb_protocol_report_build (NbCampaign *campaign, const NbCatalogue *lang,
                                      GError **error);
/* The PDF writer's words in lang. */
NbPdfWords  nb_protocol_report_pdf_words (const NbCatalogue *lang);
/* The document as Markdown (tables via nb-table-formats; lang for the
 * figures' word) or JSON. */
char       *nb_protocol_report_markdown (const NbDocument *doc, const NbCatalogue *lang);
char       *nb_protocol_report_json     (const NbDocument *doc);
/* Protocol table `number` (1, 3–7) as CSV, or as a JSON array of tables:
 * clauses 6 and 10 have one per configuration, the CSV puts them one after
 * the other (each with its header).  NULL when the document has none (its
 * clause was not tested). */
char       *nb_protocol_report_table_csv  (const NbDocument *doc, guint number);
char       *nb_protocol_report_table_json (const NbDocument *doc, guint number);
/* The protocol's table numbers (1, 3–7; table 2 is the standard's list of
 * obstacles, not a result), in order, ending with 0. */
extern const guint nb_protocol_report_tables[];
/* Where a table's CSV goes beside the protocol: NAME.pdf → NAME-table-N.csv
 * (one rule for `report --tables` and the window's Protocol page). */
char       *nb_protocol_report_table_path (const char *protocol, guint number);
/* Clause `clause`'s uncertainty tables (#17: its input quantities, then
 * one budget per configuration), the ones the PDF, Markdown and
 * --format json show, as CSV (each table under its title as a '#' line)
 * or as a JSON array of tables; NULL when the clause has none (no
 * accuracy of the measurement system stated, or not tested). */
char       *nb_protocol_report_budgets_csv  (const NbDocument *doc, guint clause);
char       *nb_protocol_report_budgets_json (const NbDocument *doc, guint clause);
/* Every CSV written beside a protocol (`report --tables`, the window's
 * Protocol page): the protocol tables (NAME-table-N.csv) and each clause's
 * budgets (NAME-budgets-N.csv), in order; of NbReportCsv. */
typedef struct {
  char *path;
  char *text;
} NbReportCsv;
GPtrArray  *nb_protocol_report_csv_files (const NbDocument *doc, const char *protocol);

G_END_DECLS
