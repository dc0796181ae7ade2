#include "nb-campaign-form.h"

#include "nb-campaign.h"
#include "nb-conditions.h"
#include "nb-gui-paths.h"
#include "nb-unc.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

/* The choices of the enumerated field types: the value as the store
 * spells it and its label in words (a msgid); index 0 is unset ("—"). */
typedef struct {
  const char *value, *label, *tooltip;
} Choice;

#define N_CHOICES 3
static const Choice bool_choices[N_CHOICES] = {
  { NULL, NULL, NULL }, { "yes", N_("yes"), NULL }, { "no", N_("no"), NULL },
};
static const Choice environment_choices[N_CHOICES] = {
  { NULL, NULL, NULL }, { "indoor", N_("indoor"), NULL }, { "outdoor", N_("outdoor"), NULL },
};
/* ILAC G8:2019 4.2: the rules nb_decision_rule_parse accepts, by the names
 * nb_decision_rule_name gives them (filled once: decision_choices_get). */
static Choice decision_choices[N_CHOICES];

typedef struct {
  NbCampaignForm *form;         /* not owned */
  const NbCampaignField *field;
  GtkWidget *editor, *note;
  char *saved;                  /* the value in the file; NULL when unset */
  char *error;                  /* the store's refusal of the last edit */
} Row;

struct _NbCampaignForm {
  GtkWidget parent_instance;
  GtkWidget *scroller;
  NbIoQueue *queue;
  char *path;
  GPtrArray *rows;              /* of Row, in nb_campaign_fields () order */
  gboolean filling;             /* editors set from the file: not edits */
  guint generation;             /* loads of an earlier campaign are dropped */
  gboolean loaded;              /* the editors hold the file's values */
};

G_DEFINE_FINAL_TYPE (NbCampaignForm, nb_campaign_form, GTK_TYPE_WIDGET)

static void
row_free (gpointer p)
{
  Row *row = p;

  g_free (row->saved);
  g_free (row->error);
  g_free (row);
}

static const Choice *
choices_of (NbFieldType type)
{
  if (type == NB_FIELD_DECISION_RULE && decision_choices[1].value == NULL)
    {
      decision_choices[1] = (Choice) {
        nb_decision_rule_name (NB_DECISION_SIMPLE), N_("Simple acceptance (w = 0)"),
        N_("ILAC G8:2019 4.2.1: the figure against the declared value, no guard band") };
      decision_choices[2] = (Choice) {
        nb_decision_rule_name (NB_DECISION_GUARDED), N_("Guarded acceptance (w = U)"),
        N_("ILAC G8:2019 4.2.2: conforms when the whole interval y ± U is within the declared "
           "value, does not when it is wholly outside, else inconclusive") };
    }
  return type == NB_FIELD_BOOL ? bool_choices
         : type == NB_FIELD_ENVIRONMENT ? environment_choices
         : type == NB_FIELD_DECISION_RULE ? decision_choices : NULL;
}

static Row *
find_row (NbCampaignForm *form, const char *key)
{
  for (guint i = 0; i < form->rows->len; i++)
    {
      Row *row = g_ptr_array_index (form->rows, i);

      if (g_str_equal (row->field->key, key))
        return row;
    }
  return NULL;
}

/* The editor's value; NULL when empty or unset. */
static char *
editor_value (Row *row)
{
  const Choice *choices = choices_of (row->field->type);

  if (choices != NULL)
    {
      guint i = gtk_drop_down_get_selected (GTK_DROP_DOWN (row->editor));

      return i < N_CHOICES ? g_strdup (choices[i].value) : NULL;
    }
  {
    g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row->editor))));

    return text[0] != '\0' ? g_steal_pointer (&text) : NULL;
  }
}

static void
set_editor (Row *row, const char *value)
{
  const Choice *choices = choices_of (row->field->type);

  if (choices != NULL)
    {
      guint selected = 0;
      NbDecisionRule rule;

      /* A rule stored by another of its names ("simple", "guarded"). */
      if (row->field->type == NB_FIELD_DECISION_RULE && value != NULL &&
          nb_decision_rule_parse (value, &rule, NULL))
        value = nb_decision_rule_name (rule);
      for (guint i = 1; i < N_CHOICES; i++)
        if (g_strcmp0 (choices[i].value, value) == 0)
          selected = i;
      gtk_drop_down_set_selected (GTK_DROP_DOWN (row->editor), selected);
      gtk_widget_set_tooltip_text (row->editor, choices[selected].tooltip
                                                ? _(choices[selected].tooltip) : NULL);
    }
  else
    gtk_editable_set_text (GTK_EDITABLE (row->editor), value ? value : "");
}

static gboolean
outdoor (NbCampaignForm *form)
{
  Row *env = find_row (form, "conditions.environment");

  return env != NULL && g_strcmp0 (env->saved, "outdoor") == 0;
}

/* The line under a row: the store's refusal, else the clause 4 flag the
 * protocol would raise for the saved value. */
static void
update_note (Row *row)
{
  g_autofree char *flag = NULL;
  GtkWidget *note = row->note;

  if (row->error == NULL && row->saved != NULL && nb_condition_range (row->field->key) != NULL)
    {
      char *end = NULL;
      double v = g_ascii_strtod (row->saved, &end);

      if (end != row->saved)
        flag = nb_condition_check (nb_gui_catalogue (nb_gui_ui_language (), NULL), row->field->key,
                                   v, outdoor (row->form));
    }
  gtk_widget_remove_css_class (note, "error");
  gtk_widget_remove_css_class (note, "warning");
  if (row->error != NULL)
    {
      gtk_label_set_text (GTK_LABEL (note), row->error);
      gtk_widget_add_css_class (note, "error");
    }
  else if (flag != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Out of range: %s; the value is accepted and "
                                                 "flagged."), flag);

      gtk_label_set_text (GTK_LABEL (note), text);
      gtk_widget_add_css_class (note, "warning");
    }
  gtk_widget_set_visible (note, row->error != NULL || flag != NULL);
}

static void
update_all_notes (NbCampaignForm *form)
{
  for (guint i = 0; i < form->rows->len; i++)
    update_note (g_ptr_array_index (form->rows, i));
}

/* ------------------------------------------------------------ saving -- */

typedef struct {
  char *path, *key, *value;
} SetJob;

static void
set_job_free (gpointer p)
{
  SetJob *job = p;

  g_free (job->path);
  g_free (job->key);
  g_free (job->value);
  g_free (job);
}

static gboolean
set_field (NbCampaign *campaign, gpointer data, GError **error)
{
  SetJob *job = data;

  return nb_campaign_set_field (campaign, job->key, job->value, error);
}

static gpointer
set_work (gpointer data, GError **error)
{
  return nb_io_change_campaign (((SetJob *) data)->path, set_field, data, error);
}

static void
set_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbCampaignForm *form = NB_CAMPAIGN_FORM (owner);
  SetJob *job = data;
  Row *row;

  if (g_strcmp0 (job->path, form->path) != 0 || (row = find_row (form, job->key)) == NULL)
    return;
  g_clear_pointer (&row->error, g_free);
  if (error != NULL)
    row->error = g_strdup (error->message);
  else
    {
      g_free (row->saved);
      row->saved = g_strdup (job->value);
    }
  if (g_str_equal (job->key, "conditions.environment"))
    update_all_notes (form);
  else
    update_note (row);
}

static void
commit (Row *row)
{
  NbCampaignForm *form = row->form;
  g_autofree char *value = NULL;
  SetJob *job;

  /* Editors lose focus when the form turns insensitive for a load: what
   * they hold then is not an edit of the campaign being loaded. */
  if (form->filling || !form->loaded || form->path == NULL)
    return;
  value = editor_value (row);
  /* The store has no "unset": an emptied editor keeps the file's value. */
  if (value != NULL && g_strcmp0 (value, row->saved) == 0)
    {
      /* Back to the file's value: an earlier refusal no longer applies. */
      g_clear_pointer (&row->error, g_free);
      update_note (row);
      return;
    }
  if (value == NULL)
    {
      if (value == NULL && row->saved != NULL && row->error == NULL)
        {
          form->filling = TRUE;
          set_editor (row, row->saved);
          form->filling = FALSE;
        }
      return;
    }
  job = g_new0 (SetJob, 1);
  job->path = g_strdup (form->path);
  job->key = g_strdup (row->field->key);
  job->value = g_steal_pointer (&value);
  nb_io_queue_push (form->queue, G_OBJECT (form), set_work, set_done, job, set_job_free, NULL);
}

static void
on_entry_activate (GtkEntry *entry, gpointer user_data)
{
  commit (user_data);
}

static void
on_focus_leave (GtkEventControllerFocus *controller, gpointer user_data)
{
  commit (user_data);
}

static void
on_drop_down_selected (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  Row *row = user_data;
  const Choice *choices = choices_of (row->field->type);
  guint i = gtk_drop_down_get_selected (GTK_DROP_DOWN (object));

  /* What the rule chosen means (ILAC G8's words). */
  if (choices != NULL && i < N_CHOICES)
    gtk_widget_set_tooltip_text (GTK_WIDGET (object), choices[i].tooltip ? _(choices[i].tooltip)
                                                                         : NULL);
  commit (row);
}

/* ----------------------------------------------------------- loading -- */

static gpointer
load_work (gpointer data, GError **error)
{
  NbLoadJob *job = data;
  g_autoptr (NbCampaign) campaign = nb_campaign_open (job->path, NB_CAMPAIGN_OPEN_READ_ONLY, error);
  g_autoptr (GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  const NbCampaignField *fields;
  guint n;

  if (campaign == NULL)
    return NULL;
  fields = nb_campaign_fields (&n);
  for (guint i = 0; i < n; i++)
    {
      GError *local = NULL;
      char *v = nb_campaign_get_field (campaign, fields[i].key, &local);

      if (local != NULL)
        {
          g_propagate_error (error, local);
          return NULL;
        }
      if (v != NULL)
        g_hash_table_insert (values, (gpointer) fields[i].key, v);
    }
  if (!nb_campaign_close (g_steal_pointer (&campaign), error))
    return NULL;
  return g_steal_pointer (&values);
}

static void
load_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbCampaignForm *form = NB_CAMPAIGN_FORM (owner);
  NbLoadJob *job = data;
  GHashTable *values = *result;

  if (job->generation != form->generation)
    return;
  form->filling = TRUE;
  for (guint i = 0; i < form->rows->len; i++)
    {
      Row *row = g_ptr_array_index (form->rows, i);
      const char *v = values ? g_hash_table_lookup (values, row->field->key) : NULL;

      g_free (row->saved);
      row->saved = g_strdup (v);
      g_clear_pointer (&row->error, g_free);
      set_editor (row, v);
    }
  form->filling = FALSE;
  if (error != NULL)
    {
      /* The window reports the failure to open; the form stays empty. */
      gtk_widget_set_sensitive (GTK_WIDGET (form), FALSE);
      return;
    }
  update_all_notes (form);
  form->loaded = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (form), TRUE);
}

void
nb_campaign_form_set_campaign (NbCampaignForm *form, const char *path)
{
  g_free (form->path);
  form->path = g_strdup (path);
  form->generation++;
  form->loaded = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (form), FALSE);
  if (path == NULL)
    return;
  nb_io_queue_push (form->queue, G_OBJECT (form), load_work, load_done,
                    nb_load_job_new (path, form->generation), nb_load_job_free,
                    (GDestroyNotify) g_hash_table_unref);
}

/* ------------------------------------------------------------ layout -- */

/* The section a field belongs to, from its key's prefix. */
static const char *
section_title (const char *key)
{
  if (g_str_has_prefix (key, "robot."))
    return _("Robot under test");
  if (g_str_has_prefix (key, "conditions."))
    return _("Test conditions (clause 4)");
  if (g_str_has_prefix (key, "instrument."))
    return _("Measurement system");
  return _("Operator and notes");
}

/* "manufacturer of …" → "Manufacturer of …" (UTF-8, for the translations). */
static char *
capitalise (const char *s)
{
  gunichar c = g_utf8_get_char (s);
  char head[8] = { 0 };

  g_unichar_to_utf8 (g_unichar_totitle (c), head);
  return g_strconcat (head, g_utf8_next_char (s), NULL);
}

static GtkWidget *
make_editor (Row *row)
{
  const Choice *choices = choices_of (row->field->type);
  GtkWidget *editor;

  if (choices != NULL)
    {
      const char *labels[N_CHOICES + 1] = { "—" };

      for (guint i = 1; i < N_CHOICES; i++)
        labels[i] = _(choices[i].label);
      editor = gtk_drop_down_new_from_strings (labels);
      g_signal_connect (editor, "notify::selected", G_CALLBACK (on_drop_down_selected), row);
    }
  else
    {
      GtkEventController *focus = gtk_event_controller_focus_new ();

      editor = gtk_entry_new ();
      gtk_widget_set_hexpand (editor, TRUE);
      if (row->field->type != NB_FIELD_TEXT)
        gtk_entry_set_input_purpose (GTK_ENTRY (editor), GTK_INPUT_PURPOSE_NUMBER);
      g_signal_connect (editor, "activate", G_CALLBACK (on_entry_activate), row);
      g_signal_connect (focus, "leave", G_CALLBACK (on_focus_leave), row);
      gtk_widget_add_controller (editor, focus);
    }
  gtk_widget_set_name (editor, row->field->key);
  return editor;
}

static void
nb_campaign_form_init (NbCampaignForm *form)
{
  GtkWidget *grid = gtk_grid_new ();
  const NbCampaignField *fields;
  const char *section = NULL;
  guint n, line = 0;

  form->rows = g_ptr_array_new_with_free_func (row_free);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_widget_set_margin_start (grid, 18);
  gtk_widget_set_margin_end (grid, 18);
  gtk_widget_set_margin_top (grid, 12);
  gtk_widget_set_margin_bottom (grid, 18);
  fields = nb_campaign_fields (&n);
  for (guint i = 0; i < n; i++)
    {
      Row *row = g_new0 (Row, 1);
      g_autofree char *text = capitalise (_(fields[i].description));
      GtkWidget *label = gtk_label_new (text);

      row->form = form;
      row->field = &fields[i];
      if (g_strcmp0 (section, section_title (fields[i].key)) != 0)
        {
          GtkWidget *heading = gtk_label_new (section_title (fields[i].key));

          section = section_title (fields[i].key);
          gtk_widget_add_css_class (heading, "heading");
          gtk_label_set_xalign (GTK_LABEL (heading), 0);
          gtk_widget_set_margin_top (heading, line == 0 ? 0 : 12);
          gtk_grid_attach (GTK_GRID (grid), heading, 0, line++, 2, 1);
        }
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
      gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
      gtk_widget_set_tooltip_text (label, fields[i].key);
      row->editor = make_editor (row);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), row->editor);
      row->note = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (row->note), 0);
      gtk_label_set_wrap (GTK_LABEL (row->note), TRUE);
      gtk_widget_add_css_class (row->note, "caption");
      gtk_widget_set_visible (row->note, FALSE);
      gtk_grid_attach (GTK_GRID (grid), label, 0, line, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), row->editor, 1, line++, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), row->note, 1, line++, 1, 1);
      g_ptr_array_add (form->rows, row);
    }
  form->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (form->scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  {
    GtkWidget *clamp = adw_clamp_new ();

    /* A form stretched across a wide window is hard to read; the clamp
     * holds its width whatever a note's natural width (a wrapped label
     * asks for a whole line). */
    gtk_widget_set_name (clamp, "form-clamp");
    adw_clamp_set_maximum_size (ADW_CLAMP (clamp), NB_CAMPAIGN_FORM_WIDTH);
    adw_clamp_set_tightening_threshold (ADW_CLAMP (clamp), NB_CAMPAIGN_FORM_WIDTH - 120);
    gtk_widget_set_margin_start (clamp, 12);
    gtk_widget_set_margin_end (clamp, 12);
    adw_clamp_set_child (ADW_CLAMP (clamp), grid);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (form->scroller), clamp);
  }
  gtk_widget_set_parent (form->scroller, GTK_WIDGET (form));
  gtk_widget_set_sensitive (GTK_WIDGET (form), FALSE);
}

static void
nb_campaign_form_dispose (GObject *object)
{
  NbCampaignForm *form = NB_CAMPAIGN_FORM (object);

  g_clear_pointer (&form->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (nb_campaign_form_parent_class)->dispose (object);
}

static void
nb_campaign_form_finalize (GObject *object)
{
  NbCampaignForm *form = NB_CAMPAIGN_FORM (object);

  g_ptr_array_unref (form->rows);
  g_free (form->path);
  /* Released here, not in dispose: a job keeps its owner until done. */
  g_clear_pointer (&form->queue, nb_io_queue_unref);
  G_OBJECT_CLASS (nb_campaign_form_parent_class)->finalize (object);
}

static void
nb_campaign_form_class_init (NbCampaignFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = nb_campaign_form_dispose;
  object_class->finalize = nb_campaign_form_finalize;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

GtkWidget *
nb_campaign_form_new (NbIoQueue *queue)
{
  NbCampaignForm *form = g_object_new (NB_TYPE_CAMPAIGN_FORM, NULL);

  form->queue = nb_io_queue_ref (queue);
  return GTK_WIDGET (form);
}

GtkWidget *
nb_campaign_form_get_editor (NbCampaignForm *form, const char *key)
{
  Row *row = find_row (form, key);

  return row ? row->editor : NULL;
}

GtkWidget *
nb_campaign_form_get_note (NbCampaignForm *form, const char *key)
{
  Row *row = find_row (form, key);

  return row ? row->note : NULL;
}
