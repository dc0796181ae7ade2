#include "nb-trials-page.h"

#include "nb-campaign-runner.h"
#include "nb-paced-robot.h"
#include "nb-run-plot.h"
#include "nb-runner-sim.h"

#include <glib/gi18n.h>
#include <math.h>

/* The routes of nb-route.c, as the runner takes them. */
static const char *const route_values[] = { N_("straight"), N_("rectangular"), N_("combined") };
static const guint clause_values[] = { 5, 8 };

/* The figures shown, by widget name (nb_window_lookup). */
enum { FIG_N, FIG_AP, FIG_AO, FIG_RP, FIG_RO, FIG_D, FIG_MEAN, FIG_STD, N_FIGS };
static const struct {
  const char *name;
  const char *label;
  guint clause;                 /* 0: both */
} figure_rows[N_FIGS] = {
  { "figure-n", N_("Trials counted n"), 0 },
  { "figure-ap", N_("Pose accuracy Ap, mm"), 5 },
  { "figure-ao", N_("Orientation accuracy Ao, °"), 5 },
  { "figure-rp", N_("Pose repeatability Rp, mm"), 5 },
  { "figure-ro", N_("Orientation repeatability Ro (±), °"), 5 },
  { "figure-d", N_("Path deviation d = max |d_i|, mm"), 8 },
  { "figure-mean", N_("Mean of d_i, mm"), 8 },
  { "figure-std", N_("Standard deviation of d_i, mm"), 8 },
};

typedef struct {
  NbTrialsPage *page;           /* a reference while the run lasts */
  NbRunnerSim *sim;
  NbPacedRobot robot;
  NbCampaignRunner *runner;
  GCancellable *cancellable;
  NbCampaignRunnerOptions options;
  char *config, *route;
} Run;

struct _NbTrialsPage {
  GtkWidget parent_instance;
  GtkWidget *paned;
  GtkWidget *clause, *config, *route, *load, *trials, *run_button, *stop_button;
  GtkWidget *list, *plot_area, *status;
  GtkWidget *fig_label[N_FIGS], *fig_value[N_FIGS];
  NbIoQueue *queue;
  char *path;
  double pace;
  Run *run;                     /* the run in progress, or NULL */
  gboolean starting;            /* queued behind the campaign's I/O */
  NbRunPlot plot;
};

G_DEFINE_FINAL_TYPE (NbTrialsPage, nb_trials_page, GTK_TYPE_WIDGET)

enum { SIGNAL_TRIAL_STARTED, SIGNAL_TRIAL_ENDED, SIGNAL_RUN_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];
enum { PROP_0, PROP_RUNNING, N_PROPS };
static GParamSpec *props[N_PROPS];

static void
run_free (Run *run)
{
  g_clear_pointer (&run->runner, nb_campaign_runner_free);
  g_clear_pointer (&run->sim, nb_runner_sim_free);
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
  GtkWidget *controls[] = { page->clause, page->config, page->route, page->load, page->trials };

  for (guint i = 0; i < G_N_ELEMENTS (controls); i++)
    gtk_widget_set_sensitive (controls[i], !running && page->path != NULL);
  gtk_widget_set_sensitive (page->run_button, !running && page->path != NULL);
  gtk_widget_set_sensitive (page->stop_button, running);
  g_object_notify_by_pspec (G_OBJECT (page), props[PROP_RUNNING]);
}

static guint
selected_clause (NbTrialsPage *page)
{
  return clause_values[MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (page->clause)), 1)];
}

static void
show_figure_rows (NbTrialsPage *page, guint clause)
{
  for (guint i = 0; i < N_FIGS; i++)
    {
      gboolean shown = figure_rows[i].clause == 0 || figure_rows[i].clause == clause;

      gtk_widget_set_visible (page->fig_label[i], shown);
      gtk_widget_set_visible (page->fig_value[i], shown);
    }
}

static void
set_figure (NbTrialsPage *page, guint i, double value, int decimals)
{
  g_autofree char *text = isfinite (value) ? g_strdup_printf ("%.*f", decimals, value)
                                           : g_strdup ("—");

  gtk_label_set_text (GTK_LABEL (page->fig_value[i]), text);
}

static void
clear_figures (NbTrialsPage *page)
{
  for (guint i = 0; i < N_FIGS; i++)
    gtk_label_set_text (GTK_LABEL (page->fig_value[i]), "—");
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
      if (r != NULL)
        gtk_widget_set_tooltip_text (page->fig_value[FIG_N], r->error);
      return;
    }
  gtk_widget_set_tooltip_text (page->fig_value[FIG_N], NULL);
  if (r->clause == 5)
    {
      set_figure (page, FIG_N, (double) r->pose.n, 0);
      set_figure (page, FIG_AP, r->pose.ap_mm, 3);
      set_figure (page, FIG_AO, r->pose.ao_deg, 3);
      set_figure (page, FIG_RP, r->pose.rp_mm, 3);
      set_figure (page, FIG_RO, r->pose.ro_deg, 3);
      page->plot.pose = r->pose;
    }
  else
    {
      set_figure (page, FIG_N, (double) r->path.n, 0);
      set_figure (page, FIG_D, r->path.max_mm, 3);
      set_figure (page, FIG_MEAN, r->path.mean_mm, 3);
      set_figure (page, FIG_STD, r->path.std_mm, 3);
      page->plot.path = r->path;
    }
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
  gtk_list_box_append (GTK_LIST_BOX (page->list), label);
}

static const char *
outcome_text (NbTrialOutcome outcome)
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

/* ------------------------------------------------------------ events -- */

static void
on_progress (const NbRunnerEvent *ev, gpointer user_data)
{
  Run *run = user_data;
  NbTrialsPage *page = run->page;

  if (ev->kind == NB_RUNNER_EVENT_TRIAL_STARTED)
    {
      g_autofree char *text = g_strdup_printf (_("Trial %u of %u running…"), ev->trial,
                                               ev->n_trials);

      set_status (page, text, FALSE);
      g_signal_emit (page, signals[SIGNAL_TRIAL_STARTED], 0, ev->trial);
      return;
    }
  {
    g_autofree char *what = NULL, *text = NULL;

    if (ev->clause == 5 && !isnan (ev->attained.x_mm))
      {
        what = g_strdup_printf (_("attained x %.3f mm, y %.3f mm, θ %.3f°"), ev->attained.x_mm,
                                ev->attained.y_mm, ev->attained.theta_deg);
        page->plot.command_x_mm = ev->command.x_mm;
        page->plot.command_y_mm = ev->command.y_mm;
        if (ev->outcome == NB_TRIAL_OK)
          nb_run_plot_add (&page->plot, ev->attained.x_mm - ev->command.x_mm,
                           ev->attained.y_mm - ev->command.y_mm);
      }
    else if (ev->clause == 8 && !isnan (ev->d_mm))
      {
        what = g_strdup_printf (_("d_i %.3f mm over %lu samples"), ev->d_mm,
                                (unsigned long) ev->n_samples);
        if (ev->outcome == NB_TRIAL_OK)
          nb_run_plot_add (&page->plot, (double) ev->seq, ev->d_mm);
      }
    text = g_strdup_printf (_("Trial %u/%u (no. %u): %s%s%s%s%s"), ev->trial, ev->n_trials,
                            ev->seq, outcome_text (ev->outcome), what ? " — " : "",
                            what ? what : "", ev->reason ? " — " : "",
                            ev->reason ? ev->reason : "");
    add_list_row (page, text, ev->outcome != NB_TRIAL_OK);
    show_figures (page, ev->figures);
    gtk_widget_queue_draw (page->plot_area);
    g_signal_emit (page, signals[SIGNAL_TRIAL_ENDED], 0, ev->trial, (guint) ev->outcome);
  }
}

static void
on_run_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Run *run = user_data;
  NbTrialsPage *page = run->page;
  g_autoptr (GError) error = NULL;
  NbRunnerSummary summary = { 0 };
  gboolean ok = nb_campaign_runner_run_finish (run->runner, result, &summary, &error);
  g_autofree char *counts = g_strdup_printf (_("%u trials run: %u ok, %u failed, %u aborted."),
                                             summary.run, summary.ok, summary.failed,
                                             summary.aborted);

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
  nb_runner_summary_clear (&summary);
  page->run = NULL;
  update_sensitivity (page);
  g_application_release (g_application_get_default ());
  g_signal_emit (page, signals[SIGNAL_RUN_FINISHED], 0);
  run_free (run);
}

/* Runs behind the form's saves in the I/O queue; the runner opens the file
 * itself. */
static gpointer
start_work (gpointer data, GError **error)
{
  return GINT_TO_POINTER (1);
}

static void
start_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbTrialsPage *page = NB_TRIALS_PAGE (owner);
  Run *run = data;
  g_autoptr (GError) local = NULL;
  NbRunnerSimOptions so;

  page->starting = FALSE;
  nb_runner_sim_options_init (&so);
  /* A new seed per run: appended runs are new trials, not replays. */
  so.seed = g_random_int ();
  if ((run->sim = nb_runner_sim_new (&so, &local)) != NULL)
    {
      run->robot.inner = nb_sim_base_ops ();
      run->robot.robot = nb_runner_sim_base (run->sim);
      run->robot.sim = run->sim;
      run->robot.pace = page->pace;
      run->robot.cancellable = run->cancellable;
      run->runner = nb_campaign_runner_new (page->path, &run->options, nb_paced_robot_ops (),
                                            &run->robot, nb_runner_sim_instrument_ops (),
                                            run->sim, &local);
    }
  if (run->runner == NULL)
    {
      set_status (page, local->message, TRUE);
      update_sensitivity (page);
      g_signal_emit (page, signals[SIGNAL_RUN_FINISHED], 0);
      run_free (run);
      return;
    }
  page->run = g_steal_pointer (&run);
  /* The run goes on if the window closes: the application lives until the
   * trial in flight is recorded. */
  g_application_hold (g_application_get_default ());
  nb_campaign_runner_run_async (page->run->runner, page->run->cancellable, on_progress, page->run,
                                on_run_done, page->run);
}

void
nb_trials_page_run (NbTrialsPage *page)
{
  Run *run;
  guint route;

  if (nb_trials_page_is_running (page) || page->path == NULL)
    return;
  run = g_new0 (Run, 1);
  run->page = g_object_ref (page);
  run->cancellable = g_cancellable_new ();
  route = MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (page->route)), 2);
  run->config = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (page->config))));
  run->route = g_strdup (route_values[route]);
  nb_campaign_runner_options_init (&run->options);
  run->options.clause = selected_clause (page);
  run->options.config = run->config;
  run->options.route = run->route;
  run->options.load_kg = gtk_spin_button_get_value (GTK_SPIN_BUTTON (page->load));
  run->options.trials = (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (page->trials));
  run->options.robot_name = "sim-base (simulated base, simulated tracker)";
  /* gtk_list_box_remove_all is GTK 4.12. */
  for (GtkListBoxRow *row; (row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (page->list), 0));)
    gtk_list_box_remove (GTK_LIST_BOX (page->list), GTK_WIDGET (row));
  nb_run_plot_reset (&page->plot, run->options.clause);
  clear_figures (page);
  show_figure_rows (page, run->options.clause);
  gtk_widget_queue_draw (page->plot_area);
  set_status (page, _("Starting…"), FALSE);
  page->starting = TRUE;
  update_sensitivity (page);
  /* start_done always runs (the page outlives its jobs) and takes the run. */
  nb_io_queue_push (page->queue, G_OBJECT (page), start_work, start_done, run, NULL, NULL);
}

void
nb_trials_page_stop (NbTrialsPage *page)
{
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
on_clause_selected (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  NbTrialsPage *page = user_data;

  /* Clause 8 runs on the straight route only (nb-campaign-runner.h). */
  if (selected_clause (page) == 8)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (page->route), 0);
  gtk_widget_set_sensitive (page->route, selected_clause (page) == 5 &&
                                         !nb_trials_page_is_running (page) && page->path);
  show_figure_rows (page, selected_clause (page));
}

static GtkWidget *
named (GtkWidget *widget, const char *name)
{
  gtk_widget_set_name (widget, name);
  return widget;
}

static void
attach_labelled (GtkGrid *grid, guint line, const char *text, GtkWidget *widget)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (text);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), widget);
  gtk_grid_attach (grid, label, 0, line, 1, 1);
  gtk_grid_attach (grid, widget, 1, line, 1, 1);
}

static GtkWidget *
build_controls (NbTrialsPage *page)
{
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *figures = gtk_grid_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *heading;
  const char *clauses[] = { N_("5 — pose accuracy and repeatability"), N_("8 — path deviation"),
                            NULL };
  const char *routes[4] = { NULL };

  clauses[0] = _(clauses[0]);
  clauses[1] = _(clauses[1]);
  for (guint i = 0; i < 3; i++)
    routes[i] = _(route_values[i]);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  page->clause = named (gtk_drop_down_new_from_strings (clauses), "run-clause");
  page->config = named (gtk_entry_new (), "run-config");
  gtk_editable_set_text (GTK_EDITABLE (page->config), "sim-1");
  page->route = named (gtk_drop_down_new_from_strings (routes), "run-route");
  page->load = named (gtk_spin_button_new_with_range (0, 1000, 0.5), "run-load");
  page->trials = named (gtk_spin_button_new_with_range (1, 100, 1), "run-trials");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (page->trials), 30);
  g_signal_connect (page->clause, "notify::selected", G_CALLBACK (on_clause_selected), page);
  attach_labelled (GTK_GRID (grid), 0, _("_Clause"), page->clause);
  attach_labelled (GTK_GRID (grid), 1, _("C_onfiguration"), page->config);
  attach_labelled (GTK_GRID (grid), 2, _("_Route"), page->route);
  attach_labelled (GTK_GRID (grid), 3, _("_Load, kg"), page->load);
  attach_labelled (GTK_GRID (grid), 4, _("_Trials"), page->trials);

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
  for (guint i = 0; i < N_FIGS; i++)
    {
      page->fig_label[i] = gtk_label_new (_(figure_rows[i].label));
      page->fig_value[i] = named (gtk_label_new ("—"), figure_rows[i].name);
      gtk_label_set_xalign (GTK_LABEL (page->fig_label[i]), 0);
      gtk_label_set_wrap (GTK_LABEL (page->fig_label[i]), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (page->fig_label[i]), 28);
      gtk_label_set_xalign (GTK_LABEL (page->fig_value[i]), 1);
      gtk_widget_add_css_class (page->fig_value[i], "numeric");
      gtk_label_set_selectable (GTK_LABEL (page->fig_value[i]), TRUE);
      gtk_grid_attach (GTK_GRID (figures), page->fig_label[i], 0, i, 1, 1);
      gtk_grid_attach (GTK_GRID (figures), page->fig_value[i], 1, i, 1, 1);
    }

  gtk_box_append (GTK_BOX (box), grid);
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_box_append (GTK_BOX (box), page->status);
  heading = gtk_label_new (_("Figures of the configuration so far"));
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
  page->plot.clause = 5;
  page->plot_area = named (gtk_drawing_area_new (), "run-plot");
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (page->plot_area), 360);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (page->plot_area), 300);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (page->plot_area), draw_plot, page, NULL);
  gtk_frame_set_child (GTK_FRAME (frame), page->plot_area);
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
  gtk_paned_set_start_child (GTK_PANED (page->paned), build_controls (page));
  gtk_paned_set_end_child (GTK_PANED (page->paned), right);
  gtk_paned_set_resize_start_child (GTK_PANED (page->paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (page->paned), FALSE);
  gtk_widget_set_parent (page->paned, GTK_WIDGET (page));
  show_figure_rows (page, 5);
  update_sensitivity (page);
}

static void
nb_trials_page_dispose (GObject *object)
{
  NbTrialsPage *page = NB_TRIALS_PAGE (object);

  /* The window is going: the run ends with the trial in flight aborted. */
  if (page->run != NULL)
    g_cancellable_cancel (page->run->cancellable);
  g_clear_pointer (&page->paned, gtk_widget_unparent);
  G_OBJECT_CLASS (nb_trials_page_parent_class)->dispose (object);
}

static void
nb_trials_page_finalize (GObject *object)
{
  NbTrialsPage *page = NB_TRIALS_PAGE (object);

  nb_run_plot_clear (&page->plot);
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
