/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Lines cut to a guard rectangle in double precision before cairo or GL
 * sees them.  cairo keeps a path's points in fixed point (24.8 bits in its
 * SVG and PDF surfaces, 16.16 in pixman's images) and GL takes floats, so
 * a point far off the page wraps, saturates or loses its pixels: zoomed in
 * 1000× on a model, a sloping line's far ends lie 1e5 pixels away, and the
 * figure drew it flat across the page at the wrong depth.  The guard lies
 * outside what is shown by more than any line's width, so its cuts never
 * show. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "fr-view.h"

G_BEGIN_DECLS

/* How far a guard lies outside what is shown: more than half the widest
 * line and a marker's reach, so that no cut at it shows. */
#define FR_CLIP_GUARD_MARGIN 16.0

typedef struct
{
  cairo_t *cr;
  FrRect   guard;
  double   x, y;       /* the current point, uncut */
  gboolean has_point;
  gboolean pen_down;   /* cairo's current point is (x, y) */
} FrClipPath;

void     fr_clip_path_init    (FrClipPath   *path,
                               cairo_t      *cr,
                               const FrRect *guard);
void     fr_clip_path_move_to (FrClipPath   *path,
                               double        x,
                               double        y);
void     fr_clip_path_line_to (FrClipPath   *path,
                               double        x,
                               double        y);
gboolean fr_clip_segment      (const FrRect *guard,
                               double        a[2],
                               double        b[2]);
/* The most points fr_clip_polygon takes. */
#define FR_CLIP_POLYGON_MAX 8

guint    fr_clip_polygon      (const FrRect *guard,
                               double       *xy,
                               guint         n);
guint    fr_clip_convex_side  (const double *in,
                               guint         n,
                               guint         stride,
                               guint         axis,
                               double        bound,
                               gboolean      above,
                               double       *out);
gboolean fr_clip_rect         (const FrRect *r,
                               const FrRect *guard,
                               FrRect       *out);
FrRect   fr_clip_grown        (const FrRect *r,
                               double        margin);
gboolean fr_clip_holds        (const FrRect *guard,
                               double        x,
                               double        y);

G_END_DECLS
