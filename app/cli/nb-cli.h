/* nb-cli.h — the pieces of navbench-cli shared by its subcommands
 *
 * A subcommand is int f(int argc, char **argv) with argv[0] its own name; it
 * returns the exit status: 0 ok, 1 runtime failure, 2 bad input or usage.
 * Nothing reaches stdout until the whole result is computed, so a failure
 * never leaves a partial result behind.
 */
#pragma once

#include <glib.h>

#include "nb-campaign-iso9283.h"
#include "nb-catalogue.h"
#include "nb-device.h"
#include "nb-json-writer.h"

G_BEGIN_DECLS

enum {
  NB_EXIT_OK = 0,
  NB_EXIT_FAILURE = 1,
  NB_EXIT_USAGE = 2,   /* bad input or usage */
};

typedef struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} NbCliCommand;

int nb_cli_lu      (int argc, char **argv);
int nb_cli_route   (int argc, char **argv);
int nb_cli_compute (int argc, char **argv);
int nb_cli_compute_ape (int argc, char **argv);   /* nb-cli-traj.c */
int nb_cli_compute_rpe (int argc, char **argv);
int nb_cli_compute_iso9283 (int argc, char **argv);   /* nb-cli-iso9283.c */
int nb_cli_iso9283_run (int argc, char **argv);        /* nb-cli-iso9283-run.c */
int nb_cli_iso9283_plan (int argc, char **argv);       /* nb-cli-iso9283-run.c */
int nb_cli_campaign (int argc, char **argv);
int nb_cli_export (int argc, char **argv);
int nb_cli_report (int argc, char **argv);
int nb_cli_sequence (int argc, char **argv);
int nb_cli_robot (int argc, char **argv);
int nb_cli_serve (int argc, char **argv);
int nb_cli_campaign_register (int argc, char **argv);
int nb_cli_campaign_run (int argc, char **argv);   /* nb-cli-run.c */
int nb_cli_campaign_plan (int argc, char **argv);  /* nb-cli-run.c */
int nb_cli_demo (int argc, char **argv);           /* nb-cli-demo.c */
/* campaign import --track (nb-cli-run.c): the trials of a recorded session. */
gboolean nb_cli_import_track (const char *db, guint clause, const char *config, const char *route,
                              double load_kg, const char *track, const char *who, GError **error);
/* export --table N, or with budgets export --budgets N (nb-cli-report.c). */
int nb_cli_export_table (const char *db, guint table, gboolean budgets, const char *format,
                         const char *lang, const char *output);
int nb_cli_plan    (int argc, char **argv);
int nb_cli_map     (int argc, char **argv);
int nb_cli_replay  (int argc, char **argv);
int nb_cli_acquire (int argc, char **argv);

/* Prints "navbench-cli: message" on stderr; returns the exit status the
 * error's domain and code call for. */
int      nb_cli_report_error (const GError *error);
/* Parses options and refuses leftover arguments; the context's own --help
 * exits 0 as usual. */
gboolean nb_cli_parse        (GOptionContext *context, int *argc, char ***argv,
                              GError **error);
/* "X,Y,THETA" → n numbers, for the option named option. */
gboolean nb_cli_parse_numbers (const char *option, const char *text, double *out, guint n,
                               const char *what, GError **error);
/* Writes all of text to stdout; FALSE with error on a write failure. */
gboolean nb_cli_write        (const char *text, GError **error);
/* A path in navbench's data (robots/iiwa7, sequences): the source tree's when
 * this binary runs from its build tree, else the installed one. */
char    *nb_cli_data_path    (const char *sub);
/* The instrument as acquire opens it (`campaign run --instrument`, the ISO
 * 9283 run's): driver, link (url, port, baud; NULL/0: not given),
 * settings (--set KEY=VALUE, may be NULL); started into *out. */
gboolean nb_cli_open_instrument (const char *driver, const char *url, const char *port, int baud,
                                 char **settings, NbDevice **out, GError **error);
/* The default recordings root, $XDG_DATA_HOME/navbench/recordings, created. */
char    *nb_cli_recordings_root (void);
/* Runs a subcommand table: argv[1] picks the command. */
int      nb_cli_dispatch     (const char *group, const NbCliCommand *commands, guint n,
                              int argc, char **argv);

/* The ISO 9283 plan's rows (nb-cli-iso9283-run.c): JSON objects into w
 * (an array begun) when it is not NULL, else a line each into out; *next
 * the first in-scope configuration not complete. */
gboolean nb_cli_iso9283_plan_rows (NbCampaign *campaign, const GArray *plan, NbJsonWriter *w,
                                   GString *out, const NbIso9283PlanEntry **next, GError **error);

/* The protocol's catalogue for --lang (NULL: English), from the build
 * tree's po/ when this binary runs from it; an unknown language is an
 * NB_ERROR_INPUT naming --lang. */
const NbCatalogue *nb_cli_catalogue (const char *lang, GError **error);

G_END_DECLS
