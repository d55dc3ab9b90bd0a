/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `foldray-cli fold` against CONTRACT.md: outputs, --stats, rays, and bad
 * input (exit 2, one stderr line naming the flag or file, no output). */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fr-npy.h"
#include "fr-spr.h"   /* fr_cuda_usable */
#include "test-cli-run.h"
#include "test-fold-common.h"
#include "test-times-csv.h"

static char *
tmp_path (const char *dir, const char *name)
{
  return g_build_filename (dir, name, NULL);
}

static void
test_solve_and_rays (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fold-cli-XXXXXX", NULL);
  g_autofree char *out = tmp_path (dir, "T.npy");
  g_autofree char *rcv = tmp_path (dir, "R.csv");
  g_autofree char *rays = tmp_path (dir, "RAYS.csv");

  g_assert_true (g_file_set_contents (rcv, "x,z\n0.9,0.7\n0.2,0.05\n", -1, NULL));
  const char *args[] = { "--speed-const", "1.2", "--shape", "61,41", "--spacing", "0.02",
                         "--source", "0.31,0.27", "--psi-a", "0.3,-0.2", "--method", "las",
                         "--backend", "cpu", "--out", out, "--receivers", rcv, "--rays-out", rays,
                         "--stats", NULL };
  run_out r = cli_run ("fold", args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"backend\": \"cpu\""));
  g_assert_nonnull (strstr (r.out, "\"solve_ms\""));
  g_assert_nonnull (strstr (r.out, "\"iterations\""));
  g_assert_nonnull (strstr (r.out, "\"start_ms\""));

  /* The file holds what the library computes for the same job. */
  fr_array a = { 0 };
  fr_error err = { 0 };
  g_assert_cmpint (fr_npy_read (out, &a, &err), ==, FR_OK);
  g_assert_cmpint (a.dtype, ==, FR_F32);
  g_assert_cmpint (a.ndim, ==, 2);
  g_assert_cmpuint (a.shape[0], ==, 41);
  g_assert_cmpuint (a.shape[1], ==, 61);
  fr_grid g = fr_grid_2d (61, 41, 0.02, 0.02, 0, 0);
  fr_fold_params p;
  fr_fold_params_init (&p);
  p.speed_const = 1.2;
  p.psi_a[0] = 0.3, p.psi_a[2] = -0.2;
  p.method = FR_FOLD_LAS;
  p.backend = FR_FOLD_CPU;   /* as the CLI was asked: on a GPU machine auto is CUDA */
  double src[2] = { 0.31, 0.27 };
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  fr_fold_result res;
  fold_solve_ok (&g, &st, &p, &res);
  for (size_t i = 0; i < fr_grid_count (&g); i++)
    g_assert_cmpfloat (((float *) a.data)[i], ==, (float) res.time[i]);
  fr_fold_result_clear (&res);
  fr_array_clear (&a);

  /* Rays: the header, then each ray from the source to its receiver. */
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (rays, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "receiver,x,z");
  g_assert_true (g_str_has_prefix (lines[1], "0,0.31"));
  gboolean saw1 = FALSE;
  for (int i = 1; lines[i] && lines[i][0]; i++)
    saw1 |= g_str_has_prefix (lines[i], "1,");
  g_assert_true (saw1);
  run_out_clear (&r);
  g_unlink (out), g_unlink (rcv), g_unlink (rays), g_rmdir (dir);
}

static void
test_3d_and_horizon (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fold-cli-XXXXXX", NULL);
  g_autofree char *out = tmp_path (dir, "T.npy");
  g_autofree char *rcv = tmp_path (dir, "R.csv");
  g_autofree char *rays = tmp_path (dir, "RAYS.csv");
  g_autofree char *hz = tmp_path (dir, "H.csv");

  g_assert_true (g_file_set_contents (rcv, "x,y,z\n0.5,0.4,0.6\n", -1, NULL));
  /* ψa's three components differ, and so do the spacings: each flag's
   * x, y, z must reach the solve as such. */
  const char *a3[] = { "--speed-const", "1", "--shape", "13,11,12", "--spacing", "0.05,0.06,0.055",
                       "--source", "0.2,0.3,0.25", "--psi-a", "0.1,-0.3,0.2",
                       "--precision", "double", "--out", out,
                       "--receivers", rcv, "--rays-out", rays, NULL };
  run_out r = cli_run ("fold", a3);
  g_assert_cmpint (r.status, ==, 0);
  fr_array a = { 0 };
  g_assert_cmpint (fr_npy_read (out, &a, NULL), ==, FR_OK);
  g_assert_cmpint (a.dtype, ==, FR_F64);
  g_assert_cmpint (a.ndim, ==, 3);
  g_assert_cmpuint (a.shape[0], ==, 12);
  g_assert_cmpuint (a.shape[1], ==, 11);
  g_assert_cmpuint (a.shape[2], ==, 13);
  {
    /* Near the source the solve starts from the exact time of a constant
     * speed (the default source radius is 1.5 spacings, 0.09 here): the
     * closed form, nodes within 0.08.  Everywhere, the library's solve of
     * the job as CONTRACT.md reads the flags. */
    const double s3[3] = { 0.2, 0.3, 0.25 }, psi[3] = { 0.1, -0.3, 0.2 };
    fr_grid g = fr_grid_3d (13, 11, 12, 0.05, 0.06, 0.055, 0, 0, 0);
    const double *t = a.data;
    fr_fold_params p;
    fr_fold_result res;
    fr_fold_start st = { .sources = s3, .nsrc = 1 };
    size_t near = 0;

    for (size_t i = 0; i < fr_grid_count (&g); i++)
      {
        double x[3];
        fold_node_xyz (&g, i, x);
        if (hypot (hypot (x[0] - s3[0], x[1] - s3[1]), x[2] - s3[2]) > 0.08)
          continue;
        g_assert_cmpfloat_with_epsilon (t[i], fold_exact_point (x, s3, psi, 1.0), 1e-9);
        near++;
      }
    g_assert_cmpuint (near, >=, 8);
    fr_fold_params_init (&p);
    p.speed_const = 1.0;
    memcpy (p.psi_a, psi, sizeof psi);
    p.double_precision = TRUE;
    p.backend = FR_FOLD_CPU;
    fold_solve_ok (&g, &st, &p, &res);
    for (size_t i = 0; i < fr_grid_count (&g); i++)
      g_assert_cmpfloat_with_epsilon (t[i], res.time[i], 1e-9 * res.time[i] + 1e-12);
    fr_fold_result_clear (&res);
  }
  fr_array_clear (&a);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (rays, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "receiver,x,y,z\n0,0.2,0.3,0.25\n"));
  run_out_clear (&r);

  /* A straight horizon across the grid, F = 1: T is the distance to the
   * line (a plane front, which the scheme holds to rounding), and the ray
   * begins at the receiver's foot on it. */
  g_assert_true (g_file_set_contents (hz, "x,z\n-0.1,0.3\n1.1,0.35\n", -1, NULL));
  g_assert_true (g_file_set_contents (rcv, "x,z\n0.5,0.9\n", -1, NULL));
  const char *ah[] = { "--speed-const", "1", "--shape", "21,21", "--spacing", "0.05",
                       "--horizon", hz, "--out", out, "--receivers", rcv, "--rays-out", rays,
                       NULL };
  r = cli_run ("fold", ah);
  g_assert_cmpint (r.status, ==, 0);
  {
    const double len = hypot (1.2, 0.05), n[2] = { -0.05 / len, 1.2 / len };
    double worst = 0.0, foot[2], x0, z0;

    g_assert_cmpint (fr_npy_read (out, &a, NULL), ==, FR_OK);
    g_assert_cmpint (a.dtype, ==, FR_F32);
    g_assert_cmpuint (a.shape[0], ==, 21);
    g_assert_cmpuint (a.shape[1], ==, 21);
    for (size_t iz = 0; iz < 21; iz++)
      for (size_t ix = 0; ix < 21; ix++)
        {
          double d = fabs ((ix * 0.05 + 0.1) * n[0] + (iz * 0.05 - 0.3) * n[1]);
          worst = fmax (worst, fabs (((float *) a.data)[iz * 21 + ix] - d));
        }
    g_test_message ("horizon: T off the distance to the line by at most %.2e", worst);
    g_assert_cmpfloat (worst, <=, 1e-5);
    fr_array_clear (&a);

    const double d = (0.5 + 0.1) * n[0] + (0.9 - 0.3) * n[1];
    foot[0] = 0.5 - d * n[0], foot[1] = 0.9 - d * n[1];
    g_free (text);
    g_assert_true (g_file_get_contents (rays, &text, NULL, NULL));
    g_assert_true (g_str_has_prefix (text, "receiver,x,z\n0,"));
    g_assert_cmpint (sscanf (text + strlen ("receiver,x,z\n0,"), "%lf,%lf", &x0, &z0), ==, 2);
    g_assert_cmpfloat (hypot (x0 - foot[0], z0 - foot[1]), <=, 1e-5);
  }
  run_out_clear (&r);
  g_unlink (out), g_unlink (rcv), g_unlink (rays), g_unlink (hz), g_rmdir (dir);
}

/* A receiver walled in by obstacles is not a failure: T is +inf there, no
 * ray is written for it, a note on stderr says so, and the other
 * receivers get theirs. */
static void
test_unreached_receiver (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fold-cli-XXXXXX", NULL);
  g_autofree char *speed = tmp_path (dir, "F.npy");
  g_autofree char *out = tmp_path (dir, "T.npy");
  g_autofree char *rcv = tmp_path (dir, "R.csv");
  g_autofree char *rays = tmp_path (dir, "RAYS.csv");
  enum { NX = 31, NZ = 21 };
  float *f = g_new (float, NX * NZ);
  fr_array a = { .ndim = 2, .shape = { NZ, NX }, .dtype = FR_F32, .data = f };

  /* Speed 1, with a ring of obstacles (speed 0) around node (25, 15). */
  for (int i = 0; i < NX * NZ; i++)
    f[i] = 1.0f;
  for (int dz = -1; dz <= 1; dz++)
    for (int dx = -1; dx <= 1; dx++)
      if (dx || dz)
        f[(15 + dz) * NX + 25 + dx] = 0.0f;
  g_assert_cmpint (fr_npy_write (speed, &a, NULL), ==, FR_OK);
  fr_array_clear (&a);
  g_assert_true (g_file_set_contents (rcv, "x,z\n0.25,0.15\n0.05,0.1\n", -1, NULL));
  const char *args[] = { "--speed", speed, "--spacing", "0.01", "--source", "0.1,0.05",
                         "--out", out, "--receivers", rcv, "--rays-out", rays, NULL };
  run_out r = cli_run ("fold", args);
  g_test_message ("exit %d, stderr: %s", r.status, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "foldray-cli: note: 1 receiver is not reached: no ray written "
                                   "for it"));
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (rays, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "receiver,x,z");
  g_assert_nonnull (lines[1]);
  g_assert_true (g_str_has_prefix (lines[1], "1,"));
  for (int i = 1; lines[i] && lines[i][0]; i++)
    g_assert_true (g_str_has_prefix (lines[i], "1,"));   /* no line of receiver 0 */
  run_out_clear (&r);

  /* The same in 3D, the walled-in receiver's y and z apart (0.2, 0.5):
   * its node is found from x, y and z, not from y twice. */
  {
    enum { N3X = 9, N3Y = 7, N3Z = 8 };
    float *f3 = g_new (float, N3X * N3Y * N3Z);
    fr_array a3 = { .ndim = 3, .shape = { N3Z, N3Y, N3X }, .dtype = FR_F32, .data = f3 };

    /* Speed 1, with a shell of obstacles around node (6, 2, 5). */
    for (int i = 0; i < N3X * N3Y * N3Z; i++)
      f3[i] = 1.0f;
    for (int dz = -1; dz <= 1; dz++)
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
          if (dx || dy || dz)
            f3[((5 + dz) * N3Y + 2 + dy) * N3X + 6 + dx] = 0.0f;
    g_assert_cmpint (fr_npy_write (speed, &a3, NULL), ==, FR_OK);
    fr_array_clear (&a3);
    g_assert_true (g_file_set_contents (rcv, "x,y,z\n0.6,0.2,0.5\n0.3,0.4,0.2\n", -1, NULL));
    const char *args3[] = { "--speed", speed, "--spacing", "0.1", "--source", "0.1,0.1,0.1",
                            "--out", out, "--receivers", rcv, "--rays-out", rays, NULL };
    r = cli_run ("fold", args3);
    g_test_message ("3D: exit %d, stderr: %s", r.status, r.err);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.err, "foldray-cli: note: 1 receiver is not reached"));
    g_autofree char *text3 = NULL;
    g_assert_true (g_file_get_contents (rays, &text3, NULL, NULL));
    g_auto (GStrv) lines3 = g_strsplit (text3, "\n", -1);
    g_assert_cmpstr (lines3[0], ==, "receiver,x,y,z");
    g_assert_nonnull (lines3[1]);
    for (int i = 1; lines3[i] && lines3[i][0]; i++)
      g_assert_true (g_str_has_prefix (lines3[i], "1,"));
    run_out_clear (&r);
  }
  g_unlink (speed), g_unlink (out), g_unlink (rcv), g_unlink (rays), g_rmdir (dir);
}

/* T of a .npy written by the CLI, as doubles (float32 or float64). */
static double *
read_time (const char *path, size_t *n)
{
  fr_array a = { 0 };
  fr_error err = { 0 };

  g_assert_cmpint (fr_npy_read (path, &a, &err), ==, FR_OK);
  *n = a.shape[0] * a.shape[1];
  double *t = g_new (double, *n);
  for (size_t i = 0; i < *n; i++)
    t[i] = a.dtype == FR_F32 ? ((float *) a.data)[i] : ((double *) a.data)[i];
  fr_array_clear (&a);
  return t;
}

/* --times-out for a fold: a receiver anywhere takes T linear between the
 * nodes round it.  A front from a boundary row (T = 0 at z = 0) at speed
 * F is the plane T = z / F, which a first-order scheme gets exactly and
 * linear interpolation keeps between the nodes: every receiver, on a node
 * or not, must read z / F (in double, to 1e-12).  Beside an obstacle (T
 * +inf at its nodes) a receiver takes its nearest node's T; on the
 * obstacle's own node, inf.  3D writes x, y, z; a point source there gives
 * r / F to the first-order scheme's error. */
static void
test_times (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fold-cli-XXXXXX", NULL);
  g_autofree char *speed = tmp_path (dir, "F.npy");
  g_autofree char *boundary = tmp_path (dir, "B.npy");
  g_autofree char *out = tmp_path (dir, "T.npy");
  g_autofree char *rcv = tmp_path (dir, "R.csv");
  g_autofree char *times = tmp_path (dir, "TIMES.csv");
  enum { NX = 31, NZ = 21 };
  const double F = 1.25;
  float *f = g_new (float, NX * NZ);
  double *b = g_new (double, NX * NZ);
  fr_array fa = { .ndim = 2, .shape = { NZ, NX }, .dtype = FR_F32, .data = f };
  fr_array ba = { .ndim = 2, .shape = { NZ, NX }, .dtype = FR_F64, .data = b };
  static const double pts[][2] = {
    { 0.37, 0.83 }, { 1.234, 1.9 }, { 3, 2 }, { 0, 0 }, { 2.9999, 0.05 }, { 1.5, 1.0 },
    /* in a cell of the obstacle's node (20, 12), nearest to node (19, 12);
     * then on the obstacle */
    { 1.93, 1.17 }, { 2.0, 1.2 },
  };
  g_autoptr (GString) rtext = g_string_new ("x,z\n");

  for (int i = 0; i < NX * NZ; i++)
    {
      f[i] = (float) F;
      b[i] = i < NX ? 0.0 : NAN;
    }
  f[12 * NX + 20] = 0.0f;
  g_assert_cmpint (fr_npy_write (speed, &fa, NULL), ==, FR_OK);
  g_assert_cmpint (fr_npy_write (boundary, &ba, NULL), ==, FR_OK);
  fr_array_clear (&fa);
  fr_array_clear (&ba);
  for (size_t k = 0; k < G_N_ELEMENTS (pts); k++)
    g_string_append_printf (rtext, "%.17g,%.17g\n", pts[k][0], pts[k][1]);
  g_assert_true (g_file_set_contents (rcv, rtext->str, -1, NULL));

  const char *args[] = { "--speed", speed, "--spacing", "0.1", "--boundary", boundary,
                         "--precision", "double", "--backend", "cpu", "--out", out,
                         "--receivers", rcv, "--times-out", times, NULL };
  run_out r = cli_run ("fold", args);
  g_test_message ("exit %d, stderr: %s", r.status, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "1 receiver is not reached: its time written as inf"));
  run_out_clear (&r);

  size_t n;
  g_autofree double *t = read_time (out, &n);
  g_autoptr (GArray) rows = test_read_times (times, 2);
  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (pts));
  for (guint k = 0; k < rows->len; k++)
    {
      const test_time_row *row = &g_array_index (rows, test_time_row, k);

      g_assert_cmpfloat (row->xyz[0], ==, pts[k][0]);
      g_assert_cmpfloat (row->xyz[1], ==, pts[k][1]);
      if (k < 6)
        g_assert_cmpfloat_with_epsilon (row->t, pts[k][1] / F, 1e-12);
    }
  /* Node (19, 12) beside the obstacle still holds the plane's 1.2 / F,
   * which the receiver takes, not its own 1.17 / F. */
  g_assert_cmpfloat (t[12 * NX + 19], ==, g_array_index (rows, test_time_row, 6).t);
  g_assert_cmpfloat_with_epsilon (g_array_index (rows, test_time_row, 6).t, 1.2 / F, 1e-12);
  g_assert_cmpfloat (g_array_index (rows, test_time_row, 7).t, ==, INFINITY);

  /* 3D, from a point source: a receiver on a node reads its T, one
   * between nodes lies within its cell's corners and near r / F. */
  {
    enum { N3 = 11 };
    g_assert_true (g_file_set_contents (rcv, "x,y,z\n0.5,0.3,0.7\n0.63,0.41,0.27\n", -1, NULL));
    const char *a3[] = { "--speed-const", "1.25", "--shape", "11,11,11", "--spacing", "0.1",
                         "--source", "0.2,0.2,0.2", "--backend", "cpu", "--out", out,
                         "--receivers", rcv, "--times-out", times, NULL };
    r = cli_run ("fold", a3);
    g_assert_cmpint (r.status, ==, 0);
    run_out_clear (&r);

    fr_array a = { 0 };
    g_assert_cmpint (fr_npy_read (out, &a, NULL), ==, FR_OK);
    const float *t3 = a.data;
    g_autoptr (GArray) rows3 = test_read_times (times, 3);
    g_assert_cmpuint (rows3->len, ==, 2);
    const test_time_row *on = &g_array_index (rows3, test_time_row, 0);
    const test_time_row *off = &g_array_index (rows3, test_time_row, 1);
    g_assert_cmpfloat (on->xyz[0], ==, 0.5);
    g_assert_cmpfloat (on->xyz[1], ==, 0.3);
    g_assert_cmpfloat (on->xyz[2], ==, 0.7);
    g_assert_cmpfloat ((float) on->t, ==, t3[(7 * N3 + 3) * N3 + 5]);
    float lo = INFINITY, hi = 0;
    for (int c = 0; c < 8; c++)
      {
        const float v = t3[((2 + (c >> 2)) * N3 + 4 + ((c >> 1) & 1)) * N3 + 6 + (c & 1)];
        lo = fminf (lo, v), hi = fmaxf (hi, v);
      }
    g_assert_cmpfloat ((float) off->t, >=, lo);
    g_assert_cmpfloat ((float) off->t, <=, hi);
    g_assert_cmpfloat_with_epsilon (off->t, sqrt (0.43 * 0.43 + 0.21 * 0.21 + 0.07 * 0.07) / F,
                                    0.05 * off->t);
    fr_array_clear (&a);
  }
  g_unlink (speed), g_unlink (boundary), g_unlink (out), g_unlink (rcv), g_unlink (times);
  g_rmdir (dir);
}

/* Where a solve is well posed but far less accurate than usual, a note
 * says why, and only then; checked against the closed-form truth that
 * makes the note true. */
static void
test_accuracy_notes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fold-cli-XXXXXX", NULL);
  g_autofree char *out = tmp_path (dir, "T.npy");
  g_autofree char *bnd = tmp_path (dir, "B.npy");

  /* 1. |psi_a| near F.  A point source in a constant medium: T is the
   * gauge (-psi.d + sqrt ((psi.d)^2 + (F^2 - |psi|^2)|d|^2)) / (F^2 - |psi|^2). */
  for (int strong = 0; strong < 2; strong++)
    {
      const double px = strong ? 0.5994 : 0.3, pz = strong ? 0.7992 : 0.4;
      char psi[64];
      g_snprintf (psi, sizeof psi, "%.17g,%.17g", px, pz);
      const char *args[] = { "--speed-const", "1", "--shape", "41,41", "--spacing", "0.025",
                             "--source", "0.5,0.5", "--psi-a", psi, "--precision", "double",
                             "--out", out, NULL };
      run_out r = cli_run ("fold", args);
      g_test_message ("exit %d, stderr: %s", r.status, r.err);
      g_assert_cmpint (r.status, ==, 0);
      size_t n;
      g_autofree double *t = read_time (out, &n);
      const double c = 1.0 - (px * px + pz * pz);
      double worst = 0.0;
      for (size_t i = 0; i < n; i++)
        {
          const double dx = 0.025 * (double) (i % 41) - 0.5, dz = 0.025 * (double) (i / 41) - 0.5;
          const double pd = px * dx + pz * dz, d2 = dx * dx + dz * dz;
          const double exact = (-pd + sqrt (pd * pd + c * d2)) / c;
          if (d2 > 0.01)   /* away from the source's own ball */
            worst = fmax (worst, fabs (t[i] - exact) / exact);
        }
      g_test_message ("|psi| %.4g: worst relative error %.3g", sqrt (px * px + pz * pz), worst);
      if (strong)
        {
          g_assert_cmpfloat (worst, >, 1.0);
          g_assert_nonnull (strstr (r.err, "foldray-cli: note: |psi_a| = 0.999 reaches 0.999 of "
                                           "the speed F = 1"));
        }
      else
        {
          g_assert_cmpfloat (worst, <, 0.1);
          g_assert_null (strstr (r.err, "psi_a"));
        }
      run_out_clear (&r);
    }

  /* 2. Start values too large for float32 to hold one node's step: a
   * boundary row at 1e5 in a plane front, T = 1e5 + z / (F + psi_z). */
  {
    enum { NX = 21, NZ = 61 };
    double *b = g_new (double, NX * NZ);
    fr_array a = { .ndim = 2, .shape = { NZ, NX }, .dtype = FR_F64, .data = b };
    double err_of[2];

    for (int i = 0; i < NX * NZ; i++)
      b[i] = i < NX ? 1e5 : INFINITY;
    g_assert_cmpint (fr_npy_write (bnd, &a, NULL), ==, FR_OK);
    g_free (b);
    for (int dbl = 0; dbl < 2; dbl++)
      {
        const char *args[] = { "--speed-const", "1.2", "--shape", "21,61", "--spacing", "0.005",
                               "--boundary", bnd, "--psi-a", "0,0.2", "--precision",
                               dbl ? "double" : "single", "--out", out, NULL };
        run_out r = cli_run ("fold", args);
        g_test_message ("exit %d, stderr: %s", r.status, r.err);
        g_assert_cmpint (r.status, ==, 0);
        size_t n;
        g_autofree double *t = read_time (out, &n);
        err_of[dbl] = 0.0;
        for (size_t i = 0; i < n; i++)
          err_of[dbl] = fmax (err_of[dbl], fabs ((t[i] - 1e5) - 0.005 * (double) (i / NX) / 1.4));
        if (dbl)
          g_assert_null (strstr (r.err, "note"));
        else
          g_assert_nonnull (strstr (r.err, "B.npy starts at up to 100000, where single precision "
                                           "keeps times only to about"));
        run_out_clear (&r);
      }
    g_test_message ("largest error: single %.3g, double %.3g", err_of[0], err_of[1]);
    /* The lost steps are the note's reason: single is far off, double not. */
    g_assert_cmpfloat (err_of[0], >, 0.05);
    g_assert_cmpfloat (err_of[1], <, 1e-6);
  }
  g_unlink (out), g_unlink (bnd), g_rmdir (dir);
}

typedef struct bad_case {
  const char *args[16];
  const char *needle;    /* what the one stderr line must name */
} bad_case;

static void
test_bad_input (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fold-cli-XXXXXX", NULL);
  g_autofree char *out = tmp_path (dir, "T.npy");
  g_autofree char *missing = tmp_path (dir, "nope.npy");
  g_autofree char *small = tmp_path (dir, "B19.npy");
  g_autofree char *far = tmp_path (dir, "far.csv");
  g_autofree char *rays = tmp_path (dir, "R.csv");
  /* A name in Latin-1, as its bytes: the message shows U+FFFD there. */
  g_autofree char *latin1 = tmp_path (dir, "h-\xff.csv");
  g_assert_true (g_file_set_contents (far, "x,z\n0.5,0.5\n0.25,7.5\n", -1, NULL));
  g_assert_true (g_file_set_contents (latin1, "x,z\n0.5,0.5\nabc\n", -1, NULL));
  {
    /* A boundary a row short of the 20 x 20 grid. */
    double *b = g_new (double, 19 * 20);
    fr_array a = { .ndim = 2, .shape = { 19, 20 }, .dtype = FR_F64, .data = b };
    for (int i = 0; i < 19 * 20; i++)
      b[i] = i < 20 ? 0.0 : NAN;
    g_assert_cmpint (fr_npy_write (small, &a, NULL), ==, FR_OK);
    g_free (b);
  }
  const bad_case cases[] = {
    { { "--speed-const", "1", "--shape", "20,20", "--spacing", "0.1", "--source", "0.5,0.5", "--psi-a", "1,0.5", "--out", out }, "--psi-a" },
    { { "--speed-const", "1", "--shape", "20,20", "--spacing", "0.1", "--source", "5,0.5", "--out", out }, "--source" },
    { { "--speed-const", "1", "--shape", "20,20", "--spacing", "0.1", "--source", "0.5,0.5,0.5", "--out", out }, "--source" },
    { { "--speed-const", "1", "--shape", "20,20", "--spacing", "0.1", "--out", out }, "--source" },
    { { "--speed-const", "1", "--spacing", "0.1", "--source", "0.5,0.5", "--out", out }, "--shape" },
    { { "--speed-const", "-1", "--shape", "20,20", "--spacing", "0.1", "--source", "0.5,0.5", "--out", out }, "--speed-const" },
    { { "--speed", missing, "--spacing", "0.1", "--source", "0.5,0.5", "--out", out }, "--speed" },
    { { "--speed-const", "1", "--shape", "20,20", "--spacing", "0.1", "--source", "0.5,0.5", "--method", "fast", "--out", out }, "--method" },
    { { "--speed-const", "1", "--shape", "20,20,20", "--spacing", "0.1", "--source", "0.5,0.5,0.5", "--horizon", missing, "--out", out }, "--horizon" },
    { { "--speed-const", "1", "--shape", "20,20", "--spacing", "0.1", "--source", "0.5,0.5", "--bogus", "--out", out }, "--bogus" },
    /* Both shapes: the boundary's and the grid's (it named neither). */
    { { "--speed-const", "1", "--shape", "20,20", "--spacing", "0.1", "--boundary", small, "--out", out }, "shape (19, 20) differs from the grid's (20, 20)" },
    /* Which receiver: its line and where it is (as spr says). */
    { { "--speed-const", "1", "--shape", "20,20", "--spacing", "0.1", "--source", "0.5,0.5", "--receivers", far, "--rays-out", rays, "--out", out }, "line 3: receiver 0.25,7.5 lies outside" },
    /* Nodes 0.1 apart cannot be told apart at 1e16: the origin's doing. */
    { { "--speed-const", "1", "--shape", "20,20", "--spacing", "0.1", "--origin", "1e16,0", "--source", "1e16,0", "--out", out }, "--spacing and --origin" },
    /* The horizon's name reached the terminal as its bytes: not UTF-8. */
    { { "--speed-const", "1", "--shape", "20,20", "--spacing", "0.1", "--horizon", latin1, "--out", out }, "h-\xef\xbf\xbd.csv: line 3" },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      run_out r = cli_run ("fold", cases[i].args);
      g_test_message ("case %zu: exit %d, stderr: %s", i, r.status, r.err);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_true (g_str_has_prefix (r.err, "foldray-cli: "));
      /* One line. */
      g_assert_null (strchr (r.err, '\n') == NULL ? NULL : strchr (strchr (r.err, '\n') + 1, '\n'));
      g_assert_nonnull (strstr (r.err, cases[i].needle));
      g_assert_true (g_utf8_validate (r.err, -1, NULL));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
      run_out_clear (&r);
    }
  /* --backend cuda without a device solves on the CPU and says so on
   * stderr; with one, the GPU solves. */
  const char *cuda[] = { "--speed-const", "1", "--shape", "20,20", "--spacing", "0.1", "--source",
                         "0.5,0.5", "--backend", "cuda", "--out", out, "--stats", NULL };
  run_out r = cli_run ("fold", cuda);
  g_test_message ("--backend cuda: exit %d, stdout: %s, stderr: %s", r.status, r.out, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_test (out, G_FILE_TEST_EXISTS));
  if (fr_cuda_usable ())
    g_assert_nonnull (strstr (r.out, "\"backend\": \"cuda\""));
  else
    {
      g_assert_nonnull (strstr (r.out, "\"backend\": \"cpu\""));
      g_assert_nonnull (strstr (r.err, "CUDA"));
    }
  run_out_clear (&r);
  g_unlink (out);
  g_unlink (small);
  g_unlink (far);
  g_unlink (latin1);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fold/cli/solve-and-rays", test_solve_and_rays);
  g_test_add_func ("/fold/cli/3d-and-horizon", test_3d_and_horizon);
  g_test_add_func ("/fold/cli/unreached-receiver", test_unreached_receiver);
  g_test_add_func ("/fold/cli/times", test_times);
  g_test_add_func ("/fold/cli/accuracy-notes", test_accuracy_notes);
  g_test_add_func ("/fold/cli/bad-input", test_bad_input);
  return g_test_run ();
}
