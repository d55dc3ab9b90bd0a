/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SPR traveltimes against closed forms: a constant velocity (bounded by the
 * straight line and by the angular resolution of the offsets), a linear
 * vertical gradient (Slotnick's arccosh formula), and grids one node wide,
 * where the only path is the line itself. */
#include <glib.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "fr-spr.h"
#include "test-spr-util.h"

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Largest angle between two adjacent edge directions, in physical space. */
static double
max_angular_gap (int rx, int rz, double dx, double dz)
{
  GArray *ang = g_array_new (FALSE, FALSE, sizeof (double));
  double gap = 0.0;

  for (int b = -rz; b <= rz; b++)
    for (int a = -rx; a <= rx; a++)
      if (a != 0 || b != 0)
        {
          double t = atan2 (b * dz, a * dx);
          g_array_append_val (ang, t);
        }
  double *v = (double *) ang->data;
  qsort (v, ang->len, sizeof *v, cmp_double);
  for (guint i = 0; i < ang->len; i++)
    {
      double next = i + 1 < ang->len ? v[i + 1] : v[0] + 2 * G_PI;
      gap = MAX (gap, next - v[i]);
    }
  g_array_free (ang, TRUE);
  return gap;
}

static void
check_constant (size_t nx, size_t nz, double dx, double dz, int rx, int rz,
                size_t sx, size_t sz, fr_spr_backend backend)
{
  fr_grid g = fr_grid_2d (nx, nz, dx, dz, 10.0, -5.0);
  const double vel = 2.5;
  float *v = g_new (float, nx * nz);
  fr_spr_params p;
  fr_spr_result res;
  double src[2], theta, bound;

  for (size_t i = 0; i < nx * nz; i++)
    v[i] = (float) vel;
  fr_grid_node_position (&g, sx, 0, sz, &src[0], NULL, &src[1]);
  fr_spr_params_init (&p);
  p.rx = rx;
  p.rz = rz;
  p.backend = backend;
  tu_solve (&g, v, src, 1, &p, &res);

  theta = max_angular_gap (rx, rz, dx, dz);
  bound = 1.0 / cos (theta / 2) - 1.0;
  g_test_message ("%zux%zu d=%g,%g r=%d,%d: max angular gap %.4f rad, error bound %.4f",
                  nx, nz, dx, dz, rx, rz, theta, bound);
  for (size_t j = 0; j < nz; j++)
    for (size_t i = 0; i < nx; i++)
      {
        double dist = hypot (((double) i - (double) sx) * dx, ((double) j - (double) sz) * dz);
        double exact = dist / vel, t = res.time[j * nx + i];
        if (dist == 0.0)
          {
            g_assert_cmpfloat (t, ==, 0.0);
            continue;
          }
        g_assert_true (isfinite (t));
        /* Never faster than the straight line. */
        g_assert_cmpfloat (t, >=, exact * (1 - 1e-6));
        /* Never slower than the bracketing-directions path. */
        g_assert_cmpfloat ((t - exact) / exact, <=, bound + 1e-6);
      }
  fr_spr_result_clear (&res);
  g_free (v);
}

static void
test_constant (void)
{
  check_constant (41, 33, 1.0, 1.0, 4, 4, 20, 16, FR_SPR_DIJKSTRA);
  check_constant (41, 33, 1.0, 1.0, 4, 4, 20, 16, FR_SPR_CPU);
  check_constant (50, 40, 0.5, 1.5, 3, 2, 0, 0, FR_SPR_CPU);
  check_constant (50, 40, 0.5, 1.5, 3, 2, 49, 17, FR_SPR_DIJKSTRA);
  check_constant (37, 45, 2.0, 1.0, 1, 1, 5, 44, FR_SPR_CPU);
  check_constant (60, 60, 1.0, 1.0, 6, 6, 30, 0, FR_SPR_AUTO);
}

/* v(z) = v0 + g·z with v0 = 0.5 km/s at the top and 4 km/s at the bottom,
 * source at the top centre.  For a point source in a linear gradient the
 * traveltime to a point at distance r is
 *     T = arccosh(1 + g² r² / (2 v_s v_r)) / g
 * (Slotnick 1959).  Every node except the source is compared. */
static void
test_gradient (void)
{
  const size_t n = 201;
  const double d = 0.01;                  /* km: a 2 km square */
  const double v0 = 0.5, v1 = 4.0, grad = (v1 - v0) / ((double) (n - 1) * d);
  fr_grid g = fr_grid_2d (n, n, d, d, 0.0, 0.0);
  float *v = g_new (float, n * n);
  double *err = g_new (double, n * n);
  size_t sx = n / 2, count = 0;
  fr_spr_params p;
  fr_spr_result res;
  double src[2] = { (double) sx * d, 0.0 }, maxerr = 0.0;

  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < n; i++)
      v[j * n + i] = (float) (v0 + grad * (double) j * d);
  fr_spr_params_init (&p);
  p.rx = p.rz = 5;
  tu_solve (&g, v, src, 1, &p, &res);

  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < n; i++)
      {
        double x = (double) i * d, z = (double) j * d;
        double r = hypot (x - src[0], z), vr = v0 + grad * z;
        double exact = acosh (1.0 + grad * grad * r * r / (2.0 * v0 * vr)) / grad;
        if (i == sx && j == 0)
          continue;
        err[count] = fabs (res.time[j * n + i] - exact) / exact;
        maxerr = MAX (maxerr, err[count]);
        count++;
      }
  qsort (err, count, sizeof *err, cmp_double);
  g_test_message ("gradient %zux%zu, radius 5 (%s): %zu nodes, median relative error %.4f%%, "
                  "max %.4f%%", n, n, fr_spr_backend_name (res.backend), count,
                  100 * err[count / 2], 100 * maxerr);
  g_assert_cmpfloat (err[count / 2], <=, 0.005);
  g_assert_cmpfloat (maxerr, <=, 0.02);
  fr_spr_result_clear (&res);
  g_free (err);
  g_free (v);
}

/* A grid one node wide (1 × n) or one node high (n × 1), with a radius
 * as large as asked: only the offsets along the line keep both ends
 * inside, so T is the line integral of slowness from the source, in
 * closed form.  Constant velocity v: T = |x - xs| / v.  Cells of velocity
 * v_k, spacing d: the segment crosses half of the source's and of the
 * end node's cell and all of those between,
 *     T(k) = d (1/(2 v_s) + sum_{s<i<k} 1/v_i + 1/(2 v_k)).
 * Every back end; the radius along the line also longer than the grid,
 * and across it anything (it is clamped to the one node there). */
static void
check_thin (bool along_x, size_t n, double d, size_t s, int r_along, int r_across,
            bool constant, fr_spr_backend backend, bool dbl)
{
  fr_grid g = along_x ? fr_grid_2d (n, 1, d, 0.7, -2.0, 3.0) : fr_grid_2d (1, n, 0.7, d, -2.0, 3.0);
  float *v = g_new (float, n);
  double *slow = g_new (double, n);
  fr_spr_params p;
  fr_spr_result res;
  fr_error err = { 0 };
  double src[2];

  for (size_t i = 0; i < n; i++)
    {
      v[i] = constant ? 2.5f : (float) (1.0 + (double) ((i * 5) % 7) * 0.5);
      slow[i] = 1.0 / (double) v[i];
    }
  fr_grid_node_position (&g, along_x ? s : 0, 0, along_x ? 0 : s, &src[0], NULL, &src[1]);
  fr_spr_params_init (&p);
  p.rx = along_x ? r_along : r_across;
  p.rz = along_x ? r_across : r_along;
  p.backend = backend;
  p.double_precision = dbl;
  fr_status st = fr_spr_solve (&g, v, src, 1, &p, &res, &err);
  /* An explicit cuda request whose stencil the CUDA kernels cannot hold
   * is refused, by design (spr.c): that refusal, and nothing else. */
  if (st == FR_E_UNSUPPORTED && backend == FR_SPR_CUDA && fr_cuda_built ()
      && strstr (err.message, "stencil cells") != NULL)
    {
      g_test_message ("%zu x %zu, radius %d,%d, cuda: refused as documented: %s", g.nx, g.nz,
                      p.rx, p.rz, err.message);
      g_free (v);
      g_free (slow);
      return;
    }
  if (st != FR_OK)
    g_error ("%zu x %zu, radius %d,%d, %s: %s", g.nx, g.nz, p.rx, p.rz,
             fr_spr_backend_name (backend), err.message);
  g_test_message ("%zu x %zu, radius %d,%d, %s (ran %s)%s", g.nx, g.nz, p.rx, p.rz,
                  fr_spr_backend_name (backend), fr_spr_backend_name (res.backend),
                  constant ? ", constant" : "");

  for (size_t k = 0; k < n; k++)
    {
      double x = (double) k * d, xs = (double) s * d, exact;
      if (constant)
        exact = fabs (x - xs) / 2.5;
      else
        {
          size_t lo = MIN (k, s), hi = MAX (k, s);
          exact = 0.0;
          if (lo != hi)
            {
              exact = 0.5 * (slow[lo] + slow[hi]);
              for (size_t i = lo + 1; i < hi; i++)
                exact += slow[i];
              exact *= d;
            }
        }
      if (k == s)
        g_assert_cmpfloat (res.time[k], ==, 0.0);
      else if (!(fabs (res.time[k] - exact) <= (dbl ? 1e-12 : 1e-6) * fabs (exact)))
        g_error ("node %zu: T %.9g, exact %.9g", k, res.time[k], exact);
      /* The ray is the line: each node's predecessor is its neighbour towards the source. */
      if (k != s)
        g_assert_cmpint (res.pred[k], ==, (int32_t) (k < s ? k + 1 : k - 1));
    }
  fr_spr_result_clear (&res);
  g_free (slow);
  g_free (v);
}

static void
test_thin (void)
{
  const fr_spr_backend backends[] = { FR_SPR_DIJKSTRA, FR_SPR_CPU, FR_SPR_AUTO, FR_SPR_CUDA };

  for (size_t b = 0; b < G_N_ELEMENTS (backends); b++)
    for (int dbl = 0; dbl <= 1; dbl++)
      {
        if (backends[b] == FR_SPR_CUDA && dbl)
          continue;               /* CUDA computes in single precision only */
        check_thin (true, 30, 1.0, 0, 1, 1, true, backends[b], dbl);
        check_thin (false, 20, 0.5, 7, 1, 1, true, backends[b], dbl);
        check_thin (true, 45, 0.3, 17, 4, 3, false, backends[b], dbl);
        check_thin (false, 33, 2.0, 32, 100, 100, false, backends[b], dbl);
        check_thin (true, 64, 1.5, 40, 1000, 7, true, backends[b], dbl);
        check_thin (false, 1, 1.0, 0, 5, 5, true, backends[b], dbl);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spr/analytic/constant", test_constant);
  g_test_add_func ("/spr/analytic/gradient", test_gradient);
  g_test_add_func ("/spr/analytic/thin", test_thin);
  return g_test_run ();
}
