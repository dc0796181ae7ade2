/* libFuzzer target: the GeoCOM ASCII parser on one line and the geocom
 * driver (requests, replies, comments) on a stream.
 * Run: build-fuzz/tests/fuzz-geocom tests/fuzz/corpus/geocom */
#include "geocom-protocol.h"
#include "nb-driver.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
on_sample (const NbSample *s, gpointer user_data)
{
}

static void
on_note (const char *message, gpointer user_data)
{
  g_assert (message != NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const NbDriver *driver = nb_driver_find ("geocom");
  NbSink sink = { on_sample, on_note, NULL };
  NbGeocomMessage m;
  GError *error = NULL;
  gpointer ctx;

  if (nb_geocom_parse ((const char *) data, size, &m, &error))
    {
      g_assert (m.n_params <= NB_GEOCOM_MAX_PARAMS);
      (void) nb_geocom_rc_message (m.rc);
    }
  else
    g_clear_error (&error);

  ctx = driver->open (NULL);
  driver->start (ctx, NULL);
  driver->feed (ctx, data, size, &sink);
  driver->finish (ctx, &sink);
  driver->close (ctx);
  return 0;
}
