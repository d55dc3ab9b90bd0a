/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fr-time-plot"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "fr-marker-time.h"
#include "fr-result-time.h"
#include "fr-time-plot.h"

/* The plot's margins: the T labels at the left, the x labels and the x
 * title below, the T title above. */
#define MARGIN_LEFT   44.0
#define MARGIN_RIGHT  10.0
#define MARGIN_TOP    22.0
#define MARGIN_BOTTOM 36.0
#define DOT_RADIUS    3.5
/* A written figure's text, in points, and the white round its drawing. */
#define PAGE_FONT_SIZE 9.0
#define PAGE_BORDER    6.0

const double fr_time_plot_receiver_rgb[3] = { 0.2, 0.85, 1.0 };
const double fr_time_plot_source_rgb[3] = { 1.0, 0.3, 0.08 };

typedef struct
{
  double x, t;
  guint  receiver;   /* its index among the points given: the scene's order */
  guint  branch;     /* the shot's source where each fires alone, else 0 */
} CurvePoint;

/* Where a plot of width × height draws: the frame's edges. */
typedef struct
{
  double px0, px1, py0, py1;
} Frame;

struct _FrTimePlot
{
  double        x_min, x_max;
  gboolean      along_z;    /* the abscissa is z, not x */
  FrLengthUnit  unit;
  GArray       *points;     /* CurvePoint, reached receivers, branch by branch, by x */
  GArray       *sources;    /* double x */
  gint          shown;      /* each source its own shot: the shot shown; -1: one shot */
  double        t_top;      /* the T axis's top: kept while no times are shown */
  gint          selected;   /* the receiver ringed, or -1 */
};

FrTimePlot *
fr_time_plot_new (void)
{
  FrTimePlot *plot = g_new0 (FrTimePlot, 1);

  plot->points = g_array_new (FALSE, FALSE, sizeof (CurvePoint));
  plot->sources = g_array_new (FALSE, FALSE, sizeof (double));
  plot->x_max = 1.0;
  plot->t_top = 1.0;
  plot->selected = -1;
  plot->shown = -1;
  return plot;
}

void
fr_time_plot_free (FrTimePlot *plot)
{
  if (plot == NULL)
    return;
  g_array_unref (plot->points);
  g_array_unref (plot->sources);
  g_free (plot);
}

void
fr_time_plot_set_range (FrTimePlot *plot,
                        double      x_min,
                        double      x_max)
{
  g_return_if_fail (plot != NULL);

  plot->x_min = x_min;
  plot->x_max = x_max;
}

void
fr_time_plot_set_unit (FrTimePlot   *plot,
                       FrLengthUnit  unit)
{
  g_return_if_fail (plot != NULL);

  plot->unit = unit;
}

static int
compare_points (gconstpointer a,
                gconstpointer b)
{
  const CurvePoint *p = a, *q = b;

  if (p->branch != q->branch)
    return p->branch < q->branch ? -1 : 1;
  return (p->x > q->x) - (p->x < q->x);
}

/* The points of n_branches branches (t branch by branch), shown the
 * branch drawn in front (-1: one shot, n_branches 1). */
static void
set_branches (FrTimePlot   *plot,
              const double *x,
              const double *t,
              guint         n,
              guint         n_branches,
              const double *sources_x,
              guint         n_sources,
              gint          shown)
{
  double t_max = 0.0;

  g_array_set_size (plot->points, 0);
  for (guint b = 0; b < n_branches; b++)
    for (guint i = 0; i < n; i++)
      {
        const double ti = t[(gsize) b * n + i];

        if (isfinite (ti))
          {
            const CurvePoint p = { x[i], ti, i, b };

            g_array_append_val (plot->points, p);
            t_max = MAX (t_max, ti);
          }
      }
  g_array_sort (plot->points, compare_points);
  g_array_set_size (plot->sources, 0);
  g_array_append_vals (plot->sources, sources_x, n_sources);
  plot->shown = shown;
  if (t_max > 0.0)
    {
      const double step = fr_view_nice_step (t_max, 3);

      plot->t_top = MAX (step, ceil (t_max * 1.05 / step) * step);
    }
}

void
fr_time_plot_set_points (FrTimePlot   *plot,
                         const double *x,
                         const double *t,
                         guint         n,
                         const double *sources_x,
                         guint         n_sources)
{
  g_return_if_fail (plot != NULL);

  set_branches (plot, x, t, n, 1, sources_x, n_sources, -1);
}

void
fr_time_plot_set_shots (FrTimePlot   *plot,
                        const double *x,
                        const double *t,
                        guint         n,
                        const double *sources_x,
                        guint         n_sources,
                        guint         shown)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (shown < n_sources);

  set_branches (plot, x, t, n, n_sources, sources_x, n_sources, (gint) shown);
}

/* Whether receivers spread further in depth than across: a borehole's
 * array (a VSP, one side of a crosswell survey), whose times read against
 * z; a line along the surface, or any spread as wide as deep, against x. */
static gboolean
receivers_along_z (const FrPoint *receivers,
                   guint          n)
{
  double x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;

  for (guint i = 0; i < n; i++)
    {
      x0 = MIN (x0, receivers[i].x);
      x1 = MAX (x1, receivers[i].x);
      z0 = MIN (z0, receivers[i].z);
      z1 = MAX (z1, receivers[i].z);
    }
  return n >= 2 && z1 - z0 > x1 - x0;
}

void
fr_time_plot_set_scene (FrTimePlot     *plot,
                        FrScene        *scene,
                        const FrResult *result)
{
  const FrPoint *sources, *receivers;
  guint n_sources, n_receivers, n_branches;
  const fr_grid *g;
  gint shot;
  g_autofree double *x = NULL, *t = NULL, *sx = NULL;

  g_return_if_fail (plot != NULL);
  g_return_if_fail (FR_IS_SCENE (scene));

  if (!fr_scene_has_model (scene))
    {
      fr_time_plot_set_points (plot, NULL, NULL, 0, NULL, 0);
      return;
    }
  g = fr_scene_get_grid (scene);
  sources = fr_scene_get_markers (scene, FR_MARKER_SOURCE, &n_sources);
  receivers = fr_scene_get_markers (scene, FR_MARKER_RECEIVER, &n_receivers);
  plot->along_z = receivers_along_z (receivers, n_receivers);
  if (plot->along_z)
    fr_time_plot_set_range (plot, g->z0, g->z0 + (double) (g->nz - 1) * g->dz);
  else
    fr_time_plot_set_range (plot, g->x0, g->x0 + (double) (g->nx - 1) * g->dx);
  /* Each source its own shot: a branch for each, read from the times
   * solved with it. */
  shot = fr_scene_get_shot (scene);
  n_branches = shot >= 0 ? n_sources : 1;
  x = g_new (double, MAX (n_receivers, 1));
  t = g_new (double, MAX ((gsize) n_receivers * n_branches, 1));
  sx = g_new (double, MAX (n_sources, 1));
  for (guint i = 0; i < n_receivers; i++)
    x[i] = plot->along_z ? receivers[i].z : receivers[i].x;
  for (guint b = 0; b < n_branches; b++)
    for (guint i = 0; i < n_receivers; i++)
      {
        double *ti = &t[(gsize) b * n_receivers + i];
        gboolean has;

        if (result == NULL)
          has = FALSE;
        else if (shot >= 0)
          has = fr_result_shot_time_at (result, b, i, receivers[i].x, receivers[i].z, ti);
        else
          has = fr_result_time_at (result, receivers[i].x, receivers[i].z, ti);
        if (!has)
          *ti = NAN;
      }
  for (guint i = 0; i < n_sources; i++)
    sx[i] = plot->along_z ? sources[i].z : sources[i].x;
  if (shot >= 0)
    fr_time_plot_set_shots (plot, x, t, n_receivers, sx, n_sources, (guint) shot);
  else
    fr_time_plot_set_points (plot, x, t, n_receivers, sx, n_sources);
}

gboolean
fr_time_plot_is_along_z (const FrTimePlot *plot)
{
  g_return_val_if_fail (plot != NULL, FALSE);

  return plot->along_z;
}

void
fr_time_plot_set_selected (FrTimePlot *plot,
                           gint        receiver)
{
  g_return_if_fail (plot != NULL);

  plot->selected = receiver;
}

guint
fr_time_plot_get_n_points (const FrTimePlot *plot)
{
  g_return_val_if_fail (plot != NULL, 0);

  return plot->points->len;
}

double
fr_time_plot_get_t_top (const FrTimePlot *plot)
{
  g_return_val_if_fail (plot != NULL, 0.0);

  return plot->t_top;
}

/* The frame of a plot drawn on width × height; FALSE where there is no
 * room for axes (nothing is drawn then) or no range. */
static gboolean
plot_frame (const FrTimePlot *plot,
            double            width,
            double            height,
            Frame            *f)
{
  *f = (Frame) { MARGIN_LEFT, width - MARGIN_RIGHT, MARGIN_TOP, height - MARGIN_BOTTOM };
  return f->px1 - f->px0 >= 20.0 && f->py1 - f->py0 >= 20.0 && plot->x_max - plot->x_min > 0.0;
}

/* A position along the axis, and a time, to the drawing's coordinates. */
static double
frame_x (const FrTimePlot *plot,
         const Frame      *f,
         double            x)
{
  return f->px0 + (x - plot->x_min) / (plot->x_max - plot->x_min) * (f->px1 - f->px0);
}

static double
frame_y (const FrTimePlot *plot,
         const Frame      *f,
         double            t)
{
  return f->py1 - t / plot->t_top * (f->py1 - f->py0);
}

/* Whether p is on the branch drawn in front: the shot shown's, or the
 * only one. */
static gboolean
is_front (const FrTimePlot *plot,
          const CurvePoint *p)
{
  return plot->shown < 0 || p->branch == (guint) plot->shown;
}

/* text laid out in context, and its size in pixels. */
static PangoLayout *
text_layout (PangoContext *context,
             const char   *text,
             int          *w,
             int          *h)
{
  PangoLayout *layout = pango_layout_new (context);

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, w, h);
  return layout;
}

/* Text at (x, y), its anchor given by ax, ay in [0, 1] of its size. */
static void
draw_text (PangoContext *context,
           cairo_t      *cr,
           const char   *text,
           double        x,
           double        y,
           double        ax,
           double        ay)
{
  int w, h;
  PangoLayout *layout = text_layout (context, text, &w, &h);

  cairo_move_to (cr, round (x - ax * w), round (y - ay * h));
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

/* An axis title: "x (km)", or "x" without a unit. */
static char *
axis_title (const char *name,
            const char *unit)
{
  return unit != NULL && *unit != '\0' ? g_strdup_printf ("%s (%s)", name, unit) : g_strdup (name);
}

/* Each shot's branch named by its source ("S2") above its latest arrival,
 * the far end of a shot's spread (below it where above would leave the
 * frame), the shot shown's first; a name that would overlap one already
 * placed is left out (with many shots the ends stack at the model's
 * edges), so that every name drawn is legible. */
static void
label_branches (const FrTimePlot *plot,
                const Frame      *f,
                cairo_t          *cr,
                PangoContext     *context,
                const double      ink[3])
{
  g_autoptr(GArray) placed = g_array_new (FALSE, FALSE, sizeof (Frame));

  for (guint k = 0; k < plot->sources->len; k++)
    {
      /* The shot shown first, then the others in order. */
      const guint b = k == 0 ? (guint) plot->shown : k <= (guint) plot->shown ? k - 1 : k;
      const CurvePoint *far = NULL;
      PangoLayout *layout;
      char name[32];
      int w, h;
      Frame box;
      gboolean clear = TRUE;

      for (guint i = 0; i < plot->points->len; i++)
        {
          const CurvePoint *p = &g_array_index (plot->points, CurvePoint, i);

          if (p->branch == b && (far == NULL || p->t > far->t))
            far = p;
        }
      if (far == NULL)
        continue;
      /* Translators: a source's name in the marker list, "S1"; as short as can be */
      g_snprintf (name, sizeof name, _("S%u"), b + 1);
      layout = text_layout (context, name, &w, &h);
      box.px0 = CLAMP (round (frame_x (plot, f, far->x) - 0.5 * w), f->px0 + 1, f->px1 - 1 - w);
      box.px1 = box.px0 + w;
      box.py1 = round (frame_y (plot, f, far->t) - DOT_RADIUS - 2);
      box.py0 = box.py1 - h;
      if (box.py0 < f->py0 + 1)
        {
          box.py0 = round (frame_y (plot, f, far->t) + DOT_RADIUS + 2);
          box.py1 = box.py0 + h;
        }
      for (guint i = 0; i < placed->len && clear; i++)
        {
          const Frame *o = &g_array_index (placed, Frame, i);

          clear = box.px1 <= o->px0 || o->px1 <= box.px0 || box.py1 <= o->py0 || o->py1 <= box.py0;
        }
      if (clear)
        {
          g_array_append_val (placed, box);
          cairo_set_source_rgba (cr, ink[0], ink[1], ink[2], b == (guint) plot->shown ? 0.9 : 0.6);
          cairo_move_to (cr, box.px0, box.py0);
          pango_cairo_show_layout (cr, layout);
        }
      g_object_unref (layout);
    }
}

void
fr_time_plot_draw (const FrTimePlot *plot,
                   cairo_t          *cr,
                   PangoContext     *context,
                   double            width,
                   double            height,
                   const double      ink[3])
{
  g_autofree char *x_title = NULL, *t_title = NULL;
  double step, span, px0, px1, py0, py1;
  Frame f;

  g_return_if_fail (plot != NULL && cr != NULL && PANGO_IS_CONTEXT (context));

  if (!plot_frame (plot, width, height, &f))
    return;
  px0 = f.px0;
  px1 = f.px1;
  py0 = f.py0;
  py1 = f.py1;
  span = plot->x_max - plot->x_min;
  cairo_save (cr);
  cairo_set_line_width (cr, 1.0);

#define SX(x) frame_x (plot, &f, (x))
#define SY(t) frame_y (plot, &f, (t))

  /* Grid lines and tick labels: x below, T at the left. */
  step = fr_view_nice_step (span, 4);
  for (double v = ceil (plot->x_min / step - 1e-9) * step; v <= plot->x_max + 1e-9 * step; v += step)
    {
      char buf[32];

      cairo_set_source_rgba (cr, ink[0], ink[1], ink[2], 0.15);
      cairo_move_to (cr, round (SX (v)) + 0.5, py0);
      cairo_line_to (cr, round (SX (v)) + 0.5, py1);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, ink[0], ink[1], ink[2], 0.8);
      g_snprintf (buf, sizeof buf, "%g", fabs (v) < 1e-9 * step ? 0.0 : v);
      draw_text (context, cr, buf, SX (v), py1 + 3, 0.5, 0.0);
    }
  step = fr_view_nice_step (plot->t_top, 3);
  for (double v = 0.0; v <= plot->t_top + 1e-9 * step; v += step)
    {
      char buf[32];

      cairo_set_source_rgba (cr, ink[0], ink[1], ink[2], 0.15);
      cairo_move_to (cr, px0, round (SY (v)) + 0.5);
      cairo_line_to (cr, px1, round (SY (v)) + 0.5);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, ink[0], ink[1], ink[2], 0.8);
      g_snprintf (buf, sizeof buf, "%g", v);
      /* Clear of a source's triangle at the axis's start (a VSP's shot). */
      draw_text (context, cr, buf, px0 - 7, SY (v), 1.0, 0.5);
    }
  cairo_set_source_rgba (cr, ink[0], ink[1], ink[2], 0.6);
  cairo_rectangle (cr, px0 + 0.5, py0 + 0.5, px1 - px0 - 1.0, py1 - py0 - 1.0);
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, ink[0], ink[1], ink[2], 0.8);
  /* As the marker list heads its columns; T in seconds where lengths
   * have a unit. */
  x_title = axis_title (plot->along_z ? C_("marker position", "z") : C_("marker position", "x"),
                        plot->unit != FR_LENGTH_UNIT_NONE ? fr_length_unit_get_id (plot->unit) : NULL);
  t_title = axis_title (C_("traveltime", "T"), plot->unit != FR_LENGTH_UNIT_NONE ? "s" : NULL);
  draw_text (context, cr, x_title, px1, height - 1, 1.0, 1.0);
  draw_text (context, cr, t_title, px0 - 7, py0 - 4, 1.0, 1.0);

  /* The curve, through the receivers by x, and each receiver a dot; a
   * receiver at the model's edge shows whole.  Each source its own shot:
   * a branch for each, the other shots' thin and their dots hollow, the
   * shot shown drawn last, on top. */
  cairo_rectangle (cr, px0 - DOT_RADIUS - 1, py0 - DOT_RADIUS - 1, px1 - px0 + 2 * DOT_RADIUS + 2,
                   py1 - py0 + 2 * DOT_RADIUS + 2);
  cairo_clip (cr);
  for (guint pass = 0; pass < 2; pass++)
    {
      const gboolean front = pass == 1;

      cairo_set_source_rgba (cr, ink[0], ink[1], ink[2], front ? 0.7 : 0.45);
      cairo_set_line_width (cr, front ? 1.5 : 1.0);
      for (guint i = 0; i < plot->points->len; i++)
        {
          const CurvePoint *p = &g_array_index (plot->points, CurvePoint, i);
          const gboolean joined = i > 0 && g_array_index (plot->points, CurvePoint, i - 1).branch == p->branch;

          if (is_front (plot, p) != front)
            continue;
          (joined ? cairo_line_to : cairo_move_to) (cr, SX (p->x), SY (p->t));
        }
      cairo_stroke (cr);
      cairo_set_line_width (cr, 1.0);
      for (guint i = 0; i < plot->points->len; i++)
        {
          const CurvePoint *p = &g_array_index (plot->points, CurvePoint, i);

          if (is_front (plot, p) != front)
            continue;
          cairo_new_sub_path (cr);
          cairo_arc (cr, SX (p->x), SY (p->t), front ? DOT_RADIUS : DOT_RADIUS - 0.5, 0, 2 * G_PI);
          if (front)
            {
              cairo_set_source_rgb (cr, fr_time_plot_receiver_rgb[0], fr_time_plot_receiver_rgb[1],
                                    fr_time_plot_receiver_rgb[2]);
              cairo_fill_preserve (cr);
              cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
            }
          else
            cairo_set_source_rgba (cr, ink[0], ink[1], ink[2], 0.8);
          cairo_stroke (cr);
        }
    }
  if (plot->shown >= 0)
    label_branches (plot, &f, cr, context, ink);
  /* The selected receiver's dot ringed, as the canvas rings its marker
   * (on the shot shown). */
  for (guint i = 0; i < plot->points->len; i++)
    {
      const CurvePoint *p = &g_array_index (plot->points, CurvePoint, i);

      if ((gint) p->receiver != plot->selected || !is_front (plot, p))
        continue;
      cairo_new_sub_path (cr);
      cairo_arc (cr, SX (p->x), SY (p->t), DOT_RADIUS + 2.5, 0, 2 * G_PI);
      cairo_set_line_width (cr, 2.0);
      cairo_set_source_rgb (cr, ink[0], ink[1], ink[2]);
      cairo_stroke (cr);
      cairo_set_line_width (cr, 1.0);
    }
  /* The sources, as triangles on the position axis pointing up at T = 0;
   * those that do not fire in the shot shown hollow. */
  for (guint i = 0; i < plot->sources->len; i++)
    {
      const double sx = SX (g_array_index (plot->sources, double, i));

      cairo_move_to (cr, sx, py1 - 7);
      cairo_line_to (cr, sx - 5, py1 + 1);
      cairo_line_to (cr, sx + 5, py1 + 1);
      cairo_close_path (cr);
      if (plot->shown < 0 || (guint) plot->shown == i)
        {
          cairo_set_source_rgb (cr, fr_time_plot_source_rgb[0], fr_time_plot_source_rgb[1],
                                fr_time_plot_source_rgb[2]);
          cairo_fill_preserve (cr);
        }
      cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
#undef SX
#undef SY
}

gboolean
fr_time_plot_locate (const FrTimePlot *plot,
                     double            width,
                     double            height,
                     double            position,
                     double            t,
                     double           *x,
                     double           *y)
{
  Frame f;

  g_return_val_if_fail (plot != NULL && x != NULL && y != NULL, FALSE);

  if (!plot_frame (plot, width, height, &f))
    return FALSE;
  *x = frame_x (plot, &f, position);
  *y = frame_y (plot, &f, t);
  return TRUE;
}

/* A position with the plot's unit: "1.2 km", or "1.2" without one. */
static char *
with_unit (const FrTimePlot *plot,
           const char       *number,
           const char       *unit_of_length)
{
  return plot->unit != FR_LENGTH_UNIT_NONE ? g_strdup_printf ("%s %s", number, unit_of_length)
                                           : g_strdup (number);
}

/* The point (its index in plot->points) whose dot lies under (x, y):
 * within its radius and a little, the nearest, the shot shown's first
 * (drawn on top); -1 where none. */
static gint
dot_at (const FrTimePlot *plot,
        const Frame      *f,
        double            x,
        double            y)
{
  double best = INFINITY;
  gint found = -1;

  for (guint pass = 0; pass < 2 && found < 0; pass++)
    for (guint i = 0; i < plot->points->len; i++)
      {
        const CurvePoint *p = &g_array_index (plot->points, CurvePoint, i);
        const double d = hypot (frame_x (plot, f, p->x) - x, frame_y (plot, f, p->t) - y);

        if (is_front (plot, p) == (pass == 0) && d <= DOT_RADIUS + 3.0 && d < best)
          {
            best = d;
            found = (gint) i;
          }
      }
  return found;
}

/* A point's name in a tooltip: its receiver's ("R5"), and its shot's
 * source before it where each source fires alone ("S2, R5"). */
static void
point_name (const FrTimePlot *plot,
            const CurvePoint *p,
            char             *name,
            gsize             size)
{
  if (plot->shown >= 0)
    /* Translators: a receiver's dot on the traveltime curve of one shot
     * among several: the shot's source and the receiver, as the marker
     * list names them, "S2, R5" */
    g_snprintf (name, size, _("S%u, R%u"), p->branch + 1, p->receiver + 1);
  else
    /* Translators: a receiver's name in the marker list, "R1"; as short as can be */
    g_snprintf (name, size, _("R%u"), p->receiver + 1);
}

gint
fr_time_plot_receiver_at (const FrTimePlot *plot,
                          double            width,
                          double            height,
                          double            x,
                          double            y)
{
  Frame f;
  gint i;

  g_return_val_if_fail (plot != NULL, -1);

  if (!plot_frame (plot, width, height, &f) || (i = dot_at (plot, &f, x, y)) < 0)
    return -1;
  return (gint) g_array_index (plot->points, CurvePoint, i).receiver;
}

gboolean
fr_time_plot_describe_at (const FrTimePlot  *plot,
                          double             width,
                          double             height,
                          double             x,
                          double             y,
                          char             **text)
{
  const char *unit;
  g_autofree char *velocity_unit = NULL;
  double best = INFINITY;
  gint best_dot, best_segment = -1;
  Frame f;

  g_return_val_if_fail (plot != NULL && text != NULL, FALSE);

  *text = NULL;
  if (!plot_frame (plot, width, height, &f))
    return FALSE;
  unit = plot->unit != FR_LENGTH_UNIT_NONE ? fr_length_unit_get_id (plot->unit) : "";
  velocity_unit = g_strdup_printf ("%s/s", unit);
  /* A dot under the pointer first. */
  best_dot = dot_at (plot, &f, x, y);
  if (best_dot >= 0)
    {
      const CurvePoint *p = &g_array_index (plot->points, CurvePoint, best_dot);
      char name[32], pos[G_ASCII_DTOSTR_BUF_SIZE], t[G_ASCII_DTOSTR_BUF_SIZE];
      g_autofree char *pos_u = NULL, *t_u = NULL;
      const char *axis;

      point_name (plot, p, name, sizeof name);
      g_snprintf (pos, sizeof pos, "%g", p->x);
      g_snprintf (t, sizeof t, "%.*f", fr_marker_time_decimals (plot->t_top), p->t);
      pos_u = with_unit (plot, pos, unit);
      t_u = with_unit (plot, t, "s");
      axis = plot->along_z ? C_("marker position", "z") : C_("marker position", "x");
      /* Translators: the tooltip over a receiver's dot on the traveltime
       * curve, with the receiver's name, its position's axis (x or z), the
       * position and its first-arrival time T, as "R5: x = 1.2 km,
       * T = 0.4567 s" */
      *text = g_strdup_printf (_("%s: %s = %s, T = %s"), name, axis, pos_u, t_u);
      return TRUE;
    }
  /* Else the line between two neighbours under the pointer: its slope
   * is the apparent velocity a refraction survey reads off a T–x plot. */
  best = INFINITY;
  for (guint i = 0; i + 1 < plot->points->len; i++)
    {
      const CurvePoint *p = &g_array_index (plot->points, CurvePoint, i);
      const CurvePoint *q = &g_array_index (plot->points, CurvePoint, i + 1);
      const double ax = frame_x (plot, &f, p->x), ay = frame_y (plot, &f, p->t);
      const double bx = frame_x (plot, &f, q->x), by = frame_y (plot, &f, q->t);
      const double len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay);
      const double u = len2 > 0.0 ? CLAMP (((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / len2, 0.0, 1.0)
                                  : 0.0;
      const double d = hypot (ax + u * (bx - ax) - x, ay + u * (by - ay) - y);

      if (d <= 4.0 && d < best && q->t != p->t && q->branch == p->branch)
        {
          best = d;
          best_segment = (gint) i;
        }
    }
  if (best_segment >= 0)
    {
      const CurvePoint *p = &g_array_index (plot->points, CurvePoint, best_segment);
      const CurvePoint *q = &g_array_index (plot->points, CurvePoint, best_segment + 1);
      char from[32], to[32], v[G_ASCII_DTOSTR_BUF_SIZE];
      g_autofree char *v_u = NULL;

      point_name (plot, p, from, sizeof from);
      g_snprintf (to, sizeof to, _("R%u"), q->receiver + 1);
      const double speed = fabs ((q->x - p->x) / (q->t - p->t));

      /* Three figures, never an exponent: 2.95, 1500. */
      g_snprintf (v, sizeof v, speed >= 100.0 ? "%.0f" : "%.3g", speed);
      v_u = with_unit (plot, v, velocity_unit);
      /* Translators: the traveltime curve's line between two receivers
       * under the pointer, and its slope as a speed, as "R5 to R6:
       * apparent velocity 2.95 km/s" */
      *text = g_strdup_printf (_("%s to %s: apparent velocity %s"), from, to, v_u);
      return TRUE;
    }
  return FALSE;
}

/* The plot on a figure's page, black on white. */
static void
draw_on_page (cairo_t       *cr,
              gconstpointer  data)
{
  static const double black[3] = { 0.0, 0.0, 0.0 };
  PangoContext *context = pango_cairo_create_context (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans");
  cairo_font_options_t *options = cairo_font_options_create ();

  /* The text in points, its metrics unhinted, as the model figure's
   * (fr-axes-draw.c): the page's size is in points too. */
  pango_font_description_set_absolute_size (font, PAGE_FONT_SIZE * PANGO_SCALE);
  pango_context_set_font_description (context, font);
  pango_font_description_free (font);
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options (context, options);
  cairo_font_options_destroy (options);
  cairo_translate (cr, PAGE_BORDER, PAGE_BORDER);
  fr_time_plot_draw (data, cr, context, FR_TIME_PLOT_PAGE_WIDTH - 2.0 * PAGE_BORDER,
                     FR_TIME_PLOT_PAGE_HEIGHT - 2.0 * PAGE_BORDER, black);
  g_object_unref (context);
}

gboolean
fr_time_plot_write (const FrTimePlot *plot,
                    FrFigureFormat    format,
                    const char       *path,
                    GError          **error)
{
  g_return_val_if_fail (plot != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return fr_figure_write_page (format, FR_TIME_PLOT_PAGE_WIDTH, FR_TIME_PLOT_PAGE_HEIGHT,
                               draw_on_page, plot, path, error);
}
