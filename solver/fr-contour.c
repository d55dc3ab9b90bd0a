/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Marching squares.  Every crossing lies on a grid edge, named by an id
 * (2·node for the edge to +x, 2·node + 1 for the edge to +z) and computed
 * from that edge's two nodes only, so the two cells sharing an edge agree
 * on the point exactly.  Segments are joined by sorting their end keys
 * (level, edge): an edge touches at most two cells and each cell at most
 * one segment per edge, so every key occurs once or twice. */
#include "fr-contour.h"
#include "fr-i18n.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Cell corners: a = (ix, iz), b = (ix+1, iz), c = (ix+1, iz+1),
 * d = (ix, iz+1); bit set when the corner is at or above the level.
 * Edges: 0 = a–b, 1 = b–c, 2 = d–c, 3 = a–d.  Saddles (5, 10) are split as
 * the bilinear interpolant splits them, by its value at its saddle point,
 * (ac − bd) / (a + c − b − d): rows 16/17 are cases 5/10 with that value
 * at or above the level.  (The cell's mean, used before, joined the other
 * pair of crossings for levels between the two.) */
static const signed char seg_table[18][4] = {
  { -1, -1, -1, -1 }, { 3, 0, -1, -1 }, { 0, 1, -1, -1 }, { 3, 1, -1, -1 },
  { 1, 2, -1, -1 },   { 3, 0, 1, 2 },   { 0, 2, -1, -1 }, { 2, 3, -1, -1 },
  { 2, 3, -1, -1 },   { 0, 2, -1, -1 }, { 0, 1, 2, 3 },   { 1, 2, -1, -1 },
  { 3, 1, -1, -1 },   { 0, 1, -1, -1 }, { 3, 0, -1, -1 }, { -1, -1, -1, -1 },
  { 0, 1, 2, 3 },     { 3, 0, 1, 2 },
};

typedef struct {
  uint64_t key;    /* level · n_edges + edge id */
  size_t end;      /* 2 · segment + which end */
} end_key;

typedef struct {
  const fr_grid *g;
  const float *v;
  const double *levels;
  uint64_t n_edges;
  uint64_t *ends;  /* 2 per segment */
  size_t nseg, capseg;
} tracer;

void
fr_contour_set_clear (fr_contour_set *set)
{
  if (set == NULL)
    return;
  free (set->start);
  free (set->level);
  free (set->closed);
  free (set->xz);
  memset (set, 0, sizeof *set);
}

static int
cmp_end (const void *pa, const void *pb)
{
  const end_key *a = pa, *b = pb;

  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return a->end < b->end ? -1 : a->end > b->end;
}

typedef struct {
  double value;
  size_t index;
} sorted_level;

static int
cmp_level (const void *pa, const void *pb)
{
  const sorted_level *a = pa, *b = pb;

  return a->value < b->value ? -1 : a->value > b->value;
}

static bool
push_segment (tracer *t, uint64_t k0, uint64_t k1)
{
  if (t->nseg == t->capseg)
    {
      size_t cap = t->capseg ? 2 * t->capseg : 1024;
      uint64_t *e = realloc (t->ends, 2 * cap * sizeof *e);

      if (e == NULL)
        return false;
      t->ends = e;
      t->capseg = cap;
    }
  t->ends[2 * t->nseg] = k0;
  t->ends[2 * t->nseg + 1] = k1;
  t->nseg++;
  return true;
}

/* The crossing of level on the edge a key names. */
static void
key_point (const tracer *t, uint64_t key, double *x, double *z)
{
  const fr_grid *g = t->g;
  size_t lvl = (size_t) (key / t->n_edges);
  size_t edge = (size_t) (key % t->n_edges);
  size_t node = edge / 2;
  size_t ix = node % g->nx, iz = node / g->nx;
  size_t other = (edge & 1) ? node + g->nx : node + 1;
  double v0 = t->v[node], v1 = t->v[other];
  double s = (t->levels[lvl] - v0) / (v1 - v0);

  if (!(s >= 0.0))
    s = 0.0;
  if (s > 1.0)
    s = 1.0;
  *x = g->x0 + ((double) ix + ((edge & 1) ? 0.0 : s)) * g->dx;
  *z = g->z0 + ((double) iz + ((edge & 1) ? s : 0.0)) * g->dz;
}

typedef struct {
  size_t npts, cappts, nlines, caplines;
  double *xz;
  size_t *start;
  int *level;
  bool *closed;
} builder;

static bool
add_point (builder *b, double x, double z)
{
  if (b->npts == b->cappts)
    {
      size_t cap = b->cappts ? 2 * b->cappts : 4096;
      double *p = realloc (b->xz, 2 * cap * sizeof *p);

      if (p == NULL)
        return false;
      b->xz = p;
      b->cappts = cap;
    }
  b->xz[2 * b->npts] = x;
  b->xz[2 * b->npts + 1] = z;
  b->npts++;
  return true;
}

static bool
begin_line (builder *b)
{
  if (b->nlines + 1 >= b->caplines)
    {
      size_t cap = b->caplines ? 2 * b->caplines : 64;
      size_t *s = realloc (b->start, (cap + 1) * sizeof *s);
      int *l;
      bool *c;

      if (s == NULL)
        return false;
      b->start = s;
      if ((l = realloc (b->level, cap * sizeof *l)) == NULL)
        return false;
      b->level = l;
      if ((c = realloc (b->closed, cap * sizeof *c)) == NULL)
        return false;
      b->closed = c;
      b->caplines = cap;
    }
  b->start[b->nlines] = b->npts;
  return true;
}

/* Follows the chain from segment end `end` (the end the walk enters by),
 * adding points until it runs out or returns to `first`.  */
static bool
walk (const tracer *t, const size_t *partner, bool *visited, size_t end, size_t first_seg,
      builder *b, bool *closed)
{
  double x, z;

  key_point (t, t->ends[end], &x, &z);
  if (!add_point (b, x, z))
    return false;
  *closed = false;
  for (;;)
    {
      size_t seg = end / 2, out = end ^ 1, next;

      visited[seg] = true;
      key_point (t, t->ends[out], &x, &z);
      if (!add_point (b, x, z))
        return false;
      next = partner[out];
      if (next == SIZE_MAX)
        return true;
      if (next / 2 == first_seg)
        {
          *closed = true;
          return true;
        }
      if (visited[next / 2])   /* cannot happen with degree <= 2; be safe */
        return true;
      end = next;
    }
}

fr_status
fr_contour_trace (const fr_grid *g, const float *values, const double *levels,
                  size_t nlevels, fr_contour_set *out, fr_error *err)
{
  tracer t = { 0 };
  builder b = { 0 };
  sorted_level *sl = NULL;
  end_key *keys = NULL;
  size_t *partner = NULL;
  bool *visited = NULL;
  fr_status st = FR_E_NOMEM;

  if (out == NULL)
    return fr_error_set (err, FR_E_INPUT, "fr_contour_trace: no output set");
  memset (out, 0, sizeof *out);
  if (g == NULL || values == NULL || (nlevels > 0 && levels == NULL))
    return fr_error_set (err, FR_E_INPUT, "fr_contour_trace: missing grid, values or levels");
  if (g->ndim != 2 || g->nx < 1 || g->nz < 1)
    return fr_error_set (err, FR_E_INPUT, "contours need a 2D grid");
  for (size_t k = 0; k < nlevels; k++)
    if (!isfinite (levels[k]))
      return fr_error_set (err, FR_E_INPUT, fr__ ("contour level %zu of %zu is not finite"),
                           k + 1, nlevels);
  if (g->nx > SIZE_MAX / 2 / g->nz)
    return fr_error_set (err, FR_E_INPUT, fr__ ("grid too large for contours"));

  t.g = g;
  t.v = values;
  t.levels = levels;
  t.n_edges = 2 * (uint64_t) g->nx * g->nz;
  if (nlevels > 0 && t.n_edges > UINT64_MAX / nlevels)
    return fr_error_set (err, FR_E_INPUT, fr__ ("too many contour levels"));

  if (nlevels > 0 && (sl = malloc (nlevels * sizeof *sl)) == NULL)
    goto nomem;
  for (size_t k = 0; k < nlevels; k++)
    sl[k].value = levels[k], sl[k].index = k;
  if (nlevels > 0)
    qsort (sl, nlevels, sizeof *sl, cmp_level);

  for (size_t iz = 0; nlevels > 0 && iz + 1 < g->nz; iz++)
    for (size_t ix = 0; ix + 1 < g->nx; ix++)
      {
        size_t na = iz * g->nx + ix;
        double c[4] = { values[na], values[na + 1], values[na + g->nx + 1], values[na + g->nx] };
        double lo = c[0], hi = c[0];
        size_t a, bnd;

        if (!(isfinite (c[0]) && isfinite (c[1]) && isfinite (c[2]) && isfinite (c[3])))
          continue;
        for (int i = 1; i < 4; i++)
          lo = fmin (lo, c[i]), hi = fmax (hi, c[i]);
        /* Levels L with lo < L <= hi cross this cell: first L > lo. */
        a = 0, bnd = nlevels;
        while (a < bnd)
          {
            size_t m = (a + bnd) / 2;
            if (sl[m].value > lo)
              bnd = m;
            else
              a = m + 1;
          }
        for (size_t s = a; s < nlevels && sl[s].value <= hi; s++)
          {
            double L = sl[s].value;
            int cs = (c[0] >= L) | (c[1] >= L) << 1 | (c[2] >= L) << 2 | (c[3] >= L) << 3;
            uint64_t edge_key[4], base = (uint64_t) sl[s].index * t.n_edges;
            const signed char *row;

            /* In a saddle one diagonal is at or above L and the other
             * below, so a + c − b − d is not 0. */
            if ((cs == 5 || cs == 10) &&
                (c[0] * c[2] - c[1] * c[3]) / (c[0] + c[2] - c[1] - c[3]) >= L)
              cs = cs == 5 ? 16 : 17;
            row = seg_table[cs];
            edge_key[0] = base + 2 * (uint64_t) na;
            edge_key[1] = base + 2 * (uint64_t) (na + 1) + 1;
            edge_key[2] = base + 2 * (uint64_t) (na + g->nx);
            edge_key[3] = base + 2 * (uint64_t) na + 1;
            for (int p = 0; p < 4 && row[p] >= 0; p += 2)
              if (!push_segment (&t, edge_key[(int) row[p]], edge_key[(int) row[p + 1]]))
                goto nomem;
          }
      }

  if (t.nseg > 0)
    {
      size_t nend = 2 * t.nseg;

      keys = malloc (nend * sizeof *keys);
      partner = malloc (nend * sizeof *partner);
      visited = calloc (t.nseg, sizeof *visited);
      if (keys == NULL || partner == NULL || visited == NULL)
        goto nomem;
      for (size_t e = 0; e < nend; e++)
        keys[e].key = t.ends[e], keys[e].end = e, partner[e] = SIZE_MAX;
      qsort (keys, nend, sizeof *keys, cmp_end);
      for (size_t e = 0; e + 1 < nend; e++)
        if (keys[e].key == keys[e + 1].key)
          {
            partner[keys[e].end] = keys[e + 1].end;
            partner[keys[e + 1].end] = keys[e].end;
            e++;
          }

      /* Open lines first, from a loose end; what is left are loops. */
      for (int pass = 0; pass < 2; pass++)
        for (size_t e = 0; e < nend; e++)
          {
            bool closed;

            if (visited[e / 2] || (pass == 0 && partner[e] != SIZE_MAX))
              continue;
            if (!begin_line (&b))
              goto nomem;
            if (!walk (&t, partner, visited, e, e / 2, &b, &closed))
              goto nomem;
            b.level[b.nlines] = (int) (t.ends[e] / t.n_edges);
            b.closed[b.nlines] = closed;
            b.nlines++;
          }
    }

  if (!begin_line (&b))
    goto nomem;
  out->nlines = b.nlines;
  out->start = b.start;
  out->level = b.level;
  out->closed = b.closed;
  out->xz = b.xz;
  if (out->xz == NULL && (out->xz = malloc (2 * sizeof (double))) == NULL)
    {
      b.xz = NULL;
      goto nomem_out;
    }
  memset (&b, 0, sizeof b);
  st = FR_OK;
  goto done;

nomem_out:
  fr_contour_set_clear (out);
  memset (&b, 0, sizeof b);
nomem:
  st = fr_error_set (err, FR_E_NOMEM, fr__ ("out of memory tracing contours"));
done:
  free (b.xz);
  free (b.start);
  free (b.level);
  free (b.closed);
  free (t.ends);
  free (sl);
  free (keys);
  free (partner);
  free (visited);
  return st;
}
