/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bad input to the fold solver gets FR_E_INPUT (or FR_E_UNSUPPORTED for
 * the CUDA back end) and a message naming the fault; a raised cancel flag
 * stops the solve; a solve larger than the machine's memory is refused
 * before it allocates (FR_E_NOMEM), where the overcommitting kernel would
 * otherwise kill the process without a word.  (A program of its own: with the thread-count tests in
 * the same process, clang 14's LeakSanitizer trips over its own dynamic-TLS
 * scan at exit.) */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "fr-memory.h"
#include "fr-spr.h"   /* fr_cuda_usable */
#include "test-fold-common.h"

static void
expect_error (const fr_grid *g, const fr_fold_start *st, const fr_fold_params *p,
              fr_status code, const char *needle)
{
  fr_fold_result res;
  fr_error err = { 0 };
  g_assert_cmpint (fr_fold_solve (g, st, p, &res, &err), ==, code);
  g_test_message ("expected error: %s", err.message);
  g_assert_nonnull (strstr (err.message, needle));
  g_assert_null (res.time);
  fr_fold_result_clear (&res);
}

static void
test_bad_input (void)
{
  fr_grid g = fr_grid_2d (20, 10, 0.1, 0.1, 0, 0);
  fr_grid g3 = fr_grid_3d (8, 8, 8, 0.1, 0.1, 0.1, 0, 0, 0);
  float F[200];
  double src[2] = { 0.5, 0.5 }, src3[3] = { 0.3, 0.3, 0.3 };
  fr_fold_params p;
  fr_fold_start st = { .sources = src, .nsrc = 1 };

  for (int i = 0; i < 200; i++)
    F[i] = 1.0f;
  fr_fold_params_init (&p);
  p.speed = F;

  /* |ψ| >= F. */
  p.psi_a[0] = 0.6, p.psi_a[2] = 0.8;
  expect_error (&g, &st, &p, FR_E_INPUT, "psi_a");
  p.psi_a[0] = 0.0, p.psi_a[2] = 0.0;
  /* |ψ| >= F at one slow node only. */
  F[3 * 20 + 7] = 0.1f;
  p.psi_a[0] = 0.2;
  expect_error (&g, &st, &p, FR_E_INPUT, "ix=7, iz=3");
  F[3 * 20 + 7] = 1.0f;
  p.psi_a[0] = 0.0;
  /* A source in an obstacle. */
  F[5 * 20 + 5] = 0.0f;
  expect_error (&g, &st, &p, FR_E_INPUT, "obstacle");
  F[5 * 20 + 5] = 1.0f;
  /* A source outside the grid. */
  src[0] = 1.95;
  expect_error (&g, &st, &p, FR_E_INPUT, "outside the grid");
  src[0] = 0.5;
  /* The second of two sources, counted from 1 as the app's S1, S2 and
   * its scene messages count (it said "source 1"). */
  {
    double two[4] = { 0.5, 0.5, 1.2, 0.3 };
    fr_fold_start st2 = { .sources = two, .nsrc = 2 };
    F[3 * 20 + 12] = 0.0f;
    expect_error (&g, &st2, &p, FR_E_INPUT, "source 2 at (1.2, 0.3) lies in an obstacle");
    F[3 * 20 + 12] = 1.0f;
    two[2] = 2.5;
    expect_error (&g, &st2, &p, FR_E_INPUT, "source 2 at (2.5, 0.3) lies outside the grid");
  }
  /* Bad speeds. */
  F[11] = -1.0f;
  expect_error (&g, &st, &p, FR_E_INPUT, "negative");
  F[11] = 1.0f;
  p.speed = NULL;
  p.speed_const = 0.0;
  expect_error (&g, &st, &p, FR_E_INPUT, "constant speed");
  p.speed_const = 1.0;
  /* A source radius too small to reach any node from a source between nodes. */
  src[0] = 0.55, src[1] = 0.55;
  p.source_radius = 0.01;
  expect_error (&g, &st, &p, FR_E_INPUT, "source radius");
  src[0] = 0.5, src[1] = 0.5;
  p.source_radius = 0.0;
  /* No start at all. */
  fr_fold_start none = { 0 };
  expect_error (&g, &none, &p, FR_E_INPUT, "no start");
  /* A horizon on a 3D grid; a one-point horizon. */
  double hz[4] = { 0, 0.2, 1, 0.2 };
  fr_fold_start hs = { .horizon = hz, .nhorizon = 2 };
  fr_fold_start s3 = { .sources = src3, .nsrc = 1, .horizon = hz, .nhorizon = 2 };
  expect_error (&g3, &s3, &p, FR_E_INPUT, "2D");
  hs.nhorizon = 1;
  expect_error (&g, &hs, &p, FR_E_INPUT, "at least 2 points");
  /* Points whose differences overflow (it said "out of memory"). */
  double far[4] = { -1e308, 0.5, 1e308, 0.7 };
  fr_fold_start hf = { .horizon = far, .nhorizon = 2 };
  expect_error (&g, &hf, &p, FR_E_INPUT, "horizon point 1 lies too far out");
  /* A boundary's bad start values, at a node named in the grid's own
   * axes (2D ones had an iy=0 that no 2D input has). */
  {
    double bnd[200];
    fr_fold_start bs = { .boundary = bnd };
    for (int i = 0; i < 200; i++)
      bnd[i] = NAN;
    bnd[4 * 20 + 6] = -INFINITY;
    expect_error (&g, &bs, &p, FR_E_INPUT, "-inf at node (ix=6, iz=4)");
    bnd[4 * 20 + 6] = 0.0;
    p.speed = F;
    F[4 * 20 + 6] = 0.0f;
    expect_error (&g, &bs, &p, FR_E_INPUT, "obstacle node (ix=6, iz=4)");
    F[4 * 20 + 6] = 1.0f;
    p.speed = NULL;
  }
  /* Bad input is refused before any back end runs, the GPU's included. */
  p.backend = FR_FOLD_CUDA;
  expect_error (&g, &none, &p, FR_E_INPUT, "no start");
  p.backend = (fr_fold_backend) 7;
  expect_error (&g, &st, &p, FR_E_INPUT, "back end");
}

/* The CUDA back end without a device (or without CUDA in the build) is no
 * error: the CPU solves, and the notice says why. */
static void
test_cuda_fallback (void)
{
  fr_grid g = fr_grid_2d (30, 20, 0.1, 0.1, 0, 0);
  double src[2] = { 1, 1 };
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  fr_fold_params p;
  fr_fold_result res = { 0 };
  fr_error err = { 0 };

  if (fr_cuda_usable ())
    {
      g_test_skip ("a CUDA device is present: test-fold-cuda covers it");
      return;
    }
  fr_fold_params_init (&p);
  p.backend = FR_FOLD_CUDA;
  p.keep_device_time = true;
  g_assert_cmpint (fr_fold_solve (&g, &st, &p, &res, &err), ==, FR_OK);
  g_assert_cmpint (res.backend, ==, FR_FOLD_CPU);
  g_assert_nonnull (strstr (res.notice, "CUDA"));
  g_assert_nonnull (strstr (res.notice, "CPU"));
  g_assert_null (res.device_time);
  g_assert_true (isfinite (res.time[0]));
  fr_fold_result_clear (&res);
}

static void
test_cancel (void)
{
  fr_grid g = fr_grid_2d (64, 64, 0.1, 0.1, 0, 0);
  double src[2] = { 1, 1 };
  fr_fold_params p;
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  fr_cancel *c = fr_cancel_new ();

  fr_fold_params_init (&p);
  fr_cancel_raise (c);
  p.cancel = c;
  fr_fold_result res;
  fr_error err = { 0 };
  g_assert_cmpint (fr_fold_solve (&g, &st, &p, &res, &err), ==, FR_E_CANCELLED);
  fr_fold_result_clear (&res);
  fr_cancel_free (c);
}

/* The shared check itself: a size above the memory this process may use
 * (the physical memory, or its cgroup's limit where that is lower) is
 * refused with the figures in GB (2^30 bytes), one that fits is not.
 * Nothing is allocated. */
static void
test_memory_check (void)
{
  const double phys = fr_memory_physical (), have = fr_memory_available ();
  fr_error err = { 0 };
  char want[128];

  g_assert_cmpfloat (have, >, 0.0);
  g_assert_cmpfloat (have, <=, phys);
  g_assert_cmpint (fr_memory_check (2.0 * have, "a big solve", &err), ==, FR_E_NOMEM);
  g_assert_cmpint (err.code, ==, FR_E_NOMEM);
  g_test_message ("%s", err.message);
  g_snprintf (want, sizeof want, "a big solve needs about %.1f GB of memory, this machine has %.1f GB",
              2.0 * have / 1073741824.0, phys / 1073741824.0);
  if (have < phys)
    g_assert_true (g_str_has_prefix (err.message, want));
  else
    g_assert_cmpstr (err.message, ==, want);
  g_assert_cmpint (fr_memory_check (have + 4096.0, "x", NULL), ==, FR_E_NOMEM);
  g_assert_cmpint (fr_memory_check (1e6, "a small solve", &err), ==, FR_OK);
  g_assert_cmpint (fr_memory_check (have, "all of it", &err), ==, FR_OK);
}

/* Grids just under the 2^31-node limit with a constant speed: the audit's
 * 46340 × 46341 case was accepted and killed by the OOM killer.  Refused
 * now, quickly, with FR_E_NOMEM and a message naming the grid and both
 * sizes.  Where the machine is so large that it could hold the lower
 * bound of what the solve must allocate (speeds 4, T 8 and the blocked T
 * at least 4 or 8 bytes a node), the case is skipped rather than let a
 * real solve of that size start. */
static void
test_too_big_for_memory (void)
{
  static const struct { size_t nx, ny, nz; bool dbl; } cases[] = {
    { 46340, 1, 46341, false },
    { 1290, 1290, 1290, true },
  };
  double src[3] = { 0.0, 0.0, 0.0 };
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  int ran = 0;

  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const bool is3d = cases[c].ny > 1;
      fr_grid g = is3d ? fr_grid_3d (cases[c].nx, cases[c].ny, cases[c].nz, 1, 1, 1, 0, 0, 0)
                       : fr_grid_2d (cases[c].nx, cases[c].nz, 1, 1, 0, 0);
      const double n = (double) fr_grid_count (&g);
      const double least = n * (4.0 + 8.0 + (cases[c].dbl ? 8.0 : 4.0));
      fr_fold_params p;
      fr_fold_result res;
      fr_error err = { 0 };
      char grid[64];
      gint64 t0;

      if (fr_memory_available () >= least)
        {
          g_test_message ("case %zu skipped: this machine holds %.0f GB, the solve needs more",
                          c, least / 1073741824.0);
          continue;
        }
      ran++;
      fr_fold_params_init (&p);
      p.double_precision = cases[c].dbl;
      for (int b = FR_FOLD_BACKEND_AUTO; b <= FR_FOLD_CUDA; b++)
        {
          p.backend = (fr_fold_backend) b;
          t0 = g_get_monotonic_time ();
          g_assert_cmpint (fr_fold_solve (&g, &st, &p, &res, &err), ==, FR_E_NOMEM);
          g_test_message ("%s (%.3f s)", err.message, (double) (g_get_monotonic_time () - t0) * 1e-6);
          if (is3d)
            g_snprintf (grid, sizeof grid, "%zu x %zu x %zu", g.nx, g.ny, g.nz);
          else
            g_snprintf (grid, sizeof grid, "%zu x %zu", g.nx, g.nz);
          g_assert_nonnull (strstr (err.message, grid));
          g_assert_nonnull (strstr (err.message, "GB of memory, this machine has"));
          g_assert_null (res.time);
          /* Refused before touching a node: a solve's set-up alone takes seconds here. */
          g_assert_cmpint (g_get_monotonic_time () - t0, <, G_USEC_PER_SEC / 2);
          fr_fold_result_clear (&res);
        }
    }
  if (ran == 0)
    g_test_skip ("this machine could hold these solves: nothing is refused");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fold/input/cuda-fallback", test_cuda_fallback);
  g_test_add_func ("/fold/input/bad-input", test_bad_input);
  g_test_add_func ("/fold/input/cancel", test_cancel);
  g_test_add_func ("/fold/input/memory-check", test_memory_check);
  g_test_add_func ("/fold/input/too-big-for-memory", test_too_big_for_memory);
  return g_test_run ();
}
