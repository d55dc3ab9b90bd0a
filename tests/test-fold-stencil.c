/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The 3D pyramid's base topology (fold-private.h) is written as packed
 * nibble tables, so that the GPU's unrolled loops see constants.  This
 * checks those tables against what they must describe, computed here from
 * the base's geometry: triangles of centre, side and neighbouring corner,
 * the 16 edges between neighbouring base nodes, and each triangle's sides. */
#include <glib.h>
#include <stdlib.h>

#include "fold-private.h"

/* Base node n sits at (du, dv) = (n % 3 − 1, n / 3 − 1). */
static int
du_of (int n)
{
  return n % 3 - 1;
}

static int
dv_of (int n)
{
  return n / 3 - 1;
}

static gboolean
is_side (int n)
{
  return abs (du_of (n)) + abs (dv_of (n)) == 1;
}

static gboolean
is_corner (int n)
{
  return abs (du_of (n)) == 1 && abs (dv_of (n)) == 1;
}

/* Neighbours on the base: one step along u or v (or the centre with any). */
static gboolean
adjacent (int a, int b)
{
  if (a == b)
    return FALSE;
  if (a == 4 || b == 4)
    return TRUE;
  return abs (du_of (a) - du_of (b)) + abs (dv_of (a) - dv_of (b)) == 1;
}

static void
test_triangles (void)
{
  int seen[9][9] = { { 0 } };

  for (int q = 0; q < 8; q++)
    {
      const int c = fold_tri_node (q, 0), s = fold_tri_node (q, 1), k = fold_tri_node (q, 2);
      g_assert_cmpint (c, ==, 4);
      g_assert_true (is_side (s));
      g_assert_true (is_corner (k));
      g_assert_true (adjacent (s, k));
      seen[s][k]++;
    }
  /* Each of the 8 (side, corner) neighbour pairs once: the base is tiled. */
  int pairs = 0;
  for (int s = 0; s < 9; s++)
    for (int k = 0; k < 9; k++)
      if (is_side (s) && is_corner (k) && adjacent (s, k))
        {
          g_assert_cmpint (seen[s][k], ==, 1);
          pairs++;
        }
  g_assert_cmpint (pairs, ==, 8);
}

static void
test_edges (void)
{
  int seen[9][9] = { { 0 } };

  for (int q = 0; q < 16; q++)
    {
      const int a = fold_edge_node (q, 0), b = fold_edge_node (q, 1);
      g_assert_cmpint (a, >=, 0);
      g_assert_cmpint (b, <, 9);
      g_assert_true (adjacent (a, b));
      seen[MIN (a, b)][MAX (a, b)]++;
      if (q < 4)
        g_assert_true (a == 4 && is_side (b));
      else if (q < 8)
        g_assert_true (a == 4 && is_corner (b));
      else
        {
          /* Edge 8 + q is triangle q's outer side, from its side node. */
          g_assert_cmpint (a, ==, fold_tri_node (q - 8, 1));
          g_assert_cmpint (b, ==, fold_tri_node (q - 8, 2));
        }
    }
  /* Every neighbour pair of the base once: 8 from the centre, 8 outer. */
  int pairs = 0;
  for (int a = 0; a < 9; a++)
    for (int b = a + 1; b < 9; b++)
      if (adjacent (a, b) && (a == 4 || b == 4 || is_side (a) != is_side (b)))
        {
          g_assert_cmpint (seen[a][b], ==, 1);
          pairs++;
        }
  g_assert_cmpint (pairs, ==, 16);
}

static void
test_triangle_sides (void)
{
  for (int q = 0; q < 8; q++)
    {
      uint32_t sides = 0;
      for (int e = 0; e < 16; e++)
        {
          gboolean has[2] = { FALSE, FALSE };
          for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++)
              has[i] |= fold_edge_node (e, i) == fold_tri_node (q, j);
          if (has[0] && has[1])
            sides |= 1u << e;
        }
      g_assert_cmpuint (fold_tri_sides (q), ==, sides);
      g_assert_cmpint (__builtin_popcount (sides), ==, 3);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fold/stencil/triangles", test_triangles);
  g_test_add_func ("/fold/stencil/edges", test_edges);
  g_test_add_func ("/fold/stencil/triangle-sides", test_triangle_sides);
  return g_test_run ();
}
