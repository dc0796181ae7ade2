#include "nb-test-cli.h"

#include <stdarg.h>
#include <sys/wait.h>

void
nb_test_run_clear (NbTestRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

NbTestRun
nb_test_cli_spawnv (const char *cwd, const char *first, va_list args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  NbTestRun run = { 0 };
  int status;

  g_assert_nonnull (g_getenv ("NAVBENCH_CLI"));
  g_ptr_array_add (argv, (gpointer) g_getenv ("NAVBENCH_CLI"));
  for (const char *a = first; a; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (cwd, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &run.out, &run.err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));   /* never a crash */
  run.status = WEXITSTATUS (status);
  return run;
}

char *
nb_test_cli_run (const char *cwd, int expect, char **err_out, const char *first, ...)
{
  NbTestRun run;
  va_list ap;

  va_start (ap, first);
  run = nb_test_cli_spawnv (cwd, first, ap);
  va_end (ap);
  if (run.status != expect)
    g_error ("navbench-cli %s: exit %d, expected %d: %s", first, run.status, expect, run.err);
  if (err_out)
    *err_out = g_steal_pointer (&run.err);
  g_free (run.err);
  return run.out;
}
