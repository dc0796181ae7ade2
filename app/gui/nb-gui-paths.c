#include "nb-gui-paths.h"

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

const char *
nb_gui_cli_path (void)
{
  return from_build_tree () ? NB_CLI_BUILD : NB_CLI_INSTALLED;
}
