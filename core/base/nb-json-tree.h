/* nb-json-tree.h — a strict, fast JSON reader for checking many small documents
 *
 * json-glib builds GObject nodes through GScanner: about 25 000 one-line
 * plans per second here, too slow for datasets of millions.  This reader
 * parses RFC 8259 JSON into one reusable array of values (no allocation per
 * value once warm), keeps the line every value starts on (a violation names
 * its line), and keeps duplicate members (json-glib silently keeps the last
 * one) so that a checker can report them.  Numbers are checked against the
 * grammar but not converted: plans hold none.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Deeper documents are refused rather than risk the stack (a plan is 3
 * deep, a sequence 4): every JSON reader of navbench goes through this
 * reader first (nb-json-load.h). */
#define NB_JSON_MAX_DEPTH 512

typedef enum {
  NB_JSON_NULL,
  NB_JSON_FALSE,
  NB_JSON_TRUE,
  NB_JSON_NUMBER,
  NB_JSON_STRING,
  NB_JSON_ARRAY,
  NB_JSON_OBJECT,
} NbJsonType;

typedef struct {
  NbJsonType type;
  guint32 n_children;            /* ARRAY, OBJECT */
  gint32 child;                  /* the first element or member, −1 when none */
  gint32 next;                   /* the next sibling, −1 when none */
  guint64 line;                  /* the line the value starts on */
  const char *key;               /* a member's name (unescaped), else NULL */
  const char *string;            /* STRING: unescaped UTF-8, no NUL inside */
} NbJsonValue;

typedef struct _NbJsonTree NbJsonTree;

NbJsonTree        *nb_json_tree_new    (void);
void               nb_json_tree_free   (NbJsonTree *tree);

/* Parses text[0..len), whose first line is `line`; the values live until the
 * next parse.  FALSE on invalid JSON with *error_line and an NB_ERROR_INPUT
 * error "column C: reason". */
gboolean           nb_json_tree_parse  (NbJsonTree *tree, const char *text, gsize len,
                                        guint64 line, guint64 *error_line, GError **error);

const NbJsonValue *nb_json_tree_root   (const NbJsonTree *tree);
/* The first child, the next sibling: NULL at the end. */
const NbJsonValue *nb_json_tree_child  (const NbJsonTree *tree, const NbJsonValue *value);
const NbJsonValue *nb_json_tree_next   (const NbJsonTree *tree, const NbJsonValue *value);
/* The first member named key of an object, or NULL. */
const NbJsonValue *nb_json_tree_member (const NbJsonTree *tree, const NbJsonValue *object,
                                        const char *key);

/* "null", "a boolean", "a number", "a string", "an array", "an object" */
const char        *nb_json_type_name   (NbJsonType type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbJsonTree, nb_json_tree_free)

G_END_DECLS
