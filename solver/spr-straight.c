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
 * velocity and stays in the grid; that is checked edge by edge.  Where the
 * interleaved chord crosses another velocity, the staircase of the same
 * two offsets closest to the chord inside the velocity is taken
 * (closest_staircase): a head wave then runs along its interface.  A run
 * that has neither goes by chords from node to the farthest node of it
 * each reaches (straighten_run). */
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

/* How far, in steps either side of the chord, closest_staircase looks: a
 * ray running along a velocity's edge keeps within a few cells of its
 * chord, and the band bounds the work to (steps)(2 STAIRCASE_BAND + 1)
 * edges. */
#define STAIRCASE_BAND 32

/* Where the chord's staircase has taken m2 of the e2 steps among its
 * first k: the band's middle, as straight_run rounds it. */
static long
band_middle (long k, long beta, long steps)
{
  return (2 * k * beta + steps) / (2 * steps);
}

/* Writes into out[] the staircase of the chord's two bracketing offsets
 * from node `from` to node `to` that crosses cells of velocity v alone
 * and keeps closest to the chord (the least sum, over its nodes, of their
 * distances from it), and returns its count of nodes; 0 when no such
 * staircase keeps within STAIRCASE_BAND steps of the chord.  Every such
 * staircase weighs the same, so this is an equal-time path chosen by a
 * rule of the model alone, not of the path a back end happened to give:
 * where a ray runs along a velocity's edge that its straight chord would
 * cross, the back ends' rays come out the same.  A dynamic programme over
 * (steps taken, e2 steps among them). */
static size_t
closest_staircase (const spr_ray_context *c, int32_t from, int32_t to, float v, int32_t *out,
                   size_t room)
{
  enum { UNREACHED, BY_E1, BY_E2 };
  const long nx = (long) c->grid.nx, width = 2 * STAIRCASE_BAND + 1;
  const long i0 = from % nx, j0 = from / nx;
  const spr_offset *e1, *e2;
  long alpha, beta, steps, m2;
  unsigned char *came;
  long long *rows, *cost, *prev_cost;    /* two rows of the band, swapped each step */
  size_t count = 0;

  if (!bracket (c, to % nx - i0, to / nx - j0, &e1, &e2, &alpha, &beta) || alpha == 0
      || beta == 0)
    return 0;    /* one offset alone has no other order */
  steps = alpha + beta;
  if ((size_t) steps + 1 > room)
    return 0;
  came = calloc ((size_t) (steps + 1) * (size_t) width, 1);
  rows = malloc (2 * (size_t) width * sizeof *rows);
  if (came == NULL || rows == NULL)
    {
      free (came);
      free (rows);
      return 0;
    }
  cost = rows;
  prev_cost = rows + width;
  came[STAIRCASE_BAND] = BY_E1;    /* the start: any mark but UNREACHED */
  prev_cost[STAIRCASE_BAND] = 0;
  for (long k = 1; k <= steps; k++)
    {
      const long mid = band_middle (k, beta, steps), prev_mid = band_middle (k - 1, beta, steps);
      bool any = false;

      for (long w = 0; w < width; w++)
        {
          const long m = mid - STAIRCASE_BAND + w;
          /* The distance from the chord of the node with m of k steps e2's,
           * in units of |e1 × e2| / steps. */
          const long long off = llabs ((long long) m * steps - (long long) k * beta);
          long long best = -1;
          int how = UNREACHED;

          if (m < 0 || m > beta || k - m > alpha)
            continue;
          /* By e1 from (k - 1, m), or by e2 from (k - 1, m - 1). */
          for (int by = BY_E1; by <= BY_E2; by++)
            {
              const long pm = by == BY_E1 ? m : m - 1;
              const long pw = pm - (prev_mid - STAIRCASE_BAND);
              const spr_offset *e = by == BY_E1 ? e1 : e2;
              long pi, pj;

              if (pw < 0 || pw >= width || came[(size_t) (k - 1) * width + pw] == UNREACHED)
                continue;
              if (best >= 0 && prev_cost[pw] >= best)
                continue;    /* ties keep e1: any fixed rule gives one answer */
              pi = i0 + (k - 1 - pm) * e1->a + pm * e2->a;
              pj = j0 + (k - 1 - pm) * e1->b + pm * e2->b;
              if (edge_velocity (c, pi, pj, e->a, e->b) != v)
                continue;
              best = prev_cost[pw];
              how = by;
            }
          if (how != UNREACHED)
            {
              came[(size_t) k * width + w] = (unsigned char) how;
              cost[w] = best + off;
              any = true;
            }
        }
      if (!any)
        goto out;
      {
        long long *t = prev_cost;
        prev_cost = cost;
        cost = t;
      }
    }
  /* The end (steps, beta) is the band's middle; walk back from it. */
  m2 = beta;
  for (long k = steps; k >= 0; k--)
    {
      const long w = m2 - (band_middle (k, beta, steps) - STAIRCASE_BAND);
      out[k] = (int32_t) ((j0 + (k - m2) * e1->b + m2 * e2->b) * nx
                          + i0 + (k - m2) * e1->a + m2 * e2->a);
      if (k > 0 && came[(size_t) k * width + w] == BY_E2)
        m2--;
    }
  count = out[steps] == to ? (size_t) steps + 1 : 0;
out:
  free (came);
  free (rows);
  return count;
}

/* The straightest path from node `from` to node `to` through cells of
 * velocity v alone into out[]: the interleaved chord, else the closest
 * staircase of its offsets; its count of nodes, 0 when there is none. */
static size_t
chord_path (const spr_ray_context *c, int32_t from, int32_t to, float v, int32_t *out,
            size_t room)
{
  const size_t got = straight_run (c, from, to, v, out, room);

  return got > 0 ? got : closest_staircase (c, from, to, v, out, room);
}

/* Appends the straightest path for path[lo .. hi] (every edge of it in
 * velocity v) to out, without its first node; returns the new count.  From
 * each node it takes the chord path to the farthest node of the run that
 * one reaches (found by halving: the last node tried that works), then
 * goes on from there.  Where the run's nodes differ between back ends but
 * its corners do not, so do the chords.  out holds `room` nodes, enough
 * for any run's primitive steps, and scratch twice as many: the path of
 * the farthest node found so far is kept while the next is tried. */
static size_t
straighten_run (const spr_ray_context *c, const int32_t *path, size_t lo, size_t hi, float v,
                int32_t *out, size_t n, size_t room, int32_t *scratch)
{
  int32_t *kept = scratch, *trial = scratch + room;

  while (lo < hi)
    {
      /* path[good] has a chord path from path[lo], kept_count nodes in
       * kept (the next node needs none); path[bad] has none, or lies past
       * the run. */
      size_t good = lo + 1, bad = hi + 1, next = hi, kept_count = 0;

      while (next > good)
        {
          const size_t got = chord_path (c, path[lo], path[next], v, trial, room - n + 1);

          if (got > 0)
            {
              int32_t *t = kept;

              good = next;
              kept_count = got;
              kept = trial;
              trial = t;
            }
          else
            bad = next;
          next = good + (bad - good) / 2;
        }
      if (kept_count > 0)
        {
          memcpy (out + n, kept + 1, (kept_count - 1) * sizeof *out);
          n += kept_count - 1;
        }
      else
        out[n++] = path[lo + 1];
      lo = good;
    }
  return n;
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
  scratch = malloc (2 * room * sizeof *scratch);
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
