/* The number parser and the CSV reader: accepted forms, refused forms, the
 * exact rounding of strtod, quoting, comments, line numbers in messages,
 * records across block boundaries, get_doubles against get_double. */
#include "nb-csv-reader.h"
#include "nb-error.h"
#include "nb-number.h"
#include "nb-test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* ------------------------------------------------------------ numbers -- */

static gboolean
parse (const char *s, double *out)
{
  return nb_parse_double (s, strlen (s), out);
}

static void
test_number_forms (void)
{
  struct { const char *text; double value; } ok[] = {
    { "0", 0 }, { "-12.5", -12.5 }, { "+7", 7 }, { ".5", 0.5 }, { "5.", 5 }, { " 3.25 ", 3.25 },
    { "1e3", 1000 }, { "1E-3", 0.001 }, { "-0.000123", -0.000123 }, { "2.5e+2", 250 },
    { "0.1", 0.1 }, { "1234567.891", 1234567.891 }, { "10000000.0123", 10000000.0123 },
    { "123456789012345678901234567890", 123456789012345678901234567890.0 },
    { "4.9406564584124654e-324", 4.9406564584124654e-324 }, { "1.7976931348623157e308", 1.7976931348623157e308 },
    { "\t42\t", 42 },
  };
  const char *bad[] = { "", " ", "nan", "NaN", "inf", "-inf", "infinity", "1e", "1e+", "1.2.3",
                        "0x10", "1,5", "--1", "+", "-", ".", "e5", "1e400", "-1e400", "12a",
                        "1 2", "1_000" };
  double v;

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_assert_true (parse (ok[i].text, &v));
      nb_assert_abs (v, ok[i].value, 0.0, ok[i].text);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    if (parse (bad[i], &v))
      g_error ("'%s' parsed as %g", bad[i], v);

  {
    guint u;

    g_assert_true (nb_parse_uint ("17", 2, &u));
    g_assert_cmpuint (u, ==, 17);
    g_assert_true (nb_parse_uint (" 4294967295", 11, &u));
    g_assert_cmpuint (u, ==, 4294967295u);
    g_assert_false (nb_parse_uint ("4294967296", 10, &u));
    g_assert_false (nb_parse_uint ("-1", 2, &u));
    g_assert_false (nb_parse_uint ("1.0", 3, &u));
    g_assert_false (nb_parse_uint ("", 0, &u));
  }
}

/* Every value the fast path takes must be the double glibc's strtod gives. */
static void
test_number_rounding (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (2024);
  char buf[64];

  for (int i = 0; i < 300000; i++)
    {
      double x = g_rand_double_range (rand, -1.0, 1.0) * pow (10.0, g_rand_int_range (rand, -12, 16));
      int digits = g_rand_int_range (rand, 1, 20);
      double mine;

      switch (i % 3)
        {
        case 0: g_snprintf (buf, sizeof buf, "%.*g", digits, x); break;
        case 1: g_snprintf (buf, sizeof buf, "%.*f", g_rand_int_range (rand, 0, 9), x); break;
        default: g_snprintf (buf, sizeof buf, "%.*e", digits, x); break;
        }
      g_assert_true (parse (buf, &mine));
      if (mine != g_ascii_strtod (buf, NULL))
        g_error ("'%s': %.17g, strtod says %.17g", buf, mine, g_ascii_strtod (buf, NULL));
    }
}

/* ---------------------------------------------------------------- CSV -- */

static NbCsvReader *
reader_for (const char *text)
{
  return nb_csv_reader_new_for_data ("t.csv", text, strlen (text));
}

static void
test_csv_basic (void)
{
  /* BOM, comments, blank lines, CRLF, columns in any order, an extra column,
   * header names ignoring case and spaces. */
  const char *text = "\xEF\xBB\xBF# Name: basic\r\n"
                     "note, Y_MM ,x_mm\r\n"
                     "\r\n"
                     "first,2.5,1\r\n"
                     "# a comment between rows\n"
                     "second,-4,3";
  g_autoptr (NbCsvReader) r = reader_for (text);
  NbCsvColumn cols[] = { { "x_mm", TRUE }, { "y_mm", TRUE }, { "theta_deg", FALSE } };
  GError *error = NULL;
  double x, y;

  g_assert_true (nb_csv_reader_read_header (r, cols, 3, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cols[0].index, ==, 2);
  g_assert_cmpint (cols[1].index, ==, 1);
  g_assert_cmpint (cols[2].index, ==, -1);
  g_assert_cmpuint (nb_csv_reader_line (r), ==, 2);

  g_assert_cmpint (nb_csv_reader_next (r, &error), ==, 1);
  g_assert_cmpuint (nb_csv_reader_line (r), ==, 4);
  g_assert_true (nb_csv_reader_get_double (r, &cols[0], &x, &error));
  g_assert_true (nb_csv_reader_get_double (r, &cols[1], &y, &error));
  nb_assert_abs (x, 1, 0, "x");
  nb_assert_abs (y, 2.5, 0, "y");
  g_assert_cmpstr (nb_csv_reader_field (r, &cols[2], NULL), ==, "");

  g_assert_cmpint (nb_csv_reader_next (r, &error), ==, 1);
  g_assert_cmpuint (nb_csv_reader_line (r), ==, 6);
  g_assert_true (nb_csv_reader_get_double (r, &cols[0], &x, &error));
  nb_assert_abs (x, 3, 0, "x, last line without newline");
  g_assert_cmpint (nb_csv_reader_next (r, &error), ==, 0);
  g_assert_no_error (error);
}

static void
test_csv_quotes (void)
{
  const char *text = "name,x_mm\n"
                     "\"a, b\",1\n"
                     "\"say \"\"hi\"\"\",2\n"
                     "\"two\nlines\",3\n"
                     "plain,4\n"
                     "\"\",5\n";
  g_autoptr (NbCsvReader) r = reader_for (text);
  NbCsvColumn cols[] = { { "name", TRUE }, { "x_mm", TRUE } };
  const char *names[] = { "a, b", "say \"hi\"", "two\nlines", "plain", "" };
  const guint64 lines[] = { 2, 3, 4, 6, 7 };
  double x;

  g_assert_true (nb_csv_reader_read_header (r, cols, 2, NULL));
  for (guint i = 0; i < 5; i++)
    {
      g_assert_cmpint (nb_csv_reader_next (r, NULL), ==, 1);
      g_assert_cmpstr (nb_csv_reader_field (r, &cols[0], NULL), ==, names[i]);
      g_assert_cmpuint (nb_csv_reader_line (r), ==, lines[i]);
      g_assert_true (nb_csv_reader_get_double (r, &cols[1], &x, NULL));
      nb_assert_abs (x, i + 1, 0, "x after quotes");
    }
  g_assert_cmpint (nb_csv_reader_next (r, NULL), ==, 0);
}

/* Reads text to the end; returns the error message (or NULL) */
static char *
read_all (const char *text, NbCsvColumn *cols, guint n)
{
  g_autoptr (NbCsvReader) r = reader_for (text);
  GError *error = NULL;
  char *message;
  int rc;

  if (nb_csv_reader_read_header (r, cols, n, &error))
    while ((rc = nb_csv_reader_next (r, &error)) > 0)
      {
        double v;

        for (guint c = 0; c < n; c++)
          if (cols[c].required && !nb_csv_reader_get_double (r, &cols[c], &v, &error))
            break;
        if (error)
          break;
      }
  if (error == NULL)
    return NULL;
  g_assert_true (error->domain == NB_ERROR && error->code == NB_ERROR_INPUT);
  message = g_strdup (error->message);
  g_error_free (error);
  return message;
}

static void
assert_message (const char *text, const char *expected)
{
  NbCsvColumn cols[] = { { "x_mm", TRUE }, { "y_mm", TRUE } };
  g_autofree char *message = read_all (text, cols, 2);

  if (message == NULL || strstr (message, expected) == NULL)
    g_error ("for %s: expected a message with \"%s\", got \"%s\"", text, expected,
             message ? message : "(no error)");
}

static void
test_csv_errors (void)
{
  assert_message ("", "t.csv:1: the file is empty");
  assert_message ("# only a comment\n", "t.csv:1: the file is empty");
  assert_message ("x_mm,z\n1,2\n", "t.csv:1: missing column 'y_mm'");
  assert_message ("x_mm,y_mm,x_mm\n1,2,3\n", "t.csv:1: column 'x_mm' appears twice");
  assert_message ("x_mm,y_mm\n1,2\n3\n", "t.csv:3: 1 fields where the header has 2");
  assert_message ("x_mm,y_mm\n1,2\n3,4,5\n", "t.csv:3: 3 fields where the header has 2");
  assert_message ("x_mm,y_mm\n# c\n\n1,abc\n", "t.csv:4: column 'y_mm': 'abc' is not a finite number");
  assert_message ("x_mm,y_mm\n1,\n", "t.csv:2: column 'y_mm' is empty");
  assert_message ("x_mm,y_mm\n1,nan\n", "t.csv:2: column 'y_mm': 'nan' is not a finite number");
  assert_message ("x_mm,y_mm\n1,inf\n", "t.csv:2: column 'y_mm': 'inf'");
  assert_message ("x_mm,y_mm\n1,\"2\n", "t.csv:2: a quoted field is never closed");
  assert_message ("x_mm,y_mm\n1,\"2\"x\n", "t.csv:2: field 2: text after a closing quote");
  assert_message ("x_mm,y_mm\n1,2\"\n", "t.csv:2: field 2: a quote inside an unquoted field");
  assert_message ("x_mm,y_mm,note\n1,2,\"a\nb\"\n1,x,c\n", "t.csv:4: column 'y_mm'");
  assert_message ("x_mm,y_mm\n1,\x01\x02\xff\n", "is not a finite number");
}

static void
test_csv_text (void)
{
  g_autoptr (NbCsvReader) r = reader_for ("obstacle\n  Стена №1 \n\xff\xfe\n\n");
  NbCsvColumn cols[] = { { "obstacle", TRUE } };
  GError *error = NULL;

  g_assert_true (nb_csv_reader_read_header (r, cols, 1, NULL));
  g_assert_cmpint (nb_csv_reader_next (r, NULL), ==, 1);
  g_assert_cmpstr (nb_csv_reader_get_text (r, &cols[0], NULL), ==, "Стена №1");
  g_assert_cmpint (nb_csv_reader_next (r, NULL), ==, 1);
  g_assert_null (nb_csv_reader_get_text (r, &cols[0], &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "t.csv:3: column 'obstacle' is not UTF-8 text"));
  g_clear_error (&error);
}

/* 3 MB of rows (records straddle the 1 MiB blocks) and one 2.5 MiB field
 * (the buffer grows): every value arrives, in order. */
static void
test_csv_blocks (void)
{
  GString *text = g_string_new ("i,x_mm\n");
  g_autoptr (NbCsvReader) r = NULL;
  NbCsvColumn cols[] = { { "i", TRUE }, { "x_mm", TRUE } };
  guint n = 0;
  double sum = 0.0, expected = 0.0;
  int rc;

  for (guint i = 0; i < 200000; i++)
    {
      g_string_append_printf (text, "%u,%u.%03u\n", i, i % 977, i % 1000);
      expected += i % 977 + (i % 1000) / 1000.0;
      if (i == 100000)
        {
          g_string_append (text, "100000,\"");
          for (guint k = 0; k < 2500000; k++)
            g_string_append_c (text, ' ');
          g_string_append (text, "7\"\n");
          expected += 7;
        }
    }
  r = nb_csv_reader_new_for_data ("big.csv", text->str, text->len);
  g_assert_true (nb_csv_reader_read_header (r, cols, 2, NULL));
  while ((rc = nb_csv_reader_next (r, NULL)) > 0)
    {
      double x;

      g_assert_true (nb_csv_reader_get_double (r, &cols[1], &x, NULL));
      sum += x;
      n++;
    }
  g_assert_cmpint (rc, ==, 0);
  g_assert_cmpuint (n, ==, 200001);
  nb_assert_rel (sum, expected, 1e-12, "sum of every value");
  g_assert_cmpuint (nb_csv_reader_bytes (r), ==, text->len);
  g_string_free (text, TRUE);
}

static void
test_csv_file (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "nb-test-csv-XXXXXX", NULL);
  int fd = g_mkstemp (path);
  NbCsvColumn cols[] = { { "x_mm", TRUE } };
  GError *error = NULL;
  NbCsvReader *r;
  double x;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "x_mm\n1.5\n", 9), ==, 9);
  close (fd);
  r = nb_csv_reader_new_for_path (path, &error);
  g_assert_no_error (error);
  g_assert_true (nb_csv_reader_read_header (r, cols, 1, NULL));
  g_assert_cmpint (nb_csv_reader_next (r, NULL), ==, 1);
  g_assert_true (nb_csv_reader_get_double (r, &cols[0], &x, NULL));
  nb_assert_abs (x, 1.5, 0, "x from a file");
  nb_csv_reader_free (r);
  g_unlink (path);

  g_assert_null (nb_csv_reader_new_for_path (path, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_clear_error (&error);
}

/* The reader parses a number while it splits the record (split_numbers)
 * and falls back to splitting the rest when a field is not a bare number:
 * whatever a field holds — numbers of every form, spaces around them, CR
 * before the line feed, empty fields, quoted numbers, text, text that
 * starts like a number — each field's text is what was written, and
 * get_double gives strtod's value exactly when the text is a number (with
 * spaces around it) and an error naming the column otherwise.  3 MB of
 * records, so that some are cut by the 1 MiB block's end. */
static const char *
random_field (GRand *rand, char *buf, gsize size)
{
  static const char *const fixed[] = {
    "", " ", "abc", "1e", "-", ".", "12a", "1,5" /* quoted below */, "nan", "2024-01-01",
    "1.5e3", "-0.000123", "+7", ".5", "5.", "123456789012345678901234567890", "1e400",
    "0.10000000000000000555", "99999999.5", " 3.25", "3.25 ", "\t-1\t", "1.2.3", "0x10",
  };
  int kind = g_rand_int_range (rand, 0, 10);

  if (kind < 5)
    {
      /* a measurement: 0…7 integer digits, 0…12 fraction digits */
      int n1 = g_rand_int_range (rand, 0, 8), n2 = g_rand_int_range (rand, 0, 13);
      gsize o = 0;

      if (g_rand_boolean (rand))
        buf[o++] = '-';
      for (int i = 0; i < n1; i++)
        buf[o++] = (char) ('0' + g_rand_int_range (rand, 0, 10));
      if (n2 > 0 || n1 == 0)
        buf[o++] = '.';
      for (int i = 0; i < MAX (n2, n1 == 0); i++)
        buf[o++] = (char) ('0' + g_rand_int_range (rand, 0, 10));
      buf[o] = '\0';
      return buf;
    }
  if (kind < 7)
    {
      g_snprintf (buf, size, "%.*g", g_rand_int_range (rand, 1, 18),
                  g_rand_double_range (rand, -1e6, 1e6) *
                    pow (10, g_rand_int_range (rand, -30, 30)));
      return buf;
    }
  return fixed[g_rand_int_range (rand, 0, G_N_ELEMENTS (fixed))];
}

static void
test_csv_numbers_split (void)
{
  enum { COLS = 5 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (20);
  GString *csv = g_string_new ("c0,c1,c2,c3,c4\n");
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  NbCsvColumn cols[COLS] = { { "c0", TRUE }, { "c1", TRUE }, { "c2", TRUE }, { "c3", TRUE },
                             { "c4", TRUE } };
  g_autoptr (NbCsvReader) r = NULL;
  g_autoptr (GError) error = NULL;
  guint record = 0, numbers = 0, refused = 0;
  char buf[64];

  while (csv->len < 3000000)
    {
      for (int c = 0; c < COLS; c++)
        {
          const char *text = random_field (rand, buf, sizeof buf);
          gboolean quote = strchr (text, ',') != NULL || g_rand_int_range (rand, 0, 50) == 0;

          g_ptr_array_add (texts, g_strdup (text));
          if (c > 0)
            g_string_append_c (csv, ',');
          g_string_append_printf (csv, quote ? "\"%s\"" : "%s", text);
        }
      g_string_append (csv, g_rand_int_range (rand, 0, 4) == 0 ? "\r\n" : "\n");
    }
  r = nb_csv_reader_new_for_data ("split.csv", csv->str, csv->len);
  g_assert_true (nb_csv_reader_read_header (r, cols, COLS, &error));
  while (nb_csv_reader_next (r, &error) > 0)
    {
      double all[COLS], one;
      int first_bad = COLS;
      g_autoptr (GError) all_error = NULL;

      /* get_doubles first, before any text was asked for (no NULs written
       * in the record yet): the numbers get_double gives, up to the first
       * column that is not one, whose error it reports. */
      for (int c = COLS - 1; c >= 0; c--)
        {
          const char *t = texts->pdata[record * COLS + (guint) c];

          if (!nb_parse_double (t, strlen (t), &one))
            first_bad = c;
        }
      g_assert_true (nb_csv_reader_get_doubles (r, cols, COLS, all, &all_error) ==
                     (first_bad == COLS));
      if (first_bad < COLS)
        {
          g_assert_error (all_error, NB_ERROR, NB_ERROR_INPUT);
          g_assert_nonnull (strstr (all_error->message, cols[first_bad].name));
        }
      for (int c = 0; c < first_bad; c++)
        {
          const char *t = texts->pdata[record * COLS + (guint) c];
          g_autofree char *trimmed = g_strstrip (g_strdup (t));

          one = strtod (trimmed, NULL);
          if (memcmp (&all[c], &one, sizeof one) != 0)
            g_error ("record %u column %d '%s': get_doubles %a, strtod %a", record, c, t,
                     all[c], one);
        }
      for (int c = 0; c < COLS; c++)
        {
          const char *want_text = texts->pdata[record * COLS + (guint) c];
          g_autofree char *trimmed = g_strstrip (g_strdup (want_text));
          double want = 0, got = 0;
          gboolean is_number = nb_parse_double (want_text, strlen (want_text), &want), ok;
          g_autoptr (GError) field_error = NULL;

          g_assert_cmpstr (nb_csv_reader_field (r, &cols[c], NULL), ==, want_text);
          ok = nb_csv_reader_get_double (r, &cols[c], &got, &field_error);
          if (is_number != ok)
            g_error ("record %u column %d '%s': number %d, get_double %d", record, c, want_text,
                     is_number, ok);
          if (ok)
            {
              /* strtod, independently of navbench's parser */
              want = strtod (trimmed, NULL);
              if (memcmp (&got, &want, sizeof got) != 0)
                g_error ("record %u column %d '%s': %a, strtod %a", record, c, want_text, got,
                         want);
              numbers++;
            }
          else
            {
              g_assert_error (field_error, NB_ERROR, NB_ERROR_INPUT);
              g_assert_nonnull (strstr (field_error->message, cols[c].name));
              refused++;
            }
        }
      record++;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (record * COLS, ==, texts->len);
  g_assert_cmpuint (numbers, >, 100000);
  g_assert_cmpuint (refused, >, 10000);
  g_ptr_array_unref (texts);
  g_string_free (csv, TRUE);
}

/* The split's fast path (16 bytes at a time) at every alignment: a text
 * column of 0…40 bytes first shifts the numbers across the 16-byte lanes;
 * each edge value in turn in the middle of a long file, with CRLF, spaces
 * behind it, the last record with no line end.  Good values give strtod's
 * double bit for bit (−0 with its sign); bad ones the same FILE:LINE
 * message as in a short file. */
static void
test_csv_number_edges (void)
{
  const char *good[] = {
    "-0", "0", "-0.0", "5.", ".5", "-.5", "+5", "1.5 ", " 2.25", "7\t",
    "999999999999999", "-999999999999999", "0.00000000000001", "1234567890123456",
    "12345678901234567890", "-123456789012345678901234567890.5",
    "0.30000000000000004", "9007199254740993", "4.9406564584124654e-324",
    "2.2250738585072011e-308", "1.7976931348623157e308", "1e-400", "1E5", "-2.5e-3",
    "0.0000000000000000000000000000000000000001234",
    "3.14159265358979323846264338327950288419716939937510582097494459",
  };
  const char *bad[] = { "inf", "-inf", "nan", "NaN", "1e999", "-1e400", "1e", "1.2.3", "--1",
                        "0x10", "1;5", "12a", "." };
  NbCsvColumn cols[] = { { "pad", TRUE }, { "x_mm", TRUE }, { "y_mm", TRUE } };

  for (guint k = 0; k < G_N_ELEMENTS (good) + G_N_ELEMENTS (bad); k++)
    {
      gboolean is_good = k < G_N_ELEMENTS (good);
      const char *value = is_good ? good[k] : bad[k - G_N_ELEMENTS (good)];
      g_autoptr (GString) csv = g_string_new ("pad,x_mm,y_mm\n");
      g_autoptr (NbCsvReader) r = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *trimmed = g_strstrip (g_strdup (value));
      guint line = 1, checked = 0;
      double want = strtod (trimmed, NULL);
      int rc;

      /* 41 records of the value, one per pad length, then good rows */
      for (guint pad = 0; pad <= 40; pad++)
        g_string_append_printf (csv, "%.*s,%s,%u.125%s", (int) pad,
                                "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ", value, pad,
                                pad % 3 == 0 ? "\r\n" : "\n");
      g_string_append (csv, "end,1.5,-2.75");          /* no line end at the end */
      r = nb_csv_reader_new_for_data ("edge.csv", csv->str, csv->len);
      g_assert_true (nb_csv_reader_read_header (r, cols, 3, &error));
      while ((rc = nb_csv_reader_next (r, &error)) > 0)
        {
          double xy[2];
          g_autoptr (GError) e2 = NULL;

          line++;
          g_assert_cmpuint (nb_csv_reader_line (r), ==, line);
          if (line == 43)
            {
              g_assert_true (nb_csv_reader_get_doubles (r, &cols[1], 2, xy, NULL));
              g_assert_true (xy[0] == 1.5 && xy[1] == -2.75);
              continue;
            }
          if (!is_good)
            {
              g_assert_false (nb_csv_reader_get_doubles (r, &cols[1], 2, xy, &e2));
              g_autofree char *want_msg = g_strdup_printf ("edge.csv:%u: column 'x_mm'", line);
              g_assert_nonnull (strstr (e2->message, want_msg));
              g_assert_nonnull (strstr (e2->message, "is not a finite number"));
              continue;
            }
          g_assert_true (nb_csv_reader_get_doubles (r, &cols[1], 2, xy, &e2));
          g_assert_no_error (e2);
          if (memcmp (&xy[0], &want, sizeof want) != 0)
            g_error ("'%s' on line %u: %a, strtod %a", value, line, xy[0], want);
          g_assert_cmpfloat (xy[1], ==, (line - 2) + 0.125);
          checked++;
        }
      g_assert_no_error (error);
      g_assert_cmpint (rc, ==, 0);
      g_assert_cmpuint (line, ==, 43);
      if (is_good)
        g_assert_cmpuint (checked, ==, 41);
    }
  /* the error names the line in a long file as in a short one */
  assert_message ("x_mm,y_mm\n1.25,2.5\n1.25,2.5\n1.25,2.5\n1.25,inf\n1.25,2.5\n1.25,2.5\n",
                  "t.csv:5: column 'y_mm': 'inf' is not a finite number");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/number/forms", test_number_forms);
  g_test_add_func ("/number/rounding", test_number_rounding);
  g_test_add_func ("/csv/basic", test_csv_basic);
  g_test_add_func ("/csv/quotes", test_csv_quotes);
  g_test_add_func ("/csv/errors", test_csv_errors);
  g_test_add_func ("/csv/text", test_csv_text);
  g_test_add_func ("/csv/blocks", test_csv_blocks);
  g_test_add_func ("/csv/file", test_csv_file);
  g_test_add_func ("/csv/numbers-split", test_csv_numbers_split);
  g_test_add_func ("/csv/number-edges", test_csv_number_edges);
  return g_test_run ();
}
