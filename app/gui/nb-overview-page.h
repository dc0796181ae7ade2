/* nb-overview-page.h — the Overview page: the campaign's plan, its progress,
 * what runs next, and each configuration's set-up drawn to scale
 *
 * The plan and its states are the library's (nb_plan_ensure,
 * nb_plan_status, nb_plan_runs_next: what `navbench-cli campaign plan`
 * prints); the drawing is the set-up the runner lays out (nb_setup_of_planned,
 * in LU).  A configuration goes out of scope with a reason, or back, through
 * nb_campaign_plan_set_scope in the window's I/O queue.  The page reloads
 * when it is shown and after nb_overview_page_reload.
 *
 * Named widgets: "overview-list" (a GtkListBox, a row per configuration in
 * plan order, each named "plan-CLAUSE-CONFIG"), "overview-next",
 * "overview-summary", "overview-drawing", "overview-title",
 * "overview-status", "overview-scope" (the out of scope / in scope button).
 */
#pragma once

#include <adwaita.h>

#include "nb-io-queue.h"
#include "nb-campaign-plan.h"

G_BEGIN_DECLS

#define NB_TYPE_OVERVIEW_PAGE (nb_overview_page_get_type ())
G_DECLARE_FINAL_TYPE (NbOverviewPage, nb_overview_page, NB, OVERVIEW_PAGE, AdwBin)

GtkWidget *nb_overview_page_new (NbIoQueue *queue);
/* NULL: no campaign (the page says so). */
void       nb_overview_page_set_campaign (NbOverviewPage *page, const char *path);
void       nb_overview_page_reload (NbOverviewPage *page);
/* Shows a configuration (its row selected, its set-up drawn); FALSE when
 * the plan has none of that name. */
gboolean   nb_overview_page_select (NbOverviewPage *page, guint clause, const char *config);
/* What a row says of a configuration's state ("12/30 trials — in
 * progress", "out of scope: why"): the one formatter, for the tests too. */
char      *nb_overview_status_text (const NbPlanEntry *entry, const NbPlanStatus *status);
/* Takes the selected configuration out of scope with reason (NULL: back in
 * scope); the page reloads when the store has answered. */
void       nb_overview_page_set_scope (NbOverviewPage *page, const char *reason);
/* The reason asked before taking a configuration out of scope, while it
 * is asked (its extra child the GtkEntry; response "exclude"); else NULL. */
AdwMessageDialog *nb_overview_page_get_dialog (NbOverviewPage *page);
/* Loads done (a counter the tests wait on). */
guint      nb_overview_page_get_loads (NbOverviewPage *page);

G_END_DECLS
