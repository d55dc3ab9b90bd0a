/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The main window: header bar, canvas with axes, side panel and status
 * line.  It owns the scene and the solver thread and wires them: scene
 * edits become jobs, the newest job's result goes to the canvas. */
#pragma once

#include <gtk/gtk.h>

#include "fr-canvas.h"
#include "fr-export.h"
#include "fr-fold-state.h"
#include "fr-scene.h"
#include "fr-side-panel.h"
#include "fr-solver-thread.h"

G_BEGIN_DECLS

#define FR_TYPE_WINDOW (fr_window_get_type ())

G_DECLARE_FINAL_TYPE (FrWindow, fr_window, FR, WINDOW, GtkApplicationWindow)

FrWindow       *fr_window_new               (GtkApplication       *application);
FrCanvas       *fr_window_get_canvas        (FrWindow             *self);
FrScene        *fr_window_get_scene         (FrWindow             *self);
FrSidePanel    *fr_window_get_side_panel    (FrWindow             *self);
FrSolverThread *fr_window_get_solver        (FrWindow             *self);
gboolean        fr_window_load_example      (FrWindow             *self,
                                             const char           *name,
                                             gboolean              with_markers,
                                             GError              **error);
gboolean        fr_window_load_grid         (FrWindow             *self,
                                             const char           *path,
                                             const double         *spacing,
                                             const double         *origin,
                                             GError              **error);
gboolean        fr_window_open_scene        (FrWindow             *self,
                                             const char           *path,
                                             GError              **error);
void            fr_window_open_file         (FrWindow             *self,
                                             GFile                *file);
gboolean        fr_window_load_model        (FrWindow             *self,
                                             const char           *title,
                                             const fr_grid        *grid,
                                             GBytes               *velocity,
                                             GError              **error);
void            fr_window_forget_edits      (FrWindow             *self);
void            fr_window_set_clean         (FrWindow             *self,
                                             gboolean              clean);
gboolean        fr_window_is_settled        (FrWindow             *self);
void            fr_window_export_async      (FrWindow             *self,
                                             FrExportKind          kind,
                                             const char           *path,
                                             int                   scale,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
gboolean        fr_window_export_finish     (FrWindow             *self,
                                             GAsyncResult         *result,
                                             GError              **error);
void            fr_window_set_fold_mode     (FrWindow             *self,
                                             gboolean              fold_mode);
gboolean        fr_window_get_fold_mode     (FrWindow             *self);
FrFoldState    *fr_window_get_fold_state    (FrWindow             *self);
gboolean        fr_window_load_fold_example (FrWindow             *self,
                                             const char           *name,
                                             GError              **error);
void            fr_window_set_autosave_failure (FrWindow          *self,
                                                const GError      *error);
void            fr_window_show_error        (FrWindow             *self,
                                             const char           *primary,
                                             const GError         *error);

G_END_DECLS
