/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The straightest of the equal-time paths.
 *
 * In a cell-wise constant medium many graph paths tie: between two nodes in
 * one velocity every path made of the two stencil offsets that bracket the
 * direction between them weighs the same, in any order.  The predecessor
 * map holds whichever order the back end met first, usually all of one
 * offset and then all of the other: a dogleg up to tens of cells off the
 * straight line.  Here each run of a ray's edges that lies in one velocity
 * is replaced by the same offsets interleaved evenly along the chord.
 *
 * Why the replacement is still a shortest path: the cost of a path inside
 * one velocity is the slowness times its length, and the least length of a
 * sum of offsets equal to Δ is a norm, N(Δ) = α|e1| + β|e2| for the
 * bracketing offsets e1, e2 with Δ = α e1 + β e2 (the offsets' directions
 * lie on a circle, so every one is a vertex of the norm's unit ball).  Two
 * offsets next to each other in angle span no other lattice point, so
 * their determinant is ±1 and α, β are whole numbers.  By the triangle
 * inequality the run weighed at least slowness × N(Δ), which the
 * replacement weighs, provided each of its edges crosses only cells of that
 * velocity and stays in the grid; that is checked edge by edge, and a run
 * that fails is halved at its middle node and each half tried again. */
#include "spr-private.h"

#include <stdlib.h>
#include <string.h>

struct spr_ray_context {
  fr_grid grid;
  float *velocity;       /* nx·nz, copied from the solve */
  spr_stencils st;       /* the solve's stencils (owned) */
  int *offset_at;        /* (b + rz)(2rx + 1) + a + rx -> index into st.offsets, or -1 */
  /* The primitive offsets (gcd 1) by their physical angle, so that a
   * direction's two neighbours are a binary search away. */
  int nprimitive;
  int *by_angle;         /* indices into st.offsets */
  double *angle;         /* atan2 (b dz, a dx) of each, ascending */
};

static double
offset_angle (const fr_grid *g, long a, long b)
{
  return atan2 ((double) b * g->dz, (double) a * g->dx);
}

typedef struct {
  double angle;
  int index;
} angled_offset;

static int
angled_cmp (const void *pa, const void *pb)
{
  const double ta = ((const angled_offset *) pa)->angle, tb = ((const angled_offset *) pb)->angle;
  return (ta > tb) - (ta < tb);
}

fr_status
spr_ray_context_new (const fr_grid *g, const float *velocity, spr_stencils *st,
                     spr_ray_context **out, fr_error *err)
{
  const size_t n = fr_grid_count (g);
  const size_t w = 2 * (size_t) st->rx + 1, h = 2 * (size_t) st->rz + 1;
  spr_ray_context *c = calloc (1, sizeof *c);
  angled_offset *sorted;

  *out = NULL;
  if (c != NULL)
    {
      c->velocity = malloc (n * sizeof *c->velocity);
      c->offset_at = malloc (w * h * sizeof *c->offset_at);
      c->by_angle = malloc ((size_t) st->noffsets * sizeof *c->by_angle);
      c->angle = malloc ((size_t) st->noffsets * sizeof *c->angle);
    }
  sorted = malloc ((size_t) st->noffsets * sizeof *sorted);
  if (c == NULL || c->velocity == NULL || c->offset_at == NULL || c->by_angle == NULL
      || c->angle == NULL || sorted == NULL)
    {
      free (sorted);
      spr_ray_context_free (c);
      return fr_error_set (err, FR_E_NOMEM, "out of memory keeping the model for the rays");
    }
  c->grid = *g;
  memcpy (c->velocity, velocity, n * sizeof *c->velocity);
  for (size_t i = 0; i < w * h; i++)
    c->offset_at[i] = -1;
  for (int k = 0; k < st->noffsets; k++)
    {
      const spr_offset *o = &st->offsets[k];
      c->offset_at[(size_t) (o->b + st->rz) * w + (size_t) (o->a + st->rx)] = k;
      if (spr_gcd (abs (o->a), abs (o->b)) == 1)
        sorted[c->nprimitive++] = (angled_offset) { offset_angle (g, o->a, o->b), k };
    }
  qsort (sorted, (size_t) c->nprimitive, sizeof *sorted, angled_cmp);
  for (int k = 0; k < c->nprimitive; k++)
    {
      c->angle[k] = sorted[k].angle;
      c->by_angle[k] = sorted[k].index;
    }
  free (sorted);
  /* The stencils move into the context. */
  c->st = *st;
  memset (st, 0, sizeof *st);
  *out = c;
  return FR_OK;
}

void
spr_ray_context_free (spr_ray_context *c)
{
  if (c == NULL)
    return;
  spr_stencils_clear (&c->st);
  free (c->velocity);
  free (c->offset_at);
  free (c->by_angle);
  free (c->angle);
  free (c);
}

/* The stencil of the edge from node (i, j) by (a, b), or NULL when the
 * stencil has no such offset or the edge leaves the grid. */
static const spr_offset *
edge_offset (const spr_ray_context *c, long i, long j, int a, int b)
{
  const long nx = (long) c->grid.nx, nz = (long) c->grid.nz;
  int k;

  if (abs (a) > c->st.rx || abs (b) > c->st.rz || (a == 0 && b == 0))
    return NULL;
  if (i < 0 || i >= nx || j < 0 || j >= nz || i + a < 0 || i + a >= nx || j + b < 0
      || j + b >= nz)
    return NULL;
  k = c->offset_at[(size_t) (b + c->st.rz) * (2 * (size_t) c->st.rx + 1)
                   + (size_t) (a + c->st.rx)];
  return k < 0 ? NULL : &c->st.offsets[k];
}

/* The one velocity every cell of the edge from node (i, j) by (a, b)
 * crosses, or 0 when its cells differ, it crosses an obstacle, or it is
 * not an edge of the graph.  The cells lie in the box spanned by the two
 * nodes, so inside the grid. */
static float
edge_velocity (const spr_ray_context *c, long i, long j, int a, int b)
{
  const spr_offset *o = edge_offset (c, i, j, a, b);
  float v = 0.0f;

  if (o == NULL)
    return 0.0f;
  for (int k = 0; k < o->count; k++)
    {
      const spr_cell *cell = &c->st.cells[o->first + k];
      const float u = c->velocity[(size_t) (j + cell->dj) * c->grid.nx + (size_t) (i + cell->di)];
      if (u <= 0.0f || (k > 0 && u != v))
        return 0.0f;
      v = u;
    }
  return v;
}

static long
cross_l (long a1, long b1, long a2, long b2)
{
  return a1 * b2 - b1 * a2;
}

/* The two primitive offsets on either side of (da, db) nearest to it in
 * angle (in physical units, though a linear map keeps the order of
 * directions; e1 may lie along it), and the whole counts with
 * α e1 + β e2 = (da, db).  False when the stencil cannot bracket it. */
static bool
bracket (const spr_ray_context *c, long da, long db, const spr_offset **e1, const spr_offset **e2,
         long *alpha, long *beta)
{
  const int n = c->nprimitive;
  const double theta = offset_angle (&c->grid, da, db);
  int lo = 0, hi = n;
  long det;

  *e1 = *e2 = NULL;
  if (n < 2)
    return false;
  /* The first angle above theta; rounding can misplace a direction by one
   * among exact ties only, so the neighbours around it are settled by
   * exact cross products. */
  while (lo < hi)
    {
      const int mid = (lo + hi) / 2;
      if (c->angle[mid] <= theta)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (int d = -2; d <= 1; d++)
    {
      const spr_offset *o = &c->st.offsets[c->by_angle[((lo + d) % n + n) % n]];
      const long cr = cross_l (o->a, o->b, da, db);

      if ((long) o->a * da + (long) o->b * db <= 0)
        continue;
      /* cr >= 0: (da, db) lies counter-clockwise of o, or along it. */
      if (cr >= 0 && (*e1 == NULL || cross_l ((*e1)->a, (*e1)->b, o->a, o->b) > 0))
        *e1 = o;
      else if (cr < 0 && (*e2 == NULL || cross_l (o->a, o->b, (*e2)->a, (*e2)->b) > 0))
        *e2 = o;
    }
  if (*e1 == NULL)
    return false;
  if (cross_l ((*e1)->a, (*e1)->b, da, db) == 0)
    {
      /* Along e1 itself. */
      long m = (*e1)->a != 0 ? da / (*e1)->a : db / (*e1)->b;
      *e2 = *e1;
      *alpha = m;
      *beta = 0;
      return m > 0 && m * (*e1)->a == da && m * (*e1)->b == db;
    }
  if (*e2 == NULL)
    return false;
  det = cross_l ((*e1)->a, (*e1)->b, (*e2)->a, (*e2)->b);
  if (det == 0)
    return false;
  {
    const long an = cross_l (da, db, (*e2)->a, (*e2)->b);
    const long bn = cross_l ((*e1)->a, (*e1)->b, da, db);
    if (an % det != 0 || bn % det != 0)
      return false;    /* never so for neighbours in angle (det ±1); kept as a guard */
    *alpha = an / det;
    *beta = bn / det;
  }
  return *alpha >= 0 && *beta >= 0;
}

/* Writes into out[] the straight path from node `from` to node `to`
 * (both included) through cells of velocity v alone, and returns its
 * count of nodes; 0 when there is none to give. */
static size_t
straight_run (const spr_ray_context *c, int32_t from, int32_t to, float v, int32_t *out,
              size_t room)
{
  const long nx = (long) c->grid.nx;
  const long i0 = from % nx, j0 = from / nx;
  const long da = to % nx - i0, db = to / nx - j0;
  const spr_offset *e1, *e2;
  long alpha, beta, steps, m_prev = 0;
  long i = i0, j = j0;

  if (!bracket (c, da, db, &e1, &e2, &alpha, &beta))
    return 0;
  steps = alpha + beta;
  if ((size_t) steps + 1 > room)
    return 0;
  out[0] = from;
  for (long k = 1; k <= steps; k++)
    {
      /* e2 taken round(k β / steps) times after k steps: never more than
       * half a step across the chord. */
      const long m = (2 * k * beta + steps) / (2 * steps);
      const spr_offset *e = m > m_prev ? e2 : e1;
      if (edge_velocity (c, i, j, e->a, e->b) != v)
        return 0;
      i += e->a;
      j += e->b;
      m_prev = m;
      out[k] = (int32_t) (j * nx + i);
    }
  return out[steps] == to ? (size_t) steps + 1 : 0;
}

/* Appends the straightest path for path[lo .. hi] (every edge of it in
 * velocity v) to out, without its first node; returns the new count.  out
 * and scratch hold `room` nodes, enough for any run's primitive steps. */
static size_t
straighten_run (const spr_ray_context *c, const int32_t *path, size_t lo, size_t hi, float v,
                int32_t *out, size_t n, size_t room, int32_t *scratch)
{
  size_t got = hi - lo >= 2 ? straight_run (c, path[lo], path[hi], v, scratch, room - n + 1) : 0;

  if (got > 0)
    {
      memcpy (out + n, scratch + 1, (got - 1) * sizeof *out);
      return n + got - 1;
    }
  if (hi - lo <= 2)
    {
      memcpy (out + n, path + lo + 1, (hi - lo) * sizeof *out);
      return n + (hi - lo);
    }
  {
    const size_t mid = lo + (hi - lo) / 2;
    n = straighten_run (c, path, lo, mid, v, out, n, room, scratch);
    return straighten_run (c, path, mid, hi, v, out, n, room, scratch);
  }
}

fr_status
spr_ray_straighten (const spr_ray_context *c, const int32_t *path, size_t count, int32_t **out,
                    size_t *out_count, fr_error *err)
{
  const long nx = (long) c->grid.nx;
  int32_t *res, *scratch;
  size_t n = 0, lo = 0, room = 1;

  *out = NULL;
  *out_count = 0;
  /* Primitive steps between two nodes number at most |Δi| + |Δj|, and
   * those add up over the edges to at most room - 1. */
  for (size_t k = 0; k + 1 < count; k++)
    room += (size_t) (labs (path[k + 1] % nx - path[k] % nx)
                      + labs (path[k + 1] / nx - path[k] / nx));
  res = malloc (room * sizeof *res);
  scratch = malloc (room * sizeof *scratch);
  if (res == NULL || scratch == NULL)
    {
      free (res);
      free (scratch);
      return fr_error_set (err, FR_E_NOMEM, "out of memory for a ray of %zu points", room);
    }
  res[n++] = path[0];
  while (lo + 1 < count)
    {
      /* The run of edges from path[lo] that cross one velocity alone. */
      const float v = edge_velocity (c, path[lo] % nx, path[lo] / nx,
                                     (int) (path[lo + 1] % nx - path[lo] % nx),
                                     (int) (path[lo + 1] / nx - path[lo] / nx));
      size_t hi = lo + 1;

      if (v > 0.0f)
        while (hi + 1 < count
               && edge_velocity (c, path[hi] % nx, path[hi] / nx,
                                 (int) (path[hi + 1] % nx - path[hi] % nx),
                                 (int) (path[hi + 1] / nx - path[hi] / nx)) == v)
          hi++;
      if (v > 0.0f && hi - lo >= 2)
        n = straighten_run (c, path, lo, hi, v, res, n, room, scratch);
      else
        {
          memcpy (res + n, path + lo + 1, (hi - lo) * sizeof *res);
          n += hi - lo;
        }
      lo = hi;
    }
  free (scratch);
  *out = res;
  *out_count = n;
  return FR_OK;
}
