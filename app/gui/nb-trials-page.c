#include "nb-trials-page.h"

#include "nb-campaign-plan.h"
#include "nb-campaign-runner.h"
#include "nb-clause.h"
#include "nb-error.h"
#include "nb-figure-rows.h"
#include "nb-gui-paths.h"
#include "nb-http-robot.h"
#include "nb-course.h"
#include "nb-paced-robot.h"
#include "nb-protocol-columns.h"
#include "nb-run-plot.h"
#include "nb-runner-sim.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>

/* The routes of nb-route.c, as the runner takes them. */
static const char *const route_values[] = { N_("straight"), N_("rectangular"), N_("combined") };

/* Who drives the robot, as `campaign run --robot` takes it. */
enum { ROBOT_SIM, ROBOT_OPERATOR, ROBOT_URL };
static const char *const robot_values[] = {
  N_("Simulated base"), N_("Operator-driven"), N_("Motion stack (URL)"),
};
/* What Run runs. */
enum { SCOPE_TRIAL, SCOPE_CONFIG, SCOPE_PLAN };
static const char *const scope_values[] = {
  N_("One trial"), N_("The configuration"), N_("Everything left in the plan"),
};



/* The clause drop-down's items: the clauses of the registry the campaign
 * runner drives (nb_clause_driven), in the registry's order; a clause added
 * there is offered here.  NULL past the last. */
static const NbClause *
driven_clause (guint k)
{
  guint n;
  const NbClause *const *all = nb_clause_registry (&n);

  for (guint i = 0; i < n; i++)
    if (nb_clause_driven (all[i]) && k-- == 0)
      return all[i];
  return NULL;
}

/* How the runner drives a clause (nb-clause.h); NONE for no clause. */
static NbClauseRun
run_of (guint clause)
{
  const NbClause *c = nb_clause_lookup (clause);

  return c != NULL ? c->run : NB_CLAUSE_RUN_NONE;
}

/* A figure shown: a column of its clause's protocol table
 * (nb_protocol_figure_columns, the report's: one place, one translation),
 * "title, unit", or n for the clauses whose figures are statistics of n
 * trials.  Its value is named "figure-KEY" (the figures' JSON member, '_'
 * as '-': "figure-ap-mm") for nb_window_lookup. */
typedef struct {
  GtkWidget *label, *value;
  const char *key;
  int decimals;                 /* the window's: one more than the protocol's, to see a
                                 * figure move (a count keeps none) */
} FigureRow;
/* The controls only some clauses use. */
enum {
  OPT_ROUTE, OPT_LOAD, OPT_OBSTACLE, OPT_BEHAVIOUR, OPT_WIDTH, OPT_MIN, OPT_MAX, OPT_TRIALS,
  N_OPTS
};
/* Each control is shown for the clauses whose module takes its option
 * (nb-clause.h: one table for the CLI and the window).  The load goes with
 * the route (the configurations of 5.4 and 8.3). */
static const NbClauseOption control_option[N_OPTS] = {
  [OPT_ROUTE] = NB_CLAUSE_OPT_ROUTE,
  [OPT_LOAD] = NB_CLAUSE_OPT_ROUTE,
  [OPT_OBSTACLE] = NB_CLAUSE_OPT_OBSTACLE,
  [OPT_BEHAVIOUR] = NB_CLAUSE_OPT_BEHAVIOUR,
  [OPT_WIDTH] = NB_CLAUSE_OPT_PASSAGE_WIDTH,
  [OPT_MIN] = NB_CLAUSE_OPT_RANGES,
  [OPT_MAX] = NB_CLAUSE_OPT_RANGES,
  [OPT_TRIALS] = NB_CLAUSE_OPT_TRIALS,
};

static gboolean
control_shown (guint control, guint clause)
{
  const NbClause *c = nb_clause_lookup (clause);

  return c != NULL && nb_clause_takes (c, control_option[control]);
}

/* The operator's prompts of a run (nb-prompts.h), answered in the window:
 * the runner's worker waits while a dialog asks on the main context. */
typedef struct {
  GMutex lock;
  GCond cond;
  char *answer;
  gboolean answered;
  GCancellable *cancellable;
  GMainContext *context;
  NbTrialsPage *page;
} Asker;

typedef struct {
  NbTrialsPage *page;           /* a reference while the run lasts */
  NbRunnerSim *sim;
  NbPacedRobot robot;
  NbHttpRobot *http;
  NbPrompts *prompts;
  Asker asker;
  guint robot_kind;
  char *url;
  NbRunnerRig rig;
  gboolean have_rig;
  NbCampaignRunner *runner;
  GCancellable *cancellable;
  NbCampaignRunnerOptions options;
  char *config, *route;
  /* Everything left in the plan: the entries and the one running. */
  gboolean plan;
  GArray *pending;              /* of NbPlanEntry */
  guint next;
  NbRunnerSummary total;        /* counts over the plan's configurations */
  /* The instrument's samples (mm, its frame) from the worker, for the live
   * track; taken on the main context. */
  GMutex samples_lock;
  GArray *sx, *sy, *st;
} Run;

struct _NbTrialsPage {
  GtkWidget parent_instance;
  GtkWidget *paned;
  GtkWidget *clause, *config, *route, *load, *trials, *run_button, *stop_button;
  GtkWidget *obstacle, *behaviour, *width, *min_range, *max_range;
  GtkWidget *opt_label[N_OPTS], *opt_widget[N_OPTS];
  GtkStringList *obstacles;     /* clause 6: "all six" first; 7: the six */
  GtkWidget *list, *plot_area, *status;
  GtkWidget *robot, *url, *url_label, *scope, *track_area;
  GArray *track_x, *track_y, *track_t;  /* the trial in flight's track, mm, and its times */
  NbRunTrack *track;            /* its picture, drawn incrementally */
  double track_t0;              /* its start on the rig's clock: samples before are not its */
  guint track_timer;
  gint64 track_next_us;         /* no redraw before: the track takes at most a third of
                                 * the GTK thread (a loaded laptop, the Stop button) */
  NbDevice *device;             /* borrowed: the instrument chosen, or NULL (simulated) */
  AdwMessageDialog *prompt;     /* the operator's prompt shown now */
  GtkWidget *figures, *figures_heading;
  GArray *fig_rows;             /* of FigureRow: the clause's figures shown */
  guint fig_clause;             /* whose they are (0: none yet) */
  NbIoQueue *queue;
  char *path;
  double pace;
  Run *run;                     /* the run in progress, or NULL */
  gboolean starting;            /* queued behind the campaign's I/O */
  AdwMessageDialog *dialog;     /* "run more trials?" while it is asked */
  gboolean interim;             /* the figures shown are of a run not yet ended */
  gboolean device_in_use;       /* the runner measures with device */
  NbRunPlot plot;
};

G_DEFINE_FINAL_TYPE (NbTrialsPage, nb_trials_page, GTK_TYPE_WIDGET)

enum { SIGNAL_TRIAL_STARTED, SIGNAL_TRIAL_ENDED, SIGNAL_RUN_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];
enum { PROP_0, PROP_RUNNING, PROP_DEVICE_IN_USE, N_PROPS };
static GParamSpec *props[N_PROPS];

/* The runner's worker reads the instrument's events from now on (TRUE) or
 * no longer (FALSE): its owner (the Instrument page) stops draining them
 * meanwhile, else the two would share the samples. */
static void
set_device_in_use (NbTrialsPage *page, gboolean in_use)
{
  if (page->device_in_use == in_use)
    return;
  page->device_in_use = in_use;
  g_object_notify_by_pspec (G_OBJECT (page), props[PROP_DEVICE_IN_USE]);
}

static void
run_free (Run *run)
{
  g_clear_pointer (&run->runner, nb_campaign_runner_free);
  g_clear_pointer (&run->sim, nb_runner_sim_free);
  g_clear_pointer (&run->http, nb_http_robot_free);
  g_clear_pointer (&run->prompts, nb_prompts_free);
  g_clear_pointer (&run->pending, g_array_unref);
  g_clear_pointer (&run->sx, g_array_unref);
  g_clear_pointer (&run->sy, g_array_unref);
  g_clear_pointer (&run->st, g_array_unref);
  g_mutex_clear (&run->samples_lock);
  g_mutex_clear (&run->asker.lock);
  g_cond_clear (&run->asker.cond);
  g_free (run->asker.answer);
  g_clear_pointer (&run->asker.context, g_main_context_unref);
  g_free (run->url);
  g_clear_object (&run->cancellable);
  g_free (run->config);
  g_free (run->route);
  g_clear_object (&run->page);
  g_free (run);
}

gboolean
nb_trials_page_is_running (NbTrialsPage *page)
{
  return page->run != NULL || page->starting;
}

static void
set_status (NbTrialsPage *page, const char *text, gboolean error)
{
  gtk_label_set_text (GTK_LABEL (page->status), text);
  if (error)
    gtk_widget_add_css_class (page->status, "error");
  else
    gtk_widget_remove_css_class (page->status, "error");
}

static void
update_sensitivity (NbTrialsPage *page)
{
  gboolean running = nb_trials_page_is_running (page);
  GtkWidget *controls[] = { page->clause, page->config, page->route, page->load, page->trials,
                            page->obstacle, page->behaviour, page->width, page->min_range,
                            page->max_range };

  gboolean plan = gtk_drop_down_get_selected (GTK_DROP_DOWN (page->scope)) == SCOPE_PLAN;

  /* The plan says each configuration's clause and options itself. */
  for (guint i = 0; i < G_N_ELEMENTS (controls); i++)
    gtk_widget_set_sensitive (controls[i], !running && page->path != NULL && !plan);
  gtk_widget_set_sensitive (page->robot, !running && page->path != NULL);
  gtk_widget_set_sensitive (page->url, !running && page->path != NULL);
  gtk_widget_set_sensitive (page->scope, !running && page->path != NULL);
  gtk_widget_set_visible (page->url, gtk_drop_down_get_selected (GTK_DROP_DOWN (page->robot))
                                     == ROBOT_URL);
  gtk_widget_set_visible (page->url_label, gtk_widget_get_visible (page->url));
  gtk_widget_set_sensitive (page->run_button, !running && page->path != NULL);
  gtk_widget_set_sensitive (page->stop_button, running);
  g_object_notify_by_pspec (G_OBJECT (page), props[PROP_RUNNING]);
}

static guint
selected_clause (NbTrialsPage *page)
{
  const NbClause *c = driven_clause (gtk_drop_down_get_selected (GTK_DROP_DOWN (page->clause)));

  return (c != NULL ? c : driven_clause (0))->number;
}

/* Table 2's name selected (nb_obstacle_names), or NULL for clause 6's
 * "all six". */
static const char *
selected_obstacle (NbTrialsPage *page)
{
  guint k = gtk_drop_down_get_selected (GTK_DROP_DOWN (page->obstacle));
  const char *const *names = nb_obstacle_names ();
  guint n = g_strv_length ((char **) names);

  if (g_list_model_get_n_items (G_LIST_MODEL (page->obstacles)) > n)
    {
      if (k == 0)
        return NULL;
      k--;
    }
  return names[MIN (k, n - 1)];
}

static void
add_figure_row (NbTrialsPage *page, const char *title, const char *unit, const char *key,
                int decimals)
{
  g_autofree char *text = nb_figure_title (title, unit);
  g_autofree char *name = g_strdelimit (g_strconcat ("figure-", key, NULL), "_", '-');
  FigureRow row = { gtk_label_new (text), gtk_label_new ("—"), key, decimals };

  gtk_widget_set_name (row.value, name);
  gtk_label_set_selectable (GTK_LABEL (row.value), TRUE);
  nb_figure_row_attach (GTK_GRID (page->figures), (int) page->fig_rows->len, row.label, row.value,
                        28);
  g_array_append_val (page->fig_rows, row);
}

/* The rows of the clause's figures: n when they are statistics of n, then
 * its protocol table's figure columns in table order (none: the heading
 * goes too). */
static void
show_figure_rows (NbTrialsPage *page, guint clause)
{
  const NbClause *c = nb_clause_lookup (clause);
  const NbProtocolColumn *cols;
  guint n;

  if (clause == page->fig_clause)
    return;
  for (guint i = 0; i < page->fig_rows->len; i++)
    {
      FigureRow *row = &g_array_index (page->fig_rows, FigureRow, i);

      gtk_grid_remove (GTK_GRID (page->figures), row->label);
      gtk_grid_remove (GTK_GRID (page->figures), row->value);
    }
  g_array_set_size (page->fig_rows, 0);
  page->fig_clause = clause;
  if (c != NULL && c->statistics_of_n)
    add_figure_row (page, _("Trials counted n"), NULL, "n", 0);
  cols = nb_protocol_figure_columns (clause, &n);
  for (guint i = 0; i < n; i++)
    add_figure_row (page, _(cols[i].title), cols[i].unit != NULL ? _(cols[i].unit) : NULL,
                    cols[i].key, cols[i].decimals > 0 ? (int) cols[i].decimals + 1 : 0);
  gtk_widget_set_visible (page->figures_heading, page->fig_rows->len > 0);
}

static GtkWidget *
figure_value (NbTrialsPage *page, guint i)
{
  return g_array_index (page->fig_rows, FigureRow, i).value;
}

static void
set_figure (NbTrialsPage *page, guint i, double value)
{
  char buf[32];

  /* The one figure printer ("—" when undefined), with the row's decimals. */
  gtk_label_set_text (GTK_LABEL (figure_value (page, i)),
                      nb_clause_format_figure (buf, value,
                                               g_array_index (page->fig_rows, FigureRow, i).decimals));
}

/* A verdict as the protocol writes it. */
static void
set_verdict (NbTrialsPage *page, guint i, gboolean passed)
{
  GtkWidget *value = figure_value (page, i);

  /* Before the run's last trial a verdict is not one yet (7.3, 9.3 judge
   * the configuration's trials together): said so, and set apart. */
  if (page->interim)
    {
      /* TRANSLATORS: an interim verdict, yes or no, while trials remain. */
      g_autofree char *text = g_strdup_printf (_("%s so far"), passed ? _("yes") : _("no"));

      gtk_label_set_text (GTK_LABEL (value), text);
      gtk_widget_add_css_class (value, "interim");
    }
  else
    {
      gtk_label_set_text (GTK_LABEL (value), passed ? _("yes") : _("no"));
      gtk_widget_remove_css_class (value, "interim");
    }
}

static void
clear_figures (NbTrialsPage *page)
{
  for (guint i = 0; i < page->fig_rows->len; i++)
    {
      gtk_label_set_text (GTK_LABEL (figure_value (page, i)), "—");
      gtk_widget_remove_css_class (figure_value (page, i), "interim");
    }
}

/* The configuration's figures so far, as the runner computed them from the
 * store (nb_config_result_compute). */
static void
show_figures (NbTrialsPage *page, const NbConfigResult *r)
{
  if (r == NULL || r->error != NULL)
    {
      clear_figures (page);
      page->plot.have_figures = FALSE;
      /* Why every figure is "—", on the first of them. */
      if (r != NULL && page->fig_rows->len > 0)
        gtk_widget_set_tooltip_text (figure_value (page, 0), r->error);
      return;
    }
  if (page->fig_rows->len > 0)
    gtk_widget_set_tooltip_text (figure_value (page, 0), NULL);
  /* (The rows are the clause's whose run this is: show_figure_rows when it
   * starts.) */
  if (r->clause == page->fig_clause)
    {
      /* Each figure by its key in the clause's JSON (the clause module's
       * json method: one place for the keys and their values). */
      g_autoptr (JsonNode) root = nb_figures_json (r);
      JsonObject *o = root != NULL ? json_node_get_object (root) : NULL;

      for (guint i = 0; o != NULL && i < page->fig_rows->len; i++)
        {
          JsonNode *v = json_object_get_member (o, g_array_index (page->fig_rows, FigureRow, i).key);

          if (v != NULL && JSON_NODE_HOLDS_VALUE (v) &&
              json_node_get_value_type (v) == G_TYPE_BOOLEAN)
            set_verdict (page, i, json_node_get_boolean (v));
          else
            set_figure (page, i, v != NULL && JSON_NODE_HOLDS_VALUE (v)
                                 ? json_node_get_double (v) : NAN);
        }
    }
  /* What the plot draws with: each clause reads its own member. */
  page->plot.pose = r->pose;
  page->plot.path = r->path;
  page->plot.avoidance = r->avoidance;
  page->plot.passage = r->passage;
  page->plot.have_figures = TRUE;
}

static void
add_list_row (NbTrialsPage *page, const char *text, gboolean problem)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_end (label, 6);
  gtk_widget_set_margin_top (label, 3);
  gtk_widget_set_margin_bottom (label, 3);
  if (problem)
    gtk_widget_add_css_class (label, "error");
  /* Newest first: the trial that just ended is in view while a run goes on
   * (the list is a few rows high). */
  gtk_list_box_prepend (GTK_LIST_BOX (page->list), label);
}

/* Table 2's obstacle in the window's language (core/nb-course.c marks the
 * names for translation, as the protocol shows them). */
static const char *
obstacle_title (const char *name)
{
  return name != NULL && g_strv_contains (nb_obstacle_names (), name) ? _(name) : name;
}

/* Clauses 6, 7, 9: what the trial's row says after its outcome; NULL when
 * there is nothing to add (an aborted trial). */
static char *
course_event_text (NbTrialsPage *page, const NbRunnerEvent *ev)
{
  const char *verdict;
  const NbClause *clause = nb_clause_lookup (ev->clause);

  if (clause->run == NB_CLAUSE_RUN_PLACEMENTS)
    {
      const char *range = ev->max_range ? _("max range") : _("min range");
      double a = ev->angle_deg * G_PI / 180.0;

      if (ev->outcome != NB_TRIAL_OK)
        return NULL;
      if (ev->detected)
        nb_run_plot_add_to (&page->plot, ev->measured_mm * cos (a), ev->measured_mm * sin (a),
                            NB_RUN_PLOT_SERIES_MAIN);
      else
        nb_run_plot_add_to (&page->plot, ev->true_mm * cos (a), ev->true_mm * sin (a),
                            NB_RUN_PLOT_SERIES_OTHER);
      /* TRANSLATORS: obstacle, direction, range, declared distance. */
      return ev->detected
             ? g_strdup_printf (_("%s at %g°, %s %.0f mm: detected at %.1f mm"),
                                obstacle_title (ev->obstacle), ev->angle_deg, range, ev->true_mm,
                                ev->measured_mm)
             : g_strdup_printf (_("%s at %g°, %s %.0f mm: not detected"),
                                obstacle_title (ev->obstacle), ev->angle_deg, range, ev->true_mm);
    }
  if (ev->outcome == NB_TRIAL_ABORTED || ev->number == 0)
    return NULL;
  /* Contact is the runner's measure (clearance ≤ 0 mm); a trial that missed
   * PG says so in its reason. */
  verdict = ev->outcome == NB_TRIAL_OK ? _("success")
            : ev->clearance_mm <= 0.0 ? _("contact") : _("failed");
  if (isfinite (ev->time_s))
    nb_run_plot_add_to (&page->plot, (double) (ev->number > 0 ? ev->number : ev->trial), ev->time_s,
                        g_strcmp0 (ev->trial_kind, "obstacle") == 0 ? NB_RUN_PLOT_SERIES_OTHER
                                                                     : NB_RUN_PLOT_SERIES_MAIN);
  /* Clause 7: a baseline trial or one with the obstacle (7.3). */
  if (clause->baseline)
    {
      const char *kind = g_strcmp0 (ev->trial_kind, "obstacle") == 0 ? _("with obstacle")
                                                                     : _("baseline");

      return isfinite (ev->time_s)
             ? g_strdup_printf (_("%s trial %u: %.3f s, %s"), kind, ev->number, ev->time_s,
                                verdict)
             : g_strdup_printf (_("%s trial %u: %s"), kind, ev->number, verdict);
    }
  return isfinite (ev->time_s)
         ? g_strdup_printf (_("passage %u: %.3f s, %s"), ev->number, ev->time_s, verdict)
         : g_strdup_printf (_("passage %u: %s"), ev->number, verdict);
}

/* ----------------------------------------------------------- prompts -- */

typedef struct {
  Asker *asker;
  NbPromptKind kind;
  char *question, *proposal;
} PromptRequest;

static void
prompt_request_free (gpointer p)
{
  PromptRequest *req = p;

  g_free (req->question);
  g_free (req->proposal);
  g_free (req);
}

static void
answer_prompt (Asker *asker, const char *answer)
{
  g_mutex_lock (&asker->lock);
  g_free (asker->answer);
  asker->answer = g_strdup (answer);
  asker->answered = TRUE;
  g_cond_signal (&asker->cond);
  g_mutex_unlock (&asker->lock);
}

static void
on_prompt_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  Asker *asker = user_data;
  NbTrialsPage *page = asker->page;
  GtkWidget *entry = adw_message_dialog_get_extra_child (dialog);

  if (page->prompt == dialog)
    page->prompt = NULL;
  if (g_str_equal (response, "stop"))
    {
      /* No answer is recorded: the run stops, the trial in flight aborted. */
      nb_trials_page_stop (page);
      return;
    }
  answer_prompt (asker, entry != NULL ? gtk_editable_get_text (GTK_EDITABLE (entry)) : response);
}

/* On the main context: the question as a dialog. */
static gboolean
show_prompt (gpointer data)
{
  PromptRequest *req = data;
  NbTrialsPage *page = req->asker->page;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (page));
  const char *heading = req->kind == NB_PROMPT_CONFIRM ? _("The Operator’s Turn")
                        : req->kind == NB_PROMPT_JUDGE ? _("What Did You See?")
                                                       : _("The Operator’s Answer");
  GtkWidget *dialog;
  AdwMessageDialog *md;

  if (g_cancellable_is_cancelled (req->asker->cancellable))
    return G_SOURCE_REMOVE;
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading,
                                   req->question);
  md = ADW_MESSAGE_DIALOG (dialog);
  gtk_widget_set_name (dialog, "operator-prompt");
  adw_message_dialog_add_response (md, "stop", _("_Stop the Run"));
  adw_message_dialog_set_response_appearance (md, "stop", ADW_RESPONSE_DESTRUCTIVE);
  switch (req->kind)
    {
    case NB_PROMPT_CONFIRM:
      adw_message_dialog_add_response (md, "yes", _("_Done"));
      adw_message_dialog_set_response_appearance (md, "yes", ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (md, "yes");
      break;
    case NB_PROMPT_JUDGE:
      adw_message_dialog_add_responses (md, "no", _("_No"), "yes", _("_Yes"), NULL);
      /* What the measurements propose is the default, not the answer. */
      if (req->proposal != NULL)
        {
          g_autofree char *body = g_strdup_printf (_("%s\n\nThe measurements say: %s."),
                                                   req->question,
                                                   g_str_equal (req->proposal, "yes") ? _("yes")
                                                                                      : _("no"));

          adw_message_dialog_set_body (md, body);
          adw_message_dialog_set_default_response (md, req->proposal);
        }
      break;
    case NB_PROMPT_TEXT:
    default:
      {
        GtkWidget *entry = gtk_entry_new ();

        if (req->proposal != NULL)
          gtk_editable_set_text (GTK_EDITABLE (entry), req->proposal);
        gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
        adw_message_dialog_set_extra_child (md, entry);
        adw_message_dialog_add_response (md, "yes", _("_OK"));
        adw_message_dialog_set_response_appearance (md, "yes", ADW_RESPONSE_SUGGESTED);
        adw_message_dialog_set_default_response (md, "yes");
      }
      break;
    }
  adw_message_dialog_set_close_response (md, "stop");
  g_signal_connect (dialog, "response", G_CALLBACK (on_prompt_response), req->asker);
  page->prompt = md;
  gtk_window_present (GTK_WINDOW (dialog));
  return G_SOURCE_REMOVE;
}

/* In the runner's worker: asks on the main context and waits for the
 * answer, or for Stop. */
static gboolean
ask_in_window (NbPromptKind kind, const char *question, const char *proposal, char **answer,
               gpointer user_data, GError **error)
{
  Asker *asker = user_data;
  PromptRequest *req = g_new0 (PromptRequest, 1);
  gboolean ok = FALSE;

  req->asker = asker;
  req->kind = kind;
  req->question = g_strdup (question);
  req->proposal = g_strdup (proposal);
  g_mutex_lock (&asker->lock);
  asker->answered = FALSE;
  g_clear_pointer (&asker->answer, g_free);
  g_main_context_invoke_full (asker->context, G_PRIORITY_DEFAULT, show_prompt, req,
                              prompt_request_free);
  for (;;)
    {
      if (asker->answered)
        {
          *answer = g_steal_pointer (&asker->answer);
          ok = TRUE;
          break;
        }
      if (g_cancellable_set_error_if_cancelled (asker->cancellable, error))
        break;
      g_cond_wait_until (&asker->cond, &asker->lock,
                         g_get_monotonic_time () + 100 * G_TIME_SPAN_MILLISECOND);
    }
  g_mutex_unlock (&asker->lock);
  return ok;
}

static void
close_prompt (NbTrialsPage *page)
{
  AdwMessageDialog *dialog = g_steal_pointer (&page->prompt);

  if (dialog != NULL)
    {
      g_signal_handlers_disconnect_matched (dialog, G_SIGNAL_MATCH_FUNC, 0, 0, NULL,
                                            on_prompt_response, NULL);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
}

/* ------------------------------------------------------- live track -- */

/* In the worker: every sample the instrument hands over. */
static void
on_sample (const NbSample *sample, gpointer user_data)
{
  Run *run = user_data;
  double x = sample->x_m * 1000.0, y = sample->y_m * 1000.0, t = sample->t_s;

  if (!isfinite (x) || !isfinite (y))
    return;
  g_mutex_lock (&run->samples_lock);
  g_array_append_val (run->sx, x);
  g_array_append_val (run->sy, y);
  g_array_append_val (run->st, t);
  g_mutex_unlock (&run->samples_lock);
}

/* On the main context, at the plot's frame rate: the samples so far onto
 * the live track. */
static void
take_samples (NbTrialsPage *page)
{
  Run *run = page->run;
  guint n;

  if (run == NULL)
    return;
  g_mutex_lock (&run->samples_lock);
  n = run->sx->len;
  /* The events and the samples come by different ways: the trial's start
   * decides by time which samples are its. */
  for (guint i = 0; i < n; i++)
    if (!(g_array_index (run->st, double, i) < page->track_t0))
      {
        g_array_append_val (page->track_x, g_array_index (run->sx, double, i));
        g_array_append_val (page->track_y, g_array_index (run->sy, double, i));
        g_array_append_val (page->track_t, g_array_index (run->st, double, i));
      }
  g_array_set_size (run->sx, 0);
  g_array_set_size (run->sy, 0);
  g_array_set_size (run->st, 0);
  g_mutex_unlock (&run->samples_lock);
  /* Drawn only where it is seen, and not more often than the time a
   * drawing takes allows: the main loop's time is the run's too. */
  if (n > 0 && gtk_widget_get_mapped (page->track_area) &&
      g_get_monotonic_time () >= page->track_next_us)
    gtk_widget_queue_draw (page->track_area);
}

static gboolean
on_track_timer (gpointer user_data)
{
  take_samples (user_data);
  return G_SOURCE_CONTINUE;
}

static void
reset_track (NbTrialsPage *page)
{
  page->track_t0 = -INFINITY;
  g_array_set_size (page->track_t, 0);
  g_array_set_size (page->track_x, 0);
  g_array_set_size (page->track_y, 0);
  nb_run_track_reset (page->track);
  gtk_widget_queue_draw (page->track_area);
}

/* A trial started at t0_s: its samples are those from then on, whether
 * they were taken before its event came or after. */
static void
start_track (NbTrialsPage *page, double t0_s)
{
  guint k = 0;

  take_samples (page);
  page->track_t0 = t0_s;
  for (guint i = 0; i < page->track_t->len; i++)
    if (!(g_array_index (page->track_t, double, i) < t0_s))
      {
        g_array_index (page->track_x, double, k) = g_array_index (page->track_x, double, i);
        g_array_index (page->track_y, double, k) = g_array_index (page->track_y, double, i);
        g_array_index (page->track_t, double, k) = g_array_index (page->track_t, double, i);
        k++;
      }
  g_array_set_size (page->track_x, k);
  g_array_set_size (page->track_y, k);
  g_array_set_size (page->track_t, k);
  nb_run_track_reset (page->track);
  gtk_widget_queue_draw (page->track_area);
}

guint
nb_trials_page_get_track_points (NbTrialsPage *page)
{
  return page->track_x->len;
}

AdwMessageDialog *
nb_trials_page_get_prompt (NbTrialsPage *page)
{
  return page->prompt;
}

void
nb_trials_page_set_device (NbTrialsPage *page, NbDevice *device)
{
  /* The device a run measures with stays (its owner does not stop it
   * meanwhile: device-in-use). */
  g_return_if_fail (!page->device_in_use || device == page->device);
  page->device = device;
}

/* ------------------------------------------------------------ events -- */

static void
on_progress (const NbRunnerEvent *ev, gpointer user_data)
{
  Run *run = user_data;
  NbTrialsPage *page = run->page;
  /* The runner's reason (a record, English) in the window's language. */
  g_autofree char *reason = nb_gui_reason_text (ev->reason);

  if (ev->kind == NB_RUNNER_EVENT_TRIAL_STARTED)
    {
      g_autofree char *text = g_strdup_printf (_("Trial %u of %u running…"), ev->trial,
                                               ev->n_trials);

      /* The live track is the trial's: what came before is the way to P0. */
      start_track (page, ev->t_s);
      set_status (page, text, FALSE);
      g_signal_emit (page, signals[SIGNAL_TRIAL_STARTED], 0, ev->trial);
      return;
    }
  {
    g_autofree char *what = NULL, *text = NULL;

    NbClauseRun kind = run_of (ev->clause);
    gboolean own_verdict = kind == NB_CLAUSE_RUN_PLACEMENTS || kind == NB_CLAUSE_RUN_COURSE;

    if (own_verdict)
      what = course_event_text (page, ev);
    else if (kind == NB_CLAUSE_RUN_POSE && !isnan (ev->attained.x_mm))
      {
        what = g_strdup_printf (_("attained x %.3f mm, y %.3f mm, θ %.3f°"), ev->attained.x_mm,
                                ev->attained.y_mm, ev->attained.theta_deg);
        page->plot.command_x_mm = ev->command.x_mm;
        page->plot.command_y_mm = ev->command.y_mm;
        if (ev->outcome == NB_TRIAL_OK)
          nb_run_plot_add (&page->plot, ev->attained.x_mm - ev->command.x_mm,
                           ev->attained.y_mm - ev->command.y_mm);
      }
    else if (kind == NB_CLAUSE_RUN_PATH && !isnan (ev->d_mm))
      {
        what = g_strdup_printf (_("d_i %.3f mm over %lu samples"), ev->d_mm,
                                (unsigned long) ev->n_samples);
        if (ev->outcome == NB_TRIAL_OK)
          nb_run_plot_add (&page->plot, (double) ev->seq, ev->d_mm);
      }
    if (own_verdict && what != NULL)
      /* The event names its own verdict (detected, success, contact). */
      text = g_strdup_printf (_("Trial %u/%u: %s%s%s"), ev->trial, ev->n_trials, what,
                              reason ? " — " : "", reason ? reason : "");
    else
      text = g_strdup_printf (_("Trial %u/%u (no. %u): %s%s%s%s%s"), ev->trial, ev->n_trials,
                              ev->seq, nb_outcome_text (ev->outcome), what ? " — " : "",
                              what ? what : "", reason ? " — " : "",
                              reason ? reason : "");
    add_list_row (page, text, ev->outcome != NB_TRIAL_OK);
    page->interim = ev->trial < ev->n_trials;
    show_figures (page, ev->figures);
    gtk_widget_queue_draw (page->plot_area);
    g_signal_emit (page, signals[SIGNAL_TRIAL_ENDED], 0, ev->trial, (guint) ev->outcome);
  }
}

/* "N trials run: …" in the catalogue's plural forms. */
static char *
summary_text (const NbRunnerSummary *summary)
{
  g_autofree char *run = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u trial run",
                                                       "%u trials run", summary->run),
                                          summary->run);

  /* TRANSLATORS: "5 trials run: 5 ok, 0 failed, 0 aborted." */
  return g_strdup_printf (_("%s: %u ok, %u failed, %u aborted."), run, summary->ok,
                          summary->failed, summary->aborted);
}

static gboolean start_plan_entry (NbTrialsPage *page, Run *run, GError **error);

static void
on_run_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Run *run = user_data;
  NbTrialsPage *page = run->page;
  g_autoptr (GError) error = NULL;
  NbRunnerSummary summary = { 0 };
  gboolean ok = nb_campaign_runner_run_finish (run->runner, result, &summary, &error);
  g_autofree char *counts = NULL;

  take_samples (page);
  close_prompt (page);
  run->total.run += summary.run;
  run->total.ok += summary.ok;
  run->total.failed += summary.failed;
  run->total.aborted += summary.aborted;
  run->total.incomplete += summary.incomplete;
  /* The plan goes on with its next configuration (as campaign run --all:
   * a configuration that fails stops it). */
  if (ok && run->plan && run->next + 1 < run->pending->len &&
      !g_cancellable_is_cancelled (run->cancellable))
    {
      nb_runner_summary_clear (&summary);
      run->next++;
      if (start_plan_entry (page, run, &error))
        return;
      ok = error == NULL;
    }
  counts = summary_text (run->plan ? &run->total : &summary);

  if (ok)
    set_status (page, counts, FALSE);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *text = g_strdup_printf ("%s %s", _("Stopped."), counts);

      set_status (page, text, FALSE);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("%s %s", error->message, counts);

      set_status (page, text, TRUE);
    }
  /* The run has ended: its figures (from the store) are the
   * configuration's, verdicts included. */
  page->interim = FALSE;
  show_figures (page, &summary.figures);
  gtk_widget_queue_draw (page->plot_area);
  nb_runner_summary_clear (&summary);
  page->run = NULL;
  set_device_in_use (page, FALSE);
  g_clear_handle_id (&page->track_timer, g_source_remove);
  update_sensitivity (page);
  g_application_release (g_application_get_default ());
  g_signal_emit (page, signals[SIGNAL_RUN_FINISHED], 0);
  run_free (run);
}

/* What the store holds before a run (read in the I/O queue, behind the
 * form's saves): whether LU can be laid out, the configuration's trials
 * so far (the question before running more than the clause asks for) and
 * their plot points (a run's plot shows the configuration, as its
 * figures do). */
typedef struct {
  gboolean have_lu;
  GError *plan_error;           /* the plan could not be made or read */
  guint counted;                /* trials that count towards the clause's number */
  GArray *x, *y, *series;       /* the plot's points of the stored trials */
} Prior;

static void
prior_free (gpointer p)
{
  Prior *prior = p;

  g_array_unref (prior->x);
  g_array_unref (prior->y);
  g_array_unref (prior->series);
  g_clear_error (&prior->plan_error);
  g_free (prior);
}

/* The trials that count towards the clause's number (its counts method;
 * clause 7: those with the obstacle, the baseline is a prerequisite). */
static void
prior_count (Prior *prior, const NbClause *clause, GArray *trials)
{
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      if (clause->counts (t) && (!clause->baseline || g_strcmp0 (t->kind, "obstacle") == 0))
        prior->counted++;
    }
  /* Clause 6 counts placements per obstacle (6.3), not a configuration's
   * trials: never asked. */
  if (clause->run == NB_CLAUSE_RUN_PLACEMENTS)
    prior->counted = 0;
}

static gpointer
start_work (gpointer data, GError **error)
{
  Run *run = data;
  g_autoptr (NbCampaign) campaign = nb_campaign_open (run->page->path, NB_CAMPAIGN_OPEN_READ_ONLY,
                                                      error);
  Prior *prior;
  NbCampaignConfig cfg;
  double lu_mm;
  g_autoptr (GError) local = NULL;

  if (campaign == NULL)
    return NULL;
  prior = g_new0 (Prior, 1);
  prior->x = g_array_new (FALSE, FALSE, sizeof (double));
  prior->y = g_array_new (FALSE, FALSE, sizeof (double));
  prior->series = g_array_new (FALSE, FALSE, sizeof (guint));
  prior->have_lu = nb_campaign_get_lu_mm (campaign, &lu_mm, NULL) && isfinite (lu_mm) && lu_mm > 0;
  if (run->plan && prior->have_lu)
    {
      /* campaign run --all's list: the plan is made on first use (the file
       * opened for writing for that, then closed before the runner opens
       * it). */
      g_autoptr (NbCampaign) rw = NULL;

      nb_campaign_close (g_steal_pointer (&campaign), NULL);
      if ((rw = nb_campaign_open (run->page->path, 0, &prior->plan_error)) == NULL ||
          (run->pending = nb_plan_pending (rw, 0, NULL, &prior->plan_error)) == NULL ||
          !nb_campaign_close (g_steal_pointer (&rw), &prior->plan_error))
        return prior;
      return prior;
    }
  nb_campaign_config_init (&cfg);
  if (nb_campaign_find_config (campaign, run->options.clause, run->config, &cfg, &local))
    {
      g_autoptr (GArray) trials = nb_campaign_list_trials (campaign, cfg.id, NULL);
      const NbClause *clause = nb_clause_lookup (run->options.clause);
      NbConfigResult r = { 0 };
      gboolean have_r = clause->run == NB_CLAUSE_RUN_PATH &&
                        nb_config_result_compute (campaign, &cfg, &r, NULL);

      if (trials != NULL)
        {
          NbRunPlot points;

          prior_count (prior, clause, trials);
          nb_run_plot_init (&points);
          nb_run_plot_add_trials (&points, clause, trials, have_r ? &r : NULL);
          g_array_append_vals (prior->x, points.x->data, points.x->len);
          g_array_append_vals (prior->y, points.y->data, points.y->len);
          g_array_append_vals (prior->series, points.series->data, points.series->len);
          nb_run_plot_clear (&points);
        }
      if (have_r)
        nb_config_result_clear (&r);
    }
  nb_campaign_config_clear (&cfg);
  nb_campaign_close (g_steal_pointer (&campaign), NULL);
  return prior;
}

static void start_runner (NbTrialsPage *page, Run *run);

static void
finish_unstarted (NbTrialsPage *page, Run *run, const char *text, gboolean problem)
{
  page->starting = FALSE;
  set_status (page, text, problem);
  update_sensitivity (page);
  g_signal_emit (page, signals[SIGNAL_RUN_FINISHED], 0);
  run_free (run);
}

static void
on_more_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  Run *run = user_data;
  NbTrialsPage *page = run->page;

  page->dialog = NULL;
  if (g_str_equal (response, "more"))
    start_runner (page, run);
  else
    finish_unstarted (page, run, _("Not run: the configuration keeps its trials."), FALSE);
}

static void
start_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbTrialsPage *page = NB_TRIALS_PAGE (owner);
  Run *run = data;
  Prior *prior = result ? *result : NULL;
  const NbClause *clause = nb_clause_get (run->options.clause);

  if (error != NULL)
    {
      finish_unstarted (page, run, error->message, TRUE);
      return;
    }
  /* The runner's own message names a CLI command; the window's user sets
   * the width on the Campaign page. */
  if (!prior->have_lu)
    {
      finish_unstarted (page, run, _("The robot's width is not set: enter it on the Campaign "
                                     "page (it gives LU, ISO 18646-2 4.5)."), TRUE);
      return;
    }
  if (run->plan)
    {
      g_autoptr (GError) local = NULL;

      if (prior->plan_error != NULL)
        finish_unstarted (page, run, prior->plan_error->message, TRUE);
      else if (run->pending->len == 0)
        finish_unstarted (page, run, _("Nothing is left to run: every configuration of the plan "
                                       "is complete or out of scope."), FALSE);
      else if (!start_plan_entry (page, run, &local))
        finish_unstarted (page, run, local != NULL ? local->message
                                     : _("Nothing is left that the runner drives."),
                          local != NULL);
      return;
    }
  for (guint i = 0; i < prior->x->len; i++)
    nb_run_plot_add_to (&page->plot, g_array_index (prior->x, double, i),
                        g_array_index (prior->y, double, i),
                        g_array_index (prior->series, guint, i));
  gtk_widget_queue_draw (page->plot_area);
  if (prior->counted > 0 && clause != NULL && prior->counted >= clause->trials)
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (page));
      g_autofree char *body = NULL;
      GtkWidget *dialog;

      body = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "“%s” has %u trials; clause %u asks for %u. Run %u more "
                                           "trial all the same?",
                                           "“%s” has %u trials; clause %u asks for %u. Run %u more "
                                           "trials all the same?", run->options.trials),
                              run->config, prior->counted, clause->number, clause->trials,
                              run->options.trials);
      dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                       _("The Configuration Is Complete"), body);
      adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                        "more", _("Run _More"), NULL);
      adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
      adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
      g_signal_connect (dialog, "response", G_CALLBACK (on_more_response), run);
      page->dialog = ADW_MESSAGE_DIALOG (dialog);
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }
  start_runner (page, run);
}

AdwMessageDialog *
nb_trials_page_get_dialog (NbTrialsPage *page)
{
  return page->dialog;
}

guint
nb_trials_page_get_plot_points (NbTrialsPage *page)
{
  return page->plot.x->len;
}

/* The rig of the robot chosen (as campaign run --robot builds it): the
 * simulated base watched by the simulated tracker, paced to be seen; or
 * the instrument chosen, with the operator driving the robot or the motion
 * stack's HTTP API, and the operator's prompts as dialogs. */
static gboolean
make_rig (NbTrialsPage *page, Run *run, GError **error)
{
  if (run->have_rig)
    return TRUE;
  memset (&run->rig, 0, sizeof run->rig);
  if (run->robot_kind == ROBOT_SIM)
    {
      NbRunnerSimOptions so;

      nb_runner_sim_options_init (&so);
      /* A new seed per run: appended runs are new trials, not replays. */
      so.seed = g_random_int ();
      if ((run->sim = nb_runner_sim_new (&so, error)) == NULL)
        return FALSE;
      run->robot.inner = nb_sim_base_ops ();
      run->robot.robot = nb_runner_sim_base (run->sim);
      run->robot.sim = run->sim;
      run->robot.pace = page->pace;
      run->robot.cancellable = run->cancellable;
      nb_runner_sim_rig (run->sim, &run->rig);
      run->rig.robot_ops = nb_paced_robot_ops ();
      run->rig.robot = &run->robot;
    }
  else
    {
      run->asker.cancellable = run->cancellable;
      run->asker.context = g_main_context_ref_thread_default ();
      run->asker.page = page;
      run->prompts = nb_prompts_new_func (g_get_real_name (), ask_in_window, &run->asker);
      /* The standard's questions in the window's language (the log keeps
       * them in English). */
      nb_prompts_set_words (run->prompts, nb_gui_catalogue (nb_gui_ui_language (), NULL));
      run->rig.device = page->device;
      run->rig.prompts = run->prompts;
      if (run->robot_kind == ROBOT_URL)
        {
          if ((run->http = nb_http_robot_new (run->url, g_getenv ("NAVBENCH_TOKEN"), 600.0,
                                              error)) == NULL)
            return FALSE;
          run->rig.robot_ops = nb_http_robot_ops ();
          run->rig.robot = run->http;
        }
    }
  run->have_rig = TRUE;
  return TRUE;
}

static const char *
robot_name (Run *run)
{
  return run->robot_kind == ROBOT_SIM ? "sim-base (simulated base, simulated tracker)"
         : run->robot_kind == ROBOT_OPERATOR
         ? "operator-driven (trials segmented from the instrument's stream)"
         : run->url;
}

/* Starts the runner on run->options (the page's run, or one of the plan). */
static gboolean
launch (NbTrialsPage *page, Run *run, GError **error)
{
  g_clear_pointer (&run->runner, nb_campaign_runner_free);
  if (!make_rig (page, run, error))
    return FALSE;
  run->options.robot_name = robot_name (run);
  run->options.on_sample = on_sample;
  run->options.on_sample_data = run;
  /* The page says which trial runs, and Stop aborts that one, however late
   * the main loop hears of it (a loaded machine, a sanitizer). */
  run->options.hold_until_heard = TRUE;
  if ((run->runner = nb_campaign_runner_new (page->path, &run->options, &run->rig, error)) == NULL)
    return FALSE;
  nb_campaign_runner_run_async (run->runner, run->cancellable, on_progress, run, on_run_done, run);
  return TRUE;
}

static void
start_runner (NbTrialsPage *page, Run *run)
{
  g_autoptr (GError) local = NULL;

  page->starting = FALSE;
  page->run = run;
  /* Before the runner's worker starts: from here it alone reads the device. */
  set_device_in_use (page, run->robot_kind != ROBOT_SIM && page->device != NULL);
  if (!launch (page, run, &local))
    {
      page->run = NULL;
      set_device_in_use (page, FALSE);
      set_status (page, local->message, TRUE);
      update_sensitivity (page);
      g_signal_emit (page, signals[SIGNAL_RUN_FINISHED], 0);
      run_free (run);
      return;
    }
  /* The run goes on if the window closes: the application lives until the
   * trial in flight is recorded. */
  g_application_hold (g_application_get_default ());
  page->track_timer = g_timeout_add (33, on_track_timer, page);
}

/* The plan's next configuration that the runner drives (run->next on),
 * with the options the plan gives it (nb_plan_runner_options, as
 * campaign run --all).  TRUE: started (a failure to start is the run's
 * end, reported); FALSE: error set, or none is left (no error). */
static gboolean
start_plan_entry (NbTrialsPage *page, Run *run, GError **error)
{
  NbCampaignRunnerOptions base = run->options;

  for (; run->next < run->pending->len; run->next++)
    {
      const NbPlanEntry *e = &g_array_index (run->pending, NbPlanEntry, run->next);
      const NbClause *clause = nb_clause_lookup (e->clause);
      g_autofree char *text = NULL;

      if (clause == NULL || !nb_clause_driven (clause))
        {
          text = g_strdup_printf (_("Clause %u “%s”: not driven by the runner; record its "
                                    "trials with an import."), e->clause, e->config);
          add_list_row (page, text, FALSE);
          continue;
        }
      nb_plan_runner_options (e, &base, &run->options);
      if (nb_clause_takes (clause, NB_CLAUSE_OPT_RANGES) && run->robot_kind == ROBOT_SIM)
        run->options.min_range_mm = NB_RUNNER_SIM_MIN_RANGE_MM,
        run->options.max_range_mm = NB_RUNNER_SIM_MAX_RANGE_MM;
      if (nb_clause_takes (clause, NB_CLAUSE_OPT_PHASE))
        run->options.phase = NB_AVOIDANCE_PHASE_AUTO;
      /* TRANSLATORS: configuration k of n of the plan, its clause and name. */
      text = g_strdup_printf (_("Plan %u/%u: clause %u “%s”"), run->next + 1, run->pending->len,
                              e->clause, e->config);
      add_list_row (page, text, FALSE);
      page->interim = FALSE;
      nb_run_plot_reset (&page->plot, e->clause);
      clear_figures (page);
      show_figure_rows (page, e->clause);
      gtk_widget_queue_draw (page->plot_area);
      if (page->run == NULL)
        {
          start_runner (page, run);
          return TRUE;
        }
      return launch (page, run, error);
    }
  /* Only clauses the runner does not drive were left: FALSE, no error. */
  return FALSE;
}

/* The declared passage width (9.2): empty for the runner's default,
 * robot.width_mm + 200 mm (NaN); FALSE when the text is not a width. */
static gboolean
passage_width (NbTrialsPage *page, double *width_mm)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (page->width))));
  char *end;

  *width_mm = NAN;
  if (*text == '\0')
    return TRUE;
  /* Either decimal separator, whatever the locale. */
  g_strdelimit (text, ",", '.');
  *width_mm = g_ascii_strtod (text, &end);
  return *end == '\0' && isfinite (*width_mm) && *width_mm > 0;
}

static void
clear_list (NbTrialsPage *page)
{
  /* gtk_list_box_remove_all is GTK 4.12. */
  for (GtkListBoxRow *row; (row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (page->list), 0));)
    gtk_list_box_remove (GTK_LIST_BOX (page->list), GTK_WIDGET (row));
}

void
nb_trials_page_run (NbTrialsPage *page)
{
  Run *run;
  guint route, scope;
  const NbClause *clause;

  if (nb_trials_page_is_running (page) || page->path == NULL)
    return;
  /* A number typed and not yet committed (Alt+U from the spin button) is
   * the one meant. */
  gtk_spin_button_update (GTK_SPIN_BUTTON (page->trials));
  gtk_spin_button_update (GTK_SPIN_BUTTON (page->load));
  gtk_spin_button_update (GTK_SPIN_BUTTON (page->min_range));
  gtk_spin_button_update (GTK_SPIN_BUTTON (page->max_range));
  run = g_new0 (Run, 1);
  run->page = g_object_ref (page);
  run->cancellable = g_cancellable_new ();
  g_mutex_init (&run->samples_lock);
  g_mutex_init (&run->asker.lock);
  g_cond_init (&run->asker.cond);
  run->sx = g_array_new (FALSE, FALSE, sizeof (double));
  run->sy = g_array_new (FALSE, FALSE, sizeof (double));
  run->st = g_array_new (FALSE, FALSE, sizeof (double));
  run->robot_kind = MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (page->robot)), ROBOT_URL);
  run->url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (page->url))));
  scope = MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (page->scope)), SCOPE_PLAN);
  run->plan = scope == SCOPE_PLAN;
  /* A real robot is measured by a real instrument (campaign run refuses
   * --robot operator|URL without --instrument); the simulated tracker only
   * sees the simulated base. */
  if (run->robot_kind != ROBOT_SIM && page->device == NULL)
    {
      set_status (page, _("A real robot is measured by a real instrument: connect one on the "
                          "Instrument page first."), TRUE);
      run_free (run);
      return;
    }
  if (run->robot_kind == ROBOT_URL && !g_str_has_prefix (run->url, "http://"))
    {
      set_status (page, _("The motion stack’s address is http://HOST:PORT."), TRUE);
      run_free (run);
      return;
    }
  route = MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (page->route)), 2);
  run->config = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (page->config))));
  nb_campaign_runner_options_init (&run->options);
  run->options.clause = selected_clause (page);
  run->options.config = run->config;
  /* Each option only for the clauses that take it, as campaign run
   * (app/cli/nb-cli-run.c) refuses the others; the rest keep the runner's
   * defaults: the stored configuration's, else its own. */
  if (control_shown (OPT_ROUTE, run->options.clause))
    {
      run->route = g_strdup (route_values[route]);
      run->options.route = run->route;
      run->options.load_kg = gtk_spin_button_get_value (GTK_SPIN_BUTTON (page->load));
    }
  clause = nb_clause_lookup (run->options.clause);
  if (nb_clause_takes (clause, NB_CLAUSE_OPT_OBSTACLE))
    run->options.obstacle = selected_obstacle (page);
  if (nb_clause_takes (clause, NB_CLAUSE_OPT_RANGES))
    {
      run->options.min_range_mm = gtk_spin_button_get_value (GTK_SPIN_BUTTON (page->min_range));
      run->options.max_range_mm = gtk_spin_button_get_value (GTK_SPIN_BUTTON (page->max_range));
    }
  if (nb_clause_takes (clause, NB_CLAUSE_OPT_BEHAVIOUR))
    run->options.behaviour = 1 + MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (page->behaviour)),
                                      NB_BEHAVIOURS - 1);
  if (nb_clause_takes (clause, NB_CLAUSE_OPT_PHASE))
    run->options.phase = NB_AVOIDANCE_PHASE_AUTO;
  if (nb_clause_takes (clause, NB_CLAUSE_OPT_PASSAGE_WIDTH) &&
      !passage_width (page, &run->options.passage_width_mm))
    {
      set_status (page, _("The passage width is a number of millimetres above 0, or empty "
                           "for the robot's width + 200 mm."), TRUE);
      run_free (run);
      return;
    }
  /* Clause 6: the placements 6.3 fixes (16 per obstacle). */
  if (control_shown (OPT_TRIALS, run->options.clause))
    run->options.trials = (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (page->trials));
  if (scope == SCOPE_TRIAL)
    {
      if (!nb_clause_takes (clause, NB_CLAUSE_OPT_TRIALS))
        {
          g_autofree char *text = g_strdup_printf (_("Clause %u runs as many trials as the "
                                                     "standard fixes: run the configuration."),
                                                   clause->number);

          set_status (page, text, TRUE);
          run_free (run);
          return;
        }
      run->options.trials = 1;
    }
  clear_list (page);
  reset_track (page);
  page->interim = FALSE;
  nb_run_plot_reset (&page->plot, run->options.clause);
  clear_figures (page);
  show_figure_rows (page, run->options.clause);
  gtk_widget_queue_draw (page->plot_area);
  set_status (page, _("Starting…"), FALSE);
  page->starting = TRUE;
  update_sensitivity (page);
  /* start_done always runs (the page outlives its jobs) and takes the run. */
  nb_io_queue_push (page->queue, G_OBJECT (page), start_work, start_done, run, NULL, prior_free);
}

void
nb_trials_page_stop (NbTrialsPage *page)
{
  close_prompt (page);
  if (page->run != NULL)
    {
      g_cancellable_cancel (page->run->cancellable);
      set_status (page, _("Stopping…"), FALSE);
    }
}

void
nb_trials_page_set_pace (NbTrialsPage *page, double pace)
{
  page->pace = pace;
}

void
nb_trials_page_set_campaign (NbTrialsPage *page, const char *path)
{
  g_free (page->path);
  page->path = g_strdup (path);
  /* Nothing of the previous campaign stays on screen. */
  clear_list (page);
  nb_run_plot_reset (&page->plot, selected_clause (page));
  clear_figures (page);
  page->interim = FALSE;
  gtk_widget_queue_draw (page->plot_area);
  set_status (page, _("Robot: simulated base; instrument: simulated tracker."), FALSE);
  update_sensitivity (page);
}

/* ------------------------------------------------------------ layout -- */

static void
draw_plot (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  NbTrialsPage *page = user_data;

  nb_run_plot_draw (&page->plot, cr, width, height);
}

static void
draw_track (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  NbTrialsPage *page = user_data;
  gint64 t0 = g_get_monotonic_time (), took;

  nb_run_track_draw (page->track, (const double *) page->track_x->data,
                     (const double *) page->track_y->data, page->track_x->len, cr, width, height,
                     gtk_widget_get_scale_factor (GTK_WIDGET (area)));
  /* At 30 frames/s when it is quick (the bench: a frame of 100 000 samples
   * in a few ms, only the new ones stroked),
   * else at most a third of the thread, rendering counted as much again as drawing. */
  took = g_get_monotonic_time () - t0;
  page->track_next_us = g_get_monotonic_time () + MAX (33 * G_TIME_SPAN_MILLISECOND, 6 * took);
}

/* Clause 6 may run all six obstacles at once; clause 7 runs one. */
static void
set_obstacle_choices (NbTrialsPage *page, guint clause)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (page->obstacles));
  guint six = g_strv_length ((char **) nb_obstacle_names ());
  guint k = gtk_drop_down_get_selected (GTK_DROP_DOWN (page->obstacle));

  const NbClause *c = nb_clause_lookup (clause);
  gboolean six_at_once = nb_clause_takes (c, NB_CLAUSE_OPT_ALL_OBSTACLES);

  if (six_at_once && n == six)
    {
      const char *all[] = { _("all six obstacles"), NULL };

      gtk_string_list_splice (page->obstacles, 0, 0, all);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (page->obstacle), k + 1);
    }
  else if (!six_at_once && n > six)
    {
      gtk_string_list_splice (page->obstacles, 0, 1, NULL);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (page->obstacle), k > 0 ? k - 1 : 0);
    }
}

static void
show_options (NbTrialsPage *page, guint clause)
{
  for (guint i = 0; i < N_OPTS; i++)
    {
      gboolean shown = control_shown (i, clause);

      gtk_widget_set_visible (page->opt_label[i], shown);
      gtk_widget_set_visible (page->opt_widget[i], shown);
    }
}

static void
on_clause_selected (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  NbTrialsPage *page = user_data;
  guint clause = selected_clause (page);

  const NbClause *c = nb_clause_lookup (clause);
  gboolean straight = nb_clause_takes (c, NB_CLAUSE_OPT_STRAIGHT_ONLY);

  /* Clause 8 runs on the straight route only (nb-campaign-runner.h). */
  if (straight)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (page->route), 0);
  gtk_widget_set_sensitive (page->route, nb_clause_takes (c, NB_CLAUSE_OPT_ROUTE) && !straight &&
                                         !nb_trials_page_is_running (page) && page->path);
  /* The trials a configuration takes (nb-clause.h); 7: those with the
   * obstacle, the baseline comes first by itself. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (page->trials), nb_clause_get (clause)->trials);
  set_obstacle_choices (page, clause);
  show_options (page, clause);
  show_figure_rows (page, clause);
}

static GtkWidget *
named (GtkWidget *widget, const char *name)
{
  gtk_widget_set_name (widget, name);
  return widget;
}

static GtkWidget *
attach_labelled (GtkGrid *grid, guint line, const char *text, GtkWidget *widget)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (text);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), widget);
  gtk_grid_attach (grid, label, 0, line, 1, 1);
  gtk_grid_attach (grid, widget, 1, line, 1, 1);
  return label;
}

static void
attach_option (NbTrialsPage *page, GtkGrid *grid, guint opt, guint line, const char *text,
               GtkWidget *widget)
{
  page->opt_label[opt] = attach_labelled (grid, line, text, widget);
  page->opt_widget[opt] = widget;
}

static GtkWidget *
build_controls (NbTrialsPage *page)
{
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *figures = gtk_grid_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *heading;
  g_autoptr (GStrvBuilder) clauses = g_strv_builder_new ();
  g_auto (GStrv) clause_names = NULL;
  const char *routes[4] = { NULL };
  g_autoptr (GStrvBuilder) behaviour_items = g_strv_builder_new ();
  g_auto (GStrv) behaviours = NULL;
  const char *const *names = nb_obstacle_names ();

  /* The clauses the runner drives, by the titles the protocol gives them
   * (nb-clause.h). */
  for (guint i = 0; driven_clause (i) != NULL; i++)
    {
      g_autofree char *item = g_strdup_printf ("%u — %s", driven_clause (i)->number,
                                               _(driven_clause (i)->title));

      g_strv_builder_add (clauses, item);
    }
  clause_names = g_strv_builder_end (clauses);
  for (guint i = 0; i < 3; i++)
    routes[i] = _(route_values[i]);
  /* Clause 7's behaviours (7.2, nb-course.h), numbered as `campaign run
   * --behaviour` takes them. */
  for (guint i = 1; i <= NB_BEHAVIOURS; i++)
    {
      g_autofree char *item = g_strdup_printf ("%u — %s", i, _(nb_behaviour_name (i)));

      g_strv_builder_add (behaviour_items, item);
    }
  behaviours = g_strv_builder_end (behaviour_items);
  page->obstacles = gtk_string_list_new (NULL);
  for (guint i = 0; names[i] != NULL; i++)
    gtk_string_list_append (page->obstacles, obstacle_title (names[i]));
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  page->clause = named (gtk_drop_down_new_from_strings ((const char *const *) clause_names),
                        "run-clause");
  {
    /* The button ellipsizes a long title (GOST's clause 5 title is a line
     * long in Russian) so the plot keeps its room; the popup shows it whole. */
    g_autoptr (GtkListItemFactory) button = nb_label_item_factory_new (16, 24),
                                     popup = nb_label_item_factory_new (0, 0);

    gtk_drop_down_set_factory (GTK_DROP_DOWN (page->clause), button);
    gtk_drop_down_set_list_factory (GTK_DROP_DOWN (page->clause), popup);
  }
  page->config = named (gtk_entry_new (), "run-config");
  gtk_editable_set_text (GTK_EDITABLE (page->config), "sim-1");
  page->route = named (gtk_drop_down_new_from_strings (routes), "run-route");
  page->load = named (gtk_spin_button_new_with_range (0, 1000, 0.5), "run-load");
  page->trials = named (gtk_spin_button_new_with_range (1, 100, 1), "run-trials");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (page->trials), 30);
  /* The model is the page's (set_obstacle_choices edits it). */
  page->obstacle = named (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (page->obstacles)), NULL),
                          "run-obstacle");
  page->behaviour = named (gtk_drop_down_new_from_strings ((const char *const *) behaviours),
                           "run-behaviour");
  page->width = named (gtk_entry_new (), "run-passage-width");
  gtk_entry_set_placeholder_text (GTK_ENTRY (page->width), _("robot width + 200"));
  gtk_entry_set_input_purpose (GTK_ENTRY (page->width), GTK_INPUT_PURPOSE_NUMBER);
  page->min_range = named (gtk_spin_button_new_with_range (1, 100000, 50), "run-min-range");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (page->min_range), NB_RUNNER_SIM_MIN_RANGE_MM);
  page->max_range = named (gtk_spin_button_new_with_range (1, 100000, 50), "run-max-range");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (page->max_range), NB_RUNNER_SIM_MAX_RANGE_MM);
  g_signal_connect (page->clause, "notify::selected", G_CALLBACK (on_clause_selected), page);
  {
    const char *robots[G_N_ELEMENTS (robot_values) + 1] = { NULL };
    const char *scopes[G_N_ELEMENTS (scope_values) + 1] = { NULL };

    for (guint i = 0; i < G_N_ELEMENTS (robot_values); i++)
      robots[i] = _(robot_values[i]);
    for (guint i = 0; i < G_N_ELEMENTS (scope_values); i++)
      scopes[i] = _(scope_values[i]);
    page->robot = named (gtk_drop_down_new_from_strings (robots), "run-robot");
    page->scope = named (gtk_drop_down_new_from_strings (scopes), "run-scope");
    /* Ellipsized on the button (the Russian words are long), whole in the popup. */
    for (guint i = 0; i < 2; i++)
      {
        GtkDropDown *d = GTK_DROP_DOWN (i == 0 ? page->robot : page->scope);
        g_autoptr (GtkListItemFactory) button = nb_label_item_factory_new (16, 24),
                                     popup = nb_label_item_factory_new (0, 0);

        gtk_drop_down_set_factory (d, button);
        gtk_drop_down_set_list_factory (d, popup);
      }
    gtk_drop_down_set_selected (GTK_DROP_DOWN (page->scope), SCOPE_CONFIG);
  }
  page->url = named (gtk_entry_new (), "run-url");
  gtk_entry_set_placeholder_text (GTK_ENTRY (page->url), "http://HOST:PORT");
  gtk_entry_set_input_purpose (GTK_ENTRY (page->url), GTK_INPUT_PURPOSE_URL);
  g_signal_connect_swapped (page->robot, "notify::selected", G_CALLBACK (update_sensitivity), page);
  g_signal_connect_swapped (page->scope, "notify::selected", G_CALLBACK (update_sensitivity), page);
  attach_labelled (GTK_GRID (grid), 0, _("Ro_bot"), page->robot);
  page->url_label = attach_labelled (GTK_GRID (grid), 1, _("_Address"), page->url);
  attach_labelled (GTK_GRID (grid), 2, _("Ru_n what"), page->scope);
  attach_labelled (GTK_GRID (grid), 3, _("C_lause"), page->clause);
  attach_labelled (GTK_GRID (grid), 4, _("Con_figuration"), page->config);
  attach_option (page, GTK_GRID (grid), OPT_ROUTE, 5, _("Rout_e"), page->route);
  attach_option (page, GTK_GRID (grid), OPT_LOAD, 6, _("Loa_d, kg"), page->load);
  attach_option (page, GTK_GRID (grid), OPT_OBSTACLE, 7, _("Obstacle"), page->obstacle);
  attach_option (page, GTK_GRID (grid), OPT_BEHAVIOUR, 8, _("Be_haviour"), page->behaviour);
  attach_option (page, GTK_GRID (grid), OPT_MIN, 9, _("Minimum ran_ge, mm"), page->min_range);
  attach_option (page, GTK_GRID (grid), OPT_MAX, 10, _("Ma_ximum range, mm"), page->max_range);
  attach_option (page, GTK_GRID (grid), OPT_WIDTH, 11, _("Passage _width, mm"), page->width);
  attach_option (page, GTK_GRID (grid), OPT_TRIALS, 12, _("Trials"), page->trials);

  page->run_button = named (gtk_button_new_with_mnemonic (_("R_un")), "run-button");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (page->run_button), "win.run");
  gtk_widget_add_css_class (page->run_button, "suggested-action");
  page->stop_button = named (gtk_button_new_with_mnemonic (_("_Stop")), "stop-button");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (page->stop_button), "win.stop");
  gtk_widget_add_css_class (page->stop_button, "destructive-action");
  gtk_widget_set_hexpand (page->run_button, TRUE);
  gtk_widget_set_hexpand (page->stop_button, TRUE);
  gtk_box_append (GTK_BOX (buttons), page->run_button);
  gtk_box_append (GTK_BOX (buttons), page->stop_button);

  page->status = named (gtk_label_new (_("Robot: simulated base; instrument: simulated tracker.")),
                        "run-status");
  gtk_label_set_wrap (GTK_LABEL (page->status), TRUE);
  gtk_label_set_xalign (GTK_LABEL (page->status), 0);
  gtk_label_set_max_width_chars (GTK_LABEL (page->status), 36);

  gtk_grid_set_column_spacing (GTK_GRID (figures), 12);
  gtk_grid_set_row_spacing (GTK_GRID (figures), 4);
  page->figures = named (figures, "run-figures");
  page->fig_rows = g_array_new (FALSE, FALSE, sizeof (FigureRow));
  gtk_box_append (GTK_BOX (box), grid);
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_box_append (GTK_BOX (box), page->status);
  heading = page->figures_heading = named (gtk_label_new (_("Figures of the configuration so far")),
                                           "run-figures-heading");
  gtk_widget_add_css_class (heading, "heading");
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), figures);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  return box;
}

static void
nb_trials_page_init (NbTrialsPage *page)
{
  GtkWidget *right = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *frame = gtk_frame_new (NULL);

  page->pace = 8;
  nb_run_plot_init (&page->plot);
  page->plot.clause = driven_clause (0)->number;
  page->plot_area = named (gtk_drawing_area_new (), "run-plot");
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (page->plot_area), 300);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (page->plot_area), 300);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (page->plot_area), draw_plot, page, NULL);
  page->track_x = g_array_new (FALSE, FALSE, sizeof (double));
  page->track_y = g_array_new (FALSE, FALSE, sizeof (double));
  page->track_t = g_array_new (FALSE, FALSE, sizeof (double));
  page->track = nb_run_track_new ();
  page->track_area = named (gtk_drawing_area_new (), "run-track");
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (page->track_area), 200);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (page->track_area), draw_track, page, NULL);
  {
    /* The configuration's plot and, beside it, the trial in flight live. */
    GtkWidget *plots = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 1);

    gtk_widget_set_hexpand (page->plot_area, TRUE);
    gtk_widget_set_hexpand (page->track_area, TRUE);
    gtk_box_append (GTK_BOX (plots), page->plot_area);
    gtk_box_append (GTK_BOX (plots), page->track_area);
    gtk_frame_set_child (GTK_FRAME (frame), plots);
  }
  gtk_widget_set_margin_top (frame, 12);
  gtk_widget_set_margin_end (frame, 12);
  gtk_widget_set_margin_bottom (frame, 6);

  page->list = named (gtk_list_box_new (), "trial-list");
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (page->list), GTK_SELECTION_NONE);
  gtk_list_box_set_placeholder (GTK_LIST_BOX (page->list),
                                gtk_label_new (_("The trials of a run appear here.")));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), page->list);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (scroller, -1, 120);
  gtk_widget_set_margin_end (scroller, 12);
  gtk_widget_set_margin_bottom (scroller, 12);

  gtk_paned_set_start_child (GTK_PANED (right), frame);
  gtk_paned_set_end_child (GTK_PANED (right), scroller);
  gtk_paned_set_resize_end_child (GTK_PANED (right), FALSE);

  page->paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  {
    /* The controls scroll when the window is low (1024×600). */
    GtkWidget *controls = gtk_scrolled_window_new ();

    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (controls), GTK_POLICY_NEVER,
                                    GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (controls), TRUE);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (controls), build_controls (page));
    gtk_paned_set_start_child (GTK_PANED (page->paned), controls);
  }
  gtk_paned_set_end_child (GTK_PANED (page->paned), right);
  gtk_paned_set_resize_start_child (GTK_PANED (page->paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (page->paned), FALSE);
  gtk_widget_set_parent (page->paned, GTK_WIDGET (page));
  show_options (page, selected_clause (page));
  show_figure_rows (page, selected_clause (page));
  update_sensitivity (page);
}

static void
nb_trials_page_dispose (GObject *object)
{
  NbTrialsPage *page = NB_TRIALS_PAGE (object);

  /* The window is going: the run ends with the trial in flight aborted. */
  if (page->run != NULL)
    g_cancellable_cancel (page->run->cancellable);
  close_prompt (page);
  g_clear_handle_id (&page->track_timer, g_source_remove);
  g_clear_pointer (&page->paned, gtk_widget_unparent);
  G_OBJECT_CLASS (nb_trials_page_parent_class)->dispose (object);
}

static void
nb_trials_page_finalize (GObject *object)
{
  NbTrialsPage *page = NB_TRIALS_PAGE (object);

  nb_run_plot_clear (&page->plot);
  g_clear_pointer (&page->track_x, g_array_unref);
  g_clear_pointer (&page->track_y, g_array_unref);
  g_clear_pointer (&page->track_t, g_array_unref);
  g_clear_pointer (&page->track, nb_run_track_free);
  g_clear_object (&page->obstacles);
  g_clear_pointer (&page->fig_rows, g_array_unref);
  g_free (page->path);
  g_clear_pointer (&page->queue, nb_io_queue_unref);
  G_OBJECT_CLASS (nb_trials_page_parent_class)->finalize (object);
}

static void
nb_trials_page_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  switch (id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, nb_trials_page_is_running (NB_TRIALS_PAGE (object)));
      break;
    case PROP_DEVICE_IN_USE:
      g_value_set_boolean (value, NB_TRIALS_PAGE (object)->device_in_use);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
nb_trials_page_class_init (NbTrialsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = nb_trials_page_dispose;
  object_class->finalize = nb_trials_page_finalize;
  object_class->get_property = nb_trials_page_get_property;
  props[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_DEVICE_IN_USE] = g_param_spec_boolean ("device-in-use", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  signals[SIGNAL_TRIAL_STARTED] = g_signal_new ("trial-started", G_TYPE_FROM_CLASS (klass),
                                                G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_TRIAL_ENDED] = g_signal_new ("trial-ended", G_TYPE_FROM_CLASS (klass),
                                              G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                              G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  signals[SIGNAL_RUN_FINISHED] = g_signal_new ("run-finished", G_TYPE_FROM_CLASS (klass),
                                               G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                               G_TYPE_NONE, 0);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

GtkWidget *
nb_trials_page_new (NbIoQueue *queue)
{
  NbTrialsPage *page = g_object_new (NB_TYPE_TRIALS_PAGE, NULL);

  page->queue = nb_io_queue_ref (queue);
  return GTK_WIDGET (page);
}
