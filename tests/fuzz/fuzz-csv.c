/* libFuzzer target: the CSV reader and the number parser on arbitrary bytes;
 * a number column's get_double is the number of its field's text.
 * Build: CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined
 *        -Db_lundef=false; run: build-fuzz/tests/fuzz-csv tests/fuzz/corpus/csv */
#include "nb-csv-reader.h"
#include "nb-number.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (NbCsvReader) r = nb_csv_reader_new_for_data ("fuzz.csv", data, size);
  NbCsvColumn cols[] = { { "x_mm", TRUE }, { "name", FALSE }, { "n", FALSE }, { "flag", FALSE } };
  GError *error = NULL;
  double v;
  guint u;
  gboolean b, present;
  int rc;

  (void) nb_parse_double ((const char *) data, size, &v);
  (void) nb_parse_uint ((const char *) data, size, &u);

  if (!nb_csv_reader_read_header (r, cols, G_N_ELEMENTS (cols), &error))
    {
      g_assert (error != NULL);
      g_error_free (error);
      return 0;
    }
  while ((rc = nb_csv_reader_next (r, &error)) > 0)
    {
      gsize len;
      const char *field = nb_csv_reader_field (r, &cols[0], &len);
      double from_text = 0;
      gboolean is_number = nb_parse_double (field, len, &from_text);

      /* The value parsed while splitting (or not) is the field text's. */
      if (nb_csv_reader_get_double (r, &cols[0], &v, &error))
        g_assert (is_number && memcmp (&v, &from_text, sizeof v) == 0);
      else
        {
          g_assert (!is_number);
          g_clear_error (&error);
        }
      if (!nb_csv_reader_get_double_or_empty (r, &cols[0], &v, &present, &error))
        g_clear_error (&error);
      if (nb_csv_reader_get_text (r, &cols[1], &error) == NULL)
        g_clear_error (&error);
      if (!nb_csv_reader_get_uint (r, &cols[2], &u, &error))
        g_clear_error (&error);
      if (!nb_csv_reader_get_flag (r, &cols[3], &b, &error))
        g_clear_error (&error);
      g_assert (nb_csv_reader_line (r) >= 1);
    }
  g_assert ((rc < 0) == (error != NULL));
  g_clear_error (&error);
  return 0;
}
