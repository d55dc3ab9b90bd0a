/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The plot layout: how a picture of width × height pixels splits into the
 * plot rectangle, where the field is drawn (model, isochrons, rays,
 * markers), and the gutters around it that hold the axes' labels and the
 * colour bar.  One function, fr_plot_layout_for_view, computes it for the
 * canvas, its overlays, the PNG export and the vector figures, so they all
 * agree. */
#pragma once

#include <glib.h>

#include "fr-scene.h"
#include "fr-view.h"

G_BEGIN_DECLS

typedef struct _FrPlotLayout
{
  FrRect plot;     /* the field: everything it draws is clipped to this; the
                    * model's own lines further to the model's rectangle
                    * grown by half their width
                    * (fr_plot_layout_model_line_clip) */
  FrRect left;     /* z ticks and their labels */
  FrRect top;      /* x ticks and their labels */
  FrRect right;    /* the colour bar, its labels and its title */
  FrRect bottom;   /* room for the z title below the plot */
  double pad;      /* pixels kept free around a fitted model inside the plot */
} FrPlotLayout;

/* Where the axes go for a model at some place in the plot. */
typedef struct _FrPlotAxes
{
  FrRect box;       /* the axes run along its top (x) and left (z) edges */
  FrRect x_labels;  /* above box */
  FrRect z_labels;  /* left of box */
  FrRect x_title;   /* beyond the x axis's right end */
  FrRect z_title;   /* below the z axis's bottom end */
  FrRect corner;    /* top left, between the two label bands: free */
} FrPlotAxes;

void     fr_plot_layout_compute            (FrPlotLayout       *layout,
                                            double              width,
                                            double              height,
                                            double              k);
void     fr_plot_layout_compute_for_labels (FrPlotLayout       *layout,
                                            double              width,
                                            double              height,
                                            double              k,
                                            double              z_label_width);
void     fr_plot_layout_for_view           (FrPlotLayout       *layout,
                                            const FrView       *view,
                                            FrScene            *scene,
                                            double              k);
void     fr_plot_layout_fit_view           (FrView             *view,
                                            FrScene            *scene,
                                            double              k);
void     fr_plot_layout_fit_box            (const FrPlotLayout *layout,
                                            FrRect             *box);
void     fr_plot_layout_model_rect         (const FrView       *view,
                                            FrScene            *scene,
                                            FrRect             *model);
void     fr_plot_layout_model_line_clip    (const FrView       *view,
                                            FrScene            *scene,
                                            double              width,
                                            FrRect             *clip);
gboolean fr_plot_layout_axes               (const FrPlotLayout *layout,
                                            const FrRect       *model,
                                            FrPlotAxes         *axes);
gboolean fr_rect_contains                  (const FrRect       *rect,
                                            double              x,
                                            double              y);
gboolean fr_rect_intersects                (const FrRect       *a,
                                            const FrRect       *b);

G_END_DECLS
