/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-shot-job"

#include "config.h"

#include <math.h>
#include <string.h>

#include "fr-model.h"
#include "fr-shot-job.h"

static void
shots_clear (gpointer data)
{
  FrShots *shots = data;

  g_free (shots->sources);
  g_free (shots->times);
  g_clear_pointer (&shots->rays, g_ptr_array_unref);
  g_clear_pointer (&shots->fields, g_ptr_array_unref);
  g_free (shots->backend);
}

FrShots *
fr_shots_ref (FrShots *shots)
{
  g_return_val_if_fail (shots != NULL, NULL);
  return g_atomic_rc_box_acquire (shots);
}

void
fr_shots_unref (FrShots *shots)
{
  g_return_if_fail (shots != NULL);
  g_atomic_rc_box_release_full (shots, shots_clear);
}

/* Empty shots of job's sources and receivers, to be filled shot by shot;
 * with room for the fields where they fit FR_SHOT_FIELDS_MAX_BYTES. */
static FrShots *
shots_new (const FrJob *job)
{
  FrShots *shots = g_atomic_rc_box_new0 (FrShots);

  shots->n = job->n_sources;
  shots->sources = g_memdup2 (job->sources, sizeof (double) * 2 * job->n_sources);
  shots->n_receivers = job->n_receivers;
  shots->times = g_new (float, (gsize) shots->n * MAX (job->n_receivers, 1));
  shots->rays = g_ptr_array_new_full (shots->n, (GDestroyNotify) g_ptr_array_unref);
  if ((gsize) shots->n * fr_grid_count (&job->grid) * sizeof (float) <= FR_SHOT_FIELDS_MAX_BYTES)
    shots->fields = g_ptr_array_new_full (shots->n, (GDestroyNotify) g_bytes_unref);
  return shots;
}

/* The shot of kept whose source stands at (x, z), with its T kept; -1
 * where none. */
static gint
kept_shot (const FrShots *kept,
           double         x,
           double         z)
{
  if (kept == NULL || kept->fields == NULL)
    return -1;
  for (guint j = 0; j < kept->n; j++)
    if (kept->sources[2 * j] == x && kept->sources[2 * j + 1] == z)
      return (gint) j;
  return -1;
}

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
static GBytes *
field_of (const fr_spr_result *res,
          size_t               count)
{
  float *f = g_try_new (float, count);

  if (f == NULL)
    return NULL;
  for (size_t i = 0; i < count; i++)
    f[i] = (float) res->time[i];
  return g_bytes_new_take (f, count * sizeof (float));
}

/* Shot k's field as shots', or the fields given up where it is NULL. */
static void
keep_field (FrShots *shots,
            GBytes  *field)
{
  if (shots->fields == NULL)
    return;
  if (field != NULL)
    g_ptr_array_add (shots->fields, g_bytes_ref (field));
  else
    g_clear_pointer (&shots->fields, g_ptr_array_unref);
}

/* Every shot of job: each source solved alone, or taken from
 * job->shots_kept where its source has not moved; the shot shown's T and
 * rays as the result's.  result->solve_ms is the time of the shots solved
 * here, result->n_shots_solved their count.  As fr_job_run, which calls
 * it. */
FrResult *
fr_shot_job_run (FrJob           *job,
                 const fr_cancel *cancel,
                 gboolean        *cancelled)
{
  g_autoptr(FrResult) result = NULL;
  g_autoptr(FrShots) shots = NULL;
  const size_t count = fr_grid_count (&job->grid);
  fr_error err = { 0 };

  g_return_val_if_fail (job != NULL && job->shot >= 0 && (guint) job->shot < job->n_sources, NULL);

  if (cancelled != NULL)
    *cancelled = FALSE;
  result = fr_result_new (job);
  shots = shots_new (job);
  for (guint k = 0; k < shots->n; k++)
    {
      const gboolean shown = k == (guint) job->shot;
      const gint j = kept_shot (job->shots_kept, job->sources[2 * k], job->sources[2 * k + 1]);
      float *times = shots->times + (gsize) k * job->n_receivers;
      g_autoptr(GPtrArray) rays = NULL;
      g_autoptr(GBytes) field = NULL;

      if (j >= 0)
        {
          const FrShots *kept = job->shots_kept;

          memcpy (times, kept->times + (gsize) j * kept->n_receivers, sizeof (float) * job->n_receivers);
          rays = g_ptr_array_ref (g_ptr_array_index (kept->rays, j));
          field = g_bytes_ref (g_ptr_array_index (kept->fields, j));
          if (shown)
            {
              if (!fr_result_copy_time (result, g_bytes_get_data (field, NULL), count))
                return g_steal_pointer (&result);
              result->backend = g_strdup (kept->backend);
            }
          if (shots->backend == NULL)
            shots->backend = g_strdup (kept->backend);
        }
      else
        {
          fr_spr_result res = { 0 };
          fr_status status;

          /* Only the CUDA back end keeps it, for the shot shown: the canvas
           * then draws T without a host round trip. */
          status = fr_job_solve (job, job->sources + 2 * k, 1, shown && fr_cuda_built (), cancel, &res,
                                 &err);
          if (status != FR_OK)
            {
              fr_spr_result_clear (&res);
              return fr_result_solve_failed (g_steal_pointer (&result), status, &err, cancelled);
            }
          result->solve_ms += res.solve_ms;
          result->iterations += res.iterations;
          result->n_shots_solved++;
          receiver_times (job, &res, times);
          rays = fr_job_trace_rays (job, &res);
          /* Short of memory: no field kept, every shot solved next time. */
          if (shots->fields != NULL)
            field = field_of (&res, count);
          g_free (shots->backend);
          shots->backend = g_strdup (fr_spr_backend_name (res.backend));
          if (shown && !fr_result_take_solve (result, &res))
            {
              fr_spr_result_clear (&res);
              return g_steal_pointer (&result);
            }
          fr_spr_result_clear (&res);
        }
      keep_field (shots, field);
      if (shown)
        {
          g_ptr_array_unref (result->rays);
          result->rays = g_ptr_array_ref (rays);
        }
      g_ptr_array_add (shots->rays, g_steal_pointer (&rays));
    }
  result->shots = g_steal_pointer (&shots);
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

/* Lets job (shots one at a time, not yet submitted) take the shots of
 * solved whose sources have not moved, where nothing else that makes a
 * shot's T and rays differs: the grid, the velocity bytes (shared, so a
 * model edit makes new ones), the receivers, the radius and the back end.
 * Only the shots, never solved itself, go with the job, so that results
 * never chain.  TRUE when at least one shot will be taken. */
gboolean
fr_shot_job_reuse (FrJob    *job,
                   FrResult *solved)
{
  const FrShots *kept;
  const FrJob *was;

  g_return_val_if_fail (job != NULL, FALSE);

  if (job->kind != FR_JOB_SPR || job->shot < 0 || solved == NULL || !solved->ok ||
      (kept = solved->shots) == NULL || kept->fields == NULL)
    return FALSE;
  was = solved->job;
  if (!fr_model_grids_equal (&job->grid, &was->grid) || job->velocity != was->velocity ||
      job->n_receivers != was->n_receivers ||
      !same_points (job->receivers, was->receivers, job->n_receivers) || !fr_radius_equal (job->radius, was->radius) || job->backend != was->backend)
    return FALSE;
  for (guint k = 0; k < job->n_sources; k++)
    if (kept_shot (kept, job->sources[2 * k], job->sources[2 * k + 1]) >= 0)
      {
        g_clear_pointer (&job->shots_kept, fr_shots_unref);
        job->shots_kept = fr_shots_ref (solved->shots);
        return TRUE;
      }
  return FALSE;
}

/* How many of job's shots it takes from shots solved before. */
guint
fr_shot_job_n_kept (const FrJob *job)
{
  guint n = 0;

  g_return_val_if_fail (job != NULL, 0);

  if (job->kind != FR_JOB_SPR || job->shot < 0)
    return 0;
  for (guint k = 0; k < job->n_sources; k++)
    n += kept_shot (job->shots_kept, job->sources[2 * k], job->sources[2 * k + 1]) >= 0;
  return n;
}

/* Whether job takes every shot from shots solved before, solving none. */
gboolean
fr_shot_job_reuses_solve (const FrJob *job)
{
  g_return_val_if_fail (job != NULL, FALSE);

  return job->kind == FR_JOB_SPR && job->shot >= 0 && fr_shot_job_n_kept (job) == job->n_sources;
}
