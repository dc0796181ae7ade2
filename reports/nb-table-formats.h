/* nb-table-formats.h — a protocol table as CSV, Markdown and JSON
 *
 * Renderings of the one table model (nb-table.h): CSV and JSON carry every
 * number at full precision (the shortest text that reads back to the same
 * double), so a figure can be recomputed; Markdown, like the PDF, shows the
 * column's decimals for a person.  Flagged cells are marked in each.
 */
#pragma once

#include <glib.h>

#include "nb-json-writer.h"
#include "nb-table.h"

G_BEGIN_DECLS

/* RFC 4180 (libcsv quoting), UTF-8, '.' decimals; the header row names each
 * column "key [unit]"; notes follow as '#' lines, which navbench's CSV reader
 * skips. */
char *nb_table_to_csv      (const NbTable *table);
/* A GitHub-flavoured Markdown table under a "### title" line, notes below;
 * flagged cells in bold with a "⚠". */
char *nb_table_to_markdown (const NbTable *table);
/* {"title":..,"columns":[{"key","heading","unit"}],"rows":[{key: value}],
 *  "flagged":[[row, column]],"notes":[..]} */
void  nb_table_to_json     (const NbTable *table, NbJsonWriter *writer);

G_END_DECLS
