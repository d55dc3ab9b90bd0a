/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-axes-draw"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "fr-axes-draw.h"
#include "fr-plot-layout.h"

/* Lengths in logical pixels at k = 1: a tick, the gap between a tick's end
 * and its label, and the least gap between two labels of one axis. */
#define TICK_LEN    5.0
#define LABEL_GAP   2.0
#define LABEL_SEP   6.0

/* The ink of lines and labels, and the halo around labels: light on the
 * dark canvas (and its PNG), dark on a figure's white page. */
typedef struct {
  double ink;        /* grey level of lines and text */
  double halo;       /* grey level of the halo */
  double halo_alpha;
} AxesInk;

static const AxesInk inks[] = {
  [FR_AXES_ON_CANVAS] = { 1.0, 0.0, 0.75 },
  [FR_AXES_ON_PAPER] = { 0.0, 1.0, 0.85 },
};

/* A line of text and the box it takes; placed by moving box. */
typedef struct {
  PangoLayout *layout;
  FrRect       box;
} Label;

static void
set_ink (cairo_t *cr, const AxesInk *ink, double alpha)
{
  cairo_set_source_rgba (cr, ink->ink, ink->ink, ink->ink, alpha);
}

/* Labels are laid out with unhinted metrics on every surface, so that
 * their widths are those fr_axes_z_label_width measures without one
 * (hinted widths differ between the canvas, PNG and vector surfaces). */
static void
set_layout_font (PangoLayout *layout,
                 double       k)
{
  PangoFontDescription *font = pango_font_description_from_string ("Sans");
  cairo_font_options_t *options = cairo_font_options_create ();

  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options (pango_layout_get_context (layout), options);
  pango_layout_context_changed (layout);
  pango_font_description_set_absolute_size (font, 11.0 * k * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  cairo_font_options_destroy (options);
}

static void
label_init (Label      *label,
            cairo_t    *cr,
            const char *text,
            double      k)
{
  int w, h;

  label->layout = pango_cairo_create_layout (cr);
  set_layout_font (label->layout, k);
  pango_layout_set_text (label->layout, text, -1);
  pango_layout_get_pixel_size (label->layout, &w, &h);
  label->box = (FrRect) { 0.0, 0.0, w, h };
}

/* Breaks the label into lines no wider than width, at spaces where it
 * can: a long title (a translation, with its unit) stays whole in its
 * gutter. */
static void
label_wrap (Label  *label,
            double  width)
{
  int w, h;

  if (label->box.width <= width)
    return;
  pango_layout_set_width (label->layout, (int) floor (width * PANGO_SCALE));
  pango_layout_set_wrap (label->layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_get_pixel_size (label->layout, &w, &h);
  label->box.width = w;
  label->box.height = h;
}

static void
label_clear (Label *label)
{
  g_clear_object (&label->layout);
}

/* Puts the label's anchor (align_x, align_y: 0 left/top .. 1 right/bottom)
 * at (x, y). */
static void
label_place (Label  *label,
             double  x,
             double  y,
             double  align_x,
             double  align_y)
{
  label->box.x = x - align_x * label->box.width;
  label->box.y = y - align_y * label->box.height;
}

/* Slides the label into area where it fits: a tick label at the end of
 * an axis moves inwards rather than into the next gutter. */
static void
label_keep_in (Label        *label,
               const FrRect *area)
{
  FrRect *b = &label->box;

  b->x = CLAMP (b->x, area->x, MAX (area->x, area->x + area->width - b->width));
  b->y = CLAMP (b->y, area->y, MAX (area->y, area->y + area->height - b->height));
}

/* Draws the label clipped to area: whatever happens to the text, it never
 * reaches the field or another gutter. */
static void
label_draw (cairo_t       *cr,
            const AxesInk *ink,
            const Label   *label,
            const FrRect  *area,
            double         k)
{
  cairo_save (cr);
  cairo_rectangle (cr, area->x, area->y, area->width, area->height);
  cairo_clip (cr);
  cairo_move_to (cr, label->box.x, label->box.y);
  pango_cairo_layout_path (cr, label->layout);
  cairo_set_source_rgba (cr, ink->halo, ink->halo, ink->halo, ink->halo_alpha);
  cairo_set_line_width (cr, 3.0 * k);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_stroke (cr);
  cairo_move_to (cr, label->box.x, label->box.y);
  set_ink (cr, ink, 1.0);
  pango_cairo_show_layout (cr, label->layout);
  cairo_restore (cr);
}

/* The box grown by d on every side, to keep labels apart. */
static FrRect
grown (const FrRect *r,
       double        d)
{
  return (FrRect) { r->x - d, r->y - d, r->width + 2.0 * d, r->height + 2.0 * d };
}

static void
format_tick (char   *buf,
             gsize   len,
             double  value,
             double  step)
{
  int digits = step >= 1.0 ? 0 : (int) ceil (-log10 (step) - 1e-9);

  if (fabs (value) < 0.5 * step)
    value = 0.0;
  g_snprintf (buf, len, "%.*f", CLAMP (digits, 0, 9), value);
}

/* Where model x (or z) lies along the widget's x (or y). */
static double
axis_pos (const FrView *view,
          gboolean      is_x,
          double        v)
{
  double px, py;

  fr_view_model_to_widget (view, v, v, &px, &py);
  return is_x ? px : py;
}

/* The part [*v0, *v1] of the model's x (or z) range that the plot shows;
 * FALSE when none. */
static gboolean
visible_range (const FrView *view,
               FrScene      *scene,
               const FrRect *plot,
               gboolean      is_x,
               double       *v0,
               double       *v1)
{
  double x0, z0, x1, z1, vx0, vz0, vx1, vz1;

  fr_scene_get_bounds (scene, &x0, &z0, &x1, &z1);
  fr_view_widget_to_model (view, plot->x, plot->y, &vx0, &vz0);
  fr_view_widget_to_model (view, plot->x + plot->width, plot->y + plot->height, &vx1, &vz1);
  *v0 = is_x ? MAX (vx0, x0) : MAX (vz0, z0);
  *v1 = is_x ? MIN (vx1, x1) : MIN (vz1, z1);
  return *v1 >= *v0;
}

/* The step between an axis's ticks over [v0, v1]: a round one, at most
 * one tick per 90 (x) or 50 (z) pixels of the axis, and yet at least two
 * ticks where a rounder step left one (a 200–800 m depth axis in a
 * figure was labelled 500 alone). */
static double
tick_step (const FrView *view,
           gboolean      is_x,
           double        v0,
           double        v1,
           double        k)
{
  double a0 = axis_pos (view, is_x, v0), a1 = axis_pos (view, is_x, v1);
  double step = fr_view_nice_step (MAX (v1 - v0, 1e-12),
                                   (int) MAX (2.0, (a1 - a0) / ((is_x ? 90.0 : 50.0) * k)));

  for (int i = 0; i < 3 && floor (v1 / step + 1e-9) - ceil (v0 / step - 1e-9) + 1.0 < 2.0; i++)
    {
      /* 5·10^e → 2·10^e → 1·10^e → 0.5·10^e */
      double mag = pow (10.0, floor (log10 (step) + 1e-9)), m = step / mag;

      step = m > 4.0 ? 2.0 * mag : m > 1.5 ? mag : 0.5 * mag;
    }
  return step;
}

/* The ticks and labels of one axis, over the model's visible part
 * [v0, v1] in model units: x along the top edge of the axes box, z along
 * its left edge, each with its labels in its own band outside the box. */
static void
draw_axis (cairo_t          *cr,
           const AxesInk    *ink,
           const FrView     *view,
           const FrPlotAxes *axes,
           gboolean          is_x,
           double            v0,
           double            v1,
           double            k)
{
  const FrRect *b = &axes->box;
  const FrRect *band = is_x ? &axes->x_labels : &axes->z_labels;
  double a0, a1, step;
  FrRect last = { 0 };
  gboolean have_last = FALSE;
  char buf[64];

  if (!(v1 >= v0))
    return;
  a0 = axis_pos (view, is_x, v0);
  a1 = axis_pos (view, is_x, v1);

  /* The axis line, just outside the box, where the model is. */
  set_ink (cr, ink, 0.6);
  cairo_set_line_width (cr, 1.0 * k);
  if (is_x)
    {
      cairo_move_to (cr, a0, b->y - 0.5 * k);
      cairo_line_to (cr, a1, b->y - 0.5 * k);
    }
  else
    {
      cairo_move_to (cr, b->x - 0.5 * k, a0);
      cairo_line_to (cr, b->x - 0.5 * k, a1);
    }
  cairo_stroke (cr);

  step = tick_step (view, is_x, v0, v1, k);
  for (double v = ceil (v0 / step) * step; v <= v1 + 1e-9 * step; v += step)
    {
      double a = axis_pos (view, is_x, v);
      Label label;
      FrRect sep;

      if (is_x)
        {
          cairo_move_to (cr, a, b->y);
          cairo_line_to (cr, a, b->y - TICK_LEN * k);
        }
      else
        {
          cairo_move_to (cr, b->x, a);
          cairo_line_to (cr, b->x - TICK_LEN * k, a);
        }
      set_ink (cr, ink, 0.9);
      cairo_stroke (cr);

      format_tick (buf, sizeof buf, v, step);
      label_init (&label, cr, buf, k);
      if (is_x)
        label_place (&label, a, b->y - (TICK_LEN + LABEL_GAP) * k, 0.5, 1.0);
      else
        label_place (&label, b->x - (TICK_LEN + LABEL_GAP) * k, a, 1.0, 0.5);
      label_keep_in (&label, band);
      /* Drop a label that would touch the one before (the end labels
       * moved inwards may come close). */
      sep = grown (&label.box, 0.5 * LABEL_SEP * k);
      if (!have_last || !fr_rect_intersects (&sep, &last))
        {
          label_draw (cr, ink, &label, band, k);
          last = sep;
          have_last = TRUE;
        }
      label_clear (&label);
    }
}

/* name with the unit in brackets, "x (km)"; name alone without a unit. */
static char *
title_text (const char *name,
            const char *unit)
{
  if (unit == NULL)
    return g_strdup (name);
  return g_strdup_printf ("%s (%s)", name, unit);
}

/* The axes and their titles "x" and "z" (with the length unit, "x (km)"),
 * each beyond its axis's end; "x" before its start where the colour
 * bar's gutter leaves no room after. */
static void
draw_axes (cairo_t          *cr,
           const AxesInk    *ink,
           const FrView     *view,
           const FrRect     *plot,
           const FrPlotAxes *axes,
           FrScene          *scene,
           double            k)
{
  const FrRect *b = &axes->box;
  FrLengthUnit unit = fr_scene_get_length_unit (scene);
  const char *length = unit != FR_LENGTH_UNIT_NONE ? fr_length_unit_get_id (unit) : NULL;
  g_autofree char *x_text = title_text ("x", length);
  g_autofree char *z_text = title_text ("z", length);
  double v0, v1;
  Label title;

  /* Over the part of the model the plot shows. */
  if (visible_range (view, scene, plot, TRUE, &v0, &v1))
    draw_axis (cr, ink, view, axes, TRUE, v0, v1, k);
  if (visible_range (view, scene, plot, FALSE, &v0, &v1))
    draw_axis (cr, ink, view, axes, FALSE, v0, v1, k);

  label_init (&title, cr, x_text, k);
  if (axes->x_title.width >= title.box.width + 8.0 * k)
    {
      label_place (&title, b->x + b->width + 8.0 * k, b->y - (TICK_LEN + LABEL_GAP) * k, 0.0, 1.0);
      label_keep_in (&title, &axes->x_title);
      label_draw (cr, ink, &title, &axes->x_title, k);
    }
  else
    {
      label_place (&title, b->x - 8.0 * k, b->y - (TICK_LEN + LABEL_GAP) * k, 1.0, 1.0);
      label_keep_in (&title, &axes->corner);
      label_draw (cr, ink, &title, &axes->corner, k);
    }
  label_clear (&title);
  label_init (&title, cr, z_text, k);
  label_place (&title, b->x - (TICK_LEN + LABEL_GAP) * k, b->y + b->height + 4.0 * k, 1.0, 0.0);
  label_keep_in (&title, &axes->z_title);
  label_draw (cr, ink, &title, &axes->z_title, k);
  label_clear (&title);
}

/* The colour bar in the right gutter, level with the model as the plot
 * shows it (beside) and as tall: the bar, its range and middle, and its
 * title above it, with the velocity's unit where the scene has a length
 * unit. */
static void
draw_colorbar (cairo_t            *cr,
               const AxesInk      *ink,
               const FrPlotLayout *lay,
               const FrRect       *beside,
               FrScene            *scene,
               FrColormap          colormap,
               double              k)
{
  const FrRect *g = &lay->right;
  FrLengthUnit unit = fr_scene_get_length_unit (scene);
  g_autofree char *velocity_unit = NULL;
  g_autofree char *title_str = NULL;
  cairo_pattern_t *pattern;
  Label title, labels[3];
  double w = 14.0 * k;
  double x = g->x + 12.0 * k;
  double y, h, top, bottom;
  float vmin, vmax;
  gboolean uniform;
  char buf[64];

  fr_scene_get_velocity_range (scene, &vmin, &vmax);
  uniform = fr_scene_velocity_is_uniform (scene);

  /* Room above the bar for the title and half the top label, below it
   * for half the bottom label. */
  if (unit != FR_LENGTH_UNIT_NONE)
    velocity_unit = g_strdup_printf ("%s/s", fr_length_unit_get_id (unit));
  title_str = title_text (_("velocity"), velocity_unit);
  label_init (&title, cr, title_str, k);
  label_wrap (&title, g->width);
  top = g->y + title.box.height + 10.0 * k;
  bottom = g->y + g->height - 8.0 * k;
  /* As tall as the model beside it, so that the bar stands level with
   * the section as in a printed figure (a fixed 320 px stood out above and
   * below a flat model); a model drawn too flat for a readable bar gets a
   * bar of least_h centred on it. */
  {
    const double least_h = 120.0 * k;
    const double y0 = MAX (beside->y, top), y1 = MIN (beside->y + beside->height, bottom);

    if (y1 - y0 >= least_h)
      {
        y = y0;
        h = y1 - y0;
      }
    else
      {
        h = MIN (least_h, bottom - top);
        y = CLAMP (beside->y + 0.5 * (beside->height - h), top, bottom - h);
      }
  }
  if (h < 20.0 * k)
    {
      label_clear (&title);
      return;
    }

  pattern = cairo_pattern_create_linear (0.0, y + h, 0.0, y);
  for (int i = 0; i <= 32; i++)
    {
      double rgb[3];

      /* One velocity everywhere: the one colour the field shows (the
       * scale's middle, its range being widened around it), not a ramp
       * labelled 3000, 3000, 3000 (helper-60). */
      fr_colormap_sample (colormap, uniform ? 0.5 : i / 32.0, rgb);
      cairo_pattern_add_color_stop_rgb (pattern, i / 32.0, rgb[0], rgb[1], rgb[2]);
    }
  cairo_rectangle (cr, x, y, w, h);
  cairo_set_source (cr, pattern);
  cairo_fill_preserve (cr);
  cairo_pattern_destroy (pattern);
  set_ink (cr, ink, 0.8);
  cairo_set_line_width (cr, 1.0 * k);
  cairo_stroke (cr);

  for (int i = 0; i < 3; i++)
    {
      double f = i / 2.0;   /* 0: top (vmax) .. 1: bottom (vmin) */

      /* Four digits: velocities in m/s read 5800, not 5.8e+03; the one
       * velocity of a uniform model as the layer list shows it (2350.25). */
      if (uniform)
        g_snprintf (buf, sizeof buf, "%.6g", fr_scene_get_least_velocity (scene));
      else
        /* Weighted, in double: the ends are vmax and vmin exactly (the
         * range taken from vmax in float read 0.0009999 for 0.001). */
        g_snprintf (buf, sizeof buf, "%.4g", (1.0 - f) * vmax + f * (double) vmin);
      label_init (&labels[i], cr, buf, k);
      label_place (&labels[i], x + w + 4.0 * k, y + f * h, 0.0, 0.5);
      label_keep_in (&labels[i], g);
    }
  /* The middle label only where it clears both ends (a short bar); for
   * one velocity, the middle one alone. */
  for (int i = 0; i < 3; i++)
    {
      FrRect sep = grown (&labels[1].box, 0.5 * LABEL_SEP * k);

      if (uniform ? i == 1
                  : i != 1 || (!fr_rect_intersects (&sep, &labels[0].box) &&
                               !fr_rect_intersects (&sep, &labels[2].box)))
        label_draw (cr, ink, &labels[i], g, k);
      label_clear (&labels[i]);
    }
  /* Above the top label, starting at the bar. */
  label_place (&title, x, y - 9.0 * k, 0.0, 1.0);
  label_keep_in (&title, g);
  label_draw (cr, ink, &title, g, k);
  label_clear (&title);
}

/* Draws the axes and colour bar for view over a picture of view->width ×
 * view->height in the ink for its background, in the gutters of layout
 * (fr_plot_layout_for_view of the same view, scene and k: the one the
 * field was drawn in), never over the plot.  k scales sizes (k > 1 for
 * larger exports). */
void
fr_axes_draw (cairo_t            *cr,
              const FrView       *view,
              const FrPlotLayout *layout,
              FrScene            *scene,
              FrColormap          colormap,
              double              k,
              FrAxesOn            on)
{
  FrPlotAxes axes;
  FrRect model;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (view != NULL && layout != NULL);
  g_return_if_fail (FR_IS_SCENE (scene));
  g_return_if_fail (on == FR_AXES_ON_CANVAS || on == FR_AXES_ON_PAPER);

  if (!fr_scene_has_model (scene))
    return;
  fr_plot_layout_model_rect (view, scene, &model);

  cairo_save (cr);
  /* Butt ends: a round cap would reach half a pixel into the plot. */
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
  if (fr_plot_layout_axes (layout, &model, &axes))
    draw_axes (cr, &inks[on], view, &layout->plot, &axes, scene, k);
  /* The bar stands beside the model as the plot shows it (not its padded
   * axes box), or the whole plot where the view shows none of it. */
  {
    const FrRect *p = &layout->plot;
    const double y0 = MAX (model.y, p->y), y1 = MIN (model.y + model.height, p->y + p->height);
    FrRect beside = y1 > y0 ? (FrRect) { p->x, y0, p->width, y1 - y0 } : *p;

    draw_colorbar (cr, &inks[on], layout, &beside, scene, colormap, k);
  }
  cairo_restore (cr);
}

/* The width in pixels of the widest z tick label that fr_axes_draw puts
 * beside plot (the plot's rows decide which ticks; its columns do not
 * matter) for view, at k; 0 without a model.  Measured at k = 1 and
 * scaled, so a picture exported k times larger gets a gutter exactly k
 * times wider. */
double
fr_axes_z_label_width (const FrView *view,
                       FrScene      *scene,
                       const FrRect *plot,
                       double        k)
{
  PangoContext *context;
  PangoLayout *layout;
  double v0, v1, step;
  int widest = 0;
  char buf[64];

  g_return_val_if_fail (view != NULL && plot != NULL, 0.0);
  g_return_val_if_fail (FR_IS_SCENE (scene), 0.0);
  g_return_val_if_fail (k > 0.0, 0.0);

  if (!fr_scene_has_model (scene) || !visible_range (view, scene, plot, FALSE, &v0, &v1))
    return 0.0;
  context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  layout = pango_layout_new (context);
  set_layout_font (layout, 1.0);
  step = tick_step (view, FALSE, v0, v1, k);
  for (double v = ceil (v0 / step) * step; v <= v1 + 1e-9 * step; v += step)
    {
      int w;

      format_tick (buf, sizeof buf, v, step);
      pango_layout_set_text (layout, buf, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      widest = MAX (widest, w);
    }
  g_object_unref (layout);
  g_object_unref (context);
  return widest * k;
}
