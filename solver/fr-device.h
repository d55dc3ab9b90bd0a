/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What compute devices this build has and sees, for `foldray-cli info` and
 * the application's status line. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "fr-status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fr_device_info {
  char name[128];
  size_t memory_bytes;
  int multiprocessors;
  int major, minor;          /* compute capability */
} fr_device_info;

/* Fills up to max entries and sets *count.  Without CUDA in the build, or
 * with no usable device, *count is 0 and FR_OK is returned; `why` (may be
 * NULL) then says which, in a short sentence. */
fr_status fr_cuda_devices (fr_device_info *out, int max, int *count, char *why, size_t why_len);

/* Frees device memory a solver handed out (a result's device_time); NULL
 * is a no-op, and so is every call in a build without CUDA. */
void fr_device_free (void *device_ptr);

/* Host threads the CPU back ends will use (OpenMP's maximum, or 1). */
int fr_cpu_threads (void);

#ifdef __cplusplus
}
#endif
