/* test-setup — each clause's set-up as the runner lays it out (nb-setup.h)
 *
 * Reference values from the standard's figures and the project's decisions
 * (nb-course.h), for a robot 600 mm wide: LU = 1000 mm (4.5).  Clause 5: 5 LU
 * legs; 6: 16 placements, every 45° at the maximum then the minimum range,
 * the obstacle's face at the range; 7: P1 4.5 LU, PG 9 LU, behaviour 2
 * crossing from −y to +y and ending 2 LU across; 9: the passage robot width +
 * 200 mm wide, entrance 2 LU + w/2 ahead, 4 LU long, PG 8 LU; 10: the 7 LU
 * arena with P0 at (1, 1) LU and the column 1 LU across in its centre.
 */
#include "nb-campaign.h"
#include "nb-campaign-plan.h"
#include "nb-error.h"
#include "nb-setup.h"
#include "nb-test-tmp.h"
#include "nb-test.h"

#include <math.h>

static char *dir;

static NbCampaign *
campaign_600 (const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, name, NULL);
  NbCampaign *c = nb_campaign_create (path, name, &error);

  g_assert_no_error (error);
  g_assert_true (nb_campaign_set_field (c, "robot.width_mm", "600", &error));
  g_assert_true (nb_campaign_set_field (c, "robot.rated_load_kg", "20", &error));
  g_assert_no_error (error);
  return c;
}

static void
planned (NbCampaign *c, guint clause, const char *name, NbSetup *s)
{
  g_autoptr (GError) error = NULL;
  NbCampaignConfig config;

  gboolean ok = nb_setup_of_planned (c, clause, name, &config, s, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpuint (config.clause, ==, clause);
  g_assert_cmpstr (config.name, ==, name);
  nb_campaign_config_clear (&config);
  g_assert_cmpuint (s->clause, ==, clause);
  nb_assert_abs (s->lu_mm, 1000.0, 0, "LU of a 600 mm robot");
}

static void
test_placement_order (void)
{
  for (guint k = 0; k < NB_DETECTION_PLACEMENTS; k++)
    {
      double bearing;
      gboolean max;

      nb_detection_placement (k, &bearing, &max);
      nb_assert_abs (bearing, 45.0 * (k / 2), 0, "bearing");
      g_assert_cmpint (max, ==, k % 2 == 0);
    }
}

static void
test_route (void)
{
  g_autoptr (NbCampaign) c = campaign_600 ("route.nbc");
  NbSetup s;

  planned (c, 5, "rectangular-no-load", &s);
  g_assert_cmpint (s.kind, ==, NB_SETUP_ROUTE);
  g_assert_cmpuint (s.route.n_poses, ==, 5);
  /* Fig. 3: P0 → P1 → P2 → P3 → P0, counter-clockwise, 5 LU sides. */
  nb_assert_abs (s.route.poses[1].x_mm, 5000, 1e-9, "P1 x");
  nb_assert_abs (s.route.poses[1].y_mm, 0, 1e-9, "P1 y");
  nb_assert_abs (s.route.poses[2].x_mm, 5000, 1e-9, "P2 x");
  nb_assert_abs (s.route.poses[2].y_mm, 5000, 1e-9, "P2 y");
  nb_assert_abs (s.route.poses[3].x_mm, 0, 1e-9, "P3 x");
  nb_assert_abs (s.route.poses[3].y_mm, 5000, 1e-9, "P3 y");
  g_assert_cmpstr (s.route.poses[4].name, ==, "P0");
  planned (c, 8, "straight-no-load", &s);
  g_assert_cmpint (s.kind, ==, NB_SETUP_ROUTE);
  g_assert_cmpint (s.route.kind, ==, NB_ROUTE_STRAIGHT);
  nb_assert_abs (s.route.poses[s.route.n_poses - 1].x_mm, 5000, 1e-9, "8.3: P1 5 LU ahead");
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), NULL));
}

static void
test_placements (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (NbCampaign) c = campaign_600 ("detection.nbc");
  NbCampaignConfig stored;
  NbSetup s;

  planned (c, 6, "wooden-wall", &s);
  g_assert_cmpint (s.kind, ==, NB_SETUP_PLACEMENTS);
  g_assert_true (s.have_obstacle);
  g_assert_cmpstr (s.obstacle.name, ==, "wooden wall");
  /* Not declared yet: the simulated rig's ranges are drawn. */
  g_assert_false (s.ranges_declared);
  nb_assert_abs (s.max_range_mm, 4000, 0, "the simulator's maximum range");
  nb_assert_abs (s.min_range_mm, 300, 0, "the simulator's minimum range");
  g_assert_cmpuint (s.n_placements, ==, 16);
  /* The wall's face at the range: its centre 10 mm (half of 20) further. */
  nb_assert_abs (s.placements[0].centre_mm[0], 4010, 1e-9, "0°, max: x");
  nb_assert_abs (s.placements[0].centre_mm[1], 0, 1e-9, "0°, max: y");
  nb_assert_abs (s.placements[3].bearing_deg, 45, 0, "placement 4: 45°");
  g_assert_false (s.placements[3].max_range);
  nb_assert_abs (s.placements[3].centre_mm[0], 310 * G_SQRT2 / 2, 1e-9, "45°, min: x");
  nb_assert_abs (s.placements[3].centre_mm[1], 310 * G_SQRT2 / 2, 1e-9, "45°, min: y");
  nb_assert_abs (s.placements[12].bearing_deg, 270, 0, "placement 13: 270°");
  nb_assert_abs (s.placements[12].centre_mm[1], -4010, 1e-9, "270°, max: y");

  /* Once run, the configuration's stored parameters are the set-up. */
  nb_campaign_config_init (&stored);
  stored.clause = 6;
  stored.name = g_strdup ("wooden-wall");
  stored.obstacle = g_strdup ("wooden wall");
  stored.load_kg = 0;
  stored.parameters = g_strdup ("{\"min_range_mm\": 500, \"max_range_mm\": 3000}");
  g_assert_true (nb_campaign_add_config (c, &stored, &error));
  g_assert_no_error (error);
  nb_campaign_config_clear (&stored);
  planned (c, 6, "wooden-wall", &s);
  g_assert_true (s.ranges_declared);
  nb_assert_abs (s.placements[0].centre_mm[0], 3010, 1e-9, "declared maximum");
  nb_assert_abs (s.placements[1].centre_mm[0], 510, 1e-9, "declared minimum");
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), NULL));
}

static void
test_courses (void)
{
  g_autoptr (NbCampaign) c = campaign_600 ("courses.nbc");
  NbSetup s;

  planned (c, 7, "b2-large-cylinder", &s);
  g_assert_cmpint (s.kind, ==, NB_SETUP_COURSE);
  g_assert_cmpint (s.course.kind, ==, NB_COURSE_AVOIDANCE);
  g_assert_cmpuint (s.course.behaviour, ==, 2);
  g_assert_true (s.course.obstacle.round);
  nb_assert_abs (s.course.obstacle.across_mm, 200, 0, "the large cylinder upright");
  nb_assert_abs (s.course.p1[0], 4500, 1e-9, "P1 4.5 LU");
  nb_assert_abs (s.course.pg[0], 9000, 1e-9, "PG 9 LU");
  nb_assert_abs (s.course.obs_to[0], 4500, 1e-9, "P2 x");
  nb_assert_abs (s.course.obs_to[1], 2000, 1e-9, "P2 2 LU across");
  nb_assert_abs (s.course.obs_from[1], -2000, 1e-6, "drawn from 2 LU on the right");

  planned (c, 7, "b1-large-cylinder", &s);
  g_assert_false (s.course.obstacle.round);
  nb_assert_abs (s.course.obstacle.across_mm, 600, 0, "7.2 b1: lying, 600 mm across");
  nb_assert_abs (s.course.obs_from[0], 4500, 1e-9, "static at P1");

  planned (c, 9, "no-load", &s);
  g_assert_cmpint (s.course.kind, ==, NB_COURSE_PASSAGE);
  nb_assert_abs (s.course.passage_width_mm, 800, 1e-9, "w + 200 mm");
  nb_assert_abs (s.course.entrance_x_mm, 2300, 1e-9, "2 LU + w/2");
  nb_assert_abs (s.course.exit_x_mm, 6300, 1e-9, "4 LU long");
  nb_assert_abs (s.course.pg[0], 8000, 1e-9, "PG 8 LU");

  planned (c, 10, "arena", &s);
  g_assert_cmpint (s.kind, ==, NB_SETUP_ARENA);
  nb_assert_abs (s.corners_mm[0][0], -1000, 1e-9, "A1 x");
  nb_assert_abs (s.corners_mm[0][1], -1000, 1e-9, "A1 y");
  nb_assert_abs (s.corners_mm[2][0], 6000, 1e-9, "A3 x");
  nb_assert_abs (s.corners_mm[2][1], 6000, 1e-9, "A3 y");
  nb_assert_abs (s.column_centre_mm[0], 2500, 1e-9, "column x");
  nb_assert_abs (s.column_centre_mm[1], 2500, 1e-9, "column y");
  nb_assert_abs (s.column_diameter_mm, 1000, 0, "column 1 LU");
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), NULL));
}

static void
test_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, "nowidth.nbc", NULL);
  g_autoptr (NbCampaign) c = nb_campaign_create (path, "no width", &error);
  NbCampaignConfig config;
  NbSetup s;

  g_assert_false (nb_setup_of_planned (c, 5, "straight-no-load", &config, &s, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_INPUT);
  nb_campaign_config_clear (&config);
  g_clear_error (&error);
  g_assert_true (nb_campaign_set_field (c, "robot.width_mm", "600", &error));
  g_assert_false (nb_setup_of_planned (c, 5, "sideways", &config, &s, &error));
  g_assert_error (error, NB_ERROR, NB_ERROR_NOT_FOUND);
  nb_campaign_config_clear (&config);
  g_assert_true (nb_campaign_close (g_steal_pointer (&c), NULL));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  dir = nb_test_make_dir ();
  g_test_add_func ("/setup/placement-order", test_placement_order);
  g_test_add_func ("/setup/route", test_route);
  g_test_add_func ("/setup/placements", test_placements);
  g_test_add_func ("/setup/courses", test_courses);
  g_test_add_func ("/setup/errors", test_errors);
  status = g_test_run ();
  nb_test_remove_dir (dir);
  g_free (dir);
  return status;
}
