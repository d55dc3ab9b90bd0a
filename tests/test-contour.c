/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Marching squares (solver/fr-contour.c) against analytic level sets:
 * circles from a point, straight lines from a straight horizon, circles
 * sheared along ψa, unreached (+inf) regions, and the folded level sets of
 * a real fold solve against the exact front. */
#include <glib.h>
#include <math.h>

#include "fr-contour.h"
#include "fr-fold.h"
#include "test-fold-common.h"

/* Fills a grid's nodes from f. */
static float *
field (const fr_grid *g, double (*f) (double x, double z, const double *p), const double *p)
{
  float *v = g_new (float, fr_grid_count (g));

  for (size_t iz = 0; iz < g->nz; iz++)
    for (size_t ix = 0; ix < g->nx; ix++)
      v[fr_grid_index (g, ix, 0, iz)] = (float) f (g->x0 + ix * g->dx, g->z0 + iz * g->dz, p);
  return v;
}

static void
trace_ok (const fr_grid *g, const float *v, const double *levels, size_t n, fr_contour_set *set)
{
  fr_error err = { 0 };
  fr_status st = fr_contour_trace (g, v, levels, n, set, &err);

  if (st != FR_OK)
    g_error ("fr_contour_trace: %s", err.message);
}

/* Every point of line i, as (x, z) pairs. */
#define LINE_N(set, i) ((set)->start[(i) + 1] - (set)->start[i])
#define LINE_P(set, i) (&(set)->xz[2 * (set)->start[i]])

static double
dist_point (double x, double z, const double *p)
{
  return hypot (x - p[0], z - p[1]);
}

/* T = distance from a point: every level is one closed circle, joined
 * across all the cells it crosses. */
static void
test_circle (void)
{
  fr_grid g = fr_grid_2d (101, 81, 0.02, 0.02, -1.0, -0.8);
  double c[2] = { 0.013, -0.021 };
  double levels[3] = { 0.3, 0.55, 0.7 };
  g_autofree float *v = field (&g, dist_point, c);
  fr_contour_set set;

  trace_ok (&g, v, levels, 3, &set);
  g_assert_cmpuint (set.nlines, ==, 3);
  for (size_t i = 0; i < set.nlines; i++)
    {
      const double *p = LINE_P (&set, i);
      size_t n = LINE_N (&set, i);
      double r = levels[set.level[i]], emax = 0.0, turn = 0.0;

      g_assert_true (set.closed[i]);
      g_assert_cmpfloat (p[0], ==, p[2 * (n - 1)]);
      g_assert_cmpfloat (p[1], ==, p[2 * (n - 1) + 1]);
      /* About one point per cell crossed: 2πr/h · (4/π) at most. */
      g_assert_cmpuint (n, >, 2 * G_PI * r / g.dx);
      for (size_t k = 0; k < n; k++)
        emax = fmax (emax, fabs (hypot (p[2 * k] - c[0], p[2 * k + 1] - c[1]) - r));
      /* Linear interpolation of a distance along an edge errs by at most
       * h²/(2r). */
      g_assert_cmpfloat (emax, <, g.dx * g.dx / (2 * r) + 1e-6);
      /* Joined in order: the winding angle is one full turn. */
      for (size_t k = 0; k + 1 < n; k++)
        {
          double a0 = atan2 (p[2 * k + 1] - c[1], p[2 * k] - c[0]);
          double a1 = atan2 (p[2 * k + 3] - c[1], p[2 * k + 2] - c[0]);
          double d = remainder (a1 - a0, 2 * G_PI);

          g_assert_cmpfloat (fabs (d), <, 0.2);
          turn += d;
        }
      g_assert_cmpfloat (fabs (fabs (turn) - 2 * G_PI), <, 1e-9);
    }
  fr_contour_set_clear (&set);
}

/* T from a straight horizon z = a + b·x, ψa = 0: T = normal distance, so
 * each level is two straight lines parallel to it, one each side, from
 * edge to edge of the grid; linear T makes the crossings exact. */
static double
dist_line (double x, double z, const double *p)
{
  return fabs (z - p[0] - p[1] * x) / sqrt (1 + p[1] * p[1]);
}

static void
test_straight (void)
{
  fr_grid g = fr_grid_2d (64, 50, 0.05, 0.04, 0.0, 0.0);
  double line[2] = { 0.93, 0.11 };
  double levels[2] = { 0.25, 0.5 };
  g_autofree float *v = field (&g, dist_line, line);
  fr_contour_set set;

  trace_ok (&g, v, levels, 2, &set);
  g_assert_cmpuint (set.nlines, ==, 4);
  for (size_t i = 0; i < set.nlines; i++)
    {
      const double *p = LINE_P (&set, i);
      size_t n = LINE_N (&set, i);
      double xmin = INFINITY, xmax = -INFINITY, emax = 0.0;

      g_assert_false (set.closed[i]);
      for (size_t k = 0; k < n; k++)
        {
          xmin = fmin (xmin, p[2 * k]);
          xmax = fmax (xmax, p[2 * k]);
          emax = fmax (emax, fabs (dist_line (p[2 * k], p[2 * k + 1], line) - levels[set.level[i]]));
        }
      g_assert_cmpfloat (emax, <, 1e-5);   /* float T */
      g_assert_cmpfloat (xmin, ==, g.x0);
      g_assert_cmpfloat (xmax, ==, g.x0 + (g.nx - 1) * g.dx);
    }
  fr_contour_set_clear (&set);
}

/* A point source with ψa: the level T = t is the circle of radius F·t
 * about s + ψa·t (CONTRACT.md), sheared along ψa. */
static double
sheared_point (double x, double z, const double *p)
{
  double xs[3] = { x, 0, z }, s[3] = { p[0], 0, p[1] }, psi[3] = { p[2], 0, p[3] };

  return fold_exact_point (xs, s, psi, p[4]);
}

static void
test_sheared (void)
{
  fr_grid g = fr_grid_2d (121, 121, 0.02, 0.02, 0.0, 0.0);
  double p[5] = { 1.0, 1.2, 0.45, -0.3, 1.0 };   /* s, ψa, F */
  double levels[2] = { 0.4, 0.7 };
  g_autofree float *v = field (&g, sheared_point, p);
  fr_contour_set set;

  trace_ok (&g, v, levels, 2, &set);
  g_assert_cmpuint (set.nlines, ==, 2);
  for (size_t i = 0; i < set.nlines; i++)
    {
      const double *q = LINE_P (&set, i);
      double t = levels[set.level[i]], cx = p[0] + p[2] * t, cz = p[1] + p[3] * t;
      double emax = 0.0, mx = 0.0, mz = 0.0;
      size_t n = LINE_N (&set, i);

      g_assert_true (set.closed[i]);
      for (size_t k = 0; k + 1 < n; k++)
        {
          emax = fmax (emax, fabs (hypot (q[2 * k] - cx, q[2 * k + 1] - cz) - p[4] * t));
          mx += q[2 * k] / (n - 1);
          mz += q[2 * k + 1] / (n - 1);
        }
      g_assert_cmpfloat (emax, <, 0.5 * g.dx);
      /* The centre moved along ψa: by ψa·t, not 0. */
      g_assert_cmpfloat (fabs (mx - cx), <, 0.5 * g.dx);
      g_assert_cmpfloat (fabs (mz - cz), <, 0.5 * g.dx);
      g_assert_cmpfloat (mx - p[0], >, 0.8 * p[2] * t);
    }
  fr_contour_set_clear (&set);
}

/* Unreached nodes (+inf) and NaN end lines: no point inside them, and a
 * circle cut by them becomes one open arc. */
static void
test_unreached (void)
{
  fr_grid g = fr_grid_2d (81, 81, 0.025, 0.025, 0.0, 0.0);
  double c[2] = { 1.0, 1.0 };
  double level = 0.5;
  g_autofree float *v = field (&g, dist_point, c);
  fr_contour_set set;

  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      if (ix * g.dx > 1.2)
        v[fr_grid_index (&g, ix, 0, iz)] = iz % 2 ? INFINITY : NAN;

  trace_ok (&g, v, &level, 1, &set);
  g_assert_cmpuint (set.nlines, ==, 1);
  g_assert_false (set.closed[0]);
  for (size_t k = 0; k < LINE_N (&set, 0); k++)
    g_assert_cmpfloat (LINE_P (&set, 0)[2 * k], <=, 1.2 + 1e-9);
  fr_contour_set_clear (&set);

  /* All unreached: nothing, and no failure. */
  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = INFINITY;
  trace_ok (&g, v, &level, 1, &set);
  g_assert_cmpuint (set.nlines, ==, 0);
  fr_contour_set_clear (&set);
}

/* A saddle: T = x·z crossing 0 splits into two lines that never cross. */
static double
saddle (double x, double z, const double *p)
{
  return (x - p[0]) * (z - p[1]);
}

static void
test_saddle (void)
{
  fr_grid g = fr_grid_2d (40, 40, 0.1, 0.1, 0.0, 0.0);
  double c[2] = { 1.95, 1.95 };
  double levels[2] = { 0.3, -0.3 };
  g_autofree float *v = field (&g, saddle, c);
  fr_contour_set set;

  trace_ok (&g, v, levels, 2, &set);
  /* Each level: two hyperbola branches, open at the grid's edge. */
  g_assert_cmpuint (set.nlines, ==, 4);
  for (size_t i = 0; i < set.nlines; i++)
    {
      g_assert_false (set.closed[i]);
      for (size_t k = 0; k < LINE_N (&set, i); k++)
        {
          const double *q = LINE_P (&set, i) + 2 * k;

          g_assert_cmpfloat (fabs (saddle (q[0], q[1], c) - levels[set.level[i]]), <, 0.01);
        }
    }
  fr_contour_set_clear (&set);
}

/* One cell whose corners alternate, high, low, high, low (both ways
 * round): its bilinear interpolant is 1 − x − z + 2xz (or one minus it),
 * whose level L is the hyperbola (2x − 1)(2z − 1) = ±(2L − 1), two
 * branches each inside one quadrant about the saddle (0.5, 0.5).  Below
 * the saddle's value 0.5 the high corners join and the low ones are cut
 * off; above it the reverse.  So each line, both ends on the cell's
 * edges, must keep to one quadrant: a line joined across the saddle is
 * the wrong pairing of the four crossings.  test_saddle's levels never
 * meet such a cell. */
static void
test_saddle_cell (void)
{
  fr_grid g = fr_grid_2d (2, 2, 1.0, 1.0, 0.0, 0.0);

  for (int flip = 0; flip <= 1; flip++)
    for (int k = 0; k < 2; k++)
      {
        /* Nodes (0,0), (1,0), (0,1), (1,1). */
        const float v[4] = { flip ? 0.0f : 1.0f, flip ? 1.0f : 0.0f,
                             flip ? 1.0f : 0.0f, flip ? 0.0f : 1.0f };
        const double level = k == 0 ? 0.4 : 0.6;
        /* The corner each line cuts off: the low ones below 0.5. */
        const gboolean cuts_high = level > 0.5;
        fr_contour_set set;

        trace_ok (&g, v, &level, 1, &set);
        g_assert_cmpuint (set.nlines, ==, 2);
        for (size_t i = 0; i < set.nlines; i++)
          {
            const double *p = LINE_P (&set, i);
            const double sx = p[0] - 0.5, sz = p[1] - 0.5;

            g_assert_cmpuint (LINE_N (&set, i), ==, 2);
            for (size_t q = 0; q < LINE_N (&set, i); q++)
              {
                const double x = p[2 * q], z = p[2 * q + 1];
                const double f = flip ? x + z - 2 * x * z : 1 - x - z + 2 * x * z;
                /* On the level, and in the first point's quadrant. */
                g_assert_cmpfloat_with_epsilon (f, level, 1e-6);
                g_assert_true ((x - 0.5) * sx > 0 && (z - 0.5) * sz > 0);
              }
            /* That quadrant's corner is a high one when the line cuts off
             * the high corners. */
            {
              const size_t cx = sx > 0, cz = sz > 0;
              const gboolean high = v[cz * 2 + cx] > level;
              g_assert_true (high == cuts_high);
            }
          }
        fr_contour_set_clear (&set);
      }
}

/* A saddle cell with uneven corners, a = 1 at (0,0), b = 0 at (1,0),
 * c = 0.6 at (1,1), d = 0.5 at (0,1): its bilinear interpolant's saddle
 * lies at ((a − d)/(a − d + c − b), (a − b)/(a − b + c − d)) = (5/11,
 * 10/11), with the value (ac − bd)/(a + c − b − d) = 6/11 ≈ 0.5455, while
 * the corners' mean is 0.525.  At a level between the two, 0.535, the
 * interpolant still joins the high corners across the saddle and cuts off
 * the low ones; the mean had said the reverse, and joined the crossings
 * the level set does not join.  Levels below and above both agree. */
static void
test_saddle_cell_uneven (void)
{
  fr_grid g = fr_grid_2d (2, 2, 1.0, 1.0, 0.0, 0.0);
  const double a = 1.0, b = 0.0, c = 0.6, d = 0.5;
  /* Nodes (0,0), (1,0), (0,1), (1,1). */
  const float v[4] = { (float) a, (float) b, (float) d, (float) c };
  const double s0 = (a - d) / (a - d + c - b), t0 = (a - b) / (a - b + c - d);
  const double saddle_value = (a * c - b * d) / (a + c - b - d);
  const double levels[] = { 0.51, 0.535, 0.58 };

  g_assert_cmpfloat (0.25 * (a + b + c + d), <, levels[1]);
  g_assert_cmpfloat (levels[1], <, saddle_value);
  for (guint k = 0; k < G_N_ELEMENTS (levels); k++)
    {
      const gboolean cuts_high = levels[k] > saddle_value;
      fr_contour_set set;

      trace_ok (&g, v, &levels[k], 1, &set);
      g_assert_cmpuint (set.nlines, ==, 2);
      for (size_t i = 0; i < set.nlines; i++)
        {
          const double *p = LINE_P (&set, i);
          const double sx = p[0] - s0, sz = p[1] - t0;

          g_assert_cmpuint (LINE_N (&set, i), ==, 2);
          for (size_t q = 0; q < LINE_N (&set, i); q++)
            {
              const double x = p[2 * q], z = p[2 * q + 1];
              const double f = a * (1 - x) * (1 - z) + b * x * (1 - z) + c * x * z + d * (1 - x) * z;

              /* On the interpolant's level, and in the first point's
               * quadrant about its saddle. */
              g_assert_cmpfloat_with_epsilon (f, levels[k], 1e-6);
              g_assert_true ((x - s0) * sx > 0 && (z - t0) * sz > 0);
            }
          {
            const size_t cx = sx > 0, cz = sz > 0;
            const gboolean high = v[cz * 2 + cx] > levels[k];

            g_assert_true (high == cuts_high);
          }
        }
      fr_contour_set_clear (&set);
    }
}

static void
test_bad_input (void)
{
  fr_grid g3 = fr_grid_3d (4, 4, 4, 1, 1, 1, 0, 0, 0);
  fr_grid g = fr_grid_2d (4, 4, 1, 1, 0, 0);
  float v[64] = { 0 };
  double bad = NAN, ok = 1.0;
  fr_contour_set set;
  fr_error err = { 0 };

  g_assert_cmpint (fr_contour_trace (&g3, v, &ok, 1, &set, &err), ==, FR_E_INPUT);
  g_assert_cmpint (fr_contour_trace (&g, v, &bad, 1, &set, &err), ==, FR_E_INPUT);
  g_assert_cmpint (fr_contour_trace (&g, NULL, &ok, 1, &set, &err), ==, FR_E_INPUT);
  g_assert_cmpint (fr_contour_trace (&g, v, NULL, 0, &set, &err), ==, FR_OK);
  g_assert_cmpuint (set.nlines, ==, 0);
  fr_contour_set_clear (&set);
  fr_contour_set_clear (&set);
}

/* The real solver: a point source with ψa; its level sets must be the
 * exact sheared circles within a cell and a half. */
static void
test_fold_solve (void)
{
  fr_grid g = fr_grid_2d (161, 161, 0.0125, 0.0125, 0.0, 0.0);
  double src[2] = { 0.8, 1.1 }, psi[3] = { 0.3, 0, -0.2 };
  double levels[2] = { 0.3, 0.5 };
  fr_fold_start st = { .sources = src, .nsrc = 1 };
  fr_fold_params p;
  fr_fold_result res = { 0 };
  fr_error err = { 0 };
  g_autofree float *t = g_new (float, fr_grid_count (&g));
  fr_contour_set set;

  fr_fold_params_init (&p);
  p.psi_a[0] = psi[0];
  p.psi_a[2] = psi[2];
  g_assert_cmpint (fr_fold_solve (&g, &st, &p, &res, &err), ==, FR_OK);
  for (size_t i = 0; i < fr_grid_count (&g); i++)
    t[i] = (float) res.time[i];
  fr_fold_result_clear (&res);

  trace_ok (&g, t, levels, 2, &set);
  g_assert_cmpuint (set.nlines, ==, 2);
  for (size_t i = 0; i < set.nlines; i++)
    {
      double tl = levels[set.level[i]], cx = src[0] + psi[0] * tl, cz = src[1] + psi[2] * tl;
      double emax = 0.0;

      for (size_t k = 0; k < LINE_N (&set, i); k++)
        {
          const double *q = LINE_P (&set, i) + 2 * k;

          emax = fmax (emax, fabs (hypot (q[0] - cx, q[1] - cz) - tl));
        }
      g_test_message ("level %g: max distance from the exact front %.4f (h = %g)", tl, emax, g.dx);
      g_assert_cmpfloat (emax, <, 1.5 * g.dx);
    }
  fr_contour_set_clear (&set);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/contour/circle", test_circle);
  g_test_add_func ("/contour/straight-horizon", test_straight);
  g_test_add_func ("/contour/sheared-circle", test_sheared);
  g_test_add_func ("/contour/unreached", test_unreached);
  g_test_add_func ("/contour/saddle", test_saddle);
  g_test_add_func ("/contour/saddle-cell", test_saddle_cell);
  g_test_add_func ("/contour/saddle-cell-uneven", test_saddle_cell_uneven);
  g_test_add_func ("/contour/bad-input", test_bad_input);
  g_test_add_func ("/contour/fold-solve", test_fold_solve);
  return g_test_run ();
}
