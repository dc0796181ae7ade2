/* nb-test.h — assertions with explicit tolerances for the reference tests */
#pragma once

#include <glib.h>
#include <math.h>

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
