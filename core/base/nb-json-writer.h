/* nb-json-writer.h — JSON text with the numbers a person expects
 *
 * json-glib prints every double with 17 digits (0.1 → 0.10000000000000001);
 * this writer prints the shortest form that reads back to the same double,
 * NaN and infinities as null, and indents objects while keeping arrays of
 * plain values on one line.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _NbJsonWriter NbJsonWriter;

NbJsonWriter *nb_json_writer_new          (void);
void          nb_json_writer_free         (NbJsonWriter *w);
/* The text so far, with a final newline; the writer is spent. */
char         *nb_json_writer_finish       (NbJsonWriter *w);

void nb_json_begin_object (NbJsonWriter *w);
void nb_json_end_object   (NbJsonWriter *w);
void nb_json_begin_array  (NbJsonWriter *w);
void nb_json_end_array    (NbJsonWriter *w);
void nb_json_key          (NbJsonWriter *w, const char *key);
void nb_json_string       (NbJsonWriter *w, const char *value);
void nb_json_double       (NbJsonWriter *w, double value);
void nb_json_int          (NbJsonWriter *w, gint64 value);
void nb_json_bool         (NbJsonWriter *w, gboolean value);
void nb_json_null         (NbJsonWriter *w);
/* One complete JSON value another writer made (its text as is), e.g. a
 * member the report copies from the results. */
void nb_json_raw          (NbJsonWriter *w, const char *json);

/* The shortest decimal that reads back as value; buf ≥ 32 bytes. */
const char *nb_json_format_double (char *buf, gsize size, double value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NbJsonWriter, nb_json_writer_free)

G_END_DECLS
