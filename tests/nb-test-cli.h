/* nb-test-cli.h — running navbench-cli from a test */
#pragma once

#include <glib.h>

/* Runs $NAVBENCH_CLI with the arguments (NULL-terminated) in cwd (NULL: the
 * test's); fails the test unless it exits with expect (never a crash).
 * Returns stdout; stderr in *err when err is not NULL. */
char *nb_test_cli_run (const char *cwd, int expect, char **err, const char *first, ...)
  G_GNUC_NULL_TERMINATED;
