/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The blocked layout of the fold solver.
 *
 * The grid is cut into subdomains of b × b × b nodes (b × b in 2D), the
 * last ones padded past the grid's end.  Each subdomain is stored as one
 * contiguous array of (b+2)³ values ((b+2)² in 2D): its b^d inner nodes
 * surrounded by one layer of ghost nodes, x fastest, then y, then z:
 *
 *     subdomain k:  [ (b+2)^d values ]   offset k·bsize
 *     node (i, j, k) inner  ->  ((k+1)·p[1] + (j+g[1]))·p[0] + (i+1)
 *
 * Why: a PMM sweep of a subdomain then touches one small contiguous array
 * (8 KiB for b = 8 in double) that stays in L1, and the ghosts make it
 * independent of its neighbours while it is solved, so different threads
 * solve different subdomains without sharing a cache line of inner values.
 * The ghosts hold copies of the neighbours' boundary nodes: faces, and
 * edges and corners too, since a pyramid stencil reaches diagonally.  A
 * copy is only ever lowered (see fold-pmm.c's push).
 *
 * Speeds use the same layout, so a node's speed and time share an offset.
 * A ghost's speed is 0 where the neighbour node is an obstacle and -1
 * otherwise: ghosts are never updated, but the 2D sweep asks whether a
 * node beside it is an obstacle (a diagonal wall, see fold-pmm.c). */
#include "fold-private.h"

#include <stdlib.h>

void
fold_layout_init (fold_layout *L, const fr_grid *g, int b)
{
  L->ndim = g->ndim;
  L->b = b;
  L->n[0] = g->nx;
  L->n[1] = g->ndim == 3 ? g->ny : 1;
  L->n[2] = g->nz;
  for (int a = 0; a < 3; a++)
    {
      bool used = a != 1 || g->ndim == 3;
      L->nb[a] = used ? (L->n[a] + (size_t) b - 1) / (size_t) b : 1;
      L->p[a] = used ? b + 2 : 1;
      L->g[a] = used ? 1 : 0;
    }
  L->nblocks = L->nb[0] * L->nb[1] * L->nb[2];
  L->stride[0] = 1;
  L->stride[1] = L->p[0];
  L->stride[2] = (ptrdiff_t) L->p[0] * L->p[1];
  L->inner0 = L->g[2] * L->stride[2] + L->g[1] * L->stride[1] + L->g[0];
  L->bsize = (size_t) L->p[0] * (size_t) L->p[1] * (size_t) L->p[2];
}

float *
fold_blocks_speed (const fold_layout *L, const float *speed, const uint8_t *frozen,
                   uint8_t *solvable, int threads)
{
  float *F = malloc (L->nblocks * L->bsize * sizeof *F);
  if (F == NULL)
    return NULL;
  int b = L->b;
  int by = L->ndim == 3 ? b : 1;

#pragma omp parallel for schedule(static) num_threads(threads)
  for (size_t k = 0; k < L->nblocks; k++)
    {
      float *Fk = F + k * L->bsize;
      size_t bx = k % L->nb[0], byy = (k / L->nb[0]) % L->nb[1], bz = k / (L->nb[0] * L->nb[1]);
      bool any = false;

      for (size_t q = 0; q < L->bsize; q++)
        Fk[q] = -1.0f;
      /* Obstacles among the ghosts (and padding stays -1). */
      for (int pk = 0; pk < L->p[2]; pk++)
        for (int pj = 0; pj < L->p[1]; pj++)
          for (int pi = 0; pi < L->p[0]; pi++)
            {
              ptrdiff_t gx = (ptrdiff_t) (bx * (size_t) b) + pi - L->g[0];
              ptrdiff_t gy = L->ndim == 3 ? (ptrdiff_t) (byy * (size_t) by) + pj - L->g[1] : 0;
              ptrdiff_t gz = (ptrdiff_t) (bz * (size_t) b) + pk - L->g[2];
              if (gx < 0 || gy < 0 || gz < 0 || (size_t) gx >= L->n[0] || (size_t) gy >= L->n[1]
                  || (size_t) gz >= L->n[2])
                continue;
              size_t idx = ((size_t) gz * L->n[1] + (size_t) gy) * L->n[0] + (size_t) gx;
              if (speed[idx] == 0.0f)
                Fk[pk * L->stride[2] + pj * L->stride[1] + pi] = 0.0f;
            }
      for (int kk = 0; kk < b; kk++)
        for (int jj = 0; jj < by; jj++)
          for (int ii = 0; ii < b; ii++)
            {
              size_t gx = bx * (size_t) b + (size_t) ii;
              size_t gy = byy * (size_t) by + (size_t) jj;
              size_t gz = bz * (size_t) b + (size_t) kk;
              ptrdiff_t o = L->inner0 + kk * L->stride[2] + jj * L->stride[1] + ii;
              if (gx >= L->n[0] || gy >= L->n[1] || gz >= L->n[2])
                continue;
              size_t idx = (gz * L->n[1] + gy) * L->n[0] + gx;
              if (frozen != NULL && frozen[idx])
                continue;
              Fk[o] = speed[idx];
              if (speed[idx] > 0.0f)
                any = true;
            }
      solvable[k] = any;
    }
  return F;
}

int
fold_neighbour_dirs (int ndim, int dirs[26][3])
{
  int n = 0;

  for (int order = 1; order <= ndim; order++)
    for (int dz = -1; dz <= 1; dz++)
      for (int dy = (ndim == 3 ? -1 : 0); dy <= (ndim == 3 ? 1 : 0); dy++)
        for (int dx = -1; dx <= 1; dx++)
          if (abs (dx) + abs (dy) + abs (dz) == order)
            {
              dirs[n][0] = dx;
              dirs[n][1] = dy;
              dirs[n][2] = dz;
              n++;
            }
  return n;
}
