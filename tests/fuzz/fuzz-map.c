/* libFuzzer target: the map_server reader (YAML + PGM/PNG) and the corner
 * extraction on what it reads.  Input: the YAML text, a NUL byte, the image
 * bytes (written as m.pgm and m.png beside the YAML, so either name works).
 * Run it with -malloc_limit_mb=512 -timeout=5: an image decoded beyond the
 * size its header may declare (a 439 KB PNG asked for 2 GB) or YAML nesting
 * read in quadratic time (#21) fails the run. */
#include "nb-map-file.h"

#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
put (const char *path, const void *bytes, size_t n)
{
  FILE *f = fopen (path, "wb");

  g_assert (f != NULL);
  g_assert (fwrite (bytes, 1, n, f) == n);
  g_assert (fclose (f) == 0);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static char *dir, *yaml, *pgm, *png;
  const uint8_t *nul = memchr (data, 0, size);
  size_t ylen = nul ? (size_t) (nul - data) : size;
  GError *error = NULL;
  NbMap *map;

  if (dir == NULL)
    {
      dir = g_strdup_printf ("%s/nb-fuzz-map-%d", g_get_tmp_dir (), (int) getpid ());
      g_mkdir_with_parents (dir, 0700);
      yaml = g_build_filename (dir, "m.yaml", NULL);
      pgm = g_build_filename (dir, "m.pgm", NULL);
      png = g_build_filename (dir, "m.png", NULL);
    }
  put (yaml, data, ylen);
  put (pgm, nul ? nul + 1 : data, nul ? size - ylen - 1 : 0);
  put (png, nul ? nul + 1 : data, nul ? size - ylen - 1 : 0);

  map = nb_map_read (yaml, &error);
  g_assert ((map == NULL) == (error != NULL));
  if (map == NULL)
    {
      g_error_free (error);
      return 0;
    }
  /* The corner extraction on small maps (a large one is only slow). */
  if ((guint64) map->width * map->height <= 250000)
    {
      NbMapFit *fit = nb_map_fit (map, NULL, &error);

      if (fit)
        nb_map_fit_free (fit);
      else
        g_error_free (error);
    }
  nb_map_free (map);
  return 0;
}
