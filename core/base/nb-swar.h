/* nb-swar.h — eight bytes at a time in one 64-bit word (SWAR)
 *
 * The number parser (nb-number.c) and the NMEA lexer and parser
 * (drivers/instruments/nmea) read text at a few instructions per eight
 * bytes instead of per byte: a word is loaded, a mask flags the bytes of
 * interest (0x80 in each), and __builtin_ctzll finds the first.  A word
 * holds the text's first byte in its lowest byte on every host.  The
 * callers load only bytes that lie before the end of their buffer.
 */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <string.h>

/* Always inlined: each is a handful of instructions, less than a call,
 * and the compiler's own choice (outlining a part) was measured slower. */
#define NB_SWAR_INLINE static inline __attribute__ ((always_inline))

#define NB_SWAR_ONES G_GUINT64_CONSTANT (0x0101010101010101)
#define NB_SWAR_HIGH G_GUINT64_CONSTANT (0x8080808080808080)
#define NB_SWAR_ZEROS G_GUINT64_CONSTANT (0x3030303030303030)   /* "00000000" */

NB_SWAR_INLINE uint64_t
nb_swar_load8 (const char *p)
{
  uint64_t v;

  memcpy (&v, p, sizeof v);
#if G_BYTE_ORDER == G_BIG_ENDIAN
  v = GUINT64_SWAP_LE_BE (v);
#endif
  return v;
}

/* The index (0…7) of the first byte flagged in a non-zero mask. */
NB_SWAR_INLINE int
nb_swar_first (uint64_t mask)
{
  return __builtin_ctzll (mask) >> 3;
}

/* The value of eight digits: pairs, then quadruples, then the eight, by
 * three multiplications instead of eight (the first digit is the lowest
 * byte, so each step puts the earlier group's value times 10^k on top). */
NB_SWAR_INLINE uint32_t
nb_swar_eight_digits (uint64_t v)
{
  const uint64_t mask = G_GUINT64_CONSTANT (0x000000FF000000FF);
  const uint64_t mul1 = 100 + (G_GUINT64_CONSTANT (1000000) << 32);
  const uint64_t mul2 = 1 + (G_GUINT64_CONSTANT (10000) << 32);

  v -= NB_SWAR_ZEROS;
  v = v * 10 + (v >> 8);
  v = ((v & mask) * mul1 + ((v >> 16) & mask) * mul2) >> 32;
  return (uint32_t) v;
}

/* 0x80 in each byte of v that is not '0'…'9'.  A carry from one byte's
 * sum runs only into the bytes after it, so the lowest flagged byte — the
 * first non-digit, all that is used — is always right. */
NB_SWAR_INLINE uint64_t
nb_swar_non_digits (uint64_t v)
{
  uint64_t x = v ^ NB_SWAR_ZEROS;   /* digits → 0…9 */

  return ((x + G_GUINT64_CONSTANT (0x7676767676767676)) | x) & NB_SWAR_HIGH;
}

/* The value of the first n (0…7) digits of the word v. */
NB_SWAR_INLINE uint64_t
nb_swar_digits_value (uint64_t v, int n)
{
  if (n == 0)
    return 0;
  /* Shifted up to the word's end behind '0's: the same eight-digit sum. */
  return nb_swar_eight_digits ((v << (64 - 8 * n)) | (NB_SWAR_ZEROS >> (8 * n)));
}

/* 0x80 in each byte of v outside [lo, hi] (0 < lo ≤ hi < 0x80), exactly
 * per byte: the bytes' low seven bits are summed without a carry into the
 * next byte, and a byte ≥ 0x80 is outside by its own high bit. */
NB_SWAR_INLINE uint64_t
nb_swar_outside (uint64_t v, guint8 lo, guint8 hi)
{
  uint64_t low7 = v & ~NB_SWAR_HIGH;
  uint64_t at_least_lo = low7 + NB_SWAR_ONES * (uint64_t) (0x80 - lo);
  uint64_t above_hi = low7 + NB_SWAR_ONES * (uint64_t) (0x7f - hi);

  return (v | ~at_least_lo | above_hi) & NB_SWAR_HIGH;
}

/* 0x80 in each byte of v equal to c, exactly per byte. */
NB_SWAR_INLINE uint64_t
nb_swar_equal (uint64_t v, guint8 c)
{
  uint64_t x = v ^ (NB_SWAR_ONES * c);   /* the bytes equal to c → 0 */
  uint64_t low7 = (x & ~NB_SWAR_HIGH) + ~NB_SWAR_HIGH;   /* high bit: low seven bits not 0 */

  return ~(low7 | x) & NB_SWAR_HIGH;
}

/* The XOR of the eight bytes of v. */
NB_SWAR_INLINE guint8
nb_swar_xor_bytes (uint64_t v)
{
  v ^= v >> 32;
  v ^= v >> 16;
  v ^= v >> 8;
  return (guint8) v;
}

NB_SWAR_INLINE void
nb_swar_store8 (char *p, uint64_t v)
{
#if G_BYTE_ORDER == G_BIG_ENDIAN
  v = GUINT64_SWAP_LE_BE (v);
#endif
  memcpy (p, &v, sizeof v);
}

/* The eight decimal digits of x < 10^8 as byte values 0…9, the first
 * (most significant) in the lowest byte: split in halves of four digits,
 * each half in pairs, each pair in digits, all lanes at once.  The
 * divisions are multiplications exact over their lanes' ranges:
 * ⌊y·5243 / 2^19⌋ = ⌊y / 100⌋ for y < 10^4, ⌊y·103 / 2^10⌋ = ⌊y / 10⌋ for
 * y < 100, and no lane's product reaches the next. */
NB_SWAR_INLINE uint64_t
nb_swar_digits_of (uint32_t x)
{
  uint64_t v = (x / 10000) | ((uint64_t) (x % 10000) << 32), t;

  t = ((v * 5243) >> 19) & G_GUINT64_CONSTANT (0x0000007F0000007F);
  v = t | ((v - t * 100) << 16);
  t = ((v * 103) >> 10) & G_GUINT64_CONSTANT (0x000F000F000F000F);
  return t | ((v - t * 10) << 8);
}
