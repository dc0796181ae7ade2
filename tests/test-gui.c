/* test-gui — the desktop application's window under Xvfb (xvfb-run -a)
 *
 * One window on a scratch campaign, driven as the operator drives it: a field
 * typed into the form reaches the file (a refused value does not, a clause 4
 * value out of range is flagged); Run (win.run) runs 5 clause-5 trials on
 * the simulated rig, their rows and figures shown equal to
 * nb_config_result_compute on the store, while the main loop keeps turning;
 * Stop (win.stop) cancels a run, the trials before kept and the one in flight
 * aborted; clause 7 (behaviour 1, wooden wall: the baseline, then the
 * trials with the obstacle) and clause 9 run with only their own controls
 * shown, their rows and figures equal to the store's; the Protocol page
 * (win.protocol, then protocol.issue) writes the PDF in Russian and in
 * English in-process, with the CSV tables, asks before replacing them and
 * opens the PDF (a viewer of the test's own, the default for PDF here).  With NAVBENCH_SCREENSHOT_DIR
 * set, each page is saved there as PNG (LANG=C.UTF-8 LANGUAGE=ru: in Russian).
 */
#include "nb-test-gui.h"
#include "nb-application.h"
#include "nb-preferences-window.h"
#include "nb-protocol-columns.h"
#include "nb-protocol-page.h"
#include "nb-protocol-report.h"
#include "nb-record-words.h"
#include "nb-gui-paths.h"
#include "nb-campaign-form.h"
#include "nb-campaign-results.h"
#include "nb-clause.h"
#include "nb-course.h"
#include "nb-test.h"
#include "nb-trials-page.h"
#include "nb-window.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <locale.h>
#include <string.h>

typedef struct {
  NbTestGuiApp gui;
  guint finished;               /* run-finished signals */
  guint stop_at;                /* win.stop when this trial starts */
  guint started;                /* the trial that started last */
  guint interim_seen, final_seen;  /* verdicts shown interim / final after a trial */
  gint64 last_tick, max_gap_us; /* the main loop's liveness while a run goes */
} Fixture;

static Fixture fx;

static gboolean
tick (gpointer user_data)
{
  gint64 now = g_get_monotonic_time ();

  if (fx.last_tick != 0)
    fx.max_gap_us = MAX (fx.max_gap_us, now - fx.last_tick);
  fx.last_tick = now;
  return G_SOURCE_CONTINUE;
}

/* Turns the main loop until done (or 60 s, a failure), its liveness
 * measured. */
static void
iterate_until (gboolean (*done) (gpointer), gpointer data)
{
  guint heartbeat = g_timeout_add (5, tick, NULL);

  nb_test_gui_iterate_until (done, data, 60);
  g_source_remove (heartbeat);
}

static gboolean
idle_window (gpointer data)
{
  return nb_test_gui_idle (fx.gui.window);
}

static GtkWidget *
lookup (const char *name)
{
  return nb_test_gui_lookup (fx.gui.window, name);
}

static gboolean
run_over (gpointer data)
{
  return fx.finished >= GPOINTER_TO_UINT (data) &&
         !nb_trials_page_is_running (NB_TRIALS_PAGE (lookup ("trials-page")));
}

static char *
stored_field (const char *key)
{
  return nb_test_gui_stored_field (fx.gui.db, key);
}

static void
type_into (const char *key, const char *text)
{
  NbCampaignForm *form = NB_CAMPAIGN_FORM (lookup ("campaign-form"));
  GtkWidget *editor = nb_campaign_form_get_editor (form, key);

  g_assert_true (GTK_IS_ENTRY (editor));
  g_assert_true (gtk_widget_is_sensitive (editor));
  gtk_editable_set_text (GTK_EDITABLE (editor), text);
  g_signal_emit_by_name (editor, "activate");
  iterate_until (idle_window, NULL);
}

static double
shown (const char *name)
{
  g_autofree char *text = g_strdup (gtk_label_get_text (GTK_LABEL (lookup (name))));
  char *end;
  double v;

  /* The label follows the locale's decimal separator. */
  g_strdelimit (text, ",", '.');
  v = g_ascii_strtod (text, &end);
  g_assert_true (end != text);
  return v;
}

static guint
list_rows (void)
{
  GtkListBox *list = GTK_LIST_BOX (lookup ("trial-list"));
  guint n = 0;

  while (gtk_list_box_get_row_at_index (list, n) != NULL)
    n++;
  return n;
}

/* Lets the window lay out and draw. */
static void
settle (void)
{
  nb_test_gui_settle (100);
}

static void
snapshot_page (const char *page, const char *file)
{
  const char *dir = g_getenv ("NAVBENCH_SCREENSHOT_DIR");

  if (dir == NULL)
    return;
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), page);
  /* The Protocol page checks the campaign when shown. */
  iterate_until (idle_window, NULL);
  /* Let the page lay out and draw, without the toasts over it. */
  nb_test_gui_dismiss_toasts (GTK_WIDGET (fx.gui.window));
  nb_test_gui_settle (200);
  nb_test_gui_save_png (GTK_WIDGET (fx.gui.window), dir, file);
}

static void
on_finished (NbTrialsPage *page, gpointer user_data)
{
  fx.finished++;
}

static void
on_trial_started (NbTrialsPage *page, guint k, gpointer user_data)
{
  fx.started = k;
  if (k == fx.stop_at)
    g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), "stop", NULL);
}

static GArray *
stored_trials_of (guint clause, const char *config, NbCampaign **campaign_out,
                  NbCampaignConfig *cfg)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = nb_campaign_open (fx.gui.db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  GArray *trials;

  g_assert_no_error (error);
  nb_campaign_config_init (cfg);
  g_assert_true (nb_campaign_find_config (c, clause, config, cfg, &error));
  g_assert_no_error (error);
  trials = nb_campaign_list_trials (c, cfg->id, &error);
  g_assert_no_error (error);
  *campaign_out = c;
  return trials;
}

static GArray *
stored_trials (const char *config, NbCampaign **campaign_out, NbCampaignConfig *cfg)
{
  return stored_trials_of (5, config, campaign_out, cfg);
}

static void
select_clause (guint clause)
{
  nb_test_gui_select_clause (fx.gui.window, clause);
}

static void
start_run (const char *config, guint trials, double pace)
{
  select_clause (5);
  gtk_editable_set_text (GTK_EDITABLE (lookup ("run-config")), config);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (lookup ("run-trials")), trials);
  nb_trials_page_set_pace (NB_TRIALS_PAGE (lookup ("trials-page")), pace);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (fx.gui.window), "run"));
  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), "run", NULL);
  /* The form cannot write while the runner holds the file. */
  if (gtk_widget_get_sensitive (lookup ("campaign-form")))
    g_test_message ("form sensitive: running %d, status '%s'",
                    nb_trials_page_is_running (NB_TRIALS_PAGE (lookup ("trials-page"))),
                    gtk_label_get_text (GTK_LABEL (lookup ("run-status"))));
  g_assert_false (gtk_widget_get_sensitive (lookup ("campaign-form")));
}

/* The Trials page's summary of a run, through the catalogue's plurals. */
static char *
summary (guint run, guint ok, guint failed, guint aborted)
{
  g_autofree char *n = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u trial run",
                                                     "%u trials run", run), run);

  return g_strdup_printf (_("%s: %u ok, %u failed, %u aborted."), n, ok, failed, aborted);
}

/* ------------------------------------------------------------- tests -- */

static void
test_form (void)
{
  NbCampaignForm *form = NB_CAMPAIGN_FORM (lookup ("campaign-form"));
  GtkWidget *note;
  g_autofree char *width = NULL, *temperature = NULL;
  guint n;

  /* Every field of the store has an editor. */
  nb_campaign_fields (&n);
  g_assert_cmpuint (n, >, 20);
  for (guint i = 0; i < n; i++)
    g_assert_nonnull (nb_campaign_form_get_editor (form, nb_campaign_fields (&n)[i].key));

  type_into ("robot.width_mm", "600");
  width = stored_field ("robot.width_mm");
  g_assert_cmpstr (width, ==, "600");

  /* A value the store refuses is shown with its reason and not written. */
  type_into ("robot.width_mm", "-5");
  note = nb_campaign_form_get_note (form, "robot.width_mm");
  g_assert_true (gtk_widget_get_visible (note));
  g_assert_true (gtk_widget_has_css_class (note, "error"));
  g_clear_pointer (&width, g_free);
  width = stored_field ("robot.width_mm");
  g_assert_cmpstr (width, ==, "600");
  type_into ("robot.width_mm", "600");
  g_assert_false (gtk_widget_get_visible (note));

  /* 4.2: 34 °C is kept and flagged as the protocol flags it. */
  type_into ("conditions.temperature_c", "34");
  temperature = stored_field ("conditions.temperature_c");
  g_assert_cmpstr (temperature, ==, "34");
  note = nb_campaign_form_get_note (form, "conditions.temperature_c");
  g_assert_true (gtk_widget_get_visible (note));
  g_assert_true (gtk_widget_has_css_class (note, "warning"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (note)), "10–30 °C"));
  /* Outdoors (annex A.3) the ranges do not apply. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (nb_campaign_form_get_editor (form, "conditions.environment")), 2);
  iterate_until (idle_window, NULL);
  {
    g_autofree char *env = stored_field ("conditions.environment");

    g_assert_cmpstr (env, ==, "outdoor");
  }
  g_assert_false (gtk_widget_get_visible (note));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (nb_campaign_form_get_editor (form, "conditions.environment")), 1);
  iterate_until (idle_window, NULL);
  g_assert_true (gtk_widget_get_visible (note));
  /* The form keeps its width when a note (a wrapped line) appears. */
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), "campaign");
  settle ();
  {
    GtkWidget *clamp = lookup ("form-clamp");
    GtkWidget *grid = gtk_widget_get_first_child (clamp);

    g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (fx.gui.window)), >,
                     NB_CAMPAIGN_FORM_WIDTH + 200);
    g_assert_cmpint (gtk_widget_get_width (grid), <=, NB_CAMPAIGN_FORM_WIDTH);
  }
  snapshot_page ("campaign", "campaign.png");
}

static void
test_run (void)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = NULL;
  NbCampaignConfig cfg;
  NbConfigResult r = { 0 };
  g_autoptr (GArray) trials = NULL;
  gint64 t_run;

  fx.finished = 0;
  fx.max_gap_us = 0;
  fx.last_tick = 0;
  /* ~0.1 s of real time per trial: the rows come in while the loop turns. */
  t_run = g_get_monotonic_time ();
  start_run ("gui-5", 5, 100);
  iterate_until (run_over, GUINT_TO_POINTER (1));
  t_run = g_get_monotonic_time () - t_run;
  {
    g_autofree char *expected = summary (5, 5, 0, 0);

    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (lookup ("run-status"))), ==, expected);
  }
  g_assert_true (gtk_widget_get_sensitive (lookup ("campaign-form")));
  g_assert_cmpuint (list_rows (), ==, 5);
  /* The GTK thread never waited on the run: a window that waited would stall
   * for the whole run.  The bound is 250 ms, or half the run's wall time on a
   * loaded machine (scheduling alone stalled the loop for 0.3–1 s at load 15
   * while the run took several seconds). */
  g_assert_cmpint (fx.max_gap_us, <, MAX (250 * G_TIME_SPAN_MILLISECOND, t_run / 2));

  trials = stored_trials ("gui-5", &c, &cfg);
  g_assert_cmpuint (trials->len, ==, 5);
  for (guint i = 0; i < trials->len; i++)
    {
      NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      g_assert_cmpint (t->outcome, ==, NB_TRIAL_OK);
      g_assert_true (isfinite (t->attained.x_mm));
    }
  g_assert_true (nb_config_result_compute (c, &cfg, &r, &error));
  g_assert_no_error (error);
  g_assert_null (r.error);
  g_assert_cmpuint (r.pose.n, ==, 5);
  /* Shown with 3 decimals: equal within half the last digit. */
  nb_assert_abs (shown ("figure-n"), 5, 0, "n shown");
  nb_assert_abs (shown ("figure-ap-mm"), r.pose.ap_mm, 5e-4, "Ap shown");
  nb_assert_abs (shown ("figure-ao-deg"), r.pose.ao_deg, 5e-4, "Ao shown");
  nb_assert_abs (shown ("figure-rp-mm"), r.pose.rp_mm, 5e-4, "Rp shown");
  nb_assert_abs (shown ("figure-ro-deg"), r.pose.ro_deg, 5e-4, "Ro shown");
  g_assert_cmpfloat (r.pose.rp_mm, >, 0);
  nb_config_result_clear (&r);
  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (c, &error));
  snapshot_page ("trials", "trials.png");
}

static void
test_stop (void)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = NULL;
  NbCampaignConfig cfg;
  g_autoptr (GArray) trials = NULL;

  fx.finished = 0;
  fx.stop_at = 3;
  /* The stop is sent when the window hears that trial 3 started.  The
   * window's runner drives a trial only once the window has heard of it
   * (hold_until_heard), so the stop lands in trial 3 however late the main
   * loop turns: at pace 20 (0.17 s a trial) the Russian window under ASan
   * used to hear of it three trials late. */
  start_run ("gui-stop", 30, 20);
  iterate_until (run_over, GUINT_TO_POINTER (1));
  fx.stop_at = 0;
  {
    g_autofree char *counts = summary (3, 2, 0, 1);
    g_autofree char *expected = g_strdup_printf ("%s %s", _("Stopped."), counts);

    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (lookup ("run-status"))), ==, expected);
  }
  g_assert_cmpuint (list_rows (), ==, 3);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (fx.gui.window), "run"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (fx.gui.window), "stop"));

  trials = stored_trials ("gui-stop", &c, &cfg);
  g_assert_cmpuint (trials->len, ==, 3);
  g_assert_cmpint (g_array_index (trials, NbCampaignTrial, 0).outcome, ==, NB_TRIAL_OK);
  g_assert_cmpint (g_array_index (trials, NbCampaignTrial, 1).outcome, ==, NB_TRIAL_OK);
  g_assert_cmpint (g_array_index (trials, NbCampaignTrial, 2).outcome, ==, NB_TRIAL_ABORTED);
  g_assert_cmpstr (g_array_index (trials, NbCampaignTrial, 2).reason, ==,
                   "cancelled by the operator");
  nb_assert_abs (shown ("figure-n"), 2, 0, "n shown after the stop");
  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (c, &error));
}

/* The part of w on screen, in the window's coordinates: its bounds cut by
 * each scrolled window it is in (a row scrolled below the fold is not
 * under the toast); FALSE when none of it is. */
static gboolean
on_screen (GtkWidget *w, graphene_rect_t *out)
{
  GtkWidget *root = GTK_WIDGET (fx.gui.window);

  if (!gtk_widget_get_mapped (w) || !gtk_widget_compute_bounds (w, root, out))
    return FALSE;
  for (GtkWidget *p = gtk_widget_get_parent (w); p != NULL; p = gtk_widget_get_parent (p))
    {
      graphene_rect_t view;

      if (GTK_IS_SCROLLED_WINDOW (p) && gtk_widget_compute_bounds (p, root, &view) &&
          !graphene_rect_intersection (out, &view, out))
        return FALSE;
    }
  return out->size.width > 0 && out->size.height > 0;
}

/* The figures and tables below `w` (named figure-*, *-plot, *-track,
 * *-list, *-table, *-log) on screen, each checked clear of the toast;
 * how many there were. */
static guint
assert_clear_of (GtkWidget *w, const graphene_rect_t *toast)
{
  const char *name = gtk_widget_get_name (w);
  static const char *const ends[] = { "-plot", "-track", "-list", "-table", "-log", "-figures" };
  gboolean figure = g_str_has_prefix (name, "figure-");
  graphene_rect_t b;
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (ends); i++)
    figure = figure || g_str_has_suffix (name, ends[i]);
  if (figure && on_screen (w, &b))
    {
      if (graphene_rect_intersection (&b, toast, NULL))
        g_error ("the toast (%.0f,%.0f %.0fx%.0f) lies over %s (%.0f,%.0f %.0fx%.0f)",
                 toast->origin.x, toast->origin.y, toast->size.width, toast->size.height, name,
                 b.origin.x, b.origin.y, b.size.width, b.size.height);
      n++;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    n += assert_clear_of (c, toast);
  return n;
}

/* The Trials page's stack of views (stored trials, log, results): the
 * stack below w with a "results" page. */
static GtkStack *
views_of (GtkWidget *w)
{
  if (GTK_IS_STACK (w) && gtk_stack_get_child_by_name (GTK_STACK (w), "results") != NULL)
    return GTK_STACK (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkStack *found = views_of (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The toast's bounds in the window once it has come up (libadwaita's
 * 0.3 s show animation): the same in three looks 0.1 s apart. */
static graphene_rect_t
toast_bounds (void)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  graphene_rect_t last = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  guint same = 0;

  while (same < 3)
    {
      GtkWidget *toast = nb_test_gui_find_type (GTK_WIDGET (fx.gui.window), "AdwToastWidget");
      graphene_rect_t b;

      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      nb_test_gui_settle (100);
      if (toast == NULL || !gtk_widget_compute_bounds (toast, GTK_WIDGET (fx.gui.window), &b))
        continue;
      same = graphene_rect_equal (&b, &last) ? same + 1 : 0;
      last = b;
    }
  return last;
}

/* A toast lies below the pages, not over them: shown on the Run page
 * (its figures, plot and trials after /gui/run) and on the Trials page
 * (the stored trials, then the results' figures and plot), it meets
 * neither the page nor any figure on screen; the room it took goes with
 * it.  (Over the whole window, "Campaign opened." lay over the Trials
 * page's table and figures for its 5 s.) */
static void
test_toast_room (void)
{
  static const struct { const char *page, *view; } looks[] = {
    { "trials", NULL }, { "results", "trials" }, { "results", "results" },
  };
  GtkWidget *window = GTK_WIDGET (fx.gui.window);
  GtkWidget *pages = lookup ("pages");
  GtkWidget *room = lookup ("toast-room");
  int page_height;

  for (guint i = 0; i < G_N_ELEMENTS (looks); i++)
    {
      graphene_rect_t toast, page;
      guint n;

      adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (pages), looks[i].page);
      if (looks[i].view != NULL)
        gtk_stack_set_visible_child_name (views_of (lookup ("results-page")), looks[i].view);
      iterate_until (idle_window, NULL);
      nb_test_gui_dismiss_toasts (window);
      settle ();
      g_assert_false (gtk_widget_get_visible (room));
      page_height = gtk_widget_get_height (pages);

      nb_window_toast (fx.gui.window, _("Campaign opened."));
      toast = toast_bounds ();
      g_assert_true (gtk_widget_compute_bounds (pages, window, &page));
      g_test_message ("%s/%s: toast at y %.0f–%.0f, the page %.0f–%.0f", looks[i].page,
                      looks[i].view ? looks[i].view : "", toast.origin.y,
                      toast.origin.y + toast.size.height, page.origin.y,
                      page.origin.y + page.size.height);
      g_assert_false (graphene_rect_intersection (&toast, &page, NULL));
      n = assert_clear_of (pages, &toast);
      /* The Run page: its figures, plot, track, trial list; the Trials
       * page: its table, or the results' list and plot. */
      g_assert_cmpuint (n, >=, looks[i].view ? 1 : 4);
      /* The page gave up no more than the toast's room, and has it back. */
      g_assert_cmpint (gtk_widget_get_height (pages), >=, page_height - 100);
      nb_test_gui_dismiss_toasts (window);
      settle ();
      g_assert_false (gtk_widget_get_visible (room));
      g_assert_cmpint (gtk_widget_get_height (pages), ==, page_height);
    }
}

/* A widget the window has and shows (the Run page's figure rows are only
 * the selected clause's). */
static gboolean
is_shown (const char *name)
{
  GtkWidget *w = nb_test_gui_find (GTK_WIDGET (fx.gui.window), name);

  return w != NULL && gtk_widget_get_visible (w);
}

static void
run_clause (guint clause, const char *config, double pace)
{
  fx.finished = 0;
  select_clause (clause);
  gtk_editable_set_text (GTK_EDITABLE (lookup ("run-config")), config);
  nb_trials_page_set_pace (NB_TRIALS_PAGE (lookup ("trials-page")), pace);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (fx.gui.window), "run"));
  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), "run", NULL);
  iterate_until (run_over, GUINT_TO_POINTER (1));
}

static const char *
shown_text (const char *name)
{
  return gtk_label_get_text (GTK_LABEL (lookup (name)));
}

static void
test_avoidance (void)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = NULL;
  NbCampaignConfig cfg;
  NbConfigResult r = { 0 };
  g_autoptr (GArray) trials = NULL;
  GtkListBox *list = GTK_LIST_BOX (lookup ("trial-list"));

  /* PG counts as reached within clause 5's Ap + Rp (7.3 c): first the 30
   * trials clause 5 takes, for a repeatability worth the name. */
  fx.finished = 0;
  start_run ("gui-5", 25, 100);
  iterate_until (run_over, GUINT_TO_POINTER (1));
  select_clause (7);
  /* Only clause 7's controls; the trials are 7.3's three with the obstacle. */
  g_assert_true (is_shown ("run-obstacle"));
  g_assert_true (is_shown ("run-behaviour"));
  g_assert_true (is_shown ("run-trials"));
  g_assert_false (is_shown ("run-route"));
  g_assert_false (is_shown ("run-load"));
  g_assert_false (is_shown ("run-passage-width"));
  g_assert_false (is_shown ("run-min-range"));
  g_assert_false (is_shown ("figure-ap-mm"));
  g_assert_true (is_shown ("figure-t0-s"));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (lookup ("run-trials"))),
                   ==, 3);
  /* Clause 7 offers the six obstacles, the wooden wall first; behaviour 1. */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (
                      GTK_DROP_DOWN (lookup ("run-obstacle")))), ==, 6);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-obstacle")), 0);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-behaviour")), 0);
  run_clause (7, "gui-7", 100);

  trials = stored_trials_of (7, "gui-7", &c, &cfg);
  g_assert_cmpstr (cfg.obstacle, ==, "wooden wall");
  g_assert_cmpstr (cfg.behaviour, ==, "1");
  /* The baseline until three succeeded, then the three with the obstacle. */
  g_assert_cmpuint (trials->len, >=, 6);
  g_assert_cmpuint (list_rows (), ==, trials->len);
  for (guint i = 0; i < trials->len; i++)
    {
      NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      /* The list shows the newest trial first. */
      GtkWidget *row = gtk_list_box_row_get_child (gtk_list_box_get_row_at_index (
                                                     list, trials->len - 1 - i));
      const char *text = gtk_label_get_text (GTK_LABEL (row));
      g_autofree char *time = g_strdup_printf ("%.3f", t->time_s);

      g_assert_cmpstr (t->kind, ==, i + 3 < trials->len ? "baseline" : "obstacle");
      /* Each row names its kind and, when PG was reached, its time. */
      g_assert_nonnull (strstr (text, i + 3 < trials->len ? _("baseline") : _("with obstacle")));
      /* Both printed in the locale's decimal format. */
      if (isfinite (t->time_s))
        g_assert_nonnull (strstr (text, time));
      if (t->outcome == NB_TRIAL_OK)
        g_assert_nonnull (strstr (text, _("success")));
      else
        g_assert_true (strstr (text, _("contact")) != NULL || strstr (text, _("failed")) != NULL);
    }
  g_assert_true (nb_config_result_compute (c, &cfg, &r, &error));
  g_assert_no_error (error);
  g_assert_null (r.error);
  g_assert_true (isfinite (r.avoidance.t0_s) && r.avoidance.t0_s > 0);
  nb_assert_abs (shown ("figure-t0-s"), r.avoidance.t0_s, 5e-4, "T0 shown");
  if (isfinite (r.avoidance.t1_s))
    {
      nb_assert_abs (shown ("figure-t1-s"), r.avoidance.t1_s, 5e-4, "T1 shown");
      nb_assert_abs (shown ("figure-delay-ratio"), r.avoidance.delay_ratio, 5e-4, "T1/T0 shown");
    }
  else
    g_assert_cmpstr (shown_text ("figure-t1-s"), ==, "—");
  g_assert_cmpstr (shown_text ("figure-passed"), ==, r.avoidance.passed ? _("yes") : _("no"));
  nb_config_result_clear (&r);
  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (c, &error));
  snapshot_page ("trials", "trials-clause7.png");
}

static void
test_detection (void)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = NULL;
  NbCampaignConfig cfg;
  NbConfigResult r = { 0 };
  g_autoptr (GArray) trials = NULL;
  GListModel *obstacles;

  select_clause (6);
  g_assert_true (is_shown ("run-obstacle"));
  g_assert_true (is_shown ("run-min-range"));
  g_assert_true (is_shown ("run-max-range"));
  g_assert_false (is_shown ("run-trials"));
  g_assert_false (is_shown ("run-behaviour"));
  g_assert_false (is_shown ("run-route"));
  g_assert_true (is_shown ("figure-placements"));
  g_assert_false (is_shown ("figure-n"));
  /* Clause 6 may run all six at once (first); here the small cylinder. */
  obstacles = gtk_drop_down_get_model (GTK_DROP_DOWN (lookup ("run-obstacle")));
  g_assert_cmpuint (g_list_model_get_n_items (obstacles), ==, 7);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-obstacle")), 6);
  g_assert_cmpstr (gtk_string_object_get_string (GTK_STRING_OBJECT (
                     gtk_drop_down_get_selected_item (GTK_DROP_DOWN (lookup ("run-obstacle"))))),
                   ==, _("small cylinder"));
  run_clause (6, "gui-6", 100);

  trials = stored_trials_of (6, "gui-6", &c, &cfg);
  /* 6.3: max and min range in 8 directions. */
  g_assert_cmpuint (trials->len, ==, 16);
  g_assert_cmpuint (list_rows (), ==, 16);
  for (guint i = 0; i < trials->len; i++)
    g_assert_cmpstr (g_array_index (trials, NbCampaignTrial, i).label, ==, "small cylinder");
  g_assert_true (nb_config_result_compute (c, &cfg, &r, &error));
  g_assert_no_error (error);
  g_assert_null (r.error);
  nb_assert_abs (shown ("figure-placements"), r.detection.all.placements, 0, "placements shown");
  nb_assert_abs (shown ("figure-detected"), r.detection.all.detected, 0, "detected shown");
  g_assert_cmpuint (r.detection.all.detected, >, 0);
  nb_assert_abs (shown ("figure-mean-accuracy-pct"),
                 nb_detection_tally_mean_accuracy_pct (&r.detection.all), 5e-3,
                 "mean accuracy shown");
  nb_config_result_clear (&r);
  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (c, &error));
  snapshot_page ("trials", "trials-clause6.png");
  /* Back on clause 7 the choice is one of the six again. */
  select_clause (7);
  g_assert_cmpuint (g_list_model_get_n_items (obstacles), ==, 6);
}

/* After each trial: is the clause 9 verdict shown as interim? */
static void
on_verdict (NbTrialsPage *page, guint k, guint outcome, gpointer user_data)
{
  GtkWidget *verdict = lookup ("figure-passed");
  g_autofree char *interim = g_strdup_printf (_("%s so far"), _("no"));
  g_autofree char *interim_yes = g_strdup_printf (_("%s so far"), _("yes"));
  const char *text = gtk_label_get_text (GTK_LABEL (verdict));

  if (gtk_widget_has_css_class (verdict, "interim") &&
      (g_str_equal (text, interim) || g_str_equal (text, interim_yes)))
    fx.interim_seen++;
  else if (g_str_equal (text, _("yes")) || g_str_equal (text, _("no")))
    fx.final_seen++;
}

static void
test_passage (void)
{
  gulong id;
  g_autoptr (GError) error = NULL;
  NbCampaign *c = NULL;
  NbCampaignConfig cfg;
  NbConfigResult r = { 0 };
  g_autoptr (GArray) trials = NULL;

  select_clause (9);
  g_assert_true (is_shown ("run-passage-width"));
  g_assert_false (is_shown ("run-obstacle"));
  g_assert_false (is_shown ("run-behaviour"));
  g_assert_false (is_shown ("run-route"));
  g_assert_true (is_shown ("figure-mean-time-s"));
  g_assert_false (is_shown ("figure-t0-s"));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (lookup ("run-trials"))),
                   ==, 5);
  /* A width that is not one is refused before anything runs. */
  gtk_editable_set_text (GTK_EDITABLE (lookup ("run-passage-width")), "-300");
  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), "run", NULL);
  g_assert_false (nb_trials_page_is_running (NB_TRIALS_PAGE (lookup ("trials-page"))));
  g_assert_true (gtk_widget_has_css_class (lookup ("run-status"), "error"));
  /* Empty: the runner's default, robot.width_mm + 200 mm. */
  gtk_editable_set_text (GTK_EDITABLE (lookup ("run-passage-width")), "");
  fx.interim_seen = fx.final_seen = 0;
  id = g_signal_connect (lookup ("trials-page"), "trial-ended", G_CALLBACK (on_verdict), NULL);
  run_clause (9, "gui-9", 100);
  g_signal_handler_disconnect (lookup ("trials-page"), id);
  /* 4 trials of 5 ended with the verdict marked interim, then final. */
  g_assert_cmpuint (fx.interim_seen, ==, 4);
  g_assert_cmpuint (fx.final_seen, ==, 1);
  g_assert_false (gtk_widget_has_css_class (lookup ("figure-passed"), "interim"));
  g_assert_false (gtk_widget_has_css_class (lookup ("run-status"), "error"));

  trials = stored_trials_of (9, "gui-9", &c, &cfg);
  g_assert_cmpuint (trials->len, ==, 5);
  g_assert_cmpuint (list_rows (), ==, 5);
  g_assert_true (nb_config_result_compute (c, &cfg, &r, &error));
  g_assert_no_error (error);
  g_assert_null (r.error);
  if (r.passage.passed)
    {
      g_assert_true (r.passage.mean_time_s > 0);
      nb_assert_abs (shown ("figure-mean-time-s"), r.passage.mean_time_s, 5e-4,
                     "passage time shown");
    }
  else
    g_assert_cmpstr (shown_text ("figure-mean-time-s"), ==, "—");
  nb_assert_abs (shown ("figure-failed-trials"), r.passage.failed_trials, 0, "failed trials shown");
  g_assert_cmpstr (shown_text ("figure-passed"), ==, r.passage.passed ? _("yes") : _("no"));
  nb_config_result_clear (&r);
  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (c, &error));
  snapshot_page ("trials", "trials-clause9.png");
}

static void
on_issued (NbProtocolPage *page, gboolean ok, gpointer user_data)
{
  *(int *) user_data = ok ? 1 : 2;
}

static gboolean dialog_shown (gpointer data);

/* win.protocol shows the page; protocol.issue issues; a question (files to
 * replace) is answered with answer.  1 written, 2 not. */
static int
issue_protocol (const char *lang, const char *pdf, const char *answer)
{
  NbProtocolPage *page = NB_PROTOCOL_PAGE (lookup ("protocol-page"));
  int outcome = 0;
  gulong id = g_signal_connect (page, "issued", G_CALLBACK (on_issued), &outcome);

  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), "protocol", NULL);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (ADW_VIEW_STACK (lookup ("pages"))), ==,
                   "protocol");
  nb_protocol_page_set_language (page, lang);
  nb_protocol_page_set_output (page, pdf);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "protocol.issue", NULL));
  while (outcome == 0)
    {
      gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

      while (outcome == 0 && nb_window_get_dialog (fx.gui.window) == NULL)
        {
          g_assert_cmpint (g_get_monotonic_time (), <, deadline);
          g_main_context_iteration (NULL, TRUE);
        }
      if (outcome == 0)
        {
          g_assert_nonnull (answer);
          adw_message_dialog_response (nb_window_get_dialog (fx.gui.window), answer);
        }
    }
  g_signal_handler_disconnect (page, id);
  iterate_until (idle_window, NULL);
  if (outcome != 1)
    g_test_message ("protocol: %s", nb_protocol_page_get_status (page));
  return outcome;
}

/* The PDF's text, whitespace folded (a title may wrap). */
static char *
pdf_text (const char *pdf)
{
  const char *argv[] = { "pdftotext", pdf, "-", NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GRegex) space = g_regex_new ("\\s+", 0, 0, NULL);
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_regex_replace_literal (space, out, -1, 0, " ", 0, NULL);
}

static gboolean
file_exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* The protocol in both languages from the page, in-process: the PDF's
 * title in its language (pdftotext), the CSV tables equal to the report's
 * (what `export --table N` writes), the PDF opened with the default viewer;
 * an existing file asked about: kept on Cancel, really replaced on yes. */
static void
test_protocol (void)
{
  static const char *const langs[] = { "ru", "en" };
  const char *title = "Test protocol — ISO 18646-2:2024 (GOST R 60.6.3.15-2026)";
  g_autofree char *opened = g_build_filename (fx.gui.dir, "opened", NULL);

  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (fx.gui.window), "protocol"));
  for (guint l = 0; l < G_N_ELEMENTS (langs); l++)
    {
      g_autofree char *name = g_strdup_printf ("protocol-%s.pdf", langs[l]);
      g_autofree char *pdf = g_build_filename (fx.gui.dir, name, NULL);
      g_autofree char *csv1 = g_strdup_printf ("%s/protocol-%s-table-1.csv", fx.gui.dir, langs[l]);
      g_autoptr (GError) error = NULL;
      const NbCatalogue *words = nb_gui_catalogue (langs[l], &error);
      g_autofree char *text = NULL, *bytes = NULL, *csv = NULL;
      gsize len = 0;

      g_assert_no_error (error);
      g_unlink (opened);
      g_assert_cmpint (issue_protocol (langs[l], pdf, NULL), ==, 1);
      g_assert_true (g_file_get_contents (pdf, &bytes, &len, NULL));
      g_assert_true (memcmp (bytes, "%PDF-", 5) == 0);
      text = pdf_text (pdf);
      if (strstr (text, nb_tr (words, title)) == NULL)
        g_error ("%s: the PDF's text lacks its title \"%s\"", langs[l], nb_tr (words, title));
      if (g_str_equal (langs[l], "ru"))
        g_assert_cmpstr (nb_tr (words, title), !=, title);
      /* The CSV of table 1 is the report's, in the protocol's language. */
      {
        g_autoptr (NbCampaign) c = nb_campaign_open (fx.gui.db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
        g_autoptr (NbDocument) doc = NULL;
        g_autofree char *expected = NULL;

        g_assert_no_error (error);
        doc = nb_protocol_report_build (c, words, &error);
        g_assert_no_error (error);
        expected = nb_protocol_report_table_csv (doc, 1);
        g_assert_nonnull (expected);
        g_assert_true (g_file_get_contents (csv1, &csv, NULL, NULL));
        g_assert_cmpstr (csv, ==, expected);
      }
      /* Opened with the default application for PDF (the test's viewer
       * writes what it was given: GIO hands a local file's path to %u). */
      iterate_until (file_exists, opened);
      {
        g_autofree char *given = NULL;

        iterate_until (idle_window, NULL);
        g_assert_true (g_file_get_contents (opened, &given, NULL, NULL));
        g_strstrip (given);
        g_assert_cmpstr (given, ==, pdf);
      }
    }
  /* The Russian PDF exists: asked; Cancel keeps the file as it was, yes
   * replaces it. */
  {
    g_autofree char *pdf = g_build_filename (fx.gui.dir, "protocol-ru.pdf", NULL);
    g_autofree char *bytes = NULL, *text = NULL;

    g_assert_true (g_file_set_contents (pdf, "not a protocol", -1, NULL));
    g_assert_cmpint (issue_protocol ("ru", pdf, "cancel"), ==, 2);
    g_assert_true (g_file_get_contents (pdf, &bytes, NULL, NULL));
    g_assert_cmpstr (bytes, ==, "not a protocol");
    g_clear_pointer (&bytes, g_free);
    g_assert_cmpint (issue_protocol ("ru", pdf, "yes"), ==, 1);
    g_assert_true (g_file_get_contents (pdf, &bytes, NULL, NULL));
    g_assert_true (memcmp (bytes, "%PDF-", 5) == 0);
    text = pdf_text (pdf);
    g_assert_nonnull (strstr (text, "Протокол испытаний"));
  }
}

/* A job that holds the window's I/O queue until released. */
typedef struct {
  GMutex lock;
  GCond cond;
  gboolean started, release;
} Gate;

static gpointer
gate_work (gpointer data, GError **error)
{
  Gate *g = data;

  g_mutex_lock (&g->lock);
  g->started = TRUE;
  g_cond_broadcast (&g->cond);
  while (!g->release)
    g_cond_wait (&g->cond, &g->lock);
  g_mutex_unlock (&g->lock);
  return data;
}

static void
on_checked (NbProtocolPage *page, gboolean ok, gpointer user_data)
{
  *(guint *) user_data += 1;
}

static gboolean
checked_once (gpointer data)
{
  return *(guint *) data > 0 && nb_window_get_pending (fx.gui.window) == 0;
}

/* The Protocol page's completeness check reads the campaign through the
 * window's I/O queue, in turn with the form's saves: a read-only open takes
 * the file's lock for a moment (to finish what a dead writer left), and a
 * save that met it beside it was refused ("open in another navbench").
 * With the queue held, neither the check nor a save queued after it runs;
 * released, both do, in order, and the save is stored. */
static void
test_check_in_queue (void)
{
  NbProtocolPage *page = NB_PROTOCOL_PAGE (lookup ("protocol-page"));
  NbCampaignForm *form = NB_CAMPAIGN_FORM (lookup ("campaign-form"));
  GtkWidget *editor = nb_campaign_form_get_editor (form, "robot.model");
  Gate gate = { 0 };
  guint checked = 0;
  gulong id = g_signal_connect (page, "checked", G_CALLBACK (on_checked), &checked);
  gint64 until;
  g_autofree char *model = NULL;

  iterate_until (idle_window, NULL);
  g_mutex_init (&gate.lock);
  g_cond_init (&gate.cond);
  nb_io_queue_push (nb_window_get_queue (fx.gui.window), G_OBJECT (fx.gui.window), gate_work, NULL,
                    &gate, NULL, NULL);
  g_mutex_lock (&gate.lock);
  while (!gate.started)
    g_cond_wait (&gate.cond, &gate.lock);
  g_mutex_unlock (&gate.lock);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "protocol.check", NULL));
  gtk_editable_set_text (GTK_EDITABLE (editor), "queued model");
  g_signal_emit_by_name (editor, "activate");
  /* A check of its own thread had answered by now (a small campaign: well
   * under a second). */
  until = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE), g_usleep (5000);
  g_assert_cmpuint (checked, ==, 0);
  g_assert_cmpuint (nb_protocol_page_get_pending (page), ==, 1);
  g_mutex_lock (&gate.lock);
  gate.release = TRUE;
  g_cond_broadcast (&gate.cond);
  g_mutex_unlock (&gate.lock);
  iterate_until (checked_once, &checked);
  g_assert_cmpuint (checked, ==, 1);
  model = stored_field ("robot.model");
  g_assert_cmpstr (model, ==, "queued model");
  g_signal_handler_disconnect (page, id);
  g_mutex_clear (&gate.lock);
  g_cond_clear (&gate.cond);
}

/* The mnemonics a person can press now: every label drawn with one (the
 * view switcher's page titles, the buttons and rows of the page shown),
 * keyval (lower case) → its text; a second label of the same key is
 * reported in clashes. */
static guint n_mnemonics;

static void
collect_mnemonics (GtkWidget *widget, GHashTable *seen, GString *clashes)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget) && gtk_label_get_use_underline (GTK_LABEL (widget)))
    {
      const char *text = gtk_label_get_label (GTK_LABEL (widget));
      const char *u = text;
      gunichar key = 0;
      const char *before;

      /* The character after the first single underline, as GTK takes it
       * (case does not matter: Alt+Shift+key is the same mnemonic). */
      while ((u = strchr (u, '_')) != NULL)
        {
          if (u[1] == '_')
            {
              u += 2;
              continue;
            }
          key = g_unichar_tolower (g_utf8_get_char (u + 1));
          break;
        }
      if (key != 0)
        {
          n_mnemonics++;
          if ((before = g_hash_table_lookup (seen, GUINT_TO_POINTER (key))) != NULL)
            {
              char ch[8] = { 0 };

              g_unichar_to_utf8 (g_unichar_toupper (key), ch);
              g_string_append_printf (clashes, " Alt+%s: “%s” and “%s”;", ch, before, text);
            }
          else
            g_hash_table_insert (seen, GUINT_TO_POINTER (key), (gpointer) text);
        }
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_mnemonics (c, seen, clashes);
}

/* The Run page's clause drop-down is the registry's: the clauses the
 * campaign runner drives (nb_clause_driven), in its order, by the titles
 * the protocol gives them; and the figures shown for each are the rows of
 * its protocol table (nb_protocol_figure_columns, as the report titles
 * them), n first for the statistics of n trials.  Nothing of it is the
 * window's own: a clause module added is offered and shown. */
static void
test_run_clauses (void)
{
  static const guint expected_numbers[] = { 5, 6, 7, 8, 9, 10 };
  GtkDropDown *d = GTK_DROP_DOWN (lookup ("run-clause"));
  GListModel *items = gtk_drop_down_get_model (d);
  GtkWidget *grid = lookup ("run-figures");
  guint n_registry, n_driven = 0, was = gtk_drop_down_get_selected (d);
  const NbClause *const *all = nb_clause_registry (&n_registry);

  for (guint i = 0; i < n_registry; i++)
    {
      g_autofree char *expected = NULL;
      g_autoptr (GtkStringObject) item = NULL;
      g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_free);
      const NbProtocolColumn *cols;
      guint n_cols, k = 0;

      if (!nb_clause_driven (all[i]))
        continue;
      /* The item, in the registry's order. */
      expected = g_strdup_printf ("%u — %s", all[i]->number, _(all[i]->title));
      g_assert_cmpuint (n_driven, <, g_list_model_get_n_items (items));
      item = g_list_model_get_item (items, n_driven);
      g_assert_cmpstr (gtk_string_object_get_string (item), ==, expected);
      g_assert_cmpuint (n_driven, <, G_N_ELEMENTS (expected_numbers));
      g_assert_cmpuint (all[i]->number, ==, expected_numbers[n_driven]);
      /* Its figure rows: "title, unit" beside a value named for the key. */
      gtk_drop_down_set_selected (d, n_driven);
      if (all[i]->statistics_of_n)
        {
          g_ptr_array_add (rows, g_strdup (_("Trials counted n")));
          g_ptr_array_add (rows, g_strdup ("figure-n"));
        }
      cols = nb_protocol_figure_columns (all[i]->number, &n_cols);
      for (guint c = 0; c < n_cols; c++)
        {
          g_ptr_array_add (rows, cols[c].unit != NULL
                                 ? g_strdup_printf ("%s, %s", _(cols[c].title), _(cols[c].unit))
                                 : g_strdup (_(cols[c].title)));
          g_ptr_array_add (rows, g_strdelimit (g_strconcat ("figure-", cols[c].key, NULL), "_",
                                               '-'));
        }
      for (GtkWidget *name = NULL, *value = NULL;
           (name = gtk_grid_get_child_at (GTK_GRID (grid), 0, (int) k)) != NULL; k++)
        {
          value = gtk_grid_get_child_at (GTK_GRID (grid), 1, (int) k);
          g_assert_nonnull (value);
          g_assert_cmpuint (2 * k + 1, <, rows->len);
          g_assert_true (gtk_widget_get_visible (name) && gtk_widget_get_visible (value));
          g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (name)), ==, g_ptr_array_index (rows, 2 * k));
          g_assert_cmpstr (gtk_widget_get_name (value), ==, g_ptr_array_index (rows, 2 * k + 1));
          g_assert_true (nb_test_gui_lookup (fx.gui.window, g_ptr_array_index (rows, 2 * k + 1))
                         == value);
        }
      g_assert_cmpuint (2 * k, ==, rows->len);
      /* The figures' heading only above figures (10: its maps' Dm are
       * the Results page's). */
      g_assert_true (gtk_widget_get_visible (lookup ("run-figures-heading")) == (k > 0));
      /* Clause 8 literally: n and table 5's four columns. */
      if (all[i]->number == 8)
        {
          g_assert_cmpuint (k, ==, 5);
          g_assert_cmpstr (gtk_widget_get_name (gtk_grid_get_child_at (GTK_GRID (grid), 1, 3)),
                           ==, "figure-mean-abs-mm");
        }
      n_driven++;
    }
  /* Clause 7's behaviours as 7.2 numbers them (nb_behaviour_name), literally four. */
  {
    GListModel *b = gtk_drop_down_get_model (GTK_DROP_DOWN (lookup ("run-behaviour")));

    g_assert_cmpuint (g_list_model_get_n_items (b), ==, 4);
    for (guint i = 1; i <= 4; i++)
      {
        g_autoptr (GtkStringObject) item = g_list_model_get_item (b, i - 1);
        g_autofree char *expected = g_strdup_printf ("%u — %s", i, _(nb_behaviour_name (i)));

        g_assert_cmpstr (gtk_string_object_get_string (item), ==, expected);
      }
    g_assert_cmpstr (nb_behaviour_name (4), ==, "head-on");
    g_assert_null (nb_behaviour_name (5));
  }
  /* Literally: clauses 5 to 10, all of 18646-2's test clauses. */
  g_assert_cmpuint (n_driven, ==, G_N_ELEMENTS (expected_numbers));
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, n_driven);
  gtk_drop_down_set_selected (d, was);
}

/* Clause 10, offered because its module has a runner, runs from the
 * window as `campaign run --clause 10` does: the simulator's three maps,
 * each a row, until three consecutive successes (10.3). */
static void
test_run_mapping (void)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = NULL;
  NbCampaignConfig cfg;
  g_autoptr (GArray) trials = NULL;

  run_clause (10, "gui-10", 100);
  {
    g_autofree char *expected = summary (3, 3, 0, 0);

    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (lookup ("run-status"))), ==, expected);
  }
  trials = stored_trials_of (10, "gui-10", &c, &cfg);
  g_assert_cmpuint (trials->len, ==, 3);
  g_assert_cmpuint (list_rows (), ==, 3);
  for (guint i = 0; i < trials->len; i++)
    g_assert_cmpint (g_array_index (trials, NbCampaignTrial, i).outcome, ==, NB_TRIAL_OK);
  g_assert_false (is_shown ("run-figures-heading"));
  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (c, &error));
  select_clause (5);
}

/* No two mnemonics of what the window shows are the same key, on every
 * page, in both widths (the view switcher in the header bar at 1280 px;
 * at 1024 px in Russian the switcher bar at the bottom): Alt+key does one
 * thing.  The page titles' keys are each their page's. */
static void
test_mnemonics (void)
{
  static const char *const pages[] = { "overview", "campaign", "instrument", "trials", "results",
                                       "motion", "protocol" };
  static const int widths[][2] = { { 1280, 800 }, { 1024, 600 } };
  g_autoptr (GString) clashes = g_string_new (NULL);
  int w0, h0;

  gtk_window_get_default_size (GTK_WINDOW (fx.gui.window), &w0, &h0);
  for (guint s = 0; s < G_N_ELEMENTS (widths); s++)
    {
      gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

      gtk_window_set_default_size (GTK_WINDOW (fx.gui.window), widths[s][0], widths[s][1]);
      while (gtk_widget_get_width (GTK_WIDGET (fx.gui.window)) != widths[s][0] &&
             g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, FALSE);
      for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
        {
          g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
          gsize before = clashes->len;

          adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), pages[i]);
          iterate_until (idle_window, NULL);
          settle ();
          /* The Run page shows each clause's own controls: every clause's. */
          guint n_clauses = g_list_model_get_n_items (gtk_drop_down_get_model (
                              GTK_DROP_DOWN (lookup ("run-clause"))));

          for (guint c = 0; c < (g_str_equal (pages[i], "trials") ? n_clauses : 1); c++)
            {
              if (g_str_equal (pages[i], "trials"))
                {
                  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-clause")), c);
                  settle ();
                }
              g_hash_table_remove_all (seen);
              n_mnemonics = 0;
              collect_mnemonics (GTK_WIDGET (fx.gui.window), seen, clashes);
              /* Every page's title has its key (seven at least). */
              g_assert_cmpuint (n_mnemonics, >=, G_N_ELEMENTS (pages));
            }
          if (clashes->len > before)
            {
              g_autofree char *where = g_strdup_printf ("\n  %s at %d px:", pages[i], widths[s][0]);

              g_string_insert (clashes, before, where);
            }
        }
    }
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-clause")), 0);
  gtk_window_set_default_size (GTK_WINDOW (fx.gui.window), w0, h0);
  settle ();
  if (clashes->len > 0)
    g_error ("mnemonics clash:%s", clashes->str);
}

static GtkWindow *
find_toplevel (GType type)
{
  GListModel *list = gtk_window_get_toplevels ();  /* not owned */

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (list, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return GTK_WINDOW (w);
    }
  return NULL;
}

static gboolean
has_accel (const char *action, const char *accel)
{
  g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (fx.gui.app), action);

  return g_strv_contains ((const char *const *) accels, accel);
}

/* GNOME's conventions: the accelerators, the shortcuts window, About,
 * Preferences (the protocol's language, the style), the recent campaigns. */
static void
test_conventions (void)
{
  GSettings *settings = nb_application_get_settings (fx.gui.app);
  g_auto (GStrv) recent = g_settings_get_strv (settings, "recent-campaigns");
  GtkWindow *about, *prefs;
  AdwComboRow *row;
  g_autofree char *expected_ui = NULL;

  g_assert_true (has_accel ("win.new", "<Control>n"));
  g_assert_true (has_accel ("win.open", "<Control>o"));
  g_assert_true (has_accel ("win.protocol", "<Control>e"));
  g_assert_true (has_accel ("win.stop", "Escape"));
  g_assert_true (has_accel ("app.quit", "<Control>q"));
  g_assert_true (has_accel ("app.help", "F1"));
  g_assert_true (has_accel ("app.preferences", "<Control>comma"));
  /* GtkApplication found gtk/help-overlay.ui in the resources (Ctrl+?). */
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (fx.gui.window), "show-help-overlay"));
  g_assert_true (has_accel ("win.show-help-overlay", "<Control>question"));
  /* Nothing runs: Esc is not taken (it closes popovers and dialogs). */
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (fx.gui.window), "stop"));
  g_assert_true (gtk_widget_get_visible (lookup ("header-stop")));

  /* The campaign opened at start is the first recent one. */
  if (recent[0] == NULL)
    g_test_message ("no recent campaign; window on %s, said %s",
                    nb_window_get_campaign_path (fx.gui.window), nb_window_get_last_message (fx.gui.window));
  g_assert_nonnull (recent[0]);
  g_assert_cmpstr (recent[0], ==, fx.gui.db);

  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.app), "about", NULL);
  about = find_toplevel (ADW_TYPE_ABOUT_WINDOW);
  g_assert_nonnull (about);
  g_assert_cmpstr (adw_about_window_get_version (ADW_ABOUT_WINDOW (about)), ==, NB_VERSION);
  g_assert_cmpstr (adw_about_window_get_application_icon (ADW_ABOUT_WINDOW (about)), ==,
                   NB_APPLICATION_ID);
  gtk_window_destroy (about);

  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.app), "preferences", NULL);
  prefs = find_toplevel (NB_TYPE_PREFERENCES_WINDOW);
  g_assert_nonnull (prefs);
  /* Dark forced, then the desktop's choice again (light under Xvfb). */
  row = ADW_COMBO_ROW (nb_test_gui_find (GTK_WIDGET (prefs), "pref-style"));
  g_assert_nonnull (row);
  adw_combo_row_set_selected (row, 2);
  g_assert_true (adw_style_manager_get_dark (adw_style_manager_get_default ()));
  {
    g_autofree char *style = g_settings_get_string (settings, "style");

    g_assert_cmpstr (style, ==, "dark");
  }
  adw_combo_row_set_selected (row, 0);
  g_assert_false (adw_style_manager_get_dark (adw_style_manager_get_default ()));

  /* The protocol's language: by default the one the window speaks — the
   * catalogue's, whatever LANG says. */
  expected_ui = g_strdup (g_str_equal (_("Campaign opened."), "Campaign opened.") ? "en" : "ru");
  g_assert_cmpstr (nb_gui_ui_language (), ==, expected_ui);
  g_assert_cmpstr (nb_window_protocol_language (fx.gui.window), ==, expected_ui);
  row = ADW_COMBO_ROW (nb_test_gui_find (GTK_WIDGET (prefs), "pref-protocol-language"));
  adw_combo_row_set_selected (row, 1);
  g_assert_cmpstr (nb_window_protocol_language (fx.gui.window), ==, "ru");
  adw_combo_row_set_selected (row, 2);
  g_assert_cmpstr (nb_window_protocol_language (fx.gui.window), ==, "en");
  adw_combo_row_set_selected (row, 0);
  g_assert_cmpstr (nb_window_protocol_language (fx.gui.window), ==, expected_ui);
  gtk_window_destroy (prefs);
}

/* A re-run plots the configuration's stored trials with the new ones, as
 * its figures count them (it drew the new points only, with the circle of
 * all). */
static void
test_rerun (void)
{
  NbTrialsPage *page = NB_TRIALS_PAGE (lookup ("trials-page"));

  fx.finished = 0;
  start_run ("gui-5", 3, 100);
  iterate_until (run_over, GUINT_TO_POINTER (1));
  nb_assert_abs (shown ("figure-n"), 8, 0, "n of the configuration");
  g_assert_cmpuint (nb_trials_page_get_plot_points (page), ==, 8);
  /* Clause 8: the d_i of both runs. */
  fx.finished = 0;
  select_clause (8);
  gtk_editable_set_text (GTK_EDITABLE (lookup ("run-config")), "gui-8");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (lookup ("run-trials")), 2);
  run_clause (8, "gui-8", 100);
  g_assert_cmpuint (nb_trials_page_get_plot_points (page), ==, 2);
  fx.finished = 0;
  run_clause (8, "gui-8", 100);
  nb_assert_abs (shown ("figure-n"), 4, 0, "n of clause 8");
  g_assert_cmpuint (nb_trials_page_get_plot_points (page), ==, 4);
}

/* Alt+U from the spin button: the number typed, not the one before. */
static void
test_stale_count (void)
{
  NbCampaign *c = NULL;
  NbCampaignConfig cfg;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (GError) error = NULL;
  GtkWidget *spin = lookup ("run-trials");

  select_clause (5);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 5);
  gtk_editable_set_text (GTK_EDITABLE (lookup ("run-config")), "gui-typed");
  /* Typed, not committed (no Enter, no focus change). */
  gtk_editable_set_text (GTK_EDITABLE (spin), "2");
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)), ==, 5);
  fx.finished = 0;
  nb_trials_page_set_pace (NB_TRIALS_PAGE (lookup ("trials-page")), 100);
  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), "run", NULL);
  iterate_until (run_over, GUINT_TO_POINTER (1));
  trials = stored_trials ("gui-typed", &c, &cfg);
  g_assert_cmpuint (trials->len, ==, 2);
  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (c, &error));
}

/* Stopped in the first trial: one trial, aborted — said in the singular,
 * and the same counts as the event log's. */
static void
test_stop_first (void)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = NULL;
  NbCampaignConfig cfg;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (GArray) events = NULL;
  g_autofree char *counts = summary (1, 0, 0, 1);
  g_autofree char *expected = g_strdup_printf ("%s %s", _("Stopped."), counts);
  const NbCampaignEvent *last = NULL;

  fx.finished = 0;
  fx.stop_at = 1;
  /* The stop is sent when the window hears that trial 1 started; trial 1
   * is not driven before (hold_until_heard).  Before that hold the window
   * at load 20 and under ASan heard of it after trial 1 had ended ("1 ok, 0
   * aborted") at pace 20 and 1, and pace 0.1 (every virtual second ten
   * real ones) ran into the 60 s wait on a loaded machine. */
  start_run ("gui-stop-1", 30, 20);
  iterate_until (run_over, GUINT_TO_POINTER (1));
  fx.stop_at = 0;
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (lookup ("run-status"))), ==, expected);
  g_assert_cmpuint (list_rows (), ==, 1);
  trials = stored_trials ("gui-stop-1", &c, &cfg);
  g_assert_cmpuint (trials->len, ==, 1);
  g_assert_cmpint (g_array_index (trials, NbCampaignTrial, 0).outcome, ==, NB_TRIAL_ABORTED);
  events = nb_campaign_list_events (c, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < events->len; i++)
    if (g_strcmp0 (g_array_index (events, NbCampaignEvent, i).what, "campaign run ended") == 0)
      last = &g_array_index (events, NbCampaignEvent, i);
  g_assert_nonnull (last);
  g_assert_true (g_str_has_prefix (last->new_value, "1 run: 0 ok, 0 failed, 1 aborted"));
  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (c, &error));
}

static gboolean
more_asked (gpointer data)
{
  return nb_trials_page_get_dialog (NB_TRIALS_PAGE (lookup ("trials-page"))) != NULL;
}

static guint
stored_count (const char *config)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = NULL;
  NbCampaignConfig cfg;
  g_autoptr (GArray) trials = stored_trials (config, &c, &cfg);
  guint n = trials->len;

  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (c, &error));
  return n;
}

/* A configuration with its 30 trials (5.3) is not given a 31st unasked. */
static void
test_complete_asks (void)
{
  NbTrialsPage *page = NB_TRIALS_PAGE (lookup ("trials-page"));
  guint before = stored_count ("gui-5");

  g_assert_cmpuint (before, >=, 30);
  fx.finished = 0;
  start_run ("gui-5", 1, 100);
  iterate_until (more_asked, NULL);
  adw_message_dialog_response (nb_trials_page_get_dialog (page), "cancel");
  iterate_until (run_over, GUINT_TO_POINTER (1));
  g_assert_cmpuint (stored_count ("gui-5"), ==, before);
  fx.finished = 0;
  start_run ("gui-5", 1, 100);
  iterate_until (more_asked, NULL);
  adw_message_dialog_response (nb_trials_page_get_dialog (page), "more");
  iterate_until (run_over, GUINT_TO_POINTER (1));
  g_assert_cmpuint (stored_count ("gui-5"), ==, before + 1);
}

/* The header bar (and so the window) fits a 1024 px screen in Russian as
 * in English. */
static void
test_header_width (void)
{
  int min = 0, nat = 0;

  gtk_widget_measure (GTK_WIDGET (fx.gui.window), GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL,
                      NULL);
  g_assert_cmpint (min, <=, 1024);
  /* And so does the header bar itself, its window buttons included. */
  gtk_widget_measure (gtk_widget_get_parent (lookup ("header-stop")), GTK_ORIENTATION_HORIZONTAL,
                      -1, &min, &nat, NULL, NULL);
  g_assert_cmpint (min, <=, 1024);
}

static GtkDropTarget *
window_drop_target (void)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (fx.gui.window));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (c))
        return GTK_DROP_TARGET (c);
    }
  return NULL;
}

static gboolean trial_started (gpointer data);

/* Another campaign, dropped on the window: nothing of the first stays on
 * screen; with no robot width the run says where to set it (not a CLI
 * command); its protocol is asked about (no trials); New over an existing
 * file replaces it (the chooser asked "Replace?"). */
static void
test_other_campaign (void)
{
  g_autofree char *other = g_build_filename (fx.gui.dir, "other.nbc", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = g_file_new_for_path (other);
  GValue value = G_VALUE_INIT;
  gboolean dropped = FALSE;
  NbTrialsPage *page = NB_TRIALS_PAGE (lookup ("trials-page"));
  const char *status;

  {
    g_autoptr (NbCampaign) c = nb_campaign_create (other, "other", &error);

    g_assert_no_error (error);
    g_assert_true (nb_campaign_set_field (c, "robot.model", "M-1", &error));
    g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  }
  g_assert_cmpuint (list_rows (), >, 0);
  g_value_init (&value, G_TYPE_FILE);
  g_value_set_object (&value, file);
  g_signal_emit_by_name (window_drop_target (), "drop", &value, 0.0, 0.0, &dropped);
  g_value_unset (&value);
  g_assert_true (dropped);
  iterate_until (idle_window, NULL);
  g_assert_cmpstr (nb_window_get_campaign_path (fx.gui.window), ==, other);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fx.gui.window)), ==, "other — navbench");
  g_assert_cmpuint (list_rows (), ==, 0);
  g_assert_cmpuint (nb_trials_page_get_plot_points (page), ==, 0);
  g_assert_cmpstr (shown_text ("figure-n"), ==, "—");

  fx.finished = 0;
  start_run ("gui-5", 5, 100);
  iterate_until (run_over, GUINT_TO_POINTER (1));
  status = gtk_label_get_text (GTK_LABEL (lookup ("run-status")));
  g_assert_null (strstr (status, "campaign set"));
  g_assert_nonnull (strstr (status, _("The robot's width is not set: enter it on the Campaign "
                                      "page (it gives LU, ISO 18646-2 4.5).")));

  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), "protocol", NULL);
  gtk_widget_activate_action (lookup ("protocol-page"), "protocol.issue", NULL);
  iterate_until (dialog_shown, NULL);
  g_assert_cmpstr (adw_message_dialog_get_heading (nb_window_get_dialog (fx.gui.window)), ==,
                   _("The Campaign Has No Trials"));
  adw_message_dialog_response (nb_window_get_dialog (fx.gui.window), "cancel");
  iterate_until (idle_window, NULL);

  /* Replaced: a new campaign, no model; the old file in the trash. */
  nb_window_open_campaign (fx.gui.window, fx.gui.db);
  iterate_until (idle_window, NULL);
  nb_window_new_campaign (fx.gui.window, other);
  iterate_until (idle_window, NULL);
  g_assert_cmpstr (nb_window_get_campaign_path (fx.gui.window), ==, other);
  {
    g_autoptr (NbCampaign) c = nb_campaign_open (other, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
    g_autofree char *model = NULL;

    g_assert_no_error (error);
    model = nb_campaign_get_field (c, "robot.model", &error);
    g_assert_no_error (error);
    g_assert_null (model);
    g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  }
  /* Back to the first, from the recent campaigns. */
  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), "open-recent",
                                  g_variant_new_string (fx.gui.db));
  iterate_until (idle_window, NULL);
  g_assert_cmpstr (nb_window_get_campaign_path (fx.gui.window), ==, fx.gui.db);
}

/* Mid-run the protocol is refused with a word. */
static void
test_protocol_mid_run (void)
{
  fx.finished = 0;
  fx.started = 0;
  start_run ("gui-mid", 3, 20);
  iterate_until (trial_started, GUINT_TO_POINTER (1));
  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), "protocol", NULL);
  gtk_widget_activate_action (lookup ("protocol-page"), "protocol.issue", NULL);
  g_assert_cmpstr (nb_protocol_page_get_status (NB_PROTOCOL_PAGE (lookup ("protocol-page"))), ==,
                   _("The protocol is issued when the run has ended: the trial in flight is not "
                     "in the campaign yet."));
  g_assert_null (nb_window_get_dialog (fx.gui.window));
  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), "stop", NULL);
  iterate_until (run_over, GUINT_TO_POINTER (1));
}

static void
shoot (const char *page, const char *file, gpointer user_data)
{
  snapshot_page (page, file);
}

/* With NAVBENCH_SCREENSHOT_DIR: every page, light and dark, at 1280×800
 * and 1024×600, named PAGE-LANG-STYLE-WxH.png (tests/golden/gui/). */
static void
test_screenshots (void)
{
  static const char *const pages[] = { "campaign", "trials", "protocol", NULL };

  if (g_getenv ("NAVBENCH_SCREENSHOT_DIR") == NULL)
    {
      g_test_skip ("NAVBENCH_SCREENSHOT_DIR is not set");
      return;
    }
  nb_test_gui_screenshots (GTK_WINDOW (fx.gui.window), pages, shoot, NULL);
}

static gboolean
window_gone (gpointer data)
{
  return fx.gui.window == NULL;
}

static gboolean
trial_started (gpointer data)
{
  return fx.started >= GPOINTER_TO_UINT (data);
}

static gboolean
dialog_shown (gpointer data)
{
  return nb_window_get_dialog (fx.gui.window) != NULL;
}

/* Closing during a run asks; "Cancel" leaves the run going, "Stop and
 * Close" stops it: the trial in flight recorded aborted, the window gone
 * once it is, the application not left running headless. */
static void
test_close_during_run (void)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = NULL;
  NbCampaignConfig cfg;
  g_autoptr (GArray) trials = NULL;
  NbCampaignTrial *last;

  fx.started = 0;
  g_object_add_weak_pointer (G_OBJECT (fx.gui.window), (gpointer *) &fx.gui.window);
  /* The window hears of each trial late on a loaded machine or under ASan
   * (whole malloc stacks: its main loop 3-4x slower), and a run of 30
   * trials at pace 20 had ended before the window closed.  The most trials
   * the page takes, at pace 5: the run cannot end on its own before the
   * test has closed the window (it is cancelled then, so it costs only
   * the three trials' time). */
  start_run ("gui-close", 100, 5);
  iterate_until (trial_started, GUINT_TO_POINTER (2));
  /* Ctrl+Q closes each window as its close button does. */
  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.app), "quit", NULL);
  iterate_until (dialog_shown, NULL);
  g_assert_nonnull (fx.gui.window);
  adw_message_dialog_response (nb_window_get_dialog (fx.gui.window), "cancel");
  g_assert_null (nb_window_get_dialog (fx.gui.window));
  g_assert_true (nb_trials_page_is_running (NB_TRIALS_PAGE (lookup ("trials-page"))));
  iterate_until (trial_started, GUINT_TO_POINTER (3));
  gtk_window_close (GTK_WINDOW (fx.gui.window));
  iterate_until (dialog_shown, NULL);
  /* What is checked below is a close during the run: it is still in flight. */
  g_assert_true (nb_trials_page_is_running (NB_TRIALS_PAGE (lookup ("trials-page"))));
  adw_message_dialog_response (nb_window_get_dialog (fx.gui.window), "yes");
  iterate_until (window_gone, NULL);

  trials = stored_trials ("gui-close", &c, &cfg);
  g_assert_cmpuint (trials->len, >=, 3);
  g_assert_cmpuint (trials->len, <, 100);
  last = &g_array_index (trials, NbCampaignTrial, trials->len - 1);
  g_assert_cmpint (last->outcome, ==, NB_TRIAL_ABORTED);
  /* The close may land while the trial settles at a point: the runner then
   * says so after the words ("... while settling", under ASan at load 5). */
  g_assert_true (g_str_has_prefix (last->reason, "cancelled by the operator"));
  for (guint i = 0; i + 1 < trials->len; i++)
    g_assert_cmpint (g_array_index (trials, NbCampaignTrial, i).outcome, ==, NB_TRIAL_OK);
  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (c, &error));
  /* The file is not left locked: it opens for writing. */
  c = nb_campaign_open (fx.gui.db, 0, &error);
  g_assert_no_error (error);
  g_assert_true (nb_campaign_close (c, &error));
}

/* The protocol is opened with the default application for PDF: here a
 * viewer that writes down the file it was given (XDG_CONFIG_HOME and the
 * data directory's applications/, before GLib reads them). */
static void
prepare_viewer (const char *dir)
{
  g_autofree char *data = g_build_filename (dir, "xdg-data", NULL);
  g_autofree char *config = g_build_filename (dir, "xdg-config", NULL);
  g_autofree char *apps = g_build_filename (data, "applications", NULL);
  g_autofree char *viewer = g_build_filename (dir, "viewer.sh", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\nprintf '%%s\\n' \"$1\" > '%s/opened.part' && "
                                             "mv '%s/opened.part' '%s/opened'\n", dir, dir, dir);
  g_autofree char *entry = g_strdup_printf ("[Desktop Entry]\nType=Application\n"
                                            "Name=navbench test viewer\nExec=%s %%u\n"
                                            "MimeType=application/pdf;\nNoDisplay=true\n",
                                            viewer);
  g_autofree char *desktop = g_build_filename (apps, "nb-test-viewer.desktop", NULL);
  g_autofree char *list = g_build_filename (config, "mimeapps.list", NULL);

  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_assert_cmpint (g_mkdir_with_parents (apps, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (config, 0700), ==, 0);
  g_assert_true (g_file_set_contents (viewer, script, -1, NULL));
  g_assert_cmpint (g_chmod (viewer, 0700), ==, 0);
  g_assert_true (g_file_set_contents (desktop, entry, -1, NULL));
  g_assert_true (g_file_set_contents (list, "[Default Applications]\n"
                                      "application/pdf=nb-test-viewer.desktop\n", -1, NULL));
}

/* The records the libraries write from the window (reasons, event texts,
 * setups' JSON) carry C's decimal point in any language: the window speaks
 * the environment's language (gui-ru: LANG=ru_RU.UTF-8, whose decimal sign
 * is a comma) with numbers in C's format. */
static void
test_record_numbers (void)
{
  g_autofree char *reason = g_strdup_printf (NB_REASON_TOUCHED, "the wooden wall", 12.5);

  g_assert_cmpstr (localeconv ()->decimal_point, ==, ".");
  g_assert_cmpstr (reason, ==, "touched the wooden wall: clearance 12.5 mm");
  g_assert_cmpfloat (g_strtod ("12.5", NULL), ==, 12.5);
  /* The window's words are still the environment's. */
  if (g_str_has_prefix (g_getenv ("LANGUAGE") ? g_getenv ("LANGUAGE") : "", "ru"))
    g_assert_cmpstr (_("Stop"), !=, "Stop");
}

static void
show_for_check (const char *page, gpointer user_data)
{
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), page);
  iterate_until (idle_window, NULL);
  nb_test_gui_settle (200);
}

/* At 1280×800 and 1024×600 no label of the Campaign, Run (after the
 * clause 5 run) and Protocol pages is cut short with an ellipsis (the
 * drop-downs' buttons left out: nb_test_gui_ellipsized). */
static void
test_nothing_ellipsized (void)
{
  static const char *const pages[] = { "campaign", "trials", "protocol", NULL };

  nb_test_gui_assert_nothing_ellipsized (GTK_WINDOW (fx.gui.window), pages, show_for_check,
                                         NULL);
  nb_test_gui_set_size (GTK_WINDOW (fx.gui.window), 1280, 800);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;

  /* The window's words in the environment's language (LANGUAGE=ru for the
   * Russian screenshots). */
  nb_test_gui_init (&fx.gui, &argc, &argv, "gui.nbc", prepare_viewer);
  {
    g_autoptr (NbCampaign) c = nb_campaign_create (fx.gui.db, "gui test", &error);

    g_assert_no_error (error);
    g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  }
  nb_test_gui_new_window (&fx.gui);
  g_signal_connect (lookup ("trials-page"), "run-finished", G_CALLBACK (on_finished), NULL);
  g_signal_connect (lookup ("trials-page"), "trial-started", G_CALLBACK (on_trial_started), NULL);
  nb_test_gui_open (&fx.gui);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fx.gui.window)), ==, "gui test — navbench");

  g_test_add_func ("/gui/conventions", test_conventions);
  g_test_add_func ("/gui/record-numbers", test_record_numbers);
  g_test_add_func ("/gui/form", test_form);
  g_test_add_func ("/gui/run", test_run);
  g_test_add_func ("/gui/toast-room", test_toast_room);
  g_test_add_func ("/gui/nothing-ellipsized", test_nothing_ellipsized);
  g_test_add_func ("/gui/screenshots", test_screenshots);
  g_test_add_func ("/gui/rerun", test_rerun);
  g_test_add_func ("/gui/stale-count", test_stale_count);
  g_test_add_func ("/gui/stop", test_stop);
  g_test_add_func ("/gui/stop-first", test_stop_first);
  g_test_add_func ("/gui/avoidance", test_avoidance);
  g_test_add_func ("/gui/complete-asks", test_complete_asks);
  g_test_add_func ("/gui/passage", test_passage);
  g_test_add_func ("/gui/detection", test_detection);
  g_test_add_func ("/gui/header-width", test_header_width);
  g_test_add_func ("/gui/run-clauses", test_run_clauses);
  g_test_add_func ("/gui/run-mapping", test_run_mapping);
  g_test_add_func ("/gui/mnemonics", test_mnemonics);
  g_test_add_func ("/gui/protocol", test_protocol);
  g_test_add_func ("/gui/protocol-mid-run", test_protocol_mid_run);
  g_test_add_func ("/gui/check-in-queue", test_check_in_queue);
  g_test_add_func ("/gui/other-campaign", test_other_campaign);
  /* Last: the window goes. */
  g_test_add_func ("/gui/close-during-run", test_close_during_run);
  return nb_test_gui_finish (&fx.gui, g_test_run ());
}
