#include "nb-results-page.h"
#include "nb-gui-paths.h"

#include "nb-campaign.h"
#include "nb-campaign-results.h"
#include "nb-clause.h"
#include "nb-figure-rows.h"
#include "nb-json-writer.h"
#include "nb-map-file.h"
#include "nb-map-view.h"
#include "nb-protocol-columns.h"
#include "nb-reason-dialog.h"
#include "nb-run-plot.h"

#include <json-glib/json-glib.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* The values nb_campaign_edit_trial corrects (nb-campaign.h), as the store
 * names them. */
static const char *const edit_keys[] = {
  "outcome", "reason", "time_s", "attained_x_mm", "attained_y_mm", "attained_theta_deg",
  "measured_mm", "true_mm", "detected",
  "corner1_x_mm", "corner1_y_mm", "corner2_x_mm", "corner2_y_mm",
  "corner3_x_mm", "corner3_y_mm", "corner4_x_mm", "corner4_y_mm",
};
/* ...and in words. */
static const char *const edit_labels[G_N_ELEMENTS (edit_keys)] = {
  N_("Outcome (ok, failed, aborted, incomplete)"), N_("Reason"), N_("Time, s"),
  N_("Attained x, mm"), N_("Attained y, mm"), N_("Attained θ, °"),
  N_("Measured range, mm"), N_("Declared range, mm"), N_("Detected (yes, no)"),
  N_("Map corner A′1 x, mm"), N_("Map corner A′1 y, mm"), N_("Map corner A′2 x, mm"),
  N_("Map corner A′2 y, mm"), N_("Map corner A′3 x, mm"), N_("Map corner A′3 y, mm"),
  N_("Map corner A′4 x, mm"), N_("Map corner A′4 y, mm"),
};

/* The words of an edited value's key (the store's name when unknown). */
static const char *
edit_label (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (edit_keys); i++)
    if (g_str_equal (edit_keys[i], key))
      return _(edit_labels[i]);
  return key;
}

/* ---------------------------------------------------- a table's row -- */

#define NB_TYPE_TRIAL_ITEM (nb_trial_item_get_type ())
G_DECLARE_FINAL_TYPE (NbTrialItem, nb_trial_item, NB, TRIAL_ITEM, GObject)

struct _NbTrialItem {
  GObject parent_instance;
  guint clause;
  char *config;
  gint64 id;
  guint seq;
  NbTrialOutcome outcome;
  char *values;                 /* what the trial recorded, for a person */
  char *reason;
  char *subject;                /* the event log's name of it */
};

G_DEFINE_FINAL_TYPE (NbTrialItem, nb_trial_item, G_TYPE_OBJECT)

static void
nb_trial_item_finalize (GObject *object)
{
  NbTrialItem *item = NB_TRIAL_ITEM (object);

  g_free (item->config);
  g_free (item->values);
  g_free (item->reason);
  g_free (item->subject);
  G_OBJECT_CLASS (nb_trial_item_parent_class)->finalize (object);
}

static void
nb_trial_item_class_init (NbTrialItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = nb_trial_item_finalize;
}

static void
nb_trial_item_init (NbTrialItem *item)
{
}

/* What a stored trial holds, whatever its clause: the members the store
 * filled (numbers not NaN), in the protocol's units. */
static char *
trial_values (const NbCampaignTrial *t)
{
  GString *out = g_string_new (NULL);

#define SEP() (out->len > 0 ? g_string_append (out, "; ") : out)
  if (t->kind != NULL)
    g_string_append (SEP (), t->kind);
  if (t->number > 0 && t->number != t->seq)
    g_string_append_printf (SEP (), _("no. %u"), t->number);
  if (isfinite (t->attained.x_mm))
    g_string_append_printf (SEP (), _("attained x %.3f mm, y %.3f mm, θ %.3f°"), t->attained.x_mm,
                            t->attained.y_mm, t->attained.theta_deg);
  if (isfinite (t->time_s))
    g_string_append_printf (SEP (), _("%.3f s"), t->time_s);
  if (isfinite (t->angle_deg) && isfinite (t->true_mm))
    {
      g_string_append_printf (SEP (), _("%g° at %.0f mm"), t->angle_deg, t->true_mm);
      if (t->detected)
        g_string_append_printf (SEP (), _("detected at %.1f mm"), t->measured_mm);
      else
        g_string_append (SEP (), _("not detected"));
    }
  if (isfinite (t->corners_mm[0][0]))
    g_string_append_printf (SEP (), _("map corners (%.0f, %.0f) … (%.0f, %.0f) mm"),
                            t->corners_mm[0][0], t->corners_mm[0][1], t->corners_mm[3][0],
                            t->corners_mm[3][1]);
  if (t->n_samples > 0)
    g_string_append_printf (SEP (), g_dngettext (GETTEXT_PACKAGE, "%lu sample", "%lu samples",
                                                 (unsigned long) t->n_samples),
                            (unsigned long) t->n_samples);
#undef SEP
  return g_string_free (out, FALSE);
}

/* ----------------------------------------------------- the snapshot -- */

/* A figure as the protocol's table states it: its column's title and unit,
 * its value with the column's decimals. */
typedef struct {
  char *title;
  char *value;
} FigureRow;

static void
figure_row_free (gpointer p)
{
  FigureRow *f = p;

  g_free (f->title);
  g_free (f->value);
  g_free (f);
}

/* A configuration's results: its figures under the protocol table's
 * column titles, its plot, and clause 10's maps. */
typedef struct {
  guint clause;
  char *config;
  char *text;                   /* why there are no figures, or NULL */
  gboolean problem;
  GPtrArray *figures;           /* of FigureRow */
  GArray *maps;                 /* of NbMapView: clause 10, one per counted trial */
  NbRunPlot plot;
} ConfigView;

static void
config_view_free (gpointer p)
{
  ConfigView *v = p;

  g_free (v->config);
  g_free (v->text);
  g_ptr_array_unref (v->figures);
  g_array_unref (v->maps);
  nb_run_plot_clear (&v->plot);
  g_free (v);
}

static void
add_figure (ConfigView *v, const char *title, const char *unit, char *value)
{
  FigureRow *f = g_new0 (FigureRow, 1);

  f->title = nb_figure_title (title, unit);
  f->value = value;
  g_ptr_array_add (v->figures, f);
}

/* A member of the figures' JSON as the protocol prints it: a verdict in
 * words, a number with its decimals, "—" when undefined. */
static char *
figure_text (JsonObject *o, const char *key, guint decimals)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, key) : NULL;
  char buf[32];

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return g_strdup ("—");
  if (json_node_get_value_type (n) == G_TYPE_BOOLEAN)
    return g_strdup (json_node_get_boolean (n) ? _("yes") : _("no"));
  return g_strdup (nb_clause_format_figure (buf, json_node_get_double (n), (int) decimals));
}

/* The configuration's figures the protocol reports (the clause module's
 * columns, nb_protocol_figure_columns, filled from the figures' JSON,
 * nb_config_result_json: one place for the keys and the values). */
static void
collect_figures (ConfigView *v, const NbClause *clause, const NbConfigResult *r)
{
  g_autoptr (JsonNode) root = nb_figures_json (r);
  JsonObject *o = root != NULL ? json_node_get_object (root) : NULL;
  const NbProtocolColumn *cols;
  guint n;

  if (clause->statistics_of_n)
    add_figure (v, _("Trials counted n"), NULL, figure_text (o, "n", 0));
  cols = nb_protocol_figure_columns (clause->number, &n);
  for (guint i = 0; i < n; i++)
    add_figure (v, _(cols[i].title), cols[i].unit ? _(cols[i].unit) : NULL,
                figure_text (o, cols[i].key, cols[i].decimals));
  /* Clause 10 (table 7): each judged map's Dm, and the accuracy of the
   * series (10.3), as the protocol's rows. */
  if (o != NULL && json_object_has_member (o, "trials") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (o, "trials")) &&
      json_object_has_member (o, "accuracy_mm"))
    {
      JsonArray *trials = json_object_get_array_member (o, "trials");

      for (guint i = 0; i < json_array_get_length (trials); i++)
        {
          JsonObject *t = json_array_get_object_element (trials, i);
          /* TRANSLATORS: a figure of one trial: its title, the trial's number. */
          g_autofree char *title = g_strdup_printf (_("%s, trial %u"), _("Deviation Dm"),
                                                    (guint) json_object_get_int_member (t, "trial"));

          add_figure (v, title, _("mm"), figure_text (t, "dm_mm", 2));
        }
      {
        JsonNode *acc = json_object_get_member (o, "accuracy_mm");

        add_figure (v, _("Mapping accuracy (max Dm)"), _("mm"),
                    JSON_NODE_HOLDS_NULL (acc) ? g_strdup (_("no figure"))
                                               : figure_text (o, "accuracy_mm", 2));
      }
    }
}

/* The map file a clause 10 trial was recorded from: the "map corners
 * found" event of its subject names it ("map PATH; …"); a relative path
 * is the campaign's directory's. */
static char *
map_file_of (GArray *events, const char *config, guint number, const char *campaign_path)
{
  g_autofree char *subject = g_strdup_printf ("config '%s', trial %u", config, number);
  char *file = NULL;

  for (guint i = 0; events != NULL && i < events->len; i++)
    {
      const NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);
      const char *end;

      if (g_strcmp0 (e->what, "map corners found") != 0 || g_strcmp0 (e->subject, subject) != 0 ||
          e->new_value == NULL || !g_str_has_prefix (e->new_value, "map "))
        continue;
      end = strstr (e->new_value, "; ");
      g_free (file);            /* the latest: a map recorded again */
      file = end ? g_strndup (e->new_value + 4, end - e->new_value - 4)
                 : g_strdup (e->new_value + 4);
    }
  if (file != NULL && !g_path_is_absolute (file))
    {
      g_autofree char *dir = g_path_get_dirname (campaign_path);
      char *abs = g_build_filename (dir, file, NULL);

      g_free (file);
      file = abs;
    }
  return file;
}

/* Clause 10: each counted trial's map as the store holds it, in the order
 * of the figures (r's numbers, Dm and verdicts). */
static void
collect_maps (NbCampaign *campaign, ConfigView *v, const NbCampaignConfig *cfg, GArray *trials,
              const NbConfigResult *r, GArray *events, const char *campaign_path)
{
  guint k = 0;

  for (guint j = 0; j < trials->len; j++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, j);
      NbMapView mv = { 0 };
      g_autoptr (GError) error = NULL;

      if (!nb_campaign_trial_counts (10, t))
        continue;
      mv.number = t->number;
      mv.trial_id = t->id;
      memcpy (mv.truth_mm, cfg->truth_mm, sizeof mv.truth_mm);
      memcpy (mv.corners_mm, t->corners_mm, sizeof mv.corners_mm);
      mv.ok = t->outcome == NB_TRIAL_OK;
      mv.reason = nb_gui_reason_text (t->reason);
      mv.dm_mm = r != NULL && r->values != NULL && k < r->values->len
                 ? g_array_index (r->values, double, k) : NAN;
      mv.map_file = map_file_of (events, cfg->name, t->number, campaign_path);
      if (mv.map_file == NULL)
        mv.map_error = g_strdup (_("The map file is not named in the event log."));
      else
        {
          /* Its defects as the clause module found them (drawn as geometry);
           * a map without an outline is drawn without. */
          g_autoptr (NbMapAnalysis) a = nb_clause_mapping_analyse (campaign, cfg, mv.map_file,
                                                                   NULL);

          if (a != NULL)
            {
              mv.map = g_steal_pointer (&a->map);
              mv.fit = g_steal_pointer (&a->fit);
            }
          else if ((mv.map = nb_map_read (mv.map_file, &error)) == NULL)
            mv.map_error = g_strdup (error->message);
        }
      g_array_append_val (v->maps, mv);
      k++;
    }
}

/* What one load read from the store. */
typedef struct {
  GPtrArray *items;             /* of NbTrialItem */
  GArray *events;               /* of NbCampaignEvent */
  GPtrArray *configs;           /* of ConfigView */
} Snapshot;

static void
snapshot_free (gpointer p)
{
  Snapshot *s = p;

  g_ptr_array_unref (s->items);
  g_clear_pointer (&s->events, g_array_unref);
  g_ptr_array_unref (s->configs);
  g_free (s);
}

static gpointer
load_work (gpointer data, GError **error)
{
  g_autoptr (NbCampaign) campaign = nb_campaign_open (data, NB_CAMPAIGN_OPEN_READ_ONLY, error);
  g_autoptr (GArray) configs = NULL;
  Snapshot *s;

  if (campaign == NULL || (configs = nb_campaign_list_configs (campaign, 0, error)) == NULL)
    return NULL;
  s = g_new0 (Snapshot, 1);
  /* First: clause 10's maps are found by the events that recorded them. */
  if ((s->events = nb_campaign_list_events (campaign, error)) == NULL)
    {
      g_free (s);
      return NULL;
    }
  s->items = g_ptr_array_new_with_free_func (g_object_unref);
  s->configs = g_ptr_array_new_with_free_func (config_view_free);
  for (guint i = 0; i < configs->len; i++)
    {
      const NbCampaignConfig *cfg = &g_array_index (configs, NbCampaignConfig, i);
      const NbClause *clause = nb_clause_lookup (cfg->clause);
      g_autoptr (GArray) trials = nb_campaign_list_trials (campaign, cfg->id, error);
      ConfigView *view;
      NbConfigResult r = { 0 };
      g_autoptr (GString) text = g_string_new (NULL);

      if (trials == NULL)
        {
          snapshot_free (s);
          return NULL;
        }
      for (guint k = 0; k < trials->len; k++)
        {
          const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, k);
          NbTrialItem *item = g_object_new (NB_TYPE_TRIAL_ITEM, NULL);

          item->clause = cfg->clause;
          item->config = g_strdup (cfg->name);
          item->id = t->id;
          item->seq = t->seq;
          item->outcome = t->outcome;
          item->values = trial_values (t);
          item->reason = nb_gui_reason_text (t->reason);
          item->subject = nb_campaign_trial_subject (campaign, t->id, NULL);
          g_ptr_array_add (s->items, item);
        }
      view = g_new0 (ConfigView, 1);
      view->clause = cfg->clause;
      view->config = g_strdup (cfg->name);
      view->figures = g_ptr_array_new_with_free_func (figure_row_free);
      view->maps = g_array_new (FALSE, TRUE, sizeof (NbMapView));
      g_array_set_clear_func (view->maps, (GDestroyNotify) nb_map_view_clear);
      nb_run_plot_init (&view->plot);
      nb_run_plot_reset (&view->plot, cfg->clause);
      if (clause != NULL && nb_config_result_compute (campaign, cfg, &r, NULL))
        {
          view->problem = r.error != NULL;
          if (r.error != NULL)
            g_string_append (text, r.error);
          else
            collect_figures (view, clause, &r);
          if (clause->run == NB_CLAUSE_RUN_MAPS)
            collect_maps (campaign, view, cfg, trials, r.error == NULL ? &r : NULL, s->events,
                          data);
          nb_run_plot_add_trials (&view->plot, clause, trials, &r);
          /* The figures the plot draws with (each clause's own member). */
          view->plot.have_figures = r.error == NULL;
          view->plot.pose = r.pose;
          view->plot.path = r.path;
          view->plot.avoidance = r.avoidance;
          view->plot.passage = r.passage;
          view->plot.command_x_mm = cfg->command.x_mm;
          view->plot.command_y_mm = cfg->command.y_mm;
          nb_config_result_clear (&r);
        }
      view->text = text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
      g_ptr_array_add (s->configs, view);
    }
  if (!nb_campaign_close (g_steal_pointer (&campaign), error))
    {
      snapshot_free (s);
      return NULL;
    }
  return s;
}

/* ------------------------------------------------------------ page -- */

struct _NbResultsPage {
  GtkWidget parent_instance;
  GtkWidget *box;
  GtkDropDown *clause_filter, *config_filter, *edit_key;
  GtkColumnView *table, *log;
  GtkWidget *reload, *selected_label, *edit_value, *edit_reason, *edit_apply, *edit_status;
  GtkListBox *audit, *results;
  GtkWidget *plot;
  GtkStack *views;              /* stored trials, event log, results */

  NbIoQueue *queue;
  char *path;
  GListStore *items;            /* of NbTrialItem */
  GtkFilterListModel *filtered;
  GtkSingleSelection *selection;
  GtkStringList *config_names;  /* the configuration filter's: "all", then names */
  GListStore *events;           /* of NbEventItem */
  GArray *event_data;           /* of NbCampaignEvent: the last load's */
  GPtrArray *configs;           /* of ConfigView: the last load's */
  ConfigView *shown;            /* the plotted one */
  guint shown_clause;           /* and its name: selected again after a reload */
  char *shown_config;
  guint n_audit;
  gboolean loading;
  /* A map corner dragged (clause 10): which, where it was, the drawing's
   * frame fixed at the press. */
  int drag_map, drag_corner;
  double drag_from_mm[2], drag_x0, drag_y0, drag_cell_x, drag_cell_y, drag_cw, drag_ch;
  NbMapFrame drag_frame;
  AdwMessageDialog *corner_dialog;
};

G_DEFINE_FINAL_TYPE (NbResultsPage, nb_results_page, GTK_TYPE_WIDGET)

enum { SIGNAL_LOADED, SIGNAL_EDITED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The clause filter's items: all, then the registry's clauses. */
static guint
filter_clause (NbResultsPage *page)
{
  guint k = gtk_drop_down_get_selected (page->clause_filter), n;
  const NbClause *const *clauses = nb_clause_registry (&n);

  return k == 0 || k == GTK_INVALID_LIST_POSITION || k > n ? 0 : clauses[k - 1]->number;
}

static const char *
filter_config (NbResultsPage *page)
{
  guint k = gtk_drop_down_get_selected (page->config_filter);

  return k == 0 || k == GTK_INVALID_LIST_POSITION
         ? NULL : gtk_string_list_get_string (page->config_names, k);
}

static gboolean
item_shown (gpointer object, gpointer user_data)
{
  NbResultsPage *page = user_data;
  NbTrialItem *item = object;
  guint clause = filter_clause (page);
  const char *config = filter_config (page);

  return (clause == 0 || item->clause == clause) &&
         (config == NULL || g_strcmp0 (item->config, config) == 0);
}

static void
refilter (NbResultsPage *page)
{
  GtkFilter *filter = gtk_filter_list_model_get_filter (page->filtered);

  gtk_filter_changed (filter, GTK_FILTER_CHANGE_DIFFERENT);
}

static NbTrialItem *
selected_item (NbResultsPage *page)
{
  return gtk_single_selection_get_selected_item (page->selection);
}

static void
clear_box (GtkListBox *box)
{
  for (GtkListBoxRow *row; (row = gtk_list_box_get_row_at_index (box, 0));)
    gtk_list_box_remove (box, GTK_WIDGET (row));
}

static GtkWidget *
wrapped_label (const char *text, gboolean dim)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 30);
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_end (label, 6);
  gtk_widget_set_margin_top (label, 4);
  gtk_widget_set_margin_bottom (label, 4);
  if (dim)
    gtk_widget_add_css_class (label, "dim-label");
  return label;
}

/* The selected trial's edits: the events the store logged with its name. */
static void
show_audit (NbResultsPage *page)
{
  NbTrialItem *item = selected_item (page);
  g_autofree char *heading = NULL;

  clear_box (page->audit);
  page->n_audit = 0;
  gtk_widget_set_sensitive (page->edit_apply, item != NULL);
  if (item == NULL)
    {
      gtk_label_set_text (GTK_LABEL (page->selected_label), _("Select a trial in the table."));
      return;
    }
  /* TRANSLATORS: the selected trial: clause, configuration, number. */
  heading = g_strdup_printf (_("Clause %u, “%s”, trial %u"), item->clause, item->config,
                             item->seq);
  gtk_label_set_text (GTK_LABEL (page->selected_label), heading);
  for (guint i = 0; page->event_data != NULL && i < page->event_data->len; i++)
    {
      const NbCampaignEvent *e = &g_array_index (page->event_data, NbCampaignEvent, i);
      g_autofree char *text = NULL;
      const char *key;

      if (item->subject == NULL || g_strcmp0 (e->subject, item->subject) != 0 ||
          !g_str_has_prefix (e->what, "trial value edited: "))
        continue;
      key = e->what + strlen ("trial value edited: ");
      /* TRANSLATORS: an edit: time, who, the value's key, old → new, why. */
      text = g_strdup_printf (_("%s, %s: %s %s → %s — %s"), e->time, e->who, edit_label (key),
                              e->old_value ? e->old_value : "—",
                              e->new_value ? e->new_value : "—", e->note ? e->note : "");
      gtk_list_box_append (page->audit, wrapped_label (text, FALSE));
      page->n_audit++;
    }
  if (page->n_audit == 0)
    gtk_list_box_append (page->audit, wrapped_label (_("No value of this trial was corrected."),
                                                     TRUE));
}

static void
on_selection (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  show_audit (user_data);
}

/* A map's words under it: the trial and its Dm; the verdict and the
 * defects the store recorded. */
static char *
map_caption (const NbMapView *mv)
{
  char buf[32];
  /* TRANSLATORS: a robot's map, judged (10.3). */
  const char *verdict = mv->ok ? C_("map", "accepted") : C_("map", "failed");
  /* TRANSLATORS: a clause 10 map: its trial's number and Dm (mm). */
  g_autofree char *head = g_strdup_printf (_("Trial %u: Dm %s mm"), mv->number,
                                           nb_clause_format_figure (buf, mv->dm_mm, 2));

  return mv->reason != NULL && mv->reason[0] != '\0'
    ? g_strdup_printf ("%s\n%s: %s", head, verdict, mv->reason)
    : g_strdup_printf ("%s\n%s", head, verdict);
}

/* Clause 10: every map side by side (three to a row), each to its own
 * scale. */
static void
draw_maps (const ConfigView *v, cairo_t *cr, int width, int height)
{
  guint n = v->maps->len, cols = MIN (n, 3), rows = (n + cols - 1) / cols;
  double cw = (double) width / cols, ch = (double) height / rows;

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  for (guint i = 0; i < n; i++)
    {
      const NbMapView *mv = &g_array_index (v->maps, NbMapView, i);
      g_autofree char *caption = map_caption (mv);

      cairo_save (cr);
      cairo_translate (cr, (i % cols) * cw, (i / cols) * ch);
      cairo_rectangle (cr, 0, 0, cw, ch);
      cairo_clip (cr);
      nb_map_view_draw (mv, cr, cw, ch, caption);
      cairo_restore (cr);
    }
}

/* ------------------------------------------- clause 10: corners by hand -- */

/* The map cell (three to a row, as draw_maps lays them out) at (x, y). */
static int
map_cell_at (const ConfigView *v, int width, int height, double x, double y, double *cell_x,
             double *cell_y, double *cw, double *ch)
{
  guint n = v->maps->len, cols = MIN (n, 3), rows = n ? (n + cols - 1) / cols : 1;
  int col, row;

  if (n == 0)
    return -1;
  *cw = (double) width / cols;
  *ch = (double) height / rows;
  col = (int) (x / *cw);
  row = (int) (y / *ch);
  if (col < 0 || row < 0 || (guint) col >= cols || (guint) (row * cols + col) >= n)
    return -1;
  *cell_x = col * *cw;
  *cell_y = row * *ch;
  return row * (int) cols + col;
}

typedef struct {
  char *path, *why;
  gint64 trial_id;
  guint corner;                 /* 1..4 */
  char x[G_ASCII_DTOSTR_BUF_SIZE], y[G_ASCII_DTOSTR_BUF_SIZE];
} CornerEdit;

static void
corner_edit_free (gpointer p)
{
  CornerEdit *e = p;

  g_free (e->path);
  g_free (e->why);
  g_free (e);
}

/* Both coordinates in one transaction: the store logs each with the reason
 * (the trial's audit trail), and Dm is computed again from them. */
static gpointer
corner_edit_work (gpointer data, GError **error)
{
  CornerEdit *e = data;
  g_autoptr (NbCampaign) campaign = nb_campaign_open (e->path, 0, error);
  g_autofree char *kx = g_strdup_printf ("corner%u_x_mm", e->corner);
  g_autofree char *ky = g_strdup_printf ("corner%u_y_mm", e->corner);

  if (campaign == NULL || !nb_campaign_transaction_begin (campaign, error))
    return NULL;
  if (!nb_campaign_edit_trial (campaign, e->trial_id, kx, e->x, e->why, error) ||
      !nb_campaign_edit_trial (campaign, e->trial_id, ky, e->y, e->why, error) ||
      !nb_campaign_transaction_commit (campaign, error))
    {
      nb_campaign_transaction_rollback (campaign);
      return NULL;
    }
  if (!nb_campaign_close (g_steal_pointer (&campaign), error))
    return NULL;
  return g_strdup ("ok");
}

/* What became of an edit of a stored value (the table's or a map corner's):
 * the store's refusal, or that the event log keeps the old value. */
static void
show_edit_status (NbResultsPage *page, const GError *error)
{
  if (error != NULL)
    {
      gtk_label_set_text (GTK_LABEL (page->edit_status), error->message);
      gtk_widget_add_css_class (page->edit_status, "error");
    }
  else
    {
      gtk_label_set_text (GTK_LABEL (page->edit_status), _("Corrected; the event log keeps the "
                                                           "old value and the reason."));
      gtk_widget_remove_css_class (page->edit_status, "error");
    }
}

static void
corner_edit_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbResultsPage *page = NB_RESULTS_PAGE (owner);

  show_edit_status (page, error);
  /* Drawn again from the store either way (a refused edit puts the corner
   * back). */
  nb_results_page_reload (page);
  g_signal_emit (page, signals[SIGNAL_EDITED], 0, error == NULL);
}

static void
corner_put_back (NbResultsPage *page)
{
  if (page->shown != NULL && page->drag_map >= 0 && (guint) page->drag_map < page->shown->maps->len)
    {
      NbMapView *mv = &g_array_index (page->shown->maps, NbMapView, page->drag_map);

      mv->corners_mm[page->drag_corner][0] = page->drag_from_mm[0];
      mv->corners_mm[page->drag_corner][1] = page->drag_from_mm[1];
    }
  page->drag_map = -1;
  gtk_widget_queue_draw (page->plot);
}

static void
on_corner_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  NbResultsPage *page = user_data;
  NbMapView *mv;
  CornerEdit *e;

  if (page->corner_dialog == dialog)
    page->corner_dialog = NULL;
  if (!g_str_equal (response, "correct") || page->shown == NULL || page->drag_map < 0 ||
      (guint) page->drag_map >= page->shown->maps->len || page->path == NULL)
    {
      corner_put_back (page);
      return;
    }
  mv = &g_array_index (page->shown->maps, NbMapView, page->drag_map);
  e = g_new0 (CornerEdit, 1);
  e->path = g_strdup (page->path);
  e->trial_id = mv->trial_id;
  e->corner = (guint) page->drag_corner + 1;
  e->why = nb_reason_dialog_get_reason (dialog);
  /* A tenth of a millimetre: a hand on a map of centimetre cells. */
  g_ascii_formatd (e->x, sizeof e->x, "%.1f", mv->corners_mm[page->drag_corner][0]);
  g_ascii_formatd (e->y, sizeof e->y, "%.1f", mv->corners_mm[page->drag_corner][1]);
  page->drag_map = -1;
  nb_io_queue_push (page->queue, G_OBJECT (page), corner_edit_work, corner_edit_done, e,
                    corner_edit_free, g_free);
}

gboolean
nb_results_page_move_corner (NbResultsPage *page, guint map, guint corner, double x_mm,
                             double y_mm)
{
  NbMapView *mv;
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;

  if (page->shown == NULL || map >= page->shown->maps->len || corner > 3 ||
      page->corner_dialog != NULL)
    return FALSE;
  mv = &g_array_index (page->shown->maps, NbMapView, map);
  if (page->drag_map != (int) map || page->drag_corner != (int) corner)
    {
      page->drag_from_mm[0] = mv->corners_mm[corner][0];
      page->drag_from_mm[1] = mv->corners_mm[corner][1];
    }
  page->drag_map = (int) map;
  page->drag_corner = (int) corner;
  mv->corners_mm[corner][0] = x_mm;
  mv->corners_mm[corner][1] = y_mm;
  gtk_widget_queue_draw (page->plot);
  /* TRANSLATORS: a clause 10 map's corner A'_i moved by hand. */
  body = g_strdup_printf (_("Trial %u: A′%u from (%.1f, %.1f) to (%.1f, %.1f) mm. The event log "
                            "keeps where the analysis found it and why it was moved; Dm is "
                            "computed again."), mv->number, corner + 1, page->drag_from_mm[0],
                          page->drag_from_mm[1], x_mm, y_mm);
  dialog = nb_reason_dialog_new (GTK_WIDGET (page), _("Correct the Map Corner?"), body,
                                 "corner-reason", _("Reason (for the event log)"), "correct",
                                 _("_Correct"), ADW_RESPONSE_SUGGESTED);
  g_signal_connect (dialog, "response", G_CALLBACK (on_corner_response), page);
  page->corner_dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

AdwMessageDialog *
nb_results_page_get_corner_dialog (NbResultsPage *page)
{
  return page->corner_dialog;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, gpointer user_data)
{
  NbResultsPage *page = user_data;
  int width = gtk_widget_get_width (page->plot), height = gtk_widget_get_height (page->plot);
  int i, k = -1;
  NbMapView *mv;

  page->drag_map = -1;
  if (page->shown == NULL || page->corner_dialog != NULL ||
      (i = map_cell_at (page->shown, width, height, x, y, &page->drag_cell_x, &page->drag_cell_y,
                        &page->drag_cw, &page->drag_ch)) < 0)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  mv = &g_array_index (page->shown->maps, NbMapView, i);
  k = nb_map_view_corner_at (mv, page->drag_cw, page->drag_ch, x - page->drag_cell_x,
                             y - page->drag_cell_y, 10);
  if (k < 0)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  page->drag_map = i;
  page->drag_corner = k;
  page->drag_from_mm[0] = mv->corners_mm[k][0];
  page->drag_from_mm[1] = mv->corners_mm[k][1];
  page->drag_x0 = x;
  page->drag_y0 = y;
  /* The frame of the press: the drawing does not rescale under the hand. */
  nb_map_view_frame (mv, page->drag_cw, page->drag_ch, &page->drag_frame);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, gpointer user_data)
{
  NbResultsPage *page = user_data;
  NbMapView *mv;

  if (page->shown == NULL || page->drag_map < 0 || (guint) page->drag_map >= page->shown->maps->len)
    return;
  mv = &g_array_index (page->shown->maps, NbMapView, page->drag_map);
  nb_map_frame_to_mm (&page->drag_frame, page->drag_x0 + dx - page->drag_cell_x,
                      page->drag_y0 + dy - page->drag_cell_y, &mv->corners_mm[page->drag_corner][0],
                      &mv->corners_mm[page->drag_corner][1]);
  gtk_widget_queue_draw (page->plot);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, gpointer user_data)
{
  NbResultsPage *page = user_data;
  NbMapView *mv;

  if (page->shown == NULL || page->drag_map < 0 || (guint) page->drag_map >= page->shown->maps->len)
    return;
  mv = &g_array_index (page->shown->maps, NbMapView, page->drag_map);
  /* A click is not a correction. */
  if (hypot (dx, dy) < 3)
    {
      corner_put_back (page);
      return;
    }
  nb_results_page_move_corner (page, (guint) page->drag_map, (guint) page->drag_corner,
                               mv->corners_mm[page->drag_corner][0],
                               mv->corners_mm[page->drag_corner][1]);
}

static void
draw_plot (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  NbResultsPage *page = user_data;

  if (page->shown != NULL && page->shown->maps->len > 0)
    draw_maps (page->shown, cr, width, height);
  else if (page->shown != NULL)
    nb_run_plot_draw (&page->shown->plot, cr, width, height);
  else
    {
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
    }
}

static void
on_result_selected (GtkListBox *box, GtkListBoxRow *row, gpointer user_data)
{
  NbResultsPage *page = user_data;

  page->shown = row != NULL && page->configs != NULL
                ? g_object_get_data (G_OBJECT (row), "nb-config-view") : NULL;
  if (page->shown != NULL)
    {
      page->shown_clause = page->shown->clause;
      g_free (page->shown_config);
      page->shown_config = g_strdup (page->shown->config);
    }
  gtk_widget_queue_draw (page->plot);
}

/* The configurations' figures, of the filters' clause and configuration. */
static void
show_results (NbResultsPage *page)
{
  guint clause = filter_clause (page);
  const char *config = filter_config (page);
  GtkListBoxRow *first = NULL, *again = NULL;
  /* The configuration shown before (a reload after an edit stays on it). */
  guint was_clause = page->shown_clause;
  g_autofree char *was_config = g_strdup (page->shown_config);

  page->shown = NULL;
  clear_box (page->results);
  for (guint i = 0; page->configs != NULL && i < page->configs->len; i++)
    {
      ConfigView *v = g_ptr_array_index (page->configs, i);
      const NbClause *c = nb_clause_lookup (v->clause);
      g_autofree char *heading = g_strdup_printf ("%u — %s: %s", v->clause,
                                                  c ? _(c->title) : "", v->config);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *title = wrapped_label (heading, FALSE), *row;

      if ((clause != 0 && v->clause != clause) || (config != NULL && !g_str_equal (config,
                                                                                   v->config)))
        continue;
      gtk_widget_add_css_class (title, "heading");
      gtk_box_append (GTK_BOX (box), title);
      if (v->text != NULL)
        gtk_box_append (GTK_BOX (box), wrapped_label (v->text, v->problem));
      if (v->figures->len > 0)
        {
          /* The protocol table's columns, one figure a line. */
          GtkWidget *grid = gtk_grid_new ();

          gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
          gtk_widget_set_margin_start (grid, 6);
          gtk_widget_set_margin_end (grid, 6);
          gtk_widget_set_margin_bottom (grid, 4);
          for (guint k = 0; k < v->figures->len; k++)
            {
              const FigureRow *f = g_ptr_array_index (v->figures, k);
              GtkWidget *name = gtk_label_new (f->title), *value = gtk_label_new (f->value);

              gtk_widget_set_hexpand (name, TRUE);
              gtk_widget_add_css_class (name, "dim-label");
              nb_figure_row_attach (GTK_GRID (grid), (int) k, name, value, 24);
            }
          gtk_box_append (GTK_BOX (box), grid);
        }
      gtk_list_box_append (page->results, box);
      row = gtk_widget_get_parent (box);
      g_object_set_data (G_OBJECT (row), "nb-config-view", v);
      if (first == NULL)
        first = GTK_LIST_BOX_ROW (row);
      if (v->clause == was_clause && g_strcmp0 (v->config, was_config) == 0)
        again = GTK_LIST_BOX_ROW (row);
    }
  if (again != NULL || first != NULL)
    gtk_list_box_select_row (page->results, again != NULL ? again : first);
  gtk_widget_queue_draw (page->plot);
}

static void
rebuild_config_filter (NbResultsPage *page)
{
  guint clause = filter_clause (page);
  g_autofree char *keep = g_strdup (filter_config (page));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (page->config_names)), select = 0;
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_auto (GStrv) names = NULL;

  for (guint i = 0; page->configs != NULL && i < page->configs->len; i++)
    {
      ConfigView *v = g_ptr_array_index (page->configs, i);

      if (clause == 0 || v->clause == clause)
        g_strv_builder_add (b, v->config);
    }
  names = g_strv_builder_end (b);
  g_signal_handlers_block_matched (page->config_filter, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL,
                                   page);
  gtk_string_list_splice (page->config_names, 1, n - 1, (const char *const *) names);
  for (guint i = 0; names[i] != NULL; i++)
    if (select == 0 && g_strcmp0 (names[i], keep) == 0)
      select = i + 1;
  gtk_drop_down_set_selected (page->config_filter, select);
  g_signal_handlers_unblock_matched (page->config_filter, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL,
                                     page);
}

static void
on_filter_changed (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  NbResultsPage *page = user_data;

  if (object == G_OBJECT (page->clause_filter))
    rebuild_config_filter (page);
  refilter (page);
  show_results (page);
  show_audit (page);
}

/* ------------------------------------------------------- the event log -- */

#define NB_TYPE_EVENT_ITEM (nb_event_item_get_type ())
G_DECLARE_FINAL_TYPE (NbEventItem, nb_event_item, NB, EVENT_ITEM, GObject)

struct _NbEventItem {
  GObject parent_instance;
  char *columns[5];             /* time, who, what, subject, change */
};

G_DEFINE_FINAL_TYPE (NbEventItem, nb_event_item, G_TYPE_OBJECT)

static void
nb_event_item_finalize (GObject *object)
{
  NbEventItem *item = NB_EVENT_ITEM (object);

  for (guint i = 0; i < G_N_ELEMENTS (item->columns); i++)
    g_free (item->columns[i]);
  G_OBJECT_CLASS (nb_event_item_parent_class)->finalize (object);
}

static void
nb_event_item_class_init (NbEventItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = nb_event_item_finalize;
}

static void
nb_event_item_init (NbEventItem *item)
{
}

/* ------------------------------------------------------------ loading -- */

static void
load_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbResultsPage *page = NB_RESULTS_PAGE (owner);
  Snapshot *s = result ? *result : NULL;
  gint64 keep = selected_item (page) ? selected_item (page)->id : 0;

  page->loading = FALSE;
  if (error != NULL || s == NULL)
    {
      gtk_label_set_text (GTK_LABEL (page->edit_status), error ? error->message : "");
      g_signal_emit (page, signals[SIGNAL_LOADED], 0);
      return;
    }
  g_list_store_splice (page->items, 0, g_list_model_get_n_items (G_LIST_MODEL (page->items)),
                       s->items->pdata, s->items->len);
  g_clear_pointer (&page->event_data, g_array_unref);
  page->event_data = g_steal_pointer (&s->events);
  g_clear_pointer (&page->configs, g_ptr_array_unref);
  page->configs = g_steal_pointer (&s->configs);
  s->configs = g_ptr_array_new ();
  {
    g_autoptr (GPtrArray) events = g_ptr_array_new_with_free_func (g_object_unref);

    for (guint i = 0; i < page->event_data->len; i++)
      {
        const NbCampaignEvent *e = &g_array_index (page->event_data, NbCampaignEvent, i);
        g_autoptr (NbEventItem) item = g_object_new (NB_TYPE_EVENT_ITEM, NULL);

        item->columns[0] = g_strdup (e->time);
        item->columns[1] = g_strdup (e->who);
        item->columns[2] = nb_gui_event_text (e->what);
        item->columns[3] = g_strdup (e->subject);
        item->columns[4] = e->note != NULL
                           ? g_strdup_printf ("%s → %s (%s)", e->old_value ? e->old_value : "—",
                                              e->new_value ? e->new_value : "—", e->note)
                           : g_strdup_printf ("%s → %s", e->old_value ? e->old_value : "—",
                                              e->new_value ? e->new_value : "—");
        g_ptr_array_add (events, g_steal_pointer (&item));
      }
    /* One change of the model, not one per event. */
    g_list_store_splice (page->events, 0, g_list_model_get_n_items (G_LIST_MODEL (page->events)),
                         events->pdata, events->len);
  }
  rebuild_config_filter (page);
  refilter (page);
  show_results (page);
  if (keep != 0)
    nb_results_page_select_trial (page, keep);
  show_audit (page);
  g_signal_emit (page, signals[SIGNAL_LOADED], 0);
}

void
nb_results_page_reload (NbResultsPage *page)
{
  if (page->path == NULL)
    return;
  page->loading = TRUE;
  nb_io_queue_push (page->queue, G_OBJECT (page), load_work, load_done, g_strdup (page->path),
                    g_free, snapshot_free);
}

void
nb_results_page_set_campaign (NbResultsPage *page, const char *path)
{
  g_free (page->path);
  page->path = g_strdup (path);
  g_clear_pointer (&page->shown_config, g_free);
  page->shown_clause = 0;
  /* Nothing of the previous campaign stays on screen. */
  g_list_store_remove_all (page->items);
  g_list_store_remove_all (page->events);
  g_clear_pointer (&page->event_data, g_array_unref);
  g_clear_pointer (&page->configs, g_ptr_array_unref);
  page->shown = NULL;
  clear_box (page->results);
  gtk_label_set_text (GTK_LABEL (page->edit_status), "");
  show_audit (page);
  nb_results_page_reload (page);
}

/* ------------------------------------------------------------ editing -- */

typedef struct {
  char *path;
  gint64 trial_id;
  char *key, *value, *why;
} Edit;

static void
edit_free (gpointer p)
{
  Edit *e = p;

  g_free (e->path);
  g_free (e->key);
  g_free (e->value);
  g_free (e->why);
  g_free (e);
}

/* The store checks the value and the reason and logs the edit. */
static gboolean
edit_trial (NbCampaign *campaign, gpointer data, GError **error)
{
  Edit *e = data;

  return nb_campaign_edit_trial (campaign, e->trial_id, e->key, e->value, e->why, error);
}

static gpointer
edit_work (gpointer data, GError **error)
{
  return nb_io_change_campaign (((Edit *) data)->path, edit_trial, data, error);
}

static void
edit_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbResultsPage *page = NB_RESULTS_PAGE (owner);

  show_edit_status (page, error);
  if (error == NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (page->edit_value), "");
      gtk_editable_set_text (GTK_EDITABLE (page->edit_reason), "");
      nb_results_page_reload (page);
    }
  g_signal_emit (page, signals[SIGNAL_EDITED], 0, error == NULL);
}

static void
on_apply (GtkButton *button, gpointer user_data)
{
  NbResultsPage *page = user_data;
  NbTrialItem *item = selected_item (page);
  guint k = gtk_drop_down_get_selected (page->edit_key);
  Edit *e;

  if (item == NULL || page->path == NULL || k >= G_N_ELEMENTS (edit_keys))
    return;
  e = g_new0 (Edit, 1);
  e->path = g_strdup (page->path);
  e->trial_id = item->id;
  e->key = g_strdup (edit_keys[k]);
  e->value = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (page->edit_value))));
  e->why = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (page->edit_reason))));
  nb_io_queue_push (page->queue, G_OBJECT (page), edit_work, edit_done, e, edit_free, NULL);
}

/* ------------------------------------------------------------ queries -- */

guint
nb_results_page_get_n_shown (NbResultsPage *page)
{
  return g_list_model_get_n_items (G_LIST_MODEL (page->filtered));
}

gboolean
nb_results_page_select_trial (NbResultsPage *page, gint64 trial_id)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (page->filtered));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (NbTrialItem) item = g_list_model_get_item (G_LIST_MODEL (page->filtered), i);

      if (item->id == trial_id)
        {
          gtk_single_selection_set_selected (page->selection, i);
          show_audit (page);
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
nb_results_page_show_config (NbResultsPage *page, guint clause, const char *config)
{
  for (int i = 0;; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (page->results, i);
      ConfigView *v;

      if (row == NULL)
        return FALSE;
      v = g_object_get_data (G_OBJECT (row), "nb-config-view");
      if (v != NULL && v->clause == clause && g_strcmp0 (v->config, config) == 0)
        {
          gtk_stack_set_visible_child_name (page->views, "results");
          gtk_list_box_select_row (page->results, row);
          return TRUE;
        }
    }
}

guint
nb_results_page_get_n_figures (NbResultsPage *page)
{
  return page->shown != NULL ? page->shown->figures->len : 0;
}

void
nb_results_page_get_figure (NbResultsPage *page, guint i, const char **title, const char **value)
{
  const FigureRow *f;

  g_return_if_fail (i < nb_results_page_get_n_figures (page));
  f = g_ptr_array_index (page->shown->figures, i);
  *title = f->title;
  *value = f->value;
}

guint
nb_results_page_get_n_maps (NbResultsPage *page)
{
  return page->shown != NULL ? page->shown->maps->len : 0;
}

const NbMapView *
nb_results_page_get_map (NbResultsPage *page, guint i)
{
  g_return_val_if_fail (i < nb_results_page_get_n_maps (page), NULL);
  return &g_array_index (page->shown->maps, NbMapView, i);
}

guint
nb_results_page_get_n_audit (NbResultsPage *page)
{
  return page->n_audit;
}

guint
nb_results_page_get_n_events (NbResultsPage *page)
{
  return g_list_model_get_n_items (G_LIST_MODEL (page->events));
}

/* ------------------------------------------------------------- layout -- */

enum { COL_CLAUSE, COL_CONFIG, COL_SEQ, COL_OUTCOME, COL_VALUES, COL_REASON };

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
bind_trial_cell (GtkSignalListItemFactory *factory, GtkListItem *li, gpointer column)
{
  NbTrialItem *item = gtk_list_item_get_item (li);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (li));
  g_autofree char *text = NULL;

  switch (GPOINTER_TO_UINT (column))
    {
    case COL_CLAUSE:
      text = g_strdup_printf ("%u", item->clause);
      break;
    case COL_CONFIG:
      text = g_strdup (item->config);
      break;
    case COL_SEQ:
      text = g_strdup_printf ("%u", item->seq);
      break;
    case COL_OUTCOME:
      text = g_strdup (nb_outcome_text (item->outcome));
      break;
    case COL_VALUES:
      text = g_strdup (item->values);
      break;
    case COL_REASON:
    default:
      text = g_strdup (item->reason ? item->reason : "");
      break;
    }
  gtk_label_set_text (label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), text);
  if (GPOINTER_TO_UINT (column) == COL_OUTCOME && item->outcome != NB_TRIAL_OK)
    gtk_widget_add_css_class (GTK_WIDGET (label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "error");
}

static void
bind_event_cell (GtkSignalListItemFactory *factory, GtkListItem *li, gpointer column)
{
  NbEventItem *item = gtk_list_item_get_item (li);
  const char *text = item->columns[GPOINTER_TO_UINT (column)];

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (li)), text ? text : "");
  gtk_widget_set_tooltip_text (gtk_list_item_get_child (li), text);
}

/* A cell whose text wraps instead: what a trial recorded and why, an
 * event's subject and change (at 1024 px an ellipsis cut "0.800 s; 65
 * samples" off each stored trial, and at 1280 px the log's prompts and
 * set-ups lost their ends). */
static void
setup_wrapped_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_list_item_set_child (item, label);
}

static void
add_column (GtkColumnView *view, const char *title, guint column, GCallback bind,
            gboolean expand)
{
  g_autoptr (GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr (GtkColumnViewColumn) c = NULL;
  gboolean wrapped = expand || (bind == G_CALLBACK (bind_trial_cell) && column == COL_REASON);

  g_signal_connect (factory, "setup", G_CALLBACK (wrapped ? setup_wrapped_cell : setup_cell), NULL);
  g_signal_connect (factory, "bind", bind, GUINT_TO_POINTER (column));
  c = gtk_column_view_column_new (title, g_object_ref (factory));
  gtk_column_view_column_set_expand (c, expand);
  gtk_column_view_column_set_resizable (c, TRUE);
  gtk_column_view_append_column (view, c);
}

static void
nb_results_page_init (NbResultsPage *page)
{
  g_autoptr (GStrvBuilder) clauses = g_strv_builder_new ();
  g_auto (GStrv) clause_names = NULL;
  const NbClause *const *registry;
  GtkCustomFilter *filter;
  guint n;

  gtk_widget_init_template (GTK_WIDGET (page));
  g_strv_builder_add (clauses, _("All clauses"));
  registry = nb_clause_registry (&n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *item = g_strdup_printf ("%u — %s", registry[i]->number,
                                               _(registry[i]->title));

      g_strv_builder_add (clauses, item);
    }
  clause_names = g_strv_builder_end (clauses);
  {
    g_autoptr (GtkStringList) model = gtk_string_list_new ((const char *const *) clause_names);
    const char *keys[G_N_ELEMENTS (edit_keys) + 1] = { NULL };
    g_autoptr (GtkStringList) key_model = NULL;

    for (guint i = 0; i < G_N_ELEMENTS (edit_keys); i++)
      keys[i] = _(edit_labels[i]);
    gtk_drop_down_set_model (page->clause_filter, G_LIST_MODEL (model));
    {
      /* The button ellipsizes a clause's title (a line long in Russian); the
       * popup shows it whole. */
      g_autoptr (GtkListItemFactory) button = nb_label_item_factory_new (12, 22);

      gtk_drop_down_set_factory (page->clause_filter, button);
    }
    key_model = gtk_string_list_new (keys);
    gtk_drop_down_set_model (page->edit_key, G_LIST_MODEL (key_model));
  }
  {
    const char *all[] = { _("All configurations"), NULL };

    page->config_names = gtk_string_list_new (all);
    gtk_drop_down_set_model (page->config_filter, G_LIST_MODEL (page->config_names));
  }
  page->items = g_list_store_new (NB_TYPE_TRIAL_ITEM);
  filter = gtk_custom_filter_new (item_shown, page, NULL);
  page->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (page->items)),
                                              GTK_FILTER (filter));
  page->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (page->filtered)));
  gtk_single_selection_set_autoselect (page->selection, FALSE);
  gtk_single_selection_set_can_unselect (page->selection, TRUE);
  gtk_column_view_set_model (page->table, GTK_SELECTION_MODEL (page->selection));
  add_column (page->table, _("Clause"), COL_CLAUSE, G_CALLBACK (bind_trial_cell), FALSE);
  add_column (page->table, _("Configuration"), COL_CONFIG, G_CALLBACK (bind_trial_cell), FALSE);
  add_column (page->table, _("No."), COL_SEQ, G_CALLBACK (bind_trial_cell), FALSE);
  add_column (page->table, _("Outcome"), COL_OUTCOME, G_CALLBACK (bind_trial_cell), FALSE);
  add_column (page->table, _("Recorded"), COL_VALUES, G_CALLBACK (bind_trial_cell), TRUE);
  add_column (page->table, _("Reason"), COL_REASON, G_CALLBACK (bind_trial_cell), FALSE);

  page->events = g_list_store_new (NB_TYPE_EVENT_ITEM);
  {
    g_autoptr (GtkNoSelection) none = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (page->events)));

    gtk_column_view_set_model (page->log, GTK_SELECTION_MODEL (none));
  }
  add_column (page->log, _("Time"), 0, G_CALLBACK (bind_event_cell), FALSE);
  add_column (page->log, _("Who"), 1, G_CALLBACK (bind_event_cell), FALSE);
  add_column (page->log, _("What"), 2, G_CALLBACK (bind_event_cell), FALSE);
  add_column (page->log, _("Subject"), 3, G_CALLBACK (bind_event_cell), TRUE);
  add_column (page->log, _("Change"), 4, G_CALLBACK (bind_event_cell), TRUE);

  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (page->plot), draw_plot, page, NULL);
  /* Clause 10: a map's corner A'_i dragged by hand. */
  page->drag_map = -1;
  {
    GtkGesture *drag = gtk_gesture_drag_new ();

    g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), page);
    g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), page);
    g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), page);
    gtk_widget_add_controller (page->plot, GTK_EVENT_CONTROLLER (drag));
  }
  g_signal_connect (page->selection, "notify::selected", G_CALLBACK (on_selection), page);
  g_signal_connect (page->clause_filter, "notify::selected", G_CALLBACK (on_filter_changed), page);
  g_signal_connect (page->config_filter, "notify::selected", G_CALLBACK (on_filter_changed), page);
  g_signal_connect (page->edit_apply, "clicked", G_CALLBACK (on_apply), page);
  g_signal_connect_swapped (page->reload, "clicked", G_CALLBACK (nb_results_page_reload), page);
  g_signal_connect (page->results, "row-selected", G_CALLBACK (on_result_selected), page);
  show_audit (page);
}

static void
nb_results_page_dispose (GObject *object)
{
  NbResultsPage *page = NB_RESULTS_PAGE (object);

  /* The list boxes unselect their rows as they go. */
  if (page->results != NULL)
    g_signal_handlers_disconnect_by_data (page->results, page);
  if (page->selection != NULL)
    g_signal_handlers_disconnect_by_data (page->selection, page);
  page->shown = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (page), NB_TYPE_RESULTS_PAGE);
  G_OBJECT_CLASS (nb_results_page_parent_class)->dispose (object);
}

static void
nb_results_page_finalize (GObject *object)
{
  NbResultsPage *page = NB_RESULTS_PAGE (object);

  g_clear_object (&page->selection);
  g_clear_object (&page->filtered);
  g_clear_object (&page->items);
  g_clear_object (&page->events);
  g_clear_object (&page->config_names);
  g_clear_pointer (&page->event_data, g_array_unref);
  g_clear_pointer (&page->configs, g_ptr_array_unref);
  g_free (page->path);
  g_free (page->shown_config);
  g_clear_pointer (&page->queue, nb_io_queue_unref);
  G_OBJECT_CLASS (nb_results_page_parent_class)->finalize (object);
}

static void
nb_results_page_class_init (NbResultsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nb_results_page_dispose;
  object_class->finalize = nb_results_page_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/navbench/Navbench/nb-results-page.ui");
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, box);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, clause_filter);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, config_filter);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, reload);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, table);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, selected_label);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, edit_key);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, edit_value);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, edit_reason);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, edit_apply);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, edit_status);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, audit);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, log);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, results);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, plot);
  gtk_widget_class_bind_template_child (widget_class, NbResultsPage, views);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  signals[SIGNAL_LOADED] = g_signal_new ("loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_EDITED] = g_signal_new ("edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

GtkWidget *
nb_results_page_new (NbIoQueue *queue)
{
  NbResultsPage *page = g_object_new (NB_TYPE_RESULTS_PAGE, NULL);

  page->queue = nb_io_queue_ref (queue);
  return GTK_WIDGET (page);
}
