/* test-iso9283-live — the ISO 9283 pose campaign (5 poses × 30 cycles)
 * measured by a live instrument driver over loopback
 *
 * `navbench-cli serve` is the arm; the test is its tracker: a player thread
 * reads the served arm's reported joints (GET /robot/state) at 200 Hz, puts
 * them through the true arm's geometry (nb_iso9283_sim_errors, as the
 * simulated tracker of `--robot http://…` does) and sends the TCP pose as
 * NatNet 4.0 frames of one rigid body over UDP, in real time.  `campaign run
 * --standard iso9283 --robot URL --instrument natnet --url udp://…`
 * measures through NbDevice (the natnet driver), the mean of each goal's
 * window.  The served arm holds each attained pose until the next goal (its
 * joint noise is drawn once per goal), so every attained pose the run
 * stores must be one the player sent, to the float32 of NatNet's encoding
 * as the driver decodes it (1e-9 here: the same bytes, the same
 * conversion); the figures then equal nb_iso9283_pose on the played poses.
 *
 * The run lets go of what arrives in the first --guard after a goal (the
 * instrument's latency, nb_iso9283_measure_device), so the tracker's latency
 * must stay below it.  The player's "exposure" is the served arm's state:
 * on a loaded machine the player thread got the answer of its GET up to
 * 150 ms after the server took the state (load 20, 2 cores: 1–2.5 % of
 * frames over 40 ms), and a state taken just before a goal ended reached
 * the run after the guard and was measured as the next goal's pose ("not
 * played (in order)": the previous rest, the next goal's own rest arriving
 * after the window).  The player is a tracker of bounded latency: a frame
 * whose state (the server's stamp_us) is older than MAX_LATENCY_S when it
 * is sent is dropped, as a lost frame, and each frame carries that stamp
 * as its timestamp, not its place in the schedule.
 */
#include "nb-test.h"
#include "nb-test-cli.h"
#include "nb-test-player.h"
#include "nb-test-tmp.h"

#include "nb-arm-file.h"
#include "nb-http-robot.h"
#include "nb-iso9283-run.h"
#include "nb-traj.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#define RATE_HZ 200.0
/* The run's guard, and the player's latency bound well inside it. */
#define GUARD_S 0.04
#define MAX_LATENCY_S (GUARD_S / 2)

static char *tmp_dir;

typedef struct {
  NbHttpRobot *robot;
  NbSimArm truth;
  NbTestUdp udp;
  volatile gint stop;
  GMutex lock;
  GArray *played;               /* NbPose6 as the driver decodes them, distinct rests */
  guint frames;
  guint late;                   /* frames dropped: their state older than MAX_LATENCY_S */
} Player;

static gpointer
player (gpointer data)
{
  Player *p = data;
  gint64 t0 = g_get_monotonic_time (), real_t0 = g_get_real_time ();

  for (int frame = 0; !g_atomic_int_get (&p->stop); frame++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GByteArray) b = NULL;
      NbRobotState st;
      double T[16], R[9], q[4];
      float f[8];
      NbSample s;
      NbPose6 pose;

      nb_test_sleep_until (t0, frame / RATE_HZ);
      if (!nb_http_robot_state (p->robot, &st, &error))
        g_error ("player: %s", error->message);
      nb_sim_arm_true_pose (&p->truth, st.position, T);
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
          R[r * 3 + c] = T[r * 4 + c];
      nb_quat_from_matrix (R, q);
      f[0] = (float) T[3];
      f[1] = (float) T[7];
      f[2] = (float) T[11];
      f[3] = (float) q[1];
      f[4] = (float) q[2];
      f[5] = (float) q[3];
      f[6] = (float) q[0];
      f[7] = 0.00002f;
      b = nb_test_natnet_frame (frame, (st.stamp_us - real_t0) / 1e6, f);
      /* What the driver will make of the frame: its floats read back from
       * the bytes sent (the body's x, y, z, qx, qy, qz, qw after the
       * header, the frame number, two counts and the body's id). */
      {
        float g[7];

        memcpy (g, b->data + NB_TEST_NATNET_BODY_OFFSET, sizeof g);
        nb_sample_init (&s, "natnet");
        s.x_m = g[0];
        s.y_m = g[1];
        s.z_m = g[2];
        s.qx = g[3];
        s.qy = g[4];
        s.qz = g[5];
        s.qw = g[6];
      }
      nb_iso9283_sample_pose (&s, &pose);
      /* The served arm stamps its state (its wall clock, this machine's):
       * sent now, the frame shows the arm this long ago. */
      if (g_get_real_time () - st.stamp_us > (gint64) (MAX_LATENCY_S * G_USEC_PER_SEC))
        {
          p->late++;
          continue;
        }
      g_mutex_lock (&p->lock);
      if (p->played->len == 0 ||
          memcmp (&g_array_index (p->played, NbPose6, p->played->len - 1), &pose, sizeof pose))
        g_array_append_val (p->played, pose);
      p->frames++;
      g_mutex_unlock (&p->lock);
      nb_test_udp_send (&p->udp, b);
    }
  return NULL;
}

/* The attained poses of DIR/Pi.csv (written by --output). */
static GArray *
read_attained (const char *dir, guint i)
{
  g_autofree char *name = g_strdup_printf ("P%u.csv", i + 1);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GArray *a = g_array_new (FALSE, FALSE, sizeof (NbPose6));

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint k = 0; lines[k] != NULL; k++)
    {
      NbPose6 p;
      guint cycle;

      if (sscanf (lines[k], "%u,%lf,%lf,%lf,%lf,%lf,%lf", &cycle, &p.x_mm, &p.y_mm, &p.z_mm,
                  &p.a_deg, &p.b_deg, &p.c_deg) == 7)
        g_array_append_val (a, p);
    }
  return a;
}

static double
pose_distance (const NbPose6 *a, const NbPose6 *b)
{
  return fmax (fmax (fabs (a->x_mm - b->x_mm), fmax (fabs (a->y_mm - b->y_mm),
                                                     fabs (a->z_mm - b->z_mm))),
               fmax (fabs (remainder (a->a_deg - b->a_deg, 360.0)),
                     fmax (fabs (b->b_deg - a->b_deg), fabs (remainder (a->c_deg - b->c_deg, 360.0)))));
}

static void
test_natnet_udp (void)
{
  g_autofree char *robot_dir = g_build_filename (g_getenv ("NAVBENCH_SOURCE_ROOT"), "data",
                                                 "robots", "iiwa7", NULL);
  g_autofree char *out_dir = g_build_filename (tmp_dir, "natnet", NULL);
  g_autofree char *out = NULL;
  const char *url;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  NbTestServer server = nb_test_serve ("--time-scale", "0", NULL);
  NbArmModel model;
  Player p = { 0 };
  GThread *thread;
  JsonObject *run;
  JsonArray *poses;
  gint64 t0;
  guint matched = 0, next = 0;

  g_assert_true (nb_arm_model_load (robot_dir, &model, &error));
  g_assert_no_error (error);
  nb_sim_arm_init (&p.truth, &model, 1);
  nb_iso9283_sim_errors (&p.truth);
  p.robot = nb_http_robot_new (server.url, NULL, 30, &error);
  g_assert_no_error (error);
  nb_test_udp_open (&p.udp);
  url = p.udp.url;
  p.played = g_array_new (FALSE, FALSE, sizeof (NbPose6));
  g_mutex_init (&p.lock);
  thread = g_thread_new ("natnet-player", player, &p);

  t0 = g_get_monotonic_time ();
  out = nb_test_cli_run (NULL, 0, NULL, "campaign", "run", "--standard", "iso9283", "--robot",
                         server.url, "--instrument", "natnet", "--url", url, "--set",
                         "version=4.0", "--window", "0.05", "--guard", G_STRINGIFY (GUARD_S),
                         "--output", out_dir, "--json", NULL);
  g_test_message ("5 × 30 over NatNet/UDP: %.1f s, %u frames played, %u distinct poses, %u "
                  "dropped (older than %g s)", (g_get_monotonic_time () - t0) / 1e6, p.frames,
                  p.played->len, p.late, MAX_LATENCY_S);
  g_atomic_int_set (&p.stop, 1);
  g_thread_join (thread);

  run = nb_test_parse_object (parser, out);
  g_assert_cmpint (json_object_get_int_member (run, "goals"), ==, 180);
  g_assert_cmpstr (json_object_get_string_member (run, "instrument"), ==, "natnet");
  poses = json_object_get_array_member (run, "poses");
  g_assert_cmpuint (json_array_get_length (poses), ==, 5);
  {
    GArray *att[5];
    NbPose6 command[5];

    for (guint i = 0; i < 5; i++)
      {
        JsonObject *o = json_array_get_object_element (poses, i);

        att[i] = read_attained (out_dir, i);
        g_assert_cmpuint (att[i]->len, ==, 30);
        command[i] = (NbPose6) { json_object_get_double_member (o, "x_mm"),
                                 json_object_get_double_member (o, "y_mm"),
                                 json_object_get_double_member (o, "z_mm"),
                                 180, 0, 180 };   /* the run's default --orientation */
      }
    /* The measured goals in run order (P5, P4, P3, P2, P1 per cycle) are the
     * played rests in the same order: each one a pose the player sent. */
    for (guint c = 0; c < 30; c++)
      for (guint k = 1; k <= 5; k++)
        {
          guint i = k == 5 ? 0 : 5 - k;
          const NbPose6 *a = &g_array_index (att[i], NbPose6, c);
          gboolean found = FALSE;

          for (; next < p.played->len && !found; next++)
            if (pose_distance (a, &g_array_index (p.played, NbPose6, next)) < 1e-9)
              {
                /* The figures below from the played pose, not the stored one. */
                g_array_index (att[i], NbPose6, c) = g_array_index (p.played, NbPose6, next);
                found = TRUE;
              }
          if (!found)
            {
              double best = INFINITY;

              for (guint j = 0; j < p.played->len; j++)
                best = fmin (best, pose_distance (a, &g_array_index (p.played, NbPose6, j)));
              g_test_message ("the nearest played pose is %.3g mm/° off", best);
            }
          if (!found)
            g_error ("cycle %u P%u: (%.6f, %.6f, %.6f) was not played (in order)", c + 1, i + 1,
                     a->x_mm, a->y_mm, a->z_mm);
          matched++;
        }
    g_assert_cmpuint (matched, ==, 150);
    for (guint i = 0; i < 5; i++)
      {
        JsonObject *o = json_array_get_object_element (poses, i);
        NbIso9283Pose want;

        g_assert_true (nb_iso9283_pose (&command[i], (NbPose6 *) att[i]->data, att[i]->len,
                                        &want, &error));
        g_assert_no_error (error);
        g_test_message ("P%u: AP %.4f mm, RP %.4f mm, AP_a %.5f°", i + 1, want.ap_mm, want.rp_mm,
                        want.ap_abc_deg[0]);
        nb_assert_abs (json_object_get_double_member (o, "ap_mm"), want.ap_mm, 1e-9,
                       "AP = from the played poses");
        nb_assert_abs (json_object_get_double_member (o, "rp_mm"), want.rp_mm, 1e-9,
                       "RP = from the played poses");
        nb_assert_abs (json_object_get_double_member (o, "ap_a_deg"), want.ap_abc_deg[0], 1e-9,
                       "AP_a = from the played poses");
        nb_assert_abs (json_object_get_double_member (o, "rp_c_deg"), want.rp_abc_deg[2], 1e-9,
                       "RP_c = from the played poses");
        /* The served arm's joint noise (2e-5 rad) shows as repeatability. */
        g_assert_cmpfloat (want.rp_mm, >, 0.005);
        g_assert_cmpfloat (want.rp_mm, <, 0.15);
        g_array_unref (att[i]);
      }
  }

  /* No instrument at the URL: no pose in the window, an error naming it. */
  {
    g_autofree char *err = NULL, *o2 = NULL;

    o2 = nb_test_cli_run (NULL, 1, &err, "campaign", "run", "--standard", "iso9283", "--robot",
                          server.url, "--instrument", "natnet", "--url", url, "--cycles", "2",
                          NULL);
    g_assert_cmpstr (o2, ==, "");
    g_test_message ("no stream: %s", err);
    g_assert_nonnull (strstr (err, "(P5): measuring goal 2: the instrument (udp://"));
    g_assert_nonnull (strstr (err, url));
    g_free (err);
    err = NULL;
    g_free (o2);
    o2 = nb_test_cli_run (NULL, 2, &err, "campaign", "run", "--standard", "iso9283",
                          "--instrument", "natnet", "--url", url, NULL);
    g_assert_cmpstr (o2, ==, "");
    g_assert_nonnull (strstr (err, "--robot http"));
  }
  nb_test_server_stop (&server);
  nb_http_robot_free (p.robot);
  nb_test_udp_clear (&p.udp);
  g_array_unref (p.played);
  g_mutex_clear (&p.lock);
  nb_sim_arm_clear (&p.truth);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = nb_test_make_dir ();
  g_test_add_func ("/iso9283-live/natnet-udp-5x30", test_natnet_udp);
  status = g_test_run ();
  nb_test_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
