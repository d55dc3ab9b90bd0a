/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the user edits in Folds mode: the starting horizon (a polyline),
 * the speed F (a constant or the scene's velocity grid), the anisotropy
 * vector ψa (clamped to |ψa| < F), the solver method and back end, the
 * folded horizons' spacing Δ and count, the band fill, and the points
 * characteristics are traced from.  The window turns it into fold jobs. */
#pragma once

#include <glib-object.h>

#include "fr-fold.h"
#include "fr-job.h"
#include "fr-scene.h"
#include "fr-scene-file.h"
#include "fr-undo.h"

G_BEGIN_DECLS

typedef enum
{
  FR_FOLD_CHANGED_SOLVE   = 1 << 0,   /* a new job is needed (one for Δ or Count only
                                       * contours the last T again: fr_fold_job_reuse) */
  FR_FOLD_CHANGED_DISPLAY = 1 << 1,   /* only a redraw (bands, arrow base) */
  FR_FOLD_CHANGED_PARAMS  = 1 << 2,   /* a panel value changed (sync the panel) */
  FR_FOLD_CHANGED_EDITED  = 1 << 3,   /* a user edit (an undo step): the scene is modified */
} FrFoldChange;

/* |ψa| may reach this fraction of the smallest F, no more. */
#define FR_FOLD_PSI_MARGIN 0.95

#define FR_TYPE_FOLD_STATE (fr_fold_state_get_type ())

G_DECLARE_FINAL_TYPE (FrFoldState, fr_fold_state, FR, FOLD_STATE, GObject)

FrFoldState   *fr_fold_state_new              (void);
const FrPoint *fr_fold_state_get_horizon      (FrFoldState    *self,
                                               guint          *n);
void           fr_fold_state_set_horizon      (FrFoldState    *self,
                                               const FrPoint  *points,
                                               guint           n);
void           fr_fold_state_add_node         (FrFoldState    *self,
                                               double          x,
                                               double          z);
void           fr_fold_state_move_node        (FrFoldState    *self,
                                               guint           index,
                                               double          x,
                                               double          z);
gboolean       fr_fold_state_remove_node      (FrFoldState    *self,
                                               guint           index);
gboolean       fr_fold_state_has_own_horizon  (FrFoldState    *self);
const FrPoint *fr_fold_state_get_ray_points   (FrFoldState    *self,
                                               guint          *n);
void           fr_fold_state_add_ray_point    (FrFoldState    *self,
                                               double          x,
                                               double          z);
void           fr_fold_state_clear_ray_points (FrFoldState    *self);
void           fr_fold_state_set_grid_span    (FrFoldState    *self,
                                               double          x0,
                                               double          z0,
                                               double          x1,
                                               double          z1);
void           fr_fold_state_set_speed        (FrFoldState    *self,
                                               gboolean        from_grid,
                                               double          speed_const);
gboolean       fr_fold_state_get_speed        (FrFoldState    *self,
                                               double         *speed_const);
void           fr_fold_state_set_grid_min_speed (FrFoldState  *self,
                                               double          min_speed);
double         fr_fold_state_get_psi_limit    (FrFoldState    *self);
double         fr_fold_state_get_arrow_scale_speed (FrFoldState *self);
gboolean       fr_fold_state_set_psi_a        (FrFoldState    *self,
                                               double          ax,
                                               double          az);
gboolean       fr_fold_state_set_psi_a_given  (FrFoldState    *self,
                                               double          ax,
                                               double          az);
void           fr_fold_state_get_psi_a        (FrFoldState    *self,
                                               double         *ax,
                                               double         *az);
void           fr_fold_state_get_psi_asked    (FrFoldState    *self,
                                               double         *ax,
                                               double         *az);
gboolean       fr_fold_state_get_psi_clamped  (FrFoldState    *self);
void           fr_fold_state_set_method       (FrFoldState    *self,
                                               fr_fold_method  method);
fr_fold_method fr_fold_state_get_method       (FrFoldState    *self);
void           fr_fold_state_set_backend      (FrFoldState    *self,
                                               fr_fold_backend backend);
fr_fold_backend fr_fold_state_get_backend     (FrFoldState    *self);
void           fr_fold_state_set_levels       (FrFoldState    *self,
                                               double          delta,
                                               int             count);
void           fr_fold_state_get_levels       (FrFoldState    *self,
                                               double         *delta,
                                               int            *count);
void           fr_fold_state_set_bands        (FrFoldState    *self,
                                               gboolean        bands);
gboolean       fr_fold_state_get_bands        (FrFoldState    *self);
void           fr_fold_state_set_arrow_base   (FrFoldState    *self,
                                               double          x,
                                               double          z);
void           fr_fold_state_get_arrow_base   (FrFoldState    *self,
                                               double         *x,
                                               double         *z);
gboolean       fr_fold_state_load_horizon_csv (FrFoldState    *self,
                                               const char     *path,
                                               GError        **error);
gboolean       fr_fold_state_load_example     (FrFoldState    *self,
                                               const char     *name,
                                               double          x0,
                                               double          z0,
                                               double          x1,
                                               double          z1,
                                               GError        **error);
FrJob         *fr_fold_state_make_job         (FrFoldState    *self,
                                               FrScene        *scene);
FrUndo        *fr_fold_state_get_undo         (FrFoldState    *self);
void           fr_fold_state_begin_edit       (FrFoldState    *self);
void           fr_fold_state_end_edit         (FrFoldState    *self,
                                               const char     *label);
gboolean       fr_fold_state_cancel_edit      (FrFoldState    *self);
void           fr_fold_state_reset            (FrFoldState    *self);
void           fr_fold_state_to_doc           (FrFoldState    *self,
                                               FrSceneDoc     *doc);
void           fr_fold_state_load_doc         (FrFoldState    *self,
                                               const FrSceneDoc *doc);

G_END_DECLS
