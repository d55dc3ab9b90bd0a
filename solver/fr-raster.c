/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Cell-averaged rasterisation of layers, gradients and obstacles (see
 * fr-raster.h for the model and the quadrature). */
#include "fr-raster.h"
#include "fr-omp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A layer's lateral term at x: 0 at its x_ref. */
static inline double
lateral (const fr_raster_layer *l, double x)
{
  return l->dvdx * (x - l->x_ref);
}

/* ----------------------------------------------------------------- checks */

static int
finite2 (double a, double b)
{
  return isfinite (a) && isfinite (b);
}

fr_status
fr_raster_check (const fr_raster_model *m, fr_error *err)
{
  if (m == NULL)
    return fr_error_set (err, FR_E_INPUT, "no model");
  if (!(m->default_velocity > 0.0) || !isfinite (m->default_velocity))
    return fr_error_set (err, FR_E_INPUT, "default velocity must be positive");
  if (m->n_layers > 0 && m->layers == NULL)
    return fr_error_set (err, FR_E_INPUT, "layers missing");
  if (m->n_obstacles > 0 && m->obstacles == NULL)
    return fr_error_set (err, FR_E_INPUT, "obstacles missing");

  for (size_t k = 0; k < m->n_layers; k++)
    {
      const fr_raster_layer *l = &m->layers[k];

      if (l->n < 1 || l->x == NULL || l->z == NULL)
        return fr_error_set (err, FR_E_INPUT, "layer %zu: the interface has no nodes", k + 1);
      for (size_t i = 0; i < l->n; i++)
        {
          if (!finite2 (l->x[i], l->z[i]))
            return fr_error_set (err, FR_E_INPUT, "layer %zu: node %zu is not finite", k + 1, i + 1);
          if (i > 0 && !(l->x[i] > l->x[i - 1]))
            return fr_error_set (err, FR_E_INPUT,
                                 "layer %zu: interface nodes must have increasing x (node %zu)",
                                 k + 1, i + 1);
        }
      if (!(l->v_top > 0.0) || !isfinite (l->v_top))
        return fr_error_set (err, FR_E_INPUT, "layer %zu: the top velocity must be positive", k + 1);
      /* A layer's velocities are clamped to the least one (clamp_v): below
       * it, a top velocity would be solved as another, without a word. */
      if (l->v_top < FR_RASTER_MIN_VELOCITY)
        return fr_error_set (err, FR_E_INPUT, "layer %zu: the top velocity %g is below %g, the least "
                             "a layer may have", k + 1, l->v_top, FR_RASTER_MIN_VELOCITY);
      if (!finite2 (l->dvdz, l->dvdx))
        return fr_error_set (err, FR_E_INPUT, "layer %zu: gradients must be finite", k + 1);
      if (!isfinite (l->x_ref))
        return fr_error_set (err, FR_E_INPUT, "layer %zu: the lateral gradient's origin must be finite",
                             k + 1);
    }

  for (size_t k = 0; k < m->n_obstacles; k++)
    {
      const fr_raster_obstacle *o = &m->obstacles[k];

      if (o->n < 3 || o->x == NULL || o->z == NULL)
        return fr_error_set (err, FR_E_INPUT, "obstacle %zu: a polygon needs 3 vertices", k + 1);
      for (size_t i = 0; i < o->n; i++)
        if (!finite2 (o->x[i], o->z[i]))
          return fr_error_set (err, FR_E_INPUT, "obstacle %zu: vertex %zu is not finite", k + 1, i + 1);
      if (!(o->velocity >= 0.0) || !isfinite (o->velocity))
        return fr_error_set (err, FR_E_INPUT, "obstacle %zu: velocity must be 0 or positive", k + 1);
    }

  if (m->background_grid != NULL)
    {
      fr_status st;

      if (m->background_grid->ndim != 2)
        return fr_error_set (err, FR_E_INPUT, "the background grid must be 2D");
      if ((st = fr_grid_check (m->background_grid, err)) != FR_OK)
        return st;
      if (m->background == NULL)
        return fr_error_set (err, FR_E_INPUT, "background values missing");
      if ((st = fr_check_speed_f32 (m->background_grid, m->background, "background", err)) != FR_OK)
        return st;
    }
  return FR_OK;
}

/* ------------------------------------------------------------ point rules */

double
fr_raster_interface_z (const fr_raster_layer *l, double x)
{
  size_t lo = 0, hi = l->n - 1;

  if (x <= l->x[0])
    return l->z[0];
  if (x >= l->x[hi])
    return l->z[hi];
  while (hi - lo > 1)
    {
      size_t mid = (lo + hi) / 2;

      if (l->x[mid] <= x)
        lo = mid;
      else
        hi = mid;
    }
  return l->z[lo] + (x - l->x[lo]) * (l->z[hi] - l->z[lo]) / (l->x[hi] - l->x[lo]);
}

/* Whether edge i of o crosses the vertical line at x (half-open in x, so a
 * vertex is counted once); *zc receives the crossing depth. */
static int
edge_crosses_x (const fr_raster_obstacle *o, size_t i, double x, double *zc)
{
  size_t j = i + 1 == o->n ? 0 : i + 1;
  double x1 = o->x[i], z1 = o->z[i], x2 = o->x[j], z2 = o->z[j];

  if ((x1 <= x) == (x2 <= x))
    return 0;
  *zc = z1 + (x - x1) * (z2 - z1) / (x2 - x1);
  return 1;
}

static int
obstacle_contains (const fr_raster_obstacle *o, double x, double z)
{
  int inside = 0;
  double zc;

  for (size_t i = 0; i < o->n; i++)
    if (edge_crosses_x (o, i, x, &zc) && zc < z)
      inside = !inside;
  return inside;
}

/* The obstacle on top at (x, z), or -1. */
static long
obstacle_at (const fr_raster_model *m, double x, double z)
{
  for (size_t k = m->n_obstacles; k-- > 0;)
    if (obstacle_contains (&m->obstacles[k], x, z))
      return (long) k;
  return -1;
}

static double
clamp_v (double v)
{
  return v > FR_RASTER_MIN_VELOCITY ? v : FR_RASTER_MIN_VELOCITY;
}

static size_t
bg_index (double p, double p0, double d, size_t n)
{
  double f = floor ((p - p0) / d + 0.5);

  if (!(f > 0.0))
    return 0;
  if (f >= (double) (n - 1))
    return n - 1;
  return (size_t) f;
}

static double
background_at (const fr_raster_model *m, double x, double z)
{
  const fr_grid *g = m->background_grid;

  return m->background[fr_grid_index (g, bg_index (x, g->x0, g->dx, g->nx), 0,
                                      bg_index (z, g->z0, g->dz, g->nz))];
}

double
fr_raster_velocity_at (const fr_raster_model *m, double x, double z)
{
  long k = obstacle_at (m, x, z);

  if (k >= 0)
    return m->obstacles[k].velocity;
  for (size_t i = m->n_layers; i-- > 0;)
    {
      const fr_raster_layer *l = &m->layers[i];
      double h = fr_raster_interface_z (l, x);

      if (h <= z || (i == 0 && m->background_grid == NULL))
        return clamp_v (l->v_top + l->dvdz * (z - h) + lateral (l, x));
    }
  if (m->background_grid != NULL)
    return background_at (m, x, z);
  return m->default_velocity;
}

/* ------------------------------------------------------------ integration */

typedef struct
{
  double slow;      /* ∫ slowness dz over the permeable part */
  double blocked;   /* length inside impermeable material */
  long   clamped;   /* a layer whose gradient fell to the clamp here, or -1 */
} Column;

static void
add_velocity (Column *c, double v, double len)
{
  if (v <= 0.0)
    c->blocked += len;
  else
    c->slow += len / v;
}

/* ∫ dz / max(a + b z, vmin) over [z1, z2]. */
static double
linear_slowness (double a, double b, double z1, double z2)
{
  double v1 = a + b * z1, v2 = a + b * z2, len = z2 - z1;

  if (b == 0.0 || fabs (b) * len < 1e-12 * fabs (v1))
    return len / clamp_v (0.5 * (v1 + v2));
  if (v1 >= FR_RASTER_MIN_VELOCITY && v2 >= FR_RASTER_MIN_VELOCITY)
    return log1p (b * len / v1) / b;

  /* Part of the interval is clamped: split at the clamp. */
  {
    double zc = (FR_RASTER_MIN_VELOCITY - a) / b, s = 0.0;

    if (zc <= z1 || zc >= z2)
      return len / FR_RASTER_MIN_VELOCITY;   /* wholly clamped */
    if (v1 < FR_RASTER_MIN_VELOCITY)
      {
        s += (zc - z1) / FR_RASTER_MIN_VELOCITY;
        s += log1p (b * (z2 - zc) / FR_RASTER_MIN_VELOCITY) / b;
      }
    else
      {
        s += log1p (b * (zc - z1) / v1) / b;
        s += (z2 - zc) / FR_RASTER_MIN_VELOCITY;
      }
    return s;
  }
}

static void
integrate_layer (const fr_raster_model *m, long k, double h, double x, double z1, double z2,
                 Column *c)
{
  const fr_raster_layer *l = &m->layers[k];
  double a = l->v_top + lateral (l, x) - l->dvdz * h;

  if (a + l->dvdz * z1 < FR_RASTER_MIN_VELOCITY || a + l->dvdz * z2 < FR_RASTER_MIN_VELOCITY)
    c->clamped = k;
  c->slow += linear_slowness (a, l->dvdz, z1, z2);
}

static void
integrate_background (const fr_raster_model *m, double x, double z1, double z2, Column *c)
{
  const fr_grid *g = m->background_grid;
  size_t ix = bg_index (x, g->x0, g->dx, g->nx);
  size_t iz = bg_index (z1, g->z0, g->dz, g->nz);
  double z = z1;

  while (z < z2)
    {
      /* The lower face of background row iz; the last row extends down. */
      double face = iz + 1 < g->nz ? g->z0 + (iz + 0.5) * g->dz : z2;
      double end = face < z2 ? face : z2;

      if (end > z)
        add_velocity (c, m->background[fr_grid_index (g, ix, 0, iz)], end - z);
      z = end;
      if (iz + 1 < g->nz)
        iz++;
      else
        break;
    }
}

static int
compare_doubles (const void *pa, const void *pb)
{
  double a = *(const double *) pa, b = *(const double *) pb;

  return (a > b) - (a < b);
}

/* Insertion sort for the few kinks of a cell or breaks of a line, qsort
 * for the many that a polygon of thousands of crossing edges makes. */
#define FEW 32

static void
sort_doubles (double *a, size_t n)
{
  if (n > FEW)
    {
      qsort (a, n, sizeof *a, compare_doubles);
      return;
    }
  for (size_t i = 1; i < n; i++)
    {
      double v = a[i];
      size_t j = i;

      while (j > 0 && a[j - 1] > v)
        {
          a[j] = a[j - 1];
          j--;
        }
      a[j] = v;
    }
}

static void
add_if_inside (double *xs, size_t *n, double v, double xa, double xb)
{
  if (v > xa && v < xb)
    xs[(*n)++] = v;
}

/* Where the segment (x1, z1)–(x2, z2) reaches depth z, if it does. */
static void
add_level_crossing (double *xs, size_t *n, double x1, double z1, double x2, double z2,
                    double z, double xa, double xb)
{
  if ((z1 < z && z2 > z) || (z1 > z && z2 < z))
    add_if_inside (xs, n, x1 + (z - z1) * (x2 - x1) / (z2 - z1), xa, xb);
}

/* ------------------------------------------------------- vertical profiles */

/* A depth on a vertical line where the material may change: a layer's
 * interface (layer >= 0) or an obstacle's edge (obstacle >= 0). */
typedef struct
{
  double z;
  long   layer, obstacle;
} Break;

/* What fills the line between two breaks. */
typedef struct
{
  long obstacle;   /* the obstacle on top, or -1 */
  long layer;      /* the last layer whose interface lies above, or -1 */
} Fill;

/* The vertical line at x, top to bottom: n breaks by increasing depth and
 * the n + 1 pieces around them (piece i lies between breaks i − 1 and i;
 * the first and the last are unbounded).  A profile is built once for a
 * grid column and each cell integrates its slice of it, so the interfaces
 * and edges are not searched again for every cell of the column. */
typedef struct
{
  double  x;
  size_t  n;
  Break  *breaks;
  Fill   *fills;
  double *h;         /* each layer's interface depth at x */
  size_t  cursor;    /* the first break below the last slice's top */
  size_t  at;        /* where its breaks start in the column's pool (fills: at + its index) */
} Profile;

static int
compare_breaks (const void *pa, const void *pb)
{
  double a = ((const Break *) pa)->z, b = ((const Break *) pb)->z;

  return (a > b) - (a < b);
}

static void
sort_breaks (Break *b, size_t n)
{
  if (n > FEW)
    {
      qsort (b, n, sizeof *b, compare_breaks);
      return;
    }
  for (size_t i = 1; i < n; i++)
    {
      Break v = b[i];
      size_t j = i;

      while (j > 0 && b[j - 1].z > v.z)
        {
          b[j] = b[j - 1];
          j--;
        }
      b[j] = v;
    }
}

/* A layer's segment (obstacle −1) or an obstacle's edge that meets a grid
 * column, in the order of its vertices. */
typedef struct
{
  double x1, z1, x2, z2;
  long   obstacle;
} Segment;

/* The depths along the line at x where the material may change, in
 * p->breaks, unsorted; each layer's interface depth in p->h.  Returns how
 * many. */
static size_t
collect_breaks (const fr_raster_model *m, const Segment *segs, size_t n_segs, double x,
                Profile *p)
{
  size_t n = 0;

  for (size_t k = 0; k < m->n_layers; k++)
    {
      p->h[k] = fr_raster_interface_z (&m->layers[k], x);
      p->breaks[n++] = (Break) { p->h[k], (long) k, -1 };
    }
  /* Half-open in x, so that a vertex on the line counts once (as
   * edge_crosses_x). */
  for (size_t i = 0; i < n_segs; i++)
    {
      const Segment *s = &segs[i];

      if (s->obstacle >= 0 && (s->x1 <= x) != (s->x2 <= x))
        p->breaks[n++] = (Break) { s->z1 + (x - s->x1) * (s->z2 - s->z1) / (s->x2 - s->x1),
                                   -1, s->obstacle };
    }
  p->x = x;
  p->cursor = 0;
  return n;
}

/* The obstacles a point of the line is inside: a flag per obstacle and
 * the list of those set, so that clearing it and finding the one on top
 * cost the few a point is inside, not every obstacle of the model (8 000
 * small inclusions took 36 s, scanning them all at each break). */
typedef struct
{
  unsigned char *flag;
  long          *list;
  size_t         n;
} Inside;

static void
inside_clear (Inside *s)
{
  for (size_t i = 0; i < s->n; i++)
    s->flag[s->list[i]] = 0;
  s->n = 0;
}

/* Even–odd, as obstacle_contains: an edge takes the line into or out of k. */
static void
inside_toggle (Inside *s, long k)
{
  if ((s->flag[k] ^= 1) != 0)
    {
      s->list[s->n++] = k;
      return;
    }
  for (size_t i = 0; i < s->n; i++)
    if (s->list[i] == k)
      {
        s->list[i] = s->list[--s->n];
        break;
      }
}

/* The obstacle on top (the last drawn), or -1. */
static long
inside_top (const Inside *s)
{
  long top = -1;

  for (size_t i = 0; i < s->n; i++)
    if (s->list[i] > top)
      top = s->list[i];
  return top;
}

/* Passing break b down the line: an obstacle's edge takes the line into
 * or out of it, an interface puts its layer above (as layer_at). */
static void
pass_break (const Break *b, Inside *inside, long *layer)
{
  if (b->layer > *layer)
    *layer = b->layer;
  if (b->obstacle >= 0)
    inside_toggle (inside, b->obstacle);
}

/* p's fills, from the layer above its first (sorted) break down. */
static void
walk_breaks (Profile *p, Inside *inside, long layer)
{
  long top = inside_top (inside);

  for (size_t i = 0;; i++)
    {
      const Break *b;

      p->fills[i] = (Fill) { top, layer };
      if (i == p->n)
        break;
      b = &p->breaks[i];
      pass_break (b, inside, &layer);
      if (b->obstacle >= 0)
        top = inside_top (inside);
    }
}

/* Builds p at x from the layers and the column's segments, the whole
 * line.  inside: scratch. */
static void
profile_build (const fr_raster_model *m, const Segment *segs, size_t n_segs, double x,
               Inside *inside, Profile *p)
{
  p->n = collect_breaks (m, segs, n_segs, x, p);
  sort_breaks (p->breaks, p->n);
  inside_clear (inside);
  walk_breaks (p, inside, -1);
}

/* The same for the slice [za, zb] only, for one cut cell: the breaks
 * above za give the state at za without sorting (the parity of each
 * obstacle and the deepest layer passed do not depend on their order),
 * and only those inside are sorted.  A polygon of thousands of crossing
 * edges sorted the whole line at every Gauss point of every cut cell. */
static void
profile_build_slice (const fr_raster_model *m, const Segment *segs, size_t n_segs, double x,
                     double za, double zb, Inside *inside, Profile *p)
{
  const size_t n = collect_breaks (m, segs, n_segs, x, p);
  long layer = -1;
  size_t kept = 0;

  inside_clear (inside);
  for (size_t i = 0; i < n; i++)
    {
      const Break b = p->breaks[i];

      if (b.z <= za)
        pass_break (&b, inside, &layer);
      else if (b.z < zb)
        p->breaks[kept++] = b;
    }
  p->n = kept;
  sort_breaks (p->breaks, kept);
  walk_breaks (p, inside, layer);
}

/* The layer that fills f, or -1 (an obstacle, the background, or the
 * default velocity): above every interface the first layer goes on
 * upward unless a background grid lies there. */
static long
fill_layer (const fr_raster_model *m, Fill f)
{
  if (f.obstacle >= 0)
    return -1;
  if (f.layer >= 0)
    return f.layer;
  return m->background_grid == NULL && m->n_layers > 0 ? 0 : -1;
}

/* Adds [z1, z2] of the line at p->x, filled with f. */
static void
integrate_fill (const fr_raster_model *m, const Profile *p, Fill f, double z1, double z2,
                Column *c)
{
  const long k = fill_layer (m, f);

  if (f.obstacle >= 0)
    add_velocity (c, m->obstacles[f.obstacle].velocity, z2 - z1);
  else if (k >= 0)
    integrate_layer (m, k, p->h[k], p->x, z1, z2, c);
  else if (m->background_grid != NULL)
    integrate_background (m, p->x, z1, z2, c);
  else
    add_velocity (c, m->default_velocity, z2 - z1);
}

/* The line through [za, zb], exact in z.  Slices come in increasing depth:
 * the cursor only moves down. */
static void
profile_integrate (const fr_raster_model *m, Profile *p, double za, double zb, Column *c)
{
  size_t i = p->cursor;

  while (i < p->n && p->breaks[i].z <= za)
    i++;
  p->cursor = i;
  for (;; i++)
    {
      double z1 = i > 0 && p->breaks[i - 1].z > za ? p->breaks[i - 1].z : za;
      double z2 = i < p->n && p->breaks[i].z < zb ? p->breaks[i].z : zb;

      if (z2 > z1)
        integrate_fill (m, p, p->fills[i], z1, z2, c);
      if (i == p->n || p->breaks[i].z >= zb)
        break;
    }
}

/* --------------------------------------------------------------- the fill */

static const double gauss_x[3] = { -0.7745966692414834, 0.0, 0.7745966692414834 };
static const double gauss_w[3] = { 5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0 };

/* A grid column's clamped cells: how many, and the first one's row and
 * layer. */
typedef struct
{
  size_t count, iz, layer;
} ColumnClamps;

/* Where two segments cross. */
typedef struct
{
  double x, z;
} Crossing;

static int
compare_crossings (const void *pa, const void *pb)
{
  double a = ((const Crossing *) pa)->z, b = ((const Crossing *) pb)->z;

  return (a > b) - (a < b);
}

/* Whether segments a and b cross inside both (not at an end), and where. */
static int
segments_cross (const Segment *a, const Segment *b, Crossing *c)
{
  const double dax = a->x2 - a->x1, daz = a->z2 - a->z1, dbx = b->x2 - b->x1, dbz = b->z2 - b->z1;
  const double d = dax * dbz - daz * dbx;
  double t, u;

  if (d == 0.0)
    return 0;
  t = ((b->x1 - a->x1) * dbz - (b->z1 - a->z1) * dbx) / d;
  u = ((b->x1 - a->x1) * daz - (b->z1 - a->z1) * dax) / d;
  if (!(t > 0.0 && t < 1.0 && u > 0.0 && u < 1.0))
    return 0;
  c->x = a->x1 + t * dax;
  c->z = a->z1 + t * daz;
  return 1;
}

/* One thread's scratch.  Sizes that hold for every column are allocated
 * at once; the profiles grow with the column that needs the most. */
typedef struct
{
  Segment       *segs;      /* the column's segments */
  double        *fixed;     /* the column's kinks in x that every row has */
  double        *always;    /* those a cut cell always has: its sides, interface
                             * vertices, background faces */
  double        *vx, *vz;   /* the obstacles' vertices inside the column, unsorted */
  double        *xs;        /* one cell's kinks */
  double        *level;     /* where segments cross a cell's top or bottom */
  Inside         inside;
  Profile       *profiles;  /* 3 for each piece: the fixed pieces', then the bands' */
  double        *pieces;    /* each piece's ends, p and q: the fixed ones', then the bands' */
  double        *piece_h;   /* a band piece's layer interface depth at p and at q */
  size_t         cap_pieces;
  double        *band_x;    /* a band's kinks, while its pieces are made */
  double        *band_lo, *band_hi;   /* the rows a layer fills alone (fill_column) */
  size_t        *band_first, *band_count;   /* its pieces; count 0: the fixed ones */
  Break         *breaks;    /* the profiles' breaks one after the other */
  Fill          *fills;     /* and their fills */
  double        *h;
  Crossing      *cross;     /* where two of the column's segments cross, by depth */
  size_t         cap_cross, cap_level;
  size_t         cap_fixed, cap_profiles, cap_breaks, cap_fills;
  size_t         row_faces;  /* background row faces inside one cell, at most */
  Profile        cut;       /* for a cell that a segment cuts */
  int            may_clamp; /* a layer's gradient may reach the clamp in the grid */
  long          *side_layer[2];  /* clamp_kinks: each interval's layer on two lines */
  double        *side_g[2];      /* and v − vmin at its top and bottom */
  double        *roots;          /* where the clamp's edge meets a boundary */
} Work;

/* An obstacle's vertex (x, z) inside the column: a kink of the column's
 * profiles, and of the cut cells whose depths it lies within (the
 * obstacle's speed is constant: a vertex above or below a cell is no kink
 * of it). */
static void
add_vertex (Work *w, size_t *n_fixed, size_t *n_vert, double x, double z, double xa, double xb)
{
  if (!(x > xa && x < xb))
    return;
  w->fixed[(*n_fixed)++] = x;
  w->vx[*n_vert] = x;
  w->vz[(*n_vert)++] = z;
}

static void
work_clear (Work *w)
{
  free (w->segs);
  free (w->fixed);
  free (w->always);
  free (w->vx);
  free (w->vz);
  free (w->xs);
  free (w->level);
  free (w->inside.flag);
  free (w->inside.list);
  free (w->profiles);
  free (w->pieces);
  free (w->piece_h);
  free (w->band_x);
  free (w->band_lo);
  free (w->band_hi);
  free (w->band_first);
  free (w->band_count);
  free (w->breaks);
  free (w->fills);
  free (w->h);
  for (int i = 0; i < 2; i++)
    {
      free (w->side_layer[i]);
      free (w->side_g[i]);
    }
  free (w->roots);
  free (w->cut.breaks);
  free (w->cut.fills);
  free (w->cut.h);
  free (w->cross);
}

static int
work_init (Work *w, const fr_raster_model *m, size_t n_segs, size_t n_fixed, size_t row_faces)
{
  size_t b = m->n_layers + n_segs;
  /* A segment crosses a cell's top, its bottom and each row face once. */
  size_t n_level = (2 + row_faces) * n_segs;

  *w = (Work) { 0 };
  w->cap_fixed = n_fixed;
  w->cap_level = n_level;
  w->row_faces = row_faces;
  w->segs = malloc ((n_segs + 1) * sizeof *w->segs);
  w->fixed = malloc (n_fixed * sizeof *w->fixed);
  w->always = malloc (n_fixed * sizeof *w->always);
  w->vx = malloc (n_fixed * sizeof *w->vx);
  w->vz = malloc (n_fixed * sizeof *w->vz);
  w->xs = malloc ((n_fixed + n_level) * sizeof *w->xs);
  w->level = malloc ((n_level + 1) * sizeof *w->level);
  w->inside.flag = calloc (m->n_obstacles + 1, 1);
  w->inside.list = malloc ((m->n_obstacles + 1) * sizeof (long));
  w->cut.breaks = malloc ((b + 1) * sizeof (Break));
  w->cut.fills = malloc ((b + 1) * sizeof (Fill));
  w->cut.h = malloc ((m->n_layers + 1) * sizeof (double));
  for (int i = 0; i < 2; i++)
    {
      w->side_layer[i] = malloc ((b + 1) * sizeof (long));
      w->side_g[i] = malloc (2 * (b + 1) * sizeof (double));
    }
  w->roots = malloc (2 * (b + 1) * sizeof (double));
  w->band_x = malloc ((n_fixed + 2) * sizeof *w->band_x);
  w->band_lo = malloc ((m->n_layers + 1) * sizeof *w->band_lo);
  w->band_hi = malloc ((m->n_layers + 1) * sizeof *w->band_hi);
  w->band_first = malloc ((m->n_layers + 1) * sizeof *w->band_first);
  w->band_count = malloc ((m->n_layers + 1) * sizeof *w->band_count);
  return w->segs && w->fixed && w->always && w->vx && w->vz && w->xs && w->level && w->inside.flag
         && w->band_x && w->band_lo && w->band_hi && w->band_first && w->band_count
         && w->inside.list && w->cut.breaks && w->cut.fills && w->cut.h && w->side_layer[0]
         && w->side_layer[1] && w->side_g[0] && w->side_g[1] && w->roots;
}

/* Room for the ends of n pieces. */
static int
reserve_pieces (Work *w, size_t n)
{
  if (n > w->cap_pieces)
    {
      size_t cap = 2 * n;
      double *p = realloc (w->pieces, 2 * cap * sizeof *p);

      if (p == NULL)
        return 0;
      w->pieces = p;
      if ((p = realloc (w->piece_h, 2 * cap * sizeof *p)) == NULL)
        return 0;
      w->piece_h = p;
      w->cap_pieces = cap;
    }
  return 1;
}

/* Room for n profiles and their interface depths; their breaks and fills
 * go one after the other (profile_pool), as many as each has. */
static int
work_reserve_profiles (Work *w, const fr_raster_model *m, size_t n)
{
  if (n > w->cap_profiles)
    {
      Profile *p = realloc (w->profiles, n * sizeof *p);
      double *h;

      if (p == NULL)
        return 0;
      w->profiles = p;
      if ((h = realloc (w->h, (n * m->n_layers + 1) * sizeof *h)) == NULL)
        return 0;
      w->h = h;
      w->cap_profiles = n;
    }
  for (size_t i = 0; i < n; i++)
    w->profiles[i].h = w->h + i * m->n_layers;
  return 1;
}

/* The most breaks a column's profiles keep (24 MB, and 16 MB of fills, a
 * thread).  A polygon that zigzags inside one column crosses each of its
 * lines at many of its vertices: its profiles would take memory as the
 * square of its vertices (30 000 of them, 7 GB), so its cells are then
 * built slice by slice, at their own kinks (fill_column). */
#define POOL_MAX_BREAKS ((size_t) 1 << 20)

/* Room for b more breaks and b + 1 more fills past the used ones: 1; 0
 * past POOL_MAX_BREAKS, -1 out of memory.  One pool rather than the
 * column's every break for each profile (30 000 vertices in one column had
 * asked for 65 GB that way). */
static int
profile_pool (Work *w, size_t used_breaks, size_t used_fills, size_t b)
{
  if (used_breaks + b + 1 > POOL_MAX_BREAKS && used_breaks + b + 1 > w->cap_breaks)
    return 0;
  if (used_breaks + b + 1 > w->cap_breaks)
    {
      size_t cap = 2 * (used_breaks + b + 1);
      Break *br = realloc (w->breaks, cap * sizeof *br);

      if (br == NULL)
        return -1;
      w->breaks = br;
      w->cap_breaks = cap;
    }
  if (used_fills + b + 2 > w->cap_fills)
    {
      size_t cap = 2 * (used_fills + b + 2);
      Fill *f = realloc (w->fills, cap * sizeof *f);

      if (f == NULL)
        return -1;
      w->fills = f;
      w->cap_fills = cap;
    }
  return 1;
}

/* The mean velocity of a cell of the given area from its integral; 0 when
 * at least half of it is impermeable.  *clamped: a layer whose gradient
 * reached the clamp inside it (the cell not a wall), or -1. */
static float
cell_velocity (const Column *c, double area, long *clamped)
{
  double open = area - c->blocked;

  *clamped = -1;
  /* "At least half" up to the integral's rounding: a wall drawn to a node
   * line covers its edge cells exactly half, and rounding opened some of
   * them and not others (the bundled maze's top row over two walls). */
  if (c->blocked >= 0.5 * area * (1.0 - 1e-9) || !(open > 0.0) || !(c->slow > 0.0))
    return 0.0f;
  *clamped = c->clamped;
  return (float) (open / c->slow);
}

static void
add_column (Column *c, const Column *col, double weight)
{
  c->slow += weight * col->slow;
  c->blocked += weight * col->blocked;
  if (col->clamped >= 0)
    c->clamped = col->clamped;
}

/* The line at x through [za, zb], from a slice of its own. */
static Column
slice_column (const fr_raster_model *m, Work *w, size_t n_segs, double x, double za, double zb)
{
  Column col = { 0.0, 0.0, -1 };

  profile_build_slice (m, w->segs, n_segs, x, za, zb, &w->inside, &w->cut);
  profile_integrate (m, &w->cut, za, zb, &col);
  return col;
}

/* [p, q] × [za, zb] by 3-point Gauss–Legendre in x over slices. */
static __attribute__ ((noinline)) Column
gauss_piece (const fr_raster_model *m, Work *w, size_t n_segs, double p, double q, double za,
             double zb)
{
  const double mid = 0.5 * (p + q), half = 0.5 * (q - p);
  Column c = { 0.0, 0.0, -1 };

  for (int g = 0; g < 3; g++)
    {
      Column col = slice_column (m, w, n_segs, mid + half * gauss_x[g], za, zb);

      add_column (&c, &col, gauss_w[g] * half);
    }
  return c;
}

/* [a, b] by Gauss pieces that halve toward a (at_a) or b, steps times:
 * beside the clamp's edge, on its open side, the slowness rises as the log
 * of the distance from it, which one Gauss piece misreads (3-point Gauss
 * is 0.2 % off on a piece where 1/v varies fourfold, 3e-5 on one where it
 * doubles). */
static Column
graded_piece (const fr_raster_model *m, Work *w, size_t n_segs, double a, double b, int at_a,
              int steps, double za, double zb)
{
  Column c = { 0.0, 0.0, -1 };
  double inner = at_a ? a : b;

  for (int k = 0; k <= steps; k++)
    {
      /* From the far end in: the far half, then halves of what is left,
       * the last piece reaching the edge itself. */
      double len = (b - a) * ldexp (1.0, -k), next = k == steps ? 0.0 : 0.5 * len;
      double lo = at_a ? inner + next : inner - len, hi = at_a ? inner + len : inner - next;
      Column part;

      if (!(hi > lo))
        continue;
      part = gauss_piece (m, w, n_segs, lo, hi, za, zb);
      add_column (&c, &part, 1.0);
    }
  return c;
}

/* At the line x through [za, zb]: for each interval of the slice, its
 * layer in lay[i] (−1: none, −2: of no extent), and v − vmin at its top
 * and bottom in g[2i], g[2i + 1].  Returns how many intervals. */
static size_t
side_values (const fr_raster_model *m, Work *w, size_t n_segs, double x, double za, double zb,
             long *lay, double *g)
{
  Profile *pr = &w->cut;

  profile_build_slice (m, w->segs, n_segs, x, za, zb, &w->inside, pr);
  for (size_t i = 0; i <= pr->n; i++)
    {
      const double z1 = i == 0 ? za : pr->breaks[i - 1].z, z2 = i == pr->n ? zb : pr->breaks[i].z;
      long k = fill_layer (m, pr->fills[i]);

      /* An interval of no extent (a layer pinched out onto the next
       * interface, or hidden under an obstacle's edge on its interface)
       * holds nothing to clamp (helper-68). */
      lay[i] = k >= 0 && !(z2 > z1) ? -2 : k;
      if (lay[i] < 0)
        continue;
      {
        const fr_raster_layer *l = &m->layers[k];
        const double a = l->v_top + lateral (l, x) - l->dvdz * pr->h[k] - FR_RASTER_MIN_VELOCITY;

        g[2 * i] = a + l->dvdz * z1;
        g[2 * i + 1] = a + l->dvdz * z2;
      }
    }
  return pr->n + 1;
}

/* A piece's integral where a layer's gradient reaches the clamp in it.
 * Inside a piece every boundary is straight and the breaks keep their
 * order, and each layer's v is linear along each boundary: so v − vmin
 * at each interval's top and bottom, taken on two lines inside the piece,
 * gives it on the whole piece, where it reaches the clamp, and where the
 * clamp's edge meets a boundary, which is a kink of the integral in x that
 * the piece's kinks do not know of.  The piece is cut there (the Gauss
 * points had missed a nearly impermeable sliver: a cell read open, with
 * no clamp reported; helper-63, and helper-66 for a layer narrowing to a
 * point on the piece's side).  depth: halvings left should the two lines
 * disagree in their breaks. */
static __attribute__ ((noinline, cold)) Column
clamp_kinks (const fr_raster_model *m, Work *w, size_t n_segs, double p, double q, double za,
             double zb, Column piece, int depth)
{
  const double xa = p + 0.25 * (q - p), xb = q - 0.25 * (q - p);
  size_t na, nb, n_roots = 0;
  long clamped = piece.clamped;
  int grade_p = 0, grade_q = 0;
  /* How far the log's steep part reaches, at the least: v/|dv/dx| at the
   * edge graded toward, as a fraction of the piece. */
  double reach = 1.0;

  if (!(xb > xa))
    return piece;
  na = side_values (m, w, n_segs, xa, za, zb, w->side_layer[0], w->side_g[0]);
  nb = side_values (m, w, n_segs, xb, za, zb, w->side_layer[1], w->side_g[1]);
  if (na != nb || memcmp (w->side_layer[0], w->side_layer[1], na * sizeof (long)) != 0)
    {
      /* Should not happen inside a piece: halve and look again. */
      const double mid = 0.5 * (p + q);
      Column left, right;

      if (depth == 0 || !(mid > p && q > mid))
        return piece;
      left = clamp_kinks (m, w, n_segs, p, mid, za, zb, gauss_piece (m, w, n_segs, p, mid, za, zb),
                          depth - 1);
      right = clamp_kinks (m, w, n_segs, mid, q, za, zb, gauss_piece (m, w, n_segs, mid, q, za, zb),
                           depth - 1);
      add_column (&left, &right, 1.0);
      return left;
    }
  for (size_t i = 0; i < 2 * na; i++)
    {
      double ga, gb, slope, gp, gq, touch;

      if (w->side_layer[0][i / 2] < 0)
        continue;
      ga = w->side_g[0][i];
      gb = w->side_g[1][i];
      slope = (gb - ga) / (xb - xa);
      gp = ga + slope * (p - xa);
      gq = ga + slope * (q - xa);
      /* Reaching the clamp on a side only up to rounding (an edge along
       * the cell's face, through its corner) clamps nothing in it. */
      touch = 1e-9 * (fabs (ga) + fabs (gb));
      if (gp < -touch || gq < -touch)
        clamped = w->side_layer[0][i / 2];
      if ((gp > 0.0) != (gq > 0.0) && slope != 0.0)
        {
          double root = xa - ga / slope;

          /* An edge on a side up to rounding is graded toward, not cut at
           * (a cut there left the piece ungraded and 3 times off;
           * helper-69). */
          if (root > p + 1e-9 * (q - p) && root < q - 1e-9 * (q - p))
            w->roots[n_roots++] = root;
          else if (root < 0.5 * (p + q))
            grade_p = 1;
          else
            grade_q = 1;
          reach = fmin (reach, FR_RASTER_MIN_VELOCITY / (fabs (slope) * (q - p)));
        }
      /* Open at both sides, but v more than doubles across the piece: 1/v
       * is too curved for one Gauss piece (16-fold had been 5.6 % off;
       * helper-68), the more so toward the clamp. */
      else if (gp > 0.0 && gq > 0.0
               && fmax (gp, gq) + FR_RASTER_MIN_VELOCITY
                  > 2.0 * (fmin (gp, gq) + FR_RASTER_MIN_VELOCITY))
        {
          if (gp < gq)
            grade_p = 1;
          else
            grade_q = 1;
          reach = fmin (reach, (fmin (gp, gq) + FR_RASTER_MIN_VELOCITY) / (fabs (slope) * (q - p)));
        }
    }
  if (clamped < 0 && n_roots == 0 && !grade_p && !grade_q)
    return piece;
  if (n_roots > 0 || grade_p || grade_q)
    {
      /* Halves down to a tenth of the reach: 2 to 32 of them. */
      const int steps = (int) fmin (fmax (ceil (log2 (10.0 / fmax (reach, 1e-300))), 2.0), 32.0);

      sort_doubles (w->roots, n_roots);
      piece = (Column) { 0.0, 0.0, -1 };
      for (size_t i = 0; i <= n_roots; i++)
        {
          const double a = i == 0 ? p : w->roots[i - 1], b = i == n_roots ? q : w->roots[i];
          const int at_a = i > 0 || grade_p, at_b = i < n_roots || grade_q;
          const double mid = 0.5 * (a + b);
          Column part;

          if (!(b > a))
            continue;
          /* Graded toward each clamp edge the part has, from its middle. */
          if (at_a && at_b)
            {
              part = graded_piece (m, w, n_segs, a, mid, 1, steps, za, zb);
              add_column (&piece, &part, 1.0);
              part = graded_piece (m, w, n_segs, mid, b, 0, steps, za, zb);
            }
          else if (at_a || at_b)
            part = graded_piece (m, w, n_segs, a, b, at_a, steps, za, zb);
          else
            part = gauss_piece (m, w, n_segs, a, b, za, zb);
          add_column (&piece, &part, 1.0);
        }
    }
  piece.clamped = clamped;
  return piece;
}

/* Whether some layer's gradient can take its speed to the clamp inside
 * the grid (a bound over the grid's box): where none can, clamp_kinks
 * is skipped. */
static int
model_may_clamp (const fr_raster_model *m, const fr_grid *grid)
{
  const double x0 = grid->x0 - grid->dx, x1 = grid->x0 + (double) grid->nx * grid->dx;
  const double z0 = grid->z0 - grid->dz, z1 = grid->z0 + (double) grid->nz * grid->dz;

  for (size_t k = 0; k < m->n_layers; k++)
    {
      const fr_raster_layer *l = &m->layers[k];
      double hmin = l->z[0], hmax = l->z[0], least, below;

      if (l->dvdz == 0.0 && l->dvdx == 0.0)
        continue;
      for (size_t i = 1; i < l->n; i++)
        {
          hmin = fmin (hmin, l->z[i]);
          hmax = fmax (hmax, l->z[i]);
        }
      /* v_top + dvdz·(z − h) + dvdx·(x − x_ref) over the box, at its corners; a
       * layer lies below its interface (z − h ≥ 0) but for the first one
       * over no background, which also fills what lies above it. */
      below = z0 - hmax;
      if ((k > 0 || m->background_grid != NULL) && below < 0.0)
        below = 0.0;
      least = l->v_top + fmin (l->dvdz * below, l->dvdz * (z1 - hmin))
              + fmin (lateral (l, x0), lateral (l, x1));
      if (!(least > FR_RASTER_MIN_VELOCITY))
        return 1;
    }
  return 0;
}

/* Whether some whole row of the grid, [z − dz/2, z + dz/2], lies within
 * [lo, hi] (lo may be −∞), with the row loop's own arithmetic. */
static int
band_has_row (const fr_grid *grid, double lo, double hi)
{
  double first = isfinite (lo) ? ceil ((lo - grid->z0) / grid->dz + 0.5) : 0.0;

  if (!(first >= 0.0))
    first = 0.0;
  for (double iz = first; iz <= first + 1.0 && iz < (double) grid->nz; iz++)
    {
      const double zc = grid->z0 + (size_t) iz * grid->dz;

      if (zc - 0.5 * grid->dz >= lo && zc + 0.5 * grid->dz <= hi)
        return 1;
    }
  return 0;
}

/* Whether layer l's velocity varies little enough across each band piece
 * of the row [za, zb] for one 3-point Gauss piece in x: at most by
 * BAND_SMOOTH (about 4e-8 off by Gauss's error, where a doubling is 3e-5).
 * It is linear on each piece (no node of l inside), so its corners bound
 * it.  Else the row takes the column's pieces, finer or the same, as
 * before the bands (a steep interface under a strong gradient). */
#define BAND_SMOOTH 1.25

static int
band_smooth (const fr_raster_layer *l, const Work *w, size_t first, size_t count, double za,
             double zb)
{
  for (size_t i = first; i < first + count; i++)
    {
      double lo = INFINITY, hi = -INFINITY;

      for (int e = 0; e < 2; e++)
        {
          const double x = w->pieces[2 * i + e], h = w->piece_h[2 * i + e];
          const double v1 = l->v_top + l->dvdz * (za - h) + lateral (l, x);
          const double v2 = l->v_top + l->dvdz * (zb - h) + lateral (l, x);

          lo = fmin (lo, fmin (v1, v2));
          hi = fmax (hi, fmax (v1, v2));
        }
      if (!(lo > 0.0 && hi <= BAND_SMOOTH * lo))
        return 0;
    }
  return 1;
}

/* Fills grid column ix.  Along x each cell is cut at every kink (nodes,
 * vertices, background faces, and where a segment crosses the cell's top
 * or bottom), and each piece is integrated with 3-point Gauss–Legendre;
 * along z exactly, through the profiles at the Gauss points.  A cell that
 * no segment crosses reuses the column's profiles, cut at all of the
 * column's kinks, or in a row that one layer fills alone its band's, cut
 * at that layer's kinks only; a cell with crossings builds its own slices, at its
 * own kinks (the vertices within its depths), and so do all the cells of
 * a column whose profiles would not fit POOL_MAX_BREAKS. */
static int
fill_column (const fr_raster_model *m, const fr_grid *grid, size_t ix, Work *w, float *out,
             ColumnClamps *clamps)
{
  const double xc = grid->x0 + ix * grid->dx, xa = xc - 0.5 * grid->dx, xb = xc + 0.5 * grid->dx;
  /* Segments just outside are kept too: a crossing's x may round past
   * its segment's end. */
  const double margin = 1e-6 * grid->dx;
  size_t n_segs = 0, n_fixed = 0, n_always = 0, n_vert = 0, n_pieces, n_cross, next_cross = 0;
  size_t n_band_pieces = 0, n_nodes_always, band = 0;
  size_t b = m->n_layers;
  int sliced = 0;   /* no column profiles: every cell built slice by slice */

  w->fixed[n_fixed++] = w->always[n_always++] = xa;
  w->fixed[n_fixed++] = w->always[n_always++] = xb;
  for (size_t k = 0; k < m->n_layers; k++)
    {
      const fr_raster_layer *l = &m->layers[k];
      double ha = fr_raster_interface_z (l, xa), hb = fr_raster_interface_z (l, xb);

      /* The interface's depths over the column, for the bands below:
       * least in band_hi, greatest in band_lo for now. */
      w->band_hi[k] = fmin (ha, hb);
      w->band_lo[k] = fmax (ha, hb);
      if (l->x[l->n - 1] > xa && l->x[0] < xb)
        for (size_t i = 0; i < l->n; i++)
          if (l->x[i] > xa && l->x[i] < xb)
            {
              w->band_hi[k] = fmin (w->band_hi[k], l->z[i]);
              w->band_lo[k] = fmax (w->band_lo[k], l->z[i]);
            }
      /* The interface goes on flat beyond its end nodes: only another
       * edge crossing it can make a kink there. */
      if (l->x[0] > xa - margin)
        w->segs[n_segs++] = (Segment) { fmin (xa, l->x[0]) - margin, l->z[0], l->x[0], l->z[0], -1 };
      if (l->x[l->n - 1] < xb + margin)
        w->segs[n_segs++] = (Segment) { l->x[l->n - 1], l->z[l->n - 1],
                                        fmax (xb, l->x[l->n - 1]) + margin, l->z[l->n - 1], -1 };
      if (l->x[l->n - 1] <= xa || l->x[0] >= xb)
        continue;
      for (size_t i = 0; i < l->n; i++)
        {
          /* A kink of every cell below too, through the layer's gradient
           * from its interface. */
          add_if_inside (w->always, &n_always, l->x[i], xa, xb);
          add_if_inside (w->fixed, &n_fixed, l->x[i], xa, xb);
          if (i + 1 < l->n && l->x[i + 1] >= xa - margin && l->x[i] <= xb + margin)
            w->segs[n_segs++] = (Segment) { l->x[i], l->z[i], l->x[i + 1], l->z[i + 1], -1 };
        }
    }
  for (size_t k = 0; k < m->n_obstacles; k++)
    {
      const fr_raster_obstacle *o = &m->obstacles[k];

      for (size_t i = 0; i < o->n; i++)
        {
          size_t j = i + 1 == o->n ? 0 : i + 1;

          add_vertex (w, &n_fixed, &n_vert, o->x[i], o->z[i], xa, xb);
          if (fmax (o->x[i], o->x[j]) >= xa - margin && fmin (o->x[i], o->x[j]) <= xb + margin)
            {
              w->segs[n_segs++] = (Segment) { o->x[i], o->z[i], o->x[j], o->z[j], (long) k };
              b++;
            }
        }
    }
  n_nodes_always = n_always;   /* the background faces follow */
  if (m->background_grid != NULL)
    {
      const fr_grid *g = m->background_grid;
      /* The faces between background columns i and i + 1, at
       * x0 + (i + 1/2)·dx for i from 0 to nx − 2; the edge columns go on
       * beyond them.  Counted by index, not by adding dx, which a spacing
       * below the coordinates' rounding left standing still; and never
       * past the room kept (a quotient of huge coordinates may round a
       * face or two too many). */
      double first = ceil ((xa - g->x0) / g->dx - 0.5), last = floor ((xb - g->x0) / g->dx - 0.5);

      if (!(first >= 0.0))
        first = 0.0;
      if (!(last <= (double) g->nx - 2.0))
        last = (double) g->nx - 2.0;
      for (double i = first; i <= last && n_fixed < w->cap_fixed; i++)
        {
          add_if_inside (w->always, &n_always, g->x0 + (i + 0.5) * g->dx, xa, xb);
          add_if_inside (w->fixed, &n_fixed, g->x0 + (i + 0.5) * g->dx, xa, xb);
        }
    }
  sort_doubles (w->fixed, n_fixed);

  /* Where two segments cross inside the column, the boundary a cell's
   * material follows turns from one to the other: a kink in x at that
   * depth (two walls' edges crossing in an X decided a cell's "at least
   * half" wrongly; helper-61). */
  n_cross = 0;
  for (size_t i = 0; i < n_segs; i++)
    for (size_t j = i + 1; j < n_segs; j++)
      {
        Crossing c;

        if (!segments_cross (&w->segs[i], &w->segs[j], &c) || !(c.x > xa && c.x < xb))
          continue;
        if (n_cross == w->cap_cross)
          {
            size_t cap = 2 * w->cap_cross + 16;
            Crossing *more = realloc (w->cross, cap * sizeof *more);

            if (more == NULL)
              return 0;
            w->cross = more;
            w->cap_cross = cap;
          }
        w->cross[n_cross++] = c;
      }
  if (n_cross > 1)
    qsort (w->cross, n_cross, sizeof *w->cross, compare_crossings);
  /* A cell may hold every crossing of its column. */
  if (n_cross > 0)
    {
      size_t need = w->cap_level + n_cross;
      double *level = realloc (w->level, (need + 1) * sizeof *level);
      double *xs;

      if (level == NULL)
        return 0;
      w->level = level;
      if ((xs = realloc (w->xs, (w->cap_fixed + need) * sizeof *xs)) == NULL)
        return 0;
      w->xs = xs;
      w->cap_level = need;
    }

  n_pieces = n_fixed - 1;
  if (!reserve_pieces (w, n_pieces))
    return 0;
  for (size_t i = 0; i < n_pieces; i++)
    {
      w->pieces[2 * i] = w->fixed[i];
      w->pieces[2 * i + 1] = w->fixed[i + 1];
    }
  /* Bands: the rows that one layer alone fills in this column, wholly
   * below its interface and above every later one (the first layer's go
   * on upward).  Such a cell follows its own interface's kinks, the
   * obstacles' vertices and the background's faces, not the other
   * interfaces': a horizon picked at thousands of nodes cut every cell of
   * the column at them, above and below it too (2 to 3 times the work with
   * three horizons of 4 001 nodes).  An obstacle's vertex counts only at
   * the band's depths.  Its pieces get profiles of their own, built only
   * where a whole row lies in the band. */
  if (m->n_layers > 0)
    {
      double below = INFINITY;

      for (size_t k = m->n_layers; k-- > 0;)
        {
          const double least = w->band_hi[k];

          w->band_hi[k] = below;
          below = fmin (below, least);
        }
      w->band_lo[0] = -INFINITY;
    }
  for (size_t k = 0; k < m->n_layers; k++)
    {
      const fr_raster_layer *l = &m->layers[k];
      size_t n = 0;

      w->band_count[k] = 0;
      if (!band_has_row (grid, w->band_lo[k], w->band_hi[k]))
        continue;
      w->band_x[n++] = xa;
      w->band_x[n++] = xb;
      if (l->x[l->n - 1] > xa && l->x[0] < xb)
        for (size_t i = 0; i < l->n; i++)
          add_if_inside (w->band_x, &n, l->x[i], xa, xb);
      for (size_t i = 0; i < n_vert; i++)
        if (w->vz[i] >= w->band_lo[k] && w->vz[i] <= w->band_hi[k])
          w->band_x[n++] = w->vx[i];
      memcpy (w->band_x + n, w->always + n_nodes_always, (n_always - n_nodes_always) * sizeof *w->band_x);
      n += n_always - n_nodes_always;
      if (n - 1 >= n_pieces)
        continue;
      sort_doubles (w->band_x, n);
      if (!reserve_pieces (w, n_pieces + n_band_pieces + n - 1))
        return 0;
      w->band_first[k] = n_pieces + n_band_pieces;
      w->band_count[k] = n - 1;
      for (size_t i = 0; i + 1 < n; i++)
        {
          const size_t j = w->band_first[k] + i;

          w->pieces[2 * j] = w->band_x[i];
          w->pieces[2 * j + 1] = w->band_x[i + 1];
          w->piece_h[2 * j] = fr_raster_interface_z (l, w->band_x[i]);
          w->piece_h[2 * j + 1] = fr_raster_interface_z (l, w->band_x[i + 1]);
        }
      n_band_pieces += n - 1;
    }
  /* The bands' profiles only where they surely fit in the pool with the
   * column's own (b breaks at most each): past its bound they would be
   * built and dropped. */
  if (3 * (n_pieces + n_band_pieces) * (b + 1) > POOL_MAX_BREAKS)
    {
      for (size_t k = 0; k < m->n_layers; k++)
        w->band_count[k] = 0;
      n_band_pieces = 0;
    }

  if (!work_reserve_profiles (w, m, 3 * (n_pieces + n_band_pieces)))
    return 0;
  {
    size_t used_breaks = 0, used_fills = 0, n_built = 0;

    for (size_t i = 0; i < 3 * (n_pieces + n_band_pieces); i++)
      {
        Profile *pr = &w->profiles[i];
        double p = w->pieces[2 * (i / 3)], q = w->pieces[2 * (i / 3) + 1];

        /* The pool may move as it grows: the profiles point into it once
         * it is whole. */
        pr->n = 0;
        pr->at = used_breaks;
        if (!(q > p))
          continue;
        switch (profile_pool (w, used_breaks, used_fills, b))
          {
          case -1:
            return 0;
          case 0:
            /* Past the pool's bound: without the fixed profiles every cell
             * is built slice by slice; without the bands', the bands' rows
             * take the fixed ones. */
            if (i < 3 * n_pieces)
              sliced = 1;
            for (size_t k = 0; k < m->n_layers; k++)
              w->band_count[k] = 0;
            break;
          default:
            pr->breaks = w->breaks + used_breaks;
            pr->fills = w->fills + used_fills;
            profile_build (m, w->segs, n_segs, 0.5 * (p + q) + 0.5 * (q - p) * gauss_x[i % 3],
                           &w->inside, pr);
            used_breaks += pr->n;
            used_fills += pr->n + 1;
            n_built = i + 1;
            continue;
          }
        break;
      }
    for (size_t i = 0, fills = 0; i < n_built && !sliced; i++)
      {
        Profile *pr = &w->profiles[i];

        if (!(w->pieces[2 * (i / 3) + 1] > w->pieces[2 * (i / 3)]))
          continue;
        pr->breaks = w->breaks + pr->at;
        pr->fills = w->fills + fills;
        fills += pr->n + 1;
      }
  }

  *clamps = (ColumnClamps) { 0 };
  for (size_t iz = 0; iz < grid->nz; iz++)
    {
      const double zc = grid->z0 + iz * grid->dz, za = zc - 0.5 * grid->dz, zb = zc + 0.5 * grid->dz;
      Column c = { 0.0, 0.0, -1 };
      size_t n_level = 0, n = 0;
      long clamped;

      for (size_t i = 0; i < n_segs; i++)
        {
          const Segment *s = &w->segs[i];

          add_level_crossing (w->level, &n_level, s->x1, s->z1, s->x2, s->z2, za, xa, xb);
          add_level_crossing (w->level, &n_level, s->x1, s->z1, s->x2, s->z2, zb, xa, xb);
        }
      while (next_cross < n_cross && !(w->cross[next_cross].z > za))
        next_cross++;
      for (size_t i = next_cross; i < n_cross && w->cross[i].z < zb; i++)
        w->level[n_level++] = w->cross[i].x;
      /* Where an edge crosses a background row's face inside the cell the
       * column's integral has a kink in x as well: the material above and
       * below the face changes there (as at the faces between background
       * columns above). */
      if (m->background_grid != NULL && n_segs > 0)
        {
          const fr_grid *g = m->background_grid;
          double first = ceil ((za - g->z0) / g->dz - 0.5), last = floor ((zb - g->z0) / g->dz - 0.5);
          size_t faces = 0;

          if (!(first >= 0.0))
            first = 0.0;
          if (!(last <= (double) g->nz - 2.0))
            last = (double) g->nz - 2.0;
          for (double j = first; j <= last && faces < w->row_faces; j++, faces++)
            {
              const double face = g->z0 + (j + 0.5) * g->dz;

              if (face > za && face < zb)
                for (size_t i = 0; i < n_segs; i++)
                  {
                    const Segment *s = &w->segs[i];

                    add_level_crossing (w->level, &n_level, s->x1, s->z1, s->x2, s->z2, face, xa, xb);
                  }
            }
        }

      if (n_level == 0 && !sliced)
        {
          size_t first = 0, count = n_pieces;

          /* The band this row lies in, if it lies in one: the bands come
           * down the column in order, and so do the rows. */
          while (band < m->n_layers && w->band_hi[band] < za)
            band++;
          if (band < m->n_layers && w->band_count[band] > 0 && za >= w->band_lo[band] &&
              zb <= w->band_hi[band] &&
              band_smooth (&m->layers[band], w, w->band_first[band], w->band_count[band], za, zb))
            {
              first = w->band_first[band];
              count = w->band_count[band];
            }
          for (size_t i = first; i < first + count; i++)
            {
              double p = w->pieces[2 * i], q = w->pieces[2 * i + 1], half = 0.5 * (q - p);

              Column piece = { 0.0, 0.0, -1 };

              if (!(q > p))
                continue;
              for (int g = 0; g < 3; g++)
                {
                  Column col = { 0.0, 0.0, -1 };

                  profile_integrate (m, &w->profiles[3 * i + g], za, zb, &col);
                  add_column (&piece, &col, gauss_w[g] * half);
                }
              if (w->may_clamp)
                piece = clamp_kinks (m, w, n_segs, p, q, za, zb, piece, 8);
              add_column (&c, &piece, 1.0);
            }
        }
      else
        {
          /* Its own kinks: an obstacle's vertex above or below it is no
           * kink of its slice (a flank of thousands of vertices in one
           * column cut every cell of it at all of them). */
          memcpy (w->xs, w->always, n_always * sizeof *w->xs);
          n = n_always;
          for (size_t i = 0; i < n_vert; i++)
            if (w->vz[i] >= za && w->vz[i] <= zb)
              w->xs[n++] = w->vx[i];
          memcpy (w->xs + n, w->level, n_level * sizeof *w->xs);
          n += n_level;
          sort_doubles (w->xs, n);
          for (size_t i = 0; i + 1 < n; i++)
            {
              double p = w->xs[i], q = w->xs[i + 1];
              Column piece;

              if (!(q > p))
                continue;
              piece = gauss_piece (m, w, n_segs, p, q, za, zb);
              if (w->may_clamp)
                piece = clamp_kinks (m, w, n_segs, p, q, za, zb, piece, 8);
              add_column (&c, &piece, 1.0);
            }
        }

      out[fr_grid_index (grid, ix, 0, iz)] = cell_velocity (&c, (xb - xa) * (zb - za), &clamped);
      if (clamped >= 0 && clamps->count++ == 0)
        {
          clamps->iz = iz;
          clamps->layer = (size_t) clamped;
        }
    }
  return 1;
}

fr_status
fr_raster_fill (const fr_raster_model *m, const fr_grid *grid, float *out, fr_error *err)
{
  return fr_raster_fill_report (m, grid, out, NULL, err);
}

fr_status
fr_raster_fill_report (const fr_raster_model *m, const fr_grid *grid, float *out,
                       fr_raster_report *report, fr_error *err)
{
  ColumnClamps *clamps;
  size_t n_segs = 0, n_fixed = 2, row_faces = 0;
  int failed = 0, may_clamp;
  fr_status st;

  if ((st = fr_raster_check (m, err)) != FR_OK)
    return st;
  if (grid == NULL || grid->ndim != 2 || out == NULL)
    return fr_error_set (err, FR_E_INPUT, "rasterise: a 2D grid and an output are needed");
  if ((st = fr_grid_check (grid, err)) != FR_OK)
    return st;

  for (size_t k = 0; k < m->n_layers; k++)
    {
      n_segs += m->layers[k].n + 2;
      n_fixed += m->layers[k].n;
    }
  for (size_t k = 0; k < m->n_obstacles; k++)
    {
      n_segs += m->obstacles[k].n;
      n_fixed += m->obstacles[k].n;
    }
  if (m->background_grid != NULL)
    {
      /* A column's background faces: its width in background columns,
       * and never more than the background has. */
      double faces = ceil (grid->dx / m->background_grid->dx) + 2.0;

      n_fixed += faces < (double) m->background_grid->nx ? (size_t) faces
                                                         : m->background_grid->nx;
      faces = ceil (grid->dz / m->background_grid->dz) + 2.0;
      row_faces = faces < (double) m->background_grid->nz ? (size_t) faces
                                                          : m->background_grid->nz;
    }

  if ((clamps = calloc (grid->nx, sizeof *clamps)) == NULL)
    return fr_error_set (err, FR_E_NOMEM, "rasterise: out of memory");
  may_clamp = model_may_clamp (m, grid);

#if FOLDRAY_HAVE_OPENMP
#pragma omp parallel if (grid->nx * grid->nz > 4096)
#endif
  {
    Work w;
    int ok = work_init (&w, m, n_segs, n_fixed, row_faces);

    w.may_clamp = may_clamp;
#if FOLDRAY_HAVE_OPENMP
#pragma omp for schedule(dynamic, 8)
#endif
    for (long ix = 0; ix < (long) grid->nx; ix++)
      if (ok)
        ok = fill_column (m, grid, (size_t) ix, &w, out, &clamps[ix]);
    if (!ok)
      {
#if FOLDRAY_HAVE_OPENMP
#pragma omp atomic write
#endif
        failed = 1;
      }
    work_clear (&w);
  }
  if (failed)
    {
      free (clamps);
      return fr_error_set (err, FR_E_NOMEM, "rasterise: out of memory");
    }

  if (report != NULL)
    {
      /* The first clamped cell in z, then in x. */
      *report = (fr_raster_report) { 0 };
      size_t first = grid->nx;

      for (size_t ix = 0; ix < grid->nx; ix++)
        if (clamps[ix].count > 0)
          {
            if (first == grid->nx || clamps[ix].iz < clamps[first].iz)
              first = ix;
            report->clamped_cells += clamps[ix].count;
          }
      if (first < grid->nx)
        {
          report->layer = clamps[first].layer;
          report->x = grid->x0 + (double) first * grid->dx;
          report->z = grid->z0 + (double) clamps[first].iz * grid->dz;
        }
    }
  free (clamps);
  return FR_OK;
}
