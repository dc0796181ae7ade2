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
#include "nb-iso9283-run.h"

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

/* ISO 9283 (its plan listed after ISO 18646-2's, when the file holds one,
 * each row named "plan-iso9283-CONFIG", a heading per characteristic):
 * a configuration's words and state (the formatters, for the tests too). */
char      *nb_overview_iso9283_entry_text  (const NbIso9283PlanEntry *entry);
char      *nb_overview_iso9283_status_text (const NbIso9283PlanEntry *entry,
                                            const NbIso9283PlanRow *row);
gboolean   nb_overview_page_select_iso9283 (NbOverviewPage *page, const char *config);
/* Makes the file's ISO 9283 plan ("overview-add-iso9283", shown while the
 * file has none). */
void       nb_overview_page_add_iso9283 (NbOverviewPage *page);
/* Runs the selected ISO 9283 configuration as `campaign run --standard
 * iso9283 --all --only CONFIG` (seed 1) does, on a worker thread
 * ("overview-run-iso9283"; the button stops it), on the arm chosen in
 * "overview-iso9283-robot" (0 the simulated arm, as --robot sim; 1 the
 * motion stack at "overview-iso9283-url", as --robot URL), measured as
 * "overview-iso9283-measure" says over a URL (0 the simulated tracker on
 * the joints the arm reports; 1 the device of nb_overview_page_set_device,
 * as --instrument DRIVER --url … with the default guard and window, the
 * run recorded as measured by "DRIVER URL"): FALSE when none is selected,
 * something runs, the address is not http://… or no instrument is
 * connected (those two toasted).  "running" is TRUE meanwhile,
 * "device-in-use" while the run reads the device's events. */
gboolean   nb_overview_page_run_iso9283 (NbOverviewPage *page);
/* The instrument connected on the Instrument page (borrowed), or NULL. */
void       nb_overview_page_set_device (NbOverviewPage *page, NbDevice *device);
gboolean   nb_overview_page_get_device_in_use (NbOverviewPage *page);
gboolean   nb_overview_page_is_running (NbOverviewPage *page);
/* Stops the run before its next cycle: the cycles stored are kept. */
void       nb_overview_page_stop (NbOverviewPage *page);
/* Runs ended (a counter the tests wait on). */
guint      nb_overview_page_get_runs (NbOverviewPage *page);
/* While a run goes on: the cycles of its configuration stored, as the page
 * shows them ("Running: cycle k + 1 of n…"); 0 otherwise.  (A test that
 * opened the file meanwhile could refuse the run its writer's open: a
 * reader holds the lock while it looks for a live writer.) */
guint      nb_overview_page_get_run_cycles (NbOverviewPage *page);
/* FALSE while another run (the Run or Motion page's) goes on. */
void       nb_overview_page_set_can_run (NbOverviewPage *page, gboolean can_run);

G_END_DECLS
