/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parallel CPU back end against the Dijkstra reference on random
 * heterogeneous models with obstacles: every node, several radii (also
 * rx != rz), anisotropic spacing, several sources, 1/2/4 threads, both
 * weight modes, single and double precision.  Also: edge reduction changes
 * no traveltime, traveltimes are reciprocal, and a radius longer than the
 * grid solves the contract's graph (checked against a brute-force one). */
#include <glib.h>
#include <math.h>

#include "fr-spr.h"
#include "spr-private.h"
#include "test-spr-util.h"

typedef struct {
  size_t nx, nz;
  double dx, dz;
  int rx, rz;
  guint32 seed;
  int nsrc;
} model_case;

static const model_case cases[] = {
  { 48, 40, 1.0, 1.0, 4, 4, 1, 1 },
  { 41, 57, 10.0, 25.0, 2, 3, 2, 3 },
  { 64, 30, 0.5, 0.3, 5, 2, 3, 2 },
  { 35, 35, 1.0, 1.0, 1, 1, 4, 1 },
  { 52, 47, 2.0, 1.0, 3, 6, 5, 4 },
  { 70, 45, 1.0, 1.0, 6, 6, 6, 2 },
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

/* Predecessors: -1 exactly at sources and unreached nodes, else a node with
 * a strictly smaller time within the radius. */
static void
check_pred (const fr_spr_result *res, int rx, int rz)
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
      g_assert_cmpint (labs ((long) (u % g->nx) - (long) (v % g->nx)), <=, rx);
      g_assert_cmpint (labs ((long) (u / g->nx) - (long) (v / g->nx)), <=, rz);
    }
}

static void
test_cpu_matches_dijkstra (void)
{
  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const model_case *mc = &cases[c];
      fr_grid g = fr_grid_2d (mc->nx, mc->nz, mc->dx, mc->dz, -3.0, 7.0);
      float *v = tu_random_model (&g, mc->seed, 6, 8);
      double *src = random_sources (&g, v, mc->seed, mc->nsrc);
      size_t n = fr_grid_count (&g), unreached = 0;
      fr_spr_params p;
      fr_spr_result ref, full, res;

      fr_spr_params_init (&p);
      p.rx = mc->rx;
      p.rz = mc->rz;
      p.backend = FR_SPR_DIJKSTRA;
      tu_solve (&g, v, src, mc->nsrc, &p, &ref);
      g_assert_cmpint (ref.backend, ==, FR_SPR_DIJKSTRA);
      check_pred (&ref, mc->rx, mc->rz);
      for (size_t i = 0; i < n; i++)
        unreached += isinf (ref.time[i]);
      g_test_message ("case %zu: %zux%zu r=%d,%d, %d sources, %zu unreached nodes", c,
                      mc->nx, mc->nz, mc->rx, mc->rz, mc->nsrc, unreached);
      /* Obstacles are in every model, so some nodes are unreached. */
      g_assert_cmpuint (unreached, >, 0);

      /* Edge reduction changes no traveltime. */
      p.full_neighbourhood = true;
      tu_solve (&g, v, src, mc->nsrc, &p, &full);
      tu_assert_times_close (ref.time, full.time, n, 1e-12, "dijkstra full vs reduced");
      fr_spr_result_clear (&full);
      p.full_neighbourhood = false;

      p.backend = FR_SPR_CPU;
      /* Threads 1, 2, 4; both weight modes (the table with 2 threads). */
      for (int threads = 1; threads <= 4; threads *= 2)
        {
          p.threads = threads;
          p.weights = threads == 2 ? FR_WEIGHTS_TABLE : FR_WEIGHTS_ON_THE_FLY;
          tu_solve (&g, v, src, mc->nsrc, &p, &res);
          g_assert_cmpint (res.backend, ==, FR_SPR_CPU);
          tu_assert_times_close (ref.time, res.time, n, 1e-5, "cpu single");
          check_pred (&res, mc->rx, mc->rz);
          fr_spr_result_clear (&res);
        }
      p.weights = FR_WEIGHTS_AUTO;
      p.threads = 2;

      p.double_precision = true;
      tu_solve (&g, v, src, mc->nsrc, &p, &res);
      tu_assert_times_close (ref.time, res.time, n, 1e-10, "cpu double");
      check_pred (&res, mc->rx, mc->rz);
      fr_spr_result_clear (&res);
      p.double_precision = false;

      p.full_neighbourhood = true;
      tu_solve (&g, v, src, mc->nsrc, &p, &res);
      tu_assert_times_close (ref.time, res.time, n, 1e-5, "cpu full neighbourhood");
      fr_spr_result_clear (&res);

      fr_spr_result_clear (&ref);
      g_free (src);
      g_free (v);
    }
}

/* The CPU back end's internal knobs (tile shape, sweep cap, weight
 * storage) change the work done, never the result: small tiles, tiles
 * shorter than the radius, one sweep per activation, every weight mode. */
static void
test_cpu_tunings (void)
{
  static const spr_cpu_tuning tunings[] = {
    { 32, 1, 0, SPR_CPU_WEIGHTS_TILE_CACHE },
    { 32, 3, 1, SPR_CPU_WEIGHTS_RECOMPUTE },
    { 32, 8, 0, SPR_CPU_WEIGHTS_TABLE },
    { 64, 5, 2, SPR_CPU_WEIGHTS_TILE_CACHE },
    { 32, 16, 1, SPR_CPU_WEIGHTS_TABLE },
    { 1000, 1000, 0, SPR_CPU_WEIGHTS_DEFAULT },
  };
  static const model_case mcs[] = {
    { 72, 40, 1.0, 1.5, 3, 5, 31, 2 },
    { 66, 50, 3.0, 1.0, 5, 2, 32, 1 },
  };

  for (size_t c = 0; c < G_N_ELEMENTS (mcs); c++)
    {
      const model_case *mc = &mcs[c];
      const bool full = c == 1;
      fr_grid g = fr_grid_2d (mc->nx, mc->nz, mc->dx, mc->dz, 0.0, 0.0);
      float *v = tu_random_model (&g, mc->seed, 12, 10);
      double *src = random_sources (&g, v, mc->seed, mc->nsrc);
      size_t n = fr_grid_count (&g), nodes[4];
      spr_stencils st;
      fr_spr_params p;
      fr_spr_result ref;

      fr_spr_params_init (&p);
      p.rx = mc->rx;
      p.rz = mc->rz;
      p.full_neighbourhood = full;
      p.backend = FR_SPR_DIJKSTRA;
      tu_solve (&g, v, src, mc->nsrc, &p, &ref);
      g_assert_cmpint (spr_stencils_build (&st, p.rx, p.rz, g.dx, g.dz, full, NULL), ==, FR_OK);
      for (int s = 0; s < mc->nsrc; s++)
        {
          size_t i, j;
          g_assert_true (fr_grid_exact_node (&g, src[2 * s], 0, src[2 * s + 1], &i, NULL, &j));
          nodes[s] = j * g.nx + i;
        }
      for (size_t k = 0; k < G_N_ELEMENTS (tunings); k++)
        for (int dbl = 0; dbl <= (int) (k % 2); dbl++)
          {
            fr_spr_result res = { 0 };
            fr_error err = { 0 };
            spr_problem pb = { .grid = &g, .velocity = v, .sources = nodes,
                               .nsrc = (size_t) mc->nsrc, .params = &p, .stencils = &st };
            p.threads = k % 3 == 2 ? 2 : 1;
            p.double_precision = dbl;
            res.grid = g;
            res.time = g_new (double, n);
            res.pred = g_new (int32_t, n);
            g_assert_cmpint (spr_solve_cpu_tuned (&pb, &tunings[k], &res, &err), ==, FR_OK);
            g_test_message ("model %zu tuning %zu double %d: %ld passes", c, k, dbl,
                            res.iterations);
            tu_assert_times_close (ref.time, res.time, n, dbl ? 1e-10 : 1e-5, "cpu tuned");
            check_pred (&res, p.rx, p.rz);
            g_free (res.time);
            g_free (res.pred);
          }
      spr_stencils_clear (&st);
      fr_spr_result_clear (&ref);
      g_free (src);
      g_free (v);
    }
}

/* T(a -> b) == T(b -> a): the graph is undirected. */
static void
test_reciprocity (void)
{
  for (guint32 seed = 11; seed < 14; seed++)
    {
      fr_grid g = fr_grid_2d (45, 38, 1.0, 0.8, 0.0, 0.0);
      float *v = tu_random_model (&g, seed, 4, 6);
      double *pts = random_sources (&g, v, seed, 4);
      fr_spr_params p;

      fr_spr_params_init (&p);
      p.rx = 3 + (int) seed % 2;
      p.rz = 3;
      for (int backend = FR_SPR_DIJKSTRA; backend <= FR_SPR_CPU; backend++)
        {
          fr_spr_result res[4];
          p.backend = (fr_spr_backend) backend;
          for (int a = 0; a < 4; a++)
            tu_solve (&g, v, &pts[2 * a], 1, &p, &res[a]);
          for (int a = 0; a < 4; a++)
            for (int b = a + 1; b < 4; b++)
              {
                size_t ia, ja, ib, jb;
                g_assert_true (fr_grid_exact_node (&g, pts[2 * a], 0, pts[2 * a + 1], &ia, NULL, &ja));
                g_assert_true (fr_grid_exact_node (&g, pts[2 * b], 0, pts[2 * b + 1], &ib, NULL, &jb));
                double tab = res[a].time[jb * g.nx + ib], tba = res[b].time[ja * g.nx + ia];
                if (isinf (tab) || isinf (tba))
                  g_assert_true (isinf (tab) && isinf (tba));
                else
                  g_assert_cmpfloat (fabs (tab - tba), <=, 1e-5 * fabs (tab));
              }
          for (int a = 0; a < 4; a++)
            fr_spr_result_clear (&res[a]);
        }
      g_free (pts);
      g_free (v);
    }
}

/* The contract's graph taken literally: every pair of nodes (ix, iz),
 * (ix + a, iz + b) with |a| <= rx, |b| <= rz, both inside, weighed by the
 * independent segment clipping of test-spr-util.h, every offset kept (no
 * edge reduction); then the plainest Dijkstra (a linear scan for the least
 * unsettled node).  For small grids only. */
static double *
brute_force_times (const fr_grid *g, const float *v, const double *src, int nsrc, int rx, int rz)
{
  const int nx = (int) g->nx, nz = (int) g->nz, n = nx * nz;
  double *T = g_new (double, n);
  gboolean *done = g_new0 (gboolean, n);

  for (int i = 0; i < n; i++)
    T[i] = INFINITY;
  for (int s = 0; s < nsrc; s++)
    {
      size_t i, j;
      g_assert_true (fr_grid_exact_node (g, src[2 * s], 0, src[2 * s + 1], &i, NULL, &j));
      T[j * g->nx + i] = 0.0;
    }
  for (;;)
    {
      int u = -1;
      for (int i = 0; i < n; i++)
        if (!done[i] && isfinite (T[i]) && (u < 0 || T[i] < T[u]))
          u = i;
      if (u < 0)
        break;
      done[u] = TRUE;
      for (int b = -rz; b <= rz; b++)
        for (int a = -rx; a <= rx; a++)
          {
            int iu = u % nx, ju = u / nx, iv = iu + a, jv = ju + b;
            if ((a == 0 && b == 0) || iv < 0 || jv < 0 || iv >= nx || jv >= nz)
              continue;   /* not an edge, or one leaving the grid: absent */
            double t = T[u] + tu_edge_weight (g, v, iu, ju, iv, jv);
            if (t < T[jv * nx + iv])
              T[jv * nx + iv] = t;
          }
    }
  g_free (done);
  return T;
}

/* A radius longer than the grid (along one axis or both, and on a grid one
 * node wide) solves exactly the contract's graph for that radius, on a
 * model with obstacles, on every back end. */
static void
test_radius_beyond_grid (void)
{
  static const struct { size_t nx, nz; int rx, rz; guint32 seed; } mcs[] = {
    { 14, 9, 20, 30, 41 },
    { 12, 10, 5, 25, 42 },
    { 16, 6, 100, 3, 43 },
    { 1, 13, 4, 9, 44 },
    { 11, 1, 30, 2, 45 },
  };

  for (size_t c = 0; c < G_N_ELEMENTS (mcs); c++)
    {
      fr_grid g = fr_grid_2d (mcs[c].nx, mcs[c].nz, 1.0, 1.3, 2.0, -1.0);
      const bool thin = mcs[c].nx == 1 || mcs[c].nz == 1;
      float *v = tu_random_model (&g, mcs[c].seed, thin ? 0 : 3, 3);
      double *src = random_sources (&g, v, mcs[c].seed, 2);
      double *ref = brute_force_times (&g, v, src, 2, mcs[c].rx, mcs[c].rz);
      const size_t n = fr_grid_count (&g);

      for (int backend = FR_SPR_AUTO; backend <= FR_SPR_CPU; backend++)
        for (int dbl = 0; dbl <= 1; dbl++)
          for (int full = 0; full <= 1; full++)
            {
              fr_spr_params p;
              fr_spr_result res;
              char what[96];

              fr_spr_params_init (&p);
              p.rx = mcs[c].rx;
              p.rz = mcs[c].rz;
              p.backend = (fr_spr_backend) backend;
              p.double_precision = dbl;
              p.full_neighbourhood = full;
              tu_solve (&g, v, src, 2, &p, &res);
              g_snprintf (what, sizeof what, "%zux%zu radius %d,%d %s%s%s", g.nx, g.nz, p.rx,
                          p.rz, fr_spr_backend_name (res.backend), dbl ? " double" : "",
                          full ? " full" : "");
              tu_assert_times_close (ref, res.time, n, dbl ? 1e-12 : 1e-5, what);
              check_pred (&res, p.rx, p.rz);
              fr_spr_result_clear (&res);
            }
      g_free (ref);
      g_free (src);
      g_free (v);
    }
}

/* A serpentine maze: walls one cell thick every 8 rows, open at the right
 * and left ends in turn, speeds random per cell in 1–2.  Its shortest
 * paths wind along 11 corridors and turn at nearly every cell, so the
 * tiled back end needs about 37 relaxations per node and offset here. */
static float *
serpentine_maze (const fr_grid *g)
{
  GRand *rng = g_rand_new_with_seed (7);
  float *v = g_new (float, fr_grid_count (g));

  for (size_t i = 0; i < fr_grid_count (g); i++)
    v[i] = (float) g_rand_double_range (rng, 1.0, 2.0);
  for (size_t j = 8, k = 0; j + 2 < g->nz; j += 8, k++)
    for (size_t i = 0; i < g->nx; i++)
      if (k % 2 == 0 ? i + 3 < g->nx : i >= 3)
        v[j * g->nx + i] = 0.0f;
  g_rand_free (rng);
  return v;
}

/* auto on the CPU gives up the tiled back end where it would spend more
 * than Dijkstra is worth (the maze on one thread: four times Dijkstra's
 * time), and then gives Dijkstra's result exactly.  Where paths turn
 * seldom, auto stays on the tiled back end, and cpu named explicitly
 * always runs it.  The choice is the same on every run. */
static void
test_auto_gives_up_on_mazes (void)
{
  fr_grid g = fr_grid_2d (120, 96, 1.0, 1.0, 0.0, 0.0);
  float *maze = serpentine_maze (&g);
  float *smooth = g_new (float, fr_grid_count (&g));
  const double src[2] = { 0.0, 0.0 };
  const size_t n = fr_grid_count (&g);
  fr_spr_params p;
  fr_spr_result ref, res, again;

  if (fr_cuda_usable ())
    {
      g_test_skip ("auto runs CUDA where a device is usable; the CPU runs in CI");
      g_free (maze);
      g_free (smooth);
      return;
    }
  for (size_t i = 0; i < n; i++)
    smooth[i] = (float) (1.5 + 0.01 * (double) (i / g.nx) + 0.2 * sin ((double) (i % g.nx) / 9.0));

  fr_spr_params_init (&p);
  p.rx = p.rz = 3;                /* 32 offsets */
  p.threads = 1;
  p.backend = FR_SPR_DIJKSTRA;
  tu_solve (&g, maze, src, 1, &p, &ref);

  p.backend = FR_SPR_CPU;
  tu_solve (&g, maze, src, 1, &p, &res);
  g_test_message ("maze, cpu, one thread: %" G_GUINT64_FORMAT " relaxations", res.edges_relaxed);
  g_assert_cmpint (res.backend, ==, FR_SPR_CPU);
  g_assert_cmpfloat ((double) res.edges_relaxed, >, 24.0 * (double) n * 32);
  tu_assert_times_close (ref.time, res.time, n, 1e-5, "maze, cpu named");
  check_pred (&res, p.rx, p.rz);
  fr_spr_result_clear (&res);

  p.backend = FR_SPR_AUTO;
  tu_solve (&g, maze, src, 1, &p, &res);
  g_assert_cmpint (res.backend, ==, FR_SPR_DIJKSTRA);
  g_assert_cmpmem (res.time, n * sizeof (double), ref.time, n * sizeof (double));
  g_assert_cmpmem (res.pred, n * sizeof (int32_t), ref.pred, n * sizeof (int32_t));
  fr_spr_result_clear (&res);

  for (int threads = 1; threads <= 4; threads *= 2)
    {
      p.threads = threads;
      tu_solve (&g, smooth, src, 1, &p, &res);
      g_assert_cmpint (res.backend, ==, FR_SPR_CPU);
      fr_spr_result_clear (&res);

      tu_solve (&g, maze, src, 1, &p, &res);
      tu_solve (&g, maze, src, 1, &p, &again);
      g_test_message ("maze, auto, %d threads: %s", threads, fr_spr_backend_name (res.backend));
      g_assert_cmpint (res.backend, ==, again.backend);
      g_assert_cmpmem (res.time, n * sizeof (double), again.time, n * sizeof (double));
      tu_assert_times_close (ref.time, res.time, n, 1e-5, "maze, auto");
      fr_spr_result_clear (&res);
      fr_spr_result_clear (&again);
    }
  fr_spr_result_clear (&ref);
  g_free (maze);
  g_free (smooth);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spr/backends/cpu-matches-dijkstra", test_cpu_matches_dijkstra);
  g_test_add_func ("/spr/backends/cpu-tunings", test_cpu_tunings);
  g_test_add_func ("/spr/backends/reciprocity", test_reciprocity);
  g_test_add_func ("/spr/backends/radius-beyond-grid", test_radius_beyond_grid);
  g_test_add_func ("/spr/backends/auto-gives-up-on-mazes", test_auto_gives_up_on_mazes);
  return g_test_run ();
}
