/* nb-protocol-report.h — the test protocol of a campaign, as a document
 *
 * Everything ISO 18646-2 clauses 4–10 ask the protocol to state, built once
 * as an NbDocument (headings with clause numbers, the protocol tables as
 * NbTable, plots drawn to scale) and rendered to PDF, Markdown or JSON.  Text
 * goes through gettext (domain "navbench"): the language is the caller's
 * LANGUAGE; see nb_protocol_report_set_language().
 */
#pragma once

#include <glib.h>

#include "nb-campaign.h"
#include "nb-document.h"
#include "nb-pdf.h"

G_BEGIN_DECLS

/* Selects the protocol's language ("en" or "ru") for this process's
 * following gettext calls; FALSE for an unknown language. */
gboolean    nb_protocol_report_set_language (const char *lang);
/* Where the catalogues are: the build tree when run from it, else the
 * installed locale directory. */
void        nb_protocol_report_bind_catalogue (const char *locale_dir);

NbDocument *nb_protocol_report_build (NbCampaign *campaign, GError **error);
/* The PDF writer's words in the current language. */
const NbPdfWords *nb_protocol_report_pdf_words (void);
/* The document as Markdown (tables via nb-table-formats) or JSON. */
char       *nb_protocol_report_markdown (const NbDocument *doc);
char       *nb_protocol_report_json     (const NbDocument *doc);

G_END_DECLS
