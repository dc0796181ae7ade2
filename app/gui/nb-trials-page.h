/* nb-trials-page.h — the Run page: runs a clause's trials, a configuration or
 * everything left in the plan with the campaign runner, on the simulated rig,
 * an operator-driven robot or the motion stack, and shows them as they end
 *
 * Named widgets besides nb-window.h's: "run-robot" (simulated base,
 * operator-driven, motion stack), "run-url", "run-scope" (one trial, the
 * configuration, everything left in the plan), "run-track" (the live track),
 * "operator-prompt" (the dialog of nb_trials_page_get_prompt).
 *
 * The runner's worker opens, writes and closes the campaign; this page only
 * hears its progress on the main context: a row per ended trial, the plot
 * and the configuration's figures so far (the runner's, from the store).
 * Stop cancels: the trial in flight ends `aborted`, those before are kept.
 */
#pragma once

#include <adwaita.h>

#include "nb-device.h"
#include "nb-io-queue.h"

G_BEGIN_DECLS

#define NB_TYPE_TRIALS_PAGE (nb_trials_page_get_type ())
G_DECLARE_FINAL_TYPE (NbTrialsPage, nb_trials_page, NB, TRIALS_PAGE, GtkWidget)

GtkWidget *nb_trials_page_new (NbIoQueue *queue);
void       nb_trials_page_set_campaign (NbTrialsPage *page, const char *path);

/* What the Run and Stop buttons do (the window's win.run and win.stop). */
void       nb_trials_page_run  (NbTrialsPage *page);
void       nb_trials_page_stop (NbTrialsPage *page);
gboolean   nb_trials_page_is_running (NbTrialsPage *page);

/* The question before running a configuration that has the trials its
 * clause asks for ("cancel" / "more"), while it is asked; else NULL. */
AdwMessageDialog *nb_trials_page_get_dialog (NbTrialsPage *page);
/* Points on the plot (the configuration's stored trials and the run's). */
guint      nb_trials_page_get_plot_points (NbTrialsPage *page);

/* The instrument a real robot's trials are measured with (the Instrument
 * page's, started), or NULL: only the simulated base can run, watched by the
 * simulated tracker.  Borrowed: kept alive and not stopped while a run goes
 * on (nb_trials_page_is_running). */
void       nb_trials_page_set_device (NbTrialsPage *page, NbDevice *device);
/* The operator's prompt shown now (an AdwMessageDialog: responses "yes",
 * "no" for a judgement, "stop"), or NULL; its answer is recorded by the
 * runner in the event log. */
AdwMessageDialog *nb_trials_page_get_prompt (NbTrialsPage *page);
/* Samples on the live track of the trial in flight. */
guint      nb_trials_page_get_track_points (NbTrialsPage *page);

/* Virtual seconds of the simulated rig per real second (default 8). */
void       nb_trials_page_set_pace (NbTrialsPage *page, double pace);

/* Signals: "trial-started" (guint k), "trial-ended" (guint k, guint outcome),
 * "run-finished" (a run ended: done, stopped or failed), "notify::running",
 * and "notify::device-in-use": TRUE from just before the runner's worker
 * starts reading the device's events (a run of a real robot) until the run
 * has ended — the device's owner must not read them meanwhile. */

G_END_DECLS
