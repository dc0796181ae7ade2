/* reports/: the PDF writer and the plots.  The PDF's text is read back with
 * pdftotext (poppler-utils): headings, the contents with page numbers, a
 * table whose header repeats after a page break, Cyrillic, "N / M" footers.
 * NB_KEEP_PDF=DIR keeps the PDF for a look (pdftoppm -png -r 80). */
#include "nb-document.h"
#include "nb-pdf.h"
#include "nb-plot.h"
#include "nb-test.h"

#include <fontconfig/fontconfig.h>
#include <glib/gstdio.h>
#include <pango/pangocairo.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  double x[30], y[30];
} Scatter;

static void
draw_scatter (cairo_t *cr, double w, double h, gpointer data)
{
  Scatter *s = data;
  NbPlot p;

  nb_plot_begin (&p, cr, w / 4, 0, w / 2, h, -6, 6, -6, 6, TRUE, "x − x_c, мм", "y − y_c, мм");
  nb_plot_points (&p, s->x, s->y, 30, 1.6, 0.1, 0.3, 0.7);
  nb_plot_marker (&p, 0, 0, "command", 0.8, 0.1, 0.1);
  nb_plot_circle (&p, 1.0, -0.5, 4.2, 0.1, 0.5, 0.1, TRUE);
}

static char *
pdf_text (const char *pdf)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  const char *argv[] = { "pdftotext", "-layout", pdf, "-", NULL };
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
                               &err, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  return g_steal_pointer (&out);
}

static guint
count (const char *haystack, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p; p = strstr (p + 1, needle))
    n++;
  return n;
}

static void
test_pdf_document (void)
{
  g_autoptr (NbDocument) doc = nb_document_new ("Протокол испытаний — ISO 18646-2");
  g_autofree char *dir = g_dir_make_tmp ("nb-pdf-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (g_getenv ("NB_KEEP_PDF") ? g_getenv ("NB_KEEP_PDF") : dir,
                                            "protocol.pdf", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GRand) rand = g_rand_new_with_seed (3);
  NbPdfWords ru = { "Содержание", "Рисунок", "Таблица", "Страница %d из %d" };
  Scatter *s = g_new (Scatter, 1);
  NbTable *t;
  GError *error = NULL;

  nb_document_set_identifier (doc, "NB-2026-017, редакция 2");
  nb_document_add_title_field (doc, "Робот", "Rover 2, s/n 17");
  nb_document_add_title_field (doc, "Оператор", "И. Иванов");
  nb_document_add_heading (doc, 1, "4", "Условия испытаний");
  nb_document_add_paragraph (doc, "Температура 21 °C, влажность 45 %, освещённость 300 лк.");
  nb_document_add_warning (doc, "Коэффициент трения 0,55 вне диапазона 0,6–1,0 (4.3).");
  nb_document_add_heading (doc, 1, "5", "Характеристики отработки пространственного расположения");

  t = nb_table_new ("Таблица 1 — Погрешность и повторяемость");
  nb_table_add_column (t, "config", "Конфигурация", NULL, 0);
  nb_table_add_column (t, "ap_mm", "Погрешность отработки позиции Ap", "мм", 2);
  nb_table_add_column (t, "rp_mm", "Rp", "мм", 2);
  for (guint r = 0; r < 70; r++)
    {
      g_autofree char *name = g_strdup_printf ("конфигурация %02u", r + 1);

      nb_table_add_row (t);
      nb_table_set_text (t, r, 0, name);
      nb_table_set_number (t, r, 1, 1.0 + r / 100.0);
      nb_table_set_number (t, r, 2, 2.5 + r);
    }
  nb_table_flag_cell (t, 3, 2);
  nb_table_add_note (t, "Примечание: 12 попыток вместо 30 (5.4).");
  nb_document_add_table (doc, t);

  for (int j = 0; j < 30; j++)
    {
      s->x[j] = 1.0 + g_rand_double_range (rand, -2, 2);
      s->y[j] = -0.5 + g_rand_double_range (rand, -2, 2);
    }
  nb_document_add_heading (doc, 2, "5.2", "Рассеяние фактических позиций");
  nb_document_add_figure (doc, 80, draw_scatter, s, g_free, "фактические позиции и окружность Rp");

  g_assert_true (nb_pdf_write (doc, &ru, path, &error));
  g_assert_no_error (error);
  text = pdf_text (path);

  g_assert_nonnull (strstr (text, "Протокол испытаний — ISO 18646-2"));
  g_assert_nonnull (strstr (text, "Rover 2, s/n 17"));
  g_assert_nonnull (strstr (text, "Содержание"));
  g_assert_nonnull (strstr (text, "Условия испытаний"));
  g_assert_nonnull (strstr (text, "Коэффициент трения 0,55"));
  g_assert_nonnull (strstr (text, "конфигурация 70"));
  g_assert_nonnull (strstr (text, "71.50"));
  g_assert_nonnull (strstr (text, "Рисунок 1 — фактические позиции"));
  g_assert_nonnull (strstr (text, "Примечание: 12 попыток"));
  /* 70 rows do not fit one page: the header is drawn again. */
  g_assert_cmpuint (count (text, "Конфигурация"), >=, 2);
  /* Title, contents, clause 4, the table over three pages: every page, the
   * title page too, "Страница N из 6" and the identifier (ISO/IEC 17025
   * 7.8.2.1 d; pdftotext may drop the spaces). */
  {
    g_auto (GStrv) pages = g_strsplit (text, "\f", -1);

    g_assert_cmpuint (g_strv_length (pages), ==, 7);   /* the text ends with a form feed */
    for (guint k = 0; k < 6; k++)
      {
        g_auto (GStrv) words = g_strsplit_set (pages[k], " \n", -1);
        g_autofree char *joined = g_strjoinv ("", words);
        g_autofree char *want = g_strdup_printf ("Страница%uиз6", k + 1);

        g_assert_nonnull (strstr (joined, want));
        g_assert_nonnull (strstr (joined, "NB-2026-017,редакция2"));
      }
  }
  if (!g_getenv ("NB_KEEP_PDF"))
    g_unlink (path);
  g_rmdir (dir);
}

static void
test_nice_step (void)
{
  nb_assert_abs (nb_plot_nice_step (10, 5), 2, 1e-12, "10/5");
  nb_assert_abs (nb_plot_nice_step (7.3, 6), 1, 1e-12, "7.3/6");
  nb_assert_abs (nb_plot_nice_step (0.03, 6), 0.005, 1e-15, "0.03/6");
  nb_assert_abs (nb_plot_nice_step (5000, 6), 1000, 1e-9, "5000/6");
  nb_assert_abs (nb_plot_nice_step (0, 6), 1, 0, "degenerate");
}

/* Decimating a 50 000-point line changes almost no pixel. */
static void
test_plot_decimation (void)
{
  const gsize n = 50000;
  g_autofree double *x = g_new (double, n), *y = g_new (double, n);
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  cairo_surface_t *a = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, 300);
  cairo_surface_t *b = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, 300);
  cairo_t *ca = cairo_create (a), *cb = cairo_create (b);
  NbPlot pa, pb;
  guint differ = 0, inked = 0;

  for (gsize i = 0; i < n; i++)
    {
      x[i] = 5000.0 * i / n;
      y[i] = 10 * sin (x[i] / 500.0) + g_rand_double_range (rand, -1, 1);
    }
  nb_plot_begin (&pa, ca, 0, 0, 600, 300, 0, 5000, -12, 12, FALSE, "s, mm", "d, mm");
  nb_plot_line (&pa, x, y, n, 0.8, 0, 0, 0);
  /* The reference: every point, straight into cairo. */
  nb_plot_begin (&pb, cb, 0, 0, 600, 300, 0, 5000, -12, 12, FALSE, "s, mm", "d, mm");
  cairo_save (cb);
  cairo_rectangle (cb, pb.x0, pb.y0, pb.w, pb.h);
  cairo_clip (cb);
  cairo_set_source_rgb (cb, 0, 0, 0);
  cairo_set_line_width (cb, 0.8);
  cairo_set_line_join (cb, CAIRO_LINE_JOIN_ROUND);
  for (gsize i = 0; i < n; i++)
    cairo_line_to (cb, nb_plot_x (&pb, x[i]), nb_plot_y (&pb, y[i]));
  cairo_stroke (cb);
  cairo_restore (cb);
  cairo_surface_flush (a);
  cairo_surface_flush (b);
  for (int r = 0; r < 300; r++)
    for (int c = 0; c < 600; c++)
      {
        guint32 pa_ = ((guint32 *) (cairo_image_surface_get_data (a) + r * cairo_image_surface_get_stride (a)))[c];
        guint32 pb_ = ((guint32 *) (cairo_image_surface_get_data (b) + r * cairo_image_surface_get_stride (b)))[c];

        inked += (pb_ & 0xffffff) != 0xffffff;
        differ += abs ((int) (pa_ & 0xff) - (int) (pb_ & 0xff)) > 64;
      }
  g_assert_cmpuint (inked, >, 5000);
  if (differ > inked / 50)
    g_error ("decimation changed %u of %u inked pixels", differ, inked);
  cairo_destroy (ca);
  cairo_destroy (cb);
  cairo_surface_destroy (a);
  cairo_surface_destroy (b);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pdf/document", test_pdf_document);
  g_test_add_func ("/plot/nice-step", test_nice_step);
  g_test_add_func ("/plot/decimation", test_plot_decimation);
  status = g_test_run ();
  /* Pango's font map, cairo's and fontconfig's caches are process-wide:
   * released here so LeakSanitizer reports only real leaks. */
  pango_cairo_font_map_set_default (NULL);
  cairo_debug_reset_static_data ();
  FcFini ();
  return status;
}
