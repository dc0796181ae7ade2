/* nb-test-tmp.h — a scratch directory per test program, removed at exit */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

/* Removes dir and the plain files in it (tests create no subdirectories). */
static inline void
nb_test_remove_dir (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_dir_close (d);
  g_rmdir (dir);
}

static inline char *
nb_test_make_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("navbench-test-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

/* The whole file, or NULL when it does not exist. */
static inline GBytes *
nb_test_read_file (const char *path)
{
  char *data;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, NULL))
    return NULL;
  return g_bytes_new_take (data, len);
}
