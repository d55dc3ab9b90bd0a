/* SPDX-License-Identifier: GPL-3.0-or-later */
/* T at a point as the canvas shades it (shaders/field.frag.glsl): bilinear
 * between the four nearest nodes, clamped beyond the outer ones, and
 * unreached (NAN) beside an unreached node.  The truth the figures' and the
 * fold bands' tests hold their shapes to. */
#pragma once

#include <math.h>

#include <glib.h>

#include "fr-grid.h"

static inline double
test_canvas_time (const fr_grid *g,
                  const float   *t,
                  double         x,
                  double         z)
{
  double fx = CLAMP ((x - g->x0) / g->dx, 0.0, g->nx - 1.0);
  double fz = CLAMP ((z - g->z0) / g->dz, 0.0, g->nz - 1.0);
  size_t i = MIN ((size_t) fx, g->nx - 2), j = MIN ((size_t) fz, g->nz - 2);
  double u = fx - i, w = fz - j;
  double t00 = t[fr_grid_index (g, i, 0, j)], t10 = t[fr_grid_index (g, i + 1, 0, j)];
  double t01 = t[fr_grid_index (g, i, 0, j + 1)], t11 = t[fr_grid_index (g, i + 1, 0, j + 1)];

  if (!isfinite (t00 + t10 + t01 + t11))
    return NAN;
  return (1 - w) * ((1 - u) * t00 + u * t10) + w * ((1 - u) * t01 + u * t11);
}
