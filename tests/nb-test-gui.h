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

G_END_DECLS
