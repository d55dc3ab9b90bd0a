/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fold test cases of Gillberg, Bruaset, Hjelle & Sourouri (2014), as
 * generators: big grids are made, not committed.  Plain C (no library), so
 * gen-fold.c writes them to files and tests/bench/bench-fold.c builds them
 * in memory from the same definitions.
 *
 *   Ex_A   13 point sources in (0,0,0)–(10,13,9), F = 1.4, ψ = (0.9, −0.75, −0.07)
 *   Ex_B   nine walls across x with a small opening each, alternating
 *          corners; walls semi-permeable, F = 0.03·dz
 *   Ex_C   the same walls impermeable (F = 0)
 *   Ex_D   11³ checkerboard cubes of speed 1 and 2, source at the centre
 *   fold3d the horizon surface z = 0.5 + 0.08 sin(2πx) cos(2πy) as the
 *          boundary (nodes within a spacing of it start from their distance
 *          to it), F = 1, ψ = (0.3, 0.2, −0.25)
 * Grids are n³ nodes over the unit cube ((10, 13, 9) box for Ex_A). */
#pragma once

#include <math.h>
#include <stddef.h>
#include <string.h>

typedef enum fold_model_id {
  FOLD_EX_A, FOLD_EX_B, FOLD_EX_C, FOLD_EX_D, FOLD_FOLD3D, FOLD_MODEL_COUNT
} fold_model_id;

static const char *const fold_model_names[FOLD_MODEL_COUNT] = {
  "ex-a", "ex-b", "ex-c", "ex-d", "fold3d",
};

typedef struct fold_model {
  size_t n;                  /* nodes per axis */
  double d[3];               /* spacing x, y, z */
  double psi[3];
  double speed_const;        /* > 0: constant speed, speed == NULL */
  float *speed;              /* n³, or NULL */
  double *boundary;          /* n³ (NaN = free), or NULL */
  double src[13][3];
  int nsrc;
} fold_model;

/* Ex_A's sources, by a fixed low-discrepancy rule (tests/test-fold-common.h
 * uses the same). */
static inline void
fold_model_ex_a_sources (double src[13][3])
{
  for (int k = 0; k < 13; k++)
    {
      src[k][0] = 10.0 * fmod (0.1 + k * 0.6180339887, 1.0);
      src[k][1] = 13.0 * fmod (0.2 + k * 0.7548776662, 1.0);
      src[k][2] = 9.0 * fmod (0.3 + k * 0.5698402910, 1.0);
    }
}

/* Nine walls x ≈ 0.1·k (k = 1..9), two spacings thick; wall k has a
 * square opening of side 0.1 in the corner (y, z) that alternates
 * between (0.05, 0.05) and (0.85, 0.85), so the front zigzags. */
static inline int
fold_model_is_wall (double x, double y, double z, double h)
{
  for (int k = 1; k <= 9; k++)
    {
      double xw = 0.1 * k;
      if (fabs (x - xw) > h * 1.01)
        continue;
      double c = k % 2 ? 0.05 : 0.85;
      int opening = y >= c && y <= c + 0.1 && z >= c && z <= c + 0.1;
      return !opening;
    }
  return 0;
}

/* Fills m for model id on n³ nodes; returns 0 on success, -1 out of memory. */
static inline int
fold_model_make (fold_model *m, fold_model_id id, size_t n, void *(*alloc) (size_t))
{
  const size_t count = n * n * n;
  const double h = 1.0 / (double) (n - 1);

  memset (m, 0, sizeof *m);
  m->n = n;
  m->d[0] = m->d[1] = m->d[2] = h;
  switch (id)
    {
    case FOLD_EX_A:
      m->d[0] = 10.0 / (double) (n - 1);
      m->d[1] = 13.0 / (double) (n - 1);
      m->d[2] = 9.0 / (double) (n - 1);
      m->speed_const = 1.4;
      m->psi[0] = 0.9, m->psi[1] = -0.75, m->psi[2] = -0.07;
      fold_model_ex_a_sources (m->src);
      m->nsrc = 13;
      return 0;
    case FOLD_EX_B:
    case FOLD_EX_C:
    case FOLD_EX_D:
      m->speed = alloc (count * sizeof *m->speed);
      if (m->speed == NULL)
        return -1;
      for (size_t i = 0; i < count; i++)
        {
          double x = (double) (i % n) * h, y = (double) ((i / n) % n) * h, z = (double) (i / (n * n)) * h;
          if (id == FOLD_EX_D)
            {
              int cx = (int) fmin (10.0, floor (x * 11.0)), cy = (int) fmin (10.0, floor (y * 11.0));
              int cz = (int) fmin (10.0, floor (z * 11.0));
              m->speed[i] = (cx + cy + cz) % 2 ? 2.0f : 1.0f;
            }
          else if (fold_model_is_wall (x, y, z, h))
            m->speed[i] = id == FOLD_EX_B ? (float) (0.03 * h) : 0.0f;
          else
            m->speed[i] = 1.0f;
        }
      m->nsrc = 1;
      if (id == FOLD_EX_D)
        m->src[0][0] = m->src[0][1] = m->src[0][2] = 0.5;
      else
        m->src[0][0] = 0.03, m->src[0][1] = 0.5, m->src[0][2] = 0.5;
      return 0;
    case FOLD_FOLD3D:
      m->speed_const = 1.0;
      m->psi[0] = 0.3, m->psi[1] = 0.2, m->psi[2] = -0.25;
      m->boundary = alloc (count * sizeof *m->boundary);
      if (m->boundary == NULL)
        return -1;
      for (size_t i = 0; i < count; i++)
        {
          double x = (double) (i % n) * h, y = (double) ((i / n) % n) * h, z = (double) (i / (n * n)) * h;
          const double a = 0.08, w = 2.0 * M_PI;
          double s = 0.5 + a * sin (w * x) * cos (w * y);
          double gx = a * w * cos (w * x) * cos (w * y), gy = -a * w * sin (w * x) * sin (w * y);
          /* First-order distance to the surface: vertical offset over the
           * slope factor; only the band next to it is given. */
          double dist = fabs (z - s) / sqrt (1.0 + gx * gx + gy * gy);
          m->boundary[i] = fabs (z - s) <= h ? dist : NAN;
        }
      return 0;
    default:
      return -1;
    }
}
