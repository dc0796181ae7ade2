/* bench-acquire — live acquisition into the campaign file while a trial runs
 *
 * A player thread plays an instrument over loopback at a fixed rate, on an
 * absolute schedule (a late sample is sent at once, the next keep their
 * times): "tum" a 1 kHz tracker streaming "t x y z qx qy qz qw" lines over
 * TCP (the tum driver), "natnet" NatNet 4.0 frames of one rigid body over
 * UDP (the natnet driver).  Sample k carries k in x (exact in a float for
 * 2^24 samples); the player notes the monotonic time it wrote k.  The main
 * thread runs the device (nb_device_run, the path of a command-line
 * acquisition) and appends each sample to a trial in flight of a new
 * campaign file (nb_campaign_add_samples: the store's own batching, a
 * commit at the latest NB_BATCH_MAX_US after a batch's first sample), then
 * ends the trial and reads the trial back from the file.
 *
 * Checked: every sample played arrives once and in order (x = 0, 1, 2, …
 * as received, and as read back from the file: count and order), the
 * file's count equals the player's.  After the last sample the player sends
 * an end mark (sample number N, not stored), repeated for UDP.  Quoted: latency from the player's
 * write to the socket to the sample's return from nb_campaign_add_samples
 * (p50, p99, max) and, as bounded by the batching, to its commit; CPU of
 * the receiving thread (driver, device, store) and of the process, in % of
 * one core; the machine's load.
 *
 *   bench-acquire PROTO RATE_HZ SECONDS [--check]
 *
 * --check (the suite's short run): exit 1 unless nothing was lost or
 * reordered; no time is asserted.
 */
/* _GNU_SOURCE: clock_nanosleep's TIMER_ABSTIME, getrusage RUSAGE_THREAD. */
#define _GNU_SOURCE 1

#include "nb-campaign.h"
#include "nb-device.h"

#include <arpa/inet.h>
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  gboolean natnet;
  double rate;
  guint64 total;
  int fd;                       /* tum: the listening socket; natnet: the UDP socket */
  struct sockaddr_in to;        /* natnet: the device's port */
  gint64 *sent_us;              /* [total], the monotonic time sample k was written */
  volatile gint ready;          /* the device's link is up */
  volatile gint done;
  guint64 late;                 /* samples written more than a period late */
} Player;

static gint64
mono_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * G_GINT64_CONSTANT (1000000) + ts.tv_nsec / 1000;
}

/* A NatNet 4.0 frame of data with one rigid body (id 1), little-endian by
 * hand as tests/test-iso9283-live.c writes them. */
static gsize
natnet_frame (guint8 *b, guint32 frame, float x)
{
  const float f[8] = { x, 0.5f, 0.25f, 0, 0, 0, 1, 0.00002f };
  guint16 params = GUINT16_TO_LE (1), size;
  gint32 v;
  double t = frame / 360.0;
  gsize o = 0;

  memcpy (b + o, "\x07\x00\x00\x00", 4), o += 4;
  v = GINT32_TO_LE ((gint32) frame), memcpy (b + o, &v, 4), o += 4;
  memset (b + o, 0, 8), o += 8;
  v = GINT32_TO_LE (1), memcpy (b + o, &v, 4), o += 4;
  v = GINT32_TO_LE (1), memcpy (b + o, &v, 4), o += 4;
  memcpy (b + o, f, sizeof f), o += sizeof f;
  memcpy (b + o, &params, 2), o += 2;
  memset (b + o, 0, 24), o += 24;
  memcpy (b + o, &t, 8), o += 8;
  memset (b + o, 0, 30), o += 30;
  size = GUINT16_TO_LE ((guint16) (o - 4));
  memcpy (b + 2, &size, 2);
  return o;
}

static gpointer
player (gpointer data)
{
  Player *p = data;
  int out = p->fd;
  struct timespec start;
  char line[160];
  guint8 frame[256];

  if (!p->natnet)
    {
      /* The tracker waits for its client, as a tracker's server does. */
      out = accept (p->fd, NULL, NULL);
      g_assert (out >= 0);
    }
  /* UDP frames sent before the device has bound its port go nowhere. */
  for (int i = 0; i < 1000 && !g_atomic_int_get (&p->ready); i++)
    g_usleep (5000);
  clock_gettime (CLOCK_MONOTONIC, &start);
  for (guint64 k = 0; k < p->total; k++)
    {
      double at = start.tv_sec + start.tv_nsec / 1e9 + k / p->rate;
      struct timespec ts = { (time_t) at, (long) ((at - floor (at)) * 1e9) };
      gsize len;
      gint64 now;

      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
      now = mono_us ();
      if (now - (gint64) (at * 1e6) > (gint64) (1e6 / p->rate))
        p->late++;
      p->sent_us[k] = now;
      if (p->natnet)
        {
          len = natnet_frame (frame, (guint32) k, (float) k);
          g_assert (sendto (out, frame, len, 0, (struct sockaddr *) &p->to, sizeof p->to) ==
                    (gssize) len);
        }
      else
        {
          gsize o = 0;

          len = (gsize) g_snprintf (line, sizeof line, "%.3f %" G_GUINT64_FORMAT
                                    " 0.5 0.25 0 0 0 1\n", k / p->rate, k);
          while (o < len)
            {
              gssize n = send (out, line + o, len - o, MSG_NOSIGNAL);

              g_assert (n > 0 || errno == EINTR);
              if (n > 0)
                o += (gsize) n;
            }
        }
    }
  g_atomic_int_set (&p->done, 1);
  /* The end: sample number total, after the stream has had time to drain
   * (repeated: a datagram may be lost too). */
  for (int i = 0; i < 10 && g_atomic_int_get (&p->done) == 1; i++)
    {
      g_usleep (200000);
      if (p->natnet)
        {
          gsize len = natnet_frame (frame, (guint32) p->total, (float) p->total);

          sendto (out, frame, len, 0, (struct sockaddr *) &p->to, sizeof p->to);
        }
      else if (i == 0)
        {
          gsize len = (gsize) g_snprintf (line, sizeof line, "%.3f %" G_GUINT64_FORMAT
                                          " 0.5 0.25 0 0 0 1\n", p->total / p->rate, p->total);

          g_assert (send (out, line, len, MSG_NOSIGNAL) == (gssize) len);
        }
    }
  if (!p->natnet)
    {
      /* Leave the connection open until the receiver has read it all. */
      while (g_atomic_int_get (&p->done) == 1)
        g_usleep (10000);
      close (out);
    }
  return NULL;
}

typedef struct {
  NbCampaign *campaign;
  gint64 trial_id;
  Player *player;
  guint64 received, next, out_of_order;
  gint64 *latency_us;           /* [total] */
  GError *error;
} Receiver;

static gboolean
on_event (const NbEvent *e, gpointer user_data)
{
  Receiver *r = user_data;

  if (e->kind == NB_EVENT_SAMPLE)
    {
      NbTrackSample s = { e->sample.t_s, e->sample.x_m * 1000.0, e->sample.y_m * 1000.0, NAN,
                          NAN };
      guint64 k = (guint64) llround (e->sample.x_m);

      if (k == r->player->total)
        return FALSE;           /* the player's end mark */
      if (!nb_campaign_add_samples (r->campaign, r->trial_id, &s, 1, &r->error))
        return FALSE;
      if (k != r->next || k >= r->player->total)
        r->out_of_order++;
      else
        r->latency_us[r->received] = mono_us () - r->player->sent_us[k];
      r->next = k + 1;
      r->received++;
      if (r->received == r->player->total)
        return FALSE;
    }
  else if (e->kind == NB_EVENT_CONNECTED)
    g_atomic_int_set (&r->player->ready, 1);
  else if (e->kind == NB_EVENT_ERROR || e->kind == NB_EVENT_END)
    return FALSE;
  /* The end mark lost as well: the link falls silent after the player. */
  return !(e->kind == NB_EVENT_LOST && g_atomic_int_get (&r->player->done));
}

typedef struct {
  guint64 n, next, out_of_order;
} ReadBack;

static gboolean
on_block (const NbTrackSample *samples, gsize n, gpointer user_data, GError **error)
{
  ReadBack *b = user_data;

  for (gsize i = 0; i < n; i++, b->n++)
    {
      guint64 k = (guint64) llround (samples[i].x_mm / 1000.0);

      if (k != b->next)
        b->out_of_order++;
      b->next = k + 1;
    }
  return TRUE;
}

static int
cmp_i64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static double
cpu_s (int who)
{
  struct rusage ru;

  getrusage (who, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec / 1e6;
}

static double
loadavg (void)
{
  double l = NAN;
  FILE *f = fopen ("/proc/loadavg", "r");

  if (f != NULL)
    {
      if (fscanf (f, "%lf", &l) != 1)
        l = NAN;
      fclose (f);
    }
  return l;
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL, *db = NULL, *url = NULL;
  g_autoptr (NbDevice) device = NULL;
  Player p = { 0 };
  Receiver r = { 0 };
  ReadBack back = { 0 };
  NbCampaignConfig cfg;
  NbCampaignTrial trial;
  struct sockaddr_in addr = { 0 };
  socklen_t alen = sizeof addr;
  GThread *thread;
  gboolean check;
  double seconds, wall, cpu_thread, cpu_proc, load_before;
  gint64 t0;

  if (argc < 4 || (!g_str_equal (argv[1], "tum") && !g_str_equal (argv[1], "natnet")))
    {
      fprintf (stderr, "usage: bench-acquire tum|natnet RATE_HZ SECONDS [--check]\n");
      return 2;
    }
  p.natnet = g_str_equal (argv[1], "natnet");
  p.rate = atof (argv[2]);
  seconds = atof (argv[3]);
  check = argc > 4 && g_str_equal (argv[4], "--check");
  p.total = (guint64) llround (p.rate * seconds);
  g_assert (p.rate > 0 && p.total > 0 && p.total < (1u << 24));
  p.sent_us = g_new0 (gint64, p.total);
  r.latency_us = g_new0 (gint64, p.total);
  r.player = &p;

  /* The loopback link: a TCP listener the tum driver connects to, or the
   * UDP port the natnet driver binds (a probe finds a free one). */
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  p.fd = socket (AF_INET, p.natnet ? SOCK_DGRAM : SOCK_STREAM, 0);
  g_assert (p.fd >= 0 && bind (p.fd, (struct sockaddr *) &addr, sizeof addr) == 0);
  g_assert (getsockname (p.fd, (struct sockaddr *) &addr, &alen) == 0);
  if (p.natnet)
    {
      int probe = socket (AF_INET, SOCK_DGRAM, 0);
      struct sockaddr_in free_addr = addr;

      free_addr.sin_port = 0;
      alen = sizeof free_addr;
      g_assert (bind (probe, (struct sockaddr *) &free_addr, sizeof free_addr) == 0);
      g_assert (getsockname (probe, (struct sockaddr *) &free_addr, &alen) == 0);
      close (probe);
      p.to = free_addr;
      url = g_strdup_printf ("udp://127.0.0.1:%u", ntohs (free_addr.sin_port));
    }
  else
    {
      g_assert (listen (p.fd, 1) == 0);
      url = g_strdup_printf ("tcp://127.0.0.1:%u", ntohs (addr.sin_port));
    }

  dir = g_dir_make_tmp ("nb-bench-acquire-XXXXXX", NULL);
  db = g_build_filename (dir, "campaign.nbc", NULL);
  r.campaign = nb_campaign_create (db, "bench-acquire", &error);
  g_assert_no_error (error);
  nb_campaign_config_init (&cfg);
  cfg.clause = 8;
  cfg.name = g_strdup ("live acquisition");
  g_assert_true (nb_campaign_add_config (r.campaign, &cfg, &error));
  nb_campaign_trial_init (&trial);
  trial.label = g_strdup (argv[1]);
  g_assert_true (nb_campaign_begin_trial (r.campaign, cfg.id, &trial, &error));
  r.trial_id = trial.id;

  device = nb_device_new (p.natnet ? "natnet" : "tum", &error);
  g_assert_no_error (error);
  g_assert_true (nb_device_configure (device, "url", url, &error));
  if (p.natnet)
    g_assert_true (nb_device_configure (device, "version", "4.0", &error));
  g_assert_no_error (error);

  load_before = loadavg ();
  thread = g_thread_new ("player", player, &p);
  t0 = mono_us ();
  cpu_proc = cpu_s (RUSAGE_SELF);
  cpu_thread = cpu_s (RUSAGE_THREAD);
  g_assert_true (nb_device_run (device, on_event, &r, &error));
  cpu_thread = cpu_s (RUSAGE_THREAD) - cpu_thread;
  wall = (mono_us () - t0) / 1e6;
  g_atomic_int_set (&p.done, 2);
  g_thread_join (thread);
  cpu_proc = cpu_s (RUSAGE_SELF) - cpu_proc;
  if (r.error != NULL)
    g_error ("store: %s", r.error->message);

  trial.outcome = NB_TRIAL_OK;
  trial.end_time = trial.start_time;
  g_assert_true (nb_campaign_end_trial (r.campaign, &trial, &error));
  g_assert_true (nb_campaign_foreach_samples (r.campaign, r.trial_id, on_block, &back, &error));
  g_assert_no_error (error);

  {
    guint64 n = r.received - r.out_of_order;
    gint64 *lat = r.latency_us;

    qsort (lat, n, sizeof *lat, cmp_i64);
    printf ("# %s at %.0f Hz over loopback for %.0f s into a trial of %s; load average %.2f "
            "before, %.2f after\n", argv[1], p.rate, seconds, db, load_before, loadavg ());
    printf ("played %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " written > 1 period late), "
            "received %" G_GUINT64_FORMAT ", out of order %" G_GUINT64_FORMAT ", in the file %"
            G_GUINT64_FORMAT " (out of order %" G_GUINT64_FORMAT ")\n", p.total, p.late,
            r.received, r.out_of_order, back.n, back.out_of_order);
    if (n > 0)
      printf ("latency socket → store call: p50 %.3f ms, p99 %.3f ms, max %.3f ms; to the "
              "commit: + at most %.0f ms (the store's batching)\n", lat[n / 2] / 1e3,
              lat[(gsize) (n * 0.99)] / 1e3, lat[n - 1] / 1e3, NB_BATCH_MAX_US / 1e3);
    printf ("CPU: receiving thread %.1f %% of a core (%.2f s in %.1f s), whole process %.1f %%"
            " (with the player)\n", 100 * cpu_thread / wall, cpu_thread, wall,
            100 * cpu_proc / wall);
  }
  nb_campaign_trial_clear (&trial);
  nb_campaign_config_clear (&cfg);
  g_assert_true (nb_campaign_close (r.campaign, &error));
  g_unlink (db);
  {
    g_autofree char *wal = g_strconcat (db, "-wal", NULL), *shm = g_strconcat (db, "-shm", NULL);

    g_unlink (wal);
    g_unlink (shm);
  }
  g_rmdir (dir);
  close (p.fd);
  g_free (p.sent_us);
  g_free (r.latency_us);
  if (check && (r.received != p.total || r.out_of_order != 0 || back.n != p.total ||
                back.out_of_order != 0))
    {
      fprintf (stderr, "bench-acquire: samples lost or reordered\n");
      return 1;
    }
  return 0;
}
