/* navbench-cli robot — the arm's tools and named positions (seeds/002) */
#include "nb-cli.h"

#include "nb-arm-file.h"
#include "nb-error.h"
#include "nb-server.h"

#include <string.h>

static int
robot_setup (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) tools = NULL;
  g_autofree char *tool = NULL, *dir = NULL, *out = NULL;
  const GOptionEntry entries[] = {
    { "tool", 0, 0, G_OPTION_ARG_STRING, &tool, "a tool of tools.yaml (none: the TCP is link_ee)",
      "NAME" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir,
      "the robot description to change (tools.yaml, iiwa7.srdf, tool_active.xacro)", "DIR" },
    { NULL }
  };

  g_option_context_set_summary (context,
    "Applies a tool of the registry: rewrites tool_active.xacro (the tool's Xacro and the\n"
    "fixed TCP joint on link_ee) and iiwa7.srdf (the chain's tip link and the tool's\n"
    "disabled self-collision pairs), keeping every named position (group_state).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (tool == NULL || dir == NULL)
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--tool NAME and --dir DIR are required");
      return nb_cli_report_error (error);
    }
  if ((tools = nb_arm_tools_load (dir, &error)) == NULL)
    return nb_cli_report_error (error);
  for (guint i = 0; i < tools->len; i++)
    {
      NbArmTool *t = g_ptr_array_index (tools, i);

      if (!g_str_equal (t->name, tool))
        continue;
      if (!nb_arm_setup_tool (dir, t, &error))
        return nb_cli_report_error (error);
      out = g_strdup_printf ("tool %s: end link %s, TCP %g %g %g m from link_ee, %u disabled "
                             "pair%s\n", t->name, t->end_link, t->xyz[0], t->xyz[1], t->xyz[2],
                             t->pairs->len / 2, t->pairs->len == 2 ? "" : "s");
      return nb_cli_write (out, &error) ? NB_EXIT_OK : nb_cli_report_error (error);
    }
  {
    GString *known = g_string_new (NULL);

    for (guint i = 0; i < tools->len; i++)
      g_string_append_printf (known, "%s%s", i ? ", " : "",
                              ((NbArmTool *) g_ptr_array_index (tools, i))->name);
    g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "no tool '%s' in tools.yaml (%s)", tool,
                 known->str);
    g_string_free (known, TRUE);
  }
  return nb_cli_report_error (error);
}

static int
robot_positions (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) positions = NULL;
  g_autofree char *dir = NULL, *out = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "the robot description", "DIR" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };

  g_option_context_set_summary (context,
    "The named positions: the SRDF's group_states with name, group, description and\n"
    "joint angles (rad) — what GET /robot/positions answers.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (dir == NULL)
    dir = nb_cli_data_path ("robots/iiwa7");
  if ((positions = nb_arm_named_positions (dir, &error)) == NULL)
    return nb_cli_report_error (error);
  if (!json)
    {
      GString *s = g_string_new (NULL);

      for (guint i = 0; i < positions->len; i++)
        {
          NbNamedPosition *p = g_ptr_array_index (positions, i);

          g_string_append_printf (s, "%-10s %-12s", p->name, p->group);
          for (guint j = 0; j < p->values->len; j++)
            g_string_append_printf (s, " %7.3f", g_array_index (p->values, double, j));
          g_string_append_printf (s, "  %s\n", p->description);
        }
      out = g_string_free (s, FALSE);
      return nb_cli_write (out, &error) ? NB_EXIT_OK : nb_cli_report_error (error);
    }
  /* The same document GET /robot/positions answers. */
  out = nb_positions_json (positions);
  return nb_cli_write (out, &error) ? NB_EXIT_OK : nb_cli_report_error (error);
}

static const NbCliCommand robot_commands[] = {
  { "setup", robot_setup, "apply a tool of tools.yaml (xacro and SRDF rewritten)" },
  { "positions", robot_positions, "the named positions of the SRDF (--json)" },
};

int
nb_cli_robot (int argc, char **argv)
{
  return nb_cli_dispatch ("robot", robot_commands, G_N_ELEMENTS (robot_commands), argc, argv);
}
