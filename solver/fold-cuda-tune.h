/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Knobs of the CUDA fold back end, for the benchmark and the tests (the
 * solver runs with the defaults).  Exists only in builds with CUDA. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* How a batch of passes is launched. */
typedef enum fold_cuda_graph {
  FOLD_CUDA_GRAPH_DEFAULT = 0,
  FOLD_CUDA_GRAPH_ON,       /* captured once as a CUDA graph, launched as one */
  FOLD_CUDA_GRAPH_OFF,      /* kernel by kernel */
} fold_cuda_graph;

/* How the subdomains' sweeps are scheduled (2D and 3D). */
typedef enum fold_cuda_sched {
  FOLD_CUDA_SCHED_DEFAULT = 0,   /* the queue */
  FOLD_CUDA_SCHED_PASSES,   /* passes of tally, compact, select, sweep and push */
  FOLD_CUDA_SCHED_QUEUE,    /* one persistent kernel fed by a queue on the device */
} fold_cuda_sched;

typedef struct fold_cuda_tune {
  int inner;      /* sweeps of a subdomain per activation while it still changes
                     (2D: rounds of the four directions at once); 0: default;
                     3D takes at most 41 (its stamps' bytes, fold-cuda.cu) */
  int batch;      /* passes queued per host round trip; 0: default */
  int min_act;    /* SOLAS: the least schedule; a shorter one takes every active
                     subdomain instead; 0: default (one subdomain per SM, in
                     3D double precision per two SMs) */
  fold_cuda_graph graph;
  fold_cuda_sched sched;
  int rounds_max; /* queue: a schedule of at most this many subdomains runs in
                     rounds, as passes; 0: default (3D: the blocks the GPU
                     holds at once; 2D: none), negative: none does */
  int eager;      /* queue, LAS: a woken subdomain is queued at once, with no
                     schedules; 0: default (2D on, 3D off), positive: on,
                     negative: off */
  int admit;      /* queue, SOLAS: a woken subdomain whose SD is below the held
                     schedule's threshold joins it at once; 0: default (on),
                     positive: on, negative: off */
  int once3d;     /* queue, 3D, b = 16: 3 runs the sub-sweeps of each axis as one
                     of three groups at once, on copies of the subdomain merged
                     by least value (fold-cuda.cu, sweep3d_once_subdomain);
                     0: the default, the six in turn */
} fold_cuda_tune;

/* The knobs in force; set before a solve, from one thread. */
extern fold_cuda_tune fold_cuda_tuning;

#ifdef __cplusplus
}
#endif
