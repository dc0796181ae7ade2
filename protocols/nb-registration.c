#include "nb-registration.h"
#include "nb-record-words.h"

#include "nb-csv-reader.h"
#include "nb-error.h"

#include <string.h>

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
      !nb_campaign_log (campaign, NB_EVENT_REGISTRATION, "instrument", NULL, log, error) ||
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

void
nb_reference_point_clear (NbReferencePoint *p)
{
  g_clear_pointer (&p->name, g_free);
}

GArray *
nb_reference_points_read (const char *path, guint dim, GError **error)
{
  g_autoptr (NbCsvReader) r = NULL;
  g_autoptr (GArray) points = g_array_new (FALSE, TRUE, sizeof (NbReferencePoint));
  NbCsvColumn cols[] = { { "point", TRUE }, { "instrument_x_mm", TRUE },
                         { "instrument_y_mm", TRUE }, { "instrument_z_mm", FALSE },
                         { "reference_x_mm", TRUE }, { "reference_y_mm", TRUE },
                         { "reference_z_mm", FALSE } };
  int rc;

  g_array_set_clear_func (points, (GDestroyNotify) nb_reference_point_clear);
  if (dim != 2 && dim != 3)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: a survey is 2-D or 3-D, not %u-D",
                   path, dim);
      return NULL;
    }
  if ((r = nb_csv_reader_new_for_path (path, error)) == NULL ||
      !nb_csv_reader_read_header (r, cols, G_N_ELEMENTS (cols), error))
    return NULL;
  if (dim == 3 && (cols[3].index < 0 || cols[6].index < 0))
    {
      nb_csv_reader_set_error (r, error, "--dim 3 needs instrument_z_mm and reference_z_mm");
      return NULL;
    }
  while ((rc = nb_csv_reader_next (r, error)) > 0)
    {
      NbReferencePoint p = { NULL, { 0, 0, 0 }, { 0, 0, 0 } };
      const char *name = nb_csv_reader_get_text (r, &cols[0], error);

      if (name == NULL ||
          !nb_csv_reader_get_double (r, &cols[1], &p.instrument_m[0], error) ||
          !nb_csv_reader_get_double (r, &cols[2], &p.instrument_m[1], error) ||
          (dim == 3 && !nb_csv_reader_get_double (r, &cols[3], &p.instrument_m[2], error)) ||
          !nb_csv_reader_get_double (r, &cols[4], &p.reference_m[0], error) ||
          !nb_csv_reader_get_double (r, &cols[5], &p.reference_m[1], error) ||
          (dim == 3 && !nb_csv_reader_get_double (r, &cols[6], &p.reference_m[2], error)))
        return NULL;
      for (int k = 0; k < 3; k++)
        p.instrument_m[k] /= MM_PER_M, p.reference_m[k] /= MM_PER_M;
      p.name = g_strdup (name);
      g_array_append_val (points, p);
    }
  if (rc < 0)
    return NULL;
  return g_steal_pointer (&points);
}

gboolean
nb_registration_fit (const NbReferencePoint *points, guint n, guint dim, const char *source,
                     NbRegistrationFit *fit, GError **error)
{
  g_autofree double *inst_buf = g_new0 (double, 3 * MAX (n, 1));
  double (*inst)[3] = (double (*)[3]) inst_buf, (*ref)[3];

  memset (fit, 0, sizeof *fit);
  fit->names = g_ptr_array_new_with_free_func (g_free);
  fit->residuals_m = g_new0 (double, MAX (n, 1));
  fit->source = g_strdup (source);
  fit->reference_m = ref = (double (*)[3]) g_new0 (double, 3 * MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      memcpy (inst[i], points[i].instrument_m, sizeof inst[i]);
      memcpy (ref[i], points[i].reference_m, sizeof ref[i]);
      g_ptr_array_add (fit->names, g_strdup (points[i].name));
    }
  if (!nb_register_rigid ((const double (*)[3]) inst, (const double (*)[3]) ref, n, dim,
                          &fit->registration.transform, fit->residuals_m,
                          &fit->registration.rms_m, error))
    {
      nb_registration_fit_clear (fit);
      return FALSE;
    }
  fit->registration.n_points = n;
  fit->registration.names = (const char *const *) fit->names->pdata;
  fit->registration.residuals_m = fit->residuals_m;
  fit->registration.source = fit->source;
  fit->registration.reference_m = (const double (*)[3]) fit->reference_m;
  return TRUE;
}

void
nb_registration_fit_clear (NbRegistrationFit *fit)
{
  g_clear_pointer (&fit->names, g_ptr_array_unref);
  g_clear_pointer (&fit->residuals_m, g_free);
  g_clear_pointer (&fit->source, g_free);
  g_clear_pointer (&fit->reference_m, g_free);
  memset (&fit->registration, 0, sizeof fit->registration);
}
