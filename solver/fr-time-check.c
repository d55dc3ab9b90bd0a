/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fr-time-check.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

/* A time as a float32 or float64 file stores it. */
static inline double
written (double t, bool single_precision)
{
  return single_precision ? (double) (float) t : t;
}

static inline bool
is_free (const float *speed, size_t i)
{
  return speed == NULL || speed[i] > 0.0f;
}

static bool
free_and_finite (const double *time, const float *speed, bool single, size_t j)
{
  return is_free (speed, j) && isfinite (written (time[j], single));
}

static bool
overflowed (const fr_grid *g, const double *time, const float *speed, bool single, size_t i)
{
  const double w = written (time[i], single);
  const size_t nx = g->nx, ny = g->ny, plane = g->nx * g->ny;

  if (isnan (w) || w == -INFINITY || (isfinite (time[i]) && !isfinite (w)))
    return true;
  if (w != INFINITY || !is_free (speed, i))
    return false;

  /* Rare (unreached nodes only), so the divisions cost nothing. */
  size_t ix = i % nx, iy = (i / nx) % ny, iz = i / plane;
  return (ix > 0 && free_and_finite (time, speed, single, i - 1))
         || (ix + 1 < nx && free_and_finite (time, speed, single, i + 1))
         || (iy > 0 && free_and_finite (time, speed, single, i - nx))
         || (iy + 1 < ny && free_and_finite (time, speed, single, i + nx))
         || (iz > 0 && free_and_finite (time, speed, single, i - plane))
         || (iz + 1 < g->nz && free_and_finite (time, speed, single, i + plane));
}

/* A positive time written as 0 or a subnormal: it would read as a source
 * (0) or without its digits (times at a spacing of 1e-50). */
static inline bool
underflowed (const double *time, bool single, size_t i)
{
  const double w = written (time[i], single);

  return time[i] > 0.0 && w < (single ? (double) FLT_MIN : DBL_MIN);
}

static inline bool
out_of_range (const fr_grid *g, const double *time, const float *speed, bool single, size_t i)
{
  return underflowed (time, single, i) || overflowed (g, time, speed, single, i);
}

fr_status
fr_time_check_range (const fr_grid *g, const double *time, const float *speed,
                     bool single_precision, fr_error *err)
{
  size_t n;
  int bad = 0;

  if (g == NULL || time == NULL)
    return fr_error_set (err, FR_E_INPUT, "no grid or no times to check");
  n = fr_grid_count (g);

  /* A parallel scan, then the first bad node for the message, as the
   * speed checks do. */
#pragma omp parallel for schedule(static) reduction(|:bad)
  for (size_t i = 0; i < n; i++)
    bad |= out_of_range (g, time, speed, single_precision, i);
  if (!bad)
    return FR_OK;
  for (size_t i = 0; i < n; i++)
    {
      if (!out_of_range (g, time, speed, single_precision, i))
        continue;
      size_t ix = i % g->nx, iy = (i / g->nx) % g->ny, iz = i / (g->nx * g->ny);
      const char *prec = single_precision ? "single" : "double";
      if (underflowed (time, single_precision, i))
        {
          const double smallest = single_precision ? (double) FLT_MIN : DBL_MIN;
          char node[96];

          if (g->ndim == 3)
            snprintf (node, sizeof node, "(ix=%zu, iy=%zu, iz=%zu)", ix, iy, iz);
          else
            snprintf (node, sizeof node, "(ix=%zu, iz=%zu)", ix, iz);
          return fr_error_set (err, FR_E_INPUT, "travel times fall below %s precision's range "
                               "(smallest %.2g) at node %s", prec, smallest, node);
        }
      const double largest = single_precision ? (double) FLT_MAX : DBL_MAX;
      const char *nan = isnan (time[i]) ? " (NaN)" : "";
      if (g->ndim == 3)
        return fr_error_set (err, FR_E_INPUT, "travel times exceed %s precision's range "
                             "(largest %.2g) at node (ix=%zu, iy=%zu, iz=%zu)%s", prec, largest,
                             ix, iy, iz, nan);
      return fr_error_set (err, FR_E_INPUT, "travel times exceed %s precision's range "
                           "(largest %.2g) at node (ix=%zu, iz=%zu)%s", prec, largest, ix, iz,
                           nan);
    }
  return FR_OK;
}
