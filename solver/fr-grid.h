/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Regular 2D and 3D grids (CONTRACT.md): node (ix, iy, iz) sits at
 * (x0 + ix·dx, y0 + iy·dy, z0 + iz·dz), z grows downward, and each node is
 * the centre of a cell of uniform value.  Arrays are C order with x fastest:
 * index = (iz·ny + iy)·nx + ix.  A 2D grid has ny = 1 and ignores y. */
#pragma once

#include <stddef.h>
#include <stdbool.h>

#include "fr-status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fr_grid {
  int ndim;              /* 2 or 3 */
  size_t nx, ny, nz;     /* ny == 1 in 2D */
  double dx, dy, dz;     /* dy is unused in 2D */
  double x0, y0, z0;
} fr_grid;

/* Largest grid we accept: 2^31 nodes keeps every node index in an int32. */
#define FR_GRID_MAX_NODES ((size_t) 1 << 31)

/* Largest span of a grid along one axis, in model units ((n - 1)·d, or d
 * for a single node).  The solvers square distances in double precision:
 * past about 1e154 a square overflows and an edge or an update silently
 * drops out, so the limit keeps every squared distance below 1e301. */
#define FR_GRID_MAX_EXTENT 1e150

/* Least spacing along an axis, relative to the largest coordinate of its
 * nodes: double precision keeps about 16 digits, and a spacing must leave
 * 4 of them for positions inside a cell. */
#define FR_GRID_MIN_RELATIVE_SPACING 1e-12

/* A 2D grid of nx × nz nodes with spacing dx, dz and origin x0, z0. */
fr_grid fr_grid_2d (size_t nx, size_t nz, double dx, double dz, double x0, double z0);
fr_grid fr_grid_3d (size_t nx, size_t ny, size_t nz, double dx, double dy, double dz,
                    double x0, double y0, double z0);

/* Checks sizes, spacing (> 0, finite, a span of at most FR_GRID_MAX_EXTENT
 * per axis, at least FR_GRID_MIN_RELATIVE_SPACING of the axis's largest
 * coordinate) and origin (finite).  A message about the spacing names the
 * word "spacing", one about the origin "origin". */
fr_status fr_grid_check (const fr_grid *g, fr_error *err);

static inline size_t
fr_grid_count (const fr_grid *g)
{
  return g->nx * g->ny * g->nz;
}

static inline size_t
fr_grid_index (const fr_grid *g, size_t ix, size_t iy, size_t iz)
{
  return (iz * g->ny + iy) * g->nx + ix;
}

/* Model coordinates of node (ix, iy, iz). */
void fr_grid_node_position (const fr_grid *g, size_t ix, size_t iy, size_t iz,
                            double *x, double *y, double *z);

/* True when the point lies inside the grid's node span [x0, x0+(nx-1)dx] ×
 * ... (a small tolerance of 1e-9 spacing absorbs decimal rounding). */
bool fr_grid_contains (const fr_grid *g, double x, double y, double z);

/* The node nearest to a point inside the grid.  Returns false when the
 * point is outside.  y is ignored in 2D. */
bool fr_grid_nearest_node (const fr_grid *g, double x, double y, double z,
                           size_t *ix, size_t *iy, size_t *iz);

/* The value of a node field v at a point inside the grid: linear along
 * each axis between the nodes of the cell holding the point (exact at a
 * node, and for a field linear in x, y and z), or, where one of those
 * nodes is not finite (+inf beside an obstacle or unreached), the nearest
 * node's value.  NaN when the point is outside.  y is ignored in 2D. */
double fr_grid_sample (const fr_grid *g, const double *v, double x, double y, double z);

/* Like fr_grid_nearest_node but also requires the point to lie on that
 * node, within 1e-6 of the spacing. */
bool fr_grid_exact_node (const fr_grid *g, double x, double y, double z,
                         size_t *ix, size_t *iy, size_t *iz);

/* Velocity or speed grids: every value must be finite and >= 0
 * (0 marks an impermeable cell).  The message names `what` and the first
 * offending node. */
fr_status fr_check_speed_f32 (const fr_grid *g, const float *v, const char *what, fr_error *err);

/* The shortest edge's time, the shortest spacing over the fastest cell of
 * speed v (a 2D grid's x and z), must be a normal number of the precision
 * times are computed in (float32, or double with double_precision): below,
 * times round to 0 and every node reads as a source.  SPR refuses such a
 * grid; a grid file's reader refuses what even double precision would. */
fr_status fr_check_time_scale (const fr_grid *g, const float *v, bool double_precision,
                               fr_error *err);

/* The same for float64 values that are about to be narrowed to float32,
 * where the solvers take them: besides the checks above, a positive value
 * must keep a finite, nonzero float32 (about 1.4e-45 to 3.4e38), or it
 * would turn into an obstacle or an infinite speed.  -0.0 compares equal
 * to 0 and is an obstacle, as in float32 grids; -1e-50 is negative. */
fr_status fr_check_speed_f64 (const fr_grid *g, const double *v, const char *what, fr_error *err);

#ifdef __cplusplus
}
#endif
