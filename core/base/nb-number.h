/* nb-number.h — strict, locale-independent, exact decimal ↔ double
 *
 * Measurement files are read by the million and JSON is written by the
 * million; strtod and printf are correct but slow and locale-bound.
 * nb_parse_double accepts exactly the decimal forms a CSV of measurements
 * contains ("-12.5", "3e-4", "+7", ".5", "5."), with spaces around them, and
 * refuses the rest: empty, "nan", "inf", hex, "1,5", junk, and numbers
 * beyond the largest double.  It is correctly rounded (the nearest double,
 * ties to even), like glibc's strtod, for any number of digits.
 * nb_format_double writes the shortest decimal that reads back to the same
 * double (the closest to the exact value when several are as short).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The buffer nb_format_double needs: the longest output is 24 bytes and a
 * NUL ("-2.2250738585072014e-308"), but it copies digits in fixed blocks of
 * 16 and 17 bytes (no calls, no loops), which may run past the NUL. */
#define NB_DOUBLE_BUF_SIZE 48

/* TRUE and *out set when s[0..len) is a finite decimal number. */
gboolean nb_parse_double (const char *s, gsize len, double *out);
/* The number that starts at s (a sign, a digit or '.', no space before
 * it), parsed as nb_parse_double does, up to the first byte that cannot
 * continue it; never reads at or beyond end.  Returns that byte's address
 * (the caller checks it is a separator), or NULL when no finite number
 * starts at s ("", "-", ".", "1e", "1e999").  Up to 19 significant digits
 * take no loop per digit: eight at a time as one word, then one
 * multiplication (Clinger) or Eisel–Lemire. */
const char *nb_parse_double_prefix (const char *s, const char *end, double *out);
/* TRUE and *out set when s[0..len) is a decimal integer in [0, G_MAXUINT]. */
gboolean nb_parse_uint   (const char *s, gsize len, guint *out);
/* The shortest round-trip decimal of v into buf (NB_DOUBLE_BUF_SIZE bytes),
 * in the form printf's "%.Pg" gives it with P = max(15, its digits): "0.1",
 * "5000", "1e-05", "1e+21", "0.30000000000000004"; "-0", "nan", "inf",
 * "-inf" as printf writes them.  Returns the length. */
gsize    nb_format_double (char *buf, double v);

G_END_DECLS
