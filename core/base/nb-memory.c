/* madvise(MADV_HUGEPAGE) is Linux's, beyond POSIX. */
#define _DEFAULT_SOURCE 1

#include "nb-memory.h"

#include <sys/mman.h>

void
nb_advise_huge_pages (void *data, gsize size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const guintptr huge = 2u << 20;
  guintptr start = ((guintptr) data + huge - 1) & ~(huge - 1);
  guintptr end = ((guintptr) data + size) & ~(huge - 1);

  if (end > start)
    (void) madvise ((void *) start, end - start, MADV_HUGEPAGE);
#else
  (void) data, (void) size;
#endif
}
