/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA tests' guard: a case skips (reported as a skip, never a pass)
 * where the build has no CUDA back end or no device is usable. */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "fr-spr.h"   /* fr_cuda_built, fr_cuda_usable */

static inline bool
need_device (void)
{
  if (!fr_cuda_built ())
    {
      g_test_skip ("this build has no CUDA back end");
      return false;
    }
  if (!fr_cuda_usable ())
    {
      g_test_skip ("no usable CUDA device");
      return false;
    }
  return true;
}
