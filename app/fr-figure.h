/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Vector figures for papers: SVG or PDF through cairo, from the same data
 * the canvas draws — the velocity field (embedded as an image), the model
 * frame, isochrons (Rays mode, traced with fr-contour), the model's
 * interfaces and obstacle outlines, the starting and
 * folded horizons (Folds mode), rays, markers, axes with units and the
 * colour bar (fr-axes-draw.c), laid out as on the canvas (fr-plot-layout.h):
 * the field in the plot rectangle, the axes and colour bar around it.
 * Lines and markers stay vector paths.  The page is cropped to what is
 * drawn, not the view's size: a model fitted to a wide window leaves no
 * band of empty paper. */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "fr-colormap.h"
#include "fr-fold-state.h"
#include "fr-job.h"
#include "fr-scene.h"
#include "fr-view.h"

G_BEGIN_DECLS

/* White around the drawing on a written figure's page, in points. */
#define FR_FIGURE_MARGIN 6.0

typedef enum
{
  FR_FIGURE_SVG,
  FR_FIGURE_PDF,
} FrFigureFormat;

typedef struct
{
  const FrView *view;       /* what is shown, in points (the page crops it) */
  FrScene      *scene;
  FrColormap    colormap;
  FrResult     *result;     /* may be NULL */
  double        interval;   /* Rays mode: time between isochrons, <= 0: none */
  FrFoldState  *fold;       /* Folds mode: the horizon and points, else NULL */
} FrFigure;

/* Stroke colours a reader can tell apart (tests count paths by them). */
extern const double fr_figure_isochron_dark_rgb[3];  /* over a light colour, */
extern const double fr_figure_isochron_light_rgb[3]; /* over a dark one */
extern const double fr_figure_horizon_rgb[3];
extern const double fr_figure_folded_rgb[3];
extern const double fr_figure_folded_halo_rgb[3];
extern const double fr_figure_ray_rgb[3];
extern const double fr_figure_interface_rgb[3];       /* a layer's interface, */
extern const double fr_figure_interface_halo_rgb[3];  /* over its halo */
extern const double fr_figure_interface_muted_rgb[3]; /* the same in Folds mode */
extern const double fr_figure_slow_obstacle_rgb[3];
extern const double fr_figure_wall_obstacle_rgb[3];   /* impermeable */
extern const double fr_figure_band_rgb[2][3];         /* fold bands, even and odd */

/* Draws a figure's content on cr, whose origin is the page's top left. */
typedef void (*FrFigureDrawFunc) (cairo_t *cr, gconstpointer data);

gboolean fr_figure_write_page (FrFigureFormat     format,
                               double             width,
                               double             height,
                               FrFigureDrawFunc   draw,
                               gconstpointer      data,
                               const char        *path,
                               GError           **error);
gboolean fr_figure_get_page (const FrFigure  *figure,
                             FrRect          *page);
gboolean fr_figure_write    (const FrFigure  *figure,
                             FrFigureFormat   format,
                             const char      *path,
                             GError         **error);
void     fr_figure_draw     (const FrFigure  *figure,
                             cairo_t         *cr);

G_END_DECLS
