/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The per-precision part of fold-pmm.c, included once with REAL = float
 * and once with REAL = double (SFX names the functions, LOCAL picks the
 * local solver of that precision, fold-local.h).  A node's update is
 * computed in REAL and kept only when it is lower, so that every store is
 * a real change and the iteration stops. */

#ifndef REAL
#error "define REAL and SFX before including fold-pmm-kernels.h"
#endif

/* Keeps a lowered node: rounded to REAL, stored only when that is lower. */
#define FOLD_STORE(o, best)                                                     \
  do                                                                            \
    {                                                                           \
      const REAL nvalue_ = (REAL) (best);                                       \
      if (nvalue_ < T[o])                                                       \
        {                                                                       \
          T[o] = nvalue_;                                                       \
          stamp[o] = now;                                                       \
          changed = true;                                                       \
          if ((double) nvalue_ < mc)                                            \
            mc = (double) nvalue_;                                              \
        }                                                                       \
    }                                                                           \
  while (0)

/* 2D: one plane is one row of b nodes and the stencil has 3 base nodes. */
static bool
SFX (sweep_2d) (const fold_stencil *st, const fold_layout *L, REAL *T, const float *F,
                uint32_t *stamp, uint32_t *counter, double *minchg)
{
  const int b = L->b;
  bool changed = false;
  double mc = INFINITY;
  LOCAL (fold_coef2d) k = { .F = -1.0f };

  for (int s = 0; s < st->nsub; s++)
    {
      const fold_subsweep *ss = &st->sub[s];
      const uint32_t now = ++*counter;
      const uint32_t since = now - (uint32_t) st->nsub;
      const ptrdiff_t sa = L->stride[ss->axis], su = L->stride[ss->u];
      const ptrdiff_t o0 = ss->off[0], o1 = ss->off[1], o2 = ss->off[2];

      k.F = -1.0f;
      for (int p = 0; p < b; p++)
        {
          const int ia = ss->sign > 0 ? p : b - 1 - p;
          const ptrdiff_t oplane = L->inner0 + ia * sa;
          /* Which base-plane values changed since: node q's base is
           * entries q..q+2 (the plane's b nodes and its 2 ghosts), so the
           * plane is read once, and skipped when nothing in it changed. */
          const uint32_t *sb = stamp + oplane + o0;
          uint8_t fresh[FOLD_BLOCK_MAX + 2];
          uint8_t any = 0;
          for (int i = 0; i < b + 2; i++)
            {
              fresh[i] = sb[i * su] > since;
              any |= fresh[i];
            }
          if (!any)
            continue;
          for (int q = 0; q < b; q++)
            {
              const ptrdiff_t o = oplane + q * su;
              if (!(fresh[q] | fresh[q + 1] | fresh[q + 2]))
                continue;
              const float f = F[o];
              if (!(f > 0.0f))
                continue;
              const REAL cur = T[o];
              REAL T0 = T[o + o0], T2 = T[o + o2];
              const REAL T1 = T[o + o1];
              LOCAL (fold_diagonal_walls_2d) (F, o, o1, su, &T0, &T2);
              if (f != k.F)
                {
                  /* The update's own first test, before a new speed's set
                   * (fold_coef_tlb). */
                  const REAL mn = LOCAL (fold_min) (T0, LOCAL (fold_min) (T1, T2));
                  if (!(mn + LOCAL (fold_coef_tlb) (ss, f, st->psin) < cur))
                    continue;
                  LOCAL (fold_coef2d_set) (&k, ss, f, st->psi2, st->psin);
                }
              const REAL best = LOCAL (fold_node_update_2d) (&k, T0, T1, T2, cur);
              if (best < cur)
                FOLD_STORE (o, best);
            }
        }
    }
  *minchg = mc;
  return changed;
}

static bool
SFX (sweep) (const fold_stencil *st, const fold_layout *L, void *Tv, const float *F,
             uint32_t *stamp, uint32_t *counter, double *minchg)
{
  REAL *T = Tv;
  const int b = L->b;
  bool changed = false;
  double mc = INFINITY;
  LOCAL (fold_coef3d) k = { .F = -1.0f };

  if (st->ndim == 2)
    return SFX (sweep_2d) (st, L, T, F, stamp, counter, minchg);
  const bool walls = fold_has_obstacle (F, L->bsize);
  for (int s = 0; s < st->nsub; s++)
    {
      const fold_subsweep *ss = &st->sub[s];
      /* A node was last evaluated in this direction nsub sub-sweeps ago; it
       * can only improve when a base node changed since (stamp > since). */
      const uint32_t now = ++*counter;
      const uint32_t since = now - (uint32_t) st->nsub;
      const ptrdiff_t sa = L->stride[ss->axis], su = L->stride[ss->u];
      const ptrdiff_t sv = ss->v >= 0 ? L->stride[ss->v] : 0;
      const int nv = ss->v >= 0 ? b : 1;
      const int nbase = ss->nbase;

      k.F = -1.0f;
      for (int p = 0; p < b; p++)
        {
          /* The planes are solved in order; the nodes of one plane depend
           * only on the previous plane (the parallel marching method). */
          const int ia = ss->sign > 0 ? p : b - 1 - p;
          const ptrdiff_t oplane = L->inner0 + ia * sa;
          for (int r = 0; r < nv; r++)
            for (int q = 0; q < b; q++)
              {
                const ptrdiff_t o = oplane + r * sv + q * su;
                const float f = F[o];
                if (!(f > 0.0f))
                  continue;
                uint32_t fresh = 0;   /* the base nodes changed since */
                for (int n = 0; n < nbase; n++)
                  fresh |= (uint32_t) (stamp[o + ss->off[n]] > since) << n;
                if (!fresh)
                  continue;
                REAL Tn[9];
                for (int n = 0; n < nbase; n++)
                  Tn[n] = T[o + ss->off[n]];
                if (walls)
                  LOCAL (fold_diagonal_walls_3d) (F, o, ss, su, sv, Tn);
                const REAL cur = T[o];
                if (f != k.F)
                  {
                    /* The update's own first test, before a new speed's
                     * set (fold_coef_tlb). */
                    REAL mn = Tn[0];
                    for (int n = 1; n < nbase; n++)
                      mn = LOCAL (fold_min) (mn, Tn[n]);
                    if (!(mn + LOCAL (fold_coef_tlb) (ss, f, st->psin) < cur))
                      continue;
                    LOCAL (fold_coef3d_set) (&k, ss, f, st->psi2, st->psin);
                  }
                const REAL best = LOCAL (fold_node_update_3d) (ss, &k, Tn, cur, fresh);
                if (best < cur)
                  FOLD_STORE (o, best);
              }
        }
    }
  *minchg = mc;
  return changed;
}

#undef FOLD_STORE

static bool
SFX (push) (const fold_layout *L, const void *srcv, void *dstv, uint32_t *dst_stamp,
            uint32_t mark, const int dir[3], double *minlow)
{
  const REAL *src = srcv;
  REAL *dst = dstv;
  int lo[3], hi[3], shift[3];
  bool lowered = false;
  double ml = INFINITY;

  for (int a = 0; a < 3; a++)
    {
      if (L->g[a] == 0)
        lo[a] = hi[a] = shift[a] = 0;
      else if (dir[a] > 0)          /* src's last inner layer -> dst's low ghost layer */
        lo[a] = hi[a] = L->b, shift[a] = -L->b;
      else if (dir[a] < 0)          /* src's first inner layer -> dst's high ghost layer */
        lo[a] = hi[a] = 1, shift[a] = L->b;
      else
        lo[a] = 1, hi[a] = L->b, shift[a] = 0;
    }
  const ptrdiff_t dshift = shift[2] * L->stride[2] + shift[1] * L->stride[1] + shift[0];
  for (int k = lo[2]; k <= hi[2]; k++)
    for (int j = lo[1]; j <= hi[1]; j++)
      {
        const ptrdiff_t row = k * L->stride[2] + j * L->stride[1];
        for (int i = lo[0]; i <= hi[0]; i++)
          {
            const REAL v = src[row + i];
            REAL *d = &dst[row + i + dshift];
            if (v < *d)
              {
                *d = v;
                dst_stamp[row + i + dshift] = mark;
                lowered = true;
                if ((double) v < ml)
                  ml = (double) v;
              }
          }
      }
  *minlow = ml;
  return lowered;
}

static void
SFX (scatter) (const fold_layout *L, const double *flat, void *Tv, int threads)
{
  REAL *T = Tv;

#pragma omp parallel for schedule(static) num_threads(threads)
  for (size_t k = 0; k < L->nblocks; k++)
    {
      REAL *Tk = T + k * L->bsize;
      const ptrdiff_t bx = (ptrdiff_t) (k % L->nb[0]);
      const ptrdiff_t by = (ptrdiff_t) ((k / L->nb[0]) % L->nb[1]);
      const ptrdiff_t bz = (ptrdiff_t) (k / (L->nb[0] * L->nb[1]));
      const int b = L->b;
      for (int pk = 0; pk < L->p[2]; pk++)
        for (int pj = 0; pj < L->p[1]; pj++)
          for (int pi = 0; pi < L->p[0]; pi++)
            {
              /* Ghosts take the neighbour's value, or +inf past the grid. */
              ptrdiff_t gx = bx * b + pi - L->g[0];
              ptrdiff_t gy = L->ndim == 3 ? by * b + pj - L->g[1] : 0;
              ptrdiff_t gz = bz * b + pk - L->g[2];
              double v = INFINITY;
              if (gx >= 0 && gy >= 0 && gz >= 0 && (size_t) gx < L->n[0]
                  && (size_t) gy < L->n[1] && (size_t) gz < L->n[2])
                v = flat[((size_t) gz * L->n[1] + (size_t) gy) * L->n[0] + (size_t) gx];
              Tk[pk * L->stride[2] + pj * L->stride[1] + pi] = (REAL) v;
            }
    }
}

static void
SFX (gather) (const fold_layout *L, const void *Tv, double *flat, int threads)
{
  const REAL *T = Tv;

#pragma omp parallel for schedule(static) num_threads(threads)
  for (size_t k = 0; k < L->nblocks; k++)
    {
      const REAL *Tk = T + k * L->bsize;
      const size_t bx = k % L->nb[0], by = (k / L->nb[0]) % L->nb[1];
      const size_t bz = k / (L->nb[0] * L->nb[1]);
      const int b = L->b, nby = L->ndim == 3 ? b : 1;
      for (int kk = 0; kk < b; kk++)
        for (int jj = 0; jj < nby; jj++)
          for (int ii = 0; ii < b; ii++)
            {
              size_t gx = bx * (size_t) b + (size_t) ii;
              size_t gy = by * (size_t) nby + (size_t) jj;
              size_t gz = bz * (size_t) b + (size_t) kk;
              if (gx >= L->n[0] || gy >= L->n[1] || gz >= L->n[2])
                continue;
              flat[(gz * L->n[1] + gy) * L->n[0] + gx] =
                (double) Tk[L->inner0 + kk * L->stride[2] + jj * L->stride[1] + ii];
            }
    }
}

static const fold_ops SFX (ops) = {
  .esize = sizeof (REAL),
  .sweep = SFX (sweep),
  .push = SFX (push),
  .scatter = SFX (scatter),
  .gather = SFX (gather),
};
