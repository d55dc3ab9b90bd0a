/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Point sources where the speed varies near them.  The exact start near a
 * source (fold-init.c) holds for the source cell's speed; where the ball
 * reaches other speeds its values must still be times a path can take, or
 * the sweeps, which only lower values, keep them.  Against analytic times:
 * a source under a slow layer (the vertical path through the interface),
 * 2D and 3D, and a linear gradient (the arccosh time), each on three grids:
 * the error at the finest bounded and falling with the spacing. */
#include <glib.h>
#include <math.h>

#include "test-fold-common.h"

typedef struct interface_case {
  const char *path;
  int ndim;
  double h[3];
  fr_fold_method method;
  double max_err;      /* bound at the finest grid */
} interface_case;

/* Speed 1 above z = 1, 4 from z = 1 down, on [0, 2]^d; a source 0.2 below
 * the interface under the centre, its ball (radius 0.5) across it.  Above
 * the source the first arrival goes straight up: in the nearest-node model
 * the interface lies half a spacing above z = 1's nodes. */
static double
interface_error (const interface_case *c, double h)
{
  const size_t n1 = (size_t) llround (2.0 / h) + 1;
  fr_grid g = c->ndim == 3 ? fr_grid_3d (n1, n1, n1, h, h, h, 0, 0, 0)
                           : fr_grid_2d (n1, n1, h, h, 0, 0);
  const size_t n = fr_grid_count (&g);
  const double src[3] = { 1.0, 1.0, 1.2 };
  double flat[3];
  float *F = g_new (float, n);
  fr_fold_params p;
  fr_fold_start st = { 0 };
  fr_fold_result res;
  const double zi = 1.0 - 0.5 * h;
  double worst = 0.0;

  for (size_t i = 0; i < n; i++)
    {
      double x[3];
      fold_node_xyz (&g, i, x);
      F[i] = x[2] < zi ? 1.0f : 4.0f;
    }
  if (c->ndim == 3)
    flat[0] = src[0], flat[1] = src[1], flat[2] = src[2];
  else
    flat[0] = src[0], flat[1] = src[2];
  fr_fold_params_init (&p);
  p.speed = F;
  p.source_radius = 0.5;
  p.method = c->method;
  p.double_precision = true;
  st.sources = flat;
  st.nsrc = 1;
  fold_solve_ok (&g, &st, &p, &res);

  /* The column above the source, from inside the ball to the top. */
  const size_t ic = (size_t) llround (1.0 / h);
  for (size_t iz = 0; (double) iz * h < zi - 0.05; iz++)
    {
      const double z = (double) iz * h;
      const double exact = (src[2] - zi) / 4.0 + (zi - z) / 1.0;
      const double t = res.time[fr_grid_index (&g, ic, c->ndim == 3 ? ic : 0, iz)];
      worst = fmax (worst, fabs (t - exact));
    }
  g_test_message ("%s h=%g: worst error above the source %.4f", c->path, h, worst);
  fr_fold_result_clear (&res);
  g_free (F);
  return worst;
}

static void
test_interface (gconstpointer data)
{
  const interface_case *c = data;
  double err[3];

  for (int i = 0; i < 3; i++)
    err[i] = interface_error (c, c->h[i]);
  g_assert_cmpfloat (err[2], <, c->max_err);
  g_assert_cmpfloat (err[2], <, 0.7 * err[0]);
}

/* v = 1.5 + 0.8 z on [0, 10]², a source at (5, 2):
 * T = arccosh (1 + g² r² / (2 v(zs) v(z))) / g. */
static double
gradient_error (double h, double *rms)
{
  const size_t n1 = (size_t) llround (10.0 / h) + 1;
  fr_grid g = fr_grid_2d (n1, n1, h, h, 0, 0);
  const size_t n = fr_grid_count (&g);
  const double gr = 0.8, v0 = 1.5, src[2] = { 5.0, 2.0 };
  float *F = g_new (float, n);
  double *exact = g_new (double, n);
  fr_fold_params p;
  fr_fold_start st = { 0 };
  fr_fold_result res;
  double worst = 0.0;

  for (size_t i = 0; i < n; i++)
    {
      double x[3];
      fold_node_xyz (&g, i, x);
      F[i] = (float) (v0 + gr * x[2]);
      const double r2 = (x[0] - src[0]) * (x[0] - src[0]) + (x[2] - src[1]) * (x[2] - src[1]);
      exact[i] = acosh (1.0 + gr * gr * r2 / (2.0 * (v0 + gr * src[1]) * (double) F[i])) / gr;
    }
  fr_fold_params_init (&p);
  p.speed = F;
  p.method = FR_FOLD_LAS;
  p.double_precision = true;
  st.sources = src;
  st.nsrc = 1;
  fold_solve_ok (&g, &st, &p, &res);
  for (size_t i = 0; i < n; i++)
    worst = fmax (worst, fabs (res.time[i] - exact[i]));
  *rms = fold_rms_diff (&g, res.time, exact);
  g_test_message ("gradient h=%g: worst error %.4f, RMS %.2e", h, worst, *rms);
  fr_fold_result_clear (&res);
  g_free (exact);
  g_free (F);
  return worst;
}

static void
test_gradient (void)
{
  const double h[3] = { 0.05, 0.025, 0.0125 };
  double worst[3], rms[3];

  for (int i = 0; i < 3; i++)
    worst[i] = gradient_error (h[i], &rms[i]);
  double rate = fold_observed_rate (h, worst, 3);
  double rate_rms = fold_observed_rate (h, rms, 3);
  g_test_message ("gradient: worst errors %.4f %.4f %.4f (rate %.2f), RMS rate %.2f",
                  worst[0], worst[1], worst[2], rate, rate_rms);
  g_assert_cmpfloat (worst[2], <, 5e-3);
  g_assert_cmpfloat (rate, >=, 0.7);
  g_assert_cmpfloat (rate_rms, >=, 0.9);
}

static const interface_case interface_cases[] = {
  { "/fold/source-speed/interface-2d", 2, { 0.02, 0.01, 0.005 }, FR_FOLD_LAS, 2e-3 },
  { "/fold/source-speed/interface-3d", 3, { 0.1, 0.05, 0.025 }, FR_FOLD_SOLAS, 6e-3 },
};

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t i = 0; i < G_N_ELEMENTS (interface_cases); i++)
    g_test_add_data_func (interface_cases[i].path, &interface_cases[i], test_interface);
  g_test_add_func ("/fold/source-speed/gradient", test_gradient);
  return g_test_run ();
}
