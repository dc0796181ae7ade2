/* nb-unc-campaign.c — a campaign's uncertainty inputs and conformity statements (see the header) */
#include "nb-unc-campaign.h"

#include "nb-error.h"
#include "nb-json-load.h"
#include "nb-number.h"
#include "nb-registration.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* A number field; NaN when not set. */
static gboolean
number_field (NbCampaign *campaign, const char *key, double *out, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = nb_campaign_get_field (campaign, key, &local);

  *out = NAN;
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (text == NULL)
    return TRUE;
  /* The store checked it when it was set (NB_FIELD_POSITIVE). */
  if (!nb_parse_double (text, strlen (text), out))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: field %s: '%s' is not a number",
                   nb_campaign_get_path (campaign), key, text);
      return FALSE;
    }
  return TRUE;
}

static double
or_zero (double v)
{
  return isfinite (v) ? v : 0.0;
}

/* instrument.accuracy_k, instrument.angular_accuracy_k: a coverage factor
 * > 0, or "rectangular" (the data sheet's figure is a maximum permissible
 * error: k 0 in NbUncSetup); *k unchanged when the field is not set. */
static gboolean
coverage_field (NbCampaign *campaign, const char *key, double *k, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = nb_campaign_get_field (campaign, key, &local);

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (text == NULL)
    return TRUE;
  if (!nb_unc_parse_coverage (text, k, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: field %s: %s",
                   nb_campaign_get_path (campaign), key, local->message);
      return FALSE;
    }
  return TRUE;
}

/* instrument.registration_points' text ([[x_mm, y_mm, residual_mm], …]) →
 * the rigid fit's u(t), u(φ) and centroid (nb_unc_registration); the error
 * says what is wrong, not where. */
static gboolean
registration_from_json (const char *text, NbUncSetup *s, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree double (*ref)[2] = NULL;
  g_autofree double *res = NULL;
  JsonNode *root;
  JsonArray *a;
  guint n;

  if (!nb_json_load (parser, "instrument.registration_points", text, -1, &local) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    goto bad;
  a = json_node_get_array (root);
  n = json_array_get_length (a);
  ref = g_malloc (MAX (n, 1) * sizeof *ref);
  res = g_new (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      JsonArray *p;

      if (!JSON_NODE_HOLDS_ARRAY (e) || json_array_get_length (p = json_node_get_array (e)) != 3)
        goto bad;
      for (guint k = 0; k < 3; k++)
        {
          JsonNode *v = json_array_get_element (p, k);

          if (!JSON_NODE_HOLDS_VALUE (v) || (json_node_get_value_type (v) != G_TYPE_DOUBLE &&
                                             json_node_get_value_type (v) != G_TYPE_INT64))
            goto bad;
          if (k < 2)
            ref[i][k] = json_node_get_double (v);
          else
            res[i] = json_node_get_double (v);
        }
    }
  if (!nb_unc_registration ((const double (*)[2]) ref, res, n, &s->reg_u_t_mm, &s->reg_u_rot_deg,
                            s->reg_centroid_mm, &local))
    goto bad;
  return TRUE;

bad:
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
               "%s (expected [[x_mm, y_mm, residual_mm], …] of ≥ 3 points, as `campaign "
               "register` writes it)", local ? local->message : "not such a list");
  return FALSE;
}

/* instrument.registration_points; nothing when the field is not set. */
static gboolean
registration_field (NbCampaign *campaign, NbUncSetup *s, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = nb_campaign_get_field (campaign, "instrument.registration_points",
                                                 &local);

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (text == NULL)
    return TRUE;
  if (!registration_from_json (text, s, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: field instrument.registration_points: %s",
                   nb_campaign_get_path (campaign), local->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_unc_setup_registration_survey (NbUncSetup *s, const char *path, GError **error)
{
  g_autoptr (GArray) points = NULL;
  g_auto (NbRegistrationFit) fit = { { { 0 } } };
  g_autofree char *text = NULL;
  g_autoptr (GError) local = NULL;

  if ((points = nb_reference_points_read (path, 2, error)) == NULL)
    return FALSE;
  if (!nb_registration_fit ((const NbReferencePoint *) points->data, points->len, 2, path, &fit,
                            error))
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  /* The text `campaign register` stores, read as the campaign's field is:
   * the same rounding, so compute and the campaign state the same u. */
  text = nb_registration_points_json (&fit.registration);
  if (!registration_from_json (text, s, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: %s", path, local->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_unc_setup_from_campaign (NbCampaign *campaign, NbUncSetup *s, gboolean *enabled,
                            GError **error)
{
  double a, ppm, range, ang, random, rate, sync, speed, target, placement, cell;

  nb_unc_setup_init (s);
  *enabled = FALSE;
  if (!number_field (campaign, "instrument.accuracy_mm", &a, error) ||
      !number_field (campaign, "instrument.accuracy_ppm", &ppm, error) ||
      !number_field (campaign, "instrument.range_m", &range, error) ||
      !number_field (campaign, "instrument.angular_accuracy_deg", &ang, error) ||
      !number_field (campaign, "instrument.random_mm", &random, error) ||
      !number_field (campaign, "instrument.sample_rate_hz", &rate, error) ||
      !number_field (campaign, "instrument.sync_s", &sync, error) ||
      !number_field (campaign, "robot.rated_speed_mm_s", &speed, error) ||
      !number_field (campaign, "instrument.target_centring_mm", &target, error) ||
      !number_field (campaign, "rig.placement_mm", &placement, error) ||
      !number_field (campaign, "mapping.resolution_mm", &cell, error) ||
      !coverage_field (campaign, "instrument.accuracy_k", &s->lin_k, error) ||
      !registration_field (campaign, s, error))
    return FALSE;
  /* The angular accuracy at its own k; not set, at accuracy_k's (the one
   * factor of the stated accuracies before #17), else 2. */
  s->ang_k = s->lin_k;
  if (!coverage_field (campaign, "instrument.angular_accuracy_k", &s->ang_k, error))
    return FALSE;
  s->lin_const_mm = or_zero (a);
  s->lin_ppm = or_zero (ppm);
  s->range_m = or_zero (range);
  s->ang_deg = or_zero (ang);
  s->random_mm = or_zero (random);
  s->sample_period_s = isfinite (rate) ? 1.0 / rate : 0.0;
  s->sync_s = or_zero (sync);
  s->speed_mm_s = or_zero (speed);
  s->target_mm = or_zero (target);
  s->placement_mm = or_zero (placement);
  s->map_resolution_mm = or_zero (cell);
  *enabled = isfinite (a) || isfinite (ang);
  return TRUE;
}

/* ------------------------------------------------------- conformity -- */

static double v_ap (const NbConfigResult *r) { return r->pose.ap_mm; }
static double v_ao (const NbConfigResult *r) { return r->pose.ao_deg; }
static double v_rp (const NbConfigResult *r) { return r->pose.rp_mm; }
static double v_ro (const NbConfigResult *r) { return r->pose.ro_deg; }
static double v_d (const NbConfigResult *r) { return r->path.max_mm; }
static double v_dm (const NbConfigResult *r) { return r->accuracy_mm; }
static double v_pt (const NbConfigResult *r) { return r->passage.passed ? r->passage.mean_time_s : NAN; }
static double v_dr (const NbConfigResult *r) { return r->avoidance.delay_ratio; }

/* The list: Ap, Rp (Ao, Ro with them), d, Dm, the passage time,
 * the delay ratio; each an upper limit, Ao (a signed mean deviation, 5.2.1)
 * within ± its value. */
static const NbDeclared declared[] = {
  { "declared.ap_mm", 5, "ap_mm", "Ap", "mm", v_ap },
  { "declared.ao_deg", 5, "ao_deg", "|Ao|", "°", v_ao, TRUE },
  { "declared.rp_mm", 5, "rp_mm", "Rp", "mm", v_rp },
  { "declared.ro_deg", 5, "ro_deg", "Ro", "°", v_ro },
  { "declared.delay_ratio", 7, "delay_ratio", "T1/T0", NULL, v_dr },
  { "declared.d_mm", 8, "max_mm", "d", "mm", v_d },
  { "declared.passage_time_s", 9, "mean_time_s", "T", "s", v_pt },
  { "declared.dm_mm", 10, "accuracy_mm", "max Dm", "mm", v_dm },
};

const NbDeclared *
nb_declared_values (guint *n)
{
  *n = G_N_ELEMENTS (declared);
  return declared;
}

gboolean
nb_declared_limits (NbCampaign *campaign, double *limits, gboolean *any, GError **error)
{
  *any = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (declared); i++)
    {
      if (!number_field (campaign, declared[i].field, &limits[i], error))
        return FALSE;
      *any |= isfinite (limits[i]);
    }
  return TRUE;
}

gboolean
nb_decision_rule_from_campaign (NbCampaign *campaign, NbDecisionRule *rule, gboolean *stated,
                                GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = nb_campaign_get_field (campaign, "conformity.decision_rule", &local);

  *rule = NB_DECISION_SIMPLE;
  *stated = FALSE;
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (text == NULL)
    return TRUE;
  if (!nb_decision_rule_parse (g_strstrip (text), rule, &local))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: field conformity.decision_rule: %s",
                   nb_campaign_get_path (campaign), local->message);
      return FALSE;
    }
  *stated = TRUE;
  return TRUE;
}

void
nb_conformity_statement_clear (gpointer p)
{
  NbConformityStatement *s = p;

  g_clear_pointer (&s->config, g_free);
}

void
nb_conformity_of_result (const NbConfigResult *r, const double *limits, NbDecisionRule rule,
                         GArray *out)
{
  if (r->error != NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (declared); i++)
    {
      const NbDeclared *d = &declared[i];
      const NbUncFigure *fig;
      NbConformityStatement s = { d };

      if (d->clause != r->clause || !isfinite (limits[i]) || !isfinite (d->value (r)))
        continue;
      s.config = g_strdup (r->config);
      s.limit = limits[i];
      s.value = d->value (r);
      fig = r->unc != NULL ? nb_unc_budget_figure (r->unc, d->key) : NULL;
      s.have_unc = fig != NULL;
      if (s.have_unc)
        {
          /* Decided on what the protocol prints: the value and the interval
           * rounded as GUM 7.2.6 (the interval outward), so a reader can
           * check every statement from the table. */
          nb_unc_round_figure (fig, &s.rounded);
          s.decision = d->symmetric
            ? nb_conformity_decide_symmetric (s.rounded.value, s.rounded.lo, s.rounded.hi,
                                              s.limit, rule)
            : nb_conformity_decide (s.rounded.value, s.rounded.lo, s.rounded.hi, s.limit, TRUE,
                                    rule);
          s.decided = TRUE;
        }
      else
        {
          /* ILAC G8 4.2.2: a guard band needs U; simple acceptance does not. */
          s.decided = rule == NB_DECISION_SIMPLE;
          s.decision = !s.decided ? NB_INCONCLUSIVE
                       : d->symmetric ? nb_conformity_decide_symmetric (s.value, s.value, s.value,
                                                                        s.limit, rule)
                       : nb_conformity_decide (s.value, s.value, s.value, s.limit, TRUE, rule);
        }
      g_array_append_val (out, s);
    }
}
