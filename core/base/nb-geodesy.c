/* nb-geodesy.c — WGS-84 conversions (see nb-geodesy.h) */
#include "nb-geodesy.h"

#include <math.h>

#define DEG (G_PI / 180.0)

void
nb_geodesy_to_ecef (double lat_deg, double lon_deg, double h_m, double ecef[3])
{
  const double e2 = NB_WGS84_F * (2.0 - NB_WGS84_F);
  double sl = sin (lat_deg * DEG), cl = cos (lat_deg * DEG);
  double n = NB_WGS84_A / sqrt (1.0 - e2 * sl * sl);   /* prime vertical radius */

  ecef[0] = (n + h_m) * cl * cos (lon_deg * DEG);
  ecef[1] = (n + h_m) * cl * sin (lon_deg * DEG);
  ecef[2] = (n * (1.0 - e2) + h_m) * sl;
}

void
nb_geodesy_from_ecef (const double ecef[3], double *lat_deg, double *lon_deg, double *h_m)
{
  /* Heikkinen's closed form (Zhu 1994), exact to well below a micrometre
   * near the Earth's surface. */
  const double a = NB_WGS84_A, f = NB_WGS84_F;
  const double b = a * (1.0 - f), e2 = f * (2.0 - f), ep2 = (a * a - b * b) / (b * b);
  double x = ecef[0], y = ecef[1], z = ecef[2];
  double p = hypot (x, y);
  double F = 54.0 * b * b * z * z;
  double G = p * p + (1.0 - e2) * z * z - e2 * (a * a - b * b);
  double c = e2 * e2 * F * p * p / (G * G * G);
  double s = cbrt (1.0 + c + sqrt (c * c + 2.0 * c));
  double P = F / (3.0 * (s + 1.0 / s + 1.0) * (s + 1.0 / s + 1.0) * G * G);
  double Q = sqrt (1.0 + 2.0 * e2 * e2 * P);
  double r0 = -(P * e2 * p) / (1.0 + Q)
              + sqrt (0.5 * a * a * (1.0 + 1.0 / Q) - P * (1.0 - e2) * z * z / (Q * (1.0 + Q))
                      - 0.5 * P * p * p);
  double U = hypot (p - e2 * r0, z);
  double V = sqrt ((p - e2 * r0) * (p - e2 * r0) + (1.0 - e2) * z * z);
  double z0 = b * b * z / (a * V);

  *h_m = U * (1.0 - b * b / (a * V));
  *lat_deg = atan ((z + ep2 * z0) / p) / DEG;
  *lon_deg = atan2 (y, x) / DEG;
}

void
nb_enu_frame_init (NbEnuFrame *frame, double lat_deg, double lon_deg, double h_m)
{
  double o[3];
  double sl = sin (lat_deg * DEG), cl = cos (lat_deg * DEG);
  double so = sin (lon_deg * DEG), co = cos (lon_deg * DEG);

  frame->lat_deg = lat_deg;
  frame->lon_deg = lon_deg;
  frame->h_m = h_m;
  nb_geodesy_to_ecef (lat_deg, lon_deg, h_m, o);
  frame->x0 = o[0];
  frame->y0 = o[1];
  frame->z0 = o[2];
  /* Rows: east, north, up unit vectors at the origin, in ECEF. */
  frame->r[0][0] = -so;      frame->r[0][1] = co;       frame->r[0][2] = 0.0;
  frame->r[1][0] = -sl * co; frame->r[1][1] = -sl * so; frame->r[1][2] = cl;
  frame->r[2][0] = cl * co;  frame->r[2][1] = cl * so;  frame->r[2][2] = sl;
}

void
nb_enu_from_geodetic (const NbEnuFrame *frame, double lat_deg, double lon_deg, double h_m,
                      double enu[3])
{
  double p[3], d[3];

  nb_geodesy_to_ecef (lat_deg, lon_deg, h_m, p);
  d[0] = p[0] - frame->x0;
  d[1] = p[1] - frame->y0;
  d[2] = p[2] - frame->z0;
  for (int i = 0; i < 3; i++)
    enu[i] = frame->r[i][0] * d[0] + frame->r[i][1] * d[1] + frame->r[i][2] * d[2];
}
