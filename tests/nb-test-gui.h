/* What the window's tests (test-gui, test-gui-setup, test-gui-run) share. */
#pragma once

#include <gtk/gtk.h>

#include "nb-application.h"
#include "nb-window.h"

G_BEGIN_DECLS

/* The window on a scratch campaign that each of these tests drives. */
typedef struct {
  char *dir;                    /* scratch; XDG_DATA_HOME is DIR/xdg-data */
  char *db;                     /* the campaign the window opens, DIR/NAME */
  NbApplication *app;
  NbWindow *window;             /* NULL once a test has closed it (weak pointer) */
} NbTestGuiApp;

/* Before any test: the environment's locale (gtk_test_init keeps "C"), the
 * scratch directory and XDG_DATA_HOME below it (the trash of New over an
 * existing file), then prepare (may be NULL: what else must be in the
 * environment before GLib reads it), gtk_test_init and the window's
 * catalogue (the expected texts go through it too).  db is set, not made. */
void       nb_test_gui_init (NbTestGuiApp *gui, int *argc, char ***argv, const char *db_name,
                             void (*prepare) (const char *dir));
/* The application and its window, not shown yet (connect to it first). */
void       nb_test_gui_new_window (NbTestGuiApp *gui);
/* The window shown on gui->db, with all it reads in. */
void       nb_test_gui_open (NbTestGuiApp *gui);
/* After g_test_run: the window (if any) gone, the loop drained, the scratch
 * directory removed; returns status. */
int        nb_test_gui_finish (NbTestGuiApp *gui, int status);

/* Turns the main loop until done (data), waking at least every 10 ms; more
 * than `seconds` is a failure. */
void       nb_test_gui_iterate_until (gboolean (*done) (gpointer), gpointer data,
                                      double seconds);
/* done for iterate_until: the window (data) has nothing pending. */
gboolean   nb_test_gui_idle (gpointer window);
/* The window's widget `name` (a failure when there is none). */
GtkWidget *nb_test_gui_lookup (NbWindow *window, const char *name);
/* Shows the window's page `page` (of the "pages" stack) with all it reads
 * in: the main loop settled, nothing pending. */
void       nb_test_gui_show_page (NbWindow *window, const char *page);
/* Selects clause on the Run page's clause drop-down ("run-clause"), by
 * the number its item begins with ("8 — …"); a failure when none does. */
void       nb_test_gui_select_clause (NbWindow *window, guint clause);
/* A field of the campaign file at db as stored (a connection of its own). */
char      *nb_test_gui_stored_field (const char *db, const char *key);

/* The first widget named `name` at or below widget (depth first), or NULL. */
GtkWidget *nb_test_gui_find   (GtkWidget *widget, const char *name);
/* The first widget of type type_name ("AdwToastWidget") at or below
 * widget, or NULL. */
GtkWidget *nb_test_gui_find_type (GtkWidget *widget, const char *type_name);
/* Closes the toasts shown (with their × button, as a person would) and
 * turns the loop until they are gone, so a screenshot shows the page. */
void       nb_test_gui_dismiss_toasts (GtkWidget *window);
/* Turns the main loop until nothing is pending, with a pause of pause_ms
 * between two rounds for what arrives from workers and the X server. */
void       nb_test_gui_settle (guint pause_ms);
/* Renders widget as it is on screen, pixel for pixel (a window with its
 * CSD shadow: its surface's size). */
GdkTexture *nb_test_gui_render (GtkWidget *widget);
/* nb_test_gui_render into DIR/FILE (PNG). */
void       nb_test_gui_save_png (GtkWidget *widget, const char *dir, const char *file);

/* Shows page `page` and saves the window into `file` (a name, in the
 * screenshot directory). */
typedef void (*NbTestGuiShotFunc) (const char *page, const char *file, gpointer user_data);
/* The screenshots of tests/golden/gui/: the window at 1280×800 and
 * 1024×600, light and dark, each of `pages` (NULL-terminated page names)
 * shot by `shot` as PAGE-LANG-STYLE-WxH.png; the style is given back to
 * the system's at the end. */
void       nb_test_gui_screenshots (GtkWindow *window, const char *const *pages,
                                    NbTestGuiShotFunc shot, gpointer user_data);

/* The window's surface at width × height (it waits up to 5 s for it). */
void       nb_test_gui_set_size (GtkWindow *window, int width, int height);
/* The texts of the labels at or below widget that are on screen cut
 * short with an ellipsis ("attained x 2497.500 mm, … θ 0.400°; 0.800 s…"),
 * each as "TEXT (in TYPE, NAME)"; a drop-down's own button is left out (it
 * ellipsizes a long item by design, its popup shows it whole), and so are
 * toasts (they go by themselves).  NULL-
 * terminated; empty when nothing is cut. */
GStrv      nb_test_gui_ellipsized (GtkWidget *widget);
/* Shows a page of the window (by its name in the "pages" stack). */
typedef void (*NbTestGuiShowFunc) (const char *page, gpointer user_data);
/* At 1280×800 and 1024×600, each of `pages` shown by `show`: a failure
 * naming every label nb_test_gui_ellipsized finds cut short. */
void       nb_test_gui_assert_nothing_ellipsized (GtkWindow *window, const char *const *pages,
                                                  NbTestGuiShowFunc show, gpointer user_data);

G_END_DECLS
