/* Tests of the plan checker's JSON reader (core/nb-json-tree): every valid
 * document read the same as json-glib reads it, every invalid one refused
 * with its line, column and reason. */
#include "nb-error.h"
#include "nb-json-tree.h"
#include "plan-dataset.h"

#include <json-glib/json-glib.h>
#include <string.h>

/* The two trees are the same: types, member names and order, strings. */
static void
same (const NbJsonTree *t, const NbJsonValue *v, JsonNode *n, const char *where)
{
  switch (v->type)
    {
    case NB_JSON_NULL:
      g_assert_true (JSON_NODE_HOLDS_NULL (n));
      break;
    case NB_JSON_TRUE:
    case NB_JSON_FALSE:
      g_assert_true (JSON_NODE_HOLDS_VALUE (n));
      g_assert_cmpint (json_node_get_value_type (n), ==, G_TYPE_BOOLEAN);
      g_assert_cmpint (json_node_get_boolean (n), ==, v->type == NB_JSON_TRUE);
      break;
    case NB_JSON_NUMBER:
      g_assert_true (json_node_get_value_type (n) == G_TYPE_INT64 ||
                     json_node_get_value_type (n) == G_TYPE_DOUBLE);
      break;
    case NB_JSON_STRING:
      g_assert_cmpint (json_node_get_value_type (n), ==, G_TYPE_STRING);
      if (strcmp (v->string, json_node_get_string (n)) != 0)
        g_error ("%s: '%s' ≠ json-glib's '%s'", where, v->string, json_node_get_string (n));
      break;
    case NB_JSON_ARRAY:
      {
        JsonArray *a = json_node_get_array (n);
        guint i = 0;

        g_assert_true (JSON_NODE_HOLDS_ARRAY (n));
        g_assert_cmpuint (v->n_children, ==, json_array_get_length (a));
        for (const NbJsonValue *c = nb_json_tree_child (t, v); c; c = nb_json_tree_next (t, c), i++)
          same (t, c, json_array_get_element (a, i), where);
      }
      break;
    case NB_JSON_OBJECT:
      {
        JsonObject *o = json_node_get_object (n);
        g_autoptr (GHashTable) last = g_hash_table_new (g_str_hash, g_str_equal);

        g_assert_true (JSON_NODE_HOLDS_OBJECT (n));
        /* json-glib keeps the last of duplicate members; this reader all */
        for (const NbJsonValue *c = nb_json_tree_child (t, v); c; c = nb_json_tree_next (t, c))
          g_hash_table_insert (last, (gpointer) c->key, (gpointer) c);
        g_assert_cmpuint (g_hash_table_size (last), ==, json_object_get_size (o));
        for (const NbJsonValue *c = nb_json_tree_child (t, v); c; c = nb_json_tree_next (t, c))
          if (g_hash_table_lookup (last, c->key) == c)
            same (t, c, json_object_get_member (o, c->key), where);
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
differential (NbJsonTree *t, JsonParser *p, const char *text, gsize len, const char *where)
{
  g_autoptr (GError) error = NULL;

  if (!nb_json_tree_parse (t, text, len, 1, NULL, &error))
    g_error ("%s: refused: %s", where, error->message);
  json_parser_load_from_data (p, text, (gssize) len, &error);
  g_assert_no_error (error);
  same (t, nb_json_tree_root (t), json_parser_get_root (p), where);
}

static void
test_valid (void)
{
  g_autoptr (NbJsonTree) t = nb_json_tree_new ();
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autoptr (GString) data = g_string_new (NULL);
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "data", "plans", "cases", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *docs[] = {
    "{}", "[]", "0", "-0.5e+10", "1E3", "true", "false", "null", "\"\"",
    "  {\"a\" : [1, 2.5, -3e-2, true, false, null, {\"b\": {}}]}  \n",
    "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"",
    "\"\\u00e9 \\u2116 \\u0434\\u0435\\u0442\\u0430\\u043b\\u044c \\ud83d\\ude00\"",
    "{\"object\": \"деталь №1\", \"target\": \"исходное положение\"}",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
  };
  NbTestDatasetExpect e;
  const char *name;
  const char *q, *end;

  for (guint i = 0; i < G_N_ELEMENTS (docs); i++)
    differential (t, p, docs[i], strlen (docs[i]), docs[i]);
  /* every case file that is JSON */
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".json") && !g_str_equal (name, "syntax.json"))
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_autofree char *text = NULL;
        gsize len;

        g_assert_true (g_file_get_contents (path, &text, &len, NULL));
        differential (t, p, text, len, name);
      }
  /* generated plans (the syntax faults excluded: they are meant to fail) */
  nb_test_plan_dataset (data, 3000, 7, 0.2, &e);
  for (q = data->str, end = q + data->len; q < end; )
    {
      const char *nl = memchr (q, '\n', (gsize) (end - q));
      g_autoptr (GError) error = NULL;

      if (json_parser_load_from_data (p, q, nl - q, NULL))
        differential (t, p, q, (gsize) (nl - q), "dataset");
      else
        g_assert_false (nb_json_tree_parse (t, q, (gsize) (nl - q), 1, NULL, &error));
      q = nl + 1;
    }
}

static void
test_lines (void)
{
  g_autoptr (NbJsonTree) t = nb_json_tree_new ();
  const char *text = "{\n  \"status\": \"ready\",\n  \"plan\": [\n    {\"skill\": \"pick\"},\n\n    {}\n  ]\n}";
  const NbJsonValue *root, *status, *plan, *a0, *a1;

  g_assert_true (nb_json_tree_parse (t, text, strlen (text), 10, NULL, NULL));
  root = nb_json_tree_root (t);
  g_assert_cmpuint (root->line, ==, 10);
  status = nb_json_tree_member (t, root, "status");
  g_assert_cmpuint (status->line, ==, 11);
  g_assert_cmpstr (status->string, ==, "ready");
  plan = nb_json_tree_member (t, root, "plan");
  g_assert_cmpuint (plan->line, ==, 12);
  a0 = nb_json_tree_child (t, plan);
  a1 = nb_json_tree_next (t, a0);
  g_assert_cmpuint (a0->line, ==, 13);
  g_assert_cmpuint (a1->line, ==, 15);
  g_assert_null (nb_json_tree_next (t, a1));
  g_assert_null (nb_json_tree_member (t, root, "missing"));
  g_assert_null (nb_json_tree_member (t, plan, "status"));
}

/* Duplicate members are kept in order (json-glib keeps only the last). */
static void
test_duplicates (void)
{
  g_autoptr (NbJsonTree) t = nb_json_tree_new ();
  const char *text = "{\"a\": \"1\", \"a\": \"2\"}";
  const NbJsonValue *root, *first;

  g_assert_true (nb_json_tree_parse (t, text, strlen (text), 1, NULL, NULL));
  root = nb_json_tree_root (t);
  g_assert_cmpuint (root->n_children, ==, 2);
  first = nb_json_tree_member (t, root, "a");
  g_assert_cmpstr (first->string, ==, "1");
  g_assert_cmpstr (nb_json_tree_next (t, first)->string, ==, "2");
}

static void
test_invalid (void)
{
  g_autoptr (NbJsonTree) t = nb_json_tree_new ();
  g_autofree char *deep = g_strnfill (600, '[');
  struct { const char *text; guint64 line; const char *message; } cases[] = {
    { "", 1, "column 1: unexpected end of the document" },
    { "   \n  ", 2, "column 3: unexpected end of the document" },
    { "{\"a\": 1,}", 1, "column 9: expected a member name in quotes" },
    { "[1 2]", 1, "column 4: expected ',' or ']'" },
    { "{\"a\": 1 \"b\": 2}", 1, "column 9: expected ',' or '}'" },
    { "{\"a\" 1}", 1, "column 6: expected ':' after a member name" },
    { "{\"a\": \"x\\u12\"}", 1, "column 11: a \\u escape needs four hex digits" },
    { "\"\\ud800\"", 1, "column 8: a lone UTF-16 surrogate in a \\u escape" },
    { "\"\\udc00\"", 1, "column 8: a lone UTF-16 surrogate in a \\u escape" },
    { "\"a\\u0000b\"", 1, "column 9: \\u0000 inside a string" },
    { "\"a\\qb\"", 1, "column 4: an invalid escape in a string" },
    { "01", 1, "column 2: more than one JSON value" },
    { "1.", 1, "column 1: an invalid number" },
    { "-", 1, "column 1: an invalid number" },
    { "1e", 1, "column 1: an invalid number" },
    { "tru", 1, "column 1: an unexpected character" },
    { "'a'", 1, "column 1: an unexpected character" },
    { "\"abc", 1, "column 5: unterminated string" },
    { "\"a\tb\"", 1, "column 3: a control character inside a string" },
    { "{\"объект\": \"деталь\n№1\"}", 1, "column 19: unterminated string (a line break inside)" },
    { "{} {}", 1, "column 4: more than one JSON value" },
    { "{\n  \"a\": x}", 2, "column 8: an unexpected character" },
    { "{\"a\": [1, 2}", 1, "column 12: expected ',' or ']'" },
    { deep, 1, "column 513: nested deeper than 512 levels" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      guint64 line = 0;

      if (nb_json_tree_parse (t, cases[i].text, strlen (cases[i].text), 1, &line, &error))
        g_error ("'%s' accepted", cases[i].text);
      g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
      if (strcmp (error->message, cases[i].message) != 0 || line != cases[i].line)
        g_error ("'%s': got line %" G_GUINT64_FORMAT " '%s', expected line %" G_GUINT64_FORMAT
                 " '%s'", cases[i].text, line, error->message, cases[i].line, cases[i].message);
      g_assert_null (nb_json_tree_root (t));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-tree/valid-as-json-glib", test_valid);
  g_test_add_func ("/json-tree/lines", test_lines);
  g_test_add_func ("/json-tree/duplicates", test_duplicates);
  g_test_add_func ("/json-tree/invalid", test_invalid);
  return g_test_run ();
}
