/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rays: each runs from a source node to the receiver's node in steps
 * within the radius, and its edge weights (recomputed here by clipping each
 * segment against the cells, not with the library's stencils) add up to the
 * receiver's traveltime.  Around a wall with a gap, rays never cross an
 * obstacle cell and traveltimes respect the detour through the gap.  In
 * one velocity a ray follows the straight line. */
#include <glib.h>
#include <math.h>

#include "fr-spr.h"
#include "test-spr-util.h"

/* Checks one ray; returns the independent sum of its edge weights. */
static double
check_ray (const fr_grid *g, const float *v, const fr_spr_result *res, int rx, int rz,
           const double *src, size_t nsrc, double x, double z)
{
  fr_error err = { 0 };
  double *xz = NULL, sum = 0.0;
  size_t n = 0, rix, riz, pi = 0, pj = 0;
  gboolean at_source = FALSE;

  g_assert_cmpint (fr_spr_ray (res, x, z, &xz, &n, &err), ==, FR_OK);
  g_assert_cmpuint (n, >=, 1);
  for (size_t s = 0; s < nsrc; s++)
    at_source |= fabs (xz[0] - src[2 * s]) < 1e-9 && fabs (xz[1] - src[2 * s + 1]) < 1e-9;
  g_assert_true (at_source);
  g_assert_true (fr_grid_nearest_node (g, x, 0, z, &rix, NULL, &riz));
  g_assert_cmpfloat_with_epsilon (xz[2 * (n - 1)], g->x0 + (double) rix * g->dx, 1e-9);
  g_assert_cmpfloat_with_epsilon (xz[2 * (n - 1) + 1], g->z0 + (double) riz * g->dz, 1e-9);

  for (size_t k = 0; k < n; k++)
    {
      size_t i, j;
      g_assert_true (fr_grid_exact_node (g, xz[2 * k], 0, xz[2 * k + 1], &i, NULL, &j));
      if (k > 0)
        {
          int da = (int) i - (int) pi, db = (int) j - (int) pj;
          g_assert_true (da != 0 || db != 0);
          g_assert_cmpint (abs (da), <=, rx);
          g_assert_cmpint (abs (db), <=, rz);
          double w = tu_edge_weight (g, v, (int) pi, (int) pj, (int) i, (int) j);
          g_assert_true (isfinite (w));   /* no obstacle crossed, grid not left */
          sum += w;
        }
      pi = i;
      pj = j;
    }
  g_assert_cmpfloat (fabs (sum - res->time[riz * g->nx + rix]), <=,
                     1e-5 * fabs (res->time[riz * g->nx + rix]));
  g_free (xz);
  return sum;
}

/* The greatest common divisor, written here so as not to test the
 * library's with itself. */
static int
spr_gcd_for_test (int p, int q)
{
  while (q != 0)
    {
      const int t = p % q;
      p = q;
      q = t;
    }
  return p;
}

/* n sources at random nodes, none in an obstacle (v = 0), as x, z pairs. */
static void
random_open_sources (const fr_grid *g, const float *v, GRand *rng, double *src, int n)
{
  for (int s = 0; s < n; s++)
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
}

static void
test_ray_weights (void)
{
  for (guint32 seed = 21; seed < 24; seed++)
    for (int backend = FR_SPR_DIJKSTRA; backend <= FR_SPR_CPU; backend++)
      {
        fr_grid g = fr_grid_2d (55, 43, 1.5, 1.0, 100.0, 20.0);
        float *v = tu_random_model (&g, seed, 5, 6);
        GRand *rng = g_rand_new_with_seed (seed);
        double src[4];
        fr_spr_params p;
        fr_spr_result res;
        int rays = 0;

        random_open_sources (&g, v, rng, src, 2);
        fr_spr_params_init (&p);
        p.rx = 3 + (int) seed % 3;
        p.rz = 2 + (int) seed % 2;
        p.backend = (fr_spr_backend) backend;
        tu_solve (&g, v, src, 2, &p, &res);

        while (rays < 12)
          {
            /* Receivers anywhere, off-node: they snap to the nearest node. */
            double x = g.x0 + g_rand_double_range (rng, 0, (double) (g.nx - 1) * g.dx);
            double z = g.z0 + g_rand_double_range (rng, 0, (double) (g.nz - 1) * g.dz);
            size_t i, j;
            g_assert_true (fr_grid_nearest_node (&g, x, 0, z, &i, NULL, &j));
            if (isinf (res.time[j * g.nx + i]))
              continue;
            check_ray (&g, v, &res, p.rx, p.rz, src, 2, x, z);
            rays++;
          }
        fr_spr_result_clear (&res);
        g_rand_free (rng);
        g_free (v);
      }
}

/* The largest distance of the ray's points from the straight line between
 * its ends, in model units. */
static double
ray_offset_from_chord (const fr_spr_result *res, double x, double z)
{
  fr_error err = { 0 };
  double *xz = NULL, worst = 0.0;
  size_t n = 0;

  g_assert_cmpint (fr_spr_ray (res, x, z, &xz, &n, &err), ==, FR_OK);
  {
    const double x0 = xz[0], z0 = xz[1], ex = xz[2 * (n - 1)] - x0, ez = xz[2 * (n - 1) + 1] - z0;
    const double len = hypot (ex, ez);
    for (size_t k = 1; len > 0.0 && k + 1 < n; k++)
      worst = MAX (worst, fabs ((xz[2 * k] - x0) * ez - (xz[2 * k + 1] - z0) * ex) / len);
  }
  g_free (xz);
  return worst;
}

/* In one velocity every path of the two offsets that bracket the straight
 * line's direction ties; the ray must be the one along the line, within
 * half the larger spacing of it (each point lies within half a step of the
 * chord's two offsets), not a dogleg of one offset then the other (up to 32
 * cells off at radius 2 over 300 cells).  Reduced and full stencils, equal
 * and unequal radii and spacings, one source and two. */
static void
test_straight_in_one_velocity (void)
{
  const struct {
    int rx, rz;
    double dx, dz;
    gboolean full;
    int nsrc;
  } cases[] = {
    { 1, 1, 1.0, 1.0, FALSE, 1 },
    { 2, 2, 1.0, 1.0, FALSE, 1 },
    { 4, 4, 1.0, 1.0, FALSE, 2 },
    { 8, 8, 1.0, 1.0, FALSE, 1 },
    { 3, 5, 1.5, 0.5, FALSE, 1 },
    { 4, 4, 1.0, 1.0, TRUE, 1 },
    { 2, 3, 10.0, 25.0, TRUE, 2 },
  };

  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    for (int backend = FR_SPR_DIJKSTRA; backend <= FR_SPR_CPU; backend++)
      {
        fr_grid g = fr_grid_2d (97, 61, cases[c].dx, cases[c].dz, -40.0, 5.0);
        float *v = g_new (float, fr_grid_count (&g));
        double src[4], worst = 0.0;
        fr_spr_params p;
        fr_spr_result res;

        for (size_t k = 0; k < fr_grid_count (&g); k++)
          v[k] = 2.5f;
        fr_grid_node_position (&g, 13, 0, 47, &src[0], NULL, &src[1]);
        fr_grid_node_position (&g, 90, 0, 2, &src[2], NULL, &src[3]);
        fr_spr_params_init (&p);
        p.rx = cases[c].rx;
        p.rz = cases[c].rz;
        p.full_neighbourhood = cases[c].full;
        p.backend = (fr_spr_backend) backend;
        tu_solve (&g, v, src, (size_t) cases[c].nsrc, &p, &res);

        for (size_t j = 0; j < g.nz; j += 3)
          for (size_t i = 0; i < g.nx; i += 4)
            {
              double x, z;
              fr_grid_node_position (&g, i, 0, j, &x, NULL, &z);
              check_ray (&g, v, &res, p.rx, p.rz, src, (size_t) cases[c].nsrc, x, z);
              worst = MAX (worst, ray_offset_from_chord (&res, x, z));
            }
        g_test_message ("radius %d,%d, spacing %g,%g%s, %s: farthest %.3g from the chord",
                        p.rx, p.rz, g.dx, g.dz, cases[c].full ? ", full" : "",
                        fr_spr_backend_name (p.backend), worst);
        g_assert_cmpfloat (worst, <=, 0.5 * MAX (g.dx, g.dz) * (1.0 + 1e-9));
        fr_spr_result_clear (&res);
        g_free (v);
      }
}

/* A head wave (tu_head_wave_model): a slow layer (1) over a fast one (3)
 * whose interface dips across the model, a source and far receivers at the
 * surface.  Between
 * where the first arrival enters the fast layer and where it leaves it,
 * the straight chord would cross the slow layer, and every staircase of
 * the two offsets about the interface's direction inside the fast layer
 * ties.  The ray must run along the interface, as refraction has it: its
 * points in the fast layer within 1.5 cells below it (the predecessor
 * map's staircases, halved, kept them up to 15.7 cells deep here, 17 on a
 * 2001-node model).  Either back end gives the same ray, node for node. */
static void
test_head_wave_along_interface (void)
{
  const double receivers[] = { 290.0, 250.0, 200.0 };

  for (int radius = 3; radius <= 5; radius += 2)
    {
      double *first[G_N_ELEMENTS (receivers)] = { NULL };
      size_t first_n[G_N_ELEMENTS (receivers)] = { 0 };

      for (int backend = FR_SPR_DIJKSTRA; backend <= FR_SPR_CPU; backend++)
        {
          fr_grid g;
          float *v = tu_head_wave_model (&g);
          double src[2] = { 10.0, 0.0 }, deepest = 0.0;
          fr_spr_params p;
          fr_spr_result res;

          fr_spr_params_init (&p);
          p.rx = p.rz = radius;
          p.backend = (fr_spr_backend) backend;
          tu_solve (&g, v, src, 1, &p, &res);

          for (size_t r = 0; r < G_N_ELEMENTS (receivers); r++)
            {
              fr_error err = { 0 };
              double *xz = NULL;
              size_t n = 0, fast = 0;

              check_ray (&g, v, &res, p.rx, p.rz, src, 1, receivers[r], 0.0);
              g_assert_cmpint (fr_spr_ray (&res, receivers[r], 0.0, &xz, &n, &err), ==, FR_OK);
              for (size_t k = 0; k < n; k++)
                {
                  const double below = tu_head_wave_below (xz[2 * k], xz[2 * k + 1]);
                  if (below > 0.0)
                    {
                      deepest = MAX (deepest, below);
                      fast++;
                    }
                }
              /* A head wave indeed: most of the ray lies in the fast layer. */
              g_assert_cmpuint (fast, >, n / 2);
              if (first[r] == NULL)
                {
                  first[r] = xz;
                  first_n[r] = n;
                }
              else
                {
                  g_assert_cmpuint (n, ==, first_n[r]);
                  for (size_t k = 0; k < 2 * n; k++)
                    g_assert_cmpfloat (xz[k], ==, first[r][k]);
                  g_free (xz);
                }
            }
          g_test_message ("radius %d, %s: the deepest ray point in the fast layer %.2f cells "
                          "below the interface", radius, fr_spr_backend_name (p.backend), deepest);
          g_assert_cmpfloat (deepest, <=, 1.5);
          fr_spr_result_clear (&res);
          g_free (v);
        }
      for (size_t r = 0; r < G_N_ELEMENTS (receivers); r++)
        g_free (first[r]);
    }
}

/* Another of the equal-time predecessor maps: for each node, of the
 * neighbours u whose T(u) plus the edge's weight (recomputed here) gives
 * T to 1e-10 relative, the one a hash of (u, node) ranks first, rather
 * than the one the solve met first.  Rays are read through it. */
static void
shuffle_tied_predecessors (const fr_grid *g, const float *v, int r, fr_spr_result *res)
{
  int32_t *pred = g_new (int32_t, fr_grid_count (g));

  for (size_t j = 0; j < g->nz; j++)
    for (size_t i = 0; i < g->nx; i++)
      {
        const size_t node = j * g->nx + i;
        const double t = res->time[node];
        guint best_rank = 0;

        pred[node] = res->pred[node];
        if (pred[node] < 0)
          continue;
        for (int b = -r; b <= r; b++)
          for (int a = -r; a <= r; a++)
            {
              const long ui = (long) i - a, uj = (long) j - b;
              size_t u;
              double w;
              guint rank;

              if ((a == 0 && b == 0) || spr_gcd_for_test (abs (a), abs (b)) != 1 || ui < 0
                  || uj < 0 || ui >= (long) g->nx || uj >= (long) g->nz)
                continue;
              u = (size_t) uj * g->nx + (size_t) ui;
              w = tu_edge_weight (g, v, (int) ui, (int) uj, (int) i, (int) j);
              if (!isfinite (w) || fabs (res->time[u] + w - t) > 1e-10 * t)
                continue;
              rank = g_int_hash (&(gint) { (gint) (u * 2654435761u + node) }) | 1u;
              if (rank > best_rank)
                {
                  best_rank = rank;
                  pred[node] = (int32_t) u;
                }
            }
      }
  memcpy (res->pred, pred, fr_grid_count (g) * sizeof *pred);
  g_free (pred);
}

/* The straightening depends on the model and the ray's ends, not on which
 * of the equal-time paths the back end's map holds: on the head-wave model
 * the rays through another tied map (shuffle_tied_predecessors) are the
 * same, node for node, for receivers at the surface (head waves) and in
 * the fast layer (straight in it).  So the back ends, whose maps differ by
 * such ties, give the same rays (CUDA's and Dijkstra's did not, before). */
static void
test_rays_of_any_tied_map (void)
{
  const double receivers[][2] = {
    { 290.0, 0.0 }, { 250.0, 0.0 }, { 200.0, 0.0 }, { 150.0, 110.0 }, { 280.0, 95.0 },
  };

  for (int radius = 3; radius <= 5; radius += 2)
    {
      fr_grid g;
      float *v = tu_head_wave_model (&g);
      double src[2] = { 10.0, 0.0 };
      double *before[G_N_ELEMENTS (receivers)];
      size_t nbefore[G_N_ELEMENTS (receivers)];
      size_t moved = 0;
      fr_spr_params p;
      fr_spr_result res;
      int32_t *given;

      fr_spr_params_init (&p);
      p.rx = p.rz = radius;
      p.backend = FR_SPR_DIJKSTRA;
      tu_solve (&g, v, src, 1, &p, &res);
      for (size_t r = 0; r < G_N_ELEMENTS (receivers); r++)
        {
          fr_error err = { 0 };
          g_assert_cmpint (fr_spr_ray (&res, receivers[r][0], receivers[r][1], &before[r],
                                       &nbefore[r], &err), ==, FR_OK);
        }
      given = g_memdup2 (res.pred, fr_grid_count (&g) * sizeof *given);
      shuffle_tied_predecessors (&g, v, radius, &res);
      for (size_t k = 0; k < fr_grid_count (&g); k++)
        moved += res.pred[k] != given[k];
      g_test_message ("radius %d: another tied predecessor for %zu of %zu nodes", radius, moved,
                      fr_grid_count (&g));
      g_assert_cmpuint (moved, >, fr_grid_count (&g) / 10);
      for (size_t r = 0; r < G_N_ELEMENTS (receivers); r++)
        {
          fr_error err = { 0 };
          double *after = NULL;
          size_t nafter = 0;

          check_ray (&g, v, &res, p.rx, p.rz, src, 1, receivers[r][0], receivers[r][1]);
          g_assert_cmpint (fr_spr_ray (&res, receivers[r][0], receivers[r][1], &after, &nafter,
                                       &err), ==, FR_OK);
          g_assert_cmpuint (nafter, ==, nbefore[r]);
          for (size_t k = 0; k < 2 * nafter; k++)
            g_assert_cmpfloat (after[k], ==, before[r][k]);
          g_free (after);
          g_free (before[r]);
        }
      g_free (given);
      fr_spr_result_clear (&res);
      g_free (v);
    }
}

/* Blocks of constant velocity and obstacles: long runs in one velocity
 * whose chords pass other blocks, so that a straight path must be given up
 * or split.  Every ray must stay a shortest path (check_ray's independent
 * weights add up to its traveltime) and never cross an obstacle. */
static void
test_straight_among_blocks (void)
{
  for (guint32 seed = 40; seed < 46; seed++)
    for (int backend = FR_SPR_DIJKSTRA; backend <= FR_SPR_CPU; backend++)
      {
        fr_grid g = fr_grid_2d (80, 64, 1.0, 1.25, 0.0, 0.0);
        float *v = g_new (float, fr_grid_count (&g));
        const float block_v[] = { 1.2f, 3.5f, 0.0f, 2.7f, 0.0f, 4.1f };
        GRand *rng = g_rand_new_with_seed (seed);
        double src[4];
        fr_spr_params p;
        fr_spr_result res;

        for (size_t k = 0; k < fr_grid_count (&g); k++)
          v[k] = 2.0f;
        for (size_t b = 0; b < G_N_ELEMENTS (block_v); b++)
          {
            int i0 = g_rand_int_range (rng, 0, 70), j0 = g_rand_int_range (rng, 0, 54);
            int w = g_rand_int_range (rng, 2, 25), h = g_rand_int_range (rng, 1, 20);
            for (int j = j0; j < MIN (j0 + h, (int) g.nz); j++)
              for (int i = i0; i < MIN (i0 + w, (int) g.nx); i++)
                v[(size_t) j * g.nx + (size_t) i] = block_v[b];
          }
        random_open_sources (&g, v, rng, src, 2);
        fr_spr_params_init (&p);
        p.rx = 2 + (int) seed % 5;
        p.rz = 1 + (int) seed % 4;
        p.full_neighbourhood = seed % 3 == 0;
        p.backend = (fr_spr_backend) backend;
        tu_solve (&g, v, src, 2, &p, &res);
        for (size_t j = 0; j < g.nz; j += 3)
          for (size_t i = 0; i < g.nx; i += 3)
            if (isfinite (res.time[j * g.nx + i]))
              check_ray (&g, v, &res, p.rx, p.rz, src, 2, (double) i * g.dx, (double) j * g.dz);
        fr_spr_result_clear (&res);
        g_rand_free (rng);
        g_free (v);
      }
}

/* min over p on x = xw, z in [zlo, zhi] of |s - p| + |p - r|: the function
 * is convex in z, so the minimum is at the straight line's crossing clamped
 * to the interval. */
static double
detour (double sx, double sz, double rx, double rz, double xw, double zlo, double zhi)
{
  double t = (xw - sx) / (rx - sx);
  double zc = CLAMP (sz + t * (rz - sz), zlo, zhi);
  return hypot (xw - sx, zc - sz) + hypot (rx - xw, rz - zc);
}

static void
test_wall_with_gap (void)
{
  const size_t nx = 60, nz = 40;
  const size_t wall = 30, gap0 = 6, gap1 = 9;   /* the gap: rows 6..9 of column 30 */
  const double d = 1.0, vel = 2.0;
  fr_grid g = fr_grid_2d (nx, nz, d, d, 0.0, 0.0);
  float *v = g_new (float, nx * nz);
  double src[2] = { 12.0, 30.0 };
  fr_spr_params p;
  fr_error err = { 0 };
  double *xz = NULL;
  size_t n = 0;

  for (size_t j = 0; j < nz; j++)
    for (size_t i = 0; i < nx; i++)
      v[j * nx + i] = (i == wall && (j < gap0 || j > gap1)) ? 0.0f : (float) vel;

  for (int backend = FR_SPR_DIJKSTRA; backend <= FR_SPR_CPU; backend++)
    {
      fr_spr_result res;
      fr_spr_params_init (&p);
      p.backend = (fr_spr_backend) backend;
      tu_solve (&g, v, src, 1, &p, &res);

      for (size_t j = 0; j < nz; j++)
        for (size_t i = 0; i < nx; i++)
          {
            double t = res.time[j * nx + i];
            if (i == wall && (j < gap0 || j > gap1))
              {
                /* Inside the wall: unreached, and no ray leads there. */
                g_assert_true (isinf (t));
                g_assert_cmpint (fr_spr_ray (&res, (double) i, (double) j, &xz, &n, &err), ==,
                                 FR_E_INPUT);
                g_assert_nonnull (strstr (err.message, "not reached"));
                continue;
              }
            g_assert_true (isfinite (t));
            if (i > wall)
              {
                double bound = detour (src[0], src[1], (double) i, (double) j, (double) wall,
                                       gap0 - 0.5, gap1 + 0.5) / vel;
                g_assert_cmpfloat (t, >=, bound * (1 - 1e-9));
                if (j % 5 == 0)
                  check_ray (&g, v, &res, p.rx, p.rz, src, 1, (double) i, (double) j);
              }
          }
      fr_spr_result_clear (&res);
    }
  g_free (v);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spr/ray/weights", test_ray_weights);
  g_test_add_func ("/spr/ray/wall-with-gap", test_wall_with_gap);
  g_test_add_func ("/spr/ray/straight-in-one-velocity", test_straight_in_one_velocity);
  g_test_add_func ("/spr/ray/straight-among-blocks", test_straight_among_blocks);
  g_test_add_func ("/spr/ray/head-wave-along-interface", test_head_wave_along_interface);
  g_test_add_func ("/spr/ray/rays-of-any-tied-map", test_rays_of_any_tied_map);
  return g_test_run ();
}
