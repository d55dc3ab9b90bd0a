/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A command stack for undo and redo.  A command is a pair of closures
 * over one piece of data: undo restores the state before, redo the state
 * after.  The stack knows nothing of scenes, so it is tested on its own. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef void (*FrUndoFunc) (gpointer data,
                            gpointer user_data);

#define FR_TYPE_UNDO (fr_undo_get_type ())

G_DECLARE_FINAL_TYPE (FrUndo, fr_undo, FR, UNDO, GObject)

FrUndo      *fr_undo_new        (FrUndoFunc      undo,
                                 FrUndoFunc      redo,
                                 gpointer        user_data);
void         fr_undo_push       (FrUndo         *self,
                                 const char     *label,
                                 gpointer        data,
                                 GDestroyNotify  data_free);
gboolean     fr_undo_undo       (FrUndo         *self);
gboolean     fr_undo_redo       (FrUndo         *self);
gboolean     fr_undo_can_undo   (FrUndo         *self);
gboolean     fr_undo_can_redo   (FrUndo         *self);
const char  *fr_undo_peek_label (FrUndo         *self);
void         fr_undo_clear      (FrUndo         *self);
guint        fr_undo_get_depth  (FrUndo         *self);
void         fr_undo_mark_clean (FrUndo         *self);
gboolean     fr_undo_is_clean   (FrUndo         *self);

G_END_DECLS
