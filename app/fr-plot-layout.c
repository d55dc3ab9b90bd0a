/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-plot-layout"

#include "config.h"

#include <math.h>

#include "fr-axes-draw.h"
#include "fr-clip.h"
#include "fr-plot-layout.h"

/* Gutter sizes in logical pixels at k = 1, sized for 11 px labels
 * (fr-axes-draw.c): a tick (5) and a gap beside each label, z labels up
 * to about seven digits wide, the colour bar's 14 px bar with its labels
 * and title on the right, a row for the z title below.  The padding keeps
 * the markers (radius up to 15) on a fitted model's edge whole inside the
 * plot, clear of the axes. */
#define GUTTER_LEFT    60.0
#define GUTTER_TOP     28.0
#define GUTTER_RIGHT   92.0
#define GUTTER_BOTTOM  22.0
#define PLOT_PAD       16.0

/* A wider z label widens the left gutter: room for the tick and the gap
 * (7) and a margin from the picture's edge (4), in steps of 8 so that the
 * plot's edge does not twitch while zooming changes the labels by a
 * pixel, up to a third of the picture or 200. */
#define LEFT_LABEL_ROOM  11.0
#define LEFT_STEP         8.0
#define LEFT_MAX        200.0

static FrRect
rect (double x, double y, double w, double h)
{
  return (FrRect) { x, y, MAX (w, 0.0), MAX (h, 0.0) };
}

static void
compute (FrPlotLayout *layout,
         double        width,
         double        height,
         double        k,
         double        l)
{
  double t = GUTTER_TOP * k, r = GUTTER_RIGHT * k, b = GUTTER_BOTTOM * k;
  double pw, ph;

  pw = MAX (width - l - r, 1.0);
  ph = MAX (height - t - b, 1.0);
  layout->plot = rect (l, t, pw, ph);
  layout->left = rect (0.0, t, l, ph);
  layout->top = rect (l, 0.0, pw, t);
  layout->right = rect (l + pw, t, r, ph);
  layout->bottom = rect (l, t + ph, pw, b);
  layout->pad = MIN (PLOT_PAD * k, 0.25 * MIN (pw, ph));
}

/* Splits a picture of width × height pixels, with the default gutters
 * (z labels up to about seven characters); k scales the gutters with
 * the text (k > 1 for larger exports).  The plot and gutters never
 * overlap, even in a picture too small for them all (the plot then keeps
 * one pixel and the gutters reach past the picture's edge). */
void
fr_plot_layout_compute (FrPlotLayout *layout,
                        double        width,
                        double        height,
                        double        k)
{
  g_return_if_fail (layout != NULL);
  g_return_if_fail (k > 0.0);

  compute (layout, width, height, k, GUTTER_LEFT * k);
}

/* As fr_plot_layout_compute, with a left gutter wide enough for z labels
 * of z_label_width pixels (never narrower than the default). */
void
fr_plot_layout_compute_for_labels (FrPlotLayout *layout,
                                   double        width,
                                   double        height,
                                   double        k,
                                   double        z_label_width)
{
  double l = GUTTER_LEFT * k, need;

  g_return_if_fail (layout != NULL);
  g_return_if_fail (k > 0.0);

  need = z_label_width + LEFT_LABEL_ROOM * k;
  if (need > l)
    {
      need = ceil (need / (LEFT_STEP * k)) * LEFT_STEP * k;
      l = MAX (l, MIN (need, MIN (LEFT_MAX * k, width / 3.0)));
    }
  compute (layout, width, height, k, l);
}

/* The layout of the picture that view shows of scene, at k: the one the
 * canvas, its overlays, its PNG export and the figures all use.  Its left
 * gutter fits the widest z label the axes draw for this view (a deep or
 * negative z, or a fine step, makes long labels). */
void
fr_plot_layout_for_view (FrPlotLayout *layout,
                         const FrView *view,
                         FrScene      *scene,
                         double        k)
{
  double label = 0.0;

  g_return_if_fail (layout != NULL && view != NULL);
  g_return_if_fail (scene == NULL || FR_IS_SCENE (scene));
  g_return_if_fail (k > 0.0);

  /* Which z ticks the axes draw depends on the plot's rows only, which
   * the left gutter does not change. */
  fr_plot_layout_compute (layout, view->width, view->height, k);
  if (scene != NULL && fr_scene_has_model (scene))
    label = fr_axes_z_label_width (view, scene, &layout->plot, k);
  fr_plot_layout_compute_for_labels (layout, view->width, view->height, k, label);
}

/* Fits view (its size set) to show scene's whole model in the plot of
 * the layout the fitted view gets at k.  The left gutter follows the z
 * labels, which follow the scale: when the fit changes the gutter, the
 * model is fitted again into the new plot. */
void
fr_plot_layout_fit_view (FrView  *view,
                         FrScene *scene,
                         double   k)
{
  FrPlotLayout layout;
  FrRect box;
  double x0, z0, x1, z1, left;

  g_return_if_fail (view != NULL);
  g_return_if_fail (FR_IS_SCENE (scene));
  g_return_if_fail (k > 0.0);

  if (!fr_scene_has_model (scene))
    return;
  fr_scene_get_bounds (scene, &x0, &z0, &x1, &z1);
  fr_plot_layout_for_view (&layout, view, scene, k);
  for (int pass = 0; pass < 2; pass++)
    {
      left = layout.left.width;
      fr_plot_layout_fit_box (&layout, &box);
      fr_view_fit (view, x0, z0, x1, z1, &box);
      fr_plot_layout_for_view (&layout, view, scene, k);
      if (layout.left.width == left)
        break;
    }
}

/* The rectangle fr_view_fit fits a whole model into: the plot less its
 * padding. */
void
fr_plot_layout_fit_box (const FrPlotLayout *layout,
                        FrRect             *box)
{
  g_return_if_fail (layout != NULL && box != NULL);

  *box = rect (layout->plot.x + layout->pad, layout->plot.y + layout->pad,
               layout->plot.width - 2.0 * layout->pad, layout->plot.height - 2.0 * layout->pad);
}

/* The model's cells, from edge to edge, in view's widget pixels: what the
 * field fills, and what the lines that belong to the model (its
 * interfaces and obstacle outlines, the starting and folded horizons) are
 * clipped to on the canvas, in its PNG export and in the figures, so that
 * none runs on past the field into the plot's margin. */
void
fr_plot_layout_model_rect (const FrView *view,
                           FrScene      *scene,
                           FrRect       *model)
{
  double x0, z0, x1, z1, px1, py1;

  g_return_if_fail (view != NULL && model != NULL);
  g_return_if_fail (FR_IS_SCENE (scene));

  fr_scene_get_bounds (scene, &x0, &z0, &x1, &z1);
  fr_view_model_to_widget (view, x0, z0, &model->x, &model->y);
  fr_view_model_to_widget (view, x1, z1, &px1, &py1);
  model->width = px1 - model->x;
  model->height = py1 - model->y;
}

/* What a line of the model's own, width wide (view pixels or points), is
 * clipped to: the model's rectangle grown by half of width on every side,
 * so that a line lying on the model's edge (an interface at its top, an
 * obstacle's side on it) shows whole, and one crossing the edge ends
 * flush with the outside of a line along it.  The figures and the model
 * editor's overlay clip to it; the canvas's lines shader grows the
 * model's rectangle by each line's half width in the same way. */
void
fr_plot_layout_model_line_clip (const FrView *view,
                                FrScene      *scene,
                                double        width,
                                FrRect       *clip)
{
  FrRect model;

  g_return_if_fail (view != NULL && clip != NULL);
  g_return_if_fail (FR_IS_SCENE (scene));

  fr_plot_layout_model_rect (view, scene, &model);
  *clip = fr_clip_grown (&model, 0.5 * width);
}

/* Places the axes for a model drawn at model (widget pixels).  They run
 * along the part of the plot that the model and its padding cover: the
 * plot's edges when the model overflows it (zoomed in), the padded
 * model's when all of it shows, so the labels stay next to the data.
 * Their labels go in bands the size of the gutters outside that box,
 * which the field never reaches (the padding holds a marker on the
 * model's edge) and which keep clear of each other and of the colour
 * bar's gutter.  FALSE when the model is not in the plot at all. */
gboolean
fr_plot_layout_axes (const FrPlotLayout *layout,
                     const FrRect       *model,
                     FrPlotAxes         *axes)
{
  const FrRect *p;
  double x0, y0, x1, y1, title_end;

  g_return_val_if_fail (layout != NULL && model != NULL && axes != NULL, FALSE);

  p = &layout->plot;
  x0 = MAX (model->x - layout->pad, p->x);
  y0 = MAX (model->y - layout->pad, p->y);
  x1 = MIN (model->x + model->width + layout->pad, p->x + p->width);
  y1 = MIN (model->y + model->height + layout->pad, p->y + p->height);
  if (!(x1 > x0 && y1 > y0))
    return FALSE;
  /* A fit's rounding leaves the padded model a hair inside the plot:
   * within half a pixel of an edge is on it. */
  x0 = x0 < p->x + 0.5 ? p->x : x0;
  y0 = y0 < p->y + 0.5 ? p->y : y0;
  x1 = x1 > p->x + p->width - 0.5 ? p->x + p->width : x1;
  y1 = y1 > p->y + p->height - 0.5 ? p->y + p->height : y1;

  axes->box = rect (x0, y0, x1 - x0, y1 - y0);
  /* The far edges as the box has them, so that neighbours only touch. */
  x1 = axes->box.x + axes->box.width;
  y1 = axes->box.y + axes->box.height;
  axes->x_labels = rect (x0, y0 - layout->top.height, x1 - x0, layout->top.height);
  axes->z_labels = rect (x0 - layout->left.width, y0, layout->left.width, y1 - y0);
  /* The x title may reach into the corner right of the top gutter, but
   * not lower, where the colour bar's gutter begins. */
  title_end = y0 <= p->y ? layout->right.x + layout->right.width : p->x + p->width;
  axes->x_title = rect (x1, y0 - layout->top.height, title_end - x1, layout->top.height);
  axes->z_title = rect (x0 - layout->left.width, y1, layout->left.width, layout->bottom.height);
  axes->corner = rect (x0 - layout->left.width, y0 - layout->top.height,
                       layout->left.width, layout->top.height);
  return TRUE;
}

gboolean
fr_rect_contains (const FrRect *r,
                  double        x,
                  double        y)
{
  g_return_val_if_fail (r != NULL, FALSE);

  return x >= r->x && x < r->x + r->width && y >= r->y && y < r->y + r->height;
}

/* Whether a and b share any area (touching edges do not count, nor does
 * a rectangle without area). */
gboolean
fr_rect_intersects (const FrRect *a,
                    const FrRect *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return a->width > 0.0 && a->height > 0.0 && b->width > 0.0 && b->height > 0.0 &&
         a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}
