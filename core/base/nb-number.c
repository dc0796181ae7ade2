/* nb-number.c — exact decimal ↔ double (see nb-number.h)
 *
 * Parsing: Clinger's fast path (an exact mantissa times an exact power of
 * ten is one correctly rounded IEEE operation), then Eisel and Lemire's
 * method ("Number parsing at a gigabyte per second", 2021): the 64-bit
 * mantissa times the 128 leading bits of 10^q gives the double's 53 bits
 * and tells when they might be wrong; then, rarely, an exact comparison with
 * the halfway point between the two candidate doubles in big integers.
 *
 * Formatting: Giulietti's Schubfach ("The Schubfach way to render doubles",
 * 2020): the rounding interval of the double, scaled by one 128-bit power of
 * ten, contains either one decimal of one digit less than 10^17 resolution
 * or the two neighbours of the double's own scaled value; the shortest (and
 * closest) falls out of four comparisons.  Both methods share the table of
 * powers of ten written by tools/gen-pow10-table.py.
 */
#include "nb-number.h"
#include "nb-number-inline.h"

#include "nb-pow10-table.h"
#include "nb-swar.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;


#define MANTISSA_BITS 52
#define EXPONENT_BIAS 1023
#define INFINITE_POWER 0x7ff
/* Digits kept for the exact comparison: a halfway point between two doubles
 * has at most 767 significant digits, so digits beyond decide only whether
 * the value is above a halfway point that the kept ones equal. */
#define MAX_DIGITS 768
/* Beyond 10^308 every decimal of up to 19 digits overflows (the table goes
 * further, to 10^324, for the formatter's least subnormals). */
#define PARSE_Q_MAX 308

static inline gboolean
is_space (char c)
{
  return c == ' ' || c == '\t';
}

static inline gboolean
is_digit (char c)
{
  return (unsigned char) (c - '0') < 10;
}

static void
trim (const char **s, gsize *len)
{
  while (*len > 0 && is_space ((*s)[0]))
    (*s)++, (*len)--;
  while (*len > 0 && is_space ((*s)[*len - 1]))
    (*len)--;
}

/* floor(log2(10^q)) for |q| < 1650 (Lemire's constant). */
static inline int
floor_log2_pow10 (int q)
{
  return (int) (((int64_t) (152170 + 65536) * q) >> 16);
}

static inline double
double_from_bits (uint64_t bits)
{
  double d;

  memcpy (&d, &bits, sizeof d);
  return d;
}

static inline uint64_t
bits_from_double (double d)
{
  uint64_t bits;

  memcpy (&bits, &d, sizeof bits);
  return bits;
}

/* --------------------------------------------------------- parsing -- */

/* w·10^q (w > 0, exact, up to 19 digits) → the bits of the nearest double,
 * sign aside.  FALSE when the 128-bit product cannot decide (it never has
 * in the tests; the exact comparison then decides). */
static gboolean
eisel_lemire (uint64_t w, int q, uint64_t *bits)
{
  const uint64_t *t;
  u128 product;
  uint64_t hi, lo, mantissa, upper;
  int lz, power2;

  if (w == 0 || q < NB_POW10_Q_MIN)
    {
      *bits = 0;   /* below half the least subnormal */
      return TRUE;
    }
  if (q > PARSE_Q_MAX)
    {
      *bits = (uint64_t) INFINITE_POWER << MANTISSA_BITS;
      return TRUE;
    }
  lz = __builtin_clzll (w);
  w <<= lz;
  t = NB_POW10_TABLE[q - NB_POW10_Q_MIN];
  product = (u128) w * t[0];
  hi = (uint64_t) (product >> 64);
  lo = (uint64_t) product;
  /* The 55 bits needed (53 + a guard + the upper bit) are settled unless
   * the bits below them are all ones: then the low half of 10^q counts. */
  if ((hi & 0x1ff) == 0x1ff)
    {
      uint64_t second = (uint64_t) (((u128) w * t[1]) >> 64);

      lo += second;
      if (second > lo)
        hi++;
      /* 5^q needs more than 128 bits here: the product is not exact. */
      if (lo == UINT64_MAX && (q < -27 || q > 55))
        return FALSE;
    }
  upper = hi >> 63;
  mantissa = hi >> (upper + 64 - MANTISSA_BITS - 3);
  power2 = floor_log2_pow10 (q) + 63 + (int) upper - lz + EXPONENT_BIAS;
  if (power2 <= 0)
    {
      /* Subnormal: shift into place, round half up (a tie cannot happen
       * this far from q = 0), and only then see if it became normal. */
      if (-power2 + 1 >= 64)
        {
          *bits = 0;
          return TRUE;
        }
      mantissa >>= -power2 + 1;
      mantissa += mantissa & 1;
      mantissa >>= 1;
      power2 = mantissa < (G_GUINT64_CONSTANT (1) << MANTISSA_BITS) ? 0 : 1;
      *bits = (mantissa & ((G_GUINT64_CONSTANT (1) << MANTISSA_BITS) - 1)) |
              ((uint64_t) power2 << MANTISSA_BITS);
      return TRUE;
    }
  /* Exactly halfway (only possible while 5^q fits 64 bits): to even. */
  if (lo <= 1 && q >= -4 && q <= 23 && (mantissa & 3) == 1 &&
      (mantissa << (upper + 64 - MANTISSA_BITS - 3)) == hi)
    mantissa &= ~G_GUINT64_CONSTANT (1);
  mantissa += mantissa & 1;
  mantissa >>= 1;
  if (mantissa >= (G_GUINT64_CONSTANT (2) << MANTISSA_BITS))
    {
      mantissa = G_GUINT64_CONSTANT (1) << MANTISSA_BITS;
      power2++;
    }
  mantissa &= ~(G_GUINT64_CONSTANT (1) << MANTISSA_BITS);
  if (power2 >= INFINITE_POWER)
    {
      power2 = INFINITE_POWER;
      mantissa = 0;
    }
  *bits = mantissa | ((uint64_t) power2 << MANTISSA_BITS);
  return TRUE;
}

/* Big unsigned integers for the exact comparison: 32-bit limbs, little
 * endian, fixed room (the largest side is below 2^2700). */
#define BIG_LIMBS 128

typedef struct {
  guint32 limb[BIG_LIMBS];
  int n;
} Big;

static void
big_set (Big *b, uint64_t v)
{
  b->n = 0;
  while (v != 0)
    {
      b->limb[b->n++] = (guint32) v;
      v >>= 32;
    }
}

/* b = b·m + a */
static void
big_mul_add (Big *b, guint32 m, guint32 a)
{
  uint64_t carry = a;

  for (int i = 0; i < b->n; i++)
    {
      uint64_t p = (uint64_t) b->limb[i] * m + carry;

      b->limb[i] = (guint32) p;
      carry = p >> 32;
    }
  if (carry != 0)
    {
      g_assert (b->n < BIG_LIMBS);
      b->limb[b->n++] = (guint32) carry;
    }
}

static void
big_mul_pow5 (Big *b, int e)
{
  /* 5^13 is the largest power of five below 2^32. */
  for (; e >= 13; e -= 13)
    big_mul_add (b, 1220703125u, 0);
  if (e > 0)
    {
      guint32 m = 1;

      while (e-- > 0)
        m *= 5;
      big_mul_add (b, m, 0);
    }
}

static void
big_shift_left (Big *b, int bits)
{
  int words = bits / 32, rest = bits % 32;

  if (b->n == 0 || bits == 0)
    return;
  g_assert (b->n + words + 1 <= BIG_LIMBS);
  if (rest != 0)
    {
      guint32 carry = 0;

      for (int i = 0; i < b->n; i++)
        {
          guint32 v = b->limb[i];

          b->limb[i] = v << rest | carry;
          carry = v >> (32 - rest);
        }
      if (carry != 0)
        b->limb[b->n++] = carry;
    }
  if (words != 0)
    {
      memmove (b->limb + words, b->limb, (gsize) b->n * sizeof b->limb[0]);
      memset (b->limb, 0, (gsize) words * sizeof b->limb[0]);
      b->n += words;
    }
}

static int
big_compare (const Big *a, const Big *b)
{
  if (a->n != b->n)
    return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->limb[i] != b->limb[i])
      return a->limb[i] < b->limb[i] ? -1 : 1;
  return 0;
}

/* The significant digits of an already checked number as a big integer D
 * and its power of ten: the value is (D + sticky)·10^*q10, sticky in (0,1)
 * when nonzero digits beyond MAX_DIGITS were dropped. */
static void
scan_digits (const char *p, const char *end, Big *d, int *q10, gboolean *sticky)
{
  int kept = 0, exp10 = 0, dropped_int = 0;
  guint32 chunk = 0;
  int chunk_n = 0;
  gboolean seen_point = FALSE, nonzero = FALSE;

  big_set (d, 0);
  *sticky = FALSE;
  for (; p < end; p++)
    {
      if (*p == '.')
        {
          seen_point = TRUE;
          continue;
        }
      if (!is_digit (*p))
        break;
      if (!nonzero && *p == '0')
        {
          if (seen_point)
            exp10--;
          continue;
        }
      nonzero = TRUE;
      if (kept < MAX_DIGITS)
        {
          chunk = chunk * 10 + (guint32) (*p - '0');
          if (++chunk_n == 9)
            {
              big_mul_add (d, 1000000000u, chunk);
              chunk = 0;
              chunk_n = 0;
            }
          kept++;
          if (seen_point)
            exp10--;
        }
      else
        {
          if (*p != '0')
            *sticky = TRUE;
          if (!seen_point)
            dropped_int++;
        }
    }
  if (chunk_n > 0)
    {
      guint32 m = 1;

      for (int i = 0; i < chunk_n; i++)
        m *= 10;
      big_mul_add (d, m, chunk);
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean negative = FALSE;
      int e = 0;

      p++;
      if (*p == '+' || *p == '-')
        negative = *p++ == '-';
      for (; p < end && is_digit (*p); p++)
        if (e < 100000)
          e = e * 10 + (*p - '0');
      exp10 += negative ? -e : e;
    }
  *q10 = exp10 + dropped_int;
}

/* Compares (D + sticky)·10^q10 with the halfway point above the double of
 * bits b (finite, not negative): −1 below, 0 on it, 1 above. */
static int
compare_halfway_above (const Big *d, int q10, gboolean sticky, uint64_t b)
{
  uint64_t frac = b & ((G_GUINT64_CONSTANT (1) << MANTISSA_BITS) - 1);
  int biased = (int) (b >> MANTISSA_BITS);
  uint64_t m = biased == 0 ? frac : frac | G_GUINT64_CONSTANT (1) << MANTISSA_BITS;
  int e2 = (biased == 0 ? 1 : biased) - EXPONENT_BIAS - MANTISSA_BITS;
  /* halfway = (2m + 1)·2^(e2 − 1); value = D·5^q10·2^q10 */
  Big lhs = *d, rhs;
  int a = q10, c = e2 - 1, r;

  big_set (&rhs, 2 * m + 1);
  if (q10 >= 0)
    big_mul_pow5 (&lhs, q10);
  else
    big_mul_pow5 (&rhs, -q10);
  if (a > c)
    big_shift_left (&lhs, a - c);
  else
    big_shift_left (&rhs, c - a);
  r = big_compare (&lhs, &rhs);
  return r == 0 && sticky ? 1 : r;
}

/* The exact decision, from a candidate within one double of the answer. */
static uint64_t
parse_exact (const char *digits, const char *end, uint64_t candidate)
{
  Big d;
  int q10;
  gboolean sticky;
  const uint64_t inf = (uint64_t) INFINITE_POWER << MANTISSA_BITS;

  scan_digits (digits, end, &d, &q10, &sticky);
  if (candidate >= inf)
    candidate = inf - 1;
  for (;;)
    {
      int up = compare_halfway_above (&d, q10, sticky, candidate);

      if (up > 0 || (up == 0 && (candidate & 1)))
        {
          candidate++;
          if (candidate >= inf)
            return inf;
          continue;
        }
      if (candidate > 0)
        {
          int down = compare_halfway_above (&d, q10, sticky, candidate - 1);

          if (down < 0 || (down == 0 && (candidate & 1)))
            {
              candidate--;
              continue;
            }
        }
      return candidate;
    }
}

/* Any number of digits, strictly: s[0..len) must be one number (no spaces).
 * The rare path of nb_parse_double_prefix (more than 19 significant
 * digits); it was the only one before and stays the reference. */
static gboolean
parse_general (const char *s, gsize len, double *out)
{
  const char *p, *end, *digits;
  uint64_t w = 0, bits, bits_up;
  int nd = 0, exp10 = 0, any_digit = 0;
  gboolean negative = FALSE, truncated = FALSE, ok;
  double value;

  p = s;
  end = s + len;
  if (p == end)
    return FALSE;
  if (*p == '+' || *p == '-')
    negative = *p++ == '-';
  digits = p;

  /* Integer part; leading zeros are not significant digits.  Up to 19
   * digits fit w; digits beyond are dropped (truncated) and counted. */
  for (; p < end && is_digit (*p); p++)
    {
      any_digit = 1;
      if (nd == 0 && *p == '0')
        continue;
      if (nd < 19)
        w = w * 10 + (uint64_t) (*p - '0');
      else
        {
          truncated |= *p != '0';
          exp10++;
        }
      nd++;
    }
  if (p < end && *p == '.')
    {
      for (p++; p < end && is_digit (*p); p++)
        {
          any_digit = 1;
          if (nd == 0 && *p == '0')
            {
              exp10--;
              continue;
            }
          if (nd < 19)
            {
              w = w * 10 + (uint64_t) (*p - '0');
              exp10--;
            }
          else
            truncated |= *p != '0';
          nd++;
        }
    }
  if (!any_digit)
    return FALSE;
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean exp_negative = FALSE;
      int e = 0, exp_digits = 0;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        exp_negative = *p++ == '-';
      for (; p < end && is_digit (*p); p++, exp_digits++)
        if (e < 100000)
          e = e * 10 + (*p - '0');
      if (exp_digits == 0)
        return FALSE;
      exp10 += exp_negative ? -e : e;
    }
  if (p != end)
    return FALSE;

  /* Clinger's fast path: an exact mantissa below 2^53 and an exact power of
   * ten make one IEEE operation, which is correctly rounded. */
  if (!truncated && w <= (G_GUINT64_CONSTANT (1) << 53) && exp10 >= -22 && exp10 <= 22)
    {
      value = (double) w;
      value = exp10 < 0 ? value / nb_number_pow10_exact[-exp10]
                        : value * nb_number_pow10_exact[exp10];
      *out = negative ? -value : value;
      return TRUE;
    }
  ok = eisel_lemire (w, exp10, &bits);
  if (truncated)
    {
      /* The value lies in [w, w + 1)·10^q: one answer for both ends settles
       * it; else the exact comparison picks between them. */
      if (!ok || !eisel_lemire (w + 1, exp10, &bits_up) || bits_up != bits)
        bits = parse_exact (digits, end, bits);
    }
  else if (!ok)
    bits = parse_exact (digits, end, bits);
  if ((bits >> MANTISSA_BITS) >= INFINITE_POWER)
    return FALSE;
  value = double_from_bits (bits);
  *out = negative ? -value : value;
  return TRUE;
}


/* Digits from p on into *w (w·10^n + their value), a word of eight bytes at
 * a time while eight remain before end; a run of fewer than eight in a word
 * is shifted up behind '0's and converted the same way.  Returns the first
 * byte that is not a digit. */
static inline const char *
scan_run (const char *p, const char *end, uint64_t *w)
{
  uint64_t v = *w;

  while (end - p >= 8)
    {
      uint64_t chunk = nb_swar_load8 (p), stop = nb_swar_non_digits (chunk);
      int n;

      if (stop == 0)
        {
          v = v * 100000000 + nb_swar_eight_digits (chunk);
          p += 8;
          continue;
        }
      n = __builtin_ctzll (stop) >> 3;
      v = v * nb_number_pow10_u64[n] + nb_swar_digits_value (chunk, n);
      p += n;
      *w = v;
      return p;
    }
  while (p < end && is_digit (*p))
    v = v * 10 + (uint64_t) (*p++ - '0');
  *w = v;
  return p;
}

/* Everything nb_parse_double_prefix's fast path leaves: any number of
 * integer digits, an exponent, more than 19 significant digits, the last
 * bytes before end. */
G_GNUC_NO_INLINE const char *
nb_parse_double_prefix_slow (const char *s, const char *end, double *out)
{
  const char *p = s, *digits, *stop;
  uint64_t w = 0, bits, head;
  int64_t exp10 = 0;
  gsize nd;
  gboolean negative = FALSE;
  double value;

  if (p < end && (*p == '+' || *p == '-'))
    negative = *p++ == '-';
  digits = p;
  if (G_LIKELY (end - p >= 17) && (head = nb_swar_non_digits (nb_swar_load8 (p))) != 0)
    {
      /* The usual measurement: fewer than eight integer digits, a point,
       * the fraction; the integer part is one word, the fraction's first
       * eight digits the next (17 bytes: 7 digits, '.', 8 digits, 1 more). */
      int n1 = __builtin_ctzll (head) >> 3;

      w = nb_swar_digits_value (nb_swar_load8 (p), n1);
      p += n1;
      nd = (gsize) n1;
      if (*p == '.')
        {
          const char *frac = ++p;
          uint64_t chunk = nb_swar_load8 (p), mask = nb_swar_non_digits (chunk);

          if (mask != 0)
            {
              int n2 = __builtin_ctzll (mask) >> 3;

              w = w * nb_number_pow10_u64[n2] + nb_swar_digits_value (chunk, n2);
              p += n2;
            }
          else
            {
              w = w * 100000000 + nb_swar_eight_digits (chunk);
              p = scan_run (p + 8, end, &w);
            }
          exp10 = -(int64_t) (p - frac);
          nd += (gsize) (p - frac);
        }
    }
  else
    {
      p = scan_run (p, end, &w);
      nd = (gsize) (p - digits);
      if (p < end && *p == '.')
        {
          const char *frac = ++p;

          p = scan_run (p, end, &w);
          exp10 = -(int64_t) (p - frac);
          nd += (gsize) (p - frac);
        }
    }
  if (nd == 0)
    return NULL;
  stop = p;
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean exp_negative = FALSE;
      const char *e_digits;
      int64_t e = 0;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        exp_negative = *p++ == '-';
      e_digits = p;
      for (; p < end && is_digit (*p); p++)
        if (e < 100000)
          e = e * 10 + (*p - '0');
      if (p == e_digits)
        return NULL;
      exp10 += exp_negative ? -e : e;
    }
  if (nd > 19)
    {
      /* Leading zeros added nothing to w; only significant digits count. */
      for (const char *z = digits; z < stop && (*z == '0' || *z == '.'); z++)
        nd -= *z == '0';
      if (nd > 19)
        return parse_general (s, (gsize) (p - s), out) ? p : NULL;
    }

  /* Clinger's fast path: an exact mantissa below 2^53 and an exact power of
   * ten make one IEEE operation, which is correctly rounded. */
  if (w <= (G_GUINT64_CONSTANT (1) << 53) && exp10 >= -22 && exp10 <= 22)
    {
      value = (double) w;
      value = exp10 < 0 ? value / nb_number_pow10_exact[-exp10]
                        : value * nb_number_pow10_exact[exp10];
      *out = negative ? -value : value;
      return p;
    }
  if (!eisel_lemire (w, (int) exp10, &bits))
    bits = parse_exact (digits, p, bits);
  if ((bits >> MANTISSA_BITS) >= INFINITE_POWER)
    return NULL;
  value = double_from_bits (bits);
  *out = negative ? -value : value;
  return p;
}

const char *
nb_parse_double_prefix (const char *s, const char *end, double *out)
{
  return nb_parse_double_prefix_inline (s, end, out);
}

gboolean
nb_parse_double (const char *s, gsize len, double *out)
{
  trim (&s, &len);
  return len > 0 && nb_parse_double_prefix (s, s + len, out) == s + len;
}

gboolean
nb_parse_uint (const char *s, gsize len, guint *out)
{
  guint64 value = 0;

  trim (&s, &len);
  if (len > 0 && s[0] == '+')
    s++, len--;
  if (len == 0 || len > 10)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (s[i] < '0' || s[i] > '9')
        return FALSE;
      value = value * 10 + (guint64) (s[i] - '0');
    }
  if (value > G_MAXUINT)
    return FALSE;
  *out = (guint) value;
  return TRUE;
}

/* ------------------------------------------------------ formatting -- */

#define MASK63 ((G_GUINT64_CONSTANT (1) << 63) - 1)

/* floor(log10(2^e)), floor(log10(3/4·2^e)), floor(log2(10^e)) for the
 * exponents of doubles (Giulietti's constants, checked exactly over the
 * range by tools/gen-pow10-table.py's companion test). */
static inline int
floor_log10_pow2 (int e)
{
  return (int) (((int64_t) e * G_GINT64_CONSTANT (661971961083)) >> 41);
}

static inline int
floor_log10_three_quarters_pow2 (int e)
{
  return (int) (((int64_t) e * G_GINT64_CONSTANT (661971961083) +
                 G_GINT64_CONSTANT (-274743187321)) >> 41);
}

static inline int
floor_log2_pow10_wide (int e)
{
  return (int) (((int64_t) e * G_GINT64_CONSTANT (913124641741)) >> 38);
}

/* Round to odd of g·cp / 2^127, g = g1·2^63 + g0: the integer part with
 * its lowest bit set when anything was cut off (Schubfach's rop). */
static inline uint64_t
round_to_odd (uint64_t g1, uint64_t g0, uint64_t cp)
{
  uint64_t x1 = (uint64_t) (((u128) g0 * cp) >> 64);
  u128 y = (u128) g1 * cp;
  uint64_t z = ((uint64_t) y >> 1) + x1;
  uint64_t vbp = (uint64_t) (y >> 64) + (z >> 63);

  return vbp | (((z & MASK63) + MASK63) >> 63);
}

/* The shortest decimal f·10^e in the rounding interval of c·2^q. */
static void
schubfach (int q, uint64_t c, int dk, uint64_t *f, int *e)
{
  const uint64_t c_min = G_GUINT64_CONSTANT (1) << MANTISSA_BITS;
  uint64_t out = c & 1, cb = c << 2, cbr = cb + 2, cbl;
  uint64_t g1, g0, vb, vbl, vbr, s, t;
  const uint64_t *pow10;
  u128 g;
  int k, h;
  gboolean uin, win;

  if (c != c_min || q == -1074)
    {
      cbl = cb - 2;
      k = floor_log10_pow2 (q);
    }
  else
    {
      /* At a power of two the interval below is half as wide. */
      cbl = cb - 1;
      k = floor_log10_three_quarters_pow2 (q);
    }
  h = q + floor_log2_pow10_wide (-k) + 2;
  /* g = floor(10^−k·2^−r) + 1 in [2^125, 2^126): the table's 128 bits,
   * two dropped. */
  pow10 = NB_POW10_TABLE[-k - NB_POW10_Q_MIN];
  g = (u128) pow10[0] << 64 | pow10[1];
  if (-k >= -27 && -k < 0)
    g--;   /* the table rounds these up for the parser: floor again */
  g = (g >> 2) + 1;
  g1 = (uint64_t) (g >> 63);
  g0 = (uint64_t) g & MASK63;
  vb = round_to_odd (g1, g0, cb << h);
  vbl = round_to_odd (g1, g0, cbl << h);
  vbr = round_to_odd (g1, g0, cbr << h);
  s = vb >> 2;
  /* One digit fewer: the multiples of ten about s.  (Java's Schubfach
   * skips this below s = 100 to keep two digits; shortest wants it: the
   * least subnormal is 5e-324, not 4.9e-324.) */
  {
    uint64_t sp10 = 10 * (s / 10), tp10 = sp10 + 10;
    gboolean upin = vbl + out <= sp10 << 2, wpin = (tp10 << 2) + out <= vbr;

    if (upin != wpin)
      {
        *f = upin ? sp10 : tp10;
        *e = k + dk;
        return;
      }
  }
  t = s + 1;
  uin = vbl + out <= s << 2;
  win = (t << 2) + out <= vbr;
  if (uin != win)
    {
      *f = uin ? s : t;
      *e = k + dk;
      return;
    }
  /* Both in: the closer, ties to even. */
  {
    int64_t cmp = (int64_t) (vb - ((s + t) << 1));

    *f = cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t;
    *e = k + dk;
  }
}

static const char digit_pairs[201] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* The digits of f (0 < f < 10^17) into d[3..20), right aligned: the
 * first digit, then two words of eight (nb-swar.h), leading zeros
 * included; returns how many digits f has, the first at d + 20 − count,
 * and in *zeros how many of them are trailing zeros (the words' digits
 * are byte values 0…9, the last digit in the highest byte: its zero bytes
 * at the top are the zeros; a division by ten per zero was the formatter's
 * slowest part on numbers of few digits, shifted up to 17 by Schubfach). */
static int
write_digits (uint64_t f, char *d, int *zeros)
{
  uint64_t hi = f / 100000000, top = hi / 100000000;
  uint64_t mid = nb_swar_digits_of ((uint32_t) (hi - top * 100000000));
  uint64_t low = nb_swar_digits_of ((uint32_t) (f - hi * 100000000));

  d[3] = (char) ('0' + top);
  nb_swar_store8 (d + 4, mid + NB_SWAR_ZEROS);
  nb_swar_store8 (d + 12, low + NB_SWAR_ZEROS);
  if (low != 0)
    *zeros = __builtin_clzll (low) >> 3;
  else if (mid != 0)
    *zeros = 8 + (__builtin_clzll (mid) >> 3);
  else
    *zeros = 16;   /* f = top · 10^16 */
  if (top != 0)
    return 17;
  if (mid != 0)
    return 16 - nb_swar_first (mid);
  return 8 - nb_swar_first (low);
}

gsize
nb_format_double (char *buf, double v)
{
  uint64_t bits = bits_from_double (v), frac, f;
  int biased, e, nd, x, precision;
  char tmp[40], *digits, *o = buf;

  if (bits >> 63)
    *o++ = '-';
  biased = (int) ((bits >> MANTISSA_BITS) & INFINITE_POWER);
  frac = bits & ((G_GUINT64_CONSTANT (1) << MANTISSA_BITS) - 1);
  if (biased == INFINITE_POWER)
    {
      if (frac != 0)
        o = buf;
      memcpy (o, frac != 0 ? "nan" : "inf", 4);
      return (gsize) (o - buf) + 3;
    }
  if (biased == 0 && frac == 0)
    {
      memcpy (o, "0", 2);
      return (gsize) (o - buf) + 1;
    }
  if (biased != 0)
    {
      uint64_t c = frac | G_GUINT64_CONSTANT (1) << MANTISSA_BITS;
      int mq = 1075 - biased;   /* v = c·2^−mq */

      /* Integers below 2^53 are their own shortest form. */
      if (mq > 0 && mq < 53 && ((c >> mq) << mq) == c)
        {
          f = c >> mq;
          e = 0;
        }
      else
        schubfach (-mq, c, 0, &f, &e);
    }
  else if (frac < 3)
    /* The two least subnormals: scaled by ten, else the interval is too
     * coarse for the decimal exponent (Schubfach's C_TINY). */
    schubfach (-1074, 10 * frac, -1, &f, &e);
  else
    schubfach (-1074, frac, 0, &f, &e);

  {
    int zeros;

    /* f's trailing zeros are dropped (the digits stay where they are) */
    nd = write_digits (f, tmp, &zeros);
    digits = tmp + 20 - nd;
    nd -= zeros;
    e += zeros;
  }
  x = e + nd - 1;   /* the decimal exponent of the first digit */
  /* printf's %.Pg with P = max(15, digits): the form the JSON has always
   * had (15 digits, more only when needed to read back the same double).
   * Copies are of fixed size (inlined; the buffer has the room). */
  precision = MAX (15, nd);
  if (x < -4 || x >= precision)
    {
      int ax = x < 0 ? -x : x;

      o[0] = digits[0];
      o[1] = '.';
      memcpy (o + 2, digits + 1, 16);
      o += nd > 1 ? nd + 1 : 1;
      *o++ = 'e';
      *o++ = x < 0 ? '-' : '+';
      if (ax >= 100)
        {
          *o++ = (char) ('0' + ax / 100);
          ax %= 100;
        }
      memcpy (o, digit_pairs + 2 * ax, 2);
      o += 2;
    }
  else if (x >= 0)
    {
      if (nd <= x + 1)
        {
          memcpy (o, digits, 17);
          memset (o + nd, '0', 16);
          o += x + 1;
        }
      else
        {
          memcpy (o, digits, 16);
          o += x + 1;
          memcpy (o + 1, digits + x + 1, 16);
          *o = '.';
          o += nd - x;
        }
    }
  else
    {
      memcpy (o, "0.00000", 8);
      o += 1 - x;
      memcpy (o, digits, 17);
      o += nd;
    }
  *o = '\0';
  return (gsize) (o - buf);
}
