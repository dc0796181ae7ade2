/* nb-test-tmp.h — a scratch directory per test program, removed at exit */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

#include "nb-test.h"

/* Removes dir and everything in it. */
static inline void
nb_test_remove_dir (const char *dir)
{
  nb_test_remove_tree (dir);
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
