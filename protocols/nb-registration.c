#include "nb-registration.h"

#include "nb-error.h"

#define MM_PER_M 1000.0

double
nb_registration_max_m (const NbRegistration *reg)
{
  double max = 0.0;

  for (guint i = 0; i < reg->n_points; i++)
    max = MAX (max, reg->residuals_m[i]);
  return max;
}

char *
nb_registration_summary (const NbRegistration *reg)
{
  GString *log = g_string_new (NULL);

  g_string_append_printf (log, "rigid %u-D fit to %u points; residuals (mm):", reg->transform.dim,
                          reg->n_points);
  for (guint i = 0; i < reg->n_points; i++)
    g_string_append_printf (log, " %s %.3f", reg->names[i], reg->residuals_m[i] * MM_PER_M);
  return g_string_free (log, FALSE);
}

char *
nb_registration_points_json (const NbRegistration *reg)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < reg->n_points; i++)
    {
      char x[G_ASCII_DTOSTR_BUF_SIZE], y[G_ASCII_DTOSTR_BUF_SIZE], r[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (x, sizeof x, "%.4f", reg->reference_m[i][0] * MM_PER_M);
      g_ascii_formatd (y, sizeof y, "%.4f", reg->reference_m[i][1] * MM_PER_M);
      g_ascii_formatd (r, sizeof r, "%.4f", reg->residuals_m[i] * MM_PER_M);
      g_string_append_printf (s, "%s[%s, %s, %s]", i ? ", " : "", x, y, r);
    }
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

gboolean
nb_registration_store (NbCampaign *campaign, const NbRegistration *reg, GError **error)
{
  g_autofree char *transform = nb_rigid_transform_to_json (&reg->transform);
  g_autofree char *method = g_strdup_printf ("rigid %u-D fit (Kabsch, SVD) to %u surveyed "
                                             "points (%s)", reg->transform.dim, reg->n_points,
                                             reg->source);
  g_autofree char *log = nb_registration_summary (reg);
  g_autofree char *points = reg->reference_m ? nb_registration_points_json (reg) : NULL;
  char rms[G_ASCII_DTOSTR_BUF_SIZE], max[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (rms, sizeof rms, "%.3f", reg->rms_m * MM_PER_M);
  g_ascii_formatd (max, sizeof max, "%.3f", nb_registration_max_m (reg) * MM_PER_M);
  if (!nb_campaign_transaction_begin (campaign, error))
    return FALSE;
  if (!nb_campaign_set_field (campaign, "instrument.registration", method, error) ||
      !nb_campaign_set_field (campaign, "instrument.registration_rms_mm", rms, error) ||
      !nb_campaign_set_field (campaign, "instrument.registration_max_mm", max, error) ||
      !nb_campaign_set_field (campaign, "instrument.registration_transform", transform, error) ||
      (reg->reference_m != NULL &&
       !nb_campaign_set_field (campaign, "instrument.registration_points", points, error)) ||
      !nb_campaign_log (campaign, "frame registration", "instrument", NULL, log, error) ||
      !nb_campaign_transaction_commit (campaign, error))
    {
      nb_campaign_transaction_rollback (campaign);
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_registration_load (NbCampaign *campaign, NbRigidTransform *tf, gboolean *found,
                      GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *json = nb_campaign_get_field (campaign, "instrument.registration_transform",
                                                 &local);

  *found = FALSE;
  *tf = (NbRigidTransform) { 2, { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, { 0, 0, 0 } };
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (json == NULL)
    return TRUE;
  if (!nb_rigid_transform_from_json (json, tf, error))
    {
      g_prefix_error (error, "%s: ", nb_campaign_get_path (campaign));
      return FALSE;
    }
  *found = TRUE;
  return TRUE;
}
