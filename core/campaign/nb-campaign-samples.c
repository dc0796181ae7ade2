/* nb-campaign-samples.c — raw samples, packed by the chunk */
#include "nb-campaign-private.h"

#include "nb-error.h"
#include "nb-number.h"
#include "nb-route.h"

#include <glib/gi18n-lib.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------- samples -- */

gsize
nb_sample_chunk_size (gsize n)
{
  return NB_CHUNK_HEADER_BYTES + n * NB_SAMPLE_PACKED_BYTES;
}

void
nb_sample_chunk_pack (const NbTrackSample *samples, gsize n, guint8 *out)
{
  guint32 count = GUINT32_TO_LE ((guint32) n);
  guint8 *t = out + NB_CHUNK_HEADER_BYTES;
  guint8 *x = t + 8 * n, *y = x + 8 * n, *th = y + 8 * n, *q = th + 8 * n;

  /* Column by column: a reader of one coordinate touches one run of bytes. */
  memcpy (out, "NBS1", 4);
  memcpy (out + 4, &count, 4);
  for (gsize i = 0; i < n; i++)
    {
      guint64 u;
      guint32 f;

      memcpy (&u, &samples[i].t_s, 8), u = GUINT64_TO_LE (u), memcpy (t + 8 * i, &u, 8);
      memcpy (&u, &samples[i].x_mm, 8), u = GUINT64_TO_LE (u), memcpy (x + 8 * i, &u, 8);
      memcpy (&u, &samples[i].y_mm, 8), u = GUINT64_TO_LE (u), memcpy (y + 8 * i, &u, 8);
      memcpy (&u, &samples[i].theta_deg, 8), u = GUINT64_TO_LE (u), memcpy (th + 8 * i, &u, 8);
      memcpy (&f, &samples[i].quality, 4), f = GUINT32_TO_LE (f), memcpy (q + 4 * i, &f, 4);
    }
}

gboolean
nb_sample_chunk_unpack (const guint8 *data, gsize size, NbTrackSample *out, gsize max, gsize *n,
                        GError **error)
{
  guint32 count;
  const guint8 *t, *x, *y, *th, *q;

  if (size < NB_CHUNK_HEADER_BYTES || memcmp (data, "NBS1", 4) != 0)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "a sample chunk without its header");
      return FALSE;
    }
  memcpy (&count, data + 4, 4);
  count = GUINT32_FROM_LE (count);
  if (count > max || size != nb_sample_chunk_size (count))
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "a sample chunk of %" G_GSIZE_FORMAT " bytes claims %u samples", size, count);
      return FALSE;
    }
  t = data + NB_CHUNK_HEADER_BYTES;
  x = t + 8 * (gsize) count, y = x + 8 * (gsize) count, th = y + 8 * (gsize) count;
  q = th + 8 * (gsize) count;
  for (gsize i = 0; i < count; i++)
    {
      guint64 u;
      guint32 f;

      memcpy (&u, t + 8 * i, 8), u = GUINT64_FROM_LE (u), memcpy (&out[i].t_s, &u, 8);
      memcpy (&u, x + 8 * i, 8), u = GUINT64_FROM_LE (u), memcpy (&out[i].x_mm, &u, 8);
      memcpy (&u, y + 8 * i, 8), u = GUINT64_FROM_LE (u), memcpy (&out[i].y_mm, &u, 8);
      memcpy (&u, th + 8 * i, 8), u = GUINT64_FROM_LE (u), memcpy (&out[i].theta_deg, &u, 8);
      memcpy (&f, q + 4 * i, 4), f = GUINT32_FROM_LE (f), memcpy (&out[i].quality, &f, 4);
    }
  *n = count;
  return TRUE;
}

/* Writes the buffered samples as one chunk into the open batch. */
gboolean
nbc_write_chunk (NbCampaign *c, GError **error)
{
  sqlite3_stmt *s;
  gsize size = nb_sample_chunk_size (c->buf_n);
  int rc;

  if (c->buf_n == 0)
    return TRUE;
  if (!nbc_tx_ensure (c, error))
    return FALSE;
  c->batch_open = TRUE;
  if (c->seq_trial != c->buf_trial)
    {
      if ((s = nbc_get_stmt (c, ST_NEXT_CHUNK_SEQ, error)) == NULL)
        return FALSE;
      sqlite3_bind_int64 (s, 1, c->buf_trial);
      rc = sqlite3_step (s);
      c->next_chunk_seq = sqlite3_column_int64 (s, 0);
      nbc_done_stmt (s);
      if (rc != SQLITE_ROW)
        return nbc_sql_error (c, rc, "numbering a sample chunk", error);
      c->seq_trial = c->buf_trial;
    }
  /* The trial first: samples only join a trial in flight. */
  if ((s = nbc_get_stmt (c, ST_ADD_SAMPLES, error)) == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, (gint64) c->buf_n);
  sqlite3_bind_int64 (s, 2, c->buf_trial);
  if (!nbc_step_done (c, s, "recording samples", error))
    return FALSE;
  if (sqlite3_changes (c->db) != 1)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                   "%s: trial %" G_GINT64_FORMAT " is not in flight: samples are recorded "
                   "only while a trial runs", c->path, c->buf_trial);
      c->buf_n = 0;
      return FALSE;
    }
  if ((s = nbc_get_stmt (c, ST_INSERT_CHUNK, error)) == NULL)
    return FALSE;
  nb_sample_chunk_pack (c->buf, c->buf_n, c->packed);
  sqlite3_bind_int64 (s, 1, c->buf_trial);
  sqlite3_bind_int64 (s, 2, c->next_chunk_seq);
  sqlite3_bind_int64 (s, 3, (gint64) c->buf_n);
  nbc_bind_double (s, 4, c->buf[0].t_s);
  nbc_bind_double (s, 5, c->buf[c->buf_n - 1].t_s);
  sqlite3_bind_blob (s, 6, c->packed, (int) size, SQLITE_STATIC);
  if (!nbc_step_done (c, s, "recording samples", error))
    return FALSE;
  c->next_chunk_seq++;
  c->buf_n = 0;
  return TRUE;
}

gboolean
nb_campaign_add_samples (NbCampaign *c, gint64 trial_id, const NbTrackSample *samples, gsize n,
                         GError **error)
{
  if (!nbc_require_writer (c, error))
    return FALSE;
  if (c->buf_n > 0 && c->buf_trial != trial_id && !nbc_write_chunk (c, error))
    return nbc_tx_fail (c);
  c->buf_trial = trial_id;
  if (n > 0 && c->batch_start_us == 0)
    c->batch_start_us = g_get_monotonic_time ();
  while (n > 0)
    {
      gsize take = MIN (n, NB_CHUNK_MAX_SAMPLES - c->buf_n);

      memcpy (c->buf + c->buf_n, samples, take * sizeof *samples);
      c->buf_n += take;
      samples += take;
      n -= take;
      if (c->buf_n == NB_CHUNK_MAX_SAMPLES && !nbc_write_chunk (c, error))
        return nbc_tx_fail (c);
    }
  /* Bounded loss: nothing waits uncommitted longer than NB_BATCH_MAX_US. */
  if (c->user_depth == 0 && c->batch_start_us != 0 &&
      g_get_monotonic_time () - c->batch_start_us >= NB_BATCH_MAX_US)
    return nb_campaign_flush (c, error);
  return TRUE;
}

gboolean
nb_campaign_flush (NbCampaign *c, GError **error)
{
  if (!c->writer)
    return TRUE;
  if (!nbc_write_chunk (c, error))
    return nbc_tx_fail (c);
  if (!nbc_tx_finish (c, error))
    return FALSE;
  if (c->user_depth == 0)
    c->batch_start_us = 0;
  return TRUE;
}

gboolean
nb_campaign_foreach_samples (NbCampaign *c, gint64 trial_id, NbTrackBlockFunc func,
                             gpointer user_data, GError **error)
{
  g_autofree NbTrackSample *block = g_new (NbTrackSample, NB_CHUNK_MAX_SAMPLES);
  sqlite3_stmt *s = NULL;
  gboolean ok = TRUE;
  int rc;

  /* Its own statement: a callback may read another trial. */
  rc = sqlite3_prepare_v2 (c->db, nbc_statement_sql[ST_SELECT_CHUNKS], -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, trial_id);
      while (ok && (rc = sqlite3_step (s)) == SQLITE_ROW)
        {
          gsize n;

          if (!nb_sample_chunk_unpack (sqlite3_column_blob (s, 1),
                                       (gsize) sqlite3_column_bytes (s, 1), block,
                                       NB_CHUNK_MAX_SAMPLES, &n, error))
            {
              g_prefix_error (error, "%s: trial %" G_GINT64_FORMAT ": ", c->path, trial_id);
              ok = FALSE;
            }
          else if (n != (gsize) sqlite3_column_int64 (s, 0))
            {
              g_set_error (error, NB_ERROR, NB_ERROR_INPUT,
                           "%s: trial %" G_GINT64_FORMAT ": a chunk's count disagrees with its "
                           "data", c->path, trial_id);
              ok = FALSE;
            }
          else
            ok = func (block, n, user_data, error);
        }
    }
  sqlite3_finalize (s);
  if (ok && rc != SQLITE_DONE)
    return nbc_sql_error (c, rc, "reading samples", error);
  return ok;
}
