/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fold jobs: the FR_JOB_FOLD kind of FrJob.  A snapshot of the speed (a
 * constant or the scene's velocity grid), ψa, the starting horizon and the
 * ray start points; run in the solver thread, it solves
 * F|∇T| + ψa·∇T = 1 from the horizon, traces the characteristics and the
 * folded horizons T = k·Δ (solver/fr-contour.h).  A job that differs from
 * an earlier one only in Δ, Count or the characteristics' points contours
 * that one's T again, and traces the characteristics from its solve kept
 * whole (fr-kept-solve.h), instead (fr_fold_job_reuse). */
#pragma once

#include "fr-job.h"

G_BEGIN_DECLS

FrJob    *fr_fold_job_new (const fr_grid    *grid,
                           GBytes           *velocity,
                           const FrFoldJob  *fold,
                           const double     *ray_points,
                           guint             n_ray_points);
gboolean  fr_fold_job_reuse (FrJob          *job,
                             FrResult       *solved);
gboolean  fr_fold_job_reuses_solve (const FrJob *job);
FrResult *fr_fold_job_run (FrJob            *job,
                           const fr_cancel  *cancel,
                           gboolean         *cancelled);
gboolean  fr_fold_trace_horizons (FrResult  *result,
                                  double     delta,
                                  int        count);
char     *fr_fold_result_horizons_failure (const FrResult *result);
gboolean  fr_fold_result_write_horizons (FrResult    *result,
                                         gboolean     vtp,
                                         const char  *path,
                                         GError     **error);

G_END_DECLS
