/* nb-window.h — navbench's main window: a campaign's pages under a header bar
 *
 * An AdwApplicationWindow from nb-window.ui: the view switcher over the
 * pages (Campaign, Trials, Protocol), the primary menu, Stop always in the header bar,
 * messages as toasts.  Actions (win.*): new, open, open-recent (s), protocol
 * (shows the Protocol page: nb-protocol-page.h issues it), run, stop.  A campaign file dropped on the window is opened.  Closing the
 * window during a run asks; confirmed, the run is stopped, the trial in
 * flight recorded aborted, then the window goes.
 *
 * Widgets that tests and tools reach are named (gtk_widget_set_name) and
 * found with nb_window_lookup: "pages" (the AdwViewStack), "header-stop",
 * "campaign-form", "trials-page", "protocol-page" (and its widgets, see
 * nb-protocol-page.h), the form's editors by field key, the
 * Trials page's "run-clause", "run-config", "run-route", "run-load",
 * "run-trials", "run-plot", "trial-list", "run-status" and "figure-*".
 */
#pragma once

#include <adwaita.h>

#include "nb-io-queue.h"

G_BEGIN_DECLS

#define NB_TYPE_WINDOW (nb_window_get_type ())
G_DECLARE_FINAL_TYPE (NbWindow, nb_window, NB, WINDOW, AdwApplicationWindow)

NbWindow   *nb_window_new (GtkApplication *app);
/* Shows the campaign at path (loaded off the GTK thread). */
void        nb_window_open_campaign (NbWindow *window, const char *path);
/* Creates a campaign named after the file and opens it; an existing file
 * (the file chooser asked "Replace?") is moved to the trash first. */
void        nb_window_new_campaign  (NbWindow *window, const char *path);
/* The language the Protocol page preselects: the preference, else the
 * window's language (nb_gui_ui_language). */
const char *nb_window_protocol_language (NbWindow *window);

/* Shows text as a toast (and keeps it for nb_window_get_last_message). */
void        nb_window_toast (NbWindow *window, const char *text);
const char *nb_window_get_last_message (NbWindow *window);

const char *nb_window_get_campaign_path (NbWindow *window);
/* Campaign I/O and the Protocol page's workers not yet done. */
guint       nb_window_get_pending (NbWindow *window);
/* The one queue every page reads and writes the campaign through (borrowed). */
NbIoQueue  *nb_window_get_queue (NbWindow *window);
GtkWidget  *nb_window_lookup (NbWindow *window, const char *name);
/* The dialog the window shows now (an AdwMessageDialog: the question before
 * closing during a run; the Protocol page's: before a protocol of an empty
 * campaign, before replacing files), or
 * NULL; tests answer it with adw_message_dialog_response. */
AdwMessageDialog *nb_window_get_dialog (NbWindow *window);

G_END_DECLS
