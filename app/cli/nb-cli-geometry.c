/* navbench-cli lu, navbench-cli route — ISO 18646-2 4.5 */
#include "nb-cli.h"

#include "nb-error.h"
#include "nb-json-writer.h"
#include "nb-route.h"
#include "nb-table.h"

#include <string.h>

int
nb_cli_lu (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *width_text = NULL, *out = NULL;
  gboolean json = FALSE;
  double width, lu;
  const GOptionEntry entries[] = {
    { "width-mm", 0, 0, G_OPTION_ARG_STRING, &width_text,
      "widest extent of the robot across its travel, arm included", "W" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };

  g_option_context_set_summary (context,
                                "The length unit of ISO 18646-2 4.5: LU = ceil(w / 500 mm) · 500 mm.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!nb_cli_parse (context, &argc, &argv, &error) ||
      !nb_cli_parse_numbers ("width-mm", width_text, &width, 1, "W in mm", &error) ||
      !nb_lu_mm (width, &lu, &error))
    return nb_cli_report_error (error);

  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "width_mm");
      nb_json_double (w, width);
      nb_json_key (w, "lu_mm");
      nb_json_double (w, lu);
      nb_json_end_object (w);
      out = nb_json_writer_finish (g_steal_pointer (&w));
    }
  else
    out = g_strdup_printf ("w  = %g mm\nLU = %g mm  (ISO 18646-2 4.5)\n", width, lu);
  if (!nb_cli_write (out, &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}

int
nb_cli_route (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("straight|rectangular|combined");
  g_autoptr (GError) error = NULL;
  g_autofree char *lu_text = NULL, *legs_text = NULL, *out = NULL;
  gboolean json = FALSE, cw = FALSE;
  double lu, legs_lu[2] = { NB_ROUTE_DEFAULT_LEG_LU, NB_ROUTE_DEFAULT_LEG_LU };
  NbRouteKind kind;
  NbRoute route;
  const GOptionEntry entries[] = {
    { "lu-mm", 0, 0, G_OPTION_ARG_STRING, &lu_text, "the length unit", "L" },
    { "legs-lu", 0, 0, G_OPTION_ARG_STRING, &legs_text,
      "leg lengths in LU (default 5,5: 4.5)", "A[,B]" },
    { "cw", 0, 0, G_OPTION_ARG_NONE, &cw, "turn clockwise (default counter-clockwise)", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "one JSON object on stdout", NULL },
    { NULL }
  };

  g_option_context_set_summary (context,
                                "The command poses of a test route of ISO 18646-2 4.5 "
                                "(fig. 2–4), P0 at the origin heading +x.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return nb_cli_report_error (error);
  if (argc != 2 || !nb_route_kind_from_string (argv[1], &kind))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT,
                   "give one route: straight, rectangular or combined");
      return nb_cli_report_error (error);
    }
  if (!nb_cli_parse_numbers ("lu-mm", lu_text, &lu, 1, "L in mm", &error))
    return nb_cli_report_error (error);
  if (!(lu > 0.0))
    {
      g_set_error (&error, NB_ERROR, NB_ERROR_INPUT, "--lu-mm must be positive, got %g", lu);
      return nb_cli_report_error (error);
    }
  if (legs_text != NULL && strchr (legs_text, ',') == NULL)
    {
      if (!nb_cli_parse_numbers ("legs-lu", legs_text, legs_lu, 1, "A or A,B in LU", &error))
        return nb_cli_report_error (error);
      legs_lu[1] = legs_lu[0];
    }
  else if (legs_text != NULL &&
           !nb_cli_parse_numbers ("legs-lu", legs_text, legs_lu, 2, "A or A,B in LU", &error))
    return nb_cli_report_error (error);
  if (!nb_route_make (kind, legs_lu[0] * lu, legs_lu[1] * lu, cw, &route, &error))
    return nb_cli_report_error (error);

  if (json)
    {
      g_autoptr (NbJsonWriter) w = nb_json_writer_new ();

      nb_json_begin_object (w);
      nb_json_key (w, "route");
      nb_json_string (w, nb_route_kind_to_string (kind));
      nb_json_key (w, "direction");
      nb_json_string (w, kind == NB_ROUTE_STRAIGHT ? NULL : cw ? "cw" : "ccw");
      nb_json_key (w, "lu_mm");
      nb_json_double (w, lu);
      nb_json_key (w, "poses");
      nb_json_begin_array (w);
      for (guint i = 0; i < route.n_poses; i++)
        {
          nb_json_begin_object (w);
          nb_json_key (w, "name");
          nb_json_string (w, route.poses[i].name);
          nb_json_key (w, "x_mm");
          nb_json_double (w, route.poses[i].x_mm);
          nb_json_key (w, "y_mm");
          nb_json_double (w, route.poses[i].y_mm);
          nb_json_key (w, "theta_deg");
          nb_json_double (w, route.poses[i].theta_deg);
          nb_json_end_object (w);
        }
      nb_json_end_array (w);
      nb_json_end_object (w);
      out = nb_json_writer_finish (g_steal_pointer (&w));
    }
  else
    {
      g_autofree char *title = g_strdup_printf ("%s route%s, LU = %g mm (ISO 18646-2 4.5)",
                                                nb_route_kind_to_string (kind),
                                                kind == NB_ROUTE_STRAIGHT ? ""
                                                : cw ? ", clockwise" : ", counter-clockwise", lu);
      g_autoptr (NbTable) t = nb_table_new (title);

      nb_table_add_column (t, "name", "pose", NULL, 0);
      nb_table_add_column (t, "x_mm", "x", "mm", 1);
      nb_table_add_column (t, "y_mm", "y", "mm", 1);
      nb_table_add_column (t, "theta_deg", "θ", "°", 1);
      for (guint i = 0; i < route.n_poses; i++)
        {
          guint r = nb_table_add_row (t);

          nb_table_set_text (t, r, 0, route.poses[i].name);
          nb_table_set_number (t, r, 1, route.poses[i].x_mm);
          nb_table_set_number (t, r, 2, route.poses[i].y_mm);
          nb_table_set_number (t, r, 3, route.poses[i].theta_deg);
        }
      out = nb_table_to_text (t);
    }
  if (!nb_cli_write (out, &error))
    return nb_cli_report_error (error);
  return NB_EXIT_OK;
}
