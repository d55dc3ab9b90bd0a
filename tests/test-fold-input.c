/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bad input to the fold solver gets FR_E_INPUT (or FR_E_UNSUPPORTED for
 * the CUDA back end) and a message naming the fault; a raised cancel flag
 * stops the solve.  (A program of its own: with the thread-count tests in
 * the same process, clang 14's LeakSanitizer trips over its own dynamic-TLS
 * scan at exit.) */
#include <glib.h>
#include <math.h>
#include <string.h>

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fold/input/cuda-fallback", test_cuda_fallback);
  g_test_add_func ("/fold/input/bad-input", test_bad_input);
  g_test_add_func ("/fold/input/cancel", test_cancel);
  return g_test_run ();
}
