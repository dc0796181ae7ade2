/* nb-driver.h — the one interface every instrument driver implements
 *
 * gpsd's and libsigrok's model: a driver is one const method table in its
 * own folder (drivers/<name>/<name>.c), listed once in drivers/registry.c.
 * The decoding half (feed) is pure over bytes and never touches a device:
 * the transport (serial, TCP, UDP, file) is NbDevice's business, so every
 * driver runs live, from a recording, and under a fuzzer the same way.
 */
#pragma once

#include "nb-sample.h"
#include "nb-transport.h"

#include <glib.h>

G_BEGIN_DECLS

/* Where a driver's output goes.  note() carries decode problems (a bad
 * checksum, a truncated packet) that do not stop acquisition. */
typedef struct {
  void (*sample) (const NbSample *sample, gpointer user_data);
  void (*note) (const char *message, gpointer user_data);
  gpointer user_data;
} NbSink;

typedef struct _NbDriver NbDriver;

struct _NbDriver {
  const char *name;
  const char *summary;
  /* The transport the driver expects (file replay works for all). */
  gboolean datagrams;           /* one packet per read (UDP) rather than a stream */
  gboolean needs_transport;     /* FALSE for generators such as sim */

  /* A fresh device context with default settings. */
  gpointer (*open) (GError **error);
  /* Driver-specific settings ("origin" = "lat,lon,h", "seed", …). */
  gboolean (*configure) (gpointer ctx, const char *key, const char *value, GError **error);
  /* Resets decoder state before data flows. */
  gboolean (*start) (gpointer ctx, GError **error);
  void (*stop) (gpointer ctx);
  void (*close) (gpointer ctx);

  /* Decodes a chunk of the byte stream (or one datagram); pure. */
  void (*feed) (gpointer ctx, const guint8 *data, gsize len, const NbSink *sink);
  /* The end of a recording (optional): decode what is left, such as a last
   * line without its line feed. */
  void (*finish) (gpointer ctx, const NbSink *sink);
  /* Request/response instruments (optional): the request to send now, if
   * any; *timeout_ms is how long to wait for its answer. */
  GBytes *(*poll) (gpointer ctx, double now_s, guint *timeout_ms);
  /* The answer did not come in time (optional). */
  void (*timeout) (gpointer ctx, const NbSink *sink);
  /* Generators (optional; sim): samples up to time until_s. */
  gboolean (*generate) (gpointer ctx, double until_s, const NbSink *sink, GError **error);
};

/* The static registry (drivers/registry.c). */
const NbDriver *nb_driver_find (const char *name);
const NbDriver *const *nb_driver_list (guint *n);

G_END_DECLS
