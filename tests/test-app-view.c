/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The canvas transform (app/fr-view.c) and the plot layout around it
 * (app/fr-plot-layout.c): pure maths, and the left gutter measured
 * against the z labels of a scene's model. */
#include <math.h>

#include <glib.h>

#include "fr-axes-draw.h"
#include "fr-plot-layout.h"
#include "fr-scene.h"
#include "fr-view.h"

static void
make_view (FrView *v)
{
  FrRect box = { 20.0, 20.0, 760.0, 560.0 };

  fr_view_init (v);
  fr_view_set_size (v, 800, 600);
  fr_view_fit (v, 0.0, 0.0, 3.0, 1.5, &box);
}

/* The canvas's view of a model: fitted into the plot of its layout. */
static void
make_canvas_view (FrView       *v,
                  FrPlotLayout *layout,
                  double        width,
                  double        height,
                  double        x1,
                  double        z1)
{
  FrRect box;

  fr_view_init (v);
  fr_view_set_size (v, width, height);
  fr_plot_layout_compute (layout, width, height, 1.0);
  fr_plot_layout_fit_box (layout, &box);
  fr_view_fit (v, 0.0, 0.0, x1, z1, &box);
}

static void
test_round_trip (void)
{
  FrView v;

  make_view (&v);
  for (double x = -1.0; x <= 4.0; x += 0.37)
    for (double z = -0.5; z <= 2.0; z += 0.29)
      {
        double px, py, x2, z2;

        fr_view_model_to_widget (&v, x, z, &px, &py);
        fr_view_widget_to_model (&v, px, py, &x2, &z2);
        g_assert_cmpfloat_with_epsilon (x, x2, 1e-12);
        g_assert_cmpfloat_with_epsilon (z, z2, 1e-12);
      }
}

static void
test_fit (void)
{
  FrView v;
  double px0, py0, px1, py1;

  make_view (&v);
  fr_view_model_to_widget (&v, 0.0, 0.0, &px0, &py0);
  fr_view_model_to_widget (&v, 3.0, 1.5, &px1, &py1);
  /* The whole box shows, inside the margin, with z growing downward. */
  g_assert_cmpfloat (px0, >=, 20.0 - 1e-9);
  g_assert_cmpfloat (py0, >=, 20.0 - 1e-9);
  g_assert_cmpfloat (px1, <=, 780.0 + 1e-9);
  g_assert_cmpfloat (py1, <=, 580.0 + 1e-9);
  g_assert_cmpfloat (py1, >, py0);
  /* The limiting dimension touches the margin: width here (760/3 < 560/1.5). */
  g_assert_cmpfloat_with_epsilon (px1 - px0, 760.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (0.5 * (px0 + px1), 400.0, 1e-9);
}

/* Sizes from the canvas's smallest (200 × 150) to a large export, and
 * some no widget has, with the scales of exports. */
static const double layout_sizes[][2] = {
  { 200, 150 }, { 640, 420 }, { 761, 583 }, { 1200, 700 }, { 3000, 120 },
  { 150, 3000 }, { 40, 30 }, { 1, 1 },
};
static const double layout_scales[] = { 1.0, 1.5, 2.0, 4.0 };

static gboolean
rect_inside (const FrRect *in,
             const FrRect *out)
{
  return in->x >= out->x - 1e-9 && in->y >= out->y - 1e-9 &&
         in->x + in->width <= out->x + out->width + 1e-9 &&
         in->y + in->height <= out->y + out->height + 1e-9;
}

/* The common part of a and b; empty (no area) when they do not meet. */
static FrRect
intersection (const FrRect *a,
              const FrRect *b)
{
  double x0 = MAX (a->x, b->x), y0 = MAX (a->y, b->y);
  double x1 = MIN (a->x + a->width, b->x + b->width), y1 = MIN (a->y + a->height, b->y + b->height);

  return (FrRect) { x0, y0, MAX (x1 - x0, 0.0), MAX (y1 - y0, 0.0) };
}

/* No two of the plot, the gutters and the title corners overlap, at any
 * size: what one holds can never be drawn over another's.  Where the
 * picture has room for them all, they tile it. */
static void
test_layout_disjoint (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (layout_sizes); i++)
    for (guint j = 0; j < G_N_ELEMENTS (layout_scales); j++)
      {
        double w = layout_sizes[i][0], h = layout_sizes[i][1], k = layout_scales[j];
        FrPlotLayout lay;
        const FrRect *r[5];
        FrRect whole = { 0.0, 0.0, w, h };
        double area = 0.0;

        fr_plot_layout_compute (&lay, w, h, k);
        r[0] = &lay.plot; r[1] = &lay.left; r[2] = &lay.top; r[3] = &lay.right; r[4] = &lay.bottom;
        g_assert_cmpfloat (lay.plot.width, >=, 1.0);
        g_assert_cmpfloat (lay.plot.height, >=, 1.0);
        for (guint a = 0; a < G_N_ELEMENTS (r); a++)
          {
            area += r[a]->width * r[a]->height;
            for (guint b = a + 1; b < G_N_ELEMENTS (r); b++)
              if (fr_rect_intersects (r[a], r[b]))
                g_error ("%g × %g at k = %g: rectangles %u and %u overlap", w, h, k, a, b);
          }
        /* The gutters hug the plot: the left gutter's right edge is the
         * plot's left edge, and so on. */
        g_assert_cmpfloat (lay.left.x + lay.left.width, ==, lay.plot.x);
        g_assert_cmpfloat (lay.top.y + lay.top.height, ==, lay.plot.y);
        g_assert_cmpfloat (lay.right.x, ==, lay.plot.x + lay.plot.width);
        g_assert_cmpfloat (lay.bottom.y, ==, lay.plot.y + lay.plot.height);
        if (rect_inside (&lay.right, &whole) && rect_inside (&lay.bottom, &whole))
          {
            /* With the four corners they tile the picture. */
            area += (lay.left.width + lay.right.width) * (lay.top.height + lay.bottom.height);
            g_assert_cmpfloat_with_epsilon (area, w * h, 1e-6 * w * h);
          }
        /* The gutters hold the labels and the colour bar: sizable, and
         * growing with k as the text does. */
        if (w >= 400 * k && h >= 300 * k)
          {
            g_assert_cmpfloat (lay.left.width, >=, 40.0 * k);
            g_assert_cmpfloat (lay.top.height, >=, 20.0 * k);
            g_assert_cmpfloat (lay.right.width, >=, 70.0 * k);
            g_assert_cmpfloat (lay.plot.width, >, 0.5 * w);
          }
      }
}

/* A fitted model lies whole inside the plot (not under the colour bar or
 * the labels), touching the padding in its limiting dimension, with room
 * around it for markers on its edge. */
static void
test_fit_into_plot (void)
{
  const double models[][2] = { { 3.0, 1.5 }, { 1.0, 4.0 }, { 300.0, 0.2 }, { 2.0, 2.0 } };

  for (guint i = 0; i < G_N_ELEMENTS (layout_sizes); i++)
    for (guint m = 0; m < G_N_ELEMENTS (models); m++)
      {
        double w = layout_sizes[i][0], h = layout_sizes[i][1];
        double x1 = models[m][0], z1 = models[m][1];
        double px0, py0, px1, py1;
        FrPlotLayout lay;
        FrRect box, model;
        FrView v;

        if (w < 200 || h < 150)
          continue;   /* smaller than the canvas ever gets */
        make_canvas_view (&v, &lay, w, h, x1, z1);
        fr_plot_layout_fit_box (&lay, &box);
        fr_view_model_to_widget (&v, 0.0, 0.0, &px0, &py0);
        fr_view_model_to_widget (&v, x1, z1, &px1, &py1);
        model = (FrRect) { px0, py0, px1 - px0, py1 - py0 };
        g_assert_true (rect_inside (&box, &lay.plot));
        g_assert_true (rect_inside (&model, &box));
        g_assert_false (fr_rect_intersects (&model, &lay.right));
        g_assert_false (fr_rect_intersects (&model, &lay.left));
        g_assert_false (fr_rect_intersects (&model, &lay.top));
        g_assert_cmpfloat (px0 - lay.plot.x, >=, lay.pad - 1e-9);
        g_assert_cmpfloat (py0 - lay.plot.y, >=, lay.pad - 1e-9);
        if (w >= 640 && h >= 420)
          g_assert_cmpfloat (lay.pad, >=, 15.0);   /* a selected marker's halo */
        /* Centred across; the surface (z = 0) at the top, under the x axis. */
        g_assert_cmpfloat_with_epsilon (0.5 * (px0 + px1), box.x + 0.5 * box.width, 1e-6);
        g_assert_cmpfloat_with_epsilon (py0, box.y, 1e-6);
        g_assert_true (fabs (model.width - box.width) < 1e-6 || fabs (model.height - box.height) < 1e-6);
      }
}

/* Clicks land on the model point under them: with the plot's asymmetric
 * margins, every pixel of the plot goes to the model and back to itself,
 * and the model point drawn at a pixel is the one read back there. */
static void
test_pick_round_trip (void)
{
  FrPlotLayout lay;
  FrView v;

  make_canvas_view (&v, &lay, 761, 583, 3.0, 1.5);
  fr_view_zoom_at (&v, 400.0, 120.0, 3.7);
  for (double py = lay.plot.y; py < lay.plot.y + lay.plot.height; py += 7.0)
    for (double px = lay.plot.x; px < lay.plot.x + lay.plot.width; px += 5.0)
      {
        double x, z, px2, py2;

        fr_view_widget_to_model (&v, px + 0.5, py + 0.5, &x, &z);
        fr_view_model_to_widget (&v, x, z, &px2, &py2);
        g_assert_cmpfloat_with_epsilon (px2, px + 0.5, 1e-9);
        g_assert_cmpfloat_with_epsilon (py2, py + 0.5, 1e-9);
      }
  /* The fitted model's corners are where the fit put them. */
  make_canvas_view (&v, &lay, 761, 583, 3.0, 1.5);
  {
    FrRect box;
    double x, z;

    fr_plot_layout_fit_box (&lay, &box);
    /* 3 × 1.5 in the box: the width limits; the top stays at the top. */
    fr_view_widget_to_model (&v, box.x, box.y, &x, &z);
    g_assert_cmpfloat_with_epsilon (x, 0.0, 1e-12);
    g_assert_cmpfloat_with_epsilon (z, 0.0, 1e-12);
    fr_view_widget_to_model (&v, box.x + box.width, box.y + box.width / 2.0, &x, &z);
    g_assert_cmpfloat_with_epsilon (x, 3.0, 1e-12);
    g_assert_cmpfloat_with_epsilon (z, 1.5, 1e-12);
  }
}

/* Wherever the model is (fitted, zoomed in, zoomed out, panned off an
 * edge), the axes' label bands and title places stay clear of each
 * other, of the colour bar's gutter and of the field (the model and a
 * marker on its edge), and inside the picture. */
static void
test_axes_clear_of_field (void)
{
  const double w = 761, h = 583, r_marker = 15.0;
  GRand *rand = g_rand_new_with_seed (7);
  guint placed = 0, zoomed_in = 0, whole = 0;

  for (guint n = 0; n < 2000; n++)
    {
      FrPlotLayout lay;
      FrPlotAxes axes;
      FrRect whole_pic = { 0.0, 0.0, w, h };
      FrRect model, field;
      const FrRect *bands[5];
      double px1, py1;
      FrView v;

      make_canvas_view (&v, &lay, w, h, 3.0, 1.5);
      if (n > 0)
        {
          fr_view_zoom_at (&v, g_rand_double_range (rand, 0, w), g_rand_double_range (rand, 0, h),
                           exp (g_rand_double_range (rand, -1.5, 2.5)));
          fr_view_pan (&v, g_rand_double_range (rand, -400, 400), g_rand_double_range (rand, -300, 300));
        }
      fr_view_model_to_widget (&v, 0.0, 0.0, &model.x, &model.y);
      fr_view_model_to_widget (&v, 3.0, 1.5, &px1, &py1);
      model.width = px1 - model.x;
      model.height = py1 - model.y;
      if (!fr_plot_layout_axes (&lay, &model, &axes))
        {
          /* Only when no part of the model is in the plot. */
          g_assert_false (fr_rect_intersects (&model, &lay.plot));
          continue;
        }
      placed++;
      zoomed_in += model.x < lay.plot.x && model.y < lay.plot.y;
      whole += rect_inside (&model, &lay.plot);
      /* What the field may draw: the model's cells and markers on them,
       * as far as the plot shows them. */
      field = intersection (&(FrRect) { model.x - r_marker, model.y - r_marker,
                                        model.width + 2 * r_marker, model.height + 2 * r_marker },
                            &lay.plot);
      bands[0] = &axes.x_labels; bands[1] = &axes.z_labels; bands[2] = &axes.x_title;
      bands[3] = &axes.z_title; bands[4] = &axes.corner;
      for (guint a = 0; a < G_N_ELEMENTS (bands); a++)
        {
          if (bands[a]->width <= 0.0 || bands[a]->height <= 0.0)
            continue;
          g_assert_true (rect_inside (bands[a], &whole_pic));
          g_assert_false (fr_rect_intersects (bands[a], &axes.box));
          g_assert_false (fr_rect_intersects (bands[a], &field));
          g_assert_false (fr_rect_intersects (bands[a], &lay.right));
          for (guint b = a + 1; b < G_N_ELEMENTS (bands); b++)
            if (fr_rect_intersects (bands[a], bands[b]))
              g_error ("bands %u and %u overlap around the box %g, %g, %g × %g", a, b,
                       axes.box.x, axes.box.y, axes.box.width, axes.box.height);
        }
      /* The axes' box is the plot's part that the padded model covers. */
      g_assert_true (rect_inside (&axes.box, &lay.plot));
    }
  /* The random views covered the cases. */
  g_assert_cmpuint (placed, >, 500);
  g_assert_cmpuint (zoomed_in, >, 50);
  g_assert_cmpuint (whole, >, 50);
  g_rand_free (rand);
}

/* A picture exported n times larger lays out n times larger: its plot is
 * the canvas's plot scaled, so it shows the same part of the model. */
static void
test_layout_scales_with_export (void)
{
  FrPlotLayout lay, big;
  FrView v, scaled;

  make_canvas_view (&v, &lay, 761, 583, 3.0, 1.5);
  for (int n = 2; n <= 4; n++)
    {
      double x0, z0, x1, z1, bx0, bz0, bx1, bz1;

      scaled = fr_view_scaled (&v, 761 * n, 583 * n);
      fr_plot_layout_compute (&big, 761 * n, 583 * n, n);
      g_assert_cmpfloat_with_epsilon (big.plot.x, n * lay.plot.x, 1e-9);
      g_assert_cmpfloat_with_epsilon (big.plot.y, n * lay.plot.y, 1e-9);
      g_assert_cmpfloat_with_epsilon (big.plot.width, n * lay.plot.width, 1e-9);
      g_assert_cmpfloat_with_epsilon (big.plot.height, n * lay.plot.height, 1e-9);
      fr_view_widget_to_model (&v, lay.plot.x, lay.plot.y, &x0, &z0);
      fr_view_widget_to_model (&v, lay.plot.x + lay.plot.width, lay.plot.y + lay.plot.height, &x1, &z1);
      fr_view_widget_to_model (&scaled, big.plot.x, big.plot.y, &bx0, &bz0);
      fr_view_widget_to_model (&scaled, big.plot.x + big.plot.width, big.plot.y + big.plot.height,
                               &bx1, &bz1);
      g_assert_cmpfloat_with_epsilon (bx0, x0, 1e-9);
      g_assert_cmpfloat_with_epsilon (bz0, z0, 1e-9);
      g_assert_cmpfloat_with_epsilon (bx1, x1, 1e-9);
      g_assert_cmpfloat_with_epsilon (bz1, z1, 1e-9);
    }
}

/* A model of nx × nz cells of 0.05 with its top left corner at (x0, z0). */
static FrScene *
make_scene (guint  nx,
            guint  nz,
            double x0,
            double z0)
{
  fr_grid g = fr_grid_2d (nx, nz, 0.05, 0.05, x0, z0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  FrScene *scene = fr_scene_new ();

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = 1.0f + (float) (i / g.nx) / g.nz;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "view", &g, bytes, NULL));
  return scene;
}

/* The rule for the left gutter: the default up to labels of about seven
 * digits; wider labels widen it, in steps of 8 px, up to a third of the
 * picture; the gutters stay disjoint and hug the plot. */
static void
test_layout_wide_labels (void)
{
  const struct { double w, h, k, label, left; } cases[] = {
    { 761, 583, 1.0, 0.0, 60.0 },     /* no labels: the default */
    { 761, 583, 1.0, 49.0, 60.0 },    /* 49 + tick, gap and margin fit in 60 */
    { 761, 583, 1.0, 50.0, 64.0 },
    { 761, 583, 1.0, 80.0, 96.0 },
    { 1522, 1166, 2.0, 160.0, 192.0 },  /* an export twice as large: twice as wide */
    { 240, 583, 1.0, 80.0, 80.0 },    /* a narrow picture: a third of it */
    { 100, 583, 1.0, 80.0, 60.0 },    /* never narrower than the default */
    { 3000, 583, 1.0, 900.0, 200.0 }, /* at most 200 */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      FrPlotLayout lay, def;

      fr_plot_layout_compute_for_labels (&lay, cases[i].w, cases[i].h, cases[i].k, cases[i].label);
      fr_plot_layout_compute (&def, cases[i].w, cases[i].h, cases[i].k);
      g_assert_cmpfloat_with_epsilon (lay.left.width, cases[i].left, 1e-9);
      g_assert_cmpfloat (lay.left.x + lay.left.width, ==, lay.plot.x);
      g_assert_cmpfloat (lay.right.x, ==, lay.plot.x + lay.plot.width);
      g_assert_false (fr_rect_intersects (&lay.left, &lay.plot));
      g_assert_false (fr_rect_intersects (&lay.top, &lay.left));
      /* Only the left gutter and what it pushes change. */
      g_assert_cmpfloat (lay.top.height, ==, def.top.height);
      g_assert_cmpfloat (lay.right.width, ==, def.right.width);
      g_assert_cmpfloat (lay.plot.y, ==, def.plot.y);
      g_assert_cmpfloat (lay.plot.height, ==, def.plot.height);
      if (cases[i].w >= 400)
        g_assert_cmpfloat_with_epsilon (lay.plot.x + lay.plot.width, def.plot.x + def.plot.width, 1e-9);
    }
}

/* Negative depths in metres below 123 km, in steps of 0.2: labels like
 * "-123461.8", nine characters.  The layout fitted to such a model has a
 * left gutter that holds its widest z label beside the tick (5 px) and
 * the gap (2 px), at the canvas's size and in an export twice as large,
 * which stays the canvas's layout doubled; a model in kilometres keeps
 * the default gutter. */
static void
test_layout_fits_z_labels (void)
{
  g_autoptr(FrScene) deep = make_scene (61, 41, 0.0, -123462.0);
  g_autoptr(FrScene) km = make_scene (61, 31, 0.0, 0.0);
  FrPlotLayout lay, big, def;
  FrView v, scaled;
  double label;

  fr_view_init (&v);
  fr_view_set_size (&v, 761, 583);
  fr_plot_layout_fit_view (&v, deep, 1.0);
  fr_plot_layout_for_view (&lay, &v, deep, 1.0);
  fr_plot_layout_compute (&def, 761, 583, 1.0);
  label = fr_axes_z_label_width (&v, deep, &lay.plot, 1.0);
  g_test_message ("widest z label %.1f px, left gutter %.1f px", label, lay.left.width);
  g_assert_cmpfloat (label, >, def.left.width - 7.0);    /* it would not fit the default */
  g_assert_cmpfloat (lay.left.width, >=, label + 7.0 + 2.0);
  /* The fitted model lies in the plot of that layout. */
  {
    FrRect box;
    double x0, z0, x1, z1, px0, py0;

    fr_plot_layout_fit_box (&lay, &box);
    fr_scene_get_bounds (deep, &x0, &z0, &x1, &z1);
    fr_view_model_to_widget (&v, x0, z0, &px0, &py0);
    g_assert_cmpfloat_with_epsilon (px0, box.x, 1e-6);   /* the width limits */
    g_assert_cmpfloat_with_epsilon (py0, box.y, 1e-6);
  }

  scaled = fr_view_scaled (&v, 2 * 761, 2 * 583);
  fr_plot_layout_for_view (&big, &scaled, deep, 2.0);
  g_assert_cmpfloat_with_epsilon (big.left.width, 2.0 * lay.left.width, 1e-9);
  g_assert_cmpfloat_with_epsilon (big.plot.width, 2.0 * lay.plot.width, 1e-9);

  fr_view_init (&v);
  fr_view_set_size (&v, 761, 583);
  fr_plot_layout_fit_view (&v, km, 1.0);
  fr_plot_layout_for_view (&lay, &v, km, 1.0);
  g_assert_cmpfloat (lay.left.width, ==, def.left.width);
  g_assert_cmpfloat (lay.plot.x, ==, def.plot.x);
}

static void
test_zoom_keeps_point (void)
{
  FrView v;
  double x0, z0, x1, z1;

  make_view (&v);
  fr_view_widget_to_model (&v, 123.0, 456.0, &x0, &z0);
  fr_view_zoom_at (&v, 123.0, 456.0, 2.5);
  fr_view_widget_to_model (&v, 123.0, 456.0, &x1, &z1);
  g_assert_cmpfloat_with_epsilon (x0, x1, 1e-12);
  g_assert_cmpfloat_with_epsilon (z0, z1, 1e-12);

  /* Zooming back restores the scale. */
  {
    double s = v.scale;

    fr_view_zoom_at (&v, 10.0, 10.0, 0.5);
    fr_view_zoom_at (&v, 10.0, 10.0, 2.0);
    g_assert_cmpfloat_with_epsilon (v.scale, s, 1e-9 * s);
  }
}

static void
test_pan (void)
{
  FrView v;
  double px, py, px2, py2;

  make_view (&v);
  fr_view_model_to_widget (&v, 1.0, 1.0, &px, &py);
  fr_view_pan (&v, 30.0, -12.0);
  fr_view_model_to_widget (&v, 1.0, 1.0, &px2, &py2);
  g_assert_cmpfloat_with_epsilon (px2 - px, 30.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (py2 - py, -12.0, 1e-9);
}

static void
test_clip_matrix (void)
{
  FrView v;
  float m[9];
  const double pts[3][2] = { { 0.0, 0.0 }, { 3.0, 1.5 }, { 1.2, 0.3 } };

  make_view (&v);
  fr_view_clip_matrix (&v, 0.0, 0.0, m);
  for (guint i = 0; i < G_N_ELEMENTS (pts); i++)
    {
      double px, py;
      /* Column-major: clip = M · (x, z, 1). */
      double cx = m[0] * pts[i][0] + m[3] * pts[i][1] + m[6];
      double cy = m[1] * pts[i][0] + m[4] * pts[i][1] + m[7];

      fr_view_model_to_widget (&v, pts[i][0], pts[i][1], &px, &py);
      g_assert_cmpfloat_with_epsilon (cx, 2.0 * px / v.width - 1.0, 1e-5);
      g_assert_cmpfloat_with_epsilon (cy, 1.0 - 2.0 * py / v.height, 1e-5);
    }

  /* A UTM x of 514000 m at 1000 px a metre: vertices relative to an
   * origin beside them land within 1e-5 of clip space (a hundredth of a
   * pixel); absolute ones were 0.03 m, 30 px, off (helper-60). */
  v.cx = 514000.25;
  v.cz = 1500.125;
  v.scale = 1000.0;
  fr_view_clip_matrix (&v, 514000.0, 1500.0, m);
  for (int i = -3; i <= 3; i++)
    {
      const double x = 514000.0 + 0.1 * i, z = 1500.0 + 0.07 * i;
      const float rx = (float) (x - 514000.0), rz = (float) (z - 1500.0);
      const float cx = m[0] * rx + m[3] * rz + m[6], cy = m[1] * rx + m[4] * rz + m[7];
      double px, py;

      fr_view_model_to_widget (&v, x, z, &px, &py);
      g_assert_cmpfloat_with_epsilon (cx, 2.0 * px / v.width - 1.0, 1e-5);
      g_assert_cmpfloat_with_epsilon (cy, 1.0 - 2.0 * py / v.height, 1e-5);
    }
}

static void
test_scaled (void)
{
  FrView v, big;
  double px, py, bx, by;

  make_view (&v);
  big = fr_view_scaled (&v, 1600, 1200);
  fr_view_model_to_widget (&v, 2.0, 1.0, &px, &py);
  fr_view_model_to_widget (&big, 2.0, 1.0, &bx, &by);
  g_assert_cmpfloat_with_epsilon (bx, 2.0 * px, 1e-9);
  g_assert_cmpfloat_with_epsilon (by, 2.0 * py, 1e-9);
}

static void
test_nice_step (void)
{
  g_assert_cmpfloat_with_epsilon (fr_view_nice_step (3.0, 6), 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (fr_view_nice_step (1.5, 8), 0.2, 1e-12);
  g_assert_cmpfloat_with_epsilon (fr_view_nice_step (1000.0, 10), 100.0, 1e-9);
  g_assert_cmpfloat (fr_view_nice_step (0.0, 10), ==, 1.0);
  g_assert_cmpfloat (fr_view_nice_step (NAN, 10), ==, 1.0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/view/round-trip", test_round_trip);
  g_test_add_func ("/app/view/fit", test_fit);
  g_test_add_func ("/app/view/zoom-keeps-point", test_zoom_keeps_point);
  g_test_add_func ("/app/view/pan", test_pan);
  g_test_add_func ("/app/view/clip-matrix", test_clip_matrix);
  g_test_add_func ("/app/view/scaled", test_scaled);
  g_test_add_func ("/app/view/nice-step", test_nice_step);
  g_test_add_func ("/app/view/layout-disjoint", test_layout_disjoint);
  g_test_add_func ("/app/view/fit-into-plot", test_fit_into_plot);
  g_test_add_func ("/app/view/pick-round-trip", test_pick_round_trip);
  g_test_add_func ("/app/view/axes-clear-of-field", test_axes_clear_of_field);
  g_test_add_func ("/app/view/layout-scales-with-export", test_layout_scales_with_export);
  g_test_add_func ("/app/view/layout-wide-labels", test_layout_wide_labels);
  g_test_add_func ("/app/view/layout-fits-z-labels", test_layout_fits_z_labels);
  return g_test_run ();
}
