/* What the window's tests (test-gui, test-gui-setup, test-gui-run) share. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The first widget named `name` at or below widget (depth first), or NULL. */
GtkWidget *nb_test_gui_find   (GtkWidget *widget, const char *name);
/* Turns the main loop until nothing is pending, with a pause of pause_ms
 * between two rounds for what arrives from workers and the X server. */
void       nb_test_gui_settle (guint pause_ms);
/* Renders widget as it is on screen into DIR/FILE (PNG). */
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

G_END_DECLS
