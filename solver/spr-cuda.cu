/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shortest-path ray tracing on the GPU: pull relaxation over tiles, without
 * atomics (Monsegny & Agudelo), with dummy-node padding, shared-memory tiles
 * with a halo of width R and an update map of active tiles (Kanoksirirath),
 * plus one step beyond the papers: an active tile relaxes inside shared
 * memory until it converges locally before it writes back, so a global pass
 * carries a wave across a whole tile instead of R nodes.
 *
 * Memory layout (device):
 *   - The grid is padded by rx columns left and right and rz rows above and
 *     below, and rounded up to whole tiles, giving a pitch px and pz rows.
 *     Node (ix, iz) sits at (iz + rz)·px + ix + rx.  Padding nodes are dummy
 *     nodes: traveltime +inf and slowness +inf (an obstacle), so every
 *     thread runs the same loop and no edge needs a bounds check: an edge to
 *     or through the padding weighs +inf and never wins.
 *   - T[0], T[1]: padded traveltimes, ping-pong.  A pass reads T[cur] and
 *     each processed tile writes all its own nodes into T[cur^1] (its
 *     auxiliary array; no atomics, no thread writes another's node).  The
 *     write-back of the papers: a tile that changed and is not processed in
 *     the next pass copies its nodes over to the other buffer then (a plain
 *     coalesced copy, no halo, no weights), so both buffers agree on it
 *     before anyone reads a stale value there.  T[cur] always holds the
 *     newest value of every node.
 *   - S: padded slowness.  Weights are line integrals over S with the
 *     stencils of spr-stencil.c, computed when a tile is activated and kept
 *     in registers (one thread per node, NW of them): for R 1-6 from cells
 *     the compiler walked (CxStencil, immediates), otherwise from a cell
 *     list (float lengths); or read from a table of half the offsets per
 *     node: w(u,v) = w(v,u), so plane h holds w(v, v + o_h) for o_h in the
 *     upper half.
 *   - chmask[tile], chmin[tile], active[2][tile] (pending), key[2][tile],
 *     wback[2][tile] (changed in the last pass): the update map.  A tile's activation sets one bit per neighbour tile
 *     whose halo holds one of its changed nodes (nodes within rx, rz of that
 *     side), its own bit only when inner_max cut it short, and a "dirty" bit
 *     when anything changed; chmin is the least new time among its changed
 *     nodes.  A neighbour's bit makes a tile pending, with key = the least
 *     chmin that woke it.  A pass processes the pending tiles whose key is
 *     at most (least pending key + delta): tile-level delta-stepping, so
 *     tiles are relaxed roughly in order of time, as in Dijkstra, instead of
 *     being corrected again and again by a front that runs ahead of the
 *     physical one.  delta = +inf processes every pending tile.
 *     The WIDE bookkeeping (the default, wide_pass) keeps the same rules
 *     with independent loads only: pending == finite key, so it reads keys
 *     alone and does not maintain active[].
 *
 * One cooperative persistent kernel runs many passes per launch, with two
 * grid barriers a pass (after the relaxation, after the update map), so the
 * host neither launches nor synchronises per pass; between launches it reads
 * one small state record and polls the cancel flag.
 *
 * The default for the compile-time stencils (R 1-6), and for any stencil
 * from 80 offsets up, is instead spr_async: no passes and no grid barrier,
 * tiles taken from a work queue in device memory as they become pending,
 * one T buffer (see "the asynchronous schedule" below). */
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <utility>

#include "fr-device.h"
#include "spr-cuda-config.cuh"
#include "spr-cuda-tune.h"
#include "spr-private.h"

namespace cg = cooperative_groups;

namespace {

/* Kernel-side state that survives between launches. */
struct SprState {
  int pass;        /* next pass to run */
  int converged;   /* 1 once a pass found no active tile */
};

/* The work queue of the asynchronous schedule (SPR_CUDA_MAP_ASYNC), in
 * device memory so that it survives between launches; the host reads it
 * after each launch. */
struct SprQueue {
  unsigned head;        /* tickets handed out: the next entry to take (past tail: takers wait) */
  unsigned tail;        /* next entry to fill */
  int busy;             /* tiles queued or running in the open bucket */
  int lock;             /* held by the block that opens the next bucket */
  int done;             /* 1 once no tile is pending */
  int buckets;          /* buckets opened */
  float theta;          /* the open bucket takes keys up to this */
  int raises;           /* of them, opened early while tiles still ran */
  unsigned long long acts;   /* tile activations, all launches */
};

/* Per-offset data for the generic kernel (any number of offsets). */
struct SprGOff {
  int sdelta;      /* shared-tile index delta of the neighbour: b·sw + a */
  int ndelta;      /* node index delta of the neighbour: b·nx + a */
  int first, count;/* its cells */
  int plane;       /* table plane of w(v, v+o) (or of the mirrored offset) */
  int shift;       /* padded index delta where that plane holds it: 0 or b·px + a */
};

/* Everything a pass kernel needs, passed by value (it lives in the constant
 * bank, so the per-offset arrays cost no registers and broadcast). */
struct SprLaunch {
  float *T[2];
  const float *S;
  const float *table;
  long long plane;             /* padded node count: px·pz */
  int32_t *pred;
  uint16_t *chmask;            /* per tile: SPR_DIR bits, SPR_DIRTY */
  float *chmin;
  uint8_t *active[2];          /* pending */
  float *key[2];
  uint8_t *wback[2];           /* dirty: changed in the last pass */
  float delta;
  SprState *state;
  unsigned long long *block_edges;   /* per block: edges, activations */
  const int2 *cells;           /* (shared-tile delta, length bits) per cell */
  const SprGOff *goff;
  int nx, nz, px;
  int rx, rz, sw, sh;
  int ntx, ntz, ntiles, chunk; /* chunk: update-map bytes per thread when counting */
  int drx, drz;                /* reach of a tile's halo, in tiles */
  int noff, ncells;
  int pass0, max_passes, inner_max;
  int compact, use_table, list_cap, row_scan;
  int wide;                    /* SPR_CUDA_MAP_WIDE bookkeeping */
  int inplace;                 /* SPR_CUDA_SWEEP_INPLACE inner iterations */
  int async;                   /* SPR_CUDA_MAP_ASYNC: spr_async, one buffer T[0] */
  SprQueue *q;                 /* its queue, per-tile states and entries */
  int *tflag;
  int *qslot;
  unsigned qcap;
  unsigned long long budget_ns;   /* a launch takes no new tile after this long */
  int raise_below;             /* raise theta early while fewer tiles than this are busy */
  unsigned long long *phase;   /* tune.phases: SM cycles per phase, all blocks; else null */
  int off_sdelta[SPR_NW_MAX];  /* register variants: per offset, see SprGOff */
  int off_ndelta[SPR_NW_MAX];
  int tab_shift[SPR_NW_MAX];
  short off_first[SPR_NW_MAX];
  short off_count[SPR_NW_MAX];
  short tab_plane[SPR_NW_MAX];
  float off_len[SPR_NW_MAX];   /* |o_k|: compile-time stencils on the fly */
};

constexpr float kInf = __builtin_huge_valf ();

/* Compile-time stencils: the reduced neighbourhood of radius (R, R) in the
 * order spr_stencils_build lists it (row b, then a; the host checks that it
 * matches).  With the shared tile's pitch TX + 2R also fixed, every
 * neighbour index is me + an immediate, so the inner loop is one shared
 * load, one add and one min per edge, and needs no register per offset. */
__host__ __device__ constexpr int
cx_gcd (int p, int q)
{
  p = p < 0 ? -p : p;
  q = q < 0 ? -q : q;
  while (q != 0)
    {
      int r = p % q;
      p = q;
      q = r;
    }
  return p;
}

__host__ __device__ constexpr int
reduced_count (int R)
{
  int n = 0;
  for (int b = -R; b <= R; b++)
    for (int a = -R; a <= R; a++)
      if (!(a == 0 && b == 0) && cx_gcd (a, b) == 1)
        n++;
  return n;
}

/* Index delta of the k-th offset in a tile of the given pitch. */
__host__ __device__ constexpr int
reduced_delta (int R, int k, int pitch)
{
  int n = 0;
  for (int b = -R; b <= R; b++)
    for (int a = -R; a <= R; a++)
      if (!(a == 0 && b == 0) && cx_gcd (a, b) == 1)
        {
          if (n == k)
            return b * pitch + a;
          n++;
        }
  return 0;
}

template <int TX, int R, int K>
struct FixedDelta {
  static constexpr int value = reduced_delta (R, K, TX + 2 * R);
};

/* min over the edges of one node, with four independent chains. */
template <int TX, int R, int... K>
__device__ __forceinline__ float
fixed_min (const float *sT, int base, const float *w, float myT,
           std::integer_sequence<int, K...>)
{
  float m[4] = { myT, kInf, kInf, kInf };
  ((m[K & 3] = fminf (m[K & 3], sT[base + FixedDelta<TX, R, K>::value] + w[K])), ...);
  return fminf (fminf (m[0], m[1]), fminf (m[2], m[3]));
}

/* The first edge that gives the least time. */
template <int TX, int R, int... K>
__device__ __forceinline__ void
fixed_argmin (const float *sT, int base, const float *w, float &bm, int &arg,
              std::integer_sequence<int, K...>)
{
  auto step = [&] (float c, int k) {
    if (c < bm)
      {
        bm = c;
        arg = k;
      }
  };
  (step (sT[base + FixedDelta<TX, R, K>::value] + w[K], K), ...);
}

/* Position of offset (a, b) in the compile-time order. */
__host__ __device__ constexpr int
reduced_index (int R, int a, int b)
{
  int n = 0;
  for (int bb = -R; bb <= R; bb++)
    for (int aa = -R; aa <= R; aa++)
      if (!(aa == 0 && bb == 0) && cx_gcd (aa, bb) == 1)
        {
          if (aa == a && bb == b)
            return n;
          n++;
        }
  return -1;
}

/* Compile-time cells of the reduced stencil of radius R: the walk of
 * spr-stencil.c (walk_offset) done by the compiler, so that a fixed kernel
 * computes its weights on the fly from immediates.  A cell's length is
 * dt × |offset|: the crossings t = (2k+1)/(2A) along x and (2m+1)/(2B) along
 * z do not depend on dx and dz, only the offset's length does.  The cells
 * are ordered by row (dj), then column: a thread loads one row of the
 * slowness box into registers and adds that row's share to every weight. */
struct CxCell {
  int k, di, dj;
  double dt;
};

template <int R>
struct CxStencil {
  static constexpr int kMaxCells = reduced_count (R) * (2 * R + 1);
  struct Table {
    CxCell c[kMaxCells] = {};
    int n = 0;
    int row_first[2 * R + 2] = {};   /* cells of row dj: [row_first[dj+R], row_first[dj+R+1]) */
  };

  static constexpr Table
  build ()
  {
    Table t;
    int k = 0;
    for (int b = -R; b <= R; b++)
      for (int a = -R; a <= R; a++)
        {
          if ((a == 0 && b == 0) || cx_gcd (a, b) != 1)
            continue;
          const int A = a < 0 ? -a : a, B = b < 0 ? -b : b;
          const int sa = a > 0 ? 1 : (a < 0 ? -1 : 0), sb = b > 0 ? 1 : (b < 0 ? -1 : 0);
          int ci = 0, cj = 0, kx = 0, mz = 0;
          double t_prev = 0.0;
          for (;;)
            {
              const bool has_x = kx < A, has_z = mz < B;
              if (!has_x && !has_z)
                {
                  t.c[t.n++] = CxCell{ k, ci, cj, 1.0 - t_prev };
                  break;
                }
              const long long lx = (long long) (2 * kx + 1) * B, lz = (long long) (2 * mz + 1) * A;
              const bool step_x = has_x && has_z ? lx <= lz : has_x;
              const bool step_z = has_x && has_z ? lz <= lx : has_z;
              const double tt = step_x ? (2.0 * kx + 1.0) / (2.0 * A) : (2.0 * mz + 1.0) / (2.0 * B);
              t.c[t.n++] = CxCell{ k, ci, cj, tt - t_prev };
              t_prev = tt;
              if (step_x)
                {
                  ci += sa;
                  kx++;
                }
              if (step_z)
                {
                  cj += sb;
                  mz++;
                }
            }
          k++;
        }
    /* Stable insertion sort by (dj, di). */
    for (int i = 1; i < t.n; i++)
      for (int j = i; j > 0; j--)
        {
          const CxCell x = t.c[j - 1], y = t.c[j];
          if (x.dj < y.dj || (x.dj == y.dj && x.di <= y.di))
            break;
          t.c[j - 1] = y;
          t.c[j] = x;
        }
    for (int r = 0; r <= 2 * R + 1; r++)
      {
        int f = 0;
        while (f < t.n && t.c[f].dj < r - R)
          f++;
        t.row_first[r] = f;
      }
    return t;
  }

  static constexpr Table table = build ();
};

/* One cell's compile-time data, as scalars (device code reads them as
 * immediates). */
template <int R, int C>
struct CxCellAt {
  static constexpr int k = CxStencil<R>::table.c[C].k;
  static constexpr int di = CxStencil<R>::table.c[C].di;
  static constexpr float dt = (float) CxStencil<R>::table.c[C].dt;
};

template <int R, int J>
struct CxRow {
  static constexpr int first = CxStencil<R>::table.row_first[J + R];
  static constexpr int count = CxStencil<R>::table.row_first[J + R + 1] - first;
};

/* Row J of the slowness box around me (pitch P) adds its share to each
 * weight's sum: one shared load per column, one FMA per cell. */
template <int R, int P, int J, int... I>
__device__ __forceinline__ void
fly_row (const float *sS, int me, float *w, std::integer_sequence<int, I...>)
{
  float s[2 * R + 1];
#pragma unroll
  for (int i = 0; i <= 2 * R; i++)
    s[i] = sS[me + J * P + i - R];
  constexpr int f = CxRow<R, J>::first;
  ((w[CxCellAt<R, f + I>::k]
    = fmaf (CxCellAt<R, f + I>::dt, s[CxCellAt<R, f + I>::di + R], w[CxCellAt<R, f + I>::k])),
   ...);
}

/* The NW weights of node me from the slowness box (pitch P), on the fly:
 * w[k] = |o_k| · sum over o_k's cells of dt · S.  len[k] = |o_k|. */
template <int R, int P, int NW, int... J>
__device__ __forceinline__ void
fly_weights (const float *sS, int me, const float *len, float *w,
             std::integer_sequence<int, J...>)
{
#pragma unroll
  for (int k = 0; k < NW; k++)
    w[k] = 0.0f;
  (fly_row<R, P, J - R> (sS, me, w, std::make_integer_sequence<int, CxRow<R, J - R>::count> ()),
   ...);
#pragma unroll
  for (int k = 0; k < NW; k++)
    w[k] *= len[k];
}

/* The horizontal chain of a tile row, exactly, in one go.  With edge
 * reduction the only horizontal offsets are (+-1, 0), so a wave running
 * along a row (the fast layers of a gradient) moves one node per Jacobi
 * iteration; a min-plus prefix scan over the warp (= the tile row) in both
 * directions relaxes every path along the row at once (Hillis-Steele: the
 * pair (t, c) is the best time so far and the weight of the span). */
__device__ __forceinline__ float
row_scan (float t, float wl, float wr, int lane)
{
  float c = wl;          /* w(lane - 1 -> lane) */
#pragma unroll
  for (int s = 1; s < 32; s <<= 1)
    {
      const float tu = __shfl_up_sync (0xffffffffu, t, s);
      const float cu = __shfl_up_sync (0xffffffffu, c, s);
      if (lane >= s)
        {
          t = fminf (t, tu + c);
          c += cu;
        }
    }
  c = wr;                /* w(lane + 1 -> lane) */
#pragma unroll
  for (int s = 1; s < 32; s <<= 1)
    {
      const float td = __shfl_down_sync (0xffffffffu, t, s);
      const float cd = __shfl_down_sync (0xffffffffu, c, s);
      if (lane + s < 32)
        {
          t = fminf (t, td + c);
          c += cd;
        }
    }
  return t;
}

/* Update-map bits: (dz + 1)·3 + (dx + 1) for the neighbour tile at (dx, dz)
 * (4 = the tile itself), and "something changed". */
constexpr unsigned SPR_DIR_SELF = 1u << 4;
constexpr unsigned SPR_DIR_ALL = 0x1ffu;
constexpr unsigned SPR_DIRTY = 1u << 9;

/* Exclusive prefix sum over the block; *total gets the sum.  scratch holds
 * 32 ints. */
__device__ int
block_exclusive_scan (int v, int *scratch, int *total)
{
  const int nt = blockDim.x * blockDim.y;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int lane = tid & 31, warp = tid >> 5, nwarps = (nt + 31) >> 5;
  int x = v;

  for (int o = 1; o < 32; o <<= 1)
    {
      int y = __shfl_up_sync (0xffffffffu, x, o);
      if (lane >= o)
        x += y;
    }
  if (lane == 31)
    scratch[warp] = x;
  __syncthreads ();
  if (warp == 0)
    {
      int s = lane < nwarps ? scratch[lane] : 0;
      for (int o = 1; o < 32; o <<= 1)
        {
          int y = __shfl_up_sync (0xffffffffu, s, o);
          if (lane >= o)
            s += y;
        }
      scratch[lane] = s;   /* inclusive sums of the warps */
    }
  __syncthreads ();
  int before = warp > 0 ? scratch[warp - 1] : 0;
  *total = scratch[nwarps - 1];
  __syncthreads ();        /* scratch is reused by the next call */
  return before + x - v;
}

/* Sum of c and min of k over the block (scratch: 64 ints). */
__device__ void
block_sum_min (int c, float k, int *scratch, int *csum, float *kmin)
{
  const int nt = blockDim.x * blockDim.y;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int lane = tid & 31, warp = tid >> 5, nwarps = (nt + 31) >> 5;
  for (int o = 16; o > 0; o >>= 1)
    {
      c += __shfl_xor_sync (0xffffffffu, c, o);
      k = fminf (k, __shfl_xor_sync (0xffffffffu, k, o));
    }
  if (lane == 0)
    {
      scratch[warp] = c;
      scratch[32 + warp] = __float_as_int (k);
    }
  __syncthreads ();
  int cs = 0;
  float km = kInf;
  for (int w = 0; w < nwarps; w++)
    {
      cs += scratch[w];
      km = fminf (km, __int_as_float (scratch[32 + w]));
    }
  *csum = cs;
  *kmin = km;
  __syncthreads ();
}

/* An index the compiler cannot see through.  Without it, the inner loop's
 * NW neighbour indices (me + delta_k) are loop-invariant and get hoisted
 * into NW more registers, which spills; recomputing each costs one add. */
__device__ __forceinline__ int
opaque (int x)
{
  int y;
  asm volatile ("mov.b32 %0, %1;" : "=r"(y) : "r"(x));
  return y;
}

/* Phase timers (measurement only, tune.phases): thread 0 of each block adds
 * the SM cycles since its last mark to phase k. */
enum { kPhaseOther, kPhaseLoad, kPhaseFirst, kPhaseIterate, kPhaseFinish, kPhaseWake };
static_assert (kPhaseWake + 1 == SPR_CUDA_PHASES, "one timer per phase");

__device__ __forceinline__ void
phase_mark (const SprLaunch &L, int k, long long &mark)
{
  if (L.phase != nullptr && threadIdx.x == 0 && threadIdx.y == 0)
    {
      const long long now = clock64 ();
      atomicAdd (L.phase + k, (unsigned long long) (now - mark));
      mark = now;
    }
}

/* The dynamic shared memory of both pass kernels: cells | generic offsets |
 * list | scan scratch | 3 tiles (sT twice, sS); the host sizes it the same
 * way (smem_for).  Fills the cells and offsets. */
struct SprShared {
  const int2 *cells;
  const SprGOff *goff;
  int *list, *scratch;
  float *T, *S;
};

template <int NW, int RFIX>
__device__ SprShared
shared_layout (const SprLaunch &L, unsigned char *smem)
{
  const int nt = blockDim.x * blockDim.y;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  int2 *cells = (int2 *) smem;
  /* Register weights from a table or from compile-time cells need no cell list. */
  const int ncells = NW > 0 && (L.use_table || RFIX > 0) ? 0 : L.ncells;
  SprGOff *goff = (SprGOff *) (cells + ncells);
  const int ngoff = NW == 0 ? L.noff : 0;
  SprShared sh;
  sh.cells = cells;
  sh.goff = goff;
  sh.list = (int *) (goff + ngoff);
  sh.scratch = sh.list + L.list_cap;
  sh.T = (float *) (sh.scratch + 64);
  sh.S = sh.T + 2 * L.sw * L.sh;
  for (int i = tid; i < ncells; i += nt)
    cells[i] = L.cells[i];
  for (int i = tid; i < ngoff; i += nt)
    goff[i] = L.goff[i];
  __syncthreads ();
  return sh;
}

/* One tile activation: load the tile and its halo into shared memory,
 * compute the weights, relax until local convergence (or inner_max), pick
 * predecessors for the nodes that improved, write the tile into Tn.
 * Shared: sT holds two ping-pong copies of the tile + halo, at 0 and at
 * area = sw·sh (Jacobi inside the tile: an iteration reads one, writes the
 * other, one barrier between); sS the slowness of the same box. */
template <int TX, int TZ, int NW, int RFIX>
__device__ void
relax_tile (const SprLaunch &L, int t, const float *Tc, float *Tn, float *sT, float *sS,
            const int2 *scells, const SprGOff *sgoff, int *scratch, unsigned long long &edges,
            unsigned long long &acts, unsigned &wake_mask, float &wake_min, long long &mark)
{
  phase_mark (L, kPhaseOther, mark);
  static_assert (TX == 32, "a warp is one tile row");
  const int tx = threadIdx.x, tz = threadIdx.y;
  const int tile_x = t % L.ntx, tile_z = t / L.ntx;
  const int gx0 = tile_x * TX, gz0 = tile_z * TZ;   /* halo box origin, padded coords */
  const bool need_s = !L.use_table;   /* a table needs no slowness tile */
  const int area = L.sw * L.sh;

  const size_t gme = (size_t) (gz0 + tz + L.rz) * (size_t) L.px + (size_t) (gx0 + tx + L.rx);

  /* Cooperative load, row by row: coalesced along x.  T comes through L2
   * (__ldcg): other blocks wrote it during this launch. */
  if constexpr (RFIX > 0 && NW <= 48)
    {
      /* The box is a compile-time size: every load is issued before the
       * first store, one round trip instead of one per row pair.  Only up
       * to R 4: with 80 or 96 weights in registers the same code made the
       * inner iterations 18-50 % slower (H200, RESULTS.md). */
      constexpr int SW = TX + 2 * RFIX, SH = TZ + 2 * RFIX;
      constexpr int NR = (SH + TZ - 1) / TZ, NC = (SW + TX - 1) / TX;
      float tv[NR][NC], sv[NR][NC];
#pragma unroll
      for (int i = 0; i < NR; i++)
#pragma unroll
        for (int j = 0; j < NC; j++)
          {
            const int r = tz + i * TZ, c = tx + j * TX;
            if (r < SH && c < SW)
              {
                const size_t at = (size_t) (gz0 + r) * (size_t) L.px + (size_t) (gx0 + c);
                tv[i][j] = __ldcg (Tc + at);
                if (need_s)
                  sv[i][j] = __ldg (L.S + at);
              }
          }
#pragma unroll
      for (int i = 0; i < NR; i++)
#pragma unroll
        for (int j = 0; j < NC; j++)
          {
            const int r = tz + i * TZ, c = tx + j * TX;
            if (r < SH && c < SW)
              {
                sT[r * SW + c] = tv[i][j];
                sT[area + r * SW + c] = tv[i][j];
                if (need_s)
                  sS[r * SW + c] = sv[i][j];
              }
          }
    }
  else
    for (int r = tz; r < L.sh; r += TZ)
      {
        const size_t row = (size_t) (gz0 + r) * (size_t) L.px + (size_t) gx0;
        for (int c = tx; c < L.sw; c += TX)
          {
            float v = __ldcg (Tc + row + c);
            sT[r * L.sw + c] = v;
            sT[area + r * L.sw + c] = v;
            if (need_s)
              sS[r * L.sw + c] = __ldg (L.S + row + c);
          }
      }
  __syncthreads ();
  phase_mark (L, kPhaseLoad, mark);

  const int me = (tz + L.rz) * L.sw + tx + L.rx;
  const float t0 = sT[me];
  float myT = t0;
  int rb = 0;          /* read buffer: 0 or area; the other one is written */
  int it = 0;
  int arg = -1;
  int any = 0;

  if constexpr (NW > 0)
    {
      /* Weights of this node's edges, kept in registers for every inner
       * iteration (k is a compile-time index: unrolled loops only). */
      float w[NW];
      bool fly = false;
      if constexpr (RFIX > 0)
        if (!L.use_table)
          {
            fly_weights<RFIX, TX + 2 * RFIX, NW> (sS, me, L.off_len, w,
                                                  std::make_integer_sequence<int, 2 * RFIX + 1> ());
            fly = true;
          }
      if (!fly)
        {
#pragma unroll
          for (int k = 0; k < NW; k++)
            {
              float s = kInf;
              if (k < L.noff)
                {
                  if (L.use_table)
                    s = __ldg (L.table + (size_t) L.tab_plane[k] * (size_t) L.plane
                               + (size_t) ((long long) gme + L.tab_shift[k]));
                  else
                    {
                      const int c0 = L.off_first[k], c1 = c0 + L.off_count[k];
                      s = 0.0f;
                      for (int c = c0; c < c1; c++)
                        {
                          const int2 cl = scells[c];
                          s = fmaf (__int_as_float (cl.y), sS[me + cl.x], s);
                        }
                    }
                }
              w[k] = s;
            }
        }

      for (;;)
        {
          /* Four independent minima keep the dependency chains short. */
          const int base = opaque (rb + me);
          float best;
          if constexpr (RFIX > 0)
            {
              best = fixed_min<TX, RFIX> (sT, base, w, myT, std::make_integer_sequence<int, NW> ());
              constexpr int kLeft = reduced_index (RFIX, -1, 0);
              constexpr int kRight = reduced_index (RFIX, 1, 0);
              if (L.row_scan)
                best = row_scan (best, w[kLeft], w[kRight], tx);
            }
          else
            {
              float m0 = myT, m1 = kInf, m2 = kInf, m3 = kInf;
#pragma unroll
              for (int k = 0; k < NW; k += 4)
                {
                  m0 = fminf (m0, sT[base + L.off_sdelta[k]] + w[k]);
                  m1 = fminf (m1, sT[base + L.off_sdelta[k + 1]] + w[k + 1]);
                  m2 = fminf (m2, sT[base + L.off_sdelta[k + 2]] + w[k + 2]);
                  m3 = fminf (m3, sT[base + L.off_sdelta[k + 3]] + w[k + 3]);
                }
              best = fminf (fminf (m0, m1), fminf (m2, m3));
            }
          const int ch = best < myT;
          if (!L.inplace)
            sT[area - rb + me] = best;
          else if (ch)
            sT[rb + me] = best;   /* others may read old or new: both are upper bounds */
          myT = best;
          it++;
          if (it == 1)
            phase_mark (L, kPhaseFirst, mark);
          /* Everyone has read the read buffer before anyone writes it
           * again (the next iteration writes this one's read buffer).  In
           * place, an iteration in which nobody wrote read only final
           * values: a true local fixpoint. */
          any = __syncthreads_or (ch);
          if (!L.inplace)
            rb = area - rb;
          if (!any || it >= L.inner_max)
            break;
        }

      /* The predecessor: the neighbour that gives the least time, over
       * the final local values (so T[pred] + w == T exactly in float). */
      if (myT < t0)
        {
          const int base = opaque (rb + me);
          float bm = kInf;
          if constexpr (RFIX > 0)
            fixed_argmin<TX, RFIX> (sT, base, w, bm, arg, std::make_integer_sequence<int, NW> ());
          else
            {
#pragma unroll
              for (int k = 0; k < NW; k++)
                {
                  const float c = sT[base + L.off_sdelta[k]] + w[k];
                  if (c < bm)
                    {
                      bm = c;
                      arg = k;
                    }
                }
            }
          if (bm < myT)      /* only when inner_max stopped it early */
            myT = bm;
        }
    }
  else
    {
      /* Generic: any number of offsets, weights recomputed per use. */
      for (;;)
        {
          float best = myT;
          for (int k = 0; k < L.noff; k++)
            {
              const SprGOff o = sgoff[k];
              float s;
              if (L.use_table)
                s = __ldg (L.table + (size_t) o.plane * (size_t) L.plane
                           + (size_t) ((long long) gme + o.shift));
              else
                {
                  s = 0.0f;
                  for (int c = o.first; c < o.first + o.count; c++)
                    {
                      const int2 cl = scells[c];
                      s = fmaf (__int_as_float (cl.y), sS[me + cl.x], s);
                    }
                }
              best = fminf (best, sT[rb + me + o.sdelta] + s);
            }
          const int ch = best < myT;
          if (!L.inplace)
            sT[area - rb + me] = best;
          else if (ch)
            sT[rb + me] = best;
          myT = best;
          it++;
          if (it == 1)
            phase_mark (L, kPhaseFirst, mark);
          any = __syncthreads_or (ch);
          if (!L.inplace)
            rb = area - rb;
          if (!any || it >= L.inner_max)
            break;
        }
      if (myT < t0)
        {
          float bm = kInf;
          for (int k = 0; k < L.noff; k++)
            {
              const SprGOff o = sgoff[k];
              float s;
              if (L.use_table)
                s = __ldg (L.table + (size_t) o.plane * (size_t) L.plane
                           + (size_t) ((long long) gme + o.shift));
              else
                {
                  s = 0.0f;
                  for (int c = o.first; c < o.first + o.count; c++)
                    {
                      const int2 cl = scells[c];
                      s = fmaf (__int_as_float (cl.y), sS[me + cl.x], s);
                    }
                }
              const float c = sT[rb + me + o.sdelta] + s;
              if (c < bm)
                {
                  bm = c;
                  arg = k;
                }
            }
          if (bm < myT)
            myT = bm;
        }
    }

  /* Write back into the auxiliary buffer: every node of the tile, so that
   * the buffers agree on it once it stops changing.  The asynchronous
   * schedule has one buffer (Tn == Tc) and writes the nodes that improved. */
  if (!L.async || myT < t0)
    __stcg (Tn + gme, myT);
  const int ix = gx0 + tx, iz = gz0 + tz;   /* unpadded node */
  if (arg >= 0 && ix < L.nx && iz < L.nz)
    {
      const int ndelta = NW > 0 ? L.off_ndelta[arg] : sgoff[arg].ndelta;
      L.pred[(size_t) iz * (size_t) L.nx + (size_t) ix] = iz * L.nx + ix + ndelta;
    }

  /* The update map: which neighbours' halos hold a node that changed. */
  unsigned m = 0;
  if (myT < t0)
    {
      if (L.drx > 1 || L.drz > 1)
        m = SPR_DIR_ALL & ~SPR_DIR_SELF;   /* reach beyond the next tile: wake all */
      else
        {
          const int x0 = tx < L.rx ? 0 : 1, x1 = tx >= TX - L.rx ? 2 : 1;
          const int z0 = tz < L.rz ? 0 : 1, z1 = tz >= TZ - L.rz ? 2 : 1;
          for (int zz = z0; zz <= z1; zz++)
            for (int xx = x0; xx <= x1; xx++)
              m |= 1u << (zz * 3 + xx);
          m &= ~SPR_DIR_SELF;
        }
      m |= SPR_DIRTY;
    }
  float cm = myT < t0 ? myT : kInf;
  for (int o = 16; o > 0; o >>= 1)
    {
      m |= __shfl_xor_sync (0xffffffffu, m, o);
      cm = fminf (cm, __shfl_xor_sync (0xffffffffu, cm, o));
    }
  if ((tx & 31) == 0)
    {
      scratch[tz] = (int) m;
      scratch[32 + tz] = __float_as_int (cm);
    }
  phase_mark (L, kPhaseIterate, mark);
  if (L.async)
    __threadfence ();   /* the new times are visible before anyone is woken */
  __syncthreads ();   /* also: everyone is done with sT before the next tile */
  if (tx == 0 && tz == 0)
    {
      unsigned all = 0;
      float cmin = kInf;
      for (int i = 0; i < TZ; i++)
        {
          all |= (unsigned) scratch[i];
          cmin = fminf (cmin, __int_as_float (scratch[32 + i]));
        }
      if (any && it >= L.inner_max)
        all |= SPR_DIR_SELF;                /* cut short: not at a local fixpoint */
      if (!L.async)
        {
          __stcg (L.chmin + t, cmin);
          __stcg (L.chmask + t, (uint16_t) all);
        }
      wake_mask = all;
      wake_min = cmin;
      phase_mark (L, kPhaseFinish, mark);
      const long long real = (long long) min (TX, L.nx - gx0) * (long long) min (TZ, L.nz - gz0);
      edges += (unsigned long long) (real * (long long) L.noff * (long long) (it + 1));
      acts++;
    }
}

/* The write-back of a tile that changed in the last pass and is not active
 * in this one: its nodes, from the buffer read now to the one written. */
template <int TX, int TZ>
__device__ void
write_back_tile (const SprLaunch &L, int t, const float *__restrict__ Tc, float *__restrict__ Tn)
{
  const int tile_x = t % L.ntx, tile_z = t / L.ntx;
  const size_t g = (size_t) (tile_z * TZ + threadIdx.y + L.rz) * (size_t) L.px
                   + (size_t) (tile_x * TX + threadIdx.x + L.rx);
  __stcg (Tn + g, __ldcg (Tc + g));
}

__device__ __forceinline__ const float *
Tc_of (const SprLaunch &L, int cur)
{
  return L.T[cur];
}

/* Selected in this pass: pending (finite key) and within the threshold. */
__device__ __forceinline__ bool
is_sel (float k, float theta)
{
  return k <= theta && k < kInf;
}

/* One pass with the WIDE bookkeeping (see spr-cuda-tune.h): a tile is
 * pending iff its key is finite (the update map keeps that invariant: a
 * key is finite exactly when the tile was kept or woken), so the scan reads
 * keys alone, strided (coalesced), into registers, and every load of the
 * write-back and update-map phases is independent of the others.  The
 * decisions are those of the SCAN bookkeeping; only the order of the
 * compacted list differs (rank = thread-major over the strided tiles).
 * Returns false when nothing was pending (all blocks agree). */
template <int TX, int TZ, int NW, int RFIX>
__device__ bool
wide_pass (const SprLaunch &L, int cur, const float *Tc, const int2 *scells, const SprGOff *sgoff,
           int *slist, int *scratch, float *sT, float *sS, unsigned long long &edges,
           unsigned long long &acts, long long &mark, cg::grid_group &grid)
{
  constexpr int NT = TX * TZ;
  constexpr int KR = SPR_SCAN_KREG;
  const int tid = threadIdx.y * TX + threadIdx.x;
  const int G = gridDim.x, b = blockIdx.x;
  const float *key = L.key[cur];
  float *Tn = L.T[cur ^ 1];
  const int kper = (L.ntiles + NT - 1) / NT;
  const bool inreg = kper <= KR;
  unsigned wm;     /* relax_tile's wake-ups; this schedule reads them from chmask */
  float wmin;

  float kr[KR];
#pragma unroll
  for (int i = 0; i < KR; i++)
    {
      const int t = tid + i * NT;
      kr[i] = inreg && t < L.ntiles ? __ldcg (key + t) : kInf;
    }
  int npend = 0;
  float kmin = kInf;
  if (inreg)
    {
#pragma unroll
      for (int i = 0; i < KR; i++)
        {
          npend += kr[i] < kInf;
          kmin = fminf (kmin, kr[i]);
        }
    }
  else
    {
#pragma unroll 4
      for (int t = tid; t < L.ntiles; t += NT)
        {
          const float k = __ldcg (key + t);
          npend += k < kInf;
          kmin = fminf (kmin, k);
        }
    }
  int total_pend;
  float kall;
  block_sum_min (npend, kmin, scratch, &total_pend, &kall);
  if (total_pend == 0)
    return false;
  const float theta = kall + L.delta;
  int cnt = 0;
  if (inreg)
    {
#pragma unroll
      for (int i = 0; i < KR; i++)
        cnt += is_sel (kr[i], theta);
    }
  else
    {
#pragma unroll 4
      for (int t = tid; t < L.ntiles; t += NT)
        cnt += is_sel (__ldcg (key + t), theta);
    }
  int total;
  int rank = block_exclusive_scan (cnt, scratch, &total);

  if (L.compact)
    {
      if (inreg)
        {
#pragma unroll
          for (int i = 0; i < KR; i++)
            if (is_sel (kr[i], theta))
              {
                if (rank % G == b)
                  slist[rank / G] = tid + i * NT;
                rank++;
              }
        }
      else
        {
          for (int t = tid; t < L.ntiles; t += NT)
            if (is_sel (__ldcg (key + t), theta))
              {
                if (rank % G == b)
                  slist[rank / G] = t;
                rank++;
              }
        }
      __syncthreads ();
      const int mine = total > b ? (total - 1 - b) / G + 1 : 0;
      for (int i = 0; i < mine; i++)
        relax_tile<TX, TZ, NW, RFIX> (L, slist[i], Tc, Tn, sT, sS, scells, sgoff, scratch, edges,
                                      acts, wm, wmin, mark);
    }
  else
    {
      for (int t = b; t < L.ntiles; t += G)
        if (is_sel (__ldcg (key + t), theta))
          relax_tile<TX, TZ, NW, RFIX> (L, t, Tc, Tn, sT, sS, scells, sgoff, scratch, edges, acts,
                                        wm, wmin, mark);
    }

  /* Write-backs: this block's tiles b, b + G, ... checked by all threads at
   * once, the hits collected in slist (done with above). */
  {
    const uint8_t *wb = L.wback[cur];
    __syncthreads ();
    if (tid == 0)
      scratch[0] = 0;
    __syncthreads ();
    for (int t = b + tid * G; t < L.ntiles; t += NT * G)
      {
        const uint8_t w = __ldcg (wb + t);
        const float k = __ldcg (key + t);
        if (w && !is_sel (k, theta))
          slist[atomicAdd (&scratch[0], 1)] = t;
      }
    __syncthreads ();
    const int nwb = scratch[0];
    for (int i = 0; i < nwb; i++)
      write_back_tile<TX, TZ> (L, slist[i], Tc, Tn);
  }
  grid.sync ();

  /* The next map: same rules as the SCAN bookkeeping, loads issued
   * together (a neighbour's chmask/chmin are only used when it was
   * selected, i.e. written in this pass). */
  float *nkey = L.key[cur ^ 1];
  uint8_t *nwb = L.wback[cur ^ 1];
  for (int t = b * NT + tid; t < L.ntiles; t += G * NT)
    {
      const int ttx = t % L.ntx, ttz = t / L.ntx;
      float nk = kInf;
      float kt;
      unsigned mt;
      if (L.drx == 1 && L.drz == 1)
        {
          float kk[9], cc[9];
          unsigned mm[9];
#pragma unroll
          for (int q = 0; q < 9; q++)
            {
              const int x = ttx + q % 3 - 1, z = ttz + q / 3 - 1;
              const bool in = x >= 0 && x < L.ntx && z >= 0 && z < L.ntz;
              const int n = z * L.ntx + x;
              kk[q] = in ? __ldcg (key + n) : kInf;
              mm[q] = in ? (unsigned) __ldcg (L.chmask + n) : 0u;
              cc[q] = in ? __ldcg (L.chmin + n) : kInf;
            }
#pragma unroll
          for (int q = 0; q < 9; q++)
            {
              /* neighbour at (x, z) = t + (q%3 - 1, q/3 - 1); the direction
               * from it to t is the opposite: bit (1 - dz')·3 + (1 - dx'). */
              const int bit = (2 - q / 3) * 3 + (2 - q % 3);
              if (is_sel (kk[q], theta) && ((mm[q] >> bit) & 1u))
                nk = fminf (nk, cc[q]);
            }
          kt = kk[4];
          mt = mm[4];
        }
      else
        {
          for (int z = max (0, ttz - L.drz); z <= min (L.ntz - 1, ttz + L.drz); z++)
            for (int x = max (0, ttx - L.drx); x <= min (L.ntx - 1, ttx + L.drx); x++)
              {
                const int n = z * L.ntx + x;
                const float k = __ldcg (key + n);
                const unsigned m = __ldcg (L.chmask + n);
                const float c = __ldcg (L.chmin + n);
                const int dx = max (-1, min (1, ttx - x)), dz = max (-1, min (1, ttz - z));
                if (is_sel (k, theta) && ((m >> ((dz + 1) * 3 + dx + 1)) & 1u))
                  nk = fminf (nk, c);
              }
          kt = __ldcg (key + t);
          mt = __ldcg (L.chmask + t);
        }
      const bool sel = is_sel (kt, theta);
      const bool keep = kt < kInf && !sel;
      __stcg (nkey + t, fminf (keep ? kt : kInf, nk));
      __stcg (nwb + t, (uint8_t) (sel && (mt & SPR_DIRTY)));
    }
  grid.sync ();
  return true;
}

/* The persistent pass kernel: passes pass0 .. pass0 + max_passes - 1, or
 * until the update map is empty. */
template <int TX, int TZ, int NW, int RFIX>
__global__ void __launch_bounds__ (TX * TZ, 1)
spr_passes (const SprLaunch L)
{
  extern __shared__ __align__ (16) unsigned char smem[];
  cg::grid_group grid = cg::this_grid ();
  const int NT = TX * TZ;
  const int tid = threadIdx.y * TX + threadIdx.x;
  const int G = gridDim.x, b = blockIdx.x;

  const SprShared sh = shared_layout<NW, RFIX> (L, smem);
  const int2 *scells = sh.cells;
  const SprGOff *sgoff = sh.goff;
  int *slist = sh.list, *scratch = sh.scratch;
  float *sT = sh.T, *sS = sh.S;

  unsigned long long edges = 0, acts = 0;
  long long mark = clock64 ();
  int p = L.pass0;
  int converged = 0;
  unsigned wm;     /* relax_tile's wake-ups; the passes read them from chmask */
  float wmin;

  for (int done = 0; done < L.max_passes; done++, p++)
    {
      const int cur = p & 1;
      const uint8_t *act = L.active[cur];

      if (L.wide)
        {
          if (!wide_pass<TX, TZ, NW, RFIX> (L, cur, Tc_of (L, cur), scells, sgoff, slist, scratch,
                                            sT, sS, edges, acts, mark, grid))
            {
              converged = 1;
              break;
            }
          continue;
        }
      /* The pending tiles: how many, and the least key; every block
       * computes the same, so all blocks agree on the threshold and leave
       * the loop together.  Each thread reads a contiguous chunk. */
      const float *key = L.key[cur];
      const int beg = tid * L.chunk;
      const int end = min (beg + L.chunk, L.ntiles);
      int npend = 0;
      float kmin = kInf;
      for (int t = beg; t < end; t++)
        if (__ldcg (act + t))
          {
            npend++;
            kmin = fminf (kmin, __ldcg (key + t));
          }
      int total_pend;
      float kall;
      block_sum_min (npend, kmin, scratch, &total_pend, &kall);
      if (total_pend == 0)
        {
          converged = 1;
          break;
        }
      const float theta = kall + L.delta;   /* +inf when delta is */
      int cnt = 0;
      for (int t = beg; t < end; t++)
        cnt += __ldcg (act + t) && __ldcg (key + t) <= theta;
      int total;
      int rank = block_exclusive_scan (cnt, scratch, &total);

      const float *Tc = L.T[cur];
      float *Tn = L.T[cur ^ 1];
      if (L.compact)
        {
          /* The compacted list, dealt round-robin: entry r goes to block
           * r mod G, at slot r / G.  Neighbouring active tiles land on
           * different blocks, which balances the load. */
          for (int t = beg; t < end; t++)
            if (__ldcg (act + t) && __ldcg (key + t) <= theta)
              {
                if (rank % G == b)
                  slist[rank / G] = t;
                rank++;
              }
          __syncthreads ();
          const int mine = total > b ? (total - 1 - b) / G + 1 : 0;
          for (int i = 0; i < mine; i++)
            relax_tile<TX, TZ, NW, RFIX> (L, slist[i], Tc, Tn, sT, sS, scells, sgoff, scratch, edges,
                                          acts, wm, wmin, mark);
        }
      else
        {
          for (int t = b; t < L.ntiles; t += G)
            if (__ldcg (act + t) && __ldcg (key + t) <= theta)
              relax_tile<TX, TZ, NW, RFIX> (L, t, Tc, Tn, sT, sS, scells, sgoff, scratch, edges,
                                            acts, wm, wmin, mark);
        }
      {
        const uint8_t *wb = L.wback[cur];
        for (int t = b; t < L.ntiles; t += G)
          if (__ldcg (wb + t) && !(__ldcg (act + t) && __ldcg (key + t) <= theta))
            write_back_tile<TX, TZ> (L, t, Tc, Tn);
      }
      grid.sync ();

      /* The update map of the next pass.  sel: processed in this pass.
       * A tile stays pending if it was deferred, or becomes pending when a
       * processed neighbour's changes reached its halo; a processed tile
       * that changed is dirty (write-back next pass unless processed). */
      uint8_t *nxt = L.active[cur ^ 1];
      float *nkey = L.key[cur ^ 1];
      uint8_t *nwb = L.wback[cur ^ 1];
      for (int t = b * NT + tid; t < L.ntiles; t += G * NT)
        {
          const int ttx = t % L.ntx, ttz = t / L.ntx;
          float nk = kInf;
          for (int z = max (0, ttz - L.drz); z <= min (L.ntz - 1, ttz + L.drz); z++)
            for (int x = max (0, ttx - L.drx); x <= min (L.ntx - 1, ttx + L.drx); x++)
              {
                const int n = z * L.ntx + x;
                if (__ldcg (act + n) && __ldcg (key + n) <= theta)
                  {
                    const int dx = max (-1, min (1, ttx - x)), dz = max (-1, min (1, ttz - z));
                    if (((unsigned) __ldcg (L.chmask + n) >> ((dz + 1) * 3 + dx + 1)) & 1u)
                      nk = fminf (nk, __ldcg (L.chmin + n));
                  }
              }
          const bool pend = __ldcg (act + t);
          const bool sel = pend && __ldcg (key + t) <= theta;
          const bool keep = pend && !sel;
          const float k = fminf (keep ? __ldcg (key + t) : kInf, nk);
          __stcg (nxt + t, (uint8_t) (keep || nk < kInf));
          __stcg (nkey + t, k);
          __stcg (nwb + t, (uint8_t) (sel && (__ldcg (L.chmask + t) & SPR_DIRTY)));
        }
      grid.sync ();
    }

  phase_mark (L, kPhaseOther, mark);
  if (tid == 0)
    {
      L.block_edges[2 * b] += edges;
      L.block_edges[2 * b + 1] += acts;
      if (b == 0)
        {
          L.state->pass = p;
          L.state->converged = converged;
        }
    }
}

/* ---- the asynchronous schedule (SPR_CUDA_MAP_ASYNC) --------------------
 *
 * The passes above end with a grid barrier, so every block waits for the
 * pass's slowest tile, and blocks without a tile wait for all the others
 * (ncu: 71 % of the warps' time at barriers).  Here no block waits for
 * another.  Tiles are taken from a queue in device memory as they become
 * pending, relaxed in shared memory as before, and written into the one
 * buffer T[0], own nodes only (still no atomics on times: concurrent readers
 * of a halo see the old or the new time, both upper bounds, and a tile that
 * read an old one is woken again).  The queue keeps the tile delta-stepping
 * of the passes as near-far buckets: the open bucket takes the pending tiles
 * whose key is at most theta; a tile woken with a larger key waits for a
 * later bucket.  When nothing is queued or running, one block opens the next
 * bucket: theta = least pending key + delta.  While nothing is queued and
 * most blocks idle, one block raises theta early (queue_raise_bucket).
 *
 * A tile is idle, queued (in the queue once), running, or running and woken
 * again (it queues itself when it finishes), so no two blocks ever relax the
 * same tile.  Ordering: a block writes its times, fences, then wakes; a block
 * takes an entry, marks the tile running, clears its key, fences, then loads
 * the tile: it sees every time written before the wake-up that queued it. */

constexpr int kTileIdle = 0, kTileQueued = 1, kTileRunning = 2, kTileRewoken = 3;
constexpr int kTakeExit = -1;      /* no tile for this launch: leave */
constexpr int kTakeOpen = -2;      /* this block holds the lock: open the next bucket */
constexpr int kTakeRaise = -3;     /* this block holds the lock: raise theta early */

__device__ __forceinline__ unsigned long long
global_ns (void)
{
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* Fill reserved entry e with tile t: after everything this thread wrote
 * before (the fence), and once the entry's slot is free. */
__device__ void
queue_fill (const SprLaunch &L, unsigned e, int t)
{
  volatile int *slot = (volatile int *) (L.qslot + e % L.qcap);
  while (*slot >= 0)   /* the taker of the entry qcap before has not read it yet */
    __nanosleep (32);
  __threadfence ();
  *slot = t;
}

/* Append tile t, already marked queued and counted in busy. */
__device__ void
queue_push (const SprLaunch &L, int t)
{
  queue_fill (L, atomicAdd (&L.q->tail, 1u), t);
}

/* A neighbour's change reached tile t's halo (or t was cut short), with
 * least new time k. */
__device__ void
queue_wake (const SprLaunch &L, int t, float k, float theta)
{
  atomicMin ((int *) L.key[0] + t, __float_as_int (k));   /* k >= 0: int order is float order */
  if (!(k <= theta))
    return;                         /* a later bucket */
  int *f = L.tflag + t;
  for (;;)
    {
      const int old = atomicCAS (f, kTileIdle, kTileQueued);
      if (old == kTileIdle)
        {
          atomicAdd (&L.q->busy, 1);
          __threadfence ();          /* busy counts it before it can finish */
          queue_push (L, t);
          return;
        }
      if (old != kTileRunning)
        return;                     /* queued, or already woken again */
      if (atomicCAS (f, kTileRunning, kTileRewoken) != kTileIdle)
        return;                     /* woken again, or queued meanwhile */
    }
}

/* The block's taker (one thread): the next tile, or kTakeExit, kTakeOpen or kTakeRaise.
 *
 * A block takes an entry by a ticket: one atomicAdd on head, so that takers
 * never retry (a compare-and-swap on head, retried by every idle block
 * whenever an entry appeared, capped the whole queue at about 3.5
 * activations per microsecond, whatever the tile size).  A ticket may run
 * past tail (two loads seen out of order, or takers racing): its holder
 * waits until a push fills that entry, and meanwhile may still open or
 * raise a bucket.  A block never leaves holding a ticket, except when the
 * solve is done; so every entry pushed is taken.  A block leaves at its
 * deadline only once it has done something in this launch, so that every
 * launch makes progress however small its budget. */
constexpr unsigned kNoTicket = 0xffffffffu;

__device__ int
queue_take (const SprLaunch &L, unsigned long long deadline, bool worked, unsigned &ticket)
{
  volatile SprQueue *q = L.q;
  for (;;)
    {
      if (q->done)
        return kTakeExit;
      if (ticket == kNoTicket)
        {
          if (worked && global_ns () > deadline)
            return kTakeExit;
          const unsigned h = q->head;
          const unsigned tl = q->tail;
          if ((int) (tl - h) > 0)
            ticket = atomicAdd (&L.q->head, 1u);
        }
      if (ticket != kNoTicket)
        {
          volatile int *slot = (volatile int *) (L.qslot + ticket % L.qcap);
          const int t = *slot;
          if (t >= 0)
            {
              *slot = -1;
              ticket = kNoTicket;
              return t;
            }
        }
      /* No entry is unclaimed when head has reached tail. */
      const int busy = q->busy;
      const bool unclaimed = (int) (q->tail - q->head) > 0;
      if (busy == 0 && atomicCAS (&L.q->lock, 0, 1) == 0)
        {
          /* Nothing queued or running: nobody can wake a tile now. */
          if (q->busy == 0 && (int) (q->tail - q->head) <= 0 && !q->done)
            {
              __threadfence ();
              return kTakeOpen;
            }
          atomicExch (&L.q->lock, 0);
        }
      else if (busy > 0 && busy < L.raise_below && !unclaimed && q->lock == 0
               && atomicCAS (&L.q->lock, 0, 1) == 0)
        {
          /* Nothing queued and most blocks idle while the bucket's last
           * chains run: start on the next bucket now. */
          if ((int) (q->tail - q->head) <= 0 && !q->done)
            {
              __threadfence ();
              return kTakeRaise;
            }
          atomicExch (&L.q->lock, 0);
        }
      __nanosleep (ticket != kNoTicket ? 32 : 100);
    }
}

/* The whole block, holding the lock: the next bucket, or done. */
template <int NT>
__device__ void
queue_open_bucket (const SprLaunch &L, int *scratch, unsigned *sbase)
{
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const float *key = L.key[0];
  float kmin = kInf;
  for (int t = tid; t < L.ntiles; t += NT)
    kmin = fminf (kmin, __ldcg (key + t));
  int unused;
  float kall;
  block_sum_min (0, kmin, scratch, &unused, &kall);
  if (!(kall < kInf))
    {
      if (tid == 0)
        {
          L.q->done = 1;
          __threadfence ();
          atomicExch (&L.q->lock, 0);
        }
      return;
    }
  const float theta = kall + L.delta;
  int cnt = 0;
  for (int t = tid; t < L.ntiles; t += NT)
    cnt += is_sel (__ldcg (key + t), theta);
  int total;
  int rank = block_exclusive_scan (cnt, scratch, &total);
  if (tid == 0)
    {
      volatile SprQueue *q = L.q;
      q->theta = theta;
      q->buckets = q->buckets + 1;
      atomicAdd (&L.q->busy, total);
      __threadfence ();
      *sbase = atomicAdd (&L.q->tail, (unsigned) total);
    }
  /* Every selected tile is marked queued before the first one can run and
   * wake another (which must not queue a selected tile a second time). */
  for (int t = tid; t < L.ntiles; t += NT)
    if (is_sel (__ldcg (key + t), theta))
      L.tflag[t] = kTileQueued;
  __threadfence ();
  __syncthreads ();
  const unsigned base = *sbase;
  for (int t = tid; t < L.ntiles; t += NT)
    if (is_sel (__ldcg (key + t), theta))
      queue_fill (L, base + (unsigned) rank++, t);
  __syncthreads ();
  if (tid == 0)
    {
      __threadfence ();
      atomicExch (&L.q->lock, 0);
    }
}

/* The whole block, holding the lock, while tiles still run: theta moves
 * to (least key beyond it) + delta, and the tiles between old and new theta
 * are woken as a running block would wake them.  A block that took its tile
 * under the old theta leaves a later wake-up in that range pending without
 * queueing it: the next raise or opening finds it by its key.  Order and
 * answer are unaffected; only how much runs at once. */
template <int NT>
__device__ void
queue_raise_bucket (const SprLaunch &L, int *scratch)
{
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const float *key = L.key[0];
  const float theta = ((volatile SprQueue *) L.q)->theta;
  float kmin = kInf;
  for (int t = tid; t < L.ntiles; t += NT)
    {
      const float k = __ldcg (key + t);
      if (k > theta)
        kmin = fminf (kmin, k);
    }
  int unused;
  float kfar;
  block_sum_min (0, kmin, scratch, &unused, &kfar);
  if (kfar < kInf)
    {
      const float next = kfar + L.delta;
      if (tid == 0)
        {
          volatile SprQueue *q = L.q;
          q->theta = next;
          q->buckets = q->buckets + 1;
          q->raises = q->raises + 1;
          __threadfence ();
        }
      __syncthreads ();
      for (int t = tid; t < L.ntiles; t += NT)
        {
          const float k = __ldcg (key + t);
          if (k > theta && k <= next)
            queue_wake (L, t, k, next);
        }
    }
  __syncthreads ();
  if (tid == 0)
    {
      __threadfence ();
      atomicExch (&L.q->lock, 0);
      if (!(kfar < kInf))
        __nanosleep (2000);   /* nothing beyond theta yet: do not rescan at once */
    }
}

/* The persistent asynchronous kernel: tiles until the queue is done or the
 * launch's time budget is spent (the host then launches it again; all of
 * its state is in device memory). */
template <int TX, int TZ, int NW, int RFIX>
__global__ void __launch_bounds__ (TX * TZ, 1)
spr_async (const SprLaunch L)
{
  extern __shared__ __align__ (16) unsigned char smem[];
  __shared__ int s_take;
  __shared__ unsigned s_base;
  __shared__ float s_theta;
  const int tid = threadIdx.y * TX + threadIdx.x;
  const int b = blockIdx.x;

  const SprShared sh = shared_layout<NW, RFIX> (L, smem);   /* its list is not used */
  const int2 *scells = sh.cells;
  const SprGOff *sgoff = sh.goff;
  int *scratch = sh.scratch;
  float *sT = sh.T, *sS = sh.S;

  /* The first thread of warp 1 takes the next tile while warp 0 still
   * wakes the neighbours of the last one: the two chains of round trips
   * to L2 overlap. */
  static_assert (TZ >= 2, "the taker is in warp 1");
  constexpr int kTaker = TX;
  const unsigned long long deadline = global_ns () + L.budget_ns;
  bool worked = false;   /* the taker: took a tile or opened a bucket */
  unsigned ticket = kNoTicket;   /* the taker: the queue entry it waits for */
  unsigned long long edges = 0, acts = 0;
  long long mark = clock64 ();
  float *T = L.T[0];
  for (;;)
    {
      if (tid == kTaker)
        {
          const int t = queue_take (L, deadline, worked, ticket);
          worked = worked || t != kTakeExit;
          if (t >= 0)
            {
              atomicExch (L.tflag + t, kTileRunning);
              atomicExch ((int *) L.key[0] + t, __float_as_int (kInf));
              __threadfence ();
              s_theta = ((volatile SprQueue *) L.q)->theta;
            }
          s_take = t;
        }
      __syncthreads ();
      const int t = s_take;
      if (t == kTakeExit)
        break;
      if (t == kTakeOpen)
        {
          queue_open_bucket<TX * TZ> (L, scratch, &s_base);
          continue;
        }
      if (t == kTakeRaise)
        {
          queue_raise_bucket<TX * TZ> (L, scratch);
          continue;
        }
      /* Read before relax_tile's last barrier: the taker writes the next
       * tile's theta while warp 0 still wakes with this one's. */
      const float theta = s_theta;
      unsigned wm = 0;
      float wmin = kInf;
      relax_tile<TX, TZ, NW, RFIX> (L, t, T, T, sT, sS, scells, sgoff, scratch, edges, acts, wm,
                                    wmin, mark);
      /* Warp 0 wakes the tiles whose halo saw a change, one lane each, then
       * lane 0 lets the tile go.  Meanwhile the taker takes the next tile. */
      if (threadIdx.y == 0)
        {
          const int lane = threadIdx.x;
          wm = __shfl_sync (0xffffffffu, wm, 0);
          wmin = __shfl_sync (0xffffffffu, wmin, 0);
          const int ttx = t % L.ntx, ttz = t / L.ntx;
          const int wx = 2 * L.drx + 1, nq = wx * (2 * L.drz + 1);
          for (int qi = lane; qi < nq; qi += 32)
            {
              const int ox = qi % wx - L.drx, oz = qi / wx - L.drz;
              const int x = ttx + ox, z = ttz + oz;
              const int bit = (max (-1, min (1, oz)) + 1) * 3 + max (-1, min (1, ox)) + 1;
              if (x >= 0 && x < L.ntx && z >= 0 && z < L.ntz && ((wm >> bit) & 1u))
                queue_wake (L, z * L.ntx + x, wmin, theta);
            }
          __threadfence ();
          __syncwarp ();
          if (lane == 0)
            {
              atomicAdd (&L.q->acts, 1ull);
              if (atomicCAS (L.tflag + t, kTileRunning, kTileIdle) == kTileRewoken)
                {
                  atomicExch (L.tflag + t, kTileQueued);   /* keeps its place in busy */
                  queue_push (L, t);
                }
              else
                {
                  __threadfence ();
                  atomicSub (&L.q->busy, 1);
                }
            }
          phase_mark (L, kPhaseWake, mark);
        }
    }
  phase_mark (L, kPhaseOther, mark);

  if (tid == 0)
    {
      L.block_edges[2 * b] += edges;
      L.block_edges[2 * b + 1] += acts;
    }
}

/* ---- helper kernels ---------------------------------------------------- */

__global__ void
k_fill (float *p, size_t n, float v)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    p[i] = v;
}

/* Slowness of padded node i: 1/v inside the grid, +inf for obstacles and
 * padding. */
__device__ __forceinline__ float
padded_slowness (const float *__restrict__ vel, size_t i, int nx, int nz, int px, int rx, int rz)
{
  const int ix = (int) (i % (size_t) px) - rx, iz = (int) (i / (size_t) px) - rz;
  if (ix >= 0 && ix < nx && iz >= 0 && iz < nz)
    {
      const float v = vel[(size_t) iz * (size_t) nx + (size_t) ix];
      if (v > 0.0f)
        return 1.0f / v;
    }
  return kInf;
}

__global__ void
k_slowness (const float *__restrict__ vel, float *__restrict__ S, int nx, int nz, int px,
            int pz, int rx, int rz)
{
  const size_t n = (size_t) px * (size_t) pz;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    S[i] = padded_slowness (vel, i, nx, nz, px, rx, rz);
}

/* The queue's start (SPR_CUDA_MAP_ASYNC) in one launch instead of eight:
 * padded slowness as k_slowness, T = +inf, pred = -1, tile keys +inf and
 * flags idle, queue entries empty (-1), the queue record zero.  The passes'
 * buffers (T[1], the update map) are not touched. */
__global__ void
k_init_async (const float *__restrict__ vel, float *__restrict__ S, float *__restrict__ T,
              int32_t *__restrict__ pred, float *__restrict__ key, int *__restrict__ tflag,
              int *__restrict__ qslot, SprQueue *q, int nx, int nz, int px, int pz, int rx,
              int rz, int ntiles, unsigned qcap)
{
  const size_t plane = (size_t) px * (size_t) pz, n = (size_t) nx * (size_t) nz;
  size_t end = plane > n ? plane : n;
  end = end > (size_t) ntiles ? end : (size_t) ntiles;
  end = end > (size_t) qcap ? end : (size_t) qcap;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < end;
       i += (size_t) gridDim.x * blockDim.x)
    {
      if (i < plane)
        {
          S[i] = padded_slowness (vel, i, nx, nz, px, rx, rz);
          T[i] = kInf;
        }
      if (i < n)
        pred[i] = -1;
      if (i < (size_t) ntiles)
        {
          key[i] = kInf;
          tflag[i] = kTileIdle;
        }
      if (i < (size_t) qcap)
        qslot[i] = -1;
      if (i == 0)
        *q = SprQueue{};
    }
}

/* The sources' times, and the first pending tiles: each source's tile and
 * every tile whose halo can hold the source (drx, drz tiles around it), as
 * if the source had just changed there.  Its own tile alone is not enough:
 * a tile in which nothing else changes (the source its only free node, as
 * in the last tile of a 33-node row) would wake no neighbour, and the
 * solve would end with every other node unreached.  Sources that share a
 * tile store the same values. */
__global__ void
k_sources (const long long *__restrict__ pidx, const int *__restrict__ tile, int n, float *T0,
           float *T1, uint8_t *active0, float *key0, int ntx, int ntz, int drx, int drz)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    {
      T0[pidx[i]] = 0.0f;
      T1[pidx[i]] = 0.0f;
      const int tx = tile[i] % ntx, tz = tile[i] / ntx;
      for (int z = max (0, tz - drz); z <= min (ntz - 1, tz + drz); z++)
        for (int x = max (0, tx - drx); x <= min (ntx - 1, tx + drx); x++)
          {
            active0[z * ntx + x] = 1;
            key0[z * ntx + x] = 0.0f;
          }
    }
}

/* The weight table: plane h holds w(v, v + o_h) for the upper half of the
 * offsets, +inf at padding nodes.  pcell[h] = (first, count) into cells,
 * whose x is the padded-grid delta. */
__global__ void
k_table (const float *__restrict__ S, float *__restrict__ table, const int2 *__restrict__ cells,
         const int2 *__restrict__ pcell, int nh, int nx, int nz, int px, int pz, int rx, int rz)
{
  const size_t n = (size_t) px * (size_t) pz;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    {
      const int ix = (int) (i % (size_t) px) - rx, iz = (int) (i / (size_t) px) - rz;
      const bool real = ix >= 0 && ix < nx && iz >= 0 && iz < nz;
      for (int h = 0; h < nh; h++)
        {
          float s = kInf;
          if (real)
            {
              const int2 fc = pcell[h];
              s = 0.0f;
              for (int c = fc.x; c < fc.x + fc.y; c++)
                {
                  const int2 cl = cells[c];
                  s = fmaf (__int_as_float (cl.y), S[(long long) i + cl.x], s);
                }
            }
          table[(size_t) h * n + i] = s;
        }
    }
}

/* Final traveltimes, unpadded and widened to double; with out32, also kept
 * unpadded as float (keep_device_time: what the GL texture takes). */
__global__ void
k_unpad (const float *__restrict__ T, double *__restrict__ out, float *__restrict__ out32,
         int nx, int nz, int px, int rx, int rz)
{
  const size_t n = (size_t) nx * (size_t) nz;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    {
      const size_t ix = i % (size_t) nx, iz = i / (size_t) nx;
      const float t = T[(iz + (size_t) rz) * (size_t) px + ix + (size_t) rx];
      out[i] = (double) t;
      if (out32 != nullptr)
        out32[i] = t;
    }
}

/* ---- host side --------------------------------------------------------- */

typedef void (*PassKernel) (SprLaunch);

/* Whether the stencils are exactly the compile-time ones of radius R: the
 * same offsets in the same order, and the cells of spr-stencil.c as
 * CxStencil walked them, with the same lengths to double rounding. */
template <int R>
bool
stencils_match_fixed (const spr_stencils *st)
{
  if (st->rx != R || st->rz != R || st->noffsets != reduced_count (R))
    return false;
  const int pitch = 1000;   /* any pitch > 2R + 1 separates a and b */
  for (int k = 0; k < st->noffsets; k++)
    if (reduced_delta (R, k, pitch) != st->offsets[k].b * pitch + st->offsets[k].a)
      return false;
  constexpr auto &tab = CxStencil<R>::table;
  if (tab.n != st->ncells)
    return false;
  for (int k = 0; k < st->noffsets; k++)
    {
      const spr_offset *o = &st->offsets[k];
      for (int i = o->first; i < o->first + o->count; i++)
        {
          const spr_cell *hc = &st->cells[i];
          bool found = false;
          for (int c = tab.row_first[hc->dj + R]; c < tab.row_first[hc->dj + R + 1]; c++)
            if (tab.c[c].k == k && tab.c[c].di == hc->di)
              found = fabs (tab.c[c].dt * o->length - hc->len) <= 1e-12 * o->length;
          if (!found)
            return false;
        }
    }
  return true;
}

struct Variant {
  int nw, tx, tz;
  int rfix;        /* > 0: compile-time reduced stencil of radius (rfix, rfix) */
  PassKernel fn;   /* the passes (SCAN, WIDE) */
  PassKernel afn;  /* the asynchronous schedule (ASYNC) */
  bool (*matches) (const spr_stencils *);   /* rfix > 0: stencils_match_fixed<rfix> */
};

/* Block shapes: 32 wide so that a warp is one row of the tile (coalesced
 * loads, conflict-free shared accesses); as many rows as the registers that
 * NW weights per thread leave room for (see spr-cuda-config.cuh). */
#define FIXED(R, TXV, TZV) \
  { reduced_count (R), TXV, TZV, R, spr_passes<TXV, TZV, reduced_count (R), R>, \
    spr_async<TXV, TZV, reduced_count (R), R>, stencils_match_fixed<R> }
const Variant kFixed[] = {
  FIXED (1, 32, 32), FIXED (2, 32, 32), FIXED (3, 32, 32),
  FIXED (4, 32, 16), FIXED (5, 32, 16), FIXED (6, 32, 16),
};
#undef FIXED
/* Any stencil of up to 48 offsets: deltas are kernel parameters, which the
 * compiler keeps in registers beside the weights, hence the smaller tiles. */
const Variant kRuntime[] = {
  { 8, 32, 32, 0, spr_passes<32, 32, 8, 0>, spr_async<32, 32, 8, 0>, nullptr },
  { 16, 32, 16, 0, spr_passes<32, 16, 16, 0>, spr_async<32, 16, 16, 0>, nullptr },
  { 32, 32, 16, 0, spr_passes<32, 16, 32, 0>, spr_async<32, 16, 32, 0>, nullptr },
  { 48, 32, 8, 0, spr_passes<32, 8, 48, 0>, spr_async<32, 8, 48, 0>, nullptr },
};
const Variant kGeneric = { 0, 32, 16, 0, spr_passes<32, 16, 0, 0>, spr_async<32, 16, 0, 0>,
                           nullptr };

struct Ctx {
  cudaStream_t stream = nullptr;
  cudaEvent_t ev[4] = { nullptr, nullptr, nullptr, nullptr };
  float *T[2] = { nullptr, nullptr };
  float *S = nullptr, *table = nullptr, *vel = nullptr;
  double *tout = nullptr;
  int32_t *pred = nullptr;
  uint16_t *chmask = nullptr;
  float *chmin = nullptr, *key[2] = { nullptr, nullptr };
  uint8_t *active[2] = { nullptr, nullptr }, *wback[2] = { nullptr, nullptr };
  SprState *state = nullptr;
  unsigned long long *block_edges = nullptr;
  int2 *cells_s = nullptr, *cells_g = nullptr, *pcell = nullptr;
  SprGOff *goff = nullptr;
  long long *src_p = nullptr;
  int *src_t = nullptr;
  void *pinned = nullptr;          /* staging for the big copies */
  SprState *h_state = nullptr;     /* pinned */
  SprQueue *queue = nullptr, *h_queue = nullptr;   /* asynchronous schedule; h_ pinned */
  int *tflag = nullptr, *qslot = nullptr;
  unsigned long long *phase = nullptr;
};

void
ctx_free (Ctx *c)
{
  /* Best effort: after a sticky error these fail too, and nothing more can
   * be done about it here. */
  if (c->stream != nullptr)
    cudaStreamSynchronize (c->stream);
  void *dev[] = { c->T[0], c->T[1], c->S, c->table, c->vel, c->tout, c->pred, c->chmask,
                  c->active[0], c->active[1], c->wback[0], c->wback[1], c->state,
                  c->block_edges, c->chmin, c->key[0], c->key[1], c->cells_s,
                  c->cells_g, c->pcell, c->goff, c->src_p, c->src_t, c->queue, c->tflag,
                  c->qslot, c->phase };
  for (void *p : dev)
    if (p != nullptr)
      cudaFree (p);
  if (c->pinned != nullptr)
    cudaFreeHost (c->pinned);
  if (c->h_state != nullptr)
    cudaFreeHost (c->h_state);
  if (c->h_queue != nullptr)
    cudaFreeHost (c->h_queue);
  for (cudaEvent_t e : c->ev)
    if (e != nullptr)
      cudaEventDestroy (e);
  if (c->stream != nullptr)
    cudaStreamDestroy (c->stream);
  cudaGetLastError ();   /* leave no non-sticky error behind for the next caller */
}

fr_status
cuda_fail (fr_error *err, cudaError_t e, const char *what, int line)
{
  cudaGetLastError ();
  if (e == cudaErrorMemoryAllocation)
    return fr_error_set (err, FR_E_DEVICE, "out of device memory (%s, spr-cuda.cu:%d)", what,
                         line);
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
    return fr_error_set (err, FR_E_DEVICE, "no usable CUDA device (%s)", cudaGetErrorString (e));
  return fr_error_set (err, FR_E_DEVICE, "CUDA error: %s (%s, spr-cuda.cu:%d)",
                       cudaGetErrorString (e), what, line);
}

/* Every CUDA call and launch goes through this: a failure becomes
 * FR_E_DEVICE with a message, and the caller frees everything. */
#define CU_TRY(call)                                                 \
  do                                                                 \
    {                                                                \
      cudaError_t e_ = (call);                                       \
      if (e_ != cudaSuccess)                                         \
        return cuda_fail (err, e_, #call, __LINE__);                 \
    }                                                                \
  while (0)
#define CU_LAUNCHED(what) CU_TRY (cudaGetLastError ())

template <typename T>
cudaError_t
dev_alloc (T **p, size_t count)
{
  return cudaMalloc ((void **) p, count * sizeof (T) + 16);
}

int
float_bits (float f)
{
  int i;
  memcpy (&i, &f, sizeof i);
  return i;
}

double
wall_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec * 1e-6;
}

int
grid_for (size_t n, int sms)
{
  size_t blocks = (n + SPR_HELPER_BLOCK - 1) / SPR_HELPER_BLOCK;
  size_t cap = (size_t) sms * 32;
  if (blocks > cap)
    blocks = cap;
  return blocks < 1 ? 1 : (int) blocks;
}

/* Whether AUTO precomputes the weight table (see RESULTS.md, "weights on
 * the fly from compile-time cells"). */
bool
auto_prefers_table (const Variant &v)
{
  /* Measured on the H200: the compile-time stencils (R 1-6) compute their
   * weights from immediates faster than they load them from a table, at
   * every size and radius tried (1024² and 1600², R 1-6, both
   * bookkeepings); the other kernels walk a cell list and were slower than
   * the table (H100, R 3 and 6, 512² and 1600²). */
  return v.rfix == 0;
}

fr_status
solve (Ctx *c, const spr_problem *pb, const spr_cuda_tune *tune, fr_spr_result *res,
       spr_cuda_report *rep, fr_error *err)
{
  const double w0 = wall_ms ();
  const fr_grid *g = pb->grid;
  const fr_spr_params *prm = pb->params;
  const spr_stencils *st = pb->stencils;
  const int nx = (int) g->nx, nz = (int) g->nz;
  const size_t n = g->nx * g->nz;
  const int rx = st->rx, rz = st->rz;
  const int noff = st->noffsets;

  if (g->ndim != 2)
    return fr_error_set (err, FR_E_UNSUPPORTED, "the CUDA SPR back end solves 2D grids only");
  if (prm->double_precision)
    return fr_error_set (err, FR_E_UNSUPPORTED,
                         "the CUDA SPR back end computes in single precision only");

  int ndev = 0;
  cudaError_t e = cudaGetDeviceCount (&ndev);
  if (e != cudaSuccess || ndev == 0)
    {
      cudaGetLastError ();
      return fr_error_set (err, FR_E_DEVICE, "no usable CUDA device (%s)",
                           e != cudaSuccess ? cudaGetErrorString (e) : "none present");
    }
  int dev = 0, sms = 0, coop = 0, smem_optin = 0;
  CU_TRY (cudaGetDevice (&dev));
  CU_TRY (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev));
  CU_TRY (cudaDeviceGetAttribute (&coop, cudaDevAttrCooperativeLaunch, dev));
  CU_TRY (cudaDeviceGetAttribute (&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (!coop)
    return fr_error_set (err, FR_E_DEVICE, "the CUDA device cannot launch cooperative kernels");

  /* The variant: the smallest register stencil that holds every offset. */
  Variant v = kGeneric;
  bool chosen = tune->force_generic;
  for (const Variant &cand : kFixed)
    if (!chosen && cand.matches (st))
      {
        v = cand;
        chosen = true;
      }
  for (const Variant &cand : kRuntime)
    if (!chosen && noff <= cand.nw)
      {
        v = cand;
        chosen = true;
      }
  const int TX = v.tx, TZ = v.tz, NT = TX * TZ;
  const int ntx = (nx + TX - 1) / TX, ntz = (nz + TZ - 1) / TZ;
  const long long ntiles_ll = (long long) ntx * ntz;
  const int px = ntx * TX + 2 * rx, pz = ntz * TZ + 2 * rz;
  const size_t plane = (size_t) px * (size_t) pz;
  const int sw = TX + 2 * rx, sh = TZ + 2 * rz;
  if (ntiles_ll > INT32_MAX / 2 || plane > (size_t) INT32_MAX * 4)
    return fr_error_set (err, FR_E_UNSUPPORTED, "grid too large for the CUDA SPR back end");
  const int ntiles = (int) ntiles_ll;
  if (st->ncells > SPR_CELLS_MAX)
    return fr_error_set (err, FR_E_UNSUPPORTED,
                         "radius %d,%d needs %d stencil cells; the CUDA back end holds %d",
                         rx, rz, st->ncells, SPR_CELLS_MAX);

  /* Weights: table or on the fly. */
  const int nh = noff / 2;
  const size_t table_bytes = (size_t) nh * plane * sizeof (float);
  bool want_table = prm->weights == FR_WEIGHTS_TABLE
                    || (prm->weights == FR_WEIGHTS_AUTO
                        && auto_prefers_table (v));

  CU_TRY (cudaStreamCreateWithFlags (&c->stream, cudaStreamNonBlocking));
  for (cudaEvent_t &ev : c->ev)
    CU_TRY (cudaEventCreate (&ev));
  cudaStream_t s = c->stream;

  /* Device buffers.  Update-map arrays are padded to NT·chunk bytes (zeros)
   * so the counting loop reads whole words. */
  const int chunk = (((ntiles + NT - 1) / NT) + 3) & ~3;
  const size_t map_bytes = (size_t) NT * (size_t) chunk;
  CU_TRY (dev_alloc (&c->T[0], plane));
  CU_TRY (dev_alloc (&c->T[1], plane));
  CU_TRY (dev_alloc (&c->S, plane));
  CU_TRY (dev_alloc (&c->vel, n));
  CU_TRY (dev_alloc (&c->tout, n));
  CU_TRY (dev_alloc (&c->pred, n));
  CU_TRY (dev_alloc (&c->chmask, (size_t) ntiles));
  CU_TRY (dev_alloc (&c->chmin, (size_t) ntiles));
  CU_TRY (dev_alloc (&c->key[0], (size_t) ntiles));
  CU_TRY (dev_alloc (&c->key[1], (size_t) ntiles));
  CU_TRY (dev_alloc (&c->wback[0], (size_t) ntiles));
  CU_TRY (dev_alloc (&c->wback[1], (size_t) ntiles));
  CU_TRY (dev_alloc (&c->active[0], map_bytes));
  CU_TRY (dev_alloc (&c->active[1], map_bytes));
  CU_TRY (dev_alloc (&c->state, 1));
  CU_TRY (dev_alloc (&c->src_p, pb->nsrc));
  CU_TRY (dev_alloc (&c->src_t, pb->nsrc));
  CU_TRY (cudaHostAlloc ((void **) &c->h_state, sizeof (SprState), cudaHostAllocDefault));
  const int map = tune->map != 0 ? tune->map
                  : v.rfix > 0 || noff >= SPR_ASYNC_MIN_OFFSETS ? SPR_CUDA_MAP_ASYNC
                  : SPR_MAP_DEFAULT;
  const bool async = map == SPR_CUDA_MAP_ASYNC;
  /* Queue entries: at most ntiles are queued at once (a tile is queued once). */
  const unsigned qcap = (unsigned) ntiles + 64u;
  if (async)
    {
      CU_TRY (dev_alloc (&c->queue, 1));
      CU_TRY (dev_alloc (&c->tflag, (size_t) ntiles));
      CU_TRY (dev_alloc (&c->qslot, (size_t) qcap));
      CU_TRY (cudaHostAlloc ((void **) &c->h_queue, sizeof (SprQueue), cudaHostAllocDefault));
    }
  if (tune->phases)
    {
      CU_TRY (dev_alloc (&c->phase, SPR_CUDA_PHASES));
      CU_TRY (cudaMemsetAsync (c->phase, 0, SPR_CUDA_PHASES * sizeof (unsigned long long),
                               c->stream));
    }

  bool use_table = false;
  if (want_table)
    {
      size_t free_b = 0, total_b = 0;
      CU_TRY (cudaMemGetInfo (&free_b, &total_b));
      if (table_bytes + SPR_TABLE_MARGIN_BYTES <= free_b)
        {
          e = dev_alloc (&c->table, (size_t) nh * plane);
          if (e == cudaSuccess)
            use_table = true;
          else
            {
              cudaGetLastError ();
              c->table = nullptr;
            }
        }
      if (!use_table && prm->weights == FR_WEIGHTS_TABLE)
        snprintf (res->notice, sizeof res->notice,
                  "the weight table (%zu MiB) does not fit in device memory; "
                  "weights computed on the fly", table_bytes >> 20);
    }

  /* Host-side stencil data. */
  {
    int2 *cs = (int2 *) malloc ((size_t) (st->ncells + 1) * sizeof (int2));
    int2 *cg_ = (int2 *) malloc ((size_t) (st->ncells + 1) * sizeof (int2));
    int2 *pc = (int2 *) malloc ((size_t) (nh + 1) * sizeof (int2));
    SprGOff *go = (SprGOff *) malloc ((size_t) (noff + 1) * sizeof (SprGOff));
    int *plane_of = (int *) malloc ((size_t) (noff + 1) * sizeof (int));
    long long *sp = (long long *) malloc ((pb->nsrc + 1) * sizeof (long long));
    int *stile = (int *) malloc ((pb->nsrc + 1) * sizeof (int));
    fr_status hs = FR_OK;
    if (cs == NULL || cg_ == NULL || pc == NULL || go == NULL || plane_of == NULL || sp == NULL
        || stile == NULL)
      hs = fr_error_set (err, FR_E_NOMEM, "out of host memory for the CUDA SPR set-up");
    if (hs == FR_OK)
      {
        for (int i = 0; i < st->ncells; i++)
          {
            const spr_cell *cl = &st->cells[i];
            const float len = (float) cl->len;
            cs[i] = make_int2 (cl->dj * sw + cl->di, float_bits (len));
            cg_[i] = make_int2 (cl->dj * px + cl->di, float_bits (len));
          }
        /* Planes: offsets of the upper half (b > 0, or b == 0 and a > 0). */
        int h = 0;
        for (int k = 0; k < noff; k++)
          {
            const spr_offset *o = &st->offsets[k];
            plane_of[k] = -1;
            if (o->b > 0 || (o->b == 0 && o->a > 0))
              {
                if (h < nh)
                  pc[h] = make_int2 (o->first, o->count);
                plane_of[k] = h++;
              }
          }
        if (h != nh)
          hs = fr_error_set (err, FR_E_INPUT, "SPR stencils are not symmetric");
        for (int k = 0; k < noff && hs == FR_OK; k++)
          {
            const spr_offset *o = &st->offsets[k];
            SprGOff *q = &go[k];
            q->sdelta = o->b * sw + o->a;
            q->ndelta = o->b * nx + o->a;
            q->first = o->first;
            q->count = o->count;
            if (plane_of[k] >= 0)
              {
                q->plane = plane_of[k];
                q->shift = 0;
              }
            else
              {
                int m = -1;
                for (int j = 0; j < noff; j++)
                  if (st->offsets[j].a == -o->a && st->offsets[j].b == -o->b)
                    m = j;
                if (m < 0 || plane_of[m] < 0)
                  hs = fr_error_set (err, FR_E_INPUT, "SPR stencils are not symmetric");
                else
                  {
                    q->plane = plane_of[m];
                    q->shift = o->b * px + o->a;
                  }
              }
          }
        for (size_t i = 0; i < pb->nsrc; i++)
          {
            const int ix = (int) (pb->sources[i] % g->nx), iz = (int) (pb->sources[i] / g->nx);
            sp[i] = (long long) (iz + rz) * px + ix + rx;
            stile[i] = (iz / TZ) * ntx + ix / TX;
          }
      }
    fr_status up = hs;
    if (up == FR_OK)
      {
        cudaError_t e1 = cudaSuccess;
        if (st->ncells > 0)
          {
            if (e1 == cudaSuccess)
              e1 = dev_alloc (&c->cells_s, (size_t) st->ncells);
            if (e1 == cudaSuccess)
              e1 = dev_alloc (&c->cells_g, (size_t) st->ncells);
            if (e1 == cudaSuccess)
              e1 = cudaMemcpyAsync (c->cells_s, cs, st->ncells * sizeof (int2),
                                    cudaMemcpyHostToDevice, s);
            if (e1 == cudaSuccess)
              e1 = cudaMemcpyAsync (c->cells_g, cg_, st->ncells * sizeof (int2),
                                    cudaMemcpyHostToDevice, s);
          }
        if (e1 == cudaSuccess)
          e1 = dev_alloc (&c->pcell, (size_t) nh + 1);
        if (e1 == cudaSuccess && nh > 0)
          e1 = cudaMemcpyAsync (c->pcell, pc, nh * sizeof (int2), cudaMemcpyHostToDevice, s);
        if (e1 == cudaSuccess)
          e1 = dev_alloc (&c->goff, (size_t) noff);
        if (e1 == cudaSuccess)
          e1 = cudaMemcpyAsync (c->goff, go, noff * sizeof (SprGOff), cudaMemcpyHostToDevice, s);
        if (e1 == cudaSuccess)
          e1 = cudaMemcpyAsync (c->src_p, sp, pb->nsrc * sizeof (long long),
                                cudaMemcpyHostToDevice, s);
        if (e1 == cudaSuccess)
          e1 = cudaMemcpyAsync (c->src_t, stile, pb->nsrc * sizeof (int),
                                cudaMemcpyHostToDevice, s);
        /* Pageable sources: wait before the host buffers are freed. */
        if (e1 == cudaSuccess)
          e1 = cudaStreamSynchronize (s);
        if (e1 != cudaSuccess)
          up = cuda_fail (err, e1, "uploading the stencils", __LINE__);
      }
    free (cs);
    free (cg_);
    free (pc);
    free (plane_of);
    free (sp);
    free (stile);
    /* go is still needed: it fills the launch parameters below. */
    SprLaunch *Lp = NULL;
    if (up == FR_OK)
      {
        Lp = (SprLaunch *) calloc (1, sizeof (SprLaunch));
        if (Lp == NULL)
          up = fr_error_set (err, FR_E_NOMEM, "out of host memory for the CUDA SPR set-up");
      }
    if (up != FR_OK)
      {
        free (go);
        free (Lp);
        return up;
      }
    SprLaunch &L = *Lp;
    L.T[0] = c->T[0];
    L.T[1] = c->T[1];
    L.S = c->S;
    L.table = use_table ? c->table : nullptr;
    L.plane = (long long) plane;
    L.pred = c->pred;
    L.chmask = c->chmask;
    L.chmin = c->chmin;
    L.key[0] = c->key[0];
    L.key[1] = c->key[1];
    {
      /* delta: delta_scale times the time the fastest wave takes to cross
       * the smaller tile side. */
      float vmax = 0.0f;
      for (size_t i = 0; i < n; i++)
        vmax = pb->velocity[i] > vmax ? pb->velocity[i] : vmax;
      const double scale = tune->delta_scale != 0.0 ? tune->delta_scale
                           : async ? SPR_ASYNC_DELTA_SCALE : SPR_DELTA_SCALE;
      const double side = fmin (TX * g->dx, TZ * g->dz);
      L.delta = scale > 0.0 && vmax > 0.0f ? (float) (scale * side / vmax) : kInf;
    }
    L.wback[0] = c->wback[0];
    L.wback[1] = c->wback[1];
    L.row_scan = tune->row_scan;
    L.active[0] = c->active[0];
    L.active[1] = c->active[1];
    L.state = c->state;
    L.cells = c->cells_s;
    L.goff = c->goff;
    L.nx = nx;
    L.nz = nz;
    L.px = px;
    L.rx = rx;
    L.rz = rz;
    L.sw = sw;
    L.sh = sh;
    L.ntx = ntx;
    L.ntz = ntz;
    L.ntiles = ntiles;
    L.chunk = chunk;
    L.drx = (rx + TX - 1) / TX;
    L.drz = (rz + TZ - 1) / TZ;
    L.noff = noff;
    L.ncells = st->ncells;
    L.inner_max = tune->inner_max > 0 ? tune->inner_max
                  : SPR_INNER_MAX_DEFAULT > 0 ? SPR_INNER_MAX_DEFAULT : TZ;
    L.compact = tune->schedule == SPR_CUDA_COMPACT;
    L.wide = map == SPR_CUDA_MAP_WIDE;
    L.async = async;
    L.q = c->queue;
    L.tflag = c->tflag;
    L.qslot = c->qslot;
    L.qcap = qcap;
    L.phase = c->phase;

    /* A launch takes no new tile after its budget (the host polls the
     * cancel flag between launches); batch sets it in microseconds. */
    L.budget_ns = tune->batch > 0 ? (unsigned long long) tune->batch * 1000ull
                  : (unsigned long long) (SPR_BATCH_TARGET_MS * 1e6);
    L.inplace = (tune->sweep != 0 ? tune->sweep : SPR_SWEEP_DEFAULT) == SPR_CUDA_SWEEP_INPLACE;
    L.use_table = use_table;
    for (int k = 0; k < SPR_NW_MAX; k++)
      {
        if (k < noff && v.nw > 0)
          {
            L.off_sdelta[k] = go[k].sdelta;
            L.off_ndelta[k] = go[k].ndelta;
            L.tab_shift[k] = go[k].shift;
            L.off_first[k] = (short) go[k].first;
            L.off_count[k] = (short) go[k].count;
            L.tab_plane[k] = (short) go[k].plane;
            L.off_len[k] = (float) st->offsets[k].length;
          }
        else
          {
            /* Padding offsets: weight +inf, read the node itself. */
            L.off_sdelta[k] = 0;
            L.off_ndelta[k] = 0;
            L.tab_shift[k] = 0;
            L.off_first[k] = 0;
            L.off_count[k] = 0;
            L.tab_plane[k] = 0;
            L.off_len[k] = 0.0f;
          }
      }
    free (go);

    /* Shared memory and the persistent grid (all blocks resident). */
    const int ncells_s = v.nw > 0 && (use_table || v.rfix > 0) ? 0 : st->ncells;
    const int ngoff_s = v.nw == 0 ? noff : 0;
    const int list_cap0 = (ntiles + sms - 1) / sms;
    auto smem_for = [&] (int list_cap) -> size_t {
      return (size_t) ncells_s * sizeof (int2) + (size_t) ngoff_s * sizeof (SprGOff)
             + (size_t) (list_cap + 64) * sizeof (int) + 3 * (size_t) sw * sh * sizeof (float);
    };
    const size_t smem = smem_for (list_cap0);
    if (smem > (size_t) smem_optin)
      {
        free (Lp);
        return fr_error_set (err, FR_E_UNSUPPORTED,
                             "radius %d,%d needs %zu bytes of shared memory per block; "
                             "the device has %d", rx, rz, smem, smem_optin);
      }
    fr_status ks = FR_OK;
    int per_sm = 0;
    const PassKernel kfn = async ? v.afn : v.fn;
    e = cudaFuncSetAttribute ((const void *) kfn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int) smem);
    if (e == cudaSuccess)
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, (const void *) kfn, NT, smem);
    if (e != cudaSuccess)
      ks = cuda_fail (err, e, "sizing the pass kernel", __LINE__);
    else if (per_sm < 1)
      ks = fr_error_set (err, FR_E_UNSUPPORTED, "the SPR pass kernel does not fit on the device");
    int G = per_sm * sms;
    if (G > ntiles)
      G = ntiles;
    L.list_cap = (ntiles + G - 1) / G;
    {
      const double rb = tune->raise_below != 0.0 ? tune->raise_below : SPR_ASYNC_RAISE_BELOW;
      L.raise_below = rb > 0.0 ? (int) ceil (rb * G) : 0;
    }
    if (ks == FR_OK)
      {
        e = dev_alloc (&c->block_edges, 2 * (size_t) G);
        if (e == cudaSuccess)
          e = cudaMemsetAsync (c->block_edges, 0, 2 * (size_t) G * sizeof (unsigned long long), s);
        if (e != cudaSuccess)
          ks = cuda_fail (err, e, "allocating counters", __LINE__);
      }
    L.block_edges = c->block_edges;
    if (ks != FR_OK)
      {
        free (Lp);
        return ks;
      }

    /* Upload the velocity, through pinned staging unless asked not to. */
    const size_t pin_bytes = n * (sizeof (double) + sizeof (int32_t));
    if (tune->pinned)
      {
        e = cudaHostAlloc (&c->pinned, pin_bytes, cudaHostAllocDefault);
        if (e != cudaSuccess)
          {
            cudaGetLastError ();   /* no pinned memory left: copy pageable */
            c->pinned = nullptr;
          }
      }
    fr_status rs = FR_OK;
#define RUN_TRY(call)                                                   \
    do                                                                  \
      {                                                                 \
        cudaError_t e_ = (call);                                        \
        if (e_ != cudaSuccess)                                          \
          {                                                             \
            rs = cuda_fail (err, e_, #call, __LINE__);                  \
            goto run_out;                                               \
          }                                                             \
      }                                                                 \
    while (0)
    {
      const int hg = grid_for (plane, sms);
      float *Tfinal = nullptr;
      double tpass0 = 0.0;
      int batch = tune->batch > 0 ? tune->batch : SPR_BATCH_FIRST;
      long long pass_limit = 64LL * ntiles + 4096;
      /* A safety net only: a solve activates each tile a few to a few dozen
       * times. */
      const unsigned long long act_limit = 4096ull * (unsigned long long) ntiles + 65536ull;
      if (c->pinned != nullptr)
        {
          memcpy (c->pinned, pb->velocity, n * sizeof (float));
          RUN_TRY (cudaMemcpyAsync (c->vel, c->pinned, n * sizeof (float),
                                    cudaMemcpyHostToDevice, s));
        }
      else
        RUN_TRY (cudaMemcpyAsync (c->vel, pb->velocity, n * sizeof (float),
                                  cudaMemcpyHostToDevice, s));
      RUN_TRY (cudaEventRecord (c->ev[0], s));
      if (async)
        {
          /* Everything the queue starts from, in one launch. */
          k_init_async<<<hg, SPR_HELPER_BLOCK, 0, s>>> (c->vel, c->S, c->T[0], c->pred, c->key[0],
                                                        c->tflag, c->qslot, c->queue, nx, nz, px,
                                                        pz, rx, rz, ntiles, qcap);
          RUN_TRY (cudaGetLastError ());
        }
      else
        {
          k_slowness<<<hg, SPR_HELPER_BLOCK, 0, s>>> (c->vel, c->S, nx, nz, px, pz, rx, rz);
          RUN_TRY (cudaGetLastError ());
          for (float *Tb : c->T)
            {
              k_fill<<<hg, SPR_HELPER_BLOCK, 0, s>>> (Tb, plane, kInf);
              RUN_TRY (cudaGetLastError ());
            }
          RUN_TRY (cudaMemsetAsync (c->pred, 0xff, n * sizeof (int32_t), s));   /* -1 */
          for (float *kb : c->key)
            {
              k_fill<<<grid_for (ntiles, sms), SPR_HELPER_BLOCK, 0, s>>> (kb, (size_t) ntiles,
                                                                           kInf);
              RUN_TRY (cudaGetLastError ());
            }
          RUN_TRY (cudaMemsetAsync (c->chmask, 0, (size_t) ntiles * sizeof (uint16_t), s));
          RUN_TRY (cudaMemsetAsync (c->wback[0], 0, (size_t) ntiles, s));
          RUN_TRY (cudaMemsetAsync (c->wback[1], 0, (size_t) ntiles, s));
          RUN_TRY (cudaMemsetAsync (c->active[0], 0, map_bytes, s));
          RUN_TRY (cudaMemsetAsync (c->active[1], 0, map_bytes, s));
        }
      k_sources<<<(int) ((pb->nsrc + 127) / 128), 128, 0, s>>> (c->src_p, c->src_t,
                                                                (int) pb->nsrc, c->T[0],
                                                                c->T[1], c->active[0],
                                                                c->key[0], ntx, ntz, L.drx,
                                                                L.drz);
      RUN_TRY (cudaGetLastError ());
      if (use_table)
        {
          k_table<<<hg, SPR_HELPER_BLOCK, 0, s>>> (c->S, c->table, c->cells_g, c->pcell, nh, nx,
                                                   nz, px, pz, rx, rz);
          RUN_TRY (cudaGetLastError ());
        }
      RUN_TRY (cudaEventRecord (c->ev[1], s));
      if (rep != NULL)
        rep->setup_ms = wall_ms () - w0;

      /* The passes, a batch per launch; or the asynchronous kernel, a time
       * budget per launch. */
      int pass = 0;
      int launches = 0;
      unsigned long long acts_before = 0;   /* asynchronous: progress at the last launch */
      for (;;)
        {
          if (fr_cancel_raised (prm->cancel))
            {
              rs = fr_error_set (err, FR_E_CANCELLED, "the solve was cancelled");
              goto run_out;
            }
          L.pass0 = pass;
          L.max_passes = batch;
          void *args[] = { &L };
          const double tb = wall_ms ();
          RUN_TRY (cudaLaunchCooperativeKernel ((const void *) kfn, dim3 (G), dim3 (TX, TZ),
                                                args, smem, s));
          RUN_TRY (cudaGetLastError ());
          if (async)
            RUN_TRY (cudaMemcpyAsync (c->h_queue, c->queue, sizeof (SprQueue),
                                      cudaMemcpyDeviceToHost, s));
          else
            RUN_TRY (cudaMemcpyAsync (c->h_state, c->state, sizeof (SprState),
                                      cudaMemcpyDeviceToHost, s));
          RUN_TRY (cudaStreamSynchronize (s));
          launches++;
          const double el = wall_ms () - tb;
          if (async)
            {
              /* Buckets stand for passes in the report. */
              pass = c->h_queue->buckets;
              if (c->h_queue->done)
                break;
              const unsigned long long progress = c->h_queue->acts + (unsigned) pass;
              if (progress == acts_before || c->h_queue->acts > act_limit)
                {
                  rs = fr_error_set (err, FR_E_DEVICE, "the CUDA SPR queue did not converge "
                                     "after %llu tile activations", c->h_queue->acts);
                  goto run_out;
                }
              acts_before = progress;   /* activations and buckets */
              continue;
            }
          pass = c->h_state->pass;
          if (c->h_state->converged)
            break;
          if (pass > pass_limit)
            {
              rs = fr_error_set (err, FR_E_DEVICE, "the CUDA SPR passes did not converge "
                                 "after %d passes", pass);
              goto run_out;
            }
          if (tune->batch <= 0)
            {
              double scale = el > 0.0 ? SPR_BATCH_TARGET_MS / el : 4.0;
              if (scale > 4.0)
                scale = 4.0;
              batch = (int) (batch * scale);
              if (batch < SPR_BATCH_MIN)
                batch = SPR_BATCH_MIN;
              if (batch > SPR_BATCH_MAX)
                batch = SPR_BATCH_MAX;
            }
        }
      RUN_TRY (cudaEventRecord (c->ev[2], s));
      Tfinal = async ? c->T[0] : c->T[pass & 1];
      /* The result owns the float copy from here on (fr_spr_result_clear
       * frees it); spr_cuda_solve_ex drops it again if the solve fails. */
      if (prm->keep_device_time)
        {
          float *dt = nullptr;
          RUN_TRY (dev_alloc (&dt, n));
          res->device_time = dt;
        }
      k_unpad<<<grid_for (n, sms), SPR_HELPER_BLOCK, 0, s>>> (Tfinal, c->tout,
                                                             (float *) res->device_time,
                                                             nx, nz, px, rx, rz);
      RUN_TRY (cudaGetLastError ());
      RUN_TRY (cudaEventRecord (c->ev[3], s));

      /* Copies back: one copy each of T and pred. */
      tpass0 = wall_ms ();
      if (c->pinned != nullptr)
        {
          double *ht = (double *) c->pinned;
          int32_t *hp = (int32_t *) (ht + n);
          RUN_TRY (cudaMemcpyAsync (ht, c->tout, n * sizeof (double), cudaMemcpyDeviceToHost, s));
          RUN_TRY (cudaMemcpyAsync (hp, c->pred, n * sizeof (int32_t), cudaMemcpyDeviceToHost,
                                    s));
          RUN_TRY (cudaStreamSynchronize (s));
          memcpy (res->time, ht, n * sizeof (double));
          memcpy (res->pred, hp, n * sizeof (int32_t));
        }
      else
        {
          RUN_TRY (cudaMemcpyAsync (res->time, c->tout, n * sizeof (double),
                                    cudaMemcpyDeviceToHost, s));
          RUN_TRY (cudaMemcpyAsync (res->pred, c->pred, n * sizeof (int32_t),
                                    cudaMemcpyDeviceToHost, s));
          RUN_TRY (cudaStreamSynchronize (s));
        }
      {
        unsigned long long *be = (unsigned long long *) malloc (2 * (size_t) G * sizeof *be);
        unsigned long long total_edges = 0, total_acts = 0;
        if (be == NULL)
          {
            rs = fr_error_set (err, FR_E_NOMEM, "out of host memory");
            goto run_out;
          }
        e = cudaMemcpy (be, c->block_edges, 2 * (size_t) G * sizeof *be, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess)
          {
            free (be);
            rs = cuda_fail (err, e, "reading the edge counters", __LINE__);
            goto run_out;
          }
        for (int i = 0; i < G; i++)
          {
            total_edges += be[2 * i];
            total_acts += be[2 * i + 1];
          }
        free (be);
        res->edges_relaxed = total_edges;
        if (rep != NULL)
          rep->activations = (long) total_acts;
      }
      res->iterations = pass;
      if (rep != NULL)
        {
          float ms = 0.0f;
          rep->download_ms = wall_ms () - tpass0;
          rep->passes = pass;
          rep->raises = async ? c->h_queue->raises : 0;
          rep->launches = launches;
          rep->nw = v.nw;
          rep->tile_x = TX;
          rep->tile_z = TZ;
          rep->blocks = G;
          rep->table = use_table;
          rep->map = map;
          if (cudaEventElapsedTime (&ms, c->ev[0], c->ev[3]) == cudaSuccess)
            rep->device_ms = ms;
          if (cudaEventElapsedTime (&ms, c->ev[0], c->ev[1]) == cudaSuccess)
            rep->weights_ms = use_table ? ms : 0.0;
          if (cudaEventElapsedTime (&ms, c->ev[1], c->ev[2]) == cudaSuccess)
            rep->passes_ms = ms;
          unsigned long long cyc[SPR_CUDA_PHASES];
          int khz = 0;
          if (c->phase != nullptr
              && cudaMemcpy (cyc, c->phase, sizeof cyc, cudaMemcpyDeviceToHost) == cudaSuccess
              && cudaDeviceGetAttribute (&khz, cudaDevAttrClockRate, dev) == cudaSuccess
              && khz > 0)
            for (int k = 0; k < SPR_CUDA_PHASES; k++)
              rep->phase_ms[k] = (double) cyc[k] / khz / G;
          cudaGetLastError ();
        }
    }
  run_out:
#undef RUN_TRY
    free (Lp);
    if (rep != NULL)
      rep->total_ms = wall_ms () - w0;
    return rs;
  }
}

}  // namespace

extern "C" void
spr_cuda_tune_init (spr_cuda_tune *t)
{
  memset (t, 0, sizeof *t);
  t->schedule = SPR_CUDA_COMPACT;
}

extern "C" fr_status
spr_cuda_solve_ex (const spr_problem *pb, const spr_cuda_tune *tune, fr_spr_result *res,
                   spr_cuda_report *rep, fr_error *err)
{
  spr_cuda_tune defaults;
  Ctx c;

  if (tune == NULL)
    {
      spr_cuda_tune_init (&defaults);
      tune = &defaults;
    }
  if (rep != NULL)
    memset (rep, 0, sizeof *rep);
  fr_status st = solve (&c, pb, tune, res, rep, err);
  ctx_free (&c);
  if (st != FR_OK && res->device_time != nullptr)
    {
      /* auto may fall back to the CPU with this same result. */
      cudaFree (res->device_time);
      res->device_time = nullptr;
      cudaGetLastError ();
    }
  return st;
}

extern "C" void
fr_spr_device_free (void *device_ptr)
{
  fr_device_free (device_ptr);
}

extern "C" fr_status
spr_solve_cuda (const spr_problem *pb, fr_spr_result *res, fr_error *err)
{
  return spr_cuda_solve_ex (pb, NULL, res, NULL, err);
}
