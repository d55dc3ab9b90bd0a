/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Cell-averaged rasterisation of layers, gradients and obstacles (see
 * fr-raster.h for the model and the quadrature). */
#include "fr-raster.h"
#include "fr-omp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* The layer at depth z, given each interface's depth h[k] at this x, or -1
 * above all of them. */
static long
layer_at (const fr_raster_model *m, const double *h, double z)
{
  for (size_t k = m->n_layers; k-- > 0;)
    if (h[k] <= z)
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
        return clamp_v (l->v_top + l->dvdz * (z - h) + l->dvdx * x);
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
  double a = l->v_top + l->dvdx * x - l->dvdz * h;

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

static void
sort_doubles (double *a, size_t n)
{
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

typedef struct
{
  double *xs;     /* x breakpoints of one cell */
  double *zs;     /* z breakpoints of one column */
  double *h;      /* interface depths at one x */
} Scratch;

/* The column at x through [za, zb], exact in z. */
static void
integrate_column (const fr_raster_model *m, Scratch *s, double x, double za, double zb, Column *c)
{
  size_t nz = 0;

  s->zs[nz++] = za;
  s->zs[nz++] = zb;
  for (size_t k = 0; k < m->n_layers; k++)
    {
      s->h[k] = fr_raster_interface_z (&m->layers[k], x);
      if (s->h[k] > za && s->h[k] < zb)
        s->zs[nz++] = s->h[k];
    }
  for (size_t k = 0; k < m->n_obstacles; k++)
    {
      const fr_raster_obstacle *o = &m->obstacles[k];
      double zc;

      for (size_t i = 0; i < o->n; i++)
        if (edge_crosses_x (o, i, x, &zc) && zc > za && zc < zb)
          s->zs[nz++] = zc;
    }
  sort_doubles (s->zs, nz);

  for (size_t i = 0; i + 1 < nz; i++)
    {
      double z1 = s->zs[i], z2 = s->zs[i + 1], zm = 0.5 * (z1 + z2);
      long k;

      if (!(z2 > z1))
        continue;
      if ((k = obstacle_at (m, x, zm)) >= 0)
        {
          add_velocity (c, m->obstacles[k].velocity, z2 - z1);
          continue;
        }
      k = layer_at (m, s->h, zm);
      if (k >= 0)
        integrate_layer (m, k, s->h[k], x, z1, z2, c);
      else if (m->background_grid != NULL)
        integrate_background (m, x, z1, z2, c);
      else if (m->n_layers > 0)
        integrate_layer (m, 0, s->h[0], x, z1, z2, c);
      else
        add_velocity (c, m->default_velocity, z2 - z1);
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

/* The cell [xa, xb] × [za, zb]; *clamped: a layer whose gradient reached
 * the clamp inside it (the cell not a wall), or -1. */
static float
rasterise_cell (const fr_raster_model *m, Scratch *s, double xa, double xb, double za, double zb,
                long *clamped)
{
  static const double gx[3] = { -0.7745966692414834, 0.0, 0.7745966692414834 };
  static const double gw[3] = { 5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0 };
  Column c = { 0.0, 0.0, -1 };
  double area = (xb - xa) * (zb - za), open;
  size_t n = 0;

  s->xs[n++] = xa;
  s->xs[n++] = xb;
  for (size_t k = 0; k < m->n_layers; k++)
    {
      const fr_raster_layer *l = &m->layers[k];

      if (l->x[l->n - 1] <= xa || l->x[0] >= xb)
        continue;
      for (size_t i = 0; i < l->n; i++)
        {
          add_if_inside (s->xs, &n, l->x[i], xa, xb);
          if (i + 1 < l->n)
            {
              add_level_crossing (s->xs, &n, l->x[i], l->z[i], l->x[i + 1], l->z[i + 1], za, xa, xb);
              add_level_crossing (s->xs, &n, l->x[i], l->z[i], l->x[i + 1], l->z[i + 1], zb, xa, xb);
            }
        }
    }
  for (size_t k = 0; k < m->n_obstacles; k++)
    {
      const fr_raster_obstacle *o = &m->obstacles[k];

      for (size_t i = 0; i < o->n; i++)
        {
          size_t j = i + 1 == o->n ? 0 : i + 1;

          add_if_inside (s->xs, &n, o->x[i], xa, xb);
          add_level_crossing (s->xs, &n, o->x[i], o->z[i], o->x[j], o->z[j], za, xa, xb);
          add_level_crossing (s->xs, &n, o->x[i], o->z[i], o->x[j], o->z[j], zb, xa, xb);
        }
    }
  if (m->background_grid != NULL)
    {
      const fr_grid *g = m->background_grid;
      double f = ceil ((xa - g->x0) / g->dx - 0.5);

      /* Background column faces at x0 + (i + 1/2)·dx. */
      for (double face = g->x0 + (f + 0.5) * g->dx; face < xb; face += g->dx)
        add_if_inside (s->xs, &n, face, xa, xb);
    }
  sort_doubles (s->xs, n);

  for (size_t i = 0; i + 1 < n; i++)
    {
      double p = s->xs[i], q = s->xs[i + 1], mid = 0.5 * (p + q), half = 0.5 * (q - p);

      if (!(q > p))
        continue;
      for (int g = 0; g < 3; g++)
        {
          Column col = { 0.0, 0.0, -1 };

          integrate_column (m, s, mid + half * gx[g], za, zb, &col);
          c.slow += gw[g] * half * col.slow;
          c.blocked += gw[g] * half * col.blocked;
          if (col.clamped >= 0)
            c.clamped = col.clamped;
        }
    }

  *clamped = -1;
  open = area - c.blocked;
  /* "At least half" up to the integral's rounding: a wall drawn to a node
   * line covers its edge cells exactly half, and rounding opened some of
   * them and not others (the bundled maze's top row over two walls). */
  if (c.blocked >= 0.5 * area * (1.0 - 1e-9) || !(open > 0.0) || !(c.slow > 0.0))
    return 0.0f;
  *clamped = c.clamped;
  return (float) (open / c.slow);
}

/* One row's clamped cells (fr_raster_fill_report): how many, and the
 * first one's column and layer.  Rows fill in parallel; the report then
 * takes the first row that has any. */
typedef struct
{
  size_t count, ix, layer;
} RowClamps;

fr_status
fr_raster_fill (const fr_raster_model *m, const fr_grid *grid, float *out, fr_error *err)
{
  return fr_raster_fill_report (m, grid, out, NULL, err);
}

fr_status
fr_raster_fill_report (const fr_raster_model *m, const fr_grid *grid, float *out,
                       fr_raster_report *report, fr_error *err)
{
  RowClamps *rows = NULL;
  size_t cap_x = 2, cap_z = 2, bg_faces = 0;
  double *buf;
  fr_status st;

  if ((st = fr_raster_check (m, err)) != FR_OK)
    return st;
  if (grid == NULL || grid->ndim != 2 || out == NULL)
    return fr_error_set (err, FR_E_INPUT, "rasterise: a 2D grid and an output are needed");
  if ((st = fr_grid_check (grid, err)) != FR_OK)
    return st;

  for (size_t k = 0; k < m->n_layers; k++)
    {
      cap_x += 3 * m->layers[k].n;
      cap_z += 1;
    }
  for (size_t k = 0; k < m->n_obstacles; k++)
    {
      cap_x += 3 * m->obstacles[k].n;
      cap_z += m->obstacles[k].n;
    }
  if (m->background_grid != NULL)
    bg_faces = (size_t) ceil (grid->dx / m->background_grid->dx) + 2;
  cap_x += bg_faces;

  const size_t n_threads = (size_t) fr_omp_max_threads ();
  buf = malloc (n_threads * (cap_x + cap_z + m->n_layers + 1) * sizeof (double));
  rows = calloc (grid->nz, sizeof *rows);
  if (buf == NULL || rows == NULL)
    {
      free (buf);
      free (rows);
      return fr_error_set (err, FR_E_NOMEM, "rasterise: out of memory");
    }

#if FOLDRAY_HAVE_OPENMP
#pragma omp parallel for schedule(dynamic, 4) if (grid->nx * grid->nz > 4096)
#endif
  for (long iz = 0; iz < (long) grid->nz; iz++)
    {
      const size_t t = (size_t) fr_omp_thread_num ();
      Scratch s;

      s.xs = buf + t * (cap_x + cap_z + m->n_layers + 1);
      s.zs = s.xs + cap_x;
      s.h = s.zs + cap_z;
      for (size_t ix = 0; ix < grid->nx; ix++)
        {
          double xc = grid->x0 + ix * grid->dx, zc = grid->z0 + iz * grid->dz;
          long clamped;

          out[fr_grid_index (grid, ix, 0, (size_t) iz)] =
            rasterise_cell (m, &s, xc - 0.5 * grid->dx, xc + 0.5 * grid->dx,
                            zc - 0.5 * grid->dz, zc + 0.5 * grid->dz, &clamped);
          if (clamped >= 0 && rows[iz].count++ == 0)
            {
              rows[iz].ix = ix;
              rows[iz].layer = (size_t) clamped;
            }
        }
    }
  if (report != NULL)
    {
      *report = (fr_raster_report) { 0 };
      for (size_t iz = 0; iz < grid->nz; iz++)
        {
          if (rows[iz].count > 0 && report->clamped_cells == 0)
            {
              report->layer = rows[iz].layer;
              report->x = grid->x0 + (double) rows[iz].ix * grid->dx;
              report->z = grid->z0 + (double) iz * grid->dz;
            }
          report->clamped_cells += rows[iz].count;
        }
    }
  free (buf);
  free (rows);
  return FR_OK;
}
