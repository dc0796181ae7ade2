/* Reference tests of the ISO 18646-2 metric engine (core/nb-metrics.c). */
#include "nb-angle.h"
#include "nb-error.h"
#include "nb-metrics.h"
#include "nb-test.h"

static void
test_recast (void)
{
  nb_assert_abs (nb_angle_recast_deg (0.0), 0.0, 0.0, "0");
  nb_assert_abs (nb_angle_recast_deg (180.0), 180.0, 0.0, "180 stays");
  nb_assert_abs (nb_angle_recast_deg (-180.0), 180.0, 0.0, "-180 → +180");
  nb_assert_abs (nb_angle_recast_deg (540.0), 180.0, 0.0, "540");
  nb_assert_abs (nb_angle_recast_deg (359.5), -0.5, 1e-12, "359.5");
  nb_assert_abs (nb_angle_recast_deg (-190.0), 170.0, 1e-12, "-190");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/angle/recast", test_recast);
  return g_test_run ();
}
