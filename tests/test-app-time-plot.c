/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Export → Traveltime Curve (app/fr-time-plot.c through fr_export_curve)
 * read back.  The SVG is parsed as XML: the receivers' dots are the paths
 * filled in the receiver colour, the sources' triangles those in the
 * source colour, the plot's frame the stroked rectangle.  Their page
 * positions, turned back into x and T through the frame and the T axis's
 * top, must give the receivers' x and their analytic first-arrival times:
 * along the surface of a uniform model a shortest path is the straight
 * row of nodes, so T = |x − xs| / v exactly.  The PDF goes through
 * poppler's pdfinfo and pdftotext (tests/setup-debian.sh installs them). */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fr-export.h"
#include "fr-fold-job.h"
#include "fr-fold-state.h"
#include "fr-scene.h"
#include "fr-time-plot.h"
#include "test-poppler.h"
#include "test-svg.h"
#include "test-tmpdir.h"

#define V        2.0     /* the model's velocity, km/s */
#define SOURCE_X 1.0
#define WALL_X   2.2     /* a wall of obstacle cells, top to bottom */

typedef struct
{
  double x0, y0, x1, y1;   /* a path's box, in page points */
} Box;

typedef struct
{
  double  width, height;
  GArray *receiver_dots;   /* Box */
  GArray *hollow_dots;     /* Box: the other shots' dots, stroked only */
  GArray *source_marks;    /* Box */
  GArray *frames;          /* Box: stroked closed rectangles */
} SvgPlot;

static gboolean
style_rgb (const char *style, const char *key, double rgb[3])
{
  g_autofree char *needle = g_strconcat (key, ":rgb(", NULL);
  const char *s = strstr (style, needle);

  if (s == NULL)
    return FALSE;
  if (sscanf (s + strlen (needle), "%lf%%,%lf%%,%lf%%", &rgb[0], &rgb[1], &rgb[2]) != 3)
    return FALSE;
  for (int k = 0; k < 3; k++)
    rgb[k] /= 100.0;
  return TRUE;
}

static gboolean
same_rgb (const double a[3], const double b[3])
{
  return fabs (a[0] - b[0]) < 0.006 && fabs (a[1] - b[1]) < 0.006 && fabs (a[2] - b[2]) < 0.006;
}

/* The box of a path's points (control points too: a circle's are
 * symmetric about its centre), through its transform if it has one. */
static Box
path_box (const char *d, const char *transform, guint *n_moves)
{
  g_auto(GStrv) tok = g_strsplit_set (d, " ,", -1);
  double m[6] = { 1, 0, 0, 1, 0, 0 }, x = 0.0;
  gboolean have_x = FALSE;
  Box b = { INFINITY, INFINITY, -INFINITY, -INFINITY };

  if (transform != NULL)
    g_assert_cmpint (sscanf (transform, "matrix(%lf,%lf,%lf,%lf,%lf,%lf)",
                             &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]), ==, 6);
  *n_moves = 0;
  for (guint i = 0; tok[i] != NULL; i++)
    {
      double v, px, py;

      if (tok[i][0] == '\0')
        continue;
      if (g_ascii_isalpha (tok[i][0]))
        {
          *n_moves += tok[i][0] == 'M';
          continue;
        }
      v = g_ascii_strtod (tok[i], NULL);
      if (!have_x)
        {
          x = v;
          have_x = TRUE;
          continue;
        }
      px = m[0] * x + m[2] * v + m[4];
      py = m[1] * x + m[3] * v + m[5];
      b.x0 = MIN (b.x0, px);
      b.x1 = MAX (b.x1, px);
      b.y0 = MIN (b.y0, py);
      b.y1 = MAX (b.y1, py);
      have_x = FALSE;
    }
  g_assert_false (have_x);
  return b;
}

static void
plot_path (const char *style, const char *d, const char *transform, gpointer data)
{
  SvgPlot *p = data;
  double rgb[3];
  guint n_moves;
  Box b = path_box (d, transform, &n_moves);

  if (style_rgb (style, "fill", rgb))
    {
      if (same_rgb (rgb, fr_time_plot_receiver_rgb))
        g_array_append_val (p->receiver_dots, b);
      else if (same_rgb (rgb, fr_time_plot_source_rgb))
        g_array_append_val (p->source_marks, b);
    }
  /* The frame: the one stroked closed path at 60 % (cairo follows a
   * close with a move to its start, so it has two M). */
  else if (strstr (style, "fill:none") != NULL && strstr (style, "stroke-opacity:0.6") != NULL &&
           strchr (d, 'Z') != NULL && n_moves <= 2)
    g_array_append_val (p->frames, b);
  /* A dot of a shot not shown: a circle of radius 3, stroked at 80 %
   * (its box 6 wide; taller by cairo's control points, centred). */
  else if (strstr (style, "fill:none") != NULL && strstr (style, "stroke-opacity:0.8") != NULL &&
           fabs (b.x1 - b.x0 - 6.0) < 0.1 && b.y1 - b.y0 < 9.0)
    g_array_append_val (p->hollow_dots, b);
}

static void
read_svg (const char *path, SvgPlot *p)
{
  TestSvgPage page;

  *p = (SvgPlot) { 0 };
  p->receiver_dots = g_array_new (FALSE, FALSE, sizeof (Box));
  p->hollow_dots = g_array_new (FALSE, FALSE, sizeof (Box));
  p->source_marks = g_array_new (FALSE, FALSE, sizeof (Box));
  p->frames = g_array_new (FALSE, FALSE, sizeof (Box));
  test_svg_read (path, &page, plot_path, p);
  p->width = page.width;
  p->height = page.height;
}

static void
svg_plot_clear (SvgPlot *p)
{
  g_array_unref (p->receiver_dots);
  g_array_unref (p->hollow_dots);
  g_array_unref (p->source_marks);
  g_array_unref (p->frames);
}

static int
compare_box_x (gconstpointer a, gconstpointer b)
{
  const Box *p = a, *q = b;

  return (p->x0 > q->x0) - (p->x0 < q->x0);
}

/* 61 × 41 nodes 0.05 km apart at v = 2 km/s, a wall of obstacle cells
 * across the whole depth at x = 2.2; a source at the surface at x = 1,
 * and eleven surface receivers from x = 0.25 to 2.75, the three beyond
 * the wall unreached. */
static FrScene *
make_scene (void)
{
  fr_grid g = fr_grid_2d (61, 41, 0.05, 0.05, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  FrScene *scene = fr_scene_new ();

  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      v[fr_grid_index (&g, ix, 0, iz)] = fabs (ix * g.dx - WALL_X) < 1e-9 ? 0.0f : (float) V;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "curve", &g, bytes, NULL));
  fr_scene_set_length_unit (scene, FR_LENGTH_UNIT_KM);
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, SOURCE_X, 0.0), >=, 0);
  g_assert_true (fr_scene_lay_receiver_line (scene, 0.25, 0.0, 2.75, 0.0, 11, &error));
  g_assert_no_error (error);
  return scene;
}

static FrResult *
solve (FrScene *scene)
{
  g_autoptr(FrJob) job = fr_scene_make_job (scene, fr_radius_square (4), FR_SPR_CPU);
  gboolean cancelled = TRUE;
  FrResult *result = fr_job_run (job, NULL, &cancelled);

  g_assert_false (cancelled);
  g_assert_true (result->ok);
  return result;
}

/* Exports scene's curve as SVG and reads it back: a dot for each of the n
 * reached receivers, which stand at pos (sorted) along an axis of the
 * model's extent from 0, with analytic times t; the source a triangle at
 * source_pos whose base is the frame's T = 0. */
static void
check_svg_shots (FrScene      *scene,
                 FrResult     *result,
                 gboolean      along_z,
                 double        extent,
                 double        source_pos,
                 const double *pos,
                 const double *t,
                 guint         n,
                 const double *other_t,
                 guint         n_other)
{
  g_autoptr(FrTimePlot) plot = fr_time_plot_new ();
  g_autofree char *dir = g_dir_make_tmp ("foldray-curve-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "curve.svg", NULL);
  g_autoptr(GError) error = NULL;
  double t_top, t_max = 0.0, px0, px1, py0, py1;
  SvgPlot p;

  for (guint i = 0; i < n; i++)
    t_max = MAX (t_max, t[i]);
  g_assert_true (fr_export_curve (FR_EXPORT_CURVE_SVG, scene, result, svg, &error));
  g_assert_no_error (error);
  /* The axis and the T axis's top, as the export chose them: the same
   * scene and result give the same plot.  The top covers the latest
   * arrival with room, on a value no more than half again above it. */
  fr_time_plot_set_scene (plot, scene, result);
  g_assert_true (fr_time_plot_is_along_z (plot) == along_z);
  t_top = fr_time_plot_get_t_top (plot);
  g_assert_cmpfloat (t_top, >=, t_max * 1.05);
  g_assert_cmpfloat (t_top, <=, t_max * 1.5);

  read_svg (svg, &p);
  g_assert_cmpfloat (p.width, ==, FR_TIME_PLOT_PAGE_WIDTH);
  g_assert_cmpfloat (p.height, ==, FR_TIME_PLOT_PAGE_HEIGHT);
  g_assert_cmpuint (p.frames->len, ==, 1);
  g_assert_cmpuint (p.source_marks->len, ==, 1);

  /* The frame is stroked half a point inside the plot's edges. */
  {
    const Box *f = &g_array_index (p.frames, Box, 0);

    px0 = f->x0 - 0.5;
    px1 = f->x1 + 0.5;
    py0 = f->y0 - 0.5;
    py1 = f->y1 + 0.5;
  }
  /* The triangle's base lies 1 below T = 0, its apex above the source. */
  {
    const Box *s = &g_array_index (p.source_marks, Box, 0);
    double sx = 0.5 * (s->x0 + s->x1);

    g_assert_cmpfloat (fabs (s->y1 - 1.0 - py1), <, 0.6);   /* the stroke's half width */
    g_assert_cmpfloat (fabs ((sx - px0) / (px1 - px0) * extent - source_pos), <, 1e-3);
  }
  /* The dots at the receivers' positions and times; another shot's,
   * hollow, at its times over the same receivers. */
  for (guint k = 0; k < 2; k++)
    {
      GArray *dots = k == 0 ? p.receiver_dots : p.hollow_dots;
      const double *times = k == 0 ? t : other_t;

      g_assert_cmpuint (dots->len, ==, k == 0 ? n : n_other);
      g_array_sort (dots, compare_box_x);
      for (guint i = 0; i < dots->len; i++)
        {
          const Box *b = &g_array_index (dots, Box, i);
          double at = (0.5 * (b->x0 + b->x1) - px0) / (px1 - px0) * extent;
          double shown = (py1 - 0.5 * (b->y0 + b->y1)) / (py1 - py0) * t_top;

          g_assert_cmpfloat (fabs (at - pos[i]), <, 1e-3);
          g_assert_cmpfloat (fabs (shown - times[i]), <, 1e-3);
        }
    }
  svg_plot_clear (&p);
  test_tmpdir_remove (dir);
}

static void
check_svg (FrScene      *scene,
           FrResult     *result,
           gboolean      along_z,
           double        extent,
           double        source_pos,
           const double *pos,
           const double *t,
           guint         n)
{
  check_svg_shots (scene, result, along_z, extent, source_pos, pos, t, n, NULL, 0);
}

/* A line along the surface: T against x, |x − xs| / v, and no dot for
 * the three receivers beyond the wall. */
static void
test_surface_line (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrResult) result = solve (scene);
  const FrPoint *receivers;
  double pos[11], t[11];
  guint n_receivers, reached = 0;

  receivers = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n_receivers);
  g_assert_cmpuint (n_receivers, ==, 11);
  for (guint i = 0; i < n_receivers; i++)
    if (receivers[i].x < WALL_X)
      {
        pos[reached] = receivers[i].x;
        t[reached++] = fabs (receivers[i].x - SOURCE_X) / V;
      }
  g_assert_cmpuint (reached, ==, 8);
  check_svg (scene, result, FALSE, 3.0, SOURCE_X, pos, t, reached);
}

/* A borehole's array (a VSP): seven receivers down the column x = 0.5
 * under a source at its top, plotted against z over the model's 2 km
 * depth, T = z / v. */
static void
test_borehole (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrResult) result = NULL;
  double pos[7], t[7];

  fr_scene_clear_markers (scene);
  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 0.5, 0.0), >=, 0);
  for (guint i = 0; i < 7; i++)
    {
      pos[i] = 0.25 * (i + 1);
      t[i] = pos[i] / V;
      g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_RECEIVER, 0.5, pos[i]), >=, 0);
    }
  result = solve (scene);
  check_svg (scene, result, TRUE, 2.0, 0.0, pos, t, 7);
}

/* Each source a shot of its own (a second at x = 2, shown): its branch in
 * front, |x − 2| / v, its triangle the one filled; the first shot's
 * branch behind it, |x − 1| / v, its dots hollow.  The tooltip over a dot
 * names the shot's source, no line joins one branch to the next, and the
 * figure names each branch. */
static void
test_shots (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrResult) result = NULL;
  g_autoptr(FrTimePlot) plot = fr_time_plot_new ();
  const FrPoint *receivers;
  double pos[11], t[11], other[11], x, y, x2, y2;
  guint n_receivers, reached = 0;
  char *text = NULL;
  const double W = 320.0, H = 190.0;

  g_assert_cmpint (fr_scene_add_marker (scene, FR_MARKER_SOURCE, 2.0, 0.0), ==, 1);
  fr_scene_set_separate_shots (scene, TRUE);
  g_assert_cmpint (fr_scene_get_shot (scene), ==, 1);
  result = solve (scene);
  receivers = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n_receivers);
  for (guint i = 0; i < n_receivers; i++)
    if (receivers[i].x < WALL_X)
      {
        pos[reached] = receivers[i].x;
        other[reached] = fabs (receivers[i].x - SOURCE_X) / V;
        t[reached++] = fabs (receivers[i].x - 2.0) / V;
      }
  check_svg_shots (scene, result, FALSE, 3.0, 2.0, pos, t, reached, other, reached);

  fr_time_plot_set_unit (plot, FR_LENGTH_UNIT_KM);
  fr_time_plot_set_scene (plot, scene, result);
  g_assert_cmpuint (fr_time_plot_get_n_points (plot), ==, 2 * reached);
  /* R1 (x = 0.25) on each shot's branch. */
  g_assert_true (fr_time_plot_locate (plot, W, H, 0.25, 0.75 / V, &x, &y));
  g_assert_true (fr_time_plot_describe_at (plot, W, H, x, y, &text));
  g_assert_true (g_str_has_prefix (text, "S1, R1: x = 0.25 km, T = "));
  g_clear_pointer (&text, g_free);
  g_assert_true (fr_time_plot_locate (plot, W, H, 0.25, 1.75 / V, &x, &y));
  g_assert_true (fr_time_plot_describe_at (plot, W, H, x, y, &text));
  g_assert_true (g_str_has_prefix (text, "S2, R1: x = 0.25 km, T = "));
  g_clear_pointer (&text, g_free);
  /* The apparent velocity along the first shot's branch, R2 to R3. */
  g_assert_true (fr_time_plot_locate (plot, W, H, 0.5, 0.5 / V, &x, &y));
  g_assert_true (fr_time_plot_locate (plot, W, H, 0.75, 0.25 / V, &x2, &y2));
  g_assert_true (fr_time_plot_describe_at (plot, W, H, 0.5 * (x + x2), 0.5 * (y + y2), &text));
  g_assert_true (g_str_has_prefix (text, "S1, R2 to R3: apparent velocity 2 km/s"));
  g_clear_pointer (&text, g_free);
  /* Between the first shot's last receiver (R8, x = 2, T = 0.5) and the
   * second shot's first (R1, x = 0.25, T = 0.875): no line, nothing. */
  g_assert_true (fr_time_plot_locate (plot, W, H, 2.0, 0.5, &x, &y));
  g_assert_true (fr_time_plot_locate (plot, W, H, 0.25, 0.875, &x2, &y2));
  g_assert_false (fr_time_plot_describe_at (plot, W, H, 0.5 * (x + x2), 0.5 * (y + y2), &text));
  g_assert_null (text);

  /* Each branch named by its shot's source, in the figure's text. */
  {
    g_autofree char *dir = g_dir_make_tmp ("foldray-curve-XXXXXX", NULL);
    g_autofree char *pdf = g_build_filename (dir, "shots.pdf", NULL);
    g_autofree char *words = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_true (fr_export_curve (FR_EXPORT_CURVE_PDF, scene, result, pdf, &error));
    g_assert_no_error (error);
    words = test_pdf_text (pdf, FALSE);
    g_assert_nonnull (strstr (words, "S1"));
    g_assert_nonnull (strstr (words, "S2"));
    test_tmpdir_remove (dir);
  }
}

/* The tooltip's text over the surface line's plot, drawn 320 × 190 as in
 * the marker panel: over each dot its receiver's name (scene order), x
 * and T, and a click there picks that receiver; over the line between two dots of one branch the apparent
 * velocity, the model's 2 km/s (the times are exact along the surface);
 * nothing far from the curve.  In metres, a slope of 1500 m/s is written
 * whole, not as 1.5e+03. */
static void
test_describe (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrResult) result = solve (scene);
  g_autoptr(FrTimePlot) plot = fr_time_plot_new ();
  g_autoptr(FrTimePlot) metres = fr_time_plot_new ();
  const double W = 320.0, H = 190.0;
  const FrPoint *receivers;
  guint n_receivers;
  char *text = NULL;
  double x, y, x2, y2, v = 0.0;

  fr_time_plot_set_unit (plot, FR_LENGTH_UNIT_KM);
  fr_time_plot_set_scene (plot, scene, result);
  receivers = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n_receivers);
  for (guint i = 0; i < n_receivers; i++)
    {
      const double t = fabs (receivers[i].x - SOURCE_X) / V;
      g_autofree char *want = NULL;
      double shown_t = -1.0;
      const char *eq;

      g_assert_true (fr_time_plot_locate (plot, W, H, receivers[i].x, t, &x, &y));
      if (receivers[i].x > WALL_X)
        {
          /* Unreached: no dot, and no line runs there. */
          g_assert_false (fr_time_plot_describe_at (plot, W, H, x, y, &text));
          g_assert_null (text);
          g_assert_cmpint (fr_time_plot_receiver_at (plot, W, H, x, y), ==, -1);
          continue;
        }
      /* A click there picks the receiver by its index in the scene. */
      g_assert_cmpint (fr_time_plot_receiver_at (plot, W, H, x + 2.0, y - 1.0), ==, (gint) i);
      g_assert_true (fr_time_plot_describe_at (plot, W, H, x + 2.0, y - 1.0, &text));
      want = g_strdup_printf ("R%u: x = %g km, T = ", i + 1, receivers[i].x);
      g_assert_true (g_str_has_prefix (text, want));
      eq = strrchr (text, '=');
      g_assert_cmpint (sscanf (eq, "= %lf s", &shown_t), ==, 1);
      g_assert_cmpfloat (fabs (shown_t - t), <, 1e-4);
      g_clear_pointer (&text, g_free);
    }
  /* Halfway between R6 (x = 1.5) and R7 (x = 1.75), right of the source. */
  g_assert_true (fr_time_plot_locate (plot, W, H, 1.5, 0.5 / V, &x, &y));
  g_assert_true (fr_time_plot_locate (plot, W, H, 1.75, 0.75 / V, &x2, &y2));
  g_assert_true (fr_time_plot_describe_at (plot, W, H, 0.5 * (x + x2), 0.5 * (y + y2) + 1.0, &text));
  g_assert_true (g_str_has_prefix (text, "R6 to R7: apparent velocity "));
  g_assert_cmpint (sscanf (text, "R6 to R7: apparent velocity %lf km/s", &v), ==, 1);
  g_assert_cmpfloat (fabs (v - V), <, 0.01);
  g_clear_pointer (&text, g_free);
  /* Far above the curve, in the plot's top left. */
  g_assert_true (fr_time_plot_locate (plot, W, H, 0.1, fr_time_plot_get_t_top (plot), &x, &y));
  g_assert_false (fr_time_plot_describe_at (plot, W, H, x, y, &text));
  g_assert_cmpint (fr_time_plot_receiver_at (plot, W, H, x, y), ==, -1);

  {
    const double pos[2] = { 0.0, 300.0 }, t[2] = { 0.0, 0.2 };

    fr_time_plot_set_range (metres, 0.0, 1000.0);
    fr_time_plot_set_unit (metres, FR_LENGTH_UNIT_M);
    fr_time_plot_set_points (metres, pos, t, 2, NULL, 0);
    g_assert_true (fr_time_plot_locate (metres, W, H, 150.0, 0.1, &x, &y));
    g_assert_true (fr_time_plot_describe_at (metres, W, H, x, y, &text));
    g_assert_cmpstr (text, ==, "R1 to R2: apparent velocity 1500 m/s");
    g_free (text);
  }
}

/* The PDF: one page of the plot's size, its text text: the axes' titles
 * in the scene's unit and the x ticks across the model's 3 km. */
static void
test_pdf (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrResult) result = solve (scene);
  g_autofree char *dir = g_dir_make_tmp ("foldray-curve-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "curve.pdf", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *info = NULL, *text = NULL;
  double w = 0, h = 0;
  int pages = 0;

  g_assert_true (fr_export_curve (FR_EXPORT_CURVE_PDF, scene, result, pdf, &error));
  g_assert_no_error (error);
  info = test_pdf_info (pdf);
  text = test_pdf_text (pdf, TRUE);
  g_assert_nonnull (strstr (info, "Pages:"));
  g_assert_cmpint (sscanf (strstr (info, "Pages:"), "Pages: %d", &pages), ==, 1);
  g_assert_cmpint (pages, ==, 1);
  g_assert_nonnull (strstr (info, "Page size:"));
  g_assert_cmpint (sscanf (strstr (info, "Page size:"), "Page size: %lf x %lf", &w, &h), ==, 2);
  g_assert_cmpfloat (fabs (w - FR_TIME_PLOT_PAGE_WIDTH), <, 0.5);
  g_assert_cmpfloat (fabs (h - FR_TIME_PLOT_PAGE_HEIGHT), <, 0.5);
  g_assert_nonnull (strstr (text, "x (km)"));
  g_assert_nonnull (strstr (text, "T (s)"));
  /* One shot: no branch is named. */
  g_assert_null (strstr (text, "S1"));
  /* The T ticks reach past the latest arrival (0.5 s, at x = 2). */
  g_assert_nonnull (strstr (text, "0.5"));
  {
    g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
    gboolean x_ticks = FALSE;

    /* A line of the x ticks alone, their spacing squeezed. */
    for (guint i = 0; lines[i] != NULL; i++)
      {
        g_autoptr(GString) words = g_string_new (NULL);

        for (const char *c = lines[i]; *c != '\0'; c++)
          if (*c != ' ' || (words->len > 0 && words->str[words->len - 1] != ' '))
            g_string_append_c (words, *c);
        x_ticks |= g_str_equal (g_strchomp (words->str), "0 1 2 3");
      }
    g_assert_true (x_ticks);
  }
  test_tmpdir_remove (dir);
}

/* A folder that is not there: an error naming the file, and no file. */
static void
test_write_fails (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrResult) result = solve (scene);
  g_autofree char *dir = g_dir_make_tmp ("foldray-curve-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "missing", "curve.svg", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_false (fr_export_curve (FR_EXPORT_CURVE_SVG, scene, result, path, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "curve.svg"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  test_tmpdir_remove (dir);
}

/* A fold solve's result is refused with a message, as Folds mode has no
 * curve; so is a scene without receivers. */
static void
test_refused (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrFoldState) fold = fr_fold_state_new ();
  FrPoint h[2] = { { 0.0, 1.0 }, { 3.0, 1.0 } };
  g_autoptr(FrJob) job = NULL;
  g_autoptr(FrResult) folded = NULL, result = NULL;
  g_autofree char *dir = g_dir_make_tmp ("foldray-curve-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "curve.svg", NULL);
  g_autoptr(GError) error = NULL;
  gboolean cancelled = TRUE;

  fr_fold_state_set_horizon (fold, h, 2);
  job = fr_fold_state_make_job (fold, scene);
  folded = fr_fold_job_run (job, NULL, &cancelled);
  g_assert_false (cancelled);
  g_assert_true (folded->ok);
  g_assert_false (fr_export_curve (FR_EXPORT_CURVE_SVG, scene, folded, path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  result = solve (scene);
  fr_scene_clear_markers (scene);
  g_assert_false (fr_export_curve (FR_EXPORT_CURVE_SVG, scene, result, path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  test_tmpdir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/time-plot/surface-line", test_surface_line);
  g_test_add_func ("/app/time-plot/borehole", test_borehole);
  g_test_add_func ("/app/time-plot/describe", test_describe);
  g_test_add_func ("/app/time-plot/shots", test_shots);
  g_test_add_func ("/app/time-plot/pdf", test_pdf);
  g_test_add_func ("/app/time-plot/write-fails", test_write_fails);
  g_test_add_func ("/app/time-plot/refused", test_refused);
  return g_test_run ();
}
