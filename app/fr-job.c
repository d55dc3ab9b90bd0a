/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-job"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "fr-fold-job.h"
#include "fr-job.h"
#include "fr-kept-solve.h"
#include "fr-model.h"
#include "fr-shot-job.h"

G_DEFINE_BOXED_TYPE (FrJob, fr_job, fr_job_ref, fr_job_unref)
G_DEFINE_BOXED_TYPE (FrResult, fr_result, fr_result_ref, fr_result_unref)

static void
job_clear (gpointer data)
{
  FrJob *job = data;

  g_clear_pointer (&job->velocity, g_bytes_unref);
  g_clear_pointer (&job->sources, g_free);
  g_clear_pointer (&job->receivers, g_free);
  g_clear_pointer (&job->fold.horizon, g_free);
  g_clear_pointer (&job->fold.speed, g_bytes_unref);
  g_clear_pointer (&job->fold.speed_error, g_free);
  g_clear_pointer (&job->fold.solved, fr_result_unref);
  g_clear_pointer (&job->solves_kept, g_ptr_array_unref);
}

static void
result_clear (gpointer data)
{
  FrResult *result = data;

  g_clear_pointer (&result->job, fr_job_unref);
  g_clear_pointer (&result->error, g_free);
  if (result->time_owner != NULL || result->time_solve != NULL)
    result->time = NULL;   /* the owner's, freed with it */
  g_clear_pointer (&result->time_owner, fr_result_unref);
  g_clear_pointer (&result->time_solve, fr_kept_solve_unref);
  g_clear_pointer (&result->time, g_free);
  g_clear_pointer (&result->device_time, fr_spr_device_free);
  g_clear_pointer (&result->rays, g_ptr_array_unref);
  g_clear_pointer (&result->shots, fr_shots_unref);
  g_clear_pointer (&result->solves, g_ptr_array_unref);
  g_clear_pointer (&result->kept_fold, fr_kept_fold_unref);
  g_clear_pointer (&result->backend, g_free);
  g_clear_pointer (&result->notice, g_free);
  g_clear_pointer (&result->horizons, g_ptr_array_unref);
  g_clear_pointer (&result->horizon_levels, g_array_unref);
  g_clear_pointer (&result->horizons_error, g_free);
  g_clear_pointer (&result->method, g_free);
}

/* A job over a 2D grid; the velocity bytes are shared, the point lists
 * copied.  The serial is set by the solver thread. */
FrJob *
fr_job_new (const fr_grid  *grid,
            GBytes         *velocity,
            const double   *sources,
            guint           n_sources,
            const double   *receivers,
            guint           n_receivers,
            FrRadius        radius,
            fr_spr_backend  backend)
{
  FrJob *job;

  g_return_val_if_fail (grid != NULL, NULL);
  g_return_val_if_fail (velocity != NULL, NULL);
  g_return_val_if_fail (g_bytes_get_size (velocity) == fr_grid_count (grid) * sizeof (float), NULL);
  g_return_val_if_fail (n_sources == 0 || sources != NULL, NULL);
  g_return_val_if_fail (n_receivers == 0 || receivers != NULL, NULL);

  job = g_atomic_rc_box_new0 (FrJob);
  job->grid = *grid;
  job->velocity = g_bytes_ref (velocity);
  job->sources = g_memdup2 (sources, sizeof (double) * 2 * n_sources);
  job->n_sources = n_sources;
  job->receivers = g_memdup2 (receivers, sizeof (double) * 2 * n_receivers);
  job->n_receivers = n_receivers;
  job->radius = radius;
  job->backend = backend;
  job->shot = -1;
  return job;
}

FrJob *
fr_job_ref (FrJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return g_atomic_rc_box_acquire (job);
}

void
fr_job_unref (FrJob *job)
{
  g_return_if_fail (job != NULL);
  g_atomic_rc_box_release_full (job, job_clear);
}

/* An empty result for job (not ok, no error yet). */
FrResult *
fr_result_new (FrJob *job)
{
  FrResult *result;

  g_return_val_if_fail (job != NULL, NULL);

  result = g_atomic_rc_box_new0 (FrResult);
  result->job = fr_job_ref (job);
  result->serial = job->serial;
  result->rays = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  return result;
}

/* The result's float T of count nodes, not yet filled; FALSE, with the
 * result not ok and its error set, when it cannot be allocated.  The
 * scene's load check (fr_model_memory_check) counted it, but memory can
 * have gone since, to this process or another. */
static gboolean
alloc_time (FrResult *result,
            size_t    count)
{
  g_return_val_if_fail (result != NULL && result->time == NULL, FALSE);

  if ((result->time = g_try_new (float, count)) != NULL)
    return TRUE;
  result->ok = FALSE;
  result->error = g_strdup_printf (_("Not enough memory for the traveltimes of %zu nodes"), count);
  return FALSE;
}

/* The largest finite T of the result's count nodes, for the colour
 * scale; 0 where none is. */
static void
find_time_max (FrResult *result,
               size_t    count)
{
  result->time_max = 0.0f;
  for (size_t i = 0; i < count; i++)
    if (isfinite (result->time[i]) && result->time[i] > result->time_max)
      result->time_max = result->time[i];
}

/* The solver's T (doubles) as the result's floats, and its largest finite
 * value.  FALSE as alloc_time. */
gboolean
fr_result_set_time (FrResult     *result,
                    const double *time,
                    size_t        count)
{
  if (!alloc_time (result, count))
    return FALSE;
  for (size_t i = 0; i < count; i++)
    result->time[i] = (float) time[i];
  find_time_max (result, count);
  return TRUE;
}

/* A T of count nodes all unreached (+inf): a job with nothing to solve.
 * FALSE as alloc_time. */
gboolean
fr_result_set_unreached (FrResult *result,
                         size_t    count)
{
  if (!alloc_time (result, count))
    return FALSE;
  for (size_t i = 0; i < count; i++)
    result->time[i] = INFINITY;
  return TRUE;
}

FrResult *
fr_result_ref (FrResult *result)
{
  g_return_val_if_fail (result != NULL, NULL);
  return g_atomic_rc_box_acquire (result);
}

void
fr_result_unref (FrResult *result)
{
  g_return_if_fail (result != NULL);
  g_atomic_rc_box_release_full (result, result_clear);
}

/* One SPR solve of job's grid and settings from the given sources into
 * res.  FR_E_CANCELLED when cancel was raised; another status with err
 * set when the solver refused the job. */
static fr_status
solve_from (const FrJob     *job,
            const double    *sources,
            guint            n_sources,
            gboolean         keep_device_time,
            const fr_cancel *cancel,
            fr_spr_result   *res,
            fr_error        *err)
{
  fr_spr_params params;
  fr_status status;

  fr_spr_params_init (&params);
  params.rx = job->radius.x;
  params.rz = job->radius.z;
  params.backend = job->backend;
  params.threads = job->threads;
  params.cancel = cancel;
  params.keep_device_time = keep_device_time;
  status = fr_spr_solve (&job->grid, g_bytes_get_data (job->velocity, NULL), sources, n_sources,
                         &params, res, err);
  if (fr_cancel_raised (cancel))
    status = FR_E_CANCELLED;
  return status;
}

/* A ray from res to each of job's receivers: a GPtrArray of GArray of
 * double x, z pairs, empty for a receiver not reached. */
static GPtrArray *
trace_rays (const FrJob         *job,
            const fr_spr_result *res)
{
  GPtrArray *rays = g_ptr_array_new_full (job->n_receivers, (GDestroyNotify) g_array_unref);

  for (guint r = 0; r < job->n_receivers; r++)
    {
      GArray *ray = g_array_new (FALSE, FALSE, sizeof (double));
      double *xz = NULL;
      size_t n = 0;

      if (fr_spr_ray (res, job->receivers[2 * r], job->receivers[2 * r + 1], &xz, &n, NULL) == FR_OK)
        g_array_append_vals (ray, xz, 2 * n);
      free (xz);
      g_ptr_array_add (rays, ray);
    }
  return rays;
}

/* The solve of sources among job->solves_kept, or NULL. */
static FrKeptSolve *
kept_solve (const FrJob  *job,
            const double *sources,
            guint         n_sources)
{
  if (job->solves_kept == NULL)
    return NULL;
  for (guint j = 0; j < job->solves_kept->len; j++)
    {
      FrKeptSolve *solve = g_ptr_array_index (job->solves_kept, j);

      if (solve != NULL && fr_kept_solve_is_from (solve, sources, n_sources))
        return solve;
    }
  return NULL;
}

/* The bytes result's solves keep so far. */
static gsize
kept_bytes (const FrResult *result)
{
  gsize held = 0;

  for (guint j = 0; result->solves != NULL && j < result->solves->len; j++)
    {
      const FrKeptSolve *solve = g_ptr_array_index (result->solves, j);

      held += solve != NULL ? solve->bytes : 0;
    }
  return held;
}

/* res's T at each of job's receivers' nodes into times (+inf unreached),
 * in single precision as the result keeps T. */
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

/* What result says of the solve it shows: its back end and notice. */
static void
show_backend (FrResult            *result,
              const fr_spr_result *res)
{
  result->backend = g_strdup (fr_spr_backend_name (res->backend));
  if (res->notice[0] != '\0')
    result->notice = g_strdup (res->notice);
}

/* The kept solve's single-precision T as result's, shared. */
static void
share_time (FrResult    *result,
            FrKeptSolve *solve)
{
  result->time_solve = fr_kept_solve_ref (solve);
  result->time = solve->time;
  result->time_max = solve->time_max;
}

/* Fires one shot of job from sources (all of them together, or one of
 * them alone): its solve is taken from job->solves_kept where one from
 * these sources is there, else solved, adding its time to result's
 * solve_ms and one to n_shots_solved.  The solve joins result->solves
 * (NULL there where memory would not keep it, fr_kept_solve_fits).  Its
 * rays to job's receivers go to *rays and, where times is not NULL, its T
 * at them to times.  With shown, its T (shared with the kept solve, where
 * it is kept), back end and notice (and its copy in device memory, from
 * the CUDA back end) are result's.  FR_OK, or the status to hand to
 * fr_result_solve_failed with err set. */
fr_status
fr_job_fire_shot (FrJob           *job,
                  const double    *sources,
                  guint            n_sources,
                  gboolean         shown,
                  const fr_cancel *cancel,
                  FrResult        *result,
                  float           *times,
                  GPtrArray      **rays,
                  fr_error        *err)
{
  FrKeptSolve *solve = kept_solve (job, sources, n_sources);
  fr_spr_result res = { 0 };
  gpointer device_time = NULL;
  const fr_spr_result *used;
  fr_status status;

  if (result->solves == NULL)
    result->solves = g_ptr_array_new_with_free_func ((GDestroyNotify) fr_kept_solve_unref);
  if (solve != NULL)
    g_ptr_array_add (result->solves, fr_kept_solve_ref (solve));
  else
    {
      /* Only the CUDA back end keeps it: the canvas then draws T without
       * a host round trip. */
      status = solve_from (job, sources, n_sources, shown && fr_cuda_built (), cancel, &res, err);
      if (status != FR_OK)
        {
          fr_spr_result_clear (&res);
          return status;
        }
      result->solve_ms += res.solve_ms;
      result->iterations += res.iterations;
      result->n_shots_solved++;
      device_time = fr_spr_result_take_device_time (&res);
      if (fr_kept_solve_fits (kept_bytes (result), fr_kept_solve_size (&job->grid)))
        solve = fr_kept_solve_new (sources, n_sources, &res);
      /* NULL where memory would not keep it: solved again next time. */
      g_ptr_array_add (result->solves, solve);
    }
  used = solve != NULL ? &solve->res : &res;
  if (shown)
    {
      if (solve != NULL)
        share_time (result, solve);
      else if (!fr_result_set_time (result, res.time, fr_grid_count (&job->grid)))
        {
          fr_spr_device_free (device_time);
          fr_spr_result_clear (&res);
          g_strlcpy (err->message, result->error, sizeof err->message);
          return FR_E_NOMEM;
        }
      show_backend (result, used);
      result->device_time = device_time;
    }
  else
    fr_spr_device_free (device_time);
  if (times != NULL)
    receiver_times (job, used, times);
  *rays = trace_rays (job, used);
  fr_spr_result_clear (&res);
  return FR_OK;
}

/* Lets job (not yet submitted) take the solves of solved's shots instead
 * of solving again where it fires a shot from the same sources, and where
 * nothing else that makes a shot's T differs: the grid, the velocity
 * bytes (shared, so a model edit makes new ones), the radius and the back
 * end.  The receivers may differ: their rays are traced from the solve.
 * Only the solves go with the job, never solved itself, so results never
 * chain.  TRUE when at least one of job's shots will be taken. */
gboolean
fr_job_reuse_solves (FrJob    *job,
                     FrResult *solved)
{
  const FrJob *was;

  g_return_val_if_fail (job != NULL, FALSE);

  if (job->kind != FR_JOB_SPR || solved == NULL || !solved->ok || solved->solves == NULL)
    return FALSE;
  was = solved->job;
  if (was->kind != FR_JOB_SPR || !fr_model_grids_equal (&job->grid, &was->grid) ||
      job->velocity != was->velocity || !fr_radius_equal (job->radius, was->radius) ||
      job->backend != was->backend)
    return FALSE;
  g_clear_pointer (&job->solves_kept, g_ptr_array_unref);
  job->solves_kept = g_ptr_array_ref (solved->solves);
  if (fr_job_n_solves_kept (job) > 0)
    return TRUE;
  g_clear_pointer (&job->solves_kept, g_ptr_array_unref);
  return FALSE;
}

/* How many shots job fires: one per source fired alone, else one of them
 * all (none without sources). */
guint
fr_job_n_shots (const FrJob *job)
{
  g_return_val_if_fail (job != NULL, 0);

  if (job->kind != FR_JOB_SPR || job->n_sources == 0)
    return 0;
  return job->shot >= 0 ? job->n_sources : 1;
}

/* How many of job's shots it takes from solves made before. */
guint
fr_job_n_solves_kept (const FrJob *job)
{
  guint n = 0;

  g_return_val_if_fail (job != NULL, 0);

  if (job->kind != FR_JOB_SPR || job->n_sources == 0)
    return 0;
  if (job->shot < 0)
    return kept_solve (job, job->sources, job->n_sources) != NULL;
  for (guint k = 0; k < job->n_sources; k++)
    n += kept_solve (job, job->sources + 2 * k, 1) != NULL;
  return n;
}

/* Whether job takes every shot from solves made before, solving none. */
gboolean
fr_job_reuses_solve (const FrJob *job)
{
  g_return_val_if_fail (job != NULL, FALSE);

  return fr_job_n_shots (job) > 0 && fr_job_n_solves_kept (job) == fr_job_n_shots (job);
}

/* The result of a solve that did not finish: NULL with *cancelled set
 * when it was cancelled, else result, not ok, with the solver's message. */
FrResult *
fr_result_solve_failed (FrResult       *result,
                        fr_status       status,
                        const fr_error *err,
                        gboolean       *cancelled)
{
  if (status == FR_E_CANCELLED)
    {
      fr_result_unref (result);
      if (cancelled != NULL)
        *cancelled = TRUE;
      return NULL;
    }
  result->ok = FALSE;
  g_free (result->error);
  result->error = g_strdup (err->message[0] ? err->message : fr_status_name (status));
  return result;
}

/* Runs the SPR solve and traces a ray to every receiver; where each source
 * is a shot of its own (job->shot >= 0), fr_shot_job_run's solve of every
 * shot.  Blocking: call it from the solver thread.  Returns NULL with
 * *cancelled set when cancel was raised; otherwise a result, which says
 * !ok with a message when the solver refused the job. */
FrResult *
fr_job_run (FrJob           *job,
            const fr_cancel *cancel,
            gboolean        *cancelled)
{
  g_autoptr(FrResult) result = NULL;
  GPtrArray *rays = NULL;
  fr_error err = { 0 };
  fr_status status;

  g_return_val_if_fail (job != NULL, NULL);

  if (job->kind == FR_JOB_FOLD)
    return fr_fold_job_run (job, cancel, cancelled);

  if (cancelled != NULL)
    *cancelled = FALSE;

  result = fr_result_new (job);

  if (job->n_sources == 0)
    {
      /* Nothing to trace: an all-unreached field, drawn as "no source". */
      if (!fr_result_set_unreached (result, fr_grid_count (&job->grid)))
        return g_steal_pointer (&result);
      result->ok = TRUE;
      result->backend = g_strdup (fr_spr_backend_name (job->backend));
      for (guint r = 0; r < job->n_receivers; r++)
        g_ptr_array_add (result->rays, g_array_new (FALSE, FALSE, sizeof (double)));
      return g_steal_pointer (&result);
    }
  if (job->shot >= 0)
    return fr_shot_job_run (job, cancel, cancelled);

  status = fr_job_fire_shot (job, job->sources, job->n_sources, TRUE, cancel, result, NULL, &rays, &err);
  if (status != FR_OK)
    return fr_result_solve_failed (g_steal_pointer (&result), status, &err, cancelled);
  g_ptr_array_unref (result->rays);
  result->rays = g_steal_pointer (&rays);
  result->ok = TRUE;
  return g_steal_pointer (&result);
}
