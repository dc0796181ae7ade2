/* nb-reason-dialog.h — the window's question "why?" before a change the
 * event log keeps with its reason
 *
 * One dialog for every such change (a configuration taken out of scope on
 * the Overview, a map corner moved on the Trials page): the question, an
 * entry for the reason, Cancel and the action, the action enabled only
 * while the reason is not blank (the store refuses an edit without one;
 * the window does not offer it), Enter the action, Esc Cancel.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* A dialog over parent's window (not shown yet: connect to "response",
 * then gtk_window_present).  The entry is its extra child, named
 * entry_name (NULL: unnamed), with placeholder; responses "cancel" and
 * action_id (labelled action_label, with appearance). */
AdwMessageDialog *nb_reason_dialog_new (GtkWidget *parent, const char *heading, const char *body,
                                        const char *entry_name, const char *placeholder,
                                        const char *action_id, const char *action_label,
                                        AdwResponseAppearance appearance);
/* The reason typed, without the blanks around it (new string). */
char *nb_reason_dialog_get_reason (AdwMessageDialog *dialog);

G_END_DECLS
