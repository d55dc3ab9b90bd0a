/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-figure"

#include "config.h"

#include <math.h>

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n.h>

#include "fr-axes-draw.h"
#include "fr-contour.h"
#include "fr-export.h"
#include "fr-figure.h"
#include "fr-fold-bands.h"
#include "fr-clip.h"
#include "fr-plot-layout.h"

/* Cells at least this wide on the page are drawn as rectangles, not as an
 * image's pixels: an image placed within one cell of the guard then stays
 * within cairo's reach. */
#define BIG_CELL 48.0

/* The canvas mixes 85 % black or white ink into the field under an
 * isochron; on paper, opaque greys close to what that gives. */
const double fr_figure_isochron_dark_rgb[3]  = { 0.10, 0.10, 0.10 };
const double fr_figure_isochron_light_rgb[3] = { 0.90, 0.90, 0.90 };
const double fr_figure_horizon_rgb[3]  = { 1.00, 0.55, 0.00 };
const double fr_figure_folded_rgb[3]   = { 0.98, 0.98, 0.98 };
/* Under each folded horizon, as the canvas's 55 % black halo: without it a
 * white line vanished over the colour map's light end (viridis' yellow). */
const double fr_figure_folded_halo_rgb[3] = { 0.15, 0.15, 0.15 };
const double fr_figure_ray_rgb[3]      = { 1.00, 0.00, 1.00 };
const double fr_figure_interface_rgb[3] = { 0.93, 0.93, 0.93 };
const double fr_figure_interface_halo_rgb[3] = { 0.18, 0.18, 0.20 };
const double fr_figure_interface_muted_rgb[3] = { 0.62, 0.62, 0.66 };
const double fr_figure_slow_obstacle_rgb[3] = { 1.00, 0.65, 0.10 };
const double fr_figure_wall_obstacle_rgb[3] = { 0.85, 0.85, 0.85 };
/* The fold bands' strata, mixed 80 % into the field as on the canvas
 * (shaders/field.frag.glsl). */
const double fr_figure_band_rgb[2][3] = { { 0.91, 0.78, 0.50 }, { 0.42, 0.47, 0.55 } };

static const double isochron_width = 0.8;

static cairo_status_t
append_bytes (void                *closure,
              const unsigned char *data,
              unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* The colour the field shows for a cell of velocity value: the colour
 * map's, or an obstacle's grey. */
static void
field_rgb (const FrFigure *fig,
           float           value,
           float           vmin,
           float           vmax,
           double          rgb[3])
{
  if (value > 0.0f)
    fr_colormap_sample (fig->colormap, CLAMP ((value - vmin) / MAX (vmax - vmin, 1e-20f), 0.0, 1.0), rgb);
  else
    rgb[0] = rgb[1] = rgb[2] = 0.55;
}

/* The colour of cell (ix, iz). */
static guint32
cell_colour (const FrFigure *fig,
             const float    *v,
             float           vmin,
             float           vmax,
             size_t          ix,
             size_t          iz)
{
  const fr_grid *g = fr_scene_get_grid (fig->scene);
  double rgb[3];

  field_rgb (fig, v[fr_grid_index (g, ix, 0, iz)], vmin, vmax, rgb);
  return ((guint32) (rgb[0] * 255 + 0.5) << 16) | ((guint32) (rgb[1] * 255 + 0.5) << 8) |
         (guint32) (rgb[2] * 255 + 0.5);
}

static void
set_source_colour (cairo_t *cr,
                   guint32  px)
{
  cairo_set_source_rgb (cr, ((px >> 16) & 0xff) / 255.0, ((px >> 8) & 0xff) / 255.0,
                        (px & 0xff) / 255.0);
}

/* The first and one past the last of n cells of size cell from origin that
 * meet [lo, hi]. */
static void
cells_between (double  origin,
               double  cell,
               size_t  n,
               double  lo,
               double  hi,
               size_t *first,
               size_t *end)
{
  double a = floor ((lo - origin) / cell), b = ceil ((hi - origin) / cell);

  *first = (size_t) CLAMP (a, 0.0, (double) (n - 1));
  *end = (size_t) CLAMP (b, (double) *first + 1.0, (double) n);
}

/* The fold's bands over the cells ix0..ix1, iz0..iz1 of the field: each
 * parity's polygons filled as one path, its strata 80 % over the field as
 * on the canvas, so that their edges follow the folded horizons. */
static void
draw_bands (cairo_t        *cr,
            const FrFigure *fig,
            const float    *time,
            const FrRect   *guard,
            size_t          ix0,
            size_t          ix1,
            size_t          iz0,
            size_t          iz1)
{
  FrBandShapes parity[2];
  double delta;
  int count;

  fr_fold_state_get_levels (fig->fold, &delta, &count);
  fr_band_shapes_init (&parity[0]);
  fr_band_shapes_init (&parity[1]);
  fr_fold_bands_trace (fr_scene_get_grid (fig->scene), time, delta, count, ix0, ix1, iz0, iz1, parity);
  for (int p = 0; p < 2; p++)
    {
      const double *xz = (const double *) parity[p].xz->data;
      const guint *start = (const guint *) parity[p].start->data;

      cairo_new_path (cr);
      for (guint i = 0; i < fr_band_shapes_count (&parity[p]); i++)
        {
          double xy[2 * (FR_CLIP_POLYGON_MAX + 4)];
          guint n = start[i + 1] - start[i];

          /* Cut to the guard: a cell zoomed far in reaches beyond cairo's
           * fixed point. */
          for (guint j = 0; j < n; j++)
            fr_view_model_to_widget (fig->view, xz[2 * (start[i] + j)], xz[2 * (start[i] + j) + 1],
                                     &xy[2 * j], &xy[2 * j + 1]);
          n = fr_clip_polygon (guard, xy, n);
          for (guint j = 0; j < n; j++)
            if (j == 0)
              cairo_move_to (cr, xy[0], xy[1]);
            else
              cairo_line_to (cr, xy[2 * j], xy[2 * j + 1]);
          if (n > 0)
            cairo_close_path (cr);
        }
      cairo_set_source_rgba (cr, fr_figure_band_rgb[p][0], fr_figure_band_rgb[p][1],
                             fr_figure_band_rgb[p][2], 0.8);
      cairo_fill (cr);
      fr_band_shapes_clear (&parity[p]);
    }
}

/* The velocity field under the vector layers, the cells that meet the
 * guard only: one pixel a cell of an image scaled without smoothing, so
 * cells stay cells, or where cells are big on the page one rectangle a
 * run of equal cells in a row.  time: the fold's times on the same grid
 * when its bands are on, else NULL. */
static void
draw_field (cairo_t        *cr,
            const FrFigure *fig,
            const float    *time,
            const FrRect   *guard)
{
  const fr_grid *g = fr_scene_get_grid (fig->scene);
  const float *v = g_bytes_get_data (fr_scene_get_velocity (fig->scene), NULL);
  double cw, ch;
  size_t ix0, ix1, iz0, iz1;
  FrRect m, shown;
  float vmin, vmax;
  cairo_surface_t *img = NULL;

  fr_plot_layout_model_rect (fig->view, fig->scene, &m);
  if (!fr_clip_rect (&m, guard, &shown))
    return;
  fr_scene_get_velocity_range (fig->scene, &vmin, &vmax);
  cw = m.width / g->nx;
  ch = m.height / g->nz;
  cells_between (m.x, cw, g->nx, shown.x, shown.x + shown.width, &ix0, &ix1);
  cells_between (m.y, ch, g->nz, shown.y, shown.y + shown.height, &iz0, &iz1);

  /* One pixel a cell, unless cells are big on the page; or where the image
   * cannot be made (cairo's limit of 32767 pixels a side, a grid that
   * wide, or no memory left), as runs too: its error surface has no data
   * to fill. */
  if (cw < BIG_CELL && ch < BIG_CELL && ix1 - ix0 <= G_MAXINT && iz1 - iz0 <= G_MAXINT)
    {
      img = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) (ix1 - ix0), (int) (iz1 - iz0));
      if (cairo_surface_status (img) != CAIRO_STATUS_SUCCESS)
        g_clear_pointer (&img, cairo_surface_destroy);
    }

  cairo_save (cr);
  cairo_rectangle (cr, shown.x, shown.y, shown.width, shown.height);
  cairo_clip (cr);
  if (img == NULL)
    for (size_t iz = iz0; iz < iz1; iz++)
      for (size_t ix = ix0; ix < ix1;)
        {
          guint32 px = cell_colour (fig, v, vmin, vmax, ix, iz);
          size_t run = ix + 1;
          FrRect cell, part;

          while (run < ix1 && cell_colour (fig, v, vmin, vmax, run, iz) == px)
            run++;
          cell = (FrRect) { m.x + ix * cw, m.y + iz * ch, (run - ix) * cw, ch };
          if (fr_clip_rect (&cell, guard, &part))
            {
              cairo_rectangle (cr, part.x, part.y, part.width, part.height);
              set_source_colour (cr, px);
              cairo_fill (cr);
            }
          ix = run;
        }
  else
    {
      int stride = cairo_image_surface_get_stride (img);
      guint8 *data = cairo_image_surface_get_data (img);
      cairo_pattern_t *pattern;

      cairo_surface_flush (img);
      for (size_t iz = iz0; iz < iz1; iz++)
        for (size_t ix = ix0; ix < ix1; ix++)
          *(guint32 *) (data + (iz - iz0) * stride + 4 * (ix - ix0)) =
            cell_colour (fig, v, vmin, vmax, ix, iz);
      cairo_surface_mark_dirty (img);
      cairo_save (cr);
      /* Within a cell of the guard, as the cells were picked. */
      cairo_translate (cr, m.x + ix0 * cw, m.y + iz0 * ch);
      cairo_scale (cr, cw, ch);
      cairo_set_source_surface (cr, img, 0, 0);
      pattern = cairo_get_source (cr);
      cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
      cairo_paint (cr);
      cairo_restore (cr);
      cairo_surface_destroy (img);
    }
  if (time != NULL)
    draw_bands (cr, fig, time, guard, ix0, ix1, iz0, iz1);
  cairo_restore (cr);
}

/* The model's frame just outside its cells, drawn before the lines so
 * that rays and markers on the model's edge stay on top of it. */
static void
draw_frame (cairo_t        *cr,
            const FrFigure *fig,
            const FrRect   *guard)
{
  FrRect m, frame;

  fr_plot_layout_model_rect (fig->view, fig->scene, &m);
  m = (FrRect) { m.x - 0.5, m.y - 0.5, m.width + 1.0, m.height + 1.0 };
  /* Sides beyond the guard move onto it, out of sight. */
  if (!fr_clip_rect (&m, guard, &frame))
    return;
  cairo_rectangle (cr, frame.x, frame.y, frame.width, frame.height);
  cairo_set_source_rgba (cr, 0.0, 0.0, 0.0, 0.6);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
}

/* Clips cr, until the caller's cairo_restore, to where the model's own
 * lines of width w reach (fr_plot_layout_model_line_clip): its edge,
 * grown by half of w, so that one lying on the edge shows whole, as on
 * the canvas. */
static void
clip_model_lines (cairo_t        *cr,
                  const FrFigure *fig,
                  const FrRect   *guard,
                  double          w)
{
  FrRect c;

  fr_plot_layout_model_line_clip (fig->view, fig->scene, w, &c);
  cairo_save (cr);
  /* Cut to the guard, for cairo's fixed point; none of it shows: none. */
  if (fr_clip_rect (&c, guard, &c))
    cairo_rectangle (cr, c.x, c.y, c.width, c.height);
  cairo_clip (cr);
}

/* One stroked path per polyline, so each is one element in the file. */
static void
stroke_polyline (cairo_t      *cr,
                 const FrView *view,
                 const FrRect *guard,
                 const double *xz,
                 gsize         n,
                 const double  rgb[3],
                 double        width)
{
  FrClipPath path;

  if (n < 2)
    return;
  fr_clip_path_init (&path, cr, guard);
  for (gsize i = 0; i < n; i++)
    {
      double px, py;

      fr_view_model_to_widget (view, xz[2 * i], xz[2 * i + 1], &px, &py);
      fr_clip_path_line_to (&path, px, py);
    }
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_set_line_width (cr, width);
  cairo_stroke (cr);
}

/* The drawn model's obstacle outlines and interfaces, as on the canvas:
 * an interface a light line on a dark halo, across the model (a thin grey
 * one in Folds mode). */
static void
draw_model_outlines (cairo_t        *cr,
                     const FrFigure *fig,
                     const FrRect   *guard)
{
  const double obstacle_width = 1.2;
  const FrModel *m = fr_scene_get_model (fig->scene);
  g_autoptr(GArray) xz = NULL;
  double x0, z0, x1, z1;

  if (m == NULL)
    return;
  clip_model_lines (cr, fig, guard, obstacle_width);
  for (guint i = 0; i < m->obstacles->len; i++)
    {
      const FrObstacle *o = g_ptr_array_index (m->obstacles, i);
      const double *rgb = o->velocity > 0 ? fr_figure_slow_obstacle_rgb : fr_figure_wall_obstacle_rgb;

      FrClipPath path;

      if (o->vertices->len < 2)
        continue;
      /* Closed by a last side back to the first vertex (round joins and
       * caps: the same line as cairo_close_path's). */
      fr_clip_path_init (&path, cr, guard);
      for (guint k = 0; k <= o->vertices->len; k++)
        {
          const FrVertex *v = &g_array_index (o->vertices, FrVertex, k % o->vertices->len);
          double px, py;

          fr_view_model_to_widget (fig->view, v->x, v->z, &px, &py);
          fr_clip_path_line_to (&path, px, py);
        }
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_set_line_width (cr, obstacle_width);
      cairo_stroke (cr);
    }
  cairo_restore (cr);

  fr_scene_get_bounds (fig->scene, &x0, &z0, &x1, &z1);
  xz = g_array_new (FALSE, FALSE, sizeof (double));
  /* In Folds mode, one thin grey line: the folded horizons are the
   * result. */
  for (guint pass = fig->fold != NULL ? 1 : 0; pass < 2; pass++)
    {
      const double w = pass == 0 ? 2.4 : fig->fold != NULL ? 0.7 : 1.0;

      clip_model_lines (cr, fig, guard, w);
      for (guint i = 0; i < m->layers->len; i++)
        {
          g_array_set_size (xz, 0);
          fr_layer_outline (g_ptr_array_index (m->layers, i), x0, x1, xz);
          stroke_polyline (cr, fig->view, guard, (const double *) xz->data, xz->len / 2,
                           pass == 0 ? fr_figure_interface_halo_rgb
                                     : fig->fold != NULL ? fr_figure_interface_muted_rgb
                                                         : fr_figure_interface_rgb, w);
        }
      cairo_restore (cr);
    }
}

/* A point of an isochron, in model units. */
typedef struct
{
  double   x, z;
  gboolean light;   /* the piece ending here lies over a dark colour */
} InkPoint;

/* Whether an isochron at (x, z) takes the light ink: the canvas's rule
 * (shaders/field.frag.glsl), the luma of the colour under it (Rec. 709
 * weights on the map's values) at most 0.45. */
static gboolean
light_ink_at (const FrFigure *fig,
              float           vmin,
              float           vmax,
              double          x,
              double          z)
{
  double rgb[3];

  field_rgb (fig, fr_scene_velocity_at (fig->scene, x, z), vmin, vmax, rgb);
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] <= 0.45;
}

/* Appends segment a → b to pts, cut where it crosses from one cell into
 * the next: each piece lies over one cell's colour, which picks its ink,
 * so the ink changes where the field's colour does, as on the canvas. */
static void
append_segment (GArray         *pts,
                const FrFigure *fig,
                float           vmin,
                float           vmax,
                const double    a[2],
                const double    b[2])
{
  const fr_grid *g = fr_scene_get_grid (fig->scene);
  const double origin[2] = { g->x0, g->z0 }, spacing[2] = { g->dx, g->dz };
  InkPoint p = { b[0], b[1], FALSE };
  double fa[2], fb[2], edge[2], t = 0.0;
  int step[2], left[2];

  /* In cell units, where the cells' edges are the integers. */
  for (int k = 0; k < 2; k++)
    {
      fa[k] = (a[k] - origin[k]) / spacing[k] + 0.5;
      fb[k] = (b[k] - origin[k]) / spacing[k] + 0.5;
      step[k] = fb[k] > fa[k] ? 1 : -1;
      edge[k] = floor (fa[k]) + (step[k] > 0 ? 1.0 : 0.0);
      left[k] = (int) fabs (floor (fb[k]) - floor (fa[k]));
    }
  for (;;)
    {
      double next = 1.0;
      int k = -1;

      for (int j = 0; j < 2; j++)
        if (left[j] > 0 && (edge[j] - fa[j]) / (fb[j] - fa[j]) < next)
          {
            next = (edge[j] - fa[j]) / (fb[j] - fa[j]);
            k = j;
          }
      if (next > t)
        {
          double mid = 0.5 * (t + next);
          gboolean light = light_ink_at (fig, vmin, vmax, a[0] + mid * (b[0] - a[0]),
                                         a[1] + mid * (b[1] - a[1]));

          /* A cut only where the ink changes keeps the file small. */
          if (t > 0.0 && light != p.light)
            {
              InkPoint cut = { a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), p.light };

              g_array_append_val (pts, cut);
            }
          p.light = light;
          t = next;
        }
      if (k < 0)
        break;
      edge[k] += step[k];
      left[k]--;
    }
  g_array_append_val (pts, p);
}

/* Moves or draws a line to p. */
static void
ink_point_to (FrClipPath     *path,
              const FrView   *view,
              const InkPoint *p,
              gboolean        move)
{
  double px, py;

  fr_view_model_to_widget (view, p->x, p->z, &px, &py);
  if (move)
    fr_clip_path_move_to (path, px, py);
  else
    fr_clip_path_line_to (path, px, py);
}

/* Strokes the path so far in one of the two isochron inks. */
static void
stroke_ink (cairo_t  *cr,
            gboolean  light)
{
  const double *rgb = light ? fr_figure_isochron_light_rgb : fr_figure_isochron_dark_rgb;

  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_set_line_width (cr, isochron_width);
  cairo_stroke (cr);
}

/* Strokes the n points of one isochron (pieces 1 .. n - 1) as one path
 * per run of pieces in one ink.  A closed line starts where its ink
 * changes, so that no run is cut in two at the line's seam. */
static void
stroke_isochron (cairo_t        *cr,
                 const FrView   *view,
                 const FrRect   *guard,
                 const InkPoint *p,
                 guint           n,
                 gboolean        closed)
{
  guint first = 1;
  gboolean light;
  FrClipPath path;

  if (n < 2)
    return;
  if (closed)
    for (guint i = 1; i + 1 < n; i++)
      if (p[i + 1].light != p[i].light)
        {
          first = i + 1;
          break;
        }
  light = p[first].light;
  fr_clip_path_init (&path, cr, guard);
  ink_point_to (&path, view, &p[first - 1], TRUE);
  for (guint k = 0; k < n - 1; k++)
    {
      guint i = (first - 1 + k) % (n - 1) + 1;

      if (p[i].light != light)
        {
          stroke_ink (cr, light);
          ink_point_to (&path, view, &p[i - 1], TRUE);
          light = p[i].light;
        }
      ink_point_to (&path, view, &p[i], FALSE);
    }
  stroke_ink (cr, light);
}

/* Isochrons in the ink the canvas gives them: light over the dark end of
 * the colour map, dark over the light end. */
static void
draw_isochrons (cairo_t        *cr,
                const FrFigure *fig,
                const FrRect   *guard)
{
  FrResult *r = fig->result;
  g_autofree double *levels = NULL;
  g_autoptr(GArray) pts = NULL;
  fr_contour_set set = { 0 };
  float vmin, vmax;
  int n;

  if (!(fig->interval > 0.0) || !(r->time_max > 0.0))
    return;
  n = (int) MIN (floor (r->time_max / fig->interval), 1000.0);
  if (n < 1)
    return;
  levels = g_new (double, n);
  for (int k = 0; k < n; k++)
    levels[k] = (k + 1) * fig->interval;
  fr_scene_get_velocity_range (fig->scene, &vmin, &vmax);
  pts = g_array_new (FALSE, FALSE, sizeof (InkPoint));
  if (fr_contour_trace (&r->job->grid, r->time, levels, n, &set, NULL) == FR_OK)
    for (size_t i = 0; i < set.nlines; i++)
      {
        const double *xz = &set.xz[2 * set.start[i]];
        InkPoint start = { xz[0], xz[1], FALSE };

        g_array_set_size (pts, 0);
        g_array_append_val (pts, start);
        for (size_t j = 1; j < set.start[i + 1] - set.start[i]; j++)
          append_segment (pts, fig, vmin, vmax, &xz[2 * (j - 1)], &xz[2 * j]);
        stroke_isochron (cr, fig->view, guard, (const InkPoint *) pts->data, pts->len, set.closed[i]);
      }
  fr_contour_set_clear (&set);
}

static void
draw_marker (cairo_t      *cr,
             double        px,
             double        py,
             gboolean      diamond,
             const double  rgb[3])
{
  if (diamond)
    {
      cairo_move_to (cr, px, py - 5.0);
      cairo_line_to (cr, px + 5.0, py);
      cairo_line_to (cr, px, py + 5.0);
      cairo_line_to (cr, px - 5.0, py);
      cairo_close_path (cr);
    }
  else
    cairo_arc (cr, px, py, 4.0, 0.0, 2.0 * G_PI);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, 0.0, 0.0, 0.0);
  cairo_set_line_width (cr, 0.8);
  cairo_stroke (cr);
}

/* Draws what the figure shows, without the paper under it, in the
 * view's coordinates. */
static void
draw_content (const FrFigure *fig,
              cairo_t        *cr)
{
  static const double source_rgb[3] = { 1.00, 0.30, 0.08 };
  static const double receiver_rgb[3] = { 0.20, 0.85, 1.00 };
  static const double white_rgb[3] = { 1.0, 1.0, 1.0 };
  FrResult *r = fig->result;
  FrPlotLayout layout;
  FrRect guard;
  gboolean has_time;

  cairo_save (cr);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  /* The field stays in the plot rectangle, as on the canvas; the axes
   * and colour bar go in the gutters around it. */
  fr_plot_layout_for_view (&layout, fig->view, fig->scene, 1.0);
  /* Every path is cut to a guard about the plot, which clips what is
   * drawn (fr-clip.h). */
  guard = fr_clip_grown (&layout.plot, FR_CLIP_GUARD_MARGIN);
  cairo_save (cr);
  cairo_rectangle (cr, layout.plot.x, layout.plot.y, layout.plot.width, layout.plot.height);
  cairo_clip (cr);
  has_time = r != NULL && r->ok && r->time != NULL &&
             fr_scene_job_is_current (fig->scene, r->job);
  draw_field (cr, fig, has_time && fig->fold != NULL && fr_fold_state_get_bands (fig->fold)
                       && fr_grid_count (&r->job->grid) == fr_grid_count (fr_scene_get_grid (fig->scene))
                       ? r->time : NULL, &guard);
  draw_frame (cr, fig, &guard);

  /* The model's own lines, cut at its edge grown by half their width, as
   * the canvas cuts them: a starting horizon or an obstacle reaching past
   * the model ran on into the margin, and one on the edge showed half. */
  if (has_time && fig->fold == NULL)
    {
      clip_model_lines (cr, fig, &guard, isochron_width);
      draw_isochrons (cr, fig, &guard);
      cairo_restore (cr);
    }
  draw_model_outlines (cr, fig, &guard);
  if (has_time && fig->fold != NULL && r->horizons != NULL)
    {
      /* The canvas's 4.5 and 2 pixels, at its half a point a pixel. */
      const double folded_width = 1.0, halo_width = 2.25;

      clip_model_lines (cr, fig, &guard, halo_width);
      for (guint pass = 0; pass < 2; pass++)
        for (guint i = 0; i < r->horizons->len; i++)
          {
            GArray *line = g_ptr_array_index (r->horizons, i);

            stroke_polyline (cr, fig->view, &guard, (const double *) line->data, line->len / 2,
                             pass == 0 ? fr_figure_folded_halo_rgb : fr_figure_folded_rgb,
                             pass == 0 ? halo_width : folded_width);
          }
      cairo_restore (cr);
    }
  if (fig->fold != NULL)
    {
      const double horizon_width = 2.0;
      guint n;
      const FrPoint *h = fr_fold_state_get_horizon (fig->fold, &n);

      clip_model_lines (cr, fig, &guard, horizon_width);
      stroke_polyline (cr, fig->view, &guard, (const double *) h, n, fr_figure_horizon_rgb, horizon_width);
      cairo_restore (cr);
    }
  if (has_time)
    {
      const double ray_width = 1.5;

      /* A characteristic from a horizon beyond the model starts there, out
       * of sight as that horizon is: cut at the model's edge as it is.
       * (The graph's rays keep to the model.) */
      if (fig->fold != NULL)
        clip_model_lines (cr, fig, &guard, ray_width);
      for (guint i = 0; i < r->rays->len; i++)
        {
          GArray *ray = g_ptr_array_index (r->rays, i);

          stroke_polyline (cr, fig->view, &guard, (const double *) ray->data, ray->len / 2,
                           fr_figure_ray_rgb, ray_width);
        }
      if (fig->fold != NULL)
        cairo_restore (cr);
    }

  /* Markers: sources and receivers, or the characteristics' points. */
  /* Receivers first, then sources on top, as on the canvas: a shot at a
   * receiver's station was hidden under its diamond (helper-60).  In
   * Folds mode, the characteristics' points. */
  for (guint pass = 0; pass < 2; pass++)
    {
      const gboolean sources = pass == 1;
      const FrPoint *pts;
      guint n;

      if (fig->fold != NULL)
        pts = sources ? fr_fold_state_get_ray_points (fig->fold, &n) : (n = 0, NULL);
      else
        pts = fr_scene_get_markers (fig->scene, sources ? FR_MARKER_SOURCE : FR_MARKER_RECEIVER, &n);
      for (guint i = 0; i < n; i++)
        {
          double px, py;

          fr_view_model_to_widget (fig->view, pts[i].x, pts[i].z, &px, &py);
          if (!fr_clip_holds (&guard, px, py))
            continue;
          /* A source idle in the shot shown (each source its own shot):
           * white inside, as the canvas draws it hollow. */
          draw_marker (cr, px, py, !sources || fig->fold != NULL,
                       sources && fig->fold == NULL
                       ? (fr_scene_source_fires (fig->scene, i) ? source_rgb : white_rgb)
                       : receiver_rgb);
        }
    }
  cairo_restore (cr);

  fr_axes_draw (cr, fig->view, &layout, fig->scene, fig->colormap, 1.0, FR_AXES_ON_PAPER);
  cairo_restore (cr);
}

/* Draws the figure into cr over view->width × view->height (points or
 * pixels) on white: the whole view, where fr_figure_write crops to the
 * page. */
void
fr_figure_draw (const FrFigure *fig,
                cairo_t        *cr)
{
  g_return_if_fail (fig != NULL && fig->view != NULL && cr != NULL);
  g_return_if_fail (FR_IS_SCENE (fig->scene));

  if (!fr_scene_has_model (fig->scene))
    return;
  cairo_set_source_rgb (cr, 1.0, 1.0, 1.0);
  cairo_paint (cr);
  draw_content (fig, cr);
}

/* The page of a written figure, in the view's coordinates: the box of
 * what it draws (its ink, the clips applied, whatever the zoom and pan),
 * FR_FIGURE_MARGIN wider on every side.  FALSE without a model. */
gboolean
fr_figure_get_page (const FrFigure *figure,
                    FrRect         *page)
{
  cairo_surface_t *rec;
  cairo_t *cr;
  double x, y, w, h;

  g_return_val_if_fail (figure != NULL && figure->view != NULL && page != NULL, FALSE);
  g_return_val_if_fail (FR_IS_SCENE (figure->scene), FALSE);

  if (!fr_scene_has_model (figure->scene))
    return FALSE;
  /* Unbounded, so that nothing drawn is lost to the measure; cairo's ink
   * extents honour the clips and round out to whole points. */
  rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cr = cairo_create (rec);
  draw_content (figure, cr);
  cairo_destroy (cr);
  cairo_recording_surface_ink_extents (rec, &x, &y, &w, &h);
  cairo_surface_destroy (rec);
  /* Nothing drawn (all panned away): the view, as it was seen. */
  if (!(w > 0.0 && h > 0.0))
    {
      x = y = 0.0;
      w = figure->view->width;
      h = figure->view->height;
    }
  *page = (FrRect) { x - FR_FIGURE_MARGIN, y - FR_FIGURE_MARGIN,
                     w + 2.0 * FR_FIGURE_MARGIN, h + 2.0 * FR_FIGURE_MARGIN };
  return TRUE;
}

/* Writes what draw draws (on white, in points from the page's top left)
 * on a page of width × height points as SVG or PDF, atomically: the one
 * writer of every vector figure. */
gboolean
fr_figure_write_page (FrFigureFormat     format,
                      double             width,
                      double             height,
                      FrFigureDrawFunc   draw,
                      gconstpointer      data,
                      const char        *path,
                      GError           **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (draw != NULL && path != NULL, FALSE);

  if (format == FR_FIGURE_SVG)
    surface = cairo_svg_surface_create_for_stream (append_bytes, bytes, width, height);
  else
    surface = cairo_pdf_surface_create_for_stream (append_bytes, bytes, width, height);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1.0, 1.0, 1.0);
  cairo_paint (cr);
  draw (cr, data);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not draw the figure: %s"),
                   cairo_status_to_string (status));
      return FALSE;
    }
  /* A temporary file beside path, renamed: nothing half-written remains. */
  return fr_export_write_file (path, bytes->data, bytes->len, error);
}

typedef struct
{
  const FrFigure *figure;
  FrRect          page;
} PageDraw;

static void
draw_on_page (cairo_t       *cr,
              gconstpointer  data)
{
  const PageDraw *pd = data;

  /* Drawn again, not the measure replayed: cairo's SVG would keep a
   * replayed drawing in <defs> behind one <use>, not as the paths an
   * editor opens. */
  cairo_translate (cr, -pd->page.x, -pd->page.y);
  draw_content (pd->figure, cr);
}

/* Writes the figure as SVG or PDF on the page of fr_figure_get_page (in
 * points), atomically. */
gboolean
fr_figure_write (const FrFigure  *figure,
                 FrFigureFormat   format,
                 const char      *path,
                 GError         **error)
{
  PageDraw pd = { figure };

  g_return_val_if_fail (figure != NULL && figure->view != NULL, FALSE);
  g_return_val_if_fail (FR_IS_SCENE (figure->scene), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!fr_scene_has_model (figure->scene))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("There is no model to draw"));
      return FALSE;
    }
  fr_figure_get_page (figure, &pd.page);
  return fr_figure_write_page (format, pd.page.width, pd.page.height, draw_on_page, &pd, path, error);
}
