/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Folds-mode side panel: F, ψa (with the |ψa| < F hint), method and
 * back end, the folded horizons' spacing and count, bands, and the
 * horizon's file and examples.  It edits an FrFoldState and follows it,
 * and names the fields' units where the scene has a length unit. */
#pragma once

#include <gtk/gtk.h>

#include "fr-fold-state.h"
#include "fr-scene-file.h"

G_BEGIN_DECLS

#define FR_TYPE_FOLD_PANEL (fr_fold_panel_get_type ())

G_DECLARE_FINAL_TYPE (FrFoldPanel, fr_fold_panel, FR, FOLD_PANEL, GtkWidget)

void fr_fold_panel_set_state       (FrFoldPanel  *self,
                                    FrFoldState  *state);
void fr_fold_panel_set_length_unit (FrFoldPanel  *self,
                                    FrLengthUnit  unit);

G_END_DECLS
