/* compute ape|rpe with a campaign track (campaign:F.nbc:TRIAL_ID): a trial's
 * stored samples against an estimate whose error is known. */
#include "nb-test.h"
#include "nb-test-cli.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

static void
test_campaign_track (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-traj-campaign-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "path.csv", NULL);
  g_autofree char *tum = g_build_filename (dir, "est.tum", NULL);
  g_autofree char *db = g_build_filename (dir, "c.nbc", NULL);
  g_autofree char *spec = g_strconcat ("campaign:", db, ":1", NULL);
  g_autofree char *bad = g_strconcat ("campaign:", db, ":99", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  GString *c = g_string_new ("trial,t_s,x_mm,y_mm\n"), *t = g_string_new ("# t x y z qx qy qz qw\n");
  JsonObject *o;

  for (int i = 0; i < 200; i++)
    {
      double x = 25.0 * i, y = 20.0 * sin (i / 30.0);

      g_string_append_printf (c, "1,%.2f,%.3f,%.6f\n", 0.01 * i, x, y);
      /* The estimate: 30 mm ahead in x and 40 mm to the left: 50 mm off everywhere. */
      g_string_append_printf (t, "%.2f %.6f %.9f 0 0 0 0 1\n", 0.01 * i, (x + 30.0) / 1000.0,
                              (y + 40.0) / 1000.0);
    }
  g_assert_true (g_file_set_contents (csv, c->str, -1, NULL));
  g_assert_true (g_file_set_contents (tum, t->str, -1, NULL));
  g_string_free (c, TRUE);
  g_string_free (t, TRUE);

  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "new", "--db", db, "--name", "t", NULL));
  g_free (nb_test_cli_run (NULL, 0, NULL, "campaign", "import", "--db", db, "--clause", "8",
                           "--config", "s", "--input", csv, "--from", "0,0", "--to", "5000,0",
                           NULL));
  out = nb_test_cli_run (NULL, 0, NULL, "compute", "ape", "--ref", spec, "--est", tum, "--json",
                         NULL);
  g_assert_true (json_parser_load_from_data (p, out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (p));
  g_assert_cmpint (json_object_get_int_member (o, "n_matched"), ==, 200);
  /* Both files carry 1e-6 mm of rounding. */
  nb_assert_abs (json_object_get_double_member (o, "rmse"), 0.050, 1e-8, "APE 50 mm");
  nb_assert_abs (json_object_get_double_member (o, "std"), 0.0, 1e-8, "the same everywhere");
  g_free (nb_test_cli_run (NULL, 2, &err, "compute", "ape", "--ref", bad, "--est", tum, NULL));
  g_assert_nonnull (strstr (err, "trial 99 has no samples"));
  g_clear_pointer (&err, g_free);
  g_free (nb_test_cli_run (NULL, 2, &err, "compute", "ape", "--ref", "campaign:nothing.nbc", "--est",
                           tum, NULL));
  g_assert_nonnull (strstr (err, "F.nbc:TRIAL_ID"));
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
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/traj/campaign-track", test_campaign_track);
  return g_test_run ();
}
