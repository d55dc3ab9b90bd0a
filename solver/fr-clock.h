/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The solvers' wall clock for the times they report (solve_ms and its
 * parts): monotonic, in milliseconds, from an arbitrary origin. */
#pragma once

#include <time.h>

static inline double
fr_clock_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec * 1e-6;
}
