/* nb-json-load.h — json-glib behind a strict gate
 *
 * json-glib 1.6 reads more than JSON: comments, single-quoted strings, a
 * second value after the first; "\u0000" or a NUL byte cuts a string short
 * where C reads it; and it recurses once per nesting level, so that a
 * document nested ~80 000 deep overflows the stack.  Every reader of JSON
 * from outside (HTTP bodies and answers, sequences, skill tables, what the
 * campaign file holds) loads through here: the text must be UTF-8 and
 * RFC 8259 JSON, nested at most NB_JSON_MAX_DEPTH deep, with no NUL in it,
 * checked by nb-json-tree (iterative in memory, bounded in depth) before
 * json-glib sees it.
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* len −1: NUL-terminated.  FALSE with NB_ERROR_INPUT "NAME:LINE: column C:
 * reason" (name NULL: "line LINE, column C: reason"). */
gboolean nb_json_load (JsonParser *parser, const char *name, const char *text, gssize len,
                       GError **error);

G_END_DECLS
