/* What the window's tests share: widget lookup, settling, screenshots. */
#include "nb-test-gui.h"

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
