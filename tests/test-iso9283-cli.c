/* test-iso9283-cli — navbench-cli compute iso9283 end to end
 *
 * Each subcommand reads a CSV written here, and its --json figures are
 * compared to 1e-9 with tests/iso9283-reference.py run on the same data
 * (far from the origin, orientations across ±180°); bad input exits 2 with
 * FILE:LINE and nothing on stdout.
 */
#include "nb-test-cli.h"
#include "nb-test-tmp.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static char *tmp_dir;

static double
gauss (GRand *r, double sigma)
{
  double u = g_rand_double_range (r, 1e-12, 1.0), v = g_rand_double (r);

  return sigma * sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

static double
recast (double a)
{
  double r = fmod (a, 360.0);

  return r > 180 ? r - 360 : r <= -180 ? r + 360 : r;
}

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static JsonObject *
reference (const char *case_json, JsonParser *parser)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = tmp_path ("case.json");
  g_autofree char *script = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "iso9283-reference.py",
                                              NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *argv[] = { "/usr/bin/python3", script, path, NULL };
  int status;

  nb_test_write_file (path, case_json);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &status, &error));
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("the reference failed (python3-numpy is in tools/install-deps.sh): %s", err);
  return nb_test_parse_object (parser, out);
}

static double
member (JsonObject *o, const char *key)
{
  g_assert_true (json_object_has_member (o, key));
  return json_object_get_double_member (o, key);
}

static double
element (JsonObject *o, const char *key, guint i)
{
  return json_array_get_double_element (json_object_get_array_member (o, key), i);
}

#define SAME(cli, key, ref_value) nb_assert_abs (member ((cli), (key)), (ref_value), 1e-9, key)

/* ---------------------------------------------------------- pose -- */

static void
test_pose (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (1);
  g_autoptr (GString) csv = g_string_new ("# Name: ISO 9283 pose P1, 30 cycles\n"
                                          "c_deg,b_deg,a_deg,z_mm,y_mm,x_mm,note\n");
  g_autoptr (GString) cas = g_string_new ("{\"kind\":\"pose\",\"command\":"
                                          "[3210987.5,-1234567.25,456789.125,-179.96,179.99,"
                                          "90.0],\"poses\":[");
  g_autoptr (JsonParser) p1 = json_parser_new (), p2 = json_parser_new ();
  g_autofree char *path = tmp_path ("pose.csv"), *out = NULL, *err = NULL;
  const char *keys[] = { "ap_x_mm", "ap_y_mm", "ap_z_mm" };
  const char *akeys[] = { "ap_a_deg", "ap_b_deg", "ap_c_deg" };
  const char *rkeys[] = { "rp_a_deg", "rp_b_deg", "rp_c_deg" };
  JsonObject *cli, *ref;

  for (int j = 0; j < 30; j++)
    {
      double x = 3210987.5 + 0.3 + gauss (r, 0.02), y = -1234567.25 - 0.1 + gauss (r, 0.02),
             z = 456789.125 + gauss (r, 0.02);
      double a = recast (-179.96 - 0.05 + gauss (r, 0.03)), b = recast (179.99 + 0.02 + gauss (r, 0.03)),
             c = 90.0 + gauss (r, 0.03);

      g_string_append_printf (csv, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,cycle %d\n", c, b, a, z,
                              y, x, j + 1);
      g_string_append_printf (cas, "%s[%.17g,%.17g,%.17g,%.17g,%.17g,%.17g]", j ? "," : "", x, y,
                              z, a, b, c);
    }
  g_string_append (cas, "]}");
  nb_test_write_file (path, csv->str);
  out = nb_test_cli_run (NULL, 0, NULL, "compute", "iso9283", "pose", "--input", path,
                         "--command", "3210987.5,-1234567.25,456789.125,-179.96,179.99,90",
                         "--json", NULL);
  cli = nb_test_parse_object (p1, out);
  ref = reference (cas->str, p2);
  g_assert_cmpint (json_object_get_int_member (cli, "n"), ==, 30);
  SAME (cli, "ap_mm", member (ref, "ap_mm"));
  for (int k = 0; k < 3; k++)
    {
      SAME (cli, keys[k], element (ref, "ap_xyz_mm", k));
      SAME (cli, akeys[k], element (ref, "ap_abc_deg", k));
      SAME (cli, rkeys[k], element (ref, "rp_abc_deg", k));
    }
  SAME (cli, "rp_mm", member (ref, "rp_mm"));
  /* Across ±180°: AP_a near −0.05°, not ~360° off. */
  nb_assert_abs (member (cli, "ap_a_deg"), -0.05, 0.03, "AP_a near the bias");

  /* For a person: the table. */
  g_free (out);
  out = nb_test_cli_run (NULL, 0, NULL, "compute", "iso9283", "pose", "--input", path,
                         "--command", "3210987.5,-1234567.25,456789.125,-179.96,179.99,90", NULL);
  g_assert_nonnull (strstr (out, "AP_P, mm"));
  g_assert_nonnull (strstr (out, "RP_l, mm"));
  g_assert_null (strstr (out, "asks for 30"));

  /* Bad input: a bad number (file:line), a missing column, no --command. */
  g_free (out);
  nb_test_write_file (path, "x_mm,y_mm,z_mm,a_deg,b_deg,c_deg\n1,2,3,4,5,6\n1,2,3,4,five,6\n");
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "pose", "--input", path,
                         "--command", "0,0,0,0,0,0", "--json", NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "pose.csv:3:"));
  g_assert_nonnull (strstr (err, "b_deg"));
  g_free (out);
  g_free (err);
  nb_test_write_file (path, "x_mm,y_mm,z_mm,a_deg,b_deg\n1,2,3,4,5\n1,2,3,4,5\n");
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "pose", "--input", path,
                         "--command", "0,0,0,0,0,0", NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "c_deg"));
  g_free (out);
  g_free (err);
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "pose", "--input", path, NULL);
  g_assert_nonnull (strstr (err, "--command"));
  g_free (out);
  g_free (err);
  nb_test_write_file (path, "x_mm,y_mm,z_mm,a_deg,b_deg,c_deg\n1,2,3,4,5,6\n");
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "pose", "--input", path,
                         "--command", "0,0,0,0,0,0", NULL);
  g_assert_nonnull (strstr (err, "at least 2"));
}

/* ------------------------------------------------------ distance -- */

static void
test_distance (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (2);
  g_autoptr (GString) csv = g_string_new ("x1_mm,y1_mm,z1_mm,a1_deg,b1_deg,c1_deg,"
                                          "x2_mm,y2_mm,z2_mm,a2_deg,b2_deg,c2_deg\n");
  g_autoptr (GString) f = g_string_new (""), s = g_string_new ("");
  g_autoptr (JsonParser) p1 = json_parser_new (), p2 = json_parser_new ();
  g_autofree char *path = tmp_path ("distance.csv"), *out = NULL, *cas = NULL;
  const double c1[6] = { 1500000.0, 2500000.0, 800.0, 179.9, 0, 0 };
  const double c2[6] = { 1500300.0, 2499800.0, 1000.0, -179.9, 10, 0 };
  JsonObject *cli, *ref;

  for (int j = 0; j < 30; j++)
    {
      double a[6], b[6];

      for (int k = 0; k < 6; k++)
        {
          a[k] = c1[k] + (k < 3 ? 0.05 + gauss (r, 0.02) : 0.01 + gauss (r, 0.01));
          b[k] = c2[k] + (k < 3 ? -0.03 + gauss (r, 0.02) : -0.01 + gauss (r, 0.01));
        }
      a[3] = recast (a[3]);
      b[3] = recast (b[3]);
      g_string_append_printf (csv, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
                              "%.17g,%.17g\n", a[0], a[1], a[2], a[3], a[4], a[5], b[0], b[1],
                              b[2], b[3], b[4], b[5]);
      g_string_append_printf (f, "%s[%.17g,%.17g,%.17g,%.17g,%.17g,%.17g]", j ? "," : "", a[0],
                              a[1], a[2], a[3], a[4], a[5]);
      g_string_append_printf (s, "%s[%.17g,%.17g,%.17g,%.17g,%.17g,%.17g]", j ? "," : "", b[0],
                              b[1], b[2], b[3], b[4], b[5]);
    }
  nb_test_write_file (path, csv->str);
  out = nb_test_cli_run (NULL, 0, NULL, "compute", "iso9283", "distance", "--input", path,
                         "--command1", "1500000,2500000,800,179.9,0,0",
                         "--command2", "1500300,2499800,1000,-179.9,10,0", "--json", NULL);
  cli = nb_test_parse_object (p1, out);
  cas = g_strdup_printf ("{\"kind\":\"distance\",\"c1\":[1500000,2500000,800,179.9,0,0],"
                         "\"c2\":[1500300,2499800,1000,-179.9,10,0],\"first\":[%s],"
                         "\"second\":[%s]}", f->str, s->str);
  ref = reference (cas, p2);
  SAME (cli, "d_command_mm", member (ref, "d_command_mm"));
  SAME (cli, "ad_mm", member (ref, "ad_mm"));
  SAME (cli, "rd_mm", member (ref, "rd_mm"));
  SAME (cli, "ad_x_mm", element (ref, "ad_xyz_mm", 0));
  SAME (cli, "ad_z_mm", element (ref, "ad_xyz_mm", 2));
  SAME (cli, "ad_a_deg", element (ref, "ad_abc_deg", 0));
  SAME (cli, "ad_b_deg", element (ref, "ad_abc_deg", 1));
  SAME (cli, "rd_y_mm", element (ref, "rd_xyz_mm", 1));
  SAME (cli, "rd_a_deg", element (ref, "rd_abc_deg", 0));
  /* D_c = |(300, −200, 200)| = √170000. */
  nb_assert_abs (member (cli, "d_command_mm"), sqrt (170000.0), 1e-9, "D_c");
}

/* ------------------------------------------------- stabilisation -- */

static void
test_stabilisation (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (3);
  g_autoptr (GString) csv = g_string_new ("cycle,t_s,x_mm,y_mm,z_mm\n");
  g_autoptr (JsonParser) p1 = json_parser_new ();
  g_autofree char *path = tmp_path ("settle.csv"), *out = NULL, *err = NULL;
  const double decay[3] = { 0.04, 0.05, 0.06 };
  double t_max = 0;
  JsonObject *cli;
  JsonArray *cycles;

  for (int j = 0; j < 3; j++)
    {
      g_autoptr (GString) ts = g_string_new (""), ps = g_string_new ("");
      g_autoptr (JsonParser) p2 = json_parser_new ();
      g_autofree char *cas = NULL;
      JsonObject *ref;

      for (int i = 0; i < 1000; i++)
        {
          double t = i * 1e-3, e, p[3];

          e = t < 0.2 ? -250.0 * (0.2 - t)
                      : 0.3 * exp (-(t - 0.2) / decay[j]) * sin (2 * G_PI * 8 * (t - 0.2));
          p[0] = 2000000.0 + e + gauss (r, 0.001);
          p[1] = -1000000.0 + gauss (r, 0.001);
          p[2] = 700.0 + gauss (r, 0.001);
          g_string_append_printf (csv, "c%d,%.17g,%.17g,%.17g,%.17g\n", j + 1, t, p[0], p[1], p[2]);
          g_string_append_printf (ts, "%s%.17g", i ? "," : "", t);
          g_string_append_printf (ps, "%s[%.17g,%.17g,%.17g]", i ? "," : "", p[0], p[1], p[2]);
        }
      cas = g_strdup_printf ("{\"kind\":\"settling\",\"band\":0.02,\"tail\":0.2,\"t\":[%s],"
                             "\"p\":[%s]}", ts->str, ps->str);
      ref = reference (cas, p2);
      /* Kept for the comparison below (the order of the cycles). */
      g_object_set_data_full (G_OBJECT (p1), j == 0 ? "c1" : j == 1 ? "c2" : "c3",
                              g_strdup_printf ("%.17g %.17g", member (ref, "stabilisation_s"),
                                               member (ref, "overshoot_mm")), g_free);
      t_max = MAX (t_max, member (ref, "stabilisation_s"));
    }
  nb_test_write_file (path, csv->str);
  out = nb_test_cli_run (NULL, 0, NULL, "compute", "iso9283", "stabilisation", "--input", path,
                         "--band", "0.02", "--json", NULL);
  {
    g_autoptr (JsonParser) pc = json_parser_new ();

    cli = nb_test_parse_object (pc, out);
    g_assert_cmpint (json_object_get_int_member (cli, "n"), ==, 3);
    SAME (cli, "stabilisation_s", t_max);
    cycles = json_object_get_array_member (cli, "cycles");
    for (guint j = 0; j < 3; j++)
      {
        JsonObject *c = json_array_get_object_element (cycles, j);
        const char *key = j == 0 ? "c1" : j == 1 ? "c2" : "c3";
        double t_ref, ov_ref;

        g_assert_cmpstr (json_object_get_string_member (c, "cycle"), ==, key);
        g_assert_cmpint (sscanf (g_object_get_data (G_OBJECT (p1), key), "%lg %lg", &t_ref,
                                 &ov_ref), ==, 2);
        SAME (c, "stabilisation_s", t_ref);
        SAME (c, "overshoot_mm", ov_ref);
      }
  }
  /* A slower decay stabilises later: τ = decay·ln 15 bounds each cycle. */
  nb_assert_abs (t_max, 0.06 * log (15.0), 0.03, "stabilisation of the slowest cycle");

  /* No --band; a cycle that comes back. */
  g_free (out);
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "stabilisation", "--input", path,
                         NULL);
  g_assert_nonnull (strstr (err, "--band"));
  g_free (out);
  g_free (err);
  nb_test_write_file (path, "cycle,t_s,x_mm,y_mm,z_mm\na,0,0,0,0\nb,0,0,0,0\na,1,0,0,0\n");
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "stabilisation", "--input", path,
                         "--band", "0.1", NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "settle.csv:4:"));
}

/* ---------------------------------------------------------- path -- */

static void
test_path (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (4);
  g_autoptr (GString) csv = g_string_new ("cycle,t_s,x_mm,y_mm,z_mm,a_deg,b_deg,c_deg\n");
  g_autoptr (GString) cas = g_string_new ("{\"kind\":\"path\",\"m\":10,\"reach\":10,"
                                          "\"path\":{\"kind\":\"line\",\"start\":[1000000,0,500],"
                                          "\"end\":[1000300,400,500],\"abc\":[180,0,-90]},"
                                          "\"tracks\":[");
  g_autoptr (JsonParser) p1 = json_parser_new (), p2 = json_parser_new ();
  g_autofree char *path = tmp_path ("path.csv"), *out = NULL, *err = NULL;
  JsonObject *cli, *ref;

  for (int j = 0; j < 10; j++)
    {
      double off = 0.1 + gauss (r, 0.02);

      g_string_append_printf (cas, "%s[", j ? "," : "");
      /* 500 mm along the (0.6, 0.8, 0) line at 250 mm/s, sampled at 1 kHz, from 10 mm before. */
      for (int i = 0; i < 2100; i++)
        {
          double s = -10.0 + 0.25 * i, p[3] = { 1000000 + 0.6 * s, 0.8 * s - off, 500 + off };
          double a = recast (180 + 0.02 + gauss (r, 0.01)), b = gauss (r, 0.01), c = -90 + gauss (r, 0.01);

          p[0] += gauss (r, 0.003);
          p[1] += gauss (r, 0.003);
          g_string_append_printf (csv, "%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", j + 1,
                                  i * 1e-3, p[0], p[1], p[2], a, b, c);
          g_string_append_printf (cas, "%s[%.17g,%.17g,%.17g,%.17g,%.17g,%.17g]", i ? "," : "",
                                  p[0], p[1], p[2], a, b, c);
        }
      g_string_append_c (cas, ']');
    }
  g_string_append (cas, "]}");
  nb_test_write_file (path, csv->str);
  out = nb_test_cli_run (NULL, 0, NULL, "compute", "iso9283", "path", "--input", path,
                         "--line", "1000000,0,500,1000300,400,500", "--orientation", "180,0,-90",
                         "--velocity", "250", "--json", NULL);
  cli = nb_test_parse_object (p1, out);
  ref = reference (cas->str, p2);
  g_assert_cmpint (json_object_get_int_member (cli, "n"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (cli, "m"), ==, 10);
  SAME (cli, "at_mm", member (ref, "at_mm"));
  SAME (cli, "rt_mm", member (ref, "rt_mm"));
  SAME (cli, "at_a_deg", element (ref, "at_abc_deg", 0));
  SAME (cli, "rt_c_deg", element (ref, "rt_abc_deg", 2));
  /* The offset (0, −0.1, 0.1)·… : AT ≈ 0.1·|(−0.8·… )|; the velocity 250 mm/s. */
  nb_assert_abs (member (cli, "v_mean_mm_s"), 250, 2, "v̄");
  nb_assert_abs (member (cli, "av_pct"), 0, 1, "AV");
  g_assert_cmpfloat (member (cli, "fv_mm_s"), >, 0);

  /* Without orientation columns the orientation figures are null. */
  g_free (out);
  nb_test_write_file (path, "cycle,t_s,x_mm,y_mm,z_mm\n1,0,-1,0,0\n1,1,11,0,0\n2,0,-1,0.1,0\n"
                            "2,1,11,0.1,0\n");
  out = nb_test_cli_run (NULL, 0, NULL, "compute", "iso9283", "path", "--input", path,
                         "--line", "0,0,0,10,0,0", "--points", "4", "--json", NULL);
  {
    g_autoptr (JsonParser) p3 = json_parser_new ();
    JsonObject *o = nb_test_parse_object (p3, out);

    /* Barycentre (·, 0.05, 0) at every point; l = 0.05 both → RT = 0.05. */
    nb_assert_abs (member (o, "at_mm"), 0.05, 1e-12, "AT by hand");
    nb_assert_abs (member (o, "rt_mm"), 0.05, 1e-12, "RT by hand");
    g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (o, "at_a_deg")));
  }
  /* Orientation columns without --orientation; both --line and --circle. */
  g_free (out);
  nb_test_write_file (path, "cycle,t_s,x_mm,y_mm,z_mm,a_deg,b_deg,c_deg\n1,0,0,0,0,0,0,0\n");
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "path", "--input", path,
                         "--line", "0,0,0,10,0,0", NULL);
  g_assert_nonnull (strstr (err, "--orientation"));
  g_free (out);
  g_free (err);
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "path", "--input", path,
                         "--line", "0,0,0,10,0,0", "--circle", "0,0,0,1,0,0,0,0,1", NULL);
  g_assert_nonnull (strstr (err, "one of --line and --circle"));
}

/* -------------------------------------------------------- corner -- */

static void
test_corner (void)
{
  g_autoptr (GString) csv = g_string_new ("cycle,t_s,x_mm,y_mm,z_mm\n");
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autofree char *path = tmp_path ("corner.csv"), *out = NULL;
  JsonObject *o;
  int i = 0;

  /* One cycle: along x to (90, 0), a quarter arc of radius 10 about (90, 10)
   * sampled at −45° exactly, out to x = 100.25, then up the second leg. */
  for (int x = 0; x < 90; x++, i++)
    g_string_append_printf (csv, "1,%g,%d,0,0\n", i * 0.01, x);
  for (int k = 0; k <= 90; k++, i++)
    {
      double phi = (-90.0 + k) * G_PI / 180.0;

      g_string_append_printf (csv, "1,%g,%.17g,%.17g,0\n", i * 0.01, 90 + 10 * cos (phi),
                              10 + 10 * sin (phi));
    }
  g_string_append_printf (csv, "1,%g,100.25,20,0\n", (i++) * 0.01);
  for (int y = 30; y <= 100; y++, i++)
    g_string_append_printf (csv, "1,%g,100,%d,0\n", i * 0.01, y);
  nb_test_write_file (path, csv->str);
  out = nb_test_cli_run (NULL, 0, NULL, "compute", "iso9283", "corner", "--input", path,
                         "--corner", "0,0,0,100,0,0,100,100,0", "--json", NULL);
  o = nb_test_parse_object (p, out);
  nb_assert_abs (member (o, "cr_mm"), 10 * (G_SQRT2 - 1), 1e-12, "CR");
  nb_assert_abs (member (o, "co_mm"), 0.25, 1e-12, "CO");
}

/* ------------------------------------------------------- weaving -- */

/* The lateral deviation of a weave made of parabolic arcs, one a half-wave
 * (crest +1 at a quarter period, trough −1 at three quarters, 0 between
 * them): near each extreme it is a parabola exactly, so the vertex of the
 * parabola 8.7's extremes are taken as is the arc's own, and the stroke and
 * frequency are known in closed form (below). */
static double
arcs (double y)
{
  double f = y - floor (y);

  return f < 0.5 ? 1 - (4 * f - 1) * (4 * f - 1) : -(1 - (4 * f - 3) * (4 * f - 3));
}

static void
test_weaving (void)
{
  /* The base line along u = (2, 1, 2)/3 from S, the weave along
   * d = (1, −2, 0)/√5, off the plane along e = u × d. */
  const double S[3] = { 1000.5, -200.25, 450.125 }, L = 300, v = 25;
  const double u[3] = { 2 / 3.0, 1 / 3.0, 2 / 3.0 };
  const double d[3] = { 1 / sqrt (5.0), -2 / sqrt (5.0), 0 };
  const double e[3] = { u[1] * d[2] - u[2] * d[1], u[2] * d[0] - u[0] * d[2],
                        u[0] * d[1] - u[1] * d[0] };
  /* Per cycle: half the stroke A, the frequency F, the phase, the attained
   * line's offset across (w0) and out of the plane (h0), its drift δ across. */
  const double A[3] = { 5.15, 4.9, 5.05 }, F[3] = { 1.95, 2.0, 2.03 };
  const double phase[3] = { 0.2, 0.9, 0.55 }, w0[3] = { 0.4, -0.1, -0.2 };
  const double h0[3] = { 0.05, 0, -0.03 }, drift[3] = { 0.1, -0.05, 0 };
  g_autoptr (GString) csv = g_string_new ("# 8.7: three weaving cycles\nx_mm,t_s,cycle,z_mm,y_mm\n");
  g_autoptr (JsonParser) p1 = json_parser_new (), p2 = json_parser_new ();
  g_autofree char *path = tmp_path ("weave.csv"), *out = NULL, *err = NULL, *line = NULL;
  double stroke = 0, freq = 0, ws_max = 0, wf_max = 0, ws, wf;
  JsonObject *cli;

  for (int j = 0; j < 3; j++)
    {
      /* 300 mm at 25 mm/s from 5 mm before the line, at 1 kHz. */
      for (int i = 0; i <= 12400; i++)
        {
          double t = 10.0 * j + i * 1e-3, tau = i * 1e-3, s = -5 + v * tau;
          double w = A[j] * arcs (F[j] * tau + phase[j]) + w0[j] + drift[j] * tau, x[3];

          for (int k = 0; k < 3; k++)
            x[k] = S[k] + s * u[k] + w * d[k] + h0[j] * e[k];
          g_string_append_printf (csv, "%.17g,%.17g,c%d,%.17g,%.17g\n", x[0], t, j + 1, x[2], x[1]);
        }
      /* Closed form: about a crest at t_k, w = A·(1 − 16F²(t − t_k)²) + δ·t,
       * whose vertex is A + δ·t_k + δ²/(64·A·F²); a trough's is −A + δ·t_k −
       * δ²/(64·A·F²): an inner extreme stands 2A + δ²/(32·A·F²) from the
       * middle of its neighbours (half a period either side), and every
       * vertex moves by the same time, so crest to crest is 1/F. */
      {
        double sj = 2 * A[j] + drift[j] * drift[j] / (32 * A[j] * F[j] * F[j]);
        double wsj = (sj - 10) / 10 * 100, wfj = (F[j] - 2) / 2 * 100;

        stroke += sj / 3;
        freq += F[j] / 3;
        if (fabs (wsj) > fabs (ws_max))
          ws_max = wsj;
        if (fabs (wfj) > fabs (wf_max))
          wf_max = wfj;
      }
    }
  ws = (stroke - 10) / 10 * 100;
  wf = (freq - 2) / 2 * 100;
  nb_test_write_file (path, csv->str);
  line = g_strdup_printf ("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", S[0], S[1], S[2], S[0] + L * u[0],
                          S[1] + L * u[1], S[2] + L * u[2]);
  out = nb_test_cli_run (NULL, 0, NULL, "compute", "iso9283", "weaving", "--input", path, "--line",
                         line, "--direction", "1,-2,0", "--stroke", "10", "--frequency", "2",
                         "--json", NULL);
  cli = nb_test_parse_object (p1, out);
  g_test_message ("weaving: S̄_a %.12f mm (closed form %.12f), F̄_a %.12f Hz (%.12f), WS %.9f %%, "
                  "WF %.9f %%", member (cli, "stroke_mm"), stroke, member (cli, "frequency_hz"),
                  freq, member (cli, "ws_pct"), member (cli, "wf_pct"));
  g_assert_cmpint (json_object_get_int_member (cli, "n"), ==, 3);
  SAME (cli, "length_mm", L);
  SAME (cli, "s0_mm", L / 11);
  SAME (cli, "s1_mm", L * 10 / 11);
  SAME (cli, "stroke_command_mm", 10);
  SAME (cli, "frequency_command_hz", 2);
  SAME (cli, "stroke_mm", stroke);
  SAME (cli, "frequency_hz", freq);
  SAME (cli, "ws_pct", ws);
  SAME (cli, "wf_pct", wf);
  SAME (cli, "ws_max_pct", ws_max);
  SAME (cli, "wf_max_pct", wf_max);
  /* The drift's part is there: 2·5.15 + 0.01/(32·5.15·1.95²) mm in cycle 1. */
  g_assert_cmpfloat (fabs (stroke - 2 * (5.15 + 4.9 + 5.05) / 3), >, 1e-6);

  /* For a person: the table, with the note of the measured part. */
  g_free (out);
  out = nb_test_cli_run (NULL, 0, NULL, "compute", "iso9283", "weaving", "--input", path, "--line",
                         line, "--direction", "1,-2,0", "--stroke", "10", "--frequency", "2", NULL);
  g_assert_nonnull (strstr (out, "8.7"));
  g_assert_nonnull (strstr (out, "WS, %"));
  g_assert_nonnull (strstr (out, "measured over 27.3 … 272.7 mm"));

  /* Bad input, exit 2, nothing on stdout: a bad number (FILE:LINE, the
   * column), no t_s column, a cycle too short to weave (FILE:LINE of its
   * first row), the direction along the line, no --stroke. */
  g_free (out);
  nb_test_write_file (path, "cycle,t_s,x_mm,y_mm,z_mm\n1,0,0,0,0\n1,0.001,0,zero,0\n");
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "weaving", "--input", path, "--line",
                         "0,0,0,100,0,0", "--direction", "0,1,0", "--stroke", "10", "--frequency",
                         "2", "--json", NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "weave.csv:3:"));
  g_assert_nonnull (strstr (err, "y_mm"));
  g_free (out);
  g_free (err);
  nb_test_write_file (path, "cycle,time_s,x_mm,y_mm,z_mm\n1,0,0,0,0\n");
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "weaving", "--input", path, "--line",
                         "0,0,0,100,0,0", "--direction", "0,1,0", "--stroke", "10", "--frequency",
                         "2", "--json", NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "weave.csv"));
  g_assert_nonnull (strstr (err, "t_s"));
  g_free (out);
  g_free (err);
  /* Cycle "a" (line 2) has two samples, "b" six, "c" enough. */
  {
    g_autoptr (GString) two = g_string_new ("cycle,t_s,x_mm,y_mm,z_mm\n");

    for (int i = 0; i <= 2000; i++)
      g_string_append_printf (two, "%s,%.17g,%.17g,%.17g,0\n", i < 2 ? "a" : i < 8 ? "b" : "c",
                              i * 0.01, i * 0.05, 5 * sin (2 * G_PI * 2 * i * 0.01));
    nb_test_write_file (path, two->str);
  }
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "weaving", "--input", path, "--line",
                         "0,0,0,100,0,0", "--direction", "0,1,0", "--stroke", "10", "--frequency",
                         "2", "--json", NULL);
  g_assert_cmpstr (out, ==, "");
  g_test_message ("too short: %s", err);
  g_assert_nonnull (strstr (err, "weave.csv:2: cycle 'a': the track has 0 samples"));
  g_assert_nonnull (strstr (err, "samples on the measured part"));
  g_free (out);
  g_free (err);
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "weaving", "--input", path, "--line",
                         "0,0,0,100,0,0", "--direction", "3,0,0", "--stroke", "10", "--frequency",
                         "2", NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "along the line"));
  g_free (out);
  g_free (err);
  out = nb_test_cli_run (NULL, 2, &err, "compute", "iso9283", "weaving", "--input", path, "--line",
                         "0,0,0,100,0,0", "--direction", "0,1,0", "--frequency", "2", NULL);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "--stroke MM"));
}

static void
test_help (void)
{
  const char *commands[] = { "pose", "distance", "stabilisation", "path", "corner", "weaving" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *out = nb_test_cli_run (NULL, 0, NULL, "compute", "iso9283", commands[i],
                                              "--help", NULL);

      g_assert_nonnull (strstr (out, "ISO 9283"));
      g_assert_nonnull (strstr (out, "--input"));
    }
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = nb_test_make_dir ();
  g_test_add_func ("/iso9283-cli/pose", test_pose);
  g_test_add_func ("/iso9283-cli/distance", test_distance);
  g_test_add_func ("/iso9283-cli/stabilisation", test_stabilisation);
  g_test_add_func ("/iso9283-cli/path", test_path);
  g_test_add_func ("/iso9283-cli/corner", test_corner);
  g_test_add_func ("/iso9283-cli/weaving", test_weaving);
  g_test_add_func ("/iso9283-cli/help", test_help);
  rc = g_test_run ();
  nb_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
