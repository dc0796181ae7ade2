/* nb-table.h — a protocol table as data
 *
 * The one model every output format renders: a title, columns with the
 * standard's headings and units, rows of typed cells.  Numbers keep their
 * full value; a column says how many decimals a person reads (mm to 0.01,
 * degrees to 0.001).  Renderers: plain text here; PDF, CSV, Markdown and
 * JSON in the report issue.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  NB_CELL_EMPTY,       /* undefined: printed as "—" */
  NB_CELL_TEXT,
  NB_CELL_NUMBER,
  NB_CELL_BOOL,        /* printed as yes/no */
} NbCellKind;

typedef struct {
  NbCellKind kind;
  char *text;
  double number;
  gboolean flag;
  gboolean flagged;    /* outside a clause-4 range, a failed or short series: shown visibly */
  int decimals;        /* with own_decimals: this number's decimals, not the column's */
  gboolean own_decimals;
} NbCell;

typedef struct {
  char *key;           /* machine name, e.g. "ap_mm" */
  char *heading;       /* "Ap" */
  char *unit;          /* "mm", or NULL */
  int decimals;        /* for NB_CELL_NUMBER */
} NbColumn;

typedef struct _NbTable NbTable;

NbTable    *nb_table_new        (const char *title);
void        nb_table_free       (NbTable *table);
void        nb_table_add_column (NbTable *table, const char *key, const char *heading,
                                 const char *unit, int decimals);
guint       nb_table_add_row    (NbTable *table);
void        nb_table_set_text   (NbTable *table, guint row, guint column, const char *text);
void        nb_table_set_number (NbTable *table, guint row, guint column, double value);
void        nb_table_set_bool   (NbTable *table, guint row, guint column, gboolean value);
/* A number read to its own decimals (an expanded uncertainty to two
 * significant digits, GUM 7.2.6: each row its own place). */
void        nb_table_set_number_decimals (NbTable *table, guint row, guint column, double value,
                                          int decimals);
/* A column inserted at position (0 … n_columns) after the rows exist: every
 * row gets an empty cell there (the U columns added next to the figures
 * once a clause's table is filled). */
void        nb_table_insert_column (NbTable *table, guint position, const char *key,
                                    const char *heading, const char *unit, int decimals);
void        nb_table_flag_cell  (NbTable *table, guint row, guint column);
/* Which table of the standard's protocol this is (1, 3–7); 0 for others. */
void        nb_table_set_protocol_number (NbTable *table, guint number);
guint       nb_table_protocol_number     (const NbTable *table);
/* An uncertainty table of clause N (its input quantities or one
 * configuration's budget, #17), exported with the clause's budgets; 0 for
 * others. */
void        nb_table_set_budget_clause   (NbTable *table, guint clause);
guint       nb_table_budget_clause       (const NbTable *table);
void        nb_table_add_note   (NbTable *table, const char *note);
guint       nb_table_n_notes    (const NbTable *table);
const char *nb_table_note       (const NbTable *table, guint i);

const char     *nb_table_title     (const NbTable *table);
guint           nb_table_n_columns (const NbTable *table);
guint           nb_table_n_rows    (const NbTable *table);
const NbColumn *nb_table_column    (const NbTable *table, guint column);
const NbCell   *nb_table_cell      (const NbTable *table, guint row, guint column);

/* A cell as a person reads it: the column's decimals, "—" for empty (a
 * flagged cell is marked only by the renderers). */
char       *nb_table_format_cell (const NbTable *table, guint row, guint column);
/* Title, aligned columns with "heading, unit" headers, notes below; a
 * flagged cell ends in " !". */
char       *nb_table_to_text    (const NbTable *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbTable, nb_table_free)

G_END_DECLS
