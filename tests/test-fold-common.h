/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the fold solver's tests: the analytic solution for
 * constant parameters and error norms.  Truth here is derived, never copied
 * from the solver's output. */
#pragma once

#include <glib.h>
#include <math.h>

#include "fr-fold.h"

/* A point source at s with constant F and ψ grows as a sphere of radius
 * F·t centred at s + ψ·t; the time it reaches x solves
 * |d − ψt| = F t, d = x − s:  t = (−ψ·d + sqrt((ψ·d)² + (F² − |ψ|²)|d|²)) / (F² − |ψ|²). */
static inline double
fold_exact_point (const double x[3], const double s[3], const double psi[3], double F)
{
  double d[3] = { x[0] - s[0], x[1] - s[1], x[2] - s[2] };
  double pd = psi[0] * d[0] + psi[1] * d[1] + psi[2] * d[2];
  double c = F * F - (psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2]);
  double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  return (-pd + sqrt (pd * pd + c * dd)) / c;
}

/* Node position as a 3-vector (y = 0 in 2D). */
static inline void
fold_node_xyz (const fr_grid *g, size_t i, double x[3])
{
  size_t ix = i % g->nx, iy = (i / g->nx) % g->ny, iz = i / (g->nx * g->ny);
  fr_grid_node_position (g, ix, iy, iz, &x[0], &x[1], &x[2]);
}

/* Root-mean-square difference of a and b over the grid's nodes where b is
 * finite (a must be finite there too, or the result is +inf). */
static inline double
fold_rms_diff (const fr_grid *g, const double *a, const double *b)
{
  size_t n = fr_grid_count (g), cnt = 0;
  double sum = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      if (!isfinite (b[i]))
        continue;
      if (!isfinite (a[i]))
        return INFINITY;
      sum += (a[i] - b[i]) * (a[i] - b[i]);
      cnt++;
    }
  return cnt ? sqrt (sum / (double) cnt) : 0.0;
}

/* Least-squares slope of log(err) against log(h): the observed order. */
static inline double
fold_observed_rate (const double *h, const double *err, int n)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < n; i++)
    {
      double x = log (h[i]), y = log (err[i]);
      sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/* Solves or fails the test with the library's message. */
static inline void
fold_solve_ok (const fr_grid *g, const fr_fold_start *st, const fr_fold_params *p,
               fr_fold_result *res)
{
  fr_error err = { 0 };
  fr_status s = fr_fold_solve (g, st, p, res, &err);
  if (s != FR_OK)
    g_error ("fr_fold_solve: %s (%s)", err.message, fr_status_name (s));
}

/* Ex_A of Gillberg et al.: 13 point sources in (0,0,0)–(10,13,9), placed by
 * a fixed low-discrepancy rule so that tests and generators agree. */
static inline void
fold_ex_a_sources (double src[13][3])
{
  for (int k = 0; k < 13; k++)
    {
      src[k][0] = 10.0 * fmod (0.1 + k * 0.6180339887, 1.0);
      src[k][1] = 13.0 * fmod (0.2 + k * 0.7548776662, 1.0);
      src[k][2] = 9.0 * fmod (0.3 + k * 0.5698402910, 1.0);
    }
}

