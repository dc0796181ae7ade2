/* nb-csv-reader.h — streaming reader of measurement tables (CSV)
 *
 * RFC 4180 fields (quotes, "" escapes, newlines inside quotes, CRLF), a
 * required header row, whole lines starting with '#' as comments (captures
 * carry "# Name:" headers), blank lines skipped.  Columns are found by name in
 * any order; other columns are ignored.  Memory is one block buffer however
 * long the file: the record is handed out in place, valid until the next call.
 *
 * Every error names the file and the physical line the record starts on:
 * "F.csv:12: column 'x_mm': 'abc' is not a finite number".
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _NbCsvReader NbCsvReader;

typedef struct {
  const char *name;      /* header name, matched ignoring ASCII case and spaces */
  gboolean required;
  int index;             /* set by nb_csv_reader_read_header(); −1 when absent */
} NbCsvColumn;

/* path "-" reads standard input. */
NbCsvReader *nb_csv_reader_new_for_path (const char *path, GError **error);
/* Reads a copy of data[0..len); name is used in messages. */
NbCsvReader *nb_csv_reader_new_for_data (const char *name, const void *data, gsize len);
void         nb_csv_reader_free         (NbCsvReader *reader);

gboolean     nb_csv_reader_read_header  (NbCsvReader *reader, NbCsvColumn *columns,
                                         guint n_columns, GError **error);
/* 1: a record is ready; 0: end of the file; −1: error set. */
int          nb_csv_reader_next         (NbCsvReader *reader, GError **error);

const char  *nb_csv_reader_name         (const NbCsvReader *reader);
/* The physical line the current record starts on (1-based). */
guint64      nb_csv_reader_line         (const NbCsvReader *reader);
/* Bytes consumed so far (for throughput figures). */
guint64      nb_csv_reader_bytes        (const NbCsvReader *reader);

/* The raw field of a column, NUL-terminated; "" for an absent optional column. */
const char  *nb_csv_reader_field        (const NbCsvReader *reader, const NbCsvColumn *column,
                                         gsize *len);
gboolean     nb_csv_reader_get_double   (NbCsvReader *reader, const NbCsvColumn *column,
                                         double *out, GError **error);
/* nb_csv_reader_get_double of columns[0..n) into out[0..n), in that order,
 * in one call (the hot path of a table of numbers); stops at the first that
 * fails, with its error. */
gboolean     nb_csv_reader_get_doubles  (NbCsvReader *reader, const NbCsvColumn *columns,
                                         guint n, double *out, GError **error);
/* An empty field leaves *present FALSE; anything else must be a finite number. */
gboolean     nb_csv_reader_get_double_or_empty (NbCsvReader *reader, const NbCsvColumn *column,
                                                double *out, gboolean *present, GError **error);
gboolean     nb_csv_reader_get_uint     (NbCsvReader *reader, const NbCsvColumn *column,
                                         guint *out, GError **error);
/* "0" or "1". */
gboolean     nb_csv_reader_get_flag     (NbCsvReader *reader, const NbCsvColumn *column,
                                         gboolean *out, GError **error);
/* Non-empty, valid UTF-8, trimmed of surrounding spaces (in place). */
const char  *nb_csv_reader_get_text     (NbCsvReader *reader, const NbCsvColumn *column,
                                         GError **error);

/* Sets an NB_ERROR_INPUT error prefixed with "NAME:LINE: ". */
void         nb_csv_reader_set_error    (const NbCsvReader *reader, GError **error,
                                         const char *format, ...) G_GNUC_PRINTF (3, 4);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbCsvReader, nb_csv_reader_free)

G_END_DECLS
