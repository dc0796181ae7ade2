/* The clauses' rules as ISO 18646-2 words them (issue #16 "rules read
 * wrongly"), each on a campaign built here: the figure, and what the
 * protocol says about it. */
#include "nb-test.h"

#include "nb-campaign.h"
#include "nb-campaign-results.h"
#include "nb-clause.h"
#include "nb-clause-results.h"
#include "nb-protocol-report.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static char *tmpdir;

static NbCampaign *
new_campaign (const char *name)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr (GError) error = NULL;
  NbCampaign *c = nb_campaign_create (path, name, &error);

  g_assert_no_error (error);
  g_assert_nonnull (c);
  return c;
}

static char *
markdown (NbCampaign *c)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbDocument) doc = nb_protocol_report_build (c, NULL, &error);

  g_assert_no_error (error);
  return nb_protocol_report_markdown (doc, NULL);
}

/* Stores config (filled by the caller; cleared here) and gives its id. */
static gint64
add_config (NbCampaign *c, NbCampaignConfig *config)
{
  g_autoptr (GError) error = NULL;
  gint64 id;

  g_assert_true (nb_campaign_add_config (c, config, &error));
  g_assert_no_error (error);
  id = config->id;
  nb_campaign_config_clear (config);
  return id;
}

/* A configuration of clause with name and load (NaN: none); the caller
 * sets the rest, then add_config. */
static void
config_init (NbCampaignConfig *config, guint clause, const char *name, double load_kg)
{
  nb_campaign_config_init (config);
  config->clause = clause;
  config->name = g_strdup (name);
  config->load_kg = load_kg;
}

/* Records t (filled by the caller; cleared here) as a trial of config. */
static void
record_trial (NbCampaign *c, gint64 config, NbCampaignTrial *t)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_campaign_record_trial (c, config, t, &error));
  g_assert_no_error (error);
  nb_campaign_trial_clear (t);
}

/* Records t (cleared here) as a trial of config run with the track s[n]:
 * begun, its samples, ended ok. */
static void
record_track_trial (NbCampaign *c, gint64 config, NbCampaignTrial *t, const NbTrackSample *s,
                    guint n)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_campaign_begin_trial (c, config, t, &error));
  g_assert_true (nb_campaign_add_samples (c, t->id, s, n, &error));
  t->outcome = NB_TRIAL_OK;
  g_assert_true (nb_campaign_end_trial (c, t, &error));
  g_assert_no_error (error);
  nb_campaign_trial_clear (t);
}

/* ------------------------------------------------------------- 10.3 -- */

/* The arena's corners (7 LU, LU 1000 mm) and a map off by (dx, dy). */
static const double arena[4][2] = { { 0, 0 }, { 7000, 0 }, { 7000, 7000 }, { 0, 7000 } };

static gint64
mapping_config (NbCampaign *c)
{
  NbCampaignConfig config;

  config_init (&config, 10, "arena", NAN);
  memcpy (config.truth_mm, arena, sizeof arena);
  return add_config (c, &config);
}

static void
map_trial (NbCampaign *c, gint64 config, guint number, double off_mm, gboolean ok,
           const char *reason)
{
  NbCampaignTrial t;

  nb_campaign_trial_init (&t);
  t.number = number;
  for (int i = 0; i < 4; i++)
    {
      t.corners_mm[i][0] = arena[i][0] + off_mm;
      t.corners_mm[i][1] = arena[i][1];
    }
  t.outcome = ok ? NB_TRIAL_OK : NB_TRIAL_FAILED;
  t.reason = g_strdup (reason);
  t.time_s = 600.0 + number;
  record_trial (c, config, &t);
}

static void
mapping_result (NbCampaign *c, NbConfigResult *r)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) configs = nb_campaign_list_configs (c, 10, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (configs->len, ==, 1);
  g_assert_true (nb_config_result_compute (c, &g_array_index (configs, NbCampaignConfig, 0), r,
                                           &error));
  g_assert_no_error (error);
  g_array_set_clear_func (configs, (GDestroyNotify) nb_campaign_config_clear);
}

/* 10.3: "the maximum Dm of three consecutive successful trials"; a failed
 * map stays in table 7 with its reason; no run of three, no figure. */
static void
test_mapping_consecutive (void)
{
  NbCampaign *c = new_campaign ("map-ok-failed-ok-ok.nbc");
  gint64 id = mapping_config (c);
  NbConfigResult r = { 0 };
  g_autofree char *md = NULL;

  /* ok (Dm 10), failed (Dm 90), ok (20), ok (30): no three in a row.  The
   * old rule gave max over the successful ones, 30 mm, and dropped trial 2. */
  map_trial (c, id, 1, 10.0, TRUE, NULL);
  map_trial (c, id, 2, 90.0, FALSE, "shadows on wall 2 beyond the accepted range");
  map_trial (c, id, 3, 20.0, TRUE, NULL);
  map_trial (c, id, 4, 30.0, TRUE, NULL);
  mapping_result (c, &r);
  g_assert_cmpuint (r.values->len, ==, 4);
  g_assert_true (isnan (r.accuracy_mm));
  g_assert_cmpuint (r.window, ==, G_MAXUINT);
  nb_config_result_clear (&r);
  md = markdown (c);
  g_assert_nonnull (strstr (md, "| 2 | 90.00 | 0.00 | **⚠ failed: shadows on wall 2 beyond the "
                                "accepted range** | 602 |"));
  /* Four trials where 10.3 asks for three: the series is flagged too. */
  g_assert_nonnull (strstr (md, "| **⚠ Mapping accuracy (max Dm)** | **⚠ no figure** |"));
  g_assert_nonnull (strstr (md, "arena: 4 trials where the standard asks for 3 (10.3)."));
  g_assert_nonnull (strstr (md, "No figure: the series has no three consecutive successful trials "
                                "(10.3)."));

  /* A fifth success makes trials 3–5 the run: max(20, 30, 15) = 30 mm. */
  map_trial (c, id, 5, 15.0, TRUE, NULL);
  mapping_result (c, &r);
  nb_assert_abs (r.accuracy_mm, 30.0, 1e-12, "max Dm of trials 3-5");
  g_assert_cmpuint (r.window, ==, 2);
  nb_config_result_clear (&r);
  g_free (md);
  md = markdown (c);
  g_assert_nonnull (strstr (md, "| **⚠ Mapping accuracy (max Dm)** | 30.00 |"));
  g_assert_nonnull (strstr (md, "three consecutive successful trials (10.3): trials 3 to 5."));
  nb_campaign_free (c);

  /* The first run wins, a later larger Dm does not count. */
  {
    const double dm[] = { 5, 7, 6, 50, 1 };
    const gboolean ok[] = { TRUE, TRUE, TRUE, TRUE, TRUE };
    guint first;

    nb_assert_abs (nb_mapping_accuracy_mm (dm, ok, 5, &first), 7.0, 0.0, "first run");
    g_assert_cmpuint (first, ==, 0);
    g_assert_true (isnan (nb_mapping_accuracy_mm (dm, NULL, 2, &first)));
  }
}

/* --------------------------------------------------------- 7.3, 9.3 -- */

static gint64
timed_config (NbCampaign *c, guint clause, const char *name)
{
  NbCampaignConfig config;

  config_init (&config, clause, name, 0.0);
  if (clause == 7)
    {
      config.obstacle = g_strdup ("small cylinder");
      config.behaviour = g_strdup ("2");
      config.parameters = g_strdup ("{\"obstacle_speed_mm_s\": 1600}");
    }
  else
    config.parameters = g_strdup ("{\"passage_width_mm\": 900}");
  return add_config (c, &config);
}

static void
timed_trial (NbCampaign *c, gint64 config, const char *kind, guint number, double time_s,
             gboolean ok)
{
  NbCampaignTrial t;

  nb_campaign_trial_init (&t);
  t.number = number;
  t.kind = g_strdup (kind);
  t.time_s = time_s;
  t.outcome = ok ? NB_TRIAL_OK : NB_TRIAL_FAILED;
  record_trial (c, config, &t);
}

/* 9.3: five trials, the mean of five consecutive successes; 11 trials with
 * five failures found a run of five, and that series is flagged in the
 * protocol.  7.3: three trials with the obstacle; four are flagged. */
static void
test_series_length (void)
{
  NbCampaign *c = new_campaign ("series.nbc");
  gint64 p = timed_config (c, 9, "passage, no load");
  gint64 a = timed_config (c, 7, "b2 small cylinder");
  g_autofree char *md = NULL;

  /* f f f f f then six successes: trials 6–10 give the mean (10 + … + 14)/5. */
  for (guint i = 1; i <= 11; i++)
    timed_trial (c, p, NULL, i, 5.0 + i, i > 5);
  for (guint i = 1; i <= 3; i++)
    timed_trial (c, a, "baseline", i, 9.0 + 0.1 * i, TRUE);
  for (guint i = 1; i <= 4; i++)
    timed_trial (c, a, "obstacle", i, 12.0 + 0.1 * i, TRUE);
  md = markdown (c);
  g_assert_nonnull (strstr (md, "passage, no load: 11 trials where the standard asks for 5 (9.3)."));
  g_assert_nonnull (strstr (md, "| passage, no load | 0.0 | 900 | **⚠ yes** | 13.00 | **⚠ 5** |"));
  g_assert_nonnull (strstr (md, "b2 small cylinder: 4 trials where the standard asks for 3 (7.3)."));
  g_assert_nonnull (strstr (md, "| b2 small cylinder | small cylinder | **⚠ yes** |"));
  nb_campaign_free (c);
}

/* ------------------------------------------------ 7.3 c, 8.3 b, 9.3 c -- */

/* Clause 5 on the straight route, no load: four attained poses about
 * (5003, −2) mm, each 1 mm from it, headings ±0.1°: the barycentre 3 mm
 * along and 2 mm right of the command, Rp = 1 mm (S_l = 0), Ao = 0,
 * Ro = 3·√(4·0.01/3) = 0.3464°. */
static void
pose_config (NbCampaign *c)
{
  static const NbPose attained[] = { { 5004, -2, 0.1 }, { 5002, -2, -0.1 }, { 5003, -1, 0.1 },
                                     { 5003, -3, -0.1 } };
  const NbPose command = { 5000, 0, 0 };
  NbCampaignConfig config;
  gint64 id;

  config_init (&config, 5, "straight-no-load", 0.0);
  config.route = g_strdup ("straight");
  config.command = command;
  id = add_config (c, &config);
  for (guint i = 0; i < G_N_ELEMENTS (attained); i++)
    {
      NbCampaignTrial t;

      nb_campaign_trial_init (&t);
      t.command = command;
      t.attained = attained[i];
      t.outcome = NB_TRIAL_OK;
      record_trial (c, id, &t);
    }
}

/* A clause 8 trial along P0 (0, 0) → P1 (5000, 0), its track ending at end. */
static void
path_trial (NbCampaign *c, gint64 config, const char *label, double end_x, double end_y)
{
  NbTrackSample s[51];
  NbCampaignTrial t;

  for (guint i = 0; i <= 50; i++)
    s[i] = (NbTrackSample) { i * 0.1, end_x * i / 50.0, end_y * i / 50.0, NAN, NAN };
  nb_campaign_trial_init (&t);
  t.label = g_strdup (label);
  record_track_trial (c, config, &t, s, G_N_ELEMENTS (s));
}

static gint64
path_config (NbCampaign *c)
{
  NbCampaignConfig config;

  config_init (&config, 8, "straight-no-load", 0.0);
  config.route = g_strdup ("straight");
  config.from_mm[0] = config.from_mm[1] = 0.0;
  config.to_mm[0] = 5000.0;
  config.to_mm[1] = 0.0;
  return add_config (c, &config);
}

/* "Within the position and orientation repeatability of clause 5", read
 * literally: Rp about where clause 5 ends (the target moved by its
 * barycentre's offset, turning with the target), Ro about its heading + Ao.
 * The old reading, Ap + Rp = 4.61 mm about PG, took (4497, 2): 3.6 mm from
 * PG but 7.2 mm from where clause 5 ends. */
static void
test_goal_tolerance (void)
{
  NbCampaign *c = new_campaign ("goal.nbc");
  g_autoptr (GError) error = NULL;
  NbGoalTolerance tol;
  const NbPose pg = { 4500, 0, 0 }, north = { 0, 4500, 90 };
  struct { NbPose goal, attained; gboolean reached; double miss; } cases[] = {
    { pg, { 4503.5, -2, 0 }, TRUE, 0.5 },
    { pg, { 4503, -2, 0.3 }, TRUE, 0.0 },
    { pg, { 4497, 2, 0 }, FALSE, hypot (6, 4) },
    { pg, { 4503, -2, 0.5 }, FALSE, 0.0 },      /* heading beyond Ro */
    { pg, { 4503, -1.2, NAN }, TRUE, 0.8 },     /* no heading: the position alone */
    { north, { 2, 4503, 90 }, TRUE, 0.0 },      /* the offset turns with the target */
    { north, { 3, 4498, 90 }, FALSE, hypot (1, 5) },
  };
  g_autofree char *md = NULL, *json = NULL;
  gint64 path;

  pose_config (c);
  nb_goal_tolerance_init (&tol);
  g_assert_true (nb_goal_tolerance_from_campaign (c, 0.0, &tol, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (tol.config, ==, "straight-no-load");
  nb_assert_abs (tol.along_mm, 3.0, 1e-9, "along");
  nb_assert_abs (tol.across_mm, -2.0, 1e-9, "across");
  nb_assert_abs (tol.rp_mm, 1.0, 1e-9, "Rp");
  nb_assert_abs (tol.ro_deg, 3 * sqrt (0.04 / 3), 1e-9, "Ro");
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      double miss, turn;

      if (nb_goal_reached (&tol, &cases[k].goal, &cases[k].attained, &miss, &turn) !=
          cases[k].reached)
        g_error ("case %u: reached %d expected %d (miss %g, turn %g)", k, !cases[k].reached,
                 cases[k].reached, miss, turn);
      nb_assert_abs (miss, cases[k].miss, 1e-9, "miss");
    }
  /* The runner's log of it reads back. */
  json = nb_goal_tolerance_to_json (&tol);
  nb_goal_tolerance_clear (&tol);
  g_assert_true (nb_goal_tolerance_from_json (json, &tol));
  nb_assert_abs (tol.across_mm, -2.0, 0.0, "across from JSON");
  nb_goal_tolerance_clear (&tol);

  /* 8.3 b: the path trials' ends judged by it, in table 5. */
  path = path_config (c);
  path_trial (c, path, "a", 5003.2, -2.0);
  path_trial (c, path, "b", 4980.0, 2.0);
  /* 9.3 c: what the protocol states: the runner's log, else the rule for imported trials. */
  timed_trial (c, timed_config (c, 9, "no load"), NULL, 1, 20.0, TRUE);
  timed_trial (c, timed_config (c, 9, "operator"), NULL, 1, 21.0, TRUE);
  nb_goal_tolerance_init (&tol);
  nb_goal_tolerance_given (&tol, 10.0, 1.0);
  g_free (json);
  json = nb_goal_tolerance_to_json (&tol);
  g_assert_true (nb_campaign_log (c, NB_GOAL_TOLERANCE_EVENT, "clause 9, config 'operator'", NULL,
                                  json, &error));
  nb_goal_tolerance_clear (&tol);
  md = markdown (c);
  g_assert_nonnull (strstr (md, "| **⚠ 1 of 2** |"));
  g_assert_nonnull (strstr (md, "straight-no-load: trials that ended beyond it: b (23.3 mm)."));
  g_assert_nonnull (strstr (md, "P1 reached (8.3 b): the attained position within Rp = 1.00 mm of "
                                "P1 moved by"));
  g_assert_nonnull (strstr (md, "no load: PG reached (9.3 c): the attained position within Rp = "
                                "1.00 mm of PG moved by clause 5's offset of the barycentre (3.00 "
                                "mm along, -2.00 mm across), the heading within Ro = ±0.346° of "
                                "its heading + Ao (0.000°); from clause 5 configuration "
                                "'straight-no-load' (load 0 kg)."));
  g_assert_nonnull (strstr (md, "Imported trials are judged by it where the laboratory gave "
                                "their attained pose; without one, whether PG was reached is the "
                                "laboratory's judgement."));
  g_assert_nonnull (strstr (md, "operator: PG reached (9.3 c): within 10.00 mm of PG and 1.000° "
                                "of its heading, as the operator gave it"));
  nb_campaign_free (c);

  /* No clause 5: 8.3 b cannot be judged, flagged and listed by report --check. */
  c = new_campaign ("goal-none.nbc");
  path_trial (c, path_config (c), "a", 5000.0, 0.0);
  g_free (md);
  md = markdown (c);
  g_assert_nonnull (strstr (md, "| **⚠ not checked** |"));
  {
    g_autoptr (NbDocument) doc = nb_protocol_report_build (c, NULL, &error);
    gboolean listed = FALSE;

    g_assert_no_error (error);
    for (guint i = 0; i < nb_document_n_missing (doc); i++)
      listed = listed || strstr (nb_document_missing (doc, i), "straight-no-load: P1 reached within "
                                 "the clause 5 repeatability (no clause 5 figures)") != NULL;
    g_assert_true (listed);
  }
  nb_campaign_free (c);
}

/* ------------------------------------------------------------------ 7.1 -- */

static void
clearance_trial (NbCampaign *c, gint64 config, const char *kind, guint number, double clearance)
{
  NbCampaignTrial t;

  nb_campaign_trial_init (&t);
  t.number = number;
  t.kind = g_strdup (kind);
  t.time_s = 10.0 + number;
  t.clearance_mm = clearance;
  t.outcome = NB_TRIAL_OK;
  record_trial (c, config, &t);
}

/* 7.1: each trial with the obstacle keeps the manufacturer's minimum
 * distance; today only contact failed a trial.  The smallest clearance is
 * stored with the trial, judged against robot.min_avoidance_distance_mm and
 * printed in table 4; a trial closer is named. */
static void
test_min_distance (void)
{
  NbCampaign *c = new_campaign ("clearance.nbc");
  g_autoptr (GError) error = NULL;
  g_autofree char *md = NULL;
  g_autoptr (GArray) configs = NULL;
  NbConfigResult r = { 0 };
  gint64 id = timed_config (c, 7, "b2");

  for (guint k = 1; k <= 3; k++)
    clearance_trial (c, id, "baseline", k, INFINITY);
  clearance_trial (c, id, "obstacle", 1, 240.0);
  clearance_trial (c, id, "obstacle", 2, 85.5);
  clearance_trial (c, id, "obstacle", 3, 130.0);
  timed_trial (c, timed_config (c, 7, "imported"), "obstacle", 1, 12.0, TRUE);
  /* Not declared: not judged, and report --check lists it. */
  md = markdown (c);
  g_assert_nonnull (strstr (md, "| 85.5 |"));
  g_assert_nonnull (strstr (md, "| **⚠ not measured** |"));
  g_assert_nonnull (strstr (md, "⚠ The minimum distance to an obstacle declared by the "
                                "manufacturer (7.1) is not stated"));
  g_assert_true (nb_campaign_set_field (c, "robot.min_avoidance_distance_mm", "100", &error));
  g_free (md);
  md = markdown (c);
  g_assert_nonnull (strstr (md, "| **⚠ 85.5** |"));
  g_assert_nonnull (strstr (md, "b2: trials closer to the obstacle than the declared 100 mm "
                                "(7.1): 2."));
  g_assert_nonnull (strstr (md, "against the minimum distance the manufacturer declared, 100 mm "
                                "(7.1)."));
  configs = nb_campaign_list_configs (c, 7, &error);
  g_array_set_clear_func (configs, (GDestroyNotify) nb_campaign_config_clear);
  g_assert_true (nb_config_result_compute (c, &g_array_index (configs, NbCampaignConfig, 0), &r,
                                           &error));
  nb_assert_abs (r.clearance_min_mm, 85.5, 0.0, "smallest clearance");
  g_assert_cmpuint (r.clearance_measured, ==, 3);
  g_assert_cmpuint (r.too_close->len, ==, 1);
  nb_config_result_clear (&r);
  nb_campaign_free (c);
}

/* ------------------------------------------------------------- 5.4 a -- */

/* A clause 5 trial whose track starts at (x, y, theta) and ends at the
 * command, attained there. */
static void
pose_trial_from (NbCampaign *c, gint64 config, double x, double y, double theta)
{
  const NbTrackSample s[2] = { { 0.0, x, y, theta, NAN }, { 5.0, 5001, 1, 0.1, NAN } };
  NbCampaignTrial t;

  nb_campaign_trial_init (&t);
  t.command = (NbPose) { 5000, 0, 0 };
  t.attained = (NbPose) { 5001, 1, 0.1 };
  record_track_trial (c, config, &t, s, G_N_ELEMENTS (s));
}

/* 5.4 a: every trial starts at P0 — its start pose (the first sample of its
 * track) is checked against P0 within 50 mm and 5°; trials 3 (80 mm off)
 * and 4 (turned 9°) are named; an imported trial has none recorded. */
static void
test_start_pose (void)
{
  NbCampaign *c = new_campaign ("start.nbc");
  g_autofree char *md = NULL;
  NbCampaignConfig config;
  gint64 id;

  config_init (&config, 5, "straight", 0.0);
  config.route = g_strdup ("straight");
  config.command = (NbPose) { 5000, 0, 0 };
  id = add_config (c, &config);
  pose_trial_from (c, id, 0.5, -0.3, 0.2);
  pose_trial_from (c, id, 12, 30, -1);
  pose_trial_from (c, id, 80, 0, 0);
  pose_trial_from (c, id, 0, 0, 9);
  {
    NbCampaignTrial t;

    nb_campaign_trial_init (&t);
    t.command = (NbPose) { 5000, 0, 0 };
    t.attained = (NbPose) { 5002, 0, 0 };
    t.outcome = NB_TRIAL_OK;
    record_trial (c, id, &t);
  }
  md = markdown (c);
  g_assert_nonnull (strstr (md, "| **⚠ straight** |"));
  g_assert_nonnull (strstr (md, "straight: trials that did not start at P0 (5.4 a): 3 (80.0 mm, "
                                "0.00°), 4 (0.0 mm, 9.00°)."));
  g_assert_nonnull (strstr (md, "Start at P0 (5.4 a): each trial's start pose (the first sample "
                                "of its track, or the one an import gave) within 50 mm and 5° of "
                                "P0 (decided): 2 of 4 trials."));
  g_assert_nonnull (strstr (md, "Start at P0 (5.4 a): 1 trial has no track and no start pose "
                                "(imported): its start pose is not recorded."));
  nb_campaign_free (c);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("nb-rules-XXXXXX", NULL);
  g_test_add_func ("/rules/mapping-three-consecutive", test_mapping_consecutive);
  g_test_add_func ("/rules/series-length-7-9", test_series_length);
  g_test_add_func ("/rules/goal-tolerance", test_goal_tolerance);
  g_test_add_func ("/rules/min-distance-7-1", test_min_distance);
  g_test_add_func ("/rules/start-pose-5-4-a", test_start_pose);
  status = g_test_run ();
  {
    g_autoptr (GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir && (name = g_dir_read_name (dir)))
      {
        g_autofree char *p = g_build_filename (tmpdir, name, NULL);

        g_unlink (p);
      }
    g_rmdir (tmpdir);
  }
  return status;
}
