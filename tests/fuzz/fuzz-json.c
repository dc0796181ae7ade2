/* libFuzzer target: nb_json_load, the gate every JSON reader goes through
 * (#21).  Either an error, or a document json-glib holds whose nesting is
 * within NB_JSON_MAX_DEPTH and whose strings carry no NUL — never a crash,
 * never json-glib's recursion on a deeper document. */
#include "nb-json-load.h"
#include "nb-json-tree.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static guint
depth (JsonNode *n)
{
  guint d = 0;

  if (JSON_NODE_HOLDS_ARRAY (n))
    {
      JsonArray *a = json_node_get_array (n);

      /* Not MAX (d, depth (…)): the macro walks the element twice, 2^46
       * walks for 46 nested arrays (a fuzzer timeout, not json-glib's). */
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          guint e = depth (json_array_get_element (a, i));

          d = MAX (d, e);
        }
      return d + 1;
    }
  if (JSON_NODE_HOLDS_OBJECT (n))
    {
      JsonObject *o = json_node_get_object (n);
      GList *members = json_object_get_members (o);

      for (GList *l = members; l; l = l->next)
        {
          guint m;

          g_assert (memchr (l->data, 0, strlen (l->data) + 1) == (char *) l->data + strlen (l->data));
          m = depth (json_object_get_member (o, l->data));
          d = MAX (d, m);
        }
      g_list_free (members);
      return d + 1;
    }
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  JsonParser *parser = json_parser_new ();
  GError *error = NULL;
  gboolean ok = nb_json_load (parser, "fuzz", (const char *) data, (gssize) size, &error);

  g_assert (ok == (error == NULL));
  if (ok)
    {
      JsonNode *root = json_parser_get_root (parser);

      /* Strict JSON has one value: never the empty document json-glib takes. */
      g_assert (root != NULL);
      g_assert (depth (root) <= NB_JSON_MAX_DEPTH);
      g_assert (memchr (data, 0, size) == NULL);
    }
  else
    g_assert (g_str_has_prefix (error->message, "fuzz:"));
  g_clear_error (&error);
  g_object_unref (parser);
  return 0;
}
