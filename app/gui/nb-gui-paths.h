/* nb-gui-paths.h — where the application finds its catalogues, settings
 * schema, help and navbench-cli
 *
 * Run from the build tree (tests, development) the build tree's files are
 * used, else the installed ones — the same rule as navbench-cli's.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

const char *nb_gui_locale_dir (void);
/* navbench-cli, which writes the protocol (nb-window.c says why a process). */
const char *nb_gui_cli_path   (void);
/* The application's settings (org.navbench.Navbench): from the build tree's
 * compiled schema when run from there. */
GSettings  *nb_gui_settings_new (void);
/* The user guide (docs/gui.md) as a URI. */
char       *nb_gui_help_uri (void);
/* The language the window speaks, "ru" or "en": the catalogue's own answer,
 * not the environment's wish (LANG=ru_RU with no Russian catalogue reached
 * is an English window). */
const char *nb_gui_ui_language (void);

G_END_DECLS
