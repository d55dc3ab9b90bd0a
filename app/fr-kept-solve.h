/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Finished solves kept whole, so that what is traced from a solve (rays,
 * arrival times, characteristics) follows the points it is traced to
 * without solving again.
 *
 * A finished SPR solve kept whole, with the sources it was solved from:
 * its T in double, the predecessors and what the rays are traced with
 * (fr_spr_result).  A result keeps the solve of each of its shots
 * (FrResult.solves), and the next job over the same grid, velocity, radius
 * and back end takes each solve whose sources it fires again
 * (fr_job_reuse_solves) instead of solving: receivers moved get their rays
 * traced from it, another shot selected is shown from it, and a source
 * dragged among shots fired one at a time solves its own shot alone.
 * Refcounted and never changed once made, so results and the jobs that
 * take it from them share it across threads. */
#pragma once

#include <glib.h>

#include "fr-fold.h"
#include "fr-spr.h"

G_BEGIN_DECLS

/* The most the solves of one result keep; past it (or past what memory
 * allows, fr_kept_solve_fits) a shot is solved again each time. */
#define FR_KEPT_SOLVES_MAX_BYTES ((gsize) 256 << 20)

typedef struct _FrKeptSolve
{
  double        *sources;     /* 2·n_sources: the x, z it was solved from */
  guint          n_sources;
  fr_spr_result  res;         /* never with device_time: the result shown took it */
  float         *time;        /* res.time in single precision, as a result shows it: every
                               * result that shows this shot shares it (FrResult.time_solve),
                               * so the canvas need not upload it again */
  float          time_max;    /* its largest finite value, 0 where none */
  gsize          bytes;       /* what it holds (fr_kept_solve_size) */
} FrKeptSolve;

gsize        fr_kept_solve_size  (const fr_grid  *grid);
gboolean     fr_kept_solve_fits  (gsize           held,
                                  gsize           bytes);
FrKeptSolve *fr_kept_solve_new   (const double   *sources,
                                  guint           n_sources,
                                  fr_spr_result  *res);
FrKeptSolve *fr_kept_solve_ref   (FrKeptSolve    *solve);
void         fr_kept_solve_unref (FrKeptSolve    *solve);
gboolean     fr_kept_solve_is_from (const FrKeptSolve *solve,
                                    const double   *sources,
                                    guint           n_sources);

/* A fold solve kept whole: T in double and what its characteristics are
 * traced with (fr_fold_result).  The solved result holds it
 * (FrResult.kept_fold), and a fold job that differs from that solve only
 * in Δ, Count or the characteristics' start points traces them from it
 * instead of solving (fr_fold_job_reuse).  Never changed once made. */
typedef struct _FrKeptFold
{
  fr_fold_result res;         /* never with device_time: the result took it */
  gsize          bytes;       /* what it holds (fr_kept_fold_size) */
} FrKeptFold;

gsize        fr_kept_fold_size   (const fr_grid  *grid);
FrKeptFold  *fr_kept_fold_new    (fr_fold_result *res);
void         fr_kept_fold_unref  (FrKeptFold     *fold);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FrKeptSolve, fr_kept_solve_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FrKeptFold, fr_kept_fold_unref)

G_END_DECLS
