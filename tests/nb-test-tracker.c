/* A tracker on a served arm (nb-test-tracker.h). */
#include "nb-test-tracker.h"

#include "nb-iso9283-run.h"
#include "nb-traj.h"

#include <math.h>
#include <string.h>

static gpointer
player (gpointer data)
{
  NbTestTracker *p = data;
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

      nb_test_sleep_until (t0, frame / NB_TEST_TRACKER_HZ);
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
      if (g_get_real_time () - st.stamp_us > (gint64) (p->max_latency_s * G_USEC_PER_SEC))
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

void
nb_test_tracker_start (NbTestTracker *t, const NbArmModel *model, const char *url,
                       double load_kg, double max_latency_s)
{
  g_autoptr (GError) error = NULL;

  memset (t, 0, sizeof *t);
  nb_iso9283_sim_arm_init (&t->truth, model, 1, NULL);
  t->truth.payload_kg = load_kg;
  t->max_latency_s = max_latency_s;
  t->robot = nb_http_robot_new (url, NULL, 30, &error);
  g_assert_no_error (error);
  nb_test_udp_open (&t->udp);
  t->played = g_array_new (FALSE, FALSE, sizeof (NbPose6));
  g_mutex_init (&t->lock);
  t->thread = g_thread_new ("natnet-player", player, t);
}

void
nb_test_tracker_stop (NbTestTracker *t)
{
  if (t->thread == NULL)
    return;
  g_atomic_int_set (&t->stop, 1);
  g_thread_join (g_steal_pointer (&t->thread));
}

void
nb_test_tracker_clear (NbTestTracker *t)
{
  nb_test_tracker_stop (t);
  nb_http_robot_free (t->robot);
  nb_test_udp_clear (&t->udp);
  g_array_unref (t->played);
  g_mutex_clear (&t->lock);
  nb_sim_arm_clear (&t->truth);
}

gboolean
nb_test_tracker_played (NbTestTracker *t, const double x[6])
{
  gboolean found = FALSE;

  g_mutex_lock (&t->lock);
  for (guint j = 0; j < t->played->len && !found; j++)
    {
      const NbPose6 *q = &g_array_index (t->played, NbPose6, j);
      const double v[6] = { q->x_mm, q->y_mm, q->z_mm, q->a_deg, q->b_deg, q->c_deg };

      found = TRUE;
      for (guint k = 0; k < 6; k++)
        found = found && fabs (x[k] - v[k]) < 1e-9;
    }
  g_mutex_unlock (&t->lock);
  return found;
}
