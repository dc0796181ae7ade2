/* test-sim-arm-iso9283 — the ISO 9283 characteristics recover the simulated arm's injected errors
 *
 * The simulated iiwa 7 carries the marker probe (robot setup --tool
 * marker_probe, so the TCP comes from tool_active.xacro) and a known error
 * model: encoder offsets, link length errors, backlash, joint noise and a
 * second-order servo that overshoots.  The simulated tracker watches it at
 * 1 kHz.  Each figure is compared with what the error model predicts,
 * computed here another way: the true kinematics at the commanded joints
 * (AP, AD, AT), Monte Carlo over the noise model (RP; RD and RT as the
 * distribution of the estimator itself over simulated campaigns), the servo's
 * closed-form ramp response (stabilisation time, overshoot).
 */
#include "nb-iso9283.h"
#include "nb-iso9283-cube.h"
#include "nb-sim-tracker.h"

#include "nb-angle.h"
#include "nb-arm-file.h"
#include "nb-error.h"
#include "nb-test-iso9283.h"
#include "nb-test-tmp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef double Vec3[3];
typedef double Joints[7];

static char *tmp_dir;
static NbArmModel model;

static const double cube_centre[3] = { 600, 0, 450 }, cube_abc[3] = { 180, 0, 180 };
static const double seed_q[7] = { 0, 0.6, 0, -1.2, 0, 1.0, 0 };

/* The robot directory with the marker probe as the active tool. */
static void
load_model_with_probe (void)
{
  g_autofree char *src = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data", "robots",
                                           "iiwa7", NULL);
  g_autofree char *dir = g_build_filename (tmp_dir, "iiwa7", NULL);
  const char *files[] = { "joint_limits.yaml", "kinematics.yaml", "tools.yaml", "tool_active.xacro",
                          "iiwa7.srdf" };
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) tools = NULL;

  g_mkdir_with_parents (dir, 0755);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *from = g_build_filename (src, files[i], NULL);
      g_autofree char *to = g_build_filename (dir, files[i], NULL);
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (from, &text, NULL, NULL));
      nb_test_write_file (to, text);
    }
  tools = nb_arm_tools_load (dir, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < tools->len; i++)
    if (g_str_equal (((NbArmTool *) tools->pdata[i])->name, "marker_probe"))
      g_assert_true (nb_arm_setup_tool (dir, tools->pdata[i], &error));
  g_assert_no_error (error);
  g_assert_true (nb_arm_model_load (dir, &model, &error));
  g_assert_no_error (error);
  /* 95 mm along the flange's z. */
  g_assert_cmpfloat (model.tcp[11], ==, 0.095);
}

static void
inject_errors (NbSimArm *arm)
{
  const double offset[7] = { 0, 2e-4, 0, -1.5e-4, 0, 1e-4, 0 };
  const double link[7] = { 0, 0, 0.0004, 0, -0.0003, 0, 0 };

  memcpy (arm->joint_offset_rad, offset, sizeof offset);
  memcpy (arm->link_error_m, link, sizeof link);
  nb_sim_arm_set_errors (arm);
  arm->noise_rad = 1e-5;
  arm->backlash_rad = 3e-5;
}

static void
true_position (const NbSimArm *arm, const double q[7], double p_mm[3])
{
  double T[16];

  nb_sim_arm_true_pose (arm, q, T);
  for (int k = 0; k < 3; k++)
    p_mm[k] = T[k * 4 + 3] * 1000;
}

/* Where the arm comes to rest at q: uniform joint noise ±√3σ (the goal's
 * arrival, nb-sim-arm), through the true arm, plus the tracker's mean over
 * its window (n samples, Gaussian σ per axis). */
static void
noisy_rest (const NbSimArm *arm, GRand *r, const double q[7], double tracker_sigma_mm,
            guint n_samples, double p_mm[3])
{
  double qn[7];

  for (int j = 0; j < 7; j++)
    qn[j] = q[j] + g_rand_double_range (r, -1, 1) * sqrt (3.0) * arm->noise_rad;
  true_position (arm, qn, p_mm);
  for (int k = 0; k < 3; k++)
    p_mm[k] += nb_test_gauss (r, tracker_sigma_mm / sqrt ((double) n_samples));
}

/* The goals the runner sends, with the virtual time each one ends. */
typedef struct {
  NbSimArm *arm;
  GArray *end_s;                /* of double */
  GArray *start_s;
} Recorder;

static gboolean
rec_move (gpointer robot, const double q[7], GError **error)
{
  Recorder *r = robot;
  double t0 = r->arm->clock_s;
  gboolean ok = nb_sim_arm_ops ()->move_to_joints (r->arm, q, error);

  g_array_append_val (r->start_s, t0);
  g_array_append_val (r->end_s, r->arm->clock_s);
  return ok;
}

static gboolean
rec_pose (gpointer robot, const char *f, const double p[3], const double o[4], const char *pl,
          GError **error)
{
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "joint points only");
  return FALSE;
}

static void
rec_stop (gpointer robot)
{
}

static void
rec_wait (gpointer robot, double s)
{
  nb_sim_arm_ops ()->wait (((Recorder *) robot)->arm, s);
}

static const NbRobotOps rec_ops = { rec_move, rec_pose, rec_stop, rec_wait, NULL };

/* ---------------------------------------------- pose, distance (7.2, 7.4) -- */

/* The joint the backlash leaves behind for each pose of the steady cycle
 * P1 → P5 → P4 → P3 → P2 → P1: a reversal of a joint's direction loses the
 * backlash (nb-sim-arm's model). */
static void
steady_joints (const double q[5][7], double backlash, double out[5][7])
{
  const guint order[6] = { 0, 4, 3, 2, 1, 0 };

  for (guint k = 1; k <= 5; k++)
    {
      guint pose = order[k], prev = order[k - 1];

      for (int j = 0; j < 7; j++)
        {
          double dir = q[pose][j] > q[prev][j] ? 1 : q[pose][j] < q[prev][j] ? -1 : 0;
          double last = 0;

          /* The last non-zero direction before this move, round the cycle. */
          for (guint b = 1; b <= 5 && last == 0; b++)
            {
              /* Move mi goes order[mi − 1] → order[mi], mi = 1..5. */
              guint mi = (k + 10 - b - 1) % 5 + 1;
              guint a0 = order[mi - 1], a1 = order[mi];

              last = q[a1][j] > q[a0][j] ? 1 : q[a1][j] < q[a0][j] ? -1 : 0;
            }
          out[pose][j] = q[pose][j] - (dir != 0 && dir != last ? dir * backlash : 0);
        }
    }
}

static void
test_pose_distance (void)
{
  NbIso9283Cube cube;
  NbSimArm arm;
  NbSimTracker tracker;
  Recorder rec;
  g_autoptr (GError) error = NULL;
  g_autoptr (NbSequence) seq = NULL;
  g_autoptr (GRand) mc = g_rand_new_with_seed (42);
  double q[5][7], qs[5][7];
  NbPose6 att[5][30];
  const guint cycles = 30;

  g_assert_true (nb_iso9283_cube_fit (&model, cube_centre, 1, cube_abc, 600, seed_q, &cube, q,
                                      &error));
  g_assert_no_error (error);
  seq = nb_iso9283_pose_sequence (&model, (const double (*)[7]) q, cycles, &error);
  g_assert_no_error (error);

  nb_sim_arm_init (&arm, &model, 7);
  inject_errors (&arm);
  arm.settle_omega_rad_s = 40;
  arm.settle_zeta = 0.3;
  arm.settle_dwell_s = 1.2;
  nb_sim_tracker_init (&tracker, &arm, 1000, 0.005, 0.002, 8);
  rec = (Recorder) { &arm, g_array_new (FALSE, FALSE, sizeof (double)),
                     g_array_new (FALSE, FALSE, sizeof (double)) };
  g_assert_true (nb_sequence_run (seq, 0, &rec_ops, &rec, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  /* Six goals a cycle (home, four waypoints, home); the tracker at 1 kHz throughout. */
  g_assert_cmpuint (rec.end_s->len, ==, 6 * cycles);
  nb_assert_rel ((double) tracker.t_s->len, arm.clock_s * 1000, 1e-3, "1 kHz");
  for (guint c = 0; c < cycles; c++)
    for (guint k = 0; k < 5; k++)
      {
        /* P1 when the cycle comes back to it from P2 (the sequence's closing
         * home; its opening one is a goal without motion). */
        double t1 = g_array_index (rec.end_s, double, c * 6 + (k == 0 ? 5 : k));

        /* The attained pose: the tracker's mean over the last 0.2 s of the dwell. */
        g_assert_true (nb_sim_tracker_mean (&tracker, t1 - 0.2, t1,
                                            &att[nb_iso9283_cycle_pose (k)][c]));
      }

  steady_joints ((const double (*)[7]) q, arm.backlash_rad, qs);
  double ap_max = 0;
  for (int i = 0; i < 5; i++)
    {
      NbPose6 cmd = { cube.p_mm[i][0], cube.p_mm[i][1], cube.p_mm[i][2], cube_abc[0], cube_abc[1],
                      cube_abc[2] };
      NbIso9283Pose r;
      double pe[3], ap_exp, e[3], l_sum = 0, l_ss = 0, rp_exp;
      const int draws = 4000;
      g_autofree double *l = g_new (double, draws);
      double bar[3] = { 0 };
      Vec3 *pts = g_new (Vec3, draws);

      g_assert_true (nb_iso9283_pose (&cmd, att[i], cycles, &r, &error));
      /* AP predicted: the true arm at the joints the cycle leaves. */
      true_position (&arm, qs[i], pe);
      for (int k = 0; k < 3; k++)
        e[k] = pe[k] - cube.p_mm[i][k];
      ap_exp = sqrt (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
      g_test_message ("P%d: AP %.4f mm (model %.4f), RP %.4f mm", i + 1, r.ap_mm, ap_exp, r.rp_mm);
      ap_max = MAX (ap_max, ap_exp);
      /* The barycentre of 30 cycles: σ ≈ 15 µm/√30 per axis. */
      nb_assert_abs (r.ap_mm, ap_exp, 0.005, "AP against the error model");
      for (int k = 0; k < 3; k++)
        nb_assert_abs (r.ap_xyz_mm[k], e[k], 0.005, "AP_x/y/z against the error model");
      /* RP predicted: uniform joint noise ±√3σ through the true arm (Monte Carlo). */
      for (int d = 0; d < draws; d++)
        {
          double qn[7];

          for (int j = 0; j < 7; j++)
            qn[j] = qs[i][j] + g_rand_double_range (mc, -1, 1) * sqrt (3.0) * arm.noise_rad;
          true_position (&arm, qn, pts[d]);
          for (int k = 0; k < 3; k++)
            bar[k] += pts[d][k] / draws;
        }
      for (int d = 0; d < draws; d++)
        {
          double v[3] = { pts[d][0] - bar[0], pts[d][1] - bar[1], pts[d][2] - bar[2] };

          l[d] = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
          l_sum += l[d];
        }
      for (int d = 0; d < draws; d++)
        l_ss += (l[d] - l_sum / draws) * (l[d] - l_sum / draws);
      rp_exp = l_sum / draws + 3 * sqrt (l_ss / (draws - 1));
      g_free (pts);
      /* 30 cycles estimate l̄ + 3·S_l to about ±25 %. */
      g_assert_cmpfloat (r.rp_mm, >, 0.6 * rp_exp);
      g_assert_cmpfloat (r.rp_mm, <, 1.5 * rp_exp);
      /* Orientation: the probe's 6-DoF reading, AP_a small but across ±180°. */
      g_assert_cmpfloat (fabs (r.ap_abc_deg[0]), <, 0.1);
    }

  g_assert_cmpfloat (ap_max, >, 0.2);     /* the errors are there to find */

  /* 7.4 between P2 and P4: AD = D̄ − D_c, predicted by the true arm. */
  {
    NbPose6 c2 = { cube.p_mm[1][0], cube.p_mm[1][1], cube.p_mm[1][2], 180, 0, 180 };
    NbPose6 c4 = { cube.p_mm[3][0], cube.p_mm[3][1], cube.p_mm[3][2], 180, 0, 180 };
    NbIso9283Distance d;
    double p2[3], p4[3], dc, de;

    g_assert_true (nb_iso9283_distance (&c2, &c4, att[1], att[3], cycles, &d, &error));
    true_position (&arm, qs[1], p2);
    true_position (&arm, qs[3], p4);
    de = sqrt ((p2[0] - p4[0]) * (p2[0] - p4[0]) + (p2[1] - p4[1]) * (p2[1] - p4[1]) +
               (p2[2] - p4[2]) * (p2[2] - p4[2]));
    dc = 0.8 * cube.edge_mm * sqrt (3.0);
    nb_assert_abs (d.d_command_mm, dc, 1e-9, "D_c = 0.8·L");
    g_test_message ("AD %.4f mm (model %.4f), RD %.4f mm", d.ad_mm, de - dc, d.rd_mm);
    nb_assert_abs (d.ad_mm, de - dc, 0.01, "AD against the error model");
    /* RD predicted: the 30-cycle estimator 3·S_D itself, by Monte Carlo over
     * the noise model (each goal's joint noise at P2 and P4, the tracker's
     * mean of 200 samples), 2000 campaigns; the run's RD must lie within
     * their central 99.8 %. */
    {
      const guint reps = 2000;
      g_autofree double *rd = g_new (double, reps);
      double med, lo, hi;

      for (guint m = 0; m < reps; m++)
        {
          double dj[30], sum = 0, ss = 0;

          for (guint j = 0; j < cycles; j++)
            {
              double a[3], b[3];

              noisy_rest (&arm, mc, qs[1], 0.005, 200, a);
              noisy_rest (&arm, mc, qs[3], 0.005, 200, b);
              dj[j] = sqrt ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                            (a[2] - b[2]) * (a[2] - b[2]));
              sum += dj[j];
            }
          for (guint j = 0; j < cycles; j++)
            ss += (dj[j] - sum / cycles) * (dj[j] - sum / cycles);
          rd[m] = 3 * sqrt (ss / (cycles - 1));
        }
      lo = nb_test_quantile (rd, reps, 0.001);
      hi = nb_test_quantile (rd, reps, 0.999);
      med = nb_test_quantile (rd, reps, 0.5);
      g_test_message ("RD %.4f mm, predicted %.4f mm (99.8 %%: %.4f … %.4f)", d.rd_mm, med, lo,
                      hi);
      g_assert_cmpfloat (d.rd_mm, >=, lo);
      g_assert_cmpfloat (d.rd_mm, <=, hi);
    }
  }
  g_array_unref (rec.end_s);
  g_array_unref (rec.start_s);
  nb_sim_tracker_clear (&tracker);
  nb_sim_arm_clear (&arm);
}

/* ------------------------------------------------ stabilisation (7.5, 7.6) -- */

static void
test_stabilisation (void)
{
  NbIso9283Cube cube;
  NbSimArm arm;
  NbSimTracker tracker;
  g_autoptr (GError) error = NULL;
  double q[5][7];
  const double w = 40, z = 0.25, band = 0.02;

  g_assert_true (nb_iso9283_cube_fit (&model, cube_centre, 1, cube_abc, 600, seed_q, &cube, q,
                                      &error));
  nb_sim_arm_init (&arm, &model, 9);
  inject_errors (&arm);
  arm.noise_rad = 0;
  arm.backlash_rad = 0;
  arm.settle_omega_rad_s = w;
  arm.settle_zeta = z;
  arm.settle_dwell_s = 1.5;
  g_assert_true (nb_sim_arm_ops ()->move_to_joints (&arm, q[1], &error));
  nb_sim_tracker_init (&tracker, &arm, 1000, 0.001, 0.0, 10);
  /* Three cycles P2 → P1 (7.5: three cycles at P1). */
  for (int c = 0; c < 3; c++)
    {
      double t0 = arm.clock_s, ramp = 0, qa[7];
      g_autofree NbIso9283Sample *sim = NULL, *model_stream = NULL;
      guint n = 0, first = tracker.t_s->len;
      NbIso9283Settling rs, rm;

      memcpy (qa, arm.q, sizeof qa);
      for (int j = 0; j < 7; j++)
        ramp = MAX (ramp, fabs (q[0][j] - qa[j]) / model.joint[j].max_velocity);
      g_assert_true (nb_sim_arm_ops ()->move_to_joints (&arm, q[0], &error));
      n = tracker.t_s->len - first;
      sim = g_new (NbIso9283Sample, n);
      model_stream = g_new (NbIso9283Sample, n);
      for (guint i = 0; i < n; i++)
        {
          const NbPose6 *p = &g_array_index (tracker.pose, NbPose6, first + i);
          double t = g_array_index (tracker.t_s, double, first + i), qm[7];

          sim[i] = (NbIso9283Sample) { t, { p->x_mm, p->y_mm, p->z_mm } };
          for (int j = 0; j < 7; j++)
            qm[j] = nb_test_servo_closed_form (qa[j], q[0][j], ramp, w, z, t - t0);
          model_stream[i].t_s = t;
          true_position (&arm, qm, model_stream[i].p_mm);
        }
      g_assert_true (nb_iso9283_settling (sim, n, band, 0.2, &rs, &error));
      g_assert_no_error (error);
      g_assert_true (nb_iso9283_settling (model_stream, n, band, 0.2, &rm, &error));
      g_test_message ("cycle %d: stabilisation %.4f s (closed form %.4f s), OV %.4f mm (%.4f)",
                      c + 1, rs.stabilisation_s, rm.stabilisation_s, rs.overshoot_mm,
                      rm.overshoot_mm);
      /* ζ = 0.25 at 40 rad/s rings for a tenth of a second and more. */
      g_assert_cmpfloat (rm.stabilisation_s, >, 0.1);
      /* The tracker's 1 ms and its noise against the closed form. */
      nb_assert_abs (rs.stabilisation_s, rm.stabilisation_s, 0.005, "stabilisation time");
      g_assert_cmpfloat (rm.overshoot_mm, >, 0.5);
      nb_assert_abs (rs.overshoot_mm, rm.overshoot_mm, 0.01 * rm.overshoot_mm + 0.005, "overshoot");
      g_assert_true (nb_sim_arm_ops ()->move_to_joints (&arm, q[1], &error));
    }
  nb_sim_tracker_clear (&tracker);
  nb_sim_arm_clear (&arm);
}

/* ------------------------------------------------------- path (8.2, 8.3) -- */

static void
test_path (void)
{
  NbIso9283Cube cube;
  g_autoptr (GError) error = NULL;
  double q[5][7];
  const guint cycles = 10, steps = 100;
  NbIso9283Path path = { .kind = NB_ISO9283_LINE };
  NbIso9283Track tracks[10];
  NbSimTracker trk[10];
  NbSimArm arm;
  NbIso9283PathResult r;
  Joints *qline = g_new (Joints, steps + 1);
  double at_exp = 0, length;

  g_assert_true (nb_iso9283_cube_fit (&model, cube_centre, 1, cube_abc, 600, seed_q, &cube, q,
                                      &error));
  /* 6.5 / 8: the diagonal P2 → P4, commanded as joint points every ~3 mm (IK). */
  memcpy (path.start_mm, cube.p_mm[1], sizeof path.start_mm);
  memcpy (path.end_mm, cube.p_mm[3], sizeof path.end_mm);
  memcpy (path.abc_deg, cube_abc, sizeof path.abc_deg);
  g_assert_true (nb_iso9283_path_length (&path, &length, NULL));
  for (guint s = 0; s <= steps; s++)
    {
      double p[3], T[16];

      for (int k = 0; k < 3; k++)
        p[k] = path.start_mm[k] + (path.end_mm[k] - path.start_mm[k]) * s / steps;
      nb_iso9283_cube_target (&cube, p, T);
      g_assert_true (nb_arm_ik (&model, T, s == 0 ? q[1] : qline[s - 1], qline[s], &error));
    }
  nb_sim_arm_init (&arm, &model, 11);
  inject_errors (&arm);
  arm.slow_factor = 20;        /* ~ 10 % of rated speed: samples every ≤ 0.2 mm */
  for (guint c = 0; c < cycles; c++)
    {
      g_assert_true (nb_sim_arm_ops ()->move_to_joints (&arm, qline[0], &error));
      nb_sim_tracker_init (&trk[c], &arm, 1000, 0.005, 0.002, 100 + c);
      for (guint s = 1; s <= steps; s++)
        g_assert_true (nb_sim_arm_ops ()->move_to_joints (&arm, qline[s], &error));
      /* The next cycle's tracker replaces this one on the arm. */
      arm.on_advance = NULL;
      arm.on_advance_data = NULL;
      tracks[c] = (NbIso9283Track) { (double *) trk[c].t_s->data, (NbPose6 *) trk[c].pose->data,
                                     trk[c].pose->len };
    }
  g_assert_true (nb_iso9283_path (&path, tracks, cycles, 10, 5.0, &r, &error));
  g_assert_no_error (error);
  /* AT predicted: the true arm's error at each calculated point, in its normal plane. */
  for (guint i = 1; i <= 10; i++)
    {
      double s = length * i / 11.0, c[3], t[3], qi[7], pe[3], e[3], et, d;
      double u = s / length * steps;
      guint k = (guint) floor (u);
      double f = u - k;

      nb_iso9283_path_point (&path, s, c, t);
      for (int j = 0; j < 7; j++)
        qi[j] = qline[k][j] + f * (qline[MIN (k + 1, steps)][j] - qline[k][j]);
      true_position (&arm, qi, pe);
      for (int m = 0; m < 3; m++)
        e[m] = pe[m] - c[m];
      et = e[0] * t[0] + e[1] * t[1] + e[2] * t[2];
      d = sqrt (MAX (0.0, e[0] * e[0] + e[1] * e[1] + e[2] * e[2] - et * et));
      at_exp = MAX (at_exp, d);
    }
  g_test_message ("AT %.4f mm (model %.4f), RT %.4f mm", r.at_mm, at_exp, r.rt_mm);
  g_assert_cmpfloat (at_exp, >, 0.1);
  /* The backlash and the joint noise of the waypoints move the mean by µm. */
  nb_assert_abs (r.at_mm, at_exp, 0.01, "AT against the error model");
  /* RT predicted: the 10-cycle estimator max_i (l̄_i + 3·S_li) itself, by
   * Monte Carlo over the noise model, 1000 campaigns.  Between waypoints k
   * and k+1 the joints run linearly from the one's arrival noise to the
   * other's (nb-sim-arm), so at the calculated point's fraction f the joint
   * error is (1 − f)·n_k + f·n_k+1; the crossing is interpolated between two
   * tracker samples (Gaussian σ each, at a fraction g uniform in [0, 1)).
   * Only the part in the normal plane counts.  The run's RT must lie within
   * the campaigns' central 99.8 %. */
  {
    g_autoptr (GRand) rmc = g_rand_new_with_seed (43);
    const guint reps = 1000;
    g_autofree double *rt = g_new (double, reps);
    double med, lo, hi;

    for (guint m = 0; m < reps; m++)
      {
        double worst = 0;

        for (guint i = 1; i <= 10; i++)
          {
            double s = length * i / 11.0, c[3], t[3], u = s / length * steps, f, pts[10][3];
            double bar[3] = { 0 }, l[10], l_sum = 0, l_ss = 0;
            guint k = (guint) floor (u);

            f = u - k;
            nb_iso9283_path_point (&path, s, c, t);
            for (guint j = 0; j < cycles; j++)
              {
                double qn[7], g = g_rand_double (rmc), et;
                double sig = 0.005 * sqrt ((1 - g) * (1 - g) + g * g);

                for (int a = 0; a < 7; a++)
                  {
                    double n0 = g_rand_double_range (rmc, -1, 1) * sqrt (3.0) * arm.noise_rad;
                    double n1 = g_rand_double_range (rmc, -1, 1) * sqrt (3.0) * arm.noise_rad;

                    qn[a] = qline[k][a] + f * (qline[MIN (k + 1, steps)][a] - qline[k][a]) +
                            (1 - f) * n0 + f * n1;
                  }
                true_position (&arm, qn, pts[j]);
                for (int a = 0; a < 3; a++)
                  pts[j][a] += nb_test_gauss (rmc, sig);
                /* Into the normal plane. */
                et = (pts[j][0] - c[0]) * t[0] + (pts[j][1] - c[1]) * t[1] +
                     (pts[j][2] - c[2]) * t[2];
                for (int a = 0; a < 3; a++)
                  {
                    pts[j][a] -= et * t[a];
                    bar[a] += pts[j][a] / cycles;
                  }
              }
            for (guint j = 0; j < cycles; j++)
              {
                l[j] = sqrt ((pts[j][0] - bar[0]) * (pts[j][0] - bar[0]) +
                             (pts[j][1] - bar[1]) * (pts[j][1] - bar[1]) +
                             (pts[j][2] - bar[2]) * (pts[j][2] - bar[2]));
                l_sum += l[j];
              }
            for (guint j = 0; j < cycles; j++)
              l_ss += (l[j] - l_sum / cycles) * (l[j] - l_sum / cycles);
            worst = MAX (worst, l_sum / cycles + 3 * sqrt (l_ss / (cycles - 1)));
          }
        rt[m] = worst;
      }
    lo = nb_test_quantile (rt, reps, 0.001);
    hi = nb_test_quantile (rt, reps, 0.999);
    med = nb_test_quantile (rt, reps, 0.5);
    g_test_message ("RT %.4f mm, predicted %.4f mm (99.8 %%: %.4f … %.4f)", r.rt_mm, med, lo, hi);
    g_assert_cmpfloat (r.rt_mm, >=, lo);
    g_assert_cmpfloat (r.rt_mm, <=, hi);
  }
  for (guint c = 0; c < cycles; c++)
    {
      trk[c].arm = NULL;
      nb_sim_tracker_clear (&trk[c]);
    }
  g_free (qline);
  nb_sim_arm_clear (&arm);
}

/* --------------------------------------------------- three targets -- */

static void
test_three_targets (void)
{
  NbSimArm arm;
  NbSimTracker t6, t3;
  const double q[7] = { 0.3, 0.5, -0.2, -1.4, 0.1, 1.1, 0.4 };
  double T[16], R[9], abc[3];
  NbPose6 m6, m3;

  nb_sim_arm_init (&arm, &model, 3);
  inject_errors (&arm);
  arm.noise_rad = 0;
  nb_sim_tracker_init (&t6, &arm, 1000, 0.0, 0.0, 1);
  nb_sim_tracker_init (&t3, &arm, 1000, 0.0, 0.0, 2);
  nb_sim_tracker_use_targets (&t3);
  g_assert_true (nb_sim_arm_ops ()->move_to_joints (&arm, q, NULL));
  nb_sim_arm_ops ()->wait (&arm, 0.1);
  g_assert_true (nb_sim_tracker_mean (&t6, arm.clock_s - 0.05, arm.clock_s, &m6));
  g_assert_true (nb_sim_tracker_mean (&t3, arm.clock_s - 0.05, arm.clock_s, &m3));
  nb_sim_arm_true_pose (&arm, arm.q, T);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      R[r * 3 + c] = T[r * 4 + c];
  nb_iso9283_matrix_to_abc (R, abc);
  /* Noise-free: the frame of three reflectors is the TCP frame. */
  nb_assert_abs (m3.x_mm, T[3] * 1000, 1e-9, "three targets x");
  nb_assert_abs (m3.z_mm, T[11] * 1000, 1e-9, "three targets z");
  nb_assert_abs (nb_angle_recast_deg (m3.a_deg - abc[0]), 0, 1e-9, "three targets a");
  nb_assert_abs (nb_angle_recast_deg (m3.c_deg - abc[2]), 0, 1e-9, "three targets c");
  nb_assert_abs (nb_angle_recast_deg (m6.b_deg - abc[1]), 0, 1e-9, "6-DoF b");
  nb_sim_tracker_clear (&t3);
  nb_sim_tracker_clear (&t6);
  nb_sim_arm_clear (&arm);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = nb_test_make_dir ();
  load_model_with_probe ();
  g_test_add_func ("/sim-arm-iso9283/pose-distance", test_pose_distance);
  g_test_add_func ("/sim-arm-iso9283/stabilisation", test_stabilisation);
  g_test_add_func ("/sim-arm-iso9283/path", test_path);
  g_test_add_func ("/sim-arm-iso9283/three-targets", test_three_targets);
  rc = g_test_run ();
  nb_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
