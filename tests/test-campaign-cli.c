/* navbench-cli campaign and export, end to end through the binary in
 * NAVBENCH_CLI: the figures `campaign results` computes from imported trials
 * are those `compute` gives on the same files, and on the files `export`
 * writes back — for every clause, compared value by value. */
#include "nb-campaign.h"
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-tmp.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <string.h>

static char *tmpdir;

typedef NbTestRun Run;

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, nb_test_run_clear)

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "campaign", name, NULL);
}

/* Runs navbench-cli with the NULL-terminated arguments. */
static Run
cli (const char *first, ...)
{
  va_list ap;
  Run run;

  va_start (ap, first);
  run = nb_test_cli_spawnv (NULL, first, ap);
  va_end (ap);
  return run;
}

static void
assert_ok (const Run *r, const char *what)
{
  if (r->status != 0)
    g_error ("%s: exit %d: %s", what, r->status, r->err);
}

/* The field as `campaign info --json` shows it (NULL: not set). */
static char *
field_of (const char *db, const char *key)
{
  g_auto (Run) r = cli ("campaign", "info", "--db", db, "--json", NULL);
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonObject *fields;
  JsonNode *v;

  assert_ok (&r, "campaign info --json");
  g_assert_true (json_parser_load_from_data (p, r.out, -1, NULL));
  fields = json_object_get_object_member (json_node_get_object (json_parser_get_root (p)),
                                          "fields");
  g_assert_nonnull (fields);
  v = json_object_get_member (fields, key);
  return v == NULL || JSON_NODE_HOLDS_NULL (v) ? NULL : g_strdup (json_node_get_string (v));
}

static void
assert_field (const char *db, const char *key, const char *want)
{
  g_autofree char *got = field_of (db, key);

  g_assert_cmpstr (got, ==, want);
}

/* A field's value written into the file as an older navbench that did not
 * check it at set could have. */
static void
store_raw_field (const char *db, const char *key, const char *value)
{
  sqlite3 *sql = NULL;
  sqlite3_stmt *st = NULL;

  g_assert_cmpint (sqlite3_open (db, &sql), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (sql, "INSERT INTO field (key, value) VALUES (?1, ?2) "
                                            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                       -1, &st, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (st, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_text (st, 2, value, -1, SQLITE_STATIC);
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_DONE);
  sqlite3_finalize (st);
  sqlite3_close (sql);
}

static JsonNode *
parse (const char *text)
{
  g_autoptr (GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}

static char *
db_path (const char *name)
{
  char *path = g_build_filename (tmpdir, name, NULL);

  g_unlink (path);
  return path;
}

/* Every member of expected is in actual with an equal value (doubles to
 * the bit: both sides print the shortest round-trip form). */
static void
assert_members_equal (JsonObject *expected, JsonObject *actual, const char *what)
{
  g_autoptr (GList) members = json_object_get_members (expected);

  g_assert_cmpuint (g_list_length (members), >, 0);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *a = json_object_get_member (actual, l->data);
      JsonNode *e = json_object_get_member (expected, l->data);

      if (a == NULL || !json_node_equal (a, e))
        {
          g_autofree char *as = a ? json_to_string (a, FALSE) : g_strdup ("(missing)");
          g_autofree char *es = json_to_string (e, FALSE);

          g_error ("%s: '%s' is %s, expected %s", what, (char *) l->data, as, es);
        }
    }
}

/* The object of config NAME in results' clause array. */
static JsonObject *
result_of (JsonNode *results, const char *clause, const char *name)
{
  JsonObject *clauses = json_object_get_object_member (json_node_get_object (results), "clauses");
  JsonArray *list = json_object_get_array_member (clauses, clause);

  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *o = json_array_get_object_element (list, i);

      if (g_str_equal (json_object_get_string_member (o, "config"), name))
        return o;
    }
  g_error ("clause %s has no result for '%s'", clause, name);
}

typedef struct {
  const char *clause;           /* results key */
  const char *compute;          /* compute subcommand */
  const char *config;           /* NULL: the file names its configs (7, 9) */
  const char *input;
  const char *extra[4];         /* options for import and compute */
} Case;

static const Case cases[] = {
  { "5", "pose", "P0→P1 30 kg", "pose.csv", { "--command", "5000,0,0" } },
  { "6", "detection", "two obstacles", "detection.csv", { NULL } },
  { "7", "avoidance", NULL, "avoidance.csv", { NULL } },
  { "8", "path", "straight, 5 m", "path.csv", { "--from", "0,0", "--to", "5000,0" } },
  { "9", "passage", NULL, "passage.csv", { NULL } },
  { "10", "mapping", "arena", "map.csv", { NULL } },
};

static GPtrArray *
args_new (const char *first, ...)
{
  GPtrArray *a = g_ptr_array_new_with_free_func (g_free);
  va_list ap;

  va_start (ap, first);
  for (const char *s = first; s != NULL; s = va_arg (ap, const char *))
    g_ptr_array_add (a, g_strdup (s));
  va_end (ap);
  return a;
}

static Run
cli_argv (GPtrArray *args)
{
  const char *v[40] = { NULL };

  g_assert_cmpuint (args->len, <, G_N_ELEMENTS (v) - 1);
  for (guint i = 0; i < args->len; i++)
    v[i] = g_ptr_array_index (args, i);
  return cli (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12],
              v[13], v[14], v[15], v[16], v[17], v[18], v[19], v[20], v[21], v[22], v[23], v[24],
              v[25], v[26], v[27], v[28], v[29], v[30], v[31], v[32], v[33], v[34], v[35], v[36],
              v[37], v[38], NULL);
}

/* compute <clause> on input (or the export), as JSON; unc: more options
 * (NULL-terminated) or NULL. */
static JsonNode *
compute_json_with (const Case *c, const char *input, const char *truth, const char *const *unc)
{
  g_autoptr (GPtrArray) a = args_new ("compute", c->compute, "--json", NULL);
  g_auto (Run) r;

  if (g_str_equal (c->clause, "10"))
    {
      g_ptr_array_add (a, g_strdup ("--truth"));
      g_ptr_array_add (a, g_strdup (truth));
      g_ptr_array_add (a, g_strdup ("--map"));
    }
  else
    g_ptr_array_add (a, g_strdup ("--input"));
  g_ptr_array_add (a, g_strdup (input));
  for (guint i = 0; i < G_N_ELEMENTS (c->extra) && c->extra[i]; i++)
    g_ptr_array_add (a, g_strdup (c->extra[i]));
  for (guint i = 0; unc != NULL && unc[i] != NULL; i++)
    g_ptr_array_add (a, g_strdup (unc[i]));
  r = cli_argv (a);
  assert_ok (&r, input);
  return parse (r.out);
}

static JsonNode *
compute_json (const Case *c, const char *input, const char *truth)
{
  return compute_json_with (c, input, truth, NULL);
}

/* compute's figures against results': one object, or (7, 9) one per config. */
static void
assert_same_figures (const Case *c, JsonNode *computed, JsonNode *results, const char *what)
{
  JsonObject *co = json_node_get_object (computed);

  if (c->config != NULL)
    {
      assert_members_equal (co, result_of (results, c->clause, c->config), what);
      return;
    }
  {
    JsonArray *configs = json_object_get_array_member (co, "configs");

    g_assert_cmpuint (json_array_get_length (configs), ==, 2);
    for (guint i = 0; i < json_array_get_length (configs); i++)
      {
        JsonObject *one = json_array_get_object_element (configs, i);

        assert_members_equal (one, result_of (results, c->clause,
                                              json_object_get_string_member (one, "config")),
                              what);
      }
  }
}

static void
test_import_results_export (void)
{
  g_autofree char *db = db_path ("cli.nbc");
  g_autofree char *truth = data_path ("truth.csv");
  g_autoptr (JsonNode) results = NULL;
  g_auto (Run) r;

  r = cli ("campaign", "new", "--db", db, "--name", "CLI round trip", "--robot-width-mm", "620",
           NULL);
  assert_ok (&r, "campaign new");
  nb_test_run_clear (&r);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autofree char *input = data_path (c->input);
      g_autoptr (GPtrArray) a = args_new ("campaign", "import", "--db", db, "--clause", c->clause,
                                          "--input", input, NULL);

      if (c->config)
        {
          g_ptr_array_add (a, g_strdup ("--config"));
          g_ptr_array_add (a, g_strdup (c->config));
        }
      if (g_str_equal (c->clause, "10"))
        {
          g_ptr_array_add (a, g_strdup ("--truth"));
          g_ptr_array_add (a, g_strdup (truth));
        }
      for (guint k = 0; k < G_N_ELEMENTS (c->extra) && c->extra[k]; k++)
        g_ptr_array_add (a, g_strdup (c->extra[k]));
      r = cli_argv (a);
      assert_ok (&r, c->input);
      nb_test_run_clear (&r);
    }

  r = cli ("campaign", "results", "--db", db, "--json", NULL);
  assert_ok (&r, "campaign results");
  results = parse (r.out);
  nb_test_run_clear (&r);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autofree char *input = data_path (c->input);
      g_autofree char *exported = g_build_filename (tmpdir, "export.csv", NULL);
      g_autofree char *exported_truth = g_build_filename (tmpdir, "export-truth.csv", NULL);
      g_autoptr (JsonNode) direct = compute_json (c, input, truth);
      g_autoptr (JsonNode) again = NULL;
      g_autoptr (GPtrArray) a = args_new ("export", "--db", db, "--trials", c->clause,
                                          "--format", "csv", "--output", exported, NULL);

      /* The campaign's figures are compute's on the measured files... */
      assert_same_figures (c, direct, results, c->input);

      /* ...and compute's on what export writes back. */
      if (c->config)
        {
          g_ptr_array_add (a, g_strdup ("--config"));
          g_ptr_array_add (a, g_strdup (c->config));
        }
      r = cli_argv (a);
      assert_ok (&r, "export");
      nb_test_run_clear (&r);
      if (g_str_equal (c->clause, "10"))
        {
          r = cli ("export", "--db", db, "--trials", "10", "--truth", "--output", exported_truth,
                   NULL);
          assert_ok (&r, "export --truth");
          nb_test_run_clear (&r);
        }
      again = compute_json (c, exported, exported_truth);
      assert_same_figures (c, again, results, "the export");
    }

  /* The results are stored in the campaign too. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (NbCampaign) campaign = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, &error);
    g_autofree char *stored = NULL;
    g_autoptr (JsonNode) node = NULL;

    g_assert_no_error (error);
    stored = nb_campaign_get_result (campaign, 5, &error);
    g_assert_nonnull (stored);
    node = parse (stored);
    assert_members_equal (json_array_get_object_element (json_node_get_array (node), 0),
                          result_of (results, "5", "P0→P1 30 kg"), "stored clause 5");
  }

  /* Export to stdout: a header, then a row per stored pose. */
  r = cli ("export", "--db", db, "--trials", "5", "--format", "csv", NULL);
  assert_ok (&r, "export to stdout");
  g_assert_true (g_str_has_prefix (r.out, "\"config\",\"command_x_mm\""));
  {
    g_auto (GStrv) lines = g_strsplit (r.out, "\n", -1);

    g_assert_cmpuint (g_strv_length (lines), ==, 1 + 30 + 1);
    g_assert_true (g_str_has_prefix (lines[1], "\"P0→P1 30 kg\",5000,0,0,1,"));
  }
}

/* Imports every case into a new campaign db made with the fields given
 * (NULL-terminated "key=value"s). */
static void
import_cases (const char *db, const char *const *fields, const Case *list, guint n_cases)
{
  g_autofree char *truth = data_path ("truth.csv");
  g_autoptr (GPtrArray) n = args_new ("campaign", "new", "--db", db, "--name", "U",
                                      "--robot-width-mm", "620", NULL);
  g_auto (Run) r;

  for (guint i = 0; fields[i] != NULL; i++)
    g_ptr_array_add (n, g_strdup (fields[i]));
  r = cli_argv (n);
  assert_ok (&r, "campaign new");
  nb_test_run_clear (&r);
  for (guint i = 0; i < n_cases; i++)
    {
      const Case *c = &list[i];
      g_autofree char *input = data_path (c->input);
      g_autoptr (GPtrArray) a = args_new ("campaign", "import", "--db", db, "--clause", c->clause,
                                          "--input", input, NULL);

      if (c->config)
        {
          g_ptr_array_add (a, g_strdup ("--config"));
          g_ptr_array_add (a, g_strdup (c->config));
        }
      if (g_str_equal (c->clause, "10"))
        {
          g_ptr_array_add (a, g_strdup ("--truth"));
          g_ptr_array_add (a, g_strdup (truth));
        }
      for (guint k = 0; k < G_N_ELEMENTS (c->extra) && c->extra[k]; k++)
        g_ptr_array_add (a, g_strdup (c->extra[k]));
      r = cli_argv (a);
      assert_ok (&r, c->input);
      nb_test_run_clear (&r);
    }
}

/* #17: the campaign's stated inputs (fields) give `campaign results --json`
 * and `report --format json` the "uncertainty" objects `compute --json`
 * gives with the same inputs as options, member for member, for every
 * clause — and the mapping accuracy's budget takes the figure's three maps. */
/* The stated inputs of the uncertainty tests (every one the budgets read). */
static const char *const unc_fields[] = {
  "instrument.accuracy_mm=0.015", "instrument.accuracy_ppm=6", "instrument.accuracy_k=2",
  "instrument.range_m=8", "instrument.angular_accuracy_deg=0.01", "instrument.random_mm=0.05",
  "instrument.sample_rate_hz=100", "instrument.sync_s=0.002", "robot.rated_speed_mm_s=1000",
  "instrument.target_centring_mm=0.02", "rig.placement_mm=2", "mapping.resolution_mm=50", NULL
};

static void
test_uncertainty_results (void)
{
  const char *const *fields = unc_fields;
  static const char *const options[] = {
    "--accuracy", "15 µm + 6 µm/m (k=2)", "--range-m", "8", "--accuracy-deg", "0.01",
    "--random-mm", "0.05", "--sample-rate-hz", "100", "--sync-s", "0.002", "--speed-mm-s", "1000",
    "--target-mm", "0.02", "--placement-mm", "2", "--resolution-mm", "50", NULL
  };
  g_autofree char *db = db_path ("unc.nbc");
  g_autofree char *truth = data_path ("truth.csv");
  g_autoptr (JsonNode) results = NULL, report = NULL;
  g_auto (Run) r;

  /* The cases, with a fourth map after the three of the figure. */
  Case unc_cases[G_N_ELEMENTS (cases)];

  memcpy (unc_cases, cases, sizeof unc_cases);
  unc_cases[5].input = "map4.csv";
  import_cases (db, fields, unc_cases, G_N_ELEMENTS (unc_cases));
  r = cli ("campaign", "results", "--db", db, "--json", NULL);
  assert_ok (&r, "campaign results");
  results = parse (r.out);
  nb_test_run_clear (&r);

  for (guint i = 0; i < G_N_ELEMENTS (unc_cases); i++)
    {
      const Case *c = &unc_cases[i];
      g_autofree char *input = data_path (c->input);
      g_autoptr (JsonNode) direct = compute_json_with (c, input, truth, options);
      JsonObject *one = json_node_get_object (direct);

      /* Every clause states its figures' uncertainty... */
      if (c->config == NULL)
        one = json_array_get_object_element (json_object_get_array_member (one, "configs"), 0);
      g_assert_true (json_object_has_member (one, "uncertainty"));
      /* ...and the campaign's are compute's, member for member. */
      assert_same_figures (c, direct, results, c->input);
    }

  /* Clause 10: map4.csv has four maps, the fourth the worst; the figure is
   * the largest Dm of the first three (10.3), and its budget's interval is
   * about that figure, not about the fourth map's Dm. */
  {
    JsonObject *m = result_of (results, "10", "arena");
    JsonObject *u = json_object_get_object_member (m, "uncertainty");
    JsonArray *dm = json_object_get_array_member (m, "trials");
    JsonArray *interval = json_object_get_array_member (
      json_object_get_object_member (u, "accuracy_mm"), "interval");
    double acc = json_object_get_double_member (m, "accuracy_mm"), max3 = 0.0;

    g_assert_cmpuint (json_array_get_length (dm), ==, 4);
    g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (dm, 3),
                                                      "dm_mm"), >, acc + 50.0);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (u, "dm_mm")), ==,
                      json_array_get_length (dm));
    for (guint k = 0; k < 3; k++)
      max3 = MAX (max3, json_object_get_double_member (json_array_get_object_element (dm, k),
                                                       "dm_mm"));
    g_assert_cmpfloat (acc, ==, max3);
    g_assert_cmpfloat (json_array_get_double_element (interval, 0), <=, acc);
    g_assert_cmpfloat (json_array_get_double_element (interval, 1), >=, acc);
  }

  /* report --format json carries the same results. */
  r = cli ("report", "--db", db, "--format", "json", "-o", "-", NULL);
  assert_ok (&r, "report --format json");
  report = parse (r.out);
  {
    JsonNode *rr = json_object_get_member (json_node_get_object (report), "results");

    g_assert_nonnull (rr);
    if (!json_node_equal (rr, results))
      g_error ("report's results differ from campaign results:\n%s\n%s",
               json_to_string (rr, TRUE), json_to_string (results, TRUE));
  }
  nb_test_run_clear (&r);

  /* A coverage factor that is none: `campaign set` refuses it (exit 2
   * naming the field, nothing on stdout) and stores nothing, so the
   * results are still those above. */
  r = cli ("campaign", "set", "--db", db, "instrument.accuracy_k=about two", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "instrument.accuracy_k: 'about two' is neither a coverage "
                                   "factor > 0 nor 'rectangular'"));
  nb_test_run_clear (&r);
  assert_field (db, "instrument.accuracy_k", "2");
  r = cli ("campaign", "results", "--db", db, "--json", NULL);
  assert_ok (&r, "results after a refused set");
  {
    g_autoptr (JsonNode) again = parse (r.out);

    g_assert_true (json_node_equal (again, results));
  }
  nb_test_run_clear (&r);
  /* One stored before `set` checked it (an older navbench) is refused
   * where it is read, naming the file and the field. */
  store_raw_field (db, "instrument.accuracy_k", "about two");
  r = cli ("campaign", "results", "--db", db, "--json", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "field instrument.accuracy_k: 'about two'"));
  g_assert_nonnull (strstr (r.err, db));
}

/* The table blocks of a report --format json whose title starts so. */
static GPtrArray *
tables_titled (JsonNode *report, const char *prefix)
{
  JsonArray *blocks = json_object_get_array_member (json_node_get_object (report), "blocks");
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonObject *b = json_array_get_object_element (blocks, i);
      JsonObject *t = json_object_has_member (b, "table") ? json_object_get_object_member (b, "table")
                                                          : NULL;

      if (t != NULL && json_object_has_member (t, "title") &&
          g_str_has_prefix (json_object_get_string_member (t, "title"), prefix))
        g_ptr_array_add (out, t);
    }
  return out;
}

static gboolean
has_cyrillic (const char *s)
{
  for (const char *p = s; *p; p = g_utf8_next_char (p))
    if (g_utf8_get_char (p) >= 0x0400 && g_utf8_get_char (p) <= 0x04ff)
      return TRUE;
  return FALSE;
}

/* #17: the protocol has a budget per configuration (clause 7's two, not
 * its first only), the input quantities once per clause with symbols the
 * budgets use, each figure's u_c the one campaign results states, mean
 * |d_i| with its U in table 5; in Russian every input quantity in Russian. */
static void
test_uncertainty_budgets (void)
{
  g_autofree char *db = db_path ("budgets.nbc");
  g_autoptr (JsonNode) results = NULL, en = NULL, ru = NULL;
  g_auto (Run) r;
  guint compared = 0;

  import_cases (db, unc_fields, cases, G_N_ELEMENTS (cases));
  r = cli ("campaign", "results", "--db", db, "--json", NULL);
  assert_ok (&r, "campaign results");
  results = parse (r.out);
  nb_test_run_clear (&r);
  r = cli ("report", "--db", db, "--format", "json", "-o", "-", NULL);
  assert_ok (&r, "report --format json");
  en = parse (r.out);
  nb_test_run_clear (&r);
  r = cli ("report", "--db", db, "--lang", "ru", "--format", "json", "-o", "-", NULL);
  assert_ok (&r, "report --lang ru --format json");
  ru = parse (r.out);
  nb_test_run_clear (&r);

  {
    static const struct { const char *clause, *config; } budgets[] = {
      { "5", "P0→P1 30 kg" }, { "6", "two obstacles" }, { "7", "A: static box" },
      { "7", "B: person" }, { "8", "straight, 5 m" }, { "9", "door 900 mm" },
      { "9", "corridor 1200 mm" }, { "10", "arena" },
    };
    g_autoptr (GPtrArray) all = tables_titled (en, "Uncertainty budget — clause ");

    /* One per configuration with a budget (before #17's fix, clause 7's
     * and 9's first only). */
    g_assert_cmpuint (all->len, ==, G_N_ELEMENTS (budgets));
    for (guint i = 0; i < G_N_ELEMENTS (budgets); i++)
      {
        g_autofree char *prefix = budgets[i].config
          ? g_strdup_printf ("Uncertainty budget — clause %s: %s", budgets[i].clause, budgets[i].config)
          : g_strdup_printf ("Uncertainty budget — clause %s: ", budgets[i].clause);
        g_autoptr (GPtrArray) one = tables_titled (en, prefix);
        g_autofree char *ins = g_strdup_printf ("Input quantities of the uncertainty budgets — "
                                                "clause %s", budgets[i].clause);
        g_autoptr (GPtrArray) inputs = tables_titled (en, ins);
        g_autoptr (GHashTable) symbols = g_hash_table_new (g_str_hash, g_str_equal);
        JsonArray *in_rows, *rows;
        JsonObject *unc = NULL;
        const char *figure = NULL;
        guint n_figure = 0;

        g_assert_cmpuint (one->len, ==, 1);
        g_assert_cmpuint (inputs->len, ==, 1);
        /* x₁, x₂, … in order, each once. */
        in_rows = json_object_get_array_member (g_ptr_array_index (inputs, 0), "rows");
        g_assert_cmpuint (json_array_get_length (in_rows), >, 0);
        for (guint k = 0; k < json_array_get_length (in_rows); k++)
          {
            const char *sym = json_object_get_string_member (json_array_get_object_element (in_rows, k),
                                                             "symbol");

            g_assert_true (g_str_has_prefix (sym, "x"));
            g_assert_false (g_hash_table_contains (symbols, sym));
            g_hash_table_add (symbols, (gpointer) sym);
          }
        {
          JsonArray *configs = json_object_get_array_member (
            json_object_get_object_member (json_node_get_object (results), "clauses"),
            budgets[i].clause);

          for (guint k = 0; k < json_array_get_length (configs) && unc == NULL; k++)
            {
              JsonObject *c = json_array_get_object_element (configs, k);

              if (budgets[i].config == NULL ||
                  g_str_equal (json_object_get_string_member (c, "config"), budgets[i].config))
                unc = json_object_get_object_member (c, "uncertainty");
            }
        }
        g_assert_nonnull (unc);
        rows = json_object_get_array_member (g_ptr_array_index (one, 0), "rows");
        for (guint k = 0; k < json_array_get_length (rows); k++)
          {
            JsonObject *row = json_array_get_object_element (rows, k);
            const char *sym = json_object_get_string_member (row, "symbol");

            if (*json_object_get_string_member (row, "figure") != '\0')
              figure = json_object_get_string_member (row, "figure");
            g_assert_nonnull (figure);
            if (!g_str_equal (sym, "u_c"))
              {
                /* Every line's input is in the clause's table of inputs. */
                g_assert_true (g_hash_table_contains (symbols, sym));
                continue;
              }
            /* A figure's u_c: for one GUM states, the u of campaign
             * results (two significant digits each: within 5 %); the
             * budget's figures in the order of its members (clauses 6
             * and 10 state theirs in arrays). */
            if (!g_str_equal (budgets[i].clause, "6") && !g_str_equal (budgets[i].clause, "10"))
              {
                g_autoptr (GList) members = json_object_get_members (unc);
                const char *key = g_list_nth_data (members, n_figure++);
                JsonObject *f;

                g_assert_nonnull (key);
                f = json_object_get_object_member (unc, key);
                /* (A Monte Carlo figure states U/k, not u_c.) */
                if (g_str_equal (json_object_get_string_member (f, "method"), "gum"))
                  {
                    nb_assert_rel (json_object_get_double_member (row, "u"),
                                   json_object_get_double_member (f, "u"), 0.05, key);
                    compared++;
                  }
              }
          }
      }
  }

  /* The figures GUM states in these data (Ao, d, …): u_c compared. */
  g_assert_cmpuint (compared, ==, 4);

  /* Table 5: mean |d_i| has its U, the one campaign results states. */
  {
    JsonArray *blocks = json_object_get_array_member (json_node_get_object (en), "blocks");
    JsonObject *path = json_array_get_object_element (
      json_object_get_array_member (json_object_get_object_member (json_node_get_object (results),
                                                                   "clauses"), "8"), 0);
    double U = json_object_get_double_member (
      json_object_get_object_member (json_object_get_object_member (path, "uncertainty"),
                                     "mean_abs_mm"), "U");
    gboolean seen = FALSE;

    g_assert_cmpfloat (U, >, 0.0);
    for (guint i = 0; i < json_array_get_length (blocks) && !seen; i++)
      {
        JsonObject *b = json_array_get_object_element (blocks, i);
        JsonObject *t = json_object_has_member (b, "table") ? json_object_get_object_member (b, "table")
                                                            : NULL;
        JsonArray *rows = t ? json_object_get_array_member (t, "rows") : NULL;

        if (rows == NULL || json_array_get_length (rows) == 0 ||
            !json_object_has_member (json_array_get_object_element (rows, 0), "mean_abs_mm_U"))
          continue;
        seen = TRUE;
        nb_assert_rel (json_object_get_double_member (json_array_get_object_element (rows, 0),
                                                      "mean_abs_mm_U"), U, 1e-12, "table 5's U of mean |d_i|");
      }
    g_assert_true (seen);
  }

  /* Under each budget what is stated of each figure, the finite number of
   * trials apart from the measurement (Markdown carries the notes). */
  {
    JsonObject *pose = json_array_get_object_element (
      json_object_get_array_member (json_object_get_object_member (json_node_get_object (results),
                                                                   "clauses"), "5"), 0);
    JsonObject *ap = json_object_get_object_member (json_object_get_object_member (pose, "uncertainty"),
                                                    "ap_mm");
    JsonArray *interval = json_object_get_array_member (ap, "interval");
    g_autofree char *want = NULL;
    g_auto (Run) md = cli ("report", "--db", db, "--format", "md", "-o", "-", NULL);
    g_auto (Run) md_ru = cli ("report", "--db", db, "--lang", "ru", "--format", "md", "-o", "-", NULL);
    char lo[32], hi[32], U[32];

    assert_ok (&md, "report --format md");
    assert_ok (&md_ru, "report --lang ru --format md");
    /* The interval and U as the JSON states them, at U's decimals. */
    g_snprintf (U, sizeof U, "%g", json_object_get_double_member (ap, "U"));
    g_snprintf (lo, sizeof lo, "%.*f", (int) strlen (strchr (U, '.') ? strchr (U, '.') + 1 : ""),
                json_array_get_double_element (interval, 0));
    g_snprintf (hi, sizeof hi, "%.*f", (int) strlen (strchr (U, '.') ? strchr (U, '.') + 1 : ""),
                json_array_get_double_element (interval, 1));
    want = g_strdup_printf ("Position accuracy Ap: expanded uncertainty U = %s (k = 2), coverage "
                            "interval [%s, %s]; ", U, lo, hi);
    if (strstr (md.out, want) == NULL)
      g_error ("no '%s' in the Markdown report", want);
    /* (Markdown writes u_c as u\_c.) */
    g_assert_nonnull (strstr (md.out, "Of u\\_c = "));
    g_assert_nonnull (strstr (md.out, ": from the measurement "));
    g_assert_nonnull (strstr (md_ru.out, "Погрешность отработки позиции Ap: расширенная "
                                         "неопределённость U = "));
    g_assert_nonnull (strstr (md_ru.out, "Составляющие u\\_c = "));
    g_assert_null (strstr (md_ru.out, "expanded uncertainty"));
  }

  /* In Russian: every input quantity and every source's words. */
  {
    g_autoptr (GPtrArray) inputs = tables_titled (ru, "Входные величины бюджетов неопределённости — раздел ");
    gboolean barycentre = FALSE, type_a = FALSE;

    g_assert_cmpuint (inputs->len, ==, 6);
    for (guint i = 0; i < inputs->len; i++)
      {
        JsonArray *rows = json_object_get_array_member (g_ptr_array_index (inputs, i), "rows");

        for (guint k = 0; k < json_array_get_length (rows); k++)
          {
            JsonObject *row = json_array_get_object_element (rows, k);
            const char *q = json_object_get_string_member (row, "quantity");
            const char *src = json_object_get_string_member (row, "source");

            if (!has_cyrillic (q))
              g_error ("input quantity '%s' is not in Russian", q);
            barycentre |= g_str_equal (q, "барицентр x̄ (рассеяние достигнутых поз)");
            type_a |= g_str_equal (src, "оценивание по типу А, число попыток n = 30");
            g_assert_null (strstr (src, "Type A"));
            g_assert_null (strstr (src, "residuals"));
          }
      }
    g_assert_true (barycentre);
    g_assert_true (type_a);
    {
      g_autoptr (GPtrArray) ru_budgets = tables_titled (ru, "Бюджет неопределённости — раздел ");

      g_assert_cmpuint (ru_budgets->len, ==, 8);
    }
  }
}

/* The statement of the conformity table of report --format json for
 * figure in configuration config. */
static char *
statement_of (const char *db, const char *figure, const char *config, char **rule)
{
  g_auto (Run) r = cli ("report", "--db", db, "--format", "json", "-o", "-", NULL);
  g_autoptr (JsonNode) report = NULL;
  JsonArray *blocks;

  assert_ok (&r, "report --format json");
  report = parse (r.out);
  blocks = json_object_get_array_member (json_node_get_object (report), "blocks");
  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonObject *b = json_array_get_object_element (blocks, i);
      JsonObject *t;
      JsonArray *rows;

      if (!g_str_equal (json_object_get_string_member (b, "kind"), "table"))
        continue;
      t = json_object_get_object_member (b, "table");
      if (!g_str_equal (json_object_get_string_member (t, "title"),
                        "Conformity with the declared values"))
        continue;
      rows = json_object_get_array_member (t, "rows");
      for (guint k = 0; k < json_array_get_length (rows); k++)
        {
          JsonObject *row = json_array_get_object_element (rows, k);

          if (g_str_equal (json_object_get_string_member (row, "figure"), figure) &&
              g_str_equal (json_object_get_string_member (row, "config"), config))
            {
              *rule = g_strdup (json_object_get_string_member (row, "rule"));
              return g_strdup (json_object_get_string_member (row, "decision"));
            }
        }
    }
  g_error ("the report states no conformity of %s in '%s'", figure, config);
}

/* #17: declared.ap_mm against Ap and its interval [lo, hi] (as the protocol
 * prints them, U to two digits): a limit above the interval conforms, below
 * it does not, inside it is inconclusive under the guarded rule (w = U) and
 * decided by the value alone under simple acceptance — on each side of the
 * value and of the band. */
static void
test_conformity (void)
{
  static const char *const fields[] = {
    "instrument.accuracy_mm=0.05", "instrument.angular_accuracy_deg=0.01", NULL
  };
  g_autofree char *db = db_path ("conformity.nbc");
  g_autoptr (JsonNode) results = NULL;
  JsonObject *ap;
  JsonArray *interval;
  double value, lo, hi, U;
  g_auto (Run) r;
  struct {
    double limit;
    const char *simple, *guarded;
  } cases_[4];

  import_cases (db, fields, cases, G_N_ELEMENTS (cases));
  r = cli ("campaign", "results", "--db", db, "--json", NULL);
  assert_ok (&r, "results");
  results = parse (r.out);
  nb_test_run_clear (&r);
  ap = json_object_get_object_member (
    json_object_get_object_member (result_of (results, "5", "P0→P1 30 kg"), "uncertainty"),
    "ap_mm");
  interval = json_object_get_array_member (ap, "interval");
  lo = json_array_get_double_element (interval, 0);
  hi = json_array_get_double_element (interval, 1);
  U = json_object_get_double_member (ap, "U");
  value = json_object_get_double_member (result_of (results, "5", "P0→P1 30 kg"), "ap_mm");
  g_assert_cmpfloat (lo, <, value);
  g_assert_cmpfloat (value, <, hi);
  g_assert_cmpfloat (U, >, 0.0);
  cases_[0].limit = hi + U;                     /* above the band */
  cases_[0].simple = "conforms", cases_[0].guarded = "conforms";
  cases_[1].limit = (value + hi) / 2.0;         /* in the band, above the value */
  cases_[1].simple = "conforms", cases_[1].guarded = "inconclusive";
  cases_[2].limit = (lo + value) / 2.0;         /* in the band, below the value */
  cases_[2].simple = "does not conform", cases_[2].guarded = "inconclusive";
  cases_[3].limit = MAX (lo - U, 0.001);        /* below the band */
  cases_[3].simple = "does not conform", cases_[3].guarded = "does not conform";
  g_assert_cmpfloat (cases_[3].limit, <, lo);

  for (guint i = 0; i < G_N_ELEMENTS (cases_); i++)
    for (guint guarded = 0; guarded < 2; guarded++)
      {
        g_autofree char *limit = g_strdup_printf ("declared.ap_mm=%.6f", cases_[i].limit);
        g_autofree char *rule = NULL, *stated = NULL;

        r = cli ("campaign", "set", "--db", db, limit,
                 guarded ? "conformity.decision_rule=guarded-w=U"
                         : "conformity.decision_rule=simple-acceptance", NULL);
        assert_ok (&r, "set declared.ap_mm");
        nb_test_run_clear (&r);
        stated = statement_of (db, "Ap, mm", "P0→P1 30 kg", &rule);
        g_assert_cmpstr (rule, ==, guarded ? "guarded-w=U" : "simple-acceptance");
        if (!g_str_equal (stated, guarded ? cases_[i].guarded : cases_[i].simple))
          g_error ("Ap %g [%g, %g], declared ≤ %g, %s: stated '%s'", value, lo, hi,
                   cases_[i].limit, rule, stated);
      }

  /* declared.ao_deg: |Ao| ≤ the value (Ao is a signed mean deviation,
   * 5.2.1), against the interval as the protocol prints it: beyond both
   * of its ends, between |Ao| and the far end, between the near end and
   * |Ao|, inside the near end — under both rules.  The poses against a
   * command heading of 1°: Ao is negative, so an upper limit on Ao itself
   * would conform in every case. */
  {
    g_autofree char *input = data_path ("pose.csv");
    g_autoptr (JsonNode) with_ao = NULL;
    JsonObject *res, *ao;
    JsonArray *ai;
    double a, l, h, near, far, Uo, signed_ao;

    r = cli ("campaign", "import", "--db", db, "--clause", "5", "--config", "heading 1°",
             "--input", input, "--command", "5000,0,1", NULL);
    assert_ok (&r, "import heading 1°");
    nb_test_run_clear (&r);
    r = cli ("campaign", "results", "--db", db, "--json", NULL);
    assert_ok (&r, "results");
    with_ao = parse (r.out);
    nb_test_run_clear (&r);
    res = result_of (with_ao, "5", "heading 1°");
    ao = json_object_get_object_member (json_object_get_object_member (res, "uncertainty"),
                                        "ao_deg");
    ai = json_object_get_array_member (ao, "interval");
    signed_ao = json_object_get_double_member (res, "ao_deg");
    a = fabs (signed_ao);
    l = json_array_get_double_element (ai, 0), h = json_array_get_double_element (ai, 1);
    near = MIN (fabs (l), fabs (h)), far = MAX (fabs (l), fabs (h));
    Uo = json_object_get_double_member (ao, "U");
    {
      const struct { double limit; const char *simple, *guarded; } ao_cases[] = {
        { far + Uo, "conforms", "conforms" },
        { (a + far) / 2.0, "conforms", "inconclusive" },
        { (near + a) / 2.0, "does not conform", "inconclusive" },
        { near / 2.0, "does not conform", "does not conform" },
      };

      /* Negative, its interval on one side of 0: each case is what it says. */
      g_assert_cmpfloat (signed_ao, <, 0.0);
      g_assert_cmpfloat (h, <, 0.0);
      g_assert_cmpfloat (near, <, a);
      g_assert_cmpfloat (a, <, far);
      for (guint i = 0; i < G_N_ELEMENTS (ao_cases); i++)
        for (guint guarded = 0; guarded < 2; guarded++)
          {
            g_autofree char *limit = g_strdup_printf ("declared.ao_deg=%.9f", ao_cases[i].limit);
            g_autofree char *rule = NULL, *stated = NULL;

            r = cli ("campaign", "set", "--db", db, limit,
                     guarded ? "conformity.decision_rule=guarded-w=U"
                             : "conformity.decision_rule=simple-acceptance", NULL);
            assert_ok (&r, "set declared.ao_deg");
            nb_test_run_clear (&r);
            stated = statement_of (db, "|Ao|, °", "heading 1°", &rule);
            if (!g_str_equal (stated, guarded ? ao_cases[i].guarded : ao_cases[i].simple))
              g_error ("Ao %g [%g, %g], declared |Ao| ≤ %g, %s: stated '%s'", signed_ao, l, h,
                       ao_cases[i].limit, rule, stated);
          }
    }
  }

  /* A rule that is none: `campaign set` refuses it (exit 2 naming the
   * field, nothing on stdout, nothing stored: the rule set last stays). */
  r = cli ("campaign", "set", "--db", db, "conformity.decision_rule=lenient", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "conformity.decision_rule: decision rule 'lenient': "
                                   "simple-acceptance or guarded-w=U"));
  nb_test_run_clear (&r);
  assert_field (db, "conformity.decision_rule", "guarded-w=U");
  /* Nor with other fields in the same command: all or nothing. */
  {
    g_autofree char *declared = field_of (db, "declared.ap_mm");

    g_assert_nonnull (declared);
    r = cli ("campaign", "set", "--db", db, "declared.ap_mm=99", "conformity.decision_rule=lenient",
             NULL);
    g_assert_cmpint (r.status, ==, 2);
    nb_test_run_clear (&r);
    assert_field (db, "declared.ap_mm", declared);
  }
  {
    g_autofree char *rule = NULL, *stated = statement_of (db, "Ap, mm", "P0→P1 30 kg", &rule);

    g_assert_nonnull (stated);
    g_assert_cmpstr (rule, ==, "guarded-w=U");
  }
  /* One stored before `set` checked it is refused where it is read. */
  store_raw_field (db, "conformity.decision_rule", "lenient");
  r = cli ("report", "--db", db, "--format", "json", "-o", "-", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "field conformity.decision_rule: decision rule 'lenient'"));
}

static void
test_fields_and_info (void)
{
  g_autofree char *db = db_path ("info.nbc");
  g_autoptr (JsonNode) info = NULL;
  JsonObject *o, *fields;
  g_auto (Run) r;

  r = cli ("campaign", "new", "--db", db, "--name", "Info", "--robot-width-mm", "1200",
           "robot.maker=ACME", "conditions.environment=indoor", NULL);
  assert_ok (&r, "new");
  nb_test_run_clear (&r);
  r = cli ("campaign", "set", "--db", db, "--who", "tester", "conditions.temperature_c=21.5",
           "notes=first, \"quoted\" run", "robot.preparation_done=yes",
           "conditions.humidity_pct=85", NULL);
  assert_ok (&r, "set");
  nb_test_run_clear (&r);

  /* Bad input: exit 2, nothing changed. */
  r = cli ("campaign", "set", "--db", db, "conditions.temperature_c=warm", "notes=changed", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "navbench-cli: conditions.temperature_c: 'warm' is not a finite"));
  nb_test_run_clear (&r);
  r = cli ("campaign", "set", "--db", db, "robot.lu_mm=500", NULL);
  g_assert_cmpint (r.status, ==, 2);
  nb_test_run_clear (&r);

  r = cli ("campaign", "info", "--db", db, "--json", NULL);
  assert_ok (&r, "info");
  info = parse (r.out);
  o = json_node_get_object (info);
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "Info");
  g_assert_cmpint (json_object_get_int_member (o, "schema"), ==, NB_CAMPAIGN_SCHEMA_VERSION);
  /* ISO 18646-2 4.5: w = 1200 mm → LU = 1500 mm. */
  g_assert_cmpfloat (json_object_get_double_member (o, "robot_lu_mm"), ==, 1500.0);
  fields = json_object_get_object_member (o, "fields");
  g_assert_cmpstr (json_object_get_string_member (fields, "robot.maker"), ==, "ACME");
  g_assert_cmpstr (json_object_get_string_member (fields, "robot.width_mm"), ==, "1200");
  g_assert_cmpstr (json_object_get_string_member (fields, "conditions.temperature_c"), ==, "21.5");
  g_assert_cmpstr (json_object_get_string_member (fields, "notes"), ==, "first, \"quoted\" run");
  g_assert_cmpstr (json_object_get_string_member (fields, "robot.preparation_done"), ==, "yes");
  g_assert_true (json_object_get_null_member (fields, "robot.serial"));
  /* 4.2: 85 % humidity is accepted and flagged; 21.5 °C is within range. */
  {
    JsonArray *flags = json_object_get_array_member (o, "flags");

    g_assert_cmpuint (json_array_get_length (flags), ==, 1);
    g_assert_cmpstr (json_array_get_string_element (flags, 0), ==,
                     "relative humidity 85 % is outside 0–80 % (ISO 18646-2 4.2)");
  }
  {
    JsonArray *events = json_object_get_array_member (o, "events");
    guint by_tester = 0;

    for (guint i = 0; i < json_array_get_length (events); i++)
      {
        JsonObject *e = json_array_get_object_element (events, i);

        by_tester += g_str_equal (json_object_get_string_member (e, "who"), "tester");
      }
    g_assert_cmpuint (by_tester, ==, 4);
  }
}

static void
test_errors (void)
{
  g_autofree char *db = db_path ("errors.nbc");
  g_autofree char *text = data_path ("pose.csv");
  g_autofree char *bad = g_build_filename (tmpdir, "bad-path.csv", NULL);
  g_autoptr (GBytes) before = NULL, after = NULL;
  g_auto (Run) r;

  /* A CSV is not a campaign, and stays as it is. */
  before = nb_test_read_file (text);
  r = cli ("campaign", "info", "--db", text, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "not a navbench campaign"));
  after = nb_test_read_file (text);
  g_assert_true (g_bytes_equal (before, after));
  nb_test_run_clear (&r);

  r = cli ("campaign", "new", "--db", db, "--name", "E", NULL);
  assert_ok (&r, "new");
  nb_test_run_clear (&r);
  r = cli ("campaign", "new", "--db", db, "--name", "again", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "already exists"));
  nb_test_run_clear (&r);

  /* An import with a bad row at its end records nothing. */
  g_assert_true (g_file_set_contents (bad, "trial,x_mm,y_mm\n1,0,0\n1,100,2\n1,200,abc\n", -1,
                                      NULL));
  r = cli ("campaign", "import", "--db", db, "--clause", "8", "--config", "S", "--input", bad,
           "--from", "0,0", "--to", "1000,0", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "bad-path.csv:4:"));
  nb_test_run_clear (&r);
  r = cli ("campaign", "info", "--db", db, "--json", NULL);
  {
    g_autoptr (JsonNode) info = parse (r.out);
    JsonObject *counts = json_object_get_object_member (json_node_get_object (info), "counts");

    g_assert_cmpint (json_object_get_int_member (counts, "configs"), ==, 0);
    g_assert_cmpint (json_object_get_int_member (counts, "samples"), ==, 0);
  }
  nb_test_run_clear (&r);

  /* A second writer is refused while this process holds the campaign. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (NbCampaign) held = nb_campaign_open (db, 0, &error);

    g_assert_no_error (error);
    r = cli ("campaign", "set", "--db", db, "operator=someone", NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "campaign is open in another navbench"));
    nb_test_run_clear (&r);
    r = cli ("campaign", "import", "--db", db, "--clause", "5", "--config", "P", "--input", text,
             "--command", "5000,0,0", NULL);
    g_assert_cmpint (r.status, ==, 1);
    nb_test_run_clear (&r);
    /* Reading goes on. */
    r = cli ("campaign", "info", "--db", db, NULL);
    assert_ok (&r, "info beside a writer");
    nb_test_run_clear (&r);
  }

  /* Importing the same configuration twice is refused. */
  r = cli ("campaign", "import", "--db", db, "--clause", "5", "--config", "P", "--input", text,
           "--command", "5000,0,0", NULL);
  assert_ok (&r, "import");
  nb_test_run_clear (&r);
  r = cli ("campaign", "import", "--db", db, "--clause", "5", "--config", "P", "--input", text,
           "--command", "5000,0,0", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "already has a configuration 'P'"));
  nb_test_run_clear (&r);
  r = cli ("export", "--db", db, "--trials", "5", "--config", "nope", NULL);
  g_assert_cmpint (r.status, ==, 2);
  /* Nothing on standard output: the header was written before the check. */
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "clause 5 has no configuration 'nope'"));
  nb_test_run_clear (&r);
  r = cli ("export", "--db", db, "--trials", "4", NULL);
  g_assert_cmpint (r.status, ==, 2);
}

/* #14 regression: an import whose last write (the event log's "N trials
 * imported") fails is rolled back and exits 1 — clause 6 used to set the
 * outcome before that write and exited 0 after the rollback. */
static void
test_import_late_failure (void)
{
  g_autofree char *db = db_path ("late-failure.nbc");
  g_autofree char *detection = data_path ("detection.csv");
  const char *clauses[][2] = { { "6", "D" }, { "5", "P" } };
  sqlite3 *sql = NULL;

  {
    g_auto (Run) r = cli ("campaign", "new", "--db", db, "--name", "L", NULL);

    assert_ok (&r, "new");
  }
  /* The store itself refuses the log line (as a full disk would). */
  g_assert_cmpint (sqlite3_open (db, &sql), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (sql, "CREATE TRIGGER refuse_import BEFORE INSERT ON event "
                                 "WHEN NEW.what LIKE '%trials imported' "
                                 "BEGIN SELECT RAISE (ABORT, 'disk full'); END;",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (sql);
  for (guint i = 0; i < G_N_ELEMENTS (clauses); i++)
    {
      g_autofree char *poses = data_path ("pose.csv");
      g_auto (Run) r = cli ("campaign", "import", "--db", db, "--clause", clauses[i][0],
                            "--config", clauses[i][1], "--input",
                            clauses[i][0][0] == '6' ? detection : poses,
                            "--command", "5000,0,0", NULL);
      g_auto (Run) info = { 0 };

      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, "disk full"));
      g_assert_cmpstr (r.out, ==, "");
      info = cli ("campaign", "info", "--db", db, "--json", NULL);
      {
        g_autoptr (JsonNode) root = parse (info.out);
        JsonObject *counts = json_object_get_object_member (json_node_get_object (root),
                                                            "counts");

        g_assert_cmpint (json_object_get_int_member (counts, "configs"), ==, 0);
        g_assert_cmpint (json_object_get_int_member (counts, "trials"), ==, 0);
      }
    }
}

/* The u_measurement of figure key in clause 5's result of results. */
static double
pose_u_measurement (JsonNode *results, const char *key)
{
  JsonObject *u = json_object_get_object_member (result_of (results, "5", "P0→P1 30 kg"),
                                                 "uncertainty");

  return json_object_get_double_member (json_object_get_object_member (u, key), "u_measurement");
}

static JsonNode *
results_of (const char *db)
{
  g_auto (Run) r = cli ("campaign", "results", "--db", db, "--json", NULL);

  assert_ok (&r, "campaign results");
  return parse (r.out);
}

/* #17: `compute --registration-points P.csv` takes the survey `campaign
 * register --points` fits: its budget is the campaign's after the register,
 * member for member, and the registration adds to Ap's measurement part; a
 * bad survey is refused naming FILE:LINE. */
static void
test_registration_points (void)
{
  static const char *const survey =
    "point,instrument_x_mm,instrument_y_mm,reference_x_mm,reference_y_mm\n"
    "A,0.0,0.0,-1000.21,-4499.93\n"
    "B,12000.0,0.0,11000.18,-4500.12\n"
    "C,12000.0,9000.0,10999.86,4500.09\n"
    "D,0.0,9000.0,-999.83,4499.96\n";
  static const char *const options[] = {
    "--accuracy", "15 µm + 6 µm/m (k=2)", "--range-m", "8", "--accuracy-deg", "0.01",
    "--random-mm", "0.05", "--sample-rate-hz", "100", "--sync-s", "0.002", "--speed-mm-s", "1000",
    "--target-mm", "0.02", "--placement-mm", "2", "--resolution-mm", "50", NULL
  };
  g_autofree char *db = db_path ("registration.nbc");
  g_autofree char *points = g_build_filename (tmpdir, "survey.csv", NULL);
  g_autofree char *bad = g_build_filename (tmpdir, "survey-bad.csv", NULL);
  g_autofree char *input = data_path (cases[0].input);
  g_autofree char *truth = data_path ("truth.csv");
  const char *with[G_N_ELEMENTS (options) + 2];
  g_autoptr (JsonNode) before = NULL, after = NULL, plain = NULL, direct = NULL;
  g_auto (Run) r;

  g_assert_true (g_file_set_contents (points, survey, -1, NULL));
  import_cases (db, unc_fields, cases, 1);
  before = results_of (db);
  r = cli ("campaign", "register", "--db", db, "--points", points, NULL);
  assert_ok (&r, "campaign register");
  nb_test_run_clear (&r);
  after = results_of (db);

  memcpy (with, options, sizeof options);
  with[G_N_ELEMENTS (options) - 1] = "--registration-points";
  with[G_N_ELEMENTS (options)] = points;
  with[G_N_ELEMENTS (options) + 1] = NULL;
  direct = compute_json_with (&cases[0], input, truth, with);
  plain = compute_json_with (&cases[0], input, truth, options);
  /* compute with the survey states what the registered campaign states... */
  assert_same_figures (&cases[0], direct, after, "compute --registration-points");
  /* ...and without it what the campaign stated before the register. */
  assert_same_figures (&cases[0], plain, before, "compute without a registration");
  /* The fit's residuals (0.1–0.2 mm) add to Ap's measurement part (0.032
   * mm per axis from the tracker at 8 m, 0.02 mm centring). */
  g_assert_cmpfloat (pose_u_measurement (after, "ap_mm"), >,
                     1.5 * pose_u_measurement (before, "ap_mm"));

  /* A survey with a bad line: exit 2, FILE:LINE, nothing on stdout. */
  g_assert_true (g_file_set_contents (bad, "point,instrument_x_mm,instrument_y_mm,reference_x_mm,"
                                      "reference_y_mm\nA,0,0,0,0\nB,1000,0,north,0\n", -1, NULL));
  {
    g_autofree char *bad_line = g_strdup_printf ("%s:3", bad);

    r = cli ("compute", "pose", "--json", "--input", input, "--command", "5000,0,0",
             "--accuracy-mm", "0.05", "--registration-points", bad, NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_cmpstr (r.out, ==, "");
    if (strstr (r.err, bad_line) == NULL)
      g_error ("no '%s' in: %s", bad_line, r.err);
  }
}

/* #17: the angular accuracy at its own coverage factor
 * (instrument.angular_accuracy_k; not set, accuracy_k's; compute's
 * --angular-accuracy-k), the linear one at accuracy_k. */
static void
test_angular_coverage (void)
{
  g_autofree char *db = db_path ("angular-k.nbc");
  g_autofree char *input = data_path (cases[0].input);
  g_autofree char *truth = data_path ("truth.csv");
  g_autoptr (JsonNode) k2 = NULL, lin1 = NULL, ang2 = NULL, direct = NULL;
  double ao2, ap2;
  g_auto (Run) r;
  static const char *const options[] = {
    "--accuracy", "15 µm + 6 µm/m (k=1)", "--range-m", "8", "--accuracy-deg", "0.01",
    "--angular-accuracy-k", "2", "--random-mm", "0.05", "--sample-rate-hz", "100",
    "--sync-s", "0.002", "--speed-mm-s", "1000", "--target-mm", "0.02", NULL
  };

  import_cases (db, unc_fields, cases, 1);
  k2 = results_of (db);
  /* Ao's measurement part is the heading accuracy alone here (no
   * registration): 0.01° / 2. */
  ao2 = pose_u_measurement (k2, "ao_deg");
  ap2 = pose_u_measurement (k2, "ap_mm");
  nb_assert_rel (ao2, 0.005, 1e-9, "u_measurement(Ao) at k = 2");

  /* accuracy_k = 1 alone: both at 1 (the one factor of a campaign stored
   * before the split). */
  r = cli ("campaign", "set", "--db", db, "instrument.accuracy_k=1", NULL);
  assert_ok (&r, "set accuracy_k");
  nb_test_run_clear (&r);
  lin1 = results_of (db);
  nb_assert_rel (pose_u_measurement (lin1, "ao_deg"), 0.01, 1e-9, "u_measurement(Ao), k = 1");
  g_assert_cmpfloat (pose_u_measurement (lin1, "ap_mm"), >, 1.2 * ap2);

  /* The angular one at its own k = 2: Ao as at first, Ap still at k = 1. */
  r = cli ("campaign", "set", "--db", db, "instrument.angular_accuracy_k=2", NULL);
  assert_ok (&r, "set angular_accuracy_k");
  nb_test_run_clear (&r);
  ang2 = results_of (db);
  nb_assert_rel (pose_u_measurement (ang2, "ao_deg"), 0.005, 1e-9, "u_measurement(Ao), own k");
  nb_assert_rel (pose_u_measurement (ang2, "ap_mm"), pose_u_measurement (lin1, "ap_mm"), 1e-12,
                 "u_measurement(Ap) keeps accuracy_k");
  /* compute with the same factors states the same. */
  direct = compute_json_with (&cases[0], input, truth, options);
  assert_same_figures (&cases[0], direct, ang2, "compute --angular-accuracy-k");

  /* A factor that is none: refused where it is set and in compute. */
  r = cli ("campaign", "set", "--db", db, "instrument.angular_accuracy_k=about two", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "instrument.angular_accuracy_k: 'about two' is neither a "
                                   "coverage factor > 0 nor 'rectangular'"));
  nb_test_run_clear (&r);
  assert_field (db, "instrument.angular_accuracy_k", "2");
  r = cli ("compute", "pose", "--json", "--input", input, "--command", "5000,0,0",
           "--accuracy-deg", "0.01", "--angular-accuracy-k", "0", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "--angular-accuracy-k: '0' is neither a coverage factor"));
}

/* One CSV record of an RFC 4180 line (quotes doubled inside quoted fields). */
static GPtrArray *
csv_record (const char *line)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  GString *f = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = line; *p; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        g_string_append_c (f, *p++);
      else if (*p == '"')
        quoted = !quoted;
      else if (*p == ',' && !quoted)
        {
          g_ptr_array_add (fields, g_string_free (f, FALSE));
          f = g_string_new (NULL);
        }
      else
        g_string_append_c (f, *p);
    }
  g_ptr_array_add (fields, g_string_free (f, FALSE));
  return fields;
}

/* The CSV of `export --budgets` against its JSON: the same tables in the
 * same order, each under its title, the same header, every cell the same
 * text or number (CSV writes the shortest text that reads back to the
 * double), the same notes.  Returns the number of numeric cells compared. */
static guint
assert_csv_is_json (const char *csv, const char *json, const char *what)
{
  g_autoptr (JsonNode) root = parse (json);
  JsonArray *tables = json_node_get_array (root);
  g_auto (GStrv) lines = g_strsplit (csv, "\r\n", -1);
  guint l = 0, numbers = 0;

  g_assert_cmpuint (json_array_get_length (tables), >=, 2);
  for (guint t = 0; t < json_array_get_length (tables); t++)
    {
      JsonObject *table = json_array_get_object_element (tables, t);
      JsonArray *columns = json_object_get_array_member (table, "columns");
      JsonArray *rows = json_object_get_array_member (table, "rows");
      JsonArray *notes = json_object_get_array_member (table, "notes");
      g_autofree char *title = g_strdup_printf ("# %s", json_object_get_string_member (table, "title"));
      g_autoptr (GPtrArray) header = NULL;

      g_assert_nonnull (lines[l]);
      if (!g_str_equal (lines[l], title))
        g_error ("%s: line %u is '%s', not the title '%s'", what, l + 1, lines[l], title);
      header = csv_record (lines[++l]);
      g_assert_cmpuint (header->len, ==, json_array_get_length (columns));
      for (guint c = 0; c < header->len; c++)
        {
          JsonObject *col = json_array_get_object_element (columns, c);
          JsonNode *unit = json_object_get_member (col, "unit");
          g_autofree char *want = unit != NULL && !JSON_NODE_HOLDS_NULL (unit)
            ? g_strdup_printf ("%s [%s]", json_object_get_string_member (col, "key"),
                               json_node_get_string (unit))
            : g_strdup (json_object_get_string_member (col, "key"));

          g_assert_cmpstr (g_ptr_array_index (header, c), ==, want);
        }
      for (guint r = 0; r < json_array_get_length (rows); r++)
        {
          JsonObject *row = json_array_get_object_element (rows, r);
          g_autoptr (GPtrArray) cells = csv_record (lines[++l]);

          g_assert_cmpuint (cells->len, ==, header->len);
          for (guint c = 0; c < cells->len; c++)
            {
              const char *key = json_object_get_string_member (
                json_array_get_object_element (columns, c), "key");
              JsonNode *v = json_object_get_member (row, key);
              const char *cell = g_ptr_array_index (cells, c);

              if (v == NULL || JSON_NODE_HOLDS_NULL (v))
                g_assert_cmpstr (cell, ==, "");
              else if (json_node_get_value_type (v) == G_TYPE_STRING)
                g_assert_cmpstr (cell, ==, json_node_get_string (v));
              else
                {
                  char *end = NULL;
                  double x = g_ascii_strtod (cell, &end);

                  if (*cell == '\0' || *end != '\0' || x != json_node_get_double (v))
                    g_error ("%s: table %u row %u %s: CSV '%s', JSON %.17g", what, t, r, key,
                             cell, json_node_get_double (v));
                  numbers++;
                }
            }
        }
      for (guint n = 0; n < json_array_get_length (notes); n++)
        {
          g_autofree char *note = g_strdup_printf ("# %s", json_array_get_string_element (notes, n));

          g_assert_cmpstr (lines[++l], ==, note);
        }
      l++;
    }
  /* Nothing after the last table (the text ends with a line break). */
  g_assert_cmpstr (lines[l], ==, "");
  g_assert_null (lines[l + 1]);
  return numbers;
}

/* #17: each clause's budgets as CSV (`export --budgets N`, `report
 * --tables`), from the tables the protocol and its JSON show; clause 6's
 * budgets name each obstacle as table 3 does (table 2's name in the
 * protocol's language), not by its index. */
static void
test_budgets_csv (void)
{
  g_autofree char *db = db_path ("budgets-csv.nbc");
  g_autofree char *plain = db_path ("budgets-none.nbc");
  g_autofree char *det = g_build_filename (tmpdir, "detection-table2.csv", NULL);
  g_autofree char *md = g_build_filename (tmpdir, "budgets.md", NULL);
  g_autofree char *original = NULL;
  Case rest[G_N_ELEMENTS (cases) - 1];
  guint numbers = 0, k = 0;
  g_auto (Run) r;

  /* Clause 6 with one obstacle of table 2 (the "cylinder" of the data
   * renamed "glass wall") and one of the laboratory's own. */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    if (!g_str_equal (cases[i].clause, "6"))
      rest[k++] = cases[i];
  {
    g_autofree char *path = data_path ("detection.csv");
    g_autoptr (GString) text = NULL;

    g_assert_true (g_file_get_contents (path, &original, NULL, NULL));
    text = g_string_new (original);
    g_assert_cmpuint (g_string_replace (text, "\"cylinder, 10 cm\"", "glass wall", 0), ==, 16);
    g_assert_true (g_file_set_contents (det, text->str, -1, NULL));
  }
  import_cases (db, unc_fields, rest, G_N_ELEMENTS (rest));
  r = cli ("campaign", "import", "--db", db, "--clause", "6", "--config", "two obstacles",
           "--input", det, NULL);
  assert_ok (&r, "import clause 6");
  nb_test_run_clear (&r);

  r = cli ("report", "--db", db, "--format", "md", "-o", md, "--tables", NULL);
  assert_ok (&r, "report --tables");
  nb_test_run_clear (&r);
  for (guint clause = 5; clause <= 10; clause++)
    {
      char n[4];
      g_autofree char *beside = g_strdup_printf ("%s-budgets-%u.csv", md, clause);
      g_autofree char *written = NULL;
      g_auto (Run) csv = { 0 }, json = { 0 };

      g_snprintf (n, sizeof n, "%u", clause);
      csv = cli ("export", "--db", db, "--budgets", n, "--format", "csv", NULL);
      json = cli ("export", "--db", db, "--budgets", n, "--format", "json", NULL);
      assert_ok (&csv, "export --budgets --format csv");
      assert_ok (&json, "export --budgets --format json");
      numbers += assert_csv_is_json (csv.out, json.out, beside);
      /* report --tables writes the same beside the protocol. */
      g_assert_true (g_file_get_contents (beside, &written, NULL, NULL));
      g_assert_cmpstr (written, ==, csv.out);
      if (clause == 5)
        nb_test_assert_golden ("budgets-clause5.csv", csv.out);
    }
  /* Every budget line's value, u, c and contribution, and each u_c. */
  g_assert_cmpuint (numbers, >, 100);

  /* Clause 6 in both languages: the figures name table 3's obstacles. */
  for (guint l = 0; l < 2; l++)
    {
      const char *lang = l == 0 ? "en" : "ru";
      const char *glass = l == 0 ? "glass wall" : "стеклянная стена";
      const char *mean = l == 0 ? "Mean accuracy" : "Средняя точность";
      g_auto (Run) csv = cli ("export", "--db", db, "--budgets", "6", "--format", "csv", "--lang",
                              lang, NULL);
      g_auto (Run) json = cli ("export", "--db", db, "--budgets", "6", "--format", "json",
                               "--lang", lang, NULL);
      g_auto (Run) t3 = cli ("export", "--db", db, "--table", "3", "--format", "json", "--lang",
                             lang, NULL);
      g_autoptr (JsonNode) budgets = NULL, table3 = NULL;
      g_autoptr (GPtrArray) want = g_ptr_array_new_with_free_func (g_free);
      JsonArray *t3_rows, *rows;
      guint named = 0;

      assert_ok (&csv, "export --budgets 6");
      assert_ok (&json, "export --budgets 6 --format json");
      assert_ok (&t3, "export --table 3 --format json");
      if (l == 1)
        nb_test_assert_golden ("budgets-clause6-ru.csv", csv.out);
      budgets = parse (json.out);
      table3 = parse (t3.out);
      t3_rows = json_object_get_array_member (
        json_array_get_object_element (json_node_get_array (table3), 0), "rows");
      /* Its two obstacles, then "all obstacles". */
      g_assert_cmpuint (json_array_get_length (t3_rows), ==, 3);
      g_ptr_array_add (want, g_strdup (mean));
      for (guint i = 0; i < 2; i++)
        g_ptr_array_add (want, g_strdup_printf ("%s, %s", mean, json_object_get_string_member (
          json_array_get_object_element (t3_rows, i), "obstacle")));
      g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (t3_rows, 0),
                                                      "obstacle"), ==, "box 20 cm");
      g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (t3_rows, 1),
                                                      "obstacle"), ==, glass);
      rows = json_object_get_array_member (
        json_array_get_object_element (json_node_get_array (budgets), 1), "rows");
      for (guint i = 0; i < json_array_get_length (rows); i++)
        {
          const char *figure = json_object_get_string_member (json_array_get_object_element (rows, i),
                                                              "figure");

          if (*figure == '\0')
            continue;
          g_assert_cmpuint (named, <, want->len);
          g_assert_cmpstr (figure, ==, g_ptr_array_index (want, named));
          named++;
        }
      g_assert_cmpuint (named, ==, 3);
      g_assert_null (strstr (csv.out, "obstacle 1"));
      g_assert_null (strstr (csv.out, "препятствие 1"));
    }

  /* No clause of budgets, no accuracy, two exports at once: exit 2 with the
   * reason, nothing on stdout. */
  r = cli ("export", "--db", db, "--budgets", "4", "--format", "csv", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "--budgets 4: a clause with uncertainty budgets, 5 to 10"));
  nb_test_run_clear (&r);
  r = cli ("export", "--db", db, "--budgets", "5", "--table", "1", "--format", "csv", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  nb_test_run_clear (&r);
  {
    static const char *const none[] = { NULL };

    import_cases (plain, none, cases, 1);
  }
  r = cli ("export", "--db", plain, "--budgets", "5", "--format", "csv", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "clause 5 has no uncertainty budget"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = nb_test_make_dir ();
  g_test_add_func ("/campaign-cli/import-results-export", test_import_results_export);
  g_test_add_func ("/campaign-cli/uncertainty-results", test_uncertainty_results);
  g_test_add_func ("/campaign-cli/uncertainty-budgets", test_uncertainty_budgets);
  g_test_add_func ("/campaign-cli/budgets-csv", test_budgets_csv);
  g_test_add_func ("/campaign-cli/registration-points", test_registration_points);
  g_test_add_func ("/campaign-cli/angular-coverage", test_angular_coverage);
  g_test_add_func ("/campaign-cli/conformity", test_conformity);
  g_test_add_func ("/campaign-cli/fields-and-info", test_fields_and_info);
  g_test_add_func ("/campaign-cli/errors", test_errors);
  g_test_add_func ("/campaign-cli/import-late-failure", test_import_late_failure);
  status = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return status;
}
