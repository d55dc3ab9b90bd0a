/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA fold back end against the CPU one:
 *   analytic    the CPU's analytic cases (test-fold-analytic.c: 2D and 3D,
 *               isotropic and anisotropic, Ex_A's 13 sources): the RMS error
 *               against the exact solution is no larger than the CPU's on
 *               the same grid, and falls under refinement at the same rate;
 *   match       node by node on Ex_B, Ex_C, Ex_D, the 3D fold case, a 3D
 *               grid whose sides are no multiple of any block, a speed
 *               gradient with ψ close to the least speed, and 2D cases
 *               (constant speed with ψa, layers with obstacles, a horizon
 *               polyline start, a boundary-grid start with negative values),
 *               single and double, LAS and SOLAS, default and fixed blocks;
 *   knobs       node by node again with every knob of fold-cuda-tune.h away
 *               from its default (graph off, other batch sizes, more rounds
 *               per activation, SOLAS's least schedule at its extremes);
 *   stats       what ran and its counters, auto's choice;
 *   cancel      a raised flag gives FR_E_CANCELLED;
 *   device-time keep_device_time leaves T on the device in 2D only.
 * Every case skips (TAP "# SKIP") when the build has no CUDA or no device
 * is present.
 *
 * Tolerance: the scheme is monotone and its discrete solution is the fixed
 * point of the local updates, independent of their order (LAS, SOLAS, block
 * size, thread count or device), so the two back ends differ only by the
 * rounding of the updates (the GPU's fused multiply-adds and its faster
 * float division and square root):
 * |T_cuda − T_cpu| <= REL · max(1, |T_cpu|) at every node, and +inf
 * exactly where the CPU has +inf. */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fold-models.h"
#include "foldray-config.h"
#include "fr-device.h"
#include "fr-fold.h"
#include "fr-spr.h"
#include "test-cuda-skip.h"
#include "test-fold-common.h"
#if FOLDRAY_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "fold-cuda-tune.h"
#endif

#define REL_SINGLE 2e-6    /* about 16 float ulps */
#define REL_DOUBLE 1e-12

/* ------------------------------------------------------------ problems */

/* One fold problem, owning its arrays (g_free). */
typedef struct problem {
  fr_grid g;
  float *speed;               /* NULL: speed_const */
  double speed_const;
  double psi[3];              /* y ignored in 2D */
  double src[13 * 3];         /* ndim coordinates per source */
  size_t nsrc;
  double *boundary;           /* or NULL */
  double *horizon;            /* 2D polyline (x, z), or NULL */
  size_t nhorizon;
} problem;

static void
problem_clear (problem *pb)
{
  g_free (pb->speed);
  g_free (pb->boundary);
  g_free (pb->horizon);
  memset (pb, 0, sizeof *pb);
}

static void
problem_params (const problem *pb, fr_fold_params *p)
{
  fr_fold_params_init (p);
  p->speed = pb->speed;
  p->speed_const = pb->speed_const > 0.0 ? pb->speed_const : 1.0;
  memcpy (p->psi_a, pb->psi, sizeof p->psi_a);
}

static fr_fold_start
problem_start (const problem *pb)
{
  fr_fold_start st = {
    .sources = pb->nsrc ? pb->src : NULL,
    .nsrc = pb->nsrc,
    .boundary = pb->boundary,
    .horizon = pb->horizon,
    .nhorizon = pb->nhorizon,
  };
  return st;
}

/* The paper's cases from data/fold/fold-models.h on n³ nodes. */
static void
make_paper (problem *pb, fold_model_id id, size_t n)
{
  fold_model m;

  g_assert_cmpint (fold_model_make (&m, id, n, g_malloc), ==, 0);
  pb->g = fr_grid_3d (n, n, n, m.d[0], m.d[1], m.d[2], 0, 0, 0);
  pb->speed = m.speed;
  pb->speed_const = m.speed_const;
  memcpy (pb->psi, m.psi, sizeof pb->psi);
  pb->boundary = m.boundary;
  pb->nsrc = (size_t) m.nsrc;
  for (int k = 0; k < m.nsrc; k++)
    memcpy (pb->src + 3 * k, m.src[k], sizeof m.src[k]);
}

/* The 37×41×29 grid (no multiple of 4, 8, 10 or 16) with unequal spacings
 * and smooth speeds 0.5–1.9, a new one at every node. */
static void
make_odd_grid_3d (problem *pb)
{
  pb->g = fr_grid_3d (37, 41, 29, 0.027, 0.025, 0.034, 0.1, -0.2, 0.0);
  const fr_grid *g = &pb->g;
  size_t n = fr_grid_count (g);

  pb->speed = g_new (float, n);
  for (size_t i = 0; i < n; i++)
    {
      size_t ix = i % g->nx, iy = (i / g->nx) % g->ny, iz = i / (g->nx * g->ny);
      double u = (double) ix / (double) (g->nx - 1), v = (double) iy / (double) (g->ny - 1);
      double w = (double) iz / (double) (g->nz - 1);
      pb->speed[i] = (float) (1.2 + 0.4 * sin (7.0 * u) * cos (5.0 * v) + 0.3 * cos (11.0 * w));
    }
}

/* The odd grid with a slab of obstacles with a hole and a closed obstacle
 * box whose inside stays unreached (+inf), ψ ≠ 0, two sources. */
static void
make_odd_3d (problem *pb)
{
  make_odd_grid_3d (pb);
  const fr_grid *g = &pb->g;
  size_t n = fr_grid_count (g);

  for (size_t i = 0; i < n; i++)
    {
      size_t ix = i % g->nx, iy = (i / g->nx) % g->ny, iz = i / (g->nx * g->ny);
      bool slab = iz >= 13 && iz <= 14 && !(ix >= 20 && ix <= 24 && iy >= 8 && iy <= 12);
      bool box = ix >= 4 && ix <= 10 && iy >= 25 && iy <= 33 && iz >= 18 && iz <= 25;
      bool box_wall = box && (ix == 4 || ix == 10 || iy == 25 || iy == 33 || iz == 18 || iz == 25);
      if (slab || box_wall)
        pb->speed[i] = 0.0f;
    }
  pb->psi[0] = 0.15, pb->psi[1] = -0.1, pb->psi[2] = 0.12;
  /* One source above the slab, off the nodes, one below it. */
  double s[2][3] = { { 0.3511, 0.5625, 0.1768 }, { 0.82, 0.31, 0.74 } };
  memcpy (pb->src, s, sizeof s);
  pb->nsrc = 2;
}

/* 3D: the odd grid's speed gradient, 0.5–1.9 (a new speed at every node),
 * without obstacles, and ψ of length 0.42, close to the least speed
 * (c = F² − |ψ|² down to 0.07): the GPU's single precision takes its speed
 * constants in float (fold-local.h, FL_SET_FLOAT) and must stay within
 * float rounding of the CPU's double ones where the equation is least well
 * conditioned. */
static void
make_strong_psi_3d (problem *pb)
{
  make_odd_grid_3d (pb);
  pb->psi[0] = 0.3, pb->psi[1] = -0.25, pb->psi[2] = 0.15;
  double s[3] = { 0.52, 0.49, 0.47 };
  memcpy (pb->src, s, sizeof s);
  pb->nsrc = 1;
}

/* 3D: varying speeds cut by a wall of obstacle nodes touching only at
 * corners (ix + iy + iz = 45) and one touching along edges (ix + iz = 52
 * beyond y = 20), sources below both: nothing past them may be reached,
 * on either back end; 43×39×35. */
static void
make_diagonal_3d (problem *pb)
{
  pb->g = fr_grid_3d (43, 39, 35, 0.025, 0.025, 0.025, 0, 0, 0);
  const fr_grid *g = &pb->g;
  size_t n = fr_grid_count (g);

  pb->speed = g_new (float, n);
  for (size_t i = 0; i < n; i++)
    {
      long ix = (long) (i % g->nx), iy = (long) ((i / g->nx) % g->ny);
      long iz = (long) (i / (g->nx * g->ny));
      float F = (float) (1.0 + 0.3 * sin (0.3 * (double) ix) * cos (0.2 * (double) iz));
      pb->speed[i] = ix + iy + iz == 45 || (iy > 20 && ix + iz == 52) ? 0.0f : F;
    }
  pb->psi[0] = 0.2, pb->psi[1] = 0.25, pb->psi[2] = -0.15;
  double s[2][3] = { { 0.2, 0.2, 0.15 }, { 0.05, 0.6, 0.1 } };
  memcpy (pb->src, s, sizeof s);
  pb->nsrc = 2;
}

/* Five wavy layers of speed 0.8–2.2 over a 2D grid, as a function of the
 * node's position relative to the grid's extent. */
static float
layer_speed (double u, double w)
{
  static const float layers[5] = { 1.0f, 1.6f, 0.8f, 2.2f, 1.2f };
  int k = (int) floor ((w + 0.08 * sin (6.0 * u)) * 5.0);
  return layers[CLAMP (k, 0, 4)];
}

/* 2D: constant speed 1.3, ψa = (0.4, −0.3), two sources; 203×157. */
static void
make_2d_const (problem *pb)
{
  pb->g = fr_grid_2d (203, 157, 0.01, 0.012, -0.5, 0.25);
  pb->speed_const = 1.3;
  pb->psi[0] = 0.4, pb->psi[2] = -0.3;
  double s[4] = { 0.27, 1.1, 1.3, 0.4 };
  memcpy (pb->src, s, sizeof s);
  pb->nsrc = 2;
}

/* 2D: layers, an obstacle bar with a gap and a closed obstacle ring whose
 * inside stays unreached, ψa = (0.25, 0.15); 256×192 (a multiple of 16 and
 * 32) or 229×171 (of neither). */
static void
make_2d_layers (problem *pb, size_t nx, size_t nz)
{
  pb->g = fr_grid_2d (nx, nz, 2.0 / (double) (nx - 1), 1.5 / (double) (nz - 1), 0, 0);
  const fr_grid *g = &pb->g;
  size_t n = fr_grid_count (g);

  pb->speed = g_new (float, n);
  for (size_t i = 0; i < n; i++)
    {
      double u = (double) (i % nx) / (double) (nx - 1), w = (double) (i / nx) / (double) (nz - 1);
      bool bar = w > 0.55 && w < 0.58 && u > 0.15 && !(u > 0.6 && u < 0.64);
      double r = hypot (u - 0.8, (w - 0.25) * 0.75);
      bool ring = r > 0.08 && r < 0.1;
      pb->speed[i] = bar || ring ? 0.0f : layer_speed (u, w);
    }
  pb->psi[0] = 0.25, pb->psi[2] = 0.15;
  pb->src[0] = 0.3, pb->src[1] = 0.2;
  pb->nsrc = 1;
}

/* 2D: the layered model cut by a wall of obstacle nodes that touch only at
 * corners (the staircase a slanted thin wall rasterises to), source below
 * it: nothing beyond may be reached, on either back end; 173×149. */
static void
make_2d_diagonal (problem *pb)
{
  const size_t nx = 173, nz = 149;

  make_2d_layers (pb, nx, nz);
  for (size_t i = 0; i < nx * nz; i++)
    {
      long ix = (long) (i % nx), iz = (long) (i / nx);
      pb->speed[i] = ix + iz == 120 ? 0.0f : (pb->speed[i] == 0.0f ? 1.0f : pb->speed[i]);
    }
  pb->psi[0] = -0.3, pb->psi[2] = 0.25;
  pb->src[0] = 0.4, pb->src[1] = 0.3;
  pb->nsrc = 1;
}

/* 2D: a wavy horizon polyline (it starts and ends outside the grid) in the
 * layered model, ψa = (0.3, −0.2); 190×161. */
static void
make_2d_horizon (problem *pb)
{
  const size_t nx = 190, nz = 161, np = 48;

  make_2d_layers (pb, nx, nz);
  for (size_t i = 0; i < nx * nz; i++)
    if (pb->speed[i] == 0.0f)
      pb->speed[i] = 1.0f;   /* the horizon may cross any node */
  pb->psi[0] = 0.3, pb->psi[2] = -0.2;
  pb->nsrc = 0;
  pb->horizon = g_new (double, 2 * np);
  pb->nhorizon = np;
  for (size_t k = 0; k < np; k++)
    {
      double x = -0.1 + 2.2 * (double) k / (double) (np - 1);
      pb->horizon[2 * k] = x;
      pb->horizon[2 * k + 1] = 0.7 + 0.2 * sin (3.0 * x) + 0.05 * cos (11.0 * x);
    }
}

/* 2D: a boundary grid fixes the left column to values between −0.3 and
 * 0.5 (negative ones included) and a short tilted row to −0.2..0.1, in
 * smooth heterogeneous speeds with an obstacle block, ψa = (−0.2, 0.1);
 * 160×128. */
static void
make_2d_boundary (problem *pb)
{
  const size_t nx = 160, nz = 128;

  pb->g = fr_grid_2d (nx, nz, 0.0125, 0.0125, 0, 0);
  size_t n = fr_grid_count (&pb->g);
  pb->speed = g_new (float, n);
  pb->boundary = g_new (double, n);
  for (size_t i = 0; i < n; i++)
    {
      size_t ix = i % nx, iz = i / nx;
      double u = (double) ix / (double) (nx - 1), w = (double) iz / (double) (nz - 1);
      bool block = ix >= 90 && ix <= 110 && iz >= 40 && iz <= 70;
      pb->speed[i] = block ? 0.0f : (float) (1.0 + 0.5 * sin (5.0 * u + 2.0 * w));
      pb->boundary[i] = NAN;
      if (ix == 0)
        pb->boundary[i] = 0.1 + 0.4 * sin (6.0 * w);
      else if (ix >= 40 && ix <= 80 && iz == 100 - (ix - 40) / 4)
        pb->boundary[i] = -0.2 + 0.3 * (double) (ix - 40) / 40.0;
    }
  pb->psi[0] = -0.2, pb->psi[2] = 0.1;
}

typedef enum model_kind {
  M_EX_B, M_EX_C, M_EX_D, M_FOLD3D, M_ODD_3D,
  M_2D_CONST, M_2D_LAYERS, M_2D_LAYERS_ODD, M_2D_HORIZON, M_2D_BOUNDARY, M_2D_DIAGONAL,
  M_DIAGONAL_3D, M_STRONG_PSI_3D,
} model_kind;

typedef struct match_case {
  const char *path;
  model_kind kind;
  size_t n;                   /* paper cases: nodes per axis */
} match_case;

static void
problem_make (problem *pb, const match_case *mc)
{
  memset (pb, 0, sizeof *pb);
  switch (mc->kind)
    {
    case M_EX_B: make_paper (pb, FOLD_EX_B, mc->n); break;
    case M_EX_C: make_paper (pb, FOLD_EX_C, mc->n); break;
    case M_EX_D: make_paper (pb, FOLD_EX_D, mc->n); break;
    case M_FOLD3D: make_paper (pb, FOLD_FOLD3D, mc->n); break;
    case M_ODD_3D: make_odd_3d (pb); break;
    case M_2D_CONST: make_2d_const (pb); break;
    case M_2D_LAYERS: make_2d_layers (pb, 256, 192); break;
    case M_2D_LAYERS_ODD: make_2d_layers (pb, 229, 171); break;
    case M_2D_HORIZON: make_2d_horizon (pb); break;
    case M_2D_BOUNDARY: make_2d_boundary (pb); break;
    case M_2D_DIAGONAL: make_2d_diagonal (pb); break;
    case M_DIAGONAL_3D: make_diagonal_3d (pb); break;
    case M_STRONG_PSI_3D: make_strong_psi_3d (pb); break;
    default: g_assert_not_reached ();
    }
}

/* -------------------------------------------------------------- solving */

/* What the CUDA back end must report whenever it ran: itself, what was
 * asked for, and counters that say work was done. */
static void
check_cuda_result (const fr_fold_result *res, const fr_fold_params *p)
{
  if (res->backend != FR_FOLD_CUDA)
    g_test_message ("the CUDA back end fell back to the CPU: %s", res->notice);
  g_assert_cmpstr (fr_fold_backend_name (res->backend), ==, "cuda");
  if (p->method != FR_FOLD_METHOD_AUTO)
    g_assert_cmpint (res->method, ==, p->method);
  else   /* auto: the faster method on the GPU by our measurements */
    g_assert_cmpint (res->method, ==, res->grid.ndim == 2 ? FR_FOLD_LAS : FR_FOLD_SOLAS);
  g_assert_cmpint (res->double_precision, ==, p->double_precision);
  if (p->block != 0)
    g_assert_cmpint (res->block, ==, p->block);
  else
    g_assert_cmpint (res->block, >=, 2);
  g_assert_cmpint (res->threads, ==, 0);
  g_assert_cmpint (res->iterations, >, 0);
  g_assert_cmpuint (res->subdomains, >, 0);
  g_assert_cmpuint (res->subdomain_sweeps, >=, res->subdomains);
  g_assert_cmpint (res->host_round_trips, >=, 1);   /* T comes back at least once */
  /* The call's parts are measured one after another on the host clock, and
   * the device loop (at least device_ms) lies between setup and results,
   * so together they fit in solve_ms (0.05 ms: the two clocks' rounding). */
  g_assert_cmpfloat (res->start_ms, >=, 0.0);
  g_assert_cmpfloat (res->setup_ms, >, 0.0);
  g_assert_cmpfloat (res->results_ms, >, 0.0);
  g_assert_cmpfloat (res->device_ms, >, 0.0);
  g_assert_cmpfloat (res->start_ms + res->setup_ms + res->device_ms + res->results_ms, <=,
                     res->solve_ms + 0.05);
  g_assert_nonnull (res->time);
  g_assert_nonnull (res->trace);                    /* rays work on a GPU result too */
}

/* Solves, failing the case (not the program) with the library's message;
 * a CUDA solve is checked with check_cuda_result. */
static void
solve_ok (const problem *pb, const fr_fold_params *p, fr_fold_result *res, const char *what)
{
  fr_fold_start st = problem_start (pb);
  fr_error err = { 0 };
  fr_status s = fr_fold_solve (&pb->g, &st, p, res, &err);

  if (s != FR_OK)
    g_test_message ("%s: %s backend: fr_fold_solve: %s (%s)", what,
                    fr_fold_backend_name (p->backend), err.message, fr_status_name (s));
  g_assert_cmpint (s, ==, FR_OK);
  if (p->backend == FR_FOLD_CUDA)
    check_cuda_result (res, p);
  else if (p->backend == FR_FOLD_CPU)
    g_assert_cmpint (res->backend, ==, FR_FOLD_CPU);
  /* auto: the caller says what it expects */
}

/* Node by node: |got − ref| <= rel · max(1, |ref|), +inf exactly where ref
 * has +inf.  Reports the worst node before failing; returns the largest
 * difference in units of the tolerance's denominator. */
static double
assert_same_times (const fr_grid *g, const double *ref, const double *got, double rel,
                   const char *what)
{
  size_t n = fr_grid_count (g), bad = 0, worst_i = 0, inf_ref = 0;
  double worst = 0.0;

  for (size_t i = 0; i < n; i++)
    {
      double d;
      if (isinf (ref[i]) && ref[i] > 0)
        {
          inf_ref++;
          d = got[i] == INFINITY ? 0.0 : INFINITY;
        }
      else if (!isfinite (got[i]))
        d = INFINITY;
      else
        d = fabs (got[i] - ref[i]) / fmax (1.0, fabs (ref[i]));
      if (d > rel)
        bad++;
      if (d > worst)
        worst = d, worst_i = i;
    }
  size_t ix = worst_i % g->nx, iy = (worst_i / g->nx) % g->ny, iz = worst_i / (g->nx * g->ny);
  g_test_message ("%s: max |T_cuda - T_cpu| / max(1, |T_cpu|) = %.3g (tolerance %.1g) at "
                  "(%zu, %zu, %zu): cpu %.17g, cuda %.17g; %zu unreached nodes, %zu outside",
                  what, worst, rel, ix, iy, iz, ref[worst_i], got[worst_i], inf_ref, bad);
  g_assert_cmpuint (bad, ==, 0);
  return worst;
}

/* ------------------------------------------------------- (a) analytic */

typedef struct analytic_case {
  const char *name;
  int ndim;
  double extent[3];       /* x, y, z */
  double h[3];            /* the three spacings, coarse to fine */
  double F;
  double psi[3];
  double radius;
  int nsrc;               /* 1: src; 13: Ex_A's sources */
  double src[3];
  double l2_max;          /* bound on the finest grid's RMS error */
  fr_fold_method method;
} analytic_case;

/* test-fold-analytic.c's cases, unchanged. */
static const analytic_case analytic_cases[] = {
  { "2d-isotropic", 2, { 1, 0, 1 }, { 0.02, 0.01, 0.005 }, 1.0, { 0, 0, 0 },
    0.1, 1, { 0.31, 0, 0.43 }, 1e-3, FR_FOLD_LAS },
  { "2d-anisotropic", 2, { 1, 0, 1 }, { 0.02, 0.01, 0.005 }, 1.4, { 0.9, 0, -0.75 },
    0.1, 1, { 0.52, 0, 0.61 }, 2e-3, FR_FOLD_SOLAS },
  { "3d-isotropic", 3, { 1, 1, 1 }, { 0.125, 0.0625, 0.03125 }, 1.0, { 0, 0, 0 },
    0.15, 1, { 0.31, 0.52, 0.43 }, 6e-3, FR_FOLD_SOLAS },
  { "3d-anisotropic", 3, { 1, 1, 1 }, { 0.125, 0.0625, 0.03125 }, 1.4, { 0.9, -0.75, -0.07 },
    0.15, 1, { 0.47, 0.38, 0.55 }, 1e-2, FR_FOLD_LAS },
  /* Ex_A: 13 sources, F = 1.4, ψ = (0.9, −0.75, −0.07). */
  { "ex-a", 3, { 10, 13, 9 }, { 1.0, 0.5, 1.0 / 3.0 }, 1.4, { 0.9, -0.75, -0.07 },
    1.0, 13, { 0, 0, 0 }, 0.1, FR_FOLD_SOLAS },
};

/* The RMS errors of both back ends against the exact solution on spacing h. */
static void
analytic_level (const analytic_case *c, bool dbl, double h, double *err_cpu, double *err_cuda)
{
  size_t nx = (size_t) llround (c->extent[0] / h) + 1;
  size_t ny = (size_t) llround (c->extent[1] / h) + 1;
  size_t nz = (size_t) llround (c->extent[2] / h) + 1;
  double srcs[13][3];
  problem pb = { 0 };
  fr_fold_params p;
  fr_fold_result cpu, cuda;

  pb.g = c->ndim == 3 ? fr_grid_3d (nx, ny, nz, h, h, h, 0, 0, 0) : fr_grid_2d (nx, nz, h, h, 0, 0);
  if (c->nsrc == 13)
    fold_ex_a_sources (srcs);
  else
    for (int a = 0; a < 3; a++)
      srcs[0][a] = c->src[a];
  for (int k = 0; k < c->nsrc; k++)
    {
      /* The API takes x,z in 2D and x,y,z in 3D. */
      if (c->ndim == 3)
        memcpy (pb.src + 3 * k, srcs[k], sizeof srcs[k]);
      else
        pb.src[2 * k] = srcs[k][0], pb.src[2 * k + 1] = srcs[k][2], srcs[k][1] = 0.0;
    }
  pb.nsrc = (size_t) c->nsrc;
  pb.speed_const = c->F;
  memcpy (pb.psi, c->psi, sizeof pb.psi);

  problem_params (&pb, &p);
  p.source_radius = c->radius;
  p.method = c->method;
  p.double_precision = dbl;
  p.backend = FR_FOLD_CPU;
  solve_ok (&pb, &p, &cpu, c->name);
  p.backend = FR_FOLD_CUDA;
  solve_ok (&pb, &p, &cuda, c->name);

  size_t n = fr_grid_count (&pb.g);
  double *exact = g_new (double, n);
  double psi[3] = { c->psi[0], c->ndim == 3 ? c->psi[1] : 0.0, c->psi[2] };
  for (size_t i = 0; i < n; i++)
    {
      double x[3];
      fold_node_xyz (&pb.g, i, x);
      exact[i] = INFINITY;
      for (int k = 0; k < c->nsrc; k++)
        exact[i] = fmin (exact[i], fold_exact_point (x, srcs[k], psi, c->F));
    }
  *err_cpu = fold_rms_diff (&pb.g, cpu.time, exact);
  *err_cuda = fold_rms_diff (&pb.g, cuda.time, exact);
  g_test_message ("%s %s h=%g: %zu nodes, RMS error cpu %.4e, cuda %.4e; cuda %.2f ms, "
                  "%ld passes, %ld host round trips, %.2f sweeps/subdomain (block %d)",
                  c->name, dbl ? "double" : "single", h, n, *err_cpu, *err_cuda,
                  cuda.solve_ms, cuda.iterations, cuda.host_round_trips,
                  (double) cuda.subdomain_sweeps / (double) cuda.subdomains, cuda.block);
  g_free (exact);
  fr_fold_result_clear (&cpu);
  fr_fold_result_clear (&cuda);
}

static void
analytic_convergence (const analytic_case *c, bool dbl)
{
  double err_cpu[3], err_cuda[3];

  if (!need_device ())
    return;
  for (int i = 0; i < 3; i++)
    {
      analytic_level (c, dbl, c->h[i], &err_cpu[i], &err_cuda[i]);
      /* As accurate as the CPU on the same grid (the same discrete solution). */
      g_assert_cmpfloat (err_cuda[i], <=, 1.001 * err_cpu[i] + 1e-6);
    }
  double rate = fold_observed_rate (c->h, err_cuda, 3);
  g_test_message ("%s %s: cuda errors %.3e %.3e %.3e, observed rate %.2f (cpu rate %.2f)",
                  c->name, dbl ? "double" : "single", err_cuda[0], err_cuda[1], err_cuda[2], rate,
                  fold_observed_rate (c->h, err_cpu, 3));
  g_assert_cmpfloat (err_cuda[2], <, c->l2_max);
  g_assert_cmpfloat (rate, >=, 0.9);   /* as test-fold-analytic.c */
}

static void
test_analytic_single (gconstpointer data)
{
  analytic_convergence (data, false);
}

static void
test_analytic_double (gconstpointer data)
{
  analytic_convergence (data, true);
}

/* ----------------------------------------------------- (b) node by node */

static const match_case match_cases[] = {
  { "/fold-cuda/match/3d/ex-b", M_EX_B, 40 },
  { "/fold-cuda/match/3d/ex-c", M_EX_C, 48 },
  { "/fold-cuda/match/3d/ex-d", M_EX_D, 44 },
  { "/fold-cuda/match/3d/fold3d", M_FOLD3D, 42 },
  { "/fold-cuda/match/3d/odd-37x41x29", M_ODD_3D, 0 },
  { "/fold-cuda/match/2d/const-psi", M_2D_CONST, 0 },
  { "/fold-cuda/match/2d/layers-obstacles", M_2D_LAYERS, 0 },
  { "/fold-cuda/match/2d/layers-obstacles-odd", M_2D_LAYERS_ODD, 0 },
  { "/fold-cuda/match/2d/horizon", M_2D_HORIZON, 0 },
  { "/fold-cuda/match/2d/boundary-negative", M_2D_BOUNDARY, 0 },
  { "/fold-cuda/match/2d/diagonal-wall", M_2D_DIAGONAL, 0 },
  { "/fold-cuda/match/3d/diagonal-walls", M_DIAGONAL_3D, 0 },
  { "/fold-cuda/match/3d/strong-psi-gradient", M_STRONG_PSI_3D, 0 },
};

/* Subdomain edges given to both back ends (0: each its own default). */
static const int blocks_3d[] = { 0, 8 };
static const int blocks_2d[] = { 0, 16, 32 };

static void
test_match (gconstpointer data)
{
  const match_case *mc = data;
  problem pb;
  double worst[2] = { 0.0, 0.0 };

  if (!need_device ())
    return;
  problem_make (&pb, mc);
  const bool is3d = pb.g.ndim == 3;
  const int *blocks = is3d ? blocks_3d : blocks_2d;
  const size_t nblocks = is3d ? G_N_ELEMENTS (blocks_3d) : G_N_ELEMENTS (blocks_2d);

  /* Every schedule of the CUDA back end, in 2D and 3D: passes, the queue
   * (small schedules in rounds), the queue without rounds (these grids
   * have no schedule larger than the GPU holds, so only that runs its queue
   * mode), LAS's queue with and without eager admission (2D's default
   * and 3D's), SOLAS's queue without admission below the held
   * threshold (the default admits), and the queue with the 3D sub-sweeps
   * in three groups at once (b = 16 only; elsewhere the default again). */
  static const char *const sched_names[] = { "", ", queue", ", queue without rounds",
                                             ", queue, eager", ", queue, not eager",
                                             ", queue, no admission", ", queue, at once" };
  const int nscheds = G_N_ELEMENTS (sched_names);
  for (int sched = 0; sched < nscheds; sched++)
    for (int dbl = 0; dbl < 2; dbl++)
      for (int meth = FR_FOLD_LAS; meth <= FR_FOLD_SOLAS; meth++)
        for (size_t b = 0; b < nblocks; b++)
          {
            fr_fold_params p;
            fr_fold_result cpu, cuda;
            char what[160];

            problem_params (&pb, &p);
            p.method = (fr_fold_method) meth;
            p.double_precision = dbl;
            p.block = blocks[b];
            g_snprintf (what, sizeof what, "%s %s %s block %d%s", mc->path,
                        fr_fold_method_name (p.method), dbl ? "double" : "single", p.block,
                        sched_names[sched]);
            p.backend = FR_FOLD_CPU;
            solve_ok (&pb, &p, &cpu, what);
            p.backend = FR_FOLD_CUDA;
#if FOLDRAY_HAVE_CUDA
            const fold_cuda_tune saved = fold_cuda_tuning;
            fold_cuda_tuning.sched = sched ? FOLD_CUDA_SCHED_QUEUE : FOLD_CUDA_SCHED_PASSES;
            fold_cuda_tuning.rounds_max = sched == 2 ? -1 : 0;
            fold_cuda_tuning.eager = sched == 3 ? 1 : sched == 4 ? -1 : 0;
            fold_cuda_tuning.admit = sched == 5 ? -1 : 0;
            fold_cuda_tuning.once3d = sched == 6 ? 3 : 0;
#endif
            solve_ok (&pb, &p, &cuda, what);
#if FOLDRAY_HAVE_CUDA
            fold_cuda_tuning = saved;
#endif
            g_test_message ("%s: cpu %.1f ms (b=%d, %ld passes); cuda %.2f ms (b=%d, %ld passes, "
                            "%ld schedules, %.2f sweeps/subdomain, %ld host round trips)", what,
                            cpu.solve_ms, cpu.block, cpu.iterations, cuda.solve_ms, cuda.block,
                            cuda.iterations, cuda.schedules,
                            (double) cuda.subdomain_sweeps / (double) cuda.subdomains,
                            cuda.host_round_trips);
            double d = assert_same_times (&pb.g, cpu.time, cuda.time,
                                          dbl ? REL_DOUBLE : REL_SINGLE, what);
            worst[dbl] = fmax (worst[dbl], d);
            fr_fold_result_clear (&cpu);
            fr_fold_result_clear (&cuda);
          }
  g_test_message ("%s: worst relative difference: single %.3g (tolerance %.1g), double %.3g "
                  "(tolerance %.1g)", mc->path, worst[0], REL_SINGLE, worst[1], REL_DOUBLE);
  problem_clear (&pb);
}

/* Times beyond float's range in double precision: the boundary problem
 * above at a spacing of 1.25e35, its start values lifted by 4e38, so every
 * time lies between 3.7e38 and 4.6e38 (FLT_MAX is 3.4e38).  The CUDA
 * schedules key subdomains by float; such a subdomain keyed as +inf, the
 * key of no time, was never swept, and its nodes stayed +inf. */
static void
beyond_float_range (problem *pb, const char *name)
{
  for (int meth = FR_FOLD_LAS; meth <= FR_FOLD_SOLAS; meth++)
    {
      fr_fold_params p;
      fr_fold_result cpu, cuda;
      char what[96];

      problem_params (pb, &p);
      p.method = (fr_fold_method) meth;
      p.double_precision = true;
      g_snprintf (what, sizeof what, "beyond float's range, %s, %s double", name,
                  fr_fold_method_name (p.method));
      p.backend = FR_FOLD_CPU;
      solve_ok (pb, &p, &cpu, what);
      p.backend = FR_FOLD_CUDA;
      solve_ok (pb, &p, &cuda, what);
      assert_same_times (&pb->g, cpu.time, cuda.time, REL_DOUBLE, what);
      fr_fold_result_clear (&cpu);
      fr_fold_result_clear (&cuda);
    }
}

static void
test_beyond_float_range (void)
{
  problem pb;
  const match_case mc = { "beyond float", M_2D_BOUNDARY, 0 };

  if (!need_device ())
    return;
  problem_make (&pb, &mc);
  pb.g = fr_grid_2d (pb.g.nx, pb.g.nz, 1.25e35, 1.25e35, 0.0, 0.0);
  for (size_t i = 0; i < fr_grid_count (&pb.g); i++)
    if (!isnan (pb.boundary[i]))
      pb.boundary[i] = 4e38 + 1e38 * pb.boundary[i];
  beyond_float_range (&pb, "160 x 128");
  problem_clear (&pb);

  /* foldray-cli's case (test-cli-range): one node at 1e300 in 30 x 20. */
  memset (&pb, 0, sizeof pb);
  pb.g = fr_grid_2d (30, 20, 1.0, 1.0, 0.0, 0.0);
  pb.speed = g_new (float, 600);
  pb.boundary = g_new (double, 600);
  for (size_t i = 0; i < 600; i++)
    pb.speed[i] = 1.0f, pb.boundary[i] = NAN;
  pb.boundary[3 * 30 + 4] = 1e300;
  beyond_float_range (&pb, "30 x 20");
  problem_clear (&pb);
}

/* ---------------------------------------------------------- knobs */

/* The knobs change how the work is launched and ordered, never the fixed
 * point: every setting must match the CPU node by node. */
static void
test_knobs (void)
{
#if FOLDRAY_HAVE_CUDA
  static const match_case cases[] = {
    { "ex-c 32", M_EX_C, 32 },
    { "2d layers", M_2D_LAYERS, 0 },
  };
  static const struct {
    const char *name;
    fold_cuda_tune tune;
  } knobs[] = {
    /* The graph and the batch are the passes' (3D runs the queue by default,
     * 2D passes). */
    { "graph off", { 0, 0, 0, FOLD_CUDA_GRAPH_OFF, FOLD_CUDA_SCHED_PASSES } },
    { "batch 1", { 0, 1, 0, FOLD_CUDA_GRAPH_ON, FOLD_CUDA_SCHED_PASSES } },
    { "batch 3, graph off", { 0, 3, 0, FOLD_CUDA_GRAPH_OFF, FOLD_CUDA_SCHED_PASSES } },
    { "inner 3", { 3, 0, 0, FOLD_CUDA_GRAPH_DEFAULT, FOLD_CUDA_SCHED_DEFAULT } },
    { "least schedule 1", { 0, 0, 1, FOLD_CUDA_GRAPH_DEFAULT, FOLD_CUDA_SCHED_DEFAULT } },
    { "least schedule 1000000", { 0, 0, 1000000, FOLD_CUDA_GRAPH_DEFAULT, FOLD_CUDA_SCHED_DEFAULT } },
    { "passes, least schedule 1", { 0, 0, 1, FOLD_CUDA_GRAPH_DEFAULT, FOLD_CUDA_SCHED_PASSES } },
    { "passes", { 0, 0, 0, FOLD_CUDA_GRAPH_DEFAULT, FOLD_CUDA_SCHED_PASSES } },
    { "queue", { 0, 0, 0, FOLD_CUDA_GRAPH_DEFAULT, FOLD_CUDA_SCHED_QUEUE } },
    { "queue, inner 3", { 3, 0, 0, FOLD_CUDA_GRAPH_DEFAULT, FOLD_CUDA_SCHED_QUEUE } },
    /* 3D takes 41 at most (its stamps' bytes in shared memory). */
    { "queue, inner 50", { 50, 0, 0, FOLD_CUDA_GRAPH_DEFAULT, FOLD_CUDA_SCHED_QUEUE } },
    { "queue without rounds", { 0, 0, 0, FOLD_CUDA_GRAPH_DEFAULT, FOLD_CUDA_SCHED_QUEUE, -1 } },
    { "queue, rounds up to 2", { 0, 0, 0, FOLD_CUDA_GRAPH_DEFAULT, FOLD_CUDA_SCHED_QUEUE, 2 } },
  };

  if (!need_device ())
    return;
  const fold_cuda_tune saved = fold_cuda_tuning;
  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      problem pb;
      fr_fold_params p;
      fr_fold_result cpu;

      problem_make (&pb, &cases[c]);
      problem_params (&pb, &p);
      p.method = FR_FOLD_SOLAS;
      p.backend = FR_FOLD_CPU;
      solve_ok (&pb, &p, &cpu, cases[c].path);
      p.backend = FR_FOLD_CUDA;
      for (size_t k = 0; k < G_N_ELEMENTS (knobs); k++)
        {
          fr_fold_result cuda;
          char what[160];

          g_snprintf (what, sizeof what, "%s, %s", cases[c].path, knobs[k].name);
          fold_cuda_tuning = knobs[k].tune;
          solve_ok (&pb, &p, &cuda, what);
          fold_cuda_tuning = saved;
          g_test_message ("%s: %ld passes, %ld host round trips", what, cuda.iterations,
                          cuda.host_round_trips);
          assert_same_times (&pb.g, cpu.time, cuda.time, REL_SINGLE, what);
          fr_fold_result_clear (&cuda);
        }
      fr_fold_result_clear (&cpu);
      problem_clear (&pb);
    }
#else
  (void) need_device ();   /* reports the skip */
#endif
}

/* ---------------------------------------------------------- (c) stats */

/* An explicit cuda request and auto both run on the device with a device
 * present, say so with no notice, and report counters that add up. */
static void
test_stats (void)
{
  static const match_case cases[] = {
    { "ex-d 40", M_EX_D, 40 },
    { "2d layers", M_2D_LAYERS, 0 },
  };
  static const fr_fold_backend backends[] = { FR_FOLD_CUDA, FR_FOLD_BACKEND_AUTO };

  if (!need_device ())
    return;
  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    for (size_t b = 0; b < G_N_ELEMENTS (backends); b++)
      {
        problem pb;
        fr_fold_params p;
        fr_fold_result res;

        problem_make (&pb, &cases[c]);
        problem_params (&pb, &p);
        p.backend = backends[b];
        solve_ok (&pb, &p, &res, cases[c].path);
        g_assert_cmpint (res.backend, ==, FR_FOLD_CUDA);
        p.backend = FR_FOLD_CUDA;   /* auto asked for what cuda would do */
        check_cuda_result (&res, &p);
        g_assert_cmpstr (res.notice, ==, "");
        g_assert_cmpfloat (res.solve_ms, >, 0.0);
        g_assert_true (res.grid.nx == pb.g.nx && res.grid.ny == pb.g.ny && res.grid.nz == pb.g.nz);
        g_test_message ("%s, %s: %s b=%d, %.2f ms, %ld passes, %ld schedules, %llu sweeps of "
                        "%zu subdomains, %ld host round trips", cases[c].path,
                        fr_fold_backend_name (backends[b]),
                        fr_fold_method_name (res.method), res.block, res.solve_ms, res.iterations,
                        res.schedules, (unsigned long long) res.subdomain_sweeps, res.subdomains,
                        res.host_round_trips);
        fr_fold_result_clear (&res);
        problem_clear (&pb);
      }
}

/* --------------------------------------------------------- (d) cancel */

/* A flag raised before the solve stops it with FR_E_CANCELLED and leaves
 * no result behind, in 2D and 3D, for both methods. */
static void
test_cancel (void)
{
  static const match_case cases[] = {
    { "ex-c 32", M_EX_C, 32 },
    { "2d const", M_2D_CONST, 0 },
  };
  fr_cancel *flag;

  if (!need_device ())
    return;
  flag = fr_cancel_new ();
  fr_cancel_raise (flag);
  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    for (int meth = FR_FOLD_LAS; meth <= FR_FOLD_SOLAS; meth++)
      {
        problem pb;
        fr_fold_params p;
        fr_fold_result res;
        fr_error err = { 0 };

        problem_make (&pb, &cases[c]);
        problem_params (&pb, &p);
        p.backend = FR_FOLD_CUDA;
        p.method = (fr_fold_method) meth;
        p.cancel = flag;
        p.keep_device_time = true;
        fr_fold_start st = problem_start (&pb);
        g_assert_cmpint (fr_fold_solve (&pb.g, &st, &p, &res, &err), ==, FR_E_CANCELLED);
        g_assert_null (res.time);
        g_assert_null (res.device_time);
        fr_fold_result_clear (&res);
        problem_clear (&pb);
      }
  fr_cancel_free (flag);
}

/* ---------------------------------------------------- (e) device time */

#if FOLDRAY_HAVE_CUDA
/* The device copy holds T as floats, x fastest, +inf unreached: exactly
 * the host result in single precision, its rounding to float in double. */
static void
check_device_copy (const fr_grid *g, const double *time, const void *dev)
{
  size_t n = fr_grid_count (g), bad = 0;
  float *h = g_new (float, n);

  g_assert_cmpint (cudaMemcpy (h, dev, n * sizeof *h, cudaMemcpyDeviceToHost), ==, cudaSuccess);
  for (size_t i = 0; i < n; i++)
    if (!(isinf (time[i]) ? h[i] == INFINITY : h[i] == (float) time[i]))
      bad++;
  g_assert_cmpuint (bad, ==, 0);
  g_free (h);
}
#endif

/* keep_device_time leaves a 2D CUDA result's T on the device, to be taken
 * out of the result and freed with fr_device_free; a 3D solve, or a solve
 * without the flag, keeps nothing there. */
static void
test_device_time (void)
{
  static const match_case cases[] = {
    { "2d layers", M_2D_LAYERS_ODD, 0 },
    { "ex-d 24", M_EX_D, 24 },
  };

  if (!need_device ())
    return;
  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    for (int dbl = 0; dbl < 2; dbl++)
      {
        problem pb;
        fr_fold_params p;
        fr_fold_result res;

        problem_make (&pb, &cases[c]);
        problem_params (&pb, &p);
        p.backend = FR_FOLD_CUDA;
        p.double_precision = dbl;
        p.keep_device_time = true;
        solve_ok (&pb, &p, &res, cases[c].path);
        if (pb.g.ndim == 3)
          {
            g_assert_null (res.device_time);
            g_assert_null (fr_fold_result_take_device_time (&res));
          }
        else
          {
            g_assert_nonnull (res.device_time);
            /* Taking moves it out: the result no longer owns or frees it. */
            void *dev = fr_fold_result_take_device_time (&res);
            g_assert_nonnull (dev);
            g_assert_null (res.device_time);
            g_assert_null (fr_fold_result_take_device_time (&res));
            double *host = g_steal_pointer (&res.time);
            fr_fold_result_clear (&res);
#if FOLDRAY_HAVE_CUDA
            check_device_copy (&pb.g, host, dev);   /* still there after the clear */
#endif
            free (host);
            fr_device_free (dev);
          }
        fr_fold_result_clear (&res);

        /* Without the flag nothing stays on the device. */
        p.keep_device_time = false;
        solve_ok (&pb, &p, &res, cases[c].path);
        g_assert_null (res.device_time);
        fr_fold_result_clear (&res);
        problem_clear (&pb);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t i = 0; i < G_N_ELEMENTS (analytic_cases); i++)
    {
      g_autofree char *single = g_strdup_printf ("/fold-cuda/analytic/%s/single", analytic_cases[i].name);
      g_autofree char *dbl = g_strdup_printf ("/fold-cuda/analytic/%s/double", analytic_cases[i].name);
      g_test_add_data_func (single, &analytic_cases[i], test_analytic_single);
      g_test_add_data_func (dbl, &analytic_cases[i], test_analytic_double);
    }
  for (size_t i = 0; i < G_N_ELEMENTS (match_cases); i++)
    g_test_add_data_func (match_cases[i].path, &match_cases[i], test_match);
  g_test_add_func ("/fold-cuda/beyond-float-range", test_beyond_float_range);
  g_test_add_func ("/fold-cuda/knobs", test_knobs);
  g_test_add_func ("/fold-cuda/stats", test_stats);
  g_test_add_func ("/fold-cuda/cancel", test_cancel);
  g_test_add_func ("/fold-cuda/device-time", test_device_time);
  return g_test_run ();
}
