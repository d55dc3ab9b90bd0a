/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-fold-job"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "fr-contour.h"
#include "fr-export.h"
#include "fr-message.h"
#include "fr-scene-file.h"
#include "fr-vtk.h"
#include "fr-fold-job.h"
#include "fr-kept-solve.h"

/* A fold job over a 2D grid; the velocity bytes are shared (they are F
 * when fold->speed_from_grid, and tie the result to its model), the
 * horizon and ray points copied.  The serial is set by the solver thread. */
FrJob *
fr_fold_job_new (const fr_grid   *grid,
                 GBytes          *velocity,
                 const FrFoldJob *fold,
                 const double    *ray_points,
                 guint            n_ray_points)
{
  FrJob *job;

  g_return_val_if_fail (fold != NULL, NULL);
  g_return_val_if_fail (fold->n_horizon == 0 || fold->horizon != NULL, NULL);

  job = fr_job_new (grid, velocity, NULL, 0, ray_points, n_ray_points, fr_radius_square (1),
                    FR_SPR_AUTO);
  if (job == NULL)
    return NULL;
  job->kind = FR_JOB_FOLD;
  job->fold = *fold;
  job->fold.horizon = g_memdup2 (fold->horizon, sizeof (double) * 2 * fold->n_horizon);
  job->fold.speed = fold->speed != NULL ? g_bytes_ref (fold->speed) : NULL;
  job->fold.speed_error = g_strdup (fold->speed_error);
  job->fold.solved = NULL;
  return job;
}

/* Whether n x, z pairs are the same; none are whatever the pointers (a
 * job without receivers holds NULL, which memcmp may not be given). */
static gboolean
same_points (const double *a,
             const double *b,
             guint         n)
{
  return n == 0 || memcmp (a, b, sizeof (double) * 2 * n) == 0;
}

/* Whether jobs a and b solve for the same T: the same grid, velocity
 * bytes (shared, so a model edit makes new ones), speed, ψa, method, back
 * end and horizon.  Δ, Count, the characteristics' start points and the
 * threads may differ: the folded horizons are only T's contours, and the
 * characteristics are traced through it. */
static gboolean
same_solve (const FrJob *a,
            const FrJob *b)
{
  const FrFoldJob *fa = &a->fold, *fb = &b->fold;

  return a->grid.ndim == b->grid.ndim && a->grid.nx == b->grid.nx && a->grid.ny == b->grid.ny &&
         a->grid.nz == b->grid.nz && a->grid.dx == b->grid.dx && a->grid.dy == b->grid.dy &&
         a->grid.dz == b->grid.dz && a->grid.x0 == b->grid.x0 && a->grid.y0 == b->grid.y0 &&
         a->grid.z0 == b->grid.z0 && a->velocity == b->velocity &&
         fa->speed_from_grid == fb->speed_from_grid && fa->speed_const == fb->speed_const &&
         fa->psi_a[0] == fb->psi_a[0] && fa->psi_a[1] == fb->psi_a[1] &&
         fa->method == fb->method && fa->backend == fb->backend &&
         fa->n_horizon == fb->n_horizon &&
         same_points (fa->horizon, fb->horizon, fa->n_horizon);
}

/* Whether jobs a and b trace characteristics from the same points. */
static gboolean
same_ray_points (const FrJob *a,
                 const FrJob *b)
{
  return a->n_receivers == b->n_receivers && same_points (a->receivers, b->receivers, a->n_receivers);
}

/* Lets job (not yet submitted) take its T from solved, a fold result,
 * when only Δ, Count or the characteristics' start points tell them
 * apart: it then contours that T again, and traces its characteristics
 * from the solve kept whole (FrResult.kept_fold) where their points
 * differ, instead of solving, which on a large grid is most of the time.
 * Points that differ need the solve kept.  TRUE when it will. */
gboolean
fr_fold_job_reuse (FrJob    *job,
                   FrResult *solved)
{
  g_return_val_if_fail (job != NULL && job->kind == FR_JOB_FOLD, FALSE);

  if (solved == NULL || solved->job->kind != FR_JOB_FOLD)
    return FALSE;
  /* The solve itself, so that reused results never chain. */
  if (solved->job->fold.solved != NULL)
    solved = solved->job->fold.solved;
  if (!solved->ok || solved->time == NULL || job->fold.n_horizon < 2 ||
      !same_solve (job, solved->job) ||
      (solved->kept_fold == NULL && !same_ray_points (job, solved->job)))
    return FALSE;
  g_clear_pointer (&job->fold.solved, fr_result_unref);
  job->fold.solved = fr_result_ref (solved);
  return TRUE;
}

/* Whether job contours a solved T again rather than solving: a solver
 * thread's debugging delay, meant for solves, skips it. */
gboolean
fr_fold_job_reuses_solve (const FrJob *job)
{
  g_return_val_if_fail (job != NULL, FALSE);
  return job->kind == FR_JOB_FOLD && job->fold.solved != NULL;
}

/* Traces the folded horizons T = k·delta, k = 1..count, of result's T
 * into result->horizons (replacing any).  FALSE when tracing failed:
 * result->horizons_error then says why (the tracer's message, in the
 * app's language where it has one), and T stays for the isochrons. */
gboolean
fr_fold_trace_horizons (FrResult *result,
                        double    delta,
                        int       count)
{
  g_autofree double *levels = NULL;
  fr_contour_set set = { 0 };
  fr_error err = { 0 };
  fr_status status;

  g_return_val_if_fail (result != NULL, FALSE);

  g_clear_pointer (&result->horizons, g_ptr_array_unref);
  g_clear_pointer (&result->horizon_levels, g_array_unref);
  g_clear_pointer (&result->horizons_error, g_free);
  result->horizons = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  result->horizon_levels = g_array_new (FALSE, FALSE, sizeof (int));
  if (result->time == NULL || !(delta > 0.0) || count <= 0)
    return TRUE;

  levels = g_new (double, count);
  for (int k = 0; k < count; k++)
    levels[k] = (k + 1) * delta;
  status = fr_contour_trace (&result->job->grid, result->time, levels, count, &set, &err);
  if (status != FR_OK)
    {
      result->horizons_error = g_strdup (err.message[0] ? err.message : fr_status_name (status));
      fr_contour_set_clear (&set);
      return FALSE;
    }
  for (size_t i = 0; i < set.nlines; i++)
    {
      GArray *line = g_array_sized_new (FALSE, FALSE, sizeof (double),
                                        2 * (set.start[i + 1] - set.start[i]));
      int k = set.level[i] + 1;

      g_array_append_vals (line, &set.xz[2 * set.start[i]], 2 * (set.start[i + 1] - set.start[i]));
      g_ptr_array_add (result->horizons, line);
      g_array_append_val (result->horizon_levels, k);
    }
  fr_contour_set_clear (&set);
  return TRUE;
}

/* The status line of a fold result whose folded horizons could not be
 * traced, saying why; NULL when they were (or none were asked for). */
char *
fr_fold_result_horizons_failure (const FrResult *result)
{
  g_return_val_if_fail (result != NULL, NULL);

  if (result->horizons_error == NULL)
    return NULL;
  /* Translators: the status bar in Folds mode when T was solved (the
   * isochrons show) but its level sets could not be traced; %s says why,
   * e.g. "out of memory tracing contours". */
  return g_strdup_printf (_("The folded horizons could not be drawn: %s"), result->horizons_error);
}

/* The end of a fold job's run, solved or contoured again: NULL with
 * *cancelled set when cancel was raised, else result (taken) with the
 * folded horizons of the job's Δ and Count traced. */
static FrResult *
finish_result (FrResult        *result,
               const fr_cancel *cancel,
               gboolean        *cancelled)
{
  if (fr_cancel_raised (cancel))
    {
      if (cancelled != NULL)
        *cancelled = TRUE;
      fr_result_unref (result);
      return NULL;
    }
  fr_fold_trace_horizons (result, result->job->fold.delta, result->job->fold.count);
  result->ok = TRUE;
  return result;
}

/* The characteristic from each of job's points back to the horizon,
 * through res: a GArray of x, z pairs each, empty where none reaches the
 * point. */
static GPtrArray *
trace_characteristics (const FrJob          *job,
                       const fr_fold_result *res)
{
  GPtrArray *rays = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint r = 0; r < job->n_receivers; r++)
    {
      GArray *ray = g_array_new (FALSE, FALSE, sizeof (double));
      double *xz = NULL;
      size_t n = 0;

      if (fr_fold_ray (res, &job->receivers[2 * r], &xz, &n, NULL) == FR_OK)
        g_array_append_vals (ray, xz, 2 * n);
      free (xz);
      g_ptr_array_add (rays, ray);
    }
  return rays;
}

/* A reusing job's run: the solve's T (shared, not copied: a result
 * holds no more memory than its horizons), figures and characteristics,
 * traced again from the solve kept where the points moved, and its own
 * folded horizons.  The device copy of T stays the solve's, so the
 * canvas uploads the host one. */
static FrResult *
fold_job_recontour (FrJob           *job,
                    const fr_cancel *cancel,
                    gboolean        *cancelled)
{
  g_autoptr(FrResult) result = fr_result_new (job);
  FrResult *solved = job->fold.solved;

  result->time_owner = fr_result_ref (solved);
  result->time = solved->time;
  result->time_max = solved->time_max;
  result->backend = g_strdup (solved->backend);
  result->method = g_strdup (solved->method);
  result->solve_ms = solved->solve_ms;
  result->iterations = solved->iterations;
  result->notice = g_strdup (solved->notice);
  if (same_ray_points (job, solved->job))
    for (guint r = 0; r < solved->rays->len; r++)
      g_ptr_array_add (result->rays, g_array_ref (g_ptr_array_index (solved->rays, r)));
  else
    {
      g_ptr_array_unref (result->rays);
      result->rays = trace_characteristics (job, &solved->kept_fold->res);
    }
  return finish_result (g_steal_pointer (&result), cancel, cancelled);
}

/* Runs a fold job in the solver thread: NULL with *cancelled set when
 * cancel was raised, else a result (!ok with a message on bad input).
 * A job given a solved result by fr_fold_job_reuse only contours its T. */
FrResult *
fr_fold_job_run (FrJob           *job,
                 const fr_cancel *cancel,
                 gboolean        *cancelled)
{
  g_autoptr(FrResult) result = NULL;
  fr_fold_params params;
  fr_fold_start start = { 0 };
  fr_fold_result res = { 0 };
  fr_error err = { 0 };
  fr_status status;
  size_t count;

  g_return_val_if_fail (job != NULL && job->kind == FR_JOB_FOLD, NULL);

  if (cancelled != NULL)
    *cancelled = FALSE;
  if (job->fold.solved != NULL)
    return fold_job_recontour (job, cancel, cancelled);
  result = fr_result_new (job);
  count = fr_grid_count (&job->grid);

  if (job->fold.n_horizon < 2)
    {
      /* No horizon yet: nothing folds; drawn as an empty field. */
      if (!fr_result_set_unreached (result, count))
        return g_steal_pointer (&result);
      result->ok = TRUE;
      result->backend = g_strdup (fr_fold_backend_name (job->fold.backend));
      for (guint r = 0; r < job->n_receivers; r++)
        g_ptr_array_add (result->rays, g_array_new (FALSE, FALSE, sizeof (double)));
      fr_fold_trace_horizons (result, 0.0, 0);
      return g_steal_pointer (&result);
    }

  if (job->fold.speed_error != NULL)
    {
      result->ok = FALSE;
      result->error = g_strdup (job->fold.speed_error);
      return g_steal_pointer (&result);
    }

  fr_fold_params_init (&params);
  /* A constant F goes round the model's impermeable obstacles too. */
  params.speed = job->fold.speed_from_grid ? g_bytes_get_data (job->velocity, NULL)
                 : job->fold.speed != NULL ? g_bytes_get_data (job->fold.speed, NULL) : NULL;
  params.speed_const = job->fold.speed_const;
  params.psi_a[0] = job->fold.psi_a[0];
  params.psi_a[2] = job->fold.psi_a[1];
  params.method = job->fold.method;
  params.backend = job->fold.backend;
  params.threads = job->threads;
  params.cancel = cancel;
  /* As for rays: a CUDA solve leaves T on the device for the canvas. */
  params.keep_device_time = fr_cuda_built ();
  start.horizon = job->fold.horizon;
  start.nhorizon = job->fold.n_horizon;

  status = fr_fold_solve (&job->grid, &start, &params, &res, &err);
  if (status == FR_E_CANCELLED || fr_cancel_raised (cancel))
    {
      fr_fold_result_clear (&res);
      if (cancelled != NULL)
        *cancelled = TRUE;
      return NULL;
    }
  if (status != FR_OK)
    {
      fr_fold_result_clear (&res);
      result->ok = FALSE;
      result->error = g_strdup (err.message[0] ? err.message : fr_status_name (status));
      return g_steal_pointer (&result);
    }

  if (!fr_result_set_time (result, res.time, count))
    {
      fr_fold_result_clear (&res);
      return g_steal_pointer (&result);
    }
  result->device_time = fr_fold_result_take_device_time (&res);
  result->backend = g_strdup (fr_fold_backend_name (res.backend));
  result->method = g_strdup (fr_fold_method_name (res.method));
  result->solve_ms = res.solve_ms;
  result->iterations = res.iterations;
  if (res.notice[0] != '\0')
    result->notice = g_strdup (res.notice);

  g_ptr_array_unref (result->rays);
  result->rays = trace_characteristics (job, &res);
  /* Kept whole where memory allows: a point added or moved is then traced
   * from it without solving (fr_fold_job_reuse). */
  if (fr_kept_solve_fits (0, fr_kept_fold_size (&job->grid)))
    result->kept_fold = fr_kept_fold_new (&res);
  fr_fold_result_clear (&res);

  return finish_result (g_steal_pointer (&result), cancel, cancelled);
}

/* Writes result's folded horizons as CSV (a header `horizon,k,T,x,z`,
 * then each horizon's points in order) or as VTK PolyData (.vtp), both
 * atomically. */
gboolean
fr_fold_result_write_horizons (FrResult    *result,
                               gboolean     vtp,
                               const char  *path,
                               GError     **error)
{
  guint n;

  g_return_val_if_fail (path != NULL, FALSE);

  if (result == NULL || !result->ok || result->horizons == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("There are no folded horizons to export: switch to Folds mode and draw a horizon"));
      return FALSE;
    }
  n = result->horizons->len;
  if (vtp)
    {
      g_autofree const double **pts = g_new0 (const double *, MAX (n, 1));
      g_autofree size_t *npts = g_new0 (size_t, MAX (n, 1));
      g_autofree double *k = g_new0 (double, MAX (n, 1));
      g_autofree double *t = g_new0 (double, MAX (n, 1));
      fr_error err = { 0 };

      for (guint i = 0; i < n; i++)
        {
          GArray *line = g_ptr_array_index (result->horizons, i);

          pts[i] = (const double *) line->data;
          npts[i] = line->len / 2;
          /* The CSV's k and T, so that ParaView colours by level. */
          k[i] = g_array_index (result->horizon_levels, int, i);
          t[i] = k[i] * result->job->fold.delta;
        }
      const fr_vtk_line_field fields[] = { { "k", k }, { "T", t } };
      if (fr_vtk_write_polylines_data (path, 2, pts, npts, n, "horizon", fields,
                                       G_N_ELEMENTS (fields), &err) != FR_OK)
        {
          /* UTF-8, as a GError's message must be, whatever the file's name. */
          fr_message_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, err.message);
          return FALSE;
        }
      return TRUE;
    }
  else
    {
      g_autoptr(GString) csv = g_string_new ("horizon,k,T,x,z\n");

      for (guint i = 0; i < n; i++)
        {
          GArray *line = g_ptr_array_index (result->horizons, i);
          int k = g_array_index (result->horizon_levels, int, i);
          char t[G_ASCII_DTOSTR_BUF_SIZE], x[G_ASCII_DTOSTR_BUF_SIZE], z[G_ASCII_DTOSTR_BUF_SIZE];

          /* T is the level the user set, k·Δ: 15 digits give 0.7 for
           * 7 × 0.1, not 0.70000000000000007. */
          g_ascii_formatd (t, sizeof t, "%.15g", k * result->job->fold.delta);
          for (guint p = 0; p + 1 < line->len; p += 2)
            g_string_append_printf (csv, "%u,%d,%s,%s,%s\n", i, k, t,
                                    fr_format_shortest (x, g_array_index (line, double, p)),
                                    fr_format_shortest (z, g_array_index (line, double, p + 1)));
        }
      return fr_export_write_file (path, csv->str, csv->len, error);
    }
}
