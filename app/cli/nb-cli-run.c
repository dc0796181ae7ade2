/* navbench-cli campaign run — the standard's trials driven on a robot and recorded
 *
 * The campaign runner (protocols/nb-campaign-runner.h) under a GMainLoop, as
 * a window would drive it: one line per progress event on stdout as the
 * trials end (text, or one JSON object per line with --json), then the
 * configuration's figures — the numbers `campaign results` gives, computed
 * from the store by the same code.  SIGINT cancels: the trial in flight is
 * recorded as aborted, the finished ones are kept, the exit status is 1.
 * The event lines are a progress stream and so reach stdout as they happen;
 * the figures line is written only when the run succeeded.
 */
#include "nb-cli.h"

#include "nb-campaign-runner.h"
#include "nb-clause.h"
#include "nb-device.h"
#include "nb-error.h"
#include "nb-http-robot.h"
#include "nb-json-writer.h"
#include "nb-campaign-plan.h"
#include "nb-runner-sim.h"

#include <glib-unix.h>
#include <unistd.h>
#include <math.h>
#include <signal.h>

typedef struct {
  GMainLoop *loop;
  NbCampaignRunner *runner;
  GCancellable *cancellable;
  gboolean json;
  gboolean tty;                 /* progress as one status line on a terminal */
  gint64 started_us;            /* the configuration's run */
  guint config_index, config_count;
  gboolean ok;
  GError *error;
  GError *write_error;
  NbRunnerSummary summary;
} RunCli;

/* One object per line (JSON Lines): the writer's indentation dropped,
 * strings untouched. */
static char *
one_line (char *owned)
{
  char *out = owned;
  gboolean in_string = FALSE, escaped = FALSE;
  gsize j = 0;

  for (gsize i = 0; owned[i] != '\0'; i++)
    {
      char ch = owned[i];

      if (in_string)
        {
          escaped = !escaped && ch == '\\';
          in_string = escaped || ch != '"';
        }
      else if (ch == '"')
        in_string = TRUE;
      else if (ch == '\n')
        {
          while (owned[i + 1] == ' ')
            i++;
          continue;
        }
      out[j++] = ch;
    }
  out[j++] = '\n';
  out[j] = '\0';
  return out;
}

static void
say (RunCli *c, char *owned)
{
  g_autofree char *text = owned;

  if (c->write_error == NULL && !nb_cli_write (text, &c->write_error))
    g_cancellable_cancel (c->cancellable);
}

static void
on_progress (const NbRunnerEvent *ev, gpointer user_data)
{
  RunCli *c = user_data;
  gboolean started = ev->kind == NB_RUNNER_EVENT_TRIAL_STARTED;

  /* A terminal gets one status line: configuration, trial i/N, elapsed, ETA. */
  if (c->tty)
    {
      double elapsed = (g_get_monotonic_time () - c->started_us) / 1e6;
      guint done = started ? ev->trial - 1 : ev->trial;
      double eta = done > 0 ? elapsed / done * (ev->n_trials - MIN (done, ev->n_trials)) : NAN;
      char eta_text[32];
      g_autofree char *which = c->config_count > 0
                               ? g_strdup_printf ("[%u/%u] ", c->config_index, c->config_count)
                               : g_strdup ("");

      say (c, g_strdup_printf ("\r%sclause %u '%s': trial %u/%u %s  elapsed %.1f s  ETA %s  ",
                               which, ev->clause, ev->config, ev->trial, ev->n_trials,
                               started ? "running" : nb_trial_outcome_to_string (ev->outcome),
                               elapsed, isnan (eta) ? "—"
                               : (g_snprintf (eta_text, sizeof eta_text, "%.1f s", eta),
                                  eta_text)));
      return;
    }

  if (c->json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "event"); nb_json_string (w, started ? "trial-started" : "trial-ended");
      nb_json_key (w, "clause"); nb_json_int (w, ev->clause);
      nb_json_key (w, "config"); nb_json_string (w, ev->config);
      nb_json_key (w, "trial"); nb_json_int (w, ev->trial);
      nb_json_key (w, "of"); nb_json_int (w, ev->n_trials);
      nb_json_key (w, "id"); nb_json_int (w, ev->trial_id);
      nb_json_key (w, "seq"); nb_json_int (w, ev->seq);
      nb_json_key (w, "t_s"); nb_json_double (w, ev->t_s);
      if (!started)
        {
          nb_json_key (w, "outcome"); nb_json_string (w, nb_trial_outcome_to_string (ev->outcome));
          nb_json_key (w, "reason");
          if (ev->reason)
            nb_json_string (w, ev->reason);
          else
            nb_json_null (w);
          nb_runner_event_json (w, ev);
          nb_json_key (w, "samples"); nb_json_int (w, (gint64) ev->n_samples);
          nb_json_key (w, "figures");
          nb_json_begin_object (w);
          nb_config_result_json (w, ev->figures);
          nb_json_end_object (w);
        }
      nb_json_end_object (w);
      say (c, one_line (nb_json_writer_finish (g_steal_pointer (&w))));
      return;
    }
  if (started)
    {
      say (c, g_strdup_printf ("trial %u/%u started (seq %u) at %.3f s\n", ev->trial,
                               ev->n_trials, ev->seq, ev->t_s));
      return;
    }
  {
    g_autoptr (GString) figures = g_string_new (NULL);
    g_autofree char *what = nb_runner_event_text (ev);

    nb_config_result_text (figures, ev->figures);
    say (c, g_strdup_printf ("trial %u/%u %s%s%s%s%s; %s\n", ev->trial, ev->n_trials,
                             nb_trial_outcome_to_string (ev->outcome), what ? ": " : "",
                             what ? what : "", ev->reason ? ": " : "",
                             ev->reason ? ev->reason : "", figures->str));
  }
}

static void
on_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  RunCli *c = user_data;

  c->ok = nb_campaign_runner_run_finish (c->runner, result, &c->summary, &c->error);
  g_main_loop_quit (c->loop);
}

static gboolean
on_sigint (gpointer user_data)
{
  RunCli *c = user_data;

  g_cancellable_cancel (c->cancellable);
  return G_SOURCE_CONTINUE;
}

/* campaign run --standard iso9283 is the ISO 9283 pose test (nb-cli-iso9283-run.c). */
static gboolean
wants_iso9283 (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--standard=iso9283") ||
        (g_str_equal (argv[i], "--standard") && i + 1 < argc && g_str_equal (argv[i + 1], "iso9283")))
      return TRUE;
  return FALSE;
}

static int campaign_run_18646 (int argc, char **argv);
static int run_config (RunCli *c, const char *db, const NbCampaignRunnerOptions *o,
                       const NbRunnerRig *rig);
static int run_plan (RunCli *c, const char *db, const NbCampaignRunnerOptions *base,
                     const NbRunnerRig *rig, guint only_clause, const char *only_config);

int
nb_cli_campaign_run (int argc, char **argv)
{
  if (wants_iso9283 (argc, argv))
    return nb_cli_iso9283_run (argc, argv);
  return campaign_run_18646 (argc, argv);
}

/* What this run will ask the operator of a real robot, for the message
 * that asks for an answerer (NULL in *asks: nothing): the first clause it
 * runs that asks (NbClause.driven_asks, the clause module's; every clause
 * of an operator-driven robot asks, the robot at P0).  --all: the plan's
 * configurations left to run (those of --clause N). */
static gboolean
run_asks (const char *db, gboolean all, guint clause, const char *config, gboolean operator,
          char **asks, GError **error)
{
  g_autoptr (GArray) pending = NULL;
  const NbClause *cl;

  *asks = NULL;
  if (all)
    {
      g_autoptr (NbCampaign) rw = nb_campaign_open (db, 0, error);

      if (rw == NULL || (pending = nb_plan_pending (rw, clause, config, error)) == NULL ||
          !nb_campaign_close (g_steal_pointer (&rw), error))
        return FALSE;
    }
  for (guint i = 0; all ? i < pending->len : i < 1; i++)
    {
      cl = nb_clause_lookup (all ? g_array_index (pending, NbPlanEntry, i).clause : clause);
      if (cl == NULL || cl->runner == NULL)
        continue;
      if (operator || cl->driven_asks != NULL)
        {
          *asks = g_strdup_printf ("clause %u asks the operator %s", cl->number,
                                   operator ? "to bring the robot to P0 and say when it is there"
                                            : cl->driven_asks);
          return TRUE;
        }
    }
  return TRUE;
}

static int
campaign_run_18646 (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *db = NULL, *config = NULL, *route = NULL, *load_text = NULL;
  g_autofree char *robot = NULL, *who = NULL, *obstacle = NULL, *phase = NULL;
  g_autofree char *width_text = NULL, *tol_text = NULL, *tol_deg_text = NULL;
  g_autofree char *min_text = NULL, *max_text = NULL;
  g_autofree char *range_text = NULL, *map_dir = NULL;
  g_autofree char *instrument = NULL, *url = NULL, *port = NULL;
  g_auto (GStrv) settings = NULL;
  g_autoptr (NbDevice) device = NULL;
  g_autoptr (NbHttpRobot) http = NULL;
  g_autoptr (NbPrompts) prompter = NULL;
  g_autofree char *prompts = NULL;
  gint baud = 0;
  gint behaviour = 0;
  g_autoptr (NbRunnerSim) sim = NULL;
  g_autoptr (NbCampaignRunner) runner = NULL;
  g_autoptr (GMainLoop) loop = NULL;
  g_autoptr (GCancellable) cancellable = NULL;
  gint clause = 0, trials = 0;
  gboolean all = FALSE;
  gint64 seed = 1;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "clause", 0, 0, G_OPTION_ARG_INT, &clause, "the test clause: 5 to 10", "N" },
    { "all", 0, 0, G_OPTION_ARG_NONE, &all,
      "every configuration of the campaign's plan not complete, with the standard's trial "
      "counts (with --clause N: those of clause N; the plan is made on the first use)", NULL },
    { "config", 0, 0, G_OPTION_ARG_STRING, &config,
      "the configuration (created on the first run)", "NAME" },
    { "route", 0, 0, G_OPTION_ARG_STRING, &route,
      "straight (default), rectangular or combined (clause 5)", "R" },
    { "load-kg", 0, 0, G_OPTION_ARG_STRING, &load_text, "the load carried (default 0: no load)",
      "KG" },
    { "trials", 0, 0, G_OPTION_ARG_INT, &trials,
      "trials to run (default: up to the clause's counted trials: 30; 7: 3 with the obstacle "
      "after 3 good baseline ones; 9: 5)", "N" },
    { "min-range-mm", 0, 0, G_OPTION_ARG_STRING, &min_text,
      "clause 6: the declared minimum range (sim-base declares 300)", "MM" },
    { "max-range-mm", 0, 0, G_OPTION_ARG_STRING, &max_text,
      "clause 6: the declared maximum range (sim-base declares 4000)", "MM" },
    { "obstacle", 0, 0, G_OPTION_ARG_STRING, &obstacle,
      "clause 6 (default: all six) or 7: the table 2 obstacle (wooden wall, glass wall, wooden table, metal table, "
      "large cylinder, small cylinder)", "NAME" },
    { "behaviour", 0, 0, G_OPTION_ARG_INT, &behaviour,
      "clause 7: 1 static at P1 (default), 2 crossing at 90°, 3 at 45°, 4 head-on", "B" },
    { "phase", 0, 0, G_OPTION_ARG_STRING, &phase,
      "clause 7: auto (default: baseline, then with the obstacle), baseline or obstacle", "P" },
    { "passage-width-mm", 0, 0, G_OPTION_ARG_STRING, &width_text,
      "clause 9: the passage's declared width (default robot.width_mm + 200)", "MM" },
    { "defect-range-mm", 0, 0, G_OPTION_ARG_STRING, &range_text,
      "clause 10: the experts' accepted range of map defects (10.2), recorded in the campaign "
      "(mapping.accepted_defect_range_mm; default: the recorded one, else none accepted)", "MM" },
    { "map-dir", 0, 0, G_OPTION_ARG_FILENAME, &map_dir,
      "clause 10: where the simulator writes its maps (default: F-maps beside the campaign)",
      "DIR" },
    { "goal-tolerance-mm", 0, 0, G_OPTION_ARG_STRING, &tol_text,
      "clauses 7, 9: PG reached within (default: Ap + Rp of clause 5, straight route)", "MM" },
    { "goal-tolerance-deg", 0, 0, G_OPTION_ARG_STRING, &tol_deg_text,
      "clauses 7, 9: heading at PG within (default: |Ao| + Ro of clause 5)", "DEG" },
    { "robot", 0, 0, G_OPTION_ARG_STRING, &robot,
      "sim-base (the simulated base and its tracker; default), http://HOST:PORT (the motion "
      "stack's HTTP API) or operator (the robot runs its own program; the trials are found in "
      "the instrument's stream); the last two need --instrument", "ROBOT" },
    { "prompts", 0, 0, G_OPTION_ARG_STRING, &prompts,
      "how the operator answers, where the clause run asks something (a real robot): tty "
      "(default on a terminal), a file of answers (one a line), or auto (every confirmation "
      "yes, every judgement from the measurements)", "tty|FILE|auto" },
    { "instrument", 0, 0, G_OPTION_ARG_STRING, &instrument,
      "the instrument driver that measures (nmea, geocom, natnet, csv, tum, sim), as acquire "
      "opens it", "DRIVER" },
    { "url", 0, 0, G_OPTION_ARG_STRING, &url,
      "the instrument's tcp://HOST:PORT, udp://GROUP:PORT or a recording", "URL" },
    { "port", 0, 0, G_OPTION_ARG_FILENAME, &port, "the instrument's serial port", "DEV" },
    { "baud", 0, 0, G_OPTION_ARG_INT, &baud, "the serial baud rate", "B" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &settings,
      "an instrument setting: latency=S, loss-timeout=S, origin=LAT,LON,H, … (repeatable)",
      "KEY=VALUE" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "the simulator's seed (default 1; the trials already in the campaign are added to it, "
      "so that a resumed run does not repeat their measurements)", "S" },
    { "who", 0, 0, G_OPTION_ARG_STRING, &who, "who the event log names", "W" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object per line", NULL },
    { NULL }
  };
  NbCampaignRunnerOptions o;
  NbRunnerSimOptions so;
  NbRunnerRig rig;
  RunCli c = { 0 };
  double load = NAN;

  g_option_context_set_summary (context,
    "Drives the robot through the trials of ISO 18646-2 clause 5 (pose accuracy and\n"
    "repeatability: settle detection at the command pose), 6 (obstacle detection: each\n"
    "table 2 obstacle at the declared ranges in 8 directions), 7 (obstacle avoidance:\n"
    "baseline trials, then with the obstacle; T0, T1, passed), 8 (path deviation: the\n"
    "track along the straight route), 9 (narrow passage: passage time, wall\n"
    "contact) or 10 (mapping accuracy: a map of the 7 LU arena per trial, the\n"
    "simulator's or the robot's own, asked for), laid out from the campaign's LU,\n"
    "and records each trial and its samples\n"
    "as it ends.  Prints one line per trial event, then the configuration's figures\n"
    "(those of 'campaign results').");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (db == NULL || (!all && (config == NULL || clause == 0)))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--db F, and --all or --clause N --config "
                   "NAME, are required");
      return nb_cli_report_error (error);
    }
  if (all && trials != 0)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--all runs the standard's trial counts: "
                   "--trials N is for one configuration (--clause N --config NAME)");
      return nb_cli_report_error (error);
    }
  if (all && config != NULL)
    {
      /* A configuration of the plan runs as planned; any other name as an
       * extra configuration, as without --all. */
      g_autoptr (NbCampaign) rw = nb_campaign_open (db, 0, &error);
      g_autoptr (GArray) plan = NULL;
      gboolean planned = FALSE, made;

      if (rw == NULL || !nb_plan_ensure (rw, &made, &error) ||
          (plan = nb_campaign_plan_list (rw, &error)) == NULL ||
          !nb_campaign_close (g_steal_pointer (&rw), &error))
        return nb_cli_report_error (error);
      for (guint i = 0; i < plan->len; i++)
        planned |= g_str_equal (g_array_index (plan, NbPlanEntry, i).config, config) &&
                   (clause == 0 || g_array_index (plan, NbPlanEntry, i).clause == (guint) clause);
      if (!planned)
        all = FALSE;
      if (!planned && clause == 0)
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--config %s is not in the plan: give "
                       "--clause N to run it as an extra configuration", config);
          return nb_cli_report_error (error);
        }
    }
  if (robot != NULL && !g_str_equal (robot, "sim-base") && !g_str_equal (robot, "operator") &&
      !g_str_has_prefix (robot, "http://"))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--robot '%s': sim-base, operator or "
                   "http://HOST:PORT", robot);
      return nb_cli_report_error (error);
    }
  if (robot != NULL && g_str_equal (robot, "operator") && instrument == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--robot operator: the trials are found in "
                   "an instrument's stream: give --instrument DRIVER (--url URL | --port DEV)");
      return nb_cli_report_error (error);
    }
  if ((url != NULL || port != NULL || baud != 0 || settings != NULL) && instrument == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--url, --port, --baud and --set are the "
                   "instrument's: give --instrument DRIVER");
      return nb_cli_report_error (error);
    }
  if (url != NULL && port != NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "give --url or --port, not both");
      return nb_cli_report_error (error);
    }
  if (robot != NULL && g_str_has_prefix (robot, "http://") && instrument == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--robot %s: a real robot is measured by a "
                   "real instrument: give --instrument DRIVER (--url URL | --port DEV)", robot);
      return nb_cli_report_error (error);
    }
  if ((robot == NULL || g_str_equal (robot, "sim-base")) && instrument != NULL &&
      !g_str_equal (instrument, "sim"))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--instrument %s cannot see the simulated "
                   "base: use --robot http://HOST:PORT (or the default sim tracker)", instrument);
      return nb_cli_report_error (error);
    }
  if ((robot == NULL || g_str_equal (robot, "sim-base")) &&
      (url != NULL || port != NULL || settings != NULL))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "the simulated base's tracker is the rig's "
                   "own: it takes no --url, --port or --set");
      return nb_cli_report_error (error);
    }
  if (trials < 0 || seed < 0 || seed > G_MAXUINT32 - 1)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, trials < 0 ? "--trials N: N ≥ 1"
                                                                : "--seed S: 0 to 4294967294");
      return nb_cli_report_error (error);
    }
  if (load_text != NULL && !nb_cli_parse_numbers ("load-kg", load_text, &load, 1, "KG", &error))
    return nb_cli_report_error (error);
  /* The options each clause takes are its module's to say (nb-clause.h). */
  if (nb_clause_lookup ((guint) clause) != NULL)
    {
      const NbClause *cl = nb_clause_lookup ((guint) clause);

      if (((behaviour || phase) &&
           !nb_clause_refuse_option (cl, NB_CLAUSE_OPT_BEHAVIOUR, "--behaviour and --phase",
                                     &error)) ||
          (obstacle && !nb_clause_refuse_option (cl, NB_CLAUSE_OPT_OBSTACLE, "--obstacle",
                                                 &error)) ||
          ((min_text || max_text) &&
           !nb_clause_refuse_option (cl, NB_CLAUSE_OPT_RANGES,
                                     "--min-range-mm and --max-range-mm", &error)) ||
          (width_text && !nb_clause_refuse_option (cl, NB_CLAUSE_OPT_PASSAGE_WIDTH,
                                                   "--passage-width-mm", &error)) ||
          ((tol_text || tol_deg_text) &&
           !nb_clause_refuse_option (cl, NB_CLAUSE_OPT_GOAL_TOLERANCE,
                                     "--goal-tolerance-mm/-deg", &error)) ||
          ((range_text || map_dir) &&
           !nb_clause_refuse_option (cl, NB_CLAUSE_OPT_MAP, "--defect-range-mm and --map-dir",
                                     &error)) ||
          (trials > 0 && !nb_clause_refuse_option (cl, NB_CLAUSE_OPT_TRIALS, "--trials",
                                                   &error)))
        return nb_cli_report_error (error);
    }
  if (behaviour < 0 || behaviour > 4)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--behaviour %d: 1 to 4 (7.2)", behaviour);
      return nb_cli_report_error (error);
    }
  if (phase && !g_str_equal (phase, "auto") && !g_str_equal (phase, "baseline") &&
      !g_str_equal (phase, "obstacle"))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--phase '%s': auto, baseline or obstacle",
                   phase);
      return nb_cli_report_error (error);
    }

  nb_campaign_runner_options_init (&o);
  o.clause = (guint) clause;
  o.config = config;
  o.route = route;
  o.load_kg = load;
  o.trials = (guint) trials;
  o.obstacle = obstacle;
  o.behaviour = (guint) behaviour;
  o.phase = phase == NULL || g_str_equal (phase, "auto") ? NB_AVOIDANCE_PHASE_AUTO
            : g_str_equal (phase, "baseline") ? NB_AVOIDANCE_PHASE_BASELINE
                                              : NB_AVOIDANCE_PHASE_OBSTACLE;
  if ((width_text && !nb_cli_parse_numbers ("passage-width-mm", width_text, &o.passage_width_mm,
                                            1, "MM", &error)) ||
      (tol_text && !nb_cli_parse_numbers ("goal-tolerance-mm", tol_text, &o.goal_tolerance_mm, 1,
                                          "MM", &error)) ||
      (tol_deg_text && !nb_cli_parse_numbers ("goal-tolerance-deg", tol_deg_text,
                                              &o.goal_tolerance_deg, 1, "DEG", &error)) ||
      (min_text && !nb_cli_parse_numbers ("min-range-mm", min_text, &o.min_range_mm, 1, "MM",
                                          &error)) ||
      (max_text && !nb_cli_parse_numbers ("max-range-mm", max_text, &o.max_range_mm, 1, "MM",
                                          &error)) ||
      (range_text && !nb_cli_parse_numbers ("defect-range-mm", range_text, &o.defect_range_mm,
                                            1, "MM", &error)))
    return nb_cli_report_error (error);
  if (range_text && !(o.defect_range_mm >= 0.0))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--defect-range-mm %s: a range ≥ 0 mm",
                   range_text);
      return nb_cli_report_error (error);
    }
  o.map_dir = map_dir;
  /* What the simulated base's manufacturer declares (nb-runner-sim.h); a
   * real robot's declaration is given (--min-range-mm, --max-range-mm). */
  if ((robot == NULL || g_str_equal (robot, "sim-base")) &&
      nb_clause_lookup ((guint) clause) != NULL &&
      nb_clause_takes (nb_clause_lookup ((guint) clause), NB_CLAUSE_OPT_RANGES) && !min_text &&
      !max_text)
    o.min_range_mm = NB_RUNNER_SIM_MIN_RANGE_MM, o.max_range_mm = NB_RUNNER_SIM_MAX_RANGE_MM;
  o.who = who;
  o.robot_name = "sim-base (simulated base, simulated tracker)";
  nb_runner_sim_options_init (&so);
  so.seed = (guint32) seed;
  /* A resumed run must not repeat the measurements of the trials already
   * there: the simulator's stream starts past them (seed + their count),
   * still the same for the same campaign and seed. */
  {
    g_autoptr (NbCampaign) existing = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, NULL);
    NbCampaignCounts counts;

    if (existing != NULL && nb_campaign_get_counts (existing, &counts, NULL))
      so.seed = (guint32) ((guint64) seed + counts.trials);
  }
  if (prompts != NULL && !g_str_equal (prompts, "tty") && !g_str_equal (prompts, "auto"))
    {
      if ((prompter = nb_prompts_new_file (prompts, who, &error)) == NULL)
        return nb_cli_report_error (error);
    }
  else if (prompts != NULL && g_str_equal (prompts, "auto"))
    prompter = nb_prompts_new_auto ("auto");
  else if (robot != NULL && (g_str_equal (robot, "operator") || g_str_has_prefix (robot, "http")))
    {
      /* An answerer is needed only where the clause's method asks (5 and
       * 8 driven over HTTP ask nothing: the bench sends the robot to P0
       * and measures it). */
      g_autofree char *asks = NULL;

      if (prompts == NULL && !isatty (STDIN_FILENO))
        {
          if (!run_asks (db, all, (guint) clause, config, g_str_equal (robot, "operator"),
                         &asks, &error))
            return nb_cli_report_error (error);
          if (asks != NULL)
            {
              g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "the operator's answers: %s, and "
                           "standard input is not a terminal: give --prompts FILE or --prompts "
                           "auto", asks);
              return nb_cli_report_error (error);
            }
        }
      else
        prompter = nb_prompts_new_tty (who ? who : "operator");
    }
  if (robot != NULL && g_str_equal (robot, "operator"))
    {
      memset (&rig, 0, sizeof rig);
      if (!nb_cli_open_instrument (instrument, url, port, baud, settings, &device, &error))
        return nb_cli_report_error (error);
      rig.device = device;
      rig.prompts = prompter;
      o.robot_name = "operator-driven (trials segmented from the instrument's stream)";
    }
  else if (robot != NULL && g_str_has_prefix (robot, "http://"))
    {
      /* The motion stack's own robot, measured by the lab's instrument. */
      memset (&rig, 0, sizeof rig);
      if ((http = nb_http_robot_new (robot, g_getenv ("NAVBENCH_TOKEN"), 600.0, &error)) == NULL ||
          !nb_cli_open_instrument (instrument, url, port, baud, settings, &device, &error))
        return nb_cli_report_error (error);
      rig.robot_ops = nb_http_robot_ops ();
      rig.robot = http;
      rig.device = device;
      rig.prompts = prompter;
      o.robot_name = robot;
    }
  else
    {
      if ((sim = nb_runner_sim_new (&so, &error)) == NULL)
        return nb_cli_report_error (error);
      nb_runner_sim_rig (sim, &rig);
      /* The simulation answers, unless --prompts says who does. */
      rig.prompts = prompter;
    }
  cancellable = g_cancellable_new ();
  c.cancellable = cancellable;
  c.json = json;
  c.tty = !json && isatty (STDOUT_FILENO);
  if (all)
    return run_plan (&c, db, &o, &rig, (guint) clause, config);
  return run_config (&c, db, &o, &rig);
}

/* One configuration run under the main loop; the CLI's exit status. */
static int
run_config (RunCli *c, const char *db, const NbCampaignRunnerOptions *o, const NbRunnerRig *rig)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaignRunner) runner = NULL;
  g_autoptr (GMainLoop) loop = NULL;
  guint clause = o->clause;
  const char *config = o->config;
  gboolean json = c->json;
  guint sigint;

  if ((runner = nb_campaign_runner_new (db, o, rig, &error)) == NULL)
    return nb_cli_report_error (error);

  loop = g_main_loop_new (NULL, FALSE);
  c->loop = loop;
  c->runner = runner;
  c->ok = FALSE;
  c->started_us = g_get_monotonic_time ();
  sigint = g_unix_signal_add (SIGINT, on_sigint, c);
  nb_campaign_runner_run_async (runner, c->cancellable, on_progress, c, on_done, c);
  g_main_loop_run (loop);
  g_source_remove (sigint);
  if (c->tty)
    say (c, g_strdup ("\n"));

  if (c->write_error != NULL)
    {
      nb_runner_summary_clear (&c->summary);
      g_clear_error (&c->error);
      g_propagate_error (&error, g_steal_pointer (&c->write_error));
      return nb_cli_report_error (error);
    }
  if (!c->ok)
    {
      if (g_error_matches (c->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Cancelled is a runtime outcome, not bad input. */
          g_set_error (&error, NB_ERROR, NB_ERROR_FAILED, "%s", c->error->message);
          g_clear_error (&c->error);
        }
      else
        error = g_steal_pointer (&c->error);
      nb_runner_summary_clear (&c->summary);
      return nb_cli_report_error (error);
    }
  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "event"); nb_json_string (w, "figures");
      nb_json_key (w, "clause"); nb_json_int (w, clause);
      nb_json_key (w, "run"); nb_json_int (w, c->summary.run);
      nb_json_key (w, "ok"); nb_json_int (w, c->summary.ok);
      nb_json_key (w, "failed"); nb_json_int (w, c->summary.failed);
      nb_json_key (w, "aborted"); nb_json_int (w, c->summary.aborted);
      nb_json_key (w, "figures");
      nb_json_begin_object (w);
      nb_config_result_json (w, &c->summary.figures);
      nb_json_end_object (w);
      nb_json_end_object (w);
      say (c, one_line (nb_json_writer_finish (g_steal_pointer (&w))));
    }
  else
    {
      g_autoptr (GString) figures = g_string_new (NULL);

      nb_config_result_text (figures, &c->summary.figures);
      say (c, g_strdup_printf ("Clause %u — %s, config '%s': %u run (%u ok, %u failed, "
                               "%u aborted)\n%s\n", clause, nb_clause_get (clause)->title,
                               config, c->summary.run, c->summary.ok, c->summary.failed,
                               c->summary.aborted, figures->str));
    }
  nb_runner_summary_clear (&c->summary);
  if (c->write_error != NULL)
    {
      g_propagate_error (&error, g_steal_pointer (&c->write_error));
      return nb_cli_report_error (error);
    }
  return NB_EXIT_OK;
}

/* --all: every planned configuration not complete, in plan order (or
 * those of --clause N), each to the standard's count.  The campaign is
 * opened for the plan and closed before each configuration runs (the
 * runner is its one writer). */
static int
run_plan_configs (RunCli *c, const char *db, const NbCampaignRunnerOptions *base,
                  const NbRunnerRig *rig, guint only_clause, const char *only_config);

/* Ctrl-C between two configurations (no runner yet) stops the plan too:
 * the signal is the bench's for the whole of --all, not only while a
 * configuration runs. */
static int
run_plan (RunCli *c, const char *db, const NbCampaignRunnerOptions *base, const NbRunnerRig *rig,
          guint only_clause, const char *only_config)
{
  guint guard = g_unix_signal_add (SIGINT, on_sigint, c);
  int rc = run_plan_configs (c, db, base, rig, only_clause, only_config);

  g_source_remove (guard);
  return rc;
}

static int
run_plan_configs (RunCli *c, const char *db, const NbCampaignRunnerOptions *base,
                  const NbRunnerRig *rig, guint only_clause, const char *only_config)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) plan = NULL;
  guint ran = 0;

  {
    g_autoptr (NbCampaign) campaign = nb_campaign_open (db, 0, &error);

    if (campaign == NULL ||
        (plan = nb_plan_pending (campaign, only_clause, only_config, &error)) == NULL ||
        !nb_campaign_close (g_steal_pointer (&campaign), &error))
      return nb_cli_report_error (error);
  }
  for (guint i = 0; i < plan->len; i++)
    {
      const NbPlanEntry *e = &g_array_index (plan, NbPlanEntry, i);
      const NbClause *clause = nb_clause_lookup (e->clause);
      NbCampaignRunnerOptions o;
      int rc;

      if (clause->runner == NULL)
        {
          if (!c->json)
            say (c, g_strdup_printf ("Clause %u '%s': not driven by the runner; record its "
                                     "trials with campaign import\n", e->clause, e->config));
          continue;
        }
      nb_plan_runner_options (e, base, &o);
      /* The simulated base's declared ranges (a real robot's are given). */
      if (rig->rig_ops != NULL && nb_clause_takes (clause, NB_CLAUSE_OPT_RANGES) &&
          isnan (o.min_range_mm))
        o.min_range_mm = NB_RUNNER_SIM_MIN_RANGE_MM, o.max_range_mm = NB_RUNNER_SIM_MAX_RANGE_MM;
      c->config_index = i + 1;
      c->config_count = plan->len;
      if ((rc = run_config (c, db, &o, rig)) != NB_EXIT_OK)
        return rc;
      ran++;
      if (g_cancellable_is_cancelled (c->cancellable))
        {
          /* Ctrl-C as a configuration ended: nothing was in flight. */
          g_set_error (&error, NB_ERROR, NB_ERROR_FAILED, "interrupted after configuration "
                       "'%s' (clause %u) ended: no trial was in flight; the same command goes "
                       "on from here", e->config, e->clause);
          return nb_cli_report_error (error);
        }
    }
  if (!c->json)
    say (c, g_strdup_printf ("The plan: %u configuration(s) run; see campaign plan --db %s\n",
                             ran, db));
  return c->write_error == NULL ? NB_EXIT_OK : NB_EXIT_FAILURE;
}

gboolean
nb_cli_import_track (const char *db, guint clause, const char *config, const char *route,
                     double load_kg, const char *track, const char *who, GError **error)
{
  NbCampaignRunnerOptions o;
  NbRunnerSummary sum;
  gboolean ok;

  if (config == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--config NAME is required");
      return FALSE;
    }
  nb_campaign_runner_options_init (&o);
  o.clause = clause;
  o.config = config;
  o.route = route;
  o.load_kg = load_kg;
  o.who = who;
  o.robot_name = track;
  ok = nb_campaign_import_track (db, &o, track, &sum, error);
  if (ok)
    {
      g_autofree char *line = g_strdup_printf ("%u trials found in %s: %u ok, %u failed, %u "
                                               "incomplete\n", sum.run, track, sum.ok,
                                               sum.failed, sum.incomplete);

      ok = nb_cli_write (line, error);
    }
  nb_runner_summary_clear (&sum);
  return ok;
}

/* ------------------------------------------------------- campaign plan -- */

int
nb_cli_campaign_plan (int argc, char **argv)
{
  /* campaign plan --standard iso9283: ISO 9283's plan (nb-cli-iso9283-run.c). */
  if (wants_iso9283 (argc, argv))
    return nb_cli_iso9283_plan (argc, argv);

  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autoptr (GArray) plan = NULL;
  g_autoptr (GArray) configs = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (NbJsonWriter) w = NULL;
  g_autofree char *db = NULL, *exclude = NULL, *include = NULL, *reason = NULL, *who = NULL;
  gboolean json = FALSE, made = FALSE;
  const NbPlanEntry *next = NULL;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "the plan as one JSON object", NULL },
    { "exclude", 0, 0, G_OPTION_ARG_STRING, &exclude,
      "take a configuration out of scope (with --reason)", "CLAUSE:CONFIG" },
    { "include", 0, 0, G_OPTION_ARG_STRING, &include, "bring it back in scope", "CLAUSE:CONFIG" },
    { "reason", 0, 0, G_OPTION_ARG_STRING, &reason,
      "why it is out of scope (the manufacturer's declaration; the protocol prints it)", "TEXT" },
    { "who", 0, 0, G_OPTION_ARG_STRING, &who, "who the event log names", "W" },
    { NULL }
  };

  g_option_context_set_summary (context,
    "The campaign's plan: every configuration ISO 18646-2 prescribes for this robot and\n"
    "its conditions (made from robot.width_mm, robot.rated_load_kg and\n"
    "conditions.environment on the first use and stored), each with its state (not\n"
    "started, k/N trials, complete, passed/failed where the clause judges) and what\n"
    "'campaign run --all' runs next.  Configurations the plan does not hold are listed\n"
    "as extra.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (db == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--db F is required");
      return nb_cli_report_error (error);
    }
  if ((exclude != NULL) == (reason == NULL) && exclude != NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--exclude needs --reason TEXT");
      return nb_cli_report_error (error);
    }
  if ((campaign = nb_campaign_open (db, 0, &error)) == NULL)
    return nb_cli_report_error (error);
  if (who)
    nb_campaign_set_who (campaign, who);
  if (!nb_plan_ensure (campaign, &made, &error))
    return nb_cli_report_error (error);
  for (guint k = 0; k < 2; k++)
    {
      const char *arg = k == 0 ? exclude : include;
      g_auto (GStrv) parts = NULL;
      guint64 n;

      if (arg == NULL)
        continue;
      parts = g_strsplit (arg, ":", 2);
      if (g_strv_length (parts) != 2 ||
          !g_ascii_string_to_unsigned (parts[0], 10, 5, 10, &n, NULL))
        {
          g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--%s '%s': CLAUSE:CONFIG, such as "
                       "5:combined-rated-load", k == 0 ? "exclude" : "include", arg);
          return nb_cli_report_error (error);
        }
      if (!nb_campaign_plan_set_scope (campaign, (guint) n, parts[1], k == 1, reason, &error))
        return nb_cli_report_error (error);
    }
  if ((plan = nb_campaign_plan_list (campaign, &error)) == NULL ||
      (configs = nb_campaign_list_configs (campaign, 0, &error)) == NULL)
    return nb_cli_report_error (error);
  g_array_set_clear_func (configs, (GDestroyNotify) nb_campaign_config_clear);
  if (json)
    {
      w = nb_json_writer_new ();
      nb_json_begin_object (w);
      nb_json_key (w, "made"); nb_json_bool (w, made);
      nb_json_key (w, "configs");
      nb_json_begin_array (w);
    }
  else
    g_string_append_printf (out, "%-7s %-24s %-14s %s\n", "clause", "configuration", "trials",
                            "state");
  for (guint i = 0; i < plan->len; i++)
    {
      const NbPlanEntry *e = &g_array_index (plan, NbPlanEntry, i);
      NbPlanStatus st;

      if (!nb_plan_status (campaign, e, &st, &error))
        return nb_cli_report_error (error);
      if (next == NULL && nb_plan_runs_next (e, &st))
        next = e;
      if (json)
        {
          nb_json_begin_object (w);
          nb_json_key (w, "clause"); nb_json_int (w, e->clause);
          nb_json_key (w, "config"); nb_json_string (w, e->config);
          nb_json_key (w, "state"); nb_json_string (w, nb_plan_state_name (st.state));
          nb_json_key (w, "trials"); nb_json_int (w, st.done);
          nb_json_key (w, "of"); nb_json_int (w, st.needed);
          nb_json_key (w, "in_scope"); nb_json_bool (w, e->in_scope);
          nb_json_key (w, "reason");
          if (e->reason)
            nb_json_string (w, nb_plan_reason_text (NULL, e->reason));
          else
            nb_json_null (w);
          /* The plan's own reason by its key (language-neutral); null for
           * the engineer's words. */
          nb_json_key (w, "reason_key");
          if (nb_plan_reason_key (e->reason) != NULL)
            nb_json_string (w, nb_plan_reason_key (e->reason));
          else
            nb_json_null (w);
          nb_json_end_object (w);
        }
      else
        {
          g_autofree char *count = g_strdup_printf ("%u/%u", st.done, st.needed);

          g_string_append_printf (out, "%-7u %-24s %-14s %s%s%s\n", e->clause, e->config, count,
                                  nb_plan_state_name (st.state), e->reason ? ": " : "",
                                  e->reason ? nb_plan_reason_text (NULL, e->reason) : "");
        }
    }
  if (json)
    {
      nb_json_end_array (w);
      nb_json_key (w, "extra");
      nb_json_begin_array (w);
    }
  for (guint i = 0; i < configs->len; i++)
    {
      const NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);
      gboolean planned = FALSE;

      for (guint k = 0; k < plan->len && !planned; k++)
        planned = g_array_index (plan, NbPlanEntry, k).clause == c->clause &&
                  g_str_equal (g_array_index (plan, NbPlanEntry, k).config, c->name);
      if (planned)
        continue;
      if (json)
        {
          nb_json_begin_object (w);
          nb_json_key (w, "clause"); nb_json_int (w, c->clause);
          nb_json_key (w, "config"); nb_json_string (w, c->name);
          nb_json_end_object (w);
        }
      else
        g_string_append_printf (out, "%-7u %-24s %-14s extra configuration (not in the plan)\n",
                                c->clause, c->name, "");
    }
  if (json)
    {
      nb_json_end_array (w);
      nb_json_key (w, "next");
      if (next != NULL)
        {
          nb_json_begin_object (w);
          nb_json_key (w, "clause"); nb_json_int (w, next->clause);
          nb_json_key (w, "config"); nb_json_string (w, next->config);
          nb_json_end_object (w);
        }
      else
        nb_json_null (w);
    }
  else if (next != NULL)
    g_string_append_printf (out, "next: clause %u '%s' (campaign run --db %s --all)\n",
                            next->clause, next->config, db);
  else
    g_string_append (out, "next: nothing the runner drives is left\n");
  /* ISO 9283's plan after ISO 18646-2's, when the file holds one (made by
   * `campaign plan --standard iso9283`, docs/iso9283.md). */
  {
    g_autoptr (GArray) plan_9283 = nb_campaign_iso9283_plan_list (campaign, &error);
    const NbIso9283PlanEntry *next_9283 = NULL;

    if (plan_9283 == NULL)
      return nb_cli_report_error (error);
    if (plan_9283->len > 0)
      {
        if (json)
          {
            nb_json_key (w, "iso9283");
            nb_json_begin_array (w);
          }
        else
          g_string_append_printf (out, "\nISO 9283 (campaign plan --standard iso9283 --db %s):\n"
                                  "%-14s %-26s %-6s %-6s %-8s %s\n", db, "clause",
                                  "configuration", "speed", "load", "cycles", "state");
        if (!nb_cli_iso9283_plan_rows (campaign, plan_9283, json ? w : NULL, out, &next_9283,
                                       &error))
          return nb_cli_report_error (error);
        if (json)
          {
            nb_json_end_array (w);
            nb_json_key (w, "iso9283_next");
            if (next_9283 != NULL)
              nb_json_string (w, next_9283->config);
            else
              nb_json_null (w);
          }
        else if (next_9283 != NULL)
          g_string_append_printf (out, "next: '%s' (campaign run --standard iso9283 --db %s "
                                  "--all)\n", next_9283->config, db);
        else
          g_string_append (out, "next: nothing of ISO 9283 is left\n");
      }
  }
  if (json)
    nb_json_end_object (w);
  if (!nb_campaign_close (g_steal_pointer (&campaign), &error))
    return nb_cli_report_error (error);
  if (json)
    {
      g_autofree char *text = nb_json_writer_finish (g_steal_pointer (&w));

      if (!nb_cli_write (text, &error) || !nb_cli_write ("\n", &error))
        return nb_cli_report_error (error);
    }
  else if (!nb_cli_write (out->str, &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}
