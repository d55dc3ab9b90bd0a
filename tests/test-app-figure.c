/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Vector figures (app/fr-figure.c) read back: the SVG parsed as XML, with
 * one stroked path per folded horizon, per isochron and per ray in the
 * colours the figure uses for them; the PDF through poppler's pdfinfo,
 * pdftotext and pdftoppm (tests/setup-debian.sh installs poppler-utils).
 * A written figure's page is cropped to what it draws: positions in the
 * file are the view's less the page's origin (fr_figure_get_page). */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fr-contour.h"
#include "fr-export.h"
#include "fr-figure.h"
#include "fr-fold-job.h"
#include "fr-fold-state.h"
#include "fr-plot-layout.h"
#include "fr-scene.h"
#include "test-canvas-time.h"
#include "test-poppler.h"
#include "test-svg.h"

typedef struct
{
  guint  svg_root;
  double width, height;
  GArray *strokes;       /* double r, g, b (0..1) of each stroked path */
  GPtrArray *paths;      /* char *: each stroked path's "d", in order */
  GPtrArray *styles;     /* char *: each stroked path's "style", in order */
} SvgCount;

static gboolean
parse_rgb (const char *style, double rgb[3])
{
  const char *s = strstr (style, "stroke:rgb(");

  if (s == NULL)
    return FALSE;
  return sscanf (s, "stroke:rgb(%lf%%,%lf%%,%lf%%)", &rgb[0], &rgb[1], &rgb[2]) == 3;
}

/* A path's "d" in page coordinates: cairo writes a stroked path in user
 * space, with the user-to-page matrix as its transform (the crop's
 * offset, at least). */
static char *
page_d (const char *d,
        const char *transform)
{
  g_auto(GStrv) tok = NULL;
  GString *out;
  double m[6], x = 0.0;
  gboolean have_x = FALSE;

  if (transform == NULL)
    return g_strdup (d);
  g_assert_cmpint (sscanf (transform, "matrix(%lf,%lf,%lf,%lf,%lf,%lf)",
                           &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]), ==, 6);
  tok = g_strsplit_set (d, " ,", -1);
  out = g_string_new (NULL);
  for (guint i = 0; tok[i] != NULL; i++)
    {
      char buf[2][G_ASCII_DTOSTR_BUF_SIZE];
      double v;

      if (tok[i][0] == '\0')
        continue;
      if (g_ascii_isalpha (tok[i][0]))
        {
          g_string_append_printf (out, "%s ", tok[i]);
          continue;
        }
      v = g_ascii_strtod (tok[i], NULL);
      if (!have_x)
        {
          x = v;
          have_x = TRUE;
          continue;
        }
      g_string_append_printf (out, "%s %s ",
                              g_ascii_dtostr (buf[0], sizeof buf[0], m[0] * x + m[2] * v + m[4]),
                              g_ascii_dtostr (buf[1], sizeof buf[1], m[1] * x + m[3] * v + m[5]));
      have_x = FALSE;
    }
  g_assert_false (have_x);
  return g_string_free (out, FALSE);
}

static void
stroked_path (const char *style, const char *d, const char *transform, gpointer data)
{
  SvgCount *c = data;
  double rgb[3];

  if (strstr (style, "fill:none") == NULL || !parse_rgb (style, rgb))
    return;
  for (int k = 0; k < 3; k++)
    rgb[k] /= 100.0;
  g_array_append_vals (c->strokes, rgb, 3);
  g_ptr_array_add (c->paths, page_d (d, transform));
  g_ptr_array_add (c->styles, g_strdup (style));
}

/* Parses path as XML into c: the colour, "d" (in page coordinates) and
 * style of every stroked path, in order (freed by svg_count_clear). */
static void
read_svg (const char *path, SvgCount *c)
{
  TestSvgPage page;

  *c = (SvgCount) { 0 };
  c->strokes = g_array_new (FALSE, FALSE, sizeof (double));
  c->paths = g_ptr_array_new_with_free_func (g_free);
  c->styles = g_ptr_array_new_with_free_func (g_free);
  test_svg_read (path, &page, stroked_path, c);
  c->svg_root = page.n_svg;
  c->width = page.width;
  c->height = page.height;
}

static void
svg_count_clear (SvgCount *c)
{
  g_clear_pointer (&c->strokes, g_array_unref);
  g_clear_pointer (&c->paths, g_ptr_array_unref);
  g_clear_pointer (&c->styles, g_ptr_array_unref);
}

/* Parses path as XML and counts stroked paths of colour rgb; their "d"
 * attributes go to paths when it is not NULL. */
static guint
stroked_paths (const char *path, const double rgb[3], SvgCount *out, GPtrArray *paths)
{
  SvgCount c;
  guint n = 0;

  read_svg (path, &c);
  for (guint i = 0; i + 2 < c.strokes->len; i += 3)
    {
      const double *s = &g_array_index (c.strokes, double, i);

      if (fabs (s[0] - rgb[0]) < 0.006 && fabs (s[1] - rgb[1]) < 0.006 && fabs (s[2] - rgb[2]) < 0.006)
        {
          n++;
          if (paths != NULL)
            g_ptr_array_add (paths, g_strdup (g_ptr_array_index (c.paths, i / 3)));
        }
    }
  svg_count_clear (&c);
  if (out != NULL)
    *out = c;
  return n;
}

static guint
count_strokes (const char *path, const double rgb[3], SvgCount *out)
{
  return stroked_paths (path, rgb, out, NULL);
}

static guint
count_substrings (const char *text, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* The points of a path's "d" ("M x y L x y ..."), as x, y pairs. */
static GArray *
path_points (const char *d)
{
  GArray *pts = g_array_new (FALSE, FALSE, sizeof (double));
  g_auto(GStrv) tok = g_strsplit_set (d, " ,", -1);

  for (guint i = 0; tok[i] != NULL; i++)
    {
      char *end;
      double v;

      if (tok[i][0] == '\0' || g_ascii_isalpha (tok[i][0]))
        continue;
      v = g_ascii_strtod (tok[i], &end);
      g_assert_true (*end == '\0');
      g_array_append_val (pts, v);
    }
  g_assert_cmpuint (pts->len % 2, ==, 0);
  return pts;
}

/* The ends of a path's "d" (first and last point), in points. */
static void
path_ends (const char *d, double ends[4])
{
  g_autoptr(GArray) pts = path_points (d);

  g_assert_cmpuint (pts->len, >=, 4);
  ends[0] = g_array_index (pts, double, 0);
  ends[1] = g_array_index (pts, double, 1);
  ends[2] = g_array_index (pts, double, pts->len - 2);
  ends[3] = g_array_index (pts, double, pts->len - 1);
}

static guint
find_root (guint *parent, guint i)
{
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

/* How many lines the isochrons' paths, in either ink, make when a path
 * that ends where another starts or ends is joined to it: an isochron
 * changes ink, and path, where the field under it changes. */
static guint
isochron_lines (const char *svg)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint *parent = NULL;
  g_autofree double *ends = NULL;
  guint n, lines = 0;

  stroked_paths (svg, fr_figure_isochron_dark_rgb, NULL, paths);
  stroked_paths (svg, fr_figure_isochron_light_rgb, NULL, paths);
  n = paths->len;
  parent = g_new (guint, n);
  ends = g_new (double, 4 * n);
  for (guint i = 0; i < n; i++)
    {
      parent[i] = i;
      path_ends (g_ptr_array_index (paths, i), &ends[4 * i]);
    }
  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      for (guint a = 0; a < 2; a++)
        for (guint b = 0; b < 2; b++)
          if (hypot (ends[4 * i + 2 * a] - ends[4 * j + 2 * b],
                     ends[4 * i + 2 * a + 1] - ends[4 * j + 2 * b + 1]) < 0.02)
            parent[find_root (parent, i)] = find_root (parent, j);
  for (guint i = 0; i < n; i++)
    lines += find_root (parent, i) == i;
  return lines;
}

/* A 3 × 2 model in two layers, its top at z0. */
static FrScene *
make_scene_at (double z0)
{
  fr_grid g = fr_grid_2d (61, 41, 0.05, 0.05, 0.0, z0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  FrScene *scene = fr_scene_new ();

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = i / g.nx < 20 ? 1.0f : 1.5f;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "figure", &g, bytes, NULL));
  return scene;
}

static FrScene *
make_scene (void)
{
  return make_scene_at (0.0);
}

static void
make_view (FrScene *scene, FrView *view)
{
  /* As the canvas fits: into the plot of the figure's own layout. */
  fr_view_init (view);
  fr_view_set_size (view, 640, 420);
  fr_plot_layout_fit_view (view, scene, 1.0);
}

/* The page fig is written on, in the view's coordinates. */
static FrRect
figure_page (const FrFigure *fig)
{
  FrRect page;

  g_assert_true (fr_figure_get_page (fig, &page));
  return page;
}

static void
check_pdf (const char *path, const FrRect *page)
{
  g_autofree char *info = test_pdf_info (path);
  g_autofree char *text = test_pdf_text (path, FALSE);
  const char *pages = strstr (info, "Pages:");
  const char *size = strstr (info, "Page size:");
  double w = 0, h = 0;
  int n = 0;

  g_assert_nonnull (pages);
  g_assert_nonnull (size);
  g_assert_cmpint (sscanf (pages, "Pages: %d", &n), ==, 1);
  g_assert_cmpint (n, ==, 1);
  g_assert_cmpint (sscanf (size, "Page size: %lf x %lf", &w, &h), ==, 2);
  g_assert_cmpfloat (fabs (w - page->width), <, 0.5);
  g_assert_cmpfloat (fabs (h - page->height), <, 0.5);
  /* The axes (x ticks 0..3) and the colour bar are text, not pixels. */
  g_assert_nonnull (strstr (text, "velocity"));
  g_assert_nonnull (strstr (text, "\n3\n"));
  g_assert_nonnull (strstr (text, "\n1.5\n"));
}

static void
test_fold_figure (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrFoldState) fold = fr_fold_state_new ();
  g_autoptr(FrJob) job = NULL;
  g_autoptr(FrResult) result = NULL;
  g_autofree char *dir = g_dir_make_tmp ("foldray-figure-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "fold.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "fold.pdf", NULL);
  FrPoint h[3] = { { 0.0, 1.0 }, { 1.5, 0.8 }, { 3.0, 1.0 } };
  gboolean cancelled = TRUE;
  g_autoptr(GError) error = NULL;
  FrRect page;
  FrView view;
  SvgCount c;

  fr_fold_state_set_horizon (fold, h, 3);
  fr_fold_state_set_psi_a (fold, 0.2, -0.1);
  fr_fold_state_set_levels (fold, 0.2, 3);
  fr_fold_state_add_ray_point (fold, 2.0, 0.2);
  job = fr_fold_state_make_job (fold, scene);
  result = fr_fold_job_run (job, NULL, &cancelled);
  g_assert_false (cancelled);
  g_assert_true (result->ok);
  /* Three levels each side of an open horizon across the model. */
  g_assert_cmpuint (result->horizons->len, ==, 6);

  make_view (scene, &view);
  {
    FrFigure fig = { &view, scene, FR_COLORMAP_VIRIDIS, result, 0.0, fold };

    page = figure_page (&fig);
    g_assert_true (fr_figure_write (&fig, FR_FIGURE_SVG, svg, &error));
    g_assert_no_error (error);
    g_assert_true (fr_figure_write (&fig, FR_FIGURE_PDF, pdf, &error));
    g_assert_no_error (error);
  }
  g_assert_cmpuint (count_strokes (svg, fr_figure_folded_rgb, &c), ==, result->horizons->len);
  /* Each on a dark halo, as on the canvas: white alone vanished over yellow. */
  g_assert_cmpuint (count_strokes (svg, fr_figure_folded_halo_rgb, NULL), ==, result->horizons->len);
  g_assert_cmpuint (c.svg_root, ==, 1);
  g_assert_cmpfloat (c.width, ==, page.width);
  g_assert_cmpfloat (c.height, ==, page.height);
  g_assert_cmpuint (count_strokes (svg, fr_figure_horizon_rgb, NULL), ==, 1);
  g_assert_cmpuint (count_strokes (svg, fr_figure_ray_rgb, NULL), ==, 1);
  check_pdf (pdf, &page);

  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* A fake result for scene: T = distance / 1 from src, no rays. */
static FrResult *
distance_result (FrScene *scene, const double src[2], const double rcv[2])
{
  fr_grid g = *fr_scene_get_grid (scene);
  g_autoptr(FrJob) job = fr_job_new (&g, fr_scene_get_velocity (scene), src, 1, rcv, 1,
                                     fr_radius_square (4), FR_SPR_CPU);
  FrResult *result = fr_result_new (job);

  result->ok = TRUE;
  result->time = g_new (float, fr_grid_count (&g));
  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      {
        float t = (float) hypot (g.x0 + ix * g.dx - src[0], g.z0 + iz * g.dz - src[1]);

        result->time[fr_grid_index (&g, ix, 0, iz)] = t;
        result->time_max = MAX (result->time_max, t);
      }
  return result;
}

/* Rays mode: isochrons, whose paths change ink where the field under
 * them changes, joined into lines and counted against an independent
 * count of the analytic circles the traveltimes make. */
static void
test_rays_figure (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrResult) result = NULL;
  g_autofree char *dir = g_dir_make_tmp ("foldray-figure-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "rays.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "rays.pdf", NULL);
  g_autoptr(GError) error = NULL;
  double src[2] = { 1.5, 1.0 }, rcv[2] = { 0.5, 0.0 };
  FrRect page;
  FrView view;

  /* Isochrons every 0.25 are circles of radius 0.25, 0.5, 0.75, 1.0 (1.0
   * reaches the top and bottom edges: an arc cut in two), a ray along a
   * straight line. */
  result = distance_result (scene, src, rcv);
  {
    GArray *ray = g_array_new (FALSE, FALSE, sizeof (double));
    double pts[4] = { src[0], src[1], rcv[0], rcv[1] };

    g_array_append_vals (ray, pts, 4);
    g_ptr_array_add (result->rays, ray);
  }
  fr_scene_add_marker (scene, FR_MARKER_SOURCE, src[0], src[1]);

  make_view (scene, &view);
  {
    FrFigure fig = { &view, scene, FR_COLORMAP_MAGMA, result, 0.25, NULL };

    page = figure_page (&fig);
    g_assert_true (fr_figure_write (&fig, FR_FIGURE_SVG, svg, &error));
    g_assert_true (fr_figure_write (&fig, FR_FIGURE_PDF, pdf, &error));
    g_assert_no_error (error);
  }
  /* Radii 0.25..1.75 inside a 3 × 2 box around (1.5, 1): r <= 1 closed
   * circles (4), r = 1.25, 1.5 cut by top and bottom into 2 arcs each
   * (4), r = 1.75 cut by all four sides: 4 corner arcs.  12 in all. */
  g_assert_cmpuint (isochron_lines (svg), ==, 12);
  g_assert_cmpuint (count_strokes (svg, fr_figure_ray_rgb, NULL), ==, 1);
  /* On the white page the ticks (stroked at opacity 0.9) are in black
   * ink, not in the canvas's white, which vanished there: the x ticks
   * alone are 7 (0 to 3 by 0.5).  (The labels' halos are strokes too, so
   * the colour alone does not tell.) */
  {
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
    g_assert_cmpuint (count_substrings (text, "stroke:rgb(100%,100%,100%);stroke-opacity:0.9;"), ==, 0);
    g_assert_cmpuint (count_substrings (text, "stroke:rgb(0%,0%,0%);stroke-opacity:0.9;"), >=, 7);
  }
  check_pdf (pdf, &page);

  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* Rec. 709 luma of an sRGB colour. */
static double
luma (const double rgb[3])
{
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

/* Isochrons contrast with the field under them, as on the canvas: light
 * over the dark end of each colour map (the slow top of make_scene), dark
 * over its light end.  Judged from the file alone: every opaque stroke in
 * the plot is an isochron here (there are no model lines, rays or
 * markers), set against the luma of the map's colour under it.  A path
 * holds a whole run in one ink: where one path ends and the next begins,
 * the ink changes, on the cells' edge between the two velocities. */
static void
test_isochron_ink (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrResult) result = NULL;
  g_autofree char *dir = g_dir_make_tmp ("foldray-figure-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "ink.svg", NULL);
  const fr_grid *g = fr_scene_get_grid (scene);
  /* Rows 0..19 are slow, 20.. fast: their cells meet half a row on. */
  const double z_edge = g->z0 + 19.5 * g->dz;
  double src[2] = { 1.5, 1.0 }, rcv[2] = { 0.5, 0.0 };
  FrPlotLayout lay;
  FrView view;

  result = distance_result (scene, src, rcv);
  make_view (scene, &view);
  fr_plot_layout_for_view (&lay, &view, scene, 1.0);
  for (FrColormap map = 0; map < FR_N_COLORMAPS; map++)
    {
      FrFigure fig = { &view, scene, map, result, 0.25, NULL };
      FrRect page = figure_page (&fig);
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (double));
      double field[2][3], field_luma[2];
      guint over[2] = { 0, 0 }, joins = 0;
      SvgCount c;

      fr_colormap_sample (map, 0.0, field[0]);
      fr_colormap_sample (map, 1.0, field[1]);
      field_luma[0] = luma (field[0]);
      field_luma[1] = luma (field[1]);
      g_assert_cmpfloat (field_luma[0], <, 0.3);
      g_assert_cmpfloat (field_luma[1], >, 0.6);

      g_assert_true (fr_figure_write (&fig, FR_FIGURE_SVG, svg, &error));
      g_assert_no_error (error);
      read_svg (svg, &c);
      for (guint i = 0; i < c.paths->len; i++)
        {
          g_autoptr(GArray) pts = path_points (g_ptr_array_index (c.paths, i));
          const double *rgb = &g_array_index (c.strokes, double, 3 * i);
          gboolean in_plot = TRUE;
          double e[5];

          if (strstr (g_ptr_array_index (c.styles, i), "stroke-opacity:1;") == NULL)
            continue;
          for (guint k = 0; k < pts->len; k += 2)
            in_plot &= fr_rect_contains (&lay.plot, g_array_index (pts, double, k) + page.x,
                                         g_array_index (pts, double, k + 1) + page.y);
          if (!in_plot)
            continue;
          for (guint k = 2; k < pts->len; k += 2)
            {
              const double *q = &g_array_index (pts, double, k - 2);
              double x, z;
              int fast;

              /* Each segment's middle, over one cell. */
              fr_view_widget_to_model (&view, 0.5 * (q[0] + q[2]) + page.x,
                                       0.5 * (q[1] + q[3]) + page.y, &x, &z);
              if (fabs (z - z_edge) < 1e-3)
                continue;
              fast = z > z_edge;
              over[fast]++;
              if (!(fast ? luma (rgb) < field_luma[1] - 0.5 : luma (rgb) > field_luma[0] + 0.5))
                g_error ("%s: an isochron at (%.3f, %.3f) has luma %.2f over a field of luma %.2f",
                         fr_colormap_get_id (map), x, z, luma (rgb), field_luma[fast]);
            }
          e[0] = g_array_index (pts, double, 0);
          e[1] = g_array_index (pts, double, 1);
          e[2] = g_array_index (pts, double, pts->len - 2);
          e[3] = g_array_index (pts, double, pts->len - 1);
          e[4] = luma (rgb);
          g_array_append_vals (ends, e, 5);
        }
      /* Every isochron path that ends where another begins meets it on
       * the cells' edge, in the other ink: consecutive pieces in one ink
       * are one path. */
      for (guint i = 0; i < ends->len; i += 5)
        for (guint j = 0; j < ends->len; j += 5)
          {
            const double *a = &g_array_index (ends, double, i), *b = &g_array_index (ends, double, j);
            double x, z;

            if (i == j || hypot (a[2] - b[0], a[3] - b[1]) > 0.02)
              continue;
            fr_view_widget_to_model (&view, a[2] + page.x, a[3] + page.y, &x, &z);
            g_assert_cmpfloat (fabs (z - z_edge), <, 1e-3);
            g_assert_cmpfloat (fabs (a[4] - b[4]), >, 0.5);
            joins++;
          }
      g_test_message ("%s: %u isochron paths, %u segments over the slow part, %u over the fast, %u joins",
                      fr_colormap_get_id (map), ends->len / 5, over[0], over[1], joins);
      g_assert_cmpuint (over[0], >, 20);
      g_assert_cmpuint (over[1], >, 20);
      g_assert_cmpuint (joins, >, 0);
      svg_count_clear (&c);
    }

  g_unlink (svg);
  g_rmdir (dir);
}

/* The drawn model's interfaces and obstacle outlines are in the figure,
 * under the rays: each interface one path across the model (extended
 * level from its end nodes to the model's sides, as fr-raster.h reads
 * it), over a halo; each obstacle one closed outline in its kind's
 * colour. */
static void
test_model_outlines (void)
{
  fr_grid g = fr_grid_2d (61, 41, 0.05, 0.05, 0.0, 0.0);
  FrModel *m = fr_model_new (&g, 1.0);
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrJob) job = NULL;
  g_autoptr(FrResult) result = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = g_dir_make_tmp ("foldray-figure-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "outlines.svg", NULL);
  g_autoptr(GError) error = NULL;
  /* Layer A's nodes lie inside the model: drawn from its left side to its
   * right (the cells' outer edges, x = -0.025 and 3.025) at their end
   * depths.  Layer B's reach past both sides: drawn along its line. */
  const double a_nodes[] = { 0.5, 0.6, 2.0, 0.9 };
  const double a_drawn[] = { -0.025, 0.6, 0.5, 0.6, 2.0, 0.9, 3.025, 0.9 };
  const double b_nodes[] = { -1.0, 1.4, 4.0, 1.2 };
  double src[2] = { 1.5, 0.0 }, rcv[2] = { 2.5, 0.0 };
  const double *nodes[2] = { a_nodes, b_nodes }, *drawn[2] = { a_drawn, b_nodes };
  guint n_drawn[2] = { 4, 2 };
  FrLayer *l;
  FrObstacle *o;
  FrRect page;
  FrView view;

  for (int k = 0; k < 2; k++)
    {
      l = fr_layer_new (1.5 + k, 0.0, 0.0);
      fr_layer_add_node (l, nodes[k][0], nodes[k][1]);
      fr_layer_add_node (l, nodes[k][2], nodes[k][3]);
      g_ptr_array_add (m->layers, l);
    }
  g_ptr_array_add (m->obstacles, fr_obstacle_new_rectangle (0.3, 1.0, 0.9, 1.6, 0.5));
  o = fr_obstacle_new (FR_OBSTACLE_POLYGON, 0.0);
  fr_obstacle_add_vertex (o, 2.0, 1.5);
  fr_obstacle_add_vertex (o, 2.6, 1.5);
  fr_obstacle_add_vertex (o, 2.3, 1.9);
  g_ptr_array_add (m->obstacles, o);
  g_assert_true (fr_scene_load_model (scene, "outlines", m, NULL));

  /* A result with one ray, so the draw order can be checked. */
  job = fr_job_new (&g, fr_scene_get_velocity (scene), src, 1, rcv, 1, fr_radius_square (4),
                    FR_SPR_CPU);
  result = fr_result_new (job);
  result->ok = TRUE;
  result->time = g_new0 (float, fr_grid_count (&g));
  {
    GArray *ray = g_array_new (FALSE, FALSE, sizeof (double));
    double pts[4] = { src[0], src[1], rcv[0], rcv[1] };

    g_array_append_vals (ray, pts, 4);
    g_ptr_array_add (result->rays, ray);
  }

  make_view (scene, &view);
  {
    FrFigure fig = { &view, scene, FR_COLORMAP_VIRIDIS, result, 0.0, NULL };

    page = figure_page (&fig);
    g_assert_true (fr_figure_write (&fig, FR_FIGURE_SVG, svg, &error));
    g_assert_no_error (error);
  }

  g_assert_cmpuint (stroked_paths (svg, fr_figure_interface_rgb, NULL, paths), ==, 2);
  g_assert_cmpuint (count_strokes (svg, fr_figure_interface_halo_rgb, NULL), ==, 2);
  g_assert_cmpuint (count_strokes (svg, fr_figure_slow_obstacle_rgb, NULL), ==, 1);
  g_assert_cmpuint (count_strokes (svg, fr_figure_wall_obstacle_rgb, NULL), ==, 1);
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(GArray) pts = path_points (g_ptr_array_index (paths, k));

      /* cairo writes coordinates in 1/256ths of a point. */
      g_assert_cmpuint (pts->len, ==, 2 * n_drawn[k]);
      if (k == 1)
        {
          /* Layer B, past both sides of the plot, is cut a little outside
           * it (fr-clip.h): its two ends lie on its line, one on
           * each side of the plot and near it. */
          FrPlotLayout layout;
          double a[2], b[2];

          fr_plot_layout_for_view (&layout, &view, scene, 1.0);
          fr_view_model_to_widget (&view, drawn[k][0], drawn[k][1], &a[0], &a[1]);
          fr_view_model_to_widget (&view, drawn[k][2], drawn[k][3], &b[0], &b[1]);
          for (guint i = 0; i < 2; i++)
            {
              double x = g_array_index (pts, double, 2 * i) + page.x;
              double y = g_array_index (pts, double, 2 * i + 1) + page.y;
              double cross = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);

              g_assert_cmpfloat (fabs (cross) / hypot (b[0] - a[0], b[1] - a[1]), <, 0.01);
              if (i == 0)
                g_assert_true (x <= layout.plot.x && x > layout.plot.x - 64.0);
              else
                g_assert_true (x >= layout.plot.x + layout.plot.width &&
                               x < layout.plot.x + layout.plot.width + 64.0);
            }
          continue;
        }
      for (guint i = 0; i < n_drawn[k]; i++)
        {
          double px, py;

          fr_view_model_to_widget (&view, drawn[k][2 * i], drawn[k][2 * i + 1], &px, &py);
          g_assert_cmpfloat_with_epsilon (g_array_index (pts, double, 2 * i), px - page.x, 0.01);
          g_assert_cmpfloat_with_epsilon (g_array_index (pts, double, 2 * i + 1), py - page.y, 0.01);
        }
    }

  /* The ray comes after the outlines in the file: drawn over them. */
  {
    g_autofree char *text = NULL;
    char buf[64];
    const char *ray_at, *line_at;

    g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
    g_snprintf (buf, sizeof buf, "stroke:rgb(%g%%,%g%%,%g%%)", 100 * fr_figure_ray_rgb[0],
                100 * fr_figure_ray_rgb[1], 100 * fr_figure_ray_rgb[2]);
    ray_at = strstr (text, buf);
    g_snprintf (buf, sizeof buf, "stroke:rgb(%g%%,%g%%,%g%%)", 100 * fr_figure_interface_rgb[0],
                100 * fr_figure_interface_rgb[1], 100 * fr_figure_interface_rgb[2]);
    line_at = strstr (text, buf);
    g_assert_nonnull (ray_at);
    g_assert_nonnull (line_at);
    g_assert_true (line_at < ray_at);
  }

  /* In Folds mode the interfaces are one thin grey line each, unlike the
   * folded horizons' white: no halo, none in the Rays mode's colour. */
  {
    g_autoptr(FrFoldState) fold = fr_fold_state_new ();
    FrPoint h[2] = { { 0.0, 1.0 }, { 3.0, 1.0 } };
    FrFigure fig = { &view, scene, FR_COLORMAP_VIRIDIS, NULL, 0.0, fold };

    fr_fold_state_set_horizon (fold, h, 2);
    g_assert_true (fr_figure_write (&fig, FR_FIGURE_SVG, svg, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (count_strokes (svg, fr_figure_interface_muted_rgb, NULL), ==, 2);
    g_assert_cmpuint (count_strokes (svg, fr_figure_interface_rgb, NULL), ==, 0);
    g_assert_cmpuint (count_strokes (svg, fr_figure_interface_halo_rgb, NULL), ==, 0);
    g_assert_cmpuint (count_strokes (svg, fr_figure_slow_obstacle_rgb, NULL), ==, 1);
  }

  g_unlink (svg);
  g_rmdir (dir);
}

/* A scene of grid's velocities (taken). */
static FrScene *
scene_of (const fr_grid *g,
          float         *v)
{
  g_autoptr(GBytes) bytes = g_bytes_new_take (v, fr_grid_count (g) * sizeof (float));
  FrScene *scene = fr_scene_new ();

  g_assert_true (fr_scene_set_model (scene, "figure", g, bytes, NULL));
  return scene;
}

/* The text of scene's figure (viridis, fitted, no result) as a PDF. */
static char *
figure_pdf_text (FrScene *scene)
{
  g_autofree char *dir = g_dir_make_tmp ("foldray-figure-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "figure.pdf", NULL);
  g_autoptr(GError) error = NULL;
  char *text;
  FrView view;

  make_view (scene, &view);
  {
    FrFigure fig = { &view, scene, FR_COLORMAP_VIRIDIS, NULL, 0.0, NULL };

    g_assert_true (fr_figure_write (&fig, FR_FIGURE_PDF, pdf, &error));
    g_assert_no_error (error);
  }
  text = test_pdf_text (pdf, FALSE);
  g_test_message ("the figure's text: %s", text);
  g_unlink (pdf);
  g_rmdir (dir);
  return text;
}

/* Velocities in m/s: the colour bar's labels are whole numbers (1500,
 * 3650, 5800), not 1.5e+03. */
static void
test_colour_bar_metres (void)
{
  fr_grid g = fr_grid_2d (61, 41, 50.0, 50.0, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(FrScene) scene = NULL;
  g_autofree char *text = NULL;

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = i / g.nx < 20 ? 1500.0f : 5800.0f;
  scene = scene_of (&g, v);
  text = figure_pdf_text (scene);
  g_assert_nonnull (strstr (text, "5800"));
  g_assert_nonnull (strstr (text, "3650"));
  g_assert_nonnull (strstr (text, "1500"));
  g_assert_null (strstr (text, "e+0"));
}

/* The bar's ends are the model's least and greatest velocities as they
 * are: with 0.001 and 4 km/s the bottom read 0.0009999, the top plus the
 * range taken away again in float (helper-6). */
static void
test_colour_bar_ends (void)
{
  fr_grid g = fr_grid_2d (61, 41, 0.05, 0.05, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(FrScene) scene = NULL;
  g_autofree char *text = NULL;

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = i / g.nx < 20 ? 4.0f : 0.001f;
  scene = scene_of (&g, v);
  text = figure_pdf_text (scene);
  g_assert_nonnull (strstr (text, "\n0.001\n"));
  g_assert_nonnull (strstr (text, "\n4\n"));
  g_assert_null (strstr (text, "0.0009999"));
}

/* One velocity everywhere: the colour bar says it once, in the one
 * colour the field has.  It was a full ramp labelled 3000, 3000, 3000
 * (helper-60). */
static void
test_colour_bar_uniform (void)
{
  fr_grid g = fr_grid_2d (61, 41, 50.0, 50.0, 512000.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(FrScene) scene = NULL;
  g_autofree char *text = NULL;
  const char *p;
  guint labels = 0;

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = 3000.0f;
  scene = scene_of (&g, v);
  g_assert_true (fr_scene_velocity_is_uniform (scene));
  text = figure_pdf_text (scene);
  /* Lines of their own: the x ticks (513000) hold "3000" too. */
  for (p = text; (p = strstr (p, "\n3000\n")) != NULL; p += 5)
    labels++;
  g_assert_cmpuint (labels, ==, 1);
  g_assert_null (strstr (text, "2999"));
  g_assert_null (strstr (text, "3001"));
}

/* Whether (r, g, b) is a colour, not paper or ink: the field and the
 * colour bar are colours, the labels and lines grey. */
static gboolean
chromatic (const guint8 *px)
{
  guint32 v;
  int r, g, b;

  memcpy (&v, px, 4);
  r = (v >> 16) & 0xff;
  g = (v >> 8) & 0xff;
  b = v & 0xff;
  return MAX (r, MAX (g, b)) - MIN (r, MIN (g, b)) > 40;
}

/* fig drawn uncropped into an image of its view's size, flushed for
 * reading. */
static cairo_surface_t *
view_image (const FrFigure *fig)
{
  cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) fig->view->width,
                                                     (int) fig->view->height);
  cairo_t *cr = cairo_create (img);

  fr_figure_draw (fig, cr);
  cairo_destroy (cr);
  cairo_surface_flush (img);
  return img;
}

/* With bands on, the field is shaded by strata, as on the canvas: 80 %
 * of the sandstone or shale colour of floor (T / Δ) where 0 <= T < count·Δ,
 * the bare field beyond.  Their edges are where the canvas has them, at
 * T's levels between the nodes: every pixel a quarter of a cell or more
 * from a level has its band's colour.  Drawn per cell, the bands were
 * staircases, wrong up to half a cell from each folded horizon. */
static void
test_fold_bands (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autoptr(FrFoldState) fold = fr_fold_state_new ();
  const double src[2] = { 1.02, 0.5 }, rcv[2] = { 2.0, 0.5 };
  const double delta = 0.2;
  const int count = 3;
  g_autoptr(FrResult) result = distance_result (scene, src, rcv);
  const fr_grid *g = fr_scene_get_grid (scene);
  const double margin = 0.25 * g->dx;      /* |grad T| = 1 */
  cairo_surface_t *plain, *banded;
  guint in_bands = 0, beyond = 0, near = 0;
  FrRect m;
  FrView view;

  make_view (scene, &view);
  fr_fold_state_set_levels (fold, delta, count);
  {
    FrFigure fig = { &view, scene, FR_COLORMAP_VIRIDIS, result, 0.0, fold };

    plain = view_image (&fig);
    fr_fold_state_set_bands (fold, TRUE);
    banded = view_image (&fig);
  }
  fr_plot_layout_model_rect (&view, scene, &m);
  for (int py = (int) ceil (m.y) + 1; py < m.y + m.height - 1; py += 2)
    for (int px = (int) ceil (m.x) + 1; px < m.x + m.width - 1; px += 2)
      {
        double x, z, t, k, off;
        guint32 a, b;

        fr_view_widget_to_model (&view, px + 0.5, py + 0.5, &x, &z);
        t = test_canvas_time (g, result->time, x, z);
        k = floor (t / delta);
        off = k < count ? MIN (t - k * delta, (k + 1) * delta - t) : t - count * delta;
        if (off < margin)
          continue;
        a = *(guint32 *) (cairo_image_surface_get_data (plain) + py * cairo_image_surface_get_stride (plain) + 4 * px);
        b = *(guint32 *) (cairo_image_surface_get_data (banded) + py * cairo_image_surface_get_stride (banded) + 4 * px);
        for (int c = 0; c < 3; c++)
          {
            double field = (a >> (16 - 8 * c)) & 0xff, got = (b >> (16 - 8 * c)) & 0xff;
            double want = k < count ? 0.2 * field + 0.8 * 255.0 * fr_figure_band_rgb[(int) k % 2][c] : field;

            if (fabs (got - want) > 2.0)
              g_error ("pixel (%d, %d), T %.4f, channel %d: %g, want %g", px, py, t, c, got, want);
          }
        if (k < count)
          in_bands++;
        else
          beyond++;
        near += off < 0.5 * g->dx;
      }
  /* Every kind of pixel was looked at, many within half a cell of a level. */
  g_test_message ("%u pixels in bands, %u beyond, %u near a level", in_bands, beyond, near);
  g_assert_cmpuint (in_bands, >, 1000);
  g_assert_cmpuint (beyond, >, 1000);
  g_assert_cmpuint (near, >, 200);
  cairo_surface_destroy (plain);
  cairo_surface_destroy (banded);
}

/* Whether pixel v (RGB24) is rgb, to within 2 of 255 in each channel. */
static gboolean
pixel_is (guint32       v,
          const double  rgb[3])
{
  return abs ((int) ((v >> 16) & 0xff) - (int) round (255 * rgb[0])) <= 2 &&
         abs ((int) ((v >> 8) & 0xff) - (int) round (255 * rgb[1])) <= 2 &&
         abs ((int) (v & 0xff) - (int) round (255 * rgb[2])) <= 2;
}

/* The model's own lines stop at its edge, as the field does: a starting
 * horizon from x = -0.5 to 3.5 and an obstacle reaching past x = 3 on a
 * 3 × 1.5 model, zoomed out so that the plot shows room around it.  Its
 * horizon's colour and the obstacle's are on the model and nowhere else
 * but within half a line's width of its edge (both ran on into the
 * margin).  So is a characteristic whose front came from the horizon's
 * part beyond the left edge: it starts out there, and ran into the margin
 * to it. */
static void
test_model_lines_clipped (void)
{
  fr_grid g = fr_grid_2d (61, 31, 0.05, 0.05, 0.0, 0.0);
  FrModel *m = fr_model_new (&g, 2.0);
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrFoldState) fold = fr_fold_state_new ();
  FrPoint h[3] = { { -0.5, 0.5 }, { 1.5, 0.3 }, { 3.5, 0.5 } };
  const double *colours[3] = { fr_figure_horizon_rgb, fr_figure_slow_obstacle_rgb,
                               fr_figure_ray_rgb };
  guint inside[3] = { 0, 0, 0 }, outside[3] = { 0, 0, 0 };
  g_autoptr(FrJob) job = NULL;
  g_autoptr(FrResult) result = NULL;
  gboolean cancelled = TRUE;
  cairo_surface_t *img;
  FrRect r;
  FrView view;

  g_ptr_array_add (m->obstacles, fr_obstacle_new_rectangle (2.4, 1.0, 3.5, 1.3, 0.5));
  g_assert_true (fr_scene_load_model (scene, "clipped", m, NULL));
  fr_fold_state_set_horizon (fold, h, 3);
  fr_fold_state_set_psi_a (fold, 0.5, 0.0);
  fr_fold_state_add_ray_point (fold, 0.3, 1.4);
  job = fr_fold_state_make_job (fold, scene);
  result = fr_fold_job_run (job, NULL, &cancelled);
  g_assert_true (result->ok);
  g_assert_cmpuint (result->rays->len, ==, 1);
  {
    GArray *ray = g_ptr_array_index (result->rays, 0);

    g_test_message ("the characteristic starts at (%g, %g)", g_array_index (ray, double, 0),
                    g_array_index (ray, double, 1));
    g_assert_cmpfloat (g_array_index (ray, double, 0), <, -0.05);
  }
  make_view (scene, &view);
  fr_view_zoom_at (&view, 0.5 * view.width, 0.5 * view.height, 0.5);
  /* Off the model: past its edge by more than half the horizon's width
   * (2 points), where a line lying on the edge would end. */
  fr_plot_layout_model_line_clip (&view, scene, 2.0, &r);
  {
    FrFigure fig = { &view, scene, FR_COLORMAP_VIRIDIS, result, 0.0, fold };

    img = view_image (&fig);
  }
  for (int y = 0; y < cairo_image_surface_get_height (img); y++)
    for (int x = 0; x < cairo_image_surface_get_width (img); x++)
      {
        guint32 v = *(guint32 *) (cairo_image_surface_get_data (img) +
                                  y * cairo_image_surface_get_stride (img) + 4 * x);
        gboolean in = x + 0.5 > r.x && x + 0.5 < r.x + r.width &&
                      y + 0.5 > r.y && y + 0.5 < r.y + r.height;

        for (int c = 0; c < 3; c++)
          if (pixel_is (v, colours[c]))
            (in ? inside : outside)[c]++;
      }
  cairo_surface_destroy (img);
  g_test_message ("horizon: %u pixels on the model, %u off it; obstacle: %u on, %u off; "
                  "characteristic: %u on, %u off", inside[0], outside[0], inside[1], outside[1],
                  inside[2], outside[2]);
  g_assert_cmpuint (inside[0], >, 100);
  /* The folded horizons' halos, drawn over it as on the canvas, hide part
   * of the obstacle's outline. */
  g_assert_cmpuint (inside[1], >, 10);
  g_assert_cmpuint (inside[2], >, 10);
  g_assert_cmpuint (outside[0], ==, 0);
  g_assert_cmpuint (outside[1], ==, 0);
  g_assert_cmpuint (outside[2], ==, 0);
}

/* Orange (a slow obstacle's outline) pixels of img whose centres lie in
 * [x0, x1) × [y0, y1). */
static guint
count_orange (cairo_surface_t *img,
              double           x0,
              double           x1,
              double           y0,
              double           y1)
{
  guint n = 0;

  for (int y = MAX (0, (int) ceil (y0 - 0.5)); y < MIN (cairo_image_surface_get_height (img), (int) ceil (y1 - 0.5)); y++)
    for (int x = MAX (0, (int) ceil (x0 - 0.5)); x < MIN (cairo_image_surface_get_width (img), (int) ceil (x1 - 0.5)); x++)
      n += pixel_is (*(guint32 *) (cairo_image_surface_get_data (img) +
                                   y * cairo_image_surface_get_stride (img) + 4 * x),
                     fr_figure_slow_obstacle_rgb);
  return n;
}

/* A line lying on the model's edge shows whole: an obstacle whose left
 * and top sides are the model's left and top edges has as much of its
 * outline's width outside the model as inside, where the clip at the
 * edge kept only the inner half; one reaching past the right edge still
 * ends there, within half its width.  Drawn four times larger, so that
 * half of the outline's 1.2 points is more than two pixels. */
static void
test_model_edge_lines_whole (void)
{
  const double k = 4.0;
  fr_grid g = fr_grid_2d (61, 31, 0.05, 0.05, 0.0, 0.0);
  FrModel *m = fr_model_new (&g, 2.0);
  g_autoptr(FrScene) scene = fr_scene_new ();
  const double x0 = g.x0 - 0.5 * g.dx, z0 = g.z0 - 0.5 * g.dz;   /* the cells' outer edges */
  double px, py, qx, qy;
  guint out_left, out_top, in_left, past_right;
  cairo_surface_t *img;
  cairo_t *cr;
  FrRect r;
  FrView view;

  g_ptr_array_add (m->obstacles, fr_obstacle_new_rectangle (x0, z0, 1.0, 0.6, 0.5));
  g_ptr_array_add (m->obstacles, fr_obstacle_new_rectangle (2.4, 1.0, 3.5, 1.3, 0.5));
  g_assert_true (fr_scene_load_model (scene, "edge", m, NULL));
  make_view (scene, &view);
  fr_plot_layout_model_rect (&view, scene, &r);
  img = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) (k * view.width), (int) (k * view.height));
  cr = cairo_create (img);
  cairo_scale (cr, k, k);
  {
    FrFigure fig = { &view, scene, FR_COLORMAP_VIRIDIS, NULL, 0.0, NULL };

    fr_figure_draw (&fig, cr);
  }
  cairo_destroy (cr);
  cairo_surface_flush (img);

  /* The first obstacle's left side, from its top corner to its bottom
   * one, and its top side, in image pixels. */
  fr_view_model_to_widget (&view, x0, z0, &px, &py);
  fr_view_model_to_widget (&view, 1.0, 0.6, &qx, &qy);
  px *= k, py *= k, qx *= k, qy *= k;
  out_left = count_orange (img, px - 0.6 * k, px, py + 4, qy - 4);
  in_left = count_orange (img, px, px + 0.6 * k, py + 4, qy - 4);
  out_top = count_orange (img, px + 4, qx - 4, py - 0.6 * k, py);
  /* Past the right edge by more than half the outline and a pixel. */
  past_right = count_orange (img, k * (r.x + r.width + 0.6) + 1, k * view.width, 0, k * view.height);
  cairo_surface_destroy (img);
  g_test_message ("left side: %u orange pixels outside the edge, %u inside; top side: %u outside; "
                  "%u past the right edge", out_left, in_left, out_top, past_right);
  g_assert_cmpuint (in_left, >, 100);
  g_assert_cmpuint (out_left, >=, in_left * 3 / 4);
  g_assert_cmpuint (out_top, >, 100);
  g_assert_cmpuint (past_right, ==, 0);
}

/* The pixel of img at model (x, z) as r, g, b. */
static void
pixel_at (cairo_surface_t *img,
          const FrView    *view,
          double           x,
          double           z,
          int              rgb[3])
{
  double px, py;
  guint32 v;

  fr_view_model_to_widget (view, x, z, &px, &py);
  v = *(guint32 *) (cairo_image_surface_get_data (img) + (int) py * cairo_image_surface_get_stride (img)
                    + 4 * (int) px);
  rgb[0] = (v >> 16) & 0xff;
  rgb[1] = (v >> 8) & 0xff;
  rgb[2] = v & 0xff;
}

/* A shot at a receiver's station shows in a figure: sources are drawn
 * over receivers, as on the canvas.  The receiver's diamond hid the
 * source's disc (helper-60). */
static void
test_source_over_receiver (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  FrView view;
  cairo_surface_t *img;
  int rgb[3];

  fr_scene_add_marker (scene, FR_MARKER_RECEIVER, 1.5, 0.5);
  fr_scene_add_marker (scene, FR_MARKER_SOURCE, 1.5, 0.5);
  make_view (scene, &view);
  {
    FrFigure fig = { &view, scene, FR_COLORMAP_VIRIDIS, NULL, 0.0, NULL };

    img = view_image (&fig);
  }
  pixel_at (img, &view, 1.5, 0.5, rgb);
  /* The source's orange-red (1, 0.3, 0.08), not the receiver's cyan
   * (0.2, 0.85, 1). */
  g_assert_cmpint (rgb[0], >, 200);
  g_assert_cmpint (rgb[2], <, 80);
  cairo_surface_destroy (img);
}

/* Each source a shot of its own: the shot shown's source is filled in
 * its orange-red, the other white inside, as the canvas draws it hollow;
 * together, both are filled. */
static void
test_idle_source_hollow (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  FrView view;
  int rgb[3];

  fr_scene_add_marker (scene, FR_MARKER_SOURCE, 0.5, 0.5);
  fr_scene_add_marker (scene, FR_MARKER_SOURCE, 2.5, 0.5);
  make_view (scene, &view);
  for (guint separate = 0; separate < 2; separate++)
    {
      FrFigure fig = { &view, scene, FR_COLORMAP_VIRIDIS, NULL, 0.0, NULL };
      cairo_surface_t *img;

      fr_scene_set_separate_shots (scene, separate);
      img = view_image (&fig);
      pixel_at (img, &view, 2.5, 0.5, rgb);   /* the shot shown: the last placed */
      g_assert_cmpint (rgb[0], >, 200);
      g_assert_cmpint (rgb[2], <, 80);
      pixel_at (img, &view, 0.5, 0.5, rgb);
      if (separate)
        g_assert_true (rgb[0] > 240 && rgb[1] > 240 && rgb[2] > 240);
      else
        g_assert_true (rgb[0] > 200 && rgb[2] < 80);
      cairo_surface_destroy (img);
    }
}

/* The figure of view over scene (viridis, no result) drawn into an
 * image of the view's size, flushed for reading. */
static cairo_surface_t *
figure_image (const FrView *view,
              FrScene      *scene)
{
  FrFigure fig = { view, scene, FR_COLORMAP_VIRIDIS, NULL, 0.0, NULL };

  return view_image (&fig);
}

/* A figure zoomed into its model lays out as the canvas does: the field
 * fills the plot rectangle and nothing else is drawn there (no label, no
 * colour bar over the data); the gutters are paper with the axes' ink,
 * and the colour bar is in the right one, clear of the field. */
static void
test_figure_layout (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  cairo_surface_t *img;
  FrPlotLayout lay;
  FrView view;
  const guint8 *data;
  double field_rgb[2][3];
  int stride, w, h;
  guint bar_rows = 0, top_ink = 0, left_ink = 0;
  int bar_x0 = G_MAXINT, bar_x1 = -1;

  make_view (scene, &view);
  fr_view_zoom_at (&view, 0.5 * view.width, 0.5 * view.height, 3.0);
  fr_plot_layout_for_view (&lay, &view, scene, 1.0);
  fr_colormap_sample (FR_COLORMAP_VIRIDIS, 0.0, field_rgb[0]);
  fr_colormap_sample (FR_COLORMAP_VIRIDIS, 1.0, field_rgb[1]);

  img = figure_image (&view, scene);
  w = cairo_image_surface_get_width (img);
  h = cairo_image_surface_get_height (img);
  data = cairo_image_surface_get_data (img);
  stride = cairo_image_surface_get_stride (img);

  for (int y = 0; y < h; y++)
    {
      gboolean bar_row = FALSE;

      for (int x = 0; x < w; x++)
        {
          const guint8 *px = data + (gsize) y * stride + 4 * x;
          guint32 v;

          memcpy (&v, px, 4);
          if (fr_rect_contains (&lay.plot, x + 0.5, y + 0.5))
            {
              gboolean is_field = FALSE;

              /* The model's two velocities, cell by cell, unsmoothed. */
              for (int c = 0; c < 2; c++)
                is_field |= abs ((int) ((v >> 16) & 0xff) - (int) (field_rgb[c][0] * 255 + 0.5)) <= 2 &&
                            abs ((int) ((v >> 8) & 0xff) - (int) (field_rgb[c][1] * 255 + 0.5)) <= 2 &&
                            abs ((int) (v & 0xff) - (int) (field_rgb[c][2] * 255 + 0.5)) <= 2;
              if (!is_field)
                g_error ("pixel (%d, %d) in the plot is #%06x, not the field", x, y, v & 0xffffff);
            }
          else if (fr_rect_contains (&lay.right, x + 0.5, y + 0.5))
            {
              if (chromatic (px))
                {
                  bar_row = TRUE;
                  bar_x0 = MIN (bar_x0, x);
                  bar_x1 = MAX (bar_x1, x);
                }
            }
          else
            {
              /* Top, left and bottom gutters, corners: paper and ink. */
              if (chromatic (px))
                g_error ("pixel (%d, %d) outside the plot is #%06x, a colour", x, y, v & 0xffffff);
              if ((v & 0xff) < 100)
                {
                  top_ink += fr_rect_contains (&lay.top, x + 0.5, y + 0.5);
                  left_ink += fr_rect_contains (&lay.left, x + 0.5, y + 0.5);
                }
            }
        }
      bar_rows += bar_row;
    }
  /* A bar of 14 points, a gap from the field, most of the plot high. */
  g_assert_cmpuint (bar_rows, >, 0.5 * lay.plot.height);
  g_assert_cmpint (bar_x0, >=, (int) (lay.plot.x + lay.plot.width) + 6);
  g_assert_cmpint (bar_x1 - bar_x0, <=, 16);
  /* The tick labels are there, in their gutters. */
  g_assert_cmpuint (top_ink, >, 40);
  g_assert_cmpuint (left_ink, >, 40);
  cairo_surface_destroy (img);
}

/* Depths like "-123461.8" (nine characters) need a wider left gutter: the
 * figure gets it, its field stays in the plot right of it, and every z
 * label lies whole in the gutter, clear of the picture's edge and ending
 * before its tick and the gap beside it (7 px from the axis).  A gutter
 * too narrow pushes the label against the picture's edge and into the
 * ticks, or cuts it at the axis. */
static void
test_figure_wide_z_labels (void)
{
  g_autoptr(FrScene) scene = make_scene_at (-123462.0);
  cairo_surface_t *img;
  FrPlotLayout lay, def;
  FrPlotAxes axes;
  FrRect model;
  FrView view;
  const guint8 *data;
  double x0, z0, x1, z1;
  int stride, w, bx, labels = 0, run = 0, run_strip = 0, left_edge_ink = 0, field_x0 = G_MAXINT;

  make_view (scene, &view);
  fr_plot_layout_for_view (&lay, &view, scene, 1.0);
  fr_plot_layout_compute (&def, view.width, view.height, 1.0);
  g_assert_cmpfloat (lay.left.width, >, def.left.width);
  fr_scene_get_bounds (scene, &x0, &z0, &x1, &z1);
  fr_view_model_to_widget (&view, x0, z0, &model.x, &model.y);
  fr_view_model_to_widget (&view, x1, z1, &x1, &z1);
  model.width = x1 - model.x;
  model.height = z1 - model.y;
  g_assert_true (fr_plot_layout_axes (&lay, &model, &axes));
  bx = (int) round (axes.box.x);

  img = figure_image (&view, scene);
  w = cairo_image_surface_get_width (img);
  data = cairo_image_surface_get_data (img);
  stride = cairo_image_surface_get_stride (img);

  /* Along the z axis, row by row: a label's rows have ink far left of the
   * axis; of those, only the tick's two or three may have ink in the strip
   * between the label's end and the axis line. */
  for (int y = (int) axes.box.y; y <= (int) (axes.box.y + axes.box.height); y++)
    {
      gboolean label_row = FALSE, strip = FALSE;

      for (int x = 0; x < bx; x++)
        {
          guint32 v;
          gboolean ink;

          memcpy (&v, data + (gsize) y * stride + 4 * x, 4);
          ink = (v & 0xff) < 128 && ((v >> 8) & 0xff) < 128;
          label_row |= ink && x < bx - 9;
          strip |= ink && x >= bx - 6 && x <= bx - 2;
          left_edge_ink += ink && x <= 1;
        }
      if (label_row)
        {
          run++;
          run_strip += strip;
        }
      if (!label_row || y == (int) (axes.box.y + axes.box.height))
        {
          if (run > 0)
            {
              labels++;
              if (run_strip > 3)
                g_error ("the z label ending at row %d runs into the ticks on %d rows", y, run_strip);
            }
          run = run_strip = 0;
        }
      for (int x = 0; x < w; x++)
        if (chromatic (data + (gsize) y * stride + 4 * x) && x < (int) (lay.plot.x + lay.plot.width))
          field_x0 = MIN (field_x0, x);
    }
  g_test_message ("left gutter %.0f px, %d z labels, %d ink pixels at the picture's left edge, field from column %d",
                  lay.left.width, labels, left_edge_ink, field_x0);
  g_assert_cmpint (labels, >=, 4);
  g_assert_cmpint (left_edge_ink, ==, 0);
  g_assert_cmpint (field_x0, >=, (int) lay.plot.x);
  cairo_surface_destroy (img);
}

/* The PDF at path as poppler draws it, at 72 dpi: a pixel a point. */
static cairo_surface_t *
render_pdf (const char *path)
{
  g_autofree char *exe = g_find_program_in_path ("pdftoppm");
  g_autofree char *prefix = g_strconcat (path, "-page", NULL);
  g_autofree char *png = g_strconcat (prefix, ".png", NULL);
  const char *argv[] = { exe, "-r", "72", "-png", "-singlefile", path, prefix, NULL };
  g_autoptr(GError) error = NULL;
  cairo_surface_t *img;
  int status = 0;

  if (exe == NULL)
    g_error ("pdftoppm not found: install poppler-utils (tests/setup-debian.sh)");
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  img = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (img), ==, CAIRO_STATUS_SUCCESS);
  g_unlink (png);
  return img;
}

/* The box of img's ink, every pixel that is not paper (the labels' white
 * halos are paper): left, top, right, bottom, in pixels, the last two
 * exclusive. */
static void
ink_box (cairo_surface_t *img,
         int              box[4])
{
  const guint8 *data = cairo_image_surface_get_data (img);
  int stride = cairo_image_surface_get_stride (img);
  int w = cairo_image_surface_get_width (img), h = cairo_image_surface_get_height (img);

  box[0] = box[1] = G_MAXINT;
  box[2] = box[3] = -1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 v;

        memcpy (&v, data + (gsize) y * stride + 4 * x, 4);
        if (MIN ((v >> 16) & 0xff, MIN ((v >> 8) & 0xff, v & 0xff)) < 235)
          {
            box[0] = MIN (box[0], x);
            box[1] = MIN (box[1], y);
            box[2] = MAX (box[2], x + 1);
            box[3] = MAX (box[3], y + 1);
          }
      }
  g_assert_cmpint (box[2], >, box[0]);
}

/* A written figure's page is what it draws and a margin of paper, in
 * Rays and Folds mode, fitted, zoomed and panned: the PDF as poppler
 * draws it holds all the ink of the view drawn uncropped (same size, so
 * nothing is cut off), with between FR_FIGURE_MARGIN - 1 and
 * FR_FIGURE_MARGIN + 4 points of paper on each side (a label's white
 * halo, the measure's rounding to whole points and the pixels' edges take
 * up to 3.5).  A wide model fitted to the view once hung from the top of
 * a page of the view's size over a band of paper. */
static void
test_figure_cropped (void)
{
  /* A 6 × 1.5 model: in a 640 × 420 view, fitted, a third as high as the
   * plot. */
  fr_grid g = fr_grid_2d (121, 31, 0.05, 0.05, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autoptr(FrResult) result = NULL;
  g_autoptr(FrFoldState) fold = fr_fold_state_new ();
  g_autofree char *dir = g_dir_make_tmp ("foldray-figure-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "cropped.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "cropped.pdf", NULL);
  double src[2] = { 3.0, 0.5 }, rcv[2] = { 5.5, 0.0 };
  FrPoint h[2] = { { 0.0, 1.0 }, { 6.0, 0.8 } };
  const char *names[] = { "fitted", "zoomed and panned", "folds, zoomed out" };

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = i / g.nx < 12 ? 1.0f : 2.0f;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "wide", &g, bytes, NULL));
  fr_scene_add_marker (scene, FR_MARKER_SOURCE, src[0], src[1]);
  result = distance_result (scene, src, rcv);
  {
    GArray *ray = g_array_new (FALSE, FALSE, sizeof (double));
    double pts[4] = { src[0], src[1], rcv[0], rcv[1] };

    g_array_append_vals (ray, pts, 4);
    g_ptr_array_add (result->rays, ray);
  }
  fr_fold_state_set_horizon (fold, h, 2);

  for (guint c = 0; c < G_N_ELEMENTS (names); c++)
    {
      FrFigure fig = { NULL, scene, FR_COLORMAP_VIRIDIS, result, 0.25, NULL };
      cairo_surface_t *img;
      g_autoptr(GError) error = NULL;
      int in_view[4], in_page[4], margin[4], pw, ph;
      FrRect page;
      FrView view;
      SvgCount sc;

      make_view (scene, &view);
      if (c == 1)
        {
          double px, py;

          /* The field fills the plot, cut by it on every side. */
          fr_view_model_to_widget (&view, 3.0, 0.75, &px, &py);
          fr_view_zoom_at (&view, px, py, 4.0);
          fr_view_pan (&view, 60.0, 30.0);
        }
      if (c == 2)
        {
          fr_view_zoom_at (&view, 0.5 * view.width, 0.5 * view.height, 0.5);
          fig.result = NULL;
          fig.interval = 0.0;
          fig.fold = fold;
        }
      fig.view = &view;
      g_assert_true (fr_figure_write (&fig, FR_FIGURE_PDF, pdf, &error));
      g_assert_no_error (error);
      g_assert_true (fr_figure_write (&fig, FR_FIGURE_SVG, svg, &error));
      g_assert_no_error (error);

      img = view_image (&fig);
      ink_box (img, in_view);
      cairo_surface_destroy (img);
      img = render_pdf (pdf);
      pw = cairo_image_surface_get_width (img);
      ph = cairo_image_surface_get_height (img);
      ink_box (img, in_page);
      cairo_surface_destroy (img);
      margin[0] = in_page[0];
      margin[1] = in_page[1];
      margin[2] = pw - in_page[2];
      margin[3] = ph - in_page[3];
      g_test_message ("%s: view %.0f x %.0f, ink %d..%d, %d..%d; page %d x %d, paper left %d, top %d, right %d, bottom %d",
                      names[c], view.width, view.height, in_view[0], in_view[2], in_view[1], in_view[3],
                      pw, ph, margin[0], margin[1], margin[2], margin[3]);
      /* All the ink, none cut: as wide and high as the view's, ±1 for
       * the two renderers' edges. */
      g_assert_cmpint (abs ((in_page[2] - in_page[0]) - (in_view[2] - in_view[0])), <=, 1);
      g_assert_cmpint (abs ((in_page[3] - in_page[1]) - (in_view[3] - in_view[1])), <=, 1);
      for (int k = 0; k < 4; k++)
        {
          g_assert_cmpint (margin[k], >=, (int) FR_FIGURE_MARGIN - 1);
          g_assert_cmpint (margin[k], <=, (int) FR_FIGURE_MARGIN + 4);
        }

      /* The page fr_figure_get_page says, in both files, where the view's
       * ink is less the page's origin. */
      page = figure_page (&fig);
      g_assert_cmpfloat (fabs (page.width - pw), <=, 1.0);
      g_assert_cmpfloat (fabs (page.height - ph), <=, 1.0);
      g_assert_cmpfloat (fabs (in_view[0] - page.x - in_page[0]), <=, 1.0);
      g_assert_cmpfloat (fabs (in_view[1] - page.y - in_page[1]), <=, 1.0);
      read_svg (svg, &sc);
      g_assert_cmpfloat (sc.width, ==, page.width);
      g_assert_cmpfloat (sc.height, ==, page.height);
      svg_count_clear (&sc);
    }
  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* A failed figure names the file the user chose, never the temporary
 * file written beside it (g_file_set_contents' "fig.svg.Q7OMZ3"). */
static void
test_write_error_names_file (void)
{
  g_autoptr(FrScene) scene = make_scene ();
  g_autofree char *dir = g_dir_make_tmp ("foldray-figure-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", "fig.svg", NULL);
  g_autofree char *as_dir = g_build_filename (dir, "taken.pdf", NULL);
  g_autofree char *temp_prefix = NULL;
  FrView view;

  g_assert_cmpint (g_mkdir (as_dir, 0700), ==, 0);
  make_view (scene, &view);
  {
    FrFigure fig = { &view, scene, FR_COLORMAP_VIRIDIS, NULL, 0.25, NULL };
    const char *paths[2] = { missing, as_dir };

    for (guint i = 0; i < 2; i++)
      {
        g_autoptr(GError) error = NULL;

        g_assert_false (fr_figure_write (&fig, i == 0 ? FR_FIGURE_SVG : FR_FIGURE_PDF,
                                         paths[i], &error));
        g_assert_nonnull (error);
        g_test_message ("%s", error->message);
        g_assert_nonnull (strstr (error->message, paths[i]));
        g_free (temp_prefix);
        temp_prefix = g_strconcat (paths[i], ".", NULL);
        g_assert_null (strstr (error->message, temp_prefix));
      }
  }
  /* The same for any export written in one piece. */
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (fr_export_write_file (missing, "x", 1, &error));
    g_assert_nonnull (strstr (error->message, missing));
    g_free (temp_prefix);
    temp_prefix = g_strconcat (missing, ".", NULL);
    g_assert_null (strstr (error->message, temp_prefix));
  }
  g_rmdir (as_dir);
  g_rmdir (dir);
}

/* Every export written in one piece goes through fr_atomic_file, like
 * the grids and scenes: g_file_set_contents, used before, renamed over a
 * link, a pipe or a device and gave a private file 0666 less the umask. */
static void
test_write_keeps_links_and_modes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("foldray-export-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (dir, "target.svg", NULL);
  g_autofree char *link = g_build_filename (dir, "link.svg", NULL);
  g_autofree char *private = g_build_filename (dir, "private.pdf", NULL);
  g_autofree char *fifo = g_build_filename (dir, "pipe.png", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  /* Through a link: the link stays, its target gets the bytes. */
  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (symlink ("target.svg", link), ==, 0);
  g_assert_true (fr_export_write_file (link, "new", 3, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "new");

  /* A private file stays private. */
  g_assert_true (g_file_set_contents (private, "old", -1, NULL));
  g_assert_cmpint (g_chmod (private, 0600), ==, 0);
  g_assert_true (fr_export_write_file (private, "new", 3, &error));
  g_assert_cmpint (g_stat (private, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);

  /* A pipe is refused, by its name, and left a pipe. */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_false (fr_export_write_file (fifo, "new", 3, &error));
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, fifo));
  g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));

  g_unlink (fifo);
  g_unlink (private);
  g_unlink (link);
  g_unlink (target);
  g_rmdir (dir);
}

/* The axes' and colour bar's titles carry the scene's length unit, and
 * the velocity's in it per second, where one is set ("units" in the
 * scene file); without one they are "x", "z" and "velocity" alone. */
static void
test_figure_units (void)
{
  static const struct {
    FrLengthUnit  unit;
    const char   *says[3];
  } cases[] = {
    { FR_LENGTH_UNIT_NONE, { NULL } },
    { FR_LENGTH_UNIT_KM, { "x (km)", "z (km)", "velocity (km/s)" } },
    { FR_LENGTH_UNIT_FT, { "x (ft)", "z (ft)", "velocity (ft/s)" } },
  };
  g_autoptr(FrScene) scene = make_scene ();
  g_autofree char *dir = g_dir_make_tmp ("foldray-figure-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "units.pdf", NULL);
  FrView view;

  make_view (scene, &view);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      FrFigure fig = { .view = &view, .scene = scene, .colormap = FR_COLORMAP_VIRIDIS };
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;

      fr_scene_set_length_unit (scene, cases[i].unit);
      g_assert_true (fr_figure_write (&fig, FR_FIGURE_PDF, pdf, &error));
      g_assert_no_error (error);
      text = test_pdf_text (pdf, FALSE);
      g_test_message ("unit %d, the figure's text: %s", cases[i].unit, text);
      g_assert_nonnull (strstr (text, "velocity"));
      if (cases[i].unit == FR_LENGTH_UNIT_NONE)
        {
          g_assert_null (strstr (text, "("));
          g_assert_null (strstr (text, "/s"));
        }
      for (guint j = 0; j < G_N_ELEMENTS (cases[i].says) && cases[i].says[j] != NULL; j++)
        g_assert_nonnull (strstr (text, cases[i].says[j]));
      g_unlink (pdf);
    }
  g_rmdir (dir);
}

/* A depth axis from 200 to 800 m, drawn small, is labelled at two ticks
 * at least: the roundest step that fit (500) left it one label, "500". */
static void
test_figure_two_ticks (void)
{
  fr_grid g = fr_grid_2d (151, 121, 10.0, 5.0, 1000.0, 200.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autofree char *dir = g_dir_make_tmp ("foldray-figure-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "ticks.pdf", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) words = NULL;
  g_autoptr(GError) error = NULL;
  FrView view;
  guint z_labels = 0;

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = 1500.0f + (float) (i / g.nx);
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "ticks", &g, bytes, NULL));
  make_view (scene, &view);
  {
    FrFigure fig = { .view = &view, .scene = scene, .colormap = FR_COLORMAP_VIRIDIS };

    g_assert_true (fr_figure_write (&fig, FR_FIGURE_PDF, pdf, &error));
    g_assert_no_error (error);
  }
  text = test_pdf_text (pdf, FALSE);
  g_test_message ("the figure's text: %s", text);
  words = g_strsplit_set (text, " \n\f", -1);
  for (guint i = 0; words[i] != NULL; i++)
    z_labels += g_str_equal (words[i], "200") || g_str_equal (words[i], "400") ||
                g_str_equal (words[i], "600") || g_str_equal (words[i], "800");
  g_assert_cmpuint (z_labels, >=, 2);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* The file an export writes: its own suffix kept, added when missing
 * (unless that would replace a file nobody asked about), and a name with
 * another export's suffix refused: T.npy chosen for the .vti export was
 * written as VTK XML under the .npy name. */
static void
test_export_file_names (void)
{
  g_autofree char *dir = g_dir_make_tmp ("foldray-figure-XXXXXX", NULL);
  g_autofree char *taken = g_build_filename (dir, "taken.vti", NULL);
  g_autofree char *taken_stem = g_build_filename (dir, "taken", NULL);
  g_autoptr(GError) error = NULL;
  char *f;

  f = fr_export_file_for (FR_EXPORT_TIME_VTI, "/x/T.vti", &error);
  g_assert_cmpstr (f, ==, "/x/T.vti");
  g_free (f);
  f = fr_export_file_for (FR_EXPORT_TIME_NPY, "/x/T.NPY", &error);
  g_assert_cmpstr (f, ==, "/x/T.NPY");
  g_free (f);
  f = fr_export_file_for (FR_EXPORT_FIGURE_PDF, "/x/section.v2", &error);
  g_assert_cmpstr (f, ==, "/x/section.v2.pdf");
  g_free (f);
  g_assert_no_error (error);

  g_assert_null (fr_export_file_for (FR_EXPORT_TIME_VTI, "/x/T.npy", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  g_assert_nonnull (strstr (error->message, "“T.npy” ends in .npy, but this export writes a .vti file"));
  g_clear_error (&error);
  g_assert_null (fr_export_file_for (FR_EXPORT_RAYS_CSV, "/x/rays.vtp", &error));
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (taken, "", 0, NULL));
  g_assert_null (fr_export_file_for (FR_EXPORT_VELOCITY_VTI, taken_stem, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_unlink (taken);
  g_rmdir (dir);
}


/* Whether a pixel of colour rgb lies in column x within 2 rows of y. */
static gboolean
colour_near (cairo_surface_t *img,
             int              x,
             double           y,
             const double     rgb[3])
{
  for (int r = (int) floor (y) - 2; r <= (int) ceil (y) + 2; r++)
    if (r >= 0 && r < cairo_image_surface_get_height (img) &&
        pixel_is (*(guint32 *) (cairo_image_surface_get_data (img) +
                                r * cairo_image_surface_get_stride (img) + 4 * x), rgb))
      return TRUE;
  return FALSE;
}

/* Zoomed in far on a model, its sloping lines are drawn where they lie:
 * a layer's interface, an obstacle's side and a starting horizon, each
 * through the point zoomed at, at five columns of the figure, from 100×
 * to 1 000 000× (a point 1e8 units off the page).  cairo holds a path's
 * points in fixed point, and at 1000× every line was drawn flat at one
 * depth.  The written SVG keeps a page of the view's size. */
static void
test_deep_zoom_lines (void)
{
  static const double factors[] = { 1e2, 1e3, 1e5, 1e6 };
  /* Three lines through (1.5, 0.7), of slopes 0.25, -0.5 and 0.1. */
  static const double slopes[3] = { 0.25, -0.5, 0.1 };
  const double *colours[3] = { fr_figure_interface_rgb, fr_figure_wall_obstacle_rgb,
                               fr_figure_horizon_rgb };
  fr_grid g = fr_grid_2d (61, 31, 0.05, 0.05, 0.0, 0.0);

  for (int line = 0; line < 3; line++)
    for (guint f = 0; f < G_N_ELEMENTS (factors); f++)
      {
        FrModel *m = fr_model_new (&g, 2.0);
        g_autoptr(FrScene) scene = fr_scene_new ();
        g_autoptr(FrFoldState) fold = fr_fold_state_new ();
        const double k = slopes[line];
        cairo_surface_t *img;
        FrView view;
        double px, py;
        guint found = 0;

        if (line == 0)
          {
            FrLayer *l = fr_layer_new (3.0, 0.0, 0.0);

            fr_layer_add_node (l, 0.0, 0.7 - 1.5 * k);
            fr_layer_add_node (l, 3.0, 0.7 + 1.5 * k);
            g_ptr_array_add (m->layers, l);
          }
        else if (line == 1)
          {
            /* A wall whose side from (1.0, 0.95) to (2.0, 0.45) passes
             * through the point, its other vertices well away. */
            FrObstacle *o = fr_obstacle_new (FR_OBSTACLE_POLYGON, 0.0);

            fr_obstacle_add_vertex (o, 1.5 - 0.5, 0.7 - 0.5 * k);
            fr_obstacle_add_vertex (o, 1.5 + 0.5, 0.7 + 0.5 * k);
            fr_obstacle_add_vertex (o, 2.4, 1.4);
            g_ptr_array_add (m->obstacles, o);
          }
        else
          {
            FrPoint h[2] = { { -0.5, 0.7 - 2.0 * k }, { 3.5, 0.7 + 2.0 * k } };

            fr_fold_state_set_horizon (fold, h, 2);
          }
        g_assert_true (fr_scene_load_model (scene, "deep", m, NULL));
        make_view (scene, &view);
        fr_view_model_to_widget (&view, 1.5, 0.7, &px, &py);
        fr_view_zoom_at (&view, px, py, factors[f]);
        {
          FrFigure fig = { &view, scene, FR_COLORMAP_VIRIDIS, NULL, 0.0, line == 2 ? fold : NULL };
          FrRect page;

          cairo_t *cr;

          /* Without antialiasing a thin line's pixels take its colour. */
          img = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) view.width, (int) view.height);
          cr = cairo_create (img);
          cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
          fr_figure_draw (&fig, cr);
          cairo_destroy (cr);
          cairo_surface_flush (img);
          g_assert_true (fr_figure_get_page (&fig, &page));
          g_assert_cmpfloat (page.width, <, 2.0 * view.width);
          g_assert_cmpfloat (page.height, <, 2.0 * view.height);
        }
        for (int x = 100; x <= 500; x += 100)
          {
            /* z grows downwards with y, at the same scale as x. */
            double y = py + k * (x - px);

            if (colour_near (img, x, y, colours[line]))
              found++;
            else
              g_test_message ("line %d at %gx: nothing at column %d near row %.1f", line,
                              factors[f], x, y);
          }
        cairo_surface_destroy (img);
        g_assert_cmpuint (found, ==, 5);
      }
}

/* Zoomed in far at a corner where four cells of four velocities meet,
 * each quadrant of the figure shows its cell's colour: at 4× (an image
 * of the cells near the page) and at 100× and 100 000× (cells wider than
 * the page, drawn as rectangles cut to it). */
static void
test_deep_zoom_field (void)
{
  static const double factors[] = { 4.0, 1e2, 1e5 };
  fr_grid g = fr_grid_2d (61, 41, 0.05, 0.05, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FrScene) scene = fr_scene_new ();
  /* The corner between nodes (30, 20) and (31, 21). */
  const double cx = 30.5 * 0.05, cz = 20.5 * 0.05;

  for (size_t iz = 0; iz < g.nz; iz++)
    for (size_t ix = 0; ix < g.nx; ix++)
      v[fr_grid_index (&g, ix, 0, iz)] = 1.0f + (float) (ix % 2) + 2.0f * (float) (iz % 2);
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "cells", &g, bytes, NULL));
  for (guint f = 0; f < G_N_ELEMENTS (factors); f++)
    {
      FrFigure fig = { 0 };
      cairo_surface_t *img;
      FrView view;
      double px, py, reach;

      make_view (scene, &view);
      fr_view_model_to_widget (&view, cx, cz, &px, &py);
      fr_view_zoom_at (&view, px, py, factors[f]);
      fig = (FrFigure) { &view, scene, FR_COLORMAP_VIRIDIS, NULL, 0.0, NULL };
      img = view_image (&fig);
      /* A quarter cell from the corner, at most 60 units. */
      reach = MIN (0.25 * 0.05 * view.scale, 60.0);
      for (int qz = 0; qz < 2; qz++)
        for (int qx = 0; qx < 2; qx++)
          {
            int x = (int) floor (px + (qx ? reach : -reach)), y = (int) floor (py + (qz ? reach : -reach));
            guint32 got = *(guint32 *) (cairo_image_surface_get_data (img) +
                                        y * cairo_image_surface_get_stride (img) + 4 * x);
            /* Node 30 is even (v 1 or 3), node 31 odd (v 2 or 4). */
            double want[3];

            fr_colormap_sample (FR_COLORMAP_VIRIDIS, (qx + 2 * qz) / 3.0, want);
            if (!pixel_is (got, want))
              g_error ("at %gx, quadrant (%d, %d): pixel %06x, want the colour of v = %d",
                       factors[f], qx, qz, got & 0xffffff, 1 + qx + 2 * qz);
          }
      cairo_surface_destroy (img);
    }
}

/* A grid wider than cairo's 32767 pixels a side, small enough to hold:
 * its field, one pixel a cell, cannot be an image, and is drawn as runs
 * of cells instead (cairo's error surface has no data, and filling it
 * crashed the export). */
static void
test_figure_wider_than_cairo (void)
{
  fr_grid g = fr_grid_2d (40000, 3, 0.001, 0.001, 0.0, 0.0);
  float *v = g_new (float, fr_grid_count (&g));
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FrScene) scene = fr_scene_new ();
  g_autofree char *dir = g_dir_make_tmp ("foldray-figure-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "wide.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "wide.pdf", NULL);
  g_autoptr(GError) error = NULL;
  FrFigure fig = { NULL, scene, FR_COLORMAP_VIRIDIS, NULL, 0.0, NULL };
  FrView view;

  for (size_t i = 0; i < fr_grid_count (&g); i++)
    v[i] = (i % g.nx) < g.nx / 2 ? 1.0f : 2.0f;
  bytes = g_bytes_new_take (v, fr_grid_count (&g) * sizeof (float));
  g_assert_true (fr_scene_set_model (scene, "wider than cairo", &g, bytes, NULL));
  make_view (scene, &view);
  fig.view = &view;
  g_assert_true (fr_figure_write (&fig, FR_FIGURE_SVG, svg, &error));
  g_assert_no_error (error);
  g_assert_true (fr_figure_write (&fig, FR_FIGURE_PDF, pdf, &error));
  g_assert_no_error (error);
  g_remove (svg);
  g_remove (pdf);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/figure/folds", test_fold_figure);
  g_test_add_func ("/figure/fold-bands", test_fold_bands);
  g_test_add_func ("/figure/colour-bar-ends", test_colour_bar_ends);
  g_test_add_func ("/figure/colour-bar-uniform", test_colour_bar_uniform);
  g_test_add_func ("/figure/source-over-receiver", test_source_over_receiver);
  g_test_add_func ("/figure/idle-source-hollow", test_idle_source_hollow);
  g_test_add_func ("/figure/rays", test_rays_figure);
  g_test_add_func ("/figure/isochron-ink", test_isochron_ink);
  g_test_add_func ("/figure/model-outlines", test_model_outlines);
  g_test_add_func ("/figure/model-lines-clipped", test_model_lines_clipped);
  g_test_add_func ("/figure/model-edge-lines-whole", test_model_edge_lines_whole);
  g_test_add_func ("/figure/colour-bar-metres", test_colour_bar_metres);
  g_test_add_func ("/figure/write-error-names-file", test_write_error_names_file);
  g_test_add_func ("/figure/write-keeps-links-and-modes", test_write_keeps_links_and_modes);
  g_test_add_func ("/figure/layout", test_figure_layout);
  g_test_add_func ("/figure/wide-z-labels", test_figure_wide_z_labels);
  g_test_add_func ("/figure/cropped", test_figure_cropped);
  g_test_add_func ("/figure/units", test_figure_units);
  g_test_add_func ("/figure/export-file-names", test_export_file_names);
  g_test_add_func ("/figure/two-ticks", test_figure_two_ticks);
  g_test_add_func ("/figure/deep-zoom-lines", test_deep_zoom_lines);
  g_test_add_func ("/figure/deep-zoom-field", test_deep_zoom_field);
  g_test_add_func ("/figure/wider-than-cairo", test_figure_wider_than_cairo);
  return g_test_run ();
}
