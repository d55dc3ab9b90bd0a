/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Edge stencils: for each offset (a, b) the cells that the segment from a
 * node centre to the centre of node (a, b) away crosses, and the physical
 * length inside each (Kanoksirirath's exact line integral).
 *
 * In index units the segment is t·(a, b), t in [0, 1], and cells are centred
 * on nodes.  It leaves a cell along x at t = (k + 1/2)/|a| and along z at
 * t = (m + 1/2)/|b|.  Both sequences are walked in order; the comparison
 * (2k+1)·|b| <=> (2m+1)·|a| is exact in integers, so a crossing through a
 * cell corner is recognised exactly and steps x and z at once: the corner
 * cells are touched at one point and get no length (CONTRACT.md). */
#include "spr-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int
spr_gcd (int p, int q)
{
  while (q != 0)
    {
      int r = p % q;
      p = q;
      q = r;
    }
  return p;
}

/* Appends the cells of offset (a, b) to cells[] from *n on; returns the count. */
static int
walk_offset (int a, int b, double length, spr_cell *cells, int n)
{
  const int A = abs (a), B = abs (b);
  const int sa = a > 0 ? 1 : (a < 0 ? -1 : 0);
  const int sb = b > 0 ? 1 : (b < 0 ? -1 : 0);
  int ci = 0, cj = 0;     /* current cell, relative to the start node */
  int k = 0, m = 0;       /* crossings taken along x and along z */
  double t_prev = 0.0;
  int count = 0;

  for (;;)
    {
      /* Next crossing along x at t = (2k+1)/(2A), along z at (2m+1)/(2B);
       * an axis with no crossing left compares as "later". */
      bool has_x = k < A, has_z = m < B;
      long long lx = (long long) (2 * k + 1) * B;   /* tx · 2AB */
      long long lz = (long long) (2 * m + 1) * A;   /* tz · 2AB */
      bool step_x, step_z;
      double t;

      if (!has_x && !has_z)
        {
          cells[n + count] = (spr_cell) { ci, cj, (1.0 - t_prev) * length };
          return count + 1;
        }
      if (has_x && has_z)
        {
          step_x = lx <= lz;
          step_z = lz <= lx;
        }
      else
        {
          step_x = has_x;
          step_z = has_z;
        }
      t = step_x ? (2.0 * k + 1.0) / (2.0 * A) : (2.0 * m + 1.0) / (2.0 * B);
      cells[n + count] = (spr_cell) { ci, cj, (t - t_prev) * length };
      count++;
      t_prev = t;
      if (step_x)
        {
          ci += sa;
          k++;
        }
      if (step_z)
        {
          cj += sb;
          m++;
        }
    }
}

fr_status
spr_stencils_build (spr_stencils *s, int rx, int rz, double dx, double dz,
                    bool full, fr_error *err)
{
  size_t max_off, max_cells;

  memset (s, 0, sizeof *s);
  if (rx < 1 || rz < 1 || rx > FR_SPR_RADIUS_MAX || rz > FR_SPR_RADIUS_MAX)
    return fr_error_set (err, FR_E_INPUT, "radius %d,%d is out of range (1 to %d)",
                         rx, rz, FR_SPR_RADIUS_MAX);
  if (!(isfinite (dx) && dx > 0.0 && isfinite (dz) && dz > 0.0))
    return fr_error_set (err, FR_E_INPUT, "grid spacing must be finite and positive");

  /* At most (2rx+1)(2rz+1)-1 offsets, each crossing at most rx+rz+1 cells. */
  max_off = (size_t) (2 * rx + 1) * (size_t) (2 * rz + 1) - 1;
  max_cells = max_off * (size_t) (rx + rz + 1);
  s->offsets = malloc (max_off * sizeof *s->offsets);
  s->cells = malloc (max_cells * sizeof *s->cells);
  if (s->offsets == NULL || s->cells == NULL)
    {
      spr_stencils_clear (s);
      return fr_error_set (err, FR_E_NOMEM, "out of memory building SPR stencils");
    }
  s->rx = rx;
  s->rz = rz;

  /* Row by row (b), then a: a fixed, readable order; (-a,-b) mirrors (a,b). */
  for (int b = -rz; b <= rz; b++)
    for (int a = -rx; a <= rx; a++)
      {
        spr_offset *o;
        if (a == 0 && b == 0)
          continue;
        if (!full && spr_gcd (abs (a), abs (b)) != 1)
          continue;
        o = &s->offsets[s->noffsets++];
        o->a = a;
        o->b = b;
        o->length = sqrt ((a * dx) * (a * dx) + (b * dz) * (b * dz));
        o->first = s->ncells;
        o->count = walk_offset (a, b, o->length, s->cells, s->ncells);
        s->ncells += o->count;
        if (o->count > s->max_count)
          s->max_count = o->count;
      }
  return FR_OK;
}

void
spr_stencils_clear (spr_stencils *s)
{
  free (s->offsets);
  free (s->cells);
  memset (s, 0, sizeof *s);
}
