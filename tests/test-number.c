/* The exact number parser and the shortest formatter (core/base/nb-number)
 * against glibc, which is correctly rounded both ways: strtod for parsing,
 * printf("%.17g") + strtod for what reads back.  Millions of random
 * doubles and decimals, and the hard cases: exact halfway points between
 * two doubles (and one digit either side of them), subnormals, the
 * smallest and largest doubles and the overflow edge, powers of two (where
 * the rounding interval is lopsided), 19+ digit mantissas, exponents at the
 * limits.  NB_NUMBER_TEST_SCALE multiplies the random counts (default 1:
 * 2·10⁶ doubles formatted, 4·10⁶ decimals parsed).
 */
/* _DEFAULT_SOURCE: MAP_ANONYMOUS for the guard page. */
#define _DEFAULT_SOURCE 1

#include "nb-number.h"
#include "nb-test.h"

#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static guint64 rng_state = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

/* xorshift64*: a fixed seed, so a failure repeats. */
static guint64
rng (void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * G_GUINT64_CONSTANT (2685821657736338717);
}

static guint64
scale (void)
{
  const char *s = g_getenv ("NB_NUMBER_TEST_SCALE");

  return s != NULL && atoi (s) > 0 ? (guint64) atoi (s) : 1;
}

static double
from_bits (guint64 b)
{
  double d;

  memcpy (&d, &b, sizeof d);
  return d;
}

static gboolean
same (double a, double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

/* A random finite double: all bit patterns alike half the time, else of
 * ordinary magnitude (1e-6 … 1e6, the measurements' range). */
static double
random_double (void)
{
  for (;;)
    {
      guint64 b = rng ();
      double v;

      if (b & 1)
        b = (b & G_GUINT64_CONSTANT (0x800fffffffffffff)) |
            (guint64) (1023 - 20 + (int) (rng () % 40)) << 52;
      v = from_bits (b);
      if (isfinite (v))
        return v;
    }
}

/* ------------------------------------------------------------ format -- */

/* The formatter's promises for one double: it reads back the same; no
 * decimal of one digit fewer does (printf's correctly rounded one, the
 * nearest of that length); it is the nearest of its own length; and it is
 * what the old JSON writer printed (%.15g, %.16g, %.17g, the first that
 * reads back) wherever that was shortest (all but subnormals and a few
 * powers of two, where it is now shorter). */
static void
check_format (double v)
{
  char got[NB_DOUBLE_BUF_SIZE], ref[64];
  gsize len = nb_format_double (got, v);
  char sig[NB_DOUBLE_BUF_SIZE];
  gsize n = 0;
  int digits;
  double back;

  g_assert_cmpuint (len, ==, strlen (got));
  g_assert_cmpuint (len, <, NB_DOUBLE_BUF_SIZE);
  back = strtod (got, NULL);
  if (!same (back, v))
    g_error ("%a formatted as %s reads back as %a", v, got, back);
  /* significant digits: no sign, point, exponent, leading or trailing zeros */
  for (gsize i = 0; i < len && got[i] != 'e'; i++)
    if (g_ascii_isdigit (got[i]) && (n > 0 || got[i] != '0'))
      sig[n++] = got[i];
  while (n > 1 && sig[n - 1] == '0')
    n--;
  digits = n == 0 ? 1 : (int) n;
  if (digits > 1)
    {
      snprintf (ref, sizeof ref, "%.*e", digits - 2, v);
      if (same (strtod (ref, NULL), v))
        g_error ("%a formatted as %s (%d digits), but %s reads back too", v, got, digits, ref);
    }
  snprintf (ref, sizeof ref, "%.*e", digits - 1, v);
  if (same (strtod (ref, NULL), v) && strtod (ref, NULL) != strtod (got, NULL))
    g_error ("%a formatted as %s, but %s is nearer with as many digits", v, got, ref);
  if (fabs (v) >= DBL_MIN)
    {
      int p;

      for (p = 15; p <= 17; p++)
        {
          snprintf (ref, sizeof ref, "%.*g", p, v);
          if (same (strtod (ref, NULL), v))
            break;
        }
      /* At a power of two the interval is lopsided: printf's nearest
       * 16 digits may miss it where another 16 digits is in; shorter wins. */
      if (strcmp (got, ref) != 0 && !(p > MAX (15, digits)))
        g_error ("%a formatted as %s, the old writer's %%g form is %s", v, got, ref);
    }
}

static void
test_format_cases (void)
{
  struct { double v; const char *text; } cases[] = {
    { 0.0, "0" }, { -0.0, "-0" }, { 1.0, "1" }, { 0.1, "0.1" }, { -2.5, "-2.5" },
    { 5000, "5000" }, { 1e-5, "1e-05" }, { 1e-4, "0.0001" }, { 1e21, "1e+21" }, { 1e15, "1e+15" },
    { 123456789012345.0, "123456789012345" }, { 1234567890123456.0, "1234567890123456" },
    { 12345678901234568.0, "12345678901234568" }, { 1e100, "1e+100" },
    { 0.30000000000000004, "0.30000000000000004" }, { 1.0 / 3.0, "0.3333333333333333" },
    { 10005000.0028, "10005000.0028" }, { DBL_MAX, "1.7976931348623157e+308" },
    { DBL_MIN, "2.2250738585072014e-308" }, { 4.9406564584124654e-324, "5e-324" },
    { 9.8813129168249309e-324, "1e-323" }, { 1.4821969375237396e-323, "1.5e-323" },
    { 2.2250738585072009e-308, "2.225073858507201e-308" }, { 9007199254740992.0, "9007199254740992" },
    { 9007199254740994.0, "9007199254740994" }, { 5e-324 * 3, "1.5e-323" },
    { INFINITY, "inf" }, { -INFINITY, "-inf" }, { NAN, "nan" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char buf[NB_DOUBLE_BUF_SIZE];

      nb_format_double (buf, cases[i].v);
      if (strcmp (buf, cases[i].text) != 0)
        g_error ("%a: %s, not %s", cases[i].v, buf, cases[i].text);
      if (isfinite (cases[i].v))
        check_format (cases[i].v);
    }
}

/* Numbers of 1 to 17 significant digits, the last not 0, at decimal
 * exponents −30…30: Schubfach's 17-digit f then ends in 16…0 zeros, which
 * the formatter drops by counting the zero digits of its digit words; each
 * must read back, be the shortest and nearest (check_format) and, up to 15
 * digits (which every double keeps), be those digits. */
static void
test_format_trailing_zeros (void)
{
  for (int nd = 1; nd <= 17; nd++)
    for (int x = -30; x <= 30; x++)
      for (int r = 0; r < 20; r++)
        {
          char text[64], got[NB_DOUBLE_BUF_SIZE], sig[32];
          gsize o = 0, n = 0;
          double v;

          for (int i = 0; i < nd; i++)
            {
              guint64 d = rng () % 10;

              if (i == nd - 1 && d == 0)
                d = 1 + rng () % 9;
              if (i == 0 && d == 0)
                d = 1;
              text[o++] = (char) ('0' + d);
              if (i == 0 && nd > 1)
                text[o++] = '.';
            }
          snprintf (text + o, sizeof text - o, "e%d", x);
          v = strtod (text, NULL);
          check_format (v);
          nb_format_double (got, v);
          for (gsize i = 0; got[i] != '\0' && got[i] != 'e'; i++)
            if (g_ascii_isdigit (got[i]) && (n > 0 || got[i] != '0'))
              sig[n++] = got[i];
          while (n > 1 && sig[n - 1] == '0')
            n--;
          sig[n] = '\0';
          /* no zero kept at the end of a fraction ("1.50") */
          {
            const char *e = strchr (got, 'e'), *end = e != NULL ? e : got + strlen (got);

            if (strchr (got, '.') != NULL && (end[-1] == '0' || end[-1] == '.'))
              g_error ("%s formatted as %s", text, got);
          }
          if (nd <= 15)
            {
              char want[32];
              gsize w = 0;

              for (gsize i = 0; i < o; i++)
                if (text[i] != '.')
                  want[w++] = text[i];
              want[w] = '\0';
              if (strcmp (sig, want) != 0)
                g_error ("%s formatted as %s", text, got);
            }
        }
}

/* Every power of two and its neighbours, every subnormal exponent, the
 * first and last subnormals, integers up to 10⁵ and their tenths. */
static void
test_format_edges (void)
{
  for (int e = -1074; e <= 1023; e++)
    {
      double p = ldexp (1.0, e);

      check_format (p);
      check_format (nextafter (p, 0.0));
      check_format (nextafter (p, INFINITY));
      check_format (-p);
    }
  for (guint64 b = 1; b < 5000; b++)
    {
      check_format (from_bits (b));
      check_format (from_bits (G_GUINT64_CONSTANT (0x000fffffffffffff) - b));
      check_format (from_bits (G_GUINT64_CONSTANT (0x7fefffffffffffff) - b));
    }
  for (int i = 0; i <= 100000; i++)
    {
      check_format ((double) i);
      check_format ((double) i / 10.0);
      check_format ((double) i * 1e-3);
    }
}

static void
test_format_random (void)
{
  guint64 n = 2000000 * scale ();

  for (guint64 i = 0; i < n; i++)
    check_format (random_double ());
}

/* ------------------------------------------------------------- parse -- */

static void
check_parse (const char *text)
{
  double got = 0, want = strtod (text, NULL);
  gboolean ok = nb_parse_double (text, strlen (text), &got);

  if (!isfinite (want))
    {
      if (ok)
        g_error ("'%s' is beyond the doubles, parsed as %a", text, got);
      return;
    }
  if (!ok)
    g_error ("'%s' refused (strtod: %a)", text, want);
  if (!same (got, want))
    g_error ("'%s' parsed as %a, strtod gives %a", text, got, want);
}

/* A decimal of 1 to 40 random digits, a point somewhere (or none), a sign,
 * an exponent from −360 to +330 (or none). */
static void
random_decimal (char *buf, gsize size)
{
  int nd = 1 + (int) (rng () % (rng () % 4 == 0 ? 40 : 19));
  int point = (int) (rng () % (guint64) (nd + 2)) - 1;
  gsize o = 0;

  if (rng () % 2)
    buf[o++] = '-';
  for (int i = 0; i < nd; i++)
    {
      if (i == point)
        buf[o++] = '.';
      buf[o++] = (char) ('0' + rng () % 10);
    }
  buf[o] = '\0';
  if (rng () % 3 != 0)
    snprintf (buf + o, size - o, "e%d", (int) (rng () % 691) - 360);
}

static void
test_parse_random (void)
{
  guint64 n = 1000000 * scale ();
  char buf[128];

  for (guint64 i = 0; i < n; i++)
    {
      double v = random_double ();

      /* what the formatter and printf write */
      nb_format_double (buf, v);
      check_parse (buf);
      snprintf (buf, sizeof buf, "%.17g", v);
      check_parse (buf);
      snprintf (buf, sizeof buf, "%.*e", (int) (rng () % 25), v);
      check_parse (buf);
      random_decimal (buf, sizeof buf);
      check_parse (buf);
    }
}

/* The exact decimal of the point halfway between a double and the next
 * (long double holds it exactly: 64 bits of mantissa), then the same cut to
 * 17–21 digits and one unit either side in the last digit. */
static void
check_halfway (double v)
{
  long double lo = v, hi = nextafter (v, INFINITY), mid;
  char buf[1200], cut[64];

  if (!isfinite ((double) hi))
    return;
  mid = (lo + hi) / 2;
  snprintf (buf, sizeof buf, "%.780Le", mid);
  check_parse (buf);
  for (int digits = 17; digits <= 21; digits++)
    {
      snprintf (cut, sizeof cut, "%.*Le", digits - 1, mid);
      check_parse (cut);
    }
  {
    /* halfway plus and minus a unit in the 780th digit */
    char *e = strchr (buf, 'e');
    char tail[16], *last = e - 1;

    g_strlcpy (tail, e, sizeof tail);
    while (*last == '9' && last > buf + 2)
      last--;
    if (*last != '.' && *last != '9')
      {
        char saved = *last;

        *last = (char) (saved + 1);
        check_parse (buf);
        *last = saved;
      }
    /* and with 40 more digits beyond it, all zero but the last */
    strcpy (e, "0000000000000000000000000000000000000001");
    strcat (buf, tail);
    check_parse (buf);
  }
}

static void
test_parse_hard (void)
{
  const char *cases[] = {
    "0", "-0", "0.0", "0e999999", "00000000000000000000000000001", "1e-400", "-1e-400",
    "2.4703282292062327e-324", "2.4703282292062328e-324", "4.9406564584124654e-324",
    "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
    "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
    "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999999999999999999999999999999999999",
    "9007199254740993", "9007199254740992.5", "9007199254740993.0000000000000000001",
    "123456789012345678901234567890", "0.1000000000000000055511151231257827021181583404541015625",
    "0.1000000000000000055511151231257827021181583404541015624",
    "0.1000000000000000055511151231257827021181583404541015626",
    "1.00000000000000011102230246251565404236316680908203125",
    "1.00000000000000011102230246251565404236316680908203124",
    "1.00000000000000011102230246251565404236316680908203126",
    "7.2057594037927933e16", "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "1e22", "1e23", "8.98846567431158e307", "4.35097645513e-308", "1.448997445238699",
    "2.22507385850720113605740979670913197593481954635164564e-308",
    "3.4028236692093846346337460743176821145600e38", "1e308", "1e309", "-1e309",
    "0.000000000000000000000000000000000000000000001e-300", "1234567890123456789e-10",
    "12345678901234567890e-10", ".00000000000000000000000000000000000000000000000000001e54",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_parse (cases[i]);
  for (int e = -1074; e <= 1023; e++)
    {
      double p = ldexp (1.0, e);

      check_halfway (p);
      check_halfway (nextafter (p, 0.0));
    }
  for (guint64 b = 1; b < 2000; b++)
    check_halfway (from_bits (b));
  for (guint64 i = 0; i < 200000 * scale (); i++)
    check_halfway (fabs (random_double ()));
}

static void
test_parse_forms (void)
{
  const char *bad[] = { "", " ", "nan", "inf", "1e", "1e+", "1.2.3", "0x10", "1,5", "--1", "+",
                        "-", ".", "e5", "1e400", "12a", "1 2", "1_000", "1e5.5", "1.5e-", "1e--5" };
  double v;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    if (nb_parse_double (bad[i], strlen (bad[i]), &v))
      g_error ("'%s' parsed as %g", bad[i], v);
  g_assert_true (nb_parse_double (" \t-0.5e1 ", 9, &v));
  g_assert_cmpfloat (v, ==, -5.0);
  /* the length bounds the text: a field cut out of a line */
  g_assert_true (nb_parse_double ("12.75,99", 5, &v));
  g_assert_cmpfloat (v, ==, 12.75);
}

/* nb_parse_double_prefix, what the line readers call on a whole buffer:
 * the number ends at the first byte that cannot continue it (the value as
 * strtod reads it), and nothing at or beyond end is read — a number that
 * ends at a page followed by an unmapped one (the end of a mapped file). */
static void
test_parse_prefix (void)
{
  const char seps[] = { ' ', '\t', ',', '\r', '\n', ';', 'x' };
  long page = sysconf (_SC_PAGESIZE);
  char *map = mmap (NULL, 2 * (gsize) page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                    -1, 0);
  const char *ends[] = { "123456789.123456789", "1234567", "12345678", "0.000200000",
                         "-1.5e-3", "7", "99999999999999999999.5", "0.1000000000000000055511151231257827021181583404541015625" };
  char buf[160];
  double v, want;

  for (guint64 i = 0; i < 400000 * scale (); i++)
    {
      gsize len;
      const char *stop;
      char sep = seps[rng () % G_N_ELEMENTS (seps)];

      random_decimal (buf, sizeof buf - 24);
      len = strlen (buf);
      want = strtod (buf, NULL);
      /* a separator, then more that looks like a number */
      snprintf (buf + len, sizeof buf - len, "%c12345678901234567", sep);
      stop = nb_parse_double_prefix (buf, buf + strlen (buf), &v);
      if (!isfinite (want))
        {
          if (stop != NULL)
            g_error ("'%s' is beyond the doubles, parsed as %a", buf, v);
          continue;
        }
      if (stop != buf + len)
        g_error ("'%s': stopped at %td, not at %zu", buf, stop == NULL ? -1 : stop - buf, len);
      if (!same (v, want))
        g_error ("'%s' parsed as %a, strtod gives %a", buf, v, want);
    }
  g_assert_nonnull (nb_parse_double_prefix ("12.75,99", "12.75,99" + 8, &v));
  g_assert_null (nb_parse_double_prefix ("1e,5", "1e,5" + 4, &v));
  g_assert_null (nb_parse_double_prefix ("-.", "-." + 2, &v));
  g_assert_null (nb_parse_double_prefix ("", "", &v));

  g_assert_true (map != MAP_FAILED);
  g_assert_cmpint (mprotect (map + page, (gsize) page, PROT_NONE), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (ends); i++)
    {
      gsize len = strlen (ends[i]);
      char *at = map + page - len;

      memcpy (at, ends[i], len);
      g_assert_true (nb_parse_double_prefix (at, map + page, &v) == map + page);
      g_assert_true (same (v, strtod (ends[i], NULL)));
    }
  munmap (map, 2 * (gsize) page);
}

/* Every shape the fast paths of nb_parse_double_prefix take apart, each
 * with random digits (and all zeros, all nines, leading zeros): a sign or
 * none, 0…9 integer digits, a point or none, 0…17 fraction digits, then a
 * separator and more digits; both with room behind the number (the word
 * paths) and with the number at the end of the buffer (the byte path).
 * The value is strtod's, and the number ends where it does. */
static void
check_shape (const char *sign, int n1, gboolean point, int n2, int fill)
{
  const char seps[] = { ',', '\n', '\r', ' ', '\t', '"', ';', '\0' };
  char buf[96], *o = buf;
  gsize len;
  double v, want;
  const char *stop;

  o += g_strlcpy (o, sign, 4);
  for (int i = 0; i < n1 + n2; i++)
    {
      if (i == n1 && point)
        *o++ = '.';
      /* fill 0: random; 1: zeros; 2: nines; 3: zeros first, then random */
      *o++ = fill == 1 || (fill == 3 && i < (n1 + n2) / 2) ? '0'
             : fill == 2 ? '9' : (char) ('0' + rng () % 10);
    }
  if (n1 + n2 == n1 && point)
    *o++ = '.';
  len = (gsize) (o - buf);
  *o = '\0';
  if (n1 + n2 == 0)
    return;
  want = strtod (buf, NULL);
  /* a separator and digits that must not be read as part of it */
  snprintf (o, sizeof buf - len, "%c98765432109876543210987654321", seps[rng () % 8]);
  stop = nb_parse_double_prefix (buf, buf + sizeof buf - 1, &v);
  if (stop != buf + len || !same (v, want))
    g_error ("'%.*s' (room behind): stopped at %td of %zu, parsed as %a, strtod gives %a",
             (int) len, buf, stop == NULL ? -1 : stop - buf, len, v, want);
  stop = nb_parse_double_prefix (buf, buf + len, &v);
  if (stop != buf + len || !same (v, want))
    g_error ("'%.*s' (at the end): stopped at %td of %zu, parsed as %a, strtod gives %a",
             (int) len, buf, stop == NULL ? -1 : stop - buf, len, v, want);
}

static void
test_parse_shapes (void)
{
  const char *signs[] = { "", "-", "+" };
  guint64 per_shape = 400 * scale ();

  for (guint sg = 0; sg < G_N_ELEMENTS (signs); sg++)
    for (int n1 = 0; n1 <= 9; n1++)
      for (int n2 = 0; n2 <= 17; n2++)
        for (int point = 0; point <= 1; point++)
          {
            if (!point && n2 > 0)
              continue;
            for (int fill = 1; fill <= 3; fill++)
              check_shape (signs[sg], n1, point, n2, fill);
            for (guint64 k = 0; k < per_shape; k++)
              check_shape (signs[sg], n1, point, n2, k % 2 == 0 ? 0 : 3);
          }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/number/format/cases", test_format_cases);
  g_test_add_func ("/number/format/edges", test_format_edges);
  g_test_add_func ("/number/format/random", test_format_random);
  g_test_add_func ("/number/format/trailing-zeros", test_format_trailing_zeros);
  g_test_add_func ("/number/parse/forms", test_parse_forms);
  g_test_add_func ("/number/parse/hard", test_parse_hard);
  g_test_add_func ("/number/parse/random", test_parse_random);
  g_test_add_func ("/number/parse/prefix", test_parse_prefix);
  g_test_add_func ("/number/parse/shapes", test_parse_shapes);
  return g_test_run ();
}
