/* navbench-cli map end to end: `map generate` writes maps with known
 * distortion (PGM and PNG, trinary and scale), `map corners --json` finds
 * their corners within one cell and the right Dm (truth from a CSV or from
 * the arena's geometry), `--plot` draws a PNG, `map check` exits 2 on a map
 * with defects and 0 on a clean one; bad files exit 2 with
 * "navbench-cli: FILE…: reason" and nothing on stdout. */
#include "nb-test.h"
#include "nb-test-cli.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>

typedef NbTestRun Run;

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, nb_test_run_clear)

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

static JsonNode *
parse_json (const Run *run)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  if (run->status != 0)
    g_error ("exit %d: %s", run->status, run->err);
  g_assert_true (json_parser_load_from_data (parser, run->out, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static char *
tmp_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("nb-map-cli-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

/* Generate with the options, then find the corners; compares with what the
 * generator says the map shows. */
static void
check_corners (const char *format, const char *mode, const char *truth_how)
{
  g_autofree char *dir = tmp_dir ();
  g_autofree char *yaml = g_build_filename (dir, "m.yaml", NULL);
  g_autofree char *truth = g_build_filename (dir, "m-truth.csv", NULL);
  g_autofree char *plot = g_build_filename (dir, "plot.png", NULL);
  g_auto (Run) gen = cli ("map", "generate", "--out", dir, "--name", "m", "--format", format,
                          "--mode", mode, "--rotate-deg", "6", "--translate-mm", "80,-40",
                          "--scale", "1.015", "--noise-cells", "0.5", "--speckle", "0.001",
                          "--resolution-mm", "40", "--p0-lu", "1.5,2,-20",
                          "--origin-yaw-deg", "30", "--gap", "3,0.2,0.35,0", "--json", NULL);
  g_autoptr (JsonNode) gen_root = parse_json (&gen);
  JsonObject *g = json_node_get_object (gen_root);
  JsonArray *expected = json_object_get_array_member (g, "map_corners");
  g_auto (Run) run = { 0 };
  g_autoptr (JsonNode) root = NULL;
  JsonObject *o;
  JsonArray *corners, *walls;
  gsize png_len;
  g_autofree char *png = NULL;

  g_assert_cmpstr (json_object_get_string_member (g, "map"), ==, yaml);
  if (g_str_equal (truth_how, "csv"))
    run = cli ("map", "corners", yaml, "--truth", truth, "--json", "--plot", plot, NULL);
  else
    run = cli ("map", "corners", yaml, "--lu-mm", "500", "--p0-lu", "1.5,2,-20", "--json",
               "--plot", plot, NULL);
  root = parse_json (&run);
  o = json_node_get_object (root);
  corners = json_object_get_array_member (o, "corners");
  walls = json_object_get_array_member (o, "walls");
  g_assert_cmpuint (json_array_get_length (corners), ==, 4);
  g_assert_cmpuint (json_array_get_length (walls), ==, 4);
  for (guint k = 0; k < 4; k++)
    {
      JsonObject *c = json_array_get_object_element (corners, k);
      JsonArray *e = json_array_get_array_element (expected, k);
      double dx = json_object_get_double_member (c, "x_mm") - json_array_get_double_element (e, 0);
      double dy = json_object_get_double_member (c, "y_mm") - json_array_get_double_element (e, 1);

      g_assert_cmpint (json_object_get_int_member (c, "corner"), ==, k + 1);
      nb_assert_abs (hypot (dx, dy), 0, 40.0, "corner within one cell");
      g_assert_cmpfloat (json_object_get_double_member (c, "sigma_mm"), >, 0);
      g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (walls, k),
                                                        "residual_mm"), <, 40.0);
    }
  nb_assert_abs (json_object_get_double_member (o, "dm_mm"),
                 json_object_get_double_member (g, "dm_mm"), 40.0, "Dm");
  g_assert_true (json_object_get_boolean_member (o, "passed"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "defects")), ==, 0);
  nb_assert_abs (json_object_get_double_member (o, "resolution_mm"), 40, 1e-9, "resolution");
  /* the picture: a PNG of some size */
  g_assert_true (g_file_get_contents (plot, &png, &png_len, NULL));
  g_assert_cmpuint (png_len, >, 10000);
  g_assert_cmpint (memcmp (png, "\x89PNG", 4), ==, 0);
  nb_test_remove_tree (dir);
}

static void
test_corners_pgm_trinary (void)
{
  check_corners ("pgm", "trinary", "csv");
}

static void
test_corners_png_scale (void)
{
  check_corners ("png", "scale", "geometry");
}

static void
test_corners_pgm_scale (void)
{
  check_corners ("pgm", "scale", "geometry");
}

static void
test_corners_png_trinary (void)
{
  check_corners ("png", "trinary", "csv");
}

static void
test_check (void)
{
  g_autofree char *dir = tmp_dir ();
  g_autofree char *clean = g_build_filename (dir, "clean.yaml", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.yaml", NULL);
  g_auto (Run) g1 = cli ("map", "generate", "--out", dir, "--name", "clean", "--rotate-deg", "3",
                         NULL);
  g_auto (Run) g2 = cli ("map", "generate", "--out", dir, "--name", "bad", "--rotate-deg", "3",
                         "--gap", "1,0.4,0.6,1", "--shadow", "3,200,0.3,0.8", NULL);
  g_auto (Run) ok = { 0 }, fail = { 0 }, accepted = { 0 }, text = { 0 };
  g_autoptr (JsonNode) root = NULL, root2 = NULL;
  JsonArray *defects;
  gboolean seen_open = FALSE, seen_shadow = FALSE;

  g_assert_cmpint (g1.status, ==, 0);
  g_assert_cmpint (g2.status, ==, 0);
  ok = cli ("map", "check", clean, NULL);
  g_assert_cmpint (ok.status, ==, 0);
  g_assert_nonnull (strstr (ok.out, "0 defects found"));
  g_assert_nonnull (strstr (ok.out, "The map passes"));

  fail = cli ("map", "check", bad, "--json", NULL);
  g_assert_cmpint (fail.status, ==, 2);
  g_assert_nonnull (strstr (fail.err, "the map fails clause 10"));
  fail.status = 0;              /* the JSON is still there, for the operator */
  root = parse_json (&fail);
  defects = json_object_get_array_member (json_node_get_object (root), "defects");
  g_assert_cmpuint (json_array_get_length (defects), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *d = json_array_get_object_element (defects, i);
      const char *kind = json_object_get_string_member (d, "kind");

      if (g_str_equal (kind, "open_contour"))
        {
          seen_open = TRUE;
          g_assert_cmpint (json_object_get_int_member (d, "wall"), ==, 1);
          nb_assert_abs (json_object_get_double_member (d, "length_mm"), 700, 150, "opening");
        }
      else
        {
          seen_shadow = TRUE;
          g_assert_cmpstr (kind, ==, "shadow");
          g_assert_cmpint (json_object_get_int_member (d, "wall"), ==, 3);
          nb_assert_abs (json_object_get_double_member (d, "offset_mm"), 250, 30, "shadow offset");
        }
      g_assert_false (json_object_get_boolean_member (d, "accepted"));
    }
  g_assert_true (seen_open && seen_shadow);

  /* within the accepted ranges: exit 0 */
  accepted = cli ("map", "check", bad, "--accept-gap-mm", "1000", "--accept-shadow-mm", "300",
                  "--json", NULL);
  root2 = parse_json (&accepted);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (root2), "passed"));

  text = cli ("map", "corners", bad, NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "DEFECT: open contour: wall 1 is open over"));
  g_assert_nonnull (strstr (text.out, "DEFECT: shadow of wall 3"));
  nb_test_remove_tree (dir);
}

static void
expect_usage (Run *run, const char *message)
{
  g_assert_cmpint (run->status, ==, 2);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_true (g_str_has_prefix (run->err, "navbench-cli: "));
  if (strstr (run->err, message) == NULL)
    g_error ("'%s' does not say '%s'", run->err, message);
}

static void
test_bad_input (void)
{
  g_autofree char *dir = tmp_dir ();
  g_autofree char *yaml = g_build_filename (dir, "x.yaml", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.yaml", NULL);
  g_auto (Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, r5 = { 0 }, r6 = { 0 };

  g_assert_true (g_file_set_contents (yaml, "image: x.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n",
                                      -1, NULL));
  r1 = cli ("map", "corners", yaml, NULL);
  expect_usage (&r1, "x.pgm: cannot read the map image");
  r2 = cli ("map", "corners", NULL);
  expect_usage (&r2, "MAP.yaml is required");
  r3 = cli ("map", "check", yaml, "extra", NULL);
  expect_usage (&r3, "unexpected argument 'extra'");
  r4 = cli ("map", "corners", yaml, "--lu-mm", "500", NULL);
  expect_usage (&r4, "--p0-lu X,Y,THETA is required");
  r5 = cli ("map", "generate", "--out", dir, "--gap", "5,0.1,0.2,1", NULL);
  expect_usage (&r5, "--gap: the wall is 1..4, got 5");
  g_assert_true (g_file_set_contents (empty, "image: e.pgm\nresolution: 0.05\norigin: [0, 0, 0]\n",
                                      -1, NULL));
  {
    g_autofree char *img = g_build_filename (dir, "e.pgm", NULL);

    /* all free: no walls to fit */
    g_assert_true (g_file_set_contents (img, "P2 3 3 255\n254 254 254 254 254 254 254 254 254\n",
                                        -1, NULL));
    r6 = cli ("map", "corners", empty, NULL);
    expect_usage (&r6, "empty.yaml: no arena outline in the map");
  }
  nb_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/map-cli/corners/pgm-trinary", test_corners_pgm_trinary);
  g_test_add_func ("/map-cli/corners/png-scale", test_corners_png_scale);
  g_test_add_func ("/map-cli/corners/pgm-scale", test_corners_pgm_scale);
  g_test_add_func ("/map-cli/corners/png-trinary", test_corners_png_trinary);
  g_test_add_func ("/map-cli/check", test_check);
  g_test_add_func ("/map-cli/bad-input", test_bad_input);
  return g_test_run ();
}
