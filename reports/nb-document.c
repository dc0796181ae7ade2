#include "nb-document.h"

struct _NbDocument {
  char *title;
  GPtrArray *title_labels;
  GPtrArray *title_values;
  GArray *blocks;               /* of NbBlock */
  char *identifier;
  GPtrArray *missing;           /* of char * */
  char *results_json;
};

static void
block_clear (gpointer p)
{
  NbBlock *b = p;

  g_free (b->number);
  g_free (b->text);
  g_clear_pointer (&b->table, nb_table_free);
  if (b->draw_destroy)
    b->draw_destroy (b->draw_data);
}

NbDocument *
nb_document_new (const char *title)
{
  NbDocument *doc = g_new0 (NbDocument, 1);

  doc->title = g_strdup (title);
  doc->title_labels = g_ptr_array_new_with_free_func (g_free);
  doc->title_values = g_ptr_array_new_with_free_func (g_free);
  doc->blocks = g_array_new (FALSE, TRUE, sizeof (NbBlock));
  g_array_set_clear_func (doc->blocks, block_clear);
  doc->missing = g_ptr_array_new_with_free_func (g_free);
  return doc;
}

void
nb_document_free (NbDocument *doc)
{
  if (doc == NULL)
    return;
  g_free (doc->title);
  g_ptr_array_unref (doc->title_labels);
  g_ptr_array_unref (doc->title_values);
  g_array_unref (doc->blocks);
  g_free (doc->identifier);
  g_free (doc->results_json);
  g_ptr_array_unref (doc->missing);
  g_free (doc);
}

void
nb_document_add_title_field (NbDocument *doc, const char *label, const char *value)
{
  g_ptr_array_add (doc->title_labels, g_strdup (label));
  g_ptr_array_add (doc->title_values, g_strdup (value ? value : "—"));
}

static NbBlock *
add_block (NbDocument *doc, NbBlockKind kind, const char *text)
{
  NbBlock b = { kind };

  b.text = g_strdup (text);
  g_array_append_val (doc->blocks, b);
  return &g_array_index (doc->blocks, NbBlock, doc->blocks->len - 1);
}

void
nb_document_add_heading (NbDocument *doc, guint level, const char *number, const char *text)
{
  NbBlock *b = add_block (doc, NB_BLOCK_HEADING, text);

  b->level = CLAMP (level, 1, 2);
  b->number = g_strdup (number);
}

void
nb_document_add_paragraph (NbDocument *doc, const char *text)
{
  add_block (doc, NB_BLOCK_PARAGRAPH, text);
}

void
nb_document_add_warning (NbDocument *doc, const char *text)
{
  add_block (doc, NB_BLOCK_WARNING, text);
}

void
nb_document_add_table (NbDocument *doc, NbTable *table)
{
  add_block (doc, NB_BLOCK_TABLE, NULL)->table = table;
}

void
nb_document_add_figure (NbDocument *doc, double height_mm, NbFigureDrawFunc draw,
                        gpointer user_data, GDestroyNotify destroy, const char *caption)
{
  NbBlock *b = add_block (doc, NB_BLOCK_FIGURE, caption);

  b->height_mm = height_mm;
  b->draw = draw;
  b->draw_data = user_data;
  b->draw_destroy = destroy;
}

void
nb_document_add_page_break (NbDocument *doc)
{
  add_block (doc, NB_BLOCK_PAGE_BREAK, NULL);
}

const char *nb_document_title (const NbDocument *doc) { return doc->title; }
guint nb_document_n_title_fields (const NbDocument *doc) { return doc->title_labels->len; }
guint nb_document_n_blocks (const NbDocument *doc) { return doc->blocks->len; }

void
nb_document_title_field (const NbDocument *doc, guint i, const char **label, const char **value)
{
  g_return_if_fail (i < doc->title_labels->len);
  *label = g_ptr_array_index (doc->title_labels, i);
  *value = g_ptr_array_index (doc->title_values, i);
}

const NbBlock *
nb_document_block (const NbDocument *doc, guint i)
{
  g_return_val_if_fail (i < doc->blocks->len, NULL);
  return &g_array_index (doc->blocks, NbBlock, i);
}

void
nb_document_set_identifier (NbDocument *doc, const char *identifier)
{
  g_free (doc->identifier);
  doc->identifier = g_strdup (identifier);
}

const char *nb_document_identifier (const NbDocument *doc) { return doc->identifier; }

void
nb_document_set_results_json (NbDocument *doc, char *json)
{
  g_free (doc->results_json);
  doc->results_json = json;
}

const char *nb_document_results_json (const NbDocument *doc) { return doc->results_json; }

void
nb_document_add_missing (NbDocument *doc, const char *what)
{
  g_ptr_array_add (doc->missing, g_strdup (what));
}

guint nb_document_n_missing (const NbDocument *doc) { return doc->missing->len; }

const char *
nb_document_missing (const NbDocument *doc, guint i)
{
  g_return_val_if_fail (i < doc->missing->len, NULL);
  return g_ptr_array_index (doc->missing, i);
}
