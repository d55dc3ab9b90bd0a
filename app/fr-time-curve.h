/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The traveltime curve: the receivers' first-arrival times T against
 * their x (a T–x plot, what a line of receivers records of a shot), with
 * the sources marked on the x axis.  Its x axis spans the model's width,
 * so a receiver stands where it stands on the canvas; T grows upward from
 * 0.  It only draws what it is given (the marker panel feeds it). */
#pragma once

#include <gtk/gtk.h>

#include "fr-scene-file.h"

G_BEGIN_DECLS

#define FR_TYPE_TIME_CURVE (fr_time_curve_get_type ())

G_DECLARE_FINAL_TYPE (FrTimeCurve, fr_time_curve, FR, TIME_CURVE, GtkWidget)

GtkWidget *fr_time_curve_new (void);

/* The x axis, from x_min to x_max. */
void fr_time_curve_set_range  (FrTimeCurve  *self,
                               double        x_min,
                               double        x_max);
/* The axes' titles: "x (km)" and "T (s)" where lengths have a unit. */
void fr_time_curve_set_unit   (FrTimeCurve  *self,
                               FrLengthUnit  unit);

/* The points: receiver k at x[k] with time t[k] (NAN: none to show, a
 * receiver not reached or a time not of the scene's solve), the sources
 * at sources_x.  Copied. */
void fr_time_curve_set_points (FrTimeCurve  *self,
                               const double *x,
                               const double *t,
                               guint         n,
                               const double *sources_x,
                               guint         n_sources);

G_END_DECLS
