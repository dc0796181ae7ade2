#include "nb-protocol-iso9283.h"

#include "nb-campaign-iso9283.h"
#include "nb-clause-9283.h"
#include "nb-error.h"
#include "nb-iso9283-run.h"

#include <math.h>

#include <string.h>

static const char *const plane_names[4] = {
  "C1-C2-C7-C8", "C2-C3-C8-C5", "C3-C4-C5-C6", "C4-C1-C6-C7",
};

/* The words of this section are msgids in the context "iso9283" (po/ru.po:
 * ГОСТ Р ИСО 9283-2003's terms), kept apart from ISO 18646-2's protocol,
 * whose "Test conditions" or "rated load" read otherwise in Russian. */

/* The module words (clause titles, column titles, notes) are the clause
 * modules' msgids of the same context. */

const char *
nb_protocol_iso9283_title (const NbCatalogue *lang)
{
  return nb_ptr (lang, "iso9283", "Test report: ISO 9283:1998 (manipulating industrial robots)");
}

static const char *
load_words (const char *load, const NbCatalogue *lang)
{
  return g_strcmp0 (load, "10%") == 0 ? nb_ptr (lang, "iso9283", "10 % of the rated load")
                                      : nb_ptr (lang, "iso9283", "rated load");
}

gboolean
nb_protocol_iso9283_add_pose (NbDocument *doc, const NbCatalogue *lang, guint level,
                              const NbIso9283PoseSection *s, GError **error)
{
  const char *mm = nb_ptr (lang, "iso9283", "mm");
  g_autofree char *cube = NULL, *plane = NULL, *cycles = NULL, *speed = NULL, *load = NULL,
                  *robot = NULL, *meas = NULL;
  NbTable *t;

  (void) error;
  nb_document_add_heading (doc, level, "7.2",
                           nb_ptr (lang, "iso9283", "Pose accuracy and pose repeatability"));
  nb_document_add_heading (doc, 2, NULL, nb_ptr (lang, "iso9283", "Test conditions"));
  if (s->config != NULL)
    {
      g_autofree char *line = g_strdup_printf (nb_ptr (lang, "iso9283", "Configuration: %s."),
                                               s->config);

      nb_document_add_paragraph (doc, line);
    }
  cube = g_strdup_printf (nb_ptr (lang, "iso9283",
                                  "Test cube (6.2): edge %.1f mm, centre (%.1f, %.1f, %.1f) mm in "
                                  "the base frame, edges parallel to its axes."),
                          s->edge_mm, s->centre_mm[0], s->centre_mm[1], s->centre_mm[2]);
  plane = g_strdup_printf (nb_ptr (lang, "iso9283",
                                   "Measurement plane (6.3): %s; P1 the cube's centre, P2 to P5 on "
                                   "the plane's diagonals at 10 %% of the diagonal from the "
                                   "corners."),
                           plane_names[CLAMP (s->plane, 1, 4) - 1]);
  cycles = g_strdup_printf (nb_ptr (lang, "iso9283",
                                    "Cycles: %u, unidirectional approach, the cycle "
                                    "P1 → P5 → P4 → P3 → P2 → P1 (7.2)."), s->cycles);
  speed = g_strdup_printf (nb_ptr (lang, "iso9283", "Velocity: %.0f %% of the rated velocity."),
                           s->speed_pct);
  load = g_strdup_printf (nb_ptr (lang, "iso9283", "Load: %s."), load_words (s->load, lang));
  robot = g_strdup_printf (nb_ptr (lang, "iso9283", "Robot: %s."), s->robot);
  meas = g_strdup_printf (nb_ptr (lang, "iso9283", "Measurement: %s."), s->measurement);
  nb_document_add_paragraph (doc, cube);
  nb_document_add_paragraph (doc, plane);
  nb_document_add_paragraph (doc, cycles);
  nb_document_add_paragraph (doc, speed);
  nb_document_add_paragraph (doc, load);
  nb_document_add_paragraph (doc, robot);
  nb_document_add_paragraph (doc, meas);
  if (s->cycles < 30)
    nb_document_add_warning (doc, nb_ptr (lang, "iso9283", "Fewer cycles than the 30 of 7.2."));

  t = nb_table_new (nb_ptr (lang, "iso9283",
                            "Pose accuracy AP and pose repeatability RP, positions (7.2.1, 7.2.2)"));
  nb_table_add_column (t, "pose", nb_ptr (lang, "iso9283", "pose"), NULL, 0);
  nb_table_add_column (t, "x_mm", "x", mm, 1);
  nb_table_add_column (t, "y_mm", "y", mm, 1);
  nb_table_add_column (t, "z_mm", "z", mm, 1);
  nb_table_add_column (t, "n", "n", NULL, 0);
  nb_table_add_column (t, "ap_mm", "AP_P", mm, 3);
  nb_table_add_column (t, "ap_x_mm", "AP_x", mm, 3);
  nb_table_add_column (t, "ap_y_mm", "AP_y", mm, 3);
  nb_table_add_column (t, "ap_z_mm", "AP_z", mm, 3);
  nb_table_add_column (t, "rp_mm", "RP_l", mm, 3);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("P%u", i + 1);
      guint r = nb_table_add_row (t);

      nb_table_set_text (t, r, 0, name);
      nb_table_set_number (t, r, 1, s->command[i].x_mm);
      nb_table_set_number (t, r, 2, s->command[i].y_mm);
      nb_table_set_number (t, r, 3, s->command[i].z_mm);
      nb_table_set_number (t, r, 4, (double) s->result[i].n);
      nb_table_set_number (t, r, 5, s->result[i].ap_mm);
      for (int k = 0; k < 3; k++)
        nb_table_set_number (t, r, 6 + k, s->result[i].ap_xyz_mm[k]);
      nb_table_set_number (t, r, 9, s->result[i].rp_mm);
    }
  nb_table_add_note (t, nb_ptr (lang, "iso9283",
                                "AP_P = |barycentre − command|; RP_l = l̄ + 3·S_l; AP_a = ā − a_c, "
                                "RP_a = ±3·S_a (a, b, c about x, y, z; means on the recast "
                                "differences to the command)."));
  nb_document_add_table (doc, t);

  t = nb_table_new (nb_ptr (lang, "iso9283",
                            "Pose accuracy and repeatability, orientation (7.2.1, 7.2.2)"));
  nb_table_add_column (t, "pose", nb_ptr (lang, "iso9283", "pose"), NULL, 0);
  nb_table_add_column (t, "ap_a_deg", "AP_a", "°", 4);
  nb_table_add_column (t, "ap_b_deg", "AP_b", "°", 4);
  nb_table_add_column (t, "ap_c_deg", "AP_c", "°", 4);
  nb_table_add_column (t, "rp_a_deg", "RP_a", "°", 4);
  nb_table_add_column (t, "rp_b_deg", "RP_b", "°", 4);
  nb_table_add_column (t, "rp_c_deg", "RP_c", "°", 4);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("P%u", i + 1);
      guint r = nb_table_add_row (t);

      nb_table_set_text (t, r, 0, name);
      for (int k = 0; k < 3; k++)
        {
          nb_table_set_number (t, r, 1 + k, s->result[i].ap_abc_deg[k]);
          nb_table_set_number (t, r, 4 + k, s->result[i].rp_abc_deg[k]);
        }
    }
  nb_table_add_note (t, nb_ptr (lang, "iso9283", "RP_a, RP_b, RP_c are stated as ±."));
  nb_table_add_note (t, nb_ptr (lang, "iso9283", "Formulas and their clauses: docs/iso9283.md."));
  nb_document_add_table (doc, t);
  return TRUE;
}

const char *
nb_protocol_iso9283_measurement (const char *stored, const NbCatalogue *lang)
{
  for (guint i = 0; stored != NULL && i < 2; i++)
    if (g_str_equal (stored, nb_iso9283_sim_measurement (i == 1)))
      return i == 0 ? nb_ptr (lang, "iso9283", "simulated laser tracker, 1 kHz, 6-DoF probe")
                    : nb_ptr (lang, "iso9283",
                              "simulated laser tracker on the joints the robot reports");
  return stored ? stored : "";
}

const char *
nb_protocol_iso9283_robot (gboolean served, const NbCatalogue *lang)
{
  return served ? nb_ptr (lang, "iso9283", "iiwa 7 over the motion HTTP API")
                : nb_ptr (lang, "iso9283", "simulated iiwa 7 with its error model");
}

/* One section: the figures computed again from what is stored. */
gboolean
nb_protocol_iso9283_add_run (NbDocument *doc, const NbCatalogue *lang, guint level,
                             const NbIso9283StoredRun *r,
                             GError **error)
{
  gboolean http = !g_str_equal (r->robot, "sim");
  g_autofree char *robot = http ? g_strdup_printf ("%s (%s)", nb_protocol_iso9283_robot (TRUE, lang),
                                                   r->robot)
                                : g_strdup (nb_protocol_iso9283_robot (FALSE, lang));
  NbIso9283PoseSection s = {
    .config = r->config,
    .robot = robot,
    /* A live instrument is stored as "DRIVER URL", words of no language;
     * the simulated tracker's stored words are translated. */
    .measurement = nb_protocol_iso9283_measurement (
      r->measurement ? r->measurement : nb_iso9283_sim_measurement (http), lang),
    .edge_mm = r->edge_mm,
    .plane = r->plane,
    .speed_pct = r->speed_pct,
    .load = r->load,
    .cycles = r->cycles,
  };

  memcpy (s.centre_mm, r->centre_mm, sizeof s.centre_mm);
  memcpy (s.command, r->command, sizeof s.command);
  for (int i = 0; i < 5; i++)
    if (!nb_iso9283_pose (&r->command[i], (NbPose6 *) r->attained[i]->data, r->attained[i]->len,
                          &s.result[i], error))
      {
        g_prefix_error (error, "run '%s' P%d: ", r->config, i + 1);
        return FALSE;
      }
  return nb_protocol_iso9283_add_pose (doc, lang, level, &s, error);
}

/* --------------------------------------------------------- the plan -- */

/* The units of the clause modules' columns in the language. */
static const char *
unit_words (const char *unit, const NbCatalogue *lang)
{
  if (unit == NULL)
    return "";
  if (g_str_equal (unit, "mm"))
    return nb_ptr (lang, "iso9283", "mm");
  if (g_str_equal (unit, "s"))
    return nb_ptr (lang, "iso9283", "s");
  if (g_str_equal (unit, "mm/s"))
    return nb_ptr (lang, "iso9283", "mm/s");
  if (g_str_equal (unit, "mm/N"))
    return nb_ptr (lang, "iso9283", "mm/N");
  if (g_str_equal (unit, "N"))
    return nb_ptr (lang, "iso9283", "N");
  return unit;                  /* °, % */
}

static gboolean
add_config (NbDocument *doc, const NbCatalogue *lang, NbCampaign *campaign, const NbClause9283 *clause,
            const NbIso9283PlanEntry *e, GError **error)
{
  NbClause9283Figures f;
  g_autoptr (GPtrArray) trials = NULL;
  g_autofree char *head = NULL, *title = NULL;
  const NbIso9283Trial *first;
  NbTable *t;

  if (!nb_clause_9283_compute_in (campaign, e, lang, &f, error))
    return FALSE;
  /* The conditions of the first cycle (robot, measurement, the load in kg). */
  if ((trials = nb_campaign_iso9283_trials (campaign, e->config, error)) == NULL)
    {
      nb_clause_9283_figures_clear (&f);
      return FALSE;
    }
  first = trials->len ? trials->pdata[0] : NULL;
  {
    GString *h = g_string_new (NULL);

    g_string_append_printf (h, nb_ptr (lang, "iso9283",
                                       "Configuration %s: %.0f %% of the rated velocity, %s; %u of "
                                       "%u cycles"),
                            e->config, e->speed_pct, load_words (e->load, lang), f.cycles, e->cycles);
    if (first != NULL)
      g_string_append_printf (h, nb_ptr (lang, "iso9283", "; robot: %s; measurement: %s"),
                              first->robot, nb_protocol_iso9283_measurement (first->measurement,
                                                                             lang));
    if (f.note != NULL)
      g_string_append_printf (h, "; %s", f.note);
    g_string_append_c (h, '.');
    head = g_string_free (h, FALSE);
  }
  nb_document_add_paragraph (doc, head);
  if (!e->in_scope)
    {
      g_autofree char *why = g_strdup_printf (nb_ptr (lang, "iso9283", "Out of scope: %s."),
                                              e->reason ? e->reason : "");

      nb_document_add_paragraph (doc, why);
      nb_clause_9283_figures_clear (&f);
      return TRUE;
    }
  if (f.error)
    {
      g_autofree char *why = g_strdup_printf (nb_ptr (lang, "iso9283",
                                                         "The figures cannot be computed: %s."),
                                                 f.error);

      nb_document_add_warning (doc, why);
      nb_clause_9283_figures_clear (&f);
      return TRUE;
    }
  if (f.cycles < e->cycles)
    nb_document_add_warning (doc, nb_ptr (lang, "iso9283",
                                          "Fewer cycles than the standard asks for (6.9)."));
  title = g_strdup_printf ("%s (%s): %s", nb_ptr (lang, "iso9283", clause->title), clause->clause,
                           e->config);
  t = nb_table_new (title);
  nb_table_add_column (t, "figure", nb_ptr (lang, "iso9283", "figure"), NULL, 0);
  nb_table_add_column (t, "unit", nb_ptr (lang, "iso9283", "unit"), NULL, 0);
  for (guint r = 0; r < f.n_rows; r++)
    nb_table_add_column (t, f.labels[r], f.labels[r], NULL, 4);
  for (guint k = 0; k < clause->n_columns; k++)
    {
      const NbClause9283Column *c = &clause->columns[k];
      guint row = nb_table_add_row (t);

      nb_table_set_text (t, row, 0, nb_ptr (lang, "iso9283", c->title));
      nb_table_set_text (t, row, 1, unit_words (c->unit, lang));
      for (guint r = 0; r < f.n_rows; r++)
        {
          double v = f.values[r * clause->n_columns + k];
          char buf[32];

          if (isfinite (v))
            {
              g_snprintf (buf, sizeof buf, "%.*f", (int) c->decimals, v);
              nb_table_set_text (t, row, 2 + r, buf);
            }
          else
            nb_table_set_text (t, row, 2 + r, "—");
        }
    }
  nb_document_add_table (doc, t);
  nb_clause_9283_figures_clear (&f);
  return TRUE;
}

gboolean
nb_protocol_iso9283_add_plan (NbDocument *doc, const NbCatalogue *lang, guint level,
                              NbCampaign *campaign, GError **error)
{
  g_autoptr (GArray) plan = nb_campaign_iso9283_plan_list (campaign, error);
  const NbClause9283 *const *reg;
  guint n_reg;
  NbTable *t;

  if (plan == NULL)
    return FALSE;
  if (plan->len == 0)
    return TRUE;
  nb_document_add_heading (doc, level, NULL, nb_ptr (lang, "iso9283", "The ISO 9283 test plan"));
  t = nb_table_new (nb_ptr (lang, "iso9283", "The plan's configurations and their state"));
  nb_table_add_column (t, "config", nb_ptr (lang, "iso9283", "configuration"), NULL, 0);
  nb_table_add_column (t, "clause", nb_ptr (lang, "iso9283", "clause"), NULL, 0);
  nb_table_add_column (t, "speed", nb_ptr (lang, "iso9283", "velocity"), "%", 0);
  nb_table_add_column (t, "load", nb_ptr (lang, "iso9283", "load"), NULL, 0);
  nb_table_add_column (t, "cycles", nb_ptr (lang, "iso9283", "cycles"), NULL, 0);
  nb_table_add_column (t, "state", nb_ptr (lang, "iso9283", "state"), NULL, 0);
  for (guint i = 0; i < plan->len; i++)
    {
      const NbIso9283PlanEntry *e = &g_array_index (plan, NbIso9283PlanEntry, i);
      const NbClause9283 *clause = nb_clause_9283_lookup (e->characteristic);
      g_autofree char *count = NULL;
      guint n;
      guint row = nb_table_add_row (t);

      if (!nb_campaign_iso9283_count_trials (campaign, e->config, &n, error))
        {
          nb_table_free (t);
          return FALSE;
        }
      count = g_strdup_printf ("%u/%u", n, e->cycles);
      nb_table_set_text (t, row, 0, e->config);
      nb_table_set_text (t, row, 1, clause ? clause->clause : "?");
      nb_table_set_number (t, row, 2, e->speed_pct);
      nb_table_set_text (t, row, 3, g_strcmp0 (e->load, "10%") == 0 ? "10 %" : nb_ptr (lang, "iso9283", "rated"));
      nb_table_set_text (t, row, 4, count);
      nb_table_set_text (t, row, 5, !e->in_scope ? nb_ptr (lang, "iso9283", "out of scope")
                                    : n == 0 ? nb_ptr (lang, "iso9283", "not started")
                                    : n < e->cycles ? nb_ptr (lang, "iso9283", "in progress")
                                    : nb_ptr (lang, "iso9283", "complete"));
    }
  nb_document_add_table (doc, t);
  reg = nb_clause_9283_registry (&n_reg);
  for (guint k = 0; k < n_reg; k++)
    {
      gboolean headed = FALSE;

      for (guint i = 0; i < plan->len; i++)
        {
          const NbIso9283PlanEntry *e = &g_array_index (plan, NbIso9283PlanEntry, i);
          guint n;

          if (!g_str_equal (e->characteristic, reg[k]->key))
            continue;
          if (!nb_campaign_iso9283_count_trials (campaign, e->config, &n, error))
            return FALSE;
          /* A configuration not started says nothing beyond the plan's table. */
          if (n == 0 && e->in_scope)
            continue;
          if (!headed)
            nb_document_add_heading (doc, level, reg[k]->clause, nb_ptr (lang, "iso9283", reg[k]->title));
          headed = TRUE;
          if (!add_config (doc, lang, campaign, reg[k], e, error))
            return FALSE;
        }
    }
  return TRUE;
}

gboolean
nb_protocol_iso9283_add_campaign (NbDocument *doc, const NbCatalogue *lang, NbCampaign *campaign,
                                  gboolean headed, GError **error)
{
  g_autoptr (GPtrArray) runs = nb_campaign_iso9283_runs (campaign, error);
  g_autoptr (GArray) plan = NULL;

  if (runs == NULL || (plan = nb_campaign_iso9283_plan_list (campaign, error)) == NULL)
    return FALSE;
  /* In ISO 18646-2's protocol the section's clause numbers are ISO 9283's:
   * a heading says whose, the section's own headings one level below it. */
  if (headed && (runs->len > 0 || plan->len > 0))
    nb_document_add_heading (doc, 1, NULL, nb_protocol_iso9283_title (lang));
  for (guint i = 0; i < runs->len; i++)
    if (!nb_protocol_iso9283_add_run (doc, lang, headed ? 2 : 1, runs->pdata[i], error))
      return FALSE;
  return nb_protocol_iso9283_add_plan (doc, lang, headed ? 2 : 1, campaign, error);
}
