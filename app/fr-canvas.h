/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The canvas: a GtkGLArea drawing the velocity field in a colour map, the
 * isochrons of the current traveltime result, rays and markers.  It edits
 * the scene's markers with the pointer and owns the zoom/pan view. */
#pragma once

#include <gtk/gtk.h>

#include "fr-colormap.h"
#include "fr-fold-tool.h"
#include "fr-job.h"
#include "fr-plot-layout.h"
#include "fr-scene.h"
#include "fr-view.h"

G_BEGIN_DECLS

#define FR_TYPE_CANVAS (fr_canvas_get_type ())

G_DECLARE_FINAL_TYPE (FrCanvas, fr_canvas, FR, CANVAS, GtkGLArea)

GtkWidget       *fr_canvas_new               (void);
void             fr_canvas_set_scene         (FrCanvas             *self,
                                              FrScene              *scene);
FrScene         *fr_canvas_get_scene         (FrCanvas             *self);
void             fr_canvas_set_result        (FrCanvas             *self,
                                              FrResult             *result);
FrResult        *fr_canvas_get_result        (FrCanvas             *self);
void             fr_canvas_set_colormap      (FrCanvas             *self,
                                              FrColormap            colormap);
FrColormap       fr_canvas_get_colormap      (FrCanvas             *self);
void             fr_canvas_set_interval      (FrCanvas             *self,
                                              double                interval);
void             fr_canvas_set_front         (FrCanvas             *self,
                                              gboolean              enabled,
                                              double                time);
const FrView    *fr_canvas_get_view          (FrCanvas             *self);
gboolean         fr_canvas_get_view_fitted   (FrCanvas             *self);
void             fr_canvas_set_view          (FrCanvas             *self,
                                              double                cx,
                                              double                cz,
                                              double                scale);
void             fr_canvas_get_plot_layout   (FrCanvas             *self,
                                              FrPlotLayout         *layout);
void             fr_canvas_zoom_fit          (FrCanvas             *self);
void             fr_canvas_zoom_by           (FrCanvas             *self,
                                              double                factor);
gboolean         fr_canvas_time_at           (FrCanvas             *self,
                                              double                x,
                                              double                z,
                                              double               *t);
gboolean         fr_canvas_begin_drag_at     (FrCanvas             *self,
                                              double                px,
                                              double                py);
void             fr_canvas_drag_to           (FrCanvas             *self,
                                              double                px,
                                              double                py);
void             fr_canvas_end_drag          (FrCanvas             *self);
gboolean         fr_canvas_cancel_drag       (FrCanvas             *self);
gboolean         fr_canvas_is_dragging       (FrCanvas             *self);
void             fr_canvas_set_fold_tool     (FrCanvas             *self,
                                              FrFoldTool           *tool);
FrFoldTool      *fr_canvas_get_fold_tool     (FrCanvas             *self);
guint64          fr_canvas_get_input_seq     (FrCanvas             *self);
guint            fr_canvas_get_time_uploads  (FrCanvas             *self);
void             fr_canvas_render_async      (FrCanvas             *self,
                                              int                   width,
                                              int                   height,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
cairo_surface_t *fr_canvas_render_finish     (FrCanvas             *self,
                                              GAsyncResult         *result,
                                              GError              **error);

G_END_DECLS
