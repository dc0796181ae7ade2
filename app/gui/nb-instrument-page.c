/* nb-instrument-page.c — the measurement system live and the frame
 * registration (see nb-instrument-page.h) */
#include "nb-instrument-page.h"

#include "nb-campaign.h"
#include "nb-device.h"
#include "nb-error.h"
#include "nb-gui-paths.h"
#include "nb-registration.h"
#include "nb-transport.h"
#include "nb-window.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define MM_PER_M 1000.0
/* The events drained per tick at most: a 1 kHz instrument gives 50. */
#define MAX_EVENTS_PER_TICK 5000
#define POLL_MS 50
/* The driver settings' field: its name, in its title and in what refuses
 * a setting. */
#define SETTINGS_FIELD N_("Driver settings")
/* The sample rate is counted over this much of the instrument's time. */
#define RATE_WINDOW_S 1.0

struct _NbInstrumentPage {
  AdwBin parent_instance;
  /* From nb-instrument-page.ui. */
  AdwComboRow *source, *driver, *port;
  AdwEntryRow *baud, *url, *settings, *point_name, *point_ix, *point_iy, *point_rx, *point_ry;
  GtkWidget *refresh, *connect, *disconnect, *import, *fit_button, *store, *add;
  GtkLabel *state, *rate, *quality, *position, *samples, *fit_result, *stored, *point_error;
  GtkListBox *points;

  GPtrArray *drivers;           /* const NbDriver *, as the Protocol row lists them */
  GArray *ports;                /* of NbSerialPortInfo */
  NbIoQueue *queue;
  char *path;

  NbDevice *device;
  gboolean lent;                /* a run reads the device's events: not drained here */
  guint poll;
  NbLinkState link;
  char *link_message;
  guint64 n_samples;
  double window_t0;             /* the rate's window: its first sample's time */
  guint64 window_n;             /* samples in it */
  double rate_hz;

  GArray *ref_points;           /* of NbReferencePoint */
  char *points_source;          /* the file imported, or "entered" */
  gboolean have_fit;
  NbRegistrationFit fit;
};

G_DEFINE_FINAL_TYPE (NbInstrumentPage, nb_instrument_page, ADW_TYPE_BIN)

enum { SIGNAL_REGISTRATION_STORED, SIGNAL_DEVICE_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
toast (NbInstrumentPage *page, const char *text)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (page));

  if (NB_IS_WINDOW (root))
    nb_window_toast (NB_WINDOW (root), text);
}

/* ------------------------------------------------------------ source -- */

static NbInstrumentSource
source_of (NbInstrumentPage *page)
{
  return (NbInstrumentSource) adw_combo_row_get_selected (page->source);
}

static void
update_rows (NbInstrumentPage *page)
{
  NbInstrumentSource s = source_of (page);
  gboolean live = page->device != NULL;

  gtk_widget_set_visible (GTK_WIDGET (page->driver), s != NB_SOURCE_SIMULATOR);
  gtk_widget_set_visible (GTK_WIDGET (page->port), s == NB_SOURCE_SERIAL);
  gtk_widget_set_visible (GTK_WIDGET (page->baud), s == NB_SOURCE_SERIAL);
  gtk_widget_set_visible (GTK_WIDGET (page->url), s == NB_SOURCE_URL);
  gtk_widget_set_visible (GTK_WIDGET (page->settings), s != NB_SOURCE_SIMULATOR);
  gtk_widget_set_sensitive (GTK_WIDGET (page->source), !live);
  gtk_widget_set_sensitive (GTK_WIDGET (page->driver), !live);
  gtk_widget_set_sensitive (GTK_WIDGET (page->port), !live);
  gtk_widget_set_sensitive (GTK_WIDGET (page->baud), !live);
  gtk_widget_set_sensitive (GTK_WIDGET (page->url), !live);
  gtk_widget_set_sensitive (GTK_WIDGET (page->settings), !live);
  gtk_widget_set_sensitive (page->connect, !live);
  /* The run measures with it: kept until the run has ended. */
  gtk_widget_set_sensitive (page->disconnect, live && !page->lent);
}

guint
nb_instrument_page_refresh_ports (NbInstrumentPage *page)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  GArray *ports = nb_transport_list_serial_ports (&error);

  g_clear_pointer (&page->ports, g_array_unref);
  page->ports = ports;
  if (ports == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The serial ports could not be listed: %s"),
                                               error->message);

      toast (page, text);
    }
  for (guint i = 0; ports != NULL && i < ports->len; i++)
    {
      const NbSerialPortInfo *p = &g_array_index (ports, NbSerialPortInfo, i);
      g_autofree char *text = p->description ? g_strdup_printf ("%s — %s", p->name, p->description)
                                             : g_strdup (p->name);

      gtk_string_list_append (names, text);
    }
  adw_combo_row_set_model (page->port, G_LIST_MODEL (names));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (page->port),
                               ports != NULL && ports->len > 0 ? ""
                               : _("No serial port found: plug the instrument in, then refresh."));
  return ports != NULL ? ports->len : 0;
}

gboolean
nb_instrument_page_select_driver (NbInstrumentPage *page, const char *name)
{
  for (guint i = 0; i < page->drivers->len; i++)
    if (g_str_equal (((const NbDriver *) g_ptr_array_index (page->drivers, i))->name, name))
      {
        adw_combo_row_set_selected (page->driver, i);
        return TRUE;
      }
  return FALSE;
}

/* -------------------------------------------------------------- live -- */

static void
show_state (NbInstrumentPage *page)
{
  const char *words;

  switch (page->link)
    {
    case NB_LINK_CONNECTING: words = _("Connecting…"); break;
    case NB_LINK_CONNECTED: words = _("Connected"); break;
    case NB_LINK_LOST: words = _("Lost — reconnecting"); break;
    case NB_LINK_ENDED: words = _("The recording has ended"); break;
    case NB_LINK_FAILED: words = _("Failed"); break;
    case NB_LINK_DISCONNECTED:
    default: words = _("Not connected"); break;
    }
  /* The run's worker reads the samples now; the Run page shows them. */
  if (page->lent)
    words = _("Measuring the run");
  /* The driver's own words are the tooltip and the toast (the link's
   * messages in the window's language, nb_gui_message_text). */
  gtk_label_set_text (page->state, words);
  gtk_widget_set_tooltip_text (GTK_WIDGET (page->state),
                               page->link == NB_LINK_LOST || page->link == NB_LINK_FAILED
                               ? page->link_message : NULL);
  gtk_widget_remove_css_class (GTK_WIDGET (page->state), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (page->state), "success");
  if (page->link == NB_LINK_LOST || page->link == NB_LINK_FAILED)
    gtk_widget_add_css_class (GTK_WIDGET (page->state), "error");
  else if (page->link == NB_LINK_CONNECTED)
    gtk_widget_add_css_class (GTK_WIDGET (page->state), "success");
}

static void
set_link (NbInstrumentPage *page, NbLinkState link, const char *message)
{
  gboolean was_live = page->link == NB_LINK_CONNECTED;

  page->link = link;
  g_free (page->link_message);
  page->link_message = nb_gui_message_text (message);
  show_state (page);
  if (link == NB_LINK_LOST && was_live)
    {
      g_autofree char *text = g_strdup_printf (_("The instrument is lost: %s"),
                                               page->link_message ? page->link_message
                                                                  : _("no data"));

      toast (page, text);
    }
}

/* nb-sample.h's kinds of position, in words. */
static const char *
fix_words (NbFixType fix)
{
  switch (fix)
    {
    case NB_FIX_GNSS: return _("GNSS");
    case NB_FIX_DGNSS: return _("differential GNSS");
    case NB_FIX_PPS: return _("precise GNSS (PPS)");
    case NB_FIX_RTK_FIXED: return _("RTK fixed");
    case NB_FIX_RTK_FLOAT: return _("RTK float");
    case NB_FIX_ESTIMATED: return _("dead reckoning");
    case NB_FIX_MANUAL: return _("entered by hand");
    case NB_FIX_SIMULATED: return _("simulated");
    case NB_FIX_TRACKED: return _("tracked");
    case NB_FIX_NONE:
    default: return _("no position");
    }
}

static const char *
tracking_words (NbTracking tracking)
{
  return tracking == NB_TRACKING_OK ? _("target locked")
         : tracking == NB_TRACKING_LOST ? _("target lost") : _("lock not reported");
}

static void
show_sample (NbInstrumentPage *page, const NbSample *s)
{
  g_autofree char *position = NULL, *quality = NULL, *count = NULL;
  g_autofree char *rms = NULL;
  double heading = nb_sample_heading_deg (s);

  if (isfinite (s->z_m))
    position = g_strdup_printf (_("x %.1f mm, y %.1f mm, z %.1f mm"), s->x_m * MM_PER_M,
                                s->y_m * MM_PER_M, s->z_m * MM_PER_M);
  else
    position = g_strdup_printf (_("x %.1f mm, y %.1f mm"), s->x_m * MM_PER_M, s->y_m * MM_PER_M);
  if (isfinite (heading))
    {
      char *with = g_strdup_printf (_("%s, θ %.2f°"), position, heading);

      g_free (position);
      position = with;
    }
  rms = isfinite (s->rms_m) ? g_strdup_printf (_(", σ %.1f mm"), s->rms_m * MM_PER_M)
                            : g_strdup ("");
  quality = g_strdup_printf (_("%s, %s%s"), fix_words (s->fix), tracking_words (s->tracking),
                             rms);
  count = g_strdup_printf ("%" G_GUINT64_FORMAT, page->n_samples);
  gtk_label_set_text (page->position, position);
  gtk_label_set_text (page->quality, quality);
  gtk_label_set_text (page->samples, count);
}

static void
count_rate (NbInstrumentPage *page, double t)
{
  if (page->window_n == 0)
    {
      page->window_t0 = t;
      page->window_n = 1;
      return;
    }
  page->window_n++;
  /* The rate of the samples' own times: (n − 1) intervals over the span. */
  if (t - page->window_t0 >= RATE_WINDOW_S)
    {
      g_autofree char *text = NULL;

      page->rate_hz = (double) (page->window_n - 1) / (t - page->window_t0);
      text = g_strdup_printf (_("%.1f Hz"), page->rate_hz);
      gtk_label_set_text (page->rate, text);
      page->window_t0 = t;
      page->window_n = 1;
    }
}

static gboolean
poll_device (gpointer user_data)
{
  NbInstrumentPage *page = user_data;
  NbSample last;
  gboolean have = FALSE;
  NbEvent ev;

  for (guint i = 0; i < MAX_EVENTS_PER_TICK && page->device != NULL &&
                    nb_device_next (page->device, 0, &ev); i++)
    {
      switch (ev.kind)
        {
        case NB_EVENT_SAMPLE:
          page->n_samples++;
          count_rate (page, ev.sample.t_s);
          last = ev.sample;
          have = TRUE;
          if (page->link != NB_LINK_CONNECTED)
            set_link (page, NB_LINK_CONNECTED, NULL);
          break;
        case NB_EVENT_CONNECTED:
          set_link (page, NB_LINK_CONNECTED, NULL);
          break;
        case NB_EVENT_LOST:
          set_link (page, NB_LINK_LOST, ev.message);
          page->window_n = 0;
          gtk_label_set_text (page->rate, "—");
          break;
        case NB_EVENT_END:
          set_link (page, NB_LINK_ENDED, NULL);
          break;
        case NB_EVENT_ERROR:
          set_link (page, NB_LINK_FAILED, ev.message);
          break;
        case NB_EVENT_NOTE:
        default:
          break;
        }
      nb_event_clear (&ev);
    }
  if (have)
    show_sample (page, &last);
  return G_SOURCE_CONTINUE;
}

static void
stop_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  /* nb_device_stop joins the worker (up to ~100 ms): not on the GTK thread. */
  nb_device_free (data);
  g_task_return_boolean (task, TRUE);
}

void
nb_instrument_page_disconnect (NbInstrumentPage *page)
{
  g_autoptr (GTask) task = NULL;

  if (page->lent)
    {
      toast (page, _("A run is measuring with the instrument: stop the run first."));
      return;
    }
  g_clear_handle_id (&page->poll, g_source_remove);
  if (page->device != NULL)
    {
      task = g_task_new (NULL, NULL, NULL, NULL);
      g_task_set_task_data (task, g_steal_pointer (&page->device), NULL);
      g_task_run_in_thread (task, stop_in_thread);
    }
  set_link (page, NB_LINK_DISCONNECTED, NULL);
  gtk_label_set_text (page->rate, "—");
  update_rows (page);
  if (task != NULL)
    g_signal_emit (page, signals[SIGNAL_DEVICE_CHANGED], 0);
}

static NbDevice *
make_device (NbInstrumentPage *page, GError **error)
{
  NbInstrumentSource s = source_of (page);
  guint d = adw_combo_row_get_selected (page->driver);
  const NbDriver *driver = d < page->drivers->len ? g_ptr_array_index (page->drivers, d) : NULL;
  g_autoptr (NbDevice) device = NULL;

  if (s == NB_SOURCE_SIMULATOR)
    return nb_device_new ("sim", error);
  if (driver == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, _("Choose the instrument's protocol."));
      return NULL;
    }
  if ((device = nb_device_new (driver->name, error)) == NULL)
    return NULL;
  if (s == NB_SOURCE_SERIAL)
    {
      guint p = adw_combo_row_get_selected (page->port);
      g_autofree char *baud = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (page->baud))));

      if (page->ports == NULL || p >= page->ports->len)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, _("No serial port is chosen."));
          return NULL;
        }
      if (!nb_device_configure (device, "port", g_array_index (page->ports, NbSerialPortInfo, p).name,
                                error) ||
          (baud[0] != '\0' && !nb_device_configure (device, "baud", baud, error)))
        return NULL;
    }
  else
    {
      g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (page->url))));

      if (url[0] == '\0')
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       _("Give the instrument's URL: tcp://host:port or udp://group:port."));
          return NULL;
        }
      if (!nb_device_configure (device, "url", url, error))
        return NULL;
      /* A recording plays at its own pace, as the instrument gave it. */
      if (nb_transport_kind_of (url) == NB_TRANSPORT_FILE &&
          !nb_device_configure (device, "pace", "recorded", error))
        return NULL;
    }
  /* The driver's own settings, KEY=VALUE as `acquire --set` takes them (a
   * NatNet server's version, the rigid body's id, a latency…), each
   * refused in the window's words naming the field, not the CLI's
   * ("--set 'x' is not KEY=VALUE"). */
  {
    g_auto (GStrv) settings = g_strsplit_set (gtk_editable_get_text (GTK_EDITABLE (page->settings)),
                                              " \t", -1);

    for (guint i = 0; settings[i] != NULL; i++)
      {
        const char *eq = strchr (settings[i], '=');
        g_autofree char *key = NULL;
        g_autoptr (GError) refused = NULL;

        if (settings[i][0] == '\0')
          continue;
        if (eq == NULL || eq == settings[i])
          {
            /* TRANSLATORS: a driver setting typed without its KEY=; the
             * field's name, then an example. */
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                         _("“%s” in the field “%s” is not a setting: write KEY=VALUE, as %s"),
                         settings[i], _(SETTINGS_FIELD), "version=3.1");
            return NULL;
          }
        key = g_strndup (settings[i], (gsize) (eq - settings[i]));
        if (!nb_device_configure (device, key, eq + 1, &refused))
          {
            g_autofree char *why = nb_gui_message_text (refused->message);

            /* TRANSLATORS: the setting, the field's name, the driver's
             * refusal. */
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT, _("“%s” in the field “%s”: %s"),
                         settings[i], _(SETTINGS_FIELD), why);
            return NULL;
          }
      }
  }
  return g_steal_pointer (&device);
}

void
nb_instrument_page_connect (NbInstrumentPage *page)
{
  g_autoptr (GError) error = NULL;
  NbDevice *device;

  if (page->device != NULL)
    return;
  if ((device = make_device (page, &error)) == NULL || !nb_device_start (device, &error))
    {
      g_autofree char *why = nb_gui_message_text (error->message);
      g_autofree char *text = g_strdup_printf (_("The instrument could not be started: %s"),
                                               why);

      if (device != NULL)
        nb_device_free (device);
      set_link (page, NB_LINK_FAILED, error->message);
      toast (page, text);
      return;
    }
  page->device = device;
  page->n_samples = 0;
  page->window_n = 0;
  page->rate_hz = NAN;
  gtk_label_set_text (page->rate, "—");
  gtk_label_set_text (page->quality, "—");
  gtk_label_set_text (page->position, "—");
  gtk_label_set_text (page->samples, "0");
  set_link (page, NB_LINK_CONNECTING, NULL);
  page->poll = g_timeout_add (POLL_MS, poll_device, page);
  update_rows (page);
  /* The Run page measures a real robot with it (nb-window.c). */
  g_signal_emit (page, signals[SIGNAL_DEVICE_CHANGED], 0);
}

NbDevice *
nb_instrument_page_get_device (NbInstrumentPage *page)
{
  return page->device;
}

void
nb_instrument_page_set_lent (NbInstrumentPage *page, gboolean lent)
{
  if (page->lent == lent)
    return;
  page->lent = lent;
  /* One reader of the device's events at a time: the run's worker, or
   * this page's poll. */
  if (lent)
    g_clear_handle_id (&page->poll, g_source_remove);
  else if (page->device != NULL && page->poll == 0)
    {
      /* The rate is counted afresh: the run's samples were not seen here. */
      page->window_n = 0;
      page->poll = g_timeout_add (POLL_MS, poll_device, page);
    }
  show_state (page);
  update_rows (page);
}

gboolean
nb_instrument_page_get_lent (NbInstrumentPage *page)
{
  return page->lent;
}

NbLinkState
nb_instrument_page_get_state (NbInstrumentPage *page)
{
  return page->link;
}

guint64
nb_instrument_page_get_samples (NbInstrumentPage *page)
{
  return page->n_samples;
}

/* ------------------------------------------------------ registration -- */

static void
show_points (NbInstrumentPage *page)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (page->points))) != NULL)
    gtk_list_box_remove (page->points, child);
  for (guint i = 0; page->ref_points != NULL && i < page->ref_points->len; i++)
    {
      const NbReferencePoint *p = &g_array_index (page->ref_points, NbReferencePoint, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *residual = gtk_label_new ("—");
      g_autofree char *sub = g_strdup_printf (_("instrument %.1f, %.1f mm → test area %.1f, %.1f mm"),
                                              p->instrument_m[0] * MM_PER_M,
                                              p->instrument_m[1] * MM_PER_M,
                                              p->reference_m[0] * MM_PER_M,
                                              p->reference_m[1] * MM_PER_M);
      g_autofree char *name = g_strdup_printf ("residual-%s", p->name);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), p->name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), sub);
      gtk_widget_set_name (residual, name);
      gtk_widget_add_css_class (residual, "numeric");
      if (page->have_fit && i < page->fit.registration.n_points)
        {
          g_autofree char *text = g_strdup_printf (_("%.3f mm"), page->fit.residuals_m[i] * MM_PER_M);

          gtk_label_set_text (GTK_LABEL (residual), text);
        }
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), residual);
      gtk_list_box_append (page->points, row);
    }
  if (page->ref_points == NULL || page->ref_points->len == 0)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                     _("No points yet: import a survey or enter them."));
      gtk_list_box_append (page->points, row);
    }
  gtk_widget_set_sensitive (page->fit_button, page->ref_points != NULL && page->ref_points->len >= 3);
  gtk_widget_set_sensitive (page->store, page->have_fit && page->path != NULL);
}

static void
forget_fit (NbInstrumentPage *page)
{
  if (page->have_fit)
    nb_registration_fit_clear (&page->fit);
  page->have_fit = FALSE;
  if (page->fit_result != NULL)
    gtk_label_set_text (page->fit_result, "—");
}

static GArray *
new_points (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (NbReferencePoint));

  g_array_set_clear_func (a, (GDestroyNotify) nb_reference_point_clear);
  return a;
}

gboolean
nb_instrument_page_import_points (NbInstrumentPage *page, const char *path, GError **error)
{
  g_autoptr (GError) local = NULL;
  GArray *points = nb_reference_points_read (path, 2, &local);

  if (points == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The points could not be read: %s"),
                                               local->message);

      toast (page, text);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  forget_fit (page);
  g_clear_pointer (&page->ref_points, g_array_unref);
  page->ref_points = points;
  g_free (page->points_source);
  page->points_source = g_path_get_basename (path);
  show_points (page);
  return TRUE;
}

gboolean
nb_instrument_page_fit (NbInstrumentPage *page, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = NULL;
  char rms[32], max[32];

  forget_fit (page);
  if (page->ref_points == NULL ||
      !nb_registration_fit ((const NbReferencePoint *) page->ref_points->data,
                            page->ref_points->len, 2, page->points_source, &page->fit, &local))
    {
      g_autofree char *msg = g_strdup_printf (_("No fit: %s"),
                                              local ? local->message : _("no points"));

      gtk_label_set_text (page->fit_result, msg);
      show_points (page);
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "no points");
      return FALSE;
    }
  page->have_fit = TRUE;
  g_snprintf (rms, sizeof rms, "%.3f", page->fit.registration.rms_m * MM_PER_M);
  g_snprintf (max, sizeof max, "%.3f", nb_registration_max_m (&page->fit.registration) * MM_PER_M);
  text = g_strdup_printf (_("RMS %s mm, max %s mm; rotation %.4f°"), rms, max,
                          nb_rigid_yaw_deg (&page->fit.registration.transform));
  gtk_label_set_text (page->fit_result, text);
  show_points (page);
  return TRUE;
}

guint
nb_instrument_page_get_n_points (NbInstrumentPage *page)
{
  return page->ref_points ? page->ref_points->len : 0;
}

static gboolean
entry_number (AdwEntryRow *row, double *v)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
  char *end;

  /* Either decimal separator. */
  g_strdelimit (text, ",", '.');
  *v = g_ascii_strtod (text, &end);
  return text[0] != '\0' && *end == '\0' && isfinite (*v);
}

static void
on_add (GtkButton *button, gpointer user_data)
{
  NbInstrumentPage *page = user_data;
  AdwEntryRow *rows[] = { page->point_ix, page->point_iy, page->point_rx, page->point_ry };
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (page->point_name))));
  double v[4];
  NbReferencePoint p = { NULL, { 0, 0, 0 }, { 0, 0, 0 } };

  gtk_widget_set_visible (GTK_WIDGET (page->point_error), FALSE);
  if (name[0] == '\0')
    {
      gtk_label_set_text (page->point_error, _("The point needs a name."));
      gtk_widget_set_visible (GTK_WIDGET (page->point_error), TRUE);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    if (!entry_number (rows[i], &v[i]))
      {
        g_autofree char *text = g_strdup_printf (_("%s: not a number"),
                                                 adw_preferences_row_get_title (ADW_PREFERENCES_ROW (rows[i])));

        gtk_label_set_text (page->point_error, text);
        gtk_widget_set_visible (GTK_WIDGET (page->point_error), TRUE);
        return;
      }
  p.name = g_steal_pointer (&name);
  p.instrument_m[0] = v[0] / MM_PER_M;
  p.instrument_m[1] = v[1] / MM_PER_M;
  p.reference_m[0] = v[2] / MM_PER_M;
  p.reference_m[1] = v[3] / MM_PER_M;
  if (page->ref_points == NULL)
    page->ref_points = new_points ();
  g_array_append_val (page->ref_points, p);
  if (page->points_source == NULL)
    page->points_source = g_strdup (_("entered by hand"));
  forget_fit (page);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    gtk_editable_set_text (GTK_EDITABLE (rows[i]), "");
  gtk_editable_set_text (GTK_EDITABLE (page->point_name), "");
  show_points (page);
}

/* The campaign's registration, as it is stored. */
typedef struct {
  char *path;
  NbRegistrationFit *fit;       /* NULL: only read */
} StoreJob;

static void
store_job_free (gpointer p)
{
  StoreJob *job = p;

  g_free (job->path);
  if (job->fit != NULL)
    {
      nb_registration_fit_clear (job->fit);
      g_free (job->fit);
    }
  g_free (job);
}

static gpointer
store_work (gpointer data, GError **error)
{
  StoreJob *job = data;
  g_autoptr (NbCampaign) campaign = nb_campaign_open (job->path, job->fit ? 0
                                                      : NB_CAMPAIGN_OPEN_READ_ONLY, error);
  g_autofree char *method = NULL, *rms = NULL, *max = NULL;

  if (campaign == NULL ||
      (job->fit != NULL && !nb_registration_store (campaign, &job->fit->registration, error)))
    return NULL;
  {
    g_autoptr (GError) local = NULL;

    method = nb_campaign_get_field (campaign, "instrument.registration", &local);
    if (local == NULL)
      rms = nb_campaign_get_field (campaign, "instrument.registration_rms_mm", &local);
    if (local == NULL)
      max = nb_campaign_get_field (campaign, "instrument.registration_max_mm", &local);
    if (local != NULL)
      {
        g_propagate_error (error, g_steal_pointer (&local));
        return NULL;
      }
  }
  if (!nb_campaign_close (g_steal_pointer (&campaign), error))
    return NULL;
  if (method == NULL || rms == NULL || max == NULL)
    return g_strdup (_("none stored yet"));
  /* The figures in the window's language; the stored method (the
   * protocol's text) is the tooltip. */
  return g_strdup_printf (_("RMS %.3f mm, max %.3f mm\n%s"), g_ascii_strtod (rms, NULL),
                          g_ascii_strtod (max, NULL), method);
}

static void
store_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbInstrumentPage *page = NB_INSTRUMENT_PAGE (owner);
  StoreJob *job = data;

  /* Disposed (the window went): a job keeps its owner, not its widgets. */
  if (g_strcmp0 (job->path, page->path) != 0 || page->stored == NULL)
    return;
  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf (job->fit ? _("The registration could not be "
                                                            "stored: %s")
                                                        : _("The registration could not be "
                                                            "read: %s"), error->message);

      toast (page, text);
    }
  else
    {
      g_auto (GStrv) parts = g_strsplit (*result, "\n", 2);

      gtk_label_set_text (page->stored, parts[0]);
      gtk_widget_set_tooltip_text (GTK_WIDGET (page->stored), parts[1]);
      if (job->fit != NULL)
        toast (page, _("Registration stored: the runner maps every sample with it."));
    }
  if (job->fit != NULL)
    g_signal_emit (page, signals[SIGNAL_REGISTRATION_STORED], 0, error == NULL);
}

static void
push_store (NbInstrumentPage *page, gboolean write)
{
  StoreJob *job = g_new0 (StoreJob, 1);

  job->path = g_strdup (page->path);
  if (write)
    {
      /* A copy: the page may fit again before the job runs. */
      job->fit = g_new0 (NbRegistrationFit, 1);
      if (!nb_registration_fit ((const NbReferencePoint *) page->ref_points->data,
                                page->ref_points->len, 2, page->points_source, job->fit, NULL))
        {
          store_job_free (job);
          return;
        }
    }
  nb_io_queue_push (page->queue, G_OBJECT (page), store_work, store_done, job, store_job_free,
                    g_free);
}

void
nb_instrument_page_store (NbInstrumentPage *page)
{
  if (page->path == NULL || !page->have_fit)
    return;
  push_store (page, TRUE);
}

void
nb_instrument_page_set_campaign (NbInstrumentPage *page, const char *path)
{
  g_free (page->path);
  page->path = g_strdup (path);
  gtk_label_set_text (page->stored, "—");
  if (path != NULL)
    push_store (page, FALSE);
  show_points (page);
}

/* ------------------------------------------------------------ import -- */

static void
on_import_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  NbInstrumentPage *page = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        nb_instrument_page_import_points (page, path, NULL);
    }
  g_object_unref (dialog);
}

static void
on_import (GtkButton *button, gpointer user_data)
{
  NbInstrumentPage *page = user_data;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (page));
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("Import Surveyed Points"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _("_Import"), _("_Cancel"));
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Survey points (CSV)"));
  gtk_file_filter_add_pattern (filter, "*.csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_signal_connect (dialog, "response", G_CALLBACK (on_import_response), page);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
on_fit (GtkButton *button, gpointer user_data)
{
  nb_instrument_page_fit (user_data, NULL);
}

static void
on_store (GtkButton *button, gpointer user_data)
{
  nb_instrument_page_store (user_data);
}

static void
on_connect (GtkButton *button, gpointer user_data)
{
  nb_instrument_page_connect (user_data);
}

static void
on_disconnect (GtkButton *button, gpointer user_data)
{
  nb_instrument_page_disconnect (user_data);
}

static void
on_refresh (GtkButton *button, gpointer user_data)
{
  nb_instrument_page_refresh_ports (user_data);
}

static void
on_source (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  NbInstrumentPage *page = user_data;

  /* The first look at the ports when the serial source is chosen. */
  if (source_of (page) == NB_SOURCE_SERIAL && page->ports == NULL)
    nb_instrument_page_refresh_ports (page);
  update_rows (page);
}

/* -------------------------------------------------------------- life -- */

static void
nb_instrument_page_init (NbInstrumentPage *page)
{
  g_autoptr (GtkStringList) sources = gtk_string_list_new (NULL);
  g_autoptr (GtkStringList) drivers = gtk_string_list_new (NULL);
  const NbDriver *const *list;
  guint n;

  gtk_widget_init_template (GTK_WIDGET (page));
  {
    /* TRANSLATORS: the driver settings' field: its name, then how they are
     * written (KEY=VALUE as the CLI's --set; the keys are the drivers'). */
    g_autofree char *title = g_strdup_printf (_("%s: KEY=VALUE … (version=3.1 body=2)"),
                                              _(SETTINGS_FIELD));

    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (page->settings), title);
  }
  gtk_string_list_append (sources, _("Simulator"));
  gtk_string_list_append (sources, _("Serial port"));
  gtk_string_list_append (sources, _("Network (URL)"));
  adw_combo_row_set_model (page->source, G_LIST_MODEL (sources));
  page->drivers = g_ptr_array_new ();
  list = nb_driver_list (&n);
  for (guint i = 0; i < n; i++)
    if (list[i]->needs_transport)
      {
        g_autofree char *text = g_strdup_printf ("%s — %s", list[i]->name, _(list[i]->summary));

        g_ptr_array_add (page->drivers, (gpointer) list[i]);
        gtk_string_list_append (drivers, text);
      }
  adw_combo_row_set_model (page->driver, G_LIST_MODEL (drivers));
  g_signal_connect (page->source, "notify::selected", G_CALLBACK (on_source), page);
  g_signal_connect (page->connect, "clicked", G_CALLBACK (on_connect), page);
  g_signal_connect (page->disconnect, "clicked", G_CALLBACK (on_disconnect), page);
  g_signal_connect (page->refresh, "clicked", G_CALLBACK (on_refresh), page);
  g_signal_connect (page->import, "clicked", G_CALLBACK (on_import), page);
  g_signal_connect (page->fit_button, "clicked", G_CALLBACK (on_fit), page);
  g_signal_connect (page->store, "clicked", G_CALLBACK (on_store), page);
  g_signal_connect (page->add, "clicked", G_CALLBACK (on_add), page);
  page->link = NB_LINK_DISCONNECTED;
  show_state (page);
  show_points (page);
  update_rows (page);
}

static void
nb_instrument_page_dispose (GObject *object)
{
  NbInstrumentPage *page = NB_INSTRUMENT_PAGE (object);

  g_clear_handle_id (&page->poll, g_source_remove);
  g_clear_pointer (&page->device, nb_device_free);
  /* AdwBin unparents its child itself: first, so the template's root is
   * not unparented twice. */
  adw_bin_set_child (ADW_BIN (object), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (object), NB_TYPE_INSTRUMENT_PAGE);
  G_OBJECT_CLASS (nb_instrument_page_parent_class)->dispose (object);
}

static void
nb_instrument_page_finalize (GObject *object)
{
  NbInstrumentPage *page = NB_INSTRUMENT_PAGE (object);

  forget_fit (page);
  g_clear_pointer (&page->drivers, g_ptr_array_unref);
  g_clear_pointer (&page->ports, g_array_unref);
  g_clear_pointer (&page->ref_points, g_array_unref);
  g_free (page->points_source);
  g_free (page->link_message);
  g_free (page->path);
  g_clear_pointer (&page->queue, nb_io_queue_unref);
  G_OBJECT_CLASS (nb_instrument_page_parent_class)->finalize (object);
}

static void
nb_instrument_page_class_init (NbInstrumentPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nb_instrument_page_dispose;
  object_class->finalize = nb_instrument_page_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/navbench/Navbench/nb-instrument-page.ui");
#define BIND(member) gtk_widget_class_bind_template_child (widget_class, NbInstrumentPage, member)
  BIND (source); BIND (driver); BIND (port); BIND (baud); BIND (url); BIND (settings);
  BIND (point_name); BIND (point_ix); BIND (point_iy); BIND (point_rx); BIND (point_ry);
  BIND (refresh); BIND (connect); BIND (disconnect); BIND (import); BIND (fit_button); BIND (store);
  BIND (add); BIND (state); BIND (rate); BIND (quality); BIND (position); BIND (samples);
  BIND (fit_result); BIND (stored); BIND (point_error); BIND (points);
#undef BIND
  signals[SIGNAL_REGISTRATION_STORED] =
    g_signal_new ("registration-stored", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  signals[SIGNAL_DEVICE_CHANGED] =
    g_signal_new ("device-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 0);
}

GtkWidget *
nb_instrument_page_new (NbIoQueue *queue)
{
  NbInstrumentPage *page = g_object_new (NB_TYPE_INSTRUMENT_PAGE, NULL);

  page->queue = nb_io_queue_ref (queue);
  return GTK_WIDGET (page);
}
