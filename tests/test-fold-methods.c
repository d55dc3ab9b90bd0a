/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LAS and SOLAS, any thread count, any subdomain size and both precisions
 * converge to the same solution. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "test-fold-common.h"

/* A heterogeneous model: speed 0.5–2 from a few random bumps, an obstacle
 * bar, a seeded generator so every run sees the same model. */
static float *
random_model (const fr_grid *g, guint32 seed, gboolean obstacles)
{
  GRand *r = g_rand_new_with_seed (seed);
  size_t n = fr_grid_count (g);
  float *F = g_new (float, n);
  double c[6][3], w[6], a[6];

  for (int k = 0; k < 6; k++)
    {
      c[k][0] = g_rand_double (r), c[k][1] = g_rand_double (r), c[k][2] = g_rand_double (r);
      w[k] = g_rand_double_range (r, 0.1, 0.3);
      a[k] = g_rand_double_range (r, -0.5, 0.5);
    }
  for (size_t i = 0; i < n; i++)
    {
      double x[3];
      fold_node_xyz (g, i, x);
      double u[3] = { x[0] / ((double) (g->nx - 1) * g->dx), g->ndim == 3 ? x[1] / ((double) (g->ny - 1) * g->dy) : 0.5,
                      x[2] / ((double) (g->nz - 1) * g->dz) };
      double v = 0.0;
      for (int k = 0; k < 6; k++)
        {
          double d2 = (u[0] - c[k][0]) * (u[0] - c[k][0]) + (u[2] - c[k][2]) * (u[2] - c[k][2])
                      + (g->ndim == 3 ? (u[1] - c[k][1]) * (u[1] - c[k][1]) : 0.0);
          v += a[k] * exp (-d2 / (w[k] * w[k]));
        }
      F[i] = (float) exp2 (v);
      if (obstacles && u[2] > 0.6 && u[2] < 0.66 && u[0] > 0.2 && u[0] < 0.8)
        F[i] = 0.0f;
    }
  g_rand_free (r);
  return F;
}

static double
rel_l2 (const fr_grid *g, const double *a, const double *b)
{
  size_t n = fr_grid_count (g);
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      if (isinf (a[i]) || isinf (b[i]))
        {
          g_assert_true (isinf (a[i]) && isinf (b[i]));
          continue;
        }
      num += (a[i] - b[i]) * (a[i] - b[i]);
      den += b[i] * b[i];
    }
  return sqrt (num / den);
}

typedef struct model {
  fr_grid g;
  float *F;
  double src[3];
  double psi[3];
} model;

static void
model_init (model *m, int ndim)
{
  if (ndim == 2)
    {
      m->g = fr_grid_2d (97, 83, 0.01, 0.012, 0, 0);
      m->src[0] = 0.43, m->src[1] = 0.31;
      m->psi[0] = 0.2, m->psi[1] = 0, m->psi[2] = -0.15;
    }
  else
    {
      m->g = fr_grid_3d (19, 17, 21, 0.055, 0.06, 0.05, 0, 0, 0);
      m->src[0] = 0.51, m->src[1] = 0.47, m->src[2] = 0.31;
      m->psi[0] = 0.15, m->psi[1] = -0.1, m->psi[2] = 0.1;
    }
  m->F = random_model (&m->g, 17u + (guint32) ndim, TRUE);
}

static double *
solve (const model *m, fr_fold_method method, int threads, gboolean dbl, int block)
{
  fr_fold_params p;
  fr_fold_start st = { .sources = m->src, .nsrc = 1 };
  fr_fold_result res;

  fr_fold_params_init (&p);
  p.speed = m->F;
  memcpy (p.psi_a, m->psi, sizeof p.psi_a);
  p.method = method;
  p.backend = FR_FOLD_CPU;    /* the CPU's methods, also where a GPU is present */
  p.threads = threads;
  p.double_precision = dbl;
  p.block = block;
  fold_solve_ok (&m->g, &st, &p, &res);
  /* auto: the faster on the CPU by our measurements */
  g_assert_cmpint (res.method, ==, method == FR_FOLD_METHOD_AUTO ? FR_FOLD_SOLAS : method);
  g_assert_cmpint (res.backend, ==, FR_FOLD_CPU);
  g_assert_cmpint (res.iterations, >, 0);
  /* The start values are a part of the solve's time; the GPU's parts are
   * not there. */
  g_assert_cmpfloat (res.start_ms, >=, 0.0);
  g_assert_cmpfloat (res.start_ms, <=, res.solve_ms);
  g_assert_cmpfloat (res.setup_ms, ==, 0.0);
  g_assert_cmpfloat (res.results_ms, ==, 0.0);
  g_test_message ("%dD %s threads=%d %s b=%d: %.1f ms, %ld passes, %ld schedules, %.2f sweeps/subdomain",
                  m->g.ndim, fr_fold_method_name (method), threads, dbl ? "double" : "single",
                  res.block, res.solve_ms, res.iterations, res.schedules,
                  (double) res.subdomain_sweeps / (double) res.subdomains);
  double *t = g_steal_pointer (&res.time);
  fr_fold_result_clear (&res);
  return t;
}

static void
test_same_solution (gconstpointer data)
{
  int ndim = GPOINTER_TO_INT (data);
  model m;
  model_init (&m, ndim);

  double *ref = solve (&m, FR_FOLD_LAS, 1, TRUE, 0);
  static const int threads[] = { 1, 2, 4 };
  for (int meth = FR_FOLD_LAS; meth <= FR_FOLD_SOLAS; meth++)
    for (size_t k = 0; k < G_N_ELEMENTS (threads); k++)
      {
        /* Different orders of updates reach the same fixed point, up to
         * the rounding of the last changes. */
        double *t = solve (&m, (fr_fold_method) meth, threads[k], TRUE, 0);
        g_assert_cmpfloat (rel_l2 (&m.g, t, ref), <, 1e-9);
        g_free (t);
        t = solve (&m, (fr_fold_method) meth, threads[k], FALSE, 0);
        g_assert_cmpfloat (rel_l2 (&m.g, t, ref), <, 1e-4);
        g_free (t);
      }
  /* Another subdomain size: the same discrete solution too. */
  double *t = solve (&m, FR_FOLD_SOLAS, 2, TRUE, ndim == 3 ? 4 : 8);
  g_assert_cmpfloat (rel_l2 (&m.g, t, ref), <, 1e-9);
  g_free (t);
  t = solve (&m, FR_FOLD_METHOD_AUTO, 2, TRUE, 0);
  g_assert_cmpfloat (rel_l2 (&m.g, t, ref), <, 1e-9);
  g_free (t);
  g_free (ref);
  g_free (m.F);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/fold/methods/same-solution-2d", GINT_TO_POINTER (2), test_same_solution);
  g_test_add_data_func ("/fold/methods/same-solution-3d", GINT_TO_POINTER (3), test_same_solution);
  return g_test_run ();
}
