/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "fr-view.h"

/* A 1 × 1 widget showing the unit square; callers set the size and fit. */
void
fr_view_init (FrView *view)
{
  g_return_if_fail (view != NULL);

  view->width = 1.0;
  view->height = 1.0;
  view->scale = 1.0;
  view->cx = 0.5;
  view->cz = 0.5;
}

/* Resizing keeps the model point at the centre and the scale. */
void
fr_view_set_size (FrView *view,
                  double  width,
                  double  height)
{
  g_return_if_fail (view != NULL);

  view->width = MAX (width, 1.0);
  view->height = MAX (height, 1.0);
}

/* Shows the model box [x_min, x_max] × [z_min, z_max] whole in the widget
 * rectangle box (the plot, which need not sit in the middle of the
 * widget: its gutters differ in size): centred across, and with z_min at
 * the top, under the x axis, as a section is read. */
void
fr_view_fit (FrView       *view,
             double        x_min,
             double        z_min,
             double        x_max,
             double        z_max,
             const FrRect *box)
{
  double w, h, sx, sz;

  g_return_if_fail (view != NULL);
  g_return_if_fail (box != NULL);
  g_return_if_fail (x_max > x_min && z_max > z_min);

  w = MAX (box->width, 1.0);
  h = MAX (box->height, 1.0);
  sx = w / (x_max - x_min);
  sz = h / (z_max - z_min);
  view->scale = CLAMP (MIN (sx, sz), FR_VIEW_MIN_SCALE, FR_VIEW_MAX_SCALE);
  /* The view keeps the model point at the widget's centre: solve
   * (x - cx) * scale + width / 2 = px for the box's middle and its top. */
  view->cx = 0.5 * (x_min + x_max) - (box->x + 0.5 * w - 0.5 * view->width) / view->scale;
  view->cz = z_min - (box->y - 0.5 * view->height) / view->scale;
}

void
fr_view_model_to_widget (const FrView *view,
                         double        x,
                         double        z,
                         double       *px,
                         double       *py)
{
  g_return_if_fail (view != NULL);

  if (px != NULL)
    *px = (x - view->cx) * view->scale + 0.5 * view->width;
  if (py != NULL)
    *py = (z - view->cz) * view->scale + 0.5 * view->height;
}

void
fr_view_widget_to_model (const FrView *view,
                         double        px,
                         double        py,
                         double       *x,
                         double       *z)
{
  g_return_if_fail (view != NULL);

  if (x != NULL)
    *x = (px - 0.5 * view->width) / view->scale + view->cx;
  if (z != NULL)
    *z = (py - 0.5 * view->height) / view->scale + view->cz;
}

/* Multiplies the scale by factor, keeping the model point under the
 * pixel (px, py) where it is (wheel and pinch zoom). */
void
fr_view_zoom_at (FrView *view,
                 double  px,
                 double  py,
                 double  factor)
{
  double x, z, scale;

  g_return_if_fail (view != NULL);
  g_return_if_fail (factor > 0.0 && isfinite (factor));

  fr_view_widget_to_model (view, px, py, &x, &z);
  scale = CLAMP (view->scale * factor, FR_VIEW_MIN_SCALE, FR_VIEW_MAX_SCALE);
  view->scale = scale;
  /* Solve (x - cx) * scale + w/2 = px for cx. */
  view->cx = x - (px - 0.5 * view->width) / scale;
  view->cz = z - (py - 0.5 * view->height) / scale;
}

/* Moves the picture by (dpx, dpy) pixels: what lay under p now lies
 * under p + d. */
void
fr_view_pan (FrView *view,
             double  dpx,
             double  dpy)
{
  g_return_if_fail (view != NULL);

  view->cx -= dpx / view->scale;
  view->cz -= dpy / view->scale;
}

/* The column-major 3 × 3 matrix taking (x, z, 1) to GL clip space (y up,
 * so z down becomes -y), where (x, z) is the model point (ox + x, oz + z).
 * Vertices relative to an origin near them keep single precision's
 * digits for the picture: with absolute ones a UTM x of 5e5 kept only
 * 3 cm, and the field slid off its outlines when zoomed in (helper-60).
 * The origin's offset from the view's centre is taken in double. */
void
fr_view_clip_matrix (const FrView *view,
                     double        ox,
                     double        oz,
                     float         m[9])
{
  double ax, ay;

  g_return_if_fail (view != NULL);

  ax = 2.0 * view->scale / view->width;
  ay = -2.0 * view->scale / view->height;
  m[0] = (float) ax;  m[1] = 0.0f;        m[2] = 0.0f;
  m[3] = 0.0f;        m[4] = (float) ay;  m[5] = 0.0f;
  m[6] = (float) (ax * (ox - view->cx));
  m[7] = (float) (ay * (oz - view->cz));
  m[8] = 1.0f;
}

/* The same picture rendered at another size (a larger PNG export): the
 * visible model box stays the same, pixels scale with the width. */
FrView
fr_view_scaled (const FrView *view,
                double        width,
                double        height)
{
  FrView out = *view;

  out.width = MAX (width, 1.0);
  out.height = MAX (height, 1.0);
  out.scale = view->scale * out.width / view->width;
  return out;
}

/* A round tick step (1, 2 or 5 × 10^k) giving at most max_ticks ticks over
 * span. */
double
fr_view_nice_step (double span,
                   int    max_ticks)
{
  double raw, mag, norm;

  if (!(span > 0.0) || !isfinite (span) || max_ticks < 1)
    return 1.0;
  raw = span / max_ticks;
  mag = pow (10.0, floor (log10 (raw)));
  norm = raw / mag;
  if (norm <= 1.0)
    return mag;
  if (norm <= 2.0)
    return 2.0 * mag;
  if (norm <= 5.0)
    return 5.0 * mag;
  return 10.0 * mag;
}
