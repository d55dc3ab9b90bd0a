/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-axes-draw"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "fr-axes-draw.h"

/* The ink of lines and labels, and the halo that keeps labels readable
 * over any colour of the field: light on the dark canvas (and its PNG),
 * dark on a figure's white page. */
typedef struct {
  double ink;        /* grey level of lines and text */
  double halo;       /* grey level of the halo */
  double halo_alpha;
} AxesInk;

static const AxesInk inks[] = {
  [FR_AXES_ON_CANVAS] = { 1.0, 0.0, 0.75 },
  [FR_AXES_ON_PAPER] = { 0.0, 1.0, 0.85 },
};

static void
set_ink (cairo_t *cr, const AxesInk *ink, double alpha)
{
  cairo_set_source_rgba (cr, ink->ink, ink->ink, ink->ink, alpha);
}

static void
show_text (cairo_t       *cr,
           const AxesInk *ink,
           const char    *text,
           double         x,
           double         y,
           double         align_x,
           double         align_y,
           double         k)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans");
  int w, h;

  pango_font_description_set_absolute_size (font, 11.0 * k * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  x -= align_x * w;
  y -= align_y * h;

  cairo_move_to (cr, x, y);
  pango_cairo_layout_path (cr, layout);
  cairo_set_source_rgba (cr, ink->halo, ink->halo, ink->halo, ink->halo_alpha);
  cairo_set_line_width (cr, 3.0 * k);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_stroke (cr);
  cairo_move_to (cr, x, y);
  set_ink (cr, ink, 1.0);
  pango_cairo_show_layout (cr, layout);

  pango_font_description_free (font);
  g_object_unref (layout);
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

static void
draw_axes (cairo_t       *cr,
           const AxesInk *ink,
           const FrView  *view,
           FrScene       *scene,
           double         k)
{
  double x0, z0, x1, z1;
  double px0, py0, px1, py1;
  double vx0, vz0, vx1, vz1, step;
  char buf[64];

  fr_scene_get_bounds (scene, &x0, &z0, &x1, &z1);
  fr_view_model_to_widget (view, x0, z0, &px0, &py0);
  fr_view_model_to_widget (view, x1, z1, &px1, &py1);

  /* The model frame. */
  set_ink (cr, ink, 0.6);
  cairo_set_line_width (cr, 1.0 * k);
  cairo_rectangle (cr, px0 - 0.5, py0 - 0.5, px1 - px0 + 1.0, py1 - py0 + 1.0);
  cairo_stroke (cr);

  /* Ticks along the top (x) and the left (z) edges of what is visible. */
  fr_view_widget_to_model (view, 0.0, 0.0, &vx0, &vz0);
  fr_view_widget_to_model (view, view->width, view->height, &vx1, &vz1);
  vx0 = MAX (vx0, x0);
  vx1 = MIN (vx1, x1);
  vz0 = MAX (vz0, z0);
  vz1 = MIN (vz1, z1);

  {
    double top = CLAMP (py0, 22.0 * k, view->height);

    step = fr_view_nice_step (MAX (vx1 - vx0, 1e-12), (int) MAX (2.0, (px1 - px0) / (90.0 * k)));
    for (double x = ceil (vx0 / step) * step; x <= vx1 + 1e-9 * step; x += step)
      {
        double px;

        fr_view_model_to_widget (view, x, 0.0, &px, NULL);
        cairo_move_to (cr, px, top);
        cairo_line_to (cr, px, top - 5.0 * k);
        set_ink (cr, ink, 0.9);
        cairo_stroke (cr);
        format_tick (buf, sizeof buf, x, step);
        show_text (cr, ink, buf, px, top - 6.0 * k, 0.5, 1.0, k);
      }
    show_text (cr, ink, "x", MIN (px1 + 24.0 * k, view->width - 8.0 * k), top - 6.0 * k, 0.0, 1.0, k);
  }

  {
    double left = CLAMP (px0, 48.0 * k, view->width);

    step = fr_view_nice_step (MAX (vz1 - vz0, 1e-12), (int) MAX (2.0, (py1 - py0) / (50.0 * k)));
    for (double z = ceil (vz0 / step) * step; z <= vz1 + 1e-9 * step; z += step)
      {
        double py;

        fr_view_model_to_widget (view, 0.0, z, NULL, &py);
        cairo_move_to (cr, left, py);
        cairo_line_to (cr, left - 5.0 * k, py);
        set_ink (cr, ink, 0.9);
        cairo_stroke (cr);
        format_tick (buf, sizeof buf, z, step);
        show_text (cr, ink, buf, left - 7.0 * k, py, 1.0, 0.5, k);
      }
    show_text (cr, ink, "z", left - 7.0 * k, MIN (py1, view->height - 20.0 * k) + 8.0 * k, 1.0, 0.0, k);
  }
}

static void
draw_colorbar (cairo_t       *cr,
               const AxesInk *ink,
               const FrView  *view,
               FrScene       *scene,
               FrColormap     colormap,
               double         k)
{
  cairo_pattern_t *pattern;
  double w = 14.0 * k;
  double h = MIN (0.6 * view->height, 320.0 * k);
  double x = view->width - w - 52.0 * k;
  double y = 0.5 * (view->height - h);
  float vmin, vmax;
  char buf[64];

  fr_scene_get_velocity_range (scene, &vmin, &vmax);

  pattern = cairo_pattern_create_linear (0.0, y + h, 0.0, y);
  for (int i = 0; i <= 32; i++)
    {
      double rgb[3];

      fr_colormap_sample (colormap, i / 32.0, rgb);
      cairo_pattern_add_color_stop_rgb (pattern, i / 32.0, rgb[0], rgb[1], rgb[2]);
    }
  cairo_rectangle (cr, x, y, w, h);
  cairo_set_source (cr, pattern);
  cairo_fill_preserve (cr);
  cairo_pattern_destroy (pattern);
  set_ink (cr, ink, 0.8);
  cairo_set_line_width (cr, 1.0 * k);
  cairo_stroke (cr);

  g_snprintf (buf, sizeof buf, "%.3g", vmax);
  show_text (cr, ink, buf, x + w + 4.0 * k, y, 0.0, 0.5, k);
  g_snprintf (buf, sizeof buf, "%.3g", 0.5 * (vmin + vmax));
  show_text (cr, ink, buf, x + w + 4.0 * k, y + 0.5 * h, 0.0, 0.5, k);
  g_snprintf (buf, sizeof buf, "%.3g", vmin);
  show_text (cr, ink, buf, x + w + 4.0 * k, y + h, 0.0, 0.5, k);
  /* Above the top label (centred on the bar's end), starting at the bar:
   * centred on it, it reached into the field. */
  show_text (cr, ink, _("velocity"), x, y - 12.0 * k, 0.0, 1.0, k);
}

/* Draws the frame, axes and colour bar for view over a picture of
 * view->width × view->height in the ink for its background; k scales
 * sizes (k > 1 for larger exports). */
void
fr_axes_draw (cairo_t      *cr,
              const FrView *view,
              FrScene      *scene,
              FrColormap    colormap,
              double        k,
              FrAxesOn      on)
{
  g_return_if_fail (cr != NULL);
  g_return_if_fail (view != NULL);
  g_return_if_fail (FR_IS_SCENE (scene));
  g_return_if_fail (on == FR_AXES_ON_CANVAS || on == FR_AXES_ON_PAPER);

  if (!fr_scene_has_model (scene))
    return;
  cairo_save (cr);
  draw_axes (cr, &inks[on], view, scene, k);
  draw_colorbar (cr, &inks[on], view, scene, colormap, k);
  cairo_restore (cr);
}
