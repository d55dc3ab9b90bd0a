/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fr_spr_solve refuses bad input with a clear message, takes any radius
 * (one longer than the grid is the grid's extent), honours a cancel flag
 * raised before or during the solve, refuses a solve larger than the
 * machine's memory before allocating it, falls back to the CPU when CUDA
 * cannot run, and names back ends both ways. */
#include <glib.h>
#include <math.h>
#include <sys/mman.h>

#include "fr-memory.h"
#include "fr-spr.h"

typedef struct {
  fr_grid g;
  float v[20 * 12];
  fr_spr_params p;
  double src[2];
} fixture;

static void
fixture_init (fixture *f)
{
  f->g = fr_grid_2d (20, 12, 0.5, 0.25, 1.0, 2.0);
  for (size_t i = 0; i < G_N_ELEMENTS (f->v); i++)
    f->v[i] = 1.5f;
  fr_spr_params_init (&f->p);
  f->src[0] = 1.0 + 3 * 0.5;
  f->src[1] = 2.0 + 4 * 0.25;
}

/* Solves and expects `code` with every word of `words` in the message. */
static void
expect (fixture *f, fr_status code, const char *const *words)
{
  fr_spr_result res;
  fr_error err = { 0 };
  fr_status st = fr_spr_solve (&f->g, f->v, f->src, 1, &f->p, &res, &err);

  g_test_message ("%s", err.message);
  g_assert_cmpint (st, ==, code);
  g_assert_cmpint (err.code, ==, code);
  g_assert_null (res.time);
  g_assert_null (res.pred);
  for (; *words != NULL; words++)
    if (strstr (err.message, *words) == NULL)
      g_error ("message \"%s\" lacks \"%s\"", err.message, *words);
}

#define WORDS(...) ((const char *const[]) { __VA_ARGS__, NULL })

static void
test_defaults (void)
{
  fr_spr_params p;
  fr_spr_params_init (&p);
  g_assert_cmpint (p.rx, ==, 4);
  g_assert_cmpint (p.rz, ==, 4);
  g_assert_false (p.full_neighbourhood);
  g_assert_cmpint (p.weights, ==, FR_WEIGHTS_AUTO);
  g_assert_cmpint (p.backend, ==, FR_SPR_AUTO);
  g_assert_false (p.double_precision);
}

static void
test_backend_names (void)
{
  fr_spr_backend b;
  const char *names[] = { "auto", "dijkstra", "cpu", "cuda" };

  for (int i = 0; i < 4; i++)
    {
      g_assert_true (fr_spr_backend_from_name (names[i], &b));
      g_assert_cmpint (b, ==, i);
      g_assert_cmpstr (fr_spr_backend_name (b), ==, names[i]);
    }
  g_assert_false (fr_spr_backend_from_name ("gpu", &b));
  g_assert_false (fr_spr_backend_from_name (NULL, &b));
}

static void
test_bad_radius (void)
{
  fixture f;

  fixture_init (&f);
  f.p.rx = 0;
  expect (&f, FR_E_INPUT, WORDS ("radius", "at least 1"));
  fixture_init (&f);
  f.p.rz = -2;
  expect (&f, FR_E_INPUT, WORDS ("radius"));
  /* Past the stencils' bound, on a grid long enough to use it. */
  {
    fr_grid g = fr_grid_2d (120, 3, 1.0, 1.0, 0.0, 0.0);
    float *v = g_new (float, 120 * 3);
    double src[2] = { 0.0, 0.0 };
    fr_spr_params p;
    fr_spr_result res;
    fr_error err = { 0 };

    for (int i = 0; i < 120 * 3; i++)
      v[i] = 1.0f;
    fr_spr_params_init (&p);
    p.rx = 101;
    g_assert_cmpint (fr_spr_solve (&g, v, src, 1, &p, &res, &err), ==, FR_E_INPUT);
    g_assert_nonnull (strstr (err.message, "too large (at most 100)"));
    g_assert_null (res.time);
    /* 101 across the 3 rows is only 2. */
    p.rx = 100;
    p.rz = 101;
    g_assert_cmpint (fr_spr_solve (&g, v, src, 1, &p, &res, &err), ==, FR_OK);
    fr_spr_result_clear (&res);
    g_free (v);
  }
}

/* A radius at or past the grid's extent is accepted: an offset of n nodes
 * or more along an axis of n never has both ends inside, so it adds no
 * edge (CONTRACT.md), and the traveltimes are those of the radius clamped
 * to n - 1, bit for bit (the same graph). */
static void
test_radius_beyond_grid (void)
{
  static const int radii[][2] = { { 19, 12 }, { 20, 11 }, { 25, 40 }, { 1000, 1000 } };

  for (int b = FR_SPR_DIJKSTRA; b <= FR_SPR_CPU; b++)
    {
      fixture f;
      fr_spr_result ref, res;
      fr_error err = { 0 };

      fixture_init (&f);
      for (size_t i = 0; i < G_N_ELEMENTS (f.v); i++)
        f.v[i] = 1.0f + (float) ((i * 7) % 11) * 0.25f;
      f.p.backend = (fr_spr_backend) b;
      f.p.rx = 19;   /* 20 nodes in x */
      f.p.rz = 11;   /* 12 nodes in z */
      g_assert_cmpint (fr_spr_solve (&f.g, f.v, f.src, 1, &f.p, &ref, &err), ==, FR_OK);
      for (size_t r = 0; r < G_N_ELEMENTS (radii); r++)
        {
          f.p.rx = radii[r][0];
          f.p.rz = radii[r][1];
          if (fr_spr_solve (&f.g, f.v, f.src, 1, &f.p, &res, &err) != FR_OK)
            g_error ("%s, radius %d,%d: %s", fr_spr_backend_name (f.p.backend), f.p.rx, f.p.rz,
                     err.message);
          for (size_t i = 0; i < G_N_ELEMENTS (f.v); i++)
            g_assert_cmpfloat (res.time[i], ==, ref.time[i]);
          fr_spr_result_clear (&res);
        }
      fr_spr_result_clear (&ref);
    }
}

static void
test_bad_sources (void)
{
  fixture f;

  fixture_init (&f);
  f.src[0] = 0.5;   /* x0 is 1.0 */
  expect (&f, FR_E_INPUT, WORDS ("source", "(0.5, 3)", "outside"));
  fixture_init (&f);
  f.src[1] = 2.0 + 20 * 0.25;
  expect (&f, FR_E_INPUT, WORDS ("source", "outside"));
  fixture_init (&f);
  f.src[0] = 1.0 + 3.4 * 0.5;
  expect (&f, FR_E_INPUT, WORDS ("source", "(2.7, 3)", "not on a grid node"));
  fixture_init (&f);
  f.src[0] = NAN;
  expect (&f, FR_E_INPUT, WORDS ("source", "outside"));
  fixture_init (&f);
  f.v[4 * 20 + 3] = 0.0f;
  expect (&f, FR_E_INPUT, WORDS ("source", "(2.5, 3)", "obstacle"));
}

static void
test_bad_velocity (void)
{
  fixture f;

  fixture_init (&f);
  f.v[7] = NAN;
  expect (&f, FR_E_INPUT, WORDS ("velocity", "NaN", "ix=7, iz=0"));
  fixture_init (&f);
  f.v[20 * 5 + 2] = -1.0f;
  expect (&f, FR_E_INPUT, WORDS ("velocity", "negative", "ix=2, iz=5"));
  fixture_init (&f);
  f.v[239] = INFINITY;
  expect (&f, FR_E_INPUT, WORDS ("velocity", "infinite", "ix=19, iz=11"));
}

static void
test_bad_grid (void)
{
  fixture f;

  fixture_init (&f);
  f.g.dz = 0.0;
  expect (&f, FR_E_INPUT, WORDS ("spacing"));
  fixture_init (&f);
  f.g = fr_grid_3d (20, 1, 12, 0.5, 1.0, 0.25, 1.0, 0.0, 2.0);
  expect (&f, FR_E_INPUT, WORDS ("2D"));
}

static void
test_cancel (void)
{
  fixture f;
  fr_cancel *c = fr_cancel_new ();

  for (int b = FR_SPR_AUTO; b <= FR_SPR_CPU; b++)
    {
      fixture_init (&f);
      fr_cancel_raise (c);
      f.p.cancel = c;
      f.p.backend = (fr_spr_backend) b;
      expect (&f, FR_E_CANCELLED, WORDS ("cancelled"));
    }
  /* Lowered again, the same flag lets the solve run. */
  {
    fr_spr_result res;
    fr_error err = { 0 };
    fr_cancel_reset (c);
    g_assert_cmpint (fr_spr_solve (&f.g, f.v, f.src, 1, &f.p, &res, &err), ==, FR_OK);
    g_assert_cmpfloat (res.time[4 * 20 + 3], ==, 0.0);
    fr_spr_result_clear (&res);
  }
  fr_cancel_free (c);
}

typedef struct {
  const fr_grid *g;
  const float *v;
  const double *src;
  fr_spr_params p;
  fr_status status;
  gint64 done_us;
} cancel_job;

static gpointer
cancel_job_run (gpointer data)
{
  cancel_job *job = data;
  fr_spr_result res;
  fr_error err = { 0 };

  job->status = fr_spr_solve (job->g, job->v, job->src, 1, &job->p, &res, &err);
  job->done_us = g_get_monotonic_time ();
  fr_spr_result_clear (&res);
  return NULL;
}

/* A flag raised during a solve stops it within a fraction of a second,
 * however large the radius: a pass of the tiled back end, or a few
 * thousand settled nodes of Dijkstra's, takes seconds at R 60 to 100, so
 * polling only between those kept a cancelled solve running that long.
 * The solves here would take a minute or more; the bound allows for a
 * loaded machine and the sanitizers. */
static void
test_cancel_latency (void)
{
  static const struct { fr_spr_backend backend; int threads; } runs[] = {
    { FR_SPR_DIJKSTRA, 0 }, { FR_SPR_CPU, 1 }, { FR_SPR_CPU, 2 },
  };
  const size_t nx = 200, nz = 200;
  fr_grid g = fr_grid_2d (nx, nz, 1.0, 1.0, 0.0, 0.0);
  float *v = g_new (float, nx * nz);
  double src[2] = { 100.0, 100.0 };
  fr_cancel *c = fr_cancel_new ();

  for (size_t i = 0; i < nx * nz; i++)
    v[i] = 1.0f + (float) (i % 13) * 0.1f;
  for (size_t r = 0; r < G_N_ELEMENTS (runs); r++)
    {
      cancel_job job = { .g = &g, .v = v, .src = src, .status = FR_OK };
      GThread *th;
      gint64 raised;
      double latency;

      fr_spr_params_init (&job.p);
      job.p.rx = job.p.rz = 80;
      job.p.backend = runs[r].backend;
      job.p.threads = runs[r].threads;
      job.p.cancel = c;
      fr_cancel_reset (c);
      th = g_thread_new ("solve", cancel_job_run, &job);
      g_usleep (300 * 1000);
      raised = g_get_monotonic_time ();
      fr_cancel_raise (c);
      g_thread_join (th);
      latency = (double) (job.done_us - raised) * 1e-6;
      g_test_message ("%s, %d threads: stopped %.3f s after the flag",
                      fr_spr_backend_name (runs[r].backend), runs[r].threads, latency);
      g_assert_cmpint (job.status, ==, FR_E_CANCELLED);
      g_assert_cmpfloat (latency, <, 1.0);
    }
  fr_cancel_free (c);
  g_free (v);
}

/* A grid just under the 2^31-node limit needs far more than this machine
 * holds: refused with FR_E_NOMEM and a message giving both sizes, before
 * anything is allocated or read.  The velocity is a mapping of zero pages
 * that nothing backs, so the test itself costs no memory.  The time and
 * predecessor arrays alone are 12 bytes a node (and the velocity 4), so
 * where the machine holds more than that the case is skipped rather than
 * risk a real allocation. */
static void
test_too_big_for_memory (void)
{
  const size_t nx = 46340, nz = 46341, n = nx * nz;
  fr_grid g = fr_grid_2d (nx, nz, 1.0, 1.0, 0.0, 0.0);
  double src[2] = { 0.0, 0.0 };
  fr_spr_params p;
  fr_spr_result res;
  fr_error err = { 0 };
  float *v;

  if (fr_memory_physical () >= 16.0 * (double) n)
    {
      g_test_skip ("this machine holds a 46340 x 46341 SPR solve's result");
      return;
    }
  v = mmap (NULL, n * sizeof *v, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  g_assert_true (v != MAP_FAILED);
  fr_spr_params_init (&p);
  for (int b = FR_SPR_AUTO; b <= FR_SPR_CUDA; b++)
    {
      p.backend = (fr_spr_backend) b;
      g_assert_cmpint (fr_spr_solve (&g, v, src, 1, &p, &res, &err), ==, FR_E_NOMEM);
      g_test_message ("%s", err.message);
      g_assert_nonnull (strstr (err.message, "46340 x 46341"));
      g_assert_nonnull (strstr (err.message, "GB of memory, this machine has"));
      g_assert_null (res.time);
    }
  munmap (v, n * sizeof *v);
}

/* Asking for CUDA where it cannot run (no CUDA in the build, no device) is
 * no error: the CPU solves, the result says which back end ran and the
 * notice why, as for fold.  With a device, CUDA runs and says nothing.
 * Auto without a device is the CPU it stands for, with no notice, as for
 * fold (it said "no usable CUDA device; solved on the CPU" every time). */
static void
test_cuda_fallback (void)
{
  fixture f;
  fr_spr_result res, cpu;
  fr_error err = { 0 };

  fixture_init (&f);
  f.p.backend = FR_SPR_CPU;
  g_assert_cmpint (fr_spr_solve (&f.g, f.v, f.src, 1, &f.p, &cpu, &err), ==, FR_OK);
  g_assert_cmpstr (cpu.notice, ==, "");
  f.p.backend = FR_SPR_CUDA;
  if (fr_spr_solve (&f.g, f.v, f.src, 1, &f.p, &res, &err) != FR_OK)
    g_error ("--backend cuda: %s", err.message);
  if (fr_cuda_usable ())
    {
      g_assert_cmpint (res.backend, ==, FR_SPR_CUDA);
      g_assert_cmpstr (res.notice, ==, "");
    }
  else
    {
      g_test_message ("notice: %s", res.notice);
      g_assert_cmpint (res.backend, ==, FR_SPR_CPU);
      g_assert_nonnull (strstr (res.notice, "CUDA"));
      g_assert_nonnull (strstr (res.notice, "solved on the CPU"));
      for (size_t i = 0; i < G_N_ELEMENTS (f.v); i++)
        g_assert_cmpfloat (res.time[i], ==, cpu.time[i]);
    }
  fr_spr_result_clear (&res);
  f.p.backend = FR_SPR_AUTO;
  if (fr_spr_solve (&f.g, f.v, f.src, 1, &f.p, &res, &err) != FR_OK)
    g_error ("--backend auto: %s", err.message);
  if (!fr_cuda_usable ())
    g_assert_cmpint (res.backend, ==, FR_SPR_CPU);
  g_assert_cmpstr (res.notice, ==, "");
  fr_spr_result_clear (&res);
  fr_spr_result_clear (&cpu);
}

static void
test_ray_bad_input (void)
{
  fixture f;
  fr_spr_result res;
  fr_error err = { 0 };
  double *xz = NULL;
  size_t n = 0;

  fixture_init (&f);
  g_assert_cmpint (fr_spr_solve (&f.g, f.v, f.src, 1, &f.p, &res, &err), ==, FR_OK);
  g_assert_cmpint (fr_spr_ray (&res, -5.0, 3.0, &xz, &n, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "outside"));
  g_assert_null (xz);
  /* The source's own ray is the single source point. */
  g_assert_cmpint (fr_spr_ray (&res, f.src[0], f.src[1], &xz, &n, &err), ==, FR_OK);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat (xz[0], ==, f.src[0]);
  g_assert_cmpfloat (xz[1], ==, f.src[1]);
  g_free (xz);
  /* A corrupt predecessor map (a cycle) is detected, not followed forever. */
  res.pred[0] = 1;
  res.pred[1] = 0;
  g_assert_cmpint (fr_spr_ray (&res, 1.0, 2.0, &xz, &n, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "cycle"));
  fr_spr_result_clear (&res);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spr/input/defaults", test_defaults);
  g_test_add_func ("/spr/input/backend-names", test_backend_names);
  g_test_add_func ("/spr/input/bad-radius", test_bad_radius);
  g_test_add_func ("/spr/input/radius-beyond-grid", test_radius_beyond_grid);
  g_test_add_func ("/spr/input/bad-sources", test_bad_sources);
  g_test_add_func ("/spr/input/bad-velocity", test_bad_velocity);
  g_test_add_func ("/spr/input/bad-grid", test_bad_grid);
  g_test_add_func ("/spr/input/cancel", test_cancel);
  g_test_add_func ("/spr/input/cancel-latency", test_cancel_latency);
  g_test_add_func ("/spr/input/too-big-for-memory", test_too_big_for_memory);
  g_test_add_func ("/spr/input/cuda-fallback", test_cuda_fallback);
  g_test_add_func ("/spr/input/ray-bad-input", test_ray_bad_input);
  return g_test_run ();
}
