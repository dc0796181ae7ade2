/* _DEFAULT_SOURCE: beyond POSIX (the huge-page hint is nb-memory.c's now). */
#define _DEFAULT_SOURCE 1

#include "nb-measurements.h"
#include "nb-memory.h"

#include "nb-csv-reader.h"
#include "nb-error.h"

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <string.h>

static NbCsvReader *
open_table (const char *path, NbCsvColumn *columns, guint n_columns, GError **error)
{
  g_autoptr (NbCsvReader) reader = nb_csv_reader_new_for_path (path, error);

  if (reader == NULL || !nb_csv_reader_read_header (reader, columns, n_columns, error))
    return NULL;
  return g_steal_pointer (&reader);
}

/* ------------------------------------------------------------------ 5 -- */

GArray *
nb_measurements_read_poses (const char *path, GError **error)
{
  NbCsvColumn cols[] = { { "x_mm", TRUE }, { "y_mm", TRUE }, { "theta_deg", TRUE } };
  g_autoptr (NbCsvReader) reader = open_table (path, cols, G_N_ELEMENTS (cols), error);
  g_autoptr (GArray) poses = NULL;
  guint reserve = 1024, n = 0;
  GStatBuf st;
  int rc;

  if (reader == NULL)
    return NULL;
  /* Room for every row at once: growing a million-pose array by doubling
   * costs more in copies and page faults than parsing it.  A row is at least
   * 6 bytes ("1,2,3\n"); untouched reserve is only address space. */
  if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
    reserve = (guint) MIN ((guint64) st.st_size / 6 + 1, 1u << 26);
  poses = g_array_sized_new (FALSE, FALSE, sizeof (NbPose), reserve);
  nb_advise_huge_pages (poses->data, (gsize) reserve * sizeof (NbPose));
  /* Filled in place, the length set once at the end (g_array_append_val
   * was a sixth of the time: a call, a size check and a copy per row). */
  g_array_set_size (poses, reserve);
  while ((rc = nb_csv_reader_next (reader, error)) > 0)
    {
      double v[3];

      if (!nb_csv_reader_get_doubles (reader, cols, 3, v, error))
        return NULL;
      if (G_UNLIKELY (n == poses->len))
        g_array_set_size (poses, 2 * poses->len);
      g_array_index (poses, NbPose, n++) = (NbPose) { v[0], v[1], v[2] };
    }
  if (rc < 0)
    return NULL;
  g_array_set_size (poses, n);
  if (poses->len < 2)
    {
      nb_csv_reader_set_error (reader, error,
                               "%u attained pose%s: pose repeatability needs at least 2 (5.2.2)",
                               poses->len, poses->len == 1 ? "" : "s");
      return NULL;
    }
  return g_steal_pointer (&poses);
}

/* ------------------------------------------------------------------ 8 -- */

gboolean
nb_measurements_read_path (const char *path, NbPathSampleFunc func, gpointer user_data,
                           GError **error)
{
  NbCsvColumn cols[] = { { "trial", TRUE }, { "x_mm", TRUE }, { "y_mm", TRUE }, { "t_s", FALSE } };
  g_autoptr (NbCsvReader) reader = open_table (path, cols, G_N_ELEMENTS (cols), error);
  g_autofree char *trial = NULL;
  gsize trial_len = 0;
  double last_t = -INFINITY;
  guint64 samples = 0;
  int rc;

  if (reader == NULL)
    return FALSE;
  while ((rc = nb_csv_reader_next (reader, error)) > 0)
    {
      gsize len;
      const char *label = nb_csv_reader_field (reader, &cols[0], &len);
      double xy[2], x, y, t = NAN;
      gboolean new_run = FALSE;

      /* The hot path: the same trial as the row before, compared raw;
       * a new label is trimmed and validated once. */
      if (trial == NULL || len != trial_len || memcmp (label, trial, len) != 0)
        {
          const char *valid = nb_csv_reader_get_text (reader, &cols[0], error);

          if (valid == NULL)
            return FALSE;
          g_free (trial);
          trial = g_strdup (valid);
          /* Compare later rows against the raw field when it had no
           * surrounding spaces; otherwise every row takes this branch. */
          trial_len = strlen (trial);
          last_t = -INFINITY;
          new_run = TRUE;
        }
      if (!nb_csv_reader_get_doubles (reader, &cols[1], 2, xy, error))
        return FALSE;
      x = xy[0], y = xy[1];
      if (cols[3].index >= 0)
        {
          gboolean present;

          if (!nb_csv_reader_get_double_or_empty (reader, &cols[3], &t, &present, error))
            return FALSE;
          if (!present)
            t = NAN;
          else if (t < last_t)
            {
              nb_csv_reader_set_error (reader, error,
                                       "trial '%s': t_s goes back in time (%g s after %g s)",
                                       trial, t, last_t);
              return FALSE;
            }
          else
            last_t = t;
        }
      /* The callback's errors are about this row. */
      if (!func (trial, new_run, nb_csv_reader_line (reader), x, y, t, user_data, error))
        {
          g_prefix_error (error, "%s:%" G_GUINT64_FORMAT ": ", nb_csv_reader_name (reader),
                          nb_csv_reader_line (reader));
          return FALSE;
        }
      samples++;
    }
  if (rc < 0)
    return FALSE;
  if (samples == 0)
    {
      nb_csv_reader_set_error (reader, error, "no samples: path deviation needs at least one trial");
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ 6 -- */

static void
placement_clear (gpointer p)
{
  g_free (((NbPlacement *) p)->obstacle);
}

GArray *
nb_measurements_read_detection (const char *path, GError **error)
{
  NbCsvColumn cols[] = { { "obstacle", TRUE }, { "angle_deg", TRUE }, { "range", TRUE },
                         { "true_mm", TRUE }, { "measured_mm", TRUE }, { "detected", TRUE } };
  g_autoptr (NbCsvReader) reader = open_table (path, cols, G_N_ELEMENTS (cols), error);
  g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (NbPlacement));
  g_autoptr (GHashTable) placed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int rc;

  if (reader == NULL)
    return NULL;
  g_array_set_clear_func (rows, placement_clear);
  while ((rc = nb_csv_reader_next (reader, error)) > 0)
    {
      const char *name, *range;
      NbPlacement p = { NULL };
      gboolean present;
      char *key;

      if ((name = nb_csv_reader_get_text (reader, &cols[0], error)) == NULL ||
          !nb_csv_reader_get_double (reader, &cols[1], &p.angle_deg, error) ||
          (range = nb_csv_reader_get_text (reader, &cols[2], error)) == NULL ||
          !nb_csv_reader_get_double (reader, &cols[3], &p.true_mm, error) ||
          !nb_csv_reader_get_double_or_empty (reader, &cols[4], &p.measured_mm, &present, error) ||
          !nb_csv_reader_get_flag (reader, &cols[5], &p.detected, error))
        return NULL;
      if (!g_str_equal (range, "min") && !g_str_equal (range, "max"))
        {
          nb_csv_reader_set_error (reader, error, "range '%s': expected min or max", range);
          return NULL;
        }
      p.max_range = g_str_equal (range, "max");
      if (!(p.true_mm > 0.0))
        {
          nb_csv_reader_set_error (reader, error, "true_mm must be positive, got %g", p.true_mm);
          return NULL;
        }
      if (p.detected && !present)
        {
          nb_csv_reader_set_error (reader, error, "detected, but measured_mm is empty");
          return NULL;
        }
      if (!p.detected && present)
        {
          nb_csv_reader_set_error (reader, error,
                                   "not detected, yet measured_mm is %g: leave it empty or set "
                                   "detected to 1", p.measured_mm);
          return NULL;
        }
      if (p.detected && p.measured_mm < 0.0)
        {
          nb_csv_reader_set_error (reader, error, "measured_mm must not be negative, got %g",
                                   p.measured_mm);
          return NULL;
        }
      if (!present)
        p.measured_mm = NAN;
      /* 6.3: each obstacle once per direction and range. */
      key = g_strdup_printf ("%s\x1f%.6f\x1f%s", name,
                             fmod (fmod (p.angle_deg, 360.0) + 360.0, 360.0), range);
      if (!g_hash_table_add (placed, key))
        {
          nb_csv_reader_set_error (reader, error,
                                   "obstacle '%s' at %g° and %s range is placed twice", name,
                                   p.angle_deg, range);
          return NULL;
        }
      p.obstacle = g_strdup (name);
      p.line = nb_csv_reader_line (reader);
      g_array_append_val (rows, p);
    }
  if (rc < 0)
    return NULL;
  if (rows->len == 0)
    {
      nb_csv_reader_set_error (reader, error, "no placements in the file");
      return NULL;
    }
  return g_steal_pointer (&rows);
}

/* --------------------------------------------------------------- 7, 9 -- */

static void
timed_row_clear (gpointer p)
{
  g_free (((NbTimedRow *) p)->config);
}

/* An optional pose of a timed row (columns x, y, theta from cols[0]): NaN
 * when its cells are empty or absent; x and y come together. */
static gboolean
read_optional_pose (NbCsvReader *reader, NbCsvColumn *cols, NbPose *pose, GError **error)
{
  gboolean has_x, has_y, has_theta;

  *pose = (NbPose) { NAN, NAN, NAN };
  if (!nb_csv_reader_get_double_or_empty (reader, &cols[0], &pose->x_mm, &has_x, error) ||
      !nb_csv_reader_get_double_or_empty (reader, &cols[1], &pose->y_mm, &has_y, error) ||
      !nb_csv_reader_get_double_or_empty (reader, &cols[2], &pose->theta_deg, &has_theta, error))
    return FALSE;
  if (has_x != has_y || (has_theta && !has_x))
    {
      nb_csv_reader_set_error (reader, error, "%s, %s%s%s: give the position's x and y "
                               "together (or leave them all empty: not measured)",
                               cols[0].name, cols[1].name, has_theta ? ", " : "",
                               has_theta ? cols[2].name : "");
      return FALSE;
    }
  if (!has_x)
    pose->x_mm = pose->y_mm = NAN;
  if (!has_theta)
    pose->theta_deg = NAN;
  return TRUE;
}

/* kind: read the clause 7 kind column (baseline|obstacle). */
static GArray *
read_timed (const char *path, gboolean kind, GError **error)
{
  /* The required columns first, then the optional ones of a run's
   * measurements (NbTimedRow), then kind (absent from clause 9's table). */
  NbCsvColumn cols[] = { { "config", TRUE }, { "trial", TRUE }, { "time_s", TRUE },
                         { "success", TRUE }, { "clearance_mm", FALSE },
                         { "start_x_mm", FALSE }, { "start_y_mm", FALSE },
                         { "start_theta_deg", FALSE }, { "attained_x_mm", FALSE },
                         { "attained_y_mm", FALSE }, { "attained_theta_deg", FALSE },
                         { "kind", kind } };
  g_autoptr (NbCsvReader) reader = open_table (path, cols, kind ? 12 : 11, error);
  g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (NbTimedRow));
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int rc;

  if (reader == NULL)
    return NULL;
  g_array_set_clear_func (rows, timed_row_clear);
  while ((rc = nb_csv_reader_next (reader, error)) > 0)
    {
      const char *name, *kind_text = "";
      NbTimedRow row = { NULL };
      gboolean present, present_c;
      gpointer first_line;
      char *key;

      if ((name = nb_csv_reader_get_text (reader, &cols[0], error)) == NULL ||
          !nb_csv_reader_get_uint (reader, &cols[1], &row.trial.trial, error) ||
          !nb_csv_reader_get_double_or_empty (reader, &cols[2], &row.trial.time_s, &present, error) ||
          !nb_csv_reader_get_flag (reader, &cols[3], &row.trial.success, error) ||
          !nb_csv_reader_get_double_or_empty (reader, &cols[4], &row.clearance_mm, &present_c,
                                              error) ||
          !read_optional_pose (reader, &cols[5], &row.start, error) ||
          !read_optional_pose (reader, &cols[8], &row.attained, error) ||
          (kind && (kind_text = nb_csv_reader_get_text (reader, &cols[11], error)) == NULL))
        return NULL;
      if (!present_c)
        row.clearance_mm = NAN;
      /* 7.3, 9.3: a contact fails the trial. */
      else if (row.trial.success && row.clearance_mm <= 0.0)
        {
          nb_csv_reader_set_error (reader, error, "a successful trial with clearance_mm %g: a "
                                   "contact (clearance ≤ 0 mm) fails the trial (7.3, 9.3)",
                                   row.clearance_mm);
          return NULL;
        }
      if (kind && !g_str_equal (kind_text, "baseline") && !g_str_equal (kind_text, "obstacle"))
        {
          nb_csv_reader_set_error (reader, error, "kind '%s': expected baseline or obstacle",
                                   kind_text);
          return NULL;
        }
      row.baseline = kind && g_str_equal (kind_text, "baseline");
      if (!present)
        row.trial.time_s = NAN;
      if (row.trial.success && !(present && row.trial.time_s > 0.0))
        {
          nb_csv_reader_set_error (reader, error, "a successful trial needs a positive time_s%s",
                                   present ? "" : " (it is empty)");
          return NULL;
        }
      if (present && !(row.trial.time_s >= 0.0))
        {
          nb_csv_reader_set_error (reader, error, "time_s must not be negative, got %g",
                                   row.trial.time_s);
          return NULL;
        }
      key = g_strdup_printf ("%s\x1f%s\x1f%u", name, kind_text, row.trial.trial);
      if (g_hash_table_lookup_extended (seen, key, NULL, &first_line))
        {
          nb_csv_reader_set_error (reader, error,
                                   "config '%s': %s%strial %u is given twice (first on line %u)",
                                   name, kind_text, kind ? " " : "", row.trial.trial,
                                   GPOINTER_TO_UINT (first_line));
          g_free (key);
          return NULL;
        }
      g_hash_table_insert (seen, key, GUINT_TO_POINTER ((guint) nb_csv_reader_line (reader)));
      row.config = g_strdup (name);
      row.line = nb_csv_reader_line (reader);
      g_array_append_val (rows, row);
    }
  if (rc < 0)
    return NULL;
  if (rows->len == 0)
    {
      nb_csv_reader_set_error (reader, error, "no trials in the file");
      return NULL;
    }
  return g_steal_pointer (&rows);
}

GArray *
nb_measurements_read_avoidance (const char *path, GError **error)
{
  return read_timed (path, TRUE, error);
}

GArray *
nb_measurements_read_passage (const char *path, GError **error)
{
  return read_timed (path, FALSE, error);
}

/* ----------------------------------------------------------------- 10 -- */

static guint
count_corners (guint seen)
{
  return (seen & 1) + ((seen >> 1) & 1) + ((seen >> 2) & 1) + ((seen >> 3) & 1);
}

/* corner: 1..4, each once per group (what names the group in messages). */
static gboolean
read_corner (NbCsvReader *reader, NbCsvColumn *col, const char *what, guint seen, guint *corner,
             GError **error)
{
  if (!nb_csv_reader_get_uint (reader, col, corner, error))
    return FALSE;
  if (*corner < 1 || *corner > 4)
    {
      nb_csv_reader_set_error (reader, error, "corner %u: corners are numbered 1 to 4", *corner);
      return FALSE;
    }
  if (seen & (1u << (*corner - 1)))
    {
      nb_csv_reader_set_error (reader, error, "%scorner %u is given twice", what, *corner);
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_measurements_read_truth_corners (const char *path, double corner_mm[4][2], GError **error)
{
  NbCsvColumn cols[] = { { "corner", TRUE }, { "x_mm", TRUE }, { "y_mm", TRUE } };
  g_autoptr (NbCsvReader) reader = open_table (path, cols, G_N_ELEMENTS (cols), error);
  guint seen = 0, corner;
  int rc;

  if (reader == NULL)
    return FALSE;
  while ((rc = nb_csv_reader_next (reader, error)) > 0)
    {
      if (!read_corner (reader, &cols[0], "", seen, &corner, error) ||
          !nb_csv_reader_get_double (reader, &cols[1], &corner_mm[corner - 1][0], error) ||
          !nb_csv_reader_get_double (reader, &cols[2], &corner_mm[corner - 1][1], error))
        return FALSE;
      seen |= 1u << (corner - 1);
    }
  if (rc < 0)
    return FALSE;
  if (seen != 0xF)
    {
      nb_csv_reader_set_error (reader, error,
                               "the arena needs all four corners A_1..A_4; %u given",
                               count_corners (seen));
      return FALSE;
    }
  return TRUE;
}

typedef struct {
  NbMapCorners c;
  guint seen;
} MapTrial;

static int
compare_map_trial (gconstpointer a, gconstpointer b)
{
  const NbMapCorners *ta = a, *tb = b;

  return (ta->trial > tb->trial) - (ta->trial < tb->trial);
}

GArray *
nb_measurements_read_map_corners (const char *path, GError **error)
{
  NbCsvColumn cols[] = { { "trial", TRUE }, { "corner", TRUE }, { "x_mm", TRUE }, { "y_mm", TRUE } };
  g_autoptr (NbCsvReader) reader = open_table (path, cols, G_N_ELEMENTS (cols), error);
  g_autoptr (GArray) trials = g_array_new (FALSE, FALSE, sizeof (MapTrial));
  g_autoptr (GHashTable) index = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) out = NULL;
  int rc;

  if (reader == NULL)
    return NULL;
  while ((rc = nb_csv_reader_next (reader, error)) > 0)
    {
      guint trial, corner;
      gpointer found;
      MapTrial *t;

      if (!nb_csv_reader_get_uint (reader, &cols[0], &trial, error))
        return NULL;
      if (g_hash_table_lookup_extended (index, GUINT_TO_POINTER (trial), NULL, &found))
        t = &g_array_index (trials, MapTrial, GPOINTER_TO_UINT (found));
      else
        {
          MapTrial fresh = { { trial, { { 0 } }, nb_csv_reader_line (reader) }, 0 };

          g_array_append_val (trials, fresh);
          g_hash_table_insert (index, GUINT_TO_POINTER (trial), GUINT_TO_POINTER (trials->len - 1));
          t = &g_array_index (trials, MapTrial, trials->len - 1);
        }
      g_autofree char *what = g_strdup_printf ("trial %u: ", trial);

      if (!read_corner (reader, &cols[1], what, t->seen, &corner, error) ||
          !nb_csv_reader_get_double (reader, &cols[2], &t->c.corner_mm[corner - 1][0], error) ||
          !nb_csv_reader_get_double (reader, &cols[3], &t->c.corner_mm[corner - 1][1], error))
        return NULL;
      t->seen |= 1u << (corner - 1);
    }
  if (rc < 0)
    return NULL;
  if (trials->len == 0)
    {
      nb_csv_reader_set_error (reader, error, "no map corners: mapping accuracy needs a trial");
      return NULL;
    }
  out = g_array_sized_new (FALSE, FALSE, sizeof (NbMapCorners), trials->len);
  for (guint i = 0; i < trials->len; i++)
    {
      MapTrial *t = &g_array_index (trials, MapTrial, i);

      if (t->seen != 0xF)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                       "%s:%" G_GUINT64_FORMAT ": trial %u gives %u of the four map corners",
                       nb_csv_reader_name (reader), t->c.line, t->c.trial, count_corners (t->seen));
          return NULL;
        }
      g_array_append_val (out, t->c);
    }
  g_array_sort (out, compare_map_trial);
  return g_steal_pointer (&out);
}
