/* nb-protocol-unc.c — the protocol's measurement uncertainty and conformity (see the header) */
#include "nb-protocol-unc.h"

#include "nb-catalogue.h"
#include "nb-clause.h"
#include "nb-json-writer.h"
#include "nb-unc-campaign.h"
#include "nb-unc-report.h"

#include <math.h>
#include <string.h>

/* The words of core/unc's names, for the catalogues (tables show
 * nb_tr (lang, name)). */
static const char *const unc_words[] G_GNUC_UNUSED = {
  N_ ("gum"), N_ ("monte-carlo"),
};

/* A PDF's name in the protocol's language ("rectangular" is also a route:
 * its own context). */
static const char *
distribution_word (const NbCatalogue *lang, NbUncDistribution d)
{
  switch (d)
    {
    case NB_UNC_NORMAL:      return nb_ptr (lang, "distribution", "normal");
    case NB_UNC_RECTANGULAR: return nb_ptr (lang, "distribution", "rectangular");
    case NB_UNC_TRIANGULAR:  return nb_ptr (lang, "distribution", "triangular");
    case NB_UNC_ARCSINE:     return nb_ptr (lang, "distribution", "arcsine");
    case NB_UNC_STUDENT_T:   return nb_ptr (lang, "distribution", "student-t");
    }
  return nb_unc_distribution_name (d);
}

typedef struct {
  NbTable *table;
  guint row, column;
  const NbUncFigure *fig;
} Mark;

struct _NbProtocolUnc {
  const NbCatalogue *lang;      /* the protocol's language */
  double *limits;               /* per nb_declared_values() entry, NaN: not declared */
  gboolean any_declared;
  NbDecisionRule rule;
  gboolean rule_stated;
  GPtrArray *budgets;           /* owned: every budget taken over */
  NbUncBudget *last;            /* the last result's (in budgets) */
  GArray *marks;                /* of Mark, of the clause under way */
  GPtrArray *clause_budgets;    /* the clause's budgets (in budgets), one per configuration */
  GPtrArray *clause_configs;    /* their configurations' names (owned) */
  GHashTable *names;            /* "budget pointer\x1fkey" → the item's name (nb_protocol_unc_name) */
  GPtrArray *results[11];       /* per clause 5..10 (and any other of the registry ≤ 10):
                                 * each result's JSON object */
  GArray *statements;           /* of NbConformityStatement */
};

NbProtocolUnc *
nb_protocol_unc_new (NbCampaign *campaign, const NbCatalogue *lang, GError **error)
{
  g_autoptr (NbProtocolUnc) u = g_new0 (NbProtocolUnc, 1);
  NbUncSetup setup;
  gboolean enabled;
  guint n;

  u->lang = lang;
  nb_declared_values (&n);
  u->limits = g_new (double, n);
  u->budgets = g_ptr_array_new_with_free_func ((GDestroyNotify) nb_unc_budget_free);
  u->marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  u->clause_budgets = g_ptr_array_new ();
  u->clause_configs = g_ptr_array_new_with_free_func (g_free);
  u->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  u->statements = g_array_new (FALSE, TRUE, sizeof (NbConformityStatement));
  g_array_set_clear_func (u->statements, nb_conformity_statement_clear);
  for (guint i = 0; i < G_N_ELEMENTS (u->results); i++)
    u->results[i] = g_ptr_array_new_with_free_func (g_free);
  if (!nb_unc_setup_from_campaign (campaign, &setup, &enabled, error) ||
      !nb_declared_limits (campaign, u->limits, &u->any_declared, error) ||
      !nb_decision_rule_from_campaign (campaign, &u->rule, &u->rule_stated, error))
    return NULL;
  return g_steal_pointer (&u);
}

void
nb_protocol_unc_free (NbProtocolUnc *u)
{
  if (u == NULL)
    return;
  g_free (u->limits);
  g_ptr_array_unref (u->budgets);
  g_array_unref (u->marks);
  g_array_unref (u->statements);
  g_ptr_array_unref (u->clause_budgets);
  g_ptr_array_unref (u->clause_configs);
  g_hash_table_unref (u->names);
  for (guint i = 0; i < G_N_ELEMENTS (u->results); i++)
    g_ptr_array_unref (u->results[i]);
  g_free (u);
}

void
nb_protocol_unc_result (NbProtocolUnc *u, NbConfigResult *r)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

  nb_json_begin_object (w);
  nb_config_result_json (w, r);
  nb_json_end_object (w);
  if (r->clause < G_N_ELEMENTS (u->results))
    g_ptr_array_add (u->results[r->clause], nb_json_writer_finish (g_steal_pointer (&w)));
  nb_conformity_of_result (r, u->limits, u->rule, u->statements);
  u->last = NULL;
  if (r->unc != NULL)
    {
      u->last = g_steal_pointer (&r->unc);
      g_ptr_array_add (u->budgets, u->last);
      g_ptr_array_add (u->clause_budgets, u->last);
      g_ptr_array_add (u->clause_configs, g_strdup (r->config));
    }
}

void
nb_protocol_unc_mark (NbProtocolUnc *u, NbTable *t, guint row, const char *column_key,
                      const char *key)
{
  const NbUncFigure *fig = u->last != NULL ? nb_unc_budget_figure (u->last, key) : NULL;

  if (fig == NULL)
    return;
  for (guint c = 0; c < nb_table_n_columns (t); c++)
    if (g_strcmp0 (nb_table_column (t, c)->key, column_key) == 0)
      {
        Mark m = { t, row, c, fig };

        g_array_append_val (u->marks, m);
        return;
      }
}

static char *
name_key (const NbUncBudget *b, const char *key)
{
  return g_strdup_printf ("%p\x1f%s", (const void *) b, key);
}

void
nb_protocol_unc_name (NbProtocolUnc *u, const char *key, const char *name)
{
  if (u->last == NULL || name == NULL || nb_unc_budget_figure (u->last, key) == NULL)
    return;
  g_hash_table_replace (u->names, name_key (u->last, key), g_strdup (name));
}

static int
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* A U column right of every marked column of t, each cell U to two
 * significant digits at its own decimals. */
static void
insert_u_columns (NbProtocolUnc *u, NbTable *t)
{
  g_autoptr (GArray) cols = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < u->marks->len; i++)
    {
      const Mark *m = &g_array_index (u->marks, Mark, i);
      gboolean seen = FALSE;

      if (m->table != t)
        continue;
      for (guint k = 0; k < cols->len && !seen; k++)
        seen = g_array_index (cols, guint, k) == m->column;
      if (!seen)
        g_array_append_val (cols, m->column);
    }
  g_array_sort (cols, compare_uint);
  /* Right to left, so the columns still to do keep their index. */
  for (guint k = cols->len; k-- > 0;)
    {
      guint c = g_array_index (cols, guint, k);
      const NbColumn *fig = nb_table_column (t, c);
      g_autofree char *key = g_strdup_printf ("%s_U", fig->key);

      nb_table_insert_column (t, c + 1, key, "U", fig->unit, fig->decimals);
    }
  for (guint i = 0; i < u->marks->len; i++)
    {
      const Mark *m = &g_array_index (u->marks, Mark, i);
      guint before = 0;
      NbUncRounded r;

      if (m->table != t)
        continue;
      for (guint k = 0; k < cols->len; k++)
        before += g_array_index (cols, guint, k) < m->column;
      nb_unc_round_figure (m->fig, &r);
      nb_table_set_number_decimals (t, m->row, m->column + before + 1, r.U, r.decimals);
    }
}

/* v at two significant digits to the nearest, as text. */
static char *
two_digits (double v)
{
  int dec = 0;
  char buf[G_ASCII_DTOSTR_BUF_SIZE], format[16];

  if (!(fabs (v) > 0.0))
    return g_strdup ("0");
  nb_unc_round_U (fabs (v), &dec);
  g_snprintf (format, sizeof format, "%%.%df", MAX (dec, 0));
  return g_strdup (g_ascii_formatd (buf, sizeof buf, format, nb_unc_round_value (v, dec)));
}

/* Two significant digits to the nearest (a u, a sensitivity, a
 * contribution: what they are, not a promise of coverage as U is). */
static void
set_two_digits (NbTable *t, guint row, guint column, double v)
{
  int dec = 0;

  if (!isfinite (v))
    return;
  if (v == 0.0)
    {
      nb_table_set_number_decimals (t, row, column, 0.0, 0);
      return;
    }
  nb_unc_round_U (fabs (v), &dec);
  nb_table_set_number_decimals (t, row, column, nb_unc_round_value (v, dec), dec);
}

/* The figure's name in the protocol: its column title ("Position accuracy
 * Ap"; clause 10's figures are in a table of its own), with the item of an
 * indexed one: the name the report gave it (clause 6's obstacle), else its
 * number ("dm_mm[0]": map 1); else its key. */
static char *
figure_name (const NbCatalogue *lang, guint clause, const char *key, const char *item)
{
  const NbClause *c = nb_clause_lookup (clause);
  const char *bracket = strchr (key, '[');
  g_autofree char *base = bracket ? g_strndup (key, bracket - key) : g_strdup (key);
  const NbClauseColumn *col = c != NULL ? nb_clause_column (c, base) : NULL;
  const char *title = col != NULL ? nb_tr (lang, col->title)
                      : g_str_equal (base, "dm_mm") ? nb_tr (lang, "Deviation Dm")
                      : g_str_equal (base, "accuracy_mm") ? nb_tr (lang, "Mapping accuracy (max Dm)")
                      : NULL;
  guint index = bracket ? (guint) g_ascii_strtoull (bracket + 1, NULL, 10) : 0;

  if (title == NULL)
    return g_strdup (key);
  if (bracket == NULL)
    return g_strdup (title);
  if (item != NULL)
    return g_strdup_printf ("%s, %s", title, item);
  return g_strdup_printf (g_str_equal (base, "dm_mm") ? nb_tr (lang, "%s, map %u")
                                                      : nb_tr (lang, "%s, obstacle %u"),
                          title, index + 1);
}

/* A sensitivity or contribution the central difference left at rounding
 * noise (an offset that cancels in a standard deviation: 10⁻¹⁴) is 0. */
static double
denoise (double v, double scale)
{
  return fabs (v) < 1e-9 * MAX (scale, 1.0) ? 0.0 : v;
}

/* A budget line's source in the protocol's language: a campaign field's
 * name stays as it is, the words around it are translated; a Type A line
 * says its n. */
static char *
row_source (const NbCatalogue *lang, const NbUncRow *in)
{
  /* core/unc's Type A lines have this source with their n (nb-unc-iso.h). */
  g_autofree char *source = in->n_trials > 0
                              ? g_strdup_printf (nb_tr (lang, "Type A, n = %u trials"), in->n_trials)
                              : g_strdup (nb_tr (lang, in->source));

  /* A line of the model the campaign gives no value for. */
  if (!(in->u > 0.0))
    return g_strdup_printf (nb_tr (lang, "%s (not stated: 0)"), source);
  return g_steal_pointer (&source);
}

/* x₁, x₂, …: the input quantities' symbols in the budgets (JCGM 100 4.1). */
static char *
input_symbol (guint i)
{
  static const char *const digit[] = { "₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉" };
  g_autofree char *n = g_strdup_printf ("%u", i);
  GString *out = g_string_new ("x");

  for (const char *p = n; *p; p++)
    g_string_append (out, digit[*p - '0']);
  return g_string_free (out, FALSE);
}

/* The clause's input quantities, each once: what it is, its source, unit
 * and PDF are the same in every configuration (a Type A line whose n
 * differs is a line of its own).  Returns the keys, in order; a budget
 * row's index in it is its symbol's number − 1. */
static char *
input_key (const NbCatalogue *lang, const NbUncRow *in)
{
  g_autofree char *source = row_source (lang, in);

  return g_strdup_printf ("%s\x1f%s\x1f%s\x1f%d", in->quantity, source, in->unit ? in->unit : "",
                          (int) in->dist);
}

static guint
input_index (GPtrArray *keys, const char *key)
{
  guint i;

  if (g_ptr_array_find_with_equal_func (keys, key, g_str_equal, &i))
    return i;
  g_ptr_array_add (keys, g_strdup (key));
  return keys->len - 1;
}

static void
inputs_table (const NbCatalogue *lang, NbDocument *doc, guint clause, GPtrArray *budgets,
              GPtrArray *keys)
{
  g_autofree char *title = g_strdup_printf (nb_tr (lang, "Input quantities of the uncertainty budgets — clause %u"),
                                            clause);
  NbTable *t = nb_table_new (title);

  nb_table_set_budget_clause (t, clause);
  nb_table_add_column (t, "symbol", nb_tr (lang, "Symbol"), NULL, 0);
  nb_table_add_column (t, "quantity", nb_tr (lang, "Input quantity"), NULL, 0);
  nb_table_add_column (t, "source", nb_tr (lang, "Source"), NULL, 0);
  nb_table_add_column (t, "unit", nb_tr (lang, "Unit"), NULL, 0);
  nb_table_add_column (t, "distribution", nb_tr (lang, "Distribution"), NULL, 0);
  for (guint b = 0; b < budgets->len; b++)
    {
      const NbUncBudget *budget = g_ptr_array_index (budgets, b);

      for (guint i = 0; i < budget->rows->len; i++)
        {
          const NbUncRow *in = &g_array_index (budget->rows, NbUncRow, i);
          g_autofree char *key = input_key (lang, in);
          guint before = keys->len, k = input_index (keys, key);

          if (keys->len > before)
            {
              g_autofree char *symbol = input_symbol (k + 1);
              g_autofree char *source = row_source (lang, in);
              guint row = nb_table_add_row (t);

              nb_table_set_text (t, row, 0, symbol);
              nb_table_set_text (t, row, 1, nb_tr (lang, in->quantity));
              nb_table_set_text (t, row, 2, source);
              nb_table_set_text (t, row, 3, in->unit ? nb_tr (lang, in->unit) : "");
              nb_table_set_text (t, row, 4, distribution_word (lang, in->dist));
            }
        }
    }
  nb_table_add_note (t, nb_tr (lang, "Each input quantity with the campaign field its value and "
                          "standard uncertainty come from, or Type A from the trials, and the "
                          "PDF assigned to it (JCGM 101 6.4). The budgets below give, per "
                          "configuration, each one's value, standard uncertainty u, sensitivity "
                          "coefficient c and contribution |c|·u."));
  nb_document_add_table (doc, t);
}

/* One configuration's budget: per figure its inputs by symbol, then u_c;
 * what is stated of each figure (U, method, interval) in the notes. */
static void
budget_table (const NbCatalogue *lang, NbDocument *doc, guint clause, const char *config,
              const NbUncBudget *b, GPtrArray *keys, GHashTable *names)
{
  g_autofree char *title = g_strdup_printf (nb_tr (lang, "Uncertainty budget — clause %u: %s"), clause,
                                            config);
  NbTable *t = nb_table_new (title);

  nb_table_set_budget_clause (t, clause);
  nb_table_add_column (t, "figure", nb_tr (lang, "Characteristic"), NULL, 0);
  nb_table_add_column (t, "symbol", nb_tr (lang, "Input quantity"), NULL, 0);
  nb_table_add_column (t, "value", nb_tr (lang, "Value"), NULL, 3);
  nb_table_add_column (t, "unit", nb_tr (lang, "Unit"), NULL, 0);
  nb_table_add_column (t, "u", nb_tr (lang, "Standard uncertainty u"), NULL, 2);
  nb_table_add_column (t, "c", nb_tr (lang, "Sensitivity c"), NULL, 2);
  nb_table_add_column (t, "contribution", nb_tr (lang, "Contribution |c|·u"), NULL, 2);
  for (guint f = 0; f < b->figures->len; f++)
    {
      const NbUncEntry *e = &g_array_index (b->figures, NbUncEntry, f);
      g_autofree char *item_key = name_key (b, e->key);
      g_autofree char *name = figure_name (lang, clause, e->key,
                                           g_hash_table_lookup (names, item_key));
      g_autofree char *stated = NULL;
      NbUncRounded r;
      gboolean first = TRUE;
      guint row;

      for (guint i = 0; i < b->rows->len; i++)
        {
          const NbUncRow *in = &g_array_index (b->rows, NbUncRow, i);
          g_autofree char *key = NULL, *symbol = NULL;

          if (g_strcmp0 (in->figure, e->key) != 0)
            continue;
          key = input_key (lang, in);
          symbol = input_symbol (input_index (keys, key) + 1);
          row = nb_table_add_row (t);
          /* The figure once, on its first line. */
          nb_table_set_text (t, row, 0, first ? name : "");
          first = FALSE;
          nb_table_set_text (t, row, 1, symbol);
          /* Several inputs on one line (the d_i of 30 trials) have no one value. */
          if (isfinite (in->value))
            nb_table_set_number (t, row, 2, in->value);
          else
            nb_table_set_text (t, row, 2, "");
          nb_table_set_text (t, row, 3, in->unit ? nb_tr (lang, in->unit) : "");
          set_two_digits (t, row, 4, in->u);
          set_two_digits (t, row, 5, denoise (in->c, 1.0));
          set_two_digits (t, row, 6, denoise (in->contribution, e->fig.u_c));
        }
      /* The figure's line: its value and u_c (GUM 5.1.2). */
      nb_unc_round_figure (&e->fig, &r);
      row = nb_table_add_row (t);
      nb_table_set_text (t, row, 0, first ? name : "");
      nb_table_set_text (t, row, 1, "u_c");
      nb_table_set_number_decimals (t, row, 2, r.value, r.decimals);
      nb_table_set_text (t, row, 3, "");
      set_two_digits (t, row, 4, e->fig.u_c);
      nb_table_set_text (t, row, 5, "");
      set_two_digits (t, row, 6, e->fig.u_c);
      /* What the protocol states of it. */
      stated = g_strdup_printf (nb_tr (lang, "%s: expanded uncertainty U = %.*f (k = 2), coverage "
                                        "interval [%.*f, %.*f]; %s."), name, MAX (r.decimals, 0),
                                r.U, MAX (r.decimals, 0), r.lo, MAX (r.decimals, 0), r.hi,
                                e->fig.validated ? nb_tr (lang, "GUM validated by Monte Carlo (JCGM 101 8)")
                                                 : nb_tr (lang, "Monte Carlo (JCGM 101): GUM not validated"));
      /* #17: the finite number of trials apart from the measurement. */
      if (e->fig.u_sampling > 0.0)
        {
          g_autofree char *uc = two_digits (e->fig.u_c), *um = two_digits (e->fig.u_measurement);
          g_autofree char *us = two_digits (e->fig.u_sampling);
          g_autofree char *parts = g_strdup_printf (
            nb_tr (lang, "Of u_c = %s: from the measurement %s, from the finite number of "
                         "trials (Type A) %s."), uc, um, us);
          g_autofree char *both = g_strdup_printf ("%s %s", stated, parts);

          nb_table_add_note (t, both);
        }
      else
        nb_table_add_note (t, stated);
    }
  nb_document_add_table (doc, t);
}

void
nb_protocol_unc_clause (NbProtocolUnc *u, NbDocument *doc, guint clause)
{
  g_autoptr (GPtrArray) tables = g_ptr_array_new ();

  for (guint i = 0; i < u->marks->len; i++)
    {
      NbTable *t = g_array_index (u->marks, Mark, i).table;

      if (!g_ptr_array_find (tables, t, NULL))
        g_ptr_array_add (tables, t);
    }
  for (guint i = 0; i < tables->len; i++)
    insert_u_columns (u, g_ptr_array_index (tables, i));
  g_array_set_size (u->marks, 0);
  /* #17: the inputs once, then every configuration's budget. */
  if (u->clause_budgets->len > 0)
    {
      g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);

      inputs_table (u->lang, doc, clause, u->clause_budgets, keys);
      for (guint i = 0; i < u->clause_budgets->len; i++)
        budget_table (u->lang, doc, clause, g_ptr_array_index (u->clause_configs, i),
                      g_ptr_array_index (u->clause_budgets, i), keys, u->names);
    }
  g_ptr_array_set_size (u->clause_budgets, 0);
  g_ptr_array_set_size (u->clause_configs, 0);
  u->last = NULL;
}

static const char *
decision_text (const NbCatalogue *lang, const NbConformityStatement *s)
{
  if (!s->decided)
    return nb_tr (lang, "no statement: U not stated");
  switch (s->decision)
    {
    case NB_CONFORMS:         return nb_tr (lang, "conforms");
    case NB_DOES_NOT_CONFORM: return nb_tr (lang, "does not conform");
    case NB_INCONCLUSIVE:     return nb_tr (lang, "inconclusive");
    }
  return "";
}

static void
conformity_section (NbProtocolUnc *u, NbDocument *doc)
{
  const NbCatalogue *lang = u->lang;
  NbTable *t;
  g_autofree char *rule = NULL;

  if (!u->any_declared)
    return;
  nb_document_add_heading (doc, 1, NULL, nb_tr (lang, "Statements of conformity"));
  rule = g_strdup_printf (
    "%s%s", u->rule == NB_DECISION_SIMPLE
              ? nb_tr (lang, "Decision rule: simple acceptance (ILAC G8:2019 4.2.1, guard band w = 0): the "
                  "figure against the declared value.")
              : nb_tr (lang, "Decision rule: guarded acceptance with w = U (ILAC G8:2019 4.2.2): conforms "
                  "when the whole interval is within the declared value, does not when it is "
                  "wholly beyond it, inconclusive otherwise."),
    u->rule_stated ? "" : nb_tr (lang, " (conformity.decision_rule is not set: simple acceptance.)"));
  nb_document_add_paragraph (doc, rule);
  t = nb_table_new (nb_tr (lang, "Conformity with the declared values"));
  nb_table_add_column (t, "figure", nb_tr (lang, "Characteristic"), NULL, 0);
  nb_table_add_column (t, "config", nb_tr (lang, "Configuration"), NULL, 0);
  nb_table_add_column (t, "declared", nb_tr (lang, "Declared ≤"), NULL, 3);
  nb_table_add_column (t, "value", nb_tr (lang, "Value"), NULL, 3);
  nb_table_add_column (t, "U", "U", NULL, 2);
  nb_table_add_column (t, "interval", nb_tr (lang, "Interval"), NULL, 0);
  nb_table_add_column (t, "decision", nb_tr (lang, "Statement"), NULL, 0);
  nb_table_add_column (t, "rule", nb_tr (lang, "Rule"), NULL, 0);
  for (guint i = 0; i < u->statements->len; i++)
    {
      const NbConformityStatement *s = &g_array_index (u->statements, NbConformityStatement, i);
      g_autofree char *figure = s->declared->unit
        ? g_strdup_printf ("%s, %s", s->declared->symbol, nb_tr (lang, s->declared->unit))
        : g_strdup (s->declared->symbol);
      guint row = nb_table_add_row (t);

      nb_table_set_text (t, row, 0, figure);
      nb_table_set_text (t, row, 1, s->config);
      nb_table_set_number (t, row, 2, s->limit);
      if (s->have_unc)
        {
          g_autofree char *interval = g_strdup_printf ("[%.*f, %.*f]", MAX (s->rounded.decimals, 0),
                                                       s->rounded.lo, MAX (s->rounded.decimals, 0),
                                                       s->rounded.hi);

          nb_table_set_number_decimals (t, row, 3, s->rounded.value, s->rounded.decimals);
          nb_table_set_number_decimals (t, row, 4, s->rounded.U, s->rounded.decimals);
          nb_table_set_text (t, row, 5, interval);
        }
      else
        nb_table_set_number (t, row, 3, s->value);
      nb_table_set_text (t, row, 6, decision_text (u->lang, s));
      if (!s->decided || s->decision != NB_CONFORMS)
        nb_table_flag_cell (t, row, 6);
      nb_table_set_text (t, row, 7, nb_decision_rule_name (u->rule));
    }
  if (u->statements->len == 0)
    nb_table_add_note (t, nb_tr (lang, "No figure of a declared value was computed."));
  nb_document_add_table (doc, t);
}

void
nb_protocol_unc_finish (NbProtocolUnc *u, NbDocument *doc)
{
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  guint n;
  const NbClause *const *registry = nb_clause_registry (&n);

  conformity_section (u, doc);
  /* The results as `campaign results --json` writes them. */
  nb_json_begin_object (w);
  nb_json_key (w, "clauses");
  nb_json_begin_object (w);
  for (guint k = 0; k < n; k++)
    {
      char key[16];
      guint c = registry[k]->number;

      g_snprintf (key, sizeof key, "%u", c);
      nb_json_key (w, key);
      nb_json_begin_array (w);
      for (guint i = 0; c < G_N_ELEMENTS (u->results) && i < u->results[c]->len; i++)
        nb_json_raw (w, g_ptr_array_index (u->results[c], i));
      nb_json_end_array (w);
    }
  nb_json_end_object (w);
  nb_json_end_object (w);
  nb_document_set_results_json (doc, nb_json_writer_finish (g_steal_pointer (&w)));
}
