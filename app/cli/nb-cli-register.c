/* navbench-cli campaign register — the instrument frame registered to the test
 * area from surveyed reference points, stored with the campaign
 *
 * ARCHITECTURE "one frame": a rigid fit (core/nb-register.h) to ≥ 3 points
 * whose coordinates are known in both frames, per-point residuals and RMS
 * reported, the transform stored in the campaign's instrument fields and the
 * residuals in its event log — never a best fit of the robot's own track.
 */
#include "nb-cli.h"

#include "nb-campaign.h"
#include "nb-csv-reader.h"
#include "nb-error.h"
#include "nb-json-writer.h"
#include "nb-register.h"
#include "nb-registration.h"

#include <math.h>
#include <string.h>

#define MM_PER_M 1000.0

int
nb_cli_campaign_register (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) campaign = NULL;
  g_autoptr (GArray) list = NULL;
  g_auto (NbRegistrationFit) fit = { { { 0 } } };
  g_autoptr (NbJsonWriter) w = nb_json_writer_new ();
  g_autofree char *log = NULL;
  g_autofree char *db = NULL, *points = NULL, *text = NULL;
  const double *residual = NULL;
  gboolean json = FALSE;
  gint dim = 2;
  const GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db, "the campaign file", "F" },
    { "points", 0, 0, G_OPTION_ARG_FILENAME, &points, "the surveyed reference points", "P.csv" },
    { "dim", 0, 0, G_OPTION_ARG_INT, &dim, "2 (x, y; default) or 3 (x, y, z)", "2|3" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };
  NbRigidTransform tf;
  double rms, max = 0.0;
  char a[32], b[32];

  g_option_context_set_summary (context,
    "Registers the instrument frame to the test-area frame (ARCHITECTURE: one frame):\n"
    "a rigid fit to ≥ 3 surveyed points, per-point residuals and RMS, the transform\n"
    "stored as instrument.registration_transform with its RMS and maximum.\n\n"
    "Columns: point, instrument_x_mm, instrument_y_mm[, instrument_z_mm],\n"
    "reference_x_mm, reference_y_mm[, reference_z_mm].");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (db == NULL || points == NULL || (dim != 2 && dim != 3))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--db F, --points P.csv and --dim 2|3");
      return nb_cli_report_error (error);
    }
  if ((list = nb_reference_points_read (points, (guint) dim, &error)) == NULL)
    return nb_cli_report_error (error);
  if (!nb_registration_fit ((const NbReferencePoint *) list->data, list->len, (guint) dim,
                            points, &fit, &error))
    {
      g_prefix_error (&error, "%s: ", points);
      return nb_cli_report_error (error);
    }
  tf = fit.registration.transform;
  rms = fit.registration.rms_m;
  residual = fit.residuals_m;

  {
    const NbRegistration reg = fit.registration;

    max = nb_registration_max_m (&reg);
    g_ascii_formatd (a, sizeof a, "%.3f", rms * MM_PER_M);
    g_ascii_formatd (b, sizeof b, "%.3f", max * MM_PER_M);
    log = nb_registration_summary (&reg);
    if ((campaign = nb_campaign_open (db, 0, &error)) == NULL ||
        !nb_registration_store (campaign, &reg, &error) ||
        !nb_campaign_close (g_steal_pointer (&campaign), &error))
      return nb_cli_report_error (error);
  }

  if (!json)
    {
      text = g_strdup_printf ("%s\nRMS %s mm, max %s mm; yaw %.6f°\nstored in %s\n", log, a,
                              b, nb_rigid_yaw_deg (&tf), db);
      return nb_cli_write (text, &error) ? NB_EXIT_OK : nb_cli_report_error (error);
    }
  nb_json_begin_object (w);
  nb_json_key (w, "dim"); nb_json_int (w, dim);
  nb_json_key (w, "rotation");
  nb_json_begin_array (w);
  for (int i = 0; i < 3; i++)
    {
      nb_json_begin_array (w);
      for (int j = 0; j < 3; j++)
        nb_json_double (w, tf.r[i][j]);
      nb_json_end_array (w);
    }
  nb_json_end_array (w);
  nb_json_key (w, "translation_mm");
  nb_json_begin_array (w);
  for (int k = 0; k < 3; k++)
    nb_json_double (w, tf.t[k] * MM_PER_M);
  nb_json_end_array (w);
  nb_json_key (w, "yaw_deg"); nb_json_double (w, nb_rigid_yaw_deg (&tf));
  nb_json_key (w, "residuals");
  nb_json_begin_array (w);
  for (guint i = 0; i < fit.registration.n_points; i++)
    {
      nb_json_begin_object (w);
      nb_json_key (w, "point"); nb_json_string (w, g_ptr_array_index (fit.names, i));
      nb_json_key (w, "residual_mm"); nb_json_double (w, residual[i] * MM_PER_M);
      nb_json_end_object (w);
    }
  nb_json_end_array (w);
  nb_json_key (w, "rms_mm"); nb_json_double (w, rms * MM_PER_M);
  nb_json_key (w, "max_mm"); nb_json_double (w, max * MM_PER_M);
  nb_json_end_object (w);
  text = nb_json_writer_finish (g_steal_pointer (&w));
  return nb_cli_write (text, &error) ? NB_EXIT_OK : nb_cli_report_error (error);
}
