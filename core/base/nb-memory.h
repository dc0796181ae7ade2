/* nb-memory.h — memory hints for the readers of large files */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Asks for transparent huge pages on the whole 2 MiB pages inside
 * [data, data + size): a million poses in 4 KiB pages cost as much in
 * first-touch faults as in parsing (measured: 340 ms → 200 ms for 1 M poses
 * on a VM).  A hint only; nothing on systems without madvise. */
void nb_advise_huge_pages (void *data, gsize size);

G_END_DECLS
