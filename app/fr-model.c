/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-model"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fr-garray.h"
#include "fr-model.h"

/* ------------------------------------------------------------------ layers */

FrLayer *
fr_layer_new (double v_top,
              double dvdz,
              double dvdx)
{
  FrLayer *l = g_new0 (FrLayer, 1);

  l->nodes = g_array_new (FALSE, FALSE, sizeof (FrVertex));
  l->v_top = v_top;
  l->dvdz = dvdz;
  l->dvdx = dvdx;
  return l;
}

FrLayer *
fr_layer_copy (const FrLayer *layer)
{
  FrLayer *l;

  g_return_val_if_fail (layer != NULL, NULL);

  l = g_memdup2 (layer, sizeof *layer);
  l->nodes = g_array_copy (layer->nodes);
  return l;
}

void
fr_layer_free (FrLayer *layer)
{
  if (layer == NULL)
    return;
  g_array_unref (layer->nodes);
  g_free (layer);
}

/* Appends a node; the caller keeps x increasing. */
void
fr_layer_add_node (FrLayer *layer,
                   double   x,
                   double   z)
{
  FrVertex v = { x, z };

  g_return_if_fail (layer != NULL);
  g_array_append_val (layer->nodes, v);
}

void
fr_layer_outline (const FrLayer *layer,
                  double         x_min,
                  double         x_max,
                  GArray        *xz)
{
  const FrVertex *v;
  guint n;

  g_return_if_fail (layer != NULL && xz != NULL);
  g_return_if_fail (g_array_get_element_size (xz) == sizeof (double));

  v = (const FrVertex *) layer->nodes->data;
  n = layer->nodes->len;
  if (n == 0)
    return;
  if (x_min < v[0].x)
    {
      double p[2] = { x_min, v[0].z };

      g_array_append_vals (xz, p, 2);
    }
  for (guint k = 0; k < n; k++)
    {
      double p[2] = { v[k].x, v[k].z };

      g_array_append_vals (xz, p, 2);
    }
  if (x_max > v[n - 1].x)
    {
      double p[2] = { x_max, v[n - 1].z };

      g_array_append_vals (xz, p, 2);
    }
}

/* --------------------------------------------------------------- obstacles */

FrObstacle *
fr_obstacle_new (FrObstacleShape shape,
                 double          velocity)
{
  FrObstacle *o = g_new0 (FrObstacle, 1);

  o->shape = shape;
  o->velocity = velocity;
  o->vertices = g_array_new (FALSE, FALSE, sizeof (FrVertex));
  return o;
}

/* An axis-aligned rectangle with corners (x0, z0) and (x1, z1). */
FrObstacle *
fr_obstacle_new_rectangle (double x0,
                           double z0,
                           double x1,
                           double z1,
                           double velocity)
{
  FrObstacle *o = fr_obstacle_new (FR_OBSTACLE_RECTANGLE, velocity);

  fr_obstacle_add_vertex (o, MIN (x0, x1), MIN (z0, z1));
  fr_obstacle_add_vertex (o, MAX (x0, x1), MIN (z0, z1));
  fr_obstacle_add_vertex (o, MAX (x0, x1), MAX (z0, z1));
  fr_obstacle_add_vertex (o, MIN (x0, x1), MAX (z0, z1));
  return o;
}

FrObstacle *
fr_obstacle_copy (const FrObstacle *obstacle)
{
  FrObstacle *o;

  g_return_val_if_fail (obstacle != NULL, NULL);

  o = g_memdup2 (obstacle, sizeof *obstacle);
  o->vertices = g_array_copy (obstacle->vertices);
  return o;
}

void
fr_obstacle_free (FrObstacle *obstacle)
{
  if (obstacle == NULL)
    return;
  g_array_unref (obstacle->vertices);
  g_free (obstacle);
}

void
fr_obstacle_add_vertex (FrObstacle *obstacle,
                        double      x,
                        double      z)
{
  FrVertex v = { x, z };

  g_return_if_fail (obstacle != NULL);
  g_array_append_val (obstacle->vertices, v);
}

/* Even–odd point-in-polygon test. */
gboolean
fr_obstacle_contains (const FrObstacle *obstacle,
                      double            x,
                      double            z)
{
  const FrVertex *v;
  gboolean inside = FALSE;
  guint n;

  g_return_val_if_fail (obstacle != NULL, FALSE);

  v = (const FrVertex *) obstacle->vertices->data;
  n = obstacle->vertices->len;
  for (guint i = 0, j = n - 1; i < n; j = i++)
    if ((v[i].x <= x) != (v[j].x <= x) &&
        z > v[i].z + (x - v[i].x) * (v[j].z - v[i].z) / (v[j].x - v[i].x))
      inside = !inside;
  return inside;
}

/* -------------------------------------------------------------- background */

FrBackground *
fr_background_new (const char    *path,
                   const char    *format,
                   const fr_grid *grid,
                   GBytes        *values)
{
  FrBackground *b;

  g_return_val_if_fail (grid != NULL, NULL);
  g_return_val_if_fail (values != NULL, NULL);
  g_return_val_if_fail (g_bytes_get_size (values) == fr_grid_count (grid) * sizeof (float), NULL);

  b = g_new0 (FrBackground, 1);
  b->path = g_strdup (path);
  b->format = g_strdup (format != NULL ? format : "npy");
  b->grid = *grid;
  b->values = g_bytes_ref (values);
  return b;
}

FrBackground *
fr_background_copy (const FrBackground *background)
{
  g_return_val_if_fail (background != NULL, NULL);
  return fr_background_new (background->path, background->format, &background->grid,
                            background->values);
}

void
fr_background_free (FrBackground *background)
{
  if (background == NULL)
    return;
  g_free (background->path);
  g_free (background->format);
  g_bytes_unref (background->values);
  g_free (background);
}

/* -------------------------------------------------------------------- grid */

/* The model's width and depth, node to node. */
void
fr_model_grid_extent (const fr_grid *grid,
                      double        *width,
                      double        *depth)
{
  g_return_if_fail (grid != NULL);

  if (width != NULL)
    *width = (double) (grid->nx - 1) * grid->dx;
  if (depth != NULL)
    *depth = (double) (grid->nz - 1) * grid->dz;
}

/* Whole cells of spacing d nearest to extent, at least one: the node
 * count n = cells + 1.  FALSE beyond FR_MODEL_MAX_NODES. */
static gboolean
nodes_for (double  extent,
           double  d,
           size_t *n)
{
  double cells;

  if (!(extent > 0.0) || !isfinite (extent) || !(d > 0.0) || !isfinite (d))
    return FALSE;
  cells = MAX (round (extent / d), 1.0);
  if (!(cells <= FR_MODEL_MAX_NODES - 1))
    return FALSE;
  *n = (size_t) cells + 1;
  return TRUE;
}

/* A new extent at the same spacing: the node counts follow. */
gboolean
fr_model_grid_with_extent (const fr_grid *grid,
                           double         width,
                           double         depth,
                           fr_grid       *out)
{
  double w0, d0;
  size_t nx = grid->nx, nz = grid->nz;

  g_return_val_if_fail (grid != NULL && out != NULL, FALSE);

  /* An axis at its current extent keeps its count, however many nodes a
   * loaded grid has: only an axis that changes is held to the limit. */
  fr_model_grid_extent (grid, &w0, &d0);
  if ((width != w0 && !nodes_for (width, grid->dx, &nx)) ||
      (depth != d0 && !nodes_for (depth, grid->dz, &nz)))
    return FALSE;
  *out = fr_grid_2d (nx, nz, grid->dx, grid->dz, grid->x0, grid->z0);
  return TRUE;
}

/* New node counts over the same extent: the spacing follows. */
gboolean
fr_model_grid_with_nodes (const fr_grid *grid,
                          guint          nx,
                          guint          nz,
                          fr_grid       *out)
{
  double width, depth;

  g_return_val_if_fail (grid != NULL && out != NULL, FALSE);

  if (nx < 2 || nz < 2 || (nx != grid->nx && nx > FR_MODEL_MAX_NODES) ||
      (nz != grid->nz && nz > FR_MODEL_MAX_NODES))
    return FALSE;
  fr_model_grid_extent (grid, &width, &depth);
  *out = fr_grid_2d (nx, nz,
                     nx == grid->nx ? grid->dx : width / (nx - 1),
                     nz == grid->nz ? grid->dz : depth / (nz - 1),
                     grid->x0, grid->z0);
  return TRUE;
}

/* A new spacing over the same extent, rounded to whole cells: the node
 * counts follow, and the extent becomes (n − 1)·d. */
gboolean
fr_model_grid_with_spacing (const fr_grid *grid,
                            double         dx,
                            double         dz,
                            fr_grid       *out)
{
  double width, depth;
  size_t nx, nz;

  g_return_val_if_fail (grid != NULL && out != NULL, FALSE);

  nx = grid->nx;
  nz = grid->nz;
  fr_model_grid_extent (grid, &width, &depth);
  if ((dx != grid->dx && !nodes_for (width, dx, &nx)) ||
      (dz != grid->dz && !nodes_for (depth, dz, &nz)))
    return FALSE;
  *out = fr_grid_2d (nx, nz, dx, dz, grid->x0, grid->z0);
  return TRUE;
}

/* ------------------------------------------------------------------- model */

FrModel *
fr_model_new (const fr_grid *grid,
              double         default_velocity)
{
  FrModel *m;

  g_return_val_if_fail (grid != NULL && grid->ndim == 2, NULL);

  m = g_new0 (FrModel, 1);
  m->grid = *grid;
  m->default_velocity = default_velocity;
  m->layers = g_ptr_array_new_with_free_func ((GDestroyNotify) fr_layer_free);
  m->obstacles = g_ptr_array_new_with_free_func ((GDestroyNotify) fr_obstacle_free);
  return m;
}

FrModel *
fr_model_copy (const FrModel *model)
{
  FrModel *m;

  g_return_val_if_fail (model != NULL, NULL);

  m = fr_model_new (&model->grid, model->default_velocity);
  for (guint i = 0; i < model->layers->len; i++)
    g_ptr_array_add (m->layers, fr_layer_copy (g_ptr_array_index (model->layers, i)));
  for (guint i = 0; i < model->obstacles->len; i++)
    g_ptr_array_add (m->obstacles, fr_obstacle_copy (g_ptr_array_index (model->obstacles, i)));
  if (model->background != NULL)
    m->background = fr_background_copy (model->background);
  return m;
}

void
fr_model_free (FrModel *model)
{
  if (model == NULL)
    return;
  g_ptr_array_unref (model->layers);
  g_ptr_array_unref (model->obstacles);
  fr_background_free (model->background);
  g_free (model);
}

/* Field by field: fr_grid has padding after ndim, so memcmp could call
 * two equal grids different (and the canvas would refit for nothing). */
gboolean
fr_model_grids_equal (const fr_grid *a,
                      const fr_grid *b)
{
  return a->nx == b->nx && a->nz == b->nz && a->dx == b->dx && a->dz == b->dz &&
         a->x0 == b->x0 && a->z0 == b->z0;
}

/* Whether two models would rasterise alike and save alike. */
gboolean
fr_model_equal (const FrModel *a,
                const FrModel *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (!fr_model_grids_equal (&a->grid, &b->grid) || a->default_velocity != b->default_velocity ||
      a->layers->len != b->layers->len || a->obstacles->len != b->obstacles->len ||
      (a->background == NULL) != (b->background == NULL))
    return FALSE;
  for (guint i = 0; i < a->layers->len; i++)
    {
      const FrLayer *la = g_ptr_array_index (a->layers, i), *lb = g_ptr_array_index (b->layers, i);

      if (la->v_top != lb->v_top || la->dvdz != lb->dvdz || la->dvdx != lb->dvdx ||
          la->x_ref != lb->x_ref ||
          !fr_garray_equal (la->nodes, lb->nodes))
        return FALSE;
    }
  for (guint i = 0; i < a->obstacles->len; i++)
    {
      const FrObstacle *oa = g_ptr_array_index (a->obstacles, i);
      const FrObstacle *ob = g_ptr_array_index (b->obstacles, i);

      if (oa->shape != ob->shape || oa->velocity != ob->velocity ||
          !fr_garray_equal (oa->vertices, ob->vertices))
        return FALSE;
    }
  if (a->background != NULL &&
      (g_strcmp0 (a->background->path, b->background->path) != 0 ||
       !fr_model_grids_equal (&a->background->grid, &b->background->grid) ||
       !g_bytes_equal (a->background->values, b->background->values)))
    return FALSE;
  return TRUE;
}

/* True when the model is just its background on the solver grid, which
 * then needs no rasterising. */
gboolean
fr_model_is_plain (const FrModel *model)
{
  g_return_val_if_fail (model != NULL, FALSE);

  return model->layers->len == 0 && model->obstacles->len == 0 &&
         model->background != NULL && fr_model_grids_equal (&model->grid, &model->background->grid);
}

/* The libfoldray view of the model; frees with raster_view_clear. */
typedef struct
{
  fr_raster_model     m;
  fr_raster_layer    *layers;
  fr_raster_obstacle *obstacles;
  double             *coords;
} RasterView;

static void
raster_view_init (RasterView    *rv,
                  const FrModel *model)
{
  guint total = 0;
  double *c;

  for (guint i = 0; i < model->layers->len; i++)
    total += ((FrLayer *) g_ptr_array_index (model->layers, i))->nodes->len;
  for (guint i = 0; i < model->obstacles->len; i++)
    total += ((FrObstacle *) g_ptr_array_index (model->obstacles, i))->vertices->len;

  memset (rv, 0, sizeof *rv);
  rv->layers = g_new0 (fr_raster_layer, model->layers->len + 1);
  rv->obstacles = g_new0 (fr_raster_obstacle, model->obstacles->len + 1);
  rv->coords = c = g_new (double, 2 * total + 1);

  /* Split x and z into their own arrays, as libfoldray wants. */
  for (guint i = 0; i < model->layers->len; i++)
    {
      const FrLayer *l = g_ptr_array_index (model->layers, i);
      const FrVertex *v = (const FrVertex *) l->nodes->data;
      fr_raster_layer *r = &rv->layers[i];

      r->x = c;
      r->z = c + l->nodes->len;
      for (guint k = 0; k < l->nodes->len; k++)
        {
          c[k] = v[k].x;
          c[l->nodes->len + k] = v[k].z;
        }
      c += 2 * l->nodes->len;
      r->n = l->nodes->len;
      r->v_top = l->v_top;
      r->dvdz = l->dvdz;
      r->dvdx = l->dvdx;
      r->x_ref = l->x_ref;
    }
  for (guint i = 0; i < model->obstacles->len; i++)
    {
      const FrObstacle *o = g_ptr_array_index (model->obstacles, i);
      const FrVertex *v = (const FrVertex *) o->vertices->data;
      fr_raster_obstacle *r = &rv->obstacles[i];

      r->x = c;
      r->z = c + o->vertices->len;
      for (guint k = 0; k < o->vertices->len; k++)
        {
          c[k] = v[k].x;
          c[o->vertices->len + k] = v[k].z;
        }
      c += 2 * o->vertices->len;
      r->n = o->vertices->len;
      r->velocity = o->velocity;
    }
  rv->m.layers = rv->layers;
  rv->m.n_layers = model->layers->len;
  rv->m.obstacles = rv->obstacles;
  rv->m.n_obstacles = model->obstacles->len;
  rv->m.default_velocity = model->default_velocity;
  if (model->background != NULL)
    {
      rv->m.background_grid = &model->background->grid;
      rv->m.background = g_bytes_get_data (model->background->values, NULL);
    }
}

static void
raster_view_clear (RasterView *rv)
{
  g_free (rv->layers);
  g_free (rv->obstacles);
  g_free (rv->coords);
}

/* Checks the model as libfoldray would; the message names the layer or
 * obstacle at fault. */
gboolean
fr_model_check (const FrModel  *model,
                GError        **error)
{
  RasterView rv;
  fr_error err = { 0 };
  fr_status st;

  g_return_val_if_fail (model != NULL, FALSE);

  if ((st = fr_grid_check (&model->grid, &err)) == FR_OK)
    {
      raster_view_init (&rv, model);
      st = fr_raster_check (&rv.m, &err);
      raster_view_clear (&rv);
    }
  if (st != FR_OK)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, err.message);
      return FALSE;
    }
  return TRUE;
}

/* The cell-averaged velocity on the solver grid, nx·nz float32.  A plain
 * model returns its background's own bytes.  *warning (when warning is
 * not NULL) says where a layer's gradient takes its velocity to 0 or
 * below, which the grid then holds as nearly impermeable; NULL where
 * nothing does. */
GBytes *
fr_model_rasterise (const FrModel  *model,
                    char          **warning,
                    GError        **error)
{
  RasterView rv;
  fr_raster_report report;
  fr_error err = { 0 };
  float *out;
  fr_status st;

  g_return_val_if_fail (model != NULL, NULL);

  if (warning != NULL)
    *warning = NULL;
  if (fr_model_is_plain (model))
    return g_bytes_ref (model->background->values);

  out = g_try_new (float, fr_grid_count (&model->grid));
  if (out == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _("Not enough memory for the velocities of %zu × %zu nodes."),
                   model->grid.nx, model->grid.nz);
      return NULL;
    }
  raster_view_init (&rv, model);
  st = fr_raster_fill_report (&rv.m, &model->grid, out, &report, &err);
  raster_view_clear (&rv);
  if (st != FR_OK)
    {
      g_free (out);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, err.message);
      return NULL;
    }
  if (warning != NULL && report.clamped_cells > 0)
    /* Translators: a layer (numbered from 1) whose velocity gradient makes
     * the velocity 0 or negative from a point (x, z) on; then how many
     * grid cells hold that. */
    *warning = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Layer %zu’s gradient takes its velocity to 0 or below "
                                             "from (%.4g, %.4g) on: %zu cell is solved at 1e-6, as if "
                                             "impermeable. Lessen dv/dz or dv/dx, or raise its "
                                             "velocity at top.",
                                             "Layer %zu’s gradient takes its velocity to 0 or below "
                                             "from (%.4g, %.4g) on: %zu cells are solved at 1e-6, as if "
                                             "impermeable. Lessen dv/dz or dv/dx, or raise its "
                                             "velocity at top.", report.clamped_cells),
                                report.layer + 1, report.x, report.z, report.clamped_cells);
  return g_bytes_new_take (out, fr_grid_count (&model->grid) * sizeof (float));
}

/* Whether velocity, nx·nz float32 rasterised from a model on grid, is
 * what the solvers take (finite, 0 or more: fr_check_speed_f32).  Else
 * error gives the solver's words for the first bad node, what naming the
 * velocity, and the settings to check: a layer's gradient of 1e38
 * overflows a float, a spacing of 1e308 the grid's extent.  foldray-cli
 * --scene refuses a scene with it, and the app says it of a refused solve. */
gboolean
fr_model_check_velocity (const fr_grid  *grid,
                         GBytes         *velocity,
                         const char     *what,
                         GError        **error)
{
  fr_error err = { 0 };

  g_return_val_if_fail (grid != NULL && velocity != NULL && what != NULL, FALSE);
  g_return_val_if_fail (g_bytes_get_size (velocity) == fr_grid_count (grid) * sizeof (float), FALSE);

  if (fr_check_speed_f32 (grid, g_bytes_get_data (velocity, NULL), what, &err) == FR_OK)
    return TRUE;
  /* Translators: %s is the solver's own words, e.g. "velocity holds an
   * infinite value at node (ix=0, iz=6)"; “spacing”, “velocity”, “dvdz”
   * and “dvdx” are the names of a scene file's members, as written. */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("%s once rasterised; check the grid's “spacing” and the layers' “velocity”, "
                 "“dvdz” and “dvdx”"), err.message);
  return FALSE;
}

/* The fold's speed grid for a constant Speed F over velocity (a rasterised
 * model): F in the rock, 0 in the model's impermeable obstacles (velocity
 * exactly 0), so that the front goes round them as the rays do.  NULL
 * where velocity has no such cell (the solve takes the constant itself),
 * or, with error set, where its memory cannot be had. */
GBytes *
fr_model_constant_speed (GBytes  *velocity,
                         double   speed,
                         GError **error)
{
  gsize size, n, first = 0;
  const float *v;
  float *f;

  g_return_val_if_fail (velocity != NULL && speed > 0.0, NULL);

  v = g_bytes_get_data (velocity, &size);
  n = size / sizeof (float);
  while (first < n && v[first] != 0.0f)
    first++;
  if (first == n)
    return NULL;
  if ((f = g_try_new (float, n)) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _("Not enough memory for the fold's speed grid (%zu nodes)"), (size_t) n);
      return NULL;
    }
  for (gsize i = 0; i < n; i++)
    f[i] = v[i] == 0.0f ? 0.0f : (float) speed;
  return g_bytes_new_take (f, n * sizeof (float));
}

/* The point velocity (no averaging), for the cursor read-out. */
double
fr_model_velocity_at (const FrModel *model,
                      double         x,
                      double         z)
{
  RasterView rv;
  double v;

  g_return_val_if_fail (model != NULL, NAN);

  raster_view_init (&rv, model);
  v = fr_raster_velocity_at (&rv.m, x, z);
  raster_view_clear (&rv);
  return v;
}
