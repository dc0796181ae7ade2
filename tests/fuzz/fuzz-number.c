/* libFuzzer target: nb_parse_double_prefix against glibc's strtod on
 * arbitrary bytes (a differential check, not only "no crash").  Wherever a
 * number starts (a sign, a digit or '.'), both must agree on whether one is
 * there, where it ends and its double to the bit; nothing at or beyond end
 * may be read (the input is copied to the end of its own allocation, so
 * AddressSanitizer sees any read past it).  strtod also reads hex, "inf",
 * "nan" and exponents without digits differently: those inputs are left
 * to the checks they can be compared on.
 * Build: CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined
 *        -Db_lundef=false; run: build-fuzz/tests/fuzz-number tests/fuzz/corpus/number */
#include "nb-number.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *exact = malloc (size + 1), *text = malloc (size + 1);
  const char *stop;
  char *end_strtod;
  double got = 0, want;
  gboolean comparable = size > 0;

  if (exact == NULL || text == NULL)
    abort ();
  /* exact: the bytes alone, at the end of the allocation (+1 unused) */
  memcpy (exact + 1, data, size);
  stop = nb_parse_double_prefix (exact + 1, exact + 1 + size, &got);
  /* text: the same, NUL-terminated for strtod */
  memcpy (text, data, size);
  text[size] = '\0';
  for (size_t i = 0; i < size && comparable; i++)
    {
      char c = text[i];

      /* strtod's own forms (hex, inf, nan), leading spaces, and bytes the
       * NUL would cut short */
      comparable = c != '\0' && c != 'x' && c != 'X' && c != 'i' && c != 'I' && c != 'n' &&
                   c != 'N' && (i > 0 || (c != ' ' && c != '\t' && c != '\n' && c != '\v' &&
                                          c != '\f' && c != '\r'));
    }
  if (comparable && (text[0] == '-' || text[0] == '+' || text[0] == '.' ||
                     (text[0] >= '0' && text[0] <= '9')))
    {
      want = strtod (text, &end_strtod);
      /* "1e" and "1e+": strtod takes "1" and stops before the 'e'; navbench
       * refuses a number whose exponent has no digits (NULL).  ("1e1e3":
       * strtod's number has its exponent; the second 'e' just ends it.) */
      if (end_strtod > text && (end_strtod[0] == 'e' || end_strtod[0] == 'E') &&
          memchr (text, 'e', (size_t) (end_strtod - text)) == NULL &&
          memchr (text, 'E', (size_t) (end_strtod - text)) == NULL)
        g_assert (stop == NULL);
      else if (end_strtod == text || !isfinite (want))
        g_assert (stop == NULL);
      else
        {
          g_assert (stop == exact + 1 + (end_strtod - text));
          g_assert (memcmp (&got, &want, sizeof got) == 0);
        }
    }
  /* and the whole-buffer form agrees with the prefix form */
  {
    double whole = 0;
    gboolean ok = nb_parse_double (exact + 1, size, &whole);

    if (ok && stop != NULL && stop == exact + 1 + size)
      g_assert (memcmp (&whole, &got, sizeof got) == 0);
  }
  free (exact);
  free (text);
  return 0;
}
