#include "nb-pdf.h"

#include "nb-error.h"

#include <cairo-pdf.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

/* A4 in points, 20 mm margins. */
#define PAGE_W 595.2756
#define PAGE_H 841.8898
#define MM (72.0 / 25.4)
#define MARGIN (20.0 * MM)
#define TOP (MARGIN + 8.0)
#define BOTTOM (PAGE_H - MARGIN)
#define TEXT_W (PAGE_W - 2.0 * MARGIN)
#define FONT "DejaVu Sans"

static const NbPdfWords english = { "Contents", "Figure", "Table", "Page %d of %d" };

typedef struct {
  const NbDocument *doc;
  const NbPdfWords *words;
  cairo_t *cr;
  double y;
  int page;
  int total_pages;              /* known in the second pass */
  int *heading_page;            /* per block; from the first pass */
  guint n_figures;
  gboolean measuring;           /* the first pass: layout only, figures not drawn */
  /* What both passes share (owned by nb_pdf_write): each table's geometry
   * and row heights, and the widths of single words, all measured once —
   * the second pass draws what the first measured (#17: the budget tables
   * made the PDF measure every cell and word four times). */
  GHashTable *tables;           /* NbTable * → TableCache */
  GHashTable *words_w;          /* "size weight word" → width (double *) */
  PangoContext *pango;          /* one per pass, for every layout of its cairo context */
} Layout;

static PangoLayout *
make_text (Layout *L, const char *text, double size, PangoWeight weight, PangoStyle style,
           double width)
{
  PangoLayout *layout;
  PangoFontDescription *font = pango_font_description_from_string (FONT);

  if (L->pango == NULL)
    {
      /* pango_cairo_create_layout () made a context per text; one per
       * cairo context is the same context (its target, font options and
       * identity matrix do not change while text is drawn). */
      L->pango = pango_cairo_create_context (L->cr);
      /* Points are points: pango assumes 96 dpi unless told the PDF's 72. */
      pango_cairo_context_set_resolution (L->pango, 72.0);
    }
  layout = pango_layout_new (L->pango);

  pango_font_description_set_size (font, (gint) (size * PANGO_SCALE));
  pango_font_description_set_weight (font, weight);
  pango_font_description_set_style (font, style);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  if (width > 0)
    {
      pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
    }
  pango_layout_set_text (layout, text, -1);
  return layout;
}

static double
text_height (PangoLayout *layout)
{
  int w, h;

  pango_layout_get_size (layout, &w, &h);
  return (double) h / PANGO_SCALE;
}

static double
text_width (PangoLayout *layout)
{
  int w, h;

  pango_layout_get_size (layout, &w, &h);
  return (double) w / PANGO_SCALE;
}

static void
show (Layout *L, PangoLayout *layout, double x, double y, double r, double g, double b)
{
  cairo_set_source_rgb (L->cr, r, g, b);
  cairo_move_to (L->cr, x, y);
  pango_cairo_show_layout (L->cr, layout);
}

/* ISO/IEC 17025:2017 7.8.2.1 b: the report's identifier and "page N of M"
 * on every page, so a page is known as part of its report. */
static void
footer (Layout *L)
{
  const char *id = nb_document_identifier (L->doc);
  const char *format = L->words->page_format ? L->words->page_format : english.page_format;
  g_autofree char *page = NULL;
  g_autoptr (PangoLayout) left = NULL, right = NULL;

  cairo_set_source_rgb (L->cr, 0.6, 0.6, 0.6);
  cairo_set_line_width (L->cr, 0.4);
  cairo_move_to (L->cr, MARGIN, BOTTOM + 6.0);
  cairo_line_to (L->cr, PAGE_W - MARGIN, BOTTOM + 6.0);
  cairo_stroke (L->cr);
  /* The format is the catalogue's translation of "Page %d of %d". */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  page = g_strdup_printf (format, L->page, MAX (L->total_pages, L->page));
#pragma GCC diagnostic pop
  right = make_text (L, page, 8.0, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, 0);
  show (L, right, PAGE_W - MARGIN - text_width (right), BOTTOM + 10.0, 0.3, 0.3, 0.3);
  if (id != NULL)
    {
      left = make_text (L, id, 8.0, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL,
                        TEXT_W - text_width (right) - 12.0);
      pango_layout_set_ellipsize (left, PANGO_ELLIPSIZE_END);
      show (L, left, MARGIN, BOTTOM + 10.0, 0.3, 0.3, 0.3);
    }
}

static void
new_page (Layout *L)
{
  g_autoptr (PangoLayout) head = NULL;

  if (L->page > 0)
    cairo_show_page (L->cr);
  L->page++;
  L->y = TOP;
  footer (L);
  if (L->page == 1)
    return;                     /* the title page has no running head */
  head = make_text (L, nb_document_title (L->doc), 7.5, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL,
                    TEXT_W);
  pango_layout_set_ellipsize (head, PANGO_ELLIPSIZE_END);
  show (L, head, MARGIN, MARGIN - 14.0, 0.4, 0.4, 0.4);
  cairo_set_source_rgb (L->cr, 0.6, 0.6, 0.6);
  cairo_set_line_width (L->cr, 0.4);
  cairo_move_to (L->cr, MARGIN, MARGIN - 3.0);
  cairo_line_to (L->cr, PAGE_W - MARGIN, MARGIN - 3.0);
  cairo_stroke (L->cr);
}

/* A new page unless height fits below the cursor. */
static void
ensure (Layout *L, double height)
{
  if (L->y + height > BOTTOM && L->y > TOP)
    new_page (L);
}

static void
title_page (Layout *L)
{
  g_autoptr (PangoLayout) title = make_text (L, nb_document_title (L->doc), 20.0,
                                             PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, TEXT_W);
  double label_w = 0.0;

  new_page (L);
  L->y = 60.0 * MM;
  show (L, title, MARGIN, L->y, 0, 0, 0);
  L->y += text_height (title) + 14.0 * MM;

  for (guint i = 0; i < nb_document_n_title_fields (L->doc); i++)
    {
      const char *label, *value;
      g_autoptr (PangoLayout) l = NULL;

      nb_document_title_field (L->doc, i, &label, &value);
      l = make_text (L, label, 10.0, PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, 0);
      label_w = MAX (label_w, text_width (l));
    }
  label_w = MIN (label_w + 12.0, TEXT_W / 2.5);
  for (guint i = 0; i < nb_document_n_title_fields (L->doc); i++)
    {
      const char *label, *value;
      g_autoptr (PangoLayout) l = NULL, v = NULL;

      nb_document_title_field (L->doc, i, &label, &value);
      l = make_text (L, label, 10.0, PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, label_w - 8.0);
      v = make_text (L, value, 10.0, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, TEXT_W - label_w);
      ensure (L, text_height (v));
      show (L, l, MARGIN, L->y, 0.25, 0.25, 0.25);
      show (L, v, MARGIN + label_w, L->y, 0, 0, 0);
      L->y += MAX (text_height (l), text_height (v)) + 5.0;
    }
}

static char *
heading_text (const NbBlock *b)
{
  return b->number ? g_strdup_printf ("%s  %s", b->number, b->text) : g_strdup (b->text);
}

static void
contents (Layout *L)
{
  g_autoptr (PangoLayout) title = make_text (L, L->words->contents_title, 14.0,
                                             PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, TEXT_W);

  new_page (L);
  show (L, title, MARGIN, L->y, 0, 0, 0);
  L->y += text_height (title) + 10.0;
  for (guint i = 0; i < nb_document_n_blocks (L->doc); i++)
    {
      const NbBlock *b = nb_document_block (L->doc, i);
      g_autofree char *text = NULL, *page = NULL;
      g_autoptr (PangoLayout) t = NULL, p = NULL;
      double indent;

      if (b->kind != NB_BLOCK_HEADING)
        continue;
      indent = b->level == 1 ? 0.0 : 16.0;
      text = heading_text (b);
      page = g_strdup_printf ("%d", L->heading_page ? L->heading_page[i] : 0);
      t = make_text (L, text, 10.0, b->level == 1 ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL,
                     PANGO_STYLE_NORMAL, TEXT_W - indent - 40.0);
      p = make_text (L, page, 10.0, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, 0);
      ensure (L, text_height (t));
      show (L, t, MARGIN + indent, L->y, 0, 0, 0);
      show (L, p, PAGE_W - MARGIN - text_width (p), L->y, 0, 0, 0);
      /* Dotted leader from the text to the page number. */
      cairo_set_source_rgb (L->cr, 0.6, 0.6, 0.6);
      cairo_new_path (L->cr);
      for (double x = MARGIN + indent + MIN (text_width (t), TEXT_W - indent - 40.0) + 6.0;
           x < PAGE_W - MARGIN - text_width (p) - 6.0; x += 4.0)
        {
          cairo_new_sub_path (L->cr);
          cairo_arc (L->cr, x, L->y + text_height (t) - 4.0, 0.5, 0, 2 * G_PI);
        }
      cairo_fill (L->cr);
      L->y += text_height (t) + 4.0;
    }
}

static void
heading (Layout *L, guint index, const NbBlock *b)
{
  g_autofree char *text = heading_text (b);
  g_autoptr (PangoLayout) t = make_text (L, text, b->level == 1 ? 14.0 : 11.5, PANGO_WEIGHT_BOLD,
                                         PANGO_STYLE_NORMAL, TEXT_W);

  /* A clause starts on a new page; any heading keeps 80 pt of what follows. */
  if (b->level == 1 && L->y > TOP)
    new_page (L);
  else
    ensure (L, text_height (t) + 80.0);
  if (L->y > TOP)
    L->y += b->level == 1 ? 10.0 : 6.0;
  L->heading_page[index] = L->page;
  show (L, t, MARGIN, L->y, 0.05, 0.15, 0.35);
  L->y += text_height (t) + 6.0;
}

static void
paragraph (Layout *L, const NbBlock *b, gboolean warning)
{
  g_autofree char *text = warning ? g_strdup_printf ("⚠ %s", b->text) : g_strdup (b->text);
  g_autoptr (PangoLayout) t = make_text (L, text, 9.5,
                                         warning ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL,
                                         PANGO_STYLE_NORMAL, TEXT_W - (warning ? 12.0 : 0.0));
  double h = text_height (t);

  ensure (L, h + 4.0);
  if (warning)
    {
      cairo_set_source_rgb (L->cr, 1.0, 0.92, 0.90);
      cairo_rectangle (L->cr, MARGIN, L->y - 2.0, TEXT_W, h + 6.0);
      cairo_fill (L->cr);
      cairo_set_source_rgb (L->cr, 0.75, 0.1, 0.1);
      cairo_rectangle (L->cr, MARGIN, L->y - 2.0, 3.0, h + 6.0);
      cairo_fill (L->cr);
      show (L, t, MARGIN + 8.0, L->y + 1.0, 0.6, 0.05, 0.05);
      L->y += h + 10.0;
    }
  else
    {
      show (L, t, MARGIN, L->y, 0, 0, 0);
      L->y += h + 6.0;
    }
}

/* ------------------------------------------------------------- tables -- */

typedef struct {
  guint n;
  double size;                  /* font size */
  double *width;                /* column widths */
  double *min;                  /* the widest cell: a column never goes below it */
  double *cells;                /* the widest cell alone (a number) or word (text), no heading */
  gboolean *numeric;
} TableGeometry;

#define PAD 3.0

static char *
header_text (const NbColumn *col)
{
  return col->unit ? g_strdup_printf ("%s, %s", col->heading, col->unit) : g_strdup (col->heading);
}

/* A word's width at a size and weight, measured once per report. */
static double
word_width (Layout *L, const char *word, double size, PangoWeight weight)
{
  g_autofree char *key = g_strdup_printf ("%g %d %s", size, (int) weight, word);
  double *w = g_hash_table_lookup (L->words_w, key);

  if (w == NULL)
    {
      g_autoptr (PangoLayout) l = make_text (L, word, size, weight, PANGO_STYLE_NORMAL, 0);

      w = g_new (double, 1);
      *w = text_width (l);
      g_hash_table_insert (L->words_w, g_steal_pointer (&key), w);
    }
  return *w;
}

static double
longest_word (Layout *L, const char *text, double size, PangoWeight weight)
{
  g_auto (GStrv) words = g_strsplit (text, " ", -1);
  double w = 0.0;

  for (guint i = 0; words[i]; i++)
    w = MAX (w, word_width (L, words[i], size, weight));
  return w;
}

/* Natural column widths at a font size (the cells and the heading on one
 * line) and each column's minimum (its widest cell); returns Σ minimum. */
static double
measure (Layout *L, const NbTable *t, TableGeometry *g)
{
  double total = 0.0;

  for (guint c = 0; c < g->n; c++)
    {
      g_autofree char *h = header_text (nb_table_column (t, c));
      g_autoptr (PangoLayout) hl = make_text (L, h, g->size, PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, 0);
      double w = 0.0;

      g->numeric[c] = FALSE;
      for (guint r = 0; r < nb_table_n_rows (t); r++)
        {
          g_autofree char *s = nb_table_format_cell (t, r, c);
          g_autoptr (PangoLayout) l = make_text (L, s, g->size, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, 0);

          w = MAX (w, text_width (l));
          g->numeric[c] = g->numeric[c] || nb_table_cell (t, r, c)->kind == NB_CELL_NUMBER;
        }
      /* A number never wraps; text and headings may, but not inside a word. */
      g->min[c] = MAX (w, longest_word (L, h, g->size, PANGO_WEIGHT_BOLD)) + 2.0 * PAD;
      g->cells[c] = w + 2.0 * PAD;
      if (!g->numeric[c])
        {
          double word = 0.0;

          for (guint r = 0; r < nb_table_n_rows (t); r++)
            {
              g_autofree char *s = nb_table_format_cell (t, r, c);

              word = MAX (word, longest_word (L, s, g->size, PANGO_WEIGHT_NORMAL));
            }
          g->min[c] = MAX (word, longest_word (L, h, g->size, PANGO_WEIGHT_BOLD)) + 2.0 * PAD;
          g->cells[c] = word + 2.0 * PAD;
        }
      g->width[c] = MAX (w, text_width (hl)) + 2.0 * PAD;
      total += g->min[c];
    }
  return total;
}

/* Fits the columns into the text width: every column gets its minimum, and
 * what is left goes to those whose natural width is larger, in proportion. */
static void
share_width (TableGeometry *g)
{
  double natural = 0.0, minimum = 0.0, want = 0.0;

  for (guint c = 0; c < g->n; c++)
    {
      natural += g->width[c];
      minimum += g->min[c];
      want += g->width[c] - g->min[c];
    }
  if (natural <= TEXT_W)
    {
      /* Room to spare: the text columns take it. */
      guint n_text = 0;

      for (guint c = 0; c < g->n; c++)
        n_text += !g->numeric[c];
      for (guint c = 0; c < g->n; c++)
        g->width[c] += (TEXT_W - natural) / (n_text ? n_text : g->n) * (n_text ? !g->numeric[c] : 1);
      return;
    }
  if (minimum > TEXT_W)
    {
      /* Even the smallest type does not fit every heading's longest word
       * (a Russian heading over a U column): the cells keep their width —
       * a number never wraps — and the headings' words break instead. */
      double cells = 0.0, surplus = 0.0;

      for (guint c = 0; c < g->n; c++)
        {
          cells += g->cells[c];
          surplus += g->min[c] - g->cells[c];
        }
      for (guint c = 0; c < g->n; c++)
        g->width[c] = g->cells[c] + (surplus > 0 && TEXT_W > cells
                                       ? (TEXT_W - cells) * (g->min[c] - g->cells[c]) / surplus
                                       : 0.0);
      return;
    }
  for (guint c = 0; c < g->n; c++)
    g->width[c] = g->min[c] + (want > 0 ? (TEXT_W - minimum) * (g->width[c] - g->min[c]) / want : 0);
}

static double
row_height (Layout *L, const NbTable *t, const TableGeometry *g, int row)
{
  double h = 0.0;

  for (guint c = 0; c < g->n; c++)
    {
      g_autofree char *s = NULL;
      g_autoptr (PangoLayout) l = NULL;

      if (row < 0)
        s = header_text (nb_table_column (t, c));
      else
        s = nb_table_format_cell (t, (guint) row, c);
      /* A flagged cell is drawn bold (draw_row): measured bold too, or its
       * wider words wrap onto a line the row has no room for. */
      l = make_text (L, s, g->size,
                     row < 0 || nb_table_cell (t, (guint) row, c)->flagged ? PANGO_WEIGHT_BOLD
                                                                          : PANGO_WEIGHT_NORMAL,
                     PANGO_STYLE_NORMAL, g->width[c] - 2.0 * PAD);
      h = MAX (h, text_height (l));
    }
  return h + 2.0 * PAD;
}

static void
draw_row (Layout *L, const NbTable *t, const TableGeometry *g, int row, double h)
{
  double x = MARGIN;

  if (row < 0)
    {
      cairo_set_source_rgb (L->cr, 0.88, 0.91, 0.95);
      cairo_rectangle (L->cr, MARGIN, L->y, TEXT_W, h);
      cairo_fill (L->cr);
    }
  for (guint c = 0; c < g->n; c++)
    {
      g_autofree char *s = NULL;
      g_autoptr (PangoLayout) l = NULL;
      gboolean flagged = row >= 0 && nb_table_cell (t, (guint) row, c)->flagged;

      if (row < 0)
        s = header_text (nb_table_column (t, c));
      else
        s = nb_table_format_cell (t, (guint) row, c);
      l = make_text (L, s, g->size, row < 0 || flagged ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL,
                     PANGO_STYLE_NORMAL, g->width[c] - 2.0 * PAD);
      pango_layout_set_alignment (l, g->numeric[c] ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
      if (flagged)
        {
          cairo_set_source_rgb (L->cr, 1.0, 0.85, 0.82);
          cairo_rectangle (L->cr, x, L->y, g->width[c], h);
          cairo_fill (L->cr);
        }
      show (L, l, x + PAD, L->y + PAD, flagged ? 0.65 : 0, 0.05 * flagged, 0.05 * flagged);
      x += g->width[c];
    }
  cairo_set_source_rgb (L->cr, 0.55, 0.55, 0.55);
  cairo_set_line_width (L->cr, row < 0 ? 0.8 : 0.3);
  cairo_move_to (L->cr, MARGIN, L->y + h);
  cairo_line_to (L->cr, MARGIN + TEXT_W, L->y + h);
  cairo_stroke (L->cr);
  L->y += h;
}

/* A table's geometry and its rows' heights (the header's first), as the
 * first pass measured them. */
typedef struct {
  TableGeometry g;
  double *row_h;
} TableCache;

static void
table_cache_free (gpointer p)
{
  TableCache *c = p;

  g_free (c->g.width);
  g_free (c->g.min);
  g_free (c->g.cells);
  g_free (c->g.numeric);
  g_free (c->row_h);
  g_free (c);
}

static const TableCache *
table_geometry (Layout *L, const NbTable *t)
{
  TableCache *c = g_hash_table_lookup (L->tables, t);
  guint n_rows = nb_table_n_rows (t);

  if (c != NULL)
    return c;
  c = g_new0 (TableCache, 1);
  c->g = (TableGeometry) { nb_table_n_columns (t), 9.0, NULL, NULL, NULL, NULL };
  c->g.width = g_new0 (double, MAX (c->g.n, 1));
  c->g.min = g_new0 (double, MAX (c->g.n, 1));
  c->g.cells = g_new0 (double, MAX (c->g.n, 1));
  c->g.numeric = g_new0 (gboolean, MAX (c->g.n, 1));
  /* Smaller type (down to 6.5 pt) before a number would be squeezed. */
  while (measure (L, t, &c->g) > TEXT_W && c->g.size > 6.5)
    c->g.size -= 0.5;
  share_width (&c->g);
  c->row_h = g_new (double, n_rows + 1);
  for (guint r = 0; r <= n_rows; r++)
    c->row_h[r] = row_height (L, t, &c->g, (int) r - 1);
  g_hash_table_insert (L->tables, (gpointer) t, c);
  return c;
}

static void
table (Layout *L, const NbTable *t)
{
  const TableCache *cache = table_geometry (L, t);
  const TableGeometry *gp = &cache->g;
  g_autoptr (PangoLayout) title = NULL;
  double header_h = cache->row_h[0];

  if (nb_table_title (t))
    {
      /* The title keeps the header and two rows with it (one when there is
       * only one; a table of no rows measured its first as the header). */
      double first = nb_table_n_rows (t) > 0 ? cache->row_h[1] : header_h;

      title = make_text (L, nb_table_title (t), 10.0, PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, TEXT_W);
      ensure (L, text_height (title) + header_h + 2.0 * first + 6.0);
      show (L, title, MARGIN, L->y, 0, 0, 0);
      L->y += text_height (title) + 4.0;
    }
  else
    ensure (L, header_h + 30.0);

  draw_row (L, t, gp, -1, header_h);
  for (guint r = 0; r < nb_table_n_rows (t); r++)
    {
      double h = cache->row_h[r + 1];

      if (L->y + h > BOTTOM)
        {
          new_page (L);
          draw_row (L, t, gp, -1, header_h);  /* the header again */
        }
      draw_row (L, t, gp, (int) r, h);
    }
  L->y += 4.0;
  for (guint i = 0; i < nb_table_n_notes (t); i++)
    {
      g_autoptr (PangoLayout) n = make_text (L, nb_table_note (t, i), 8.0, PANGO_WEIGHT_NORMAL,
                                             PANGO_STYLE_ITALIC, TEXT_W);

      ensure (L, text_height (n));
      show (L, n, MARGIN, L->y, 0.25, 0.25, 0.25);
      L->y += text_height (n) + 2.0;
    }
  L->y += 10.0;
}

/* ------------------------------------------------------------ figures -- */

static void
figure (Layout *L, const NbBlock *b)
{
  double h = b->height_mm * MM;
  g_autofree char *caption = g_strdup_printf ("%s %u — %s", L->words->figure_word,
                                              ++L->n_figures, b->text ? b->text : "");
  g_autoptr (PangoLayout) c = make_text (L, caption, 9.0, PANGO_WEIGHT_NORMAL, PANGO_STYLE_ITALIC,
                                         TEXT_W);

  pango_layout_set_alignment (c, PANGO_ALIGN_CENTER);
  ensure (L, h + text_height (c) + 8.0);
  cairo_save (L->cr);
  cairo_translate (L->cr, MARGIN, L->y);
  cairo_rectangle (L->cr, 0, 0, TEXT_W, h);
  cairo_clip (L->cr);
  /* A figure's size is fixed: the first pass need not draw a million points. */
  if (b->draw && !L->measuring)
    b->draw (L->cr, TEXT_W, h, b->draw_data);
  cairo_restore (L->cr);
  L->y += h + 4.0;
  show (L, c, MARGIN, L->y, 0.15, 0.15, 0.15);
  L->y += text_height (c) + 12.0;
}

static void
render (Layout *L)
{
  title_page (L);
  contents (L);
  for (guint i = 0; i < nb_document_n_blocks (L->doc); i++)
    {
      const NbBlock *b = nb_document_block (L->doc, i);

      if (i == 0 && b->kind != NB_BLOCK_HEADING)
        new_page (L);
      switch (b->kind)
        {
        case NB_BLOCK_HEADING: heading (L, i, b); break;
        case NB_BLOCK_PARAGRAPH: paragraph (L, b, FALSE); break;
        case NB_BLOCK_WARNING: paragraph (L, b, TRUE); break;
        case NB_BLOCK_TABLE: table (L, b->table); break;
        case NB_BLOCK_FIGURE: figure (L, b); break;
        case NB_BLOCK_PAGE_BREAK: new_page (L); break;
        }
    }
  cairo_show_page (L->cr);
}

static cairo_status_t
discard (void *closure, const unsigned char *data, unsigned int length)
{
  return CAIRO_STATUS_SUCCESS;
}

gboolean
nb_pdf_write (const NbDocument *doc, const NbPdfWords *words, const char *path, GError **error)
{
  g_autofree int *pages = g_new0 (int, MAX (nb_document_n_blocks (doc), 1));
  g_autoptr (GHashTable) tables = g_hash_table_new_full (NULL, NULL, NULL, table_cache_free);
  g_autoptr (GHashTable) words_w = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  cairo_surface_t *surface;
  cairo_status_t status;
  Layout L = { doc, words ? words : &english };
  int total;

  /* Pass 1 lays out to nowhere: page numbers for the contents and "N / M". */
  surface = cairo_pdf_surface_create_for_stream (discard, NULL, PAGE_W, PAGE_H);
  L.cr = cairo_create (surface);
  L.heading_page = pages;
  L.measuring = TRUE;
  L.tables = tables;
  L.words_w = words_w;
  render (&L);
  total = L.page;
  g_clear_object (&L.pango);
  cairo_destroy (L.cr);
  cairo_surface_destroy (surface);

  surface = cairo_pdf_surface_create (path, PAGE_W, PAGE_H);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, nb_document_title (doc));
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "navbench");
  L = (Layout) { doc, words ? words : &english };
  L.cr = cairo_create (surface);
  L.total_pages = total;
  L.heading_page = g_memdup2 (pages, MAX (nb_document_n_blocks (doc), 1) * sizeof (int));
  L.tables = tables;
  L.words_w = words_w;
  render (&L);
  g_clear_object (&L.pango);
  cairo_destroy (L.cr);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  g_free (L.heading_page);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
