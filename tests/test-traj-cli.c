/* navbench-cli compute ape|rpe end to end: files written here, the binary in
 * NAVBENCH_CLI, its JSON read with json-glib and compared with figures this
 * test computes itself from the poses it wrote. */
#include "nb-test.h"

#include <cairo.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int status;
  char *out, *err;
  JsonParser *parser;
  JsonObject *root;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
  g_clear_object (&r->parser);
}

static Run
run_cli (const char *first, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  const char *cli = g_getenv ("NAVBENCH_CLI");
  Run r = { 0 };
  va_list ap;
  int wait_status;

  g_assert_nonnull (cli);
  g_ptr_array_add (args, (char *) cli);
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &r.out, &r.err, &wait_status, &error));
  g_assert_no_error (error);
  r.status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  if (r.status == 0 && r.out[0] == '{')
    {
      r.parser = json_parser_new ();
      g_assert_true (json_parser_load_from_data (r.parser, r.out, -1, &error));
      r.root = json_node_get_object (json_parser_get_root (r.parser));
    }
  return r;
}

static char *
write_file (const char *dir, const char *name, const char *text)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
check_stats (JsonObject *o, double *e, guint n)
{
  double sum = 0, sse = 0, var = 0, mean;

  qsort (e, n, sizeof (double), cmp_double);
  for (guint k = 0; k < n; k++)
    sum += e[k], sse += e[k] * e[k];
  mean = sum / n;
  for (guint k = 0; k < n; k++)
    var += (e[k] - mean) * (e[k] - mean);
  g_assert_cmpint (json_object_get_int_member (o, "n_errors"), ==, n);
  nb_assert_rel (json_object_get_double_member (o, "rmse"), sqrt (sse / n), 1e-9, "rmse");
  nb_assert_rel (json_object_get_double_member (o, "mean"), mean, 1e-9, "mean");
  nb_assert_rel (json_object_get_double_member (o, "median"),
                 n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2, 1e-9, "median");
  nb_assert_rel (json_object_get_double_member (o, "std"), sqrt (var / n), 1e-9, "std");
  nb_assert_rel (json_object_get_double_member (o, "min"), e[0], 1e-9, "min");
  nb_assert_rel (json_object_get_double_member (o, "max"), e[n - 1], 1e-9, "max");
  nb_assert_rel (json_object_get_double_member (o, "sse"), sse, 1e-9, "sse");
}

/* Planar test run: reference at 100 Hz over 0–20 s, estimate at 50 Hz over
 * −1–21 s with 2 ms of clock offset and a 1 s dropout, and a position
 * error e_k and heading error h_k that the test knows. */
#define N_EST 1101
static double est_t[N_EST], est_ex[N_EST], est_ey[N_EST], est_h[N_EST];

static void
ref_at (double t, double *x, double *y, double *yaw)
{
  *x = 5 * cos (0.3 * t), *y = 2 * sin (0.6 * t), *yaw = 0.3 * t;
}

static void
write_run (const char *dir, char **ref_path, char **est_path)
{
  GString *r = g_string_new ("# reference, 100 Hz\n"), *e = g_string_new ("# estimate\n");

  for (int k = 0; k <= 2000; k++)
    {
      double t = k * 0.01, x, y, yaw;

      ref_at (t, &x, &y, &yaw);
      g_string_append_printf (r, "%.17g %.17g %.17g 0 0 0 %.17g %.17g\n", t, x, y,
                              sin (yaw / 2), cos (yaw / 2));
    }
  for (int k = 0; k < N_EST; k++)
    {
      double t = -1 + k * 0.02, x, y, yaw;

      est_t[k] = t + 0.002;   /* the estimate's clock runs 2 ms late */
      est_ex[k] = 0.05 * sin (0.37 * k), est_ey[k] = 0.02 * cos (0.11 * k);
      est_h[k] = 0.1 * sin (0.05 * k);
      if (t > 8.0 && t < 9.0)
        continue;
      ref_at (t, &x, &y, &yaw);
      yaw += est_h[k];
      g_string_append_printf (e, "%.17g %.17g %.17g 0 0 0 %.17g %.17g\n", est_t[k],
                              x + est_ex[k], y + est_ey[k], sin (yaw / 2), cos (yaw / 2));
    }
  *ref_path = write_file (dir, "ref.tum", r->str);
  *est_path = write_file (dir, "est.tum", e->str);
  g_string_free (r, TRUE);
  g_string_free (e, TRUE);
}

static gboolean
kept (int k)
{
  double t = -1 + k * 0.02;

  /* inside the reference's 0–20 s and not in the dropout; with a 2 ms
   * offset the nearest reference stamp is 2 ms away, within 0.01 s */
  return t > -0.005 && t < 20.005 && !(t > 8.0 && t < 9.0);
}

static void
test_ape_cli (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-traj-XXXXXX", NULL);
  g_autofree char *ref = NULL, *est = NULL, *png = g_build_filename (dir, "ape.png", NULL);
  g_autofree double *e = g_new (double, N_EST);
  guint n = 0, n_file = 0, before = 0, after = 0;
  Run r;

  write_run (dir, &ref, &est);
  for (int k = 0; k < N_EST; k++)
    {
      double t = -1 + k * 0.02;

      if (t > 8.0 && t < 9.0)
        continue;
      n_file++;
      if (kept (k))
        e[n++] = hypot (est_ex[k], est_ey[k]);
      else if (t < 0)
        before++;
      else
        after++;
    }
  r = run_cli ("compute", "ape", "--ref", ref, "--est", est, "--t-offset", "-0.002",
               "--json", "--plot", png, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (json_object_get_string_member (r.root, "unit"), ==, "m");
  g_assert_cmpint (json_object_get_int_member (r.root, "n_matched"), ==, n);
  g_assert_cmpint (json_object_get_int_member (r.root, "n_dropped"), ==, n_file - n);
  {
    JsonObject *a = json_object_get_object_member (r.root, "association");
    JsonObject *d = json_object_get_object_member (a, "est_dropped");

    g_assert_cmpint (json_object_get_int_member (a, "n_est"), ==, n_file);
    g_assert_cmpint (json_object_get_int_member (d, "before_overlap"), ==, before);
    g_assert_cmpint (json_object_get_int_member (d, "after_overlap"), ==, after);
    g_assert_cmpint (json_object_get_int_member (d, "no_partner_within_t_max_diff"), ==, 0);
    /* the offset brings every pair to the same instant */
    nb_assert_abs (json_object_get_double_member (a, "max_abs_dt_s"), 0, 1e-12, "dt");
  }
  check_stats (r.root, e, n);
  run_clear (&r);
  {
    cairo_surface_t *s = cairo_image_surface_create_from_png (png);

    g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
    g_assert_cmpint (cairo_image_surface_get_width (s), ==, 1000);
    g_assert_cmpint (cairo_image_surface_get_height (s), ==, 800);
    cairo_surface_destroy (s);
  }

  /* yaw_deg: |h_k| in degrees */
  n = 0;
  for (int k = 0; k < N_EST; k++)
    if (kept (k))
      e[n++] = fabs (est_h[k]) * 180 / G_PI;
  r = run_cli ("compute", "ape", "--ref", ref, "--est", est, "--t-offset", "-0.002",
               "--relation", "yaw_deg", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  check_stats (r.root, e, n);
  run_clear (&r);

  /* without the offset the 2 ms stay in the pairs, and with a 1 ms window
   * every estimate pose is dropped: no overlap, exit 2 */
  r = run_cli ("compute", "ape", "--ref", ref, "--est", est, "--t-max-diff", "0.001", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "navbench-cli: no overlap in time"));
  run_clear (&r);

  /* the text form names the figures as evo does */
  r = run_cli ("compute", "ape", "--ref", ref, "--est", est, NULL);
  g_assert_cmpint (r.status, ==, 0);
  for (const char *const *w = (const char *const[]) { "rmse", "mean", "median", "std", "min",
                                                      "max", "sse", "estimate poses dropped",
                                                      NULL }; *w; w++)
    g_assert_nonnull (strstr (r.out, *w));
  run_clear (&r);
  g_remove (png), g_remove (ref), g_remove (est), g_rmdir (dir);
}

static void
test_rpe_cli (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-traj-XXXXXX", NULL);
  g_autofree char *ref = NULL, *est = NULL;
  g_autofree double *e = g_new (double, N_EST);
  g_autoptr (GArray) idx = g_array_new (FALSE, FALSE, sizeof (int));
  guint n = 0;
  Run r;

  write_run (dir, &ref, &est);
  for (int k = 0; k < N_EST; k++)
    if (kept (k))
      g_array_append_val (idx, k);
  /* delta 10 frames of the matched series: the planar relative motion
   * error, from the generated errors by 2-D geometry */
  for (guint m = 0; m + 10 < idx->len; m += 10)
    {
      int i = g_array_index (idx, int, m), j = g_array_index (idx, int, m + 10);
      double ti = -1 + i * 0.02, tj = -1 + j * 0.02, xi, yi, hi, xj, yj, hj;
      double hie = 0, qx, qy, px, py, dx, dy, pdx, pdy;

      ref_at (ti, &xi, &yi, &hi);
      ref_at (tj, &xj, &yj, &hj);
      dx = xj - xi, dy = yj - yi;
      qx = cos (hi) * dx + sin (hi) * dy, qy = -sin (hi) * dx + cos (hi) * dy;
      hie = hi + est_h[i];
      pdx = dx + est_ex[j] - est_ex[i], pdy = dy + est_ey[j] - est_ey[i];
      px = cos (hie) * pdx + sin (hie) * pdy, py = -sin (hie) * pdx + cos (hie) * pdy;
      e[n++] = hypot (px - qx, py - qy);
    }
  r = run_cli ("compute", "rpe", "--ref", ref, "--est", est, "--t-offset", "-0.002",
               "--delta", "10", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (json_object_get_string_member (r.root, "delta_unit"), ==, "frames");
  check_stats (r.root, e, n);
  run_clear (&r);
  g_remove (ref), g_remove (est), g_rmdir (dir);
}

static void
test_align_cli (void)
{
  /* est = T⁻¹(ref) for a known rigid T (a turn about z by 0.8 rad and a
   * shift): --align se3 finds T, --transform with T gives the same, and the
   * APE vanishes. */
  g_autofree char *dir = g_dir_make_tmp ("nb-traj-XXXXXX", NULL);
  GString *r = g_string_new (NULL), *e = g_string_new (NULL);
  double th = 0.8, tx = 3, ty = -1, tz = 0.5;
  g_autofree char *ref = NULL, *est = NULL, *tf = NULL, *tf_text = NULL;
  const char *mode[] = { "--align", "se3", "--transform", NULL };
  Run run;

  for (int k = 0; k < 500; k++)
    {
      double t = k * 0.1, x = cos (0.1 * t) * 4, y = sin (0.23 * t), z = 0.1 * sin (t);
      double yaw = 0.5 * t, ex, ey, ez;

      g_string_append_printf (r, "%.17g %.17g %.17g %.17g 0 0 %.17g %.17g\n", t, x, y, z,
                              sin (yaw / 2), cos (yaw / 2));
      ex = cos (th) * (x - tx) + sin (th) * (y - ty);
      ey = -sin (th) * (x - tx) + cos (th) * (y - ty);
      ez = z - tz;
      g_string_append_printf (e, "%.17g %.17g %.17g %.17g 0 0 %.17g %.17g\n", t, ex, ey, ez,
                              sin ((yaw - th) / 2), cos ((yaw - th) / 2));
    }
  ref = write_file (dir, "ref.tum", r->str);
  est = write_file (dir, "est.tum", e->str);
  tf_text = g_strdup_printf ("# surveyed\n%.17g %.17g 0 %g\n%.17g %.17g 0 %g\n0 0 1 %g\n0 0 0 1\n",
                             cos (th), -sin (th), tx, sin (th), cos (th), ty, tz);
  tf = write_file (dir, "T.txt", tf_text);
  g_string_free (r, TRUE);
  g_string_free (e, TRUE);

  for (int m = 0; m < 2; m++)
    {
      JsonObject *al;
      JsonArray *rot;

      run = m == 0 ? run_cli ("compute", "ape", "--ref", ref, "--est", est, "--align", "se3",
                              "--relation", "full", "--json", NULL)
                   : run_cli ("compute", "ape", "--ref", ref, "--est", est, "--transform", tf,
                              "--relation", "full", "--json", NULL);
      g_assert_cmpint (run.status, ==, 0);
      nb_assert_abs (json_object_get_double_member (run.root, "max"), 0, 1e-9, mode[m + 1]);
      al = json_object_get_object_member (run.root, "alignment");
      g_assert_cmpstr (json_object_get_string_member (al, "kind"), ==, m == 0 ? "se3" : "given");
      rot = json_object_get_array_member (al, "rotation");
      nb_assert_abs (json_array_get_double_element (json_array_get_array_element (rot, 1), 0),
                     sin (th), 1e-9, "R10");
      nb_assert_abs (json_array_get_double_element (
                       json_object_get_array_member (al, "translation_m"), 0), tx, 1e-9, "tx");
      run_clear (&run);
    }
  run = run_cli ("compute", "ape", "--ref", ref, "--est", est, "--transform", tf, "--align",
                 "se3", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "give one of them"));
  run_clear (&run);
  /* A file that cannot be read is the user's input: exit 2, the option named
   * (GLib's file error re-typed by nb_error_propagate_as). */
  run = run_cli ("compute", "ape", "--ref", ref, "--est", est, "--transform",
                 "/nonexistent/T.txt", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_true (g_str_has_prefix (run.err, "navbench-cli: --transform: "));
  g_assert_nonnull (strstr (run.err, "No such file or directory"));
  run_clear (&run);
  g_remove (ref), g_remove (est), g_remove (tf), g_rmdir (dir);
}

static void
test_errors_cli (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-traj-XXXXXX", NULL);
  g_autofree char *good = write_file (dir, "good.tum",
                                      "0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n2 2 1 0 0 0 0 1\n"
                                      "3 3 1 1 0 0 0 1\n");
  g_autofree char *unsorted = write_file (dir, "unsorted.tum",
                                          "# x\n0 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 1\n1 0 0 0 0 0 0 1\n");
  g_autofree char *warn = write_file (dir, "warn.tum",
                                      "0 0 0 0 0 0 0 1.00002\n1 1 0 0 0 0 0 1\n2 2 1 0 0 0 0 1\n"
                                      "3 3 1 1 0 0 0 1\n");
  g_autofree char *bare = write_file (dir, "bare.csv", "t_s,x_mm,y_mm\n0,0,0\n1,1000,0\n");
  g_autofree char *expect = g_strdup_printf ("navbench-cli: %s:4: timestamp 1 is before 2 on line 3",
                                             unsorted);
  g_autofree char *expect_warn = g_strdup_printf ("navbench-cli: warning: %s:1: 1 quaternion",
                                                  warn);
  Run r;

  r = run_cli ("compute", "ape", "--ref", good, "--est", unsorted, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, expect));
  g_assert_cmpstr (r.out, ==, "");
  run_clear (&r);

  r = run_cli ("compute", "ape", "--ref", good, "--est", warn, "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, expect_warn));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (r.root, "warnings")), ==, 1);
  nb_assert_abs (json_object_get_double_member (r.root, "rmse"), 0, 0, "same positions");
  run_clear (&r);

  r = run_cli ("compute", "ape", "--ref", good, "--est", good, "--align", "se3", "--t-max-diff",
               "0", NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);

  r = run_cli ("compute", "ape", "--ref", bare, "--est", bare, "--align", "se3", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "needs at least 3"));
  run_clear (&r);

  r = run_cli ("compute", "ape", "--ref", bare, "--est", bare, "--relation", "angle_deg", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "without orientation"));
  run_clear (&r);

  r = run_cli ("compute", "rpe", "--ref", good, "--est", good, "--delta", "1", "--delta-unit",
               "km", NULL);
  g_assert_cmpint (r.status, ==, 2);
  run_clear (&r);

  g_remove (good), g_remove (unsorted), g_remove (warn), g_remove (bare), g_rmdir (dir);
}

/* The two files are read at once, one thread each (issue 20): files of
 * very unequal length either way round, one pose, and the errors of
 * either file or both (the reference's first, as read one by one) with
 * FILE:LINE, exit 2 and nothing on stdout. */
static void
test_read_threads_cli (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nb-traj-XXXXXX", NULL);
  GString *long_text = g_string_new ("# 50 000 poses at 100 Hz\n"), *short_text = g_string_new (NULL);
  g_autofree char *long_path = NULL, *short_path = NULL, *one = NULL, *one_b = NULL;
  g_autofree char *empty = NULL, *cut = NULL, *badq = NULL, *missing = NULL;
  double sse = 0;
  Run r;

  for (guint k = 0; k < 50000; k++)
    g_string_append_printf (long_text, "%.2f %.6f 0 0 0 0 0 1\n", k * 0.01, k * 0.001);
  /* 7 poses 3 ms after every 1000th of the long file's, d_j off in x */
  for (guint j = 0; j < 7; j++)
    {
      double d = 0.01 * (j + 1);

      g_string_append_printf (short_text, "%.3f %.6f 0 0 0 0 0.6 0.8\n", 10.0 * j + 0.003, j + d);
      sse += d * d;
    }
  long_path = write_file (dir, "long.tum", long_text->str);
  short_path = write_file (dir, "short.tum", short_text->str);
  one = write_file (dir, "one.tum", "20.002 2.5 0 0 0 0 0 1");   /* no final newline */
  one_b = write_file (dir, "one-b.tum", "20 2 0 0 0 0 0 1\n");
  empty = write_file (dir, "empty.tum", "");
  cut = write_file (dir, "cut.tum", "0 0 0 0 0 0 0 1\n0.01 0.001 0 0 0 0");
  badq = write_file (dir, "badq.tum", "0 0 0 0 0 0 0 1\n0.01 0.001 0 0 0 0 0 0.5\n");
  missing = g_build_filename (dir, "missing.tum", NULL);

  for (int swap = 0; swap < 2; swap++)
    {
      r = run_cli ("compute", "ape", "--ref", swap ? short_path : long_path, "--est",
                   swap ? long_path : short_path, "--json", NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_cmpint (json_object_get_int_member (r.root, "n_matched"), ==, 7);
      nb_assert_rel (json_object_get_double_member (r.root, "rmse"), sqrt (sse / 7), 1e-12,
                     "rmse of the 7 pairs");
      {
        JsonObject *a = json_object_get_object_member (r.root, "association");

        g_assert_cmpint (json_object_get_int_member (a, "n_ref"), ==, swap ? 7 : 50000);
        g_assert_cmpint (json_object_get_int_member (a, "n_est"), ==, swap ? 50000 : 7);
      }
      run_clear (&r);
    }

  r = run_cli ("compute", "ape", "--ref", one_b, "--est", one, "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (json_object_get_int_member (r.root, "n_matched"), ==, 1);
  nb_assert_rel (json_object_get_double_member (r.root, "rmse"), 0.5, 1e-15, "one pair");
  run_clear (&r);

  {
    struct { const char *ref, *est, *message; } cases[] = {
      { long_path, missing, missing }, { missing, long_path, missing },
      { long_path, empty, empty }, { empty, short_path, empty },
      { long_path, cut, cut }, { cut, long_path, cut },
      { badq, long_path, badq }, { long_path, badq, badq },
      { cut, badq, cut }, { badq, cut, badq }, { missing, cut, missing },
    };
    const char *suffix[] = { ": No such file", ": no poses in the file", ":2: too few fields",
                             ":2: the quaternion has norm 0.5" };

    for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
      for (int rpe = 0; rpe < 2; rpe++)
        {
          const char *m = cases[c].message;
          g_autofree char *expect = g_strconcat ("navbench-cli: ", m,
                                                 suffix[m == missing ? 0 : m == empty ? 1
                                                        : m == cut ? 2 : 3], NULL);

          r = run_cli ("compute", rpe ? "rpe" : "ape", "--ref", cases[c].ref, "--est",
                       cases[c].est, "--json", NULL);
          g_assert_cmpint (r.status, ==, 2);
          g_assert_cmpstr (r.out, ==, "");
          if (strstr (r.err, expect) == NULL)
            g_error ("case %u: '%s' does not contain '%s'", c, r.err, expect);
          run_clear (&r);
        }
  }
  g_remove (long_path), g_remove (short_path), g_remove (one), g_remove (one_b);
  g_remove (empty), g_remove (cut), g_remove (badq), g_rmdir (dir);
  g_string_free (long_text, TRUE), g_string_free (short_text, TRUE);
}

static void
test_interpolate_cli (void)
{
  /* Reference at 10 Hz over 0–10 s: constant velocity and a constant-rate
   * turn about z, where linear interpolation and slerp are exact; estimate
   * at 7 Hz over −1–12 s with known errors.  APE trans is then |e_k|. */
  g_autofree char *dir = g_dir_make_tmp ("nb-traj-XXXXXX", NULL);
  GString *r = g_string_new (NULL), *e = g_string_new (NULL);
  g_autofree char *ref = NULL, *est = NULL;
  g_autofree double *err = g_new (double, 200), *yaw_err = g_new (double, 200);
  guint n = 0, before = 0, after = 0;
  Run run;

  for (int k = 0; k <= 100; k++)
    {
      double t = k * 0.1, yaw = 0.5 * t;

      g_string_append_printf (r, "%.17g %.17g %.17g 0 0 0 %.17g %.17g\n", t, t, 2 * t,
                              sin (yaw / 2), cos (yaw / 2));
    }
  for (int k = 0; k < 13 * 7; k++)
    {
      double t = -1 + k / 7.0, ex = 0.01 * sin (k), ey = 0.02 * cos (3.0 * k), h = 0.05 * sin (0.3 * k);
      double yaw = 0.5 * t + h;

      g_string_append_printf (e, "%.17g %.17g %.17g 0 0 0 %.17g %.17g\n", t, t + ex, 2 * t + ey,
                              sin (yaw / 2), cos (yaw / 2));
      if (t < 0)
        before++;
      else if (t > 10.0000000001)
        after++;
      else
        err[n] = hypot (ex, ey), yaw_err[n++] = fabs (h) * 180 / G_PI;
    }
  ref = write_file (dir, "ref.tum", r->str);
  est = write_file (dir, "est.tum", e->str);
  g_string_free (r, TRUE);
  g_string_free (e, TRUE);

  run = run_cli ("compute", "ape", "--ref", ref, "--est", est, "--interpolate", "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  {
    JsonObject *a = json_object_get_object_member (run.root, "association");
    JsonObject *d = json_object_get_object_member (a, "est_dropped");

    g_assert_cmpstr (json_object_get_string_member (a, "method"), ==, "interpolate");
    g_assert_cmpint (json_object_get_int_member (d, "before_overlap"), ==, before);
    g_assert_cmpint (json_object_get_int_member (d, "after_overlap"), ==, after);
    g_assert_cmpint (json_object_get_int_member (d, "in_reference_gap"), ==, 0);
  }
  check_stats (run.root, err, n);
  run_clear (&run);
  /* 10 Hz stamps such as 0.30000000000000004 − 0.2 are no gap at --max-gap 0.1 */
  run = run_cli ("compute", "ape", "--ref", ref, "--est", est, "--interpolate", "--max-gap",
                 "0.1", "--relation", "yaw_deg", "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  check_stats (run.root, yaw_err, n);
  run_clear (&run);
  /* the nearest-stamp rule with its 10 ms window keeps only the estimate
   * stamps that fall within 10 ms of a reference one */
  run = run_cli ("compute", "ape", "--ref", ref, "--est", est, "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpint (json_object_get_int_member (run.root, "n_matched"), <, n / 2);
  run_clear (&run);
  g_remove (ref), g_remove (est), g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/traj-cli/ape", test_ape_cli);
  g_test_add_func ("/traj-cli/rpe", test_rpe_cli);
  g_test_add_func ("/traj-cli/align", test_align_cli);
  g_test_add_func ("/traj-cli/interpolate", test_interpolate_cli);
  g_test_add_func ("/traj-cli/errors", test_errors_cli);
  g_test_add_func ("/traj-cli/read-threads", test_read_threads_cli);
  return g_test_run ();
}
