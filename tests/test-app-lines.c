/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The canvas's line geometry (app/fr-lines.c) and the guard it cuts lines
 * to (app/fr-clip.c): zoomed in far, a sloping line is still drawn where
 * it lies, its width intact, and nothing of it lies far off the view,
 * where GL's floats lose pixels. */
#include <math.h>

#include <glib.h>

#include "fr-clip.h"
#include "fr-lines.h"
#include "fr-view.h"

/* The segment a–b cut to a box: the ends inside are kept exactly, the
 * others moved onto the box along the segment; a segment that misses it,
 * or that is not finite, gives nothing. */
static void
test_clip_segment (void)
{
  const FrRect box = { 0.0, 0.0, 100.0, 50.0 };
  double a[2], b[2];

  a[0] = 10.0; a[1] = 10.0; b[0] = 90.0; b[1] = 40.0;
  g_assert_true (fr_clip_segment (&box, a, b));
  g_assert_cmpfloat (a[0], ==, 10.0);
  g_assert_cmpfloat (b[1], ==, 40.0);

  /* From (-50, 0) to (150, 50), y = (x + 50) / 4: in from x = 0 to 100. */
  a[0] = -50.0; a[1] = 0.0; b[0] = 150.0; b[1] = 50.0;
  g_assert_true (fr_clip_segment (&box, a, b));
  g_assert_cmpfloat_with_epsilon (a[0], 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (a[1], 12.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (b[0], 100.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (b[1], 37.5, 1e-12);

  /* Across the box from 1e12 away: cut to its sides, on the line. */
  {
    /* y = 25 + 1e-10 (x - 50): nearly flat, through (50, 25). */
    double k = 1e-10;

    a[0] = -1e12; a[1] = 25.0 + k * (-1e12 - 50.0);
    b[0] = 1e12; b[1] = 25.0 + k * (1e12 - 50.0);
    g_assert_true (fr_clip_segment (&box, a, b));
    g_assert_cmpfloat_with_epsilon (a[0], 0.0, 1e-3);
    g_assert_cmpfloat_with_epsilon (b[0], 100.0, 1e-3);
    g_assert_cmpfloat_with_epsilon (a[1], 25.0 - 50.0 * k, 1e-3);
    g_assert_cmpfloat_with_epsilon (b[1], 25.0 + 50.0 * k, 1e-3);
  }

  a[0] = -10.0; a[1] = -10.0; b[0] = 200.0; b[1] = -1.0;
  g_assert_false (fr_clip_segment (&box, a, b));
  a[0] = 10.0; a[1] = 10.0; b[0] = INFINITY; b[1] = 10.0;
  g_assert_false (fr_clip_segment (&box, a, b));
  a[0] = 10.0; a[1] = 60.0; b[0] = 90.0; b[1] = 60.0;
  g_assert_false (fr_clip_segment (&box, a, b));
}

/* A polyline through the view's centre at slope 0.3, zoomed in from 1×
 * to 1e8×: every capsule vertex lies within a few hundred pixels of the
 * view, and the capsules still cover the line's pixels at the view's
 * centre and edges to within their half width. */
static void
test_deep_zoom_polyline (void)
{
  static const float colour[4] = { 1, 0, 1, 1 };
  const double xz[6] = { -995.0, -295.0, 5.0, 5.0, 1005.0, 305.0 };
  const double slope = (xz[3] - xz[1]) / (xz[2] - xz[0]);

  for (double zoom = 1.0; zoom <= 1e8; zoom *= 100.0)
    {
      g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (FrLineVertex));
      FrView view;
      double cx, cy;

      fr_view_init (&view);
      fr_view_set_size (&view, 800, 600);
      view.scale = 0.3 * zoom;
      view.cx = 5.0;
      view.cz = 5.0;
      fr_lines_push_polyline (v, &view, xz, 3, 2.0, colour);
      g_assert_cmpuint (v->len, >, 0);
      g_assert_cmpuint (v->len % 6, ==, 0);
      for (guint i = 0; i < v->len; i++)
        {
          const FrLineVertex *p = &g_array_index (v, FrLineVertex, i);

          g_assert_cmpfloat (p->pos[0], >, -100.0);
          g_assert_cmpfloat (p->pos[0], <, 900.0);
          g_assert_cmpfloat (p->pos[1], >, -100.0 - 0.3 * 1000.0);
          g_assert_cmpfloat (p->pos[1], <, 700.0 + 0.3 * 1000.0);
        }
      /* Each capsule is a quad about its axis: the midpoint of its
       * vertices lies on the line y - cy = slope (x - cx). */
      fr_view_model_to_widget (&view, 5.0, 5.0, &cx, &cy);
      for (guint q = 0; q < v->len / 6; q++)
        {
          double mx = 0.0, my = 0.0;

          for (guint i = 0; i < 6; i++)
            {
              const FrLineVertex *p = &g_array_index (v, FrLineVertex, 6 * q + i);

              mx += p->pos[0] / 6.0;
              my += p->pos[1] / 6.0;
            }
          g_assert_cmpfloat (fabs ((my - cy) - slope * (mx - cx)), <, 0.05);
        }
    }
}

/* A polyline far off the view pushes nothing; one inside it pushes the
 * same capsules as before the guard. */
static void
test_off_view_polyline (void)
{
  static const float colour[4] = { 1, 1, 1, 1 };
  const double far[4] = { 1e6, 1e6, 2e6, 1e6 };
  const double near[6] = { 1.0, 1.0, 3.0, 2.0, 5.0, 1.5 };
  g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (FrLineVertex));
  g_autoptr(GArray) w = g_array_new (FALSE, FALSE, sizeof (FrLineVertex));
  FrView view;

  fr_view_init (&view);
  fr_view_set_size (&view, 640, 480);
  view.scale = 100.0;
  view.cx = 3.0;
  view.cz = 1.5;
  fr_lines_push_polyline (v, &view, far, 2, 3.0, colour);
  g_assert_cmpuint (v->len, ==, 0);

  fr_lines_push_polyline (v, &view, near, 3, 3.0, colour);
  for (guint i = 0; i + 1 < 3; i++)
    {
      double x0, y0, x1, y1;

      fr_view_model_to_widget (&view, near[2 * i], near[2 * i + 1], &x0, &y0);
      fr_view_model_to_widget (&view, near[2 * i + 2], near[2 * i + 3], &x1, &y1);
      fr_lines_push_capsule (w, x0, y0, x1, y1, 3.0, colour);
    }
  g_assert_cmpuint (v->len, ==, w->len);
  g_assert_cmpmem (v->data, v->len * sizeof (FrLineVertex), w->data, w->len * sizeof (FrLineVertex));
}

/* The midpoint of quad q's vertices: its capsule's centre. */
static void
capsule_centre (GArray *v,
                guint   q,
                double *x,
                double *y)
{
  *x = *y = 0.0;
  for (guint i = 0; i < 6; i++)
    {
      const FrLineVertex *p = &g_array_index (v, FrLineVertex, 6 * q + i);

      *x += p->pos[0] / 6.0;
      *y += p->pos[1] / 6.0;
    }
}

/* A level horizon through 301 nodes, wobbling by 0.01 pixel, is one
 * capsule from its first point to its last: capsules that meet blend their
 * antialiased fringe twice at the joint, and such a line looked dotted.
 * A line that turns back is two capsules. */
static void
test_straight_run_merged (void)
{
  static const float colour[4] = { 1, 1, 1, 1 };
  double xz[2 * 301];
  double back[6] = { 1.0, 1.0, 2.0, 1.0, 1.5, 1.0 };
  g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (FrLineVertex));
  g_autoptr(GArray) w = g_array_new (FALSE, FALSE, sizeof (FrLineVertex));
  FrView view;
  double x0, y0, x1, y1;

  fr_view_init (&view);
  fr_view_set_size (&view, 800, 600);
  view.scale = 200.0;
  view.cx = 1.5;
  view.cz = 1.0;
  for (int i = 0; i <= 300; i++)
    {
      xz[2 * i] = 0.01 * i;
      xz[2 * i + 1] = 0.7 + (i % 2 ? 0.01 : -0.01) / view.scale;
    }
  fr_lines_push_polyline (v, &view, xz, 301, 2.0, colour);
  fr_view_model_to_widget (&view, xz[0], xz[1], &x0, &y0);
  fr_view_model_to_widget (&view, xz[600], xz[601], &x1, &y1);
  fr_lines_push_capsule (w, x0, y0, x1, y1, 2.0, colour);
  g_assert_cmpuint (v->len, ==, 6);
  for (guint i = 0; i < 6; i++)
    for (guint c = 0; c < 2; c++)
      g_assert_cmpfloat (fabs (g_array_index (v, FrLineVertex, i).pos[c] -
                               g_array_index (w, FrLineVertex, i).pos[c]), <, 0.02);

  g_array_set_size (v, 0);
  fr_lines_push_polyline (v, &view, back, 3, 2.0, colour);
  g_assert_cmpuint (v->len, ==, 12);

  /* A line of no length (a ray from a receiver on its source) is a dot,
   * as its one capsule was. */
  g_array_set_size (v, 0);
  g_array_set_size (w, 0);
  back[2] = back[4] = back[0];
  back[3] = back[5] = back[1];
  fr_lines_push_polyline (v, &view, back, 3, 2.0, colour);
  fr_view_model_to_widget (&view, back[0], back[1], &x0, &y0);
  fr_lines_push_capsule (w, x0, y0, x0, y0, 2.0, colour);
  g_assert_cmpuint (v->len, ==, 6);
  g_assert_cmpmem (v->data, v->len * sizeof (FrLineVertex), w->data, w->len * sizeof (FrLineVertex));
}

/* A circle of 400 points, 100 pixels across: fewer capsules, each a chord
 * whose middle lies within the tolerance (0.05 pixel) inside the circle. */
static void
test_curve_within_tolerance (void)
{
  static const float colour[4] = { 1, 1, 1, 1 };
  const double r = 100.0;
  double xz[2 * 401];
  g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (FrLineVertex));
  FrView view;
  double cx, cy;

  fr_view_init (&view);
  fr_view_set_size (&view, 800, 600);
  view.scale = 1.0;
  view.cx = 0.0;
  view.cz = 0.0;
  for (int i = 0; i <= 400; i++)
    {
      xz[2 * i] = r * cos (2.0 * G_PI * i / 400.0);
      xz[2 * i + 1] = r * sin (2.0 * G_PI * i / 400.0);
    }
  fr_lines_push_polyline (v, &view, xz, 401, 2.0, colour);
  fr_view_model_to_widget (&view, 0.0, 0.0, &cx, &cy);
  g_test_message ("%u capsules for 400 segments", v->len / 6);
  g_assert_cmpuint (v->len / 6, >, 40);
  g_assert_cmpuint (v->len / 6, <, 400);
  for (guint q = 0; q < v->len / 6; q++)
    {
      double x, y, d;

      capsule_centre (v, q, &x, &y);
      d = hypot (x - cx, y - cy);
      g_assert_cmpfloat (d, <=, r + 1e-6);
      g_assert_cmpfloat (d, >=, r - 0.051);
    }
}

/* A segment with its ends 1e8 pixels off the view (Folds mode's ψa arrow
 * zoomed in far) is pushed cut near the view, on its line; one inside the
 * view is the plain capsule; one far off it, nothing. */
static void
test_segment_cut (void)
{
  static const float colour[4] = { 1, 1, 0, 1 };
  g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (FrLineVertex));
  g_autoptr(GArray) w = g_array_new (FALSE, FALSE, sizeof (FrLineVertex));
  FrView view;
  double x, y;

  fr_view_init (&view);
  fr_view_set_size (&view, 640, 480);
  /* Through (320, 240) at slope 0.5. */
  fr_lines_push_segment (v, &view, 320 - 1e8, 240 - 0.5e8, 320 + 1e8, 240 + 0.5e8, 3.0, colour);
  g_assert_cmpuint (v->len, ==, 6);
  for (guint i = 0; i < 6; i++)
    {
      const FrLineVertex *p = &g_array_index (v, FrLineVertex, i);

      g_assert_cmpfloat (fabs (p->pos[0] - 320.0), <, 400.0);
    }
  capsule_centre (v, 0, &x, &y);
  g_assert_cmpfloat (fabs ((y - 240.0) - 0.5 * (x - 320.0)), <, 0.05);

  g_array_set_size (v, 0);
  fr_lines_push_segment (v, &view, 100, 100, 200, 150, 3.0, colour);
  fr_lines_push_capsule (w, 100, 100, 200, 150, 3.0, colour);
  g_assert_cmpmem (v->data, v->len * sizeof (FrLineVertex), w->data, w->len * sizeof (FrLineVertex));

  g_array_set_size (v, 0);
  fr_lines_push_segment (v, &view, 1e6, 1e6, 2e6, 1e6, 3.0, colour);
  g_assert_cmpuint (v->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lines/clip-segment", test_clip_segment);
  g_test_add_func ("/lines/deep-zoom-polyline", test_deep_zoom_polyline);
  g_test_add_func ("/lines/off-view-polyline", test_off_view_polyline);
  g_test_add_func ("/lines/straight-run-merged", test_straight_run_merged);
  g_test_add_func ("/lines/curve-within-tolerance", test_curve_within_tolerance);
  g_test_add_func ("/lines/segment-cut", test_segment_cut);
  return g_test_run ();
}
