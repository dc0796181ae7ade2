#include "nb-figure-rows.h"

#include "nb-clause.h"
#include "nb-json-writer.h"

#include <glib/gi18n.h>

const char *
nb_outcome_text (NbTrialOutcome outcome)
{
  switch (outcome)
    {
    case NB_TRIAL_OK:
      return _("ok");
    case NB_TRIAL_FAILED:
      return _("failed");
    case NB_TRIAL_ABORTED:
      return _("aborted");
    case NB_TRIAL_INCOMPLETE:
      return _("incomplete");
    case NB_TRIAL_RUNNING:
    default:
      return _("running");
    }
}

JsonNode *
nb_figures_json (const NbConfigResult *r)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  g_autofree char *json = NULL;
  JsonNode *root;

  nb_json_begin_object (w);
  nb_config_result_json (w, r);
  nb_json_end_object (w);
  json = nb_json_writer_finish (g_steal_pointer (&w));
  root = json_from_string (json, NULL);
  if (root != NULL && !JSON_NODE_HOLDS_OBJECT (root))
    g_clear_pointer (&root, json_node_unref);
  return root;
}

char *
nb_figure_title (const char *title, const char *unit)
{
  return unit != NULL ? g_strdup_printf ("%s, %s", title, unit) : g_strdup (title);
}

void
nb_figure_row_attach (GtkGrid *grid, int row, GtkWidget *name, GtkWidget *value, int name_chars)
{
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_wrap (GTK_LABEL (name), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (name), name_chars);
  gtk_label_set_xalign (GTK_LABEL (value), 1);
  gtk_widget_add_css_class (value, "numeric");
  gtk_grid_attach (grid, name, 0, row, 1, 1);
  gtk_grid_attach (grid, value, 1, row, 1, 1);
}

typedef struct {
  int width_chars, max_chars;
} LabelItems;

static void
setup_label_item (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  const LabelItems *li = user_data;
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (li->width_chars > 0)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), li->max_chars);
      gtk_label_set_width_chars (GTK_LABEL (label), li->width_chars);
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_label_item (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  const char *text = gtk_string_object_get_string (gtk_list_item_get_item (item));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
  gtk_widget_set_tooltip_text (gtk_list_item_get_child (item), text);
}

GtkListItemFactory *
nb_label_item_factory_new (int width_chars, int max_chars)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  LabelItems *li = g_new (LabelItems, 1);

  li->width_chars = width_chars;
  li->max_chars = max_chars;
  g_signal_connect_data (factory, "setup", G_CALLBACK (setup_label_item), li,
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_label_item), NULL);
  return factory;
}
