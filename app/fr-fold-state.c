/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-fold-state"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>
#include <gio/gio.h>

#include "fr-csv.h"
#include "fr-data-dir.h"
#include "fr-fold-job.h"
#include "fr-fold-state.h"
#include "fr-garray.h"

struct _FrFoldState
{
  GObject          parent_instance;

  GArray          *horizon;      /* FrPoint */
  /* Whether the document has a horizon of its own: drawn, loaded or
   * cleared by the user.  Until then Folds mode starts on the bundled one;
   * after a Clear it shows none. */
  gboolean         horizon_given;
  GArray          *ray_points;   /* FrPoint: ray_points_given, moved onto the grid */
  GArray          *ray_points_given;  /* as the user, a scene or an undo step gave them */
  gboolean         speed_from_grid;
  double           speed_const;
  double           grid_min_speed;
  double           span[4];      /* x0, z0, x1, z1: the grid's nodes, for the ray points */
  gboolean         has_span;
  double           psi_a[2];     /* as solved: psi_asked, shortened to the limit */
  double           psi_asked[2]; /* as the user, a scene or an undo step gave it */
  fr_fold_method   method;
  fr_fold_backend  backend;
  double           delta;
  int              count;
  gboolean         bands;
  double           arrow_x, arrow_z;

  FrUndo          *undo;
  struct Snap     *edit_before;  /* between begin_edit and end_edit */
  guint            edit_depth;

};

/* What an undo step restores: everything the user edits but the arrow's
 * base (where it is drawn, not what is solved). */
typedef struct Snap
{
  GArray          *horizon;
  GArray          *ray_points;
  gboolean         speed_from_grid;
  double           speed_const;
  double           psi_a[2];
  fr_fold_method   method;
  fr_fold_backend  backend;
  double           delta;
  int              count;
  gboolean         bands;
} Snap;

typedef struct
{
  Snap *before;
  Snap *after;
} SnapEdit;

G_DEFINE_FINAL_TYPE (FrFoldState, fr_fold_state, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
emit_changed (FrFoldState *self,
              guint        what)
{
  g_signal_emit (self, signals[CHANGED], 0, what);
}

static Snap *
snap_take (FrFoldState *self)
{
  Snap *snap = g_new0 (Snap, 1);

  snap->horizon = g_array_copy (self->horizon);
  snap->ray_points = g_array_copy (self->ray_points_given);
  snap->speed_from_grid = self->speed_from_grid;
  snap->speed_const = self->speed_const;
  snap->psi_a[0] = self->psi_asked[0];
  snap->psi_a[1] = self->psi_asked[1];
  snap->method = self->method;
  snap->backend = self->backend;
  snap->delta = self->delta;
  snap->count = self->count;
  snap->bands = self->bands;
  return snap;
}

static void
snap_free (Snap *snap)
{
  if (snap == NULL)
    return;
  g_array_unref (snap->horizon);
  g_array_unref (snap->ray_points);
  g_free (snap);
}

static gboolean
snap_equal (const Snap *a,
            const Snap *b)
{
  return fr_garray_equal (a->horizon, b->horizon) && fr_garray_equal (a->ray_points, b->ray_points) &&
         a->speed_from_grid == b->speed_from_grid && a->speed_const == b->speed_const &&
         a->psi_a[0] == b->psi_a[0] && a->psi_a[1] == b->psi_a[1] && a->method == b->method &&
         a->backend == b->backend && a->delta == b->delta && a->count == b->count &&
         a->bands == b->bands;
}

static void
snap_edit_free (gpointer data)
{
  SnapEdit *edit = data;

  snap_free (edit->before);
  snap_free (edit->after);
  g_free (edit);
}

/* A point moved onto the box of the grid's nodes (as it is, before the
 * grid is known). */
static FrPoint
onto_grid (const FrFoldState *self,
           FrPoint            p)
{
  if (self->has_span)
    {
      p.x = CLAMP (p.x, self->span[0], self->span[2]);
      p.z = CLAMP (p.z, self->span[1], self->span[3]);
    }
  return p;
}

/* The characteristics' points traced and saved: those given, each off the
 * grid's nodes moved onto its edge (a scene file with one outside is
 * refused when it is opened, by the app and foldray-cli alike).  Those
 * given stay, so that a grid grown back (the Extent change undone) finds
 * its points where they were.  TRUE when the points traced changed. */
static gboolean
place_ray_points (FrFoldState *self)
{
  g_autoptr(GArray) before = g_array_copy (self->ray_points);

  g_array_set_size (self->ray_points, 0);
  for (guint i = 0; i < self->ray_points_given->len; i++)
    {
      FrPoint p = onto_grid (self, g_array_index (self->ray_points_given, FrPoint, i));

      g_array_append_val (self->ray_points, p);
    }
  return !fr_garray_equal (before, self->ray_points);
}

/* The points given become points; those traced follow. */
static void
set_ray_points (FrFoldState   *self,
                const FrPoint *points,
                guint          n)
{
  g_array_set_size (self->ray_points_given, 0);
  g_array_append_vals (self->ray_points_given, points, n);
  place_ray_points (self);
}

/* Puts snap's values back; only ψa's setter signals (the callers say the rest). */
static void
snap_restore (FrFoldState *self,
              const Snap  *snap)
{
  g_array_set_size (self->horizon, 0);
  g_array_append_vals (self->horizon, snap->horizon->data, snap->horizon->len);
  /* A step from before the grid shrank keeps its points as given. */
  set_ray_points (self, (const FrPoint *) snap->ray_points->data, snap->ray_points->len);
  self->speed_from_grid = snap->speed_from_grid;
  self->speed_const = snap->speed_const;
  self->method = snap->method;
  self->backend = snap->backend;
  self->delta = snap->delta;
  self->count = snap->count;
  self->bands = snap->bands;
  /* The ψa asked for then, against today's limit (the grid's smallest
   * speed may have changed since). */
  fr_fold_state_set_psi_a_given (self, snap->psi_a[0], snap->psi_a[1]);
}

static void
snap_apply (FrFoldState *self,
            const Snap  *snap)
{
  self->horizon_given = TRUE;
  snap_restore (self, snap);
  emit_changed (self, FR_FOLD_CHANGED_SOLVE | FR_FOLD_CHANGED_PARAMS | FR_FOLD_CHANGED_EDITED);
}

static void
undo_snap (gpointer data,
           gpointer user_data)
{
  snap_apply (user_data, ((SnapEdit *) data)->before);
}

static void
redo_snap (gpointer data,
           gpointer user_data)
{
  snap_apply (user_data, ((SnapEdit *) data)->after);
}

static void
fr_fold_state_dispose (GObject *object)
{
  FrFoldState *self = (FrFoldState *)object;

  g_clear_object (&self->undo);
  g_clear_pointer (&self->edit_before, snap_free);

  G_OBJECT_CLASS (fr_fold_state_parent_class)->dispose (object);
}

static void
fr_fold_state_finalize (GObject *object)
{
  FrFoldState *self = (FrFoldState *)object;

  g_clear_pointer (&self->horizon, g_array_unref);
  g_clear_pointer (&self->ray_points, g_array_unref);
  g_clear_pointer (&self->ray_points_given, g_array_unref);

  G_OBJECT_CLASS (fr_fold_state_parent_class)->finalize (object);
}

static void
fr_fold_state_class_init (FrFoldStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fr_fold_state_dispose;
  object_class->finalize = fr_fold_state_finalize;

  /**
   * FrFoldState::changed:
   * @what: FrFoldChange flags
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
fr_fold_state_init (FrFoldState *self)
{
  self->horizon = g_array_new (FALSE, FALSE, sizeof (FrPoint));
  self->ray_points = g_array_new (FALSE, FALSE, sizeof (FrPoint));
  self->ray_points_given = g_array_new (FALSE, FALSE, sizeof (FrPoint));
  self->speed_const = 1.0;
  self->grid_min_speed = 1.0;
  self->method = FR_FOLD_LAS;
  self->backend = FR_FOLD_BACKEND_AUTO;
  self->delta = 0.1;
  self->count = 8;
  self->undo = fr_undo_new (undo_snap, redo_snap, self);
}

FrFoldState *
fr_fold_state_new (void)
{
  return g_object_new (FR_TYPE_FOLD_STATE, NULL);
}

const FrPoint *
fr_fold_state_get_horizon (FrFoldState *self,
                           guint       *n)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), NULL);
  g_return_val_if_fail (n != NULL, NULL);

  *n = self->horizon->len;
  return (const FrPoint *) self->horizon->data;
}

/* Replaces the horizon polyline (n may be 0: no horizon, as the user's
 * Clear leaves it). */
void
fr_fold_state_set_horizon (FrFoldState   *self,
                           const FrPoint *points,
                           guint          n)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));
  g_return_if_fail (n == 0 || points != NULL);

  g_array_set_size (self->horizon, 0);
  g_array_append_vals (self->horizon, points, n);
  self->horizon_given = TRUE;
  emit_changed (self, FR_FOLD_CHANGED_SOLVE);
}

/* Appends a node at the end of the horizon. */
void
fr_fold_state_add_node (FrFoldState *self,
                        double       x,
                        double       z)
{
  FrPoint p = { x, z };

  g_return_if_fail (FR_IS_FOLD_STATE (self));

  g_array_append_val (self->horizon, p);
  self->horizon_given = TRUE;
  emit_changed (self, FR_FOLD_CHANGED_SOLVE);
}

void
fr_fold_state_move_node (FrFoldState *self,
                         guint        index,
                         double       x,
                         double       z)
{
  FrPoint *p;

  g_return_if_fail (FR_IS_FOLD_STATE (self));
  g_return_if_fail (index < self->horizon->len);

  p = &g_array_index (self->horizon, FrPoint, index);
  if (p->x == x && p->z == z)
    return;
  p->x = x;
  p->z = z;
  emit_changed (self, FR_FOLD_CHANGED_SOLVE);
}

gboolean
fr_fold_state_remove_node (FrFoldState *self,
                           guint        index)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FALSE);

  if (index >= self->horizon->len)
    return FALSE;
  g_array_remove_index (self->horizon, index);
  emit_changed (self, FR_FOLD_CHANGED_SOLVE);
  return TRUE;
}

/* Whether the document has a starting horizon of its own, even an empty
 * one the user cleared; FALSE for a new document and a scene without one,
 * which Folds mode starts on the bundled horizon. */
gboolean
fr_fold_state_has_own_horizon (FrFoldState *self)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FALSE);
  return self->horizon_given;
}

const FrPoint *
fr_fold_state_get_ray_points (FrFoldState *self,
                              guint       *n)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), NULL);
  g_return_val_if_fail (n != NULL, NULL);

  *n = self->ray_points->len;
  return (const FrPoint *) self->ray_points->data;
}

/* A point a characteristic is traced from, back to the horizon. */
void
fr_fold_state_add_ray_point (FrFoldState *self,
                             double       x,
                             double       z)
{
  FrPoint p = { x, z };

  g_return_if_fail (FR_IS_FOLD_STATE (self));

  /* A click in a cell's half beyond the last node (the drawn model
   * reaches there) lands on the edge node's line, as given. */
  p = onto_grid (self, p);
  g_array_append_val (self->ray_points_given, p);
  place_ray_points (self);
  emit_changed (self, FR_FOLD_CHANGED_SOLVE);
}

void
fr_fold_state_clear_ray_points (FrFoldState *self)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  if (self->ray_points_given->len == 0)
    return;
  set_ray_points (self, NULL, 0);
  emit_changed (self, FR_FOLD_CHANGED_SOLVE);
}

/* The box of the grid's nodes, which the characteristics' points must
 * lie in (a scene file with one outside is not opened): points off it
 * are traced from its edge while it is smaller, and from where they were
 * given once it grows back.  Not an edit: the grid's change is. */
void
fr_fold_state_set_grid_span (FrFoldState *self,
                             double       x0,
                             double       z0,
                             double       x1,
                             double       z1)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));
  g_return_if_fail (x0 <= x1 && z0 <= z1);

  self->span[0] = x0;
  self->span[1] = z0;
  self->span[2] = x1;
  self->span[3] = z1;
  self->has_span = TRUE;
  if (place_ray_points (self))
    emit_changed (self, FR_FOLD_CHANGED_SOLVE);
}

/* The largest |ψa| allowed: a margin below the smallest speed. */
double
fr_fold_state_get_psi_limit (FrFoldState *self)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), 0.0);

  return FR_FOLD_PSI_MARGIN * (self->speed_from_grid ? self->grid_min_speed : self->speed_const);
}

/* The speed the ψa arrow's length is measured against. */
double
fr_fold_state_get_arrow_scale_speed (FrFoldState *self)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), 1.0);

  return self->speed_from_grid ? self->grid_min_speed : self->speed_const;
}

/* Stores ψa; a new value wants a solve, and the panel shows either. */
static void
store_psi_a (FrFoldState *self,
             double       ax,
             double       az)
{
  if (ax != self->psi_a[0] || az != self->psi_a[1])
    {
      self->psi_a[0] = ax;
      self->psi_a[1] = az;
      emit_changed (self, FR_FOLD_CHANGED_SOLVE | FR_FOLD_CHANGED_PARAMS);
    }
  else
    emit_changed (self, FR_FOLD_CHANGED_PARAMS);
}

/* Sets ψa as the user edits it (the arrow, the fields), scaled down onto
 * |ψa| = the limit, FR_FOLD_PSI_MARGIN · F, when beyond it: the margin
 * keeps a drag away from |ψa| = F, where the front stops upwind and the
 * times grow without bound.  Returns TRUE when it had to be clamped. */
gboolean
fr_fold_state_set_psi_a (FrFoldState *self,
                         double       ax,
                         double       az)
{
  double limit, len;
  gboolean clamped;

  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FALSE);
  g_return_val_if_fail (isfinite (ax) && isfinite (az), FALSE);

  self->psi_asked[0] = ax;
  self->psi_asked[1] = az;
  limit = fr_fold_state_get_psi_limit (self);
  len = hypot (ax, az);
  clamped = len > limit;
  if (clamped)
    {
      ax *= limit / len;
      az *= limit / len;
    }
  store_psi_a (self, ax, az);
  return clamped;
}

/* Sets ψa as a scene file, the command line or an undo step gives it:
 * solved as given while |ψa| < F, the equation's own bound, which
 * foldray-cli applies too (the app shortened a scene's 0.97 F to 0.95 F,
 * so the same file gave other times than `foldray-cli fold --scene`).
 * At F or beyond it is shortened like an edit.  Returns TRUE then. */
gboolean
fr_fold_state_set_psi_a_given (FrFoldState *self,
                               double       ax,
                               double       az)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FALSE);
  g_return_val_if_fail (isfinite (ax) && isfinite (az), FALSE);

  if (!(hypot (ax, az) < fr_fold_state_get_arrow_scale_speed (self)))
    return fr_fold_state_set_psi_a (self, ax, az);
  self->psi_asked[0] = ax;
  self->psi_asked[1] = az;
  store_psi_a (self, ax, az);
  return FALSE;
}

/* The ψa last asked for, which a larger F gives back (the hint says so). */
void
fr_fold_state_get_psi_asked (FrFoldState *self,
                             double      *ax,
                             double      *az)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  if (ax != NULL)
    *ax = self->psi_asked[0];
  if (az != NULL)
    *az = self->psi_asked[1];
}

void
fr_fold_state_get_psi_a (FrFoldState *self,
                         double      *ax,
                         double      *az)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  if (ax != NULL)
    *ax = self->psi_a[0];
  if (az != NULL)
    *az = self->psi_a[1];
}

/* Whether the last ψa asked for was clamped (the panel shows a hint). */
gboolean
fr_fold_state_get_psi_clamped (FrFoldState *self)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FALSE);
  /* Shortened is what differs from the ψa asked for. */
  return self->psi_a[0] != self->psi_asked[0] || self->psi_a[1] != self->psi_asked[1];
}

/* F: the scene's velocity grid (from_grid) or the constant speed_const. */
void
fr_fold_state_set_speed (FrFoldState *self,
                         gboolean     from_grid,
                         double       speed_const)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));
  g_return_if_fail (speed_const > 0.0);

  if (self->speed_from_grid == !!from_grid && self->speed_const == speed_const)
    return;
  self->speed_from_grid = !!from_grid;
  self->speed_const = speed_const;
  /* The ψa asked for, inside the new limit: shortened by a smaller F,
   * given back by a larger one. */
  fr_fold_state_set_psi_a (self, self->psi_asked[0], self->psi_asked[1]);
  emit_changed (self, FR_FOLD_CHANGED_SOLVE | FR_FOLD_CHANGED_PARAMS);
}

gboolean
fr_fold_state_get_speed (FrFoldState *self,
                         double      *speed_const)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FALSE);

  if (speed_const != NULL)
    *speed_const = self->speed_const;
  return self->speed_from_grid;
}

/* The smallest positive speed of the scene's grid (its ψa limit). */
void
fr_fold_state_set_grid_min_speed (FrFoldState *self,
                                  double       min_speed)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  if (!(min_speed > 0.0) || self->grid_min_speed == min_speed)
    return;
  self->grid_min_speed = min_speed;
  /* As for F: a velocity edit, or its undo, that raises the least speed
   * again gives the ψa asked for back (helper-61). */
  if (self->speed_from_grid)
    fr_fold_state_set_psi_a (self, self->psi_asked[0], self->psi_asked[1]);
}

void
fr_fold_state_set_method (FrFoldState    *self,
                          fr_fold_method  method)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  if (self->method == method)
    return;
  self->method = method;
  emit_changed (self, FR_FOLD_CHANGED_SOLVE | FR_FOLD_CHANGED_PARAMS);
}

fr_fold_method
fr_fold_state_get_method (FrFoldState *self)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FR_FOLD_LAS);
  return self->method;
}

void
fr_fold_state_set_backend (FrFoldState     *self,
                           fr_fold_backend  backend)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  if (self->backend == backend)
    return;
  self->backend = backend;
  emit_changed (self, FR_FOLD_CHANGED_SOLVE | FR_FOLD_CHANGED_PARAMS);
}

fr_fold_backend
fr_fold_state_get_backend (FrFoldState *self)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FR_FOLD_BACKEND_AUTO);
  return self->backend;
}

/* Folded horizons every delta of T, count of them on each side. */
void
fr_fold_state_set_levels (FrFoldState *self,
                          double       delta,
                          int          count)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));
  g_return_if_fail (delta > 0.0 && count >= 0);

  if (self->delta == delta && self->count == count)
    return;
  self->delta = delta;
  self->count = count;
  emit_changed (self, FR_FOLD_CHANGED_SOLVE | FR_FOLD_CHANGED_PARAMS);
}

void
fr_fold_state_get_levels (FrFoldState *self,
                          double      *delta,
                          int         *count)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  if (delta != NULL)
    *delta = self->delta;
  if (count != NULL)
    *count = self->count;
}

/* Fills the bands between folded horizons in alternating colours. */
void
fr_fold_state_set_bands (FrFoldState *self,
                         gboolean     bands)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  if (self->bands == !!bands)
    return;
  self->bands = !!bands;
  emit_changed (self, FR_FOLD_CHANGED_DISPLAY | FR_FOLD_CHANGED_PARAMS);
}

gboolean
fr_fold_state_get_bands (FrFoldState *self)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FALSE);
  return self->bands;
}

/* Where the ψa arrow starts, in model units. */
void
fr_fold_state_set_arrow_base (FrFoldState *self,
                              double       x,
                              double       z)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  self->arrow_x = x;
  self->arrow_z = z;
  emit_changed (self, FR_FOLD_CHANGED_DISPLAY);
}

void
fr_fold_state_get_arrow_base (FrFoldState *self,
                              double      *x,
                              double      *z)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  *x = self->arrow_x;
  *z = self->arrow_z;
}

/* The box the bundled horizons are drawn in: the three-layer model's
 * 3 × 1.5 (km). */
#define EXAMPLE_WIDTH  3.0
#define EXAMPLE_DEPTH  1.5

static gboolean load_horizon (FrFoldState *self, const char *path, const double *fit,
                              GError **error);
static char *find_example (const char *name);

/* Reads a horizon polyline from CSV (a header `x,z`, one point per line,
 * as fr-csv reads receivers). */
gboolean
fr_fold_state_load_horizon_csv (FrFoldState  *self,
                                const char   *path,
                                GError      **error)
{
  return load_horizon (self, path, NULL, error);
}

/* Loads a bundled horizon (NAME.csv of data/fold) fitted to the model
 * [x0, x1] × [z0, z1]: they are drawn across a 3 × 1.5 km model, and taken
 * as they are they lay outside a model in metres, or elsewhere, which
 * then folded nothing to see. */
gboolean
fr_fold_state_load_example (FrFoldState  *self,
                            const char   *name,
                            double        x0,
                            double        z0,
                            double        x1,
                            double        z1,
                            GError      **error)
{
  g_autofree char *path = NULL;
  const double fit[4] = { x0, z0, (x1 - x0) / EXAMPLE_WIDTH, (z1 - z0) / EXAMPLE_DEPTH };

  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if ((path = find_example (name)) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The bundled horizon “%s” is not installed"), name);
      return FALSE;
    }
  return load_horizon (self, path, x1 > x0 && z1 > z0 ? fit : NULL, error);
}

/* The CSV horizon at path; fit (x0, z0, sx, sz) maps a point to
 * (x0 + sx·x, z0 + sz·z) when not NULL. */
static gboolean
load_horizon (FrFoldState  *self,
              const char   *path,
              const double *fit,
              GError      **error)
{
  fr_points pts = { 0 };
  fr_error err = { 0 };
  g_autoptr(GArray) points = NULL;

  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (fr_csv_read_points (path, &pts, &err) != FR_OK)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, err.message);
      return FALSE;
    }
  if (pts.ndim != 2 || pts.count < 2)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: a horizon needs a header “x,z” and at least two points"), path);
      fr_points_clear (&pts);
      return FALSE;
    }
  points = g_array_sized_new (FALSE, FALSE, sizeof (FrPoint), pts.count);
  for (size_t i = 0; i < pts.count; i++)
    {
      FrPoint p = { pts.xyz[2 * i], pts.xyz[2 * i + 1] };

      if (fit != NULL)
        {
          p.x = fit[0] + fit[2] * p.x;
          p.z = fit[1] + fit[3] * p.z;
        }
      /* As far as a scene file may hold a point: one beyond was taken,
       * failed every solve, and was saved in a scene that the app and
       * foldray-cli then refused to open. */
      if (!(fabs (p.x) <= FR_GRID_MAX_EXTENT && fabs (p.z) <= FR_GRID_MAX_EXTENT))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s: point %zu of the horizon lies too far out (coordinates at most %g)"),
                       path, i + 1, FR_GRID_MAX_EXTENT);
          fr_points_clear (&pts);
          return FALSE;
        }
      g_array_append_val (points, p);
    }
  fr_points_clear (&pts);
  fr_fold_state_set_horizon (self, (const FrPoint *) points->data, points->len);
  return TRUE;
}

/* The path of a bundled horizon ("anticline-syncline", "faulted") in
 * data/fold/, or NULL (fr-data-dir.h says where it is looked for). */
static char *
find_example (const char *name)
{
  g_autofree char *file = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  file = g_strconcat (name, ".csv", NULL);
  return fr_data_find ("fold", file);
}

/* A snapshot for the solver thread, over the scene's grid. */
FrJob *
fr_fold_state_make_job (FrFoldState *self,
                        FrScene     *scene)
{
  g_autoptr(GError) speed_error = NULL;
  FrFoldJob fold = { 0 };

  g_return_val_if_fail (FR_IS_FOLD_STATE (self), NULL);
  g_return_val_if_fail (FR_IS_SCENE (scene) && fr_scene_has_model (scene), NULL);

  fold.speed_from_grid = self->speed_from_grid;
  fold.speed_const = self->speed_const;
  /* A constant F goes round the model's impermeable obstacles, as the
   * velocity grid's F and the rays do; a grid that cannot be had fails
   * the solve with why, not the app. */
  if (!self->speed_from_grid)
    {
      fold.speed = fr_scene_get_constant_speed (scene, self->speed_const, &speed_error);
      if (speed_error != NULL)
        fold.speed_error = speed_error->message;
    }
  fold.psi_a[0] = self->psi_a[0];
  fold.psi_a[1] = self->psi_a[1];
  fold.method = self->method;
  fold.backend = self->backend;
  fold.horizon = (double *) self->horizon->data;
  fold.n_horizon = self->horizon->len;
  fold.delta = self->delta;
  fold.count = self->count;
  return fr_fold_job_new (fr_scene_get_grid (scene), fr_scene_get_velocity (scene), &fold,
                          (const double *) self->ray_points->data, self->ray_points->len);
}

/* The fold's undo history (owned by the state; the window's Undo uses it
 * in Folds mode). */
FrUndo *
fr_fold_state_get_undo (FrFoldState *self)
{
  g_return_val_if_fail (FR_IS_FOLD_STATE (self), NULL);
  return self->undo;
}

/* Starts an edit: the state now is what undo restores.  Edits nest; the
 * outermost pair records one step (a drag is one step). */
void
fr_fold_state_begin_edit (FrFoldState *self)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  if (self->edit_depth++ == 0)
    {
      g_clear_pointer (&self->edit_before, snap_free);
      self->edit_before = snap_take (self);
    }
}

/* Ends an edit, recording an undo step labelled label when anything
 * changed since the matching begin_edit. */
void
fr_fold_state_end_edit (FrFoldState *self,
                        const char  *label)
{
  SnapEdit *edit;
  Snap *after;

  g_return_if_fail (FR_IS_FOLD_STATE (self));
  g_return_if_fail (self->edit_depth > 0);

  if (--self->edit_depth > 0 || self->edit_before == NULL)
    return;
  after = snap_take (self);
  if (snap_equal (self->edit_before, after))
    {
      snap_free (after);
      g_clear_pointer (&self->edit_before, snap_free);
      return;
    }
  edit = g_new0 (SnapEdit, 1);
  edit->before = g_steal_pointer (&self->edit_before);
  edit->after = after;
  fr_undo_push (self->undo, label, edit, snap_edit_free);
  emit_changed (self, FR_FOLD_CHANGED_EDITED);
}

/* Cancels the open edit (Escape during a drag): the state goes back to
 * what the outermost begin_edit found, with no undo step, and is not
 * modified.  FALSE when no edit was open. */
gboolean
fr_fold_state_cancel_edit (FrFoldState *self)
{
  Snap *before;

  g_return_val_if_fail (FR_IS_FOLD_STATE (self), FALSE);

  if (self->edit_depth == 0 || self->edit_before == NULL)
    return FALSE;
  before = g_steal_pointer (&self->edit_before);
  self->edit_depth = 0;
  /* A drag changes neither whether the document has a horizon of its
   * own nor anything outside the snapshot. */
  snap_restore (self, before);
  snap_free (before);
  emit_changed (self, FR_FOLD_CHANGED_SOLVE | FR_FOLD_CHANGED_PARAMS);
  return TRUE;
}

/* Writes the fold settings and horizon into doc's "fold" members. */
void
fr_fold_state_to_doc (FrFoldState *self,
                      FrSceneDoc  *doc)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));
  g_return_if_fail (doc != NULL);

  doc->has_fold = TRUE;
  doc->psi_a[0] = self->psi_a[0];
  doc->psi_a[1] = self->psi_a[1];
  g_free (doc->fold_method);
  doc->fold_method = g_strdup (self->method == FR_FOLD_SOLAS ? "solas" : "las");
  g_free (doc->fold_backend);
  doc->fold_backend = g_strdup (fr_fold_backend_name (self->backend));
  doc->has_fold_speed = TRUE;
  doc->fold_speed_from_grid = self->speed_from_grid;
  doc->fold_speed = self->speed_const;
  doc->has_fold_levels = TRUE;
  doc->fold_delta = self->delta;
  doc->fold_count = self->count;
  doc->has_fold_bands = TRUE;
  doc->fold_bands = self->bands;
  /* FrPoint and FrVertex are both {x, z} doubles. */
  G_STATIC_ASSERT (sizeof (FrPoint) == sizeof (FrVertex));
  /* A cleared horizon is written empty, so that it stays cleared. */
  g_clear_pointer (&doc->fold_horizon, g_array_unref);
  if (self->horizon_given)
    doc->fold_horizon = g_array_copy (self->horizon);
  g_clear_pointer (&doc->fold_characteristics, g_array_unref);
  if (self->ray_points->len > 0)
    doc->fold_characteristics = g_array_copy (self->ray_points);
}

/* Back to a new document's folds: no horizon, default settings, ψa zero,
 * no undo history.  The arrow's base and the grid's smallest speed belong
 * to the model and stay.  Not an edit: the scene stays unmodified. */
void
fr_fold_state_reset (FrFoldState *self)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));

  g_array_set_size (self->horizon, 0);
  self->horizon_given = FALSE;
  set_ray_points (self, NULL, 0);
  self->speed_from_grid = FALSE;
  self->speed_const = 1.0;
  self->psi_a[0] = self->psi_a[1] = 0.0;
  self->psi_asked[0] = self->psi_asked[1] = 0.0;
  self->method = FR_FOLD_LAS;
  self->backend = FR_FOLD_BACKEND_AUTO;
  self->delta = 0.1;
  self->count = 8;
  self->bands = FALSE;
  g_clear_pointer (&self->edit_before, snap_free);
  self->edit_depth = 0;
  fr_undo_clear (self->undo);
  emit_changed (self, FR_FOLD_CHANGED_SOLVE | FR_FOLD_CHANGED_PARAMS);
}

/* Takes doc's fold members (those it has) over a reset state, so nothing
 * of the previous document carries over; the undo history starts afresh.
 * Not an edit: the scene stays unmodified. */
void
fr_fold_state_load_doc (FrFoldState      *self,
                        const FrSceneDoc *doc)
{
  g_return_if_fail (FR_IS_FOLD_STATE (self));
  g_return_if_fail (doc != NULL);

  fr_fold_state_reset (self);
  if (!doc->has_fold)
    return;
  if (doc->has_fold_speed)
    {
      self->speed_from_grid = doc->fold_speed_from_grid;
      if (doc->fold_speed > 0.0)
        self->speed_const = doc->fold_speed;
    }
  self->method = g_strcmp0 (doc->fold_method, "solas") == 0 ? FR_FOLD_SOLAS : FR_FOLD_LAS;
  if (doc->fold_backend != NULL)
    self->backend = g_str_equal (doc->fold_backend, "cpu") ? FR_FOLD_CPU
                    : g_str_equal (doc->fold_backend, "cuda") ? FR_FOLD_CUDA : FR_FOLD_BACKEND_AUTO;
  if (doc->has_fold_levels)
    {
      self->delta = doc->fold_delta;
      self->count = doc->fold_count;
    }
  if (doc->has_fold_bands)
    self->bands = doc->fold_bands;
  if (doc->fold_horizon != NULL)
    {
      g_array_set_size (self->horizon, 0);
      g_array_append_vals (self->horizon, doc->fold_horizon->data, doc->fold_horizon->len);
      self->horizon_given = TRUE;
    }
  /* In the grid: fr_scene_load_doc refuses a scene with one outside it. */
  if (doc->fold_characteristics != NULL)
    set_ray_points (self, (const FrPoint *) doc->fold_characteristics->data,
                    doc->fold_characteristics->len);
  fr_fold_state_set_psi_a_given (self, doc->psi_a[0], doc->psi_a[1]);
  fr_undo_clear (self->undo);
  emit_changed (self, FR_FOLD_CHANGED_SOLVE | FR_FOLD_CHANGED_PARAMS);
}
