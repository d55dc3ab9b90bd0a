/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scene: what the user edits.  A velocity grid with its geometry, the
 * sources and receivers (kept on grid nodes), the selected marker and the
 * undo history of edits, like a GtkTextBuffer owns its own. */
#pragma once

#include <glib-object.h>

#include "fr-grid.h"
#include "fr-job.h"
#include "fr-model.h"
#include "fr-scene-file.h"
#include "fr-undo.h"

G_BEGIN_DECLS

typedef struct
{
  double x, z;
} FrPoint;

typedef enum
{
  FR_MARKER_NONE,
  FR_MARKER_SOURCE,
  FR_MARKER_RECEIVER,
} FrMarkerKind;

typedef enum
{
  FR_SCENE_CHANGED_MODEL     = 1 << 0,   /* velocity or grid */
  FR_SCENE_CHANGED_GEOMETRY  = 1 << 1,   /* sources or receivers */
  FR_SCENE_CHANGED_SELECTION = 1 << 2,
  FR_SCENE_CHANGED_VELOCITY  = 1 << 3,   /* drawn model edited: values only, same grid */
  FR_SCENE_CHANGED_OUTLINES  = 1 << 4,   /* drawn model edited during an edit: its lines now,
                                          * its values to follow (VELOCITY) */
  FR_SCENE_CHANGED_NO_STEP   = 1 << 5,   /* an edit ended with no undo step, what it changed
                                          * back as it was (Escape, or a marker dragged back
                                          * by hand): the scene is modified only as before */
  FR_SCENE_CHANGED_SHOT      = 1 << 6,   /* the shot shown, or whether sources fire one at a
                                          * time (fr_scene_get_shot): T and the rays change */
} FrSceneChange;

#define FR_TYPE_SCENE (fr_scene_get_type ())

G_DECLARE_FINAL_TYPE (FrScene, fr_scene, FR, SCENE, GObject)

FrScene       *fr_scene_new                 (void);
gboolean       fr_scene_set_model           (FrScene        *self,
                                             const char     *title,
                                             const fr_grid  *grid,
                                             GBytes         *velocity,
                                             GError        **error);
const char    *fr_scene_get_title           (FrScene        *self);
const fr_grid *fr_scene_get_grid            (FrScene        *self);
GBytes        *fr_scene_get_velocity        (FrScene        *self);
GBytes        *fr_scene_get_constant_speed  (FrScene        *self,
                                             double          speed,
                                             GError        **error);
void           fr_scene_get_velocity_range  (FrScene        *self,
                                             float          *vmin,
                                             float          *vmax);
float          fr_scene_get_least_velocity  (FrScene        *self);
gboolean       fr_scene_velocity_is_uniform (FrScene        *self);
gboolean       fr_scene_has_model           (FrScene        *self);
void           fr_scene_get_bounds          (FrScene        *self,
                                             double         *x_min,
                                             double         *z_min,
                                             double         *x_max,
                                             double         *z_max);
float          fr_scene_velocity_at         (FrScene        *self,
                                             double          x,
                                             double          z);
const FrPoint *fr_scene_get_markers         (FrScene        *self,
                                             FrMarkerKind    kind,
                                             guint          *n);
gboolean       fr_scene_grid_holds          (FrScene        *self,
                                             double          x,
                                             double          z);
gboolean       fr_scene_snap                (FrScene        *self,
                                             double          x,
                                             double          z,
                                             double         *sx,
                                             double         *sz);
int            fr_scene_add_marker          (FrScene        *self,
                                             FrMarkerKind    kind,
                                             double          x,
                                             double          z);
gboolean       fr_scene_move_marker         (FrScene        *self,
                                             FrMarkerKind    kind,
                                             guint           index,
                                             double          x,
                                             double          z);
gboolean       fr_scene_remove_marker       (FrScene        *self,
                                             FrMarkerKind    kind,
                                             guint           index);
gboolean       fr_scene_pick                (FrScene        *self,
                                             double          x,
                                             double          z,
                                             double          max_dist,
                                             FrMarkerKind   *kind,
                                             guint          *index);
void           fr_scene_select              (FrScene        *self,
                                             FrMarkerKind    kind,
                                             guint           index);
FrMarkerKind   fr_scene_get_selection       (FrScene        *self,
                                             guint          *index);
gboolean       fr_scene_delete_selection    (FrScene        *self);
void           fr_scene_set_separate_shots  (FrScene        *self,
                                             gboolean        separate);
gboolean       fr_scene_get_separate_shots  (FrScene        *self);
gint           fr_scene_get_shot            (FrScene        *self);
gboolean       fr_scene_source_fires        (FrScene        *self,
                                             guint           index);
void           fr_scene_clear_markers       (FrScene        *self);
gboolean       fr_scene_import_receivers    (FrScene        *self,
                                             const char     *path,
                                             GError        **error);
/* Replaces the receivers with a line of count of them, evenly from
 * (x_first, z_first) to (x_last, z_last) — along the surface, down a
 * borehole or slanting — each on its nearest node, as one undo step;
 * refused (nothing changed) where an end lies off the grid or two would
 * share a node. */
gboolean       fr_scene_lay_receiver_line   (FrScene        *self,
                                             double          x_first,
                                             double          z_first,
                                             double          x_last,
                                             double          z_last,
                                             guint           count,
                                             GError        **error);
void           fr_scene_begin_edit          (FrScene        *self);
gboolean       fr_scene_cancel_edit         (FrScene        *self);
void           fr_scene_end_edit            (FrScene        *self,
                                             const char     *label);
FrUndo        *fr_scene_get_undo            (FrScene        *self);
void           fr_scene_set_rasteriser      (FrScene        *self,
                                             FrRasteriseFunc rasterise_fn);
FrJob         *fr_scene_make_job            (FrScene        *self,
                                             FrRadius        radius,
                                             fr_spr_backend  backend);

/* The drawn model (fr-model.h): layers, obstacles, background, grid. */
gboolean       fr_scene_load_model          (FrScene        *self,
                                             const char     *title,
                                             FrModel        *model,
                                             GError        **error);
const FrModel *fr_scene_get_model           (FrScene        *self);
void           fr_scene_set_background_source (FrScene      *self,
                                             const char     *path,
                                             const char     *format);
FrModel       *fr_scene_edit_model          (FrScene        *self);
gboolean       fr_scene_model_changed       (FrScene        *self,
                                             GError        **error);
gboolean       fr_scene_set_extent          (FrScene        *self,
                                             double          width,
                                             double          depth,
                                             GError        **error);
gboolean       fr_scene_set_nodes           (FrScene        *self,
                                             guint           nx,
                                             guint           nz,
                                             GError        **error);
gboolean       fr_scene_set_spacing         (FrScene        *self,
                                             double          dx,
                                             double          dz,
                                             GError        **error);
gboolean       fr_scene_add_layer           (FrScene        *self,
                                             GError        **error);
gboolean       fr_scene_remove_layer        (FrScene        *self,
                                             guint           index,
                                             GError        **error);
gboolean       fr_scene_set_layer_velocity  (FrScene        *self,
                                             guint           index,
                                             double          v_top,
                                             double          dvdz,
                                             double          dvdx,
                                             GError        **error);
gboolean       fr_scene_set_obstacle_velocity (FrScene      *self,
                                             guint           index,
                                             double          velocity,
                                             GError        **error);
gboolean       fr_scene_job_is_current      (FrScene        *self,
                                             const FrJob    *job);
void           fr_scene_set_length_unit     (FrScene        *self,
                                             FrLengthUnit    unit);
FrLengthUnit   fr_scene_get_length_unit     (FrScene        *self);
const char    *fr_scene_get_velocity_warning (FrScene       *self);
gboolean       fr_scene_get_modified        (FrScene        *self);
void           fr_scene_set_modified        (FrScene        *self,
                                             gboolean        modified);
FrSceneDoc    *fr_scene_to_doc              (FrScene        *self);
gboolean       fr_scene_load_doc            (FrScene        *self,
                                             const FrSceneDoc *doc,
                                             GError        **error);

G_END_DECLS
