/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fold's bands as polygons (fr-fold-bands.h).
 *
 * Nodes sit at the centres of the cells, as on the canvas, and the outer
 * half cell takes its nearest node's T, as the canvas's clamped lookup
 * does: so the shapes are traced over the nodes with a copy of the edge
 * nodes at the model's edge.  Each quad between four such nodes is split
 * at its centre, where T is the mean of the four, into four triangles on
 * which T is linear.  A band is then a triangle cut by two straight lines,
 * the two parities tile what is reached without overlap, and a saddle is
 * split the same way for both.  A quad with a corner unreached (+inf or
 * NaN) gets no band, as the canvas shades none there.  Quads that lie
 * whole in one band are joined along their row into one rectangle, which
 * keeps a figure's file small. */
#define G_LOG_DOMAIN "fr-fold-bands"

#include "config.h"

#include <math.h>
#include <string.h>

#include "fr-clip.h"
#include "fr-fold-bands.h"

void
fr_band_shapes_init (FrBandShapes *shapes)
{
  guint zero = 0;

  shapes->xz = g_array_new (FALSE, FALSE, sizeof (double));
  shapes->start = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (shapes->start, zero);
}

void
fr_band_shapes_clear (FrBandShapes *shapes)
{
  g_clear_pointer (&shapes->xz, g_array_unref);
  g_clear_pointer (&shapes->start, g_array_unref);
}

guint
fr_band_shapes_count (const FrBandShapes *shapes)
{
  return shapes->start->len - 1;
}

/* A vertex: x, z and its T, T linear along every side of a polygon. */
typedef double Vertex[3];
enum { X, Z, T };

static void
set_vertex (Vertex v,
            double x,
            double z,
            double t)
{
  v[X] = x;
  v[Z] = z;
  v[T] = t;
}

static void
add_polygon (FrBandShapes *shapes,
             const Vertex *v,
             guint         n)
{
  guint end;

  if (n < 3)
    return;
  for (guint i = 0; i < n; i++)
    {
      g_array_append_val (shapes->xz, v[i][X]);
      g_array_append_val (shapes->xz, v[i][Z]);
    }
  end = shapes->xz->len / 2;
  g_array_append_val (shapes->start, end);
}

/* Band k of T, clamped to the bands drawn; -1 below the first. */
static int
band_of (double t,
         double delta,
         int    count)
{
  double k = floor (t / delta);

  return t < 0.0 ? -1 : (int) MIN (k, (double) count);
}

/* The triangle tri cut into its bands. */
static void
add_triangle (const Vertex  tri[3],
              double        delta,
              int           count,
              FrBandShapes  parity[2])
{
  double lo = MIN (MIN (tri[0][T], tri[1][T]), tri[2][T]);
  double hi = MAX (MAX (tri[0][T], tri[1][T]), tri[2][T]);
  int k0 = MAX (band_of (lo, delta, count), 0), k1 = MIN (band_of (hi, delta, count), count - 1);

  for (int k = k0; k <= k1; k++)
    {
      Vertex a[4], b[5];
      guint n = fr_clip_convex_side (tri[0], 3, 3, T, k * delta, TRUE, a[0]);

      n = fr_clip_convex_side (a[0], n, 3, T, (k + 1) * delta, FALSE, b[0]);
      add_polygon (&parity[k % 2], (const Vertex *) b, n);
    }
}

/* Position and T of extended node i of n along an axis: 0 and n + 1 are
 * the model's edges, half a spacing beyond the outer nodes, with their T. */
static double
position (double origin,
          double spacing,
          size_t n,
          size_t i)
{
  if (i == 0)
    return origin - 0.5 * spacing;
  if (i > n)
    return origin + (n - 0.5) * spacing;
  return origin + (i - 1) * spacing;
}

static double
time_at (const fr_grid *g,
         const float   *time,
         size_t         i,
         size_t         j)
{
  size_t ix = CLAMP (i, 1, g->nx) - 1, iz = CLAMP (j, 1, g->nz) - 1;

  return time[fr_grid_index (g, ix, 0, iz)];
}

/* The bands of the cells ix0 <= ix < ix1, iz0 <= iz < iz1 of grid (a 2D
 * grid), T being time at its nodes, into parity[0] (even k) and parity[1]
 * (odd k), appended; band k holds k·delta <= T < (k + 1)·delta, for k
 * below count.  Each polygon runs the same way round. */
void
fr_fold_bands_trace (const fr_grid *g,
                     const float   *time,
                     double         delta,
                     int            count,
                     size_t         ix0,
                     size_t         ix1,
                     size_t         iz0,
                     size_t         iz1,
                     FrBandShapes   parity[2])
{
  g_return_if_fail (g != NULL && time != NULL);
  g_return_if_fail (ix0 < ix1 && ix1 <= g->nx && iz0 < iz1 && iz1 <= g->nz);

  if (!(delta > 0.0) || count <= 0)
    return;

  /* Cell ix reaches over the quads ix and ix + 1 of the extended nodes. */
  for (size_t j = iz0; j <= iz1; j++)
    {
      double z0 = position (g->z0, g->dz, g->nz, j), z1 = position (g->z0, g->dz, g->nz, j + 1);
      int run_band = -1;
      double run_x0 = 0.0, run_x1 = 0.0;

      for (size_t i = ix0; i <= ix1 + 1; i++)
        {
          Vertex q[4];
          int k[4];
          gboolean whole = FALSE, reached = FALSE;

          if (i <= ix1)
            {
              double x0 = position (g->x0, g->dx, g->nx, i), x1 = position (g->x0, g->dx, g->nx, i + 1);

              set_vertex (q[0], x0, z0, time_at (g, time, i, j));
              set_vertex (q[1], x1, z0, time_at (g, time, i + 1, j));
              set_vertex (q[2], x1, z1, time_at (g, time, i + 1, j + 1));
              set_vertex (q[3], x0, z1, time_at (g, time, i, j + 1));
              reached = TRUE;
              for (int c = 0; c < 4; c++)
                {
                  reached &= isfinite (q[c][T]);
                  k[c] = band_of (q[c][T], delta, count);
                }
              whole = reached && k[0] == k[1] && k[1] == k[2] && k[2] == k[3];
            }
          /* A row's run of whole quads in one band ends here. */
          if (run_band >= 0 && !(whole && k[0] == run_band))
            {
              const Vertex r[4] = { { run_x0, z0, 0 }, { run_x1, z0, 0 }, { run_x1, z1, 0 },
                                    { run_x0, z1, 0 } };

              add_polygon (&parity[run_band % 2], r, 4);
              run_band = -1;
            }
          if (whole && k[0] >= 0 && k[0] < count)
            {
              if (run_band < 0)
                run_x0 = q[0][X];
              run_band = k[0];
              run_x1 = q[1][X];
            }
          else if (reached && !whole)
            {
              for (int c = 0; c < 4; c++)
                {
                  Vertex tri[3];

                  set_vertex (tri[0], 0.5 * (q[0][X] + q[1][X]), 0.5 * (q[0][Z] + q[3][Z]),
                              0.25 * (q[0][T] + q[1][T] + q[2][T] + q[3][T]));
                  memcpy (tri[1], q[c], sizeof tri[1]);
                  memcpy (tri[2], q[(c + 1) % 4], sizeof tri[2]);
                  add_triangle ((const Vertex *) tri, delta, count, parity);
                }
            }
        }
    }
}
