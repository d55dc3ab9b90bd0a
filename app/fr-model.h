/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The drawn velocity model: the solver grid, an optional background
 * velocity grid (imported from .npy or SEG-Y), layers bounded above by
 * interface polylines, and obstacles.  Plain GLib data without GTK, so the
 * scene files, foldray-cli and the tests share it; fr-raster.h (libfoldray)
 * turns it into cell velocities. */
#pragma once

#include <glib.h>

#include "fr-grid.h"
#include "fr-raster.h"

G_BEGIN_DECLS

typedef struct
{
  double x, z;
} FrVertex;

typedef struct
{
  GArray *nodes;          /* FrVertex, x strictly increasing */
  double  v_top;          /* velocity just below the interface, at x = x_ref */
  double  dvdz, dvdx;
  double  x_ref;          /* where dvdx's term is 0: the model's first node's x when the
                           * layer was added ("dvdx_from" in a scene; 0 without it) */
} FrLayer;

typedef enum
{
  FR_OBSTACLE_POLYGON,
  FR_OBSTACLE_RECTANGLE,  /* 4 vertices, axis-aligned, kept so when edited */
} FrObstacleShape;

typedef struct
{
  FrObstacleShape shape;
  GArray         *vertices;   /* FrVertex */
  double          velocity;   /* 0: impermeable */
} FrObstacle;

typedef struct
{
  char    *path;              /* absolute */
  char    *format;            /* "npy" or "segy" */
  fr_grid  grid;
  GBytes  *values;            /* nx·nz float32 */
} FrBackground;

typedef struct
{
  fr_grid       grid;         /* the solver grid, 2D */
  double        default_velocity;
  GPtrArray    *layers;       /* FrLayer*, shallowest first */
  GPtrArray    *obstacles;    /* FrObstacle*, painted in order */
  FrBackground *background;   /* NULL: none */
} FrModel;

FrLayer      *fr_layer_new              (double         v_top,
                                         double         dvdz,
                                         double         dvdx);
FrLayer      *fr_layer_copy             (const FrLayer *layer);
void          fr_layer_free             (FrLayer       *layer);
void          fr_layer_add_node         (FrLayer       *layer,
                                         double         x,
                                         double         z);
/* The layer's interface as the rasteriser reads it, across [x_min, x_max]:
 * its nodes, extended level from the end nodes to x_min and x_max where
 * they lie inside.  Appends (x, z) pairs to xz, a GArray of double. */
void          fr_layer_outline          (const FrLayer *layer,
                                         double         x_min,
                                         double         x_max,
                                         GArray        *xz);

FrObstacle   *fr_obstacle_new           (FrObstacleShape shape,
                                         double          velocity);
FrObstacle   *fr_obstacle_new_rectangle (double          x0,
                                         double          z0,
                                         double          x1,
                                         double          z1,
                                         double          velocity);
FrObstacle   *fr_obstacle_copy          (const FrObstacle *obstacle);
void          fr_obstacle_free          (FrObstacle    *obstacle);
void          fr_obstacle_add_vertex    (FrObstacle    *obstacle,
                                         double         x,
                                         double         z);
gboolean      fr_obstacle_contains      (const FrObstacle *obstacle,
                                         double         x,
                                         double         z);

FrBackground *fr_background_new         (const char    *path,
                                         const char    *format,
                                         const fr_grid *grid,
                                         GBytes        *values);
FrBackground *fr_background_copy        (const FrBackground *background);
void          fr_background_free        (FrBackground  *background);

/* The model panel's grid rows, linked along each axis by
 * extent = (n − 1)·d, node to node: a new extent keeps the spacing (the
 * model grows or shrinks), new nodes keep the extent (the grid is refined
 * or coarsened), a new spacing keeps the extent as nearly as whole cells
 * allow (n = round (extent / d) + 1, the extent then (n − 1)·d).  The
 * origin stays; an axis given its current value stays exactly as it was.
 * FALSE when a value is not positive and finite, or an axis that changes
 * would need more than FR_MODEL_MAX_NODES nodes (a loaded grid may have
 * more along the other); at least 2 are kept. */
#define FR_MODEL_MAX_NODES 8192

void          fr_model_grid_extent      (const fr_grid *grid,
                                         double        *width,
                                         double        *depth);
gboolean      fr_model_grid_with_extent (const fr_grid *grid,
                                         double         width,
                                         double         depth,
                                         fr_grid       *out);
gboolean      fr_model_grid_with_nodes  (const fr_grid *grid,
                                         guint          nx,
                                         guint          nz,
                                         fr_grid       *out);
gboolean      fr_model_grid_with_spacing (const fr_grid *grid,
                                         double         dx,
                                         double         dz,
                                         fr_grid       *out);

FrModel      *fr_model_new              (const fr_grid *grid,
                                         double         default_velocity);
FrModel      *fr_model_copy             (const FrModel *model);
void          fr_model_free             (FrModel       *model);
gboolean      fr_model_equal            (const FrModel *a,
                                         const FrModel *b);
gboolean      fr_model_grids_equal      (const fr_grid *a,
                                         const fr_grid *b);
gboolean      fr_model_is_plain         (const FrModel *model);
gboolean      fr_model_check            (const FrModel *model,
                                         GError       **error);
GBytes       *fr_model_rasterise        (const FrModel *model,
                                         char         **warning,
                                         GError       **error);
gboolean      fr_model_check_velocity   (const fr_grid *grid,
                                         GBytes        *velocity,
                                         const char    *what,
                                         GError       **error);
GBytes       *fr_model_constant_speed   (GBytes        *velocity,
                                         double         speed,
                                         GError       **error);
double        fr_model_velocity_at      (const FrModel *model,
                                         double         x,
                                         double         z);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FrModel, fr_model_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FrLayer, fr_layer_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FrObstacle, fr_obstacle_free)

/* What rasterises a model: fr_model_rasterise, or a test's stand-in. */
typedef GBytes *(*FrRasteriseFunc) (const FrModel  *model,
                                    char          **warning,
                                    GError        **error);

G_END_DECLS
