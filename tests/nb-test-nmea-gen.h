/* nb-test-nmea-gen.h — a synthetic GGA + RMC log for the streaming tests and
 * benchmarks: a 10 Hz RTK rover wandering a few metres about (41.57 N,
 * 93.75 W), full-precision coordinates (8 decimals of minutes, as Trimble
 * and u-blox high-precision output gives), valid checksums, the date in
 * every RMC and the clock running across midnight (it starts at 23:59:00,
 * 2025-06-30).  Epoch i is two sentences, both a fix. */
#pragma once

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NB_TEST_NMEA_T0_S (23 * 3600 + 59 * 60)

static inline gsize
nb_test_nmea_sentence (char *out, const char *body)
{
  guint8 sum = 0;

  for (const char *p = body; *p; p++)
    sum ^= (guint8) *p;
  return (gsize) sprintf (out, "$%s*%02X\r\n", body, sum);
}

/* Epoch i's GGA and RMC into out (room for 256 bytes); returns the length. */
static inline gsize
nb_test_nmea_epoch (char *out, guint64 i)
{
  guint64 ds = (guint64) NB_TEST_NMEA_T0_S * 10 + i;   /* tenths of a second since day 0 */
  guint64 day = ds / 864000, tod = ds % 864000;
  int hh = (int) (tod / 36000), mm = (int) (tod / 600 % 60), ss = (int) (tod / 10 % 60);
  int cs = (int) (tod % 10) * 10;
  double lat = 41.57 + 2e-5 * sin ((double) i * 1e-3), lon = 93.75 + 2e-5 * cos ((double) i * 7e-4);
  double lat_min = (lat - 41.0) * 60.0, lon_min = (lon - 93.0) * 60.0;
  int dd = (int) (30 + day), mo = 6;
  char body[200];
  gsize n;

  if (dd > 30)
    {
      dd -= 30;
      mo = 7;
    }
  snprintf (body, sizeof body,
            "GNGGA,%02d%02d%02d.%02d,41%011.8f,N,093%011.8f,W,4,14,0.6,%.3f,M,-32.100,M,1.0,0000",
            hh, mm, ss, cs, lat_min, lon_min, 250.0 + 0.02 * sin ((double) i * 3e-3));
  n = nb_test_nmea_sentence (out, body);
  snprintf (body, sizeof body,
            "GNRMC,%02d%02d%02d.%02d,A,41%011.8f,N,093%011.8f,W,0.031,45.0,%02d%02d25,,,R,V",
            hh, mm, ss, cs, lat_min, lon_min, dd, mo);
  return n + nb_test_nmea_sentence (out + n, body);
}
