/* nb-test-nmea-fix.h — a GNSS receiver's view of a point of the test area,
 * as the live tests play it: the test-area frame's x east, y north of an
 * origin (NB_TEST_ORIGIN_*; the runner's device gets
 * `origin=NB_TEST_ORIGIN_TEXT`), heading θ counter-clockwise from +x; one
 * fix is GGA (RTK fixed, 8 decimals of minutes ≈ 0.02 mm) and HDT (true
 * heading, clockwise from north, as receivers give it). */
#pragma once

#include <glib.h>
#include <math.h>

#include "nb-geodesy.h"

#define NB_TEST_ORIGIN_LAT 55.75
#define NB_TEST_ORIGIN_LON 37.62
#define NB_TEST_ORIGIN_H 150.0
#define NB_TEST_ORIGIN_TEXT "55.75,37.62,150"

static inline char *
nb_test_nmea_checksummed (const char *body)
{
  guint8 sum = 0;

  for (const char *p = body; *p; p++)
    sum ^= (guint8) *p;
  return g_strdup_printf ("$%s*%02X\r\n", body, sum);
}

/* Latitude and longitude of a point east, north of the origin: the
 * driver's own plane inverted by Newton steps (to far below 1e-8 minute). */
static inline void
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

/* One fix at t (s, the GGA's time of day from 12:00): HDT then GGA. */
static inline char *
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
