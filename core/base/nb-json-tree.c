#include "nb-json-tree.h"

#include "nb-error.h"

#include <string.h>


struct _NbJsonTree {
  GArray *values;                       /* of NbJsonValue; indices link them */
  char *strings;                        /* unescaped strings, NUL-separated */
  gsize strings_cap;
  gsize strings_len;
};

typedef struct {
  NbJsonTree *tree;
  const char *p, *end, *line_start;
  guint64 line;
  const char *error;                    /* static reason, or NULL */
  char error_buf[96];
} Parser;

NbJsonTree *
nb_json_tree_new (void)
{
  NbJsonTree *t = g_new0 (NbJsonTree, 1);

  t->values = g_array_sized_new (FALSE, FALSE, sizeof (NbJsonValue), 64);
  return t;
}

void
nb_json_tree_free (NbJsonTree *t)
{
  if (t == NULL)
    return;
  g_array_unref (t->values);
  g_free (t->strings);
  g_free (t);
}

const char *
nb_json_type_name (NbJsonType type)
{
  switch (type)
    {
    case NB_JSON_NULL: return "null";
    case NB_JSON_FALSE:
    case NB_JSON_TRUE: return "a boolean";
    case NB_JSON_NUMBER: return "a number";
    case NB_JSON_STRING: return "a string";
    case NB_JSON_ARRAY: return "an array";
    case NB_JSON_OBJECT: return "an object";
    default: return "?";
    }
}

const NbJsonValue *
nb_json_tree_root (const NbJsonTree *t)
{
  return t->values->len > 0 ? &g_array_index (t->values, NbJsonValue, 0) : NULL;
}

const NbJsonValue *
nb_json_tree_child (const NbJsonTree *t, const NbJsonValue *v)
{
  return v->child >= 0 ? &g_array_index (t->values, NbJsonValue, v->child) : NULL;
}

const NbJsonValue *
nb_json_tree_next (const NbJsonTree *t, const NbJsonValue *v)
{
  return v->next >= 0 ? &g_array_index (t->values, NbJsonValue, v->next) : NULL;
}

const NbJsonValue *
nb_json_tree_member (const NbJsonTree *t, const NbJsonValue *o, const char *key)
{
  if (o->type != NB_JSON_OBJECT)
    return NULL;
  for (const NbJsonValue *m = nb_json_tree_child (t, o); m != NULL; m = nb_json_tree_next (t, m))
    if (strcmp (m->key, key) == 0)
      return m;
  return NULL;
}

static void
skip_space (Parser *ps)
{
  while (ps->p < ps->end)
    {
      char c = *ps->p;

      if (c == '\n')
        {
          ps->line++;
          ps->line_start = ++ps->p;
        }
      else if (c == ' ' || c == '\t' || c == '\r')
        ps->p++;
      else
        break;
    }
}

static gboolean
fail (Parser *ps, const char *reason)
{
  if (ps->error == NULL)
    ps->error = reason;
  return FALSE;
}

static int
hex4 (const char *s)
{
  int v = 0;

  for (int i = 0; i < 4; i++)
    {
      char c = s[i];

      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= c - '0';
      else if (c >= 'a' && c <= 'f')
        v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        v |= c - 'A' + 10;
      else
        return -1;
    }
  return v;
}

/* Reads a string at ps->p (on the opening quote) into the string buffer. */
static const char *
parse_string (Parser *ps)
{
  NbJsonTree *t = ps->tree;
  char *out = t->strings + t->strings_len, *start = out;

  ps->p++;
  for (;;)
    {
      const char *run = ps->p;
      unsigned char c;

      /* the common case: a run of plain bytes */
      while (ps->p < ps->end && (c = (unsigned char) *ps->p) != '"' && c != '\\' && c >= 0x20)
        ps->p++;
      memcpy (out, run, (gsize) (ps->p - run));
      out += ps->p - run;
      if (ps->p >= ps->end)
        return fail (ps, "unterminated string"), NULL;
      c = (unsigned char) *ps->p;
      if (c == '"')
        {
          ps->p++;
          break;
        }
      if (c < 0x20)
        return fail (ps, c == '\n' ? "unterminated string (a line break inside)"
                                   : "a control character inside a string"), NULL;
      /* an escape */
      if (ps->end - ps->p < 2)
        return fail (ps, "unterminated string"), NULL;
      ps->p++;
      switch (*ps->p++)
        {
        case '"': *out++ = '"'; break;
        case '\\': *out++ = '\\'; break;
        case '/': *out++ = '/'; break;
        case 'b': *out++ = '\b'; break;
        case 'f': *out++ = '\f'; break;
        case 'n': *out++ = '\n'; break;
        case 'r': *out++ = '\r'; break;
        case 't': *out++ = '\t'; break;
        case 'u':
          {
            int u;
            gunichar ch;

            if (ps->end - ps->p < 4 || (u = hex4 (ps->p)) < 0)
              return fail (ps, "a \\u escape needs four hex digits"), NULL;
            ps->p += 4;
            ch = (gunichar) u;
            if (ch >= 0xD800 && ch <= 0xDBFF)
              {
                int lo;

                if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u' ||
                    (lo = hex4 (ps->p + 2)) < 0xDC00 || lo > 0xDFFF)
                  return fail (ps, "a lone UTF-16 surrogate in a \\u escape"), NULL;
                ps->p += 6;
                ch = 0x10000 + ((ch - 0xD800) << 10) + ((gunichar) lo - 0xDC00);
              }
            else if (ch >= 0xDC00 && ch <= 0xDFFF)
              return fail (ps, "a lone UTF-16 surrogate in a \\u escape"), NULL;
            if (ch == 0)
              return fail (ps, "\\u0000 inside a string"), NULL;
            /* at most 4 bytes from at least 6 escaped ones */
            out += g_unichar_to_utf8 (ch, out);
          }
          break;
        default:
          ps->p--;
          return fail (ps, "an invalid escape in a string"), NULL;
        }
    }
  *out++ = '\0';
  t->strings_len = (gsize) (out - t->strings);
  return start;
}

static gboolean
parse_number (Parser *ps)
{
  const char *p = ps->p, *e = ps->end;

  if (p < e && *p == '-')
    p++;
  if (p < e && *p == '0')
    p++;
  else if (p < e && *p >= '1' && *p <= '9')
    while (p < e && g_ascii_isdigit (*p))
      p++;
  else
    return fail (ps, "an invalid number");
  if (p < e && *p == '.')
    {
      if (++p >= e || !g_ascii_isdigit (*p))
        return fail (ps, "an invalid number");
      while (p < e && g_ascii_isdigit (*p))
        p++;
    }
  if (p < e && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < e && (*p == '+' || *p == '-'))
        p++;
      if (p >= e || !g_ascii_isdigit (*p))
        return fail (ps, "an invalid number");
      while (p < e && g_ascii_isdigit (*p))
        p++;
    }
  ps->p = p;
  return TRUE;
}

static gint32
new_value (Parser *ps, NbJsonType type, const char *key)
{
  NbJsonValue v = { type, 0, -1, -1, ps->line, key, NULL };

  g_array_append_val (ps->tree->values, v);
  return (gint32) ps->tree->values->len - 1;
}

#define VALUE(ps, i) (&g_array_index ((ps)->tree->values, NbJsonValue, (i)))

static gint32 parse_value (Parser *ps, const char *key, guint depth);

static gboolean
literal (Parser *ps, const char *word)
{
  gsize n = strlen (word);

  if ((gsize) (ps->end - ps->p) < n || memcmp (ps->p, word, n) != 0)
    return fail (ps, "an unexpected character");
  ps->p += n;
  return TRUE;
}

static gint32
parse_container (Parser *ps, const char *key, guint depth, gboolean object)
{
  gint32 self = new_value (ps, object ? NB_JSON_OBJECT : NB_JSON_ARRAY, key);
  gint32 last = -1;
  guint32 n = 0;
  char close = object ? '}' : ']';

  if (depth >= NB_JSON_MAX_DEPTH)
    return fail (ps, "nested deeper than " G_STRINGIFY (NB_JSON_MAX_DEPTH) " levels"), -1;
  ps->p++;
  skip_space (ps);
  if (ps->p < ps->end && *ps->p == close)
    {
      ps->p++;
      return self;
    }
  for (;;)
    {
      const char *name = NULL;
      gint32 child;

      skip_space (ps);
      if (object)
        {
          if (ps->p >= ps->end || *ps->p != '"')
            return fail (ps, ps->p >= ps->end ? "unexpected end of the document"
                                              : "expected a member name in quotes"), -1;
          if ((name = parse_string (ps)) == NULL)
            return -1;
          skip_space (ps);
          if (ps->p >= ps->end || *ps->p != ':')
            return fail (ps, "expected ':' after a member name"), -1;
          ps->p++;
          skip_space (ps);
        }
      if ((child = parse_value (ps, name, depth + 1)) < 0)
        return -1;
      if (last < 0)
        VALUE (ps, self)->child = child;
      else
        VALUE (ps, last)->next = child;
      last = child;
      n++;
      skip_space (ps);
      if (ps->p >= ps->end)
        return fail (ps, "unexpected end of the document"), -1;
      if (*ps->p == ',')
        {
          ps->p++;
          continue;
        }
      if (*ps->p == close)
        {
          ps->p++;
          break;
        }
      return fail (ps, object ? "expected ',' or '}'" : "expected ',' or ']'"), -1;
    }
  VALUE (ps, self)->n_children = n;
  return self;
}

static gint32
parse_value (Parser *ps, const char *key, guint depth)
{
  gint32 i;

  skip_space (ps);
  if (ps->p >= ps->end)
    return fail (ps, "unexpected end of the document"), -1;
  switch (*ps->p)
    {
    case '{':
      return parse_container (ps, key, depth, TRUE);
    case '[':
      return parse_container (ps, key, depth, FALSE);
    case '"':
      {
        const char *s;

        i = new_value (ps, NB_JSON_STRING, key);
        if ((s = parse_string (ps)) == NULL)
          return -1;
        VALUE (ps, i)->string = s;
        return i;
      }
    case 't':
      return literal (ps, "true") ? new_value (ps, NB_JSON_TRUE, key) : -1;
    case 'f':
      return literal (ps, "false") ? new_value (ps, NB_JSON_FALSE, key) : -1;
    case 'n':
      return literal (ps, "null") ? new_value (ps, NB_JSON_NULL, key) : -1;
    default:
      if (*ps->p == '-' || g_ascii_isdigit (*ps->p))
        {
          i = new_value (ps, NB_JSON_NUMBER, key);
          return parse_number (ps) ? i : -1;
        }
      return fail (ps, "an unexpected character"), -1;
    }
}

gboolean
nb_json_tree_parse (NbJsonTree *t, const char *text, gsize len, guint64 line,
                    guint64 *error_line, GError **error)
{
  Parser ps = { t, text, text + len, text, line, NULL, { 0 } };
  const char *reason;

  g_array_set_size (t->values, 0);
  /* Unescaped strings are never longer than their source: one buffer of the
   * text's size holds them all, and never moves while parsing. */
  if (t->strings_cap < len + 1)
    {
      g_free (t->strings);
      t->strings_cap = MAX (len + 1, 2 * t->strings_cap);
      t->strings = g_malloc (t->strings_cap);
    }
  t->strings_len = 0;

  if (parse_value (&ps, NULL, 0) >= 0)
    {
      skip_space (&ps);
      if (ps.p == ps.end)
        return TRUE;
      ps.error = "more than one JSON value";
    }
  reason = ps.error ? ps.error : "invalid JSON";
  g_array_set_size (t->values, 0);
  if (error_line != NULL)
    *error_line = ps.line;
  /* The column in characters, as an editor shows it. */
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "column %ld: %s",
               g_utf8_pointer_to_offset (ps.line_start, MIN (ps.p, ps.end)) + 1, reason);
  return FALSE;
}
