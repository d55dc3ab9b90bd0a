/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A window's scene file: Open, Save, Save As (atomic, recorded in
 * GtkRecentManager), autosave of unsaved edits every few seconds to the
 * user state folder and recovery on the next start, and the question
 * before a modified scene is closed.  $FOLDRAY_STATE_DIR replaces the
 * state folder and FOLDRAY_RECOVER=yes|no answers the recovery question
 * (for tests). */
#pragma once

#include "fr-window.h"

G_BEGIN_DECLS

#define FR_TYPE_SESSION (fr_session_get_type ())

G_DECLARE_FINAL_TYPE (FrSession, fr_session, FR, SESSION, GObject)

FrSession  *fr_session_new            (FrWindow    *window);
const char *fr_session_get_path       (FrSession   *self);
gboolean    fr_session_open           (FrSession   *self,
                                       const char  *path,
                                       GError     **error);
gboolean    fr_session_save_to        (FrSession   *self,
                                       const char  *path,
                                       GError     **error);
void        fr_session_save           (FrSession   *self);
void        fr_session_save_as        (FrSession   *self);
void        fr_session_scene_edited   (FrSession   *self);
void        fr_session_check_recovery (FrSession   *self);
char       *fr_session_autosave_path  (void);

G_END_DECLS
