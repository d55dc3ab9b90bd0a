/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The traveltime curve as a drawing: the receivers' first-arrival times T
 * against their x (a T–x plot, what a line of receivers records of a
 * shot), the sources marked on the x axis.  The x axis spans the model's
 * width, so a receiver stands where it stands on the canvas; T grows
 * upward from 0 to a round value above the latest arrival.  Receivers
 * that spread further in depth than across (a borehole's array) are
 * plotted against z instead, over the model's depth.  Where each source
 * is a shot of its own, each shot is a branch of the curve, the shot
 * shown in front and the others thin with hollow dots (a reversed
 * refraction profile's two branches).
 *
 * One drawing, two places: FrTimeCurve draws it in the marker panel, and
 * Export → Traveltime Curve writes it as an SVG or PDF figure. */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "fr-figure.h"
#include "fr-job.h"
#include "fr-scene.h"

G_BEGIN_DECLS

/* The canvas's marker colours (fr-canvas.c); tests find the dots by them. */
extern const double fr_time_plot_receiver_rgb[3];
extern const double fr_time_plot_source_rgb[3];

typedef struct _FrTimePlot FrTimePlot;

FrTimePlot *fr_time_plot_new        (void);
void        fr_time_plot_free       (FrTimePlot    *plot);

/* The position axis, from x_min to x_max. */
void        fr_time_plot_set_range  (FrTimePlot    *plot,
                                     double         x_min,
                                     double         x_max);
/* The axes' titles: "x (km)" and "T (s)" where lengths have a unit. */
void        fr_time_plot_set_unit   (FrTimePlot    *plot,
                                     FrLengthUnit   unit);
/* The points: receiver k at position x[k] along the axis with time t[k] (NAN: none to show, a
 * receiver not reached or a time not of the scene's solve), the sources
 * at sources_x.  Copied.  With no finite time the T axis keeps its top,
 * so that the axes do not jump while a solve is under way. */
void        fr_time_plot_set_points (FrTimePlot    *plot,
                                     const double  *x,
                                     const double  *t,
                                     guint          n,
                                     const double  *sources_x,
                                     guint          n_sources);
/* As fr_time_plot_set_points, where each source is a shot of its own: t
 * holds n_sources × n times, shot by shot, a branch for each; the shot of
 * source shown is drawn in front, its source's triangle filled. */
void        fr_time_plot_set_shots  (FrTimePlot    *plot,
                                     const double  *x,
                                     const double  *t,
                                     guint          n,
                                     const double  *sources_x,
                                     guint          n_sources,
                                     guint          shown);
/* The scene's sources and receivers along x, or along z where the
 * receivers spread further in depth, the axis the model's extent along
 * it; each receiver's T read from result as the cursor readout reads it
 * (fr_result_time_at), every shot's where each source fires alone
 * (fr_scene_get_shot, fr_result_shot_time_at); result NULL: no times.  The unit is set apart
 * (fr_time_plot_set_unit). */
void        fr_time_plot_set_scene  (FrTimePlot    *plot,
                                     FrScene       *scene,
                                     const FrResult *result);

/* Whether the last fr_time_plot_set_scene chose z for the axis. */
gboolean    fr_time_plot_is_along_z (const FrTimePlot *plot);
guint       fr_time_plot_get_n_points (const FrTimePlot *plot);
/* The receiver (its index among the points given) whose dot is ringed,
 * as the selected marker; -1: none.  Figures leave it at -1. */
void        fr_time_plot_set_selected (FrTimePlot    *plot,
                                       gint           receiver);
/* The T axis's top. */
double      fr_time_plot_get_t_top  (const FrTimePlot *plot);

/* Draws the plot over 0, 0 – width × height of cr's user space, lines and
 * text in ink (r, g, b), text laid out in context (its font).  Nothing
 * where the area is too small for axes. */
void        fr_time_plot_draw       (const FrTimePlot *plot,
                                     cairo_t          *cr,
                                     PangoContext     *context,
                                     double            width,
                                     double            height,
                                     const double      ink[3]);

/* Where a plot drawn on width × height shows position along its axis and
 * time t; FALSE where it draws nothing (no room, no range). */
gboolean    fr_time_plot_locate      (const FrTimePlot *plot,
                                      double            width,
                                      double            height,
                                      double            position,
                                      double            t,
                                      double           *x,
                                      double           *y);
/* The receiver (its index among the points given) whose dot lies under
 * (x, y) of a plot drawn on width × height, or -1. */
gint        fr_time_plot_receiver_at (const FrTimePlot *plot,
                                      double            width,
                                      double            height,
                                      double            x,
                                      double            y);
/* What lies under the point (x, y) of a plot drawn on width × height, for
 * a tooltip: a receiver's dot ("R5: x = 1.2 km, T = 0.4567 s"), else the
 * line between two neighbours with its slope as an apparent velocity
 * ("R5 to R6: apparent velocity 2.95 km/s"); FALSE (text NULL) where
 * neither is near. */
gboolean    fr_time_plot_describe_at (const FrTimePlot *plot,
                                      double            width,
                                      double            height,
                                      double            x,
                                      double            y,
                                      char            **text);

/* A written figure's page, in points. */
#define FR_TIME_PLOT_PAGE_WIDTH  432.0
#define FR_TIME_PLOT_PAGE_HEIGHT 252.0

/* Writes the plot as an SVG or PDF figure on a page of
 * FR_TIME_PLOT_PAGE_WIDTH × FR_TIME_PLOT_PAGE_HEIGHT points, black on
 * white, atomically.  Receivers not reached have no dot, as on screen. */
gboolean    fr_time_plot_write      (const FrTimePlot *plot,
                                     FrFigureFormat    format,
                                     const char       *path,
                                     GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FrTimePlot, fr_time_plot_free)

G_END_DECLS
