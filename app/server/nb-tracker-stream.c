/* nb-tracker-stream.c — the simulated tracker beside the served arm (see
 * nb-tracker-stream.h) */
#include "nb-tracker-stream.h"

#include "natnet-protocol.h"
#include "nb-error.h"
#include "nb-iso9283.h"
#include "nb-traj.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

struct NbTrackerStream {
  NbController *controller;
  /* The caller's true arm as the stream's thread sees it: a shallow copy
   * (its geometry read only) whose payload is the controller's at each
   * frame (POST /sim/payload). */
  NbSimArm view;
  NbTrackerStreamConfig config;
  GSocket *socket;
  GSocketAddress *to;
  GRand *rand;
  GThread *thread;
  gint quit;                    /* atomic */
  GMutex lock;                  /* over the counts */
  guint64 sent, skipped;
};

static double
gauss (GRand *r, double sigma)
{
  double u = g_rand_double_range (r, 1e-300, 1.0), v = g_rand_double (r);

  return sigma * sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

/* The tracker's view of the true arm at the joints q: position (m) and
 * orientation (a quaternion w, x, y, z), with its noise on x, y, z and on
 * the angles a, b, c about x, y, z (as the simulated trackers of
 * nb-sim-tracker and the rig's sampler add it). */
static void
true_body (NbTrackerStream *s, const double q[NB_ARM_JOINTS], NbNatNetBody *b)
{
  double T[16], R[9], abc[3], quat[4];

  nb_sim_arm_true_pose (&s->view, q, T);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      R[r * 3 + c] = T[r * 4 + c];
  nb_iso9283_matrix_to_abc (R, abc);
  for (int k = 0; k < 3; k++)
    abc[k] += gauss (s->rand, s->config.noise_deg);
  nb_iso9283_abc_to_matrix (abc, R);
  nb_quat_from_matrix (R, quat);
  *b = (NbNatNetBody) {
    .id = 1,
    .x = T[3] + gauss (s->rand, s->config.noise_mm) / 1000,
    .y = T[7] + gauss (s->rand, s->config.noise_mm) / 1000,
    .z = T[11] + gauss (s->rand, s->config.noise_mm) / 1000,
    .qw = quat[0], .qx = quat[1], .qy = quat[2], .qz = quat[3],
    .mean_error_m = s->config.noise_mm / 1000,
    .tracking_valid = TRUE,
  };
}

static gpointer
stream_thread (gpointer data)
{
  NbTrackerStream *s = data;
  g_autoptr (GByteArray) frame = g_byte_array_sized_new (256);
  double period_us = 1e6 / s->config.rate_hz;
  gint64 start_us = g_get_monotonic_time ();
  guint64 k = 0;

  while (!g_atomic_int_get (&s->quit))
    {
      gint64 due = start_us + (gint64) llround ((double) k * period_us);
      gint64 now = g_get_monotonic_time ();
      double q[NB_ARM_JOINTS];
      NbNatNetBody body;

      if (now < due)
        {
          g_usleep ((gulong) (due - now));
          continue;
        }
      /* Owed frames are sent each at its own instant; one too late for the
       * stream to be live is dropped, as a real tracker drops it. */
      if ((double) (now - due) > NB_TRACKER_STREAM_CATCH_UP_S * 1e6)
        {
          g_mutex_lock (&s->lock);
          s->skipped++;
          g_mutex_unlock (&s->lock);
          k++;
          continue;
        }
      nb_controller_joints_at (s->controller, due, q);
      s->view.payload_kg = nb_controller_payload_kg (s->controller);
      true_body (s, q, &body);
      g_byte_array_set_size (frame, 0);
      nb_natnet_write_frame (frame, s->config.natnet_major, s->config.natnet_minor,
                             (gint32) (k & G_MAXINT32), &body, 1, due / 1e6);
      /* Nobody listening is no error for a tracker: it streams regardless. */
      g_socket_send_to (s->socket, s->to, (const char *) frame->data, frame->len, NULL, NULL);
      g_mutex_lock (&s->lock);
      s->sent++;
      g_mutex_unlock (&s->lock);
      k++;
    }
  return NULL;
}

/* udp://HOST:PORT, HOST an address (the tracker is a lab instrument: no
 * name resolution on its thread). */
static GSocketAddress *
parse_url (const char *url, GError **error)
{
  g_autoptr (GUri) uri = url ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  g_autoptr (GInetAddress) addr = NULL;
  const char *host;

  if (uri == NULL || g_strcmp0 (g_uri_get_scheme (uri), "udp") != 0 ||
      (host = g_uri_get_host (uri)) == NULL || g_uri_get_port (uri) <= 0 ||
      (addr = g_inet_address_new_from_string (host)) == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "--tracker %s: expected udp://ADDRESS:PORT (e.g. udp://127.0.0.1:1511)",
                   url ? url : "");
      return NULL;
    }
  return g_inet_socket_address_new (addr, (guint16) g_uri_get_port (uri));
}

NbTrackerStream *
nb_tracker_stream_new (NbController *controller, const NbSimArm *truth,
                       const NbTrackerStreamConfig *config, GError **error)
{
  g_autoptr (GSocketAddress) to = NULL;
  g_autoptr (GError) local = NULL;
  GSocket *socket;
  NbTrackerStream *s;

  if (!(config->rate_hz > 0 && config->rate_hz <= 1e4) || !(config->noise_mm >= 0) ||
      !(config->noise_deg >= 0))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "the tracker's rate in (0, 10⁴] Hz, its "
                   "noise not negative");
      return NULL;
    }
  if ((to = parse_url (config->url, error)) == NULL)
    return NULL;
  socket = g_socket_new (g_socket_address_get_family (to), G_SOCKET_TYPE_DATAGRAM,
                         G_SOCKET_PROTOCOL_UDP, &local);
  if (socket == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--tracker %s: %s", config->url,
                   local->message);
      return NULL;
    }
  s = g_new0 (NbTrackerStream, 1);
  s->controller = controller;
  s->view = *truth;
  s->config = *config;
  s->config.url = NULL;
  s->socket = socket;
  s->to = g_steal_pointer (&to);
  s->rand = g_rand_new_with_seed (config->seed);
  g_mutex_init (&s->lock);
  s->thread = g_thread_new ("nb-tracker-stream", stream_thread, s);
  return s;
}

void
nb_tracker_stream_free (NbTrackerStream *s)
{
  if (s == NULL)
    return;
  g_atomic_int_set (&s->quit, 1);
  g_thread_join (s->thread);
  g_object_unref (s->socket);
  g_object_unref (s->to);
  g_rand_free (s->rand);
  g_mutex_clear (&s->lock);
  g_free (s);
}

void
nb_tracker_stream_counts (NbTrackerStream *s, guint64 *sent, guint64 *skipped)
{
  g_mutex_lock (&s->lock);
  *sent = s->sent;
  *skipped = s->skipped;
  g_mutex_unlock (&s->lock);
}
