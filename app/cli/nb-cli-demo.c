/* navbench-cli demo — the main job in one command
 *
 * A new campaign for a sample robot (the simulated base: w = 730 mm, LU
 * 1000 mm, rated load 20 kg, indoors), its whole plan run on the simulator
 * with the standard's counts (`campaign run --all`: clauses 5 to 10, clause
 * 10's maps of the 7 LU arena made by the simulator's mapping model,
 * distortions by seed, with their build time), then the test protocol in
 * Russian and English (PDF)
 * and the protocol's tables as CSV, all in DIR, and the plan and the
 * figures on the terminal.  Each step is the command a person would type,
 * run in this process; their own output goes to DIR/demo.log.
 */
#include "nb-cli.h"

#include "nb-error.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef int (*CommandFunc) (int argc, char **argv);

/* Runs a command (argv NULL-terminated, argv[0] its name) with stdout to
 * log_fd (or the terminal when -1); its exit status. */
static int
step (CommandFunc func, int log_fd, const char *const *args)
{
  /* The command's option parser removes what it consumed from argv: the
   * strings are owned by a copy it never sees. */
  g_auto (GStrv) owned = g_strdupv ((char **) args);
  guint n = g_strv_length (owned);
  g_autofree char **argv = g_memdup2 (owned, (n + 1) * sizeof *owned);
  int saved = -1, rc;

  fflush (stdout);
  if (log_fd >= 0)
    {
      saved = dup (STDOUT_FILENO);
      dup2 (log_fd, STDOUT_FILENO);
    }
  rc = func ((int) n, argv);
  fflush (stdout);
  if (saved >= 0)
    {
      dup2 (saved, STDOUT_FILENO);
      close (saved);
    }
  return rc;
}

int
nb_cli_demo (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *db = NULL, *log = NULL, *maps = NULL, *seed_text = NULL;
  g_autofree char *today = NULL;
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  gint64 seed = 7;
  gint64 t0 = g_get_monotonic_time ();
  int log_fd, rc;
  const GOptionEntry entries[] = {
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &out,
      "the directory to write into (default navbench-demo)", "DIR" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "the simulator's seed (default 7)", "S" },
    { NULL }
  };

  g_option_context_set_summary (context,
    "The main job in one command: a new campaign for a sample robot, the whole\n"
    "ISO 18646-2 plan run on the simulator with the standard's trial counts\n"
    "(clauses 5 to 10), the campaign file, the test protocol in Russian and English\n"
    "and the protocol's tables as CSV in DIR, and a summary on the terminal.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (seed < 0 || seed > G_MAXUINT32 - 1)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--seed S: 0 to 4294967294");
      return nb_cli_report_error (error);
    }
  if (out == NULL)
    out = g_strdup ("navbench-demo");
  db = g_build_filename (out, "campaign.nbc", NULL);
  log = g_build_filename (out, "demo.log", NULL);
  maps = g_build_filename (out, "maps", NULL);
  if (g_file_test (db, G_FILE_TEST_EXISTS))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "%s exists: remove it or give another "
                   "--out DIR", db);
      return nb_cli_report_error (error);
    }
  if (g_mkdir_with_parents (maps, 0755) != 0)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", maps, g_strerror (errno));
      return nb_cli_report_error (error);
    }
  if ((log_fd = g_open (log, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", log, g_strerror (errno));
      return nb_cli_report_error (error);
    }
  today = g_date_time_format (now, "%Y-%m-%d");
  seed_text = g_strdup_printf ("%" G_GINT64_FORMAT, seed);

  {
    g_autofree char *issued = g_strdup_printf ("report.issued=%s", today);
    g_autofree char *received = g_strdup_printf ("item.received=%s", today);
    /* The simulator needs no calibration: "due" a year on, for the form. */
    g_autoptr (GDateTime) next_year = g_date_time_add_years (now, 1);
    g_autofree char *due_date = g_date_time_format (next_year, "%Y-%m-%d");
    g_autofree char *due = g_strdup_printf ("instrument.calibration_due=%s", due_date);
    const char *const new_campaign[] = {
      "navbench-cli campaign", "new", "--db", db, "--name",
      "Sample robot — ISO 18646-2, the whole plan on the simulator",
      "robot.maker=navbench", "robot.model=navbench simulated base", "robot.serial=sim-1",
      "robot.width_mm=730", "robot.length_mm=730", "robot.height_mm=800",
      "robot.rated_load_kg=20", "robot.rated_speed_mm_s=1000",
      "robot.preparation_done=yes",
      "robot.preparation=the simulator's defaults: nothing to prepare",
      "robot.battery=simulated: always full", "robot.min_avoidance_distance_mm=100",
      "conditions.environment=indoor", "conditions.temperature_c=20",
      "conditions.humidity_pct=50", "conditions.illuminance_lx=500",
      "conditions.friction_coefficient=0.8", "conditions.surface=simulated floor",
      "conditions.landmarks=none",
      "instrument.kind=laser tracker", "instrument.model=navbench simulated tracker",
      "instrument.accuracy_mm=0.2", "instrument.sample_rate_hz=50",
      "conditions.operating=normal operating conditions (simulated)",
      "instrument.angular_accuracy_deg=0.02",
      "instrument.calibration_certificate=none: the built-in simulator", due,
      "instrument.registration=the simulator's frame is the test area's",
      /* The protocol's ISO/IEC 17025 items: a demonstration, said so. */
      "lab.name=navbench demonstration (not an accredited laboratory)",
      "lab.address=the computer that ran navbench-cli demo",
      "test.location=the built-in simulator", "customer.name=demonstration",
      "customer.address=none", "item.condition=simulated",
      "method.deviations=none (the robot and the instrument are simulated)",
      "method.exclusions=none",
      "signatory.name=nobody: a demonstration is not signed",
      "signatory.function=none",
      "obstacle.wooden_wall.material=simulated", "obstacle.wooden_wall.colour=simulated",
      "obstacle.glass_wall.material=simulated", "obstacle.glass_wall.colour=simulated",
      "obstacle.wooden_table.material=simulated", "obstacle.wooden_table.colour=simulated",
      "obstacle.metal_table.material=simulated", "obstacle.metal_table.colour=simulated",
      "obstacle.large_cylinder.material=simulated",
      "obstacle.large_cylinder.colour=simulated",
      "obstacle.small_cylinder.material=simulated",
      "obstacle.small_cylinder.colour=simulated",
      "operator=navbench-cli demo", "report.id=NB-DEMO", issued, received, NULL
    };

    if ((rc = step (nb_cli_campaign, log_fd, new_campaign)) != NB_EXIT_OK)
      {
        /* A field this build does not know: the campaign without it. */
        close (log_fd);
        return rc;
      }
  }
  g_print ("navbench demo: the campaign %s; the plan on the simulator (clauses 5 to 10)…\n", db);
  {
    /* Clause 10's maps of the 7 LU arena (LU 1000 mm) are the simulator's,
     * distorted as its mapping model makes them, written to DIR/maps; the
     * accepted defect range is the demonstration's statement. */
    const char *const run_all[] = { "navbench-cli campaign", "run", "--db", db, "--all",
                                    "--seed", seed_text, "--defect-range-mm", "50",
                                    "--map-dir", maps, NULL };

    if ((rc = step (nb_cli_campaign, log_fd, run_all)) != NB_EXIT_OK)
      {
        close (log_fd);
        return rc;
      }
  }
  g_print ("navbench demo: the protocol (ru, en) and its tables…\n");
  for (guint l = 0; l < 2; l++)
    {
      const char *lang = l == 0 ? "ru" : "en";
      g_autofree char *pdf = g_strdup_printf ("%s/protocol-%s.pdf", out, lang);
      /* One build of the protocol for the PDF and its tables (the budgets'
       * Monte Carlo once per language, not once per table). */
      const char *const report[] = { "navbench-cli report", "--db", db, "--lang", lang, "-o", pdf,
                                     "--tables", NULL };

      if ((rc = step (nb_cli_report, log_fd, report)) != NB_EXIT_OK)
        {
          close (log_fd);
          return rc;
        }
    }
  close (log_fd);
  /* The summary: the plan's states, then every figure. */
  {
    const char *const plan[] = { "navbench-cli campaign", "plan", "--db", db, NULL };
    const char *const results[] = { "navbench-cli campaign", "results", "--db", db, NULL };

    g_print ("\n");
    if ((rc = step (nb_cli_campaign, -1, plan)) != NB_EXIT_OK)
      return rc;
    g_print ("\n");
    if ((rc = step (nb_cli_campaign, -1, results)) != NB_EXIT_OK)
      return rc;
  }
  g_print ("\nnavbench demo: %s/campaign.nbc, protocol-ru.pdf, protocol-en.pdf, protocol-ru|en-table-N.csv "
           "(N = 1, 3–7), maps/, demo.log — in %.1f s\n", out,
           (g_get_monotonic_time () - t0) / 1e6);
  return NB_EXIT_OK;
}
