/* libFuzzer target: the NMEA parser on one sentence, the lexer and the whole
 * nmea driver on a byte stream (cut into random chunks).
 * Build: CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined
 *        -Db_lundef=false; run: build-fuzz/tests/fuzz-nmea tests/fuzz/corpus/nmea */
#include "nb-driver.h"
#include "nmea-protocol.h"

#include <math.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
on_sample (const NbSample *s, gpointer user_data)
{
  /* A decoded position is always a real one. */
  g_assert (fabs (s->lat_deg) <= 90.0 && fabs (s->lon_deg) <= 180.0);
  g_assert (isfinite (s->x_m) && isfinite (s->y_m) && isfinite (s->z_m));
}

static void
on_note (const char *message, gpointer user_data)
{
  g_assert (message != NULL && message[0] != '\0');
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const NbDriver *driver = nb_driver_find ("nmea");
  NbSink sink = { on_sample, on_note, NULL };
  GError *error = NULL;
  NbNmeaFix fix;
  gpointer ctx;
  size_t chunk = size > 0 ? (size_t) data[0] % 64 + 1 : 1;

  if (nb_nmea_parse ((const char *) data, size, &fix, &error))
    g_assert (error == NULL);
  else
    {
      g_assert (error != NULL);
      g_clear_error (&error);
    }

  ctx = driver->open (NULL);
  driver->start (ctx, NULL);
  for (size_t off = 0; off < size; off += chunk)
    driver->feed (ctx, data + off, MIN (chunk, size - off), &sink);
  driver->finish (ctx, &sink);
  driver->close (ctx);
  return 0;
}
