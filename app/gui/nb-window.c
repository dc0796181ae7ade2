#include "nb-window.h"

#include "nb-campaign.h"
#include "nb-campaign-form.h"
#include "nb-gui-paths.h"
#include "nb-io-queue.h"
#include "nb-trials-page.h"

#include <glib/gi18n.h>

struct _NbWindow {
  GtkApplicationWindow parent_instance;
  NbIoQueue *queue;
  GtkWidget *title, *subtitle, *stack, *form, *trials, *status;
  char *path;
  guint protocols;              /* protocol subprocesses running */
};

G_DEFINE_FINAL_TYPE (NbWindow, nb_window, GTK_TYPE_APPLICATION_WINDOW)

enum { SIGNAL_CAMPAIGN_LOADED, SIGNAL_PROTOCOL_WRITTEN, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
set_status (NbWindow *window, const char *text, gboolean error)
{
  gtk_label_set_text (GTK_LABEL (window->status), text);
  if (error)
    gtk_widget_add_css_class (window->status, "error");
  else
    gtk_widget_remove_css_class (window->status, "error");
}

static void
update_actions (NbWindow *window)
{
  gboolean running = nb_trials_page_is_running (NB_TRIALS_PAGE (window->trials));
  gboolean have = window->path != NULL;
  struct { const char *name; gboolean enabled; } states[] = {
    { "new", !running }, { "open", !running }, { "protocol", have },
    { "run", have && !running }, { "stop", running },
  };

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    {
      GAction *a = g_action_map_lookup_action (G_ACTION_MAP (window), states[i].name);

      g_simple_action_set_enabled (G_SIMPLE_ACTION (a), states[i].enabled);
    }
  /* The runner holds the campaign's write lock while it runs. */
  gtk_widget_set_sensitive (window->form, have && !running);
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
      set_status (window, error->message, TRUE);
      g_signal_emit (window, signals[SIGNAL_CAMPAIGN_LOADED], 0, FALSE);
      return;
    }
  g_free (window->path);
  window->path = g_strdup (job->path);
  title = g_strdup_printf ("%s — navbench", (const char *) *result);
  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_label_set_text (GTK_LABEL (window->title), *result);
  gtk_label_set_text (GTK_LABEL (window->subtitle), job->path);
  gtk_widget_set_visible (window->subtitle, TRUE);
  /* The form's load queues behind this job. */
  nb_campaign_form_set_campaign (NB_CAMPAIGN_FORM (window->form), job->path);
  nb_trials_page_set_campaign (NB_TRIALS_PAGE (window->trials), job->path);
  set_status (window, job->create ? _("Campaign created.") : _("Campaign opened."), FALSE);
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
  open_or_create (window, path, FALSE);
}

void
nb_window_new_campaign (NbWindow *window, const char *path)
{
  g_autofree char *file = g_str_has_suffix (path, ".nbc") ? g_strdup (path)
                                                          : g_strconcat (path, ".nbc", NULL);

  open_or_create (window, file, TRUE);
}

/* ----------------------------------------------------------- protocol -- */

/* The protocol is navbench-cli report in a process of its own: the report
 * picks its language with the process-wide LANGUAGE (setenv, not safe
 * beside the GTK thread's getenv) and the PDF is written off the GTK thread;
 * the code is the CLI's, so the two cannot disagree. */
static void
on_protocol_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GSubprocess *process = G_SUBPROCESS (source);
  NbWindow *window = user_data;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  const char *pdf = g_object_get_data (G_OBJECT (process), "nb-pdf");
  gboolean ok = g_subprocess_communicate_utf8_finish (process, result, &out, &err, &error) &&
                g_subprocess_get_if_exited (process) && g_subprocess_get_exit_status (process) == 0;

  window->protocols--;
  if (ok)
    {
      g_autofree char *text = g_strdup_printf (_("Protocol written to %s."), pdf);

      set_status (window, text, FALSE);
    }
  else
    {
      g_autofree char *text = NULL;

      if (error == NULL && err != NULL)
        g_strstrip (err);
      text = g_strdup_printf (_("The protocol could not be written: %s"),
                              error ? error->message : err && err[0] ? err : "?");
      set_status (window, text, TRUE);
    }
  g_signal_emit (window, signals[SIGNAL_PROTOCOL_WRITTEN], 0, ok);
  g_object_unref (window);
}

void
nb_window_write_protocol (NbWindow *window, const char *pdf_path, const char *lang)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) process = NULL;

  if (window->path == NULL)
    return;
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                              &error, nb_gui_cli_path (), "report", "--db", window->path,
                              "--lang", lang, "-o", pdf_path, NULL);
  if (process == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The protocol could not be written: %s"),
                                               error->message);

      set_status (window, text, TRUE);
      g_signal_emit (window, signals[SIGNAL_PROTOCOL_WRITTEN], 0, FALSE);
      return;
    }
  g_object_set_data_full (G_OBJECT (process), "nb-pdf", g_strdup (pdf_path), g_free);
  window->protocols++;
  set_status (window, _("Writing the protocol…"), FALSE);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, on_protocol_done,
                                       g_object_ref (window));
}

/* ------------------------------------------------------------ dialogs -- */

static void
add_campaign_filter (GtkFileChooser *chooser)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("navbench campaigns"));
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
on_protocol_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  NbWindow *window = user_data;
  g_autofree char *path = response == GTK_RESPONSE_ACCEPT ? chosen_path (dialog) : NULL;
  const char *lang = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "lang");

  if (path != NULL)
    nb_window_write_protocol (window, path, lang ? lang : "en");
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
action_protocol (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  NbWindow *window = user_data;
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("Write Test Protocol"), GTK_WINDOW (window),
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  const char *ids[] = { "ru", "en", NULL };
  const char *labels[] = { _("Russian"), _("English"), NULL };
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *base = g_path_get_basename (window->path);
  g_autofree char *name = NULL;
  const char *ui = g_get_language_names ()[0];

  if (g_str_has_suffix (base, ".nbc"))
    base[strlen (base) - 4] = '\0';
  name = g_strconcat (base, "-protocol.pdf", NULL);
  gtk_file_filter_set_name (filter, "PDF");
  gtk_file_filter_add_mime_type (filter, "application/pdf");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (dialog), "lang", _("Language"), ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (dialog), "lang",
                               g_str_has_prefix (ui, "ru") ? "ru" : "en");
  g_signal_connect (dialog, "response", G_CALLBACK (on_protocol_response), window);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

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
}

static void
on_running (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  update_actions (user_data);
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
  return find_named (GTK_WIDGET (window), name);
}

const char *
nb_window_get_campaign_path (NbWindow *window)
{
  return window->path;
}

guint
nb_window_get_pending (NbWindow *window)
{
  return nb_io_queue_pending (window->queue) + window->protocols;
}

static GtkWidget *
build_header (NbWindow *window)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *new_button = gtk_button_new_with_mnemonic (_("_New…"));
  GtkWidget *open_button = gtk_button_new_with_mnemonic (_("_Open…"));
  GtkWidget *protocol = gtk_button_new_with_mnemonic (_("_Protocol…"));
  GtkWidget *switcher = gtk_stack_switcher_new ();

  gtk_widget_set_tooltip_text (new_button, _("New campaign"));
  gtk_widget_set_tooltip_text (open_button, _("Open a campaign"));
  gtk_widget_set_tooltip_text (protocol, _("Write the test protocol (PDF)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (new_button), "win.new");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (open_button), "win.open");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (protocol), "win.protocol");
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), new_button);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), open_button);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), protocol);
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (window->stack));
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), switcher);

  window->title = gtk_label_new (_("No campaign"));
  gtk_widget_add_css_class (window->title, "title");
  window->subtitle = gtk_label_new (NULL);
  gtk_widget_add_css_class (window->subtitle, "subtitle");
  gtk_label_set_ellipsize (GTK_LABEL (window->subtitle), PANGO_ELLIPSIZE_START);
  gtk_widget_set_visible (window->subtitle, FALSE);
  gtk_widget_set_valign (titles, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (titles), window->title);
  gtk_box_append (GTK_BOX (titles), window->subtitle);
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (header), titles);
  return header;
}

static void
nb_window_init (NbWindow *window)
{
  static const GActionEntry actions[] = {
    { "new", action_new }, { "open", action_open }, { "protocol", action_protocol },
    { "run", action_run }, { "stop", action_stop },
  };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  window->queue = nb_io_queue_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (window), actions, G_N_ELEMENTS (actions), window);
  window->stack = gtk_stack_new ();
  gtk_widget_set_name (window->stack, "pages");
  gtk_widget_set_vexpand (window->stack, TRUE);
  window->form = nb_campaign_form_new (window->queue);
  gtk_widget_set_name (window->form, "campaign-form");
  window->trials = nb_trials_page_new (window->queue);
  gtk_widget_set_name (window->trials, "trials-page");
  g_signal_connect_object (window->trials, "notify::running", G_CALLBACK (on_running), window, 0);
  gtk_stack_add_titled (GTK_STACK (window->stack), window->form, "campaign", _("Campaign"));
  gtk_stack_add_titled (GTK_STACK (window->stack), window->trials, "trials", _("Trials"));

  window->status = gtk_label_new (_("Open a campaign or create a new one."));
  gtk_widget_set_name (window->status, "window-status");
  gtk_label_set_xalign (GTK_LABEL (window->status), 0);
  gtk_label_set_ellipsize (GTK_LABEL (window->status), PANGO_ELLIPSIZE_END);
  gtk_widget_set_margin_start (window->status, 12);
  gtk_widget_set_margin_end (window->status, 12);
  gtk_widget_set_margin_top (window->status, 4);
  gtk_widget_set_margin_bottom (window->status, 4);
  gtk_widget_add_css_class (window->status, "caption");

  gtk_box_append (GTK_BOX (box), window->stack);
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (box), window->status);
  gtk_window_set_titlebar (GTK_WINDOW (window), build_header (window));
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_title (GTK_WINDOW (window), "navbench");
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  update_actions (window);
}

static void
nb_window_finalize (GObject *object)
{
  NbWindow *window = NB_WINDOW (object);

  g_free (window->path);
  /* In finalize: a job keeps its owner alive until done. */
  g_clear_pointer (&window->queue, nb_io_queue_unref);
  G_OBJECT_CLASS (nb_window_parent_class)->finalize (object);
}

static void
nb_window_class_init (NbWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = nb_window_finalize;
  signals[SIGNAL_CAMPAIGN_LOADED] = g_signal_new ("campaign-loaded", G_TYPE_FROM_CLASS (klass),
                                                  G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                  G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  signals[SIGNAL_PROTOCOL_WRITTEN] = g_signal_new ("protocol-written", G_TYPE_FROM_CLASS (klass),
                                                   G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                   G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

NbWindow *
nb_window_new (GtkApplication *app)
{
  return g_object_new (NB_TYPE_WINDOW, "application", app, NULL);
}
