/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fr-memory's cgroup reading with the file locations injectable, so the
 * tests can point it at a fake tree instead of /proc and /sys. */
#pragma once

#include "fr-memory.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The memory limit of this process's cgroup in bytes, as the files under
 * sysroot tell it ("" is the real system): sysroot/proc/self/cgroup names
 * the cgroup, and the limit is the smallest of
 * sysroot/sys/fs/cgroup/PATH/memory.max (v2) and
 * sysroot/sys/fs/cgroup/memory/PATH/memory.limit_in_bytes (v1) over PATH
 * and each of its parents up to the root.  0 when there is none ("max", a
 * v1 value of 2^62 or more) or nothing could be read: a missing or
 * malformed file is never an error. */
double fr_memory_cgroup_limit_at (const char *sysroot);

/* fr_memory_available with the cgroup files read under sysroot. */
double fr_memory_available_at (const char *sysroot);

/* fr_memory_check with the cgroup files read under sysroot. */
fr_status fr_memory_check_at (double bytes, const char *sysroot, const char *what, fr_error *err);

#ifdef __cplusplus
}
#endif
