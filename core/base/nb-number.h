/* nb-number.h — strict, locale-independent, correctly rounded decimal parsing
 *
 * Measurement files are read by the million; strtod is correct but slow and
 * locale-bound.  These parsers accept exactly the decimal forms a CSV of
 * measurements contains ("-12.5", "3e-4", "+7", ".5", "5."), with spaces
 * around them, and refuse the rest: empty, "nan", "inf", hex, "1,5", junk.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE and *out set when s[0..len) is a finite decimal number. */
gboolean nb_parse_double (const char *s, gsize len, double *out);
/* TRUE and *out set when s[0..len) is a decimal integer in [0, G_MAXUINT]. */
gboolean nb_parse_uint   (const char *s, gsize len, guint *out);

G_END_DECLS
