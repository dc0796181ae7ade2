/* The number parser's inlined fast paths (core/base/nb-number-inline.h),
 * called directly, against glibc's strtod (correctly rounded): built twice,
 * as test-number-fast (SSE2, sixteen bytes at a time, on x86-64) and as
 * test-number-fast-scalar (NB_NUMBER_NO_SIMD: the portable eight-byte
 * words), so both are checked on this machine.
 *
 * Every shape: a sign or none ('-', '+'), 0…17 integer digits, a point or
 * none, 0…17 fraction digits, random digits, zeros, nines; at each of the
 * 32 offsets of a 16-byte-aligned buffer (a number that crosses a 16-byte
 * boundary anywhere), followed by each separator and by digits that must
 * not be read; at the very end of a mapped page with an unmapped one
 * behind it.  nb_parse_double_prefix_inline must stop where strtod stops
 * with strtod's double; nb_parse_double_field_inline (the CSV and TUM
 * loops: the caller checks that a separator follows) the same wherever a
 * separator follows, and NULL at the end of the buffer.
 */
/* _DEFAULT_SOURCE: MAP_ANONYMOUS for the guard page. */
#define _DEFAULT_SOURCE 1

#include "nb-number-inline.h"
#include "nb-test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static guint64 rng_state = G_GUINT64_CONSTANT (0x2545f4914f6cdd1d);

static guint64
rng (void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * G_GUINT64_CONSTANT (2685821657736338717);
}

static gboolean
same (double a, double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

static gboolean
is_separator (char c)
{
  return c == ',' || c == '\n' || c == '\r' || c == ' ' || c == '\t';
}

/* text[0..len) placed at buf + off (buf 16-byte aligned), then tail.
 * What the parser promises (nb-number.h): no number where strtod finds
 * none, or reads what it refuses (a space first, inf, nan, beyond the
 * doubles), or would need a dangling exponent ("1e"); else strtod's end and
 * double.  The field variant: where it stops before a separator, the same;
 * and a number without an exponent followed by a separator is taken. */
static void
check_at (char *buf, gsize size, gsize off, const char *text, gsize len, const char *tail)
{
  double v = 0, want, f = 0;
  char *start = buf + off, *end_ptr;
  const char *stop, *fstop;
  gsize tail_len = strlen (tail);
  gboolean none;

  g_assert_cmpuint (off + len + tail_len, <, size);
  memset (buf, 'x', size);
  memcpy (start, text, len);
  memcpy (start + len, tail, tail_len);
  buf[off + len + tail_len] = '\0';
  want = strtod (start, &end_ptr);
  none = end_ptr == start || !isfinite (want) || *end_ptr == 'e' || *end_ptr == 'E' ||
         start[0] == ' ';
  stop = nb_parse_double_prefix_inline (start, buf + size, &v);
  fstop = nb_parse_double_field_inline (start, buf + size, &f);
  if (none)
    {
      if (stop != NULL)
        g_error ("'%s' at %zu: a number (%a) where there is none", start, off, v);
      if (fstop != NULL && is_separator (*fstop))
        g_error ("'%s' at %zu: a field (%a) where there is none", start, off, f);
      return;
    }
  if (stop != end_ptr || !same (v, want))
    g_error ("'%s' at %zu: stopped at %td (strtod %td), %a (strtod %a)", start, off,
             stop == NULL ? -1 : stop - start, end_ptr - start, v, want);
  if (fstop != NULL && is_separator (*fstop) && (fstop != end_ptr || !same (f, want)))
    g_error ("'%s' at %zu: field stopped at %td (strtod %td), %a (strtod %a)", start, off,
             fstop - start, end_ptr - start, f, want);
  if (is_separator (*end_ptr) && memchr (start, 'e', (gsize) (end_ptr - start)) == NULL &&
      memchr (start, 'E', (gsize) (end_ptr - start)) == NULL && fstop != end_ptr)
    g_error ("'%s' at %zu: the field before a separator refused", start, off);
}

/* The number at the end of the buffer: a page with no access behind it. */
static void
check_at_end (char *page_end, const char *text, gsize len)
{
  char tmp[128];
  char *at = page_end - len, *end_ptr;
  double v = 0, want;
  const char *stop;

  memcpy (at, text, len);
  g_assert_cmpuint (len, <, sizeof tmp);
  memcpy (tmp, text, len);
  tmp[len] = '\0';
  want = strtod (tmp, &end_ptr);
  stop = nb_parse_double_prefix_inline (at, page_end, &v);
  if (end_ptr != tmp + len || !isfinite (want))
    return;
  if (stop != page_end || !same (v, want))
    g_error ("'%s' at the end: stopped at %td, %a (strtod %a)", tmp,
             stop == NULL ? -1 : stop - at, v, want);
  g_assert_null (nb_parse_double_field_inline (at, page_end, &v));
}

static gsize
make_number (char *o, const char *sign, int n1, gboolean point, int n2, int fill)
{
  char *start = o;

  o += g_strlcpy (o, sign, 4);
  for (int i = 0; i < n1 + n2; i++)
    {
      if (i == n1 && point)
        *o++ = '.';
      /* fill 0: random; 1: zeros; 2: nines; 3: zeros first, then random */
      *o++ = fill == 1 || (fill == 3 && i < (n1 + n2) / 2) ? '0'
             : fill == 2 ? '9' : (char) ('0' + rng () % 10);
    }
  if (n2 == 0 && point)
    *o++ = '.';
  return (gsize) (o - start);
}

static void
test_shapes (void)
{
  const char *signs[] = { "", "-", "+" };
  const char *tails[] = { ",", "\n", "\r\n", " ", "\t", ",12345678901234567", "e5,", "E-3\n",
                          ".5,", "x", "" };
  long page = sysconf (_SC_PAGESIZE);
  char *map = mmap (NULL, 2 * (gsize) page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                    -1, 0);
  char buf[96] __attribute__ ((aligned (16))), text[64];
  guint64 checked = 0;

  g_assert_true (map != MAP_FAILED);
  g_assert_cmpint (mprotect (map + page, (gsize) page, PROT_NONE), ==, 0);
  for (guint sg = 0; sg < G_N_ELEMENTS (signs); sg++)
    for (int n1 = 0; n1 <= 17; n1++)
      for (int n2 = 0; n2 <= 17; n2++)
        for (int point = 0; point <= 1; point++)
          {
            if ((!point && n2 > 0) || n1 + n2 == 0)
              continue;
            for (int k = 0; k < 12; k++)
              {
                int fill = k < 3 ? k + 1 : k % 2 == 0 ? 0 : 3;
                gsize len = make_number (text, signs[sg], n1, point, n2, fill);
                gsize off = (gsize) k * 3 % 32;

                for (guint t = 0; t < G_N_ELEMENTS (tails); t++, checked++)
                  check_at (buf, sizeof buf, (off + t) % 32, text, len, tails[t]);
                check_at_end (map + page, text, len);
              }
          }
  munmap (map, 2 * (gsize) page);
  g_assert_cmpuint (checked, >, 50000);
}

/* The forms the readers meet at their edges, each at all 32 offsets. */
static void
test_edges (void)
{
  const char *ok[] = {
    "-0", "0", "-0.0", "0.000", "-.0", "5.", ".5", "-.5", "+5", "+.5",
    "999999999999999", "-999999999999999", "0.00000000000001", "123456789012345",
    "1234567890123456", "12345678901234567890", "123456789012345678901234567890",
    "0.30000000000000004", "9007199254740993", "-9007199254740993.0",
    "4.9406564584124654e-324", "2.2250738585072011e-308", "2.2250738585072014e-308",
    "1.7976931348623157e308", "1e-400", "0.000000000000000000000000000000001",
    "00000000000000000001.5", "1.2.3", "1..2", "--1", "-+1", "1e", "1e+", "1e5", "12a",
  };
  const char *none[] = { "inf", "-inf", "infinity", "nan", "NaN", "-nan", "1e400", "-1e999",
                         ".", "-.", "-", "+", "", ",5", "e5", " 5", "1e", "1e+,", "1.5e-," };
  char buf[128] __attribute__ ((aligned (16)));
  double v;

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    for (gsize off = 0; off < 32; off++)
      {
        check_at (buf, sizeof buf, off, ok[i], strlen (ok[i]), ",7\n");
        check_at (buf, sizeof buf, off, ok[i], strlen (ok[i]), "\r\n");
      }
  for (guint i = 0; i < G_N_ELEMENTS (none); i++)
    for (gsize off = 0; off < 32; off++)
      {
        gsize len = strlen (none[i]);
        const char *q;

        memset (buf, ',', sizeof buf);
        memcpy (buf + off, none[i], len);
        if (nb_parse_double_prefix_inline (buf + off, buf + sizeof buf, &v) != NULL)
          g_error ("'%s' at %zu parsed as %a", none[i], off, v);
        /* (the field variant may stop at an 'e': no separator) */
        if ((q = nb_parse_double_field_inline (buf + off, buf + sizeof buf, &v)) != NULL &&
            is_separator (*q))
          g_error ("'%s' at %zu parsed as a field, %a", none[i], off, v);
      }
  /* −0 keeps its sign (the divisor's) */
  memcpy (buf, "-0.000,", 7);
  g_assert_nonnull (nb_parse_double_field_inline (buf, buf + sizeof buf, &v));
  g_assert_true (v == 0.0 && signbit (v));
  memcpy (buf, "-0,xxxxxxxxxxxxxxxxxx", 21);
  g_assert_nonnull (nb_parse_double_prefix_inline (buf, buf + sizeof buf, &v));
  g_assert_true (v == 0.0 && signbit (v));
}

/* Random decimals of the readers' shapes: up to 17 significant digits. */
static void
test_random (void)
{
  char buf[96] __attribute__ ((aligned (16))), text[64];

  for (int i = 0; i < 300000; i++)
    {
      int n1 = (int) (rng () % 9), n2 = (int) (rng () % 14);
      gsize len = make_number (text, rng () % 2 ? "-" : "", n1 + (n1 + n2 == 0), TRUE, n2, 0);

      check_at (buf, sizeof buf, (gsize) (rng () % 32), text, len, rng () % 2 ? "," : "\n");
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/number-fast/shapes", test_shapes);
  g_test_add_func ("/number-fast/edges", test_edges);
  g_test_add_func ("/number-fast/random", test_random);
  return g_test_run ();
}
