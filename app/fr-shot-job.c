/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-shot-job"

#include "config.h"

#include <string.h>

#include "fr-shot-job.h"

static void
shots_clear (gpointer data)
{
  FrShots *shots = data;

  g_free (shots->sources);
  g_free (shots->times);
  g_clear_pointer (&shots->rays, g_ptr_array_unref);
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

/* Empty shots of job's sources and receivers, to be filled shot by shot. */
static FrShots *
shots_new (const FrJob *job)
{
  FrShots *shots = g_atomic_rc_box_new0 (FrShots);

  shots->n = job->n_sources;
  shots->sources = g_memdup2 (job->sources, sizeof (double) * 2 * job->n_sources);
  shots->n_receivers = job->n_receivers;
  shots->times = g_new (float, (gsize) shots->n * MAX (job->n_receivers, 1));
  shots->rays = g_ptr_array_new_full (shots->n, (GDestroyNotify) g_ptr_array_unref);
  return shots;
}

/* Every shot of job: each source fired alone (fr_job_fire_shot: its solve
 * taken from job->solves_kept where its source has not moved, else
 * solved), the shot shown's T and rays as the result's.  result->solve_ms
 * is the time of the shots solved here, result->n_shots_solved their
 * count.  As fr_job_run, which calls it. */
FrResult *
fr_shot_job_run (FrJob           *job,
                 const fr_cancel *cancel,
                 gboolean        *cancelled)
{
  g_autoptr(FrResult) result = NULL;
  g_autoptr(FrShots) shots = NULL;
  fr_error err = { 0 };

  g_return_val_if_fail (job != NULL && job->shot >= 0 && (guint) job->shot < job->n_sources, NULL);

  if (cancelled != NULL)
    *cancelled = FALSE;
  result = fr_result_new (job);
  shots = shots_new (job);
  for (guint k = 0; k < shots->n; k++)
    {
      const gboolean shown = k == (guint) job->shot;
      GPtrArray *rays = NULL;
      fr_status status;

      status = fr_job_fire_shot (job, job->sources + 2 * k, 1, shown, cancel, result,
                                 shots->times + (gsize) k * job->n_receivers, &rays, &err);
      if (status != FR_OK)
        return fr_result_solve_failed (g_steal_pointer (&result), status, &err, cancelled);
      if (shown)
        {
          g_ptr_array_unref (result->rays);
          result->rays = g_ptr_array_ref (rays);
        }
      g_ptr_array_add (shots->rays, rays);
    }
  result->shots = g_steal_pointer (&shots);
  result->ok = TRUE;
  return g_steal_pointer (&result);
}
