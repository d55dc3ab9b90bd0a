/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-result-time"

#include <math.h>

#include "fr-result-time.h"
#include "fr-shot-job.h"

/* The traveltime at (x, z), bilinear between nodes as the shader draws it.
 * FALSE outside the grid, where unreached, or without T.  A node of weight
 * 0 takes no part: at a node itself T is that node's, also beside an
 * unreached one (a receiver next to an obstacle). */
gboolean
fr_result_time_at (const FrResult *result,
                   double          x,
                   double          z,
                   double         *t)
{
  const fr_grid *g;
  const float *time;
  double fx, fz, wx, wz, v[4], w[4];
  size_t ix, iz, ix1, iz1;

  g_return_val_if_fail (result != NULL, FALSE);
  g_return_val_if_fail (t != NULL, FALSE);

  if (!result->ok || result->time == NULL)
    return FALSE;
  g = &result->job->grid;
  time = result->time;
  fx = (x - g->x0) / g->dx;
  fz = (z - g->z0) / g->dz;
  if (!(fx >= -0.5 && fz >= -0.5 && fx <= g->nx - 0.5 && fz <= g->nz - 0.5))
    return FALSE;
  fx = CLAMP (fx, 0.0, (double) (g->nx - 1));
  fz = CLAMP (fz, 0.0, (double) (g->nz - 1));
  ix = (size_t) floor (fx);
  iz = (size_t) floor (fz);
  ix1 = MIN (ix + 1, g->nx - 1);
  iz1 = MIN (iz + 1, g->nz - 1);
  wx = fx - ix;
  wz = fz - iz;
  v[0] = time[fr_grid_index (g, ix, 0, iz)];
  v[1] = time[fr_grid_index (g, ix1, 0, iz)];
  v[2] = time[fr_grid_index (g, ix, 0, iz1)];
  v[3] = time[fr_grid_index (g, ix1, 0, iz1)];
  w[0] = (1 - wx) * (1 - wz);
  w[1] = wx * (1 - wz);
  w[2] = (1 - wx) * wz;
  w[3] = wx * wz;
  for (guint i = 0; i < 4; i++)
    if (!isfinite (v[i]))
      {
        if (w[i] > 0.0)
          return FALSE;
        v[i] = 0.0;
      }
  *t = (1 - wz) * ((1 - wx) * v[0] + wx * v[1]) + wz * ((1 - wx) * v[2] + wx * v[3]);
  return TRUE;
}

/* Whether result holds the shortest-path T of scene's model and sources as
 * they are now, of the shot the scene shows (or of all sources together).
 * Receivers may have moved since: T is a field, read at wherever they
 * are.  A source moved, added or removed makes it stale
 * until its own solve lands (the canvas keeps drawing it meanwhile). */
gboolean
fr_result_time_matches_scene (const FrResult *result,
                              FrScene        *scene)
{
  const FrPoint *sources;
  guint n;

  g_return_val_if_fail (FR_IS_SCENE (scene), FALSE);

  if (result == NULL || !result->ok || result->time == NULL || result->job->kind != FR_JOB_SPR ||
      !fr_scene_has_model (scene) || !fr_scene_job_is_current (scene, result->job))
    return FALSE;
  sources = fr_scene_get_markers (scene, FR_MARKER_SOURCE, &n);
  if (n != result->job->n_sources || result->job->shot != fr_scene_get_shot (scene))
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (sources[i].x != result->job->sources[2 * i] || sources[i].z != result->job->sources[2 * i + 1])
      return FALSE;
  return TRUE;
}

/* The first-arrival time of source shot's own shot at receiver (its index
 * in the scene, standing at x, z), where each source fires alone: the
 * shot shown's read from T as fr_result_time_at reads it, another's from
 * the arrival times solved with it, while the receiver stands where it
 * stood for the solve.  FALSE where there is none (not reached, not of
 * this solve, sources fired together). */
gboolean
fr_result_shot_time_at (const FrResult *result,
                        guint           shot,
                        guint           receiver,
                        double          x,
                        double          z,
                        double         *t)
{
  const FrJob *job;
  float v;

  g_return_val_if_fail (result != NULL, FALSE);
  g_return_val_if_fail (t != NULL, FALSE);

  job = result->job;
  if (!result->ok || result->shots == NULL || shot >= result->shots->n)
    return FALSE;
  if ((gint) shot == job->shot)
    return fr_result_time_at (result, x, z, t);
  if (receiver >= job->n_receivers || job->receivers[2 * receiver] != x ||
      job->receivers[2 * receiver + 1] != z)
    return FALSE;
  v = result->shots->times[(gsize) shot * job->n_receivers + receiver];
  if (!isfinite (v))
    return FALSE;
  *t = v;
  return TRUE;
}
