/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fold solver does not care about units.  By dimensional analysis, a
 * model with every length times L and every speed (F and ψa) times V has
 * the times of the model at L = V = 1 times L / V, exactly in the
 * equation and, for the scheme, to the rounding of the precision.  In
 * single precision this used to fail silently where spacing × speed left
 * about [1e-7, 3e6] (10 % errors at 1000 m and 6000 m/s); the solver now
 * works in scaled units there (fold.c, unit_exponent).  Messages still
 * speak the user's units. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "fr-spr.h"   /* fr_cuda_usable */
#include "test-fold-common.h"

typedef enum { START_POINT, START_HORIZON, START_BOUNDARY } start_kind;

/* One solve of the reference model scaled by L (lengths) and V (speeds).
 * The model: a 2D or 3D grid of 41 × 33 (× 9) nodes, a layered speed
 * (1 and 1.5 in model units: exact in binary, so that only the scheme's
 * rounding differs between scales) with ψa = (0.3, 0.2) (× V), started from a
 * point, a horizon or a boundary grid (2D). */
static double *
solve_scaled (int ndim, start_kind kind, bool dbl, fr_fold_backend be, double L, double V)
{
  const size_t nx = 41, ny = ndim == 3 ? 9 : 1, nz = 33;
  fr_grid g = ndim == 3 ? fr_grid_3d (nx, ny, nz, L, L, L, 0.5 * L, 0, -L)
                        : fr_grid_2d (nx, nz, L, L, 0.5 * L, -L);
  const size_t n = fr_grid_count (&g);
  float *F = g_new (float, n);
  double src[3] = { 12.5 * L, 3.0 * L, 7.0 * L };
  double horizon[6] = { 0.5 * L, 20.0 * L, 20.0 * L, 12.0 * L, 40.5 * L, 22.0 * L };
  double *boundary = NULL;
  fr_fold_params p;
  fr_fold_result res;
  fr_fold_start st = { 0 };

  for (size_t i = 0; i < n; i++)
    F[i] = (float) ((i / (nx * ny) < nz / 2 ? 1.0 : 1.5) * V);
  fr_fold_params_init (&p);
  p.speed = F;
  p.psi_a[0] = 0.3 * V;
  p.psi_a[2] = 0.2 * V;
  p.backend = be;
  p.threads = 1;
  p.double_precision = dbl;
  if (ndim == 2)
    src[1] = src[2];
  switch (kind)
    {
    case START_POINT:
      st.sources = src;
      st.nsrc = 1;
      break;
    case START_HORIZON:
      st.horizon = horizon;
      st.nhorizon = 3;
      break;
    case START_BOUNDARY:
      /* The top row starts at times 0.1·ix (× L / V); the rest is free. */
      boundary = g_new (double, n);
      for (size_t i = 0; i < n; i++)
        boundary[i] = i < nx ? 0.1 * (double) i * L / V : NAN;
      st.boundary = boundary;
      break;
    }
  fold_solve_ok (&g, &st, &p, &res);
  double *t = g_memdup2 (res.time, n * sizeof (double));
  fr_fold_result_clear (&res);
  g_free (F);
  g_free (boundary);
  return t;
}

/* max |T(L, V)·V/L − T(1, 1)| / T(1, 1) over the reached nodes; both must
 * reach the same nodes. */
static double
scaled_deviation (const double *t, const double *ref, size_t n, double L, double V)
{
  double worst = 0.0;

  for (size_t i = 0; i < n; i++)
    {
      g_assert_cmpint (isfinite (t[i]), ==, isfinite (ref[i]));
      if (isfinite (ref[i]) && ref[i] > 0.0)
        worst = fmax (worst, fabs (t[i] * V / L - ref[i]) / ref[i]);
    }
  return worst;
}

static void
test_scale_invariance (void)
{
  /* (L, V): SI units at a kilometre's spacing; far below and far above.
   * Speeds are float: each V keeps 1 and 1.5 exact there.  The last two
   * keep spacing × speed at 1 but put the times (L / V) beyond float's
   * range: 2^-170 was solved as 0 (every node a source), 2^140 as +inf. */
  static const double scales[][2] = {
    { 1000.0, 6000.0 }, { 1.0e7, 1.0 }, { 1.0e-7, 1.0 }, { 1.0, 1.0e8 }, { 1.0e-3, 0x1p-17 },
    { 0x1p-85, 0x1p85 }, { 0x1p70, 0x1p-70 },
  };
  static const struct { int ndim; start_kind kind; } models[] = {
    { 2, START_POINT }, { 2, START_HORIZON }, { 2, START_BOUNDARY }, { 3, START_POINT },
  };

  /* The CUDA back end too, where there is a device: it gets the same
   * scaled model. */
  const int nbe = fr_cuda_usable () ? 2 : 1;

  for (int b = 0; b < nbe; b++)
    for (size_t m = 0; m < G_N_ELEMENTS (models); m++)
      for (int dbl = 0; dbl <= 1; dbl++)
        {
          const fr_fold_backend be = b == 0 ? FR_FOLD_CPU : FR_FOLD_CUDA;
          const int nd = models[m].ndim;
          const size_t n = nd == 3 ? 41 * 9 * 33 : 41 * 33;
          double *ref = solve_scaled (nd, models[m].kind, dbl, be, 1.0, 1.0);
          for (size_t s = 0; s < G_N_ELEMENTS (scales); s++)
            {
              const double L = scales[s][0], V = scales[s][1];
              double *t = solve_scaled (nd, models[m].kind, dbl, be, L, V);
              const double dev = scaled_deviation (t, ref, n, L, V);
              g_test_message ("%s %dD start %d %s, L %g, V %g: largest deviation %.2e",
                              fr_fold_backend_name (be), nd, (int) models[m].kind,
                              dbl ? "double" : "single", L, V, dev);
              /* A few of float's ulps in single.  In double 1e-15, but
               * beside a horizon: a node's distance from it keeps the
               * rounding of coordinates of the horizon's size (1.2e-13
               * seen; 1.1e-10 before the distance stopped cancelling). */
              g_assert_cmpfloat (dev, <=, dbl ? 1e-12 : 4e-6);
              g_free (t);
            }
          g_free (ref);
        }
}

/* A bad source in a model the solver scales is named in the user's
 * coordinates, not in the scaled ones. */
static void
test_message_units (void)
{
  fr_grid g = fr_grid_2d (20, 10, 1000.0, 1000.0, 0, 0);
  double src[2] = { 25000.0, 3000.0 };
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  fr_fold_params p;
  fr_fold_result res;
  fr_error err = { 0 };

  fr_fold_params_init (&p);
  p.speed_const = 6000.0;
  g_assert_cmpint (fr_fold_solve (&g, &st, &p, &res, &err), ==, FR_E_INPUT);
  g_test_message ("%s", err.message);
  g_assert_nonnull (strstr (err.message, "(25000, 3000)"));
  fr_fold_result_clear (&res);
}

/* A boundary start far larger than the steps of a model the solver
 * scales (spacing 2^-100, speed 1: times of 2^-100 a node) was scaled
 * with them, beyond float's range: every node came back +inf, "unreached",
 * the boundary's own included.  The times are B + distance / F, which is
 * B to within far less than its rounding. */
static void
test_large_start (void)
{
  enum { NX = 21, NZ = 13 };
  const double h = 0x1p-100, B = 0x1p30;
  fr_grid g = fr_grid_2d (NX, NZ, h, h, 0.0, 0.0);
  double boundary[NX * NZ];
  fr_fold_start st = { .boundary = boundary };

  for (size_t i = 0; i < NX * NZ; i++)
    boundary[i] = i < NX ? B : NAN;
  for (int dbl = 0; dbl <= 1; dbl++)
    {
      fr_fold_params p;
      fr_fold_result res;

      fr_fold_params_init (&p);
      p.speed_const = 1.0;
      p.backend = FR_FOLD_CPU;
      p.double_precision = dbl;
      fold_solve_ok (&g, &st, &p, &res);
      for (size_t i = 0; i < NX * NZ; i++)
        {
          g_assert_true (isfinite (res.time[i]));
          if (i < NX)
            g_assert_cmpfloat (res.time[i], ==, B);
          else
            g_assert_cmpfloat (fabs (res.time[i] - B), <=, 1e-6 * B);
        }
      fr_fold_result_clear (&res);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fold/units/scale-invariance", test_scale_invariance);
  g_test_add_func ("/fold/units/message", test_message_units);
  g_test_add_func ("/fold/units/large-start", test_large_start);
  return g_test_run ();
}
