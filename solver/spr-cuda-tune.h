/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Knobs and a timing report of the CUDA SPR back end, for the benchmark and
 * the tests: spr_solve_cuda is spr_cuda_solve_ex with the defaults.  Exists
 * only in builds with CUDA. */
#pragma once

#include <stdbool.h>

#include "spr-private.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum spr_cuda_schedule {
  SPR_CUDA_COMPACT = 0,   /* each block takes every G-th entry of the compacted active list */
  SPR_CUDA_EARLY_EXIT,    /* block b visits tiles b, b+G, ... and skips inactive ones */
} spr_cuda_schedule;

typedef struct spr_cuda_tune {
  spr_cuda_schedule schedule;
  int inner_max;          /* inner iterations per activation at most; 0: default (the tile's
                           * rows), 1: the papers' scheme */
  int batch;              /* passes per launch (ASYNC: microseconds per launch); 0: adaptive */
  bool pinned;            /* stage the big copies through pinned memory allocated per solve
                           * (measured slower than copying pageable memory directly) */
  bool force_generic;     /* never keep weights in registers (measurement only) */
  bool row_scan;          /* min-plus scan along tile rows in every inner iteration
                           * (exact for the (+-1, 0) chain; measured slower) */
  double delta_scale;     /* tile delta-stepping: delta = scale × (smaller tile side) / vmax;
                           * 0: default (by map), < 0: off (every pending tile, every pass) */
  int map;                /* the bookkeeping (SPR_CUDA_MAP_*); 0: default (by stencil size) */
  int sweep;              /* inner iterations (SPR_CUDA_SWEEP_*); 0: default */
  double raise_below;     /* ASYNC: raise the bucket bound early while fewer than this
                           * fraction of the blocks have a tile; 0: default, < 0: never */
  bool phases;            /* time the phases of a tile activation (report.phase_ms) */
} spr_cuda_tune;

/* Phases of report.phase_ms: outside activations (bookkeeping, grid
 * barriers, taking from the queue, waiting), loading a tile, its first
 * inner iteration (waits for the weights), the other iterations, the
 * predecessors and write-back, the wake-ups (asynchronous queue only). */
#define SPR_CUDA_PHASES 6

/* map: SCAN, the first design: every block scans the whole tile map with
 * dependent loads (pending flag, then key), deals write-backs by a serial
 * loop over every G-th tile, and builds the next map from dependent loads
 * of the 3x3 neighbours.  WIDE: the same decisions with independent loads
 * only (pending == finite key; keys held in registers for the scan; the
 * write-back candidates checked by all threads at once; the 3x3 loads
 * issued together). */
#define SPR_CUDA_MAP_SCAN 1
#define SPR_CUDA_MAP_WIDE 2
/* ASYNC: no passes and no grid barrier.  Blocks take pending tiles from a
 * queue in device memory as they become pending, with the same tile
 * delta-stepping as buckets (near-far); one traveltime buffer, written by
 * each tile's own block.  The report's passes are its buckets, and batch is
 * a launch's time budget in microseconds. */
#define SPR_CUDA_MAP_ASYNC 3
/* sweep: JACOBI reads one shared copy of the tile and writes the other;
 * INPLACE updates one copy in place (Gauss-Seidel-like: later warps see
 * earlier warps' new values in the same iteration). */
#define SPR_CUDA_SWEEP_JACOBI 1
#define SPR_CUDA_SWEEP_INPLACE 2

typedef struct spr_cuda_report {
  double setup_ms;        /* host: allocations, uploads, slowness, sources (wall clock) */
  double device_ms;       /* device events: slowness + weights + passes + unpadding */
  double weights_ms;      /* device events: the weight table (0 on the fly) */
  double passes_ms;       /* device events: the global passes */
  double download_ms;     /* host: copies back and conversion (wall clock) */
  double total_ms;        /* host: the whole call (wall clock) */
  long passes;
  long activations;       /* tile activations, all passes */
  long raises;            /* ASYNC: buckets opened early (raise_below), of passes */
  int launches;
  int nw;                 /* weights per thread in registers; 0: generic kernel */
  int tile_x, tile_z;
  int blocks;             /* persistent grid */
  bool table;             /* weights came from a precomputed table */
  int map;                /* the bookkeeping used (SPR_CUDA_MAP_*) */
  double phase_ms[SPR_CUDA_PHASES];   /* with tune.phases: per block, mean over blocks */
} spr_cuda_report;

void spr_cuda_tune_init (spr_cuda_tune *t);

/* One solve with knobs; rep may be NULL. */
fr_status spr_cuda_solve_ex (const spr_problem *pb, const spr_cuda_tune *tune,
                             fr_spr_result *res, spr_cuda_report *rep, fr_error *err);

#ifdef __cplusplus
}
#endif
