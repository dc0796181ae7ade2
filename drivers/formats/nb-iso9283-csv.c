#include "nb-iso9283-csv.h"

#include "nb-csv-reader.h"
#include "nb-error.h"

#include <string.h>

static NbCsvReader *
open_table (const char *path, NbCsvColumn *columns, guint n_columns, GError **error)
{
  g_autoptr (NbCsvReader) reader = nb_csv_reader_new_for_path (path, error);

  if (reader == NULL || !nb_csv_reader_read_header (reader, columns, n_columns, error))
    return NULL;
  return g_steal_pointer (&reader);
}

/* Six columns from cols[0..5] into a pose. */
static gboolean
get_pose (NbCsvReader *reader, NbCsvColumn *cols, NbPose6 *p, GError **error)
{
  return nb_csv_reader_get_double (reader, &cols[0], &p->x_mm, error) &&
         nb_csv_reader_get_double (reader, &cols[1], &p->y_mm, error) &&
         nb_csv_reader_get_double (reader, &cols[2], &p->z_mm, error) &&
         nb_csv_reader_get_double (reader, &cols[3], &p->a_deg, error) &&
         nb_csv_reader_get_double (reader, &cols[4], &p->b_deg, error) &&
         nb_csv_reader_get_double (reader, &cols[5], &p->c_deg, error);
}

GArray *
nb_iso9283_read_poses (const char *path, guint min_rows, GError **error)
{
  NbCsvColumn cols[] = { { "x_mm", TRUE }, { "y_mm", TRUE }, { "z_mm", TRUE },
                         { "a_deg", TRUE }, { "b_deg", TRUE }, { "c_deg", TRUE } };
  g_autoptr (NbCsvReader) reader = open_table (path, cols, G_N_ELEMENTS (cols), error);
  g_autoptr (GArray) poses = g_array_new (FALSE, FALSE, sizeof (NbPose6));
  int rc;

  if (reader == NULL)
    return NULL;
  while ((rc = nb_csv_reader_next (reader, error)) > 0)
    {
      NbPose6 p;

      if (!get_pose (reader, cols, &p, error))
        return NULL;
      g_array_append_val (poses, p);
    }
  if (rc < 0)
    return NULL;
  if (poses->len < min_rows)
    {
      nb_csv_reader_set_error (reader, error, "%u attained pose%s: ISO 9283 7.2 needs at least %u",
                               poses->len, poses->len == 1 ? "" : "s", min_rows);
      return NULL;
    }
  return g_steal_pointer (&poses);
}

gboolean
nb_iso9283_write_poses (const char *path, guint pose, guint cycles, const NbPose6 *c,
                        const GArray *attained, GError **error)
{
  g_autoptr (GString) s = g_string_new (NULL);

  g_string_append_printf (s, "# Name: ISO 9283 pose test, P%u, %u cycles\n"
                          "# Command: %.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n"
                          "cycle,x_mm,y_mm,z_mm,a_deg,b_deg,c_deg\n", pose, cycles,
                          c->x_mm, c->y_mm, c->z_mm, c->a_deg, c->b_deg, c->c_deg);
  for (guint j = 0; j < attained->len; j++)
    {
      const NbPose6 *p = &g_array_index (attained, NbPose6, j);

      g_string_append_printf (s, "%u,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", j + 1, p->x_mm,
                              p->y_mm, p->z_mm, p->a_deg, p->b_deg, p->c_deg);
    }
  return g_file_set_contents (path, s->str, (gssize) s->len, error);
}

gboolean
nb_iso9283_read_pairs (const char *path, GArray **first, GArray **second, GError **error)
{
  NbCsvColumn cols[] = {
    { "x1_mm", TRUE }, { "y1_mm", TRUE }, { "z1_mm", TRUE },
    { "a1_deg", TRUE }, { "b1_deg", TRUE }, { "c1_deg", TRUE },
    { "x2_mm", TRUE }, { "y2_mm", TRUE }, { "z2_mm", TRUE },
    { "a2_deg", TRUE }, { "b2_deg", TRUE }, { "c2_deg", TRUE },
  };
  g_autoptr (NbCsvReader) reader = open_table (path, cols, G_N_ELEMENTS (cols), error);
  g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (NbPose6));
  g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (NbPose6));
  int rc;

  if (reader == NULL)
    return FALSE;
  while ((rc = nb_csv_reader_next (reader, error)) > 0)
    {
      NbPose6 p, q;

      if (!get_pose (reader, cols, &p, error) || !get_pose (reader, cols + 6, &q, error))
        return FALSE;
      g_array_append_val (a, p);
      g_array_append_val (b, q);
    }
  if (rc < 0)
    return FALSE;
  if (a->len < 2)
    {
      nb_csv_reader_set_error (reader, error, "%u cycle%s: ISO 9283 7.4 needs at least 2",
                               a->len, a->len == 1 ? "" : "s");
      return FALSE;
    }
  *first = g_steal_pointer (&a);
  *second = g_steal_pointer (&b);
  return TRUE;
}

void
nb_iso9283_cycle_free (NbIso9283Cycle *c)
{
  if (c == NULL)
    return;
  g_free (c->cycle);
  g_clear_pointer (&c->t_s, g_array_unref);
  g_clear_pointer (&c->pose, g_array_unref);
  g_free (c);
}

GPtrArray *
nb_iso9283_read_tracks (const char *path, gboolean need_orientation, gboolean *has_orientation,
                        GError **error)
{
  NbCsvColumn cols[] = {
    { "cycle", TRUE }, { "t_s", TRUE }, { "x_mm", TRUE }, { "y_mm", TRUE }, { "z_mm", TRUE },
    { "a_deg", need_orientation }, { "b_deg", need_orientation }, { "c_deg", need_orientation },
  };
  g_autoptr (NbCsvReader) reader = open_table (path, cols, G_N_ELEMENTS (cols), error);
  g_autoptr (GPtrArray) cycles = g_ptr_array_new_with_free_func ((GDestroyNotify) nb_iso9283_cycle_free);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean orient;
  NbIso9283Cycle *cur = NULL;
  int rc;

  if (reader == NULL)
    return NULL;
  orient = cols[5].index >= 0 || cols[6].index >= 0 || cols[7].index >= 0;
  if (orient && !(cols[5].index >= 0 && cols[6].index >= 0 && cols[7].index >= 0))
    {
      nb_csv_reader_set_error (reader, error, "a_deg, b_deg and c_deg come together or not at all");
      return NULL;
    }
  while ((rc = nb_csv_reader_next (reader, error)) > 0)
    {
      const char *name = nb_csv_reader_get_text (reader, &cols[0], error);
      NbPose6 p = { 0 };
      double t;

      if (name == NULL ||
          !nb_csv_reader_get_double (reader, &cols[1], &t, error) ||
          !nb_csv_reader_get_double (reader, &cols[2], &p.x_mm, error) ||
          !nb_csv_reader_get_double (reader, &cols[3], &p.y_mm, error) ||
          !nb_csv_reader_get_double (reader, &cols[4], &p.z_mm, error) ||
          (orient && (!nb_csv_reader_get_double (reader, &cols[5], &p.a_deg, error) ||
                      !nb_csv_reader_get_double (reader, &cols[6], &p.b_deg, error) ||
                      !nb_csv_reader_get_double (reader, &cols[7], &p.c_deg, error))))
        return NULL;
      if (cur == NULL || strcmp (cur->cycle, name) != 0)
        {
          if (g_hash_table_contains (seen, name))
            {
              nb_csv_reader_set_error (reader, error,
                                       "cycle '%s' comes back after another: a cycle's rows "
                                       "go together", name);
              return NULL;
            }
          g_hash_table_add (seen, g_strdup (name));
          cur = g_new0 (NbIso9283Cycle, 1);
          cur->cycle = g_strdup (name);
          cur->line = nb_csv_reader_line (reader);
          cur->t_s = g_array_new (FALSE, FALSE, sizeof (double));
          cur->pose = g_array_new (FALSE, FALSE, sizeof (NbPose6));
          g_ptr_array_add (cycles, cur);
        }
      else if (t < g_array_index (cur->t_s, double, cur->t_s->len - 1))
        {
          nb_csv_reader_set_error (reader, error, "t_s %.9g goes back in time in cycle '%s'", t,
                                   name);
          return NULL;
        }
      g_array_append_val (cur->t_s, t);
      g_array_append_val (cur->pose, p);
    }
  if (rc < 0)
    return NULL;
  if (cycles->len == 0)
    {
      nb_csv_reader_set_error (reader, error, "no samples");
      return NULL;
    }
  if (has_orientation)
    *has_orientation = orient;
  return g_steal_pointer (&cycles);
}
