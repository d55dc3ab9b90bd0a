/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rasterisation of a drawn velocity model onto a solver grid.
 *
 * The model: an optional background velocity grid (any geometry), layers
 * and obstacles.  Layer k is bounded above by its interface, a polyline
 * z = h_k(x) with increasing x (extended flat beyond its end nodes); a
 * point belongs to the last layer in the list whose interface lies above
 * it, so later layers win where interfaces cross.  Inside layer k
 *     v(x, z) = v_top + dvdz·(z − h_k(x)) + dvdx·(x − x_ref),
 * v_top being the velocity just below the interface at x = x_ref.
 * Above every interface lies the background grid (its nearest cell), or,
 * without one, the first layer, or, without layers, default_velocity.
 * Obstacles are closed polygons painted over the layers (later ones on
 * top) with their own velocity; velocity 0 is impermeable.
 *
 * Each output cell holds the harmonic mean of velocity over the cell, the
 * inverse of its mean slowness, so a thin dipping interface does not alias
 * into stairs.  Along z the slowness is integrated exactly; along x the
 * cell is cut at every kink (nodes, vertices, and where an edge enters or
 * leaves the cell) and each piece is integrated with 3-point
 * Gauss–Legendre, exact for straight interfaces and constant layers; in a
 * piece where a gradient reaches the clamp (FR_RASTER_MIN_VELOCITY), the
 * clamp's edge is a kink too, found where it meets the piece's boundaries,
 * and the open side is integrated in pieces that halve toward it (as is a
 * piece over which v more than doubles, in a model that may clamp).  A
 * cell at least half covered by impermeable obstacles becomes 0; otherwise
 * the impermeable part is left out of the mean. */
#pragma once

#include <stddef.h>

#include "fr-grid.h"
#include "fr-status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fr_raster_layer {
  const double *x, *z;     /* n >= 1 interface nodes, x strictly increasing */
  size_t n;
  double v_top;            /* velocity just below the interface, > 0 */
  double dvdz, dvdx;       /* linear gradients */
  double x_ref;            /* where the lateral term dvdx·(x − x_ref) is 0 */
} fr_raster_layer;

typedef struct fr_raster_obstacle {
  const double *x, *z;     /* n >= 3 polygon vertices, closed implicitly */
  size_t n;
  double velocity;         /* 0: impermeable */
} fr_raster_obstacle;

typedef struct fr_raster_model {
  const fr_raster_layer *layers;
  size_t n_layers;
  const fr_raster_obstacle *obstacles;
  size_t n_obstacles;
  const fr_grid *background_grid;   /* NULL: none; else 2D */
  const float *background;          /* background_grid's nx·nz values */
  double default_velocity;          /* > 0, used where nothing else is */
} fr_raster_model;

/* The least velocity of a layer: its top velocity may not be lower, and
 * a gradient that takes it lower is clamped to it (fr_raster_report). */
#define FR_RASTER_MIN_VELOCITY 1e-6

/* Checks a model: counts, increasing interface x, finite values, top
 * velocities of at least FR_RASTER_MIN_VELOCITY, obstacle velocities >= 0. */
fr_status fr_raster_check (const fr_raster_model *m, fr_error *err);

/* Fills out (grid's nx·nz values, x fastest) with the cell-averaged
 * velocity of the model.  grid must be 2D. */
fr_status fr_raster_fill (const fr_raster_model *m, const fr_grid *grid, float *out,
                          fr_error *err);

/* Where a layer's gradient takes its velocity to FR_RASTER_MIN_VELOCITY
 * or below (v_top + dvdz·(z − h) + dvdx·(x − x_ref) ≤ 0 is no velocity): cells that
 * are then nearly impermeable, though nothing says so. */
typedef struct fr_raster_report {
  size_t clamped_cells;    /* cells (not walls) holding clamped velocities */
  size_t layer;            /* the first such cell's layer (0-based) */
  double x, z;             /* and its centre; first in z, then x */
} fr_raster_report;

/* fr_raster_fill, and a report of the clamped cells when report is not NULL. */
fr_status fr_raster_fill_report (const fr_raster_model *m, const fr_grid *grid, float *out,
                                 fr_raster_report *report, fr_error *err);

/* The velocity at one point (no averaging); 0 inside an impermeable
 * obstacle.  For picking and display. */
double fr_raster_velocity_at (const fr_raster_model *m, double x, double z);

/* The depth of a layer's interface at x (flat beyond the end nodes). */
double fr_raster_interface_z (const fr_raster_layer *layer, double x);

#ifdef __cplusplus
}
#endif
