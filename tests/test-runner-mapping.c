/* Clause 10 driven by the campaign runner, and the prompts of simulated runs.
 *
 *  - on the simulator: three maps of the 7 LU arena, each written where the
 *    rig says, analysed again here (nb_map_analyse against the arena's
 *    corners by nb_arena_corners): the stored corners, Dm per trial and the
 *    figure (the maximum Dm of the three, 10.3) equal the independent
 *    analysis; build times from the model; the same seed gives the same
 *    maps; every prompt (map file, build time, defects within range) is an
 *    event answered by "simulation" with the proposal, stamped;
 *  - 10.3's consecutive rule: a map with a shadow beyond the accepted range
 *    fails and the run goes on until three consecutive successes (ok,
 *    failed, ok, ok, ok: the figure from the last three); three failed maps
 *    in a row stop the run; the plan (`campaign plan --json`) calls the
 *    configuration complete at three consecutive successes, not at three
 *    maps (a run stopped after ok, failed, ok is 1/3 in progress);
 *  - from map files: a rig that builds no map (a real robot) — the arena's
 *    survey, each map's YAML, its build time and the defects judgement are
 *    answered from a file of answers, in the log with the file's line; the
 *    operator's "no" fails a map the measurements would pass;
 *  - clause 7 on the simulator: the obstacle's placement and every trial's
 *    contact are prompts the simulation answers, the measured clearance
 *    proposing the answer.
 */
#include "nb-campaign-runner.h"
#include "nb-error.h"
#include "nb-map-file.h"
#include "nb-map-gen.h"
#include "nb-metrics.h"
#include "nb-runner-sim.h"
#include "nb-test.h"
#include "nb-test-campaign.h"
#include "nb-test-cli.h"
#include "nb-test-tmp.h"

#include <math.h>
#include <string.h>

#define LU_MM 500.0             /* robot.width_mm 400 */

static char *tmpdir;

static char *
new_campaign (const char *name)
{
  char *path = g_strdup_printf ("%s/%s.nbc", tmpdir, name);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_create (path, name, &error);

  g_assert_no_error (error);
  g_assert_true (nb_campaign_set_field (c, "robot.width_mm", "400", &error));
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), &error));
  return path;
}

static NbRunnerSim *
new_sim (guint32 seed, guint32 shadows)
{
  NbRunnerSimOptions so;
  g_autoptr (GError) error = NULL;
  NbRunnerSim *sim;

  nb_runner_sim_options_init (&so);
  so.seed = seed;
  so.map_shadow_trials = shadows;
  sim = nb_runner_sim_new (&so, &error);
  g_assert_no_error (error);
  return sim;
}

typedef struct {
  GArray *dm;                   /* of double: TRIAL_ENDED's dm_mm */
  GArray *build;                /* of double: its time_s */
} Seen;

static void
on_progress (const NbRunnerEvent *ev, gpointer data)
{
  Seen *s = data;

  if (s == NULL || ev->kind != NB_RUNNER_EVENT_TRIAL_ENDED)
    return;
  g_array_append_val (s->dm, ev->dm_mm);
  g_array_append_val (s->build, ev->time_s);
}

/* Runs o with rig; the run's result, its summary and error. */
static gboolean
run (const char *db, const NbCampaignRunnerOptions *o, const NbRunnerRig *rig, Seen *seen,
     NbRunnerSummary *sum, GError **error)
{
  g_autoptr (NbCampaignRunner) runner = nb_campaign_runner_new (db, o, rig, error);

  g_assert_nonnull (runner);
  return nb_campaign_runner_run_sync (runner, NULL, on_progress, seen, sum, error);
}

static void
options (NbCampaignRunnerOptions *o, const char *map_dir)
{
  nb_campaign_runner_options_init (o);
  o->clause = 10;
  o->config = "arena";
  o->map_dir = map_dir;
}

/* The prompts of the log (what = "operator prompt"), in order; *events
 * holds them. */
static GPtrArray *
prompts_of (NbCampaign *c, GArray **events)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *out = g_ptr_array_new ();

  *events = nb_campaign_list_events (c, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < (*events)->len; i++)
    if (g_str_equal (g_array_index (*events, NbCampaignEvent, i).what, "operator prompt"))
      g_ptr_array_add (out, &g_array_index (*events, NbCampaignEvent, i));
  return out;
}

/* ------------------------------------------------------------ simulator -- */

static void
test_sim (void)
{
  g_autofree char *db = new_campaign ("sim");
  g_autofree char *again = new_campaign ("sim-again");
  g_autofree char *maps = g_build_filename (tmpdir, "sim-maps", NULL);
  g_autofree char *maps2 = g_build_filename (tmpdir, "sim-again-maps", NULL);
  g_autoptr (NbRunnerSim) sim = new_sim (5, 0);
  g_autoptr (NbRunnerSim) sim2 = new_sim (5, 0);
  g_autoptr (NbCampaign) c = NULL;
  g_autoptr (NbCampaign) c2 = NULL;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (GArray) trials2 = NULL;
  g_autoptr (GPtrArray) prompts = NULL;
  g_autoptr (GArray) events = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *range = NULL;
  NbCampaignRunnerOptions o;
  NbCampaignConfig config, config2;
  NbRunnerRig rig;
  NbRunnerSummary sum;
  NbMapFitOptions fit;
  NbConfigResult fig;
  double truth[4][2], max_dm = 0.0;
  Seen seen = { g_array_new (FALSE, FALSE, sizeof (double)),
                g_array_new (FALSE, FALSE, sizeof (double)) };

  options (&o, maps);
  o.defect_range_mm = 50.0;
  nb_runner_sim_rig (sim, &rig);
  g_assert_true (run (db, &o, &rig, &seen, &sum, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sum.run, ==, 3);
  g_assert_cmpuint (sum.ok, ==, 3);
  nb_runner_summary_clear (&sum);

  c = nb_test_campaign_open_ro (db);
  trials = nb_test_campaign_trials (c, 10, "arena", &config);
  g_assert_cmpuint (trials->len, ==, 3);
  /* The arena as the simulated test area lays it out: P0 at (1, 1) LU. */
  g_assert_true (nb_arena_corners (LU_MM, 1.0, 1.0, 0.0, truth, &error));
  for (int k = 0; k < 4; k++)
    {
      g_assert_cmpfloat (config.truth_mm[k][0], ==, truth[k][0]);
      g_assert_cmpfloat (config.truth_mm[k][1], ==, truth[k][1]);
    }
  range = nb_campaign_get_field (c, "mapping.accepted_defect_range_mm", &error);
  g_assert_cmpstr (range, ==, "50");
  nb_map_fit_options_init (&fit);
  fit.accept_gap_mm = fit.accept_shadow_mm = 50.0;
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      g_autofree char *yaml = g_strdup_printf ("%s/arena-%u.yaml", maps, i + 1);
      g_autoptr (NbMapAnalysis) a = nb_map_analyse (yaml, (const double (*)[2]) truth, &fit,
                                                    &error);

      g_assert_no_error (error);
      g_assert_cmpuint (t->number, ==, i + 1);
      g_assert_cmpint (t->outcome, ==, NB_TRIAL_OK);
      for (int k = 0; k < 4; k++)
        {
          nb_assert_abs (t->corners_mm[k][0], a->fit->corner_mm[k][0], 1e-9, "corner x");
          nb_assert_abs (t->corners_mm[k][1], a->fit->corner_mm[k][1], 1e-9, "corner y");
        }
      nb_assert_abs (g_array_index (seen.dm, double, i), a->dm_mm, 1e-9, "Dm of the event");
      /* The model's errors (σ 10 mm shifts, 0.2° about P0 on a 3.5 m arena):
       * a map is off by millimetres to a few tens, never exact. */
      g_assert_cmpfloat (a->dm_mm, >, 0.05);
      g_assert_cmpfloat (a->dm_mm, <, 80.0);
      max_dm = MAX (max_dm, a->dm_mm);
      /* 49 LU² at 0.25 m²/s = 49 s, ±5 % σ: within 5σ. */
      nb_assert_abs (t->time_s, 49.0, 49.0 * 0.25, "build time");
      nb_assert_abs (g_array_index (seen.build, double, i), t->time_s, 1e-9, "event build time");
    }
  memset (&fig, 0, sizeof fig);
  g_assert_true (nb_config_result_compute (c, &config, &fig, &error));
  g_assert_null (fig.error);
  nb_assert_abs (fig.accuracy_mm, max_dm, 1e-9, "10.3: the maximum Dm of the three");
  nb_config_result_clear (&fig);

  /* Every prompt is an event the simulation answered with the proposal. */
  prompts = prompts_of (c, &events);
  g_assert_cmpuint (prompts->len, ==, 3 * 3);
  for (guint i = 0; i < prompts->len; i++)
    {
      const NbCampaignEvent *e = g_ptr_array_index (prompts, i);

      g_assert_cmpstr (e->who, ==, "simulation");
      g_assert_cmpstr (e->new_value, ==, e->old_value);
      g_assert_true (strlen (e->time) >= 19);
      switch (i % 3)
        {
        case 0:
          g_assert_nonnull (strstr (e->subject, "save its map (map_server)"));
          g_assert_true (g_str_has_suffix (e->new_value, ".yaml"));
          break;
        case 1:
          g_assert_nonnull (strstr (e->subject, "time the robot took to build"));
          nb_assert_abs (g_ascii_strtod (e->new_value, NULL),
                         g_array_index (trials, NbCampaignTrial, i / 3).time_s, 0.05,
                         "the build time answered");
          break;
        default:
          g_assert_nonnull (strstr (e->subject, "within the accepted range (50 mm)"));
          g_assert_cmpstr (e->new_value, ==, "yes");
        }
    }

  /* The same seed, the same maps. */
  options (&o, maps2);
  o.defect_range_mm = 50.0;
  nb_runner_sim_rig (sim2, &rig);
  g_assert_true (run (again, &o, &rig, NULL, &sum, &error));
  nb_runner_summary_clear (&sum);
  c2 = nb_test_campaign_open_ro (again);
  trials2 = nb_test_campaign_trials (c2, 10, "arena", &config2);
  for (guint i = 0; i < 3; i++)
    {
      const NbCampaignTrial *a = &g_array_index (trials, NbCampaignTrial, i);
      const NbCampaignTrial *b = &g_array_index (trials2, NbCampaignTrial, i);

      g_assert_cmpmem (a->corners_mm, sizeof a->corners_mm, b->corners_mm,
                       sizeof b->corners_mm);
      g_assert_cmpfloat (a->time_s, ==, b->time_s);
    }
  /* A fourth run asks for more explicitly. */
  options (&o, maps);
  nb_runner_sim_rig (sim, &rig);
  {
    g_autoptr (NbCampaignRunner) r = nb_campaign_runner_new (db, &o, &rig, &error);

    g_assert_false (nb_campaign_runner_run_sync (r, NULL, NULL, NULL, &sum, &error));
    g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
    g_assert_nonnull (strstr (error->message, "3 consecutive successful maps"));
    g_clear_error (&error);
    nb_runner_summary_clear (&sum);
  }
  /* Another accepted range than the one the maps were judged by: refused. */
  o.defect_range_mm = 20.0;
  o.trials = 1;
  {
    g_autoptr (NbCampaignRunner) r = nb_campaign_runner_new (db, &o, &rig, &error);

    g_assert_false (nb_campaign_runner_run_sync (r, NULL, NULL, NULL, &sum, &error));
    g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
    g_assert_nonnull (strstr (error->message, "accepted defect range is 50 mm"));
    g_clear_error (&error);
    nb_runner_summary_clear (&sum);
  }
  nb_campaign_config_clear (&config);
  nb_campaign_config_clear (&config2);
  g_array_unref (seen.dm);
  g_array_unref (seen.build);
}

/* 10.3: three consecutive successful trials. */
static void
test_consecutive (void)
{
  g_autofree char *db = new_campaign ("consecutive");
  g_autofree char *stops = new_campaign ("stops");
  g_autofree char *maps = g_build_filename (tmpdir, "consecutive-maps", NULL);
  /* Trial 2's map shows a wall twice, 180 mm inside: beyond 50 mm. */
  g_autoptr (NbRunnerSim) sim = new_sim (8, 1u << 1);
  g_autoptr (NbRunnerSim) bad = new_sim (8, 0x7);
  g_autoptr (NbCampaign) c = NULL;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (GError) error = NULL;
  NbCampaignRunnerOptions o;
  NbCampaignConfig config;
  NbRunnerRig rig;
  NbRunnerSummary sum;
  NbConfigResult fig;
  double last_three = 0.0;

  options (&o, maps);
  o.defect_range_mm = 50.0;
  nb_runner_sim_rig (sim, &rig);
  g_assert_true (run (db, &o, &rig, NULL, &sum, &error));
  g_assert_cmpuint (sum.run, ==, 5);
  g_assert_cmpuint (sum.ok, ==, 4);
  g_assert_cmpuint (sum.failed, ==, 1);
  nb_runner_summary_clear (&sum);
  c = nb_test_campaign_open_ro (db);
  trials = nb_test_campaign_trials (c, 10, "arena", &config);
  g_assert_cmpuint (trials->len, ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);

      g_assert_cmpint (t->outcome, ==, i == 1 ? NB_TRIAL_FAILED : NB_TRIAL_OK);
      if (i == 1)
        g_assert_true (g_str_has_prefix (t->reason, "shadow on wall 1"));
      if (i >= 2)
        last_three = MAX (last_three, nb_metrics_dm ((const double (*)[2]) config.truth_mm,
                                                     (const double (*)[2]) t->corners_mm));
    }
  memset (&fig, 0, sizeof fig);
  g_assert_true (nb_config_result_compute (c, &config, &fig, &error));
  nb_assert_abs (fig.accuracy_mm, last_three, 1e-9, "the three after the failed map");
  nb_config_result_clear (&fig);
  nb_campaign_config_clear (&config);

  /* Three failed maps in a row: the robot does not map the arena. */
  options (&o, maps);
  o.defect_range_mm = 50.0;
  nb_runner_sim_rig (bad, &rig);
  g_assert_false (run (stops, &o, &rig, NULL, &sum, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "3 maps in a row failed"));
  g_assert_cmpuint (sum.run, ==, 3);
  g_assert_cmpuint (sum.failed, ==, 3);
  nb_runner_summary_clear (&sum);
}

/* The plan's state of clause 10 'arena' from `campaign plan --json`:
 * *done of *needed. */
static char *
plan_state (const char *db, gint64 *done, gint64 *needed)
{
  g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "campaign", "plan", "--db", db,
                                          "--json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *configs = json_object_get_array_member (nb_test_parse_object (parser, out),
                                                     "configs");

  for (guint i = 0; i < json_array_get_length (configs); i++)
    {
      JsonObject *e = json_array_get_object_element (configs, i);

      if (json_object_get_int_member (e, "clause") != 10)
        continue;
      g_assert_cmpstr (json_object_get_string_member (e, "config"), ==, "arena");
      *done = json_object_get_int_member (e, "trials");
      *needed = json_object_get_int_member (e, "of");
      return g_strdup (json_object_get_string_member (e, "state"));
    }
  g_assert_not_reached ();
}

/* 10.3 in the plan: a run stopped after three maps, the second failed
 * (as a run killed there leaves it), is not complete: one success since
 * the failed map.  The same command then makes the two maps left. */
static void
test_plan_state (void)
{
  g_autofree char *db = new_campaign ("plan-state");
  g_autofree char *maps = g_build_filename (tmpdir, "plan-state-maps", NULL);
  g_autoptr (NbRunnerSim) sim = new_sim (8, 1u << 1);
  g_autoptr (GError) error = NULL;
  g_autofree char *state = NULL;
  NbCampaignRunnerOptions o;
  NbRunnerRig rig;
  NbRunnerSummary sum;
  gint64 done = -1, needed = -1;

  options (&o, maps);
  o.defect_range_mm = 50.0;
  o.trials = 3;
  nb_runner_sim_rig (sim, &rig);
  g_assert_true (run (db, &o, &rig, NULL, &sum, &error));
  g_assert_cmpuint (sum.ok, ==, 2);
  g_assert_cmpuint (sum.failed, ==, 1);
  nb_runner_summary_clear (&sum);
  state = plan_state (db, &done, &needed);
  g_assert_cmpstr (state, ==, "in progress");
  g_assert_cmpint (done, ==, 1);
  g_assert_cmpint (needed, ==, 3);
  g_clear_pointer (&state, g_free);

  /* One more map: two in a row. */
  o.trials = 1;
  g_assert_true (run (db, &o, &rig, NULL, &sum, &error));
  nb_runner_summary_clear (&sum);
  state = plan_state (db, &done, &needed);
  g_assert_cmpstr (state, ==, "in progress");
  g_assert_cmpint (done, ==, 2);
  g_clear_pointer (&state, g_free);

  /* The standard's count: one map is left, then it is complete. */
  o.trials = 0;
  g_assert_true (run (db, &o, &rig, NULL, &sum, &error));
  g_assert_cmpuint (sum.run, ==, 1);
  g_assert_cmpuint (sum.ok, ==, 1);
  nb_runner_summary_clear (&sum);
  state = plan_state (db, &done, &needed);
  g_assert_cmpstr (state, ==, "complete");
  g_assert_cmpint (done, ==, 3);
  g_assert_cmpint (needed, ==, 3);
}

/* ------------------------------------------------------------ map files -- */

/* A real robot's rig: the sim base and its tracker, no mapping model. */
static const NbRunnerRigOps *
real_rig_ops (void)
{
  static NbRunnerRigOps ops;

  ops = *nb_runner_sim_rig_ops ();
  ops.arena = NULL;
  ops.build_map = NULL;
  return &ops;
}

static void
test_map_files (void)
{
  g_autofree char *db = new_campaign ("files");
  g_autofree char *truth_csv = g_build_filename (tmpdir, "survey.csv", NULL);
  g_autofree char *answers = g_build_filename (tmpdir, "answers.txt", NULL);
  g_autoptr (NbRunnerSim) sim = new_sim (3, 0);
  g_autoptr (NbPrompts) prompts = NULL;
  g_autoptr (NbCampaign) c = NULL;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (GPtrArray) log = NULL;
  g_autoptr (GArray) events = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  static const double built_s[] = { 812.5, 790.0, 805.25 };
  /* The lab's survey: the arena's corners with P0 at (1, 1) LU, to 0.5 mm. */
  static const double survey[4][2] = { { -500.5, -499.5 }, { 3000.0, -500.0 },
                                       { 3000.5, 3000.0 }, { -500.0, 3000.5 } };
  const char *judged[] = { "yes", "no", "yes" };
  NbCampaignRunnerOptions o;
  NbCampaignConfig config;
  NbRunnerRig rig;
  NbRunnerSummary sum;

  g_string_append (text, "# clause 10 from the robot's own maps\n");
  for (int k = 0; k < 4; k++)
    g_string_append_printf (text, "%s%d,%.1f,%.1f\n", k == 0 ? "corner,x_mm,y_mm\n" : "", k + 1,
                            survey[k][0], survey[k][1]);
  g_assert_true (g_file_set_contents (truth_csv, text->str, -1, &error));
  g_string_truncate (text, 0);
  g_string_append_printf (text, "%s\n", truth_csv);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *name = g_strdup_printf ("robot-%u", i + 1);
      g_autoptr (NbMap) map = NULL;
      double corners[4][2];
      NbMapGenOptions g;

      nb_map_gen_options_init (&g);
      g.lu_mm = LU_MM;
      g.tx_mm = 4.0 * i;
      g.ty_mm = -3.0;
      g.rotation_deg = 0.1 * i;
      g.seed = 40 + i;
      map = nb_map_generate (&g, corners, &error);
      g_assert_no_error (error);
      g_assert_true (nb_map_write (map, tmpdir, name, NB_MAP_IMAGE_PGM, &error));
      g_string_append_printf (text, "%s/%s.yaml\n%.2f\n%s\n", tmpdir, name, built_s[i],
                              judged[i]);
    }
  g_assert_true (g_file_set_contents (answers, text->str, -1, &error));
  prompts = nb_prompts_new_file (answers, "operator", &error);
  g_assert_no_error (error);

  options (&o, NULL);
  o.trials = 3;
  nb_runner_sim_rig (sim, &rig);
  rig.rig_ops = real_rig_ops ();
  rig.prompts = prompts;
  g_assert_true (run (db, &o, &rig, NULL, &sum, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sum.run, ==, 3);
  g_assert_cmpuint (sum.failed, ==, 1);
  nb_runner_summary_clear (&sum);
  /* Nothing was written beside the campaign: the maps are the robot's. */
  {
    g_autofree char *beside = g_strdup_printf ("%s-maps", db);

    g_assert_false (g_file_test (beside, G_FILE_TEST_EXISTS));
  }
  c = nb_test_campaign_open_ro (db);
  trials = nb_test_campaign_trials (c, 10, "arena", &config);
  g_assert_cmpmem (config.truth_mm, sizeof config.truth_mm, survey, sizeof survey);
  for (guint i = 0; i < 3; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      g_autofree char *yaml = g_strdup_printf ("%s/robot-%u.yaml", tmpdir, i + 1);
      g_autoptr (NbMapAnalysis) a = nb_map_analyse (yaml, survey, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpfloat (t->time_s, ==, built_s[i]);
      nb_assert_abs (t->corners_mm[2][0], a->fit->corner_mm[2][0], 1e-9, "A'3 x");
      /* The measurements pass every map; the operator failed the second. */
      g_assert_true (a->fit->passed);
      g_assert_cmpint (t->outcome, ==, i == 1 ? NB_TRIAL_FAILED : NB_TRIAL_OK);
      if (i == 1)
        g_assert_cmpstr (t->reason, ==, "defects beyond the accepted range (the operator's "
                                        "judgement)");
    }
  /* The survey, then per map its file, build time and judgement: each in
   * the log with its answer and the line of the file it came from. */
  log = prompts_of (c, &events);
  g_assert_cmpuint (log->len, ==, 1 + 3 * 3);
  for (guint i = 0; i < log->len; i++)
    {
      const NbCampaignEvent *e = g_ptr_array_index (log, i);

      g_assert_true (g_str_has_prefix (e->who, "operator ("));
      g_assert_nonnull (strstr (e->who, "answers.txt:"));
      if (i == 0)
        {
          g_assert_nonnull (strstr (e->subject, "as surveyed"));
          g_assert_cmpstr (e->new_value, ==, truth_csv);
          continue;
        }
      switch ((i - 1) % 3)
        {
        case 0:
          g_assert_true (g_str_has_suffix (e->new_value, ".yaml"));
          g_assert_null (e->old_value);     /* nobody proposes a real robot's map */
          break;
        case 1:
          nb_assert_abs (g_ascii_strtod (e->new_value, NULL), built_s[(i - 1) / 3], 1e-9,
                         "build time");
          break;
        default:
          g_assert_cmpstr (e->old_value, ==, "yes");
          g_assert_cmpstr (e->new_value, ==, judged[(i - 1) / 3]);
        }
    }
  nb_campaign_config_clear (&config);
  g_unlink (answers);
}

/* --------------------------------------------------- simulated prompts -- */

static void
test_sim_prompts_clause7 (void)
{
  g_autofree char *db = new_campaign ("prompts7");
  g_autoptr (NbRunnerSim) sim = new_sim (4, 0);
  g_autoptr (NbCampaign) c = NULL;
  g_autoptr (GArray) trials = NULL;
  g_autoptr (GPtrArray) log = NULL;
  g_autoptr (GArray) events = NULL;
  g_autoptr (GError) error = NULL;
  NbCampaignRunnerOptions o;
  NbCampaignConfig config;
  NbRunnerRig rig;
  NbRunnerSummary sum;
  guint placed = 0, contact = 0, obstacle_trials = 0;

  nb_campaign_runner_options_init (&o);
  o.clause = 7;
  o.config = "b1-large-cylinder";
  o.obstacle = "large cylinder";
  o.goal_tolerance_mm = 10.0;
  o.goal_tolerance_deg = 1.0;
  nb_runner_sim_rig (sim, &rig);
  g_assert_true (run (db, &o, &rig, NULL, &sum, &error));
  g_assert_no_error (error);
  nb_runner_summary_clear (&sum);
  c = nb_test_campaign_open_ro (db);
  trials = nb_test_campaign_trials (c, 7, o.config, &config);
  log = prompts_of (c, &events);
  for (guint i = 0; i < log->len; i++)
    {
      const NbCampaignEvent *e = g_ptr_array_index (log, i);

      g_assert_cmpstr (e->who, ==, "simulation");
      g_assert_true (strlen (e->time) >= 19);
      if (g_str_has_prefix (e->subject, "Place the large cylinder for behaviour 1 at P1"))
        {
          placed++;
          g_assert_cmpstr (e->new_value, ==, "yes");
        }
      else
        {
          g_assert_nonnull (strstr (e->subject, "did the robot touch the obstacle?"));
          g_assert_cmpstr (e->new_value, ==, e->old_value);
          contact++;
        }
    }
  /* Placed once, before the first trial with it; a contact prompt per
   * trial with the obstacle (a baseline trial has nothing to touch). */
  g_assert_cmpuint (placed, ==, 1);
  /* The baseline trials asked nothing: the placing is the first prompt. */
  g_assert_cmpuint (log->len, >, 0);
  g_assert_true (g_str_has_prefix (((const NbCampaignEvent *) g_ptr_array_index (log, 0))->subject,
                                   "Place the large cylinder"));
  for (guint i = 0; i < trials->len; i++)
    {
      const NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
      const NbCampaignEvent *e;

      if (g_strcmp0 (t->kind, "obstacle") != 0)
        continue;
      g_assert_cmpuint (1 + obstacle_trials, <, log->len);
      e = g_ptr_array_index (log, 1 + obstacle_trials++);
      /* The simulation's answer is the verdict recorded. */
      g_assert_nonnull (strstr (e->subject, "did the robot touch the obstacle?"));
      g_assert_true (g_str_equal (e->new_value, "yes") ==
                     (t->reason != NULL && g_str_has_prefix (t->reason, "touched")));
    }
  g_assert_cmpuint (obstacle_trials, ==, 3);
  g_assert_cmpuint (contact, ==, obstacle_trials);
  g_assert_cmpuint (trials->len, >, obstacle_trials);
  nb_campaign_config_clear (&config);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = nb_test_make_dir ();
  g_test_add_func ("/mapping/sim", test_sim);
  g_test_add_func ("/mapping/consecutive", test_consecutive);
  g_test_add_func ("/mapping/plan-state", test_plan_state);
  g_test_add_func ("/mapping/map-files-prompts", test_map_files);
  g_test_add_func ("/prompts/simulation-clause7", test_sim_prompts_clause7);
  rc = g_test_run ();
  nb_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return rc;
}
