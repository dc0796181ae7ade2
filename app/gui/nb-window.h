/* nb-window.h — navbench's main window: a campaign's Campaign and Trials pages
 *
 * Actions (win.*): new, open, protocol, run, stop.  Widgets that tests and
 * tools reach are named (gtk_widget_set_name) and found with
 * nb_window_lookup: "campaign-form", "trials-page", "pages", "window-status",
 * the form's editors by field key, the Trials page's "run-clause",
 * "run-config", "run-route", "run-load", "run-trials", "run-plot",
 * "trial-list", "run-status" and "figure-*".
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define NB_TYPE_WINDOW (nb_window_get_type ())
G_DECLARE_FINAL_TYPE (NbWindow, nb_window, NB, WINDOW, GtkApplicationWindow)

NbWindow   *nb_window_new (GtkApplication *app);
/* Shows the campaign at path (loaded off the GTK thread). */
void        nb_window_open_campaign (NbWindow *window, const char *path);
/* Creates a campaign named after the file and opens it. */
void        nb_window_new_campaign  (NbWindow *window, const char *path);
/* Writes the campaign's test protocol (lang "ru" or "en") as a PDF, with
 * navbench-cli report in a subprocess; the outcome goes to the status line
 * and "protocol-written" (gboolean ok). */
void        nb_window_write_protocol (NbWindow *window, const char *pdf_path, const char *lang);

const char *nb_window_get_campaign_path (NbWindow *window);
/* Campaign I/O and protocol jobs not yet done. */
guint       nb_window_get_pending (NbWindow *window);
GtkWidget  *nb_window_lookup (NbWindow *window, const char *name);

G_END_DECLS
