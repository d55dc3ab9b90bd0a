/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fr_npy_read with its memory check pointed at fake cgroup files, for the
 * tests (fr-memory-private.h). */
#pragma once

#include "fr-npy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* fr_npy_read, the memory available read with the cgroup files under
 * sysroot ("" is the real system). */
fr_status fr_npy_read_at (const char *path, const char *sysroot, fr_array *out, fr_error *err);

#ifdef __cplusplus
}
#endif
