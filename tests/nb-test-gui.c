/* What the window's tests share: widget lookup, settling, screenshots. */
#include "nb-test-gui.h"

#include <adwaita.h>

#include "nb-gui-paths.h"

GtkWidget *
nb_test_gui_find (GtkWidget *widget, const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = nb_test_gui_find (c, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

void
nb_test_gui_settle (guint pause_ms)
{
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  g_usleep (pause_ms * 1000);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

void
nb_test_gui_save_png (GtkWidget *w, const char *dir, const char *file)
{
  int width = gtk_widget_get_width (w), height = gtk_widget_get_height (w);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (w);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *path = g_build_filename (dir, file, NULL);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (w)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

static gboolean
sized (GtkWindow *window, int width, int height)
{
  return gtk_widget_get_width (GTK_WIDGET (window)) == width &&
         gtk_widget_get_height (GTK_WIDGET (window)) == height;
}

void
nb_test_gui_screenshots (GtkWindow *window, const char *const *pages, NbTestGuiShotFunc shot,
                         gpointer user_data)
{
  static const int sizes[][2] = { { 1280, 800 }, { 1024, 600 } };
  const char *lang = nb_gui_ui_language ();
  AdwStyleManager *style = adw_style_manager_get_default ();

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

      gtk_window_set_default_size (window, sizes[s][0], sizes[s][1]);
      while (!sized (window, sizes[s][0], sizes[s][1]) && g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, FALSE);
      for (guint dark = 0; dark < 2; dark++)
        {
          adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                                          : ADW_COLOR_SCHEME_FORCE_LIGHT);
          for (guint p = 0; pages[p] != NULL; p++)
            {
              g_autofree char *name = g_strdup_printf ("%s-%s-%s-%dx%d.png", pages[p], lang,
                                                       dark ? "dark" : "light", sizes[s][0],
                                                       sizes[s][1]);

              shot (pages[p], name, user_data);
            }
        }
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}
