/* reports/: the JSON writer's numbers and layout, the table model's text. */
#include "nb-json-writer.h"
#include "nb-table.h"
#include "nb-table-formats.h"
#include "nb-csv-reader.h"
#include "nb-test.h"

#include <string.h>

static void
test_format_double (void)
{
  struct { double v; const char *text; } cases[] = {
    { 0.1, "0.1" }, { 1.0 / 3.0, "0.3333333333333333" }, { 5000, "5000" }, { -2.5, "-2.5" },
    { 1e-5, "1e-05" }, { 0.30000000000000004, "0.30000000000000004" }, { 1e21, "1e+21" },
    { 10005000.0028, "10005000.0028" },
  };
  char buf[40];

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpstr (nb_json_format_double (buf, sizeof buf, cases[i].v), ==, cases[i].text);
      /* Shortest, and exact: it reads back to the same double. */
      g_assert_true (g_ascii_strtod (buf, NULL) == cases[i].v);
    }
}

static void
test_json_layout (void)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  g_autofree char *text = NULL;
  const char *expected =
    "{\n"
    "  \"name\": \"Стена \\\"№1\\\"\\n\",\n"
    "  \"n\": 3,\n"
    "  \"ok\": true,\n"
    "  \"std\": null,\n"
    "  \"values\": [1.5, 0, null],\n"
    "  \"rows\": [\n"
    "    {\n"
    "      \"a\": 0.1\n"
    "    },\n"
    "    {}\n"
    "  ],\n"
    "  \"empty\": []\n"
    "}\n";

  nb_json_begin_object (w);
  nb_json_key (w, "name"); nb_json_string (w, "Стена \"№1\"\n");
  nb_json_key (w, "n"); nb_json_int (w, 3);
  nb_json_key (w, "ok"); nb_json_bool (w, TRUE);
  nb_json_key (w, "std"); nb_json_double (w, NAN);
  nb_json_key (w, "values");
  nb_json_begin_array (w);
  nb_json_double (w, 1.5);
  nb_json_double (w, -0.0);
  nb_json_double (w, INFINITY);
  nb_json_end_array (w);
  nb_json_key (w, "rows");
  nb_json_begin_array (w);
  nb_json_begin_object (w);
  nb_json_key (w, "a"); nb_json_double (w, 0.1);
  nb_json_end_object (w);
  nb_json_begin_object (w);
  nb_json_end_object (w);
  nb_json_end_array (w);
  nb_json_key (w, "empty");
  nb_json_begin_array (w);
  nb_json_end_array (w);
  nb_json_end_object (w);
  text = nb_json_writer_finish (g_steal_pointer (&w));
  /* −0 is printed as 0: a protocol has no negative zero. */
  g_assert_cmpstr (text, ==, expected);
}

static void
test_table_text (void)
{
  g_autoptr (NbTable) t = nb_table_new ("Table 1");
  g_autofree char *text = NULL;
  guint r;

  nb_table_add_column (t, "config", "конфигурация", NULL, 0);
  nb_table_add_column (t, "ap_mm", "Ap", "mm", 2);
  nb_table_add_column (t, "ok", "passed", NULL, 0);
  r = nb_table_add_row (t);
  nb_table_set_text (t, r, 0, "прямой");
  nb_table_set_number (t, r, 1, 12.345);
  nb_table_set_bool (t, r, 2, TRUE);
  r = nb_table_add_row (t);
  nb_table_set_text (t, r, 0, "rectangular");
  nb_table_set_number (t, r, 1, -0.001);
  nb_table_set_bool (t, r, 2, FALSE);
  r = nb_table_add_row (t);
  nb_table_set_text (t, r, 0, "combined");
  nb_table_set_number (t, r, 1, NAN);
  nb_table_add_note (t, "Note: a note.");
  text = nb_table_to_text (t);
  g_assert_cmpstr (text, ==,
                   "Table 1\n\n"
                   "конфигурация  Ap, mm  passed\n"
                   "────────────  ──────  ──────\n"
                   "прямой         12.35  yes   \n"
                   "rectangular     0.00  no    \n"
                   "combined           —  —     \n"
                   "\nNote: a note.\n");
  g_assert_cmpuint (nb_table_n_rows (t), ==, 3);
  g_assert_cmpuint (nb_table_n_columns (t), ==, 3);
  g_assert_cmpint (nb_table_cell (t, 2, 1)->kind, ==, NB_CELL_EMPTY);
  g_assert_cmpstr (nb_table_column (t, 1)->unit, ==, "mm");
}

/* The sample table every format renders, with the awkward cases: Cyrillic,
 * a comma and a quote in text, an empty cell, a flagged cell, full precision. */
static NbTable *
sample_table (void)
{
  NbTable *t = nb_table_new ("Table 1 — Pose accuracy and repeatability");
  guint r;

  nb_table_add_column (t, "config", "Configuration", NULL, 0);
  nb_table_add_column (t, "ap_mm", "Ap", "mm", 2);
  nb_table_add_column (t, "ro_deg", "Ro", "°", 3);
  nb_table_add_column (t, "passed", "passed", NULL, 0);
  r = nb_table_add_row (t);
  nb_table_set_text (t, r, 0, "прямой, без нагрузки");
  nb_table_set_number (t, r, 1, 3.3812345678901234);
  nb_table_set_number (t, r, 2, 0.1);
  nb_table_set_bool (t, r, 3, TRUE);
  r = nb_table_add_row (t);
  nb_table_set_text (t, r, 0, "rectangular \"cw\" | load");
  nb_table_set_number (t, r, 1, 12.0);
  nb_table_set_number (t, r, 2, NAN);
  nb_table_set_bool (t, r, 3, FALSE);
  nb_table_flag_cell (t, r, 1);
  nb_table_add_note (t, "Note: 12 trials where ISO 18646-2 5.4 asks for 30.");
  return t;
}

static void
test_table_formats (void)
{
  g_autoptr (NbTable) t = sample_table ();
  g_autofree char *csv = nb_table_to_csv (t);
  g_autofree char *md = nb_table_to_markdown (t);
  g_autofree char *json = NULL;
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

  nb_table_to_json (t, w);
  json = nb_json_writer_finish (g_steal_pointer (&w));
  nb_test_assert_golden ("table.csv", csv);
  nb_test_assert_golden ("table.md", md);
  nb_test_assert_golden ("table.json", json);

  /* The CSV reads back, through navbench's own reader, to the same doubles. */
  {
    g_autoptr (NbCsvReader) r = nb_csv_reader_new_for_data ("table.csv", csv, strlen (csv));
    NbCsvColumn cols[] = { { "config", TRUE }, { "ap_mm [mm]", TRUE }, { "ro_deg [°]", TRUE } };
    double ap, ro;
    gboolean present;

    g_assert_true (nb_csv_reader_read_header (r, cols, 3, NULL));
    g_assert_cmpint (nb_csv_reader_next (r, NULL), ==, 1);
    g_assert_cmpstr (nb_csv_reader_get_text (r, &cols[0], NULL), ==, "прямой, без нагрузки");
    g_assert_true (nb_csv_reader_get_double (r, &cols[1], &ap, NULL));
    g_assert_true (ap == 3.3812345678901234);
    g_assert_cmpint (nb_csv_reader_next (r, NULL), ==, 1);
    g_assert_cmpstr (nb_csv_reader_get_text (r, &cols[0], NULL), ==, "rectangular \"cw\" | load");
    g_assert_true (nb_csv_reader_get_double_or_empty (r, &cols[2], &ro, &present, NULL));
    g_assert_false (present);
    g_assert_cmpint (nb_csv_reader_next (r, NULL), ==, 0);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/format-double", test_format_double);
  g_test_add_func ("/json/layout", test_json_layout);
  g_test_add_func ("/table/text", test_table_text);
  g_test_add_func ("/table/formats", test_table_formats);
  return g_test_run ();
}
