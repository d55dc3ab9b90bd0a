/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fr-memory.h"

#include <unistd.h>

#define GB 1073741824.0   /* 2^30: the unit free(1) and the system monitors show */

double
fr_memory_physical (void)
{
  long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);
  if (pages <= 0 || page <= 0)
    return 0.0;
  return (double) pages * (double) page;
}

fr_status
fr_memory_check (double bytes, const char *what, fr_error *err)
{
  const double have = fr_memory_physical ();

  if (have <= 0.0 || !(bytes > have))
    return FR_OK;
  return fr_error_set (err, FR_E_NOMEM, "%s needs about %.1f GB of memory, this machine has %.1f GB",
                       what, bytes / GB, have / GB);
}
