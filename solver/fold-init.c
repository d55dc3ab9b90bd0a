/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Start values of the fold solver.
 *
 * Point sources: a point source makes T singular (a cone), and a first-order
 * scheme started from the source node alone loses accuracy there (the
 * paper's observed rates 0.70–0.77).  So every node within a fixed physical
 * radius of a source starts from the exact solution for constant parameters,
 * τ(x − s) with the source cell's speed, and the scheme takes over outside;
 * the error then converges at first order.  A node only gets this value when
 * the straight segment from the source to it crosses no obstacle.  The
 * sweeps only lower values, so a start value must not lie below the true
 * time.  Where the speed within reach of the ball is not all the source
 * cell's, a node starts instead from the time along the straight segment
 * through the speeds it crosses (segment_time): a path's time, so never
 * below the true one, exact for constant speed, and by Fermat's principle
 * off by second order only in smooth media; the sweeps lower it where a
 * bent path is faster (across an interface).
 *
 * Horizon (2D polyline): the nodes within one spacing of it start from the
 * exact constant-parameter time from the polyline: the least τ(x − y) over
 * the points y of its segments, with the node's own speed.  Isotropic, that
 * is the distance / F; anisotropic, the point y is the one the front from
 * the line reaches x from first (it is not the nearest point in distance).
 * Nodes on both sides get values, so the front grows to both sides.
 *
 * Boundary grid: finite values are fixed start values (never updated). */
#include "foldray-config.h"
#include "fold-private.h"
#include "fr-i18n.h"
#include "fr-omp.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing list of start values (one per thread where built in parallel). */
typedef struct start_vec {
  fold_start_node *v;
  size_t n, cap;
  bool oom;
} start_vec;

static void
vec_push (start_vec *a, size_t idx, double t, bool frozen)
{
  if (a->n == a->cap)
    {
      size_t cap = a->cap ? 2 * a->cap : 1024;
      fold_start_node *v = realloc (a->v, cap * sizeof *v);
      if (v == NULL)
        {
          a->oom = true;
          return;
        }
      a->v = v;
      a->cap = cap;
    }
  a->v[a->n++] = (fold_start_node) { idx, t, frozen };
}

/* Room for `more` entries past a's; false (and a->oom) when there is
 * none. */
static bool
vec_reserve (start_vec *a, size_t more)
{
  if (a->oom)
    return false;
  if (more <= a->cap - a->n)
    return true;
  fold_start_node *v = realloc (a->v, (a->n + more) * sizeof *v);
  if (v == NULL)
    {
      a->oom = true;
      return false;
    }
  a->v = v;
  a->cap = a->n + more;
  return true;
}

/* Appends the nthr lists of per, in order, to a, and frees them. */
static void
vec_gather (start_vec *a, start_vec *per, int nthr)
{
  size_t more = 0;
  for (int i = 0; i < nthr; i++)
    {
      a->oom |= per[i].oom;
      more += per[i].n;
    }
  if (vec_reserve (a, more))
    for (int i = 0; i < nthr; i++)
      if (per[i].n > 0)
        {
          memcpy (a->v + a->n, per[i].v, per[i].n * sizeof *a->v);
          a->n += per[i].n;
        }
  for (int i = 0; i < nthr; i++)
    free (per[i].v);
  free (per);
}

/* Sorts a by node index, unless it is in order already: a
 * least-significant-digit radix sort, 11 bits a pass, as many passes as
 * the largest index needs, stable.  qsort took about 60 ms for the 490 000
 * start values of Ex_A's 13 balls at 504³ on the dev machine, most of their
 * start cost there (RESULTS.md, seventeenth round); this takes a few, and
 * the sources' list now comes in order.  Out of memory for the second
 * buffer, a->oom. */
static void
vec_sort_by_index (start_vec *a)
{
  enum { BITS = 11, RADIX = 1 << BITS };
  size_t top = 0;
  bool sorted = true;
  for (size_t i = 0; i < a->n; i++)
    {
      top = a->v[i].idx > top ? a->v[i].idx : top;
      sorted = sorted && (i == 0 || a->v[i - 1].idx <= a->v[i].idx);
    }
  if (sorted)      /* point sources alone come in order (init_sources) */
    return;
  fold_start_node *tmp = malloc (a->n * sizeof *tmp);
  size_t *count = malloc (RADIX * sizeof *count);
  if (tmp == NULL || count == NULL)
    {
      a->oom = true;
      free (tmp);
      free (count);
      return;
    }
  fold_start_node *from = a->v, *to = tmp;
  for (unsigned shift = 0; shift < CHAR_BIT * sizeof top && (top >> shift) != 0; shift += BITS)
    {
      memset (count, 0, RADIX * sizeof *count);
      for (size_t i = 0; i < a->n; i++)
        count[(from[i].idx >> shift) & (RADIX - 1)]++;
      size_t at = 0;
      for (size_t d = 0; d < RADIX; d++)
        {
          const size_t c = count[d];
          count[d] = at;
          at += c;
        }
      for (size_t i = 0; i < a->n; i++)
        to[count[(from[i].idx >> shift) & (RADIX - 1)]++] = from[i];
      fold_start_node *t = from;
      from = to;
      to = t;
    }
  if (from != a->v)
    memcpy (a->v, from, a->n * sizeof *from);
  free (tmp);
  free (count);
}

/* One entry per node, in place, from a list in index order: the least
 * value, frozen when any entry was. */
static void
vec_unique (start_vec *a)
{
  size_t m = 0;
  for (size_t i = 0; i < a->n; i++)
    {
      if (m > 0 && a->v[m - 1].idx == a->v[i].idx)
        {
          a->v[m - 1].t = fmin (a->v[m - 1].t, a->v[i].t);
          a->v[m - 1].frozen |= a->v[i].frozen;
        }
      else
        a->v[m++] = a->v[i];
    }
  a->n = m;
}

/* The two lists in index order as one (into out), each unique. */
static void
vec_merge (const start_vec *a, const start_vec *b, start_vec *out)
{
  size_t i = 0, j = 0;
  if (!vec_reserve (out, a->n + b->n))
    return;
  while (i < a->n || j < b->n)
    {
      const fold_start_node *e = j >= b->n || (i < a->n && a->v[i].idx <= b->v[j].idx)
                                   ? &a->v[i++] : &b->v[j++];
      vec_push (out, e->idx, e->t, e->frozen);
    }
  vec_unique (out);
}

double
fold_source_radius (const fr_grid *g, double requested)
{
  double hmax = fmax (g->dx, g->dz), lmin = INFINITY;

  if (g->ndim == 3)
    hmax = fmax (hmax, g->dy);
  if (requested > 0.0)
    return requested;
  if (g->nx > 1)
    lmin = fmin (lmin, (double) (g->nx - 1) * g->dx);
  if (g->nz > 1)
    lmin = fmin (lmin, (double) (g->nz - 1) * g->dz);
  if (g->ndim == 3 && g->ny > 1)
    lmin = fmin (lmin, (double) (g->ny - 1) * g->dy);
  if (!isfinite (lmin))
    lmin = 0.0;
  return fmax (0.05 * lmin, 1.5 * hmax);
}

static double
hmin_of (const fr_grid *g)
{
  double h = fmin (g->dx, g->dz);
  return g->ndim == 3 ? fmin (h, g->dy) : h;
}

/* Speed of the cell holding point (x, y, z) (nearest node), or -1 outside. */
static float
speed_at (const fr_grid *g, const float *speed, double x, double y, double z)
{
  size_t ix, iy = 0, iz;
  if (!fr_grid_nearest_node (g, x, y, z, &ix, &iy, &iz))
    return -1.0f;
  return speed[fr_grid_index (g, ix, g->ndim == 3 ? iy : 0, iz)];
}

/* True when the segment a -> b crosses no obstacle cell (sampled at a
 * quarter of the smallest spacing). */
static bool
segment_clear (const fr_grid *g, const float *speed, const double a[3], const double b[3])
{
  double len = sqrt ((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1])
                     + (b[2] - a[2]) * (b[2] - a[2]));
  int n = (int) ceil (len / (0.25 * hmin_of (g))) + 1;

  for (int i = 0; i <= n; i++)
    {
      double t = (double) i / n;
      if (!(speed_at (g, speed, a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]),
                      a[2] + t * (b[2] - a[2])) > 0.0f))
        return false;
    }
  return true;
}

/* The least τ from a polyline so far: its time, the rank of the candidate
 * that gave it (vertex i: i; inside of segment i: n + i) and its point. */
typedef struct poly_best {
  double t;
  size_t rank;
  double bx, bz;
} poly_best;

/* Segment i's candidates for (x, z): its ends (the last segment's end only,
 * the others' ends being the next segments' starts), then its inside; ties
 * go to the lower rank, the one the plain scan meets first.  Skipped when
 * its box lies too far to beat the best so far, since τ(d) >= |d| / (F +
 * |ψ|) (the root in τ is at most F|d|); the bound keeps a margin, so a
 * skipped segment could not have won even by rounding. */
static void
segment_candidates (const double *xz, size_t n, size_t i, double x, double z, double c,
                    double reach, const double psi[3], poly_best *pb)
{
  const double *a = xz + 2 * i, *b = a + 2;
  if (pb->t < INFINITY)
    {
      double gx = fold_max (0.0, fold_max (fold_min (a[0], b[0]) - x, x - fold_max (a[0], b[0])));
      double gz = fold_max (0.0, fold_max (fold_min (a[1], b[1]) - z, z - fold_max (a[1], b[1])));
      double lim = pb->t * reach;
      if (gx * gx + gz * gz > lim * lim * (1.0 + 1e-9))
        return;
    }
  for (size_t v = i; v <= i + 1; v++)
    {
      if (v == i + 1 && v != n - 1)
        continue;
      double d[2] = { x - xz[2 * v], z - xz[2 * v + 1] };
      double t = fold_tau (psi[0] * d[0] + psi[2] * d[1], d[0] * d[0] + d[1] * d[1], c);
      if (t < pb->t || (t == pb->t && v < pb->rank))
        *pb = (poly_best) { t, v, xz[2 * v], xz[2 * v + 1] };
    }
  double d0[2] = { x - a[0], z - a[1] };
  double e[2] = { b[0] - a[0], b[1] - a[1] };
  double m0 = psi[0] * d0[0] + psi[2] * d0[1], m1 = psi[0] * e[0] + psi[2] * e[1];
  double r[2] = { m1 * d0[0] - m0 * e[0], m1 * d0[1] - m0 * e[1] };
  double cross = e[0] * d0[1] - e[1] * d0[0];
  double lambda = fold_edge_lambda (0.0, m0, m1, e[0] * e[0] + e[1] * e[1],
                                    d0[0] * e[0] + d0[1] * e[1], r[0] * r[0] + r[1] * r[1],
                                    cross * cross, c);
  if (isnan (lambda))
    return;
  /* τ from the vector d0 − λe itself: near the segment's line the
   * expanded |d0|² − 2λ d0·e + λ²|e|² lost digits in proportion to the
   * segment's length over the distance. */
  double d[2] = { d0[0] - lambda * e[0], d0[1] - lambda * e[1] };
  double t = fold_tau (psi[0] * d[0] + psi[2] * d[1], d[0] * d[0] + d[1] * d[1], c);
  if (t < pb->t || (t == pb->t && n + i < pb->rank))
    *pb = (poly_best) { t, n + i, a[0] + lambda * e[0], a[1] + lambda * e[1] };
}

/* The least τ from a polyline, trying segment `first` first (its time
 * bounds the rest): the plain scan's result. */
static double
polyline_time (const double *xz, size_t n, double x, double z, double F, const double psi[3],
               size_t first, double *yx, double *yz)
{
  const double c = F * F - (psi[0] * psi[0] + psi[2] * psi[2]);
  const double reach = F + sqrt (psi[0] * psi[0] + psi[2] * psi[2]);
  poly_best pb = { INFINITY, SIZE_MAX, NAN, NAN };

  for (size_t s = 0; s + 1 < n; s++)
    segment_candidates (xz, n, s == 0 ? first : (s <= first ? s - 1 : s), x, z, c, reach, psi,
                        &pb);
  if (n == 1)
    {
      double d[2] = { x - xz[0], z - xz[1] };
      pb.t = fold_tau (psi[0] * d[0] + psi[2] * d[1], d[0] * d[0] + d[1] * d[1], c);
      pb.bx = xz[0], pb.bz = xz[1];
    }
  if (yx)
    *yx = pb.bx;
  if (yz)
    *yz = pb.bz;
  return pb.t;
}

/* A polyline's segments by square cells of the plane, so that a node of
 * the band looks only at the segments near it, not at all of them (a drawn
 * horizon has hundreds of points: 2048² with 1024 of them took 27 ms on 2
 * cores).  Cells cover the grid and the polyline; a segment is listed once,
 * in ascending order, in every cell that holds a point within `grow` of
 * it (and a few more): the cells along the segment, not its whole box, so
 * that long slanted segments do not fill the index. */
typedef struct seg_index {
  double x0, z0, size;        /* the first cell's corner, a cell's edge */
  long ncx, ncz;
  size_t *first;              /* cell (cx, cz) = cz·ncx + cx: seg[first[cell] .. first[cell+1]) */
  size_t *seg;
} seg_index;

static void
seg_index_free (seg_index *ix)
{
  free (ix->first);
  free (ix->seg);
}

static long
cell_of (const seg_index *ix, double v, double v0, long ncell)
{
  double f = floor ((v - v0) / ix->size);
  return f < 0.0 ? 0 : f >= (double) ncell ? ncell - 1 : (long) f;
}

/* Cells of about 8 grid spacings, fewer where the polyline reaches far
 * beyond the grid. */
static bool
seg_index_build (seg_index *ix, const fr_grid *g, const double *xz, size_t n, double grow)
{
  double xlo = g->x0, xhi = g->x0 + (double) (g->nx - 1) * g->dx;
  double zlo = g->z0, zhi = g->z0 + (double) (g->nz - 1) * g->dz;
  for (size_t i = 0; i < n; i++)
    {
      xlo = fmin (xlo, xz[2 * i]), xhi = fmax (xhi, xz[2 * i]);
      zlo = fmin (zlo, xz[2 * i + 1]), zhi = fmax (zhi, xz[2 * i + 1]);
    }
  const double cells_max = 4.0 * ((double) g->nx * g->nz / 64.0 + 1.0);
  ix->size = 8.0 * fmax (g->dx, g->dz);
  while (ceil ((xhi - xlo) / ix->size + 1.0) * ceil ((zhi - zlo) / ix->size + 1.0) > cells_max)
    ix->size *= 2.0;
  ix->x0 = xlo, ix->z0 = zlo;
  ix->ncx = (long) ceil ((xhi - xlo) / ix->size + 1.0);
  ix->ncz = (long) ceil ((zhi - zlo) / ix->size + 1.0);
  const long ncell = ix->ncx * ix->ncz;
  ix->first = calloc ((size_t) ncell + 1, sizeof *ix->first);
  ix->seg = NULL;
  size_t *last = malloc ((size_t) ncell * sizeof *last);   /* the last segment listed */
  if (ix->first == NULL || last == NULL)
    {
      free (last);
      return false;
    }
  for (int pass = 0; pass < 2; pass++)
    {
      if (pass == 1)
        {
          for (long c = 0; c < ncell; c++)
            ix->first[c + 1] += ix->first[c];
          if ((ix->seg = malloc ((ix->first[ncell] + 1) * sizeof *ix->seg)) == NULL)
            {
              free (last);
              return false;
            }
        }
      for (long c = 0; c < ncell; c++)
        last[c] = SIZE_MAX;
      for (size_t i = 0; i + 1 < n; i++)
        {
          /* Points along the segment a cell apart: a point within grow of
           * the segment lies within grow + size / 2 of one of them. */
          const double *a = xz + 2 * i, *b = a + 2;
          const double len = hypot (b[0] - a[0], b[1] - a[1]);
          const long steps = (long) ceil (len / ix->size);
          const double half = grow + 0.5 * ix->size;
          for (long k = 0; k <= steps; k++)
            {
              const double u = steps > 0 ? (double) k / (double) steps : 0.0;
              const double px = a[0] + u * (b[0] - a[0]), pz = a[1] + u * (b[1] - a[1]);
              const long cx0 = cell_of (ix, px - half, ix->x0, ix->ncx);
              const long cx1 = cell_of (ix, px + half, ix->x0, ix->ncx);
              const long cz0 = cell_of (ix, pz - half, ix->z0, ix->ncz);
              const long cz1 = cell_of (ix, pz + half, ix->z0, ix->ncz);
              for (long cz = cz0; cz <= cz1; cz++)
                for (long cx = cx0; cx <= cx1; cx++)
                  {
                    const long cell = cz * ix->ncx + cx;
                    if (last[cell] == i)
                      continue;
                    last[cell] = i;
                    if (pass == 0)
                      ix->first[cell + 1]++;
                    else
                      ix->seg[ix->first[cell]++] = i;
                  }
            }
        }
    }
  free (last);
  /* The fill moved each first[c] to the start of cell c + 1. */
  for (long c = ncell; c > 0; c--)
    ix->first[c] = ix->first[c - 1];
  ix->first[0] = 0;
  return true;
}

/* polyline_time through the index: segment `first`, then the segments of
 * the cells within reach of its time.  Every segment that could beat the
 * best lies in those cells, and each is taken as in the plain scan, so the
 * result is the plain scan's. */
static double
polyline_time_near (const double *xz, size_t n, const seg_index *ix, double x, double z,
                    double F, const double psi[3], size_t first)
{
  const double c = F * F - (psi[0] * psi[0] + psi[2] * psi[2]);
  const double reach = F + sqrt (psi[0] * psi[0] + psi[2] * psi[2]);
  poly_best pb = { INFINITY, SIZE_MAX, NAN, NAN };

  segment_candidates (xz, n, first, x, z, c, reach, psi, &pb);
  const double r = pb.t * reach * (1.0 + 1e-9);
  const long cx0 = cell_of (ix, x - r, ix->x0, ix->ncx), cx1 = cell_of (ix, x + r, ix->x0, ix->ncx);
  const long cz0 = cell_of (ix, z - r, ix->z0, ix->ncz), cz1 = cell_of (ix, z + r, ix->z0, ix->ncz);
  for (long cz = cz0; cz <= cz1; cz++)
    for (long cx = cx0; cx <= cx1; cx++)
      {
        const long cell = cz * ix->ncx + cx;
        for (size_t k = ix->first[cell]; k < ix->first[cell + 1]; k++)
          segment_candidates (xz, n, ix->seg[k], x, z, c, reach, psi, &pb);
      }
  return pb.t;
}

double
fold_polyline_time (const double *xz, size_t n, double x, double z, double F,
                    const double psi[3], double *yx, double *yz)
{
  return polyline_time (xz, n, x, z, F, psi, 0, yx, yz);
}

/* Distance from (x, z) to the segment a -> b. */
static double
segment_distance (const double *a, const double *b, double x, double z)
{
  double ex = b[0] - a[0], ez = b[1] - a[1], len2 = ex * ex + ez * ez;
  double t = len2 > 0.0 ? ((x - a[0]) * ex + (z - a[1]) * ez) / len2 : 0.0;
  t = fmin (1.0, fmax (0.0, t));
  return hypot (x - a[0] - t * ex, z - a[1] - t * ez);
}

/* A checked point source: its position, its cell's speed constant, its
 * ball's box of nodes, and whether every node in sight-line reach of the
 * ball is free (open: no segment from the source into its ball can meet
 * an obstacle, so none needs sampling). */
typedef struct src_ball {
  double s[3];
  double r;                 /* its radius */
  double c;
  size_t lo[3], hi[3];
  bool open;
  bool uniform;             /* every node within reach has the source cell's speed */
} src_ball;

/* Whether node x lies in source b's ball; *dd: |x − s|². */
static bool
in_ball (const src_ball *b, const double x[3], double d[3], double *dd)
{
  d[0] = x[0] - b->s[0];
  d[1] = x[1] - b->s[1];
  d[2] = x[2] - b->s[2];
  *dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  return *dd <= b->r * b->r;
}

/* Ball b's box of nodes for its radius r. */
static void
src_ball_box (const fr_grid *g, src_ball *b, double r)
{
  const double h[3] = { g->dx, g->ndim == 3 ? g->dy : 1.0, g->dz };
  const double o[3] = { g->x0, g->ndim == 3 ? g->y0 : 0.0, g->z0 };
  const size_t n[3] = { g->nx, g->ndim == 3 ? g->ny : 1, g->nz };

  for (int a = 0; a < 3; a++)
    {
      double flo = ceil ((b->s[a] - r - o[a]) / h[a]);
      double fhi = floor ((b->s[a] + r - o[a]) / h[a]);
      b->lo[a] = flo < 0.0 ? 0 : (size_t) flo;
      b->hi[a] = fhi > (double) (n[a] - 1) ? n[a] - 1 : (fhi < 0.0 ? 0 : (size_t) fhi);
      if (a == 1 && g->ndim == 2)
        b->lo[a] = b->hi[a] = 0;
    }
}

/* Whether every node of b's box within `within` of the source has speed
 * fs or is an obstacle (sight handles those). */
static bool
src_ball_uniform (const fr_grid *g, const float *speed, const src_ball *b, float fs, double within)
{
  for (size_t iz = b->lo[2]; iz <= b->hi[2]; iz++)
    for (size_t iy = b->lo[1]; iy <= b->hi[1]; iy++)
      for (size_t ix = b->lo[0]; ix <= b->hi[0]; ix++)
        {
          const float f = speed[fr_grid_index (g, ix, iy, iz)];
          const double d[3] = { g->x0 + (double) ix * g->dx - b->s[0],
                                g->ndim == 3 ? g->y0 + (double) iy * g->dy - b->s[1] : 0.0,
                                g->z0 + (double) iz * g->dz - b->s[2] };

          if (f > 0.0f && f != fs && d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= within * within)
            return false;
        }
  return true;
}

/* Source b's ball for radius r and source cell speed fs: its box and
 * whether τ with fs is exact in it.  A segment from the source to a node
 * of the ball passes through cells (nearest nodes) up to half a cell
 * diagonal beyond the ball, so those count too. */
static void
src_ball_fit (const fr_grid *g, const float *speed, double psi2, double r, float fs, src_ball *b)
{
  const double hy = g->ndim == 3 ? g->dy : 0.0;
  const double reach = r + 0.5 * sqrt (g->dx * g->dx + g->dz * g->dz + hy * hy);

  b->r = r;
  b->c = (double) fs * fs - psi2;
  src_ball_box (g, b, reach);
  b->uniform = src_ball_uniform (g, speed, b, fs, reach);
  src_ball_box (g, b, r);
}

/* The time along the straight segment from the source s to x through the
 * speeds of the cells it crosses, sampled at a quarter of the smallest
 * spacing: Σ τ(Δ) with each piece's own speed constant F² − |ψ|² (τ is
 * the time of the front along Δ, fold_tau).  +inf when it meets an
 * obstacle. */
static double
segment_time (const fr_grid *g, const float *speed, const double psi[3], double psi2,
              const double s[3], const double x[3])
{
  const double d[3] = { x[0] - s[0], x[1] - s[1], x[2] - s[2] };
  const double len = sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  const int n = (int) ceil (len / (0.25 * hmin_of (g))) + 1;
  const double step[3] = { d[0] / n, d[1] / n, d[2] / n };
  const double pd = psi[0] * step[0] + psi[1] * step[1] + psi[2] * step[2];
  const double dd = step[0] * step[0] + step[1] * step[1] + step[2] * step[2];
  /* The segment lies in the grid (both ends do): nearest nodes by index
   * arithmetic, clamped against rounding at the edges. */
  const double o[3] = { g->x0, g->ndim == 3 ? g->y0 : 0.0, g->z0 };
  const double h[3] = { g->dx, g->ndim == 3 ? g->dy : 1.0, g->dz };
  const size_t nn[3] = { g->nx, g->ndim == 3 ? g->ny : 1, g->nz };
  float f_last = -1.0f;
  double tau_last = 0.0, t = 0.0;

  for (int i = 0; i < n; i++)
    {
      const double m = (i + 0.5) / n;
      size_t at[3];
      for (int a = 0; a < 3; a++)
        {
          const double u = fmax (0.0, round ((s[a] + m * d[a] - o[a]) / h[a]));
          at[a] = u > (double) (nn[a] - 1) ? nn[a] - 1 : (size_t) u;
        }
      const float f = speed[fr_grid_index (g, at[0], at[1], at[2])];

      if (!(f > 0.0f))
        return INFINITY;
      if (f != f_last)    /* runs of one speed: τ of a piece is the same */
        {
          f_last = f;
          tau_last = fold_tau (pd, dd, (double) f * f - psi2);
        }
      t += tau_last;
    }
  return t;
}

/* A node's start value from the sources whose balls hold it (among the nk
 * sources ks, ascending): the least τ among those in sight.  Sight (a
 * sampled segment) is the cost, so the candidates are taken in order of τ
 * and the first in sight wins; every source whose τ there is no lower than
 * the winner's counts as reaching the grid (it starts the node, or another
 * source starts it no later).  Nothing for an obstacle node. */
typedef struct src_cand {
  double t;
  size_t k;
} src_cand;

static void
node_from_sources (const fr_grid *g, const float *speed, const double psi[3], const src_ball *b,
                   const size_t *ks, size_t nk, const double x[3], size_t idx,
                   src_cand *cand, uint8_t *reached, start_vec *out)
{
  if (!(speed[idx] > 0.0f))
    return;
  const double psi2 = psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2];
  size_t m = 0;
  for (size_t j = 0; j < nk; j++)
    {
      const size_t k = ks[j];
      double d[3], dd;
      if (!in_ball (&b[k], x, d, &dd))
        continue;
      const double t = b[k].uniform
                         ? fold_tau (psi[0] * d[0] + psi[1] * d[1] + psi[2] * d[2], dd, b[k].c)
                         : segment_time (g, speed, psi, psi2, b[k].s, x);
      if (!(t < INFINITY))
        continue;
      size_t at = m++;
      /* In order of (τ, source): ties go to the first source. */
      while (at > 0 && cand[at - 1].t > t)
        {
          cand[at] = cand[at - 1];
          at--;
        }
      cand[at] = (src_cand) { t, k };
    }
  for (size_t i = 0; i < m; i++)
    {
      if (!b[cand[i].k].open && !segment_clear (g, speed, b[cand[i].k].s, x))
        continue;
      vec_push (out, idx, cand[i].t, false);
      for (size_t r = i; r < m; r++)
        {
#pragma omp atomic write
          reached[cand[r].k] = 1;
        }
      return;
    }
}

/* The grid rows (iz, iy) that some ball's box crosses, each with the
 * sources whose boxes cross it, ascending (src[first[r]] ..
 * src[first[r + 1]]).  Rows are numbered r = (iz − z0) ny + (iy − y0) in
 * the rectangle that holds every box; act lists the nact rows with a
 * source, in order. */
typedef struct ball_rows {
  size_t z0, y0, ny, nrect, nact;
  size_t *first, *src, *act;
} ball_rows;

static void
ball_rows_free (ball_rows *R)
{
  free (R->first);
  free (R->src);
  free (R->act);
  memset (R, 0, sizeof *R);
}

/* false: out of memory. */
static bool
ball_rows_build (ball_rows *R, const src_ball *b, size_t nsrc)
{
  size_t z1 = 0, y1 = 0;
  R->z0 = R->y0 = SIZE_MAX;
  for (size_t k = 0; k < nsrc; k++)
    {
      R->z0 = b[k].lo[2] < R->z0 ? b[k].lo[2] : R->z0;
      z1 = b[k].hi[2] > z1 ? b[k].hi[2] : z1;
      R->y0 = b[k].lo[1] < R->y0 ? b[k].lo[1] : R->y0;
      y1 = b[k].hi[1] > y1 ? b[k].hi[1] : y1;
    }
  /* An empty box has hi = lo − 1, so neither length is negative. */
  R->ny = y1 - R->y0 + 1;
  R->nrect = (z1 - R->z0 + 1) * R->ny;
  if ((R->first = calloc (R->nrect + 1, sizeof *R->first)) == NULL)
    return false;
  for (size_t k = 0; k < nsrc; k++)
    for (size_t iz = b[k].lo[2]; iz <= b[k].hi[2]; iz++)
      for (size_t iy = b[k].lo[1]; iy <= b[k].hi[1]; iy++)
        R->first[(iz - R->z0) * R->ny + (iy - R->y0)]++;
  size_t total = 0;
  for (size_t r = 0; r < R->nrect; r++)   /* first[r]: the end of row r's list, for now */
    {
      R->nact += R->first[r] > 0;
      total += R->first[r];
      R->first[r] = total;
    }
  R->first[R->nrect] = total;
  R->src = malloc ((total > 0 ? total : 1) * sizeof *R->src);
  R->act = malloc ((R->nact > 0 ? R->nact : 1) * sizeof *R->act);
  if (R->src == NULL || R->act == NULL)
    return false;
  for (size_t k = nsrc; k-- > 0;)         /* from the end: each row's sources ascend */
    for (size_t iz = b[k].lo[2]; iz <= b[k].hi[2]; iz++)
      for (size_t iy = b[k].lo[1]; iy <= b[k].hi[1]; iy++)
        R->src[--R->first[(iz - R->z0) * R->ny + (iy - R->y0)]] = k;
  size_t n = 0;
  for (size_t r = 0; r < R->nrect; r++)
    if (R->first[r + 1] > R->first[r])
      R->act[n++] = r;
  return true;
}

/* The number of nodes the boxes crossing row r span, overlaps counted
 * twice: the row's work. */
static double
ball_rows_width (const ball_rows *R, const src_ball *b, size_t r)
{
  double w = 0.0;
  for (size_t j = R->first[r]; j < R->first[r + 1]; j++)
    w += (double) (b[R->src[j]].hi[0] - b[R->src[j]].lo[0] + 1);
  return w;
}

/* Sets each ball's `open`: no obstacle among the nodes of its box grown by
 * one node on every side.  A segment from the source to a node of its
 * ball lies in the ball, and segment_clear looks at the nearest node of
 * each of its points, at most one node outside the box; so in an open
 * ball every segment is clear and needs no sampling, the same result.
 * The sampling reads about 2 radius / h nodes for each node of the ball
 * (sampling and sort were 165 ms of Ex_A's start values at 504³ on 16
 * cores; RESULTS.md, seventeenth round), where this scan reads about two.
 * Out of memory, every ball stays closed (sampled). */
static void
mark_open_balls (const fr_grid *g, const float *speed, src_ball *b, size_t nsrc)
{
  const size_t n[3] = { g->nx, g->ndim == 3 ? g->ny : 1, g->nz };
  src_ball *grown = malloc (nsrc * sizeof *grown);
  uint8_t *blocked = calloc (nsrc, 1);
  ball_rows R = { 0 };

  if (grown == NULL || blocked == NULL)
    goto out;
  for (size_t k = 0; k < nsrc; k++)
    {
      grown[k] = b[k];
      for (int a = 0; a < 3; a++)
        {
          grown[k].lo[a] = b[k].lo[a] > 0 ? b[k].lo[a] - 1 : 0;
          grown[k].hi[a] = b[k].hi[a] + 1 < n[a] ? b[k].hi[a] + 1 : n[a] - 1;
        }
    }
  if (!ball_rows_build (&R, grown, nsrc))
    goto out;
#pragma omp parallel for schedule(dynamic, 16)
  for (size_t i = 0; i < R.nact; i++)
    {
      const size_t r = R.act[i], iz = R.z0 + r / R.ny, iy = R.y0 + r % R.ny;
      for (size_t j = R.first[r]; j < R.first[r + 1]; j++)
        {
          const size_t k = R.src[j];
          uint8_t seen;
#pragma omp atomic read
          seen = blocked[k];
          if (seen)
            continue;
          for (size_t ix = grown[k].lo[0]; ix <= grown[k].hi[0]; ix++)
            if (!(speed[fr_grid_index (g, ix, iy, iz)] > 0.0f))
              {
#pragma omp atomic write
                blocked[k] = 1;
                break;
              }
        }
    }
  for (size_t k = 0; k < nsrc; k++)
    b[k].open = !blocked[k];
out:
  ball_rows_free (&R);
  free (grown);
  free (blocked);
}

/* One grid row's start values from point sources, in index order, into
 * out: the nodes of row (iy, iz) within the boxes of the nk sources ks
 * (ascending) that cross it.  span: room for nk x ranges; cand: for nk
 * candidates. */
static void
sources_row (const fr_grid *g, const float *speed, const double psi[3], const src_ball *b,
             const size_t *ks, size_t nk, size_t iy, size_t iz,
             size_t (*span)[2], src_cand *cand, uint8_t *reached, start_vec *out)
{
  size_t nspan = 0;
  for (size_t j = 0; j < nk; j++)     /* the boxes' x ranges, by their start */
    {
      const size_t lo = b[ks[j]].lo[0], hi = b[ks[j]].hi[0];
      size_t at = nspan++;
      while (at > 0 && span[at - 1][0] > lo)
        {
          span[at][0] = span[at - 1][0];
          span[at][1] = span[at - 1][1];
          at--;
        }
      span[at][0] = lo;
      span[at][1] = hi;
    }
  size_t next = 0;                    /* the first ix not yet done */
  for (size_t j = 0; j < nspan; j++)
    for (size_t ix = span[j][0] > next ? span[j][0] : next; ix <= span[j][1]; ix++)
      {
        next = ix + 1;
        const size_t idx = fr_grid_index (g, ix, iy, iz);
        const double x[3] = { g->x0 + (double) ix * g->dx,
                              g->ndim == 3 ? g->y0 + (double) iy * g->dy : 0.0,
                              g->z0 + (double) iz * g->dz };
        node_from_sources (g, speed, psi, b, ks, nk, x, idx, cand, reached, out);
      }
}

static fr_status
init_sources (const fr_grid *g, const float *speed, const double psi[3],
              const fr_fold_start *start, double radius, start_vec *out, fr_error *err)
{
  const int nd = g->ndim;
  const double psi2 = psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2];
  const size_t nsrc = start->nsrc;
  src_ball *b = calloc (nsrc, sizeof *b);
  float *fsrc = calloc (nsrc, sizeof *fsrc);
  uint8_t *reached = calloc (nsrc, 1);
  ball_rows R = { 0 };
  size_t *part = NULL;
  fr_status st = FR_OK;

  if (b == NULL || fsrc == NULL || reached == NULL)
    {
      st = fr_error_set (err, FR_E_NOMEM, "out of memory for %zu sources", nsrc);
      goto out;
    }
  /* Messages count sources from 1, as the app's S1, S2, ... do. */
  for (size_t k = 0; k < nsrc; k++)
    {
      const double *p = start->sources + k * (size_t) nd;
      double *s = b[k].s;
      s[0] = p[0];
      s[1] = nd == 3 ? p[1] : 0.0;
      s[2] = nd == 3 ? p[2] : p[1];
      if (!isfinite (s[0]) || !isfinite (s[1]) || !isfinite (s[2]) || !fr_grid_contains (g, s[0], s[1], s[2]))
        {
          if (nd == 3)
            st = fr_error_set (err, FR_E_INPUT, "source %zu at (%g, %g, %g) lies outside the grid",
                               k + 1, s[0], s[1], s[2]);
          else
            st = fr_error_set (err, FR_E_INPUT, "source %zu at (%g, %g) lies outside the grid",
                               k + 1, s[0], s[2]);
          goto out;
        }
      float fs = speed_at (g, speed, s[0], s[1], s[2]);
      if (!(fs > 0.0f))
        {
          if (nd == 3)
            st = fr_error_set (err, FR_E_INPUT, "source %zu at (%g, %g, %g) lies in an obstacle (speed 0)",
                               k + 1, s[0], s[1], s[2]);
          else
            st = fr_error_set (err, FR_E_INPUT, "source %zu at (%g, %g) lies in an obstacle (speed 0)",
                               k + 1, s[0], s[2]);
          goto out;
        }
      fsrc[k] = fs;
    }
  /* Each ball scans its box: in parallel for many sources. */
#pragma omp parallel for schedule(dynamic, 1) if(nsrc > 1)
  for (size_t k = 0; k < nsrc; k++)
    src_ball_fit (g, speed, psi2, radius, fsrc[k], &b[k]);

  mark_open_balls (g, speed, b, nsrc);

  if (!ball_rows_build (&R, b, nsrc))
    {
      st = fr_error_set (err, FR_E_NOMEM, "out of memory for the sources' rows");
      goto out;
    }

  /* The rows in stretches of about equal work (ball_rows_width), several per
   * thread, each stretch its own list: gathered in order, the lists are in
   * index order and need no sort (vec_sort_by_index only checks). */
  const int nthr = fr_omp_max_threads ();
  const size_t nparts = R.nact < (size_t) nthr * 8 ? (R.nact > 0 ? R.nact : 1) : (size_t) nthr * 8;
  part = calloc (nparts + 1, sizeof *part);
  start_vec *per = calloc (nparts, sizeof *per);
  if (part == NULL || per == NULL)
    {
      free (per);
      st = fr_error_set (err, FR_E_NOMEM, "out of memory for the sources' start values");
      goto out;
    }
  double work = 0.0, acc = 0.0;
  for (size_t i = 0; i < R.nact; i++)
    work += ball_rows_width (&R, b, R.act[i]);
  size_t p = 1;
  for (size_t i = 0; i < R.nact && p < nparts; i++)
    {
      acc += ball_rows_width (&R, b, R.act[i]);
      while (p < nparts && acc >= work * (double) p / (double) nparts)
        part[p++] = i + 1;
    }
  while (p <= nparts)
    part[p++] = R.nact;
  int oom = 0;
#pragma omp parallel reduction(|:oom)
  {
    src_cand *cand = malloc (nsrc * sizeof *cand);
    size_t (*span)[2] = malloc (nsrc * sizeof *span);
    oom |= cand == NULL || span == NULL;
#pragma omp for schedule(dynamic, 1)
    for (size_t q = 0; q < nparts; q++)
      for (size_t i = part[q]; i < part[q + 1] && cand != NULL && span != NULL; i++)
        {
          const size_t r = R.act[i];
          sources_row (g, speed, psi, b, R.src + R.first[r], R.first[r + 1] - R.first[r],
                       R.y0 + r % R.ny, R.z0 + r / R.ny, span, cand, reached, &per[q]);
        }
    free (cand);
    free (span);
  }
  vec_gather (out, per, (int) nparts);
  if (oom || out->oom)
    {
      st = fr_error_set (err, FR_E_NOMEM, "out of memory for the sources' start values");
      goto out;
    }
  for (size_t k = 0; k < nsrc; k++)
    if (!reached[k])
      {
        st = fr_error_set (err, FR_E_INPUT, "source %zu starts no node: none lies within the "
                           "source radius %g of it in sight; give a larger radius", k + 1, radius);
        goto out;
      }
out:
  free (b);
  free (fsrc);
  free (reached);
  ball_rows_free (&R);
  free (part);
  return st;
}

/* A segment's nodes within the band, as index ranges (empty: x1 < x0). */
typedef struct seg_box {
  long x0, x1, z0, z1;
} seg_box;

/* Whether a segment before `seg` has (x, z) within the band: that
 * segment's pass computes the node, so this one skips it.  The cell's
 * segments are in ascending order, and hold every segment within the band
 * of its points (the index was built with grow = band). */
static bool
seen_before (const double *xz, const seg_index *ix, size_t seg, double x, double z, double band)
{
  const long cell = cell_of (ix, z, ix->z0, ix->ncz) * ix->ncx + cell_of (ix, x, ix->x0, ix->ncx);
  for (size_t k = ix->first[cell]; k < ix->first[cell + 1] && ix->seg[k] < seg; k++)
    if (segment_distance (xz + 2 * ix->seg[k], xz + 2 * ix->seg[k] + 2, x, z) <= band)
      return true;
  return false;
}

/* The horizon beyond the grid: the front from its part outside enters
 * through the grid's edge, and the band alone (nodes near the horizon
 * inside) missed it, so a dipping horizon longer than the model folded as
 * if cut at the edge.  An edge node whose first-reached point of the
 * horizon lies beyond that edge starts from its time, with the node's own
 * speed, as the band's nodes do (the medium continued outward); the path
 * then runs outside the grid only, so the sweeps never need to raise it.
 * Continued outward, an obstacle on the edge is a wall across that path:
 * a node whose path crosses one (an obstacle node on the edge between the
 * node and the point's place along it) is left to the sweeps, which bring
 * the front round the obstacle inside.  Exact for constant parameters. */
static void
seed_edges_beyond (const fr_grid *g, const float *speed, const double psi[3],
                   const double *xz, size_t n, start_vec *out)
{
  const double lo[2] = { g->x0, g->z0 };
  const double hi[2] = { g->x0 + (double) (g->nx - 1) * g->dx,
                         g->z0 + (double) (g->nz - 1) * g->dz };
  double pmin[2] = { INFINITY, INFINITY }, pmax[2] = { -INFINITY, -INFINITY };

  for (size_t i = 0; i < n; i++)
    for (int a = 0; a < 2; a++)
      {
        pmin[a] = fmin (pmin[a], xz[2 * i + a]);
        pmax[a] = fmax (pmax[a], xz[2 * i + a]);
      }
  /* Edges left, right, top, bottom: only one the horizon reaches beyond
   * can have a first-reached point beyond it, so a horizon within the grid
   * (the usual drawn one) costs nothing here, and a long one only the
   * edges it crosses (each node scans every segment). */
  for (int e = 0; e < 4; e++)
    {
      const int axis = e < 2 ? 0 : 1;                 /* the axis across the edge */
      const bool upper = e % 2 == 1;
      const size_t count = axis == 0 ? g->nz : g->nx;
      double *t;

      if (!(upper ? pmax[axis] > hi[axis] : pmin[axis] < lo[axis]))
        continue;
      size_t *walls;   /* walls[k]: obstacle nodes among the edge's first k */
      if ((t = malloc (count * sizeof *t)) == NULL
          || (walls = malloc ((count + 1) * sizeof *walls)) == NULL)
        {
          free (t);
          out->oom = true;
          return;
        }
      walls[0] = 0;
      for (size_t j = 0; j < count; j++)
        {
          const size_t ix = axis == 0 ? (upper ? g->nx - 1 : 0) : j;
          const size_t iz = axis == 1 ? (upper ? g->nz - 1 : 0) : j;
          walls[j + 1] = walls[j] + !(speed[fr_grid_index (g, ix, 0, iz)] > 0.0f);
        }
#pragma omp parallel for schedule(dynamic, 16)
      for (size_t j = 0; j < count; j++)
        {
          const size_t ix = axis == 0 ? (upper ? g->nx - 1 : 0) : j;
          const size_t iz = axis == 1 ? (upper ? g->nz - 1 : 0) : j;
          const size_t idx = fr_grid_index (g, ix, 0, iz);
          const int along = 1 - axis;
          const double h_along = along == 0 ? g->dx : g->dz;
          double y[2];

          t[j] = NAN;
          if (!(speed[idx] > 0.0f))
            continue;
          double tj = polyline_time (xz, n, g->x0 + (double) ix * g->dx,
                                     g->z0 + (double) iz * g->dz, speed[idx], psi, 0, &y[0], &y[1]);
          if (!(upper ? y[axis] > hi[axis] : y[axis] < lo[axis]))
            continue;
          /* The edge nodes whose outward strips the path crosses: from
           * the point's place along the edge to the node. */
          double u = round ((y[along] - lo[along]) / h_along);
          size_t k = u <= 0.0 ? 0 : u >= (double) (count - 1) ? count - 1 : (size_t) u;
          size_t first = k < j ? k : j, last = k < j ? j : k;
          if (walls[last + 1] == walls[first])
            t[j] = tj;
        }
      free (walls);
      for (size_t j = 0; j < count; j++)
        if (!isnan (t[j]))
          vec_push (out, axis == 0 ? fr_grid_index (g, upper ? g->nx - 1 : 0, 0, j)
                                   : fr_grid_index (g, j, 0, upper ? g->nz - 1 : 0),
                    t[j], false);
      free (t);
    }
}

static fr_status
init_horizon (const fr_grid *g, const float *speed, const double psi[3],
              const fr_fold_start *start, start_vec *out, fr_error *err)
{
  const double *xz = start->horizon;
  const size_t n = start->nhorizon;
  const double band = fmax (g->dx, g->dz);

  if (g->ndim != 2)
    return fr_error_set (err, FR_E_INPUT, "a horizon polyline is for 2D grids; give a 3D one as a boundary grid");
  if (n < 2)
    return fr_error_set (err, FR_E_INPUT, "a horizon needs at least 2 points, not %zu", n);
  for (size_t i = 0; i < 2 * n; i++)
    if (!isfinite (xz[i]))
      return fr_error_set (err, FR_E_INPUT, "horizon point %zu is not finite", i / 2 + 1);
    else if (!(fabs (xz[i]) <= FR_GRID_MAX_EXTENT))
      /* Differences of such coordinates overflow (its cell index asked
       * for more memory than there is). */
      return fr_error_set (err, FR_E_INPUT, "horizon point %zu lies too far out (coordinates "
                           "at most %g)", i / 2 + 1, FR_GRID_MAX_EXTENT);

  const size_t nseg = n - 1;
  seg_box *box = malloc (nseg * sizeof *box);
  seg_index index = { 0 };
  if (box == NULL || !seg_index_build (&index, g, xz, n, band))
    {
      free (box);
      seg_index_free (&index);
      return fr_error_set (err, FR_E_NOMEM, "out of memory for a horizon of %zu points", n);
    }
  long zmin = LONG_MAX, zmax = -1;
  for (size_t i = 0; i < nseg; i++)
    {
      const double *a = xz + 2 * i, *b = xz + 2 * i + 2;
      double xlo = fmin (a[0], b[0]) - band, xhi = fmax (a[0], b[0]) + band;
      double zlo = fmin (a[1], b[1]) - band, zhi = fmax (a[1], b[1]) + band;
      double fx0 = fmax (0.0, ceil ((xlo - g->x0) / g->dx));
      double fx1 = fmin ((double) g->nx - 1, floor ((xhi - g->x0) / g->dx));
      double fz0 = fmax (0.0, ceil ((zlo - g->z0) / g->dz));
      double fz1 = fmin ((double) g->nz - 1, floor ((zhi - g->z0) / g->dz));
      box[i] = (seg_box) { 0, -1, 0, -1 };
      if (fx1 < fx0 || fz1 < fz0)
        continue;
      box[i] = (seg_box) { (long) fx0, (long) fx1, (long) fz0, (long) fz1 };
      zmin = box[i].z0 < zmin ? box[i].z0 : zmin;
      zmax = box[i].z1 > zmax ? box[i].z1 : zmax;
    }

  /* By rows in parallel (a row belongs to one thread); each node within
   * the band is computed once, by the first segment that has it, starting
   * from that segment. */
  const int nthr = fr_omp_max_threads ();
  start_vec *per = calloc ((size_t) nthr, sizeof *per);
  if (per == NULL)
    {
      free (box);
      seg_index_free (&index);
      return fr_error_set (err, FR_E_NOMEM, "out of memory for a horizon's start values");
    }
#pragma omp parallel for schedule(dynamic, 4)
  for (long iz = zmin; iz <= zmax; iz++)
    for (size_t i = 0; i < nseg; i++)
      {
        if (iz < box[i].z0 || iz > box[i].z1)
          continue;
        const double *a = xz + 2 * i, *b = xz + 2 * i + 2;
        const double z = g->z0 + (double) iz * g->dz;
        for (long ix = box[i].x0; ix <= box[i].x1; ix++)
          {
            double x = g->x0 + (double) ix * g->dx;
            size_t idx = fr_grid_index (g, (size_t) ix, 0, (size_t) iz);
            if (!(speed[idx] > 0.0f) || segment_distance (a, b, x, z) > band
                || seen_before (xz, &index, i, x, z, band))
              continue;
            vec_push (&per[fr_omp_thread_num ()], idx,
                      polyline_time_near (xz, n, &index, x, z, speed[idx], psi, i), false);
          }
      }
  free (box);
  seg_index_free (&index);
  const size_t before = out->n;
  vec_gather (out, per, nthr);
  seed_edges_beyond (g, speed, psi, xz, n, out);
  if (out->oom)
    return fr_error_set (err, FR_E_NOMEM, "out of memory for a horizon's start values");
  if (out->n == before)
    return fr_error_set (err, FR_E_INPUT, "%s",
                         fr__ ("the horizon passes near no node with speed > 0 inside the grid"));
  return FR_OK;
}

fr_status
fold_init_start (const fr_grid *g, const float *speed, const double psi[3],
                 const fr_fold_start *start, double radius, fold_starts *out, fr_error *err)
{
  const size_t count = fr_grid_count (g);
  start_vec free_nodes = { 0 }, fixed = { 0 }, all = { 0 };
  fr_status st = FR_OK;

  memset (out, 0, sizeof *out);
  /* Each kind of start below gives a finite value or says why not. */
  if (start->nsrc == 0 && start->horizon == NULL && start->boundary == NULL)
    return fr_error_set (err, FR_E_INPUT, "no start: give a point source, a horizon or a boundary grid");
  if (start->nsrc > 0
      && (st = init_sources (g, speed, psi, start, radius, &free_nodes, err)) != FR_OK)
    goto out;
  if (start->horizon != NULL
      && (st = init_horizon (g, speed, psi, start, &free_nodes, err)) != FR_OK)
    goto out;
  /* Sources and horizon in index order, one entry per node (the least). */
  vec_sort_by_index (&free_nodes);
  if (free_nodes.oom)
    {
      st = fr_error_set (err, FR_E_NOMEM, "out of memory for the start values");
      goto out;
    }
  vec_unique (&free_nodes);

  if (start->boundary != NULL)
    {
      /* In parallel (3D boundary grids hold 10⁸ nodes), each thread one
       * stretch of the grid, gathered in order; a bad value is looked for
       * again, in order, for the message. */
      const int nthr = fr_omp_max_threads ();
      start_vec *per = calloc ((size_t) nthr, sizeof *per);
      int bad = 0;
      if (per == NULL)
        {
          st = fr_error_set (err, FR_E_NOMEM, "out of memory for the boundary's start values");
          goto out;
        }
#pragma omp parallel for schedule(static) reduction(|:bad)
      for (size_t i = 0; i < count; i++)
        {
          double v = start->boundary[i];
          if (isnan (v) || v == INFINITY)
            continue;
          if (!isfinite (v) || !(speed[i] > 0.0f))
            {
              bad = 1;
              continue;
            }
          vec_push (&per[fr_omp_thread_num ()], i, v, true);
        }
      vec_gather (&fixed, per, nthr);
      for (size_t i = 0; bad && i < count; i++)
        {
          double v = start->boundary[i];
          if (isnan (v) || v == INFINITY)
            continue;
          size_t ix = i % g->nx, iy = (i / g->nx) % g->ny, iz = i / (g->nx * g->ny);
          char node[96];
          /* In the grid's own axes, as the speed checks name a node. */
          if (g->ndim == 3)
            snprintf (node, sizeof node, "(ix=%zu, iy=%zu, iz=%zu)", ix, iy, iz);
          else
            snprintf (node, sizeof node, "(ix=%zu, iz=%zu)", ix, iz);
          if (!isfinite (v))
            {
              st = fr_error_set (err, FR_E_INPUT, "boundary holds -inf at node %s", node);
              goto out;
            }
          if (!(speed[i] > 0.0f))
            {
              st = fr_error_set (err, FR_E_INPUT,
                                 "boundary gives a start value at an obstacle node %s", node);
              goto out;
            }
        }
      if (fixed.n == 0 && !fixed.oom)
        {
          st = fr_error_set (err, FR_E_INPUT, "boundary grid holds no finite start value");
          goto out;
        }
    }
  if (fixed.n == 0 && !fixed.oom)
    {
      all = free_nodes;          /* nothing to merge: the list as it is */
      free_nodes = (start_vec) { 0 };
    }
  else
    vec_merge (&free_nodes, &fixed, &all);
  if (fixed.oom || all.oom)
    {
      st = fr_error_set (err, FR_E_NOMEM, "out of memory for the start values");
      goto out;
    }
  out->node = all.v;
  out->n = all.n;
  out->any_frozen = fixed.n > 0;
  all.v = NULL;
out:
  free (free_nodes.v);
  free (fixed.v);
  free (all.v);
  return st;
}

void
fold_starts_free (fold_starts *s)
{
  free (s->node);
  memset (s, 0, sizeof *s);
}

void
fold_starts_mark_frozen (const fold_starts *s, uint8_t *frozen)
{
  for (size_t j = 0; j < s->n; j++)
    if (s->node[j].frozen)
      frozen[s->node[j].idx] = 1;
}

void
fold_starts_to_grids (const fold_starts *s, size_t count, double *t0, uint8_t *frozen)
{
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < count; i++)
    {
      t0[i] = INFINITY;
      if (frozen != NULL)
        frozen[i] = 0;
    }
  for (size_t j = 0; j < s->n; j++)
    t0[s->node[j].idx] = s->node[j].t;
  if (frozen != NULL)
    fold_starts_mark_frozen (s, frozen);
}
