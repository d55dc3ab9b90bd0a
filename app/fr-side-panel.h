/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The side panel: solver settings (mode, radius, back end) and display
 * settings (length unit, isochron interval, colour map, wavefront), as properties the
 * window binds to, and the model panel (fr-model-panel.h) between them.
 * The solver and display settings are saved with the scene ("solver",
 * "display" and "units" in its file) but are no undo step: "edited" tells the window
 * that the user changed one, so the scene is modified. */
#pragma once

#include <gtk/gtk.h>

#include "fr-colormap.h"
#include "fr-marker-panel.h"
#include "fr-model-panel.h"
#include "fr-scene-file.h"
#include "fr-spr.h"

G_BEGIN_DECLS

#define FR_TYPE_SIDE_PANEL (fr_side_panel_get_type ())

/* The radius spin buttons' range: what the solver takes on any grid.  A
 * larger radius is either the same graph (the solver cuts it to the grid's
 * extent) or refused, so the field offers none; the scene loader cuts an
 * older file's larger radius to this (fr-scene-file.c). */
#define FR_SIDE_PANEL_RADIUS_MIN 1
#define FR_SIDE_PANEL_RADIUS_MAX FR_SPR_RADIUS_MAX

G_DECLARE_FINAL_TYPE (FrSidePanel, fr_side_panel, FR, SIDE_PANEL, GtkWidget)

GtkWidget      *fr_side_panel_new           (void);
FrRadius        fr_side_panel_get_radius    (FrSidePanel    *self);
void            fr_side_panel_set_radius    (FrSidePanel    *self,
                                             FrRadius        radius);
fr_spr_backend  fr_side_panel_get_backend   (FrSidePanel    *self);
void            fr_side_panel_set_backend   (FrSidePanel    *self,
                                             fr_spr_backend  backend);
FrLengthUnit    fr_side_panel_get_length_unit (FrSidePanel  *self);
void            fr_side_panel_set_length_unit (FrSidePanel  *self,
                                             FrLengthUnit    unit);
double          fr_side_panel_get_interval  (FrSidePanel    *self);
void            fr_side_panel_set_interval  (FrSidePanel    *self,
                                             double          interval);
FrColormap      fr_side_panel_get_colormap  (FrSidePanel    *self);
void            fr_side_panel_set_colormap  (FrSidePanel    *self,
                                             FrColormap      colormap);
gboolean        fr_side_panel_get_front     (FrSidePanel    *self,
                                             double         *time);
void            fr_side_panel_set_front     (FrSidePanel    *self,
                                             gboolean        enabled,
                                             double          time);
void            fr_side_panel_set_front_max (FrSidePanel    *self,
                                             double          max_time);
FrModelPanel   *fr_side_panel_get_model_panel (FrSidePanel  *self);
FrMarkerPanel  *fr_side_panel_get_marker_panel (FrSidePanel *self);
gboolean        fr_side_panel_load_solver   (FrSidePanel      *self,
                                             const FrSceneDoc *doc);
void            fr_side_panel_save_solver   (FrSidePanel      *self,
                                             FrSceneDoc       *doc);
void            fr_side_panel_load_display  (FrSidePanel      *self,
                                             const FrSceneDoc *doc);
void            fr_side_panel_save_display  (FrSidePanel      *self,
                                             FrSceneDoc       *doc);

G_END_DECLS
