#include "nb-number.h"

#include <math.h>
#include <string.h>

/* Exactly representable powers of ten: Clinger's fast path needs 10^e exact. */
static const double pow10_exact[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static inline gboolean
is_space (char c)
{
  return c == ' ' || c == '\t';
}

static void
trim (const char **s, gsize *len)
{
  while (*len > 0 && is_space ((*s)[0]))
    (*s)++, (*len)--;
  while (*len > 0 && is_space ((*s)[*len - 1]))
    (*len)--;
}

/* The slow path: the same syntax was checked already; glibc's strtod is
 * correctly rounded, g_ascii_strtod makes it ignore the locale. */
static gboolean
parse_slow (const char *s, gsize len, double *out)
{
  char buf[128];
  g_autofree char *heap = NULL;
  char *text = buf, *end = NULL;
  double value;

  if (len >= sizeof buf)
    text = heap = g_malloc (len + 1);
  memcpy (text, s, len);
  text[len] = '\0';
  value = g_ascii_strtod (text, &end);
  if (end != text + len || !isfinite (value))
    return FALSE;
  *out = value;
  return TRUE;
}

gboolean
nb_parse_double (const char *s, gsize len, double *out)
{
  const char *p, *end;
  guint64 mantissa = 0;
  int digits = 0, frac_digits = 0, exp10 = 0, any_digit = 0;
  gboolean negative = FALSE, exact = TRUE;

  trim (&s, &len);
  p = s;
  end = s + len;
  if (p == end)
    return FALSE;
  if (*p == '+' || *p == '-')
    negative = *p++ == '-';

  /* Integer part; leading zeros are not significant digits. */
  for (; p < end && *p >= '0' && *p <= '9'; p++)
    {
      any_digit = 1;
      if (mantissa == 0 && *p == '0')
        continue;
      if (digits < 19)
        mantissa = mantissa * 10 + (guint64) (*p - '0');
      else
        exact = FALSE;
      digits++;
    }
  if (p < end && *p == '.')
    {
      for (p++; p < end && *p >= '0' && *p <= '9'; p++)
        {
          any_digit = 1;
          frac_digits++;
          if (mantissa == 0 && *p == '0')
            continue;
          if (digits < 19)
            mantissa = mantissa * 10 + (guint64) (*p - '0');
          else
            exact = FALSE;
          digits++;
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
      for (; p < end && *p >= '0' && *p <= '9'; p++, exp_digits++)
        if (e < 100000)
          e = e * 10 + (*p - '0');
      if (exp_digits == 0)
        return FALSE;
      exp10 = exp_negative ? -e : e;
    }
  if (p != end)
    return FALSE;

  /* More than 19 significant digits take the slow path (exact = FALSE). */
  exp10 -= frac_digits;

  /* Clinger's fast path: an exact mantissa below 2^53 and an exact power of
   * ten make one IEEE operation, which is correctly rounded. */
  if (exact && mantissa <= (G_GUINT64_CONSTANT (1) << 53) && exp10 >= -22 && exp10 <= 22)
    {
      double value = (double) mantissa;

      value = exp10 < 0 ? value / pow10_exact[-exp10] : value * pow10_exact[exp10];
      *out = negative ? -value : value;
      return TRUE;
    }
  return parse_slow (s, len, out);
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
