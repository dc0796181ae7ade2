#include "nb-reason-dialog.h"

#include <glib/gi18n.h>

/* The action's response id, on the dialog. */
#define ACTION_KEY "nb-reason-action"

char *
nb_reason_dialog_get_reason (AdwMessageDialog *dialog)
{
  GtkWidget *entry = adw_message_dialog_get_extra_child (dialog);

  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));
}

static void
on_reason_changed (GtkEditable *entry, gpointer user_data)
{
  AdwMessageDialog *dialog = user_data;
  g_autofree char *text = nb_reason_dialog_get_reason (dialog);

  adw_message_dialog_set_response_enabled (dialog, g_object_get_data (G_OBJECT (dialog),
                                                                      ACTION_KEY),
                                           text[0] != '\0');
}

AdwMessageDialog *
nb_reason_dialog_new (GtkWidget *parent, const char *heading, const char *body,
                      const char *entry_name, const char *placeholder, const char *action_id,
                      const char *action_label, AdwResponseAppearance appearance)
{
  GtkRoot *root = gtk_widget_get_root (parent);
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (
    adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, body));
  GtkWidget *entry = gtk_entry_new ();

  g_object_set_data_full (G_OBJECT (dialog), ACTION_KEY, g_strdup (action_id), g_free);
  if (entry_name != NULL)
    gtk_widget_set_name (entry, entry_name);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), placeholder);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  adw_message_dialog_set_extra_child (dialog, entry);
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), action_id, action_label,
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, action_id, appearance);
  adw_message_dialog_set_response_enabled (dialog, action_id, FALSE);
  adw_message_dialog_set_default_response (dialog, action_id);
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect (entry, "changed", G_CALLBACK (on_reason_changed), dialog);
  return dialog;
}
