/* nb-preferences-window.h — the application's preferences: the protocol's
 * default language and the light/dark style, stored in GSettings */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define NB_TYPE_PREFERENCES_WINDOW (nb_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (NbPreferencesWindow, nb_preferences_window, NB, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

NbPreferencesWindow *nb_preferences_window_new (GtkWindow *parent, GSettings *settings);

G_END_DECLS
