/* navbench-cli — navbench without a display
 *
 * The contract other tools and our tests rely on is in docs/cli.md and in the
 * --help of each subcommand: options, CSV inputs, JSON outputs, exit codes
 * (0 ok, 1 runtime failure, 2 bad input or usage; messages on stderr as
 * "navbench-cli: FILE:LINE: reason").
 */
#include "nb-cli.h"

#include <locale.h>
#include <stdio.h>

static const NbCliCommand commands[] = {
  { "lu", nb_cli_lu, "the length unit LU of a robot (ISO 18646-2 4.5)" },
  { "route", nb_cli_route, "the command poses of a test route (4.5)" },
  { "compute", nb_cli_compute, "the figures of clauses 5–10 from measured data" },
  { "campaign", nb_cli_campaign, "the campaign file: robot, conditions, trials, results" },
  { "export", nb_cli_export, "a campaign's trials as the CSV that compute reads" },
  { "report", nb_cli_report, "the test protocol of a campaign: PDF, Markdown or JSON" },
  { "robot", nb_cli_robot, "the arm's tools and named positions (seeds/002)" },
  { "sequence", nb_cli_sequence, "run a motion sequence of the motion stack (seeds/003)" },
  { "serve", nb_cli_serve, "serve the motion HTTP API over the simulated arm (seeds/001–003)" },
  { "plan", nb_cli_plan, "check and run task plans of robot skills (seeds/000)" },
  { "map", nb_cli_map, "clause 10 from a robot's map files: corners, defects, synthetic maps" },
  { "replay", nb_cli_replay, "decode a recorded instrument capture (driver test harness)" },
  { "acquire", nb_cli_acquire, "acquire samples from a live instrument or the simulator" },
  { "demo", nb_cli_demo, "the whole ISO 18646-2 campaign of a sample robot on the simulator" },
};

/* What navbench writes is UTF-8, and goes out as it is.  g_print and
 * g_printerr would convert it to the locale's charset: under LANG=C
 * (ASCII on Debian) every "°", "–" or "θ" of a message or of --help came
 * out as "?", while standard output's data (printf, the JSON and CSV
 * writers) kept its UTF-8 bytes.  Written as given, as coreutils, git or
 * Python's UTF-8 mode do, a terminal or file in UTF-8 reads the message
 * whole. */
static void
print_as_is (const char *text)
{
  fputs (text, stdout);
  fflush (stdout);
}

static void
printerr_as_is (const char *text)
{
  fputs (text, stderr);
  fflush (stderr);
}

int
main (int argc, char **argv)
{
  /* Messages in the user's language; numbers are always printed with '.',
   * whatever the locale (g_ascii_formatd). */
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  g_set_print_handler (print_as_is);
  g_set_printerr_handler (printerr_as_is);

  if (argc >= 2 && g_str_equal (argv[1], "--version"))
    {
      printf ("navbench-cli %s\n", NB_VERSION);
      return NB_EXIT_OK;
    }
  return nb_cli_dispatch ("", commands, G_N_ELEMENTS (commands), argc, argv);
}
