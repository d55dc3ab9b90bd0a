/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-clip"

#include "config.h"

#include <math.h>
#include <string.h>

#include "fr-clip.h"

/* Starts a path on cr cut to guard: nothing outside it reaches cairo. */
void
fr_clip_path_init (FrClipPath   *path,
                   cairo_t      *cr,
                   const FrRect *guard)
{
  *path = (FrClipPath) { cr, *guard, 0.0, 0.0, FALSE, FALSE };
}

void
fr_clip_path_move_to (FrClipPath *path,
                      double      x,
                      double      y)
{
  path->x = x;
  path->y = y;
  path->has_point = TRUE;
  path->pen_down = FALSE;
}

/* The part of the segment from the current point to (x, y) inside the
 * guard; a piece that does not go on from where cairo's pen is starts a
 * sub-path of its own. */
void
fr_clip_path_line_to (FrClipPath *path,
                      double      x,
                      double      y)
{
  double a[2] = { path->x, path->y }, b[2] = { x, y };

  if (!path->has_point)
    {
      fr_clip_path_move_to (path, x, y);
      return;
    }
  if (fr_clip_segment (&path->guard, a, b))
    {
      /* a moved only if the segment came in from outside. */
      if (!path->pen_down || a[0] != path->x || a[1] != path->y)
        cairo_move_to (path->cr, a[0], a[1]);
      cairo_line_to (path->cr, b[0], b[1]);
      path->pen_down = b[0] == x && b[1] == y;
    }
  else
    path->pen_down = FALSE;
  path->x = x;
  path->y = y;
}

/* Cuts segment a–b to guard (Liang–Barsky) in place; FALSE when none of
 * it lies inside (or a coordinate is not finite). */
gboolean
fr_clip_segment (const FrRect *guard,
                 double        a[2],
                 double        b[2])
{
  const double d[2] = { b[0] - a[0], b[1] - a[1] };
  const double lo[2] = { guard->x, guard->y };
  const double hi[2] = { guard->x + guard->width, guard->y + guard->height };
  double t0 = 0.0, t1 = 1.0;

  if (!isfinite (a[0]) || !isfinite (a[1]) || !isfinite (b[0]) || !isfinite (b[1]))
    return FALSE;
  for (int k = 0; k < 2; k++)
    {
      if (d[k] == 0.0)
        {
          if (a[k] < lo[k] || a[k] > hi[k])
            return FALSE;
          continue;
        }
      {
        double ta = (lo[k] - a[k]) / d[k], tb = (hi[k] - a[k]) / d[k];

        if (ta > tb)
          {
            double t = ta;

            ta = tb;
            tb = t;
          }
        t0 = MAX (t0, ta);
        t1 = MIN (t1, tb);
        if (t0 > t1)
          return FALSE;
      }
    }
  /* The ends kept exactly where they were not cut. */
  if (t1 < 1.0)
    {
      b[0] = a[0] + t1 * d[0];
      b[1] = a[1] + t1 * d[1];
    }
  if (t0 > 0.0)
    {
      a[0] += t0 * d[0];
      a[1] += t0 * d[1];
    }
  return TRUE;
}

/* r ∩ guard in out; FALSE when they do not meet. */
gboolean
fr_clip_rect (const FrRect *r,
              const FrRect *guard,
              FrRect       *out)
{
  double x0 = MAX (r->x, guard->x), y0 = MAX (r->y, guard->y);
  double x1 = MIN (r->x + r->width, guard->x + guard->width);
  double y1 = MIN (r->y + r->height, guard->y + guard->height);

  if (!(x1 > x0 && y1 > y0))
    return FALSE;
  *out = (FrRect) { x0, y0, x1 - x0, y1 - y0 };
  return TRUE;
}

/* The part of the convex polygon in (n points of stride components each,
 * every component linear along its sides) where component axis is at
 * least bound (above) or at most bound, into out, which has room for
 * n + 1 points; a point made at the cut takes bound exactly.  Returns the
 * points left.  Cuts a polygon at a guard's side in page space, or at a
 * level of a value carried along (fr-fold-bands.c's T). */
guint
fr_clip_convex_side (const double *in,
                     guint         n,
                     guint         stride,
                     guint         axis,
                     double        bound,
                     gboolean      above,
                     double       *out)
{
  guint m = 0;

  for (guint i = 0; i < n; i++)
    {
      const double *a = &in[stride * i], *b = &in[stride * ((i + 1) % n)];
      gboolean a_in = above ? a[axis] >= bound : a[axis] <= bound;
      gboolean b_in = above ? b[axis] >= bound : b[axis] <= bound;

      if (a_in)
        memcpy (&out[stride * m++], a, stride * sizeof *a);
      if (a_in != b_in)
        {
          double s = (bound - a[axis]) / (b[axis] - a[axis]);

          for (guint c = 0; c < stride; c++)
            out[stride * m + c] = a[c] + s * (b[c] - a[c]);
          out[stride * m + axis] = bound;
          m++;
        }
    }
  return m;
}

/* The convex polygon xy (n points, x y pairs) cut to guard, in place;
 * xy has room for n + 4 points.  Returns the points left (0 when it lies
 * outside). */
guint
fr_clip_polygon (const FrRect *guard,
                 double       *xy,
                 guint         n)
{
  double tmp[2 * (FR_CLIP_POLYGON_MAX + 4)];

  g_return_val_if_fail (n <= FR_CLIP_POLYGON_MAX, 0);

  n = fr_clip_convex_side (xy, n, 2, 0, guard->x, TRUE, tmp);
  n = fr_clip_convex_side (tmp, n, 2, 0, guard->x + guard->width, FALSE, xy);
  n = fr_clip_convex_side (xy, n, 2, 1, guard->y, TRUE, tmp);
  n = fr_clip_convex_side (tmp, n, 2, 1, guard->y + guard->height, FALSE, xy);
  return n;
}

/* r grown by margin on every side: a guard about what r shows. */
FrRect
fr_clip_grown (const FrRect *r,
               double        margin)
{
  return (FrRect) { r->x - margin, r->y - margin, r->width + 2.0 * margin, r->height + 2.0 * margin };
}

/* Whether (x, y) lies in guard. */
gboolean
fr_clip_holds (const FrRect *guard,
               double        x,
               double        y)
{
  return x >= guard->x && x <= guard->x + guard->width &&
         y >= guard->y && y <= guard->y + guard->height;
}
