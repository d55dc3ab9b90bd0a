/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SPR edge stencils against hand-worked cases and against an independent
 * clipping of each segment with every cell of its bounding box. */
#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "spr-private.h"
#include "test-spr-util.h"

static const spr_offset *
find_offset (const spr_stencils *s, int a, int b)
{
  for (int k = 0; k < s->noffsets; k++)
    if (s->offsets[k].a == a && s->offsets[k].b == b)
      return &s->offsets[k];
  return NULL;
}

/* Asserts that offset (a, b) crosses exactly the listed cells (in order)
 * with the listed lengths. */
static void
assert_cells (const spr_stencils *s, int a, int b, int n, const int (*cells)[2],
              const double *lens)
{
  const spr_offset *o = find_offset (s, a, b);

  g_assert_nonnull (o);
  g_assert_cmpint (o->count, ==, n);
  for (int i = 0; i < n; i++)
    {
      const spr_cell *c = &s->cells[o->first + i];
      g_assert_cmpint (c->di, ==, cells[i][0]);
      g_assert_cmpint (c->dj, ==, cells[i][1]);
      g_assert_cmpfloat_with_epsilon (c->len, lens[i], 1e-12);
    }
}

static void
test_hand_worked (void)
{
  spr_stencils s;
  const double dx = 1.0;

  g_assert_cmpint (spr_stencils_build (&s, 3, 3, dx, dx, false, NULL), ==, FR_OK);

  /* (1,0): half of the own cell, half of the neighbour's. */
  assert_cells (&s, 1, 0, 2, (const int[][2]) { { 0, 0 }, { 1, 0 } },
                (const double[]) { 0.5, 0.5 });
  /* (1,1): through the shared corner, so (1,0) and (0,1) are not crossed. */
  assert_cells (&s, 1, 1, 2, (const int[][2]) { { 0, 0 }, { 1, 1 } },
                (const double[]) { M_SQRT2 / 2, M_SQRT2 / 2 });
  /* (2,1): x = 0.5 at z = 0.25, z = 0.5 at x = 1, x = 1.5 at z = 0.75:
   * four quarters of sqrt(5). */
  double q = sqrt (5.0) / 4;
  assert_cells (&s, 2, 1, 4, (const int[][2]) { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 2, 1 } },
                (const double[]) { q, q, q, q });
  /* (3,1): x = 0.5 at z = 1/6, then the corner (1.5, 0.5) at t = 1/2, then
   * x = 2.5 at z = 5/6: lengths L/6, L/3, L/3, L/6. */
  double L = sqrt (10.0);
  assert_cells (&s, 3, 1, 4, (const int[][2]) { { 0, 0 }, { 1, 0 }, { 2, 1 }, { 3, 1 } },
                (const double[]) { L / 6, L / 3, L / 3, L / 6 });
  /* (-2,-1) mirrors (2,1). */
  assert_cells (&s, -2, -1, 4,
                (const int[][2]) { { 0, 0 }, { -1, 0 }, { -1, -1 }, { -2, -1 } },
                (const double[]) { q, q, q, q });
  spr_stencils_clear (&s);

  /* Anisotropic spacing: (2,1) with dx = 2, dz = 0.5 keeps the same cells
   * (they depend on index geometry only), lengths scale with the segment. */
  g_assert_cmpint (spr_stencils_build (&s, 2, 2, 2.0, 0.5, false, NULL), ==, FR_OK);
  q = hypot (4.0, 0.5) / 4;
  assert_cells (&s, 2, 1, 4, (const int[][2]) { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 2, 1 } },
                (const double[]) { q, q, q, q });
  assert_cells (&s, 0, -1, 2, (const int[][2]) { { 0, 0 }, { 0, -1 } },
                (const double[]) { 0.25, 0.25 });
  spr_stencils_clear (&s);
}

static int
gcd (int a, int b)
{
  return b == 0 ? a : gcd (b, a % b);
}

static int
expected_count (int rx, int rz, gboolean full)
{
  int n = 0;
  for (int b = -rz; b <= rz; b++)
    for (int a = -rx; a <= rx; a++)
      if ((a != 0 || b != 0) && (full || gcd (abs (a), abs (b)) == 1))
        n++;
  return n;
}

static void
test_counts (void)
{
  spr_stencils s;

  g_assert_cmpint (spr_stencils_build (&s, 4, 4, 1.0, 1.0, false, NULL), ==, FR_OK);
  g_assert_cmpint (s.noffsets, ==, 48);
  spr_stencils_clear (&s);
  g_assert_cmpint (spr_stencils_build (&s, 4, 4, 1.0, 1.0, true, NULL), ==, FR_OK);
  g_assert_cmpint (s.noffsets, ==, 9 * 9 - 1);
  spr_stencils_clear (&s);
  g_assert_cmpint (spr_stencils_build (&s, 1, 1, 1.0, 1.0, false, NULL), ==, FR_OK);
  g_assert_cmpint (s.noffsets, ==, 8);
  spr_stencils_clear (&s);

  for (int rx = 1; rx <= 7; rx++)
    for (int rz = 1; rz <= 7; rz += 2)
      for (int full = 0; full <= 1; full++)
        {
          g_assert_cmpint (spr_stencils_build (&s, rx, rz, 1.0, 1.0, full, NULL), ==, FR_OK);
          g_assert_cmpint (s.noffsets, ==, expected_count (rx, rz, full));
          if (full)
            g_assert_cmpint (s.noffsets, ==, (2 * rx + 1) * (2 * rz + 1) - 1);
          spr_stencils_clear (&s);
        }
}

/* Every offset: lengths sum to the segment, cells match an independent
 * clipping of the segment against every cell of its bounding box, the
 * mirrored offset is present with mirrored cells, max_count is right. */
static void
check_against_clipping (int rx, int rz, double dx, double dz, gboolean full)
{
  spr_stencils s;
  int max_count = 0, total = 0;

  g_assert_cmpint (spr_stencils_build (&s, rx, rz, dx, dz, full, NULL), ==, FR_OK);
  for (int k = 0; k < s.noffsets; k++)
    {
      const spr_offset *o = &s.offsets[k], *m;
      double sum = 0.0, seg = hypot (o->a * dx, o->b * dz);
      int crossed = 0;

      g_assert_cmpfloat_with_epsilon (o->length, seg, 1e-12 * seg);
      g_assert_cmpint (abs (o->a), <=, rx);
      g_assert_cmpint (abs (o->b), <=, rz);
      for (int c = 0; c < o->count; c++)
        {
          const spr_cell *cell = &s.cells[o->first + c];
          double ref = tu_cell_length (dx, dz, 0, 0, o->a, o->b, cell->di, cell->dj);
          g_assert_cmpfloat (cell->len, >, 0.0);
          g_assert_cmpfloat_with_epsilon (cell->len, ref, 1e-9 * seg);
          sum += cell->len;
        }
      g_assert_cmpfloat_with_epsilon (sum, seg, 1e-12 * seg);
      /* No cell of the bounding box is crossed but missing from the stencil. */
      for (int cj = MIN (0, o->b); cj <= MAX (0, o->b); cj++)
        for (int ci = MIN (0, o->a); ci <= MAX (0, o->a); ci++)
          if (tu_cell_length (dx, dz, 0, 0, o->a, o->b, ci, cj) > 0.0)
            crossed++;
      g_assert_cmpint (crossed, ==, o->count);

      m = find_offset (&s, -o->a, -o->b);
      g_assert_nonnull (m);
      g_assert_cmpint (m->count, ==, o->count);
      for (int c = 0; c < o->count; c++)
        {
          const spr_cell *p = &s.cells[o->first + c], *q = &s.cells[m->first + c];
          g_assert_cmpint (q->di, ==, -p->di);
          g_assert_cmpint (q->dj, ==, -p->dj);
          g_assert_cmpfloat_with_epsilon (q->len, p->len, 1e-12 * seg);
        }
      max_count = MAX (max_count, o->count);
      total += o->count;
    }
  g_assert_cmpint (s.max_count, ==, max_count);
  g_assert_cmpint (s.ncells, ==, total);
  spr_stencils_clear (&s);
}

static void
test_clipping (void)
{
  check_against_clipping (4, 4, 1.0, 1.0, FALSE);
  check_against_clipping (4, 4, 1.0, 1.0, TRUE);
  check_against_clipping (6, 2, 0.7, 1.9, FALSE);
  check_against_clipping (3, 5, 25.0, 10.0, TRUE);
  check_against_clipping (1, 1, 1.0, 3.0, FALSE);
}

static void
test_bad_radius (void)
{
  spr_stencils s;
  fr_error err = { 0 };

  g_assert_cmpint (spr_stencils_build (&s, 0, 3, 1.0, 1.0, false, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "radius"));
  g_assert_null (s.offsets);
  g_assert_cmpint (spr_stencils_build (&s, 2, 2, 0.0, 1.0, false, &err), ==, FR_E_INPUT);
  g_assert_nonnull (strstr (err.message, "spacing"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spr/stencil/hand-worked", test_hand_worked);
  g_test_add_func ("/spr/stencil/counts", test_counts);
  g_test_add_func ("/spr/stencil/clipping", test_clipping);
  g_test_add_func ("/spr/stencil/bad-radius", test_bad_radius);
  return g_test_run ();
}
