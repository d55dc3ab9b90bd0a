/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The shortest-path solver's neighbourhood radius, in nodes along x and
 * along z: a node's edges reach the nodes (a, b) away with |a| <= x,
 * |b| <= z (fr-spr.h's rx, rz).  On square cells one count serves both; on
 * cells much longer along one axis the stencil covers directions evenly
 * only with more nodes along the other, which is why the two are kept
 * apart (as foldray-cli spr --radius R,RZ does). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  int x;
  int z;
} FrRadius;

static inline FrRadius
fr_radius_square (int r)
{
  return (FrRadius) { r, r };
}

static inline gboolean
fr_radius_equal (FrRadius a,
                 FrRadius b)
{
  return a.x == b.x && a.z == b.z;
}

/* "5", or "5,12" where the two differ: what foldray-cli's --radius takes. */
static inline char *
fr_radius_to_string (FrRadius r)
{
  return r.x == r.z ? g_strdup_printf ("%d", r.x) : g_strdup_printf ("%d,%d", r.x, r.z);
}

double   fr_radius_stencil_error (FrRadius r,
                                  double   dx,
                                  double   dz);
FrRadius fr_radius_even_reach    (FrRadius r,
                                  double   dx,
                                  double   dz);

G_END_DECLS
