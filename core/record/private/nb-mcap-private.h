/* nb-mcap-private.h — an MCAP writer (https://mcap.dev/spec, major version 0)
 *
 * Layout written:
 *   magic, Header, data section [Chunk (Schema, Channel, Message records),
 *   Message Index per channel of the chunk]…, Data End,
 *   summary section [Schema…, Channel…, Statistics, Chunk Index…],
 *   Summary Offset per group, Footer, magic.
 * Chunks are uncompressed (compression "") with the CRC32 of their records;
 * a chunk is closed once its records reach the chunk size.  The Data End CRC
 * covers every byte from the leading magic up to the Data End record (what
 * the reference writers compute); the Footer CRC covers the summary, the
 * summary offsets and the Footer up to that field (spec, "Footer").
 *
 * Every write error is a GError naming the file; after one, the writer only
 * fails, and close never writes a Footer: a file without its trailing magic
 * is what an MCAP reader rejects, so nothing claims a success that was not.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NB_MCAP_DEFAULT_CHUNK_SIZE (1024 * 1024)

typedef struct NbMcapWriter NbMcapWriter;

/* CRC-32 of ISO-HDLC / zlib (reflected polynomial 0xEDB88320, init and final
 * XOR 0xFFFFFFFF).  Chains like zlib's crc32(): start with crc 0 and feed the
 * previous result back. */
guint32 nb_mcap_crc32_update (guint32 crc, const void *data, gsize len);

/* Creates (or truncates) filename.  chunk_size 0: NB_MCAP_DEFAULT_CHUNK_SIZE. */
NbMcapWriter *nb_mcap_writer_new (const char *filename, const char *profile, const char *library,
                                  gsize chunk_size, GError **error);
/* A new file `name` in the directory dir_fd (O_EXCL, O_NOFOLLOW); display
 * names it in errors. */
NbMcapWriter *nb_mcap_writer_new_at (int dir_fd, const char *name, const char *display,
                                     const char *profile, const char *library,
                                     gsize chunk_size, GError **error);

/* Ids are given in order from 1. */
gboolean nb_mcap_writer_add_schema (NbMcapWriter *w, const char *name, const char *encoding,
                                    const guint8 *data, gsize len, guint16 *id, GError **error);
/* metadata: NULL or a NULL-terminated list of key, value, key, value … */
gboolean nb_mcap_writer_add_channel (NbMcapWriter *w, guint16 schema_id, const char *topic,
                                     const char *message_encoding,
                                     const char *const *metadata, guint16 *id, GError **error);
/* The sequence number is the channel's own counter from 1; publish time is
 * the log time (the recorder is the publisher's only witness). */
gboolean nb_mcap_writer_write_message (NbMcapWriter *w, guint16 channel_id, guint64 log_time,
                                       const guint8 *data, gsize len, GError **error);

guint64  nb_mcap_writer_message_count (const NbMcapWriter *w);
/* Earliest and latest log time; both 0 with no message. */
void     nb_mcap_writer_time_range (const NbMcapWriter *w, guint64 *start, guint64 *end);

/* Flushes, writes the summary and Footer, fsyncs and closes; frees w in any
 * case.  On failure the file is left without a Footer. */
gboolean nb_mcap_writer_close (NbMcapWriter *w, GError **error);
/* Closes and frees without a summary; what was written stays on disk. */
void     nb_mcap_writer_abort (NbMcapWriter *w);

G_END_DECLS
