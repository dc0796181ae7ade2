/* nb-sample.h — one measurement of the robot's pose by an external instrument
 *
 * ISO 18646-2 5.3 and 8.2: the figures rest on the external measurement of
 * the attained pose.  Every instrument driver, live or replayed, produces
 * these; they are plain values (no pointers) so they can be queued, copied
 * between threads and stored in chunks.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What kind of solution a position is.  GNSS receivers report the first
 * eight (NMEA GGA quality 0–8); trackers report NB_FIX_TRACKED. */
typedef enum {
  NB_FIX_NONE = 0,      /* no position */
  NB_FIX_GNSS,          /* autonomous GNSS (GGA quality 1) */
  NB_FIX_DGNSS,         /* differential (quality 2) */
  NB_FIX_PPS,           /* PPS / precise (quality 3) */
  NB_FIX_RTK_FIXED,     /* RTK, integer ambiguities (quality 4) */
  NB_FIX_RTK_FLOAT,     /* RTK, float ambiguities (quality 5) */
  NB_FIX_ESTIMATED,     /* dead reckoning (quality 6) */
  NB_FIX_MANUAL,        /* manual input (quality 7) */
  NB_FIX_SIMULATED,     /* simulator (quality 8, and the sim driver) */
  NB_FIX_TRACKED,       /* a tracker's measurement (total station, mocap) */
} NbFixType;

typedef enum {
  NB_TRACKING_UNKNOWN = 0,
  NB_TRACKING_OK,       /* the instrument locks the target */
  NB_TRACKING_LOST,     /* the instrument says the target is not tracked */
} NbTracking;

typedef struct {
  /* One monotonic time base (seconds, g_get_monotonic_time()'s clock, or the
   * simulator's virtual clock), latency-corrected: the instant the pose was
   * true, not the instant the bytes arrived. */
  double t_s;
  /* The device's own time (s; NMEA: seconds since 1970 UTC when the date is
   * known, else seconds of the day), NAN when the device gives none. */
  double device_time_s;

  /* Position in the instrument's local frame, metres (NMEA: east, north, up
   * about the configured origin). */
  double x_m, y_m, z_m;
  /* Orientation as a unit quaternion, where the instrument gives one. */
  gboolean has_orientation;
  double qw, qx, qy, qz;
  /* Heading (yaw) in degrees where the instrument gives only that (NMEA
   * HDT/THS), NAN otherwise. */
  double heading_deg;

  /* Geodetic position where the instrument is GNSS (degrees, metres above
   * the ellipsoid where known, else above MSL). */
  gboolean has_geodetic;
  double lat_deg, lon_deg, alt_m;

  /* Quality. */
  NbFixType fix;
  NbTracking tracking;
  double rms_m;         /* position RMS / 1-sigma (GST, tracker residual); NAN unknown */
  double hdop;          /* NAN unknown */
  int satellites;       /* -1 unknown */

  /* Where it came from: the driver's name and the target's id (rigid body,
   * prism); a short tag such as the NMEA sentence ("GNGGA"). */
  char source[16];
  int target_id;
  char tag[8];
} NbSample;

/* A sample with everything unknown: NANs, no fix, target -1. */
void        nb_sample_init (NbSample *sample, const char *source);
/* The sample's heading in degrees (counter-clockwise from +x): its own, else
 * the yaw of its orientation (nb_quat_yaw), else NaN. */
double      nb_sample_heading_deg (const NbSample *sample);
const char *nb_fix_type_name (NbFixType fix);
const char *nb_tracking_name (NbTracking tracking);

G_END_DECLS
