#include "nb-json-load.h"

#include "nb-error.h"
#include "nb-json-tree.h"

#include <string.h>

static gboolean
fail (GError **error, const char *name, guint64 line, const char *reason)
{
  if (name != NULL)
    g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s:%" G_GUINT64_FORMAT ": %s", name, line,
                 reason);
  else
    g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "line %" G_GUINT64_FORMAT ", %s", line,
                 reason);
  return FALSE;
}

gboolean
nb_json_load (JsonParser *parser, const char *name, const char *text, gssize len,
              GError **error)
{
  gsize n = len < 0 ? strlen (text) : (gsize) len;
  g_autoptr (NbJsonTree) tree = nb_json_tree_new ();
  g_autoptr (GError) local = NULL;
  const char *bad;
  guint64 line = 1;

  if (!g_utf8_validate_len (text, n, &bad))
    {
      g_autofree char *reason = NULL;

      for (const char *p = text; p < bad; p++)
        line += *p == '\n';
      reason = g_strdup_printf ("byte %zu: %s", (gsize) (bad - text) + 1,
                                bad < text + n && *bad == '\0' ? "a NUL byte"
                                                               : "not UTF-8 text");
      return fail (error, name, line, reason);
    }
  if (!nb_json_tree_parse (tree, text, n, 1, &line, &local))
    return fail (error, name, line, local->message);
  if (!json_parser_load_from_data (parser, text, (gssize) n, &local))
    return fail (error, name, line, local->message);
  return TRUE;
}
