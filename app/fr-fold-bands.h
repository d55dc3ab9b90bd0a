/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fold's bands as shapes, for the vector figures: the parts of a grid
 * where floor (T / delta) is even, and where it is odd, for
 * 0 <= T < count·delta.  The canvas shades the same strata pixel by pixel
 * (shaders/field.frag.glsl); drawn per cell instead, a figure's bands were
 * staircases beside its smooth folded horizons. */
#pragma once

#include <glib.h>

#include "fr-grid.h"

G_BEGIN_DECLS

/* Polygons in model x, z: polygon i has the vertices start[i] to
 * start[i + 1] - 1 of xz (pairs of doubles). */
typedef struct
{
  GArray *xz;      /* double */
  GArray *start;   /* guint, one more than the polygons */
} FrBandShapes;

void fr_band_shapes_init  (FrBandShapes *shapes);
void fr_band_shapes_clear (FrBandShapes *shapes);
guint fr_band_shapes_count (const FrBandShapes *shapes);

void fr_fold_bands_trace (const fr_grid *grid,
                          const float   *time,
                          double         delta,
                          int            count,
                          size_t         ix0,
                          size_t         ix1,
                          size_t         iz0,
                          size_t         iz1,
                          FrBandShapes   parity[2]);

G_END_DECLS
