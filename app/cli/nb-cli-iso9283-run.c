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
 * as DIR/P1.csv … P5.csv, the table `compute iso9283 pose` reads.
 * Not yet in the campaign file: see docs/iso9283.md.
 */
#include "nb-cli.h"

#include "nb-arm-file.h"
#include "nb-campaign-iso9283.h"
#include "nb-error.h"
#include "nb-http-robot.h"
#include "nb-iso9283-run.h"
#include "nb-json-writer.h"
#include "nb-pdf.h"
#include "nb-protocol-iso9283.h"
#include "nb-table.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

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
      g_autoptr (GString) s = g_string_new (NULL);
      g_autofree char *name = g_strdup_printf ("P%u.csv", i + 1);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      const NbPose6 *c = &run->command[i];

      g_string_append_printf (s, "# Name: ISO 9283 pose test, P%u, %u cycles\n"
                              "# Command: %.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n"
                              "cycle,x_mm,y_mm,z_mm,a_deg,b_deg,c_deg\n", i + 1, run->cycles,
                              c->x_mm, c->y_mm, c->z_mm, c->a_deg, c->b_deg, c->c_deg);
      for (guint j = 0; j < run->attained[i]->len; j++)
        {
          const NbPose6 *p = &g_array_index (run->attained[i], NbPose6, j);

          g_string_append_printf (s, "%u,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", j + 1, p->x_mm,
                                  p->y_mm, p->z_mm, p->a_deg, p->b_deg, p->c_deg);
        }
      if (!g_file_set_contents (path, s->str, s->len, error))
        return FALSE;
    }
  return TRUE;
}

static const char *
robot_words (gboolean ru, gboolean over_http)
{
  return over_http ? (ru ? "iiwa 7 через HTTP API системы управления движением"
                         : "iiwa 7 over the motion HTTP API")
                   : (ru ? "имитатор iiwa 7 с моделью погрешностей"
                         : "simulated iiwa 7 with its error model");
}

static const char *
measurement_words (gboolean ru, gboolean over_http)
{
  return over_http ? (ru ? "имитатор лазерного трекера по положениям шарниров, сообщаемым роботом"
                         : "simulated laser tracker on the joints the robot reports")
                   : (ru ? "имитатор лазерного трекера, 1 кГц, 6 степеней свободы"
                         : "simulated laser tracker, 1 kHz, 6-DoF probe");
}

static gboolean
record_run (const char *db, const char *config, const NbIso9283PoseRun *run,
            const NbIso9283Cube *cube, gboolean over_http, const char *url, double speed,
            const char *load, const char *instrument, GError **error)
{
  g_autoptr (NbCampaign) c = nb_campaign_open (db, 0, error);
  NbIso9283StoredRun r = {
    .config = (char *) config,
    .robot = (char *) (over_http ? url : "sim"),
    .measurement = (char *) (instrument ? instrument : measurement_words (FALSE, over_http)),
    .speed_pct = speed,
    .load = (char *) (load ? load : "rated"),
    .plane = cube->plane,
    .edge_mm = cube->edge_mm,
    .cycles = run->cycles,
  };

  if (c == NULL)
    return FALSE;
  memcpy (r.centre_mm, cube->centre_mm, sizeof r.centre_mm);
  memcpy (r.command, run->command, sizeof r.command);
  memcpy (r.attained, run->attained, sizeof r.attained);
  return nb_campaign_iso9283_add_run (c, &r, error) && nb_campaign_close (g_steal_pointer (&c), error);
}

/* One section: the figures computed again from what is stored. */
static gboolean
add_section (NbDocument *doc, const char *lang, const NbIso9283StoredRun *r, GError **error)
{
  gboolean ru = g_str_equal (lang, "ru"), http = !g_str_equal (r->robot, "sim");
  g_autofree char *robot = http ? g_strdup_printf ("%s (%s)", robot_words (ru, TRUE), r->robot)
                                : g_strdup (robot_words (ru, FALSE));
  NbIso9283PoseSection s = {
    .config = r->config,
    .robot = robot,
    /* A live instrument is stored as "DRIVER URL", words of no language. */
    .measurement = r->measurement && !g_str_equal (r->measurement, measurement_words (FALSE, TRUE)) &&
                   !g_str_equal (r->measurement, measurement_words (FALSE, FALSE))
                   ? r->measurement : measurement_words (ru, http),
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
  return nb_protocol_iso9283_add_pose (doc, lang, &s, error);
}

static gboolean
write_report (const char *path, const char *lang, const char *db, const NbIso9283PoseRun *run,
              const NbIso9283Cube *cube, gboolean over_http, const char *url, double speed,
              const char *load, const char *instrument, GError **error)
{
  gboolean ru = g_str_equal (lang, "ru");
  g_autoptr (NbDocument) doc = nb_document_new (nb_protocol_iso9283_title (lang));

  nb_document_add_title_field (doc, ru ? "Стандарт" : "Standard",
                               ru ? "ГОСТ Р ИСО 9283-2003 (ISO 9283:1998)" : "ISO 9283:1998");
  if (db != NULL)
    {
      g_autoptr (NbCampaign) c = nb_campaign_open (db, NB_CAMPAIGN_OPEN_READ_ONLY, error);
      g_autoptr (GPtrArray) runs = c ? nb_campaign_iso9283_runs (c, error) : NULL;

      if (runs == NULL)
        return FALSE;
      nb_document_add_title_field (doc, ru ? "Файл испытаний" : "Campaign", db);
      for (guint i = 0; i < runs->len; i++)
        if (!add_section (doc, lang, runs->pdata[i], error))
          return FALSE;
    }
  else
    {
      NbIso9283StoredRun r = {
        .config = NULL,
        .robot = (char *) (over_http ? url : "sim"),
        .measurement = (char *) instrument,
        .speed_pct = speed,
        .load = (char *) (load ? load : "rated"),
        .plane = cube->plane,
        .edge_mm = cube->edge_mm,
        .cycles = run->cycles,
      };

      memcpy (r.centre_mm, cube->centre_mm, sizeof r.centre_mm);
      memcpy (r.command, run->command, sizeof r.command);
      memcpy (r.attained, run->attained, sizeof r.attained);
      if (!add_section (doc, lang, &r, error))
        return FALSE;
    }
  return nb_pdf_write (doc, nb_protocol_iso9283_pdf_words (lang), path, error);
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
  double window = 0.1, guard = 0.05;
  gint plane = 1, cycles = 30, seed = 1;
  double speed = 100, max_edge = 600;
  gboolean json = FALSE;
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
      "% of rated speed: 100, 50 or 10 (the simulated arm only)", "PCT" },
    { "load", 0, 0, G_OPTION_ARG_STRING, &load, "rated or 10% (recorded; no load model yet)",
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
    { NULL }
  };
  double centre[3] = { 600, 0, 450 }, abc[3] = { 180, 0, 180 };
  const double seed_q[NB_ARM_JOINTS] = { 0, 0.6, 0, -1.2, 0, 1.0, 0 };
  double q[NB_ISO9283_POSES][NB_ARM_JOINTS];
  g_autofree char *dir = NULL;
  NbArmModel model;
  NbIso9283Cube cube;
  NbIso9283PoseRun run = { 0 };
  gboolean over_http, ok;
  int status = NB_EXIT_OK;

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
  if ((db == NULL) != (config == NULL))
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
  if (over_http && speed != 100)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "--speed: the motion API's joint goals run at the controller's speed; only "
                   "100 over HTTP");
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
      !nb_iso9283_cube_fit (&model, centre, (guint) plane, abc, max_edge, seed_q, &cube, q, &error))
    return nb_cli_report_error (error);

  if (!over_http)
    {
      NbSimArm arm;
      NbSimTracker tracker;
      NbIso9283SimMeasure m = { &tracker, 0.2 };

      nb_sim_arm_init (&arm, &model, (guint32) seed);
      nb_iso9283_sim_errors (&arm);
      arm.slow_factor = 100.0 / speed;
      nb_sim_tracker_init (&tracker, &arm, 1000, 0.005, 0.002, (guint32) seed + 1);
      ok = nb_iso9283_pose_run (&model, &cube, (const double (*)[NB_ARM_JOINTS]) q, (guint) cycles,
                                nb_sim_arm_ops (), &arm, nb_iso9283_measure_sim, &m, &run, &error);
      nb_sim_tracker_clear (&tracker);
      nb_sim_arm_clear (&arm);
    }
  else if (instrument != NULL)
    {
      g_autoptr (NbHttpRobot) http = nb_http_robot_new (robot_text, NULL, 120, &error);
      g_autoptr (NbDevice) dev = http ? nb_device_new (instrument, &error) : NULL;
      NbIso9283DeviceMeasure m = { dev, guard, window, 2.0, 0.5, 0 };

      if (dev == NULL || !nb_device_configure (dev, "url", url, &error) ||
          (settings != NULL && !nb_device_apply_settings (dev, settings, &error)) ||
          !nb_device_start (dev, &error))
        return nb_cli_report_error (error);
      ok = nb_iso9283_pose_run (&model, &cube, (const double (*)[NB_ARM_JOINTS]) q, (guint) cycles,
                                nb_http_robot_ops (), http, nb_iso9283_measure_device, &m, &run,
                                &error);
      nb_device_stop (dev);
    }
  else
    {
      g_autoptr (NbHttpRobot) http = nb_http_robot_new (robot_text, NULL, 120, &error);
      NbSimArm truth;
      NbIso9283StateMeasure m = { http, &truth, NULL, 0.005, 0.002 };

      if (http == NULL)
        return nb_cli_report_error (error);
      nb_sim_arm_init (&truth, &model, (guint32) seed);
      nb_iso9283_sim_errors (&truth);
      m.rand = g_rand_new_with_seed ((guint32) seed + 1);
      ok = nb_iso9283_pose_run (&model, &cube, (const double (*)[NB_ARM_JOINTS]) q, (guint) cycles,
                                nb_http_robot_ops (), http, nb_iso9283_measure_state, &m, &run,
                                &error);
      g_rand_free (m.rand);
      nb_sim_arm_clear (&truth);
    }
  if (!ok || (output != NULL && !write_poses (output, &run, &error)) ||
      (db != NULL && !record_run (db, config, &run, &cube, over_http, robot_text, speed, load,
                                  instrument_words, &error)) ||
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
