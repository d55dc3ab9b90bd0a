/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "foldray-config.h"
#include "fr-device.h"

#include "fr-omp.h"

int
fr_cpu_threads (void)
{
  return fr_omp_max_threads ();
}
