/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A window's scene file: Open, Save, Save As (atomic, recorded in
 * GtkRecentManager), autosave of unsaved edits every few seconds to the
 * user state folder (one file per running instance, autosave-PID.json)
 * and recovery of the file an instance that is gone left behind, and the
 * question before a modified scene is closed or replaced.
 * $FOLDRAY_STATE_DIR replaces the state folder and FOLDRAY_RECOVER=yes|no
 * answers the recovery question (for tests). */
#pragma once

#include "fr-window.h"

G_BEGIN_DECLS

#define FR_TYPE_SESSION (fr_session_get_type ())

G_DECLARE_FINAL_TYPE (FrSession, fr_session, FR, SESSION, GObject)

typedef enum
{
  FR_SESSION_CONFIRM_CLOSE,
  FR_SESSION_CONFIRM_OPEN,
} FrSessionConfirm;

typedef void (*FrSessionThen) (FrWindow *window,
                               gpointer  data);

FrSession  *fr_session_new            (FrWindow    *window);
const char *fr_session_get_path       (FrSession   *self);
gboolean    fr_session_open           (FrSession   *self,
                                       const char  *path,
                                       GError     **error);
gboolean    fr_session_open_copy      (FrSession   *self,
                                       const char  *path,
                                       GError     **error);
gboolean    fr_session_save_to        (FrSession   *self,
                                       const char  *path,
                                       GError     **error);
void        fr_session_reset          (FrSession   *self,
                                       const char  *path);
void        fr_session_save           (FrSession   *self);
void        fr_session_save_as        (FrSession   *self);
void        fr_session_scene_edited   (FrSession   *self);
void        fr_session_confirm        (FrSession        *self,
                                       FrSessionConfirm  why,
                                       FrSessionThen     then,
                                       gpointer          data,
                                       GDestroyNotify    destroy);
void        fr_session_check_recovery (FrSession   *self);
char       *fr_session_autosave_path  (void);

G_END_DECLS
