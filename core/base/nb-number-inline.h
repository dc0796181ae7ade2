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

/* SSE2 is the x86-64 baseline; NB_NUMBER_NO_SIMD (tests) or another CPU
 * takes the eight-byte words (SWAR) of the portable path. */
#if defined(__SSE2__) && !defined(NB_NUMBER_NO_SIMD)
#define NB_NUMBER_SSE2 1
#include <emmintrin.h>
#else
#define NB_NUMBER_SSE2 0
#endif

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

#if NB_NUMBER_SSE2
/* 0xFF in the first 16 bytes, 0x00 in the next 16: loaded at T + 16 − n,
 * a mask of the lanes below n (SSE2 has no variable byte shift). */
static const guint8 nb_number_lanes_below[32] __attribute__ ((aligned (32))) = {
  0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
};

/* ±10^(16 − n) at [n][sign] (n ≤ 16): the number's sign is its divisor's
 * — an IEEE quotient's rounding is symmetric and 0 / −10^k is −0 — so the
 * sign costs an index, not a branch. */
static const double nb_number_pow10_by_digits[17][2] = {
  { 1e16, -1e16 }, { 1e15, -1e15 }, { 1e14, -1e14 }, { 1e13, -1e13 }, { 1e12, -1e12 },
  { 1e11, -1e11 }, { 1e10, -1e10 }, { 1e9, -1e9 }, { 1e8, -1e8 }, { 1e7, -1e7 },
  { 1e6, -1e6 }, { 1e5, -1e5 }, { 1e4, -1e4 }, { 1e3, -1e3 }, { 1e2, -1e2 }, { 1e1, -1e1 },
  { 1e0, -1e0 },
};

/* The slow path's call, its result copied: the caller's number is then
 * not one whose address escapes (it stays in a register where the fast
 * path is inlined into a loop). */
static inline const char *
nb_parse_double_prefix_careful (const char *s, const char *end, double *out)
{
  double v = 0.0;
  const char *q = nb_parse_double_prefix_slow (s, end, &v);

  *out = v;
  return q;
}

/* The shape of nearly every number in a measurement file, "[-]I.F" or
 * "[-]I" of up to 15 bytes after the sign, sixteen bytes at a time (SSE2,
 * the x86-64 baseline): one load; a compare for the digits and one for
 * '.', whose 16-bit masks give the point and the number's end; the lanes
 * from the end on cleared and the point squeezed out (the lanes from it on
 * take the next lane's byte: a blend); the digits, left-aligned in the 16
 * lanes behind zeros, summed as pairs, quadruples and eights by one
 * multiplication each (pmullw, pmaddwd, pmaddwd) into V = D·10^(16 − nd)
 * for the nd ≤ 15 digits D.  Then Clinger's one division, V / ±10^(16 − n1)
 * for n1 integer digits: both exact doubles — 10^(16 − n1) ≤ 10^16 < 10^22,
 * and V = D·5^k·2^k (k = 16 − nd) with D·5^k < 2^nd·5^16 ≤ 2^15·5^16 < 2^53
 * — so the quotient is correctly rounded.  No branch depends on the digits
 * or the sign.  Anything else ('+', an exponent, 16 bytes or more after the
 * sign, the last 16 bytes before end) goes to nb_parse_double_prefix_slow.
 *
 * separated: the caller takes the number only when the byte at the
 * returned end is one of its separators (never 'e', 'E' or a digit), so
 * the look for an exponent is left to it. */
NB_SWAR_INLINE const char *
nb_number_parse16 (const char *s, const char *end, double *out, gboolean separated)
{
  const guint8 *below = nb_number_lanes_below + 16;
  const char *p;
  __m128i x, d, below_end, keep, pair;
  guint digits, dots, stops;
  guint neg, n1, e, nd;                 /* (unsigned: no sign extension as indices) */
  uint64_t m, v;

  if (G_UNLIKELY (end - s < 17))
    {
      const char *q = nb_parse_double_prefix_careful (s, end, out);

      return separated && q == end ? NULL : q;
    }
  neg = *s == '-';
  p = s + neg;
  x = _mm_loadu_si128 ((const __m128i *) p);
  /* a digit: x − '0' ≤ 9 unsigned (the minimum of it and 9 is itself) */
  d = _mm_sub_epi8 (x, _mm_set1_epi8 ('0'));
  digits = (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (_mm_min_epu8 (d, _mm_set1_epi8 (9)), d));
  dots = (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (x, _mm_set1_epi8 ('.')));
  stops = ~digits;                      /* bits 16 up set: past the lanes */
  n1 = (guint) __builtin_ctz (stops);
  /* The number ends at the first stop that is not the first stop's point. */
  e = (guint) __builtin_ctz (stops ^ (dots & stops & (0u - stops)));
  nd = e - (e != n1);
  if (G_UNLIKELY (e >= 16 || nd == 0 || (!separated && (p[e] | 0x20) == 'e')))
    {
      const char *q = nb_parse_double_prefix_careful (s, end, out);

      return separated && q == end ? NULL : q;
    }
  /* Lanes from the end cleared; lanes below n1 keep their digit, the
   * others take the next lane's (for an integer, n1 = e: nothing). */
  below_end = _mm_loadu_si128 ((const __m128i *) (below - e));
  keep = _mm_loadu_si128 ((const __m128i *) (below - n1));
  d = _mm_and_si128 (d, below_end);
  d = _mm_or_si128 (_mm_and_si128 (keep, d), _mm_andnot_si128 (keep, _mm_srli_si128 (d, 1)));
  /* pairs: a 16-bit lane is d0 + 256·d1 (d0 the earlier digit); times
   * 1 + 10·256 its high byte is 10·d0 + d1 (≤ 99: no carry out of it).
   * (The empty asm keeps the factor opaque: GCC would expand the
   * multiplication into four shifts and adds.) */
  pair = _mm_set1_epi16 (0x0A01);
  __asm__ ("" : "+x" (pair));
  d = _mm_srli_epi16 (_mm_mullo_epi16 (d, pair), 8);
  d = _mm_madd_epi16 (d, _mm_set1_epi32 ((1 << 16) | 100));         /* quadruples */
  d = _mm_packs_epi32 (d, d);                                       /* ≤ 9999 each */
  d = _mm_madd_epi16 (d, _mm_set1_epi32 ((1 << 16) | 10000));       /* eights */
  m = (uint64_t) _mm_cvtsi128_si64 (d);
  v = (m & 0xFFFFFFFFu) * 100000000u + (m >> 32);
  *out = (double) (int64_t) v / nb_number_pow10_by_digits[n1][neg];
  return p + e;
}

/* nb_parse_double_prefix: the number that starts at s, up to the byte that
 * ends it. */
static inline const char *
nb_parse_double_prefix_inline (const char *s, const char *end, double *out)
{
  return nb_number_parse16 (s, end, out, FALSE);
}

/* The same number, where the caller checks that a separator follows (see
 * nb_number_parse16): the CSV and TUM readers' loops.  NULL also when the
 * number ends at end (no byte there to be a separator). */
static inline const char *
nb_parse_double_field_inline (const char *s, const char *end, double *out)
{
  return nb_number_parse16 (s, end, out, TRUE);
}
#else
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

static inline const char *
nb_parse_double_field_inline (const char *s, const char *end, double *out)
{
  const char *q = nb_parse_double_prefix_inline (s, end, out);

  return q == end ? NULL : q;
}
#endif

G_END_DECLS
