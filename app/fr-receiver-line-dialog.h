/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Receiver Line: a small window that lays out a line of receivers, a
 * geophone spread, evenly from a first x to a last x at one depth, in
 * place of the scene's receivers (fr_scene_lay_receiver_line: one undo
 * step, each on its nearest node).  A line the grid cannot hold is said
 * in the window, which stays open with the values as typed. */
#pragma once

#include <gtk/gtk.h>

#include "fr-scene.h"

G_BEGIN_DECLS

#define FR_TYPE_RECEIVER_LINE_DIALOG (fr_receiver_line_dialog_get_type ())

G_DECLARE_FINAL_TYPE (FrReceiverLineDialog, fr_receiver_line_dialog, FR, RECEIVER_LINE_DIALOG,
                      GtkWindow)

/* A new window for scene, transient for parent (modal), its fields set to
 * the scene's receivers' line when they lie on one row, else the grid's
 * top row and one receiver a node up to 48. */
FrReceiverLineDialog *fr_receiver_line_dialog_new (GtkWindow *parent,
                                                   FrScene   *scene);

G_END_DECLS
