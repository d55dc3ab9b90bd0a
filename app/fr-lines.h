/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Line geometry for the canvas's lines shader (shaders/lines.*.glsl):
 * discs, diamonds and round-capped segments, tessellated on the CPU into
 * triangles in widget pixels; fr-canvas.c binds FrLineVertex to the shader. */
#pragma once

#include <glib.h>

#include "fr-view.h"

G_BEGIN_DECLS

typedef enum
{
  FR_LINE_DISC = 0,
  FR_LINE_DIAMOND = 1,
  FR_LINE_CAPSULE = 2,
} FrLineShape;

typedef struct
{
  float pos[2];
  float shape[4];
  float color[4];
  float reach;     /* a line's half width, a shape's radius: the canvas's
                    * clip grows by it (shaders/lines.frag.glsl) */
} FrLineVertex;

void fr_lines_push_shape    (GArray       *vertices,
                             FrLineShape   shape,
                             double        x,
                             double        y,
                             double        r,
                             const float   color[4]);
void fr_lines_push_capsule  (GArray       *vertices,
                             double        x0,
                             double        y0,
                             double        x1,
                             double        y1,
                             double        width,
                             const float   color[4]);
void fr_lines_push_segment  (GArray       *vertices,
                             const FrView *view,
                             double        x0,
                             double        y0,
                             double        x1,
                             double        y1,
                             double        width,
                             const float   color[4]);
void fr_lines_push_polyline (GArray       *vertices,
                             const FrView *view,
                             const double *xz,
                             guint         n,
                             double        width,
                             const float   color[4]);

G_END_DECLS
