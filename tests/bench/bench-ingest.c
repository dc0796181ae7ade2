/* bench-ingest — recording samples into a campaign
 *
 *   bench-ingest [--samples N] [--gigabyte] [--keep DIR]
 *
 * Records N samples (default 10 M) into a new campaign as a fast instrument
 * would — pieces of 1000 samples, trials of 100 000 — through the public
 * API with the store's real settings (WAL, synchronous=FULL, chunks of 4096,
 * batches of ≤ 100 ms).  Prints samples/s, file bytes per sample against the
 * packed size (NB_SAMPLE_PACKED_BYTES), peak RSS, and the time to open the
 * result and count what it holds.  --gigabyte grows the file to 1 GB first,
 * for the open-time figure.
 */
#include "nb-campaign.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#define PIECE 1000
#define TRIAL_SAMPLES 100000

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

static void
die (GError *error)
{
  fprintf (stderr, "bench-ingest: %s\n", error->message);
  exit (1);
}

/* One trial's track at 1 kHz, made before the clock starts: the figure is
 * the store's, not sin()'s.  Every trial repeats it (the same route). */
static NbTrackSample *
make_track (void)
{
  NbTrackSample *track = g_new (NbTrackSample, TRIAL_SAMPLES);

  for (guint k = 0; k < TRIAL_SAMPLES; k++)
    {
      track[k].t_s = k * 1e-3;
      track[k].x_mm = 5000.0 * sin (k * 1e-4);
      track[k].y_mm = 12.5 * cos (k * 3e-3);
      track[k].theta_deg = fmod (k * 0.01, 360.0) - 180.0;
      track[k].quality = (float) (1.0 - (k % 100) * 1e-3);
    }
  return track;
}

/* Records n samples in trials of TRIAL_SAMPLES, in pieces of PIECE as an
 * instrument driver would hand them over; returns the seconds spent. */
static double
ingest (NbCampaign *c, gint64 config_id, guint64 n, const NbTrackSample *track)
{
  GError *error = NULL;
  double t0 = now_s ();
  guint64 done = 0;

  while (done < n)
    {
      NbCampaignTrial t;
      guint64 in_trial = MIN (TRIAL_SAMPLES, n - done);

      nb_campaign_trial_init (&t);
      if (!nb_campaign_begin_trial (c, config_id, &t, &error))
        die (error);
      for (guint64 j = 0; j < in_trial; j += PIECE)
        if (!nb_campaign_add_samples (c, t.id, track + j, (gsize) MIN (PIECE, in_trial - j),
                                      &error))
          die (error);
      t.outcome = NB_TRIAL_OK;
      if (!nb_campaign_end_trial (c, &t, &error))
        die (error);
      done += in_trial;
    }
  return now_s () - t0;
}

int
main (int argc, char **argv)
{
  guint64 n = 10000000;
  g_autofree NbTrackSample *track = make_track ();
  gboolean gigabyte = FALSE;
  const char *keep = NULL;
  g_autofree char *dir = NULL, *path = NULL;
  GError *error = NULL;
  NbCampaign *c;
  NbCampaignConfig cfg;
  NbCampaignCounts counts;
  struct rusage ru;
  GStatBuf st;
  double seconds, open_s, packed;

  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--samples") && i + 1 < argc)
      n = g_ascii_strtoull (argv[++i], NULL, 10);
    else if (g_str_equal (argv[i], "--gigabyte"))
      gigabyte = TRUE;
    else if (g_str_equal (argv[i], "--keep") && i + 1 < argc)
      keep = argv[++i];
    else
      {
        fprintf (stderr, "usage: bench-ingest [--samples N] [--gigabyte] [--keep DIR]\n");
        return 2;
      }
  dir = keep ? g_strdup (keep) : g_dir_make_tmp ("navbench-bench-XXXXXX", NULL);
  path = g_build_filename (dir, "ingest.nbc", NULL);
  g_unlink (path);

  if ((c = nb_campaign_create (path, "ingest benchmark", &error)) == NULL)
    die (error);
  nb_campaign_config_init (&cfg);
  cfg.clause = 8;
  cfg.name = g_strdup ("long straight");
  if (!nb_campaign_add_config (c, &cfg, &error))
    die (error);
  seconds = ingest (c, cfg.id, n, track);
  if (!nb_campaign_close (c, &error))
    die (error);
  getrusage (RUSAGE_SELF, &ru);
  g_stat (path, &st);
  packed = (double) n * NB_SAMPLE_PACKED_BYTES;
  printf ("ingest: %" G_GUINT64_FORMAT " samples in %.2f s = %.2f M samples/s\n", n, seconds,
          n / seconds / 1e6);
  printf ("file: %" G_GINT64_FORMAT " bytes = %.2f bytes/sample; packed samples %.0f bytes "
          "(%d bytes/sample); file/packed = %.3f\n", (gint64) st.st_size,
          (double) st.st_size / n, packed, NB_SAMPLE_PACKED_BYTES, st.st_size / packed);
  printf ("peak RSS: %.1f MB\n", ru.ru_maxrss / 1024.0);

  if (gigabyte)
    {
      guint64 more = 0;

      if ((c = nb_campaign_open (path, 0, &error)) == NULL)
        die (error);
      while ((double) st.st_size < 1e9)
        {
          guint64 step = 2000000;

          ingest (c, cfg.id, step, track);
          more += step;
          if (!nb_campaign_flush (c, &error))
            die (error);
          g_stat (path, &st);
        }
      if (!nb_campaign_close (c, &error))
        die (error);
      g_stat (path, &st);
      printf ("grown by %" G_GUINT64_FORMAT " samples to %.2f GB\n", more, st.st_size / 1e9);
    }

  /* Open as a user would: the lock, the header, the schema, recovery, and
   * the counts `campaign info` shows. */
  open_s = now_s ();
  if ((c = nb_campaign_open (path, 0, &error)) == NULL ||
      !nb_campaign_get_counts (c, &counts, &error) || !nb_campaign_close (c, &error))
    die (error);
  open_s = now_s () - open_s;
  printf ("open + counts of a %.2f GB campaign (%" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT
          " chunks): %.2f ms\n", st.st_size / 1e9, counts.samples, counts.chunks, open_s * 1e3);

  nb_campaign_config_clear (&cfg);
  if (keep == NULL)
    {
      g_unlink (path);
      g_rmdir (dir);
    }
  return 0;
}
