/* nb-results-page.h — the Trials page: every stored trial, its edits and
 * their audit trail, the event log, the configurations' results and plots
 *
 * Read from the store in the I/O queue (the window never keeps a copy of
 * what the store holds between loads): the trials of every configuration
 * in a table filtered by clause and configuration; a value corrected with
 * a reason through nb_campaign_edit_trial (the store logs the old value,
 * the new one and why: the selected trial's audit trail); the event log;
 * each configuration's figures as the protocol reports them (the clause
 * module's table columns — nb_protocol_figure_columns — filled from
 * nb_config_result_json; clause 10 each map's Dm and the accuracy) and its
 * plot (nb-run-plot, the Run page's), for clause 10 each map drawn against
 * the arena (nb-map-view).
 *
 * Named widgets (nb_window_lookup): "results-page", "results-clause",
 * "results-config", "results-table", "edit-key", "edit-value",
 * "edit-reason", "edit-apply", "edit-status", "audit-trail", "event-log",
 * "results-list", "results-plot".
 */
#pragma once

#include <adwaita.h>

#include "nb-io-queue.h"
#include "nb-map-view.h"

G_BEGIN_DECLS

#define NB_TYPE_RESULTS_PAGE (nb_results_page_get_type ())
G_DECLARE_FINAL_TYPE (NbResultsPage, nb_results_page, NB, RESULTS_PAGE, GtkWidget)

GtkWidget *nb_results_page_new (NbIoQueue *queue);
void       nb_results_page_set_campaign (NbResultsPage *page, const char *path);
/* Reads the campaign again (after a run, an edit); "loaded" when shown. */
void       nb_results_page_reload (NbResultsPage *page);

/* The trials the table shows (after the filters). */
guint      nb_results_page_get_n_shown (NbResultsPage *page);
/* Selects the shown trial of that store id; FALSE when it is not shown. */
gboolean   nb_results_page_select_trial (NbResultsPage *page, gint64 trial_id);
/* Shows the Results view with the configuration's results selected (as a
 * click on its row does). */
gboolean   nb_results_page_show_config (NbResultsPage *page, guint clause, const char *config);
/* The figures shown for the selected configuration: title (with its unit)
 * and value as the page shows them. */
guint      nb_results_page_get_n_figures (NbResultsPage *page);
void       nb_results_page_get_figure (NbResultsPage *page, guint i, const char **title,
                                       const char **value);
/* Clause 10: the maps drawn for the selected configuration. */
guint      nb_results_page_get_n_maps (NbResultsPage *page);
const NbMapView *nb_results_page_get_map (NbResultsPage *page, guint i);

/* Clause 10: a map's corner A'_i (corner 0..3) moved by hand — what a drag
 * of its circle on "results-plot" ends in: the corner drawn there, and the
 * reason asked (the dialog's extra child the GtkEntry; response "correct"
 * stores both coordinates with it through nb_campaign_edit_trial, the page
 * reloads and Dm is the library's again; "cancel" puts it back).  FALSE
 * when no such map is shown or a reason is being asked. */
gboolean   nb_results_page_move_corner (NbResultsPage *page, guint map, guint corner, double x_mm,
                                        double y_mm);
AdwMessageDialog *nb_results_page_get_corner_dialog (NbResultsPage *page);

/* Rows of the selected trial's audit trail, of the event log. */
guint      nb_results_page_get_n_audit (NbResultsPage *page);
guint      nb_results_page_get_n_events (NbResultsPage *page);

/* Signals: "loaded" (the campaign was read), "edited" (gboolean ok). */

G_END_DECLS
