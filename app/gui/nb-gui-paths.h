/* nb-gui-paths.h — where the application finds its catalogues and navbench-cli
 *
 * Run from the build tree (tests, development) the build tree's files are
 * used, else the installed ones — the same rule as navbench-cli's.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *nb_gui_locale_dir (void);
/* navbench-cli, which writes the protocol (nb-window.c says why a process). */
const char *nb_gui_cli_path   (void);

G_END_DECLS
