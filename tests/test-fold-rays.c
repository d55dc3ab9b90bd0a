/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rays of the fold solver on random smooth heterogeneous models, 2D and
 * 3D, isotropic and anisotropic: every ray from every receiver starts at
 * its source, ends at the receiver, stays in the grid, holds no NaN, takes
 * a bounded number of steps, and the traveltime integrated along it
 * (Σ |Δx| / group speed, an independent quadrature) is within 2% of T at
 * the receiver. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "test-fold-common.h"

static float *
smooth_model (const fr_grid *g, GRand *r, double amp)
{
  size_t n = fr_grid_count (g);
  float *F = g_new (float, n);
  double c[5][3], w[5], a[5];
  double ext[3] = { (double) (g->nx - 1) * g->dx, g->ndim == 3 ? (double) (g->ny - 1) * g->dy : 1.0,
                    (double) (g->nz - 1) * g->dz };

  for (int k = 0; k < 5; k++)
    {
      for (int d = 0; d < 3; d++)
        c[k][d] = g_rand_double (r) * ext[d];
      w[k] = g_rand_double_range (r, 0.15, 0.35) * ext[0];
      a[k] = g_rand_double_range (r, -amp, amp);
    }
  for (size_t i = 0; i < n; i++)
    {
      double x[3], v = 0.0;
      fold_node_xyz (g, i, x);
      for (int k = 0; k < 5; k++)
        {
          double d2 = (x[0] - c[k][0]) * (x[0] - c[k][0]) + (x[2] - c[k][2]) * (x[2] - c[k][2]);
          if (g->ndim == 3)
            d2 += (x[1] - c[k][1]) * (x[1] - c[k][1]);
          v += a[k] * exp (-d2 / (w[k] * w[k]));
        }
      F[i] = (float) exp2 (v);
    }
  return F;
}

static double
speed_at (const fr_grid *g, const float *F, const double x[3])
{
  size_t ix, iy = 0, iz;
  g_assert_true (fr_grid_nearest_node (g, x[0], x[1], x[2], &ix, &iy, &iz));
  return F[fr_grid_index (g, ix, g->ndim == 3 ? iy : 0, iz)];
}

static void
check_rays (int ndim, double psi_scale, guint32 seed)
{
  GRand *r = g_rand_new_with_seed (seed);
  fr_grid g = ndim == 3 ? fr_grid_3d (41, 38, 36, 0.075, 0.075, 0.075, 0, 0, 0)
                        : fr_grid_2d (121, 101, 0.05, 0.05, 0, 0);
  /* Speeds between about 0.5 and 2 in 2D; milder in 3D, where the coarser
   * grid's own error would otherwise take most of the 2%. */
  float *F = smooth_model (&g, r, ndim == 3 ? 0.4 : 0.6);
  double src[3], s3[3];
  fr_fold_params p;
  fr_fold_result res;
  int nd = ndim;

  s3[0] = g_rand_double_range (r, 0.3, 0.7) * (double) (g.nx - 1) * g.dx;
  s3[1] = ndim == 3 ? g_rand_double_range (r, 0.3, 0.7) * (double) (g.ny - 1) * g.dy : 0.0;
  s3[2] = g_rand_double_range (r, 0.3, 0.7) * (double) (g.nz - 1) * g.dz;
  if (ndim == 3)
    memcpy (src, s3, sizeof s3);
  else
    src[0] = s3[0], src[1] = s3[2];

  fr_fold_params_init (&p);
  p.speed = F;
  /* ψ well below the slowest speed of these models (about 0.45). */
  p.psi_a[0] = 0.25 * psi_scale, p.psi_a[1] = -0.15 * psi_scale, p.psi_a[2] = 0.2 * psi_scale;
  p.double_precision = TRUE;
  /* A start region of a few spacings keeps the solver's own error (which
   * the ray cannot share: it grows like h·log(r / radius)) well under the
   * 2% we check. */
  p.source_radius = (ndim == 3 ? 6.0 : 3.0) * g.dx;
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  fold_solve_ok (&g, &st, &p, &res);
  double psi[3] = { p.psi_a[0], ndim == 3 ? p.psi_a[1] : 0.0, p.psi_a[2] };

  size_t max_points = 8 * (g.nx + g.ny + g.nz) * 4;
  double worst = 0.0;
  int checked = 0;
  for (int k = 0; k < 40; k++)
    {
      /* Receivers on nodes, so T there needs no interpolation. */
      size_t ix = (size_t) g_rand_int_range (r, 0, (gint32) g.nx);
      size_t iy = ndim == 3 ? (size_t) g_rand_int_range (r, 0, (gint32) g.ny) : 0;
      size_t iz = (size_t) g_rand_int_range (r, 0, (gint32) g.nz);
      double x[3], rcv[3];
      fr_grid_node_position (&g, ix, iy, iz, &x[0], &x[1], &x[2]);
      if (ndim == 3)
        memcpy (rcv, x, sizeof x);
      else
        rcv[0] = x[0], rcv[1] = x[2];
      double t_rcv = res.time[fr_grid_index (&g, ix, iy, iz)];
      if (t_rcv < 2.0 * p.source_radius)
        continue;   /* inside the exact start region: a straight line, trivially right */

      double *pts = NULL;
      size_t n = 0;
      fr_error err = { 0 };
      if (fr_fold_ray (&res, rcv, &pts, &n, &err) != FR_OK)
        g_error ("ray %d: %s", k, err.message);
      g_assert_cmpuint (n, >=, 2);
      g_assert_cmpuint (n, <=, max_points);
      for (int a = 0; a < nd; a++)
        {
          g_assert_cmpfloat_with_epsilon (pts[a], src[a], 1e-12);
          g_assert_cmpfloat_with_epsilon (pts[(n - 1) * (size_t) nd + a], rcv[a], 1e-12);
        }
      double t_int = 0.0;
      for (size_t q = 0; q < n; q++)
        {
          double y[3] = { pts[q * nd], nd == 3 ? pts[q * nd + 1] : 0.0, pts[q * nd + nd - 1] };
          for (int a = 0; a < 3; a++)
            g_assert_true (isfinite (y[a]));
          g_assert_true (fr_grid_contains (&g, y[0], y[1], y[2]));
          if (q == 0)
            continue;
          double y0[3] = { pts[(q - 1) * nd], nd == 3 ? pts[(q - 1) * nd + 1] : 0.0,
                           pts[(q - 1) * nd + nd - 1] };
          double d[3] = { y[0] - y0[0], y[1] - y0[1], y[2] - y0[2] };
          double len = sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
          if (len == 0.0)
            continue;
          double u[3] = { d[0] / len, d[1] / len, d[2] / len };
          double mid[3] = { 0.5 * (y[0] + y0[0]), 0.5 * (y[1] + y0[1]), 0.5 * (y[2] + y0[2]) };
          /* The front carries a point along u at the group speed. */
          t_int += len / fr_fold_group_speed (speed_at (&g, F, mid), psi, u);
        }
      double rel = fabs (t_int - t_rcv) / fabs (t_rcv);
      worst = fmax (worst, rel);
      if (rel > 0.02)
        g_error ("ray %d to node (%zu, %zu, %zu): integrated %.5f vs T %.5f (%.2f%%), %zu points",
                 k, ix, iy, iz, t_int, t_rcv, 100 * rel, n);
      g_free (pts);
      checked++;
    }
  g_test_message ("%dD, psi scale %g: worst traveltime mismatch along %d rays %.3f%%", ndim,
                  psi_scale, checked, 100 * worst);
  /* Receivers near the source are passed over: most of the 40 must be
   * left, or the check proves little. */
  g_assert_cmpint (checked, >=, 30);
  fr_fold_result_clear (&res);
  g_free (F);
  g_rand_free (r);
}

static void
test_rays_2d (void)
{
  check_rays (2, 0.0, 7);
  check_rays (2, 1.0, 8);
  check_rays (2, 1.0, 9);
}

static void
test_rays_3d (void)
{
  check_rays (3, 0.0, 11);
  check_rays (3, 1.0, 12);
}

/* A constant speed and a boundary start (the bottom row held at 0): a
 * plane front, T = z / (F + ψz), whose rays are straight lines along the
 * group velocity (ψx, F + ψz), back to a held node.  The solve hands its
 * own speed grid and its held-node mask to the ray tracer (fold.c), so
 * this is where those are used after the solve.  Then the bottom ten rows
 * held, at the same plane front's times: a ray ends on the first held
 * node it meets, the top held row, not where T is least below it (with
 * one row held the two are the same place). */
static void
check_boundary_rays (size_t rows)
{
  const double F = 1.5, psi[3] = { 0.3, 0.0, 0.2 };
  fr_grid g = fr_grid_2d (81, 61, 0.05, 0.05, 0, 0);
  const size_t n = fr_grid_count (&g);
  const double z_held = (double) (rows - 1) * g.dz;   /* the top held row */
  double *held = g_new (double, n);
  fr_fold_params p;
  fr_fold_result res;

  for (size_t i = 0; i < n; i++)
    held[i] = i < rows * g.nx ? (double) (i / g.nx) * g.dz / (F + psi[2]) : NAN;
  fr_fold_params_init (&p);
  p.speed_const = F;
  p.psi_a[0] = psi[0], p.psi_a[2] = psi[2];
  p.double_precision = TRUE;
  fr_fold_start st = { .boundary = held };
  fold_solve_ok (&g, &st, &p, &res);

  const double slope = psi[0] / (F + psi[2]);   /* dx/dz along a ray */
  for (size_t iz = 10; iz < g.nz; iz += 10)
    for (size_t ix = 20; ix < g.nx; ix += 20)
      {
        double x[3], rcv[2], *pts = NULL;
        size_t np = 0;
        fr_error err = { 0 };
        fr_grid_node_position (&g, ix, 0, iz, &x[0], &x[1], &x[2]);
        rcv[0] = x[0], rcv[1] = x[2];
        const double t = res.time[fr_grid_index (&g, ix, 0, iz)];
        /* The scheme holds a plane front to rounding; the grid's left edge,
         * where the rays would come from outside, disturbs it slightly
         * (3e-6 at the far corner). */
        g_assert_cmpfloat (fabs (t - x[2] / (F + psi[2])), <=, 1e-5 * t);
        if (fr_fold_ray (&res, rcv, &pts, &np, &err) != FR_OK)
          g_error ("ray to (%zu, %zu): %s", ix, iz, err.message);
        g_assert_cmpuint (np, >=, 2);
        /* It starts on the top held row, where the straight line meets
         * it (to a spacing: it ends at the nearest held node). */
        g_assert_cmpfloat (fabs (pts[1] - z_held), <=, 1e-12);
        g_assert_cmpfloat (fabs (pts[0] - (rcv[0] - slope * (rcv[1] - z_held))), <=, g.dx);
        g_assert_cmpfloat_with_epsilon (pts[2 * (np - 1)], rcv[0], 1e-12);
        g_assert_cmpfloat_with_epsilon (pts[2 * (np - 1) + 1], rcv[1], 1e-12);
        g_free (pts);
      }
  fr_fold_result_clear (&res);
  g_free (held);
}

static void
test_ray_boundary_const (void)
{
  check_boundary_rays (1);
  check_boundary_rays (10);
}

static void
test_ray_errors (void)
{
  fr_grid g = fr_grid_2d (20, 20, 0.1, 0.1, 0, 0);
  float F[400];
  double src[2] = { 0.5, 0.5 }, out[2] = { 5.0, 0.5 }, walled[2] = { 1.5, 1.5 };
  fr_fold_params p;
  fr_fold_result res;
  fr_error err = { 0 };
  double *pts = NULL;
  size_t n = 0;

  for (int i = 0; i < 400; i++)
    {
      int ix = i % 20, iz = i / 20;
      /* A closed box of obstacle cells around (1.5, 1.5). */
      F[i] = ((ix == 12 || ix == 18) && iz >= 12 && iz <= 18) || ((iz == 12 || iz == 18) && ix >= 12 && ix <= 18) ? 0.0f : 1.0f;
    }
  fr_fold_params_init (&p);
  p.speed = F;
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  fold_solve_ok (&g, &st, &p, &res);
  g_assert_cmpint (fr_fold_ray (&res, out, &pts, &n, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "outside"));
  g_assert_cmpint (fr_fold_ray (&res, walled, &pts, &n, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "unreached"));
  g_assert_null (pts);
  fr_fold_result_clear (&res);
}

/* Seconds for the best of 5 rounds of 200 rays from receivers 0.3 spacings
 * from the source, on a constant-speed grid of n x n nodes. */
static double
short_rays_seconds (size_t n)
{
  fr_grid g = fr_grid_2d (n, n, 1.0, 1.0, 0, 0);
  double src[2] = { (double) (n / 2), (double) (n / 2) };
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  fr_fold_params p;
  fr_fold_result res;
  double best = INFINITY;

  fr_fold_params_init (&p);
  p.backend = FR_FOLD_CPU;
  fold_solve_ok (&g, &st, &p, &res);
  for (int round = 0; round < 5; round++)
    {
      gint64 t0 = g_get_monotonic_time ();
      for (int k = 0; k < 200; k++)
        {
          const double a = 2.0 * G_PI * k / 200.0;
          double rcv[2] = { src[0] + 0.3 * cos (a), src[1] + 0.3 * sin (a) };
          double *pts = NULL;
          size_t npts = 0;
          fr_error err = { 0 };
          g_assert_cmpint (fr_fold_ray (&res, rcv, &pts, &npts, &err), ==, FR_OK);
          g_assert_cmpuint (npts, >=, 2);
          g_free (pts);
        }
      best = fmin (best, (double) (g_get_monotonic_time () - t0) * 1e-6);
    }
  fr_fold_result_clear (&res);
  return best;
}

/* A ray's cost is its own, not the grid's: each one scanned every node for
 * the largest speed (17 ms a ray at 201³, more than the ray; with
 * thousands of receivers the rays took longer than the solve).  The same
 * short rays on a grid of 1001² nodes and of 21²: the scan made the large
 * grid's some hundred times slower. */
static void
test_ray_cost (void)
{
  const double small = short_rays_seconds (21), large = short_rays_seconds (1001);

  g_test_message ("200 short rays: %.2f ms at 21², %.2f ms at 1001²", 1e3 * small, 1e3 * large);
  g_assert_cmpfloat (large, <, 10.0 * small + 0.01);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fold/rays/random-2d", test_rays_2d);
  g_test_add_func ("/fold/rays/random-3d", test_rays_3d);
  g_test_add_func ("/fold/rays/boundary-const", test_ray_boundary_const);
  g_test_add_func ("/fold/rays/errors", test_ray_errors);
  g_test_add_func ("/fold/rays/cost", test_ray_cost);
  return g_test_run ();
}
