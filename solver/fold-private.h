/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internals shared by the fold solver's files:
 *   fold.c        checks, dispatch, result
 *   fold-init.c   start values (point sources, horizon, boundary grid)
 *   fold-blocks.c the blocked layout of subdomains with ghost nodes
 *   fold-pmm.c    local solvers (stencils) and PMM sweeps, per precision
 *   fold-sched.c  LAS and SOLAS schedules, OpenMP, compute locks
 *   fold-ray.c    rays traced back along the characteristics
 *
 * Local solver (every update is a "Fermat" update, Hopf–Lax in the
 * vocabulary of optimal control): for constant F and ψ a point source at y
 * reaches x after τ(x − y) with
 *     τ(d) = (−ψ·d + sqrt((ψ·d)² + c|d|²)) / c = |d|² / (ψ·d + sqrt((ψ·d)² + c|d|²)),
 * c = F² − |ψ|² > 0 (the second form never divides by c).  A node takes the
 * least T(y) + τ(x − y) over the points y of its stencil's base, T linear
 * between base nodes.  The minimiser is a vertex, a point inside an edge or
 * a point inside a triangle; an edge or triangle candidate is accepted only
 * when it lies strictly inside, i.e. when the characteristic F·n + ψ enters
 * through the base ("conditional upwind").  Since T(y) >= min base T and
 * τ >= distance / (F + |ψ|), a whole stencil is skipped when that bound
 * cannot lower the node. */
#pragma once

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fr-fold.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The local solver's arithmetic is shared by the CPU (C) and the GPU (CUDA
 * C++): marked FOLD_HD, compiled for both, so that both back ends make the
 * same updates (fold-cuda.cu is built without FMA contraction). */
#ifdef __CUDACC__
#define FOLD_HD __host__ __device__
#else
#define FOLD_HD
#endif

/* ------------------------------------------------------------- problem */

/* A start value: node idx (x fastest) starts at t; frozen: a boundary-grid
 * value, which the solve never changes. */
typedef struct fold_start_node {
  size_t idx;
  double t;
  bool frozen;
} fold_start_node;

/* The start values of a solve, one entry per started node, in index order.
 * A list and not a grid: sources and horizons start a small ball or a thin
 * band, and a grid of +inf elsewhere cost more than the GPU's whole 2D
 * solve (its first touch, then its transfer; RESULTS.md, tenth round). */
typedef struct fold_starts {
  fold_start_node *node;
  size_t n;
  bool any_frozen;
} fold_starts;

/* One solve, as fold.c hands it to the back ends: inputs checked. */
typedef struct fold_problem {
  const fr_grid *grid;
  const float *speed;         /* nx·ny·nz, >= 0; 0 = obstacle */
  double psi[3];              /* y = 0 in 2D */
  fold_starts start;          /* start values; +inf elsewhere */
  fr_fold_method method;      /* LAS or SOLAS */
  int block;
  int threads;
  bool double_precision;
  const fr_cancel *cancel;
} fold_problem;

/* The source radius actually used (see fr_fold_params.source_radius). */
double fold_source_radius (const fr_grid *g, double requested);

/* The start values from start, into *out (fold_starts_free).  Checks
 * positions (inside the grid, not in an obstacle) and the horizon and
 * boundary values. */
fr_status fold_init_start (const fr_grid *g, const float *speed, const double psi[3],
                           const fr_fold_start *start, double radius, fold_starts *out,
                           fr_error *err);
void fold_starts_free (fold_starts *s);

/* The start values as grids of count nodes: t0 (+inf where free) and, when
 * not NULL, frozen (1 where fixed). */
void fold_starts_to_grids (const fold_starts *s, size_t count, double *t0, uint8_t *frozen);

/* 1 in frozen where a start value is fixed (the rest left as it is). */
void fold_starts_mark_frozen (const fold_starts *s, uint8_t *frozen);

/* Exact constant-parameter time from a polyline (2D) at point x: the least
 * τ(x − y) over the points y of its segments, with speed F. */
double fold_polyline_time (const double *xz, size_t n, double x, double z, double F,
                           const double psi[3], double *yx, double *yz);

/* -------------------------------------------------------------- layout */

#define FOLD_BLOCK_MAX 64     /* largest subdomain edge b */

typedef struct fold_layout {
  int ndim, b;
  size_t n[3];                /* grid nodes along x, y, z (n[1] = 1 in 2D) */
  size_t nb[3];               /* subdomains along x, y, z (nb[1] = 1 in 2D) */
  size_t nblocks;
  int p[3];                   /* padded subdomain size: b + 2 (y: 1 in 2D) */
  int g[3];                   /* ghost width per axis: 1 (y: 0 in 2D) */
  ptrdiff_t stride[3];        /* 1, p[0], p[0]·p[1] */
  ptrdiff_t inner0;           /* offset of inner node (0, 0, 0) in a subdomain */
  size_t bsize;               /* p[0]·p[1]·p[2] values per subdomain */
} fold_layout;

void fold_layout_init (fold_layout *L, const fr_grid *g, int b);

/* Subdomain index of block coordinates, or -1 outside. */
static inline ptrdiff_t
fold_block_id (const fold_layout *L, ptrdiff_t bx, ptrdiff_t by, ptrdiff_t bz)
{
  if (bx < 0 || by < 0 || bz < 0 || (size_t) bx >= L->nb[0] || (size_t) by >= L->nb[1]
      || (size_t) bz >= L->nb[2])
    return -1;
  return ((ptrdiff_t) bz * (ptrdiff_t) L->nb[1] + by) * (ptrdiff_t) L->nb[0] + bx;
}

/* The directions to a subdomain's neighbours (8 in 2D, 26 in 3D), faces
 * first, then edges, then corners: the order in which ghosts are shared.
 * Returns their count. */
int fold_neighbour_dirs (int ndim, int dirs[26][3]);

/* Speeds in the blocked layout: F > 0 is solved, 0 an obstacle, -1 a node
 * never updated (frozen start value, or padding past the grid's end).
 * Ghost entries are unused.  Also reports which subdomains hold a node to
 * solve (solvable[k] = 1). */
float *fold_blocks_speed (const fold_layout *L, const float *speed, const uint8_t *frozen,
                          uint8_t *solvable, int threads);

/* ------------------------------------------------------------- stencils */

typedef struct fold_edge {
  int n1, n2;                     /* base nodes */
  double m0, m1, ee, de, dd0;     /* see fold_edge_lambda */
} fold_edge;

/* An edge's geometry rounded to float (single precision), and the two
 * parts of its D for the device: αγ − β² = c·d1 + c²·d2 with
 * d1 = |m1 d0 − m0 e|² and d2 = |e × d0|², both >= 0 (fold_edge_consts_dev_f). */
typedef struct fold_edge_f {
  float m0, m1, ee, de, dd0;
  float d1, d2;
} fold_edge_f;

typedef struct fold_tri {
  double M[3][3];                 /* (E Eᵀ)⁻¹, E's rows e_i = x_i − x0 */
  double M1[3];                   /* M·1 */
  double bb;                      /* 1ᵀ M 1 = |E⁻¹ 1|² */
  double phi[3];                  /* E⁻ᵀ ψ */
  double r;                       /* ψ·E⁻¹ 1 */
} fold_tri;

/* A triangle's geometry rounded to float (single precision 3D). */
typedef struct fold_tri_f {
  float M[3][3], M1[3], bb, phi[3], r;
} fold_tri_f;

/* A sub-sweep's own frame (3D), in float: spacing, its reciprocal and ψ
 * along the axis (towards the apex), u and v, and h_axis / max(h_u, h_v),
 * for the supporting-plane bound of fold-local.h (fold_support_plane). */
typedef struct fold_frame {
  float h[3], rh[3], psi[3], tilt;
} fold_frame;

/* The 3D pyramid's base, the same in every sub-sweep.  Base node
 * n = (du + 1) + 3 (dv + 1) for du, dv in {-1, 0, 1}: 4 is the centre,
 * 1, 3, 5, 7 the sides and 0, 2, 6, 8 the corners.  Triangle q (0..7) is
 * the centre, side 2 (q / 2) + 1 and a corner next to that side.  Edges
 * 0..3 join the centre to the sides, 4..7 the centre to the corners 0, 2,
 * 6, 8, and edge 8 + q is triangle q's outer side.  Functions of q (nibble
 * tables) rather than arrays: in a loop the GPU unrolls, every index is
 * then a constant and a thread's base values stay in registers. */
static inline FOLD_HD int
fold_tri_node (int q, int i)
{
  return i == 0 ? 4 : i == 1 ? 2 * (q >> 1) + 1 : (int) ((0x86826020u >> (4 * q)) & 15u);
}

static inline FOLD_HD int
fold_edge_node (int q, int i)
{
  if (i == 0)
    return q < 8 ? 4 : 2 * ((q - 8) >> 1) + 1;
  return (int) ((UINT64_C (0x8682602086207531) >> (4 * q)) & 15u);
}

/* Triangle q's and edge q's base nodes, as bit sets. */
static inline FOLD_HD uint32_t
fold_tri_nodes (int q)
{
  return (1u << fold_tri_node (q, 0)) | (1u << fold_tri_node (q, 1)) | (1u << fold_tri_node (q, 2));
}

static inline FOLD_HD uint32_t
fold_edge_nodes (int q)
{
  return (1u << fold_edge_node (q, 0)) | (1u << fold_edge_node (q, 1));
}

/* The edges that are triangle q's sides, as a bit set. */
static inline FOLD_HD uint32_t
fold_tri_sides (int q)
{
  const int corner = (int) ((0x32312010u >> (4 * q)) & 15u);   /* its centre–corner edge − 4 */
  return (1u << (q >> 1)) | (1u << (4 + corner)) | (1u << (8 + q));
}

/* Loops over a stencil's nodes, edges and triangles: unrolled on the GPU
 * (see above). */
#ifdef __CUDA_ARCH__
#define FOLD_UNROLL _Pragma ("unroll")
#else
#define FOLD_UNROLL
#endif

/* One PMM sub-sweep: planes along axis in direction sign, each node
 * updated from the 3 (2D) or 3×3 (3D) nodes of the previous plane. */
typedef struct fold_subsweep {
  int axis, sign, u, v;           /* v = -1 in 2D */
  int nbase;
  ptrdiff_t off[9];               /* base node offsets from the apex */
  double m[9], dd[9];             /* ψ·d and |d|², d = apex − base node */
  double h;                       /* spacing along axis: distance to the base plane */
  float mf[9], ddf[9], hf;        /* m, dd and h rounded to float (the GPU's single precision) */
  int ne, nt;
  fold_edge e[16];
  fold_tri t[8];
  fold_edge_f ef[16];             /* e and t rounded to float, for single precision */
  fold_tri_f tf[8];
  fold_frame fr;
} fold_subsweep;

typedef struct fold_stencil {
  int ndim, nsub;
  fold_subsweep sub[6];
  double psi2, psin;              /* |ψ|², |ψ| */
} fold_stencil;

void fold_stencil_build (fold_stencil *st, const fold_layout *L, const fr_grid *g,
                         const double psi[3]);

/* Whether node q is free (not an obstacle), for the diagonal walls of
 * fold-local.h. */
static inline FOLD_HD bool
fold_free (const float *F, ptrdiff_t q)
{
  return F[q] != 0.0f;
}

/* Whether a subdomain's padded speeds hold an obstacle (F = 0): only then
 * do the sweeps look for diagonal walls. */
static inline FOLD_HD bool
fold_has_obstacle (const float *F, size_t count)
{
  for (size_t q = 0; q < count; q++)
    if (F[q] == 0.0f)
      return true;
  return false;
}

/* SOLAS's threshold for a new schedule: Av + 0.4·max(0, Av − oldAv), Av
 * the mean SD of the active subdomains and oldAv the last schedule's (the
 * first time, Av itself); *old_av (NaN at first) becomes Av.  The CPU's
 * schedules and both of the GPU's take it from here. */
static inline FOLD_HD double
fold_solas_threshold (double av, double *old_av)
{
  const double old = isnan (*old_av) ? av : *old_av;
  *old_av = av;
  return av + 0.4 * fmax (0.0, av - old);
}

/* An edge's constants for speed constant c = F² − |ψ|² (see
 * fold_edge_lambda): α, β and D = max(0, αγ − β²). */
static inline FOLD_HD void
fold_edge_consts (const fold_edge *e, double c, double *alpha, double *beta, double *D)
{
  double a = e->m1 * e->m1 + c * e->ee;
  double bt = e->m0 * e->m1 + c * e->de;
  double gamma = e->m0 * e->m0 + c * e->dd0;
  double d = a * gamma - bt * bt;
  *alpha = a;
  *beta = bt;
  *D = d < 0.0 ? 0.0 : d;
}

/* An edge's speed constants where the GPU needs them (fold_edge_cand3d):
 * in double as fold_edge_consts; in single precision in float, from the
 * edge's float geometry, with D from its two nonnegative parts so that no
 * difference cancels (c > 0 for a well-posed ψ).  In double on the GPU,
 * these operations cost 4-9 % of a 3D solve's device time (RESULTS.md,
 * eighth round). */
static inline FOLD_HD void
fold_edge_consts_dev (const fold_subsweep *ss, int q, double c, double *alpha, double *beta,
                      double *D)
{
  fold_edge_consts (&ss->e[q], c, alpha, beta, D);
}

static inline FOLD_HD void
fold_edge_consts_dev_f (const fold_subsweep *ss, int q, float c, float *alpha, float *beta,
                        float *D)
{
  const fold_edge_f *e = &ss->ef[q];
  const float d = c * (e->d1 + c * e->d2);
  *alpha = e->m1 * e->m1 + c * e->ee;
  *beta = e->m0 * e->m1 + c * e->de;
  *D = d < 0.0f ? 0.0f : d;
}

/* The gradient p of fold-local.h's supporting plane (fold_support_3d)
 * for g = (g_a, g_u, g_v), the gradient the base and the apex suggest, in
 * the sub-sweep's frame: p·d for d = (h_a, −du h_u, −dv h_v) is returned
 * as A − du U − dv V (out = A, U, V).  v = F g + |g| ψ runs along g's
 * characteristic; e = (|v_a| + tilt·|v_lat|, v_u, v_v) is v turned
 * towards the apex; p is the gradient on the sheet F|p| + ψ·p = 1 whose
 * characteristic F p/|p| + ψ runs along e:
 *   p = (a e − b ψ) / (S a),  x = e·ψ,  S = sqrt(x² + c|e|²),
 *   a = S + x, b = |e|²  (x >= 0);   a = c, b = S − x  (x < 0, no cancellation),
 * shrunk by 2⁻¹² so that it stays inside the set through the rounding.
 * In float in both precisions: p only has to lie inside the set, and
 * float's error is far inside that margin (the times w are summed in the
 * solve's precision).  g = 0 gives p = 0. */
static inline FOLD_HD void
fold_support_plane (const fold_frame *fr, float F, float c, float ga, float gu, float gv,
                    float out[3])
{
  const float gl = sqrtf (ga * ga + gu * gu + gv * gv);
  const float va = F * ga + gl * fr->psi[0], vu = F * gu + gl * fr->psi[1];
  const float vv = F * gv + gl * fr->psi[2];
  const float ea = (va < 0.0f ? -va : va) + fr->tilt * sqrtf (vu * vu + vv * vv);
  const float L2 = ea * ea + vu * vu + vv * vv;
  const float x = ea * fr->psi[0] + vu * fr->psi[1] + vv * fr->psi[2];
  const float S = sqrtf (x * x + c * L2);
  const float a = x >= 0.0f ? S + x : c, b = x >= 0.0f ? L2 : S - x;
  const float den = S * a;
  const float s = den > 0.0f ? 0.999755859375f / den : 0.0f;
  out[0] = s * (a * ea - b * fr->psi[0]) * fr->h[0];
  out[1] = s * (a * vu - b * fr->psi[1]) * fr->h[1];
  out[2] = s * (a * vv - b * fr->psi[2]) * fr->h[2];
}

/* The per-node arithmetic, in double and in float (fold-local.h). */
#define FL_REAL double
#define FL_SQRT sqrt
#define FL_EDGE fold_edge
#define FL_TRI fold_tri
#define FL_EDGES e
#define FL_TRIS t
#define FL_FN(name) name
#define FL_SINGLE 0
#include "fold-local.h"
#define FL_REAL float
#define FL_SQRT sqrtf
#define FL_EDGE fold_edge_f
#define FL_TRI fold_tri_f
#define FL_EDGES ef
#define FL_TRIS tf
#define FL_FN(name) name##_f
#define FL_SINGLE 1
#include "fold-local.h"

/* Least T over an edge: T1 at x1, T1 + dT at x2, d0 = x0 − x1, e = x2 − x1,
 * m0 = ψ·d0, m1 = ψ·e, ee = |e|², de = d0·e, and the two nonnegative parts
 * of D = αγ − β² = c·d1 + c²·d2: d1 = |m1 d0 − m0 e|², d2 = |e × d0|².  The
 * caller forms them from its vectors: αγ − β² taken as a difference cancels
 * when x0 lies near the edge's line (a node beside a horizon), and λ then
 * errs by sqrt(ε).  Minimises f(λ) = T1 + λ dT + τ(d0 − λ e), convex in λ;
 * gives λ, or NAN unless the minimiser lies strictly inside (0, 1); the
 * caller takes τ at d0 − λe from the vector itself, for the same reason.
 * Derivation: with Q(λ) = α λ² − 2 β λ + γ the squared root's argument
 * times c, f'(λ) = 0 reads (αλ − β)/sqrt(Q) = −κ, κ = c dT + m1, solved in
 * closed form. */
static inline double
fold_edge_lambda (double dT, double m0, double m1, double ee, double de, double d1,
                     double d2, double c)
{
  double alpha = m1 * m1 + c * ee;
  double beta = m0 * m1 + c * de;
  double kappa = c * dT + m1;
  double den = alpha - kappa * kappa;

  if (!(den > 0.0))
    return NAN;
  double u = -kappa * sqrt (c * (d1 + c * d2) / den);
  double lambda = (beta + u) / alpha;
  return lambda > 0.0 && lambda < 1.0 ? lambda : NAN;
}

/* Per-precision kernels (fold-pmm.c): T points at one subdomain's values. */
typedef struct fold_ops {
  size_t esize;
  /* One PMM sweep of a subdomain; true when an inner node was lowered, then
   * *minchg is the least new value.  stamp (same layout) holds the
   * sub-sweep count (*counter, advanced by the sweep) at which each value
   * last changed: a node whose base nodes did not change since it was last
   * evaluated in a direction is skipped, which gives the same result. */
  bool (*sweep) (const fold_stencil *st, const fold_layout *L, void *T, const float *F,
                 uint32_t *stamp, uint32_t *counter, double *minchg);
  /* Lowers dst's ghost region facing direction dir (dst = src + dir) from
   * src's inner nodes, stamping lowered ghosts with mark; true when a ghost
   * was lowered, *minlow the least. */
  bool (*push) (const fold_layout *L, const void *src, void *dst, uint32_t *dst_stamp,
                uint32_t mark, const int dir[3], double *minlow);
  /* Flat grid values (+inf free) into every subdomain, ghosts included. */
  void (*scatter) (const fold_layout *L, const double *flat, void *T, int threads);
  /* Inner values back into a flat grid. */
  void (*gather) (const fold_layout *L, const void *T, double *flat, int threads);
} fold_ops;

const fold_ops *fold_ops_get (bool double_precision);

/* ---------------------------------------------------------- back ends */

typedef struct fold_stats {
  long iterations, schedules;
  uint64_t sweeps;
  size_t subdomains;
  int threads;
  long round_trips;           /* cuda: host waits for the device */
  double device_ms;           /* cuda: the solve on the device (events) */
  double setup_ms, results_ms;   /* cuda: host clock, see fr_fold_result */
} fold_stats;

/* Runs LAS or SOLAS and writes the converged times (nx·ny·nz) to out. */
fr_status fold_solve_cpu (const fold_problem *pb, double *out, fold_stats *stats,
                          fr_error *err);

/* Runs LAS or SOLAS on the GPU (fold-cuda.cu): FR_E_DEVICE when there is
 * no device, the grids do not fit or CUDA fails (the caller then runs the
 * CPU), FR_E_UNSUPPORTED in a build without CUDA.  With device_time, a 2D
 * solve also leaves T there as nx·nz floats (cudaMalloc'ed). */
fr_status fold_solve_cuda (const fold_problem *pb, double *out, fold_stats *stats,
                           void **device_time, fr_error *err);

/* The GPU's subdomain edge when the caller gives none, by measurement
 * (tests/bench/RESULTS.md). */
int fold_cuda_default_block (int ndim);

/* ---------------------------------------------------------- rays */

struct fr_fold_trace {
  fr_grid grid;
  float *speed;               /* nx·ny·nz, owned: the solve's constant grid or a copy */
  float speed_max;            /* its largest value: each ray's bound on its steps */
  double psi[3];
  double *sources;            /* nsrc·ndim */
  size_t nsrc;
  double radius;
  double *horizon;            /* nhorizon·2 */
  size_t nhorizon;
  uint8_t *frozen;            /* owned (the solve's), or NULL without a boundary grid */
};

void fold_trace_free (fr_fold_trace *tr);

#ifdef __cplusplus
}
#endif
