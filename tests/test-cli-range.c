/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Values against the ranges of float32 and float64 (CONTRACT.md: +inf in
 * a time grid means unreached, and only that; negative, NaN or infinite
 * speeds are bad input).  fr_time_check_range on grids made by hand and
 * on real solves, then `foldray-cli spr` and `fold` end to end: every
 * overflow is exit 2 with one line naming the flag or file and no output
 * file; a case just inside the range solves and matches T = distance /
 * speed. */
#include <float.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "fr-fold.h"
#include "fr-npy.h"
#include "fr-spr.h"
#include "fr-time-check.h"
#include "test-cli-run.h"

/* ---- fr_time_check_range on grids made by hand -------------------------- */

static void
test_check_by_hand (void)
{
  enum { NX = 4, NZ = 3 };
  fr_grid g = fr_grid_2d (NX, NZ, 1.0, 1.0, 0.0, 0.0);
  double t[NX * NZ];
  float v[NX * NZ];
  fr_error err = { 0 };

  for (int i = 0; i < NX * NZ; i++)
    t[i] = i, v[i] = 1.0f;
  g_assert_cmpint (fr_time_check_range (&g, t, v, true, &err), ==, FR_OK);
  g_assert_cmpint (fr_time_check_range (&g, t, NULL, false, &err), ==, FR_OK);

  /* Finite in double, +inf once narrowed: refused in single only. */
  t[5] = 3.5e38;
  g_assert_cmpint (fr_time_check_range (&g, t, v, false, &err), ==, FR_OK);
  g_assert_cmpint (fr_time_check_range (&g, t, v, true, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "single precision's range"));
  g_assert_nonnull (strstr (err.message, "(ix=1, iz=1)"));
  /* FLT_MAX itself is still a time. */
  t[5] = FLT_MAX;
  g_assert_cmpint (fr_time_check_range (&g, t, v, true, &err), ==, FR_OK);

  /* NaN and -inf are never times, obstacle or not. */
  t[5] = NAN;
  v[5] = 0.0f;
  g_assert_cmpint (fr_time_check_range (&g, t, v, false, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "(NaN)"));
  g_assert_nonnull (strstr (err.message, "double precision's range"));
  t[5] = -INFINITY;
  g_assert_cmpint (fr_time_check_range (&g, t, v, true, &err), ==, FR_E_INPUT);

  /* +inf at an obstacle is unreached; at a free node beside a free,
   * finite one it overflowed. */
  t[5] = INFINITY;
  g_assert_cmpint (fr_time_check_range (&g, t, v, true, &err), ==, FR_OK);
  v[5] = 1.0f;
  g_assert_cmpint (fr_time_check_range (&g, t, v, true, &err), ==, FR_E_INPUT);
  g_assert_cmpint (fr_time_check_range (&g, t, NULL, false, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "(ix=1, iz=1)"));

  /* Node 5 = (1, 1) walled in: its axis neighbours 1, 4, 6 and 9 are
   * obstacles, and its diagonal neighbours do not count. */
  v[1] = v[4] = v[6] = v[9] = 0.0f;
  t[1] = t[4] = t[6] = t[9] = INFINITY;
  g_assert_cmpint (fr_time_check_range (&g, t, v, true, &err), ==, FR_OK);
  /* ... even when an obstacle beside it holds a finite time. */
  t[6] = 1e39;
  g_assert_cmpint (fr_time_check_range (&g, t, v, false, &err), ==, FR_OK);
  /* A finite time that single precision cannot hold is refused in single. */
  g_assert_cmpint (fr_time_check_range (&g, t, v, true, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "(ix=2, iz=1)"));

  /* A row: free nodes that are all unreached say nothing; a finite
   * neighbour counts only when it is free. */
  fr_grid row = fr_grid_2d (3, 1, 1.0, 1.0, 0.0, 0.0);
  double tr[3] = { INFINITY, INFINITY, INFINITY };
  float vr[3] = { 1.0f, 1.0f, 0.0f };
  g_assert_cmpint (fr_time_check_range (&row, tr, vr, true, &err), ==, FR_OK);
  tr[2] = 0.0;
  g_assert_cmpint (fr_time_check_range (&row, tr, vr, true, &err), ==, FR_OK);
  vr[2] = 1.0f;
  g_assert_cmpint (fr_time_check_range (&row, tr, vr, true, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "(ix=1, iz=0)"));

  /* 3D: a neighbour along y alone suffices, and iy is named. */
  fr_grid g3 = fr_grid_3d (1, 3, 1, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0);
  double t3[3] = { 0.0, 1.0, INFINITY };
  g_assert_cmpint (fr_time_check_range (&g3, t3, NULL, true, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "(ix=0, iy=2, iz=0)"));
  t3[1] = INFINITY;
  float v3[3] = { 1.0f, 0.0f, 1.0f };
  g_assert_cmpint (fr_time_check_range (&g3, t3, v3, true, &err), ==, FR_OK);
}

/* Each of the six axis neighbours alone makes a free +inf an overflow: a
 * line of three free nodes along x, y or z holding 0, 1, +inf, in either
 * order, so that the +inf node's one finite neighbour lies on one side of
 * one axis (a front that ran up a column one node wide, its times past
 * float32's range).  In test_check_by_hand every other neighbour is
 * finite too, so that the rule for one side could go and nothing saw it. */
static void
test_each_neighbour (void)
{
  for (int axis = 0; axis < 3; axis++)
    for (int up = 0; up <= 1; up++)
      {
        const size_t nx = axis == 0 ? 3 : 1, ny = axis == 1 ? 3 : 1, nz = axis == 2 ? 3 : 1;
        fr_grid g = axis == 1 ? fr_grid_3d (nx, ny, nz, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0)
                              : fr_grid_2d (nx, nz, 1.0, 1.0, 0.0, 0.0);
        const float v[3] = { 1.0f, 1.0f, 1.0f };
        /* up: the +inf node is the first, its neighbour after it. */
        double t[3] = { up ? INFINITY : 0.0, 1.0, up ? 0.0 : INFINITY };
        const size_t at = up ? 0 : 2;
        char want[64];
        fr_error err = { 0 };

        if (axis == 1)
          g_snprintf (want, sizeof want, "(ix=0, iy=%zu, iz=0)", at);
        else if (axis == 0)
          g_snprintf (want, sizeof want, "(ix=%zu, iz=0)", at);
        else
          g_snprintf (want, sizeof want, "(ix=0, iz=%zu)", at);
        g_test_message ("axis %c, +inf at node %zu", "xyz"[axis], at);
        g_assert_cmpint (fr_time_check_range (&g, t, v, true, &err), ==, FR_E_INPUT);
        g_assert_nonnull (strstr (err.message, want));
        g_assert_cmpint (fr_time_check_range (&g, t, NULL, false, &err), ==, FR_E_INPUT);
        /* The middle node an obstacle: the +inf node is walled off, not
         * overflowed. */
        {
          float walled[3] = { 1.0f, 0.0f, 1.0f };
          t[1] = INFINITY;
          g_assert_cmpint (fr_time_check_range (&g, t, walled, true, &err), ==, FR_OK);
        }
      }
}

/* ---- no false alarm on real solves -------------------------------------- */

/* Speeds 0.5 to 2 with scattered obstacles and a walled-in pocket (a ring
 * of obstacles around free nodes): some nodes are unreached, and only
 * those may hold +inf. */
static float *
obstacle_model (const fr_grid *g, guint32 seed)
{
  size_t n = fr_grid_count (g);
  float *v = g_new (float, n);
  GRand *rand = g_rand_new_with_seed (seed);

  for (size_t i = 0; i < n; i++)
    v[i] = g_rand_double (rand) < 0.2 ? 0.0f : (float) g_rand_double_range (rand, 0.5, 2.0);
  for (size_t iz = 0; iz < g->nz; iz++)
    for (size_t iy = 0; iy < g->ny; iy++)
      for (size_t ix = 0; ix < g->nx; ix++)
        {
          size_t dx = ix > 8 ? ix - 8 : 8 - ix, dz = iz > 6 ? iz - 6 : 6 - iz;
          size_t dy = g->ndim == 3 ? (iy > 3 ? iy - 3 : 3 - iy) : 0;
          size_t d = MAX (MAX (dx, dy), dz);
          if (d <= 2)
            v[fr_grid_index (g, ix, iy, iz)] = d == 2 ? 0.0f : 1.0f;
        }
  v[0] = 1.0f;     /* the source's node */
  g_rand_free (rand);
  return v;
}

static void
assert_pocket_unreached (const fr_grid *g, const double *t)
{
  size_t iy = g->ndim == 3 ? 3 : 0;
  g_assert_true (isinf (t[fr_grid_index (g, 8, iy, 6)]));
}

static void
test_no_false_alarm (void)
{
  for (guint32 seed = 1; seed <= 4; seed++)
    for (int dp = 0; dp <= 1; dp++)
      {
        fr_grid g = fr_grid_2d (17, 13, 0.7, 0.4, 0.0, 0.0);
        g_autofree float *v = obstacle_model (&g, seed);
        double src[3] = { 0.0, 0.0, 0.0 };
        fr_error err = { 0 };

        const fr_spr_backend backends[] = { FR_SPR_DIJKSTRA, FR_SPR_CPU };
        for (size_t b = 0; b < G_N_ELEMENTS (backends); b++)
          {
            fr_spr_params p;
            fr_spr_result r = { 0 };
            fr_spr_params_init (&p);
            p.rx = p.rz = 3;
            p.backend = backends[b];
            p.double_precision = dp;
            g_assert_cmpint (fr_spr_solve (&g, v, src, 1, &p, &r, &err), ==, FR_OK);
            assert_pocket_unreached (&g, r.time);
            g_assert_cmpint (fr_time_check_range (&g, r.time, v, !dp, &err), ==, FR_OK);
            fr_spr_result_clear (&r);
          }

        fr_fold_params p;
        fr_fold_result r = { 0 };
        fr_fold_start st = { .sources = src, .nsrc = 1 };
        fr_fold_params_init (&p);
        p.speed = v;
        p.backend = FR_FOLD_CPU;
        p.double_precision = dp;
        g_assert_cmpint (fr_fold_solve (&g, &st, &p, &r, &err), ==, FR_OK);
        assert_pocket_unreached (&g, r.time);
        g_assert_cmpint (fr_time_check_range (&g, r.time, v, !dp, &err), ==, FR_OK);
        fr_fold_result_clear (&r);

        fr_grid g3 = fr_grid_3d (13, 7, 11, 0.5, 0.6, 0.7, 0.0, 0.0, 0.0);
        g_autofree float *v3 = obstacle_model (&g3, seed);
        fr_fold_params_init (&p);
        p.speed = v3;
        p.backend = FR_FOLD_CPU;
        p.double_precision = dp;
        g_assert_cmpint (fr_fold_solve (&g3, &st, &p, &r, &err), ==, FR_OK);
        assert_pocket_unreached (&g3, r.time);
        g_assert_cmpint (fr_time_check_range (&g3, r.time, v3, !dp, &err), ==, FR_OK);
        fr_fold_result_clear (&r);
      }
}

/* ---- foldray-cli -------------------------------------------------------- */

/* Exit 2, exactly one line starting "foldray-cli: " that holds every
 * needle, and no file at out. */
static void
assert_refused (const char *const *args, const char *const *needles, const char *out)
{
  run_out r = cli_run (NULL, args);

  g_test_message ("%s %s ...: exit %d, stderr: %s", args[0], args[1], r.status, r.err);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_true (g_str_has_prefix (r.err, "foldray-cli: "));
  g_assert_nonnull (strchr (r.err, '\n'));
  g_assert_cmpstr (strchr (r.err, '\n') + 1, ==, "");
  for (const char *const *n = needles; *n; n++)
    g_assert_nonnull (strstr (r.err, *n));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  run_out_clear (&r);
}

/* Runs args, which must succeed, and reads T back. */
static void
solve_ok (const char *const *args, const char *out, fr_array *t)
{
  run_out r = cli_run (NULL, args);
  fr_error err = { 0 };

  g_test_message ("%s %s ...: exit %d, stderr: %s", args[0], args[1], r.status, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (fr_npy_read (out, t, &err), ==, FR_OK);
  g_assert_cmpint (t->ndim, ==, 2);
  run_out_clear (&r);
  g_unlink (out);
}

static double
value_at (const fr_array *t, size_t ix, size_t iz)
{
  size_t i = iz * t->shape[1] + ix;
  return t->dtype == FR_F32 ? ((const float *) t->data)[i] : ((const double *) t->data)[i];
}

/* A 30 × 20 grid of one value, the node (4, 3) set apart. */
enum { NX = 30, NZ = 20 };

static char *
write_grid (const char *dir, const char *name, fr_dtype dtype, double value, double at_4_3)
{
  char *path = g_build_filename (dir, name, NULL);
  fr_array a = { .ndim = 2, .shape = { NZ, NX }, .dtype = dtype };

  a.data = dtype == FR_F32 ? g_malloc (NX * NZ * sizeof (float)) : g_malloc (NX * NZ * sizeof (double));
  for (size_t i = 0; i < NX * NZ; i++)
    {
      double x = i == 3 * NX + 4 ? at_4_3 : value;
      if (dtype == FR_F32)
        ((float *) a.data)[i] = (float) x;
      else
        ((double *) a.data)[i] = x;
    }
  g_assert_cmpint (fr_npy_write (path, &a, NULL), ==, FR_OK);
  g_free (a.data);
  return path;
}

/* Reachable nodes once came out as +inf or NaN, with exit 0. */
static void
test_cli_times_overflow (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cli-range-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *v1 = write_grid (dir, "v1.npy", FR_F32, 1.0, 1.0);
  g_autofree char *denorm = write_grid (dir, "denorm.npy", FR_F32, 1e-45, 1e-45);

  /* Times of ~1e37 · 35 pass FLT_MAX (3.4e38). */
  const char *fold_single[] = { "fold", "--speed-const", "1", "--shape", "30,20", "--spacing",
                                "1e37", "--source", "0,0", "--out", out, NULL };
  const char *n_single[] = { "--spacing 1e37", "single precision", "--precision double", NULL };
  assert_refused (fold_single, n_single, out);
  const char *fold_file[] = { "fold", "--speed", v1, "--spacing", "1e37", "--source", "0,0",
                              "--out", out, NULL };
  const char *n_file[] = { "--spacing 1e37", v1, "single precision", NULL };
  assert_refused (fold_file, n_file, out);
  const char *spr_single[] = { "spr", "--velocity", v1, "--spacing", "1e37", "--source", "0,0",
                               "--radius", "2", "--out", out, NULL };
  assert_refused (spr_single, n_file, out);

  /* Speeds, not spacing: 1 / 1e-38 per unit, and a slowness of 1e45. */
  const char *fold_slow[] = { "fold", "--speed-const", "1e-38", "--shape", "30,20", "--spacing",
                              "1", "--source", "5,5", "--out", out, NULL };
  const char *n_slow[] = { "--speed-const 1e-38", "single precision", NULL };
  assert_refused (fold_slow, n_slow, out);
  const char *spr_slow[] = { "spr", "--velocity", denorm, "--spacing", "1", "--source", "5,5",
                             "--radius", "2", "--out", out, NULL };
  const char *n_denorm[] = { denorm, "single precision", NULL };
  assert_refused (spr_slow, n_denorm, out);

  /* Double precision: squared distances of 1e200 spacings overflow, and
   * at 1e154 spr silently lost its diagonal edges; both are refused up
   * front, naming the flag. */
  const char *sp[] = { "1e200", "1e154", NULL };
  for (const char *const *s = sp; *s; s++)
    {
      const char *fold_d[] = { "fold", "--speed-const", "1", "--shape", "30,20", "--spacing", *s,
                               "--source", "0,0", "--precision", "double", "--out", out, NULL };
      const char *spr_d[] = { "spr", "--velocity", v1, "--spacing", *s, "--source", "0,0",
                              "--radius", "2", "--precision", "double", "--out", out, NULL };
      const char *n_d[] = { "--spacing", "double precision", NULL };
      assert_refused (fold_d, n_d, out);
      assert_refused (spr_d, n_d, out);
    }

  /* A start value beyond float32 is named, not written as +inf. */
  g_autofree char *bnd = write_grid (dir, "b.npy", FR_F64, NAN, 1e300);
  const char *fold_b[] = { "fold", "--speed-const", "1", "--shape", "30,20", "--spacing", "1",
                           "--boundary", bnd, "--out", out, NULL };
  const char *n_b[] = { bnd, "(ix=4, iz=3)", "--precision double", NULL };
  assert_refused (fold_b, n_b, out);
  /* In double it is a time like any other: T = 1e300 there, and its axis
   * neighbour one spacing (1 / speed 1) later: 1e300 + 1 == 1e300. */
  const char *fold_bd[] = { "fold", "--speed-const", "1", "--shape", "30,20", "--spacing", "1",
                            "--boundary", bnd, "--precision", "double", "--out", out, NULL };
  fr_array t = { 0 };
  solve_ok (fold_bd, out, &t);
  g_assert_cmpfloat (value_at (&t, 4, 3), ==, 1e300);
  g_assert_cmpfloat (value_at (&t, 5, 3), ==, 1e300);
  fr_array_clear (&t);

  g_unlink (v1), g_unlink (denorm), g_unlink (bnd);
  g_rmdir (dir);
}

/* Just inside the ranges: the times are T = distance / speed.  Along an
 * axis both solvers are exact (fold's vertex candidates, spr's axis
 * edges); spr with radius 2 also has the edges to (1, 1) and (2, 1). */
static void
test_cli_just_in_range (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cli-range-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *v1 = write_grid (dir, "v1.npy", FR_F32, 1.0, 1.0);
  g_autofree char *vslow = write_grid (dir, "vslow.npy", FR_F32, 1e-36, 1e-36);
  fr_array t = { 0 };

  /* Single: the far corner is 34.7 spacings away, 3.5e37 < FLT_MAX. */
  const char *fold_single[] = { "fold", "--speed-const", "1", "--shape", "30,20", "--spacing",
                                "1e36", "--source", "0,0", "--out", out, NULL };
  solve_ok (fold_single, out, &t);
  g_assert_cmpint (t.dtype, ==, FR_F32);
  for (size_t ix = 0; ix < NX; ix++)
    g_assert_cmpfloat_with_epsilon (value_at (&t, ix, 0) / 1e36, (double) ix, 1e-5 * (ix + 1));
  for (size_t iz = 0; iz < NZ; iz++)
    g_assert_cmpfloat_with_epsilon (value_at (&t, 0, iz) / 1e36, (double) iz, 1e-5 * (iz + 1));
  for (size_t i = 0; i < NX * NZ; i++)
    g_assert_true (isfinite (((float *) t.data)[i]));
  fr_array_clear (&t);

  const char *fold_slow[] = { "fold", "--speed-const", "1e-36", "--shape", "30,20", "--spacing",
                              "1", "--source", "0,0", "--out", out, NULL };
  solve_ok (fold_slow, out, &t);
  for (size_t ix = 0; ix < NX; ix++)
    g_assert_cmpfloat_with_epsilon (value_at (&t, ix, 0) / 1e36, (double) ix, 1e-5 * (ix + 1));
  fr_array_clear (&t);

  const char *spr_single[] = { "spr", "--velocity", vslow, "--spacing", "1", "--source", "0,0",
                               "--radius", "2", "--out", out, NULL };
  solve_ok (spr_single, out, &t);
  g_assert_cmpint (t.dtype, ==, FR_F32);
  for (size_t ix = 0; ix < NX; ix++)
    g_assert_cmpfloat_with_epsilon (value_at (&t, ix, 0) / 1e36, (double) ix, 1e-6 * (ix + 1));
  g_assert_cmpfloat_with_epsilon (value_at (&t, 1, 1) / 1e36, sqrt (2.0), 1e-6);
  g_assert_cmpfloat_with_epsilon (value_at (&t, 2, 1) / 1e36, sqrt (5.0), 1e-6);
  fr_array_clear (&t);

  /* Double: 29 spacings of 3e148 span 8.7e149, inside FR_GRID_MAX_EXTENT. */
  const char *spr_double[] = { "spr", "--velocity", v1, "--spacing", "3e148", "--source", "0,0",
                               "--radius", "2", "--precision", "double", "--out", out, NULL };
  solve_ok (spr_double, out, &t);
  g_assert_cmpint (t.dtype, ==, FR_F64);
  g_assert_cmpfloat_with_epsilon (value_at (&t, 29, 0) / 3e148, 29.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (value_at (&t, 1, 1) / 3e148, sqrt (2.0), 1e-12);
  g_assert_cmpfloat_with_epsilon (value_at (&t, 2, 1) / 3e148, sqrt (5.0), 1e-12);
  fr_array_clear (&t);

  const char *fold_double[] = { "fold", "--speed-const", "2", "--shape", "30,20", "--spacing",
                                "3e148", "--source", "0,0", "--precision", "double", "--out", out,
                                NULL };
  solve_ok (fold_double, out, &t);
  for (size_t ix = 0; ix < NX; ix++)
    g_assert_cmpfloat_with_epsilon (value_at (&t, ix, 0) / 1.5e148, (double) ix, 1e-12 * (ix + 1));
  fr_array_clear (&t);

  g_unlink (v1), g_unlink (vslow);
  g_rmdir (dir);
}

/* float64 grids are checked before they are narrowed to float32. */
static void
test_cli_float64_input (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cli-range-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  const struct { const char *name; double value; const char *says; } bad[] = {
    { "neg.npy", -1e-50, "negative" },                   /* narrows to -0.0 */
    { "tiny.npy", 1e-50, "single precision's range" },   /* narrows to 0 */
    { "huge.npy", 1e300, "single precision's range" },   /* narrows to inf */
    { "nan.npy", NAN, "NaN" },
  };

  for (size_t k = 0; k < G_N_ELEMENTS (bad); k++)
    {
      g_autofree char *path = write_grid (dir, bad[k].name, FR_F64, 1.0, bad[k].value);
      const char *spr[] = { "spr", "--velocity", path, "--spacing", "1", "--source", "5,5",
                            "--radius", "2", "--out", out, NULL };
      const char *fold[] = { "fold", "--speed", path, "--spacing", "1", "--source", "5,5",
                             "--out", out, NULL };
      const char *needles[] = { path, "(ix=4, iz=3)", bad[k].says, NULL };
      assert_refused (spr, needles, out);
      assert_refused (fold, needles, out);
      g_unlink (path);
    }

  /* -0.0 equals 0: an obstacle, which no spr edge enters. */
  g_autofree char *nz = write_grid (dir, "negzero.npy", FR_F64, 1.0, -0.0);
  const char *spr[] = { "spr", "--velocity", nz, "--spacing", "1", "--source", "5,5",
                        "--radius", "2", "--out", out, NULL };
  fr_array t = { 0 };
  solve_ok (spr, out, &t);
  g_assert_true (isinf (value_at (&t, 4, 3)));
  g_assert_cmpfloat_with_epsilon (value_at (&t, 5, 3), 2.0, 1e-6);
  fr_array_clear (&t);
  g_unlink (nz);

  /* --speed-const outside float32's positive range names the flag. */
  const char *range[] = { "1e-320", "3.1e38", NULL };
  for (const char *const *s = range; *s; s++)
    {
      const char *fold[] = { "fold", "--speed-const", *s, "--shape", "30,20", "--spacing", "1",
                             "--source", "5,5", "--out", out, NULL };
      const char *needles[] = { "--speed-const", "range", NULL };
      assert_refused (fold, needles, out);
    }
  g_rmdir (dir);
}

/* The other end of the range: positive times below the precision's
 * smallest normal number were written as 0 (every node a source) with
 * exit 0, at a spacing of 1e-50. */
static void
test_times_underflow (void)
{
  enum { GX = 4, GZ = 3 };
  fr_grid g = fr_grid_2d (GX, GZ, 1.0, 1.0, 0.0, 0.0);
  double t[GX * GZ];
  fr_error err = { 0 };
  g_autofree char *dir = g_dir_make_tmp ("cli-range-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "T.npy", NULL);
  g_autofree char *v2 = write_grid (dir, "v2.npy", FR_F32, 2.0, 2.0);
  fr_array a = { 0 };

  /* By hand: 0 is a source's time; FLT_MIN the least normal float32. */
  for (int i = 0; i < GX * GZ; i++)
    t[i] = i;
  t[0] = 0.0;
  t[5] = FLT_MIN;
  g_assert_cmpint (fr_time_check_range (&g, t, NULL, true, &err), ==, FR_OK);
  t[5] = 1e-40;     /* a float32 subnormal */
  g_assert_cmpint (fr_time_check_range (&g, t, NULL, false, &err), ==, FR_OK);
  g_assert_cmpint (fr_time_check_range (&g, t, NULL, true, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "fall below single precision's range"));
  g_assert_nonnull (strstr (err.message, "(ix=1, iz=1)"));
  t[5] = 1e-320;    /* a float64 subnormal */
  g_assert_cmpint (fr_time_check_range (&g, t, NULL, false, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "double precision's range"));

  /* The CLI: refused, naming --spacing and which way to rescale. */
  const char *fold_s[] = { "fold", "--speed-const", "2", "--shape", "30,20", "--spacing",
                           "1e-50", "--source", "0,0", "--out", out, NULL };
  const char *n_fold[] = { "--spacing 1e-50", "fall below single precision", "larger --spacing",
                           NULL };
  assert_refused (fold_s, n_fold, out);
  /* So with spacing × speed at 1, where the solve did not change its
   * units and its float times rounded to 0: written so, with exit 0. */
  const char *fold_hf[] = { "fold", "--speed-const", "1e25", "--shape", "30,20", "--spacing",
                            "1e-25", "--source", "0,0", "--out", out, NULL };
  const char *n_hf[] = { "--spacing 1e-25", "fall below single precision", NULL };
  assert_refused (fold_hf, n_hf, out);
  const char *spr_s[] = { "spr", "--velocity", v2, "--spacing", "1e-50", "--source", "0,0",
                          "--radius", "2", "--out", out, NULL };
  const char *n_spr[] = { "--spacing", "below float32's range", NULL };
  assert_refused (spr_s, n_spr, out);
  /* In double the fold's times are normal numbers: T = distance / 2. */
  const char *fold_d[] = { "fold", "--speed-const", "2", "--shape", "30,20", "--spacing",
                           "1e-50", "--source", "0,0", "--precision", "double", "--out", out,
                           NULL };
  solve_ok (fold_d, out, &a);
  g_assert_cmpfloat (fabs (value_at (&a, 3, 0) - 1.5e-50), <=, 1e-15 * 1.5e-50);
  fr_array_clear (&a);
  const char *fold_hf_d[] = { "fold", "--speed-const", "1e25", "--shape", "30,20", "--spacing",
                              "1e-25", "--source", "0,0", "--precision", "double", "--out", out,
                              NULL };
  solve_ok (fold_hf_d, out, &a);
  /* 1e25 is a float32 speed: 3 spacings over (float) 1e25. */
  g_assert_cmpfloat (fabs (value_at (&a, 3, 0) - 3e-25 / (double) 1e25f), <=, 1e-12 * 3e-50);
  fr_array_clear (&a);
  /* So are SPR's, whose weights are then computed in double too (it
   * refused them by float32's range). */
  const char *spr_d[] = { "spr", "--velocity", v2, "--spacing", "1e-50", "--source", "0,0",
                          "--radius", "2", "--precision", "double", "--out", out, NULL };
  solve_ok (spr_d, out, &a);
  g_assert_cmpfloat (fabs (value_at (&a, 3, 0) - 1.5e-50), <=, 1e-15 * 1.5e-50);
  fr_array_clear (&a);

  g_unlink (v2);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/time-range/check-by-hand", test_check_by_hand);
  g_test_add_func ("/time-range/each-neighbour", test_each_neighbour);
  g_test_add_func ("/time-range/no-false-alarm", test_no_false_alarm);
  g_test_add_func ("/time-range/cli/overflow", test_cli_times_overflow);
  g_test_add_func ("/time-range/underflow", test_times_underflow);
  g_test_add_func ("/time-range/cli/just-in-range", test_cli_just_in_range);
  g_test_add_func ("/time-range/cli/float64-input", test_cli_float64_input);
  return g_test_run ();
}
