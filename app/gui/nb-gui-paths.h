/* nb-gui-paths.h — where the application finds its catalogues, settings
 * schema and help
 *
 * Run from the build tree (tests, development) the build tree's files are
 * used, else the installed ones — the same rule as navbench-cli's.
 */
#pragma once

#include <gio/gio.h>

#include "nb-catalogue.h"

G_BEGIN_DECLS

const char *nb_gui_locale_dir (void);
/* The catalogue of lang ("ru", "en") in nb_gui_locale_dir (): the words the
 * protocol and the clause 4 flags are written in, whatever the window
 * speaks; NULL with an error naming the .mo when it cannot be read. */
const NbCatalogue *nb_gui_catalogue (const char *lang, GError **error);
/* The application's settings (org.navbench.Navbench): from the build tree's
 * compiled schema when run from there. */
GSettings  *nb_gui_settings_new (void);
/* The user guide (docs/gui.md) as a URI. */
char       *nb_gui_help_uri (void);
/* The language the window speaks, "ru" or "en": the catalogue's own answer,
 * not the environment's wish (LANG=ru_RU with no Russian catalogue reached
 * is an English window). */
const char *nb_gui_ui_language (void);
/* The protocol's language the pages preselect, "ru" or "en": the
 * preference (protocol-language), else the window's language. */
const char *nb_gui_protocol_language (GSettings *settings);
/* A file of navbench's data (sub: "skills.json", "robots/iiwa7",
 * "sequences/pick-and-place.json"): the source tree's from the build tree,
 * else the installed share/navbench's, as navbench-cli finds it. */
char       *nb_gui_data_path (const char *sub);
/* A record of the campaign file in the window's language
 * (nb-record-words.h): a trial's reason (NULL for NULL), an event's kind. */
char       *nb_gui_reason_text (const char *stored);
char       *nb_gui_event_text  (const char *what);
/* A library's message (a link's error, a motion sequence's log line,
 * nb-record-words.h) in the window's language; NULL for NULL. */
char       *nb_gui_message_text (const char *text);
/* text as a sentence begins, its first letter a capital ("goals sent: 3"
 * after a full stop, a library's message leading a status); NULL for NULL. */
char       *nb_gui_sentence (const char *text);

G_END_DECLS
