/* mcap-parse.h — a small MCAP reader for the tests, written from the
 * specification (https://mcap.dev/spec) apart from core/nb-mcap.c: it walks
 * every record, checks each length, the Chunk CRCs, the Data End CRC, the
 * Footer's summary CRC, the Summary Offsets, Chunk Indexes and Message
 * Indexes against the records they point at, and collects what it read. */
#pragma once

#include <glib.h>
#include <string.h>

#define MP_MAX_CHANNELS 16

typedef struct {
  char *profile, *library;
  /* Data section */
  guint chunks;
  guint chunk_schemas, chunk_channels;
  guint64 messages;                       /* Message records in chunks */
  guint64 channel_messages[MP_MAX_CHANNELS];
  guint64 first_time[MP_MAX_CHANNELS], last_time[MP_MAX_CHANNELS];
  GBytes *first_data[MP_MAX_CHANNELS];    /* first message's CDR bytes */
  guint32 last_sequence[MP_MAX_CHANNELS];
  guint64 index_entries;                  /* Message Index entries */
  /* Summary section */
  char *schema_name[MP_MAX_CHANNELS], *schema_encoding[MP_MAX_CHANNELS];
  GBytes *schema_data[MP_MAX_CHANNELS];
  char *topic[MP_MAX_CHANNELS], *message_encoding[MP_MAX_CHANNELS];
  guint16 channel_schema[MP_MAX_CHANNELS];
  char *qos[MP_MAX_CHANNELS];             /* metadata offered_qos_profiles */
  guint summary_schemas, summary_channels, chunk_indexes, summary_offsets;
  guint64 stat_messages, stat_start, stat_end;
  guint16 stat_schemas;
  guint32 stat_channels, stat_chunks;
  guint64 stat_channel_count[MP_MAX_CHANNELS];
} McapParsed;

static inline void
mp_clear (McapParsed *m)
{
  g_free (m->profile);
  g_free (m->library);
  for (guint i = 0; i < MP_MAX_CHANNELS; i++)
    {
      g_clear_pointer (&m->first_data[i], g_bytes_unref);
      g_clear_pointer (&m->schema_data[i], g_bytes_unref);
      g_free (m->schema_name[i]);
      g_free (m->schema_encoding[i]);
      g_free (m->topic[i]);
      g_free (m->message_encoding[i]);
      g_free (m->qos[i]);
    }
  memset (m, 0, sizeof *m);
}

/* The CRC-32 of zlib, bit by bit from its definition, for the tests. */
static inline guint32
mp_crc32 (const guint8 *p, gsize n)
{
  guint32 c = 0xFFFFFFFFu;

  for (gsize i = 0; i < n; i++)
    {
      c ^= p[i];
      for (int k = 0; k < 8; k++)
        c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
  return c ^ 0xFFFFFFFFu;
}

typedef struct {
  const guint8 *p;
  gsize len, pos;
} MpCur;

static inline guint64
mp_le (MpCur *c, guint n)
{
  guint64 v = 0;

  g_assert_cmpuint (c->pos + n, <=, c->len);
  for (guint i = 0; i < n; i++)
    v |= (guint64) c->p[c->pos + i] << (8 * i);
  c->pos += n;
  return v;
}

static inline char *
mp_str (MpCur *c)
{
  guint64 n = mp_le (c, 4);
  char *s;

  g_assert_cmpuint (c->pos + n, <=, c->len);
  s = g_strndup ((const char *) c->p + c->pos, n);
  g_assert_cmpuint (strlen (s), ==, n);
  c->pos += n;
  return s;
}

static inline guint64
mp_at (const guint8 *p, gsize at, guint n)
{
  guint64 v = 0;

  for (guint i = 0; i < n; i++)
    v |= (guint64) p[at + i] << (8 * i);
  return v;
}

/* Parses one record header at c->pos; returns the opcode, sets the content cursor. */
static inline guint8
mp_record (MpCur *c, MpCur *content)
{
  guint8 op;
  guint64 len;

  g_assert_cmpuint (c->pos + 9, <=, c->len);
  op = c->p[c->pos];
  c->pos++;
  len = mp_le (c, 8);
  g_assert_cmpuint (c->pos + len, <=, c->len);
  content->p = c->p + c->pos;
  content->len = len;
  content->pos = 0;
  c->pos += len;
  return op;
}

static inline void
mp_parse_chunk (McapParsed *m, MpCur *rec, const guint8 *file, gsize chunk_at,
                GHashTable *chunks)
{
  guint64 start = mp_le (rec, 8), end = mp_le (rec, 8), usize = mp_le (rec, 8);
  guint32 crc = (guint32) mp_le (rec, 4);
  g_autofree char *compression = mp_str (rec);
  guint64 rlen = mp_le (rec, 8);
  MpCur r = { rec->p + rec->pos, rlen, 0 };
  guint64 lo = G_MAXUINT64, hi = 0, n = 0;

  g_assert_cmpstr (compression, ==, "");
  g_assert_cmpuint (rlen, ==, usize);
  g_assert_cmpuint (rec->pos + rlen, ==, rec->len);
  g_assert_cmphex (crc, ==, mp_crc32 (r.p, rlen));
  while (r.pos < r.len)
    {
      MpCur in;
      guint8 op = mp_record (&r, &in);

      if (op == 0x03)
        m->chunk_schemas++;
      else if (op == 0x04)
        m->chunk_channels++;
      else
        {
          guint16 ch;
          guint32 seq;
          guint64 log, pub;

          g_assert_cmpuint (op, ==, 0x05);
          ch = (guint16) mp_le (&in, 2);
          seq = (guint32) mp_le (&in, 4);
          log = mp_le (&in, 8);
          pub = mp_le (&in, 8);
          g_assert_cmpuint (ch, >, 0);
          g_assert_cmpuint (ch, <, MP_MAX_CHANNELS);
          g_assert_cmpuint (pub, ==, log);
          g_assert_cmpuint (seq, ==, m->last_sequence[ch] + 1);
          m->last_sequence[ch] = seq;
          if (m->channel_messages[ch] == 0)
            {
              m->first_time[ch] = log;
              m->first_data[ch] = g_bytes_new (in.p + in.pos, in.len - in.pos);
            }
          m->last_time[ch] = log;
          m->channel_messages[ch]++;
          m->messages++;
          lo = MIN (lo, log);
          hi = MAX (hi, log);
          n++;
        }
    }
  g_assert_cmpuint (start, ==, n > 0 ? lo : 0);
  g_assert_cmpuint (end, ==, n > 0 ? hi : 0);
  m->chunks++;
  /* Chunk start offset → record length (opcode and length included). */
  g_hash_table_insert (chunks, GSIZE_TO_POINTER (chunk_at),
                       GSIZE_TO_POINTER ((gsize) (9 + rec->len)));
  (void) file;
}

/* The Message Index at index_at must follow the chunk whose records are
 * chunk_records: each entry names a Message record of that channel with
 * that log time. */
static inline void
mp_parse_message_index (McapParsed *m, MpCur *rec, MpCur *chunk_records, guint *entries)
{
  guint16 ch = (guint16) mp_le (rec, 2);
  guint64 bytes = mp_le (rec, 4);

  g_assert_cmpuint (bytes % 16, ==, 0);
  g_assert_cmpuint (rec->pos + bytes, ==, rec->len);
  for (guint64 k = 0; k < bytes / 16; k++)
    {
      guint64 log = mp_le (rec, 8), off = mp_le (rec, 8);

      g_assert_cmpuint (off + 9 + 22, <=, chunk_records->len);
      g_assert_cmpuint (chunk_records->p[off], ==, 0x05);
      g_assert_cmpuint (mp_at (chunk_records->p, off + 9, 2), ==, ch);
      g_assert_cmpuint (mp_at (chunk_records->p, off + 9 + 6, 8), ==, log);
      m->index_entries++;
      (*entries)++;
    }
}

static inline void
mp_parse (const guint8 *f, gsize n, McapParsed *m)
{
  static const guint8 magic[8] = { 0x89, 'M', 'C', 'A', 'P', '0', '\r', '\n' };
  g_autoptr (GHashTable) chunks = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) indexes = g_hash_table_new (NULL, NULL);  /* offset → channel */
  g_autoptr (GArray) groups = g_array_new (FALSE, FALSE, sizeof (guint64));
  MpCur c = { f, n, 8 }, rec, chunk_records = { NULL, 0, 0 };
  gsize foot;
  guint64 summary_start, offsets_start;
  guint chunk_entries = 0, chunk_messages = 0;
  guint64 before = 0;

  memset (m, 0, sizeof *m);
  g_assert_cmpuint (n, >, 16 + 29);
  g_assert_cmpmem (f, 8, magic, 8);
  g_assert_cmpmem (f + n - 8, 8, magic, 8);

  /* Footer: the last record before the trailing magic. */
  foot = n - 8 - 29;
  g_assert_cmpuint (f[foot], ==, 0x02);
  g_assert_cmpuint (mp_at (f, foot + 1, 8), ==, 20);
  summary_start = mp_at (f, foot + 9, 8);
  offsets_start = mp_at (f, foot + 17, 8);
  g_assert_cmpuint (summary_start, <, offsets_start);
  g_assert_cmpuint (offsets_start, <=, foot);
  g_assert_cmphex (mp_at (f, foot + 25, 4), ==, mp_crc32 (f + summary_start,
                                                          foot + 25 - summary_start));

  /* Header */
  g_assert_cmpuint (mp_record (&c, &rec), ==, 0x01);
  m->profile = mp_str (&rec);
  m->library = mp_str (&rec);
  g_assert_cmpuint (rec.pos, ==, rec.len);

  /* Data section */
  for (;;)
    {
      gsize at = c.pos;
      guint8 op = mp_record (&c, &rec);

      if (op == 0x06)
        {
          g_assert_cmpuint (chunk_entries, ==, chunk_messages);
          before = m->messages;
          mp_parse_chunk (m, &rec, f, at, chunks);
          chunk_messages = (guint) (m->messages - before);
          chunk_entries = 0;
          /* the records field: after start, end, size, CRC (28 bytes) and compression */
          {
            MpCur hdr = rec;
            g_autofree char *comp = NULL;

            hdr.pos = 28;
            comp = mp_str (&hdr);
            chunk_records.len = mp_le (&hdr, 8);
            chunk_records.p = hdr.p + hdr.pos;
          }
        }
      else if (op == 0x07)
        {
          g_assert_nonnull (chunk_records.p);
          g_hash_table_insert (indexes, GSIZE_TO_POINTER (at),
                               GSIZE_TO_POINTER ((gsize) mp_at (rec.p, 0, 2)));
          mp_parse_message_index (m, &rec, &chunk_records, &chunk_entries);
        }
      else
        {
          g_assert_cmpuint (op, ==, 0x0F);
          g_assert_cmpuint (rec.len, ==, 4);
          g_assert_cmphex (mp_at (rec.p, 0, 4), ==, mp_crc32 (f, at));
          break;
        }
    }
  g_assert_cmpuint (chunk_entries, ==, chunk_messages);
  g_assert_cmpuint (c.pos, ==, summary_start);

  /* Summary: records grouped by opcode. */
  while (c.pos < offsets_start)
    {
      gsize at = c.pos;
      guint8 op = mp_record (&c, &rec);

      if (groups->len == 0 || g_array_index (groups, guint64, groups->len - 3) != op)
        {
          guint64 g[3] = { op, at, 0 };

          for (guint k = 0; k < groups->len; k += 3)
            g_assert_cmpuint (g_array_index (groups, guint64, k), !=, op);
          g_array_append_vals (groups, g, 3);
        }
      g_array_index (groups, guint64, groups->len - 1) += c.pos - at;

      if (op == 0x03)
        {
          guint16 id = (guint16) mp_le (&rec, 2);
          guint64 dl;

          g_assert_cmpuint (id, >, 0);
          g_assert_cmpuint (id, <, MP_MAX_CHANNELS);
          m->schema_name[id] = mp_str (&rec);
          m->schema_encoding[id] = mp_str (&rec);
          dl = mp_le (&rec, 4);
          g_assert_cmpuint (rec.pos + dl, ==, rec.len);
          m->schema_data[id] = g_bytes_new (rec.p + rec.pos, dl);
          m->summary_schemas++;
        }
      else if (op == 0x04)
        {
          guint16 id = (guint16) mp_le (&rec, 2);
          guint64 ml, end;

          g_assert_cmpuint (id, <, MP_MAX_CHANNELS);
          m->channel_schema[id] = (guint16) mp_le (&rec, 2);
          m->topic[id] = mp_str (&rec);
          m->message_encoding[id] = mp_str (&rec);
          ml = mp_le (&rec, 4);
          end = rec.pos + ml;
          g_assert_cmpuint (end, ==, rec.len);
          while (rec.pos < end)
            {
              g_autofree char *k = mp_str (&rec);
              char *v = mp_str (&rec);

              if (strcmp (k, "offered_qos_profiles") == 0)
                m->qos[id] = v;
              else
                g_free (v);
            }
          m->summary_channels++;
        }
      else if (op == 0x0B)
        {
          guint64 ml, end;

          m->stat_messages = mp_le (&rec, 8);
          m->stat_schemas = (guint16) mp_le (&rec, 2);
          m->stat_channels = (guint32) mp_le (&rec, 4);
          g_assert_cmpuint (mp_le (&rec, 4), ==, 0);  /* attachments */
          g_assert_cmpuint (mp_le (&rec, 4), ==, 0);  /* metadata */
          m->stat_chunks = (guint32) mp_le (&rec, 4);
          m->stat_start = mp_le (&rec, 8);
          m->stat_end = mp_le (&rec, 8);
          ml = mp_le (&rec, 4);
          end = rec.pos + ml;
          g_assert_cmpuint (end, ==, rec.len);
          while (rec.pos < end)
            {
              guint16 id = (guint16) mp_le (&rec, 2);

              g_assert_cmpuint (id, <, MP_MAX_CHANNELS);
              m->stat_channel_count[id] = mp_le (&rec, 8);
            }
        }
      else
        {
          guint64 start, end, chunk_at, chunk_len, ml, map_end, index_len = 0, mil;
          g_autofree char *comp = NULL;

          g_assert_cmpuint (op, ==, 0x08);
          start = mp_le (&rec, 8);
          end = mp_le (&rec, 8);
          chunk_at = mp_le (&rec, 8);
          chunk_len = mp_le (&rec, 8);
          g_assert_true (g_hash_table_contains (chunks, GSIZE_TO_POINTER ((gsize) chunk_at)));
          g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (chunks,
                              GSIZE_TO_POINTER ((gsize) chunk_at))), ==, chunk_len);
          g_assert_cmpuint (mp_at (f, chunk_at + 9, 8), ==, start);
          g_assert_cmpuint (mp_at (f, chunk_at + 17, 8), ==, end);
          ml = mp_le (&rec, 4);
          map_end = rec.pos + ml;
          while (rec.pos < map_end)
            {
              guint16 ch = (guint16) mp_le (&rec, 2);
              guint64 off = mp_le (&rec, 8);

              g_assert_cmpuint (f[off], ==, 0x07);
              g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (indexes,
                                  GSIZE_TO_POINTER ((gsize) off))), ==, ch);
              /* the Message Index records follow the chunk */
              g_assert_cmpuint (off, >=, chunk_at + chunk_len);
              index_len += 9 + mp_at (f, off + 1, 8);
            }
          mil = mp_le (&rec, 8);
          g_assert_cmpuint (mil, ==, index_len);
          comp = mp_str (&rec);
          g_assert_cmpstr (comp, ==, "");
          g_assert_cmpuint (mp_le (&rec, 8), ==, mp_at (f, chunk_at + 25, 8));
          g_assert_cmpuint (mp_le (&rec, 8), ==, mp_at (f, chunk_at + 25, 8));
          g_assert_cmpuint (rec.pos, ==, rec.len);
          m->chunk_indexes++;
        }
    }
  g_assert_cmpuint (c.pos, ==, offsets_start);

  /* Summary Offsets: one per group, in order. */
  for (guint k = 0; c.pos < foot; k += 3)
    {
      g_assert_cmpuint (mp_record (&c, &rec), ==, 0x0E);
      g_assert_cmpuint (rec.len, ==, 17);
      g_assert_cmpuint (k, <, groups->len);
      g_assert_cmpuint (rec.p[0], ==, g_array_index (groups, guint64, k));
      g_assert_cmpuint (mp_at (rec.p, 1, 8), ==, g_array_index (groups, guint64, k + 1));
      g_assert_cmpuint (mp_at (rec.p, 9, 8), ==, g_array_index (groups, guint64, k + 2));
      m->summary_offsets++;
    }
  g_assert_cmpuint (m->summary_offsets * 3, ==, groups->len);
  g_assert_cmpuint (c.pos, ==, foot);
}
