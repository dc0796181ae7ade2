/* nb-test-cli.h — running navbench-cli from a test */
#pragma once

#include <glib.h>
#include <stdarg.h>

/* Runs $NAVBENCH_CLI with the arguments (NULL-terminated) in cwd (NULL: the
 * test's); fails the test unless it exits with expect (never a crash).
 * Returns stdout; stderr in *err when err is not NULL. */
char *nb_test_cli_run (const char *cwd, int expect, char **err, const char *first, ...)
  G_GNUC_NULL_TERMINATED;
/* The same with the arguments in a NULL-terminated array. */
char *nb_test_cli_runv (const char *cwd, int expect, char **err, const char *const *args);

/* The whole outcome of a run, for tests that look at status, stdout and
 * stderr together; the run must end by exiting (never a crash). */
typedef struct {
  int status;
  char *out;
  char *err;
} NbTestRun;

void      nb_test_run_clear    (NbTestRun *run);
NbTestRun nb_test_cli_spawnv   (const char *cwd, const char *first, va_list args);

/* text as one JSON object (the test fails otherwise); owned by parser. */
#include <json-glib/json-glib.h>
JsonObject  *nb_test_parse_object (JsonParser *parser, const char *text);

/* `navbench-cli serve ARGS…` as a child process (it dies with the test),
 * once it prints "listening on URL". */
typedef struct {
  GPid pid;
  char *url;
} NbTestServer;

NbTestServer nb_test_serve        (const char *first, ...);   /* NULL-terminated; may be NULL alone */
/* The same with an environment (NULL: the test's), a descriptor limit
 * (RLIMIT_NOFILE; 0: unchanged) and a NULL-terminated argument array. */
NbTestServer nb_test_servev       (char **envp, guint nofile, const char *const *args);
/* SIGTERM; the server must exit 0 (no leak reports under the sanitizers). */
void         nb_test_server_stop  (NbTestServer *server);
