/* nb-setup.c — a configuration's set-up on the test area (see nb-setup.h) */
#include "nb-setup.h"

#include "nb-clause.h"
#include "nb-error.h"
#include "nb-json-load.h"
#include "nb-map.h"
#include "nb-map-gen.h"
#include "nb-runner-sim.h"

#include <math.h>
#include <string.h>

double
nb_setup_parameter (const char *parameters, const char *key)
{
  g_autoptr (JsonParser) parser = NULL;
  JsonNode *root, *node;
  JsonObject *object;
  double v;

  if (parameters == NULL)
    return NAN;
  parser = json_parser_new ();
  if (!nb_json_load (parser, NULL, parameters, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NAN;
  object = json_node_get_object (root);
  node = json_object_get_member (object, key);
  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE ||
      (json_node_get_value_type (node) != G_TYPE_DOUBLE &&
       json_node_get_value_type (node) != G_TYPE_INT64))
    return NAN;
  v = json_node_get_double (node);
  return isfinite (v) ? v : NAN;
}

static gboolean
layout_placements (const NbCampaignConfig *c, double w, NbSetup *s, GError **error)
{
  s->kind = NB_SETUP_PLACEMENTS;
  s->have_obstacle = c->obstacle != NULL;
  /* 6.3: without an obstacle the configuration places all six; the
   * drawing shows the first of table 2. */
  if (!nb_obstacle_find (c->obstacle ? c->obstacle : nb_obstacle_names ()[0], 0, &s->obstacle))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause 6 configuration '%s': obstacle "
                   "'%s' is not in table 2", c->name, c->obstacle);
      return FALSE;
    }
  s->min_range_mm = nb_setup_parameter (c->parameters, "min_range_mm");
  s->max_range_mm = nb_setup_parameter (c->parameters, "max_range_mm");
  s->ranges_declared = !isnan (s->min_range_mm) && !isnan (s->max_range_mm);
  if (!s->ranges_declared)
    {
      /* Not declared yet: the ranges the simulated rig runs with. */
      s->min_range_mm = NB_RUNNER_SIM_MIN_RANGE_MM;
      s->max_range_mm = NB_RUNNER_SIM_MAX_RANGE_MM;
    }
  s->n_placements = NB_DETECTION_PLACEMENTS;
  for (guint k = 0; k < NB_DETECTION_PLACEMENTS; k++)
    {
      NbSetupPlacement *p = &s->placements[k];
      NbCourse course;

      nb_detection_placement (k, &p->bearing_deg, &p->max_range);
      p->range_mm = p->max_range ? s->max_range_mm : s->min_range_mm;
      if (!nb_course_detection (w, &s->obstacle, p->bearing_deg, p->range_mm, &course, error))
        return FALSE;
      p->centre_mm[0] = course.obs_from[0];
      p->centre_mm[1] = course.obs_from[1];
    }
  return TRUE;
}

static gboolean
layout_avoidance (const NbCampaignConfig *c, double w, NbSetup *s, GError **error)
{
  guint64 behaviour = c->behaviour ? g_ascii_strtoull (c->behaviour, NULL, 10) : 0;
  NbObstacleShape shape;
  double lu;

  s->kind = NB_SETUP_COURSE;
  if (behaviour < 1 || behaviour > 4 || !nb_obstacle_find (c->obstacle, (guint) behaviour, &shape))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause 7 configuration '%s' has no table 2 "
                   "obstacle and behaviour 1–4", c->name);
      return FALSE;
    }
  if (!nb_lu_mm (w, &lu, error))
    return FALSE;
  /* 7.3 b): a moving obstacle starts so that it meets the robot at P1,
   * T0/2 after the start (the baseline's T0, known once it has run); the
   * drawing starts it 2 LU before P1. */
  s->have_obstacle = TRUE;
  s->obstacle = shape;
  return nb_course_avoidance (w, &shape, (guint) behaviour,
                              behaviour == 1 ? 0.0 : 2.0 * lu / NB_OBSTACLE_SPEED_MM_S,
                              &s->course, error);
}

static gboolean
layout_passage (const NbCampaignConfig *c, double w, NbSetup *s, GError **error)
{
  double width = nb_setup_parameter (c->parameters, "passage_width_mm");

  s->kind = NB_SETUP_COURSE;
  if (isnan (width))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause 9 configuration '%s' has no "
                   "passage_width_mm in its parameters", c->name);
      return FALSE;
    }
  return nb_course_passage (w, width, &s->course, error);
}

static gboolean
layout_arena (double lu, NbSetup *s, GError **error)
{
  NbMapGenOptions o;

  s->kind = NB_SETUP_ARENA;
  /* Where P0 stands in the arena: the simulated mapping's (nb-map-gen.h). */
  nb_map_gen_options_init (&o);
  if (!nb_arena_corners (lu, o.p0_x_lu, o.p0_y_lu, o.p0_theta_deg, s->corners_mm, error))
    return FALSE;
  /* 10.2: a round column 1 LU across in the centre. */
  for (guint k = 0; k < 2; k++)
    s->column_centre_mm[k] = (s->corners_mm[0][k] + s->corners_mm[1][k] + s->corners_mm[2][k] +
                              s->corners_mm[3][k]) / 4.0;
  s->column_diameter_mm = lu;
  return TRUE;
}

gboolean
nb_setup_layout (const NbCampaignConfig *c, double w, NbSetup *s, GError **error)
{
  const NbClause *clause = nb_clause_lookup (c->clause);
  double lu;

  memset (s, 0, sizeof *s);
  s->clause = c->clause;
  s->robot_width_mm = w;
  if (clause == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause %u is not a test clause", c->clause);
      return FALSE;
    }
  if (!(w > 0.0) || !nb_lu_mm (w, &lu, error))
    {
      g_clear_error (error);
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "robot.width_mm is not set: there is no LU "
                   "(4.5) to lay out clause %u's set-up", c->clause);
      return FALSE;
    }
  s->lu_mm = lu;
  switch (clause->run)
    {
    case NB_CLAUSE_RUN_POSE:
    case NB_CLAUSE_RUN_PATH:
      {
        NbRouteKind kind = NB_ROUTE_STRAIGHT;

        s->kind = NB_SETUP_ROUTE;
        /* 8.3: the straight route; 5: the configuration's (4.5). */
        if (c->route != NULL && !nb_route_kind_from_string (c->route, &kind))
          {
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "clause %u configuration '%s': route "
                         "'%s' is not one of 4.5", c->clause, c->name, c->route);
            return FALSE;
          }
        return nb_route_make (kind, NB_ROUTE_DEFAULT_LEG_LU * lu, NB_ROUTE_DEFAULT_LEG_LU * lu,
                              FALSE, &s->route, error);
      }
    case NB_CLAUSE_RUN_PLACEMENTS:
      return layout_placements (c, w, s, error);
    case NB_CLAUSE_RUN_COURSE:
      return clause->baseline ? layout_avoidance (c, w, s, error)
                              : layout_passage (c, w, s, error);
    case NB_CLAUSE_RUN_MAPS:
    case NB_CLAUSE_RUN_NONE:
    default:
      /* 10: the robot maps the arena. */
      if (nb_clause_takes (clause, NB_CLAUSE_OPT_MAP))
        return layout_arena (lu, s, error);
      g_set_error (error, NB_ERROR, NB_ERROR_NOT_FOUND, "clause %u: no set-up on the test area "
                   "to lay out", c->clause);
      return FALSE;
    }
}

static gboolean
field_width (NbCampaign *campaign, double *w, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = nb_campaign_get_field (campaign, "robot.width_mm", &local);

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  *w = text != NULL ? g_ascii_strtod (text, NULL) : NAN;
  return TRUE;
}

gboolean
nb_setup_of_planned (NbCampaign *campaign, guint clause, const char *name,
                     NbCampaignConfig *config, NbSetup *setup, GError **error)
{
  g_autoptr (GError) local = NULL;
  double w;

  nb_campaign_config_init (config);
  if (!field_width (campaign, &w, error))
    return FALSE;
  if (!nb_campaign_find_config (campaign, clause, name, config, &local))
    {
      NbClauseEnv env;
      g_autoptr (GArray) planned = NULL;
      gboolean found = FALSE;

      if (local != NULL && !g_error_matches (local, NB_ERROR, NB_ERROR_NOT_FOUND))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      nb_campaign_config_init (config);
      if (!nb_clause_env_from_campaign (campaign, &env, error) ||
          (planned = nb_clause_all_configurations (&env, error)) == NULL)
        return FALSE;
      for (guint i = 0; i < planned->len && !found; i++)
        {
          NbCampaignConfig *c = &g_array_index (planned, NbCampaignConfig, i);

          if (c->clause == clause && g_str_equal (c->name, name))
            {
              *config = *c;
              /* Taken: the array must not clear it. */
              nb_campaign_config_init (c);
              found = TRUE;
            }
        }
      if (!found)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_NOT_FOUND, "clause %u has no configuration "
                       "'%s' in the plan for this robot", clause, name);
          return FALSE;
        }
    }
  return nb_setup_layout (config, w, setup, error);
}
