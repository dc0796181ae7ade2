/* libFuzzer target: the NatNet frame parser for every version, and the
 * natnet driver's stream accumulator on the same bytes.
 * Run: build-fuzz/tests/fuzz-natnet tests/fuzz/corpus/natnet */
#include "nb-driver.h"
#include "natnet-protocol.h"

#include <math.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
on_sample (const NbSample *s, gpointer user_data)
{
  g_assert (isfinite (s->x_m) && isfinite (s->qw));
}

static void
on_note (const char *message, gpointer user_data)
{
  g_assert (message != NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *const versions[] = { "3.0", "3.1", "4.0", "4.1" };
  static NbNatNetFrame frame;   /* large: not on the stack */
  NbSink sink = { on_sample, on_note, NULL };
  const NbDriver *driver = nb_driver_find ("natnet");

  for (guint v = 0; v < G_N_ELEMENTS (versions); v++)
    {
      GError *error = NULL;
      int major, minor;
      gpointer ctx;

      g_assert (nb_natnet_parse_version (versions[v], &major, &minor, NULL));
      if (nb_natnet_parse (data, size, major, minor, &frame, &error))
        g_assert (frame.n_bodies <= NB_NATNET_MAX_BODIES && frame.n_bodies <= frame.n_bodies_total);
      else
        g_clear_error (&error);

      ctx = driver->open (NULL);
      g_assert (driver->configure (ctx, "version", versions[v], NULL));
      driver->start (ctx, NULL);
      driver->feed (ctx, data, size, &sink);
      driver->close (ctx);
    }
  return 0;
}
