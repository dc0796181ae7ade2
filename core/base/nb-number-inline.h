/* nb-number-inline.h — nb_parse_double_prefix's fast path, for the loops
 * that read numbers by the million (the CSV and TUM readers)
 *
 * The same function as nb_parse_double_prefix (nb-number.c calls this one),
 * inlined where it is called: a call's saved registers and its return were
 * ≈ 15 of the ≈ 75 instructions of a usual number (docs/performance.md).
 * Everything but "[-]I.F" with up to 15 digits goes to
 * nb_parse_double_prefix_slow, out of line.
 */
#pragma once

#include "nb-swar.h"

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* Exactly representable powers of ten: Clinger's fast path needs 10^e exact. */
static const double nb_number_pow10_exact[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static const uint64_t nb_number_pow10_u64[] = {
  1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
};

/* nb_parse_double_prefix for all it does not take the fast way. */
const char *nb_parse_double_prefix_slow (const char *s, const char *end, double *out);

/* The first nd (1…8) bytes of v, all digits, as a number: shifted up to
 * the word's end behind '0's, then one eight-digit conversion. */
NB_SWAR_INLINE uint64_t
nb_number_leading_digits (uint64_t v, int nd)
{
  int shift = 64 - 8 * nd;   /* 0…56 */

  return nb_swar_eight_digits ((v << shift) | (NB_SWAR_ZEROS & ~(UINT64_MAX << shift)));
}

/* The shape of nearly every number in a measurement file, "[-]I.F" with
 * up to 7 integer digits and up to 15 digits in all, in as few
 * instructions as can be: a word for the integer part, one for the
 * fraction, and with up to eight digits in all the two merged and converted
 * as one word; then Clinger's one division (the mantissa below 10^15 < 2^53
 * and the power of ten exact: correctly rounded).  The division is not
 * what costs: replaced by a multiplication (wrong, to measure) or by the
 * 128-bit product of Eisel–Lemire (right, ≈ 40 more instructions) the same
 * numbers parse no faster resp. slower (docs/performance.md).  All else
 * goes to nb_parse_double_prefix_slow. */
static inline const char *
nb_parse_double_prefix_inline (const char *s, const char *end, double *out)
{
  const char *p = s, *frac, *q;
  uint64_t a, c, mask, w;
  int n1, n2, nd;
  double value;

  if (G_UNLIKELY (end - s < 26))
    return nb_parse_double_prefix_slow (s, end, out);
  p += *p == '-' || *p == '+';
  a = nb_swar_load8 (p);
  if ((mask = nb_swar_non_digits (a)) == 0)
    return nb_parse_double_prefix_slow (s, end, out);
  n1 = nb_swar_first (mask);
  if (p[n1] != '.')
    {
      /* An integer of up to 7 digits. */
      if (n1 == 0 || (p[n1] | 0x20) == 'e')
        return nb_parse_double_prefix_slow (s, end, out);
      value = (double) nb_number_leading_digits (a, n1);
      *out = *s == '-' ? -value : value;
      return p + n1;
    }
  frac = p + n1 + 1;
  c = nb_swar_load8 (frac);
  if ((mask = nb_swar_non_digits (c)) != 0)
    {
      n2 = nb_swar_first (mask);
      if ((nd = n1 + n2) == 0)
        return nb_parse_double_prefix_slow (s, end, out);   /* "." */
      if (nd <= 8)
        /* The integer digits (a's first n1 bytes) and the fraction's (c's
         * first n2) side by side in one word: one conversion. */
        w = nb_number_leading_digits ((a & ~(UINT64_MAX << (8 * n1))) | c << (8 * n1), nd);
      else
        w = nb_number_leading_digits (a, n1) * nb_number_pow10_u64[n2] +
            nb_number_leading_digits (c, n2);
    }
  else
    {
      /* Eight fraction digits, then up to seven more. */
      uint64_t d = nb_swar_load8 (frac + 8), head, tail;
      int n_tail;

      if ((mask = nb_swar_non_digits (d)) == 0)
        return nb_parse_double_prefix_slow (s, end, out);
      n2 = nb_swar_first (mask);
      /* 15 digits at most: w < 10^15 < 2^53 is exact as a double (and no
       * product below wraps); the first branch has at most 7 + 7. */
      if ((n_tail = n1 + n2) > 7)
        return nb_parse_double_prefix_slow (s, end, out);
      /* The digits I C D (a's n1, c's 8, d's n2) as the first eight and
       * the n_tail after them: two conversions, not three.  c's last n1
       * bytes are c >> (64 − 8·n1), shifted in two steps (a shift by 64 is
       * undefined; n1 = 0 leaves nothing). */
      head = (a & ~(UINT64_MAX << (8 * n1))) | c << (8 * n1);
      tail = ((c >> 1) >> (63 - 8 * n1)) | d << (8 * n1);
      w = nb_swar_eight_digits (head) * nb_number_pow10_u64[n_tail] +
          nb_swar_digits_value (tail, n_tail);
      n2 += 8;
    }
  q = frac + n2;
  if ((*q | 0x20) == 'e')
    return nb_parse_double_prefix_slow (s, end, out);
  value = (double) w / nb_number_pow10_exact[n2];
  *out = *s == '-' ? -value : value;
  return q;
}

G_END_DECLS
