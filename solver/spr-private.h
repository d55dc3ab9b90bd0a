/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internals shared by the SPR back ends (dijkstra, cpu, cuda).
 *
 * Stencils: for one offset (a, b) the cells its segment crosses, and the
 * length inside each, are the same at every node.  A weight is therefore a
 * short fixed stencil over the slowness grid:
 *     w(v, v + (a, b)) = sum_k len_k * slowness[v + (di_k, dj_k)]
 * built once per radius and spacing (Kanoksirirath: walk the x- and
 * z-crossings of the segment in order; a crossing through a cell corner
 * steps both ways at once, so corner-touched cells get no length). */
#pragma once

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fr-spr.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef struct spr_cell {
  int di, dj;        /* cell offset from the start node, in x and z */
  double len;        /* physical length of the segment inside the cell */
} spr_cell;

typedef struct spr_offset {
  int a, b;          /* the neighbour sits at (ix + a, iz + b) */
  int first, count;  /* its cells are cells[first .. first + count) */
  double length;     /* the segment's physical length */
} spr_offset;

typedef struct spr_stencils {
  int rx, rz;
  int noffsets;
  spr_offset *offsets;   /* symmetric: (a, b) present iff (-a, -b) present */
  int ncells;
  spr_cell *cells;
  int max_count;         /* longest stencil */
} spr_stencils;

/* Builds the stencils of every offset with |a| <= rx, |b| <= rz, (a,b) != 0,
 * keeping only gcd(|a|,|b|) == 1 unless full is set. */
fr_status spr_stencils_build (spr_stencils *s, int rx, int rz, double dx, double dz,
                              bool full, fr_error *err);
void spr_stencils_clear (spr_stencils *s);
/* The greatest common divisor of p, q >= 0 (gcd (p, 0) = p). */
int spr_gcd (int p, int q);

/* One solve, as the dispatcher hands it to a back end.  The dispatcher has
 * checked every input, found the source nodes and allocated res->time and
 * res->pred (nx·nz each); the back end fills them, plus iterations and
 * edges_relaxed.  solve_ms and backend are set by the dispatcher. */
typedef struct spr_problem {
  const fr_grid *grid;
  const float *velocity;        /* nx·nz, >= 0, 0 = obstacle */
  const size_t *sources;        /* node indices */
  size_t nsrc;
  const fr_spr_params *params;
  const spr_stencils *stencils;
} spr_problem;

/* Slowness of a cell: +inf for an obstacle (velocity 0), so that any edge
 * crossing it weighs +inf, i.e. is absent. */
static inline double
spr_slowness (float v)
{
  return v > 0.0f ? 1.0 / (double) v : INFINITY;
}

fr_status spr_solve_dijkstra (const spr_problem *pb, fr_spr_result *res, fr_error *err);
fr_status spr_solve_cpu (const spr_problem *pb, fr_spr_result *res, fr_error *err);
/* Knobs of the CPU back end, for measurements (the benchmark and the
 * tests); a zero field takes the default. */
typedef enum spr_cpu_weights {
  SPR_CPU_WEIGHTS_DEFAULT = 0,
  SPR_CPU_WEIGHTS_RECOMPUTE,   /* every row relaxation recomputes its weights */
  SPR_CPU_WEIGHTS_TILE_CACHE,  /* computed once per tile activation, per thread */
  SPR_CPU_WEIGHTS_TABLE,       /* computed once per tile per solve, kept */
} spr_cpu_weights;

typedef struct spr_cpu_tuning {
  int tile_x;                  /* columns per tile, rounded up to SPR_CPU_CHUNK */
  int tile_z;                  /* rows per tile */
  int max_sweeps;              /* in-tile sweeps per activation (0: until converged) */
  spr_cpu_weights weights;
} spr_cpu_tuning;

/* Tile rows are processed in chunks of this many columns: a compile-time
 * constant so that the row loops vectorise without remainders. */
#define SPR_CPU_CHUNK 32

fr_status spr_solve_cpu_tuned (const spr_problem *pb, const spr_cpu_tuning *tuning,
                               fr_spr_result *res, fr_error *err);

/* The CPU back end as `auto` runs it: where its passes would take more
 * relaxations than Dijkstra is worth (a winding maze), it stops, returns
 * FR_OK with *gave_up set and res's arrays unfilled, and the caller runs
 * Dijkstra.  Which happens depends on the problem alone, not on the
 * threads or the machine. */
fr_status spr_solve_cpu_auto (const spr_problem *pb, bool *gave_up, fr_spr_result *res,
                              fr_error *err);

/* About how many bytes the CPU back end allocates for this problem (its
 * padded grids, per-thread buffers and weights), without allocating: for
 * the dispatcher's memory check. */
double spr_cpu_bytes (const spr_problem *pb);

/* The CPU back end that `auto` runs for this problem (dijkstra or cpu): the
 * rule and the measurements behind it live in spr-cpu.c. */
fr_spr_backend spr_cpu_pick (const spr_problem *pb);
/* In spr-cuda.cu, or the stub without CUDA (FR_E_UNSUPPORTED).  A device
 * failure returns FR_E_DEVICE so that `auto` can fall back to the CPU. */
fr_status spr_solve_cuda (const spr_problem *pb, fr_spr_result *res, fr_error *err);

/* Rays (spr-straight.c): a result keeps a copy of the velocity and the
 * solve's stencils, which move into the context (*st is left empty). */
typedef struct spr_ray_context spr_ray_context;
fr_status spr_ray_context_new (const fr_grid *g, const float *velocity, spr_stencils *st,
                               spr_ray_context **out, fr_error *err);
void spr_ray_context_free (spr_ray_context *c);
/* The straightest path with the weight of path[0 .. count) (node indices,
 * either way round) and the same ends, as a malloc'ed array. */
fr_status spr_ray_straighten (const spr_ray_context *c, const int32_t *path, size_t count,
                              int32_t **out, size_t *out_count, fr_error *err);

#ifdef __cplusplus
}
#endif
