/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-shot-job"

#include "config.h"

#include <math.h>
#include <string.h>

#include "fr-model.h"
#include "fr-shot-job.h"

/* The solve's T at each receiver's node into times (+inf unreached), in
 * single precision as the result keeps T. */
static void
receiver_times (const FrJob         *job,
                const fr_spr_result *res,
                float               *times)
{
  for (guint r = 0; r < job->n_receivers; r++)
    {
      size_t ix, iz;

      if (!fr_grid_nearest_node (&job->grid, job->receivers[2 * r], 0.0, job->receivers[2 * r + 1],
                                 &ix, NULL, &iz))
        times[r] = INFINITY;
      else
        times[r] = (float) res->time[fr_grid_index (&job->grid, ix, 0, iz)];
    }
}

/* res's T in single precision, or NULL where memory is short. */
static float *
field_copy (const fr_spr_result *res,
            size_t               count)
{
  float *f = g_try_new (float, count);

  for (size_t i = 0; f != NULL && i < count; i++)
    f[i] = (float) res->time[i];
  return f;
}

/* The shot job->shot of solved, a result of the same solves, as result:
 * T and the rays shared with it, its solve's time and back end. */
static FrResult *
show_solved (FrResult *result,
             FrResult *solved)
{
  const guint k = (guint) result->job->shot;
  const size_t count = fr_grid_count (&result->job->grid);

  result->n_shots = solved->n_shots;
  result->shot_times = g_memdup2 (solved->shot_times,
                                  sizeof (float) * solved->n_shots * MAX (result->job->n_receivers, 1));
  result->shot_fields = g_ptr_array_ref (solved->shot_fields);
  result->shot_rays = g_ptr_array_ref (solved->shot_rays);
  result->time_owner = fr_result_ref (solved);
  result->time = g_ptr_array_index (solved->shot_fields, k);
  result->time_max = 0.0f;
  for (size_t i = 0; i < count; i++)
    if (isfinite (result->time[i]) && result->time[i] > result->time_max)
      result->time_max = result->time[i];
  g_ptr_array_unref (result->rays);
  result->rays = g_ptr_array_ref (g_ptr_array_index (solved->shot_rays, k));
  result->backend = g_strdup (solved->backend);
  result->notice = g_strdup (solved->notice);
  result->solve_ms = solved->solve_ms;
  result->iterations = solved->iterations;
  result->ok = TRUE;
  return result;
}

/* Solves each source alone: every shot's arrival times, rays and (within
 * FR_SHOT_FIELDS_MAX_BYTES) T; the shot shown's T and rays as the
 * result's.  Or, with job->shots_solved, shows that result's shot
 * job->shot without solving.  As fr_job_run, which calls it. */
FrResult *
fr_shot_job_run (FrJob           *job,
                 const fr_cancel *cancel,
                 gboolean        *cancelled)
{
  g_autoptr(FrResult) result = NULL;
  const size_t count = fr_grid_count (&job->grid);
  const guint n = job->n_sources;
  fr_error err = { 0 };

  g_return_val_if_fail (job != NULL && job->shot >= 0 && (guint) job->shot < n, NULL);

  if (cancelled != NULL)
    *cancelled = FALSE;
  result = fr_result_new (job);
  if (job->shots_solved != NULL)
    return show_solved (g_steal_pointer (&result), job->shots_solved);

  result->n_shots = n;
  result->shot_times = g_new (float, (gsize) n * MAX (job->n_receivers, 1));
  result->shot_rays = g_ptr_array_new_full (n, (GDestroyNotify) g_ptr_array_unref);
  if ((gsize) n * count * sizeof (float) <= FR_SHOT_FIELDS_MAX_BYTES)
    result->shot_fields = g_ptr_array_new_full (n, g_free);
  for (guint k = 0; k < n; k++)
    {
      const gboolean shown = k == (guint) job->shot;
      fr_spr_result res = { 0 };
      GPtrArray *rays;
      fr_status status;

      /* Only the CUDA back end keeps it, for the shot shown: the canvas
       * then draws T without a host round trip. */
      status = fr_job_solve (job, job->sources + 2 * k, 1, shown && fr_cuda_built (), cancel, &res, &err);
      if (status != FR_OK)
        {
          fr_spr_result_clear (&res);
          return fr_result_solve_failed (g_steal_pointer (&result), status, &err, cancelled);
        }
      result->solve_ms += res.solve_ms;
      result->iterations += res.iterations;
      receiver_times (job, &res, result->shot_times + (gsize) k * job->n_receivers);
      rays = fr_job_trace_rays (job, &res);
      g_ptr_array_add (result->shot_rays, rays);
      if (result->shot_fields != NULL)
        {
          float *field = field_copy (&res, count);

          /* Short of memory: another shot shown is solved again. */
          if (field != NULL)
            g_ptr_array_add (result->shot_fields, field);
          else
            g_clear_pointer (&result->shot_fields, g_ptr_array_unref);
        }
      if (shown)
        {
          if (!fr_result_take_solve (result, &res))
            {
              fr_spr_result_clear (&res);
              return g_steal_pointer (&result);
            }
          g_ptr_array_unref (result->rays);
          result->rays = g_ptr_array_ref (rays);
        }
      fr_spr_result_clear (&res);
    }
  result->ok = TRUE;
  return g_steal_pointer (&result);
}

/* Whether n x, z pairs are the same; none are whatever the pointers. */
static gboolean
same_points (const double *a,
             const double *b,
             guint         n)
{
  return n == 0 || memcmp (a, b, sizeof (double) * 2 * n) == 0;
}

/* Whether jobs a and b make the same solves: the same grid, velocity
 * bytes (shared, so a model edit makes new ones), sources, receivers,
 * radius and back end.  The shot shown and the threads may differ. */
static gboolean
same_solves (const FrJob *a,
             const FrJob *b)
{
  return fr_model_grids_equal (&a->grid, &b->grid) && a->velocity == b->velocity &&
         a->n_sources == b->n_sources && same_points (a->sources, b->sources, a->n_sources) &&
         a->n_receivers == b->n_receivers && same_points (a->receivers, b->receivers, a->n_receivers) &&
         fr_radius_equal (a->radius, b->radius) && a->backend == b->backend;
}

/* Lets job (shots one at a time, not yet submitted) show its shot from
 * solved when only the shot shown tells them apart and solved kept every
 * shot's T.  TRUE when it will. */
gboolean
fr_shot_job_reuse (FrJob    *job,
                   FrResult *solved)
{
  g_return_val_if_fail (job != NULL, FALSE);

  if (job->kind != FR_JOB_SPR || job->shot < 0 || solved == NULL || solved->job->kind != FR_JOB_SPR)
    return FALSE;
  /* The solve itself, so that reused results never chain. */
  if (solved->job->shots_solved != NULL)
    solved = solved->job->shots_solved;
  if (!solved->ok || solved->job->shot < 0 || solved->shot_fields == NULL ||
      solved->shot_fields->len != solved->n_shots || !same_solves (job, solved->job))
    return FALSE;
  g_clear_pointer (&job->shots_solved, fr_result_unref);
  job->shots_solved = fr_result_ref (solved);
  return TRUE;
}

/* Whether job shows a shot of solves already made rather than solving. */
gboolean
fr_shot_job_reuses_solve (const FrJob *job)
{
  g_return_val_if_fail (job != NULL, FALSE);
  return job->kind == FR_JOB_SPR && job->shots_solved != NULL;
}
