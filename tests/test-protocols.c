/* protocols/: the clauses as the protocol names them, and the clause-4 ranges. */
#include "nb-clause.h"
#include "nb-clause-9283.h"
#include "nb-conditions.h"
#include "nb-error.h"
#include "nb-test.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

static void
test_clauses (void)
{
  const guint tables[] = { 1, 3, 4, 5, 6, 7 };
  const guint trials[] = { 30, 16, 3, 30, 5, 3 };
  g_autofree char *short_pose = NULL, *short_detection = NULL;

  for (guint i = 0; i < 6; i++)
    {
      const NbClause *c = nb_clause_get (5 + i);

      g_assert_nonnull (c);
      g_assert_cmpuint (c->table, ==, tables[i]);
      g_assert_cmpuint (c->trials, ==, trials[i]);
      g_assert_null (nb_clause_check_trials (c, trials[i]));
    }
  g_assert_null (nb_clause_get (4));
  g_assert_null (nb_clause_get (11));
  g_assert_cmpstr (nb_clause_get (10)->title, ==, "Mapping accuracy");

  short_pose = nb_clause_check_trials (nb_clause_get (5), 12);
  g_assert_cmpstr (short_pose, ==, "12 trials where ISO 18646-2 5.4 asks for 30");
  short_detection = nb_clause_check_trials (nb_clause_get (6), 15);
  g_assert_cmpstr (short_detection, ==, "15 placements where ISO 18646-2 6.3 asks for 16");
}

/* The registry and the configurations each clause module lays out. */
static void
test_registry (void)
{
  guint n;
  const NbClause *const *all = nb_clause_registry (&n);
  /* 5.4, 6.3, 7.3, 8.3, 9.3, 10.3; outdoors (annex A.5.2) three obstacles. */
  const guint indoor[] = { 6, 6, 10, 2, 2, 1 }, outdoor[] = { 6, 3, 9, 2, 2, 1 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) configs = NULL;
  NbClauseEnv env;

  g_assert_cmpuint (n, ==, 6);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (all[i]->number, ==, 5 + i);
      g_assert_true (nb_clause_lookup (5 + i) == all[i]);
    }
  g_assert_true (nb_clause_takes (nb_clause_lookup (7), NB_CLAUSE_OPT_BEHAVIOUR));
  g_assert_false (nb_clause_takes (nb_clause_lookup (6), NB_CLAUSE_OPT_TRIALS));
  g_assert_false (nb_clause_refuse_option (nb_clause_lookup (6), NB_CLAUSE_OPT_TRIALS, "--trials",
                                           &error));
  g_assert_cmpstr (error->message, ==, "--trials is for clauses 5, 7, 8, 9 and 10 (clause 6 fixes its "
                                       "placements, 6.3)");
  g_clear_error (&error);
  g_assert_false (nb_clause_refuse_option (nb_clause_lookup (5), NB_CLAUSE_OPT_BEHAVIOUR,
                                           "--behaviour", &error));
  g_assert_cmpstr (error->message, ==, "--behaviour is for clause 7");
  g_clear_error (&error);

  /* No LU: the routes cannot be laid out. */
  nb_clause_env_init (&env);
  g_assert_null (nb_clause_all_configurations (&env, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);

  env.robot_width_mm = 620.0;
  env.lu_mm = 1000.0;
  env.rated_load_kg = 20.0;
  for (guint pass = 0; pass < 2; pass++)
    {
      guint per[6] = { 0 };

      env.outdoor = pass == 1;
      configs = nb_clause_all_configurations (&env, &error);
      g_assert_no_error (error);
      for (guint i = 0; i < configs->len; i++)
        per[g_array_index (configs, NbCampaignConfig, i).clause - 5]++;
      for (guint k = 0; k < 6; k++)
        g_assert_cmpuint (per[k], ==, pass ? outdoor[k] : indoor[k]);
      g_clear_pointer (&configs, g_array_unref);
    }
  env.outdoor = FALSE;
  configs = nb_clause_all_configurations (&env, &error);
  {
    const NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, 3);  /* 5, 4th */

    /* 4.5: the rectangle's target is P0 again after 4 legs of 5 LU; the
     * combined route ends at P2 (5 LU, 5 LU). */
    g_assert_cmpstr (c->name, ==, "rectangular-rated-load");
    nb_assert_abs (c->load_kg, 20.0, 0.0, "rated load");
    c = &g_array_index (configs, NbCampaignConfig, 4);
    g_assert_cmpstr (c->name, ==, "combined-no-load");
    nb_assert_abs (c->command.x_mm, 5000.0, 1e-9, "combined: P2 x");
    nb_assert_abs (c->command.y_mm, 5000.0, 1e-9, "combined: P2 y");
    nb_assert_abs (c->load_kg, 0.0, 0.0, "no load");
    c = &g_array_index (configs, NbCampaignConfig, 6 + 6 + 4);    /* 7: b2, large cylinder */
    g_assert_cmpstr (c->name, ==, "b2-large-cylinder");
    g_assert_cmpstr (c->behaviour, ==, "2");
    c = &g_array_index (configs, NbCampaignConfig, 6 + 6 + 10);   /* 8 */
    nb_assert_abs (c->to_mm[0], 5000.0, 1e-9, "8: P1 at 5 LU");
  }
  g_clear_pointer (&configs, g_array_unref);

  /* 4.5: the manufacturer declares legs of 4 and 3 LU and clockwise routes
   * too: clause 5 has the rectangular and combined routes both ways (10
   * configurations), laid out with those legs; clause 8's P1 at 4 LU. */
  env.leg1_lu = 4.0;
  env.leg2_lu = 3.0;
  env.clockwise = TRUE;
  configs = nb_clause_all_configurations (&env, &error);
  g_assert_no_error (error);
  {
    guint n5 = 0;
    const NbCampaignConfig *c = NULL;

    for (guint i = 0; i < configs->len; i++)
      {
        const NbCampaignConfig *k = &g_array_index (configs, NbCampaignConfig, i);

        n5 += k->clause == 5;
        if (g_strcmp0 (k->name, "combined-cw-no-load") == 0)
          c = k;
        if (k->clause == 8)
          nb_assert_abs (k->to_mm[0], 4000.0, 1e-9, "8: P1 at the declared 4 LU");
      }
    g_assert_cmpuint (n5, ==, 10);
    g_assert_nonnull (c);
    /* Clockwise: the second leg turns right (−y). */
    nb_assert_abs (c->command.x_mm, 4000.0, 1e-9, "combined cw: P2 x");
    nb_assert_abs (c->command.y_mm, -3000.0, 1e-9, "combined cw: P2 y");
    g_assert_nonnull (strstr (c->parameters, "\"clockwise\": true"));
  }
}

/* #14: the table says which clauses export a truth (--truth) and lay out a
 * course, so no front end asks their numbers: the flag and the method go
 * together; 10's truth rows are the arena's corners; 7's course and 9's
 * (its passage_width_mm, else the robot's width + 200 mm) as core lays them
 * out. */
static gboolean
collect_cells (const NbClauseCell *cells, guint n, gpointer data, GError **error)
{
  GString *out = data;

  for (guint i = 0; i < n; i++)
    if (cells[i].text != NULL)
      g_string_append_printf (out, "%s%s", cells[i].text, i + 1 < n ? "," : "\n");
    else
      g_string_append_printf (out, "%g%s", cells[i].number, i + 1 < n ? "," : "\n");
  return TRUE;
}

static void
test_course_truth (void)
{
  guint n;
  const NbClause *const *all = nb_clause_registry (&n);
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) rows = g_string_new (NULL);
  const double arena[4][2] = { { 0, 0 }, { 7000, 0 }, { 7000, 7000 }, { 0, 7000.5 } };
  NbCampaignConfig c;
  NbCourse got, want;

  for (guint i = 0; i < n; i++)
    {
      g_assert_true (nb_clause_takes (all[i], NB_CLAUSE_OPT_TRUTH) == (all[i]->export_truth != NULL));
      g_assert_true ((all[i]->truth_columns != NULL) == (all[i]->export_truth != NULL));
      g_assert_true ((all[i]->run == NB_CLAUSE_RUN_COURSE) == (all[i]->course != NULL));
    }
  g_assert_false (nb_clause_refuse_option (nb_clause_lookup (8), NB_CLAUSE_OPT_TRUTH, "--truth",
                                           &error));
  g_assert_cmpstr (error->message, ==, "--truth is for clause 10");
  g_clear_error (&error);

  nb_campaign_config_init (&c);
  c.name = g_strdup ("arena");
  memcpy (c.truth_mm, arena, sizeof arena);
  g_assert_true (nb_clause_lookup (10)->export_truth (&c, collect_cells, rows, &error));
  g_assert_cmpstr (rows->str, ==,
                   "arena,1,0,0\narena,2,7000,0\narena,3,7000,7000\narena,4,0,7000.5\n");
  g_assert_cmpstr (nb_clause_lookup (10)->truth_columns[1], ==, "corner");

  g_assert_true (nb_clause_lookup (7)->course (&c, 600.0, &got, &error));
  g_assert_no_error (error);
  g_assert_true (nb_course_avoidance (600.0, NULL, 0, 0.0, &want, NULL));
  g_assert_cmpint (got.kind, ==, NB_COURSE_AVOIDANCE);
  g_assert_false (got.has_obstacle);
  nb_assert_abs (got.pg[0], want.pg[0], 0.0, "7: PG");
  g_assert_cmpfloat (got.pg[0], >, 0.0);

  g_assert_true (nb_clause_lookup (9)->course (&c, 600.0, &got, &error));
  g_assert_cmpint (got.kind, ==, NB_COURSE_PASSAGE);
  nb_assert_abs (got.passage_width_mm, 800.0, 0.0, "9.2: width + 200 mm");
  c.parameters = g_strdup ("{\"passage_width_mm\": 750}");
  g_assert_true (nb_clause_lookup (9)->course (&c, 600.0, &got, &error));
  nb_assert_abs (got.passage_width_mm, 750.0, 0.0, "9: the configuration's passage");
  g_assert_true (nb_course_passage (600.0, 750.0, &want, NULL));
  nb_assert_abs (got.pg[0], want.pg[0], 0.0, "9: PG");
  nb_campaign_config_clear (&c);
}

/* #14: GSL's aborting handler is off in every program that links core
 * (nb-error.c, at load), not only in navbench-cli's main. */
static void
test_gsl_handler (void)
{
  g_assert_cmpuint (NB_ERROR, !=, 0);
  /* With GSL's default handler this aborts the test. */
  gsl_error ("a status navbench turns into a GError", __FILE__, __LINE__, GSL_EDOM);
}

/* The protocol's coverage and the plan's verdict, as the clause modules
 * decide them: every prescribed configuration covered by itself and by no
 * other of its clause (one kind each), read as a person reads it; a
 * laboratory's configuration covers by its kind, not its name; only the
 * pass/fail clauses (7, 9) give a verdict. */
static void
test_coverage (void)
{
  const char *first[] = { "straight route, no load", "wooden wall", "behaviour 1, wooden wall",
                          "straight route, no load", "no load", "the arena of 10.2" };
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) configs = NULL;
  g_autoptr (GHashTable) labels = g_hash_table_new (g_str_hash, g_str_equal);
  NbConfigResult r;
  NbClauseEnv env;
  guint seen[6] = { 0 }, named = 0;

  nb_clause_env_init (&env);
  env.robot_width_mm = 620.0;
  env.lu_mm = 1000.0;
  env.rated_load_kg = 20.0;
  env.clockwise = TRUE;
  configs = nb_clause_all_configurations (&env, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < configs->len; i++)
    {
      const NbCampaignConfig *p = &g_array_index (configs, NbCampaignConfig, i);
      const NbClause *clause = nb_clause_lookup (p->clause);
      g_autofree char *what = clause->describe (NULL, p);
      guint covered = 0;

      if (seen[p->clause - 5]++ == 0)
        g_assert_cmpstr (what, ==, first[p->clause - 5]);
      if (g_str_equal (p->name, "combined-cw-rated-load") && ++named)
        g_assert_cmpstr (what, ==, "combined route clockwise, rated load");
      if (g_str_equal (p->name, "rectangular-rated-load") && ++named)
        g_assert_cmpstr (what, ==, "rectangular route, rated load");
      if (p->clause == 6)
        g_hash_table_add (labels, p->obstacle);
      for (guint j = 0; j < configs->len; j++)
        {
          const NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, j);

          if (c->clause == p->clause && clause->covers (p, c, labels))
            {
              covered++;
              if (p->clause != 6 && p->clause != 10)
                g_assert_cmpuint (i, ==, j);
            }
        }
      /* 6.3: once placed, an obstacle is tested by every clause 6 configuration. */
      g_assert_cmpuint (covered, >=, 1);
      g_hash_table_remove_all (labels);
    }
  /* 5 + the clockwise rectangular and combined (4.5), 6, 10, 2, 2, 1. */
  g_assert_cmpuint (seen[0], ==, 10);
  g_assert_cmpuint (seen[1], ==, 6);
  g_assert_cmpuint (seen[2], ==, 10);
  g_assert_cmpuint (named, ==, 2);

  {
    /* A laboratory's names: the load by load_kg, else by the name; "table"
     * is table 2's wooden table. */
    NbCampaignConfig rated = { .clause = 8, .name = "rated load run", .load_kg = NAN };
    NbCampaignConfig heavy = { .clause = 9, .name = "no-load?", .load_kg = 12.0 };
    NbCampaignConfig p8 = { .clause = 8, .name = "straight-rated-load", .load_kg = 20.0 };
    NbCampaignConfig p9 = { .clause = 9, .name = "no-load", .load_kg = 0.0 };
    NbCampaignConfig p7 = { .clause = 7, .name = "b1-wooden-table", .behaviour = "1",
                            .obstacle = "wooden table" };
    NbCampaignConfig lab7 = { .clause = 7, .name = "t", .behaviour = "1", .obstacle = "table" };
    NbCampaignConfig p6 = { .clause = 6, .name = "wooden-table", .obstacle = "wooden table" };

    g_assert_true (nb_clause_lookup (8)->covers (&p8, &rated, labels));
    g_assert_false (nb_clause_lookup (9)->covers (&p9, &heavy, labels));
    g_assert_true (nb_clause_lookup (7)->covers (&p7, &lab7, labels));
    lab7.behaviour = "2";
    g_assert_false (nb_clause_lookup (7)->covers (&p7, &lab7, labels));
    g_assert_false (nb_clause_lookup (6)->covers (&p6, &lab7, labels));
    g_hash_table_add (labels, "table");
    g_assert_true (nb_clause_lookup (6)->covers (&p6, &lab7, labels));
  }

  memset (&r, 0, sizeof r);
  for (guint k = 5; k <= 10; k++)
    g_assert_true ((nb_clause_lookup (k)->passed != NULL) == (k == 7 || k == 9));
  r.avoidance.passed = TRUE;
  g_assert_true (nb_clause_lookup (7)->passed (&r));
  g_assert_false (nb_clause_lookup (9)->passed (&r));
  r.passage.passed = TRUE;
  r.avoidance.passed = FALSE;
  g_assert_false (nb_clause_lookup (7)->passed (&r));
  g_assert_true (nb_clause_lookup (9)->passed (&r));
}

/* ISO 9283's clause modules speak through the catalogue (context
 * "iso9283"): every title and every column title in words has its
 * ГОСТ Р ИСО 9283 wording in ru; symbols (AP_P, RT_a) stay as they are. */
static void
test_iso9283_words (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_BUILT, "..", "po", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GRegex) words = g_regex_new ("[a-z]{3,}", 0, 0, NULL);
  const NbCatalogue *ru = nb_catalogue_for_language (dir, "ru", &error);
  guint n, n_words = 0;
  const NbClause9283 *const *reg = nb_clause_9283_registry (&n);

  g_assert_no_error (error);
  g_assert_cmpuint (n, >=, 11);
  for (guint k = 0; k < n; k++)
    {
      g_assert_cmpstr (nb_ptr (ru, "iso9283", reg[k]->title), !=, reg[k]->title);
      g_assert_cmpstr (nb_ptr (NULL, "iso9283", reg[k]->title), ==, reg[k]->title);
      for (guint i = 0; i < reg[k]->n_columns; i++)
        {
          const char *title = reg[k]->columns[i].title;

          if (!g_regex_match (words, title, 0, NULL))
            g_assert_cmpstr (nb_ptr (ru, "iso9283", title), ==, title);
          else if (++n_words)
            g_assert_cmpstr (nb_ptr (ru, "iso9283", title), !=, title);
        }
    }
  /* compliance, displacement at F, CR/CO/t/OV/t_pos (max, mean), robots (7.7), WS/WF
   * (largest cycle). */
  g_assert_cmpuint (n_words, ==, 15);
  g_assert_cmpstr (nb_ptr (ru, "iso9283", nb_clause_9283_lookup ("weaving")->title), ==,
                   "Отклонения при поперечных перемещениях");
  g_assert_cmpstr (nb_ptr (ru, "iso9283", nb_clause_9283_lookup ("corner")->title), ==,
                   "Отклонения на углах");
  g_assert_cmpstr (nb_ptr (ru, "iso9283", "band %.3f mm"), ==, "зона %.3f мм");
}

static void
test_conditions (void)
{
  struct { const char *key; double value; gboolean outdoor; const char *flag; } cases[] = {
    { "conditions.temperature_c", 21.0, FALSE, NULL },
    { "conditions.temperature_c", 10.0, FALSE, NULL },
    { "conditions.temperature_c", 30.0, FALSE, NULL },
    { "conditions.temperature_c", 34.0, FALSE,
      "ambient temperature 34 °C is outside 10–30 °C (ISO 18646-2 4.2)" },
    { "conditions.temperature_c", 34.0, TRUE, NULL },
    { "conditions.humidity_pct", 85.0, FALSE,
      "relative humidity 85 % is outside 0–80 % (ISO 18646-2 4.2)" },
    { "conditions.illuminance_lx", 50.0, FALSE,
      "illuminance 50 lx is outside 100–1000 lx (ISO 18646-2 4.2)" },
    { "conditions.friction_coefficient", 0.55, FALSE,
      "friction coefficient 0.55 is outside 0.6–1 (ISO 18646-2 4.3)" },
    { "conditions.friction_coefficient", 0.6, FALSE, NULL },
    { "conditions.friction_coefficient", NAN, FALSE, "friction coefficient is not a number" },
    { "robot.rated_speed_mps", 99.0, FALSE, NULL },
  };
  guint n;

  g_assert_nonnull (nb_condition_ranges (&n));
  g_assert_cmpuint (n, ==, 4);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *flag = nb_condition_check (NULL, cases[i].key, cases[i].value, cases[i].outdoor);

      g_assert_cmpstr (flag, ==, cases[i].flag);
    }
}

/* A stored cycle: n_command values of command, n_samples rows of
 * (t, x, y, z, a, b, c), sample i of cycle k at t = i / 10 s, x = 100 k + i. */
static NbIso9283Trial *
stored_cycle (guint cycle, guint n_command, guint n_samples)
{
  NbIso9283Trial *t = g_new0 (NbIso9283Trial, 1);

  t->cycle = cycle;
  t->command = g_array_new (FALSE, TRUE, sizeof (double));
  t->data = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_set_size (t->command, n_command);
  for (guint i = 0; i < n_command; i++)
    g_array_index (t->command, double, i) = 1000.0 * cycle + i;
  for (guint i = 0; i < n_samples; i++)
    {
      double row[7] = { i / 10.0, 100.0 * cycle + i, 2.0, 3.0, 4.0, 5.0, 6.0 };

      g_array_append_vals (t->data, row, 7);
    }
  return t;
}

static void
stored_cycle_free (gpointer p)
{
  NbIso9283Trial *t = p;

  g_array_unref (t->command);
  g_array_unref (t->data);
  g_free (t);
}

/* The path characteristics' one gathering of their cycles
 * (nb_clause_9283_cycle_tracks): the first cycle's command and every
 * cycle's track as stored; a command of another length or a cycle without
 * a track is an error naming the cycle, through each module's compute. */
static void
test_iso9283_cycle_tracks (void)
{
  static const guint corner_lens[] = { 10, 0 };
  g_autoptr (GPtrArray) trials = g_ptr_array_new_with_free_func (stored_cycle_free);
  g_autoptr (GError) error = NULL;
  NbClause9283Figures f = { 0 };

  g_ptr_array_add (trials, stored_cycle (1, 10, 4));
  g_ptr_array_add (trials, stored_cycle (2, 10, 5));
  {
    g_auto (NbClause9283Cycles) c = { 0 };

    g_assert_true (nb_clause_9283_cycle_tracks (trials, corner_lens, "corner", &c, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (c.n, ==, 2);
    g_assert_cmpuint (c.n_command, ==, 10);
    g_assert_true (c.command == (const double *) ((NbIso9283Trial *) trials->pdata[0])->command->data);
    g_assert_cmpuint (c.tracks[0].n, ==, 4);
    g_assert_cmpuint (c.tracks[1].n, ==, 5);
    g_assert_cmpfloat (c.tracks[1].t_s[4], ==, 0.4);
    g_assert_cmpfloat (c.tracks[1].pose[3].x_mm, ==, 203.0);
    g_assert_cmpfloat (c.tracks[0].pose[2].c_deg, ==, 6.0);
  }
  /* 10 values are a corner's, not a path's nor a weave's. */
  g_assert_false (nb_clause_9283_path_line.compute (&nb_clause_9283_path_line, NULL, trials, NULL,
                                                    &f, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_cmpstr (error->message, ==, "cycle 1 holds no command path");
  g_clear_error (&error);
  g_assert_false (nb_clause_9283_weaving.compute (&nb_clause_9283_weaving, NULL, trials, NULL, &f,
                                                  &error));
  g_assert_cmpstr (error->message, ==, "cycle 1 holds no weaving path");
  g_clear_error (&error);
  /* Cycle 2 with one sample holds no track. */
  g_ptr_array_add (trials, stored_cycle (3, 10, 1));
  g_assert_false (nb_clause_9283_corner.compute (&nb_clause_9283_corner, NULL, trials, NULL, &f,
                                                 &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_cmpstr (error->message, ==, "cycle 3 holds no track");
  g_clear_error (&error);
  nb_clause_9283_figures_clear (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/protocols/clauses", test_clauses);
  g_test_add_func ("/protocols/registry", test_registry);
  g_test_add_func ("/protocols/course-truth", test_course_truth);
  g_test_add_func ("/protocols/coverage", test_coverage);
  g_test_add_func ("/protocols/iso9283-words", test_iso9283_words);
  g_test_add_func ("/protocols/iso9283-cycle-tracks", test_iso9283_cycle_tracks);
  g_test_add_func ("/protocols/gsl-handler", test_gsl_handler);
  g_test_add_func ("/protocols/conditions", test_conditions);
  return g_test_run ();
}
