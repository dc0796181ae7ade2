/* nb-test-bag.h — scratch directory trees for the recording tests */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

/* Removes path and everything below it; never follows a symlink. */
static inline void
nb_test_remove_tree (const char *path)
{
  struct stat st;

  if (lstat (path, &st) != 0)
    return;
  if (S_ISDIR (st.st_mode))
    {
      GDir *d = g_dir_open (path, 0, NULL);
      const char *name;

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          nb_test_remove_tree (child);
        }
      if (d != NULL)
        g_dir_close (d);
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static inline void
nb_test_write_file (const char *path, const char *text)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}
