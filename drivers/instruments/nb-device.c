/* nb-device.c — the acquisition worker (see nb-device.h) */
#include "nb-device.h"

#include "nb-error.h"
#include "nb-number.h"
#include "nb-record-words.h"
#include "nb-register.h"
#include "nb-transport.h"

#include <math.h>
#include <string.h>

#define READ_TIMEOUT_MS 100
#define RECONNECT_INTERVAL_US (200 * 1000)
/* Replay is throttled so a large recording does not pile up in memory. */
#define QUEUE_HIGH_WATER 65536

struct _NbDevice {
  const NbDriver *driver;
  gpointer ctx;
  NbTransportOptions options;
  char *url;
  char *flow;
  double latency_s;
  double loss_timeout_s;
  gboolean pace_recorded;
  double time_offset_s;       /* a generator's virtual clock → the monotonic base */
  gboolean has_offset;        /* tracked target → the robot's reference point */
  double offset[3];
  double (*clock) (gpointer); /* a generator's virtual clock (no worker) */
  gpointer clock_data;
  gboolean virtual_started, virtual_done;

  GThread *thread;
  GAsyncQueue *queue;
  GQueue taken;               /* consumer side: events taken from the queue in one go */
  GMutex lock;
  GCond wake;
  gboolean stopping;          /* under lock */
  /* nb_device_run: events go straight to this function, no queue. */
  NbDeviceEventFunc direct;
  gpointer direct_data;

  /* Worker-only state. */
  GPtrArray *batch;           /* events of one feed, pushed together */
  NbTransport *transport;
  gboolean is_file;
  double pace_device_t0, pace_mono_t0;
  /* While a chunk read at full speed is fed: the time it was read, the
   * time of each event from it (NAN otherwise: the clock is read per
   * event; at replay speed a clock read per sample costs as much as the
   * JSON of it). */
  double feed_now;
};

double
nb_device_now (void)
{
  return (double) g_get_monotonic_time () * 1e-6;
}

static void
event_free (gpointer p)
{
  NbEvent *e = p;

  g_free (e->message);
  g_free (e);
}

void
nb_event_clear (NbEvent *event)
{
  g_clear_pointer (&event->message, g_free);
}

NbDevice *
nb_device_new (const char *driver_name, GError **error)
{
  const NbDriver *driver = nb_driver_find (driver_name);
  NbDevice *d;
  gpointer ctx;

  if (driver == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "no driver named '%s'", driver_name);
      return NULL;
    }
  if ((ctx = driver->open (error)) == NULL)
    return NULL;
  d = g_new0 (NbDevice, 1);
  d->driver = driver;
  d->ctx = ctx;
  nb_transport_options_init (&d->options);
  d->loss_timeout_s = 1.0;
  d->feed_now = NAN;
  d->queue = g_async_queue_new_full (event_free);
  g_queue_init (&d->taken);
  g_mutex_init (&d->lock);
  g_cond_init (&d->wake);
  return d;
}

const NbDriver *
nb_device_driver (NbDevice *d)
{
  return d->driver;
}

void
nb_device_set_clock (NbDevice *d, double (*clock) (gpointer), gpointer clock_data)
{
  d->clock = clock;
  d->clock_data = clock_data;
}

gboolean
nb_device_is_virtual (NbDevice *d)
{
  return d->clock != NULL;
}

double
nb_device_time (NbDevice *d)
{
  return d->clock != NULL ? d->clock (d->clock_data) : nb_device_now ();
}

gpointer
nb_device_context (NbDevice *d)
{
  return d->ctx;
}

double
nb_device_latency (NbDevice *d)
{
  return d->latency_s;
}

const char *
nb_device_url (NbDevice *d)
{
  return d->url;
}

static gboolean
parse_seconds (const char *key, const char *value, double min, double *out, GError **error)
{
  double v;

  if (!nb_parse_double (value, strlen (value), &v) || !(v >= min) || !isfinite (v))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, NB_MSG_NOT_NUMBER_MIN, key, value,
                   min);
      return FALSE;
    }
  *out = v;
  return TRUE;
}

gboolean
nb_device_configure (NbDevice *d, const char *key, const char *value, GError **error)
{
  if (g_str_equal (key, "url") || g_str_equal (key, "port"))
    {
      g_free (d->url);
      d->url = g_str_equal (key, "port") && !g_str_has_prefix (value, "serial:")
               ? g_strconcat ("serial:", value, NULL) : g_strdup (value);
      return TRUE;
    }
  if (g_str_equal (key, "baud"))
    {
      guint64 b;

      if (!g_ascii_string_to_unsigned (value, 10, 50, 4000000, &b, NULL))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "baud '%s' is not 50–4000000", value);
          return FALSE;
        }
      d->options.baud = (int) b;
      return TRUE;
    }
  if (g_str_equal (key, "framing"))
    return nb_transport_parse_framing (value, &d->options, error);
  if (g_str_equal (key, "flow"))
    {
      g_free (d->flow);
      d->flow = g_strdup (value);
      return TRUE;
    }
  if (g_str_equal (key, "latency"))
    {
      if (!nb_parse_double (value, strlen (value), &d->latency_s) || !isfinite (d->latency_s))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, NB_MSG_NOT_NUMBER, "latency", value);
          return FALSE;
        }
      return TRUE;
    }
  if (g_str_equal (key, "marker-offset"))
    {
      g_auto (GStrv) parts = g_strsplit (value, ",", -1);

      if (g_strv_length (parts) != 3)
        goto bad_offset;
      for (guint i = 0; i < 3; i++)
        if (!nb_parse_double (parts[i], strlen (parts[i]), &d->offset[i]))
          goto bad_offset;
      d->has_offset = TRUE;
      return TRUE;
    bad_offset:
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "marker-offset '%s' is not DX,DY,DZ in metres (the target's frame)", value);
      return FALSE;
    }
  if (g_str_equal (key, "loss-timeout"))
    return parse_seconds (key, value, 0.05, &d->loss_timeout_s, error);
  if (g_str_equal (key, "pace"))
    {
      if (!g_str_equal (value, "fast") && !g_str_equal (value, "recorded"))
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "pace '%s' is not fast or recorded",
                       value);
          return FALSE;
        }
      d->pace_recorded = g_str_equal (value, "recorded");
      return TRUE;
    }
  if (d->driver->configure == NULL || !d->driver->configure (d->ctx, key, value, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, NB_ERROR, NB_ERROR_INPUT, NB_MSG_NO_SETTING,
                     d->driver->name, key);
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_device_apply_settings (NbDevice *d, char **settings, GError **error)
{
  for (guint i = 0; settings != NULL && settings[i] != NULL; i++)
    {
      const char *eq = strchr (settings[i], '=');
      g_autofree char *key = NULL;

      if (eq == NULL || eq == settings[i])
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "--set '%s' is not KEY=VALUE",
                       settings[i]);
          return FALSE;
        }
      key = g_strndup (settings[i], (gsize) (eq - settings[i]));
      if (!nb_device_configure (d, key, eq + 1, error))
        {
          g_prefix_error (error, "--set %s: ", key);
          return FALSE;
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------ worker -- */

static gboolean
stopping (NbDevice *d)
{
  gboolean s;

  g_mutex_lock (&d->lock);
  s = d->stopping;
  g_mutex_unlock (&d->lock);
  return s;
}

/* Sleeps until the monotonic time until_us or a stop; FALSE if stopped. */
static gboolean
sleep_until (NbDevice *d, gint64 until_us)
{
  gboolean s;

  g_mutex_lock (&d->lock);
  while (!d->stopping && g_get_monotonic_time () < until_us)
    g_cond_wait_until (&d->wake, &d->lock, until_us);
  s = d->stopping;
  g_mutex_unlock (&d->lock);
  return !s;
}

static void
push (NbDevice *d, NbEventKind kind, const NbSample *sample, char *message, int code)
{
  NbEvent *e;

  if (d->direct != NULL)
    {
      /* In the caller's thread: the event lives on this stack, nothing is
       * allocated or queued per sample. */
      NbEvent local = { .kind = kind, .message = message, .error_code = code,
                        .t_s = isnan (d->feed_now) ? nb_device_now () : d->feed_now };

      if (sample != NULL)
        local.sample = *sample;
      if (!d->direct (&local, d->direct_data))
        {
          g_mutex_lock (&d->lock);
          d->stopping = TRUE;
          g_mutex_unlock (&d->lock);
        }
      g_free (message);
      return;
    }
  e = g_new0 (NbEvent, 1);

  e->kind = kind;
  if (sample != NULL)
    e->sample = *sample;
  e->message = message;
  e->error_code = code;
  e->t_s = nb_device_time (d);
  if (d->batch != NULL)
    g_ptr_array_add (d->batch, e);
  else
    g_async_queue_push (d->queue, e);
}

/* One lock and one wake-up for all the samples of a chunk: at replay
 * speed a wake-up per sample would cost more than the decoding. */
static void
flush_batch (NbDevice *d)
{
  if (d->batch == NULL || d->batch->len == 0)
    return;
  g_async_queue_lock (d->queue);
  for (guint i = 0; i < d->batch->len; i++)
    g_async_queue_push_unlocked (d->queue, d->batch->pdata[i]);
  g_async_queue_unlock (d->queue);
  g_ptr_array_set_size (d->batch, 0);
}

static void
on_sample (const NbSample *sample, gpointer user_data)
{
  NbDevice *d = user_data;
  NbSample s = *sample;

  if (d->is_file)
    {
      /* A recording's own clock is its time base: replays are repeatable. */
      if (isnan (s.t_s))
        s.t_s = s.device_time_s;
      if (d->pace_recorded && !isnan (s.device_time_s))
        {
          if (isnan (d->pace_device_t0))
            {
              d->pace_device_t0 = s.device_time_s;
              d->pace_mono_t0 = nb_device_now ();
            }
          else if (s.device_time_s > d->pace_device_t0)
            sleep_until (d, (gint64) ((d->pace_mono_t0 + s.device_time_s - d->pace_device_t0)
                                      * 1e6));
        }
      /* Hand over every 1024 samples, and only then look at the queue's
       * length (it takes the queue's lock). */
      if (d->direct == NULL && (d->batch == NULL || d->batch->len >= 1024))
        {
          flush_batch (d);
          while (g_async_queue_length (d->queue) > QUEUE_HIGH_WATER && !stopping (d))
            g_usleep (100);
        }
    }
  else if (isnan (s.t_s))
    s.t_s = nb_device_time (d);
  else
    s.t_s += d->time_offset_s;
  /* The instant the pose was true: the driver's latency before arrival. */
  s.t_s -= d->latency_s;
  /* The robot's reference point, not the marker or prism: the offset turns
   * with the target (quaternion, else heading).  Without an orientation the
   * offset cannot be applied, and the sample says so by being untracked. */
  if (d->has_offset)
    {
      double in[3] = { s.x_m, s.y_m, s.z_m }, q[4] = { s.qw, s.qx, s.qy, s.qz }, out[3];

      if (s.has_orientation || isfinite (s.heading_deg))
        {
          nb_marker_to_reference (in, s.has_orientation ? q : NULL, s.heading_deg, d->offset, out);
          s.x_m = out[0];
          s.y_m = out[1];
          s.z_m = out[2];
        }
      else
        s.tracking = NB_TRACKING_LOST;
    }
  push (d, NB_EVENT_SAMPLE, &s, NULL, 0);
}

static void
on_note (const char *message, gpointer user_data)
{
  push (user_data, NB_EVENT_NOTE, NULL, g_strdup (message), 0);
}

static void
run_generator (NbDevice *d, const NbSink *sink)
{
  double t0 = nb_device_now ();

  d->time_offset_s = t0;
  push (d, NB_EVENT_CONNECTED, NULL, NULL, 0);
  for (;;)
    {
      g_autoptr (GError) error = NULL;

      if (!d->driver->generate (d->ctx, nb_device_now () - t0, sink, &error))
        {
          if (error == NULL)
            push (d, NB_EVENT_END, NULL, NULL, 0);
          else
            push (d, NB_EVENT_ERROR, NULL, g_strdup (error->message), error->code);
          return;
        }
      if (!sleep_until (d, g_get_monotonic_time () + 5000))
        return;
    }
}

static void
run_transport (NbDevice *d, const NbSink *sink)
{
  guint8 buf[65536];
  gboolean ever_connected = FALSE, lost = FALSE;
  double last_data = 0.0, request_deadline = NAN;

  d->options.url = d->url;
  d->options.flow = d->flow ? d->flow : "none";
  d->is_file = nb_transport_kind_of (d->url ? d->url : "") == NB_TRANSPORT_FILE;
  d->pace_device_t0 = NAN;
  while (!stopping (d))
    {
      g_autoptr (GError) error = NULL;
      gssize n;
      double now;

      if (d->transport == NULL)
        {
          d->transport = nb_transport_open (&d->options, &error);
          if (d->transport == NULL)
            {
              if (!ever_connected)
                {
                  push (d, NB_EVENT_ERROR, NULL, g_strdup (error->message), error->code);
                  return;
                }
              if (!sleep_until (d, g_get_monotonic_time () + RECONNECT_INTERVAL_US))
                return;
              continue;
            }
          ever_connected = TRUE;
          lost = FALSE;
          last_data = nb_device_now ();
          request_deadline = NAN;
          push (d, NB_EVENT_CONNECTED, NULL, g_strdup (d->url), 0);
        }

      now = nb_device_now ();
      /* Request/response: the driver says what to send next (NULL while
       * its last request is unanswered); a recording is only read. */
      if (d->driver->poll != NULL && !d->is_file)
        {
          guint timeout_ms = 1000;
          g_autoptr (GBytes) request = d->driver->poll (d->ctx, now, &timeout_ms);

          if (request != NULL)
            {
              gsize len;
              const guint8 *data = g_bytes_get_data (request, &len);

              if (!nb_transport_write (d->transport, data, len, 1000, &error))
                goto link_failed;
              request_deadline = now + timeout_ms * 1e-3;
            }
        }

      n = nb_transport_read (d->transport, buf, sizeof buf, READ_TIMEOUT_MS, &error);
      if (n < 0)
        goto link_failed;
      now = nb_device_now ();
      if (!isnan (request_deadline) && now > request_deadline)
        {
          /* No (complete) answer in time: the driver says so and moves on. */
          if (d->driver->timeout != NULL)
            d->driver->timeout (d->ctx, sink);
          nb_transport_flush_input (d->transport);
          request_deadline = NAN;
          continue;
        }
      if (n == 0)
        {
          if (d->is_file && nb_transport_at_end (d->transport))
            {
              if (d->driver->finish != NULL)
                d->driver->finish (d->ctx, sink);
              push (d, NB_EVENT_END, NULL, NULL, 0);
              return;
            }
          if (!d->is_file && !lost && now - last_data > d->loss_timeout_s)
            {
              lost = TRUE;
              push (d, NB_EVENT_LOST, NULL,
                    g_strdup_printf (NB_MSG_NO_DATA_FOR, d->url, now - last_data), 0);
            }
          continue;
        }
      if (lost)
        {
          lost = FALSE;
          push (d, NB_EVENT_CONNECTED, NULL, g_strdup (d->url), 0);
        }
      last_data = now;
      /* At recorded pace each sample is handed over as its time comes. */
      if (!d->pace_recorded && d->direct == NULL)
        d->batch = g_ptr_array_new ();
      d->feed_now = d->pace_recorded ? NAN : now;
      d->driver->feed (d->ctx, buf, (gsize) n, sink);
      d->feed_now = NAN;
      flush_batch (d);
      g_clear_pointer (&d->batch, g_ptr_array_unref);
      continue;

    link_failed:
      if (d->is_file)
        {
          push (d, NB_EVENT_ERROR, NULL, g_strdup (error->message), error->code);
          return;
        }
      if (!lost)
        push (d, NB_EVENT_LOST, NULL, g_strdup (error->message), 0);
      lost = TRUE;
      g_clear_pointer (&d->transport, nb_transport_close);
      if (!sleep_until (d, g_get_monotonic_time () + RECONNECT_INTERVAL_US))
        return;
    }
}

static gpointer
worker (gpointer data)
{
  NbDevice *d = data;
  NbSink sink = { on_sample, on_note, d };
  g_autoptr (GError) error = NULL;

  if (d->driver->start != NULL && !d->driver->start (d->ctx, &error))
    push (d, NB_EVENT_ERROR, NULL, g_strdup (error->message), error->code);
  else if (d->driver->generate != NULL && d->url == NULL)
    run_generator (d, &sink);
  else
    run_transport (d, &sink);
  g_clear_pointer (&d->transport, nb_transport_close);
  if (d->driver->stop != NULL)
    d->driver->stop (d->ctx);
  return NULL;
}

static gboolean
check_startable (NbDevice *d, GError **error)
{
  if (d->thread != NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "the device is already running");
      return FALSE;
    }
  if (d->driver->feed == NULL && d->url != NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "driver %s takes no port, URL or capture",
                   d->driver->name);
      return FALSE;
    }
  if (d->driver->generate == NULL && d->url == NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "driver %s needs a port, URL or capture file", d->driver->name);
      return FALSE;
    }
  return TRUE;
}

gboolean
nb_device_start (NbDevice *d, GError **error)
{
  if (!check_startable (d, error))
    return FALSE;
  d->stopping = FALSE;
  if (d->clock != NULL)
    {
      if (d->driver->generate == NULL || d->url != NULL)
        {
          g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "driver %s is not a generator: it "
                       "cannot run on a virtual clock", d->driver->name);
          return FALSE;
        }
      if (d->driver->start != NULL && !d->driver->start (d->ctx, error))
        return FALSE;
      d->virtual_started = TRUE;
      d->virtual_done = FALSE;
      push (d, NB_EVENT_CONNECTED, NULL, NULL, 0);
      return TRUE;
    }
  /* The worker opens the link: its GIO types are registered here first
   * (nb-transport.h says why). */
  nb_transport_init_types ();
  d->thread = g_thread_try_new ("nb-device", worker, d, error);
  return d->thread != NULL;
}

/* The virtual clock's device: what the generator has up to the clock now,
 * on the caller's thread. */
static void
generate_virtual (NbDevice *d)
{
  NbSink sink = { on_sample, on_note, d };
  g_autoptr (GError) error = NULL;

  if (!d->virtual_started || d->virtual_done)
    return;
  if (!d->driver->generate (d->ctx, nb_device_time (d), &sink, &error))
    {
      d->virtual_done = TRUE;
      if (error == NULL)
        push (d, NB_EVENT_END, NULL, NULL, 0);
      else
        push (d, NB_EVENT_ERROR, NULL, g_strdup (error->message), error->code);
    }
}

gboolean
nb_device_run (NbDevice *d, NbDeviceEventFunc func, gpointer user_data, GError **error)
{
  if (!check_startable (d, error))
    return FALSE;
  if (d->clock != NULL)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED,
                   "a device on a virtual clock is read with nb_device_next");
      return FALSE;
    }
  d->stopping = FALSE;
  d->direct = func;
  d->direct_data = user_data;
  worker (d);
  d->direct = NULL;
  d->direct_data = NULL;
  return TRUE;
}

gboolean
nb_device_next (NbDevice *d, gint64 timeout_us, NbEvent *event)
{
  NbEvent *e;

  if (d->clock != NULL && d->taken.length == 0 && g_async_queue_length (d->queue) == 0)
    {
      generate_virtual (d);
      timeout_us = 0;             /* virtual time does not pass while we wait */
    }
  if (d->taken.length == 0)
    {
      /* Wait for one event, then take all that are there under one lock:
       * the worker and the consumer meet once per batch, not per sample. */
      e = timeout_us > 0 ? g_async_queue_timeout_pop (d->queue, (guint64) timeout_us)
                         : g_async_queue_try_pop (d->queue);
      if (e == NULL)
        return FALSE;
      g_queue_push_tail (&d->taken, e);
      g_async_queue_lock (d->queue);
      while (d->taken.length < 4096 && (e = g_async_queue_try_pop_unlocked (d->queue)) != NULL)
        g_queue_push_tail (&d->taken, e);
      g_async_queue_unlock (d->queue);
    }
  e = g_queue_pop_head (&d->taken);
  *event = *e;
  g_free (e);
  return TRUE;
}

void
nb_device_stop (NbDevice *d)
{
  if (d->virtual_started)
    {
      d->virtual_started = FALSE;
      if (d->driver->stop != NULL)
        d->driver->stop (d->ctx);
    }
  if (d->thread == NULL)
    return;
  g_mutex_lock (&d->lock);
  d->stopping = TRUE;
  g_cond_broadcast (&d->wake);
  g_mutex_unlock (&d->lock);
  g_thread_join (d->thread);
  d->thread = NULL;
}

void
nb_device_free (NbDevice *d)
{
  if (d == NULL)
    return;
  nb_device_stop (d);
  d->driver->close (d->ctx);
  g_queue_clear_full (&d->taken, event_free);
  g_async_queue_unref (d->queue);
  g_mutex_clear (&d->lock);
  g_cond_clear (&d->wake);
  g_free (d->url);
  g_free (d->flow);
  g_free (d);
}
