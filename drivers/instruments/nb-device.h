/* nb-device.h — one running instrument: a driver, its transport, a worker
 *
 * NbDevice runs the blocking half (opening, reading, writing requests,
 * reconnecting) in its own GThread and hands results over a queue, so a GUI
 * polls nb_device_next() with a zero timeout from its main loop and a CLI
 * waits on it; nothing else is shared.  Live links that drop are reported
 * (NB_EVENT_LOST) and reopened every reconnect interval until they return
 * (NB_EVENT_CONNECTED).
 *
 * Settings (nb_device_configure): "url", "port" (serial path), "baud",
 * "framing" (8N1), "flow", "latency" (s, subtracted from every timestamp),
 * "pace" ("fast" or "recorded" for file replay), "loss-timeout" (s of
 * silence that count as a lost link; default 1), "marker-offset" (DX,DY,DZ
 * in metres from the tracked target to the robot's reference point, in the
 * target's frame), and the driver's own keys.
 */
#pragma once

#include "nb-driver.h"

G_BEGIN_DECLS

typedef enum {
  NB_EVENT_SAMPLE,
  NB_EVENT_NOTE,        /* a decode problem; acquisition goes on */
  NB_EVENT_CONNECTED,   /* the link is up (first time, or again after a loss) */
  NB_EVENT_LOST,        /* the link failed or fell silent; reconnecting */
  NB_EVENT_END,         /* the recording is over */
  NB_EVENT_ERROR,       /* fatal: the worker has stopped */
} NbEventKind;

typedef struct {
  NbEventKind kind;
  NbSample sample;      /* NB_EVENT_SAMPLE */
  char *message;        /* owned; NOTE, LOST, ERROR */
  int error_code;       /* NB_ERROR_* for ERROR */
  double t_s;           /* monotonic time of the event */
} NbEvent;

typedef struct _NbDevice NbDevice;

/* Takes one event (it and its message stay the device's); FALSE stops. */
typedef gboolean (*NbDeviceEventFunc) (const NbEvent *event, gpointer user_data);

NbDevice *nb_device_new       (const char *driver_name, GError **error);
const NbDriver *nb_device_driver (NbDevice *device);
gboolean  nb_device_configure (NbDevice *device, const char *key, const char *value,
                               GError **error);
/* "KEY=VALUE" settings (a command line's --set), in order; the error names
 * the one that is wrong ("--set KEY: …"). */
gboolean  nb_device_apply_settings (NbDevice *device, char **key_values, GError **error);
/* Starts the worker; returns at once (the link opens in the worker). */
gboolean  nb_device_start     (NbDevice *device, GError **error);
/* Runs the device in the calling thread instead (a replay, a command line
 * acquisition): every event goes to func as it is decoded, without a queue,
 * an allocation or a thread hop per sample, until the recording ends, a
 * fatal error (both also given to func) or func returns FALSE.  FALSE with
 * error set only when the device cannot start at all. */
gboolean  nb_device_run       (NbDevice *device, NbDeviceEventFunc func, gpointer user_data,
                               GError **error);
/* The next event, waiting up to timeout_us (0: just look); FALSE if none. */
gboolean  nb_device_next      (NbDevice *device, gint64 timeout_us, NbEvent *event);
/* Stops and joins the worker (within about 100 ms). */
void      nb_device_stop      (NbDevice *device);
void      nb_device_free      (NbDevice *device);
void      nb_event_clear      (NbEvent *event);
/* The time base of every sample, seconds. */
double    nb_device_now       (void);

/* A generator driver (sim) on the caller's virtual clock instead of its own
 * worker and the monotonic clock (ARCHITECTURE: the simulator runs on a
 * virtual clock, as fast as the CPU allows).  Set before start; the device
 * then runs no thread: nb_device_next generates, through the same sample
 * path (latency, marker offset), the samples up to clock (clock_data) and
 * never waits.  A campaign runner measures the simulated rig this way
 * through the same NbDevice a live instrument is. */
void      nb_device_set_clock (NbDevice *device, double (*clock) (gpointer clock_data),
                               gpointer clock_data);
gboolean  nb_device_is_virtual (NbDevice *device);
/* The time now on the device's clock: the virtual one, else nb_device_now. */
double    nb_device_time      (NbDevice *device);
/* The driver's own context (driver-specific hooks such as the sim tracker's
 * nb_sim_tracker_watch). */
gpointer  nb_device_context   (NbDevice *device);
/* The latency subtracted from every timestamp (the "latency" setting), s. */
double    nb_device_latency   (NbDevice *device);
/* The device's port, URL or capture; NULL for a generator. */
const char *nb_device_url     (NbDevice *device);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbDevice, nb_device_free)

G_END_DECLS
