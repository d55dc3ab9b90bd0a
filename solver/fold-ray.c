/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rays of the fold solver: from a receiver back along the characteristic
 * direction −(F·n + ψ), n = ∇T/|∇T|, to where the front started.
 *
 * Along that direction T falls by ds/|F·n + ψ| per length ds (p·v = 1 on
 * the equation), so each midpoint (RK2) step of a fraction of a spacing
 * must lower the interpolated T by a good part of that; where it does not
 * (a kink where two fronts meet, an obstacle's corner, unreached
 * neighbours) the ray steps to the neighbouring node of least T instead,
 * which lowers T too.  T falls at every step, so a ray cannot loop and ends
 * within a bounded number of steps; positions are clamped to the grid.
 *
 * It ends
 *   - within the source radius of a point source: there T is the exact
 *     constant-parameter time, whose characteristic is the straight line to
 *     the source, so the source itself is the last point;
 *   - within a spacing of the horizon: the last point is the horizon point
 *     the front reached it from (fold_polyline_time's minimiser);
 *   - on a node the boundary grid fixes;
 *   - at a local minimum of T, a start: where T there is its start value
 *     from the horizon, at the horizon point it came from (through the
 *     node), else at the minimum;
 *   - where it would leave the grid toward a horizon beyond that edge: the
 *     edge's start values are that horizon's times along straight paths
 *     outside the grid (the medium continued outward), so the last point is
 *     the horizon point outside that the front came from, one straight leg
 *     away (clamped, the ray would slide along the edge). */
#include "fold-private.h"

#include <stdlib.h>
#include <string.h>

typedef struct ray_ctx {
  const fr_fold_trace *tr;
  const fr_grid *g;
  const double *T;
  int nd;
  size_t n[3];
  double h[3], o[3];
} ray_ctx;

static size_t
node_index (const ray_ctx *c, const size_t i[3])
{
  return (i[2] * c->n[1] + i[1]) * c->n[0] + i[0];
}

static void
nearest (const ray_ctx *c, const double x[3], size_t i[3])
{
  for (int a = 0; a < 3; a++)
    {
      double f = c->n[a] > 1 ? round ((x[a] - c->o[a]) / c->h[a]) : 0.0;
      i[a] = f < 0.0 ? 0 : (f > (double) (c->n[a] - 1) ? c->n[a] - 1 : (size_t) f);
    }
}

static double
speed_near (const ray_ctx *c, const double x[3])
{
  size_t i[3];
  nearest (c, x, i);
  return (double) c->tr->speed[node_index (c, i)];
}

/* Multilinear T at x and its gradient; false when a corner of x's cell is
 * unreached (or an obstacle). */
static bool
interp (const ray_ctx *c, const double x[3], double *t, double grad[3])
{
  size_t i0[3];
  double f[3];

  for (int a = 0; a < 3; a++)
    {
      if (c->n[a] == 1)
        {
          i0[a] = 0, f[a] = 0.0;
          continue;
        }
      double u = (x[a] - c->o[a]) / c->h[a];
      double fl = floor (u);
      if (fl < 0.0)
        fl = 0.0;
      if (fl > (double) (c->n[a] - 2))
        fl = (double) (c->n[a] - 2);
      i0[a] = (size_t) fl;
      f[a] = fmin (1.0, fmax (0.0, u - fl));
    }
  double v = 0.0, gr[3] = { 0, 0, 0 };
  for (int corner = 0; corner < 8; corner++)
    {
      int b[3] = { corner & 1, (corner >> 1) & 1, (corner >> 2) & 1 };
      size_t i[3];
      bool skip = false;
      for (int a = 0; a < 3; a++)
        {
          if (c->n[a] == 1 && b[a])
            skip = true;
          i[a] = i0[a] + (size_t) b[a];
        }
      if (skip)
        continue;
      double tv = c->T[node_index (c, i)];
      if (!isfinite (tv))
        return false;
      double w[3], dw[3];
      for (int a = 0; a < 3; a++)
        {
          if (c->n[a] == 1)
            w[a] = 1.0, dw[a] = 0.0;
          else
            w[a] = b[a] ? f[a] : 1.0 - f[a], dw[a] = (b[a] ? 1.0 : -1.0) / c->h[a];
        }
      v += tv * w[0] * w[1] * w[2];
      gr[0] += tv * dw[0] * w[1] * w[2];
      gr[1] += tv * w[0] * dw[1] * w[2];
      gr[2] += tv * w[0] * w[1] * dw[2];
    }
  *t = v;
  memcpy (grad, gr, sizeof gr);
  return true;
}

/* The unit direction to step along, −(F n + ψ)/|F n + ψ|, and |F n + ψ|. */
static bool
back_direction (const ray_ctx *c, const double x[3], double dir[3], double *speed, double *t)
{
  double grad[3];
  if (!interp (c, x, t, grad))
    return false;
  double gn = sqrt (grad[0] * grad[0] + grad[1] * grad[1] + grad[2] * grad[2]);
  double F = speed_near (c, x);
  if (!(gn > 0.0) || !(F > 0.0))
    return false;
  double v[3], vn = 0.0;
  for (int a = 0; a < 3; a++)
    {
      v[a] = F * grad[a] / gn + c->tr->psi[a];
      vn += v[a] * v[a];
    }
  vn = sqrt (vn);
  if (!(vn > 0.0))
    return false;
  for (int a = 0; a < 3; a++)
    dir[a] = -v[a] / vn;
  *speed = vn;
  return true;
}

static void
clamp_to_grid (const ray_ctx *c, double x[3])
{
  for (int a = 0; a < 3; a++)
    {
      double hi = c->o[a] + (double) (c->n[a] - 1) * c->h[a];
      x[a] = fmin (hi, fmax (c->o[a], x[a]));
    }
}

typedef struct ray_buf {
  double *xyz;     /* 3 per point */
  size_t n, cap;
} ray_buf;

static bool
ray_push (ray_buf *b, const double x[3])
{
  if (b->n == b->cap)
    {
      size_t cap = b->cap ? 2 * b->cap : 64;
      double *p = realloc (b->xyz, cap * 3 * sizeof *p);
      if (p == NULL)
        return false;
      b->xyz = p, b->cap = cap;
    }
  memcpy (b->xyz + 3 * b->n, x, 3 * sizeof *x);
  b->n++;
  return true;
}

/* The horizon point x's front came from (fold_polyline_time's minimiser,
 * with x's speed) in y[], and its time in *t; false without a horizon or
 * where none reaches x. */
static bool
horizon_foot (const ray_ctx *c, const double x[3], double *t, double y[3])
{
  const fr_fold_trace *tr = c->tr;

  if (tr->nhorizon < 2)
    return false;
  *t = fold_polyline_time (tr->horizon, tr->nhorizon, x[0], x[2], speed_near (c, x), tr->psi,
                           &y[0], &y[2]);
  y[1] = 0.0;
  return isfinite (*t);
}

/* Where the ray ends, if x is there: fills end[] and returns true. */
static bool
at_start (const ray_ctx *c, const double x[3], double end[3])
{
  const fr_fold_trace *tr = c->tr;
  double hmax = fmax (c->h[0], c->h[2]);
  if (c->nd == 3)
    hmax = fmax (hmax, c->h[1]);

  double best = INFINITY;
  for (size_t k = 0; k < tr->nsrc; k++)
    {
      const double *p = tr->sources + k * (size_t) c->nd;
      double s[3] = { p[0], c->nd == 3 ? p[1] : 0.0, c->nd == 3 ? p[2] : p[1] };
      double d = sqrt ((x[0] - s[0]) * (x[0] - s[0]) + (x[1] - s[1]) * (x[1] - s[1])
                       + (x[2] - s[2]) * (x[2] - s[2]));
      if (d <= tr->radius && d < best)
        best = d, memcpy (end, s, sizeof s);
    }
  if (best < INFINITY)
    return true;
  double y[3], t;
  if (horizon_foot (c, x, &t, y) && hypot (x[0] - y[0], x[2] - y[2]) <= hmax)
    {
      memcpy (end, y, sizeof y);
      return true;
    }
  if (tr->frozen != NULL)
    {
      size_t i[3];
      nearest (c, x, i);
      if (tr->frozen[node_index (c, i)])
        {
          for (int a = 0; a < 3; a++)
            end[a] = c->o[a] + (double) i[a] * c->h[a];
          return true;
        }
    }
  return false;
}

/* Whether a step from x to xm (not clamped) leaves the grid across an edge
 * beyond which lies the horizon point that x's front came from; if so,
 * fills end[] with that point. */
static bool
leaves_for_horizon (const ray_ctx *c, const double x[3], const double xm[3], double end[3])
{
  double y[3], t;

  if (!horizon_foot (c, x, &t, y))
    return false;
  for (int a = 0; a < 3; a += 2)
    {
      const double lo = c->o[a], hi = c->o[a] + (double) (c->n[a] - 1) * c->h[a];
      if ((xm[a] < lo && y[a] < lo) || (xm[a] > hi && y[a] > hi))
        {
          memcpy (end, y, sizeof y);
          return true;
        }
    }
  return false;
}

/* Whether T = t at x is x's start value from the horizon, to tol: if so,
 * fills end[] with the horizon point the front came from. */
static bool
horizon_start_at (const ray_ctx *c, const double x[3], double t, double tol, double end[3])
{
  double y[3], ty;

  if (!horizon_foot (c, x, &ty, y) || !(fabs (ty - t) <= tol))
    return false;
  memcpy (end, y, sizeof y);
  return true;
}

/* The neighbouring node of least T below t_here, as a position. */
static bool
discrete_step (const ray_ctx *c, const double x[3], double t_here, double next[3], double *t_next)
{
  size_t i[3], best_i[3] = { 0, 0, 0 };
  double best = t_here;
  bool found = false;

  nearest (c, x, i);
  double tn = c->T[node_index (c, i)];
  if (tn < best)
    {
      /* The nearest node itself is lower: go there first. */
      best = tn, memcpy (best_i, i, sizeof i), found = true;
    }
  for (int dz = -1; dz <= 1; dz++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++)
        {
          ptrdiff_t j[3] = { (ptrdiff_t) i[0] + dx, (ptrdiff_t) i[1] + dy, (ptrdiff_t) i[2] + dz };
          bool ok = true;
          for (int a = 0; a < 3; a++)
            ok &= j[a] >= 0 && (size_t) j[a] < c->n[a];
          if (!ok)
            continue;
          size_t u[3] = { (size_t) j[0], (size_t) j[1], (size_t) j[2] };
          double tv = c->T[node_index (c, u)];
          if (tv < best)
            best = tv, memcpy (best_i, u, sizeof u), found = true;
        }
  if (!found)
    return false;
  for (int a = 0; a < 3; a++)
    next[a] = c->o[a] + (double) best_i[a] * c->h[a];
  *t_next = best;
  return true;
}

fr_status
fr_fold_ray (const fr_fold_result *res, const double *rcv, double **pts, size_t *npts,
             fr_error *err)
{
  if (res == NULL || res->trace == NULL || res->time == NULL || rcv == NULL || pts == NULL
      || npts == NULL)
    return fr_error_set (err, FR_E_INPUT, "fr_fold_ray: no solved result or receiver");
  *pts = NULL;
  *npts = 0;

  const fr_grid *g = &res->grid;
  ray_ctx c = { .tr = res->trace, .g = g, .T = res->time, .nd = g->ndim,
                .n = { g->nx, g->ndim == 3 ? g->ny : 1, g->nz },
                .h = { g->dx, g->ndim == 3 ? g->dy : 1.0, g->dz },
                .o = { g->x0, g->ndim == 3 ? g->y0 : 0.0, g->z0 } };
  double x[3] = { rcv[0], c.nd == 3 ? rcv[1] : 0.0, c.nd == 3 ? rcv[2] : rcv[1] };

  if (!isfinite (x[0]) || !isfinite (x[1]) || !isfinite (x[2]) || !fr_grid_contains (g, x[0], x[1], x[2]))
    return fr_error_set (err, FR_E_INPUT, "receiver at (%g, %g%s) lies outside the grid",
                         rcv[0], rcv[1], c.nd == 3 ? ", ..." : "");
  clamp_to_grid (&c, x);
  size_t i[3];
  nearest (&c, x, i);
  if (!isfinite (c.T[node_index (&c, i)]) || !(c.tr->speed[node_index (&c, i)] > 0.0f))
    return fr_error_set (err, FR_E_INPUT, "receiver at (%g, %g%s) is unreached or in an obstacle",
                         rcv[0], rcv[1], c.nd == 3 ? ", ..." : "");

  double hmin = fmin (c.h[0], c.h[2]);
  if (c.nd == 3)
    hmin = fmin (hmin, c.h[1]);
  const double ds = 0.25 * hmin;

  /* Bound on the steps: every step lowers T by at least min(drop, one
   * node's difference), and there are finitely many nodes.  The largest
   * speed is the solve's (it was found here again for every ray, a pass
   * over the whole grid: 17 ms a ray at 201³, more than the ray). */
  const double pn = sqrt (c.tr->psi[0] * c.tr->psi[0] + c.tr->psi[1] * c.tr->psi[1]
                          + c.tr->psi[2] * c.tr->psi[2]);
  const double vmax = (double) c.tr->speed_max + pn;
  const size_t count = fr_grid_count (g);

  ray_buf buf = { 0 };
  double t_here = NAN, end[3];
  bool done = false;
  double grad_t;
  double dummy[3];
  if (!interp (&c, x, &grad_t, dummy))
    grad_t = c.T[node_index (&c, i)];
  t_here = grad_t;
  size_t max_steps = (size_t) fmin (1e8, ceil (8.0 * t_here * vmax / ds)) + 8 * count + 64;

  fr_status st = FR_OK;
  if (!ray_push (&buf, x))
    goto nomem;
  for (size_t step = 0; step < max_steps; step++)
    {
      if (at_start (&c, x, end))
        {
          if (!ray_push (&buf, end))
            goto nomem;
          done = true;
          break;
        }
      double d1[3], d2[3], sp1, sp2, t1, t2, xm[3], xn[3];
      bool moved = false;
      if (back_direction (&c, x, d1, &sp1, &t1))
        {
          for (int a = 0; a < 3; a++)
            xm[a] = x[a] + 0.5 * ds * d1[a];
          if (leaves_for_horizon (&c, x, xm, end))
            {
              if (!ray_push (&buf, end))
                goto nomem;
              done = true;
              break;
            }
          clamp_to_grid (&c, xm);
          if (back_direction (&c, xm, d2, &sp2, &t2))
            {
              for (int a = 0; a < 3; a++)
                xn[a] = x[a] + ds * d2[a];
              clamp_to_grid (&c, xn);
              double tn, gdummy[3];
              /* Accept when T fell by at least a quarter of what the
               * equation promises. */
              if (interp (&c, xn, &tn, gdummy) && tn < t_here - 0.25 * ds / vmax)
                {
                  memcpy (x, xn, sizeof xn);
                  t_here = tn;
                  moved = true;
                }
            }
        }
      if (!moved)
        {
          double tn;
          if (!discrete_step (&c, x, t_here, xn, &tn))
            {
              /* A local minimum: a start.  One the tests above do not
               * take (a node near an anisotropic horizon whose front came
               * from farther along it, an edge node started from a horizon
               * beyond that edge, next to an obstacle) ends through its
               * node at the horizon point it started from; else here. */
              size_t k[3];
              double node[3];
              nearest (&c, x, k);
              for (int a = 0; a < 3; a++)
                node[a] = c.o[a] + (double) k[a] * c.h[a];
              if (horizon_start_at (&c, node, c.T[node_index (&c, k)], 0.01 * hmin / vmax, end)
                  && ((memcmp (node, x, sizeof node) != 0 && !ray_push (&buf, node))
                      || !ray_push (&buf, end)))
                goto nomem;
              done = true;
              break;
            }
          memcpy (x, xn, sizeof xn);
          t_here = tn;
        }
      if (!ray_push (&buf, x))
        goto nomem;
    }
  if (!done)
    {
      free (buf.xyz);
      return fr_error_set (err, FR_E_INPUT, "the ray from (%g, %g%s) did not reach a start in %zu steps",
                           rcv[0], rcv[1], c.nd == 3 ? ", ..." : "", max_steps);
    }

  /* Reverse (start first) and pack ndim coordinates per point. */
  double *out = malloc (buf.n * (size_t) c.nd * sizeof *out);
  if (out == NULL)
    goto nomem;
  for (size_t k = 0; k < buf.n; k++)
    {
      const double *p = buf.xyz + 3 * (buf.n - 1 - k);
      if (c.nd == 3)
        out[3 * k] = p[0], out[3 * k + 1] = p[1], out[3 * k + 2] = p[2];
      else
        out[2 * k] = p[0], out[2 * k + 1] = p[2];
    }
  free (buf.xyz);
  *pts = out;
  *npts = buf.n;
  return st;

nomem:
  free (buf.xyz);
  return fr_error_set (err, FR_E_NOMEM, "out of memory for a ray");
}
