/* libFuzzer target: every measurement-table reader of drivers/file on
 * arbitrary file contents (written to a private temporary file). */
#include "nb-measurements.h"

#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static gboolean
sample (const char *trial, gboolean new_run, guint64 line, double x, double y, double t,
        gpointer user_data, GError **error)
{
  (*(guint64 *) user_data)++;
  g_assert (trial != NULL && g_utf8_validate (trial, -1, NULL) && line >= 1);
  return TRUE;
}

static void
check (GArray *rows, GError *error)
{
  g_assert ((rows == NULL) == (error != NULL));
  if (rows)
    g_array_unref (rows);
  if (error)
    g_error_free (error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static char *path;
  GError *error = NULL;
  guint64 samples = 0;
  double corners[4][2];

  if (path == NULL)
    path = g_strdup_printf ("%s/nb-fuzz-%d.csv", g_get_tmp_dir (), (int) getpid ());
  {
    /* Not g_file_set_contents: its fsync would make this 50 execs/s. */
    FILE *f = fopen (path, "wb");

    g_assert (f != NULL);
    g_assert (fwrite (data, 1, size, f) == size);
    g_assert (fclose (f) == 0);
  }

  /* Each reader's result is taken before its error is read: in one call's
   * arguments their order of evaluation is unspecified (GCC reads the
   * error first, so check would see NULL beside a failed read). */
  {
    GArray *(*const readers[]) (const char *, GError **) = {
      nb_measurements_read_poses, nb_measurements_read_detection,
      nb_measurements_read_avoidance, nb_measurements_read_passage,
      nb_measurements_read_map_corners,
    };

    for (gsize i = 0; i < G_N_ELEMENTS (readers); i++)
      {
        GArray *rows = readers[i] (path, &error);

        check (rows, error);
        error = NULL;
      }
  }
  if (!nb_measurements_read_path (path, sample, &samples, &error))
    g_clear_error (&error);
  if (!nb_measurements_read_truth_corners (path, corners, &error))
    g_clear_error (&error);
  return 0;
}
