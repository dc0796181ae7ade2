#include "nb-protocol-iso9283.h"

#include "nb-campaign-iso9283.h"
#include "nb-clause-9283.h"
#include "nb-error.h"

#include <math.h>

#include <string.h>

/* One table of the section's words: English and ГОСТ Р ИСО 9283-2003's Russian. */
typedef enum {
  W_TITLE, W_SECTION, W_CONDITIONS, W_LOAD_RATED, W_LOAD_10, W_POSE, W_COMMAND, W_AP, W_RP, W_TABLE_POS, W_TABLE_ORI,
  W_NOTE_CYCLE, W_NOTE_FORMULAS, W_NOTE_RP, W_N, W_FEWER,
  N_WORDS
} Word;

static const char *const words[2][N_WORDS] = {
  {
    "Test report: ISO 9283:1998 (manipulating industrial robots)",
    "Pose accuracy and pose repeatability",
    "Test conditions",
    "rated load",
    "10 % of the rated load",
    "pose",
    "command position x, y, z",
    "pose accuracy",
    "pose repeatability",
    "Pose accuracy AP and pose repeatability RP, positions (7.2.1, 7.2.2)",
    "Pose accuracy and repeatability, orientation (7.2.1, 7.2.2)",
    "AP_P = |barycentre − command|; RP_l = l̄ + 3·S_l; AP_a = ā − a_c, RP_a = ±3·S_a (a, b, c "
    "about x, y, z; means on the recast differences to the command).",
    "Formulas and their clauses: docs/iso9283.md.",
    "RP_a, RP_b, RP_c are stated as ±.",
    "n",
    "Fewer cycles than the 30 of 7.2.",
  },
  {
    "Протокол испытаний по ГОСТ Р ИСО 9283-2003 (роботы промышленные манипуляционные)",
    "Точность позиционирования и повторяемость позиционирования",
    "Условия испытаний",
    "номинальная нагрузка",
    "10 % номинальной нагрузки",
    "поза",
    "заданное положение x, y, z",
    "точность позиционирования",
    "повторяемость позиционирования",
    "Точность позиционирования AP и повторяемость позиционирования RP, положение (7.2.1, 7.2.2)",
    "Точность и повторяемость позиционирования, ориентация (7.2.1, 7.2.2)",
    "AP_P = |барицентр − заданная поза|; RP_l = l̄ + 3·S_l; AP_a = ā − a_c, RP_a = ±3·S_a (углы "
    "a, b, c вокруг осей x, y, z; средние по приведённым разностям с заданной позой).",
    "Формулы и пункты стандарта: docs/iso9283.md.",
    "RP_a, RP_b, RP_c указаны как ±.",
    "n",
    "Циклов меньше 30, требуемых в 7.2.",
  },
};

static const char *const plane_names[4] = {
  "C1-C2-C7-C8", "C2-C3-C8-C5", "C3-C4-C5-C6", "C4-C1-C6-C7",
};

static int
lang_index (const char *lang)
{
  return lang != NULL && g_str_equal (lang, "ru") ? 1 : 0;
}

const char *
nb_protocol_iso9283_title (const char *lang)
{
  return words[lang_index (lang)][W_TITLE];
}

const NbPdfWords *
nb_protocol_iso9283_pdf_words (const char *lang)
{
  static const NbPdfWords en = { "Contents", "Figure", "Table", "Page %d of %d" };
  static const NbPdfWords ru = { "Содержание", "Рисунок", "Таблица", "Страница %d из %d" };

  return lang_index (lang) ? &ru : &en;
}

gboolean
nb_protocol_iso9283_add_pose (NbDocument *doc, const char *lang, const NbIso9283PoseSection *s,
                              GError **error)
{
  const char *const *w, *mm;
  gboolean ru;
  g_autofree char *cube = NULL, *plane = NULL, *cycles = NULL, *speed = NULL, *load = NULL,
                  *robot = NULL, *meas = NULL;
  NbTable *t;

  if (lang == NULL || !(g_str_equal (lang, "en") || g_str_equal (lang, "ru")))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the protocol's language is en or ru, not '%s'",
                   lang ? lang : "");
      return FALSE;
    }
  w = words[lang_index (lang)];
  ru = lang_index (lang) == 1;
  nb_document_add_heading (doc, 1, "7.2", w[W_SECTION]);
  nb_document_add_heading (doc, 2, NULL, w[W_CONDITIONS]);
  if (s->config != NULL)
    {
      g_autofree char *line = g_strdup_printf (ru ? "Конфигурация: %s." : "Configuration: %s.",
                                               s->config);

      nb_document_add_paragraph (doc, line);
    }
  /* The formats as literals (checked by the compiler), both languages side by side. */
  cube = g_strdup_printf (ru ? "Испытательный куб (6.2): ребро %.1f мм, центр (%.1f; %.1f; %.1f) мм в "
                               "базовой системе координат, рёбра параллельны её осям."
                             : "Test cube (6.2): edge %.1f mm, centre (%.1f, %.1f, %.1f) mm in the "
                               "base frame, edges parallel to its axes.",
                          s->edge_mm, s->centre_mm[0], s->centre_mm[1], s->centre_mm[2]);
  plane = g_strdup_printf (ru ? "Плоскость измерений (6.3): %s; P1 — центр куба, P2–P5 на диагоналях "
                                "плоскости на расстоянии 10 %% длины диагонали от вершин."
                              : "Measurement plane (6.3): %s; P1 the cube's centre, P2 to P5 on the "
                                "plane's diagonals at 10 %% of the diagonal from the corners.",
                           plane_names[CLAMP (s->plane, 1, 4) - 1]);
  cycles = g_strdup_printf (ru ? "Число циклов: %u, подход с одного направления, цикл "
                                 "P1 → P5 → P4 → P3 → P2 → P1 (7.2)."
                               : "Cycles: %u, unidirectional approach, the cycle "
                                 "P1 → P5 → P4 → P3 → P2 → P1 (7.2).", s->cycles);
  speed = g_strdup_printf (ru ? "Скорость: %.0f %% номинальной скорости."
                              : "Velocity: %.0f %% of the rated velocity.", s->speed_pct);
  load = g_strdup_printf (ru ? "Нагрузка: %s." : "Load: %s.",
                          s->load && g_str_equal (s->load, "10%") ? w[W_LOAD_10] : w[W_LOAD_RATED]);
  robot = g_strdup_printf (ru ? "Робот: %s." : "Robot: %s.", s->robot);
  meas = g_strdup_printf (ru ? "Средство измерений: %s." : "Measurement: %s.", s->measurement);
  nb_document_add_paragraph (doc, cube);
  nb_document_add_paragraph (doc, plane);
  nb_document_add_paragraph (doc, cycles);
  nb_document_add_paragraph (doc, speed);
  nb_document_add_paragraph (doc, load);
  nb_document_add_paragraph (doc, robot);
  nb_document_add_paragraph (doc, meas);
  if (s->cycles < 30)
    nb_document_add_warning (doc, w[W_FEWER]);

  mm = ru ? "мм" : "mm";
  t = nb_table_new (w[W_TABLE_POS]);
  nb_table_add_column (t, "pose", w[W_POSE], NULL, 0);
  nb_table_add_column (t, "x_mm", "x", mm, 1);
  nb_table_add_column (t, "y_mm", "y", mm, 1);
  nb_table_add_column (t, "z_mm", "z", mm, 1);
  nb_table_add_column (t, "n", w[W_N], NULL, 0);
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
  nb_table_add_note (t, w[W_NOTE_CYCLE]);
  nb_document_add_table (doc, t);

  t = nb_table_new (w[W_TABLE_ORI]);
  nb_table_add_column (t, "pose", w[W_POSE], NULL, 0);
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
  nb_table_add_note (t, w[W_NOTE_RP]);
  nb_table_add_note (t, w[W_NOTE_FORMULAS]);
  nb_document_add_table (doc, t);
  return TRUE;
}

static const char *const sim_measurement[2][2] = {
  { "simulated laser tracker, 1 kHz, 6-DoF probe",
    "имитатор лазерного трекера, 1 кГц, 6 степеней свободы" },
  { "simulated laser tracker on the joints the robot reports",
    "имитатор лазерного трекера по положениям шарниров, сообщаемым роботом" },
};

const char *
nb_protocol_iso9283_sim_measurement (gboolean served)
{
  return sim_measurement[served ? 1 : 0][0];
}

const char *
nb_protocol_iso9283_measurement (const char *stored, const char *lang)
{
  for (guint i = 0; stored != NULL && i < 2; i++)
    if (g_str_equal (stored, sim_measurement[i][0]))
      return sim_measurement[i][lang_index (lang)];
  return stored ? stored : "";
}

/* --------------------------------------------------------- the plan -- */

static const char *
unit_words (const char *unit, gboolean ru)
{
  static const char *const pairs[][2] = {
    { "mm", "мм" }, { "s", "с" }, { "mm/s", "мм/с" }, { "°", "°" }, { "%", "%" },
    { "mm/N", "мм/Н" }, { "N", "Н" },
  };

  for (guint i = 0; unit != NULL && i < G_N_ELEMENTS (pairs); i++)
    if (g_str_equal (unit, pairs[i][0]))
      return pairs[i][ru];
  return unit ? unit : "";
}

static const char *
load_words (const char *load, gboolean ru)
{
  return words[ru][g_strcmp0 (load, "10%") == 0 ? W_LOAD_10 : W_LOAD_RATED];
}

static gboolean
add_config (NbDocument *doc, gboolean ru, NbCampaign *campaign, const NbClause9283 *clause,
            const NbIso9283PlanEntry *e, GError **error)
{
  NbClause9283Figures f;
  g_autoptr (GPtrArray) trials = NULL;
  g_autofree char *head = NULL, *title = NULL;
  const NbIso9283Trial *first;
  NbTable *t;

  if (!nb_clause_9283_compute (campaign, e, &f, error))
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

    g_string_append_printf (h, ru ? "Конфигурация %s: %.0f %% номинальной скорости, %s; циклов %u из %u"
                                  : "Configuration %s: %.0f %% of the rated velocity, %s; %u of %u cycles",
                            e->config, e->speed_pct, load_words (e->load, ru), f.cycles, e->cycles);
    if (first != NULL)
      g_string_append_printf (h, ru ? "; робот: %s; средство измерений: %s" : "; robot: %s; measurement: %s",
                              first->robot, nb_protocol_iso9283_measurement (first->measurement,
                                                                             ru ? "ru" : "en"));
    if ((ru ? f.note_ru : f.note) != NULL)
      g_string_append_printf (h, "; %s", ru ? f.note_ru : f.note);
    g_string_append_c (h, '.');
    head = g_string_free (h, FALSE);
  }
  nb_document_add_paragraph (doc, head);
  if (!e->in_scope)
    {
      g_autofree char *why = g_strdup_printf (ru ? "Вне области испытаний: %s." : "Out of scope: %s.",
                                              e->reason ? e->reason : "");

      nb_document_add_paragraph (doc, why);
      nb_clause_9283_figures_clear (&f);
      return TRUE;
    }
  if (f.error)
    {
      g_autofree char *why = g_strdup_printf (ru ? "Характеристики не вычислены: %s."
                                                 : "The figures cannot be computed: %s.", f.error);

      nb_document_add_warning (doc, why);
      nb_clause_9283_figures_clear (&f);
      return TRUE;
    }
  if (f.cycles < e->cycles)
    nb_document_add_warning (doc, ru ? "Циклов меньше, чем требует стандарт (6.9)."
                                     : "Fewer cycles than the standard asks for (6.9).");
  title = g_strdup_printf ("%s (%s): %s", ru ? clause->title_ru : clause->title, clause->clause,
                           e->config);
  t = nb_table_new (title);
  nb_table_add_column (t, "figure", ru ? "характеристика" : "figure", NULL, 0);
  nb_table_add_column (t, "unit", ru ? "ед." : "unit", NULL, 0);
  for (guint r = 0; r < f.n_rows; r++)
    nb_table_add_column (t, f.labels[r], f.labels[r], NULL, 4);
  for (guint k = 0; k < clause->n_columns; k++)
    {
      const NbClause9283Column *c = &clause->columns[k];
      guint row = nb_table_add_row (t);

      nb_table_set_text (t, row, 0, ru ? c->title_ru : c->title);
      nb_table_set_text (t, row, 1, unit_words (c->unit, ru));
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
nb_protocol_iso9283_add_plan (NbDocument *doc, const char *lang, NbCampaign *campaign,
                              GError **error)
{
  gboolean ru = lang_index (lang) == 1;
  g_autoptr (GArray) plan = nb_campaign_iso9283_plan_list (campaign, error);
  const NbClause9283 *const *reg;
  guint n_reg;
  NbTable *t;

  if (plan == NULL)
    return FALSE;
  if (plan->len == 0)
    return TRUE;
  nb_document_add_heading (doc, 1, NULL, ru ? "План испытаний по ГОСТ Р ИСО 9283"
                                            : "The ISO 9283 test plan");
  t = nb_table_new (ru ? "Конфигурации плана и их состояние" : "The plan's configurations and their state");
  nb_table_add_column (t, "config", ru ? "конфигурация" : "configuration", NULL, 0);
  nb_table_add_column (t, "clause", ru ? "пункт" : "clause", NULL, 0);
  nb_table_add_column (t, "speed", ru ? "скорость" : "velocity", "%", 0);
  nb_table_add_column (t, "load", ru ? "нагрузка" : "load", NULL, 0);
  nb_table_add_column (t, "cycles", ru ? "циклы" : "cycles", NULL, 0);
  nb_table_add_column (t, "state", ru ? "состояние" : "state", NULL, 0);
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
      nb_table_set_text (t, row, 3, g_strcmp0 (e->load, "10%") == 0 ? "10 %" : (ru ? "номинальная" : "rated"));
      nb_table_set_text (t, row, 4, count);
      nb_table_set_text (t, row, 5, !e->in_scope ? (ru ? "вне области" : "out of scope")
                                    : n == 0 ? (ru ? "не начата" : "not started")
                                    : n < e->cycles ? (ru ? "начата" : "in progress")
                                    : (ru ? "выполнена" : "complete"));
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
            nb_document_add_heading (doc, 1, reg[k]->clause, ru ? reg[k]->title_ru : reg[k]->title);
          headed = TRUE;
          if (!add_config (doc, ru, campaign, reg[k], e, error))
            return FALSE;
        }
    }
  return TRUE;
}
