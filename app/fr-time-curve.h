/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The traveltime curve in the marker panel: fr-time-plot.c's T–x plot as
 * a widget, in the theme's colours.  It only draws what it is given (the
 * marker panel feeds it); a dot clicked emits "receiver-clicked" with the
 * receiver's index, for the panel to select it. */
#pragma once

#include <gtk/gtk.h>

#include "fr-time-plot.h"

G_BEGIN_DECLS

#define FR_TYPE_TIME_CURVE (fr_time_curve_get_type ())

G_DECLARE_FINAL_TYPE (FrTimeCurve, fr_time_curve, FR, TIME_CURVE, GtkWidget)

GtkWidget *fr_time_curve_new (void);

/* The axes' titles: "x (km)" and "T (s)" where lengths have a unit. */
void fr_time_curve_set_unit  (FrTimeCurve    *self,
                              FrLengthUnit    unit);
/* The scene's receivers and sources, T from result (NULL: none shown);
 * fr_time_plot_set_scene. */
void fr_time_curve_set_scene (FrTimeCurve    *self,
                              FrScene        *scene,
                              const FrResult *result);

/* The selected receiver, ringed; -1: none. */
void fr_time_curve_set_selected (FrTimeCurve *self,
                                 gint         receiver);

G_END_DECLS
