/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Travel times against the range of the precision they are written in.
 *
 * In a time grid +inf means "no source reaches this node" (CONTRACT.md),
 * so a time that overflowed must never be written as +inf, nor as NaN.
 * The check is exact and O(n), and runs after a solve, outside its timing:
 * a free node (speed > 0) always gets a finite candidate from a free axis
 * neighbour with a finite time (in spr, radius >= 1, the axis edge between
 * them crosses only their own two cells; in fold the axis neighbour is a
 * vertex candidate), so a free node at +inf beside such a neighbour means
 * the sum overflowed.  A node reached only along diagonals, with both axis
 * neighbours obstacles, is beyond its reach. */
#pragma once

#include <stdbool.h>

#include "fr-grid.h"
#include "fr-status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks time (g's nodes) as it will be written: narrowed to float32 when
 * single_precision, where a finite time above FLT_MAX turns into +inf.
 * speed holds g's speeds or velocities (0 = obstacle), or NULL when every
 * node is free.  Fails with FR_E_INPUT, naming the first bad node, when a
 * time is NaN or -inf, when a finite time does not fit the precision (too
 * large, or positive but below its smallest normal number), or
 * when a free node holds +inf beside a free, finite axis neighbour. */
fr_status fr_time_check_range (const fr_grid *g, const double *time, const float *speed,
                               bool single_precision, fr_error *err);

#ifdef __cplusplus
}
#endif
