/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The app's solve (fr_job_run) takes its radius along x and along z apart,
 * each to its own axis.  On cells five times taller than wide, a constant
 * speed's T is the straight distance over the speed; the stencil covers
 * directions evenly only with five times the nodes along x, so that
 * radius is within a percent of it everywhere and the others are not.
 * The excess is what the stencil's widest gap between directions predicts
 * (fr_radius_stencil_error), which the app's status bar quotes. */
#include <math.h>

#include <glib.h>

#include "fr-job.h"

#define NX 201
#define NZ 41
#define DX 0.01
#define DZ 0.05

static FrResult *
solve (FrRadius radius)
{
  fr_grid g = fr_grid_2d (NX, NZ, DX, DZ, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FrJob) job = NULL;
  double src[2] = { 1.0, 0.0 };
  gboolean cancelled = TRUE;
  FrResult *result;

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = 2.0f;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  job = fr_job_new (&g, bytes, src, 1, NULL, 0, radius, FR_SPR_CPU);
  result = fr_job_run (job, NULL, &cancelled);
  g_assert_false (cancelled);
  g_assert_true (result->ok);
  return result;
}

/* The largest relative error of T against distance/speed (the source at
 * x = 1, z = 0, speed 2), away from the source, where a node or two of
 * stencil are the whole path. */
static double
worst_error (const FrResult *result)
{
  double worst = 0.0;

  for (size_t iz = 0; iz < NZ; iz++)
    for (size_t ix = 0; ix < NX; ix++)
      {
        double d = hypot (ix * DX - 1.0, iz * DZ);
        double t = result->time[fr_grid_index (&result->job->grid, ix, 0, iz)];

        if (d > 0.3)
          worst = MAX (worst, fabs (t - d / 2.0) / (d / 2.0));
      }
  return worst;
}

static void
test_per_axis (void)
{
  g_autoptr(FrResult) even = solve ((FrRadius) { 25, 5 });
  g_autoptr(FrResult) square = solve (fr_radius_square (5));
  g_autoptr(FrResult) swapped = solve ((FrRadius) { 5, 25 });
  g_autoptr(FrResult) wide = solve (fr_radius_square (25));
  gboolean same = TRUE;

  g_test_message ("worst relative error: radius 25,5 %.4f; 5,5 %.4f; 5,25 %.4f; 25,25 %.4f",
                  worst_error (even), worst_error (square), worst_error (swapped),
                  worst_error (wide));
  g_assert_cmpfloat (worst_error (even), <, 0.01);
  g_assert_cmpfloat (worst_error (square), >, 0.03);
  g_assert_cmpfloat (worst_error (swapped), >, 0.03);
  /* The solves' worst, far from the source, is the stencil's to within a
   * few per cent of it (the nodes need not lie at the worst direction). */
  {
    const FrRadius radii[] = { { 25, 5 }, { 5, 5 }, { 5, 25 }, { 25, 25 } };
    FrResult *results[] = { even, square, swapped, wide };

    for (guint i = 0; i < G_N_ELEMENTS (radii); i++)
      {
        double predicted = fr_radius_stencil_error (radii[i], DX, DZ);

        g_assert_cmpfloat (worst_error (results[i]), <=, predicted * 1.001);
        g_assert_cmpfloat (worst_error (results[i]), >=, predicted * 0.95);
      }
  }
  /* The z radius is no copy of x's: 25 along z as well reaches other
   * nodes and gives another T. */
  for (size_t i = 0; i < (size_t) NX * NZ; i++)
    same &= even->time[i] == wide->time[i];
  g_assert_false (same);
}

/* The stencil's error from its widest gap: on square cells radius 1 has
 * 45 degrees between directions, radius 5 the 11.3 between (1, 0) and
 * (5, 1); cells five times taller need five times the nodes across for
 * the same.  The radius of even reach keeps the coarser axis's count. */
static void
test_stencil_error (void)
{
  const double sec = 1.0 / cos (0.5 * atan (1.0 / 5.0)) - 1.0;

  g_assert_cmpfloat_with_epsilon (fr_radius_stencil_error (fr_radius_square (1), 1.0, 1.0),
                                  1.0 / cos (G_PI / 8.0) - 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (fr_radius_stencil_error (fr_radius_square (5), 1.0, 1.0), sec, 1e-12);
  g_assert_cmpfloat_with_epsilon (fr_radius_stencil_error ((FrRadius) { 25, 5 }, 0.01, 0.05), sec, 1e-12);
  g_assert_cmpfloat_with_epsilon (fr_radius_stencil_error ((FrRadius) { 5, 25 }, 0.05, 0.01), sec, 1e-12);

  g_assert_true (fr_radius_equal (fr_radius_even_reach (fr_radius_square (5), 0.01, 0.05),
                                  (FrRadius) { 25, 5 }));
  g_assert_true (fr_radius_equal (fr_radius_even_reach (fr_radius_square (5), 0.05, 0.01),
                                  (FrRadius) { 5, 25 }));
  g_assert_true (fr_radius_equal (fr_radius_even_reach (fr_radius_square (4), 0.1, 0.1),
                                  fr_radius_square (4)));
  g_assert_true (fr_radius_equal (fr_radius_even_reach ((FrRadius) { 30, 5 }, 0.01, 0.05),
                                  (FrRadius) { 30, 6 }));
  /* Up to the solver's largest. */
  g_assert_true (fr_radius_equal (fr_radius_even_reach (fr_radius_square (5), 0.001, 0.5),
                                  (FrRadius) { 100, 5 }));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/job/radius-per-axis", test_per_axis);
  g_test_add_func ("/app/job/stencil-error", test_stencil_error);
  return g_test_run ();
}
