/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fold solver against the analytic solution for constant parameters
 * and point sources (min over sources of the growing-sphere time), 2D and
 * 3D, isotropic and anisotropic, Ex_A included: an L2 error bound on the
 * finest grid and an observed convergence rate of at least 0.9 over three
 * grids (the exact start near each source makes the scheme first order). */
#include <glib.h>
#include <math.h>

#include "test-fold-common.h"

typedef struct analytic_case {
  const char *path;
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

static double
run_case (const analytic_case *c, double h)
{
  size_t nx = (size_t) llround (c->extent[0] / h) + 1;
  size_t ny = (size_t) llround (c->extent[1] / h) + 1;
  size_t nz = (size_t) llround (c->extent[2] / h) + 1;
  fr_grid g = c->ndim == 3 ? fr_grid_3d (nx, ny, nz, h, h, h, 0, 0, 0)
                           : fr_grid_2d (nx, nz, h, h, 0, 0);
  double srcs[13][3], flat[13 * 3];
  fr_fold_params p;
  fr_fold_start st = { 0 };
  fr_fold_result res;

  if (c->nsrc == 13)
    fold_ex_a_sources (srcs);
  else
    for (int a = 0; a < 3; a++)
      srcs[0][a] = c->src[a];
  for (int k = 0; k < c->nsrc; k++)
    {
      /* The API takes x,z in 2D and x,y,z in 3D. */
      if (c->ndim == 3)
        flat[3 * k] = srcs[k][0], flat[3 * k + 1] = srcs[k][1], flat[3 * k + 2] = srcs[k][2];
      else
        flat[2 * k] = srcs[k][0], flat[2 * k + 1] = srcs[k][2], srcs[k][1] = 0.0;
    }
  fr_fold_params_init (&p);
  p.speed_const = c->F;
  p.psi_a[0] = c->psi[0], p.psi_a[1] = c->psi[1], p.psi_a[2] = c->psi[2];
  p.source_radius = c->radius;
  p.method = c->method;
  p.threads = 1;          /* thread counts are test-fold-methods' business */
  st.sources = flat;
  st.nsrc = (size_t) c->nsrc;
  fold_solve_ok (&g, &st, &p, &res);

  size_t n = fr_grid_count (&g);
  double *exact = g_new (double, n);
  double psi[3] = { c->psi[0], c->ndim == 3 ? c->psi[1] : 0.0, c->psi[2] };
  for (size_t i = 0; i < n; i++)
    {
      double x[3];
      fold_node_xyz (&g, i, x);
      exact[i] = INFINITY;
      for (int k = 0; k < c->nsrc; k++)
        exact[i] = fmin (exact[i], fold_exact_point (x, srcs[k], psi, c->F));
    }
  double e = fold_rms_diff (&g, res.time, exact);
  g_test_message ("%s h=%g: %zu nodes, RMS error %.3e, %.1f ms, %.2f sweeps/subdomain",
                  c->path, h, n, e, res.solve_ms,
                  (double) res.subdomain_sweeps / (double) res.subdomains);
  g_free (exact);
  fr_fold_result_clear (&res);
  return e;
}

static void
test_convergence (gconstpointer data)
{
  const analytic_case *c = data;
  double err[3];

  for (int i = 0; i < 3; i++)
    err[i] = run_case (c, c->h[i]);
  double rate = fold_observed_rate (c->h, err, 3);
  g_test_message ("%s: errors %.3e %.3e %.3e, observed rate %.2f", c->path, err[0], err[1],
                  err[2], rate);
  g_assert_cmpfloat (err[2], <, c->l2_max);
  g_assert_cmpfloat (rate, >=, 0.9);
}

static const analytic_case cases[] = {
  { "/fold/analytic/2d-isotropic", 2, { 1, 0, 1 }, { 0.02, 0.01, 0.005 }, 1.0, { 0, 0, 0 },
    0.1, 1, { 0.31, 0, 0.43 }, 1e-3, FR_FOLD_LAS },
  { "/fold/analytic/2d-anisotropic", 2, { 1, 0, 1 }, { 0.02, 0.01, 0.005 }, 1.4, { 0.9, 0, -0.75 },
    0.1, 1, { 0.52, 0, 0.61 }, 2e-3, FR_FOLD_SOLAS },
  { "/fold/analytic/3d-isotropic", 3, { 1, 1, 1 }, { 0.125, 0.0625, 0.03125 }, 1.0, { 0, 0, 0 },
    0.15, 1, { 0.31, 0.52, 0.43 }, 6e-3, FR_FOLD_SOLAS },
  { "/fold/analytic/3d-anisotropic", 3, { 1, 1, 1 }, { 0.125, 0.0625, 0.03125 }, 1.4, { 0.9, -0.75, -0.07 },
    0.15, 1, { 0.47, 0.38, 0.55 }, 1e-2, FR_FOLD_LAS },
  /* Ex_A: 13 sources, F = 1.4, ψ = (0.9, −0.75, −0.07). */
  { "/fold/analytic/ex-a", 3, { 10, 13, 9 }, { 1.0, 0.5, 1.0 / 3.0 }, 1.4, { 0.9, -0.75, -0.07 },
    1.0, 13, { 0, 0, 0 }, 0.1, FR_FOLD_SOLAS },
};

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    g_test_add_data_func (cases[i].path, &cases[i], test_convergence);
  return g_test_run ();
}
