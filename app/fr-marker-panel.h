/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The markers' part of the Rays-mode side panel: the selected source's or
 * receiver's position as two fields, buttons that add a source or a
 * receiver, and a list of every marker (sources, then receivers) with the
 * traveltime T of the newest solve at each receiver, while that solve is
 * still the one of the scene and the solver settings (else "—").  Typing a position
 * moves the marker to the nearest node, one undo step; so a marker can be
 * placed exactly, and without a mouse.  A row chosen selects its marker,
 * Delete on the list removes it.  It follows the scene's selection and
 * edits only through the scene's API. */
#pragma once

#include <gtk/gtk.h>

#include "fr-scene.h"

G_BEGIN_DECLS

#define FR_TYPE_MARKER_PANEL (fr_marker_panel_get_type ())

G_DECLARE_FINAL_TYPE (FrMarkerPanel, fr_marker_panel, FR, MARKER_PANEL, GtkWidget)

void fr_marker_panel_set_scene       (FrMarkerPanel *self,
                                      FrScene       *scene);
void fr_marker_panel_set_length_unit (FrMarkerPanel *self,
                                      FrLengthUnit   unit);
void fr_marker_panel_set_result      (FrMarkerPanel *self,
                                      FrResult      *result);
void fr_marker_panel_set_solver      (FrMarkerPanel  *self,
                                      FrRadius        radius,
                                      fr_spr_backend  backend);

G_END_DECLS
