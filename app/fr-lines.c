/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-lines"

#include "config.h"

#include <math.h>

#include "fr-clip.h"
#include "fr-lines.h"

/* Each quad reaches a pixel beyond its shape, so that the shader's
 * antialiasing ramp, centred on the shape's edge, has pixels to fade into:
 * a quad that stops at the edge drops the outer half of the ramp, and a
 * thin line whose quad misses pixel centres breaks into dashes. */
#define AA_PAD 1.0

static const int corners[6][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, -1 }, { 1, 1 }, { -1, 1 } };

static void
push_vertex (GArray      *a,
             double       x,
             double       y,
             double       u,
             double       v,
             int          kind,
             double       half_len,
             double       reach,
             const float  color[4])
{
  FrLineVertex vert = {
    { (float) x, (float) y },
    { (float) u, (float) v, (float) kind, (float) half_len },
    { color[0], color[1], color[2], color[3] },
    (float) reach,
  };

  g_array_append_val (a, vert);
}

/* A disc or diamond of radius r pixels centred at (x, y). */
void
fr_lines_push_shape (GArray      *a,
                     FrLineShape  shape,
                     double       x,
                     double       y,
                     double       r,
                     const float  color[4])
{
  g_return_if_fail (a != NULL);

  if (r <= 0.0)
    return;
  for (guint i = 0; i < 6; i++)
    push_vertex (a, x + corners[i][0] * (r + AA_PAD), y + corners[i][1] * (r + AA_PAD),
                 corners[i][0] * (1.0 + AA_PAD / r), corners[i][1] * (1.0 + AA_PAD / r),
                 shape, 0.0, r, color);
}

/* A segment of width w pixels with round caps. */
void
fr_lines_push_capsule (GArray      *a,
                       double       x0,
                       double       y0,
                       double       x1,
                       double       y1,
                       double       w,
                       const float  color[4])
{
  double dx = x1 - x0, dy = y1 - y0;
  double len = hypot (dx, dy);
  double hw = 0.5 * w;
  double ux = 1.0, uy = 0.0, half, mx, my;

  g_return_if_fail (a != NULL);

  if (len >= 1e-9)
    {
      ux = dx / len;
      uy = dy / len;
    }
  half = 0.5 * len / hw;
  mx = 0.5 * (x0 + x1);
  my = 0.5 * (y0 + y1);
  for (guint i = 0; i < 6; i++)
    {
      double s = corners[i][0] * (0.5 * len + hw + AA_PAD);
      double t = corners[i][1] * (hw + AA_PAD);

      push_vertex (a, mx + ux * s - uy * t, my + uy * s + ux * t,
                   corners[i][0] * (half + 1.0 + AA_PAD / hw), corners[i][1] * (1.0 + AA_PAD / hw),
                   FR_LINE_CAPSULE, half, hw, color);
    }
}

/* How far a point of a polyline may lie off the capsule that replaces
 * its run of segments, in pixels: far below what shows. */
#define MERGE_TOLERANCE 0.05

/* The view grown by more than a line of width's reach: what is cut at its
 * edge never shows. */
static FrRect
view_guard (const FrView *view,
            double        width)
{
  const FrRect shown = { 0.0, 0.0, view->width, view->height };

  return fr_clip_grown (&shown, width + 2.0 * AA_PAD + FR_CLIP_GUARD_MARGIN);
}

/* Pushes segment p0–p1 cut to guard (fr-clip.h): a capsule with ends 1e8
 * pixels away lost its width to float rounding. */
static void
push_cut_capsule (GArray       *a,
                  const FrRect *guard,
                  const double  p0[2],
                  const double  p1[2],
                  double        width,
                  const float   color[4])
{
  double c0[2] = { p0[0], p0[1] }, c1[2] = { p1[0], p1[1] };

  if (fr_clip_segment (guard, c0, c1))
    fr_lines_push_capsule (a, c0[0], c0[1], c1[0], c1[1], width, color);
}

/* A polyline of n model points (x, z pairs), width pixels wide.  A run of
 * segments that one straight capsule covers to MERGE_TOLERANCE is drawn as
 * that capsule: where two capsules meet, their round caps overlap, and the
 * blended twice antialiased fringe showed as a dot at every joint, so that
 * a level horizon, a node a cell, looked dotted.  The run grows while each
 * new point's direction from the run's start stays within the cone that
 * keeps every earlier point within the tolerance. */
void
fr_lines_push_polyline (GArray       *a,
                        const FrView *view,
                        const double *xz,
                        guint         n,
                        double        width,
                        const float   color[4])
{
  const FrRect guard = view_guard (view, width);
  double start[2] = { 0.0, 0.0 }, last[2] = { 0.0, 0.0 }, dir[2] = { 1.0, 0.0 };
  double lo = 0.0, hi = 0.0;   /* the cone, in radians from dir */
  gboolean open = FALSE;       /* last lies beyond start, the cone set */
  gboolean pushed = FALSE;

  g_return_if_fail (a != NULL && view != NULL);

  for (guint i = 0; i < n; i++)
    {
      double p[2], d[2], len, angle, half;

      fr_view_model_to_widget (view, xz[2 * i], xz[2 * i + 1], &p[0], &p[1]);
      if (i == 0)
        {
          start[0] = last[0] = p[0];
          start[1] = last[1] = p[1];
          continue;
        }
      d[0] = p[0] - start[0];
      d[1] = p[1] - start[1];
      len = hypot (d[0], d[1]);
      if (open)
        {
          angle = atan2 (dir[0] * d[1] - dir[1] * d[0], dir[0] * d[0] + dir[1] * d[1]);
          if (angle >= lo && angle <= hi && len >= hypot (last[0] - start[0], last[1] - start[1]))
            {
              half = asin (MIN (1.0, MERGE_TOLERANCE / len));
              lo = MAX (lo, angle - half);
              hi = MIN (hi, angle + half);
              last[0] = p[0];
              last[1] = p[1];
              continue;
            }
          /* p leaves the cone (or turns back): the run ends at the last
           * point, and the next starts there. */
          push_cut_capsule (a, &guard, start, last, width, color);
          pushed = TRUE;
          start[0] = last[0];
          start[1] = last[1];
          d[0] = p[0] - start[0];
          d[1] = p[1] - start[1];
          len = hypot (d[0], d[1]);
          open = FALSE;
        }
      last[0] = p[0];
      last[1] = p[1];
      if (len <= MERGE_TOLERANCE)
        continue;   /* still at the start */
      /* The run's first point beyond the start: the cone about it. */
      dir[0] = d[0] / len;
      dir[1] = d[1] / len;
      half = asin (MIN (1.0, MERGE_TOLERANCE / len));
      lo = -half;
      hi = half;
      open = TRUE;
    }
  /* The last run; or a dot, where the whole line lies within the
   * tolerance of its start (a tail that short after a run is left out). */
  if (open || (n >= 2 && !pushed))
    push_cut_capsule (a, &guard, start, last, width, color);
}

/* Segment (x0, y0)–(x1, y1) in widget pixels, width wide, cut to the
 * view: for a line whose ends may lie far off it (Folds mode's ψa arrow,
 * a quarter of the model long, zoomed in far). */
void
fr_lines_push_segment (GArray       *a,
                       const FrView *view,
                       double        x0,
                       double        y0,
                       double        x1,
                       double        y1,
                       double        width,
                       const float   color[4])
{
  const FrRect guard = view_guard (view, width);
  const double p0[2] = { x0, y0 }, p1[2] = { x1, y1 };

  g_return_if_fail (a != NULL && view != NULL);

  push_cut_capsule (a, &guard, p0, p1, width, color);
}
