/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Walls: an impermeable wall is never crossed, the front reaches around
 * it through a narrow opening (Ex_C), and a semi-permeable wall (Ex_B) is
 * crossed slowly.  Truth is a pair of bounds derived without any graph
 * search: every path to the far side crosses the wall's mid-plane inside
 * the opening, so
 *     T(x) >= min over y in the opening of (|s − y| + |y − x|) / F,
 * and the path s → a → b → x through the points a, b where the straight
 * crossing height, clamped into the opening, meets the wall's two faces is
 * free, so T(x) is at most its length / F (plus the scheme's error).
 * A wall drawn as a staircase of nodes that touch only at corners (what a
 * slanted thin wall rasterises to) is just as impermeable, in 2D and 3D.
 * And a point source starts only the nodes of its ball that it sees. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "test-fold-common.h"
#include "fold-private.h"   /* fold_init_start, fold_tau */

/* min over y in [lo, hi] (at x = xw) of |s − y| + |y − x| in 2D (x, z):
 * the straight crossing height, clamped (the function is convex in y). */
static double
via_opening_2d (const double s[2], const double x[2], double xw, double lo, double hi, double *zc)
{
  double t = (xw - s[0]) / (x[0] - s[0]);
  double z = s[1] + t * (x[1] - s[1]);
  z = fmin (hi, fmax (lo, z));
  if (zc)
    *zc = z;
  return hypot (xw - s[0], z - s[1]) + hypot (x[0] - xw, x[1] - z);
}

static void
wall_2d (gboolean open, float wall_speed, fr_fold_result *res, fr_grid *g, float **F_out)
{
  *g = fr_grid_2d (161, 121, 0.0125, 0.0125, 0, 0);   /* [0, 2] × [0, 1.5] */
  size_t n = fr_grid_count (g);
  float *F = g_new (float, n);
  double src[2] = { 0.5, 1.1 };

  for (size_t i = 0; i < n; i++)
    {
      size_t ix = i % g->nx, iz = i / g->nx;
      /* Wall: node columns 78..82 (x 0.975..1.025); opening rows 56..64
       * (z 0.7..0.8) unless closed. */
      gboolean wall = ix >= 78 && ix <= 82 && !(open && iz >= 56 && iz <= 64);
      F[i] = wall ? wall_speed : 1.0f;
    }
  fr_fold_params p;
  fr_fold_params_init (&p);
  p.speed = F;
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  fold_solve_ok (g, &st, &p, res);
  *F_out = F;
}

static void
test_opening_2d (void)
{
  fr_grid g;
  fr_fold_result res;
  float *F;
  double s[2] = { 0.5, 1.1 };

  wall_2d (TRUE, 0.0f, &res, &g, &F);
  double worst_lo = 0.0, worst_hi = 0.0;
  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 84; ix < g.nx; ix++)
      {
        double x[2] = { ix * g.dx, iz * g.dz };
        double t = res.time[fr_grid_index (&g, ix, 0, iz)];
        g_assert_true (isfinite (t));   /* the front reaches around */
        /* The free rows span z in [0.7, 0.8]; their cells [0.69375, 0.80625]. */
        double lo = via_opening_2d (s, x, 1.0, 0.69375, 0.80625, NULL);
        double zc;
        via_opening_2d (s, x, 1.0, 0.7, 0.8, &zc);
        double hi = hypot (0.975 - s[0], zc - s[1]) + 0.05 + hypot (x[0] - 1.025, x[1] - zc);
        worst_lo = fmax (worst_lo, (lo - t) / lo);
        worst_hi = fmax (worst_hi, (t - hi) / hi);
        g_assert_cmpfloat (t, >=, lo * (1.0 - 1e-6));
        g_assert_cmpfloat (t, <=, hi * 1.03 + 2 * g.dx);
      }
  g_test_message ("behind the wall: T below the lower bound by at most %.2e, above the path by at most %.2f%%",
                  worst_lo, 100 * worst_hi);
  /* Wall nodes stay unreached. */
  for (size_t iz = 0; iz < g.nz; iz++)
    if (iz < 56 || iz > 64)
      g_assert_true (isinf (res.time[fr_grid_index (&g, 80, 0, iz)]));
  fr_fold_result_clear (&res);
  g_free (F);
}

/* Obstacle nodes on a line of slope num/den through the grid, as a
 * staircase: each node touches the next at most at a corner when the
 * slope is 1, and along runs then at corners otherwise.  Everything past
 * it must stay unreached, for any ψa.  Mirrored in x too (the wall and
 * source mirrored, ψa's x negated): a wall leaning the other way is
 * stopped by the other side of a sub-sweep's stencil, which the walls of
 * one leaning alone left untested. */
static void
test_diagonal_wall_2d (void)
{
  static const struct { int num, den; double psi[2]; } walls[] = {
    { 1, 1, { 0.0, 0.0 } },
    { 1, 1, { 0.4, 0.3 } },
    { 1, 1, { -0.5, 0.2 } },
    { 1, 2, { 0.3, -0.4 } },
    { 2, 1, { 0.0, 0.6 } },
  };

  for (size_t w = 0; w < G_N_ELEMENTS (walls); w++)
    for (int mirror = 0; mirror <= 1; mirror++)
    for (int method = FR_FOLD_LAS; method <= FR_FOLD_SOLAS; method++)
      {
        fr_grid g = fr_grid_2d (97, 89, 0.01, 0.01, 0, 0);
        size_t n = fr_grid_count (&g), beyond = 0;
        float *F = g_new (float, n);
        /* Node column ix of the unmirrored case. */
#define COL(ix) ((size_t) (mirror ? (int) g.nx - 1 - (int) (ix) : (int) (ix)))
        double src[2] = { mirror ? (double) (g.nx - 1) * g.dx - 0.1 : 0.1, 0.1 };
        fr_fold_params p;
        fr_fold_result res;

        /* Wall: the line num·ix + den·iz = 60·den, one node per column
         * (slope <= 1) or per row (slope > 1), rounded down: consecutive
         * wall nodes touch at corners.  "Beyond" is above the line. */
        const int num = walls[w].num, den = walls[w].den;
        for (size_t i = 0; i < n; i++)
          F[i] = 1.0f;
        if (num <= den)
          for (int ix = 0; ix < (int) g.nx; ix++)
            {
              int iz = (int) floor ((60.0 * den - (double) num * ix) / den);
              if (iz >= 0 && iz < (int) g.nz)
                F[fr_grid_index (&g, COL (ix), 0, (size_t) iz)] = 0.0f;
            }
        else
          for (int iz = 0; iz < (int) g.nz; iz++)
            {
              int ix = (int) floor ((60.0 * den - (double) den * iz) / num);
              if (ix >= 0 && ix < (int) g.nx)
                F[fr_grid_index (&g, COL (ix), 0, (size_t) iz)] = 0.0f;
            }
        fr_fold_params_init (&p);
        p.speed = F;
        p.psi_a[0] = mirror ? -walls[w].psi[0] : walls[w].psi[0];
        p.psi_a[2] = walls[w].psi[1];
        p.method = (fr_fold_method) method;
        fr_fold_start st = { .sources = src, .nsrc = 1 };
        fold_solve_ok (&g, &st, &p, &res);
        for (size_t iz = 0; iz < g.nz; iz++)
          for (size_t ix = 0; ix < g.nx; ix++)
            {
              double x = (double) ix, z = (double) iz;
              /* strictly past the line (by more than one node) */
              if (num * x + den * z <= 60.0 * den + den + num)
                continue;
              beyond++;
              double t = res.time[fr_grid_index (&g, COL (ix), 0, iz)];
              if (!isinf (t))
                g_error ("wall %zu%s (slope %d/%d, psi %g,%g, %s): node (%zu, %zu) beyond it "
                         "reached at T = %g", w, mirror ? " mirrored" : "", walls[w].num,
                         walls[w].den, p.psi_a[0], p.psi_a[2], fr_fold_method_name (res.method),
                         COL (ix), iz, t);
            }
        g_assert_cmpuint (beyond, >, 100);
        /* and the near side is reached */
        g_assert_true (isfinite (res.time[fr_grid_index (&g, COL (10), 0, 10)]));
#undef COL
        fr_fold_result_clear (&res);
        g_free (F);
      }
}

/* 3D walls one node thick whose nodes touch along edges (the plane
 * ix + iz = 24, every iy) or only at corners (ix + iy + iz = 30): nothing
 * past them may be reached, for any ψa and both methods. */
static void
test_diagonal_wall_3d (void)
{
  static const struct { int cy; double psi[3]; } walls[] = {
    { 0, { 0.0, 0.0, 0.0 } },
    { 0, { 0.3, -0.2, 0.35 } },
    { 1, { 0.0, 0.0, 0.0 } },
    { 1, { 0.35, 0.3, 0.3 } },
    { 1, { -0.3, 0.4, 0.2 } },
  };

  for (size_t w = 0; w < G_N_ELEMENTS (walls); w++)
    for (int method = FR_FOLD_LAS; method <= FR_FOLD_SOLAS; method++)
      {
        fr_grid g = fr_grid_3d (37, 35, 33, 0.025, 0.025, 0.025, 0, 0, 0);
        size_t n = fr_grid_count (&g), beyond = 0;
        float *F = g_new (float, n);
        const int cy = walls[w].cy, level = cy ? 30 : 24;
        double src[3] = { 0.1, 0.1, 0.1 };
        fr_fold_params p;
        fr_fold_result res;

        for (size_t i = 0; i < n; i++)
          {
            long ix = (long) (i % g.nx), iy = (long) ((i / g.nx) % g.ny), iz = (long) (i / (g.nx * g.ny));
            F[i] = ix + cy * iy + iz == level ? 0.0f : 1.0f;
          }
        fr_fold_params_init (&p);
        p.speed = F;
        memcpy (p.psi_a, walls[w].psi, sizeof p.psi_a);
        p.method = (fr_fold_method) method;
        fr_fold_start st = { .sources = src, .nsrc = 1 };
        fold_solve_ok (&g, &st, &p, &res);
        for (size_t i = 0; i < n; i++)
          {
            long ix = (long) (i % g.nx), iy = (long) ((i / g.nx) % g.ny), iz = (long) (i / (g.nx * g.ny));
            if (ix + cy * iy + iz <= level)
              continue;
            beyond++;
            if (!isinf (res.time[i]))
              g_error ("wall %zu (%s, psi %g,%g,%g, %s): node (%ld, %ld, %ld) beyond it reached "
                       "at T = %g", w, cy ? "corners" : "edges", walls[w].psi[0], walls[w].psi[1],
                       walls[w].psi[2], fr_fold_method_name (res.method), ix, iy, iz,
                       res.time[i]);
          }
        g_assert_cmpuint (beyond, >, 1000);
        g_assert_true (isfinite (res.time[fr_grid_index (&g, 4, 4, 4)]));
        fr_fold_result_clear (&res);
        g_free (F);
      }
}

static void
test_closed_2d (void)
{
  fr_grid g;
  fr_fold_result res;
  float *F;

  wall_2d (FALSE, 0.0f, &res, &g, &F);
  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 78; ix < g.nx; ix++)
      g_assert_true (isinf (res.time[fr_grid_index (&g, ix, 0, iz)]));
  fr_fold_result_clear (&res);
  g_free (F);
}

static void
test_semi_permeable_2d (void)
{
  fr_grid g;
  fr_fold_result res;
  float *F;
  const float fw = 0.03f;   /* Ex_B's slow walls */

  wall_2d (FALSE, fw, &res, &g, &F);
  /* Crossing 5 wall nodes takes at least the 4 spacings between the first
   * and the last at the wall's speed. */
  double cross = 4 * g.dx / fw;
  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 83; ix < g.nx; ix++)
      {
        double x[2] = { ix * g.dx, iz * g.dz };
        double t = res.time[fr_grid_index (&g, ix, 0, iz)];
        g_assert_true (isfinite (t));
        g_assert_cmpfloat (t, >=, cross + (hypot (x[0] - 0.5, x[1] - 1.1) - 5 * g.dx));
      }
  fr_fold_result_clear (&res);
  g_free (F);
}

/* 3D: a wall x in [0.45, 0.55] with a square opening; the lower bound's
 * minimum over the opening square is sampled, less the sampling slack (the
 * function is 2-Lipschitz in y, so a sample within δ·√2/2 of the true
 * minimiser is at most √2·δ above it). */
static void
test_opening_3d (void)
{
  fr_grid g = fr_grid_3d (41, 41, 41, 0.025, 0.025, 0.025, 0, 0, 0);
  size_t n = fr_grid_count (&g);
  float *F = g_new (float, n);
  double s[3] = { 0.2, 0.7, 0.75 };

  for (size_t i = 0; i < n; i++)
    {
      size_t ix = i % g.nx, iy = (i / g.nx) % g.ny, iz = i / (g.nx * g.ny);
      gboolean opening = iy >= 16 && iy <= 20 && iz >= 12 && iz <= 16;   /* y 0.4..0.5, z 0.3..0.4 */
      F[i] = (ix >= 18 && ix <= 22 && !opening) ? 0.0f : 1.0f;
    }
  fr_fold_params p;
  fr_fold_params_init (&p);
  p.speed = F;
  fr_fold_start st = { .sources = s, .nsrc = 1 };
  fr_fold_result res;
  fold_solve_ok (&g, &st, &p, &res);

  const int m = 40;
  const double ylo = 0.3875, yhi = 0.5125, zlo = 0.2875, zhi = 0.4125;   /* the free cells */
  const double delta = fmax (yhi - ylo, zhi - zlo) / m;
  for (size_t iz = 0; iz < g.nz; iz += 2)
    for (size_t iy = 0; iy < g.ny; iy += 2)
      for (size_t ix = 24; ix < g.nx; ix += 2)
        {
          double x[3] = { ix * g.dx, iy * g.dy, iz * g.dz };
          double t = res.time[fr_grid_index (&g, ix, iy, iz)];
          g_assert_true (isfinite (t));
          double lo = INFINITY;
          for (int a = 0; a <= m; a++)
            for (int b = 0; b <= m; b++)
              {
                double y[3] = { 0.5, ylo + (yhi - ylo) * a / m, zlo + (zhi - zlo) * b / m };
                double d1 = sqrt ((y[0] - s[0]) * (y[0] - s[0]) + (y[1] - s[1]) * (y[1] - s[1]) + (y[2] - s[2]) * (y[2] - s[2]));
                double d2 = sqrt ((y[0] - x[0]) * (y[0] - x[0]) + (y[1] - x[1]) * (y[1] - x[1]) + (y[2] - x[2]) * (y[2] - x[2]));
                lo = fmin (lo, d1 + d2);
              }
          lo -= sqrt (2.0) * delta;
          g_assert_cmpfloat (t, >=, lo);
          /* Not absurdly above it either: the wall is 0.1 thick. */
          g_assert_cmpfloat (t, <=, 1.1 * (lo + 0.1) + 0.05);
        }
  fr_fold_result_clear (&res);

  /* Closed: nothing beyond the wall is reached. */
  for (size_t i = 0; i < n; i++)
    if (i % g.nx >= 18 && i % g.nx <= 22)
      F[i] = 0.0f;
  fold_solve_ok (&g, &st, &p, &res);
  for (size_t i = 0; i < n; i++)
    if (i % g.nx >= 18)
      g_assert_true (isinf (res.time[i]));
  fr_fold_result_clear (&res);
  g_free (F);
}

/* Whether the straight segment a -> x meets no obstacle, by the plain
 * definition: points every quarter of the smallest spacing, each judged
 * by its nearest node. */
static bool
in_sight (const fr_grid *g, const float *F, const double a[3], const double x[3])
{
  const double h = fmin (g->dx, fmin (g->dy, g->dz));
  const double len = sqrt ((x[0] - a[0]) * (x[0] - a[0]) + (x[1] - a[1]) * (x[1] - a[1])
                           + (x[2] - a[2]) * (x[2] - a[2]));
  const int n = (int) ceil (len / (0.25 * h)) + 1;
  for (int i = 0; i <= n; i++)
    {
      const double t = (double) i / n;
      const long ix = lround ((a[0] + t * (x[0] - a[0]) - g->x0) / g->dx);
      const long iy = lround ((a[1] + t * (x[1] - a[1]) - g->y0) / g->dy);
      const long iz = lround ((a[2] + t * (x[2] - a[2]) - g->z0) / g->dz);
      if (!(F[fr_grid_index (g, (size_t) ix, (size_t) iy, (size_t) iz)] > 0.0f))
        return false;
    }
  return true;
}

/* Point sources' start values near a wall, against a plain reference:
 * each free node within the radius of a source starts at the least τ over
 * the sources it sees.  Two sources face each other across the wall, so
 * their balls overlap on both sides of it and each hides part of the
 * other's; a third lies far from it, where the library skips the sight
 * test (no obstacle near the ball: every segment is clear). */
static void
test_source_sight_3d (void)
{
  fr_grid g = fr_grid_3d (41, 37, 33, 0.025, 0.025, 0.025, 0, 0, 0);
  const size_t n = fr_grid_count (&g);
  const double radius = 0.2, psi[3] = { 0.2, -0.1, 0.15 };
  /* s0 4 nodes before the wall (x index 20), s2 4 nodes behind it, s1
   * far from it. */
  const double src[9] = { 0.40, 0.45, 0.40, 0.15, 0.20, 0.12, 0.60, 0.45, 0.45 };
  float *F = g_new (float, n);
  double *want = g_new (double, n);

  for (size_t i = 0; i < n; i++)
    {
      double x[3];
      fold_node_xyz (&g, i, x);
      const size_t ix = i % g.nx, iz = i / (g.nx * g.ny);
      /* A constant speed but for the wall: τ is exact in every ball, and
       * sight is what is tested (balls in varying speed are
       * test-fold-source-speed's). */
      F[i] = ix == 20 && iz >= 5 ? 0.0f : 1.3f;
    }
  size_t started = 0, hidden = 0;
  for (size_t i = 0; i < n; i++)
    {
      double x[3];
      fold_node_xyz (&g, i, x);
      want[i] = INFINITY;
      for (int k = 0; k < 3 && F[i] > 0.0f; k++)
        {
          const double *s = src + 3 * k;
          const double d[3] = { x[0] - s[0], x[1] - s[1], x[2] - s[2] };
          const double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
          if (dd > radius * radius)
            continue;
          if (!in_sight (&g, F, s, x))
            {
              hidden++;
              continue;
            }
          const float Fs = F[fr_grid_index (&g, (size_t) lround (s[0] / g.dx),
                                             (size_t) lround (s[1] / g.dy),
                                             (size_t) lround (s[2] / g.dz))];
          const double c = (double) Fs * Fs - (psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2]);
          want[i] = fmin (want[i], fold_tau (psi[0] * d[0] + psi[1] * d[1] + psi[2] * d[2], dd, c));
        }
      started += isfinite (want[i]);
    }
  g_assert_cmpuint (hidden, >, 100);     /* the wall does hide part of the balls */

  fr_fold_start st = { .sources = src, .nsrc = 3 };
  fold_starts list;
  fr_error err = { 0 };
  g_assert_cmpint (fold_init_start (&g, F, psi, &st, radius, &list, &err), ==, FR_OK);
  g_assert_cmpuint (list.n, ==, started);
  for (size_t j = 0; j < list.n; j++)
    {
      const fold_start_node *e = &list.node[j];
      if (j > 0)   /* in index order, one entry per node */
        g_assert_cmpuint (e->idx, >, list.node[j - 1].idx);
      g_assert_cmpuint (e->idx, <, n);
      if (!(fabs (e->t - want[e->idx]) <= 1e-12 * fmax (1.0, fabs (want[e->idx]))))
        g_error ("node %zu starts at %.17g, the least τ over the sources in sight is %.17g",
                 e->idx, e->t, want[e->idx]);
      g_assert_false (e->frozen);
    }
  g_test_message ("%zu started nodes, %zu (node, source) pairs hidden by the wall", started,
                  hidden);
  fold_starts_free (&list);
  g_free (F);
  g_free (want);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fold/obstacles/opening-2d", test_opening_2d);
  g_test_add_func ("/fold/obstacles/closed-2d", test_closed_2d);
  g_test_add_func ("/fold/obstacles/diagonal-wall-2d", test_diagonal_wall_2d);
  g_test_add_func ("/fold/obstacles/semi-permeable-2d", test_semi_permeable_2d);
  g_test_add_func ("/fold/obstacles/opening-3d", test_opening_3d);
  g_test_add_func ("/fold/obstacles/diagonal-wall-3d", test_diagonal_wall_3d);
  g_test_add_func ("/fold/obstacles/source-sight-3d", test_source_sight_3d);
  return g_test_run ();
}
