/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "foldray-config.h"
#include "fr-device.h"

#if FOLDRAY_HAVE_OPENMP
#include <omp.h>
#endif

int
fr_cpu_threads (void)
{
#if FOLDRAY_HAVE_OPENMP
  return omp_get_max_threads ();
#else
  return 1;
#endif
}
