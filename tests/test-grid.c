/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Grid geometry against CONTRACT.md: node positions, containment, snapping. */
#include <float.h>
#include <glib.h>
#include <math.h>

#include "fr-grid.h"

static void
test_node_position (void)
{
  fr_grid g = fr_grid_2d (11, 6, 0.5, 2.0, -1.0, 10.0);
  double x, y, z;

  g_assert_cmpint (fr_grid_check (&g, NULL), ==, FR_OK);
  g_assert_cmpuint (fr_grid_count (&g), ==, 66);
  fr_grid_node_position (&g, 4, 0, 3, &x, &y, &z);
  g_assert_cmpfloat_with_epsilon (x, -1.0 + 4 * 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (z, 10.0 + 3 * 2.0, 1e-12);
  g_assert_cmpuint (fr_grid_index (&g, 4, 0, 3), ==, 3 * 11 + 4);
}

static void
test_contains_and_snap (void)
{
  fr_grid g = fr_grid_2d (11, 6, 0.5, 2.0, -1.0, 10.0);
  size_t ix, iz;

  g_assert_true (fr_grid_contains (&g, -1.0, 0, 10.0));
  g_assert_true (fr_grid_contains (&g, 4.0, 0, 20.0));
  g_assert_false (fr_grid_contains (&g, 4.01, 0, 20.0));
  g_assert_false (fr_grid_contains (&g, -1.0, 0, 9.99));
  /* Up to rounding beyond an edge is on it: a millionth of a spacing, as
   * off a node (fr_grid_exact_node); a thousandth is beyond. */
  g_assert_true (fr_grid_contains (&g, 4.0 + 0.4e-6, 0, 20.0 - 1.9e-6));
  g_assert_false (fr_grid_contains (&g, 4.0 + 0.5e-3, 0, 20.0));
  g_assert_true (fr_grid_exact_node (&g, 4.0 + 0.4e-6, 0, 20.0, &ix, NULL, &iz));
  g_assert_cmpuint (ix, ==, 10);
  {
    /* A fine grid far from the origin: its far edge written in decimals. */
    fr_grid f = fr_grid_2d (301, 151, 1e-5, 1e-5, 100.0, 50.0);

    g_assert_true (fr_grid_contains (&f, 100.003, 0, 50.0015));
    g_assert_false (fr_grid_contains (&f, 100.003001, 0, 50.0015));
  }
  g_assert_true (fr_grid_nearest_node (&g, 0.24, 0, 13.1, &ix, NULL, &iz));
  g_assert_cmpuint (ix, ==, 2);
  g_assert_cmpuint (iz, ==, 2);
  /* Nearest, not the node below: 2.6 and 2.4 spacings from the origin
   * snap to 3 and 2 along each axis (x, then y and z of a 3D grid). */
  g_assert_true (fr_grid_nearest_node (&g, -1.0 + 2.6 * 0.5, 0, 10.0 + 2.4 * 2.0, &ix, NULL, &iz));
  g_assert_cmpuint (ix, ==, 3);
  g_assert_cmpuint (iz, ==, 2);
  g_assert_true (fr_grid_nearest_node (&g, -1.0 + 2.4 * 0.5, 0, 10.0 + 2.6 * 2.0, &ix, NULL, &iz));
  g_assert_cmpuint (ix, ==, 2);
  g_assert_cmpuint (iz, ==, 3);
  {
    fr_grid g3 = fr_grid_3d (5, 6, 7, 1.0, 0.5, 2.0, 0.0, 1.0, 3.0);
    size_t iy;

    g_assert_true (fr_grid_nearest_node (&g3, 0.4, 1.0 + 3.7 * 0.5, 3.0 + 5.6 * 2.0, &ix, &iy, &iz));
    g_assert_cmpuint (ix, ==, 0);
    g_assert_cmpuint (iy, ==, 4);
    g_assert_cmpuint (iz, ==, 6);
  }
  g_assert_false (fr_grid_exact_node (&g, 0.24, 0, 14.0, &ix, NULL, &iz));
  g_assert_true (fr_grid_exact_node (&g, 0.5, 0, 14.0, &ix, NULL, &iz));
  g_assert_cmpuint (ix, ==, 3);
  g_assert_cmpuint (iz, ==, 2);
}

static void
test_bad_geometry (void)
{
  fr_error err = { 0 };
  fr_grid g = fr_grid_2d (10, 10, 0.0, 1.0, 0, 0);

  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "spacing"));
  g = fr_grid_2d (10, 10, 1.0, NAN, 0, 0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
  /* An empty axis, named in the grid's own axes: an array of shape
   * (0, 41) was "grid size 41 x 1 x 0", a y the 2D input never had. */
  g = fr_grid_2d (41, 0, 1.0, 1.0, 0, 0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "41 x 0 nodes (nx x nz)"));
  g = fr_grid_3d (5, 0, 7, 1, 1, 1, 0, 0, 0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "5 x 0 x 7 nodes (nx x ny x nz)"));
  g = fr_grid_3d (1u << 12, 1u << 12, 1u << 12, 1, 1, 1, 0, 0, 0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "too large"));
}

static void
test_speed_check (void)
{
  fr_grid g = fr_grid_2d (3, 2, 1, 1, 0, 0);
  float v[6] = { 1, 2, 0, 3, 4, 5 };
  fr_error err = { 0 };

  g_assert_cmpint (fr_check_speed_f32 (&g, v, "velocity", &err), ==, FR_OK);
  v[4] = -1.0f;
  g_assert_cmpint (fr_check_speed_f32 (&g, v, "velocity", &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "negative"));
  g_assert_nonnull (strstr (err.message, "ix=1, iz=1"));
  v[4] = NAN;
  g_assert_cmpint (fr_check_speed_f32 (&g, v, "velocity", &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "NaN"));
  v[4] = INFINITY;
  g_assert_cmpint (fr_check_speed_f32 (&g, v, "velocity", &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "infinite"));
}

/* The solvers square distances in double: a grid may span at most
 * FR_GRID_MAX_EXTENT along each axis, (n - 1)·d, or d for one node. */
static void
test_extent_limit (void)
{
  fr_error err = { 0 };
  /* 11 nodes span 10·d. */
  fr_grid g = fr_grid_2d (11, 3, 1e149, 1.0, 0, 0);

  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_OK);
  g = fr_grid_2d (11, 3, 1.01e149, 1.0, 0, 0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "spacing"));
  g_assert_nonnull (strstr (err.message, "along x"));
  g = fr_grid_2d (3, 1, 1.0, 2e150, 0, 0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "along z"));
  g = fr_grid_3d (3, 5, 3, 1.0, 1e150, 1.0, 0, 0, 0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "along y"));
  /* A 2D grid's unused dy never counts. */
  g = fr_grid_2d (3, 3, 1.0, 1.0, 0, 0);
  g.dy = 1e300;
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_OK);
  /* (n - 1)·d past DBL_MAX is inf, still refused. */
  g = fr_grid_2d (3, 3, DBL_MAX, 1.0, 0, 0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
}

/* A spacing below what the coordinates resolve is refused: at 1e12 from
 * the origin a spacing of 1e-4 made the rasteriser's cell faces stand
 * still and write past its buffer (helper-57).  UTM-sized coordinates at
 * metre spacing, a tiny spacing at the origin, and one node far out pass. */
static void
test_spacing_resolution (void)
{
  fr_error err = { 0 };
  fr_grid g = fr_grid_2d (41, 5, 1e-4, 1.0, 1099511627756.0, 0.0);

  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
  g_test_message ("%s", err.message);
  g_assert_nonnull (strstr (err.message, "spacing"));
  g_assert_nonnull (strstr (err.message, "along x"));
  g = fr_grid_3d (3, 3, 3, 1.0, 1.0, 1e-9, 0.0, 0.0, -5e3);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "along z"));
  g = fr_grid_2d (3000, 3000, 1.0, 1.0, 5e6, 4e6);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_OK);
  g = fr_grid_2d (3, 3, 1e-300, 1e-300, 0.0, 0.0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_OK);
  g = fr_grid_2d (1, 3, 1.0, 1.0, 1e15, 0.0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_OK);
  /* A source typed in decimals far out, at such a fine spacing: node 4,
   * one unit in the last place from 6000000.0004 as written; half a
   * spacing off is no node. */
  g = fr_grid_2d (21, 21, 1e-4, 1e-4, 500000.0, 6000000.0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_OK);
  {
    size_t ix = 99, iz = 99;

    g_assert_true (fr_grid_exact_node (&g, 500000.0, 0.0, 6000000.0004, &ix, NULL, &iz));
    g_assert_cmpuint (ix, ==, 0);
    g_assert_cmpuint (iz, ==, 4);
    g_assert_false (fr_grid_exact_node (&g, 500000.0, 0.0, 6000000.00045, &ix, NULL, &iz));
  }
  /* Just above and below the limit. */
  g = fr_grid_2d (2, 2, 1.0001e-12 * 1e6, 1.0, 1e6 - 1.0001e-6, 0.0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_OK);
  g = fr_grid_2d (2, 2, 0.9999e-12 * 1e6, 1.0, 1e6 - 0.9999e-6, 0.0);
  g_assert_cmpint (fr_grid_check (&g, &err), ==, FR_E_INPUT);
}

/* float64 speeds are judged before they are narrowed to float32. */
static void
test_speed_check_f64 (void)
{
  fr_grid g = fr_grid_2d (3, 2, 1, 1, 0, 0);
  double v[6] = { 1, 2, 0, 3, 4, 5 };
  fr_error err = { 0 };

  g_assert_cmpint (fr_check_speed_f64 (&g, v, "V.npy", &err), ==, FR_OK);
  /* -0.0 equals 0: an obstacle, as in a float32 grid. */
  v[4] = -0.0;
  g_assert_cmpint (fr_check_speed_f64 (&g, v, "V.npy", &err), ==, FR_OK);
  /* Negative, although it narrows to -0.0f. */
  v[4] = -1e-50;
  g_assert_cmpint (fr_check_speed_f64 (&g, v, "V.npy", &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "V.npy holds a negative value at node (ix=1, iz=1)"));
  /* Positive, but 0 in float32: it would pass for an obstacle. */
  v[4] = 1e-50;
  g_assert_cmpint (fr_check_speed_f64 (&g, v, "V.npy", &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "ix=1, iz=1"));
  g_assert_nonnull (strstr (err.message, "single precision's range"));
  /* Finite, but inf in float32: not "an infinite value". */
  v[4] = 1e300;
  g_assert_cmpint (fr_check_speed_f64 (&g, v, "V.npy", &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "single precision's range"));
  g_assert_null (strstr (err.message, "infinite"));
  v[4] = INFINITY;
  g_assert_cmpint (fr_check_speed_f64 (&g, v, "V.npy", &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "infinite"));
  v[4] = NAN;
  g_assert_cmpint (fr_check_speed_f64 (&g, v, "V.npy", &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "NaN"));
  /* The ends of float32's range pass: the largest float and a value that
   * rounds to the smallest subnormal, 2^-149. */
  v[4] = FLT_MAX;
  v[5] = 0x1p-149;
  g_assert_cmpint (fr_check_speed_f64 (&g, v, "V.npy", &err), ==, FR_OK);
  /* Below half of 2^-149 rounds to 0; twice FLT_MAX to inf. */
  v[5] = 0x1p-151;
  g_assert_cmpint (fr_check_speed_f64 (&g, v, "V.npy", &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "ix=2, iz=1"));
  v[5] = 2.0 * FLT_MAX;
  g_assert_cmpint (fr_check_speed_f64 (&g, v, "V.npy", &err), ==, FR_E_INPUT);

  /* 3D names iy too. */
  fr_grid g3 = fr_grid_3d (2, 3, 1, 1, 1, 1, 0, 0, 0);
  double w[6] = { 1, 1, 1, 1, 1, -2 };
  g_assert_cmpint (fr_check_speed_f64 (&g3, w, "V.npy", &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "(ix=1, iy=2, iz=0)"));
}

/* fr_grid_sample against a plain reference: a field linear along each
 * axis (which multilinear interpolation reproduces) is returned exactly,
 * to rounding, at random points of 2D and 3D grids, on nodes, on the last
 * node and on faces; where a node of the cell is +inf (unreached) the
 * point takes its nearest node's value, unless that node does not count
 * (the point on the cell's face away from it); outside is NaN. */
static double
linear_field (double x, double y, double z)
{
  return 1.5 + 0.75 * x - 0.25 * y + 2.0 * z;
}

static void
test_sample (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  const fr_grid grids[] = {
    fr_grid_2d (9, 6, 0.5, 0.25, -1.0, 2.0),
    fr_grid_3d (5, 4, 6, 0.3, 0.2, 0.1, 1.0, -2.0, 0.5),
    fr_grid_3d (5, 1, 6, 0.3, 0.2, 0.1, 1.0, -2.0, 0.5),   /* one node along y */
    fr_grid_2d (1, 4, 1.0, 1.0, 0.0, 0.0),                 /* one node along x */
  };

  for (size_t k = 0; k < G_N_ELEMENTS (grids); k++)
    {
      const fr_grid *g = &grids[k];
      const size_t n = fr_grid_count (g);
      double *v = g_new (double, n);
      double xmax, ymax, zmax;

      for (size_t iz = 0; iz < g->nz; iz++)
        for (size_t iy = 0; iy < g->ny; iy++)
          for (size_t ix = 0; ix < g->nx; ix++)
            {
              double x, y, z;

              fr_grid_node_position (g, ix, iy, iz, &x, &y, &z);
              v[fr_grid_index (g, ix, iy, iz)] = linear_field (x, y, z);
            }
      fr_grid_node_position (g, g->nx - 1, g->ny - 1, g->nz - 1, &xmax, &ymax, &zmax);
      for (int i = 0; i < 2000; i++)
        {
          const double x = g_rand_double_range (rand, g->x0, xmax);
          const double y = g->ndim == 3 ? g_rand_double_range (rand, g->y0, ymax) : 0.0;
          const double z = g_rand_double_range (rand, g->z0, zmax);

          g_assert_cmpfloat_with_epsilon (fr_grid_sample (g, v, x, y, z), linear_field (x, y, z),
                                          1e-12);
        }
      /* Every node, the last one included, and the far corner exactly. */
      for (size_t i = 0; i < n; i++)
        {
          const size_t ix = i % g->nx, iy = (i / g->nx) % g->ny, iz = i / (g->nx * g->ny);
          double x, y, z;

          fr_grid_node_position (g, ix, iy, iz, &x, &y, &z);
          g_assert_cmpfloat_with_epsilon (fr_grid_sample (g, v, x, y, z), v[i], 1e-12);
        }
      g_assert_true (isnan (fr_grid_sample (g, v, xmax + g->dx, g->y0, g->z0)));
      g_assert_true (isnan (fr_grid_sample (g, v, g->x0, g->y0, g->z0 - g->dz)));
      g_free (v);
    }

  /* 2D, 4 × 3 nodes of spacing 1, node (2, 1) unreached. */
  {
    const fr_grid g = fr_grid_2d (4, 3, 1.0, 1.0, 0.0, 0.0);
    double v[12];

    for (int i = 0; i < 12; i++)
      v[i] = linear_field (i % 4, 0.0, i / 4);
    v[1 * 4 + 2] = INFINITY;
    /* In a cell with the unreached node: its nearest node's value. */
    g_assert_cmpfloat (fr_grid_sample (&g, v, 1.3, 0.0, 0.6), ==, v[1 * 4 + 1]);
    g_assert_cmpfloat (fr_grid_sample (&g, v, 2.3, 0.0, 1.2), ==, INFINITY);
    g_assert_cmpfloat (fr_grid_sample (&g, v, 2.2, 0.0, 0.3), ==, v[0 * 4 + 2]);
    /* On the face x = 1 of the cells beside it, and on the row z = 0 and
     * z = 2: the unreached node does not count, the value stays linear. */
    g_assert_cmpfloat_with_epsilon (fr_grid_sample (&g, v, 1.0, 0.0, 0.7),
                                    linear_field (1.0, 0.0, 0.7), 1e-12);
    g_assert_cmpfloat_with_epsilon (fr_grid_sample (&g, v, 2.4, 0.0, 0.0),
                                    linear_field (2.4, 0.0, 0.0), 1e-12);
    g_assert_cmpfloat_with_epsilon (fr_grid_sample (&g, v, 1.5, 0.0, 2.0),
                                    linear_field (1.5, 0.0, 2.0), 1e-12);
    /* Cells away from it are untouched. */
    g_assert_cmpfloat_with_epsilon (fr_grid_sample (&g, v, 0.5, 0.0, 1.5),
                                    linear_field (0.5, 0.0, 1.5), 1e-12);
  }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/grid/node-position", test_node_position);
  g_test_add_func ("/grid/contains-and-snap", test_contains_and_snap);
  g_test_add_func ("/grid/bad-geometry", test_bad_geometry);
  g_test_add_func ("/grid/speed-check", test_speed_check);
  g_test_add_func ("/grid/extent-limit", test_extent_limit);
  g_test_add_func ("/grid/spacing-resolution", test_spacing_resolution);
  g_test_add_func ("/grid/speed-check-f64", test_speed_check_f64);
  g_test_add_func ("/grid/sample", test_sample);
  return g_test_run ();
}
