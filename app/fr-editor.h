/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model editor: the canvas's pointer controllers for the drawn model
 * (drag interface nodes, double-click to add one, draw and move
 * rectangle obstacles, click polygon obstacles vertex by vertex, drag
 * their corners, scroll over a layer to change
 * its velocity) and, while editing, an overlay over the canvas like FrAxes
 * that draws the handles (interface nodes, obstacle vertices) and the
 * selected obstacle with cairo; the interfaces and obstacle outlines
 * themselves are the canvas's, under its rays and markers.  Every change goes through
 * the scene (begin_edit/end_edit), so it is undoable and re-solves live.
 * A drawing tool draws one obstacle, then hands back to Select; the
 * "active" and "tool" properties say what presses do now. */
#pragma once

#include <gtk/gtk.h>

#include "fr-canvas.h"

G_BEGIN_DECLS

typedef enum
{
  FR_EDITOR_TOOL_SELECT,     /* drag nodes, vertices and obstacles */
  FR_EDITOR_TOOL_RECTANGLE,  /* drag out a new obstacle */
  FR_EDITOR_TOOL_POLYGON,    /* click vertices; double-click or Enter closes */
} FrEditorTool;

#define FR_TYPE_EDITOR_TOOL (fr_editor_tool_get_type ())
#define FR_TYPE_EDITOR (fr_editor_get_type ())

GType fr_editor_tool_get_type (void) G_GNUC_CONST;

G_DECLARE_FINAL_TYPE (FrEditor, fr_editor, FR, EDITOR, GtkWidget)

void         fr_editor_set_scene             (FrEditor     *self,
                                              FrScene      *scene);
void         fr_editor_set_active            (FrEditor     *self,
                                              gboolean      active);
gboolean     fr_editor_get_active            (FrEditor     *self);
void         fr_editor_set_tool              (FrEditor     *self,
                                              FrEditorTool  tool);
FrEditorTool fr_editor_get_tool              (FrEditor     *self);
void         fr_editor_set_obstacle_velocity (FrEditor     *self,
                                              double        velocity);
gboolean     fr_editor_is_dragging           (FrEditor     *self);
gboolean     fr_editor_delete_selection      (FrEditor     *self);
gboolean     fr_editor_cancel                (FrEditor     *self);
gboolean     fr_editor_cancel_drag           (FrEditor     *self);
gboolean     fr_editor_close_polygon         (FrEditor     *self);
int          fr_editor_get_selected_layer    (FrEditor     *self);
int          fr_editor_get_selected_obstacle (FrEditor     *self);
void         fr_editor_finish_edits          (FrEditor     *self);
gboolean     fr_editor_has_open_edit         (FrEditor     *self);

G_END_DECLS
