/* What the window's tests share: the window on a scratch campaign, widget
 * lookup, settling, screenshots. */
#include "nb-test-gui.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "nb-campaign.h"
#include "nb-gui-paths.h"
#include "nb-test-tmp.h"

void
nb_test_gui_init (NbTestGuiApp *gui, int *argc, char ***argv, const char *db_name,
                  void (*prepare) (const char *dir))
{
  g_autofree char *data = NULL;

  memset (gui, 0, sizeof *gui);
  setlocale (LC_ALL, "");
  /* Before GLib reads XDG_DATA_HOME. */
  gui->dir = nb_test_make_dir ();
  data = g_build_filename (gui->dir, "xdg-data", NULL);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  if (prepare != NULL)
    prepare (gui->dir);
  gtk_test_init (argc, argv, NULL);
  bindtextdomain (GETTEXT_PACKAGE, nb_gui_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  gui->db = g_build_filename (gui->dir, db_name, NULL);
}

void
nb_test_gui_new_window (NbTestGuiApp *gui)
{
  g_autoptr (GError) error = NULL;

  gui->app = nb_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (gui->app), NULL, &error));
  g_assert_no_error (error);
  gui->window = nb_window_new (GTK_APPLICATION (gui->app));
}

void
nb_test_gui_open (NbTestGuiApp *gui)
{
  gtk_window_present (GTK_WINDOW (gui->window));
  nb_window_open_campaign (gui->window, gui->db);
  nb_test_gui_iterate_until (nb_test_gui_idle, gui->window, 60);
  g_assert_cmpstr (nb_window_get_campaign_path (gui->window), ==, gui->db);
}

int
nb_test_gui_finish (NbTestGuiApp *gui, int status)
{
  if (gui->window != NULL)
    gtk_window_destroy (GTK_WINDOW (gui->window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&gui->app);
  nb_test_remove_dir (gui->dir);
  g_clear_pointer (&gui->dir, g_free);
  g_clear_pointer (&gui->db, g_free);
  return status;
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

void
nb_test_gui_iterate_until (gboolean (*done) (gpointer), gpointer data, double seconds)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  /* What a worker sets without waking the main context is seen all the
   * same. */
  guint waker = g_timeout_add (10, wake, NULL);

  while (!done (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("still waiting after %.0f s", seconds);
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (waker);
}

gboolean
nb_test_gui_idle (gpointer window)
{
  return nb_window_get_pending (NB_WINDOW (window)) == 0;
}

GtkWidget *
nb_test_gui_lookup (NbWindow *window, const char *name)
{
  GtkWidget *w = nb_window_lookup (window, name);

  if (w == NULL)
    g_error ("no widget named %s", name);
  return w;
}

void
nb_test_gui_show_page (NbWindow *window, const char *page)
{
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (nb_test_gui_lookup (window, "pages")),
                                         page);
  nb_test_gui_settle (150);
  nb_test_gui_iterate_until (nb_test_gui_idle, window, 60);
  nb_test_gui_settle (150);
}

char *
nb_test_gui_stored_field (const char *db, const char *key)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  char *v;

  g_assert_no_error (error);
  v = nb_campaign_get_field (c, key, &error);
  g_assert_no_error (error);
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  return v;
}

void
nb_test_gui_select_clause (NbWindow *window, guint clause)
{
  GtkDropDown *d = GTK_DROP_DOWN (nb_test_gui_lookup (window, "run-clause"));
  GListModel *items = gtk_drop_down_get_model (d);
  g_autofree char *prefix = g_strdup_printf ("%u — ", clause);

  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr (GtkStringObject) item = g_list_model_get_item (items, i);

      if (g_str_has_prefix (gtk_string_object_get_string (item), prefix))
        {
          gtk_drop_down_set_selected (d, i);
          return;
        }
    }
  g_error ("the clause drop-down offers no clause %u", clause);
}

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

GtkWidget *
nb_test_gui_find_type (GtkWidget *widget, const char *type_name)
{
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), type_name))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = nb_test_gui_find_type (c, type_name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

void
nb_test_gui_dismiss_toasts (GtkWidget *window)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  GtkWidget *toast;

  while ((toast = nb_test_gui_find_type (window, "AdwToastWidget")) != NULL)
    {
      GtkWidget *button = nb_test_gui_find_type (toast, "GtkButton");

      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      if (button != NULL)
        g_signal_emit_by_name (button, "clicked");
      for (int i = 0; i < 40; i++)
        {
          g_main_context_iteration (NULL, FALSE);
          g_usleep (10000);
        }
    }
}

/* The widget's render node as last drawn (NULL when it has none). */
static GskRenderNode *
last_drawn (GtkWidget *w)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (w);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();

  /* At the paintable's own size, the widget's bounds: a window's include
   * its CSD shadow, 10 px more than its allocation each way, and drawn
   * into the allocation's size they were scaled by about 0.99 — text a
   * fraction of a pixel off and each line of a text view losing its top
   * pixel row to the line's clip (the motion log at 1024×600). */
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot),
                          gdk_paintable_get_intrinsic_width (paintable),
                          gdk_paintable_get_intrinsic_height (paintable));
  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

typedef struct {
  GtkWidget *widget;
  GskRenderNode *node;
} Drawn;

static void
after_paint (GdkFrameClock *clock, gpointer data)
{
  Drawn *d = data;

  if (d->node == NULL)
    d->node = last_drawn (d->widget);
}

/* What the widget shows.  A widget paintable draws the widget's render
 * node of its last frame, and a redraw queued since (a run in flight
 * updating a label) has dropped that node: the paintable is then empty
 * ("'node' should not be NULL" in the ISO 9283 screenshot of a running
 * plan at load 16).  Then the node is taken as the next frame is painted
 * (its after-paint), before anything can queue another redraw. */
static GskRenderNode *
drawn_node (GtkWidget *w)
{
  Drawn d = { w, last_drawn (w) };

  if (d.node == NULL)
    {
      GdkFrameClock *clock = gtk_widget_get_frame_clock (w);
      gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
      gulong id;

      g_assert_nonnull (clock);
      id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint), &d);
      gtk_widget_queue_draw (w);
      while (d.node == NULL && g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, TRUE);
      g_signal_handler_disconnect (clock, id);
    }
  g_assert_nonnull (d.node);
  return d.node;
}

GdkTexture *
nb_test_gui_render (GtkWidget *w)
{
  g_autoptr (GskRenderNode) node = drawn_node (w);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (w);
  int width = gdk_paintable_get_intrinsic_width (paintable);
  int height = gdk_paintable_get_intrinsic_height (paintable);

  return gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (w)), node,
                                      &GRAPHENE_RECT_INIT (0, 0, width, height));
}

void
nb_test_gui_save_png (GtkWidget *w, const char *dir, const char *file)
{
  g_autoptr (GdkTexture) texture = nb_test_gui_render (w);
  g_autofree char *path = g_build_filename (dir, file, NULL);

  g_assert_true (gdk_texture_save_to_png (texture, path));
}

/* The window's surface (its allocation and the CSD shadow) at width × height. */
static gboolean
sized (GtkWindow *window, int width, int height)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (window));

  return gdk_paintable_get_intrinsic_width (paintable) == width &&
         gdk_paintable_get_intrinsic_height (paintable) == height;
}

void
nb_test_gui_set_size (GtkWindow *window, int width, int height)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  gtk_window_set_default_size (window, width, height);
  while (!sized (window, width, height) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
}

static const int shot_sizes[][2] = { { 1280, 800 }, { 1024, 600 } };

static void
collect_ellipsized (GtkWidget *w, GStrvBuilder *found)
{
  /* A toast comes and goes (and libadwaita 1.2 shortens its title by
   * design); closing it from a test risks its double unref. */
  if (!gtk_widget_get_mapped (w) || GTK_IS_DROP_DOWN (w) ||
      g_str_equal (G_OBJECT_TYPE_NAME (w), "AdwToastWidget"))
    return;
  if (GTK_IS_LABEL (w) && gtk_label_get_ellipsize (GTK_LABEL (w)) != PANGO_ELLIPSIZE_NONE &&
      pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (w))))
    {
      GtkWidget *named = w;
      g_autofree char *what = NULL;

      /* The nearest widget with a name of its own (GTK names the rest by type). */
      while (named != NULL && g_str_equal (gtk_widget_get_name (named), G_OBJECT_TYPE_NAME (named)))
        named = gtk_widget_get_parent (named);
      what = g_strdup_printf ("\"%s\" (in %s, %s)", gtk_label_get_text (GTK_LABEL (w)),
                              G_OBJECT_TYPE_NAME (gtk_widget_get_parent (w)),
                              named ? gtk_widget_get_name (named) : "-");
      g_strv_builder_add (found, what);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    collect_ellipsized (c, found);
}

GStrv
nb_test_gui_ellipsized (GtkWidget *widget)
{
  g_autoptr (GStrvBuilder) found = g_strv_builder_new ();

  collect_ellipsized (widget, found);
  return g_strv_builder_end (found);
}

void
nb_test_gui_assert_nothing_ellipsized (GtkWindow *window, const char *const *pages,
                                       NbTestGuiShowFunc show, gpointer user_data)
{
  g_autoptr (GString) cut = g_string_new (NULL);

  for (guint s = 0; s < G_N_ELEMENTS (shot_sizes); s++)
    {
      nb_test_gui_set_size (window, shot_sizes[s][0], shot_sizes[s][1]);
      for (guint p = 0; pages[p] != NULL; p++)
        {
          g_auto (GStrv) found = NULL;

          show (pages[p], user_data);
          found = nb_test_gui_ellipsized (GTK_WIDGET (window));
          for (guint i = 0; found[i] != NULL; i++)
            g_string_append_printf (cut, "\n  %s at %dx%d: %s", pages[p], shot_sizes[s][0],
                                    shot_sizes[s][1], found[i]);
        }
    }
  if (cut->len > 0)
    g_error ("labels cut short with an ellipsis:%s", cut->str);
}

void
nb_test_gui_screenshots (GtkWindow *window, const char *const *pages, NbTestGuiShotFunc shot,
                         gpointer user_data)
{
  const int (*sizes)[2] = shot_sizes;
  const char *lang = nb_gui_ui_language ();
  AdwStyleManager *style = adw_style_manager_get_default ();

  for (guint s = 0; s < G_N_ELEMENTS (shot_sizes); s++)
    {
      nb_test_gui_set_size (window, sizes[s][0], sizes[s][1]);
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
