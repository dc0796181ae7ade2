#include "nb-angle.h"

#include <math.h>

double
nb_angle_recast_deg (double angle_deg)
{
  /* fmod is exact, so a heading that is already in range comes back
   * bit-for-bit, and 540° lands on exactly 180°. */
  double r = fmod (angle_deg, 360.0);

  if (r > 180.0)
    r -= 360.0;
  else if (r <= -180.0)
    r += 360.0;
  return r;
}
