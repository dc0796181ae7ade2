/* The crash test of the campaign store: a child process records trials and
 * samples into a campaign in a loop and is killed with SIGKILL at a random
 * moment, 50 times.  After each kill the file is reopened and checked: every
 * committed trial is intact (its samples, in order, to the bit), the trial
 * in flight is marked incomplete with an event saying so, no trial is left
 * running, and PRAGMA integrity_check says ok. */
#include "nb-campaign.h"
#include "nb-error.h"
#include "nb-test.h"
#include "nb-test-tmp.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#define KILLS 50
#define MAX_PIECE 700

/* Sample k of trial id: a function of both, so a sample in the wrong trial
 * or place shows. */
static void
sample_of (gint64 id, guint64 k, NbTrackSample *s)
{
  s->t_s = k * 0.01;
  s->x_mm = id * 100000.0 + k * 0.5;
  s->y_mm = -(double) k;
  s->theta_deg = (double) ((id + (gint64) k) % 360);
  s->quality = (float) (k % 97);
}

/* The writer: trials of a random length (the planned count kept in the
 * trial's number), samples in random pieces, until killed. */
G_GNUC_NORETURN static void
child_write (const char *path, guint seed)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  NbTrackSample piece[MAX_PIECE];
  NbCampaign *c = nb_campaign_open (path, 0, NULL);
  NbCampaignConfig cfg;

  if (c == NULL || !nb_campaign_find_config (c, 8, "crash", &cfg, NULL))
    _exit (3);
  for (;;)
    {
      NbCampaignTrial t;
      guint64 planned = (guint64) g_rand_int_range (rand, 1, 10000);

      nb_campaign_trial_init (&t);
      t.number = (guint) planned;
      t.start_time = g_get_monotonic_time () / 1e6;
      if (!nb_campaign_begin_trial (c, cfg.id, &t, NULL))
        _exit (4);
      for (guint64 k = 0; k < planned;)
        {
          guint64 want = (guint64) g_rand_int_range (rand, 1, MAX_PIECE + 1);
          guint n = (guint) MIN (want, planned - k);

          for (guint i = 0; i < n; i++)
            sample_of (t.id, k + i, &piece[i]);
          if (!nb_campaign_add_samples (c, t.id, piece, n, NULL))
            _exit (5);
          k += n;
          /* An instrument's pace (and now and then a slow one: batches then
           * close on the 100 ms clock, not on a full chunk). */
          g_usleep (g_rand_int_range (rand, 0, 50) == 0 ? 30000 : 1000);
        }
      t.outcome = g_rand_int_range (rand, 0, 4) == 0 ? NB_TRIAL_FAILED : NB_TRIAL_OK;
      t.end_time = g_get_monotonic_time () / 1e6;
      t.attained = (NbPose) { (double) t.id, (double) planned, 0.5 };
      if (!nb_campaign_end_trial (c, &t, NULL))
        _exit (6);
    }
}

typedef struct {
  gint64 id;
  guint64 next;
  gboolean bad;
} Check;

static gboolean
check_block (const NbTrackSample *s, gsize n, gpointer user_data, GError **error)
{
  Check *ch = user_data;

  for (gsize i = 0; i < n; i++, ch->next++)
    {
      NbTrackSample want;

      sample_of (ch->id, ch->next, &want);
      if (memcmp (&s[i].t_s, &want.t_s, 8) != 0 || memcmp (&s[i].x_mm, &want.x_mm, 8) != 0 ||
          memcmp (&s[i].y_mm, &want.y_mm, 8) != 0 ||
          memcmp (&s[i].theta_deg, &want.theta_deg, 8) != 0 || s[i].quality != want.quality)
        ch->bad = TRUE;
    }
  return TRUE;
}

static char *
integrity (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  char *result;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &s, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (s), ==, SQLITE_ROW);
  result = g_strdup ((const char *) sqlite3_column_text (s, 0));
  sqlite3_finalize (s);
  sqlite3_close (db);
  return result;
}

static void
test_sigkill (void)
{
  g_autofree char *dir = nb_test_make_dir ();
  g_autofree char *path = g_build_filename (dir, "crash.nbc", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GRand) rand = g_rand_new_with_seed (g_test_rand_int ());
  NbCampaign *c = nb_campaign_create (path, "crash test", &error);
  NbCampaignConfig cfg;
  guint64 finished_before = 0, incomplete_total = 0, killed_mid_trial = 0;

  g_assert_no_error (error);
  nb_campaign_config_init (&cfg);
  cfg.clause = 8;
  cfg.name = g_strdup ("crash");
  cfg.from_mm[0] = cfg.from_mm[1] = cfg.to_mm[1] = 0.0;
  cfg.to_mm[0] = 5000.0;
  g_assert_true (nb_campaign_add_config (c, &cfg, &error));
  g_assert_true (nb_campaign_close (c, &error));

  for (guint kill_no = 0; kill_no < KILLS; kill_no++)
    {
      pid_t pid = fork ();
      g_autoptr (GArray) trials = NULL;
      g_autofree char *ok = NULL;
      guint64 finished = 0, incomplete = 0;
      int status;

      g_assert_cmpint (pid, >=, 0);
      if (pid == 0)
        child_write (path, g_rand_int (rand));
      /* Past the child's open, then anywhere in its loop. */
      g_usleep ((gulong) g_rand_int_range (rand, 20000, 150000));
      g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      if (!(WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL))
        g_error ("kill %u: the writer stopped by itself (status %d)", kill_no, status);

      ok = integrity (path);
      g_assert_cmpstr (ok, ==, "ok");

      c = nb_campaign_open (path, 0, &error);
      g_assert_no_error (error);
      killed_mid_trial += nb_campaign_get_recovered_trials (c);
      /* One writer, one trial in flight at most. */
      g_assert_cmpuint (nb_campaign_get_recovered_trials (c), <=, 1);
      trials = nb_campaign_list_trials (c, cfg.id, &error);
      g_assert_no_error (error);
      for (guint i = 0; i < trials->len; i++)
        {
          NbCampaignTrial *t = &g_array_index (trials, NbCampaignTrial, i);
          Check ch = { t->id, 0, FALSE };

          g_assert_cmpint (t->outcome, !=, NB_TRIAL_RUNNING);
          g_assert_true (nb_campaign_foreach_samples (c, t->id, check_block, &ch, &error));
          g_assert_no_error (error);
          if (ch.bad)
            g_error ("kill %u: trial %" G_GINT64_FORMAT ": a sample differs", kill_no, t->id);
          /* The committed chunks and the trial's count agree. */
          g_assert_cmpuint (ch.next, ==, t->n_samples);
          if (t->outcome == NB_TRIAL_INCOMPLETE)
            {
              /* A prefix of what was planned: at most the batch in flight lost. */
              g_assert_cmpuint (t->n_samples, <=, t->number);
              g_assert_nonnull (strstr (t->reason, "interrupted"));
              incomplete++;
            }
          else
            {
              /* A finished trial is whole. */
              g_assert_cmpuint (t->n_samples, ==, t->number);
              nb_assert_abs (t->attained.x_mm, (double) t->id, 0.0, "attained x");
              nb_assert_abs (t->attained.y_mm, (double) t->number, 0.0, "attained y");
              finished++;
            }
        }
      /* Nothing committed is ever lost. */
      g_assert_cmpuint (finished, >=, finished_before);
      finished_before = finished;
      incomplete_total = incomplete;
      {
        g_autoptr (GArray) events = nb_campaign_list_events (c, &error);
        guint marked = 0;

        for (guint i = 0; i < events->len; i++)
          marked += g_str_equal (g_array_index (events, NbCampaignEvent, i).what,
                                 "trial marked incomplete");
        g_assert_cmpuint (marked, ==, incomplete);
      }
      g_assert_true (nb_campaign_close (c, &error));
    }
  g_test_message ("%d kills: %" G_GUINT64_FORMAT " trials finished, %" G_GUINT64_FORMAT
                  " marked incomplete", KILLS, finished_before, incomplete_total);
  g_assert_cmpuint (incomplete_total, ==, killed_mid_trial);
  /* The kills hit trials in flight, not only the gaps between them. */
  g_assert_cmpuint (incomplete_total, >=, KILLS / 2);
  g_assert_cmpuint (finished_before, >, 0);
  nb_campaign_config_clear (&cfg);
  nb_test_remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/campaign/crash/sigkill-50", test_sigkill);
  return g_test_run ();
}
