/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Axes with tick labels in model units, the model frame and the colour
 * bar, drawn with cairo over the canvas and over exported pictures. */
#pragma once

#include <cairo.h>

#include "fr-colormap.h"
#include "fr-scene.h"
#include "fr-view.h"

G_BEGIN_DECLS

/* What the axes are drawn over: the dark canvas (and its PNG), or a
 * figure's white page (SVG, PDF). */
typedef enum {
  FR_AXES_ON_CANVAS,
  FR_AXES_ON_PAPER,
} FrAxesOn;

void fr_axes_draw (cairo_t      *cr,
                   const FrView *view,
                   FrScene      *scene,
                   FrColormap    colormap,
                   double        k,
                   FrAxesOn      on);

G_END_DECLS
