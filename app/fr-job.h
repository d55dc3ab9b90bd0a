/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A solve job: an immutable, refcounted snapshot of everything a solve
 * needs (grid, velocity, sources, receivers, settings), and its result.
 * The solver thread reads jobs and writes results; neither changes after
 * it is handed over, so both threads may hold them without locks. */
#pragma once

#include <glib-object.h>

#include "fr-cancel.h"
#include "fr-grid.h"
#include "fr-fold.h"
#include "fr-spr.h"
#include "fr-radius.h"

G_BEGIN_DECLS

typedef enum
{
  FR_JOB_SPR = 0,                /* traveltimes and rays by shortest paths */
  FR_JOB_FOLD,                   /* folded horizons: fr-fold-job.c */
} FrJobKind;

/* What a fold job adds (fr-fold-job.h makes them). */
typedef struct
{
  gboolean        speed_from_grid; /* F = the velocity grid, else speed_const */
  double          speed_const;
  GBytes         *speed;           /* a constant F over a model with impermeable obstacles:
                                    * F, and 0 in them (fr_model_constant_speed), shared;
                                    * NULL: speed_const everywhere, or the velocity grid */
  char           *speed_error;     /* why that grid could not be made (the solve fails
                                    * with it), or NULL */
  double          psi_a[2];        /* x, z */
  fr_fold_method  method;
  fr_fold_backend backend;
  double         *horizon;         /* 2·n_horizon model x, z */
  guint           n_horizon;
  double          delta;           /* T between folded horizons */
  int             count;           /* folded horizons on each side */
  struct _FrResult *solved;        /* a result of the same solve inputs (fr_fold_job_reuse):
                                    * its T is contoured again, not solved; or NULL */
} FrFoldJob;

typedef struct _FrJob
{
  guint           serial;        /* increases with every job submitted */
  fr_grid         grid;
  GBytes         *velocity;      /* nx·nz float32, shared between jobs */
  double         *sources;       /* 2·n_sources model x, z */
  guint           n_sources;
  gint            shot;          /* -1: the sources fire together, one shot; else each
                                  * source is a shot of its own, solved alone, and the
                                  * result's T and rays are source shot's */
  GPtrArray      *solves_kept;   /* the solves of an earlier result over the same grid,
                                  * velocity, radius and back end (fr_job_reuse_solves):
                                  * each FrKeptSolve (or NULL) is taken for a shot fired
                                  * from its sources again rather than solved; or NULL */
  double         *receivers;     /* 2·n_receivers */
  guint           n_receivers;
  FrRadius        radius;        /* SPR neighbourhood, nodes along x and z */
  fr_spr_backend  backend;
  int             threads;       /* CPU threads for the solve, 0: OpenMP's default */
  gint64          input_time;    /* g_get_monotonic_time of the input that made it, or 0 */
  guint64         input_seq;     /* the last input event folded into it, for latency */
  FrJobKind       kind;
  FrFoldJob       fold;          /* kind == FR_JOB_FOLD; receivers are ray start points */
} FrJob;

typedef struct _FrResult
{
  FrJob          *job;
  guint           serial;        /* = job->serial */
  gboolean        ok;
  char           *error;         /* when !ok */
  float          *time;          /* nx·nz traveltimes, +inf where unreached */
  gpointer        device_time;   /* the same T in CUDA device memory when the CUDA back end
                                  * ran (fr_spr_result or fr_fold_result .device_time), else NULL: the canvas
                                  * draws it through CUDA–GL interop */
  float           time_max;      /* largest finite traveltime */
  GPtrArray      *rays;          /* per receiver: GArray of double x, z pairs (may be empty) */
  struct _FrShots *shots;        /* job->shot >= 0: every source's shot (fr-shot-job.h),
                                  * else NULL */
  GPtrArray      *solves;        /* the solve of each shot (one with the sources together),
                                  * kept for the next job: FrKeptSolve, or NULL where memory
                                  * would not keep it (fr-kept-solve.h) */
  guint           n_shots_solved;/* how many shots this job solved, the others taken from
                                  * job->solves_kept; solve_ms is their time */
  char           *backend;       /* the back end that ran */
  double          solve_ms;
  long            iterations;
  char           *notice;        /* e.g. a CUDA fallback; NULL when none */
  GPtrArray      *horizons;      /* fold: GArray of double x, z per folded horizon, or NULL */
  GArray         *horizon_levels;/* fold: int k per horizon (T = k·delta) */
  char           *horizons_error;/* fold: why the horizons could not be traced (T kept), or NULL */
  char           *method;        /* fold: the method that ran */
  struct _FrResult *time_owner;  /* the result whose time this one shares (a fold contoured
                                  * again, fr-fold-job.c), held; NULL: time is its own */
  struct _FrKeptSolve *time_solve;/* the kept solve whose single-precision T this result shows,
                                  * shared, held (fr-kept-solve.h); NULL: time is its own or
                                  * time_owner's */
  struct _FrKeptFold *kept_fold; /* fold, solved here: the solve whole, so that a job of other
                                  * characteristics' points traces them from it; or NULL
                                  * (memory, fr-kept-solve.h) */
} FrResult;

#define FR_TYPE_JOB    (fr_job_get_type ())
#define FR_TYPE_RESULT (fr_result_get_type ())

GType     fr_job_get_type    (void) G_GNUC_CONST;
GType     fr_result_get_type (void) G_GNUC_CONST;

FrJob    *fr_job_new         (const fr_grid  *grid,
                              GBytes         *velocity,
                              const double   *sources,
                              guint           n_sources,
                              const double   *receivers,
                              guint           n_receivers,
                              FrRadius        radius,
                              fr_spr_backend  backend);
FrJob    *fr_job_ref         (FrJob          *job);
void      fr_job_unref       (FrJob          *job);
FrResult *fr_job_run         (FrJob          *job,
                              const fr_cancel *cancel,
                              gboolean       *cancelled);

gboolean  fr_job_reuse_solves (FrJob       *job,
                                FrResult    *solved);
guint     fr_job_n_shots     (const FrJob    *job);
guint     fr_job_n_solves_kept (const FrJob  *job);
gboolean  fr_job_reuses_solve (const FrJob   *job);

/* For the job runners (fr-job.c, fr-shot-job.c). */
fr_status fr_job_fire_shot   (FrJob          *job,
                              const double   *sources,
                              guint           n_sources,
                              gboolean        shown,
                              const fr_cancel *cancel,
                              FrResult       *result,
                              float          *times,
                              GPtrArray     **rays,
                              fr_error       *err);

FrResult *fr_result_new      (FrJob          *job);
FrResult *fr_result_solve_failed (FrResult   *result,
                                  fr_status   status,
                                  const fr_error *err,
                                  gboolean   *cancelled);
gboolean  fr_result_set_time (FrResult       *result,
                              const double   *time,
                              size_t          count);
gboolean  fr_result_set_unreached (FrResult  *result,
                                   size_t     count);
FrResult *fr_result_ref      (FrResult       *result);
void      fr_result_unref    (FrResult       *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FrJob, fr_job_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FrResult, fr_result_unref)

G_END_DECLS
