/* campaign register: the instrument frame fitted to surveyed points and
 * stored with the campaign (issue 5: "store the transform with the
 * campaign"), residuals in the event log, bad input refused. */
#include "nb-test.h"
#include "nb-test-cli.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

static char *dir;

static void
write_points (const char *name, double yaw_deg, double tx, double ty, double noise3)
{
  const double pts[4][2] = { { 0, 0 }, { 5000, 0 }, { 5000, 5000 }, { 0, 5000 } };
  double c = cos (yaw_deg * G_PI / 180), s = sin (yaw_deg * G_PI / 180);
  GString *csv = g_string_new ("# Surveyed reference points\npoint,instrument_x_mm,instrument_y_mm,"
                               "reference_x_mm,reference_y_mm\n");
  g_autofree char *path = g_build_filename (dir, name, NULL);

  for (int i = 0; i < 4; i++)
    {
      double rx = c * pts[i][0] - s * pts[i][1] + tx, ry = s * pts[i][0] + c * pts[i][1] + ty;

      /* point S3 is off by 0.3, 0.4 mm: a 0.5 mm survey error */
      g_string_append_printf (csv, "S%d,%.17g,%.17g,%.17g,%.17g\n", i + 1, pts[i][0], pts[i][1],
                              rx + (i == 2 ? 0.3 * noise3 : 0), ry + (i == 2 ? 0.4 * noise3 : 0));
    }
  g_assert_true (g_file_set_contents (path, csv->str, -1, NULL));
  g_string_free (csv, TRUE);
}

static void
test_register (void)
{
  g_autofree char *out = NULL, *info = NULL, *err = NULL;
  g_autoptr (JsonParser) p = json_parser_new (), pi = json_parser_new ();
  JsonObject *o, *fields;
  JsonArray *res, *events;
  double sum2 = 0.0;
  gboolean logged = FALSE;
  g_autofree char *two = g_build_filename (dir, "two.csv", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.csv", NULL);

  g_free (nb_test_cli_run (dir, 0, NULL, "campaign", "new", "--db", "c.nbc", "--name", "reg", NULL));
  write_points ("exact.csv", 30.0, 1000.0, -500.0, 0.0);
  g_free (nb_test_cli_run (dir, 0, NULL, "campaign", "register", "--db", "c.nbc", "--points", "exact.csv", NULL));
  write_points ("noisy.csv", -12.5, 250.0, 4000.0, 1.0);
  out = nb_test_cli_run (dir, 0, NULL, "campaign", "register", "--db", "c.nbc", "--points", "noisy.csv", "--json",
             NULL);
  g_assert_true (json_parser_load_from_data (p, out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (p));
  /* One 0.5 mm survey error among four points moves the fit by ~1/4 of it. */
  nb_assert_abs (json_object_get_double_member (o, "yaw_deg"), -12.5, 1e-3, "yaw");
  res = json_object_get_array_member (o, "residuals");
  g_assert_cmpuint (json_array_get_length (res), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      double r = json_object_get_double_member (json_array_get_object_element (res, i),
                                                "residual_mm");

      sum2 += r * r;
    }
  /* The RMS is that of the residuals, and S3's is the largest. */
  nb_assert_rel (json_object_get_double_member (o, "rms_mm"), sqrt (sum2 / 4), 1e-12, "rms");
  nb_assert_rel (json_object_get_double_member (o, "max_mm"),
                 json_object_get_double_member (json_array_get_object_element (res, 2),
                                                "residual_mm"), 1e-15, "max is S3");
  g_assert_cmpfloat (json_object_get_double_member (o, "max_mm"), >, 0.2);
  g_assert_cmpfloat (json_object_get_double_member (o, "max_mm"), <, 0.5);

  info = nb_test_cli_run (dir, 0, NULL, "campaign", "info", "--db", "c.nbc", "--json", NULL);
  g_assert_true (json_parser_load_from_data (pi, info, -1, NULL));
  fields = json_object_get_object_member (json_node_get_object (json_parser_get_root (pi)), "fields");
  g_assert_nonnull (strstr (json_object_get_string_member (fields, "instrument.registration"),
                            "rigid 2-D fit (Kabsch, SVD) to 4 surveyed points"));
  g_assert_nonnull (strstr (json_object_get_string_member (fields,
                                                           "instrument.registration_transform"),
                            "\"t_mm\""));
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (pi)), "events");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);

      if (g_str_equal (json_object_get_string_member (e, "what"), "frame registration") &&
          strstr (json_object_get_string_member (e, "new"), "S3 0."))
        logged = TRUE;
    }
  g_assert_true (logged);

  /* Bad input: two points, a non-number, a missing column. */
  g_assert_true (g_file_set_contents (two,
                                      "point,instrument_x_mm,instrument_y_mm,reference_x_mm,reference_y_mm\n"
                                      "A,0,0,0,0\nB,1,0,1,0\n", -1, NULL));
  g_free (nb_test_cli_run (dir, 2, &err, "campaign", "register", "--db", "c.nbc", "--points", "two.csv", NULL));
  g_assert_nonnull (strstr (err, "two.csv: "));
  g_clear_pointer (&err, g_free);
  g_assert_true (g_file_set_contents (bad,
                                      "point,instrument_x_mm,instrument_y_mm,reference_x_mm,reference_y_mm\n"
                                      "A,0,0,0,0\nB,1,x,1,0\n", -1, NULL));
  g_free (nb_test_cli_run (dir, 2, &err, "campaign", "register", "--db", "c.nbc", "--points", "bad.csv", NULL));
  g_assert_nonnull (strstr (err, "bad.csv:3: column 'instrument_y_mm'"));
  g_clear_pointer (&err, g_free);
  g_free (nb_test_cli_run (dir, 2, &err, "campaign", "register", "--db", "c.nbc", "--points", "bad.csv", "--dim",
               "3", NULL));
  g_assert_nonnull (strstr (err, "--dim 3 needs instrument_z_mm"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  dir = g_dir_make_tmp ("nb-register-XXXXXX", NULL);
  g_test_add_func ("/register/campaign", test_register);
  status = g_test_run ();
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while (d && (name = g_dir_read_name (d)))
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        g_unlink (path);
      }
    g_rmdir (dir);
  }
  return status;
}
