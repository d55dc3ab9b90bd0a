/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fr-grid.h"
#include "fr-i18n.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

fr_grid
fr_grid_2d (size_t nx, size_t nz, double dx, double dz, double x0, double z0)
{
  fr_grid g = { .ndim = 2, .nx = nx, .ny = 1, .nz = nz,
                .dx = dx, .dy = 1.0, .dz = dz, .x0 = x0, .y0 = 0.0, .z0 = z0 };
  return g;
}

fr_grid
fr_grid_3d (size_t nx, size_t ny, size_t nz, double dx, double dy, double dz,
            double x0, double y0, double z0)
{
  fr_grid g = { .ndim = 3, .nx = nx, .ny = ny, .nz = nz,
                .dx = dx, .dy = dy, .dz = dz, .x0 = x0, .y0 = y0, .z0 = z0 };
  return g;
}

static bool
spacing_ok (double d)
{
  return isfinite (d) && d > 0.0;
}

/* The span of n nodes d apart; one node still stands for a cell of size d. */
static double
axis_span (size_t n, double d)
{
  return n > 1 ? (double) (n - 1) * d : d;
}

fr_status
fr_grid_check (const fr_grid *g, fr_error *err)
{
  if (g->ndim != 2 && g->ndim != 3)
    return fr_error_set (err, FR_E_INPUT, "a grid must have 2 or 3 dimensions, not %d", g->ndim);
  if (g->ndim == 2 && g->ny != 1)
    return fr_error_set (err, FR_E_INPUT, "a 2D grid has one node along y, not %zu", g->ny);
  /* Said in the grid's own axes: a 2D grid's y of one node is no input's. */
  if (g->nx < 1 || g->ny < 1 || g->nz < 1)
    return g->ndim == 2
      ? fr_error_set (err, FR_E_INPUT, "grid of %zu x %zu nodes (nx x nz) is empty: it needs a "
                      "node along each axis", g->nx, g->nz)
      : fr_error_set (err, FR_E_INPUT, "grid of %zu x %zu x %zu nodes (nx x ny x nz) is empty: it "
                      "needs a node along each axis", g->nx, g->ny, g->nz);
  if (g->nx > FR_GRID_MAX_NODES / g->ny / g->nz)
    return g->ndim == 2
      ? fr_error_set (err, FR_E_INPUT, "grid of %zu x %zu nodes is too large (at most %zu)",
                      g->nx, g->nz, (size_t) FR_GRID_MAX_NODES)
      : fr_error_set (err, FR_E_INPUT, "grid of %zu x %zu x %zu nodes is too large (at most %zu)",
                      g->nx, g->ny, g->nz, (size_t) FR_GRID_MAX_NODES);
  if (!spacing_ok (g->dx) || !spacing_ok (g->dz) || (g->ndim == 3 && !spacing_ok (g->dy)))
    return fr_error_set (err, FR_E_INPUT, "grid spacing must be finite and positive");
  for (int a = 0; a < 3; a++)
    {
      static const char axis_name[3] = { 'x', 'y', 'z' };
      const size_t n = a == 0 ? g->nx : a == 1 ? g->ny : g->nz;
      const double d = a == 0 ? g->dx : a == 1 ? g->dy : g->dz;
      if (a == 1 && g->ndim == 2)
        continue;
      if (!(axis_span (n, d) <= FR_GRID_MAX_EXTENT))
        return fr_error_set (err, FR_E_INPUT,
                             "grid spacing %g spans %g model units along %c; at most %g is "
                             "supported, so that squared distances fit in double precision",
                             d, axis_span (n, d), axis_name[a], FR_GRID_MAX_EXTENT);
    }
  if (!isfinite (g->x0) || !isfinite (g->y0) || !isfinite (g->z0))
    return fr_error_set (err, FR_E_INPUT, "grid origin must be finite");
  /* Nodes a spacing apart must stay apart in double precision, with
   * digits to spare for positions inside a cell: at 1e12 from the origin a
   * spacing of 1e-4 is below the coordinates' rounding, and the nodes,
   * cell faces and kinks of a model collapse onto each other. */
  for (int a = 0; a < 3; a++)
    {
      static const char axis_name[3] = { 'x', 'y', 'z' };
      const size_t n = a == 0 ? g->nx : a == 1 ? g->ny : g->nz;
      const double d = a == 0 ? g->dx : a == 1 ? g->dy : g->dz;
      const double o = a == 0 ? g->x0 : a == 1 ? g->y0 : g->z0;
      const double far = fmax (fabs (o), fabs (o + (double) (n - 1) * d));

      /* A single node has no neighbour to be told from. */
      if ((a == 1 && g->ndim == 2) || n < 2)
        continue;
      if (!(d >= FR_GRID_MIN_RELATIVE_SPACING * far))
        return fr_error_set (err, FR_E_INPUT,
                             "grid spacing %g along %c is too fine for coordinates as large as "
                             "%g: a spacing must be at least %g of them, so that double precision "
                             "tells the nodes apart", d, axis_name[a], far,
                             FR_GRID_MIN_RELATIVE_SPACING);
    }
  return FR_OK;
}

void
fr_grid_node_position (const fr_grid *g, size_t ix, size_t iy, size_t iz,
                       double *x, double *y, double *z)
{
  if (x) *x = g->x0 + (double) ix * g->dx;
  if (y) *y = g->ndim == 3 ? g->y0 + (double) iy * g->dy : 0.0;
  if (z) *z = g->z0 + (double) iz * g->dz;
}

/* Fractional index of a coordinate along one axis, or false when outside.
 * Up to rounding beyond either end is inside: a millionth of a spacing, as
 * fr_grid_exact_node allows off a node, or a few units in the last place
 * of coordinates that large (an edge written in decimals far from the
 * origin). */
static double
axis_tolerance (double v, double v0, double d)
{
  return fmax (1e-6, 8.0 * DBL_EPSILON * fmax (fabs (v), fabs (v0)) / d);
}

static bool
axis_locate (double v, double v0, double d, size_t n, double *f)
{
  double t = (v - v0) / d;
  const double tol = axis_tolerance (v, v0, d);

  if (!isfinite (t) || t < -tol || t > (double) (n - 1) + tol)
    return false;
  *f = t < 0.0 ? 0.0 : (t > (double) (n - 1) ? (double) (n - 1) : t);
  return true;
}

bool
fr_grid_contains (const fr_grid *g, double x, double y, double z)
{
  double f;
  if (!axis_locate (x, g->x0, g->dx, g->nx, &f) || !axis_locate (z, g->z0, g->dz, g->nz, &f))
    return false;
  return g->ndim == 2 || axis_locate (y, g->y0, g->dy, g->ny, &f);
}

bool
fr_grid_nearest_node (const fr_grid *g, double x, double y, double z,
                      size_t *ix, size_t *iy, size_t *iz)
{
  double fx, fy = 0.0, fz;

  if (!axis_locate (x, g->x0, g->dx, g->nx, &fx) || !axis_locate (z, g->z0, g->dz, g->nz, &fz))
    return false;
  if (g->ndim == 3 && !axis_locate (y, g->y0, g->dy, g->ny, &fy))
    return false;
  if (ix) *ix = (size_t) llround (fx);
  if (iy) *iy = (size_t) llround (fy);
  if (iz) *iz = (size_t) llround (fz);
  return true;
}

/* The cell's first node along an axis and the weight of the next one:
 * the last cell holds a point on the last node. */
static size_t
axis_cell (double f, size_t n, double *w)
{
  size_t i = n > 1 && f >= (double) (n - 1) ? n - 2 : (size_t) f;

  *w = n > 1 ? f - (double) i : 0.0;
  return i;
}

double
fr_grid_sample (const fr_grid *g, const double *v, double x, double y, double z)
{
  double fx, fy = 0.0, fz, w[3];
  size_t i0[3], corner[3];
  double sum = 0.0;
  const int ncorners = g->ndim == 3 ? 8 : 4;

  if (!axis_locate (x, g->x0, g->dx, g->nx, &fx) || !axis_locate (z, g->z0, g->dz, g->nz, &fz)
      || (g->ndim == 3 && !axis_locate (y, g->y0, g->dy, g->ny, &fy)))
    return NAN;
  i0[0] = axis_cell (fx, g->nx, &w[0]);
  i0[1] = axis_cell (fy, g->ny, &w[1]);
  i0[2] = axis_cell (fz, g->nz, &w[2]);
  for (int c = 0; c < ncorners; c++)
    {
      /* Corner c takes the next node along axis a where bit a is set (y
       * is bit 2, left out in 2D). */
      const int bit[3] = { c & 1, (c >> 2) & 1, (c >> 1) & 1 };
      double weight = 1.0, value;

      for (int a = 0; a < 3; a++)
        {
          corner[a] = i0[a] + (size_t) bit[a];
          weight *= bit[a] ? w[a] : 1.0 - w[a];
        }
      /* A corner that does not count (the point on a face of the cell, or
       * an axis of one node) is not read: an unreached node there must not
       * take the linear value away. */
      if (weight == 0.0)
        continue;
      value = v[fr_grid_index (g, corner[0], corner[1], corner[2])];
      if (!isfinite (value))
        return v[fr_grid_index (g, (size_t) llround (fx), (size_t) llround (fy),
                                (size_t) llround (fz))];
      sum += weight * value;
    }
  return sum;
}

/* Whether v is node i along an axis: a millionth of a spacing off, or a
 * few units in the last place of coordinates that large (a northing of
 * 6e6 m written in decimals at a spacing of 0.1 mm; helper-61). */
static bool
axis_on_node (double v, double v0, double d, size_t i)
{
  return fabs ((v - v0) / d - (double) i) <= axis_tolerance (v, v0, d);
}

bool
fr_grid_exact_node (const fr_grid *g, double x, double y, double z,
                    size_t *ix, size_t *iy, size_t *iz)
{
  size_t i, j, k;

  if (!fr_grid_nearest_node (g, x, y, z, &i, &j, &k))
    return false;
  if (!axis_on_node (x, g->x0, g->dx, i) || !axis_on_node (z, g->z0, g->dz, k))
    return false;
  if (g->ndim == 3 && !axis_on_node (y, g->y0, g->dy, j))
    return false;
  if (ix) *ix = i;
  if (iy) *iy = j;
  if (iz) *iz = k;
  return true;
}

/* "<what> holds <fault> at node (ix, iz)<why>": the first bad node. */
static fr_status
speed_error (const fr_grid *g, size_t i, const char *what, const char *fault, const char *why,
             fr_error *err)
{
  size_t ix = i % g->nx, iy = (i / g->nx) % g->ny, iz = i / (g->nx * g->ny);

  if (g->ndim == 3)
    return fr_error_set (err, FR_E_INPUT, "%s holds %s at node (ix=%zu, iy=%zu, iz=%zu)%s",
                         what, fault, ix, iy, iz, why);
  return fr_error_set (err, FR_E_INPUT, "%s holds %s at node (ix=%zu, iz=%zu)%s", what, fault,
                       ix, iz, why);
}

static const char *
speed_fault (double v)
{
  if (isnan (v))
    return "NaN";
  if (isinf (v))
    return "an infinite value";
  return v < 0.0 ? "a negative value" : NULL;
}

fr_status
fr_check_speed_f32 (const fr_grid *g, const float *v, const char *what, fr_error *err)
{
  size_t n = fr_grid_count (g);
  int bad = 0;

  /* A parallel scan first (grids of 10⁸ nodes are checked at every
   * solve), then the first bad node for the message. */
#pragma omp parallel for schedule(static) reduction(|:bad)
  for (size_t i = 0; i < n; i++)
    bad |= !(isfinite (v[i]) && v[i] >= 0.0f);
  if (!bad)
    return FR_OK;
  for (size_t i = 0; i < n; i++)
    if (speed_fault (v[i]) != NULL)
      return speed_error (g, i, what, speed_fault (v[i]), "", err);
  return FR_OK;
}

fr_status
fr_check_time_scale (const fr_grid *g, const float *v, bool double_precision, fr_error *err)
{
  const size_t n = fr_grid_count (g);
  const double step = g->dx < g->dz ? g->dx : g->dz;
  const double tiny = double_precision ? DBL_MIN : FLT_MIN;
  float vmax = 0.0f;

#pragma omp parallel for schedule(static) reduction(max:vmax)
  for (size_t i = 0; i < n; i++)
    vmax = v[i] > vmax ? v[i] : vmax;
  if (!(vmax > 0.0f && step / vmax < tiny))
    return FR_OK;
  if (double_precision)
    return fr_error_set (err, FR_E_INPUT,
                         fr__ ("a spacing of %g with velocities up to %g gives times below "
                               "double's range (smallest %.2g): rescale the units (a larger "
                               "spacing or smaller velocities give larger times)"),
                         step, (double) vmax, tiny);
  return fr_error_set (err, FR_E_INPUT,
                       fr__ ("a spacing of %g with velocities up to %g gives times below "
                             "float32's range (smallest %.2g): rescale the units (a larger "
                             "spacing or smaller velocities give larger times)"),
                       step, (double) vmax, tiny);
}

/* True when v survives the narrowing to float32 as a speed: 0 stays 0, a
 * positive value stays positive and finite. */
static bool
narrows_ok (double v)
{
  float f = (float) v;
  return v == 0.0 || (f > 0.0f && isfinite (f));
}

fr_status
fr_check_speed_f64 (const fr_grid *g, const double *v, const char *what, fr_error *err)
{
  size_t n = fr_grid_count (g);
  int bad = 0;

  /* Checked as doubles, before narrowing: -1e-50 would round to -0.0 and
   * pass for an obstacle, 1e-50 to an obstacle, 1e300 to inf. */
#pragma omp parallel for schedule(static) reduction(|:bad)
  for (size_t i = 0; i < n; i++)
    bad |= !(isfinite (v[i]) && v[i] >= 0.0 && narrows_ok (v[i]));
  if (!bad)
    return FR_OK;
  for (size_t i = 0; i < n; i++)
    {
      char value[32], why[128];
      if (speed_fault (v[i]) != NULL)
        return speed_error (g, i, what, speed_fault (v[i]), "", err);
      if (narrows_ok (v[i]))
        continue;
      snprintf (value, sizeof value, "%g", v[i]);
      snprintf (why, sizeof why, ", outside single precision's range (%.2g to %.2g), in which "
                "speeds are solved", (double) FLT_TRUE_MIN, (double) FLT_MAX);
      return speed_error (g, i, what, value, why, err);
    }
  return FR_OK;
}
