/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The canvas transform (app/fr-view.c): pure maths. */
#include <math.h>

#include <glib.h>

#include "fr-view.h"

static void
make_view (FrView *v)
{
  fr_view_init (v);
  fr_view_set_size (v, 800, 600);
  fr_view_fit (v, 0.0, 0.0, 3.0, 1.5, 20.0);
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
  fr_view_clip_matrix (&v, m);
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
  return g_test_run ();
}
