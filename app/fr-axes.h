/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The overlay over the canvas: axes with tick labels in model units and
 * the colour bar, drawn with cairo (text in GL is not worth it).  The
 * drawing itself is in fr-axes-draw.c, shared with the PNG export. */
#pragma once

#include <gtk/gtk.h>

#include "fr-canvas.h"

G_BEGIN_DECLS

#define FR_TYPE_AXES (fr_axes_get_type ())

G_DECLARE_FINAL_TYPE (FrAxes, fr_axes, FR, AXES, GtkWidget)

GtkWidget *fr_axes_new (void);

G_END_DECLS
