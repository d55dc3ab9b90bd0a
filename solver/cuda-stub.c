/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Entry points of the CUDA back ends in a build without CUDA. */
#include <stdio.h>

#include "fr-device.h"
#include "fr-spr.h"
#include "fold-private.h"
#include "spr-private.h"

fr_status
fr_cuda_devices (fr_device_info *out, int max, int *count, char *why, size_t why_len)
{
  (void) out;
  (void) max;
  *count = 0;
  if (why != NULL && why_len > 0)
    snprintf (why, why_len, "this build has no CUDA back end");
  return FR_OK;
}

bool
fr_cuda_built (void)
{
  return false;
}

bool
fr_cuda_usable (void)
{
  return false;
}

fr_status
spr_solve_cuda (const spr_problem *pb, fr_spr_result *res, fr_error *err)
{
  (void) pb;
  (void) res;
  return fr_error_set (err, FR_E_UNSUPPORTED, "this build has no CUDA back end");
}

void
fr_spr_device_free (void *device_ptr)
{
  (void) device_ptr;
}

void
fr_device_free (void *device_ptr)
{
  (void) device_ptr;
}

fr_status
fold_solve_cuda (const fold_problem *pb, double *out, fold_stats *stats, void **device_time,
                 fr_error *err)
{
  (void) pb;
  (void) out;
  (void) stats;
  (void) device_time;
  return fr_error_set (err, FR_E_UNSUPPORTED, "this build has no CUDA back end");
}

int
fold_cuda_default_block (int ndim)
{
  return ndim == 3 ? 8 : 32;
}
