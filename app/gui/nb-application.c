#include "nb-application.h"

#include "nb-window.h"

#include <glib/gi18n.h>

struct _NbApplication {
  GtkApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (NbApplication, nb_application, GTK_TYPE_APPLICATION)

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

  /* Closing a window cancels its run; the application stays until the
   * runner has recorded the trial in flight (nb-trials-page.c). */
  while (windows != NULL)
    {
      GList *next = windows->next;

      gtk_window_destroy (windows->data);
      windows = next;
    }
}

static void
nb_application_startup (GApplication *app)
{
  static const GActionEntry actions[] = { { "quit", action_quit } };
  const char *quit[] = { "<Control>q", NULL };
  const char *open[] = { "<Control>o", NULL };
  const char *create[] = { "<Control>n", NULL };

  G_APPLICATION_CLASS (nb_application_parent_class)->startup (app);
  g_action_map_add_action_entries (G_ACTION_MAP (app), actions, G_N_ELEMENTS (actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.open", open);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.new", create);
  g_set_application_name (_("navbench"));
  /* The default theme of GTK 4.8 gives .warning no colour: an out-of-range
   * clause-4 value must stand out as it does in the protocol (its red
   * cells), a refused value as an error. */
  {
    g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();

    gtk_css_provider_load_from_data (css, "label.warning { color: #9c4400; }\n"
                                          "label.error { color: #c01c28; }\n", -1);
    gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                                GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }
}

static void
nb_application_init (NbApplication *app)
{
}

static void
nb_application_class_init (NbApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

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
