/* nb-sample.c — the measurement sample (see nb-sample.h) */
#include "nb-sample.h"

#include "nb-traj.h"

#include <math.h>

#include <math.h>
#include <string.h>

void
nb_sample_init (NbSample *sample, const char *source)
{
  memset (sample, 0, sizeof *sample);
  sample->t_s = NAN;
  sample->device_time_s = NAN;
  sample->x_m = sample->y_m = sample->z_m = NAN;
  sample->qw = 1.0;
  sample->heading_deg = NAN;
  sample->lat_deg = sample->lon_deg = sample->alt_m = NAN;
  sample->rms_m = NAN;
  sample->hdop = NAN;
  sample->satellites = -1;
  sample->target_id = -1;
  if (source != NULL)
    g_strlcpy (sample->source, source, sizeof sample->source);
}

const char *
nb_fix_type_name (NbFixType fix)
{
  static const char *const names[] = {
    "none", "gnss", "dgnss", "pps", "rtk-fixed", "rtk-float", "estimated", "manual",
    "simulated", "tracked",
  };

  return (guint) fix < G_N_ELEMENTS (names) ? names[fix] : "none";
}

const char *
nb_tracking_name (NbTracking tracking)
{
  switch (tracking)
    {
    case NB_TRACKING_OK: return "ok";
    case NB_TRACKING_LOST: return "lost";
    case NB_TRACKING_UNKNOWN: default: return "unknown";
    }
}

double
nb_sample_heading_deg (const NbSample *s)
{
  if (isfinite (s->heading_deg))
    return s->heading_deg;
  if (s->has_orientation)
    {
      const double q[4] = { s->qw, s->qx, s->qy, s->qz };

      return nb_quat_yaw (q) * 180.0 / G_PI;
    }
  return NAN;
}
