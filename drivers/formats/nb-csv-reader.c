#include "nb-csv-reader.h"

#include "nb-error.h"
#include "nb-number.h"
#include "nb-number-inline.h"
#include "nb-swar.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK_SIZE (1u << 20)           /* one read(2) */
#define MAX_RECORD (64u << 20)          /* a longer record is not a measurement table */
/* Bytes allocated past the buffer's capacity: a word of eight may be
 * loaded at any byte before its end (what lies beyond is masked off). */
#define SLACK 8

/* A field of the current record: where its text lies from the record's
 * start, and its number when split_numbers parsed it (NaN when not: a
 * parsed number is finite).  16 bytes, two stores per field; one array of
 * these, not one per member.  The text's NUL is written when the text is
 * asked for (field_text): a table read for its numbers never writes the
 * buffer. */
typedef struct {
  guint32 off, len;                     /* a record is shorter than MAX_RECORD */
  double value;
} Field;

struct _NbCsvReader {
  char *name;
  int fd;                               /* −1: reading from data */
  const char *data;                     /* the in-memory source */
  gsize data_len, data_pos;

  char *buf;                            /* unread bytes are buf[start, end) */
  gsize cap, start, end;
  gboolean eof;
  gboolean started;                     /* past the file's first bytes (BOM) */
  guint64 dropped;                      /* bytes before buf[0]: consumed = dropped + start */

  guint64 next_line;                    /* the physical line buf[start] is on */
  guint64 record_line;
  guint n_header;                       /* fields per record, from the header */

  char *rec;                            /* the current record's first byte, in buf */
  Field *field;                         /* its fields */
  guint n_fields, fields_cap;
};

static NbCsvReader *
reader_new (const char *name, gsize block)
{
  NbCsvReader *r = g_new0 (NbCsvReader, 1);

  r->name = g_strdup (name);
  r->fd = -1;
  r->cap = block + 1;                   /* + 1: room for the last field's NUL */
  r->buf = g_malloc (r->cap + SLACK);
  /* Never NULL: the split's end pointer is r->field + r->fields_cap, and
   * an offset from NULL is undefined (UBSan in fuzz-csv). */
  r->fields_cap = 16;
  r->field = g_new (Field, r->fields_cap);
  r->next_line = 1;
  return r;
}

NbCsvReader *
nb_csv_reader_new_for_path (const char *path, GError **error)
{
  NbCsvReader *r;
  int fd;

  if (g_strcmp0 (path, "-") == 0)
    fd = STDIN_FILENO;
  else
    {
      do
        fd = open (path, O_RDONLY | O_CLOEXEC);
      while (fd < 0 && errno == EINTR);
      if (fd < 0)
        {
          int saved = errno;

          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", path, g_strerror (saved));
          return NULL;
        }
    }
  {
    /* A small file gets a small buffer: tests and fuzzers open thousands. */
    struct stat st;
    gsize block = BLOCK_SIZE;

    if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode))
      block = (gsize) CLAMP (st.st_size, 64, BLOCK_SIZE);
    r = reader_new (g_strcmp0 (path, "-") == 0 ? "<stdin>" : path, block);
  }
  r->fd = fd;
  return r;
}

NbCsvReader *
nb_csv_reader_new_for_data (const char *name, const void *data, gsize len)
{
  /* Small data gets a small buffer (it still grows for a long record). */
  NbCsvReader *r = reader_new (name, CLAMP (len, 64, BLOCK_SIZE));

  r->data = data;
  r->data_len = len;
  return r;
}

void
nb_csv_reader_free (NbCsvReader *r)
{
  if (r == NULL)
    return;
  if (r->fd > STDIN_FILENO)
    close (r->fd);
  g_free (r->name);
  g_free (r->buf);
  g_free (r->field);
  g_free (r);
}

const char *
nb_csv_reader_name (const NbCsvReader *r)
{
  return r->name;
}

guint64
nb_csv_reader_line (const NbCsvReader *r)
{
  return r->record_line;
}

guint64
nb_csv_reader_bytes (const NbCsvReader *r)
{
  return r->dropped + r->start;
}

void
nb_csv_reader_set_error (const NbCsvReader *r, GError **error, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%" G_GUINT64_FORMAT ": %s", r->name,
               r->record_line, message);
}

/* Makes room and reads more; FALSE with error set on a read failure or a
 * record too long to be a table row. */
static gboolean
refill (NbCsvReader *r, GError **error)
{
  gsize room;

  if (r->start > 0)
    {
      memmove (r->buf, r->buf + r->start, r->end - r->start);
      r->dropped += r->start;
      r->end -= r->start;
      r->start = 0;
    }
  if (r->end + 1 >= r->cap)
    {
      if (r->cap > MAX_RECORD)
        {
          r->record_line = r->next_line;
          nb_csv_reader_set_error (r, error, "a record longer than %u MiB: is this a CSV file?",
                                   MAX_RECORD >> 20);
          return FALSE;
        }
      r->cap = 2 * (r->cap - 1) + 1;
      r->buf = g_realloc (r->buf, r->cap + SLACK);
    }
  room = r->cap - 1 - r->end;

  if (r->fd < 0)
    {
      gsize n = MIN (room, r->data_len - r->data_pos);

      memcpy (r->buf + r->end, r->data + r->data_pos, n);
      r->data_pos += n;
      r->end += n;
      r->eof = n == 0;
      return TRUE;
    }
  for (;;)
    {
      gssize n = read (r->fd, r->buf + r->end, room);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", r->name, g_strerror (saved));
          return FALSE;
        }
      r->end += (gsize) n;
      r->eof = n == 0;
      return TRUE;
    }
}

static G_GNUC_NO_INLINE void
grow_fields (NbCsvReader *r)
{
  r->fields_cap = MAX (16, 2 * r->fields_cap);
  r->field = g_renew (Field, r->field, r->fields_cap);
}

static inline void
push_field (NbCsvReader *r, char *start, gsize len)
{
  if (G_UNLIKELY (r->n_fields == r->fields_cap))
    grow_fields (r);
  r->field[r->n_fields++] = (Field) { (guint32) (start - r->rec), (guint32) len, NAN };
}

/* The common record, no quote in it: one pass from p, a word of eight
 * bytes at a time (nb-swar.h), cuts the fields at the commas and stops at
 * the line feed.  The buffer is not written (a record cut by the buffer's
 * end is scanned again after a refill): the fields are noted, and
 * field_text() puts a NUL when asked.  Returns the end of the record's
 * text (its line feed; limit at the end of the file), or NULL when the
 * buffer ends first or the record has a quote (*quoted). */
static G_GNUC_NO_INLINE char *
split_plain (NbCsvReader *r, char *p, char *limit, gboolean at_eof, gboolean *quoted)
{
  char *field = p;

  *quoted = FALSE;
  for (char *q = p; q < limit; q += 8)
    {
      guint64 w = nb_swar_load8 (q);
      guint64 m = nb_swar_equal (w, ',') | nb_swar_equal (w, '\n') | nb_swar_equal (w, '"');

      if (limit - q < 8)
        m &= G_MAXUINT64 >> (64 - 8 * (limit - q));
      for (; m != 0; m &= m - 1)
        {
          char *at = q + nb_swar_first (m);

          if (*at == ',')
            {
              push_field (r, field, (gsize) (at - field));
              field = at + 1;
              continue;
            }
          if (*at == '"')
            {
              *quoted = TRUE;
              return NULL;
            }
          push_field (r, field, (gsize) (at - field - (at > field && at[-1] == '\r')));
          return at;
        }
    }
  if (!at_eof)
    return NULL;
  push_field (r, field, (gsize) (limit - field - (limit > field && limit[-1] == '\r')));
  return limit;
}

/* A table of measurements is numbers: split_numbers parses each field as a
 * number where it starts and takes the byte after it as the separator,
 * one pass instead of a scan for the commas and then a parse of each field
 * (the parse finds the field's end anyway).  The first field that is not a
 * bare number followed by ',' or the line's end (text, spaces, a quote, a
 * record cut by the buffer's end) hands the rest of the record to
 * split_plain.  A field's number is what get_double would parse from its
 * text (the same call on the same bytes: a separator or a NUL after it
 * both end a number). */
static inline char *
split_numbers (NbCsvReader *r, char *p, char *limit, gboolean at_eof, gboolean *quoted)
{
  /* The record's fields in locals: with -fno-strict-aliasing every store
   * into the array would otherwise reload r's members. */
  Field *f = r->field, *at = f, *f_end = f + r->fields_cap;
  const char *rec = p;

  for (;;)
    {
      const char *q;
      double v;

      /* (a number is taken only with a byte after it: q < limit) */
      if ((q = nb_parse_double_field_inline (p, limit, &v)) != NULL)
        {
          if (G_UNLIKELY (at == f_end))
            {
              r->n_fields = (guint) (at - f);
              grow_fields (r);
              at = r->field + (at - f), f = r->field, f_end = f + r->fields_cap;
            }
          if (*q == ',')
            {
              *at++ = (Field) { (guint32) (p - rec), (guint32) (q - p), v };
              p = (char *) q + 1;
              continue;
            }
          if (*q == '\n' || (*q == '\r' && q + 1 < limit && q[1] == '\n'))
            {
              *at++ = (Field) { (guint32) (p - rec), (guint32) (q - p), v };
              r->n_fields = (guint) (at - f);
              return (char *) q + (*q == '\r');
            }
        }
      r->n_fields = (guint) (at - f);
      return split_plain (r, p, limit, at_eof, quoted);
    }
}

/* A field's text, NUL-terminated: the byte after it is its separator (a
 * comma, the line's CR or LF, a quote's end) or the buffer's spare byte,
 * which the record no longer needs once it is split. */
static inline char *
field_text (const NbCsvReader *r, guint i)
{
  char *text = r->rec + r->field[i].off;

  text[r->field[i].len] = '\0';
  return text;
}

/*
 * A record with quotes.  First find where it ends without touching the bytes
 * (it may continue beyond the buffer and be scanned again after a refill);
 * returns the offset just past its newline, 0 if more input is needed, or
 * (gsize) −1 for a quote that never closes before the end of the file.
 */
static gsize
scan_quoted (const char *p, const char *end, gboolean eof, guint64 *newlines)
{
  /* Only a quote at the start of a field opens a quoted field; split_quoted()
   * reports quotes anywhere else. */
  enum { FIELD_START, UNQUOTED, QUOTED, QUOTE_IN_QUOTED } state = FIELD_START;
  guint64 lines = 0;

  for (const char *q = p; q < end; q++)
    {
      char c = *q;

      if (state == QUOTED)
        {
          if (c == '"')
            state = QUOTE_IN_QUOTED;
          else if (c == '\n')
            lines++;
          continue;
        }
      if (c == '\n')
        {
          *newlines = lines;
          return (gsize) (q + 1 - p);
        }
      if (c == ',')
        state = FIELD_START;
      else if (c == '"' && (state == FIELD_START || state == QUOTE_IN_QUOTED))
        state = QUOTED;               /* an opening quote, or "" inside quotes */
      else
        state = UNQUOTED;
    }
  if (!eof)
    return 0;
  if (state == QUOTED)
    return (gsize) -1;
  *newlines = lines;
  return (gsize) (end - p);
}

/* Splits a complete quoted record [p, eol) in place, unescaping "" → ". */
static gboolean
split_quoted (NbCsvReader *r, char *p, char *eol, GError **error)
{
  if (eol > p && eol[-1] == '\r')
    eol--;
  for (;;)
    {
      char *out = p, *q = p;

      if (q < eol && *q == '"')
        {
          /* A quoted field: up to the lone closing quote. */
          for (q++;; q++)
            {
              if (q >= eol)
                {
                  nb_csv_reader_set_error (r, error, "unterminated quoted field");
                  return FALSE;
                }
              if (*q == '"')
                {
                  if (q + 1 < eol && q[1] == '"')
                    {
                      *out++ = '"';
                      q++;
                      continue;
                    }
                  q++;
                  break;
                }
              *out++ = *q;
            }
          if (q < eol && *q != ',')
            {
              nb_csv_reader_set_error (r, error,
                                       "field %u: text after a closing quote", r->n_fields + 1);
              return FALSE;
            }
        }
      else
        {
          for (; q < eol && *q != ','; q++)
            if (*q == '"')
              {
                nb_csv_reader_set_error (r, error,
                                         "field %u: a quote inside an unquoted field",
                                         r->n_fields + 1);
                return FALSE;
              }
          out = q;
        }
      push_field (r, p, (gsize) (out - p));
      if (q >= eol)
        return TRUE;
      p = q + 1;                        /* past the comma */
    }
}

/* The file's first bytes: three at least (or all there is), and a UTF-8
 * byte order mark, as spreadsheets write, skipped.  0: go on; −1: error. */
static G_GNUC_NO_INLINE int
start_file (NbCsvReader *r, GError **error)
{
  while (r->end - r->start < 3 && !r->eof)
    if (!refill (r, error))
      return -1;
  if (r->end - r->start >= 3 && memcmp (r->buf + r->start, "\xEF\xBB\xBF", 3) == 0)
    r->start += 3;
  r->started = TRUE;
  return 0;
}

/* Reads the next record into r->field; skips comments and blank lines. */
static int
read_record (NbCsvReader *r, GError **error)
{
  if (G_UNLIKELY (!r->started) && start_file (r, error) < 0)
    return -1;
  for (;;)
    {
      char *p = r->buf + r->start, *limit = r->buf + r->end, *eol, *next;
      gboolean quoted;

      if (G_UNLIKELY (p == limit))
        {
          if (r->eof)
            return 0;
          if (!refill (r, error))
            return -1;
          continue;
        }

      r->record_line = r->next_line;
      /* (one comparison for the usual record: '\n', '\r' and '#' are below
       * every byte a number starts with) */
      if (G_UNLIKELY ((guchar) p[0] <= '#') && (p[0] == '#' || p[0] == '\n' || p[0] == '\r'))
        {
          /* A comment or a blank line (or a record that starts with CR). */
          char *nl = memchr (p, '\n', (gsize) (limit - p));

          if (nl == NULL && !r->eof)
            {
              if (!refill (r, error))
                return -1;
              continue;
            }
          eol = nl != NULL ? nl : limit;
          if (p[0] == '#' || eol == p || (eol == p + 1 && p[0] == '\r'))
            {
              next = nl != NULL ? nl + 1 : eol;
              r->next_line++;
              r->start = (gsize) (next - r->buf);
              continue;
            }
        }

      r->rec = p;
      eol = split_numbers (r, p, limit, r->eof, &quoted);
      if (G_LIKELY (eol != NULL))
        next = eol < limit ? eol + 1 : eol;
      else if (!quoted)
        {
          if (!refill (r, error))
            return -1;
          continue;
        }
      else
        {
          guint64 newlines = 0;
          gsize len = scan_quoted (p, limit, r->eof, &newlines);

          r->n_fields = 0;
          if (len == 0)
            {
              if (!refill (r, error))
                return -1;
              continue;
            }
          if (len == (gsize) -1)
            {
              nb_csv_reader_set_error (r, error, "a quoted field is never closed");
              return -1;
            }
          next = p + len;
          eol = next > p && next[-1] == '\n' ? next - 1 : next;
          if (!split_quoted (r, p, eol, error))
            return -1;
          r->next_line += newlines;
        }
      r->next_line++;
      r->start = (gsize) (next - r->buf);
      return 1;
    }
}

/* Trims a NUL-terminated field in place. */
static void
trim_field (char **s, gsize *len)
{
  while (*len > 0 && ((*s)[0] == ' ' || (*s)[0] == '\t'))
    (*s)++, (*len)--;
  while (*len > 0 && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
    (*s)[--(*len)] = '\0';
}

static void
trim_record_field (NbCsvReader *r, guint i)
{
  char *s = field_text (r, i);
  gsize len = r->field[i].len;

  trim_field (&s, &len);
  r->field[i].off = (guint32) (s - r->rec);
  r->field[i].len = (guint32) len;
}

gboolean
nb_csv_reader_read_header (NbCsvReader *r, NbCsvColumn *columns, guint n_columns,
                           GError **error)
{
  int rc = read_record (r, error);

  if (rc < 0)
    return FALSE;
  if (rc == 0)
    {
      r->record_line = r->next_line > 1 ? r->next_line - 1 : 1;
      nb_csv_reader_set_error (r, error, "the file is empty: a header row is required");
      return FALSE;
    }
  r->n_header = r->n_fields;
  for (guint f = 0; f < r->n_fields; f++)
    trim_record_field (r, f);

  for (guint c = 0; c < n_columns; c++)
    {
      columns[c].index = -1;
      for (guint f = 0; f < r->n_fields; f++)
        {
          if (r->field[f].len != strlen (columns[c].name) ||
              g_ascii_strncasecmp (r->rec + r->field[f].off, columns[c].name,
                                   r->field[f].len) != 0)
            continue;
          if (columns[c].index >= 0)
            {
              nb_csv_reader_set_error (r, error, "column '%s' appears twice in the header",
                                       columns[c].name);
              return FALSE;
            }
          columns[c].index = (int) f;
        }
      if (columns[c].required && columns[c].index < 0)
        {
          nb_csv_reader_set_error (r, error, "missing column '%s' in the header",
                                   columns[c].name);
          return FALSE;
        }
    }
  return TRUE;
}

int
nb_csv_reader_next (NbCsvReader *r, GError **error)
{
  int rc = read_record (r, error);

  if (rc > 0 && r->n_fields != r->n_header)
    {
      nb_csv_reader_set_error (r, error, "%u fields where the header has %u", r->n_fields,
                               r->n_header);
      return -1;
    }
  return rc;
}

const char *
nb_csv_reader_field (const NbCsvReader *r, const NbCsvColumn *column, gsize *len)
{
  if (column->index < 0 || (guint) column->index >= r->n_fields)
    {
      if (len)
        *len = 0;
      return "";
    }
  if (len)
    *len = r->field[column->index].len;
  return field_text (r, (guint) column->index);
}

/* A short, printable quote of a bad value for a message. */
static char *
quote_value (const char *s, gsize len)
{
  g_autofree char *valid = g_utf8_make_valid (s, (gssize) MIN (len, 40));
  g_autofree char *escaped = g_strescape (valid, "\xC2\xA0");

  return g_strdup_printf ("'%s%s'", escaped, len > 40 ? "…" : "");
}

/* The field's number, parsed where it lies: the field ends in a NUL inside
 * the buffer, so the parser may look at whole words up to the buffer's end
 * (and stops at the NUL at the latest); only spaces may follow it. */
static gboolean
field_double (const NbCsvReader *r, const char *s, gsize len, double *out)
{
  const char *end = s + len, *q;

  while (s < end && (*s == ' ' || *s == '\t'))
    s++;
  if (s == end || (q = nb_parse_double_prefix (s, r->buf + r->end, out)) == NULL || q > end)
    return FALSE;
  while (q < end && (*q == ' ' || *q == '\t'))
    q++;
  return q == end;
}

/* The number split_numbers parsed in the column's field, if it did. */
static inline gboolean
parsed_value (const NbCsvReader *r, const NbCsvColumn *column, double *out)
{
  /* (an absent column's index, −1, is beyond every record as unsigned) */
  if ((guint) column->index >= r->n_fields || isnan (r->field[column->index].value))
    return FALSE;
  *out = r->field[column->index].value;
  return TRUE;
}

/* get_double_or_empty when the split did not parse the field (out of
 * line, as get_double_from_text). */
static G_GNUC_NO_INLINE gboolean
get_double_or_empty_from_text (NbCsvReader *r, const NbCsvColumn *column, double *out,
                               gboolean *present, GError **error)
{
  gsize len;
  const char *s;
  gsize i = 0;

  s = nb_csv_reader_field (r, column, &len);
  while (i < len && (s[i] == ' ' || s[i] == '\t'))
    i++;
  if (i == len)
    {
      *present = FALSE;
      return TRUE;
    }
  if (!field_double (r, s, len, out))
    {
      g_autofree char *q = quote_value (s, len);

      nb_csv_reader_set_error (r, error, "column '%s': %s is not a finite number", column->name,
                               q);
      return FALSE;
    }
  *present = TRUE;
  return TRUE;
}

gboolean
nb_csv_reader_get_double_or_empty (NbCsvReader *r, const NbCsvColumn *column, double *out,
                                   gboolean *present, GError **error)
{
  if (G_LIKELY (parsed_value (r, column, out)))
    {
      *present = TRUE;
      return TRUE;
    }
  return get_double_or_empty_from_text (r, column, out, present, error);
}

/* get_double when the split did not parse the field: out of line, so the
 * hot path is a lookup without a stack frame. */
static G_GNUC_NO_INLINE gboolean
get_double_from_text (NbCsvReader *r, const NbCsvColumn *column, double *out, GError **error)
{
  gsize len;
  const char *s = nb_csv_reader_field (r, column, &len);

  if (G_LIKELY (field_double (r, s, len, out)))
    return TRUE;
  if (len == 0 || strspn (s, " \t") == len)
    nb_csv_reader_set_error (r, error, "column '%s' is empty", column->name);
  else
    {
      g_autofree char *q = quote_value (s, len);

      nb_csv_reader_set_error (r, error, "column '%s': %s is not a finite number", column->name,
                               q);
    }
  return FALSE;
}

gboolean
nb_csv_reader_get_double (NbCsvReader *r, const NbCsvColumn *column, double *out,
                          GError **error)
{
  /* The hot path of every table: parsed while splitting (split_numbers),
   * else parse the text, explain only on failure. */
  if (G_LIKELY (parsed_value (r, column, out)))
    return TRUE;
  return get_double_from_text (r, column, out, error);
}

/* get_doubles from column c on, with the text path for the fields the
 * split did not parse. */
static G_GNUC_NO_INLINE gboolean
get_doubles_from (NbCsvReader *r, const NbCsvColumn *columns, guint c, guint n, double *out,
                  GError **error)
{
  for (; c < n; c++)
    if (!parsed_value (r, &columns[c], &out[c]) &&
        !get_double_from_text (r, &columns[c], &out[c], error))
      return FALSE;
  return TRUE;
}

gboolean
nb_csv_reader_get_doubles (NbCsvReader *r, const NbCsvColumn *columns, guint n, double *out,
                           GError **error)
{
  /* Lookups only; anything else is a tail call (no registers to save). */
  for (guint c = 0; c < n; c++)
    {
      int i = columns[c].index;

      if (G_UNLIKELY ((guint) i >= r->n_fields || isnan (r->field[i].value)))
        return get_doubles_from (r, columns, c, n, out, error);
      out[c] = r->field[i].value;
    }
  return TRUE;
}

gboolean
nb_csv_reader_get_uint (NbCsvReader *r, const NbCsvColumn *column, guint *out, GError **error)
{
  gsize len;
  const char *s = nb_csv_reader_field (r, column, &len);

  if (nb_parse_uint (s, len, out))
    return TRUE;
  {
    g_autofree char *q = quote_value (s, len);

    nb_csv_reader_set_error (r, error, "column '%s': %s is not a whole number ≥ 0",
                             column->name, q);
  }
  return FALSE;
}

gboolean
nb_csv_reader_get_flag (NbCsvReader *r, const NbCsvColumn *column, gboolean *out,
                        GError **error)
{
  gsize len;
  const char *s = nb_csv_reader_field (r, column, &len);
  guint v;

  if (nb_parse_uint (s, len, &v) && v <= 1)
    {
      *out = v == 1;
      return TRUE;
    }
  {
    g_autofree char *q = quote_value (s, len);

    nb_csv_reader_set_error (r, error, "column '%s': %s is not 0 or 1", column->name, q);
  }
  return FALSE;
}

const char *
nb_csv_reader_get_text (NbCsvReader *r, const NbCsvColumn *column, GError **error)
{
  char *s;
  gsize len;

  if (column->index < 0 || (guint) column->index >= r->n_fields)
    {
      nb_csv_reader_set_error (r, error, "column '%s' is empty", column->name);
      return NULL;
    }
  s = field_text (r, (guint) column->index);
  len = r->field[column->index].len;
  trim_field (&s, &len);
  if (len == 0)
    {
      nb_csv_reader_set_error (r, error, "column '%s' is empty", column->name);
      return NULL;
    }
  if (memchr (s, '\0', len) != NULL || !g_utf8_validate (s, (gssize) len, NULL))
    {
      nb_csv_reader_set_error (r, error, "column '%s' is not UTF-8 text", column->name);
      return NULL;
    }
  return s;
}
