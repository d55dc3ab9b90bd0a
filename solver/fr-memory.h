/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Whether a solve fits in memory, asked before it allocates.
 *
 * Linux overcommits: malloc of more than the machine holds succeeds, and
 * the process is killed later, with no message, by the OOM killer, when the
 * pages are touched.  So a solve estimates what it needs (a rough upper
 * bound: its grids, layouts and per-thread buffers) and refuses up front,
 * with FR_E_NOMEM, when that exceeds the memory this process may use: the
 * physical memory, or less where its cgroup (a container, a systemd slice)
 * sets a lower limit, past which the kernel kills it just the same, or
 * where its own address-space or data-size limit (ulimit -v, ulimit -d)
 * leaves less, past which malloc returns NULL. */
#pragma once

#include "fr-status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of physical memory of this machine; 0 when unknown. */
double fr_memory_physical (void);

/* Bytes of memory this process may use: the smallest of the physical
 * memory, its cgroup's memory limit (cgroup v2 memory.max or v1
 * memory.limit_in_bytes, the smallest along its path) and what its soft
 * RLIMIT_AS and RLIMIT_DATA leave (each limit less what the process
 * already maps against it, VmSize and VmData); 0 when unknown. */
double fr_memory_available (void);

/* FR_OK when a solve needing about `bytes` fits in fr_memory_available (or
 * that is unknown); else FR_E_NOMEM with "WHAT needs about N GB of memory,
 * this machine has M GB", followed by ", of which this process may use
 * L GB (WHY)" where a lower limit sets L, WHY being "its cgroup's memory
 * limit", "the rest of its address-space limit, ulimit -v" or "the rest
 * of its data-size limit, ulimit -d".  The message is translated where the
 * application installed a translator (fr-i18n.h). */
fr_status fr_memory_check (double bytes, const char *what, fr_error *err);

#ifdef __cplusplus
}
#endif
