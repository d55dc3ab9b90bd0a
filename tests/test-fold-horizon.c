/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Start conditions other than point sources: a 2D horizon polyline (the
 * front grows to both sides) and a boundary grid of fixed start values. */
#include <glib.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "test-fold-common.h"
#include "fold-private.h"   /* fold_polyline_time */

/* A flat horizon z = z0 across the grid: plane fronts move off it with
 * normal speed F + ψ·n, so T = (z − z0)/(F + ψz) below it and
 * (z0 − z)/(F − ψz) above, wherever the characteristic x − ψx·T leads back
 * to the part of the horizon inside the grid, kept as a margin from the
 * edges (the front from the rest enters through them:
 * /fold/horizon/beyond-grid). */
static void
test_flat (gconstpointer data)
{
  double psi_z = ((const double *) data)[1], psi_x = ((const double *) data)[0];
  fr_grid g = fr_grid_2d (81, 61, 0.025, 0.025, 0, 0);
  double hz[4] = { -1.0, 0.7125, 3.0, 0.7125 };
  fr_fold_params p;
  fr_fold_start st = { .horizon = hz, .nhorizon = 2 };
  fr_fold_result res;
  const double F = 1.3;

  fr_fold_params_init (&p);
  p.speed_const = F;
  p.psi_a[0] = psi_x, p.psi_a[2] = psi_z;
  fold_solve_ok (&g, &st, &p, &res);
  double emax = 0.0;
  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      {
        double z = iz * g.dz, dz = z - hz[1];
        double exact = dz >= 0 ? dz / (F + psi_z) : -dz / (F - psi_z);
        double foot = ix * g.dx - psi_x * exact;
        /* (The scheme's domain of dependence is wider than the
         * characteristic's: keep a margin.) */
        if (foot < 0.25 || foot > 1.75)
          continue;
        emax = fmax (emax, fabs (res.time[fr_grid_index (&g, ix, 0, iz)] - exact));
      }
  g_test_message ("flat horizon, psi (%g, %g): max error %.2e", psi_x, psi_z, emax);
  /* A plane front is linear in T: the scheme is exact up to rounding. */
  g_assert_cmpfloat (emax, <, 1e-5);
  fr_fold_result_clear (&res);
}

/* A dipping line longer than the grid (from (−1, −1) to (4, 2.5) over a
 * 3 × 1.5 grid): the front from its parts outside enters through the
 * edges, so every node has the plane front's time d/(F + ψ·n), n the unit
 * normal towards the node.  With only the band of nodes near the line
 * inside, the corners took the time from the line's cut ends: 0.13 off
 * isotropic, 0.17 with ψ, against 0.0045 now (first order, h = 0.025). */
static void
test_beyond_grid (void)
{
  static const double psis[2][2] = { { 0.0, 0.0 }, { 0.3, -0.2 } };
  fr_grid g = fr_grid_2d (121, 61, 0.025, 0.025, 0, 0);
  double line[4] = { -1.0, -1.0, 4.0, 2.5 };
  fr_fold_start st = { .horizon = line, .nhorizon = 2 };
  const double F = 1.3, len = hypot (5.0, 3.5);
  const double n[2] = { -3.5 / len, 5.0 / len };

  for (int k = 0; k < 2; k++)
    {
      fr_fold_params p;
      fr_fold_result res;
      double emax = 0.0, psi_n = psis[k][0] * n[0] + psis[k][1] * n[1];

      fr_fold_params_init (&p);
      p.speed_const = F;
      p.psi_a[0] = psis[k][0], p.psi_a[2] = psis[k][1];
      p.double_precision = true;
      fold_solve_ok (&g, &st, &p, &res);
      for (size_t iz = 0; iz < g.nz; iz++)
        for (size_t ix = 0; ix < g.nx; ix++)
          {
            double d = (ix * g.dx - line[0]) * n[0] + (iz * g.dz - line[1]) * n[1];
            double exact = d >= 0 ? d / (F + psi_n) : -d / (F - psi_n);

            emax = fmax (emax, fabs (res.time[fr_grid_index (&g, ix, 0, iz)] - exact));
          }
      g_test_message ("dipping line beyond the grid, psi (%g, %g): max error %.2e",
                      psis[k][0], psis[k][1], emax);
      g_assert_cmpfloat (emax, <, 0.5 * g.dx);
      fr_fold_result_clear (&res);
    }
}

static double
polygon_distance (const double *p, int n, double x, double z)
{
  double best = INFINITY;
  for (int k = 0; k + 1 < n; k++)
    {
      double ex = p[2 * k + 2] - p[2 * k], ez = p[2 * k + 3] - p[2 * k + 1];
      double t = ((x - p[2 * k]) * ex + (z - p[2 * k + 1]) * ez) / (ex * ex + ez * ez);
      t = fmin (1.0, fmax (0.0, t));
      best = fmin (best, hypot (x - p[2 * k] - t * ex, z - p[2 * k + 1] - t * ez));
    }
  return best;
}

/* A horizon beyond the grid's top edge, to the left of a wall (speed 0)
 * that stands on that edge and reaches 0.6 into the grid.  The start
 * values continue the medium outward, wall included, so the front reaches
 * the top edge right of the wall only round its foot, inside: T there lies
 * between 0.9 + the distance from the wall's foot (the horizon is 0.3
 * above the grid) and a path safely round it, where the edge nodes took
 * the straight path over the wall (0.76 at x = 1 against 1.6).  The ray to
 * such a node goes round the foot; left of the wall T is 0.3. */
static void
test_beyond_grid_wall (void)
{
  fr_grid g = fr_grid_2d (41, 21, 0.05, 0.05, 0, 0);
  const size_t n = fr_grid_count (&g);
  float *F = g_new (float, n);
  double line[4] = { -1.0, -0.3, 0.3, -0.3 };
  fr_fold_start st = { .horizon = line, .nhorizon = 2 };
  fr_fold_params p;
  fr_fold_result res;
  int checked = 0;

  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      F[fr_grid_index (&g, ix, 0, iz)] = ix >= 10 && ix <= 12 && iz <= 12 ? 0.0f : 1.0f;
  fr_fold_params_init (&p);
  p.speed = F;
  p.double_precision = true;
  fold_solve_ok (&g, &st, &p, &res);
  for (size_t ix = 0; ix <= 6; ix++)
    g_assert_cmpfloat (fabs (res.time[fr_grid_index (&g, ix, 0, 0)] - 0.3), <=, 1e-9);
  for (size_t ix = 14; ix < g.nx; ix++)
    {
      const double x = (double) ix * g.dx;
      const double lower = 0.9 + hypot (x - 0.6, 0.6);
      const double upper = hypot (0.15, 1.0) + 0.25 + hypot (x - 0.7, 0.7);
      const double t = res.time[fr_grid_index (&g, ix, 0, 0)];

      if (!(t >= lower - 2 * g.dx && t <= upper + 2 * g.dx))
        g_error ("T at (%g, 0) is %g, not within [%g, %g] round the wall", x, t, lower, upper);
      checked++;
    }
  g_assert_cmpint (checked, ==, 27);

  double rcv[2] = { 1.0, 0.0 }, *pts = NULL, zmax = 0.0;
  size_t np = 0;
  fr_error err = { 0 };
  g_assert_cmpint (fr_fold_ray (&res, rcv, &pts, &np, &err), ==, FR_OK);
  g_assert_cmpfloat (polygon_distance (line, 2, pts[0], pts[1]), <=, 1e-9);
  for (size_t q = 0; q < np; q++)
    zmax = fmax (zmax, pts[2 * q + 1]);
  g_assert_cmpfloat (zmax, >=, 0.6);
  g_free (pts);
  fr_fold_result_clear (&res);
  g_free (F);
}

/* Rays from the same line where the front enters through an edge: in a
 * constant medium the characteristic is the straight line from the foot
 * y = x − T·(F n + ψ) (n the unit normal towards x), which lies beyond the
 * edge for these receivers.  The ray starts at y and keeps to that line;
 * clamped to the grid it slid along the edge (up to 0.5 off the line). */
static void
test_beyond_grid_rays (void)
{
  static const double psis[2][2] = { { 0.0, 0.0 }, { 0.3, -0.2 } };
  fr_grid g = fr_grid_2d (121, 61, 0.025, 0.025, 0, 0);
  double line[4] = { -1.0, -1.0, 4.0, 2.5 };
  fr_fold_start st = { .horizon = line, .nhorizon = 2 };
  const double F = 1.3, len = hypot (5.0, 3.5);
  const double xmax = (double) (g.nx - 1) * g.dx, zmax = (double) (g.nz - 1) * g.dz;

  for (int k = 0; k < 2; k++)
    {
      fr_fold_params p;
      fr_fold_result res;
      int checked = 0;
      double worst = 0.0;

      fr_fold_params_init (&p);
      p.speed_const = F;
      p.psi_a[0] = psis[k][0], p.psi_a[2] = psis[k][1];
      p.double_precision = true;
      fold_solve_ok (&g, &st, &p, &res);
      for (size_t iz = 1; iz < g.nz; iz += 3)
        for (size_t ix = 1; ix < g.nx; ix += 3)
          {
            const double x[2] = { (double) ix * g.dx, (double) iz * g.dz };
            double d = (x[0] - line[0]) * -3.5 / len + (x[1] - line[1]) * 5.0 / len;
            const double n[2] = { (d >= 0 ? -3.5 : 3.5) / len, (d >= 0 ? 5.0 : -5.0) / len };
            const double v[2] = { F * n[0] + psis[k][0], F * n[1] + psis[k][1] };
            const double t = fabs (d) / (F + psis[k][0] * n[0] + psis[k][1] * n[1]);
            const double y[2] = { x[0] - t * v[0], x[1] - t * v[1] };

            /* Feet clearly beyond an edge, rays long enough inside. */
            if (!(y[0] < -2 * g.dx || y[0] > xmax + 2 * g.dx || y[1] < -2 * g.dz
                  || y[1] > zmax + 2 * g.dz) || fabs (d) < 0.1)
              continue;
            double *pts = NULL;
            size_t np = 0;
            fr_error err = { 0 };
            if (fr_fold_ray (&res, x, &pts, &np, &err) != FR_OK)
              g_error ("ray to (%g, %g): %s", x[0], x[1], err.message);
            g_assert_cmpfloat (hypot (pts[0] - y[0], pts[1] - y[1]), <=, g.dx);
            g_assert_cmpfloat_with_epsilon (pts[2 * np - 2], x[0], 1e-12);
            g_assert_cmpfloat_with_epsilon (pts[2 * np - 1], x[1], 1e-12);
            for (size_t q = 0; q < np; q++)
              {
                /* Distance from the segment y–x. */
                const double e[2] = { x[0] - y[0], x[1] - y[1] };
                double s = ((pts[2 * q] - y[0]) * e[0] + (pts[2 * q + 1] - y[1]) * e[1])
                           / (e[0] * e[0] + e[1] * e[1]);
                s = fmin (1.0, fmax (0.0, s));
                worst = fmax (worst, hypot (pts[2 * q] - y[0] - s * e[0],
                                            pts[2 * q + 1] - y[1] - s * e[1]));
              }
            g_free (pts);
            checked++;
          }
      g_test_message ("rays from the line beyond the grid, psi (%g, %g): %d checked, farthest "
                      "point %.2e off the characteristic", psis[k][0], psis[k][1], checked, worst);
      g_assert_cmpint (checked, >=, 20);
      g_assert_cmpfloat (worst, <=, 0.25 * g.dx);
      fr_fold_result_clear (&res);
    }
}

/* Every ray of a horizon start begins on the horizon and ends at its
 * receiver.  Two cases end the descent at a local minimum of T that the
 * ray's tests of a start did not take: a left-edge node started from a
 * horizon beyond that edge, an obstacle below it (the receiver off the
 * node); and a bottom-edge node next to an obstacle, the whole horizon
 * below the grid.  Those rays began at the node or the receiver itself.
 * Then seeded random models (speeds in blocks, obstacles, horizons inside,
 * across or beyond the grid, ψ, single and double). */
static void
check_rays_start_on_horizon (const fr_grid *g, const float *F, const double *h, int nh,
                             double psi_x, double psi_z, bool dbl, const double *rcv, int nr,
                             int *traced)
{
  fr_fold_params p;
  fr_fold_result res;
  fr_fold_start st = { .horizon = h, .nhorizon = (size_t) nh };
  fr_error err = { 0 };

  fr_fold_params_init (&p);
  p.speed = F;
  p.psi_a[0] = psi_x, p.psi_a[2] = psi_z;
  p.double_precision = dbl;
  if (fr_fold_solve (g, &st, &p, &res, &err) != FR_OK)
    {
      /* Only a horizon that misses every node may be refused. */
      g_assert_nonnull (strstr (err.message, "passes near no node"));
      fr_fold_result_clear (&res);
      return;
    }
  for (int r = 0; r < nr; r++)
    {
      double *pts = NULL;
      size_t np = 0;
      fr_status rs = fr_fold_ray (&res, rcv + 2 * r, &pts, &np, &err);

      if (rs != FR_OK)
        {
          /* A receiver in an obstacle or walled off. */
          g_assert_cmpint (rs, ==, FR_E_INPUT);
          g_assert_nonnull (strstr (err.message, "unreached or in an obstacle"));
          continue;
        }
      if (polygon_distance (h, nh, pts[0], pts[1]) > 1e-9)
        g_error ("the ray to (%g, %g) begins at (%g, %g), %g off the horizon", rcv[2 * r],
                 rcv[2 * r + 1], pts[0], pts[1], polygon_distance (h, nh, pts[0], pts[1]));
      g_assert_cmpfloat (pts[2 * np - 2], ==, rcv[2 * r]);
      g_assert_cmpfloat (pts[2 * np - 1], ==, rcv[2 * r + 1]);
      g_free (pts);
      (*traced)++;
    }
  fr_fold_result_clear (&res);
}

static void
test_rays_start_on_horizon (void)
{
  int traced = 0;
  {
    fr_grid g = fr_grid_2d (34, 26, 0.1, 0.1, 0, 0);
    float F[34 * 26];
    double h[4] = { -0.4, 0.4, -0.1, 2.6 }, rcv[2] = { 0.026, 0.748 };

    for (int i = 0; i < 34 * 26; i++)
      F[i] = i / 34 >= 8 && i / 34 <= 9 && i % 34 <= 2 ? 0.0f : 1.0f;
    check_rays_start_on_horizon (&g, F, h, 2, -0.06, 0.11, false, rcv, 1, &traced);
  }
  {
    fr_grid g = fr_grid_2d (41, 26, 0.1, 0.1, 0, 0);
    float F[41 * 26];
    double h[4] = { 0.675, 3.0, 1.19, 3.5 }, rcv[4] = { 0.6, 2.05, 0.2, 1.7 };

    for (int i = 0; i < 41 * 26; i++)
      F[i] = i / 41 >= 21 && i % 41 >= 6 && i % 41 <= 9 ? 0.0f : 1.0f;
    check_rays_start_on_horizon (&g, F, h, 2, -0.13, -0.10, false, rcv, 2, &traced);
  }
  g_assert_cmpint (traced, ==, 3);

  GRand *rand = g_rand_new_with_seed (20261207);
  traced = 0;
  for (int model = 0; model < 60; model++)
    {
      const size_t nx = (size_t) g_rand_int_range (rand, 20, 60);
      const size_t nz = (size_t) g_rand_int_range (rand, 20, 60);
      const double dx = 0.1, xmax = (double) (nx - 1) * dx, zmax = (double) (nz - 1) * dx;
      fr_grid g = fr_grid_2d (nx, nz, dx, dx, 0, 0);
      float *F = g_new (float, nx * nz), fmin_pos = INFINITY;
      double h[14], rcv[60], block[8][8];
      const int nh = g_rand_int_range (rand, 2, 8);

      for (int a = 0; a < 8; a++)
        for (int b = 0; b < 8; b++)
          block[a][b] = g_rand_double_range (rand, 0.5, 3.0);
      for (size_t iz = 0; iz < nz; iz++)
        for (size_t ix = 0; ix < nx; ix++)
          {
            F[iz * nx + ix] = (float) block[iz / 8][ix / 8];
            fmin_pos = fminf (fmin_pos, F[iz * nx + ix]);
          }
      for (int k = g_rand_int_range (rand, 0, 7); k > 0; k--)
        {
          const size_t x0 = (size_t) g_rand_int_range (rand, 0, (gint32) nx);
          const size_t z0 = (size_t) g_rand_int_range (rand, 0, (gint32) nz);
          const size_t w = (size_t) g_rand_int_range (rand, 1, 8), d = (size_t) g_rand_int_range (rand, 1, 8);
          for (size_t iz = z0; iz < MIN (nz, z0 + d); iz++)
            for (size_t ix = x0; ix < MIN (nx, x0 + w); ix++)
              F[iz * nx + ix] = 0.0f;
        }
      /* Points from a box one unit larger than the grid on each side, in
       * x order: inside, across and beyond its edges. */
      for (int k = 0; k < nh; k++)
        h[2 * k] = g_rand_double_range (rand, -1.0, xmax + 1.0),
        h[2 * k + 1] = g_rand_double_range (rand, -1.0, zmax + 1.0);
      for (int k = 1; k < nh; k++)
        for (int j = k; j > 0 && h[2 * j - 2] > h[2 * j]; j--)
          {
            double tx = h[2 * j], tz = h[2 * j + 1];
            h[2 * j] = h[2 * j - 2], h[2 * j + 1] = h[2 * j - 1];
            h[2 * j - 2] = tx, h[2 * j - 1] = tz;
          }
      for (int r = 0; r < 30; r++)
        rcv[2 * r] = g_rand_double_range (rand, 0.0, xmax),
        rcv[2 * r + 1] = g_rand_double_range (rand, 0.0, zmax);
      const double pa = g_rand_double_range (rand, 0.0, 2.0 * G_PI);
      const double pl = g_rand_double_range (rand, 0.0, 0.4) * fmin_pos;
      check_rays_start_on_horizon (&g, F, h, nh, pl * cos (pa), pl * sin (pa), model % 2 == 1,
                                   rcv, 30, &traced);
      g_free (F);
    }
  g_rand_free (rand);
  g_test_message ("random models: %d rays traced, each from the horizon", traced);
  g_assert_cmpint (traced, >=, 1000);
}

/* A circle of radius R as a 64-gon, isotropic: T is the distance to the
 * polygon / F on both sides (the polygon is within R(1 − cos(π/64)) of the
 * circle). */
static void
test_circle (void)
{
  const double R = 0.6, cx = 1.0, cz = 0.9, F = 1.0;
  double poly[2 * 65];
  for (int k = 0; k <= 64; k++)
    poly[2 * k] = cx + R * cos (2 * G_PI * k / 64), poly[2 * k + 1] = cz + R * sin (2 * G_PI * k / 64);
  const double sag = R * (1 - cos (G_PI / 64));
  double err[3], hs[3] = { 0.02, 0.01, 0.005 };

  for (int lvl = 0; lvl < 3; lvl++)
    {
      double h = hs[lvl];
      fr_grid g = fr_grid_2d ((size_t) llround (2.0 / h) + 1, (size_t) llround (1.8 / h) + 1, h, h, 0, 0);
      fr_fold_params p;
      fr_fold_start st = { .horizon = poly, .nhorizon = 65 };
      fr_fold_result res;
      fr_fold_params_init (&p);
      p.speed_const = F;
      fold_solve_ok (&g, &st, &p, &res);
      size_t n = fr_grid_count (&g);
      double *exact = g_new (double, n);
      for (size_t i = 0; i < n; i++)
        {
          double x[3];
          fold_node_xyz (&g, i, x);
          exact[i] = polygon_distance (poly, 65, x[0], x[2]) / F;
          /* Both sides reached.  (Inside, T is concave and the scheme may
           * dip a little below it: linear interpolation of a concave
           * function undershoots.) */
          g_assert_true (isfinite (res.time[i]));
          g_assert_cmpfloat (res.time[i], >=, exact[i] - h);
        }
      err[lvl] = fold_rms_diff (&g, res.time, exact);
      g_free (exact);

      /* Rays end on the horizon, and their length is T (F = 1). */
      double rcv[2] = { 1.73, 1.61 };
      double *pts = NULL;
      size_t np = 0;
      fr_error e = { 0 };
      g_assert_cmpint (fr_fold_ray (&res, rcv, &pts, &np, &e), ==, FR_OK);
      double r0 = hypot (pts[0] - cx, pts[1] - cz);
      g_assert_cmpfloat (fabs (r0 - R), <=, sag + 1e-9);
      double len = 0;
      for (size_t q = 1; q < np; q++)
        len += hypot (pts[2 * q] - pts[2 * q - 2], pts[2 * q + 1] - pts[2 * q - 1]);
      double t_rcv = fabs (hypot (rcv[0] - cx, rcv[1] - cz) - R);
      g_assert_cmpfloat (fabs (len - t_rcv) / t_rcv, <, 0.02);
      g_free (pts);
      fr_fold_result_clear (&res);
    }
  double rate = fold_observed_rate (hs, err, 3);
  g_test_message ("circle: RMS errors %.2e %.2e %.2e, rate %.2f", err[0], err[1], err[2], rate);
  g_assert_cmpfloat (err[2], <, 1e-3);
  g_assert_cmpfloat (rate, >=, 0.9);
}

/* Anisotropic curved horizon: T from a polyline is the least over its
 * points y of the exact point-source time τ(x − y) (the front from a line
 * is the envelope of those from its points), so T is bounded below by that
 * minimum taken over a fine sampling of the polyline less its Lipschitz
 * slack, and close to it. */
static void
test_anisotropic_wave (void)
{
  fr_grid g = fr_grid_2d (101, 81, 0.02, 0.02, 0, 0);
  double poly[2 * 41];
  double psi[3] = { 0.35, 0, -0.25 };
  const double F = 1.0;
  for (int k = 0; k <= 40; k++)
    poly[2 * k] = -0.1 + 2.2 * k / 40, poly[2 * k + 1] = 0.8 + 0.15 * sin (3.0 * poly[2 * k]);
  fr_fold_params p;
  fr_fold_start st = { .horizon = poly, .nhorizon = 41 };
  fr_fold_result res;
  fr_fold_params_init (&p);
  p.speed_const = F;
  p.psi_a[0] = psi[0], p.psi_a[2] = psi[2];
  fold_solve_ok (&g, &st, &p, &res);

  double worst = 0.0;
  for (size_t iz = 0; iz < g.nz; iz += 4)
    for (size_t ix = 0; ix < g.nx; ix += 4)
      {
        double x[3] = { ix * g.dx, 0, iz * g.dz }, best = INFINITY, foot = 0.0;
        for (int k = 0; k < 40; k++)
          for (int j = 0; j < 50; j++)
            {
              double t = j / 50.0;
              double y[3] = { poly[2 * k] + t * (poly[2 * k + 2] - poly[2 * k]), 0,
                              poly[2 * k + 1] + t * (poly[2 * k + 3] - poly[2 * k + 1]) };
              double t_y = fold_exact_point (x, y, psi, F);
              if (t_y < best)
                best = t_y, foot = y[0];
            }
        double T = res.time[fr_grid_index (&g, ix, 0, iz)];
        /* Sampling step ≤ 0.06/50 in length; τ grows at most 1/(F − |ψ|)
         * per length; and where T is concave the scheme may dip by O(h). */
        g_assert_cmpfloat (T, >=, best - 0.0013 / (F - 0.43) - g.dx);
        /* Only where the front comes from the horizon inside the grid,
         * with a margin for the scheme's wider domain of dependence. */
        if (foot > 0.3 && foot < 1.7)
          worst = fmax (worst, T - best);
      }
  g_test_message ("anisotropic horizon: T above the sampled envelope by at most %.3e", worst);
  g_assert_cmpfloat (worst, <, 0.03);
  fr_fold_result_clear (&res);
}

/* Boundary grid: fixed exact values in a ball around a point; the rest
 * follows the analytic solution, and the fixed values are kept. */
static void
test_boundary (void)
{
  fr_grid g = fr_grid_2d (101, 101, 0.01, 0.01, 0, 0);
  size_t n = fr_grid_count (&g);
  double *b = g_new (double, n), *exact = g_new (double, n);
  double s[3] = { 0.4, 0, 0.55 }, psi[3] = { 0.2, 0, 0.1 };
  const double F = 1.0;

  for (size_t i = 0; i < n; i++)
    {
      double x[3];
      fold_node_xyz (&g, i, x);
      exact[i] = fold_exact_point (x, s, psi, F);
      b[i] = hypot (x[0] - s[0], x[2] - s[2]) <= 0.1 ? exact[i] : NAN;
    }
  fr_fold_params p;
  fr_fold_params_init (&p);
  p.psi_a[0] = psi[0], p.psi_a[2] = psi[2];
  p.double_precision = TRUE;
  fr_fold_start st = { .boundary = b };
  fr_fold_result res;
  fold_solve_ok (&g, &st, &p, &res);
  for (size_t i = 0; i < n; i++)
    if (!isnan (b[i]))
      g_assert_cmpfloat (res.time[i], ==, b[i]);
  g_assert_cmpfloat (fold_rms_diff (&g, res.time, exact), <, 2e-3);
  /* A ray ends on a fixed node. */
  double rcv[2] = { 0.9, 0.1 }, *pts = NULL;
  size_t np = 0;
  fr_error err = { 0 };
  g_assert_cmpint (fr_fold_ray (&res, rcv, &pts, &np, &err), ==, FR_OK);
  g_assert_cmpfloat (hypot (pts[0] - s[0], pts[1] - s[2]), <=, 0.1 + 1e-9);
  g_free (pts);
  fr_fold_result_clear (&res);

  /* No finite value at all, or a value on an obstacle: bad input. */
  float *F0 = g_new (float, n);
  for (size_t i = 0; i < n; i++)
    F0[i] = 1.0f;
  F0[fr_grid_index (&g, 40, 0, 55)] = 0.0f;
  p.speed = F0;
  g_assert_cmpint (fr_fold_solve (&g, &st, &p, &res, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "obstacle"));
  fr_fold_result_clear (&res);
  for (size_t i = 0; i < n; i++)
    b[i] = NAN;
  p.speed = NULL;
  g_assert_cmpint (fr_fold_solve (&g, &st, &p, &res, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "no finite"));
  fr_fold_result_clear (&res);
  g_free (F0);
  g_free (b);
  g_free (exact);
}

/* The time from a polyline (the horizon's start values and the rays' foot
 * points) against a plain search written here: the least exact point-source
 * time over the vertices, and over each segment's inside by golden-section
 * search (the time from a point moving along a segment is convex).  Long
 * zig-zag polylines with anisotropy, so that the solver's pruning of far
 * segments is exercised; points on both sides and far off. */
static double
plain_polyline_time (const double *xz, int n, double x, double z, double F, const double psi[3])
{
  const double X[3] = { x, 0, z };
  double best = INFINITY;
  for (int k = 0; k < n; k++)
    best = fmin (best, fold_exact_point (X, (double[3]) { xz[2 * k], 0, xz[2 * k + 1] }, psi, F));
  for (int k = 0; k + 1 < n; k++)
    {
      double lo = 0.0, hi = 1.0;
      const double g = 0.5 * (sqrt (5.0) - 1.0);
      for (int it = 0; it < 200 && hi - lo > 1e-15; it++)
        {
          double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
          double sa[3] = { xz[2 * k] + a * (xz[2 * k + 2] - xz[2 * k]), 0,
                           xz[2 * k + 1] + a * (xz[2 * k + 3] - xz[2 * k + 1]) };
          double sb[3] = { xz[2 * k] + b * (xz[2 * k + 2] - xz[2 * k]), 0,
                           xz[2 * k + 1] + b * (xz[2 * k + 3] - xz[2 * k + 1]) };
          if (fold_exact_point (X, sa, psi, F) < fold_exact_point (X, sb, psi, F))
            hi = b;
          else
            lo = a;
        }
      double l = 0.5 * (lo + hi);
      double sl[3] = { xz[2 * k] + l * (xz[2 * k + 2] - xz[2 * k]), 0,
                       xz[2 * k + 1] + l * (xz[2 * k + 3] - xz[2 * k + 1]) };
      best = fmin (best, fold_exact_point (X, sl, psi, F));
    }
  return best;
}

static void
test_polyline_time (void)
{
  GRand *r = g_rand_new_with_seed (20261121);
  const int npoly[3] = { 2, 37, 400 };
  double worst = 0.0;

  for (int c = 0; c < 3; c++)
    {
      const int n = npoly[c];
      double *xz = g_new (double, 2 * n);
      for (int k = 0; k < n; k++)
        {
          xz[2 * k] = 2.0 * k / (n - 1) + g_rand_double_range (r, -0.3, 0.3) / n;
          xz[2 * k + 1] = 0.5 + g_rand_double_range (r, -0.2, 0.2);
        }
      for (int trial = 0; trial < 400; trial++)
        {
          const double F = g_rand_double_range (r, 0.5, 2.5);
          const double ang = g_rand_double_range (r, 0, 2 * G_PI);
          const double len = g_rand_double_range (r, 0, 0.8) * F;
          const double psi[3] = { len * cos (ang), 0, len * sin (ang) };
          const double x = g_rand_double_range (r, -0.5, 2.5);
          const double z = trial % 4 == 0 ? g_rand_double_range (r, -2, 3)
                                          : 0.5 + g_rand_double_range (r, -0.25, 0.25);
          double yx, yz;
          double got = fold_polyline_time (xz, (size_t) n, x, z, F, psi, &yx, &yz);
          double want = plain_polyline_time (xz, n, x, z, F, psi);
          double rel = fabs (got - want) / want;
          worst = fmax (worst, rel);
          if (!(rel < 1e-8))
            g_error ("polyline of %d points, point (%g, %g), F %g, psi (%g, %g): %.17g, plain "
                     "search %.17g", n, x, z, F, psi[0], psi[2], got, want);
          /* The foot point it names gives that time. */
          double foot = fold_exact_point ((double[3]) { x, 0, z }, (double[3]) { yx, 0, yz }, psi, F);
          g_assert_cmpfloat (fabs (foot - got), <=, 1e-9 * got);
        }
      g_free (xz);
    }
  g_test_message ("polyline time against the plain search: worst relative difference %.2e", worst);
  g_rand_free (r);
}

/* Points very close to a long segment, far from its ends: a plane front
 * leaves the segment's line with normal speed F + ψ·n, so the time is
 * the distance over that (n the unit normal towards the point).  The
 * distance comes from the cross product, not from |d0 − λe|² expanded,
 * which loses digits in proportion to the segment's length over the
 * distance (a 10⁻¹⁰ error a node beside a horizon had).  What is left is
 * the rounding of coordinates of the segment's size: a few ε·len in the
 * distance, whatever the distance. */
static void
test_polyline_time_near (void)
{
  const double xz[4] = { -50.0, 3.0, 70.0, 9.0 };
  const double len = hypot (120.0, 6.0), ux = 120.0 / len, uz = 6.0 / len;
  const double F = 1.25;
  const double psis[2][3] = { { 0, 0, 0 }, { 0.3, 0, -0.45 } };
  double worst = 0.0;

  for (int ps = 0; ps < 2; ps++)
    for (int k = 0; k < 40; k++)
      {
        const double along = -30.0 + 2.5 * k;
        const double dist = pow (10.0, -2.0 - 0.1 * k) * (k % 2 ? 1.0 : -1.0);
        /* The normal (−uz, ux) turned towards the point's side. */
        const double nx = -uz * (dist > 0 ? 1 : -1), nz = ux * (dist > 0 ? 1 : -1);
        const double x = xz[0] + (along + 50.0) * ux - uz * dist;
        const double z = xz[1] + (along + 50.0) * uz + ux * dist;
        const double *psi = psis[ps];
        /* The test's distance: from the point as built, by the cross
         * product with the segment's direction. */
        const double d = fabs ((x - xz[0]) * uz - (z - xz[1]) * ux);
        const double want = d / (F + psi[0] * nx + psi[2] * nz);
        double got = fold_polyline_time (xz, 2, x, z, F, psi, NULL, NULL);
        double err = fabs (got - want) * F / len;
        worst = fmax (worst, err);
        if (!(err < 16 * DBL_EPSILON))
          g_error ("psi (%g, %g), distance %.3g from the segment: %.17g, want %.17g "
                   "(error %.2e of the segment's length)", psi[0], psi[2], d, got, want, err);
      }
  g_test_message ("times beside a long segment: worst error %.2e of its length (eps %.2e)",
                  worst, DBL_EPSILON);
}

/* Distance from (x, z) to segment a -> b, the test's own way: the nearer
 * end, or the distance to the line where the foot falls between the ends. */
static double
seg_dist (const double *a, const double *b, double x, double z)
{
  const double len = hypot (b[0] - a[0], b[1] - a[1]);
  const double ux = (b[0] - a[0]) / len, uz = (b[1] - a[1]) / len;   /* along */
  const double along = (x - a[0]) * ux + (z - a[1]) * uz;
  double d = fmin (hypot (x - a[0], z - a[1]), hypot (x - b[0], z - b[1]));
  if (along > 0.0 && along < len)
    d = fmin (d, fabs ((x - a[0]) * uz - (z - a[1]) * ux));
  return d;
}

/* Every kind of start at once (two overlapping sources, a horizon through
 * them of 3 or 400 points, a boundary grid over part of both), as the list fold_init_start
 * gives, against a plain grid of each node's least start value: one entry
 * per started node, in index order, the least value, frozen exactly where
 * the boundary grid gives one. */
static void
test_start_list (gconstpointer data)
{
  const int many = GPOINTER_TO_INT (data);
  fr_grid g = fr_grid_2d (83, 71, 0.02, 0.015, 0, 0);
  const size_t n = fr_grid_count (&g);
  float *speed = g_new (float, n);
  double *boundary = g_new (double, n), *want = g_new (double, n);
  gboolean *want_frozen = g_new0 (gboolean, n);
  const double src[4] = { 0.6, 0.5, 0.75, 0.55 }, radius = 0.2037;
  const double psi[3] = { 0.3, 0, -0.2 }, band = fmax (g.dx, g.dz);
  /* Three points, or (many) 400 points of a wiggly curve that leaves the
   * grid on both sides and passes near itself (many segments per node). */
  const int np = many ? 400 : 3;
  double *xz = g_new (double, 2 * np);
  static const double three[6] = { 0.1, 0.45, 0.9, 0.6, 1.5, 0.3 };
  for (int k = 0; k < np; k++)
    {
      const double u = (double) k / (np - 1);
      xz[2 * k] = many ? -0.3 + 2.2 * u + 0.05 * sin (40.0 * u) : three[2 * k];
      xz[2 * k + 1] = many ? 0.5 + 0.3 * sin (9.0 * u) + 0.02 * cos (57.0 * u) : three[2 * k + 1];
    }

  for (size_t i = 0; i < n; i++)
    {
      double x[3];
      fold_node_xyz (&g, i, x);
      /* The speed varies along the horizon (each of its nodes takes its
       * own) but not within reach of the sources' balls (x 0.4 to 0.95),
       * where the start is τ with the source cell's speed; balls in
       * varying speed are test-fold-source-speed's. */
      speed[i] = (float) (1.0 + 0.5 * fmax (0.0, fabs (x[0] - 0.675) - 0.35));
    }
  for (size_t i = 0; i < n; i++)
    {
      double x[3];
      fold_node_xyz (&g, i, x);
      boundary[i] = x[0] > 1.2 && x[2] < 0.4 ? 0.05 + x[0] : NAN;
      want[i] = INFINITY;
      for (int k = 0; k < 2; k++)
        {
          /* A source's ball starts from its own cell's speed. */
          const double *s = src + 2 * k;
          const size_t ci = fr_grid_index (&g, (size_t) lround (s[0] / g.dx), 0,
                                           (size_t) lround (s[1] / g.dz));
          const double cs = (double) speed[ci] * speed[ci] - (psi[0] * psi[0] + psi[2] * psi[2]);
          const double d[2] = { x[0] - s[0], x[2] - s[1] };
          const double dd = d[0] * d[0] + d[1] * d[1];
          if (dd <= radius * radius)
            want[i] = fmin (want[i], fold_tau (psi[0] * d[0] + psi[2] * d[1], dd, cs));
        }
      bool near = false;
      for (int j = 0; j + 1 < np; j++)
        near |= seg_dist (xz + 2 * j, xz + 2 * j + 2, x[0], x[2]) <= band;
      if (near)
        want[i] = fmin (want[i], fold_polyline_time (xz, (size_t) np, x[0], x[2], speed[i], psi,
                                                     NULL, NULL));
      /* An edge node whose first-reached horizon point lies beyond its
       * edge starts from that point's time (the horizon leaves the grid
       * in the many-point case). */
      {
        const size_t ix = i % g.nx, iz = i / g.nx;
        const double xmax = (double) (g.nx - 1) * g.dx, zmax = (double) (g.nz - 1) * g.dz;
        double yx, yz, t;

        if (ix == 0 || iz == 0 || ix + 1 == g.nx || iz + 1 == g.nz)
          {
            t = fold_polyline_time (xz, (size_t) np, x[0], x[2], speed[i], psi, &yx, &yz);
            if ((ix == 0 && yx < 0.0) || (ix + 1 == g.nx && yx > xmax) || (iz == 0 && yz < 0.0)
                || (iz + 1 == g.nz && yz > zmax))
              want[i] = fmin (want[i], t);
          }
      }
      if (isfinite (boundary[i]))
        {
          want[i] = fmin (want[i], boundary[i]);
          want_frozen[i] = TRUE;
        }
    }

  fr_fold_start st = { .sources = src, .nsrc = 2, .horizon = xz, .nhorizon = (size_t) np,
                       .boundary = boundary };
  fold_starts list;
  fr_error err = { 0 };
  g_assert_cmpint (fold_init_start (&g, speed, psi, &st, radius, &list, &err), ==, FR_OK);
  size_t started = 0, frozen = 0;
  for (size_t i = 0; i < n; i++)
    started += isfinite (want[i]), frozen += want_frozen[i];
  g_assert_cmpuint (list.n, ==, started);
  g_assert_true (list.any_frozen);
  size_t nfrozen = 0;
  for (size_t j = 0; j < list.n; j++)
    {
      const fold_start_node *e = &list.node[j];
      if (j > 0)
        g_assert_cmpuint (e->idx, >, list.node[j - 1].idx);
      g_assert_cmpuint (e->idx, <, n);
      if (!(fabs (e->t - want[e->idx]) <= 1e-12 * fmax (1.0, fabs (want[e->idx]))))
        g_error ("node %zu starts at %.17g, its least start value is %.17g", e->idx, e->t,
                 want[e->idx]);
      g_assert_cmpint (e->frozen, ==, want_frozen[e->idx]);
      nfrozen += e->frozen;
    }
  g_assert_cmpuint (nfrozen, ==, frozen);
  g_test_message ("%zu started nodes, %zu of them frozen", list.n, nfrozen);
  fold_starts_free (&list);
  g_free (speed);
  g_free (boundary);
  g_free (want);
  g_free (want_frozen);
  g_free (xz);
}

int
main (int argc, char **argv)
{
  static const double iso[2] = { 0, 0 }, aniso[2] = { 0.4, -0.3 };
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/fold/horizon/flat-isotropic", iso, test_flat);
  g_test_add_data_func ("/fold/horizon/flat-anisotropic", aniso, test_flat);
  g_test_add_func ("/fold/horizon/circle", test_circle);
  g_test_add_func ("/fold/horizon/beyond-grid", test_beyond_grid);
  g_test_add_func ("/fold/horizon/beyond-grid-rays", test_beyond_grid_rays);
  g_test_add_func ("/fold/horizon/beyond-grid-wall", test_beyond_grid_wall);
  g_test_add_func ("/fold/horizon/rays-start-on-horizon", test_rays_start_on_horizon);
  g_test_add_func ("/fold/horizon/anisotropic-wave", test_anisotropic_wave);
  g_test_add_func ("/fold/horizon/polyline-time", test_polyline_time);
  g_test_add_func ("/fold/horizon/polyline-time-near", test_polyline_time_near);
  g_test_add_func ("/fold/boundary/ball", test_boundary);
  g_test_add_data_func ("/fold/start/list", GINT_TO_POINTER (0), test_start_list);
  g_test_add_data_func ("/fold/start/list-many-points", GINT_TO_POINTER (1), test_start_list);
  return g_test_run ();
}
