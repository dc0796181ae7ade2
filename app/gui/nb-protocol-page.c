#include "nb-protocol-page.h"

#include "nb-application.h"
#include "nb-campaign.h"
#include "nb-gui-paths.h"
#include "nb-io-queue.h"
#include "nb-pdf.h"
#include "nb-protocol-report.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <string.h>

/* The protocol's tables that `export --table` knows (ISO 18646-2 tables 1, 3–7). */
static const char *const languages[] = { "ru", "en" };   /* the combo row's order */

struct _NbProtocolPage {
  AdwBin parent_instance;
  /* From nb-protocol-page.ui. */
  AdwComboRow *lang_row;
  AdwActionRow *file_row;
  GtkWidget *choose_button;
  GtkSwitch *csv_switch, *open_switch;
  GtkLabel *check_label, *status_label;
  GtkListBox *missing_list;
  GtkProgressBar *progress;

  NbIoQueue *queue;             /* the window's: the campaign is read in turn with its writes */
  char *db;                     /* the campaign, or NULL */
  char *pdf;                    /* where the PDF goes */
  gboolean pdf_chosen;          /* by the user: kept when the language changes */
  gboolean running;             /* a run is going on (the Trials page's) */
  gboolean issuing;
  guint pending;                /* workers not done */
  guint pulse;                  /* the progress bar's timer */
  guint check_serial;           /* the latest check; older results are dropped */
  gboolean disposed;            /* a queued build's done finds the widgets gone */
  GCancellable *cancellable;    /* cancelled when the campaign changes */
  AdwMessageDialog *dialog;
};

G_DEFINE_FINAL_TYPE (NbProtocolPage, nb_protocol_page, ADW_TYPE_BIN)

enum { PROP_0, PROP_RUNNING, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { SIGNAL_ISSUED, SIGNAL_CHECKED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* --------------------------------------------------------------- jobs -- */

/* One pass of the report code off the GTK thread: build (for the check and
 * before issuing), then, issuing, write. */
typedef struct {
  char *db, *lang, *pdf;
  gboolean csv;                 /* write the tables as CSV too */
  guint serial;
  NbDocument *doc;
  guint64 trials;
  GPtrArray *csv_paths, *csv_texts;   /* the tables the document holds */
} Job;

/* A job passes from the build's task to the questions and to the writer's
 * task: reference-counted. */
static void
job_clear (gpointer p)
{
  Job *job = p;

  g_free (job->db);
  g_free (job->lang);
  g_free (job->pdf);
  g_clear_pointer (&job->doc, nb_document_free);
  g_clear_pointer (&job->csv_paths, g_ptr_array_unref);
  g_clear_pointer (&job->csv_texts, g_ptr_array_unref);
}

static void
job_unref (gpointer job)
{
  g_atomic_rc_box_release_full (job, job_clear);
}

/* In the window's I/O queue (not a thread of its own: the campaign is read
 * in turn with the form's saves and the other pages' loads, never beside a
 * writer): the protocol in the job's language, as the CLI builds it (the
 * whole file verified first: damage anywhere is refused).  The result is
 * the job itself. */
static gpointer
build_work (gpointer data, GError **error)
{
  Job *job = data;
  g_autoptr (NbCampaign) campaign = NULL;
  const NbCatalogue *words = nb_gui_catalogue (job->lang, error);
  NbCampaignCounts counts = { 0 };

  if (words == NULL ||
      (campaign = nb_campaign_open (job->db, NB_CAMPAIGN_OPEN_READ_ONLY, error)) == NULL ||
      !nb_campaign_verify (campaign, error) ||
      !nb_campaign_get_counts (campaign, &counts, error) ||
      (job->doc = nb_protocol_report_build (campaign, words, error)) == NULL ||
      !nb_campaign_close (g_steal_pointer (&campaign), error))
    return NULL;
  job->trials = counts.trials;
  job->csv_paths = g_ptr_array_new_with_free_func (g_free);
  job->csv_texts = g_ptr_array_new_with_free_func (g_free);
  if (job->csv)
    {
      g_autoptr (GPtrArray) files = nb_protocol_report_csv_files (job->doc, job->pdf);

      /* The tables' and the budgets' CSVs, as `report --tables` writes them. */
      for (guint i = 0; i < files->len; i++)
        {
          NbReportCsv *f = g_ptr_array_index (files, i);

          g_ptr_array_add (job->csv_texts, g_steal_pointer (&f->text));
          g_ptr_array_add (job->csv_paths, g_steal_pointer (&f->path));
        }
    }
  return job;
}

/* Writes beside the target and renames over it: a reader of the old file
 * never sees half a new one, and an existing file is really replaced. */
static gboolean
write_pdf (const NbDocument *doc, const char *lang, const char *path, GError **error)
{
  const NbCatalogue *words = nb_gui_catalogue (lang, error);
  g_autofree char *part = g_strconcat (path, ".part", NULL);
  NbPdfWords pdf_words;

  if (words == NULL)
    return FALSE;
  pdf_words = nb_protocol_report_pdf_words (words);
  if (!nb_pdf_write (doc, &pdf_words, part, error))
    {
      g_unlink (part);
      return FALSE;
    }
  if (g_rename (part, path) != 0)
    {
      int saved = errno;

      g_unlink (part);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

static void
write_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  g_autoptr (GError) error = NULL;

  if (!write_pdf (job->doc, job->lang, job->pdf, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* g_file_set_contents writes a temporary file and renames it over. */
  for (guint i = 0; job->csv_paths != NULL && i < job->csv_paths->len; i++)
    if (!g_file_set_contents (g_ptr_array_index (job->csv_paths, i),
                              g_ptr_array_index (job->csv_texts, i), -1, &error))
      {
        g_task_return_error (task, g_steal_pointer (&error));
        return;
      }
  g_task_return_boolean (task, TRUE);
}

/* ------------------------------------------------------------ display -- */

static gboolean
pulse (gpointer data)
{
  gtk_progress_bar_pulse (NB_PROTOCOL_PAGE (data)->progress);
  return G_SOURCE_CONTINUE;
}

static void
update_state (NbProtocolPage *page)
{
  gboolean busy = page->pending > 0;

  gtk_widget_set_visible (GTK_WIDGET (page->progress), busy);
  if (busy && page->pulse == 0)
    page->pulse = g_timeout_add (100, pulse, page);
  else if (!busy)
    g_clear_handle_id (&page->pulse, g_source_remove);
  gtk_widget_action_set_enabled (GTK_WIDGET (page), "protocol.issue",
                                 page->db != NULL && !page->issuing);
  gtk_widget_action_set_enabled (GTK_WIDGET (page), "protocol.check", page->db != NULL);
  gtk_widget_set_sensitive (page->choose_button, page->db != NULL && !page->issuing);
  adw_action_row_set_subtitle (page->file_row, page->pdf ? page->pdf : "");
}

static void
set_status (NbProtocolPage *page, const char *text)
{
  gtk_label_set_text (page->status_label, text);
  gtk_widget_set_visible (GTK_WIDGET (page->status_label), text != NULL && text[0] != '\0');
}

static void
show_missing (NbProtocolPage *page, const NbDocument *doc)
{
  guint n = doc ? nb_document_n_missing (doc) : 0;
  GtkWidget *row;

  while ((row = GTK_WIDGET (gtk_list_box_get_row_at_index (page->missing_list, 0))) != NULL)
    gtk_list_box_remove (page->missing_list, row);
  if (doc == NULL)
    ;                           /* not checked: the label says why */
  else if (n == 0)
    gtk_label_set_text (page->check_label, _("Nothing: the protocol is complete."));
  else
    {
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
        "%u item a complete protocol asks for is missing (navbench-cli report --check lists "
        "the same):",
        "%u items a complete protocol asks for are missing (navbench-cli report --check lists "
        "the same):", n), n);

      gtk_label_set_text (page->check_label, text);
    }
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *label = gtk_label_new (nb_document_missing (doc, i));

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_set_margin_top (label, 6);
      gtk_widget_set_margin_bottom (label, 6);
      gtk_widget_set_margin_start (label, 12);
      gtk_widget_set_margin_end (label, 12);
      gtk_list_box_append (page->missing_list, label);
    }
  gtk_widget_set_visible (GTK_WIDGET (page->missing_list), n > 0);
}

/* ----------------------------------------------------------- language -- */

const char *
nb_protocol_page_get_language (NbProtocolPage *page)
{
  guint i = adw_combo_row_get_selected (page->lang_row);

  return languages[i < G_N_ELEMENTS (languages) ? i : 0];
}

void
nb_protocol_page_set_language (NbProtocolPage *page, const char *lang)
{
  adw_combo_row_set_selected (page->lang_row, g_strcmp0 (lang, "en") == 0 ? 1 : 0);
}

/* CAMPAIGN-protocol-LANG.pdf beside the campaign: both languages can stand
 * side by side. */
static void
default_output (NbProtocolPage *page)
{
  g_autofree char *stem = NULL;

  if (page->db == NULL || page->pdf_chosen)
    return;
  stem = g_str_has_suffix (page->db, ".nbc") ? g_strndup (page->db, strlen (page->db) - 4)
                                             : g_strdup (page->db);
  g_free (page->pdf);
  page->pdf = g_strdup_printf ("%s-protocol-%s.pdf", stem, nb_protocol_page_get_language (page));
}

/* -------------------------------------------------------------- check -- */

static Job *
job_new (NbProtocolPage *page)
{
  Job *job = g_atomic_rc_box_new0 (Job);

  job->db = g_strdup (page->db);
  job->csv = gtk_switch_get_active (page->csv_switch);
  job->lang = g_strdup (nb_protocol_page_get_language (page));
  job->pdf = g_strdup (page->pdf);
  job->serial = ++page->check_serial;
  return job;
}

static void
check_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbProtocolPage *page = NB_PROTOCOL_PAGE (owner);
  Job *job = data;
  gboolean ok = error == NULL;

  page->pending--;
  if (page->disposed)
    return;
  update_state (page);
  /* A check of another campaign or language, or one a later check replaced. */
  if (job->serial != page->check_serial)
    return;
  if (!ok)
    {
      gtk_label_set_text (page->check_label, error->message);
      show_missing (page, NULL);
    }
  else
    show_missing (page, job->doc);
  g_signal_emit (page, signals[SIGNAL_CHECKED], 0, ok);
}

/* The build goes through the window's queue; job is taken. */
static void
build_job (NbProtocolPage *page, Job *job, NbIoDone done)
{
  page->pending++;
  update_state (page);
  nb_io_queue_push (page->queue, G_OBJECT (page), build_work, done, job, job_unref, NULL);
}

static void
run_job (NbProtocolPage *page, Job *job, GTaskThreadFunc func, GAsyncReadyCallback done)
{
  g_autoptr (GTask) task = g_task_new (page, page->cancellable, done, NULL);

  g_task_set_task_data (task, job, job_unref);
  g_task_set_return_on_cancel (task, FALSE);
  page->pending++;
  update_state (page);
  g_task_run_in_thread (task, func);
}

static void
check (NbProtocolPage *page)
{
  if (page->db == NULL || page->queue == NULL)
    return;
  build_job (page, job_new (page), check_done);
}

/* -------------------------------------------------------------- issue -- */

typedef void (*AnswerFunc) (NbProtocolPage *page, Job *job);

typedef struct {
  NbProtocolPage *page;
  Job *job;
  AnswerFunc yes;
} Question;

static void
issue_over (NbProtocolPage *page, gboolean ok, const char *status)
{
  page->issuing = FALSE;
  set_status (page, status);
  update_state (page);
  g_signal_emit (page, signals[SIGNAL_ISSUED], 0, ok);
}

static void
on_question_response (AdwMessageDialog *dialog, const char *response, gpointer data)
{
  Question *q = data;

  if (q->page->dialog == dialog)
    q->page->dialog = NULL;
  if (g_str_equal (response, "yes"))
    q->yes (q->page, q->job);
  else
    issue_over (q->page, FALSE, _("The protocol was not issued."));
  job_unref (q->job);
  g_object_unref (q->page);
  g_free (q);
}

/* Takes a reference to job: yes continues with it, Cancel ends the issue. */
static void
ask (NbProtocolPage *page, const char *heading, const char *body, const char *yes_label,
     gboolean destructive, AnswerFunc yes, Job *job)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (page));
  GtkWidget *dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                              heading, body);
  Question *q = g_new0 (Question, 1);

  q->page = g_object_ref (page);
  q->job = g_atomic_rc_box_acquire (job);
  q->yes = yes;
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "yes", yes_label, NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "yes",
                                              destructive ? ADW_RESPONSE_DESTRUCTIVE
                                                          : ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (on_question_response), q);
  page->dialog = ADW_MESSAGE_DIALOG (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_launched (GObject *source, GAsyncResult *result, gpointer data)
{
  NbProtocolPage *page = data;
  g_autoptr (GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    {
      g_autofree char *text = g_strdup_printf (_("%s The PDF could not be opened: %s"),
                                               gtk_label_get_text (page->status_label),
                                               error->message);

      set_status (page, text);
    }
  g_object_unref (page);
}

static void
write_done (GObject *source, GAsyncResult *result, gpointer data)
{
  NbProtocolPage *page = NB_PROTOCOL_PAGE (source);
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  page->pending--;
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      text = g_strdup_printf (_("The protocol could not be written: %s"), error->message);
      issue_over (page, FALSE, text);
      return;
    }
  text = job->csv_paths->len > 0
    ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Protocol written to %s, with %u table "
                                    "as CSV beside it.", "Protocol written to %s, with %u "
                                    "tables as CSV beside it.", job->csv_paths->len),
                       job->pdf, job->csv_paths->len)
    : g_strdup_printf (_("Protocol written to %s."), job->pdf);
  issue_over (page, TRUE, text);
  if (gtk_switch_get_active (page->open_switch))
    {
      g_autofree char *uri = g_filename_to_uri (job->pdf, NULL, NULL);

      g_app_info_launch_default_for_uri_async (uri, NULL, NULL, on_launched,
                                               g_object_ref (page));
    }
}

static void
write_files (NbProtocolPage *page, Job *job)
{
  set_status (page, _("Writing the protocol…"));
  run_job (page, g_atomic_rc_box_acquire (job), write_thread, write_done);
}

/* The files the issue would replace; none: write. */
static void
confirm_replace (NbProtocolPage *page, Job *job)
{
  g_autoptr (GString) names = g_string_new (NULL);
  guint n = 0;

  for (guint i = 0; i <= (job->csv_paths ? job->csv_paths->len : 0); i++)
    {
      const char *path = i == 0 ? job->pdf : g_ptr_array_index (job->csv_paths, i - 1);
      g_autofree char *base = NULL;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      base = g_path_get_basename (path);
      g_string_append_printf (names, "%s%s", n++ ? ", " : "", base);
    }
  if (n == 0)
    {
      write_files (page, job);
      return;
    }
  {
    g_autofree char *body = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
      "%s exists in this folder. Issuing the protocol replaces it.",
      "%s exist in this folder. Issuing the protocol replaces them.", n), names->str);

    ask (page, _("Replace the Existing Files?"), body, _("_Replace"), TRUE, write_files, job);
  }
}

static void
issue_build_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbProtocolPage *page = NB_PROTOCOL_PAGE (owner);
  Job *job = data;

  page->pending--;
  if (page->disposed)
    return;
  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The protocol could not be written: %s"),
                                               error->message);

      if (job->serial == page->check_serial)
        gtk_label_set_text (page->check_label, error->message);
      issue_over (page, FALSE, text);
      return;
    }
  /* The check before issuing: what is missing, shown on the page. */
  if (job->serial == page->check_serial)
    show_missing (page, job->doc);
  if (job->trials == 0)
    ask (page, _("The Campaign Has No Trials"),
         _("Every clause of the protocol would say “not tested”. Issue it all the same?"),
         _("_Issue Anyway"), FALSE, confirm_replace, job);
  else
    confirm_replace (page, job);
}

void
nb_protocol_page_issue (NbProtocolPage *page)
{
  if (page->db == NULL || page->issuing)
    return;
  if (page->running)
    {
      set_status (page, _("The protocol is issued when the run has ended: the trial in flight "
                          "is not in the campaign yet."));
      g_signal_emit (page, signals[SIGNAL_ISSUED], 0, FALSE);
      return;
    }
  page->issuing = TRUE;
  set_status (page, _("Checking the campaign…"));
  build_job (page, job_new (page), issue_build_done);
}

/* ------------------------------------------------------------ chooser -- */

static void
on_chooser_response (GtkNativeDialog *dialog, int response, gpointer data)
{
  NbProtocolPage *page = data;
  g_autoptr (GFile) file = response == GTK_RESPONSE_ACCEPT
                             ? gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog)) : NULL;
  g_autofree char *path = file ? g_file_get_path (file) : NULL;

  if (path != NULL)
    nb_protocol_page_set_output (page, path);
  g_object_unref (dialog);
  g_object_unref (page);
}

static void
on_choose (GtkButton *button, gpointer data)
{
  NbProtocolPage *page = data;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (page));
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("The Protocol's PDF File"),
                                 GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Select"), _("_Cancel"));
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, "PDF");
  gtk_file_filter_add_mime_type (filter, "application/pdf");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (page->pdf != NULL)
    {
      g_autoptr (GFile) file = g_file_new_for_path (page->pdf);

      gtk_file_chooser_set_file (GTK_FILE_CHOOSER (dialog), file, NULL);
    }
  g_signal_connect (dialog, "response", G_CALLBACK (on_chooser_response), g_object_ref (page));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ------------------------------------------------------------- public -- */

GtkWidget *
nb_protocol_page_new (NbIoQueue *queue)
{
  NbProtocolPage *page = g_object_new (NB_TYPE_PROTOCOL_PAGE, NULL);

  page->queue = nb_io_queue_ref (queue);
  return GTK_WIDGET (page);
}

void
nb_protocol_page_set_campaign (NbProtocolPage *page, const char *path)
{
  if (g_strcmp0 (path, page->db) == 0)
    return;
  /* The old campaign's workers finish into nothing. */
  g_cancellable_cancel (page->cancellable);
  g_clear_object (&page->cancellable);
  page->cancellable = g_cancellable_new ();
  page->check_serial++;
  g_free (page->db);
  page->db = g_strdup (path);
  page->pdf_chosen = FALSE;
  g_clear_pointer (&page->pdf, g_free);
  default_output (page);
  set_status (page, "");
  gtk_label_set_text (page->check_label, "");
  show_missing (page, NULL);
  update_state (page);
  check (page);
}

void
nb_protocol_page_set_output (NbProtocolPage *page, const char *pdf_path)
{
  g_free (page->pdf);
  page->pdf = g_strdup (pdf_path);
  page->pdf_chosen = TRUE;
  update_state (page);
}

const char *
nb_protocol_page_get_output (NbProtocolPage *page)
{
  return page->pdf;
}

const char *
nb_protocol_page_get_status (NbProtocolPage *page)
{
  return gtk_label_get_text (page->status_label);
}

guint
nb_protocol_page_get_pending (NbProtocolPage *page)
{
  return page->pending;
}

AdwMessageDialog *
nb_protocol_page_get_dialog (NbProtocolPage *page)
{
  return page->dialog;
}

/* ------------------------------------------------------------ GObject -- */

static void
on_language (GObject *object, GParamSpec *pspec, gpointer data)
{
  NbProtocolPage *page = data;

  default_output (page);
  update_state (page);
  /* The missing items are listed in the protocol's language. */
  check (page);
}

static void
on_preference (GSettings *settings, const char *key, gpointer data)
{
  NbProtocolPage *page = data;

  nb_protocol_page_set_language (page, nb_gui_protocol_language (settings));
}

static void
action_issue (GtkWidget *widget, const char *name, GVariant *param)
{
  nb_protocol_page_issue (NB_PROTOCOL_PAGE (widget));
}

static void
action_check (GtkWidget *widget, const char *name, GVariant *param)
{
  check (NB_PROTOCOL_PAGE (widget));
}

static void
nb_protocol_page_init (NbProtocolPage *page)
{
  GSettings *settings = nb_application_get_settings (NB_APPLICATION (g_application_get_default ()));

  gtk_widget_init_template (GTK_WIDGET (page));
  page->cancellable = g_cancellable_new ();
  nb_protocol_page_set_language (page, nb_gui_protocol_language (settings));
  g_signal_connect_object (settings, "changed::protocol-language", G_CALLBACK (on_preference),
                           page, 0);
  g_signal_connect (page->lang_row, "notify::selected", G_CALLBACK (on_language), page);
  g_signal_connect (page->choose_button, "clicked", G_CALLBACK (on_choose), page);
  /* Completeness changes with every edit of the form: checked again when
   * the page is shown. */
  g_signal_connect_swapped (page, "map", G_CALLBACK (check), page);
  show_missing (page, NULL);
  update_state (page);
}

static void
nb_protocol_page_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  switch (id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, NB_PROTOCOL_PAGE (object)->running);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
nb_protocol_page_set_property (GObject *object, guint id, const GValue *value,
                               GParamSpec *pspec)
{
  switch (id)
    {
    case PROP_RUNNING:
      NB_PROTOCOL_PAGE (object)->running = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
nb_protocol_page_dispose (GObject *object)
{
  NbProtocolPage *page = NB_PROTOCOL_PAGE (object);

  g_cancellable_cancel (page->cancellable);
  page->disposed = TRUE;
  g_clear_handle_id (&page->pulse, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (page), NB_TYPE_PROTOCOL_PAGE);
  G_OBJECT_CLASS (nb_protocol_page_parent_class)->dispose (object);
}

static void
nb_protocol_page_finalize (GObject *object)
{
  NbProtocolPage *page = NB_PROTOCOL_PAGE (object);

  g_clear_object (&page->cancellable);
  g_free (page->db);
  g_free (page->pdf);
  /* In finalize: a job keeps its owner alive until done. */
  g_clear_pointer (&page->queue, nb_io_queue_unref);
  G_OBJECT_CLASS (nb_protocol_page_parent_class)->finalize (object);
}

static void
nb_protocol_page_class_init (NbProtocolPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = nb_protocol_page_get_property;
  object_class->set_property = nb_protocol_page_set_property;
  object_class->dispose = nb_protocol_page_dispose;
  object_class->finalize = nb_protocol_page_finalize;
  props[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                                              G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  signals[SIGNAL_ISSUED] = g_signal_new ("issued", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  signals[SIGNAL_CHECKED] = g_signal_new ("checked", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                          G_TYPE_BOOLEAN);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/navbench/Navbench/nb-protocol-page.ui");
  gtk_widget_class_bind_template_child (widget_class, NbProtocolPage, lang_row);
  gtk_widget_class_bind_template_child (widget_class, NbProtocolPage, file_row);
  gtk_widget_class_bind_template_child (widget_class, NbProtocolPage, choose_button);
  gtk_widget_class_bind_template_child (widget_class, NbProtocolPage, csv_switch);
  gtk_widget_class_bind_template_child (widget_class, NbProtocolPage, open_switch);
  gtk_widget_class_bind_template_child (widget_class, NbProtocolPage, check_label);
  gtk_widget_class_bind_template_child (widget_class, NbProtocolPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, NbProtocolPage, missing_list);
  gtk_widget_class_bind_template_child (widget_class, NbProtocolPage, progress);
  gtk_widget_class_install_action (widget_class, "protocol.issue", NULL, action_issue);
  gtk_widget_class_install_action (widget_class, "protocol.check", NULL, action_check);
}
