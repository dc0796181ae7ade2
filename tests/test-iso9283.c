/* test-iso9283 — ISO 9283 characteristics (core/iso9283) against an independent computation
 *
 * Every worked case is written as JSON, computed again by
 * tests/iso9283-reference.py (exact rational means, complex wrapping, numpy)
 * and compared to 1e-9 (mm, °, s).  The cases sit kilometres from the
 * frame's origin with orientations across ±180°.  Corner and velocity
 * figures are checked against closed forms, the test cube against its
 * geometry and the arm's kinematics.
 */
#include "nb-iso9283.h"
#include "nb-iso9283-cube.h"

#include "nb-angle.h"
#include "nb-arm-file.h"
#include "nb-error.h"
#include "nb-test-tmp.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static char *tmp_dir;

/* --------------------------------------------------- the reference -- */

static void
json_pose (GString *s, const NbPose6 *p)
{
  g_string_append_printf (s, "[%.17g,%.17g,%.17g,%.17g,%.17g,%.17g]", p->x_mm, p->y_mm, p->z_mm,
                          p->a_deg, p->b_deg, p->c_deg);
}

static void
json_poses (GString *s, const NbPose6 *p, gsize n)
{
  g_string_append_c (s, '[');
  for (gsize j = 0; j < n; j++)
    {
      if (j)
        g_string_append_c (s, ',');
      json_pose (s, &p[j]);
    }
  g_string_append_c (s, ']');
}

/* Runs the reference on the case; the parser owns the result object. */
static JsonObject *
reference (const char *case_json, JsonParser **parser)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "case.json", NULL);
  g_autofree char *script = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "iso9283-reference.py",
                                              NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *argv[] = { "/usr/bin/python3", script, path, NULL };
  int status;

  nb_test_write_file (path, case_json);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("the reference failed (python3-numpy is in tools/install-deps.sh): %s", err);
  *parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (*parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (*parser));
}

static double
ref_number (JsonObject *o, const char *key)
{
  g_assert_true (json_object_has_member (o, key));
  return json_object_get_double_member (o, key);
}

static void
check3 (JsonObject *o, const char *key, const double v[3], double tol)
{
  JsonArray *a = json_object_get_array_member (o, key);

  g_assert_nonnull (a);
  for (int k = 0; k < 3; k++)
    {
      g_autofree char *what = g_strdup_printf ("%s[%d]", key, k);

      nb_assert_abs (v[k], json_array_get_double_element (a, k), tol, what);
    }
}

#define CHECK1(o, key, value) nb_assert_abs ((value), ref_number ((o), (key)), 1e-9, key)

/* ----------------------------------------------------------- data -- */

static double
gauss (GRand *r, double sigma)
{
  /* Box–Muller: the tests need reproducible normal noise. */
  double u = g_rand_double_range (r, 1e-12, 1.0), v = g_rand_double (r);

  return sigma * sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

/* A command far from the origin, with a and b across ±180°. */
static const NbPose6 far_command = { 2513456.125, -1804321.75, 903210.5, 179.95, -179.97, 0.02 };

static void
attained_set (GRand *r, const NbPose6 *c, const double bias[6], double sigma_mm,
              double sigma_deg, NbPose6 *out, gsize n)
{
  for (gsize j = 0; j < n; j++)
    {
      out[j].x_mm = c->x_mm + bias[0] + gauss (r, sigma_mm);
      out[j].y_mm = c->y_mm + bias[1] + gauss (r, sigma_mm);
      out[j].z_mm = c->z_mm + bias[2] + gauss (r, sigma_mm);
      /* As an instrument reports them: in (−180°, 180°]. */
      out[j].a_deg = nb_angle_recast_deg (c->a_deg + bias[3] + gauss (r, sigma_deg));
      out[j].b_deg = nb_angle_recast_deg (c->b_deg + bias[4] + gauss (r, sigma_deg));
      out[j].c_deg = nb_angle_recast_deg (c->c_deg + bias[5] + gauss (r, sigma_deg));
    }
}

/* ------------------------------------------------------------ 7.2 -- */

static void
test_pose (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (9283);
  g_autoptr (GString) s = g_string_new ("{\"kind\":\"pose\",\"command\":");
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GError) error = NULL;
  const double bias[6] = { 0.12, -0.08, 0.05, 0.03, -0.02, 0.01 };
  NbPose6 p[30];
  NbIso9283Pose res;
  JsonObject *o;
  gboolean wrapped_a = FALSE, wrapped_b = FALSE;

  attained_set (r, &far_command, bias, 0.02, 0.05, p, 30);
  for (int j = 0; j < 30; j++)
    {
      wrapped_a |= p[j].a_deg < 0;
      wrapped_b |= p[j].b_deg > 0;
    }
  /* The case really straddles ±180°. */
  g_assert_true (wrapped_a && wrapped_b);
  g_assert_true (nb_iso9283_pose (&far_command, p, 30, &res, &error));
  g_assert_no_error (error);
  json_pose (s, &far_command);
  g_string_append (s, ",\"poses\":");
  json_poses (s, p, 30);
  g_string_append_c (s, '}');
  o = reference (s->str, &parser);

  g_assert_cmpuint (res.n, ==, 30);
  CHECK1 (o, "ap_mm", res.ap_mm);
  check3 (o, "ap_xyz_mm", res.ap_xyz_mm, 1e-9);
  check3 (o, "ap_abc_deg", res.ap_abc_deg, 1e-9);
  check3 (o, "mean_deg", res.mean_deg, 1e-9);
  CHECK1 (o, "l_mean_mm", res.l_mean_mm);
  CHECK1 (o, "s_l_mm", res.s_l_mm);
  CHECK1 (o, "rp_mm", res.rp_mm);
  check3 (o, "rp_abc_deg", res.rp_abc_deg, 1e-9);
  /* And near the truth the data were made from (30 samples: loose). */
  nb_assert_abs (res.ap_xyz_mm[0], 0.12, 0.02, "AP_x near the bias");
  nb_assert_abs (res.ap_abc_deg[0], 0.03, 0.05, "AP_a near the bias, not 360° off");
  nb_assert_abs (res.rp_abc_deg[0], 3 * 0.05, 0.06, "RP_a near 3σ");
  g_assert_cmpfloat (res.rp_mm, ==, res.l_mean_mm + 3 * res.s_l_mm);

  /* Bad input: one pose, a non-finite pose. */
  g_assert_false (nb_iso9283_pose (&far_command, p, 1, &res, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "at least 2"));
  g_clear_error (&error);
  p[7].z_mm = NAN;
  g_assert_false (nb_iso9283_pose (&far_command, p, 30, &res, &error));
  g_assert_nonnull (strstr (error->message, "attained pose 8"));
}

/* A small worked case by hand: the figures of four poses. */
static void
test_pose_by_hand (void)
{
  const NbPose6 c = { 0, 0, 0, 180, 0, 0 };
  const NbPose6 p[4] = {
    { 1, 0, 0, 179, 0, 0 }, { -1, 0, 0, -179, 0, 0 }, { 0, 1, 0, 178, 0, 0 }, { 0, -1, 0, -178, 0, 0 },
  };
  NbIso9283Pose res;

  g_assert_true (nb_iso9283_pose (&c, p, 4, &res, NULL));
  /* Barycentre at the command; every l_j = 1 → S_l = 0, RP = 1. */
  nb_assert_abs (res.ap_mm, 0, 1e-15, "AP");
  nb_assert_abs (res.rp_mm, 1, 1e-15, "RP");
  /* δa = −1, +1, −2, +2 → mean 0 (a naive mean of 179, −179, 178, −178 is 0 too, but ā
   * must come out as 180, not 0); S_a = sqrt(10/3). */
  nb_assert_abs (res.ap_abc_deg[0], 0, 1e-12, "AP_a");
  nb_assert_abs (res.mean_deg[0], 180, 1e-12, "ā");
  nb_assert_abs (res.rp_abc_deg[0], 3 * sqrt (10.0 / 3.0), 1e-12, "RP_a");
}

/* ------------------------------------------------------------ 7.2 -- */

static void
test_vap (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (73);
  g_autoptr (GString) s = g_string_new ("{\"kind\":\"vap\",\"command\":");
  g_autoptr (JsonParser) parser = NULL;
  const double bias[3][6] = {
    { 0.10, 0.00, 0.00, 0.02, 0.00, -0.01 },
    { 0.00, 0.15, 0.00, -0.03, 0.01, 0.00 },
    { 0.00, 0.00, -0.12, 0.00, -0.02, 0.04 },
  };
  NbPose6 g[3][30];
  const NbPose6 *gp[3] = { g[0], g[1], g[2] };
  const gsize n[3] = { 30, 30, 30 };
  NbIso9283Vap res;
  JsonObject *o;

  json_pose (s, &far_command);
  g_string_append (s, ",\"groups\":[");
  for (int h = 0; h < 3; h++)
    {
      attained_set (r, &far_command, bias[h], 0.01, 0.02, g[h], 30);
      if (h)
        g_string_append_c (s, ',');
      json_poses (s, g[h], 30);
    }
  g_string_append (s, "]}");
  g_assert_true (nb_iso9283_vap (&far_command, gp, n, 3, &res, NULL));
  o = reference (s->str, &parser);
  CHECK1 (o, "vap_mm", res.vap_mm);
  check3 (o, "vap_abc_deg", res.vap_abc_deg, 1e-9);
  /* Barycentres ~ (0.1,0,0), (0,0.15,0), (0,0,−0.12): the largest gap ~ 0.19 mm. */
  nb_assert_abs (res.vap_mm, sqrt (0.15 * 0.15 + 0.12 * 0.12), 0.02, "vAP near the model");
}

/* ------------------------------------------------------------ 7.7 -- */

/* Four robots of one type at a command far from the origin, near ±180°. */
static void
test_exchangeability (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (77);
  g_autoptr (GString) s = g_string_new ("{\"kind\":\"exchangeability\",\"command\":");
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GError) error = NULL;
  const double bias[4][6] = {
    { 0.02, -0.01, 0.00, 0.01, 0.00, -0.02 },
    { -0.08, 0.05, 0.03, -0.02, 0.01, 0.03 },
    { 0.04, 0.09, -0.06, 0.00, -0.03, 0.00 },
    { 0.01, -0.02, 0.11, 0.03, 0.02, -0.01 },
  };
  NbPose6 g[4][30];
  const NbPose6 *gp[4] = { g[0], g[1], g[2], g[3] };
  const gsize n[4] = { 30, 30, 30, 30 };
  NbIso9283Exchangeability res;
  JsonObject *o;
  JsonArray *pair;

  json_pose (s, &far_command);
  g_string_append (s, ",\"robots\":[");
  for (int h = 0; h < 4; h++)
    {
      attained_set (r, &far_command, bias[h], 0.01, 0.02, g[h], 30);
      if (h)
        g_string_append_c (s, ',');
      json_poses (s, g[h], 30);
    }
  g_string_append (s, "]}");
  g_assert_true (nb_iso9283_exchangeability (&far_command, gp, n, 4, &res, &error));
  g_assert_no_error (error);
  o = reference (s->str, &parser);
  CHECK1 (o, "e_mm", res.e_mm);
  check3 (o, "e_abc_deg", res.e_abc_deg, 1e-9);
  pair = json_object_get_array_member (o, "pair");
  g_assert_cmpint (json_array_get_int_element (pair, 0), ==, res.robot_a);
  g_assert_cmpint (json_array_get_int_element (pair, 1), ==, res.robot_b);
  /* Robots 3 and 4 are the farthest apart by their biases (0.205 mm; the
   * next pair 0.139 mm). */
  g_assert_cmpuint (res.robot_a, ==, 2);
  g_assert_cmpuint (res.robot_b, ==, 3);
  nb_assert_abs (res.e_mm, 0.2047, 0.01, "E near the model");
  /* One robot is no comparison. */
  g_assert_false (nb_iso9283_exchangeability (&far_command, gp, n, 1, &res, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
}

/* ------------------------------------------------------------ 7.3 -- */

static void
test_distance (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (74);
  g_autoptr (GString) s = g_string_new ("{\"kind\":\"distance\",\"c1\":");
  g_autoptr (JsonParser) parser = NULL;
  const NbPose6 c1 = far_command;
  const NbPose6 c2 = { far_command.x_mm + 320.5, far_command.y_mm - 210.25, far_command.z_mm + 99,
                       -179.9, 179.8, -0.05 };
  const double b1[6] = { 0.05, 0.02, -0.03, 0.01, 0.0, 0.0 };
  const double b2[6] = { -0.04, 0.06, 0.02, -0.02, 0.01, 0.02 };
  NbPose6 first[30], second[30];
  NbIso9283Distance res;
  JsonObject *o;

  attained_set (r, &c1, b1, 0.015, 0.02, first, 30);
  attained_set (r, &c2, b2, 0.015, 0.02, second, 30);
  g_assert_true (nb_iso9283_distance (&c1, &c2, first, second, 30, &res, NULL));
  json_pose (s, &c1);
  g_string_append (s, ",\"c2\":");
  json_pose (s, &c2);
  g_string_append (s, ",\"first\":");
  json_poses (s, first, 30);
  g_string_append (s, ",\"second\":");
  json_poses (s, second, 30);
  g_string_append_c (s, '}');
  o = reference (s->str, &parser);
  CHECK1 (o, "d_command_mm", res.d_command_mm);
  CHECK1 (o, "ad_mm", res.ad_mm);
  check3 (o, "ad_xyz_mm", res.ad_xyz_mm, 1e-9);
  check3 (o, "ad_abc_deg", res.ad_abc_deg, 1e-9);
  CHECK1 (o, "rd_mm", res.rd_mm);
  check3 (o, "rd_xyz_mm", res.rd_xyz_mm, 1e-9);
  check3 (o, "rd_abc_deg", res.rd_abc_deg, 1e-9);
  /* D_ca of a: |179.95 − (−179.9)| recast = 0.15°, not 359.85°; D̄_a ≈ |0.15 − 0.03| = 0.12°. */
  nb_assert_abs (res.ad_abc_deg[0] + 0.15, 0.12, 0.02, "AD_a across ±180°");
}

/* ------------------------------------------------------- 7.4, 7.5 -- */

static void
test_settling (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (75);
  g_autoptr (GString) s = g_string_new ("{\"kind\":\"settling\",\"band\":0.02,\"tail\":0.2,");
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GError) error = NULL;
  const double target[3] = { 1204567.4, -803456.25, 1500000.0 };
  const double u[3] = { 0.6, 0.0, -0.8 };
  const gsize n = 1000;     /* 1 s at 1 kHz */
  g_autofree NbIso9283Sample *smp = g_new (NbIso9283Sample, n);
  NbIso9283Settling res;
  GString *ts = g_string_new ("\"t\":["), *ps = g_string_new ("\"p\":[");
  JsonObject *o;

  for (gsize i = 0; i < n; i++)
    {
      double t = i * 1e-3, e;

      /* The approach at 250 mm/s, then a decaying oscillation about the pose. */
      e = t < 0.2 ? -250.0 * (0.2 - t)
                  : 0.3 * exp (-(t - 0.2) / 0.05) * sin (2 * G_PI * 8 * (t - 0.2));
      smp[i].t_s = t;
      for (int k = 0; k < 3; k++)
        smp[i].p_mm[k] = target[k] + u[k] * e + gauss (r, 0.001);
      g_string_append_printf (ts, "%s%.17g", i ? "," : "", t);
      g_string_append_printf (ps, "%s[%.17g,%.17g,%.17g]", i ? "," : "", smp[i].p_mm[0],
                              smp[i].p_mm[1], smp[i].p_mm[2]);
    }
  g_string_append (ts, "],");
  g_string_append (ps, "]}");
  g_string_append (s, ts->str);
  g_string_append (s, ps->str);
  g_string_free (ts, TRUE);
  g_string_free (ps, TRUE);

  g_assert_true (nb_iso9283_settling (smp, n, 0.02, 0.2, &res, &error));
  g_assert_no_error (error);
  o = reference (s->str, &parser);
  check3 (o, "attained_mm", res.attained_mm, 1e-9);
  CHECK1 (o, "t_entry_s", res.t_entry_s);
  CHECK1 (o, "stabilisation_s", res.stabilisation_s);
  CHECK1 (o, "overshoot_mm", res.overshoot_mm);
  /* Against the model: the envelope 0.3·e^(−τ/0.05) falls to the band at
   * τ = 0.05·ln 15 = 0.135 s; the first peak beyond the pose is where
   * tan(ωτ) = 0.05·ω (ω = 2π·8 Hz). */
  g_assert_cmpfloat (res.stabilisation_s, >, 0.09);
  g_assert_cmpfloat (res.stabilisation_s, <, 0.136);
  {
    double w = 2 * G_PI * 8, tau = atan (0.05 * w) / w;

    nb_assert_abs (res.overshoot_mm, 0.3 * exp (-tau / 0.05) * sin (w * tau), 0.005,
                   "OV, the first peak");
  }
  for (int k = 0; k < 3; k++)
    nb_assert_abs (res.attained_mm[k], target[k], 0.001, "attained pose");

  /* A stream that ends outside the band has not stabilised. */
  g_assert_false (nb_iso9283_settling (smp, 260, 0.02, 0.05, &res, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "not stabilised"));
  g_clear_error (&error);
  smp[5].t_s = -1;
  g_assert_false (nb_iso9283_settling (smp, n, 0.02, 0.2, &res, &error));
  g_assert_nonnull (strstr (error->message, "sample 6 goes back in time"));
}

/* ------------------------------------------------------------ 7.6 -- */

static void
test_drift (void)
{
  NbIso9283Pose a = { 0 }, b = { 0 };
  NbIso9283Drift d;

  a.ap_mm = 0.25;
  b.ap_mm = 0.31;
  a.rp_mm = 0.08;
  b.rp_mm = 0.05;
  a.ap_abc_deg[2] = -0.01;
  b.ap_abc_deg[2] = 0.02;
  nb_iso9283_drift (&a, &b, &d);
  nb_assert_abs (d.dap_mm, 0.06, 1e-15, "dAP");
  nb_assert_abs (d.drp_mm, 0.03, 1e-15, "dRP");
  nb_assert_abs (d.dap_abc_deg[2], 0.03, 1e-15, "dAP_c");
}

/* ------------------------------------------------------- 8.2, 8.3 -- */

typedef struct {
  NbPose6 *pose;
  double *t;
  gsize n;
} Track;

static void
path_case (const NbIso9283Path *path, guint seed, const char *path_json)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (seed);
  g_autoptr (GString) s = g_string_new ("{\"kind\":\"path\",\"m\":9,\"reach\":5,\"path\":");
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GError) error = NULL;
  const guint cycles = 10;
  Track tr[10];
  NbIso9283Track tk[10];
  NbIso9283PathResult res;
  double length;
  JsonObject *o;

  g_assert_true (nb_iso9283_path_length (path, &length, NULL));
  g_string_append (s, path_json);
  g_string_append (s, ",\"tracks\":[");
  for (guint j = 0; j < cycles; j++)
    {
      /* A systematic offset, a per-cycle one and sample noise; the track
       * runs a little before and beyond the command path's ends. */
      double off[3] = { 0.2 + gauss (r, 0.02), -0.1 + gauss (r, 0.02), 0.05 + gauss (r, 0.02) };
      double da = 0.05 + gauss (r, 0.01);
      gsize n = (gsize) (length / 0.7) + 40;

      tr[j].n = n;
      tr[j].pose = g_new (NbPose6, n);
      tr[j].t = g_new (double, n);
      if (j)
        g_string_append_c (s, ',');
      g_string_append_c (s, '[');
      for (gsize k = 0; k < n; k++)
        {
          double sk = (k - 20.0) * 0.7, p[3], t[3], abc[3];

          if (path->kind == NB_ISO9283_LINE)
            {
              nb_iso9283_path_point (path, 0, p, t);
              for (int i = 0; i < 3; i++)
                p[i] = path->start_mm[i] + sk * t[i];
            }
          else
            nb_iso9283_path_point (path, sk, p, t);
          tr[j].t[k] = k * 1e-3;
          /* The attained orientation follows the command's (turned, 8.4)
           * with a bias: the reference computes the command its own way. */
          nb_iso9283_path_orientation (path, CLAMP (sk, 0, length), length, abc);
          tr[j].pose[k] = (NbPose6) {
            p[0] + off[0] + gauss (r, 0.005), p[1] + off[1] + gauss (r, 0.005),
            p[2] + off[2] + gauss (r, 0.005),
            nb_angle_recast_deg (abc[0] + da + gauss (r, 0.01)),
            nb_angle_recast_deg (abc[1] - da + gauss (r, 0.01)),
            nb_angle_recast_deg (abc[2] + gauss (r, 0.01)),
          };
          if (k)
            g_string_append_c (s, ',');
          json_pose (s, &tr[j].pose[k]);
        }
      g_string_append_c (s, ']');
      tk[j] = (NbIso9283Track) { tr[j].t, tr[j].pose, n };
    }
  g_string_append (s, "]}");
  g_assert_true (nb_iso9283_path (path, tk, cycles, 9, 5.0, &res, &error));
  g_assert_no_error (error);
  o = reference (s->str, &parser);
  CHECK1 (o, "at_mm", res.at_mm);
  CHECK1 (o, "rt_mm", res.rt_mm);
  check3 (o, "at_abc_deg", res.at_abc_deg, 1e-9);
  check3 (o, "rt_abc_deg", res.rt_abc_deg, 1e-9);
  g_assert_cmpuint (res.n_cycles, ==, cycles);
  g_assert_cmpuint (res.m_points, ==, 9);
  /* The velocity along the middle of the path: 0.7 mm per 1 ms ± noise. */
  {
    g_autoptr (GArray) v = nb_iso9283_track_speeds (path, &tk[0], 0.25 * length, 0.75 * length,
                                                    &error);
    double mean = 0;

    g_assert_no_error (error);
    g_assert_cmpuint (v->len, >, 100);
    for (guint i = 0; i < v->len; i++)
      mean += g_array_index (v, double, i) / v->len;
    nb_assert_abs (mean, 700.0, 20.0, "path velocity");
  }
  /* A cycle that stops short misses the last planes. */
  tk[3].n = tk[3].n / 2;
  g_assert_false (nb_iso9283_path (path, tk, cycles, 9, 5.0, &res, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "cycle 4 does not cross"));
  for (guint j = 0; j < cycles; j++)
    {
      g_free (tr[j].pose);
      g_free (tr[j].t);
    }
}

static void
test_path_line (void)
{
  /* The diagonal P2 → P4 of a cube far from the origin. */
  const NbIso9283Path path = {
    .kind = NB_ISO9283_LINE,
    .start_mm = { 1000420.0, -2000080.0, 500520.0 },
    .end_mm = { 1000580.0, -1999920.0, 500680.0 },
    .abc_deg = { 179.99, -179.98, 90.0 },
  };

  path_case (&path, 82,
             "{\"kind\":\"line\",\"start\":[1000420.0,-2000080.0,500520.0],"
             "\"end\":[1000580.0,-1999920.0,500680.0],\"abc\":[179.99,-179.98,90.0]}");
}

static void
test_path_circle (void)
{
  /* A circle of radius 80 mm about P1 in a tilted plane. */
  const double s3 = 1.0 / sqrt (3.0), s2 = 1.0 / sqrt (2.0);
  NbIso9283Path path = {
    .kind = NB_ISO9283_CIRCLE,
    .centre_mm = { 1000500.0, -2000000.0, 500600.0 },
    .normal = { s3, s3, s3 },
    .abc_deg = { -179.99, 179.98, -90.0 },
  };
  g_autofree char *json = NULL;

  path.start_mm[0] = path.centre_mm[0] + 80.0 * s2;
  path.start_mm[1] = path.centre_mm[1] - 80.0 * s2;
  path.start_mm[2] = path.centre_mm[2];
  json = g_strdup_printf ("{\"kind\":\"circle\",\"centre\":[%.17g,%.17g,%.17g],"
                          "\"start\":[%.17g,%.17g,%.17g],\"normal\":[%.17g,%.17g,%.17g],"
                          "\"abc\":[-179.99,179.98,-90.0]}",
                          path.centre_mm[0], path.centre_mm[1], path.centre_mm[2],
                          path.start_mm[0], path.start_mm[1], path.start_mm[2], s3, s3, s3);
  path_case (&path, 83, json);
}

/* 8.4: the diagonal with the tool turned along it by 60° about a tilted
 * tool axis, through ±180° of a and c. */
static void
test_path_reorientation (void)
{
  const double s3 = 1.0 / sqrt (3.0);
  NbIso9283Path path = {
    .kind = NB_ISO9283_LINE,
    .start_mm = { 1000420.0, -2000080.0, 500520.0 },
    .end_mm = { 1000580.0, -1999920.0, 500680.0 },
    .abc_deg = { 179.99, -10.0, 179.5 },
    .turn_axis = { s3, -s3, s3 },
    .turn_deg = { -30.0, 30.0 },
  };
  double a0[3], a1[3], length;

  g_assert_true (nb_iso9283_path_length (&path, &length, NULL));
  nb_iso9283_path_orientation (&path, 0, length, a0);
  nb_iso9283_path_orientation (&path, length, length, a1);
  /* The command does turn (by 60° in all). */
  g_assert_cmpfloat (fabs (nb_angle_recast_deg (a1[0] - a0[0])) +
                     fabs (nb_angle_recast_deg (a1[1] - a0[1])) +
                     fabs (nb_angle_recast_deg (a1[2] - a0[2])), >, 30);
  path_case (&path, 84,
             "{\"kind\":\"line\",\"start\":[1000420.0,-2000080.0,500520.0],"
             "\"end\":[1000580.0,-1999920.0,500680.0],\"abc\":[179.99,-10.0,179.5],"
             "\"turn_axis\":[0.57735026918962573,-0.57735026918962573,0.57735026918962573],"
             "\"turn_deg\":[-30.0,30.0]}");
}

/* ------------------------------------------------------------ 8.5 -- */

static Track
corner_track (double radius, double excursion)
{
  /* Along x to the arc's start, a quarter arc of the radius round the
   * corner K = (100, 0, 0), a bulge `excursion` beyond the second leg, then
   * along it to (100, 100, 0). */
  GArray *p = g_array_new (FALSE, FALSE, sizeof (NbPose6));
  Track t;

  for (double x = 0; x < 100 - radius; x += 1)
    g_array_append_val (p, ((NbPose6) { x, 0, 0, 0, 0, 0 }));
  for (int k = 0; k <= 180; k++)
    {
      double phi = (-90.0 + k * 0.5) * G_PI / 180.0;

      g_array_append_val (p, ((NbPose6) { 100 - radius + radius * cos (phi),
                                          radius + radius * sin (phi), 0, 0, 0, 0 }));
    }
  g_array_append_val (p, ((NbPose6) { 100 + excursion, 2 * radius, 0, 0, 0, 0 }));
  for (double y = 3 * radius; y <= 100; y += 1)
    g_array_append_val (p, ((NbPose6) { 100, y, 0, 0, 0, 0 }));
  t.n = p->len;
  t.t = NULL;
  t.pose = (NbPose6 *) g_array_free (p, FALSE);
  return t;
}

static void
test_corner (void)
{
  const double a[3] = { 0, 0, 0 }, K[3] = { 100, 0, 0 }, b[3] = { 100, 100, 0 };
  Track t1 = corner_track (10, 0.4), t2 = corner_track (6, 0.7);
  NbIso9283Track tk[2] = { { NULL, t1.pose, t1.n }, { NULL, t2.pose, t2.n } };
  NbIso9283Corner res;
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_iso9283_corner (a, K, b, tk, 2, &res, &error));
  g_assert_no_error (error);
  /* CR_j = |K − arc centre| − r = r(√2 − 1), the arc sampled at −45° exactly. */
  nb_assert_abs (res.cr_mm, 10 * (G_SQRT2 - 1), 1e-12, "CR (max)");
  nb_assert_abs (res.cr_mean_mm, 8 * (G_SQRT2 - 1), 1e-12, "CR (mean)");
  nb_assert_abs (res.co_mm, 0.7, 1e-12, "CO (max)");
  nb_assert_abs (res.co_mean_mm, 0.55, 1e-12, "CO (mean)");
  g_assert_false (nb_iso9283_corner (a, K, (double[3]) { 200, 0, 0 }, tk, 2, &res, &error));
  g_assert_nonnull (strstr (error->message, "collinear"));
  g_free (t1.pose);
  g_free (t2.pose);
}

/* ------------------------------------------------------------ 8.6 -- */

static void
test_velocity (void)
{
  const double v1[] = { 100, 102, 98 }, v2[] = { 101, 103, 99, 101 };
  const double *v[2] = { v1, v2 };
  const gsize m[2] = { 3, 4 };
  NbIso9283Velocity res;
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_iso9283_velocity (100, v, m, 2, &res, &error));
  /* v̄_1 = 100, v̄_2 = 101 → v̄ = 100.5, AV = 0.5 %, S_v = √0.5, RV = 3√0.5, FV = 4. */
  nb_assert_abs (res.v_mean_mm_s, 100.5, 1e-12, "v̄");
  nb_assert_abs (res.av_pct, 0.5, 1e-12, "AV");
  nb_assert_abs (res.rv_mm_s, 3 * sqrt (0.5), 1e-12, "RV");
  nb_assert_abs (res.rv_pct, 3 * sqrt (0.5), 1e-12, "RV %");
  nb_assert_abs (res.fv_mm_s, 4, 1e-12, "FV");
  g_assert_false (nb_iso9283_velocity (0, v, m, 2, &res, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
}

/* ------------------------------------------------------------ 8.7 -- */

/* A synthetic weaving track at 1 kHz, far from the origin on an oblique
 * line: along it at v, across it w = A·sin(2π·F·t + φ) + offset + drift·t
 * along the weave direction (the attained line off the command's and
 * turning from it), plus a constant offset out of the plane and the noise σ.
 * Its stroke is 2A and its frequency F by construction. */
static NbPose6 *
weave_track (const NbIso9283Weave *wv, double v, double A, double F, double phase,
             double offset, double drift, double sigma, GRand *rand, double **t_s, gsize *n)
{
  double u[3], len = 0, out[3];
  NbPose6 *p;

  for (int k = 0; k < 3; k++)
    len += (wv->end_mm[k] - wv->start_mm[k]) * (wv->end_mm[k] - wv->start_mm[k]);
  len = sqrt (len);
  for (int k = 0; k < 3; k++)
    u[k] = (wv->end_mm[k] - wv->start_mm[k]) / len;
  out[0] = u[1] * wv->direction[2] - u[2] * wv->direction[1];
  out[1] = u[2] * wv->direction[0] - u[0] * wv->direction[2];
  out[2] = u[0] * wv->direction[1] - u[1] * wv->direction[0];
  *n = (gsize) (len / v * 1000) + 1;
  p = g_new0 (NbPose6, *n);
  *t_s = g_new (double, *n);
  for (gsize i = 0; i < *n; i++)
    {
      double t = i / 1000.0, w = A * sin (2 * G_PI * F * t + phase) + offset + drift * t, x[3];

      for (int k = 0; k < 3; k++)
        x[k] = wv->start_mm[k] + v * t * u[k] + w * wv->direction[k] + 0.3 * out[k] +
               (rand ? sigma * g_rand_double_range (rand, -1, 1) * sqrt (3.0) : 0);
      (*t_s)[i] = t;
      p[i] = (NbPose6) { x[0], x[1], x[2], 180, 0, -179.5 };
    }
  return p;
}

static void
test_weaving (void)
{
  /* The line and its weave direction at right angles (u = (2, 1, 2)/3,
   * d = (1, −2, 0)/√5), kilometres from the origin. */
  NbIso9283Weave wv = {
    .start_mm = { 1000000, -2000000, 500000 },
    .end_mm = { 1000000 + 200, -2000000 + 100, 500000 + 200 },
    .direction = { 1 / sqrt (5.0), -2 / sqrt (5.0), 0 },
    .stroke_mm = 10, .frequency_hz = 2, .s0_mm = 300.0 / 11, .s1_mm = 3000.0 / 11,
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (9283);
  g_autoptr (GError) error = NULL;
  NbIso9283WeaveCycle c;
  NbIso9283Weaving r;
  NbIso9283Track tracks[3];
  double *t[3];
  NbPose6 *p[3];
  gsize n[3];

  /* S_a = 10.3 mm, F_a = 1.95 Hz: WS = +3 %, WF = −2.5 %, whatever the phase,
   * the offset from the line and its drift (an AT, not a stroke: up to
   * 1.2 mm over the line). */
  for (int j = 0; j < 3; j++)
    {
      p[j] = weave_track (&wv, 25, 5.15, 1.95, 0.7 * j + 0.2, 0.4 - 0.3 * j, 0.1 * (j - 1), 0,
                          NULL, &t[j], &n[j]);
      tracks[j] = (NbIso9283Track) { t[j], p[j], n[j] };
    }
  g_assert_true (nb_iso9283_weave_cycle (&wv, &tracks[0], &c, &error));
  g_assert_no_error (error);
  /* 300 mm at 25 mm/s is 12 s, the measured 9/11 of it 9.8 s less the
   * centre line's half period at each end, 9.3 s: 18.2 periods, 16 whole
   * ones from crest to crest. */
  g_assert_cmpuint (c.n_periods, ==, 16);
  nb_assert_abs (c.stroke_mm, 10.3, 1e-4, "S_a");
  nb_assert_abs (c.frequency_hz, 1.95, 1e-7, "F_a");
  nb_assert_abs (c.ws_pct, 3, 1e-3, "WS");
  nb_assert_abs (c.wf_pct, -2.5, 1e-5, "WF");
  g_assert_true (nb_iso9283_weaving (&wv, tracks, 3, &r, &error));
  nb_assert_abs (r.ws_pct, 3, 1e-3, "WS of 3 cycles");
  nb_assert_abs (r.wf_pct, -2.5, 1e-5, "WF of 3 cycles");
  g_assert_cmpuint (r.n_cycles, ==, 3);
  for (int j = 0; j < 3; j++)
    g_free (t[j]), g_free (p[j]);
  /* Cycles of different strokes: the mean's WS and the largest cycle's. */
  {
    const double A[3] = { 5.0, 4.8, 5.1 };

    for (int j = 0; j < 3; j++)
      {
        p[j] = weave_track (&wv, 25, A[j], 2, 0.3, 0, 0, 0, NULL, &t[j], &n[j]);
        tracks[j] = (NbIso9283Track) { t[j], p[j], n[j] };
      }
    g_assert_true (nb_iso9283_weaving (&wv, tracks, 3, &r, &error));
    nb_assert_abs (r.stroke_mm, 2 * (5.0 + 4.8 + 5.1) / 3, 1e-4, "S̄_a");
    nb_assert_abs (r.ws_max_pct, -4, 1e-3, "the largest |WS_j|");
    nb_assert_abs (r.wf_pct, 0, 1e-5, "WF on time");
    for (int j = 0; j < 3; j++)
      g_free (t[j]), g_free (p[j]);
  }
  /* A tracker's noise (σ 5 µm on each axis) biases no figure: the crests are
   * parabolas through 100 samples, not the largest sample. */
  p[0] = weave_track (&wv, 25, 5, 2, 1.1, 0, 0.05, 0.005, rand, &t[0], &n[0]);
  tracks[0] = (NbIso9283Track) { t[0], p[0], n[0] };
  g_assert_true (nb_iso9283_weave_cycle (&wv, &tracks[0], &c, &error));
  g_test_message ("noisy: S_a %.5f mm, F_a %.6f Hz", c.stroke_mm, c.frequency_hz);
  nb_assert_abs (c.ws_pct, 0, 0.02, "WS under noise");
  nb_assert_abs (c.wf_pct, 0, 0.01, "WF under noise");
  /* Too little weaving over the measured part, no times: errors. */
  wv.s1_mm = wv.s0_mm + 15;
  g_assert_false (nb_iso9283_weave_cycle (&wv, &tracks[0], &c, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  wv.s1_mm = 3000.0 / 11;
  tracks[0].t_s = NULL;
  g_assert_false (nb_iso9283_weave_cycle (&wv, &tracks[0], &c, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_free (t[0]), g_free (p[0]);
}

/* --------------------------------------------------------- clause 6 -- */

static void
test_cube_geometry (void)
{
  const double centre[3] = { 1000500, -2000000, 500600 }, abc[3] = { 180, 0, 0 };
  NbIso9283Cube c;
  g_autoptr (GError) error = NULL;
  /* Plane 1 (C1-C2-C7-C8) of a 200 mm cube: P2 by C1, P3 by C2, P4 by C7, P5 by C8. */
  const double expect[5][3] = {
    { 0, 0, 0 }, { -80, -80, -80 }, { 80, -80, -80 }, { 80, 80, 80 }, { -80, 80, 80 },
  };

  g_assert_true (nb_iso9283_cube_init (centre, 200, 1, abc, &c, &error));
  for (int i = 0; i < 5; i++)
    for (int k = 0; k < 3; k++)
      nb_assert_abs (c.p_mm[i][k] - centre[k], expect[i][k], 1e-9, "P_i");
  /* 10 % of the diagonal from the corner: |P2 − C1| = 0.1·200·√3. */
  {
    double d[3];

    for (int k = 0; k < 3; k++)
      d[k] = c.p_mm[1][k] - c.corner_mm[0][k];
    nb_assert_abs (sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), 20 * sqrt (3.0), 1e-9,
                   "|P2 − C1|");
  }
  /* Plane 3 (C3-C4-C5-C6): P2 by C3 (+,+,−), P4 by C5 (−,−,+). */
  g_assert_true (nb_iso9283_cube_init (centre, 200, 3, abc, &c, &error));
  nb_assert_abs (c.p_mm[1][0] - centre[0], 80, 1e-9, "plane 3 P2 x");
  nb_assert_abs (c.p_mm[1][1] - centre[1], 80, 1e-9, "plane 3 P2 y");
  nb_assert_abs (c.p_mm[3][2] - centre[2], 80, 1e-9, "plane 3 P4 z");
  nb_assert_abs (c.p_mm[3][0] - centre[0], -80, 1e-9, "plane 3 P4 x");
  g_assert_false (nb_iso9283_cube_init (centre, 200, 5, abc, &c, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_iso9283_cube_init (centre, -1, 1, abc, &c, &error));
  g_assert_cmpuint (nb_iso9283_cycle_pose (0), ==, 0);
  g_assert_cmpuint (nb_iso9283_cycle_pose (1), ==, 4);
  g_assert_cmpuint (nb_iso9283_cycle_pose (4), ==, 1);
}

static void
load_model (NbArmModel *model)
{
  g_autofree char *dir = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "robots",
                                           "iiwa7", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (nb_arm_model_load (dir, model, &error));
  g_assert_no_error (error);
}

/* Every corner and pose of cube reachable, the way the fit decides. */
static gboolean
reachable (const NbArmModel *m, const NbIso9283Cube *c, const double seed[7])
{
  double q[5][7], qc[7], T[16];

  if (!nb_iso9283_cube_joints (m, c, seed, q, NULL))
    return FALSE;
  for (int k = 0; k < 8; k++)
    {
      nb_iso9283_cube_target (c, c->corner_mm[k], T);
      if (!nb_arm_ik (m, T, q[0], qc, NULL) || !nb_arm_check_joints (m, qc, NULL))
        return FALSE;
    }
  return TRUE;
}

static void
test_cube_fit (void)
{
  NbArmModel model;
  NbIso9283Cube cube, bigger;
  g_autoptr (GError) error = NULL;
  g_autoptr (NbSequence) seq = NULL;
  /* The operator's placement: in front of the arm, the tool pointing down. */
  const double centre[3] = { 600, 0, 450 }, abc[3] = { 180, 0, 180 };
  const double seed[7] = { 0, 0.6, 0, -1.2, 0, 1.0, 0 };
  double q[5][7];

  load_model (&model);
  g_assert_true (nb_iso9283_cube_fit (&model, centre, 1, abc, 800, seed, &cube, q, &error));
  g_assert_no_error (error);
  g_test_message ("largest cube at (600, 0, 450) mm: edge %.1f mm", cube.edge_mm);
  g_assert_cmpfloat (cube.edge_mm, >, 150);
  g_assert_cmpfloat (cube.edge_mm, <, 800);
  /* Each pose's joints put the TCP on the pose (FK) inside the soft ranges. */
  for (int i = 0; i < 5; i++)
    {
      double T[16];

      nb_arm_fk (&model, q[i], T);
      g_assert_true (nb_arm_check_joints (&model, q[i], NULL));
      for (int k = 0; k < 3; k++)
        nb_assert_abs (T[k * 4 + 3] * 1000, cube.p_mm[i][k], 1e-3, "FK = pose");
      nb_assert_abs (T[10], -1.0, 1e-6, "tool pointing down");
    }
  /* Largest: a cube 2 mm bigger does not fit. */
  g_assert_true (reachable (&model, &cube, seed));
  g_assert_true (nb_iso9283_cube_init (centre, cube.edge_mm + 2, 1, abc, &bigger, NULL));
  g_assert_false (reachable (&model, &bigger, seed));

  /* The pose test's sequence: P1 home, P5 P4 P3 P2, 30 cycles. */
  seq = nb_iso9283_pose_sequence (&model, (const double (*)[7]) q, 30, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seq->n_iterations, ==, 30);
  g_assert_cmpstr (seq->home.name, ==, "P1");
  g_assert_cmpuint (seq->waypoints->len, ==, 4);
  g_assert_cmpstr (g_array_index (seq->waypoints, NbSequencePoint, 0).name, ==, "P5");
  g_assert_cmpstr (g_array_index (seq->waypoints, NbSequencePoint, 3).name, ==, "P2");
  g_assert_cmpfloat (g_array_index (seq->waypoints, NbSequencePoint, 0).joints[3], ==, q[4][3]);

  /* Out of reach: no cube at all; a joint beyond its soft range refused before motion. */
  g_assert_false (nb_iso9283_cube_fit (&model, (double[3]) { 2000, 0, 400 }, 1, abc, 400, seed,
                                       &cube, q, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "no test cube fits"));
  g_clear_error (&error);
  q[2][0] = 2.95;
  g_assert_null (nb_iso9283_pose_sequence (&model, (const double (*)[7]) q, 30, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_assert_nonnull (strstr (error->message, "P3: "));
  g_assert_nonnull (strstr (error->message, "joint1"));
}

/* ------------------------------------------------------- rotations -- */

static void
test_abc (void)
{
  const double abc[3] = { 30, -20, 170 };
  double R[9], back[3];

  nb_iso9283_abc_to_matrix (abc, R);
  /* Rz(170°)·Ry(−20°)·Rx(30°), element (3,1) = −sin b. */
  nb_assert_abs (R[6], sin (20 * G_PI / 180), 1e-15, "R31");
  nb_assert_abs (R[0], cos (170 * G_PI / 180) * cos (20 * G_PI / 180), 1e-15, "R11");
  nb_iso9283_matrix_to_abc (R, back);
  for (int k = 0; k < 3; k++)
    nb_assert_abs (back[k], abc[k], 1e-12, "abc round trip");
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = nb_test_make_dir ();
  g_test_add_func ("/iso9283/pose", test_pose);
  g_test_add_func ("/iso9283/pose-by-hand", test_pose_by_hand);
  g_test_add_func ("/iso9283/vap", test_vap);
  g_test_add_func ("/iso9283/exchangeability", test_exchangeability);
  g_test_add_func ("/iso9283/path-reorientation", test_path_reorientation);
  g_test_add_func ("/iso9283/distance", test_distance);
  g_test_add_func ("/iso9283/settling", test_settling);
  g_test_add_func ("/iso9283/drift", test_drift);
  g_test_add_func ("/iso9283/path-line", test_path_line);
  g_test_add_func ("/iso9283/path-circle", test_path_circle);
  g_test_add_func ("/iso9283/corner", test_corner);
  g_test_add_func ("/iso9283/velocity", test_velocity);
  g_test_add_func ("/iso9283/weaving", test_weaving);
  g_test_add_func ("/iso9283/cube-geometry", test_cube_geometry);
  g_test_add_func ("/iso9283/cube-fit", test_cube_fit);
  g_test_add_func ("/iso9283/abc", test_abc);
  rc = g_test_run ();
  nb_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
