/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The canvas transform between model units (x right, z down) and widget
 * pixels: pure maths, no widget, so it is unit-tested on its own. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _FrView
{
  double width, height;   /* widget size in pixels */
  double scale;           /* pixels per model unit */
  double cx, cz;          /* model point at the widget centre */
} FrView;

/* An axis-aligned rectangle in widget pixels (y down). */
typedef struct _FrRect
{
  double x, y, width, height;
} FrRect;

#define FR_VIEW_MIN_SCALE 1e-6
#define FR_VIEW_MAX_SCALE 1e9

void     fr_view_init             (FrView       *view);
void     fr_view_set_size         (FrView       *view,
                                   double        width,
                                   double        height);
void     fr_view_fit              (FrView       *view,
                                   double        x_min,
                                   double        z_min,
                                   double        x_max,
                                   double        z_max,
                                   const FrRect *box);
void     fr_view_model_to_widget  (const FrView *view,
                                   double        x,
                                   double        z,
                                   double       *px,
                                   double       *py);
void     fr_view_widget_to_model  (const FrView *view,
                                   double        px,
                                   double        py,
                                   double       *x,
                                   double       *z);
void     fr_view_zoom_at          (FrView       *view,
                                   double        px,
                                   double        py,
                                   double        factor);
void     fr_view_pan              (FrView       *view,
                                   double        dpx,
                                   double        dpy);
void     fr_view_clip_matrix      (const FrView *view,
                                   double        ox,
                                   double        oz,
                                   float         m[9]);
FrView   fr_view_scaled           (const FrView *view,
                                   double        width,
                                   double        height);
double   fr_view_nice_step        (double        span,
                                   int           max_ticks);

G_END_DECLS
