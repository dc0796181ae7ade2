#include "nb-motion-page.h"

#include "nb-arm-file.h"
#include "nb-gui-paths.h"
#include "nb-http-robot.h"
#include "nb-plan.h"
#include "nb-sequence.h"
#include "nb-sim-arm.h"
#include "nb-sim-skill.h"
#include "nb-skill.h"

#include <glib/gi18n.h>
#include <string.h>

enum { ROBOT_ARM, ROBOT_URL };
static const char *const robot_values[] = { N_("Simulated arm (iiwa 7)"), N_("Motion stack (URL)") };

/* A sequence being run: the worker's. */
typedef struct {
  NbMotionPage *page;           /* a reference while it runs */
  GMainContext *context;
  NbSequence *sequence;
  guint iterations;
  guint robot_kind;
  gboolean real_time;
  char *url;
  char *model_dir;
  int stop;                     /* read by nb_sequence_run before every point */
  NbHttpRobot *http;
  GMutex lock;                  /* http while it is being made and freed */
  double *clock_s;              /* the simulated arm's, for the log's times */
  char *summary;
} SequenceRun;

struct _NbMotionPage {
  GtkWidget parent_instance;
  GtkWidget *box;
  GtkWidget *seq_file, *seq_robot, *seq_url, *seq_url_label, *seq_iterations, *seq_real_time;
  GtkWidget *seq_start, *seq_stop, *seq_status, *seq_log;
  GtkWidget *plan_file, *plan_mode, *plan_check, *plan_run, *plan_status, *plan_out;
  char *sequence_path, *plan_path;
  SequenceRun *run;
  gboolean disposed;            /* the window went while a sequence ran */
};

G_DEFINE_FINAL_TYPE (NbMotionPage, nb_motion_page, GTK_TYPE_WIDGET)

enum { SIGNAL_LOG_LINE, SIGNAL_SEQUENCE_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];
enum { PROP_0, PROP_RUNNING, N_PROPS };
static GParamSpec *props[N_PROPS];

static void
sequence_run_free (SequenceRun *run)
{
  g_clear_pointer (&run->sequence, nb_sequence_free);
  g_clear_pointer (&run->context, g_main_context_unref);
  g_free (run->url);
  g_free (run->model_dir);
  g_free (run->summary);
  g_mutex_clear (&run->lock);
  g_clear_object (&run->page);
  g_free (run);
}

gboolean
nb_motion_page_is_running (NbMotionPage *page)
{
  return page->run != NULL;
}

static void
set_status (GtkWidget *label, const char *text, gboolean problem)
{
  gtk_label_set_text (GTK_LABEL (label), text);
  if (problem)
    gtk_widget_add_css_class (label, "error");
  else
    gtk_widget_remove_css_class (label, "error");
}

static void
update_sensitivity (NbMotionPage *page)
{
  gboolean running = page->run != NULL;
  gboolean url = gtk_drop_down_get_selected (GTK_DROP_DOWN (page->seq_robot)) == ROBOT_URL;

  gtk_widget_set_sensitive (page->seq_start, !running);
  gtk_widget_set_sensitive (page->seq_file, !running);
  gtk_widget_set_sensitive (page->seq_robot, !running);
  gtk_widget_set_sensitive (page->seq_url, !running);
  gtk_widget_set_sensitive (page->seq_iterations, !running);
  gtk_widget_set_visible (page->seq_url, url);
  gtk_widget_set_visible (page->seq_url_label, url);
  gtk_widget_set_sensitive (page->seq_real_time, !url && !running);
  g_object_notify_by_pspec (G_OBJECT (page), props[PROP_RUNNING]);
}

static void
append_text (GtkWidget *view, const char *line)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, line, -1);
  gtk_text_buffer_insert (buffer, &end, "\n", 1);
}

static char *
text_of (GtkWidget *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
clear_text (GtkWidget *view)
{
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), "", 0);
}

/* ------------------------------------------------------- the sequence -- */

typedef struct {
  NbMotionPage *page;
  char *line;
} LogLine;

static gboolean
show_log_line (gpointer data)
{
  LogLine *l = data;

  if (l->page->disposed)
    return G_SOURCE_REMOVE;
  append_text (l->page->seq_log, l->line);
  g_signal_emit (l->page, signals[SIGNAL_LOG_LINE], 0, l->line);
  return G_SOURCE_REMOVE;
}

static void
log_line_free (gpointer data)
{
  LogLine *l = data;

  g_object_unref (l->page);
  g_free (l->line);
  g_free (l);
}

/* In the worker: a line of the runner's log, to the main context. */
static void
on_log (const char *line, gpointer user_data)
{
  SequenceRun *run = user_data;
  LogLine *l = g_new0 (LogLine, 1);
  g_autofree char *words = nb_gui_message_text (line);

  l->page = g_object_ref (run->page);
  /* The simulated arm's virtual clock, as sequence run prints it; the line
   * in the window's language (the runner writes English, for the CLI). */
  l->line = run->clock_s != NULL ? g_strdup_printf (_("[%9.3f s] %s"), *run->clock_s, words)
                                 : g_steal_pointer (&words);
  g_main_context_invoke_full (run->context, G_PRIORITY_DEFAULT, show_log_line, l, log_line_free);
}

static void
sequence_worker (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  SequenceRun *run = task_data;
  GError *error = NULL;
  gboolean ok;

  if (run->robot_kind == ROBOT_URL)
    {
      NbHttpRobot *http = nb_http_robot_new (run->url, g_getenv ("NAVBENCH_TOKEN"), 600.0, &error);

      g_mutex_lock (&run->lock);
      run->http = http;
      g_mutex_unlock (&run->lock);
      ok = http != NULL &&
           nb_sequence_run (run->sequence, run->iterations, nb_http_robot_ops (), http,
                            &run->stop, on_log, run, &error);
      if (http != NULL)
        run->summary = g_strdup_printf (_("goals sent: %u, motion stops: %u"),
                                        nb_http_robot_goals (http), nb_http_robot_stops (http));
      g_mutex_lock (&run->lock);
      g_clear_pointer (&run->http, nb_http_robot_free);
      g_mutex_unlock (&run->lock);
    }
  else
    {
      NbArmModel model;
      NbSimArm arm;

      /* The TCP is the active tool's (tool_active.xacro), as sequence run's. */
      ok = nb_arm_model_load (run->model_dir, &model, &error);
      if (ok)
        {
          nb_sim_arm_init (&arm, &model, 1);
          arm.real_time = run->real_time;
          run->clock_s = &arm.clock_s;
          ok = nb_sequence_run (run->sequence, run->iterations, nb_sim_arm_ops (), &arm,
                                &run->stop, on_log, run, &error);
          run->summary = g_strdup_printf (_("goals sent: %u, motion stops: %u, virtual time "
                                            "%.3f s"), arm.goals, arm.stops, arm.clock_s);
          run->clock_s = NULL;
          nb_sim_arm_clear (&arm);
        }
    }
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
on_sequence_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  NbMotionPage *page = NB_MOTION_PAGE (source);
  SequenceRun *run = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);
  g_autofree char *text = NULL;
  g_autofree char *why = error != NULL ? nb_gui_message_text (error->message) : NULL;
  /* The counts are a sentence of their own after the stop or the error:
   * each sentence begins with a capital, in either language (the
   * libraries' messages and the counts begin in lower case). */
  g_autofree char *counts = nb_gui_sentence (run->summary ? run->summary : "");

  page->run = NULL;
  if (page->disposed)
    return;
  if (ok)
    text = g_strdup_printf (_("Done: %s."), run->summary ? run->summary : "");
  else if (g_atomic_int_get (&run->stop))
    text = g_strdup_printf (_("Stopped: %s. %s."), why, counts);
  else
    {
      g_autofree char *error_words = nb_gui_sentence (why);

      text = run->summary != NULL ? g_strdup_printf ("%s. %s.", error_words, counts)
                                  : g_strdup_printf ("%s.", error_words);
    }
  set_status (page->seq_status, text, !ok && !g_atomic_int_get (&run->stop));
  append_text (page->seq_log, text);
  update_sensitivity (page);
  g_signal_emit (page, signals[SIGNAL_SEQUENCE_FINISHED], 0, ok);
}

void
nb_motion_page_start (NbMotionPage *page)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GTask) task = NULL;
  SequenceRun *run;

  if (page->run != NULL || page->sequence_path == NULL)
    return;
  gtk_spin_button_update (GTK_SPIN_BUTTON (page->seq_iterations));
  run = g_new0 (SequenceRun, 1);
  g_mutex_init (&run->lock);
  run->robot_kind = MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (page->seq_robot)), ROBOT_URL);
  run->url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (page->seq_url))));
  run->iterations = (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (page->seq_iterations));
  run->real_time = gtk_switch_get_active (GTK_SWITCH (page->seq_real_time));
  run->model_dir = nb_gui_data_path ("robots/iiwa7");
  clear_text (page->seq_log);
  /* Refused before any motion: the sequence's file, named with its error. */
  if ((run->sequence = nb_sequence_load (page->sequence_path, &error)) == NULL ||
      (run->robot_kind == ROBOT_URL && !g_str_has_prefix (run->url, "http://")))
    {
      set_status (page->seq_status, error ? error->message
                  : _("The motion stack’s address is http://HOST:PORT."), TRUE);
      sequence_run_free (run);
      g_signal_emit (page, signals[SIGNAL_SEQUENCE_FINISHED], 0, FALSE);
      return;
    }
  run->page = g_object_ref (page);
  run->context = g_main_context_ref_thread_default ();
  page->run = run;
  set_status (page->seq_status, _("Running…"), FALSE);
  update_sensitivity (page);
  task = g_task_new (page, NULL, on_sequence_done, NULL);
  g_task_set_task_data (task, run, (GDestroyNotify) sequence_run_free);
  g_task_run_in_thread (task, sequence_worker);
}

void
nb_motion_page_stop (NbMotionPage *page)
{
  SequenceRun *run = page->run;

  if (run == NULL)
    return;
  g_atomic_int_set (&run->stop, 1);
  /* A goal of the motion stack blocks its request: cut it now. */
  g_mutex_lock (&run->lock);
  if (run->http != NULL && nb_http_robot_ops ()->interrupt != NULL)
    nb_http_robot_ops ()->interrupt (run->http);
  g_mutex_unlock (&run->lock);
  set_status (page->seq_status, _("Stopping before the next point…"), FALSE);
}

char *
nb_motion_page_get_log (NbMotionPage *page)
{
  return text_of (page->seq_log);
}

static void
set_file_label (GtkWidget *button, const char *path)
{
  g_autofree char *base = path ? g_path_get_basename (path) : NULL;

  gtk_button_set_label (GTK_BUTTON (button), base ? base : _("(none)"));
  gtk_widget_set_tooltip_text (button, path);
}

void
nb_motion_page_set_sequence_file (NbMotionPage *page, const char *path)
{
  g_free (page->sequence_path);
  page->sequence_path = g_strdup (path);
  set_file_label (page->seq_file, path);
}

/* ------------------------------------------------------ the skill plan -- */

void
nb_motion_page_set_plan_file (NbMotionPage *page, const char *path)
{
  g_free (page->plan_path);
  page->plan_path = g_strdup (path);
  set_file_label (page->plan_file, path);
  clear_text (page->plan_out);
  set_status (page->plan_status, "", FALSE);
}

/* The plan read and checked as plan check does; NULL (the reason shown)
 * when it cannot be read. */
static const NbPlan *
check (NbMotionPage *page, NbPlanChecker **checker_out, NbSkillTable **skills_out, char **data_out)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *skills_path = nb_gui_data_path ("skills.json");
  g_autoptr (GArray) violations = nb_plan_violations_new ();
  NbSkillTable *skills;
  NbPlanChecker *checker;
  NbPlanMode mode = (NbPlanMode) MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (page->plan_mode)),
                                      NB_PLAN_MODE_BRANCH);
  g_autofree char *base = page->plan_path ? g_path_get_basename (page->plan_path) : NULL;
  const char *text;
  const NbPlan *plan;
  char *data = NULL;
  gsize len;

  clear_text (page->plan_out);
  if (page->plan_path == NULL)
    return NULL;
  if ((skills = nb_skill_table_load_file (skills_path, &error)) == NULL ||
      !g_file_get_contents (page->plan_path, &data, &len, &error))
    {
      set_status (page->plan_status, error->message, TRUE);
      nb_skill_table_free (skills);
      return NULL;
    }
  text = data;
  if (len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    text += 3, len -= 3;
  checker = nb_plan_checker_new (skills, mode, FALSE);
  plan = nb_plan_checker_check (checker, text, len, 1, violations);
  for (guint i = 0; i < violations->len; i++)
    {
      const NbPlanViolation *v = &g_array_index (violations, NbPlanViolation, i);
      g_autofree char *line = g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": %s%s%s [%s]: %s", base,
                                               v->line, v->location, *v->location ? ": " : "",
                                               v->severity == NB_PLAN_ERROR ? _("error")
                                                                            : _("warning"),
                                               nb_plan_violation_kind_name (v->kind),
                                               v->message);

      append_text (page->plan_out, line);
    }
  if (plan == NULL || plan->n_errors > 0)
    {
      g_autofree char *status = g_strdup_printf (_("%s: the %s plan has errors: not run."), base,
                                                 nb_plan_mode_name (mode));

      set_status (page->plan_status, status, TRUE);
    }
  else
    {
      g_autofree char *status = plan->n_warnings > 0
        ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: the %s plan is valid, %u warning.",
                                        "%s: the %s plan is valid, %u warnings.",
                                        plan->n_warnings),
                           base, nb_plan_mode_name (mode), plan->n_warnings)
        : g_strdup_printf (_("%s: the %s plan is valid."), base, nb_plan_mode_name (mode));

      set_status (page->plan_status, status, FALSE);
    }
  *checker_out = checker;
  *skills_out = skills;
  *data_out = data;
  return plan;
}

gboolean
nb_motion_page_check_plan (NbMotionPage *page)
{
  NbPlanChecker *checker = NULL;
  NbSkillTable *skills = NULL;
  g_autofree char *data = NULL;
  const NbPlan *plan = check (page, &checker, &skills, &data);
  gboolean ok = plan != NULL && plan->n_errors == 0;

  nb_plan_checker_free (checker);
  nb_skill_table_free (skills);
  return ok;
}

static gboolean
execute_sim (const NbPlanAction *a, guint index, gpointer user_data, char **reason)
{
  return nb_sim_robot_execute (user_data, index, a->skill_def, a->object, a->target, FALSE,
                               reason);
}

gboolean
nb_motion_page_run_plan (NbMotionPage *page)
{
  NbPlanChecker *checker = NULL;
  NbSkillTable *skills = NULL;
  g_autofree char *data = NULL;
  const NbPlan *plan = check (page, &checker, &skills, &data);
  g_autoptr (GArray) trace = nb_plan_trace_new ();
  g_autoptr (NbSimRobot) robot = NULL;
  g_autoptr (GError) error = NULL;
  NbPlanOutcome outcome;
  gboolean ok = FALSE;

  if (plan != NULL && plan->n_errors == 0)
    {
      const GArray *events;
      guint ev = 0;
      g_autofree char *status = NULL;

      robot = nb_sim_robot_new ();
      if (!nb_plan_run (plan, execute_sim, robot, &outcome, trace, &error))
        set_status (page->plan_status, error->message, TRUE);
      else
        {
          append_text (page->plan_out, _("Trace on the simulated cobot:"));
          events = nb_sim_robot_events (robot);
          for (guint k = 0; k < trace->len; k++)
            {
              const NbPlanTraceEntry *e = &g_array_index (trace, NbPlanTraceEntry, k);
              const NbPlanAction *a = &plan->actions[e->index];
              g_autofree char *line = g_strdup_printf ("%u. %s %s%s%s: %s%s%s%s%s", e->index + 1,
                                                       a->skill, a->object,
                                                       a->target ? " → " : "",
                                                       a->target ? a->target : "",
                                                       e->ok ? _("success") : _("failure"),
                                                       e->reason ? " (" : "",
                                                       e->reason ? e->reason : "",
                                                       e->reason ? ")" : "",
                                                       e->next ? "" : "");

              append_text (page->plan_out, line);
              for (; ev < events->len &&
                     g_array_index (events, NbSimEvent, ev).action == e->index; ev++)
                {
                  const NbSimEvent *s = &g_array_index (events, NbSimEvent, ev);
                  g_autofree char *step = g_strdup_printf ("    %9.3f s  %s %s (%.3f s)%s",
                                                           s->t_start_s,
                                                           nb_sim_step_name (s->kind),
                                                           s->place ? s->place
                                                           : s->what ? s->what : "",
                                                           s->duration_s,
                                                           s->ok ? "" : _(" failed"));

                  append_text (page->plan_out, step);
                }
            }
          status = g_strdup_printf (_("Outcome: %s, %.3f s on the simulated cobot."),
                                    nb_plan_outcome_name (outcome),
                                    nb_sim_robot_clock_s (robot));
          set_status (page->plan_status, status, outcome == NB_PLAN_OUTCOME_REPLAN_REQUIRED);
          ok = TRUE;
        }
    }
  nb_plan_checker_free (checker);
  nb_skill_table_free (skills);
  return ok;
}

char *
nb_motion_page_get_plan_output (NbMotionPage *page)
{
  return text_of (page->plan_out);
}

/* ------------------------------------------------------------- layout -- */

typedef struct {
  NbMotionPage *page;
  gboolean plan;
} Chooser;

static void
on_file_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  Chooser *c = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL && c->plan)
        nb_motion_page_set_plan_file (c->page, path);
      else if (path != NULL)
        nb_motion_page_set_sequence_file (c->page, path);
    }
  g_object_unref (c->page);
  g_free (c);
  g_object_unref (dialog);
}

static void
choose_file (NbMotionPage *page, gboolean plan)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (page));
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (plan ? _("Open a Skill Plan") : _("Open a Motion Sequence"),
                                 GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  Chooser *c = g_new0 (Chooser, 1);

  c->page = g_object_ref (page);
  c->plan = plan;
  g_signal_connect (dialog, "response", G_CALLBACK (on_file_response), c);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
on_seq_file (GtkButton *button, gpointer user_data)
{
  choose_file (user_data, FALSE);
}

static void
on_plan_file (GtkButton *button, gpointer user_data)
{
  choose_file (user_data, TRUE);
}

static void
on_start (GtkButton *button, gpointer user_data)
{
  nb_motion_page_start (user_data);
}

static void
on_check (GtkButton *button, gpointer user_data)
{
  nb_motion_page_check_plan (user_data);
}

static void
on_run (GtkButton *button, gpointer user_data)
{
  nb_motion_page_run_plan (user_data);
}

static void
nb_motion_page_init (NbMotionPage *page)
{
  const char *robots[G_N_ELEMENTS (robot_values) + 1] = { NULL };
  g_autoptr (GtkStringList) model = NULL;
  g_autofree char *sequence = nb_gui_data_path ("sequences/pick-and-place.json");

  gtk_widget_init_template (GTK_WIDGET (page));
  for (guint i = 0; i < G_N_ELEMENTS (robot_values); i++)
    robots[i] = _(robot_values[i]);
  model = gtk_string_list_new (robots);
  gtk_drop_down_set_model (GTK_DROP_DOWN (page->seq_robot), G_LIST_MODEL (model));
  nb_motion_page_set_sequence_file (page, sequence);
  set_file_label (page->plan_file, NULL);
  g_signal_connect (page->seq_file, "clicked", G_CALLBACK (on_seq_file), page);
  g_signal_connect (page->plan_file, "clicked", G_CALLBACK (on_plan_file), page);
  g_signal_connect (page->seq_start, "clicked", G_CALLBACK (on_start), page);
  g_signal_connect (page->plan_check, "clicked", G_CALLBACK (on_check), page);
  g_signal_connect (page->plan_run, "clicked", G_CALLBACK (on_run), page);
  g_signal_connect_swapped (page->seq_robot, "notify::selected", G_CALLBACK (update_sensitivity),
                            page);
  set_status (page->seq_status, _("The simulated arm: the sequence runs on its model."), FALSE);
  update_sensitivity (page);
}

static void
nb_motion_page_dispose (GObject *object)
{
  NbMotionPage *page = NB_MOTION_PAGE (object);

  /* The window is going: the sequence stops before its next point. */
  if (page->run != NULL)
    {
      g_atomic_int_set (&page->run->stop, 1);
      page->disposed = TRUE;
    }
  gtk_widget_dispose_template (GTK_WIDGET (page), NB_TYPE_MOTION_PAGE);
  G_OBJECT_CLASS (nb_motion_page_parent_class)->dispose (object);
}

static void
nb_motion_page_finalize (GObject *object)
{
  NbMotionPage *page = NB_MOTION_PAGE (object);

  g_free (page->sequence_path);
  g_free (page->plan_path);
  G_OBJECT_CLASS (nb_motion_page_parent_class)->finalize (object);
}

static void
nb_motion_page_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  switch (id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, nb_motion_page_is_running (NB_MOTION_PAGE (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
nb_motion_page_class_init (NbMotionPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nb_motion_page_dispose;
  object_class->finalize = nb_motion_page_finalize;
  object_class->get_property = nb_motion_page_get_property;
  props[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/navbench/Navbench/nb-motion-page.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, NbMotionPage, name)
  BIND (box);
  BIND (seq_file);
  BIND (seq_robot);
  BIND (seq_url);
  BIND (seq_url_label);
  BIND (seq_iterations);
  BIND (seq_real_time);
  BIND (seq_start);
  BIND (seq_stop);
  BIND (seq_status);
  BIND (seq_log);
  BIND (plan_file);
  BIND (plan_mode);
  BIND (plan_check);
  BIND (plan_run);
  BIND (plan_status);
  BIND (plan_out);
#undef BIND
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  signals[SIGNAL_LOG_LINE] = g_signal_new ("log-line", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                                           1, G_TYPE_STRING);
  signals[SIGNAL_SEQUENCE_FINISHED] = g_signal_new ("sequence-finished", G_TYPE_FROM_CLASS (klass),
                                                    G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                    G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

GtkWidget *
nb_motion_page_new (void)
{
  return g_object_new (NB_TYPE_MOTION_PAGE, NULL);
}
