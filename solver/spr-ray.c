/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rays from an SPR result: follow the predecessor map from the receiver's
 * node back to a source, straighten the path where it ties with straighter
 * ones (spr-straight.c), then return the positions in source-to-receiver
 * order. */
#include "spr-private.h"

#include <math.h>
#include <stdlib.h>

fr_status
fr_spr_ray (const fr_spr_result *res, double x, double z,
            double **xz, size_t *n, fr_error *err)
{
  const fr_grid *g;
  size_t ix, iz, count, steps = 0, total;
  int32_t node, *path;
  double *out;

  if (xz == NULL || n == NULL)
    return fr_error_set (err, FR_E_INPUT, "no place to store the ray");
  *xz = NULL;
  *n = 0;
  if (res == NULL || res->time == NULL || res->pred == NULL)
    return fr_error_set (err, FR_E_INPUT, "no SPR result to trace a ray in");
  g = &res->grid;
  if (g->ndim != 2)
    return fr_error_set (err, FR_E_INPUT, "SPR rays need a 2D result");
  if (!fr_grid_nearest_node (g, x, 0.0, z, &ix, NULL, &iz))
    return fr_error_set (err, FR_E_INPUT, "receiver at (%g, %g) is outside the grid", x, z);
  total = fr_grid_count (g);
  node = (int32_t) fr_grid_index (g, ix, 0, iz);
  if (!isfinite (res->time[node]))
    return fr_error_set (err, FR_E_INPUT, "receiver at (%g, %g) is not reached by any source",
                         x, z);

  /* Count first; a path longer than the node count would mean a cycle. */
  count = 1;
  for (int32_t v = node; res->pred[v] >= 0; v = res->pred[v])
    {
      if ((size_t) res->pred[v] >= total || ++steps >= total)
        return fr_error_set (err, FR_E_INPUT,
                             "the predecessor map of this result is corrupt (a cycle or a bad "
                             "index)");
      count++;
    }

  path = malloc (count * sizeof *path);
  if (path == NULL)
    return fr_error_set (err, FR_E_NOMEM, "out of memory for a ray of %zu points", count);
  {
    size_t k = count;
    for (int32_t v = node; v >= 0; v = res->pred[v])
      path[--k] = v;
  }
  if (res->ray_context != NULL)
    {
      int32_t *straight = NULL;
      fr_status st = spr_ray_straighten (res->ray_context, path, count, &straight, &count, err);
      free (path);
      if (st != FR_OK)
        return st;
      path = straight;
    }

  out = malloc (2 * count * sizeof *out);
  if (out == NULL)
    {
      free (path);
      return fr_error_set (err, FR_E_NOMEM, "out of memory for a ray of %zu points", count);
    }
  for (size_t k = 0; k < count; k++)
    fr_grid_node_position (g, (size_t) path[k] % g->nx, 0, (size_t) path[k] / g->nx,
                           &out[2 * k], NULL, &out[2 * k + 1]);
  free (path);
  *xz = out;
  *n = count;
  return FR_OK;
}
