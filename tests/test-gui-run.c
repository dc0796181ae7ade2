/* test-gui-run — the window's Run, Trials and Motion pages under Xvfb
 *
 * Driven through the window's actions as the operator drives it:
 *  - an operator-driven robot measured by the instrument connected on the
 *    Instrument page (a recorded session streamed as csv over TCP, the
 *    window handing the page's device to the run, the page leaving its
 *    samples to the run meanwhile): each trial's prompt comes as a dialog, answered
 *    "yes", and the runner records the answers in the event log; the
 *    attained poses are the session's rests; the live track gets samples;
 *  - one trial, then everything left in the plan on the simulated base,
 *    stopped: the plan's first configuration, the trial in flight aborted;
 *  - Stop while a prompt is up: no answer recorded, the run ends;
 *  - a trial edited with a reason on the Trials page: the store holds the
 *    value, the audit trail shows the old and the new value and why;
 *  - a motion sequence on the simulated arm: its log, and stopped.
 */
#include "nb-test-gui.h"
#include "nb-application.h"
#include "nb-campaign.h"
#include "nb-campaign-plan.h"
#include "nb-error.h"
#include "nb-gui-paths.h"
#include "nb-instrument-page.h"
#include "nb-motion-page.h"
#include "nb-record-words.h"
#include "nb-results-page.h"
#include "nb-test.h"
#include "nb-trials-page.h"
#include "nb-window.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

typedef struct {
  NbTestGuiApp gui;
  guint finished;
  guint started;
  guint stop_at;
  guint prompts_answered;
  guint max_track;
  guint loaded, edited, edited_ok, log_lines, sequences, sequences_ok;
} Fixture;

static Fixture fx;

static void
iterate_until (gboolean (*done) (gpointer), gpointer data)
{
  nb_test_gui_iterate_until (done, data, 120);
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

static NbTrialsPage *
run_page (void)
{
  return NB_TRIALS_PAGE (lookup ("trials-page"));
}

static gboolean
run_over (gpointer data)
{
  return fx.finished >= GPOINTER_TO_UINT (data) && !nb_trials_page_is_running (run_page ());
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

static void
select_clause (guint clause)
{
  nb_test_gui_select_clause (fx.gui.window, clause);
}

static void
activate (const char *action)
{
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (fx.gui.window), action));
  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), action, NULL);
}

static void
set_field (const char *key, const char *value)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_open (fx.gui.db, 0, &error);

  g_assert_no_error (error);
  g_assert_true (nb_campaign_set_field (c, key, value, &error));
  g_assert_no_error (error);
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
}

static GArray *
stored_trials (guint clause, const char *config)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_open (fx.gui.db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  NbCampaignConfig cfg;
  GArray *trials;

  g_assert_no_error (error);
  nb_campaign_config_init (&cfg);
  if (!nb_campaign_find_config (c, clause, config, &cfg, &error))
    {
      g_assert_error (error, NB_ERROR, NB_ERROR_NOT_FOUND);
      nb_campaign_config_clear (&cfg);
      g_assert_true (nb_campaign_close (g_steal_pointer (&c), NULL));
      return g_array_new (FALSE, FALSE, sizeof (NbCampaignTrial));
    }
  trials = nb_campaign_list_trials (c, cfg.id, &error);
  g_assert_no_error (error);
  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  return trials;
}

static GArray *
stored_events (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_open (fx.gui.db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  GArray *events;

  g_assert_no_error (error);
  events = nb_campaign_list_events (c, &error);
  g_assert_no_error (error);
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  return events;
}

static guint
count_events (GArray *events, const char *what, const char *new_value)
{
  guint n = 0;

  for (guint i = 0; i < events->len; i++)
    {
      const NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);

      n += g_strcmp0 (e->what, what) == 0 &&
           (new_value == NULL || g_strcmp0 (e->new_value, new_value) == 0);
    }
  return n;
}

/* ------------------------------------------------- operator prompts -- */

/* A recorded session of an operator-driven robot (as test-runner-cli's):
 * rests at P0, drives to a rest near the target 5 LU ahead (LU 500 mm),
 * back; 50 Hz. */
static const double session_rests[][3] = { { 2497.3, 2.1, 0.4 }, { 2501.2, -1.7, -0.3 },
                                           { 2499.0, 0.6, 0.1 } };

/* The session as an instrument streams it live: csv lines over TCP at
 * 50 Hz (no time column: each sample is stamped as it arrives, as a live
 * instrument's are). */
typedef struct {
  GSocketListener *listener;
  guint16 port;
  GString *lines;
  gint stop;
  gint hold;                    /* stands at P0 until cleared (then plays the lines) */
} Player;

/* x and y in mm times scale (1e-3: metres, the csv driver's default unit). */
static void
session_add (GString *out, double dur, const double from[3], const double to[3],
                    double bulge, double scale)
{
  guint n = (guint) lround (dur * 50.0);

  for (guint i = 0; i < n; i++)
    {
      double u = (double) i / n;
      char b[3][G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (out, "%s,%s,%s\n",
                              g_ascii_dtostr (b[0], sizeof b[0],
                                              scale * (from[0] + u * (to[0] - from[0]))),
                              g_ascii_dtostr (b[1], sizeof b[1],
                                              scale * (from[1] + u * (to[1] - from[1])
                                                       + bulge * sin (G_PI * u))),
                              g_ascii_dtostr (b[2], sizeof b[2], from[2] + u * (to[2] - from[2])));
    }
}


static gpointer
player (gpointer data)
{
  Player *p = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GSocketConnection) conn = g_socket_listener_accept (p->listener, NULL, NULL, &error);
  g_auto (GStrv) lines = g_strsplit (p->lines->str, "\n", -1);
  GOutputStream *out;
  gint64 next = g_get_monotonic_time ();

  if (conn == NULL)
    return NULL;
  out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
  /* The csv header; then, connected, the robot stands at P0 until the run
   * begins. */
  if (lines[0] == NULL || !g_output_stream_write_all (out, lines[0], strlen (lines[0]), NULL,
                                                      NULL, NULL) ||
      !g_output_stream_write_all (out, "\n", 1, NULL, NULL, NULL))
    return NULL;
  while (g_atomic_int_get (&p->hold) && !g_atomic_int_get (&p->stop))
    {
      if (!g_output_stream_write_all (out, "0,0,0\n", 6, NULL, NULL, NULL))
        return NULL;
      g_usleep (20000);
    }
  next = g_get_monotonic_time ();
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0' && !g_atomic_int_get (&p->stop); i++)
    {
      g_autofree char *line = g_strconcat (lines[i], "\n", NULL);

      if (!g_output_stream_write_all (out, line, strlen (line), NULL, NULL, NULL))
        break;
      /* Paced by the schedule, not by the sleeps (a loaded machine). */
      next += i == 1 ? 0 : 20 * G_TIME_SPAN_MILLISECOND;
      if (next > g_get_monotonic_time ())
        g_usleep ((gulong) (next - g_get_monotonic_time ()));
    }
  /* Holds still at P0 until told to stop: the instrument stays connected. */
  while (!g_atomic_int_get (&p->stop))
    {
      if (!g_output_stream_write_all (out, "0,0,0\n", 6, NULL, NULL, NULL))
        break;
      g_usleep (20000);
    }
  return NULL;
}

static gboolean
prompt_or_over (gpointer data)
{
  NbTrialsPage *page = run_page ();

  fx.max_track = MAX (fx.max_track, nb_trials_page_get_track_points (page));
  return nb_trials_page_get_prompt (page) != NULL || run_over (data);
}

static NbInstrumentPage *
instrument_page (void)
{
  return NB_INSTRUMENT_PAGE (lookup ("instrument-page"));
}

static gboolean
instrument_connected (gpointer data)
{
  return nb_instrument_page_get_state (instrument_page ()) == NB_LINK_CONNECTED &&
         nb_instrument_page_get_samples (instrument_page ()) >= 10;
}

/* A button's activation (Enter, a mnemonic) clicks it after a moment. */
static gboolean
instrument_disconnected (gpointer data)
{
  return nb_instrument_page_get_state (instrument_page ()) == NB_LINK_DISCONNECTED;
}

/* The operator's run as a person does it: the instrument connected on the
 * Instrument page (csv over TCP, typed as its URL), the robot chosen on the
 * Run page; the window hands the Instrument page's device to the run.
 * While the run measures, the Instrument page leaves the samples to it
 * (says so, does not count them, refuses to disconnect); afterwards it
 * shows the instrument live again. */
static void
test_operator_prompts (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (GArray) events = NULL;
  const double p0[3] = { 0, 0, 0 };
  guint finished = fx.finished + 1;
  Player p = { 0 };
  g_autofree char *url = NULL;
  GThread *thread;
  guint64 seen_when_lent = 0;
  gboolean lent_seen = FALSE;

  p.lines = g_string_new ("x,y,yaw\n");
  session_add (p.lines, 0.8, p0, p0, 0, 1e-3);
  for (guint k = 0; k < G_N_ELEMENTS (session_rests); k++)
    {
      session_add (p.lines, 0.8, p0, session_rests[k], 4.0, 1e-3);
      session_add (p.lines, 0.8, session_rests[k], session_rests[k], 0, 1e-3);
      session_add (p.lines, 0.8, session_rests[k], p0, 0, 1e-3);
      session_add (p.lines, 0.8, p0, p0, 0, 1e-3);
    }
  p.listener = g_socket_listener_new ();
  p.port = g_socket_listener_add_any_inet_port (p.listener, NULL, &error);
  g_assert_no_error (error);
  p.hold = 1;
  url = g_strdup_printf ("tcp://127.0.0.1:%u", p.port);
  thread = g_thread_new ("player", player, &p);

  /* Without an instrument a real robot is refused, saying why. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-robot")), 1);
  select_clause (5);
  gtk_editable_set_text (GTK_EDITABLE (lookup ("run-config")), "session");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (lookup ("run-trials")), 3);
  activate ("run");
  g_assert_false (nb_trials_page_is_running (run_page ()));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (lookup ("run-status"))), ==,
                   _("A real robot is measured by a real instrument: connect one on the "
                     "Instrument page first."));

  /* The Instrument page: a network instrument, its protocol, its URL, Connect. */
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), "instrument");
  adw_combo_row_set_selected (ADW_COMBO_ROW (lookup ("instrument-source")), NB_SOURCE_URL);
  g_assert_true (nb_instrument_page_select_driver (instrument_page (), "csv"));
  gtk_editable_set_text (GTK_EDITABLE (lookup ("instrument-url")), url);
  gtk_widget_activate (lookup ("instrument-connect"));
  iterate_until (instrument_connected, NULL);
  g_assert_true (gtk_widget_get_sensitive (lookup ("instrument-disconnect")));

  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), "trials");
  activate ("run");
  while (!run_over (GUINT_TO_POINTER (finished)))
    {
      AdwMessageDialog *prompt;

      iterate_until (prompt_or_over, GUINT_TO_POINTER (finished));
      if (nb_instrument_page_get_lent (instrument_page ()))
        {
          /* The run's samples are the run's alone: none counted here. */
          if (!lent_seen)
            seen_when_lent = nb_instrument_page_get_samples (instrument_page ());
          lent_seen = TRUE;
          g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (lookup ("instrument-state"))), ==,
                           _("Measuring the run"));
          g_assert_false (gtk_widget_get_sensitive (lookup ("instrument-disconnect")));
          g_assert_cmpuint (nb_instrument_page_get_samples (instrument_page ()), ==,
                            seen_when_lent);
        }
      if ((prompt = nb_trials_page_get_prompt (run_page ())) == NULL)
        continue;
      /* The runner's question in the window's language (po/ru.po's
       * msgstr); the operator brings the robot. */
      g_assert_nonnull (strstr (adw_message_dialog_get_body (prompt),
                                g_str_equal (nb_gui_ui_language (), "ru")
                                ? "доставьте робота в P0" : "bring the robot to P0"));
      g_assert_true (adw_message_dialog_has_response (prompt, "stop"));
      adw_message_dialog_response (prompt, "yes");
      fx.prompts_answered++;
      /* The robot, at P0, starts its session once the operator has said so
       * (the run's start may take seconds on a loaded machine). */
      g_atomic_int_set (&p.hold, 0);
    }
  g_test_message ("status: %s", gtk_label_get_text (GTK_LABEL (lookup ("run-status"))));
  g_assert_true (lent_seen);
  g_assert_false (nb_instrument_page_get_lent (instrument_page ()));
  g_assert_cmpuint (fx.prompts_answered, ==, 3);

  trials = stored_trials (5, "session");
  g_assert_cmpuint (trials->len, ==, 3);
  for (guint k = 0; k < trials->len; k++)
    {
      const NbCampaignTrial *tr = &g_array_index (trials, NbCampaignTrial, k);

      g_assert_cmpint (tr->outcome, ==, NB_TRIAL_OK);
      nb_assert_abs (tr->attained.x_mm, session_rests[k][0], 0.05, "attained x = the rest");
      nb_assert_abs (tr->attained.y_mm, session_rests[k][1], 0.05, "attained y = the rest");
    }
  /* Every answer is in the log, with who answered; the question as the
   * runner asks it in English (the log is a record), whatever the window
   * showed. */
  events = stored_events ();
  g_assert_cmpuint (count_events (events, "operator prompt", "yes"), ==, 3);
  for (guint i = 0; i < events->len; i++)
    {
      const NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);

      if (g_strcmp0 (e->what, "operator prompt") == 0 && g_str_has_suffix (e->subject ? e->subject : "", "at P0"))
        g_assert_nonnull (strstr (e->subject, "bring the robot to P0"));
    }
  g_assert_cmpuint (fx.max_track, >, 0);

  /* Given back: the Instrument page drains the samples again (the player
   * holds still at P0), and disconnects. */
  {
    guint64 after = nb_instrument_page_get_samples (instrument_page ());
    gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

    while (nb_instrument_page_get_samples (instrument_page ()) < after + 5)
      {
        g_assert_cmpint (g_get_monotonic_time (), <, deadline);
        g_main_context_iteration (NULL, TRUE);
      }
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (lookup ("instrument-state"))), ==,
                     _("Connected"));
  }
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), "instrument");
  gtk_widget_activate (lookup ("instrument-disconnect"));
  iterate_until (instrument_disconnected, NULL);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), "trials");
  g_atomic_int_set (&p.stop, 1);
  g_thread_join (thread);
  g_socket_listener_close (p.listener);
  g_object_unref (p.listener);
  g_string_free (p.lines, TRUE);
  /* Disconnected: a real robot is refused again. */
  activate ("run");
  g_assert_false (nb_trials_page_is_running (run_page ()));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (lookup ("run-status"))), ==,
                   _("A real robot is measured by a real instrument: connect one on the "
                     "Instrument page first."));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-robot")), 0);
}

static gboolean
prompt_shown (gpointer data)
{
  return nb_trials_page_get_prompt (run_page ()) != NULL || run_over (data);
}

/* Stop (Esc) while the operator is asked: the dialog goes, no answer is
 * recorded, the run ends stopped. */
static void
test_stop_at_prompt (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbDevice) device = NULL;
  g_autoptr (GArray) before = stored_events ();
  g_autoptr (GArray) after = NULL;
  g_autoptr (GArray) trials = NULL;
  guint finished = fx.finished + 1;
  Player p = { 0 };
  g_autofree char *url = NULL;
  GThread *thread;

  /* An instrument that sees the robot stand at P0. */
  p.lines = g_string_new ("x,y,yaw\n");
  p.listener = g_socket_listener_new ();
  p.port = g_socket_listener_add_any_inet_port (p.listener, NULL, &error);
  g_assert_no_error (error);
  url = g_strdup_printf ("tcp://127.0.0.1:%u", p.port);
  thread = g_thread_new ("player", player, &p);
  device = nb_device_new ("csv", &error);
  g_assert_no_error (error);
  g_assert_true (nb_device_configure (device, "url", url, &error));
  g_assert_true (nb_device_configure (device, "unit", "mm", &error));
  g_assert_true (nb_device_start (device, &error));

  nb_trials_page_set_device (run_page (), device);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-robot")), 1);
  select_clause (5);
  gtk_editable_set_text (GTK_EDITABLE (lookup ("run-config")), "stopped-at-prompt");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (lookup ("run-trials")), 2);
  activate ("run");
  iterate_until (prompt_shown, GUINT_TO_POINTER (finished));
  g_assert_nonnull (nb_trials_page_get_prompt (run_page ()));
  activate ("stop");
  g_assert_null (nb_trials_page_get_prompt (run_page ()));
  iterate_until (run_over, GUINT_TO_POINTER (finished));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (lookup ("run-status"))),
                                   _("Stopped.")));
  nb_trials_page_set_device (run_page (), NULL);
  g_atomic_int_set (&p.stop, 1);
  g_thread_join (thread);
  nb_device_stop (device);
  g_socket_listener_close (p.listener);
  g_object_unref (p.listener);
  g_string_free (p.lines, TRUE);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-robot")), 0);

  iterate_until (idle_window, NULL);
  after = stored_events ();
  g_assert_cmpuint (count_events (after, "operator prompt", NULL), ==,
                    count_events (before, "operator prompt", NULL));
  trials = stored_trials (5, "stopped-at-prompt");
  g_assert_cmpuint (trials->len, ==, 0);
}

/* ----------------------------------------------------- trial, plan -- */

static void
test_one_trial (void)
{
  g_autoptr (GArray) before = stored_trials (5, "one");
  g_autoptr (GArray) after = NULL;
  guint finished = fx.finished + 1;

  select_clause (5);
  gtk_editable_set_text (GTK_EDITABLE (lookup ("run-config")), "one");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (lookup ("run-trials")), 30);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-scope")), 0);
  nb_trials_page_set_pace (run_page (), 100);
  activate ("run");
  iterate_until (run_over, GUINT_TO_POINTER (finished));
  after = stored_trials (5, "one");
  g_assert_cmpuint (after->len, ==, before->len + 1);
  g_assert_cmpint (g_array_index (after, NbCampaignTrial, after->len - 1).outcome, ==,
                   NB_TRIAL_OK);
  g_assert_cmpuint (nb_trials_page_get_track_points (run_page ()), >, 0);
}

static void
test_plan_stop (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) pending = NULL;
  g_autoptr (GArray) trials = NULL;
  const NbPlanEntry *first;
  guint finished = fx.finished + 1;

  /* The Trials page has read what the last run recorded. */
  iterate_until (idle_window, NULL);
  /* The first configuration of what is left, as campaign run --all takes it. */
  {
    g_autoptr (NbCampaign) c = nb_campaign_open (fx.gui.db, 0, &error);

    g_assert_no_error (error);
    pending = nb_plan_pending (c, 0, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  }
  g_assert_cmpuint (pending->len, >, 1);
  first = &g_array_index (pending, NbPlanEntry, 0);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-scope")), 2);
  /* The plan says the clause and the options: the page's are set aside. */
  g_assert_false (gtk_widget_get_sensitive (lookup ("run-clause")));
  nb_trials_page_set_pace (run_page (), 20);
  fx.started = 0;
  /* Stopped when the window hears that trial 3 started: the runner drives
   * it only after (hold_until_heard), so the stop lands in trial 3 however
   * late the main loop turns (under ASan it used to land in trial 5 to 8). */
  fx.stop_at = 3;
  activate ("run");
  iterate_until (run_over, GUINT_TO_POINTER (finished));
  fx.stop_at = 0;
  trials = stored_trials (first->clause, first->config);
  g_assert_cmpuint (trials->len, ==, 3);
  g_assert_cmpint (g_array_index (trials, NbCampaignTrial, 0).outcome, ==, NB_TRIAL_OK);
  g_assert_cmpint (g_array_index (trials, NbCampaignTrial, 1).outcome, ==, NB_TRIAL_OK);
  g_assert_cmpint (g_array_index (trials, NbCampaignTrial, 2).outcome, ==, NB_TRIAL_ABORTED);
  /* Stopped: the plan's next configurations were not begun. */
  {
    g_autoptr (GArray) second = stored_trials (g_array_index (pending, NbPlanEntry, 1).clause,
                                               g_array_index (pending, NbPlanEntry, 1).config);

    g_assert_cmpuint (second->len, ==, 0);
  }
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (lookup ("run-status"))),
                            _("Stopped.")));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("run-scope")), 1);
}

/* ------------------------------------------------ the Trials page -- */

static gboolean
count_reached (gpointer data)
{
  return *(guint *) data >= GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (fx.gui.window),
                                                                 "nb-test-want"));
}

/* Turns the main loop until *counter passes its value now. */
static void
wait_next (guint *counter)
{
  g_object_set_data (G_OBJECT (fx.gui.window), "nb-test-want", GUINT_TO_POINTER (*counter + 1));
  iterate_until (count_reached, counter);
}

static void
on_loaded (NbResultsPage *page, gpointer user_data)
{
  fx.loaded++;
}

static void
on_edited (NbResultsPage *page, gboolean ok, gpointer user_data)
{
  fx.edited++;
  fx.edited_ok += ok;
}

/* key: the value's words on the page ("Attained x, mm"). */
static void
edit (const char *key, const char *value, const char *why)
{
  GtkDropDown *keys = GTK_DROP_DOWN (lookup ("edit-key"));
  GListModel *model = gtk_drop_down_get_model (keys);
  guint k;

  for (k = 0; k < g_list_model_get_n_items (model); k++)
    if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (model), k), _(key)))
      break;
  g_assert_cmpuint (k, <, g_list_model_get_n_items (model));
  gtk_drop_down_set_selected (keys, k);
  gtk_editable_set_text (GTK_EDITABLE (lookup ("edit-value")), value);
  gtk_editable_set_text (GTK_EDITABLE (lookup ("edit-reason")), why);
  g_assert_true (gtk_widget_get_sensitive (lookup ("edit-apply")));
  g_signal_emit_by_name (lookup ("edit-apply"), "clicked");
  wait_next (&fx.edited);
}

static void
test_edit_audit (void)
{
  NbResultsPage *page = NB_RESULTS_PAGE (lookup ("results-page"));
  g_autoptr (GArray) trials = stored_trials (5, "session");
  g_autoptr (GArray) after = NULL;
  g_autoptr (GArray) events = NULL;
  const NbCampaignTrial *first;
  GtkListBoxRow *row;
  const char *text;
  guint edited_ok;

  g_assert_cmpuint (trials->len, ==, 3);
  first = &g_array_index (trials, NbCampaignTrial, 0);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), "results");
  nb_results_page_reload (page);
  wait_next (&fx.loaded);
  /* Clause 5 (the filter's second item), then its configuration "session". */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("results-clause")), 1);
  {
    GListModel *configs = gtk_drop_down_get_model (GTK_DROP_DOWN (lookup ("results-config")));
    guint k;

    for (k = 1; k < g_list_model_get_n_items (configs); k++)
      if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (configs), k), "session"))
        break;
    g_assert_cmpuint (k, <, g_list_model_get_n_items (configs));
    gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("results-config")), k);
  }
  g_assert_cmpuint (nb_results_page_get_n_shown (page), ==, 3);
  g_assert_true (nb_results_page_select_trial (page, first->id));
  g_assert_cmpuint (nb_results_page_get_n_audit (page), ==, 0);

  /* No reason: the store refuses, and says why; nothing changes. */
  edited_ok = fx.edited_ok;
  edit ("Attained x, mm", "2497.5", "");
  g_assert_cmpuint (fx.edited_ok, ==, edited_ok);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (lookup ("edit-status"))),
                            "needs a reason"));
  /* With a reason: stored, and the audit trail shows old, new and why. */
  edit ("Attained x, mm", "2497.5", "prism offset re-surveyed");
  g_assert_cmpuint (fx.edited_ok, ==, edited_ok + 1);
  wait_next (&fx.loaded);
  after = stored_trials (5, "session");
  nb_assert_abs (g_array_index (after, NbCampaignTrial, 0).attained.x_mm, 2497.5, 1e-9,
                 "the corrected value is stored");
  g_assert_cmpuint (nb_results_page_get_n_audit (page), ==, 1);
  row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (lookup ("audit-trail")), 0);
  text = gtk_label_get_text (GTK_LABEL (gtk_list_box_row_get_child (row)));
  g_assert_nonnull (strstr (text, _("Attained x, mm")));
  g_assert_nonnull (strstr (text, "2497.5"));
  g_assert_nonnull (strstr (text, "prism offset re-surveyed"));
  /* The event log is the store's, every event. */
  events = stored_events ();
  g_assert_cmpuint (nb_results_page_get_n_events (page), ==, events->len);
  g_assert_cmpuint (count_events (events, "trial value edited: attained_x_mm", "2497.5"), ==, 1);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), "trials");
}

/* ------------------------------------------------ the Motion page -- */

/* A message's words before its first figure, in the window's language. */
static char *
words_of (const char *format)
{
  const char *pc = strchr (format, '%');

  return pc != NULL ? g_strndup (format, pc - format) : g_strdup (format);
}

/* text is n sentences (". " between them, a full stop at the end), each
 * beginning with a capital letter. */
static void
assert_sentences (const char *text, guint n)
{
  g_auto (GStrv) parts = g_strsplit (text, ". ", -1);

  g_assert_true (g_str_has_suffix (text, "."));
  g_assert_cmpuint (g_strv_length (parts), ==, n);
  for (guint i = 0; parts[i] != NULL; i++)
    if (!g_unichar_isupper (g_utf8_get_char (parts[i])))
      g_error ("sentence %u of '%s' begins in lower case", i + 1, text);
}

static void
on_log_line (NbMotionPage *page, const char *line, gpointer user_data)
{
  fx.log_lines++;
}

static void
on_sequence_finished (NbMotionPage *page, gboolean ok, gpointer user_data)
{
  fx.sequences++;
  fx.sequences_ok += ok;
}

static void
test_motion_sequence (void)
{
  NbMotionPage *page = NB_MOTION_PAGE (lookup ("motion-page"));
  g_autofree char *log = NULL;
  g_autofree char *six = g_strdup_printf (_("goals sent: %u, motion stops: %u"), 6, 0);
  g_autofree char *stopped = words_of (_("Stopped: %s. %s."));
  /* The runner's lines in the window's language (nb-record-words.h). */
  g_autofree char *last = g_strdup_printf (_(NB_MSG_SEQ_JOINTS), 1, 1, 6, 6, "home");
  g_autofree char *tenth = g_strdup_printf (_(NB_MSG_SEQ_JOINTS), 10, 10, 1, 6, "home");
  gboolean ru = g_str_equal (nb_gui_ui_language (), "ru");
  guint lines;

  /* One iteration of pick-and-place (6 points) on the virtual clock. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (lookup ("motion-iterations")), 1);
  gtk_switch_set_active (GTK_SWITCH (lookup ("motion-real-time")), FALSE);
  g_signal_emit_by_name (lookup ("motion-start"), "clicked");
  wait_next (&fx.sequences);
  g_assert_cmpuint (fx.sequences_ok, ==, 1);
  log = nb_motion_page_get_log (page);
  g_assert_nonnull (strstr (log, last));
  g_assert_nonnull (strstr (log, six));
  assert_sentences (gtk_label_get_text (GTK_LABEL (lookup ("motion-status"))), 1);
  /* gui-run-ru: Russian on screen, not the runner's English (the point's
   * name as the sequence gives it). */
  if (ru)
    {
      g_assert_nonnull (strstr (log, "повтор 1/1, точка 6/6 home: MoveToJoints"));
      g_assert_nonnull (strstr (log, "готово: 1 повтор, точек: 6"));
      g_assert_null (strstr (log, "iteration"));
    }
  else
    g_assert_nonnull (strstr (log, "iteration 1/1 point 6/6 home: MoveToJoints"));
  g_assert_false (nb_motion_page_is_running (page));

  /* Ten iterations at the arm's own speed (about 23 s), stopped (Esc:
   * win.stop) after the first point: the stop comes before the next point,
   * with a motion stop. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (lookup ("motion-iterations")), 10);
  gtk_switch_set_active (GTK_SWITCH (lookup ("motion-real-time")), TRUE);
  lines = fx.log_lines;
  g_signal_emit_by_name (lookup ("motion-start"), "clicked");
  g_assert_true (nb_motion_page_is_running (page));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (fx.gui.window), "stop"));
  wait_next (&fx.log_lines);
  g_assert_cmpuint (fx.log_lines, >, lines);
  activate ("stop");
  wait_next (&fx.sequences);
  g_assert_cmpuint (fx.sequences_ok, ==, 1);
  g_clear_pointer (&log, g_free);
  log = nb_motion_page_get_log (page);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (lookup ("motion-status"))),
                                   stopped));
  g_assert_null (strstr (log, tenth));
  /* The runner's error, in the window's language too. */
  {
    const char *status = gtk_label_get_text (GTK_LABEL (lookup ("motion-status")));

    g_assert_nonnull (strstr (status, ru ? "остановлено перед повтором 1, точкой "
                                         : "stopped before iteration 1 point "));
    g_assert_nonnull (strstr (log, ru ? "; запрошен останов движения"
                                      : "; motion stop requested"));
    if (ru)
      g_assert_null (strstr (status, "stopped before"));
    /* Two sentences, the counts the second: each begins with a capital
     * ("Остановлено: … точкой 2. Целей отправлено: 2, …"; the counts
     * began in lower case). */
    assert_sentences (status, 2);
  }
  /* The stop is a motion stop. */
  {
    g_autofree char *fmt = g_strdup (_("goals sent: %u, motion stops: %u"));
    char *second = strrchr (fmt, '%');
    g_autofree char *one = NULL;

    second[0] = '\0';
    one = g_strdup_printf ("%s1", strrchr (fmt, ',') + 2);
    g_assert_nonnull (strstr (log, one));
  }
}

static void
test_skill_plan (void)
{
  NbMotionPage *page = NB_MOTION_PAGE (lookup ("motion-page"));
  g_autofree char *plan = g_test_build_filename (G_TEST_DIST, "data", "plans", "seed-full.json",
                                                 NULL);
  g_autofree char *out = NULL;
  g_autofree char *first = g_strdup_printf ("1. detect распределительная коробка №1: %s",
                                            _("success"));
  g_autofree char *outcome = words_of (_("Outcome: %s, %.3f s on the simulated cobot."));
  g_autofree char *errors = g_strdup_printf (_("%s: the %s plan has errors: not run."),
                                             "seed-full.json", "branch");

  nb_motion_page_set_plan_file (page, plan);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("plan-mode")), 0);
  g_assert_true (nb_motion_page_check_plan (page));
  g_assert_true (nb_motion_page_run_plan (page));
  out = nb_motion_page_get_plan_output (page);
  /* The trace as plan run prints it: the first action, its simulated steps. */
  g_assert_nonnull (strstr (out, first));
  {
    /* In the locale's decimals. */
    g_autofree char *step = g_strdup_printf ("%.3f s  motion распределительная коробка №1 "
                                             "(%.3f s)", 0.0, 1.5);

    g_assert_nonnull (strstr (out, step));
  }
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (lookup ("plan-status"))),
                                   outcome));
  /* The same plan read as a branch plan has errors: not run. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("plan-mode")), 2);
  g_assert_false (nb_motion_page_run_plan (page));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (lookup ("plan-status"))), ==, errors);
}

/* Is the pixel at x, y of an ARGB32 download dark (light style: text)? */
static gboolean
dark (const guchar *data, gsize stride, int x, int y)
{
  const guchar *p = data + (gsize) y * stride + (gsize) x * 4;

  return p[3] > 128 && 0.114 * p[0] + 0.587 * p[1] + 0.299 * p[2] < 128;
}

/* The motion log's lines are drawn whole, at 1280×800 and 1024×600: the
 * "[" the log's first two lines begin with (the virtual clock) has its
 * top and bottom bars, 3 px wide (at 1024×600 the screenshots showed
 * each line's top pixel row cut off: "[" without its top bar, i without
 * its dot).  The window as it is on screen, pixel for pixel. */
static void
test_motion_log_pixels (void)
{
  static const int sizes[][2] = { { 1280, 800 }, { 1024, 600 } };
  GtkWidget *window = GTK_WIDGET (fx.gui.window), *log = lookup ("motion-log");
  AdwStyleManager *style = adw_style_manager_get_default ();
  g_autofree char *text = nb_motion_page_get_log (NB_MOTION_PAGE (lookup ("motion-page")));

  g_assert_true (g_str_has_prefix (text, "["));
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_LIGHT);
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), "motion");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr (GdkTexture) texture = NULL;
      g_autofree guchar *data = NULL;
      graphene_rect_t at, self;
      gsize stride;
      int x0, y0, run = 0, first = -1, last = -1, n_runs = 0, width_first = 0;

      gtk_window_set_default_size (GTK_WINDOW (window), sizes[s][0], sizes[s][1]);
      nb_test_gui_settle (300);
      texture = nb_test_gui_render (window);
      g_assert_cmpint (gdk_texture_get_width (texture), ==, sizes[s][0]);
      g_assert_cmpint (gdk_texture_get_height (texture), ==, sizes[s][1]);
      stride = (gsize) gdk_texture_get_width (texture) * 4;
      data = g_malloc (stride * (gsize) gdk_texture_get_height (texture));
      gdk_texture_download (texture, data, stride);
      /* The texture's origin is the window's bounds' (its shadow). */
      g_assert_true (gtk_widget_compute_bounds (log, window, &at));
      g_assert_true (gtk_widget_compute_bounds (window, window, &self));
      x0 = (int) (at.origin.x - self.origin.x);
      y0 = (int) (at.origin.y - self.origin.y);
      /* The first character cell of each line: rows with ink, in runs. */
      for (int y = y0; y < y0 + 60 && n_runs < 2; y++)
        {
          int ink = 0;

          for (int x = x0 + 2; x < x0 + 6 + 8; x++)
            ink += dark (data, stride, x, y);
          if (ink > 0 && !run)
            first = y, width_first = ink, run = 1;
          else if (ink == 0 && run)
            {
              int width_last = 0;

              for (int x = x0 + 2; x < x0 + 6 + 8; x++)
                width_last += dark (data, stride, x, last);
              /* "[": a bar at the top, the stem, a bar at the bottom. */
              g_assert_cmpint (width_first, >=, 2);
              g_assert_cmpint (width_last, >=, 2);
              g_assert_cmpint (last - first, >=, 9);
              run = 0, n_runs++;
            }
          if (ink > 0)
            last = y;
        }
      g_assert_cmpint (n_runs, ==, 2);
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

/* ----------------------------------------------------- screenshots -- */

static void
snapshot_page (const char *page, const char *file)
{
  const char *dir = g_getenv ("NAVBENCH_SCREENSHOT_DIR");

  /* "results-log": the Trials page's event log. */
  gboolean log = g_str_equal (page, "results-log");

  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")),
                                         log ? "results" : page);
  if (g_str_has_prefix (page, "results"))
    gtk_stack_set_visible_child_name (GTK_STACK (lookup ("results-views")),
                                      log ? "log" : "trials");
  nb_test_gui_dismiss_toasts (GTK_WIDGET (fx.gui.window));
  nb_test_gui_settle (200);
  nb_test_gui_save_png (GTK_WIDGET (fx.gui.window), dir, file);
}

static void
shoot (const char *page, const char *file, gpointer user_data)
{
  snapshot_page (page, file);
}

/* With NAVBENCH_SCREENSHOT_DIR: the Trials page (its stored trials and
 * its event log) and the Motion page as the tests above left them, light and dark, at 1280×800 and 1024×600, named
 * PAGE-LANG-STYLE-WxH.png (tests/golden/gui/). */
static void
test_screenshots (void)
{
  /* The Run page ("trials") is test-gui's, after its clause 5 run. */
  static const char *const pages[] = { "results", "results-log", "motion", NULL };
  g_autoptr (GArray) session = NULL;

  if (g_getenv ("NAVBENCH_SCREENSHOT_DIR") == NULL)
    {
      g_test_skip ("NAVBENCH_SCREENSHOT_DIR is not set");
      return;
    }
  /* The Trials page shows clause 5's trials, the first selected. */
  session = stored_trials (5, "session");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("results-clause")), 1);
  nb_results_page_select_trial (NB_RESULTS_PAGE (lookup ("results-page")),
                                g_array_index (session, NbCampaignTrial, 0).id);
  nb_test_gui_screenshots (GTK_WINDOW (fx.gui.window), pages, shoot, NULL);
}

/* Shows "PAGE" or "results:VIEW" (the Trials page's stored trials, log or
 * results). */
static void
show_for_check (const char *page, gpointer user_data)
{
  g_auto (GStrv) parts = g_strsplit (page, ":", 2);

  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (lookup ("pages")), parts[0]);
  if (parts[1] != NULL)
    gtk_stack_set_visible_child_name (GTK_STACK (lookup ("results-views")), parts[1]);
  nb_test_gui_settle (200);
}

/* At 1280×800 and 1024×600 no label of the Trials page (clause 5's
 * trials, the first selected; the event log; the results) or the Motion
 * page is cut short: at 1024×600 the stored trials' Recorded column lost
 * "0.800 s; 65 samples" to an ellipsis (the Russian one from the duration
 * on).  The drop-downs' buttons are left out (nb_test_gui_ellipsized). */
static void
test_nothing_ellipsized (void)
{
  static const char *const pages[] = { "results:trials", "results:log", "results:results",
                                       "motion", NULL };
  g_autoptr (GArray) session = stored_trials (5, "session");

  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("results-clause")), 1);
  nb_results_page_select_trial (NB_RESULTS_PAGE (lookup ("results-page")),
                                g_array_index (session, NbCampaignTrial, 0).id);
  nb_test_gui_assert_nothing_ellipsized (GTK_WINDOW (fx.gui.window), pages, show_for_check,
                                         NULL);
  show_for_check ("results:trials", NULL);
  nb_test_gui_set_size (GTK_WINDOW (fx.gui.window), 1280, 800);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;

  nb_test_gui_init (&fx.gui, &argc, &argv, "run.nbc", NULL);
  {
    g_autoptr (NbCampaign) c = nb_campaign_create (fx.gui.db, "run test", &error);

    g_assert_no_error (error);
    g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  }
  set_field ("robot.width_mm", "400");
  nb_test_gui_new_window (&fx.gui);
  g_signal_connect (lookup ("trials-page"), "run-finished", G_CALLBACK (on_finished), NULL);
  g_signal_connect (lookup ("trials-page"), "trial-started", G_CALLBACK (on_trial_started), NULL);
  g_signal_connect (lookup ("results-page"), "loaded", G_CALLBACK (on_loaded), NULL);
  g_signal_connect (lookup ("results-page"), "edited", G_CALLBACK (on_edited), NULL);
  g_signal_connect (lookup ("motion-page"), "log-line", G_CALLBACK (on_log_line), NULL);
  g_signal_connect (lookup ("motion-page"), "sequence-finished",
                    G_CALLBACK (on_sequence_finished), NULL);
  nb_test_gui_open (&fx.gui);

  g_test_add_func ("/gui-run/operator-prompts", test_operator_prompts);
  g_test_add_func ("/gui-run/stop-at-prompt", test_stop_at_prompt);
  g_test_add_func ("/gui-run/one-trial", test_one_trial);
  g_test_add_func ("/gui-run/plan-stop", test_plan_stop);
  g_test_add_func ("/gui-run/edit-audit", test_edit_audit);
  g_test_add_func ("/gui-run/motion-sequence", test_motion_sequence);
  g_test_add_func ("/gui-run/skill-plan", test_skill_plan);
  g_test_add_func ("/gui-run/motion-log-pixels", test_motion_log_pixels);
  g_test_add_func ("/gui-run/nothing-ellipsized", test_nothing_ellipsized);
  g_test_add_func ("/gui-run/screenshots", test_screenshots);
  return nb_test_gui_finish (&fx.gui, g_test_run ());
}
