#include "nb-protocol-report.h"
#include "nb-protocol-iso9283.h"

#include "nb-angle.h"
#include "nb-campaign-results.h"
#include "nb-clause.h"
#include "nb-conditions.h"
#include "nb-course.h"
#include "nb-error.h"
#include "nb-json-load.h"
#include "nb-json-writer.h"
#include "nb-plot.h"
#include "nb-protocol-columns.h"
#include "nb-protocol-conditions.h"
#include "nb-protocol-coverage.h"
#include "nb-protocol-front.h"
#include "nb-protocol-unc.h"
#include "nb-table-formats.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ language -- */

NbPdfWords
nb_protocol_report_pdf_words (const NbCatalogue *lang)
{
  NbPdfWords words = {
    .contents_title = nb_tr (lang, "Contents"),
    .figure_word = nb_tr (lang, "Figure"),
    .table_word = nb_tr (lang, "Table"),
    .page_format = nb_tr (lang, "Page %d of %d"),
  };

  return words;
}

/* ------------------------------------------------------------- helpers -- */

/* The route names of nb-route.c, for the catalogues (tables show nb_tr (b->lang, route)). */
static const char *const route_words[] G_GNUC_UNUSED = {
  N_ ("straight"), N_ ("rectangular"), N_ ("combined"),
};

typedef struct {
  NbCampaign *campaign;
  const NbCatalogue *lang;      /* the protocol's language */
  NbDocument *doc;
  gboolean outdoor;
  double lu_mm;
  NbProtocolUnc *unc;           /* #17: U columns, budgets, conformity, the results */
} Build;

static const char *obstacle_title (Build *b, const char *name);

static char *
field (Build *b, const char *key)
{
  return nb_campaign_get_field (b->campaign, key, NULL);
}

/* The clause's conditions the protocol table states beside its figures. */
static void
clause_conditions (Build *b, gboolean speed, gboolean load)
{
  g_autofree char *friction = field (b, "conditions.friction_coefficient");
  g_autofree char *rated_speed = field (b, "robot.rated_speed_mm_s");
  g_autofree char *rated_load = field (b, "robot.rated_load_kg");
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, nb_tr (b->lang, "Friction coefficient of the surface: %s."),
                          friction ? friction : nb_tr (b->lang, "⚠ not stated"));
  if (speed)
    {
      g_string_append_c (s, ' ');
      g_string_append_printf (s, nb_tr (b->lang, "Rated speed: %s mm/s."), rated_speed ? rated_speed : nb_tr (b->lang, "⚠ not stated"));
    }
  if (load)
    {
      g_string_append_c (s, ' ');
      g_string_append_printf (s, nb_tr (b->lang, "Rated load: %s kg."), rated_load ? rated_load : nb_tr (b->lang, "⚠ not stated"));
    }
  nb_document_add_paragraph (b->doc, s->str);
  g_string_free (s, TRUE);
}

static void
short_series (Build *b, NbTable *t, guint row, guint column, guint clause, const char *config,
              guint n)
{
  g_autofree char *note = nb_clause_check_trials (nb_clause_get (clause), n);

  if (note == NULL)
    return;
  nb_table_flag_cell (t, row, column);
  {
    /* Russian has three plural forms: «1 попытка», «3 попытки», «5 попыток». */
    g_autofree char *line = g_strdup_printf (nb_ntr (b->lang, "%s: %u trial where the standard asks for %u (%s).",
                                                       "%s: %u trials where the standard asks for %u (%s).",
                                                       n),
                                             config, n, nb_clause_get (clause)->trials,
                                             nb_clause_get (clause)->trials_clause);

    nb_table_add_note (t, line);
  }
}

static char *
clause_heading (Build *b, guint clause)
{
  return g_strdup (nb_tr (b->lang, nb_clause_get (clause)->title));
}

static void
not_tested (Build *b)
{
  nb_document_add_paragraph (b->doc, nb_tr (b->lang, "This clause was not tested in this campaign."));
}

/* A number of a configuration's parameters (the JSON object the runner
 * stores, or `campaign import --parameters`); NaN when absent or when the
 * parameters are free text. */
static double
config_param (const NbCampaignConfig *c, const char *key)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root, *member;

  if (c->parameters == NULL || c->parameters[0] != '{' ||
      !nb_json_load (parser, NULL, c->parameters, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      (member = json_object_get_member (json_node_get_object (root), key)) == NULL ||
      (json_node_get_value_type (member) != G_TYPE_DOUBLE &&
       json_node_get_value_type (member) != G_TYPE_INT64))
    return NAN;
  return json_node_get_double (member);
}

/* A cell the standard asks for that the campaign does not hold: flagged,
 * "not stated", and listed by `report --check`. */
static void
cell_not_stated (Build *b, NbTable *t, guint row, guint column, const char *what,
                 const char *reference)
{
  nb_table_set_text (t, row, column, nb_tr (b->lang, "not stated"));
  nb_table_flag_cell (t, row, column);
  nb_protocol_missing (b->doc, b->lang, what, reference);
}

/* 4.4: tests run at the rated load unless a configuration says "no load":
 * a load that is neither is flagged (a "rated load" configuration whose
 * load differs from the robot's rated load). */
static void
load_cell (Build *b, NbTable *t, guint row, guint column, const NbCampaignConfig *c)
{
  g_autofree char *rated_text = field (b, "robot.rated_load_kg");
  double rated = rated_text ? g_ascii_strtod (rated_text, NULL) : NAN;

  if (isnan (c->load_kg))
    {
      g_autofree char *what = g_strdup_printf (nb_tr (b->lang, "%s: load"), c->name);

      cell_not_stated (b, t, row, column, what, "4.4");
      return;
    }
  nb_table_set_number (t, row, column, c->load_kg);
  if (c->load_kg != 0.0 && !(fabs (c->load_kg - rated) <= 1e-9 * MAX (1.0, fabs (rated))))
    {
      g_autofree char *note = isnan (rated)
        ? g_strdup_printf (nb_tr (b->lang, "%s: load %g kg, but the robot's rated load is not stated (4.4)."),
                           c->name, c->load_kg)
        : g_strdup_printf (nb_tr (b->lang, "%s: load %g kg is neither no load nor the robot's rated load "
                             "%g kg (4.4)."), c->name, c->load_kg, rated);

      nb_table_flag_cell (t, row, column);
      nb_table_add_note (t, note);
    }
}

/* The campaign field of a table 2 obstacle's material or colour as used. */
static char *
obstacle_field (Build *b, const char *obstacle, const char *what)
{
  g_autofree char *slug = g_strdelimit (g_strdup (obstacle), " ", '_');
  g_autofree char *key = g_strdup_printf ("obstacle.%s.%s", slug, what);

  return field (b, key);
}

/* 6.4, 7.4: a table 2 obstacle's dimensions (table 2 as the project settles
 * it, nb-course.h), material and colour; the material and colour are the
 * laboratory's (campaign fields), flagged when not stated. */
static void
obstacle_cells (Build *b, NbTable *t, guint row, guint column, const char *obstacle,
                guint behaviour)
{
  NbObstacleShape shape;
  g_autofree char *dims = NULL, *material = NULL, *colour = NULL;

  if (obstacle == NULL || !nb_obstacle_find (obstacle, behaviour, &shape))
    {
      for (guint k = 0; k < 3; k++)
        nb_table_set_text (t, row, column + k, NULL);
      return;
    }
  nb_obstacle_find (obstacle, 0, &shape);       /* as it stands: its own extent */
  dims = shape.round ? g_strdup_printf ("Ø %g × %g", shape.across_mm, shape.height_mm)
                     : g_strdup_printf ("%g × %g × %g", shape.across_mm, shape.along_mm,
                                        shape.height_mm);
  nb_table_set_text (t, row, column, dims);
  material = obstacle_field (b, obstacle, "material");
  colour = obstacle_field (b, obstacle, "colour");
  if (material)
    nb_table_set_text (t, row, column + 1, material);
  else
    {
      g_autofree char *what = g_strdup_printf (nb_tr (b->lang, "Material of the %s"), obstacle_title (b, obstacle));

      cell_not_stated (b, t, row, column + 1, what, "6.4, 7.4");
    }
  if (colour)
    nb_table_set_text (t, row, column + 2, colour);
  else
    {
      g_autofree char *what = g_strdup_printf (nb_tr (b->lang, "Colour of the %s"), obstacle_title (b, obstacle));

      cell_not_stated (b, t, row, column + 2, what, "6.4, 7.4");
    }
}

static void
add_obstacle_columns (Build *b, NbTable *t)
{
  nb_table_add_column (t, "dimensions_mm", nb_tr (b->lang, "Dimensions"), nb_tr (b->lang, "mm"), 0);
  nb_table_add_column (t, "material", nb_tr (b->lang, "Material"), NULL, 0);
  nb_table_add_column (t, "colour", nb_tr (b->lang, "Colour"), NULL, 0);
}

/* A configuration's figures, or a visible warning saying why there are none
 * (the result is cleared then). */
static gboolean
figures (Build *b, const NbCampaignConfig *c, NbConfigResult *r)
{
  g_autoptr (GError) error = NULL;

  if (nb_config_result_compute (b->campaign, c, r, &error))
    {
      nb_protocol_unc_result (b->unc, r);
      if (r->unc_error != NULL)
        {
          g_autofree char *w = g_strdup_printf (nb_tr (b->lang, "%s: no uncertainty stated: %s"), c->name,
                                                r->unc_error);

          nb_document_add_warning (b->doc, w);
        }
      if (r->error == NULL)
        return TRUE;
    }
  {
    g_autofree char *w = g_strdup_printf (nb_tr (b->lang, "%s: the figures cannot be computed: %s"), c->name,
                                          r->error ? r->error : error->message);

    nb_document_add_warning (b->doc, w);
  }
  nb_config_result_clear (r);
  return FALSE;
}

/* --------------------------------------------------------- 5: figures -- */

typedef struct {
  guint n;
  double *dx, *dy, *delta;      /* attained − command: mm, mm, ° */
  double bx, by, rp, ao, ro;
  const NbCatalogue *lang;      /* the axes' words, drawn when the PDF is rendered */
} PoseFigure;

static void
pose_figure_free (gpointer p)
{
  PoseFigure *f = p;

  g_free (f->dx);
  g_free (f->dy);
  g_free (f->delta);
  g_free (f);
}

static void
draw_pose (cairo_t *cr, double w, double h, gpointer data)
{
  PoseFigure *f = data;
  double extent = f->rp + hypot (f->bx, f->by), dmax = fabs (f->ao) + f->ro;
  g_autofree double *index = g_new (double, MAX (f->n, 1));
  double band_x[2] = { 0.5, f->n + 0.5 }, band_y[2];
  NbPlot p, q;

  for (guint j = 0; j < f->n; j++)
    {
      extent = MAX (extent, MAX (fabs (f->dx[j]), fabs (f->dy[j])));
      dmax = MAX (dmax, fabs (f->delta[j]));
      index[j] = j + 1;
    }
  extent *= 1.15;
  /* Left: the attained positions to scale about the command position. */
  nb_plot_begin (&p, cr, 0, 0, w * 0.5, h, -extent, extent, -extent, extent, TRUE,
                 nb_tr (f->lang, "x − x_c, mm"), nb_tr (f->lang, "y − y_c, mm"));
  nb_plot_points (&p, f->dx, f->dy, f->n, 1.8, 0.12, 0.32, 0.70);
  nb_plot_circle (&p, f->bx, f->by, f->rp, 0.10, 0.55, 0.15, TRUE);
  nb_plot_marker (&p, 0, 0, nb_tr (f->lang, "command"), 0.75, 0.10, 0.10);
  nb_plot_marker (&p, f->bx, f->by, nb_tr (f->lang, "barycentre"), 0.10, 0.45, 0.10);
  /* Right: the heading deviations δ_j, with Ao and the band Ao ± Ro. */
  dmax = MAX (dmax * 1.2, 1e-3);
  nb_plot_begin (&q, cr, w * 0.52, 0, w * 0.48, h, 0.5, f->n + 0.5, -dmax, dmax, FALSE,
                 nb_tr (f->lang, "trial"), nb_tr (f->lang, "δ = recast(o − o_c), °"));
  band_y[0] = band_y[1] = f->ao;
  nb_plot_line (&q, band_x, band_y, 2, 1.0, 0.10, 0.45, 0.10);
  band_y[0] = band_y[1] = f->ao + f->ro;
  nb_plot_line (&q, band_x, band_y, 2, 0.6, 0.55, 0.55, 0.55);
  band_y[0] = band_y[1] = f->ao - f->ro;
  nb_plot_line (&q, band_x, band_y, 2, 0.6, 0.55, 0.55, 0.55);
  nb_plot_points (&q, index, f->delta, f->n, 1.8, 0.12, 0.32, 0.70);
}

/* The trials a pass/fail clause judges (7: those with the obstacle, not the
 * baseline; 9: all), for the series length the clause asks (7.3: three;
 * 9.3: five). */
static guint
judged_trials (Build *b, const NbCampaignConfig *c)
{
  g_autoptr (GArray) trials = nb_campaign_list_trials (b->campaign, c->id, NULL);
  guint n = 0;

  for (guint i = 0; trials && i < trials->len; i++)
    {
      NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      if (nb_campaign_trial_counts (c->clause, t) && g_strcmp0 (t->kind, "baseline") != 0)
        n++;
    }
  return n;
}

/* 5.4 a, 7.3 a, 8.3 a, 9.3 a: the trials that did not start at P0, per
 * configuration (flagged), and what was checked, per table. */
typedef struct {
  guint checked, unrecorded, off;
} StartTally;

static void
start_note (Build *b, NbTable *t, guint row, guint column, const NbCampaignConfig *c,
            const NbConfigResult *r, const char *where, StartTally *tally)
{
  tally->checked += r->start_checked;
  tally->unrecorded += r->start_unrecorded;
  if (r->start_off == NULL)
    return;
  {
    g_autoptr (GString) list = g_string_new (NULL);
    g_autofree char *note = NULL;

    for (guint k = 0; k < r->start_off->len; k++)
      {
        const NbStartOff *o = &g_array_index (r->start_off, NbStartOff, k);

        if (k > 0)
          g_string_append (list, ", ");
        if (isnan (o->turn_deg))
          g_string_append_printf (list, nb_tr (b->lang, "%u (%.1f mm)"), o->number, o->off_mm);
        else
          g_string_append_printf (list, nb_tr (b->lang, "%u (%.1f mm, %.2f°)"), o->number,
                                  o->off_mm, o->turn_deg);
      }
    note = g_strdup_printf (nb_tr (b->lang, "%s: trials that did not start at P0 (%s): %s."),
                            c->name, where, list->str);
    tally->off += r->start_off->len;
    nb_table_flag_cell (t, row, column);
    nb_table_add_note (t, note);
  }
}

static void
start_summary (Build *b, NbTable *t, const StartTally *tally, const char *where)
{
  g_autofree char *note = NULL;

  if (tally->checked > 0)
    {
      note = g_strdup_printf (nb_tr (b->lang, "Start at P0 (%s): each trial's start pose (the "
                                     "first sample of its track, or the one an import gave) "
                                     "within %g mm and %g° of P0 (decided): %u of %u "
                                     "trials."), where,
                              NB_START_TOLERANCE_MM, NB_START_TOLERANCE_DEG,
                              tally->checked - tally->off, tally->checked);
      nb_table_add_note (t, note);
    }
  if (tally->unrecorded > 0)
    {
      g_free (note);
      note = g_strdup_printf (nb_ntr (b->lang, "Start at P0 (%s): %u trial has no track and "
                                      "no start pose (imported): its start pose is not "
                                      "recorded.",
                                      "Start at P0 (%s): %u trials have no track and no start "
                                      "pose (imported): their start poses are not recorded.",
                                      tally->unrecorded),
                              where, tally->unrecorded);
      nb_table_add_note (t, note);
    }
}

/* The rule of "the target reached within the clause 5 repeatability"
 * (nb_goal_reached) as the protocol states it; where: "7.3 c", goal: "PG". */
static char *
goal_describe (Build *b, const NbGoalTolerance *tol, const char *where, const char *goal)
{
  GString *s;

  if (tol->given_mm && tol->given_deg)
    return g_strdup_printf (nb_tr (b->lang, "%s reached (%s): within %.2f mm of %s and %.3f° of "
                                   "its heading, as the operator gave it (not the clause 5 "
                                   "repeatability)."),
                            goal, where, tol->rp_mm, goal, tol->ro_deg);
  s = g_string_new (NULL);
  g_string_append_printf (s, nb_tr (b->lang, "%s reached (%s): the attained position within Rp = "
                                    "%.2f mm of %s moved by clause 5's offset of the barycentre "
                                    "(%.2f mm along, %.2f mm across), the heading within Ro = "
                                    "±%.3f° of its heading + Ao (%.3f°); from clause 5 "
                                    "configuration '%s' (load %g kg)."),
                          goal, where, tol->rp_mm, goal, tol->along_mm, tol->across_mm,
                          tol->ro_deg, tol->ao_deg, tol->config ? tol->config : "—",
                          tol->load_kg);
  if (tol->given_mm)
    g_string_append_printf (s, " %s", nb_tr (b->lang, "The position's tolerance is the "
                                             "operator's, about the target itself."));
  if (tol->given_deg)
    g_string_append_printf (s, " %s", nb_tr (b->lang, "The heading's tolerance is the "
                                             "operator's, about the target's heading."));
  return g_string_free (s, FALSE);
}

/* 7.3 c, 9.3 c: which tolerance "PG reached within the clause 5
 * repeatability" was, as the protocol states it: the one the runner logged
 * for the configuration (its last run), else — trials imported, judged by
 * the laboratory — what the campaign's clause 5 figures give; NULL when
 * there are none (the caller flags it). */
static char *
goal_rule (Build *b, const NbCampaignConfig *c, const char *where, gboolean *logged)
{
  g_autoptr (GArray) events = nb_campaign_list_events (b->campaign, NULL);
  g_autofree char *subject = g_strdup_printf ("clause %u, config '%s'", c->clause, c->name);
  NbGoalTolerance tol;
  char *text = NULL;

  nb_goal_tolerance_init (&tol);
  *logged = FALSE;
  for (guint i = events ? events->len : 0; i-- > 0;)
    {
      const NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);

      if (g_strcmp0 (e->what, NB_GOAL_TOLERANCE_EVENT) == 0 &&
          g_strcmp0 (e->subject, subject) == 0 && nb_goal_tolerance_from_json (e->new_value, &tol))
        {
          *logged = TRUE;
          break;
        }
    }
  if (*logged || nb_goal_tolerance_from_campaign (b->campaign, c->load_kg, &tol, NULL))
    text = goal_describe (b, &tol, where, "PG");
  nb_goal_tolerance_clear (&tol);
  return text;
}

/* 7.3 c, 9.3 c: the imported trials whose attained pose the laboratory gave,
 * judged by the rule goal_notes states (nb_clause_course_judge_imported);
 * a success that stopped beyond it is flagged on the row. */
static void
goal_imported_note (Build *b, NbTable *t, guint row, guint column, const NbCampaignConfig *c,
                    const NbConfigResult *r, const char *where)
{
  g_autoptr (GString) list = g_string_new (NULL);
  g_autofree char *note = NULL;

  if (r->goal_judged == 0)
    return;
  for (guint k = 0; r->goal_missed != NULL && k < r->goal_missed->len; k++)
    {
      const NbGoalMiss *m = &g_array_index (r->goal_missed, NbGoalMiss, k);

      if (k > 0)
        g_string_append (list, ", ");
      if (isnan (m->turn_deg))
        g_string_append_printf (list, nb_tr (b->lang, "%s (%.1f mm)"), m->label, m->miss_mm);
      else
        g_string_append_printf (list, nb_tr (b->lang, "%s (%.1f mm, %.2f°)"), m->label,
                                m->miss_mm, m->turn_deg);
    }
  if (r->goal_missed == NULL)
    note = g_strdup_printf (nb_tr (b->lang, "%s: PG reached (%s) by the attained poses the "
                                   "laboratory gave: %u of %u imported trials within the "
                                   "tolerance."), c->name, where, r->goal_reached, r->goal_judged);
  else
    {
      note = g_strdup_printf (nb_tr (b->lang, "%s: PG reached (%s) by the attained poses the "
                                     "laboratory gave: %u of %u imported trials within the "
                                     "tolerance; recorded as successful but stopped beyond it: "
                                     "%s."), c->name, where, r->goal_reached, r->goal_judged,
                              list->str);
      nb_table_flag_cell (t, row, column);
    }
  nb_table_add_note (t, note);
}

/* The rule of "PG reached" for each configuration of a course clause, one
 * note when they all share it. */
static void
goal_notes (Build *b, NbTable *t, GArray *configs, const char *where)
{
  g_autoptr (GPtrArray) rules = g_ptr_array_new_with_free_func (g_free);
  gboolean same = TRUE;

  for (guint i = 0; i < configs->len; i++)
    {
      const NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);
      gboolean logged;
      char *rule = goal_rule (b, c, where, &logged);
      char *line = rule == NULL
        ? g_strdup_printf (nb_tr (b->lang, "⚠ PG reached (%s): no clause 5 figures on the straight route to "
                             "judge by; the trials' outcomes are the laboratory's."), where)
        : logged ? rule
                 : g_strdup_printf (nb_tr (b->lang, "%s Imported trials are judged by it where the "
                                      "laboratory gave their attained pose; without one, whether "
                                      "PG was reached is the laboratory's judgement."), rule);

      if (line != rule)
        g_free (rule);
      if (rules->len > 0 && g_strcmp0 (line, g_ptr_array_index (rules, 0)) != 0)
        same = FALSE;
      g_ptr_array_add (rules, line);
    }
  if (rules->len == 0)
    return;
  if (same)
    {
      nb_table_add_note (t, g_ptr_array_index (rules, 0));
      return;
    }
  for (guint i = 0; i < rules->len; i++)
    {
      g_autofree char *line = g_strdup_printf ("%s: %s",
                                               g_array_index (configs, NbCampaignConfig, i).name,
                                               (char *) g_ptr_array_index (rules, i));

      nb_table_add_note (t, line);
    }
}

/* The clause's figure columns, titled as the protocol names them (one place:
 * nb-protocol-columns.c). */
static void
add_figure_columns (Build *b, NbTable *t, guint clause)
{
  guint n;
  const NbProtocolColumn *c = nb_protocol_figure_columns (clause, &n);

  for (guint i = 0; i < n; i++)
    nb_table_add_column (t, c[i].key, nb_tr (b->lang, c[i].title), c[i].unit ? nb_tr (b->lang, c[i].unit) : NULL,
                         c[i].decimals);
}

static void
clause_5 (Build *b, GArray *configs)
{
  NbTable *t = nb_table_new (nb_tr (b->lang, "Table 1 — Pose accuracy and pose repeatability"));
  StartTally start = { 0 };

  nb_table_set_protocol_number (t, 1);
  nb_table_add_column (t, "config", nb_tr (b->lang, "Configuration"), NULL, 0);
  nb_table_add_column (t, "route", nb_tr (b->lang, "Route"), NULL, 0);
  nb_table_add_column (t, "load_kg", nb_tr (b->lang, "Load"), nb_tr (b->lang, "kg"), 1);
  nb_table_add_column (t, "n", "n", NULL, 0);
  add_figure_columns (b, t, 5);
  nb_document_add_table (b->doc, t);

  for (guint i = 0; i < configs->len; i++)
    {
      NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);
      NbConfigResult r = { 0 };
      guint row = nb_table_add_row (t);
      g_autoptr (GError) error = NULL;

      nb_table_set_text (t, row, 0, c->name);
      nb_table_set_text (t, row, 1, c->route ? nb_tr (b->lang, c->route) : NULL);
      load_cell (b, t, row, 2, c);
      if (!figures (b, c, &r))
        {
          nb_table_flag_cell (t, row, 3);
          continue;
        }
      nb_table_set_number (t, row, 3, (double) r.pose.n);
      nb_table_set_number (t, row, 4, r.pose.ap_mm);
      nb_table_set_number (t, row, 5, r.pose.ao_deg);
      nb_table_set_number (t, row, 6, r.pose.rp_mm);
      nb_table_set_number (t, row, 7, r.pose.ro_deg);
      nb_protocol_unc_mark (b->unc, t, row, "ap_mm", "ap_mm");
      nb_protocol_unc_mark (b->unc, t, row, "ao_deg", "ao_deg");
      nb_protocol_unc_mark (b->unc, t, row, "rp_mm", "rp_mm");
      nb_protocol_unc_mark (b->unc, t, row, "ro_deg", "ro_deg");
      short_series (b, t, row, 3, 5, c->name, (guint) r.pose.n);
      start_note (b, t, row, 0, c, &r, "5.4 a", &start);

      /* The scatter behind the figures. */
      {
        g_autoptr (GArray) trials = nb_campaign_list_trials (b->campaign, c->id, NULL);
        PoseFigure *f = g_new0 (PoseFigure, 1);
        f->lang = b->lang;
        g_autofree char *caption = NULL;

        f->dx = g_new (double, MAX (r.pose.n, 1));
        f->dy = g_new (double, MAX (r.pose.n, 1));
        f->delta = g_new (double, MAX (r.pose.n, 1));
        for (guint j = 0; trials && j < trials->len; j++)
          {
            NbCampaignTrial *tr = &g_array_index (trials, NbCampaignTrial, j);

            if (!nb_campaign_trial_counts (5, tr) || f->n >= r.pose.n)
              continue;
            f->dx[f->n] = tr->attained.x_mm - c->command.x_mm;
            f->dy[f->n] = tr->attained.y_mm - c->command.y_mm;
            f->delta[f->n] = nb_angle_recast_deg (tr->attained.theta_deg - c->command.theta_deg);
            f->n++;
          }
        f->bx = r.pose.barycentre_x_mm - c->command.x_mm;
        f->by = r.pose.barycentre_y_mm - c->command.y_mm;
        f->rp = r.pose.rp_mm;
        f->ao = r.pose.ao_deg;
        f->ro = r.pose.ro_deg;
        caption = g_strdup_printf (nb_tr (b->lang, "%s: attained positions about the command position with the "
                                     "barycentre and the circle of radius Rp (to scale); heading "
                                     "deviations with Ao and Ao ± Ro"), c->name);
        nb_document_add_figure (b->doc, 70, draw_pose, f, pose_figure_free, caption);
      }
      nb_config_result_clear (&r);
    }
  start_summary (b, t, &start, "5.4 a");
  clause_conditions (b, TRUE, TRUE);
}

/* ------------------------------------------------------------------ 6 -- */

/* A table 2 obstacle under the protocol's own name for it (the campaign
 * stores the standard's English key); any other obstacle as it was named. */
static const char *
obstacle_title (Build *b, const char *name)
{
  return name != NULL && g_strv_contains (nb_obstacle_names (), name) ? nb_tr (b->lang, name) : name;
}

typedef struct {
  char *name;
  char *title;                  /* as the protocol shows it */
  guint n;
  double angle[64];
  gboolean max_range[64], detected[64];
} Polar;

typedef struct {
  GArray *obstacles;            /* of Polar */
} PolarFigure;

static void
polar_figure_free (gpointer p)
{
  PolarFigure *f = p;

  for (guint i = 0; i < f->obstacles->len; i++)
    {
      g_free (g_array_index (f->obstacles, Polar, i).name);
      g_free (g_array_index (f->obstacles, Polar, i).title);
    }
  g_array_unref (f->obstacles);
  g_free (f);
}

static void
draw_polar (cairo_t *cr, double w, double h, gpointer data)
{
  PolarFigure *f = data;
  guint n = f->obstacles->len, cols = MIN (n, 3u), rows = (n + cols - 1) / MAX (cols, 1u);

  for (guint i = 0; i < n; i++)
    {
      Polar *o = &g_array_index (f->obstacles, Polar, i);
      double cw = w / cols, ch = h / MAX (rows, 1u);
      double cx = cw * (i % cols) + cw / 2, cy = ch * (i / cols) + ch / 2 + 5;
      double R = MIN (cw, ch) / 2 - 14;
      cairo_text_extents_t ext;

      cairo_set_line_width (cr, 0.4);
      cairo_set_source_rgb (cr, 0.6, 0.6, 0.6);
      for (int ring = 1; ring <= 2; ring++)
        {
          cairo_new_sub_path (cr);
          cairo_arc (cr, cx, cy, R * ring / 2, 0, 2 * G_PI);
        }
      for (int k = 0; k < 8; k++)
        {
          cairo_move_to (cr, cx, cy);
          cairo_line_to (cr, cx + R * cos (k * G_PI / 4), cy - R * sin (k * G_PI / 4));
        }
      cairo_stroke (cr);
      /* The robot looks along +x (the line of sight), angles counter-clockwise. */
      for (guint k = 0; k < o->n; k++)
        {
          double a = o->angle[k] * G_PI / 180.0, r = R * (o->max_range[k] ? 1.0 : 0.5);
          double px = cx + r * cos (a), py = cy - r * sin (a);

          if (o->detected[k])
            {
              cairo_set_source_rgb (cr, 0.1, 0.55, 0.15);
              cairo_new_sub_path (cr);
              cairo_arc (cr, px, py, 3.0, 0, 2 * G_PI);
              cairo_fill (cr);
            }
          else
            {
              cairo_set_source_rgb (cr, 0.8, 0.1, 0.1);
              cairo_set_line_width (cr, 1.4);
              cairo_move_to (cr, px - 3, py - 3);
              cairo_line_to (cr, px + 3, py + 3);
              cairo_move_to (cr, px + 3, py - 3);
              cairo_line_to (cr, px - 3, py + 3);
              cairo_stroke (cr);
            }
        }
      cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
      cairo_select_font_face (cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
      cairo_set_font_size (cr, 7.5);
      cairo_text_extents (cr, o->title, &ext);
      cairo_move_to (cr, cx - ext.width / 2, cy - R - 5);
      cairo_show_text (cr, o->title);
    }
}

/* 6.1, 6.3: the declared minimum and maximum detection range — the
 * configuration's parameters (the runner stores them; an import takes
 * --parameters), else the true distances of its min and max placements,
 * which 6.3 puts at the declared ranges. */
static void
detection_ranges (Build *b, const NbCampaignConfig *c)
{
  double range[2] = { config_param (c, "min_range_mm"), config_param (c, "max_range_mm") };
  gboolean from_placements = FALSE;

  if (isnan (range[0]) || isnan (range[1]))
    {
      g_autoptr (GArray) trials = nb_campaign_list_trials (b->campaign, c->id, NULL);
      double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };

      for (guint k = 0; trials && k < trials->len; k++)
        {
          NbCampaignTrial *tr = &g_array_index (trials, NbCampaignTrial, k);
          int m = g_strcmp0 (tr->kind, "max") == 0 ? 1 : g_strcmp0 (tr->kind, "min") == 0 ? 0 : -1;

          if (m < 0 || !nb_campaign_trial_counts (6, tr) || !isfinite (tr->true_mm))
            continue;
          lo[m] = MIN (lo[m], tr->true_mm);
          hi[m] = MAX (hi[m], tr->true_mm);
        }
      for (int m = 0; m < 2; m++)
        if (isnan (range[m]) && lo[m] == hi[m])
          {
            range[m] = lo[m];
            from_placements = TRUE;
          }
    }
  if (isnan (range[0]) || isnan (range[1]))
    {
      g_autofree char *what = g_strdup_printf (nb_tr (b->lang, "%s: declared minimum and maximum detection "
                                                 "range"), c->name);
      g_autofree char *w = g_strdup_printf (nb_tr (b->lang, "%s: the declared minimum and maximum detection "
                                              "range are not stated (6.1, 6.3)."), c->name);

      nb_protocol_missing (b->doc, b->lang, what, "6.1, 6.3");
      nb_document_add_warning (b->doc, w);
      return;
    }
  {
    g_autofree char *line = g_strdup_printf (from_placements
      ? nb_tr (b->lang, "Declared detection range (6.1, 6.3): minimum %g mm, maximum %g mm (the true distances "
          "of the placements at the minimum and maximum range).")
      : nb_tr (b->lang, "Declared detection range (6.1, 6.3): minimum %g mm, maximum %g mm."), range[0], range[1]);

    nb_document_add_paragraph (b->doc, line);
  }
}

/* 6.4: the accuracy of every placement, not only the means. */
static void
detection_placements (Build *b, const NbCampaignConfig *c)
{
  g_autofree char *title = g_strdup_printf (nb_tr (b->lang, "Table 3 (placements) — Obstacle detection: %s"),
                                            c->name);
  NbTable *t = nb_table_new (title);
  g_autoptr (GArray) trials = nb_campaign_list_trials (b->campaign, c->id, NULL);

  nb_table_set_protocol_number (t, 3);
  nb_table_add_column (t, "obstacle", nb_tr (b->lang, "Obstacle"), NULL, 0);
  nb_table_add_column (t, "range", nb_tr (b->lang, "Range"), NULL, 0);
  nb_table_add_column (t, "angle_deg", nb_tr (b->lang, "Direction"), "°", 0);
  nb_table_add_column (t, "true_mm", nb_tr (b->lang, "True distance"), nb_tr (b->lang, "mm"), 1);
  nb_table_add_column (t, "measured_mm", nb_tr (b->lang, "Measured distance"), nb_tr (b->lang, "mm"), 1);
  nb_table_add_column (t, "detected", nb_tr (b->lang, "Detected"), NULL, 0);
  nb_table_add_column (t, "accuracy_pct", nb_tr (b->lang, "Accuracy"), "%", 2);
  for (guint k = 0; trials && k < trials->len; k++)
    {
      NbCampaignTrial *tr = &g_array_index (trials, NbCampaignTrial, k);
      guint row;

      if (!nb_campaign_trial_counts (6, tr))
        continue;
      row = nb_table_add_row (t);
      nb_table_set_text (t, row, 0, obstacle_title (b, tr->label));
      nb_table_set_text (t, row, 1, g_strcmp0 (tr->kind, "max") == 0 ? nb_tr (b->lang, "maximum")
                                    : g_strcmp0 (tr->kind, "min") == 0 ? nb_tr (b->lang, "minimum") : tr->kind);
      nb_table_set_number (t, row, 2, tr->angle_deg);
      nb_table_set_number (t, row, 3, tr->true_mm);
      nb_table_set_text (t, row, 5, tr->detected ? nb_tr (b->lang, "yes") : nb_tr (b->lang, "no"));
      if (tr->detected)
        {
          nb_table_set_number (t, row, 4, tr->measured_mm);
          /* 6.4: accuracy = 100 − 100 · |measured − true| / true. */
          nb_table_set_number (t, row, 6, 100.0 - 100.0 * fabs (tr->measured_mm - tr->true_mm) /
                                              tr->true_mm);
        }
      else
        nb_table_flag_cell (t, row, 5);
    }
  nb_table_add_note (t, nb_tr (b->lang, "Accuracy of a placement: 100 − 100 · |measured − true| / true (6.4); "
                          "the mean accuracy is the mean over the detected placements."));
  nb_document_add_table (b->doc, t);
}

static void
clause_6 (Build *b, GArray *configs)
{
  for (guint i = 0; i < configs->len; i++)
    {
      NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);
      NbConfigResult r = { 0 };
      g_autofree char *title = g_strdup_printf (nb_tr (b->lang, "Table 3 — Obstacle detection: %s"), c->name);
      NbTable *t = nb_table_new (title);
      PolarFigure *f;
      g_autoptr (GArray) trials = NULL;
      guint detected_before;

      nb_table_set_protocol_number (t, 3);
      nb_table_add_column (t, "obstacle", nb_tr (b->lang, "Obstacle"), NULL, 0);
      add_obstacle_columns (b, t);
      add_figure_columns (b, t, 6);
      nb_document_add_table (b->doc, t);
      if (!figures (b, c, &r))
        continue;
      detected_before = 0;
      for (guint k = 0; k < r.detection.obstacles->len; k++)
        {
          NbObstacleTally *o = &g_array_index (r.detection.obstacles, NbObstacleTally, k);
          guint row = nb_table_add_row (t);

          nb_table_set_text (t, row, 0, obstacle_title (b, o->obstacle));
          obstacle_cells (b, t, row, 1, o->obstacle, 0);
          nb_table_set_number (t, row, 4, o->tally.placements);
          nb_table_set_number (t, row, 5, o->tally.detected);
          nb_table_set_number (t, row, 6, nb_detection_tally_mean_error_pct (&o->tally));
          nb_table_set_number (t, row, 7, nb_detection_tally_mean_accuracy_pct (&o->tally));
          /* The model numbers the obstacles with a detection (their mean
           * error is 100 − the accuracy: the same U). */
          if (o->tally.detected > 0)
            {
              g_autofree char *key = g_strdup_printf ("mean_accuracy_pct[%u]", detected_before);

              nb_protocol_unc_mark (b->unc, t, row, "mean_error_pct", key);
              nb_protocol_unc_mark (b->unc, t, row, "mean_accuracy_pct", key);
              nb_protocol_unc_name (b->unc, key, obstacle_title (b, o->obstacle));
              detected_before++;
            }
          short_series (b, t, row, 4, 6, o->obstacle, o->tally.placements);
          if (o->tally.detected < o->tally.placements)
            nb_table_flag_cell (t, row, 5);
          /* Annex A.5.2: outdoors only the small and large cylinder and the
           * wooden wall; another obstacle is flagged, not dropped. */
          if (b->outdoor && !nb_obstacle_outdoor (o->obstacle))
            {
              g_autofree char *note = g_strdup_printf (
                nb_tr (b->lang, "%s: not a test obstacle outdoors (annex A.5.2: the small cylinder, the large "
                  "cylinder and the wooden wall)."), obstacle_title (b, o->obstacle));

              nb_table_flag_cell (t, row, 0);
              nb_table_add_note (t, note);
            }
        }
      {
        guint row = nb_table_add_row (t);

        nb_table_set_text (t, row, 0, nb_tr (b->lang, "all obstacles"));
        nb_table_set_number (t, row, 4, r.detection.all.placements);
        nb_table_set_number (t, row, 5, r.detection.all.detected);
        nb_table_set_number (t, row, 6, nb_detection_tally_mean_error_pct (&r.detection.all));
        nb_table_set_number (t, row, 7, nb_detection_tally_mean_accuracy_pct (&r.detection.all));
        nb_protocol_unc_mark (b->unc, t, row, "mean_error_pct", "mean_accuracy_pct");
        nb_protocol_unc_mark (b->unc, t, row, "mean_accuracy_pct", "mean_accuracy_pct");
      }
      detection_ranges (b, c);
      detection_placements (b, c);

      /* The polar diagram of detected and missed placements. */
      f = g_new0 (PolarFigure, 1);
      f->obstacles = g_array_new (FALSE, TRUE, sizeof (Polar));
      trials = nb_campaign_list_trials (b->campaign, c->id, NULL);
      for (guint k = 0; trials && k < trials->len; k++)
        {
          NbCampaignTrial *tr = &g_array_index (trials, NbCampaignTrial, k);
          Polar *o = NULL;

          if (!nb_campaign_trial_counts (6, tr))
            continue;
          for (guint m = 0; m < f->obstacles->len && o == NULL; m++)
            if (g_strcmp0 (g_array_index (f->obstacles, Polar, m).name, tr->label) == 0)
              o = &g_array_index (f->obstacles, Polar, m);
          if (o == NULL)
            {
              Polar fresh = { g_strdup (tr->label ? tr->label : ""),
                              g_strdup (obstacle_title (b, tr->label ? tr->label : "")) };

              g_array_append_val (f->obstacles, fresh);
              o = &g_array_index (f->obstacles, Polar, f->obstacles->len - 1);
            }
          if (o->n < G_N_ELEMENTS (o->angle))
            {
              o->angle[o->n] = tr->angle_deg;
              o->max_range[o->n] = g_strcmp0 (tr->kind, "max") == 0;
              o->detected[o->n] = tr->detected;
              o->n++;
            }
        }
      {
        g_autofree char *caption = g_strdup_printf (
          nb_tr (b->lang, "%s: placements per obstacle, seen from the robot looking right; inner ring the "
            "minimum range, outer ring the maximum; ● detected, ✕ missed"), c->name);

        nb_document_add_figure (b->doc, 30.0 * ((f->obstacles->len + 2) / 3) + 10, draw_polar, f,
                                polar_figure_free, caption);
      }
      nb_config_result_clear (&r);
    }
}

/* ------------------------------------------------------------------ 7 -- */

/* 7.2, 7.4: each configuration's obstacle (table 2: dimensions, material,
 * colour), its behaviour, its height above the floor and its speed. */
static void
avoidance_conditions (Build *b, GArray *configs)
{
  NbTable *t = nb_table_new (nb_tr (b->lang, "Table 4 (conditions) — Obstacles of the avoidance tests"));

  nb_table_set_protocol_number (t, 4);
  nb_table_add_column (t, "config", nb_tr (b->lang, "Configuration"), NULL, 0);
  nb_table_add_column (t, "behaviour", nb_tr (b->lang, "Behaviour"), NULL, 0);
  nb_table_add_column (t, "obstacle", nb_tr (b->lang, "Obstacle"), NULL, 0);
  add_obstacle_columns (b, t);
  nb_table_add_column (t, "height_mm", nb_tr (b->lang, "Height above the floor"), nb_tr (b->lang, "mm"), 0);
  nb_table_add_column (t, "speed_m_s", nb_tr (b->lang, "Speed"), nb_tr (b->lang, "m/s"), 2);
  for (guint i = 0; i < configs->len; i++)
    {
      NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);
      guint row = nb_table_add_row (t);
      guint behaviour = c->behaviour ? (guint) g_ascii_strtoull (c->behaviour, NULL, 10) : 0;
      double speed = config_param (c, "obstacle_speed_mm_s");
      double height = config_param (c, "obstacle_height_mm");
      /* 7.2 a): the large cylinder moves upright 0.5 m above the floor;
       * every other obstacle stands or moves on it. */
      double prescribed = behaviour >= 2 && g_strcmp0 (c->obstacle, "large cylinder") == 0
                          ? 500.0 : 0.0;

      nb_table_set_text (t, row, 0, c->name);
      if (behaviour >= 1 && behaviour <= 4)
        nb_table_set_number (t, row, 1, behaviour);
      else
        {
          g_autofree char *what = g_strdup_printf (nb_tr (b->lang, "%s: behaviour (fig. 8)"), c->name);

          cell_not_stated (b, t, row, 1, what, "7.2");
        }
      if (c->obstacle)
        nb_table_set_text (t, row, 2, obstacle_title (b, c->obstacle));
      else
        {
          g_autofree char *what = g_strdup_printf (nb_tr (b->lang, "%s: obstacle (table 2)"), c->name);

          cell_not_stated (b, t, row, 2, what, "7.2");
        }
      obstacle_cells (b, t, row, 3, c->obstacle, behaviour);
      nb_table_set_number (t, row, 6, isnan (height) ? prescribed : height);
      if (!isnan (height) && fabs (height - prescribed) > 10.0)
        {
          g_autofree char *note = g_strdup_printf (nb_tr (b->lang, "%s: the obstacle at %g mm above the floor "
                                                     "where 7.2 prescribes %g mm."), c->name,
                                                   height, prescribed);

          nb_table_flag_cell (t, row, 6);
          nb_table_add_note (t, note);
        }
      if (behaviour == 1)
        nb_table_set_number (t, row, 7, 0.0);          /* static at P1 */
      else if (isnan (speed))
        {
          g_autofree char *what = g_strdup_printf (nb_tr (b->lang, "%s: obstacle speed"), c->name);

          cell_not_stated (b, t, row, 7, what, "7.2");
        }
      else
        {
          nb_table_set_number (t, row, 7, speed / 1000.0);
          /* 7.2: (1.6 ± 0.2) m/s. */
          if (fabs (speed - NB_OBSTACLE_SPEED_MM_S) > 200.0 + 1e-9)
            {
              g_autofree char *note = g_strdup_printf (nb_tr (b->lang, "%s: obstacle speed %.2f m/s outside "
                                                         "(1.6 ± 0.2) m/s (7.2)."), c->name,
                                                       speed / 1000.0);

              nb_table_flag_cell (t, row, 7);
              nb_table_add_note (t, note);
            }
        }
      if (b->outdoor && c->obstacle && !nb_obstacle_outdoor (c->obstacle))
        {
          g_autofree char *note = g_strdup_printf (
            nb_tr (b->lang, "%s: not a test obstacle outdoors (annex A.5.2: the small cylinder, the large "
              "cylinder and the wooden wall)."), obstacle_title (b, c->obstacle));

          nb_table_flag_cell (t, row, 2);
          nb_table_add_note (t, note);
        }
    }
  nb_table_add_note (t, nb_tr (b->lang, "Height: where 7.2 puts the obstacle (the large cylinder moving 0.5 m "
                          "above the floor in behaviours 2–4) unless the configuration states "
                          "it; dimensions as table 2, material and colour as used."));
  nb_document_add_table (b->doc, t);
}

static void
clause_7 (Build *b, GArray *configs)
{
  NbTable *t = nb_table_new (nb_tr (b->lang, "Table 4 — Obstacle avoidance"));
  g_autofree char *declared_text = field (b, "robot.min_avoidance_distance_mm");
  double declared = declared_text ? g_ascii_strtod (declared_text, NULL) : NAN;
  guint unmeasured = 0;
  StartTally start = { 0 };

  nb_table_set_protocol_number (t, 4);
  nb_table_add_column (t, "config", nb_tr (b->lang, "Configuration"), NULL, 0);
  nb_table_add_column (t, "obstacle", nb_tr (b->lang, "Obstacle"), NULL, 0);
  add_figure_columns (b, t, 7);
  nb_table_add_column (t, "clearance_min_mm", nb_tr (b->lang, "Smallest clearance"),
                       nb_tr (b->lang, "mm"), 1);
  nb_document_add_table (b->doc, t);
  for (guint i = 0; i < configs->len; i++)
    {
      NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);
      NbConfigResult r = { 0 };
      guint row = nb_table_add_row (t);
      guint clearance_col = nb_table_n_columns (t) - 1;

      nb_table_set_text (t, row, 0, c->name);
      nb_table_set_text (t, row, 1, obstacle_title (b, c->obstacle));
      if (!figures (b, c, &r))
        continue;
      nb_table_set_text (t, row, 2, r.avoidance.passed ? nb_tr (b->lang, "yes") : nb_tr (b->lang, "no"));
      if (!r.avoidance.passed)
        nb_table_flag_cell (t, row, 2);
      nb_table_set_number (t, row, 3, r.avoidance.t0_s);
      nb_table_set_number (t, row, 4, r.avoidance.t1_s);
      nb_table_set_number (t, row, 5, r.avoidance.delay_ratio);
      nb_protocol_unc_mark (b->unc, t, row, "t0_s", "t0_s");
      nb_protocol_unc_mark (b->unc, t, row, "t1_s", "t1_s");
      nb_protocol_unc_mark (b->unc, t, row, "delay_ratio", "delay_ratio");
      /* 7.3: three trials with the obstacle; a longer or shorter series is
       * flagged (the first three decide). */
      short_series (b, t, row, 2, 7, c->name, judged_trials (b, c));
      start_note (b, t, row, 0, c, &r, "7.3 a", &start);
      goal_imported_note (b, t, row, 2, c, &r, "7.3 c");
      /* 7.1: the smallest clearance of its trials with the obstacle against
       * the manufacturer's minimum distance. */
      if (r.clearance_measured == 0)
        {
          nb_table_set_text (t, row, clearance_col, nb_tr (b->lang, "not measured"));
          nb_table_flag_cell (t, row, clearance_col);
          unmeasured++;
        }
      else
        {
          nb_table_set_number (t, row, clearance_col, r.clearance_min_mm);
          if (r.too_close->len > 0)
            {
              g_autoptr (GString) list = g_string_new (NULL);
              g_autofree char *note = NULL;

              for (guint k = 0; k < r.too_close->len; k++)
                g_string_append_printf (list, "%s%u", k ? ", " : "",
                                        g_array_index (r.too_close, guint, k));
              note = g_strdup_printf (nb_tr (b->lang, "%s: trials closer to the obstacle than "
                                             "the declared %g mm (7.1): %s."), c->name,
                                      r.declared_min_distance_mm, list->str);
              nb_table_flag_cell (t, row, clearance_col);
              nb_table_add_note (t, note);
            }
        }
      nb_config_result_clear (&r);
    }
  if (isnan (declared))
    {
      nb_table_add_note (t, nb_tr (b->lang, "⚠ The minimum distance to an obstacle declared by "
                                   "the manufacturer (7.1) is not stated: the clearances are "
                                   "not judged."));
      nb_protocol_missing (b->doc, b->lang, nb_tr (b->lang, "Minimum distance to an obstacle "
                                                   "declared by the manufacturer"), "7.1");
    }
  else
    {
      g_autofree char *note = g_strdup_printf (
        nb_tr (b->lang, "Smallest clearance: the least gap between the robot (a disc of its width "
               "w on the tracked point) and the obstacle over the trials with the obstacle, "
               "against the minimum distance the manufacturer declared, %g mm (7.1)."), declared);

      nb_table_add_note (t, note);
    }
  if (unmeasured > 0)
    nb_table_add_note (t, nb_tr (b->lang, "Not measured: trials imported without their track "
                                 "or clearance; whether the robot kept its distance is the "
                                 "laboratory's record."));
  start_summary (b, t, &start, "7.3 a");
  nb_table_add_note (t, nb_tr (b->lang, "A configuration is avoided when its first three trials succeed (7.3)."));
  goal_notes (b, t, configs, "7.3 c");
  avoidance_conditions (b, configs);
}

/* ------------------------------------------------------------------ 8 -- */

typedef struct {
  GArray *s;                    /* per trial: GArray of double pairs (along, lateral) */
  double length_mm;
  double d_mm;                  /* d = max |d_i| */
  guint d_trial;
  const NbCatalogue *lang;      /* the axes' words, drawn when the PDF is rendered */
} PathFigure;

static void
path_figure_free (gpointer p)
{
  PathFigure *f = p;

  g_ptr_array_unref ((GPtrArray *) f->s);
  g_free (f);
}

typedef struct {
  const NbSegment *segment;
  GArray *along, *lateral;
} PathCollect;

static gboolean
collect_path (const NbTrackSample *s, gsize n, gpointer user_data, GError **error)
{
  PathCollect *c = user_data;

  for (gsize i = 0; i < n; i++)
    {
      double u = s[i].x_mm - c->segment->x0_mm, v = s[i].y_mm - c->segment->y0_mm;
      double along = u * c->segment->ex + v * c->segment->ey;
      double lateral = c->segment->ex * v - c->segment->ey * u;

      g_array_append_val (c->along, along);
      g_array_append_val (c->lateral, lateral);
    }
  return TRUE;
}

static void
draw_path (cairo_t *cr, double w, double h, gpointer data)
{
  PathFigure *f = data;
  GPtrArray *tracks = (GPtrArray *) f->s;
  double ymax = MAX (f->d_mm * 1.25, 1.0);
  NbPlot p;

  nb_plot_begin (&p, cr, 0, 0, w, h, 0, f->length_mm, -ymax, ymax, FALSE,
                 nb_tr (f->lang, "distance along P0→P1, mm"), nb_tr (f->lang, "deviation (left +), mm"));
  for (guint i = 0; i + 1 < tracks->len; i += 2)
    {
      GArray *along = g_ptr_array_index (tracks, i), *lateral = g_ptr_array_index (tracks, i + 1);
      double shade = 0.25 + 0.5 * (double) i / MAX (tracks->len, 1u);

      nb_plot_line (&p, (double *) along->data, (double *) lateral->data, along->len, 0.5,
                    0.1, shade * 0.6, shade);
    }
  {
    double x[2] = { 0, f->length_mm }, y[2] = { f->d_mm, f->d_mm };

    nb_plot_line (&p, x, y, 2, 0.8, 0.8, 0.1, 0.1);
    y[0] = y[1] = -f->d_mm;
    nb_plot_line (&p, x, y, 2, 0.8, 0.8, 0.1, 0.1);
    nb_plot_marker (&p, f->length_mm * 0.02, f->d_mm, "d", 0.8, 0.1, 0.1);
  }
}

static void
clause_8 (Build *b, GArray *configs)
{
  NbTable *t = nb_table_new (nb_tr (b->lang, "Table 5 — Path deviation"));
  StartTally start = { 0 };

  nb_table_set_protocol_number (t, 5);
  nb_table_add_column (t, "config", nb_tr (b->lang, "Configuration"), NULL, 0);
  nb_table_add_column (t, "load_kg", nb_tr (b->lang, "Load"), nb_tr (b->lang, "kg"), 1);
  nb_table_add_column (t, "n", "n", NULL, 0);
  add_figure_columns (b, t, 8);
  nb_table_add_column (t, "goal_reached", nb_tr (b->lang, "P1 reached (8.3 b)"), NULL, 0);
  nb_document_add_table (b->doc, t);
  for (guint i = 0; i < configs->len; i++)
    {
      NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);
      NbConfigResult r = { 0 };
      guint row = nb_table_add_row (t);
      NbSegment segment;

      nb_table_set_text (t, row, 0, c->name);
      load_cell (b, t, row, 1, c);
      if (!figures (b, c, &r))
        continue;
      nb_table_set_number (t, row, 2, (double) r.path.n);
      nb_table_set_number (t, row, 3, r.path.max_mm);
      nb_table_set_number (t, row, 4, r.path.mean_mm);
      nb_table_set_number (t, row, 5, r.path.mean_abs_mm);
      nb_table_set_number (t, row, 6, r.path.std_mm);
      nb_protocol_unc_mark (b->unc, t, row, "max_mm", "max_mm");
      nb_protocol_unc_mark (b->unc, t, row, "mean_mm", "mean_mm");
      nb_protocol_unc_mark (b->unc, t, row, "mean_abs_mm", "mean_abs_mm");
      nb_protocol_unc_mark (b->unc, t, row, "std_mm", "std_mm");
      short_series (b, t, row, 2, 8, c->name, (guint) r.path.n);
      start_note (b, t, row, 0, c, &r, "8.3 a", &start);
      /* 8.3 b: every trial's end within the clause 5 repeatability. */
      if (r.goal.config == NULL && !r.goal.given_mm)
        {
          g_autofree char *what = g_strdup_printf (nb_tr (b->lang, "%s: P1 reached within the clause 5 "
                                                     "repeatability (no clause 5 figures)"),
                                                   c->name);

          nb_table_set_text (t, row, 7, nb_tr (b->lang, "not checked"));
          nb_table_flag_cell (t, row, 7);
          nb_protocol_missing (b->doc, b->lang, what, "8.3 b");
        }
      else
        {
          g_autofree char *cell = g_strdup_printf (nb_tr (b->lang, "%u of %u"), r.goal_reached, r.goal_judged);
          g_autofree char *rule = goal_describe (b, &r.goal, "8.3 b", "P1");

          nb_table_set_text (t, row, 7, cell);
          nb_table_add_note (t, rule);
          if (r.goal_missed != NULL)
            {
              g_autoptr (GString) list = g_string_new (NULL);
              g_autofree char *note = NULL;

              for (guint k = 0; k < r.goal_missed->len; k++)
                {
                  const NbGoalMiss *m = &g_array_index (r.goal_missed, NbGoalMiss, k);

                  if (k > 0)
                    g_string_append (list, ", ");
                  if (isnan (m->turn_deg))
                    g_string_append_printf (list, nb_tr (b->lang, "%s (%.1f mm)"), m->label, m->miss_mm);
                  else
                    g_string_append_printf (list, nb_tr (b->lang, "%s (%.1f mm, %.2f°)"), m->label, m->miss_mm,
                                            m->turn_deg);
                }
              note = g_strdup_printf (nb_tr (b->lang, "%s: trials that ended beyond it: %s."), c->name,
                                      list->str);

              nb_table_flag_cell (t, row, 7);
              nb_table_add_note (t, note);
            }
        }

      if (nb_segment_init (&segment, c->from_mm[0], c->from_mm[1], c->to_mm[0], c->to_mm[1], NULL))
        {
          g_autoptr (GArray) trials = nb_campaign_list_trials (b->campaign, c->id, NULL);
          PathFigure *f = g_new0 (PathFigure, 1);
          GPtrArray *tracks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
          g_autofree char *caption = NULL;

          f->s = (GArray *) tracks;
          f->lang = b->lang;
          f->length_mm = segment.length_mm;
          f->d_mm = r.path.max_mm;
          for (guint k = 0; trials && k < trials->len; k++)
            {
              NbCampaignTrial *tr = &g_array_index (trials, NbCampaignTrial, k);
              PathCollect pc = { &segment, g_array_new (FALSE, FALSE, sizeof (double)),
                                 g_array_new (FALSE, FALSE, sizeof (double)) };

              if (!nb_campaign_trial_counts (8, tr))
                {
                  g_array_unref (pc.along);
                  g_array_unref (pc.lateral);
                  continue;
                }
              nb_campaign_foreach_samples (b->campaign, tr->id, collect_path, &pc, NULL);
              g_ptr_array_add (tracks, pc.along);
              g_ptr_array_add (tracks, pc.lateral);
            }
          caption = g_strdup_printf (nb_tr (b->lang, "%s: lateral deviation of every trial along the commanded "
                                       "path; d = max |d_i| marked"), c->name);
          nb_document_add_figure (b->doc, 60, draw_path, f, path_figure_free, caption);
        }
      nb_config_result_clear (&r);
    }
  start_summary (b, t, &start, "8.3 a");
  clause_conditions (b, TRUE, FALSE);
}

/* ------------------------------------------------------------------ 9 -- */

static void
clause_9 (Build *b, GArray *configs)
{
  NbTable *t = nb_table_new (nb_tr (b->lang, "Table 6 — Narrow passage"));
  StartTally start = { 0 };
  guint unmeasured = 0;

  nb_table_set_protocol_number (t, 6);
  nb_table_add_column (t, "config", nb_tr (b->lang, "Configuration"), NULL, 0);
  nb_table_add_column (t, "load_kg", nb_tr (b->lang, "Load"), nb_tr (b->lang, "kg"), 1);
  nb_table_add_column (t, "passage_width_mm", nb_tr (b->lang, "Declared passage width"), nb_tr (b->lang, "mm"), 0);
  add_figure_columns (b, t, 9);
  nb_table_add_column (t, "clearance_min_mm", nb_tr (b->lang, "Smallest clearance to the walls"),
                       nb_tr (b->lang, "mm"), 1);
  nb_document_add_table (b->doc, t);
  for (guint i = 0; i < configs->len; i++)
    {
      NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);
      NbConfigResult r = { 0 };
      guint row = nb_table_add_row (t);
      double width = config_param (c, "passage_width_mm");

      nb_table_set_text (t, row, 0, c->name);
      load_cell (b, t, row, 1, c);
      /* 9.2: the passage's width is the manufacturer's declaration. */
      if (isnan (width))
        {
          g_autofree char *what = g_strdup_printf (nb_tr (b->lang, "%s: declared passage width"), c->name);

          cell_not_stated (b, t, row, 2, what, "9.2");
        }
      else
        nb_table_set_number (t, row, 2, width);
      if (!figures (b, c, &r))
        continue;
      nb_table_set_text (t, row, 3, r.passage.passed ? nb_tr (b->lang, "yes") : nb_tr (b->lang, "no"));
      if (!r.passage.passed)
        nb_table_flag_cell (t, row, 3);
      nb_table_set_number (t, row, 4, r.passage.mean_time_s);
      nb_protocol_unc_mark (b->unc, t, row, "mean_time_s", "mean_time_s");
      nb_table_set_number (t, row, 5, r.passage.failed_trials);
      if (r.passage.failed_trials > 0)
        nb_table_flag_cell (t, row, 5);
      /* 9.3: five trials; more (a run of five successes found after
       * failures) or fewer is flagged, never passed silently. */
      short_series (b, t, row, 3, 9, c->name, judged_trials (b, c));
      start_note (b, t, row, 0, c, &r, "9.3 a", &start);
      goal_imported_note (b, t, row, 3, c, &r, "9.3 c");
      /* 9.3: a contact with a wall fails the trial; the smallest clearance
       * of its trials, as a run measured it or the import gave it. */
      if (r.clearance_measured == 0)
        {
          nb_table_set_text (t, row, 6, nb_tr (b->lang, "not measured"));
          nb_table_flag_cell (t, row, 6);
          unmeasured++;
        }
      else
        nb_table_set_number (t, row, 6, r.clearance_min_mm);
      nb_config_result_clear (&r);
    }
  if (unmeasured > 0)
    nb_table_add_note (t, nb_tr (b->lang, "Not measured: trials imported without their track "
                                 "or clearance; whether the robot touched a wall is the "
                                 "laboratory's record."));
  start_summary (b, t, &start, "9.3 a");
  nb_table_add_note (t, nb_tr (b->lang, "The passage time is the mean of five consecutive successful trials (9.3)."));
  goal_notes (b, t, configs, "9.3 c");
  clause_conditions (b, FALSE, FALSE);
}

/* ----------------------------------------------------------------- 10 -- */

typedef struct {
  double truth[4][2];
  GArray *maps;                 /* of double: 8 per trial, A'_1..A'_4 as x, y */
  const NbCatalogue *lang;      /* the axes' words, drawn when the PDF is rendered */
} CornerFigure;

#define N_MAPS(f) ((f)->maps->len / 8)

static void
corner_figure_free (gpointer p)
{
  CornerFigure *f = p;

  g_array_unref (f->maps);
  g_free (f);
}

static void
draw_corners (cairo_t *cr, double w, double h, gpointer data)
{
  CornerFigure *f = data;
  double lo = 0, hi = 0, off = 1.0;
  NbPlot p, q;

  for (int i = 0; i < 4; i++)
    {
      lo = MIN (lo, MIN (f->truth[i][0], f->truth[i][1]));
      hi = MAX (hi, MAX (f->truth[i][0], f->truth[i][1]));
    }
  for (guint m = 0; m < N_MAPS (f); m++)
    {
      double (*c)[2] = (double (*)[2]) &g_array_index (f->maps, double, 8 * m);

      for (int i = 0; i < 4; i++)
        off = MAX (off, MAX (fabs (c[i][0] - f->truth[i][0]), fabs (c[i][1] - f->truth[i][1])));
    }
  /* Left: the arena and the maps to scale; right: each corner's offset. */
  nb_plot_begin (&p, cr, 0, 0, w * 0.5, h, lo - 0.1 * (hi - lo), hi + 0.1 * (hi - lo),
                 lo - 0.1 * (hi - lo), hi + 0.1 * (hi - lo), TRUE, nb_tr (f->lang, "x, mm"), nb_tr (f->lang, "y, mm"));
  {
    double x[5], y[5];

    for (int i = 0; i < 5; i++)
      x[i] = f->truth[i % 4][0], y[i] = f->truth[i % 4][1];
    nb_plot_line (&p, x, y, 5, 1.2, 0.1, 0.1, 0.1);
    for (int i = 0; i < 4; i++)
      {
        char label[8];

        g_snprintf (label, sizeof label, "A%d", i + 1);
        nb_plot_marker (&p, f->truth[i][0], f->truth[i][1], label, 0.1, 0.1, 0.1);
      }
  }
  off *= 1.3;
  nb_plot_begin (&q, cr, w * 0.52, 0, w * 0.48, h, -off, off, -off, off, TRUE,
                 nb_tr (f->lang, "x′ − x, mm"), nb_tr (f->lang, "y′ − y, mm"));
  for (guint m = 0; m < N_MAPS (f); m++)
    {
      double (*c)[2] = (double (*)[2]) &g_array_index (f->maps, double, 8 * m);
      double dx[4], dy[4];

      for (int i = 0; i < 4; i++)
        dx[i] = c[i][0] - f->truth[i][0], dy[i] = c[i][1] - f->truth[i][1];
      {
        double x[5], y[5];

        for (int i = 0; i < 5; i++)
          x[i] = c[i % 4][0], y[i] = c[i % 4][1];
        nb_plot_line (&p, x, y, 5, 0.6, 0.12 + 0.3 * m, 0.32, 0.70 - 0.2 * m);
      }
      for (int i = 0; i < 4; i++)
        {
          char label[16];

          g_snprintf (label, sizeof label, "A'%d/%u", i + 1, m + 1);
          nb_plot_marker (&q, dx[i], dy[i], label, 0.12 + 0.3 * m, 0.32, 0.70 - 0.2 * m);
        }
    }
}

/* 10.2: how each map's corners A'_i were identified with the arena's A_i.
 * Imported corners keep the laboratory's numbering; a map read from its
 * file (its "map corners found" event) is numbered by its registration to
 * the arena, and by the reference feature off the arena's symmetry when the
 * configuration surveys one (nb_map_fit_match_reference): without it a map
 * turned by a quarter about the arena's centre cannot be told. */
static void
map_identity_notes (Build *b, NbTable *t, const NbCampaignConfig *c, double tolerance_deg)
{
  g_autoptr (GArray) events = nb_campaign_list_events (b->campaign, NULL);
  g_autofree char *prefix = g_strdup_printf ("config '%s', trial ", c->name);
  g_autoptr (GString) found = g_string_new (NULL), missed = g_string_new (NULL);
  double rx = config_param (c, "reference_x_mm"), ry = config_param (c, "reference_y_mm");
  gboolean reference = isfinite (rx) && isfinite (ry);
  guint from_file = 0;
  g_autofree char *note = NULL;

  for (guint i = 0; events != NULL && i < events->len; i++)
    {
      const NbCampaignEvent *e = &g_array_index (events, NbCampaignEvent, i);
      const char *number, *state;

      if (g_strcmp0 (e->what, "map corners found") != 0 || e->subject == NULL ||
          !g_str_has_prefix (e->subject, prefix) || e->new_value == NULL)
        continue;
      from_file++;
      number = e->subject + strlen (prefix);
      state = strstr (e->new_value, "; reference feature: ");
      if (state != NULL && g_str_has_prefix (state + strlen ("; reference feature: "), "found"))
        g_string_append_printf (found, "%s%s", found->len ? ", " : "", number);
      else if (reference)
        g_string_append_printf (missed, "%s%s", missed->len ? ", " : "", number);
    }
  if (from_file == 0)
    note = g_strdup_printf (nb_tr (b->lang, "The map's corners A′_i are the arena's A_i as the "
                                   "laboratory identified them (imported numbered), not "
                                   "renumbered for the smallest Dm; the heading is the map's "
                                   "rotation against the arena, flagged beyond %g° (10.2)."),
                            tolerance_deg);
  else
    note = g_strdup_printf (nb_tr (b->lang, "The map's corners A′_i are paired with the arena's "
                                   "A_i by position, the map registered to the arena by its "
                                   "frame (P0's, where mapping starts), not renumbered for the "
                                   "smallest Dm; the heading is the map's rotation against the "
                                   "arena, flagged beyond %g° (10.2)."), tolerance_deg);
  nb_table_add_note (t, note);
  if (from_file == 0)
    return;
  g_clear_pointer (&note, g_free);
  if (!reference)
    note = g_strdup (nb_tr (b->lang, "⚠ No reference feature off the arena's symmetry is "
                            "surveyed (configuration parameters reference_x_mm, "
                            "reference_y_mm): the arena looks the same turned by a quarter "
                            "about its centre, so a map turned so has its corners where the "
                            "arena's are and its Dm cannot show the turn (10.2)."));
  else if (missed->len == 0)
    note = g_strdup_printf (nb_tr (b->lang, "The corners of the maps read from their files are "
                                   "identified by the reference feature at (%g, %g) mm (10.2): "
                                   "of the four numberings, the one whose registration of the "
                                   "map to the arena puts it on the map; maps %s."),
                            rx, ry, found->str);
  else
    note = g_strdup_printf (nb_tr (b->lang, "⚠ The reference feature at (%g, %g) mm (10.2) is "
                                   "not found unambiguously in maps %s: their corners are "
                                   "paired by position only."), rx, ry, missed->str);
  nb_table_add_note (t, note);
}

static void
clause_10 (Build *b, GArray *configs)
{
  for (guint i = 0; i < configs->len; i++)
    {
      NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);
      NbConfigResult r = { 0 };
      g_autofree char *title = g_strdup_printf (nb_tr (b->lang, "Table 7 — Mapping accuracy: %s"), c->name);
      NbTable *t = nb_table_new (title);
      g_autoptr (GArray) trials = NULL;
      CornerFigure *f;

      nb_table_set_protocol_number (t, 7);
      nb_table_add_column (t, "trial", nb_tr (b->lang, "Trial"), NULL, 0);
      nb_table_add_column (t, "dm_mm", nb_tr (b->lang, "Deviation Dm"), nb_tr (b->lang, "mm"), 2);
      nb_table_add_column (t, "heading_deg", nb_tr (b->lang, "Heading of the map"), nb_tr (b->lang, "°"), 2);
      nb_table_add_column (t, "outcome", nb_tr (b->lang, "Map"), NULL, 0);
      nb_table_add_column (t, "build_time_s", nb_tr (b->lang, "Time to build the map"), nb_tr (b->lang, "s"), 0);
      nb_document_add_table (b->doc, t);
      if (!figures (b, c, &r))
        continue;
      trials = nb_campaign_list_trials (b->campaign, c->id, NULL);
      {
        guint k = 0;

        /* Every judged map in order, the failed ones with their reason (10.3),
         * each with the time it took to build (10.3 c). */
        for (guint j = 0; trials && j < trials->len && k < r.values->len; j++)
          {
            NbCampaignTrial *tr = &g_array_index (trials, NbCampaignTrial, j);
            g_autofree char *name = NULL, *outcome = NULL;
            gboolean ok;
            guint row;

            if (!nb_campaign_trial_counts (10, tr))
              continue;
            ok = g_array_index (r.succeeded, gboolean, k);
            name = g_strdup_printf ("%u", g_array_index (r.numbers, guint, k));
            row = nb_table_add_row (t);
            nb_table_set_text (t, row, 0, name);
            nb_table_set_number (t, row, 1, g_array_index (r.values, double, k));
            /* 10.2: a map turned against the arena is flagged (its Dm counts the turn). */
            nb_table_set_number (t, row, 2, g_array_index (r.headings, double, k));
            if (fabs (g_array_index (r.headings, double, k)) > r.heading_tolerance_deg)
              {
                g_autofree char *note = g_strdup_printf (
                  nb_tr (b->lang, "Trial %u: the map is turned by %.1f° against the arena (more than %g°)."),
                  g_array_index (r.numbers, guint, k), g_array_index (r.headings, double, k),
                  r.heading_tolerance_deg);

                nb_table_flag_cell (t, row, 2);
                nb_table_add_note (t, note);
              }
            {
              g_autofree char *key = g_strdup_printf ("dm_mm[%u]", k);

              nb_protocol_unc_mark (b->unc, t, row, "dm_mm", key);
            }
            outcome = ok ? g_strdup (nb_tr (b->lang, "accepted"))
                         : tr->reason ? g_strdup_printf (nb_tr (b->lang, "failed: %s"), tr->reason)
                                      : g_strdup (nb_tr (b->lang, "failed: defects beyond the accepted range"));
            nb_table_set_text (t, row, 3, outcome);
            if (!ok)
              nb_table_flag_cell (t, row, 3);
            if (isfinite (tr->time_s))
              nb_table_set_number (t, row, 4, tr->time_s);
            else
              {
                g_autofree char *what = g_strdup_printf (nb_tr (b->lang, "%s, trial %u: time to build the map"),
                                                         c->name, tr->number);

                cell_not_stated (b, t, row, 4, what, "10.3 c");
              }
            k++;
          }
      }
      {
        guint row = nb_table_add_row (t);

        nb_table_set_text (t, row, 0, nb_tr (b->lang, "Mapping accuracy (max Dm)"));
        if (r.window != G_MAXUINT)
          {
            g_autofree char *note = g_strdup_printf (
              nb_tr (b->lang, "The mapping accuracy is the largest Dm of three consecutive successful trials "
                "(10.3): trials %u to %u."), g_array_index (r.numbers, guint, r.window),
              g_array_index (r.numbers, guint, r.window + 2));

            nb_table_set_number (t, row, 1, r.accuracy_mm);
            nb_protocol_unc_mark (b->unc, t, row, "dm_mm", "accuracy_mm");
            nb_table_add_note (t, note);
          }
        else
          {
            nb_table_set_text (t, row, 1, nb_tr (b->lang, "no figure"));
            nb_table_flag_cell (t, row, 1);
            nb_table_add_note (t, nb_tr (b->lang, "No figure: the series has no three consecutive successful "
                                    "trials (10.3)."));
          }
        short_series (b, t, row, 0, 10, c->name, r.values->len);
      }
      map_identity_notes (b, t, c, r.heading_tolerance_deg);
      /* 10.2: the experts' accepted range of defects, which judged each map. */
      if (isnan (r.defect_range_mm))
        {
          nb_table_add_note (t, nb_tr (b->lang, "⚠ The accepted range of defects (10.2) is not stated: no "
                                  "defect was accepted."));
          nb_protocol_missing (b->doc, b->lang, nb_tr (b->lang, "Accepted range of map defects"), "10.2");
        }
      else
        {
          g_autofree char *range = g_strdup_printf (
            nb_tr (b->lang, "Accepted range of defects declared by the experts (10.2): %g mm (an open contour "
              "no wider, a shadow no farther from its wall)."), r.defect_range_mm);

          nb_table_add_note (t, range);
        }
      f = g_new0 (CornerFigure, 1);
      f->lang = b->lang;
      memcpy (f->truth, c->truth_mm, sizeof f->truth);
      f->maps = g_array_new (FALSE, FALSE, sizeof (double));
      for (guint k = 0; trials && k < trials->len; k++)
        {
          NbCampaignTrial *tr = &g_array_index (trials, NbCampaignTrial, k);

          if (tr->outcome == NB_TRIAL_OK)
            g_array_append_vals (f->maps, tr->corners_mm, 8);
        }
      nb_document_add_figure (b->doc, 70, draw_corners, f, corner_figure_free,
                              nb_tr (b->lang, "The arena's corners A_i and, per trial, the offsets of the map's "
                                "corners A′_i (mm)"));
      {
        g_autofree char *mode = c->parameters ? g_strdup_printf (nb_tr (b->lang, "Operating mode: %s."), c->parameters) : NULL;

        if (mode)
          nb_document_add_paragraph (b->doc, mode);
      }
      nb_config_result_clear (&r);
    }
  clause_conditions (b, FALSE, FALSE);
}

/* ------------------------------------------------------------- build -- */

/* The protocol's section of each ISO 18646-2 clause: its tables and figures
 * are drawn here (cairo, the table model: this layer's), the rules and
 * figures behind them are the clause module's (nb-clause.h). */
typedef void (*Section) (Build *b, GArray *configs);

static const struct {
  guint clause;
  Section section;
} sections[] = {
  { 5, clause_5 }, { 6, clause_6 }, { 7, clause_7 }, { 8, clause_8 }, { 9, clause_9 },
  { 10, clause_10 },
};

static Section
section_of (guint clause)
{
  for (guint i = 0; i < G_N_ELEMENTS (sections); i++)
    if (sections[i].clause == clause)
      return sections[i].section;
  return NULL;
}

NbDocument *
nb_protocol_report_build (NbCampaign *campaign, const NbCatalogue *lang, GError **error)
{
  g_autofree char *name = nb_campaign_get_name (campaign, error);
  g_autoptr (NbDocument) doc = NULL;
  g_autoptr (NbProtocolUnc) unc = NULL;
  Build b = { campaign, lang };
  guint n_clauses;
  const NbClause *const *clauses = nb_clause_registry (&n_clauses);

  if (name == NULL && error != NULL && *error != NULL)
    return NULL;
  if ((unc = nb_protocol_unc_new (campaign, lang, error)) == NULL)
    return NULL;
  b.unc = unc;
  doc = nb_document_new (nb_tr (lang, "Test protocol — ISO 18646-2:2024 (GOST R 60.6.3.15-2026)"));
  b.doc = doc;
  b.lu_mm = NAN;
  nb_campaign_get_lu_mm (campaign, &b.lu_mm, NULL);
  /* ISO/IEC 17025 7.8.2.1: the laboratory, the customer, the item, the dates. */
  nb_protocol_front_matter (campaign, lang, doc);

  nb_document_add_heading (doc, 1, "4", nb_tr (lang, "Test conditions"));
  nb_protocol_clause_4 (campaign, lang, doc, b.lu_mm, &b.outdoor);
  /* The configurations ISO 18646-2 prescribes, which were tested, and why
   * not the others. */
  nb_protocol_coverage (campaign, lang, doc);

  /* The clauses of the registry in order, each with its section. */
  for (guint k = 0; k < n_clauses; k++)
    {
      guint clause = clauses[k]->number;
      Section section = section_of (clause);
      g_autoptr (GArray) configs = NULL;
      g_autofree char *heading = NULL, *number = NULL;

      if (section == NULL)
        continue;               /* not an ISO 18646-2 clause: its own protocol */
      if ((configs = nb_campaign_list_configs (campaign, clause, error)) == NULL)
        return NULL;
      heading = clause_heading (&b, clause);
      number = g_strdup_printf ("%u", clause);
      nb_document_add_heading (doc, 1, number, heading);
      if (configs->len == 0)
        {
          not_tested (&b);
          continue;
        }
      section (&b, configs);
      /* ISO/IEC 17025 7.8.3.1 a: the conditions each trial was recorded under. */
      nb_protocol_trial_conditions (campaign, lang, doc, clause, configs, b.outdoor);
      nb_protocol_unc_clause (unc, doc, clause);
    }
  nb_protocol_unc_finish (unc, doc);
  /* ISO 9283's pose runs and plan, when the file holds them (docs/iso9283.md). */
  if (!nb_protocol_iso9283_add_campaign (doc, lang, campaign, TRUE, error))
    return NULL;
  nb_protocol_back_matter (campaign, lang, doc);
  return g_steal_pointer (&doc);
}

/* --------------------------------------------------- Markdown and JSON -- */

char *
nb_protocol_report_markdown (const NbDocument *doc, const NbCatalogue *lang)
{
  GString *out = g_string_new (NULL);
  guint figures = 0;

  g_string_append_printf (out, "# %s\n\n", nb_document_title (doc));
  for (guint i = 0; i < nb_document_n_title_fields (doc); i++)
    {
      const char *label, *value;

      nb_document_title_field (doc, i, &label, &value);
      g_string_append_printf (out, "- **%s:** %s\n", label, value);
    }
  for (guint i = 0; i < nb_document_n_blocks (doc); i++)
    {
      const NbBlock *b = nb_document_block (doc, i);

      switch (b->kind)
        {
        case NB_BLOCK_HEADING:
          g_string_append_printf (out, "\n%s %s%s%s\n", b->level == 1 ? "##" : "###",
                                  b->number ? b->number : "", b->number ? " " : "", b->text);
          break;
        case NB_BLOCK_PARAGRAPH:
          g_string_append_printf (out, "\n%s\n", b->text);
          break;
        case NB_BLOCK_WARNING:
          g_string_append_printf (out, "\n> ⚠ **%s**\n", b->text);
          break;
        case NB_BLOCK_TABLE:
          {
            g_autofree char *md = nb_table_to_markdown (b->table);

            g_string_append_printf (out, "\n%s", md);
            break;
          }
        case NB_BLOCK_FIGURE:
          g_string_append_printf (out, "\n*%s %u — %s*\n", nb_tr (lang, "Figure"),
                                  ++figures, b->text);
          break;
        case NB_BLOCK_PAGE_BREAK:
          break;
        }
    }
  return g_string_free (out, FALSE);
}

char *
nb_protocol_report_json (const NbDocument *doc)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  static const char *const kinds[] = { "heading", "paragraph", "warning", "table", "figure", "page_break" };

  nb_json_begin_object (w);
  nb_json_key (w, "title"); nb_json_string (w, nb_document_title (doc));
  nb_json_key (w, "fields");
  nb_json_begin_object (w);
  for (guint i = 0; i < nb_document_n_title_fields (doc); i++)
    {
      const char *label, *value;

      nb_document_title_field (doc, i, &label, &value);
      nb_json_key (w, label);
      nb_json_string (w, value);
    }
  nb_json_end_object (w);
  /* #17: the figures with their uncertainty, as `campaign results --json`. */
  if (nb_document_results_json (doc) != NULL)
    {
      nb_json_key (w, "results");
      nb_json_raw (w, nb_document_results_json (doc));
    }
  nb_json_key (w, "blocks");
  nb_json_begin_array (w);
  for (guint i = 0; i < nb_document_n_blocks (doc); i++)
    {
      const NbBlock *b = nb_document_block (doc, i);

      if (b->kind == NB_BLOCK_PAGE_BREAK)
        continue;
      nb_json_begin_object (w);
      nb_json_key (w, "kind"); nb_json_string (w, kinds[b->kind]);
      if (b->kind == NB_BLOCK_HEADING)
        {
          nb_json_key (w, "number"); nb_json_string (w, b->number);
          nb_json_key (w, "level"); nb_json_int (w, b->level);
        }
      if (b->kind == NB_BLOCK_TABLE)
        {
          nb_json_key (w, "table");
          nb_table_to_json (b->table, w);
        }
      else
        {
          nb_json_key (w, "text"); nb_json_string (w, b->text);
        }
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
  nb_json_end_object (w);
  return nb_json_writer_finish (g_steal_pointer (&w));
}

/* ------------------------------------------------------------ tables -- */

const guint nb_protocol_report_tables[] = { 1, 3, 4, 5, 6, 7, 0 };

static char *beside (const char *protocol, const char *what, guint number);

char *
nb_protocol_report_table_path (const char *protocol, guint number)
{
  return beside (protocol, "table", number);
}

/* Protocol table `number` (1, 3–7), or with budgets clause `number`'s
 * uncertainty tables (#17). */
static gboolean
selected (const NbBlock *b, guint number, gboolean budgets)
{
  if (b->kind != NB_BLOCK_TABLE)
    return FALSE;
  return budgets ? nb_table_budget_clause (b->table) == number
                 : nb_table_protocol_number (b->table) == number;
}

/* The selected tables one after the other, each with its header; a
 * clause's budgets (tables of different columns, one per configuration)
 * each under its title as a '#' line, which navbench's CSV reader skips. */
static char *
tables_csv (const NbDocument *doc, guint number, gboolean budgets)
{
  GString *csv = g_string_new (NULL);
  guint found = 0;

  for (guint i = 0; i < nb_document_n_blocks (doc); i++)
    {
      const NbBlock *b = nb_document_block (doc, i);
      g_autofree char *text = NULL;

      if (!selected (b, number, budgets))
        continue;
      if (budgets)
        g_string_append_printf (csv, "# %s\r\n", nb_table_title (b->table));
      text = nb_table_to_csv (b->table);
      g_string_append (csv, text);
      found++;
    }
  if (found == 0)
    {
      g_string_free (csv, TRUE);
      return NULL;
    }
  return g_string_free (csv, FALSE);
}

static char *
tables_json (const NbDocument *doc, guint number, gboolean budgets)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  guint found = 0;

  nb_json_begin_array (w);
  for (guint i = 0; i < nb_document_n_blocks (doc); i++)
    {
      const NbBlock *b = nb_document_block (doc, i);

      if (!selected (b, number, budgets))
        continue;
      nb_table_to_json (b->table, w);
      found++;
    }
  nb_json_end_array (w);
  if (found == 0)
    return NULL;
  return nb_json_writer_finish (g_steal_pointer (&w));
}

/* `export --table N`: a protocol table through the same model as the report,
 * so CSV, JSON, Markdown and PDF cannot disagree. */
char *
nb_protocol_report_table_csv (const NbDocument *doc, guint number)
{
  return tables_csv (doc, number, FALSE);
}

char *
nb_protocol_report_table_json (const NbDocument *doc, guint number)
{
  return tables_json (doc, number, FALSE);
}

char *
nb_protocol_report_budgets_csv (const NbDocument *doc, guint clause)
{
  return tables_csv (doc, clause, TRUE);
}

char *
nb_protocol_report_budgets_json (const NbDocument *doc, guint clause)
{
  return tables_json (doc, clause, TRUE);
}

static char *
beside (const char *protocol, const char *what, guint number)
{
  g_autofree char *stem = g_str_has_suffix (protocol, ".pdf")
                            ? g_strndup (protocol, strlen (protocol) - 4)
                            : g_strdup (protocol);

  return g_strdup_printf ("%s-%s-%u.csv", stem, what, number);
}

static void
csv_file_free (gpointer p)
{
  NbReportCsv *f = p;

  g_free (f->path);
  g_free (f->text);
  g_free (f);
}

GPtrArray *
nb_protocol_report_csv_files (const NbDocument *doc, const char *protocol)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (csv_file_free);
  guint done[32] = { 0 }, n_done = 0;

  for (const guint *n = nb_protocol_report_tables; *n != 0; n++)
    {
      char *text = nb_protocol_report_table_csv (doc, *n);
      NbReportCsv *f;

      if (text == NULL)
        continue;
      f = g_new (NbReportCsv, 1);
      f->path = nb_protocol_report_table_path (protocol, *n);
      f->text = text;
      g_ptr_array_add (files, f);
    }
  /* Each clause's budgets once, in the protocol's order. */
  for (guint i = 0; i < nb_document_n_blocks (doc); i++)
    {
      const NbBlock *b = nb_document_block (doc, i);
      guint clause = b->kind == NB_BLOCK_TABLE ? nb_table_budget_clause (b->table) : 0;
      gboolean seen = FALSE;
      NbReportCsv *f;

      for (guint k = 0; k < n_done && !seen; k++)
        seen = done[k] == clause;
      if (clause == 0 || seen || n_done == G_N_ELEMENTS (done))
        continue;
      done[n_done++] = clause;
      f = g_new (NbReportCsv, 1);
      f->path = beside (protocol, "budgets", clause);
      f->text = nb_protocol_report_budgets_csv (doc, clause);
      g_ptr_array_add (files, f);
    }
  return files;
}
