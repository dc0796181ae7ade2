/* What the loopback players of the live tests share (nb-test-player.h). */
#include "nb-test-player.h"

#include "nb-geodesy.h"

#include <math.h>
#include <string.h>

char *
nb_test_nmea_checksummed (const char *body)
{
  guint8 sum = 0;

  for (const char *p = body; *p; p++)
    sum ^= (guint8) *p;
  return g_strdup_printf ("$%s*%02X\r\n", body, sum);
}

void
nb_test_geodetic_of (double e_m, double n_m, double *lat, double *lon)
{
  NbEnuFrame f;

  nb_enu_frame_init (&f, NB_TEST_ORIGIN_LAT, NB_TEST_ORIGIN_LON, NB_TEST_ORIGIN_H);
  *lat = NB_TEST_ORIGIN_LAT + n_m / 111320.0;
  *lon = NB_TEST_ORIGIN_LON + e_m / (111320.0 * cos (NB_TEST_ORIGIN_LAT * G_PI / 180.0));
  for (int i = 0; i < 6; i++)
    {
      double enu[3];

      nb_enu_from_geodetic (&f, *lat, *lon, NB_TEST_ORIGIN_H, enu);
      *lat += (n_m - enu[1]) / 111320.0;
      *lon += (e_m - enu[0]) / (111320.0 * cos (*lat * G_PI / 180.0));
    }
}

char *
nb_test_nmea_fix (double t, double x_mm, double y_mm, double th_deg)
{
  double lat, lon, hdt = fmod (90.0 - th_deg + 360.0, 360.0);
  g_autofree char *gga = NULL, *hdt_s = NULL, *gga_s = NULL, *hdt_body = NULL;
  int sec = (int) floor (t);

  nb_test_geodetic_of (x_mm / 1000.0, y_mm / 1000.0, &lat, &lon);
  gga = g_strdup_printf ("GNGGA,1200%02d.%02d,%02d%011.8f,N,%03d%011.8f,E,4,18,0.5,%.3f,M,0.0,M,"
                         "1.0,0001", sec % 60, (int) lround ((t - sec) * 100) % 100, (int) lat,
                         (lat - (int) lat) * 60.0, (int) lon, (lon - (int) lon) * 60.0,
                         NB_TEST_ORIGIN_H);
  hdt_body = g_strdup_printf ("GNHDT,%.4f,T", hdt);
  hdt_s = nb_test_nmea_checksummed (hdt_body);
  gga_s = nb_test_nmea_checksummed (gga);
  return g_strconcat (hdt_s, gga_s, NULL);
}

GByteArray *
nb_test_natnet_frame (gint32 frame, double t_s, const float body[8])
{
  GByteArray *b = g_byte_array_new ();
  guint8 zero4[4] = { 0 };
  gint32 v;
  guint16 params = GUINT16_TO_LE (1), size;

  /* Message 7 (frame of data), its size filled in at the end. */
  g_byte_array_append (b, (guint8 *) "\x07\x00\x00\x00", 4);
  v = GINT32_TO_LE (frame);
  g_byte_array_append (b, (guint8 *) &v, 4);
  /* No marker sets, no unlabelled markers. */
  g_byte_array_append (b, zero4, 4);
  g_byte_array_append (b, zero4, 4);
  /* One rigid body, id 1: position, orientation, mean error, params (valid). */
  v = GINT32_TO_LE (1);
  g_byte_array_append (b, (guint8 *) &v, 4);
  v = GINT32_TO_LE (1);
  g_byte_array_append (b, (guint8 *) &v, 4);
  g_assert_cmpuint (b->len, ==, NB_TEST_NATNET_BODY_OFFSET);
  g_byte_array_append (b, (const guint8 *) body, 8 * sizeof (float));
  g_byte_array_append (b, (guint8 *) &params, 2);
  /* No skeletons, labelled markers, force plates, devices; timecode,
   * subframe. */
  for (int i = 0; i < 4; i++)
    g_byte_array_append (b, zero4, 4);
  g_byte_array_append (b, zero4, 4);
  g_byte_array_append (b, zero4, 4);
  g_byte_array_append (b, (guint8 *) &t_s, 8);
  /* Three high-resolution stamps, params, end-of-data tag. */
  for (int i = 0; i < 6; i++)
    g_byte_array_append (b, zero4, 4);
  g_byte_array_append (b, zero4, 2);
  g_byte_array_append (b, zero4, 4);
  size = GUINT16_TO_LE ((guint16) (b->len - 4));
  memcpy (b->data + 2, &size, 2);
  return b;
}

void
nb_test_udp_open (NbTestUdp *udp)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocket) probe = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
                                            G_SOCKET_PROTOCOL_UDP, &error);
  g_autoptr (GSocketAddress) any = g_inet_socket_address_new (lo, 0);
  g_autoptr (GSocketAddress) bound = NULL;

  /* A free port: bound, read, released for the device. */
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (probe, any, TRUE, &error));
  bound = g_socket_get_local_address (probe, &error);
  g_assert_no_error (error);
  udp->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (probe, NULL);
  udp->url = g_strdup_printf ("udp://127.0.0.1:%u", udp->port);
  udp->socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
                              G_SOCKET_PROTOCOL_UDP, &error);
  g_assert_no_error (error);
  udp->to = g_inet_socket_address_new (lo, udp->port);
}

void
nb_test_udp_send (NbTestUdp *udp, const GByteArray *datagram)
{
  /* Nobody listening yet (the device starts after the player) is no error:
   * the datagram is lost, as a tracker's would be. */
  g_socket_send_to (udp->socket, udp->to, (const char *) datagram->data, datagram->len, NULL,
                    NULL);
}

void
nb_test_udp_clear (NbTestUdp *udp)
{
  g_clear_object (&udp->socket);
  g_clear_object (&udp->to);
  g_clear_pointer (&udp->url, g_free);
}

void
nb_test_sleep_until (gint64 t0_us, double t_s)
{
  gint64 at = t0_us + (gint64) (t_s * G_USEC_PER_SEC), now = g_get_monotonic_time ();

  if (at > now)
    g_usleep ((gulong) (at - now));
}
