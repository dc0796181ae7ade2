#include "nb-window.h"

#include "nb-application.h"
#include "nb-campaign.h"
#include "nb-campaign-form.h"
#include "nb-gui-paths.h"
#include "nb-instrument-page.h"
#include "nb-io-queue.h"
#include "nb-protocol-page.h"
#include "nb-motion-page.h"
#include "nb-results-page.h"
#include "nb-toasts.h"
#include "nb-overview-page.h"
#include "nb-trials-page.h"

#include <glib/gi18n.h>
#include <string.h>

/* Recent campaigns kept in the settings and in the menu. */
#define N_RECENT 10

struct _NbWindow {
  AdwApplicationWindow parent_instance;
  /* From nb-window.ui. */
  AdwToastOverlay *toasts;
  GtkWidget *toast_room;        /* below the pages while a toast is shown */
  AdwViewSwitcherTitle *switcher_title;
  AdwViewStack *stack;
  GMenu *recent_menu;
  GtkWidget *stop_button;

  GtkWidget *form, *trials, *results, *motion;
  GtkWidget *protocol;          /* nb-protocol-page: the PDF and CSV written in-process */
  GtkWidget *overview, *instrument;
  GSettings *settings;
  NbIoQueue *queue;
  char *path;
  char *last_message;
  AdwMessageDialog *dialog;     /* the question shown now, or NULL */
  guint inhibit;                /* the suspend inhibitor while a run goes on */
  gboolean closing;             /* closing was confirmed: goes when the run has ended */
  guint n_toasts;               /* toasts added and not dismissed (shown or queued) */
  gboolean disposed;
};

G_DEFINE_FINAL_TYPE (NbWindow, nb_window, ADW_TYPE_APPLICATION_WINDOW)

enum { SIGNAL_CAMPAIGN_LOADED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The room below the pages: as tall as the toast shown (its margins
 * included) while there is one, so that it lies in the room and not over a
 * page (libadwaita 1.2's overlay puts its toast at its foot, over its
 * child).  The toast shown is the overlay's last child (a toast's widget
 * is added after the child; one hiding stays before it until it has
 * faded).  A toast queued keeps the room of the one before. */
static void
update_toast_room (NbWindow *window)
{
  GtkWidget *last = gtk_widget_get_last_child (GTK_WIDGET (window->toasts));

  if (window->n_toasts == 0)
    {
      gtk_widget_set_visible (window->toast_room, FALSE);
      return;
    }
  if (last != NULL && last != adw_toast_overlay_get_child (window->toasts))
    {
      int min = 0, nat = 0;

      gtk_widget_measure (last, GTK_ORIENTATION_VERTICAL, -1, &min, &nat, NULL, NULL);
      gtk_widget_set_size_request (window->toast_room, -1, nat);
    }
  gtk_widget_set_visible (window->toast_room, TRUE);
}

/* After the overlay's own handler (connected first): the next toast, if
 * any, is shown by then. */
static void
on_toast_dismissed (AdwToast *toast, NbWindow *window)
{
  if (window->disposed)
    return;
  g_return_if_fail (window->n_toasts > 0);
  window->n_toasts--;
  update_toast_room (window);
}

void
nb_window_toast (NbWindow *window, const char *text)
{
  AdwToast *toast = adw_toast_new (text);

  g_free (window->last_message);
  window->last_message = g_strdup (text);
  adw_toast_set_timeout (toast, 5);
  /* Never dismissed from here; nb_toasts_add holds back a dismissal that
   * comes during the show (libadwaita 1.2 reads freed memory then). */
  nb_toasts_add (window->toasts, toast);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_toast_dismissed), window, 0);
  window->n_toasts++;
  update_toast_room (window);
}

const char *
nb_window_get_last_message (NbWindow *window)
{
  return window->last_message;
}

static gboolean
is_running (NbWindow *window)
{
  return nb_trials_page_is_running (NB_TRIALS_PAGE (window->trials)) ||
         nb_motion_page_is_running (NB_MOTION_PAGE (window->motion)) ||
         nb_overview_page_is_running (NB_OVERVIEW_PAGE (window->overview));
}

static void
update_actions (NbWindow *window)
{
  gboolean running = is_running (window);
  gboolean have = window->path != NULL;
  struct { const char *name; gboolean enabled; } states[] = {
    { "new", !running }, { "open", !running }, { "open-recent", !running },
    /* Enabled during a run: asked then, it says why not (on_protocol). */
    { "protocol", have },
    { "run", have && !running }, { "stop", running },
  };

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    {
      GAction *a = g_action_map_lookup_action (G_ACTION_MAP (window), states[i].name);

      g_simple_action_set_enabled (G_SIMPLE_ACTION (a), states[i].enabled);
    }
  /* The runner holds the campaign's write lock while it runs. */
  gtk_widget_set_sensitive (window->form, have && !running);
  nb_overview_page_set_can_run (NB_OVERVIEW_PAGE (window->overview), have && !running);
}

/* ------------------------------------------------------------ dialogs -- */

typedef void (*AnswerFunc) (NbWindow *window, gboolean yes, gpointer data);

typedef struct {
  NbWindow *window;
  AnswerFunc func;
  gpointer data;
  GDestroyNotify data_free;
} Question;

static void
on_question_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  Question *q = user_data;

  if (q->window->dialog == dialog)
    q->window->dialog = NULL;
  q->func (q->window, g_str_equal (response, "yes"), q->data);
  if (q->data_free != NULL)
    q->data_free (q->data);
  g_object_unref (q->window);
  g_free (q);
}

/* A question with Cancel and a yes button (destructive when it loses
 * something); func hears the answer. */
static void
ask (NbWindow *window, const char *heading, const char *body, const char *yes,
     gboolean destructive, AnswerFunc func, gpointer data, GDestroyNotify data_free)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (window), heading, body);
  Question *q = g_new0 (Question, 1);

  q->window = g_object_ref (window);
  q->func = func;
  q->data = data;
  q->data_free = data_free;
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "yes", yes, NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "yes",
                                              destructive ? ADW_RESPONSE_DESTRUCTIVE
                                                          : ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (on_question_response), q);
  window->dialog = ADW_MESSAGE_DIALOG (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

AdwMessageDialog *
nb_window_get_dialog (NbWindow *window)
{
  return window->dialog ? window->dialog
                        : nb_protocol_page_get_dialog (NB_PROTOCOL_PAGE (window->protocol));
}

/* ------------------------------------------------------------- recent -- */

static void
rebuild_recent_menu (NbWindow *window)
{
  g_auto (GStrv) recent = g_settings_get_strv (window->settings, "recent-campaigns");

  g_menu_remove_all (window->recent_menu);
  for (guint i = 0; recent[i] != NULL; i++)
    {
      g_autofree char *base = g_path_get_basename (recent[i]);
      g_autoptr (GMenuItem) item = g_menu_item_new (base, NULL);

      g_menu_item_set_action_and_target_value (item, "win.open-recent",
                                               g_variant_new_string (recent[i]));
      g_menu_append_item (window->recent_menu, item);
    }
}

static void
remember_recent (NbWindow *window, const char *path)
{
  g_auto (GStrv) recent = g_settings_get_strv (window->settings, "recent-campaigns");
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_auto (GStrv) list = NULL;
  guint n = 1;

  g_strv_builder_add (b, path);
  for (guint i = 0; recent[i] != NULL && n < N_RECENT; i++)
    if (!g_str_equal (recent[i], path))
      {
        g_strv_builder_add (b, recent[i]);
        n++;
      }
  list = g_strv_builder_end (b);
  g_settings_set_strv (window->settings, "recent-campaigns", (const char *const *) list);
}

/* ------------------------------------------------------------ opening -- */

typedef struct {
  char *path;
  gboolean create;
} OpenJob;

static void
open_job_free (gpointer p)
{
  OpenJob *job = p;

  g_free (job->path);
  g_free (job);
}

/* The campaign's name (created first when asked). */
static gpointer
open_work (gpointer data, GError **error)
{
  OpenJob *job = data;
  g_autoptr (NbCampaign) campaign = NULL;
  char *name;

  if (job->create)
    {
      g_autofree char *base = g_path_get_basename (job->path);
      char *dot = strrchr (base, '.');

      if (dot != NULL && dot != base)
        *dot = '\0';
      campaign = nb_campaign_create (job->path, base, error);
    }
  else
    campaign = nb_campaign_open (job->path, NB_CAMPAIGN_OPEN_READ_ONLY, error);
  if (campaign == NULL || (name = nb_campaign_get_name (campaign, error)) == NULL)
    return NULL;
  if (!nb_campaign_close (g_steal_pointer (&campaign), error))
    {
      g_free (name);
      return NULL;
    }
  return name;
}

static void
open_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbWindow *window = NB_WINDOW (owner);
  OpenJob *job = data;
  g_autofree char *title = NULL;

  if (error != NULL)
    {
      nb_window_toast (window, error->message);
      g_signal_emit (window, signals[SIGNAL_CAMPAIGN_LOADED], 0, FALSE);
      return;
    }
  g_free (window->path);
  window->path = g_strdup (job->path);
  title = g_strdup_printf ("%s — navbench", (const char *) *result);
  gtk_window_set_title (GTK_WINDOW (window), title);
  adw_view_switcher_title_set_title (window->switcher_title, *result);
  adw_view_switcher_title_set_subtitle (window->switcher_title, job->path);
  /* The pages' loads queue behind this job. */
  nb_campaign_form_set_campaign (NB_CAMPAIGN_FORM (window->form), job->path);
  nb_trials_page_set_campaign (NB_TRIALS_PAGE (window->trials), job->path);
  nb_protocol_page_set_campaign (NB_PROTOCOL_PAGE (window->protocol), job->path);
  nb_results_page_set_campaign (NB_RESULTS_PAGE (window->results), job->path);
  nb_overview_page_set_campaign (NB_OVERVIEW_PAGE (window->overview), job->path);
  nb_instrument_page_set_campaign (NB_INSTRUMENT_PAGE (window->instrument), job->path);
  nb_window_toast (window, job->create ? _("Campaign created.") : _("Campaign opened."));
  remember_recent (window, job->path);
  update_actions (window);
  g_signal_emit (window, signals[SIGNAL_CAMPAIGN_LOADED], 0, TRUE);
}

static void
open_or_create (NbWindow *window, const char *path, gboolean create)
{
  OpenJob *job = g_new0 (OpenJob, 1);

  job->path = g_strdup (path);
  job->create = create;
  nb_io_queue_push (window->queue, G_OBJECT (window), open_work, open_done, job, open_job_free,
                    g_free);
}

void
nb_window_open_campaign (NbWindow *window, const char *path)
{
  if (is_running (window))
    {
      nb_window_toast (window, _("A run is going on: stop it before opening another campaign."));
      return;
    }
  open_or_create (window, path, FALSE);
}

/* Moves an existing file (and SQLite's -wal and -shm beside it) to the
 * trash, else deletes it: the user answered the file chooser's "Replace?". */
static gboolean
replace_file (const char *path, GError **error)
{
  const char *suffixes[] = { "", "-wal", "-shm" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *name = g_strconcat (path, suffixes[i], NULL);
      g_autoptr (GFile) file = g_file_new_for_path (name);
      g_autoptr (GError) local = NULL;

      if (!g_file_query_exists (file, NULL))
        continue;
      if (g_file_trash (file, NULL, &local))
        continue;
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED) &&
          !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_FAILED))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (!g_file_delete (file, NULL, error))
        return FALSE;
    }
  return TRUE;
}

void
nb_window_new_campaign (NbWindow *window, const char *path)
{
  g_autofree char *file = g_str_has_suffix (path, ".nbc") ? g_strdup (path)
                                                          : g_strconcat (path, ".nbc", NULL);
  g_autoptr (GError) error = NULL;

  if (is_running (window))
    {
      nb_window_toast (window, _("A run is going on: stop it before creating a campaign."));
      return;
    }
  if (g_strcmp0 (file, window->path) == 0)
    {
      nb_window_toast (window, _("This campaign is open here: it cannot be replaced."));
      return;
    }
  if (!replace_file (file, &error))
    {
      g_autofree char *text = g_strdup_printf (_("%s could not be replaced: %s"), file,
                                               error->message);

      nb_window_toast (window, text);
      return;
    }
  open_or_create (window, file, TRUE);
}

/* ----------------------------------------------------------- protocol -- */

const char *
nb_window_protocol_language (NbWindow *window)
{
  return nb_gui_protocol_language (window->settings);
}

/* ------------------------------------------------------ file choosers -- */

static void
add_campaign_filter (GtkFileChooser *chooser)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("navbench campaigns"));
  gtk_file_filter_add_mime_type (filter, "application/x-navbench-campaign");
  gtk_file_filter_add_pattern (filter, "*.nbc");
  gtk_file_chooser_add_filter (chooser, filter);
}

static char *
chosen_path (GtkNativeDialog *dialog)
{
  g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

  return file ? g_file_get_path (file) : NULL;
}

static void
on_new_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  NbWindow *window = user_data;
  g_autofree char *path = response == GTK_RESPONSE_ACCEPT ? chosen_path (dialog) : NULL;

  if (path != NULL)
    nb_window_new_campaign (window, path);
  g_object_unref (dialog);
}

static void
on_open_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  NbWindow *window = user_data;
  g_autofree char *path = response == GTK_RESPONSE_ACCEPT ? chosen_path (dialog) : NULL;

  if (path != NULL)
    nb_window_open_campaign (window, path);
  g_object_unref (dialog);
}

static void
action_new (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("New Campaign"), GTK_WINDOW (user_data),
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Create"), _("_Cancel"));

  add_campaign_filter (GTK_FILE_CHOOSER (dialog));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), _("campaign.nbc"));
  g_signal_connect (dialog, "response", G_CALLBACK (on_new_response), user_data);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
action_open (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("Open Campaign"), GTK_WINDOW (user_data),
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));

  add_campaign_filter (GTK_FILE_CHOOSER (dialog));
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), user_data);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
action_open_recent (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  nb_window_open_campaign (user_data, g_variant_get_string (param, NULL));
}

/* The protocol is issued from its page (nb-protocol-page: a run, an empty
 * campaign and files to replace are its questions). */
static void
action_protocol (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  adw_view_stack_set_visible_child_name (NB_WINDOW (user_data)->stack, "protocol");
}

/* ---------------------------------------------------------------- run -- */

static void
action_run (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  NbWindow *window = user_data;

  /* Insensitive first: an editor that loses focus commits its edit, and
   * that save is queued ahead of the run. */
  gtk_widget_set_sensitive (window->form, FALSE);
  nb_trials_page_run (NB_TRIALS_PAGE (window->trials));
  update_actions (window);
}

static void
action_stop (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  nb_trials_page_stop (NB_TRIALS_PAGE (NB_WINDOW (user_data)->trials));
  nb_motion_page_stop (NB_MOTION_PAGE (NB_WINDOW (user_data)->motion));
  nb_overview_page_stop (NB_OVERVIEW_PAGE (NB_WINDOW (user_data)->overview));
}

static void
on_running (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  NbWindow *window = user_data;
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (window));
  gboolean running = is_running (window);

  /* A trial must not be cut by the laptop going to sleep. */
  if (running && window->inhibit == 0 && app != NULL)
    window->inhibit = gtk_application_inhibit (app, GTK_WINDOW (window),
                                               GTK_APPLICATION_INHIBIT_SUSPEND |
                                               GTK_APPLICATION_INHIBIT_LOGOUT,
                                               _("A test run is going on"));
  else if (!running && window->inhibit != 0 && app != NULL)
    {
      gtk_application_uninhibit (app, window->inhibit);
      window->inhibit = 0;
    }
  update_actions (window);
  /* What the run recorded is on the Trials page. */
  if (!running && !window->closing)
    nb_results_page_reload (NB_RESULTS_PAGE (window->results));
  if (!running && window->closing)
    gtk_window_destroy (GTK_WINDOW (window));
}

/* A real robot's run is measured by the instrument connected on the
 * Instrument page. */
static void
on_device_changed (NbInstrumentPage *instrument, gpointer user_data)
{
  NbWindow *window = user_data;

  nb_trials_page_set_device (NB_TRIALS_PAGE (window->trials),
                             nb_instrument_page_get_device (instrument));
  nb_overview_page_set_device (NB_OVERVIEW_PAGE (window->overview),
                               nb_instrument_page_get_device (instrument));
}

/* The Run page's runs and the Overview's ISO 9283 runs measure with it. */
static void
on_device_in_use (GObject *page, GParamSpec *pspec, gpointer user_data)
{
  NbWindow *window = user_data;
  gboolean trials, overview;

  g_object_get (window->trials, "device-in-use", &trials, NULL);
  g_object_get (window->overview, "device-in-use", &overview, NULL);
  nb_instrument_page_set_lent (NB_INSTRUMENT_PAGE (window->instrument), trials || overview);
}

static void
on_close_answer (NbWindow *window, gboolean yes, gpointer data)
{
  if (!yes)
    return;
  window->closing = TRUE;
  if (is_running (window))
    action_stop (NULL, NULL, window);
  else
    gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
nb_window_close_request (GtkWindow *gtk_window)
{
  NbWindow *window = NB_WINDOW (gtk_window);
  int width, height;

  gtk_window_get_default_size (gtk_window, &width, &height);
  g_settings_set_int (window->settings, "window-width", width);
  g_settings_set_int (window->settings, "window-height", height);
  g_settings_set_boolean (window->settings, "window-maximized",
                          gtk_window_is_maximized (gtk_window));
  if (!is_running (window) || window->closing)
    return GTK_WINDOW_CLASS (nb_window_parent_class)->close_request (gtk_window);
  if (window->dialog == NULL)
    ask (window, _("Stop the Run?"),
         _("A run is going on. Closing stops it: the trial in flight is recorded as aborted, "
           "those before it are kept."),
         _("_Stop and Close"), TRUE, on_close_answer, NULL, NULL);
  return TRUE;
}

/* ------------------------------------------------------ drag and drop -- */

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, gpointer user_data)
{
  NbWindow *window = user_data;
  g_autofree char *path = NULL;

  if (!G_VALUE_HOLDS (value, G_TYPE_FILE) ||
      (path = g_file_get_path (g_value_get_object (value))) == NULL)
    return FALSE;
  if (is_running (window))
    {
      nb_window_toast (window, _("A run is going on: stop it before opening another campaign."));
      return FALSE;
    }
  nb_window_open_campaign (window, path);
  return TRUE;
}

/* ------------------------------------------------------------- layout -- */

static GtkWidget *
find_named (GtkWidget *widget, const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_named (c, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
nb_window_lookup (NbWindow *window, const char *name)
{
  GtkWidget *found = find_named (GTK_WIDGET (window), name);

  /* A page that is not shown is not in the widget tree's walk of the
   * stack's visible child only: look through every page. */
  if (found == NULL)
    {
      g_autoptr (GListModel) pages = G_LIST_MODEL (adw_view_stack_get_pages (window->stack));

      for (guint i = 0; found == NULL && i < g_list_model_get_n_items (pages); i++)
        {
          g_autoptr (AdwViewStackPage) page = g_list_model_get_item (pages, i);

          found = find_named (adw_view_stack_page_get_child (page), name);
        }
    }
  return found;
}

const char *
nb_window_get_campaign_path (NbWindow *window)
{
  return window->path;
}

guint
nb_window_get_pending (NbWindow *window)
{
  return nb_io_queue_pending (window->queue) +
         nb_protocol_page_get_pending (NB_PROTOCOL_PAGE (window->protocol));
}

NbIoQueue *
nb_window_get_queue (NbWindow *window)
{
  return window->queue;
}

static void
add_page (NbWindow *window, GtkWidget *child, const char *name, const char *title,
          const char *icon)
{
  AdwViewStackPage *page = adw_view_stack_add_titled (window->stack, child, name, title);

  adw_view_stack_page_set_icon_name (page, icon);
  adw_view_stack_page_set_use_underline (page, TRUE);
}

static void
nb_window_init (NbWindow *window)
{
  static const GActionEntry actions[] = {
    { "new", action_new }, { "open", action_open },
    { "open-recent", action_open_recent, "s" }, { "protocol", action_protocol },
    { "run", action_run }, { "stop", action_stop },
  };
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (window));
  window->settings = g_object_ref (nb_application_get_settings (
                       NB_APPLICATION (g_application_get_default ())));
  window->queue = nb_io_queue_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (window), actions, G_N_ELEMENTS (actions), window);
  window->form = nb_campaign_form_new (window->queue);
  gtk_widget_set_name (window->form, "campaign-form");
  window->trials = nb_trials_page_new (window->queue);
  gtk_widget_set_name (window->trials, "trials-page");
  g_signal_connect_object (window->trials, "notify::running", G_CALLBACK (on_running), window, 0);
  window->overview = nb_overview_page_new (window->queue);
  gtk_widget_set_name (window->overview, "overview-page");
  g_signal_connect_object (window->overview, "notify::running", G_CALLBACK (on_running), window,
                           0);
  add_page (window, window->overview, "overview", C_("page", "_Overview"), "view-grid-symbolic");
  add_page (window, window->form, "campaign", C_("page", "_Campaign"), "document-properties-symbolic");
  window->instrument = nb_instrument_page_new (window->queue);
  gtk_widget_set_name (window->instrument, "instrument-page");
  add_page (window, window->instrument, "instrument", C_("page", "_Instrument"),
            "find-location-symbolic");
  g_signal_connect_object (window->instrument, "device-changed", G_CALLBACK (on_device_changed),
                           window, 0);
  g_signal_connect_object (window->trials, "notify::device-in-use",
                           G_CALLBACK (on_device_in_use), window, 0);
  g_signal_connect_object (window->overview, "notify::device-in-use",
                           G_CALLBACK (on_device_in_use), window, 0);
  add_page (window, window->trials, "trials", C_("page", "_Run"), "media-playback-start-symbolic");
  window->results = nb_results_page_new (window->queue);
  gtk_widget_set_name (window->results, "results-page");
  add_page (window, window->results, "results", C_("page", "_Trials"), "view-list-symbolic");
  window->motion = nb_motion_page_new ();
  gtk_widget_set_name (window->motion, "motion-page");
  g_signal_connect_object (window->motion, "notify::running", G_CALLBACK (on_running), window, 0);
  add_page (window, window->motion, "motion", C_("page", "_Motion"), "system-run-symbolic");
  window->protocol = nb_protocol_page_new (window->queue);
  g_object_bind_property (window->trials, "running", window->protocol, "running", G_BINDING_SYNC_CREATE);
  add_page (window, window->protocol, "protocol", C_("page", "_Protocol"), "x-office-document-symbolic");

  gtk_window_set_default_size (GTK_WINDOW (window),
                               g_settings_get_int (window->settings, "window-width"),
                               g_settings_get_int (window->settings, "window-height"));
  if (g_settings_get_boolean (window->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (window));
  g_signal_connect_object (window->settings, "changed::recent-campaigns",
                           G_CALLBACK (rebuild_recent_menu), window, G_CONNECT_SWAPPED);
  rebuild_recent_menu (window);

  drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), window);
  gtk_widget_add_controller (GTK_WIDGET (window), GTK_EVENT_CONTROLLER (drop));
  update_actions (window);
}

static void
nb_window_dispose (GObject *object)
{
  NbWindow *window = NB_WINDOW (object);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (window));

  if (window->inhibit != 0 && app != NULL)
    gtk_application_uninhibit (app, window->inhibit);
  window->inhibit = 0;
  /* The overlay dismisses its toasts as it goes. */
  window->disposed = TRUE;
  gtk_widget_dispose_template (GTK_WIDGET (window), NB_TYPE_WINDOW);
  g_clear_object (&window->settings);
  G_OBJECT_CLASS (nb_window_parent_class)->dispose (object);
}

static void
nb_window_finalize (GObject *object)
{
  NbWindow *window = NB_WINDOW (object);

  g_free (window->path);
  g_free (window->last_message);
  /* In finalize: a job keeps its owner alive until done. */
  g_clear_pointer (&window->queue, nb_io_queue_unref);
  G_OBJECT_CLASS (nb_window_parent_class)->finalize (object);
}

static void
nb_window_class_init (NbWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nb_window_dispose;
  object_class->finalize = nb_window_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = nb_window_close_request;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/navbench/Navbench/nb-window.ui");
  gtk_widget_class_bind_template_child (widget_class, NbWindow, toasts);
  gtk_widget_class_bind_template_child (widget_class, NbWindow, toast_room);
  gtk_widget_class_bind_template_child (widget_class, NbWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, NbWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, NbWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, NbWindow, stop_button);
  signals[SIGNAL_CAMPAIGN_LOADED] = g_signal_new ("campaign-loaded", G_TYPE_FROM_CLASS (klass),
                                                  G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                  G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

NbWindow *
nb_window_new (GtkApplication *app)
{
  return g_object_new (NB_TYPE_WINDOW, "application", app, NULL);
}
