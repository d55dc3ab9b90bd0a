/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-scene"

#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "fr-csv.h"
#include "fr-garray.h"
#include "fr-model-memory.h"
#include "fr-raster-worker.h"
#include "fr-scene.h"

/* The sources and receivers at one moment, for undo. */
typedef struct
{
  GArray  *sources;
  GArray  *receivers;
  gboolean separate_shots;
  FrModel *model;      /* the drawn model, NULL before one is set */
} Geometry;

typedef struct
{
  Geometry *before;
  Geometry *after;
} GeometryEdit;

struct _FrScene
{
  GObject       parent_instance;

  char         *title;
  FrLengthUnit  length_unit;  /* of x and z, for the labels; no number uses it */
  fr_grid       grid;
  GBytes       *velocity;
  float         vmin, vmax;
  /* The fold's speed grid of a constant F over velocity
   * (fr_scene_get_constant_speed), made once for it and that F. */
  GBytes       *constant_speed;
  double        constant_speed_of;   /* its F; 0: none made */

  GArray       *sources;     /* FrPoint */
  GArray       *receivers;   /* FrPoint */
  FrMarkerKind  selected_kind;
  guint         selected_index;
  gboolean      separate_shots;  /* each source its own shot, else all fire together */
  guint         shot;        /* with separate_shots: the source whose shot is shown,
                              * the one last selected (fr_scene_get_shot clamps it) */

  FrUndo       *undo;
  Geometry     *edit_before; /* between begin_edit and end_edit */
  guint         edit_depth;

  FrModel      *model;       /* what velocity is rasterised from */
  FrRasterWorker *rasters;   /* the model rasterised off the main thread during an edit */
  FrRasteriseFunc rasterise_fn;  /* fr_model_rasterise, or a test's */
  FrModel      *shown_model;   /* during an edit: the model the velocity shown was rasterised from */
  GError       *landed_error;  /* during an edit: why the last model to land has no velocity */
  char         *velocity_warning;  /* fr_model_rasterise's, or NULL */
  float         least_velocity;    /* the cells' least, walls left out */
  gboolean      uniform;           /* one velocity in every open cell */
  gboolean      modified;    /* edited since loaded or saved */
};

G_DEFINE_FINAL_TYPE (FrScene, fr_scene, G_TYPE_OBJECT)

enum {
  CHANGED,
  RASTER_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static Geometry *
geometry_copy (FrScene *self)
{
  Geometry *g = g_new0 (Geometry, 1);

  g->sources = g_array_copy (self->sources);
  g->receivers = g_array_copy (self->receivers);
  g->separate_shots = self->separate_shots;
  g->model = self->model != NULL ? fr_model_copy (self->model) : NULL;
  return g;
}

static void
geometry_free (Geometry *g)
{
  if (g == NULL)
    return;
  g_array_unref (g->sources);
  g_array_unref (g->receivers);
  fr_model_free (g->model);
  g_free (g);
}

static void
geometry_edit_free (gpointer data)
{
  GeometryEdit *edit = data;

  geometry_free (edit->before);
  geometry_free (edit->after);
  g_free (edit);
}

/* Every change inside begin_edit/end_edit is a user edit, and the
 * handlers of "changed" (the title's "•", the autosave) must already see
 * the scene as modified: so the flag is set here, before the emission,
 * not after it in end_edit. */
static void
emit_changed (FrScene       *self,
              FrSceneChange  what)
{
  if (self->edit_depth > 0 &&
      (what & (FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_VELOCITY |
               FR_SCENE_CHANGED_OUTLINES)))
    self->modified = TRUE;
  g_signal_emit (self, signals[CHANGED], 0, (guint) what);
}

static gboolean rasterise (FrScene *self, GError **error);
static void raster_landed_cb (const FrModel *model, GBytes *velocity, const char *warning,
                              const GError *error, gpointer user_data);
static void raster_failed (FrScene *self, const GError *error, const char *what);

static void
apply_geometry (FrScene  *self,
                Geometry *g)
{
  FrSceneChange what = FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_SELECTION;

  if (g->model != NULL && self->model != NULL && !fr_model_equal (g->model, self->model))
    {
      g_autoptr(GError) error = NULL;
      gboolean same_grid = fr_model_grids_equal (&g->model->grid, &self->model->grid);

      FrModel *kept = g_steal_pointer (&self->model);

      self->model = fr_model_copy (g->model);
      if (rasterise (self, &error))
        {
          fr_model_free (kept);
          what |= same_grid ? FR_SCENE_CHANGED_VELOCITY : FR_SCENE_CHANGED_MODEL;
        }
      else
        {
          /* The model stays the velocity's; the markers are still undone. */
          fr_model_free (self->model);
          self->model = kept;
          raster_failed (self, error, _("The model was kept as it was; only the markers changed."));
        }
    }
  self->modified = TRUE;
  g_array_set_size (self->sources, 0);
  g_array_append_vals (self->sources, g->sources->data, g->sources->len);
  g_array_set_size (self->receivers, 0);
  g_array_append_vals (self->receivers, g->receivers->data, g->receivers->len);
  if (self->separate_shots != g->separate_shots)
    what |= FR_SCENE_CHANGED_SHOT;
  self->separate_shots = g->separate_shots;
  self->selected_kind = FR_MARKER_NONE;
  emit_changed (self, what);
}

static void
undo_geometry (gpointer data,
               gpointer user_data)
{
  apply_geometry (user_data, ((GeometryEdit *)data)->before);
}

static void
redo_geometry (gpointer data,
               gpointer user_data)
{
  apply_geometry (user_data, ((GeometryEdit *)data)->after);
}

/* A source selected (or placed) is the shot shown, where each fires
 * alone: FR_SCENE_CHANGED_SHOT where that changed the shot shown, else 0. */
static FrSceneChange
shot_follows_selection (FrScene *self)
{
  gint was = fr_scene_get_shot (self);

  if (self->selected_kind == FR_MARKER_SOURCE)
    self->shot = self->selected_index;
  return fr_scene_get_shot (self) != was ? FR_SCENE_CHANGED_SHOT : 0;
}

static GArray *
markers_of (FrScene      *self,
            FrMarkerKind  kind)
{
  switch (kind)
    {
    case FR_MARKER_SOURCE:
      return self->sources;
    case FR_MARKER_RECEIVER:
      return self->receivers;
    case FR_MARKER_NONE:
    default:
      return NULL;
    }
}

static void
fr_scene_dispose (GObject *object)
{
  FrScene *self = (FrScene *)object;

  g_clear_object (&self->undo);
  g_clear_pointer (&self->edit_before, geometry_free);
  g_clear_pointer (&self->rasters, fr_raster_worker_free);
  g_clear_pointer (&self->shown_model, fr_model_free);
  g_clear_error (&self->landed_error);

  G_OBJECT_CLASS (fr_scene_parent_class)->dispose (object);
}

static void
fr_scene_finalize (GObject *object)
{
  FrScene *self = (FrScene *)object;

  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->velocity_warning, g_free);
  g_clear_pointer (&self->velocity, g_bytes_unref);
  g_clear_pointer (&self->constant_speed, g_bytes_unref);
  g_clear_pointer (&self->sources, g_array_unref);
  g_clear_pointer (&self->receivers, g_array_unref);
  g_clear_pointer (&self->model, fr_model_free);

  G_OBJECT_CLASS (fr_scene_parent_class)->finalize (object);
}

static void
fr_scene_class_init (FrSceneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fr_scene_dispose;
  object_class->finalize = fr_scene_finalize;

  /**
   * FrScene::changed:
   * @what: FrSceneChange flags
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  /**
   * FrScene::raster-failed:
   * @error: why
   *
   * A model could not be rasterised where no caller was there to be told:
   * at an edit's end (the model went back to the last one rasterised,
   * which the velocity shows) or in an undo or redo (the model stayed).
   * Only memory can run out there, as fr_model_check passed.
   */
  signals[RASTER_FAILED] =
    g_signal_new ("raster-failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
fr_scene_init (FrScene *self)
{
  self->sources = g_array_new (FALSE, FALSE, sizeof (FrPoint));
  self->receivers = g_array_new (FALSE, FALSE, sizeof (FrPoint));
  self->undo = fr_undo_new (undo_geometry, redo_geometry, self);
  self->rasterise_fn = fr_model_rasterise;
  self->rasters = fr_raster_worker_new (self->rasterise_fn, raster_landed_cb, self);
  self->grid = fr_grid_2d (1, 1, 1.0, 1.0, 0.0, 0.0);
}

FrScene *
fr_scene_new (void)
{
  return g_object_new (FR_TYPE_SCENE, NULL);
}

/* Takes velocity as the scene's values and finds the colour scale. */
static void
set_velocity (FrScene *self,
              GBytes  *velocity)
{
  const float *v;
  size_t n;

  g_clear_pointer (&self->velocity, g_bytes_unref);
  self->velocity = g_bytes_ref (velocity);
  g_clear_pointer (&self->constant_speed, g_bytes_unref);
  self->constant_speed_of = 0.0;

  v = g_bytes_get_data (velocity, NULL);
  n = fr_grid_count (&self->grid);
  self->vmin = INFINITY;
  self->vmax = -INFINITY;
  for (size_t i = 0; i < n; i++)
    {
      /* Obstacles (0) are drawn grey, outside the colour scale. */
      if (v[i] > 0.0f && isfinite (v[i]))
        {
          self->vmin = MIN (self->vmin, v[i]);
          self->vmax = MAX (self->vmax, v[i]);
        }
    }
  if (!(self->vmin <= self->vmax))
    self->vmin = self->vmax = 1.0f;
  /* The colour scale below widens a uniform model's range; the solvers
   * see the cells themselves. */
  self->least_velocity = self->vmin;
  self->uniform = self->vmax - self->vmin < 1e-6f * MAX (1.0f, self->vmax);
  if (self->uniform)
    {
      self->vmin -= 0.5f;
      self->vmax += 0.5f;
      self->vmin = MAX (self->vmin, 0.0f);
    }
}

/* Takes a rasterisation of the model of (and its warning, taken). */
static void
apply_raster (FrScene       *self,
              const FrModel *of,
              GBytes        *velocity,
              char          *warning)
{
  if (self->edit_depth > 0)
    {
      /* What the model goes back to should the edit's last fail. */
      fr_model_free (self->shown_model);
      self->shown_model = fr_model_copy (of);
    }
  g_free (self->velocity_warning);
  self->velocity_warning = warning;
  self->grid = self->model->grid;
  set_velocity (self, velocity);
}

/* Rasterises the model onto its grid, here and now; what the worker still
 * had of an edit is older, and dropped. */
static gboolean
rasterise (FrScene  *self,
           GError  **error)
{
  g_autofree char *warning = NULL;
  g_autoptr(GBytes) v = NULL;

  fr_raster_worker_drop (self->rasters);
  g_clear_error (&self->landed_error);
  if ((v = self->rasterise_fn (self->model, &warning, error)) == NULL)
    return FALSE;
  apply_raster (self, self->model, v, g_steal_pointer (&warning));
  return TRUE;
}

/* An edit's rasterisation landed from the worker thread: a drag shows
 * each one as it comes. */
static void
raster_landed_cb (const FrModel *model,
                  GBytes        *velocity,
                  const char    *warning,
                  const GError  *error,
                  gpointer       user_data)
{
  FrScene *self = user_data;

  if (velocity == NULL)
    {
      /* The drag goes on showing the last velocity that landed; the
       * edit's end tries its last model again, and says so if that fails. */
      g_debug ("a drag's model not rasterised: %s", error->message);
      g_clear_error (&self->landed_error);
      self->landed_error = g_error_copy (error);
      return;
    }
  g_clear_error (&self->landed_error);
  apply_raster (self, model, velocity, g_strdup (warning));
  emit_changed (self, FR_SCENE_CHANGED_VELOCITY);
}

/* Tells the window why a model was not rasterised, and what became of it
 * (what). */
static void
raster_failed (FrScene      *self,
               const GError *error,
               const char   *what)
{
  g_autoptr(GError) told = g_error_new (error->domain, error->code, "%s %s", error->message, what);

  g_signal_emit (self, signals[RASTER_FAILED], 0, told);
}

/* Brings the edit's last rasterisation in now, waiting for the worker if
 * it is on it: once an edit ends, the velocity is its model's.  FALSE
 * when that fails: error is set, or with error NULL "raster-failed" is
 * emitted. */
static gboolean
finish_rasters (FrScene  *self,
                GError  **error_out)
{
  g_autoptr(GBytes) v = NULL;
  g_autoptr(GError) error = NULL;
  char *warning = NULL;

  if (!fr_raster_worker_finish (self->rasters, &v, &warning, &error))
    {
      /* Nothing pending: the newest model landed, and may have failed. */
      if (self->landed_error == NULL)
        return TRUE;
      error = g_steal_pointer (&self->landed_error);
    }
  if (v == NULL)
    {
      /* The model goes back to the velocity's: the last rasterised in the
       * edit, or the edit's first, so that what is drawn is what is solved. */
      const FrModel *shown = self->shown_model != NULL ? self->shown_model
                             : self->edit_before != NULL ? self->edit_before->model : NULL;

      g_free (warning);
      if (shown != NULL)
        {
          fr_model_free (self->model);
          self->model = fr_model_copy (shown);
          emit_changed (self, FR_SCENE_CHANGED_OUTLINES);
        }
      if (error_out != NULL)
        g_propagate_error (error_out, g_steal_pointer (&error));
      else
        raster_failed (self, error, _("The model is back at the last shape whose velocities were computed."));
      return FALSE;
    }
  apply_raster (self, self->model, v, warning);
  emit_changed (self, FR_SCENE_CHANGED_VELOCITY);
  return TRUE;
}

static void
reset_edits (FrScene *self)
{
  g_array_set_size (self->sources, 0);
  g_array_set_size (self->receivers, 0);
  self->selected_kind = FR_MARKER_NONE;
  g_clear_pointer (&self->edit_before, geometry_free);
  self->edit_depth = 0;
  fr_undo_clear (self->undo);
  self->modified = FALSE;
}

/* Replaces the velocity model (nx·nz float32 in velocity), as a plain
 * model whose background is that grid; clears the markers, the selection
 * and the undo history.  FALSE, with the scene as it was, as
 * fr_scene_load_model. */
gboolean
fr_scene_set_model (FrScene       *self,
                    const char    *title,
                    const fr_grid *grid,
                    GBytes        *velocity,
                    GError       **error)
{
  FrModel *model;

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  g_return_val_if_fail (grid != NULL && grid->ndim == 2, FALSE);
  g_return_val_if_fail (velocity != NULL, FALSE);
  g_return_val_if_fail (g_bytes_get_size (velocity) == fr_grid_count (grid) * sizeof (float), FALSE);

  model = fr_model_new (grid, 1.0);
  model->background = fr_background_new (NULL, "npy", grid, velocity);
  return fr_scene_load_model (self, title, model, error);
}

/* Replaces the whole model (taken, also when refused); clears markers,
 * selection and undo.  FALSE, with the scene as it was, when the app could
 * not hold the model's grid (fr_model_memory_check, asked before anything
 * of its size is allocated) or rasterising it fails all the same. */
gboolean
fr_scene_load_model (FrScene     *self,
                     const char  *title,
                     FrModel     *model,
                     GError     **error)
{
  g_autoptr(FrModel) owned = model;
  g_autoptr(GBytes) v = NULL;
  g_autofree char *warning = NULL;

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  g_return_val_if_fail (model != NULL, FALSE);

  if (!fr_model_memory_check (model, error) ||
      (v = self->rasterise_fn (model, &warning, error)) == NULL)
    return FALSE;

  /* What the worker still had of an edit of the old model is dropped. */
  fr_raster_worker_drop (self->rasters);
  g_clear_error (&self->landed_error);
  g_free (self->title);
  self->title = g_strdup (title);
  g_clear_pointer (&self->model, fr_model_free);
  self->model = g_steal_pointer (&owned);
  apply_raster (self, self->model, v, g_steal_pointer (&warning));
  reset_edits (self);
  self->separate_shots = FALSE;
  self->shot = 0;

  emit_changed (self, FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_GEOMETRY |
                      FR_SCENE_CHANGED_SELECTION);
  return TRUE;
}

const char *
fr_scene_get_title (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), NULL);
  return self->title;
}

const fr_grid *
fr_scene_get_grid (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), NULL);
  return &self->grid;
}

/* The velocity values, nx·nz float32; NULL before a model is set. */
GBytes *
fr_scene_get_velocity (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), NULL);
  return self->velocity;
}

/* The fold's speed grid for a constant F over the velocity (F, and 0 in
 * the model's impermeable obstacles: fr_model_constant_speed), kept until
 * the velocity or F changes, so that a ψa drag makes it once.  NULL where
 * the model has no impermeable cell, or, with error set, where its memory
 * cannot be had. */
GBytes *
fr_scene_get_constant_speed (FrScene  *self,
                             double    speed,
                             GError  **error)
{
  g_return_val_if_fail (FR_IS_SCENE (self) && self->velocity != NULL, NULL);

  if (self->constant_speed_of != speed)
    {
      GError *local = NULL;

      g_clear_pointer (&self->constant_speed, g_bytes_unref);
      self->constant_speed = fr_model_constant_speed (self->velocity, speed, &local);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          self->constant_speed_of = 0.0;
          return NULL;
        }
      self->constant_speed_of = speed;
    }
  return self->constant_speed;
}

gboolean
fr_scene_has_model (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return self->velocity != NULL;
}

/* The smallest and largest positive velocity (the colour scale). */
void
fr_scene_get_velocity_range (FrScene *self,
                             float   *vmin,
                             float   *vmax)
{
  g_return_if_fail (FR_IS_SCENE (self));

  if (vmin != NULL)
    *vmin = self->vmin;
  if (vmax != NULL)
    *vmax = self->vmax;
}

/* The least velocity of the grid's cells, walls (0) left out; 1 when
 * every cell is a wall.  fr_scene_get_velocity_range's minimum is the
 * colour scale's, widened for a uniform model. */
float
fr_scene_get_least_velocity (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), 1.0f);
  return self->least_velocity;
}

/* Whether every open cell has the same velocity (then
 * fr_scene_get_least_velocity); the colour scale's range is widened
 * around it, and the field shows the scale's middle colour. */
gboolean
fr_scene_velocity_is_uniform (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return self->uniform;
}

/* The model box covered by the cells (a node's cell reaches half a
 * spacing beyond it). */
void
fr_scene_get_bounds (FrScene *self,
                     double  *x_min,
                     double  *z_min,
                     double  *x_max,
                     double  *z_max)
{
  const fr_grid *g;

  g_return_if_fail (FR_IS_SCENE (self));

  g = &self->grid;
  *x_min = g->x0 - 0.5 * g->dx;
  *z_min = g->z0 - 0.5 * g->dz;
  *x_max = g->x0 + (g->nx - 0.5) * g->dx;
  *z_max = g->z0 + (g->nz - 0.5) * g->dz;
}

/* The velocity of the cell containing (x, z), or NAN outside. */
float
fr_scene_velocity_at (FrScene *self,
                      double   x,
                      double   z)
{
  const fr_grid *g;
  double fx, fz;

  g_return_val_if_fail (FR_IS_SCENE (self), NAN);

  if (self->velocity == NULL)
    return NAN;
  g = &self->grid;
  fx = floor ((x - g->x0) / g->dx + 0.5);
  fz = floor ((z - g->z0) / g->dz + 0.5);
  if (fx < 0 || fz < 0 || fx >= g->nx || fz >= g->nz)
    return NAN;
  return ((const float *) g_bytes_get_data (self->velocity, NULL))
           [fr_grid_index (g, (size_t) fx, 0, (size_t) fz)];
}

/* The markers of one kind, in order; *n receives their count. */
const FrPoint *
fr_scene_get_markers (FrScene      *self,
                      FrMarkerKind  kind,
                      guint        *n)
{
  GArray *a;

  g_return_val_if_fail (FR_IS_SCENE (self), NULL);
  g_return_val_if_fail (n != NULL, NULL);

  a = markers_of (self, kind);
  *n = a != NULL ? a->len : 0;
  return a != NULL ? (const FrPoint *) a->data : NULL;
}

/* Whether (x, z) lies on the scene's grid, up to rounding, by the rule
 * foldray-cli applies (fr_grid_contains): what a scene file's or the
 * command line's points must. */
gboolean
fr_scene_grid_holds (FrScene *self,
                     double   x,
                     double   z)
{
  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return fr_grid_contains (fr_scene_get_grid (self), x, 0.0, z);
}

/* A node's coordinate, x0 + i·d, as the decimal it stands for: in binary
 * 165 × 0.01 is 1.6500000000000001, which a saved scene then shows.  The
 * double nearest the 15-digit decimal differs by an ulp or so, the same
 * node for every solver (they allow a millionth of a spacing). */
static double
node_coordinate (double x0,
                 double i,
                 double d)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  const double v = x0 + i * d;
  const double r = g_ascii_strtod (g_ascii_formatd (buf, sizeof buf, "%.15g", v), NULL);

  return fabs (r - v) <= 1e-9 * d ? r : v;
}

/* The grid node nearest to (x, z), clamped into the grid: sources must
 * lie on nodes (CONTRACT.md), and a click or a drag beyond the model stops
 * at its edge, where the user sees the marker.  A scene file's points are
 * not clamped: fr_scene_load_doc refuses those outside the grid.  FALSE
 * when there is no model. */
gboolean
fr_scene_snap (FrScene *self,
               double   x,
               double   z,
               double  *sx,
               double  *sz)
{
  const fr_grid *g;
  double ix, iz;

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);

  if (self->velocity == NULL || !isfinite (x) || !isfinite (z))
    return FALSE;
  g = &self->grid;
  ix = CLAMP (floor ((x - g->x0) / g->dx + 0.5), 0.0, (double) (g->nx - 1));
  iz = CLAMP (floor ((z - g->z0) / g->dz + 0.5), 0.0, (double) (g->nz - 1));
  *sx = node_coordinate (g->x0, ix, g->dx);
  *sz = node_coordinate (g->z0, iz, g->dz);
  return TRUE;
}

/* Adds a marker at the node nearest (x, z), selects it and records an
 * undo step.  Returns its index, or -1 without a model. */
int
fr_scene_add_marker (FrScene      *self,
                     FrMarkerKind  kind,
                     double        x,
                     double        z)
{
  GArray *a;
  FrPoint p;

  g_return_val_if_fail (FR_IS_SCENE (self), -1);
  g_return_val_if_fail (kind == FR_MARKER_SOURCE || kind == FR_MARKER_RECEIVER, -1);

  if (!fr_scene_snap (self, x, z, &p.x, &p.z))
    return -1;

  fr_scene_begin_edit (self);
  a = markers_of (self, kind);
  g_array_append_val (a, p);
  self->selected_kind = kind;
  self->selected_index = a->len - 1;
  emit_changed (self, FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_SELECTION | shot_follows_selection (self));
  fr_scene_end_edit (self, kind == FR_MARKER_SOURCE ? _("Place Source") : _("Place Receiver"));
  return (int) a->len - 1;
}

/* Moves a marker to the node nearest (x, z).  Records no undo step by
 * itself: a drag wraps its moves in begin_edit/end_edit.  Emits "changed"
 * only when the node changes. */
gboolean
fr_scene_move_marker (FrScene      *self,
                      FrMarkerKind  kind,
                      guint         index,
                      double        x,
                      double        z)
{
  GArray *a;
  FrPoint p, *cur;

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);

  a = markers_of (self, kind);
  g_return_val_if_fail (a != NULL && index < a->len, FALSE);

  if (!fr_scene_snap (self, x, z, &p.x, &p.z))
    return FALSE;
  cur = &g_array_index (a, FrPoint, index);
  if (cur->x == p.x && cur->z == p.z)
    return FALSE;
  *cur = p;
  emit_changed (self, FR_SCENE_CHANGED_GEOMETRY);
  return TRUE;
}

/* Removes a marker, with an undo step. */
gboolean
fr_scene_remove_marker (FrScene      *self,
                        FrMarkerKind  kind,
                        guint         index)
{
  GArray *a;

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);

  a = markers_of (self, kind);
  if (a == NULL || index >= a->len)
    return FALSE;

  fr_scene_begin_edit (self);
  g_array_remove_index (a, index);
  /* The shot shown stays with its source. */
  if (kind == FR_MARKER_SOURCE && self->shot > index)
    self->shot--;
  if (self->selected_kind == kind)
    {
      if (self->selected_index == index)
        self->selected_kind = FR_MARKER_NONE;
      else if (self->selected_index > index)
        self->selected_index--;
    }
  emit_changed (self, FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_SELECTION);
  fr_scene_end_edit (self, kind == FR_MARKER_SOURCE ? _("Delete Source") : _("Delete Receiver"));
  return TRUE;
}

/* The marker nearest (x, z) within max_dist model units; sources win ties
 * with receivers. */
gboolean
fr_scene_pick (FrScene      *self,
               double        x,
               double        z,
               double        max_dist,
               FrMarkerKind *kind,
               guint        *index)
{
  static const FrMarkerKind kinds[] = { FR_MARKER_SOURCE, FR_MARKER_RECEIVER };
  double best = max_dist * max_dist;
  gboolean found = FALSE;

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      GArray *a = markers_of (self, kinds[k]);

      for (guint i = 0; i < a->len; i++)
        {
          const FrPoint *p = &g_array_index (a, FrPoint, i);
          double d2 = (p->x - x) * (p->x - x) + (p->z - z) * (p->z - z);

          if (d2 < best || (!found && d2 <= best))
            {
              best = d2;
              found = TRUE;
              if (kind != NULL)
                *kind = kinds[k];
              if (index != NULL)
                *index = i;
            }
        }
    }
  return found;
}

void
fr_scene_select (FrScene      *self,
                 FrMarkerKind  kind,
                 guint         index)
{
  GArray *a;

  g_return_if_fail (FR_IS_SCENE (self));

  a = markers_of (self, kind);
  if (a == NULL || index >= a->len)
    kind = FR_MARKER_NONE;
  if (self->selected_kind == kind && (kind == FR_MARKER_NONE || self->selected_index == index))
    return;
  self->selected_kind = kind;
  self->selected_index = index;
  emit_changed (self, FR_SCENE_CHANGED_SELECTION | shot_follows_selection (self));
}

/* Whether each source is a shot of its own (a refraction line shot from
 * both ends, a walkaway), rather than all of them firing at once, as one
 * undo step; the scene is modified. */
void
fr_scene_set_separate_shots (FrScene  *self,
                             gboolean  separate)
{
  g_return_if_fail (FR_IS_SCENE (self));

  separate = !!separate;
  if (self->separate_shots == separate)
    return;
  fr_scene_begin_edit (self);
  self->separate_shots = separate;
  emit_changed (self, FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_SHOT);
  fr_scene_end_edit (self, separate ? _("Fire Sources One at a Time") : _("Fire Sources Together"));
}

gboolean
fr_scene_get_separate_shots (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return self->separate_shots;
}

/* Whether source index fires in the shot shown: every source where they
 * fire together, else only the shot's own. */
gboolean
fr_scene_source_fires (FrScene *self,
                       guint    index)
{
  gint shot = fr_scene_get_shot (self);

  return shot < 0 || (guint) shot == index;
}

/* The source whose shot the results show: the one last selected or
 * placed (the first in a scene opened), where each source fires alone and
 * there are two or more; -1 where the sources fire together, as one shot. */
gint
fr_scene_get_shot (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), -1);

  if (!self->separate_shots || self->sources->len < 2)
    return -1;
  return (gint) MIN (self->shot, self->sources->len - 1);
}

FrMarkerKind
fr_scene_get_selection (FrScene *self,
                        guint   *index)
{
  g_return_val_if_fail (FR_IS_SCENE (self), FR_MARKER_NONE);

  if (index != NULL)
    *index = self->selected_index;
  return self->selected_kind;
}

/* Removes the selected marker; FALSE when nothing is selected. */
gboolean
fr_scene_delete_selection (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);

  if (self->selected_kind == FR_MARKER_NONE)
    return FALSE;
  return fr_scene_remove_marker (self, self->selected_kind, self->selected_index);
}

/* Removes every marker, with one undo step. */
void
fr_scene_clear_markers (FrScene *self)
{
  g_return_if_fail (FR_IS_SCENE (self));

  if (self->sources->len == 0 && self->receivers->len == 0)
    return;
  fr_scene_begin_edit (self);
  g_array_set_size (self->sources, 0);
  g_array_set_size (self->receivers, 0);
  self->selected_kind = FR_MARKER_NONE;
  emit_changed (self, FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_SELECTION);
  fr_scene_end_edit (self, _("Clear Markers"));
}

/* The receivers become those of snapped (on nodes), as one undo step
 * named label; a selected receiver goes with the old ones. */
static void
replace_receivers (FrScene    *self,
                   GArray     *snapped,
                   const char *label)
{
  fr_scene_begin_edit (self);
  g_array_set_size (self->receivers, 0);
  g_array_append_vals (self->receivers, snapped->data, snapped->len);
  if (self->selected_kind == FR_MARKER_RECEIVER)
    self->selected_kind = FR_MARKER_NONE;
  emit_changed (self, FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_SELECTION);
  fr_scene_end_edit (self, label);
}

/* Replaces the receivers with those of a receivers file (the `x,z` CSV
 * that foldray-cli reads), each snapped to its nearest node as a click is,
 * in one undo step.  All or nothing: a file that cannot be read, that is
 * 3D or empty, or that holds a point off the grid changes nothing. */
gboolean
fr_scene_import_receivers (FrScene     *self,
                           const char  *path,
                           GError     **error)
{
  fr_points pts = { 0 };
  fr_error err = { 0 };
  g_autoptr(GArray) snapped = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!fr_scene_has_model (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("There is no model to place receivers on"));
      return FALSE;
    }
  if (fr_csv_read_points (path, &pts, &err) != FR_OK)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, err.message);
      return FALSE;
    }
  name = g_filename_display_name (path);
  if (pts.ndim != 2 || pts.count == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   pts.ndim != 2 ? _("%s: receivers here need a header “x,z” (this file is 3D)")
                                 : _("%s holds no receivers"), name);
      fr_points_clear (&pts);
      return FALSE;
    }
  snapped = g_array_sized_new (FALSE, FALSE, sizeof (FrPoint), (guint) pts.count);
  for (size_t i = 0; i < pts.count; i++)
    {
      const double x = pts.xyz[2 * i], z = pts.xyz[2 * i + 1];
      FrPoint p;

      if (!fr_scene_grid_holds (self, x, z))
        {
          const fr_grid *g = &self->grid;

          /* The k-th point is on line k + 2 (fr-csv.h). */
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s: line %zu: the receiver at %g, %g lies outside the grid "
                         "(x from %g to %g, z from %g to %g)"),
                       name, i + 2, x, z, g->x0, g->x0 + (double) (g->nx - 1) * g->dx,
                       g->z0, g->z0 + (double) (g->nz - 1) * g->dz);
          fr_points_clear (&pts);
          return FALSE;
        }
      fr_scene_snap (self, x, z, &p.x, &p.z);
      g_array_append_val (snapped, p);
    }
  fr_points_clear (&pts);
  replace_receivers (self, snapped, _("Import Receivers"));
  return TRUE;
}

gboolean
fr_scene_lay_receiver_line (FrScene  *self,
                            double    x_first,
                            double    z_first,
                            double    x_last,
                            double    z_last,
                            guint     count,
                            GError  **error)
{
  g_autoptr(GArray) snapped = NULL;
  const fr_grid *g;

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  g_return_val_if_fail (count >= 1, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!fr_scene_has_model (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("There is no model to place receivers on"));
      return FALSE;
    }
  g = &self->grid;
  if (!fr_scene_grid_holds (self, x_first, z_first) || !fr_scene_grid_holds (self, x_last, z_last))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The line from (%g, %g) to (%g, %g) leaves the grid (x from %g to %g, "
                     "z from %g to %g)"),
                   x_first, z_first, x_last, z_last, g->x0, g->x0 + (double) (g->nx - 1) * g->dx,
                   g->z0, g->z0 + (double) (g->nz - 1) * g->dz);
      return FALSE;
    }
  snapped = g_array_sized_new (FALSE, FALSE, sizeof (FrPoint), count);
  for (guint k = 0; k < count; k++)
    {
      /* Evenly from the first point to the last, each at its nearest node. */
      const double f = count == 1 ? 0.0 : (double) k / (double) (count - 1);
      FrPoint p;

      fr_scene_snap (self, x_first + (x_last - x_first) * f, z_first + (z_last - z_first) * f,
                     &p.x, &p.z);
      /* Along a straight line the nodes run one way in x and in z: two
       * that share a node are neighbours in the line. */
      if (k > 0 && p.x == g_array_index (snapped, FrPoint, k - 1).x &&
          p.z == g_array_index (snapped, FrPoint, k - 1).z)
        {
          /* Nodes along the line: one a step of its longer side, in cells. */
          const double nodes = floor (MAX (fabs (x_last - x_first) / g->dx,
                                           fabs (z_last - z_first) / g->dz) + 1e-9) + 1.0;

          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("%u receivers do not fit between (%g, %g) and (%g, %g): the line "
                         "crosses about %.0f nodes, and two receivers would share one"),
                       count, x_first, z_first, x_last, z_last, nodes);
          return FALSE;
        }
      g_array_append_val (snapped, p);
    }
  replace_receivers (self, snapped, _("Receiver Line"));
  return TRUE;
}

/* Starts an edit: the geometry now is what undo will restore.  Edits nest;
 * the outermost pair records one step. */
void
fr_scene_begin_edit (FrScene *self)
{
  g_return_if_fail (FR_IS_SCENE (self));

  if (self->edit_depth++ == 0)
    {
      g_clear_pointer (&self->edit_before, geometry_free);
      g_clear_pointer (&self->shown_model, fr_model_free);
      g_clear_error (&self->landed_error);
      self->edit_before = geometry_copy (self);
    }
}

/* Ends an edit, recording an undo step labelled label when the geometry
 * changed since the matching begin_edit. */
void
fr_scene_end_edit (FrScene    *self,
                   const char *label)
{
  Geometry *before;
  GeometryEdit *edit;

  g_return_if_fail (FR_IS_SCENE (self));
  g_return_if_fail (self->edit_depth > 0);

  if (self->edit_depth == 1)
    {
      finish_rasters (self, NULL);
      g_clear_pointer (&self->shown_model, fr_model_free);
      g_clear_error (&self->landed_error);
    }
  if (--self->edit_depth > 0)
    return;

  before = g_steal_pointer (&self->edit_before);
  if (before == NULL)
    return;
  if (fr_garray_equal (before->sources, self->sources) &&
      fr_garray_equal (before->receivers, self->receivers) &&
      before->separate_shots == self->separate_shots &&
      (before->model == NULL || self->model == NULL || fr_model_equal (before->model, self->model)))
    {
      geometry_free (before);
      emit_changed (self, FR_SCENE_CHANGED_NO_STEP);
      return;
    }

  edit = g_new0 (GeometryEdit, 1);
  edit->before = before;
  edit->after = geometry_copy (self);
  self->modified = TRUE;
  fr_undo_push (self->undo, label, edit, geometry_edit_free);
}

/* Ends the outermost edit putting the markers and the model back as
 * fr_scene_begin_edit found them, with no undo step: Escape during a drag
 * (a marker, or the model editor's).  FALSE, changing nothing, inside a
 * nested edit. */
gboolean
fr_scene_cancel_edit (FrScene *self)
{
  Geometry *before;

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);

  if (self->edit_depth != 1)
    return FALSE;

  finish_rasters (self, NULL);
  g_clear_pointer (&self->shown_model, fr_model_free);
  g_clear_error (&self->landed_error);
  self->edit_depth = 0;
  before = g_steal_pointer (&self->edit_before);
  if (before != NULL)
    apply_geometry (self, before);
  g_clear_pointer (&before, geometry_free);
  emit_changed (self, FR_SCENE_CHANGED_NO_STEP);
  return TRUE;
}

/* For tests: what rasterises the model from now on (fr_model_rasterise
 * until then).  Not inside an edit. */
void
fr_scene_set_rasteriser (FrScene         *self,
                         FrRasteriseFunc  rasterise_fn)
{
  g_return_if_fail (FR_IS_SCENE (self));
  g_return_if_fail (rasterise_fn != NULL);
  g_return_if_fail (self->edit_depth == 0);

  self->rasterise_fn = rasterise_fn;
  fr_raster_worker_free (self->rasters);
  self->rasters = fr_raster_worker_new (rasterise_fn, raster_landed_cb, self);
}

/* The scene's undo history (owned by the scene). */
FrUndo *
fr_scene_get_undo (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), NULL);
  return self->undo;
}

/* A snapshot of the scene for the solver thread. */
FrJob *
fr_scene_make_job (FrScene        *self,
                   FrRadius        radius,
                   fr_spr_backend  backend)
{
  g_return_val_if_fail (FR_IS_SCENE (self), NULL);
  g_return_val_if_fail (self->velocity != NULL, NULL);

  FrJob *job;

  job = fr_job_new (&self->grid, self->velocity,
                    (const double *) self->sources->data, self->sources->len,
                    (const double *) self->receivers->data, self->receivers->len,
                    radius, backend);
  job->shot = fr_scene_get_shot (self);
  return job;
}

/* The drawn model; NULL before one is set. */
const FrModel *
fr_scene_get_model (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), NULL);
  return self->model;
}

/* The model to change in place, between fr_scene_begin_edit and
 * fr_scene_end_edit; call fr_scene_model_changed after each change. */
FrModel *
fr_scene_edit_model (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), NULL);
  return self->model;
}

/* Re-rasterises after an edit of the model and emits "changed": VELOCITY
 * when the grid stayed, MODEL (and markers re-snapped) when it changed.
 * Inside fr_scene_begin_edit/end_edit a change that keeps the grid is
 * rasterised in a worker thread, so that a drag never waits for it:
 * OUTLINES comes at once (the lines and the modified state follow the
 * pointer), VELOCITY when it lands, and fr_scene_end_edit brings in the
 * last.
 * FALSE when the model is not valid: the velocity and markers stay as
 * they were, and the caller must put the model back (it was edited in
 * place), or it stays invalid, unsolved and unsaveable. */
gboolean
fr_scene_model_changed (FrScene  *self,
                        GError  **error)
{
  gboolean same_grid;

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  g_return_val_if_fail (self->model != NULL, FALSE);

  if (!fr_model_check (self->model, error))
    return FALSE;
  same_grid = fr_model_grids_equal (&self->grid, &self->model->grid);
  /* A new grid (the model panel's up to FR_MODEL_MAX_NODES a side) is
   * held to the memory as a loaded one is. */
  if (!same_grid && !fr_model_memory_check (self->model, error))
    return FALSE;
  if (same_grid && self->edit_depth > 0)
    {
      fr_raster_worker_push (self->rasters, self->model);
      emit_changed (self, FR_SCENE_CHANGED_OUTLINES);
      return TRUE;
    }
  if (!rasterise (self, error))
    return FALSE;
  if (!same_grid)
    {
      GArray *lists[2] = { self->sources, self->receivers };

      for (guint k = 0; k < 2; k++)
        for (guint i = 0; i < lists[k]->len; i++)
          {
            FrPoint *p = &g_array_index (lists[k], FrPoint, i);
            fr_scene_snap (self, p->x, p->z, &p->x, &p->z);
          }
    }
  emit_changed (self, same_grid ? FR_SCENE_CHANGED_VELOCITY
                                : FR_SCENE_CHANGED_MODEL | FR_SCENE_CHANGED_GEOMETRY);
  return TRUE;
}

/* One panel edit of the model as one undo step: fn changes the model in
 * place; an invalid result is rolled back and reported. */
typedef gboolean (*ModelEditFunc) (FrModel       *model,
                                   gconstpointer  data,
                                   GError       **error);

static gboolean
edit_model (FrScene        *self,
            const char     *label,
            ModelEditFunc   fn,
            gconstpointer   data,
            GError        **error)
{
  g_autoptr(FrModel) backup = NULL;
  gboolean ok;

  if (self->model == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("There is no model to edit"));
      return FALSE;
    }
  backup = fr_model_copy (self->model);
  fr_scene_begin_edit (self);
  ok = fn (self->model, data, error);
  if (ok && fr_model_equal (backup, self->model))
    {
      fr_scene_end_edit (self, label);
      return TRUE;
    }
  /* A panel's value is solved as typed, even inside a drag's edit; if
   * its rasterisation fails, the model is already back at the velocity's. */
  if (ok && (ok = fr_scene_model_changed (self, error)) && !finish_rasters (self, error))
    {
      fr_scene_end_edit (self, label);
      return FALSE;
    }
  if (!ok)
    {
      fr_model_free (self->model);
      self->model = g_steal_pointer (&backup);
    }
  fr_scene_end_edit (self, label);
  return ok;
}

typedef struct
{
  guint  index;
  double a, b, c;
} EditArgs;

/* The grid rows of the model panel (fr_model_grid_with_*): one of
 * extent, nodes and spacing changes, another stays. */
typedef enum
{
  GRID_EXTENT,
  GRID_NODES,
  GRID_SPACING,
} GridEdit;

typedef struct
{
  GridEdit kind;
  double   x, z;
} GridArgs;

static gboolean
grid_edit_fn (FrModel       *m,
              gconstpointer  data,
              GError       **error)
{
  const GridArgs *e = data;
  fr_grid g;
  gboolean ok;

  if (!(e->x > 0.0) || !(e->z > 0.0) || !isfinite (e->x) || !isfinite (e->z))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The grid needs at least 2×2 nodes and a positive spacing"));
      return FALSE;
    }
  switch (e->kind)
    {
    case GRID_EXTENT:
      ok = fr_model_grid_with_extent (&m->grid, e->x, e->z, &g);
      break;
    case GRID_NODES:
      ok = e->x <= G_MAXUINT && e->z <= G_MAXUINT &&
           fr_model_grid_with_nodes (&m->grid, (guint) e->x, (guint) e->z, &g);
      break;
    case GRID_SPACING:
    default:
      ok = fr_model_grid_with_spacing (&m->grid, e->x, e->z, &g);
      break;
    }
  if (!ok)
    {
      /* Translators: %u is the largest node count along x or z. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The grid can have 2 to %u nodes along each axis; the previous grid is kept"),
                   (guint) FR_MODEL_MAX_NODES);
      return FALSE;
    }
  m->grid = g;
  return TRUE;
}

/* Sets the model's width and depth (node to node) at the same spacing, as
 * one undo step: the model grows or shrinks, whole cells at a time. */
gboolean
fr_scene_set_extent (FrScene  *self,
                     double    width,
                     double    depth,
                     GError  **error)
{
  GridArgs e = { GRID_EXTENT, width, depth };

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return edit_model (self, _("Change Extent"), grid_edit_fn, &e, error);
}

/* Sets the node counts over the same extent, as one undo step: the grid
 * is refined or coarsened. */
gboolean
fr_scene_set_nodes (FrScene  *self,
                    guint     nx,
                    guint     nz,
                    GError  **error)
{
  GridArgs e = { GRID_NODES, nx, nz };

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return edit_model (self, _("Change Nodes"), grid_edit_fn, &e, error);
}

/* Sets the spacing over the same extent, rounded to whole cells, as one
 * undo step: the node counts follow. */
gboolean
fr_scene_set_spacing (FrScene  *self,
                      double    dx,
                      double    dz,
                      GError  **error)
{
  GridArgs e = { GRID_SPACING, dx, dz };

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return edit_model (self, _("Change Spacing"), grid_edit_fn, &e, error);
}

static gboolean
add_layer_fn (FrModel       *m,
              gconstpointer  data,
              GError       **error)
{
  double x0 = m->grid.x0 - 0.5 * m->grid.dx, x1 = m->grid.x0 + (m->grid.nx - 0.5) * m->grid.dx;
  double z_bottom = m->grid.z0 + (m->grid.nz - 1) * m->grid.dz;
  double z_top = m->grid.z0, v = m->default_velocity;
  FrLayer *l;

  /* A flat interface halfway between the deepest one and the bottom,
   * somewhat faster than the layer above it. */
  if (m->layers->len > 0)
    {
      const FrLayer *last = g_ptr_array_index (m->layers, m->layers->len - 1);

      for (guint k = 0; k < last->nodes->len; k++)
        z_top = MAX (z_top, g_array_index (last->nodes, FrVertex, k).z);
      v = 1.25 * last->v_top;
    }
  else if (m->background == NULL)
    z_bottom = z_top;
  l = fr_layer_new (v, 0.0, 0.0);
  /* Its "Velocity at top" is at the model's first node, so that a lateral
   * gradient starts there, not at x = 0 far off in a line's coordinates. */
  l->x_ref = m->grid.x0;
  fr_layer_add_node (l, x0, 0.5 * (z_top + z_bottom));
  fr_layer_add_node (l, x1, 0.5 * (z_top + z_bottom));
  g_ptr_array_add (m->layers, l);
  return TRUE;
}

/* Adds a layer below the deepest one, as one undo step. */
gboolean
fr_scene_add_layer (FrScene  *self,
                    GError  **error)
{
  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return edit_model (self, _("Add Layer"), add_layer_fn, NULL, error);
}

static gboolean
remove_layer_fn (FrModel       *m,
                 gconstpointer  data,
                 GError       **error)
{
  const EditArgs *e = data;

  if (e->index >= m->layers->len)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("No such layer"));
      return FALSE;
    }
  g_ptr_array_remove_index (m->layers, e->index);
  return TRUE;
}

/* Removes a layer, as one undo step. */
gboolean
fr_scene_remove_layer (FrScene  *self,
                       guint     index,
                       GError  **error)
{
  EditArgs e = { index, 0, 0, 0 };

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return edit_model (self, _("Delete Layer"), remove_layer_fn, &e, error);
}

static gboolean
layer_velocity_fn (FrModel       *m,
                   gconstpointer  data,
                   GError       **error)
{
  const EditArgs *e = data;
  FrLayer *l;

  if (e->index >= m->layers->len)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("No such layer"));
      return FALSE;
    }
  l = g_ptr_array_index (m->layers, e->index);
  l->v_top = e->a;
  l->dvdz = e->b;
  l->dvdx = e->c;
  return TRUE;
}

/* Sets a layer's velocity at its top and its gradients, as one undo step. */
gboolean
fr_scene_set_layer_velocity (FrScene  *self,
                             guint     index,
                             double    v_top,
                             double    dvdz,
                             double    dvdx,
                             GError  **error)
{
  EditArgs e = { index, v_top, dvdz, dvdx };

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return edit_model (self, _("Change Velocity"), layer_velocity_fn, &e, error);
}

static gboolean
obstacle_velocity_fn (FrModel       *m,
                      gconstpointer  data,
                      GError       **error)
{
  const EditArgs *e = data;

  if (e->index >= m->obstacles->len)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("No such obstacle"));
      return FALSE;
    }
  ((FrObstacle *) g_ptr_array_index (m->obstacles, e->index))->velocity = MAX (e->a, 0.0);
  return TRUE;
}

/* Makes an obstacle impermeable (0) or slow (velocity > 0), as one undo
 * step. */
gboolean
fr_scene_set_obstacle_velocity (FrScene  *self,
                                guint     index,
                                double    velocity,
                                GError  **error)
{
  EditArgs e = { index, velocity, 0, 0 };

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return edit_model (self, _("Change Obstacle"), obstacle_velocity_fn, &e, error);
}

/* Whether a job's result still fits the scene: its grid is the scene's.
 * During live edits the values move on while a solve runs; the newest
 * finished result is then shown, at most one solve behind (a model loaded
 * meanwhile clears the canvas's result and makes older jobs stale). */
gboolean
fr_scene_job_is_current (FrScene     *self,
                         const FrJob *job)
{
  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  g_return_val_if_fail (job != NULL, FALSE);

  if (job->velocity == self->velocity)
    return TRUE;
  return self->velocity != NULL && job->grid.nx == self->grid.nx && job->grid.nz == self->grid.nz &&
         job->grid.dx == self->grid.dx && job->grid.dz == self->grid.dz &&
         job->grid.x0 == self->grid.x0 && job->grid.z0 == self->grid.z0;
}

/* What the user should know of the rasterised velocities (a layer's
 * gradient reaching 0), or NULL; it changes with the model. */
const char *
fr_scene_get_velocity_warning (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), NULL);
  return self->velocity_warning;
}

/* The unit of x and z (the scene file's "units"): the axes, colour bar
 * and readout name it on the canvas and in every export. */
void
fr_scene_set_length_unit (FrScene      *self,
                          FrLengthUnit  unit)
{
  g_return_if_fail (FR_IS_SCENE (self));
  g_return_if_fail (unit < FR_N_LENGTH_UNITS);
  self->length_unit = unit;
}

FrLengthUnit
fr_scene_get_length_unit (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), FR_LENGTH_UNIT_NONE);
  return self->length_unit;
}

/* Whether the scene was edited since it was loaded or last saved. */
gboolean
fr_scene_get_modified (FrScene *self)
{
  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  return self->modified;
}

void
fr_scene_set_modified (FrScene  *self,
                       gboolean  modified)
{
  g_return_if_fail (FR_IS_SCENE (self));
  self->modified = modified;
}

static void
copy_points (GArray *to,
             GArray *from)
{
  for (guint i = 0; i < from->len; i++)
    {
      const FrPoint *p = &g_array_index (from, FrPoint, i);
      FrVertex v = { p->x, p->z };

      g_array_append_val (to, v);
    }
}

/* A scene document of the model, sources and receivers (the caller adds
 * solver settings and view). */
FrSceneDoc *
fr_scene_to_doc (FrScene *self)
{
  FrSceneDoc *doc;

  g_return_val_if_fail (FR_IS_SCENE (self), NULL);
  g_return_val_if_fail (self->model != NULL, NULL);

  doc = fr_scene_doc_new (fr_model_copy (self->model));
  doc->title = g_strdup (self->title);
  copy_points (doc->sources, self->sources);
  copy_points (doc->receivers, self->receivers);
  doc->separate_shots = self->separate_shots;
  return doc;
}

/* Every source, receiver and characteristic point of doc on the grid, up
 * to rounding.  Sources and receivers in the grid snap to their nearest
 * node; one outside it cannot be moved there without changing the survey,
 * so it is refused, named as foldray-cli names it. */
static gboolean
check_points (const FrSceneDoc  *doc,
              GError           **error)
{
  const fr_grid *g = &doc->model->grid;
  double x1 = g->x0 + (double) (g->nx - 1) * g->dx;
  double z1 = g->z0 + (double) (g->nz - 1) * g->dz;
  GArray *lists[3] = { doc->sources, doc->receivers, doc->fold_characteristics };
  const FrVertex *first = NULL;
  guint kind = 0, index = 0, n_out = 0;
  g_autofree char *message = NULL;

  for (guint k = 0; k < 3; k++)
    for (guint i = 0; lists[k] != NULL && i < lists[k]->len; i++)
      {
        const FrVertex *v = &g_array_index (lists[k], FrVertex, i);

        if (fr_grid_contains (g, v->x, 0.0, v->z))
          continue;
        if (n_out++ == 0)
          {
            first = v;
            kind = k;
            index = i + 1;
          }
      }
  if (n_out == 0)
    return TRUE;

  /* Translators: a scene file's first source, receiver or characteristic point (the fold's)
   * outside its grid: its number (from 1) and coordinates, then the grid's span along
   * x and z.  Where the decimal separator is a comma, separate the two
   * coordinates otherwise, as in “(3,5; 0)”. */
  message = g_strdup_printf (kind == 0
                             ? _("Source %u at (%.15g, %.15g) lies outside the grid "
                                 "(x from %.15g to %.15g, z from %.15g to %.15g)")
                             : kind == 1
                             ? _("Receiver %u at (%.15g, %.15g) lies outside the grid "
                                 "(x from %.15g to %.15g, z from %.15g to %.15g)")
                             : _("Characteristic point %u at (%.15g, %.15g) lies outside the grid "
                                 "(x from %.15g to %.15g, z from %.15g to %.15g)"),
                             index, first->x, first->z, g->x0, x1, g->z0, z1);
  if (n_out > 1)
    {
      g_autofree char *more = NULL;

      /* Translators: follows the message about the first source or
       * receiver outside the grid. */
      more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "; %u more point lies outside it",
                                           "; %u more points lie outside it", n_out - 1),
                              n_out - 1);
      g_set_error (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID, "%s%s", message, more);
    }
  else
    g_set_error_literal (error, FR_SCENE_FILE_ERROR, FR_SCENE_FILE_ERROR_INVALID, message);
  return FALSE;
}

/* Replaces the scene with a document's model and markers (snapped to
 * nodes); the undo history starts afresh.  FALSE, with the scene as it
 * was, when the model is not valid, a marker lies outside the grid or the
 * app could not hold the grid (fr_scene_load_model). */
gboolean
fr_scene_load_doc (FrScene           *self,
                   const FrSceneDoc  *doc,
                   GError           **error)
{
  GArray *lists[2];

  g_return_val_if_fail (FR_IS_SCENE (self), FALSE);
  g_return_val_if_fail (doc != NULL, FALSE);

  if (!fr_model_check (doc->model, error) || !check_points (doc, error) ||
      !fr_scene_load_model (self, doc->title != NULL ? doc->title : _("Untitled"),
                            fr_model_copy (doc->model), error))
    return FALSE;
  lists[0] = doc->sources;
  lists[1] = doc->receivers;
  for (guint k = 0; k < 2; k++)
    for (guint i = 0; i < lists[k]->len; i++)
      {
        const FrVertex *v = &g_array_index (lists[k], FrVertex, i);
        FrPoint p;

        if (fr_scene_snap (self, v->x, v->z, &p.x, &p.z))
          g_array_append_val (k == 0 ? self->sources : self->receivers, p);
      }
  self->separate_shots = doc->separate_shots;
  emit_changed (self, FR_SCENE_CHANGED_GEOMETRY | FR_SCENE_CHANGED_SHOT);
  return TRUE;
}

/* Records the file the background grid came from (for saving scenes). */
void
fr_scene_set_background_source (FrScene    *self,
                                const char *path,
                                const char *format)
{
  FrBackground *b;

  g_return_if_fail (FR_IS_SCENE (self));

  if (self->model == NULL || (b = self->model->background) == NULL)
    return;
  g_free (b->path);
  b->path = g_canonicalize_filename (path, NULL);
  g_free (b->format);
  b->format = g_strdup (format);
}
