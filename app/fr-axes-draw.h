/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Axes with tick labels in model units and the colour bar, drawn with
 * cairo in the gutters of the plot layout (fr-plot-layout.h) over the
 * canvas and over exported pictures.  The model's frame belongs to the
 * field, under the rays: the canvas draws it in GL, the figure itself.
 * The titles carry the scene's length unit, "x (km)" and
 * "velocity (km/s)", where it has one (fr_scene_set_length_unit). */
#pragma once

#include <cairo.h>

#include "fr-colormap.h"
#include "fr-plot-layout.h"
#include "fr-scene.h"
#include "fr-view.h"

G_BEGIN_DECLS

/* What the axes are drawn over: the dark canvas (and its PNG), or a
 * figure's white page (SVG, PDF). */
typedef enum {
  FR_AXES_ON_CANVAS,
  FR_AXES_ON_PAPER,
} FrAxesOn;

void   fr_axes_draw          (cairo_t            *cr,
                              const FrView       *view,
                              const FrPlotLayout *layout,
                              FrScene            *scene,
                              FrColormap          colormap,
                              double              k,
                              FrAxesOn            on);
double fr_axes_z_label_width (const FrView *view,
                              FrScene      *scene,
                              const FrRect *plot,
                              double        k);

G_END_DECLS
