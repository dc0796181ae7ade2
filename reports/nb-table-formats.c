#include "nb-table-formats.h"

#include <csv.h>
#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- CSV -- */

static void
csv_field (GString *out, const char *text)
{
  gsize len = strlen (text);

  /* Quote only what needs it (RFC 4180 §2.6), with libcsv's escaping. */
  if (strpbrk (text, ",\"\r\n") != NULL || (len > 0 && (text[0] == ' ' || text[len - 1] == ' ')))
    {
      gsize size = 2 * len + 3;
      char *buf = g_malloc (size);
      gsize n = csv_write (buf, size, text, len);

      g_string_append_len (out, buf, (gssize) n);
      g_free (buf);
    }
  else
    g_string_append (out, text);
}

static char *
full_value (const NbCell *cell)
{
  char buf[40];

  switch (cell->kind)
    {
    case NB_CELL_TEXT: return g_strdup (cell->text);
    case NB_CELL_NUMBER: return g_strdup (nb_json_format_double (buf, sizeof buf, cell->number));
    case NB_CELL_BOOL: return g_strdup (cell->flag ? "1" : "0");
    case NB_CELL_EMPTY:
    default: return g_strdup ("");
    }
}

char *
nb_table_to_csv (const NbTable *t)
{
  GString *out = g_string_new (NULL);
  guint n_cols = nb_table_n_columns (t);

  for (guint c = 0; c < n_cols; c++)
    {
      const NbColumn *col = nb_table_column (t, c);
      g_autofree char *h = col->unit ? g_strdup_printf ("%s [%s]", col->key, col->unit)
                                     : g_strdup (col->key);

      if (c > 0)
        g_string_append_c (out, ',');
      csv_field (out, h);
    }
  g_string_append (out, "\r\n");
  for (guint r = 0; r < nb_table_n_rows (t); r++)
    {
      for (guint c = 0; c < n_cols; c++)
        {
          g_autofree char *v = full_value (nb_table_cell (t, r, c));

          if (c > 0)
            g_string_append_c (out, ',');
          csv_field (out, v);
        }
      g_string_append (out, "\r\n");
    }
  for (guint i = 0; i < nb_table_n_notes (t); i++)
    g_string_append_printf (out, "# %s\r\n", nb_table_note (t, i));
  return g_string_free (out, FALSE);
}

/* ----------------------------------------------------------- Markdown -- */

static void
md_text (GString *out, const char *text)
{
  for (const char *p = text; *p; p++)
    {
      if (*p == '|' || *p == '\\' || *p == '*' || *p == '_')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p == '\n' ? ' ' : *p);
    }
}

char *
nb_table_to_markdown (const NbTable *t)
{
  GString *out = g_string_new (NULL);
  guint n_cols = nb_table_n_columns (t);

  if (nb_table_title (t))
    {
      g_string_append (out, "### ");
      md_text (out, nb_table_title (t));
      g_string_append (out, "\n\n");
    }
  g_string_append (out, "|");
  for (guint c = 0; c < n_cols; c++)
    {
      const NbColumn *col = nb_table_column (t, c);

      g_string_append_c (out, ' ');
      md_text (out, col->heading);
      if (col->unit)
        {
          g_string_append (out, ", ");
          md_text (out, col->unit);
        }
      g_string_append (out, " |");
    }
  g_string_append (out, "\n|");
  for (guint c = 0; c < n_cols; c++)
    {
      gboolean numeric = FALSE;

      for (guint r = 0; r < nb_table_n_rows (t); r++)
        numeric = numeric || nb_table_cell (t, r, c)->kind == NB_CELL_NUMBER;
      g_string_append (out, numeric ? " ---: |" : " --- |");
    }
  g_string_append_c (out, '\n');
  for (guint r = 0; r < nb_table_n_rows (t); r++)
    {
      g_string_append (out, "|");
      for (guint c = 0; c < n_cols; c++)
        {
          g_autofree char *v = nb_table_format_cell (t, r, c);
          gboolean flagged = nb_table_cell (t, r, c)->flagged;

          g_string_append (out, flagged ? " **⚠ " : " ");
          md_text (out, v);
          g_string_append (out, flagged ? "** |" : " |");
        }
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < nb_table_n_notes (t); i++)
    {
      g_string_append (out, i == 0 ? "\n" : "");
      md_text (out, nb_table_note (t, i));
      g_string_append (out, "\n");
    }
  return g_string_free (out, FALSE);
}

/* --------------------------------------------------------------- JSON -- */

void
nb_table_to_json (const NbTable *t, NbJsonWriter *w)
{
  guint n_cols = nb_table_n_columns (t);

  nb_json_begin_object (w);
  nb_json_key (w, "title");
  nb_json_string (w, nb_table_title (t));
  nb_json_key (w, "columns");
  nb_json_begin_array (w);
  for (guint c = 0; c < n_cols; c++)
    {
      const NbColumn *col = nb_table_column (t, c);

      nb_json_begin_object (w);
      nb_json_key (w, "key"); nb_json_string (w, col->key);
      nb_json_key (w, "heading"); nb_json_string (w, col->heading);
      nb_json_key (w, "unit"); nb_json_string (w, col->unit);
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
  nb_json_key (w, "rows");
  nb_json_begin_array (w);
  for (guint r = 0; r < nb_table_n_rows (t); r++)
    {
      nb_json_begin_object (w);
      for (guint c = 0; c < n_cols; c++)
        {
          const NbCell *cell = nb_table_cell (t, r, c);

          nb_json_key (w, nb_table_column (t, c)->key);
          switch (cell->kind)
            {
            case NB_CELL_TEXT: nb_json_string (w, cell->text); break;
            case NB_CELL_NUMBER: nb_json_double (w, cell->number); break;
            case NB_CELL_BOOL: nb_json_bool (w, cell->flag); break;
            case NB_CELL_EMPTY: default: nb_json_null (w); break;
            }
        }
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
  nb_json_key (w, "flagged");
  nb_json_begin_array (w);
  for (guint r = 0; r < nb_table_n_rows (t); r++)
    for (guint c = 0; c < n_cols; c++)
      if (nb_table_cell (t, r, c)->flagged)
        {
          nb_json_begin_array (w);
          nb_json_int (w, r);
          nb_json_int (w, c);
          nb_json_end_array (w);
        }
  nb_json_end_array (w);
  nb_json_key (w, "notes");
  nb_json_begin_array (w);
  for (guint i = 0; i < nb_table_n_notes (t); i++)
    nb_json_string (w, nb_table_note (t, i));
  nb_json_end_array (w);
  nb_json_end_object (w);
}
