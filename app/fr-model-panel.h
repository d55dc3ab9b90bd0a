/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model panel: the drawn model's tools, its rasterisation grid
 * (extent, nodes and spacing, linked as fr_model_grid_with_*() say: a new
 * extent keeps the spacing, new nodes or spacing keep the extent), its
 * layers (add, remove, velocity at the top and gradients; Ctrl+click or
 * Ctrl+Space unselects) and the selected obstacle (impermeable or slow).
 * It follows
 * the scene and the editor's selection, and edits only through the
 * scene's API, so every change is an undo step and re-solves live.  With
 * no layer (or obstacle) selected its fields are blank, showing a dash.
 * Its tool buttons show the editor's tool; a message about a value typed
 * goes when another layer, obstacle or model is shown.  Where the scene
 * has a length unit, each field's unit is named under its label. */
#pragma once

#include <gtk/gtk.h>

#include "fr-editor.h"
#include "fr-scene.h"

G_BEGIN_DECLS

#define FR_TYPE_MODEL_PANEL (fr_model_panel_get_type ())

G_DECLARE_FINAL_TYPE (FrModelPanel, fr_model_panel, FR, MODEL_PANEL, GtkWidget)

void fr_model_panel_set_scene       (FrModelPanel *self,
                                     FrScene      *scene);
void fr_model_panel_set_editor      (FrModelPanel *self,
                                     FrEditor     *editor);
void fr_model_panel_set_length_unit (FrModelPanel *self,
                                     FrLengthUnit  unit);

/* Helpers shared by the side panels (side, fold and model panel). */
void     fr_panel_guard_entries  (GtkWidget      *panel,
                                  GtkLabel       *message);
void     fr_panel_clear_messages (GtkWidget      *panel,
                                  GtkLabel       *message);
void     fr_panel_clear_children (GtkWidget      *panel);
gboolean fr_panel_scroll_ancestor (GtkWidget               *widget,
                                  GtkEventControllerScroll *controller,
                                  double                    dy);
void     fr_panel_show_unit      (GtkLabel       *label,
                                  FrLengthUnit    unit,
                                  const char     *text);
double   fr_panel_decade_step    (double          d);
void     fr_panel_format_value   (double          value,
                                  char           *buf,
                                  gsize           size);
gboolean fr_panel_significant_output (GtkSpinButton *spin,
                                      gpointer       user_data);
double   fr_panel_spin_value     (GtkSpinButton  *spin,
                                  double          current);
void     fr_panel_set_tooltip    (GtkSpinButton  *spin,
                                  const char     *text);
void     fr_panel_spin_set_blank (GtkSpinButton  *spin,
                                  gboolean        blank);
gboolean fr_panel_parse_number   (const char     *text,
                                  double          lower,
                                  double          upper,
                                  double         *value,
                                  char          **why);

G_END_DECLS
