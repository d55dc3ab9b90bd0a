/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the SPR tests.  The geometry here is written from
 * scratch (segment clipping against cell rectangles) so that the tests
 * check the library's stencils against an independent computation. */
#pragma once

#include <glib.h>
#include <math.h>
#include <string.h>

#include "fr-spr.h"

/* Length of the segment p0 -> p1 inside the rectangle [xlo,xhi] × [zlo,zhi]
 * (Liang–Barsky clipping). */
static inline double
tu_clip_length (double x0, double z0, double x1, double z1,
                double xlo, double xhi, double zlo, double zhi)
{
  double t0 = 0.0, t1 = 1.0;
  double d[2] = { x1 - x0, z1 - z0 };
  double p0[2] = { x0, z0 };
  double lo[2] = { xlo, zlo }, hi[2] = { xhi, zhi };

  for (int ax = 0; ax < 2; ax++)
    {
      if (d[ax] == 0.0)
        {
          if (p0[ax] < lo[ax] || p0[ax] > hi[ax])
            return 0.0;
          continue;
        }
      double ta = (lo[ax] - p0[ax]) / d[ax], tb = (hi[ax] - p0[ax]) / d[ax];
      if (ta > tb)
        {
          double tmp = ta;
          ta = tb;
          tb = tmp;
        }
      t0 = MAX (t0, ta);
      t1 = MIN (t1, tb);
      if (t1 <= t0)
        return 0.0;
    }
  return (t1 - t0) * hypot (d[0], d[1]);
}

/* Length of the segment from node (i0,j0) to node (i1,j1) inside cell
 * (ci,cj), in physical units, for spacing dx, dz.  A touch at a corner or
 * along a side gives (numerically) zero; lengths below 1e-9 of the segment
 * are reported as 0. */
static inline double
tu_cell_length (double dx, double dz, int i0, int j0, int i1, int j1, int ci, int cj)
{
  double len = tu_clip_length (i0 * dx, j0 * dz, i1 * dx, j1 * dz,
                               (ci - 0.5) * dx, (ci + 0.5) * dx, (cj - 0.5) * dz, (cj + 0.5) * dz);
  double total = hypot ((i1 - i0) * dx, (j1 - j0) * dz);
  return len > 1e-9 * total ? len : 0.0;
}

/* Independent edge weight: the sum over every cell of the bounding box of
 * slowness × length inside; +inf if the segment crosses an obstacle. */
static inline double
tu_edge_weight (const fr_grid *g, const float *vel, int i0, int j0, int i1, int j1)
{
  double w = 0.0;
  int ilo = MIN (i0, i1), ihi = MAX (i0, i1), jlo = MIN (j0, j1), jhi = MAX (j0, j1);

  for (int cj = jlo; cj <= jhi; cj++)
    for (int ci = ilo; ci <= ihi; ci++)
      {
        double len = tu_cell_length (g->dx, g->dz, i0, j0, i1, j1, ci, cj);
        float v;
        if (len == 0.0)
          continue;
        if (ci < 0 || cj < 0 || ci >= (int) g->nx || cj >= (int) g->nz)
          return INFINITY;
        v = vel[(size_t) cj * g->nx + (size_t) ci];
        if (v == 0.0f)
          return INFINITY;
        w += len / (double) v;
      }
  return w;
}

/* The head-wave model: 301 × 121 nodes at spacing 1, a slow layer (1) over
 * a fast one (3) below the interface z = 30 + 0.15 x; sources and
 * receivers at the surface far apart see a head wave along it first. */
#define TU_HEAD_WAVE_NX 301
#define TU_HEAD_WAVE_NZ 121

static inline double
tu_head_wave_below (double x, double z)
{
  return z - (30.0 + 0.15 * x);
}

static inline float *
tu_head_wave_model (fr_grid *g)
{
  float *v;

  *g = fr_grid_2d (TU_HEAD_WAVE_NX, TU_HEAD_WAVE_NZ, 1.0, 1.0, 0.0, 0.0);
  v = g_new (float, fr_grid_count (g));
  for (size_t j = 0; j < g->nz; j++)
    for (size_t i = 0; i < g->nx; i++)
      v[j * g->nx + i] = tu_head_wave_below ((double) i, (double) j) > 0.0 ? 3.0f : 1.0f;
  return v;
}

/* A random heterogeneous model: velocities in [1, 5] with some smooth
 * structure, plus nobst rectangular obstacles (velocity 0) of up to
 * maxsize cells a side. */
static inline float *
tu_random_model (const fr_grid *g, guint32 seed, int nobst, int maxsize)
{
  GRand *rng = g_rand_new_with_seed (seed);
  size_t nx = g->nx, nz = g->nz;
  float *v = g_new (float, nx * nz);
  double kx = g_rand_double_range (rng, 0.05, 0.4), kz = g_rand_double_range (rng, 0.05, 0.4);

  for (size_t j = 0; j < nz; j++)
    for (size_t i = 0; i < nx; i++)
      {
        double smooth = 2.5 + 1.0 * sin (kx * (double) i) * cos (kz * (double) j);
        v[j * nx + i] = (float) CLAMP (smooth + g_rand_double_range (rng, -0.5, 1.0), 1.0, 5.0);
      }
  for (int o = 0; o < nobst; o++)
    {
      int w = g_rand_int_range (rng, 1, maxsize + 1), h = g_rand_int_range (rng, 1, maxsize + 1);
      int i0 = g_rand_int_range (rng, 0, (int) nx), j0 = g_rand_int_range (rng, 0, (int) nz);
      for (int j = j0; j < MIN (j0 + h, (int) nz); j++)
        for (int i = i0; i < MIN (i0 + w, (int) nx); i++)
          v[(size_t) j * nx + (size_t) i] = 0.0f;
    }
  g_rand_free (rng);
  return v;
}

/* Asserts got == ref on every node within rel·|ref| (fabs of the
 * reference as denominator), with +inf exactly where ref is +inf. */
static inline void
tu_assert_times_close (const double *ref, const double *got, size_t n, double rel,
                       const char *what)
{
  for (size_t i = 0; i < n; i++)
    {
      if (isinf (ref[i]) || isinf (got[i]))
        {
          if (!(isinf (ref[i]) && isinf (got[i])))
            g_error ("%s: node %zu: reference %g, got %g (one is unreached)", what, i,
                     ref[i], got[i]);
          continue;
        }
      if (!(fabs (got[i] - ref[i]) <= rel * fabs (ref[i]) + 1e-12))
        g_error ("%s: node %zu: reference %.9g, got %.9g (relative %.3g > %.3g)", what, i,
                 ref[i], got[i], fabs (got[i] - ref[i]) / fabs (ref[i]), rel);
    }
}

/* One solve that must succeed. */
static inline void
tu_solve (const fr_grid *g, const float *vel, const double *src, size_t nsrc,
          const fr_spr_params *p, fr_spr_result *res)
{
  fr_error err = { 0 };
  fr_status st = fr_spr_solve (g, vel, src, nsrc, p, res, &err);
  if (st != FR_OK)
    g_error ("fr_spr_solve failed: %s", err.message);
}
