/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Front propagation for geological folds (CONTRACT.md, "Fold / front
 * propagation"): solves
 *
 *     F |∇T| + ψa·∇T = 1
 *
 * on a 2D or 3D grid, with speed F >= 0 per node (0 = impermeable) or a
 * constant, and a constant anisotropy vector ψa with |ψa| < F wherever F > 0.
 * The front moves with velocity F·n + ψa (n = ∇T/|∇T|): from a point source
 * it grows as a sphere of radius F·t centred at s + ψa·t.
 *
 * The CPU back end is LAS or SOLAS (Gillberg, Bruaset, Hjelle & Sourouri
 * 2014): the grid is cut into b^d-node subdomains with ghost nodes, solved
 * by sweeps of the parallel marching method, in schedules of active
 * subdomains, with OpenMP. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fr-cancel.h"
#include "fr-grid.h"
#include "fr-status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fr_fold_method {
  FR_FOLD_METHOD_AUTO = 0,  /* the faster of the two by our measurements: SOLAS, but LAS
                               for 2D on the GPU (fold.c, resolve_method) */
  FR_FOLD_LAS,              /* every active subdomain in each schedule */
  FR_FOLD_SOLAS,            /* only the earliest active subdomains: semi-ordered */
} fr_fold_method;

typedef enum fr_fold_backend {
  FR_FOLD_BACKEND_AUTO = 0, /* CUDA when built in, present and the grids fit, else the CPU */
  FR_FOLD_CPU,
  FR_FOLD_CUDA,             /* the GPU (fold-cuda.cu); falls back to the CPU with a notice
                               when there is no device or the grids do not fit */
} fr_fold_backend;

typedef struct fr_fold_params {
  const float *speed;       /* nx·ny·nz speeds (grid order), or NULL to use speed_const */
  double speed_const;       /* used when speed is NULL; must be > 0 */
  double psi_a[3];          /* ψa in x, y, z (y ignored in 2D) */
  fr_fold_method method;
  fr_fold_backend backend;
  int block;                /* subdomain edge b in nodes, 0: the back end's default
                               (CPU: 32 in 2D, 8 in 3D; CUDA: see fold-cuda.cu) */
  bool double_precision;    /* store T in double (default single; single precision also
                               computes each node's update in float) */
  int threads;              /* 0: OpenMP's default */
  double source_radius;     /* model units; <= 0: 5% of the grid's smallest extent,
                               at least 1.5 spacings.  Nodes this near a source start
                               from the exact time for its cell's speed, or, where the
                               speed varies within reach, from the time along the
                               straight segment (fold-init.c) */
  const fr_cancel *cancel;  /* optional: once raised, the solve stops with FR_E_CANCELLED */
  bool keep_device_time;    /* cuda, 2D: also keep T on the device (fr_fold_result.device_time) */
} fr_fold_params;

/* Defaults: speed constant 1, ψa = 0, automatic method and back end, single
 * precision, default block and threads. */
void fr_fold_params_init (fr_fold_params *p);

/* Where the front starts.  At least one of the three must be given. */
typedef struct fr_fold_start {
  const double *sources;    /* nsrc points, ndim coordinates each (x,z or x,y,z), any
                               position inside the grid, not inside an obstacle */
  size_t nsrc;
  const double *boundary;   /* nx·ny·nz: finite = fixed start value, NaN = free; or NULL */
  const double *horizon;    /* 2D only: a polyline of nhorizon points (x, z), >= 2 */
  size_t nhorizon;
} fr_fold_start;

typedef struct fr_fold_trace fr_fold_trace;   /* what rays need; private */

typedef struct fr_fold_result {
  fr_grid grid;
  double *time;               /* nx·ny·nz traveltimes, +inf where unreached */
  fr_fold_backend backend;    /* the back end that ran (never AUTO) */
  fr_fold_method method;      /* the method that ran (never AUTO) */
  bool double_precision;
  int block;                  /* subdomain edge used */
  int threads;                /* CPU threads used (0 on the GPU) */
  double solve_ms;            /* start values and solve, with the GPU's transfers; no file I/O */
  /* Parts of solve_ms, so that a slow call can be told from a slow solve:
   * start_ms the start values on the host (both back ends); with cuda,
   * setup_ms the device memory, the constants and the inputs' upload
   * before the first kernel, and results_ms T's way back to the host
   * (copies and widening to doubles) after the device is done.  The rest,
   * at least device_ms, is the device loop.  0 on the CPU. */
  double start_ms, setup_ms, results_ms;
  long iterations;            /* passes over a schedule */
  long schedules;             /* schedules built */
  uint64_t subdomain_sweeps;  /* PMM sweeps of one subdomain, summed */
  size_t subdomains;          /* subdomains holding at least one node to solve */
  long host_round_trips;      /* cuda: times the host waited for the device */
  double device_ms;           /* cuda: the solve on the device alone (CUDA events, from the
                                 start values on the device to T gathered there), without
                                 the host's preparation and the transfers; 0 on the CPU */
  char notice[256];           /* e.g. why auto took the CPU; empty when nothing to say */
  fr_fold_trace *trace;       /* owned; freed by fr_fold_result_clear */
  /* With keep_device_time, when the CUDA back end ran a 2D solve: T as nx·nz
   * floats in CUDA device memory (x fastest, +inf unreached), for drawing
   * through CUDA–GL interop.  Owned by the result; NULL otherwise. */
  void *device_time;
} fr_fold_result;

/* Solves on grid g from start with parameters p into res (which the caller
 * clears with fr_fold_result_clear, also after a failure).  A solve that
 * would need more memory than the machine has is refused before it
 * allocates (FR_E_NOMEM). */
fr_status fr_fold_solve (const fr_grid *g, const fr_fold_start *start, const fr_fold_params *p,
                         fr_fold_result *res, fr_error *err);

void fr_fold_result_clear (fr_fold_result *res);

/* Moves device_time out of the result (the caller frees it with
 * fr_device_free); NULL when it has none. */
void *fr_fold_result_take_device_time (fr_fold_result *res);

/* The ray to a receiver at point rcv (ndim coordinates): traced back along
 * the characteristic direction −(F·n + ψa), n = ∇T/|∇T|, to a source, the
 * horizon or a boundary start node.  Gives a malloc'ed array of n points
 * (ndim coordinates each) from the start to the receiver.  Fails for a
 * point outside the grid or unreached. */
fr_status fr_fold_ray (const fr_fold_result *res, const double *rcv, double **pts, size_t *n,
                       fr_error *err);

/* The front's speed along unit direction u at a node of speed F: how fast a
 * point moving along u rides the front, ψa·u + sqrt((ψa·u)² + F² − |ψa|²).
 * Traveltime along a ray is the sum of |Δx| / this. */
double fr_fold_group_speed (double F, const double psi_a[3], const double u[3]);

/* Parses "las", "solas" (and "auto"); false when unknown. */
bool fr_fold_method_from_name (const char *name, fr_fold_method *out);
const char *fr_fold_method_name (fr_fold_method m);
/* Parses "auto", "cpu", "cuda"; false when unknown. */
bool fr_fold_backend_from_name (const char *name, fr_fold_backend *out);
const char *fr_fold_backend_name (fr_fold_backend b);

#ifdef __cplusplus
}
#endif
