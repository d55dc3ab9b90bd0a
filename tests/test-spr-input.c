/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fr_spr_solve refuses bad input with a clear message, honours a raised
 * cancel flag, and names back ends both ways. */
#include <glib.h>
#include <math.h>

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
  fixture_init (&f);
  f.p.rz = 12;   /* 12 nodes in z */
  expect (&f, FR_E_INPUT, WORDS ("radius 12 is larger than the grid", "12 nodes in z"));
  fixture_init (&f);
  f.p.rx = 25;
  expect (&f, FR_E_INPUT, WORDS ("radius 25 is larger than the grid", "20 nodes in x"));
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
  g_test_add_func ("/spr/input/bad-sources", test_bad_sources);
  g_test_add_func ("/spr/input/bad-velocity", test_bad_velocity);
  g_test_add_func ("/spr/input/bad-grid", test_bad_grid);
  g_test_add_func ("/spr/input/cancel", test_cancel);
  g_test_add_func ("/spr/input/ray-bad-input", test_ray_bad_input);
  return g_test_run ();
}
