#include "nb-preferences-window.h"

#include "nb-gui-paths.h"

#include <glib/gi18n.h>

/* The rows' items, in the order of their GSettings values. */
static const char *const language_values[] = { "", "ru", "en" };
static const char *const style_values[] = { "default", "light", "dark" };

struct _NbPreferencesWindow {
  AdwPreferencesWindow parent_instance;
  AdwComboRow *language_row, *style_row;
  GSettings *settings;
};

G_DEFINE_FINAL_TYPE (NbPreferencesWindow, nb_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static guint
index_of (const char *const *values, guint n, const char *value)
{
  for (guint i = 0; i < n; i++)
    if (g_str_equal (values[i], value))
      return i;
  return 0;
}

static void
on_language (GObject *row, GParamSpec *pspec, gpointer user_data)
{
  NbPreferencesWindow *self = user_data;
  guint k = adw_combo_row_get_selected (self->language_row);

  g_settings_set_string (self->settings, "protocol-language",
                         language_values[MIN (k, G_N_ELEMENTS (language_values) - 1)]);
}

static void
on_style (GObject *row, GParamSpec *pspec, gpointer user_data)
{
  NbPreferencesWindow *self = user_data;
  guint k = adw_combo_row_get_selected (self->style_row);

  g_settings_set_string (self->settings, "style",
                         style_values[MIN (k, G_N_ELEMENTS (style_values) - 1)]);
}

static void
nb_preferences_window_init (NbPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

static void
nb_preferences_window_dispose (GObject *object)
{
  NbPreferencesWindow *self = NB_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), NB_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (nb_preferences_window_parent_class)->dispose (object);
}

static void
nb_preferences_window_class_init (NbPreferencesWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = nb_preferences_window_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/navbench/Navbench/nb-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, NbPreferencesWindow, language_row);
  gtk_widget_class_bind_template_child (widget_class, NbPreferencesWindow, style_row);
}

NbPreferencesWindow *
nb_preferences_window_new (GtkWindow *parent, GSettings *settings)
{
  NbPreferencesWindow *self = g_object_new (NB_TYPE_PREFERENCES_WINDOW, "transient-for", parent,
                                            NULL);
  g_autofree char *language = g_settings_get_string (settings, "protocol-language");
  g_autofree char *style = g_settings_get_string (settings, "style");
  g_autofree char *same = NULL;
  g_autoptr (GtkStringList) languages = NULL;

  self->settings = g_object_ref (settings);
  /* TRANSLATORS: %s is the window's language (Russian or English). */
  same = g_strdup_printf (_("As the window (%s)"),
                          g_str_equal (nb_gui_ui_language (), "ru") ? _("Russian") : _("English"));
  languages = gtk_string_list_new ((const char *[]) { same, _("Russian"), _("English"), NULL });
  adw_combo_row_set_model (self->language_row, G_LIST_MODEL (languages));
  adw_combo_row_set_selected (self->language_row,
                              index_of (language_values, G_N_ELEMENTS (language_values), language));
  adw_combo_row_set_selected (self->style_row,
                              index_of (style_values, G_N_ELEMENTS (style_values), style));
  g_signal_connect_object (self->language_row, "notify::selected", G_CALLBACK (on_language), self,
                           0);
  g_signal_connect_object (self->style_row, "notify::selected", G_CALLBACK (on_style), self, 0);
  return self;
}
