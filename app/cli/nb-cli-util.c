#include "nb-cli.h"

#include "nb-error.h"
#include "nb-number.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
nb_cli_report_error (const GError *error)
{
  g_printerr ("navbench-cli: %s\n", error->message);
  if (error->domain == NB_ERROR &&
      (error->code == NB_ERROR_INPUT || error->code == NB_ERROR_NOT_FOUND))
    return NB_EXIT_USAGE;
  if (error->domain == G_OPTION_ERROR)
    return NB_EXIT_USAGE;
  return NB_EXIT_FAILURE;
}

gboolean
nb_cli_parse (GOptionContext *context, int *argc, char ***argv, GError **error)
{
  if (!g_option_context_parse (context, argc, argv, error))
    return FALSE;
  if (*argc > 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "unexpected argument '%s' (see --help)",
                   (*argv)[1]);
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_cli_parse_numbers (const char *option, const char *text, double *out, guint n,
                      const char *what, GError **error)
{
  g_auto (GStrv) parts = NULL;

  if (text == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--%s %s is required", option, what);
      return FALSE;
    }
  parts = g_strsplit (text, ",", -1);
  if (g_strv_length (parts) != n)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--%s: expected %s, got '%s'", option, what,
                   text);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    if (!nb_parse_double (parts[i], strlen (parts[i]), &out[i]))
      {
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                     "--%s: '%s' is not a finite number (expected %s)", option, parts[i], what);
        return FALSE;
      }
  return TRUE;
}

gboolean
nb_cli_write (const char *text, GError **error)
{
  gsize len = strlen (text), done = 0;

  while (done < len)
    {
      gssize n = write (STDOUT_FILENO, text + done, len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "writing the output: %s",
                       g_strerror (saved));
          return FALSE;
        }
      done += (gsize) n;
    }
  return TRUE;
}

static void
print_commands (FILE *out, const char *group, const NbCliCommand *commands, guint n)
{
  fprintf (out, "Usage: navbench-cli%s%s COMMAND [OPTION…]\n\nCommands:\n", *group ? " " : "",
           group);
  for (guint i = 0; i < n; i++)
    fprintf (out, "  %-14s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\n'navbench-cli%s%s COMMAND --help' tells more.\n", *group ? " " : "", group);
}

int
nb_cli_dispatch (const char *group, const NbCliCommand *commands, guint n, int argc,
                 char **argv)
{
  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    {
      print_commands (argc < 2 ? stderr : stdout, group, commands, n);
      return argc < 2 ? NB_EXIT_USAGE : NB_EXIT_OK;
    }
  for (guint i = 0; i < n; i++)
    if (g_str_equal (argv[1], commands[i].name))
      {
        g_autofree char *name = g_strdup_printf ("%s %s", argv[0], argv[1]);
        char *saved = argv[1];
        int status;

        /* The subcommand sees itself as argv[0], for GOption's messages. */
        argv[1] = name;
        status = commands[i].run (argc - 1, argv + 1);
        argv[1] = saved;
        return status;
      }
  g_printerr ("navbench-cli: unknown %s command '%s'\n", group, argv[1]);
  print_commands (stderr, group, commands, n);
  return NB_EXIT_USAGE;
}

char *
nb_cli_data_path (const char *sub)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  if (exe != NULL && g_str_has_prefix (exe, NB_BUILD_ROOT "/"))
    return g_build_filename (NB_DATA_SOURCE, sub, NULL);
  return g_build_filename (NB_DATA_INSTALLED, sub, NULL);
}

gboolean
nb_cli_open_instrument (const char *driver, const char *url, const char *port, int baud,
                        char **settings, NbDevice **out, GError **error)
{
  g_autoptr (NbDevice) device = nb_device_new (driver, error);

  if (device == NULL || (url != NULL && !nb_device_configure (device, "url", url, error)) ||
      (port != NULL && !nb_device_configure (device, "port", port, error)))
    return FALSE;
  if (baud != 0)
    {
      g_autofree char *text = g_strdup_printf ("%d", baud);

      if (!nb_device_configure (device, "baud", text, error))
        return FALSE;
    }
  if (!nb_device_apply_settings (device, settings, error) || !nb_device_start (device, error))
    return FALSE;
  *out = g_steal_pointer (&device);
  return TRUE;
}

char *
nb_cli_recordings_root (void)
{
  char *root = g_build_filename (g_get_user_data_dir (), "navbench", "recordings", NULL);

  g_mkdir_with_parents (root, 0755);
  return root;
}
