/* nb-protocol-page.h — the Protocol page: the test protocol issued in-process
 *
 * The page writes the campaign's test protocol as a PDF (Russian or
 * English, by default the preference) and, when asked, its protocol tables
 * and its uncertainty budgets as CSV beside it (NAME-table-N.csv,
 * NAME-budgets-N.csv: nb_protocol_report_csv_files), by calling the report code
 * (nb_protocol_report_build in the window's I/O queue — the campaign read
 * in turn with the form's saves — then nb_pdf_write and
 * the CSVs on a GTask worker): the language is a parameter of those calls
 * (nb-catalogue.h), so the window keeps speaking its own.  Before issuing it
 * shows what a complete protocol still lacks (the list `report --check`
 * prints).  It refuses during a run (the trial in flight is not in the file
 * yet), asks before issuing the protocol of a campaign without trials and
 * before replacing files that exist (then replaces them: each is written
 * beside and renamed over), and opens the PDF when done
 * (g_app_info_launch_default_for_uri) unless told not to.
 *
 * Named widgets (nb_window_lookup): "protocol-page", "protocol-lang" (an
 * AdwComboRow: Russian, English), "protocol-file", "protocol-csv",
 * "protocol-open" (GtkSwitch), "protocol-issue", "protocol-progress",
 * "protocol-status", "protocol-check", "protocol-missing" (the list).
 * Property "running" (bound to the Trials page's): issuing is refused meanwhile.
 * Actions: protocol.issue, protocol.check.
 */
#pragma once

#include <adwaita.h>

#include "nb-io-queue.h"

G_BEGIN_DECLS

#define NB_TYPE_PROTOCOL_PAGE (nb_protocol_page_get_type ())
G_DECLARE_FINAL_TYPE (NbProtocolPage, nb_protocol_page, NB, PROTOCOL_PAGE, AdwBin)

GtkWidget  *nb_protocol_page_new (NbIoQueue *queue);
/* The campaign whose protocol the page issues (NULL: none); the default
 * PDF is CAMPAIGN-protocol-LANG.pdf beside it; the check runs again. */
void        nb_protocol_page_set_campaign (NbProtocolPage *page, const char *path);
/* Where the PDF goes (the file row's chooser sets it too). */
void        nb_protocol_page_set_output   (NbProtocolPage *page, const char *pdf_path);
const char *nb_protocol_page_get_output   (NbProtocolPage *page);
/* "ru" or "en". */
void        nb_protocol_page_set_language (NbProtocolPage *page, const char *lang);
const char *nb_protocol_page_get_language (NbProtocolPage *page);
/* protocol.issue: check, ask what must be asked, write, open.  The outcome
 * is the status line and the "issued" signal (gboolean ok). */
void        nb_protocol_page_issue (NbProtocolPage *page);
/* The status line: what the page did last ("Protocol written to …"). */
const char *nb_protocol_page_get_status (NbProtocolPage *page);
/* Workers not yet done (the check, the writing). */
guint       nb_protocol_page_get_pending (NbProtocolPage *page);
/* The question shown now, or NULL; tests answer it. */
AdwMessageDialog *nb_protocol_page_get_dialog (NbProtocolPage *page);

G_END_DECLS
