#include "nb-gui-paths.h"
#include "nb-record-words.h"

#include <glib/gi18n.h>

static gboolean
from_build_tree (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  return exe != NULL && g_str_has_prefix (exe, NB_BUILD_ROOT "/");
}

const char *
nb_gui_locale_dir (void)
{
  return from_build_tree () ? NB_LOCALEDIR_BUILD : NB_LOCALEDIR_INSTALLED;
}

char *
nb_gui_data_path (const char *sub)
{
  return g_build_filename (from_build_tree () ? NB_DATA_SOURCE : NB_DATA_INSTALLED, sub, NULL);
}

const NbCatalogue *
nb_gui_catalogue (const char *lang, GError **error)
{
  return nb_catalogue_for_language (nb_gui_locale_dir (), lang, error);
}

GSettings *
nb_gui_settings_new (void)
{
  g_autoptr (GSettingsSchemaSource) source = NULL;
  g_autoptr (GSettingsSchema) schema = NULL;

  if (from_build_tree ())
    source = g_settings_schema_source_new_from_directory (NB_SCHEMADIR_BUILD,
                                                          g_settings_schema_source_get_default (),
                                                          FALSE, NULL);
  if (source == NULL && g_settings_schema_source_get_default () != NULL)
    source = g_settings_schema_source_ref (g_settings_schema_source_get_default ());
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, "org.navbench.Navbench", TRUE);
  if (schema == NULL)
    g_error ("the settings schema org.navbench.Navbench is not installed "
             "(meson install, or run from the build tree)");
  return g_settings_new_full (schema, NULL, NULL);
}

char *
nb_gui_help_uri (void)
{
  g_autofree char *path = g_build_filename (from_build_tree () ? NB_DOCDIR_BUILD
                                                              : NB_DOCDIR_INSTALLED,
                                            "gui.md", NULL);

  return g_filename_to_uri (path, NULL, NULL);
}

const char *
nb_gui_ui_language (void)
{
  /* TRANSLATORS: the code of your language, as the protocol takes it
   * (navbench-cli report --lang): "ru" for Russian. */
  const char *lang = C_("ui-language", "en");

  return g_str_equal (lang, "ru") ? "ru" : "en";
}

const char *
nb_gui_protocol_language (GSettings *settings)
{
  g_autofree char *lang = g_settings_get_string (settings, "protocol-language");

  return g_str_equal (lang, "ru") ? "ru" : g_str_equal (lang, "en") ? "en"
                                                                   : nb_gui_ui_language ();
}

char *
nb_gui_reason_text (const char *stored)
{
  return nb_record_reason_text (nb_gui_catalogue (nb_gui_ui_language (), NULL), stored);
}

char *
nb_gui_event_text (const char *what)
{
  return nb_record_event_text (nb_gui_catalogue (nb_gui_ui_language (), NULL), what);
}

char *
nb_gui_message_text (const char *text)
{
  return nb_record_message_text (nb_gui_catalogue (nb_gui_ui_language (), NULL), text);
}

char *
nb_gui_sentence (const char *text)
{
  char head[8] = { 0 };

  if (text == NULL || *text == '\0')
    return g_strdup (text);
  g_unichar_to_utf8 (g_unichar_totitle (g_utf8_get_char (text)), head);
  return g_strconcat (head, g_utf8_next_char (text), NULL);
}
