#include "nb-application.h"

#include "nb-gui-paths.h"
#include "nb-gui-resources.h"
#include "nb-preferences-window.h"
#include "nb-window.h"

#include <glib/gi18n.h>
#include <locale.h>

struct _NbApplication {
  AdwApplication parent_instance;
  GSettings *settings;
};

G_DEFINE_FINAL_TYPE (NbApplication, nb_application, ADW_TYPE_APPLICATION)

GSettings *
nb_application_get_settings (NbApplication *app)
{
  return app->settings;
}

static void
nb_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (nb_window_new (GTK_APPLICATION (app)));
  gtk_window_present (window);
}

/* `navbench CAMPAIGN.nbc`: a window per campaign. */
static void
nb_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      NbWindow *window = nb_window_new (GTK_APPLICATION (app));
      g_autofree char *path = g_file_get_path (files[i]);

      if (path != NULL)
        nb_window_open_campaign (window, path);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
action_quit (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (user_data));

  /* Closed as by their close buttons: a window with a run asks, then stops
   * it and goes once the trial in flight is recorded aborted (nb-window.c);
   * the application ends with its last window. */
  while (windows != NULL)
    {
      GList *next = windows->next;

      gtk_window_close (windows->data);
      windows = next;
    }
}

static void
action_about (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  const char *developers[] = { _("The navbench developers"), NULL };
  GtkWidget *about = adw_about_window_new ();

  adw_about_window_set_application_name (ADW_ABOUT_WINDOW (about), "navbench");
  adw_about_window_set_application_icon (ADW_ABOUT_WINDOW (about), NB_APPLICATION_ID);
  adw_about_window_set_version (ADW_ABOUT_WINDOW (about), NB_VERSION);
  adw_about_window_set_developer_name (ADW_ABOUT_WINDOW (about), _("The navbench developers"));
  adw_about_window_set_developers (ADW_ABOUT_WINDOW (about), developers);
  adw_about_window_set_comments (ADW_ABOUT_WINDOW (about),
                                 _("The test bench for robot navigation and positioning "
                                   "performance per ISO 18646-2:2024 (GOST R 60.6.3.15-2026)."));
  adw_about_window_set_license_type (ADW_ABOUT_WINDOW (about), GTK_LICENSE_GPL_3_0);
  /* TRANSLATORS: your names, one per line. */
  adw_about_window_set_translator_credits (ADW_ABOUT_WINDOW (about), _("translator-credits"));
  gtk_widget_set_name (about, "about-window");
  if (parent != NULL)
    gtk_window_set_transient_for (GTK_WINDOW (about), parent);
  gtk_window_present (GTK_WINDOW (about));
}

static void
action_preferences (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  NbApplication *app = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (nb_preferences_window_new (parent, app->settings)));
}

static void
action_help (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  g_autofree char *uri = nb_gui_help_uri ();

  gtk_show_uri (parent, uri, GDK_CURRENT_TIME);
}

/* The "style" setting: the desktop's choice unless the user forces one. */
static void
apply_style (GSettings *settings, const char *key, gpointer user_data)
{
  g_autofree char *style = g_settings_get_string (settings, "style");
  AdwColorScheme scheme = g_str_equal (style, "light") ? ADW_COLOR_SCHEME_FORCE_LIGHT
                          : g_str_equal (style, "dark") ? ADW_COLOR_SCHEME_FORCE_DARK
                                                        : ADW_COLOR_SCHEME_DEFAULT;

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), scheme);
}

static void
nb_application_startup (GApplication *app)
{
  NbApplication *self = NB_APPLICATION (app);
  static const GActionEntry actions[] = {
    { "quit", action_quit }, { "about", action_about },
    { "preferences", action_preferences }, { "help", action_help },
  };
  static const struct { const char *action, *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.help", { "F1", NULL } },
    { "win.new", { "<Control>n", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.protocol", { "<Control>e", NULL } },
    /* Esc stops the run and the robot's motion; the action is disabled
     * while nothing runs, so Esc still closes popovers and dialogs. */
    { "win.stop", { "Escape", NULL } },
  };

  G_APPLICATION_CLASS (nb_application_parent_class)->startup (app);
  /* gtk_init (in the startup above) set every category from the
   * environment; numbers go back to C's, as in the CLI.  The libraries
   * write records (a trial's reason, an event's text, a setup's JSON) with
   * printf on whatever thread runs them, and the campaign file must read
   * the same whatever the window's language: under ru_RU.UTF-8 they were
   * written "12,5" (docs/gui.md).  The window's words stay the locale's. */
  setlocale (LC_NUMERIC, "C");
  g_action_map_add_action_entries (G_ACTION_MAP (app), actions, G_N_ELEMENTS (actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action,
                                           accels[i].accels);
  g_set_application_name ("navbench");
  gtk_window_set_default_icon_name (NB_APPLICATION_ID);
  self->settings = nb_gui_settings_new ();
  g_signal_connect_object (self->settings, "changed::style", G_CALLBACK (apply_style), self, 0);
  apply_style (self->settings, "style", self);
}

static void
nb_application_init (NbApplication *app)
{
}

static void
nb_application_dispose (GObject *object)
{
  g_clear_object (&NB_APPLICATION (object)->settings);
  G_OBJECT_CLASS (nb_application_parent_class)->dispose (object);
}

static void
nb_application_class_init (NbApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  /* The resources register themselves when their object is linked: this
   * reference links it out of the static library. */
  (void) nb_gui_get_resource ();
  G_OBJECT_CLASS (klass)->dispose = nb_application_dispose;
  app_class->activate = nb_application_activate;
  app_class->open = nb_application_open;
  app_class->startup = nb_application_startup;
}

NbApplication *
nb_application_new (GApplicationFlags flags)
{
  return g_object_new (NB_TYPE_APPLICATION, "application-id", NB_APPLICATION_ID, "flags",
                       G_APPLICATION_HANDLES_OPEN | flags, NULL);
}
