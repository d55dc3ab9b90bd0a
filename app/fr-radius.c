/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How far a shortest-path stencil's directions let a path stray
 * (fr-radius.h). */
#define G_LOG_DOMAIN "fr-radius"

#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "fr-radius.h"
#include "fr-spr.h"

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static int
gcd (int a,
     int b)
{
  while (b != 0)
    {
      int t = a % b;

      a = b;
      b = t;
    }
  return a;
}

/* The most a straight path through a uniform medium is lengthened when it
 * must follow the stencil's edges (a relative excess, 0.08 for 8 %): a
 * direction between two neighbouring edge directions g apart is made of
 * the two, and at the middle of the gap that is 1 / cos (g / 2) of the
 * straight length.  The edges reach (a dx, b dz) for |a| <= r.x, |b| <= r.z. */
double
fr_radius_stencil_error (FrRadius r,
                         double   dx,
                         double   dz)
{
  g_autofree double *angle = NULL;
  double widest = 0.0;
  size_t n = 0;

  g_return_val_if_fail (r.x >= 1 && r.z >= 1 && dx > 0.0 && dz > 0.0, NAN);

  /* One quadrant holds every gap, by symmetry. */
  angle = g_new (double, (size_t) (r.x + 1) * (r.z + 1));
  for (int a = 0; a <= r.x; a++)
    for (int b = 0; b <= r.z; b++)
      if (gcd (a, b) == 1)
        angle[n++] = atan2 (b * dz, a * dx);
  qsort (angle, n, sizeof *angle, compare_double);
  for (size_t i = 1; i < n; i++)
    widest = MAX (widest, angle[i] - angle[i - 1]);
  return 1.0 / cos (0.5 * widest) - 1.0;
}

/* A radius that reaches as far along both axes, in model units: the count
 * along the coarser spacing kept, the other raised to match (up to the
 * solver's largest).  Square cells keep r. */
FrRadius
fr_radius_even_reach (FrRadius r,
                      double   dx,
                      double   dz)
{
  if (r.x * dx < r.z * dz)
    r.x = (int) MIN (ceil (r.z * dz / dx - 1e-9), (double) FR_SPR_RADIUS_MAX);
  else if (r.z * dz < r.x * dx)
    r.z = (int) MIN (ceil (r.x * dx / dz - 1e-9), (double) FR_SPR_RADIUS_MAX);
  return r;
}
