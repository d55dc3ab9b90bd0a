/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Grid geometry against CONTRACT.md: node positions, containment, snapping. */
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
  g_assert_true (fr_grid_nearest_node (&g, 0.24, 0, 13.1, &ix, NULL, &iz));
  g_assert_cmpuint (ix, ==, 2);
  g_assert_cmpuint (iz, ==, 2);
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/grid/node-position", test_node_position);
  g_test_add_func ("/grid/contains-and-snap", test_contains_and_snap);
  g_test_add_func ("/grid/bad-geometry", test_bad_geometry);
  g_test_add_func ("/grid/speed-check", test_speed_check);
  return g_test_run ();
}
