/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shortest-path ray tracing (SPR) on 2D grids, as in CONTRACT.md.
 *
 * The velocity grid is a graph: node (ix, iz) joins every (ix+a, iz+b) with
 * |a| <= rx, |b| <= rz.  An edge's weight is the exact line integral of cell
 * slowness along the straight segment between the nodes; crossing an
 * obstacle cell (velocity 0) removes the edge.  Traveltime is the least path
 * weight from any source; a ray is that path. */
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

typedef enum fr_spr_backend {
  FR_SPR_AUTO = 0,   /* CUDA when a device is present and built in, else the fastest CPU path */
  FR_SPR_DIJKSTRA,   /* sequential, binary heap: the reference */
  FR_SPR_CPU,        /* OpenMP pull relaxation with tiles and an update map */
  FR_SPR_CUDA,       /* the GPU; where this build has no CUDA or no device is usable, or the
                        device fails, the CPU solves and fr_spr_result.notice says why */
} fr_spr_backend;

typedef enum fr_spr_weights {
  FR_WEIGHTS_AUTO = 0,   /* on the fly unless the back end finds a table cheaper and it fits */
  FR_WEIGHTS_ON_THE_FLY,
  FR_WEIGHTS_TABLE,      /* precomputed per node and offset */
} fr_spr_weights;

typedef struct fr_spr_params {
  int rx, rz;                 /* neighbourhood radii in nodes, >= 1; one past the grid's
                                 extent acts as extent - 1 (its longer offsets never have
                                 both ends inside), so a 1 × n grid takes any radius */
  bool full_neighbourhood;    /* false (default): drop offsets with gcd(|a|,|b|) != 1 */
  fr_spr_weights weights;
  fr_spr_backend backend;
  bool double_precision;      /* compute in double (default single) */
  int threads;                /* 0: OpenMP's default */
  const fr_cancel *cancel;    /* optional: once raised, the solve stops with FR_E_CANCELLED */
  bool keep_device_time;      /* cuda: also keep T on the device (fr_spr_result.device_time) */
} fr_spr_params;

/* The largest radius the solver takes after the clamp above: R = 100
 * already gives 40 000 offsets per node. */
#define FR_SPR_RADIUS_MAX 100

/* Defaults: radius 4, edge reduction, automatic weights and back end. */
void fr_spr_params_init (fr_spr_params *p);

typedef struct fr_spr_result {
  fr_grid grid;
  double *time;               /* nx·nz traveltimes, +inf where unreached */
  int32_t *pred;              /* predecessor node index, -1 at sources and unreached nodes */
  fr_spr_backend backend;     /* the back end that ran (never AUTO) */
  int rx, rz;                 /* the radius it used: the one asked, cut to the grid */
  double solve_ms;            /* the solve alone, stencils and weights included */
  long iterations;            /* global passes (cpu, cuda) or nodes settled (dijkstra) */
  uint64_t edges_relaxed;     /* edge evaluations performed */
  char notice[256];           /* e.g. why auto fell back to the CPU; empty when nothing to say */
  /* With keep_device_time, when the CUDA back end ran: T as nx·nz floats in
   * CUDA device memory (row-major, x fastest, +inf unreached), for drawing
   * without a host round trip (CUDA–GL interop).  Owned by the result; NULL
   * otherwise.  Take it with fr_spr_result_take_device_time to outlive the result. */
  void *device_time;
  /* What fr_spr_ray needs beyond T and pred to give the straightest of the
   * equal-time paths (the velocity and the stencils); private, owned by
   * the result, NULL where the result did not come from fr_spr_solve. */
  struct spr_ray_context *ray_context;
} fr_spr_result;

/* Solves from nsrc sources at (src_xz[2k], src_xz[2k+1]) in model units;
 * each must lie on a node and not inside an obstacle.  velocity holds
 * nx·nz values, >= 0 and finite.  A solve that would need more memory than
 * the machine has is refused before it allocates (FR_E_NOMEM). */
fr_status fr_spr_solve (const fr_grid *g, const float *velocity,
                        const double *src_xz, size_t nsrc,
                        const fr_spr_params *p, fr_spr_result *res, fr_error *err);

void fr_spr_result_clear (fr_spr_result *res);

/* Moves device_time out of the result (the caller frees it with
 * fr_spr_device_free); NULL when it has none. */
void *fr_spr_result_take_device_time (fr_spr_result *res);

/* Frees device memory handed out by the solver (device_time); NULL is a
 * no-op, and so is every call in a build without CUDA. */
void fr_spr_device_free (void *device_ptr);

/* The ray to the node nearest (x, z): node positions from the source to the
 * receiver, as a malloc'ed array of 2·n doubles.  Of the paths that give
 * its traveltime it takes the straightest: inside one velocity, the chord's
 * two bracketing offsets interleaved rather than the predecessor map's
 * dogleg.  Fails for a point outside the grid or an unreached node. */
fr_status fr_spr_ray (const fr_spr_result *res, double x, double z,
                      double **xz, size_t *n, fr_error *err);

/* Parses "auto", "dijkstra", "cpu", "cuda"; false when unknown. */
bool fr_spr_backend_from_name (const char *name, fr_spr_backend *out);
const char *fr_spr_backend_name (fr_spr_backend b);

/* Whether this build has the CUDA back end and a device is usable now. */
bool fr_cuda_built (void);
bool fr_cuda_usable (void);

#ifdef __cplusplus
}
#endif
