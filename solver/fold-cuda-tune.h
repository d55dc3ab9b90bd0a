/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Knobs of the CUDA fold back end, for the benchmark and the tests (the
 * solver runs with the defaults).  Exists only in builds with CUDA. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* How the 3D sweep evaluates a node's 24 edge and triangle candidates. */
typedef enum fold_cuda_local {
  FOLD_CUDA_LOCAL_DEFAULT = 0,
  FOLD_CUDA_LOCAL_LAZY,     /* one after the other, each only when it can count (as the CPU) */
  FOLD_CUDA_LOCAL_EAGER,    /* all first, independently, then the same choice among them */
} fold_cuda_local;

typedef struct fold_cuda_tune {
  int inner;      /* sweeps of a subdomain per activation while it still changes
                     (2D: rounds of the four directions at once); 0: default */
  int batch;      /* passes queued per host round trip; 0: default */
  int min_act;    /* SOLAS: the least schedule; a shorter one takes every active
                     subdomain instead; 0: default */
  fold_cuda_local local;
} fold_cuda_tune;

/* The knobs in force; set before a solve, from one thread. */
extern fold_cuda_tune fold_cuda_tuning;

#ifdef __cplusplus
}
#endif
