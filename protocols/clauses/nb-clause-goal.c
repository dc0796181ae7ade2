/* nb-clause-goal.c — "the target pose reached within the clause 5
 * repeatability" (ISO 18646-2 7.3 c, 8.3 b, 9.3 c), one rule for the
 * clauses that ask it
 *
 * The text: "if the robot's pose is within the position and orientation
 * repeatability determined in clause 5, the robot is considered to have
 * reached the target pose".  Clause 5's repeatability Rp is a radius about
 * the barycentre of the attained positions, Ro a half-width about their
 * mean heading — not about the command.  Decided, the literal reading: the
 * robot has reached PG when its attained position lies within Rp of where
 * clause 5 says it ends — PG moved by clause 5's own offset of the
 * barycentre from its command (the vector of Ap, taken along and across the
 * command's heading so that it turns with the route) — and its heading
 * within Ro of PG's heading + Ao.  The figures are those of the campaign's
 * clause 5 configuration on the straight route with the same load (else any
 * straight one: the protocol names it).  An operator's tolerance
 * (--goal-tolerance-mm/deg) is about PG itself, and the protocol says so.
 */
#include "nb-clause-private.h"

#include "nb-angle.h"
#include "nb-error.h"
#include "nb-json-load.h"

#include <json-glib/json-glib.h>

#include <math.h>

void
nb_goal_tolerance_init (NbGoalTolerance *tol)
{
  *tol = (NbGoalTolerance) { NULL, 0.0, 0.0, NAN, 0.0, NAN, NAN, FALSE, FALSE };
}

void
nb_goal_tolerance_clear (NbGoalTolerance *tol)
{
  g_clear_pointer (&tol->config, g_free);
  nb_goal_tolerance_init (tol);
}

void
nb_goal_tolerance_given (NbGoalTolerance *tol, double mm, double deg)
{
  if (!isnan (mm))
    {
      tol->along_mm = tol->across_mm = 0.0;
      tol->rp_mm = mm;
      tol->given_mm = TRUE;
    }
  if (!isnan (deg))
    {
      tol->ao_deg = 0.0;
      tol->ro_deg = deg;
      tol->given_deg = TRUE;
    }
}

gboolean
nb_goal_tolerance_from_campaign (NbCampaign *campaign, double load_kg, NbGoalTolerance *tol,
                                 GError **error)
{
  g_autoptr (GArray) configs = nb_campaign_list_configs (campaign, 5, error);
  const NbCampaignConfig *pick = NULL;
  NbConfigResult fig = { 0 };
  double dx, dy, th;

  if (configs == NULL)
    return FALSE;
  g_array_set_clear_func (configs, (GDestroyNotify) nb_campaign_config_clear);
  for (guint i = 0; i < configs->len; i++)
    {
      const NbCampaignConfig *c = &g_array_index (configs, NbCampaignConfig, i);

      if (g_strcmp0 (c->route, "straight") != 0)
        continue;
      if (c->load_kg == load_kg)
        {
          pick = c;
          break;
        }
      if (pick == NULL)
        pick = c;
    }
  if (pick == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_NOT_FOUND,
                   "the campaign has no clause 5 configuration on the straight route");
      return FALSE;
    }
  if (!nb_config_result_compute_figures (campaign, pick, &fig, error))
    return FALSE;
  if (fig.error != NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_NOT_FOUND,
                   "clause 5 configuration '%s' has no figures: %s", pick->name, fig.error);
      nb_config_result_clear (&fig);
      return FALSE;
    }
  nb_goal_tolerance_clear (tol);
  tol->config = g_strdup (pick->name);
  /* The barycentre's offset from the command, along and across its heading. */
  dx = fig.pose.barycentre_x_mm - pick->command.x_mm;
  dy = fig.pose.barycentre_y_mm - pick->command.y_mm;
  th = pick->command.theta_deg * G_PI / 180.0;
  tol->along_mm = cos (th) * dx + sin (th) * dy;
  tol->across_mm = -sin (th) * dx + cos (th) * dy;
  tol->rp_mm = fig.pose.rp_mm;
  tol->ao_deg = fig.pose.ao_deg;
  tol->ro_deg = fig.pose.ro_deg;
  tol->load_kg = pick->load_kg;
  nb_config_result_clear (&fig);
  return TRUE;
}

gboolean
nb_goal_reached (const NbGoalTolerance *tol, const NbPose *goal, const NbPose *attained,
                 double *miss_mm, double *turn_deg)
{
  double th = goal->theta_deg * G_PI / 180.0;
  /* Where clause 5 says the robot ends: PG + the offset, turned with PG. */
  double cx = goal->x_mm + cos (th) * tol->along_mm - sin (th) * tol->across_mm;
  double cy = goal->y_mm + sin (th) * tol->along_mm + cos (th) * tol->across_mm;
  double miss = hypot (attained->x_mm - cx, attained->y_mm - cy);
  double turn = isfinite (attained->theta_deg)
    ? fabs (nb_angle_recast_deg (attained->theta_deg - goal->theta_deg - tol->ao_deg))
    : NAN;

  if (miss_mm != NULL)
    *miss_mm = miss;
  if (turn_deg != NULL)
    *turn_deg = turn;
  /* A heading the instrument does not give is not judged. */
  return miss <= tol->rp_mm && !(turn > tol->ro_deg);
}

char *
nb_goal_tolerance_to_json (const NbGoalTolerance *tol)
{
  NbJsonWriter *w = nb_json_writer_new ();

  nb_json_begin_object (w);
  nb_json_key (w, "config");
  if (tol->config != NULL)
    nb_json_string (w, tol->config);
  else
    nb_json_null (w);
  /* nb_json_double writes null for a NaN. */
  nb_json_key (w, "along_mm"); nb_json_double (w, tol->along_mm);
  nb_json_key (w, "across_mm"); nb_json_double (w, tol->across_mm);
  nb_json_key (w, "rp_mm"); nb_json_double (w, tol->rp_mm);
  nb_json_key (w, "ao_deg"); nb_json_double (w, tol->ao_deg);
  nb_json_key (w, "ro_deg"); nb_json_double (w, tol->ro_deg);
  nb_json_key (w, "load_kg"); nb_json_double (w, tol->load_kg);
  nb_json_key (w, "given_mm"); nb_json_bool (w, tol->given_mm);
  nb_json_key (w, "given_deg"); nb_json_bool (w, tol->given_deg);
  nb_json_end_object (w);
  return g_strchomp (nb_json_writer_finish (w));
}

static double
member_number (JsonObject *o, const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) ? json_node_get_double (n) : NAN;
}

gboolean
nb_goal_tolerance_from_json (const char *text, NbGoalTolerance *tol)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonObject *o;

  if (text == NULL || !nb_json_load (parser, NULL, text, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  o = json_node_get_object (root);
  nb_goal_tolerance_clear (tol);
  if (json_object_has_member (o, "config") && !json_object_get_null_member (o, "config"))
    tol->config = g_strdup (json_object_get_string_member (o, "config"));
  tol->along_mm = member_number (o, "along_mm");
  tol->across_mm = member_number (o, "across_mm");
  tol->rp_mm = member_number (o, "rp_mm");
  tol->ao_deg = member_number (o, "ao_deg");
  tol->ro_deg = member_number (o, "ro_deg");
  tol->load_kg = member_number (o, "load_kg");
  tol->given_mm = json_object_get_boolean_member_with_default (o, "given_mm", FALSE);
  tol->given_deg = json_object_get_boolean_member_with_default (o, "given_deg", FALSE);
  return isfinite (tol->rp_mm) && isfinite (tol->ro_deg);
}
