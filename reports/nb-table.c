#include "nb-table.h"

#include <math.h>
#include <string.h>

struct _NbTable {
  char *title;
  guint protocol_number;
  guint budget_clause;
  GArray *columns;     /* of NbColumn */
  GPtrArray *rows;     /* of NbCell[n_columns] */
  GPtrArray *notes;    /* of char* */
};

NbTable *
nb_table_new (const char *title)
{
  NbTable *t = g_new0 (NbTable, 1);

  t->title = g_strdup (title);
  t->columns = g_array_new (FALSE, TRUE, sizeof (NbColumn));
  t->rows = g_ptr_array_new ();
  t->notes = g_ptr_array_new_with_free_func (g_free);
  return t;
}

void
nb_table_free (NbTable *t)
{
  if (t == NULL)
    return;
  for (guint r = 0; r < t->rows->len; r++)
    {
      NbCell *cells = g_ptr_array_index (t->rows, r);

      for (guint c = 0; c < t->columns->len; c++)
        g_free (cells[c].text);
      g_free (cells);
    }
  for (guint c = 0; c < t->columns->len; c++)
    {
      NbColumn *col = &g_array_index (t->columns, NbColumn, c);

      g_free (col->key);
      g_free (col->heading);
      g_free (col->unit);
    }
  g_ptr_array_unref (t->rows);
  g_array_unref (t->columns);
  g_ptr_array_unref (t->notes);
  g_free (t->title);
  g_free (t);
}

void
nb_table_add_column (NbTable *t, const char *key, const char *heading, const char *unit,
                     int decimals)
{
  NbColumn col = { g_strdup (key), g_strdup (heading), g_strdup (unit), decimals };

  g_return_if_fail (t->rows->len == 0);
  g_array_append_val (t->columns, col);
}

void
nb_table_insert_column (NbTable *t, guint position, const char *key, const char *heading,
                        const char *unit, int decimals)
{
  NbColumn col = { g_strdup (key), g_strdup (heading), g_strdup (unit), decimals };
  guint n = t->columns->len;

  g_return_if_fail (position <= n);
  g_array_insert_val (t->columns, position, col);
  for (guint r = 0; r < t->rows->len; r++)
    {
      NbCell *old = g_ptr_array_index (t->rows, r);
      NbCell *cells = g_new0 (NbCell, n + 1);

      memcpy (cells, old, position * sizeof *cells);
      memcpy (cells + position + 1, old + position, (n - position) * sizeof *cells);
      g_free (old);
      t->rows->pdata[r] = cells;
    }
}

guint
nb_table_add_row (NbTable *t)
{
  g_ptr_array_add (t->rows, g_new0 (NbCell, MAX (t->columns->len, 1)));
  return t->rows->len - 1;
}

static NbCell *
cell_at (const NbTable *t, guint row, guint column)
{
  g_return_val_if_fail (row < t->rows->len && column < t->columns->len, NULL);
  return &((NbCell *) g_ptr_array_index (t->rows, row))[column];
}

void
nb_table_set_text (NbTable *t, guint row, guint column, const char *text)
{
  NbCell *cell = cell_at (t, row, column);

  g_return_if_fail (cell != NULL);
  g_free (cell->text);
  cell->text = g_strdup (text);
  cell->kind = text != NULL ? NB_CELL_TEXT : NB_CELL_EMPTY;
}

void
nb_table_set_number (NbTable *t, guint row, guint column, double value)
{
  NbCell *cell = cell_at (t, row, column);

  g_return_if_fail (cell != NULL);
  cell->number = value;
  cell->kind = isfinite (value) ? NB_CELL_NUMBER : NB_CELL_EMPTY;
}

void
nb_table_set_number_decimals (NbTable *t, guint row, guint column, double value, int decimals)
{
  NbCell *cell = cell_at (t, row, column);

  g_return_if_fail (cell != NULL);
  nb_table_set_number (t, row, column, value);
  cell->decimals = MAX (decimals, 0);
  cell->own_decimals = TRUE;
}

void
nb_table_set_bool (NbTable *t, guint row, guint column, gboolean value)
{
  NbCell *cell = cell_at (t, row, column);

  g_return_if_fail (cell != NULL);
  cell->flag = value;
  cell->kind = NB_CELL_BOOL;
}

void
nb_table_flag_cell (NbTable *t, guint row, guint column)
{
  NbCell *cell = cell_at (t, row, column);

  g_return_if_fail (cell != NULL);
  cell->flagged = TRUE;
}

void
nb_table_set_protocol_number (NbTable *t, guint number)
{
  t->protocol_number = number;
}

guint
nb_table_protocol_number (const NbTable *t)
{
  return t->protocol_number;
}

void
nb_table_set_budget_clause (NbTable *t, guint clause)
{
  t->budget_clause = clause;
}

guint
nb_table_budget_clause (const NbTable *t)
{
  return t->budget_clause;
}

void
nb_table_add_note (NbTable *t, const char *note)
{
  g_ptr_array_add (t->notes, g_strdup (note));
}

guint
nb_table_n_notes (const NbTable *t)
{
  return t->notes->len;
}

const char *
nb_table_note (const NbTable *t, guint i)
{
  g_return_val_if_fail (i < t->notes->len, NULL);
  return g_ptr_array_index (t->notes, i);
}

const char *nb_table_title (const NbTable *t) { return t->title; }
guint nb_table_n_columns (const NbTable *t) { return t->columns->len; }
guint nb_table_n_rows (const NbTable *t) { return t->rows->len; }

const NbColumn *
nb_table_column (const NbTable *t, guint column)
{
  g_return_val_if_fail (column < t->columns->len, NULL);
  return &g_array_index (t->columns, NbColumn, column);
}

const NbCell *
nb_table_cell (const NbTable *t, guint row, guint column)
{
  return cell_at (t, row, column);
}

char *
nb_table_format_cell (const NbTable *t, guint row, guint column)
{
  const NbCell *cell = cell_at (t, row, column);
  char buf[G_ASCII_DTOSTR_BUF_SIZE], format[16];

  g_return_val_if_fail (cell != NULL, NULL);
  switch (cell->kind)
    {
    case NB_CELL_TEXT:
      return g_strdup (cell->text);
    case NB_CELL_NUMBER:
      g_snprintf (format, sizeof format, "%%.%df",
                  cell->own_decimals ? cell->decimals : nb_table_column (t, column)->decimals);
      g_ascii_formatd (buf, sizeof buf, format, cell->number);
      /* "-0.00" says less than "0.00" about a value that rounds to zero. */
      if (buf[0] == '-' && strspn (buf + 1, "0.") == strlen (buf + 1))
        return g_strdup (buf + 1);
      return g_strdup (buf);
    case NB_CELL_BOOL:
      return g_strdup (cell->flag ? "yes" : "no");
    case NB_CELL_EMPTY:
    default:
      return g_strdup ("—");
    }
}

static void
pad (GString *out, const char *s, guint width, gboolean right)
{
  glong len = g_utf8_strlen (s, -1);

  if (right)
    for (glong i = len; i < (glong) width; i++)
      g_string_append_c (out, ' ');
  g_string_append (out, s);
  if (!right)
    for (glong i = len; i < (glong) width; i++)
      g_string_append_c (out, ' ');
}

char *
nb_table_to_text (const NbTable *t)
{
  guint n_cols = t->columns->len, n_rows = t->rows->len;
  g_autofree guint *width = g_new0 (guint, n_cols);
  /* Numbers align right, words left, as in a printed table. */
  g_autofree gboolean *numeric = g_new0 (gboolean, n_cols);
  g_autoptr (GPtrArray) headers = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);

  for (guint c = 0; c < n_cols; c++)
    {
      const NbColumn *col = nb_table_column (t, c);
      char *h = col->unit ? g_strdup_printf ("%s, %s", col->heading, col->unit)
                          : g_strdup (col->heading);

      g_ptr_array_add (headers, h);
      width[c] = (guint) g_utf8_strlen (h, -1);
    }
  for (guint r = 0; r < n_rows; r++)
      for (guint c = 0; c < n_cols; c++)
      {
        char *s = nb_table_format_cell (t, r, c);

        if (((NbCell *) g_ptr_array_index (t->rows, r))[c].flagged)
          {
            char *marked = g_strconcat (s, " !", NULL);

            g_free (s);
            s = marked;
          }

        g_ptr_array_add (cells, s);
        width[c] = MAX (width[c], (guint) g_utf8_strlen (s, -1));
        numeric[c] = numeric[c] ||
                     ((NbCell *) g_ptr_array_index (t->rows, r))[c].kind == NB_CELL_NUMBER;
      }

  if (t->title)
    g_string_append_printf (out, "%s\n\n", t->title);
  for (guint c = 0; c < n_cols; c++)
    {
      if (c > 0)
        g_string_append (out, "  ");
      pad (out, g_ptr_array_index (headers, c), width[c], numeric[c]);
    }
  g_string_append_c (out, '\n');
  for (guint c = 0; c < n_cols; c++)
    {
      if (c > 0)
        g_string_append (out, "  ");
      for (guint i = 0; i < width[c]; i++)
        g_string_append (out, "─");
    }
  g_string_append_c (out, '\n');
  for (guint r = 0; r < n_rows; r++)
    {
      for (guint c = 0; c < n_cols; c++)
        {
          if (c > 0)
            g_string_append (out, "  ");
          pad (out, g_ptr_array_index (cells, r * n_cols + c), width[c], numeric[c]);
        }
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < t->notes->len; i++)
    g_string_append_printf (out, "%s%s\n", i == 0 ? "\n" : "", (char *) g_ptr_array_index (t->notes, i));
  return g_string_free (out, FALSE);
}
