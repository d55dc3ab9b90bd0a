/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA back end of the fold solver: LAS and SOLAS (Gillberg et al.
 * 2014) with the schedules built on the device.
 *
 * Data: the CPU's blocked layout (fold-blocks.c), one contiguous array of
 * (b+2)^d values per subdomain, ghosts included, in global memory; speeds
 * in the same layout.
 *
 * Two schedules share the sweep, the push and the SOLAS rule.  The default
 * is the queue kernel (sweep_queue_kernel, below): one persistent kernel,
 * each block taking the next subdomain from a ring on the device as soon
 * as it is free, each schedule built on the device by one block and held
 * while it settles.  Passes run on request.
 *
 * One pass is five kernels, all queued without the host looking:
 *   tally    counts the active subdomains, their SD sum and how many of the
 *            current schedule are still active; the last block to finish
 *            decides: done, pass over the schedule again (more than 1/64 of
 *            it still active, as on the CPU), or build a new one;
 *   compact  (only when building) stream compaction of the active
 *            subdomains into two lists: SOLAS's (SD below the threshold
 *            Av + 0.4·max(0, Av − oldAv)) and all of them (LAS's);
 *   select   one thread: takes SOLAS's list when it holds at least one
 *            subdomain per SM, else all of them (an idle SM gains nothing
 *            from waiting);
 *   sweep    a PMM sweep per listed active subdomain, in shared memory,
 *            a thread block per subdomain (after its first, each block takes
 *            the next listed one from a counter), the layer below read from
 *            shared memory one plane at a time.  3D: a plane is b² nodes, the six
 *            directions in turn, and as on the CPU a node whose base nodes
 *            did not change since it was last evaluated in that direction
 *            is skipped (stamps kept on the device).  2D: a plane is one
 *            row, one warp per direction on its own copy, the copies merged
 *            (least value) after the round.  A subdomain stays active when
 *            an inner node changed, with SD = the least new value (a block
 *            reduction);
 *   push     every subdomain that changed lowers its neighbours' ghost
 *            copies (and stamps them), all directions in one launch (a
 *            ghost node has exactly one source, so no two writers meet),
 *            and reactivates a neighbour only when one of its ghosts was
 *            lowered
 *            (SD_N = min(SD_N, least lowered), an atomic min on keys).
 * Sweep and push never run at once, so no subdomain is read while its
 * ghosts are written (the CPU needs locks for that).  The host queues
 * passes in batches and reads one word (done) per batch: its only round
 * trip.  Sweep and push are launched in chunks of at most CHUNK subdomains
 * so that no launch runs long enough to meet a display watchdog.
 *
 * The local solver is fold-local.h's, compiled for the device too (float
 * in single precision, double in double).  This file is built with FMA
 * contraction, the GPU's approximate float division and square root
 * (-prec-div=false -prec-sqrt=false, within a few ulps) and subnormal
 * floats flushed to zero (-ftz=true; times and their differences stay far
 * above 1e-38): a node's update differs from the CPU's by rounding only.
 * The fixed point of these monotone updates depends on the updates only
 * through rounding, so both back ends converge to the same T to float
 * rounding (in double, to the last bits); the tests hold them to 2e-6 and
 * 1e-12 relative.  The exact operations (-fmad=false, as the CPU) cost
 * 11-28 % more device time in 3D, 5 % in 2D, FTZ's absence 3-10 %
 * (RESULTS.md, eighth round). */
#include <cuda_runtime.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mutex>

#include "fold-cuda-tune.h"
#include "fold-private.h"
#include "fr-clock.h"

extern "C" {
fold_cuda_tune fold_cuda_tuning = { 0, 0, 0, FOLD_CUDA_GRAPH_DEFAULT, FOLD_CUDA_SCHED_DEFAULT, 0, 0,
                                    0, 0 };
}

namespace {

constexpr int INNER_DEFAULT = 1;      /* sweeps (2D: rounds) per activation: more only cost */
constexpr int BATCH_DEFAULT = 8;      /* passes per host round trip */
constexpr int CHUNK = 65536;          /* subdomains per sweep/push launch */
constexpr int TALLY_THREADS = 256;
constexpr unsigned KEY_INF = 0xff800000u;   /* fold_key (+inf) */
/* A ghost's stamp with this bit: lowered by a push of the queue kernel and
 * not yet seen by a sweep (sweep counts stay far below it). */
constexpr uint32_t STAMP_PUSHED = 0x80000000u;

/* What every kernel needs of the layout, in constant memory. */
struct FoldGeom {
  int ndim, b, bsize, inner0;
  int p[3], g[3], stride[3];
  int nb[3];
  int nblocks;
  int n[3];
  int ndirs;
  int dirs[26][3];
};

__constant__ fold_stencil c_st;
__constant__ FoldGeom c_geo;

/* Device-side state of the iteration; the host reads only `done` (and the
 * counters once at the end). */
struct FoldCtl {
  int n;              /* length of the current schedule */
  int list;           /* 0: SOLAS's list, 1: all active */
  int rebuild;        /* the next compact builds a new schedule */
  int done;
  int count_a, count_b;
  int still;          /* tally: schedule members active after the pass */
  int nact;           /* tally: active subdomains */
  double sum;         /* tally: sum of their SD */
  double old_av;      /* SOLAS: the previous schedule's mean SD; NaN at first */
  double thr;         /* SOLAS's threshold for the schedule being built */
  unsigned arrive;    /* tally blocks finished */
  int min_act;        /* subdomains the GPU runs at once */
  int las;
  int subdomains;     /* solvable subdomains (init) */
  long long passes, schedules, sweeps;
  /* The queue kernel's (sweep_queue_kernel): entries appended and taken,
   * and the subdomains queued or running. */
  unsigned long long qtail, qhead;
  int pending;         /* subdomains queued or running */
  int gen_n;           /* members of the schedule held */
  int rounds;          /* the schedule held runs in rounds, as passes */
  int n_rest;          /* in rounds: the members resting, listed for the next */
  int building;        /* a block builds the next schedule */
  unsigned waits, built_waits;   /* entries into waiting; their count at the last build */
  unsigned pushes;     /* numbers the pushes' stamps */
  unsigned admit_key;  /* SOLAS: a woken subdomain whose SD key is below this joins the
                          schedule held (its threshold; 0: none do) */
  unsigned sm_blocks[256];   /* the queue kernel's blocks resident on each SM; last,
                                not copied back (CTL_BACK) */
};

/* What the host reads back after each batch or launch: all but sm_blocks. */
constexpr size_t CTL_BACK = offsetof (FoldCtl, sm_blocks);

/* Float keys whose unsigned order is the floats' order, for atomicMin. */
__device__ __forceinline__ unsigned
fold_key (float f)
{
  unsigned u = __float_as_uint (f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* A time's key for the schedules (SD values, thresholds).  Keys are
 * floats: in double precision a finite time beyond float's range (a
 * boundary of 1e300) would key as +inf, the key of no time at all, and its
 * subdomain was never scheduled.  Such times key as float's largest, still
 * before +inf; they only tie among themselves, which orders work, not
 * results. */
__device__ __forceinline__ unsigned
time_key (double t)
{
  return fold_key (t < (double) FLT_MAX ? (float) t : t == INFINITY ? INFINITY : FLT_MAX);
}

__device__ __forceinline__ float
fold_unkey (unsigned k)
{
  unsigned u = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
  return __uint_as_float (u);
}

__device__ __forceinline__ double
warp_min (double v)
{
  for (int o = 16; o > 0; o >>= 1)
    v = fold_min (v, __shfl_xor_sync (0xffffffffu, v, o));
  return v;
}

/* ------------------------------------------------------------ local solver
 * fold-local.h's, in the storage precision, the same functions the CPU
 * calls: Local<R> names them for R. */

template <typename R> struct Local;

template <> struct Local<double> {
  typedef fold_coef2d coef2d;
  typedef fold_coef3d coef3d;
  static __device__ __forceinline__ void
  set (coef2d *k, const fold_subsweep *ss, float f)
  {
    fold_coef2d_set (k, ss, f, c_st.psi2, c_st.psin);
  }
  static __device__ __forceinline__ void
  set (coef3d *k, const fold_subsweep *ss, float f)
  {
    fold_coef3d_set (k, ss, f, c_st.psi2, c_st.psin);
  }
  static __device__ __forceinline__ double
  update (const coef2d *k, double T0, double T1, double T2, double best)
  {
    return fold_node_update_2d (k, T0, T1, T2, best);
  }
  /* The base nodes whose triangles and edges a 3D update looks at: in
   * double only those that changed (fold_node_update_3d): Ex_D 504³ 559 ->
   * 472 ms, Ex_C 1087 -> 1066 ms (RESULTS.md, tenth round). */
  static __device__ __forceinline__ uint32_t
  fresh_bit (bool changed, int m)
  {
    return (uint32_t) changed << m;
  }
  static __device__ __forceinline__ uint32_t
  changed (uint32_t fresh)
  {
    return fresh;
  }
  static __device__ __forceinline__ double
  update (const fold_subsweep *ss, const coef3d *k, const double *Tn, double best,
          uint32_t changed)
  {
    return fold_node_update_3d (ss, k, Tn, best, changed);
  }
  static __device__ __forceinline__ void
  walls (const float *F, int o, int o1, int su, double *T0, double *T2)
  {
    fold_diagonal_walls_2d (F, o, o1, su, T0, T2);
  }
  static __device__ __forceinline__ void
  walls (const float *F, int o, const fold_subsweep *ss, int su, int sv, double *Tn)
  {
    fold_diagonal_walls_3d (F, o, ss, su, sv, Tn);
  }
};

template <> struct Local<float> {
  typedef fold_coef2d_f coef2d;
  typedef fold_coef3d_f coef3d;
  static __device__ __forceinline__ void
  set (coef2d *k, const fold_subsweep *ss, float f)
  {
    fold_coef2d_set_f (k, ss, f, c_st.psi2, c_st.psin);
  }
  static __device__ __forceinline__ void
  set (coef3d *k, const fold_subsweep *ss, float f)
  {
    fold_coef3d_set_f (k, ss, f, c_st.psi2, c_st.psin);
  }
  static __device__ __forceinline__ float
  update (const coef2d *k, float T0, float T1, float T2, float best)
  {
    return fold_node_update_2d_f (k, T0, T1, T2, best);
  }
  /* In single precision all of them: the fewer triangles and edges cost
   * the float sweep 3-6 % (fold 518³ 239 -> 252 ms, 266³ 55 -> 58 ms), the
   * warp's lanes running the union of their candidates anyway (RESULTS.md,
   * tenth round).  The constant folds the tests away. */
  static __device__ __forceinline__ uint32_t
  fresh_bit (bool changed, int)
  {
    return (uint32_t) changed;   /* whether any changed is all a float update asks */
  }
  static __device__ __forceinline__ uint32_t
  changed (uint32_t)
  {
    return 0x1ffu;
  }
  static __device__ __forceinline__ float
  update (const fold_subsweep *ss, const coef3d *k, const float *Tn, float best,
          uint32_t changed)
  {
    return fold_node_update_3d_f (ss, k, Tn, best, changed);
  }
  static __device__ __forceinline__ void
  walls (const float *F, int o, int o1, int su, float *T0, float *T2)
  {
    fold_diagonal_walls_2d_f (F, o, o1, su, T0, T2);
  }
  static __device__ __forceinline__ void
  walls (const float *F, int o, const fold_subsweep *ss, int su, int sv, float *Tn)
  {
    fold_diagonal_walls_3d_f (F, o, ss, su, sv, Tn);
  }
};

/* ------------------------------------------------------------- kernels */

/* The start grids before the list's values go in: t0 +inf, nothing
 * frozen (frozen: NULL when no node is). */
template <typename R>
__global__ void
start_grids_kernel (R *t0, uint8_t *frozen, size_t count)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < count;
       i += (size_t) gridDim.x * blockDim.x)
    {
      t0[i] = (R) INFINITY;
      if (frozen != nullptr)
        frozen[i] = 0;
    }
}

/* The start values' list (one entry per node) into the start grids. */
template <typename R>
__global__ void
start_scatter_kernel (const fold_start_node *list, size_t n, R *t0, uint8_t *frozen)
{
  for (size_t j = blockIdx.x * (size_t) blockDim.x + threadIdx.x; j < n;
       j += (size_t) gridDim.x * blockDim.x)
    {
      const fold_start_node e = list[j];
      t0[e.idx] = (R) e.t;
      if (frozen != nullptr)
        frozen[e.idx] = e.frozen;
    }
}

/* Start values into the blocked layout (ghosts from the neighbours, +inf
 * past the grid), speeds (-1 where frozen or padding), and the initial
 * active set: solvable subdomains that see a finite value. */
template <typename R>
__global__ void
init_kernel (const R *t0, const float *speed, const uint8_t *frozen, R *T, float *F,
             uint32_t *stamp, uint32_t *counter, int *active, unsigned *sd, FoldCtl *ctl)
{
  __shared__ int any;
  __shared__ unsigned mkey;
  const FoldGeom &G = c_geo;

  for (int k = blockIdx.x; k < G.nblocks; k += gridDim.x)
    {
      const int bx = k % G.nb[0], by = (k / G.nb[0]) % G.nb[1], bz = k / (G.nb[0] * G.nb[1]);
      if (threadIdx.x == 0)
        any = 0, mkey = KEY_INF;
      __syncthreads ();
      bool solv = false;
      unsigned key = KEY_INF;
      for (int q = threadIdx.x; q < G.bsize; q += blockDim.x)
        {
          const int pi = q % G.p[0], pj = (q / G.p[0]) % G.p[1], pk = q / (G.p[0] * G.p[1]);
          const long gx = (long) bx * G.b + pi - G.g[0];
          const long gy = G.ndim == 3 ? (long) by * G.b + pj - G.g[1] : 0;
          const long gz = (long) bz * G.b + pk - G.g[2];
          R v = (R) INFINITY;
          float f = -1.0f;
          if (gx >= 0 && gy >= 0 && gz >= 0 && gx < G.n[0] && gy < G.n[1] && gz < G.n[2])
            {
              const size_t idx = ((size_t) gz * G.n[1] + gy) * G.n[0] + gx;
              v = t0[idx];
              const bool inner = pi >= G.g[0] && pi < G.g[0] + G.b && pk >= G.g[2]
                                 && pk < G.g[2] + G.b
                                 && (G.ndim == 2 || (pj >= G.g[1] && pj < G.g[1] + G.b));
              if (inner && !(frozen != nullptr && frozen[idx]))
                {
                  f = speed[idx];
                  solv |= f > 0.0f;
                }
              else if (!inner && speed[idx] == 0.0f)
                f = 0.0f;          /* an obstacle among the ghosts (fold-blocks.c) */
            }
          T[(size_t) k * G.bsize + q] = v;
          F[(size_t) k * G.bsize + q] = f;
          stamp[(size_t) k * G.bsize + q] = 2u * (uint32_t) c_st.nsub;   /* all fresh */
          key = min (key, time_key (v));
        }
      if (solv)
        any = 1;
      atomicMin (&mkey, key);
      __syncthreads ();
      if (threadIdx.x == 0)
        {
          const bool act = any && mkey < KEY_INF;
          active[k] = act;
          sd[k] = act ? mkey : KEY_INF;
          counter[k] = (uint32_t) c_st.nsub;
          if (any)
            atomicAdd (&ctl->subdomains, 1);
        }
      __syncthreads ();
    }
}

/* Counts what the schedule decision needs; the last block decides. */
__global__ void
tally_kernel (const int *active, const unsigned *sd, const int *list_a, const int *list_b,
              FoldCtl *ctl)
{
  __shared__ int s_nact[TALLY_THREADS / 32], s_still[TALLY_THREADS / 32];
  __shared__ double s_sum[TALLY_THREADS / 32];
  __shared__ bool last;

  if (ctl->done)
    return;
  const int nb = c_geo.nblocks, n = ctl->n;
  const int *list = ctl->list ? list_b : list_a;
  int nact = 0, still = 0;
  double sum = 0.0;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nb; k += gridDim.x * blockDim.x)
    if (active[k])
      {
        nact++;
        sum += (double) fold_unkey (sd[k]);
      }
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    still += active[list[i]];
  for (int o = 16; o > 0; o >>= 1)
    {
      nact += __shfl_xor_sync (0xffffffffu, nact, o);
      still += __shfl_xor_sync (0xffffffffu, still, o);
      sum += __shfl_xor_sync (0xffffffffu, sum, o);
    }
  const int w = threadIdx.x >> 5;
  if ((threadIdx.x & 31) == 0)
    s_nact[w] = nact, s_still[w] = still, s_sum[w] = sum;
  __syncthreads ();
  if (threadIdx.x == 0)
    {
      for (int i = 1; i < (int) (blockDim.x >> 5); i++)
        nact += s_nact[i], still += s_still[i], sum += s_sum[i];
      if (nact)
        atomicAdd (&ctl->nact, nact), atomicAdd (&ctl->sum, sum);
      if (still)
        atomicAdd (&ctl->still, still);
      __threadfence ();
      last = atomicAdd (&ctl->arrive, 1u) == gridDim.x - 1;
    }
  __syncthreads ();
  if (!last || threadIdx.x != 0)
    return;

  /* The last block: every other block's counts are in. */
  __threadfence ();
  volatile FoldCtl *v = ctl;
  const int tot_nact = v->nact, tot_still = v->still;
  const double tot_sum = v->sum;
  v->arrive = 0;
  v->nact = 0;
  v->still = 0;
  v->sum = 0.0;
  if (tot_nact == 0)
    {
      v->done = 1;
      v->n = 0;
      return;
    }
  if (v->n > 0 && tot_still > v->n / 64)
    return;                              /* pass over the same schedule again */
  v->rebuild = 1;
  v->schedules++;
  v->count_a = 0;
  v->count_b = 0;
  if (v->las)
    v->thr = INFINITY;
  else
    {
      double old_av = v->old_av;
      v->thr = fold_solas_threshold (tot_sum / tot_nact, &old_av);
      v->old_av = old_av;
    }
}

/* Stream compaction of the active subdomains (warp-aggregated atomics). */
__global__ void
compact_kernel (const int *active, const unsigned *sd, int *list_a, int *list_b, FoldCtl *ctl)
{
  if (!ctl->rebuild)
    return;
  const int nb = c_geo.nblocks;
  const double thr = ctl->thr;
  const int lane = threadIdx.x & 31;
  const unsigned below = (1u << lane) - 1u;
  const int stride = gridDim.x * blockDim.x;

  for (int base = blockIdx.x * blockDim.x + (threadIdx.x & ~31); base < nb; base += stride)
    {
      const int k = base + lane;
      const bool act = k < nb && active[k];
      const bool early = act && (double) fold_unkey (sd[k]) < thr;
      const unsigned mb = __ballot_sync (0xffffffffu, act);
      const unsigned ma = __ballot_sync (0xffffffffu, early);
      int ob = 0, oa = 0;
      if (lane == 0)
        {
          if (mb)
            ob = atomicAdd (&ctl->count_b, __popc (mb));
          if (ma)
            oa = atomicAdd (&ctl->count_a, __popc (ma));
        }
      ob = __shfl_sync (0xffffffffu, ob, 0);
      oa = __shfl_sync (0xffffffffu, oa, 0);
      if (act)
        list_b[ob + __popc (mb & below)] = k;
      if (early)
        list_a[oa + __popc (ma & below)] = k;
    }
}

__global__ void
select_kernel (FoldCtl *ctl, unsigned *take, int nchunks)
{
  if (ctl->done)
    return;
  for (int c = 0; c < nchunks; c++)
    take[c] = 0;                /* the sweeps' counters (take_next) */
  if (ctl->rebuild)
    {
      ctl->rebuild = 0;
      if (!ctl->las && ctl->count_a >= ctl->min_act)
        ctl->list = 0, ctl->n = ctl->count_a;
      else
        ctl->list = 1, ctl->n = ctl->count_b;
    }
  if (ctl->n > 0)
    ctl->passes++;
}

/* The block's next entry of the schedule: block b sweeps entry first + b,
 * then takes entries from first + gridDim.x on from a counter.  A fixed
 * stride left the SMs idle for a third of a 3D launch, since the sweeps of
 * one pass differ much in cost (one whose nodes are all up to date costs
 * almost nothing); a counter from the start packed short schedules onto
 * the few SMs whose blocks came first (RESULTS.md).  s_i: the block's
 * shared word; the whole block calls this. */
__device__ __forceinline__ int
take_next (unsigned *take, int first, int &s_i)
{
  __syncthreads ();                       /* everyone has read the last s_i */
  if (threadIdx.x == 0)
    s_i = first + (int) gridDim.x + (int) atomicAdd (take, 1u);
  __syncthreads ();
  return s_i;
}

/* Whether scheduled subdomain k is still active when its block takes it
 * up (the whole block calls this); one that is not is marked unchanged.
 * s_act: the block's shared word. */
__device__ __forceinline__ bool
still_active (int k, const int *active, uint8_t *changed, int &s_act)
{
  if (threadIdx.x == 0)
    s_act = active[k];
  __syncthreads ();
  if (s_act)
    return true;
  if (threadIdx.x == 0)
    changed[k] = 0;
  __syncthreads ();
  return false;
}

/* Stores a lowered node the way the CPU does: rounded to R, kept only when
 * the rounded value is lower. */
template <typename R, typename C>
__device__ __forceinline__ bool
store_lower (R *sT, int o, C best, C cur, bool &changed, double &mc)
{
  if (best < cur)
    {
      const R nv = (R) best;
      if (nv < sT[o])
        {
          sT[o] = nv;
          changed = true;
          mc = fold_min (mc, (double) nv);
          return true;
        }
    }
  return false;
}

/* Loads and stores of the queue kernel go through L2 (ld.cg/st.cg): other
 * SMs write a subdomain's ghosts while it runs, and an SM's L1 is not kept
 * coherent with them.  A pass's kernels keep the plain ones: nothing else
 * writes while they run. */
template <bool QUEUE, typename V>
__device__ __forceinline__ V
ld (const V *p)
{
  return QUEUE ? __ldcg (p) : *p;
}

template <bool QUEUE, typename V>
__device__ __forceinline__ void
st (V *p, V v)
{
  if (QUEUE)
    __stcg (p, v);
  else
    *p = v;
}

/* A thread's nodes of a b × b plane, t = v·b + u from threadIdx.x in steps
 * of blockDim.x, without a division per step: an integer division by the
 * run-time b sat on every 3D plane step's critical path, and cost 2D's
 * merge and write-back a division per node. */
struct PlaneWalk {
  int t, u, v, du, dv, b;

  __device__ explicit PlaneWalk (int b_)
    : t ((int) threadIdx.x), u ((int) threadIdx.x % b_), v ((int) threadIdx.x / b_),
      du ((int) blockDim.x % b_), dv ((int) blockDim.x / b_), b (b_)
  {
  }

  __device__ void
  next ()
  {
    t += (int) blockDim.x;
    u += du;
    v += dv;
    if (u >= b)
      u -= b, v++;
  }
};

/* One activation of 2D subdomain k with the four directions at once, by
 * a block of four warps (more warps wait): warp w runs sub-sweep w on its
 * own copy of the subdomain, then the copies are merged by taking each
 * node's least value, repeated while a node changes (at most `inner`
 * times).  Every copy only ever holds times that some update produced, so
 * their minimum is as valid as a sequential sweep's, and the iteration
 * ends at the same fixed point: b dependent plane steps per round instead
 * of 4·b.  (No unchanged-base skip here.)  Returns whether an inner node
 * changed; thread 0's mc is then the least changed value.  QUEUE: the
 * queue kernel's, through L2 (pushes of other blocks write the ghosts
 * meanwhile).  Only inner nodes go back. */
template <bool QUEUE, typename R>
__device__ __forceinline__ bool
sweep2d_subdomain (R *T, const float *F, int k, int inner, double &mc, int &swept)
{
  extern __shared__ unsigned char smem[];
  __shared__ double s_min[4];
  const FoldGeom &G = c_geo;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  R *c0 = reinterpret_cast<R *> (smem);
  R *copy = c0 + (size_t) (warp & 3) * G.bsize;
  float *sF = reinterpret_cast<float *> (c0 + (size_t) 4 * G.bsize);
  const int b = G.b;
  const fold_subsweep *ss = &c_st.sub[warp & 3];
  const int sa = G.stride[ss->axis], su = G.stride[ss->u];
  const int o0 = (int) ss->off[0], o1 = (int) ss->off[1], o2 = (int) ss->off[2];
  R *Tk = T + (size_t) k * G.bsize;
  const float *Fk = F + (size_t) k * G.bsize;
  const PlaneWalk walk0 (b);
  int zero = 0;

  /* T and F from global memory once, by the whole block, then copy 0
   * into the other three in shared memory: each warp loading its own
   * copy from global memory cost 3-4 % of a 2D solve (RESULTS.md, eighth
   * round). */
#pragma unroll 4
  for (int q = threadIdx.x; q < G.bsize; q += blockDim.x)
    {
      c0[q] = ld<QUEUE> (Tk + q);
      sF[q] = Fk[q];
      zero |= sF[q] == 0.0f;
    }
  /* Diagonal walls are looked for only where an obstacle is. */
  const bool walls = __syncthreads_or (zero);
  for (int w = 1; w < 4; w++)
    for (int q = threadIdx.x; q < G.bsize; q += blockDim.x)
      c0[(size_t) w * G.bsize + q] = c0[q];
  __syncthreads ();
  bool any = false;
  mc = INFINITY;
  for (int it = 0; it < inner; it++)
    {
      bool ch = false;
      if (warp < 4)
        {
          typename Local<R>::coef2d kc;
          kc.F = -1.0f;
          /* The planes in the sweep's direction, their offsets kept in a
           * register (the plane step is the sweep's critical path). */
          const int pstep = ss->sign > 0 ? sa : -sa;
          int oplane = G.inner0 + (ss->sign > 0 ? 0 : (b - 1) * sa);
          for (int p = 0; p < b; p++, oplane += pstep)
            {
              for (int q = lane; q < b; q += 32)
                {
                  const int o = oplane + q * su;
                  const float f = sF[o];
                  if (!(f > 0.0f))
                    continue;
                  const R cur = copy[o];
                  if (f != kc.F)
                    Local<R>::set (&kc, ss, f);
                  R T0 = copy[o + o0], T2 = copy[o + o2];
                  if (walls)
                    Local<R>::walls (sF, o, o1, su, &T0, &T2);
                  const R best = Local<R>::update (&kc, T0, copy[o + o1], T2, cur);
                  store_lower (copy, o, best, cur, ch, mc);
                }
              __syncwarp ();
            }
        }
      swept++;
      const bool again = __syncthreads_or (ch);
      any |= again;
      if (!again)
        break;
      /* Merge: every copy takes each inner node's least value. */
      for (PlaneWalk pw = walk0; pw.t < b * b; pw.next ())
        {
          const int o = G.inner0 + pw.v * G.stride[2] + pw.u;
          R m = c0[o];
          for (int w = 1; w < 4; w++)
            m = min (m, c0[(size_t) w * G.bsize + o]);
          for (int w = 0; w < 4; w++)
            c0[(size_t) w * G.bsize + o] = m;
        }
      __syncthreads ();
    }
  mc = warp_min (mc);
  if (lane == 0 && warp < 4)
    s_min[warp] = mc;
  __syncthreads ();
  if (any)
    for (PlaneWalk w = walk0; w.t < b * b; w.next ())
      {
        const int o = G.inner0 + w.v * G.stride[2] + w.u;
        st<QUEUE> (Tk + o, c0[o]);      /* copy 0, merged */
      }
  if (threadIdx.x == 0)
    mc = fold_min (fold_min (s_min[0], s_min[1]), fold_min (s_min[2], s_min[3]));
  return any;
}

/* A pass's 2D sweep: a block of four warps per listed subdomain. */
template <typename R>
__global__ void __launch_bounds__ (128)
sweep2d_par_kernel (R *T, const float *F, int *active, unsigned *sd, uint8_t *changed,
                    const int *list_a, const int *list_b, FoldCtl *ctl, unsigned *take, int first,
                    int inner)
{
  __shared__ int s_act, s_i;
  const int n = ctl->n, end = min (n, first + CHUNK);
  const int *list = ctl->list ? list_b : list_a;
  int swept = 0;

  for (int i = first + (int) blockIdx.x; i < end; i = take_next (take, first, s_i))
    {
      const int k = list[i];
      if (!still_active (k, active, changed, s_act))
        continue;
      double mc;
      const bool any = sweep2d_subdomain<false> (T, F, k, inner, mc, swept);
      if (threadIdx.x == 0)
        {
          changed[k] = any;
          active[k] = any;
          sd[k] = any ? time_key (mc) : KEY_INF;
        }
      __syncthreads ();
    }
  if (threadIdx.x == 0 && swept)
    atomicAdd ((unsigned long long *) &ctl->sweeps, (unsigned long long) swept);
}

/* Base node m's offset from the apex in a 3D sub-sweep (fold_subsweep's
 * off[m]), from the strides the sweep holds in registers: read from
 * constant memory at a run-time sub-sweep index, they cost nine loads
 * more in every node's step. */
__device__ __forceinline__ int
base_off (int back, int su, int sv, int m)
{
  return back + (m % 3 - 1) * su + (m / 3 - 1) * sv;
}

/* A 3D node's least candidate in sub-sweep ss, or its value in X (also
 * left in cur) when none is lower: its base values read from X at offset
 * `back` along the axis, the
 * diagonal walls where the subdomain has obstacles, the speed's constants
 * (kc) when the node's speed f is not the last one's, then the local
 * solver over the candidates that fresh (bit m: base node m changed) lets
 * count.  The node step of every 3D sweep; each finds fresh its own way. */
template <typename R>
__device__ __forceinline__ R
node_update_3d (const R *X, const float *sF, int o, int back, int su, int sv,
                const fold_subsweep *ss, typename Local<R>::coef3d &kc, bool walls, float f,
                uint32_t fresh, R &cur)
{
  R Tn[9];
  for (int m = 0; m < 9; m++)
    Tn[m] = X[o + base_off (back, su, sv, m)];
  if (walls)
    Local<R>::walls (sF, o, ss, su, sv, Tn);
  cur = X[o];
  if (f != kc.F)
    Local<R>::set (&kc, ss, f);
  return Local<R>::update (ss, &kc, Tn, cur, Local<R>::changed (fresh));
}

/* A 3D sweep keeps its stamps in shared memory in one byte each, relative
 * to the subdomain's sweep count at the load (`base`).  Only the last
 * nsub = 6 counts matter to the unchanged-base test (a stamp older than
 * `since` is stale whatever its age), so a byte holds 6 + the count's age,
 * 0 for anything older, and at most 6 + 6 × inner counts: inner <=
 * INNER_MAX_3D.  Only stamps set during the sweep (STAMP_LOCAL_NOW and up)
 * go back to global memory, as base - 6 + byte.  Against a word each,
 * with the launch bounds below: 2-3 % less device time in single precision
 * (RESULTS.md, ninth round). */
constexpr int NSUB_3D = 6;                  /* a 3D sweep's sub-sweeps (c_st.nsub) */
constexpr int STAMP_LOCAL_BASE = NSUB_3D;   /* the byte of count base */
constexpr int STAMP_LOCAL_NOW = STAMP_LOCAL_BASE + 1;   /* the byte of count base + 1 */
constexpr int INNER_MAX_3D = (255 - STAMP_LOCAL_BASE) / NSUB_3D;

__device__ __forceinline__ uint8_t
stamp_local (uint32_t sq, uint32_t base)
{
  const int age = (int) (sq - base) + STAMP_LOCAL_BASE;   /* wrapping difference, signed */
  return (uint8_t) (age < 0 ? 0 : age > 255 ? 255 : age);
}

__device__ __forceinline__ uint32_t
stamp_global (uint8_t s, uint32_t base)
{
  return base - (uint32_t) STAMP_LOCAL_BASE + (uint32_t) s;
}

/* The stamps' part of a 3D activation's start (load_subdomain_3d):
 * subdomain k's stamps into shared memory as bytes relative to its count
 * `base`.  A ghost lowered since its last sweep is fresh for every
 * direction of this one, and taken back unless a newer push marked it
 * again. */
__device__ __forceinline__ void
load_stamps_3d (uint32_t *Sk, uint8_t *sS, uint32_t base)
{
  for (int q = threadIdx.x; q < c_geo.bsize; q += blockDim.x)
    {
      uint32_t sq = __ldcg (Sk + q);
      if (sq & STAMP_PUSHED)
        {
          atomicCAS (Sk + q, sq, base);
          sq = base + 1u;
        }
      sS[q] = stamp_local (sq, base);
    }
  __threadfence ();     /* a pushed stamp seen: its lowered value is seen too */
}

/* A 3D activation's start, whole: the stamps (load_stamps_3d), T into sT
 * and into the COPIES images that follow it in shared memory (the groups'
 * copies of sweep3d_once_subdomain), the speeds into sF.  Returns whether
 * the subdomain holds an obstacle: diagonal walls are looked for only
 * there. */
template <int COPIES, typename R>
__device__ __forceinline__ bool
load_subdomain_3d (const R *Tk, const float *Fk, uint32_t *Sk, uint32_t base, R *sT, float *sF,
                   uint8_t *sS)
{
  const int bsize = c_geo.bsize;
  int zero = 0;
  load_stamps_3d (Sk, sS, base);
  for (int q = threadIdx.x; q < bsize; q += blockDim.x)
    {
      const R v = __ldcg (Tk + q);
      sT[q] = v;
      for (int g = 1; g <= COPIES; g++)
        sT[(size_t) g * bsize + q] = v;
      sF[q] = Fk[q];
      zero |= sF[q] == 0.0f;
    }
  return __syncthreads_or (zero);
}

/* A 3D activation's end: thread 0's mc becomes the block's least changed
 * value (s_min: a word per warp), the inner nodes and their new stamps go
 * back when any changed (the ghosts belong to the neighbours' pushes), and
 * the subdomain's count advances to the local count lc. */
template <typename R>
__device__ __forceinline__ void
finish_sweep_3d (R *Tk, uint32_t *Sk, uint32_t *count, const R *sT, const uint8_t *sS,
                 uint32_t base, int lc, bool any, double &mc, double *s_min)
{
  const FoldGeom &G = c_geo;
  const int b = G.b, plane = b * b;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  mc = warp_min (mc);
  if (lane == 0)
    s_min[warp] = mc;
  __syncthreads ();
  if (any)
    for (PlaneWalk w (b); w.t < plane; w.next ())
      for (int z = 0; z < b; z++)
        {
          const int o = G.inner0 + z * G.stride[2] + w.v * G.stride[1] + w.u;
          __stcg (Tk + o, sT[o]);
          if (sS[o] >= STAMP_LOCAL_NOW)
            __stcg (Sk + o, stamp_global (sS[o], base));
        }
  if (threadIdx.x == 0)
    {
      __stcg (count, base + (uint32_t) (lc - STAMP_LOCAL_BASE));
      for (int w = 1; w < nwarps; w++)
        mc = fold_min (mc, s_min[w]);
    }
}

/* The 3D sweeps' blocks of 256 threads per SM: three in single precision
 * (the compiler takes 80 registers; four, with 64 registers and a few
 * spills, measured 5-10 % slower), two in double (shared memory and
 * registers both). */
template <typename R> constexpr int BLOCKS_PER_SM_3D = sizeof (R) == sizeof (float) ? 3 : 2;


/* One activation of 3D subdomain k, by the whole block: the subdomain into
 * shared memory, up to `inner` PMM sweeps (b² plane nodes per step of the
 * block's threads, the six directions in turn, nodes whose base did not
 * change since their last evaluation skipped), the inner nodes back.
 * Returns whether an inner node changed; thread 0's mc is then the least
 * changed value.  The queue kernel's: through L2, and ghost stamps that a
 * push marked (STAMP_PUSHED) are taken as fresh and cleared. */
template <typename R>
__device__ __forceinline__ bool
sweep3d_subdomain (R *T, const float *F, uint32_t *stamp, uint32_t *counter, int k, int inner,
                   double &mc, int &swept)
{
  extern __shared__ unsigned char smem[];
  __shared__ int s_ch;
  __shared__ double s_min[32];
  const FoldGeom &G = c_geo;
  R *sT = reinterpret_cast<R *> (smem);
  float *sF = reinterpret_cast<float *> (sT + G.bsize);
  uint8_t *sS = reinterpret_cast<uint8_t *> (sF + G.bsize);
  const int b = G.b, plane = b * b;
  const int lane = threadIdx.x & 31;
  const PlaneWalk walk0 (b);

  R *Tk = T + (size_t) k * G.bsize;
  uint32_t *Sk = stamp + (size_t) k * G.bsize;
  const uint32_t base = __ldcg (counter + k);
  const bool walls = load_subdomain_3d<0> (Tk, F + (size_t) k * G.bsize, Sk, base, sT, sF, sS);
  bool any = false;
  int lc = STAMP_LOCAL_BASE;   /* the sweep count's byte */
  mc = INFINITY;
  for (int it = 0; it < inner; it++)
    {
      if (threadIdx.x == 0)
        s_ch = 0;
      __syncthreads ();
      bool ch = false;
      for (int s = 0; s < c_st.nsub; s++)
        {
          const fold_subsweep *ss = &c_st.sub[s];
          const int sa = G.stride[ss->axis], su = G.stride[ss->u], sv = G.stride[ss->v];
          const int back = -ss->sign * sa;   /* the apex to its base plane */
          const int now = ++lc, since = now - NSUB_3D;
          typename Local<R>::coef3d kc;
          kc.F = -1.0f;
          for (int p = 0; p < b; p++)
            {
              const int ia = ss->sign > 0 ? p : b - 1 - p;
              const int oplane = G.inner0 + ia * sa;
              for (PlaneWalk w = walk0; w.t < plane; w.next ())
                {
                  const int o = oplane + w.v * sv + w.u * su;
                  const float f = sF[o];
                  if (!(f > 0.0f))
                    continue;
                  uint32_t fresh = 0;      /* the base nodes changed since (fresh_bit) */
#pragma unroll
                  for (int m = 0; m < 9; m++)
                    fresh |= Local<R>::fresh_bit (sS[o + base_off (back, su, sv, m)] > since, m);
                  if (!fresh)
                    continue;
                  R cur;
                  const R best = node_update_3d (sT, sF, o, back, su, sv, ss, kc, walls, f, fresh,
                                                 cur);
                  if (store_lower (sT, o, best, cur, ch, mc))
                    sS[o] = (uint8_t) now;
                }
              __syncthreads ();
            }
        }
      swept++;
      if (__any_sync (0xffffffffu, ch) && lane == 0)
        s_ch = 1;
      __syncthreads ();
      const bool again = s_ch;
      any |= again;
      __syncthreads ();      /* everyone read s_ch before it is reset */
      if (!again)
        break;
    }
  finish_sweep_3d (Tk, Sk, counter + k, sT, sS, base, lc, any, mc, s_min);
  return any;
}

/* One activation of 3D subdomain k with its sub-sweeps in three groups at
 * once (opt-in: fold_cuda_tuning.once3d = ONCE_GROUPS): group g of 256
 * threads sweeps along axis g, + then −, on its own copy of the subdomain;
 * after each round the copies are merged by least value, and rounds repeat
 * while a node changes.  As in 2D, every copy holds only times some update
 * produced, so the fixed point is the same.  A round is 32 dependent plane
 * steps instead of 96, and on the CPU's counts it takes about as many
 * rounds as in turn sweeps (RESULTS.md, fifteenth round): the latency of an
 * activation falls by up to 3x where few subdomains run (Ex_C), and the
 * GPU runs one subdomain per SM instead of three, which costs where many
 * do (the fold at 518³).  A node's base is fresh when a base node was
 * lowered by the last merge or pushed (stamp >= the round's start), or in
 * this copy during this round (its value below the merged one).  b = 16:
 * a plane is a group's 256 threads, and each group waits at its own
 * barrier (1 + g). */
constexpr int ONCE_GROUPS = 3;

template <typename R>
__device__ __forceinline__ bool
sweep3d_once_subdomain (R *T, const float *F, uint32_t *stamp, uint32_t *counter, int k,
                        int inner, double &mc, int &swept)
{
  extern __shared__ unsigned char smem[];
  __shared__ int s_ch;
  __shared__ double s_min[32];
  const FoldGeom &G = c_geo;
  R *sT = reinterpret_cast<R *> (smem);
  R *sC = sT + G.bsize;
  float *sF = reinterpret_cast<float *> (sC + ONCE_GROUPS * G.bsize);
  uint8_t *sS = reinterpret_cast<uint8_t *> (sF + G.bsize);
  const int b = G.b, plane = b * b;
  const int lane = threadIdx.x & 31;
  const int grp = (int) threadIdx.x >> 8, lt = (int) threadIdx.x & 255;
  R *Cg = sC + (size_t) grp * G.bsize;

  R *Tk = T + (size_t) k * G.bsize;
  uint32_t *Sk = stamp + (size_t) k * G.bsize;
  const uint32_t base = __ldcg (counter + k);
  const bool walls = load_subdomain_3d<ONCE_GROUPS> (Tk, F + (size_t) k * G.bsize, Sk, base, sT,
                                                     sF, sS);
  bool any = false;
  int lc = STAMP_LOCAL_BASE;
  mc = INFINITY;
  const int u0 = lt % b, v0 = lt / b;
  for (int it = 0; it < inner; it++)
    {
      const int rstart = lc;
      lc += NSUB_3D;
      if (threadIdx.x == 0)
        s_ch = 0;
      for (int j = 0; j < 2; j++)
        {
          const fold_subsweep *ss = &c_st.sub[2 * grp + j];
          const int sa = G.stride[ss->axis], su = G.stride[ss->u], sv = G.stride[ss->v];
          const int back = -ss->sign * sa;
          typename Local<R>::coef3d kc;
          kc.F = -1.0f;
          for (int p = 0; p < b; p++)
            {
              const int ia = ss->sign > 0 ? p : b - 1 - p;
              const int o = G.inner0 + ia * sa + v0 * sv + u0 * su;
              const float f = sF[o];
              if (f > 0.0f)
                {
                  uint32_t fresh = 0;
#pragma unroll
                  for (int m = 0; m < 9; m++)
                    {
                      const int om = o + base_off (back, su, sv, m);
                      fresh |= Local<R>::fresh_bit (sS[om] >= rstart || Cg[om] < sT[om], m);
                    }
                  if (fresh)
                    {
                      R cur;
                      const R best = node_update_3d (Cg, sF, o, back, su, sv, ss, kc, walls, f,
                                                     fresh, cur);
                      if (best < cur)
                        Cg[o] = best;
                    }
                }
              asm volatile ("bar.sync %0, %1;" ::"r"(grp + 1), "r"(256) : "memory");
            }
        }
      __syncthreads ();
      /* The merge: each inner node's least value, into sT and every copy. */
      bool ch = false;
      for (int t = threadIdx.x; t < plane * b; t += blockDim.x)
        {
          const int z = t / plane, r = t - z * plane;
          const int o = G.inner0 + z * G.stride[2] + (r / b) * G.stride[1] + r % b;
          R m = sT[o];
          for (int g = 0; g < ONCE_GROUPS; g++)
            {
              const R c = sC[(size_t) g * G.bsize + o];
              m = c < m ? c : m;
            }
          if (m < sT[o])
            {
              sT[o] = m;
              sS[o] = (uint8_t) lc;
              ch = true;
              if ((double) m < mc)
                mc = (double) m;
              for (int g = 0; g < ONCE_GROUPS; g++)
                sC[(size_t) g * G.bsize + o] = m;
            }
        }
      swept++;
      if (__any_sync (0xffffffffu, ch) && lane == 0)
        s_ch = 1;
      __syncthreads ();
      const bool again = s_ch;
      any |= again;
      __syncthreads ();
      if (!again)
        break;
    }
  finish_sweep_3d (Tk, Sk, counter + k, sT, sS, base, lc, any, mc, s_min);
  return any;
}

/* The same in 3D: a thread block per subdomain, b² plane nodes per pass of
 * the block's threads.  The body is sweep3d_subdomain's, written out again:
 * the pass kernel calling that function measured 2–7 % slower in double
 * at 504³ (RESULTS.md, sixth round), so the two are kept apart. */
template <typename R>
__global__ void __launch_bounds__ (256, BLOCKS_PER_SM_3D<R>)
sweep3d_kernel (R *T, const float *F, uint32_t *stamp, uint32_t *counter, int *active,
                unsigned *sd, uint8_t *changed, const int *list_a, const int *list_b, FoldCtl *ctl,
                unsigned *take, int first, int inner)
{
  extern __shared__ unsigned char smem[];
  __shared__ int s_act, s_ch, s_i;
  __shared__ double s_min[32];
  const FoldGeom &G = c_geo;
  const int n = ctl->n, end = min (n, first + CHUNK);
  const int *list = ctl->list ? list_b : list_a;
  R *sT = reinterpret_cast<R *> (smem);
  float *sF = reinterpret_cast<float *> (sT + G.bsize);
  uint8_t *sS = reinterpret_cast<uint8_t *> (sF + G.bsize);
  const int b = G.b, plane = b * b;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  const PlaneWalk walk0 (b);
  int swept = 0;

  for (int i = first + (int) blockIdx.x; i < end; i = take_next (take, first, s_i))
    {
      const int k = list[i];
      if (!still_active (k, active, changed, s_act))
        continue;
      R *Tk = T + (size_t) k * G.bsize;
      const float *Fk = F + (size_t) k * G.bsize;
      uint32_t *Sk = stamp + (size_t) k * G.bsize;
      const uint32_t base = counter[k];
      int zero = 0;
      for (int q = threadIdx.x; q < G.bsize; q += blockDim.x)
        {
          sT[q] = Tk[q];
          sF[q] = Fk[q];
          sS[q] = stamp_local (Sk[q], base);
          zero |= Fk[q] == 0.0f;
        }
      /* Diagonal walls are looked for only where an obstacle is. */
      const bool walls = __syncthreads_or (zero);
      bool any = false;
      int lc = STAMP_LOCAL_BASE;   /* the sweep count's byte */
      double mc = INFINITY;
      for (int it = 0; it < inner; it++)
        {
          if (threadIdx.x == 0)
            s_ch = 0;
          __syncthreads ();
          bool ch = false;
          for (int s = 0; s < c_st.nsub; s++)
            {
              const fold_subsweep *ss = &c_st.sub[s];
              const int sa = G.stride[ss->axis], su = G.stride[ss->u], sv = G.stride[ss->v];
              const int back = -ss->sign * sa;
              const int now = ++lc, since = now - NSUB_3D;
              typename Local<R>::coef3d kc;
              kc.F = -1.0f;
              for (int p = 0; p < b; p++)
                {
                  const int ia = ss->sign > 0 ? p : b - 1 - p;
                  const int oplane = G.inner0 + ia * sa;
                  for (PlaneWalk w = walk0; w.t < plane; w.next ())
                    {
                      const int o = oplane + w.v * sv + w.u * su;
                      const float f = sF[o];
                      if (!(f > 0.0f))
                        continue;
                      uint32_t fresh = 0;      /* the base nodes changed since (fresh_bit) */
#pragma unroll
                      for (int m = 0; m < 9; m++)
                        fresh |= Local<R>::fresh_bit (sS[o + base_off (back, su, sv, m)] > since,
                                                      m);
                      if (!fresh)
                        continue;
                      R cur;
                      const R best = node_update_3d (sT, sF, o, back, su, sv, ss, kc, walls, f,
                                                     fresh, cur);
                      if (store_lower (sT, o, best, cur, ch, mc))
                        sS[o] = (uint8_t) now;
                    }
                  __syncthreads ();
                }
            }
          swept++;
          if (__any_sync (0xffffffffu, ch) && lane == 0)
            s_ch = 1;
          __syncthreads ();
          const bool again = s_ch;
          any |= again;
          __syncthreads ();      /* everyone read s_ch before it is reset */
          if (!again)
            break;
        }
      mc = warp_min (mc);
      if (lane == 0)
        s_min[warp] = mc;
      __syncthreads ();
      if (any)
        for (int q = threadIdx.x; q < G.bsize; q += blockDim.x)
          {
            Tk[q] = sT[q];
            if (sS[q] >= STAMP_LOCAL_NOW)     /* only inner nodes' stamps change */
              Sk[q] = stamp_global (sS[q], base);
          }
      if (threadIdx.x == 0)
        {
          counter[k] = base + (uint32_t) (lc - STAMP_LOCAL_BASE);
          for (int w = 1; w < nwarps; w++)
            mc = fold_min (mc, s_min[w]);
          changed[k] = any;
          active[k] = any;
          sd[k] = any ? time_key (mc) : KEY_INF;
        }
      __syncthreads ();
    }
  if (threadIdx.x == 0 && swept)
    atomicAdd ((unsigned long long *) &ctl->sweeps, (unsigned long long) swept);
}

/* Subdomain k lowers its neighbours' ghost copies of its inner nodes,
 * thread tid of nthr; fold-pmm.c's push, all directions.  In a pass a
 * lowered neighbour is made active here; for the queue kernel (QUEUE) the
 * bits of the lowered directions are gathered in *woke instead, and the
 * ghosts' stamps say `pushed` rather than a sweep count.
 * Either way SD_N = min(SD_N, least lowered). */
template <bool QUEUE, typename R>
__device__ void
push_one (R *T, uint32_t *stamp, const uint32_t *counter, int *active, unsigned *sd, int k,
          int tid, int nthr, unsigned *woke, uint32_t pushed)
{
  const FoldGeom &G = c_geo;
  const int bx = k % G.nb[0], by = (k / G.nb[0]) % G.nb[1], bz = k / (G.nb[0] * G.nb[1]);
  const R *src = T + (size_t) k * G.bsize;

  for (int d = 0; d < G.ndirs; d++)
    {
      const int *dir = G.dirs[d];
      const int nx = bx + dir[0], ny = by + dir[1], nz = bz + dir[2];
      if (nx < 0 || ny < 0 || nz < 0 || nx >= G.nb[0] || ny >= G.nb[1] || nz >= G.nb[2])
        continue;
      const int nk = (nz * G.nb[1] + ny) * G.nb[0] + nx;
      R *dst = T + (size_t) nk * G.bsize;
      uint32_t *dst_stamp = stamp + (size_t) nk * G.bsize;
      /* Stamped so that every direction of N's next sweep sees it: in a
       * pass, one past N's counter; in the queue kernel, where N may be
       * running, `pushed` (STAMP_PUSHED and this push's number), which N's
       * next load turns into "fresh". */
      const uint32_t mark = QUEUE ? pushed : counter[nk] + 1u;
      int lo[3], w[3], shift[3];
      for (int a = 0; a < 3; a++)
        {
          if (G.g[a] == 0)
            lo[a] = 0, w[a] = 1, shift[a] = 0;
          else if (dir[a] > 0)        /* src's last inner layer -> dst's low ghosts */
            lo[a] = G.b, w[a] = 1, shift[a] = -G.b;
          else if (dir[a] < 0)        /* src's first inner layer -> dst's high ghosts */
            lo[a] = 1, w[a] = 1, shift[a] = G.b;
          else
            lo[a] = 1, w[a] = G.b, shift[a] = 0;
        }
      const int dshift = shift[2] * G.stride[2] + shift[1] * G.stride[1] + shift[0];
      const int cnt = w[0] * w[1] * w[2];
      float ml = INFINITY;
      bool lowered = false;
      for (int idx = tid; idx < cnt; idx += nthr)
        {
          const int i = lo[0] + idx % w[0];
          const int j = lo[1] + (idx / w[0]) % w[1];
          const int kk = lo[2] + idx / (w[0] * w[1]);
          const int o = kk * G.stride[2] + j * G.stride[1] + i;
          const R v = ld<QUEUE> (src + o);
          if (v < ld<QUEUE> (dst + o + dshift))
            {
              st<QUEUE> (dst + o + dshift, v);
              if (QUEUE)
                __threadfence ();   /* the value before the stamp (sweep3d_subdomain) */
              st<QUEUE> (dst_stamp + o + dshift, mark);
              ml = fminf (ml, (float) v);
              lowered = true;
            }
        }
      if (lowered)
        {
          atomicMin (&sd[nk], fold_key (ml));
          if (QUEUE)
            atomicOr (woke, 1u << d);
          else
            active[nk] = 1;
        }
    }
}

template <typename R>
__global__ void
push_kernel (R *T, uint32_t *stamp, const uint32_t *counter, int *active, unsigned *sd,
             const uint8_t *changed, const int *list_a, const int *list_b, const FoldCtl *ctl,
             int first, int group)
{
  const int n = ctl->n, end = min (n, first + CHUNK);
  const int *list = ctl->list ? list_b : list_a;
  const int groups = blockDim.x / group, gid = threadIdx.x / group, tid = threadIdx.x % group;

  for (int i = first + blockIdx.x * groups + gid; i < end; i += gridDim.x * groups)
    {
      const int k = list[i];
      if (changed[k])
        push_one<false> (T, stamp, counter, active, sd, k, tid, group, (unsigned *) nullptr, 0u);
    }
}

/* ----------------------------------------------------- the queue kernel
 * Instead of passes, one persistent kernel: each block takes the next
 * subdomain from a queue on the device, sweeps it, pushes its ghosts and
 * wakes the neighbours it lowered, and takes the next at once.  No block
 * waits for a pass's slowest sweep, and no kernel boundary separates one
 * sweep from the next (RESULTS.md: a pass held 274 sweeps for 396 places
 * and lasted as long as its slowest one).
 *
 * The order is the passes' own: a schedule of subdomains (SOLAS: those
 * whose SD lies below the threshold; LAS: every active one) is held while
 * it settles.  Its members go back into the queue whenever they change or
 * are woken; other subdomains woken meanwhile wait.  When no more than a
 * 64th of the schedule is still queued or running, one block builds the
 * next schedule from everything active, as the tally and compact kernels
 * do between passes.  (Admitting every woken subdomain at once, ordered by
 * putting back those above the queue's mean SD, swept 9.3 times per
 * subdomain at 518³ against the passes' 6.8: RESULTS.md, sixth round.)
 * In 3D a schedule no larger than the GPU holds at once runs in rounds,
 * as passes do (queue_build; 2D has none).  LAS in 2D is eager: every
 * subdomain is a member of its one schedule, and a woken one is queued at
 * once (FoldQueue.eager).  Work is handed out by tickets, and spread one
 * sweep per SM first (queue_take).
 *
 * A subdomain's state is four bits: ACTIVE (it needs a sweep), QUEUED (it
 * is in the ring), RUNNING (a block sweeps it) and MEMBER (of the schedule
 * held).  ACTIVE alone: it waits for the next schedule.  A push sets
 * ACTIVE; an idle member is then queued at once.  A block that takes a
 * subdomain sets RUNNING and clears ACTIVE and QUEUED in one step: pushes
 * from then on set ACTIVE again, and the subdomain is swept again with
 * the new ghosts (at once if it is a member, else with the next
 * schedule).  A sweep that changed a node leaves it ACTIVE, as a pass
 * keeps it active.  `pending` counts the subdomains queued or running;
 * `waits` counts entries into the waiting state, so that a schedule is
 * built only when something new waits.  A build that starts with nothing
 * pending (then nothing runs, and nothing can wake) and finds nothing
 * active ends the solve.
 *
 * Sweeps write only their inner nodes and pushes only ghosts, so they
 * never write the same word, and values only fall: a sweep that reads a
 * ghost while it is being lowered reads a valid upper bound either way,
 * and is woken again.  A pass's push stamps a ghost one past its
 * subdomain's sweep count; here the subdomain may be mid-sweep, so a push
 * stamps STAMP_PUSHED (after the value, fenced) and the next sweep to load
 * the stamp (before the values, fenced) takes it as fresh and clears it.
 *
 * The ring holds each subdomain at most once, so nblocks entries do.  A
 * launch gives up taking new work after `budget_ns` (no launch may meet a
 * display watchdog; a block still waits for the entry of a ticket it
 * holds); the host launches it again while work is pending. */
constexpr int SUB_ACTIVE = 1, SUB_QUEUED = 2, SUB_RUNNING = 4, SUB_MEMBER = 8;
constexpr unsigned long long QUEUE_BUDGET_NS = 100000000ull;   /* 0.1 s a launch */
constexpr int TAKE_DONE = -1, TAKE_BUILD = -2;

/* The queue's arrays.  sd: each subdomain's SD as in a pass (least lowered
 * ghost or changed node, fold_key). */
struct FoldQueue {
  int *ring, *state, *rest;
  unsigned *sd;
  int cap;
  int min_act;     /* SOLAS's least schedule: a shorter one takes every active subdomain */
  int rounds_max;  /* a schedule of at most this many members runs in rounds */
  int nsm;         /* the device's SMs */
  bool solas;
  bool eager;      /* LAS: every subdomain is a member, so a woken one is queued at once */
  bool admit;      /* SOLAS: a woken subdomain below the held threshold joins at once */
};

__device__ __forceinline__ unsigned long long
global_ns ()
{
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* Writes k into ring entry e (what the caller wrote before is fenced
 * first).  The slot may still wait for the taker of the entry cap before
 * this one. */
__device__ __forceinline__ void
queue_put (const FoldQueue &Q, unsigned long long e, int k)
{
  while (atomicCAS (Q.ring + e % (unsigned long long) Q.cap, 0, k + 1) != 0)
    __nanosleep (32);
}

__device__ void
queue_append (FoldCtl *ctl, const FoldQueue &Q, int k)
{
  __threadfence ();
  queue_put (Q, atomicAdd (&ctl->qtail, 1ull), k);
}

/* A waiting subdomain appeared: counted after its state is visible. */
__device__ __forceinline__ void
queue_waits (FoldCtl *ctl)
{
  __threadfence ();
  atomicAdd (&ctl->waits, 1u);
}

/* The next subdomain; TAKE_BUILD when this block is to build the next
 * schedule (it then holds the builder's lock); TAKE_DONE when the solve is
 * done or the launch's time is up.  One thread of the block calls this.
 *
 * A block takes a ticket, the number of a ring entry, with one atomicAdd,
 * and then waits for that entry alone, even if it is not written yet: a
 * round's few entries go to the blocks that wait, without a race for the
 * head (with compare-and-swap on the head, the losers' retries handed
 * them out one per round trip).  A block that holds a ticket keeps it until
 * its entry comes, also past the launch's deadline, so that no entry is
 * lost; it still builds schedules meanwhile, and a solve that is done
 * leaves tickets unused.
 *
 * rank: the block's place among those resident on its SM.  A block of
 * rank r takes a ticket only while r × nsm sweeps or more run: a sweep has
 * an SM to itself while there are SMs to spare, as in a pass, whose
 * blocks the hardware spreads over the SMs (two sweeps on one SM both take
 * longer, and a round lasts as long as its slowest sweep). */
__device__ int
queue_take (FoldCtl *ctl, const FoldQueue &Q, unsigned long long deadline, int rank,
            long long &ticket)
{
  volatile FoldCtl *v = ctl;
  for (;;)
    {
      if (v->done)
        return TAKE_DONE;
      /* The schedule has (nearly) settled and something new waits, or
       * nothing is pending at all: build the next one. */
      const int pend = v->pending;
      if ((pend == 0
           || (!v->rounds && pend <= v->gen_n / 64 && v->waits != v->built_waits))
          && atomicCAS (&ctl->building, 0, 1) == 0)
        return TAKE_BUILD;
      if (ticket < 0)
        {
          if (global_ns () > deadline)
            return TAKE_DONE;
          const long long queued = (long long) (v->qtail - v->qhead);
          if (rank > 0 && (long long) pend - (queued > 0 ? queued : 0) < (long long) rank * Q.nsm)
            {
              __nanosleep (256);
              continue;
            }
          ticket = (long long) atomicAdd (&ctl->qhead, 1ull);
        }
      int *slot = Q.ring + (unsigned long long) ticket % (unsigned long long) Q.cap;
      if (*(volatile int *) slot == 0)      /* its writer is not there yet */
        {
          __nanosleep (128);
          continue;
        }
      /* On a small ring, tickets a lap apart wait on one slot, and either
       * may take what comes first: each entry still goes to one of them. */
      const int x = atomicExch (slot, 0);
      if (x == 0)
        continue;
      ticket = -1;
      __threadfence ();
      return x - 1;
    }
}

__device__ __forceinline__ int
ld_volatile (const int *p)
{
  return *(const volatile int *) p;
}

/* A member rests until the next round. */
__device__ __forceinline__ void
queue_rest (FoldCtl *ctl, const FoldQueue &Q, int k)
{
  __stcg (Q.rest + atomicAdd (&ctl->n_rest, 1), k);
}

/* A push lowered k's ghosts (fenced before): an idle member is queued now
 * (in rounds it rests until the next round), an idle non-member waits; the
 * rest is already seen to. */
__device__ void
queue_wake (FoldCtl *ctl, const FoldQueue &Q, int k)
{
  int old = atomicOr (Q.state + k, SUB_ACTIVE);
  if (old & (SUB_ACTIVE | SUB_QUEUED | SUB_RUNNING))
    return;
  int from = old | SUB_ACTIVE;
  if (!(old & SUB_MEMBER) && Q.admit
      && __ldcg (Q.sd + k) < *(volatile unsigned *) &ctl->admit_key
      && atomicCAS (Q.state + k, from, from | SUB_MEMBER) == from)
    {
      /* Below the held schedule's threshold: the builder would have taken
       * it; it joins now rather than at the next build. */
      atomicAdd (&ctl->gen_n, 1);
      old |= SUB_MEMBER;
      from |= SUB_MEMBER;
    }
  if (old & SUB_MEMBER)
    {
      if (ld_volatile (&ctl->rounds))
        {
          queue_rest (ctl, Q, k);
          return;
        }
      if (atomicCAS (Q.state + k, from, from | SUB_QUEUED) == from)
        {
          atomicAdd (&ctl->pending, 1);
          queue_append (ctl, Q, k);
          return;
        }
    }
  queue_waits (ctl);   /* or the builder moved it on meanwhile: one build more at most */
}

/* Sets RUNNING and clears ACTIVE and QUEUED in one step (a push between
 * two steps would see an idle member and queue it a second time). */
__device__ __forceinline__ void
queue_start (const FoldQueue &Q, int k)
{
  int old = __ldcg (Q.state + k), prev;
  while ((prev = atomicCAS (Q.state + k, old, (old & SUB_MEMBER) | SUB_RUNNING)) != old)
    old = prev;
}

/* k's sweep ended (changed: it lowered an inner node).  A member that
 * changed or was woken while it ran goes back into the queue, or in
 * rounds rests until the next round; a non-member that changed or was
 * woken waits; the rest is idle. */
__device__ void
queue_finish (FoldCtl *ctl, const FoldQueue &Q, int k, bool changed)
{
  const bool rounds = ld_volatile (&ctl->rounds);
  int old = __ldcg (Q.state + k), to, prev;
  for (;;)
    {
      const bool again = changed || (old & SUB_ACTIVE);
      if (!again)
        to = old & SUB_MEMBER;
      else if ((old & SUB_MEMBER) && !rounds)
        to = SUB_MEMBER | SUB_ACTIVE | SUB_QUEUED;
      else
        to = (old & SUB_MEMBER) | SUB_ACTIVE;
      if ((prev = atomicCAS (Q.state + k, old, to)) == old)
        break;
      old = prev;
    }
  if (to & SUB_QUEUED)
    {
      queue_append (ctl, Q, k);             /* still pending */
      return;
    }
  if (to == (SUB_MEMBER | SUB_ACTIVE))
    queue_rest (ctl, Q, k);
  else if (to & SUB_ACTIVE)
    queue_waits (ctl);
  __threadfence ();
  atomicSub (&ctl->pending, 1);
}

/* The next schedule, by the whole block (thread 0 holds the builder's
 * lock): the passes' tally, threshold and compaction over the states.
 * Subdomains below the threshold become members, and those of them that
 * wait are queued; the others stop being members.  A schedule that fits
 * the GPU at once (no more members than blocks) runs in rounds, as passes
 * do: its members rest when they change or are woken (listed in `rest`),
 * and when nothing is pending the next round queues them all again, while
 * more than a 64th of them rest.  There a queue has no idle SMs to fill,
 * and a sweep started before its neighbours' pushes only adds a sweep:
 * Ex_C, whose schedules hold about 60 subdomains, swept 17 times per
 * subdomain instead of 10 (RESULTS.md, seventh round). */
constexpr int SCAN_ILP = 8;    /* loads in flight per thread in a scan */

/* Queues the block's subdomains with put set, a warp's at once (the
 * states already say QUEUED). */
__device__ __forceinline__ void
queue_put_warp (FoldCtl *ctl, const FoldQueue &Q, bool put, int k)
{
  const int lane = threadIdx.x & 31;
  const unsigned mask = __ballot_sync (0xffffffffu, put);
  if (!mask)
    return;
  unsigned long long e0 = 0;
  if (lane == 0)
    {
      atomicAdd (&ctl->pending, __popc (mask));
      __threadfence ();
      e0 = atomicAdd (&ctl->qtail, (unsigned long long) __popc (mask));
    }
  e0 = __shfl_sync (0xffffffffu, e0, 0);
  if (put)
    queue_put (Q, e0 + __popc (mask & ((1u << lane) - 1u)), k);
}

/* Makes k (state s as read) a member; whether it must be put into the
 * ring (it waited or rested). */
__device__ __forceinline__ bool
queue_admit (const FoldQueue &Q, int k, int s)
{
  for (;;)
    {
      const int to = (s & (SUB_QUEUED | SUB_RUNNING)) ? s | SUB_MEMBER
                     : s | SUB_MEMBER | SUB_QUEUED;
      const int prev = atomicCAS (Q.state + k, s, to);
      if (prev == s)
        return to & ~s & SUB_QUEUED;
      s = prev;
      if (!(s & SUB_ACTIVE))     /* its sweep started meanwhile */
        {
          atomicOr (Q.state + k, SUB_MEMBER);
          return false;
        }
    }
}

/* The block's sum of x, in thread 0 (scratch: 32 words). */
template <typename V>
__device__ __forceinline__ V
block_sum (V x, V *scratch)
{
  for (int o = 16; o > 0; o >>= 1)
    x += __shfl_xor_sync (0xffffffffu, x, o);
  __syncthreads ();                  /* scratch free from the last call */
  if ((threadIdx.x & 31) == 0)
    scratch[threadIdx.x >> 5] = x;
  __syncthreads ();
  if (threadIdx.x == 0)
    for (int w = 1; w < (int) (blockDim.x >> 5); w++)
      x += scratch[w];
  return x;
}

/* A scan's loads: the states and SD keys of the block's SCAN_ILP entries
 * from base (entry base + j blockDim + thread), all issued before any is
 * used; past the end, idle and +inf. */
__device__ __forceinline__ void
scan_load (const FoldQueue &Q, int base, int (&st)[SCAN_ILP], unsigned (&key)[SCAN_ILP])
{
#pragma unroll
  for (int j = 0; j < SCAN_ILP; j++)
    {
      const int k = base + j * (int) blockDim.x + (int) threadIdx.x;
      const bool in = k < c_geo.nblocks;
      st[j] = in ? __ldcg (Q.state + k) : 0;
      key[j] = in ? __ldcg (Q.sd + k) : KEY_INF;
    }
}

__device__ void
queue_build (FoldCtl *ctl, const FoldQueue &Q)
{
  __shared__ int s_int[32];
  __shared__ double s_dbl[32];
  __shared__ double s_thr;
  __shared__ int s_pending, s_rest, s_admitted;
  __shared__ bool s_done, s_round;
  volatile FoldCtl *v = ctl;
  const int nb = c_geo.nblocks, step = (int) blockDim.x;

  if (threadIdx.x == 0)
    {
      __threadfence ();
      s_pending = v->pending;      /* 0: nothing runs, so nothing wakes during the scan */
      v->built_waits = v->waits;   /* what waits from now on asks for another build */
      s_rest = v->n_rest;
      s_round = v->rounds && s_pending == 0 && s_rest > v->gen_n / 64;
      v->n_rest = 0;               /* a rebuild lists its own */
      __threadfence ();
    }
  __syncthreads ();

  if (s_round)
    {
      /* The same schedule once more: the resting members into the ring. */
      for (int base = 0; base < s_rest; base += step)
        {
          const int i = base + (int) threadIdx.x;
          const int k = i < s_rest ? __ldcg (Q.rest + i) : 0;
          const bool put = i < s_rest && queue_admit (Q, k, __ldcg (Q.state + k));
          queue_put_warp (ctl, Q, put, k);
        }
      __syncthreads ();
      if (threadIdx.x == 0)
        {
          v->passes++;
          __threadfence ();
          v->building = 0;
        }
      return;
    }

  /* Tally: the active subdomains, the sum of their SD, and all alive. */
  int n = 0, alive = 0;
  double sum = 0.0;
  for (int base = 0; base < nb; base += step * SCAN_ILP)
    {
      int st[SCAN_ILP];
      unsigned key[SCAN_ILP];
      scan_load (Q, base, st, key);
#pragma unroll
      for (int j = 0; j < SCAN_ILP; j++)
        {
          alive += (st[j] & (SUB_ACTIVE | SUB_QUEUED | SUB_RUNNING)) != 0;
          if ((st[j] & SUB_ACTIVE) && key[j] < KEY_INF)
            n++, sum += (double) fold_unkey (key[j]);
        }
    }
  n = block_sum (n, s_int);
  alive = block_sum (alive, s_int);
  sum = block_sum (sum, s_dbl);
  if (threadIdx.x == 0)
    {
      double thr = INFINITY;
      if (Q.solas && n > 0)
        {
          double old_av = v->old_av;
          thr = fold_solas_threshold (sum / n, &old_av);
          v->old_av = old_av;
        }
      s_thr = thr;
      s_done = alive == 0 && s_pending == 0;
      if (s_done)
        {
          v->done = 1;
          v->building = 0;
        }
    }
  __syncthreads ();
  if (s_done)
    return;

  /* Membership, then (SOLAS: a schedule shorter than min_act takes every
   * active subdomain) a second look at the rest. */
  int members = 0;
  for (int look = 0; look < 2; look++)
    {
      const double thr = look ? INFINITY : s_thr;
      for (int base = 0; base < nb; base += step * SCAN_ILP)
        {
          int st[SCAN_ILP];
          unsigned key[SCAN_ILP];
          scan_load (Q, base, st, key);
#pragma unroll
          for (int j = 0; j < SCAN_ILP; j++)
            {
              const int k = base + j * step + (int) threadIdx.x;
              const int s = st[j];
              const bool in = (s & SUB_ACTIVE)
                              && (thr == INFINITY || (double) fold_unkey (key[j]) < thr);
              bool put = false;
              if (!(s & SUB_ACTIVE) && (s & SUB_RUNNING))
                ;   /* mid-sweep, its SD unknown: its membership stays as it is */
              else if (in)
                {
                  if (!look || !(s & SUB_MEMBER))
                    members++;
                  put = queue_admit (Q, k, s);
                }
              else if (!look && (s & SUB_MEMBER) && !Q.eager)
                atomicAnd (Q.state + k, ~SUB_MEMBER);
              else if (!look && !(s & SUB_MEMBER) && Q.eager && k < nb)
                atomicOr (Q.state + k, SUB_MEMBER);
              queue_put_warp (ctl, Q, put, k);
            }
        }
      const int total = block_sum (members, s_int);
      if (threadIdx.x == 0)
        s_admitted = total;
      __syncthreads ();
      if (s_thr == INFINITY || s_admitted >= Q.min_act)
        break;
    }
  if (threadIdx.x == 0)
    {
      v->gen_n = s_admitted;
      v->admit_key = s_thr < INFINITY && s_admitted >= Q.min_act ? time_key (s_thr) : 0u;
      v->rounds = s_admitted <= Q.rounds_max;
      if (s_admitted)
        v->schedules++;
      __threadfence ();
      v->building = 0;
    }
}

/* The start: every active subdomain waits for the first schedule. */
__global__ void
queue_seed_kernel (const int *active, FoldQueue Q)
{
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < c_geo.nblocks;
       k += gridDim.x * blockDim.x)
    Q.state[k] = active[k] ? SUB_ACTIVE : 0;
}

/* NDIM 3: blocks of 256 threads, sweep3d_subdomain, or with ONCE groups of
 * 256, sweep3d_once_subdomain; NDIM 2: blocks of 128 (four warps),
 * sweep2d_subdomain. */
template <int NDIM, typename R, int ONCE = 0>
__global__ void __launch_bounds__ (ONCE ? 256 * ONCE : NDIM == 3 ? 256 : 128,
                                   ONCE ? 1 : NDIM == 3 ? BLOCKS_PER_SM_3D<R> : 1)
sweep_queue_kernel (R *T, const float *F, uint32_t *stamp, uint32_t *counter, FoldQueue Q,
                    FoldCtl *ctl, int inner, unsigned long long budget_ns)
{
  __shared__ int s_k;
  __shared__ unsigned s_woke, s_pushed;
  const FoldGeom &G = c_geo;
  const unsigned long long deadline = global_ns () + budget_ns;
  int swept = 0;
  unsigned smid = 0;
  int rank = 0;
  long long ticket = -1;      /* thread 0's (queue_take) */
  if (threadIdx.x == 0)
    {
      asm volatile ("mov.u32 %0, %%smid;" : "=r"(smid));
      if (smid < 256)
        rank = (int) atomicAdd (&ctl->sm_blocks[smid], 1u);
    }

  for (;;)
    {
      if (threadIdx.x == 0)
        {
          const int k = queue_take (ctl, Q, deadline, rank, ticket);
          if (k >= 0)
            {
              queue_start (Q, k);
              atomicExch (Q.sd + k, KEY_INF);          /* pushes lower SD again */
              __threadfence ();
            }
          s_k = k;
          s_woke = 0;
          s_pushed = STAMP_PUSHED | (atomicAdd (&ctl->pushes, 1u) & ~STAMP_PUSHED);
        }
      __syncthreads ();
      const int k = s_k;
      if (k == TAKE_DONE)
        break;
      if (k == TAKE_BUILD)
        {
          queue_build (ctl, Q);
          __syncthreads ();
          continue;
        }
      double mc;
      bool any;
      if constexpr (NDIM == 3 && ONCE != 0)
        any = sweep3d_once_subdomain (T, F, stamp, counter, k, inner, mc, swept);
      else if constexpr (NDIM == 3)
        any = sweep3d_subdomain (T, F, stamp, counter, k, inner, mc, swept);
      else
        any = sweep2d_subdomain<true> (T, F, k, inner, mc, swept);
      __syncthreads ();                          /* the inner nodes are written */
      if (any)
        {
          push_one<true> (T, stamp, counter, (int *) nullptr, Q.sd, k, (int) threadIdx.x,
                    (int) blockDim.x, &s_woke, s_pushed);
          __threadfence ();
          __syncthreads ();
          const int d = (int) threadIdx.x;
          if (d < G.ndirs && (s_woke >> d & 1u))
            {
              const int bx = k % G.nb[0], by = (k / G.nb[0]) % G.nb[1];
              const int bz = k / (G.nb[0] * G.nb[1]);
              const int nk = ((bz + G.dirs[d][2]) * G.nb[1] + by + G.dirs[d][1]) * G.nb[0] + bx
                             + G.dirs[d][0];
              queue_wake (ctl, Q, nk);
            }
          __syncthreads ();                      /* the wakes counted before k may end */
        }
      if (threadIdx.x == 0)
        {
          if (any)
            atomicMin (Q.sd + k, time_key (mc));
          queue_finish (ctl, Q, k, any);
        }
    }
  if (threadIdx.x == 0 && swept)
    atomicAdd ((unsigned long long *) &ctl->sweeps, (unsigned long long) swept);
  if (threadIdx.x == 0 && smid < 256)
    atomicSub (&ctl->sm_blocks[smid], 1u);      /* the next launch ranks afresh */
}

/* Inner values back into a flat grid (x fastest). */
template <typename R>
__global__ void
gather_kernel (const R *T, R *flat, size_t count)
{
  const FoldGeom &G = c_geo;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < count;
       i += (size_t) gridDim.x * blockDim.x)
    {
      const int gx = (int) (i % G.n[0]), gy = (int) ((i / G.n[0]) % G.n[1]);
      const int gz = (int) (i / ((size_t) G.n[0] * G.n[1]));
      const int k = ((gz / G.b) * G.nb[1] + (G.ndim == 3 ? gy / G.b : 0)) * G.nb[0] + gx / G.b;
      const int o = G.inner0 + (gz % G.b) * G.stride[2]
                    + (G.ndim == 3 ? gy % G.b : 0) * G.stride[1] + gx % G.b;
      flat[i] = T[(size_t) k * G.bsize + o];
    }
}

__global__ void
to_float_kernel (const double *in, float *out, size_t count)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < count;
       i += (size_t) gridDim.x * blockDim.x)
    out[i] = (float) in[i];
}

/* ------------------------------------------------------------- host side */

/* Device buffers, kept from one solve to the next while they total at most
 * KEEP_BYTES: a dragged ψa solves the same grid again and again, and
 * cudaMalloc/cudaFree (which synchronises) would cost more than a small
 * solve.  The pinned host slots (64 MB whatever the grid) are kept
 * whatever the size: pinning and unpinning them again cost a big solve
 * tens of ms (RESULTS.md, tenth round).  One solve at a time holds the
 * workspace (the mutex); an atexit handler gives everything back before
 * the CUDA runtime goes. */
struct Buf {
  void *p = nullptr;
  size_t cap = 0;
};

struct FoldWorkspace {
  std::mutex lock;
  Buf T, F, stamp, counter, flat, speed, frozen, starts, active, list_a, list_b, sd, changed, ctl,
      take;
  Buf slot[2], host_ctl;          /* pinned host memory (slot: see upload) */
  cudaStream_t stream = nullptr;
  cudaEvent_t ev0 = nullptr, ev1 = nullptr;
  cudaEvent_t slot_free[2] = { nullptr, nullptr };   /* the last copy through slot[i] is done */
  int device = -1;
  bool atexit_set = false;

  Buf *device_bufs[15] = { &T, &F, &stamp, &counter, &flat, &speed, &frozen, &starts, &active,
                           &list_a, &list_b, &sd, &changed, &ctl, &take };

  size_t
  device_held () const
  {
    size_t n = 0;
    for (const Buf *b : device_bufs)
      n += b->cap;
    return n;
  }

  /* The device buffers only: the pinned slots, the stream and the events
   * are the same for every grid. */
  void
  release_device ()
  {
    for (Buf *b : device_bufs)
      {
        cudaFree (b->p);
        *b = Buf ();
      }
    cudaGetLastError ();
  }

  void
  release ()
  {
    release_device ();
    for (int i = 0; i < 2; i++)
      {
        cudaFreeHost (slot[i].p);
        slot[i] = Buf ();
        if (slot_free[i])
          cudaEventDestroy (slot_free[i]);
        slot_free[i] = nullptr;
      }
    cudaFreeHost (host_ctl.p);
    host_ctl = Buf ();
    if (ev0)
      cudaEventDestroy (ev0);
    if (ev1)
      cudaEventDestroy (ev1);
    if (stream)
      cudaStreamDestroy (stream);
    ev0 = ev1 = nullptr;
    stream = nullptr;
    device = -1;
    cudaGetLastError ();
  }
};

FoldWorkspace ws;
constexpr size_t KEEP_BYTES = (size_t) 256 << 20;

void
ws_release_at_exit ()
{
  std::lock_guard<std::mutex> hold (ws.lock);
  ws.release ();
}

cudaError_t
ensure (Buf &b, size_t bytes)
{
  if (b.cap >= bytes)
    return cudaSuccess;
  cudaFree (b.p);
  b = Buf ();
  cudaError_t e = cudaMalloc (&b.p, bytes);
  if (e == cudaSuccess)
    b.cap = bytes;
  else
    b.p = nullptr;
  return e;
}

cudaError_t
ensure_pinned (Buf &b, size_t bytes)
{
  if (b.cap >= bytes)
    return cudaSuccess;
  cudaFreeHost (b.p);
  b = Buf ();
  cudaError_t e = cudaMallocHost (&b.p, bytes);
  if (e == cudaSuccess)
    b.cap = bytes;
  else
    b.p = nullptr;
  return e;
}

/* Host <-> device copies of whole grids go through the two pinned slots,
 * a chunk at a time: the host fills (or drains) one slot while the other
 * one's copy is in flight.  A copy from pageable memory runs at a fraction
 * of the link's speed, and pinning a big grid's own pages costs more than
 * that saves; the slots are pinned once and kept. */
constexpr size_t SLOT_BYTES = (size_t) 32 << 20;

/* memcpy by all threads (a slot is written while a copy is in flight);
 * src NULL: memset to 0 instead (a fresh grid's pages touched). */
void
copy_parallel (void *dst, const void *src, size_t bytes)
{
  const size_t piece = (size_t) 1 << 20;
  const long pieces = (long) ((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static)
  for (long k = 0; k < pieces; k++)
    {
      const size_t at = (size_t) k * piece, len = bytes - at < piece ? bytes - at : piece;
      if (src != nullptr)
        memcpy ((char *) dst + at, (const char *) src + at, len);
      else
        memset ((char *) dst + at, 0, len);
    }
}

/* count elements of esize bytes to dst on the device; fill (slot, first,
 * n) writes elements first .. first + n into slot. */
template <typename Fill>
cudaError_t
upload (void *dst, size_t count, size_t esize, cudaStream_t stream, Fill fill)
{
  const size_t per = SLOT_BYTES / esize;
  for (size_t first = 0, k = 0; first < count; first += per, k++)
    {
      const int i = (int) (k % 2);
      const size_t n = count - first < per ? count - first : per;
      cudaError_t e = cudaEventSynchronize (ws.slot_free[i]);
      if (e != cudaSuccess)
        return e;
      fill (ws.slot[i].p, first, n);
      if ((e = cudaMemcpyAsync ((char *) dst + first * esize, ws.slot[i].p, n * esize,
                                cudaMemcpyHostToDevice, stream)) != cudaSuccess
          || (e = cudaEventRecord (ws.slot_free[i], stream)) != cudaSuccess)
        return e;
    }
  return cudaSuccess;
}

/* count elements of esize bytes from src on the device, after what the
 * stream holds; drain (slot, first, n) takes elements first .. first + n
 * from slot. */
template <typename Drain>
cudaError_t
download (const void *src, size_t count, size_t esize, cudaStream_t stream, Drain drain)
{
  const size_t per = SLOT_BYTES / esize;
  size_t prev_first = 0, prev_n = 0;
  for (size_t first = 0, k = 0;; first += per, k++)
    {
      const int i = (int) (k % 2);
      const size_t n = first < count ? (count - first < per ? count - first : per) : 0;
      cudaError_t e;
      if (n > 0
          && ((e = cudaMemcpyAsync (ws.slot[i].p, (const char *) src + first * esize, n * esize,
                                    cudaMemcpyDeviceToHost, stream)) != cudaSuccess
              || (e = cudaEventRecord (ws.slot_free[i], stream)) != cudaSuccess))
        return e;
      if (prev_n > 0)
        {
          /* The previous chunk, in the other slot, while this one copies. */
          if ((e = cudaEventSynchronize (ws.slot_free[1 - i])) != cudaSuccess)
            return e;
          drain (ws.slot[1 - i].p, prev_first, prev_n);
        }
      if (n == 0)
        return cudaSuccess;
      prev_first = first;
      prev_n = n;
    }
}

/* One batch of passes as a CUDA graph, destroyed with the scope. */
struct BatchGraph {
  cudaGraph_t g = nullptr;
  cudaGraphExec_t x = nullptr;
  BatchGraph () = default;
  BatchGraph (const BatchGraph &) = delete;
  BatchGraph &operator= (const BatchGraph &) = delete;
  ~BatchGraph ()
  {
    if (x)
      cudaGraphExecDestroy (x);
    if (g)
      cudaGraphDestroy (g);
  }
};

/* One solve's view of the workspace. */
struct FoldView {
  void *T, *flat;
  uint32_t *stamp, *counter;
  float *F, *speed;
  uint8_t *frozen, *changed;
  fold_start_node *starts;
  int *active, *list_a, *list_b;
  unsigned *sd;
  FoldCtl *ctl, *host_ctl;
  unsigned *take;
  cudaStream_t stream;
  cudaEvent_t ev0, ev1;
};

#define FOLD_CK(call)                                                                   \
  do                                                                                   \
    {                                                                                  \
      cudaError_t e_ = (call);                                                         \
      if (e_ != cudaSuccess)                                                           \
        {                                                                              \
          cudaGetLastError ();                                                         \
          return fr_error_set (err, FR_E_DEVICE, "CUDA: %s (%s, %s:%d)",              \
                               cudaGetErrorString (e_), #call, __FILE__, __LINE__);    \
        }                                                                              \
    }                                                                                  \
  while (0)

void
geom_init (FoldGeom *G, const fold_layout *L)
{
  memset (G, 0, sizeof *G);
  G->ndim = L->ndim;
  G->b = L->b;
  G->bsize = (int) L->bsize;
  G->inner0 = (int) L->inner0;
  for (int a = 0; a < 3; a++)
    {
      G->p[a] = L->p[a];
      G->g[a] = L->g[a];
      G->stride[a] = (int) L->stride[a];
      G->nb[a] = (int) L->nb[a];
      G->n[a] = (int) L->n[a];
    }
  G->nblocks = (int) L->nblocks;
  G->ndirs = fold_neighbour_dirs (L->ndim, G->dirs);
}

template <typename R>
fr_status
solve (const fold_problem *pb, const fold_layout *L, double *out, fold_stats *stats,
       void **device_time, fr_error *err)
{
  const double t_setup = fr_clock_ms ();
  const fr_grid *g = pb->grid;
  const size_t count = fr_grid_count (g);
  const size_t nblocks = L->nblocks, bsize = L->bsize;
  const bool two_d = g->ndim == 2;
  cudaDeviceProp prop;
  int dev = 0;

  FOLD_CK (cudaGetDevice (&dev));
  FOLD_CK (cudaGetDeviceProperties (&prop, dev));

  /* Shared memory per thread block, and the thread counts. */
  const int threads3d = (L->b * L->b + 31) / 32 * 32 > 256 ? 256 : (L->b * L->b + 31) / 32 * 32;
  /* The 3D sweep's three groups at once (opt-in, fold_cuda_tuning.once3d;
   * b = 16, the queue only). */
  const int once = !two_d && L->b == 16 && fold_cuda_tuning.sched != FOLD_CUDA_SCHED_PASSES
                   && fold_cuda_tuning.once3d == ONCE_GROUPS ? ONCE_GROUPS : 0;
  const size_t shm = two_d ? bsize * (4 * sizeof (R) + sizeof (float))
                           : bsize * ((1 + once) * sizeof (R) + sizeof (float) + sizeof (uint8_t));
  if (shm > prop.sharedMemPerBlockOptin)
    return fr_error_set (err, FR_E_DEVICE,
                         "a subdomain of %d^%d nodes needs %zu bytes of shared memory, the "
                         "device has %zu per block", L->b, g->ndim, shm,
                         (size_t) prop.sharedMemPerBlockOptin);

  /* The queue kernel unless passes are asked for.  3D (RESULTS.md,
   * seventh round): 7–22 % faster on the fold, Ex_A, Ex_D and Ex_B at
   * 336³; 3 % slower on Ex_C, 13 % on Ex_B at 266³.  2D, without rounds
   * (ninth round): 2048² 8–15 % faster, 1024² 12 %. */
  const bool use_queue = fold_cuda_tuning.sched != FOLD_CUDA_SCHED_PASSES;
  const int queue_threads = two_d ? 128 : once ? 256 * once : threads3d;
  const auto queue_kernel = two_d ? sweep_queue_kernel<2, R>
                            : once ? sweep_queue_kernel<3, R, ONCE_GROUPS> : sweep_queue_kernel<3, R>;

  /* Everything the solve allocates, checked against free memory first. */
  const bool any_frozen = pb->start.any_frozen;
  const size_t need = nblocks * bsize * (sizeof (R) + sizeof (float) + sizeof (uint32_t))
                      + count * (sizeof (R) + sizeof (float) + (any_frozen ? 1 : 0))
                      + pb->start.n * sizeof (fold_start_node)
                      + nblocks * (4 * sizeof (int) + sizeof (unsigned) + 1)
                      + (device_time != nullptr && sizeof (R) != sizeof (float)
                         ? count * sizeof (float) : 0);
  size_t free_b = 0, total_b = 0;
  FOLD_CK (cudaMemGetInfo (&free_b, &total_b));
  if (need + (64u << 20) > free_b && ws.device_held () > 0)
    {
      ws.release_device ();                /* what the last solve left may be what is missing */
      FOLD_CK (cudaMemGetInfo (&free_b, &total_b));
    }
  if (need + (64u << 20) > free_b)
    return fr_error_set (err, FR_E_DEVICE,
                         "the grids need %.0f MiB of device memory and %.0f MiB are free",
                         need / 1048576.0, free_b / 1048576.0);

  if (ws.device != dev)
    ws.release ();
  ws.device = dev;
  if (!ws.atexit_set)
    ws.atexit_set = atexit (ws_release_at_exit) == 0;
  if (ws.stream == nullptr)
    FOLD_CK (cudaStreamCreateWithFlags (&ws.stream, cudaStreamNonBlocking));
  if (ws.ev0 == nullptr)
    FOLD_CK (cudaEventCreate (&ws.ev0));
  if (ws.ev1 == nullptr)
    FOLD_CK (cudaEventCreate (&ws.ev1));
  FOLD_CK (ensure (ws.T, nblocks * bsize * sizeof (R)));
  FOLD_CK (ensure (ws.F, nblocks * bsize * sizeof (float)));
  FOLD_CK (ensure (ws.stamp, nblocks * bsize * sizeof (uint32_t)));
  FOLD_CK (ensure (ws.counter, nblocks * sizeof (uint32_t)));
  FOLD_CK (ensure (ws.flat, count * sizeof (R)));
  FOLD_CK (ensure (ws.speed, count * sizeof (float)));
  if (any_frozen)
    FOLD_CK (ensure (ws.frozen, count));
  FOLD_CK (ensure (ws.starts, pb->start.n * sizeof (fold_start_node)));
  FOLD_CK (ensure (ws.active, nblocks * sizeof (int)));
  FOLD_CK (ensure (ws.list_a, nblocks * sizeof (int)));
  FOLD_CK (ensure (ws.list_b, nblocks * sizeof (int)));
  FOLD_CK (ensure (ws.sd, nblocks * sizeof (unsigned)));
  FOLD_CK (ensure (ws.changed, nblocks));
  FOLD_CK (ensure (ws.ctl, sizeof (FoldCtl)));
  const int nchunks = (int) ((nblocks + CHUNK - 1) / CHUNK);
  FOLD_CK (ensure (ws.take, (size_t) nchunks * sizeof (unsigned)));
  FOLD_CK (ensure_pinned (ws.host_ctl, sizeof (FoldCtl)));
  for (int i = 0; i < 2; i++)
    {
      FOLD_CK (ensure_pinned (ws.slot[i], SLOT_BYTES));
      if (ws.slot_free[i] == nullptr)
        FOLD_CK (cudaEventCreateWithFlags (&ws.slot_free[i], cudaEventDisableTiming));
    }
  FoldView d = {
    ws.T.p, ws.flat.p, (uint32_t *) ws.stamp.p, (uint32_t *) ws.counter.p, (float *) ws.F.p,
    (float *) ws.speed.p,
    any_frozen ? (uint8_t *) ws.frozen.p : nullptr, (uint8_t *) ws.changed.p,
    (fold_start_node *) ws.starts.p, (int *) ws.active.p, (int *) ws.list_a.p,
    (int *) ws.list_b.p, (unsigned *) ws.sd.p,
    (FoldCtl *) ws.ctl.p, (FoldCtl *) ws.host_ctl.p, (unsigned *) ws.take.p,
    ws.stream, ws.ev0, ws.ev1,
  };

  /* Constants. */
  fold_stencil st;
  FoldGeom G;
  fold_stencil_build (&st, L, g, pb->psi);
  geom_init (&G, L);
  FOLD_CK (cudaMemcpyToSymbolAsync (c_st, &st, sizeof st, 0, cudaMemcpyHostToDevice, d.stream));
  FOLD_CK (cudaMemcpyToSymbolAsync (c_geo, &G, sizeof G, 0, cudaMemcpyHostToDevice, d.stream));

  /* Occupancy: how many subdomains the GPU sweeps at once (SOLAS's least
   * schedule) and the persistent grid sizes. */
  int per_sm = 0;
  if (use_queue)
    {
      FOLD_CK (cudaFuncSetAttribute (queue_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int) shm));
      FOLD_CK (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, queue_kernel, queue_threads,
                                                              shm));
    }
  else if (two_d)
    {
      FOLD_CK (cudaFuncSetAttribute (sweep2d_par_kernel<R>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shm));
      FOLD_CK (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, sweep2d_par_kernel<R>,
                                                              128, shm));
    }
  else
    {
      FOLD_CK (cudaFuncSetAttribute (sweep3d_kernel<R>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int) shm));
      FOLD_CK (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, sweep3d_kernel<R>,
                                                              threads3d, shm));
    }
  if (per_sm < 1)
    return fr_error_set (err, FR_E_DEVICE, "the sweep kernel cannot run with %zu bytes of "
                         "shared memory per block", shm);
  const int resident = per_sm * prop.multiProcessorCount;      /* thread blocks */
  const int chunk_subs = (int) (nblocks < (size_t) CHUNK ? nblocks : (size_t) CHUNK);
  int sweep_grid = chunk_subs;
  if (sweep_grid > resident)
    sweep_grid = resident;
  const int push_group = two_d ? 32 : threads3d;
  const int push_threads = two_d ? 128 : threads3d;
  int push_grid = (chunk_subs + push_threads / push_group - 1) / (push_threads / push_group);
  if (push_grid > 8 * prop.multiProcessorCount)
    push_grid = 8 * prop.multiProcessorCount;
  int tally_grid = (int) ((nblocks + TALLY_THREADS - 1) / TALLY_THREADS);
  if (tally_grid > 2 * prop.multiProcessorCount)
    tally_grid = 2 * prop.multiProcessorCount;

  FoldCtl c0;
  memset (&c0, 0, sizeof c0);
  c0.old_av = NAN;
  c0.list = 1;
  /* SOLAS's least schedule: one subdomain per SM.  Larger (every subdomain
   * the GPU holds at once) turns SOLAS into LAS where the front must find
   * its way: Ex_C 168³ took 3× longer (RESULTS.md).  In 3D in double
   * precision, one per two SMs: Ex_A, Ex_B and Ex_C 7-18 % faster at 168³
   * and 336³, Ex_C 504³ about 6 % on average (its sweep count is bimodal),
   * the fold at 266³ 3-5 % slower, the rest unchanged; in single precision
   * that mixes gains and losses (RESULTS.md, seventeenth round). */
  const int nsm = prop.multiProcessorCount;
  c0.min_act = fold_cuda_tuning.min_act > 0 ? fold_cuda_tuning.min_act
               : !two_d && sizeof (R) == sizeof (double) ? (nsm + 1) / 2 : nsm;
  c0.las = pb->method == FR_FOLD_LAS;

  /* Inputs through the slots: speeds and the start values' list; the
   * start grids (t0 in R, the frozen mask where a boundary grid froze
   * something) are made from the list on the device. */
  const size_t nstart = pb->start.n;
  auto fill_speed = [&] (void *slot, size_t first, size_t n) {
    copy_parallel (slot, pb->speed + first, n * sizeof (float));
  };
  auto fill_starts = [&] (void *slot, size_t first, size_t n) {
    copy_parallel (slot, pb->start.node + first, n * sizeof (fold_start_node));
  };
  FOLD_CK (upload (d.speed, count, sizeof (float), d.stream, fill_speed));
  FOLD_CK (upload (d.starts, nstart, sizeof (fold_start_node), d.stream, fill_starts));
  FOLD_CK (cudaMemcpyAsync (d.ctl, &c0, sizeof c0, cudaMemcpyHostToDevice, d.stream));
  /* The inputs are there before the clock of the device loop starts (the
   * first kernel would wait for them anyway), so that the parts of the
   * call's time do not overlap. */
  FOLD_CK (cudaStreamSynchronize (d.stream));
  stats->setup_ms = fr_clock_ms () - t_setup;

  R *T = (R *) d.T;
  FOLD_CK (cudaEventRecord (d.ev0, d.stream));
  const int fill_grid = 8 * prop.multiProcessorCount;
  start_grids_kernel<R><<<fill_grid, 256, 0, d.stream>>> ((R *) d.flat, d.frozen, count);
  if (nstart > 0)
    start_scatter_kernel<R><<<fill_grid, 256, 0, d.stream>>> (d.starts, nstart, (R *) d.flat,
                                                              d.frozen);
  FOLD_CK (cudaGetLastError ());
  int init_grid = (int) (nblocks < (size_t) 8 * resident ? nblocks : (size_t) 8 * resident);
  init_kernel<R><<<init_grid, 128, 0, d.stream>>> ((const R *) d.flat, d.speed, d.frozen, T,
                                                   d.F, d.stamp, d.counter, d.active, d.sd,
                                                   d.ctl);
  FOLD_CK (cudaGetLastError ());

  /* While the device solves, the host touches the result's pages (a grid
   * the caller allocated for this solve): else the download's widening
   * faults them in as it goes, 1-1.5 ms of a 2048² drag frame's 2 ms
   * download (RESULTS.md, tenth round).  Once, after the first launch. */
  bool out_touched = false;
  auto touch_out = [&] () {
    if (!out_touched)
      copy_parallel (out, nullptr, count * sizeof *out);
    out_touched = true;
  };

  int inner = fold_cuda_tuning.inner > 0 ? fold_cuda_tuning.inner : INNER_DEFAULT;
  if (!two_d && inner > INNER_MAX_3D)
    inner = INNER_MAX_3D;         /* the stamps' bytes in shared memory */
  long round_trips = 0;
  if (use_queue)
    {
      /* The queue kernel: launched again while work is pending (each
       * launch stops taking work after QUEUE_BUDGET_NS).  The ring is
       * list_a, the states list_b, the rounds' rest list active (once the
       * seed has read it). */
      /* Small schedules run in rounds in 3D, where a sweep started before
       * its neighbours' pushes only adds a sweep (Ex_C: 17 sweeps per
       * subdomain instead of 10), but not in 2D, where a sweep is short and
       * a round's wait for its last sweep cost more (RESULTS.md, ninth
       * round). */
      const int rounds_default = two_d ? -1 : resident;
      /* LAS without schedules in 2D: every subdomain is a member of one
       * schedule, so a woken one is queued at once instead of waiting for
       * the next schedule.  2D leaves most of the GPU idle, and there the
       * wait was the time (2048² 8.3 -> 4.1-4.6 ms, sweeps per subdomain
       * 6.4 -> 10.4).  In 3D it pays at 266³ (Ex_A 91 -> 63 ms, Ex_B 930
       * -> 447, Ex_C 583 -> 152) and costs where the GPU is full (fold
       * 518³ 281 -> 431, Ex_D 504³ 632 -> 1421): RESULTS.md, ninth round. */
      const bool eager = fold_cuda_tuning.eager == 0 ? two_d : fold_cuda_tuning.eager > 0;
      /* SOLAS: a subdomain that a push wakes joins the schedule held when
       * its SD is below that schedule's threshold (the builder would have
       * taken it), rather than waiting for the next build.  Fewer
       * schedules, fewer sweeps: fold 518³ 239 -> 219 ms (6.9 -> 6.0 sweeps
       * per subdomain), Ex_B 266³ 877 -> 309, Ex_C 504³ double 1068 -> 822;
       * Ex_D 504³ double 466 -> 484 (RESULTS.md, tenth round). */
      const int rounds_max = fold_cuda_tuning.rounds_max == 0 ? rounds_default
                             : fold_cuda_tuning.rounds_max < 0 ? -1 : fold_cuda_tuning.rounds_max;
      const FoldQueue Q = { d.list_a, d.list_b, d.active, d.sd, (int) nblocks,
                            c0.min_act, rounds_max, prop.multiProcessorCount, !c0.las,
                            c0.las && eager, !c0.las && fold_cuda_tuning.admit >= 0 };
      FOLD_CK (cudaMemsetAsync (Q.ring, 0, nblocks * sizeof (int), d.stream));
      queue_seed_kernel<<<tally_grid, TALLY_THREADS, 0, d.stream>>> (d.active, Q);
      FOLD_CK (cudaGetLastError ());
      for (;;)
        {
          /* Before every launch, the first too: one launch may be the
           * whole solve. */
          if (fr_cancel_raised (pb->cancel))
            return fr_error_set (err, FR_E_CANCELLED, "the fold solve was cancelled");
          queue_kernel<<<resident, queue_threads, shm, d.stream>>> (T, d.F, d.stamp, d.counter, Q,
                                                                   d.ctl, inner, QUEUE_BUDGET_NS);
          FOLD_CK (cudaGetLastError ());
          FOLD_CK (cudaMemcpyAsync (d.host_ctl, d.ctl, CTL_BACK, cudaMemcpyDeviceToHost,
                                    d.stream));
          touch_out ();
          FOLD_CK (cudaStreamSynchronize (d.stream));
          round_trips++;
          if (d.host_ctl->done)
            break;
        }
      /* What a pass is to the passes: a schedule's first hand-out, and
       * each round after it. */
      d.host_ctl->passes += d.host_ctl->schedules;
    }

  /* Passes in batches; one word comes back per batch.  A batch is
   * captured once as a CUDA graph and launched as one (unless the knob
   * says otherwise): the five small launches of a pass cost less so. */
  const int batch = fold_cuda_tuning.batch > 0 ? fold_cuda_tuning.batch : BATCH_DEFAULT;
  const bool use_graph = fold_cuda_tuning.graph != FOLD_CUDA_GRAPH_OFF;
  auto enqueue_batch = [&] () {
    for (int p = 0; p < batch; p++)
      {
        tally_kernel<<<tally_grid, TALLY_THREADS, 0, d.stream>>> (d.active, d.sd, d.list_a,
                                                                 d.list_b, d.ctl);
        compact_kernel<<<tally_grid, TALLY_THREADS, 0, d.stream>>> (d.active, d.sd, d.list_a,
                                                                   d.list_b, d.ctl);
        select_kernel<<<1, 1, 0, d.stream>>> (d.ctl, d.take, nchunks);
        for (int c = 0; c < nchunks; c++)
          if (two_d)
            sweep2d_par_kernel<R><<<sweep_grid, 128, shm, d.stream>>> (
              T, d.F, d.active, d.sd, d.changed, d.list_a, d.list_b, d.ctl, d.take + c, c * CHUNK,
              inner);
          else
            sweep3d_kernel<R><<<sweep_grid, threads3d, shm, d.stream>>> (
              T, d.F, d.stamp, d.counter, d.active, d.sd, d.changed, d.list_a, d.list_b, d.ctl,
              d.take + c, c * CHUNK, inner);
        for (int c = 0; c < nchunks; c++)
          push_kernel<R><<<push_grid, push_threads, 0, d.stream>>> (
            T, d.stamp, d.counter, d.active, d.sd, d.changed, d.list_a, d.list_b, d.ctl,
            c * CHUNK, push_group);
      }
  };
  BatchGraph graph;
  if (use_graph && !use_queue)
    {
      FOLD_CK (cudaStreamBeginCapture (d.stream, cudaStreamCaptureModeThreadLocal));
      enqueue_batch ();
      const cudaError_t launched = cudaGetLastError ();
      const cudaError_t ended = cudaStreamEndCapture (d.stream, &graph.g);   /* always ends it */
      FOLD_CK (launched);
      FOLD_CK (ended);
      FOLD_CK (cudaGraphInstantiate (&graph.x, graph.g, 0));
    }
  while (!use_queue)
    {
      if (fr_cancel_raised (pb->cancel))      /* before every batch, as for the queue */
        return fr_error_set (err, FR_E_CANCELLED, "the fold solve was cancelled");
      if (use_graph)
        FOLD_CK (cudaGraphLaunch (graph.x, d.stream));
      else
        enqueue_batch ();
      FOLD_CK (cudaGetLastError ());
      FOLD_CK (cudaMemcpyAsync (d.host_ctl, d.ctl, CTL_BACK, cudaMemcpyDeviceToHost,
                                d.stream));
      touch_out ();
      FOLD_CK (cudaStreamSynchronize (d.stream));
      round_trips++;
      if (d.host_ctl->done)
        break;
    }

  gather_kernel<R><<<8 * prop.multiProcessorCount, 256, 0, d.stream>>> (T, (R *) d.flat, count);
  FOLD_CK (cudaGetLastError ());
  FOLD_CK (cudaEventRecord (d.ev1, d.stream));
  FOLD_CK (cudaEventSynchronize (d.ev1));
  const double t_results = fr_clock_ms ();

  /* Out: doubles for the host (through the slots), floats kept on the
   * device on request. */
  auto drain_out = [&] (void *slot, size_t first, size_t n) {
    const R *from = (const R *) slot;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
      out[first + i] = (double) from[i];
  };
  FOLD_CK (download (d.flat, count, sizeof (R), d.stream, drain_out));
  FOLD_CK (cudaStreamSynchronize (d.stream));
  float ms = 0.0f;
  FOLD_CK (cudaEventElapsedTime (&ms, d.ev0, d.ev1));
  stats->device_ms = ms;
  stats->iterations = (long) d.host_ctl->passes;
  stats->schedules = (long) d.host_ctl->schedules;
  stats->sweeps = (uint64_t) d.host_ctl->sweeps;
  stats->subdomains = (size_t) d.host_ctl->subdomains;
  stats->threads = 0;
  stats->round_trips = round_trips;
  if (device_time != nullptr && two_d)
    {
      if (sizeof (R) == sizeof (float))
        {
          *device_time = ws.flat.p;       /* handed over: the next solve allocates anew */
          ws.flat = Buf ();
        }
      else
        {
          float *keep = nullptr;
          FOLD_CK (cudaMalloc (&keep, count * sizeof (float)));
          to_float_kernel<<<8 * prop.multiProcessorCount, 256, 0, d.stream>>> (
            (const double *) d.flat, keep, count);
          cudaError_t e = cudaGetLastError ();
          if (e == cudaSuccess)
            e = cudaStreamSynchronize (d.stream);
          if (e != cudaSuccess)
            cudaFree (keep);
          FOLD_CK (e);
          *device_time = keep;
        }
    }
  stats->results_ms = fr_clock_ms () - t_results;

  return FR_OK;
}

} /* namespace */

extern "C" int
fold_cuda_default_block (int ndim)
{
  return ndim == 3 ? 16 : 32;      /* measured on the H100 (RESULTS.md) */
}

extern "C" fr_status
fold_solve_cuda (const fold_problem *pb, double *out, fold_stats *stats, void **device_time,
                 fr_error *err)
{
  int n = 0;
  if (cudaGetDeviceCount (&n) != cudaSuccess || n == 0)
    {
      cudaGetLastError ();
      return fr_error_set (err, FR_E_DEVICE, "no usable CUDA device");
    }
  if (device_time != nullptr)
    *device_time = nullptr;
  memset (stats, 0, sizeof *stats);
  fold_layout L;
  fold_layout_init (&L, pb->grid, pb->block);
  if (L.nblocks > (size_t) INT32_MAX / 2 || L.n[0] > (size_t) INT32_MAX
      || L.n[2] > (size_t) INT32_MAX)
    return fr_error_set (err, FR_E_DEVICE, "the grid has too many subdomains for the GPU");
  std::lock_guard<std::mutex> hold (ws.lock);
  fr_status st = pb->double_precision ? solve<double> (pb, &L, out, stats, device_time, err)
                                      : solve<float> (pb, &L, out, stats, device_time, err);
  /* After a failure nothing is kept: a failed context may be unusable.
   * Big device buffers are not kept either: big solves are not
   * interactive, and the memory may be wanted elsewhere. */
  if (st != FR_OK)
    ws.release ();
  else if (ws.device_held () > KEEP_BYTES)
    ws.release_device ();
  return st;
}
