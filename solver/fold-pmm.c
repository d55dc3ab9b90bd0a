/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Local solvers and the parallel marching method (PMM) sweep of one
 * subdomain.
 *
 * A sweep is 4 sub-sweeps in 2D (+x, −x, +z, −z) and 6 in 3D.  A sub-sweep
 * along +x visits the planes x = const in increasing order; every node of a
 * plane is updated from the previous plane only, so a plane's nodes are
 * independent (the PMM of Weber et al. / Detrixhe et al., as Gillberg et al.
 * use it).  The stencil is a triangle in 2D (apex and the 3 nodes of the
 * previous column) and a pyramid in 3D (apex and the 3×3 nodes of the
 * previous plane, the base cut into 8 triangles around its centre).  Over
 * the 2·d sub-sweeps the bases tile the faces of the box around the node, so
 * every direction of arrival is covered.
 *
 * Each stencil gives the node the least T(y) + τ(x − y) over its base
 * (fold-private.h): vertices, interiors of edges (closed form) and, in 3D,
 * interiors of triangles (T linear on the tetrahedron: a quadratic in the
 * apex value, then the conditional-upwind test that the characteristic
 * F·n + ψ enters through the triangle).  With ψ = 0 these are the usual
 * upwind eikonal updates on triangles and tetrahedra.
 *
 * Obstacles (F = 0) are never updated and never reached; a base node that
 * the apex could only see by squeezing between obstacles that touch at an
 * edge or a corner (a diagonal wall) offers nothing (fold_diagonal_walls_2d
 * and _3d in fold-private.h).
 *
 * Cost: what depends on F only (vertex τ, edge constants) is computed once
 * per run of equal speeds (fold_coef2d, fold_coef3d), and an edge's
 * conditional-upwind test is decided before any root.  The per-node
 * arithmetic (fold-local.h) is in the storage precision: float in single
 * precision, double in double. */
#include "fold-private.h"

#include <string.h>

static double
dot3 (const double *a, const double *b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Inverse of a 3×3 matrix; false when singular. */
static bool
inverse3 (const double m[3][3], double inv[3][3])
{
  double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
             - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
             + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  if (det == 0.0)
    return false;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
        inv[i][j] = (m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1]) / det;
      }
  return true;
}

void
fold_stencil_build (fold_stencil *st, const fold_layout *L, const fr_grid *g,
                    const double psi[3])
{
  const double h[3] = { g->dx, g->ndim == 3 ? g->dy : 1.0, g->dz };
  static const int axes2[2] = { 0, 2 };

  memset (st, 0, sizeof *st);
  st->ndim = g->ndim;
  st->psi2 = dot3 (psi, psi);
  st->psin = sqrt (st->psi2);
  st->nsub = 2 * g->ndim;
  for (int s = 0; s < st->nsub; s++)
    {
      fold_subsweep *ss = &st->sub[s];
      int a = g->ndim == 3 ? s / 2 : axes2[s / 2];
      ss->axis = a;
      ss->sign = s % 2 == 0 ? 1 : -1;
      if (g->ndim == 2)
        ss->u = a == 0 ? 2 : 0, ss->v = -1;
      else
        ss->u = a == 0 ? 1 : 0, ss->v = a == 2 ? 1 : 2;
      ss->h = h[a];
      ss->hf = (float) h[a];
      ss->nbase = g->ndim == 3 ? 9 : 3;
      /* The frame along the axis (towards the apex), u and v (2D: none). */
      const int ax[3] = { a, ss->u, ss->v };
      double hl[3];
      for (int i = 0; i < 3; i++)
        {
          hl[i] = ax[i] >= 0 ? h[ax[i]] : 1.0;
          ss->fr.h[i] = (float) hl[i];
          ss->fr.rh[i] = (float) (1.0 / hl[i]);
          ss->fr.psi[i] = (float) (ax[i] < 0 ? 0.0 : i == 0 ? ss->sign * psi[a] : psi[ax[i]]);
        }
      ss->fr.tilt = (float) (hl[0] / fmax (hl[1], hl[2]));

      /* d[n] = apex − base node n, in x, y, z. */
      double d[9][3];
      for (int n = 0; n < ss->nbase; n++)
        {
          int du = g->ndim == 3 ? n % 3 - 1 : n - 1;
          int dv = g->ndim == 3 ? n / 3 - 1 : 0;
          ss->off[n] = -ss->sign * L->stride[a] + du * L->stride[ss->u]
                       + (ss->v >= 0 ? dv * L->stride[ss->v] : 0);
          d[n][0] = d[n][1] = d[n][2] = 0.0;
          d[n][a] = ss->sign * h[a];
          d[n][ss->u] = -du * h[ss->u];
          if (ss->v >= 0)
            d[n][ss->v] = -dv * h[ss->v];
          ss->m[n] = dot3 (psi, d[n]);
          ss->dd[n] = dot3 (d[n], d[n]);
          ss->mf[n] = (float) ss->m[n];
          ss->ddf[n] = (float) ss->dd[n];
        }

      /* Edges and triangles of the base around its centre node. */
      static const int edges2[2][2] = { { 1, 0 }, { 1, 2 } };
      double edge_d1[16], edge_d2[16];
      ss->ne = g->ndim == 3 ? 16 : 2;
      for (int k = 0; k < ss->ne; k++)
        {
          fold_edge *e = &ss->e[k];
          e->n1 = g->ndim == 3 ? fold_edge_node (k, 0) : edges2[k][0];
          e->n2 = g->ndim == 3 ? fold_edge_node (k, 1) : edges2[k][1];
          double ev[3];
          for (int i = 0; i < 3; i++)
            ev[i] = d[e->n1][i] - d[e->n2][i];    /* x2 − x1 */
          e->m0 = dot3 (psi, d[e->n1]);
          e->m1 = dot3 (psi, ev);
          e->ee = dot3 (ev, ev);
          e->de = dot3 (d[e->n1], ev);
          e->dd0 = dot3 (d[e->n1], d[e->n1]);
          /* D's parts for the GPU's float path (fold_edge_f), as norms,
           * without the cancellation of αγ − β². */
          const double *d0 = d[e->n1];
          double w[3], x[3];
          for (int i = 0; i < 3; i++)
            w[i] = e->m1 * d0[i] - e->m0 * ev[i];
          x[0] = ev[1] * d0[2] - ev[2] * d0[1];
          x[1] = ev[2] * d0[0] - ev[0] * d0[2];
          x[2] = ev[0] * d0[1] - ev[1] * d0[0];
          edge_d1[k] = dot3 (w, w);
          edge_d2[k] = dot3 (x, x);
        }
      ss->nt = g->ndim == 3 ? 8 : 0;
      for (int k = 0; k < ss->nt; k++)
        {
          fold_tri *t = &ss->t[k];
          double E[3][3], Ei[3][3];
          for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
              E[i][j] = -d[fold_tri_node (k, i)][j];        /* e_i = x_i − x0 */
          if (!inverse3 (E, Ei))
            {
              t->bb = 0.0;                        /* never happens on a grid */
              continue;
            }
          /* M = E⁻ᵀ E⁻¹, φ = E⁻ᵀ ψ. */
          for (int i = 0; i < 3; i++)
            {
              for (int j = 0; j < 3; j++)
                t->M[i][j] = Ei[0][i] * Ei[0][j] + Ei[1][i] * Ei[1][j] + Ei[2][i] * Ei[2][j];
              t->phi[i] = Ei[0][i] * psi[0] + Ei[1][i] * psi[1] + Ei[2][i] * psi[2];
            }
          t->bb = 0.0;
          t->r = t->phi[0] + t->phi[1] + t->phi[2];
          for (int i = 0; i < 3; i++)
            {
              t->M1[i] = t->M[i][0] + t->M[i][1] + t->M[i][2];
              t->bb += t->M1[i];
            }
        }

      /* The same geometry rounded to float, for single precision. */
      for (int k = 0; k < ss->ne; k++)
        {
          const fold_edge *e = &ss->e[k];
          ss->ef[k] = (fold_edge_f) { (float) e->m0, (float) e->m1, (float) e->ee, (float) e->de,
                                      (float) e->dd0, (float) edge_d1[k], (float) edge_d2[k] };
        }
      for (int k = 0; k < ss->nt; k++)
        {
          const fold_tri *t = &ss->t[k];
          fold_tri_f *tf = &ss->tf[k];
          for (int i = 0; i < 3; i++)
            {
              for (int j = 0; j < 3; j++)
                tf->M[i][j] = (float) t->M[i][j];
              tf->M1[i] = (float) t->M1[i];
              tf->phi[i] = (float) t->phi[i];
            }
          tf->bb = (float) t->bb;
          tf->r = (float) t->r;
        }
    }
}

#define REAL float
#define SFX(name) fold_##name##_f32
#define LOCAL(name) name##_f
#include "fold-pmm-kernels.h"
#undef REAL
#undef SFX
#undef LOCAL

#define REAL double
#define SFX(name) fold_##name##_f64
#define LOCAL(name) name
#include "fold-pmm-kernels.h"
#undef REAL
#undef SFX
#undef LOCAL

const fold_ops *
fold_ops_get (bool double_precision)
{
  return double_precision ? &fold_ops_f64 : &fold_ops_f32;
}
