/* nb-test.h — assertions with explicit tolerances for the reference tests */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <sys/stat.h>

/* |actual − expected| ≤ tol·max(|expected|, tiny): relative, with the
 * expected value's own scale; tol is the promise the test makes. */
#define nb_assert_rel(actual, expected, tol, what)                              \
  G_STMT_START {                                                                \
    double nb_a_ = (actual), nb_e_ = (expected), nb_t_ = (tol);                 \
    double nb_s_ = MAX (fabs (nb_e_), 1e-300);                                  \
    if (!(fabs (nb_a_ - nb_e_) <= nb_t_ * nb_s_))                               \
      g_error ("%s:%d: %s: %.17g differs from %.17g by more than %g relative",  \
               __FILE__, __LINE__, (what), nb_a_, nb_e_, nb_t_);                \
  } G_STMT_END

/* |actual − expected| ≤ tol, in the value's unit. */
#define nb_assert_abs(actual, expected, tol, what)                              \
  G_STMT_START {                                                                \
    double nb_a_ = (actual), nb_e_ = (expected), nb_t_ = (tol);                 \
    if (!(fabs (nb_a_ - nb_e_) <= nb_t_))                                       \
      g_error ("%s:%d: %s: %.17g differs from %.17g by more than %g",           \
               __FILE__, __LINE__, (what), nb_a_, nb_e_, nb_t_);                \
  } G_STMT_END

/* Scratch directory trees of the tests. */

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

/* Golden and expected files. One variable rewrites them all when a change is
 * intended: NB_REBUILD_GOLDEN=1 (docs/testing.md); the comparison then runs on
 * the file just written, so a rebuilt run still reads it back. */
static inline char *
nb_test_expected_text (const char *path, const char *actual)
{
  g_autoptr (GError) error = NULL;
  char *expected = NULL;

  if (g_getenv ("NB_REBUILD_GOLDEN") != NULL)
    {
      g_file_set_contents (path, actual, -1, &error);
      g_assert_no_error (error);
      g_test_message ("rebuilt %s", path);
    }
  if (!g_file_get_contents (path, &expected, NULL, &error))
    g_error ("%s (run with NB_REBUILD_GOLDEN=1 to create it)", error->message);
  return expected;
}

/* actual equals tests/golden/NAME byte for byte. */
static inline void
nb_test_assert_golden (const char *name, const char *actual)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "golden", name, NULL);
  g_autofree char *expected = nb_test_expected_text (path, actual);

  g_assert_cmpstr (actual, ==, expected);
}

/* The independent MCAP reader: node and tests/mcap/node_modules (installed by
 * tools/install-deps.sh). Returns node's path, or NULL after marking the test
 * skipped with the install hint — failed instead under
 * NAVBENCH_REQUIRE_MCAP_READER=1, which tools/run-tests.sh (and so CI) sets,
 * so the suite that must read the bags never passes without reading them. */
static inline char *
nb_test_mcap_reader (void)
{
  static const char *const modules[] = { "@mcap/core", "@foxglove/rosmsg2-serialization" };
  const char *hint = "run tools/install-deps.sh (npm ci --prefix tests/mcap)";
  gboolean required = g_strcmp0 (g_getenv ("NAVBENCH_REQUIRE_MCAP_READER"), "1") == 0;
  char *node = g_find_program_in_path ("node");
  g_autofree char *missing = NULL;

  if (node == NULL)
    missing = g_strdup ("node is not in PATH");
  for (guint i = 0; missing == NULL && i < G_N_ELEMENTS (modules); i++)
    {
      g_autofree char *package = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "tests",
                                                   "mcap", "node_modules", modules[i],
                                                   "package.json", NULL);

      if (!g_file_test (package, G_FILE_TEST_IS_REGULAR))
        missing = g_strdup_printf ("%s is missing", package);
    }
  if (missing == NULL)
    return node;
  g_free (node);
  if (required)
    g_test_fail_printf ("%s: %s (NAVBENCH_REQUIRE_MCAP_READER=1)", missing, hint);
  else
    {
      g_autofree char *why = g_strdup_printf ("%s: %s", missing, hint);

      g_test_skip (why);
    }
  return NULL;
}
