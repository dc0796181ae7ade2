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
