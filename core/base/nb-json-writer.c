#include "nb-json-writer.h"

#include "nb-number.h"

#include <math.h>
#include <stdio.h>

typedef struct {
  gboolean is_array;
  guint count;
  gboolean inline_values;               /* an array of plain values: one line */
} Frame;

struct _NbJsonWriter {
  GString *out;
  GArray *stack;                        /* of Frame */
  gboolean after_key;
};

NbJsonWriter *
nb_json_writer_new (void)
{
  NbJsonWriter *w = g_new0 (NbJsonWriter, 1);

  w->out = g_string_sized_new (1024);
  w->stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  return w;
}

void
nb_json_writer_free (NbJsonWriter *w)
{
  if (w == NULL)
    return;
  g_string_free (w->out, TRUE);
  g_array_unref (w->stack);
  g_free (w);
}

char *
nb_json_writer_finish (NbJsonWriter *w)
{
  char *text;

  g_warn_if_fail (w->stack->len == 0);
  g_string_append_c (w->out, '\n');
  text = g_string_free (w->out, FALSE);
  w->out = NULL;
  g_array_unref (w->stack);
  g_free (w);
  return text;
}

static void
newline (NbJsonWriter *w)
{
  g_string_append_c (w->out, '\n');
  for (guint i = 0; i < w->stack->len; i++)
    g_string_append (w->out, "  ");
}

/* Separator and indentation before a value (or a key). */
static void
before_value (NbJsonWriter *w, gboolean is_container)
{
  Frame *f;

  if (w->after_key)
    {
      w->after_key = FALSE;
      return;
    }
  if (w->stack->len == 0)
    return;
  f = &g_array_index (w->stack, Frame, w->stack->len - 1);
  if (f->count == 0 && f->is_array)
    f->inline_values = !is_container;
  if (f->count > 0)
    g_string_append_c (w->out, ',');
  if (f->is_array && f->inline_values)
    {
      if (f->count > 0)
        g_string_append_c (w->out, ' ');
    }
  else
    newline (w);
  f->count++;
}

static void
begin (NbJsonWriter *w, gboolean is_array)
{
  Frame f = { is_array, 0, FALSE };

  before_value (w, TRUE);
  g_string_append_c (w->out, is_array ? '[' : '{');
  g_array_append_val (w->stack, f);
}

static void
end (NbJsonWriter *w, gboolean is_array)
{
  Frame f;

  g_return_if_fail (w->stack->len > 0);
  f = g_array_index (w->stack, Frame, w->stack->len - 1);
  g_return_if_fail (f.is_array == is_array);
  g_array_set_size (w->stack, w->stack->len - 1);
  if (f.count > 0 && !(f.is_array && f.inline_values))
    newline (w);
  g_string_append_c (w->out, is_array ? ']' : '}');
}

void nb_json_begin_object (NbJsonWriter *w) { begin (w, FALSE); }
void nb_json_end_object (NbJsonWriter *w) { end (w, FALSE); }
void nb_json_begin_array (NbJsonWriter *w) { begin (w, TRUE); }
void nb_json_end_array (NbJsonWriter *w) { end (w, TRUE); }

static void
append_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    switch (*p)
      {
      case '"': g_string_append (out, "\\\""); break;
      case '\\': g_string_append (out, "\\\\"); break;
      case '\n': g_string_append (out, "\\n"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '\t': g_string_append (out, "\\t"); break;
      default:
        if (*p < 0x20)
          g_string_append_printf (out, "\\u%04x", *p);
        else
          g_string_append_c (out, (char) *p);   /* UTF-8 passes byte for byte */
      }
  g_string_append_c (out, '"');
}

void
nb_json_key (NbJsonWriter *w, const char *key)
{
  before_value (w, FALSE);
  append_string (w->out, key);
  g_string_append (w->out, ": ");
  w->after_key = TRUE;
}

void
nb_json_string (NbJsonWriter *w, const char *value)
{
  before_value (w, FALSE);
  if (value == NULL)
    g_string_append (w->out, "null");
  else if (g_utf8_validate (value, -1, NULL))
    append_string (w->out, value);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (value, -1);

      append_string (w->out, valid);
    }
}

const char *
nb_json_format_double (char *buf, gsize size, double value)
{
  char b[NB_DOUBLE_BUF_SIZE];

  /* The shortest decimal that reads back to the same double, in %g's form
   * (locale-free: always a '.'). */
  nb_format_double (b, value);
  g_strlcpy (buf, b, size);
  return buf;
}

void
nb_json_double (NbJsonWriter *w, double value)
{
  char buf[40];

  if (!isfinite (value))
    {
      nb_json_null (w);
      return;
    }
  before_value (w, FALSE);
  g_string_append (w->out, nb_json_format_double (buf, sizeof buf, value == 0.0 ? 0.0 : value));
}

void
nb_json_int (NbJsonWriter *w, gint64 value)
{
  before_value (w, FALSE);
  g_string_append_printf (w->out, "%" G_GINT64_FORMAT, value);
}

void
nb_json_bool (NbJsonWriter *w, gboolean value)
{
  before_value (w, FALSE);
  g_string_append (w->out, value ? "true" : "false");
}

void
nb_json_raw (NbJsonWriter *w, const char *json)
{
  before_value (w, TRUE);
  /* Its lines indented to where it goes, as if written here. */
  for (const char *p = json; *p != '\0'; p++)
    {
      if (*p != '\n')
        {
          g_string_append_c (w->out, *p);
          continue;
        }
      if (p[1] == '\0')
        break;
      newline (w);
    }
}

void
nb_json_null (NbJsonWriter *w)
{
  before_value (w, FALSE);
  g_string_append (w->out, "null");
}
