/* navbench-cli campaign run --standard iso9283 — the ISO 9283 pose test on the arm
 *
 * The clause 6 cube at the operator's placement (largest edge the arm's
 * model reaches there), the pose test's sequence P1 → P5 → P4 → P3 → P2 → P1
 * for --cycles cycles, sent to the simulated arm (with its error model,
 * watched by the simulated tracker at 1 kHz) or to the motion stack over
 * HTTP (--robot http://HOST:PORT; measured by a simulated tracker watching
 * the served arm's reported joints through the true arm's geometry), then
 * AP and RP per pose (7.2).  With --instrument DRIVER --url URL (the names
 * `campaign run --instrument` uses for the mobile base) the served arm is
 * measured by that live 6-DoF instrument through NbDevice instead: the
 * mean of its poses over a window after each goal (nb_iso9283_measure_device).
 * --output DIR writes each pose's attained poses
 * as DIR/P1.csv … P5.csv, the table `compute iso9283 pose` reads;
 * --db F --config NAME records the run.
 *
 * --db F --all runs the file's ISO 9283 plan instead (nb_iso9283_run_plan:
 * every characteristic's clause module, cycle by cycle, resumed after a
 * kill), and `campaign plan --standard iso9283` shows it (docs/iso9283.md).
 */
#include "nb-cli.h"

#include "nb-arm-file.h"
#include "nb-campaign-iso9283.h"
#include "nb-clause-9283.h"
#include "nb-error.h"
#include "nb-http-robot.h"
#include "nb-iso9283-csv.h"
#include "nb-iso9283-run.h"
#include "nb-json-writer.h"
#include "nb-pdf.h"
#include "nb-protocol-iso9283.h"
#include "nb-protocol-report.h"
#include "nb-table.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

/* --output DIR: the table compute iso9283 pose reads, per test pose. */
static gboolean
write_poses (const char *dir, const NbIso9283PoseRun *run, GError **error)
{
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: cannot create the directory", dir);
      return FALSE;
    }
  for (guint i = 0; i < NB_ISO9283_POSES; i++)
    {
      g_autofree char *name = g_strdup_printf ("P%u.csv", i + 1);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (!nb_iso9283_write_poses (path, i + 1, run->cycles, &run->command[i], run->attained[i],
                                   error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
write_report (const char *path, const char *lang_name, const char *db, const NbIso9283PoseRun *run,
              const NbIso9283Cube *cube, gboolean over_http, const char *url, double speed,
              const char *load, const char *instrument, GError **error)
{
  const NbCatalogue *lang = nb_cli_catalogue (lang_name, error);
  g_autoptr (NbDocument) doc = NULL;
  NbPdfWords words;

  if (lang == NULL)
    return FALSE;
  doc = nb_document_new (nb_protocol_iso9283_title (lang));
  nb_document_add_title_field (doc, nb_ptr (lang, "iso9283", "Standard"),
                               nb_ptr (lang, "iso9283", "ISO 9283:1998"));
  if (db != NULL)
    {
      g_autoptr (NbCampaign) c = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, error);
      g_autoptr (GPtrArray) runs = c ? nb_campaign_iso9283_runs (c, error) : NULL;

      if (runs == NULL)
        return FALSE;
      nb_document_add_title_field (doc, nb_ptr (lang, "iso9283", "Campaign"), db);
      if (!nb_protocol_iso9283_add_campaign (doc, lang, c, FALSE, error))
        return FALSE;
    }
  else
    {
      NbIso9283StoredRun r;

      nb_iso9283_stored_pose_run (&r, NULL, run, cube, over_http ? url : NULL, instrument, speed,
                                  load);
      if (!nb_protocol_iso9283_add_run (doc, lang, 1, &r, error))
        return FALSE;
    }
  words = nb_protocol_report_pdf_words (lang);
  return nb_pdf_write (doc, &words, path, error);
}

/* ------------------------------------------------- --all: the plan -- */

typedef struct {
  gboolean json;
  GHashTable *ran;              /* the configurations a cycle ran of */
} Say;

static void
say_cycle (gpointer data, const char *config, guint cycle, guint of, const char *what)
{
  Say *s = data;
  g_autofree char *line = NULL;

  if (what == NULL)
    g_hash_table_add (s->ran, g_strdup (config));
  if (s->json)
    return;
  if (what != NULL)
    line = g_strdup_printf ("%s: %u/%u cycles, %s\n", config, cycle, of, what);
  else if (cycle == of)
    line = g_strdup_printf ("%s: %u/%u cycles, complete\n", config, cycle, of);
  if (line != NULL)
    nb_cli_write (line, NULL);
}

typedef struct {
  const char *db, *only, *robot_text, *instrument, *instrument_words, *url, *unit;
  char **settings;
  double window, guard, rated_load_kg, rated_speed, band, drift_h;
  gint seed;
  gboolean json;
} AllOptions;

static int
run_all (const AllOptions *o, const NbArmModel *model, const NbIso9283Cube *cube,
         const double q[NB_ISO9283_POSES][NB_ARM_JOINTS])
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = nb_campaign_open (o->db, 0, &error);
  gboolean over_http = o->robot_text != NULL && !g_str_equal (o->robot_text, "sim");
  NbIso9283Rig rig;
  NbIso9283SimRig sim;
  NbIso9283ServedRig served;
  g_autoptr (NbDevice) dev = NULL;
  g_autoptr (GHashTable) ran_configs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                               NULL);
  Say say = { o->json, ran_configs };
  gboolean made, ok;
  guint ran = 0;

  if (c == NULL || !nb_iso9283_plan_ensure (c, o->drift_h * 3600.0, &made, &error))
    return nb_cli_report_error (error);
  memset (&rig, 0, sizeof rig);
  rig.model = *model;
  rig.cube = *cube;
  memcpy (rig.q, q, sizeof rig.q);
  rig.rated_load_kg = nb_iso9283_rated_load_kg (c, o->rated_load_kg);
  rig.rated_speed_mm_s = o->rated_speed;
  rig.band_mm = o->band;
  rig.unit = o->unit;
  if (!over_http)
    nb_iso9283_sim_rig_init (&sim, &rig, model, (guint32) o->seed, o->unit);
  else if ((o->instrument != NULL &&
            !nb_cli_open_instrument (o->instrument, o->url, NULL, 0, o->settings, &dev, &error)) ||
           !nb_iso9283_served_rig_init (&served, &rig, o->robot_text, model, (guint32) o->seed,
                                        o->unit, dev, o->guard, o->window, o->instrument_words,
                                        TRUE, &error))
    return nb_cli_report_error (error);
  ok = nb_iso9283_run_plan (c, &rig, o->only, say_cycle, &say, &ran, &error);
  if (dev != NULL)
    nb_device_stop (dev);
  if (!over_http)
    nb_iso9283_sim_rig_clear (&sim);
  else
    nb_iso9283_served_rig_clear (&served, &rig);
  if (!ok)
    return nb_cli_report_error (error);
  if (o->json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
      g_autofree char *text = NULL;
      guint n_configs;

      nb_json_begin_object (w);
      nb_json_key (w, "standard"); nb_json_string (w, "iso9283");
      nb_json_key (w, "plan_made"); nb_json_bool (w, made);
      nb_json_key (w, "cycles_run"); nb_json_int (w, ran);
      nb_json_key (w, "goals"); nb_json_int (w, rig.goals);
      /* The figures of every configuration with cycles, from the file. */
      nb_json_key (w, "configs");
      if (!nb_clause_9283_results_json (w, c, &n_configs, &error))
        return nb_cli_report_error (error);
      nb_json_end_object (w);
      text = nb_json_writer_finish (g_steal_pointer (&w));
      if (!nb_campaign_close (g_steal_pointer (&c), &error) || !nb_cli_write (text, &error))
        return nb_cli_report_error (error);
    }
  else
    {
      g_autoptr (GString) out = g_string_new (NULL);
      guint n_configs;

      /* The figures of the configurations this run worked on, a line each. */
      if (!nb_clause_9283_results_text (out, c, say.ran, &n_configs, &error))
        return nb_cli_report_error (error);
      g_string_append_printf (out, "The ISO 9283 plan: %u cycles run (%u goals); see campaign "
                              "plan --standard iso9283 --db %s\n", ran, rig.goals, o->db);
      if (!nb_campaign_close (g_steal_pointer (&c), &error) || !nb_cli_write (out->str, &error))
        return nb_cli_report_error (error);
    }
  return NB_EXIT_OK;
}

int
nb_cli_iso9283_run (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *standard = NULL, *robot_text = NULL, *centre_text = NULL, *abc_text = NULL;
  g_autofree char *robot_dir = NULL, *output = NULL, *load = NULL, *report = NULL, *lang = NULL;
  g_autofree char *db = NULL, *config = NULL, *instrument = NULL, *url = NULL;
  g_autofree char *instrument_words = NULL;
  g_auto (GStrv) settings = NULL;
  double window = NB_ISO9283_DEVICE_WINDOW_S, guard = NB_ISO9283_DEVICE_GUARD_S;
  gint plane = NB_ISO9283_DEFAULT_PLANE, cycles = 30, seed = 1;
  double speed = 100, max_edge = NB_ISO9283_DEFAULT_MAX_EDGE_MM;
  double rated_load_kg = NAN, rated_speed = NB_ISO9283_RATED_SPEED_MM_S, band = NB_ISO9283_BAND_MM;
  double drift_h = NB_ISO9283_DRIFT_H;
  g_autofree char *only = NULL, *unit = NULL;
  gboolean json = FALSE, all = FALSE;
  const GOptionEntry entries[] = {
    { "standard", 0, 0, G_OPTION_ARG_STRING, &standard, "iso9283", "S" },
    { "robot", 0, 0, G_OPTION_ARG_STRING, &robot_text,
      "sim (default: the simulated arm with its error model) or http://HOST:PORT", "R" },
    { "robot-dir", 0, 0, G_OPTION_ARG_FILENAME, &robot_dir,
      "the arm's model and active tool (default: data/robots/iiwa7)", "DIR" },
    { "centre", 0, 0, G_OPTION_ARG_STRING, &centre_text,
      "the cube's centre in base_link, mm (600,0,450)", "X,Y,Z" },
    { "orientation", 0, 0, G_OPTION_ARG_STRING, &abc_text,
      "the tool orientation held at every pose, ° (180,0,180)", "A,B,C" },
    { "plane", 0, 0, G_OPTION_ARG_INT, &plane,
      "the measurement plane: 1 C1-C2-C7-C8 … 4 C4-C1-C6-C7 (1)", "N" },
    { "max-edge", 0, 0, G_OPTION_ARG_DOUBLE, &max_edge, "the largest edge to try, mm (600)", "MM" },
    { "cycles", 0, 0, G_OPTION_ARG_INT, &cycles, "cycles (30, as 7.2 asks)", "N" },
    { "speed", 0, 0, G_OPTION_ARG_DOUBLE, &speed,
      "% of rated speed: 100, 50 or 10 (over HTTP: the joint goals' "
      "max_velocity_scaling_factor)", "PCT" },
    { "load", 0, 0, G_OPTION_ARG_STRING, &load, "rated or 10% of --rated-load-kg",
      "L" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, "the simulator's and tracker's seed (1)", "S" },
    { "output", 0, 0, G_OPTION_ARG_FILENAME, &output,
      "write the attained poses as DIR/P1.csv … P5.csv", "DIR" },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db,
      "record the run in this campaign file (with --config)", "F" },
    { "config", 0, 0, G_OPTION_ARG_STRING, &config, "the run's configuration name", "NAME" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &report,
      "write the protocol's ISO 9283 section as a PDF (with --db: of every run recorded there)",
      "F.pdf" },
    { "lang", 0, 0, G_OPTION_ARG_STRING, &lang, "the protocol's language: en (default) or ru",
      "L" },
    { "instrument", 0, 0, G_OPTION_ARG_STRING, &instrument,
      "a live 6-DoF instrument driver that measures the served arm (natnet, …), as acquire "
      "opens it; with --robot http://…", "DRIVER" },
    { "url", 0, 0, G_OPTION_ARG_STRING, &url, "the instrument's udp://GROUP:PORT or tcp://HOST:PORT",
      "URL" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &settings,
      "an instrument setting: latency=S, body=ID, version=V, … (repeatable)", "KEY=VALUE" },
    { "window", 0, 0, G_OPTION_ARG_DOUBLE, &window,
      "with --instrument: the instrument's poses averaged after each goal, s (0.1)", "S" },
    { "guard", 0, 0, G_OPTION_ARG_DOUBLE, &guard,
      "with --instrument: the poses let go first after each goal, s (0.05)", "S" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { "all", 0, 0, G_OPTION_ARG_NONE, &all,
      "with --db: every configuration of the file's ISO 9283 plan not complete, from the next "
      "cycle not recorded (the plan is made on the first use)", NULL },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only, "with --all: only this configuration", "CONFIG" },
    { "rated-load-kg", 0, 0, G_OPTION_ARG_DOUBLE, &rated_load_kg,
      "the rated load (6.6; default robot.rated_load_kg, else 7 kg)", "KG" },
    { "rated-speed", 0, 0, G_OPTION_ARG_DOUBLE, &rated_speed,
      "with --all: the rated path velocity, 100 % (250 mm/s)", "MM_S" },
    { "band", 0, 0, G_OPTION_ARG_DOUBLE, &band,
      "with --all: the limit band of 7.4, mm (0.1)", "MM" },
    { "drift-hours", 0, 0, G_OPTION_ARG_DOUBLE, &drift_h,
      "with --all, when the plan is made: the drift run's length (8 h, 7.6)", "H" },
    { "unit", 0, 0, G_OPTION_ARG_STRING, &unit,
      "with --all: the robot unit measured (its serial number), for 7.7 exchangeability; a "
      "simulated unit has its own manufacturing errors (default: the robot, sim or the URL)",
      "ID" },
    { NULL }
  };
  double centre[3], abc[3];
  double q[NB_ISO9283_POSES][NB_ARM_JOINTS];
  g_autofree char *dir = NULL;
  NbArmModel model;
  NbIso9283Cube cube;
  NbIso9283PoseRun run = { 0 };
  NbIso9283Rig rig;
  double payload_kg;
  gboolean over_http, ok;
  int status = NB_EXIT_OK;

  memcpy (centre, nb_iso9283_default_centre_mm, sizeof centre);
  memcpy (abc, nb_iso9283_default_abc_deg, sizeof abc);
  g_option_context_set_summary (context,
    "The ISO 9283 pose test (7.2): the clause 6 cube at --centre, the cycle\n"
    "P1 → P5 → P4 → P3 → P2 → P1 for --cycles cycles, measured after every goal,\n"
    "AP and RP of each pose. The configurations of the standard: --speed 100|50|10,\n"
    "--load rated|10%.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (standard == NULL || !g_str_equal (standard, "iso9283"))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--standard iso9283 expected");
      return nb_cli_report_error (error);
    }
  if ((centre_text && !nb_cli_parse_numbers ("centre", centre_text, centre, 3, "X,Y,Z (mm)",
                                             &error)) ||
      (abc_text && !nb_cli_parse_numbers ("orientation", abc_text, abc, 3, "A,B,C (°)", &error)))
    return nb_cli_report_error (error);
  if (cycles < 2 || cycles > 10000 || !(speed == 100 || speed == 50 || speed == 10) ||
      (load != NULL && !g_str_equal (load, "rated") && !g_str_equal (load, "10%")))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "--cycles is 2 to 10000, --speed 100, 50 or 10, --load rated or 10%%");
      return nb_cli_report_error (error);
    }
  if (lang != NULL && !g_str_equal (lang, "en") && !g_str_equal (lang, "ru"))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--lang is en or ru, not '%s'", lang);
      return nb_cli_report_error (error);
    }
  if (all && (db == NULL || config != NULL || output != NULL))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--all runs the plan of the campaign file: "
                   "it needs --db F and takes no --config or --output");
      return nb_cli_report_error (error);
    }
  if (!all && only != NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--only goes with --all");
      return nb_cli_report_error (error);
    }
  if (!(rated_speed > 0 && rated_speed <= 10000) || !(band > 0 && band <= 100) ||
      !(drift_h > 0 && drift_h <= 1000) || (!isnan (rated_load_kg) && !(rated_load_kg >= 0)))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--rated-speed is in (0, 10000] mm/s, --band "
                   "in (0, 100] mm, --drift-hours in (0, 1000], --rated-load-kg ≥ 0");
      return nb_cli_report_error (error);
    }
  if (!all && (db == NULL) != (config == NULL))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--db F and --config NAME go together");
      return nb_cli_report_error (error);
    }
  over_http = robot_text != NULL && !g_str_equal (robot_text, "sim");
  if (over_http && !g_str_has_prefix (robot_text, "http://"))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--robot is sim or http://HOST:PORT, not '%s'",
                   robot_text);
      return nb_cli_report_error (error);
    }
  if (instrument != NULL && (!over_http || url == NULL || !(window > 0 && window <= 10) ||
                             !(guard >= 0 && guard <= 10)))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "--instrument measures the served arm: it needs --robot http://HOST:PORT and "
                   "--url, --window in (0, 10] s, --guard in [0, 10] s");
      return nb_cli_report_error (error);
    }
  if (instrument == NULL && (url != NULL || settings != NULL))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--url and --set go with --instrument");
      return nb_cli_report_error (error);
    }
  if (instrument != NULL)
    instrument_words = g_strdup_printf ("%s %s", instrument, url);
  dir = robot_dir ? g_strdup (robot_dir) : nb_cli_data_path ("robots/iiwa7");
  if (!nb_arm_model_load (dir, &model, &error) ||
      !nb_iso9283_cube_fit (&model, centre, (guint) plane, abc, max_edge, nb_iso9283_seed_q, &cube,
                           q, &error))
    return nb_cli_report_error (error);

  if (all)
    {
      AllOptions o = {
        .db = db, .only = only, .robot_text = robot_text, .instrument = instrument,
        .instrument_words = instrument_words, .url = url, .settings = settings, .window = window,
        .guard = guard, .rated_load_kg = rated_load_kg, .rated_speed = rated_speed, .band = band,
        .drift_h = drift_h, .seed = seed, .json = json, .unit = unit,
      };
      int rc = run_all (&o, &model, &cube, (const double (*)[NB_ARM_JOINTS]) q);

      if (rc == NB_EXIT_OK && report != NULL &&
          !write_report (report, lang ? lang : "en", db, NULL, &cube, over_http, robot_text, speed,
                         load, instrument_words, &error))
        return nb_cli_report_error (error);
      return rc;
    }
  /* 6.6: the load on the arm: the simulated one, or the true arm the
   * served one is measured through (an instrument sees the arm itself). */
  payload_kg = (isnan (rated_load_kg) ? 7.0 : rated_load_kg) *
               (load && g_str_equal (load, "10%") ? 0.1 : 1.0);
  memset (&rig, 0, sizeof rig);
  if (!over_http)
    {
      NbIso9283SimRig sim;

      nb_iso9283_sim_rig_init (&sim, &rig, &model, (guint32) seed, NULL);
      sim.arm.payload_kg = payload_kg;
      sim.arm.slow_factor = 100.0 / speed;
      ok = nb_iso9283_pose_run (&model, &cube, (const double (*)[NB_ARM_JOINTS]) q, (guint) cycles,
                                rig.ops, rig.robot, rig.measure, rig.measure_data, &run, &error);
      nb_iso9283_sim_rig_clear (&sim);
    }
  else
    {
      g_autoptr (NbDevice) dev = NULL;
      NbIso9283ServedRig served;

      if ((instrument != NULL &&
           !nb_cli_open_instrument (instrument, url, NULL, 0, settings, &dev, &error)) ||
          !nb_iso9283_served_rig_init (&served, &rig, robot_text, &model, (guint32) seed, NULL,
                                       dev, guard, window, instrument_words, FALSE, &error))
        return nb_cli_report_error (error);
      /* 6.7: the goals at speed % of the joints' velocity limits. */
      nb_http_robot_set_velocity_scaling (served.http, speed / 100.0);
      served.truth.payload_kg = payload_kg;
      rig.load_kg = payload_kg;
      ok = nb_iso9283_rig_mount_load (&rig, &error) &&
           nb_iso9283_pose_run (&model, &cube, (const double (*)[NB_ARM_JOINTS]) q, (guint) cycles,
                                rig.ops, rig.robot, rig.measure, rig.measure_data, &run, &error);
      if (dev != NULL)
        nb_device_stop (dev);
      nb_iso9283_served_rig_clear (&served, &rig);
    }
  if (!ok || (output != NULL && !write_poses (output, &run, &error)) ||
      (db != NULL && !nb_iso9283_record_pose_run (db, config, &run, &cube,
                                                  over_http ? robot_text : NULL,
                                                  instrument_words, speed, load, &error)) ||
      (report != NULL && !write_report (report, lang ? lang : "en", db, &run, &cube, over_http,
                                        robot_text, speed, load, instrument_words, &error)))
    {
      nb_iso9283_pose_run_clear (&run);
      return nb_cli_report_error (error);
    }

  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
      g_autofree char *text = NULL;

      nb_json_begin_object (w);
      nb_json_key (w, "standard"); nb_json_string (w, "iso9283");
      nb_json_key (w, "robot"); nb_json_string (w, over_http ? robot_text : "sim");
      if (instrument != NULL)
        {
          nb_json_key (w, "instrument"); nb_json_string (w, instrument);
          nb_json_key (w, "url"); nb_json_string (w, url);
        }
      nb_json_key (w, "speed_pct"); nb_json_double (w, speed);
      nb_json_key (w, "load"); nb_json_string (w, load ? load : "rated");
      nb_json_key (w, "plane"); nb_json_int (w, cube.plane);
      nb_json_key (w, "edge_mm"); nb_json_double (w, cube.edge_mm);
      nb_json_key (w, "cycles"); nb_json_int (w, run.cycles);
      nb_json_key (w, "goals"); nb_json_int (w, run.goals);
      nb_json_key (w, "poses");
      nb_json_begin_array (w);
      for (guint i = 0; i < NB_ISO9283_POSES; i++)
        {
          const NbIso9283Pose *r = &run.result[i];
          g_autofree char *name = g_strdup_printf ("P%u", i + 1);

          nb_json_begin_object (w);
          nb_json_key (w, "pose"); nb_json_string (w, name);
          nb_json_key (w, "x_mm"); nb_json_double (w, run.command[i].x_mm);
          nb_json_key (w, "y_mm"); nb_json_double (w, run.command[i].y_mm);
          nb_json_key (w, "z_mm"); nb_json_double (w, run.command[i].z_mm);
          nb_json_key (w, "n"); nb_json_int (w, (gint64) r->n);
          nb_json_key (w, "ap_mm"); nb_json_double (w, r->ap_mm);
          nb_json_key (w, "ap_x_mm"); nb_json_double (w, r->ap_xyz_mm[0]);
          nb_json_key (w, "ap_y_mm"); nb_json_double (w, r->ap_xyz_mm[1]);
          nb_json_key (w, "ap_z_mm"); nb_json_double (w, r->ap_xyz_mm[2]);
          nb_json_key (w, "ap_a_deg"); nb_json_double (w, r->ap_abc_deg[0]);
          nb_json_key (w, "ap_b_deg"); nb_json_double (w, r->ap_abc_deg[1]);
          nb_json_key (w, "ap_c_deg"); nb_json_double (w, r->ap_abc_deg[2]);
          nb_json_key (w, "rp_mm"); nb_json_double (w, r->rp_mm);
          nb_json_key (w, "rp_a_deg"); nb_json_double (w, r->rp_abc_deg[0]);
          nb_json_key (w, "rp_b_deg"); nb_json_double (w, r->rp_abc_deg[1]);
          nb_json_key (w, "rp_c_deg"); nb_json_double (w, r->rp_abc_deg[2]);
          nb_json_end_object (w);
        }
      nb_json_end_array (w);
      nb_json_end_object (w);
      text = nb_json_writer_finish (g_steal_pointer (&w));
      if (!nb_cli_write (text, &error))
        status = nb_cli_report_error (error);
    }
  else
    {
      g_autofree char *title = g_strdup_printf ("ISO 9283 7.2 — pose accuracy and repeatability "
                                                "(cube %.0f mm, plane %u, %u cycles, %.0f %% speed)",
                                                cube.edge_mm, cube.plane, run.cycles, speed);
      g_autoptr (NbTable) t = nb_table_new (title);
      g_autofree char *text = NULL;

      nb_table_add_column (t, "pose", "pose", NULL, 0);
      nb_table_add_column (t, "n", "n", NULL, 0);
      nb_table_add_column (t, "ap_mm", "AP_P", "mm", 3);
      nb_table_add_column (t, "rp_mm", "RP_l", "mm", 3);
      nb_table_add_column (t, "ap_a_deg", "AP_a", "°", 4);
      nb_table_add_column (t, "rp_a_deg", "RP_a (±)", "°", 4);
      for (guint i = 0; i < NB_ISO9283_POSES; i++)
        {
          g_autofree char *name = g_strdup_printf ("P%u", i + 1);
          guint row = nb_table_add_row (t);

          nb_table_set_text (t, row, 0, name);
          nb_table_set_number (t, row, 1, (double) run.result[i].n);
          nb_table_set_number (t, row, 2, run.result[i].ap_mm);
          nb_table_set_number (t, row, 3, run.result[i].rp_mm);
          nb_table_set_number (t, row, 4, run.result[i].ap_abc_deg[0]);
          nb_table_set_number (t, row, 5, run.result[i].rp_abc_deg[0]);
        }
      text = nb_table_to_text (t);
      if (!nb_cli_write (text, &error))
        status = nb_cli_report_error (error);
    }
  nb_iso9283_pose_run_clear (&run);
  return status;
}

/* ------------------------------------ campaign plan --standard iso9283 -- */

/* The plan's rows (nb_iso9283_plan_rows): into w (JSON objects of the
 * array begun) or out (a line each); *next the first in-scope configuration
 * not complete.  Shared by `campaign plan --standard iso9283` and plain
 * `campaign plan`. */
gboolean
nb_cli_iso9283_plan_rows (NbCampaign *campaign, const GArray *plan, NbJsonWriter *w,
                          GString *out, const NbIso9283PlanEntry **next, GError **error)
{
  g_autoptr (GArray) rows = nb_iso9283_plan_rows (campaign, plan, next, error);

  if (rows == NULL)
    return FALSE;
  for (guint i = 0; i < rows->len; i++)
    {
      const NbIso9283PlanRow *r = &g_array_index (rows, NbIso9283PlanRow, i);
      const NbIso9283PlanEntry *e = r->entry;
      const NbClause9283 *clause = r->clause;
      const char *state = nb_iso9283_plan_state_name (r->state);

      if (w != NULL)
        {
          nb_json_begin_object (w);
          nb_json_key (w, "config"); nb_json_string (w, e->config);
          nb_json_key (w, "characteristic"); nb_json_string (w, e->characteristic);
          nb_json_key (w, "clause"); nb_json_string (w, clause ? clause->clause : "?");
          nb_json_key (w, "speed_pct"); nb_json_double (w, e->speed_pct);
          nb_json_key (w, "load"); nb_json_string (w, e->load);
          nb_json_key (w, "state"); nb_json_string (w, state);
          nb_json_key (w, "cycles"); nb_json_int (w, r->cycles);
          nb_json_key (w, "of"); nb_json_int (w, e->cycles);
          nb_json_key (w, "stream");
          nb_json_bool (w, clause && (clause->needs & NB_ISO9283_NEEDS_STREAM));
          nb_json_key (w, "reason");
          if (e->reason)
            nb_json_string (w, e->reason);
          else
            nb_json_null (w);
          nb_json_end_object (w);
        }
      else
        {
          g_autofree char *count = g_strdup_printf ("%u/%u", r->cycles, e->cycles);
          g_autofree char *speed = g_strdup_printf ("%.0f %%", e->speed_pct);

          g_string_append_printf (out, "%-14s %-26s %-6s %-6s %-8s %s%s%s\n",
                                  clause ? clause->clause : "?", e->config, speed, e->load, count,
                                  state, e->reason ? ": " : "", e->reason ? e->reason : "");
        }
    }
  return TRUE;
}

int
nb_cli_iso9283_plan (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autoptr (GArray) plan = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (NbJsonWriter) w = NULL;
  g_autofree char *standard = NULL, *db = NULL, *exclude = NULL, *include = NULL;
  g_autofree char *reason = NULL, *who = NULL;
  double drift_h = 8;
  gboolean json = FALSE, made = FALSE;
  const NbIso9283PlanEntry *next = NULL;
  const GOptionEntry entries[] = {
    { "standard", 0, 0, G_OPTION_ARG_STRING, &standard, "iso9283", "S" },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "the plan as one JSON object", NULL },
    { "exclude", 0, 0, G_OPTION_ARG_STRING, &exclude,
      "take a configuration out of scope (with --reason)", "CONFIG" },
    { "include", 0, 0, G_OPTION_ARG_STRING, &include, "bring it back in scope", "CONFIG" },
    { "reason", 0, 0, G_OPTION_ARG_STRING, &reason, "why it is out of scope", "TEXT" },
    { "who", 0, 0, G_OPTION_ARG_STRING, &who, "who the event log names", "W" },
    { "drift-hours", 0, 0, G_OPTION_ARG_DOUBLE, &drift_h,
      "when the plan is made: the drift run's length (8 h, 7.6)", "H" },
    { NULL }
  };

  g_option_context_set_summary (context,
    "The ISO 9283 plan of a campaign file: every characteristic's configurations (rated\n"
    "load at 100, 50 and 10 % of the rated velocity, 10 % of the rated load at 100 %;\n"
    "drift at 100 %, rated load), made on the first use and stored, each with its\n"
    "cycles recorded of the standard's (6.9) and its state, and what\n"
    "'campaign run --standard iso9283 --db F --all' runs next.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (db == NULL || !(drift_h > 0 && drift_h <= 1000) ||
      (exclude != NULL && reason == NULL) || (exclude != NULL && include != NULL))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--db F is required; --exclude needs "
                   "--reason TEXT (and not --include); --drift-hours is in (0, 1000]");
      return nb_cli_report_error (error);
    }
  if ((campaign = nb_campaign_open (db, 0, &error)) == NULL)
    return nb_cli_report_error (error);
  if (who)
    nb_campaign_set_who (campaign, who);
  if (!nb_iso9283_plan_ensure (campaign, drift_h * 3600.0, &made, &error) ||
      (exclude && !nb_campaign_iso9283_plan_set_scope (campaign, exclude, FALSE, reason, &error)) ||
      (include && !nb_campaign_iso9283_plan_set_scope (campaign, include, TRUE, NULL, &error)) ||
      (plan = nb_campaign_iso9283_plan_list (campaign, &error)) == NULL)
    return nb_cli_report_error (error);
  if (json)
    {
      w = nb_json_writer_new ();
      nb_json_begin_object (w);
      nb_json_key (w, "standard"); nb_json_string (w, "iso9283");
      nb_json_key (w, "made"); nb_json_bool (w, made);
      nb_json_key (w, "configs");
      nb_json_begin_array (w);
    }
  else
    g_string_append_printf (out, "%-14s %-26s %-6s %-6s %-8s %s\n", "clause", "configuration",
                            "speed", "load", "cycles", "state");
  if (!nb_cli_iso9283_plan_rows (campaign, plan, w, out, &next, &error))
    return nb_cli_report_error (error);
  if (json)
    {
      nb_json_end_array (w);
      nb_json_key (w, "next");
      if (next)
        nb_json_string (w, next->config);
      else
        nb_json_null (w);
      nb_json_end_object (w);
      {
        g_autofree char *text = nb_json_writer_finish (g_steal_pointer (&w));

        g_string_append (out, text);
      }
    }
  else if (next)
    g_string_append_printf (out, "next: '%s' (campaign run --standard iso9283 --db %s --all)\n",
                            next->config, db);
  else
    g_string_append (out, "next: nothing is left\n");
  if (!nb_campaign_close (g_steal_pointer (&campaign), &error) || !nb_cli_write (out->str, &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}
