/* nb-register.c — rigid frame registration (see nb-register.h) */
#include "nb-register.h"

#include "nb-error.h"
#include "nb-json-load.h"
#include "nb-json-writer.h"

#include <json-glib/json-glib.h>

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <string.h>

gboolean
nb_register_rigid (const double (*p)[3], const double (*q)[3], guint n, guint dim,
                   NbRigidTransform *out, double *residuals_m, double *rms_m, GError **error)
{
  double pc[3] = { 0 }, qc[3] = { 0 }, h[3][3] = { { 0 } }, d, sum2 = 0.0, scale = 0.0;
  gsl_matrix *u = NULL, *v = NULL;
  gsl_vector *s = NULL, *work = NULL;
  int status;
  gboolean ok = FALSE;

  if (dim != 2 && dim != 3)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "registration is 2-D or 3-D, not %u-D", dim);
      return FALSE;
    }
  if (n < 3)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "registration needs at least 3 reference points, got %u", n);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < dim; k++)
      {
        if (!isfinite (p[i][k]) || !isfinite (q[i][k]))
          {
            g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                         "reference point %u: coordinate %u is not finite", i + 1, k + 1);
            return FALSE;
          }
        pc[k] += p[i][k] / n;
        qc[k] += q[i][k] / n;
      }
  /* Cross-covariance H = Σ (p − p̄)(q − q̄)ᵀ. */
  for (guint i = 0; i < n; i++)
    for (guint a = 0; a < dim; a++)
      {
        scale = MAX (scale, fabs (p[i][a] - pc[a]));
        for (guint b = 0; b < dim; b++)
          h[a][b] += (p[i][a] - pc[a]) * (q[i][b] - qc[b]);
      }

  u = gsl_matrix_alloc (dim, dim);
  v = gsl_matrix_alloc (dim, dim);
  s = gsl_vector_alloc (dim);
  work = gsl_vector_alloc (dim);
  for (guint a = 0; a < dim; a++)
    for (guint b = 0; b < dim; b++)
      gsl_matrix_set (u, a, b, h[a][b]);
  /* H = U S Vᵀ (U overwrites the input). */
  status = gsl_linalg_SV_decomp (u, v, s, work);
  if (status != 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "registration: SVD failed (GSL status %d)",
                   status);
      goto out;
    }
  /* The points must span the space: in 3-D two singular values must be
   * clearly non-zero (collinear points leave a rotation free); in 2-D one. */
  if (scale == 0.0 || gsl_vector_get (s, dim == 3 ? 1 : 0) <= 1e-12 * gsl_vector_get (s, 0) ||
      gsl_vector_get (s, 0) <= 1e-24 * scale * scale)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "registration: the reference points are %s", dim == 3 ? "collinear or coincident"
                                                                         : "coincident");
      goto out;
    }
  /* R = V diag(1, …, det(V Uᵀ)) Uᵀ: a proper rotation even when the best
   * orthogonal fit would be a reflection. */
  {
    double vu[3][3] = { { 0 } };

    for (guint a = 0; a < dim; a++)
      for (guint b = 0; b < dim; b++)
        for (guint k = 0; k < dim; k++)
          vu[a][b] += gsl_matrix_get (v, a, k) * gsl_matrix_get (u, b, k);
    d = dim == 3 ? vu[0][0] * (vu[1][1] * vu[2][2] - vu[1][2] * vu[2][1])
                   - vu[0][1] * (vu[1][0] * vu[2][2] - vu[1][2] * vu[2][0])
                   + vu[0][2] * (vu[1][0] * vu[2][1] - vu[1][1] * vu[2][0])
                 : vu[0][0] * vu[1][1] - vu[0][1] * vu[1][0];
  }
  memset (out, 0, sizeof *out);
  out->dim = dim;
  for (guint a = 0; a < 3; a++)
    out->r[a][a] = 1.0;
  for (guint a = 0; a < dim; a++)
    for (guint b = 0; b < dim; b++)
      {
        double r = 0.0;

        for (guint k = 0; k < dim; k++)
          r += gsl_matrix_get (v, a, k) * (k == dim - 1 && d < 0 ? -1.0 : 1.0) *
               gsl_matrix_get (u, b, k);
        out->r[a][b] = r;
      }
  for (guint a = 0; a < dim; a++)
    {
      out->t[a] = qc[a];
      for (guint b = 0; b < dim; b++)
        out->t[a] -= out->r[a][b] * pc[b];
    }
  for (guint i = 0; i < n; i++)
    {
      double m[3], in[3] = { p[i][0], p[i][1], dim == 3 ? p[i][2] : 0.0 }, e2 = 0.0;

      nb_rigid_apply (out, in, m);
      for (guint k = 0; k < dim; k++)
        e2 += (m[k] - q[i][k]) * (m[k] - q[i][k]);
      if (residuals_m != NULL)
        residuals_m[i] = sqrt (e2);
      sum2 += e2;
    }
  if (rms_m != NULL)
    *rms_m = sqrt (sum2 / n);
  ok = TRUE;

out:
  gsl_matrix_free (u);
  gsl_matrix_free (v);
  gsl_vector_free (s);
  gsl_vector_free (work);
  return ok;
}

void
nb_rigid_apply (const NbRigidTransform *t, const double in[3], double out[3])
{
  for (guint a = 0; a < 3; a++)
    out[a] = t->r[a][0] * in[0] + t->r[a][1] * in[1] + t->r[a][2] * in[2] + t->t[a];
}

double
nb_rigid_yaw_deg (const NbRigidTransform *t)
{
  return atan2 (t->r[1][0], t->r[0][0]) * 180.0 / G_PI;
}

void
nb_marker_to_reference (const double target[3], const double *q, double heading_deg,
                        const double offset[3], double out[3])
{
  double r[3][3];

  if (q != NULL)
    {
      double w = q[0], x = q[1], y = q[2], z = q[3];

      r[0][0] = 1 - 2 * (y * y + z * z); r[0][1] = 2 * (x * y - w * z); r[0][2] = 2 * (x * z + w * y);
      r[1][0] = 2 * (x * y + w * z); r[1][1] = 1 - 2 * (x * x + z * z); r[1][2] = 2 * (y * z - w * x);
      r[2][0] = 2 * (x * z - w * y); r[2][1] = 2 * (y * z + w * x); r[2][2] = 1 - 2 * (x * x + y * y);
    }
  else
    {
      double c = cos (heading_deg * G_PI / 180.0), s = sin (heading_deg * G_PI / 180.0);

      r[0][0] = c; r[0][1] = -s; r[0][2] = 0;
      r[1][0] = s; r[1][1] = c;  r[1][2] = 0;
      r[2][0] = 0; r[2][1] = 0;  r[2][2] = 1;
    }
  for (guint a = 0; a < 3; a++)
    out[a] = target[a] + r[a][0] * offset[0] + r[a][1] * offset[1] + r[a][2] * offset[2];
}

/* ------------------------------------------------- as the campaign keeps it -- */

#define MM_PER_M 1000.0

char *
nb_rigid_transform_to_json (const NbRigidTransform *tf)
{
  g_autoptr (GString) out = g_string_new (NULL);
  char buf[32];

  /* One line, as `campaign info` shows a field. */
  g_string_append_printf (out, "{\"dim\": %u, \"r\": [", tf->dim);
  for (guint i = 0; i < 3; i++)
    {
      g_string_append (out, i ? ", [" : "[");
      for (guint j = 0; j < 3; j++)
        g_string_append_printf (out, "%s%s", j ? ", " : "",
                                nb_json_format_double (buf, sizeof buf, tf->r[i][j]));
      g_string_append_c (out, ']');
    }
  g_string_append (out, "], \"t_mm\": [");
  for (guint i = 0; i < 3; i++)
    g_string_append_printf (out, "%s%s", i ? ", " : "",
                            nb_json_format_double (buf, sizeof buf, tf->t[i] * MM_PER_M));
  g_string_append (out, "]}");
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static gboolean
json_number (JsonNode *node, double *out)
{
  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return FALSE;
  if (json_node_get_value_type (node) != G_TYPE_DOUBLE &&
      json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *out = json_node_get_double (node);
  return isfinite (*out);
}

gboolean
nb_rigid_transform_from_json (const char *json, NbRigidTransform *tf, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *obj;
  JsonArray *rows, *t;
  double dim;

  memset (tf, 0, sizeof *tf);
  if (json == NULL || !nb_json_load (parser, NULL, json, -1, NULL) ||
      json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    goto bad;
  obj = json_node_get_object (json_parser_get_root (parser));
  if (!json_number (json_object_get_member (obj, "dim"), &dim) || (dim != 2 && dim != 3) ||
      !json_object_has_member (obj, "r") || !json_object_has_member (obj, "t_mm") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (obj, "r")) ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (obj, "t_mm")))
    goto bad;
  rows = json_object_get_array_member (obj, "r");
  t = json_object_get_array_member (obj, "t_mm");
  if (json_array_get_length (rows) != 3 || json_array_get_length (t) != 3)
    goto bad;
  tf->dim = (guint) dim;
  for (guint i = 0; i < 3; i++)
    {
      JsonNode *row = json_array_get_element (rows, i);

      if (!JSON_NODE_HOLDS_ARRAY (row) || json_array_get_length (json_node_get_array (row)) != 3 ||
          !json_number (json_array_get_element (t, i), &tf->t[i]))
        goto bad;
      tf->t[i] /= MM_PER_M;
      for (guint j = 0; j < 3; j++)
        if (!json_number (json_array_get_element (json_node_get_array (row), j), &tf->r[i][j]))
          goto bad;
    }
  return TRUE;

bad:
  memset (tf, 0, sizeof *tf);
  g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "instrument.registration_transform: not "
               "{\"dim\": 2|3, \"r\": 3×3 numbers, \"t_mm\": 3 numbers} (campaign register "
               "writes it)");
  return FALSE;
}
