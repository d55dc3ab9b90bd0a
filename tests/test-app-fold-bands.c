/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fold bands as polygons (app/fr-fold-bands.c), against T itself:
 * every point farther than a margin from a band's edge lies in exactly one
 * polygon, of its band's parity, where the canvas shades a band (0 <= T <
 * count·Δ, T bilinear between the nodes, clamped beyond the outer ones,
 * no band beside an unreached node), and in none elsewhere; and the
 * polygons tile the model without overlap. */
#include <math.h>

#include <glib.h>

#include "fr-fold-bands.h"
#include "test-canvas-time.h"

/* Whether (x, z) lies inside polygon i of shapes (crossings of a ray
 * towards +x). */
static gboolean
inside (const FrBandShapes *s,
        guint               i,
        double              x,
        double              z)
{
  const double *p = (const double *) s->xz->data;
  guint a = g_array_index (s->start, guint, i), b = g_array_index (s->start, guint, i + 1);
  gboolean in = FALSE;

  for (guint j = a, k = b - 1; j < b; k = j++)
    if ((p[2 * j + 1] > z) != (p[2 * k + 1] > z) &&
        x < p[2 * k] + (z - p[2 * k + 1]) / (p[2 * j + 1] - p[2 * k + 1]) * (p[2 * j] - p[2 * k]))
      in = !in;
  return in;
}

static double
area (const FrBandShapes *s)
{
  const double *p = (const double *) s->xz->data;
  double sum = 0.0;

  for (guint i = 0; i < fr_band_shapes_count (s); i++)
    {
      guint a = g_array_index (s->start, guint, i), b = g_array_index (s->start, guint, i + 1);
      double twice = 0.0;

      for (guint j = a, k = b - 1; j < b; k = j++)
        twice += p[2 * k] * p[2 * j + 1] - p[2 * j] * p[2 * k + 1];
      sum += fabs (0.5 * twice);
    }
  return sum;
}

/* Samples the cells ix0..ix1, iz0..iz1 on a fine lattice; returns the
 * points checked (those at least margin from an edge in T). */
static guint
check_points (const fr_grid *g,
              const float   *t,
              double         delta,
              int            count,
              size_t ix0, size_t ix1, size_t iz0, size_t iz1,
              double         margin)
{
  FrBandShapes parity[2];
  guint checked = 0;
  const int steps = 7;

  fr_band_shapes_init (&parity[0]);
  fr_band_shapes_init (&parity[1]);
  fr_fold_bands_trace (g, t, delta, count, ix0, ix1, iz0, iz1, parity);
  for (size_t iz = iz0; iz < iz1; iz++)
    for (size_t ix = ix0; ix < ix1; ix++)
      for (int a = 0; a < steps; a++)
        for (int b = 0; b < steps; b++)
          {
            double x = g->x0 + (ix - 0.5 + (a + 0.5) / steps) * g->dx;
            /* Off the quads' diagonals (u = w, u = 1 - w), where the
             * triangles meet. */
            double z = g->z0 + (iz - 0.5 + (b + 0.3) / steps) * g->dz;
            double time = test_canvas_time (g, t, x, z), k = floor (time / delta);
            int want = -1, found = -1, hits = 0;

            if (isfinite (time))
              {
                double off = time < 0.0 ? -time
                             : k < count ? MIN (time - k * delta, (k + 1) * delta - time)
                             : time - count * delta;

                if (off < margin)
                  continue;
                if (time >= 0.0 && k < count)
                  want = (int) k % 2;
              }
            for (int p = 0; p < 2; p++)
              for (guint i = 0; i < fr_band_shapes_count (&parity[p]); i++)
                if (inside (&parity[p], i, x, z))
                  {
                    found = p;
                    hits++;
                  }
            if (hits != (want >= 0) || found != want)
              g_error ("(%g, %g), T %g: in %d polygons, parity %d, want %d", x, z, time, hits, found, want);
            checked++;
          }
  fr_band_shapes_clear (&parity[0]);
  fr_band_shapes_clear (&parity[1]);
  return checked;
}

/* T linear: the split quads are exact, so only points on an edge are
 * left out; the outer half cells take the edge nodes' T.  Two bands and
 * the bare field beyond. */
static void
test_linear (void)
{
  fr_grid g = fr_grid_2d (21, 11, 0.1, 0.1, 0.0, 0.0);
  g_autofree float *t = g_new (float, fr_grid_count (&g));

  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      t[fr_grid_index (&g, ix, 0, iz)] = 0.37 * ix * g.dx + 0.11 * iz * g.dz + 0.05;
  g_assert_cmpuint (check_points (&g, t, 0.1, 5, 0, g.nx, 0, g.nz, 1e-6), >, 10000);
}

/* T the distance from a point, less 0.1 (no band where it is negative),
 * with a block of unreached nodes; the polygons of a part of the grid
 * only, as a zoomed figure asks.  Split quads and bilinear T differ by
 * second order; far from the point, by less than the margin. */
static void
test_radial_unreached_part (void)
{
  fr_grid g = fr_grid_2d (31, 21, 0.05, 0.05, 0.0, 0.0);
  g_autofree float *t = g_new (float, fr_grid_count (&g));

  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      t[fr_grid_index (&g, ix, 0, iz)] = ix >= 20 && ix < 24 && iz >= 5 && iz < 12
                                         ? INFINITY
                                         : hypot (ix * g.dx - 0.73, iz * g.dz - 0.41) - 0.1;
  g_assert_cmpuint (check_points (&g, t, 0.15, 4, 0, g.nx, 0, g.nz, 0.01), >, 15000);
  g_assert_cmpuint (check_points (&g, t, 0.15, 4, 7, 26, 3, 15, 0.01), >, 5000);
}

/* Where every T lies in the bands, the two parities tile the model: their
 * areas add up to its own, so no polygon overlaps another. */
static void
test_tiles (void)
{
  fr_grid g = fr_grid_2d (17, 9, 0.1, 0.2, -0.3, 0.4);
  g_autofree float *t = g_new (float, fr_grid_count (&g));
  FrBandShapes parity[2];

  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      t[fr_grid_index (&g, ix, 0, iz)] = 0.5 + sin (ix * 0.7) * cos (iz * 0.9) * 0.4;
  fr_band_shapes_init (&parity[0]);
  fr_band_shapes_init (&parity[1]);
  fr_fold_bands_trace (&g, t, 0.07, 100, 0, g.nx, 0, g.nz, parity);
  g_assert_cmpfloat_with_epsilon (area (&parity[0]) + area (&parity[1]),
                                  g.nx * g.dx * g.nz * g.dz, 1e-9);
  g_assert_cmpuint (fr_band_shapes_count (&parity[0]), >, 0);
  g_assert_cmpuint (fr_band_shapes_count (&parity[1]), >, 0);
  fr_band_shapes_clear (&parity[0]);
  fr_band_shapes_clear (&parity[1]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/fold-bands/linear", test_linear);
  g_test_add_func ("/app/fold-bands/radial-unreached-part", test_radial_unreached_part);
  g_test_add_func ("/app/fold-bands/tiles", test_tiles);
  return g_test_run ();
}
