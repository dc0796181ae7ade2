/* nb-test-player.h — what the loopback players of the live tests share
 * (test-runner-live, test-runner-http, test-iso9283-live): the NMEA fix and
 * the NatNet 4.0 frame they send, the UDP link to the device under test,
 * and the real-time clock they play on. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A GNSS receiver's view of a point of the test area: the test-area
 * frame's x east, y north of an origin (NB_TEST_ORIGIN_*; the device under
 * test gets `origin=NB_TEST_ORIGIN_TEXT`), heading θ counter-clockwise
 * from +x. */
#define NB_TEST_ORIGIN_LAT 55.75
#define NB_TEST_ORIGIN_LON 37.62
#define NB_TEST_ORIGIN_H 150.0
#define NB_TEST_ORIGIN_TEXT "55.75,37.62,150"

/* "$BODY*CS\r\n". */
char *nb_test_nmea_checksummed (const char *body);
/* Latitude and longitude of a point e_m east, n_m north of the origin: the
 * driver's own plane inverted by Newton steps (to far below 1e-8 minute). */
void  nb_test_geodetic_of (double e_m, double n_m, double *lat, double *lon);
/* One fix at t (s, the GGA's time of day from 12:00:00): HDT (true
 * heading, clockwise from north, as receivers give it) then GGA (RTK
 * fixed, 8 decimals of minutes ≈ 0.02 mm). */
char *nb_test_nmea_fix (double t, double x_mm, double y_mm, double th_deg);

/* A NatNet 4.0 frame of data with one rigid body (id 1, tracking valid),
 * little-endian by hand: frame number, body = x, y, z (m), qx, qy, qz, qw,
 * mean marker error (m), and the frame's timestamp t_s (s, Motive's clock). */
GByteArray *nb_test_natnet_frame (gint32 frame, double t_s, const float body[8]);
/* Where the body's x, y, z, qx, qy, qz, qw stand in such a frame. */
#define NB_TEST_NATNET_BODY_OFFSET 24

/* A sender to a free UDP port of 127.0.0.1, url "udp://127.0.0.1:PORT"
 * for the device to listen on. */
typedef struct {
  GSocket *socket;
  GSocketAddress *to;
  guint16 port;
  char *url;
} NbTestUdp;

void nb_test_udp_open  (NbTestUdp *udp);
void nb_test_udp_send  (NbTestUdp *udp, const GByteArray *datagram);
void nb_test_udp_clear (NbTestUdp *udp);

/* Sleeps until t_s after t0_us (g_get_monotonic_time); at once when past:
 * a player that fell behind catches up instead of drifting. */
void nb_test_sleep_until (gint64 t0_us, double t_s);

G_END_DECLS
