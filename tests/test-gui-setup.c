/* test-gui-setup — the window's Overview and Instrument pages under Xvfb
 *
 * On a campaign whose plan has 12 of clause 5 straight-no-load's 30 trials
 * and clause 9 no-load's five successful passages: the Overview lists the
 * plan in order, each row's state equal to nb_plan_status on the store
 * (through the page's one formatter, and for those two spelt out), "next" is
 * what `campaign plan` names next, each configuration has its scale drawing
 * (pixels drawn), and a configuration taken out of scope through the
 * page's dialog is out of scope in the store, with the reason, and back.
 * The Instrument page connects the simulator (samples arrive at its 50 Hz),
 * an NMEA receiver over TCP loopback (samples arrive; the server closes:
 * "lost" shows at once and is toasted), replays a recording at its pace,
 * lists the serial ports as
 * libserialport does, and fits a registration from a survey CSV: the
 * residuals shown are the library's (nb_registration_fit), and stored, the
 * campaign's fields are nb_registration_store's.  With NAVBENCH_SCREENSHOT_DIR
 * set, both pages are saved there, light and dark, at 1280×800 and 1024×600.
 */
#include "nb-test-gui.h"
#include "nb-campaign-form.h"
#include "nb-unc.h"
#include "nb-unc-campaign.h"
#include "nb-test-campaign.h"
#include "nb-test-cli.h"
#include "nb-campaign-iso9283.h"
#include "nb-iso9283-run.h"
#include "nb-application.h"
#include "nb-campaign-plan.h"
#include "nb-campaign-runner.h"
#include "nb-clause.h"
#include "nb-json-writer.h"
#include "nb-map-file.h"
#include "nb-map-view.h"
#include "nb-protocol-columns.h"
#include "nb-results-page.h"
#include "nb-runner-sim.h"
#include "nb-error.h"
#include "nb-gui-paths.h"
#include "nb-instrument-page.h"
#include "nb-overview-page.h"
#include "nb-record-words.h"
#include "nb-registration.h"
#include "nb-setup.h"
#include "nb-test-nmea-gen.h"
#include "nb-test.h"
#include "nb-transport.h"
#include "nb-window.h"

#include <gdk/x11/gdkx.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

typedef struct {
  NbTestGuiApp gui;
  char *points_csv;
  guint stored;                 /* registration-stored signals */
  gboolean stored_ok;
} Fixture;

static Fixture fx;

static void
iterate_until (gboolean (*done) (gpointer), gpointer data, double seconds)
{
  nb_test_gui_iterate_until (done, data, seconds);
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

static void
settle (void)
{
  nb_test_gui_settle (150);
}

static void
show_page (const char *page)
{
  nb_test_gui_show_page (fx.gui.window, page);
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

/* What a click does (gtk_widget_activate's is 250 ms late). */
static void
click (const char *name)
{
  GtkWidget *button = lookup (name);

  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

static const char *
label (const char *name)
{
  return gtk_label_get_text (GTK_LABEL (lookup (name)));
}

/* The window as it is now, its toasts too (instrument-lost-*). */
static void
snapshot_as_is (const char *file)
{
  const char *dir = g_getenv ("NAVBENCH_SCREENSHOT_DIR");

  if (dir == NULL)
    return;
  settle ();
  nb_test_gui_save_png (GTK_WIDGET (fx.gui.window), dir, file);
}

/* The page: the toasts closed first, as they would lie over it. */
static void
snapshot_to (const char *file)
{
  if (g_getenv ("NAVBENCH_SCREENSHOT_DIR") == NULL)
    return;
  nb_test_gui_dismiss_toasts (GTK_WIDGET (fx.gui.window));
  snapshot_as_is (file);
}

/* Pixels of the widget that differ from its first pixel (its background). */
static guint
drawn_pixels (GtkWidget *w)
{
  int width = gtk_widget_get_width (w), height = gtk_widget_get_height (w);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (w);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree guchar *data = NULL;
  guint n = 0;

  g_assert_cmpint (width, >, 100);
  g_assert_cmpint (height, >, 100);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL)
    return 0;
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (w)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  data = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, data, (gsize) width * 4);
  for (int i = 1; i < width * height; i++)
    n += memcmp (data + 4 * i, data, 4) != 0;
  return n;
}

/* ------------------------------------------------------------ store -- */

static GArray *
stored_plan (NbCampaign **campaign_out)
{
  g_autoptr (GError) error = NULL;
  NbCampaign *c = nb_campaign_open (fx.gui.db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  GArray *plan;

  g_assert_no_error (error);
  plan = nb_campaign_plan_list (c, &error);
  g_assert_no_error (error);
  *campaign_out = c;
  return plan;
}

static void
add_planned (NbCampaign *c, guint clause, const char *name, NbCampaignConfig *config)
{
  g_autoptr (GError) error = NULL;
  NbSetup setup;

  g_assert_true (nb_setup_of_planned (c, clause, name, config, &setup, &error));
  g_assert_no_error (error);
  g_assert_true (nb_campaign_add_config (c, config, &error));
  g_assert_no_error (error);
}

/* 12 attained poses about clause 5's command; five successful passages. */
static void
make_campaign_at (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_create (path, "setup test", &error);
  NbCampaignConfig pose, passage;
  gboolean made;

  g_assert_no_error (error);
  g_assert_true (nb_campaign_set_field (c, "robot.width_mm", "600", &error));
  g_assert_true (nb_campaign_set_field (c, "robot.rated_load_kg", "20", &error));
  g_assert_true (nb_plan_ensure (c, &made, &error));
  g_assert_no_error (error);
  g_assert_true (made);
  add_planned (c, 5, "straight-no-load", &pose);
  for (guint i = 0; i < 12; i++)
    {
      NbCampaignTrial t;

      nb_campaign_trial_init (&t);
      t.outcome = NB_TRIAL_OK;
      t.command = pose.command;
      t.attained = (NbPose) { pose.command.x_mm + 2.0 + 0.5 * sin (i), pose.command.y_mm - 1.0,
                              pose.command.theta_deg + 0.1 };
      t.start_time = i, t.end_time = i + 0.5;
      g_assert_true (nb_campaign_record_trial (c, pose.id, &t, &error));
      g_assert_no_error (error);
      nb_campaign_trial_clear (&t);
    }
  add_planned (c, 9, "no-load", &passage);
  for (guint i = 0; i < 5; i++)
    {
      NbCampaignTrial t;

      nb_campaign_trial_init (&t);
      t.outcome = NB_TRIAL_OK;
      t.number = i + 1;
      t.time_s = 6.0 + 0.1 * i;
      t.start_time = 100 + 10 * i, t.end_time = t.start_time + t.time_s;
      g_assert_true (nb_campaign_record_trial (c, passage.id, &t, &error));
      g_assert_no_error (error);
      nb_campaign_trial_clear (&t);
    }
  nb_campaign_config_clear (&pose);
  nb_campaign_config_clear (&passage);
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
}

/* ---------------------------------------------------------- overview -- */

static gboolean
loaded (gpointer data)
{
  return nb_overview_page_get_loads (overview ()) > GPOINTER_TO_UINT (data) &&
         nb_window_get_pending (fx.gui.window) == 0;
}

static const char *
row_status (GtkWidget *row)
{
  GtkWidget *status = nb_test_gui_find (row, "overview-row-status");

  g_assert_nonnull (status);
  return gtk_label_get_text (GTK_LABEL (status));
}

/* done for iterate_until: the row (data) lies wholly in its list's view. */
static gboolean
row_in_view (gpointer data)
{
  GtkWidget *row = data;
  GtkWidget *scrolled = gtk_widget_get_ancestor (row, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t at;

  g_assert_nonnull (scrolled);
  return gtk_widget_compute_bounds (row, scrolled, &at) && at.size.height > 0 &&
         at.origin.y >= 0 && at.origin.y + at.size.height <= gtk_widget_get_height (scrolled);
}

static void
test_overview (void)
{
  g_autoptr (GArray) plan = NULL;
  GtkListBox *list;
  NbCampaign *c = NULL;
  const NbPlanEntry *next = NULL;
  guint n = 0;

  show_page ("overview");
  iterate_until (loaded, GUINT_TO_POINTER (0), 60);
  list = GTK_LIST_BOX (lookup ("overview-list"));
  plan = stored_plan (&c);
  g_assert_cmpuint (plan->len, >, 20);
  for (guint i = 0; i < plan->len; i++)
    {
      const NbPlanEntry *e = &g_array_index (plan, NbPlanEntry, i);
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (list, (int) i);
      g_autofree char *name = g_strdup_printf ("plan-%u-%s", e->clause, e->config);
      g_autofree char *expected = NULL;
      g_autoptr (GError) error = NULL;
      NbPlanStatus st;

      g_assert_nonnull (row);
      g_assert_cmpstr (gtk_widget_get_name (GTK_WIDGET (row)), ==, name);
      g_assert_true (nb_plan_status (c, e, &st, &error));
      g_assert_no_error (error);
      expected = nb_overview_status_text (e, &st);
      g_assert_cmpstr (row_status (GTK_WIDGET (row)), ==, expected);
      if (next == NULL && nb_plan_runs_next (e, &st))
        next = e;
      /* The rated load of 20 kg: everything in scope. */
      g_assert_true (e->in_scope);
      n++;
    }
  g_assert_null (gtk_list_box_get_row_at_index (list, (int) n));

  /* The two with trials, spelt out as a person reads them. */
  {
    GtkWidget *row = nb_test_gui_find (GTK_WIDGET (list), "plan-5-straight-no-load");
    g_autofree char *twelve = g_strdup_printf (_("%u/%u %s — %s"), 12, 30, _("trials"),
                                               _("in progress"));
    g_autofree char *five = g_strdup_printf (_("%u/%u %s — %s"), 5, 5, _("trials"), _("passed"));

    g_assert_cmpstr (row_status (row), ==, twelve);
    g_assert_cmpstr (row_status (nb_test_gui_find (GTK_WIDGET (list), "plan-9-no-load")), ==, five);
  }
  /* Next is campaign plan's next: the first configuration left to run. */
  g_assert_nonnull (next);
  g_assert_cmpuint (next->clause, ==, 5);
  g_assert_cmpstr (next->config, ==, "straight-no-load");
  {
    g_autofree char *prefix = g_strdup_printf (_("Next: clause %u, %s (%s)."), 5, "@", "@");

    *strchr (prefix, '@') = '\0';
    g_assert_true (g_str_has_prefix (label ("overview-next"), prefix));
  }
  g_assert_true (nb_campaign_close (c, NULL));

  /* Every configuration's set-up is drawn. */
  for (guint i = 0; i < plan->len; i++)
    {
      const NbPlanEntry *e = &g_array_index (plan, NbPlanEntry, i);

      g_autofree char *name = g_strdup_printf ("plan-%u-%s", e->clause, e->config);

      g_assert_true (nb_overview_page_select (overview (), e->clause, e->config));
      settle ();
      g_assert_cmpstr (label ("overview-legend"), !=, "");
      if (drawn_pixels (lookup ("overview-drawing")) < 500)
        g_error ("clause %u %s: the set-up is not drawn", e->clause, e->config);
      /* The selected configuration is in the list's view, not below its
       * fold (the screenshots' clause 7 courses were). */
      nb_test_gui_iterate_until (row_in_view, nb_test_gui_find (GTK_WIDGET (list), name), 10);
    }
  /* And back up to the first. */
  g_assert_true (nb_overview_page_select (overview (), 5, "straight-no-load"));
  nb_test_gui_iterate_until (row_in_view,
                             nb_test_gui_find (GTK_WIDGET (list), "plan-5-straight-no-load"), 10);
}

static void
test_scope (void)
{
  g_autoptr (GArray) plan = NULL;
  NbCampaign *c = NULL;
  AdwMessageDialog *dialog;
  GtkWidget *entry, *row;
  guint loads;
  const char *reason = "the manufacturer declares the rectangular route only unladen";

  show_page ("overview");
  g_assert_true (nb_overview_page_select (overview (), 5, "rectangular-rated-load"));
  click ("overview-scope");
  dialog = nb_overview_page_get_dialog (overview ());
  g_assert_nonnull (dialog);
  /* No reason, no exclusion. */
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "exclude"));
  entry = adw_message_dialog_get_extra_child (dialog);
  gtk_editable_set_text (GTK_EDITABLE (entry), reason);
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "exclude"));
  loads = nb_overview_page_get_loads (overview ());
  adw_message_dialog_response (dialog, "exclude");
  iterate_until (loaded, GUINT_TO_POINTER (loads), 60);

  plan = stored_plan (&c);
  for (guint i = 0; i < plan->len; i++)
    {
      const NbPlanEntry *e = &g_array_index (plan, NbPlanEntry, i);

      if (e->clause == 5 && g_str_equal (e->config, "rectangular-rated-load"))
        {
          NbPlanStatus st;
          g_autofree char *expected = NULL;

          g_assert_false (e->in_scope);
          g_assert_cmpstr (e->reason, ==, reason);
          g_assert_true (nb_plan_status (c, e, &st, NULL));
          g_assert_cmpint (st.state, ==, NB_PLAN_OUT_OF_SCOPE);
          expected = nb_overview_status_text (e, &st);
          row = nb_test_gui_find (lookup ("overview-list"), "plan-5-rectangular-rated-load");
          g_assert_cmpstr (row_status (row), ==, expected);
          g_assert_nonnull (strstr (expected, reason));
        }
    }
  g_assert_true (nb_campaign_close (c, NULL));
  g_clear_pointer (&plan, g_array_unref);

  /* And back: the selection stayed on it. */
  loads = nb_overview_page_get_loads (overview ());
  click ("overview-scope");
  iterate_until (loaded, GUINT_TO_POINTER (loads), 60);
  plan = stored_plan (&c);
  for (guint i = 0; i < plan->len; i++)
    if (g_str_equal (g_array_index (plan, NbPlanEntry, i).config, "rectangular-rated-load"))
      g_assert_true (g_array_index (plan, NbPlanEntry, i).in_scope);
  g_assert_true (nb_campaign_close (c, NULL));
}

/* Closes the toasts the tests before left, so the screenshots show the
 * pages. */
static void
dismiss_toasts (void)
{
  nb_test_gui_dismiss_toasts (GTK_WIDGET (fx.gui.window));
}

/* -------------------------------------------------------- instrument -- */

typedef struct {
  guint64 samples;
  NbLinkState state;
} Want;

static gboolean
reached (gpointer data)
{
  const Want *w = data;

  return nb_instrument_page_get_samples (instrument ()) >= w->samples &&
         nb_instrument_page_get_state (instrument ()) == w->state;
}

static double
shown_number (const char *name)
{
  g_autofree char *text = g_strdup (label (name));
  char *end;
  double v;

  g_strdelimit (text, ",", '.');
  v = g_ascii_strtod (text, &end);
  g_assert_true (end != text);
  return v;
}

static void
test_simulator (void)
{
  Want want = { 120, NB_LINK_CONNECTED };

  show_page ("instrument");
  adw_combo_row_set_selected (ADW_COMBO_ROW (lookup ("instrument-source")), NB_SOURCE_SIMULATOR);
  g_assert_false (gtk_widget_get_visible (lookup ("instrument-url")));
  click ("instrument-connect");
  g_assert_false (gtk_widget_get_sensitive (lookup ("instrument-connect")));
  /* 50 Hz: 120 samples in about 2.4 s. */
  iterate_until (reached, &want, 30);
  settle ();
  g_assert_cmpstr (label ("instrument-state"), ==, _("Connected"));
  /* The simulator's rate, counted from the samples' times. */
  nb_assert_abs (shown_number ("instrument-rate"), 50.0, 5.0, "the rate shown");
  g_assert_cmpstr (label ("instrument-position"), !=, "—");
  g_assert_nonnull (strstr (label ("instrument-quality"), _("simulated")));
  click ("instrument-disconnect");
  g_assert_cmpint (nb_instrument_page_get_state (instrument ()), ==, NB_LINK_DISCONNECTED);
  g_assert_cmpstr (label ("instrument-state"), ==, _("Not connected"));
  g_assert_true (gtk_widget_get_sensitive (lookup ("instrument-connect")));
}

/* What Connect says of the driver settings typed (field "Driver
 * settings"): the toast and the state's tooltip in the window's words. */
static const char *
refused_settings (const char *settings)
{
  const char *said;

  dismiss_toasts ();
  gtk_editable_set_text (GTK_EDITABLE (lookup ("instrument-settings")), settings);
  click ("instrument-connect");
  g_assert_cmpint (nb_instrument_page_get_state (instrument ()), ==, NB_LINK_FAILED);
  said = nb_window_get_last_message (fx.gui.window);
  g_test_message ("'%s': %s", settings, said);
  /* The field by its name, not the CLI's option. */
  g_assert_nonnull (strstr (said, _("Driver settings")));
  g_assert_null (strstr (said, "--set"));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (lookup ("instrument-state")), !=, NULL);
  g_assert_null (strstr (gtk_widget_get_tooltip_text (lookup ("instrument-state")), "--set"));
  return said;
}

/* A driver setting that is not KEY=VALUE, or one the driver does not
 * have, is refused in the window's own words and language, naming the
 * field (it said "--set 'version' is not KEY=VALUE", the CLI's). */
static void
test_driver_settings (void)
{
  const gboolean ru = g_str_equal (nb_gui_ui_language (), "ru");
  const char *said;

  show_page ("instrument");
  adw_combo_row_set_selected (ADW_COMBO_ROW (lookup ("instrument-source")), NB_SOURCE_URL);
  g_assert_true (nb_instrument_page_select_driver (instrument (), "natnet"));
  gtk_editable_set_text (GTK_EDITABLE (lookup ("instrument-url")), "udp://127.0.0.1:1511");
  /* Its title names it so. */
  g_assert_true (g_str_has_prefix (adw_preferences_row_get_title (
                                     ADW_PREFERENCES_ROW (lookup ("instrument-settings"))),
                                   _("Driver settings")));

  for (guint i = 0; i < 2; i++)
    {
      const char *typed = i == 0 ? "version" : "=3.1";
      g_autofree char *words = g_strdup_printf (
        _("“%s” in the field “%s” is not a setting: write KEY=VALUE, as %s"), typed,
        _("Driver settings"), "version=3.1");

      said = refused_settings (i == 0 ? "body=2 version" : "=3.1");
      g_assert_nonnull (strstr (said, words));
      if (ru)
        g_assert_null (strstr (said, "is not"));
    }

  /* A key the driver does not have: its list of keys, in the language. */
  said = refused_settings ("colour=red");
  {
    g_autofree char *words = g_strdup_printf (_(NB_MSG_NO_SETTING_OF), "natnet", "colour",
                                              "version body");

    g_assert_nonnull (strstr (said, words));
  }
  if (ru)
    g_assert_null (strstr (said, "has no setting"));
  /* A value a generic setting refuses (nb_device_configure's latency). */
  said = refused_settings ("latency=soon");
  if (ru)
    g_assert_null (strstr (said, "is not a number"));
  gtk_editable_set_text (GTK_EDITABLE (lookup ("instrument-settings")), "");
  gtk_editable_set_text (GTK_EDITABLE (lookup ("instrument-url")), "");
  adw_combo_row_set_selected (ADW_COMBO_ROW (lookup ("instrument-source")), NB_SOURCE_SIMULATOR);
  dismiss_toasts ();
}

typedef struct {
  GSocketListener *listener;
  gint stop;                    /* atomic: close the connection */
  guint64 sent;
} Server;

/* An NMEA receiver on TCP: epochs at 50 Hz until told to stop, then the
 * connection and the listener close (the receiver is gone). */
static gpointer
serve (gpointer data)
{
  Server *srv = data;
  g_autoptr (GSocketConnection) conn = g_socket_listener_accept (srv->listener, NULL, NULL, NULL);
  GOutputStream *out;
  /* NMEA's numbers have a decimal point, whatever the window's language. */
  locale_t c_numeric = newlocale (LC_NUMERIC_MASK, "C", (locale_t) 0);
  locale_t before = uselocale (c_numeric);

  if (conn == NULL)
    {
      uselocale (before);
      freelocale (c_numeric);
      return NULL;
    }
  out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
  while (!g_atomic_int_get (&srv->stop))
    {
      char buf[256];
      gsize n = nb_test_nmea_epoch (buf, srv->sent++);

      if (!g_output_stream_write_all (out, buf, n, NULL, NULL, NULL))
        break;
      g_usleep (20000);
    }
  g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
  g_socket_listener_close (srv->listener);
  uselocale (before);
  freelocale (c_numeric);
  return NULL;
}

static void
test_tcp_lost (void)
{
  g_autoptr (GError) error = NULL;
  Server srv = { g_socket_listener_new (), 0, 0 };
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any = g_inet_socket_address_new (lo, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autofree char *url = NULL;
  Want connected = { 20, NB_LINK_CONNECTED }, lost = { 20, NB_LINK_LOST };
  GThread *thread;
  gint64 closed_at;
  double lost_after_s;

  g_assert_true (g_socket_listener_add_address (srv.listener, any, G_SOCKET_TYPE_STREAM,
                                                G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error));
  g_assert_no_error (error);
  url = g_strdup_printf ("tcp://127.0.0.1:%u",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  thread = g_thread_new ("nmea-server", serve, &srv);

  show_page ("instrument");
  adw_combo_row_set_selected (ADW_COMBO_ROW (lookup ("instrument-source")), NB_SOURCE_URL);
  g_assert_true (gtk_widget_get_visible (lookup ("instrument-url")));
  g_assert_true (gtk_widget_get_visible (lookup ("instrument-driver")));
  g_assert_true (nb_instrument_page_select_driver (instrument (), "nmea"));
  gtk_editable_set_text (GTK_EDITABLE (lookup ("instrument-url")), url);
  click ("instrument-connect");
  iterate_until (reached, &connected, 30);
  settle ();
  /* RTK fixed, as the GGA says (quality 4). */
  g_assert_nonnull (strstr (label ("instrument-quality"), _("RTK fixed")));
  g_assert_cmpstr (label ("instrument-position"), !=, "—");

  /* The receiver goes: the window says so as the link drops. */
  dismiss_toasts ();
  closed_at = g_get_monotonic_time ();
  g_atomic_int_set (&srv.stop, 1);
  iterate_until (reached, &lost, 30);
  lost_after_s = (g_get_monotonic_time () - closed_at) / 1e6;
  g_test_message ("lost shown %.3f s after the server closed", lost_after_s);
  /* Bounded generously (a loaded machine): the EOF, not the 1 s silence. */
  g_assert_cmpfloat (lost_after_s, <, 10.0);
  g_assert_true (gtk_widget_has_css_class (lookup ("instrument-state"), "error"));
  g_assert_cmpstr (label ("instrument-state"), ==, _("Lost — reconnecting"));
  /* The transport's words, in the window's language: the peer went. */
  {
    g_autofree char *prefix = g_strdup_printf (_("The instrument is lost: %s"), "");
    g_autofree char *went = g_strdup_printf (_(NB_MSG_CLOSED_BY_PEER), url);
    g_autofree char *toast = g_strdup_printf (_("The instrument is lost: %s"), went);

    g_assert_cmpstr (gtk_widget_get_tooltip_text (lookup ("instrument-state")), ==, went);
    g_assert_true (g_str_has_prefix (nb_window_get_last_message (fx.gui.window), prefix));
    g_assert_cmpstr (nb_window_get_last_message (fx.gui.window), ==, toast);
    if (g_str_equal (nb_gui_ui_language (), "ru"))
      g_assert_nonnull (strstr (toast, "соединение закрыто другой стороной"));
  }
  {
    g_autofree char *name = g_strdup_printf ("instrument-lost-%s-light-1280x800.png",
                                             nb_gui_ui_language ());

    snapshot_as_is (name);
  }
  click ("instrument-disconnect");
  g_thread_join (thread);
  g_object_unref (srv.listener);
}

/* A recording as the instrument: replayed at its own pace (a 10 Hz RTK
 * receiver), through the same driver and device. */
static void
test_recording (void)
{
  g_autofree char *capture = g_test_build_filename (G_TEST_DIST, "captures", "nmea",
                                                    "nmea-rtk.log", NULL);
  Want want = { 10, NB_LINK_CONNECTED };

  show_page ("instrument");
  adw_combo_row_set_selected (ADW_COMBO_ROW (lookup ("instrument-source")), NB_SOURCE_URL);
  g_assert_true (nb_instrument_page_select_driver (instrument (), "nmea"));
  gtk_editable_set_text (GTK_EDITABLE (lookup ("instrument-url")), capture);
  click ("instrument-connect");
  iterate_until (reached, &want, 30);
  settle ();
  g_test_message ("recording: %s; %s; %s", label ("instrument-quality"),
                  label ("instrument-position"), label ("instrument-rate"));
  g_assert_cmpstr (label ("instrument-quality"), !=, "—");
  g_assert_cmpstr (label ("instrument-position"), !=, "—");
  /* At the recorded pace: 10 Hz, as the receiver gave it. */
  if (g_strcmp0 (label ("instrument-rate"), "—") != 0)
    nb_assert_abs (shown_number ("instrument-rate"), 10.0, 2.0, "the recording's rate");
  click ("instrument-disconnect");
  g_assert_cmpint (nb_instrument_page_get_state (instrument ()), ==, NB_LINK_DISCONNECTED);
}

static void
test_serial_ports (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) ports = nb_transport_list_serial_ports (&error);
  GListModel *model;

  g_assert_no_error (error);
  g_assert_nonnull (ports);
  adw_combo_row_set_selected (ADW_COMBO_ROW (lookup ("instrument-source")), NB_SOURCE_SERIAL);
  g_assert_true (gtk_widget_get_visible (lookup ("instrument-port")));
  g_assert_true (gtk_widget_get_visible (lookup ("instrument-baud")));
  click ("instrument-refresh");
  model = adw_combo_row_get_model (ADW_COMBO_ROW (lookup ("instrument-port")));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, ports->len);
  for (guint i = 0; i < ports->len; i++)
    {
      const char *shown = gtk_string_list_get_string (GTK_STRING_LIST (model), i);

      g_assert_true (g_str_has_prefix (shown, g_array_index (ports, NbSerialPortInfo, i).name));
    }
  g_test_message ("%u serial port(s) here", ports->len);
  adw_combo_row_set_selected (ADW_COMBO_ROW (lookup ("instrument-source")), NB_SOURCE_SIMULATOR);
}

static gboolean
stored (gpointer data)
{
  return fx.stored > GPOINTER_TO_UINT (data) && nb_window_get_pending (fx.gui.window) == 0;
}

static char *
stored_field (const char *key)
{
  return nb_test_gui_stored_field (fx.gui.db, key);
}

static void
test_registration (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) points = nb_reference_points_read (fx.points_csv, 2, &error);
  g_auto (NbRegistrationFit) fit = { { { 0 } } };
  guint before = fx.stored;
  char rms[32], rms_stored[G_ASCII_DTOSTR_BUF_SIZE];

  g_assert_no_error (error);
  g_assert_true (nb_registration_fit ((const NbReferencePoint *) points->data, points->len, 2,
                                      "survey.csv", &fit, &error));
  g_assert_no_error (error);
  /* The survey's own residuals: up to a few tenths of a millimetre. */
  g_assert_cmpfloat (fit.registration.rms_m, >, 1e-5);
  g_assert_cmpfloat (fit.registration.rms_m, <, 1e-3);

  show_page ("instrument");
  g_assert_false (gtk_widget_get_sensitive (lookup ("registration-fit")));
  g_assert_true (nb_instrument_page_import_points (instrument (), fx.points_csv, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (nb_instrument_page_get_n_points (instrument ()), ==, points->len);
  g_assert_true (gtk_widget_get_sensitive (lookup ("registration-fit")));
  click ("registration-fit");
  for (guint i = 0; i < points->len; i++)
    {
      const NbReferencePoint *p = &g_array_index (points, NbReferencePoint, i);
      g_autofree char *name = g_strdup_printf ("residual-%s", p->name);
      g_autofree char *expected = g_strdup_printf (_("%.3f mm"), fit.residuals_m[i] * 1000.0);

      g_assert_cmpstr (label (name), ==, expected);
    }
  /* Shown in the window's language; stored as nb_registration_store writes it. */
  g_snprintf (rms, sizeof rms, "%.3f", fit.registration.rms_m * 1000.0);
  g_ascii_formatd (rms_stored, sizeof rms_stored, "%.3f", fit.registration.rms_m * 1000.0);
  g_assert_nonnull (strstr (label ("registration-result"), rms));

  g_assert_true (gtk_widget_get_sensitive (lookup ("registration-store")));
  click ("registration-store");
  iterate_until (stored, GUINT_TO_POINTER (before), 60);
  g_assert_true (fx.stored_ok);
  {
    g_autofree char *stored_rms = stored_field ("instrument.registration_rms_mm");
    g_autofree char *method = stored_field ("instrument.registration");
    g_autofree char *transform = stored_field ("instrument.registration_transform");
    NbRigidTransform tf;

    g_assert_cmpstr (stored_rms, ==, rms_stored);
    g_assert_nonnull (strstr (method, "survey.csv"));
    g_assert_true (nb_rigid_transform_from_json (transform, &tf, &error));
    g_assert_no_error (error);
    nb_assert_abs (nb_rigid_yaw_deg (&tf), nb_rigid_yaw_deg (&fit.registration.transform), 1e-9,
                   "the stored rotation");
    g_assert_nonnull (strstr (label ("registration-stored"), rms));
  }

  /* Entered by hand: a point that is not a number is refused, named. */
  gtk_editable_set_text (GTK_EDITABLE (lookup ("point-name")), "E");
  gtk_editable_set_text (GTK_EDITABLE (lookup ("point-instrument-x")), "12,5");
  gtk_editable_set_text (GTK_EDITABLE (lookup ("point-instrument-y")), "oops");
  gtk_editable_set_text (GTK_EDITABLE (lookup ("point-reference-x")), "1");
  gtk_editable_set_text (GTK_EDITABLE (lookup ("point-reference-y")), "2");
  click ("point-add");
  g_assert_true (gtk_widget_get_visible (lookup ("point-error")));
  g_assert_cmpuint (nb_instrument_page_get_n_points (instrument ()), ==, points->len);
  gtk_editable_set_text (GTK_EDITABLE (lookup ("point-instrument-y")), "3");
  click ("point-add");
  g_assert_false (gtk_widget_get_visible (lookup ("point-error")));
  g_assert_cmpuint (nb_instrument_page_get_n_points (instrument ()), ==, points->len + 1);
  /* A new point: the old fit is gone until fitted again. */
  g_assert_false (gtk_widget_get_sensitive (lookup ("registration-store")));
  g_assert_cmpstr (label ("registration-result"), ==, "—");
  /* Put the survey back for the screenshots. */
  g_assert_true (nb_instrument_page_import_points (instrument (), fx.points_csv, NULL));
  g_assert_true (nb_instrument_page_fit (instrument (), NULL));
}

/* A bad survey file: the reader's error, naming the file and line. */
static void
test_registration_bad_file (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *bad = g_build_filename (fx.gui.dir, "bad.csv", NULL);
  guint n = nb_instrument_page_get_n_points (instrument ());

  g_assert_true (g_file_set_contents (bad, "point,instrument_x_mm,instrument_y_mm,reference_x_mm,"
                                      "reference_y_mm\nA,1,2,3,x\n", -1, NULL));
  g_assert_false (nb_instrument_page_import_points (instrument (), bad, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "bad.csv:2"));
  g_assert_nonnull (strstr (nb_window_get_last_message (fx.gui.window), "bad.csv:2"));
  /* The points shown are kept. */
  g_assert_cmpuint (nb_instrument_page_get_n_points (instrument ()), ==, n);
}

static void
shoot (const char *page, const char *file, gpointer user_data)
{
  show_page (page);
  dismiss_toasts ();
  snapshot_to (file);
}

/* With NAVBENCH_SCREENSHOT_DIR: the two pages, light and dark, at 1280×800
 * and 1024×600, as PAGE-LANG-STYLE-WxH.png (tests/golden/gui/); the
 * simulator connected on the Instrument page, the survey fitted. */
static void
test_screenshots (void)
{
  static const char *const pages[] = { "overview", "instrument", NULL };
  const char *lang = nb_gui_ui_language ();
  AdwStyleManager *style = adw_style_manager_get_default ();
  Want live = { 60, NB_LINK_CONNECTED };

  if (g_getenv ("NAVBENCH_SCREENSHOT_DIR") == NULL)
    {
      g_test_skip ("NAVBENCH_SCREENSHOT_DIR is not set");
      return;
    }
  show_page ("instrument");
  adw_combo_row_set_selected (ADW_COMBO_ROW (lookup ("instrument-source")), NB_SOURCE_SIMULATOR);
  live.samples = nb_instrument_page_get_samples (instrument ()) + 60;
  click ("instrument-connect");
  iterate_until (reached, &live, 30);
  dismiss_toasts ();
  show_page ("overview");
  /* The other clauses' set-ups, light, at 1280×800. */
  {
    static const struct { guint clause; const char *config; } setups[] = {
      { 5, "rectangular-no-load" }, { 6, "wooden-table" }, { 7, "b1-wooden-wall" },
      { 8, "straight-rated-load" }, { 9, "no-load" }, { 10, "arena" },
    };

    adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_LIGHT);
    for (guint i = 0; i < G_N_ELEMENTS (setups); i++)
      {
        g_autofree char *name = g_strdup_printf ("overview-clause%u-%s-light-1280x800.png",
                                                 setups[i].clause, lang);

        g_assert_true (nb_overview_page_select (overview (), setups[i].clause, setups[i].config));
        snapshot_to (name);
      }
  }
  /* A clause 7 course: the drawing with the most in it. */
  g_assert_true (nb_overview_page_select (overview (), 7, "b2-large-cylinder"));
  nb_test_gui_screenshots (GTK_WINDOW (fx.gui.window), pages, shoot, NULL);
  nb_instrument_page_disconnect (instrument ());
}

/* The first label at or below w that reads text, or NULL. */
static GtkWidget *
label_with_text (GtkWidget *w, const char *text)
{
  if (GTK_IS_LABEL (w) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), text) == 0)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = label_with_text (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
show_for_check (const char *page, gpointer user_data)
{
  show_page (page);
}

/* At 1280×800 and 1024×600 no label of the Overview (the clause 7 course
 * the screenshots show) or the Instrument page (the simulator connected,
 * the survey fitted) is cut short with an ellipsis (the drop-downs'
 * buttons left out: nb_test_gui_ellipsized). */
static void
test_nothing_ellipsized (void)
{
  static const char *const pages[] = { "overview", "instrument", NULL };
  Want live = { 60, NB_LINK_CONNECTED };

  show_page ("instrument");
  adw_combo_row_set_selected (ADW_COMBO_ROW (lookup ("instrument-source")), NB_SOURCE_SIMULATOR);
  live.samples = nb_instrument_page_get_samples (instrument ()) + 60;
  click ("instrument-connect");
  iterate_until (reached, &live, 30);
  show_page ("overview");
  g_assert_true (nb_overview_page_select (overview (), 7, "b2-large-cylinder"));
  nb_test_gui_assert_nothing_ellipsized (GTK_WINDOW (fx.gui.window), pages, show_for_check,
                                         NULL);
  /* At 1024×600 the Frame Registration group's Import… button keeps its
   * distance from the group's description (it stood 3 px from its text). */
  {
    GtkWidget *button = lookup ("registration-import");
    GtkWidget *description = label_with_text (GTK_WIDGET (fx.gui.window),
      _("Surveyed reference points, measured by the instrument and known in the test area, "
        "give the instrument frame's fit to the test area."));
    graphene_rect_t b, d;

    g_assert_nonnull (description);
    g_assert_true (gtk_widget_compute_bounds (button, GTK_WIDGET (fx.gui.window), &b));
    g_assert_true (gtk_widget_compute_bounds (description, GTK_WIDGET (fx.gui.window), &d));
    g_test_message ("description ends at %.0f px, Import… begins at %.0f px",
                    d.origin.x + d.size.width, b.origin.x);
    g_assert_cmpfloat (b.origin.x - (d.origin.x + d.size.width), >=, 12);
  }
  nb_instrument_page_disconnect (instrument ());
  nb_test_gui_set_size (GTK_WINDOW (fx.gui.window), 1280, 800);
}

/* ------------------------------------------------------ trials page -- */

static guint results_loads;

static void
on_results_loaded (NbResultsPage *page, gpointer user_data)
{
  results_loads++;
}

static gboolean
results_loaded (gpointer data)
{
  return results_loads > GPOINTER_TO_UINT (data) && nb_window_get_pending (fx.gui.window) == 0;
}

/* The figures' JSON member key of a configuration, as the page must show
 * it: the protocol's decimals, "—" undefined, a verdict in words. */
static char *
expected_figure (JsonObject *o, const char *key, guint decimals)
{
  JsonNode *n = json_object_get_member (o, key);
  char buf[32];

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return g_strdup ("—");
  if (json_node_get_value_type (n) == G_TYPE_BOOLEAN)
    return g_strdup (json_node_get_boolean (n) ? _("yes") : _("no"));
  return g_strdup (nb_clause_format_figure (buf, json_node_get_double (n), (int) decimals));
}

static JsonObject *
figures_json (NbCampaign *c, guint clause, const char *config, NbConfigResult *r,
              JsonNode **root)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  g_autofree char *json = NULL;
  NbCampaignConfig cfg;

  nb_campaign_config_init (&cfg);
  g_assert_true (nb_campaign_find_config (c, clause, config, &cfg, &error));
  g_assert_true (nb_config_result_compute (c, &cfg, r, &error));
  g_assert_no_error (error);
  g_assert_null (r->error);
  nb_json_begin_object (w);
  nb_config_result_json (w, r);
  nb_json_end_object (w);
  json = nb_json_writer_finish (g_steal_pointer (&w));
  *root = json_from_string (json, &error);
  g_assert_no_error (error);
  nb_campaign_config_clear (&cfg);
  return json_node_get_object (*root);
}

/* The pixel's colour at (x, y) of an RGB24 image, 0..1. */
static void
pixel_at (cairo_surface_t *s, int x, int y, double rgb[3])
{
  guint32 v;

  cairo_surface_flush (s);
  memcpy (&v, cairo_image_surface_get_data (s) + (gsize) y * cairo_image_surface_get_stride (s)
              + 4 * x, 4);
  rgb[0] = ((v >> 16) & 0xff) / 255.0;
  rgb[1] = ((v >> 8) & 0xff) / 255.0;
  rgb[2] = (v & 0xff) / 255.0;
}

/* A pixel within r of (x, y) close to the colour (each channel ±0.15). */
static gboolean
colour_near (cairo_surface_t *s, double x, double y, int r, double cr, double cg, double cb)
{
  for (int dy = -r; dy <= r; dy++)
    for (int dx = -r; dx <= r; dx++)
      {
        double rgb[3];

        pixel_at (s, (int) lround (x) + dx, (int) lround (y) + dy, rgb);
        if (fabs (rgb[0] - cr) < 0.15 && fabs (rgb[1] - cg) < 0.15 && fabs (rgb[2] - cb) < 0.15)
          return TRUE;
      }
  return FALSE;
}

/* The Trials page's results as the protocol reports them, on a campaign
 * with clause 5's twelve poses and clause 10 run on the simulated rig
 * (the second map with a shadow beyond the accepted range, so 10.3's
 * three consecutive successes take five maps): every figure row is the protocol table's column title and unit
 * with the value nb_config_result_json gives, to the column's decimals;
 * clause 10 draws each counted trial's map (the file the event log names,
 * read as nb_map_read reads it) with the stored corners A′_i and the
 * configuration's arena A_i — found on the drawing in their colours. */
static void
test_trials_figures (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *db = g_build_filename (fx.gui.dir, "mapping.nbc", NULL);
  g_autofree char *maps = g_build_filename (fx.gui.dir, "mapping-maps", NULL);
  NbResultsPage *page = NB_RESULTS_PAGE (lookup ("results-page"));
  g_autoptr (NbCampaign) c = NULL;
  guint loads;

  /* The campaign: clause 5 as the fixture's, clause 10 by the runner. */
  make_campaign_at (db);
  {
    NbRunnerSimOptions so;
    g_autoptr (NbRunnerSim) sim = NULL;
    NbCampaignRunnerOptions o;
    NbRunnerRig rig;
    NbRunnerSummary sum;
    g_autoptr (NbCampaignRunner) runner = NULL;
    gboolean ok;

    nb_runner_sim_options_init (&so);
    so.seed = 7;
    so.map_shadow_trials = 1u << 1;     /* trial 2's map has a shadow */
    sim = nb_runner_sim_new (&so, &error);
    g_assert_no_error (error);
    nb_campaign_runner_options_init (&o);
    o.clause = 10;
    o.config = "arena";
    o.map_dir = maps;
    o.defect_range_mm = 20.0;
    nb_runner_sim_rig (sim, &rig);
    runner = nb_campaign_runner_new (db, &o, &rig, &error);
    g_assert_no_error (error);
    ok = nb_campaign_runner_run_sync (runner, NULL, NULL, NULL, &sum, &error);
    g_assert_no_error (error);
    g_assert_true (ok);
    g_assert_cmpuint (sum.failed, ==, 1);
    g_assert_cmpuint (sum.ok, ==, 4);
    nb_runner_summary_clear (&sum);
  }
  loads = results_loads;
  nb_window_open_campaign (fx.gui.window, db);
  iterate_until (results_loaded, GUINT_TO_POINTER (loads), 120);
  show_page ("results");
  c = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);

  /* Clause 5: n, then table 3's columns. */
  {
    NbConfigResult r = { 0 };
    g_autoptr (JsonNode) root = NULL;
    JsonObject *o = figures_json (c, 5, "straight-no-load", &r, &root);
    const NbProtocolColumn *cols;
    guint n;
    const char *title, *value;

    g_assert_true (nb_results_page_show_config (page, 5, "straight-no-load"));
    cols = nb_protocol_figure_columns (5, &n);
    g_assert_cmpuint (n, ==, 4);
    g_assert_cmpuint (nb_results_page_get_n_figures (page), ==, n + 1);
    nb_results_page_get_figure (page, 0, &title, &value);
    g_assert_cmpstr (title, ==, _("Trials counted n"));
    g_assert_cmpstr (value, ==, "12");
    for (guint i = 0; i < n; i++)
      {
        g_autofree char *want_title = g_strdup_printf ("%s, %s", _(cols[i].title), _(cols[i].unit));
        g_autofree char *want = expected_figure (o, cols[i].key, cols[i].decimals);

        nb_results_page_get_figure (page, i + 1, &title, &value);
        g_assert_cmpstr (title, ==, want_title);
        g_assert_cmpstr (value, ==, want);
        g_assert_cmpstr (value, !=, "—");
      }
    g_assert_cmpuint (nb_results_page_get_n_maps (page), ==, 0);
    nb_config_result_clear (&r);
  }

  /* Clause 10: each map's Dm, the accuracy; each map drawn. */
  {
    NbConfigResult r = { 0 };
    g_autoptr (JsonNode) root = NULL;
    JsonObject *o = figures_json (c, 10, "arena", &r, &root);
    JsonArray *per = json_object_get_array_member (o, "trials");
    g_autoptr (GArray) trials = NULL;
    NbCampaignConfig cfg;
    const char *title, *value;
    guint counted = 0, shadows = 0;

    g_assert_true (nb_results_page_show_config (page, 10, "arena"));
    g_assert_cmpuint (json_array_get_length (per), ==, 5);
    g_assert_cmpuint (nb_results_page_get_n_figures (page), ==, 6);
    for (guint i = 0; i < 5; i++)
      {
        JsonObject *t = json_array_get_object_element (per, i);
        g_autofree char *want = expected_figure (t, "dm_mm", 2);

        nb_results_page_get_figure (page, i, &title, &value);
        g_assert_cmpstr (value, ==, want);
      }
    nb_results_page_get_figure (page, 5, &title, &value);
    {
      g_autofree char *want_title = g_strdup_printf ("%s, %s", _("Mapping accuracy (max Dm)"), _("mm"));
      g_autofree char *want = expected_figure (o, "accuracy_mm", 2);

      g_assert_cmpstr (title, ==, want_title);
      g_assert_cmpstr (value, ==, want);
    }

    nb_campaign_config_init (&cfg);
    g_assert_true (nb_campaign_find_config (c, 10, "arena", &cfg, &error));
    trials = nb_campaign_list_trials (c, cfg.id, &error);
    g_assert_no_error (error);
    for (guint j = 0; j < trials->len; j++)
      counted += nb_campaign_trial_counts (10, &g_array_index (trials, NbCampaignTrial, j));
    g_assert_cmpuint (counted, ==, 5);
    g_assert_cmpuint (nb_results_page_get_n_maps (page), ==, counted);
    shadows = 0;
    for (guint i = 0, j = 0; i < nb_results_page_get_n_maps (page); i++, j++)
      {
        const NbMapView *mv = nb_results_page_get_map (page, i);
        const NbCampaignTrial *t;
        g_autoptr (NbMap) map = NULL;
        g_autofree char *file = g_strdup_printf ("%s/arena-%u.yaml", maps, mv->number);
        cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 400, 400);
        cairo_t *cr = cairo_create (img);

        while (!nb_campaign_trial_counts (10, &g_array_index (trials, NbCampaignTrial, j)))
          j++;
        t = &g_array_index (trials, NbCampaignTrial, j);
        g_assert_cmpuint (mv->number, ==, t->number);
        g_assert_cmpint (mv->ok, ==, t->outcome == NB_TRIAL_OK);
        /* The defects (the trial's reason, a record in English) in the
         * window's language. */
        if (t->reason != NULL && g_str_has_prefix (t->reason, "shadow on wall "))
          {
            const char *rest = t->reason + strlen ("shadow on wall ");
            g_autofree char *num = g_strndup (rest, (gsize) (strstr (rest, " mm)") - rest));
            g_autofree char *want = g_str_equal (nb_gui_ui_language (), "ru")
                                    ? g_strdup_printf ("тень у стены %s мм)", num)
                                    : g_strdup (t->reason);

            g_assert_null (strstr (t->reason, "; "));
            g_assert_cmpstr (mv->reason, ==, want);
            shadows++;
          }
        nb_assert_abs (mv->dm_mm, g_array_index (r.values, double, i), 1e-12, "Dm of the trial");
        g_assert_nonnull (mv->map);
        g_test_message ("map %u: %s", mv->number, mv->map_file);
        map = nb_map_read (mv->map_file, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (mv->map->width, ==, map->width);
        g_assert_cmpuint (mv->map->height, ==, map->height);
        g_assert_true (memcmp (mv->map->cells, map->cells, (gsize) map->width * map->height) == 0);
        for (int k = 0; k < 4; k++)
          {
            double x, y;

            nb_assert_abs (mv->corners_mm[k][0], t->corners_mm[k][0], 0, "A′ x as stored");
            nb_assert_abs (mv->corners_mm[k][1], t->corners_mm[k][1], 0, "A′ y as stored");
            nb_assert_abs (mv->truth_mm[k][0], cfg.truth_mm[k][0], 0, "A x of the arena");
            nb_assert_abs (mv->truth_mm[k][1], cfg.truth_mm[k][1], 0, "A y of the arena");
            /* On the drawing: A_i's cross in green, A′_i's circle in blue. */
            nb_map_view_draw (mv, cr, 400, 400, NULL);
            nb_map_view_to_px (mv, 400, 400, mv->truth_mm[k][0], mv->truth_mm[k][1], &x, &y);
            g_assert_true (colour_near (img, x, y, 1, NB_MAP_VIEW_TRUTH_RGB));
            nb_map_view_to_px (mv, 400, 400, mv->corners_mm[k][0], mv->corners_mm[k][1], &x, &y);
            g_assert_true (colour_near (img, x + 4, y, 1, NB_MAP_VIEW_MAP_RGB) ||
                           colour_near (img, x - 4, y, 1, NB_MAP_VIEW_MAP_RGB));
          }
        /* The defects the clause module found (its analysis of the file),
         * drawn over their evidence: a shadow orange, an open contour red. */
        g_assert_nonnull (mv->fit);
        g_assert_cmpint (mv->fit->passed, ==, mv->ok);
        for (guint d = 0; d < mv->fit->defects->len; d++)
          {
            const NbMapDefect *def = &g_array_index (mv->fit->defects, NbMapDefect, d);
            double x, y;

            nb_map_view_to_px (mv, 400, 400, (def->x0_mm + def->x1_mm) / 2,
                               (def->y0_mm + def->y1_mm) / 2, &x, &y);
            if (def->kind == NB_MAP_DEFECT_SHADOW)
              g_assert_true (colour_near (img, x, y, 1, NB_MAP_SHADOW_RGB));
            else
              g_assert_true (colour_near (img, x, y, 1, NB_MAP_OPEN_RGB));
          }
        if (!mv->ok)
          g_assert_cmpuint (mv->fit->defects->len, >, 0);
        /* The grid: free space inside the arena is white (a fifth of the
         * way from A_1 to the centre: clear of the walls and the column). */
        {
          double cx = 0, cy = 0, px, py, rgb[3];

          for (int k = 0; k < 4; k++)
            cx += mv->truth_mm[k][0] / 4, cy += mv->truth_mm[k][1] / 4;
          cx = mv->truth_mm[0][0] + 0.2 * (cx - mv->truth_mm[0][0]);
          cy = mv->truth_mm[0][1] + 0.2 * (cy - mv->truth_mm[0][1]);
          nb_map_view_to_px (mv, 400, 400, cx, cy, &px, &py);
          pixel_at (img, (int) px, (int) py, rgb);
          g_assert_cmpfloat (rgb[0] + rgb[1] + rgb[2], >, 2.9);
        }
        g_assert_cmpstr (mv->map_file, ==, file);
        cairo_destroy (cr);
        cairo_surface_destroy (img);
      }
    /* Trial 2's map has its shadow (so.map_shadow_trials). */
    g_assert_cmpuint (shadows, ==, 1);
    nb_campaign_config_clear (&cfg);
    nb_config_result_clear (&r);
  }
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  {
    g_autofree char *name = g_strdup_printf ("results-clause10-%s-light-1280x800.png",
                                             nb_gui_ui_language ());

    adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                        ADW_COLOR_SCHEME_FORCE_LIGHT);
    gtk_window_set_default_size (GTK_WINDOW (fx.gui.window), 1280, 800);
    show_page ("results");
    snapshot_to (name);
    g_assert_true (nb_results_page_show_config (page, 5, "straight-no-load"));
    g_free (name);
    name = g_strdup_printf ("results-clause5-%s-light-1280x800.png", nb_gui_ui_language ());
    snapshot_to (name);
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
  }
}

/* Trial trial_id (shown as map `map`, number `number`) of clause 10's
 * "arena" has A'_{corner+1} stored at want (to its 0.1 mm), both
 * coordinates edited once each with the reason why in the event log (x
 * as written), and the page's map drawn there with the library's Dm on the
 * stored corners, no longer dm_before. */
static void
assert_corner_stored (const char *db, guint map, gint64 trial_id, guint number, guint corner,
                      const double want[2], const char *why, double dm_before)
{
  NbResultsPage *page = NB_RESULTS_PAGE (lookup ("results-page"));
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  g_autoptr (GArray) trials = NULL, events = NULL;
  g_autofree char *subject = NULL, *prefix = NULL, *what_x = NULL;
  const NbMapView *mv;
  NbCampaignConfig cfg;
  NbConfigResult r = { 0 };
  guint edits = 0, found = 0;
  char want_x[G_ASCII_DTOSTR_BUF_SIZE];

  g_assert_no_error (error);
  nb_campaign_config_init (&cfg);
  g_assert_true (nb_campaign_find_config (c, 10, "arena", &cfg, &error));
  trials = nb_campaign_list_trials (c, cfg.id, &error);
  g_assert_no_error (error);
  for (guint j = 0; j < trials->len; j++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, j);

      if (t->id != trial_id)
        continue;
      nb_assert_abs (t->corners_mm[corner][0], want[0], 0.05, "A' x as moved");
      nb_assert_abs (t->corners_mm[corner][1], want[1], 0.05, "A' y as moved");
      found++;
    }
  g_assert_cmpuint (found, ==, 1);
  subject = nb_campaign_trial_subject (c, trial_id, &error);
  g_assert_no_error (error);
  events = nb_campaign_list_events (c, &error);
  g_assert_no_error (error);
  g_ascii_formatd (want_x, sizeof want_x, "%.1f", want[0]);
  prefix = g_strdup_printf ("trial value edited: corner%u_", corner + 1);
  what_x = g_strdup_printf ("trial value edited: corner%u_x_mm", corner + 1);
  for (guint i = 0; i < events->len; i++)
    {
      const NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);

      if (g_strcmp0 (e->subject, subject) != 0 || !g_str_has_prefix (e->what, prefix))
        continue;
      g_assert_cmpstr (e->note, ==, why);
      if (g_str_equal (e->what, what_x))
        g_assert_cmpstr (e->new_value, ==, want_x);
      edits++;
    }
  g_assert_cmpuint (edits, ==, 2);
  /* Dm (10.2) is the library's on the stored corners. */
  g_assert_true (nb_config_result_compute (c, &cfg, &r, &error));
  g_assert_no_error (error);
  mv = nb_results_page_get_map (page, map);
  g_assert_cmpuint (mv->number, ==, number);
  nb_assert_abs (mv->corners_mm[corner][0], want[0], 0.05, "A' drawn where stored");
  nb_assert_abs (mv->corners_mm[corner][1], want[1], 0.05, "A' drawn where stored");
  nb_assert_abs (mv->dm_mm, g_array_index (r.values, double, map), 1e-12, "Dm recomputed");
  g_assert_cmpfloat (fabs (mv->dm_mm - dm_before), >, 1.0);
  nb_config_result_clear (&r);
  nb_campaign_config_clear (&cfg);
}

/* Clause 10, after /gui-setup/trials-figures (its campaign open): trial
 * 1's A'_2 moved by hand 150 mm along x — refused without a reason (the
 * dialog's button stays off), cancelled (back where it was, nothing
 * stored), then stored with one: both coordinates in the store as moved,
 * two edits in the event log with the reason and the old values, and the
 * Dm shown the library's from the stored corners (and not the one
 * before). */
static void
test_corner_by_hand (void)
{
  NbResultsPage *page = NB_RESULTS_PAGE (lookup ("results-page"));
  g_autofree char *db = g_build_filename (fx.gui.dir, "mapping.nbc", NULL);
  g_autoptr (GError) error = NULL;
  const char *why = "A'2 read off the wall's end by the operator";
  const NbMapView *mv;
  AdwMessageDialog *dialog;
  double before[2], dm_before;
  gint64 trial_id;
  guint loads, number;

  g_assert_cmpstr (nb_window_get_campaign_path (fx.gui.window), ==, db);
  show_page ("results");
  g_assert_true (nb_results_page_show_config (page, 10, "arena"));
  settle ();
  g_test_message ("maps shown: %u", nb_results_page_get_n_maps (page));
  g_assert_cmpuint (nb_results_page_get_n_maps (page), ==, 5);
  mv = nb_results_page_get_map (page, 0);
  g_assert_nonnull (mv);
  /* The defects' geometry is the clause module's analysis of the file. */
  g_assert_nonnull (mv->fit);
  before[0] = mv->corners_mm[1][0];
  before[1] = mv->corners_mm[1][1];
  dm_before = mv->dm_mm;
  trial_id = mv->trial_id;
  number = mv->number;

  /* Cancelled: put back, nothing stored. */
  g_assert_true (nb_results_page_move_corner (page, 0, 1, before[0] + 150, before[1]));
  dialog = nb_results_page_get_corner_dialog (page);
  g_assert_nonnull (dialog);
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "correct"));
  adw_message_dialog_response (dialog, "cancel");
  /* As its button does: the dialog goes (a modal one left open takes the
   * window's pointer events: /gui-setup/corner-drag). */
  gtk_window_destroy (GTK_WINDOW (dialog));
  settle ();
  g_assert_null (nb_results_page_get_corner_dialog (page));
  mv = nb_results_page_get_map (page, 0);
  g_assert_cmpfloat (mv->corners_mm[1][0], ==, before[0]);

  /* With a reason: stored, Dm again. */
  loads = results_loads;
  g_assert_true (nb_results_page_move_corner (page, 0, 1, before[0] + 150, before[1]));
  dialog = nb_results_page_get_corner_dialog (page);
  gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog)), why);
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "correct"));
  adw_message_dialog_response (dialog, "correct");
  gtk_window_destroy (GTK_WINDOW (dialog));
  iterate_until (results_loaded, GUINT_TO_POINTER (loads), 120);
  settle ();
  {
    const double moved[2] = { before[0] + 150, before[1] };

    assert_corner_stored (db, 0, trial_id, number, 1, moved, why, dm_before);
  }
  {
    g_autofree char *name = g_strdup_printf ("results-clause10-corrected-%s-light-1280x800.png",
                                             nb_gui_ui_language ());

    g_assert_true (nb_results_page_show_config (page, 10, "arena"));
    snapshot_to (name);
  }
}

static void
xdotool_exited (GObject *source, GAsyncResult *result, gpointer data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  *(gboolean *) data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* xdotool's commands (NULL-terminated) against the X server the window is
 * on, the main loop turning meanwhile (the window sees the events as they
 * come). */
static void
xdotool (const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = NULL;
  gboolean done = FALSE;
  va_list ap;

  g_ptr_array_add (argv, g_strdup ("xdotool"));
  va_start (ap, first);
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, g_strdup (a));
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  p = g_subprocess_newv ((const char *const *) argv->pdata, G_SUBPROCESS_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_subprocess_wait_async (p, NULL, xdotool_exited, &done);
  iterate_until (is_true, &done, 60);
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);
}

/* The button at or below widget whose label is label (with its mnemonic). */
static GtkWidget *
find_label_button (GtkWidget *widget, const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label_button (c, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
corner_asked (gpointer data)
{
  return nb_results_page_get_corner_dialog (NB_RESULTS_PAGE (lookup ("results-page"))) != NULL;
}

/* A real drag of the pointer (xdotool under Xvfb, the X server's own
 * motion and button events through GTK's drag gesture): trial 2's A'_3
 * pressed on its circle, moved by (+40, −25) px in steps and released; the
 * reason asked, given; stored where the drawing's frame puts the release
 * pixel (to 0.1 mm), both coordinates edited with the reason, Dm the
 * library's again. */
static void
test_corner_drag (void)
{
  NbResultsPage *page = NB_RESULTS_PAGE (lookup ("results-page"));
  g_autofree char *db = g_build_filename (fx.gui.dir, "mapping.nbc", NULL);
  const char *why = "A'3 dragged onto the wall's corner seen in the map";
  const guint map = 1, corner = 2;
  GtkWidget *plot = lookup ("results-plot");
  const NbMapView *mv;
  AdwMessageDialog *dialog;
  GtkNative *native;
  graphene_point_t at;
  NbMapFrame frame;
  double cw, ch, cell_x, cell_y, px, py, sx, sy, from[2], want[2], dm_before;
  int x0, y0, dx = 40, dy = -25;
  guint n, cols, rows, loads, number;
  gint64 trial_id;
  g_autofree char *xid = NULL;

  /* The dialogs the cases before answered with adw_message_dialog_response
   * are still open (a click on their buttons would have closed them), and
   * a modal window takes the pointer's events from the one it is over. */
  {
    g_autoptr (GList) windows = gtk_window_list_toplevels ();

    for (GList *l = windows; l; l = l->next)
      if (l->data != (gpointer) fx.gui.window && gtk_widget_get_visible (l->data))
        {
          g_test_message ("closed, left open: %s", gtk_window_get_title (l->data));
          gtk_window_destroy (l->data);
        }
    settle ();
  }
  show_page ("results");
  g_assert_true (nb_results_page_show_config (page, 10, "arena"));
  settle ();
  n = nb_results_page_get_n_maps (page);
  g_assert_cmpuint (n, ==, 5);
  mv = nb_results_page_get_map (page, map);
  trial_id = mv->trial_id;
  number = mv->number;
  dm_before = mv->dm_mm;
  from[0] = mv->corners_mm[corner][0];
  from[1] = mv->corners_mm[corner][1];
  /* Where the page draws map `map` (its grid of cells, nb-results-page.c)
   * and the corner in it, in the plot's pixels. */
  cols = MIN (n, 3);
  rows = (n + cols - 1) / cols;
  cw = (double) gtk_widget_get_width (plot) / cols;
  ch = (double) gtk_widget_get_height (plot) / rows;
  cell_x = (map % cols) * cw;
  cell_y = (map / cols) * ch;
  nb_map_view_frame (mv, cw, ch, &frame);
  nb_map_frame_to_px (&frame, mv->corners_mm[corner][0], mv->corners_mm[corner][1], &px, &py);
  /* The plot's pixel → the X window's (the surface has the window's
   * shadow around it). */
  native = gtk_widget_get_native (plot);
  g_assert_true (gtk_widget_compute_point (plot, GTK_WIDGET (native),
                                           &GRAPHENE_POINT_INIT ((float) (cell_x + px),
                                                                 (float) (cell_y + py)), &at));
  gtk_native_get_surface_transform (native, &sx, &sy);
  x0 = (int) lround (at.x + sx);
  y0 = (int) lround (at.y + sy);
  xid = g_strdup_printf ("%lu", (unsigned long) gdk_x11_surface_get_xid (gtk_native_get_surface (native)));
  g_test_message ("plot %d×%d, map cell (%.0f, %.0f) %.0f×%.0f, A' at (%.1f, %.1f) of the cell, "
                  "(%.1f, %.1f) of the window, surface +(%.0f, %.0f): X window %s at (%d, %d)",
                  gtk_widget_get_width (plot), gtk_widget_get_height (plot), cell_x, cell_y, cw, ch,
                  px, py, at.x, at.y, sx, sy, xid, x0, y0);
  {
    g_autofree char *sx0 = g_strdup_printf ("%d", x0), *sy0 = g_strdup_printf ("%d", y0);
    g_autofree char *sx1 = g_strdup_printf ("%d", x0 + dx / 2), *sy1 = g_strdup_printf ("%d", y0 + dy / 2);
    g_autofree char *sx2 = g_strdup_printf ("%d", x0 + dx), *sy2 = g_strdup_printf ("%d", y0 + dy);

    xdotool ("mousemove", "--window", xid, sx0, sy0, "sleep", "0.3", "mousedown", "1",
             "sleep", "0.2", "mousemove", "--window", xid, sx1, sy1, "sleep", "0.2",
             "mousemove", "--window", xid, sx2, sy2, "sleep", "0.2", "mouseup", "1", NULL);
  }
  iterate_until (corner_asked, NULL, 30);
  /* The release pixel in the plot (the press's, whole pixels of the X
   * window, and the move), through the frame of the press. */
  nb_map_frame_to_mm (&frame, x0 - sx - (at.x - (cell_x + px)) + dx - cell_x,
                      y0 - sy - (at.y - (cell_y + py)) + dy - cell_y, &want[0], &want[1]);
  g_test_message ("A'%u of map %u: (%.1f, %.1f) mm dragged to (%.1f, %.1f) mm", corner + 1,
                  number, from[0], from[1], want[0], want[1]);
  /* The move on the drawing's scale: 47 px. */
  nb_assert_abs (hypot (want[0] - from[0], want[1] - from[1]) * frame.scale, hypot (dx, dy), 1.0,
                 "the corner moved as the pointer, px");
  dialog = nb_results_page_get_corner_dialog (page);
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "correct"));
  gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog)), why);
  settle ();
  loads = results_loads;
  /* Its Correct button clicked with the pointer too. */
  {
    GtkWidget *button = find_label_button (GTK_WIDGET (dialog), _("_Correct"));
    GtkNative *dn = GTK_NATIVE (dialog);
    g_autofree char *dxid = NULL, *bx = NULL, *by = NULL;
    graphene_point_t b;
    double dsx, dsy;

    g_assert_nonnull (button);
    g_assert_true (gtk_widget_is_sensitive (button));
    g_assert_true (gtk_widget_compute_point (button, GTK_WIDGET (dialog),
                                             &GRAPHENE_POINT_INIT (gtk_widget_get_width (button) / 2.0f,
                                                                   gtk_widget_get_height (button) / 2.0f),
                                             &b));
    gtk_native_get_surface_transform (dn, &dsx, &dsy);
    dxid = g_strdup_printf ("%lu", (unsigned long) gdk_x11_surface_get_xid (gtk_native_get_surface (dn)));
    bx = g_strdup_printf ("%d", (int) lround (b.x + dsx));
    by = g_strdup_printf ("%d", (int) lround (b.y + dsy));
    xdotool ("mousemove", "--window", dxid, bx, by, "sleep", "0.2", "click", "1", NULL);
  }
  iterate_until (results_loaded, GUINT_TO_POINTER (loads), 120);
  g_assert_null (nb_results_page_get_corner_dialog (page));
  settle ();
  assert_corner_stored (db, map, trial_id, number, corner, want, why, dm_before);
}

/* ------------------------------------------------------------ toasts -- */

static gboolean
no_toast (gpointer data)
{
  return nb_test_gui_find_type (GTK_WIDGET (fx.gui.window), "AdwToastWidget") == NULL;
}

/* The toast's own × (libadwaita 1.2: the round flat button of the toast). */
static GtkWidget *
toast_close_button (void)
{
  GtkWidget *toast = nb_test_gui_find_type (GTK_WIDGET (fx.gui.window), "AdwToastWidget");

  g_assert_nonnull (toast);
  for (GtkWidget *c = gtk_widget_get_first_child (toast); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_BUTTON (c) && gtk_widget_has_css_class (c, "circular"))
      return c;
  g_error ("the toast has no × button");
}

/* The × has been laid out (the toast drawn at least once). */
static gboolean
close_button_drawn (gpointer data)
{
  graphene_rect_t b;

  return !no_toast (NULL) &&
         gtk_widget_compute_bounds (toast_close_button (), GTK_WIDGET (fx.gui.window), &b) &&
         b.size.width > 0;
}

typedef struct {
  gint64 added;                 /* when the toast was added (monotonic µs) */
  gint64 clicked;               /* when its × was clicked, or 0 */
} ToastRound;

/* After the × has dismissed the toast (the template's handler runs
 * first): the main loop stalls 0.6 s, as on a loaded machine, so that the
 * next frame is due after both the show and the hide animation ended. */
static void
on_close_clicked (GtkButton *button, gpointer data)
{
  ToastRound *r = data;

  r->clicked = g_get_monotonic_time ();
  g_usleep (600000);
}

/* A toast's dismissal right after it appeared, the main loop then stalled.
 * libadwaita 1.2's overlay frees a toast's record when its hide animation
 * ends, and a show animation still playing then reads the freed record when
 * it ends (upstream 1674ebc9, in 1.3; nb-toasts.h): when a toast is
 * dismissed during its 300 ms show — its ×, its timeout, code — and no
 * frame comes until both animations are due, the hide's tick runs first
 * (GTK runs the tick callbacks added last first).  The read is in
 * libadwaita, which ASan does not instrument: it shows under
 * MALLOC_PERTURB_ (meson test sets it) or ASan with max_free_fill_size=4096, as a segfault in
 * g_object_unref from adw_animation_skip's "done".  Each toast must go,
 * before its 5 s timeout, its message kept, and the window live. */
static void
toast_round (guint round)
{
  g_autofree char *text = g_strdup_printf ("toast %u closed as it appears", round);
  ToastRound r = { 0, 0 };
  gint64 gone;

  nb_window_toast (fx.gui.window, text);
  r.added = g_get_monotonic_time ();
  if (round == 0)
    {
      /* From code, before any frame drew it. */
      g_signal_connect (toast_close_button (), "clicked", G_CALLBACK (on_close_clicked), &r);
      g_signal_emit_by_name (toast_close_button (), "clicked");
    }
  else
    {
      iterate_until (close_button_drawn, NULL, 30);
      g_signal_connect (toast_close_button (), "clicked", G_CALLBACK (on_close_clicked), &r);
      g_signal_emit_by_name (toast_close_button (), "clicked");
    }
  iterate_until (no_toast, NULL, 30);
  gone = g_get_monotonic_time ();
  g_test_message ("round %u: the × pressed %.0f ms after the toast was added, gone after "
                  "%.0f ms", round, (r.clicked - r.added) / 1e3, (gone - r.added) / 1e3);
  g_assert_cmpint (r.clicked, >, 0);
  g_assert_cmpint (gone - r.added, <, 4500000);
  g_assert_cmpstr (nb_window_get_last_message (fx.gui.window), ==, text);
  settle ();
}

/* From code: at once (no frame yet) and as soon as drawn. */
static void
test_toast_dismiss (void)
{
  show_page ("overview");
  dismiss_toasts ();
  iterate_until (no_toast, NULL, 60);
  for (guint round = 0; round < 3; round++)
    toast_round (round);
}

static void
on_stored (NbInstrumentPage *page, gboolean ok, gpointer user_data)
{
  fx.stored++;
  fx.stored_ok = ok;
}

/* A survey of four points: the test area's, and the instrument's seeing
 * them turned 5° and shifted (1.2 m, −0.4 m), each a few tenths of a
 * millimetre off (the survey's own error). */
static void
write_survey (void)
{
  static const struct { const char *name; double x, y, ex, ey; } pts[] = {
    { "A", 0, 0, 0.3, -0.2 }, { "B", 5000, 0, -0.1, 0.4 },
    { "C", 5000, 5000, 0.2, 0.1 }, { "D", 0, 5000, -0.4, -0.3 },
  };
  g_autoptr (GString) csv = g_string_new ("point,instrument_x_mm,instrument_y_mm,"
                                          "reference_x_mm,reference_y_mm\n");
  double a = -5.0 * G_PI / 180.0;

  for (guint i = 0; i < G_N_ELEMENTS (pts); i++)
    {
      /* instrument = R(−5°)·(reference − t) + error */
      double rx = pts[i].x - 1200.0, ry = pts[i].y + 400.0;
      char ix[G_ASCII_DTOSTR_BUF_SIZE], iy[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (ix, sizeof ix, "%.4f", cos (a) * rx - sin (a) * ry + pts[i].ex);
      g_ascii_formatd (iy, sizeof iy, "%.4f", sin (a) * rx + cos (a) * ry + pts[i].ey);
      g_string_append_printf (csv, "%s,%s,%s,%.0f,%.0f\n", pts[i].name, ix, iy, pts[i].x, pts[i].y);
    }
  fx.points_csv = g_build_filename (fx.gui.dir, "survey.csv", NULL);
  g_assert_true (g_file_set_contents (fx.points_csv, csv->str, -1, NULL));
}

/* ---------------------------------------------------- decision rule -- */

static char *
decision_rule_stored (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_open (fx.gui.db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  char *v;

  g_assert_no_error (error);
  v = nb_campaign_get_field (c, "conformity.decision_rule", &error);
  g_assert_no_error (error);
  return v;
}

/* ILAC G8's decision rule on the Campaign page: a choice of the rules the
 * library accepts, in words (the window's language), stored by the names
 * nb_decision_rule_name gives them; a rule stored by another of its names
 * ("guarded") is shown as its choice. */
static void
test_decision_rule (void)
{
  NbCampaignForm *form;
  GtkWidget *editor;
  GListModel *model;
  g_autoptr (GError) error = NULL;
  NbDecisionRule rule;
  gboolean stated;

  show_page ("campaign");
  form = NB_CAMPAIGN_FORM (lookup ("campaign-form"));
  editor = nb_campaign_form_get_editor (form, "conformity.decision_rule");
  g_assert_true (GTK_IS_DROP_DOWN (editor));
  model = gtk_drop_down_get_model (GTK_DROP_DOWN (editor));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 1), ==,
                   _("Simple acceptance (w = 0)"));
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 2), ==,
                   _("Guarded acceptance (w = U)"));
  if (g_str_equal (nb_gui_ui_language (), "ru"))
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 2), ==,
                     "Приёмка с защитной полосой (w = U)");
  /* Not stated yet: "—". */
  g_assert_null (decision_rule_stored ());
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (editor)), ==, 0);

  gtk_drop_down_set_selected (GTK_DROP_DOWN (editor), 2);
  iterate_until (idle_window, NULL, 60);
  {
    g_autofree char *v = decision_rule_stored ();
    g_autoptr (NbCampaign) c = nb_campaign_open (fx.gui.db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);

    g_assert_cmpstr (v, ==, nb_decision_rule_name (NB_DECISION_GUARDED));
    g_assert_true (nb_decision_rule_from_campaign (c, &rule, &stated, &error));
    g_assert_no_error (error);
    g_assert_true (stated);
    g_assert_cmpint (rule, ==, NB_DECISION_GUARDED);
  }
  gtk_drop_down_set_selected (GTK_DROP_DOWN (editor), 1);
  iterate_until (idle_window, NULL, 60);
  {
    g_autofree char *v = decision_rule_stored ();

    g_assert_cmpstr (v, ==, nb_decision_rule_name (NB_DECISION_SIMPLE));
  }
  /* Stored as "guarded" (the CLI takes it): shown as Guarded. */
  {
    g_autoptr (NbCampaign) c = nb_campaign_open (fx.gui.db, 0, &error);

    g_assert_no_error (error);
    g_assert_true (nb_campaign_set_field (c, "conformity.decision_rule", "guarded", &error));
    g_assert_no_error (error);
    g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  }
  nb_window_open_campaign (fx.gui.window, fx.gui.db);
  iterate_until (idle_window, NULL, 60);
  settle ();
  editor = nb_campaign_form_get_editor (form, "conformity.decision_rule");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (editor)), ==, 2);
}

/* ---------------------------------------------------------- ISO 9283 -- */

static gboolean
ran_9283 (gpointer data)
{
  return nb_overview_page_get_runs (overview ()) > GPOINTER_TO_UINT (data) &&
         nb_window_get_pending (fx.gui.window) == 0;
}

static guint
stored_cycles (const char *db, const char *config)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
  guint n = 0;

  g_assert_no_error (error);
  g_assert_true (nb_campaign_iso9283_count_trials (c, config, &n, &error));
  g_assert_no_error (error);
  return n;
}

static gboolean
cycle_shown (gpointer data)
{
  /* The run's status line counts the cycles stored ("cycle k of n…"); the
   * file is not read meanwhile: a reader's open refuses the run's writer
   * ("campaign is open in another navbench") while it looks for one. */
  return nb_overview_page_get_run_cycles (overview ()) >= 2 ||
         !nb_overview_page_is_running (overview ());
}

/* The ISO 9283 plan on the Overview: each configuration's state as
 * nb_iso9283_plan_rows gives it; corner-rated-100 run from the window on
 * the simulated arm stores the 3 cycles `campaign run --standard iso9283
 * --all --only corner-rated-100` stores (the same arm, seed and defaults:
 * every command and measured value equal); pose-rated-50 stopped through
 * the window's Stop action keeps the cycles it stored. */
static void
test_iso9283 (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *db = g_build_filename (fx.gui.dir, "iso9283.nbc", NULL);
  g_autofree char *copy = g_build_filename (fx.gui.dir, "iso9283-cli.nbc", NULL);
  g_autoptr (GArray) plan = NULL, rows = NULL;
  const NbIso9283PlanEntry *next = NULL;
  GtkListBox *list;
  guint loads, runs, n_rows = 0;

  {
    g_autoptr (NbCampaign) c = nb_campaign_create (db, "iso9283 test", &error);
    gboolean made;

    g_assert_no_error (error);
    g_assert_true (nb_campaign_set_field (c, "robot.width_mm", "600", &error));
    g_assert_true (nb_iso9283_plan_ensure (c, NB_ISO9283_DRIFT_H * 3600.0, &made, &error));
    g_assert_true (made);
    g_assert_true (nb_campaign_iso9283_plan_set_scope (c, "compliance-rated-100", FALSE,
                                                       "no force sensor on the rig", &error));
    g_assert_no_error (error);
    g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  }
  {
    g_autofree char *bytes = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (db, &bytes, &len, NULL));
    g_assert_true (g_file_set_contents (copy, bytes, (gssize) len, NULL));
  }
  loads = nb_overview_page_get_loads (overview ());
  nb_window_open_campaign (fx.gui.window, db);
  iterate_until (idle_window, NULL, 60);
  show_page ("overview");
  iterate_until (loaded, GUINT_TO_POINTER (loads), 60);
  list = GTK_LIST_BOX (lookup ("overview-list"));

  /* Every configuration of the plan, in order after ISO 18646-2's, with
   * the library's state. */
  {
    g_autoptr (NbCampaign) c = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);

    g_assert_no_error (error);
    plan = nb_campaign_iso9283_plan_list (c, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (plan->len, ==, 41);
    rows = nb_iso9283_plan_rows (c, plan, &next, &error);
    g_assert_no_error (error);
    g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  }
  for (guint i = 0; i < rows->len; i++)
    {
      const NbIso9283PlanRow *r = &g_array_index (rows, NbIso9283PlanRow, i);
      g_autofree char *name = g_strdup_printf ("plan-iso9283-%s", r->entry->config);
      g_autofree char *want = nb_overview_iso9283_status_text (r->entry, r);
      GtkWidget *row = nb_test_gui_find (GTK_WIDGET (list), name);

      if (row == NULL)
        g_error ("no row %s", name);
      g_assert_cmpstr (row_status (row), ==, want);
      n_rows++;
    }
  g_assert_cmpuint (n_rows, ==, 41);
  /* No rated load declared: ISO 18646-2's rated-load configurations are
   * out of scope by the plan, the field named as the Campaign page labels
   * it, in words (the screenshots showed "(robot.rated_load_kg)"). */
  {
    gboolean ru = g_str_equal (nb_gui_ui_language (), "ru");
    g_autofree char *want = g_strdup_printf (_("out of scope: %s"), ru
      ? "изготовитель не заявил номинальную нагрузку (поле «Номинальная нагрузка, кг»)"
      : "the manufacturer declares no rated load (the field “Rated load, kg”)");
    const char *shown = row_status (nb_test_gui_find (GTK_WIDGET (list),
                                                      "plan-5-straight-rated-load"));

    g_assert_cmpstr (shown, ==, want);
    g_assert_null (strstr (shown, "robot."));
  }
  {
    g_autofree char *scope = g_strdup_printf (_("out of scope: %s"), "no force sensor on the rig");
    g_autofree char *none = g_strdup_printf (_("%u/%u cycles — %s"), 0, 3, _("not started"));

    g_assert_cmpstr (row_status (nb_test_gui_find (GTK_WIDGET (list),
                                                   "plan-iso9283-compliance-rated-100")), ==,
                     scope);
    g_assert_cmpstr (row_status (nb_test_gui_find (GTK_WIDGET (list),
                                                   "plan-iso9283-corner-rated-100")), ==, none);
  }
  g_assert_nonnull (next);
  g_assert_cmpstr (next->config, ==, "pose-rated-100");
  g_assert_false (gtk_widget_get_visible (lookup ("overview-add-iso9283")));

  /* Out of scope: no run. */
  g_assert_true (nb_overview_page_select_iso9283 (overview (), "compliance-rated-100"));
  settle ();
  g_assert_false (gtk_widget_is_sensitive (lookup ("overview-run-iso9283")));

  /* corner-rated-100 from the window, then the same by the CLI. */
  g_assert_true (nb_overview_page_select_iso9283 (overview (), "corner-rated-100"));
  settle ();
  g_assert_true (gtk_widget_get_visible (lookup ("overview-run-iso9283")));
  g_assert_false (gtk_widget_get_visible (lookup ("overview-drawing")));
  runs = nb_overview_page_get_runs (overview ());
  click ("overview-run-iso9283");
  g_assert_true (nb_overview_page_is_running (overview ()));
  /* The run holds the file: the window's other runs wait. */
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (fx.gui.window), "run"));
  iterate_until (ran_9283, GUINT_TO_POINTER (runs), 240);
  g_assert_false (nb_overview_page_is_running (overview ()));
  g_assert_cmpuint (stored_cycles (db, "corner-rated-100"), ==, 3);
  {
    g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard",
                                            "iso9283", "--db", copy, "--all", "--only",
                                            "corner-rated-100", NULL);
    g_autoptr (GPtrArray) mine = nb_test_iso9283_trials (db, "corner-rated-100");
    g_autoptr (GPtrArray) cli = nb_test_iso9283_trials (copy, "corner-rated-100");

    g_assert_cmpuint (mine->len, ==, 3);
    g_assert_cmpuint (cli->len, ==, 3);
    for (guint i = 0; i < 3; i++)
      {
        const NbIso9283Trial *a = mine->pdata[i], *b = cli->pdata[i];

        g_assert_cmpuint (a->cycle, ==, i + 1);
        g_assert_cmpstr (a->robot, ==, b->robot);
        g_assert_cmpstr (a->measurement, ==, b->measurement);
        g_assert_cmpstr (a->setup, ==, b->setup);
        nb_test_assert_same_doubles (a->command, b->command, 0, "command", a->cycle);
        nb_test_assert_same_doubles (a->data, b->data, 0, "data", a->cycle);
      }
  }
  iterate_until (idle_window, NULL, 60);
  settle ();
  {
    g_autofree char *done = g_strdup_printf (_("%u/%u cycles — %s"), 3, 3, _("complete"));

    g_assert_cmpstr (row_status (nb_test_gui_find (GTK_WIDGET (list),
                                                   "plan-iso9283-corner-rated-100")), ==, done);
    g_assert_cmpstr (label ("overview-status"), ==, done);
    /* Complete: nothing to run. */
    g_assert_false (gtk_widget_is_sensitive (lookup ("overview-run-iso9283")));
  }

  /* pose-rated-50 (30 cycles) stopped with the window's Stop (Esc). */
  g_assert_true (nb_overview_page_select_iso9283 (overview (), "pose-rated-50"));
  settle ();
  runs = nb_overview_page_get_runs (overview ());
  click ("overview-run-iso9283");
  {
    g_autofree char *file = g_strdup_printf ("overview-iso9283-running-%s-light-1280x800.png",
                                             nb_gui_ui_language ());

    snapshot_to (file);
  }
  iterate_until (cycle_shown, db, 240);
  g_action_group_activate_action (G_ACTION_GROUP (fx.gui.window), "stop", NULL);
  iterate_until (ran_9283, GUINT_TO_POINTER (runs), 240);
  {
    guint n = stored_cycles (db, "pose-rated-50");
    g_autofree char *shown = g_strdup_printf (_("%u/%u cycles — %s"), n, 30, _("in progress"));

    g_assert_cmpuint (n, >=, 2);
    g_assert_cmpuint (n, <, 30);
    iterate_until (idle_window, NULL, 60);
    settle ();
    g_assert_cmpstr (row_status (nb_test_gui_find (GTK_WIDGET (list),
                                                   "plan-iso9283-pose-rated-50")), ==, shown);
    g_assert_true (gtk_widget_is_sensitive (lookup ("overview-run-iso9283")));
  }
  {
    g_autofree char *file = g_strdup_printf ("overview-iso9283-%s-light-1280x800.png",
                                             nb_gui_ui_language ());

    snapshot_to (file);
  }
}

int
main (int argc, char **argv)
{
  nb_test_gui_init (&fx.gui, &argc, &argv, "setup.nbc", NULL);
  make_campaign_at (fx.gui.db);
  write_survey ();
  nb_test_gui_new_window (&fx.gui);
  gtk_window_set_default_size (GTK_WINDOW (fx.gui.window), 1280, 800);
  g_signal_connect (lookup ("instrument-page"), "registration-stored", G_CALLBACK (on_stored),
                    NULL);
  g_signal_connect (lookup ("results-page"), "loaded", G_CALLBACK (on_results_loaded), NULL);
  nb_test_gui_open (&fx.gui);

  g_test_add_func ("/gui-setup/overview", test_overview);
  g_test_add_func ("/gui-setup/scope", test_scope);
  g_test_add_func ("/gui-setup/simulator", test_simulator);
  g_test_add_func ("/gui-setup/driver-settings", test_driver_settings);
  g_test_add_func ("/gui-setup/tcp-lost", test_tcp_lost);
  g_test_add_func ("/gui-setup/toast-dismiss", test_toast_dismiss);
  g_test_add_func ("/gui-setup/recording", test_recording);
  g_test_add_func ("/gui-setup/serial-ports", test_serial_ports);
  g_test_add_func ("/gui-setup/registration", test_registration);
  g_test_add_func ("/gui-setup/registration-bad-file", test_registration_bad_file);
  g_test_add_func ("/gui-setup/decision-rule", test_decision_rule);
  g_test_add_func ("/gui-setup/nothing-ellipsized", test_nothing_ellipsized);
  g_test_add_func ("/gui-setup/screenshots", test_screenshots);
  /* Opens another campaign. */
  g_test_add_func ("/gui-setup/trials-figures", test_trials_figures);
  g_test_add_func ("/gui-setup/corner-by-hand", test_corner_by_hand);
  g_test_add_func ("/gui-setup/corner-drag", test_corner_drag);
  g_test_add_func ("/gui-setup/iso9283", test_iso9283);
  {
    int status = g_test_run ();

    g_free (fx.points_csv);
    return nb_test_gui_finish (&fx.gui, status);
  }
}
