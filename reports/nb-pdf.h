/* nb-pdf.h — a document as an A4 PDF (cairo + pango)
 *
 * Title page, table of contents, then the blocks: numbered headings,
 * paragraphs, flagged warnings, tables (header repeated after a page break,
 * numbers right-aligned, flagged cells tinted), figures with numbered
 * captions; every page, the title page too, carries the document's identifier
 * and "page N of M" (ISO/IEC 17025:2017 7.8.2.1 b).  Fonts are embedded (cairo subsets
 * them); Cyrillic renders with DejaVu Sans.
 */
#pragma once

#include <glib.h>

#include "nb-document.h"

G_BEGIN_DECLS

typedef struct {
  const char *contents_title;   /* "Contents" / "Содержание" */
  const char *figure_word;      /* "Figure" / "Рисунок" */
  const char *table_word;       /* "Table" / "Таблица" */
  const char *page_format;      /* "Page %d of %d" / "Страница %d из %d" (two %d) */
} NbPdfWords;

/* words NULL: English. */
gboolean nb_pdf_write (const NbDocument *doc, const NbPdfWords *words, const char *path,
                       GError **error);

G_END_DECLS
