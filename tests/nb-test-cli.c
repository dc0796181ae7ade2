#include "nb-test-cli.h"

#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

void
nb_test_run_clear (NbTestRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

/* The NULL-terminated arguments first, … as a NULL-terminated array. */
static GPtrArray *
args_of (const char *first, va_list args)
{
  GPtrArray *argv = g_ptr_array_new ();

  for (const char *a = first; a; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  g_ptr_array_add (argv, NULL);
  return argv;
}

static NbTestRun
spawn (const char *cwd, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  NbTestRun run = { 0 };
  int status;

  g_assert_nonnull (g_getenv ("NAVBENCH_CLI"));
  g_ptr_array_add (argv, (gpointer) g_getenv ("NAVBENCH_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (cwd, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &run.out, &run.err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));   /* never a crash */
  run.status = WEXITSTATUS (status);
  return run;
}

NbTestRun
nb_test_cli_spawnv (const char *cwd, const char *first, va_list args)
{
  g_autoptr (GPtrArray) argv = args_of (first, args);

  return spawn (cwd, (const char *const *) argv->pdata);
}

char *
nb_test_cli_runv (const char *cwd, int expect, char **err_out, const char *const *args)
{
  NbTestRun run = spawn (cwd, args);

  if (run.status != expect)
    g_error ("navbench-cli %s: exit %d, expected %d: %s", args[0], run.status, expect, run.err);
  if (err_out)
    *err_out = g_steal_pointer (&run.err);
  g_free (run.err);
  return run.out;
}

char *
nb_test_cli_run (const char *cwd, int expect, char **err_out, const char *first, ...)
{
  g_autoptr (GPtrArray) argv = NULL;
  va_list ap;

  va_start (ap, first);
  argv = args_of (first, ap);
  va_end (ap);
  return nb_test_cli_runv (cwd, expect, err_out, (const char *const *) argv->pdata);
}


typedef struct {
  guint nofile;
} ChildSetup;

static void
server_child_setup (gpointer data)
{
  ChildSetup *c = data;

  /* A server outlives no failed test. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (c->nofile > 0)
    {
      struct rlimit rl = { c->nofile, c->nofile };

      setrlimit (RLIMIT_NOFILE, &rl);
    }
}

NbTestServer
nb_test_servev (char **envp, guint nofile, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) line = g_string_new (NULL);
  NbTestServer s = { 0 };
  ChildSetup setup = { nofile };
  int out = -1;
  char c;

  g_assert_nonnull (g_getenv ("NAVBENCH_CLI"));
  g_ptr_array_add (argv, (gpointer) g_getenv ("NAVBENCH_CLI"));
  g_ptr_array_add (argv, "serve");
  for (guint i = 0; args && args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv->pdata, envp,
                                           G_SPAWN_DO_NOT_REAP_CHILD, server_child_setup, &setup,
                                           &s.pid, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  while (read (out, &c, 1) == 1 && c != '\n')
    g_string_append_c (line, c);
  close (out);
  if (!g_str_has_prefix (line->str, "listening on http://"))
    g_error ("serve: expected \"listening on URL\", got \"%s\"", line->str);
  s.url = g_strdup (line->str + strlen ("listening on "));
  return s;
}

NbTestServer
nb_test_serve (const char *first, ...)
{
  g_autoptr (GPtrArray) args = NULL;
  va_list ap;

  va_start (ap, first);
  args = args_of (first, ap);
  va_end (ap);
  return nb_test_servev (NULL, 0, (const char *const *) args->pdata);
}

void
nb_test_server_stop (NbTestServer *s)
{
  int status;

  kill (s->pid, SIGTERM);
  g_assert_cmpint (waitpid (s->pid, &status, 0), ==, s->pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_spawn_close_pid (s->pid);
  g_clear_pointer (&s->url, g_free);
}

JsonObject *
nb_test_parse_object (JsonParser *parser, const char *text)
{
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}
