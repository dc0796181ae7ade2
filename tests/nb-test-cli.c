#include "nb-test-cli.h"

#include <stdarg.h>
#include <sys/wait.h>

char *
nb_test_cli_run (const char *cwd, int expect, char **err_out, const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status;
  va_list ap;

  g_assert_nonnull (g_getenv ("NAVBENCH_CLI"));
  g_ptr_array_add (argv, (gpointer) g_getenv ("NAVBENCH_CLI"));
  va_start (ap, first);
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (cwd, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  if (WEXITSTATUS (status) != expect)
    g_error ("navbench-cli %s %s: exit %d, expected %d: %s", first,
             argv->len > 3 ? (char *) argv->pdata[2] : "", WEXITSTATUS (status), expect, err);
  if (err_out)
    *err_out = g_steal_pointer (&err);
  return out;
}
