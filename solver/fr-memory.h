/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Whether a solve fits in memory, asked before it allocates.
 *
 * Linux overcommits: malloc of more than the machine holds succeeds, and
 * the process is killed later, with no message, by the OOM killer, when the
 * pages are touched.  So a solve estimates what it needs (a rough upper
 * bound: its grids, layouts and per-thread buffers) and refuses up front,
 * with FR_E_NOMEM, when that exceeds the memory this process may use: the
 * physical memory, or less where its cgroup (a container, a systemd slice)
 * sets a lower limit, past which the kernel kills it just the same. */
#pragma once

#include "fr-status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of physical memory of this machine; 0 when unknown. */
double fr_memory_physical (void);

/* Bytes of memory this process may use: the smaller of the physical memory
 * and its cgroup's memory limit (cgroup v2 memory.max or v1
 * memory.limit_in_bytes, the smallest along its path); 0 when unknown. */
double fr_memory_available (void);

/* FR_OK when a solve needing about `bytes` fits in fr_memory_available (or
 * that is unknown); else FR_E_NOMEM with "WHAT needs about N GB of memory,
 * this machine has M GB", followed by ", of which this process may use
 * L GB (its cgroup's memory limit)" where that limit is the lower. */
fr_status fr_memory_check (double bytes, const char *what, fr_error *err);

#ifdef __cplusplus
}
#endif
