/* test-gui-iso9283 — ISO 9283 from the window on a motion stack's URL, and
 * measured by a live instrument connected on the Instrument page, under Xvfb
 *
 * `navbench-cli serve --time-scale 0` is the arm.  /http: pose-rated-100
 * run from the Overview's button on the URL (the simulated tracker on the
 * joints the arm reports) stores the 30 cycles `campaign run --standard
 * iso9283 --all --only pose-rated-100 --robot URL` stores in a copy of the
 * file on a fresh server of its own (the served arm's noise is drawn from
 * the server's seed, the tracker's from the run's: every command and
 * measured value equal).  /instrument: the test is the arm's tracker — a
 * player thread reads the served joints (GET /robot/state) at 200 Hz, puts
 * them through the true arm's geometry under the rated load
 * (nb_iso9283_sim_errors) and sends the TCP as NatNet 4.0 frames of one
 * rigid body over UDP loopback; the Instrument page connects the natnet
 * driver to it (setting version=4.0), and distance-rated-100 run from the
 * window measures with it (the device lent to the run: the page's state
 * "Measuring the run"), stopped with the window's Stop after two cycles.
 * Each stored attained pose is one the player sent (as the driver decodes
 * it, 1e-9), and equal (1e-6) to the same cycle of the CLI's run with the
 * same instrument (`--instrument natnet --url … --set version=4.0`) on a
 * fresh server and player: the same goals, the same served rests; the run
 * records the measurement as "natnet udp://…".
 */
#include "nb-test-gui.h"
#include "nb-test-campaign.h"
#include "nb-test-cli.h"
#include "nb-test-tracker.h"
#include "nb-test.h"

#include "nb-arm-file.h"
#include "nb-campaign-iso9283.h"
#include "nb-error.h"
#include "nb-gui-paths.h"
#include "nb-http-robot.h"
#include "nb-instrument-page.h"
#include "nb-iso9283-run.h"
#include "nb-overview-page.h"
#include "nb-record-words.h"
#include "nb-traj.h"
#include "nb-window.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

static NbTestGuiApp gui;

static GtkWidget *
lookup (const char *name)
{
  return nb_test_gui_lookup (gui.window, name);
}

static NbOverviewPage *
overview (void)
{
  return NB_OVERVIEW_PAGE (lookup ("overview-page"));
}

static NbInstrumentPage *
instrument (void)
{
  return NB_INSTRUMENT_PAGE (lookup ("instrument-page"));
}

static gboolean
idle_window (gpointer data)
{
  return nb_test_gui_idle (gui.window);
}

static void
show_page (const char *page)
{
  nb_test_gui_show_page (gui.window, page);
}

static gboolean
ran_9283 (gpointer data)
{
  return nb_overview_page_get_runs (overview ()) > GPOINTER_TO_UINT (data) &&
         nb_window_get_pending (gui.window) == 0;
}

static GtkWidget *
row_of (const char *config)
{
  g_autofree char *name = g_strdup_printf ("plan-iso9283-%s", config);
  GtkWidget *row = nb_test_gui_find (lookup ("overview-list"), name);

  g_assert_nonnull (row);
  return row;
}

static const char *
row_status (const char *config)
{
  GtkWidget *status = nb_test_gui_find (row_of (config), "overview-row-status");

  g_assert_nonnull (status);
  return gtk_label_get_text (GTK_LABEL (status));
}

static char *
copy_of (const char *name)
{
  g_autofree char *bytes = NULL;
  char *copy = g_build_filename (gui.dir, name, NULL);
  gsize len;

  g_assert_true (g_file_get_contents (gui.db, &bytes, &len, NULL));
  g_assert_true (g_file_set_contents (copy, bytes, (gssize) len, NULL));
  return copy;
}

/* The CLI's run of config on a fresh server of its own, in db. */
static void
cli_run (const char *db, const char *config)
{
  NbTestServer server = nb_test_serve ("--time-scale", "0", NULL);
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard",
                                          "iso9283", "--db", db, "--all", "--only", config,
                                          "--robot", server.url, NULL);

  nb_test_server_stop (&server);
}

/* The Overview's rig: the arm (0 simulated, 1 the URL) and what measures it. */
static void
choose_rig (guint arm, const char *url, guint measure)
{
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("overview-iso9283-robot")), arm);
  gtk_editable_set_text (GTK_EDITABLE (lookup ("overview-iso9283-url")), url ? url : "");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (lookup ("overview-iso9283-measure")), measure);
  nb_test_gui_settle (50);
}

/* With NAVBENCH_SCREENSHOT_DIR: the window as it is, at width × height,
 * into PREFIX-LANG-light-WxH.png.  With config (an ISO 9283 one), the
 * Overview's row is selected again at that size, so the list scrolls it
 * into view (a resize keeps the list's scroll position: at 1024×600 the
 * row selected at 1280×800 was below the fold); the toasts are closed (the
 * run's "30 cycles run and stored." lay over the list). */
static void
snapshot (const char *prefix, const char *config, int width, int height)
{
  const char *dir = g_getenv ("NAVBENCH_SCREENSHOT_DIR");
  g_autofree char *file = NULL;

  if (dir == NULL)
    return;
  gtk_window_set_default_size (GTK_WINDOW (gui.window), width, height);
  for (gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
       gtk_widget_get_width (GTK_WIDGET (gui.window)) != width && g_get_monotonic_time () < end;)
    g_main_context_iteration (NULL, FALSE);
  /* The header bar's switcher folds or unfolds (a transition). */
  nb_test_gui_settle (600);
  if (config != NULL)
    {
      g_assert_true (nb_overview_page_select_iso9283 (overview (), config));
      nb_test_gui_settle (100);
    }
  nb_test_gui_dismiss_toasts (GTK_WIDGET (gui.window));
  nb_test_gui_settle (100);
  file = g_strdup_printf ("%s-%s-light-%dx%d.png", prefix, nb_gui_ui_language (), width, height);
  nb_test_gui_save_png (GTK_WIDGET (gui.window), dir, file);
  gtk_window_set_default_size (GTK_WINDOW (gui.window), 1280, 800);
  nb_test_gui_settle (300);
}

static void
click_run (void)
{
  GtkWidget *button = lookup ("overview-run-iso9283");

  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

static void
open_iso9283_campaign (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_create (gui.db, "iso9283 over HTTP", &error);
  gboolean made;

  g_assert_no_error (error);
  g_assert_true (nb_campaign_set_field (c, "robot.width_mm", "600", &error));
  g_assert_true (nb_iso9283_plan_ensure (c, NB_ISO9283_DRIFT_H * 3600.0, &made, &error));
  g_assert_no_error (error);
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
}

/* ------------------------------------------------------------ /http -- */

static void
test_http (void)
{
  const char *config = "pose-rated-100";
  g_autofree char *copy = copy_of ("http-cli.nbc");
  NbTestServer server = nb_test_serve ("--time-scale", "0", NULL);
  g_autofree char *url = g_strdup (server.url);
  guint runs;

  show_page ("overview");
  g_assert_true (nb_overview_page_select_iso9283 (overview (), config));
  nb_test_gui_settle (50);
  g_assert_true (gtk_widget_get_visible (lookup ("overview-iso9283-rig")));
  /* The simulated arm: no address asked. */
  choose_rig (0, NULL, 0);
  g_assert_false (gtk_widget_get_visible (lookup ("overview-iso9283-url")));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (lookup ("overview-run-iso9283"))), ==,
                   _("Run on the Simulated _Arm"));

  /* Not an http:// address: refused before anything moves, said. */
  choose_rig (1, "127.0.0.1:1", 0);
  g_assert_true (gtk_widget_get_visible (lookup ("overview-iso9283-url")));
  g_assert_true (gtk_widget_get_visible (lookup ("overview-iso9283-measure")));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (lookup ("overview-run-iso9283"))), ==,
                   _("Run on the Motion Stack’s _Arm"));
  click_run ();
  g_assert_false (nb_overview_page_is_running (overview ()));
  g_assert_cmpstr (nb_window_get_last_message (gui.window), ==,
                   _("The motion stack’s address is http://HOST:PORT."));
  /* The instrument chosen, none connected: refused, said. */
  choose_rig (1, server.url, 1);
  click_run ();
  g_assert_false (nb_overview_page_is_running (overview ()));
  g_assert_cmpstr (nb_window_get_last_message (gui.window), ==,
                   _("No instrument is connected: connect one on the Instrument page first."));

  choose_rig (1, server.url, 0);
  runs = nb_overview_page_get_runs (overview ());
  click_run ();
  g_assert_true (nb_overview_page_is_running (overview ()));
  /* The rig is not changed under a run. */
  g_assert_false (gtk_widget_is_sensitive (lookup ("overview-iso9283-rig")));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (gui.window), "run"));
  nb_test_gui_iterate_until (ran_9283, GUINT_TO_POINTER (runs), 240);
  g_assert_false (nb_overview_page_is_running (overview ()));
  nb_test_server_stop (&server);

  cli_run (copy, config);
  {
    g_autoptr (GPtrArray) mine = nb_test_iso9283_trials (gui.db, config);
    g_autoptr (GPtrArray) cli = nb_test_iso9283_trials (copy, config);
    g_autofree char *done = g_strdup_printf (_("%u/%u cycles — %s"), 30, 30, _("complete"));

    g_assert_cmpuint (mine->len, ==, 30);
    g_assert_cmpuint (cli->len, ==, 30);
    for (guint i = 0; i < mine->len; i++)
      {
        const NbIso9283Trial *a = mine->pdata[i], *b = cli->pdata[i];

        g_assert_cmpuint (a->cycle, ==, i + 1);
        /* Each its own server's URL. */
        g_assert_cmpstr (a->robot, ==, url);
        g_assert_true (g_str_has_prefix (b->robot, "http://127.0.0.1:"));
        g_assert_cmpstr (a->measurement, ==, nb_iso9283_sim_measurement (TRUE));
        g_assert_cmpstr (a->measurement, ==, b->measurement);
        g_assert_cmpstr (a->setup, ==, b->setup);
        nb_test_assert_same_doubles (a->command, b->command, 0, "command", a->cycle);
        nb_test_assert_same_doubles (a->data, b->data, 0, "data", a->cycle);
      }
    nb_test_gui_iterate_until (idle_window, NULL, 60);
    nb_test_gui_settle (150);
    g_assert_cmpstr (row_status (config), ==, done);
  }
}

/* ------------------------------------------------------ /instrument -- */

/* The tracker's latency bound, well inside the run's guard (0.05 s): a
 * frame of a state older than this when it is sent is dropped, as a lost
 * frame (nb-test-tracker.h). */
#define MAX_LATENCY_S 0.025

static void
report (const NbTestTracker *p)
{
  g_test_message ("%u frames played, %u distinct poses, %u dropped (older than %g s)", p->frames,
                  p->played->len, p->late, MAX_LATENCY_S);
}

static gboolean
connected (gpointer data)
{
  return nb_instrument_page_get_state (instrument ()) == NB_LINK_CONNECTED &&
         nb_instrument_page_get_samples (instrument ()) >= 20;
}

/* Two cycles stored as the page counts them (not read from the file: a
 * reader's open would refuse the run's own), or the run has ended (then it
 * says why). */
static gboolean
cycles_stored (gpointer data)
{
  return nb_overview_page_get_run_cycles (overview ()) >= 2 ||
         !nb_overview_page_is_running (overview ());
}

static void
test_instrument (void)
{
  const char *config = "distance-rated-100";
  g_autofree char *robot_dir = nb_gui_data_path ("robots/iiwa7");
  g_autofree char *copy = copy_of ("instrument-cli.nbc");
  g_autofree char *words = NULL;
  g_autoptr (GError) error = NULL;
  NbTestServer server = nb_test_serve ("--time-scale", "0", NULL);
  g_autofree char *url = g_strdup (server.url);
  NbArmModel model;
  NbTestTracker p, q;
  double load_kg;
  guint runs, n;

  g_assert_true (nb_arm_model_load (robot_dir, &model, &error));
  g_assert_no_error (error);
  /* The real arm under the configuration's rated load (the campaign's
   * rated load not given: 7 kg), as the CLI's tracker sees it. */
  {
    g_autoptr (NbCampaign) c = nb_campaign_open (gui.db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);

    g_assert_no_error (error);
    load_kg = nb_iso9283_rated_load_kg (c, NAN);
    g_assert_cmpfloat (load_kg, ==, 7.0);
  }
  nb_test_tracker_start (&p, &model, server.url, load_kg, MAX_LATENCY_S);

  /* The Instrument page: natnet over UDP, the server's version. */
  show_page ("instrument");
  adw_combo_row_set_selected (ADW_COMBO_ROW (lookup ("instrument-source")), NB_SOURCE_URL);
  g_assert_true (nb_instrument_page_select_driver (instrument (), "natnet"));
  gtk_editable_set_text (GTK_EDITABLE (lookup ("instrument-url")), p.udp.url);
  g_assert_true (gtk_widget_get_visible (lookup ("instrument-settings")));
  gtk_editable_set_text (GTK_EDITABLE (lookup ("instrument-settings")), "version=4.0");
  nb_instrument_page_connect (instrument ());
  nb_test_gui_iterate_until (connected, NULL, 60);
  /* The Instrument page of a network instrument: its protocol, URL and
   * driver settings (the simulator's shots, instrument-*, have none). */
  snapshot ("instrument-natnet", NULL, 1280, 800);
  snapshot ("instrument-natnet", NULL, 1024, 600);

  show_page ("overview");
  g_assert_true (nb_overview_page_select_iso9283 (overview (), config));
  choose_rig (1, server.url, 1);
  snapshot ("overview-iso9283-instrument", config, 1280, 800);
  snapshot ("overview-iso9283-instrument", config, 1024, 600);
  runs = nb_overview_page_get_runs (overview ());
  click_run ();
  g_assert_true (nb_overview_page_is_running (overview ()));
  /* The run alone reads the device's events. */
  g_assert_true (nb_instrument_page_get_lent (instrument ()));
  g_assert_false (gtk_widget_is_sensitive (lookup ("instrument-disconnect")));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (lookup ("instrument-state"))), ==,
                   _("Measuring the run"));
  nb_test_gui_iterate_until (cycles_stored, (gpointer) config, 240);
  if (!nb_overview_page_is_running (overview ()))
    g_error ("the run ended before its second cycle: %s", nb_window_get_last_message (gui.window));
  g_action_group_activate_action (G_ACTION_GROUP (gui.window), "stop", NULL);
  nb_test_gui_iterate_until (ran_9283, GUINT_TO_POINTER (runs), 240);
  g_assert_false (nb_instrument_page_get_lent (instrument ()));
  /* Compliance needs a force at the TCP, which a live instrument on the
   * motion stack's arm cannot have: the runner leaves it, and the window
   * says so and why in its own language (gui-iso9283-ru: the runner's
   * reason in Russian, not "left: it needs …"). */
  {
    const char *said;

    g_assert_true (nb_overview_page_select_iso9283 (overview (), "compliance-rated-100"));
    choose_rig (1, server.url, 1);
    runs = nb_overview_page_get_runs (overview ());
    click_run ();
    nb_test_gui_iterate_until (ran_9283, GUINT_TO_POINTER (runs), 240);
    said = nb_window_get_last_message (gui.window);
    g_test_message ("compliance: %s", said);
    g_assert_true (g_str_has_suffix (said, _(NB_MSG_ISO9283_NEEDS_FORCE)));
    g_assert_null (strstr (said, "left: "));
    if (g_strcmp0 (nb_gui_ui_language (), "ru") == 0)
      g_assert_null (strstr (said, "it needs"));
  }
  nb_test_tracker_stop (&p);
  report (&p);
  nb_test_server_stop (&server);

  /* The CLI's run of the same configuration with the same instrument on a
   * fresh server and player: the same goals, the same served rests. */
  {
    NbTestServer fresh = nb_test_serve ("--time-scale", "0", NULL);
    g_autofree char *out = NULL;

    nb_test_tracker_start (&q, &model, fresh.url, load_kg, MAX_LATENCY_S);
    out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--db",
                           copy, "--all", "--only", config, "--robot", fresh.url, "--instrument",
                           "natnet", "--url", q.udp.url, "--set", "version=4.0", NULL);
    nb_test_tracker_stop (&q);
    report (&q);
    nb_test_server_stop (&fresh);
  }
  words = g_strdup_printf ("natnet %s", p.udp.url);
  {
    g_autoptr (GPtrArray) mine = nb_test_iso9283_trials (gui.db, config);
    g_autoptr (GPtrArray) cli = nb_test_iso9283_trials (copy, config);
    g_autofree char *shown = NULL;
    double largest = 0;

    n = mine->len;
    g_assert_cmpuint (n, >=, 2);
    g_assert_cmpuint (n, <, 30);
    g_assert_cmpuint (cli->len, ==, 30);
    for (guint i = 0; i < n; i++)
      {
        const NbIso9283Trial *a = mine->pdata[i], *b = cli->pdata[i];

        g_assert_cmpuint (a->cycle, ==, i + 1);
        g_assert_cmpstr (a->robot, ==, url);
        g_assert_cmpstr (a->measurement, ==, words);
        nb_test_assert_same_doubles (a->command, b->command, 0, "command", a->cycle);
        g_assert_cmpuint (a->data->len, ==, b->data->len);
        g_assert_cmpuint (a->data->len % 6, ==, 0);
        for (guint k = 0; k < a->data->len; k += 6)
          {
            const double *x = &g_array_index (a->data, double, k);

            if (!nb_test_tracker_played (&p, x))
              g_error ("cycle %u pose %u: (%.6f, %.6f, %.6f) was not played", a->cycle, k / 6,
                       x[0], x[1], x[2]);
          }
        /* The same served rests as the CLI's run measured (float32 of
         * NatNet); angles on their differences recast to (−180°, 180°]. */
        for (guint k = 0; k < a->data->len; k++)
          {
            double d = g_array_index (a->data, double, k) - g_array_index (b->data, double, k);

            if (k % 6 >= 3)
              d = remainder (d, 360.0);
            largest = fmax (largest, fabs (d));
            if (!(fabs (d) <= 1e-6))
              g_error ("cycle %u data[%u]: the window stored %.17g, the CLI %.17g (1e-6)",
                       a->cycle, k, g_array_index (a->data, double, k),
                       g_array_index (b->data, double, k));
          }
      }
    g_test_message ("%u cycles measured by natnet: at most %.3g mm/° from the CLI's", n,
                    largest);
    nb_test_gui_iterate_until (idle_window, NULL, 60);
    nb_test_gui_settle (150);
    shown = g_strdup_printf (_("%u/%u cycles — %s"), n, 30, _("in progress"));
    g_assert_cmpstr (row_status (config), ==, shown);
  }
  nb_instrument_page_disconnect (instrument ());
  nb_test_tracker_clear (&p);
  nb_test_tracker_clear (&q);
}

int
main (int argc, char **argv)
{
  nb_test_gui_init (&gui, &argc, &argv, "iso9283.nbc", NULL);
  open_iso9283_campaign ();
  nb_test_gui_new_window (&gui);
  gtk_window_set_default_size (GTK_WINDOW (gui.window), 1280, 800);
  nb_test_gui_open (&gui);

  g_test_add_func ("/gui-iso9283/http", test_http);
  g_test_add_func ("/gui-iso9283/instrument", test_instrument);
  return nb_test_gui_finish (&gui, g_test_run ());
}
