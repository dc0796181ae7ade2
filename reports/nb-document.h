/* nb-document.h — a protocol document as data, independent of its format
 *
 * A sequence of blocks (headings with clause numbers, paragraphs, warnings,
 * protocol tables, figures) that the PDF writer lays out on pages; the same
 * document feeds Markdown and JSON renderers, so the formats cannot disagree.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "nb-table.h"

G_BEGIN_DECLS

typedef struct _NbDocument NbDocument;

/* Draws a figure into the box (0, 0)–(width, height), in points. */
typedef void (*NbFigureDrawFunc) (cairo_t *cr, double width_pt, double height_pt,
                                  gpointer user_data);

typedef enum {
  NB_BLOCK_HEADING,
  NB_BLOCK_PARAGRAPH,
  NB_BLOCK_WARNING,    /* flagged visibly: out-of-range conditions, failed or missing trials */
  NB_BLOCK_TABLE,
  NB_BLOCK_FIGURE,
  NB_BLOCK_PAGE_BREAK,
} NbBlockKind;

typedef struct {
  NbBlockKind kind;
  guint level;                  /* heading: 1 (clause) or 2 */
  char *number;                 /* heading: "5", "5.2"; may be NULL */
  char *text;                   /* heading, paragraph, warning; figure caption */
  NbTable *table;               /* owned */
  double height_mm;             /* figure */
  NbFigureDrawFunc draw;
  gpointer draw_data;
  GDestroyNotify draw_destroy;
} NbBlock;

NbDocument *nb_document_new            (const char *title);
void        nb_document_free           (NbDocument *doc);

/* Title-page lines: "Robot" → "ACME Rover 2 (s/n 17)". */
void        nb_document_add_title_field (NbDocument *doc, const char *label, const char *value);
void        nb_document_add_heading    (NbDocument *doc, guint level, const char *number,
                                        const char *text);
void        nb_document_add_paragraph  (NbDocument *doc, const char *text);
void        nb_document_add_warning    (NbDocument *doc, const char *text);
/* Takes ownership of table. */
void        nb_document_add_table      (NbDocument *doc, NbTable *table);
void        nb_document_add_figure     (NbDocument *doc, double height_mm, NbFigureDrawFunc draw,
                                        gpointer user_data, GDestroyNotify destroy,
                                        const char *caption);
void        nb_document_add_page_break (NbDocument *doc);

/* ISO/IEC 17025:2017 7.8.2.1 b: the report's unique identifier, printed on
 * every page with "page N of M" (NULL: not stated). */
void        nb_document_set_identifier (NbDocument *doc, const char *identifier);
const char *nb_document_identifier     (const NbDocument *doc);
/* The figures the protocol states, as `campaign results --json` writes them
 * (with their "uncertainty"): `report --format json` carries them as
 * "results" (#17).  Takes ownership; NULL for a document of no campaign. */
void        nb_document_set_results_json (NbDocument *doc, char *json);
const char *nb_document_results_json     (const NbDocument *doc);
/* What a complete protocol lacks (a required item left blank, a prescribed
 * configuration not tested, a declared value not recorded): one line each,
 * in the protocol's language; `report --check` lists them. */
void        nb_document_add_missing    (NbDocument *doc, const char *what);
guint       nb_document_n_missing      (const NbDocument *doc);
const char *nb_document_missing        (const NbDocument *doc, guint i);

const char   *nb_document_title          (const NbDocument *doc);
guint         nb_document_n_title_fields (const NbDocument *doc);
void          nb_document_title_field    (const NbDocument *doc, guint i, const char **label,
                                          const char **value);
guint         nb_document_n_blocks       (const NbDocument *doc);
const NbBlock *nb_document_block         (const NbDocument *doc, guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbDocument, nb_document_free)

G_END_DECLS
