/* libFuzzer target: the csv (with a column mapping and units) and tum
 * replay drivers on arbitrary bytes.
 * Run: build-fuzz/tests/fuzz-replay tests/fuzz/corpus/replay */
#include "nb-driver.h"

#include <math.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
on_sample (const NbSample *s, gpointer user_data)
{
  g_assert (isfinite (s->x_m) && isfinite (s->y_m));
}

static void
on_note (const char *message, gpointer user_data)
{
  g_assert (message != NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  NbSink sink = { on_sample, on_note, NULL };
  const char *const names[] = { "csv", "tum" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const NbDriver *driver = nb_driver_find (names[i]);
      gpointer ctx = driver->open (NULL);
      size_t chunk = size > 0 ? (size_t) data[size - 1] % 32 + 1 : 1;

      if (i == 0)
        {
          g_assert (driver->configure (ctx, "x", "X_mm", NULL));
          g_assert (driver->configure (ctx, "unit", "mm", NULL));
          g_assert (driver->configure (ctx, "yaw", "yaw_deg", NULL));
        }
      driver->start (ctx, NULL);
      for (size_t off = 0; off < size; off += chunk)
        driver->feed (ctx, data + off, MIN (chunk, size - off), &sink);
      driver->finish (ctx, &sink);
      driver->close (ctx);
    }
  return 0;
}
