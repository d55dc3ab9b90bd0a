/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Level sets of a 2D node field by marching squares: the folded horizons
 * T = k·Δ of a fold solve, or isochrons of any traveltime grid.  Cells with
 * a corner that is not finite (+inf = unreached, NaN) are skipped, so a line
 * ends where the field stops.  Crossings are joined across cells into
 * polylines; a closed curve ends on its first point. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "fr-grid.h"
#include "fr-status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fr_contour_set {
  size_t nlines;
  size_t *start;     /* nlines + 1 offsets into the points: line i is points
                        start[i] .. start[i+1] - 1 */
  int *level;        /* nlines: the index in the levels given of each line */
  bool *closed;      /* nlines: whether the line closes on itself */
  double *xz;        /* 2 · start[nlines] model coordinates (x, z) */
} fr_contour_set;

/* Frees and zeroes; safe on a zeroed set. */
void fr_contour_set_clear (fr_contour_set *set);

/* Traces the level sets values = levels[k] (k < nlevels, any order) of the
 * nx·nz node values on 2D grid g into out (cleared first; the caller
 * clears it after use, also on failure).  A node equal to a level counts as
 * above it, so a line never passes through a node twice. */
fr_status fr_contour_trace (const fr_grid *g, const float *values, const double *levels,
                            size_t nlevels, fr_contour_set *out, fr_error *err);

#ifdef __cplusplus
}
#endif
