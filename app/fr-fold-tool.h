/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The canvas's Folds-mode tool: the pointer edits the starting horizon
 * (click appends a node, drag moves one), drags the ψa arrow's tip (and
 * its base), and Shift+click picks points to trace characteristics from.
 * It also tessellates what it shows: the horizon and its nodes, the
 * folded horizons of a result, the arrow.  FrCanvas forwards to it. */
#pragma once

#include <glib-object.h>

#include "fr-fold-state.h"
#include "fr-job.h"
#include "fr-scene.h"
#include "fr-view.h"

G_BEGIN_DECLS

#define FR_TYPE_FOLD_TOOL (fr_fold_tool_get_type ())

G_DECLARE_FINAL_TYPE (FrFoldTool, fr_fold_tool, FR, FOLD_TOOL, GObject)

FrFoldTool  *fr_fold_tool_new            (FrFoldState  *state,
                                          FrScene      *scene);
FrFoldState *fr_fold_tool_get_state      (FrFoldTool   *self);
gboolean     fr_fold_tool_press          (FrFoldTool   *self,
                                          const FrView *view,
                                          double        px,
                                          double        py);
void         fr_fold_tool_drag           (FrFoldTool   *self,
                                          const FrView *view,
                                          double        px,
                                          double        py);
void         fr_fold_tool_release        (FrFoldTool   *self);
gboolean     fr_fold_tool_cancel         (FrFoldTool   *self);
gboolean     fr_fold_tool_is_dragging    (FrFoldTool   *self);
void         fr_fold_tool_click          (FrFoldTool   *self,
                                          const FrView *view,
                                          double        px,
                                          double        py,
                                          gboolean      shift);
double       fr_fold_tool_arrow_length   (FrFoldTool   *self);
void         fr_fold_tool_arrow_tip      (FrFoldTool   *self,
                                          double       *x,
                                          double       *z);
void         fr_fold_tool_push_lines     (FrFoldTool   *self,
                                          const FrView *view,
                                          double        k,
                                          FrResult     *result,
                                          GArray       *vertices);
void         fr_fold_tool_push_handles   (FrFoldTool   *self,
                                          const FrView *view,
                                          double        k,
                                          GArray       *vertices);

G_END_DECLS
