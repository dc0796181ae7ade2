/* The natnet and geocom drivers: their captures (written from the protocol
 * documents) decode to the values the capture generator put in; hostile
 * packets and lines are errors, never crashes; NatNet arrives over
 * loopback UDP from a test sender (unicast and multicast); a fake GeoCOM
 * station over TCP (serial-over-TCP) answers requests, stays silent once
 * (a timeout note, then the driver carries on) and reports lock states. */
#include "nb-test.h"

#include "geocom-protocol.h"
#include "natnet-protocol.h"
#include "nb-device.h"
#include "nb-error.h"
#include "nb-test-player.h"

#include <gio/gio.h>
#include <string.h>

typedef struct {
  GArray *samples;
  GPtrArray *notes;
} Out;

static void
on_sample (const NbSample *s, gpointer user_data)
{
  g_array_append_val (((Out *) user_data)->samples, *s);
}

static void
on_note (const char *m, gpointer user_data)
{
  g_ptr_array_add (((Out *) user_data)->notes, g_strdup (m));
}

static Out
run_driver (const char *name, const guint8 *data, gsize len, gsize chunk, const char *key,
            const char *value)
{
  const NbDriver *driver = nb_driver_find (name);
  Out out = { g_array_new (FALSE, FALSE, sizeof (NbSample)),
              g_ptr_array_new_with_free_func (g_free) };
  NbSink sink = { on_sample, on_note, &out };
  gpointer ctx = driver->open (NULL);

  if (key != NULL)
    g_assert_true (driver->configure (ctx, key, value, NULL));
  g_assert_true (driver->start (ctx, NULL));
  for (gsize off = 0; off < len; off += chunk)
    driver->feed (ctx, data + off, MIN (chunk, len - off), &sink);
  driver->close (ctx);
  return out;
}

static void
out_clear (Out *o)
{
  g_array_unref (o->samples);
  g_ptr_array_unref (o->notes);
}

/* ------------------------------------------------------------ natnet -- */

/* The values make-natnet-capture.py writes (float32 on the wire). */
static void
check_natnet_frames (const Out *o, guint first_frame)
{
  for (guint i = 0; i < o->samples->len; i++)
    {
      const NbSample *s = &g_array_index (o->samples, NbSample, i);
      guint k = first_frame + i / 2;
      double a = 10.0 * k * G_PI / 180.0;

      nb_assert_abs (s->device_time_s, 100.0 + k / 120.0, 1e-12, "timestamp");
      g_assert_true (s->has_orientation);
      if (i % 2 == 0)
        {
          g_assert_cmpint (s->target_id, ==, 1);
          nb_assert_abs (s->x_m, 0.1 * k, 1e-7, "body 1 x");
          nb_assert_abs (s->y_m, 0.2, 1e-7, "body 1 y");
          nb_assert_abs (s->z_m, 0.3, 1e-7, "body 1 z");
          nb_assert_abs (s->qz, sin (a / 2), 1e-7, "body 1 qz");
          nb_assert_abs (s->qw, cos (a / 2), 1e-7, "body 1 qw");
          nb_assert_abs (s->rms_m, 0.0001 * (k + 1), 1e-9, "body 1 error");
          g_assert_cmpint (s->tracking, ==, NB_TRACKING_OK);
        }
      else
        {
          g_assert_cmpint (s->target_id, ==, 7);
          nb_assert_abs (s->x_m, -1.0, 0, "body 7 x");
          nb_assert_abs (s->y_m, -2.0, 0, "body 7 y");
          g_assert_cmpint (s->tracking, ==, k == 3 ? NB_TRACKING_LOST : NB_TRACKING_OK);
        }
    }
}

static void
test_natnet_captures (void)
{
  const char *const names[] = { "natnet-v3.1.cap", "natnet-v4.1.cap" };

  for (guint v = 0; v < G_N_ELEMENTS (names); v++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "captures", "natnet", names[v],
                                                     NULL);
      g_autofree char *data = NULL;
      gsize len;
      Out whole, bytes, wrong;

      g_assert_true (g_file_get_contents (path, &data, &len, NULL));
      whole = run_driver ("natnet", (guint8 *) data, len, len, NULL, NULL);
      g_assert_cmpuint (whole.samples->len, ==, 12);
      g_assert_cmpuint (whole.notes->len, ==, 0);
      check_natnet_frames (&whole, 0);
      /* Cut anywhere (a stream): the same. */
      bytes = run_driver ("natnet", (guint8 *) data, len, 3, NULL, NULL);
      g_assert_cmpuint (bytes.samples->len, ==, 12);
      check_natnet_frames (&bytes, 0);
      /* Only body 7. */
      wrong = run_driver ("natnet", (guint8 *) data, len, len, "body", "7");
      g_assert_cmpuint (wrong.samples->len, ==, 6);
      out_clear (&whole);
      out_clear (&bytes);
      out_clear (&wrong);
    }
}

/* What nb_natnet_write_frame writes (the simulated tracker of serve
 * --tracker) is read back by the parser in every version, through the
 * driver as a datagram, and in 4.0 is byte for byte the frame the live
 * tests' players write by hand (nb-test-player.c). */
static void
test_natnet_write (void)
{
  const NbNatNetBody bodies[2] = {
    { 1, 0.612345, -0.0123, 0.4501, 0.70710678, 0.0, -0.70710678, 1e-9, 0.000123, TRUE },
    { 7, -1.5, 2.25, 3.125, 0, 0, 0, 1, NAN, FALSE },
  };
  const int versions[4][2] = { { 3, 0 }, { 3, 1 }, { 4, 0 }, { 4, 1 } };

  for (guint v = 0; v < G_N_ELEMENTS (versions); v++)
    {
      g_autoptr (GByteArray) b = g_byte_array_new ();
      g_autoptr (GError) error = NULL;
      g_autofree char *version = g_strdup_printf ("%d.%d", versions[v][0], versions[v][1]);
      NbNatNetFrame f;
      Out o;

      nb_natnet_write_frame (b, versions[v][0], versions[v][1], 123456, bodies, 2, 4321.0625);
      g_assert_true (nb_natnet_parse (b->data, b->len, versions[v][0], versions[v][1], &f, &error));
      g_assert_no_error (error);
      g_assert_true (f.is_frame);
      g_assert_cmpint (f.frame_number, ==, 123456);
      g_assert_cmpfloat (f.timestamp_s, ==, 4321.0625);
      g_assert_cmpuint (f.n_bodies, ==, 2);
      for (guint i = 0; i < 2; i++)
        {
          g_assert_cmpint (f.bodies[i].id, ==, bodies[i].id);
          g_assert_cmpfloat (f.bodies[i].x, ==, (float) bodies[i].x);
          g_assert_cmpfloat (f.bodies[i].y, ==, (float) bodies[i].y);
          g_assert_cmpfloat (f.bodies[i].z, ==, (float) bodies[i].z);
          g_assert_cmpfloat (f.bodies[i].qx, ==, (float) bodies[i].qx);
          g_assert_cmpfloat (f.bodies[i].qz, ==, (float) bodies[i].qz);
          g_assert_cmpfloat (f.bodies[i].qw, ==, (float) bodies[i].qw);
          g_assert_cmpint (f.bodies[i].tracking_valid, ==, bodies[i].tracking_valid);
        }
      /* The driver: one sample a body, the frame's timestamp as device time. */
      o = run_driver ("natnet", b->data, b->len, b->len, "version", version);
      g_assert_cmpuint (o.samples->len, ==, 2);
      g_assert_cmpuint (o.notes->len, ==, 0);
      nb_assert_abs (g_array_index (o.samples, NbSample, 0).x_m, 0.612345, 1e-7, "x");
      g_assert_cmpfloat (g_array_index (o.samples, NbSample, 0).device_time_s, ==, 4321.0625);
      g_assert_cmpint (g_array_index (o.samples, NbSample, 1).tracking, ==, NB_TRACKING_LOST);
      out_clear (&o);
      if (versions[v][0] == 4 && versions[v][1] == 0)
        {
          const float body[8] = { 0.612345f, -0.0123f, 0.4501f, 0.70710678f, 0.0f, -0.70710678f,
                                  1e-9f, 0.000123f };
          g_autoptr (GByteArray) one = g_byte_array_new ();
          g_autoptr (GByteArray) hand = nb_test_natnet_frame (123456, 4321.0625, body);

          nb_natnet_write_frame (one, 4, 0, 123456, bodies, 1, 4321.0625);
          g_assert_cmpuint (one->len, ==, hand->len);
          g_assert_cmpmem (one->data, one->len, hand->data, hand->len);
        }
    }
}

/* A 3.1 frame parsed as 4.1 (and the reverse) is an error, not garbage. */
static void
test_natnet_errors (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "captures", "natnet",
                                                 "natnet-v3.1.cap", NULL);
  g_autofree char *data = NULL;
  gsize len;
  const guint8 *pkt;
  gsize pkt_len;
  NbNatNetFrame f;
  GError *error = NULL;
  int major, minor;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  /* The first frame: after the header lines and the 8-byte model message. */
  pkt = (const guint8 *) strstr (data, "make-natnet-capture.py\n") + 23 + 8;
  pkt_len = 4 + (gsize) (pkt[2] | pkt[3] << 8);
  g_assert_cmpint (pkt[0], ==, 7);
  g_assert_true (nb_natnet_parse (pkt, pkt_len, 3, 1, &f, &error));
  g_assert_no_error (error);
  g_assert_true (f.is_frame);
  g_assert_cmpint (f.frame_number, ==, 1000);
  g_assert_cmpuint (f.n_bodies, ==, 2);
  nb_assert_abs (f.timestamp_s, 100.0, 0, "timestamp");

  g_assert_false (nb_natnet_parse (pkt, pkt_len, 4, 1, &f, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);

  /* Every truncation is an error naming a section; none crashes. */
  for (gsize n = 0; n < pkt_len; n++)
    {
      g_autofree guint8 *copy = g_memdup2 (pkt, n);

      if (n >= 4)
        {
          copy[2] = (guint8) ((n - 4) & 0xff);
          copy[3] = (guint8) ((n - 4) >> 8);
        }
      g_assert_false (nb_natnet_parse (copy, n, 3, 1, &f, &error));
      g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
      g_assert_nonnull (strstr (error->message, "NatNet"));
      g_clear_error (&error);
    }
  /* A size field that disagrees with the datagram. */
  {
    g_autofree guint8 *copy = g_memdup2 (pkt, pkt_len);

    copy[2] ^= 1;
    g_assert_false (nb_natnet_parse (copy, pkt_len, 3, 1, &f, &error));
    g_assert_nonnull (strstr (error->message, "payload bytes"));
    g_clear_error (&error);
  }
  g_assert_true (nb_natnet_parse_version ("4.1", &major, &minor, NULL));
  g_assert_cmpint (major, ==, 4);
  g_assert_cmpint (minor, ==, 1);
  g_assert_false (nb_natnet_parse_version ("2.9", &major, &minor, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
}

/* Builds a 4.0 frame with one body, as a test sender would (little-endian
 * by hand, independent of the parser). */
static GByteArray *
natnet_packet (int frame, int id, float x, float y, float z, gboolean valid, double t)
{
  GByteArray *b = g_byte_array_new ();
  guint8 zero4[4] = { 0 };
  float f[8] = { x, y, z, 0, 0, 0, 1, 0.0005f };
  gint32 v;
  guint16 params = valid ? 1 : 0, size;

  g_byte_array_append (b, (guint8 *) "\x07\x00\x00\x00", 4);
  v = GINT32_TO_LE (frame);
  g_byte_array_append (b, (guint8 *) &v, 4);
  g_byte_array_append (b, zero4, 4);                   /* marker sets */
  g_byte_array_append (b, zero4, 4);                   /* other markers */
  v = GINT32_TO_LE (1);
  g_byte_array_append (b, (guint8 *) &v, 4);           /* one body */
  v = GINT32_TO_LE (id);
  g_byte_array_append (b, (guint8 *) &v, 4);
  g_byte_array_append (b, (guint8 *) f, sizeof f);     /* x86: already little-endian */
  params = GUINT16_TO_LE (params);
  g_byte_array_append (b, (guint8 *) &params, 2);
  for (int i = 0; i < 4; i++)
    g_byte_array_append (b, zero4, 4);                 /* skeletons, labeled, plates, devices */
  g_byte_array_append (b, zero4, 4);                   /* timecode */
  g_byte_array_append (b, zero4, 4);
  g_byte_array_append (b, (guint8 *) &t, 8);
  for (int i = 0; i < 6; i++)
    g_byte_array_append (b, zero4, 4);                 /* high-resolution stamps */
  g_byte_array_append (b, zero4, 2);                   /* params */
  g_byte_array_append (b, zero4, 4);                   /* end of data */
  size = GUINT16_TO_LE ((guint16) (b->len - 4));
  memcpy (b->data + 2, &size, 2);
  return b;
}

static gboolean
udp_natnet (const char *group)
{
  g_autoptr (GSocket) probe = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
                                            G_SOCKET_PROTOCOL_UDP, NULL);
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any = g_inet_socket_address_new (lo, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (NbDevice) d = NULL;
  g_autoptr (GSocket) tx = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
                                         G_SOCKET_PROTOCOL_UDP, NULL);
  g_autoptr (GInetAddress) to = g_inet_address_new_from_string (group);
  g_autoptr (GSocketAddress) dest = NULL;
  g_autofree char *url = NULL;
  guint16 port;
  guint samples = 0, connected = 0, lost_tracking = 0;
  double deadline;

  g_assert_true (g_socket_bind (probe, any, FALSE, NULL));
  bound = g_socket_get_local_address (probe, NULL);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (probe, NULL);
  url = g_strdup_printf ("udp://%s:%u", group, port);
  dest = g_inet_socket_address_new (to, port);
  d = nb_device_new ("natnet", &error);
  g_assert_true (nb_device_configure (d, "url", url, &error));
  g_assert_true (nb_device_configure (d, "version", "4.0", &error));
  g_assert_true (nb_device_start (d, &error));
  for (deadline = nb_device_now () + 5; connected == 0 && nb_device_now () < deadline;)
    {
      NbEvent e;

      if (nb_device_next (d, 10000, &e))
        {
          g_assert_cmpint (e.kind, !=, NB_EVENT_ERROR);
          connected += e.kind == NB_EVENT_CONNECTED;
          nb_event_clear (&e);
        }
    }
  g_assert_cmpuint (connected, ==, 1);
  for (int k = 0; k < 20; k++)
    {
      g_autoptr (GByteArray) p = natnet_packet (k, 3, 0.001f * k, 2.0f, 0.25f, k != 10,
                                                50.0 + k * 0.01);

      if (g_socket_send_to (tx, dest, (char *) p->data, p->len, NULL, &error) < 0)
        {
          g_test_skip_printf ("cannot send to %s here: %s", group, error->message);
          return FALSE;
        }
      g_usleep (2000);
    }
  for (deadline = nb_device_now () + 3; samples < 20 && nb_device_now () < deadline;)
    {
      NbEvent e;

      if (!nb_device_next (d, 10000, &e))
        continue;
      if (e.kind == NB_EVENT_SAMPLE)
        {
          g_assert_cmpint (e.sample.target_id, ==, 3);
          nb_assert_abs (e.sample.x_m, 0.001 * samples, 1e-7, "udp x");
          nb_assert_abs (e.sample.device_time_s, 50.0 + samples * 0.01, 1e-12, "udp t");
          lost_tracking += e.sample.tracking == NB_TRACKING_LOST;
          samples++;
        }
      g_assert_cmpint (e.kind, !=, NB_EVENT_NOTE);
      nb_event_clear (&e);
    }
  g_assert_cmpuint (samples, ==, 20);
  g_assert_cmpuint (lost_tracking, ==, 1);
  return TRUE;
}

static void
test_natnet_udp_unicast (void)
{
  udp_natnet ("127.0.0.1");
}

static void
test_natnet_udp_multicast (void)
{
  udp_natnet ("239.255.42.99");
}

/* ------------------------------------------------------------ geocom -- */

static void
test_geocom_parse (void)
{
  NbGeocomMessage m;
  GError *error = NULL;
  g_autofree char *req = nb_geocom_request (2116, "300,1");

  g_assert_cmpstr (req, ==, "%R1Q,2116:300,1\r\n");
  g_assert_true (nb_geocom_parse (req, strlen (req), &m, NULL));
  g_assert_true (m.is_request);
  g_assert_cmpint (m.rpc, ==, 2116);

  /* The manual's example reply to CSV_GetDateTime: byte values quoted. */
  g_assert_true (nb_geocom_parse ("%R1P,0,0:0,1996,'07','19','10','13','2f'\r\n", 41, &m, NULL));
  g_assert_false (m.is_request);
  g_assert_cmpint (m.rc, ==, 0);
  g_assert_cmpuint (m.n_params, ==, 6);
  nb_assert_abs (m.params[0], 1996, 0, "year");
  g_assert_true (isnan (m.params[1]));

  g_assert_true (nb_geocom_parse ("%R1P,0,17:1283,-1.5e-3,2", 24, &m, NULL));
  g_assert_cmpint (m.transaction, ==, 17);
  g_assert_cmpint (m.rc, ==, 1283);
  nb_assert_abs (m.params[0], -0.0015, 1e-18, "exponent");
  g_assert_true (nb_geocom_rc_usable (m.rc));

  g_assert_false (nb_geocom_parse ("$GPGGA,1", 8, &m, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  g_clear_error (&error);
  g_assert_false (nb_geocom_parse ("%R1P,0,0", 8, &m, &error));
  g_assert_nonnull (strstr (error->message, "without ':'"));
  g_clear_error (&error);
  g_assert_false (nb_geocom_parse ("%R1P,x:0", 8, &m, &error));
  g_clear_error (&error);
  g_assert_false (nb_geocom_parse ("%R1P,0,0:0,1.2.3", 16, &m, &error));
  g_assert_nonnull (strstr (error->message, "parameter 1"));
  g_clear_error (&error);

  g_assert_cmpstr (nb_geocom_rc_message (1292), ==,
                   "GRC_TMC_DIST_ERROR: distance measurement not done (no aim, etc.)");
  g_assert_cmpstr (nb_geocom_rc_message (8710), ==, "GRC_AUT_NO_TARGET: no target detected");
  g_assert_cmpstr (nb_geocom_rc_message (4242), ==, "unknown return code");
  g_assert_false (nb_geocom_rc_usable (1292));
}

static void
test_geocom_capture (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "captures", "geocom",
                                                 "ts30-tracking.log", NULL);
  g_autofree char *data = NULL;
  gsize len;
  Out o;
  const NbSample *s;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  o = run_driver ("geocom", (guint8 *) data, len, 5, NULL, NULL);
  g_assert_cmpuint (o.samples->len, ==, 5);
  s = &g_array_index (o.samples, NbSample, 0);
  nb_assert_abs (s->x_m, 1001.2345, 0, "E");
  nb_assert_abs (s->y_m, 2002.3456, 0, "N");
  nb_assert_abs (s->z_m, 100.0123, 0, "H");
  g_assert_cmpint (s->tracking, ==, NB_TRACKING_OK);
  /* Lock lost: the coordinates come with tracking lost. */
  g_assert_cmpint (g_array_index (o.samples, NbSample, 2).tracking, ==, NB_TRACKING_LOST);
  /* Polar: Hz 45°, V 90°, 10 m → E = N = 10/√2, H = 0. */
  s = &g_array_index (o.samples, NbSample, 3);
  nb_assert_abs (s->x_m, 10 / sqrt (2), 1e-12, "polar E");
  nb_assert_abs (s->y_m, 10 / sqrt (2), 1e-12, "polar N");
  nb_assert_abs (s->z_m, 0.0, 1e-12, "polar H");
  /* Warnings and errors, in the manual's words, with the line. */
  g_assert_cmpuint (o.notes->len, ==, 6);
  g_assert_cmpstr (o.notes->pdata[0], ==, "line 14: RPC 2116: 1283 GRC_TMC_NO_FULL_CORRECTION: "
                   "measured without full correction (warning)");
  g_assert_nonnull (strstr (o.notes->pdata[1], "1292 GRC_TMC_DIST_ERROR"));
  g_assert_nonnull (strstr (o.notes->pdata[2], "8710 GRC_AUT_NO_TARGET"));
  g_assert_nonnull (strstr (o.notes->pdata[3], "3077 GRC_COM_TIMEDOUT"));
  g_assert_nonnull (strstr (o.notes->pdata[5], "without a request"));
  out_clear (&o);
}

/* A fake station: answers each request (lock state, coordinates moving
 * 1 mm per answer), but stays silent to the 3rd coordinate request. */
typedef struct {
  GSocketListener *listener;
  int answered;
} Station;

static gpointer
station (gpointer data)
{
  Station *st = data;
  g_autoptr (GSocketConnection) conn = g_socket_listener_accept (st->listener, NULL, NULL, NULL);
  g_autoptr (GDataInputStream) in = NULL;
  GOutputStream *out;
  int coords = 0;

  if (conn == NULL)
    return NULL;
  in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (conn)));
  out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line (in, NULL, NULL, NULL);
      g_autofree char *answer = NULL;

      if (line == NULL)
        break;
      if (g_str_has_prefix (line, "%R1Q,6021:"))
        answer = g_strdup ("%R1P,0,0:0,1\r\n");
      else if (g_str_has_prefix (line, "%R1Q,2116:300,1"))
        {
          if (++coords == 3)
            continue;   /* silence: the driver must time out */
          answer = g_strdup_printf ("%%R1P,0,0:0,%.4f,20.0000,1.5000\r\n", 10.0 + 0.001 * coords);
        }
      else
        answer = g_strdup ("%R1P,0,0:3081\r\n");
      if (!g_output_stream_write_all (out, answer, strlen (answer), NULL, NULL, NULL))
        break;
      st->answered++;
    }
  return NULL;
}

static void
test_geocom_live (void)
{
  Station st = { g_socket_listener_new (), 0 };
  g_autoptr (GError) error = NULL;
  guint16 port = g_socket_listener_add_any_inet_port (st.listener, NULL, &error);
  g_autofree char *url = g_strdup_printf ("tcp://127.0.0.1:%u", port);
  g_autoptr (NbDevice) d = nb_device_new ("geocom", &error);
  GThread *thread = g_thread_new ("station", station, &st);
  guint samples = 0, timeouts = 0;
  double last_x = 0.0, deadline;

  g_assert_true (nb_device_configure (d, "url", url, &error));
  g_assert_true (nb_device_configure (d, "timeout", "200", &error));
  g_assert_true (nb_device_configure (d, "loss-timeout", "5", &error));
  g_assert_true (nb_device_start (d, &error));
  for (deadline = nb_device_now () + 10; samples < 5 && nb_device_now () < deadline;)
    {
      NbEvent e;

      if (!nb_device_next (d, 10000, &e))
        continue;
      g_assert_cmpint (e.kind, !=, NB_EVENT_ERROR);
      if (e.kind == NB_EVENT_SAMPLE)
        {
          g_assert_cmpint (e.sample.tracking, ==, NB_TRACKING_OK);
          g_assert_cmpfloat (e.sample.x_m, >, last_x);
          last_x = e.sample.x_m;
          samples++;
        }
      if (e.kind == NB_EVENT_NOTE)
        {
          g_assert_nonnull (strstr (e.message, "no reply within 500 ms"));
          timeouts++;
        }
      nb_event_clear (&e);
    }
  nb_device_stop (d);
  g_socket_listener_close (st.listener);
  g_clear_pointer (&d, nb_device_free);
  g_thread_join (thread);
  g_object_unref (st.listener);
  g_assert_cmpuint (samples, ==, 5);
  g_assert_cmpuint (timeouts, ==, 1);
  /* The 3rd answer never came: 1, 2, 4, 5, 6 mm. */
  nb_assert_abs (last_x, 10.006, 1e-9, "last coordinate");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/natnet/captures", test_natnet_captures);
  g_test_add_func ("/natnet/errors", test_natnet_errors);
  g_test_add_func ("/natnet/write", test_natnet_write);
  g_test_add_func ("/natnet/udp-unicast", test_natnet_udp_unicast);
  g_test_add_func ("/natnet/udp-multicast", test_natnet_udp_multicast);
  g_test_add_func ("/geocom/parse", test_geocom_parse);
  g_test_add_func ("/geocom/capture", test_geocom_capture);
  g_test_add_func ("/geocom/live-tcp-timeout", test_geocom_live);
  return g_test_run ();
}
