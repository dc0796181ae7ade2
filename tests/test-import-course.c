/* Clauses 7 and 9 imported with what a run measures of each trial
 * (docs/campaign.md: the optional columns clearance_mm, start_*,
 * attained_*): stored in the trial as a run stores it, and the protocol
 * prints it — the smallest clearance (7.1, 9.3), the start at P0 (7.3 a,
 * 9.3 a) and PG reached by the attained pose (7.3 c, 9.3 c).  Bad values
 * are errors naming FILE:LINE, exit 2, nothing on stdout. */
#include "nb-test.h"
#include "nb-test-cli.h"

#include <glib/gstdio.h>
#include <string.h>

static char *tmpdir;

static char *
write_csv (const char *name, const char *text)
{
  char *path = g_build_filename (tmpdir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* A campaign with clause 5 on the straight route (the PG tolerance of 7.3 c
 * and 9.3 c: Rp 3.99 mm about PG moved 2.68 mm along and −2.07 mm across,
 * Ro ±0.723° about 0.160°); robot 730 mm wide: LU 1000 mm, PG of clause 7
 * at (9000, 0), of clause 9 at (8000, 0) (2 LU, the passage's 4 LU, 2 LU). */
static char *
make_campaign (const char *name)
{
  const char *root = g_getenv ("NAVBENCH_SOURCE_ROOT");
  char *db = g_build_filename (tmpdir, name, NULL);

  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "new", "--db", db, "--name", "course",
                           "robot.width_mm=730", "robot.min_avoidance_distance_mm=100", NULL));
  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "import", "--db", db, "--clause", "5",
                           "--config", "straight", "--route", "straight", "--load-kg", "0",
                           "--input", "data/samples/pose-straight-noload.csv", "--command",
                           "5000,0,0", NULL));
  return db;
}

static void
test_columns (void)
{
  const char *root = g_getenv ("NAVBENCH_SOURCE_ROOT");
  g_autofree char *db = make_campaign ("columns.nbc");
  /* Trial 2 with the obstacle starts 80 mm from P0; trial 3 is recorded a
   * success but stops 17 mm beyond PG's tolerance; trial 1 keeps 140 mm,
   * trial 2 only 60 mm (less than the declared 100 mm). */
  g_autofree char *avoid = write_csv ("avoid.csv",
    "config,kind,trial,time_s,success,clearance_mm,start_x_mm,start_y_mm,start_theta_deg,"
    "attained_x_mm,attained_y_mm,attained_theta_deg\n"
    "w,baseline,1,9.3,1,,1.0,-2.0,0.5,9002.7,-2.1,0.2\n"
    "w,baseline,2,9.4,1,,0.0,0.0,,9002.0,-1.5,\n"
    "w,baseline,3,9.2,1,,,,,,,\n"
    "w,obstacle,1,12.1,1,140.5,2.0,1.0,0.1,9003.0,-2.5,0.1\n"
    "w,obstacle,2,12.6,1,60.25,80.0,0.0,0.0,9001.9,-1.9,0.3\n"
    "w,obstacle,3,12.3,1,210,0.0,-1.0,0.0,9020.0,0.0,0.1\n");
  g_autofree char *passage = write_csv ("passage.csv",
    "config,trial,time_s,success,clearance_mm,start_x_mm,start_y_mm,attained_x_mm,attained_y_mm\n"
    "p,1,8.1,1,95.5,0,0,8002.5,-2.0\n"
    "p,2,8.2,1,101,0,0,8003.1,-2.2\n"
    "p,3,8.0,1,88.25,0,0,8002.8,-1.8\n"
    "p,4,8.3,1,97,0,0,8002.6,-2.0\n"
    "p,5,8.1,1,99,0,0,8002.4,-2.3\n");
  g_autofree char *md = NULL, *json = NULL;

  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "import", "--db", db, "--clause", "7",
                           "--input", avoid, "--behaviour", "1", "--obstacle", "wooden wall",
                           NULL));
  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "import", "--db", db, "--clause", "9",
                           "--input", passage, NULL));
  md = nb_test_cli_run (root, 0, NULL, "report", "--db", db, "--format", "md", NULL);
  /* 7.1: the smallest clearance of the trials with the obstacle, judged. */
  g_assert_nonnull (strstr (md, "| **⚠ w** | wooden wall | **⚠ yes** | 9.30 | 12.60 | 1.355 | **⚠ 60.2** |"));
  g_assert_nonnull (strstr (md, "w: trials closer to the obstacle than the declared 100 mm (7.1): 2."));
  g_assert_null (strstr (md, "Not measured: trials imported"));
  /* 7.3 a: the starts given, trial 2 with the obstacle 80 mm off; baseline
   * trial 3 gave none. */
  g_assert_nonnull (strstr (md, "w: trials that did not start at P0 (7.3 a): 2 (80.0 mm, 0.00°)."));
  g_assert_nonnull (strstr (md, "Start at P0 (7.3 a): each trial's start pose (the first sample "
                                "of its track, or the one an import gave) within 50 mm and 5° of "
                                "P0 (decided): 4 of 5 trials."));
  g_assert_nonnull (strstr (md, "Start at P0 (7.3 a): 1 trial has no track and no start pose "
                                "(imported): its start pose is not recorded."));
  /* 7.3 c: the attained poses judged by the clause 5 rule; trial 3 is
   * 17.4 mm from where clause 5 ends (9002.68, −2.07). */
  g_assert_nonnull (strstr (md, "w: PG reached (7.3 c) by the attained poses the laboratory gave: "
                                "4 of 5 imported trials within the tolerance; recorded as "
                                "successful but stopped beyond it: 3 (17.4 mm, 0.06°)."));
  /* Clause 9: its clearance to the walls, every start at P0, PG reached. */
  g_assert_nonnull (strstr (md, "| Configuration | Load, kg | Declared passage width, mm | "
                                "Passed | Passage time, s | Failed trials | Smallest "
                                "clearance to the walls, mm |"));
  g_assert_nonnull (strstr (md, "| yes | 8.14 | 0 | 88.2 |"));
  g_assert_nonnull (strstr (md, "Start at P0 (9.3 a): each trial's start pose (the first sample of "
                                "its track, or the one an import gave) within 50 mm and 5° of P0 "
                                "(decided): 5 of 5 trials."));
  g_assert_nonnull (strstr (md, "p: PG reached (9.3 c) by the attained poses the laboratory gave: 5 "
                                "of 5 imported trials within the tolerance."));
  /* Stored with the trial: campaign export shows them back. */
  json = nb_test_cli_run (root, 0, NULL, "report", "--db", db, "--format", "md", "--lang", "ru",
                          NULL);
  g_assert_nonnull (strstr (json, "w: попытки, начатые не из P0 (7.3 a): 2 (80.0 мм, 0.00°)."));
  g_assert_nonnull (strstr (json, "Наименьший зазор до стенок"));
}

static void
expect_error (const char *db, const char *clause, const char *csv_name, const char *csv,
              const char *message)
{
  const char *root = g_getenv ("NAVBENCH_SOURCE_ROOT");
  g_autofree char *path = write_csv (csv_name, csv);
  g_autofree char *err = NULL, *out = NULL, *expected = NULL;

  out = nb_test_cli_run (root, 2, &err, "campaign", "import", "--db", db, "--clause", clause,
                         "--input", path, NULL);
  g_assert_cmpstr (out, ==, "");
  expected = g_strdup_printf ("navbench-cli: %s:%s\n", path, message);
  g_assert_cmpstr (err, ==, expected);
}

static void
test_bad_values (void)
{
  g_autofree char *db = make_campaign ("bad.nbc");

  expect_error (db, "9", "x-only.csv",
                "config,trial,time_s,success,start_x_mm,start_y_mm\np,1,8,1,0,0\np,2,8,1,5,\n",
                "3: start_x_mm, start_y_mm: give the position's x and y together (or leave "
                "them all empty: not measured)");
  expect_error (db, "9", "theta-only.csv",
                "config,trial,time_s,success,attained_theta_deg\np,1,8,1,0.5\n",
                "2: attained_x_mm, attained_y_mm, attained_theta_deg: give the position's x "
                "and y together (or leave them all empty: not measured)");
  expect_error (db, "7", "word.csv",
                "config,kind,trial,time_s,success,clearance_mm\nw,obstacle,1,12,1,far\n",
                "2: column 'clearance_mm': 'far' is not a finite number");
  expect_error (db, "7", "contact.csv",
                "config,kind,trial,time_s,success,clearance_mm\nw,obstacle,1,12,1,0\n",
                "2: a successful trial with clearance_mm 0: a contact (clearance ≤ 0 mm) fails "
                "the trial (7.3, 9.3)");
  /* Nothing was recorded by the refused imports. */
  {
    g_autofree char *info = nb_test_cli_run (g_getenv ("NAVBENCH_SOURCE_ROOT"), 0, NULL,
                                             "campaign", "results", "--db", db, NULL);

    g_assert_null (strstr (info, "Clause 7"));
    g_assert_null (strstr (info, "Clause 9"));
  }
}

/* ISO/IEC 17025 7.8.3.1 a: each trial tied to the conditions in force when
 * it was recorded (the audit trail), not one value per campaign: clause 9
 * imported at 21 °C before the humidity was stated, clause 7 at 25 °C,
 * the campaign now at 35 °C (beyond 4.2's 10–30 °C). */
static void
test_conditions (void)
{
  const char *root = g_getenv ("NAVBENCH_SOURCE_ROOT");
  g_autofree char *db = g_build_filename (tmpdir, "conditions.nbc", NULL);
  g_autofree char *passage = write_csv ("cond-passage.csv",
    "config,trial,time_s,success\np,1,8.1,1\np,2,8.2,1\np,3,8.0,1\np,4,8.3,1\np,5,8.1,1\n");
  g_autofree char *avoid = write_csv ("cond-avoid.csv",
    "config,kind,trial,time_s,success\nw,baseline,1,9.3,1\nw,baseline,2,9.4,1\n"
    "w,baseline,3,9.2,1\nw,obstacle,1,12.1,1\nw,obstacle,2,12.6,1\nw,obstacle,3,12.3,1\n");
  g_autofree char *md = NULL, *ru = NULL, *same = NULL;

  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "new", "--db", db, "--name", "conditions",
                           "robot.width_mm=730", "conditions.environment=indoor",
                           "conditions.temperature_c=21", "conditions.illuminance_lx=400",
                           "conditions.friction_coefficient=0.72",
                           "conditions.surface=epoxy-coated concrete", NULL));
  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "import", "--db", db, "--clause", "9",
                           "--input", passage, NULL));
  /* Before the next import: every trial under clause 4's conditions. */
  same = nb_test_cli_run (root, 0, NULL, "report", "--db", db, "--format", "md", NULL);
  g_assert_nonnull (strstr (same, "Conditions of the trials of clause 9: every trial was recorded "
                                  "under the conditions clause 4 states"));
  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "set", "--db", db,
                           "conditions.temperature_c=25", "conditions.humidity_pct=45", NULL));
  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "import", "--db", db, "--clause", "7",
                           "--input", avoid, "--behaviour", "1", "--obstacle", "wooden wall",
                           NULL));
  g_free (nb_test_cli_run (root, 0, NULL, "campaign", "set", "--db", db,
                           "conditions.temperature_c=35", NULL));
  md = nb_test_cli_run (root, 0, NULL, "report", "--db", db, "--format", "md", NULL);
  g_assert_nonnull (strstr (md, "### Conditions of the trials of clause 7\n\n| Configuration | "
                                "Trials (in the order recorded) | Environment | Ambient "
                                "temperature, °C | Relative humidity, % | Illuminance, lx | "
                                "Friction coefficient of the surface | Surface |\n"));
  g_assert_nonnull (strstr (md, "| w | 1–6 | indoors | 25 | 45 | 400 | 0.72 | epoxy-coated "
                                "concrete |\n"));
  /* Clause 9's trials: 21 °C, the humidity not yet stated (flagged). */
  g_assert_nonnull (strstr (md, "| p | 1–5 | indoors | 21 | **⚠ not stated** | 400 | 0.72 | "
                                "epoxy-coated concrete |\n"));
  /* Clause 4 states the campaign's 35 °C, flagged there; no trial ran at it. */
  g_assert_null (strstr (md, "| 35 | 45 | 400"));
  ru = nb_test_cli_run (root, 0, NULL, "report", "--db", db, "--format", "md", "--lang", "ru",
                        NULL);
  g_assert_nonnull (strstr (ru, "### Условия попыток раздела 7\n"));
  g_assert_nonnull (strstr (ru, "| w | 1–6 | в помещении | 25 | 45 | 400 | 0.72 |"));
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("nb-import-course-XXXXXX", NULL);
  g_test_add_func ("/import-course/columns", test_columns);
  g_test_add_func ("/import-course/bad-values", test_bad_values);
  g_test_add_func ("/import-course/conditions", test_conditions);
  rc = g_test_run ();
  nb_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return rc;
}
