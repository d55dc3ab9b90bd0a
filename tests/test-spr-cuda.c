/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA SPR back end against the Dijkstra reference, node by node: the
 * CPU back end's correctness cases (random heterogeneous models with
 * obstacles, several radii also rx != rz, dx != dz, several sources), both
 * weight modes, the generic kernels, a walled-off region, rays whose
 * weights sum to T, the schedules and inner-iteration settings, cancel,
 * and the auto back end's fallback.  Every case skips (TAP "# SKIP") when
 * the build has no CUDA or no device is present.
 *
 * Tolerance: |T_cuda - T_dijkstra| <= REL · |T_dijkstra| at every reached
 * node, +inf exactly where Dijkstra has +inf.  CUDA works in float, Dijkstra
 * in double: each weight carries ~1e-7 relative rounding and a path sums up
 * to a few hundred of them. */
#include <glib.h>
#include <math.h>

#include "foldray-config.h"
#include "fr-device.h"
#include "fr-spr.h"
#include "spr-private.h"
#include "test-cuda-skip.h"
#include "test-spr-util.h"
#if FOLDRAY_HAVE_CUDA
#include "spr-cuda-tune.h"
#endif

#define REL 2e-5

typedef struct {
  size_t nx, nz;
  double dx, dz;
  int rx, rz;
  guint32 seed;
  int nsrc;
  bool full;
} model_case;

/* The CPU back end's cases (test-spr-backends.c), then the GPU's own: grids
 * of many tiles (many global passes), rx = rz = 1..6 (the compile-time
 * stencils), and stencils that take the runtime and generic kernels. */
static const model_case cases[] = {
  { 48, 40, 1.0, 1.0, 4, 4, 1, 1, false },
  { 41, 57, 10.0, 25.0, 2, 3, 2, 3, false },
  { 64, 30, 0.5, 0.3, 5, 2, 3, 2, false },
  { 35, 35, 1.0, 1.0, 1, 1, 4, 1, false },
  { 52, 47, 2.0, 1.0, 3, 6, 5, 4, false },
  { 70, 45, 1.0, 1.0, 6, 6, 6, 2, false },
  { 150, 133, 1.0, 1.5, 1, 1, 7, 2, false },
  { 131, 170, 1.0, 1.0, 2, 2, 8, 3, false },
  { 200, 97, 3.0, 2.0, 3, 3, 9, 1, false },
  { 160, 161, 1.0, 1.0, 4, 4, 10, 2, false },
  { 97, 230, 1.0, 0.5, 5, 5, 11, 3, false },
  { 190, 180, 1.0, 1.0, 6, 6, 12, 2, false },
  { 90, 80, 1.0, 2.0, 7, 7, 13, 2, false },    /* 144 offsets: generic kernel */
  { 80, 75, 1.0, 1.0, 3, 3, 14, 2, true },     /* full: 48 offsets, runtime kernel */
  { 70, 66, 1.0, 1.0, 5, 5, 15, 1, true },     /* full: 120 offsets, generic kernel */
  { 75, 90, 2.0, 1.0, 1, 4, 16, 2, false },
};

/* Random source nodes outside obstacles, as model coordinates. */
static double *
random_sources (const fr_grid *g, const float *v, guint32 seed, int nsrc)
{
  GRand *rng = g_rand_new_with_seed (seed ^ 0x5eed);
  double *src = g_new (double, 2 * nsrc);

  for (int s = 0; s < nsrc; s++)
    {
      size_t i, j;
      do
        {
          i = (size_t) g_rand_int_range (rng, 0, (int) g->nx);
          j = (size_t) g_rand_int_range (rng, 0, (int) g->nz);
        }
      while (v[j * g->nx + i] == 0.0f);
      fr_grid_node_position (g, i, 0, j, &src[2 * s], NULL, &src[2 * s + 1]);
    }
  g_rand_free (rng);
  return src;
}

/* Largest relative difference over reached nodes (after the assert). */
static double
max_rel (const double *ref, const double *got, size_t n)
{
  double m = 0.0;
  for (size_t i = 0; i < n; i++)
    if (isfinite (ref[i]) && ref[i] > 0.0)
      m = fmax (m, fabs (got[i] - ref[i]) / fabs (ref[i]));
  return m;
}

/* Predecessors: -1 exactly at sources and unreached nodes; elsewhere a node
 * within the radius whose time plus the edge weight gives T. */
static void
check_pred (const fr_spr_result *res, const float *vel, int rx, int rz)
{
  const fr_grid *g = &res->grid;
  for (size_t v = 0; v < fr_grid_count (g); v++)
    {
      int32_t u = res->pred[v];
      if (!isfinite (res->time[v]) || res->time[v] == 0.0)
        {
          g_assert_cmpint (u, ==, -1);
          continue;
        }
      g_assert_cmpint (u, >=, 0);
      g_assert_cmpfloat (res->time[u], <, res->time[v]);
      int du = (int) (v % g->nx) - (int) (u % g->nx), dv = (int) (v / g->nx) - (int) (u / g->nx);
      g_assert_cmpint (abs (du), <=, rx);
      g_assert_cmpint (abs (dv), <=, rz);
      double w = tu_edge_weight (g, vel, (int) (u % g->nx), (int) (u / g->nx),
                                 (int) (v % g->nx), (int) (v / g->nx));
      g_assert_cmpfloat (fabs (res->time[u] + w - res->time[v]), <=, 1e-5 * res->time[v]);
    }
}

static void
run_case (const model_case *mc, fr_spr_weights weights, double *worst)
{
  fr_grid g = fr_grid_2d (mc->nx, mc->nz, mc->dx, mc->dz, -3.0, 7.0);
  float *v = tu_random_model (&g, mc->seed, 6, 7);
  double *src = random_sources (&g, v, mc->seed, mc->nsrc);
  fr_spr_params p;
  fr_spr_result ref, got;
  char what[128];

  fr_spr_params_init (&p);
  p.rx = mc->rx;
  p.rz = mc->rz;
  p.full_neighbourhood = mc->full;
  p.backend = FR_SPR_DIJKSTRA;
  tu_solve (&g, v, src, (size_t) mc->nsrc, &p, &ref);
  p.backend = FR_SPR_CUDA;
  p.weights = weights;
  tu_solve (&g, v, src, (size_t) mc->nsrc, &p, &got);
  g_assert_cmpint (got.backend, ==, FR_SPR_CUDA);
  g_assert_cmpint (got.iterations, >, 0);
  g_assert_cmpuint (got.edges_relaxed, >, 0);
  g_snprintf (what, sizeof what, "%zux%zu R%d,%d%s seed %u weights %d", mc->nx, mc->nz,
              mc->rx, mc->rz, mc->full ? " full" : "", mc->seed, (int) weights);
  tu_assert_times_close (ref.time, got.time, fr_grid_count (&g), REL, what);
  check_pred (&got, v, mc->rx, mc->rz);
  *worst = fmax (*worst, max_rel (ref.time, got.time, fr_grid_count (&g)));
  g_test_message ("%s: %ld passes, max relative difference %.3g", what, got.iterations,
                  max_rel (ref.time, got.time, fr_grid_count (&g)));
  fr_spr_result_clear (&ref);
  fr_spr_result_clear (&got);
  g_free (src);
  g_free (v);
}

static void
test_matches_dijkstra (gconstpointer data)
{
  fr_spr_weights weights = (fr_spr_weights) GPOINTER_TO_INT (data);
  double worst = 0.0;

  if (!need_device ())
    return;
  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    run_case (&cases[c], weights, &worst);
  g_test_message ("worst relative difference over all cases: %.3g (tolerance %.1g)", worst,
                  REL);
}

/* A box of obstacle cells walls off a region: its nodes stay +inf, and a
 * source inside reaches only the inside. */
static void
test_walled_off (void)
{
  fr_grid g = fr_grid_2d (90, 70, 1.0, 1.0, 0.0, 0.0);
  float *v;
  fr_spr_params p;
  fr_spr_result ref, got;

  if (!need_device ())
    return;
  v = tu_random_model (&g, 77, 0, 1);
  for (int j = 20; j <= 50; j++)
    for (int i = 30; i <= 70; i++)
      if (j == 20 || j == 50 || i == 30 || i == 70)
        v[j * 90 + i] = 0.0f;
  for (int inside = 0; inside < 2; inside++)
    {
      double src[2] = { inside ? 50.0 : 5.0, inside ? 35.0 : 5.0 };
      fr_spr_params_init (&p);
      p.rx = p.rz = 3;
      p.backend = FR_SPR_DIJKSTRA;
      tu_solve (&g, v, src, 1, &p, &ref);
      p.backend = FR_SPR_CUDA;
      tu_solve (&g, v, src, 1, &p, &got);
      tu_assert_times_close (ref.time, got.time, fr_grid_count (&g), REL, "walled");
      /* Nodes of the other side: unreached, no predecessor. */
      size_t probe = inside ? 5 * 90 + 5 : 35 * 90 + 50;
      g_assert_true (isinf (got.time[probe]));
      g_assert_cmpint (got.pred[probe], ==, -1);
      check_pred (&got, v, 3, 3);
      fr_spr_result_clear (&ref);
      fr_spr_result_clear (&got);
    }
  g_free (v);
}

/* Rays: the sum of the edge weights along the ray (computed independently
 * here) equals the traveltime at the receiver. */
static void
test_rays (void)
{
  fr_grid g = fr_grid_2d (180, 150, 2.0, 1.0, 0.0, 0.0);
  float *v;
  double src[4] = { 20.0, 10.0, 300.0, 120.0 };
  fr_spr_params p;
  fr_spr_result got;
  GRand *rng = g_rand_new_with_seed (99);
  int checked = 0;

  if (!need_device ())
    {
      g_rand_free (rng);
      return;
    }
  v = tu_random_model (&g, 31, 8, 9);
  v[10 * 180 + 10] = v[120 * 180 + 150] = 2.0f;   /* sources not in obstacles */
  fr_spr_params_init (&p);
  p.rx = p.rz = 5;
  p.backend = FR_SPR_CUDA;
  tu_solve (&g, v, src, 2, &p, &got);
  for (int r = 0; r < 40; r++)
    {
      size_t i = (size_t) g_rand_int_range (rng, 0, 180), j = (size_t) g_rand_int_range (rng, 0, 150);
      double x, z, *xz = NULL, sum = 0.0;
      size_t npts = 0;
      fr_error err = { 0 };
      if (!isfinite (got.time[j * 180 + i]))
        continue;
      fr_grid_node_position (&g, i, 0, j, &x, NULL, &z);
      g_assert_cmpint (fr_spr_ray (&got, x, z, &xz, &npts, &err), ==, FR_OK);
      g_assert_cmpuint (npts, >=, 1);
      for (size_t k = 1; k < npts; k++)
        {
          int i0 = (int) lround (xz[2 * k - 2] / g.dx), j0 = (int) lround (xz[2 * k - 1] / g.dz);
          int i1 = (int) lround (xz[2 * k] / g.dx), j1 = (int) lround (xz[2 * k + 1] / g.dz);
          sum += tu_edge_weight (&g, v, i0, j0, i1, j1);
        }
      g_assert_cmpfloat (fabs (sum - got.time[j * 180 + i]), <=, REL * got.time[j * 180 + i] + 1e-12);
      free (xz);
      checked++;
    }
  g_assert_cmpint (checked, >, 20);
  fr_spr_result_clear (&got);
  g_rand_free (rng);
  g_free (v);
}

/* The head wave of tests/test-spr-ray.c: among the equal-time staircases
 * along the interface, the CUDA back end's predecessor map holds others
 * than Dijkstra's (its rays ran up to 4 cells apart on the three-layer
 * example), but the rays made of them are the same, node for node, and
 * keep within 1.5 cells under the interface. */
static void
test_head_wave_rays (void)
{
  fr_grid g;
  float *v;
  double src[2] = { 10.0, 0.0 };
  const double receivers[] = { 290.0, 250.0, 200.0, 120.0 };
  fr_spr_params p;
  fr_spr_result ref, got;

  if (!need_device ())
    return;
  v = tu_head_wave_model (&g);
  fr_spr_params_init (&p);
  p.rx = p.rz = 5;
  p.backend = FR_SPR_DIJKSTRA;
  tu_solve (&g, v, src, 1, &p, &ref);
  p.backend = FR_SPR_CUDA;
  tu_solve (&g, v, src, 1, &p, &got);
  for (size_t r = 0; r < G_N_ELEMENTS (receivers); r++)
    {
      fr_error err = { 0 };
      double *a = NULL, *b = NULL, deepest = 0.0;
      size_t na = 0, nb = 0;

      g_assert_cmpint (fr_spr_ray (&ref, receivers[r], 0.0, &a, &na, &err), ==, FR_OK);
      g_assert_cmpint (fr_spr_ray (&got, receivers[r], 0.0, &b, &nb, &err), ==, FR_OK);
      for (size_t k = 0; k < nb; k++)
        deepest = MAX (deepest, tu_head_wave_below (b[2 * k], b[2 * k + 1]));
      g_test_message ("receiver at x %g: %zu ray points, %zu from Dijkstra; the deepest %.2f "
                      "cells under the interface", receivers[r], nb, na, deepest);
      g_assert_cmpuint (nb, ==, na);
      for (size_t k = 0; k < 2 * na; k++)
        g_assert_cmpfloat (b[k], ==, a[k]);
      g_assert_cmpfloat (deepest, <=, 1.5);
      free (a);
      free (b);
    }
  fr_spr_result_clear (&ref);
  fr_spr_result_clear (&got);
  g_free (v);
}

/* The knobs (schedule, inner iterations, generic kernel, row scan, pinned
 * staging, one pass per launch, the asynchronous queue and its launch
 * budget) change the work, never the answer. */
static void
test_tunings (void)
{
#if FOLDRAY_HAVE_CUDA
  fr_grid g = fr_grid_2d (230, 190, 1.0, 1.0, 0.0, 0.0);
  float *v;
  double *src;
  fr_spr_params p;
  fr_spr_result ref;
  spr_stencils st;
  size_t nodes[2];
  fr_error err = { 0 };

  if (!need_device ())
    return;
  v = tu_random_model (&g, 5, 10, 12);
  src = random_sources (&g, v, 5, 2);
  fr_spr_params_init (&p);
  p.rx = p.rz = 4;
  p.backend = FR_SPR_DIJKSTRA;
  tu_solve (&g, v, src, 2, &p, &ref);
  for (int s = 0; s < 2; s++)
    {
      size_t i, j;
      g_assert_true (fr_grid_exact_node (&g, src[2 * s], 0, src[2 * s + 1], &i, NULL, &j));
      nodes[s] = j * g.nx + i;
    }
  g_assert_cmpint (spr_stencils_build (&st, 4, 4, g.dx, g.dz, false, &err), ==, FR_OK);
  for (int k = 0; k < 20; k++)
    {
      spr_cuda_tune t;
      spr_cuda_report rep;
      spr_problem pb = { &g, v, nodes, 2, &p, &st };
      fr_spr_result got = { 0 };
      spr_cuda_tune_init (&t);
      switch (k)
        {
        case 1: t.map = SPR_CUDA_MAP_WIDE; t.schedule = SPR_CUDA_EARLY_EXIT; break;
        case 2: t.inner_max = 1; t.map = SPR_CUDA_MAP_WIDE; break;   /* the papers' passes */
        case 3: t.force_generic = true; break;
        case 4: t.map = SPR_CUDA_MAP_WIDE; t.pinned = true; t.batch = 1; break;
        case 5: p.weights = FR_WEIGHTS_ON_THE_FLY; t.inner_max = 2; break;
        case 6: t.map = SPR_CUDA_MAP_WIDE; t.row_scan = true; break;
        case 7: t.map = SPR_CUDA_MAP_WIDE; t.delta_scale = -1.0; break;
        case 8: t.map = SPR_CUDA_MAP_SCAN; t.delta_scale = 0.1; t.schedule = SPR_CUDA_EARLY_EXIT;
          break;
        case 9: t.map = SPR_CUDA_MAP_WIDE; t.delta_scale = 0.1; t.schedule = SPR_CUDA_EARLY_EXIT; break;
        case 10: t.map = SPR_CUDA_MAP_WIDE; t.sweep = SPR_CUDA_SWEEP_INPLACE; t.inner_max = 2; break;
        case 11: t.map = SPR_CUDA_MAP_WIDE; t.delta_scale = -1.0; t.batch = 3; break;
        case 12: t.map = SPR_CUDA_MAP_SCAN; t.sweep = SPR_CUDA_SWEEP_JACOBI; break;
        /* The queue: a 1 µs budget per launch (its state carried across
         * many launches), every pending tile at once, tiny buckets with
         * activations cut short, and in place. */
        case 13: t.map = SPR_CUDA_MAP_ASYNC; t.batch = 1; t.raise_below = -1.0; break;
        case 14: t.map = SPR_CUDA_MAP_ASYNC; t.delta_scale = -1.0; break;
        case 15: t.map = SPR_CUDA_MAP_ASYNC; t.delta_scale = 0.1; t.inner_max = 2; break;
        case 16: t.map = SPR_CUDA_MAP_ASYNC; t.sweep = SPR_CUDA_SWEEP_INPLACE;
          p.weights = FR_WEIGHTS_ON_THE_FLY; break;
        case 17: t.map = SPR_CUDA_MAP_ASYNC; t.delta_scale = 8.0; break;
        /* Raising the bucket bound while tiles still run, with small
         * buckets (many raises), also across 1 µs launches. */
        case 18: t.map = SPR_CUDA_MAP_ASYNC; t.delta_scale = 0.5; t.raise_below = 1.0; break;
        case 19: t.map = SPR_CUDA_MAP_ASYNC; t.delta_scale = 0.5; t.raise_below = 1.0;
          t.batch = 1; p.weights = FR_WEIGHTS_ON_THE_FLY; break;
        default: break;
        }
      got.grid = g;
      got.time = g_new (double, fr_grid_count (&g));
      got.pred = g_new (int32_t, fr_grid_count (&g));
      g_assert_cmpint (spr_cuda_solve_ex (&pb, &t, &got, &rep, &err), ==, FR_OK);
      tu_assert_times_close (ref.time, got.time, fr_grid_count (&g), REL, "tuning");
      check_pred (&got, v, 4, 4);
      g_test_message ("tuning %d: %ld passes, %ld activations, %d launches, nw %d, tile %dx%d, "
                      "%d blocks, table %d, device %.3f ms", k, rep.passes,
                      rep.activations, rep.launches, rep.nw, rep.tile_x, rep.tile_z, rep.blocks,
                      rep.table, rep.device_ms);
      if (k == 2)
        g_assert_cmpint (rep.passes, >, 10);
      if (k == 13 || k == 19)
        g_assert_cmpint (rep.launches, >, 1);
      if (k == 18 || k == 19)
        g_assert_cmpint (rep.raises, >, 0);
      if (t.raise_below < 0.0 || rep.map != SPR_CUDA_MAP_ASYNC)
        g_assert_cmpint (rep.raises, ==, 0);
      /* The compile-time stencils (here R 4) take the queue by default. */
      if (k == 0)
        g_assert_cmpint (rep.map, ==, SPR_CUDA_MAP_ASYNC);
      if (k == 12)
        g_assert_cmpint (rep.map, ==, SPR_CUDA_MAP_SCAN);
      p.weights = FR_WEIGHTS_AUTO;
      g_free (got.time);
      g_free (got.pred);
    }
  spr_stencils_clear (&st);
  fr_spr_result_clear (&ref);
  g_free (src);
  g_free (v);
#else
  g_test_skip ("this build has no CUDA back end");
#endif
}

#if FOLDRAY_HAVE_CUDA
/* One case through spr_cuda_solve_ex with knobs, node by node against
 * dijkstra (as run_case). */
static void
run_case_tuned (const model_case *mc, fr_spr_weights weights, const spr_cuda_tune *t,
                double *worst)
{
  fr_grid g = fr_grid_2d (mc->nx, mc->nz, mc->dx, mc->dz, -3.0, 7.0);
  float *v = tu_random_model (&g, mc->seed, 6, 7);
  double *src = random_sources (&g, v, mc->seed, mc->nsrc);
  size_t *nodes = g_new (size_t, mc->nsrc);
  fr_spr_params p;
  fr_spr_result ref, got = { 0 };
  spr_stencils st;
  spr_cuda_report rep;
  fr_error err = { 0 };
  char what[160];

  fr_spr_params_init (&p);
  p.rx = mc->rx;
  p.rz = mc->rz;
  p.full_neighbourhood = mc->full;
  p.backend = FR_SPR_DIJKSTRA;
  tu_solve (&g, v, src, (size_t) mc->nsrc, &p, &ref);
  for (int s = 0; s < mc->nsrc; s++)
    {
      size_t i, j;
      g_assert_true (fr_grid_exact_node (&g, src[2 * s], 0, src[2 * s + 1], &i, NULL, &j));
      nodes[s] = j * g.nx + i;
    }
  g_assert_cmpint (spr_stencils_build (&st, mc->rx, mc->rz, g.dx, g.dz, mc->full, &err), ==,
                   FR_OK);
  p.backend = FR_SPR_CUDA;
  p.weights = weights;
  spr_problem pb = { &g, v, nodes, (size_t) mc->nsrc, &p, &st };
  got.grid = g;
  got.time = g_new (double, fr_grid_count (&g));
  got.pred = g_new (int32_t, fr_grid_count (&g));
  g_assert_cmpint (spr_cuda_solve_ex (&pb, t, &got, &rep, &err), ==, FR_OK);
  g_snprintf (what, sizeof what, "%zux%zu R%d,%d%s seed %u weights %d map %d sweep %d", mc->nx,
              mc->nz, mc->rx, mc->rz, mc->full ? " full" : "", mc->seed, (int) weights, t->map,
              t->sweep);
  tu_assert_times_close (ref.time, got.time, fr_grid_count (&g), REL, what);
  check_pred (&got, v, mc->rx, mc->rz);
  *worst = fmax (*worst, max_rel (ref.time, got.time, fr_grid_count (&g)));
  g_test_message ("%s: %ld passes, %ld activations, max relative difference %.3g", what,
                  rep.passes, rep.activations, max_rel (ref.time, got.time, fr_grid_count (&g)));
  spr_stencils_clear (&st);
  fr_spr_result_clear (&ref);
  g_free (got.time);
  g_free (got.pred);
  g_free (nodes);
  g_free (src);
  g_free (v);
}
#endif

/* The bookkeeping and sweep knobs on every case, node by node: each
 * combination must give the answer the default gives (so that the default
 * may switch between them). */
static void
test_variants (void)
{
#if FOLDRAY_HAVE_CUDA
  static const int combos[][2] = {
    { SPR_CUDA_MAP_WIDE, SPR_CUDA_SWEEP_JACOBI },
    { SPR_CUDA_MAP_WIDE, SPR_CUDA_SWEEP_INPLACE },
    { SPR_CUDA_MAP_SCAN, SPR_CUDA_SWEEP_INPLACE },
    { SPR_CUDA_MAP_SCAN, SPR_CUDA_SWEEP_JACOBI },
    { SPR_CUDA_MAP_ASYNC, SPR_CUDA_SWEEP_JACOBI },
    { SPR_CUDA_MAP_ASYNC, SPR_CUDA_SWEEP_INPLACE },
  };
  double worst = 0.0;

  if (!need_device ())
    return;
  for (size_t k = 0; k < G_N_ELEMENTS (combos); k++)
    for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
      {
        spr_cuda_tune t;
        spr_cuda_tune_init (&t);
        t.map = combos[k][0];
        t.sweep = combos[k][1];
        run_case_tuned (&cases[c], (c + k) % 2 ? FR_WEIGHTS_ON_THE_FLY : FR_WEIGHTS_TABLE, &t,
                        &worst);
      }
  g_test_message ("worst relative difference over all variants: %.3g (tolerance %.1g)", worst,
                  REL);
#else
  g_test_skip ("this build has no CUDA back end");
#endif
}

/* A raised cancel flag stops the solve with FR_E_CANCELLED. */
static void
test_cancel (void)
{
#if FOLDRAY_HAVE_CUDA
  fr_grid g = fr_grid_2d (64, 64, 1.0, 1.0, 0.0, 0.0);
  float *v;
  fr_spr_params p;
  spr_stencils st;
  size_t node = 32 * 64 + 32;
  fr_error err = { 0 };
  fr_cancel *c = fr_cancel_new ();
  fr_spr_result got = { 0 };

  if (!need_device ())
    {
      fr_cancel_free (c);
      return;
    }
  v = tu_random_model (&g, 3, 0, 1);
  fr_spr_params_init (&p);
  p.rx = p.rz = 2;
  p.cancel = c;
  fr_cancel_raise (c);
  g_assert_cmpint (spr_stencils_build (&st, 2, 2, 1.0, 1.0, false, &err), ==, FR_OK);
  spr_problem pb = { &g, v, &node, 1, &p, &st };
  got.time = g_new (double, 64 * 64);
  got.pred = g_new (int32_t, 64 * 64);
  g_assert_cmpint (spr_solve_cuda (&pb, &got, &err), ==, FR_E_CANCELLED);
  g_free (got.time);
  g_free (got.pred);
  spr_stencils_clear (&st);
  fr_cancel_free (c);
  g_free (v);
#else
  g_test_skip ("this build has no CUDA back end");
#endif
}

/* auto picks CUDA with a device; a request CUDA cannot serve (double
 * precision) makes auto fall back to the CPU with a notice, and an explicit
 * cuda request fail cleanly. */
static void
test_auto_and_fallback (void)
{
  fr_grid g = fr_grid_2d (60, 50, 1.0, 1.0, 0.0, 0.0);
  float *v;
  double src[2] = { 10.0, 10.0 };
  fr_spr_params p;
  fr_spr_result res;
  fr_error err = { 0 };

  if (!need_device ())
    return;
  v = tu_random_model (&g, 8, 0, 1);
  fr_spr_params_init (&p);
  tu_solve (&g, v, src, 1, &p, &res);
  g_assert_cmpint (res.backend, ==, FR_SPR_CUDA);
  g_assert_cmpstr (res.notice, ==, "");
  fr_spr_result_clear (&res);

  p.double_precision = true;
  tu_solve (&g, v, src, 1, &p, &res);
  g_assert_cmpint (res.backend, !=, FR_SPR_CUDA);
  g_assert_cmpstr (res.notice, !=, "");
  fr_spr_result_clear (&res);

  p.backend = FR_SPR_CUDA;
  g_assert_cmpint (fr_spr_solve (&g, v, src, 1, &p, &res, &err), ==, FR_E_UNSUPPORTED);
  g_assert_nonnull (strstr (err.message, "single precision"));
  g_free (v);
}

/* foldray-cli info's device list: name, memory and multiprocessors. */
static void
test_device_info (void)
{
  fr_device_info d[4];
  int n = 0;
  char why[128] = "";

  if (!need_device ())
    return;
  g_assert_cmpint (fr_cuda_devices (d, 4, &n, why, sizeof why), ==, FR_OK);
  g_assert_cmpint (n, >=, 1);
  g_assert_cmpstr (d[0].name, !=, "");
  g_assert_cmpuint (d[0].memory_bytes, >, 0);
  g_assert_cmpint (d[0].multiprocessors, >, 0);
  g_test_message ("device 0: %s, %zu MiB, %d SMs, sm_%d%d", d[0].name,
                  d[0].memory_bytes >> 20, d[0].multiprocessors, d[0].major, d[0].minor);
}

/* A small case for compute-sanitizer (memcheck, racecheck): both weight
 * modes, a compile-time and a generic stencil. */
static void
test_small (void)
{
  static const model_case small[] = {
    { 70, 40, 1.0, 2.0, 2, 2, 21, 2, false },
    { 45, 38, 1.0, 1.0, 7, 7, 22, 1, false },
  };
  double worst = 0.0;

  if (!need_device ())
    return;
  for (size_t c = 0; c < G_N_ELEMENTS (small); c++)
    {
      run_case (&small[c], FR_WEIGHTS_ON_THE_FLY, &worst);
      run_case (&small[c], FR_WEIGHTS_TABLE, &worst);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/spr-cuda/matches-dijkstra/on-the-fly",
                        GINT_TO_POINTER (FR_WEIGHTS_ON_THE_FLY), test_matches_dijkstra);
  g_test_add_data_func ("/spr-cuda/matches-dijkstra/table", GINT_TO_POINTER (FR_WEIGHTS_TABLE),
                        test_matches_dijkstra);
  g_test_add_func ("/spr-cuda/walled-off", test_walled_off);
  g_test_add_func ("/spr-cuda/rays", test_rays);
  g_test_add_func ("/spr-cuda/head-wave-rays", test_head_wave_rays);
  g_test_add_func ("/spr-cuda/tunings", test_tunings);
  g_test_add_func ("/spr-cuda/variants", test_variants);
  g_test_add_func ("/spr-cuda/cancel", test_cancel);
  g_test_add_func ("/spr-cuda/auto-and-fallback", test_auto_and_fallback);
  g_test_add_func ("/spr-cuda/device-info", test_device_info);
  g_test_add_func ("/spr-cuda/small", test_small);
  return g_test_run ();
}
