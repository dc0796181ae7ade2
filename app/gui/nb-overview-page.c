/* nb-overview-page.c — the campaign's plan and each configuration's set-up
 * (see nb-overview-page.h) */
#include "nb-overview-page.h"

#include "nb-arm-file.h"
#include "nb-campaign.h"
#include "nb-campaign-iso9283.h"
#include "nb-campaign-plan.h"
#include "nb-clause.h"
#include "nb-clause-9283.h"
#include "nb-error.h"
#include "nb-figure-rows.h"
#include "nb-gui-paths.h"
#include "nb-iso9283-run.h"
#include "nb-reason-dialog.h"
#include "nb-record-words.h"
#include "nb-setup.h"
#include "nb-setup-drawing.h"
#include "nb-window.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

typedef struct {
  NbPlanEntry entry;
  NbPlanStatus status;
  gboolean have_setup;
  NbSetup setup;
  char *setup_error;            /* why there is no drawing */
  /* An ISO 9283 configuration (then entry is empty): its plan entry (in
   * the page's plan_9283) and nb_iso9283_plan_rows's row of it. */
  const NbIso9283PlanEntry *e9;
  NbIso9283PlanRow row9;
} PlanRow;

typedef struct {
  GArray *rows;                 /* of PlanRow */
  GArray *plan_9283;            /* of NbIso9283PlanEntry, the rows' */
  int next_9283;                /* index into rows, -1 none */
  char *problem;                /* no plan: why (no width) */
} PlanLoad;

/* Who drives the arm of an ISO 9283 run, and what measures it (the
 * drop-downs' items, nb-overview-page.ui). */
enum { ARM_SIM, ARM_URL };
enum { MEASURE_TRACKER, MEASURE_INSTRUMENT };

/* An ISO 9283 configuration run (a GTask's thread): on the simulated arm,
 * or on the motion stack's arm at url measured by the simulated tracker
 * through the joints it reports or by device (the Instrument page's). */
typedef struct {
  NbOverviewPage *page;         /* a reference */
  char *path, *config, *robot_dir;
  guint arm;
  char *url;
  NbDevice *device;             /* borrowed: the page's while the run reads it; NULL: none */
  char *device_words;           /* what the run records it as: "DRIVER URL" */
  GCancellable *cancellable;
  NbCampaign *campaign;         /* opened for writing in the window's I/O queue */
  GTask *task;                  /* borrowed: its thread starts once campaign is open */
  guint ran, cycle, of;
  char *left;                   /* the runner left it: why */
} Run9283;

struct _NbOverviewPage {
  AdwBin parent_instance;
  /* From nb-overview-page.ui. */
  GtkStack *stack;
  AdwStatusPage *empty;
  GtkLabel *summary, *next, *title, *status, *legend;
  GtkListBox *list;
  GtkWidget *drawing, *scope;

  NbIoQueue *queue;
  char *path;
  guint generation;             /* loads of an earlier campaign are dropped */
  GArray *rows;                 /* of PlanRow, shown */
  int selected;                 /* index into rows, -1 none */
  guint loads;
  gboolean filling;             /* the list is being rebuilt: not a selection */
  AdwMessageDialog *dialog;     /* the reason asked now */
  GArray *plan_9283;            /* of NbIso9283PlanEntry: the rows' (NULL: none yet) */
  GtkWidget *run_9283, *add_9283;
  GtkWidget *rig_9283, *robot_9283, *url_9283, *url_label_9283, *measure_9283,
            *measure_label_9283;
  NbDevice *device;             /* borrowed: the Instrument page's, or NULL */
  gboolean device_in_use;       /* an ISO 9283 run measures with device */
  Run9283 *run;                 /* the ISO 9283 run going on, or NULL */
  gboolean can_run;             /* nothing else runs (nb_overview_page_set_can_run) */
  guint runs;
  guint reveal;                 /* the tick that scrolls the selected row into view, or 0 */
};

enum { PROP_0, PROP_RUNNING, PROP_DEVICE_IN_USE, N_PROPS };
static GParamSpec *props[N_PROPS];

G_DEFINE_FINAL_TYPE (NbOverviewPage, nb_overview_page, ADW_TYPE_BIN)

static void
plan_row_clear (gpointer p)
{
  PlanRow *row = p;

  nb_plan_entry_clear (&row->entry);
  g_free (row->setup_error);
}

static void
plan_load_free (gpointer p)
{
  PlanLoad *load = p;

  if (load == NULL)
    return;
  g_clear_pointer (&load->rows, g_array_unref);
  g_clear_pointer (&load->plan_9283, g_array_unref);
  g_free (load->problem);
  g_free (load);
}

/* ------------------------------------------------------------- words -- */

static const char *
state_words (NbPlanState state)
{
  switch (state)
    {
    case NB_PLAN_OUT_OF_SCOPE: return _("out of scope");
    case NB_PLAN_NOT_STARTED: return _("not started");
    case NB_PLAN_IN_PROGRESS: return _("in progress");
    case NB_PLAN_COMPLETE: return _("complete");
    case NB_PLAN_PASSED: return _("passed");
    case NB_PLAN_FAILED: return _("failed");
    default: return "?";
    }
}

char *
nb_overview_status_text (const NbPlanEntry *e, const NbPlanStatus *st)
{
  const NbClause *clause = nb_clause_lookup (e->clause);
  const char *word = clause != NULL ? _(clause->trial_word) : _("trials");

  if (st->state == NB_PLAN_OUT_OF_SCOPE)
    {
      /* The plan's own reasons name a field by its label, not its key. */
      g_autofree char *reason = nb_plan_reason_words (nb_gui_catalogue (nb_gui_ui_language (),
                                                                        NULL), e->reason);

      return g_strdup_printf (_("out of scope: %s"), reason ? reason : _("no reason given"));
    }
  return g_strdup_printf (_("%u/%u %s — %s"), st->done, st->needed, word, state_words (st->state));
}

/* A configuration in words (the plan's key is the tooltip). */
static char *
entry_words (const NbPlanEntry *e)
{
  const NbClause *clause = nb_clause_lookup (e->clause);
  g_autofree char *load = NULL;
  const char *obstacle = e->obstacle ? _(e->obstacle) : NULL;

  if (!isnan (e->load_kg))
    load = e->load_kg > 0 ? g_strdup_printf (_("rated load %g kg"), e->load_kg)
                          : g_strdup (_("no load"));
  else if (g_strrstr (e->config, "rated-load") != NULL)
    load = g_strdup (_("rated load (not declared)"));
  if (e->route != NULL)
    {
      const char *route = g_str_equal (e->route, "straight") ? _("straight route")
                          : g_str_equal (e->route, "rectangular") ? _("rectangular route")
                          : g_str_equal (e->route, "combined") ? _("combined route") : e->route;

      return load ? g_strdup_printf ("%s, %s", route, load) : g_strdup (route);
    }
  if (e->behaviour != NULL && obstacle != NULL)
    return g_strdup_printf (_("behaviour %s, %s"), e->behaviour, obstacle);
  if (obstacle != NULL)
    return g_strdup (obstacle);
  if (clause != NULL && nb_clause_takes (clause, NB_CLAUSE_OPT_ALL_OBSTACLES))
    return g_strdup (_("all table 2 obstacles"));
  if (g_str_equal (e->config, "arena"))
    return g_strdup (_("the arena"));
  if (load != NULL && clause != NULL && nb_clause_takes (clause, NB_CLAUSE_OPT_LOAD))
    return g_steal_pointer (&load);
  return g_strdup (e->config);
}

/* ----------------------------------------------------- ISO 9283 words -- */

static const char *
load_words_9283 (const char *load)
{
  /* xgettext:no-c-format */
  return g_strcmp0 (load, "10%") == 0 ? g_dpgettext2 (NULL, "iso9283", "10 % of the rated load")
                                      : g_dpgettext2 (NULL, "iso9283", "rated load");
}

char *
nb_overview_iso9283_entry_text (const NbIso9283PlanEntry *e)
{
  return g_strdup_printf (_("%.0f %% of the rated velocity, %s"), e->speed_pct,
                          load_words_9283 (e->load));
}

char *
nb_overview_iso9283_status_text (const NbIso9283PlanEntry *e, const NbIso9283PlanRow *row)
{
  if (row->state == NB_ISO9283_PLAN_OUT_OF_SCOPE)
    {
      g_autofree char *reason = nb_plan_reason_words (nb_gui_catalogue (nb_gui_ui_language (),
                                                                        NULL), e->reason);

      return g_strdup_printf (_("out of scope: %s"), reason ? reason : _("no reason given"));
    }
  return g_strdup_printf (_("%u/%u cycles — %s"), row->cycles, e->cycles,
                          _(nb_iso9283_plan_state_name (row->state)));
}

static char *
heading_9283 (const NbIso9283PlanEntry *e)
{
  const NbClause9283 *clause = nb_clause_9283_lookup (e->characteristic);

  if (clause == NULL)
    return g_strdup_printf ("ISO 9283 — %s", e->characteristic);
  return g_strdup_printf (_("ISO 9283 %s — %s"), clause->clause,
                          g_dpgettext2 (NULL, "iso9283", clause->title));
}

static char *
clause_heading (guint number)
{
  const NbClause *clause = nb_clause_lookup (number);

  return g_strdup_printf (_("Clause %u — %s"), number, clause ? _(clause->title) : "");
}

/* ----------------------------------------------------------- loading -- */

static gpointer
load_work (gpointer data, GError **error)
{
  const char *path = ((NbLoadJob *) data)->path;
  g_autoptr (NbCampaign) campaign = nb_campaign_open (path, NB_CAMPAIGN_OPEN_READ_ONLY, error);
  g_autoptr (GArray) plan = NULL;
  g_autofree char *problem = NULL;
  PlanLoad *load;

  if (campaign == NULL || (plan = nb_campaign_plan_list (campaign, error)) == NULL)
    return NULL;
  if (plan->len == 0)
    {
      double lu;
      gboolean made;
      g_autoptr (GError) local = NULL;

      if (!nb_campaign_get_lu_mm (campaign, &lu, &local))
        {
          if (local != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return NULL;
            }
          /* ISO 9283's plan may be there all the same. */
          problem = g_strdup (_("The plan is laid out in LU (4.5), from the robot's width: "
                                "enter the width on the Campaign page."));
        }
      else
        {
          /* The first look at the plan makes it (as campaign plan does). */
          g_clear_pointer (&plan, g_array_unref);
          if (!nb_campaign_close (g_steal_pointer (&campaign), error) ||
              (campaign = nb_campaign_open (path, 0, error)) == NULL ||
              !nb_plan_ensure (campaign, &made, error) ||
              (plan = nb_campaign_plan_list (campaign, error)) == NULL)
            return NULL;
        }
    }
  load = g_new0 (PlanLoad, 1);
  load->problem = g_steal_pointer (&problem);
  load->rows = g_array_sized_new (FALSE, TRUE, sizeof (PlanRow), plan->len);
  g_array_set_clear_func (load->rows, plan_row_clear);
  for (guint i = 0; i < plan->len; i++)
    {
      NbPlanEntry *e = &g_array_index (plan, NbPlanEntry, i);
      PlanRow row = { { 0 } };
      NbCampaignConfig config;
      g_autoptr (GError) local = NULL;

      if (!nb_plan_status (campaign, e, &row.status, error))
        {
          plan_load_free (load);
          return NULL;
        }
      row.have_setup = nb_setup_of_planned (campaign, e->clause, e->config, &config, &row.setup,
                                            &local);
      nb_campaign_config_clear (&config);
      if (!row.have_setup)
        row.setup_error = g_strdup (local->message);
      /* The entry moves into the row. */
      row.entry = *e;
      nb_plan_entry_init (e);
      g_array_append_val (load->rows, row);
    }
  /* The ISO 9283 plan after it, when the file holds one (as `campaign
   * plan` prints it). */
  load->next_9283 = -1;
  if ((load->plan_9283 = nb_campaign_iso9283_plan_list (campaign, error)) == NULL)
    {
      plan_load_free (load);
      return NULL;
    }
  if (load->plan_9283->len > 0)
    {
      const NbIso9283PlanEntry *next = NULL;
      g_autoptr (GArray) rows9 = nb_iso9283_plan_rows (campaign, load->plan_9283, &next, error);

      if (rows9 == NULL)
        {
          plan_load_free (load);
          return NULL;
        }
      for (guint i = 0; i < rows9->len; i++)
        {
          PlanRow row = { { 0 } };

          nb_plan_entry_init (&row.entry);
          row.row9 = g_array_index (rows9, NbIso9283PlanRow, i);
          row.e9 = row.row9.entry;
          if (row.e9 == next)
            load->next_9283 = (int) load->rows->len;
          g_array_append_val (load->rows, row);
        }
    }
  if (!nb_campaign_close (g_steal_pointer (&campaign), error))
    {
      plan_load_free (load);
      return NULL;
    }
  return load;
}

static void show_selected (NbOverviewPage *page);
static void reveal_selected (NbOverviewPage *page);

static GtkWidget *
make_row (const PlanRow *r)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *words = r->e9 ? nb_overview_iso9283_entry_text (r->e9) : entry_words (&r->entry);
  g_autofree char *status = r->e9 ? nb_overview_iso9283_status_text (r->e9, &r->row9)
                                  : nb_overview_status_text (&r->entry, &r->status);
  g_autofree char *name = r->e9 ? g_strdup_printf ("plan-iso9283-%s", r->e9->config)
                                : g_strdup_printf ("plan-%u-%s", r->entry.clause, r->entry.config);
  GtkWidget *title = gtk_label_new (words), *sub = gtk_label_new (status);
  const char *icon;

  if (r->e9)
    icon = r->row9.state == NB_ISO9283_PLAN_OUT_OF_SCOPE ? "action-unavailable-symbolic"
           : r->row9.state == NB_ISO9283_PLAN_COMPLETE ? "emblem-ok-symbolic"
           : r->row9.state == NB_ISO9283_PLAN_IN_PROGRESS ? "media-playback-pause-symbolic"
           : "radio-symbolic";
  else
    switch (r->status.state)
      {
      case NB_PLAN_OUT_OF_SCOPE: icon = "action-unavailable-symbolic"; break;
      case NB_PLAN_COMPLETE: case NB_PLAN_PASSED: icon = "emblem-ok-symbolic"; break;
      case NB_PLAN_FAILED: icon = "dialog-error-symbolic"; break;
      case NB_PLAN_IN_PROGRESS: icon = "media-playback-pause-symbolic"; break;
      default: icon = "radio-symbolic"; break;
      }
  gtk_widget_set_name (row, name);
  gtk_widget_set_tooltip_text (row, r->e9 ? r->e9->config : r->entry.config);
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name (icon));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_xalign (GTK_LABEL (sub), 0);
  gtk_label_set_wrap (GTK_LABEL (sub), TRUE);
  gtk_widget_set_name (sub, "overview-row-status");
  gtk_widget_add_css_class (sub, "caption");
  gtk_widget_add_css_class (sub, !r->e9 && r->status.state == NB_PLAN_FAILED ? "error"
                                                                            : "dim-label");
  gtk_box_append (GTK_BOX (texts), title);
  gtk_box_append (GTK_BOX (texts), sub);
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (box), texts);
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

/* A heading above the first configuration of each clause. */
static void
header_func (GtkListBoxRow *row, GtkListBoxRow *before, gpointer user_data)
{
  NbOverviewPage *page = user_data;
  int i = gtk_list_box_row_get_index (row), j = before ? gtk_list_box_row_get_index (before) : -1;
  const PlanRow *r, *b;

  if (page->rows == NULL || i < 0 || (guint) i >= page->rows->len)
    return;
  r = &g_array_index (page->rows, PlanRow, i);
  b = j >= 0 ? &g_array_index (page->rows, PlanRow, j) : NULL;
  /* ISO 18646-2 by clause; ISO 9283 by characteristic. */
  if (b != NULL && (r->e9 ? b->e9 && g_str_equal (b->e9->characteristic, r->e9->characteristic)
                          : !b->e9 && b->entry.clause == r->entry.clause))
    gtk_list_box_row_set_header (row, NULL);
  else if (gtk_list_box_row_get_header (row) == NULL)
    {
      g_autofree char *text = r->e9 ? heading_9283 (r->e9) : clause_heading (r->entry.clause);
      GtkWidget *label = gtk_label_new (text);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "heading");
      gtk_widget_set_margin_start (label, 12);
      gtk_widget_set_margin_end (label, 12);
      gtk_widget_set_margin_top (label, j >= 0 ? 12 : 6);
      gtk_widget_set_margin_bottom (label, 3);
      gtk_list_box_row_set_header (row, label);
    }
}

static void
fill (NbOverviewPage *page, PlanLoad *load)
{
  guint complete = 0, out = 0, trials = 0, needed = 0, n18 = 0, n9 = 0, out9 = 0, done9 = 0;
  int next = -1, keep = -1;
  GtkWidget *child;
  g_autofree char *summary = NULL, *done_text = NULL;

  /* The selection stays on the same configuration. */
  if (page->rows != NULL && page->selected >= 0)
    {
      const PlanRow *old = &g_array_index (page->rows, PlanRow, page->selected);

      for (guint i = 0; i < load->rows->len && keep < 0; i++)
        {
          const PlanRow *r = &g_array_index (load->rows, PlanRow, i);

          if (old->e9 ? r->e9 && g_str_equal (r->e9->config, old->e9->config)
                      : !r->e9 && r->entry.clause == old->entry.clause &&
                        g_str_equal (r->entry.config, old->entry.config))
            keep = (int) i;
        }
    }
  page->filling = TRUE;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (page->list))) != NULL)
    gtk_list_box_remove (page->list, child);
  g_clear_pointer (&page->rows, g_array_unref);
  g_clear_pointer (&page->plan_9283, g_array_unref);
  page->rows = g_steal_pointer (&load->rows);
  page->plan_9283 = g_steal_pointer (&load->plan_9283);
  for (guint i = 0; i < page->rows->len; i++)
    {
      const PlanRow *r = &g_array_index (page->rows, PlanRow, i);

      gtk_list_box_append (page->list, make_row (r));
      if (r->e9 != NULL)
        {
          n9++;
          out9 += r->row9.state == NB_ISO9283_PLAN_OUT_OF_SCOPE;
          done9 += r->row9.state == NB_ISO9283_PLAN_COMPLETE;
          continue;
        }
      n18++;
      if (r->status.state == NB_PLAN_OUT_OF_SCOPE)
        out++;
      else
        {
          complete += nb_plan_status_done (&r->status);
          trials += MIN (r->status.done, r->status.needed);
          needed += r->status.needed;
        }
      if (next < 0 && nb_plan_runs_next (&r->entry, &r->status))
        next = (int) i;
    }
  gtk_list_box_invalidate_headers (page->list);
  page->filling = FALSE;
  done_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u configuration done",
                                            "%u of %u configurations done", n18 - out),
                               complete, n18 - out);
  summary = g_strdup_printf (_("The plan: %s, %u out of scope; %u of %u trials."), done_text, out,
                             trials, needed);
  if (n9 > 0)
    {
      const PlanRow *r9 = load->next_9283 >= 0 ? &g_array_index (page->rows, PlanRow,
                                                                 load->next_9283) : NULL;
      g_autofree char *words = r9 ? nb_overview_iso9283_entry_text (r9->e9) : NULL;
      const NbClause9283 *c9 = r9 ? nb_clause_9283_lookup (r9->e9->characteristic) : NULL;
      g_autofree char *next9 = r9 ? g_strdup_printf (_("next: %s (%s), %s"),
                                                     c9 ? g_dpgettext2 (NULL, "iso9283", c9->title)
                                                        : r9->e9->characteristic,
                                                     c9 ? c9->clause : "?", words)
                                  : g_strdup (_("nothing is left"));
      g_autofree char *line = g_strdup_printf (_("ISO 9283: %u of %u configurations complete, %u "
                                                 "out of scope; %s."), done9, n9 - out9, out9,
                                               next9);
      char *both = n18 > 0 ? g_strconcat (summary, "\n", line, NULL) : g_strdup (line);

      g_free (summary);
      summary = both;
    }
  gtk_label_set_text (page->summary, summary);
  gtk_widget_set_visible (page->add_9283, n9 == 0);
  if (load->problem != NULL)
    gtk_label_set_text (page->next, load->problem);
  else if (next >= 0)
    {
      const PlanRow *r = &g_array_index (page->rows, PlanRow, next);
      g_autofree char *words = entry_words (&r->entry);
      g_autofree char *status = nb_overview_status_text (&r->entry, &r->status);
      g_autofree char *text = g_strdup_printf (_("Next: clause %u, %s (%s)."), r->entry.clause,
                                               words, status);

      gtk_label_set_text (page->next, text);
    }
  else
    {
      gboolean left = FALSE;

      for (guint i = 0; i < page->rows->len; i++)
        left |= !g_array_index (page->rows, PlanRow, i).e9 &&
                !nb_plan_status_done (&g_array_index (page->rows, PlanRow, i).status);
      gtk_label_set_text (page->next, left ? _("Next: what is left is not driven by the runner: "
                                               "record those trials by importing them.")
                                           : _("Nothing is left: every configuration in scope "
                                               "is done."));
    }
  page->selected = keep >= 0 ? keep : next >= 0 ? next : page->rows->len > 0 ? 0 : -1;
  if (page->selected >= 0)
    gtk_list_box_select_row (page->list, gtk_list_box_get_row_at_index (page->list,
                                                                        page->selected));
  show_selected (page);
  reveal_selected (page);
}

static void
load_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbOverviewPage *page = NB_OVERVIEW_PAGE (owner);
  PlanLoad *load = *result;

  /* Disposed (the window went): a job keeps its owner, not its widgets. */
  if (((NbLoadJob *) data)->generation != page->generation || page->list == NULL)
    return;
  page->loads++;
  if (error != NULL)
    {
      adw_status_page_set_title (page->empty, _("The Plan Could Not Be Read"));
      adw_status_page_set_description (page->empty, error->message);
      gtk_stack_set_visible_child_name (page->stack, "empty");
      return;
    }
  if (load->problem != NULL && load->rows->len == 0)
    {
      adw_status_page_set_title (page->empty, _("No Plan Yet"));
      adw_status_page_set_description (page->empty, load->problem);
      gtk_stack_set_visible_child_name (page->stack, "empty");
      return;
    }
  gtk_stack_set_visible_child_name (page->stack, "plan");
  fill (page, load);
}

void
nb_overview_page_reload (NbOverviewPage *page)
{
  if (page->path == NULL)
    return;
  nb_io_queue_push (page->queue, G_OBJECT (page), load_work, load_done,
                    nb_load_job_new (page->path, page->generation), nb_load_job_free,
                    plan_load_free);
}

void
nb_overview_page_set_campaign (NbOverviewPage *page, const char *path)
{
  g_free (page->path);
  page->path = g_strdup (path);
  page->generation++;
  page->selected = -1;
  g_clear_pointer (&page->rows, g_array_unref);
  g_clear_pointer (&page->plan_9283, g_array_unref);
  {
    GtkWidget *child;

    page->filling = TRUE;
    while ((child = gtk_widget_get_first_child (GTK_WIDGET (page->list))) != NULL)
      gtk_list_box_remove (page->list, child);
    page->filling = FALSE;
  }
  adw_status_page_set_title (page->empty, _("No Plan Yet"));
  adw_status_page_set_description (page->empty, path ? _("Reading the plan…")
                                                     : _("Open a campaign to see its plan."));
  gtk_stack_set_visible_child_name (page->stack, "empty");
  nb_overview_page_reload (page);
}

guint
nb_overview_page_get_loads (NbOverviewPage *page)
{
  return page->loads;
}

/* --------------------------------------------------------- selection -- */

/* Once the list is laid out: the selected row inside the list's view
 * (it may be far below the fold — clause 7's courses, the ISO 9283
 * plan — when the page opens on it or a test or the plan selects it). */
static gboolean
reveal_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  NbOverviewPage *page = user_data;
  GtkListBoxRow *row = gtk_list_box_get_selected_row (page->list);
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (page->list),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t at;

  /* Where the row is in the view now (the list's own margins included). */
  if (row != NULL && scrolled != NULL && gtk_widget_get_height (GTK_WIDGET (row)) > 0 &&
      gtk_widget_compute_bounds (GTK_WIDGET (row), scrolled, &at))
    {
      GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
      double value = gtk_adjustment_get_value (v), view = gtk_widget_get_height (scrolled);

      if (at.origin.y < 0)
        gtk_adjustment_set_value (v, value + at.origin.y);
      else if (at.origin.y + at.size.height > view)
        gtk_adjustment_set_value (v, value + at.origin.y + at.size.height - view);
    }
  page->reveal = 0;
  return G_SOURCE_REMOVE;
}

static void
reveal_selected (NbOverviewPage *page)
{
  if (page->reveal == 0)
    page->reveal = gtk_widget_add_tick_callback (GTK_WIDGET (page->list), reveal_tick, page,
                                                 NULL);
}

static void
show_selected (NbOverviewPage *page)
{
  const PlanRow *r = page->rows && page->selected >= 0
                     ? &g_array_index (page->rows, PlanRow, page->selected) : NULL;
  g_autofree char *title = NULL, *status = NULL, *legend = NULL, *words = NULL;

  gboolean on_url = gtk_drop_down_get_selected (GTK_DROP_DOWN (page->robot_9283)) == ARM_URL;
  gboolean by_instrument = gtk_drop_down_get_selected (GTK_DROP_DOWN (page->measure_9283)) ==
                           MEASURE_INSTRUMENT;

  gtk_widget_set_sensitive (page->scope, r != NULL && page->run == NULL);
  gtk_widget_set_visible (page->run_9283, r != NULL && r->e9 != NULL);
  gtk_widget_set_visible (page->rig_9283, r != NULL && r->e9 != NULL);
  gtk_widget_set_visible (page->drawing, r == NULL || r->e9 == NULL);
  /* The rig is chosen before a run, not changed under it. */
  gtk_widget_set_sensitive (page->rig_9283, page->run == NULL);
  gtk_widget_set_visible (page->url_9283, on_url);
  gtk_widget_set_visible (page->url_label_9283, on_url);
  gtk_widget_set_visible (page->measure_9283, on_url);
  gtk_widget_set_visible (page->measure_label_9283, on_url);
  if (r != NULL && r->e9 != NULL)
    {
      g_autofree char *head = heading_9283 (r->e9);

      words = nb_overview_iso9283_entry_text (r->e9);
      title = g_strdup_printf ("%s: %s", head, words);
      status = nb_overview_iso9283_status_text (r->e9, &r->row9);
      if (page->run != NULL && g_str_equal (page->run->config, r->e9->config))
        {
          g_free (status);
          status = g_strdup_printf (_("Running: cycle %u of %u…"), page->run->cycle + 1,
                                    page->run->of);
        }
      legend = g_strdup (!on_url
                         ? _("Runs on the simulated iiwa 7 with its error model, measured by "
                             "the simulated laser tracker. Each cycle is stored when it ends; a "
                             "stopped run goes on from the next cycle. The figures are in the "
                             "protocol.")
                         : !by_instrument
                         ? _("Runs on the motion stack’s arm at the address, measured by the "
                             "simulated laser tracker through the joints the arm reports. Each "
                             "cycle is stored when it ends; a stopped run goes on from the next "
                             "cycle. The figures are in the protocol.")
                         : _("Runs on the motion stack’s arm at the address, measured by the "
                             "instrument connected on the Instrument page (a 6-DoF pose after "
                             "each goal). Each cycle is stored when it ends; a stopped run goes "
                             "on from the next cycle. The figures are in the protocol."));
      gtk_label_set_text (page->title, title);
      gtk_label_set_text (page->status, status);
      gtk_label_set_text (page->legend, legend);
      gtk_button_set_label (GTK_BUTTON (page->scope), r->e9->in_scope ? _("Out of _Scope…")
                                                                      : _("Back in _Scope"));
      gtk_button_set_label (GTK_BUTTON (page->run_9283),
                            page->run ? _("Stop")
                            : on_url ? _("Run on the Motion Stack’s _Arm")
                            : _("Run on the Simulated _Arm"));
      if (page->run != NULL)
        {
          gtk_widget_remove_css_class (page->run_9283, "suggested-action");
          gtk_widget_add_css_class (page->run_9283, "destructive-action");
        }
      else
        {
          gtk_widget_remove_css_class (page->run_9283, "destructive-action");
          gtk_widget_add_css_class (page->run_9283, "suggested-action");
        }
      gtk_widget_set_sensitive (page->run_9283, page->run != NULL ||
                                (page->can_run && r->e9->in_scope &&
                                 r->row9.state != NB_ISO9283_PLAN_COMPLETE));
      return;
    }
  if (r == NULL)
    {
      gtk_label_set_text (page->title, "");
      gtk_label_set_text (page->status, "");
      gtk_label_set_text (page->legend, "");
      gtk_widget_queue_draw (page->drawing);
      return;
    }
  words = entry_words (&r->entry);
  title = g_strdup_printf (_("Clause %u: %s"), r->entry.clause, words);
  status = nb_overview_status_text (&r->entry, &r->status);
  legend = r->have_setup ? nb_setup_describe (&r->setup) : g_strdup (r->setup_error);
  gtk_label_set_text (page->title, title);
  gtk_label_set_text (page->status, status);
  gtk_label_set_text (page->legend, legend);
  gtk_button_set_label (GTK_BUTTON (page->scope), r->entry.in_scope ? _("Out of _Scope…")
                                                                    : _("Back in _Scope"));
  gtk_widget_queue_draw (page->drawing);
}

static void
on_row_selected (GtkListBox *list, GtkListBoxRow *row, gpointer user_data)
{
  NbOverviewPage *page = user_data;

  if (page->filling)
    return;
  page->selected = row ? gtk_list_box_row_get_index (row) : -1;
  show_selected (page);
}

gboolean
nb_overview_page_select (NbOverviewPage *page, guint clause, const char *config)
{
  for (guint i = 0; page->rows && i < page->rows->len; i++)
    {
      const PlanRow *r = &g_array_index (page->rows, PlanRow, i);

      if (r->e9 == NULL && r->entry.clause == clause && g_str_equal (r->entry.config, config))
        {
          gtk_list_box_select_row (page->list, gtk_list_box_get_row_at_index (page->list, i));
          page->selected = (int) i;
          show_selected (page);
          reveal_selected (page);
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
nb_overview_page_select_iso9283 (NbOverviewPage *page, const char *config)
{
  for (guint i = 0; page->rows && i < page->rows->len; i++)
    {
      const PlanRow *r = &g_array_index (page->rows, PlanRow, i);

      if (r->e9 != NULL && g_str_equal (r->e9->config, config))
        {
          gtk_list_box_select_row (page->list, gtk_list_box_get_row_at_index (page->list, i));
          page->selected = (int) i;
          show_selected (page);
          reveal_selected (page);
          return TRUE;
        }
    }
  return FALSE;
}

static void
draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  NbOverviewPage *page = user_data;
  const PlanRow *r = page->rows && page->selected >= 0
                     ? &g_array_index (page->rows, PlanRow, page->selected) : NULL;
  GdkRGBA fg;

  if (r == NULL || r->e9 != NULL || !r->have_setup)
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  nb_setup_draw (cr, &r->setup, width, height, &fg);
}

/* ------------------------------------------------------------- scope -- */

typedef struct {
  char *path, *config, *reason;
  guint clause;                 /* 0: ISO 9283's plan */
} ScopeJob;

static void
scope_job_free (gpointer p)
{
  ScopeJob *job = p;

  g_free (job->path);
  g_free (job->config);
  g_free (job->reason);
  g_free (job);
}

static gboolean
set_scope (NbCampaign *campaign, gpointer data, GError **error)
{
  ScopeJob *job = data;

  /* Clause 0: ISO 9283's plan. */
  return job->clause == 0
         ? nb_campaign_iso9283_plan_set_scope (campaign, job->config, job->reason == NULL,
                                               job->reason, error)
         : nb_campaign_plan_set_scope (campaign, job->clause, job->config, job->reason == NULL,
                                       job->reason, error);
}

static gpointer
scope_work (gpointer data, GError **error)
{
  return nb_io_change_campaign (((ScopeJob *) data)->path, set_scope, data, error);
}

static void
toast (NbOverviewPage *page, const char *text)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (page));

  if (NB_IS_WINDOW (root))
    nb_window_toast (NB_WINDOW (root), text);
}

static void
scope_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbOverviewPage *page = NB_OVERVIEW_PAGE (owner);
  ScopeJob *job = data;

  if (g_strcmp0 (job->path, page->path) != 0 || page->list == NULL)
    return;
  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The plan could not be changed: %s"),
                                               error->message);

      toast (page, text);
    }
  else
    toast (page, job->reason ? _("Taken out of scope: the protocol gives the reason.")
                             : _("Back in scope."));
  nb_overview_page_reload (page);
}

void
nb_overview_page_set_scope (NbOverviewPage *page, const char *reason)
{
  const PlanRow *r = page->rows && page->selected >= 0
                     ? &g_array_index (page->rows, PlanRow, page->selected) : NULL;
  ScopeJob *job;

  if (r == NULL || page->path == NULL)
    return;
  job = g_new0 (ScopeJob, 1);
  job->path = g_strdup (page->path);
  job->clause = r->e9 ? 0 : r->entry.clause;
  job->config = g_strdup (r->e9 ? r->e9->config : r->entry.config);
  job->reason = reason ? g_strstrip (g_strdup (reason)) : NULL;
  nb_io_queue_push (page->queue, G_OBJECT (page), scope_work, scope_done, job, scope_job_free,
                    NULL);
}

static void
on_reason_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  NbOverviewPage *page = user_data;
  g_autofree char *reason = nb_reason_dialog_get_reason (dialog);

  if (page->dialog == dialog)
    page->dialog = NULL;
  if (g_str_equal (response, "exclude"))
    nb_overview_page_set_scope (page, reason);
}

static void
on_scope_clicked (GtkButton *button, gpointer user_data)
{
  NbOverviewPage *page = user_data;
  const PlanRow *r = page->rows && page->selected >= 0
                     ? &g_array_index (page->rows, PlanRow, page->selected) : NULL;
  AdwMessageDialog *dialog;
  g_autofree char *words = NULL, *body = NULL;

  if (r == NULL)
    return;
  if (r->e9 ? !r->e9->in_scope : !r->entry.in_scope)
    {
      nb_overview_page_set_scope (page, NULL);
      return;
    }
  if (r->e9 != NULL)
    {
      g_autofree char *head = heading_9283 (r->e9), *what = nb_overview_iso9283_entry_text (r->e9);

      words = g_strdup_printf ("%s, %s", head, what);
      body = g_strdup_printf (_("%s is not tested. The protocol prints the reason: the "
                                "manufacturer's declaration, as a rule."), words);
    }
  else
    {
      words = entry_words (&r->entry);
      body = g_strdup_printf (_("Clause %u, %s is not tested. The protocol prints the reason: "
                                "the manufacturer's declaration, as a rule."), r->entry.clause,
                              words);
    }
  dialog = nb_reason_dialog_new (GTK_WIDGET (page), _("Out of Scope"), body, NULL, _("Reason"),
                                 "exclude", _("_Take Out of Scope"), ADW_RESPONSE_DESTRUCTIVE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_reason_response), page);
  page->dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

AdwMessageDialog *
nb_overview_page_get_dialog (NbOverviewPage *page)
{
  return page->dialog;
}

/* ------------------------------------------------- ISO 9283: the plan -- */

static gpointer
add_9283_work (gpointer data, GError **error)
{
  g_autoptr (NbCampaign) campaign = nb_campaign_open (data, 0, error);
  gboolean made;

  if (campaign == NULL ||
      !nb_iso9283_plan_ensure (campaign, NB_ISO9283_DRIFT_H * 3600.0, &made, error) ||
      !nb_campaign_close (g_steal_pointer (&campaign), error))
    return NULL;
  return GINT_TO_POINTER (1);
}

static void
add_9283_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  NbOverviewPage *page = NB_OVERVIEW_PAGE (owner);

  if (g_strcmp0 (data, page->path) != 0 || page->list == NULL)
    return;
  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The plan could not be changed: %s"),
                                               error->message);

      toast (page, text);
    }
  nb_overview_page_reload (page);
}

void
nb_overview_page_add_iso9283 (NbOverviewPage *page)
{
  if (page->path == NULL)
    return;
  nb_io_queue_push (page->queue, G_OBJECT (page), add_9283_work, add_9283_done,
                    g_strdup (page->path), g_free, NULL);
}

static void
on_add_9283_clicked (GtkButton *button, gpointer user_data)
{
  nb_overview_page_add_iso9283 (NB_OVERVIEW_PAGE (user_data));
}

/* -------------------------------------------------- ISO 9283: the run -- */

static void
set_device_in_use (NbOverviewPage *page, gboolean in_use)
{
  if (page->device_in_use == in_use)
    return;
  page->device_in_use = in_use;
  g_object_notify_by_pspec (G_OBJECT (page), props[PROP_DEVICE_IN_USE]);
}

static void
run_9283_free (Run9283 *run)
{
  g_object_unref (run->page);
  g_free (run->path);
  g_free (run->config);
  g_free (run->robot_dir);
  g_free (run->url);
  g_free (run->device_words);
  g_free (run->left);
  g_clear_pointer (&run->campaign, nb_campaign_free);
  g_object_unref (run->cancellable);
  g_free (run);
}

typedef struct {
  Run9283 *run;
  guint cycle, of;
} Said;

static gboolean
said_on_main (gpointer data)
{
  Said *said = data;
  NbOverviewPage *page = said->run->page;

  if (page->run == said->run)
    {
      said->run->cycle = said->cycle;
      said->run->of = said->of;
      if (page->list != NULL)
        show_selected (page);
    }
  return G_SOURCE_REMOVE;
}

/* In the worker: the runner's word after a cycle (what NULL), or why it
 * left the configuration. */
static void
run_9283_say (gpointer data, const char *config, guint cycle, guint of, const char *what)
{
  Run9283 *run = data;
  Said *said;

  if (what != NULL)
    {
      g_free (run->left);
      run->left = g_strdup (what);
      return;
    }
  run->ran++;
  said = g_new (Said, 1);
  *said = (Said) { run, cycle, of };
  g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, said_on_main, said, g_free);
}

static void
run_9283_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Run9283 *run = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = g_steal_pointer (&run->campaign);
  NbIso9283Rig rig;
  NbIso9283SimRig sim;
  NbIso9283ServedRig served;
  NbArmModel model;
  gboolean made, ok;
  guint ran = 0;

  memset (&rig, 0, sizeof rig);
  /* As `campaign run --standard iso9283 --all --only CONFIG [--robot URL
   * [--instrument DRIVER --url …]]` with its defaults (seed 1, guard
   * 0.05 s, window 0.1 s). */
  if (campaign == NULL ||
      !nb_iso9283_plan_ensure (campaign, NB_ISO9283_DRIFT_H * 3600.0, &made, &error) ||
      !nb_arm_model_load (run->robot_dir, &model, &error) ||
      !nb_iso9283_cube_fit (&model, nb_iso9283_default_centre_mm, NB_ISO9283_DEFAULT_PLANE,
                            nb_iso9283_default_abc_deg, NB_ISO9283_DEFAULT_MAX_EDGE_MM,
                            nb_iso9283_seed_q, &rig.cube, rig.q, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  rig.model = model;
  rig.rated_load_kg = nb_iso9283_rated_load_kg (campaign, NAN);
  rig.rated_speed_mm_s = NB_ISO9283_RATED_SPEED_MM_S;
  rig.band_mm = NB_ISO9283_BAND_MM;
  rig.cancellable = run->cancellable;
  if (run->arm == ARM_SIM)
    nb_iso9283_sim_rig_init (&sim, &rig, &model, 1, NULL);
  else if (!nb_iso9283_served_rig_init (&served, &rig, run->url, &model, 1, NULL, run->device,
                                        NB_ISO9283_DEVICE_GUARD_S, NB_ISO9283_DEVICE_WINDOW_S,
                                        run->device_words, TRUE, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  ok = nb_iso9283_run_plan (campaign, &rig, run->config, run_9283_say, run, &ran, &error);
  if (run->arm == ARM_SIM)
    nb_iso9283_sim_rig_clear (&sim);
  else
    nb_iso9283_served_rig_clear (&served, &rig);
  /* What was stored stays stored: the file is closed either way. */
  if (!nb_campaign_close (g_steal_pointer (&campaign), ok ? &error : NULL))
    ok = FALSE;
  if (!ok)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static gpointer
open_9283_work (gpointer data, GError **error)
{
  Run9283 *run = data;

  return nb_campaign_open (run->path, 0, error);
}

static void
open_9283_done (GObject *owner, gpointer *result, const GError *error, gpointer data)
{
  Run9283 *run = data;
  GTask *task = g_steal_pointer (&run->task);

  if (error != NULL)
    g_task_return_error (task, g_error_copy (error));
  else
    {
      run->campaign = g_steal_pointer (result);
      g_task_run_in_thread (task, run_9283_thread);
    }
  g_object_unref (task);
}

static void
run_9283_done (GObject *source, GAsyncResult *result, gpointer data)
{
  NbOverviewPage *page = NB_OVERVIEW_PAGE (source);
  Run9283 *run = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL, *words = NULL;
  const NbIso9283PlanEntry *e = NULL;

  /* The configuration in words, as its row says it. */
  for (guint i = 0; page->plan_9283 && i < page->plan_9283->len && e == NULL; i++)
    if (g_str_equal (g_array_index (page->plan_9283, NbIso9283PlanEntry, i).config, run->config))
      e = &g_array_index (page->plan_9283, NbIso9283PlanEntry, i);
  if (e != NULL)
    {
      g_autofree char *head = heading_9283 (e), *what = nb_overview_iso9283_entry_text (e);

      words = g_strdup_printf ("%s, %s", head, what);
    }
  else
    words = g_strdup (run->config);

  g_task_propagate_boolean (G_TASK (result), &error);
  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Stopped: %u cycle of %s stored, the run goes on from "
                                         "the next.",
                                         "Stopped: %u cycles of %s stored, the run goes on from "
                                         "the next.", run->ran), run->ran, words);
  else if (error != NULL)
    text = g_strdup_printf (_("The ISO 9283 run failed: %s"), error->message);
  else if (run->left != NULL)
    {
      /* The runner's word is "left: WHY" (NB_MSG_ISO9283_LEFT); the toast
       * says it was not run and why, in the window's language. */
      gsize head = (gsize) (strstr (NB_MSG_ISO9283_LEFT, "%s") - NB_MSG_ISO9283_LEFT);
      const char *why = strncmp (run->left, NB_MSG_ISO9283_LEFT, head) == 0 ? run->left + head
                                                                             : run->left;
      g_autofree char *why_words = nb_gui_message_text (why);

      text = g_strdup_printf (_("%s was not run: %s"), words, why_words);
    }
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u cycle run and stored.",
                                         "%s: %u cycles run and stored.", run->ran),
                            words, run->ran);
  page->run = NULL;
  page->runs++;
  set_device_in_use (page, FALSE);
  if (page->list != NULL)
    {
      toast (page, text);
      show_selected (page);
      nb_overview_page_reload (page);
    }
  g_object_notify_by_pspec (G_OBJECT (page), props[PROP_RUNNING]);
}

gboolean
nb_overview_page_run_iso9283 (NbOverviewPage *page)
{
  const PlanRow *r = page->rows && page->selected >= 0
                     ? &g_array_index (page->rows, PlanRow, page->selected) : NULL;
  g_autoptr (GTask) task = NULL;
  g_autofree char *url = NULL;
  guint arm = gtk_drop_down_get_selected (GTK_DROP_DOWN (page->robot_9283)) == ARM_URL
              ? ARM_URL : ARM_SIM;
  gboolean by_instrument = arm == ARM_URL &&
                           gtk_drop_down_get_selected (GTK_DROP_DOWN (page->measure_9283)) ==
                           MEASURE_INSTRUMENT;
  Run9283 *run;

  if (r == NULL || r->e9 == NULL || page->run != NULL || page->path == NULL || !page->can_run)
    return FALSE;
  url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (page->url_9283))));
  /* Refused before anything moves, as campaign run refuses the options. */
  if (arm == ARM_URL && !g_str_has_prefix (url, "http://"))
    {
      toast (page, _("The motion stack’s address is http://HOST:PORT."));
      return FALSE;
    }
  if (by_instrument && page->device == NULL)
    {
      toast (page, _("No instrument is connected: connect one on the Instrument page first."));
      return FALSE;
    }
  run = g_new0 (Run9283, 1);
  run->page = g_object_ref (page);
  run->path = g_strdup (page->path);
  run->config = g_strdup (r->e9->config);
  run->robot_dir = nb_gui_data_path ("robots/iiwa7");
  run->arm = arm;
  run->url = g_steal_pointer (&url);
  if (by_instrument)
    {
      const char *where = nb_device_url (page->device);

      run->device = page->device;
      /* As campaign run records --instrument DRIVER --url URL. */
      run->device_words = where ? g_strdup_printf ("%s %s", nb_device_driver (page->device)->name,
                                                   where)
                                : g_strdup (nb_device_driver (page->device)->name);
    }
  run->cancellable = g_cancellable_new ();
  run->cycle = r->row9.cycles;
  run->of = r->e9->cycles;
  page->run = run;
  /* Before the worker starts: from here it alone reads the device's events. */
  set_device_in_use (page, run->device != NULL);
  task = g_task_new (page, NULL, run_9283_done, NULL);
  g_task_set_task_data (task, run, (GDestroyNotify) run_9283_free);
  /* The file is opened for writing in turn with the other pages' loads
   * (one writer: a load in flight would refuse the run); the worker takes
   * it from there. */
  run->task = g_steal_pointer (&task);
  nb_io_queue_push (page->queue, G_OBJECT (page), open_9283_work, open_9283_done, run, NULL,
                    (GDestroyNotify) nb_campaign_free);
  show_selected (page);
  g_object_notify_by_pspec (G_OBJECT (page), props[PROP_RUNNING]);
  return TRUE;
}

void
nb_overview_page_set_device (NbOverviewPage *page, NbDevice *device)
{
  /* The device a run measures with stays (its owner does not stop it
   * meanwhile: device-in-use). */
  g_return_if_fail (!page->device_in_use || device == page->device);
  page->device = device;
}

gboolean
nb_overview_page_get_device_in_use (NbOverviewPage *page)
{
  return page->device_in_use;
}

gboolean
nb_overview_page_is_running (NbOverviewPage *page)
{
  return page->run != NULL;
}

void
nb_overview_page_stop (NbOverviewPage *page)
{
  if (page->run != NULL)
    g_cancellable_cancel (page->run->cancellable);
}

guint
nb_overview_page_get_runs (NbOverviewPage *page)
{
  return page->runs;
}

guint
nb_overview_page_get_run_cycles (NbOverviewPage *page)
{
  return page->run != NULL ? page->run->cycle : 0;
}

void
nb_overview_page_set_can_run (NbOverviewPage *page, gboolean can_run)
{
  page->can_run = can_run;
  show_selected (page);
}

static void
on_run_9283_clicked (GtkButton *button, gpointer user_data)
{
  NbOverviewPage *page = user_data;

  if (page->run != NULL)
    nb_overview_page_stop (page);
  else
    nb_overview_page_run_iso9283 (page);
}

static void
nb_overview_page_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  switch (id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, nb_overview_page_is_running (NB_OVERVIEW_PAGE (object)));
      break;
    case PROP_DEVICE_IN_USE:
      g_value_set_boolean (value, NB_OVERVIEW_PAGE (object)->device_in_use);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
on_rig_changed (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  show_selected (NB_OVERVIEW_PAGE (user_data));
}

/* -------------------------------------------------------------- life -- */

static void
on_map (GtkWidget *widget, gpointer user_data)
{
  /* Shown again: the runner or the form may have changed the file. */
  nb_overview_page_reload (NB_OVERVIEW_PAGE (widget));
}

static void
nb_overview_page_init (NbOverviewPage *page)
{
  gtk_widget_init_template (GTK_WIDGET (page));
  page->selected = -1;
  gtk_list_box_set_header_func (page->list, header_func, page, NULL);
  g_signal_connect (page->list, "row-selected", G_CALLBACK (on_row_selected), page);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (page->drawing), draw, page, NULL);
  g_signal_connect (page->scope, "clicked", G_CALLBACK (on_scope_clicked), page);
  g_signal_connect (page->run_9283, "clicked", G_CALLBACK (on_run_9283_clicked), page);
  g_signal_connect (page->add_9283, "clicked", G_CALLBACK (on_add_9283_clicked), page);
  g_signal_connect (page->robot_9283, "notify::selected", G_CALLBACK (on_rig_changed), page);
  g_signal_connect (page->measure_9283, "notify::selected", G_CALLBACK (on_rig_changed), page);
  {
    /* Long items ellipsized on the buttons, whole in the popups. */
    GtkWidget *drops[] = { page->robot_9283, page->measure_9283 };

    for (guint i = 0; i < G_N_ELEMENTS (drops); i++)
      {
        g_autoptr (GtkListItemFactory) button = nb_label_item_factory_new (16, 40),
                                         popup = nb_label_item_factory_new (0, 0);

        gtk_drop_down_set_factory (GTK_DROP_DOWN (drops[i]), button);
        gtk_drop_down_set_list_factory (GTK_DROP_DOWN (drops[i]), popup);
      }
  }
  page->can_run = TRUE;
  g_signal_connect (page, "map", G_CALLBACK (on_map), NULL);
  gtk_widget_set_sensitive (page->scope, FALSE);
}

static void
nb_overview_page_dispose (GObject *object)
{
  /* The list's rows go: not a selection. */
  NB_OVERVIEW_PAGE (object)->filling = TRUE;
  /* AdwBin unparents its child itself: first, so the template's root is
   * not unparented twice. */
  adw_bin_set_child (ADW_BIN (object), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (object), NB_TYPE_OVERVIEW_PAGE);
  G_OBJECT_CLASS (nb_overview_page_parent_class)->dispose (object);
}

static void
nb_overview_page_finalize (GObject *object)
{
  NbOverviewPage *page = NB_OVERVIEW_PAGE (object);

  g_free (page->path);
  g_clear_pointer (&page->rows, g_array_unref);
  g_clear_pointer (&page->plan_9283, g_array_unref);
  g_clear_pointer (&page->queue, nb_io_queue_unref);
  G_OBJECT_CLASS (nb_overview_page_parent_class)->finalize (object);
}

static void
nb_overview_page_class_init (NbOverviewPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nb_overview_page_dispose;
  object_class->finalize = nb_overview_page_finalize;
  object_class->get_property = nb_overview_page_get_property;
  /* An ISO 9283 configuration runs. */
  props[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* It measures with the Instrument page's device (its events are the
   * run's alone). */
  props[PROP_DEVICE_IN_USE] = g_param_spec_boolean ("device-in-use", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/navbench/Navbench/nb-overview-page.ui");
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, stack);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, empty);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, summary);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, next);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, title);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, status);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, legend);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, list);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, drawing);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, scope);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, run_9283);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, add_9283);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, rig_9283);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, robot_9283);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, url_9283);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, url_label_9283);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, measure_9283);
  gtk_widget_class_bind_template_child (widget_class, NbOverviewPage, measure_label_9283);
}

GtkWidget *
nb_overview_page_new (NbIoQueue *queue)
{
  NbOverviewPage *page = g_object_new (NB_TYPE_OVERVIEW_PAGE, NULL);

  page->queue = nb_io_queue_ref (queue);
  return GTK_WIDGET (page);
}
