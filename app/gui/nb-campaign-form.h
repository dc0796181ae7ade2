/* nb-campaign-form.h — the Campaign page: the robot under test, the test
 * conditions and the instrument as an editable form
 *
 * The rows come from nb_campaign_fields () (one place for the field list);
 * an editor commits on Enter, on leaving it or on a choice, through
 * nb_campaign_set_field in the window's I/O queue.  A value the store refuses
 * shows the store's message; a clause 4 value outside its range is kept and
 * flagged with the protocol's words (nb_condition_check).
 */
#pragma once

#include <gtk/gtk.h>

#include "nb-io-queue.h"

G_BEGIN_DECLS

/* The form's widest, in px (an AdwClamp). */
#define NB_CAMPAIGN_FORM_WIDTH 760

#define NB_TYPE_CAMPAIGN_FORM (nb_campaign_form_get_type ())
G_DECLARE_FINAL_TYPE (NbCampaignForm, nb_campaign_form, NB, CAMPAIGN_FORM, GtkWidget)

GtkWidget *nb_campaign_form_new (NbIoQueue *queue);
/* Loads the fields of path (NULL: none, the form empty and insensitive). */
void       nb_campaign_form_set_campaign (NbCampaignForm *form, const char *path);
/* The editor of a field (a GtkEntry, or a GtkDropDown for yes/no and
 * indoor/outdoor), and the line under it (error or flag; hidden when none). */
GtkWidget *nb_campaign_form_get_editor (NbCampaignForm *form, const char *key);
GtkWidget *nb_campaign_form_get_note   (NbCampaignForm *form, const char *key);

G_END_DECLS
