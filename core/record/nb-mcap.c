/* nb-mcap.c — the MCAP writer (records per https://mcap.dev/spec) */
#include "nb-mcap-private.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "nb-error.h"

/* Record opcodes (spec, "Records"). */
enum {
  OP_HEADER = 0x01,
  OP_FOOTER = 0x02,
  OP_SCHEMA = 0x03,
  OP_CHANNEL = 0x04,
  OP_MESSAGE = 0x05,
  OP_CHUNK = 0x06,
  OP_MESSAGE_INDEX = 0x07,
  OP_CHUNK_INDEX = 0x08,
  OP_STATISTICS = 0x0B,
  OP_SUMMARY_OFFSET = 0x0E,
  OP_DATA_END = 0x0F,
};

static const guint8 MAGIC[8] = { 0x89, 'M', 'C', 'A', 'P', '0', '\r', '\n' };

typedef struct {
  guint16 id;
  char *name;
  char *encoding;
  GBytes *data;
} Schema;

typedef struct {
  guint16 id;
  guint16 schema_id;
  char *topic;
  char *encoding;
  GStrv metadata;        /* key, value, … */
  guint32 sequence;
  guint64 message_count;
  GArray *chunk_index;   /* of guint64 pairs (log_time, offset) in the open chunk */
} Channel;

struct NbMcapWriter {
  char *filename;
  int fd;
  guint64 pos;           /* bytes handed to the file so far */
  guint32 data_crc;      /* CRC of everything before Data End */
  gboolean failed;
  gsize chunk_size;

  GByteArray *chunk;     /* the open chunk's uncompressed records */
  guint64 chunk_start, chunk_end;
  guint chunk_messages;

  GPtrArray *schemas;    /* of Schema*, index id − 1 */
  GPtrArray *channels;   /* of Channel*, index id − 1 */
  GByteArray *chunk_indexes;  /* Chunk Index records, for the summary */
  guint32 chunk_count;
  guint64 message_count, start, end;
  guint64 summary_start;  /* 0 until the Data End is written */
};

/* ---- CRC-32 -------------------------------------------------------------- */

guint32
nb_mcap_crc32_update (guint32 crc, const void *data, gsize len)
{
  /* Nibble table of the reflected polynomial 0xEDB88320: two lookups a byte
   * keep the function pure and the table a constant. */
  static const guint32 table[16] = {
    0x00000000, 0x1DB71064, 0x3B6E20C8, 0x26D930AC, 0x76DC4190, 0x6B6B51F4,
    0x4DB26158, 0x5005713C, 0xEDB88320, 0xF00F9344, 0xD6D6A3E8, 0xCB61B38C,
    0x9B64C2B0, 0x86D3D2D4, 0xA00AE278, 0xBDBDF21C,
  };
  const guint8 *p = data;
  guint32 c = ~crc;

  for (gsize i = 0; i < len; i++)
    {
      c ^= p[i];
      c = table[c & 0x0F] ^ (c >> 4);
      c = table[c & 0x0F] ^ (c >> 4);
    }
  return ~c;
}

/* ---- serialization (spec, "Serialization": little endian) ---------------- */

static void
put_le (GByteArray *b, guint64 v, guint n)
{
  guint8 bytes[8];

  for (guint i = 0; i < n; i++)
    bytes[i] = (guint8) (v >> (8 * i));
  g_byte_array_append (b, bytes, n);
}

static void put_u8 (GByteArray *b, guint8 v) { g_byte_array_append (b, &v, 1); }
static void put_u16 (GByteArray *b, guint16 v) { put_le (b, v, 2); }
static void put_u32 (GByteArray *b, guint32 v) { put_le (b, v, 4); }
static void put_u64 (GByteArray *b, guint64 v) { put_le (b, v, 8); }

static void
patch_le (GByteArray *b, guint at, guint64 v, guint n)
{
  for (guint i = 0; i < n; i++)
    b->data[at + i] = (guint8) (v >> (8 * i));
}

/* String: uint32 byte length, then the bytes. */
static void
put_str (GByteArray *b, const char *s)
{
  gsize len = strlen (s);

  put_u32 (b, (guint32) len);
  g_byte_array_append (b, (const guint8 *) s, (guint) len);
}

/* Opens a record; returns where its uint64 length goes. */
static guint
rec_begin (GByteArray *b, guint8 opcode)
{
  guint at;

  put_u8 (b, opcode);
  at = b->len;
  put_u64 (b, 0);
  return at;
}

static void
rec_end (GByteArray *b, guint at)
{
  patch_le (b, at, b->len - at - 8, 8);
}

/* Opens a uint32-length-prefixed Array or Map; returns where the length goes. */
static guint
len32_begin (GByteArray *b)
{
  guint at = b->len;

  put_u32 (b, 0);
  return at;
}

static void
len32_end (GByteArray *b, guint at)
{
  patch_le (b, at, b->len - at - 4, 4);
}

/* ---- file output --------------------------------------------------------- */

static gboolean
fail_errno (NbMcapWriter *w, int saved, const char *doing, GError **error)
{
  w->failed = TRUE;
  g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: %s while %s", w->filename,
               g_strerror (saved), doing);
  return FALSE;
}

static gboolean
check_usable (NbMcapWriter *w, GError **error)
{
  if (w->failed)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_FAILED, "%s: an earlier write failed", w->filename);
      return FALSE;
    }
  return TRUE;
}

/* Writes all of data; crc: whether it belongs to the data section. */
static gboolean
write_all (NbMcapWriter *w, const void *data, gsize len, gboolean crc, GError **error)
{
  const guint8 *p = data;
  gsize done = 0;

  if (!check_usable (w, error))
    return FALSE;
  while (done < len)
    {
      ssize_t n = write (w->fd, p + done, len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return fail_errno (w, errno, "writing", error);
      if (n == 0)
        return fail_errno (w, ENOSPC, "writing", error);
      done += (gsize) n;
    }
  if (crc)
    w->data_crc = nb_mcap_crc32_update (w->data_crc, data, len);
  w->pos += len;
  return TRUE;
}

/* ---- records ------------------------------------------------------------- */

static void
schema_free (gpointer p)
{
  Schema *s = p;

  g_free (s->name);
  g_free (s->encoding);
  g_bytes_unref (s->data);
  g_free (s);
}

static void
channel_free (gpointer p)
{
  Channel *c = p;

  g_free (c->topic);
  g_free (c->encoding);
  g_strfreev (c->metadata);
  g_array_unref (c->chunk_index);
  g_free (c);
}

static void
put_schema (GByteArray *b, const Schema *s)
{
  guint at = rec_begin (b, OP_SCHEMA);
  gsize len;
  const guint8 *data = g_bytes_get_data (s->data, &len);

  put_u16 (b, s->id);
  put_str (b, s->name);
  put_str (b, s->encoding);
  put_u32 (b, (guint32) len);
  g_byte_array_append (b, data, (guint) len);
  rec_end (b, at);
}

static void
put_channel (GByteArray *b, const Channel *c)
{
  guint at = rec_begin (b, OP_CHANNEL);
  guint map;

  put_u16 (b, c->id);
  put_u16 (b, c->schema_id);
  put_str (b, c->topic);
  put_str (b, c->encoding);
  map = len32_begin (b);
  for (guint i = 0; c->metadata[i] != NULL && c->metadata[i + 1] != NULL; i += 2)
    {
      put_str (b, c->metadata[i]);
      put_str (b, c->metadata[i + 1]);
    }
  len32_end (b, map);
  rec_end (b, at);
}

static void
writer_free (NbMcapWriter *w)
{
  if (w->fd >= 0)
    close (w->fd);
  g_free (w->filename);
  g_byte_array_unref (w->chunk);
  g_byte_array_unref (w->chunk_indexes);
  g_ptr_array_unref (w->schemas);
  g_ptr_array_unref (w->channels);
  g_free (w);
}

NbMcapWriter *
nb_mcap_writer_new (const char *filename, const char *profile, const char *library,
                    gsize chunk_size, GError **error)
{
  return nb_mcap_writer_new_at (AT_FDCWD, filename, filename, profile, library, chunk_size,
                                error);
}

NbMcapWriter *
nb_mcap_writer_new_at (int dir_fd, const char *name, const char *display, const char *profile,
                       const char *library, gsize chunk_size, GError **error)
{
  NbMcapWriter *w = g_new0 (NbMcapWriter, 1);
  g_autoptr (GByteArray) head = g_byte_array_new ();
  guint at;

  w->filename = g_strdup (display);
  w->chunk_size = chunk_size > 0 ? chunk_size : NB_MCAP_DEFAULT_CHUNK_SIZE;
  w->chunk = g_byte_array_new ();
  w->chunk_indexes = g_byte_array_new ();
  w->schemas = g_ptr_array_new_with_free_func (schema_free);
  w->channels = g_ptr_array_new_with_free_func (channel_free);
  /* In a directory by its descriptor: a new file, never through a symlink. */
  w->fd = dir_fd == AT_FDCWD
          ? open (name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
          : openat (dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (w->fd < 0)
    {
      fail_errno (w, errno, "creating the file", error);
      writer_free (w);
      return NULL;
    }
  g_byte_array_append (head, MAGIC, sizeof MAGIC);
  at = rec_begin (head, OP_HEADER);
  put_str (head, profile != NULL ? profile : "");
  put_str (head, library != NULL ? library : "");
  rec_end (head, at);
  if (!write_all (w, head->data, head->len, TRUE, error))
    {
      writer_free (w);
      return NULL;
    }
  return w;
}

gboolean
nb_mcap_writer_add_schema (NbMcapWriter *w, const char *name, const char *encoding,
                           const guint8 *data, gsize len, guint16 *id, GError **error)
{
  Schema *s;

  if (!check_usable (w, error))
    return FALSE;
  if (w->schemas->len >= G_MAXUINT16 || len > G_MAXUINT32)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: too many or too large schemas",
                   w->filename);
      return FALSE;
    }
  s = g_new0 (Schema, 1);
  s->id = (guint16) (w->schemas->len + 1);  /* 0 means "no schema" (spec) */
  s->name = g_strdup (name);
  s->encoding = g_strdup (encoding);
  s->data = g_bytes_new (data, len);
  g_ptr_array_add (w->schemas, s);
  /* In the chunk, before any channel or message that refers to it. */
  put_schema (w->chunk, s);
  *id = s->id;
  return TRUE;
}

gboolean
nb_mcap_writer_add_channel (NbMcapWriter *w, guint16 schema_id, const char *topic,
                            const char *message_encoding, const char *const *metadata,
                            guint16 *id, GError **error)
{
  Channel *c;

  if (!check_usable (w, error))
    return FALSE;
  if (schema_id > w->schemas->len)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: channel %s: no schema %u",
                   w->filename, topic, schema_id);
      return FALSE;
    }
  if (w->channels->len >= G_MAXUINT16)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: too many channels", w->filename);
      return FALSE;
    }
  c = g_new0 (Channel, 1);
  c->id = (guint16) (w->channels->len + 1);
  c->schema_id = schema_id;
  c->topic = g_strdup (topic);
  c->encoding = g_strdup (message_encoding);
  c->metadata = g_strdupv ((char **) (metadata != NULL ? metadata : (const char *const[]) { NULL }));
  c->chunk_index = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_ptr_array_add (w->channels, c);
  put_channel (w->chunk, c);
  *id = c->id;
  return TRUE;
}

/* Writes the open chunk, its Message Index records, and keeps its Chunk Index. */
static gboolean
flush_chunk (NbMcapWriter *w, GError **error)
{
  g_autoptr (GByteArray) head = g_byte_array_new ();
  g_autoptr (GByteArray) index = g_byte_array_new ();
  g_autoptr (GArray) index_offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint32 crc;
  guint64 chunk_start = w->pos, index_start;
  guint at, map;

  if (w->chunk->len == 0)
    return TRUE;
  crc = nb_mcap_crc32_update (0, w->chunk->data, w->chunk->len);
  /* Chunk: start, end, uncompressed size, CRC, compression, uint64-prefixed records. */
  put_u8 (head, OP_CHUNK);
  put_u64 (head, 8 + 8 + 8 + 4 + 4 + 0 + 8 + (guint64) w->chunk->len);
  put_u64 (head, w->chunk_messages > 0 ? w->chunk_start : 0);
  put_u64 (head, w->chunk_messages > 0 ? w->chunk_end : 0);
  put_u64 (head, w->chunk->len);
  put_u32 (head, crc);
  put_str (head, "");
  put_u64 (head, w->chunk->len);
  if (!write_all (w, head->data, head->len, TRUE, error)
      || !write_all (w, w->chunk->data, w->chunk->len, TRUE, error))
    return FALSE;

  /* One Message Index per channel with messages in this chunk, by channel id. */
  index_start = w->pos;
  for (guint i = 0; i < w->channels->len; i++)
    {
      Channel *c = g_ptr_array_index (w->channels, i);
      guint arr;
      guint64 offset = index_start + index->len;

      if (c->chunk_index->len == 0)
        continue;
      g_array_append_val (index_offsets, c->id);
      g_array_append_val (index_offsets, offset);
      at = rec_begin (index, OP_MESSAGE_INDEX);
      put_u16 (index, c->id);
      arr = len32_begin (index);
      for (guint k = 0; k < c->chunk_index->len; k++)
        put_u64 (index, g_array_index (c->chunk_index, guint64, k));
      len32_end (index, arr);
      rec_end (index, at);
      g_array_set_size (c->chunk_index, 0);
    }
  if (!write_all (w, index->data, index->len, TRUE, error))
    return FALSE;

  at = rec_begin (w->chunk_indexes, OP_CHUNK_INDEX);
  put_u64 (w->chunk_indexes, w->chunk_messages > 0 ? w->chunk_start : 0);
  put_u64 (w->chunk_indexes, w->chunk_messages > 0 ? w->chunk_end : 0);
  put_u64 (w->chunk_indexes, chunk_start);
  put_u64 (w->chunk_indexes, head->len + w->chunk->len);
  map = len32_begin (w->chunk_indexes);
  for (guint k = 0; k < index_offsets->len; k += 2)
    {
      put_u16 (w->chunk_indexes, (guint16) g_array_index (index_offsets, guint64, k));
      put_u64 (w->chunk_indexes, g_array_index (index_offsets, guint64, k + 1));
    }
  len32_end (w->chunk_indexes, map);
  put_u64 (w->chunk_indexes, index->len);
  put_str (w->chunk_indexes, "");
  put_u64 (w->chunk_indexes, w->chunk->len);  /* compressed size: not compressed */
  put_u64 (w->chunk_indexes, w->chunk->len);
  rec_end (w->chunk_indexes, at);

  w->chunk_count++;
  g_byte_array_set_size (w->chunk, 0);
  w->chunk_messages = 0;
  return TRUE;
}

gboolean
nb_mcap_writer_write_message (NbMcapWriter *w, guint16 channel_id, guint64 log_time,
                              const guint8 *data, gsize len, GError **error)
{
  Channel *c;
  guint64 offset;
  guint at;

  if (!check_usable (w, error))
    return FALSE;
  if (channel_id == 0 || channel_id > w->channels->len)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: no channel %u", w->filename, channel_id);
      return FALSE;
    }
  if (len > G_MAXUINT32)
    {
      g_set_error (error, NB_ERROR, NB_ERROR_INPUT, "%s: a message of %" G_GSIZE_FORMAT " bytes",
                   w->filename, len);
      return FALSE;
    }
  c = g_ptr_array_index (w->channels, channel_id - 1);
  offset = w->chunk->len;  /* Message Index offsets are into the uncompressed records */
  at = rec_begin (w->chunk, OP_MESSAGE);
  put_u16 (w->chunk, channel_id);
  put_u32 (w->chunk, ++c->sequence);
  put_u64 (w->chunk, log_time);
  put_u64 (w->chunk, log_time);
  g_byte_array_append (w->chunk, data, (guint) len);
  rec_end (w->chunk, at);
  g_array_append_val (c->chunk_index, log_time);
  g_array_append_val (c->chunk_index, offset);

  if (w->chunk_messages == 0 || log_time < w->chunk_start)
    w->chunk_start = log_time;
  if (w->chunk_messages == 0 || log_time > w->chunk_end)
    w->chunk_end = log_time;
  if (w->message_count == 0 || log_time < w->start)
    w->start = log_time;
  if (w->message_count == 0 || log_time > w->end)
    w->end = log_time;
  w->chunk_messages++;
  w->message_count++;
  c->message_count++;

  if (w->chunk->len >= w->chunk_size)
    return flush_chunk (w, error);
  return TRUE;
}

guint64
nb_mcap_writer_message_count (const NbMcapWriter *w)
{
  return w->message_count;
}

void
nb_mcap_writer_time_range (const NbMcapWriter *w, guint64 *start, guint64 *end)
{
  *start = w->message_count > 0 ? w->start : 0;
  *end = w->message_count > 0 ? w->end : 0;
}

/* Appends one Summary Offset record for the group [start, end) of the summary. */
static void
put_summary_offset (GByteArray *offsets, guint8 opcode, guint64 start, guint64 end)
{
  guint at = rec_begin (offsets, OP_SUMMARY_OFFSET);

  put_u8 (offsets, opcode);
  put_u64 (offsets, start);
  put_u64 (offsets, end - start);
  rec_end (offsets, at);
}

static gboolean
write_summary (NbMcapWriter *w, GError **error)
{
  g_autoptr (GByteArray) data_end = g_byte_array_new ();
  g_autoptr (GByteArray) summary = g_byte_array_new ();
  g_autoptr (GByteArray) offsets = g_byte_array_new ();
  g_autoptr (GByteArray) footer = g_byte_array_new ();
  guint64 summary_start, group;
  guint at, map;
  guint32 crc;

  if (!flush_chunk (w, error))
    return FALSE;
  at = rec_begin (data_end, OP_DATA_END);
  put_u32 (data_end, w->data_crc);
  rec_end (data_end, at);
  if (!write_all (w, data_end->data, data_end->len, FALSE, error))
    return FALSE;

  /* Summary, grouped by opcode (spec, "Summary Section"). */
  summary_start = w->pos;
  w->summary_start = summary_start;
  group = summary_start;
  for (guint i = 0; i < w->schemas->len; i++)
    put_schema (summary, g_ptr_array_index (w->schemas, i));
  if (w->schemas->len > 0)
    put_summary_offset (offsets, OP_SCHEMA, group, summary_start + summary->len);
  group = summary_start + summary->len;
  for (guint i = 0; i < w->channels->len; i++)
    put_channel (summary, g_ptr_array_index (w->channels, i));
  if (w->channels->len > 0)
    put_summary_offset (offsets, OP_CHANNEL, group, summary_start + summary->len);

  group = summary_start + summary->len;
  at = rec_begin (summary, OP_STATISTICS);
  put_u64 (summary, w->message_count);
  put_u16 (summary, (guint16) w->schemas->len);
  put_u32 (summary, w->channels->len);
  put_u32 (summary, 0);  /* attachments */
  put_u32 (summary, 0);  /* metadata records */
  put_u32 (summary, w->chunk_count);
  put_u64 (summary, w->message_count > 0 ? w->start : 0);
  put_u64 (summary, w->message_count > 0 ? w->end : 0);
  map = len32_begin (summary);
  for (guint i = 0; i < w->channels->len; i++)
    {
      Channel *c = g_ptr_array_index (w->channels, i);

      put_u16 (summary, c->id);
      put_u64 (summary, c->message_count);
    }
  len32_end (summary, map);
  rec_end (summary, at);
  put_summary_offset (offsets, OP_STATISTICS, group, summary_start + summary->len);

  group = summary_start + summary->len;
  g_byte_array_append (summary, w->chunk_indexes->data, w->chunk_indexes->len);
  if (w->chunk_indexes->len > 0)
    put_summary_offset (offsets, OP_CHUNK_INDEX, group, summary_start + summary->len);

  /* Footer: summary start, summary offset start, CRC of all from the summary
   * start through the summary offset start field. */
  put_u8 (footer, OP_FOOTER);
  put_u64 (footer, 8 + 8 + 4);
  put_u64 (footer, summary_start);
  put_u64 (footer, summary_start + summary->len);
  crc = nb_mcap_crc32_update (0, summary->data, summary->len);
  crc = nb_mcap_crc32_update (crc, offsets->data, offsets->len);
  crc = nb_mcap_crc32_update (crc, footer->data, footer->len);
  put_u32 (footer, crc);
  g_byte_array_append (footer, MAGIC, sizeof MAGIC);

  return write_all (w, summary->data, summary->len, FALSE, error)
         && write_all (w, offsets->data, offsets->len, FALSE, error)
         && write_all (w, footer->data, footer->len, FALSE, error);
}

gboolean
nb_mcap_writer_close (NbMcapWriter *w, GError **error)
{
  gboolean ok;

  if (!check_usable (w, error))
    {
      writer_free (w);
      return FALSE;
    }
  ok = write_summary (w, error);
  if (ok && fsync (w->fd) != 0)
    ok = fail_errno (w, errno, "syncing", error);
  /* A summary written only in part, or not known to be on disk: cut the file
   * back to the Data End so no Footer claims a complete recording.  Best
   * effort — the caller has the error either way.  By the descriptor: the
   * name may no longer lead to this file. */
  if (!ok && w->summary_start > 0 && w->fd >= 0)
    (void) ftruncate (w->fd, (off_t) w->summary_start);
  if (ok)
    {
      int fd = w->fd;

      w->fd = -1;
      if (close (fd) != 0)
        ok = fail_errno (w, errno, "closing", error);
    }
  writer_free (w);
  return ok;
}

void
nb_mcap_writer_abort (NbMcapWriter *w)
{
  if (w != NULL)
    writer_free (w);
}
